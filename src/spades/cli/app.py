"""The ``spades`` command line."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from spades.arena import game_seeds, play_game, seat_bots
from spades.bots import BOT_LEVELS
from spades.challenge.deals import DealMark, deal_mark, verify_deal_record
from spades.core import (
    SEATS,
    Game,
    RecordError,
    Rule,
    game_from_record,
    game_to_record,
    read_record_spans,
    record_line,
    verify_commitment,
)
from spades.core.record import record_to_json
from spades.solver.claims import held_claim_problems

from .analyze import analyze
from .arena import arena, expand_bare_ray
from .bot import bot_command
from .challenge import challenge
from .db import db_app
from .options import RulesOption, read_rules
from .play import play
from .serve import serve
from .solve import solve
from .summary import print_game_summary

app = typer.Typer(
    help="Classic partnership Spades: play, simulate bot games, replay records.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()
errors = Console(stderr=True, soft_wrap=True)  # never break an error message mid-line

app.command()(play)
app.command()(arena)
app.command()(serve)
app.command(name="bot")(bot_command)
app.command()(solve)
app.command()(analyze)
app.command()(challenge)
app.add_typer(db_app, name="db")


@app.command()
def simulate(
    games: Annotated[int, typer.Option("--games", "-n", min=1, help="How many full games.")] = 1,
    seed: Annotated[int, typer.Option(help="Master seed: the same seed gives the same games.")] = 0,
    out: Annotated[
        Path | None, typer.Option(help="Write one record a line (JSON lines) to this file.")
    ] = None,
    bot: Annotated[
        str, typer.Option(help=f"Bot for every seat: {', '.join(BOT_LEVELS)}.")
    ] = "random",
    rules: RulesOption = "cardcouch",
) -> None:
    """Play full games between built-in bots and write their records."""
    if bot not in BOT_LEVELS:
        raise typer.BadParameter(
            f"unknown bot {bot!r} (known: {', '.join(BOT_LEVELS)})", param_hint="--bot"
        )
    game_rules = read_rules(rules)
    wins = [0, 0]
    hands = 0
    sink = out.open("w", encoding="utf-8") if out else sys.stdout
    try:
        for game_seed in game_seeds(seed, games):
            game = play_game(
                seat_bots(dict.fromkeys(SEATS, bot), game_seed), seed=game_seed, rules=game_rules
            )
            assert game.outcome is not None
            wins[game.outcome.winner] += 1
            hands += len(game.history)
            sink.write(record_to_json(game_to_record(game)) + "\n")
    finally:
        if out:
            sink.close()
    if out:
        console.print(
            f"{games} game(s), {hands} hands: NS won {wins[0]}, EW won {wins[1]}. "
            f"Records written to {out}."
        )


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A record, a JSON list of records, or JSON lines.")],
    tricks: Annotated[bool, typer.Option("--tricks", help="Show every trick, too.")] = False,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="Only check; print problems.")
    ] = False,
    seed: Annotated[
        int | None,
        typer.Option(help="The seed the web game revealed at the end (default: the record's)."),
    ] = None,
    salt: Annotated[
        str | None, typer.Option(help="The salt revealed with it (default: the record's).")
    ] = None,
    commitment: Annotated[
        str | None,
        typer.Option(
            help="The commitment the page showed from the first deal: check that it is the "
            'SHA-256 of "SEED:SALT" and that SEED deals every hand of the record.'
        ),
    ] = None,
) -> None:
    """Re-validate every record in FILE and print a readable summary.

    Every bid, card, trick and score is re-played through the engine, and every
    claim that ended a hand is checked double dummy. Exits with status 1 if any
    record is broken, naming the game, hand, trick and rule at fault. A record
    whose deals were committed to is checked against its commitment;
    --commitment (with --seed and --salt as revealed) checks them against the
    values you were shown instead of the record's.
    """
    check_deals = seed is not None or salt is not None or commitment is not None
    try:
        text = file.read_text(encoding="utf-8")
    except OSError as error:
        errors.print(f"[red]Cannot read {file}: {error.strerror}[/red]")
        raise typer.Exit(2) from None
    broken = checked = 0
    try:
        for index, span in enumerate(read_record_spans(text), start=1):
            line, record = span.line, span.record
            checked += 1
            try:
                game = game_from_record(record)
            except RecordError as error:
                broken += 1
                # A pretty-printed record is at fault on the line of what it refuses.
                at = record_line(text, span, error.path)
                where = "" if at == line else f" at line {at}"
                errors.print(
                    f"game {index} (line {line}) is broken{where}: {error} (rule: {error.rule})",
                    style="red",
                    markup=False,
                    highlight=False,
                )
                continue
            claim_problems = held_claim_problems(game)
            if claim_problems:  # the engine cannot ask whether a claim held: the solver can
                broken += 1
                for where, why in claim_problems:
                    errors.print(
                        f"game {index} (line {line}) is broken: {where}: {why} (rule: claim)",
                        style="red",
                        markup=False,
                        highlight=False,
                    )
                continue
            if check_deals:
                try:
                    mark = deal_mark(record) if isinstance(record, dict) else None
                    verified = (
                        verify_fair_deals(game, seed=seed, salt=salt, digest=commitment)
                        if mark is None
                        else verify_challenge_deal(
                            game, mark, seed=seed, salt=salt, digest=commitment
                        )
                    )
                except RecordError as error:
                    broken += 1
                    errors.print(
                        f"game {index} (line {line}): the deals do not check out: {error}",
                        style="red",
                        markup=False,
                        highlight=False,
                    )
                    continue
                console.print(
                    f"game {index}: {verified}", style="green", highlight=False, soft_wrap=True
                )
            if not quiet:
                print_game_summary(console, game, index, show_tricks=tricks)
    except RecordError as error:  # a line that is not JSON
        broken += 1
        errors.print(f"{file}: {error}", style="red", markup=False, highlight=False)
    if checked == 0 and broken == 0:
        errors.print(f"[red]{file} holds no record[/red]")
        raise typer.Exit(1)
    status = "[green]all valid[/green]" if not broken else f"[red]{broken} broken[/red]"
    console.print(f"{checked} record(s) checked: {status}")
    if broken:
        raise typer.Exit(1)


def verify_fair_deals(game: Game, *, seed: int | None, salt: str | None, digest: str | None) -> str:
    """Check ``game``'s deals against a revealed seed and the commitment shown at
    the start (each defaulting to what the record holds); says what was verified."""
    seeding = game.seeding
    seed = game.seed if seed is None else seed
    if seeding is not None and not seeding.is_practice:
        salt = seeding.salt if salt is None else salt
        digest = seeding.commitment if digest is None else digest
    if seed is None or salt is None or digest is None:
        missing = "the seed" if seed is None else "--salt" if salt is None else "--commitment"
        raise RecordError(f"nothing to check against: give {missing}", rule=Rule.COMMITMENT)
    deals = game.deals()
    verify_commitment(deals, seed=seed, salt=salt, digest=digest)
    return (
        f'deals verified: the SHA-256 of "{seed}:{salt}" is the commitment {digest}, and '
        f"seed {seed} deals all {len(deals)} hands of the record"
    )


def verify_challenge_deal(
    game: Game, mark: DealMark, *, seed: int | None, salt: str | None, digest: str | None
) -> str:
    """Check a daily challenge deal against its day's revealed seed and salt
    (its record holds neither: they would deal the whole day) and the
    commitment shown (default: the one the record names)."""
    if seed is None or salt is None:
        missing = "--seed" if seed is None else "--salt"
        raise RecordError(
            f"a challenge deal is checked against its day's seed and salt: give {missing} "
            "as the page showed them once the day closed",
            rule=Rule.COMMITMENT,
        )
    return verify_deal_record(game, mark, seed=seed, salt=salt, digest=digest)


def main() -> None:
    """Entry point of the ``spades`` console script."""
    app(args=expand_bare_ray(sys.argv[1:]))


if __name__ == "__main__":
    main()
