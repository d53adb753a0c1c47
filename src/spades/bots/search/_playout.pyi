"""The search's playouts in C (see ``_playout.c``)."""

def play_out(
    hands: tuple[int, int, int, int],
    trick: tuple[int, ...],
    leader: int,
    finished: int,
    tricks_won: tuple[int, int, int, int],
    bids: tuple[int, int, int, int],
    spades_broken: bool,
    voids: int,
    played: int,
    two_of_clubs_lead: bool,
    bag_limit: int,
    bag_penalty: int,
    bags: tuple[int, int],
) -> tuple[int, int, int, int]:
    """The tricks each seat has won once the knowledge-based player has played
    the hand out at every seat (bids: 100 for a seat yet to bid; bag_limit: -1
    for none)."""

def choose(
    hands: tuple[int, int, int, int],
    trick: tuple[int, ...],
    leader: int,
    finished: int,
    tricks_won: tuple[int, int, int, int],
    bids: tuple[int, int, int, int],
    spades_broken: bool,
    voids: int,
    played: int,
    two_of_clubs_lead: bool,
    bag_limit: int,
    bag_penalty: int,
    bags: tuple[int, int],
) -> int:
    """The card the seat to play plays now, as ``choose_card`` would."""
