"""A double-dummy solver for Spades: exact best play with all four hands visible.

Two games are solved from any position of a hand (between tricks or in the
middle of one), with spades always trump and the engine's lead rule (no spade
lead until spades are broken, unless the leader holds nothing but spades):

* **tricks**: how many of the remaining tricks a set of seats takes when their
  partnership plays to maximise that number and the other partnership to
  minimise it (``Solver.tricks``; the set is usually a whole partnership);
* **Nil**: whether a Nil bidder's partnership can keep that seat from winning
  any remaining trick against opponents trying to make it win one
  (``Solver.nil_holds``).

The search is the one double-dummy solvers for bridge use, reduced to what
Spades needs (see ``docs/solver.md``):

* null-window searches ("can the side take at least ``k`` tricks?"), bisected
  on ``k`` for the exact count, or stepped from a guess;
* a transposition table of lower and upper bounds at trick boundaries. A
  bound is filed under the position's shape (leader, spades broken, how many
  cards of each suit each seat holds) with the pattern it depends on: who
  holds the top cards of each suit, down to the lowest card whose rank decided
  a trick in the search (the "winning ranks" of Bo Haglund's bridge solver).
  It then answers every position of that shape with those holders, however
  the smaller cards lie;
* equivalent cards (same hand, same suit, no card still in play between them)
  are tried once;
* move ordering (cash sure winners, lead towards partner's winners, second
  hand low, cheapest winning card, duck when partner wins);
* quick-trick bounds at each trick boundary: the masters the side on lead can
  cash before anyone can ruff, and the top trumps a side is sure to make.

The search state is a handful of plain ``int`` fields changed and restored in
place, so the module is fast interpreted and about an order of magnitude faster
compiled by mypyc.

>>> from spades.core.cards import CARD_NAMES, mask_of, parse_cards
>>> from spades.core.hand import HandState
>>> hands = [mask_of(parse_cards(text)) for text in ("AS KH", "QS 2H", "3S AH", "2S 3H")]
>>> state = HandState(3, hands)   # West deals: North leads
>>> for bid in (1, 1, 1, 1): state.apply_bid(bid)
>>> state.spades_broken = True
>>> solver = Solver()
>>> solver.tricks(state, 0b0101)   # North-South: AS and AH
2
>>> sorted((CARD_NAMES[card], n) for card, n in solver.card_tricks(state, 0b0101).items())
[('AS', 2), ('KH', 2)]
>>> solver.nil_holds(state, 3), solver.nil_holds(state, 0)
(True, False)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from ..core.hand import HandState, Phase, beats, legal_play_mask

if TYPE_CHECKING:
    from ._kernel import Kernel

_new_kernel: Callable[[], Kernel] | None
try:
    # The same search in C (``_kernel.c``, a port of this module card for
    # card), built beside the mypyc modules. Without it (SPADES_PURE_PYTHON,
    # no compiler) the Python search below answers, the same but slower.
    from ._kernel import Kernel as _new_kernel
except ImportError:  # pragma: no cover - depends on the build
    _new_kernel = None

__all__ = ["SearchLimitError", "Solver", "SolverError"]

_SUIT: Final = 0x1FFF
_SPADES: Final = 0x1FFF << 39
_NON_SPADES: Final = (1 << 39) - 1
_NO_CARD: Final = -1
_CARDS: Final = (1 << 52) - 1
_HIGH_FIRST: Final = 1 << 52
"""Set beside a mask of moves: try its cards from the highest down."""
_NO_LEADS: Final[list[int]] = []
"""The lead list of a node that follows (read, never changed)."""
_TABLE_LIMIT: Final = 200_000
"""Shapes a transposition table may hold before it is emptied: a memory bound
(a hard 13-trick deal fills about 15,000, some 50 MB)."""


class SolverError(ValueError):
    """The position cannot be solved (the hand is not being played, bad seats)."""


class SearchLimitError(SolverError):
    """The search visited more positions than the solver's ``limit`` allows."""


# ----------------------------------------------------------------- bit helpers


def _lowest(mask: int) -> int:
    """The lowest card of a non-empty ``mask``."""
    return (mask & -mask).bit_length() - 1


def _count(mask: int) -> int:
    """How many cards ``mask`` holds."""
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


def _above(card: int) -> int:
    """The cards of ``card``'s suit that rank above it."""
    return (_SUIT << (13 * (card // 13))) & ~((2 << card) - 1)


def _top_run(alive: int, hand: int) -> int:
    """How many of the highest cards of ``alive`` (one suit) ``hand`` holds in a row."""
    n = 0
    while alive:
        top = 1 << (alive.bit_length() - 1)
        if not hand & top:
            break
        n += 1
        alive ^= top
    return n


def _with_skipped(rel: int, legal: int, reps: int) -> int:
    """``rel`` of a node where every move was searched, widened for the moves
    skipped as equivalent: playing a skipped card ``y`` instead of its
    representative ``x`` swaps the two, so if ``y`` mattered in ``x``'s line,
    ``x`` matters in ``y``'s, and the pattern must reach down to ``x``."""
    skipped = legal & ~reps & rel
    while skipped:
        low = skipped & -skipped
        skipped ^= low
        below = reps & (low - 1) & (_SUIT << (13 * ((low.bit_length() - 1) // 13)))
        rel |= 1 << (below.bit_length() - 1)
    return rel


def _discard(cards: int) -> int:
    """The card to throw first from ``cards``: the lowest-ranked side-suit card
    (a spade only when nothing else is left)."""
    side = cards & _NON_SPADES
    if side:
        cards = side
    best = 0
    best_rank = 13
    for shift in range(0, 52, 13):
        suit = (cards >> shift) & _SUIT
        if suit:
            low = suit & -suit
            rank = low.bit_length() - 1
            if rank < best_rank:
                best_rank = rank
                best = low << shift
    return best


def _compress_table(width: int) -> bytes:
    """``table[(r << width) | x]``: the bits of ``x`` at the positions set in ``r``,
    packed together (a software ``pext`` for ``width``-bit numbers)."""
    size = 1 << width
    out = bytearray(size * size)
    for r in range(size):
        for x in range(size):
            packed = 0
            position = 0
            for bit in range(width):
                if r >> bit & 1:
                    if x >> bit & 1:
                        packed |= 1 << position
                    position += 1
            out[(r << width) | x] = packed
    return bytes(out)


_PACK_LOW: Final = _compress_table(7)
_PACK_HIGH: Final = _compress_table(6)
_POP_LOW: Final = bytes([bin(r).count("1") for r in range(128)])
_POP13: Final = bytes([bin(r).count("1") for r in range(1 << 13)])


def _pack(x: int, r: int) -> int:
    """The bits of the 13-bit ``x`` at the positions set in ``r``, packed together."""
    low = r & 127
    return _PACK_LOW[(low << 7) | (x & 127)] | (
        _PACK_HIGH[((r >> 7) << 6) | (x >> 7)] << _POP_LOW[low]
    )


# --------------------------------------------------------------------- solver


def _compositions() -> list[int]:
    """``table[c0 | c1 << 4 | c2 << 8 | c3 << 12]``: a number below 4,096 for each
    way four seats can hold 13 or fewer cards of a suit, so that a shape's 16
    suit lengths fit in 48 bits (one machine word with the leader and spades
    broken, where mypyc's ints are fast; 64 bits would not be)."""
    table = [0] * (1 << 16)
    index = 0
    for c0 in range(14):
        for c1 in range(14 - c0):
            for c2 in range(14 - c0 - c1):
                for c3 in range(14 - c0 - c1 - c2):
                    table[c0 | c1 << 4 | c2 << 8 | c3 << 12] = index
                    index += 1
    return table


_COMPOSITIONS: Final = _compositions()
# The same as bytes, low and high byte apart: indexing bytes is cheaper compiled.
_COMPOSITION_LOW: Final = bytes([index & 255 for index in _COMPOSITIONS])
_COMPOSITION_HIGH: Final = bytes([index >> 8 for index in _COMPOSITIONS])


def _pattern(counts: int, high: int, low: int) -> int:
    """Who holds the top ``counts[suit]`` cards of each suit (``counts``: 4 bits
    a suit), packed two bits a card, read from a position's holder codes:
    ``high`` for spades and hearts, ``low`` for diamonds and clubs, 26 bits a
    suit (bit 1 of the holders' seats from bit 25 down, bit 0 from bit 12
    down, the highest card first)."""
    key = 0
    for suit in range(4):
        k = (counts >> (4 * suit)) & 15
        if k:
            code = (high >> (26 * (suit - 2)) if suit >= 2 else low >> (26 * suit)) & 0x3FFFFFF
            key = (
                (key << (2 * k)) | ((code >> (26 - k)) << k) | ((code >> (13 - k)) & ((1 << k) - 1))
            )
    return key


class _Bucket:
    """The table's entries for one shape (leader, spades broken, how many cards
    of each suit each seat holds).

    An entry is a lower and an upper bound on the counted tricks (Nil: 1 held,
    0 not), ``lo << 4 | hi`` (plain ints: nothing for the garbage collector to
    follow in a table of a million entries). It is filed under the number of
    top cards of each suit its bounds depend on (``counts[i]``, 4 bits a
    suit) and who holds those cards (``_pattern``, the key in ``groups[i]``).
    Only those cards' ranks decided a trick in the search, so the smaller
    cards may lie anywhere the suit lengths allow: a position matches when its
    holders of those top cards are the ones recorded.
    """

    __slots__ = ("counts", "groups")

    def __init__(self) -> None:
        self.counts: list[int] = []
        self.groups: list[dict[int, int]] = []


class Solver:
    """Double-dummy search. One solver may answer many questions about many
    positions: each fact in its transposition tables holds for every position
    matching it, so the tables stay valid and make later questions about the
    same hand cheaper (``spades analyze`` asks about every position of a hand).

    One thread a solver: the position searched lives in its fields. The C
    kernel lets go of the GIL while it searches, so other threads (with solvers
    of their own) run meanwhile.
    """

    # The position searched: each seat's cards, and the trick in progress.
    h0: int
    h1: int
    h2: int
    h3: int
    alive: int
    """Cards not yet in a finished trick: the hands plus the trick on the table."""
    leader: int
    turn: int
    pos: int
    """How many cards the trick in progress holds."""
    led: int
    win_card: int
    win_seat: int
    trick_mask: int
    broken: bool
    left: int
    """Tricks not yet finished, the one in progress included."""
    # The question asked.
    counted: int
    """Bit ``seat`` set for each seat whose tricks count."""
    max_team: int
    team_objective: bool
    nil_seat: int
    table: dict[int, _Bucket]
    tables: dict[int, dict[int, _Bucket]]
    nodes: int
    """Cards tried by the last question (a measure of its work)."""
    limit: int
    rel: int
    """Set by each search call: the cards whose ranks its answer depends on."""
    shape: int
    high: int
    low: int
    """Set by ``_encode``: the position's shape and holder codes."""
    kernel: Kernel | None
    """The C search with its own tables, or None: this module's searches."""

    def __init__(self, limit: int = 0, *, native: bool = True) -> None:
        """``limit``: the most cards a question may try before it gives up with
        ``SearchLimitError`` (0: no limit). Whatever was learnt is kept.

        ``native``: search with the C kernel when it is built (the default).
        ``native=False`` runs this module's searches, the reference the
        kernel is tested against; both try the same cards and answer alike."""
        self.limit = limit if limit > 0 else 1 << 62
        self.kernel = _new_kernel() if native and _new_kernel is not None else None
        self.h0 = self.h1 = self.h2 = self.h3 = 0
        self.alive = 0
        self.leader = self.turn = self.pos = 0
        self.led = -1
        self.win_card = _NO_CARD
        self.win_seat = 0
        self.trick_mask = 0
        self.broken = False
        self.left = 0
        self.counted = 0
        self.max_team = 0
        self.team_objective = True
        self.nil_seat = 0
        self.tables = {}
        self.table = {}
        self.nodes = 0
        self.rel = 0
        self.shape = 0
        self.high = 0
        self.low = 0

    # ------------------------------------------------------------ public API

    def tricks(self, state: HandState, seats: int, guess: int = -1) -> int:
        """The remaining tricks (the one in progress included) won by the seats in
        the bit mask ``seats`` (bit ``seat``; ``0b0101`` is North-South) with best
        play: their partnership maximises, the other minimises.

        A ``guess`` near the answer (say, the answer one card earlier) saves
        searches: the count is then found by stepping from it.
        """
        self._load(state)
        self._ask_tricks(seats)
        return self._exact(guess)

    def reaches(self, state: HandState, seats: int, target: int) -> bool:
        """Whether ``seats`` can take ``target`` or more of the remaining tricks
        (the one in progress included): one null-window search, cheaper than
        the exact count."""
        self._load(state)
        self._ask_tricks(seats)
        return self._root_search(target)

    def card_tricks(self, state: HandState, seats: int) -> dict[int, int]:
        """For each card the seat to act may play, the tricks ``seats`` take in the
        rest of the hand (the trick in progress included) after it, with best play.
        """
        self._load(state)
        self._ask_tricks(seats)
        values: dict[int, int] = {}
        legal = self._legal(self.turn)
        guess = -1  # the card before's count: siblings are often worth the same
        for card in self._cards_of(self._reps(legal)):
            winner = self._push(card)
            rest = self._exact(guess)
            guess = rest
            value = rest + ((seats >> winner) & 1 if winner >= 0 else 0)
            self._pop(card)
            for same in self._cards_of(self._equivalents(card, legal)):
                values[same] = value
        return values

    def nil_holds(self, state: HandState, seat: int) -> bool:
        """Whether ``seat``'s partnership can keep ``seat`` from winning any of
        the remaining tricks (the one in progress included) against the best
        defence. A trick ``seat`` already won in this hand is not looked at.
        """
        self._load(state)
        self._ask_nil(seat)
        return self._root_nil()

    def card_nil(self, state: HandState, seat: int) -> dict[int, bool]:
        """For each card the seat to act may play, whether the Nil of ``seat`` can
        still be held after it."""
        self._load(state)
        self._ask_nil(seat)
        values: dict[int, bool] = {}
        legal = self._legal(self.turn)
        for card in self._cards_of(self._reps(legal)):
            winner = self._push(card)
            value = winner != seat and self._root_nil()
            self._pop(card)
            for same in self._cards_of(self._equivalents(card, legal)):
                values[same] = value
        return values

    # -------------------------------------------------------- setting up

    def _load(self, state: HandState) -> None:
        if state.phase is not Phase.PLAYING:
            raise SolverError(
                "the hand is not being played: the bidding is not over"
                if state.phase is Phase.BIDDING
                else "the hand is over: no card is left to play"
            )
        hands = state.hands
        self.h0 = hands[0]
        self.h1 = hands[1]
        self.h2 = hands[2]
        self.h3 = hands[3]
        trick_mask = 0
        for card in state.trick:
            trick_mask |= 1 << card
        self.trick_mask = trick_mask
        self.alive = hands[0] | hands[1] | hands[2] | hands[3] | trick_mask
        self.leader = state.leader
        self.turn = state.turn
        self.pos = len(state.trick)
        self.broken = state.spades_broken
        self.left = _count(hands[state.turn])
        if self.left == 0:
            raise SolverError("the seat to play holds no card")
        self.led = -1
        self.win_card = _NO_CARD
        self.win_seat = state.leader
        for position, card in enumerate(state.trick):
            if position == 0:
                self.led = card // 13
                self.win_card = card
            elif beats(card, self.win_card):
                self.win_card = card
                self.win_seat = (state.leader + position) & 3
        self.nodes = 0

    def _ask_tricks(self, seats: int) -> None:
        if not 0 < seats < 16:
            raise SolverError(f"seats is a non-empty mask of seats 0..3, not {seats!r}")
        team = 0 if seats & 0b0101 else 1
        if seats & (0b1010 if team == 0 else 0b0101):
            raise SolverError("the counted seats must sit in one partnership")
        self.counted = seats
        self.max_team = team
        self.team_objective = seats == (0b0101 << team)
        self.table = self._table_for(seats)

    def _ask_nil(self, seat: int) -> None:
        if not 0 <= seat < 4:
            raise SolverError(f"no seat {seat!r}")
        self.nil_seat = seat
        self.max_team = seat & 1
        self.table = self._table_for(16 + seat)

    def _table_for(self, question: int) -> dict[int, _Bucket]:
        """The transposition table of a question: a seat mask (tricks) or 16 + seat (Nil)."""
        table = self.tables.get(question)
        if table is None:
            table = {}
            self.tables[question] = table
        return table

    # ------------------------------------------------------------ the position

    def _hand(self, seat: int) -> int:
        if seat == 0:
            return self.h0
        if seat == 1:
            return self.h1
        if seat == 2:
            return self.h2
        return self.h3

    def _set_hand(self, seat: int, hand: int) -> None:
        if seat == 0:
            self.h0 = hand
        elif seat == 1:
            self.h1 = hand
        elif seat == 2:
            self.h2 = hand
        else:
            self.h3 = hand

    def _legal(self, seat: int) -> int:
        return legal_play_mask(self._hand(seat), self.led if self.pos else -1, self.broken)

    def _reps(self, legal: int) -> int:
        """One card of each run of equivalent cards in ``legal`` (the lowest):
        cards of one suit with no card still in play between them."""
        alive = self.alive
        reps = 0
        previous = -1
        mask = legal
        while mask:
            low = mask & -mask
            mask ^= low
            card = low.bit_length() - 1
            if (
                previous < 0
                or previous // 13 != card // 13
                or alive & (low - (2 << previous))  # a card in play between them
            ):
                reps |= low
            previous = card
        return reps

    def _equivalents(self, card: int, legal: int) -> int:
        """The cards of ``legal`` equivalent to the run representative ``card``
        (itself included): the cards above it with no card in play between."""
        alive = self.alive
        group = 1 << card
        previous = card
        higher = legal & _above(card)
        while higher:
            low = higher & -higher
            if alive & (low - (2 << previous)):
                break
            group |= low
            previous = low.bit_length() - 1
            higher ^= low
        return group

    def _cards_of(self, mask: int) -> list[int]:
        out: list[int] = []
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out

    _saved: tuple[int, int, int, int, bool, int, int]

    def _push(self, card: int) -> int:
        """Play ``card`` for the seat to act (root moves only; the search inlines
        this); the winner of the trick if the card finished one, else -1."""
        seat = self.turn
        self._set_hand(seat, self._hand(seat) ^ (1 << card))
        self._saved = (
            self.led,
            self.win_card,
            self.win_seat,
            self.trick_mask,
            self.broken,
            self.leader,
            self.alive,
        )
        if card >= 39:
            self.broken = True
        if self.pos == 0:
            self.led = card // 13
            self.win_card = card
            self.win_seat = seat
            self.trick_mask = 1 << card
        elif beats(card, self.win_card):
            self.win_card = card
            self.win_seat = seat
            self.trick_mask |= 1 << card
        else:
            self.trick_mask |= 1 << card
        if self.pos < 3:
            self.pos += 1
            self.turn = (seat + 1) & 3
            return -1
        winner = self.win_seat
        self.alive &= ~self.trick_mask
        self.pos = 0
        self.led = -1
        self.leader = winner
        self.turn = winner
        self.left -= 1
        self.trick_mask = 0
        return winner

    def _pop(self, card: int) -> None:
        led, win_card, win_seat, trick_mask, broken, leader, alive = self._saved
        if self.pos == 0:  # the card finished a trick
            self.left += 1
            self.pos = 3
            self.turn = (leader + 3) & 3
        else:
            self.pos -= 1
            self.turn = (self.turn + 3) & 3
        self.led = led
        self.win_card = win_card
        self.win_seat = win_seat
        self.trick_mask = trick_mask
        self.broken = broken
        self.leader = leader
        self.alive = alive
        seat = self.turn
        self._set_hand(seat, self._hand(seat) | (1 << card))

    # --------------------------------------------------------- tricks search

    def _exact(self, guess: int = -1) -> int:
        """The exact number of counted tricks from the current position: from a
        ``guess``, step up or down one trick a search; else bisect."""
        lo = 0
        hi = self.left
        if 0 <= guess <= hi:
            if self._root_search(guess):
                lo = guess
                while lo < hi and self._root_search(lo + 1):
                    lo += 1
                return lo
            hi = guess - 1
            while hi > 0 and not self._root_search(hi):
                hi -= 1
            return hi
        while lo < hi:
            target = (lo + hi + 1) >> 1
            if self._root_search(target):
                lo = target
            else:
                hi = target - 1
        return lo

    def _root_search(self, target: int) -> bool:
        """``_search`` from the position loaded, in the kernel when there is one."""
        kernel = self.kernel
        if kernel is None:
            return self._search(target)
        result, self.nodes = kernel.tricks(
            self.h0,
            self.h1,
            self.h2,
            self.h3,
            self.alive,
            self.trick_mask,
            self.leader,
            self.turn,
            self.pos,
            self.led,
            self.win_card,
            self.win_seat,
            self.broken,
            self.left,
            self.counted,
            self.max_team,
            self.team_objective,
            target,
            self.nodes,
            self.limit,
        )
        if result < 0:
            raise SearchLimitError(f"gave up after trying {self.limit} cards")
        return result == 1

    def _root_nil(self) -> bool:
        """``_nil_search`` from the position loaded, in the kernel when there is one."""
        kernel = self.kernel
        if kernel is None:
            return self._nil_search()
        result, self.nodes = kernel.nil(
            self.h0,
            self.h1,
            self.h2,
            self.h3,
            self.alive,
            self.trick_mask,
            self.leader,
            self.turn,
            self.pos,
            self.led,
            self.win_card,
            self.win_seat,
            self.broken,
            self.left,
            self.nil_seat,
            self.nodes,
            self.limit,
        )
        if result < 0:
            raise SearchLimitError(f"gave up after trying {self.limit} cards")
        return result == 1

    def _search(self, target: int) -> bool:
        """Whether the counted seats can take ``target`` or more of the remaining
        tricks. Sets ``rel``: the cards whose ranks the answer depends on."""
        if self.pos:
            return self._moves(target)
        left = self.left
        if target <= 0 or target > left:
            self.rel = 0
            return target <= 0
        if left == 1:
            return self._last_trick() >= target
        self._encode()
        shape = self.shape
        high = self.high
        low = self.low
        known = self._lookup(target)
        if known >= 0:
            return known == 1
        ours, theirs = self._quick_tricks()
        if ours >= target or left - theirs < target:
            rel = self.rel
            if ours >= target:
                self._store(shape, high, low, rel, ours, left)
            else:
                self._store(shape, high, low, rel, 0, left - theirs)
            self.rel = rel
            return ours >= target
        result = self._moves(target)
        rel = self.rel
        if result:
            self._store(shape, high, low, rel, target, left)
        else:
            self._store(shape, high, low, rel, 0, target - 1)
        self.rel = rel
        return result

    def _moves(self, target: int) -> bool:
        """Try the moves of the seat to act (any position in the trick)."""
        seat = self.turn
        pos = self.pos
        hand = self._hand(seat)
        led = self.led
        win_card = self.win_card
        win_seat = self.win_seat
        trick_mask = self.trick_mask
        broken = self.broken
        leader = self.leader
        alive = self.alive
        maximizing = (seat & 1) == self.max_team
        nxt = (seat + 1) & 3
        rel = 0
        legal = self._legal(seat)
        reps = self._reps(legal)
        # The moves in order: leads from a scored list; following, from four
        # masks tried one after the other, lowest card first in each (no list
        # to build at the three nodes of a trick out of four that follow).
        leads = _NO_LEADS
        index = 0
        first = second = third = rest = 0
        if pos == 0:
            leads = self._lead_order(seat, reps)
        else:
            first, second, third = self._follow_order(seat, reps)
            second &= ~first
            third &= ~first & ~second
            rest = reps & ~first & ~second & ~third
        while True:
            if pos == 0:
                if index == len(leads):
                    break
                card = leads[index]
                index += 1
            else:
                while not first and (second or third or rest):
                    first = second
                    second = third
                    third = rest
                    rest = 0
                if not first:
                    break
                low = first & -first
                first ^= low
                card = low.bit_length() - 1
            bit = 1 << card
            self._set_hand(seat, hand ^ bit)
            self.nodes += 1
            if self.nodes > self.limit:
                self._set_hand(seat, hand)
                raise SearchLimitError(f"gave up after trying {self.limit} cards")
            if card >= 39:
                self.broken = True
            if pos == 0:
                self.led = card // 13
                self.win_card = card
                self.win_seat = seat
                self.trick_mask = bit
                self.pos = 1
                self.turn = nxt
                result = self._moves(target)
                self.led = led
                self.win_card = win_card
                self.win_seat = win_seat
                self.trick_mask = trick_mask
                self.pos = 0
                self.turn = seat
            elif pos < 3:
                if beats(card, win_card):
                    self.win_card = card
                    self.win_seat = seat
                self.trick_mask = trick_mask | bit
                self.pos = pos + 1
                self.turn = nxt
                result = self._moves(target)
                self.win_card = win_card
                self.win_seat = win_seat
                self.trick_mask = trick_mask
                self.pos = pos
                self.turn = seat
            else:
                best = win_card
                winner = win_seat
                if beats(card, win_card):
                    best = card
                    winner = seat
                played = trick_mask | bit
                self.alive = alive & ~played
                self.pos = 0
                self.led = -1
                self.leader = winner
                self.turn = winner
                self.left -= 1
                self.trick_mask = 0
                result = self._search(target - ((self.counted >> winner) & 1))
                if played & (_SUIT << (13 * (best // 13))) != 1 << best:
                    self.rel |= 1 << best  # the trick was won by rank
                self.alive = alive
                self.pos = 3
                self.led = led
                self.leader = leader
                self.turn = seat
                self.left += 1
                self.trick_mask = trick_mask
            self._set_hand(seat, hand)
            self.broken = broken
            if result == maximizing:
                return result
            rel |= self.rel
        self.rel = _with_skipped(rel, legal, reps)
        return not maximizing

    def _last_trick(self) -> int:
        """Counted tricks in the last trick (one card each, nothing to choose)."""
        return (self.counted >> self._last_trick_winner()) & 1

    def _last_trick_winner(self) -> int:
        """Who wins the last trick (one card each); sets ``rel``."""
        seat = self.leader
        best = _lowest(self._hand(seat))
        winner = seat
        played = 1 << best
        for step in range(1, 4):
            other = (seat + step) & 3
            card = _lowest(self._hand(other))
            played |= 1 << card
            if beats(card, best):
                best = card
                winner = other
        by_rank = played & (_SUIT << (13 * (best // 13))) != 1 << best
        self.rel = 1 << best if by_rank else 0
        return winner

    # ------------------------------------------------ transposition table

    def _encode(self) -> None:
        """Describe the trick boundary for the table: ``shape`` (leader, spades
        broken, how many cards of each suit each seat holds) and the holder
        codes ``high`` and ``low`` (who holds each card left, by rank from the
        top, 26 bits a suit: see ``_pattern``)."""
        alive = self.alive
        h0 = self.h0
        h1 = self.h1
        h2 = self.h2
        odd = h1 | self.h3  # bit 0 of the holder's seat
        upper = h2 | self.h3  # bit 1
        shape = self.leader | (4 if self.broken else 0)
        high = 0
        low = 0
        for suit in range(3, -1, -1):
            shift = 13 * suit
            r = (alive >> shift) & _SUIT
            n = _POP13[r]
            c0 = _POP13[(h0 >> shift) & _SUIT]
            c1 = _POP13[(h1 >> shift) & _SUIT]
            c2 = _POP13[(h2 >> shift) & _SUIT]
            lengths = c0 | c1 << 4 | c2 << 8 | (n - c0 - c1 - c2) << 12
            shape = (shape << 12) | _COMPOSITION_HIGH[lengths] << 8 | _COMPOSITION_LOW[lengths]
            code = 0
            if n:
                top = 13 - n  # align the highest card to bit 12 of the slot
                code = (_pack((upper >> shift) & _SUIT, r) << (13 + top)) | (
                    _pack((odd >> shift) & _SUIT, r) << top
                )
            if suit >= 2:
                high = (high << 26) | code
            else:
                low = (low << 26) | code
        self.shape = shape
        self.high = high
        self.low = low

    def _top_cards(self, counts: int) -> int:
        """The ``counts`` (4 bits a suit) highest cards left in each suit."""
        alive = self.alive
        cards = 0
        for suit in range(4):
            k = (counts >> (4 * suit)) & 15
            left = (alive >> (13 * suit)) & _SUIT
            while k:
                top = 1 << (left.bit_length() - 1)
                left ^= top
                cards |= top << (13 * suit)
                k -= 1
        return cards

    def _lookup(self, target: int) -> int:
        """What the table knows of the position ``_encode`` described: 1 if the
        counted seats take ``target`` or more, 0 if not (``rel`` is then set),
        -1 if it does not say."""
        bucket = self.table.get(self.shape)
        if bucket is None:
            return -1
        high = self.high
        low = self.low
        all_counts = bucket.counts
        groups = bucket.groups
        for i in range(len(all_counts)):
            counts = all_counts[i]
            entry = groups[i].get(_pattern(counts, high, low), -1)
            if entry >= 0:
                if entry >> 4 >= target:
                    self.rel = self._top_cards(counts)
                    return 1
                if entry & 15 < target:
                    self.rel = self._top_cards(counts)
                    return 0
        return -1

    def _store(self, shape: int, high: int, low: int, rel: int, lo: int, hi: int) -> None:
        """Record bounds for the position ``shape`` with holder codes
        ``high``/``low``, valid for every position of that shape whose cards
        from the top of each suit down to the lowest card in ``rel`` are held
        by the same seats."""
        alive = self.alive
        counts = 0
        for suit in range(3, -1, -1):
            shift = 13 * suit
            suit_rel = (rel >> shift) & _SUIT
            k = 0
            if suit_rel:
                lowest = suit_rel & -suit_rel
                k = _POP13[(alive >> shift) & _SUIT & ~(lowest - 1)]
            counts = (counts << 4) | k
        bucket = self.table.get(shape)
        if bucket is None:
            if len(self.table) > _TABLE_LIMIT:
                self.table.clear()
            bucket = _Bucket()
            self.table[shape] = bucket
        all_counts = bucket.counts
        index = -1
        for i in range(len(all_counts)):
            if all_counts[i] == counts:
                index = i
                break
        if index < 0:
            index = len(all_counts)
            all_counts.append(counts)
            bucket.groups.append({})
        group = bucket.groups[index]
        key = _pattern(counts, high, low)
        entry = group.get(key, -1)
        if entry >= 0:
            lo = max(lo, entry >> 4)
            hi = min(hi, entry & 15)
        group[key] = lo << 4 | hi

    def _quick_tricks(self) -> tuple[int, int]:
        """Tricks the counted partnership is sure of, and those the other side is
        sure of, at a trick boundary (both lower bounds). Sets ``rel`` to the
        cards the count relies on."""
        leader = self.leader
        side = leader & 1
        partner = leader ^ 2
        lho = (leader + 1) & 3
        rho = (leader + 3) & 3
        hand = self._hand(leader)
        partner_hand = self._hand(partner)
        lho_hand = self._hand(lho)
        rho_hand = self._hand(rho)
        alive = self.alive
        rel = 0

        # The top spades: each one a seat holds in an unbroken run of one side's
        # cards from the top wins a trick of its own (one card a trick per seat).
        spades = alive & _SPADES
        run_count = [0, 0, 0, 0]
        owner_side = -1
        while spades:
            top = 1 << (spades.bit_length() - 1)
            holder = self._holder(top)
            if owner_side < 0:
                owner_side = holder & 1
            elif holder & 1 != owner_side:
                break
            run_count[holder] += 1
            rel |= top
            spades ^= top
        run_side = max(run_count)

        # Masters the leader can cash in a row, keeping the lead.
        cash = 0
        if self.broken or not hand & _NON_SPADES:
            cash = _top_run(alive & _SPADES, hand)
        side_cash = 0
        lho_trumps = lho_hand & _SPADES != 0
        rho_trumps = rho_hand & _SPADES != 0
        for suit in range(3):
            shift = 13 * suit
            suit_alive = (alive >> shift) & _SUIT
            run = _top_run(suit_alive, (hand >> shift) & _SUIT)
            if run == 0:
                continue
            if lho_trumps:
                run = min(run, _POP13[(lho_hand >> shift) & _SUIT])
            if rho_trumps:
                run = min(run, _POP13[(rho_hand >> shift) & _SUIT])
            for _ in range(run):
                top = 1 << (suit_alive.bit_length() - 1)
                suit_alive ^= top
                rel |= top << shift
            side_cash += run
        if partner_hand & _SPADES:
            # Partner can throw a side-suit card on each cash until it runs out.
            side_cash = min(side_cash, _count(partner_hand & _NON_SPADES))
        cash += side_cash
        self.rel = rel

        # Lower bounds on the counted tricks and on the others. The cashes are
        # the leader's side's tricks (its own when its partner plays along); a
        # side's top-spade run counts for one seat only when its partner holds
        # none of the run.
        counted = self.counted
        ours = 0
        theirs = 0
        if counted >> leader & 1:
            ours = cash
        elif side != self.max_team:
            theirs = cash
        if owner_side >= 0:
            if self.team_objective:
                if owner_side == self.max_team:
                    ours = max(ours, run_side)
                else:
                    theirs = max(theirs, run_side)
            else:
                for seat in range(4):
                    if run_count[seat] and not run_count[seat ^ 2]:
                        if counted >> seat & 1:
                            ours = max(ours, run_count[seat])
                        else:
                            theirs = max(theirs, run_count[seat])
                    elif run_count[seat] and not counted >> seat & 1 and seat & 1 != self.max_team:
                        theirs = max(theirs, run_side)
        return ours, theirs

    def _holder(self, bit: int) -> int:
        if self.h0 & bit:
            return 0
        if self.h1 & bit:
            return 1
        if self.h2 & bit:
            return 2
        return 3

    # ------------------------------------------------------------ move order

    def _lead_order(self, seat: int, reps: int) -> list[int]:
        """Leads by a score: cash a sure winner, lead low towards partner's
        winner or ruff, else low cards; a suit the opponents ruff comes last."""
        hand = self._hand(seat)
        partner_hand = self._hand(seat ^ 2)
        lho_hand = self._hand((seat + 1) & 3)
        rho_hand = self._hand((seat + 3) & 3)
        opponents = lho_hand | rho_hand
        opp_spades = opponents & _SPADES
        others = self.alive & ~hand
        scored: list[int] = []
        for suit in range(4):
            suit_mask = _SUIT << (13 * suit)
            mine = reps & suit_mask
            if not mine:
                continue
            lowest = mine & -mine
            ruffed = suit != 3 and (
                (not lho_hand & suit_mask and lho_hand & _SPADES != 0)
                or (not rho_hand & suit_mask and rho_hand & _SPADES != 0)
            )
            top_other = (others & suit_mask).bit_length() - 1
            partner_suit = partner_hand & suit_mask
            partner_top = (
                partner_suit != 0
                and partner_suit.bit_length() > (opponents & suit_mask).bit_length()
            )
            partner_ruffs = (
                suit != 3 and not partner_suit and partner_hand & _SPADES != 0 and not ruffed
            )
            while mine:
                bit = mine & -mine
                mine ^= bit
                card = bit.bit_length() - 1
                rank = card % 13
                if card > top_other and not ruffed:
                    score = 60 if suit != 3 or opp_spades else 45  # a sure winner
                elif bit == lowest and ((partner_top and not ruffed) or partner_ruffs):
                    score = 50
                elif bit == lowest:
                    score = 30 - rank
                else:
                    score = 15 - rank
                if ruffed:
                    score -= 25
                scored.append(((score + 40) << 6) | card)
        scored.sort(reverse=True)
        return [key & 63 for key in scored]

    def _follow_order(self, seat: int, reps: int) -> tuple[int, int, int]:
        win_card = self.win_card
        led_mask = _SUIT << (13 * self.led)
        if reps & led_mask:
            beat = reps & _above(win_card) if win_card // 13 == self.led else 0
        elif win_card >= 39:
            beat = reps & _above(win_card)
        else:
            beat = reps & _SPADES
        lose = reps & ~beat
        low = lose & -lose
        if lose and not reps & led_mask:
            low = _discard(lose)
        cheapest = beat & -beat
        ours = (self.win_seat & 1) == (seat & 1)
        pos = self.pos
        if pos == 3:
            if ours:
                return low, lose, beat
            return cheapest, beat, lose
        # The next seat is an opponent: the cheapest card it cannot beat wins
        # the trick for sure when the last seat is partner (second hand), and
        # holds the trick when it is the last seat (third hand).
        nxt = self._hand((seat + 1) & 3)
        sure = 0
        rest = beat
        while rest:
            card = rest & -rest
            if not self._can_beat(nxt, card.bit_length() - 1):
                sure = card
                break
            rest ^= card
        if pos == 2:
            if ours and not self._can_beat(nxt, win_card):
                return low, lose, beat
            if sure:
                return sure, low, beat
            if ours:
                return low, cheapest, lose
            return cheapest, low, beat
        if sure:
            return sure, low, beat
        if not reps & led_mask and beat:  # void: ruff cheaply
            return cheapest, low, beat
        return low, cheapest, lose

    def _can_beat(self, hand: int, card: int) -> bool:
        """Whether ``hand``, playing to the trick in progress, can beat ``card``."""
        follow = hand & (_SUIT << (13 * self.led))
        if follow:
            return card // 13 == self.led and follow.bit_length() - 1 > card
        if card >= 39:
            return hand & _above(card) != 0
        return hand & _SPADES != 0

    # ------------------------------------------------------------ Nil search

    def _nil_search(self) -> bool:
        """Whether the Nil of ``nil_seat`` can be held from here (sets ``rel``)."""
        if self.pos:
            return self._nil_moves()
        if self.left == 0:
            self.rel = 0
            return True
        spades = self.alive & _SPADES
        if spades:
            top = 1 << (spades.bit_length() - 1)
            if self._hand(self.nil_seat) & top:
                self.rel = top
                return False  # the top spade wins whatever trick it falls on
        if self.left == 1:
            return self._last_trick_winner() != self.nil_seat
        self._encode()
        shape = self.shape
        high = self.high
        low = self.low
        known = self._lookup(1)
        if known >= 0:
            return known == 1
        result = self._nil_moves()
        rel = self.rel
        value = 1 if result else 0
        self._store(shape, high, low, rel, value, value)
        self.rel = rel
        return result

    def _nil_moves(self) -> bool:
        seat = self.turn
        pos = self.pos
        hand = self._hand(seat)
        led = self.led
        win_card = self.win_card
        win_seat = self.win_seat
        trick_mask = self.trick_mask
        broken = self.broken
        leader = self.leader
        alive = self.alive
        nil_seat = self.nil_seat
        defending = (seat & 1) == (nil_seat & 1)
        nxt = (seat + 1) & 3
        rel = 0
        legal = self._legal(seat)
        reps = self._reps(legal)
        # As in ``_moves``: leads from a scored list, following cards from two
        # masks, each taken lowest card first or (a sign bit) highest first.
        leads = _NO_LEADS
        index = 0
        first = second = 0
        if pos == 0:
            leads = self._nil_lead_order(seat, reps)
        else:
            first, second = self._nil_follow_order(seat, reps)
        while True:
            if pos == 0:
                if index == len(leads):
                    break
                card = leads[index]
                index += 1
            else:
                if not first & _CARDS:
                    if not second & _CARDS:
                        break
                    first = second
                    second = 0
                if first & _HIGH_FIRST:
                    card = (first & _CARDS).bit_length() - 1
                else:
                    card = (first & -first).bit_length() - 1
                first ^= 1 << card
            bit = 1 << card
            self._set_hand(seat, hand ^ bit)
            self.nodes += 1
            if self.nodes > self.limit:
                self._set_hand(seat, hand)
                raise SearchLimitError(f"gave up after trying {self.limit} cards")
            if card >= 39:
                self.broken = True
            if pos == 0:
                self.led = card // 13
                self.win_card = card
                self.win_seat = seat
                self.trick_mask = bit
                self.pos = 1
                self.turn = nxt
                result = self._nil_moves()
                self.led = led
                self.win_card = win_card
                self.win_seat = win_seat
                self.trick_mask = trick_mask
                self.pos = 0
                self.turn = seat
            elif pos < 3:
                if beats(card, win_card):
                    self.win_card = card
                    self.win_seat = seat
                self.trick_mask = trick_mask | bit
                self.pos = pos + 1
                self.turn = nxt
                result = self._nil_moves()
                self.win_card = win_card
                self.win_seat = win_seat
                self.trick_mask = trick_mask
                self.pos = pos
                self.turn = seat
            else:
                best = win_card
                winner = win_seat
                if beats(card, win_card):
                    best = card
                    winner = seat
                played = trick_mask | bit
                if winner == nil_seat:
                    result = False
                    self.rel = 0
                else:
                    self.alive = alive & ~played
                    self.pos = 0
                    self.led = -1
                    self.leader = winner
                    self.turn = winner
                    self.left -= 1
                    self.trick_mask = 0
                    result = self._nil_search()
                    self.alive = alive
                    self.pos = 3
                    self.led = led
                    self.leader = leader
                    self.turn = seat
                    self.left += 1
                    self.trick_mask = trick_mask
                if played & (_SUIT << (13 * (best // 13))) != 1 << best:
                    self.rel |= 1 << best  # the trick was won by rank
            self._set_hand(seat, hand)
            self.broken = broken
            if result == defending:
                return result
            rel |= self.rel
        self.rel = _with_skipped(rel, legal, reps)
        return not defending

    def _nil_follow_order(self, seat: int, reps: int) -> tuple[int, int]:
        """Nil move order when following, as two masks to try one after the
        other (``_HIGH_FIRST`` set: highest card first): the Nil seat ducks
        with its highest safe card, its partner covers high, the opponents
        play low under it."""
        nil_seat = self.nil_seat
        win_card = self.win_card
        led_mask = _SUIT << (13 * self.led)
        if reps & led_mask:
            beat = reps & _above(win_card) if win_card // 13 == self.led else 0
        elif win_card >= 39:
            beat = reps & _above(win_card)
        else:
            beat = reps & _SPADES
        lose = reps & ~beat
        nil_played = ((seat - self.leader) & 3) > ((nil_seat - self.leader) & 3)
        if seat == nil_seat:
            return lose | _HIGH_FIRST, beat
        if seat == nil_seat ^ 2:
            if nil_played and self.win_seat == nil_seat:
                return beat, lose
            if nil_played:
                return lose, beat
            return reps | _HIGH_FIRST, 0
        return lose, beat

    def _nil_lead_order(self, seat: int, reps: int) -> list[int]:
        """Nil leads by a score: the Nil seat leads low, its partner high, an
        opponent low into the Nil seat's suits, under its lowest card, where
        partner cannot cover."""
        nil_seat = self.nil_seat
        nil_hand = self._hand(nil_seat)
        partner = self._hand(nil_seat ^ 2)
        scored: list[int] = []
        mask = reps
        while mask:
            bit = mask & -mask
            mask ^= bit
            card = bit.bit_length() - 1
            suit_mask = _SUIT << (13 * (card // 13))
            rank = card % 13
            nil_suit = nil_hand & suit_mask
            if seat == nil_seat:
                score = -card
            elif seat == nil_seat ^ 2:
                score = card
            elif nil_suit:
                nil_low = nil_suit & -nil_suit
                score = (30 if bit < nil_low else 15) - rank + (nil_low.bit_length() - 1) % 13
                if (partner & suit_mask).bit_length() > nil_suit.bit_length():
                    score -= 10  # partner can cover
            else:
                score = -rank
            scored.append(((score + 40) << 6) | card)
        scored.sort(reverse=True)
        return [key & 63 for key in scored]
