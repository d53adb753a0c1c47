"""Playing a challenge deal through the service as a simple South would."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from spades.challenge import ChallengeService, DealPlay
from spades.core import SOUTH, Game

Choice = Callable[[Game], int]


def lowest_bid(game: Game) -> int:
    return min(bid for bid in game.legal_bids() if bid > 0)


def first_card(game: Game) -> int:
    return game.legal_cards()[0]


def play_deal(
    service: ChallengeService,
    owner: str,
    day: date,
    number: int,
    *,
    bid: Choice = lowest_bid,
    card: Choice = first_card,
) -> DealPlay:
    """Start deal ``number`` and play it to the end, South choosing by ``bid`` and ``card``."""
    play, _ = service.start(owner, day, number)
    for _ in range(20):
        if play.over:
            return play
        game = play.game
        assert game.to_act == SOUTH
        if game.legal_bids():
            chosen = bid(game)
            play, _ = service.act(owner, day, number, lambda g, chosen=chosen: g.bid(SOUTH, chosen))
        else:
            for _ in range(13):
                if play.over or play.game.legal_bids():
                    break
                chosen = card(play.game)
                play, _ = service.act(
                    owner, day, number, lambda g, chosen=chosen: g.play(SOUTH, chosen)
                )
    assert play.over
    return play
