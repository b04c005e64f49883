#!/usr/bin/env bash
# Run the whole test suite: sets up .venv on first use, then lint, types and tests.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/setup-venv.sh dev
echo "== ruff";   ruff check src tests benchmarks scripts examples
ruff format --check src tests benchmarks scripts examples
echo "== mypy";   mypy
bash scripts/setup-system.sh  # Debian's postgresql and chromium for tests/web, if missing
echo "== pytest"
if [ $# -gt 0 ]; then pytest "$@"; exit; fi
# The folders without servers or browsers on every core; then tests/web and tests/tui alone,
# so that their timing checks (latency under a flood, a key's answer) never share the machine.
pytest -n auto --dist loadgroup --ignore=tests/web --ignore=tests/tui
pytest tests/web tests/tui
