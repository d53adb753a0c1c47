/* The search's playouts in C: a sampled deal played to its end with the
 * knowledge-based player (bots/knowledge/play.py and memory.py) at every seat.
 *
 * A port, line for line, of ``choose_card`` and the ``Memory`` facts it asks
 * for, on the hand's raw masks rather than a ``PlayerView`` and a ``Memory``
 * built at every card: the Python player stays the reference, and
 * tests/bots/test_playout_kernel.py holds the two to the same card at every
 * turn of thousands of seeded playouts, Nils and house rules included. Where
 * the Python breaks a tie by the order of ``cards_in`` (lowest card first) and
 * ``max``/``min`` (the first best), so does this.
 *
 * Built by setup.py beside the mypyc modules; playouts.py falls back to the
 * Python player when it is not built (SPADES_PURE_PYTHON=1).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#define SPADES 3
#define FULL_DECK ((1ULL << 52) - 1)
#define SUIT_MASK(s) (((1ULL << 13) - 1) << (13 * (s)))
#define SPADE_MASK SUIT_MASK(SPADES)
#define NON_SPADE_MASK (FULL_DECK & ~SPADE_MASK)
#define SUIT_OF(c) ((c) / 13)
#define RANK_OF(c) ((c) % 13)
#define BIT(c) (1ULL << (c))
#define NO_BID 100 /* a seat yet to bid: neither Nil nor a number */
#define NO_LIMIT -1 /* bags cost nothing */

typedef struct {
    uint64_t hands[4];
    int trick[4];
    int trick_len;
    int leader;
    int best; /* position of the winning card in the trick */
    int finished; /* tricks done */
    int tricks_won[4];
    int bids[4];
    int spades_broken;
    uint32_t voids; /* bit 4 * seat + suit: seat failed to follow suit */
    uint64_t played;
    int two_of_clubs_lead;
    int bag_limit;
    int bag_penalty;
    int bags[2];
} Hand;

/* What one seat knows at its turn (``Memory``). */
typedef struct {
    const Hand *h;
    int seat;
    uint64_t hand;
    uint64_t unseen;
} Seat;

static inline int highest(uint64_t m) { return 63 - __builtin_clzll(m); }
static inline int lowest(uint64_t m) { return __builtin_ctzll(m); }
static inline int count(uint64_t m) { return __builtin_popcountll(m); }

static inline uint64_t cards_above(int c) {
    return SUIT_MASK(SUIT_OF(c)) & ~((BIT(c) << 1) - 1);
}
static inline uint64_t cards_below(int c) { return SUIT_MASK(SUIT_OF(c)) & (BIT(c) - 1); }

static inline int beats(int card, int best) {
    return card > best && (SUIT_OF(card) == SUIT_OF(best) || card >= 39);
}

static inline int is_nil(int bid) { return bid != NO_BID && bid <= 0; }
static inline int is_numeric(int bid) { return bid != NO_BID && bid > 0; }

static inline int is_void(const Seat *m, int seat, int suit) {
    return (m->h->voids >> (4 * seat + suit)) & 1;
}
static inline int is_master(const Seat *m, int card) { return !(cards_above(card) & m->unseen); }
static inline int may_trump(const Seat *m, int seat, int suit) {
    return suit != SPADES && is_void(m, seat, suit) && !is_void(m, seat, SPADES) &&
           (m->unseen & SPADE_MASK);
}
static inline int partner(int seat) { return (seat + 2) & 3; }
static inline int still_count(const Seat *m) { return 3 - m->h->trick_len; }
static inline int still_seat(const Seat *m, int i) { return (m->seat + 1 + i) & 3; }
static inline int still_to_play(const Seat *m, int seat) {
    for (int i = 0; i < still_count(m); i++)
        if (still_seat(m, i) == seat) return 1;
    return 0;
}
static inline int winning_card(const Seat *m) { return m->h->trick[m->h->best]; }
static inline int winning_seat(const Seat *m) { return (m->h->leader + m->h->best) & 3; }

static int can_be_beaten_later(const Seat *m, int card) {
    const Hand *h = m->h;
    int led = h->trick_len ? SUIT_OF(h->trick[0]) : SUIT_OF(card);
    uint64_t higher = cards_above(card) & m->unseen;
    for (int i = 0; i < still_count(m); i++) {
        int seat = still_seat(m, i);
        if (SUIT_OF(card) == led && higher && !is_void(m, seat, led)) return 1;
        if (SUIT_OF(card) != SPADES && may_trump(m, seat, led)) return 1;
        if (SUIT_OF(card) == SPADES && led != SPADES && higher && may_trump(m, seat, led)) return 1;
    }
    return 0;
}

/* core's team_contract: the partners who bid a number add their bids and
 * their tricks; a Nil bidder's tricks never count. */
static int team_need(const Hand *h, int team, int *bidders) {
    int promised = 0, tricks = 0;
    *bidders = 0;
    for (int seat = team; seat < 4; seat += 2) {
        if (is_numeric(h->bids[seat])) {
            (*bidders)++;
            promised += h->bids[seat];
            tricks += h->tricks_won[seat];
        }
    }
    return promised - tricks;
}

static inline int live_nil(const Hand *h, int seat) {
    return is_nil(h->bids[seat]) && h->tricks_won[seat] == 0;
}

static int group_bottom(int card, uint64_t hand, uint64_t unseen) {
    int lowest_equal = card;
    uint64_t below = cards_below(card) & hand;
    while (below) {
        int other = highest(below);
        below &= ~BIT(other);
        uint64_t between = cards_below(lowest_equal) & ~cards_below(other) & ~BIT(other);
        if (between & unseen) break;
        lowest_equal = other;
    }
    return lowest_equal;
}

static int danger_rank(const Seat *m, int card) { return count(cards_below(card) & m->unseen); }

/* max over ``cards`` (ascending) of (danger_rank, rank): the first best. */
static int most_dangerous(const Seat *m, uint64_t cards) {
    int best = -1, best_danger = -1, best_rank = -1;
    for (uint64_t rest = cards; rest; rest &= rest - 1) {
        int c = lowest(rest);
        int danger = danger_rank(m, c), rank = RANK_OF(c);
        if (danger > best_danger || (danger == best_danger && rank > best_rank)) {
            best = c;
            best_danger = danger;
            best_rank = rank;
        }
    }
    return best;
}

static uint64_t losers_of(uint64_t legal, int best) {
    uint64_t losers = 0;
    for (uint64_t rest = legal; rest; rest &= rest - 1) {
        int c = lowest(rest);
        if (!beats(c, best)) losers |= BIT(c);
    }
    return losers;
}

static int shed_card(const Seat *m, uint64_t candidates) {
    uint64_t non_masters = 0;
    for (uint64_t rest = candidates; rest; rest &= rest - 1) {
        int c = lowest(rest);
        if (!is_master(m, c)) non_masters |= BIT(c);
    }
    uint64_t pool = non_masters ? non_masters : candidates;
    uint64_t side = pool & NON_SPADE_MASK;
    if (side) pool = side;
    int best = -1, best_length = 99, best_rank = 99;
    for (uint64_t rest = pool; rest; rest &= rest - 1) {
        int c = lowest(rest);
        int length = count(m->hand & SUIT_MASK(SUIT_OF(c))), rank = RANK_OF(c);
        if (length < best_length || (length == best_length && rank < best_rank)) {
            best = c;
            best_length = length;
            best_rank = rank;
        }
    }
    return best;
}

static int cheapest_discard(const Seat *m, uint64_t legal, int following) {
    if (following) return lowest(legal);
    uint64_t side = legal & NON_SPADE_MASK;
    return shed_card(m, side ? side : legal);
}

static int duck(const Seat *m, uint64_t legal, int best, int following) {
    uint64_t losers = losers_of(legal, best);
    if (losers) {
        if (following) return highest(losers);
        return most_dangerous(m, losers);
    }
    if (!still_count(m)) return highest(legal & SUIT_MASK(SUIT_OF(highest(legal))));
    return lowest(legal);
}

static int worth_the_bags(const Seat *m, int to_set) {
    const Hand *h = m->h;
    if (h->bag_limit == NO_LIMIT) return 1;
    int team = m->seat & 1;
    int room = h->bag_limit - h->bags[team];
    if (to_set < room) return 1;
    int their_bid = 0;
    /* view.bid_of(seat) for seat in (1 - team, 3 - team), where truthy: a
     * blind Nil (-1) counts, as in the Python. */
    for (int seat = 1 - team; seat <= 3 - team; seat += 2) {
        int bid = h->bids[seat];
        if (bid != NO_BID && bid != 0) their_bid += bid;
    }
    return 20 * their_bid > h->bag_penalty + 10 * to_set;
}

/* 1: win the trick; 0: lose it. */
static int trick_goal(const Seat *m) {
    const Hand *h = m->h;
    int team = m->seat & 1, bidders, their_bidders;
    int our_need = team_need(h, team, &bidders);
    if (our_need > 0 || !bidders) return our_need > 0;
    int their_need = team_need(h, 1 - team, &their_bidders);
    int left = 13 - h->finished;
    if (their_bidders && 0 < their_need && their_need <= left) {
        int to_set = left - their_need + 1;
        int half = left / 2;
        if (to_set <= (half > 1 ? half : 1) && worth_the_bags(m, to_set)) return 1;
    }
    return 0;
}

static int follow_card(const Seat *m, uint64_t legal, int goal) {
    const Hand *h = m->h;
    int best = winning_card(m), best_seat = winning_seat(m);
    int led = SUIT_OF(h->trick[0]);
    int following = (legal & SUIT_MASK(led)) != 0;
    int partner_winning = best_seat == partner(m->seat);
    int last_to_play = !still_count(m);

    if (!goal) return duck(m, legal, best, following);
    if (partner_winning && (last_to_play || !can_be_beaten_later(m, best)))
        return cheapest_discard(m, legal, following);
    uint64_t winners = legal & ~losers_of(legal, best);
    if (!winners) return cheapest_discard(m, legal, following);
    if (last_to_play) return lowest(winners);
    for (uint64_t rest = winners; rest; rest &= rest - 1) {
        int c = lowest(rest);
        if (!can_be_beaten_later(m, c)) return group_bottom(c, m->hand, m->unseen);
    }
    if (h->trick_len == 1 && following) return lowest(legal);
    if (partner_winning) return cheapest_discard(m, legal, following);
    return lowest(winners);
}

static int safe_low_lead(const Seat *m, uint64_t legal) {
    uint64_t candidates = legal & NON_SPADE_MASK;
    if (!candidates) candidates = legal;
    int best = -1, best_over = -1, best_rank = 99;
    for (uint64_t rest = candidates; rest; rest &= rest - 1) {
        int c = lowest(rest);
        int over = count(cards_above(c) & m->unseen), rank = RANK_OF(c);
        if (over > best_over || (over == best_over && rank < best_rank)) {
            best = c;
            best_over = over;
            best_rank = rank;
        }
    }
    return best;
}

static int lead_card(const Seat *m, uint64_t legal, int goal) {
    if (!goal) return safe_low_lead(m, legal);
    uint64_t hand = m->hand, spades = hand & SPADE_MASK;
    int strong = count(spades) >= 4 && is_master(m, highest(spades));
    if ((legal & SPADE_MASK) && strong && (m->unseen & SPADE_MASK))
        return group_bottom(highest(spades), hand, m->unseen);

    int opponents[2] = {(m->seat + 1) & 3, (m->seat + 3) & 3};
    uint64_t side_legal = legal & NON_SPADE_MASK;
    for (int rank = 12; rank >= 0; rank--) {
        for (int suit = 0; suit < 3; suit++) {
            int c = 13 * suit + rank;
            if (!(side_legal & BIT(c))) continue;
            if (is_master(m, c) && !may_trump(m, opponents[0], suit) &&
                !may_trump(m, opponents[1], suit))
                return c;
        }
    }

    if (spades) {
        int best_suit = -1, best_length = 99;
        for (int suit = 0; suit < 3; suit++) {
            int n = count(legal & SUIT_MASK(suit));
            if (n > 0 && n <= 2 && !is_master(m, highest(hand & SUIT_MASK(suit)))) {
                int length = count(hand & SUIT_MASK(suit));
                if (length < best_length) {
                    best_suit = suit;
                    best_length = length;
                }
            }
        }
        if (best_suit >= 0) return lowest(legal & SUIT_MASK(best_suit));
    }

    if (side_legal) {
        int best_suit = 0, best_count = -1;
        for (int suit = 0; suit < 3; suit++) {
            int n = count(side_legal & SUIT_MASK(suit));
            if (n >= best_count) { /* ties: the higher suit, as max by (count, suit) */
                best_suit = suit;
                best_count = n;
            }
        }
        return lowest(side_legal & SUIT_MASK(best_suit));
    }
    return group_bottom(highest(legal), hand, m->unseen);
}

static int nil_bidder_card(const Seat *m, uint64_t legal) {
    const Hand *h = m->h;
    if (!h->trick_len) return safe_low_lead(m, legal);
    int best = winning_card(m);
    int following = (legal & SUIT_MASK(SUIT_OF(h->trick[0]))) != 0;
    uint64_t losers = losers_of(legal, best);
    if (losers) {
        if (following) return highest(losers);
        return most_dangerous(m, losers);
    }
    if (!still_count(m)) return highest(legal);
    return lowest(legal);
}

static int cover_partner_nil_card(const Seat *m, uint64_t legal) {
    const Hand *h = m->h;
    int mate = partner(m->seat);
    if (!h->trick_len) {
        int best = -1, best_side = -1, best_rank = -1;
        for (uint64_t rest = legal; rest; rest &= rest - 1) {
            int c = lowest(rest);
            if (!is_master(m, c)) continue;
            int side = SUIT_OF(c) != SPADES, rank = RANK_OF(c);
            if (side > best_side || (side == best_side && rank > best_rank)) {
                best = c;
                best_side = side;
                best_rank = rank;
            }
        }
        if (best >= 0) return best;
        uint64_t side = legal & NON_SPADE_MASK;
        if (!side) side = legal;
        int best_suit = 0, best_count = -1;
        for (int suit = 0; suit < 4; suit++) {
            int n = count(side & SUIT_MASK(suit));
            if (n >= best_count) {
                best_suit = suit;
                best_count = n;
            }
        }
        return highest(side & SUIT_MASK(best_suit));
    }
    int best = winning_card(m), best_seat = winning_seat(m);
    int partner_played = !still_to_play(m, mate);
    int following = (legal & SUIT_MASK(SUIT_OF(h->trick[0]))) != 0;
    uint64_t winners = legal & ~losers_of(legal, best);
    if (best_seat == mate || !partner_played) {
        if (winners) {
            for (uint64_t rest = winners; rest; rest &= rest - 1) {
                int c = lowest(rest);
                if (!can_be_beaten_later(m, c)) return c;
            }
            return highest(winners);
        }
        return cheapest_discard(m, legal, following);
    }
    return cheapest_discard(m, legal, following);
}

static int lowest_attacking_lead(const Seat *m, uint64_t legal, int nil_seat) {
    uint64_t candidates = 0;
    for (uint64_t rest = legal; rest; rest &= rest - 1) {
        int c = lowest(rest);
        if (!is_void(m, nil_seat, SUIT_OF(c)) &&
            (SUIT_OF(c) != SPADES || legal == (legal & SPADE_MASK)))
            candidates |= BIT(c);
    }
    uint64_t pool = candidates ? candidates : legal;
    int best = -1, best_rank = 99, best_spade = 2;
    for (uint64_t rest = pool; rest; rest &= rest - 1) {
        int c = lowest(rest);
        int rank = RANK_OF(c), spade = SUIT_OF(c) == SPADES;
        if (rank < best_rank || (rank == best_rank && spade < best_spade)) {
            best = c;
            best_rank = rank;
            best_spade = spade;
        }
    }
    return best;
}

static int attack_nil_card(const Seat *m, uint64_t legal, int nil_seat) {
    const Hand *h = m->h;
    if (!h->trick_len) return lowest_attacking_lead(m, legal, nil_seat);
    int best = winning_card(m), best_seat = winning_seat(m);
    int following = (legal & SUIT_MASK(SUIT_OF(h->trick[0]))) != 0;
    if (best_seat == nil_seat) {
        uint64_t losers = losers_of(legal, best);
        if (losers) return following ? highest(losers) : shed_card(m, losers);
        return lowest(legal);
    }
    if (still_to_play(m, nil_seat)) {
        if (following) return lowest(legal);
        uint64_t side = legal & NON_SPADE_MASK;
        return shed_card(m, side ? side : legal);
    }
    return follow_card(m, legal, trick_goal(m));
}

static int choose_card(const Hand *h, uint64_t legal) {
    Seat m;
    int seat = (h->leader + h->trick_len) & 3;
    m.h = h;
    m.seat = seat;
    m.hand = h->hands[seat];
    m.unseen = FULL_DECK & ~h->played & ~m.hand;
    if (live_nil(h, seat)) return nil_bidder_card(&m, legal);
    if (live_nil(h, partner(seat))) return cover_partner_nil_card(&m, legal);
    int first = (seat + 1) & 3, second = (seat + 3) & 3;
    int nil_seat = live_nil(h, first) ? first : live_nil(h, second) ? second : -1;
    if (nil_seat >= 0) {
        int bidders;
        if (team_need(h, seat & 1, &bidders) < 13 - h->finished)
            return attack_nil_card(&m, legal, nil_seat);
    }
    int goal = trick_goal(&m);
    if (!h->trick_len) return lead_card(&m, legal, goal);
    return follow_card(&m, legal, goal);
}

static uint64_t legal_mask(const Hand *h) {
    uint64_t hand = h->hands[(h->leader + h->trick_len) & 3];
    if (h->trick_len) {
        uint64_t follow = hand & SUIT_MASK(SUIT_OF(h->trick[0]));
        return follow ? follow : hand;
    }
    if (!h->finished && h->two_of_clubs_lead) return hand & BIT(0);
    if (h->spades_broken) return hand;
    uint64_t side = hand & NON_SPADE_MASK;
    return side ? side : hand;
}

static void apply_play(Hand *h, int card) {
    int seat = (h->leader + h->trick_len) & 3;
    h->hands[seat] &= ~BIT(card);
    h->played |= BIT(card);
    if (card >= 39) h->spades_broken = 1;
    if (h->trick_len) {
        int led = SUIT_OF(h->trick[0]);
        if (SUIT_OF(card) != led) h->voids |= 1u << (4 * seat + led);
        if (beats(card, h->trick[h->best])) h->best = h->trick_len;
    }
    h->trick[h->trick_len++] = card;
    if (h->trick_len < 4) return;
    int winner = (h->leader + h->best) & 3;
    h->tricks_won[winner]++;
    h->finished++;
    h->trick_len = 0;
    h->best = 0;
    h->leader = winner;
}

/* The hand from play_out's arguments; 0 with a Python error set if they do
 * not describe a hand in play. */
static int read_hand(PyObject *args, Hand *h) {
    unsigned long long hands[4], played;
    PyObject *trick;
    unsigned int voids;
    if (!PyArg_ParseTuple(args, "(KKKK)O!ii(iiii)(iiii)pIKpii(ii)", &hands[0], &hands[1],
                          &hands[2], &hands[3], &PyTuple_Type, &trick, &h->leader, &h->finished,
                          &h->tricks_won[0], &h->tricks_won[1], &h->tricks_won[2],
                          &h->tricks_won[3], &h->bids[0], &h->bids[1], &h->bids[2], &h->bids[3],
                          &h->spades_broken, &voids, &played, &h->two_of_clubs_lead,
                          &h->bag_limit, &h->bag_penalty, &h->bags[0], &h->bags[1]))
        return 0;
    for (int i = 0; i < 4; i++) h->hands[i] = hands[i];
    h->voids = voids;
    h->played = played;
    h->trick_len = (int)PyTuple_GET_SIZE(trick);
    if (h->trick_len > 3 || h->leader < 0 || h->leader > 3 || h->finished < 0 ||
        h->finished > 13) {
        PyErr_SetString(PyExc_ValueError, "not a hand in play");
        return 0;
    }
    h->best = 0;
    for (int i = 0; i < h->trick_len; i++) {
        long card = PyLong_AsLong(PyTuple_GET_ITEM(trick, i));
        if (card < 0 || card > 51) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a card is 0 to 51");
            return 0;
        }
        h->trick[i] = (int)card;
        if (i && beats(h->trick[i], h->trick[h->best])) h->best = i;
    }
    return 1;
}

/* The card the seat to play plays now (-1 with an error set if it has none). */
static int next_card(Hand *h) {
    uint64_t legal = legal_mask(h);
    if (!legal) {
        PyErr_SetString(PyExc_ValueError, "the seat to play holds no legal card");
        return -1;
    }
    return (legal & (legal - 1)) ? choose_card(h, legal) : lowest(legal);
}

static PyObject *play_out(PyObject *self, PyObject *args) {
    Hand h;
    if (!read_hand(args, &h)) return NULL;
    while (h.finished < 13) {
        int card = next_card(&h);
        if (card < 0) return NULL;
        apply_play(&h, card);
    }
    return Py_BuildValue("(iiii)", h.tricks_won[0], h.tricks_won[1], h.tricks_won[2],
                         h.tricks_won[3]);
}

static PyObject *choose(PyObject *self, PyObject *args) {
    Hand h;
    if (!read_hand(args, &h)) return NULL;
    int card = next_card(&h);
    return card < 0 ? NULL : PyLong_FromLong(card);
}

static PyMethodDef methods[] = {
    {"play_out", play_out, METH_VARARGS,
     "play_out(hands, trick, leader, finished, tricks_won, bids, spades_broken, voids, played,"
     " two_of_clubs_lead, bag_limit, bag_penalty, bags) -> tricks_won at the end of the hand"},
    {"choose", choose, METH_VARARGS,
     "choose(the same arguments) -> the card the seat to play plays now (the tests' check)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_playout",
                                    "The search's playouts in C (see _playout.c).", -1, methods};

PyMODINIT_FUNC PyInit__playout(void) { return PyModule_Create(&module); }
