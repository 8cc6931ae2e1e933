/* twoplustwo.kernels._core: the hot loops of the runtime in C99 against the CPython API.
 *
 * A Walker holds pointers into one table set's mapped arrays (it keeps the
 * Python objects that own them alive) and walks hands down a DAG, one lookup
 * per card, exactly as tables/README.md section 5 says. Every function here
 * either gives the same answer as the numpy path or says "not mine": the
 * single-hand call returns None for anything but distinct ints 0..51 of the
 * walker's deck, and the batch walk returns the first bad row, so that
 * Python raises the very same errors on both backends.
 *
 * A table set has one Walker for hold'em (dag5, dag6, dag7) and one for
 * each other game it is asked about (short deck: the game's dag7 alone,
 * whose first 5 or 6 layers and value arrays give 5- and 6-card values,
 * and a deck of 36 cards; section 13).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MAX_DEPTH 7
/* Rows walked together by walk_rows: enough fetches in flight to keep the
 * memory busy, few enough that a pass's fetched lines (16 KB) are still in L2
 * when the next pass reads them. On random 7-card hands 256 did a little
 * better than 64, 128, 512 and 1024. */
#define WALK_BLOCK 256

struct dag {
    const unsigned char *layer[MAX_DEPTH]; /* layer k+1 of the DAG */
    int width[MAX_DEPTH];                  /* bytes per entry: 1, 2 or 4 */
    size_t entries[MAX_DEPTH];             /* entries of layer k+1: 52 per node at depth k */
    int depth;                             /* cards per hand: 5, 6 or 7 */
    /* NULL when the last layer holds values (hold'em's dag5, dag6, dag7);
     * else the first `depth` layers of a 7-card DAG, and the value of the
     * node they reach is this array's entry (a game's value5 or value6). */
    const unsigned char *value;
    int value_width;
};

/* Every card of the 52: hold'em's deck. */
#define ALL_CARDS ((((uint64_t)1) << 52) - 1)

typedef struct {
    PyObject_HEAD
    struct dag dag[3]; /* the 5-, 6- and 7-card walks */
    const unsigned char *value[2]; /* dag7/value5, dag7/value6 */
    int value_width[2];
    uint64_t deck; /* the cards hands may hold, one bit each */
    PyObject *owners; /* the buffers' owners, kept alive */
    Py_buffer *views;
    Py_ssize_t n_views;
    /* Cache-sized tables for single hands, derived from dag7 on first use:
     * the value of each sorted rank multiset of 5, 6 or 7 cards that makes no
     * flush (index: its colex rank), and of each set of suited ranks that
     * makes a flush (index: the 13-bit rank mask). */
    uint16_t *by_ranks[3];
    uint16_t *flush;
    int small_ok; /* 1: the small tables agree with the DAG; 0: walk the DAG */
    unsigned walked; /* single hands walked down the DAG before the small tables exist */
} Walker;

/* Deriving the small tables costs a few milliseconds (tens of thousands of
 * walks, most of them page faults in a fresh process), which a process that
 * evaluates a handful of hands should not pay: the first single hands walk
 * the DAG (about a microsecond each) and the tables come after this many. */
#define SMALL_AFTER 2048

static PyTypeObject WalkerType;

/* choose[n][k] for the colex rank of a multiset of up to 7 ranks 0..12:
 * sorted r1 <= ... <= rk maps to the set {r_i + i - 1}, subsets of 0..18. */
static uint32_t choose[20][8];
static const uint32_t n_multisets[3] = {6188, 18564, 50388}; /* C(17,5), C(18,6), C(19,7) */

static void fill_choose(void) {
    for (int n = 0; n < 20; n++) {
        choose[n][0] = 1;
        for (int k = 1; k < 8; k++)
            choose[n][k] = n == 0 ? 0 : choose[n - 1][k - 1] + choose[n - 1][k];
    }
}

static inline uint32_t get(const unsigned char *p, int width, size_t i) {
    /* The format is little-endian whatever the host (tables/README.md, section 3). */
    switch (width) {
    case 1:
        return p[i];
    case 2:
        p += 2 * i;
        return (uint32_t)p[0] | (uint32_t)p[1] << 8;
    default:
        p += 4 * i;
        return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    }
}

static inline uint32_t walk(const struct dag *d, const unsigned char *cards, int n) {
    uint32_t node = 0;
    for (int k = 0; k < n; k++)
        node = get(d->layer[k], d->width[k], (size_t)node * 52 + cards[k]);
    return node;
}

/* The value of a hand whose walk of d's layers ended at `node`. */
static inline uint32_t finish(const struct dag *d, uint32_t node) {
    return d->value == NULL ? node : get(d->value, d->value_width, node);
}

static void Walker_dealloc(Walker *self) {
    for (int i = 0; i < 3; i++)
        PyMem_Free(self->by_ranks[i]);
    PyMem_Free(self->flush);
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

/* Walker(dag5_layers, dag6_layers, dag7_layers, value5, value6, deck=None):
 * sequences of little-endian arrays exposing the buffer protocol. dag5 and
 * dag6 may both be None: 5- and 6-card hands then walk dag7's first layers
 * and finish in value5 and value6 (another game's one DAG). `deck` is the
 * mask of the cards hands may hold, by default all 52. */
static PyObject *Walker_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    PyObject *dags[3], *v5, *v6, *deck_arg = Py_None;
    static char *kwlist[] = {"dag5", "dag6", "dag7", "value5", "value6", "deck", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOO|$O:Walker", kwlist, &dags[0], &dags[1], &dags[2], &v5, &v6,
                                     &deck_arg))
        return NULL;
    int derived = dags[0] == Py_None && dags[1] == Py_None;
    if (!derived && (dags[0] == Py_None || dags[1] == Py_None)) {
        PyErr_SetString(PyExc_ValueError, "dag5 and dag6 are both sequences of layers or both None");
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
    self->views = PyMem_Calloc(5 + 6 + 7 + 2, sizeof(Py_buffer));
    self->owners = PyTuple_Pack(5, dags[0], dags[1], dags[2], v5, v6);
    if (self->views == NULL || self->owners == NULL) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    for (int d = derived ? 2 : 0; d < 3; d++) {
        PyObject *seq = PySequence_Fast(dags[d], "each DAG is a sequence of layer arrays");
        if (seq == NULL) {
            Py_DECREF(self);
            return NULL;
        }
        Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
        if (n != 5 + d) {
            Py_DECREF(seq);
            Py_DECREF(self);
            return PyErr_Format(PyExc_ValueError, "dag%d needs %d layers, got %zd", 5 + d, 5 + d, n);
        }
        self->dag[d].depth = (int)n;
        for (Py_ssize_t k = 0; k < n; k++) {
            self->dag[d].layer[k] = take(self, PySequence_Fast_GET_ITEM(seq, k), &self->dag[d].width[k]);
            if (self->dag[d].layer[k] != NULL)
                self->dag[d].entries[k] = (size_t)(self->views[self->n_views - 1].len / self->dag[d].width[k]);
            if (self->dag[d].layer[k] != NULL && self->dag[d].entries[k] > UINT32_MAX) {
                /* walk_rows indexes entries in 32 bits */
                Py_DECREF(seq);
                Py_DECREF(self);
                return PyErr_Format(PyExc_ValueError, "dag%d layer %zd has over 2^32 entries", 5 + d, k + 1);
            }
            if (self->dag[d].layer[k] == NULL) {
                Py_DECREF(seq);
                Py_DECREF(self);
                return NULL;
            }
        }
        Py_DECREF(seq);
    }
    self->value[0] = take(self, v5, &self->value_width[0]);
    if (self->value[0] == NULL || (self->value[1] = take(self, v6, &self->value_width[1])) == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    for (int d = 0; derived && d < 2; d++) {
        /* The first 5 + d layers of dag7, then the value of the node. */
        self->dag[d] = self->dag[2];
        self->dag[d].depth = 5 + d;
        self->dag[d].value = self->value[d];
        self->dag[d].value_width = self->value_width[d];
    }
    return (PyObject *)self;
}

/* The value of n cards (already checked) through dag7 and its value arrays. */
static uint32_t dag_value(const Walker *self, const unsigned char *cards, int n) {
    uint32_t node = walk(&self->dag[2], cards, n);
    return n == 7 ? node : get(self->value[n - 5], self->value_width[n - 5], node);
}

static int sample_agrees(const Walker *self);

/* The rank multisets of n cards (at most four of a rank) as non-decreasing
 * tuples r[0..n-1], in order: the first, then each next one; next_multiset
 * returns 0 after the last. */
static void first_multiset(int *r, int n) {
    for (int i = 0; i < n; i++)
        r[i] = i / 4;
}

static int next_multiset(int *r, int n) {
    for (;;) {
        int i = n - 1;
        while (i >= 0 && r[i] == 12)
            i--;
        if (i < 0)
            return 0;
        r[i]++;
        for (int j = i + 1; j < n; j++)
            r[j] = r[i];
        int ok = 1;
        for (int j = 4; j < n && ok; j++)
            ok = r[j] != r[j - 4];
        if (ok)
            return 1;
    }
}

/* The colex rank of a sorted multiset: its index in the by_ranks tables. */
static uint32_t multiset_index(const int *r, int n) {
    uint32_t index = 0;
    for (int i = 0; i < n; i++)
        index += choose[r[i] + i][i + 1];
    return index;
}

/* Every entry comes from the DAG itself, so the small tables can only ever
 * agree with it (and the tests compare them on every hand). */
static int build_small_tables(Walker *self) {
    for (int t = 0; t < 3; t++) {
        int n = 5 + t;
        PyMem_Free(self->by_ranks[t]); /* left by an earlier attempt that ran out of memory */
        uint16_t *table = PyMem_Calloc(n_multisets[t], sizeof(uint16_t));
        if (table == NULL)
            return -1;
        self->by_ranks[t] = table;
        int r[7];
        first_multiset(r, n);
        do {
            /* Suits in turn: equal ranks get different suits, no suit five times. */
            unsigned char cards[7];
            int in_deck = 1;
            for (int i = 0; i < n; i++) {
                cards[i] = (unsigned char)(r[i] * 4 + i % 4);
                in_deck &= (int)(self->deck >> cards[i] & 1);
            }
            /* A smaller deck (short deck) holds whole ranks: multisets of
             * ranks it lacks are no hand of the game, and stay 0. */
            if (in_deck)
                table[multiset_index(r, n)] = (uint16_t)dag_value(self, cards, n);
        } while (next_multiset(r, n));
    }
    self->flush = PyMem_Calloc(1 << 13, sizeof(uint16_t));
    if (self->flush == NULL)
        return -1;
    for (unsigned mask = 0; mask < (1u << 13); mask++) {
        unsigned char cards[7];
        int n = 0, bits = 0, in_deck = 1;
        for (int r = 0; r < 13; r++) {
            if (mask >> r & 1) {
                bits++;
                in_deck &= (int)(self->deck >> (r * 4) & 1);
                if (n < 7)
                    cards[n++] = (unsigned char)(r * 4);
            }
        }
        /* Five to seven suited cards: the best hand of seven cards holding
         * them is their flush (or straight flush), whatever the others are:
         * the other cards cannot make quads or a full house beside five of
         * one suit. That holds in short deck too. */
        if (bits >= 5 && bits <= 7 && in_deck)
            self->flush[mask] = (uint16_t)dag_value(self, cards, n);
    }
    self->small_ok = sample_agrees(self);
    return 0;
}

static inline uint32_t small_value(const Walker *self, const unsigned char *cards, int n);

/* The small tables stand for the DAG only if its values follow Hold'em's
 * ranking (a value depends on the rank multiset, or on the suited ranks of a
 * flush). Real tables do (the tests check every hand); a table set of other
 * values, such as the conformance fixtures' tiny set, shows it on a sample of
 * hands, and then every single hand walks the DAG instead. */
static int sample_agrees(const Walker *self) {
    uint64_t state = 0x9E3779B97F4A7C15u;
    for (int trial = 0; trial < 4096; trial++) {
        int n = 5 + trial % 3;
        unsigned char cards[7];
        uint64_t used = 0;
        for (int i = 0; i < n;) {
            state = state * 6364136223846793005u + 1442695040888963407u;
            unsigned char c = (unsigned char)((state >> 33) % 52);
            if (!(used >> c & 1) && (self->deck >> c & 1)) {
                used |= (uint64_t)1 << c;
                cards[i++] = c;
            }
        }
        if (small_value(self, cards, n) != dag_value(self, cards, n))
            return 0;
    }
    return 1;
}

/* The value of n distinct cards 0..51 from the small tables. */
static inline uint32_t small_value(const Walker *self, const unsigned char *cards, int n) {
    unsigned counts[13] = {0};
    unsigned suited[4] = {0}, per_suit[4] = {0};
    for (int i = 0; i < n; i++) {
        counts[cards[i] >> 2]++;
        suited[cards[i] & 3] |= 1u << (cards[i] >> 2);
        per_suit[cards[i] & 3]++;
    }
    for (int s = 0; s < 4; s++)
        if (per_suit[s] >= 5)
            return self->flush[suited[s]];
    uint32_t index = 0;
    int i = 0;
    for (int r = 0; r < 13; r++)
        for (unsigned c = 0; c < counts[r]; c++, i++)
            index += choose[r + i][i + 1];
    return self->by_ranks[n - 5][index];
}

/* evaluate(cards) -> int | None: the value of a list or tuple of 5-7
 * distinct ints 0..51, else None (Python then parses and explains). */
/* Cards from the common ASCII text forms ("As Kd 7h", "AsKd7h", "as,kd, 10h"):
 * the number of cards, or -1 for anything else (other characters, a comma
 * with no card before or after it, a duplicate, more than 7 cards), which
 * the Python parser then reads or explains. */
static int parse_text(const char *s, Py_ssize_t len, unsigned char *cards) {
    static const char ranks[] = "23456789TJQKA";
    static const char suits[] = "cdhs";
    int n = 0, comma = 0;
    uint64_t seen = 0;
    Py_ssize_t i = 0;
    while (i < len) {
        char ch = s[i];
        if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v') {
            i++;
            continue;
        }
        if (ch == ',') {
            if (n == 0 || comma)
                return -1; /* an empty token */
            comma = 1;
            i++;
            continue;
        }
        int rank;
        if (ch == '1' && i + 1 < len && s[i + 1] == '0') {
            rank = 8;
            i += 2;
        } else {
            const char *r = ch ? strchr(ranks, ch >= 'a' && ch <= 'z' ? ch - 'a' + 'A' : ch) : NULL;
            if (r == NULL)
                return -1;
            rank = (int)(r - ranks);
            i++;
        }
        if (i >= len)
            return -1;
        char sc = s[i] >= 'A' && s[i] <= 'Z' ? (char)(s[i] - 'A' + 'a') : s[i];
        const char *su = sc ? strchr(suits, sc) : NULL;
        if (su == NULL || n == 7)
            return -1;
        i++;
        int card = rank * 4 + (int)(su - suits);
        if (seen >> card & 1)
            return -1;
        seen |= (uint64_t)1 << card;
        cards[n++] = (unsigned char)card;
        comma = 0;
    }
    return comma ? -1 : n;
}

/* The value of n distinct cards 0..51 for the single-hand path, as a new
 * int: the small tables where they stand for the DAG, else the DAG; None for
 * a card outside the walker's deck. */
static PyObject *single_value(Walker *self, const unsigned char *cards, int n) {
    if (self->deck != ALL_CARDS) {
        for (int i = 0; i < n; i++)
            if (!(self->deck >> cards[i] & 1))
                Py_RETURN_NONE;
    }
    if (self->flush == NULL) {
        if (self->walked < SMALL_AFTER) {
            self->walked++;
            return PyLong_FromUnsignedLong(dag_value(self, cards, n));
        }
        if (build_small_tables(self) < 0)
            return PyErr_NoMemory();
    }
    return PyLong_FromUnsignedLong(self->small_ok ? small_value(self, cards, n) : dag_value(self, cards, n));
}

static PyObject *fast_value(Walker *self, PyObject *seq) {
    PyObject **items;
    Py_ssize_t n;
    if (PyUnicode_CheckExact(seq)) {
        unsigned char cards[MAX_DEPTH];
        int k = PyUnicode_IS_ASCII(seq)
                    ? parse_text((const char *)PyUnicode_1BYTE_DATA(seq), PyUnicode_GET_LENGTH(seq), cards)
                    : -1;
        if (k < 5)
            Py_RETURN_NONE;
        return single_value(self, cards, k);
    }
    if (PyList_CheckExact(seq)) {
        items = PySequence_Fast_ITEMS(seq);
        n = PyList_GET_SIZE(seq);
    } else if (PyTuple_CheckExact(seq)) {
        items = PySequence_Fast_ITEMS(seq);
        n = PyTuple_GET_SIZE(seq);
    } else {
        Py_RETURN_NONE;
    }
    if (n < 5 || n > 7)
        Py_RETURN_NONE;
    unsigned char cards[MAX_DEPTH];
    uint64_t seen = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = items[i];
        if (!PyLong_CheckExact(x)) /* bool and int subclasses go the slow way */
            Py_RETURN_NONE;
        int overflow;
        long c = PyLong_AsLongAndOverflow(x, &overflow);
        if (overflow || c < 0 || c > 51)
            Py_RETURN_NONE;
        uint64_t bit = (uint64_t)1 << c;
        if (seen & bit)
            Py_RETURN_NONE;
        seen |= bit;
        cards[i] = (unsigned char)c;
    }
    return single_value(self, cards, (int)n);
}

static PyObject *Walker_evaluate(Walker *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 1) {
        PyErr_SetString(PyExc_TypeError, "evaluate() takes one argument");
        return NULL;
    }
    return fast_value(self, args[0]);
}

/* The default table set's walker, its other games' walkers by name, and
 * the Python evaluate that does the rest (parsing, errors, other table
 * sets), set by twoplustwo.tables.load and twoplustwo.hands.single. */
static PyObject *default_walker = NULL;
static PyObject *game_walkers = NULL; /* dict: game name -> Walker of the default set */
static PyObject *last_game = NULL, *last_walker = NULL; /* the last game= name evaluate met, and its walker */
static PyObject *fallback = NULL;

static PyObject *core_set_default(PyObject *module, PyObject *walker) {
    (void)module;
    if (walker != Py_None && !PyObject_TypeCheck(walker, &WalkerType)) {
        PyErr_SetString(PyExc_TypeError, "set_default takes a Walker or None");
        return NULL;
    }
    /* Another default set: the other games' walkers were the old set's. */
    PyObject *fresh = PyDict_New();
    if (fresh == NULL)
        return NULL;
    Py_XSETREF(game_walkers, fresh);
    Py_CLEAR(last_game);
    Py_CLEAR(last_walker);
    Py_XSETREF(default_walker, walker == Py_None ? NULL : Py_NewRef(walker));
    Py_RETURN_NONE;
}

/* set_game(name, walker): the default set's walker for the game `name`, so
 * that evaluate(cards, game=name) runs without a Python frame too. */
static PyObject *core_set_game(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 2 || !PyUnicode_CheckExact(args[0]) || !PyObject_TypeCheck(args[1], &WalkerType)) {
        PyErr_SetString(PyExc_TypeError, "set_game takes a game name and a Walker");
        return NULL;
    }
    if (game_walkers == NULL && (game_walkers = PyDict_New()) == NULL)
        return NULL;
    if (PyDict_SetItem(game_walkers, args[0], args[1]) < 0)
        return NULL;
    Py_CLEAR(last_game); /* it may name this game's earlier walker */
    Py_CLEAR(last_walker);
    Py_RETURN_NONE;
}

static PyObject *core_set_fallback(PyObject *module, PyObject *fn) {
    (void)module;
    if (!PyCallable_Check(fn)) {
        PyErr_SetString(PyExc_TypeError, "set_fallback takes a callable");
        return NULL;
    }
    Py_XSETREF(fallback, Py_NewRef(fn));
    Py_RETURN_NONE;
}

/* evaluate(cards, *, game="holdem", tables=None): the default tables'
 * single-hand path without a Python frame, for hold'em and for each game
 * whose walker set_game gave; everything else goes to the fallback. */
static PyObject *core_evaluate(PyObject *module, PyObject *const *args, Py_ssize_t nargsf, PyObject *kwnames) {
    (void)module;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    PyObject *walker = nargs == 1 ? default_walker : NULL;
    Py_ssize_t kw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t i = 0; i < kw && walker != NULL; i++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, i), *value = args[nargs + i];
        if (PyUnicode_CompareWithASCIIString(name, "tables") == 0) {
            if (value != Py_None)
                walker = NULL;
        } else if (PyUnicode_CompareWithASCIIString(name, "game") == 0 && PyUnicode_CheckExact(value)) {
            /* A game is named by the same interned literal call after call:
             * one pointer compare, before any string compare. */
            if (value == last_game && last_game != NULL)
                walker = last_walker;
            else if (PyUnicode_CompareWithASCIIString(value, "holdem") != 0)
                walker = game_walkers == NULL ? NULL : PyDict_GetItem(game_walkers, value); /* borrowed */
            if (walker != NULL && value != last_game) {
                Py_XSETREF(last_game, Py_NewRef(value));
                Py_XSETREF(last_walker, Py_NewRef(walker));
            }
        } else {
            walker = NULL;
        }
    }
    if (walker != NULL) {
        PyObject *value = fast_value((Walker *)walker, args[0]);
        if (value != Py_None)
            return value;
        Py_DECREF(value);
    }
    if (fallback == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "twoplustwo.kernels._core.evaluate has no fallback set");
        return NULL;
    }
    return PyObject_Vectorcall(fallback, args, nargsf, kwnames);
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

static void fill_card_bits(void) {
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

/* walk_rows(hands, out, check) -> int: values of the rows of a C-contiguous
 * (N, k) uint8 array into a uint16 array of N, through the k-card DAG. A row
 * holding a card over 51, or with check a duplicate or a card outside the
 * deck, stops the walk and its index is returned; else -1. The GIL is
 * released while walking. */
static PyObject *Walker_walk_rows(Walker *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3 && nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "walk_rows(hands, out, check[, depth, start, held])");
        return NULL;
    }
    int check = PyObject_IsTrue(args[2]);
    if (check < 0)
        return NULL;
    /* Rows may continue a walk: from node `start` at `depth` (a prefix's cards). */
    long depth = 0, start = 0;
    uint64_t held = 0; /* the prefix's cards: with check, a row holding one is bad */
    if (nargs == 6) {
        depth = PyLong_AsLong(args[3]);
        start = PyLong_AsLong(args[4]);
        held = PyLong_AsUnsignedLongLongMask(args[5]);
        if (PyErr_Occurred())
            return NULL;
    }
    Py_buffer in, out;
    if (PyObject_GetBuffer(args[0], &in, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_ND) < 0)
        return NULL;
    if (PyObject_GetBuffer(args[1], &out, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_ND) < 0) {
        PyBuffer_Release(&in);
        return NULL;
    }
    Py_ssize_t bad = -1;
    const char *error = NULL;
    if (in.ndim != 2 || in.itemsize != 1 || depth < 0 || depth + in.shape[1] < 5 || depth + in.shape[1] > 7 ||
        in.shape[1] < 1)
        error = "hands must be a C-contiguous (N, k) uint8 array with depth + k in 5..7";
    else if (out.ndim != 1 || out.itemsize != 2 || out.shape[0] != in.shape[0])
        error = "out must be a C-contiguous uint16 array of one entry per hand";
    else if (start < 0 || (size_t)start >= self->dag[depth + in.shape[1] - 5].entries[depth] / 52)
        error = "start is not a node of that depth"; /* its row would lie outside the layer */
    if (error != NULL) {
        PyBuffer_Release(&in);
        PyBuffer_Release(&out);
        PyErr_SetString(PyExc_ValueError, error);
        return NULL;
    }
    Py_ssize_t rows = in.shape[0];
    int k = (int)in.shape[1];
    const struct dag *d = &self->dag[depth + k - 5];
    const unsigned char *h = (const unsigned char *)in.buf;
    uint16_t *values = (uint16_t *)out.buf;
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
    for (Py_ssize_t r0 = 0; r0 < rows; r0 += WALK_BLOCK) {
        int m = rows - r0 < WALK_BLOCK ? (int)(rows - r0) : WALK_BLOCK;
        Py_ssize_t b = start_rows(h + r0 * k, block, m, k, check, forbidden, (uint32_t)start * 52, at);
        if (b >= 0) {
            bad = r0 + b;
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
    PyBuffer_Release(&in);
    PyBuffer_Release(&out);
    return PyLong_FromSsize_t(bad);
}

/* small_rows(hands, out): like walk_rows, but through the small tables of
 * the single-hand path, with no checks (rows must be distinct cards of the
 * walker's deck).
 * It exists so the tests can hold those tables against the DAG on every hand. */
static PyObject *Walker_small_rows(Walker *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "small_rows(hands, out)");
        return NULL;
    }
    if (self->flush == NULL && build_small_tables(self) < 0)
        return PyErr_NoMemory();
    Py_buffer in, out;
    if (PyObject_GetBuffer(args[0], &in, PyBUF_C_CONTIGUOUS | PyBUF_ND) < 0)
        return NULL;
    if (PyObject_GetBuffer(args[1], &out, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE | PyBUF_ND) < 0) {
        PyBuffer_Release(&in);
        return NULL;
    }
    int ok = in.ndim == 2 && in.itemsize == 1 && in.shape[1] >= 5 && in.shape[1] <= 7 && out.ndim == 1 &&
             out.itemsize == 2 && out.shape[0] == in.shape[0];
    if (ok) {
        const unsigned char *h = in.buf;
        int k = (int)in.shape[1];
        uint16_t *values = out.buf;
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t r = 0; r < in.shape[0] && ok; r++) {
            /* A card over 51 would count past the ranks. Each row is read
             * once, into a copy, since the array may change meanwhile;
             * the caller guarantees the rest. */
            unsigned char cards[MAX_DEPTH];
            memcpy(cards, h + r * k, (size_t)k);
            for (int j = 0; j < k; j++)
                ok &= cards[j] <= 51;
            if (ok)
                values[r] = (uint16_t)small_value(self, cards, k);
        }
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&in);
    PyBuffer_Release(&out);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "small_rows takes (N, 5..7) uint8 rows of cards 0..51 and a uint16 out");
        return NULL;
    }
    return PyBool_FromLong(self->small_ok);
}

/* C(n, k) for n <= 52, k <= 7: ranks of hands in lexicographic order. */
static uint64_t binom(int n, int k) {
    if (k < 0 || n < k)
        return 0;
    uint64_t r = 1;
    for (int i = 1; i <= k; i++)
        r = r * (uint64_t)(n - k + i) / (uint64_t)i; /* exact: a product of i consecutive ints */
    return r;
}

/* Every t-card draw from `free` (sorted, distinct) added to `node` at
 * `depth` of dag7, in lexicographic order; a shared prefix is walked once.
 * A draw holding a card of `held` (for one combo among many, its cards) is
 * not a board that combo can see: it gets 0, and its whole subtree is
 * skipped. */
static void draw_walk(const struct dag *d, int depth, uint32_t node, const unsigned char *free, int m, int t, int from,
                      uint64_t held, uint16_t **out) {
    const unsigned char *layer = d->layer[depth];
    int width = d->width[depth];
    size_t row = (size_t)node * 52;
    if (t == 1) {
        uint16_t *o = *out;
        for (int i = from; i < m; i++)
            *o++ = held >> free[i] & 1 ? 0 : (uint16_t)get(layer, width, row + free[i]);
        *out = o;
        return;
    }
    for (int i = from; i <= m - t; i++) {
        if (held >> free[i] & 1) {
            size_t skip = (size_t)binom(m - i - 1, t - 1);
            memset(*out, 0, skip * sizeof **out);
            *out += skip;
        } else {
            draw_walk(d, depth + 1, get(layer, width, row + free[i]), free, m, t - 1, i + 1, held, out);
        }
    }
}

/* draw_values(node, depth, free, out): the values of every (7 - depth)-card
 * draw from the sorted cards `free` (uint8) added to dag7 node `node` at
 * `depth`, into `out` (uint16, one per draw, lexicographic order). */
static PyObject *Walker_draw_values(Walker *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "draw_values(node, depth, free, out)");
        return NULL;
    }
    long node = PyLong_AsLong(args[0]), depth = PyLong_AsLong(args[1]);
    if (PyErr_Occurred())
        return NULL;
    Py_buffer fr, out;
    if (PyObject_GetBuffer(args[2], &fr, PyBUF_C_CONTIGUOUS | PyBUF_ND) < 0)
        return NULL;
    if (PyObject_GetBuffer(args[3], &out, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE | PyBUF_ND) < 0) {
        PyBuffer_Release(&fr);
        return NULL;
    }
    const struct dag *d = &self->dag[2];
    int m = (int)fr.len, t = 7 - (int)depth;
    /* The cards are checked and walked from this copy, which cannot change
     * while the GIL is released (the caller's array can). */
    unsigned char free[52];
    memcpy(free, fr.buf, (size_t)(m < 52 ? m : 52));
    const char *error = NULL;
    if (fr.itemsize != 1 || out.itemsize != 2 || depth < 0 || t < 1 || m > 52 || m < t)
        error = "draw_values takes a node, a depth of 0..6, uint8 free cards (at least 7 - depth) and uint16 out";
    else if (node < 0 || (size_t)node >= d->entries[depth] / 52)
        error = "node is not a node of that depth";
    if (error == NULL) {
        for (int i = 0; i < m && error == NULL; i++)
            if (free[i] > 51 || (i && free[i] <= free[i - 1]) || !(self->deck >> free[i] & 1))
                error = "free cards must be sorted, distinct and in the deck";
    }
    if (error == NULL) {
        /* C(m, t) draws, which must be exactly out's length. */
        double draws = 1;
        for (int i = 0; i < t; i++)
            draws = draws * (m - i) / (i + 1);
        if ((double)(out.len / 2) != draws)
            error = "out must hold one entry per draw";
    }
    if (error != NULL) {
        PyBuffer_Release(&fr);
        PyBuffer_Release(&out);
        PyErr_SetString(PyExc_ValueError, error);
        return NULL;
    }
    uint16_t *o = out.buf;
    Py_BEGIN_ALLOW_THREADS
    draw_walk(d, (int)depth, (uint32_t)node, free, m, t, 0, 0, &o);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&fr);
    PyBuffer_Release(&out);
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------ ordered hands */

/* Rows of N cards: the sorted lead cards, then each card of the tail. On a
 * little-endian host all but the last row go as one 8-byte store of a word
 * built in a register (a byte written into a buffer and read back as a word
 * would stall store forwarding), whose spare bytes the next row overwrites;
 * the last row, and every row elsewhere, is copied exactly. */
#define ROWS(N)                                                          \
    do {                                                                 \
        unsigned char row8[8] = {0};                                     \
        memcpy(row8, lead, (N) - 1);                                     \
        Py_ssize_t i = 0;                                                \
        if (little_endian()) {                                           \
            uint64_t word;                                               \
            memcpy(&word, row8, 8);                                      \
            for (; i + 1 < run; i++) {                                   \
                uint64_t w = word | (uint64_t)tail[i] << (8 * ((N) - 1)); \
                memcpy(o + (N) * i, &w, 8);                              \
            }                                                            \
        }                                                                \
        for (; i < run; i++) {                                           \
            memcpy(o + (N) * i, lead, (N) - 1);                          \
            o[(N) * i + (N) - 1] = tail[i];                              \
        }                                                                \
    } while (0)

static int little_endian(void) {
    const uint16_t probe = 1;
    unsigned char first;
    memcpy(&first, &probe, 1);
    return first == 1;
}

/* fill_ordered(n, node, free, include, r0, cards, values): rows r0 .. r0 + R
 * of the lexicographic enumeration of every n-card hand made of the sorted
 * `include` cards (walked already: `node` is the n-card DAG's node after them)
 * and n - len(include) of the sorted `free` cards, as sorted card rows into
 * `cards` (R, n) and their values into `values` (R,). Each prefix is walked
 * once; the last card reads one row of the last layer in order. */
static PyObject *Walker_fill_ordered(Walker *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "fill_ordered(n, node, free, include, r0, cards, values)");
        return NULL;
    }
    long n = PyLong_AsLong(args[0]), node0 = PyLong_AsLong(args[1]);
    long long r0 = PyLong_AsLongLong(args[4]);
    if (PyErr_Occurred())
        return NULL;
    Py_buffer fr, inc, cb, vb;
    if (PyObject_GetBuffer(args[2], &fr, PyBUF_C_CONTIGUOUS | PyBUF_ND) < 0)
        return NULL;
    if (PyObject_GetBuffer(args[3], &inc, PyBUF_C_CONTIGUOUS | PyBUF_ND) < 0) {
        PyBuffer_Release(&fr);
        return NULL;
    }
    if (PyObject_GetBuffer(args[5], &cb, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE | PyBUF_ND) < 0) {
        PyBuffer_Release(&fr);
        PyBuffer_Release(&inc);
        return NULL;
    }
    if (PyObject_GetBuffer(args[6], &vb, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE | PyBUF_ND) < 0) {
        PyBuffer_Release(&fr);
        PyBuffer_Release(&inc);
        PyBuffer_Release(&cb);
        return NULL;
    }
    int m = (int)fr.len, h = (int)inc.len, k = (int)n - h;
    /* The cards are checked and walked from copies, which cannot change
     * while the GIL is released (the caller's arrays can). */
    unsigned char free[52], held[MAX_DEPTH];
    memcpy(free, fr.buf, (size_t)(m < 52 ? m : 52));
    memcpy(held, inc.buf, (size_t)(h < MAX_DEPTH ? h : MAX_DEPTH));
    Py_ssize_t rows = vb.len / 2;
    const char *error = NULL;
    if (n < 5 || n > 7 || fr.itemsize != 1 || inc.itemsize != 1 || k < 1 || m > 52 || m < k)
        error = "fill_ordered takes n = 5..7, uint8 free cards (at least n - len(include)) and include cards";
    else if (cb.itemsize != 1 || vb.itemsize != 2 || cb.len != rows * n)
        error = "cards must be (R, n) uint8 and values (R,) uint16";
    else if (node0 < 0 || (size_t)node0 >= self->dag[n - 5].entries[h] / 52)
        error = "node is not a node of that depth";
    else if (r0 < 0 || (uint64_t)r0 + (uint64_t)rows > binom(m, k))
        error = "rows beyond the last hand";
    for (int i = 0; i < m && error == NULL; i++)
        if (free[i] > 51 || (i && free[i] <= free[i - 1]) || !(self->deck >> free[i] & 1))
            error = "free cards must be sorted, distinct and in the deck";
    for (int i = 0; i < h && error == NULL; i++)
        if (held[i] > 51 || (i && held[i] <= held[i - 1]) || !(self->deck >> held[i] & 1))
            error = "include cards must be sorted, distinct and in the deck";
    if (error != NULL) {
        PyBuffer_Release(&fr);
        PyBuffer_Release(&inc);
        PyBuffer_Release(&cb);
        PyBuffer_Release(&vb);
        PyErr_SetString(PyExc_ValueError, error);
        return NULL;
    }
    const struct dag *d = &self->dag[n - 5];
    unsigned char *out = cb.buf;
    uint16_t *values = vb.buf;
    Py_BEGIN_ALLOW_THREADS
    /* idx: positions in free of the hand's free cards; hand r0 by unranking. */
    int idx[MAX_DEPTH];
    uint64_t r = (uint64_t)r0;
    for (int j = 0, c = 0; j < k; j++, c++) {
        for (;; c++) {
            uint64_t below = binom(m - c - 1, k - j - 1); /* hands whose j-th free card is free[c] */
            if (r < below)
                break;
            r -= below;
        }
        idx[j] = c;
    }
    /* path[j]: the node after the include cards and the first j free cards. */
    uint32_t path[MAX_DEPTH + 1];
    path[0] = (uint32_t)node0;
    for (int j = 0; j + 1 < k; j++)
        path[j + 1] = get(d->layer[h + j], d->width[h + j], (size_t)path[j] * 52 + free[idx[j]]);
    const unsigned char *last = d->layer[n - 1];
    int width = d->width[n - 1];
    unsigned char lead[MAX_DEPTH]; /* the hand's cards but the last free one, sorted */
    int moved = 0;                 /* the first free card that changed since lead was made */
    Py_ssize_t row = 0;
    for (;;) {
        if (h == 0) {
            /* Only the free cards from the one that moved on have changed. */
            for (int t = moved; t < k - 1; t++)
                lead[t] = free[idx[t]];
        } else {
            /* Merge the first k - 1 free cards with the include cards. */
            int a = 0, b = 0, t = 0;
            while (a < k - 1 || b < h)
                lead[t++] = b >= h || (a < k - 1 && free[idx[a]] < held[b]) ? free[idx[a++]] : held[b++];
        }
        size_t base = (size_t)path[k - 1] * 52;
        /* Include cards above free[idx[k-1]] follow it in the row; without
         * them the row is lead then the card, the common case, kept tight. */
        if (h == 0 || held[h - 1] < free[idx[k - 1]]) {
            Py_ssize_t run = m - idx[k - 1];
            if (run > rows - row)
                run = rows - row;
            const unsigned char *tail = free + idx[k - 1];
            unsigned char *o = out + row * n;
            uint16_t *vo = values + row;
            /* Constant row widths and entry widths let the compiler turn
             * each copy into a couple of stores. */
            switch (n) {
            case 5:
                ROWS(5);
                break;
            case 6:
                ROWS(6);
                break;
            default:
                ROWS(7);
                break;
            }
            switch (d->value != NULL ? 0 : width) {
            case 0: /* a node of another game's dag7, then its value */
                for (Py_ssize_t i = 0; i < run; i++)
                    vo[i] = (uint16_t)get(d->value, d->value_width, get(last, width, base + tail[i]));
                break;
            case 1:
                for (Py_ssize_t i = 0; i < run; i++)
                    vo[i] = last[base + tail[i]];
                break;
            case 2:
                for (Py_ssize_t i = 0; i < run; i++)
                    vo[i] = (uint16_t)get(last, 2, base + tail[i]);
                break;
            default:
                for (Py_ssize_t i = 0; i < run; i++)
                    vo[i] = (uint16_t)get(last, 4, base + tail[i]);
                break;
            }
            row += run;
        } else {
            for (int c = idx[k - 1]; c < m && row < rows; c++, row++) {
                unsigned char *o = out + row * n, card = free[c];
                int i = 0, placed = 0;
                for (int s = 0; s < n - 1; s++) {
                    if (!placed && card < lead[s]) {
                        o[i++] = card;
                        placed = 1;
                    }
                    o[i++] = lead[s];
                }
                if (!placed)
                    o[i] = card;
                values[row] = (uint16_t)finish(d, get(last, width, base + card));
            }
        }
        if (row >= rows)
            break;
        /* The next prefix: the rightmost earlier free card that can move up. */
        int j = k - 2;
        while (j >= 0 && idx[j] == m - k + j)
            j--;
        if (j < 0)
            break; /* the last hand: cannot happen before rows are filled */
        idx[j]++;
        moved = j;
        for (int i = j + 1; i < k; i++)
            idx[i] = idx[i - 1] + 1;
        for (int i = j; i + 1 < k; i++)
            path[i + 1] = get(d->layer[h + i], d->width[h + i], (size_t)path[i] * 52 + free[idx[i]]);
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&fr);
    PyBuffer_Release(&inc);
    PyBuffer_Release(&cb);
    PyBuffer_Release(&vb);
    Py_RETURN_NONE;
}

/* histogram(n, out) -> bool: the number of n-card hands (full deck) with each
 * value, added into `out` (int64, 7463 entries), by counting instead of
 * listing: a hand is a rank multiset and a way to give its cards suits, and
 * its value is the multiset's, unless one suit holds five or more of its
 * cards, when it is that suit's flush. Both values come from the small
 * tables, so this needs them to stand for the DAG: False (out untouched)
 * when they do not, and the caller walks the DAG instead. */
static PyObject *Walker_histogram(Walker *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "histogram(n, out)");
        return NULL;
    }
    long n = PyLong_AsLong(args[0]);
    if (PyErr_Occurred())
        return NULL;
    if (self->deck != ALL_CARDS)
        Py_RETURN_FALSE; /* the counting goes over all 52 cards */
    if (self->flush == NULL && build_small_tables(self) < 0)
        return PyErr_NoMemory();
    Py_buffer ob;
    if (PyObject_GetBuffer(args[1], &ob, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE | PyBUF_FORMAT) < 0)
        return NULL;
    /* int64 is "l" on LP64 platforms and "q" elsewhere, perhaps after a byte-order mark. */
    const char *f = ob.format == NULL ? "" : ob.format + (strchr("<=@", ob.format[0]) && ob.format[0] ? 1 : 0);
    if (n < 5 || n > 7 || ob.itemsize != 8 || ob.len != 7463 * 8 || (strcmp(f, "q") != 0 && strcmp(f, "l") != 0)) {
        PyBuffer_Release(&ob);
        PyErr_SetString(PyExc_ValueError, "histogram takes n = 5..7 and an int64 array of 7463 entries");
        return NULL;
    }
    if (!self->small_ok) {
        PyBuffer_Release(&ob);
        Py_RETURN_FALSE;
    }
    int64_t *hist = ob.buf;
    const uint16_t *by_ranks = self->by_ranks[n - 5];
    static const int64_t c4[5] = {1, 4, 6, 4, 1}, c3[5] = {1, 3, 3, 1, 0}; /* C(4, j), C(3, j) */
    Py_BEGIN_ALLOW_THREADS
    int r[7];
    first_multiset(r, (int)n);
    do {
        int counts[13] = {0}, support[7], s = 0;
        for (int i = 0; i < (int)n; i++)
            if (counts[r[i]]++ == 0)
                support[s++] = r[i];
        int64_t ways = 1;
        for (int i = 0; i < s; i++)
            ways *= c4[counts[support[i]]];
        /* Flushes: one suit holds exactly the ranks `pick` (five or more,
         * one card each) and the other three suits the rest; two suits
         * cannot both hold five of at most seven cards. */
        for (unsigned pick = 0; pick < (1u << s); pick++) {
            int bits = 0;
            unsigned mask = 0;
            int64_t w = 4;
            for (int i = 0; i < s; i++) {
                int in = pick >> i & 1;
                bits += in;
                mask |= (unsigned)in << support[i];
                w *= c3[counts[support[i]] - in];
            }
            if (bits >= 5 && w) {
                hist[self->flush[mask]] += w;
                ways -= w;
            }
        }
        hist[by_ranks[multiset_index(r, (int)n)]] += ways;
    } while (next_multiset(r, (int)n));
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&ob);
    Py_RETURN_TRUE;
}

/* score(values) -> list of (wins, ties, units): for a C-contiguous uint16
 * array (players, boards) of each player's value on each board, the boards
 * each player wins alone, the boards they share, and their pot shares in
 * units of 1/2520 of a pot (2520 = lcm(1..9), so a k-way split is exact). */
static PyObject *Walker_score(Walker *self, PyObject *arg) {
    (void)self; /* a method, so that it goes with the backend a table set chose */
    Py_buffer vb;
    if (PyObject_GetBuffer(arg, &vb, PyBUF_C_CONTIGUOUS | PyBUF_ND) < 0)
        return NULL;
    if (vb.ndim != 2 || vb.itemsize != 2 || vb.shape[0] < 1 || vb.shape[0] > 9) {
        PyBuffer_Release(&vb);
        PyErr_SetString(PyExc_ValueError, "score takes a (players, boards) uint16 array of 1 to 9 players");
        return NULL;
    }
    int p = (int)vb.shape[0];
    Py_ssize_t boards = vb.shape[1];
    const uint16_t *v = vb.buf;
    uint64_t wins[9] = {0}, ties[9] = {0}, units[9] = {0};
    Py_BEGIN_ALLOW_THREADS
    /* Boards go in blocks, each pass a simple loop over one player's row
     * that the compiler vectorises: the best value, how many reach it, then
     * each player's share. */
    enum { SCORE_BLOCK = 2048 };
    static const uint32_t share[10] = {0, 2520, 1260, 840, 630, 504, 420, 360, 315, 280};
    uint16_t best[SCORE_BLOCK];
    uint8_t count[SCORE_BLOCK];
    uint32_t pays[SCORE_BLOCK]; /* the share of a pot each of a board's winners takes */
    if (p == 2) {
        /* Heads-up needs no winner count: one compare per board. */
        const uint16_t *a = v, *c = v + boards;
        uint64_t above = 0, below = 0;
        for (Py_ssize_t b = 0; b < boards; b++) {
            above += a[b] > c[b];
            below += a[b] < c[b];
        }
        uint64_t split = (uint64_t)boards - above - below;
        wins[0] = above;
        wins[1] = below;
        ties[0] = ties[1] = split;
        units[0] = 2520 * above + 1260 * split;
        units[1] = 2520 * below + 1260 * split;
    }
    for (Py_ssize_t b0 = 0; p != 2 && b0 < boards; b0 += SCORE_BLOCK) {
        int m = boards - b0 < SCORE_BLOCK ? (int)(boards - b0) : SCORE_BLOCK;
        const uint16_t *row = v + b0;
        for (int j = 0; j < m; j++)
            best[j] = row[j];
        for (int i = 1; i < p; i++) {
            row = v + i * boards + b0;
            for (int j = 0; j < m; j++)
                best[j] = row[j] > best[j] ? row[j] : best[j];
        }
        for (int j = 0; j < m; j++)
            count[j] = 0;
        for (int i = 0; i < p; i++) {
            row = v + i * boards + b0;
            for (int j = 0; j < m; j++)
                count[j] += row[j] == best[j];
        }
        for (int j = 0; j < m; j++)
            pays[j] = share[count[j]];
        for (int i = 0; i < p; i++) {
            row = v + i * boards + b0;
            uint32_t w = 0, t = 0, u = 0; /* at most 2048 boards x 2520: no overflow */
            for (int j = 0; j < m; j++) {
                uint32_t top = row[j] == best[j];
                w += top & (count[j] == 1);
                t += top & (count[j] > 1);
                u += top * pays[j];
            }
            wins[i] += w;
            ties[i] += t;
            units[i] += u;
        }
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&vb);
    PyObject *result = PyList_New(p);
    if (result == NULL)
        return NULL;
    for (int i = 0; i < p; i++) {
        PyObject *t = Py_BuildValue("(KKK)", (unsigned long long)wins[i], (unsigned long long)ties[i],
                                    (unsigned long long)units[i]);
        if (t == NULL) {
            Py_DECREF(result);
            return NULL;
        }
        PyList_SET_ITEM(result, i, t);
    }
    return result;
}

/* ------------------------------------------------------------ range equity */

/* The buffers of args[which[0..n-1]], C-contiguous, those from `writable`
 * on writable: how many were got (n, or fewer with an exception set). */
static int get_buffers(PyObject *const *args, const int *which, int n, int writable, Py_buffer *b) {
    int got = 0;
    for (; got < n; got++) {
        int flags = PyBUF_C_CONTIGUOUS | PyBUF_ND | (got >= writable ? PyBUF_WRITABLE : 0);
        if (PyObject_GetBuffer(args[which[got]], &b[got], flags) < 0)
            break;
    }
    return got;
}

/* Release the buffers get_buffers got; None, or NULL with its exception or
 * a ValueError saying `error`. */
static PyObject *release_buffers(Py_buffer *b, int got, int n, const char *error) {
    for (int i = 0; i < got; i++)
        PyBuffer_Release(&b[i]);
    if (got < n)
        return NULL;
    if (error != NULL) {
        PyErr_SetString(PyExc_ValueError, error);
        return NULL;
    }
    Py_RETURN_NONE;
}

/* range_values(starts, held, depth, prefix, free, out): for each combo d, the
 * value of every board made of the cards `prefix` and a (7 - depth - p)-card
 * draw from the sorted cards `free` (lexicographic order), added to dag7 node
 * starts[d] (uint32) at `depth`, into row d of `out` (uint16, combos x
 * draws); 0 where the board holds a card of held[d] (uint64 masks). */
static PyObject *Walker_range_values(Walker *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "range_values(starts, held, depth, prefix, free, out)");
        return NULL;
    }
    long depth = PyLong_AsLong(args[2]);
    if (PyErr_Occurred())
        return NULL;
    Py_buffer b[5];
    const int order[5] = {0, 1, 3, 4, 5};
    int got = get_buffers(args, order, 5, 4, b);
    const char *error = NULL;
    const struct dag *d = &self->dag[2];
    Py_ssize_t n = 0, draws = 0;
    int p = 0, m = 0, t = 0;
    if (got == 5) {
        n = b[0].len / 4;
        p = (int)b[2].len;
        m = (int)b[3].len;
        t = 7 - (int)depth - p;
        draws = (Py_ssize_t)binom(m, t);
        if (b[0].itemsize != 4 || b[1].itemsize != 8 || b[2].itemsize != 1 || b[3].itemsize != 1 ||
            b[4].itemsize != 2 || b[1].len != n * 8 || depth < 0 || p < 0 || t < 1 || m > 52 || m < t)
            error = "range_values takes uint32 starts, uint64 held, a depth, uint8 prefix and free cards "
                    "(at least 7 - depth - len(prefix)) and uint16 out";
        else if (b[4].len != n * draws * 2)
            error = "out must hold one row per combo and one entry per draw";
    }
    /* The cards are checked and walked from copies, which cannot change
     * while the GIL is released (the caller's arrays can). */
    unsigned char pre[MAX_DEPTH], free[52];
    if (got == 5 && error == NULL) {
        memcpy(pre, b[2].buf, (size_t)p);
        memcpy(free, b[3].buf, (size_t)m);
    }
    uint64_t seen = 0;
    for (int i = 0; got == 5 && error == NULL && i < p + m; i++) {
        int c = i < p ? pre[i] : free[i - p];
        if (c > 51 || (seen >> c & 1) || !(self->deck >> c & 1) || (i > p && c <= free[i - p - 1]))
            error = "prefix and free cards must be distinct cards of the deck, free cards sorted";
        else
            seen |= (uint64_t)1 << c;
    }
    const uint32_t *starts = got == 5 ? b[0].buf : NULL;
    const size_t nodes = got == 5 && error == NULL ? d->entries[depth] / 52 : 0;
    for (Py_ssize_t i = 0; got == 5 && error == NULL && i < n; i++)
        if ((size_t)starts[i] >= nodes)
            error = "a start is not a node of that depth";
    if (got == 5 && error == NULL) {
        const uint64_t *held = b[1].buf;
        uint64_t on_prefix = 0;
        for (int i = 0; i < p; i++)
            on_prefix |= (uint64_t)1 << pre[i];
        uint16_t *o = b[4].buf;
        int changed = 0;
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t i = 0; i < n; i++) {
            /* Read once each, and the start checked again as it is read:
             * the caller's arrays may have changed since the check above. */
            uint32_t node = starts[i];
            uint64_t mask = held[i];
            if ((size_t)node >= nodes) {
                changed = 1;
                break;
            }
            if (mask & on_prefix) {
                memset(o, 0, (size_t)draws * sizeof *o);
                o += draws;
                continue;
            }
            for (int j = 0; j < p; j++)
                node = get(d->layer[depth + j], d->width[depth + j], (size_t)node * 52 + pre[j]);
            draw_walk(d, (int)depth + p, node, free, m, t, 0, mask, &o);
        }
        Py_END_ALLOW_THREADS
        if (changed)
            error = "a start is not a node of that depth";
    }
    return release_buffers(b, got, 5, error);
}

/* score_tuples(values, tuples, counts, games): for each deal (row of `tuples`,
 * int32, one row of `values` per player) add, over the boards where every
 * player's value is live (not 0), each player's wins alone, ties and pot
 * shares in units of 1/2520 to counts[deal][player][0..2] (int64), and the
 * number of such boards to games[deal] (int64). `values` is uint16 (rows,
 * boards). */
static PyObject *Walker_score_tuples(Walker *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "score_tuples(values, tuples, counts, games)");
        return NULL;
    }
    Py_buffer b[4];
    const int order[4] = {0, 1, 2, 3};
    int got = get_buffers(args, order, 4, 2, b);
    const char *error = NULL;
    Py_ssize_t rows = 0, boards = 0, deals = 0;
    int players = 0;
    if (got == 4) {
        if (b[0].ndim != 2 || b[0].itemsize != 2 || b[1].ndim != 2 || b[1].itemsize != 4 || b[2].itemsize != 8 ||
            b[3].itemsize != 8)
            error = "score_tuples takes uint16 (rows, boards) values, int32 (deals, players) tuples, "
                    "int64 counts and games";
        else {
            rows = b[0].shape[0];
            boards = b[0].shape[1];
            deals = b[1].shape[0];
            players = (int)b[1].shape[1];
            if (players < 2 || players > 9 || boards > INT32_MAX)
                error = "score_tuples takes 2 to 9 players and fewer than 2**31 boards";
            else if (b[2].len != deals * players * 3 * 8 || b[3].len != deals * 8)
                error = "counts must be (deals, players, 3) and games (deals,)";
        }
    }
    const int32_t *tu = got == 4 ? b[1].buf : NULL;
    for (Py_ssize_t i = 0; got == 4 && error == NULL && i < deals * players; i++)
        if (tu[i] < 0 || tu[i] >= rows)
            error = "a tuple names a row values does not have";
    if (got == 4 && error == NULL) {
        const uint16_t *v = b[0].buf;
        int64_t *counts = b[2].buf, *games = b[3].buf;
        static const uint32_t share[10] = {0, 2520, 1260, 840, 630, 504, 420, 360, 315, 280};
        int changed = 0;
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t k = 0; k < deals; k++) {
            /* The deal's rows, read once and checked again as they are
             * read: the caller's array may have changed since the check
             * above, and a row outside values would be read past its end. */
            int32_t deal[9];
            for (int q = 0; q < players; q++) {
                deal[q] = tu[k * players + q];
                changed |= deal[q] < 0 || deal[q] >= rows;
            }
            if (changed)
                break;
            int64_t *c = counts + k * players * 3;
            if (players == 2) {
                /* One branch-free pass the compiler vectorises. */
                const uint16_t *a = v + (size_t)deal[0] * (size_t)boards, *e = v + (size_t)deal[1] * (size_t)boards;
                uint32_t above = 0, below = 0, live = 0;
                for (Py_ssize_t j = 0; j < boards; j++) {
                    uint32_t x = a[j], y = e[j], ok = (x != 0) & (y != 0);
                    above += ok & (x > y);
                    below += ok & (x < y);
                    live += ok;
                }
                uint32_t split = live - above - below;
                c[0] += above;
                c[1] += split;
                c[2] += 2520 * (int64_t)above + 1260 * (int64_t)split;
                c[3] += below;
                c[4] += split;
                c[5] += 2520 * (int64_t)below + 1260 * (int64_t)split;
                games[k] += live;
                continue;
            }
            const uint16_t *row[9];
            for (int q = 0; q < players; q++)
                row[q] = v + (size_t)deal[q] * (size_t)boards;
            int64_t live = 0;
            for (Py_ssize_t j = 0; j < boards; j++) {
                uint32_t best = 0, ok = 1;
                for (int q = 0; q < players; q++) {
                    uint32_t x = row[q][j];
                    ok &= x != 0;
                    best = x > best ? x : best;
                }
                if (!ok)
                    continue;
                int top = 0;
                for (int q = 0; q < players; q++)
                    top += row[q][j] == best;
                for (int q = 0; q < players; q++)
                    if (row[q][j] == best) {
                        c[3 * q + (top > 1)] += 1;
                        c[3 * q + 2] += share[top];
                    }
                live++;
            }
            games[k] += live;
        }
        Py_END_ALLOW_THREADS
        if (changed)
            error = "a tuple names a row values does not have";
    }
    return release_buffers(b, got, 4, error);
}

/* rank_combos(node, depth, held, out): the value of each of the 1,326 two-card
 * combos (c1 < c2, c1 ascending, then c2) added to node `node` at `depth`
 * of the (depth + 2)-card DAG, into `out` (uint16); 0 for a combo holding a
 * card of the mask `held` (the cards already walked) or outside the deck.
 * One lookup for each first card, one for each combo. */
static PyObject *Walker_rank_combos(Walker *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "rank_combos(node, depth, held, out)");
        return NULL;
    }
    long node = PyLong_AsLong(args[0]), depth = PyLong_AsLong(args[1]);
    uint64_t held = PyLong_AsUnsignedLongLongMask(args[2]);
    if (PyErr_Occurred())
        return NULL;
    Py_buffer ob;
    if (PyObject_GetBuffer(args[3], &ob, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE | PyBUF_ND) < 0)
        return NULL;
    const char *error = NULL;
    if (depth < 3 || depth > 5 || ob.itemsize != 2 || ob.len != 1326 * 2)
        error = "rank_combos takes a depth of 3..5 and a uint16 out of 1326 entries";
    else if (node < 0 || (size_t)node >= self->dag[depth - 3].entries[depth] / 52)
        error = "node is not a node of that depth";
    if (error != NULL) {
        PyBuffer_Release(&ob);
        PyErr_SetString(PyExc_ValueError, error);
        return NULL;
    }
    const struct dag *d = &self->dag[depth - 3]; /* the (depth + 2)-card DAG */
    const unsigned char *first = d->layer[depth], *last = d->layer[depth + 1];
    int w1 = d->width[depth], w2 = d->width[depth + 1];
    uint16_t *out = ob.buf;
    held |= ALL_CARDS & ~self->deck;
    Py_BEGIN_ALLOW_THREADS
    int i = 0;
    /* Two loops, so that hold'em's stays free of the value lookup's test. */
    if (d->value == NULL) {
        for (int c1 = 0; c1 < 52; c1++) {
            int dead1 = (int)(held >> c1 & 1);
            size_t row = (size_t)get(first, w1, (size_t)node * 52 + (size_t)c1) * 52;
            for (int c2 = c1 + 1; c2 < 52; c2++, i++)
                out[i] = dead1 || (held >> c2 & 1) ? 0 : (uint16_t)get(last, w2, row + (size_t)c2);
        }
    } else {
        for (int c1 = 0; c1 < 52; c1++) {
            int dead1 = (int)(held >> c1 & 1);
            size_t row = (size_t)get(first, w1, (size_t)node * 52 + (size_t)c1) * 52;
            for (int c2 = c1 + 1; c2 < 52; c2++, i++)
                out[i] = dead1 || (held >> c2 & 1) ? 0 : (uint16_t)finish(d, get(last, w2, row + (size_t)c2));
        }
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&ob);
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------------ Omaha */

/* The best Hold'em value of two of the nh hole cards and three of the nb
 * board cards (all checked), down dag5: each board triple walked once, each
 * (triple, hole card) once more, each pair one last lookup. */
static uint32_t omaha_best(const Walker *self, const unsigned char *h, int nh, const unsigned char *b, int nb) {
    const struct dag *d = &self->dag[0];
    uint32_t best = 0;
    for (int i = 0; i < nb - 2; i++) {
        size_t n1 = (size_t)get(d->layer[0], d->width[0], b[i]) * 52;
        for (int j = i + 1; j < nb - 1; j++) {
            size_t n2 = (size_t)get(d->layer[1], d->width[1], n1 + b[j]) * 52;
            for (int k = j + 1; k < nb; k++) {
                size_t n3 = (size_t)get(d->layer[2], d->width[2], n2 + b[k]) * 52;
                for (int x = 0; x < nh - 1; x++) {
                    size_t n4 = (size_t)get(d->layer[3], d->width[3], n3 + h[x]) * 52;
                    for (int y = x + 1; y < nh; y++) {
                        uint32_t v = get(d->layer[4], d->width[4], n4 + h[y]);
                        best = v > best ? v : best;
                    }
                }
            }
        }
    }
    return best;
}

/* The ace-to-five eight-or-better low: a card's bit among the eight low
 * ranks (ace 1, deuce 2, ..., eight 128; 0 for a nine or higher), and the
 * value of a union of five such bits. Lower cards make a better low, and
 * comparing the unions as numbers compares the highest card first, so the
 * n-th smallest five-bit union is worth N_LOWS - n (twoplustwo/omaha.py). */
#define N_LOWS 56
static unsigned char low_bit[52];
static unsigned char low_value[256];

static void fill_lows(void) {
    for (int c = 0; c < 52; c++) {
        int rank = c / 4;
        low_bit[c] = (unsigned char)(rank == 12 ? 1 : rank <= 6 ? 1 << (rank + 1) : 0);
    }
    int n = 0;
    for (int m = 0; m < 256; m++) {
        int bits = 0;
        for (int x = m; x; x &= x - 1)
            bits++;
        low_value[m] = (unsigned char)(bits == 5 ? N_LOWS - n++ : 0);
    }
}

/* The best low of two of the nh hole cards and three of the nb board cards
 * (all checked), or 0 for none. */
static uint32_t omaha_low(const unsigned char *h, int nh, const unsigned char *b, int nb) {
    uint32_t best = 0;
    for (int i = 0; i < nb - 2; i++)
        for (int j = i + 1; j < nb - 1; j++)
            for (int k = j + 1; k < nb; k++) {
                unsigned triple = low_bit[b[i]] | low_bit[b[j]] | low_bit[b[k]];
                for (int x = 0; x < nh - 1; x++)
                    for (int y = x + 1; y < nh; y++) {
                        uint32_t v = low_value[triple | low_bit[h[x]] | low_bit[h[y]]];
                        best = v > best ? v : best;
                    }
            }
    return best;
}

/* Cards of a list or tuple of plain ints 0..51 or an ASCII card string, not
 * yet held in *seen: how many (at most max), or -1 for anything else. */
static int omaha_cards(PyObject *obj, unsigned char *cards, int max, uint64_t *seen) {
    int n;
    if (PyUnicode_CheckExact(obj)) {
        unsigned char parsed[MAX_DEPTH];
        n = PyUnicode_IS_ASCII(obj) ? parse_text((const char *)PyUnicode_1BYTE_DATA(obj), PyUnicode_GET_LENGTH(obj),
                                                 parsed)
                                    : -1;
        if (n < 0 || n > max)
            return -1;
        memcpy(cards, parsed, (size_t)n);
    } else if (PyList_CheckExact(obj) || PyTuple_CheckExact(obj)) {
        Py_ssize_t len = PySequence_Fast_GET_SIZE(obj);
        if (len > max)
            return -1;
        PyObject **items = PySequence_Fast_ITEMS(obj);
        for (Py_ssize_t i = 0; i < len; i++) {
            if (!PyLong_CheckExact(items[i]))
                return -1;
            int overflow;
            long c = PyLong_AsLongAndOverflow(items[i], &overflow);
            if (overflow || c < 0 || c > 51)
                return -1;
            cards[i] = (unsigned char)c;
        }
        n = (int)len;
    } else {
        return -1;
    }
    for (int i = 0; i < n; i++) {
        uint64_t bit = (uint64_t)1 << cards[i];
        if (*seen & bit)
            return -1;
        *seen |= bit;
    }
    return n;
}

/* Omaha is hold'em's: its walks read dag5's last layer as values. */
static int holdem_only(const Walker *self, const char *what) {
    if (self->deck == ALL_CARDS && self->dag[0].value == NULL)
        return 0;
    PyErr_Format(PyExc_ValueError, "%s needs the hold'em walker", what);
    return -1;
}

/* omaha(hole, board) -> int | None: the value of one deal of 4-6 hole cards
 * and 3-5 board cards, all distinct; None for anything else (Python then
 * parses and explains). */
static PyObject *Walker_omaha(Walker *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "omaha(hole, board)");
        return NULL;
    }
    if (holdem_only(self, "omaha") < 0)
        return NULL;
    unsigned char h[6], b[5];
    uint64_t seen = 0;
    int nh = omaha_cards(args[0], h, 6, &seen);
    int nb = nh < 4 ? -1 : omaha_cards(args[1], b, 5, &seen);
    if (nb < 3)
        Py_RETURN_NONE;
    return PyLong_FromUnsignedLong(omaha_best(self, h, nh, b, nb));
}

/* The values of (N, 4..6) uint8 hole rows with (N, 3..5) uint8 boards, or
 * one (1, k) board for every row, into out (N entries of out_size bytes): the
 * best high through `walker`'s dag5 when it is given, else the best low. A
 * row with a card over 51 or a card twice stops the work and its index is
 * returned; else -1. The GIL is released while the rows are worked. */
static PyObject *omaha_rows(const Walker *walker, PyObject *const *args, Py_ssize_t nargs, const char *name,
                            int out_size) {
    if (nargs != 3)
        return PyErr_Format(PyExc_TypeError, "%s(holes, boards, out)", name);
    Py_buffer hb, bb, ob;
    if (PyObject_GetBuffer(args[0], &hb, PyBUF_C_CONTIGUOUS | PyBUF_ND) < 0)
        return NULL;
    if (PyObject_GetBuffer(args[1], &bb, PyBUF_C_CONTIGUOUS | PyBUF_ND) < 0) {
        PyBuffer_Release(&hb);
        return NULL;
    }
    if (PyObject_GetBuffer(args[2], &ob, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE | PyBUF_ND) < 0) {
        PyBuffer_Release(&hb);
        PyBuffer_Release(&bb);
        return NULL;
    }
    int ok = hb.ndim == 2 && bb.ndim == 2 && hb.itemsize == 1 && bb.itemsize == 1 && ob.itemsize == out_size &&
             hb.shape[1] >= 4 && hb.shape[1] <= 6 && bb.shape[1] >= 3 && bb.shape[1] <= 5 &&
             (bb.shape[0] == hb.shape[0] || bb.shape[0] == 1) && ob.len == hb.shape[0] * out_size;
    Py_ssize_t bad = -1;
    if (ok) {
        const unsigned char *holes = hb.buf, *boards = bb.buf;
        int nh = (int)hb.shape[1], nb = (int)bb.shape[1];
        Py_ssize_t step = bb.shape[0] == 1 ? 0 : nb;
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t r = 0; r < hb.shape[0]; r++) {
            /* The row is checked and walked from a copy: the caller's
             * arrays may change while the GIL is released, and a card read
             * twice could pass the check as one card and be walked as
             * another (even as a card over 51, reading past the tables). */
            unsigned char h[6], b[5];
            memcpy(h, holes + r * nh, (size_t)nh);
            memcpy(b, boards + r * step, (size_t)nb);
            uint64_t seen = 0;
            int good = 1;
            for (int i = 0; i < nh + nb; i++) {
                unsigned char c = i < nh ? h[i] : b[i - nh];
                uint64_t bit = (uint64_t)1 << (c & 63);
                good &= c <= 51 && !(seen & bit);
                seen |= bit;
            }
            if (!good) {
                bad = r;
                break;
            }
            if (walker != NULL)
                ((uint16_t *)ob.buf)[r] = (uint16_t)omaha_best(walker, h, nh, b, nb);
            else
                ((uint8_t *)ob.buf)[r] = (uint8_t)omaha_low(h, nh, b, nb);
        }
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&hb);
    PyBuffer_Release(&bb);
    PyBuffer_Release(&ob);
    if (!ok)
        return PyErr_Format(PyExc_ValueError,
                            "%s takes (N, 4..6) uint8 holes, (N or 1, 3..5) uint8 boards and a uint%d out of N", name,
                            8 * out_size);
    return PyLong_FromSsize_t(bad);
}

/* omaha_rows(holes, boards, out) -> int: Omaha high values (uint16) of uint8 rows; see omaha_rows above. */
static PyObject *Walker_omaha_rows(Walker *self, PyObject *const *args, Py_ssize_t nargs) {
    if (holdem_only(self, "omaha_rows") < 0)
        return NULL;
    return omaha_rows(self, args, nargs, "omaha_rows", 2);
}

/* omaha_low_rows(holes, boards, out) -> int: Omaha eight-or-better low
 * values (uint8, 0 for no low) of uint8 rows. A module function: lows need
 * no tables. */
static PyObject *core_omaha_low_rows(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    return omaha_rows(NULL, args, nargs, "omaha_low_rows", 1);
}

static PyMethodDef Walker_methods[] = {
    {"draw_values", (PyCFunction)(void (*)(void))Walker_draw_values, METH_FASTCALL,
     "draw_values(node, depth, free, out): values of every draw completing a dag7 walk"},
    {"small_rows", (PyCFunction)(void (*)(void))Walker_small_rows, METH_FASTCALL,
     "small_rows(hands, out) -> bool: values through the single-hand tables (for tests); "
     "whether the single-hand path uses them"},
    {"evaluate", (PyCFunction)(void (*)(void))Walker_evaluate, METH_FASTCALL,
     "evaluate(cards) -> int | None: value of 5-7 distinct ints of the deck in a list or tuple, else None"},
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
    {"histogram", (PyCFunction)(void (*)(void))Walker_histogram, METH_FASTCALL,
     "histogram(n, out) -> bool: add every n-card hand's count per value into out, or False"},
    {"walk_rows", (PyCFunction)(void (*)(void))Walker_walk_rows, METH_FASTCALL,
     "walk_rows(hands, out, check) -> int: walk uint8 rows into out; first bad row or -1"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject WalkerType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "twoplustwo.kernels._core.Walker",
    .tp_doc = "Walks hands down one table set's DAGs (C backend).",
    .tp_basicsize = sizeof(Walker),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = Walker_new,
    .tp_dealloc = (destructor)Walker_dealloc,
    .tp_methods = Walker_methods,
};

static PyMethodDef core_functions[] = {
    {"evaluate", (PyCFunction)(void (*)(void))core_evaluate, METH_FASTCALL | METH_KEYWORDS,
     "evaluate(cards, *, game=\"holdem\", tables=None) -> int: value of one hand of 5, 6 or 7 cards.\n\n"
     "See twoplustwo.evaluate for the arguments and errors; this is its C entry point."},
    {"set_default", core_set_default, METH_O, "set_default(walker): the default tables' walker, or None"},
    {"set_fallback", core_set_fallback, METH_O, "set_fallback(fn): the Python evaluate for everything else"},
    {"set_game", (PyCFunction)(void (*)(void))core_set_game, METH_FASTCALL,
     "set_game(name, walker): the default set's walker for evaluate(cards, game=name)"},
    {"omaha_low_rows", (PyCFunction)(void (*)(void))core_omaha_low_rows, METH_FASTCALL,
     "omaha_low_rows(holes, boards, out) -> int: Omaha low values of uint8 rows; the first bad row or -1"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "_core", "The C backend of twoplustwo's hot paths.", -1, core_functions, NULL, NULL, NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
    fill_choose();
    fill_lows();
    fill_card_bits();
    if (PyType_Ready(&WalkerType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&WalkerType);
    if (PyModule_AddObject(m, "Walker", (PyObject *)&WalkerType) < 0) {
        Py_DECREF(&WalkerType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
