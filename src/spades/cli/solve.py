"""``spades solve``: the double-dummy value of every legal card in a position.

The position comes from a game record (``RECORD --game G --hand H --trick T
[--card C]``: before card C of trick T) or from a written deal (``--deal
"N:AS KS ... E:... S:... W:..." --leader S [--broken]``, any equal number of
cards a hand, so an endgame too). Bad input exits with status 2 and says why.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.table import Table

from spades.core import (
    Game,
    RecordError,
    bid_name,
    game_from_record,
    is_nil,
    read_record_spans,
    record_line,
)
from spades.core.cards import CARD_NAMES, cards_in, sorted_for_display
from spades.core.hand import HandState
from spades.core.seats import SEAT_LETTERS, SEAT_NAMES, TEAM_LONG_NAMES, Seat, parse_seat
from spades.solver import SolverError, card_values, make_position, nil_card_values, parse_deal
from spades.solver.position import replay

console = Console()
errors = Console(stderr=True, soft_wrap=True)


def fail(message: str) -> NoReturn:
    """Print ``message`` as an error and exit with status 2 (bad input)."""
    errors.print(f"spades: {message}", style="red", markup=False, highlight=False)
    raise typer.Exit(2)


def load_game(record: Path, game: int) -> Game:
    """Game number ``game`` (from 1) of the record file, re-played and checked."""
    try:
        text = record.read_text(encoding="utf-8")
    except OSError as error:
        fail(f"cannot read {record}: {error.strerror}")
    try:
        records = list(read_record_spans(text))
    except RecordError as error:
        fail(f"{record}: {error}")
    if not records:
        fail(f"{record} holds no record")
    if not 1 <= game <= len(records):
        fail(f"--game {game}: {record} holds {len(records)} game(s)")
    try:
        return game_from_record(records[game - 1].record)
    except RecordError as error:
        at = record_line(text, records[game - 1], error.path)
        fail(f"game {game} of {record} is broken at line {at}: {error}")


def hand_states(game: Game) -> list[HandState]:
    """Every hand of ``game``, the one in progress included."""
    states = [scored.state for scored in game.history]
    if not game.hand.is_over and game.hand.bid_order:
        states.append(game.hand)
    return states


def position_from_record(record: Path, game: int, hand: int, trick: int, card: int) -> HandState:
    states = hand_states(load_game(record, game))
    if not 1 <= hand <= len(states):
        fail(f"--hand {hand}: game {game} has {len(states)} hand(s) with bids")
    state = states[hand - 1]
    if len(state.bid_order) < 4:
        fail(f"hand {hand} of game {game} is still being bid: there is no play to solve")
    if not 1 <= trick <= 13:
        fail(f"--trick is 1 to 13, not {trick}")
    if not 1 <= card <= 4:
        fail(f"--card is 1 to 4 (the card of the trick to be played next), not {card}")
    played = sum(len(t.cards) for t in state.tricks) + len(state.trick)
    wanted = 4 * (trick - 1) + card - 1
    if wanted > played:
        fail(
            f"hand {hand} of game {game} has {played} card(s) played: "
            f"trick {trick}, card {card} was never reached"
        )
    position = replay(state, wanted)
    if position.is_over:
        fail("the hand is over: no card is left to play")
    return position


def position_from_deal(deal: str, leader: str | None, broken: bool) -> HandState:
    try:
        hands = parse_deal(deal)
    except ValueError as error:
        fail(f"--deal: {error}")
    if leader is None:
        fail("--leader is needed with --deal: who leads the first trick (N, E, S or W)?")
    try:
        seat = parse_seat(leader)
    except ValueError as error:
        fail(f"--leader: {error}")
    return make_position(hands, seat, broken=broken)


def nil_seats(state: HandState, named: list[str], from_record: bool) -> list[Seat]:
    """The seats whose Nil to judge: those named, else a record's Nil bidders."""
    if not named:
        return [s for s in range(4) if from_record and is_nil(state.bids[s])]
    seats = set()
    for text in named:
        try:
            seats.add(parse_seat(text))
        except ValueError as error:
            fail(f"--nil: {error}")
    return sorted(seats)


def solve(
    record: Annotated[
        Path | None, typer.Argument(help="A record file (JSON, a JSON list, or JSON lines).")
    ] = None,
    game: Annotated[int, typer.Option(help="Which game of the file (from 1).")] = 1,
    hand: Annotated[int, typer.Option(help="Which hand of the game (from 1).")] = 1,
    trick: Annotated[int, typer.Option(help="The trick (1-13): the position before it.")] = 1,
    card: Annotated[
        int, typer.Option(help="Within the trick: the position before its Nth card (1-4).")
    ] = 1,
    deal: Annotated[
        str | None,
        typer.Option(help='Solve a written deal instead: "N:AS KS 2H E:... S:... W:...".'),
    ] = None,
    leader: Annotated[str | None, typer.Option(help="With --deal: who leads (N, E, S, W).")] = None,
    broken: Annotated[
        bool, typer.Option("--broken", help="With --deal: spades are broken.")
    ] = False,
    nil: Annotated[
        list[str] | None,
        typer.Option(
            help="A seat whose Nil to judge (repeatable; by default a record's Nil bids)."
        ),
    ] = None,
) -> None:
    """Print each legal card's double-dummy result in a position.

    For every card the seat to play may play: the tricks its side takes in the
    rest of the hand with best play by all (the trick in progress included),
    and whether each Nil bidder's Nil can still be held.
    """
    if (record is None) == (deal is None):
        fail("give a RECORD file or --deal (not both)")
    if record is not None:
        state = position_from_record(record, game, hand, trick, card)
    else:
        assert deal is not None
        state = position_from_deal(deal, leader, broken)
    seats = nil_seats(state, nil or [], record is not None)
    show_position(state, show_bids=record is not None)
    clean = [seat for seat in seats if not any(t.winner == seat for t in state.tricks)]
    try:
        values = card_values(state)
        nils = {seat: nil_card_values(state, seat) for seat in clean}
    except SolverError as error:
        fail(str(error))

    mover = state.turn
    team = mover & 1
    won = sum(1 for t in state.tricks if t.winner & 1 == team)
    best = max(values.values())
    table = Table(show_edge=False, pad_edge=False)
    table.add_column("card")
    table.add_column(f"{TEAM_LONG_NAMES[team]} tricks", justify="right")
    if state.tricks:
        table.add_column("for the hand", justify="right")
    for seat in seats:
        table.add_column(f"{SEAT_LETTERS[seat]} Nil")
    for played in sorted(values, key=lambda c: (-values[c], DISPLAY_ORDER[c])):
        row = [CARD_NAMES[played] + (" *" if values[played] == best else ""), str(values[played])]
        if state.tricks:
            row.append(str(won + values[played]))
        for seat in seats:
            if seat not in nils:
                row.append("lost")
            else:
                row.append("holds" if nils[seat][played] else "[red]fails[/red]")
        table.add_row(*row)
    console.print(table)
    left = state.hands[mover].bit_count()
    console.print(
        f"{SEAT_NAMES[mover]} to play: with best play {TEAM_LONG_NAMES[team]} take {best} "
        f"of the {left} trick{'s' if left != 1 else ''} left (* marks the best cards).",
        highlight=False,
    )


DISPLAY_ORDER = {card: index for index, card in enumerate(sorted_for_display(range(52)))}


def show_position(state: HandState, *, show_bids: bool) -> None:
    """The four hands, the trick on the table, whose turn it is."""
    for seat in range(4):
        held = " ".join(CARD_NAMES[c] for c in sorted_for_display(cards_in(state.hands[seat])))
        bid = state.bids[seat]
        note = f"  (bid {bid_name(bid)})" if show_bids and bid is not None else ""
        console.print(f"{SEAT_LETTERS[seat]}: {held or '-'}{note}", highlight=False)
    if state.trick:
        played = ", ".join(
            f"{SEAT_LETTERS[(state.leader + i) & 3]} {CARD_NAMES[c]}"
            for i, c in enumerate(state.trick)
        )
        console.print(f"On the table: {played}", highlight=False)
    console.print(
        f"Trick {len(state.tricks) + 1}, {SEAT_NAMES[state.turn]} to play; spades "
        f"{'broken' if state.spades_broken else 'not broken'}.",
        highlight=False,
    )
