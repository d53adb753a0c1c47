"""The rule set as data.

A ``Rules`` value holds every number the rule page fixes, with the rule page's
values as defaults. Variants are other values of it (looked up by name in
``RULE_SETS``), never ``if``s scattered through the engine.

>>> Rules().to_dict()
{'target': 500, 'floor': -200, 'bag_limit': 10, 'bag_penalty': 100, 'nil_bonus': 100, 'blind_nil': False}
>>> Rules.from_dict({"target": 300}).target
300
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Final


@dataclass(frozen=True, slots=True)
class Rules:
    """The numbers of a game of Spades (defaults: the CardCouch rule page)."""

    target: int = 500
    """A team reaching this many points wins."""
    floor: int = -200
    """A team sinking to this many points (or below) loses on the spot."""
    bag_limit: int = 10
    """Every time a team's bags reach this count it is penalised."""
    bag_penalty: int = 100
    """Points lost each time the bag limit is reached."""
    nil_bonus: int = 100
    """Points won for a made Nil, and lost for a failed one."""
    blind_nil: bool = False
    """Blind Nil (bidding Nil before seeing one's cards). Not offered yet."""

    def __post_init__(self) -> None:
        for field in fields(self):
            value = getattr(self, field.name)
            wanted = bool if field.type in ("bool", bool) else int
            if type(value) is not wanted:
                raise ValueError(f"rule {field.name!r} must be {wanted.__name__}, got {value!r}")
        if self.floor >= self.target:
            raise ValueError(f"the floor ({self.floor}) must be below the target ({self.target})")
        if self.bag_limit < 1:
            raise ValueError(f"the bag limit must be at least 1, got {self.bag_limit}")
        if self.bag_penalty < 0 or self.nil_bonus < 0:
            raise ValueError("the bag penalty and the Nil bonus cannot be negative")
        if self.blind_nil:
            raise ValueError("blind Nil is not offered: this engine plays simple Nil only")

    def to_dict(self) -> dict[str, int | bool]:
        """The rules as written in a game record."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Rules:
        """Rules from a record's ``rules`` object; missing keys take the defaults.

        >>> Rules.from_dict({"target": "500"})
        Traceback (most recent call last):
        ...
        ValueError: rule 'target' must be int, got '500'
        >>> Rules.from_dict({"trumps": "hearts"})
        Traceback (most recent call last):
        ...
        ValueError: unknown rule 'trumps' (known: target, floor, bag_limit, bag_penalty, nil_bonus, blind_nil)
        """
        known = [field.name for field in fields(cls)]
        for key in data:
            if key not in known:
                raise ValueError(f"unknown rule {key!r} (known: {', '.join(known)})")
        return cls(**data)  # type: ignore[arg-type]  # types are checked in __post_init__


CARDCOUCH: Final = Rules()
"""The rule page's rules: the default everywhere."""

RULE_SETS: Final[Mapping[str, Rules]] = {"cardcouch": CARDCOUCH}
"""Named rule sets a user can choose from."""
