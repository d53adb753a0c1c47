"""The rule set as data: options, presets and a short syntax to name them.

A ``Rules`` value holds every choice a house rule can make, with the rule
page's values (the ``cardcouch`` preset) as defaults. Variants are other values
of it, never ``if``s scattered through the engine: the scorer, the hand and the
game read the fields, and every surface (the ``--rules`` option of the
commands, the web page's new-game dialog, records, the bot protocol's
``hello``) names a rule set with ``parse_rules``.

>>> Rules().describe()
'first to 500, out at -200'
>>> rules = parse_rules("cardcouch,target=300,blind_nil=on,nil_pass=2")
>>> rules.target, rules.blind_nil, rules.nil_pass
(300, True, 2)
>>> rules_name(rules)
'cardcouch,target=300,blind_nil=on,nil_pass=2'
>>> Rules.from_dict(rules.to_dict()) == rules
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Final, Literal

from .errors import Rule, SpadesError

FirstLead = Literal["left", "two_of_clubs"]
FIRST_LEADS: Final[tuple[FirstLead, ...]] = ("left", "two_of_clubs")


class RulesError(SpadesError):
    """Rule options that are unknown, mistyped, out of range or contradict each other."""

    rule = Rule.RULE_SET


@dataclass(frozen=True, slots=True)
class Option:
    """How one field of ``Rules`` is written and checked."""

    name: str
    kind: Literal["int", "optional int", "bool", "choice"]
    low: int = 0
    high: int = 10_000
    choices: tuple[str, ...] = ()
    summary: str = ""


OPTIONS: Final[tuple[Option, ...]] = (
    Option("target", "int", 1, 10_000, summary="a team reaching this many points wins"),
    Option("floor", "optional int", -10_000, 9_999, summary="a team at or below it loses (none: no floor)"),
    Option("bag_limit", "optional int", 1, 100, summary="bags that cost a penalty (none: bags cost nothing)"),
    Option("bag_penalty", "int", 0, 1000, summary="points lost each time the bag limit is reached"),
    Option("nil_bonus", "int", 0, 1000, summary="points won for a made Nil, lost for a failed one"),
    Option("double_nil", "bool", summary="both partners may bid Nil"),
    Option("double_nil_bonus", "optional int", 0, 2000,
           summary="both Nils scored as one, for this many points (none: each Nil alone)"),
    Option("blind_nil", "bool", summary="Nil may be bid before looking at one's cards"),
    Option("blind_nil_bonus", "int", 0, 2000, summary="points won for a made blind Nil, lost for a failed one"),
    Option("blind_nil_behind", "int", 0, 10_000, summary="blind Nil only for a team behind by at least this"),
    Option("nil_pass", "int", 0, 3, summary="cards a Nil bidder and partner pass each other"),
    Option("blind_nil_pass", "int", 0, 3, summary="cards a blind Nil bidder and partner pass each other"),
    Option("first_lead", "choice", choices=FIRST_LEADS,
           summary="who leads the first trick: left of the dealer (no spade), or the two of clubs"),
    Option("spades_break", "bool", summary="spades may not be led until broken (off: any time)"),
    Option("min_team_bid", "int", 0, 13, summary="the least a partnership may bid in all (a double Nil aside)"),
)  # fmt: skip
"""Every option, in the order records and the short syntax write them."""

ORIGINAL_KEYS: Final = ("target", "floor", "bag_limit", "bag_penalty", "nil_bonus", "blind_nil")
"""The keys every record has written since the first ``spades-record/1``; the
other options are written only when they differ from the default, so a record
of the default rules reads exactly as before and an older reader refuses (as
unknown) only the options it could not play."""


@dataclass(frozen=True, slots=True)
class Rules:
    """Every choice of a game of Spades (defaults: the CardCouch rule page)."""

    target: int = 500
    """A team reaching this many points wins."""
    floor: int | None = -200
    """A team sinking to this many points (or below) loses on the spot; ``None``: never."""
    bag_limit: int | None = 10
    """Every time a team's bags reach this count it is penalised; ``None``: bags cost nothing."""
    bag_penalty: int = 100
    """Points lost each time the bag limit is reached."""
    nil_bonus: int = 100
    """Points won for a made Nil, and lost for a failed one."""
    double_nil: bool = True
    """Whether both partners may bid Nil (the rule page allows it)."""
    double_nil_bonus: int | None = None
    """When set, two partners' Nils are scored as one: this many points if
    neither takes a trick, minus as many otherwise. ``None``: each Nil alone."""
    blind_nil: bool = False
    """Whether a player may bid Nil before looking at the cards (the rule page: no)."""
    blind_nil_bonus: int = 200
    """Points won for a made blind Nil, and lost for a failed one."""
    blind_nil_behind: int = 0
    """Blind Nil is open only to a team behind the other by at least this many points."""
    nil_pass: int = 0
    """Cards a Nil bidder and partner pass each other once the bidding is over."""
    blind_nil_pass: int = 0
    """Cards a blind Nil bidder and partner pass each other."""
    first_lead: FirstLead = "left"
    """``"left"``: left of the dealer leads anything but a spade (the rule page);
    ``"two_of_clubs"``: whoever holds the two of clubs leads it."""
    spades_break: bool = True
    """Whether spades may be led only once broken (the rule page: yes)."""
    min_team_bid: int = 0
    """The least a partnership's bids may add up to (two Nils aside)."""

    def __post_init__(self) -> None:
        for option in OPTIONS:
            _check(option, getattr(self, option.name))
        if self.floor is not None and self.floor >= self.target:
            raise RulesError(f"the floor ({self.floor}) must be below the target ({self.target})")
        if self.double_nil_bonus is not None and not self.double_nil:
            raise RulesError("double_nil_bonus scores a double Nil, which double_nil=off forbids")
        if self.blind_nil_pass and not self.blind_nil:
            raise RulesError("blind_nil_pass needs blind_nil=on")

    # --------------------------------------------------------------- records

    def to_dict(self) -> dict[str, int | bool | str | None]:
        """The rules as written in a game record (see ``ORIGINAL_KEYS``)."""
        written: dict[str, int | bool | str | None] = {}
        for option in OPTIONS:
            value = getattr(self, option.name)
            if option.name in ORIGINAL_KEYS or value != getattr(CARDCOUCH, option.name):
                written[option.name] = value
        return written

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Rules:
        """Rules from a record's ``rules`` object; missing keys take the defaults.

        >>> Rules.from_dict({"target": "500"})
        Traceback (most recent call last):
        ...
        spades.core.rules.RulesError: rule 'target' must be a whole number, got '500'
        >>> Rules.from_dict({"trumps": "hearts"})
        Traceback (most recent call last):
        ...
        spades.core.rules.RulesError: unknown rule 'trumps' (known: target, floor, bag_limit, bag_penalty, nil_bonus, double_nil, double_nil_bonus, blind_nil, blind_nil_bonus, blind_nil_behind, nil_pass, blind_nil_pass, first_lead, spades_break, min_team_bid)
        """
        _check_known(data)
        return cls(**data)  # type: ignore[arg-type]  # types are checked in __post_init__

    # ------------------------------------------------------------ in words

    def describe(self) -> str:
        """A few words for the table: ``"first to 300, out at -200, blind Nil"``.

        >>> parse_rules("club").describe()
        'first to 500, out at -200, no bags, Nil passes 2, blind Nil (passes 3), two of clubs leads'
        """
        words = [f"first to {self.target}"]
        if self.floor is not None:
            words.append(f"out at {self.floor}")
        if self.bag_limit is None:
            words.append("no bags")
        elif (self.bag_limit, self.bag_penalty) != (10, 100):
            words.append(f"{self.bag_limit} bags cost {self.bag_penalty}")
        if self.nil_bonus != 100:
            words.append(f"Nil {self.nil_bonus}")
        if not self.double_nil:
            words.append("no double Nil")
        elif self.double_nil_bonus is not None:
            words.append(f"double Nil {self.double_nil_bonus}")
        if self.nil_pass:
            words.append(f"Nil passes {self.nil_pass}")
        if self.blind_nil:
            terms = []
            if self.blind_nil_bonus != 200:
                terms.append(str(self.blind_nil_bonus))
            if self.blind_nil_behind:
                terms.append(f"when {self.blind_nil_behind} behind")
            if self.blind_nil_pass:
                terms.append(f"passes {self.blind_nil_pass}")
            words.append("blind Nil" + (f" ({', '.join(terms)})" if terms else ""))
        if self.first_lead == "two_of_clubs":
            words.append("two of clubs leads")
        if not self.spades_break:
            words.append("spades lead any time")
        if self.min_team_bid:
            words.append(f"team bids {self.min_team_bid}+")
        return ", ".join(words)

    def explained(self) -> RulesExplained:
        """These rules in full sentences, section by section, as a rule page
        says them (the web page's How to play): every number and option the
        game is played with, and nothing it is not.

        >>> explained = parse_rules("cardcouch,blind_nil=on,nil_bonus=50").explained()
        >>> explained.bidding[0]
        'One round, starting left of the dealer. Everyone must bid: a number from 1 to 13, or Nil (no one may pass).'
        >>> [line.points for line in explained.scoring if "Nil" in line.result]
        ['+50', '−50, its tricks become bags', '+200', '−200, its tricks become bags']
        """
        nil, blind = self.nil_bonus, self.blind_nil_bonus
        bidding = [
            "One round, starting left of the dealer. Everyone must bid: a number from 1 to 13, "
            "or Nil (no one may pass)."
        ]
        if not self.blind_nil:
            bidding.append("No blind Nil.")
        else:
            when = (
                f" if your team is {self.blind_nil_behind} points or more behind"
                if self.blind_nil_behind
                else ""
            )
            bidding.append(
                f"Blind Nil: before looking at your cards you may bid Nil blind{when}: "
                f"+{blind} if you take no trick, {_minus(blind)} if you take one."
            )
        team = "You and your partner's bids add up to your team's bid."
        if self.min_team_bid:
            team += f" Together you must bid at least {self.min_team_bid}, unless both bid Nil."
        bidding.append(team)
        bidding.append(
            f"Nil promises to take no trick at all: +{nil} if you manage it, {_minus(nil)} if "
            "you take even one. A Nil bidder's partner is judged on their own tricks alone, "
            "and the Nil bidder's tricks become bags."
        )
        if not self.double_nil:
            bidding.append("Only one partner of a team may bid Nil.")
        elif self.double_nil_bonus is not None:
            both = self.double_nil_bonus
            bidding.append(
                f"Both partners may bid Nil, scored as one: +{both} if neither takes a trick, "
                f"{_minus(both)} otherwise."
            )
        passing = []
        if self.nil_pass:
            passing.append(
                f"After the bidding, a Nil bidder and their partner pass each other "
                f"{_cards(self.nil_pass)} before the play."
            )
        if self.blind_nil and self.blind_nil_pass:
            passing.append(
                f"After a blind Nil, the bidder and their partner pass each other "
                f"{_cards(self.blind_nil_pass)}."
            )
        elif self.blind_nil and self.nil_pass:
            passing.append("A blind Nil passes no cards.")
        if self.first_lead == "two_of_clubs":
            first = "Whoever holds the two of clubs leads it to the first trick."
        elif self.spades_break:
            first = (
                "The player left of the dealer leads the first trick, with any card but a "
                "spade (unless they hold nothing but spades)."
            )
        else:
            first = "The player left of the dealer leads the first trick, with any card."
        play = [
            first,
            "Play goes clockwise. Follow suit if you can; if you cannot, play any card, a "
            "spade included.",
            "The highest spade wins the trick; with no spade in it, the highest card of the "
            "suit led wins. The winner leads next.",
            "No one may lead a spade until spades are broken (a spade has been played), "
            "unless they hold nothing but spades."
            if self.spades_break
            else "Spades may be led at any time: they need not be broken first.",
        ]
        scoring = [
            ScoreLine("Team makes its bid", "+10 per trick bid, +1 per extra trick",
                      "Bid 7, take 8: +71 and 1 bag"),
            ScoreLine("Team is set (falls short)", "−10 per trick bid", "Bid 7, take 6: −70"),
            ScoreLine("Nil made", f"+{nil}", f"Partner bid 4, took 5: +{nil} +41"),
            ScoreLine("Nil failed", f"{_minus(nil)}, its tricks become bags",
                      f"Nil bidder took 2: {_minus(nil)}, 2 bags"),
        ]  # fmt: skip
        if self.blind_nil:
            scoring += [
                ScoreLine("Blind Nil made", f"+{blind}", f"Partner bid 4, took 5: +{blind} +41"),
                ScoreLine("Blind Nil failed", f"{_minus(blind)}, its tricks become bags",
                          f"Blind Nil bidder took 1: {_minus(blind)}, 1 bag"),
            ]  # fmt: skip
        if self.double_nil and self.double_nil_bonus is not None:
            both = self.double_nil_bonus
            scoring.append(
                ScoreLine("Both partners bid Nil", f"+{both}, or {_minus(both)} if either "
                          "takes a trick", f"Both take none: +{both}")
            )  # fmt: skip
        if self.bag_limit is None:
            scoring.append(ScoreLine("Bags (extra tricks)", "Cost nothing", "Bid 3, take 6: +33"))
        else:
            limit, penalty = self.bag_limit, self.bag_penalty
            # From just under the limit to just past it: one penalty, a bag left over.
            before, after = (limit - 2, limit + 1) if limit >= 2 else (0, 1)
            scoring.append(
                ScoreLine(f"Every {limit} bags" if limit > 1 else "Every bag", _minus(penalty),
                          f"Bags {before} → {after}: {_minus(penalty)}, "
                          f"{_bags(after - limit)} left")
            )  # fmt: skip
        winning = (
            f"First team to {self.target} wins; if both pass {self.target} in the same hand, "
            "the higher total wins."
        )
        if self.floor is not None:
            winning += f" A team that sinks to {_signed(self.floor)} loses on the spot."
        winning += " Equal totals: play another hand."
        return RulesExplained(
            bidding=tuple(bidding),
            passing=tuple(passing),
            play=tuple(play),
            scoring=tuple(scoring),
            winning=winning,
        )

    def bag_penalties(self, bags: int) -> tuple[int, int]:
        """How many penalties a team with ``bags`` bags pays, and the bags it keeps.

        >>> Rules().bag_penalties(23), Rules(bag_limit=None).bag_penalties(23)
        ((2, 3), (0, 23))
        """
        if self.bag_limit is None:
            return 0, bags
        return bags // self.bag_limit, bags % self.bag_limit

    @property
    def bag_cost(self) -> float:
        """What one bag costs on average, in points (0 without a bag limit)."""
        return 0.0 if self.bag_limit is None else self.bag_penalty / self.bag_limit

    def passes_for(self, blind: bool) -> int:
        """The cards passed each way for a Nil (``blind``: a blind Nil)."""
        return self.blind_nil_pass if blind else self.nil_pass


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One line of the scoring table: a result, its points and an example."""

    result: str
    points: str
    example: str


@dataclass(frozen=True, slots=True)
class RulesExplained:
    """A rule set in sentences, by section (``Rules.explained``)."""

    bidding: tuple[str, ...]
    passing: tuple[str, ...]
    """Empty when no cards are passed."""
    play: tuple[str, ...]
    scoring: tuple[ScoreLine, ...]
    winning: str


def _minus(points: int) -> str:
    """``points`` lost, written as a rule page writes it: ``−100``."""
    return f"\u2212{points}"


def _signed(points: int) -> str:
    return _minus(-points) if points < 0 else str(points)


def _bags(count: int) -> str:
    return "1 bag" if count == 1 else f"{count} bags"


def _cards(count: int) -> str:
    return "1 card" if count == 1 else f"{count} cards"


def _check_known(data: Mapping[str, object]) -> None:
    known = [option.name for option in OPTIONS]
    for key in data:
        if key not in known:
            raise RulesError(f"unknown rule {key!r} (known: {', '.join(known)})")


def _check(option: Option, value: object) -> None:
    name = option.name
    if option.kind == "bool":
        if type(value) is not bool:
            raise RulesError(f"rule {name!r} must be true or false, got {value!r}")
        return
    if option.kind == "choice":
        if value not in option.choices:
            raise RulesError(
                f"rule {name!r} must be one of {', '.join(option.choices)}, got {value!r}"
            )
        return
    if value is None and option.kind == "optional int":
        return
    if type(value) is not int:
        raise RulesError(f"rule {name!r} must be a whole number, got {value!r}")
    if not option.low <= value <= option.high:
        raise RulesError(f"rule {name!r} must be from {option.low} to {option.high}, got {value}")


# ------------------------------------------------------------------ presets


CARDCOUCH: Final = Rules()
"""The rule page's rules: the default everywhere."""


@dataclass(frozen=True, slots=True)
class Preset:
    rules: Rules
    source: str
    """Where the rule set comes from."""


PRESETS: Final[Mapping[str, Preset]] = {
    "cardcouch": Preset(
        CARDCOUCH,
        "The CardCouch rule page (how-to-play-spades.txt and CLARIFICATIONS.md): first to 500, "
        "out at -200, Nil 100, no blind Nil, 10 bags cost 100.",
    ),
    "traditional": Preset(
        Rules(floor=None, blind_nil=True, blind_nil_behind=100, blind_nil_pass=2),
        "Spades as traditionalgamerules.neocities.org/spades gives it: first to 500, Nil 100, "
        "blind Nil 200 for a team losing by at least 100, the blind Nil bidder and partner "
        "exchanging two cards; no floor.",
    ),
    "club": Preset(
        Rules(
            bag_limit=None,
            blind_nil=True,
            nil_pass=2,
            blind_nil_pass=3,
            first_lead="two_of_clubs",
        ),
        "The house rules of looneyville.net/other_card_games/spades.html: the two of clubs "
        "leads, no sandbagging penalty, Nil 100 passing two cards, blind Nil 200 passing three.",
    ),
}
"""Named rule sets, each with its source."""

RULE_SETS: Final[Mapping[str, Rules]] = {name: preset.rules for name, preset in PRESETS.items()}
"""The presets' rules by name."""


# ------------------------------------------------------------- short syntax


_ON: Final = frozenset({"on", "true", "yes", "1"})
_OFF: Final = frozenset({"off", "false", "no", "0"})
_NONE: Final = frozenset({"none", "off", "no"})


def parse_rules(text: str) -> Rules:
    """Rules from the short syntax: a preset, then ``option=value`` changes, all
    separated by commas (``cardcouch,target=300,blind_nil=on``). The preset may
    be left out (``target=300`` starts from ``cardcouch``). Values: whole numbers,
    ``on``/``off``, ``none`` where an option allows it, or a choice's name.

    >>> parse_rules("traditional,target=300").target
    300
    >>> parse_rules("cardcouch,nil_pass=5")
    Traceback (most recent call last):
    ...
    spades.core.rules.RulesError: rule 'nil_pass' must be from 0 to 3, got 5
    >>> parse_rules("cardcouch,blind_nil")
    Traceback (most recent call last):
    ...
    spades.core.rules.RulesError: 'blind_nil' is not an option=value pair: write blind_nil=on
    """
    parts = [part.strip() for part in text.split(",") if part.strip()]
    base = CARDCOUCH
    if parts and "=" not in parts[0] and parts[0].lower() in PRESETS:
        base = PRESETS[parts.pop(0).lower()].rules
    elif parts and "=" not in parts[0] and parts[0].lower() not in {o.name for o in OPTIONS}:
        raise RulesError(f"no rule set is called {parts[0]!r} (known: {', '.join(PRESETS)})")
    by_name = {option.name: option for option in OPTIONS}
    changes: dict[str, object] = {}
    for part in parts:
        name, equals, written = part.partition("=")
        name = name.strip().lower().replace("-", "_")
        if not equals:
            example = (
                f"{name}=on" if name in by_name and by_name[name].kind == "bool" else "name=value"
            )
            raise RulesError(f"{part!r} is not an option=value pair: write {example}")
        if name not in by_name:
            _check_known({name: None})
        changes[name] = _read_value(by_name[name], written.strip())
    return replace(base, **changes)  # type: ignore[arg-type]  # checked in __post_init__


def _read_value(option: Option, written: str) -> object:
    word = written.lower()
    if option.kind == "bool":
        if word in _ON:
            return True
        if word in _OFF:
            return False
        raise RulesError(f"rule {option.name!r} is on or off, not {written!r}")
    if option.kind == "choice":
        word = word.replace("-", "_")
        if word not in option.choices:
            raise RulesError(
                f"rule {option.name!r} must be one of {', '.join(option.choices)}, not {written!r}"
            )
        return word
    if option.kind == "optional int" and word in _NONE:
        return None
    try:
        return int(word)
    except ValueError:
        extra = " or none" if option.kind == "optional int" else ""
        raise RulesError(
            f"rule {option.name!r} must be a whole number{extra}, not {written!r}"
        ) from None


def rules_name(rules: Rules) -> str:
    """The shortest way to write ``rules`` in the short syntax: the preset it
    differs least from, then the changes.

    >>> rules_name(Rules()), rules_name(Rules(bag_limit=None))
    ('cardcouch', 'cardcouch,bag_limit=none')
    """
    best = ""
    for name, preset in PRESETS.items():
        changes = [
            f"{option.name}={_write_value(getattr(rules, option.name))}"
            for option in OPTIONS
            if getattr(rules, option.name) != getattr(preset.rules, option.name)
        ]
        candidate = ",".join([name, *changes])
        if not best or candidate.count(",") < best.count(","):
            best = candidate
    return best


def _write_value(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)
