"""One way to copy a state: ``State.clone`` copies every field and shares no list."""

from __future__ import annotations

from ninetynine import Chance, Match, load_rules
from ninetynine.bots.determinize import Determinizer
from ninetynine.engine.state import FIELDS, LIST_FIELDS
from ninetynine.engine.view import observe


def test_clone_copies_every_field_and_shares_no_list() -> None:
    state = Match.new(load_rules("P"), 3, chance=Chance.by_move(1)).state
    marks: dict[str, object] = {}
    for name in FIELDS:  # a value nobody else has in every field
        mark: object = (
            [[object()], [object()]]
            if name in ("hands", "known")
            else [object()]
            if name in LIST_FIELDS
            else object()
        )
        setattr(state, name, mark)
        marks[name] = mark
    new = state.clone()
    for name in FIELDS:
        if name == "_ev":
            assert new._ev is None  # a copy collects no events
            continue
        assert getattr(new, name) == marks[name], f"clone lost {name}"
        if name in LIST_FIELDS:
            assert getattr(new, name) is not marks[name], f"clone shares the list {name}"
    assert all(a is not b for a, b in zip(new.hands, state.hands, strict=True))
    assert all(a is not b for a, b in zip(new.known, state.known, strict=True))
    assert set(LIST_FIELDS) <= set(FIELDS)


def test_a_sampled_deal_is_a_clone_of_the_public_state_with_the_hidden_cards_dealt() -> None:
    match = Match.new(load_rules("K"), 4, chance=Chance.by_move(3))
    view = observe(match.state, 0)
    det = Determinizer(view)
    import random

    deal = det.sample(random.Random(1))
    assert sorted(deal.hands[0]) == sorted(match.state.hands[0])
    assert [len(h) for h in deal.hands] == [len(h) for h in match.state.hands]
    assert deal.total == match.state.total and deal.lives == match.state.lives
    assert deal.lives is not det.template.lives and deal.pile is not det.template.pile
