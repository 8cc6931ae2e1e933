/* The Walker type (a table set's DAGs, made once per set and game) and the
 * batch walk, walk_rows: the hot loop of evaluate_batch and of every walk of
 * many rows from a prefix. The method table lists the methods of every unit. */

#include "core.h"

/* Rows walked together by walk_rows: enough fetches in flight to keep the
 * memory busy, few enough that a pass's fetched lines (16 KB) are still in L2
 * when the next pass reads them. On random 7-card hands 256 did a little
 * better than 64, 128, 512 and 1024. */
#define WALK_BLOCK 256
/* Rows a checked batch of whole hands hands the keyed loop at once (an int). */
#define KEYED_RUN (1 << 20)

static void Walker_dealloc(Walker *self) {
    for (int i = 0; i < 3; i++)
        PyMem_Free(self->by_ranks[i]);
    PyMem_Free(self->flush);
    for (int i = 0; i < 3; i++)
        PyMem_Free(self->keyed[i].disp), PyMem_Free(self->keyed[i].value);
    for (Py_ssize_t i = 0; i < self->n_views; i++)
        PyBuffer_Release(&self->views[i]);
    PyMem_Free(self->views);
    Py_XDECREF(self->owners);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Take a read-only, C-contiguous view of buffer `obj` of `width`-byte items. */
static const unsigned char *take(Walker *self, PyObject *obj, int *width) {
    Py_buffer *view = &self->views[self->n_views];
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return NULL;
    self->n_views++;
    if (view->itemsize != 1 && view->itemsize != 2 && view->itemsize != 4) {
        PyErr_Format(PyExc_ValueError, "table arrays hold 1, 2 or 4 byte entries, got %zd", view->itemsize);
        return NULL;
    }
    *width = (int)view->itemsize;
    return (const unsigned char *)view->buf;
}

/* Take the layers of the n-card DAG `seq` (a sequence of n arrays) into d. 0, or -1 with an exception. */
static int take_dag(Walker *self, PyObject *obj, int n, struct dag *d) {
    PyObject *seq = PySequence_Fast(obj, "each DAG is a sequence of layer arrays");
    if (seq == NULL)
        return -1;
    Py_ssize_t got = PySequence_Fast_GET_SIZE(seq);
    if (got != n) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "dag%d needs %d layers, got %zd", n, n, got);
        return -1;
    }
    d->depth = n;
    for (Py_ssize_t k = 0; k < n; k++) {
        d->layer[k] = take(self, PySequence_Fast_GET_ITEM(seq, k), &d->width[k]);
        if (d->layer[k] == NULL) {
            Py_DECREF(seq);
            return -1;
        }
        d->entries[k] = (size_t)(self->views[self->n_views - 1].len / d->width[k]);
        if (d->entries[k] > UINT32_MAX) { /* walk_rows indexes entries in 32 bits */
            Py_DECREF(seq);
            PyErr_Format(PyExc_ValueError, "dag%d layer %zd has over 2^32 entries", n, k + 1);
            return -1;
        }
    }
    Py_DECREF(seq);
    return 0;
}

/* Walker(dag5_layers, dag6_layers, dag7_layers, value5, value6, deck=None, dag4=None, small=True):
 * sequences of little-endian arrays exposing the buffer protocol, any DAG
 * None where the game has no hands of its size. dag5 and dag6 may both be
 * None beside a dag7: 5- and 6-card hands then walk dag7's first layers and
 * finish in value5 and value6 (another game's one DAG); else value5 and
 * value6 are read only beside a dag7 and may be None. `deck` is the mask of
 * the cards hands may hold, by default all 52. small=False: the game's
 * values do not follow ranks and flushes as a high game's do, so the small
 * and keyed tables never stand for its DAG. */
static PyObject *Walker_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    PyObject *dags[3], *v5, *v6, *deck_arg = Py_None, *dag4 = Py_None;
    int small = 1;
    static char *kwlist[] = {"dag5", "dag6", "dag7", "value5", "value6", "deck", "dag4", "small", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOO|$OOp:Walker", kwlist, &dags[0], &dags[1], &dags[2], &v5, &v6,
                                     &deck_arg, &dag4, &small))
        return NULL;
    int has7 = dags[2] != Py_None;
    int derived = has7 && dags[0] == Py_None && dags[1] == Py_None;
    if (has7 && !derived && (dags[0] == Py_None || dags[1] == Py_None)) {
        PyErr_SetString(PyExc_ValueError, "dag5 and dag6 are both sequences of layers or both None");
        return NULL;
    }
    if (!has7 && dags[0] == Py_None && dags[1] == Py_None && dag4 == Py_None) {
        PyErr_SetString(PyExc_ValueError, "a walker needs at least one DAG");
        return NULL;
    }
    uint64_t deck = ALL_CARDS;
    if (deck_arg != Py_None) {
        deck = PyLong_AsUnsignedLongLong(deck_arg);
        if (PyErr_Occurred())
            return NULL;
        if (deck == 0 || (deck & ~ALL_CARDS)) {
            PyErr_SetString(PyExc_ValueError, "deck is a mask of cards 0..51, at least one");
            return NULL;
        }
    }
    Walker *self = (Walker *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    self->deck = deck;
    self->views = PyMem_Calloc(4 + 5 + 6 + 7 + 2, sizeof(Py_buffer));
    self->owners = PyTuple_Pack(6, dags[0], dags[1], dags[2], v5, v6, dag4);
    if (self->views == NULL || self->owners == NULL) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    for (int d = 0; d < 3; d++)
        if (dags[d] != Py_None) {
            if (take_dag(self, dags[d], 5 + d, &self->dag[d]) < 0) {
                Py_DECREF(self);
                return NULL;
            }
            self->sizes |= 1u << (5 + d);
        }
    if (dag4 != Py_None) {
        if (take_dag(self, dag4, 4, &self->four) < 0) {
            Py_DECREF(self);
            return NULL;
        }
        self->sizes |= 1u << 4;
    }
    if (has7) {
        self->value[0] = take(self, v5, &self->value_width[0]);
        if (self->value[0] == NULL || (self->value[1] = take(self, v6, &self->value_width[1])) == NULL) {
            Py_DECREF(self);
            return NULL;
        }
    }
    for (int d = 0; derived && d < 2; d++) {
        /* The first 5 + d layers of dag7, then the value of the node. */
        self->dag[d] = self->dag[2];
        self->dag[d].depth = 5 + d;
        self->dag[d].value = self->value[d];
        self->dag[d].value_width = self->value_width[d];
        self->sizes |= 1u << (5 + d);
    }
    /* The small tables come from dag7 and its value arrays (hold'em's or another game's). */
    self->small_allowed = small && has7;
    return (PyObject *)self;
}

/* One layer for m rows. at[i] indexes row i's entry in this layer; on return
 * it indexes the row's entry in the next layer, for card cards[i * stride],
 * and that entry's line is already on its way. A whole pass of fetches goes
 * out before the next pass reads any of them, so many misses are in flight at
 * once; a walk that reads each entry as soon as it asks for it keeps the
 * processor's window full of reads that wait, and half as many in flight.
 * One loop per entry width keeps the loop body small. */
#define STEP(TYPE, LOAD)                                                                  \
    for (int i = 0; i < m; i++) {                                                         \
        const unsigned char *p = layer + (size_t)at[i] * sizeof(TYPE);                    \
        uint32_t x = (uint32_t)(LOAD) * 52 + cards[i * stride];                           \
        at[i] = x;                                                                        \
        PREFETCH_AT(next + (size_t)x * next_width);                                       \
    }
#if defined(__GNUC__)
/* Into L2, not L1 (prefetcht1 on x86): the L1 can track only a couple of
 * dozen misses at once, and a prefetch into it waits for a free slot; the L2
 * tracks more. Measured on random 7-card hands: 1.5-1.7x the walks/s of a
 * prefetch into L1, on the same hands in the same process. */
#define PREFETCH_AT(p) __builtin_prefetch(p, 0, 2)
#else
#define PREFETCH_AT(p) ((void)0)
#endif

static void step(const unsigned char *layer, int width, uint32_t *at, const unsigned char *cards, int stride, int m,
                 const unsigned char *next, int next_width) {
    switch (width) {
    case 1:
        STEP(uint8_t, p[0])
        break;
    case 2:
        STEP(uint16_t, (uint32_t)p[0] | (uint32_t)p[1] << 8)
        break;
    default:
        STEP(uint32_t, (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24)
        break;
    }
}

/* A byte's card bit: 1 << c for a card c of 0..51, else 0. One load, where
 * a shift by a variable count costs an extra move on x86. */
static uint64_t card_bit[256];

void fill_card_bits(void) {
    for (int c = 0; c < 52; c++)
        card_bit[c] = (uint64_t)1 << c;
}

/* The first index of each of m rows of k cards, walking on from the node
 * whose row of entries begins at `base`: at[i] = base + row i's first card.
 * The rows are copied into `block` on the way, and checked and walked from
 * there (the caller's array may change while the GIL is released, and a
 * card read twice could pass the check as one card and be walked as
 * another, even as a card over 51 reading past the layer).
 * Returns the first bad row, or -1.
 * Cards over 51 are always caught, so no walk can leave the arrays;
 * duplicates and forbidden cards (the prefix's, and those outside the deck)
 * only with check: unchecked they give some value, as on the numpy path.
 * One pass over the copy's bytes, which the compiler vectorises, finds
 * whether any card is over 51; only then are rows searched for it. (A loop
 * that copied and took the maximum at once walked 5 and 6 cards 10-20%
 * slower than memcpy and then this pass, which cost next to nothing.)
 * A checked row's cards are distinct exactly when the sum of their bits
 * equals their union (under 2^55, so nothing wraps): no chain of dependent
 * steps from card to card. Measured on random 5-card hands, checked:
 * 1.3-1.4x the rows/s of a per-card test with shifted bits. */
static inline Py_ssize_t start_rows_of(const unsigned char *rows, unsigned char *block, int m, int k, int check,
                                       uint64_t forbidden, uint32_t base, uint32_t *at) {
    memcpy(block, rows, (size_t)m * (size_t)k);
    unsigned char most = 0;
    for (int i = 0; i < m * k; i++)
        most = block[i] > most ? block[i] : most;
    if (most > 51) {
        for (int i = 0; i < m; i++) {
            const unsigned char *c = block + i * k;
            uint64_t seen = 0, sum = 0;
            unsigned char row_most = 0;
            for (int j = 0; j < k; j++) {
                seen |= card_bit[c[j]];
                sum += card_bit[c[j]];
                row_most = c[j] > row_most ? c[j] : row_most;
            }
            if (row_most > 51 || (check && (sum != seen || (seen & forbidden))))
                return i;
        }
    } else if (check) {
        for (int i = 0; i < m; i++) {
            const unsigned char *c = block + i * k;
            uint64_t seen = 0, sum = 0;
            for (int j = 0; j < k; j++) {
                seen |= card_bit[c[j]];
                sum += card_bit[c[j]];
            }
            if (sum != seen || (seen & forbidden))
                return i;
        }
    }
    for (int i = 0; i < m; i++)
        at[i] = base + block[i * k];
    return -1;
}

/* start_rows_of with k a constant for the common row widths, so that the
 * compiler unrolls the loop over a row's cards. */
static Py_ssize_t start_rows(const unsigned char *rows, unsigned char *block, int m, int k, int check,
                             uint64_t forbidden, uint32_t base, uint32_t *at) {
    switch (k) {
    case 7:
        return start_rows_of(rows, block, m, 7, check, forbidden, base, at);
    case 6:
        return start_rows_of(rows, block, m, 6, check, forbidden, base, at);
    case 5:
        return start_rows_of(rows, block, m, 5, check, forbidden, base, at);
    default:
        return start_rows_of(rows, block, m, k, check, forbidden, base, at);
    }
}

static PyObject *Walker_keyed_tables(Walker *self, PyObject *unused) {
    (void)unused;
    if (ensure_keyed(self) < 0)
        return NULL;
    return PyBool_FromLong(self->keyed_ok);
}

/* walk_rows(hands, out, check[, depth, start, held]) -> int: values of the
 * rows of a C-contiguous (N, k) uint8 array into a uint16 array of N,
 * through the (depth + k)-card DAG from node `start` at `depth` (0: from
 * the root), the node the cards of the mask `held` reach. A row holding a
 * card over 51, or with check a duplicate, a card of `held` or a card
 * outside the deck, stops the walk and its index is returned; else -1. The
 * GIL is released while walking. */
PyObject *Walker_walk_rows(Walker *self, PyObject *const *args, Py_ssize_t nargs) {
    Buffers bufs;
    Py_buffer *in, *out;
    int check;
    long depth = 0, start = 0;
    uint64_t held = 0;
    if (parse_args(args, nargs, "walk_rows(hands, out, check[, depth, start, held])", &bufs, "rwp|llm", &in, &out,
                   &check, &depth, &start, &held) < 0)
        return NULL;
    const char *error = NULL;
    if (in->ndim != 2 || in->itemsize != 1 || depth < 0 || depth + in->shape[1] < 4 || depth + in->shape[1] > 7 ||
        in->shape[1] < 1 || !(self->sizes >> (depth + in->shape[1]) & 1))
        error = self->sizes == HIGH_SIZES ? "hands must be a C-contiguous (N, k) uint8 array with depth + k in 5..7"
                                    : "hands must be a C-contiguous (N, k) uint8 array with depth + k a hand size "
                                      "the walker walks";
    else if (out->ndim != 1 || out->itemsize != 2 || out->shape[0] != in->shape[0])
        error = "out must be a C-contiguous uint16 array of one entry per hand";
    else if (start < 0 || (size_t)start >= dag_of(self, (int)(depth + in->shape[1]))->entries[depth] / 52)
        error = "start is not a node of that depth"; /* its row would lie outside the layer */
    if (error != NULL)
        return release_args(&bufs, error, NULL);
    Py_ssize_t bad = -1;
    Py_ssize_t rows = in->shape[0];
    int k = (int)in->shape[1];
    /* Checked whole hands go through the keyed tables, which fit in cache;
     * unchecked rows (a duplicate walks the DAG to some value) and prefixes
     * walk the DAG. The tables are built on the first such batch, with the GIL. */
    int keyed = check && depth == 0 && held == 0 && self->deck == ALL_CARDS && self->small_allowed;
    if (keyed && ensure_keyed(self) < 0)
        return release_args(&bufs, NULL, NULL);
    keyed = keyed && self->keyed_ok;
    const struct dag *d = dag_of(self, (int)depth + k);
    const unsigned char *h = (const unsigned char *)in->buf;
    uint16_t *values = (uint16_t *)out->buf;
    /* Cards a checked row may not hold besides its duplicates: the prefix's and those outside the deck. */
    uint64_t forbidden = held | (ALL_CARDS & ~self->deck);
    Py_BEGIN_ALLOW_THREADS
    /* Rows go in blocks, one layer at a time across the block: the lookups
     * of different rows are independent, so their cache misses overlap
     * instead of queueing behind each other as in a row-by-row walk. */
    uint32_t at[WALK_BLOCK]; /* every layer has under 2^32 entries (checked when the walker is made) */
    unsigned char block[WALK_BLOCK * MAX_DEPTH]; /* the rows walked: start_rows's copy of the caller's */
    const unsigned char *first = d->layer[depth];
    const int first_width = d->width[depth];
    const unsigned char *last = d->layer[depth + k - 1];
    const int last_width = d->width[depth + k - 1];
    /* The keyed walk reads each card of the caller's rows once and finds
     * duplicates and cards over 51 itself; it has no blocks to keep in
     * step, so it takes the rows in long runs. */
    for (Py_ssize_t r0 = 0; keyed && r0 < rows; r0 += KEYED_RUN) {
        int m = rows - r0 < KEYED_RUN ? (int)(rows - r0) : KEYED_RUN;
        int first_bad = keyed_values(self, h + r0 * k, m, k, values + r0, 1);
        if (first_bad >= 0) {
            bad = r0 + first_bad;
            break;
        }
    }
    for (Py_ssize_t r0 = 0; !keyed && r0 < rows; r0 += WALK_BLOCK) {
        int m = rows - r0 < WALK_BLOCK ? (int)(rows - r0) : WALK_BLOCK;
        Py_ssize_t first_bad = start_rows(h + r0 * k, block, m, k, check, forbidden, (uint32_t)start * 52, at);
        if (first_bad >= 0) {
            bad = r0 + first_bad;
            break;
        }
        if (depth > 0) /* a prefix's first layer is a large one; hold'em's first layer is 52 entries */
            for (int i = 0; i < m; i++)
                PREFETCH_AT(first + (size_t)at[i] * first_width);
        for (int j = depth; j < depth + k - 1; j++)
            step(d->layer[j], d->width[j], at, block + j - depth + 1, k, m, d->layer[j + 1], d->width[j + 1]);
        uint16_t *v = values + r0;
        if (d->value != NULL) /* the last layer leads to nodes, and they to values */
            for (int i = 0; i < m; i++)
                v[i] = (uint16_t)get(d->value, d->value_width, get(last, last_width, at[i]));
        else if (last_width == 2) /* a walk that ends in values, as every Hold'em DAG's does */
            for (int i = 0; i < m; i++)
                v[i] = (uint16_t)get(last, 2, at[i]);
        else
            for (int i = 0; i < m; i++)
                v[i] = (uint16_t)get(last, last_width, at[i]);
    }
    Py_END_ALLOW_THREADS
    return release_args(&bufs, NULL, PyLong_FromSsize_t(bad));
}

static PyMethodDef Walker_methods[] = {
    {"draw_values", (PyCFunction)(void (*)(void))Walker_draw_values, METH_FASTCALL,
     "draw_values(node, depth, free, out): values of every draw completing a dag7 walk"},
    {"small_rows", (PyCFunction)(void (*)(void))Walker_small_rows, METH_FASTCALL,
     "small_rows(hands, out) -> bool: values through the single-hand tables (for tests); "
     "whether the single-hand path uses them"},
    {"evaluate", (PyCFunction)(void (*)(void))Walker_evaluate, METH_FASTCALL,
     "evaluate(cards) -> int | None: value of a hand (5-7 cards, or the walker's sizes) of distinct ints of the "
     "deck in a list or tuple, else None"},
    {"fill_ordered", (PyCFunction)(void (*)(void))Walker_fill_ordered, METH_FASTCALL,
     "fill_ordered(n, node, free, include, r0, cards, values): rows of the ordered enumeration"},
    {"omaha", (PyCFunction)(void (*)(void))Walker_omaha, METH_FASTCALL,
     "omaha(hole, board) -> int | None: value of one Omaha deal of plain distinct cards, else None"},
    {"omaha_rows", (PyCFunction)(void (*)(void))Walker_omaha_rows, METH_FASTCALL,
     "omaha_rows(holes, boards, out) -> int: Omaha values of uint8 rows; the first bad row or -1"},
    {"rank_combos", (PyCFunction)(void (*)(void))Walker_rank_combos, METH_FASTCALL,
     "rank_combos(node, depth, held, out): the value of every two-card combo finishing a walk"},
    {"range_values", (PyCFunction)(void (*)(void))Walker_range_values, METH_FASTCALL,
     "range_values(starts, held, depth, prefix, free, out): each combo's value on every board of a block"},
    {"score_tuples", (PyCFunction)(void (*)(void))Walker_score_tuples, METH_FASTCALL,
     "score_tuples(values, tuples, counts, games): add each deal's wins, ties and shares over live boards"},
    {"score", (PyCFunction)(void (*)(void))Walker_score, METH_O,
     "score(values) -> [(wins, ties, units)]: per-player results of (players, boards) values"},
    {"count_showdowns", (PyCFunction)(void (*)(void))Walker_count_showdowns, METH_FASTCALL,
     "count_showdowns(holes, known, dead, counts, games) -> bool: exact showdowns of deals by counting, or False"},
    {"count_vs_random", (PyCFunction)(void (*)(void))Walker_count_vs_random, METH_FASTCALL,
     "count_vs_random(boards, weights, out): add each combo's weighted wins and wins + ties against a random hand"},
    {"board_wins", (PyCFunction)(void (*)(void))Walker_board_wins, METH_FASTCALL,
     "board_wins(boards, out): each combo's wins and ties against every other combo on each board"},
    {"range_sweep", (PyCFunction)(void (*)(void))Walker_range_sweep, METH_FASTCALL,
     "range_sweep(boards, weights, out): add each combo's weight beaten, tied and faced of a weighted range"},
    {"strength_sums", (PyCFunction)(void (*)(void))Walker_strength_sums, METH_FASTCALL,
     "strength_sums(boards, weights, bins, first, second, histogram): add each combo's river strength sums"},
    {"histogram", (PyCFunction)(void (*)(void))Walker_histogram, METH_FASTCALL,
     "histogram(n, out) -> bool: add every n-card hand's count per value into out, or False"},
    {"keyed_rows", (PyCFunction)(void (*)(void))Walker_keyed_rows, METH_FASTCALL,
     "keyed_rows(hands, out, vector) -> int: checked rows through the keyed tables, by the vector loop or the "
     "scalar one (for tests); the first bad row or -1"},
    {"keyed_tables", (PyCFunction)Walker_keyed_tables, METH_NOARGS,
     "keyed_tables() -> bool: whether checked batches of whole hands use the keyed tables (built now if need be)"},
    {"sample_games", (PyCFunction)(void (*)(void))Walker_sample_games, METH_FASTCALL,
     "sample_games(hands, board, dead, key, n, counts, combos) -> bool: play and tally a batch of sampled "
     "hold'em games"},
    {"walk_rows", (PyCFunction)(void (*)(void))Walker_walk_rows, METH_FASTCALL,
     "walk_rows(hands, out, check[, depth, start, held]) -> int: walk uint8 rows into out; first bad row or -1"},
    {NULL, NULL, 0, NULL},
};

PyTypeObject WalkerType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "twoplustwo.kernels._core.Walker",
    .tp_doc = "Walks hands down one table set's DAGs (C backend).",
    .tp_basicsize = sizeof(Walker),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = Walker_new,
    .tp_dealloc = (destructor)Walker_dealloc,
    .tp_methods = Walker_methods,
};
