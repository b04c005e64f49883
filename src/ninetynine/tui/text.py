"""Words and labels for the table, shared by the full-screen game and the ``--plain`` mode.

Nothing here imports Textual; everything takes a :class:`~ninetynine.engine.view.View` (or the
public parts of a state), so what it prints is what the seat may see.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from ninetynine.coach.advice import Advice
from ninetynine.engine.actions import Action, ActionKind
from ninetynine.engine.state import Phase
from ninetynine.engine.view import View
from ninetynine.language import N_, _, ngettext, translated
from ninetynine.rules.cards import card_name, show_card
from ninetynine.rules.effects import Effect, Kind, Named
from ninetynine.rules.settings import Rules, Scoring, Teams
from ninetynine.rules.words import counter

SPECIAL_LABELS = {
    ActionKind.DOWN: N_("lay down"),
    ActionKind.PASS: N_("pass"),
    ActionKind.DRAW: N_("draw"),
    ActionKind.NODRAW: N_("no draw"),
    ActionKind.ACCEPT: N_("accept"),
}
# a pass on the extra turn a two-player reverse offers; typed as it is at the plain table
DECLINE_LABEL = N_("decline")


def special_label(kind: ActionKind, declining: bool = False) -> str:
    """A move that plays no card, as shown in the current language; ``declining``: the seat
    may decline an extra turn (its pass declines it)."""
    label = DECLINE_LABEL if declining and kind is ActionKind.PASS else SPECIAL_LABELS[kind]
    return translated(label)


card_label = show_card  # a card with its suit symbol, e.g. ``'10♥'``


class Deck(StrEnum):
    """How the suits are coloured: the usual two colours, or four (♠ plain, ♥ red, ♦ blue,
    ♣ green), which tells every suit apart at a glance."""

    TWO = "two-colour"
    FOUR = "four-colour"


# the style of each suit (S, H, D, C) in each deck
_SUIT_STYLES = {
    Deck.TWO: ("bold", "bold red", "bold red", "bold"),
    Deck.FOUR: ("bold", "bold red", "bold blue", "bold green"),
}


def card_markup(card: int, deck: Deck = Deck.TWO) -> str:
    """Rich markup for a card: hearts and diamonds in red (readable on dark and light), or
    with the four-colour ``deck`` diamonds blue and clubs green too."""
    return f"[{_SUIT_STYLES[deck][card & 3]}]{card_label(card)}[/]"


def direction_text(direction: int) -> str:
    """The direction of play as the table shows it: ``'→ clockwise'`` for 1,
    ``'← counter-clockwise'`` otherwise."""
    return "→ " + _("clockwise") if direction == 1 else "← " + _("counter-clockwise")


def lives_text(rules: Rules, view: View, seat: int) -> str:
    """What ``seat`` (0-based) has left, as the seats panel shows it: its lives in the rules'
    counter (``'5 pennies'``; in team play ``' (team N)'`` after it, N from 1: partners sharing
    one pool, or with alternate teams each their own), or with game points ``'pts P score S'``."""
    if rules.scoring is Scoring.GAME_POINTS:
        return _("pts {points} score {score}").format(
            points=view.points[seat], score=view.scores[seat]
        )
    team = (
        "" if rules.teams is Teams.NONE else _(" (team {n})").format(n=rules.teams.side(seat) + 1)
    )
    return counter(rules)(view.lives[seat]) + team  # "5 pennies", "1 token"


def seat_status(view: View, seat: int) -> str:
    """``'out'`` for a seat out of the game, ``'sits out'`` for one sitting this hand out, else
    ``''``."""
    if not view.alive[seat]:
        return _("out")
    if not view.in_hand[seat]:
        return _("sits out")
    return ""


@dataclass(frozen=True, slots=True)
class HandItem:
    """One thing to pick in the hand bar: a card (with its legal plays) or a lone action."""

    label: str
    card: int | None
    actions: tuple[Action, ...]  # empty: may not be played now

    @property
    def playable(self) -> bool:
        """Whether the item may be chosen now (it has a legal action)."""
        return bool(self.actions)


def hand_items(
    hand: Sequence[int], legal: Sequence[Action], declining: bool = False
) -> list[HandItem]:
    """The hand in order, each card with its legal plays, then any legal non-card action
    (``declining``: see :func:`special_label`)."""
    items = []
    for card in sorted(hand):
        plays = tuple(a for a in legal if a.kind is ActionKind.PLAY and a.card == card)
        items.append(HandItem(card_label(card), card, plays))
    for a in legal:
        if a.kind is not ActionKind.PLAY:
            items.append(HandItem(special_label(a.kind, declining), None, (a,)))
    return items


def choice_label(action: Action, names: Sequence[str] = ()) -> str:
    """What tells a card's plays apart: its value (``+11``), the player it names, or the
    total it sets (``= 57``)."""
    if action.value is not None:
        return f"{action.value:+d}"
    if action.target is not None:
        return names[action.target] if action.target < len(names) else f"P{action.target + 1}"
    if action.to is not None:
        return f"= {action.to}"
    return str(action)


def choice_text(
    action: Action, names: Sequence[str] = (), totals: Mapping[Action, int] | None = None
) -> str:
    """A choice as its button shows it: a value with the total it makes (``'+11 → 71'``),
    as the browser shows it; a named player or a set total as :func:`choice_label`."""
    label = choice_label(action, names)
    if action.value is not None and totals and action in totals:
        return f"{label} → {totals[action]}"
    return label


def short_path(path: str | Path, width: int = 56) -> str:
    """A file's path as a dialog shows it: the home folder as ``~``, and a path still
    longer than ``width`` cut at the front, whole folders at a time (``…/games/x.toml``)."""
    text, home = str(path), str(Path.home())
    if text == home or text.startswith(home.rstrip("/") + "/"):
        text = "~" + text[len(home.rstrip("/")) :]
    if len(text) <= width:
        return text
    parts = text.split("/")
    tail = parts[-1]
    for part in reversed(parts[:-1]):
        if len(part) + len(tail) + 3 > width:
            break
        tail = f"{part}/{tail}"
    return f"…/{tail}"


def said_at(rules: Rules, total: int) -> dict[str, str]:
    """Each call the rules describe with ``#`` for the total (``"back on you #"``), as a
    player says it on playing its card at ``total`` (``"back on you 57"``); going over
    shows the first total over the limit. For the help, which shows no ``#``."""

    def after(effect: Effect) -> int:
        if effect.kind is Kind.SET:
            return rules.limit if effect.to is None else effect.to
        if effect.kind is Kind.ADD and not effect.has_choice:
            return total + effect.values[0]
        return total  # a choice, a doubling...: the call names the total it makes

    said = {
        rules.bust_call.replace("{total}", "#"): rules.bust_call.replace(
            "{total}", str(rules.limit + 1)
        )
    }
    for call, effect in zip(rules.calls, rules.cards, strict=True):
        said.setdefault(call.replace("{total}", "#"), call.replace("{total}", str(after(effect))))
    return said


# what a card that names a seat asks, by what the seat is for
_NAMED_QUESTIONS = {
    Named.NEXT: N_("The {card}: who plays next?"),
    Named.CHALLENGE: N_("The {card}: whom do you challenge?"),
    Named.SWAP: N_("The {card}: whose hand do you take for yours?"),
    Named.TAKE: N_("The {card}: whom do you take a card from?"),
    Named.STRIP: N_("The {card}: whose hand do you strip to one card?"),
    Named.REVIVE: N_("The {card}: whom do you bring back, or whose hand do you fill up?"),
}


def choice_question(
    card: int, choices: Sequence[Action], total: int, rules: Rules | None = None
) -> str:
    """The question a card with several plays asks (the choices come from the data)."""
    first = choices[0]
    name = card_name(card)
    if first.target is not None:
        named = rules.effect_of(card).named if rules is not None else None
        return translated(_NAMED_QUESTIONS[named or Named.NEXT]).format(card=name)
    if first.to is not None:
        return _("The {card}: new total, 0 to {high}? (now {total})").format(
            card=name, high=choices[-1].to, total=total
        )
    return _("The {card}: how much does it count? (the total is {total})").format(
        card=name, total=total
    )


def turn_note(view: View) -> str | None:
    """What a no-draw chain or a challenge asks of the seat to act, or None."""
    if view.challenger is not None and view.phase is Phase.PLAY:
        answers = _(" or ").join(challenge_answers(view)) or _("nothing you hold")
        return _("P{seat} challenges you: answer with {answers}, or accept (you are out).").format(
            seat=view.challenger + 1, answers=answers
        )
    if view.plays_left:
        n = view.plays_left
        return ngettext(
            "play {n} more card without drawing.", "play {n} more cards without drawing.", n
        ).format(n=n)
    if view.chain:
        n = view.chain
        return ngettext(
            "play a card without drawing, or another no-draw card.",
            "play {n} cards without drawing, or another no-draw card.",
            n,
        ).format(n=n)
    if view.may_decline and view.phase is Phase.PLAY:  # (not while drawing first)
        return _("the reverse gives you another turn: play a card, or decline it.")
    return None


def challenge_answers(view: View) -> list[str]:
    """The cards in the view's hand that answer a challenge, as people read them."""
    return [card_label(a.card) for a in view.legal if a.card is not None]


def coach_moves(advice: Advice, label: Callable[[Action], str] = str) -> list[str]:
    """Each move with the coach's figures, e.g. ``'K♠ 12%/70% ★'`` (★: its pick, where no
    other move is tied with it); the suits of one move as ``'7♥/7♦ 20%/64%'``."""
    out = []
    clear = len(advice.tied) == 1
    for m in advice.moves:
        game = "" if m.lose_game is None else f"/{100 * m.lose_game:.0f}%"
        star = " ★" if clear and m.action == advice.best else ""
        names = "/".join(label(a) for a in m.actions or (m.action,))
        out.append(f"{names} {100 * m.lose_hand:.0f}%{game}{star}")
    return out


def action_label(action: Action, declining: bool = False) -> str:
    """A move as the hand shows it: ``'A♠+11'``, ``'K♥'``, ``'lay down'``, ``'decline'``."""
    if action.card is None:
        return special_label(action.kind, declining)
    value = f"{action.value:+d}" if action.value is not None else ""
    return card_label(action.card) + value


def coach_line(advice: Advice, label: Callable[[Action], str] = action_label) -> str:
    """The coach's figures on one line: ``'Coach (chance of losing the hand/game): ...'``,
    ending ``'  tied: A, B'`` where the best moves are within the noise of each other."""
    head = (
        _("Coach (chance of losing the hand):")
        if advice.moves[0].lose_game is None
        else _("Coach (chance of losing the hand/game):")
    )
    line = head + " " + "  ".join(coach_moves(advice, label))
    if len(advice.tied) > 1:
        line += "  " + _("tied: {moves}").format(moves=", ".join(label(a) for a in advice.tied))
    if advice.note:
        line += f" ({translated(advice.note)})"
    return line
