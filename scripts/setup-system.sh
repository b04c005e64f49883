#!/usr/bin/env bash
# System packages the web tests need: Debian's postgresql (storage tests start their own
# cluster), chromium (Playwright browser tests) and the fonts the game's languages are
# drawn in (Traditional Chinese: Noto CJK; Thai: TLWG; the others: DejaVu). Installs only what is missing; needs root
# (or sudo) to install, and is a no-op when both are present.
set -euo pipefail
need=()
compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || need+=(postgresql)
[ -x /usr/bin/chromium ] || need+=(chromium)
[ -n "$(fc-list :lang=zh-tw 2>/dev/null)" ] || need+=(fonts-noto-cjk)
[ -n "$(fc-list :lang=th 2>/dev/null)" ] || need+=(fonts-thai-tlwg)
[ ${#need[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ]; then sudo=(); else sudo=(sudo); fi
echo "Installing system packages for the tests: ${need[*]}" >&2
"${sudo[@]}" apt-get update -qq >&2
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
    "${need[@]}" >&2
