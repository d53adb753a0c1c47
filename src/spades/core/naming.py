"""How a sentence for a person names seats and cards: one place for every surface.

The reviews of a hand, a record's refusals and the engine's own refusals are
sentences about seats and cards. Who reads them decides the words: the web
page speaks to its player ("your Queen of diamonds", "you hold a heart"), the
terminal and a record's reader name every seat ("South's Queen of diamonds",
"East holds a heart"), and only a machine format wants codes ("QD"). A
``Naming`` says which; the sentences are written once, with its words.

>>> page, terminal = Naming(reader=2), Naming()
>>> page.sentence(f"{page.possessive(2)} {page.card(49)} won")
'Your Queen of spades won'
>>> terminal.sentence(f"{terminal.possessive(2)} {terminal.card(49)} won")
"South's Queen of spades won"
>>> Naming(codes=True).card(49), terminal.verb(1, "hold", "holds"), page.verb(2, "hold", "holds")
('QS', 'holds', 'hold')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .cards import CARD_NAMES, Card, card_long_name
from .seats import SEAT_NAMES, TEAM_LONG_NAMES, Seat


@dataclass(frozen=True, slots=True)
class Naming:
    """The words for seats and cards in sentences for one reader."""

    reader: Seat | None = None
    """The seat the sentences are for, named "you"; ``None``: every seat by name."""
    codes: bool = False
    """Cards by their codes ("QD"), for a reader who wants the machine form;
    otherwise by name ("Queen of diamonds")."""

    def card(self, card: Card) -> str:
        """A card, without its article: "Queen of diamonds" (or "QD")."""
        return CARD_NAMES[card] if self.codes else card_long_name(card)

    def seat(self, seat: Seat) -> str:
        """A seat as the subject or object of a sentence: "you", "North"."""
        return "you" if seat == self.reader else SEAT_NAMES[seat]

    def possessive(self, seat: Seat) -> str:
        """A seat's, before what it has: "your", "North's"."""
        return "your" if seat == self.reader else f"{SEAT_NAMES[seat]}'s"

    def side(self, team: int) -> str:
        """A partnership: "your side", "North-South"."""
        return "your side" if self._reads_for(team) else TEAM_LONG_NAMES[team]

    def sides(self, team: int) -> str:
        """A partnership's, before what it has: "your side's", "North-South's"."""
        return "your side's" if self._reads_for(team) else f"{TEAM_LONG_NAMES[team]}'s"

    def verb(self, seat: Seat, plain: str, third: str) -> str:
        """The verb for ``seat`` as subject: ``plain`` for "you" ("hold"),
        ``third`` for a seat named ("holds")."""
        return plain if seat == self.reader else third

    @staticmethod
    def sentence(text: str) -> str:
        """``text`` starting with a capital, as a sentence does ("you" -> "You")."""
        return text[:1].upper() + text[1:]

    def _reads_for(self, team: int) -> bool:
        return self.reader is not None and self.reader & 1 == team


IN_WORDS: Final = Naming()
"""Every seat by name, every card in words: the terminal, a record's reader."""
