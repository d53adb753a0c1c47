"""Statistics across a player's games, computed from the records kept.

Every number comes from the stored ``spades-record/1`` records: results from
``winner``, each hand's points and bags from its ``score``, contracts and Nils
from its bids and tricks scored by ``score_hand`` (the engine's one scoring
rule), undos and claims from the hands' ``undos`` and ``claims``. Records are
read as JSON, not re-played: the store re-validates a record whenever the game
is loaded to be played, and a summary over hundreds of games must stay quick.

Each game is counted from the seat its player played it from: South in their
own games, the seat they took at a table with friends (with that seat's
partner, and its side's score). Only what the record says of everyone once the
game is over is read, and only totals are answered.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from spades.bots import BOT_LEVELS
from spades.core import NIL, Rules, parse_bid, parse_seat, score_hand
from spades.core.seats import SEAT_LETTERS, SEATS, TEAM_NAMES
from spades.storage import PlayedRecord

from ..play.levels import opponents_name
from .schemas import HandPoint, LevelRecord, Statistics

RECENT_HANDS: Final = 40
FRIENDS: Final = "friends"
"""The opponents' name, in the results by level, for a table where a person
sat against you."""


@dataclass(slots=True)
class _Tally:
    games: int = 0
    finished: int = 0
    won: int = 0
    lost: int = 0
    levels: dict[str, Counter[str]] = field(default_factory=dict)
    hands: int = 0
    points: int = 0
    bags: int = 0
    made: int = 0
    set: int = 0
    nil_tried: int = 0
    nil_made: int = 0
    undos: int = 0
    games_with_undos: int = 0
    claims: int = 0
    claims_held: int = 0
    recent: list[HandPoint] = field(default_factory=list)


def player_statistics(played: Iterable[PlayedRecord]) -> Statistics:
    """The statistics of the games given, oldest game first, each from its seat."""
    tally = _Tally()
    for game in played:
        try:
            _count_game(tally, game.record, game.seat)
        except (KeyError, TypeError, ValueError, AttributeError):
            continue  # a damaged record: it cannot be played either, so it counts for nothing
    return Statistics(
        games=tally.games,
        finished=tally.finished,
        won=tally.won,
        lost=tally.lost,
        by_level=[
            LevelRecord(
                opponents=level,
                played=counts["won"] + counts["lost"],
                won=counts["won"],
                lost=counts["lost"],
            )
            for level, counts in sorted(tally.levels.items())
        ],
        hands=tally.hands,
        points_per_hand=round(tally.points / tally.hands, 1) if tally.hands else None,
        bags_per_hand=round(tally.bags / tally.hands, 2) if tally.hands else None,
        contracts_made=tally.made,
        contracts_set=tally.set,
        nil_tried=tally.nil_tried,
        nil_made=tally.nil_made,
        undos=tally.undos,
        games_with_undos=tally.games_with_undos,
        claims=tally.claims,
        claims_held=tally.claims_held,
        recent=tally.recent[-RECENT_HANDS:],
    )


def _count_game(tally: _Tally, record: Mapping[str, Any], letter: str) -> None:
    rules = Rules.from_dict(record.get("rules") or {})
    seat = parse_seat(letter)
    team = seat & 1
    our_team = TEAM_NAMES[team]
    # Counted into a fresh tally first, so a record damaged half-way adds nothing.
    game = _Tally()
    game.games = 1
    winner = record.get("winner")
    players = record.get("players") or {}
    left, right = (str(players.get(SEAT_LETTERS[(seat + turn) & 3], "?")) for turn in (3, 1))
    if left in BOT_LEVELS and right in BOT_LEVELS:
        level = opponents_name(west=left, east=right)
    else:
        level = FRIENDS
    if winner is not None:
        game.finished = 1
        game.won = int(winner == our_team)
        game.lost = 1 - game.won
    bags_before = [0, 0]
    for hand in record["hands"]:
        undos = [u for u in hand.get("undos", []) if u["seat"] == letter]
        claims = [c for c in hand.get("claims", []) if c["seat"] == letter]
        game.undos += len(undos)
        game.claims += len(claims)
        game.claims_held += sum(bool(c["held"]) for c in claims)
        score = hand.get("score")
        if score is None:
            continue
        bids = dict.fromkeys(SEATS, NIL)
        for letter, bid in hand["bids"]:
            bids[SEAT_LETTERS.index(letter)] = parse_bid(bid)
        tricks = [int(hand["tricks_won"][letter]) for letter in SEAT_LETTERS]
        ours = score_hand(
            [bids[each] for each in SEATS], tricks, (bags_before[0], bags_before[1]), rules
        )[team]
        bags_before = [int(score["NS"]["bags"]), int(score["EW"]["bags"])]
        game.hands += 1
        game.points += int(score[our_team]["delta"])
        game.bags += ours.bags_taken
        if ours.made is not None:
            game.made += int(ours.made)
            game.set += int(not ours.made)
        for nil in ours.nils:
            if nil.seat == seat:
                game.nil_tried += 1
                game.nil_made += int(nil.made)
        game.recent.append(HandPoint(points=int(score[our_team]["delta"]), bags=ours.bags_taken))
    _add(tally, game, level)


def _add(tally: _Tally, game: _Tally, level: str) -> None:
    for name in (
        "games", "finished", "won", "lost", "hands", "points", "bags", "made", "set",
        "nil_tried", "nil_made", "undos", "claims", "claims_held",
    ):  # fmt: skip
        setattr(tally, name, getattr(tally, name) + getattr(game, name))
    tally.games_with_undos += int(game.undos > 0)
    if game.finished:
        counts = tally.levels.setdefault(level, Counter())
        counts["won" if game.won else "lost"] += 1
    tally.recent.extend(game.recent)
