"""``spades challenge`` (today's deals in the terminal, entered on the
leaderboard like the web's) and ``spades arena LEVEL --challenge DATE`` (a bot
on a closed day's deals, scored against the people who played them).

Both use the challenge's own service and play (``spades.challenge``): the
same deals, the same bots seeded by the position, the same scoring. The
terminal player is known by a token kept in the data directory, as a browser
is by its cookie: one entry a day per token.
"""

from __future__ import annotations

import json
import os
import secrets
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Final

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from spades.arena.players import PlayerSpecError, make_player, parse_player
from spades.challenge import Clock, parse_day
from spades.challenge.days import is_closed, utc_now
from spades.challenge.deals import deal_over, deal_seed, north_south_score
from spades.challenge.play import bot_levels, bots_answer, play_with_south, this_hand_only
from spades.challenge.scoring import matchpoints, mean_percent
from spades.core import Event
from spades.session import InlineDecider

from .play import QuitGame, TerminalGame, default_level

if TYPE_CHECKING:  # the database layer is a second of imports: loaded by the commands that use it
    from spades.challenge.service import ChallengeService, DealPlay

TOKEN_FILE: Final = "challenge-player"
CLOCK: Clock = utc_now
"""The commands' clock (the tests set their own day here)."""
errors = Console(stderr=True, soft_wrap=True)


def terminal_token(database_url: str) -> str:
    """This terminal's player token, made on first use and kept in the data
    directory (``$XDG_DATA_HOME/spades``), readable by its user only."""
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "spades"
    base.mkdir(parents=True, exist_ok=True)
    path = base / TOKEN_FILE
    if not path.exists():
        path.write_text(secrets.token_urlsafe(32) + "\n", encoding="utf-8")
        path.chmod(0o600)
    return path.read_text(encoding="utf-8").strip()


class ChallengeDealAtTerminal(TerminalGame):
    """One challenge deal at the terminal: the day's bots answer through the
    service's decider, and there is no undo and no claim (a take-back would
    show how the bots answer one card before you choose another)."""

    def __init__(self, service: ChallengeService, play: DealPlay, console: Console) -> None:
        super().__init__(play.game, {}, console, echo_answers=not sys.stdin.isatty())
        self.service = service
        self.play = play

    def run(self) -> bool:
        try:
            self.publish(this_hand_only(self.game.log[:]))
            while not deal_over(self.game):
                events = self.take_turn()
                self.publish(this_hand_only(events))
                self.play, _ = self.service.save(self.play, [])
        except QuitGame:
            return False
        return True

    def bot_turn(self, seat: int) -> list[Event]:
        return bots_answer(self.game, bot_levels(self.play.day.level), self.service.decide)

    def undo(self) -> None:
        self.console.print(
            Text("No undo in the daily challenge: every player's first card stands.", style="red")
        )

    def claim(self, words: list[str]) -> None:
        self.console.print(
            Text("No claims in the daily challenge: play the hand out.", style="red")
        )


def challenge(
    db: Annotated[
        str | None,
        typer.Option(help="The database `spades serve` keeps games in (default: its SQLite file)."),
    ] = None,
    name: Annotated[
        str | None, typer.Option(help="The name the leaderboard shows (kept for this terminal).")
    ] = None,
) -> None:
    """Play today's daily challenge (UTC) in the terminal: the same deals and
    bots as the web's, each one hand from 0-0, entered on the leaderboard."""
    from spades.challenge.service import ChallengeRefused, ChallengeService
    from spades.storage import default_database_url, owner_key

    from .db import open_repository

    url = db or default_database_url()
    repository = open_repository(db)
    console = Console(highlight=False, soft_wrap=True)
    service = ChallengeService(
        repository.challenge,
        level=default_level(),
        decide=InlineDecider(),
        clock=lambda: CLOCK(),
        run_in_background=lambda work: work(),  # the pars: this command waits for them
    )
    owner = owner_key(terminal_token(url))
    try:
        if name is not None:
            service.set_name(owner, name)
        today = service.today()
        status = service.status(owner, today)
        if status.name is None:
            service.set_name(owner, console.input("The name the leaderboard shows: "))
            status = service.status(owner, today)
        console.print(
            f"Daily challenge of {today.isoformat()} (UTC), {status.day.deals} deals against "
            f"{status.day.level} bots, as {status.name}. Commitment: {status.day.commitment}"
        )
        while (number := service.status(owner, today).next_deal) is not None:
            play, _ = service.start(owner, today, number)
            console.rule(f"Deal {number} of {status.day.deals}")
            if not ChallengeDealAtTerminal(service, play, console).run():
                console.print(
                    f"Deal {number} stays where it is: `spades challenge` goes on with it."
                )
                return
            print_deal_results(console, service, owner, today, number)
        board = service.leaderboard(owner, today)
        table = Table(title=f"Leaderboard of {today.isoformat()}", title_justify="left")
        for heading in ("", "name", "deals", "%", "vs par"):
            table.add_column(heading)
        for line in board.lines:
            percent = "-" if line.percent is None else f"{line.percent:.1f}%"
            table.add_row(
                str(line.rank), Text(line.name), str(line.deals), percent, f"{line.versus_par:+d}"
            )
        console.print(table)
    except ChallengeRefused as refused:
        errors.print(refused.message, style="red", markup=False, highlight=False)
        raise typer.Exit(1) from None
    finally:
        repository.close()


def print_deal_results(
    console: Console, service: ChallengeService, owner: str, day: Any, number: int
) -> None:
    results = service.results(owner, day, number)
    yours, mine = results.yours, results.your_score
    if yours is None or mine is None:
        return
    against = (
        f"{mine.matchpoints} of {mine.top} matchpoints ({mine.percent:.1f}%)"
        if mine.percent is not None
        else "the first to finish this deal"
    )
    par = (
        "par still being played"
        if results.par is None
        else f"par {results.par.score:+d} ({yours.score - results.par.score:+d})"
    )
    console.print(f"Deal {number}: you {yours.score:+d}; {against}; {par}.")


# ---------------------------------------------------------------- the arena


def arena_on_challenge(player: str, day_text: str, db: str | None, json_output: bool) -> None:
    """Score ``player`` at South on a closed day's deals against its field and
    par: its result on each deal counted as one more result against the people's."""
    try:
        spec = parse_player(player)
        day = parse_day(day_text)
    except (PlayerSpecError, ValueError) as error:
        raise typer.BadParameter(str(error), param_hint="A / --challenge") from None
    from .db import open_repository

    repository = open_repository(db)
    try:
        kept = repository.challenge.day(day)
        if kept is None:
            raise typer.BadParameter(
                f"no challenge was played on {day.isoformat()} in this database",
                param_hint="--challenge",
            )
        if not is_closed(kept.day, CLOCK()):
            raise typer.BadParameter(
                f"the challenge of {day.isoformat()} is still open: its deals stay secret until midnight UTC",
                param_hint="--challenge",
            )
        field = repository.challenge.field([day])
        pars = repository.challenge.pars(day)
        rows: list[dict[str, Any]] = []
        for number in range(1, kept.deals + 1):
            bot = make_player(spec, deal_seed(kept.seed, number))
            try:
                game = play_with_south(
                    kept.seed, number, bot, spec.text, kept.level, InlineDecider()
                )
            finally:
                bot.close()
            score = north_south_score(game)
            others = [result.score for result in field if result.deal == number]
            rows.append(
                {
                    "deal": number,
                    "score": score,
                    "field": len(others),
                    "matchpoints": matchpoints(score, others),
                    "percent": None
                    if not others
                    else 100.0 * matchpoints(score, others) / len(others),
                    "par": pars[number].score if number in pars else None,
                }
            )
        summary = {
            "player": spec.text,
            "day": day.isoformat(),
            "deals": rows,
            "percent": mean_percent(row["percent"] for row in rows),
            "versus_par": sum(row["score"] - row["par"] for row in rows if row["par"] is not None),
            "people": len({result.owner for result in field}),
        }
    finally:
        repository.close()
    if json_output:
        print(json.dumps(summary, separators=(",", ":")))
        return
    print_arena_challenge(Console(), summary)


def print_arena_challenge(console: Console, summary: dict[str, Any]) -> None:
    table = Table(
        title=f"{summary['player']} at South on the challenge of {summary['day']}, against "
        f"{summary['people']} people",
        title_justify="left",
    )
    for heading in ("deal", "score", "par", "results", "matchpoints", "%"):
        table.add_column(heading, justify="right")
    for row in summary["deals"]:
        table.add_row(
            str(row["deal"]),
            f"{row['score']:+d}",
            "-" if row["par"] is None else f"{row['par']:+d}",
            str(row["field"]),
            f"{row['matchpoints']:g}",
            "-" if row["percent"] is None else f"{row['percent']:.1f}%",
        )
    console.print(table)
    percent = summary["percent"]
    console.print(
        f"Against the people: {'-' if percent is None else f'{percent:.1f}%'} of the matchpoints; "
        f"against the par: {summary['versus_par']:+d} points.",
        highlight=False,
    )


__all__: Sequence[str] = ["arena_on_challenge", "challenge"]
