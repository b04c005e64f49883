#!/usr/bin/env bash
# System packages the web tests need: Debian's postgresql (storage tests start their own
# cluster) and chromium (Playwright browser tests). Installs only what is missing; needs root
# (or sudo) to install, and is a no-op when both are present.
set -euo pipefail
need=()
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || need+=(postgresql)
[ -x /usr/bin/chromium ] || need+=(chromium)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ]; then sudo=(); else sudo=(sudo); fi
echo "Installing system packages for the tests: ${need[*]}" >&2
"${sudo[@]}" apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
    "${need[@]}" >&2
