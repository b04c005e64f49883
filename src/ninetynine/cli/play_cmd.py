"""Play Ninety-Nine in the terminal, against bots or with friends at the same keyboard.

With no options a game starts at once: you and three medium bots under the standard
rules (P). Examples: ``ninetynine play --rules K --players 3 --bots easy hard``,
``ninetynine play --seats you @Ann medium`` (Ann shares the keyboard),
``ninetynine play --resume``, ``ninetynine play --plain`` (text lines, for screen readers
and pipes). Every game is saved after each move under $NINETYNINE_HOME
(default ~/.local/share/ninetynine); finished games are kept there in games/.

With a game saved, play offers to resume it (Enter resumes; n starts a new game and keeps
the saved one in unfinished/). Without a terminal to ask at, it resumes when no option
asks for a new game, and says which it did; --new starts a new game without asking."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ninetynine.bots import bot_names
from ninetynine.cli.extras import installed, missing_note
from ninetynine.errors import NinetyNineError
from ninetynine.launch import command
from ninetynine.rules.presets import open_rules
from ninetynine.rules.settings import table_refusal
from ninetynine.session.table import Table, parse_seats


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Adds the options of ``ninetynine play`` to ``parser``: the rules, who sits where, the seed,
    the pace, the coach, the set-up form and resuming a saved game."""
    parser.add_argument(
        "--rules", default="P", help="preset id or alias, or a house-rules .toml (default: P)"
    )
    parser.add_argument(
        "--players",
        type=int,
        default=None,
        help="number of seats (default: 4, or the nearest the rules allow)",
    )
    parser.add_argument(
        "--bots",
        nargs="+",
        metavar="SPEC",
        default=None,
        help="bots for the other seats, used in turn: easy, medium, hard or a "
        "bot spec such as random or ismcts:iterations=500 (default: medium)",
    )
    parser.add_argument(
        "--seats",
        nargs="+",
        metavar="WHO",
        default=None,
        help="who sits where, seat 1 first: 'you', @NAME for another person at "
        "this keyboard, or a bot spec; sets the number of players",
    )
    parser.add_argument("--name", default="Player", help="your name (default: Player)")
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help="seed for the shuffles and the bots (default: random)",
    )
    parser.add_argument("--first", type=int, default=1, help="the seat that plays first")
    parser.add_argument(
        "--pace",
        type=float,
        default=None,
        metavar="SECONDS",
        help="pause before each bot move (default: 1.0; 0 in --plain mode "
        "when input is not a terminal)",
    )
    parser.add_argument(
        "--plain",
        action="store_true",
        help="play with text prompts and lines instead of the full screen",
    )
    parser.add_argument(
        "--coach",
        action="store_true",
        help="show the coach on your turns: for each move you may make, the "
        "chance of losing the hand and the game (key c, or 'coach' in "
        "--plain, turns it on and off)",
    )
    parser.add_argument(
        "--deck",
        choices=("two-colour", "four-colour"),
        default="two-colour",
        help="colour the suits two ways (red and black) or four (♦ blue, ♣ green too); "
        "the full-screen table",
    )
    parser.add_argument(
        "--setup", action="store_true", help="choose the rules, seats and your name on a form first"
    )
    parser.add_argument(
        "--resume",
        nargs="?",
        const="",
        default=None,
        metavar="FILE",
        help="continue the saved game (or the save FILE)",
    )
    parser.add_argument(
        "--new",
        action="store_true",
        help="start a new game without offering the saved one (which is kept in unfinished/)",
    )


# Options that describe a new game (pace and coach apply to a resumed one too).
NEW_GAME_OPTIONS = ("rules", "players", "bots", "seats", "name", "seed", "first", "setup")


def default_bots() -> list[str]:
    """The bot specs for the other seats when ``--bots`` is not given: ``medium`` (the
    heuristic bot), or ``easy`` where that is not installed."""
    return ["medium"] if "heuristic" in bot_names() else ["easy"]


def build_table(args: argparse.Namespace) -> Table:
    """The table the options describe: the saved game (``--resume``), or a new game (the game in
    progress set aside first); inconsistent options raise :class:`NinetyNineError`."""
    from ninetynine.session import saves

    if args.resume is not None:
        path = Path(args.resume) if args.resume else saves.current_path()
        table = saves.load_save(Path(args.resume) if args.resume else None)
        if args.pace is not None:
            table.pace = args.pace
        if path.resolve() != saves.current_path().resolve():
            _keep_current()
            saves.save_current(table)
            path.unlink()  # it lives on as the game in progress
        return table
    rules = open_rules(args.rules)
    players = args.players or min(max(4, rules.players_min), rules.players_max)
    if args.seats and args.players and args.players != len(args.seats):
        raise NinetyNineError(
            f"--players {args.players} but --seats names {len(args.seats)} "
            "seats: give one or make them agree"
        )
    name = args.name.strip()
    if not name or not name.isprintable():
        raise NinetyNineError(f"--name {args.name!r}: expected a name of printable characters")
    count = len(args.seats) if args.seats else players
    if (why := table_refusal(rules, count)) is not None:
        raise NinetyNineError(f"{count} players: {why}")
    seats = parse_seats(args.seats, players=players, bots=args.bots or default_bots(), name=name)
    if not 1 <= args.first <= len(seats):
        raise NinetyNineError(f"--first {args.first}: expected a seat from 1 to {len(seats)}")
    pace = 1.0 if args.pace is None else args.pace
    if args.plain and args.pace is None and not sys.stdin.isatty():
        pace = 0.0
    if pace < 0:
        raise NinetyNineError(f"--pace {pace}: expected 0 or more seconds")
    _keep_current()
    return Table.new(rules, seats, seed=args.seed, pace=pace, first=args.first - 1)


def offer_saved_game(args: argparse.Namespace) -> bool:
    """With a game saved and neither --resume nor --new, whether to resume it: asked at a
    terminal (Enter: yes); otherwise yes unless an option describes a new game. Says what
    it did."""
    from ninetynine.session import saves

    if args.resume is not None or args.new or not saves.current_path().exists():
        return False
    try:
        saved = saves.load_save()
    except NinetyNineError:
        return False  # unreadable: a new game keeps it in unfinished/, with a note
    about = saves.describe_save(saved)
    saved.close()
    if sys.stdin.isatty():
        try:
            answer = input(f"A game is saved: {about}.\nResume it? [Y/n] ")
        except EOFError:
            answer = ""
        return answer.strip().lower() not in ("n", "no")
    defaults = build_parser_defaults()
    if any(getattr(args, key) != defaults[key] for key in NEW_GAME_OPTIONS):
        return False  # the options ask for a new game; _keep_current says where the old went
    print(
        f"Resuming the saved game: {about} (to start a new one instead: {command('play --new')})",
        file=sys.stderr,
    )
    return True


def build_parser_defaults() -> dict[str, object]:
    """Every ``play`` option's default, by its ``argparse`` name."""
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return vars(parser.parse_args([]))


def _keep_current() -> None:
    from ninetynine.session import saves

    moved = saves.set_aside()
    if moved:
        print(
            f"The game in progress was kept in {moved} (resume it with "
            f"'{command(f'play --resume {moved}')}').",
            file=sys.stderr,
        )


def setup_table(args: argparse.Namespace) -> Table | None:
    """The --setup form, its fields filled from the flags; None if it was cancelled."""
    from ninetynine.rules.presets import find_preset
    from ninetynine.tui.setup import Choices, SetupApp

    try:
        rules_id = find_preset(args.rules).id
    except NinetyNineError:
        rules_id = "P"
    bots = (args.bots or default_bots())[0]
    defaults = Choices(
        rules=rules_id,
        players=args.players or 4,
        name=args.name,
        bots=bots,
        people=(),
        pace=1.0 if args.pace is None else args.pace,
    )

    def build(c: Choices) -> Table:
        if len(c.people) + 1 > c.players:
            raise NinetyNineError(
                f"{c.players} players cannot seat you and "
                f"{len(c.people)} other people: raise the number of players"
            )
        chosen = argparse.Namespace(
            **{
                **vars(args),
                "rules": c.rules,
                "players": None,
                "seats": c.seat_words(),
                "name": c.name,
                "pace": c.pace,
                "resume": None,
            }
        )
        return build_table(chosen)

    return SetupApp(build, defaults).run()


def run(args: argparse.Namespace) -> int:
    """Plays ``ninetynine play``: on the full screen, or in text lines (``--plain``, or with
    no terminal or no ``tui`` extra), saving after every move. Returns the exit status."""
    from ninetynine.session import saves

    if not args.plain and not (sys.stdin.isatty() and sys.stdout.isatty()):
        # the full-screen game needs a terminal to draw on and read keys from
        print("ninetynine: no terminal here: playing in --plain mode (text lines)", file=sys.stderr)
        args.plain = True
    if not args.plain and not installed("tui"):
        print(
            missing_note("play", "the full-screen game", "tui") + "; playing in --plain "
            "mode (text lines)",
            file=sys.stderr,
        )
        args.plain = True
    if offer_saved_game(args):
        args.resume = ""
    if args.setup and not args.plain and args.resume is None:
        found = setup_table(args)
        if found is None:
            print("No game started.")
            return 0
        table = found
    else:
        table = build_table(args)
    table.on_move = saves.autosave
    saves.save_current(table)
    if args.plain:
        from ninetynine.tui.plain import run_plain

        return run_plain(
            table, sys.stdin, sys.stdout, finish=lambda t: str(saves.finish(t)), coach=args.coach
        )
    from ninetynine.tui.app import PlayApp
    from ninetynine.tui.text import Deck

    app = PlayApp(
        table, finish=lambda t: str(saves.finish(t)), coach=args.coach, deck=Deck(args.deck)
    )
    app.run()
    if app.message:
        print(app.message, file=sys.stderr if app.return_code else sys.stdout)
    return app.return_code or 0
