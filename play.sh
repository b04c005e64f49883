#!/usr/bin/env bash
# Play Ninety-Nine in the terminal: sets up .venv on first use, then starts a game.
set -euo pipefail
cd "$(dirname "$0")"
source scripts/setup-venv.sh run
exec ninetynine play "$@"
