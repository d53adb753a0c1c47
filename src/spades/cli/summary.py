"""Readable summaries of games for the terminal."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from spades.core import (
    CARDCOUCH,
    NIL,
    Game,
    NilKind,
    NilResult,
    bid_name,
    nil_kind_name,
    rules_name,
)
from spades.core.cards import CARD_NAMES
from spades.core.seats import SEAT_LETTERS, SEAT_NAMES, SEATS, TEAM_NAMES, team_of


def nil_text(nil: NilResult) -> str:
    """A Nil contract as scored, in a few words: ``"S blind Nil made +200"``,
    ``"NS double Nil failed -200"`` (a double Nil scored as one is one contract)."""
    who: str = (
        TEAM_NAMES[team_of(nil.seat)] if nil.kind is NilKind.DOUBLE_NIL else SEAT_LETTERS[nil.seat]
    )
    verdict = "made" if nil.contract_made else "failed"
    return f"{who} {nil_kind_name(nil.kind)} {verdict} {nil.points:+d}"


def print_game_summary(
    console: Console, game: Game, index: int, *, show_tricks: bool = False
) -> None:
    """A header line, then one row per hand: dealer, bids, tricks, points, totals;
    then each Nil as it was scored, and the claims and undos."""
    players = ", ".join(f"{SEAT_LETTERS[s]}={game.players.get(s, '?')}" for s in SEATS)
    if game.outcome is not None:
        reason = {
            "target": "reached the target",
            "floor": "the other team sank to the floor",
            "forfeit": f"forfeit: {game.forfeited_by[1] if game.forfeited_by else ''}",
        }[game.outcome.termination.value]
        result = f"{TEAM_NAMES[game.outcome.winner]} won, NS {game.totals[0]} / EW {game.totals[1]} ({reason})"
    else:
        result = f"unfinished, NS {game.totals[0]} / EW {game.totals[1]}"
    console.print(
        f"[bold]Game {index}[/bold] (seed {game.seed}; {players}): {result}", highlight=False
    )
    if game.rules != CARDCOUCH:  # the rule page's rules go without saying
        console.print(
            f"  rules: {rules_name(game.rules)} ({game.rules.describe()})",
            highlight=False,
            soft_wrap=True,
        )
    if game.seeding is not None:
        console.print(
            "  practice deals: the seed was chosen by the player"
            if game.seeding.is_practice
            else f"  deals committed to before the first card: SHA-256 {game.seeding.commitment}",
            highlight=False,
            soft_wrap=True,
        )

    table = Table(show_edge=False, pad_edge=False)
    for column in ("hand", "dealer", "bids", "tricks N E S W", "NS", "EW", "totals", "bags"):
        table.add_column(column, justify="right" if column in ("hand", "NS", "EW") else "left")
    for scored in game.history:
        state = scored.state
        bids = " ".join(
            f"{SEAT_LETTERS[s]}:{bid_name(state.bids[s] or NIL)}" for s in state.bid_order
        )
        ns, ew = scored.scores
        table.add_row(
            str(scored.number),
            SEAT_LETTERS[state.dealer],
            bids,
            " ".join(str(t) for t in state.tricks_won),
            f"{ns.delta:+d}",
            f"{ew.delta:+d}",
            f"{scored.totals[0]} / {scored.totals[1]}",
            f"{ns.bags} / {ew.bags}",
        )
    if not game.is_over and game.hand.bid_order:
        state = game.hand
        bids = " ".join(
            f"{SEAT_LETTERS[s]}:{bid_name(state.bids[s] or NIL)}" for s in state.bid_order
        )
        table.add_row(str(len(game.history) + 1), SEAT_LETTERS[state.dealer], bids,
                      f"({len(state.tricks)} tricks played)", "", "", "", "")  # fmt: skip
    console.print(table)
    for scored in game.history:
        nils = [nil_text(nil) for score in scored.scores for nil in score.nil_contracts]
        if nils:
            console.print(f"  hand {scored.number}: {'; '.join(nils)}", highlight=False)
    for line in amends(game):
        console.print(f"  {line}", highlight=False)
    if show_tricks:
        for scored in game.history:
            console.print(f"  hand {scored.number}:")
            for number, trick in enumerate(scored.state.tricks, start=1):
                cards = " ".join(CARD_NAMES[c] for c in trick.cards)
                console.print(
                    f"    {number:2d}. {SEAT_NAMES[trick.leader]:5} leads: {cards}  "
                    f"-> {SEAT_NAMES[trick.winner]}",
                    highlight=False,
                )


def amends(game: Game) -> list[str]:
    """The game's claims and undos, a line each."""
    lines = []
    for claim in game.claims:
        left = 13 - claim.cards // 4
        verdict = "held: the hand ended" if claim.held else "refused"
        lines.append(
            f"hand {claim.hand}: {SEAT_NAMES[claim.seat]} claimed {claim.tricks} of the "
            f"{left} tricks left at trick {claim.cards // 4 + 1} ({verdict})"
        )
    for undo in game.undos:
        moves = len(undo.taken_back)
        lines.append(
            f"hand {undo.hand}: {SEAT_NAMES[undo.seat]} took back "
            f"{moves} move{'' if moves == 1 else 's'} ({undo.bids} bids and {undo.cards} cards stood)"
        )
    return lines
