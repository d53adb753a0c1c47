"""Where the bots think: in this process, in a pool of processes, on Ray; and
never past the decision budget, whatever happens to the pool."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest

from spades.bots import SearchBot, make_bot
from spades.bots.search.player import FRUGAL_OPENING_TRICKS, distinct_cards
from spades.core import SOUTH, Game, Phase, PlayerView
from spades.session import (
    FULL_EFFORT,
    Effort,
    InlineDecider,
    ProcessDecider,
    answer_of,
    deciders,
    make_decider,
)
from spades.session.bot_processes import BotProcesses
from spades.session.deciders import CROWDED, FALLBACK_LEVEL, decide_now
from spades.session.turns import Answer


def first_card_view() -> PlayerView:
    """A position where the seat to act has a real choice of cards."""
    game = Game(seed=11)
    while game.phase is Phase.BIDDING:
        game.bid(game.to_act, 3)  # type: ignore[arg-type]
    assert game.to_act is not None
    return game.view(game.to_act)


def searched_card_view() -> PlayerView:
    """A position past the opening tricks a busy server leaves to the rule of
    thumb, where the seat to act has a real choice: a search always searches it."""
    game = Game(seed=11)
    while game.phase is Phase.BIDDING:
        game.bid(game.to_act, 3)  # type: ignore[arg-type]
    while True:
        assert game.to_act is not None
        view = game.view(game.to_act)
        if (
            view.trick_number > FRUGAL_OPENING_TRICKS
            and len(distinct_cards(view.legal_mask(), view)) > 1
        ):
            return view
        game.play(game.to_act, view.legal_cards()[0])


def last_card_view() -> PlayerView:
    """The last trick: one card left to play, no choice at all."""
    game = Game(seed=11)
    while game.phase is Phase.BIDDING:
        game.bid(game.to_act, 3)  # type: ignore[arg-type]
    while True:
        assert game.to_act is not None
        view = game.view(game.to_act)
        if view.trick_number == 13:
            return view
        game.play(game.to_act, view.legal_cards()[0])


def normal_answer(view: PlayerView, seed: str) -> object:
    return answer_of(make_bot(FALLBACK_LEVEL, seed=seed), view)


def test_the_quick_levels_are_decided_here_as_the_bot_itself_would() -> None:
    view = Game(seed=4).view(Game(seed=4).to_act)  # type: ignore[arg-type]
    decider = ProcessDecider(1)
    try:
        answer = decider("normal", view, "4:N:1")
        assert not decider.started  # no process was started for it
    finally:
        decider.close()
    assert answer == normal_answer(view, "4:N:1")


def test_a_search_in_the_pool_answers_a_legal_card_from_another_process() -> None:
    view = first_card_view()
    decider = ProcessDecider(1)
    try:
        decider.start()
        worker = decider.workers().call(os.getpid, timeout=60)
        answer = decider("expert", view, "seed")
    finally:
        decider.close()
    assert worker != os.getpid()
    assert answer in view.legal_cards()


def test_a_decision_past_its_deadline_is_normals_choice() -> None:
    """A search handed a deadline already gone searches no deal: the choice it
    starts from, normal's, stands."""
    view = first_card_view()
    answer = decide_now("expert", view, "late", deadline=time.monotonic() - 1)
    assert answer == normal_answer(view, "late")


def test_no_answer_from_a_flooded_pool_is_normals_choice(tmp_path: Path) -> None:
    """The pool's one process is held by the test until after the decision:
    the only answer in time is the caller's own fallback."""
    release = tmp_path / "release"
    decider = ProcessDecider(1, budget=0.2)
    held: list[bool] = []
    try:
        workers = decider.workers()
        assert workers.call(os.getpid, timeout=60)  # the worker is up
        holding = threading.Thread(
            target=lambda: held.append(workers.call(wait_for_file, str(release), timeout=60))
        )
        holding.start()
        view = first_card_view()
        answer = decider("expert", view, "flooded")
        assert not held  # the worker was busy throughout
        release.touch()
        holding.join(timeout=60)
        assert held == [True]
        # The answer given up on was read and dropped: the next call gets its own.
        assert workers.call(os.getpid, timeout=60) != os.getpid()
    finally:
        decider.close()
    assert answer == normal_answer(view, "flooded")


def test_a_bot_process_that_dies_is_replaced() -> None:
    view = first_card_view()
    decider = ProcessDecider(1)
    try:
        workers = decider.workers()
        first = workers.call(os.getpid, timeout=60)
        assert first != os.getpid()
        os.kill(first, signal.SIGKILL)
        answer = decider("expert", view, "killed")  # the dead process: normal answers
        assert answer == normal_answer(view, "killed")
        again = decider("expert", view, "again")  # a new process searches
        assert again in view.legal_cards()
        assert workers.pids() != [first]
    finally:
        decider.close()


def test_answers_reach_their_own_callers_when_two_wait_on_one_process(tmp_path: Path) -> None:
    """Two calls sent to the one worker: the first caller reads both answers
    off the pipe, in order, and the second gets its own."""
    release = tmp_path / "release"
    workers = BotProcesses(1)
    answers: dict[str, object] = {}
    try:
        workers.call(os.getpid, timeout=60)
        first = threading.Thread(
            target=lambda: answers.update(
                first=workers.call(wait_for_file, str(release), timeout=60)
            )
        )
        first.start()
        second = threading.Thread(
            target=lambda: answers.update(second=workers.call(len, "four", timeout=60))
        )
        second.start()
        release.touch()
        first.join(timeout=60)
        second.join(timeout=60)
    finally:
        workers.close()
    assert answers == {"first": True, "second": 4}


def test_an_exception_in_a_worker_is_raised_to_its_caller() -> None:
    workers = BotProcesses(1)
    try:
        with pytest.raises(ValueError, match="invalid literal"):
            workers.call(int, "not a number", timeout=60)
        assert workers.call(int, "7", timeout=60) == 7  # the worker lives on
    finally:
        workers.close()


def test_every_phase_is_answered_inline() -> None:
    game = Game(seed=2)
    decider = InlineDecider()
    while not game.is_over and game.hand_number == 1:
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        answer = decider("hard" if seat == SOUTH else "normal", view, f"{len(game.log)}")
        if view.phase is Phase.BIDDING:
            game.bid(seat, answer)  # type: ignore[arg-type]
        else:
            game.play(seat, answer)  # type: ignore[arg-type]
    assert game.hand_number == 2


def test_a_bot_service_is_named_or_refused() -> None:
    assert isinstance(make_decider(None), ProcessDecider)
    assert isinstance(make_decider("inline"), InlineDecider)
    assert make_decider("local:2").processes == 2  # type: ignore[attr-defined]
    for bad in ("local:0", "local:x", "threads", "ray:/nowhere"):
        with pytest.raises(ValueError, match="unknown bot service"):
            make_decider(bad)


def wait_for_file(path: str) -> bool:
    """Run in the pool's process: hold it until the test creates ``path``."""
    deadline = time.monotonic() + 120  # never hold a process forever
    while not os.path.exists(path):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


class RecordingDecider(InlineDecider):
    """Searches inline, noting the deadline and the share each search was handed."""

    def __init__(self) -> None:
        super().__init__()
        self.deadlines: list[float] = []
        self.shares: list[float] = []
        self.efforts: list[Effort] = []

    def search(
        self,
        level: str,
        view: PlayerView,
        seed: str,
        deadline: float,
        effort: Effort = FULL_EFFORT,
        hint: bool = False,
    ) -> Answer:
        self.deadlines.append(deadline)
        self.shares.append(effort.share)
        self.efforts.append(effort)
        return super().search(level, view, seed, deadline, effort, hint)


def test_the_bots_after_one_move_share_one_budget() -> None:
    """Every decision ``until`` hands out is due by the same instant: the first
    gets the rest of the budget, and once it is gone no search starts at all,
    normal answering at once."""
    view = first_card_view()
    decider = RecordingDecider()
    due = time.monotonic() + 0.5
    share = decider.until(due)
    assert share("expert", view, "first") in view.legal_cards()
    assert decider.deadlines == [due]  # sooner than the 1 s budget of its own
    gone = decider.until(time.monotonic() - 0.01)
    assert gone("expert", view, "late") == normal_answer(view, "late")
    assert decider.deadlines == [due]  # no search was started for it
    assert gone("normal", view, "quick") == normal_answer(view, "quick")


class HeldDecider(RecordingDecider):
    """Runs one search at a time, each in full while no more than CROWDED are
    asked for at once (capacity 1); the first is held in flight until the test
    lets it go."""

    capacity = 1

    def __init__(self) -> None:
        super().__init__()
        self.first_started = threading.Event()
        self.let_go = threading.Event()

    def search(
        self,
        level: str,
        view: PlayerView,
        seed: str,
        deadline: float,
        effort: Effort = FULL_EFFORT,
        hint: bool = False,
    ) -> Answer:
        if not self.first_started.is_set():
            self.first_started.set()
            assert self.let_go.wait(timeout=60)
        return super().search(level, view, seed, deadline, effort, hint)


def test_a_busy_decider_asks_less_effort_of_its_searches() -> None:
    """While one search is held in flight (capacity 1), the next is asked to be
    frugal with all its deals; with CROWDED more counted as asked for (as
    many callers would be), frugal with CROWDED / (CROWDED + 1) of its deals;
    alone again, the full effort."""
    view = searched_card_view()  # a frugal search still searches it
    decider = HeldDecider()
    answers: list[Answer] = []
    first = threading.Thread(target=lambda: answers.append(decider("expert", view, "first")))
    first.start()
    assert decider.first_started.wait(timeout=60)
    waiting = decider("expert", view, "waiting")
    with decider._searching_lock:
        decider._searching += CROWDED - 1  # the others waiting, with the held one
    crowded = decider("expert", view, "crowded")
    with decider._searching_lock:
        decider._searching -= CROWDED - 1
    decider.let_go.set()
    first.join(timeout=60)
    alone = decider("expert", view, "alone")
    # Waiting, crowded, then the first let go (asked when alone), then alone again.
    assert decider.efforts == [
        Effort(1.0, frugal=True),
        Effort(CROWDED / (CROWDED + 1), frugal=True),
        FULL_EFFORT,
        FULL_EFFORT,
    ]
    assert all(answer in view.legal_cards() for answer in (waiting, crowded, alone))
    assert len(answers) == 1


def test_a_search_given_a_share_plans_fewer_deals_but_never_below_its_first_look() -> None:
    bot = make_bot("expert")
    assert isinstance(bot, SearchBot)
    planned = bot.max_worlds, bot.max_bid_worlds
    bot.search_share(0.5)
    assert (bot.max_worlds, bot.max_bid_worlds) == (planned[0] // 2, planned[1] // 2)
    bot.search_share(0.01)
    assert bot.max_worlds == bot.first_look and bot.max_bid_worlds == bot.bid_first_look
    assert bot.min_worlds <= bot.max_worlds and bot.min_bid_worlds <= bot.max_bid_worlds
    with pytest.raises(ValueError, match="share"):
        bot.search_share(0)


class CountingDecider(InlineDecider):
    """Answers each search with the next legal card in turn, counting the searches."""

    def __init__(self) -> None:
        super().__init__()
        self.searches = 0

    def search(
        self,
        level: str,
        view: PlayerView,
        seed: str,
        deadline: float,
        effort: Effort = FULL_EFFORT,
        hint: bool = False,
    ) -> Answer:
        self.searches += 1
        cards = view.legal_cards()
        return cards[self.searches % len(cards)]


def test_a_question_asked_again_gets_the_answer_it_got(monkeypatch: pytest.MonkeyPatch) -> None:
    """A move taken back and made again meets the same answers whatever the
    load was the first time: the decider searches a question once and keeps
    the answer (the latest REMEMBERED of them); another seed, level or a
    hint is another question."""
    view = first_card_view()
    decider = CountingDecider()
    first = decider("expert", view, "7:E:12")
    assert decider("expert", view, "7:E:12") == first and decider.searches == 1
    decider("expert", view, "7:E:13")
    decider("hard", view, "7:E:12")
    decider("expert", view, "7:E:12", hint=True)
    assert decider.searches == 4
    monkeypatch.setattr(deciders, "REMEMBERED", 2)
    decider("expert", view, "another")  # all but the hint and this one are forgotten
    decider("expert", view, "7:E:12", hint=True)
    assert decider.searches == 5
    decider("expert", view, "7:E:12")
    assert decider.searches == 6


def test_searches_waiting_for_a_process_go_earliest_deadline_first() -> None:
    """With the one slot taken, three searches wait (asked latest-due first);
    as the slot comes free they go through in the order they are due, not the
    order they asked: a table's last bot, due soonest, is not kept behind the
    first bots of every table that moved after."""
    gate = deciders.EarliestDeadlineFirst()
    assert gate.enter(time.monotonic() + 60, slots=1)  # the test holds the only slot
    through: list[str] = []
    now = time.monotonic()

    def search(name: str, due_in: float) -> None:
        assert gate.enter(now + due_in, slots=1)
        through.append(name)
        gate.leave()

    waiters = [
        threading.Thread(target=search, args=(name, due_in))
        for name, due_in in (("due last", 50.0), ("due first", 30.0), ("due second", 40.0))
    ]
    for waiter in waiters:
        waiter.start()
    deadline = time.monotonic() + 60
    while gate.waiting() < 3:  # every one is in line before the slot comes free
        assert time.monotonic() < deadline, "the searches never queued"
        time.sleep(0.001)
    gate.leave()
    for waiter in waiters:
        waiter.join(timeout=60)
    assert through == ["due first", "due second", "due last"]


def test_a_search_that_gets_no_turn_by_its_deadline_is_normals_choice() -> None:
    """Both of a one-process decider's slots held past the decision's
    deadline: it is not searched at all, and normal answers in time."""
    decider = RecordingDecider()
    decider.capacity = 1
    for _ in range(2):  # a one-process decider lets two searches through
        assert decider._gate.enter(time.monotonic() + 60, slots=2)
    view = first_card_view()
    started = time.monotonic()
    answer = decider.until(started + 0.2)("expert", view, "no turn")
    assert answer == normal_answer(view, "no turn")
    assert decider.deadlines == []  # never searched
    assert time.monotonic() - started < 5


def test_a_card_the_search_would_not_search_is_decided_here() -> None:
    """A card with no choice, or an opening trick a busy server's frugal search
    leaves to the rule of thumb, gets the search's own answer (normal's card)
    without a trip to a bot process; a real choice is still sent."""
    decider = CountingDecider()
    decider.capacity = 1
    last = last_card_view()
    assert decider("expert", last, "last") == normal_answer(last, "last")
    opening = first_card_view()
    with decider._searching_lock:
        decider._searching += 1  # one search in flight: the next one is frugal
    assert decider("expert", opening, "busy") == normal_answer(opening, "busy")
    assert decider.searches == 0
    with decider._searching_lock:
        decider._searching -= 1
    decider("expert", opening, "idle")  # alone, the search searches the opening too
    decider("expert", searched_card_view(), "choice")
    assert decider.searches == 2
