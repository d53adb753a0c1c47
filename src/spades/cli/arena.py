"""``spades arena A B``: a seeded, reproducible match between two partnerships.

The match itself lives in ``spades.arena``; this module reads the options,
shows progress, writes the records and prints the summary.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Annotated, Any, Final, Protocol, TypeVar

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from spades.arena.cluster import LOCAL, RayUnavailable, ray_runner
from spades.arena.gauntlet import Gauntlet, run_gauntlet
from spades.arena.match import MatchSetup, Runner, run_duplicate, run_games
from spades.arena.players import DEFAULT_TIMEOUT, PlayerSpec, PlayerSpecError, parse_player
from spades.arena.report import DuplicateReport, GamesReport
from spades.bots import BOT_LEVELS
from spades.bots.strangers import STRANGERS
from spades.core import Rules, record_to_json

from .challenge import arena_on_challenge
from .options import RulesOption, read_rules

DEFAULT_COUNT: Final = 100
GAUNTLET_WIDTH: Final = 170
"""Columns of the gauntlet's table when it is written to a file or a pipe."""
PLAYER_HELP: Final = (
    f"a bot level ({', '.join(BOT_LEVELS)}), a stranger ({', '.join(STRANGERS)}) "
    "or 'cmd:PROGRAM [ARGS]' for an external bot"
)

errors = Console(stderr=True, soft_wrap=True)  # never break an error message mid-line


def arena(
    a: Annotated[str, typer.Argument(help="The first partnership: " + PLAYER_HELP + ".")],
    b: Annotated[
        str | None,
        typer.Argument(help="The second partnership, the same way (none with --gauntlet)."),
    ] = None,
    games: Annotated[
        int | None,
        typer.Option(
            "--games",
            "-n",
            min=1,
            help=f"Full games to play (default {DEFAULT_COUNT}); the sides swap seats every game.",
        ),
    ] = None,
    deals: Annotated[
        int | None,
        typer.Option(min=1, help=f"Deals to play with --duplicate (default {DEFAULT_COUNT})."),
    ] = None,
    duplicate: Annotated[
        bool,
        typer.Option(
            "--duplicate",
            help="Play each deal twice, the sides swapped, one hand from 0-0: luck cancels.",
        ),
    ] = False,
    gauntlet: Annotated[
        bool,
        typer.Option(
            "--gauntlet",
            help="Play A against each stranger (bots that share no code with ours: "
            f"{', '.join(STRANGERS)}), --deals duplicate deals and --games full games "
            f"each (default {DEFAULT_COUNT} of both), and print one table.",
        ),
    ] = False,
    seed: Annotated[int, typer.Option(help="Master seed: every deal and bot derive from it.")] = 0,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            "-j",
            min=1,
            help="Processes to play in (default 1; same results for any). "
            "With --ray and no address: the CPUs of the Ray started here (default all).",
        ),
    ] = None,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            metavar="[ADDRESS]",
            help="Play the games or deals as Ray tasks (Ray is the cluster extra of spades): "
            "alone, on a Ray started here for the run; with an address (auto, "
            "ray://head:10001, head:6379), on that cluster. Same results as --workers 1.",
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(help="Write every game's (or table's) record here, one a line, in order."),
    ] = None,
    json_output: Annotated[
        bool, typer.Option("--json", help="Print the summary as one line of JSON.")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    timeout: Annotated[
        float, typer.Option(min=0.001, help="Seconds an external bot may take per move.")
    ] = DEFAULT_TIMEOUT,
    think: Annotated[
        float | None,
        typer.Option(min=0.001, help="Seconds per decision for the search levels (hard, expert)."),
    ] = None,
    worlds: Annotated[
        int | None,
        typer.Option(
            min=1,
            help="Deals the search levels search per card, ignoring the clock (and --think): "
            "results depend on --seed alone, on any machine. Bids search proportionally more.",
        ),
    ] = None,
    rules: RulesOption = "cardcouch",
    challenge: Annotated[
        str | None,
        typer.Option(
            "--challenge",
            metavar="DATE",
            help="Score A at South on the daily challenge of DATE (YYYY-MM-DD, a closed day), "
            "with that day's bots at the other seats, against the people who played it.",
        ),
    ] = None,
    db: Annotated[
        str | None,
        typer.Option(help="With --challenge: the database `spades serve` keeps the challenge in."),
    ] = None,
) -> None:
    """Play a match between two partnerships of bots and report who is stronger.

    A plays North-South in even games and East-West in odd ones. With
    --duplicate every deal is played at two tables with the same cards, A at
    North-South at the first and East-West at the second.
    """
    if challenge is not None:
        if b is not None or duplicate or gauntlet:
            raise typer.BadParameter(
                "a challenge day names its own seats: give one player", param_hint="--challenge"
            )
        arena_on_challenge(a, challenge, db, json_output)
        return
    game_rules = read_rules(rules)  # refused before any worker starts
    with _runner(ray, workers) as runner:
        _arena(a, b, games, deals, duplicate, gauntlet, seed, workers or 1, runner, out,
               json_output, quiet, timeout, think, worlds, game_rules)  # fmt: skip


def _arena(
    a: str,
    b: str | None,
    games: int | None,
    deals: int | None,
    duplicate: bool,
    gauntlet: bool,
    seed: int,
    workers: int,
    runner: Runner | None,
    out: Path | None,
    json_output: bool,
    quiet: bool,
    timeout: float,
    think: float | None,
    worlds: int | None,
    game_rules: Rules,
) -> None:
    if gauntlet:
        if b is not None or duplicate:
            raise typer.BadParameter(
                "the gauntlet names its own opponents and plays both deals and games: "
                "give one player, and --deals / --games for the sizes",
                param_hint="--gauntlet",
            )
        side_a = _player(a, "A")
        setup = MatchSetup(
            side_a,
            side_a,
            seed=seed,
            timeout=timeout,
            think=think,
            worlds=worlds,
            rules=game_rules,
        )
        opponents = tuple(parse_player(name) for name in STRANGERS)
        plan = Gauntlet(
            setup,
            opponents,
            deals=DEFAULT_COUNT if deals is None else deals,
            games=DEFAULT_COUNT if games is None else games,
        )

        def feed(
            results: Iterator[Any], add: Callable[[Any], None], label: str, count: int
        ) -> None:
            _play(results, add, label, count, None, quiet)

        summary = run_gauntlet(plan, workers=workers, feed=feed, runner=runner)
        if json_output:
            print(json.dumps(summary, separators=(",", ":")))
        else:
            console = Console()
            if not console.is_terminal:  # a file or a pipe: keep each row on its lines
                console = Console(width=GAUNTLET_WIDTH)
            print_gauntlet(console, summary)
        return
    if b is None:
        raise typer.BadParameter("name the second partnership (or use --gauntlet)", param_hint="B")
    side_a, side_b = _player(a, "A"), _player(b, "B")
    count = _match_size(games, deals, duplicate)
    setup = MatchSetup(
        side_a,
        side_b,
        seed=seed,
        timeout=timeout,
        think=think,
        worlds=worlds,
        keep_records=out is not None,
        rules=game_rules,
    )
    report: GamesReport | DuplicateReport
    if duplicate:
        report = DuplicateReport(setup)
        results = run_duplicate(setup, count, workers=workers, runner=runner)
        _play(results, report.add, "deals", count, out, quiet)
    else:
        report = GamesReport(setup)
        played = run_games(setup, count, workers=workers, runner=runner)
        _play(played, report.add, "games", count, out, quiet)
    summary = report.summary()
    if json_output:
        print(json.dumps(summary, separators=(",", ":")))
    else:
        print_summary(Console(), summary)


# ---------------------------------------------------------------- the options


RAY_ADDRESS_HINTS: Final = ("auto", "local")


def expand_bare_ray(args: list[str]) -> list[str]:
    """``--ray`` with no address (last, or before another option or a player
    name) becomes ``--ray local``: the command line parser wants a value.

    >>> expand_bare_ray(["arena", "normal", "random", "--ray", "--deals", "8"])
    ['arena', 'normal', 'random', '--ray', 'local', '--deals', '8']
    >>> expand_bare_ray(["arena", "--ray", "ray://head:10001", "normal", "random"])
    ['arena', '--ray', 'ray://head:10001', 'normal', 'random']
    """
    expanded = list(args)
    for position, word in enumerate(args):
        if word == "--":
            break
        if word == "--ray":
            following = args[position + 1] if position + 1 < len(args) else None
            if following is None or not _looks_like_address(following):
                expanded.insert(position + 1 + (len(expanded) - len(args)), LOCAL)
    return expanded


def _looks_like_address(word: str) -> bool:
    return word in RAY_ADDRESS_HINTS or (":" in word and not word.startswith(("-", "cmd:")))


@contextmanager
def _runner(address: str | None, workers: int | None) -> Iterator[Runner | None]:
    """Ray's runner for ``--ray``, or None: this machine's processes play."""
    if address is None:
        yield None
        return
    if address != LOCAL and workers is not None:
        raise typer.BadParameter(
            "a Ray cluster runs on its own CPUs: --workers only sizes the Ray started "
            "here (--ray without an address)",
            param_hint="--workers",
        )
    try:
        with ray_runner(address, cpus=workers) as runner:
            yield runner
    except RayUnavailable as error:
        errors.print(f"arena: {error}", style="red", markup=False, highlight=False)
        raise typer.Exit(2) from None


def _player(text: str, name: str) -> PlayerSpec:
    try:
        return parse_player(text)
    except PlayerSpecError as error:
        raise typer.BadParameter(str(error), param_hint=name) from None


def _match_size(games: int | None, deals: int | None, duplicate: bool) -> int:
    """How many games (or duplicate deals) to play; mixed-up options are refused."""
    if duplicate:
        if games is not None:
            raise typer.BadParameter(
                "a duplicate match plays deals, not games: use --deals", param_hint="--games"
            )
        return deals or DEFAULT_COUNT
    if deals is not None:
        raise typer.BadParameter(
            "--deals needs --duplicate (a match of full games takes --games)",
            param_hint="--deals",
        )
    return games or DEFAULT_COUNT


# ------------------------------------------------------------ output on the way


class _Played(Protocol):
    @property
    def records(self) -> tuple[dict[str, Any], ...]: ...


Played = TypeVar("Played", bound=_Played)


def _play(
    results: Iterator[Played],
    add: Callable[[Played], None],
    label: str,
    count: int,
    out: Path | None,
    quiet: bool,
) -> None:
    """Take each game's (or deal's) result as it comes: count it, write its records."""
    with _records_file(out) as sink, _progress(label, count, quiet) as advance:
        try:
            for result in results:
                add(result)
                _write_records(sink, result.records)
                advance()
        except RuntimeError as error:  # a game that would not end, a worker that died
            errors.print(f"arena stopped: {error}", style="red", markup=False, highlight=False)
            raise typer.Exit(1) from None
        except KeyboardInterrupt:  # the records written so far stay readable
            errors.print("arena interrupted", style="red")
            raise typer.Exit(130) from None


@contextmanager
def _records_file(path: Path | None) -> Iterator[IO[str] | None]:
    if path is None:
        yield None
        return
    try:
        sink = path.open("w", encoding="utf-8")
    except OSError as error:
        errors.print(f"Cannot write {path}: {error.strerror}", style="red", markup=False)
        raise typer.Exit(2) from None
    with sink:
        yield sink


def _write_records(sink: IO[str] | None, records: Iterable[dict[str, Any]]) -> None:
    if sink is not None:
        for record in records:
            sink.write(record_to_json(record) + "\n")


@contextmanager
def _progress(label: str, total: int, quiet: bool) -> Iterator[Callable[[], None]]:
    """A progress bar with an ETA on stderr, yielding the function that advances it.

    Only for a person watching: off with --quiet or when stderr is not a
    terminal, so logs and pipes get no control codes.
    """
    console = Console(stderr=True)
    progress = Progress(
        TextColumn(f"[bold]{label}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=console,
        disable=quiet or not console.is_terminal,
        transient=True,
    )
    task = progress.add_task(label, total=total)
    with progress:
        yield lambda: progress.advance(task)


# ------------------------------------------------------------------ summary


def print_summary(console: Console, summary: dict[str, Any]) -> None:
    """The summary as a table of the two sides, then the headline figure."""
    sides = summary["sides"]
    table = Table(
        title=_title(summary),
        title_justify="left",
        caption="(in brackets: 95% confidence intervals)",
        caption_justify="left",
    )
    table.add_column("", no_wrap=True)
    for name in ("A", "B"):
        table.add_column(name, justify="right", no_wrap=True)

    def row(label: str, show: Callable[[str], str]) -> None:
        table.add_row(label, *(show(name) for name in ("A", "B")))

    if summary["mode"] == "games":
        row("games won", lambda name: str(summary["wins"][name]))
        row("win rate", lambda name: _rate_with_interval(summary["win_rate"][name]))
    else:
        row("points per deal", lambda name: _number_with_interval(summary["points"][name]))
        row(
            "bag-adjusted",
            lambda name: _number_with_interval(summary["points_bag_adjusted"][name]),
        )
    row("hands played", lambda name: str(sides[name]["hands"]))
    row("set rate", lambda name: _counted_rate(sides[name]["sets"], sides[name]["contracts"]))
    row("Nil bids", lambda name: str(sides[name]["nil_bids"]))
    row(
        "Nil success", lambda name: _counted_rate(sides[name]["nils_made"], sides[name]["nil_bids"])
    )
    row("bags per hand", lambda name: _number(sides[name]["bags_per_hand"]))
    row("mean table bid", lambda name: _number(sides[name]["mean_table_bid"]))
    row("forfeits", lambda name: str(sides[name]["forfeits"]))
    row("decision p50 / p95", lambda name: _decision_times(sides[name]))
    console.print(table)
    console.print(_headline(summary), highlight=False)


def _title(summary: dict[str, Any]) -> str:
    if summary["mode"] == "games":
        size = f"{summary['games']} games ({summary['hands']} hands)"
    else:
        size = f"{summary['deals']} duplicate deals"
    players = summary["players"]
    # The players are named in the title, not the column heads: a program's
    # command line can be long, and would squeeze the table.
    return escape(f"A = {players['A']}\nB = {players['B']}\n{size}, seed {summary['seed']}")


def _headline(summary: dict[str, Any]) -> str:
    if summary["mode"] == "games":
        return f"Mean final margin, A minus B: {_points(summary['margin'])}."
    return (
        f"A minus B per deal: {_points(summary['difference'])}, over {summary['deals']} deal pairs;"
        f"\nbag-adjusted (each bag charged its share of the penalty): "
        f"{_points(summary['difference_bag_adjusted'])}."
    )


def print_gauntlet(console: Console, summary: dict[str, Any]) -> None:
    """One row per stranger: the duplicate edge raw and bag-adjusted, the games
    won, and how the player bid and how long it thought against that stranger."""
    player = summary["player"]
    table = Table(
        title=escape(
            f"{player} against the strangers: {summary['deals']} duplicate deals and "
            f"{summary['games']} games each, seed {summary['seed']}"
        ),
        title_justify="left",
        caption=(
            f"Points are {player} minus the stranger per deal (bag-adjusted: each bag "
            "charged its share of the penalty); rates and times are "
            f"{player}'s over every hand it played; 95% confidence intervals in brackets."
        ),
        caption_justify="left",
    )
    for heading in (
        "opponent",
        "duplicate, raw",
        "bag-adjusted",
        "games won",
        "set rate (theirs)",
        "Nil made",
        "bags/hand",
        "table bid",
        "decision p50 / p95",
    ):
        table.add_column(
            heading, justify="left" if heading == "opponent" else "right", no_wrap=True
        )
    for row in summary["opponents"]:
        ours, theirs = row["sides"]["A"], row["sides"]["B"]
        duplicate, games = row.get("duplicate"), row.get("games")
        # Each figure above its interval: the table stays narrow enough to read.
        table.add_row(
            escape(row["opponent"]),
            _stacked(_number_with_interval(duplicate["difference"])) if duplicate else "-",
            _stacked(_number_with_interval(duplicate["difference_bag_adjusted"]))
            if duplicate
            else "-",
            _stacked(_rate_with_interval(games["win_rate"]["A"])) if games else "-",
            f"{_rate(ours['set_rate'])} ({_rate(theirs['set_rate'])})",
            _counted_rate(ours["nils_made"], ours["nil_bids"]),
            _number(ours["bags_per_hand"]),
            _number(ours["mean_table_bid"]),
            _decision_times(ours),
        )
    console.print(table)


def _stacked(shown: str) -> str:
    """``+12.3 (+1.0 to +20.0)`` as the figure over its interval."""
    return shown.replace(" (", "\n(", 1)


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value:.1%}"


def _decision_times(side: dict[str, Any]) -> str:
    p50, p95 = side["decision_p50_s"], side["decision_p95_s"]
    return "-" if p50 is None else f"{_duration(p50)} / {_duration(p95)}"


def _duration(seconds: float) -> str:
    """Microseconds for the rule-based bots, milliseconds or seconds for searches."""
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.0f} ms"
    return f"{seconds:.2f} s"


def _points(estimate: dict[str, float | None]) -> str:
    """``+12.3 points (95% CI -5.1 to +29.7)``."""
    shown = f"{_number(estimate['value'], signed=True)} points"
    if estimate["low"] is None:
        return shown
    low, high = _number(estimate["low"], signed=True), _number(estimate["high"], signed=True)
    return f"{shown} (95% CI {low} to {high})"


def _number(value: float | None, signed: bool = False) -> str:
    if value is None:
        return "-"
    return f"{value:+.1f}" if signed else f"{value:.2f}"


def _number_with_interval(estimate: dict[str, float | None]) -> str:
    shown = f"{_number(estimate['value'], signed=True)}"
    if estimate["low"] is None:
        return shown
    low, high = _number(estimate["low"], signed=True), _number(estimate["high"], signed=True)
    return f"{shown} ({low} to {high})"


def _rate_with_interval(estimate: dict[str, float]) -> str:
    return f"{estimate['value']:.1%} ({estimate['low']:.1%} to {estimate['high']:.1%})"


def _counted_rate(part: int, whole: int) -> str:
    return f"{part / whole:.1%} ({part}/{whole})" if whole else "-"
