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
# The folders without servers or browsers on up to 4 cores (each worker holds the ML libraries
# in memory), a file to a worker (its module fixtures, such as the wheel built in the source
# tree, are made once); then alone the web and terminal tests, whose timing checks (latency
# under a flood, a key's answer) must not share the machine, and the two that start a Ray
# cluster (a second ray.init() joins the first).
pytest -n auto --maxprocesses 4 --dist loadfile --ignore=tests/web --ignore=tests/tui \
    --ignore=tests/analysis/test_ray.py --ignore=tests/rl/test_recipes.py
pytest tests/web tests/tui tests/analysis/test_ray.py tests/rl/test_recipes.py
