"""The bot side of ``spades-bot/1``: a built-in ``Bot`` served over a pair of streams.

The host tells a seat only what it may know, one event at a time; ``SeatMirror``
rebuilds from those messages the seat's ``PlayerView``. ``spades bot LEVEL`` runs
``serve`` on stdin and stdout.

Requests (``hello``, ``bid``, ``play``, and ``blind_nil`` and ``pass``, which
this side says in ``ready`` that it answers) are read strictly: one that cannot be read
raises ``ProtocolError``, since an answer to a request misread would be a guess.
Everything else is a notification, read tolerantly: one that cannot be used (a
type this version does not know, a field missing, null, of the wrong type or
contradicting what the seat knows) is logged in one line and skipped, and the
bot plays on. A request repeats what its answer depends on, so the answer is
always legal: the mirror takes from the request what it had lost, and when the
mirror still does not hang together, or the bot fails on a record that had to be
mended, the server answers from the request alone (a fixed bid, the lowest
legal card) and logs it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import fields
from typing import Any, Final, TextIO, TypeGuard, TypeVar

from spades.bots import Bot
from spades.bots.base import default_pass
from spades.core import (
    BLIND_NIL,
    NIL,
    BidMade,
    Card,
    CardPlayed,
    CardsPassed,
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
    parse_card,
    parse_seat,
    score_hand,
)
from spades.core.cards import RANK_OF, SPADES, SUIT_OF, cards_in
from spades.core.seats import SEAT_LETTERS, TEAM_NAMES

from .messages import (
    OPTIONAL_REQUESTS,
    Message,
    ProtocolError,
    bid_from_json,
    bid_to_json,
    card_names,
    decode,
    encode,
    quote_json,
)
from .mirror import TRICKS_PER_HAND, SeatMirror

REQUESTS: Final = frozenset({"hello", "bid", "play", *OPTIONAL_REQUESTS})
"""The messages the bot must answer, read strictly; every other one is a notification."""
FALLBACK_BID: Final = 3
"""The bid when the bot cannot be asked (its cards never arrived): about a
quarter of the tricks."""

T = TypeVar("T")
Log = Callable[[str], None]


def log_to_stderr(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


class BotServer:
    """Answers the host's messages for one bot: ``handle`` takes a message and
    returns the reply, or ``None`` when none is due.

    Bots that follow events (``Bot.observe``) get them as the referee gives
    them: in order, each with the view after the turn that caused it. A turn
    ends when the next one begins (a bid or a card), when the bot is asked to
    act, and when the game or the session ends, so events are held until then.

    ``log`` gets one line for every message skipped or mended and every answer
    that is not the bot's own (standard error by default).
    """

    def __init__(self, bot: Bot, *, use_host_seed: bool = True, log: Log | None = None) -> None:
        self.bot = bot
        self.use_host_seed = use_host_seed
        self.log = log or log_to_stderr
        self.mirror = SeatMirror()
        self.done = False
        """Set by ``quit``: the host has nothing more to say."""
        self._pending: list[Event] = []
        self._unknown_types: set[str] = set()
        self._in_doubt = False
        """Whether the seat's record was mended since the last deal (see ``_consult``)."""
        self._requests: dict[str, Callable[[Mapping[str, Any]], Message]] = {
            "hello": self._hello,
            "bid": self._bid,
            "play": self._play,
            "blind_nil": self._blind_nil,
            "pass": self._pass,
        }
        self._notifications: dict[str, Callable[[Mapping[str, Any]], None]] = {
            "new_hand": self._new_hand,
            "bid_made": self._bid_made,
            "card_played": self._card_played,
            "cards_passed": self._cards_passed,
            "cards": self._cards,
            "trick_won": self._trick_won,
            "hand_over": self._hand_over,
            "game_over": self._game_over,
            "quit": self._quit,
        }

    def handle(self, message: Mapping[str, Any]) -> Message | None:
        kind = message.get("type")
        if isinstance(kind, str) and kind in REQUESTS:
            return self._requests[kind](message)
        self._notice(kind, message)
        return None

    def finish(self) -> None:
        """Deliver the events still held: the session is over."""
        self._flush()

    def _notice(self, kind: object, message: Mapping[str, Any]) -> None:
        """Take in a notification, or log why it was skipped."""
        handler = self._notifications.get(kind) if isinstance(kind, str) else None
        if handler is None:
            if not isinstance(kind, str):
                self._note(f"skipped a message with no type: {quote_json(dict(message))}")
            elif kind not in self._unknown_types:
                # Likely a later version's message: nothing the seat knows is lost.
                self._unknown_types.add(kind)
                self.log(
                    f"skipped a message of a type this version does not know, "
                    f"{quote_json(kind)} (later ones are skipped silently)"
                )
            return
        try:
            handler(message)
        except KeyError as error:
            self._note(f"skipped the host's {kind} message: it has no {error}")
        except (TypeError, ValueError, ArithmeticError) as error:
            self._note(f"skipped the host's {kind} message: {error}")
        except Exception as error:  # a notification never stops the bot: say what went wrong
            self._note(
                f"skipped the host's {kind} message after an unexpected "
                f"{type(error).__name__}: {error}"
            )

    def _note(self, text: str) -> None:
        """Log one line: a message skipped or mended, an answer not the bot's.
        The seat's record is in doubt from then until the next deal."""
        self._in_doubt = True
        self.log(" ".join(text.splitlines()))

    def _read(self, kind: str, reader: Callable[[], T]) -> T:
        """What ``reader`` reads of a request; a ``ProtocolError`` if it cannot."""
        try:
            return reader()
        except KeyError as error:
            raise ProtocolError(f"the host's {kind} message has no {error}") from None
        except (TypeError, ValueError) as error:
            raise ProtocolError(f"cannot read the host's {kind} message: {error}") from None

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

    def _closed_by_the_rules(self, trick: Trick | None) -> None:
        """Report a trick the mirror closed because the host's word of it was lost."""
        if trick is not None:
            self._note(
                f"closed a trick the host never reported won: "
                f"{SEAT_LETTERS[trick.winner]} won it by the rules"
            )
            self._tell(TrickWon(trick.winner, trick))

    # --------------------------------------------------------------- requests

    def _hello(self, message: Mapping[str, Any]) -> Message:
        seat = self._read("hello", lambda: read_seat(message["seat"]))
        rules = self._read("hello", lambda: read_rules(message.get("rules", {})))
        self.mirror = SeatMirror(seat, rules)
        self._pending = []
        self._in_doubt = False
        self.bot.start_game(seat, rules)
        seed = message.get("seed")
        if self.use_host_seed and isinstance(seed, int | str) and not isinstance(seed, bool):
            self.bot.rng.seed(seed)  # the host's seed makes a served game reproducible
        # Every built-in bot decides blind Nil unseen and makes its own Nil passes.
        return {"type": "ready", "name": self.bot.name, "accepts": list(OPTIONAL_REQUESTS)}

    def _bid(self, message: Mapping[str, Any]) -> Message:
        mirror = self.mirror
        bids = self._read("bid", lambda: read_bid_request(message, mirror.seat))
        self._flush()
        if mirror.resume_bidding(bids):
            self._note("out of step with the host at a bid request: took the bids so far from it")
        problem = mirror.problem()
        if problem is not None:
            reason = f"the bot was not asked, as {problem}"
        else:
            bid, failure = self._consult(self.bot.bid)
            if is_bid(bid):
                return {"bid": bid_to_json(bid)}
            reason = failure or f"the bot bid {bid!r}"
        self._note(f"bid {FALLBACK_BID}: {reason}")
        return {"bid": FALLBACK_BID}

    def _blind_nil(self, message: Mapping[str, Any]) -> Message:
        mirror = self.mirror
        bids = self._read("blind_nil", lambda: read_bid_request(message, mirror.seat))
        self._flush()
        if mirror.resume_bidding(bids):
            self._note(
                "out of step with the host at a blind_nil request: took the bids so far from it"
            )
        view = mirror.view().without_cards()
        if not view.legal_bids():
            reason = "by this seat's record blind Nil is not open to it"
        else:
            blind, failure = self._consult(lambda seen: self.bot.blind_nil(seen.without_cards()))
            if isinstance(blind, bool):
                return {"blind_nil": blind}
            reason = failure or f"the bot answered {blind!r}"
        self._note(f"declined blind Nil: {reason}")
        return {"blind_nil": False}

    def _pass(self, message: Mapping[str, Any]) -> Message:
        mirror = self.mirror
        to, count, hand = self._read("pass", lambda: read_pass_request(message, mirror.seat))
        self._flush()
        asked = (mirror.seat, to, count)
        problem = mirror.problem()
        if problem is None and mirror.passing != asked:
            problem = "the host asks for another pass than the bids call for"
        if problem is None and mirror.hand != hand:
            problem = "the host's cards held differ from this seat's record"
        if problem is not None:
            reason = f"the bot was not asked, as {problem}"
        else:
            cards, failure = self._consult(self.bot.pass_cards)
            if is_pass(cards, count, hand):
                return {"cards": card_names(sorted(cards))}
            reason = failure or f"the bot chose {cards!r}, not {count} cards it holds"
        fallback = default_pass(mirror.view().replace(hand=hand, passing=asked))
        self._note(f"passed {' '.join(card_names(sorted(fallback)))} by default: {reason}")
        return {"cards": card_names(sorted(fallback))}

    def _play(self, message: Mapping[str, Any]) -> Message:
        mirror = self.mirror
        leader, trick, legal, hand = self._read(
            "play", lambda: read_play_request(message, mirror.seat)
        )
        self._closed_by_the_rules(mirror.close_full_trick())
        self._flush()
        mirror.take_passed_cards(hand)
        if not mirror.tricks and mirror.rules.first_lead == "two_of_clubs":
            mirror.leader = leader  # whoever holds the two of clubs: the seat cannot know who
        if mirror.resume_play(leader, trick, hand):
            self._note(
                "out of step with the host at a play request: "
                "took the trick in progress and the cards held from it"
            )
        view = mirror.view()
        problem = mirror.problem()
        if problem is None and view.phase is not Phase.PLAYING:
            problem = f"only {len(mirror.bids)} of the 4 bids were reported"
        if problem is None and view.legal_mask() != legal:
            problem = "the host offers other legal cards than this seat's record allows"
        if problem is not None:
            reason = f"the bot was not asked, as {problem}"
        else:
            card, failure = self._consult(self.bot.play)
            if type(card) is int and 0 <= card < 52 and legal >> card & 1:
                return {"card": card_name(card)}
            reason = failure or f"the bot chose {card!r}, not a legal card"
        fallback = lowest_card(legal)
        self._note(f"played {card_name(fallback)}, the lowest legal card: {reason}")
        return {"card": card_name(fallback)}

    def _consult(self, decide: Callable[[PlayerView], T]) -> tuple[T | None, str | None]:
        """The bot's decision on the seat's view, or why it gave none.

        On a record that was mended since the deal, a view that hangs together
        can still be false (a host that reported a card wrongly), and a bot may
        find it impossible; it then fails the request, not the whole program.
        On a clean record the bot's errors are its own, and propagate.
        """
        try:
            return decide(self.mirror.view()), None
        except Exception as error:
            if not self._in_doubt:
                raise
            return None, f"the bot failed on the mended record ({type(error).__name__}: {error})"

    # ---------------------------------------------------------- notifications

    def _new_hand(self, message: Mapping[str, Any]) -> None:
        number = message["hand"]
        if type(number) is not int or number < 1:
            raise ValueError(f"the hand number is {quote_json(number)}")
        dealer = read_seat(message["dealer"])
        # A deal kept back for a blind-Nil offer comes in a ``cards`` message later.
        withheld = message.get("cards_withheld") is True and "cards" not in message
        cards = 0 if withheld else mask_of(read_cards(message["cards"]))
        if not withheld and cards.bit_count() != TRICKS_PER_HAND:
            raise ValueError(f"the deal is {cards.bit_count()} different cards, not 13")
        mirror = self.mirror
        mirror.totals, mirror.bags = self._standing("new_hand", message)
        mirror.start_hand(number, dealer, cards, withheld=withheld)
        self._in_doubt = False
        self._tell(HandDealt(number, dealer))

    def _bid_made(self, message: Mapping[str, Any]) -> None:
        seat, bid = read_seat(message["seat"]), read_host_bid(message["bid"])
        self._flush()  # a new turn begins
        self.mirror.bid_made(seat, bid)
        self._tell(BidMade(seat, bid))

    def _cards_passed(self, message: Mapping[str, Any]) -> None:
        seat, to = read_seat(message["seat"]), read_seat(message["to"])
        count = message["count"]
        if type(count) is not int or not 1 <= count <= 3:
            raise ValueError(f"the count is {quote_json(count)}")
        given = mask_of(read_cards(message["cards"])) if seat == self.mirror.seat else 0
        self._flush()  # a new turn begins
        self.mirror.cards_passed(seat, to, count, given)
        self._tell(CardsPassed(seat, to, count))

    def _cards(self, message: Mapping[str, Any]) -> None:
        # Part of the turn that changed the hand: no new turn begins, nothing is flushed.
        self.mirror.cards_arrived(mask_of(read_cards(message["cards"])))

    def _card_played(self, message: Mapping[str, Any]) -> None:
        seat, card = read_seat(message["seat"]), read_card(message["card"])
        self._flush()  # a new turn begins
        was_broken = self.mirror.spades_broken
        self._closed_by_the_rules(self.mirror.card_played(seat, card))
        self._tell(CardPlayed(seat, card, self.mirror.spades_broken and not was_broken))

    def _trick_won(self, message: Mapping[str, Any]) -> None:
        winner, leader = read_seat(message["seat"]), read_seat(message["leader"])
        cards = read_cards(message["cards"])
        mirror = self.mirror
        mended = (leader, cards) != (mirror.leader, mirror.trick)
        trick = mirror.trick_reported(winner, leader, cards)
        if mended:
            self._note("out of step with the host at a trick_won: took the trick from it")
        self._tell(TrickWon(trick.winner, trick))

    def _hand_over(self, message: Mapping[str, Any]) -> None:
        mirror = self.mirror
        self._closed_by_the_rules(mirror.close_full_trick())
        standing = self._standing("hand_over", message)
        scores = None
        if len(mirror.bids) == 4 and sum(mirror.tricks_won) == TRICKS_PER_HAND:
            bids = [NIL] * 4
            for seat, bid in mirror.bids:
                bids[seat] = bid
            scores = score_hand(bids, mirror.tricks_won, mirror.bags, mirror.rules)
        mirror.totals, mirror.bags = standing
        if scores is not None:  # else the hand was not followed: the bot is told no score
            won = mirror.tricks_won
            self._tell(
                HandScored(
                    mirror.hand_number, (won[0], won[1], won[2], won[3]), scores, mirror.totals
                )
            )

    def _game_over(self, message: Mapping[str, Any]) -> None:
        mirror = self.mirror
        mirror.totals, mirror.bags = self._standing("game_over", message)
        winner = message.get("winner")
        if isinstance(winner, str) and winner in TEAM_NAMES:
            outcome = Outcome(TEAM_NAMES.index(winner), read_termination(message.get("reason")))
            self._tell(GameOver(outcome, mirror.totals))
        else:
            self._note(f"the game ended without a winner (game_over says {quote_json(winner)})")
        self._flush()

    def _quit(self, message: Mapping[str, Any]) -> None:
        self._flush()
        self.done = True

    def _standing(
        self, kind: str, message: Mapping[str, Any]
    ) -> tuple[tuple[int, int], tuple[int, int]]:
        """The totals and bags of a message's ``score``; the ones known so far
        (and a line in the log) when it has none that can be read."""
        mirror = self.mirror
        if "score" not in message:
            self._note(f"the host's {kind} message has no 'score': kept the one known so far")
            return mirror.totals, mirror.bags
        try:
            return read_standing(message["score"])
        except ValueError as error:
            self._note(f"ignored the score of the host's {kind} message: {error}")
            return mirror.totals, mirror.bags


# ------------------------------------------------------ reading host messages


def read_seat(value: object) -> Seat:
    if not isinstance(value, str):
        raise ValueError(f"{quote_json(value)} is not a seat")
    return parse_seat(value)


def read_card(value: object) -> Card:
    if not isinstance(value, str):
        raise ValueError(f"{quote_json(value)} is not a card")
    return parse_card(value)


def read_cards(value: object) -> list[Card]:
    if not isinstance(value, list):
        raise ValueError(f"{quote_json(value)} is not a list of cards")
    return [read_card(item) for item in value]


def is_bid(bid: object) -> TypeGuard[int]:
    return type(bid) is int and (bid in (NIL, BLIND_NIL) or 1 <= bid <= TRICKS_PER_HAND)


def read_host_bid(value: object) -> int:
    """A bid of the host's: ``NIL``, ``BLIND_NIL`` or 1..13 (``bid_from_json``, the wire's reading, lets others through)."""
    bid = bid_from_json(value)
    if not is_bid(bid):
        raise ValueError(f"{quote_json(value)} is not a bid")
    return bid


def read_termination(value: object) -> Termination:
    """Why the game ended; a reason of a later version reads as the usual one."""
    known = {termination.value: termination for termination in Termination}
    return known.get(value, Termination.TARGET) if isinstance(value, str) else Termination.TARGET


def read_rules(value: object) -> Rules:
    """The rules of a ``hello``; rules this version does not know are ignored."""
    if not isinstance(value, Mapping):
        raise ValueError(f"the rules are not an object: {quote_json(value)}")
    known = {field.name for field in fields(Rules)}
    return Rules.from_dict({key: item for key, item in value.items() if key in known})


def read_standing(value: object) -> tuple[tuple[int, int], tuple[int, int]]:
    """The totals and bags of a ``score`` object: ``{"NS": {"total": .., "bags": ..}, "EW": ..}``."""
    if not isinstance(value, Mapping):
        raise ValueError(f"it is {quote_json(value)}, not an object")
    totals, bags = [0, 0], [0, 0]
    for team, name in enumerate(TEAM_NAMES):
        entry = value.get(name)
        if not isinstance(entry, Mapping):
            raise ValueError(f"its {name} is {quote_json(entry)}, not an object")
        total, team_bags = entry.get("total"), entry.get("bags")
        if type(total) is not int or type(team_bags) is not int:
            raise ValueError(f"its {name} total or bags is not a whole number")
        totals[team], bags[team] = total, team_bags
    return (totals[0], totals[1]), (bags[0], bags[1])


def read_bid_request(message: Mapping[str, Any], seat: Seat) -> list[tuple[Seat, int]]:
    """The bids so far of a ``bid`` request, which must lead up to ``seat``'s turn."""
    value = message["bids"]
    if not isinstance(value, list):
        raise ValueError(f"the bids are {quote_json(value)}, not a list")
    bids: list[tuple[Seat, int]] = []
    for entry in value:
        if not isinstance(entry, list) or len(entry) != 2:
            raise ValueError(f"{quote_json(entry)} is not a [seat, bid] pair")
        bids.append((read_seat(entry[0]), read_host_bid(entry[1])))
    first = (seat - len(bids)) & 3
    if len(bids) > 3 or any(bidder != (first + i) & 3 for i, (bidder, _) in enumerate(bids)):
        raise ValueError(f"the bids so far do not lead up to {SEAT_LETTERS[seat]}'s turn")
    return bids


def read_pass_request(message: Mapping[str, Any], seat: Seat) -> tuple[Seat, int, int]:
    """The receiver, the count and the cards held (a mask) of a ``pass`` request."""
    to, count = read_seat(message["to"]), message["count"]
    hand = mask_of(read_cards(message["hand"]))
    if to != (seat + 2) & 3:
        raise ValueError(f"a Nil pass goes to the partner, not to {SEAT_LETTERS[to]}")
    if type(count) is not int or not 1 <= count <= min(3, hand.bit_count()):
        raise ValueError(f"the count is {quote_json(count)}")
    return to, count, hand


def is_pass(cards: object, count: int, hand: int) -> TypeGuard[list[Card]]:
    """Whether ``cards`` is a pass of ``count`` different cards of ``hand``."""
    if not isinstance(cards, list) or len(cards) != count:
        return False
    if not all(type(card) is int and 0 <= card < 52 for card in cards):
        return False
    mask = mask_of(cards)
    return mask.bit_count() == count and not mask & ~hand


def read_play_request(message: Mapping[str, Any], seat: Seat) -> tuple[Seat, list[Card], int, int]:
    """The trick in progress (leader and cards), the legal cards and the cards
    held (both masks) of a ``play`` request, which must be ``seat``'s turn."""
    trick = message["trick"]
    if not isinstance(trick, Mapping):
        raise ValueError(f"the trick is {quote_json(trick)}, not an object")
    leader, cards = read_seat(trick["leader"]), read_cards(trick["cards"])
    legal, hand = mask_of(read_cards(message["legal"])), mask_of(read_cards(message["hand"]))
    if len(cards) > 3 or (leader + len(cards)) & 3 != seat:
        raise ValueError(f"the trick in progress does not come to {SEAT_LETTERS[seat]}'s turn")
    if mask_of(cards).bit_count() != len(cards) or mask_of(cards) & hand:
        raise ValueError("a card is played twice, or both played and held")
    if not legal or legal & ~hand:
        raise ValueError("the legal cards are not some of the cards held")
    return leader, cards, legal, hand


def lowest_card(cards: int) -> Card:
    """The card played when the bot cannot be asked: the lowest, a spade last.

    >>> from spades.core import parse_cards
    >>> card_name(lowest_card(mask_of(parse_cards("2S KH 9C"))))
    '9C'
    """
    return min(cards_in(cards), key=lambda card: (SUIT_OF[card] == SPADES, RANK_OF[card]))


# ------------------------------------------------------------------ the loop


def serve(
    bot: Bot,
    stdin: TextIO,
    stdout: TextIO,
    *,
    use_host_seed: bool = True,
    log: Log | None = None,
) -> None:
    """Play ``bot`` for the host at the other end of ``stdin``/``stdout`` until it
    says ``quit`` or closes ``stdin``.

    The host's ``seed`` (in ``hello``) reseeds the bot unless ``use_host_seed``
    is false. A line that is not a JSON object, or a request that cannot be read,
    raises ``ProtocolError``: a bot that guessed would play a different game. A
    notification that cannot be used is skipped with a line to ``log``
    (standard error by default).
    """
    server = BotServer(bot, use_host_seed=use_host_seed, log=log)
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
