"""The bot side of ``spades-bot/1``: a built-in ``Bot`` served over a pair of streams.

The host tells a seat only what it may know, one event at a time. ``SeatMirror``
rebuilds from those messages the very ``PlayerView`` the engine would hand the
seat (the tests hold it to that at every decision), so a bot plays the same
through a pipe as in process. ``spades bot LEVEL`` runs ``serve`` on stdin and
stdout.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields
from typing import Any, Final, TextIO

from spades.bots import Bot
from spades.core import (
    CARDCOUCH,
    NIL,
    BidMade,
    Card,
    CardPlayed,
    Event,
    GameOver,
    HandDealt,
    HandScored,
    Outcome,
    Phase,
    PlayerView,
    Rules,
    Seat,
    Termination,
    Trick,
    TrickWon,
    card_name,
    mask_of,
    next_seat,
    parse_card,
    parse_seat,
    score_hand,
)
from spades.core.cards import SPADE_MASK
from spades.core.seats import TEAM_NAMES

from .messages import Message, ProtocolError, bid_from_json, decode, encode

TRICKS_PER_HAND: Final = 13


class SeatMirror:
    """What one seat knows of the game, kept up to date from the host's messages."""

    def __init__(self, seat: Seat = 0, rules: Rules = CARDCOUCH) -> None:
        self.seat = seat
        self.rules = rules
        self.totals = (0, 0)
        self.bags = (0, 0)
        self.start_hand(0, dealer=0, cards=0)

    def start_hand(self, number: int, dealer: Seat, cards: int) -> None:
        self.hand_number = number
        self.dealer = dealer
        self.hand = cards  # the cards the seat still holds, as a mask
        self.bids: list[tuple[Seat, int]] = []
        self.leader = next_seat(dealer)
        self.trick: list[Card] = []
        self.tricks: list[Trick] = []
        self.tricks_won = [0, 0, 0, 0]

    def bid_made(self, seat: Seat, bid: int) -> None:
        self.bids.append((seat, bid))

    def card_played(self, seat: Seat, card: Card) -> None:
        if seat == self.seat:
            self.hand &= ~(1 << card)
        self.trick.append(card)

    def trick_won(self, winner: Seat) -> Trick:
        trick = Trick(self.leader, tuple(self.trick), winner)
        self.tricks.append(trick)
        self.tricks_won[winner] += 1
        self.trick = []
        self.leader = winner
        return trick

    @property
    def phase(self) -> Phase:
        if len(self.bids) < 4:
            return Phase.BIDDING
        return Phase.PLAYING if len(self.tricks) < TRICKS_PER_HAND else Phase.OVER

    @property
    def turn(self) -> Seat | None:
        phase = self.phase
        if phase is Phase.BIDDING:
            return (self.dealer + 1 + len(self.bids)) & 3
        if phase is Phase.PLAYING:
            return (self.leader + len(self.trick)) & 3
        return None

    def view(self) -> PlayerView:
        """The seat's view now, as ``Game.view`` would give it."""
        played = mask_of(self.trick)
        for trick in self.tricks:
            played |= mask_of(trick.cards)
        won = self.tricks_won
        return PlayerView(
            seat=self.seat,
            hand=self.hand,
            dealer=self.dealer,
            phase=self.phase,
            turn=self.turn,
            bids=tuple(self.bids),
            leader=self.leader,
            trick=tuple(self.trick),
            tricks=tuple(self.tricks),
            tricks_won=(won[0], won[1], won[2], won[3]),
            spades_broken=bool(played & SPADE_MASK),
            totals=self.totals,
            bags=self.bags,
            hand_number=self.hand_number,
            rules=self.rules,
        )


class BotServer:
    """Answers the host's messages for one bot: ``handle`` takes a message and
    returns the reply, or ``None`` when none is due.

    Bots that follow events (``Bot.observe``) get them as the referee gives
    them: in order, each with the view after the turn that caused it. A turn
    ends when the next one begins (a bid or a card), when the bot is asked to
    act, and when the game or the session ends, so events are held until then.
    """

    def __init__(self, bot: Bot, *, use_host_seed: bool = True) -> None:
        self.bot = bot
        self.use_host_seed = use_host_seed
        self.mirror = SeatMirror()
        self.done = False
        """Set by ``quit``: the host has nothing more to say."""
        self._pending: list[Event] = []
        self._handlers: dict[str, Callable[[Mapping[str, Any]], Message | None]] = {
            "hello": self._hello,
            "new_hand": self._new_hand,
            "bid_made": self._bid_made,
            "card_played": self._card_played,
            "trick_won": self._trick_won,
            "hand_over": self._hand_over,
            "game_over": self._game_over,
            "bid": self._bid,
            "play": self._play,
            "quit": self._quit,
        }

    def handle(self, message: Mapping[str, Any]) -> Message | None:
        kind = message.get("type")
        handler = self._handlers.get(kind) if isinstance(kind, str) else None
        if handler is None:
            return None  # a message of a later version: ignore it
        try:
            return handler(message)
        except ProtocolError:
            raise
        except KeyError as error:
            raise ProtocolError(f"the host's {kind} message has no {error}") from None
        except (TypeError, ValueError) as error:
            raise ProtocolError(f"cannot read the host's {kind} message: {error}") from None

    def finish(self) -> None:
        """Deliver the events still held: the session is over."""
        self._flush()

    # ----------------------------------------------------------------- events

    def _tell(self, event: Event) -> None:
        if self.bot.wants_events:
            self._pending.append(event)

    def _flush(self) -> None:
        if not self._pending:
            return
        view = self.mirror.view()
        events, self._pending = self._pending, []
        for event in events:
            self.bot.observe(event, view)

    # --------------------------------------------------------------- handlers

    def _hello(self, message: Mapping[str, Any]) -> Message:
        seat = read_seat(message["seat"])
        rules = read_rules(message.get("rules", {}))
        self.mirror = SeatMirror(seat, rules)
        self._pending = []
        self.bot.start_game(seat, rules)
        seed = message.get("seed")
        if self.use_host_seed and isinstance(seed, int | str) and not isinstance(seed, bool):
            self.bot.rng.seed(seed)  # the host's seed makes a served game reproducible
        return {"type": "ready", "name": self.bot.name}

    def _new_hand(self, message: Mapping[str, Any]) -> None:
        mirror = self.mirror
        mirror.totals, mirror.bags = read_standing(message.get("score"), mirror.totals, mirror.bags)
        dealer = read_seat(message["dealer"])
        number = message["hand"]
        if type(number) is not int:
            raise ValueError(f"the hand number is {number!r}")
        mirror.start_hand(number, dealer, mask_of(read_cards(message["cards"])))
        self._tell(HandDealt(mirror.hand_number, dealer))

    def _bid_made(self, message: Mapping[str, Any]) -> None:
        self._flush()  # a new turn begins
        seat, bid = read_seat(message["seat"]), bid_from_json(message["bid"])
        self.mirror.bid_made(seat, bid)
        self._tell(BidMade(seat, bid))

    def _card_played(self, message: Mapping[str, Any]) -> None:
        self._flush()  # a new turn begins
        seat, card = read_seat(message["seat"]), read_card(message["card"])
        self.mirror.card_played(seat, card)
        self._tell(CardPlayed(seat, card))

    def _trick_won(self, message: Mapping[str, Any]) -> None:
        trick = self.mirror.trick_won(read_seat(message["seat"]))
        self._tell(TrickWon(trick.winner, trick))

    def _hand_over(self, message: Mapping[str, Any]) -> None:
        mirror = self.mirror
        bids = [NIL] * 4
        for seat, bid in mirror.bids:
            bids[seat] = bid
        scores = score_hand(bids, mirror.tricks_won, mirror.bags, mirror.rules)
        mirror.totals, mirror.bags = read_standing(message["score"], mirror.totals, mirror.bags)
        won = mirror.tricks_won
        self._tell(
            HandScored(mirror.hand_number, (won[0], won[1], won[2], won[3]), scores, mirror.totals)
        )

    def _game_over(self, message: Mapping[str, Any]) -> None:
        mirror = self.mirror
        mirror.totals, mirror.bags = read_standing(message.get("score"), mirror.totals, mirror.bags)
        winner = TEAM_NAMES.index(message["winner"])
        self._tell(
            GameOver(Outcome(winner, read_termination(message.get("reason"))), mirror.totals)
        )
        self._flush()

    def _bid(self, message: Mapping[str, Any]) -> Message:
        self._flush()
        view = self._view_to_act(Phase.BIDDING, "bid")
        return {"bid": "nil" if (bid := self.bot.bid(view)) == NIL else bid}

    def _play(self, message: Mapping[str, Any]) -> Message:
        self._flush()
        view = self._view_to_act(Phase.PLAYING, "play")
        legal = message.get("legal")
        if legal is not None and mask_of(read_cards(legal)) != view.legal_mask():
            raise ProtocolError(
                "out of step with the host: it offers other legal cards than this seat's rules allow"
            )
        return {"card": card_name(self.bot.play(view))}

    def _quit(self, message: Mapping[str, Any]) -> None:
        self._flush()
        self.done = True

    def _view_to_act(self, phase: Phase, request: str) -> PlayerView:
        """The view for a decision, after checking the mirror agrees it is this seat's turn."""
        view = self.mirror.view()
        if view.phase is not phase or view.turn != view.seat:
            raise ProtocolError(
                f"out of step with the host: asked to {request}, but by the messages so far "
                f"it is not this seat's turn to {request}"
            )
        return view


# ------------------------------------------------------ reading host messages


def read_seat(value: object) -> Seat:
    if not isinstance(value, str):
        raise ValueError(f"{value!r} is not a seat")
    return parse_seat(value)


def read_card(value: object) -> Card:
    if not isinstance(value, str):
        raise ValueError(f"{value!r} is not a card")
    return parse_card(value)


def read_cards(value: object) -> list[Card]:
    if not isinstance(value, list):
        raise ValueError(f"{value!r} is not a list of cards")
    return [read_card(item) for item in value]


def read_termination(value: object) -> Termination:
    """Why the game ended; a reason of a later version reads as the usual one."""
    known = {termination.value: termination for termination in Termination}
    return known.get(value, Termination.TARGET) if isinstance(value, str) else Termination.TARGET


def read_rules(value: object) -> Rules:
    """The rules of a ``hello``; rules this version does not know are ignored."""
    if not isinstance(value, Mapping):
        raise ValueError(f"the rules are not an object: {value!r}")
    known = {field.name for field in fields(Rules)}
    return Rules.from_dict({key: item for key, item in value.items() if key in known})


def read_standing(
    value: object, totals: tuple[int, int], bags: tuple[int, int]
) -> tuple[tuple[int, int], tuple[int, int]]:
    """The totals and bags of a ``score`` object; the ones known so far where it is silent."""
    if not isinstance(value, Mapping):
        return totals, bags
    new_totals, new_bags = list(totals), list(bags)
    for team, name in enumerate(TEAM_NAMES):
        entry = value.get(name)
        if isinstance(entry, Mapping):
            new_totals[team] = int(entry.get("total", totals[team]))
            new_bags[team] = int(entry.get("bags", bags[team]))
    return (new_totals[0], new_totals[1]), (new_bags[0], new_bags[1])


# ------------------------------------------------------------------ the loop


def serve(bot: Bot, stdin: TextIO, stdout: TextIO, *, use_host_seed: bool = True) -> None:
    """Play ``bot`` for the host at the other end of ``stdin``/``stdout`` until it
    says ``quit`` or closes ``stdin``.

    The host's ``seed`` (in ``hello``) reseeds the bot unless ``use_host_seed``
    is false. A line that is not a JSON object, or a message that cannot be read,
    raises ``ProtocolError``: a bot that guessed would play a different game.
    """
    server = BotServer(bot, use_host_seed=use_host_seed)
    while not server.done:
        line = stdin.readline()
        if not line:
            break  # end of input: the host is gone
        if not line.strip():
            continue
        try:
            message = decode(line)
        except ProtocolError as error:
            raise ProtocolError(f"the host {error}") from None
        reply = server.handle(message)
        if reply is not None:
            stdout.write(encode(reply))
            stdout.flush()
    server.finish()
