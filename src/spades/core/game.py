"""A whole game: hands dealt in turn until a team wins.

``Game`` deals from a seeded RNG (the seed reproduces every deal and the first
dealer), rotates the deal clockwise, scores each hand when its last trick is
taken, keeps the running totals and bags, and decides the end of the game. Its
checked actions return the public events they caused, which drive the bot
protocol, the web page's animations and the records.

>>> from spades.core.seats import next_seat
>>> game = Game(seed=2026)
>>> game.to_act == next_seat(game.hand.dealer)
True
>>> events = game.bid(game.to_act, 3)
>>> [event.to_dict() for event in events] == [{"type": "bid_made", "seat": events[0].to_dict()["seat"], "bid": 3}]
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from .bids import bid_to_json
from .cards import CARD_NAMES, Card
from .claims import Claim, claim_terms
from .errors import (
    GameOverError,
    IllegalBidError,
    IllegalCardError,
    NotYourTurnError,
    Rule,
    UndoError,
)
from .hand import HandState, Phase, Trick, deal
from .rules import CARDCOUCH, Rules
from .scoring import Outcome, TeamHandScore, Termination, game_outcome, score_hand
from .seats import SEAT_LETTERS, SEAT_NAMES, TEAM_NAMES, Seat, team_of
from .seeding import Seeding
from .view import PlayerView

SEED_BITS: Final = 63


# --------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class HandDealt:
    """A new hand was dealt (the cards themselves are private)."""

    number: int
    dealer: Seat

    def to_dict(self) -> dict[str, object]:
        return {"type": "hand_dealt", "hand": self.number, "dealer": SEAT_LETTERS[self.dealer]}


@dataclass(frozen=True, slots=True)
class BidMade:
    seat: Seat
    bid: int

    def to_dict(self) -> dict[str, object]:
        return {
            "type": "bid_made",
            "seat": SEAT_LETTERS[self.seat],
            "bid": bid_to_json(self.bid),
        }


@dataclass(frozen=True, slots=True)
class CardsPassed:
    """A Nil bidder or partner passed cards: how many is public, which is not."""

    seat: Seat
    to: Seat
    count: int

    def to_dict(self) -> dict[str, object]:
        return {
            "type": "cards_passed",
            "seat": SEAT_LETTERS[self.seat],
            "to": SEAT_LETTERS[self.to],
            "count": self.count,
        }


@dataclass(frozen=True, slots=True)
class CardPlayed:
    seat: Seat
    card: Card
    broke_spades: bool = False
    """Whether this card broke spades (never under ``spades_break=off``, where
    they are open from the start). The engine's word for whoever narrates. Not
    written on the wire: a program's side of the bot protocol has it from the
    mirror, which follows the cards played."""

    def to_dict(self) -> dict[str, object]:
        return {
            "type": "card_played",
            "seat": SEAT_LETTERS[self.seat],
            "card": CARD_NAMES[self.card],
        }


@dataclass(frozen=True, slots=True)
class TrickWon:
    seat: Seat
    trick: Trick

    def to_dict(self) -> dict[str, object]:
        return {
            "type": "trick_won",
            "seat": SEAT_LETTERS[self.seat],
            "leader": SEAT_LETTERS[self.trick.leader],
            "cards": [CARD_NAMES[card] for card in self.trick.cards],
        }


@dataclass(frozen=True, slots=True)
class HandScored:
    number: int
    tricks_won: tuple[int, int, int, int]
    scores: tuple[TeamHandScore, TeamHandScore]
    totals: tuple[int, int]

    def to_dict(self) -> dict[str, object]:
        return {
            "type": "hand_over",
            "hand": self.number,
            "tricks_won": dict(zip(SEAT_LETTERS, self.tricks_won, strict=True)),
            "score": {
                TEAM_NAMES[team]: {
                    "delta": self.scores[team].delta,
                    "total": self.totals[team],
                    "bags": self.scores[team].bags,
                }
                for team in (0, 1)
            },
        }


@dataclass(frozen=True, slots=True)
class GameOver:
    outcome: Outcome
    totals: tuple[int, int]

    def to_dict(self) -> dict[str, object]:
        return {
            "type": "game_over",
            "winner": TEAM_NAMES[self.outcome.winner],
            "reason": self.outcome.termination.value,
            "score": dict(zip(TEAM_NAMES, self.totals, strict=True)),
        }


Event = HandDealt | BidMade | CardsPassed | CardPlayed | TrickWon | HandScored | GameOver


# ------------------------------------------------------------ undos and claims


@dataclass(frozen=True, slots=True)
class BidAction:
    """A bid of a hand: ``seat`` bid ``bid`` (``NIL`` 0, ``BLIND_NIL`` -1, or 1..13)."""

    seat: Seat
    bid: int


@dataclass(frozen=True, slots=True)
class CardAction:
    """A card of a hand: ``seat`` played ``card``."""

    seat: Seat
    card: Card


Action = BidAction | CardAction
"""A bid or a card of a hand, each saying which it is (python-chess's ``Move``)."""


@dataclass(frozen=True, slots=True)
class Undo:
    """A seat took back its last bid or card of the hand in progress, and every
    action made after it."""

    hand: int
    """The number of the hand (1-based)."""
    seat: Seat
    bids: int
    """Bids still standing in the hand after the undo."""
    cards: int
    """Cards still standing in the hand after the undo."""
    taken_back: tuple[Action, ...]
    """The actions taken back, in the order they had been made."""


def hand_actions(state: HandState) -> list[Action]:
    """Every bid, then every card, of ``state`` so far."""
    bids = state.scored_bids()
    actions: list[Action] = [BidAction(seat, bids[seat]) for seat in state.bid_order]
    for trick in state.tricks:
        actions.extend(
            CardAction((trick.leader + i) & 3, card) for i, card in enumerate(trick.cards)
        )
    actions.extend(CardAction((state.leader + i) & 3, card) for i, card in enumerate(state.trick))
    return actions


# ----------------------------------------------------------------------- game


def _check_seat(seat: Seat) -> None:
    if type(seat) is not int or not 0 <= seat <= 3:
        raise NotYourTurnError(f"{seat!r} is not a seat")


@dataclass(frozen=True, slots=True)
class ScoredHand:
    """A finished hand of the game with its score."""

    number: int
    state: HandState
    scores: tuple[TeamHandScore, TeamHandScore]
    totals: tuple[int, int]
    """Both teams' totals after this hand."""


class Game:
    """A game of Spades to the target score, with every rule checked."""

    def __init__(
        self,
        rules: Rules = CARDCOUCH,
        *,
        seed: int | None = None,
        rng: random.Random | None = None,
        preset_deals: Sequence[tuple[Seat, Sequence[int]]] = (),
        players: Mapping[Seat, str] | None = None,
        seeding: Seeding | None = None,
    ) -> None:
        """Start a game and deal its first hand.

        The RNG is ``rng`` if given, else ``random.Random(seed)``; without either
        a fresh seed is drawn (and kept in ``seed``) so every game can be
        reproduced. It draws the first dealer, then one shuffle per hand.
        ``preset_deals`` replaces the first hands' ``(dealer, hands)`` (used to
        re-play records and duplicate deals); the RNG still draws for them so
        the hands after stay the ones the seed gives (``seeded_deals(seed)``
        lists them). ``seeding`` says how the seed was chosen: committed to in
        secret, or by the player (practice); the record keeps it.
        """
        if rng is None:
            if seed is None:
                seed = random.SystemRandom().getrandbits(SEED_BITS)
            rng = random.Random(seed)
        self.rules = rules
        self.seed = seed
        self.seeding = seeding
        self.players: dict[Seat, str] = dict(players or {})
        self._rng = rng
        self._preset = list(preset_deals)
        self.first_dealer: Seat = rng.randrange(4)
        if self._preset:
            self.first_dealer = self._preset[0][0]
        self.history: list[ScoredHand] = []
        self.totals: tuple[int, int] = (0, 0)
        self.bags: tuple[int, int] = (0, 0)
        self.outcome: Outcome | None = None
        self.forfeited_by: tuple[Seat, str] | None = None
        """The seat that forfeited the game and why, if one did."""
        self.undos: list[Undo] = []
        """Every undo of the game, in order (the actions it took back are not in
        the hands' bids and tricks, nor in ``log``)."""
        self.claims: list[Claim] = []
        """Every claim of the game, held or not, in order."""
        self.log: list[Event] = []
        self.hand = self._deal(1)

    def _deal(self, number: int) -> HandState:
        dealer = (self.first_dealer + number - 1) & 3
        hands: Sequence[int] = deal(self._rng)
        if number <= len(self._preset):
            preset_dealer, hands = self._preset[number - 1]
            if preset_dealer != dealer:
                raise ValueError(
                    f"hand {number} must be dealt by {SEAT_LETTERS[dealer]} "
                    f"(the deal rotates clockwise), not {SEAT_LETTERS[preset_dealer]}"
                )
        state = HandState.from_deal(dealer, hands, self.rules)
        state.open_blind_nil(self.totals)
        self.log.append(HandDealt(number, dealer))
        return state

    # ------------------------------------------------------------------ queries

    @property
    def hand_number(self) -> int:
        """1-based number of the current hand."""
        return len(self.history) + (0 if self.is_over else 1)

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    @property
    def to_act(self) -> Seat | None:
        return None if self.is_over else self.hand.to_act

    @property
    def phase(self) -> Phase:
        return self.hand.phase

    def deals(self) -> list[tuple[Seat, tuple[int, int, int, int]]]:
        """Every hand dealt so far: its dealer and the four hands as they were dealt."""
        states = [scored.state for scored in self.history]
        if not self.hand.is_over:
            states.append(self.hand)
        return [(state.dealer, state.deal) for state in states]

    def legal_bids(self) -> list[int]:
        return [] if self.is_over else self.hand.legal_bids()

    def legal_cards(self) -> list[Card]:
        return [] if self.is_over else self.hand.legal_cards()

    def view(self, seat: Seat) -> PlayerView:
        """What ``seat`` may know now: the only thing to hand a player."""
        return PlayerView.of(
            self.hand,
            seat,
            totals=self.totals,
            bags=self.bags,
            hand_number=len(self.history) + (0 if self.hand.is_over else 1),
            rules=self.rules,
        )

    def clone(self) -> Game:
        """An independent copy: acting on either leaves the other as it was.

        Much cheaper than re-playing the record (the server keeps a copy of each
        game it stored this way). What the two share is never changed once made:
        events, undos, claims and the finished hands of ``history``.
        """
        other = object.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.players = dict(self.players)
        # Random() would first seed itself from the OS (40 us, more than the rest
        # of the copy); the state is overwritten at once, so skip that.
        other._rng = random.Random.__new__(random.Random)
        other._rng.setstate(self._rng.getstate())
        other._preset = self._preset[:]
        other.history = self.history[:]
        other.undos = self.undos[:]
        other.claims = self.claims[:]
        other.log = self.log[:]
        other.hand = self.hand.clone()
        return other

    # ------------------------------------------------------------------ actions

    def _check_not_over(self) -> None:
        if self.outcome is not None:
            raise GameOverError(f"The game is over: {TEAM_NAMES[self.outcome.winner]} won")

    def verify_bid(self, seat: Seat, bid: int) -> None:
        self._check_not_over()
        _check_seat(seat)
        if type(bid) is not int:  # bools and strings too: the compiled engine takes ints only
            raise IllegalBidError(f"A bid is Nil or a number from 1 to 13, not {bid!r}")
        self.hand.verify_bid(seat, bid)

    def verify_play(self, seat: Seat, card: Card) -> None:
        self._check_not_over()
        _check_seat(seat)
        if type(card) is not int:
            raise IllegalCardError(f"{card!r} is not a card", rule=Rule.CARD)
        self.hand.verify_play(seat, card)

    def verify_pass(self, seat: Seat, cards: Sequence[Card]) -> None:
        self._check_not_over()
        _check_seat(seat)
        self.hand.verify_pass(seat, cards)

    def pass_cards(self, seat: Seat, cards: Sequence[Card]) -> list[Event]:
        """``seat`` passes ``cards`` to its partner (the rules' Nil pass); returns
        the events caused. Raises and changes nothing if illegal."""
        self.verify_pass(seat, cards)
        giver, receiver, count = self.hand.pass_order[len(self.hand.passes)]
        self.hand.pass_cards(seat, cards)
        return self._record([CardsPassed(giver, receiver, count)])

    def bid(self, seat: Seat, bid: int) -> list[Event]:
        """``seat`` bids; returns the events caused. Raises and changes nothing if illegal."""
        self.verify_bid(seat, bid)
        self.hand.apply_bid(bid)
        return self._record([BidMade(seat, bid)])

    def play(self, seat: Seat, card: Card) -> list[Event]:
        """``seat`` plays ``card``; returns the events caused (a trick won, a hand
        scored, the next hand dealt, the game over). Raises and changes nothing if
        illegal."""
        self.verify_play(seat, card)
        hand = self.hand
        was_broken = hand.spades_broken
        hand.apply_play(card)
        events: list[Event] = [CardPlayed(seat, card, hand.spades_broken and not was_broken)]
        if not hand.trick:
            trick = hand.tricks[-1]
            events.append(TrickWon(trick.winner, trick))
        if hand.is_over:
            return self._end_hand(events)
        return self._record(events)

    def _end_hand(self, events: list[Event]) -> list[Event]:
        """Score the finished hand, then end the game or deal the next hand."""
        events.extend(self._finish_hand())
        self.log.extend(events)
        if self.outcome is None:
            self.hand = self._deal(len(self.history) + 1)
            events.append(self.log[-1])
        return events

    def _record(self, events: list[Event]) -> list[Event]:
        self.log.extend(events)
        return events

    def _finish_hand(self) -> list[Event]:
        hand = self.hand
        scores = score_hand(hand.scored_bids(), hand.tricks_won, self.bags, self.rules)
        self.totals = (self.totals[0] + scores[0].delta, self.totals[1] + scores[1].delta)
        self.bags = (scores[0].bags, scores[1].bags)
        number = len(self.history) + 1
        self.history.append(ScoredHand(number, hand, scores, self.totals))
        won = hand.tricks_won
        events: list[Event] = [
            HandScored(number, (won[0], won[1], won[2], won[3]), scores, self.totals)
        ]
        self.outcome = game_outcome(self.totals, self.rules)
        if self.outcome is not None:
            events.append(GameOver(self.outcome, self.totals))
        return events

    # ------------------------------------------------------- undos and claims

    def verify_undo(self, seat: Seat) -> None:
        """Raise an ``IllegalActionError`` saying why ``seat`` has nothing to take back."""
        self._check_not_over()
        _check_seat(seat)
        # Asked for every view a page is sent, so read from the hand's state
        # rather than its list of actions: every seat bids before any card, so
        # a seat has acted once it has bid, and its last action is a bid until
        # it has played a card (in a finished trick, or in the one on the table).
        hand = self.hand
        if seat not in hand.bid_order:
            raise UndoError(
                f"{SEAT_NAMES[seat]} has not bid or played in this hand yet: "
                "there is nothing to take back (a hand once scored stands)"
            )
        has_played = bool(hand.tricks) or (seat - hand.leader) % 4 < len(hand.trick)
        if hand.pass_order and not has_played:
            raise UndoError(
                "The bids stand once cards are to be passed for a Nil: there is nothing "
                "to take back before the play"
            )

    def can_undo(self, seat: Seat) -> bool:
        try:
            self.verify_undo(seat)
        except (UndoError, GameOverError, NotYourTurnError):
            return False
        return True

    def undo(self, seat: Seat) -> Undo:
        """Take back ``seat``'s last bid or card of the hand in progress and every
        action made after it, as if they had never been made; returns what was
        taken back (also kept in ``undos``). Raises and changes nothing if the
        seat has not acted in this hand."""
        self.verify_undo(seat)
        actions = hand_actions(self.hand)
        start = max(i for i, action in enumerate(actions) if action.seat == seat)
        for _ in range(len(actions) - start):
            self.hand.undo()
            while not isinstance(self.log.pop(), BidMade | CardPlayed):
                pass  # the trick it completed goes with the card
        bids = len(self.hand.bid_order)
        undo = Undo(self.hand_number, seat, bids, start - bids, tuple(actions[start:]))
        self.undos.append(undo)
        return undo

    def verify_claim(self, seat: Seat, tricks: int) -> None:
        """Raise an ``IllegalActionError`` saying why ``seat`` may not claim
        ``tricks`` of the tricks left (see ``spades.core.claims``)."""
        self._check_not_over()
        _check_seat(seat)
        claim_terms(self.hand, seat, tricks)

    def claim(self, seat: Seat, tricks: int) -> list[Event]:
        """End the hand: ``seat``'s side takes ``tricks`` of the tricks left and
        concedes the rest, credited as ``spades.core.claims`` says; returns the
        events (the hand scored, then the next deal or the end).

        Whether the claim holds is for the caller to establish first (a
        double-dummy question: ``spades.solver.claims.check_claim``)."""
        self._check_not_over()
        _check_seat(seat)
        terms = claim_terms(self.hand, seat, tricks)
        played = 4 * len(self.hand.tricks) + len(self.hand.trick)
        self.claims.append(Claim(self.hand_number, seat, tricks, played, held=True))
        self.hand.end_by_claim(terms.awarded)
        return self._end_hand([])

    def refuse_claim(self, seat: Seat, tricks: int, defence: Sequence[Trick] = ()) -> Claim:
        """Keep a claim that did not hold, with the ``defence`` that beats it; the
        game goes on unchanged."""
        self.verify_claim(seat, tricks)
        played = 4 * len(self.hand.tricks) + len(self.hand.trick)
        claim = Claim(self.hand_number, seat, tricks, played, held=False, defence=tuple(defence))
        self.claims.append(claim)
        return claim

    def forfeit(self, seat: Seat, reason: str) -> list[Event]:
        """End the game now: ``seat`` failed to act (a program that crashed, timed
        out or insisted on an illegal move), so its partnership loses."""
        self._check_not_over()
        self.outcome = Outcome(1 - team_of(seat), Termination.FORFEIT)
        self.forfeited_by = (seat, reason)
        return self._record([GameOver(self.outcome, self.totals)])
