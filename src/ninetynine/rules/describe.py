"""A readable summary of any rules value, generated from the data alone.

Front ends show this as the help screen; ``ninetynine rules ID`` prints it. Every setting
is described where it changes the game (``tests/test_texts.py`` checks that a setting
whose change leaves the text as it was leaves the game as it was too); what a life is
called comes from the rules (:func:`ninetynine.rules.words.counter`). A house-rules setting
that changes nothing under the rest of its rules is named at the end, so that nobody
wonders where it went. Rules questions cited in comments (D25, Q18) are in ``docs/rules.md``.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from ninetynine.language import N_, Nn_, _, ntranslated, pad_left, translated
from ninetynine.rules.cards import (
    ALL_RANKS,
    JOKER_RANKS,
    RANKS,
    card_name,
    parse_card,
    rank_name,
    rank_of,
    show_card,
)
from ninetynine.rules.effects import Effect, Kind, describe_effect
from ninetynine.rules.presets import base_rules
from ninetynine.rules.settings import (
    META,
    AfterBust,
    BelowZero,
    ChoiceFilter,
    DeckCount,
    Direction,
    Draw,
    EliminatedHand,
    Elimination,
    EmptyDraw,
    EmptyHand,
    ForcedCard,
    GameEnd,
    InstantCheck,
    InstantOrder,
    NewRoundDeal,
    NoLegalPlay,
    OnlineCross,
    PointsTie,
    Pot,
    Restock,
    Rule69,
    Rule69From,
    Rules,
    Scope,
    Scoring,
    SkipCounts,
    Starter,
    StartTotal,
    StockEmpty,
    Stuck,
    Teams,
    Thresholds,
    TwoPlayerReverse,
    rules_to_mapping,
)
from ninetynine.rules.words import Noun, counter, listed, said


def card_table(rules: Rules) -> list[tuple[str, str, str]]:
    """(rank, effect, call) for every rank, e.g. ``("K", "set to 99", "99")``, then
    (card, effect, call) for each card whose suit makes it differ, e.g. ``("A♠", ...)``."""
    ranks = [
        (
            RANKS[i],
            describe_effect(eff, rules.limit, rules.halve_over),
            said(rules.calls[i]).replace("{total}", "#"),
        )
        for i, eff in enumerate(rules.cards)
    ]
    jokers = [  # a joker is called by the total alone
        (JOKER_RANKS[i], describe_effect(eff, rules.limit, rules.halve_over), "#")
        for i, eff in enumerate(rules.joker_cards)
        if rules.jokers
    ]
    return (
        ranks
        + jokers
        + [
            (
                show_card(card),
                describe_effect(eff, rules.limit, rules.halve_over),
                said(rules.calls[rank_of(card)]).replace("{total}", "#") if card < 52 else "#",
            )
            for card, eff in rules.suit_cards
        ]
    )


def _name(which: str) -> str:
    """A rank or card of :func:`card_table` in words: ``"King"``, ``"Ace of Spades"``."""
    if which in ALL_RANKS:
        return rank_name(ALL_RANKS.index(which))
    return card_name(parse_card(which))


def _either(items: list[str]) -> str:
    """``"the Four or the Seven"``: alternatives in the current language's words."""
    return _(" or ").join(items)


def _cards_that(rules: Rules, test: Callable[[Effect], bool]) -> str:
    """The ranks (and suit exceptions) whose effect passes ``test``, in words:
    ``"the Four"``, ``"the Four or the Seven"``."""
    names = [rank_name(i) for i, eff in enumerate(rules.cards) if test(eff)]
    names += [
        rank_name(13 + i) for i, eff in enumerate(rules.joker_cards) if rules.jokers and test(eff)
    ]
    names += [card_name(card) for card, eff in rules.suit_cards if test(eff)]
    return _either([_("the {card}").format(card=n) for n in names])


def every_loss_puts_out(rules: Rules) -> bool:
    """Each bust costs a side exactly what it has and puts it out (P-SEVEN, P-UPCARD, TW).
    A penalty above that is said as it is (the log tells what went unpaid)."""
    return (
        rules.scoring is Scoring.LIVES
        and rules.elimination is Elimination.AT_ZERO
        and all(
            rules.lives_for(n) == rules.bust_penalty
            for n in range(rules.players_min, rules.players_max + 1)
        )
    )


def one_deal(rules: Rules) -> bool:
    """No hand ends while the game goes on, so the cards are dealt once (G, TW, 98)."""
    r = rules
    if (
        r.thresholds is Thresholds.ONLINE
        or r.stuck is Stuck.PASS
        or (r.empty_draw is EmptyDraw.END_ROUND and r.stock_empty is not StockEmpty.NO_DRAW)
    ):
        return False  # an exact 99, everyone passing or an empty stock ends a hand
    if r.after_bust is AfterBust.RESET_ALL:
        return True
    if not every_loss_puts_out(r):
        return False
    # every bust puts its player out: the game ends with it, or a hand that goes on at
    # the same total until one is left ends the game too
    return r.game_end is GameEnd.FIRST_OUT or r.after_bust is not AfterBust.END_HAND


def _by_players(
    rules: Rules,
    count: Callable[[int], int],
    what: Callable[[int], str],
    step: Callable[[int], str] = str,
    counted: str = "",
) -> str:
    """A number that depends on the table size, e.g. ``"5 pennies each (3 from 5
    players)"``; ``counted`` says when the table is counted (where that matters)."""
    sizes = range(rules.players_min, rules.players_max + 1)
    steps = [(n, count(n)) for n in sizes[1:] if count(n) != count(n - 1)]
    text = what(count(sizes[0]))
    if steps:
        said = [_("{count} from {n} players").format(count=step(c), n=n) for n, c in steps]
        text += " (" + _(", ").join(said) + counted + ")"
    return text


def _count(n: int, one: str, many: str) -> str:
    """``n`` things in the current language (``one`` and ``many`` are marked messages)."""
    return ntranslated(one, many, n).format(n=n)


PLAYERS = Nn_("{n} player", "{n} players")
CARDS = Nn_("{n} card", "{n} cards")
DECKS = Nn_("{n} deck", "{n} decks")
FULL_DECKS = Nn_("{n} 52-card deck", "{n} 52-card decks")
JOKER_DECKS = Nn_("{n} 54-card deck (with both jokers)", "{n} 54-card decks (with both jokers)")


def _table(r: Rules, noun: Noun, single: bool) -> list[str]:
    players = (
        _count(r.players_min, *PLAYERS)
        if r.players_min == r.players_max
        else _("{low} to {high} players").format(low=r.players_min, high=r.players_max)
    )
    counted = (
        ""
        if single
        else (
            _("; counted again at every deal, as players go out")
            if r.deck_count is DeckCount.EACH_HAND
            else _("; counted when the game starts")
        )
    )
    decks = _by_players(
        r,
        r.decks_for,
        lambda d: (
            (_("one 54-card deck (with both jokers)") if d == 1 else _count(d, *JOKER_DECKS))
            if r.jokers
            else _("one 52-card deck")
            if d == 1
            else _count(d, *FULL_DECKS)
        ),
        lambda d: _count(d, *DECKS),
        counted,
    )
    if r.teams is Teams.POOLED:
        lives = _(
            "two teams of opposite partners (seats 1 & 3, 2 & 4), each with one pool of {amount}"
        ).format(amount=noun(r.lives_for(4)))
    elif r.scoring is Scoring.GAME_POINTS:
        lives = _("{amount} each at the start of every hand").format(amount=noun(r.points_per_hand))
    else:
        lives = _by_players(
            r,
            r.lives_for,
            lambda n: (
                _("one {thing} each").format(thing=noun.word)
                if n == 1
                else _("{amount} each").format(amount=noun(n))
            ),
        )
    table = [
        _("{players}, {decks}, {cards} each; {lives}.").format(
            players=players, decks=decks, cards=_count(r.hand_size, *CARDS), lives=lives
        )
    ]
    if r.teams is Teams.ALTERNATE:
        table.append(
            _(
                "Two teams of alternate seats, 1, 3, 5... against 2, 4, 6..., at an even "
                "number of players."
            )
        )
    if r.stake:
        table.append(
            _("Each player stakes {stake}; the winner collects every stake.").format(stake=r.stake)
        )
    if r.scoring is Scoring.LIVES and r.pot is not Pot.NONE:
        table.append(
            (
                _("Lost {things} go to the centre and the winner collects them.")
                if r.pot is Pot.WINNER_TAKES_ALL
                else _("Lost {things} go to the centre.")
            ).format(things=noun.words)
        )
    start = (
        _(
            "the first ordinary card turned up from the stock (special cards: {ranks} go "
            "back into the deck)"
        ).format(ranks=" ".join(RANKS[i] for i in r.upcard_special))
        if r.start_total is StartTotal.UPCARD
        else "0"
    )
    if not r.dealer:
        opener = _(
            "player 1 opens the first game, and the next player clockwise each game after that"
        )
    elif r.starter is Starter.RANDOM and single:
        opener = _("the player chosen to start opens")
    else:
        opener = _("the player left of the dealer starts")
    table.append(
        _("The total starts at {start}; {opener}; play goes clockwise.").format(
            start=start, opener=opener
        )
    )
    if single:
        table.append(_("The cards are dealt once for the whole game."))
    else:
        table += _new_hands(r)
    return table


def _new_hands(r: Rules) -> list[str]:
    """Who starts a new hand, which way it goes and where its cards come from."""
    no_loser = (
        r.thresholds is Thresholds.ONLINE
        or r.stuck is Stuck.PASS
        or (r.empty_draw is EmptyDraw.END_ROUND and r.stock_empty is not StockEmpty.NO_DRAW)
    )
    if r.starter is Starter.LEFT_OF_DEALER:
        who = (
            _(
                "After each hand the deal passes left (to the next player still in) and the "
                "player left of the new dealer starts"
            )
            if r.dealer
            else _("Each new hand is opened by the next player still in after the last opener")
        )
    elif r.starter is Starter.RANDOM:
        who = _("A player drawn at random starts each new hand")
    else:
        who = (
            _("The player left of the last hand's loser starts the next (the next player still in)")
            if r.starter is Starter.LEFT_OF_LOSER
            else _("The last hand's loser starts the next (if out, the next player still in)")
        )
        if no_loser:
            who += _("; after a hand with no loser, the next player after its opener")
    lines = [_("{sentence}.").format(sentence=who)]
    if any(e.reverse for e in r.effects()):
        lines.append(
            _("Each hand starts clockwise.")
            if r.direction is Direction.RESET
            else _("The direction of play carries over into the next hand.")
        )
    lines.append(
        {
            NewRoundDeal.FULL_RESHUFFLE: _("Each hand is dealt from all the cards, shuffled."),
            NewRoundDeal.FROM_STOCK: _(
                "A new hand is dealt from the stock (the old hands go face down under the "
                "discards); if it is too short, all the cards are shuffled first."
            ),
            NewRoundDeal.FROM_STOCK_KEEP_TOP: _(
                "A new hand is dealt from the stock (the old hands go face down under the "
                "discards); if it is too short, the discards except the top card are "
                "shuffled into it."
            ),
        }[r.new_round_deal]
    )
    return lines


def _playing(r: Rules) -> list[str]:
    effects = r.effects()
    limit = r.limit
    if r.draw is Draw.EXPLICIT:
        play = [
            _(
                "Play one card and call the new total, then draw a card yourself: a draw you "
                "forget cannot be made up (you play on a card short until the next deal)."
            )
        ]
    else:
        play = [
            _("Play one card, call the new total, then draw back to {n}.").format(n=r.hand_size)
            if not r.no_draw_after and r.empty_hand is EmptyHand.STUCK
            else _("Play one card, call the new total, then draw one card.")
        ]
    if r.no_draw_after:
        play.append(
            _("After {cards} you draw no card.").format(
                cards=_either([_("the {card}").format(card=rank_name(k)) for k in r.no_draw_after])
            )
        )
    can_go_over = r.may_bust or r.no_legal_play is NoLegalPlay.PLAY_AND_BUST
    if r.may_bust:
        play.append(_("Any card may be played; going over {limit} is a bust.").format(limit=limit))
    else:
        play.append(
            _("You may not take the total over {limit} while you hold a card that does not.")
            .format(limit=limit)
        )  # fmt: skip
        if r.no_legal_play is NoLegalPlay.LAY_DOWN:
            play.append(
                _(
                    "If every card would take the total over {limit}, you lay down your hand "
                    "(no card is played) and lose."
                ).format(limit=limit)
            )
        else:
            how = (
                _("your lowest card is played for you")
                if r.forced_card is ForcedCard.AUTO
                else _("your choice")
            )
            play.append(
                _(
                    "If every card would go over {limit}, you must still play one ({how}), "
                    "and you lose."
                ).format(limit=limit, how=how)
            )
    if can_go_over:
        call = said(r.bust_call).replace("{total}", "#")
        play.append(_('Going over, you call "{call}".').format(call=call))
    banned = sorted(r.opening_ban_cards())
    forbidden = [_("an empty hand")]
    if r.below_zero is BelowZero.ILLEGAL:
        forbidden.append(_("cards that would go below 0"))
    if banned:
        forbidden.append(_("banned cards"))
    play.append(
        (
            _(
                "With no card you may play at all ({reasons}), you pass, with no penalty (a "
                "hand that everyone passes ends with no loser)."
            )
            if r.stuck is Stuck.PASS
            else _("With no card you may play at all ({reasons}), you lay down your hand and lose.")
        ).format(reasons=_either(forbidden))
    )
    if any(v < 0 for e in effects if e.kind is Kind.ADD for v in e.values):
        play.append(
            {
                BelowZero.ALLOW: _("The total may go below 0."),
                BelowZero.CLAMP: _("The total stops at 0 (never below)."),
                BelowZero.ILLEGAL: _("The total may not go below 0: such a play is illegal."),
            }[r.below_zero]
        )
    if any(e.name for e in effects):
        play.append(
            _(
                "A card that names the next player may name yourself; play goes on from the "
                "named player in the same direction."
            )
            if r.name_self
            else _(
                "A card that names the next player may not name yourself; play goes on from "
                "the named player in the same direction."
            )
        )
    if any(e.challenge for e in effects):
        kings = _cards_that(r, lambda e: e.challenge)
        cancel = (
            _either([_("the {card}").format(card=rank_name(i)) for i in r.challenge_cancel])
            if r.challenge_cancel
            else _("nothing")
        )
        play.append(
            _(
                "A challenge card ({kings}) names another player to be out of the game. That "
                "player may answer at once with {kings}: then the challenger is out instead; "
                "or with {cancel}: then nobody is. An answer does not count, goes on the pile "
                "and its player draws back at once. A player with no answer is out at once "
                "(and has shown it held none); one with an answer may still accept. Play goes "
                "on from the player after the challenger."
            ).format(kings=kings, cancel=cancel)
        )
    if any(e.swap for e in effects):
        play.append(
            _(
                "A swap card ({cards}) names another player still in the hand: the two "
                "exchange their whole hands. Each then knows the other's new hand (the one it "
                "gave away); the others see only how many cards each holds."
            ).format(cards=_cards_that(r, lambda e: e.swap))
        )
    if any(e.take for e in effects):
        play.append(
            _(
                "A take card ({cards}) names another player still in the hand who holds a "
                "card: you take one of their cards without seeing it. Only the two of you know "
                "which card it was. A player whose last card is taken has an empty hand."
            ).format(cards=_cards_that(r, lambda e: e.take))
        )
    if any(e.strip for e in effects):
        play.append(
            _(
                "A strip card ({cards}) names another player still in the hand who holds a "
                "card: they keep one of their cards, picked without seeing it, and the others "
                "are shuffled face down into the stock. Only they know which card they kept."
            ).format(cards=_cards_that(r, lambda e: e.strip))
        )
    if any(e.revive for e in effects):
        play.append(
            _(
                "A revival card ({cards}) names a player who is out, who comes back into the "
                "game in their seat with {n} cards from the stock and plays when play reaches "
                "them; or a player still in the hand, yourself included, holding fewer than "
                "{n} cards, whose hand is filled up to {n} from the stock (your own: that is "
                "your draw). With nobody to name it is played alone, with no effect."
            ).format(cards=_cards_that(r, lambda e: e.revive), n=r.hand_size)
        )
    if any(e.skip for e in effects):
        play.append(
            _("With two players a skip lets you play again.")
            if r.skip_with_two_players
            else _("With two players a skip does not skip: the other player is next.")
        )
        if r.thresholds is not Thresholds.NONE or r.rule_69 is not Rule69.NONE:
            play.append(
                _("A skip passes over the next player still in after the card's own payments.")
                if r.skip_counts is SkipCounts.REMAINING
                else _(
                    "If the card's own payment puts the next player out, that player "
                    "takes the skip (the one after plays)."
                )
            )
    if any(e.no_draw for e in effects):
        play.append(
            _(
                "Facing n no-draw cards in a row, you play n cards one after another "
                "without drawing (each must keep to the limit), or answer with another "
                "no-draw card and draw as usual; stuck part-way, you lose."
            )
        )
    if any(e.kind is Kind.SET_ANY for e in effects):
        play.append(
            _("A card that sets a chosen total sets any total from 0 to {limit}.").format(
                limit=limit
            )
        )
    if r.choice_filter is ChoiceFilter.DROP_BUSTING and any(e.has_choice for e in effects):
        play.append(
            _(
                "A card's value that would take the total over {limit} is not offered "
                "(if every value would, only the lowest is)."
            ).format(limit=limit)
        )
    if any(e.reverse for e in effects):
        play.append(_two_player_reverse(r))
    if banned:
        ranks = sorted({rank_of(c) for c in banned})
        which = (
            _either([rank_name(k) for k in ranks])
            if len(banned) == 4 * len(ranks)
            else _either([card_name(c) for c in banned])
        )
        turns, total = r.king_ban_turns, r.limit
        if one_deal(r):
            scope = ""
        elif r.king_ban_scope is Scope.HAND:
            scope = _(" of each hand")
        else:
            scope = _(" of the game")
        text = (
            _(
                "No {cards} to {total} during your first {turns} turns{scope} (not even when "
                "the total is already {total})."
            )
            if r.king_ban_at_limit
            else _(
                "No {cards} to {total} during your first {turns} turns{scope} (except when "
                "the total is already {total})."
            )
        )
        play.append(text.format(cards=which, total=total, turns=turns, scope=scope))
    return play


def _two_player_reverse(r: Rules) -> str:
    """What a reverse card does with two players in the hand (D25, Q18)."""
    which = _cards_that(r, lambda e: e.reverse)
    nxt = {
        TwoPlayerReverse.HOLD: _("the other player is next"),
        TwoPlayerReverse.PLAY_AGAIN: _("you play again (you draw first)"),
        TwoPlayerReverse.PLAY_AGAIN_DRAW_LATER: _(
            "you play again (you draw after your second card)"
        ),
        TwoPlayerReverse.PLAY_AGAIN_OPTIONAL: _(
            "you may play again (you draw first) or decline, and the other player is next at "
            "the same total"
        ),
    }[r.two_player_reverse]
    if r.reverse_with_two_players:
        return _("With two players in the hand, after {cards}: {next}.").format(
            cards=which, next=nxt
        )
    hold = _("hold (+0)")
    counts = sorted(
        {
            describe_effect(e, r.limit, r.halve_over).split(_(", "))[0]
            for e in r.effects()
            if e.reverse
        }
        - {hold}
    )
    if counts:
        return _(
            "With two players in the hand, {cards} does not reverse (it still counts "
            "{amount}): {next}."
        ).format(cards=which, amount=_either(counts), next=nxt)
    return _("With two players in the hand, {cards} does not reverse: {next}.").format(
        cards=which, next=nxt
    )


def _losing(r: Rules, noun: Noun, single: bool) -> list[str]:
    limit = r.limit
    can_go_over = r.may_bust or r.no_legal_play is NoLegalPlay.PLAY_AND_BUST
    if r.scoring is Scoring.GAME_POINTS:
        crossing = (
            f" ({r.limit}:{r.limit + 1})"
            if r.limit in r.border_values and r.thresholds is Thresholds.BORDERS
            else ""
        )
        what = _("Going over {limit}").format(limit=limit) if can_go_over else _("Laying down")
        losing = [
            _(
                "Going over {limit} costs the game points of the borders it crosses{crossing}, "
                "laying down a game point"
            ).format(limit=limit, crossing=crossing)
            if can_go_over
            else _("Laying down costs a game point")
        ]
    else:
        what = (
            _("Going over {limit} (or having no card to play)").format(limit=limit)
            if can_go_over
            else _("Laying down")
        )
        pay = (
            _("{amount} from your team's pool").format(amount=noun.some(r.bust_penalty))
            if r.teams is Teams.POOLED
            else noun.some(r.bust_penalty)
        )
        losing = [
            _("{what} puts you out of the game at once").format(what=what)
            if every_loss_puts_out(r) and r.teams is not Teams.POOLED
            else _("{what} costs {amount}").format(what=what, amount=pay)
        ]
    pile = (
        _("the total goes back to 0 and the pile is taken away")
        if r.clear_pile_on_reset
        else _("the total goes back to 0 (the pile stays)")
    )
    after = {
        AfterBust.END_HAND: _("the hand ends at once and a new one is dealt"),
        AfterBust.SIT_OUT: _(
            "you are out of this hand; the next player goes on at the same total until one "
            "player is left"
        ),
        AfterBust.RESET_ALL: _("{reset} and everyone plays on (no new deal)").format(reset=pile),
        AfterBust.RESET_OTHERS: _(
            "you are out of this hand; {reset}, and the others play on with their cards until "
            "one is left"
        ).format(reset=pile),
        AfterBust.REVERT: _(
            "you are out of this hand; the total goes back to what it was before your card "
            "and the next player goes on until one player is left"
        ),
    }[r.after_bust]
    if r.after_bust is AfterBust.RESET_ALL and can_go_over:
        after += (
            _("; who went over still draws")
            if r.draw_after_bust
            else _("; who went over does not draw (and plays on a card short)")
        )
    sudden_death = every_loss_puts_out(r) and r.teams is not Teams.POOLED
    if single and r.after_bust is AfterBust.SIT_OUT:
        after = _("the next player goes on at the same total (no new deal)")
    elif single and r.after_bust is AfterBust.REVERT:
        after = _(
            "the total goes back to what it was before your card and the next player goes on "
            "(no new deal)"
        )
    elif single and r.after_bust is AfterBust.END_HAND:  # (the first out ends the game)
        after = _("the game ends")
    if sudden_death and r.game_end is GameEnd.FIRST_OUT:  # 98's one loser, no new deal
        losing[0] = _("{what}: that player loses and the game ends at once.").format(what=what)
    else:
        losing[0] = _("{loss}; {after}.").format(loss=losing[0], after=after)
    if r.scoring is Scoring.LIVES and not sudden_death:  # (else said above)
        losing.append(_elimination(r, noun))
    if r.empty_hand is EmptyHand.OUT:
        losing.append(_("A player whose play leaves them no card is out of the game at once."))
    if r.eliminated_hand is EliminatedHand.UNDER_PILE:
        losing.append(_("A player put out puts their cards face down under the discards."))
    elif r.eliminated_hand is EliminatedHand.FACE_UP:
        losing.append(_("A player put out lays their cards face up on the discards."))
    elif r.scoring is Scoring.LIVES and (
        r.after_bust is not AfterBust.END_HAND or r.thresholds is Thresholds.ONLINE
    ):
        losing.append(
            _(
                "A player put out during a hand keeps their cards out of play for the rest of "
                "the game."
            )
            if single
            else _(
                "A player put out during a hand keeps their cards out of play until the next deal."
            )
        )
    losing += _thresholds(r, noun)
    if r.rule_69 is not Rule69.NONE:
        effect = {
            Rule69.RESET_TO_ZERO: _("the total goes back to 0"),
            Rule69.PENNY_FROM_POOL: _("you take {one} back from the pool, if it holds any").format(
                one=noun.a
            ),
            Rule69.EXTRA_POINT: _("you score an extra game point"),
            Rule69.OTHERS_DRINK: _("everyone else drinks"),
        }[r.rule_69]
        losing.append(
            (
                _("Making exactly {total} (from below): {effect}.")
                if r.rule_69_from is Rule69From.BELOW
                else _("Making exactly {total} (from either side): {effect}.")
            ).format(total=r.rule_69_total, effect=effect)
        )
    if r.instant_hands:
        for rule in r.instant_hands:
            losing.append(
                (
                    _("{hand} in hand win at once.")
                    if rule.wins
                    else _("{hand} in hand end the game at once, with everyone losing.")
                ).format(hand=_instant_name(rule.name).capitalize())
            )
        check = (
            _("after every deal and every draw")
            if r.instant_check is InstantCheck.DEAL_AND_DRAW
            else _("after every deal only")
        )
        order = (
            _("the first of these hands in this list decides (and all who hold it share)")
            if r.instant_order is InstantOrder.SIXES_FIRST
            else _("only the first of them in seat order counts")
        )
        losing.append(
            _("Hands are checked {when}; if several players hold one at once, {which}.").format(
                when=check, which=order
            )
        )
    losing.append(_stock(r))
    return losing


# The instant hands the rulebooks name (settings.RULEBOOK_INSTANT); a house rule's other
# hand is said in English, as InstantRule.name makes it.
INSTANT_NAMES = (N_("three sixes"), N_("three kings"))


def _instant_name(name: str) -> str:
    return translated(name) if name in INSTANT_NAMES else name


def _elimination(r: Rules, noun: Noun) -> str:
    if r.elimination is Elimination.CANNOT_PAY:
        if r.teams is Teams.POOLED:
            return _(
                "A team with an empty pool plays on (on honour) until it must pay and "
                "cannot: then it is out."
            )
        return _(
            "With no {things} left you play on (on honour) until you must pay and "
            "cannot: then you are out."
        ).format(things=noun.words)
    if r.teams is Teams.POOLED:
        return _("A team whose pool is empty is out of the game.")
    return _("A player with no {things} left is out of the game.").format(things=noun.words)


def _thresholds(r: Rules, noun: Noun) -> list[str]:
    if r.thresholds is Thresholds.BORDERS:
        borders = ", ".join(f"{b}:{b + 1}" for b in r.border_values)
        return [
            (
                _("Crossing a border ({borders}), either way, costs a game point.")
                if r.border_cross_backward_costs
                else _("Crossing a border ({borders}), going up (not down), costs a game point.")
            ).format(borders=borders)
        ]
    if r.thresholds is not Thresholds.ONLINE:
        return []
    t = _either([str(v) for v in r.threshold_values])
    lines = [
        _("Make exactly {totals} from below: everyone else loses {one}.").format(
            totals=t, one=noun.a
        ),
        (
            _("Cross {totals} going up: you lose {one}.")
            if r.online_cross is OnlineCross.STRICT
            else _("Cross or leave {totals} going up: you lose {one}.")
        ).format(totals=t, one=noun.a),
        _("Make exactly {limit}: everyone else loses {amount} and the round ends.").format(
            limit=r.limit, amount=noun.some(2)
        ),
    ]
    if not r.milestones_on_bust:
        lines.append(
            _("Going over {limit} pays only for going over: no {totals} payment with it.").format(
                limit=r.limit, totals=t
            )
        )
    return lines


def _stock(r: Rules) -> str:
    if r.stock_empty is StockEmpty.NO_DRAW:
        return _("When the stock runs out, nobody draws: play on with what is in hand.")
    keep_top = r.stock_empty is StockEmpty.RESHUFFLE_KEEP_TOP
    eager = r.restock is Restock.EAGER
    refill = {
        (True, True): _(
            "When the stock runs out, the discards except the top card are shuffled into a "
            "new stock as soon as the last card is drawn; the total is kept."
        ),
        (True, False): _(
            "When the stock runs out, the discards except the top card are shuffled into a "
            "new stock when someone next has to draw; the total is kept."
        ),
        (False, True): _(
            "When the stock runs out, every played card is shuffled into a new stock as soon "
            "as the last card is drawn; the total is kept."
        ),
        (False, False): _(
            "When the stock runs out, every played card is shuffled into a new stock when "
            "someone next has to draw; the total is kept."
        ),
    }[keep_top, eager]
    empty = {
        EmptyDraw.SKIP: _("With nothing to reshuffle, you play on a card short."),
        EmptyDraw.END_ROUND: _("With nothing to reshuffle, the hand ends with no loser."),
        EmptyDraw.FULL_RESHUFFLE: _(
            "With nothing to reshuffle, every card not in a hand is shuffled into a new stock."
        ),
    }[r.empty_draw]
    return f"{refill} {empty}"


def _winning(r: Rules, noun: Noun) -> str:
    if r.scoring is Scoring.GAME_POINTS:
        floor = _("counts as 0") if r.points_floor_zero else _("counts against you")
        tie = _("plays another hand") if r.points_tie is PointsTie.PLAY_ON else _("shares the win")
        return _(
            "Game points left at the end of each hand add to your score (a hand below "
            "0 {floor}); once someone has {target} or more, the highest score "
            "wins, and a tie for it {tie}."
        ).format(floor=floor, target=r.points_target, tie=tie)
    if r.teams is Teams.POOLED:
        return _("The team with {things} left in its pool when the other's is empty wins.").format(
            things=noun.words
        )
    if r.teams is Teams.ALTERNATE:
        return _(
            "A team wins, all its players with it (those out too), the moment every opponent "
            "is out; until then a revived opponent is back in the game, and the last two "
            "players of opposite teams play on."
        )
    if r.game_end is GameEnd.FIRST_OUT and every_loss_puts_out(r):
        return _("The first player out loses the game; everyone else wins.")
    if r.game_end is GameEnd.FIRST_OUT:
        return _(
            "The game ends when the first player is out: the others are ranked by the "
            "{things} they have left, and the most win (ties share the win)."
        ).format(things=noun.words)
    if r.elimination is Elimination.CANNOT_PAY:
        return _("The last player still in the game wins.")
    return _("The last player with {things} left wins.").format(things=noun.words)


def describe_rules(rules: Rules) -> list[tuple[str, list[str]]]:
    """Sections of (heading, lines) describing how a game under these rules goes, in the
    current language."""
    r, noun, single = rules, counter(rules), one_deal(rules)
    names = [_name(which) for which, _effect, _call in card_table(r)]
    cards = [
        f"{pad_left(name, 5)}: {effect}"
        + ("   " + _('(say "{call}")').format(call=call) if call != "#" else "")
        for name, (_which, effect, call) in zip(names, card_table(r), strict=True)
    ]
    return [
        (_("Table"), _table(r, noun, single)),
        (_("Cards"), cards),
        (_("Playing"), _playing(r)),
        (_("Losing"), _losing(r, noun, single)),
        (_("Winning"), [_winning(r, noun)]),
    ]


def idle_settings(rules: Rules) -> dict[str, object]:
    """The settings in which ``rules`` differ from the preset they are built on, but that
    change nothing under the rest of these rules (the description is the same without)."""
    base, text = base_rules(rules), describe_rules(rules)
    idle = {}
    for key, value in rules_to_mapping(rules, base).items():
        if key in META:
            continue
        try:
            without = rules.replace(**{key: getattr(base, key)})
        except (TypeError, ValueError):
            continue
        if describe_rules(without) == text:
            idle[key] = value
    return idle


def rules_text(rules: Rules) -> str:
    """The whole summary as plain text."""
    base = base_rules(rules)
    changed = [key for key in rules_to_mapping(rules, base) if key not in META]
    about = rules.description
    if changed and about == base.description:  # the preset's summary no longer holds
        about = _(
            "{name} ({id}) with house rules for {keys}; this is how the game goes with them."
        ).format(name=base.name, id=base.id, keys=listed(changed))
    source = _("Source: {source}").format(source=rules.source)
    lines = [f"{rules.id}: {rules.name}", about, source, ""]
    for heading, body in describe_rules(rules):
        lines += [heading, *("  " + line for line in body), ""]
    idle = idle_settings(rules)
    if idle:
        lines += [
            _("No effect with these rules"),
            *(f"  {key} = {json.dumps(value)}" for key, value in idle.items()),
            "",
        ]
    return "\n".join(lines).rstrip() + "\n"
