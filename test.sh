#!/usr/bin/env bash
# Run the whole test suite: sets up .venv on first use, then lint, types and tests.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/setup-venv.sh dev
echo "== ruff";   ruff check src tests benchmarks scripts examples
ruff format --check src tests benchmarks scripts examples
echo "== mypy";   mypy
bash scripts/setup-system.sh  # Debian's postgresql and chromium for tests/web, if missing
echo "== pytest"; pytest "$@"
