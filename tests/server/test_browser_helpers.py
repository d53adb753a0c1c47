"""The browser tests' own helpers, where they decide timing: checked without a
browser, on a stand-in page whose clock answers as Playwright's does."""

from __future__ import annotations

import pytest
from playwright.sync_api import Error

from .browsers import pause_clock


class LatePage:
    """A page whose clock has moved on by ``late`` seconds each time the test
    reads the time and sends the pause: as on a machine too busy for the lead."""

    def __init__(self, late: float, refuse_also: str = "") -> None:
        self.late = late
        self.refuse_also = refuse_also
        self.now = 1_000.0
        self.paused_at: float | None = None
        self.clock = self

    def evaluate(self, expression: str) -> float:
        assert expression == "Date.now()"
        return self.now * 1000

    def pause_at(self, target: float) -> None:
        self.now += self.late  # the time it took the command to arrive
        if self.refuse_also:
            raise Error(self.refuse_also)
        if target < self.now:
            raise Error("Clock.pause_at: Error: Cannot fast-forward to the past")
        self.paused_at = target


def test_a_pause_overrun_by_a_busy_machine_is_asked_again_with_a_longer_lead() -> None:
    page = LatePage(late=0.35)
    pause_clock(page, ahead=0.1)  # 0.1 and 0.2 s are overrun; 0.4 s is not
    assert page.paused_at is not None and page.paused_at - page.now == pytest.approx(0.05)


def test_any_other_refusal_of_the_pause_is_raised() -> None:
    page = LatePage(late=0, refuse_also="Clock.pause_at: Error: the clock is not installed")
    with pytest.raises(Error, match="not installed"):
        pause_clock(page, ahead=1)
