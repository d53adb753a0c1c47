/* The double-dummy search of dds.py in C: the same search, card for card.
 *
 * dds.py is the reference. This file is a line-by-line port of its searches
 * (Solver._search, _moves, _nil_search, _nil_moves and their helpers) and of
 * its transposition table, so it tries the same cards in the same order, files
 * the same bounds under the same shapes and patterns, and answers the same
 * (tests/solver/test_kernel.py checks answers and cards tried against the
 * Python source). What changes is the cost of a card: plain 64-bit words, a
 * search state in one struct on the C stack, and open-addressing hash tables
 * in flat arrays instead of dicts of Python ints.
 *
 * Python keeps everything around the search (loading a HandState, the exact
 * count from null-window searches, every card's value): it calls
 * Kernel.tricks or Kernel.nil with the position and question, once per
 * null-window search. A Kernel keeps one table per question, as a Solver
 * does, for as long as it lives.
 *
 * Cards are 0..51, suit * 13 + rank, spades (suit 3) the highest: as in
 * spades.core.cards. Names below follow dds.py's, so the two read side by side.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t u64;

#define SUIT 0x1FFFULL
#define SPADES (0x1FFFULL << 39)
#define NON_SPADES ((1ULL << 39) - 1)
#define CARDS ((1ULL << 52) - 1)
#define HIGH_FIRST (1ULL << 52)
#define TABLE_LIMIT 200000 /* shapes a table may hold before it is emptied (dds.py) */
#define QUESTIONS 20       /* a table per seat mask 1..15 (tricks) and 16 + seat (Nil) */

/* ------------------------------------------------------------ bit helpers */

/* Cards in a 13-bit suit (a table: without -mpopcnt, which not every target
 * has, the builtin popcount is a library call). */
static uint8_t POP13[1 << 13];
static inline int pop13(u64 suit) { return POP13[suit]; }
static inline int popcount(u64 x) {
    return POP13[x & SUIT] + POP13[(x >> 13) & SUIT] + POP13[(x >> 26) & SUIT] + POP13[x >> 39];
}

#if defined(__GNUC__) || defined(__clang__)
static inline int bitlen(u64 x) { return x ? 64 - __builtin_clzll(x) : 0; }
static inline int lowest(u64 x) { return __builtin_ctzll(x); } /* x != 0 */
#else
static inline int bitlen(u64 x) {
    int n = 0;
    for (; x; x >>= 1) n++;
    return n;
}
static inline int lowest(u64 x) { return bitlen(x & (0 - x)) - 1; }
#endif

static inline u64 low_bit(u64 x) { return x & (0 - x); }
static inline u64 high_bit(u64 x) { return 1ULL << (bitlen(x) - 1); } /* x != 0 */
static inline u64 suit_mask(int suit) { return SUIT << (13 * suit); }

/* The cards of card's suit that rank above it. */
static inline u64 above(int card) { return suit_mask(card / 13) & ~((2ULL << card) - 1); }

/* Whether card, played to a trick, beats best (spades.core.hand.beats). */
static inline int beats(int card, int best) {
    return card > best && (card / 13 == best / 13 || card >= 39);
}

/* How many of the highest cards of alive (one suit) hand holds in a row. */
static int top_run(u64 alive, u64 hand) {
    int n = 0;
    while (alive) {
        u64 top = high_bit(alive);
        if (!(hand & top)) break;
        n++;
        alive ^= top;
    }
    return n;
}

/* dds._with_skipped: rel widened for moves skipped as equivalent. */
static u64 with_skipped(u64 rel, u64 legal, u64 reps) {
    u64 skipped = legal & ~reps & rel;
    while (skipped) {
        u64 low = low_bit(skipped);
        skipped ^= low;
        u64 below = reps & (low - 1) & suit_mask(lowest(low) / 13);
        if (below) rel |= high_bit(below);
    }
    return rel;
}

/* dds._discard: the lowest-ranked side-suit card (a spade only if nothing else). */
static u64 discard(u64 cards) {
    u64 side = cards & NON_SPADES;
    if (side) cards = side;
    u64 best = 0;
    int best_rank = 13;
    for (int shift = 0; shift < 52; shift += 13) {
        u64 suit = (cards >> shift) & SUIT;
        if (suit) {
            int rank = lowest(suit);
            if (rank < best_rank) {
                best_rank = rank;
                best = low_bit(suit) << shift;
            }
        }
    }
    return best;
}

/* The bits of the 13-bit x at the positions set in r, packed together (pext). */
static uint8_t PACK_LOW[1 << 14], PACK_HIGH[1 << 13], POP_LOW[128];
static uint16_t COMPOSITIONS[1 << 16];

static void init_tables(void) {
    for (int width = 6; width <= 7; width++) {
        uint8_t *out = width == 7 ? PACK_LOW : PACK_HIGH;
        for (int r = 0; r < (1 << width); r++)
            for (int x = 0; x < (1 << width); x++) {
                int packed = 0, position = 0;
                for (int bit = 0; bit < width; bit++)
                    if (r >> bit & 1) {
                        if (x >> bit & 1) packed |= 1 << position;
                        position++;
                    }
                out[(r << width) | x] = (uint8_t)packed;
            }
    }
    for (int r = 1; r < (1 << 13); r++) POP13[r] = (uint8_t)(POP13[r >> 1] + (r & 1));
    for (int r = 0; r < 128; r++) POP_LOW[r] = POP13[r];
    int index = 0;
    for (int c0 = 0; c0 < 14; c0++)
        for (int c1 = 0; c1 < 14 - c0; c1++)
            for (int c2 = 0; c2 < 14 - c0 - c1; c2++)
                for (int c3 = 0; c3 < 14 - c0 - c1 - c2; c3++)
                    COMPOSITIONS[c0 | c1 << 4 | c2 << 8 | c3 << 12] = (uint16_t)index++;
}

static inline unsigned pack(unsigned x, unsigned r) {
    unsigned low = r & 127;
    return PACK_LOW[(low << 7) | (x & 127)] |
           ((unsigned)PACK_HIGH[((r >> 7) << 6) | (x >> 7)] << POP_LOW[low]);
}

/* ----------------------------------------------------- transposition table
 *
 * As dds._Bucket: each shape has a list of "counts" (how many top cards of each
 * suit an entry covers, 4 bits a suit) in the order they were first filed, and
 * each (shape, counts) pair, a group, maps patterns (who holds those cards) to
 * entries lo << 4 | hi. A look-up tries a shape's groups in order, as dds.py
 * does (the order decides which entry answers, and so which cards the answer
 * depends on), so it touches every group of the shape: they lie side by side
 * in one array under the shape's slot, each with its first entry (most groups
 * have one or two) and a 64-bit filter (a bit set for each pattern filed,
 * chosen by a hash) that rules most patterns out at once. A group's other
 * entries are in one hash map for the table, under the group's number.
 */

typedef struct {
    u64 filter;
    u64 plo, phi;    /* the first pattern filed */
    uint32_t number; /* for the group's other entries in Table.entries */
    uint16_t counts;
    uint8_t value; /* the first pattern's entry */
    uint8_t more;  /* whether Table.entries holds other entries of the group */
} Group;

typedef struct {
    u64 key; /* shape + 1; 0: empty */
    Group *groups;
    uint32_t n, cap;
} ShapeSlot;

typedef struct {
    u64 plo, phi;
    uint32_t number; /* group number + 1; 0: empty */
    uint8_t value;
} EntrySlot;

typedef struct {
    ShapeSlot *shapes;
    size_t shape_cap, shape_n;
    EntrySlot *entries;
    size_t entry_cap, entry_n;
    uint32_t numbers;
} Table;

static inline u64 mix(u64 x) {
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ULL;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dULL;
    x ^= x >> 33;
    return x;
}

static inline u64 filter_bit(u64 plo, u64 phi) {
    return 1ULL << ((plo * 0x9E3779B97F4A7C15ULL ^ phi * 0xC2B2AE3D27D4EB4FULL) >> 58);
}

static void table_free(Table *t) {
    for (size_t i = 0; i < t->shape_cap; i++) free(t->shapes[i].groups);
    free(t->shapes);
    free(t->entries);
    memset(t, 0, sizeof *t);
}

/* Grow a map to twice its size (or its first size); 0 when out of memory. */
static int grow_shapes(Table *t) {
    size_t cap = t->shape_cap ? 2 * t->shape_cap : 1024;
    ShapeSlot *slots = calloc(cap, sizeof *slots);
    if (!slots) return 0;
    for (size_t i = 0; i < t->shape_cap; i++) {
        ShapeSlot s = t->shapes[i];
        if (!s.key) continue;
        size_t j = mix(s.key) & (cap - 1);
        while (slots[j].key) j = (j + 1) & (cap - 1);
        slots[j] = s;
    }
    free(t->shapes);
    t->shapes = slots;
    t->shape_cap = cap;
    return 1;
}

static inline size_t entry_hash(uint32_t number, u64 plo, u64 phi) {
    return (size_t)mix(plo ^ mix(phi ^ ((u64)number << 40)));
}

static int grow_entries(Table *t) {
    size_t cap = t->entry_cap ? 2 * t->entry_cap : 4096;
    EntrySlot *slots = calloc(cap, sizeof *slots);
    if (!slots) return 0;
    for (size_t i = 0; i < t->entry_cap; i++) {
        EntrySlot e = t->entries[i];
        if (!e.number) continue;
        size_t j = entry_hash(e.number, e.plo, e.phi) & (cap - 1);
        while (slots[j].number) j = (j + 1) & (cap - 1);
        slots[j] = e;
    }
    free(t->entries);
    t->entries = slots;
    t->entry_cap = cap;
    return 1;
}

static ShapeSlot *find_shape(const Table *t, u64 shape) {
    if (!t->shape_n) return NULL;
    u64 key = shape + 1;
    size_t j = mix(key) & (t->shape_cap - 1);
    while (t->shapes[j].key) {
        if (t->shapes[j].key == key) return &t->shapes[j];
        j = (j + 1) & (t->shape_cap - 1);
    }
    return NULL;
}

/* The slot of (group number, pattern) in Table.entries: its own, or an empty one. */
static EntrySlot *entry_slot(const Table *t, uint32_t number, u64 plo, u64 phi) {
    size_t j = entry_hash(number + 1, plo, phi) & (t->entry_cap - 1);
    for (;;) {
        EntrySlot *e = &t->entries[j];
        if (!e->number || (e->number == number + 1 && e->plo == plo && e->phi == phi)) return e;
        j = (j + 1) & (t->entry_cap - 1);
    }
}

/* The group's entry for a pattern, or -1. */
static inline int find_entry(const Table *t, const Group *g, u64 plo, u64 phi) {
    if (!(g->filter & filter_bit(plo, phi))) return -1;
    if (g->plo == plo && g->phi == phi) return g->value;
    if (!g->more) return -1;
    const EntrySlot *e = entry_slot(t, g->number, plo, phi);
    return e->number ? e->value : -1;
}

/* ------------------------------------------------------------- the search */

typedef struct {
    u64 h[4];
    u64 alive; /* cards not yet in a finished trick: the hands and the trick */
    u64 trick_mask;
    int leader, turn, pos, led, win_card, win_seat, broken, left;
    int counted, max_team, team_objective, nil_seat;
    Table *table;
    long long nodes, limit;
    u64 rel; /* set by each search call: the cards whose ranks its answer depends on */
    jmp_buf abort; /* out of the search: the limit, or no memory for the table */
    int error;     /* why: 1 the limit, 2 memory */
} Search;

/* dds.Solver._encode: the shape and each suit's holder codes (bit 1 and bit 0
 * of the holders' seats, highest card left at bit 12). */
typedef struct {
    u64 shape;
    unsigned up[4], odd[4];
} Encoded;

static void encode(const Search *s, Encoded *e) {
    u64 odd = s->h[1] | s->h[3], upper = s->h[2] | s->h[3];
    u64 shape = (u64)s->leader | (s->broken ? 4 : 0);
    for (int suit = 3; suit >= 0; suit--) {
        int shift = 13 * suit;
        unsigned r = (unsigned)((s->alive >> shift) & SUIT);
        int n = pop13(r);
        int c0 = pop13((s->h[0] >> shift) & SUIT);
        int c1 = pop13((s->h[1] >> shift) & SUIT);
        int c2 = pop13((s->h[2] >> shift) & SUIT);
        shape = (shape << 12) | COMPOSITIONS[c0 | c1 << 4 | c2 << 8 | (n - c0 - c1 - c2) << 12];
        e->up[suit] = e->odd[suit] = 0;
        if (n) {
            int top = 13 - n;
            e->up[suit] = pack((unsigned)((upper >> shift) & SUIT), r) << top;
            e->odd[suit] = pack((unsigned)((odd >> shift) & SUIT), r) << top;
        }
    }
    e->shape = shape;
}

/* dds._pattern: who holds the top counts[suit] cards of each suit. */
static inline void pattern(const Encoded *e, unsigned counts, u64 *plo, u64 *phi) {
    u64 lo = 0, hi = 0;
    for (int suit = 0; suit < 4; suit++) {
        int k = (counts >> (4 * suit)) & 15;
        if (!k) continue;
        u64 part = ((u64)(e->up[suit] >> (13 - k)) << k) | (e->odd[suit] >> (13 - k));
        if (suit < 2)
            lo |= part << (26 * suit);
        else
            hi |= part << (26 * (suit - 2));
    }
    *plo = lo;
    *phi = hi;
}

/* The counts (4 bits a suit) highest cards left in each suit. */
static u64 top_cards(const Search *s, unsigned counts) {
    u64 cards = 0;
    for (int suit = 0; suit < 4; suit++) {
        int k = (counts >> (4 * suit)) & 15;
        u64 left = (s->alive >> (13 * suit)) & SUIT;
        while (k--) {
            u64 top = high_bit(left);
            left ^= top;
            cards |= top << (13 * suit);
        }
    }
    return cards;
}

/* dds._lookup: 1 if the counted seats take target or more, 0 if not (rel then
 * set), -1 if the table does not say. */
static int lookup(Search *s, const Encoded *e, int target) {
    const ShapeSlot *shape = find_shape(s->table, e->shape);
    if (!shape) return -1;
    for (uint32_t i = 0; i < shape->n; i++) {
        const Group *g = &shape->groups[i];
        u64 plo, phi;
        pattern(e, g->counts, &plo, &phi);
        int entry = find_entry(s->table, g, plo, phi);
        if (entry >= 0) {
            if (entry >> 4 >= target) {
                s->rel = top_cards(s, g->counts);
                return 1;
            }
            if ((entry & 15) < target) {
                s->rel = top_cards(s, g->counts);
                return 0;
            }
        }
    }
    return -1;
}

static void out_of_memory(Search *s) {
    s->error = 2;
    longjmp(s->abort, 1);
}

/* dds._store: bounds lo..hi for every position of e's shape whose cards from
 * the top of each suit down to the lowest card in rel have the same holders. */
static void store(Search *s, const Encoded *e, u64 rel, int lo, int hi) {
    Table *t = s->table;
    unsigned counts = 0;
    for (int suit = 3; suit >= 0; suit--) {
        int shift = 13 * suit;
        u64 suit_rel = (rel >> shift) & SUIT;
        int k = 0;
        if (suit_rel) k = pop13((s->alive >> shift) & SUIT & ~(low_bit(suit_rel) - 1));
        counts = (counts << 4) | (unsigned)k;
    }
    u64 plo, phi;
    pattern(e, counts, &plo, &phi);
    ShapeSlot *shape = find_shape(t, e->shape);
    if (!shape) {
        if (t->shape_n > TABLE_LIMIT) table_free(t);
        if (2 * (t->shape_n + 1) > t->shape_cap && !grow_shapes(t)) out_of_memory(s);
        u64 key = e->shape + 1;
        size_t j = mix(key) & (t->shape_cap - 1);
        while (t->shapes[j].key) j = (j + 1) & (t->shape_cap - 1);
        shape = &t->shapes[j];
        shape->key = key;
        t->shape_n++;
    }
    Group *g = NULL;
    for (uint32_t i = 0; i < shape->n; i++)
        if (shape->groups[i].counts == counts) {
            g = &shape->groups[i];
            break;
        }
    if (!g) { /* a new group, its first entry beside it */
        if (shape->n == shape->cap) {
            uint32_t cap = shape->cap ? 2 * shape->cap : 4;
            Group *groups = realloc(shape->groups, cap * sizeof *groups);
            if (!groups) out_of_memory(s);
            shape->groups = groups;
            shape->cap = cap;
        }
        g = &shape->groups[shape->n++];
        g->filter = filter_bit(plo, phi);
        g->plo = plo;
        g->phi = phi;
        g->number = t->numbers++;
        g->counts = (uint16_t)counts;
        g->value = (uint8_t)(lo << 4 | hi);
        g->more = 0;
        return;
    }
    uint8_t *value;
    if (g->plo == plo && g->phi == phi) {
        value = &g->value;
    } else {
        if (2 * (t->entry_n + 1) > t->entry_cap && !grow_entries(t)) out_of_memory(s);
        EntrySlot *slot = entry_slot(t, g->number, plo, phi);
        if (!slot->number) {
            slot->number = g->number + 1;
            slot->plo = plo;
            slot->phi = phi;
            slot->value = (uint8_t)(lo << 4 | hi);
            t->entry_n++;
            g->filter |= filter_bit(plo, phi);
            g->more = 1;
            return;
        }
        value = &slot->value;
    }
    if (*value >> 4 > lo) lo = *value >> 4;
    if ((*value & 15) < hi) hi = *value & 15;
    *value = (uint8_t)(lo << 4 | hi);
}

/* ------------------------------------------------------------- moves */

static inline u64 legal(const Search *s, int seat) {
    u64 hand = s->h[seat];
    if (s->pos) {
        u64 follow = hand & suit_mask(s->led);
        return follow ? follow : hand;
    }
    if (s->broken) return hand;
    u64 side = hand & NON_SPADES;
    return side ? side : hand;
}

/* dds._reps: the lowest card of each run of equivalent cards in legal. */
static u64 reps_of(const Search *s, u64 legal_mask) {
    u64 reps = 0, mask = legal_mask;
    int previous = -1;
    while (mask) {
        u64 low = low_bit(mask);
        mask ^= low;
        int card = lowest(low);
        if (previous < 0 || previous / 13 != card / 13 || (s->alive & (low - (2ULL << previous))))
            reps |= low;
        previous = card;
    }
    return reps;
}

static int last_trick_winner(Search *s) {
    int seat = s->leader, winner = seat;
    int best = lowest(s->h[seat]);
    u64 played = 1ULL << best;
    for (int step = 1; step < 4; step++) {
        int other = (seat + step) & 3;
        int card = lowest(s->h[other]);
        played |= 1ULL << card;
        if (beats(card, best)) {
            best = card;
            winner = other;
        }
    }
    s->rel = (played & suit_mask(best / 13)) != (1ULL << best) ? 1ULL << best : 0;
    return winner;
}

static inline int holder(const Search *s, u64 bit) {
    if (s->h[0] & bit) return 0;
    if (s->h[1] & bit) return 1;
    if (s->h[2] & bit) return 2;
    return 3;
}

static inline int imax(int a, int b) { return a > b ? a : b; }
static inline int imin(int a, int b) { return a < b ? a : b; }

/* dds._quick_tricks: sure tricks of the counted seats and of the others. */
static void quick_tricks(Search *s, int *ours_out, int *theirs_out) {
    int leader = s->leader, side = leader & 1;
    u64 hand = s->h[leader], partner_hand = s->h[leader ^ 2];
    u64 lho_hand = s->h[(leader + 1) & 3], rho_hand = s->h[(leader + 3) & 3];
    u64 alive = s->alive, rel = 0;

    u64 spades = alive & SPADES;
    int run_count[4] = {0, 0, 0, 0};
    int owner_side = -1;
    while (spades) {
        u64 top = high_bit(spades);
        int who = holder(s, top);
        if (owner_side < 0)
            owner_side = who & 1;
        else if ((who & 1) != owner_side)
            break;
        run_count[who]++;
        rel |= top;
        spades ^= top;
    }
    int run_side = imax(imax(run_count[0], run_count[1]), imax(run_count[2], run_count[3]));

    int cash = 0;
    if (s->broken || !(hand & NON_SPADES)) cash = top_run(alive & SPADES, hand);
    int side_cash = 0;
    int lho_trumps = (lho_hand & SPADES) != 0, rho_trumps = (rho_hand & SPADES) != 0;
    for (int suit = 0; suit < 3; suit++) {
        int shift = 13 * suit;
        u64 suit_alive = (alive >> shift) & SUIT;
        int run = top_run(suit_alive, (hand >> shift) & SUIT);
        if (!run) continue;
        if (lho_trumps) run = imin(run, pop13((lho_hand >> shift) & SUIT));
        if (rho_trumps) run = imin(run, pop13((rho_hand >> shift) & SUIT));
        for (int i = 0; i < run; i++) {
            u64 top = high_bit(suit_alive);
            suit_alive ^= top;
            rel |= top << shift;
        }
        side_cash += run;
    }
    if (partner_hand & SPADES) side_cash = imin(side_cash, popcount(partner_hand & NON_SPADES));
    cash += side_cash;
    s->rel = rel;

    int counted = s->counted, ours = 0, theirs = 0;
    if (counted >> leader & 1)
        ours = cash;
    else if (side != s->max_team)
        theirs = cash;
    if (owner_side >= 0) {
        if (s->team_objective) {
            if (owner_side == s->max_team)
                ours = imax(ours, run_side);
            else
                theirs = imax(theirs, run_side);
        } else {
            for (int seat = 0; seat < 4; seat++) {
                if (run_count[seat] && !run_count[seat ^ 2]) {
                    if (counted >> seat & 1)
                        ours = imax(ours, run_count[seat]);
                    else
                        theirs = imax(theirs, run_count[seat]);
                } else if (run_count[seat] && !(counted >> seat & 1) &&
                           (seat & 1) != s->max_team) {
                    theirs = imax(theirs, run_side);
                }
            }
        }
    }
    *ours_out = ours;
    *theirs_out = theirs;
}

/* Sort leads by key, highest first (a key is (score + 40) * 64 + card). */
static int sorted_leads(long long *keys, int n, int *cards) {
    for (int i = 1; i < n; i++) {
        long long key = keys[i];
        int j = i - 1;
        while (j >= 0 && keys[j] < key) {
            keys[j + 1] = keys[j];
            j--;
        }
        keys[j + 1] = key;
    }
    for (int i = 0; i < n; i++) cards[i] = (int)(keys[i] & 63);
    return n;
}

/* dds._lead_order. */
static int lead_order(const Search *s, int seat, u64 reps, int *cards) {
    u64 hand = s->h[seat], partner_hand = s->h[seat ^ 2];
    u64 lho_hand = s->h[(seat + 1) & 3], rho_hand = s->h[(seat + 3) & 3];
    u64 opponents = lho_hand | rho_hand, opp_spades = opponents & SPADES;
    u64 others = s->alive & ~hand;
    long long keys[13];
    int n = 0;
    for (int suit = 0; suit < 4; suit++) {
        u64 sm = suit_mask(suit);
        u64 mine = reps & sm;
        if (!mine) continue;
        u64 lowest_bit = low_bit(mine);
        int ruffed = suit != 3 && ((!(lho_hand & sm) && (lho_hand & SPADES)) ||
                                   (!(rho_hand & sm) && (rho_hand & SPADES)));
        int top_other = bitlen(others & sm) - 1;
        u64 partner_suit = partner_hand & sm;
        int partner_top = partner_suit && bitlen(partner_suit) > bitlen(opponents & sm);
        int partner_ruffs = suit != 3 && !partner_suit && (partner_hand & SPADES) && !ruffed;
        while (mine) {
            u64 bit = low_bit(mine);
            mine ^= bit;
            int card = lowest(bit), rank = card % 13, score;
            if (card > top_other && !ruffed)
                score = (suit != 3 || opp_spades) ? 60 : 45;
            else if (bit == lowest_bit && ((partner_top && !ruffed) || partner_ruffs))
                score = 50;
            else if (bit == lowest_bit)
                score = 30 - rank;
            else
                score = 15 - rank;
            if (ruffed) score -= 25;
            keys[n++] = (long long)(score + 40) * 64 + card;
        }
    }
    return sorted_leads(keys, n, cards);
}

static int can_beat(const Search *s, u64 hand, int card) {
    u64 follow = hand & suit_mask(s->led);
    if (follow) return card / 13 == s->led && bitlen(follow) - 1 > card;
    if (card >= 39) return (hand & above(card)) != 0;
    return (hand & SPADES) != 0;
}

/* The cards of reps that beat the trick's winning card so far. */
static u64 beaters(const Search *s, u64 reps) {
    u64 led_mask = suit_mask(s->led);
    if (reps & led_mask) return s->win_card / 13 == s->led ? reps & above(s->win_card) : 0;
    if (s->win_card >= 39) return reps & above(s->win_card);
    return reps & SPADES;
}

/* dds._follow_order: three masks to try one after the other. */
static void follow_order(const Search *s, int seat, u64 reps, u64 out[3]) {
    u64 led_mask = suit_mask(s->led);
    u64 beat = beaters(s, reps);
    u64 lose = reps & ~beat;
    u64 low = low_bit(lose);
    if (lose && !(reps & led_mask)) low = discard(lose);
    u64 cheapest = low_bit(beat);
    int ours = (s->win_seat & 1) == (seat & 1);
#define ORDER(a, b, c) \
    do {               \
        out[0] = (a);  \
        out[1] = (b);  \
        out[2] = (c);  \
        return;        \
    } while (0)
    if (s->pos == 3) {
        if (ours) ORDER(low, lose, beat);
        ORDER(cheapest, beat, lose);
    }
    u64 nxt = s->h[(seat + 1) & 3];
    u64 sure = 0, rest = beat;
    while (rest) {
        u64 card = low_bit(rest);
        if (!can_beat(s, nxt, lowest(card))) {
            sure = card;
            break;
        }
        rest ^= card;
    }
    if (s->pos == 2) {
        if (ours && !can_beat(s, nxt, s->win_card)) ORDER(low, lose, beat);
        if (sure) ORDER(sure, low, beat);
        if (ours) ORDER(low, cheapest, lose);
        ORDER(cheapest, low, beat);
    }
    if (sure) ORDER(sure, low, beat);
    if (!(reps & led_mask) && beat) ORDER(cheapest, low, beat);
    ORDER(low, cheapest, lose);
#undef ORDER
}

static inline void count_node(Search *s) {
    if (++s->nodes > s->limit) {
        s->error = 1;
        longjmp(s->abort, 1);
    }
}

static int search(Search *s, int target);

/* dds.Solver._moves: try the moves of the seat to act. */
static int moves(Search *s, int target) {
    int seat = s->turn, pos = s->pos;
    u64 hand = s->h[seat];
    int led = s->led, win_card = s->win_card, win_seat = s->win_seat;
    u64 trick_mask = s->trick_mask, alive = s->alive;
    int broken = s->broken, leader = s->leader;
    int maximizing = (seat & 1) == s->max_team;
    int nxt = (seat + 1) & 3;
    u64 rel = 0;
    u64 legal_mask = legal(s, seat);
    u64 reps = reps_of(s, legal_mask);
    int leads[13], n_leads = 0, index = 0;
    u64 first = 0, second = 0, third = 0, rest = 0;
    if (pos == 0) {
        n_leads = lead_order(s, seat, reps, leads);
    } else {
        u64 order[3];
        follow_order(s, seat, reps, order);
        first = order[0];
        second = order[1] & ~first;
        third = order[2] & ~first & ~second;
        rest = reps & ~first & ~second & ~third;
    }
    for (;;) {
        int card, result;
        if (pos == 0) {
            if (index == n_leads) break;
            card = leads[index++];
        } else {
            while (!first && (second || third || rest)) {
                first = second;
                second = third;
                third = rest;
                rest = 0;
            }
            if (!first) break;
            u64 low = low_bit(first);
            first ^= low;
            card = lowest(low);
        }
        u64 bit = 1ULL << card;
        s->h[seat] = hand ^ bit;
        count_node(s);
        if (card >= 39) s->broken = 1;
        if (pos == 0) {
            s->led = card / 13;
            s->win_card = card;
            s->win_seat = seat;
            s->trick_mask = bit;
            s->pos = 1;
            s->turn = nxt;
            result = moves(s, target);
            s->led = led;
            s->win_card = win_card;
            s->win_seat = win_seat;
            s->trick_mask = trick_mask;
            s->pos = 0;
            s->turn = seat;
        } else if (pos < 3) {
            if (beats(card, win_card)) {
                s->win_card = card;
                s->win_seat = seat;
            }
            s->trick_mask = trick_mask | bit;
            s->pos = pos + 1;
            s->turn = nxt;
            result = moves(s, target);
            s->win_card = win_card;
            s->win_seat = win_seat;
            s->trick_mask = trick_mask;
            s->pos = pos;
            s->turn = seat;
        } else {
            int best = win_card, winner = win_seat;
            if (beats(card, win_card)) {
                best = card;
                winner = seat;
            }
            u64 played = trick_mask | bit;
            s->alive = alive & ~played;
            s->pos = 0;
            s->led = -1;
            s->leader = winner;
            s->turn = winner;
            s->left--;
            s->trick_mask = 0;
            result = search(s, target - ((s->counted >> winner) & 1));
            if ((played & suit_mask(best / 13)) != (1ULL << best))
                s->rel |= 1ULL << best; /* the trick was won by rank */
            s->alive = alive;
            s->pos = 3;
            s->led = led;
            s->leader = leader;
            s->turn = seat;
            s->left++;
            s->trick_mask = trick_mask;
        }
        s->h[seat] = hand;
        s->broken = broken;
        if (result == maximizing) return result;
        rel |= s->rel;
    }
    s->rel = with_skipped(rel, legal_mask, reps);
    return !maximizing;
}

/* dds.Solver._search: can the counted seats take target or more? */
static int search(Search *s, int target) {
    if (s->pos) return moves(s, target);
    int left = s->left;
    if (target <= 0 || target > left) {
        s->rel = 0;
        return target <= 0;
    }
    if (left == 1) return ((s->counted >> last_trick_winner(s)) & 1) >= target;
    Encoded e;
    encode(s, &e);
    int known = lookup(s, &e, target);
    if (known >= 0) return known;
    int ours, theirs;
    quick_tricks(s, &ours, &theirs);
    if (ours >= target || left - theirs < target) {
        u64 rel = s->rel;
        if (ours >= target)
            store(s, &e, rel, ours, left);
        else
            store(s, &e, rel, 0, left - theirs);
        s->rel = rel;
        return ours >= target;
    }
    int result = moves(s, target);
    u64 rel = s->rel;
    if (result)
        store(s, &e, rel, target, left);
    else
        store(s, &e, rel, 0, target - 1);
    s->rel = rel;
    return result;
}

/* ------------------------------------------------------------ Nil search */

/* dds._nil_follow_order: two masks, HIGH_FIRST set to try highest first. */
static void nil_follow_order(const Search *s, int seat, u64 reps, u64 *first, u64 *second) {
    int nil_seat = s->nil_seat;
    u64 beat = beaters(s, reps);
    u64 lose = reps & ~beat;
    int nil_played = ((seat - s->leader) & 3) > ((nil_seat - s->leader) & 3);
    if (seat == nil_seat) {
        *first = lose | HIGH_FIRST;
        *second = beat;
    } else if (seat == (nil_seat ^ 2)) {
        if (nil_played && s->win_seat == nil_seat) {
            *first = beat;
            *second = lose;
        } else if (nil_played) {
            *first = lose;
            *second = beat;
        } else {
            *first = reps | HIGH_FIRST;
            *second = 0;
        }
    } else {
        *first = lose;
        *second = beat;
    }
}

/* dds._nil_lead_order. */
static int nil_lead_order(const Search *s, int seat, u64 reps, int *cards) {
    int nil_seat = s->nil_seat;
    u64 nil_hand = s->h[nil_seat], partner = s->h[nil_seat ^ 2];
    long long keys[13];
    int n = 0;
    u64 mask = reps;
    while (mask) {
        u64 bit = low_bit(mask);
        mask ^= bit;
        int card = lowest(bit), rank = card % 13, score;
        u64 sm = suit_mask(card / 13);
        u64 nil_suit = nil_hand & sm;
        if (seat == nil_seat) {
            score = -card;
        } else if (seat == (nil_seat ^ 2)) {
            score = card;
        } else if (nil_suit) {
            u64 nil_low = low_bit(nil_suit);
            score = (bit < nil_low ? 30 : 15) - rank + lowest(nil_low) % 13;
            if (bitlen(partner & sm) > bitlen(nil_suit)) score -= 10; /* partner can cover */
        } else {
            score = -rank;
        }
        keys[n++] = (long long)(score + 40) * 64 + card;
    }
    /* keys may be negative here: (score + 40) * 64 + card still sorts as
     * dds.py's ((score + 40) << 6) | card, and its low 6 bits are the card. */
    return sorted_leads(keys, n, cards);
}

static int nil_search(Search *s);

/* dds.Solver._nil_moves. */
static int nil_moves(Search *s) {
    int seat = s->turn, pos = s->pos;
    u64 hand = s->h[seat];
    int led = s->led, win_card = s->win_card, win_seat = s->win_seat;
    u64 trick_mask = s->trick_mask, alive = s->alive;
    int broken = s->broken, leader = s->leader, nil_seat = s->nil_seat;
    int defending = (seat & 1) == (nil_seat & 1);
    int nxt = (seat + 1) & 3;
    u64 rel = 0;
    u64 legal_mask = legal(s, seat);
    u64 reps = reps_of(s, legal_mask);
    int leads[13], n_leads = 0, index = 0;
    u64 first = 0, second = 0;
    if (pos == 0)
        n_leads = nil_lead_order(s, seat, reps, leads);
    else
        nil_follow_order(s, seat, reps, &first, &second);
    for (;;) {
        int card, result;
        if (pos == 0) {
            if (index == n_leads) break;
            card = leads[index++];
        } else {
            if (!(first & CARDS)) {
                if (!(second & CARDS)) break;
                first = second;
                second = 0;
            }
            if (first & HIGH_FIRST)
                card = bitlen(first & CARDS) - 1;
            else
                card = lowest(first);
            first ^= 1ULL << card;
        }
        u64 bit = 1ULL << card;
        s->h[seat] = hand ^ bit;
        count_node(s);
        if (card >= 39) s->broken = 1;
        if (pos == 0) {
            s->led = card / 13;
            s->win_card = card;
            s->win_seat = seat;
            s->trick_mask = bit;
            s->pos = 1;
            s->turn = nxt;
            result = nil_moves(s);
            s->led = led;
            s->win_card = win_card;
            s->win_seat = win_seat;
            s->trick_mask = trick_mask;
            s->pos = 0;
            s->turn = seat;
        } else if (pos < 3) {
            if (beats(card, win_card)) {
                s->win_card = card;
                s->win_seat = seat;
            }
            s->trick_mask = trick_mask | bit;
            s->pos = pos + 1;
            s->turn = nxt;
            result = nil_moves(s);
            s->win_card = win_card;
            s->win_seat = win_seat;
            s->trick_mask = trick_mask;
            s->pos = pos;
            s->turn = seat;
        } else {
            int best = win_card, winner = win_seat;
            if (beats(card, win_card)) {
                best = card;
                winner = seat;
            }
            u64 played = trick_mask | bit;
            if (winner == nil_seat) {
                result = 0;
                s->rel = 0;
            } else {
                s->alive = alive & ~played;
                s->pos = 0;
                s->led = -1;
                s->leader = winner;
                s->turn = winner;
                s->left--;
                s->trick_mask = 0;
                result = nil_search(s);
                s->alive = alive;
                s->pos = 3;
                s->led = led;
                s->leader = leader;
                s->turn = seat;
                s->left++;
                s->trick_mask = trick_mask;
            }
            if ((played & suit_mask(best / 13)) != (1ULL << best))
                s->rel |= 1ULL << best; /* the trick was won by rank */
        }
        s->h[seat] = hand;
        s->broken = broken;
        if (result == defending) return result;
        rel |= s->rel;
    }
    s->rel = with_skipped(rel, legal_mask, reps);
    return !defending;
}

/* dds.Solver._nil_search: can the Nil of nil_seat be held from here? */
static int nil_search(Search *s) {
    if (s->pos) return nil_moves(s);
    if (s->left == 0) {
        s->rel = 0;
        return 1;
    }
    u64 spades = s->alive & SPADES;
    if (spades) {
        u64 top = high_bit(spades);
        if (s->h[s->nil_seat] & top) {
            s->rel = top;
            return 0; /* the top spade wins whatever trick it falls on */
        }
    }
    if (s->left == 1) return last_trick_winner(s) != s->nil_seat;
    Encoded e;
    encode(s, &e);
    int known = lookup(s, &e, 1);
    if (known >= 0) return known;
    int result = nil_moves(s);
    u64 rel = s->rel;
    store(s, &e, rel, result, result);
    s->rel = rel;
    return result;
}

/* ------------------------------------------------------------ Python type */

typedef struct {
    PyObject_HEAD Table tables[QUESTIONS];
    int busy; /* a search is running (in another thread: the GIL is let go) */
} Kernel;

static void Kernel_dealloc(Kernel *self) {
    for (int i = 0; i < QUESTIONS; i++) table_free(&self->tables[i]);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The position's fields, in Kernel.tricks and Kernel.nil's argument order. */
#define POSITION_FORMAT "KKKKKKiiiiiipi"

/* The search, or -1 when it was abandoned (s->error says why). */
static int guarded(Search *s, int nil, int target) {
    if (setjmp(s->abort)) return -1;
    return nil ? nil_search(s) : search(s, target);
}

/* Search without holding the GIL: a long search (seconds, from trick 1) lets
 * the web server's other threads run meanwhile. The search touches no Python
 * object; its tables are the Kernel's, so one Kernel runs one search at a time. */
static PyObject *run(Kernel *self, Search *s, int question, int nil, int target) {
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError,
                        "this Solver is searching in another thread: give each thread its own");
        return NULL;
    }
    s->table = &self->tables[question];
    s->error = 0;
    int result;
    self->busy = 1;
    Py_BEGIN_ALLOW_THREADS result = guarded(s, nil, target);
    Py_END_ALLOW_THREADS self->busy = 0;
    if (result < 0 && s->error == 2) return PyErr_NoMemory();
    return Py_BuildValue("iL", result, s->nodes);
}

static PyObject *Kernel_tricks(Kernel *self, PyObject *args) {
    Search s;
    int target;
    unsigned long long h0, h1, h2, h3, alive, trick_mask;
    if (!PyArg_ParseTuple(args, POSITION_FORMAT "iipiLL", &h0, &h1, &h2, &h3, &alive, &trick_mask,
                          &s.leader, &s.turn, &s.pos, &s.led, &s.win_card, &s.win_seat, &s.broken,
                          &s.left, &s.counted, &s.max_team, &s.team_objective, &target, &s.nodes,
                          &s.limit))
        return NULL;
    if (s.counted <= 0 || s.counted >= 16) {
        PyErr_SetString(PyExc_ValueError, "counted is a seat mask 1..15");
        return NULL;
    }
    s.h[0] = h0, s.h[1] = h1, s.h[2] = h2, s.h[3] = h3;
    s.alive = alive, s.trick_mask = trick_mask;
    s.nil_seat = 0;
    s.rel = 0;
    return run(self, &s, s.counted, 0, target);
}

static PyObject *Kernel_nil(Kernel *self, PyObject *args) {
    Search s;
    unsigned long long h0, h1, h2, h3, alive, trick_mask;
    if (!PyArg_ParseTuple(args, POSITION_FORMAT "iLL", &h0, &h1, &h2, &h3, &alive, &trick_mask,
                          &s.leader, &s.turn, &s.pos, &s.led, &s.win_card, &s.win_seat, &s.broken,
                          &s.left, &s.nil_seat, &s.nodes, &s.limit))
        return NULL;
    if (s.nil_seat < 0 || s.nil_seat > 3) {
        PyErr_SetString(PyExc_ValueError, "nil_seat is a seat 0..3");
        return NULL;
    }
    s.h[0] = h0, s.h[1] = h1, s.h[2] = h2, s.h[3] = h3;
    s.alive = alive, s.trick_mask = trick_mask;
    s.counted = 0;
    s.max_team = s.nil_seat & 1;
    s.team_objective = 0;
    s.rel = 0;
    return run(self, &s, 16 + s.nil_seat, 1, 0);
}

static PyObject *Kernel_shapes(Kernel *self, PyObject *arg) {
    long question = PyLong_AsLong(arg);
    if (question == -1 && PyErr_Occurred()) return NULL;
    if (question < 0 || question >= QUESTIONS) {
        PyErr_SetString(PyExc_ValueError, "no such question");
        return NULL;
    }
    return PyLong_FromSize_t(self->tables[question].shape_n);
}

static PyMethodDef Kernel_methods[] = {
    {"tricks", (PyCFunction)Kernel_tricks, METH_VARARGS,
     "tricks(h0, h1, h2, h3, alive, trick_mask, leader, turn, pos, led, win_card, win_seat, "
     "broken, left, counted, max_team, team_objective, target, nodes, limit) -> (result, nodes)\n"
     "Whether the seats in counted take target or more of the tricks left: 1 or 0, or -1 when "
     "nodes passed limit; nodes is the count of cards tried so far."},
    {"nil", (PyCFunction)Kernel_nil, METH_VARARGS,
     "nil(h0, h1, h2, h3, alive, trick_mask, leader, turn, pos, led, win_card, win_seat, "
     "broken, left, nil_seat, nodes, limit) -> (result, nodes)\n"
     "Whether nil_seat's Nil can be held: 1 or 0, or -1 when nodes passed limit."},
    {"shapes", (PyCFunction)Kernel_shapes, METH_O,
     "shapes(question) -> how many shapes the table of a question (seat mask, or 16 + seat "
     "for Nil) holds."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject KernelType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "spades.solver._kernel.Kernel",
    .tp_doc = PyDoc_STR("The tables of one Solver and the searches that use them."),
    .tp_basicsize = sizeof(Kernel),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_dealloc = (destructor)Kernel_dealloc,
    .tp_methods = Kernel_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_kernel",
    .m_doc = "The double-dummy search of spades.solver.dds in C (optional: dds.py is the "
             "reference).",
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__kernel(void) {
    init_tables();
    if (PyType_Ready(&KernelType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&KernelType);
    if (PyModule_AddObject(m, "Kernel", (PyObject *)&KernelType) < 0) {
        Py_DECREF(&KernelType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
