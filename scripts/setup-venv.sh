# Sourced by play.sh and test.sh: create .venv and install the project into it when
# pyproject.toml changed since the last install. Argument: "dev" for every extra and the test
# tools, or "run" for the game with its full-screen front end, the tui extra (always pass one:
# a sourced script sees the caller's arguments).
venv=.venv
case "${1:-}" in
    dev) extra=dev ;;
    run) extra=tui ;;
    *) echo "setup-venv.sh: expected 'dev' or 'run', got '${1:-}'" >&2; return 2 ;;
esac
base="$venv/.installed-$(sha1sum pyproject.toml | cut -c1-12)"
stamp="$base-$extra"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
# the test tools' install ("dev") includes the game's, so it serves "run" as well
if [ ! -f "$stamp" ] && ! { [ "$extra" = tui ] && [ -f "$base-dev" ]; }; then
    echo "Setting up $venv (first run only)..." >&2
    "$venv/bin/python" -m pip install --quiet --upgrade pip >&2
    "$venv/bin/python" -m pip install --quiet -e ".[$extra]" >&2
    touch "$stamp"
fi
export PATH="$PWD/$venv/bin:$PATH"
