"""The routes of a single-player game: South against the bots.

Thin: they check who is asking, hand the intent to ``GameService`` and turn
the result into South's view (``views.py``). The game's routes are coroutines:
the service sends what thinks or waits (search bots, the solver, a database
server) to a worker thread and does the rest on the event loop, which for a
quick move costs less than the hand-off would. The rarer routes that read many
rows (the list of games) are plain ``def``: FastAPI runs them in its thread pool.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request, Response

from spades.bots import BOT_LEVELS, LEVEL_SUMMARIES
from spades.core import PRESETS, RulesError, parse_rules, rules_name
from spades.core.rules import OPTIONS

from ..deps import Games, Owner, OwnerOrNew, ServerLimits, ServerRates, Sheets, player_key
from ..errors import ERRORS, STORE_FAILED
from .games import IntentResult
from .hints import hint_level
from .schemas import (
    MAX_LISTED,
    MAX_RULES_LENGTH,
    BidRequest,
    BotLevels,
    ClaimRequest,
    ClaimUpdate,
    GameList,
    GameUpdate,
    HintResponse,
    NewGameRequest,
    PassRequest,
    PlayRequest,
    RuleOption,
    RulePreset,
    RulesCheck,
    RuleSets,
    RulesInWords,
    UndoUpdate,
)
from .views import game_summary, game_update, hint_response, taken_back

router = APIRouter(tags=["game"])


@router.get("/api/levels")
async def levels(games: Games) -> BotLevels:
    """The bot levels a game may use, the default, and the level the hint asks."""
    return BotLevels(
        levels=list(BOT_LEVELS),
        default=games.default_level,
        hint=hint_level(),
        summaries={level: LEVEL_SUMMARIES.get(level, "") for level in BOT_LEVELS},
    )


@router.get("/api/rules")
async def rule_sets() -> RuleSets:
    """The presets and the options a new game's rules are written with."""
    return RuleSets(
        presets=[
            RulePreset(name=name, summary=preset.rules.describe(), source=preset.source)
            for name, preset in PRESETS.items()
        ],
        options=[RuleOption(name=option.name, summary=option.summary) for option in OPTIONS],
        default="cardcouch",
        default_explained=RulesInWords.of(PRESETS["cardcouch"].rules),
    )


@router.get("/api/rules/check")
async def check_rules(
    rules: Annotated[str, Query(max_length=MAX_RULES_LENGTH, description="As in --rules.")],
) -> RulesCheck:
    """Read a rule set written in the short syntax: its shortest form and a
    summary, or what is wrong with it (a new game refuses such rules with 422)."""
    try:
        parsed = parse_rules(rules)
    except RulesError as error:
        return RulesCheck(ok=False, rules=None, summary=None, problem=error.message)
    return RulesCheck(
        ok=True,
        rules=rules_name(parsed),
        summary=parsed.describe(),
        problem=None,
        explained=RulesInWords.of(parsed),
    )


@router.post("/api/games", status_code=201, responses=ERRORS)
async def new_game(
    body: NewGameRequest,
    games: Games,
    owner: OwnerOrNew,
    sheets: Sheets,
    limits: ServerLimits,
    rates: ServerRates,  # the address's limit: rates.RequestRate
) -> GameUpdate:
    """Start a game: the deal, and the bots' bids before yours."""
    await rates.take("games", owner, limits.games_per_owner, "new games from you")
    started = await games.new_game(
        owner,
        partner=body.partner,
        opponents=body.opponents,
        west=body.west,
        east=body.east,
        undo=body.undo,
        seed=body.seed,
        rules=parse_rules(body.rules),
    )
    return game_update(started, sheets)


@router.get("/api/games", responses=STORE_FAILED)
def list_games(
    games: Games,
    request: Request,
    unfinished: Annotated[
        bool, Query(description="Only the games still in progress, to resume one.")
    ] = False,
    limit: Annotated[int, Query(ge=1, le=MAX_LISTED, description="At most this many.")] = 20,
) -> GameList:
    """Your games, most recent first."""
    owner = player_key(request)
    if owner is None:
        return GameList(games=[])
    rows = games.repository.list_games(owner, limit, unfinished_only=unfinished)
    return GameList(games=[game_summary(row) for row in rows])


@router.get(
    "/api/games/latest",
    response_model=GameUpdate,
    responses={204: {"description": "This browser has no game yet."}, **STORE_FAILED},
)
async def latest_game(games: Games, sheets: Sheets, request: Request) -> GameUpdate | Response:
    """The game you played most recently, as it stands; 204 if you have none yet.

    Having no game is the normal first visit, not an error: no 404 to log."""
    owner = player_key(request)
    stored = None if owner is None else await games.latest(owner)
    if stored is None:
        return Response(status_code=204)
    return game_update(IntentResult(stored, []), sheets)


@router.get("/api/games/{game_id}", responses=ERRORS)
async def get_game(game_id: str, games: Games, owner: Owner, sheets: Sheets) -> GameUpdate:
    """One of your games, as it stands."""
    return game_update(IntentResult(await games.load(owner, game_id), []), sheets)


@router.post("/api/games/{game_id}/bid", responses=ERRORS)
async def bid(
    game_id: str, body: BidRequest, games: Games, owner: Owner, sheets: Sheets
) -> GameUpdate:
    """Bid, then the bots play until it is your turn again."""
    return game_update(await games.bid(owner, game_id, body.bid), sheets)


@router.post("/api/games/{game_id}/pass", responses=ERRORS)
async def pass_cards(
    game_id: str, body: PassRequest, games: Games, owner: Owner, sheets: Sheets
) -> GameUpdate:
    """Pass cards to your partner (the rules' Nil pass), then the bots play on."""
    return game_update(await games.pass_cards(owner, game_id, body.cards), sheets)


@router.post("/api/games/{game_id}/play", responses=ERRORS)
async def play(
    game_id: str, body: PlayRequest, games: Games, owner: Owner, sheets: Sheets
) -> GameUpdate:
    """Play a card, then the bots play until it is your turn again."""
    return game_update(await games.play(owner, game_id, body.card), sheets)


@router.post("/api/games/{game_id}/undo", responses=ERRORS)
async def undo(game_id: str, games: Games, owner: Owner, sheets: Sheets) -> UndoUpdate:
    """Take back your last bid or card of this hand, and every move made after it."""
    outcome, taken = await games.undo(owner, game_id)
    update = game_update(outcome, sheets)
    return UndoUpdate(game=update.game, events=update.events, taken_back=taken_back(taken))


@router.post("/api/games/{game_id}/claim", responses=ERRORS)
async def claim(
    game_id: str,
    body: ClaimRequest,
    games: Games,
    owner: Owner,
    sheets: Sheets,
    limits: ServerLimits,
    rates: ServerRates,  # the address's limit: rates.RequestRate
) -> ClaimUpdate:
    """Claim tricks for you and North. Checked with every card visible: if your side
    takes them against any defence the hand ends with them, otherwise play goes on."""
    await rates.take("claims", owner, limits.claims_per_owner, "claims from you")
    outcome, verdict = await games.claim(owner, game_id, body.tricks)
    update = game_update(outcome, sheets)
    events = update.events if verdict.event is None else [verdict.event, *update.events]
    return ClaimUpdate(game=update.game, events=events, claim=verdict.result)


@router.get("/api/games/{game_id}/hint", responses=ERRORS)
async def hint(
    game_id: str,
    games: Games,
    owner: Owner,
    limits: ServerLimits,
    rates: ServerRates,  # the address's limit: rates.RequestRate
) -> HintResponse:
    """What the strongest bot would bid or play in your place, and why."""
    await rates.take("hints", owner, limits.hints_per_owner, "hints for you")
    return hint_response(await games.hint(owner, game_id))
