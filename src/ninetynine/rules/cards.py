"""Cards as small integers, with a text form that parses and prints symmetrically.

A card is ``rank * 4 + suit`` where rank 0 is the Ace and 12 the King, and suits are
S, H, D, C in that order, so sorting cards sorts them by rank, then suit. Two decks
simply hold each code twice: identical cards are interchangeable. A pack of 54 (CN99,
FAMILIES §12.1) adds two jokers of their own ranks and no suit: the small joker
``SJ`` (rank 13, card 52) and the big joker ``BJ`` (rank 14, card 56); the codes
between them are never dealt, so ``rank_of`` stays a shift.

>>> format_card(parse_card("10h"))
'10H'
>>> [format_card(c) for c in parse_cards("AS KD 9c")]
['AS', 'KD', '9C']
>>> show_cards(parse_cards("AS KD 9c"))
'A♠ K♦ 9♣'
>>> format_cards(new_deck(1, jokers=True)[-3:]), rank_of(parse_card("bj"))
('KC SJ BJ', 14)
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from ninetynine.errors import NotationError
from ninetynine.language import N_, _, translated

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "D", "C")
# in words, in English; rank_name and card_name say them in the current language
RANK_NAMES = (
    N_("Ace"),
    N_("Two"),
    N_("Three"),
    N_("Four"),
    N_("Five"),
    N_("Six"),
    N_("Seven"),
    N_("Eight"),
    N_("Nine"),
    N_("Ten"),
    N_("Jack"),
    N_("Queen"),
    N_("King"),
)
JOKER_RANKS = ("SJ", "BJ")  # the small and the big joker: ranks 13 and 14, no suit
JOKER_NAMES = (N_("Small Joker"), N_("Big Joker"))
SMALL_JOKER, BIG_JOKER = 52, 56  # their cards: rank * 4
JOKERS = (SMALL_JOKER, BIG_JOKER)
CODES = BIG_JOKER + 1  # card codes run below this (tables indexed by card use it)
ALL_RANKS = RANKS + JOKER_RANKS
SUIT_NAMES = (N_("Spades"), N_("Hearts"), N_("Diamonds"), N_("Clubs"))
SUIT_SYMBOLS = ("♠", "♥", "♦", "♣")
ACE, TWO, FOUR, SIX, SEVEN, NINE, TEN, JACK, QUEEN, KING = 0, 1, 3, 5, 6, 8, 9, 10, 11, 12

_RANK_OF_TEXT = {text: i for i, text in enumerate(ALL_RANKS)} | {"T": TEN}
# a suit is typed as a letter, or pasted as the symbol people read
_SUIT_OF_TEXT = {text: i % 4 for i, text in enumerate(SUITS + SUIT_SYMBOLS)}
# a joker's text is its rank alone (the never-dealt codes 53-55 print as the small joker)
_CARD_TEXT = tuple(r + s for r in RANKS for s in SUITS) + ("SJ",) * 4 + ("BJ",)
_JOKER_OF_TEXT = {"SJ": SMALL_JOKER, "BJ": BIG_JOKER}


def rank_of(card: int) -> int:
    """The rank index (0 = Ace ... 12 = King) of a card."""
    return card >> 2


def parse_rank(text: str) -> int:
    """Parse a rank such as ``A``, ``10``, ``T`` or ``k`` into its index."""
    rank = _RANK_OF_TEXT.get(text.strip().upper())
    if rank is None:
        raise NotationError(f"unknown rank {text!r}: expected one of {' '.join(ALL_RANKS)}")
    return rank


def parse_card(text: str) -> int:
    """Parse a card such as ``AS``, ``10H``, ``TH`` or ``qd``."""
    t = text.strip().upper()
    joker = _JOKER_OF_TEXT.get(t)
    if joker is not None:
        return joker
    if len(t) < 2 or t[-1] not in _SUIT_OF_TEXT or t[:-1] not in _RANK_OF_TEXT:
        raise NotationError(
            f"bad card {text!r}: expected a rank (A 2-10 J Q K, or T for 10) "
            "and a suit (S H D C), e.g. AS, 10H, QD, or a joker SJ, BJ"
        )
    return _RANK_OF_TEXT[t[:-1]] * 4 + _SUIT_OF_TEXT[t[-1]]


def format_card(card: int) -> str:
    """The text form of a card, e.g. ``'10H'``."""
    return _CARD_TEXT[card]


def show_card(card: int) -> str:
    """A card as people read it, with its suit symbol, e.g. ``'10♥'``. Records and the
    protocol keep :func:`format_card`'s ``'10H'``."""
    if card >= SMALL_JOKER:
        return _CARD_TEXT[card]
    return RANKS[card >> 2] + SUIT_SYMBOLS[card & 3]


def show_cards(cards: Iterable[int]) -> str:
    """Cards as people read them, space-separated: ``'A♠ 10♥'``."""
    return " ".join(show_card(c) for c in cards)


def rank_name(rank: int) -> str:
    """A rank in words, in the current language: ``rank_name(12) == 'King'``."""
    return translated(RANK_NAMES[rank] if rank < 13 else JOKER_NAMES[rank - 13])


def card_name(card: int) -> str:
    """A card in words, in the current language, e.g. ``'Ace of Spades'``."""
    if card >= SMALL_JOKER:
        return rank_name(card >> 2)
    return _("{rank} of {suit}").format(
        rank=translated(RANK_NAMES[card >> 2]), suit=translated(SUIT_NAMES[card & 3])
    )


def parse_cards(text: str) -> list[int]:
    """Parse cards separated by spaces or commas; an empty string is no cards."""
    return [parse_card(t) for t in text.replace(",", " ").split()]


def format_cards(cards: Iterable[int]) -> str:
    """Cards as space-separated text."""
    return " ".join(_CARD_TEXT[c] for c in cards)


def new_deck(decks: int = 1, jokers: bool = False) -> list[int]:
    """Every card of ``decks`` standard 52-card decks (54 with ``jokers``), sorted."""
    return list(full_pack(decks, jokers))  # (copied from a tuple: each new hand's)


@cache
def full_pack(decks: int = 1, jokers: bool = False) -> tuple[int, ...]:
    """:func:`new_deck` as a tuple, made once: the cards a deal shuffles, in the sorted
    order a shuffle permutes."""
    pack = _PACK_WITH_JOKERS if jokers else _PACK
    return pack if decks == 1 else tuple(sorted(pack * decks))


_PACK = tuple(range(52))
_PACK_WITH_JOKERS = (*_PACK, *JOKERS)
