"""The learned bidding model's coefficients. Generated: do not edit by hand.

Regenerate with:

    .venv/bin/python tools/fit_bidding.py --hands 50000 --seed 1 --iterations 3

How well it fitted:

    round 3 of 3:
    tricks: 150,382 numeric seat-hands, R^2 0.552, RMSE 1.239 tricks
    Nil: 49,618 Nil seat-hands (13,068 explored), 61.1% made; log-loss 0.527 (constant rate: 0.668)
      Nils bid by choice, partner at a number: 35,207, 74.3% made
      Nils beside a partner's Nil: 3,748, 29.6% made
      predicted 0.18 -> made 0.19 (9,924 hands)
      predicted 0.58 -> made 0.56 (9,924 hands)
      predicted 0.68 -> made 0.67 (9,924 hands)
      predicted 0.76 -> made 0.76 (9,923 hands)
      predicted 0.85 -> made 0.88 (9,923 hands)
    partners: tricks of a partner who bid k = 0.34 + 0.970 k; a partner to bid later bids 3.24 and takes +0.46 (sd 1.12) over it; error correlation -0.498
    a Nil bidder's partner (bidding after the Nil): bids 4.21, makes it 82.9% (22,927 hands)
"""

from __future__ import annotations

from typing import Final

TRICK_FEATURES: Final = ('intercept', 'side_ace_short', 'side_ace_long', 'side_king_with_ace', 'side_king_guarded', 'side_king_bare', 'side_king_long', 'side_queen_guarded', 'side_queen_short', 'side_voids', 'side_singletons', 'side_doubletons', 'spade_ace', 'spade_king', 'spade_king_guarded', 'spade_queen', 'spade_queen_guarded', 'spade_jack', 'spade_ten', 'spades', 'spades_over_3', 'spades_over_4', 'spades_over_5', 'voids_times_spades', 'singletons_times_spades', 'doubletons_times_spades', 'partner_bid_known', 'partner_bid', 'partner_nil', 'opponent_bids_known', 'opponent_bid_sum', 'opponent_nils')
NIL_FEATURES: Final = ('intercept', 'spades', 'spades_over_3', 'spade_ace', 'spade_king', 'spade_queen', 'spade_jack', 'spade_ten', 'spade_lowest_rank', 'side_ace_bare', 'side_ace_covered_once', 'side_ace_covered', 'side_king_bare', 'side_king_covered_once', 'side_king_covered', 'side_queen_bare', 'side_queen_covered_once', 'side_queen_covered', 'side_jack_exposed', 'side_jack_covered', 'side_low_cards', 'side_suits_without_low_card', 'side_voids', 'side_singletons', 'partner_bid_known', 'partner_bid', 'partner_nil', 'opponent_bids_known', 'opponent_bid_sum', 'opponent_nils')
TRICK_WEIGHTS: Final = (-0.342753, 0.930323, 0.911138, 0.667331, 0.683493, 0.404274, 0.512296, 0.374595, 0.371902, 0.359662, 0.22603, 0.117711, 1.14483, 0.519934, 0.426015, 0.486066, 0.212083, 0.462279, 0.293551, 0.37173, 0.188485, 0.107653, 0.0932194, 0.0443508, 0.0308143, 0.00927924, -0.35776, -0.0198704, 0.636297, -0.121633, 0.0593836, 0.21794)
TRICK_SPREAD: Final = (0.482459, 0.257476)
NIL_WEIGHTS: Final = (0.485407, 0.0077713, -1.06632, -6.55959, -1.03506, -0.611736, -0.31597, -0.133373, -0.0516559, -3.30352, -2.37789, -0.473176, -1.3848, -1.1138, -0.234473, -0.76523, -0.715764, -0.109127, -0.516488, -0.0624261, 0.20422, -0.402539, 0.840872, 0.63675, -0.86908, 0.247822, -1.22856, -0.909755, 0.2402, 0.164313)
PARTNER_TRICKS: Final = (0.342523, 0.970261)
PARTNER_SPREAD: Final = (0.827933, 0.138018)
LATER_PARTNER_BID: Final = 3.24476
LATER_PARTNER_SURPLUS: Final = (0.460483, 1.12325)
PARTNER_CORRELATION: Final = -0.498129
NIL_PARTNER_BID: Final = 4.2084
NIL_PARTNER_MAKES: Final = 0.829284
NIL_MADE_RATE: Final = 0.742892
DOUBLE_NIL_MADE_RATE: Final = 0.295891
