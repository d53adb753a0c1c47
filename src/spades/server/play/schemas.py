"""Every request and response body of the web API, as pydantic models.

Requests are strict (unknown fields refused, no type coercion) so bad input is
turned away with a clear message before it reaches the engine. Responses carry
South's view only: South's own cards, and public facts (bids, cards played,
tricks, scores). No model has a field that could hold another seat's unplayed
cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, WithJsonSchema

from spades.core.bids import BidJson
from spades.core.cards import CARD_NAMES, Card
from spades.core.rules import Rules
from spades.core.scoring import NilKind
from spades.core.seats import SEAT_LETTERS, Seat, SeatLetter, TeamName

BidValue = BidJson
Role = Literal["you", "partner", "opponent"]
"""How a seat stands to the viewer."""
"""A bid as the API writes it (``spades.core.bid_to_json``): ``"nil"``, ``"blind_nil"`` or 1..13."""
CardName = Annotated[
    str,
    Field(
        description="A card: rank (2-9, T, J, Q, K, A) then suit (S, H, D, C), like 'QH' or 'TD'.",
        pattern="^[2-9TJQKA][SHDC]$",
    ),
]

MAX_LEVEL_LENGTH: Final = 32
MAX_BID_LENGTH: Final = 16
MAX_RULES_LENGTH: Final = 400
MAX_LISTED: Final = 100
"""The most games ``GET /api/games`` lists at once."""

CARD_PATTERN: Final = r"^\s*(10|[2-9TtJjQqKkAa])[SsHhDdCc]\s*$"
"""The cards a request may name, as ``parse_card`` reads them: any case, ``10`` or
``T`` for the ten, spaces around ignored. Written into the schema only: the
engine refuses anything else with its own message (and the rule ``card``)."""

BID_SCHEMA: Final = {
    "oneOf": [
        {"type": "integer", "minimum": 1, "maximum": 13},
        {
            "type": "string",
            "pattern": r"^\s*([Bb][Ll][Ii][Nn][Dd][ _-]?)?[Nn][Ii][Ll]\s*$",
            "maxLength": MAX_BID_LENGTH,
        },
    ]
}
"""The bids a request may make. As with cards, the schema documents the range and
the engine refuses the rest with a reason (0: "to take no tricks, bid nil")."""


class Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ------------------------------------------------------------------ requests


class RulePreset(BaseModel):
    name: str
    summary: str = Field(description="The rule set in a few words.")
    source: str = Field(description="Where the rule set comes from.")


class RuleOption(BaseModel):
    name: str
    summary: str


class ScoreLine(BaseModel):
    result: str
    points: str
    example: str


class RulesInWords(BaseModel):
    """A rule set in sentences, section by section, as How to play words it."""

    bidding: list[str]
    passing: list[str] = Field(description="Empty when these rules pass no cards.")
    play: list[str]
    scoring: list[ScoreLine]
    winning: str

    @classmethod
    def of(cls, rules: Rules) -> RulesInWords:
        explained = rules.explained()
        return cls(
            bidding=list(explained.bidding),
            passing=list(explained.passing),
            play=list(explained.play),
            scoring=[
                ScoreLine(result=line.result, points=line.points, example=line.example)
                for line in explained.scoring
            ],
            winning=explained.winning,
        )


class RuleSets(BaseModel):
    """The rule sets a new game may be played under (docs/rules.md)."""

    presets: list[RulePreset]
    options: list[RuleOption] = Field(description="What may follow a preset: name=value.")
    default: str
    default_explained: RulesInWords = Field(description="The default rules in sentences.")


class RulesCheck(BaseModel):
    """A rule set read back: what it means, or what is wrong with it. (A check
    that finds a problem has done its job: it answers 200, as a form being typed
    into is no failed request.)"""

    ok: bool
    rules: str | None = Field(description="The rules, written the shortest way.")
    summary: str | None = Field(description="The rules in a few words.")
    problem: str | None = Field(description="What is wrong, when something is.")
    explained: RulesInWords | None = Field(
        default=None, description="The rules in sentences, section by section (How to play)."
    )


class NewGameRequest(Request):
    # The server's default level and the level names are written into these
    # descriptions when the app builds its schema (see app.document_levels).
    partner: StrictStr | None = Field(
        default=None, max_length=MAX_LEVEL_LENGTH, description="Bot level of North, your partner."
    )
    opponents: StrictStr | None = Field(
        default=None, max_length=MAX_LEVEL_LENGTH, description="Bot level of West and East."
    )
    west: StrictStr | None = Field(
        default=None,
        max_length=MAX_LEVEL_LENGTH,
        description="Bot level of West, if not the opponents' level.",
    )
    east: StrictStr | None = Field(
        default=None,
        max_length=MAX_LEVEL_LENGTH,
        description="Bot level of East, if not the opponents' level.",
    )
    undo: StrictBool = Field(
        default=True, description="Whether you may take back your last bid or card."
    )
    rules: StrictStr = Field(
        default="cardcouch",
        max_length=MAX_RULES_LENGTH,
        description="The rules: a preset (cardcouch, traditional, club) then changes, e.g. "
        "cardcouch,target=300,blind_nil=on,nil_pass=2 (see docs/rules.md).",
        examples=["cardcouch", "cardcouch,target=300,blind_nil=on,nil_pass=2"],
    )
    seed: StrictInt | None = Field(
        default=None,
        ge=0,
        lt=2**63,
        description="Practice: deal from this seed (the same seed and moves give the same "
        "game). The game is marked as practice, since anyone who knows the seed can work out "
        "every hand. Leave it out for a fair game: a secret seed, committed to before the "
        "first deal and revealed when the game is over.",
    )


class BidRequest(Request):
    bid: Annotated[
        StrictInt | Annotated[StrictStr, Field(max_length=MAX_BID_LENGTH)],
        WithJsonSchema(BID_SCHEMA),
    ] = Field(
        description='Your bid: a number of tricks from 1 to 13, or "nil" (any case) to promise '
        'to take none, or "blind_nil" where the rules allow it. 0 is not a bid.',
        examples=[3, "nil"],
    )


class PassRequest(Request):
    cards: list[
        Annotated[
            StrictStr, WithJsonSchema({"type": "string", "pattern": CARD_PATTERN, "maxLength": 8})
        ]
    ] = Field(
        max_length=3,
        description="The cards you pass to your partner (a Nil pass): as many as the rules say.",
        examples=[["AS", "KH"]],
    )


class PlayRequest(Request):
    card: Annotated[
        StrictStr, WithJsonSchema({"type": "string", "pattern": CARD_PATTERN, "maxLength": 8})
    ] = Field(
        max_length=8,
        description="The card to play: rank (2-9, T or 10, J, Q, K, A) then suit "
        "(S, H, D, C), in any case.",
        examples=["QH", "10D", "ts"],
    )


class ClaimRequest(Request):
    tricks: StrictInt = Field(
        ge=1,
        le=13,
        description="How many of the tricks left (the one in progress included) you and "
        "North take: from 1 to all of them.",
        examples=[4],
    )


# ----------------------------------------------------------------- responses


class BotLevels(BaseModel):
    levels: list[str] = Field(description="Every bot level, weakest first.")
    default: str = Field(
        description="The level new games seat unless the player picks another: the strongest "
        "that answers within the decision budget (1 s), unless the server was started with "
        "another (spades serve --level)."
    )
    hint: str = Field(description="The level the hint asks.")
    summaries: dict[str, str] = Field(description="One line on how each level plays.")


class SeatState(BaseModel):
    seat: SeatLetter
    name: str
    role: Role
    player: str = Field(
        description='"you", or the bot level playing the seat; in a game with friends, '
        "the display name of the person who took the seat, or the bot level."
    )
    cards_left: int = Field(description="How many cards the seat still holds (a count only).")
    bid: BidValue | None
    tricks: int = Field(description="Tricks this seat has taken this hand.")
    dealer: bool


class ContractState(BaseModel):
    """A partnership's contract as it stands (``spades.core.team_contract``)."""

    bid: int | None = Field(
        description="The partners' combined numeric bid, once both have bid (null while one "
        "has still to bid, or when both bid Nil)."
    )
    nil_seats: list[SeatLetter] = Field(description="The partners who bid Nil or blind Nil.")
    tricks: int = Field(description="Tricks the team has taken this hand, a Nil bidder's included.")
    left: int = Field(
        description="Tricks the partners who bid a number still need to make it (0 once made)."
    )


class TeamState(ContractState):
    team: TeamName
    name: str
    score: int
    bags: int


class PlayedCard(BaseModel):
    seat: SeatLetter
    card: CardName


class TrickState(BaseModel):
    leader: SeatLetter
    cards: list[PlayedCard]
    winner: SeatLetter | None

    @classmethod
    def of(cls, leader: Seat, cards: Sequence[Card], winner: Seat | None) -> TrickState:
        """A trick as the engine keeps it (seats and cards as numbers), in words:
        ``cards`` in the order played from ``leader``; ``winner`` once it is over."""
        return cls(
            leader=SEAT_LETTERS[leader],
            cards=[
                PlayedCard(seat=SEAT_LETTERS[(leader + i) & 3], card=CARD_NAMES[card])
                for i, card in enumerate(cards)
            ],
            winner=None if winner is None else SEAT_LETTERS[winner],
        )


class NilOutcome(BaseModel):
    seat: SeatLetter
    tricks: int
    made: bool = Field(description="Whether this bidder took no trick.")
    kind: NilKind = Field(
        description='What the Nil was scored as; "double_nil": both partners\' Nils as one contract.'
    )
    points: int = Field(
        description="What the Nil contract earned (for a double Nil, the pair's, on both seats)."
    )


class TeamHandResult(BaseModel):
    team: TeamName
    bids: dict[SeatLetter, BidValue]
    tricks: dict[SeatLetter, int]
    bid: int | None = Field(description="Combined numeric bid; null when both partners bid Nil.")
    counted_tricks: int = Field(description="Tricks judged against the numeric bid.")
    made: bool | None
    nils: list[NilOutcome]
    bid_points: int
    overtricks: int
    nil_points: int
    bags_taken: int
    bag_penalty_points: int
    delta: int
    bags: int
    total: int
    summary: list[str] = Field(description="The result in words, one line per part.")


class HandResult(BaseModel):
    hand: int
    dealer: SeatLetter
    teams: list[TeamHandResult]
    notes: list[str] = Field(
        default=[], description="The hand's claims and undos in words, once it is scored."
    )


class GameOverInfo(BaseModel):
    winner: TeamName
    winner_name: str
    you_won: bool
    reason: str
    totals: dict[TeamName, int]


class Settings(BaseModel):
    partner: str = Field(description="North's level.")
    opponents: str = Field(description="West's and East's level, \"west/east\" when they differ.")
    west: str
    east: str
    undo: bool = Field(description="Whether you may take back your last bid or card.")


class UndoState(BaseModel):
    enabled: bool = Field(description="Undo is on in this game.")
    available: bool = Field(
        description="You have a bid or card of this hand to take back now (a scored hand stands)."
    )


class ClaimOffer(BaseModel):
    """What you may claim now (sent only when it is your turn to play a card)."""

    tricks_left: int = Field(description="Tricks not yet finished, the one in progress included.")
    choices: list[int] = Field(description="The numbers of tricks you may claim.")
    available: bool = Field(description="Whether you may claim now.")
    note: str = Field(description="The terms of a claim in this hand, or why you may not claim.")


class Fairness(BaseModel):
    """How the game's deals were chosen, and how anyone can check them."""

    practice: bool = Field(
        description="The player chose the seed (a practice game): anyone who knows it can "
        "work out every hand, so these deals prove nothing."
    )
    commitment: str | None = Field(
        description='SHA-256 (hex) of "<seed>:<salt>", fixed before the first card and the '
        "same all game; null in a practice game."
    )
    seed: str | None = Field(
        description="The seed, in decimal (a string: it may not fit a JavaScript number). "
        "Revealed once the game is over; in a practice game, the player's own."
    )
    salt: str | None = Field(description="Revealed with the seed once the game is over.")
    record: str | None = Field(
        description="Where the game's record (spades-record/1) can be downloaded, once it is over."
    )
    record_file: str | None = Field(description="The file name the record downloads as.")
    verify: str | None = Field(
        description="Once the seed is revealed: the command that checks the commitment and "
        "every deal against the downloaded record."
    )


class PassState(BaseModel):
    seat: SeatLetter = Field(description="Who passes now.")
    to: SeatLetter
    count: int
    your_turn: bool


class GameState(BaseModel):
    """Everything South may know about the game now."""

    id: str
    version: int
    hand_number: int
    phase: Literal["bidding", "passing", "playing", "over"]
    dealer: SeatLetter
    turn: SeatLetter | None
    your_turn: bool
    hand: list[CardName] = Field(description="Your cards, grouped by suit, high to low.")
    legal_bids: list[BidValue]
    legal_cards: list[CardName]
    seats: list[SeatState]
    teams: list[TeamState]
    trick: TrickState = Field(description="The trick in progress (or the next one's leader).")
    last_trick: TrickState | None
    tricks_played: int
    spades_broken: bool
    score_sheet: list[HandResult]
    game_over: GameOverInfo | None
    settings: Settings
    undo: UndoState
    claim: ClaimOffer | None = Field(description="What you may claim, when you are to play.")
    fairness: Fairness | None = Field(
        description="How the deals were chosen; null for games stored before seeds were "
        "committed to."
    )
    target: int
    floor: int | None = Field(description="null: these rules have no floor")
    blind_nil: bool = Field(
        default=False,
        description="Whether you may bid blind Nil now: before looking at your cards, so "
        "the page keeps them face down until you choose (legal_bids never holds it).",
    )
    passing: PassState | None = Field(
        default=None, description="The Nil pass being made, during the passing."
    )
    passed: list[CardName] = Field(default=[], description="The cards you passed this hand.")
    received: list[CardName] = Field(
        default=[], description="The cards North passed you this hand, once every pass is made."
    )
    rules: str = Field(
        default="cardcouch",
        description="The game's rules in the short syntax of `--rules` (docs/rules.md)",
    )
    rules_summary: str = Field(
        default="first to 500, out at -200",
        description='The rules in a few words, as the table shows them ("first to 300, ...")',
    )
    you: SeatLetter = Field(
        default="S",
        description="The seat this view is for: South in a game against bots, the "
        "seat you took in a game with friends.",
    )


class StateAfter(BaseModel):
    """The table just after an event, from the engine: what the page draws once
    the event has played, so it never works out phases, turns, tricks, whether
    spades are broken or the contracts itself.

    Exact whenever the engine hands the turn on; within one move's chain of
    consequences (the fourth card, the trick it completes, the hand scored, the
    next deal) the events before the last have ``turn`` null: no one is to act
    until the chain is over."""

    hand: int = Field(description="The hand being played (1-based).")
    phase: Literal["bidding", "passing", "playing", "over"] = Field(
        description='"over" only when the game is over.'
    )
    turn: SeatLetter | None = Field(description="Who is to act now; null while no one is.")
    tricks_played: int = Field(description="Tricks finished in this hand.")
    spades_broken: bool = Field(
        description="Whether spades may be led (always, under spades_break=off)."
    )
    teams: dict[TeamName, ContractState] = Field(description="Each partnership's contract.")
    scores: dict[TeamName, int]
    bags: dict[TeamName, int]


class PublicEvent(BaseModel):
    after: StateAfter | None = Field(
        default=None,
        description="The table after the event (null only for events replayed from "
        "before the server last started).",
    )


class HandDealtEvent(PublicEvent):
    type: Literal["hand_dealt"]
    hand: int
    dealer: SeatLetter


class CardsPassedEvent(PublicEvent):
    """A Nil pass: how many cards went to whom (which ones, only the partners know)."""

    type: Literal["cards_passed"]
    seat: SeatLetter
    to: SeatLetter
    count: int


class BidMadeEvent(PublicEvent):
    type: Literal["bid_made"]
    seat: SeatLetter
    bid: BidValue


class CardPlayedEvent(PublicEvent):
    type: Literal["card_played"]
    seat: SeatLetter
    card: CardName


class TrickWonEvent(PublicEvent):
    type: Literal["trick_won"]
    seat: SeatLetter
    leader: SeatLetter
    cards: list[CardName]


class TeamDelta(BaseModel):
    delta: int
    total: int
    bags: int


class HandOverEvent(PublicEvent):
    type: Literal["hand_over"]
    hand: int
    tricks_won: dict[SeatLetter, int]
    score: dict[TeamName, TeamDelta]


class GameOverEvent(PublicEvent):
    type: Literal["game_over"]
    winner: TeamName
    reason: str
    score: dict[TeamName, int]


class ClaimEvent(PublicEvent):
    """A claim held: the hand ends, each seat credited with ``awarded`` more tricks."""

    type: Literal["claim"]
    seat: SeatLetter
    tricks: int
    left: int
    awarded: dict[SeatLetter, int]


GameEvent = Annotated[
    HandDealtEvent
    | BidMadeEvent
    | CardsPassedEvent
    | CardPlayedEvent
    | TrickWonEvent
    | ClaimEvent
    | HandOverEvent
    | GameOverEvent,
    Field(discriminator="type"),
]


class GameUpdate(BaseModel):
    """The game after an intent, and the public events it caused, in order."""

    game: GameState
    events: list[GameEvent] = Field(
        description="What happened since the request: your move, then each bot's, "
        "the tricks won, a hand scored, a new deal, the end."
    )


class TakenBack(BaseModel):
    seat: SeatLetter
    bid: BidValue | None = None
    card: CardName | None = None


class UndoUpdate(GameUpdate):
    """The game after an undo: your move and every move after it are taken back."""

    taken_back: list[TakenBack] = Field(description="The moves taken back, in the order made.")


class ClaimResult(BaseModel):
    held: bool
    tricks: int
    left: int
    message: str = Field(
        description="The verdict in words (a refused claim says no more: the "
        "defence that beats it shows hidden cards, so the hand's summary shows it)."
    )


class ClaimUpdate(GameUpdate):
    """The game after a claim: the hand ended if it held, unchanged if not."""

    claim: ClaimResult


class GameSummary(BaseModel):
    id: str
    hand_number: int
    finished: bool
    winner: TeamName | None
    partner: str = Field(description="North's level.")
    opponents: str = Field(description="West's and East's level, \"west/east\" when they differ.")
    scores: dict[TeamName, int] = Field(description="Both teams' totals so far.")
    practice: bool = Field(description="Dealt from a seed the player chose.")
    started_at: str = Field(description="When the game began (ISO 8601, UTC).")
    updated_at: str = Field(description="When it was last played (ISO 8601, UTC).")


class GameList(BaseModel):
    games: list[GameSummary]


class HintResponse(BaseModel):
    kind: Literal["bid", "card", "pass"]
    bid: BidValue | None = None
    card: CardName | None = None
    cards: list[CardName] = Field(default=[], description="The cards to pass (a Nil pass).")
    card_name: str | None = Field(default=None, description='The card in words: "Queen of hearts".')
    reason: str
    level: str = Field(description="The bot level that made the suggestion.")
