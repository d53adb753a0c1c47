"""Where a request's work runs: on the event loop when it is quick, in a worker
thread when it thinks (search bots, the solver, the hint's bot).

Handing every move to a thread and back was the largest cost of a move under
load (docs/performance.md), so a move against the quick bots must not do it;
and a bot that thinks for tenths of a second must not hold up the event loop,
or every other player would wait for it.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

import spades.server.play.games as games_module
from spades.core import Event, Game, PlayerView
from spades.core.seats import Seat
from spades.server.app import create_app
from spades.server.http.rates import Limits
from spades.server.play.games import GameService
from spades.session import FULL_EFFORT, Answer, Effort, InlineDecider

from ..conftest import QUICK, south_move, start_game

SEARCHING = {"partner": "hard", "opponents": "hard"}


def on_event_loop() -> bool:
    """Whether the caller runs on the event loop's thread (a worker thread has no loop)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


@pytest.fixture
def bot_turns(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[bool]]:
    """For each time the bots were asked to answer: whether it was on the event
    loop. The search levels' turns are played by random bots, so the tests do
    not wait for the search itself."""
    turns: list[bool] = []
    run_bots = GameService.run_bots

    def recording(service: GameService, game: Game, levels: dict[Seat, str]) -> list[Event]:
        turns.append(on_event_loop())
        return run_bots(service, game, dict.fromkeys(levels, "random"))

    monkeypatch.setattr(GameService, "run_bots", recording)
    yield turns


def play_a_few_moves(client: TestClient, **levels: Any) -> dict[str, Any]:
    game = start_game(client, seed=5, **levels)["game"]
    for _ in range(6):
        response = south_move(client, game)
        assert response.status_code == 200, response.text
        game = response.json()["game"]
    return game


def test_moves_against_quick_bots_stay_on_the_event_loop(
    client: TestClient, bot_turns: list[bool]
) -> None:
    play_a_few_moves(client, **QUICK)
    assert len(bot_turns) == 7 and all(bot_turns)  # the new game and six moves


def test_search_bots_think_in_a_worker_thread(client: TestClient, bot_turns: list[bool]) -> None:
    play_a_few_moves(client, **SEARCHING)
    assert len(bot_turns) == 7 and not any(bot_turns)


def test_one_searching_seat_is_enough_to_leave_the_loop(
    client: TestClient, bot_turns: list[bool]
) -> None:
    play_a_few_moves(client, partner="random", opponents="random", east="hard")
    assert len(bot_turns) == 7 and not any(bot_turns)


def test_the_hint_and_the_claim_think_in_a_worker_thread(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    where: dict[str, bool] = {}
    suggest, judge_claim = games_module.suggest, games_module.judge_claim

    def recording_suggest(*args: Any, **kwargs: Any) -> Any:
        where["hint"] = on_event_loop()
        return suggest(*args, **kwargs)

    def recording_judge(*args: Any, **kwargs: Any) -> Any:
        where["claim"] = on_event_loop()
        return judge_claim(*args, **kwargs)

    monkeypatch.setattr(games_module, "suggest", recording_suggest)
    monkeypatch.setattr(games_module, "judge_claim", recording_judge)
    game = start_game(client, seed=5, **QUICK)["game"]
    assert client.get(f"/api/games/{game['id']}/hint").status_code == 200
    while game["phase"] != "playing":
        game = south_move(client, game).json()["game"]
    left = game["claim"]["tricks_left"]
    assert client.post(f"/api/games/{game['id']}/claim", json={"tricks": left}).status_code == 200
    assert where == {"hint": False, "claim": False}


def test_other_games_are_answered_while_a_bot_thinks(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A searching bot's move is in progress; a move in another game, against
    quick bots, is answered meanwhile by the same event loop (one client, one
    loop: each TestClient runs its own)."""
    thinking, answered = threading.Event(), threading.Event()
    armed = False
    run_bots = GameService.run_bots

    def slow_when_searching(
        service: GameService, game: Game, levels: dict[Seat, str]
    ) -> list[Event]:
        if armed and "hard" in levels.values():
            thinking.set()
            assert answered.wait(timeout=30), "the other game was kept waiting"
        return run_bots(service, game, dict.fromkeys(levels, "random"))

    monkeypatch.setattr(GameService, "run_bots", slow_when_searching)
    searching = start_game(client, seed=5, **SEARCHING)["game"]
    quick = start_game(client, seed=6, **QUICK)["game"]
    armed = True
    results: list[int] = []
    mover = threading.Thread(
        target=lambda: results.append(south_move(client, searching).status_code)
    )
    mover.start()
    try:
        assert thinking.wait(timeout=30)
        assert south_move(client, quick).status_code == 200
    finally:
        answered.set()
        mover.join(timeout=30)
    assert results == [200]


class HintRecordingDecider(InlineDecider):
    """Decides here, noting each search it is asked for: its level and whether a hint."""

    def __init__(self) -> None:
        super().__init__()
        self.searches: list[tuple[str, bool]] = []

    def search(
        self,
        level: str,
        view: PlayerView,
        seed: str,
        deadline: float,
        effort: Effort = FULL_EFFORT,
        hint: bool = False,
    ) -> Answer:
        self.searches.append((level, hint))
        return super().search(level, view, seed, deadline, effort, hint)


def test_the_hint_is_searched_where_the_bots_think(db_url: str) -> None:
    """The hint's search is asked of the service's decider (the bot processes,
    or Ray), like a bot's turn, and not made in the web process."""
    decider = HintRecordingDecider()
    app = create_app(db_url, default_level="normal", limits=Limits.off(), bots=decider)
    try:
        with TestClient(app) as client:
            game = start_game(client, seed=5, **QUICK)["game"]
            bid_hint = client.get(f"/api/games/{game['id']}/hint")
            assert bid_hint.status_code == 200 and bid_hint.json()["kind"] == "bid"
            assert decider.searches == [("expert", True)]
            while game["phase"] != "playing":
                game = south_move(client, game).json()["game"]
            card_hint = client.get(f"/api/games/{game['id']}/hint")
            assert card_hint.status_code == 200 and card_hint.json()["kind"] == "card"
            assert decider.searches == [("expert", True)] * 2
    finally:
        app.state.repository.close()
