"""What each card in a hand would do now: the total each of its plays makes, or the
engine's own reason why it cannot be played. Front ends show this on the cards
("+10 → 29", "no King to 99 in your first 5 turns") instead of working it out themselves,
and, when no card may be played, why and what the rules make of it
(:func:`stuck_explanation`).

>>> from ninetynine.records.position import position_from_mapping
>>> state = position_from_mapping({"rules": "P", "total": 95,
...                                "hands": ["AS 10S 8D", "2C 3C 4C"]})
>>> for o in card_options(state, 0):
...     print(o.card, [(str(a), t) for a, t in o.plays], o.refused and o.refused.why)
0 [('AS+1', 96)] None
30 [] 8♦ would make 103, over 99
36 [('10S-10', 85)] None
"""

from __future__ import annotations

from dataclasses import dataclass

from ninetynine.engine.actions import Action, ActionKind
from ninetynine.engine.events import Busted
from ninetynine.engine.state import State
from ninetynine.errors import IllegalActionError, Refusal
from ninetynine.language import Language, _, ngettext, using
from ninetynine.rules.cards import show_card
from ninetynine.rules.settings import Elimination, Scoring, Teams
from ninetynine.rules.words import GAME_POINT, counter, listed


@dataclass(frozen=True, slots=True)
class CardOption:
    """One card of the seat's hand: its legal plays with the total each makes, or why
    none is legal (``refused``, the typed error the engine raises)."""

    card: int
    plays: tuple[tuple[Action, int], ...] = ()
    refused: IllegalActionError | None = None


def card_options(state: State, seat: int) -> list[CardOption]:
    """Each distinct card in ``seat``'s hand, in order, while it is that seat's turn."""
    plays: dict[int, list[tuple[Action, int]]] = {}
    if state.current_seat == seat:
        for code in state.legal_codes():
            action = state.action_of(code)
            if action.card is not None:
                plays.setdefault(action.card, []).append(
                    (action, state.c.result(code, state.total))
                )
    out = []
    for card in sorted(set(state.hands[seat])):
        if card in plays:
            out.append(CardOption(card, tuple(plays[card])))
            continue
        try:
            state.check(state.plays_of(card)[0], seat)
        except IllegalActionError as e:
            out.append(CardOption(card, refused=e))
        else:  # cannot happen: a legal play would be listed
            out.append(CardOption(card))
    return out


# When no card may be played ----------------------------------------------------------


def _refusals(state: State) -> str:
    """Why no card in the hand of the seat to act may be played, in words: ``"3♠ and 5♠
    would take the total over 99; K♠ is barred in your first 2 turns"``."""
    rules, hand = state.rules, state.hands[state.turn]
    reasons: dict[str, list[str]] = {}
    for card in sorted(hand):
        eff = rules.effect_of(card)
        why = set()
        for value in eff.values if eff.has_choice else (None,):
            try:
                state.check(Action.play(card, value))
            except IllegalActionError as e:
                why.add(e.reason)
        if Refusal.OVER_LIMIT in why:
            words = _("would take the total over {limit}").format(limit=rules.limit)
        elif Refusal.BELOW_ZERO in why:
            words = _("would take the total below 0")
        elif Refusal.OPENING_BAN in why:
            words = ngettext(
                "may not make {limit} in your first {turns} turn",
                "may not make {limit} in your first {turns} turns",
                rules.king_ban_turns,
            ).format(limit=rules.limit, turns=rules.king_ban_turns)
        else:
            words = _("may not be played now")
        reasons.setdefault(words, []).append(show_card(card))
    return "; ".join(
        _("{cards} {why}").format(cards=listed(cards), why=words)
        for words, cards in reasons.items()
    )


def loss_cost(state: State, seat: int) -> str:
    """What losing the hand now costs ``seat``, in the rules' words: ``"a penny"``, ``"a
    token from your team's pool, and your team is out"``."""
    rules = state.rules
    if rules.scoring is Scoring.GAME_POINTS:
        return GAME_POINT.a
    noun, due, have = counter(rules), rules.bust_penalty, state.seat_lives(seat)
    cost = noun.some(due)
    if rules.teams is Teams.POOLED:
        cost = _("{amount} from your team's pool").format(amount=cost)
    if rules.elimination is Elimination.CANNOT_PAY and have < due:
        has = _("only {count}").format(count=noun(have)) if have else _("none left (on honour)")
        if rules.teams is Teams.POOLED:
            return _("{cost}: your team has {has}, so your team is out").format(cost=cost, has=has)
        return _("{cost}: you have {has}, so you are out").format(cost=cost, has=has)
    if rules.elimination is Elimination.AT_ZERO and have <= due:
        if rules.teams is Teams.POOLED:
            return _("{cost}, and your team is out").format(cost=cost)
        return _("{cost}, and you are out").format(cost=cost)
    return cost


def stuck_explanation(state: State, lang: Language | None = None) -> str | None:
    """Why the seat to act has no safe card and what the rules make of it, or None; in
    ``lang``, or the current language (:mod:`ninetynine.language`)."""
    with using(lang):
        return _stuck(state)


def _stuck(state: State) -> str | None:
    rules, legal = state.rules, state.legal_actions()
    if not legal:
        return None
    kinds = {a.kind for a in legal}
    why = _refusals(state) if state.hands[state.turn] else _("you have no cards")
    if kinds == {ActionKind.DOWN}:
        return _("You cannot play: {why}. You lay down your hand and lose {cost}.").format(
            why=why, cost=loss_cost(state, state.turn)
        )
    if kinds == {ActionKind.PASS} and state.may_decline:
        return _("No card you hold is safe on this extra turn: you decline it, with no penalty.")
    if kinds == {ActionKind.PASS}:
        return _("You have no card you may play ({why}): you pass, with no penalty.").format(
            why=why
        )
    if kinds == {ActionKind.PLAY} and not rules.may_bust:
        trial = state.clone()
        if any(isinstance(e, Busted) for e in trial.apply(legal[0])):
            how = _("the lowest card is played for you") if len(legal) == 1 else _("choose one")
            cost = (
                _("a game point for each border you cross")
                if rules.scoring is Scoring.GAME_POINTS
                else loss_cost(state, state.turn)
            )
            return _(
                "Every card you hold would take the total over {limit}: you must still play "
                "one ({how}) and lose {cost}."
            ).format(limit=rules.limit, how=how, cost=cost)
    return None
    kinds = {a.kind for a in legal}
    why = _refusals(state) if state.hands[state.turn] else "you have no cards"
    if kinds == {ActionKind.DOWN}:
        return (
            f"You cannot play: {why}. You lay down your hand and lose "
            f"{loss_cost(state, state.turn)}."
        )
    if kinds == {ActionKind.PASS} and state.may_decline:
        return "No card you hold is safe on this extra turn: you decline it, with no penalty."
    if kinds == {ActionKind.PASS}:
        return f"You have no card you may play ({why}): you pass, with no penalty."
    if kinds == {ActionKind.PLAY} and not rules.may_bust:
        trial = state.clone()
        if any(isinstance(e, Busted) for e in trial.apply(legal[0])):
            how = "the lowest card is played for you" if len(legal) == 1 else "choose one"
            cost = (
                "a game point for each border you cross"
                if rules.scoring is Scoring.GAME_POINTS
                else loss_cost(state, state.turn)
            )
            return (
                f"Every card you hold would take the total over {rules.limit}: you must "
                f"still play one ({how}) and lose {cost}."
            )
    return None
