#!/usr/bin/env python3
"""An example bot for the ninetynine engine protocol (see docs/bot-protocol.md).

It reads one JSON request per line on stdin and answers one JSON line on stdout. Its
strategy is simple but not random: play the legal card that takes the total highest
without going over the limit, keeping the cards that are safe at any total (hold, set,
minus...) for when nothing else is. Only the standard library is used, so the same loop
is easy to write in any language.

Try it:
    ninetynine arena --rules P --bots "cmd:python examples/protocol_bot.py",random,random
"""

import json
import random
import sys


def new_total(effect: str, total: int, value: int | None, limit: int) -> int:
    """The total after a card with this effect ("+10", "set", "hold reverse", ...)."""
    head = effect.split()[0]
    if head == "set":
        return limit
    if head == "hold":
        return total
    if head == "halve-or-double":
        return total // 2 if total % 2 == 0 and total > 49 else total * 2
    if head == "halve-even":
        return total // 2 if total % 2 == 0 else total * 2
    return total + (value if value is not None else int(head))


def split(action: str) -> tuple[str, int | None]:
    """'AS+11' -> ('A', 11); '10H' -> ('10', None)."""
    for i in range(1, len(action)):
        if action[i] in "+-":
            return action[: i - 1], int(action[i:])
    return action[:-1], None


def choose(request: dict) -> str:
    view, legal = request["view"], request["legal"]
    rng = random.Random(request["seed"])
    limit, total, effects = view["limit"], view["total"], view["effects"]
    best, best_score = rng.choice(legal), float("-inf")
    for action in legal:
        if action in ("down", "pass", "draw", "nodraw"):
            score = -500.0 if action in ("down", "pass", "nodraw") else 0.0
        else:
            rank, value = split(action)
            effect = effects[rank]
            after = new_total(effect, total, value, limit)
            safe_at_limit = new_total(effect, limit, value, limit) <= limit
            score = -1000.0 if after > limit else after - (200 if safe_at_limit else 0)
        if score > best_score:
            best, best_score = action, score
    return best


def main() -> None:
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("type") == "quit":
            break
        if request.get("type") == "move":
            print(json.dumps({"action": choose(request)}), flush=True)


if __name__ == "__main__":
    main()
