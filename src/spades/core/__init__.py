"""The Spades engine: cards, rules, hands, games, scoring, views and records.

Standard library only; everything else in ``spades`` is built on this package.
"""

from .bids import BLIND_NIL, Bid, bid_from_json, bid_name, bid_to_json, is_nil, parse_bid
from .cards import (
    CLUBS,
    DIAMONDS,
    FULL_DECK,
    HEARTS,
    SPADES,
    SUIT_MASKS,
    Card,
    Suit,
    card_long_name,
    card_name,
    cards_in,
    mask_of,
    parse_card,
    parse_cards,
    rank_of,
    suit_of,
)
from .claims import Claim, ClaimTerms, claim_terms
from .errors import (
    GameOverError,
    IllegalActionError,
    IllegalBidError,
    IllegalCardError,
    IllegalClaimError,
    NotYourTurnError,
    RecordError,
    Rule,
    SpadesError,
    UndoError,
)
from .game import (
    BidMade,
    CardPlayed,
    Event,
    Game,
    GameOver,
    HandDealt,
    HandScored,
    ScoredHand,
    TrickWon,
    Undo,
)
from .hand import (
    HandState,
    Phase,
    Trick,
    beats,
    deal,
    legal_play_mask,
    trick_winner,
    winning_position,
)
from .record import game_from_record, game_to_record, read_records, record_to_json
from .rules import CARDCOUCH, RULE_SETS, Rules
from .scoring import (
    NIL,
    Outcome,
    TeamHandScore,
    Termination,
    game_outcome,
    score_hand,
)
from .seats import (
    EAST,
    EW,
    NORTH,
    NS,
    SEATS,
    SOUTH,
    WEST,
    Seat,
    Team,
    next_seat,
    parse_seat,
    partner_of,
    seat_name,
    team_of,
)
from .seeding import Seeding, commitment, seeded_deals, verify_commitment
from .view import PlayerView, state_from_view

__all__ = [
    "BLIND_NIL", "CARDCOUCH", "CLUBS", "DIAMONDS", "EAST", "EW", "FULL_DECK", "HEARTS", "NIL", "NORTH",
    "NS", "RULE_SETS", "SEATS", "SOUTH", "SPADES", "SUIT_MASKS", "WEST",
    "Bid", "BidMade", "Card", "CardPlayed", "Claim", "ClaimTerms", "Event", "Game", "GameOver", "GameOverError",
    "HandDealt", "HandScored", "HandState", "IllegalActionError", "IllegalBidError",
    "IllegalCardError", "IllegalClaimError", "NotYourTurnError", "Outcome", "Phase", "PlayerView", "RecordError",
    "Rule", "Rules", "ScoredHand", "Seat", "Seeding", "SpadesError", "Suit", "Team", "TeamHandScore",
    "Termination", "Trick", "TrickWon", "Undo", "UndoError",
    "beats", "bid_from_json", "bid_name", "bid_to_json", "card_long_name", "card_name", "cards_in", "claim_terms", "commitment", "deal",
    "game_from_record", "game_outcome", "game_to_record", "is_nil", "legal_play_mask", "mask_of",
    "next_seat", "parse_bid", "parse_card", "parse_cards", "parse_seat", "partner_of", "rank_of",
    "read_records", "record_to_json", "score_hand", "seat_name", "seeded_deals",
    "state_from_view", "suit_of", "team_of", "trick_winner", "verify_commitment", "winning_position",
]  # fmt: skip
