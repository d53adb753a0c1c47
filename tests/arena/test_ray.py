"""`spades arena --ray`: the match's games or deals as Ray tasks give the summary
`--workers 1` gives (on a local Ray with 2 CPUs, as CI runs it)."""

from __future__ import annotations

import os

import pytest

from spades.cli.arena import expand_bare_ray

from ..output import said
from .runs import run, summary_of, without_clock

pytestmark = pytest.mark.slow  # starts a local Ray cluster


try:
    import ray  # noqa: F401
except ImportError:
    if os.environ.get("CI"):  # CI installs the extra: its absence is a fault, not a skip
        raise
    pytest.skip("Ray is the cluster extra: pip install -e '.[cluster]'", allow_module_level=True)


def test_a_match_on_a_local_ray_gives_the_summary_of_one_process() -> None:
    # Deals of two different levels, so the two sides' figures differ; 20 deals
    # in chunks over 2 CPUs, so results come back from several tasks, in order.
    match = ("normal", "easy", "--duplicate", "--deals", "20", "--seed", "8")
    alone = summary_of(*match, "--workers", "1")
    on_ray = summary_of(*match, "--ray", "--workers", "2")
    assert without_clock(on_ray) == without_clock(alone)
    assert on_ray["difference"]["value"] != 0  # a real match, not two empty summaries


def test_workers_size_only_a_ray_started_here() -> None:
    result = run("random", "random", "--ray", "auto", "--workers", "2")
    assert result.returncode == 2
    assert "--workers only sizes the Ray started here" in said(result.stderr)


@pytest.mark.parametrize(
    ("given", "expanded"),
    [
        (["arena", "a", "b", "--ray"], ["arena", "a", "b", "--ray", "local"]),
        (["arena", "--ray", "a", "b"], ["arena", "--ray", "local", "a", "b"]),
        (["arena", "a", "b", "--ray", "auto"], ["arena", "a", "b", "--ray", "auto"]),
        (["arena", "--ray", "head:6379", "a", "b"], ["arena", "--ray", "head:6379", "a", "b"]),
        (["arena", "--ray", "cmd:bot --x", "b"], ["arena", "--ray", "local", "cmd:bot --x", "b"]),
        (["arena", "a", "--", "--ray"], ["arena", "a", "--", "--ray"]),
    ],
)
def test_ray_without_an_address_means_a_ray_started_here(
    given: list[str], expanded: list[str]
) -> None:
    assert expand_bare_ray(given) == expanded
