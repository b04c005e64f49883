"""Run ``ninetynine`` with some imports refused, as on an install without those extras:
``python block_imports.py BLOCK ARGS...``. BLOCK is ``*`` for every module outside the
standard library and ninetynine itself, or a comma list of top-level names. At the end it
checks that no refused module was loaded by another way."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType


class Refuse:
    """A meta-path finder, first in line, that refuses the blocked top-level modules."""

    def __init__(self, block: str) -> None:
        self.names = None if block == "*" else frozenset(block.split(","))

    def refuses(self, top: str) -> bool:
        if self.names is None:
            return top != "ninetynine" and top not in sys.stdlib_module_names
        return top in self.names

    def find_spec(
        self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if self.refuses(name.partition(".")[0]):
            raise ModuleNotFoundError(f"No module named {name!r} (blocked)", name=name)
        return None  # the usual finders go on


def main() -> int:
    refuse = Refuse(sys.argv[1])
    loaded = {m.partition(".")[0] for m in sys.modules if refuse.refuses(m.partition(".")[0])}
    sys.meta_path.insert(0, refuse)
    from ninetynine.cli.main import main as ninetynine

    code = ninetynine(sys.argv[2:])
    sys.stdout.flush()
    leaked = {m.partition(".")[0] for m in sys.modules} - loaded
    leaked = {m for m in leaked if refuse.refuses(m)}
    if leaked:
        print(f"block_imports: loaded although blocked: {sorted(leaked)}", file=sys.stderr)
        return 99
    return code


if __name__ == "__main__":
    sys.exit(main())
