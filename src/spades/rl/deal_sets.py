"""Fixed, versioned sets of deals to train and test on, the same for everyone.

A deal set is the arena's duplicate deals for one master seed, written out: deal
``i`` is what ``spades arena --duplicate --seed SEED`` plays as its deal ``i``
(the cards ``deal(Random(derive_seed(SEED, "deal", i)))``, the dealer ``i % 4``).
The file holds the cards themselves, so a reader needs nothing of ours to use
them, and ``load_deal_set`` checks them against the seed, so a changed file is
caught. ``tools/make_deal_sets.py`` writes the files shipped here:

=========  ==========  =====  =========================================
name       seed        deals  for
=========  ==========  =====  =========================================
train-v1   2026120101  1000   training and tuning
test-v1    2026120102  400    reporting strength (never train on it)
=========  ==========  =====  =========================================

>>> test = load_deal_set("test-v1")
>>> test.name, test.seed, len(test.deals), test.deals[0].dealer
('test-v1', 2026120102, 400, 0)
>>> sum(hand.bit_count() for hand in test.deals[0].hands)
52
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Final

from spades.arena.match import derive_seed
from spades.core import SEATS, Seat, mask_of, parse_cards
from spades.core.cards import names
from spades.core.hand import deal as deal_cards
from spades.core.seats import SEAT_LETTERS

FORMAT: Final = "spades-deal-set/1"
SHIPPED: Final = {"train-v1": (2026120101, 1000), "test-v1": (2026120102, 400)}
"""The deal sets in ``spades/rl/deals/``: name -> (master seed, deals)."""


class DealSetError(ValueError):
    """A deal set file that cannot be read, or whose cards are not its seed's."""


@dataclass(frozen=True, slots=True)
class Deal:
    """One deal: its index in the set, the dealer and the four hands (N, E, S, W masks)."""

    index: int
    dealer: Seat
    hands: tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class DealSet:
    name: str
    seed: int
    """The arena's master seed for these deals (``spades arena --duplicate --seed``)."""
    deals: tuple[Deal, ...]


def arena_deal(seed: int, index: int) -> Deal:
    """Deal ``index`` of the arena's duplicate match with master seed ``seed``
    (``spades.arena.match.play_duplicate_deal`` deals the same)."""
    hands = deal_cards(random.Random(derive_seed(seed, "deal", index)))
    return Deal(index, index % 4, hands)


def make_deal_set(name: str, seed: int, count: int) -> DealSet:
    return DealSet(name, seed, tuple(arena_deal(seed, index) for index in range(count)))


def deal_set_to_json(deal_set: DealSet) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "name": deal_set.name,
        "seed": deal_set.seed,
        "dealt_as": "spades.arena.match: deal(Random(derive_seed(seed, 'deal', i))), dealer i % 4",
        "deals": [
            {
                "dealer": SEAT_LETTERS[deal.dealer],
                "hands": {SEAT_LETTERS[seat]: " ".join(names(deal.hands[seat])) for seat in SEATS},
            }
            for deal in deal_set.deals
        ],
    }


def deal_set_from_json(data: Any) -> DealSet:
    """Read ``deal_set_to_json``'s form; raises ``DealSetError`` saying what is
    wrong, including any deal that is not the one its seed gives."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise DealSetError(f"not a deal set: the format must be {FORMAT!r}")
    name, seed, deals = data.get("name"), data.get("seed"), data.get("deals")
    if not isinstance(name, str) or type(seed) is not int or not isinstance(deals, list):
        raise DealSetError(
            "a deal set has a name (text), a seed (a whole number) and deals (a list)"
        )
    read: list[Deal] = []
    for index, entry in enumerate(deals):
        try:
            dealer = SEAT_LETTERS.index(entry["dealer"])
            hands = tuple(mask_of(parse_cards(entry["hands"][letter])) for letter in SEAT_LETTERS)
        except (KeyError, TypeError, ValueError) as error:
            raise DealSetError(f"deal {index} cannot be read: {error}") from None
        deal = Deal(index, dealer, (hands[0], hands[1], hands[2], hands[3]))
        if deal != arena_deal(seed, index):
            raise DealSetError(
                f"deal {index} is not the one seed {seed} deals: the file was changed"
            )
        read.append(deal)
    return DealSet(name, seed, tuple(read))


def deal_set_path(name: str) -> Path:
    """Where the shipped deal set ``name`` lives."""
    if name not in SHIPPED:
        raise DealSetError(f"no deal set is called {name!r} (shipped: {', '.join(SHIPPED)})")
    return Path(str(resources.files("spades.rl").joinpath("deals", f"{name}.json")))


def load_deal_set(name_or_path: str | Path) -> DealSet:
    """A shipped deal set by name (``"test-v1"``) or any deal set file by path."""
    path = Path(name_or_path)
    if str(name_or_path) in SHIPPED:
        path = deal_set_path(str(name_or_path))
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise DealSetError(f"cannot read the deal set {str(path)!r}: {error}") from None
    return deal_set_from_json(data)


def write_deal_set(deal_set: DealSet, path: Path) -> None:
    """One deal a line, so a diff of two versions shows the deals that differ."""
    data = deal_set_to_json(deal_set)
    deals = data.pop("deals")
    head = json.dumps(data)[:-1]
    lines = ",\n".join("  " + json.dumps(deal) for deal in deals)
    path.write_text(f'{head}, "deals": [\n{lines}\n]}}\n', encoding="utf-8")
