/* The small tables derived from dag7 for single hands: the value of each
 * rank multiset and of each flush, a second way to the DAG's values that
 * fits in cache. Building them, checking that they stand for the DAG,
 * small_rows (for the tests) and histogram, which counts hands through them
 * instead of listing them. small_value, their one read, is in core.h: the
 * single-hand path inlines it. */

#include "core.h"

/* choose[n][k] for the colex rank of a multiset of up to 7 ranks 0..12:
 * sorted r1 <= ... <= rk maps to the set {r_i + i - 1}, subsets of 0..18. */
uint32_t choose[20][8];
/* Bounds on the rank multisets of 5, 6 and 7 cards, those of five or more of a
 * rank included: C(17,5), C(18,6), C(19,7). */
const uint32_t n_multisets[3] = {6188, 18564, 50388};

void fill_choose(void) {
    for (int n = 0; n < 20; n++) {
        choose[n][0] = 1;
        for (int k = 1; k < 8; k++)
            choose[n][k] = n == 0 ? 0 : choose[n - 1][k - 1] + choose[n - 1][k];
    }
}

/* The rank multisets of n cards (at most four of a rank) as non-decreasing
 * tuples r[0..n-1], in order: the first, then each next one; next_multiset
 * returns 0 after the last. */
void first_multiset(int *r, int n) {
    for (int i = 0; i < n; i++)
        r[i] = i / 4;
}

int next_multiset(int *r, int n) {
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
uint32_t multiset_index(const int *r, int n) {
    uint32_t index = 0;
    for (int i = 0; i < n; i++)
        index += choose[r[i] + i][i + 1];
    return index;
}

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

/* Every entry comes from the DAG itself, so the small tables can only ever
 * agree with it (and the tests compare them on every hand). */
int build_small_tables(Walker *self) {
    if (!self->small_allowed) { /* small_ok stays 0: every single hand and count goes down the DAG */
        self->small_ok = 0;
        return 0;
    }
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
    self->flush = PyMem_Calloc((1 << 13) + 1, sizeof(uint16_t)); /* one more: a vector gather reads 4 bytes */
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

/* small_rows(hands, out): like walk_rows, but through the small tables of
 * the single-hand path, with no checks (rows must be distinct cards of the
 * walker's deck).
 * It exists so the tests can hold those tables against the DAG on every hand. */
PyObject *Walker_small_rows(Walker *self, PyObject *const *args, Py_ssize_t nargs) {
    Buffers bufs;
    Py_buffer *in, *out;
    if (parse_args(args, nargs, "small_rows(hands, out)", &bufs, "rw", &in, &out) < 0)
        return NULL;
    if (self->flush == NULL && build_small_tables(self) < 0)
        return release_args(&bufs, NULL, PyErr_NoMemory());
    int ok = in->ndim == 2 && in->itemsize == 1 && in->shape[1] >= 5 && in->shape[1] <= 7 && out->ndim == 1 &&
             out->itemsize == 2 && out->shape[0] == in->shape[0] && (self->sizes >> in->shape[1] & 1);
    if (ok) {
        const unsigned char *h = in->buf;
        int k = (int)in->shape[1];
        Py_ssize_t rows = in->shape[0];
        uint16_t *values = out->buf;
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t r = 0; r < rows && ok; r++) {
            /* A card over 51 would count past the ranks. Each row is read
             * once, into a copy, since the array may change meanwhile;
             * the caller guarantees the rest. */
            unsigned char cards[MAX_DEPTH];
            memcpy(cards, h + r * k, (size_t)k);
            for (int j = 0; j < k; j++)
                ok &= cards[j] <= 51;
            /* Without small tables (a game they cannot stand for): the DAG's value, as the numpy backend gives. */
            if (ok && self->small_allowed)
                values[r] = (uint16_t)small_value(self, cards, k);
            else if (ok)
                values[r] = (uint16_t)finish(dag_of(self, k), walk(dag_of(self, k), cards, k));
        }
        Py_END_ALLOW_THREADS
    }
    return release_args(&bufs, ok ? NULL : "small_rows takes (N, 5..7) uint8 rows of cards 0..51 and a uint16 out",
                        PyBool_FromLong(self->small_ok));
}

/* histogram(n, out) -> bool: the number of n-card hands (full deck) with each
 * value, added into `out` (int64, 7463 entries), by counting instead of
 * listing: a hand is a rank multiset and a way to give its cards suits, and
 * its value is the multiset's, unless one suit holds five or more of its
 * cards, when it is that suit's flush. Both values come from the small
 * tables, so this needs them to stand for the DAG: False (out untouched)
 * when they do not, and the caller walks the DAG instead. */
PyObject *Walker_histogram(Walker *self, PyObject *const *args, Py_ssize_t nargs) {
    Buffers bufs;
    long n;
    Py_buffer *out;
    if (parse_args(args, nargs, "histogram(n, out)", &bufs, "lw", &n, &out) < 0)
        return NULL;
    if (self->deck != ALL_CARDS) /* the counting goes over all 52 cards */
        return release_args(&bufs, NULL, Py_NewRef(Py_False));
    if (self->flush == NULL && build_small_tables(self) < 0)
        return release_args(&bufs, NULL, PyErr_NoMemory());
    /* int64 is "l" on LP64 platforms and "q" elsewhere, perhaps after a byte-order mark. */
    const char *f = out->format == NULL ? "" : out->format + (strchr("<=@", out->format[0]) && out->format[0] ? 1 : 0);
    if (n < 5 || n > 7 || out->itemsize != 8 || out->len != 7463 * 8 || (strcmp(f, "q") != 0 && strcmp(f, "l") != 0))
        return release_args(&bufs, "histogram takes n = 5..7 and an int64 array of 7463 entries", NULL);
    if (!self->small_ok)
        return release_args(&bufs, NULL, Py_NewRef(Py_False));
    int64_t *hist = out->buf;
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
    return release_args(&bufs, NULL, Py_NewRef(Py_True));
}
