#!/usr/bin/env bash
# Play Ninety-Nine in the terminal: sets up .venv on first use, then starts a game.
set -euo pipefail
# The hints the game prints ("resume it with ...") say what to type from where you are.
export NINETYNINE_VIA="$0" NINETYNINE_BIN="$(dirname "$0")/.venv/bin/ninetynine"
cd "$(dirname "$0")"
source scripts/setup-venv.sh run
exec ninetynine play "$@"
