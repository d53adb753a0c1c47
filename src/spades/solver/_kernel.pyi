"""The C search of ``_kernel.c`` (see ``dds.Solver._root_search``)."""

class Kernel:
    """One Solver's transposition tables, and the searches that use them."""

    def tricks(
        self,
        h0: int,
        h1: int,
        h2: int,
        h3: int,
        alive: int,
        trick_mask: int,
        leader: int,
        turn: int,
        pos: int,
        led: int,
        win_card: int,
        win_seat: int,
        broken: bool,
        left: int,
        counted: int,
        max_team: int,
        team_objective: bool,
        target: int,
        nodes: int,
        limit: int,
        /,
    ) -> tuple[int, int]: ...
    def nil(
        self,
        h0: int,
        h1: int,
        h2: int,
        h3: int,
        alive: int,
        trick_mask: int,
        leader: int,
        turn: int,
        pos: int,
        led: int,
        win_card: int,
        win_seat: int,
        broken: bool,
        left: int,
        nil_seat: int,
        nodes: int,
        limit: int,
        /,
    ) -> tuple[int, int]: ...
    def shapes(self, question: int, /) -> int: ...
