"""Run the doctests of the modules mypyc compiles, on their source."""

import doctest

import pytest

from tests.pure import COMPILED, load_source


@pytest.mark.parametrize("name", COMPILED)
def test_doctests_of_compiled_module(name: str) -> None:
    module = load_source(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0, f"{name} has no doctests"
    assert result.failed == 0
