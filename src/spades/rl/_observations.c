/* The vectorised tables' observations in C: the same numbers, entry for
 * entry, as SpadesVectorEnv._encode_numpy (the reference, which answers alone
 * when this module is not built), written a table at a time instead of a
 * numpy pass per block over every table.
 *
 * encode(out, me, hands, played, trick, bids, tricks_won, broken, totals,
 *        bags, dealer, phase, low, high)
 *
 * out: float32 (n, OBSERVATION_SIZE), written whole; me, dealer, phase: int64
 * (n,); hands, played: uint64 (n, 4) card masks by seat; trick, bids,
 * tricks_won: int64 (n, 4) by seat (-1: no card, no bid); broken: bool (n,);
 * totals, bags: int64 (n, 2) by team; low, high: the range a total is shown
 * within. Every buffer must be C-contiguous (numpy arrays as the environment
 * keeps them). tests/rl/test_vector.py holds this to the numpy reference.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

/* The layout of spades.rl.encoding (vector.py checks it against LAYOUT). */
enum {
    HAND = 0,
    BIDS = 52,
    BID_SLOTS = 15,
    TRICK = 112,
    PLAYED = 320,
    TRICKS_WON = 528,
    SPADES_BROKEN = 532,
    SCORES = 533,
    BAGS = 535,
    DEALER = 537,
    PHASE = 541,
    SIZE = 549,
};

enum { BIDDING = 0, PLAYING = 1 };

static void set_cards(float *row, uint64_t cards) {
    while (cards) {
        row[__builtin_ctzll(cards)] = 1.0f;
        cards &= cards - 1;
    }
}

static int64_t clamp(int64_t value, int64_t low, int64_t high) {
    return value < low ? low : (value > high ? high : value);
}

static int check(Py_buffer *buffer, Py_ssize_t items, Py_ssize_t itemsize, const char *name) {
    if (buffer->len != items * itemsize) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd bytes, got %zd", name,
                     items * itemsize, buffer->len);
        return 0;
    }
    return 1;
}

static PyObject *encode(PyObject *self, PyObject *args) {
    Py_buffer out, me, hands, played, trick, bids, won, broken, totals, bags, dealer, phase;
    long long low, high;
    if (!PyArg_ParseTuple(args, "w*y*y*y*y*y*y*y*y*y*y*y*LL", &out, &me, &hands, &played,
                          &trick, &bids, &won, &broken, &totals, &bags, &dealer, &phase, &low,
                          &high)) {
        return NULL;
    }
    Py_buffer *buffers[] = {&out, &me, &hands, &played, &trick, &bids,
                            &won, &broken, &totals, &bags, &dealer, &phase};
    Py_ssize_t n = me.len / 8;
    PyObject *result = NULL;
    if (check(&out, n * SIZE, 4, "out") && check(&hands, n * 4, 8, "hands") &&
        check(&played, n * 4, 8, "played") && check(&trick, n * 4, 8, "trick") &&
        check(&bids, n * 4, 8, "bids") && check(&won, n * 4, 8, "tricks_won") &&
        check(&broken, n, 1, "broken") && check(&totals, n * 2, 8, "totals") &&
        check(&bags, n * 2, 8, "bags") && check(&dealer, n, 8, "dealer") &&
        check(&phase, n, 8, "phase")) {
        float *rows = out.buf;
        const int64_t *seat_of = me.buf, *trick_of = trick.buf, *bid_of = bids.buf;
        const int64_t *won_of = won.buf, *total_of = totals.buf, *bags_of = bags.buf;
        const int64_t *dealer_of = dealer.buf, *phase_of = phase.buf;
        const uint64_t *hand_of = hands.buf, *played_of = played.buf;
        const uint8_t *broken_of = broken.buf;
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t table = 0; table < n; table++) {
            float *row = rows + table * SIZE;
            int64_t observer = seat_of[table];
            memset(row, 0, SIZE * sizeof(float));
            set_cards(row + HAND, hand_of[table * 4 + observer]);
            for (int relative = 0; relative < 4; relative++) {
                Py_ssize_t seat = table * 4 + ((observer + relative) & 3);
                row[BIDS + relative * BID_SLOTS + bid_of[seat] + 1] = 1.0f; /* -1: "no bid yet" */
                if (trick_of[seat] >= 0) {
                    row[TRICK + relative * 52 + trick_of[seat]] = 1.0f;
                }
                set_cards(row + PLAYED + relative * 52, played_of[seat]);
                /* In double, then cast to float once, as numpy and encode_view do. */
                row[TRICKS_WON + relative] = (float)((double)won_of[seat] / 13.0);
            }
            row[SPADES_BROKEN] = broken_of[table] ? 1.0f : 0.0f;
            Py_ssize_t us = table * 2 + (observer & 1), them = table * 2 + ((observer & 1) ^ 1);
            row[SCORES] = (float)((double)clamp(total_of[us], low, high) / 500.0);
            row[SCORES + 1] = (float)((double)clamp(total_of[them], low, high) / 500.0);
            row[BAGS] = (float)((double)bags_of[us] / 10.0);
            row[BAGS + 1] = (float)((double)bags_of[them] / 10.0);
            row[DEALER + ((dealer_of[table] - observer) & 3)] = 1.0f;
            if (phase_of[table] == BIDDING) {
                row[PHASE] = 1.0f;
            } else if (phase_of[table] == PLAYING) {
                row[PHASE + 1] = 1.0f;
            }
        }
        Py_END_ALLOW_THREADS
        result = Py_None;
        Py_INCREF(result);
    }
    for (size_t i = 0; i < sizeof(buffers) / sizeof(buffers[0]); i++) {
        PyBuffer_Release(buffers[i]);
    }
    return result;
}

static PyMethodDef methods[] = {
    {"encode", encode, METH_VARARGS, "Write every table's observation into out (see the module)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_observations",
    "The vectorised tables' observations in C (SpadesVectorEnv's numpy _encode is the reference).",
    -1, methods,
};

PyMODINIT_FUNC PyInit__observations(void) {
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) {
        return NULL;
    }
    PyObject *layout = Py_BuildValue("(iiiiiiiiiiii)", HAND, BIDS, BID_SLOTS, TRICK, PLAYED,
                                     TRICKS_WON, SPADES_BROKEN, SCORES, BAGS, DEALER, PHASE, SIZE);
    if (layout == NULL || PyModule_AddObject(m, "LAYOUT", layout) < 0) {
        Py_XDECREF(layout);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
