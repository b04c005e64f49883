"""A readable summary of any rules value, generated from the data alone.

Front ends show this as the help screen; ``ninetynine rules ID`` prints it.
"""

from __future__ import annotations

from ninetynine.cards import RANK_NAMES, RANKS, card_name, format_card, parse_card
from ninetynine.effects import Kind, describe_effect
from ninetynine.rules import (
    AfterBust,
    BelowZero,
    ChoiceFilter,
    EliminatedHand,
    Elimination,
    GameEnd,
    NoLegalPlay,
    Pot,
    Rule69,
    Rules,
    Scoring,
    Starter,
    StartTotal,
    StockEmpty,
    Thresholds,
    TwoPlayerReverse,
)


def card_table(rules: Rules) -> list[tuple[str, str, str]]:
    """(rank, effect, call) for every rank, e.g. ``("K", "set to 99", "99")``, then
    (card, effect, call) for each card whose suit makes it differ, e.g. ``("AS", ...)``."""
    ranks = [(RANKS[i], describe_effect(eff, rules.limit, rules.halve_over),
              rules.calls[i].replace("{total}", "#"))
             for i, eff in enumerate(rules.cards)]
    return ranks + [(format_card(card), describe_effect(eff, rules.limit, rules.halve_over),
                     rules.calls[card >> 2].replace("{total}", "#"))
                    for card, eff in rules.suit_cards]


def _name(which: str) -> str:
    """A rank or card of :func:`card_table` in words: ``"King"``, ``"Ace of Spades"``."""
    return RANK_NAMES[RANKS.index(which)] if which in RANKS else card_name(parse_card(which))


def describe_rules(rules: Rules) -> list[tuple[str, list[str]]]:
    """Sections of (heading, lines) describing how a game under these rules goes."""
    r = rules
    players = (f"{r.players_min} players" if r.players_min == r.players_max
               else f"{r.players_min} to {r.players_max} players")
    decks = "one 52-card deck" if r.decks == 1 else f"{r.decks} 52-card decks"
    if r.decks_by_players:
        decks += " (" + ", ".join(f"{d} from {n} players" for n, d in r.decks_by_players) + ")"
    elif r.big_table_over:
        decks += f" ({r.big_table_decks} decks with more than {r.big_table_over} players)"
    lives_word = "game points" if r.scoring is Scoring.GAME_POINTS else "lives"
    if r.teams:
        lives = (f"two teams of opposite partners (seats 1 & 3, 2 & 4), each sharing "
                 f"{r.team_lives or 2 * r.lives} lives")
    elif r.scoring is Scoring.GAME_POINTS:
        lives = f"{r.points_per_hand} game points each at the start of every hand"
    elif r.lives == 1:
        lives = "one life each: one loss puts you out"
    else:
        lives = f"{r.lives} lives each"
        if r.big_table_over and r.big_table_lives and r.big_table_lives != r.lives:
            lives += f" ({r.big_table_lives} with more than {r.big_table_over} players)"
    table = [f"{players}, {decks}, {r.hand_size} cards each; {lives}."]
    if r.stake:
        table.append(f"Each player stakes {r.stake}; the winner collects every stake.")
    if r.pot is Pot.WINNER_TAKES_ALL:
        table.append("Lost lives go to the centre and the winner collects them.")
    start = ("the first ordinary card turned up from the stock (special cards: "
             + " ".join(RANKS[i] for i in r.upcard_special) + " go back into the deck)"
             if r.start_total is StartTotal.UPCARD else "0")
    starter = {Starter.LEFT_OF_DEALER: "the player left of the dealer starts; the deal moves left",
               Starter.LEFT_OF_LOSER: "the player left of the last hand's loser starts",
               Starter.LOSER: "the last hand's loser starts the next (if out, the next player "
                              "still in)",
               Starter.RANDOM: "a player drawn at random starts each new hand"}[r.starter]
    continuous = r.after_bust is AfterBust.SIT_OUT and r.lives_for(r.players_max) == 1
    if continuous:
        starter = "one deal for the whole game, from the player chosen to start"
    table.append(f"The total starts at {start}; {starter}; play goes clockwise.")

    cards = [f"{_name(which):>5}: {effect}" + (f'   (say "{call}")' if call != "#" else "")
             for which, effect, call in card_table(r)]

    play = [f"Play one card, call the new total, then draw back to {r.hand_size}."]
    if r.may_bust:
        play.append(f"Any card may be played; going over {r.limit} is a bust.")
    else:
        play.append(f"You may not take the total over {r.limit} while you hold a card that "
                    "does not.")
    if r.no_legal_play is NoLegalPlay.LAY_DOWN:
        play.append("If you cannot play, you lay down your hand (no card is played) and lose.")
    else:
        play.append("If every card would go over, you must still play one, and you lose.")
    below = {BelowZero.ALLOW: "may go below 0", BelowZero.CLAMP: "stops at 0 (never below)",
             BelowZero.ILLEGAL: "may not go below 0: such a play is illegal"}[r.below_zero]
    play.append(f"The total {below}.")
    effects = r.effects()
    if any(e.name for e in effects):
        play.append("A card that names the next player " + (
            "may name yourself" if r.name_self else "may not name yourself") +
            "; play goes on from the named player in the same direction.")
    if any(e.skip for e in effects):
        play.append("With two players a skip " + ("lets you play again." if
                    r.skip_with_two_players else "does not skip: the other player is next."))
    if any(e.no_draw for e in effects):
        play.append("Facing n no-draw cards in a row, you play n cards one after another "
                    "without drawing (each must keep to the limit), or answer with another "
                    "no-draw card and draw as usual; stuck part-way, you lose.")
    if any(e.kind is Kind.SET_ANY for e in effects):
        play.append(f"A card that sets a chosen total sets any total from 0 to {r.limit}.")
    if r.choice_filter is ChoiceFilter.DROP_BUSTING:
        play.append(f"A card's value that would take the total over {r.limit} is not offered "
                    "(if every value would, only the lowest is).")
    if any(e.reverse for e in effects):
        two = {TwoPlayerReverse.HOLD: "with two players a reverse acts as a hold",
               TwoPlayerReverse.PLAY_AGAIN: "with two players a reverse lets you play again",
               TwoPlayerReverse.PLAY_AGAIN_DRAW_LATER:
                   "with two players a reverse lets you play again (draw at the end)",
               TwoPlayerReverse.PLAY_AGAIN_OPTIONAL:
                   "with two players a reverse lets you play again after drawing, or decline "
                   "(pass): the other player is then next at the same total"}
        play.append(two[r.two_player_reverse].capitalize() + ".")
    banned = sorted(r.opening_ban_cards())
    if banned:
        ranks = sorted({c >> 2 for c in banned})
        which = " or ".join(RANK_NAMES[k] for k in ranks) if len(banned) == 4 * len(ranks) \
            else " or ".join(card_name(c) for c in banned)
        play.append(f"No {which} to {r.limit} during your first {r.king_ban_turns} turns "
                    f"of each {r.king_ban_scope.value}.")

    bust = {
        AfterBust.END_HAND: "The hand ends at once and a new one is dealt.",
        AfterBust.SIT_OUT: "That player is out of this hand; the next continues at the same "
                           "total until one player is left.",
        AfterBust.RESET_ALL: "The total goes back to 0 and everyone plays on (no new deal).",
        AfterBust.RESET_OTHERS: "The pile is taken away, the total goes back to 0, and the "
                                "others play on with their cards until one is left.",
    }[r.after_bust]
    if continuous:
        bust = "That player is out; the next player goes on at the same total (no new deal)."
    elif r.game_end is GameEnd.FIRST_OUT and r.lives_for(r.players_max) == 1:
        bust = "That player loses and the game ends at once."  # no new deal (98's one loser)
    losing = [f"Going over (or failing to play) costs {r.bust_penalty} "
              f"{'life' if r.bust_penalty == 1 else 'lives'}. {bust}"]
    elim = {Elimination.AT_ZERO: "A player with no lives left is out of the game.",
            Elimination.CANNOT_PAY: "You may stay in at 0; you are out when you must pay and "
                                    "cannot.",
            Elimination.NEVER: "Nobody is eliminated."}[r.elimination]
    losing.append(elim)
    if r.eliminated_hand is EliminatedHand.UNDER_PILE:
        losing.append("A player who is out puts their cards face down under the discards.")
    if r.thresholds is Thresholds.ONLINE:
        t = " or ".join(str(v) for v in r.threshold_values)
        losing += [f"Make exactly {t} from below: everyone else loses 1.",
                   f"Cross {t} going up: you lose 1.",
                   f"Make exactly {r.limit}: everyone else loses 2 and the round ends."]
        if not r.milestones_on_bust:
            losing.append(f"Going over {r.limit} pays only for going over: no {t} payment "
                          "with it.")
    if r.thresholds is Thresholds.BORDERS:
        way = "either way" if r.border_cross_backward_costs else "going up (not down)"
        losing.append("Crossing a border (" + ", ".join(f"{b}:{b + 1}" for b in r.border_values)
                      + f"), {way}, costs a game point.")
    if r.rule_69 is not Rule69.NONE:
        losing.append(f"Making exactly {r.rule_69_total}: "
                      f"{r.rule_69.value.replace('_', ' ')}.")
    for rule in r.instant_hands:
        losing.append(f"{rule.name.capitalize()} in hand " + (
            "win at once." if rule.wins else "end the game at once, with everyone losing."))
    stock = {StockEmpty.RESHUFFLE_KEEP_TOP: "the discards except the top card are shuffled "
                                            "into a new stock",
             StockEmpty.RESHUFFLE_ALL: "every played card is shuffled into a new stock",
             StockEmpty.NO_DRAW: "nobody draws: play on with what is in hand"}[r.stock_empty]
    losing.append(f"When the stock runs out, {stock}; the total is kept.")

    if r.scoring is Scoring.GAME_POINTS:
        win = (f"Game points left at the end of each hand add to your score; once someone has "
               f"{r.points_target} or more, the highest score wins.")
    elif r.teams:
        win = "The team that still has lives when the other's pool is empty wins."
    elif r.game_end is GameEnd.FIRST_OUT and r.lives_for(r.players_max) == 1:
        win = "The first player out loses the game; everyone else wins."
    elif r.game_end is GameEnd.FIRST_OUT:
        win = ("The game ends when the first player is out: the others are ranked by the "
               "lives they have left, and the most lives win (ties share the win).")
    else:
        win = f"The last player with {lives_word} left wins."
    return [("Table", table), ("Cards", cards), ("Playing", play), ("Losing", losing),
            ("Winning", [win])]


def rules_text(rules: Rules) -> str:
    """The whole summary as plain text."""
    lines = [f"{rules.id}: {rules.name}", rules.description, f"Source: {rules.source}", ""]
    for heading, body in describe_rules(rules):
        lines += [heading, *("  " + line for line in body), ""]
    return "\n".join(lines).rstrip() + "\n"
