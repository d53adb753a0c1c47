"""Game records (``spades-record/1``): export a game, import one back.

Importing re-plays every bid and card through the checked engine, so a record
that breaks a rule, misstates a winner or a score, or is malformed is refused
with a ``RecordError`` naming the hand, bid or trick at fault and the rule. The
format is documented in ``docs/record-format.md``.

>>> game = Game(seed=1)
>>> record = game_to_record(game)
>>> record["format"], record["winner"], len(record["hands"])
('spades-record/1', None, 1)
>>> game_to_record(game_from_record(record)) == record
True
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, Final, NamedTuple

from .bids import NIL, BidReadError, BidSyntax, bid_to_json, read_bid
from .cards import CARD_NAMES, Card, cards_in, parse_card, sorted_for_display
from .claims import Claim
from .errors import NotYourTurnError, RecordError, Rule, SpadesError
from .game import Action, BidAction, CardAction, Game, Undo, hand_actions
from .hand import HandState, Phase, Trick, trick_winner
from .naming import IN_WORDS
from .rules import Rules
from .seats import SEAT_LETTERS, SEAT_NAMES, SEATS, TEAM_NAMES, Seat, parse_seat
from .seeding import Seeding, verify_commitment

FORMAT: Final = "spades-record/1"
READER: Final = IN_WORDS
"""How a refusal names seats and cards: for a person reading the record, every
seat by name ("East must follow suit: East holds a heart"), cards in words."""


# ---------------------------------------------------------------------- export


def game_to_record(game: Game) -> dict[str, Any]:
    """The record of ``game`` so far, as a JSON-ready dict."""
    hands = [_hand_to_dict(scored.state, scored) for scored in game.history]
    if not game.hand.is_over:  # the hand in progress (or just dealt)
        hands.append(_hand_to_dict(game.hand, None))
    for number, hand in enumerate(hands, start=1):
        _add_amends(hand, game, number)
    record = {
        "format": FORMAT,
        "rules": game.rules.to_dict(),
        "seed": game.seed,
        **({} if game.seeding is None else {"seeding": game.seeding.to_dict()}),
        "players": {SEAT_LETTERS[seat]: game.players.get(seat, "unknown") for seat in SEATS},
        "hands": hands,
        "final": dict(zip(TEAM_NAMES, game.totals, strict=True)),
        "winner": None if game.outcome is None else TEAM_NAMES[game.outcome.winner],
    }
    if game.forfeited_by is not None:
        seat, reason = game.forfeited_by
        record["forfeit"] = {"seat": SEAT_LETTERS[seat], "reason": reason}
    return record


def _hand_to_dict(state: HandState, scored: Any) -> dict[str, Any]:
    tricks: list[dict[str, Any]] = [
        {
            "leader": SEAT_LETTERS[trick.leader],
            "cards": [CARD_NAMES[card] for card in trick.cards],
            "winner": SEAT_LETTERS[trick.winner],
        }
        for trick in state.tricks
    ]
    if state.trick:
        tricks.append(
            {
                "leader": SEAT_LETTERS[state.leader],
                "cards": [CARD_NAMES[card] for card in state.trick],
                "winner": None,
            }
        )
    hand: dict[str, Any] = {
        "dealer": SEAT_LETTERS[state.dealer],
        "deal": {
            SEAT_LETTERS[seat]: [
                CARD_NAMES[c] for c in sorted_for_display(cards_in(state.deal[seat]))
            ]
            for seat in SEATS
        },
        "bids": [[SEAT_LETTERS[seat], _bid_to_json(state.bids[seat])] for seat in state.bid_order],
        # Written only where cards were passed, so a record without passes reads as before.
        **(
            {
                "passes": [
                    [SEAT_LETTERS[seat], [CARD_NAMES[c] for c in cards_in(mask)]]
                    for seat, mask in state.passes
                ]
            }
            if state.passes
            else {}
        ),
        "tricks": tricks,
        "tricks_won": dict(zip(SEAT_LETTERS, state.tricks_won, strict=True)),
        "score": None,
    }
    if scored is not None:
        hand["score"] = {
            TEAM_NAMES[team]: {
                "delta": scored.scores[team].delta,
                "total": scored.totals[team],
                "bags": scored.scores[team].bags,
            }
            for team in (0, 1)
        }
    return hand


def _add_amends(hand: dict[str, Any], game: Game, number: int) -> None:
    """The hand's claims and undos, written only where there are some, so that a
    record without any reads as it always did."""
    claims = [claim for claim in game.claims if claim.hand == number]
    if claims:
        hand["claims"] = [_claim_to_dict(claim) for claim in claims]
    undos = [undo for undo in game.undos if undo.hand == number]
    if undos:
        hand["undos"] = [
            {
                "seat": SEAT_LETTERS[undo.seat],
                "bids": undo.bids,
                "cards": undo.cards,
                "taken_back": [_action_to_json(action) for action in undo.taken_back],
            }
            for undo in undos
        ]


def _claim_to_dict(claim: Claim) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "seat": SEAT_LETTERS[claim.seat],
        "tricks": claim.tricks,
        "cards": claim.cards,
        "held": claim.held,
    }
    if claim.defence:
        entry["defence"] = [
            {
                "leader": SEAT_LETTERS[trick.leader],
                "cards": [CARD_NAMES[card] for card in trick.cards],
                "winner": SEAT_LETTERS[trick.winner],
            }
            for trick in claim.defence
        ]
    return entry


def _action_to_json(action: Action) -> list[int | str]:
    """An action as records write it: ``[seat, bid]`` or ``[seat, card]``."""
    if isinstance(action, BidAction):
        return [SEAT_LETTERS[action.seat], _bid_to_json(action.bid)]
    return [SEAT_LETTERS[action.seat], CARD_NAMES[action.card]]


def _bid_to_json(bid: int | None) -> int | str:
    written = bid_to_json(NIL if bid is None else bid)
    assert written is not None
    return written


def record_to_json(record: Mapping[str, Any]) -> str:
    """One record on one line (the JSON-lines form)."""
    return json.dumps(record, separators=(",", ":"))


# ---------------------------------------------------------------------- import


def game_from_record(record: Any) -> Game:
    """Re-play ``record`` through the checked engine and return the game.

    Raises ``RecordError`` (its ``where`` naming the hand, bid or trick) when the
    record is malformed or any action, winner or score in it is wrong.
    """
    if not isinstance(record, Mapping):
        raise RecordError("a record is a JSON object")
    if record.get("format") != FORMAT:
        raise RecordError(
            f"format must be {FORMAT!r}, got {record.get('format')!r}", where="format"
        )
    with _located("rules"):
        rules_data = _expect(record.get("rules", {}), Mapping, "rules")
        try:
            rules = Rules.from_dict(rules_data)
        except ValueError as error:
            raise RecordError(str(error), where="rules") from None
    seed = record.get("seed")
    if seed is not None and type(seed) is not int:
        raise RecordError(
            f"seed must be an integer or null, got {seed!r}", where="seed", path=("seed",)
        )
    with _located("seeding"):
        seeding = _parse_seeding(record.get("seeding"), seed)
    with _located("players"):
        players = {
            read_seat_at(key, "players"): str(name)
            for key, name in _expect(record.get("players", {}), Mapping, "players").items()
        }
    with _located("hands"):
        hands = _expect(record.get("hands"), list, "hands")
        if not hands:
            raise RecordError("a record has at least one hand", where="hands")

    deals = []
    for number, hand in enumerate(hands, start=1):
        with _located("hands", number - 1):
            deals.append(_parse_deal(hand, number))
    for number, (dealer, _) in enumerate(deals[1:], start=2):
        expected = (deals[0][0] + number - 1) & 3
        if dealer != expected:
            raise RecordError(
                f"the dealer is {SEAT_NAMES[dealer]} but the deal rotates clockwise: "
                f"it is {SEAT_NAMES[expected]}'s deal",
                where=f"hand {number}",
                rule=Rule.DEALER,
                path=("hands", number - 1, "dealer"),
            )
    if seeding is not None and not seeding.is_practice:
        # The deals must be the ones the committed seed gives, or the commitment proves nothing.
        assert seed is not None and seeding.salt is not None and seeding.commitment is not None
        verify_commitment(deals, seed=seed, salt=seeding.salt, digest=seeding.commitment)
    # A record without a seed stays without one; hands after it deal at random.
    rng = None if seed is not None else random.Random()
    game = Game(rules, seed=seed, rng=rng, preset_deals=deals, players=players, seeding=seeding)

    for number, hand in enumerate(hands, start=1):
        where = f"hand {number}"
        if game.is_over:
            raise RecordError("the game was already over", where=where, rule=Rule.GAME_OVER)
        is_last = number == len(hands)
        with _located("hands", number - 1):
            _replay_hand(game, hand, number, is_last)

    forfeit = record.get("forfeit")
    if forfeit is not None:
        with _located("forfeit"):
            forfeit = _expect(forfeit, Mapping, "forfeit")
            seat = read_seat_at(forfeit.get("seat"), "forfeit, seat")
            if game.is_over:
                raise RecordError("the game was already over", where="forfeit", rule=Rule.GAME_OVER)
            game.forfeit(seat, str(forfeit.get("reason", "")))
    _check_final(game, record)
    return game


def _replay_hand(game: Game, hand: Mapping[str, Any], number: int, is_last: bool) -> None:
    where = f"hand {number}"
    state = game.hand
    for index, seat, value, at in _seat_pairs(hand, "bids", "bid", where):
        with _located("bids", index):
            with _located(1):
                bid = _read_bid_at(value, at)
            refusal = state.bid_refusal(seat, bid, READER)
            # Out of turn, the seat is at fault; otherwise the bid itself.
            _refuse(refusal, at, path=() if isinstance(refusal, NotYourTurnError) else (1,))
            _act(game.bid, seat, bid, at)
    for index, seat, value, at in _seat_pairs(hand, "passes", "pass", where):
        with _located("passes", index):
            with _located(1):
                cards_value = _expect(value, list, f"{at}, cards")
            cards = []
            for position, name in enumerate(cards_value):
                with _located(1, position):
                    cards.append(_read_card_at(name, at))
            _refuse(state.pass_problem(seat, cards, READER), at)
            _act(game.pass_cards, seat, cards, at)
    if state.phase is Phase.PASSING and (hand.get("tricks") or not is_last):
        raise RecordError(
            "the Nil passes are missing: cards are passed before the play",
            where=f"{where}, passes",
            rule=Rule.NIL_PASS,
        )

    with _located("tricks"):
        tricks = _expect(hand.get("tricks", []), list, f"{where}, tricks")
    for count, trick in enumerate(tricks, start=1):
        with _located("tricks", count - 1):
            _replay_trick(game, state, trick, f"{where}, trick {count}", count)

    with _located("claims"):
        _replay_claims(game, state, hand, number)
    with _located("undos"):
        game.undos.extend(_parse_undos(state, number, hand))
    if not state.is_over:
        if not is_last:
            raise RecordError(
                f"the hand is unfinished ({len(state.tricks)} of 13 tricks) but another follows",
                where=where,
            )
        return
    _check_hand_result(game, hand, where)


def _replay_trick(game: Game, state: HandState, trick: Any, at: str, count: int) -> None:
    """Re-play trick ``count`` of the hand, as the record gives it (``at`` names it)."""
    trick = _expect(trick, Mapping, at)
    with _located("leader"):
        leader = read_seat_at(trick.get("leader"), f"{at}, leader")
    if state.phase is Phase.BIDDING:
        raise RecordError("tricks are played before every seat has bid", where=at, rule=Rule.TURN)
    if state.is_over:
        raise RecordError("a hand has 13 tricks", where=at, rule=Rule.TRICKS)
    if state.trick:
        raise RecordError("the trick before is unfinished", where=at, rule=Rule.TRICKS)
    if leader != state.leader:
        raise RecordError(
            f"{SEAT_NAMES[leader]} is named as leader but {SEAT_NAMES[state.leader]} leads "
            + ("(left of the dealer)" if count == 1 else "(winner of the last trick)"),
            where=at,
            rule=Rule.TURN,
            path=("leader",),
        )
    with _located("cards"):
        cards = _expect(trick.get("cards"), list, f"{at}, cards")
        if not 1 <= len(cards) <= 4:
            raise RecordError(f"a trick has 1 to 4 cards, got {len(cards)}", where=at)
    for position, name in enumerate(cards):
        seat = (leader + position) & 3
        with _located("cards", position):
            card = _read_card_at(name, at)
            played = f"{at}, {READER.possessive(seat)} {READER.card(card)}"
            _refuse(state.play_problem(seat, card, READER), played)
            _act(game.play, seat, card, played)
    winner = trick.get("winner")
    with _located("winner"):
        if len(cards) == 4:
            actual = state.tricks[count - 1].winner
            if winner is None or read_seat_at(winner, f"{at}, winner") != actual:
                won_with = state.tricks[count - 1].cards[(actual - leader) & 3]
                raise RecordError(
                    f"the winner is given as {winner!r} but {SEAT_NAMES[actual]} wins it "
                    f"with the {READER.card(won_with)}",
                    where=at,
                    rule=Rule.TRICK_WINNER,
                )
        elif winner is not None:
            raise RecordError("an unfinished trick has no winner yet (null)", where=at)


def _seat_pairs(
    hand: Mapping[str, Any], key: str, kind: str, where: str
) -> Iterator[tuple[int, Seat, Any, str]]:
    """The ``[seat, value]`` entries of a hand's ``key`` list (its bids or its
    passes), each with its index in the list and the place it stands for error
    messages."""
    with _located(key):
        entries = _expect(hand.get(key, []), list, f"{where}, {key}")
    for index, entry in enumerate(entries):
        at = f"{where}, {kind} {index + 1}"
        with _located(key, index):
            pair = _expect(entry, list, at)
            if len(pair) != 2:
                raise RecordError(f"a {kind} is [seat, {kind}]", where=at)
            with _located(0):
                seat = read_seat_at(pair[0], at)
        yield index, seat, pair[1], at


def _replay_claims(game: Game, state: HandState, hand: Mapping[str, Any], number: int) -> None:
    """Keep the hand's claims; re-apply the one that held, which ends the hand.

    Whether a claim really held is a double-dummy question the engine does not
    ask (``spades replay`` does, with the solver). A claim that did not hold
    changed nothing, so only its form is checked here."""
    where = f"hand {number}"
    claims = _expect(hand.get("claims", []), list, f"{where}, claims")
    for index, entry in enumerate(claims, start=1):
        with _located(index - 1):
            at = f"{where}, claim {index}"
            _replay_claim(game, state, entry, number, at, is_last=index == len(claims))


def _replay_claim(
    game: Game, state: HandState, entry: Any, number: int, at: str, *, is_last: bool
) -> None:
    """One claim of the hand (``at`` names it): kept, and re-applied if it held."""
    entry = _expect(entry, Mapping, at)
    seat = read_seat_at(entry.get("seat"), f"{at}, seat")
    tricks, cards = entry.get("tricks"), entry.get("cards")
    if type(tricks) is not int or not 1 <= tricks <= 13:
        raise RecordError(f"tricks must be a number from 1 to 13, got {tricks!r}", where=at)
    if type(cards) is not int or not 0 <= cards <= 51:
        raise RecordError(f"cards must be a number from 0 to 51, got {cards!r}", where=at)
    held = entry.get("held")
    if type(held) is not bool:
        raise RecordError(f"held must be true or false, got {held!r}", where=at)
    if not held:
        with _located("defence"):
            defence = _parse_defence(entry.get("defence", []), f"{at}, defence")
        game.claims.append(Claim(number, seat, tricks, cards, False, defence))
        return
    played = 4 * len(state.tricks) + len(state.trick)
    if not is_last or cards != played or state.phase is not Phase.PLAYING:
        raise RecordError(
            "a claim that held ends the hand: it is the hand's last claim, made during the "
            f"play after the hand's last card ({played} cards played)",
            where=at,
            rule=Rule.CLAIM,
        )
    try:
        game.claim(seat, tricks)
    except SpadesError as error:
        raise RecordError(error.message, where=at, rule=error.rule) from None


def _parse_defence(value: Any, where: str) -> tuple[Trick, ...]:
    """A refused claim's line of defence: whole tricks, each won by the seat named.
    It is an explanation, not play of the hand, so only its form and each trick's
    winner are checked (``spades replay`` checks it against the deal)."""
    tricks: list[Trick] = []
    for number, entry in enumerate(_expect(value, list, where), start=1):
        at = f"{where} trick {number}"
        entry = _expect(entry, Mapping, at)
        leader = read_seat_at(entry.get("leader"), f"{at}, leader")
        cards = tuple(_read_card_at(name, at) for name in _expect(entry.get("cards"), list, at))
        if len(cards) != 4 or len(set(cards)) != 4:
            raise RecordError("a trick of the defence has 4 different cards", where=at)
        winner = trick_winner(leader, cards)
        if read_seat_at(entry.get("winner"), f"{at}, winner") != winner:
            raise RecordError(
                f"{SEAT_NAMES[winner]} wins it, not {entry.get('winner')!r}",
                where=at,
                rule=Rule.TRICK_WINNER,
            )
        tricks.append(Trick(leader, cards, winner))
    return tuple(tricks)


def _parse_undos(state: HandState, number: int, hand: Mapping[str, Any]) -> list[Undo]:
    """The hand's undos, each checked against the hand as it stood then.

    Working back from the actions that stand: before the last undo the hand
    was its first ``bids + cards`` actions followed by what that undo took
    back; that line must be legal, begin with the undoing seat's action and
    hold no other of its actions. The line before it is the prefix the undo
    before it left, and so on."""
    where = f"hand {number}"
    entries = _expect(hand.get("undos", []), list, f"{where}, undos")
    undos: list[Undo] = []
    for index, entry in enumerate(entries, start=1):
        with _located(index - 1):
            at = f"{where}, undo {index}"
            entry = _expect(entry, Mapping, at)
            seat = read_seat_at(entry.get("seat"), f"{at}, seat")
            bids, cards = entry.get("bids"), entry.get("cards")
            if type(bids) is not int or not 0 <= bids <= 4:
                raise RecordError(f"bids must be a number from 0 to 4, got {bids!r}", where=at)
            if type(cards) is not int or not 0 <= cards <= 51 or (cards and bids < 4):
                raise RecordError(
                    f"cards must be a number from 0 to 51, and 0 before the fourth bid, got {cards!r}",
                    where=at,
                )
            taken: list[Action] = []
            for offset, pair in enumerate(
                _expect(entry.get("taken_back"), list, f"{at}, taken_back")
            ):
                pair = _expect(pair, list, f"{at}, taken_back")
                if len(pair) != 2:
                    raise RecordError("an action is [seat, bid] or [seat, card]", where=at)
                actor = read_seat_at(pair[0], f"{at}, taken_back")
                # The record writes no kind: an action's place in the hand says it
                # (every seat bids once, before any card).
                if bids + offset < len(SEATS):
                    taken.append(BidAction(actor, _read_bid_at(pair[1], at)))
                else:
                    taken.append(CardAction(actor, _read_card_at(pair[1], at)))
            if (
                not taken
                or taken[0].seat != seat
                or any(action.seat == seat for action in taken[1:])
            ):
                raise RecordError(
                    f"an undo takes back {SEAT_NAMES[seat]}'s last action and those after it: "
                    f"the first action taken back must be {SEAT_NAMES[seat]}'s, and none after it",
                    where=at,
                    rule=Rule.UNDO,
                )
            undos.append(Undo(number, seat, bids, cards, tuple(taken)))

    line = hand_actions(state)
    for index in range(len(undos), 0, -1):
        undo = undos[index - 1]
        at = f"{where}, undo {index}"
        kept = undo.bids + undo.cards
        if kept > len(line):
            raise RecordError(
                f"it leaves {undo.bids} bids and {undo.cards} cards, but the hand had only "
                f"{len(line)} actions then",
                where=at,
                rule=Rule.UNDO,
                path=(index - 1,),
            )
        line = line[:kept] + list(undo.taken_back)
        with _located(index - 1):
            _check_line(state, line, at)
    return undos


def _check_line(state: HandState, line: list[Action], where: str) -> None:
    """Re-play ``line`` from ``state``'s deal through the checked entry points;
    the hand must still be in progress at its end (a scored hand stands)."""
    fresh = HandState(state.dealer, state.deal)
    for action in line:
        try:
            if isinstance(action, BidAction):
                fresh.bid(action.seat, action.bid)
            else:
                fresh.play(action.seat, action.card)
        except SpadesError as error:
            raise RecordError(error.message, where=where, rule=error.rule) from None
    if fresh.is_over:
        raise RecordError(
            "an undo never takes back a hand already scored", where=where, rule=Rule.UNDO
        )


def _check_hand_result(game: Game, hand: Mapping[str, Any], where: str) -> None:
    scored = game.history[-1]
    won = _expect(hand.get("tricks_won"), Mapping, f"{where}, tricks_won")
    for seat in SEATS:
        if not _same_int(won.get(SEAT_LETTERS[seat]), scored.state.tricks_won[seat]):
            raise RecordError(
                f"{SEAT_NAMES[seat]} took {scored.state.tricks_won[seat]} tricks, "
                f"not {won.get(SEAT_LETTERS[seat])!r}",
                where=f"{where}, tricks_won",
                rule=Rule.TRICKS_WON,
                path=("tricks_won", SEAT_LETTERS[seat]),
            )
    score = _expect(hand.get("score"), Mapping, f"{where}, score")
    for team in (0, 1):
        name = TEAM_NAMES[team]
        given = _expect(score.get(name), Mapping, f"{where}, score {name}")
        actual = {
            "delta": scored.scores[team].delta,
            "total": scored.totals[team],
            "bags": scored.scores[team].bags,
        }
        for key, value in actual.items():
            if not _same_int(given.get(key), value):
                raise RecordError(
                    f"{name} {key} is {value}, not {given.get(key)!r}",
                    where=f"{where}, score",
                    rule=Rule.SCORE,
                    path=("score", name, key),
                )


def _check_final(game: Game, record: Mapping[str, Any]) -> None:
    final = record.get("final")
    if final is not None:
        final = _expect(final, Mapping, "final")
        for team in (0, 1):
            name = TEAM_NAMES[team]
            if not _same_int(final.get(name), game.totals[team]):
                raise RecordError(
                    f"{name} has {game.totals[team]} points, not {final.get(name)!r}",
                    where="final",
                    rule=Rule.SCORE,
                    path=("final", name),
                )
    winner = record.get("winner")
    actual = None if game.outcome is None else TEAM_NAMES[game.outcome.winner]
    if winner != actual:
        if actual is None:
            message = f"the winner is given as {winner!r} but the game is not over"
        else:
            message = f"{actual} won the game, not {winner!r}"
        raise RecordError(message, where="winner", rule=Rule.WINNER, path=("winner",))


# ------------------------------------------------------------------ fair deals


def _parse_seeding(value: Any, seed: int | None) -> Seeding | None:
    """The record's ``seeding``, if it has one (a committed one needs the seed)."""
    if value is None:
        return None
    data = _expect(value, Mapping, "seeding")
    try:
        seeding = Seeding.from_dict(data)
    except ValueError as error:
        raise RecordError(str(error), where="seeding") from None
    if not seeding.is_practice and seed is None:
        raise RecordError(
            "a committed seed is checked against the seed: it is missing", where="seed"
        )
    return seeding


# ---------------------------------------------------------------- small parsers


@contextmanager
def _located(*steps: str | int) -> Iterator[None]:
    """A ``RecordError`` raised within is at ``steps`` (JSON keys and indexes)
    below the part of the record being read: each part adds its own steps as
    the error passes out, so the error ends with its whole ``path``."""
    try:
        yield
    except RecordError as error:
        error.path = steps + error.path
        raise


def _refuse(problem: SpadesError | None, where: str, *, path: tuple[str | int, ...] = ()) -> None:
    """Refuse the record for ``problem`` (the engine's, worded for the reader), if any."""
    if problem is not None:
        raise RecordError(problem.message, where=where, rule=problem.rule, path=path)


def _act(action: Callable[[Seat, Any], object], seat: Seat, value: Any, where: str) -> None:
    try:
        action(seat, value)
    except SpadesError as error:
        raise RecordError(error.message, where=where, rule=error.rule) from None
    except ValueError as error:  # a preset deal the engine refused
        raise RecordError(str(error), where=where, rule=Rule.DEALER) from None


def _same_int(given: Any, value: int) -> bool:
    """``given`` is the integer ``value`` (not 4.0, not true)."""
    return type(given) is int and given == value


def _expect(value: Any, kind: type, where: str) -> Any:
    if not isinstance(value, kind):
        wanted = "a list" if kind is list else "an object" if kind is Mapping else kind.__name__
        raise RecordError(f"expected {wanted}, got {json.dumps(value)}", where=where)
    return value


def read_seat_at(value: Any, where: str) -> Seat:
    try:
        if not isinstance(value, str):
            raise ValueError(f"{value!r} is not a seat: use N, E, S or W")
        return parse_seat(value)
    except ValueError as error:
        raise RecordError(str(error), where=where) from None


def _read_bid_at(value: Any, where: str) -> int:
    try:
        return read_bid(value, BidSyntax.TEXT, in_range=True)
    except BidReadError:
        raise RecordError(
            f'a bid is "nil", "blind_nil" or a number from 1 to 13, not {json.dumps(value)}',
            where=where,
            rule=Rule.BID,
        ) from None


def _read_card_at(value: Any, where: str) -> Card:
    try:
        if not isinstance(value, str):
            raise ValueError(f"{value!r} is not a card")
        return parse_card(value)
    except ValueError as error:
        raise RecordError(str(error), where=where, rule=Rule.CARD) from None


def _parse_deal(hand: Any, number: int) -> tuple[Seat, tuple[int, int, int, int]]:
    where = f"hand {number}"
    hand = _expect(hand, Mapping, where)
    with _located("dealer"):
        dealer = read_seat_at(hand.get("dealer"), f"{where}, dealer")
    with _located("deal"):
        deal = _expect(hand.get("deal"), Mapping, f"{where}, deal")
    masks = [0, 0, 0, 0]
    dealt = 0  # every card dealt so far, to name a card dealt to two seats where it is
    for seat in SEATS:
        letter = SEAT_LETTERS[seat]
        at = f"{where}, deal {letter}"
        with _located("deal", letter):
            cards = _expect(deal.get(letter), list, at)
        for position, name in enumerate(cards):
            with _located("deal", letter, position):
                card = _read_card_at(name, at)
                bit = 1 << card
                if masks[seat] & bit:
                    raise RecordError(
                        f"{SEAT_NAMES[seat]} is dealt the {READER.card(card)} twice",
                        where=f"{where}, deal",
                        rule=Rule.DEAL,
                    )
                if dealt & bit:
                    raise RecordError(
                        f"the {READER.card(card)} is dealt twice",
                        where=f"{where}, deal",
                        rule=Rule.DEAL,
                    )
                masks[seat] |= bit
                dealt |= bit
        if len(cards) != 13:
            raise RecordError(
                f"{SEAT_NAMES[seat]} must be dealt 13 different cards, got {len(cards)}",
                where=f"{where}, deal",
                rule=Rule.DEAL,
                path=("deal", letter),
            )
    try:
        HandState.from_deal(dealer, masks)
    except ValueError as error:
        raise RecordError(
            str(error), where=f"{where}, deal", rule=Rule.DEAL, path=("deal",)
        ) from None
    return dealer, (masks[0], masks[1], masks[2], masks[3])


# ------------------------------------------------------------------ reading files


MAX_NESTING: Final = 64
"""Brackets nested deeper than this are named as the fault when JSON nested
too deep for Python's decoder (which recurses once a bracket) is refused; a
record nests six deep."""


class RecordSpan(NamedTuple):
    """A record read from a text, with where it starts there."""

    line: int
    """The line it starts on (from 1)."""
    start: int
    """The offset of its first character."""
    record: Any


def read_records(text: str) -> Iterator[tuple[int, Any]]:
    """The records in ``text`` with the line each starts on.

    ``text`` is one JSON record (pretty-printed or not), a JSON list of
    records, or JSON lines (one record a line; blank lines are skipped). Text
    that is not JSON, or nests brackets too deep to decode, raises
    ``RecordError`` naming the line at fault.

    >>> list(read_records("[" * 20000 + "]" * 20000))
    Traceback (most recent call last):
    ...
    spades.core.errors.RecordError: line 1: brackets nested deeper than 64 (at column 65)
    """
    for span in read_record_spans(text):
        yield span.line, span.record


def read_record_spans(text: str) -> Iterator[RecordSpan]:
    """``read_records``, each record with the offset it starts at too: what
    ``record_line`` needs to find the line of a fault inside it."""
    try:
        yield from _read_records(text)
    except RecursionError:  # raised by the decoder, deep in the text: no record is that deep
        raise _nested_too_deep(text) from None


def record_line(text: str, span: RecordSpan, path: tuple[str | int, ...]) -> int:
    r"""The line of ``text`` holding the value at ``path`` (a ``RecordError``'s)
    in the record ``span``: in a pretty-printed record, the line of the bid,
    card or deal at fault rather than the record's first. Where the path
    leads past what the text holds, the line of the last value it reached.

    >>> text = '{"hands": [\n  {"bids": [\n    ["W", 3],\n    ["N", 0]\n  ]}\n]}'
    >>> record_line(text, next(read_record_spans(text)), ("hands", 0, "bids", 1, 1))
    4
    """
    at = _skip_space(text, span.start)
    for step in path:
        found = _value_start(text, at, step)
        if found is None:
            break
        at = found
    return _line_at(text, at)


def _value_start(text: str, at: int, step: str | int) -> int | None:
    """Where the value under key or index ``step`` of the JSON object or array
    starting at ``at`` starts (``None``: no such value)."""
    opening = "[" if isinstance(step, int) else "{"
    if at >= len(text) or text[at] != opening:
        return None
    closing = "]" if opening == "[" else "}"
    at = _skip_space(text, at + 1)
    index = 0
    try:
        while at < len(text) and text[at] != closing:
            key: object = index
            if opening == "{":
                key, at = _DECODER.raw_decode(text, at)
                at = _skip_space(text, _skip_space(text, at) + 1)  # past the colon
            if key == step:
                return at
            _value, at = _DECODER.raw_decode(text, at)
            at = _skip_space(text, at)
            if at < len(text) and text[at] == ",":
                at = _skip_space(text, at + 1)
            index += 1
    except json.JSONDecodeError:
        return None
    return None


def _skip_space(text: str, at: int) -> int:
    while at < len(text) and text[at] in " \t\r\n":
        at += 1
    return at


_DECODER: Final = json.JSONDecoder()


def _read_records(text: str) -> Iterator[RecordSpan]:
    stripped = text.strip()
    if not stripped:
        return
    try:
        whole = json.loads(stripped)
    except json.JSONDecodeError as error:
        whole = None
        if not _first_line_is_json(text):
            # One document over many lines (pretty-printed): its own error
            # names the line at fault; reading it line by line would blame line 1.
            offset = len(text) - len(text.lstrip())
            at = _line_at(text, offset + error.pos)
            raise RecordError(
                f"not valid JSON ({error.msg} at column {error.colno})", where=f"line {at}"
            ) from None
    else:
        if isinstance(whole, list):
            yield from _list_items(text)
            return
        if isinstance(whole, dict):
            start = len(text) - len(text.lstrip())
            yield RecordSpan(_line_at(text, start), start, whole)
            return
    offset = 0
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        start, offset = offset, offset + len(line)
        if not line.strip():
            continue
        try:
            yield RecordSpan(number, start, json.loads(line))
        except json.JSONDecodeError as error:
            raise RecordError(
                f"not valid JSON ({error.msg} at column {error.colno})", where=f"line {number}"
            ) from None


_STRUCTURE: Final = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]')
"""A JSON string (skipped whole, closed or not) or a bracket."""


def _nested_too_deep(text: str) -> RecordError:
    """The error for ``text`` nested too deep to decode: it names the line and
    column where its brackets (outside strings) first nest deeper than
    ``MAX_NESTING``. Scanned only once decoding failed: it costs as much again."""
    depth = 0
    for match in _STRUCTURE.finditer(text):
        mark = match.group()
        if mark in "[{":
            depth += 1
            if depth > MAX_NESTING:
                line = _line_at(text, match.start())
                column = match.start() - (text.rfind("\n", 0, match.start()) + 1) + 1
                return RecordError(
                    f"brackets nested deeper than {MAX_NESTING} (at column {column})",
                    where=f"line {line}",
                )
        elif mark in "]}":
            depth = max(0, depth - 1)
    return RecordError(f"brackets nested deeper than {MAX_NESTING}", where="line 1")


def _first_line_is_json(text: str) -> bool:
    """Whether the first non-blank line of ``text`` is a JSON value on its own
    (so the text is JSON lines, one record a line)."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    try:
        json.loads(first)
    except json.JSONDecodeError:
        return False
    return True


def _list_items(text: str) -> Iterator[RecordSpan]:
    """The items of ``text``, a valid JSON list, each with the line it starts on
    (so an error in the third record of a pretty-printed list names its line)."""
    position = text.index("[") + 1
    # Lines counted as the items go: counting from the start each time was quadratic.
    line, counted = 1, 0
    while True:
        while text[position] in " \t\r\n,":  # the list is valid JSON: only separators here
            position += 1
        if text[position] == "]":
            return
        item, end = _DECODER.raw_decode(text, position)
        line += text.count("\n", counted, position)
        counted = position
        yield RecordSpan(line, position, item)
        position = end


def _line_at(text: str, position: int) -> int:
    return text.count("\n", 0, position) + 1
