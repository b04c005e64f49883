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

from ninetynine.language import _
from ninetynine.rules.cards import (
    RANK_NAMES,
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
    Thresholds,
    TwoPlayerReverse,
    rules_to_mapping,
)
from ninetynine.rules.words import Noun, counter, listed, plural, said


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
    return ranks + [
        (
            show_card(card),
            describe_effect(eff, rules.limit, rules.halve_over),
            said(rules.calls[rank_of(card)]).replace("{total}", "#"),
        )
        for card, eff in rules.suit_cards
    ]


def _name(which: str) -> str:
    """A rank or card of :func:`card_table` in words: ``"King"``, ``"Ace of Spades"``."""
    return rank_name(RANKS.index(which)) if which in RANKS else card_name(parse_card(which))


def _cards_that(rules: Rules, test: Callable[[Effect], bool]) -> str:
    """The ranks (and suit exceptions) whose effect passes ``test``, in words:
    ``"the Four"``, ``"the Four or the Seven"``."""
    names = [RANK_NAMES[i] for i, eff in enumerate(rules.cards) if test(eff)]
    names += [card_name(card) for card, eff in rules.suit_cards if test(eff)]
    return " or ".join(f"the {n}" for n in names)


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
        text += " (" + ", ".join(f"{step(c)} from {n} players" for n, c in steps) + counted + ")"
    return text


def _table(r: Rules, noun: Noun, single: bool) -> list[str]:
    players = (
        plural(r.players_min, "player")
        if r.players_min == r.players_max
        else f"{r.players_min} to {r.players_max} players"
    )
    counted = (
        ""
        if single
        else (
            "; counted again at every deal, as players go out"
            if r.deck_count is DeckCount.EACH_HAND
            else "; counted when the game starts"
        )
    )
    decks = _by_players(
        r,
        r.decks_for,
        lambda d: "one 52-card deck" if d == 1 else f"{d} 52-card decks",
        lambda d: plural(d, "deck"),
        counted,
    )
    if r.teams:
        lives = (
            "two teams of opposite partners (seats 1 & 3, 2 & 4), each with one pool "
            f"of {noun(r.lives_for(4))}"
        )
    elif r.scoring is Scoring.GAME_POINTS:
        lives = f"{noun(r.points_per_hand)} each at the start of every hand"
    else:
        lives = _by_players(
            r, r.lives_for, lambda n: f"one {noun.one} each" if n == 1 else f"{noun(n)} each"
        )
    table = [f"{players}, {decks}, {plural(r.hand_size, 'card')} each; {lives}."]
    if r.stake:
        table.append(f"Each player stakes {r.stake}; the winner collects every stake.")
    if r.scoring is Scoring.LIVES and r.pot is not Pot.NONE:
        table.append(
            f"Lost {noun.many} go to the centre"
            + (" and the winner collects them." if r.pot is Pot.WINNER_TAKES_ALL else ".")
        )
    start = (
        "the first ordinary card turned up from the stock (special cards: "
        + " ".join(RANKS[i] for i in r.upcard_special)
        + " go back into the deck)"
        if r.start_total is StartTotal.UPCARD
        else "0"
    )
    if not r.dealer:
        opener = "player 1 opens the first game, and the next player clockwise each game after that"
    elif r.starter is Starter.RANDOM and single:
        opener = "the player chosen to start opens"
    else:
        opener = "the player left of the dealer starts"
    table.append(f"The total starts at {start}; {opener}; play goes clockwise.")
    if single:
        table.append("The cards are dealt once for the whole game.")
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
            "After each hand the deal passes left (to the next player still in) and the "
            "player left of the new dealer starts"
            if r.dealer
            else "Each new hand is opened by the next player still in after the last opener"
        )
    elif r.starter is Starter.RANDOM:
        who = "A player drawn at random starts each new hand"
    else:
        who = (
            "The player left of the last hand's loser starts the next (the next player still in)"
            if r.starter is Starter.LEFT_OF_LOSER
            else "The last hand's loser starts the next (if out, the next player still in)"
        )
        if no_loser:
            who += "; after a hand with no loser, the next player after its opener"
    lines = [who + "."]
    if any(e.reverse for e in r.effects()):
        lines.append(
            "Each hand starts clockwise."
            if r.direction is Direction.RESET
            else "The direction of play carries over into the next hand."
        )
    lines.append(
        {
            NewRoundDeal.FULL_RESHUFFLE: "Each hand is dealt from all the cards, shuffled.",
            NewRoundDeal.FROM_STOCK: "A new hand is dealt from the stock (the old hands go face "
            "down under the discards); if it is too short, all the "
            "cards are shuffled first.",
            NewRoundDeal.FROM_STOCK_KEEP_TOP: "A new hand is dealt from the stock (the old hands "
            "go face down under the discards); if it is too "
            "short, the discards except the top card are "
            "shuffled into it.",
        }[r.new_round_deal]
    )
    return lines


def _playing(r: Rules) -> list[str]:
    effects = r.effects()
    over = f"over {r.limit}"
    if r.draw is Draw.EXPLICIT:
        play = [
            "Play one card and call the new total, then draw a card yourself: a draw you "
            "forget cannot be made up (you play on a card short until the next deal)."
        ]
    else:
        play = [f"Play one card, call the new total, then draw back to {r.hand_size}."]
    can_go_over = r.may_bust or r.no_legal_play is NoLegalPlay.PLAY_AND_BUST
    if r.may_bust:
        play.append(f"Any card may be played; going {over} is a bust.")
    else:
        play.append(f"You may not take the total {over} while you hold a card that does not.")
        if r.no_legal_play is NoLegalPlay.LAY_DOWN:
            play.append(
                f"If every card would take the total {over}, you lay down your hand "
                "(no card is played) and lose."
            )
        else:
            how = (
                "your lowest card is played for you"
                if r.forced_card is ForcedCard.AUTO
                else "your choice"
            )
            play.append(
                f"If every card would go {over}, you must still play one ({how}), and you lose."
            )
    if can_go_over:
        play.append(f'Going over, you call "{r.bust_call.replace("{total}", "#")}".')
    banned = sorted(r.opening_ban_cards())
    forbidden = ["an empty hand"]
    if r.below_zero is BelowZero.ILLEGAL:
        forbidden.append("cards that would go below 0")
    if banned:
        forbidden.append("banned cards")
    play.append(
        f"With no card you may play at all ({' or '.join(forbidden)}), "
        + (
            "you pass, with no penalty (a hand that everyone passes ends with no loser)."
            if r.stuck is Stuck.PASS
            else "you lay down your hand and lose."
        )
    )
    if any(v < 0 for e in effects if e.kind is Kind.ADD for v in e.values):
        below = {
            BelowZero.ALLOW: "may go below 0",
            BelowZero.CLAMP: "stops at 0 (never below)",
            BelowZero.ILLEGAL: "may not go below 0: such a play is illegal",
        }
        play.append(f"The total {below[r.below_zero]}.")
    if any(e.name for e in effects):
        play.append(
            "A card that names the next player "
            + ("may name yourself" if r.name_self else "may not name yourself")
            + "; play goes on from the named player in the same direction."
        )
    if any(e.challenge for e in effects):
        kings = _cards_that(r, lambda e: e.challenge)
        cancel = " or ".join(f"the {RANK_NAMES[i]}" for i in r.challenge_cancel) or "nothing"
        play.append(
            f"A challenge card ({kings}) names another player to be out of the game. That "
            f"player may answer at once with {kings}: then the challenger is out instead; or "
            f"with {cancel}: then nobody is. An answer does not count, goes on the pile and "
            "its player draws back at once. A player with no answer is out at once (and has "
            "shown it held none); one with an answer may still accept. Play goes on from the "
            "player after the challenger."
        )
    if any(e.skip for e in effects):
        play.append(
            "With two players a skip "
            + (
                "lets you play again."
                if r.skip_with_two_players
                else "does not skip: the other player is next."
            )
        )
        if r.thresholds is not Thresholds.NONE or r.rule_69 is not Rule69.NONE:
            play.append(
                "A skip passes over the next player still in after the card's own payments."
                if r.skip_counts is SkipCounts.REMAINING
                else "If the card's own payment puts the next player out, that player "
                "takes the skip (the one after plays)."
            )
    if any(e.no_draw for e in effects):
        play.append(
            "Facing n no-draw cards in a row, you play n cards one after another "
            "without drawing (each must keep to the limit), or answer with another "
            "no-draw card and draw as usual; stuck part-way, you lose."
        )
    if any(e.kind is Kind.SET_ANY for e in effects):
        play.append(f"A card that sets a chosen total sets any total from 0 to {r.limit}.")
    if r.choice_filter is ChoiceFilter.DROP_BUSTING and any(e.has_choice for e in effects):
        play.append(
            f"A card's value that would take the total {over} is not offered "
            "(if every value would, only the lowest is)."
        )
    if any(e.reverse for e in effects):
        play.append(_two_player_reverse(r))
    if banned:
        ranks = sorted({rank_of(c) for c in banned})
        which = (
            " or ".join(RANK_NAMES[k] for k in ranks)
            if len(banned) == 4 * len(ranks)
            else " or ".join(card_name(c) for c in banned)
        )
        scope = (
            ""
            if one_deal(r)
            else f" of each {r.king_ban_scope.value}"
            if r.king_ban_scope is Scope.HAND
            else " of the game"
        )
        at_limit = "not even" if r.king_ban_at_limit else "except"
        play.append(
            f"No {which} to {r.limit} during your first {r.king_ban_turns} turns"
            f"{scope} ({at_limit} when the total is already {r.limit})."
        )
    return play


def _two_player_reverse(r: Rules) -> str:
    """What a reverse card does with two players in the hand (D25, Q18)."""
    which = _cards_that(r, lambda e: e.reverse)
    nxt = {
        TwoPlayerReverse.HOLD: "the other player is next",
        TwoPlayerReverse.PLAY_AGAIN: "you play again (you draw first)",
        TwoPlayerReverse.PLAY_AGAIN_DRAW_LATER: "you play again (you draw after your second card)",
        TwoPlayerReverse.PLAY_AGAIN_OPTIONAL: "you may play again (you draw first) or "
        "decline, and the other player is next at "
        "the same total",
    }[r.two_player_reverse]
    if r.reverse_with_two_players:
        return f"With two players in the hand, after {which}: {nxt}."
    counts = sorted(
        {describe_effect(e, r.limit, r.halve_over).split(",")[0] for e in r.effects() if e.reverse}
        - {"hold (+0)"}
    )
    still = f" (it still counts {' or '.join(counts)})" if counts else ""
    return f"With two players in the hand, {which} does not reverse{still}: {nxt}."


def _losing(r: Rules, noun: Noun, single: bool) -> list[str]:
    over = f"Going over {r.limit}"
    can_go_over = r.may_bust or r.no_legal_play is NoLegalPlay.PLAY_AND_BUST
    if r.scoring is Scoring.GAME_POINTS:
        crossing = (
            f" ({r.limit}:{r.limit + 1})"
            if r.limit in r.border_values and r.thresholds is Thresholds.BORDERS
            else ""
        )
        losing = [
            f"{over} costs the game points of the borders it crosses{crossing}, "
            "laying down a game point"
            if can_go_over
            else "Laying down costs a game point"
        ]
    else:
        what = f"{over} (or having no card to play)" if can_go_over else "Laying down"
        pay = noun.some(r.bust_penalty) + (" from your team's pool" if r.teams else "")
        losing = [
            f"{what} puts you out of the game at once"
            if every_loss_puts_out(r) and not r.teams
            else f"{what} costs {pay}"
        ]
    pile = " and the pile is taken away" if r.clear_pile_on_reset else " (the pile stays)"
    after = {
        AfterBust.END_HAND: "the hand ends at once and a new one is dealt",
        AfterBust.SIT_OUT: "you are out of this hand; the next player goes on at the same "
        "total until one player is left",
        AfterBust.RESET_ALL: f"the total goes back to 0{pile} and everyone plays on (no new deal)",
        AfterBust.RESET_OTHERS: f"you are out of this hand; the total goes back to 0{pile}, "
        "and the others play on with their cards until one is left",
        AfterBust.REVERT: "you are out of this hand; the total goes back to what it was "
        "before your card and the next player goes on until one player is left",
    }[r.after_bust]
    if r.after_bust is AfterBust.RESET_ALL and can_go_over:
        after += (
            "; who went over still draws"
            if r.draw_after_bust
            else "; who went over does not draw (and plays on a card short)"
        )
    sudden_death = every_loss_puts_out(r) and not r.teams
    if single and r.after_bust is AfterBust.SIT_OUT:
        after = "the next player goes on at the same total (no new deal)"
    elif single and r.after_bust is AfterBust.REVERT:
        after = (
            "the total goes back to what it was before your card and the next player "
            "goes on (no new deal)"
        )
    elif single and r.after_bust is not AfterBust.RESET_ALL:
        after = "the game ends"
    if sudden_death and r.game_end is GameEnd.FIRST_OUT:  # 98's one loser, no new deal
        losing[0] = f"{what}: that player loses and the game ends at once."
    else:
        losing[0] += f"; {after}."
    if r.scoring is Scoring.LIVES and not sudden_death:  # (else said above)
        losing.append(_elimination(r, noun))
    if r.eliminated_hand is EliminatedHand.UNDER_PILE:
        losing.append("A player put out puts their cards face down under the discards.")
    elif r.scoring is Scoring.LIVES and (
        r.after_bust is not AfterBust.END_HAND or r.thresholds is Thresholds.ONLINE
    ):
        losing.append(
            "A player put out during a hand keeps their cards out of play "
            + ("for the rest of the game." if single else "until the next deal.")
        )
    losing += _thresholds(r, noun)
    if r.rule_69 is not Rule69.NONE:
        effect = {
            Rule69.RESET_TO_ZERO: "the total goes back to 0",
            Rule69.PENNY_FROM_POOL: f"you take {noun.a} back from the pool, if it holds any",
            Rule69.EXTRA_POINT: "you score an extra game point",
            Rule69.OTHERS_DRINK: "everyone else drinks",
        }[r.rule_69]
        way = "from below" if r.rule_69_from is Rule69From.BELOW else "from either side"
        losing.append(f"Making exactly {r.rule_69_total} ({way}): {effect}.")
    if r.instant_hands:
        for rule in r.instant_hands:
            losing.append(
                f"{rule.name.capitalize()} in hand "
                + ("win at once." if rule.wins else "end the game at once, with everyone losing.")
            )
        check = (
            "after every deal and every draw"
            if r.instant_check is InstantCheck.DEAL_AND_DRAW
            else "after every deal only"
        )
        order = (
            "the first of these hands in this list decides (and all who hold it share)"
            if r.instant_order is InstantOrder.SIXES_FIRST
            else "only the first of them in seat order counts"
        )
        losing.append(f"Hands are checked {check}; if several players hold one at once, {order}.")
    losing.append(_stock(r))
    return losing


def _elimination(r: Rules, noun: Noun) -> str:
    if r.elimination is Elimination.CANNOT_PAY:
        if r.teams:
            return (
                "A team with an empty pool plays on (on honour) until it must pay and "
                "cannot: then it is out."
            )
        return (
            f"With no {noun.many} left you play on (on honour) until you must pay and "
            "cannot: then you are out."
        )
    if r.teams:
        return "A team whose pool is empty is out of the game."
    return f"A player with no {noun.many} left is out of the game."


def _thresholds(r: Rules, noun: Noun) -> list[str]:
    if r.thresholds is Thresholds.BORDERS:
        way = "either way" if r.border_cross_backward_costs else "going up (not down)"
        return [
            "Crossing a border ("
            + ", ".join(f"{b}:{b + 1}" for b in r.border_values)
            + f"), {way}, costs a game point."
        ]
    if r.thresholds is not Thresholds.ONLINE:
        return []
    t = " or ".join(str(v) for v in r.threshold_values)
    cross = "Cross" if r.online_cross is OnlineCross.STRICT else "Cross or leave"
    lines = [
        f"Make exactly {t} from below: everyone else loses {noun.a}.",
        f"{cross} {t} going up: you lose {noun.a}.",
        f"Make exactly {r.limit}: everyone else loses {noun.some(2)} and the round ends.",
    ]
    if not r.milestones_on_bust:
        lines.append(f"Going over {r.limit} pays only for going over: no {t} payment with it.")
    return lines


def _stock(r: Rules) -> str:
    if r.stock_empty is StockEmpty.NO_DRAW:
        return "When the stock runs out, nobody draws: play on with what is in hand."
    cards = (
        "the discards except the top card are"
        if r.stock_empty is StockEmpty.RESHUFFLE_KEEP_TOP
        else "every played card is"
    )
    when = (
        "as soon as the last card is drawn"
        if r.restock is Restock.EAGER
        else "when someone next has to draw"
    )
    empty = {
        EmptyDraw.SKIP: "you play on a card short",
        EmptyDraw.END_ROUND: "the hand ends with no loser",
        EmptyDraw.FULL_RESHUFFLE: "every card not in a hand is shuffled into a new stock",
    }[r.empty_draw]
    return (
        f"When the stock runs out, {cards} shuffled into a new stock {when}; the total "
        f"is kept. With nothing to reshuffle, {empty}."
    )


def _winning(r: Rules, noun: Noun) -> str:
    if r.scoring is Scoring.GAME_POINTS:
        floor = "counts as 0" if r.points_floor_zero else "counts against you"
        tie = "plays another hand" if r.points_tie is PointsTie.PLAY_ON else "shares the win"
        return (
            f"Game points left at the end of each hand add to your score (a hand below "
            f"0 {floor}); once someone has {r.points_target} or more, the highest score "
            f"wins, and a tie for it {tie}."
        )
    if r.teams:
        return f"The team with {noun.many} left in its pool when the other's is empty wins."
    if r.game_end is GameEnd.FIRST_OUT and every_loss_puts_out(r):
        return "The first player out loses the game; everyone else wins."
    if r.game_end is GameEnd.FIRST_OUT:
        return (
            f"The game ends when the first player is out: the others are ranked by the "
            f"{noun.many} they have left, and the most win (ties share the win)."
        )
    if r.elimination is Elimination.CANNOT_PAY:
        return "The last player still in the game wins."
    return f"The last player with {noun.many} left wins."


def describe_rules(rules: Rules) -> list[tuple[str, list[str]]]:
    """Sections of (heading, lines) describing how a game under these rules goes."""
    r, noun, single = rules, counter(rules), one_deal(rules)
    cards = [
        f"{_name(which):>5}: {effect}"
        + ("   " + _('(say "{call}")').format(call=call) if call != "#" else "")
        for which, effect, call in card_table(r)
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
        about = (
            f"{base.name} ({base.id}) with house rules for {listed(changed)}; "
            "this is how the game goes with them."
        )
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
