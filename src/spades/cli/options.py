"""Options several commands share."""

from __future__ import annotations

from typing import Annotated, Final

import typer

from spades.core import PRESETS, Rules, RulesError, parse_rules

RULES_HELP: Final = (
    "The rules: a preset ("
    + ", ".join(PRESETS)
    + ") then changes, e.g. cardcouch,target=300,blind_nil=on,nil_pass=2 (docs/rules.md)."
)

RulesOption = Annotated[str, typer.Option("--rules", metavar="RULES", help=RULES_HELP)]


def read_rules(text: str) -> Rules:
    """The ``--rules`` value as ``Rules``; a bad one stops the command saying why."""
    try:
        return parse_rules(text)
    except RulesError as error:
        raise typer.BadParameter(str(error), param_hint="--rules") from None
