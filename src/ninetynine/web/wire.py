"""What goes over the wire: a seat's view and the public log as JSON (seats from 1).

Only :func:`ninetynine.engine.view.observe` output is serialised here, field by field, so a
client never receives another hand, the stock order or a shuffle (a replay of a finished
game or an uploaded record may open every hand: its viewer holds the whole record).
"""

from __future__ import annotations

from contextlib import suppress
from typing import Any

from ninetynine.coach import advice_json, advise, costliest, review, review_json
from ninetynine.engine.events import Event, TotalCalled, event_to_json, narrate
from ninetynine.engine.options import CardOption
from ninetynine.engine.view import View, observe
from ninetynine.language import Language, _, ngettext, translated, using
from ninetynine.records.match import Standing, standings
from ninetynine.records.match import steps as match_steps
from ninetynine.records.record import Record
from ninetynine.rules.cards import ALL_RANKS, RANKS, format_card, rank_of
from ninetynine.rules.effects import Effect, Kind, effect_label
from ninetynine.rules.settings import Rules
from ninetynine.rules.words import counter, ending, spoken

_FACE_VALUES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)  # what a card counts when plain


def view_json(view: View, *, spectator: bool = False) -> dict[str, Any]:
    """A seat's view; a spectator's copy has no hand and no legal actions."""
    outcome = view.outcome
    return {
        "seat": None if spectator else view.seat + 1,
        "phase": view.phase,
        "turn": None if view.turn is None else view.turn + 1,
        "total": view.total,
        "limit": view.rules.limit,
        "direction": "cw" if view.direction == 1 else "ccw",
        "dealer": view.dealer + 1 if view.rules.dealer else None,  # G has no dealer
        "hand_no": view.hand_no,
        "hand": [] if spectator else [format_card(c) for c in view.hand],
        "hand_sizes": list(view.hand_sizes),
        "lives": list(view.lives),
        "alive": list(view.alive),
        "in_hand": list(view.in_hand),
        "points": list(view.points),
        "scores": list(view.scores),
        "scoring": str(view.rules.scoring),
        "counter": {"one": counter(view.rules).one, "many": counter(view.rules).many},
        "pot": view.pot,
        "pile": [format_card(c) for c in view.pile[-8:]],
        "pile_size": len(view.pile),
        "stock_size": view.stock_size,
        "chain": view.chain,
        "plays_left": view.plays_left,
        "may_decline": view.may_decline,
        "challenger": None if view.challenger is None else view.challenger + 1,
        # per seat, the cards this seat knows in that seat's hand (a swap or a take showed
        # them, CN99); a spectator knows none
        "known": [] if spectator else [[format_card(c) for c in k] for k in view.known],
        "legal": [] if spectator else [str(a) for a in view.legal],
        "outcome": None
        if outcome is None
        else {
            "winners": [w + 1 for w in outcome.winners],
            "reason": outcome.reason,
            "why": ending(outcome.reason),
        },
    }


def rules_json(rules: Rules) -> dict[str, Any]:
    """What a client needs to label the cards: each rank's effect in a few words, whether
    it is special (does more than count its face value), and the suit exceptions."""

    def card(eff: Effect, rank: int) -> dict[str, Any]:
        plain = (
            rank < len(RANKS)  # (a joker has no face value: whatever it does is its own)
            and eff.kind is Kind.ADD
            and eff.values == (_FACE_VALUES[rank],)
            and not (eff.reverse or eff.skip or eff.names_seat or eff.no_draw)
        )
        return {"label": effect_label(eff, rules.limit), "special": not plain, "names": eff.named}

    ranks = rules.cards + (rules.joker_cards if rules.jokers else ())  # SJ, BJ: ranks 13, 14
    return {
        "id": rules.id,
        "name": rules.name,
        "limit": rules.limit,
        "ranks": {ALL_RANKS[r]: card(e, r) for r, e in enumerate(ranks)},
        "suits": {format_card(c): card(e, rank_of(c)) for c, e in rules.suit_cards},
    }


def options_json(options: list[CardOption]) -> dict[str, Any]:
    """Each card of the hand: the total each legal play makes, or the engine's reason."""
    return {
        format_card(o.card): {
            "plays": [{"action": str(a), "total": total} for a, total in o.plays],
            "refused": None
            if o.refused is None
            else {"reason": o.refused.reason.value, "why": o.refused.why},
        }
        for o in options
    }


def standings_json(standings: list[Standing], hands: int) -> dict[str, Any]:
    """The standings as JSON: the ``hands`` played and each seat's result, seats from 1."""
    return {
        "hands": hands,
        "seats": [
            {"seat": s.seat + 1, "place": s.place, "lives": s.lives, "lost": s.lost, "won": s.won}
            for s in standings
        ],
    }


def replay_json(record: Record, seat: int | None, lang: Language = Language.EN) -> dict[str, Any]:
    """A record stepped through for the browser: after each player move, the view of
    ``seat`` (0-based), or with every hand open (None), the table talk since the last step
    and the calls made in it (their speech bubbles), in ``lang`` as the cards' labels are.
    Only for finished games and uploaded records: the caller sees them all."""
    with using(lang):
        return _replay(record, seat, lang)


def _replay(record: Record, seat: int | None, lang: Language) -> dict[str, Any]:
    steps, events = match_steps(record)
    names = record.names or [f"P{i + 1}" for i in range(record.start.n)]
    out, seen = [], 0
    for i, step in enumerate(steps):
        view = view_json(observe(step.state, seat or 0), spectator=seat is None)
        if seat is None:
            view["hands"] = [[format_card(c) for c in sorted(h)] for h in step.state.hands]
        said = events[seen : step.events]
        talk = [t for e in said if (t := narrate(e, names, record.start.rules, lang))]
        calls = [
            {"seat": e.seat + 1, "call": spoken(e.text, e.total)}
            for e in said
            if isinstance(e, TotalCalled)
        ]
        seen = step.events
        out.append({"step": i, "moves": step.moves, "view": view, "talk": talk, "calls": calls})
    final = steps[-1].state
    return {
        "rules": rules_json(record.start.rules),
        "names": names,
        "steps": out,
        "seat": None if seat is None else seat + 1,
        "standings": standings_json(standings(final, events), final.hand_no)
        if final.is_over
        else None,
    }


def coach_json(view: View, playouts: int, seed: int) -> dict[str, Any]:
    """The coach's figures for the seat of ``view``, as a worker sends them back."""
    return advice_json(advise(view, playouts=playouts, seed=seed))


def review_replay_json(record: Record, seat: int, playouts: int) -> dict[str, Any]:
    """A finished game's decisions of ``seat`` (0-based) reviewed by the coach
    (:func:`ninetynine.coach.review`); a decision's ``action_number`` is one more than the
    ``moves`` of the replay step that shows it. The costliest flagged ones are listed by
    number."""
    decisions = review(record, seat, playouts=playouts)
    return {
        "seat": seat + 1,
        "playouts": playouts,
        "decisions": review_json(decisions),
        "costliest": [d.number for d in costliest(decisions)],
    }


# an event's table talk in the other languages, kept beside its English ``text`` for the
# connections that read another (:func:`in_language`); never sent as it is
TRANSLATIONS = "translations"


class Narration:
    """An event's line of table talk in any language, each made the first time a
    connection in that language is sent it (most tables are read in one language only);
    a call's words as said in each language too (its speech bubble)."""

    def __init__(self, event: Event, names: list[str], rules: Rules) -> None:
        self.event, self.names, self.rules = event, list(names), rules
        self.said: dict[Language, str | None] = {}
        self.calls: dict[Language, str] = {}

    def __getitem__(self, lang: Language) -> str | None:
        if lang not in self.said:
            self.said[lang] = narrate(self.event, self.names, self.rules, lang)
        return self.said[lang]

    def call(self, lang: Language) -> str | None:
        """The call as said in ``lang`` (None for an event that is no call)."""
        event = self.event
        if not isinstance(event, TotalCalled):
            return None
        if lang not in self.calls:
            with using(lang):
                self.calls[lang] = spoken(event.text, event.total)
        return self.calls[lang]


def event_json(event: Event, names: list[str], rules: Rules) -> dict[str, Any]:
    """A public event with its line of table talk under ``text`` (English; the other
    languages' from the :class:`Narration` under :data:`TRANSLATIONS`); a call keeps what
    was said under ``call`` (as written, for programs; :func:`in_language` adds ``said``,
    the call in a connection's language, for its speech bubble)."""
    out = event_to_json(event)
    if isinstance(event, TotalCalled):
        out["call"] = event.text
    out["text"] = narrate(event, names, rules, Language.EN)
    if out["text"] is not None:
        out[TRANSLATIONS] = Narration(event, names, rules)
    return out


def clock_text(seconds: float) -> str:
    """A turn clock for people, in the current language: "90 s", "2 hours", "3 days"."""
    if seconds >= 86400 and seconds % 86400 == 0:
        days = int(seconds // 86400)
        return ngettext("{n} day", "{n} days", days).format(n=days)
    if seconds >= 3600 and seconds % 3600 == 0:
        hours = int(seconds // 3600)
        return ngettext("{n} hour", "{n} hours", hours).format(n=hours)
    if seconds >= 60 and seconds % 60 == 0:
        return _("{n} min").format(n=int(seconds // 60))
    return _("{n} s").format(n=f"{seconds:g}")


# a server's note's sentence (its message id, marked with N_) and placeholders, beside its
# English ``text``, for the connections that read another language (:func:`in_language`);
# plain JSON, so a note kept in storage or told to another process keeps them; never sent
WORDS = "words"


def note_text(message: str, params: dict[str, Any], lang: Language) -> str:
    """A note's sentence in ``lang``, its placeholders filled (``clock``: a turn clock in
    seconds, written in ``lang``)."""
    with using(lang):
        filled = {k: clock_text(float(v)) if k == "clock" else v for k, v in params.items()}
        return translated(message).format(**filled)


def note_json(seat: int, kind: str, message: str, /, **params: Any) -> dict[str, Any]:
    """A server's note (not an engine event) for the log, at ``seat`` (0-based): its
    English ``text``, and its message and placeholders to say it in another language."""
    return {
        "kind": kind,
        "seat": seat + 1,
        "text": note_text(message, params, Language.EN),
        WORDS: {"message": message, "params": params},
    }


def in_language(events: list[dict[str, Any]], lang: Language) -> list[dict[str, Any]]:
    """The log's lines as a connection in ``lang`` is sent them: each event's talk and each
    of the server's notes in its language, and a call's words (``said``) as well."""
    out = []
    for e in events:
        said, words = e.get(TRANSLATIONS), e.get(WORDS)
        if said is None and words is None:
            out.append(e)
            continue
        line = {k: v for k, v in e.items() if k not in (TRANSLATIONS, WORDS)}
        if isinstance(words, dict) and lang is not Language.EN:
            with suppress(KeyError, TypeError, ValueError):  # else its English text
                line["text"] = note_text(str(words["message"]), dict(words["params"]), lang)
        if isinstance(said, Narration):
            if lang is not Language.EN:
                line["text"] = said[lang]
            call = said.call(lang)
            if call is not None:
                line["said"] = call
        out.append(line)
    return out
