"""``spades play``: a whole game in the terminal, the user South with a computer
partner North against computer opponents West and East.

Everything is read with plain line input, so a game can be driven by piping
answers into stdin. The engine checks every action; this module only shows the
table, reads answers and narrates the events the engine returns. Undo and
claim are the web game's: ``Game.undo``, and a claim judged by the solver
through the session layer's ``judge_claim`` (the web's too); the bots are seeded by the position, as
on the web, so after an undo they answer the same move the same way.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Final

import typer
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from spades.arena import seat_bots
from spades.arena.referee import listeners_of, start_bots, tell_bots
from spades.bots import BOT_LEVELS, Bot, interactive_processes, strongest_level
from spades.core import (
    BLIND_NIL,
    EAST,
    NIL,
    NORTH,
    SOUTH,
    SPADES,
    WEST,
    BidAction,
    BidMade,
    BidProblem,
    BidReadError,
    BidSyntax,
    Card,
    CardPlayed,
    CardsPassed,
    Event,
    Game,
    GameOver,
    HandDealt,
    HandScored,
    HandState,
    IllegalActionError,
    Phase,
    ScoredHand,
    Seat,
    TeamHandScore,
    Termination,
    TrickWon,
    Undo,
    bid_name,
    cards_in,
    game_to_record,
    parse_card,
    parse_cards,
    read_bid,
    record_to_json,
    rules_name,
    suit_of,
    team_of,
)
from spades.core.cards import (
    CARD_NAMES,
    CLUBS,
    DIAMONDS,
    HEARTS,
    SUIT_MASKS,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    sorted_for_display,
)
from spades.core.claims import tricks_left
from spades.core.game import SEED_BITS
from spades.core.seats import (
    SEAT_LETTERS,
    SEAT_NAMES,
    SEATS,
    TEAM_LONG_NAMES,
    TEAM_NAMES,
    TEAMS,
    team_seats,
)
from spades.session import bot_turn, decision_seed
from spades.session.claims import claim_notes, judge_claim

from .options import RulesOption, read_rules
from .summary import nil_text

HUMAN: Final = SOUTH
HUMAN_PLAYER: Final = "human"
"""How the user's seat is named in the game record."""


QUIT_WORDS: Final = ("q", "quit")
HELP_WORDS: Final = ("h", "help", "?")
UNDO_WORDS: Final = ("u", "undo")
CLAIM_WORDS: Final = ("c", "claim")

DISPLAY_SUITS: Final = (SPADES, HEARTS, CLUBS, DIAMONDS)
"""The order ``sorted_for_display`` groups a hand in (colours alternate)."""
SUIT_STYLES: Final = {SPADES: "bold", HEARTS: "bold red", CLUBS: "bold", DIAMONDS: "bold red"}

SEAT_ROLES: Final = {NORTH: "partner", EAST: "opponent", SOUTH: "you", WEST: "opponent"}

HELP_TEXT: Final = """\
Commands:
  nil, 1 .. 13     your bid, while bidding
  1, 2, ...        play the card shown with that number in your hand
  QH, 10h, as ...  play a card by name: its rank, then its suit (S, H, D, C)
  u, undo          take back your last bid or card of this hand, and the moves
                   after it (the others answer as before if you play it again)
  c, claim         when you are to play: say you and North take every trick
                   left (claim 3: three of them); the solver checks it against
                   every defence and ends the hand if it holds
  h, help          this help
  q, quit          end the game now (the record is saved if --out was given)"""


def default_level() -> str:
    """The bots' level unless the player picks another: as in the web game, the
    strongest that answers within the decision budget."""
    return strongest_level()


class QuitGame(Exception):
    """The user asked to stop: ``q``, ``quit``, end of input or Ctrl-C."""


class TurnChanged(Exception):
    """A command changed the game under the prompt (an undo, a claim that
    held): the turn is taken anew, after ``events`` are told."""

    def __init__(self, events: list[Event]) -> None:
        super().__init__()
        self.events = events


def seeded_bot_turn(game: Game, seat: Seat, bot: Bot) -> list[Event]:
    """The referee's ``bot_turn``, the bot seeded by the position first."""
    bot.rng.seed(decision_seed(game, seat))
    return bot_turn(game, seat, bot)


def parse_claim(words: list[str], left: int) -> int:
    """The tricks a ``claim`` command claims: all ``left`` of them, or the number given.

    >>> parse_claim(["c"], 5), parse_claim(["claim", "3"], 5)
    (5, 3)
    >>> parse_claim(["claim", "all"], 5)
    Traceback (most recent call last):
    ...
    ValueError: 'all' is not a number of tricks: type claim for every trick left, or claim 1-5
    """
    if len(words) == 1:
        return left
    if len(words) == 2 and words[1].isdigit():
        return int(words[1])
    raise ValueError(
        f"{' '.join(words[1:])!r} is not a number of tricks: "
        f"type claim for every trick left, or claim 1-{left}"
    )


def taken_back_text(undo: Undo) -> str:
    """``"Taken back: your bid of 3, West's bid of 4."`` or ``"... your 7H, West's 2H."``"""
    moves = []
    for action in undo.taken_back:
        whose = "your" if action.seat == HUMAN else f"{SEAT_NAMES[action.seat]}'s"
        if isinstance(action, BidAction):
            moves.append(f"{whose} bid of {bid_name(action.bid)}")
        else:
            moves.append(f"{whose} {CARD_NAMES[action.card]}")
    return f"Taken back: {', '.join(moves)}."


# ------------------------------------------------------------------- parsing


def read_typed_bid(text: str) -> int:
    """A bid typed by the user: ``nil`` or a number (the engine checks its range);
    ``read_bid`` with ``BidSyntax.TYPED``.

    >>> read_typed_bid(" Nil "), read_typed_bid("4")
    (0, 4)
    >>> read_typed_bid("0")
    Traceback (most recent call last):
    ...
    spades.core.bids.BidReadError: 0 is not a bid: to promise to take no tricks, bid nil
    """
    try:
        return read_bid(text, BidSyntax.TYPED)
    except BidReadError as error:
        if error.problem is BidProblem.ZERO:
            raise  # 0 refused by name
        raise ValueError(
            f"{text.strip()!r} is not a bid: type nil or a number from 1 to 13"
        ) from None


def parse_card_choice(text: str, numbered: Sequence[Card]) -> Card:
    """A card typed by the user: the number shown next to a legal card, or a card name.

    Only the range of a number is checked here; whether a named card may be
    played is the engine's call, so its message explains any refusal.

    >>> from spades.core import parse_cards
    >>> CARD_NAMES[parse_card_choice("2", parse_cards("AS 4H"))]
    '4H'
    >>> CARD_NAMES[parse_card_choice("10h", [])]
    'TH'
    """
    cleaned = text.strip()
    if cleaned.isdigit():
        number = int(cleaned)
        if 1 <= number <= len(numbered):
            return numbered[number - 1]
        raise ValueError(
            f"There is no card numbered {number}: type {number_range(numbered)} "
            "or a card name like QH"
        )
    return parse_card(cleaned)


def number_range(numbered: Sequence[Card]) -> str:
    """The numbers the user may type for ``numbered``: ``"1-5"``, or ``"1"``."""
    return f"1-{len(numbered)}" if len(numbered) > 1 else "1"


def check_level(level: str, option: str) -> str:
    """``level`` if it names a bot, else a usage error listing the known levels."""
    if level not in BOT_LEVELS:
        raise typer.BadParameter(
            f"unknown bot level {level!r} (known: {', '.join(BOT_LEVELS)})", param_hint=option
        )
    return level


# ----------------------------------------------------------------- rendering


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def seat_label(seat: Seat) -> str:
    """``"North (partner)"``, ``"South (you)"``."""
    return f"{SEAT_NAMES[seat]} ({SEAT_ROLES[seat]})"


def card_text(card: Card) -> Text:
    """The card's name (``"QH"``, what the user types), in its suit's colour."""
    return Text(CARD_NAMES[card], style=SUIT_STYLES[suit_of(card)])


def suit_label(suit: int, unicode: bool) -> str:
    # A terminal that cannot encode the suit symbols still gets the suit's name.
    name = SUIT_NAMES[suit].capitalize()
    return f"{SUIT_SYMBOLS[suit]} {name}" if unicode else name


def hand_text(hand: int, numbered: Sequence[Card] | None, unicode: bool) -> Text:
    """South's cards, one suit a line, high to low.

    While playing (``numbered`` given) each legal card carries the number that
    plays it and the others are dimmed; while bidding every card shows plainly.
    """
    numbers = {card: index for index, card in enumerate(numbered or (), start=1)}
    text = Text()
    for suit in DISPLAY_SUITS:
        cards = sorted_for_display(cards_in(hand & SUIT_MASKS[suit]))
        if not cards:
            continue
        text.append(f"  {suit_label(suit, unicode):<11}")
        for card in cards:
            number = numbers.get(card)
            if number is not None:
                text.append(f" [{number}] ", style="cyan")
                text.append_text(card_text(card))
            elif numbered is not None:
                text.append(f" {CARD_NAMES[card]}", style="dim")
            else:
                text.append(" ")
                text.append_text(card_text(card))
        text.append("\n")
    text.rstrip()
    return text


def seats_table(game: Game) -> Table:
    """Each seat's bid and tricks this hand, the dealer and whose turn it is."""
    hand = game.hand
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    table.add_column("Seat")
    table.add_column("Bid", justify="right")
    table.add_column("Tricks", justify="right")
    table.add_column("")
    turn_note = "to bid" if hand.phase is Phase.BIDDING else "to play"
    for seat in SEATS:
        bid = hand.bids[seat]
        notes = ["dealer"] if seat == hand.dealer else []
        if seat == game.to_act:
            notes.append(f"<- {turn_note}")
        table.add_row(
            seat_label(seat),
            "-" if bid is None else bid_name(bid),
            str(hand.tricks_won[seat]),
            ", ".join(notes),
        )
    return table


def team_totals(game: Game) -> str:
    """``"North-South 120 (3 bags)   East-West -40 (1 bag)"``."""
    return "   ".join(
        f"{TEAM_LONG_NAMES[team]} {game.totals[team]} ({plural(game.bags[team], 'bag')})"
        for team in TEAMS
    )


def score_line(game: Game, unicode: bool) -> Text:
    """Both teams' points and bags, and the "Spades broken" marker once it applies."""
    text = Text(f"Score: {team_totals(game)}")
    if game.hand.spades_broken:
        marker = f"{SUIT_SYMBOLS[SPADES]} Spades broken" if unicode else "Spades broken"
        text.append(f"   {marker}", style="bold")
    return text


def trick_text(hand: HandState) -> Text:
    """The trick in progress: who played which card, in play order."""
    text = Text(f"Trick {len(hand.tricks) + 1} of 13: ", style="bold")
    if not hand.trick:
        text.append(f"{SEAT_NAMES[hand.leader]} leads")
        return text
    for position, card in enumerate(hand.trick):
        if position:
            text.append(", ")
        text.append(f"{SEAT_NAMES[(hand.leader + position) & 3]} ")
        text.append_text(card_text(card))
    return text


def team_bids(state: HandState, team: int) -> str:
    """``"N 4, S Nil"``: each partner's bid."""
    return ", ".join(
        f"{SEAT_LETTERS[seat]} {bid_name(state.bids[seat] or NIL)}" for seat in team_seats(team)
    )


def team_tricks(state: HandState, team: int) -> str:
    """``"8 (N 5, S 3)"``: the team's tricks, and each partner's (Nil is judged alone)."""
    seats = team_seats(team)
    each = ", ".join(f"{SEAT_LETTERS[seat]} {state.tricks_won[seat]}" for seat in seats)
    return f"{sum(state.tricks_won[seat] for seat in seats)} ({each})"


def team_result(score: TeamHandScore) -> str:
    """What made up the team's points: made or set, each Nil, any bag penalty."""
    parts: list[str] = []
    if score.made is not None:
        parts.append(f"bid {score.bid} made" if score.made else f"bid {score.bid} set")
    # The Nil bidder's tricks are in the Tricks column beside this one.
    parts.extend(nil_text(nil) for nil in score.nil_contracts)
    if score.bag_penalties:
        parts.append(f"bag penalty -{score.bag_penalty_points}")
    return "; ".join(parts)


def score_sheet(history: Sequence[ScoredHand]) -> Table:
    """One section per hand, a row per team: bids, tricks, result, points, bags, total."""
    table = Table(title="Score sheet", box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    for column in ("Hand", "Team", "Bids", "Tricks", "Result", "Points", "Bags", "Total"):
        right = column in ("Hand", "Points", "Bags", "Total")
        # Only the result may wrap, so numbers and names stay whole in an 80-column terminal.
        table.add_column(column, justify="right" if right else "left", no_wrap=column != "Result")
    for scored in history:
        for team in TEAMS:
            score = scored.scores[team]
            table.add_row(
                str(scored.number) if team == TEAMS[0] else "",
                TEAM_NAMES[team],
                team_bids(scored.state, team),
                team_tricks(scored.state, team),
                team_result(score),
                f"{score.delta:+d}",
                f"{score.bags} (+{score.bags_taken})",
                str(scored.totals[team]),
                end_section=team == TEAMS[-1],
            )
    return table


def winner_text(game: Game, outcome: GameOver) -> Text:
    """Who won, by how much and why, from the user's side of the table."""
    winner = outcome.outcome.winner
    loser = 1 - winner
    termination = outcome.outcome.termination
    if termination is Termination.FORFEIT and game.forfeited_by is not None:
        reason = game.forfeited_by[1]
    elif termination is Termination.FLOOR:
        reason = f"{TEAM_LONG_NAMES[loser]} sank to {game.rules.floor} or below"
    else:
        reason = f"reached {game.rules.target}"
    if winner == team_of(HUMAN):
        verdict, style = "You and North win!", "bold green"
    else:
        verdict, style = "West and East beat you.", "bold red"
    return Text(
        f"Game over: {TEAM_LONG_NAMES[winner]} win {outcome.totals[winner]} to "
        f"{outcome.totals[loser]} ({reason}). {verdict}",
        style=style,
    )


# ---------------------------------------------------------------- the session


class TerminalGame:
    """One game at the terminal: bots act on their views, the user answers prompts."""

    def __init__(
        self,
        game: Game,
        bots: Mapping[Seat, Bot],
        console: Console,
        *,
        echo_answers: bool = False,
    ) -> None:
        """``echo_answers``: print each answer read (for input no terminal echoed)."""
        self.game = game
        self.bots = bots
        self.console = console
        self.unicode = console.encoding.startswith("utf")
        self.echo_answers = echo_answers
        self.listeners = listeners_of(bots)

    def run(self) -> bool:
        """Play until the game ends (True) or the user quits (False)."""
        try:
            self.start_bots()
            # The first deal happened when the game was made (and a forfeit, if a bot failed).
            self.publish(self.game.log[:])
            while not self.game.is_over:
                try:
                    events = self.take_turn()
                except TurnChanged as changed:
                    events = changed.events
                self.publish(events)
        except QuitGame:
            return False
        finally:
            for bot in self.bots.values():
                bot.close()
        return True

    def publish(self, events: list[Event]) -> None:
        """Show the user what happened, then tell the bots that follow the game."""
        self.announce(events)
        self.announce(self.tell_bots(events))

    # ------------------------------------------------------------ the bots
    # The referee's own turn-taking: a failing or cheating bot forfeits the game
    # for its side instead of crashing the user's session.

    def start_bots(self) -> None:
        start_bots(self.game, self.bots)

    def bot_turn(self, seat: Seat) -> list[Event]:
        return seeded_bot_turn(self.game, seat, self.bots[seat])

    def tell_bots(self, events: list[Event]) -> list[Event]:
        return tell_bots(self.bots, self.listeners, self.game, events)

    def take_turn(self) -> list[Event]:
        seat = self.game.to_act
        assert seat is not None  # the game is not over
        if seat != HUMAN:
            return self.bot_turn(seat)
        if self.game.phase is Phase.BIDDING:
            return self.human_bid()
        if self.game.phase is Phase.PASSING:
            return self.human_pass()
        return self.human_play()

    # -------------------------------------------------------------- the user

    def human_bid(self) -> list[Event]:
        if self.game.view(HUMAN).without_cards().legal_bids():
            # Asked before the hand is shown: a blind Nil is bid without seeing it.
            self.show_position(numbered=None, cards=False)
            answer = self.ask("Bid blind Nil before you look at your cards? (y/n): ")
            if answer.strip().lower() in ("y", "yes"):
                return self.game.bid(HUMAN, BLIND_NIL)
        self.show_position(numbered=None)
        return self.until_legal(
            "Your bid (nil or 1-13; u to undo, h for help): ",
            lambda answer: self.game.bid(HUMAN, read_typed_bid(answer)),
        )

    def human_pass(self) -> list[Event]:
        view = self.game.view(HUMAN)
        _, receiver, count = view.passing or (HUMAN, NORTH, 0)
        self.show_position(numbered=None)
        return self.until_legal(
            f"Cards to pass to {SEAT_NAMES[receiver]} ({count}, like "
            f"{' '.join(CARD_NAMES[c] for c in list(cards_in(view.hand))[-count:])}): ",
            lambda answer: self.game.pass_cards(HUMAN, parse_cards(answer)),
        )

    def human_play(self) -> list[Event]:
        hand = self.game.hand.hands[HUMAN]
        legal = set(self.game.legal_cards())
        numbered = [card for card in sorted_for_display(cards_in(hand)) if card in legal]
        self.show_position(numbered=numbered)
        example = CARD_NAMES[numbered[0]]
        return self.until_legal(
            f"Your card ({number_range(numbered)} or a name like {example}; "
            "c to claim, u to undo, h for help): ",
            lambda answer: self.game.play(HUMAN, parse_card_choice(answer, numbered)),
        )

    def until_legal(self, prompt: str, act: Callable[[str], list[Event]]) -> list[Event]:
        """Ask until ``act`` accepts an answer; a refused one changes nothing."""
        while True:
            answer = self.ask(prompt)
            try:
                return act(answer)
            except ValueError as error:  # the engine's IllegalActionError is a ValueError too
                self.console.print(Text(str(error), style="red"))

    def ask(self, prompt: str) -> str:
        """The next non-empty answer that is not a command; raises ``QuitGame`` to stop."""
        while True:
            try:
                answer = self.console.input(prompt)
            except (EOFError, KeyboardInterrupt):
                self.console.print()
                raise QuitGame from None
            if self.echo_answers:
                self.console.print(Text(answer.strip()))
            words = answer.strip().lower().split()
            word = " ".join(words)
            if word in QUIT_WORDS:
                raise QuitGame
            if word in HELP_WORDS:
                self.console.print(Text(HELP_TEXT))
            elif word in UNDO_WORDS:
                self.undo()
            elif words and words[0] in CLAIM_WORDS:
                self.claim(words)
            elif word:
                return answer

    # -------------------------------------------------------- undo and claim

    def undo(self) -> None:
        """Take back South's last move of the hand, or say why there is none."""
        try:
            undo = self.game.undo(HUMAN)
        except IllegalActionError as error:
            self.console.print(Text(str(error), style="red"))
            return
        self.console.print(Text(taken_back_text(undo), style="yellow"))
        raise TurnChanged([])

    def claim(self, words: list[str]) -> None:
        """Claim tricks for South and North; a claim that holds ends the hand."""
        game = self.game
        if game.phase is not Phase.PLAYING or game.to_act != HUMAN:
            self.console.print(
                Text("You may claim when it is your turn to play a card", style="red")
            )
            return
        # The session layer's judge, the web game's too: the same terms, solver
        # check and refusal rules.
        try:
            verdict = judge_claim(game, parse_claim(words, tricks_left(game.hand)))
        except ValueError as error:  # the engine's IllegalActionError is a ValueError too
            self.console.print(Text(str(error), style="red"))
            return
        held = verdict.held
        message = verdict.message
        if not held:  # the terminal has no hand summary: the score sheet below it says
            message = message.replace("the summary of the hand", "the end of the hand")
        self.console.print(Text(message, style="bold green" if held else "yellow"))
        if held:
            raise TurnChanged(verdict.events)

    def show_position(self, numbered: Sequence[Card] | None, *, cards: bool = True) -> None:
        """Everything the user sees before deciding: table, score, trick and hand
        (``cards=False``: all but the hand, for a blind Nil)."""
        game = self.game
        self.console.print()
        self.console.print(seats_table(game), soft_wrap=False)  # tables lay out to the width
        self.console.print(score_line(game, self.unicode))
        if game.phase is Phase.PLAYING:
            self.console.print(trick_text(game.hand))
        if not cards:
            return
        self.console.print(Text("Your hand:", style="bold"))
        self.console.print(hand_text(game.hand.hands[HUMAN], numbered, self.unicode))

    # ----------------------------------------------------------- narration

    def announce(self, events: Iterable[Event]) -> None:
        """Tell the user what just happened, event by event."""
        console = self.console
        for event in events:
            match event:
                case HandDealt(number=number, dealer=dealer):
                    console.print()
                    console.rule(f"Hand {number}: {SEAT_NAMES[dealer]} deals")
                case BidMade(seat=seat, bid=bid):
                    console.print(f"{SEAT_NAMES[seat]} bids {bid_name(bid)}")
                case CardsPassed(seat=seat, to=to, count=count):
                    console.print(
                        f"{SEAT_NAMES[seat]} passes {plural(count, 'card')} to {SEAT_NAMES[to]}"
                    )
                    received = self.game.view(HUMAN).received
                    if received and self.game.phase is not Phase.PASSING and to == HUMAN:
                        console.print(
                            Text(f"{SEAT_NAMES[seat]} passed you ").append_text(
                                Text(" ").join(card_text(c) for c in cards_in(received))
                            )
                        )
                case CardPlayed(seat=seat, card=card, broke_spades=broke_spades):
                    self.announce_card(seat, card, broke_spades=broke_spades)
                case TrickWon(seat=seat, trick=trick):
                    winning_card = trick.cards[(seat - trick.leader) & 3]
                    console.print(
                        Text(f"{SEAT_NAMES[seat]} wins the trick with ").append_text(
                            card_text(winning_card)
                        )
                    )
                case HandScored(number=number):
                    console.print()
                    console.print(score_sheet(self.game.history[:number]), soft_wrap=False)
                    console.print(f"Totals: {team_totals(self.game)}")
                    self.announce_claims(number)
                case GameOver():
                    console.print()
                    console.print(winner_text(self.game, event))

    def announce_claims(self, number: int) -> None:
        """The claims of hand ``number`` in words, a refused one with the defence
        that beat it, now that the hand is over (as the web's hand summary)."""
        claims = [claim for claim in self.game.claims if claim.hand == number]
        if claims:
            for note in claim_notes(claims, self.game.history[number - 1].state):
                self.console.print(Text(note))

    def announce_card(self, seat: Seat, card: Card, *, broke_spades: bool) -> None:
        self.console.print(Text(f"{SEAT_NAMES[seat]} plays ").append_text(card_text(card)))
        if broke_spades:  # the engine's word: never under spades_break=off
            self.console.print(Text("Spades are broken.", style="bold"))


# ------------------------------------------------------------------ the command


def save_record(game: Game, out: Path, console: Console) -> None:
    """Write the game's record (one JSON line), finished or not."""
    try:
        out.write_text(record_to_json(game_to_record(game)) + "\n", encoding="utf-8")
    except OSError as error:
        Console(stderr=True).print(Text(f"Cannot write {out}: {error.strerror}", style="red"))
        raise typer.Exit(1) from None
    console.print(Text(f"Record written to {out} (check it with: spades replay {out})"))


def play(
    seed: Annotated[
        int | None, typer.Option(help="Seed of the game: the same seed deals the same cards.")
    ] = None,
    partner: Annotated[
        str,
        typer.Option(
            metavar="LEVEL", help=f"Bot level of your partner North: {', '.join(BOT_LEVELS)}."
        ),
    ] = default_level(),
    opponents: Annotated[
        str,
        typer.Option(metavar="LEVEL", help=f"Bot level of West and East: {', '.join(BOT_LEVELS)}."),
    ] = default_level(),
    out: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            dir_okay=False,
            writable=True,
            help="Write the game's record here when it ends or you quit.",
        ),
    ] = None,
    rules: RulesOption = "cardcouch",
) -> None:
    """Play a game in the terminal: you are South, partnered with North against West and East."""
    check_level(partner, "--partner")
    check_level(opponents, "--opponents")
    game_rules = read_rules(rules)
    # Refused now rather than after a whole game played for a record that cannot be written.
    if out is not None and not out.parent.is_dir():
        raise typer.BadParameter(f"no directory {str(out.parent)!r}", param_hint="--out")
    # Drawn here rather than by Game so it can be shown, and the game replayed with --seed.
    game_seed = seed if seed is not None else random.SystemRandom().getrandbits(SEED_BITS)
    levels = {NORTH: partner, EAST: opponents, WEST: opponents}
    game = Game(game_rules, seed=game_seed, players={**levels, HUMAN: HUMAN_PLAYER})
    # Soft wrap: a message or narration line is never broken mid-line (pipes and greps stay whole).
    console = Console(highlight=False, soft_wrap=True)
    console.print(
        f"Spades, seed {game_seed}: you are South; your partner North plays {partner}, "
        f"West and East play {opponents}. Rules: {rules_name(game.rules)} "
        f"({game.rules.describe()}). "
        "Type h for help, q to quit."
    )
    # One bot thinks at a time here: a search level may use every core.
    bots = seat_bots(levels, game_seed, processes=interactive_processes())
    # Piped answers are not echoed by a terminal: print them so the transcript reads right.
    finished = TerminalGame(game, bots, console, echo_answers=not sys.stdin.isatty()).run()
    if not finished:
        console.print(f"Game stopped during hand {game.hand_number}. Totals: {team_totals(game)}")
    if out is not None:
        save_record(game, out, console)
