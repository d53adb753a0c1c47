"""Write the brute-force reference: random small endgames with plain minimax's
answers to every question the solver is asked.

    PYTHONPATH=src .venv/bin/python -m tools.brute_force_reference > tests/solver/brute_force.txt

(from the repository's root: the positions and the minimax are the tests' own,
``tests/solver/reference.py`` and ``brute.py``). The solver's tests
(``tests/solver/test_against_brute_force.py``) check it against the file
instead of running the exhaustive search at every run, which was most of their
time; ``tests/solver/test_brute_force_reference.py`` checks that the file holds
the positions made from the seeds and, on a sample, minimax's answers. Write it
again after changing the positions or the questions, never after changing the
solver: the minimax is the reference, and it does not change with the solver.
A few minutes.
"""

from __future__ import annotations

import sys

from tests.solver.reference import HEADER, line, minimax_answers, positions, read_line


def main() -> None:
    sys.stdout.write(HEADER)
    for state in positions():
        text = line(state, minimax_answers(state))
        again = read_line(text).state  # the line makes the same position again
        assert (again.hands, again.trick, again.turn, again.leader, again.spades_broken) == (
            state.hands,
            state.trick,
            state.turn,
            state.leader,
            state.spades_broken,
        ), text
        print(text, flush=True)


if __name__ == "__main__":
    main()
