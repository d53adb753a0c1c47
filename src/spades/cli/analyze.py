"""``spades analyze RECORD``: every play of a game against double-dummy best play,
or (``--by-information``) against what its player could know.

The reviews themselves live in ``spades.analysis``; this module picks the game
and hands, and prints each hand's mistakes in words with per-seat totals.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from spades.analysis import HandReview, InformedReview, analyze_hand, review_by_information
from spades.analysis.information import DEALS
from spades.core import bid_name, is_nil
from spades.core.seats import SEAT_LETTERS, SEAT_NAMES

from .solve import fail, hand_states, load_game

console = Console()


def analyze(
    record: Annotated[
        Path, typer.Argument(help="A record file (JSON, a JSON list, or JSON lines).")
    ],
    game: Annotated[int, typer.Option(help="Which game of the file (from 1).")] = 1,
    hand: Annotated[
        int | None, typer.Option(help="Only this hand of the game (from 1); default every hand.")
    ] = None,
    from_trick: Annotated[
        int, typer.Option(help="Review from this trick on (1-13); earlier tricks count as played.")
    ] = 1,
    by_information: Annotated[
        bool,
        typer.Option(
            "--by-information",
            help="Judge each card by what its player could know: over deals consistent with "
            "that seat's view, not only the real one. The double-dummy verdict is shown "
            "beside it.",
        ),
    ] = False,
    deals: Annotated[
        int, typer.Option(min=1, help="With --by-information: deals sampled for each play.")
    ] = DEALS,
    seed: Annotated[
        int, typer.Option(help="With --by-information: seed of the sampled deals.")
    ] = 0,
) -> None:
    """Compare each seat's plays with double-dummy best play, hand by hand.

    A card that costs its side a trick (best play by all from then on), its
    contract or a Nil is named with a card that was better; each hand ends with
    the tricks every seat's mistakes cost. With --by-information a card is a
    mistake only when another did better on average over the deals its player
    could picture, so a guess that merely lost is not blamed.
    """
    states = hand_states(load_game(record, game))
    if hand is not None and not 1 <= hand <= len(states):
        fail(f"--hand {hand}: game {game} has {len(states)} hand(s) with bids")
    if not 1 <= from_trick <= 13:
        fail(f"--from-trick is 1 to 13, not {from_trick}")
    numbers = [hand] if hand is not None else list(range(1, len(states) + 1))
    for number in numbers:
        state = states[number - 1]
        if len(state.bid_order) < 4:
            continue
        if by_information:
            print_informed_review(
                review_by_information(
                    state, number=number, deals=deals, seed=seed, from_trick=from_trick
                )
            )
        else:
            print_review(analyze_hand(state, number=number, from_trick=from_trick))


def _bids(bids: tuple[int | None, ...]) -> str:
    return ", ".join(
        f"{SEAT_LETTERS[seat]} {'-' if bid is None else bid_name(bid)}"
        for seat, bid in enumerate(bids)
    )


def print_review(review: HandReview) -> None:
    bids = _bids(review.bids)
    start = (
        "" if review.start is None else f"; best play: NS {review.start[0]}, EW {review.start[1]}"
    )
    console.print(
        f"[bold]Hand {review.number}[/bold] (bids {bids}{start}; "
        f"from trick {review.first_trick}, {review.seconds:.2f} s)",
        highlight=False,
    )
    mistakes = review.mistakes
    if mistakes:
        for play in mistakes:
            console.print(f"  trick {play.trick:>2}: {play.explanation}", highlight=False)
    else:
        console.print("  no play lost anything", highlight=False)
    notes = []
    if review.unjudged:
        notes.append(f"{review.unjudged} play(s) too slow to solve were not judged")
    judged_from = dict(review.nil_from)
    for seat, bid in enumerate(review.bids):
        if bid is None or not is_nil(bid):  # a blind Nil is a Nil too
            continue
        if judged_from.get(seat, review.first_trick) > review.first_trick:
            notes.append(
                f"{SEAT_NAMES[seat]}'s {bid_name(bid)} judged from trick {judged_from[seat]}"
            )
        elif seat not in judged_from:
            notes.append(f"{SEAT_NAMES[seat]}'s {bid_name(bid)} not judged")
    if notes:
        console.print("  (" + "; ".join(notes) + ")", highlight=False)
    table = Table(show_edge=False, pad_edge=False, show_header=True)
    table.add_column("tricks lost")
    for seat in range(4):
        table.add_column(SEAT_LETTERS[seat], justify="right")
    table.add_row("", *(str(n) for n in review.tricks_lost))
    console.print(table)


def print_informed_review(review: InformedReview) -> None:
    first = review.plays[0].trick if review.plays else 13
    console.print(
        f"[bold]Hand {review.number}[/bold] (bids {_bids(review.bids)}; by information, "
        f"up to {review.deals} deals a play; from trick {first}, {review.seconds:.1f} s)",
        highlight=False,
    )
    mistakes = review.mistakes
    for play in mistakes:
        console.print(f"  trick {play.trick:>2}: {play.explanation}", highlight=False)
        if play.double_dummy is not None:
            verdict = (
                "agrees" if play.double_dummy.is_mistake else "no loss against the real layout"
            )
            console.print(f"            double dummy: {verdict}", highlight=False)
    if not mistakes:
        console.print("  no play was a mistake on what its player could know", highlight=False)
    for play in review.only_double_dummy:
        assert play.double_dummy is not None
        console.print(
            f"  trick {play.trick:>2}: double dummy only, not a mistake on what "
            f"{SEAT_NAMES[play.seat]} could know: {play.double_dummy.explanation}",
            highlight=False,
        )
    if review.unjudged:
        console.print(
            f"  ({review.unjudged} play(s) with a choice too costly to weigh by information "
            "were not judged)",
            highlight=False,
        )
    table = Table(show_edge=False, pad_edge=False, show_header=True)
    table.add_column("tricks lost on average")
    for seat in range(4):
        table.add_column(SEAT_LETTERS[seat], justify="right")
    table.add_row("", *(f"{n:.1f}" for n in review.tricks_lost))
    console.print(table)
