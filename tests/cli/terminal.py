"""`spades play` run with answers piped to stdin (through the real console
script, or by its entry point in this process), and the same game re-played
in the engine (same seed, same bots seeded from it), so a test knows South's
cards and which answers are legal at every prompt."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from spades.arena import seat_bots
from spades.bots import Bot
from spades.core import EAST, NORTH, SOUTH, WEST, Card, Game, Phase
from spades.core.cards import sorted_for_display
from spades.session import decision_seed

from ..commands import spades_here

SEED = 5


LEVELS = {NORTH: "random", EAST: "random", WEST: "random"}


# Named explicitly so the tests keep the fast random bots when stronger defaults arrive.
BOT_OPTIONS = ("--partner", "random", "--opponents", "random")


def spades_script() -> str:
    beside_python = Path(sys.executable).parent / "spades"
    if beside_python.exists():
        return str(beside_python)
    found = shutil.which("spades")
    assert found is not None, "the spades console script is not installed"
    return found


def run_spades(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if key != "FORCE_COLOR"}
    # Plain UTF-8 output at the width of a pipe (80): no colour codes to match around, and
    # messages must come out whole at that width.
    env.pop("COLUMNS", None)
    env.update(NO_COLOR="1", PYTHONIOENCODING="utf-8")
    return subprocess.run(
        [spades_script(), *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=60,
        check=False,
    )


def run_spades_here(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``run_spades`` by the command line's entry point in this process (see
    ``tests/commands.py``), with the same plain output at the same width."""
    return spades_here(
        *args, stdin=stdin, environment={"NO_COLOR": "1", "FORCE_COLOR": None, "COLUMNS": None}
    )


def run_play(
    seed: int, stdin: str, *extra: str, script: bool = False
) -> subprocess.CompletedProcess[str]:
    """`spades play --seed SEED` with the random bots, answered with ``stdin``: in
    this process, or (``script``) through the real console script."""
    run = run_spades if script else run_spades_here
    return run("play", "--seed", str(seed), *BOT_OPTIONS, *extra, stdin=stdin)


# ------------------------------------------------ the same game, in the engine


def bots_act(game: Game, bots: dict[int, Bot]) -> None:
    """Let the bots act until it is South's turn or the game is over."""
    while not game.is_over and game.to_act != SOUTH:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        bots[seat].rng.seed(decision_seed(game, seat))  # as the terminal seeds them
        if game.phase is Phase.BIDDING:
            game.bid(seat, bots[seat].bid(view))
        else:
            game.play(seat, bots[seat].play(view))


def first_numbered(game: Game) -> Card:
    """The card South's "1" plays: the first legal card in display order."""
    return sorted_for_display(game.legal_cards())[0]


def south_turns(seed: int) -> Iterator[Game]:
    """The game `spades play --seed` deals, paused at each of South's turns;
    South bids 3 and plays card 1 when the caller moves on."""
    game = Game(seed=seed)
    bots = seat_bots(LEVELS, seed)
    bots_act(game, bots)
    while not game.is_over:
        yield game
        if game.phase is Phase.BIDDING:
            game.bid(SOUTH, 3)
        else:
            game.play(SOUTH, first_numbered(game))
        bots_act(game, bots)


def whole_game(seed: int) -> tuple[Game, list[str]]:
    """The finished game and South's answers: 3 for every bid, 1 for every card."""
    answers: list[str] = []
    game = None
    for game in south_turns(seed):
        answers.append("3" if game.phase is Phase.BIDDING else "1")
    assert game is not None and game.is_over
    return game, answers
