/* twoplustwo.kernels._core: what its units share. The Walker and its DAGs,
 * the table read every hot loop inlines, and the functions one unit lends
 * another.
 *
 * A Walker holds pointers into one table set's mapped arrays (it keeps the
 * Python objects that own them alive) and walks hands down a DAG, one lookup
 * per card, exactly as spec/README.md section 5 says. Every function of
 * the module either gives the same answer as the numpy path or says "not
 * mine": the single-hand call returns None for anything but distinct ints
 * 0..51 of the walker's deck, and the batch walk returns the first bad row,
 * so that Python raises the very same errors on both backends.
 *
 * A table set has one Walker for hold'em (dag5, dag6, dag7) and one for
 * each other game it is asked about (short deck: the game's dag7 alone,
 * whose first 5 or 6 layers and value arrays give 5- and 6-card values,
 * and a deck of 36 cards; section 13).
 *
 * The units, one job each:
 *   module.c     the module: its functions, its constants, its init
 *   args.c       the one argument parser of every method that takes arrays
 *   walker.c     the Walker type and the batch walk
 *   single.c     one hand from a Python call to its value, and the registry
 *                behind the frameless evaluate
 *   small.c      the small tables derived from dag7 for single hands, and
 *                the histogram that counts hands through them
 *   keyed.c      the keyed tables derived from those, for checked batches and
 *                single hands
 *   keyed_x86.c  the batches' loops over them in AVX2 and AVX-512, where the
 *                processor has them
 *   enumerate.c  every hand or board of a kind: draws, ordered rows, ranges,
 *                two-card combos
 *   showdown.c   who wins each board, and the pot shares
 *   exact.c      exact showdowns of whole hands, counting boards by rank
 *                multiset and flush suit instead of listing them
 *   versus.c     every combo against the others on one board, in order of
 *                value: against a random hand, wins and ties, a range
 *   omaha.c      Omaha high and eight-or-better low
 *   sample.c     Monte Carlo hold'em games played whole, for sampled equity
 *   indexer.c    hands up to suit isomorphism to dense indices and back
 *   classify.c   what two hole cards hold on a board: made hand and draws
 * There is no link-time optimisation: a loop and everything it calls per
 * hand stay in one unit, or come from here as static inline.
 */

#ifndef TWOPLUSTWO_CORE_H
#define TWOPLUSTWO_CORE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MAX_DEPTH 7

/* Every card of the 52: hold'em's deck. */
#define ALL_CARDS ((((uint64_t)1) << 52) - 1)

/* Pot shares are counted in units of 1/POT_UNITS of a pot: lcm(1..9), so that a
 * k-way split of up to nine players is exact. The module exports it as
 * POT_UNITS, so that the tests hold it to twoplustwo.kernels.pots.POT_UNITS. */
#define POT_UNITS 2520

/* The share of a pot each winner of a k-way split takes, in 1/POT_UNITS units. */
static const uint32_t pot_share[10] = {0, POT_UNITS / 1, POT_UNITS / 2, POT_UNITS / 3, POT_UNITS / 4,
                                       POT_UNITS / 5, POT_UNITS / 6, POT_UNITS / 7, POT_UNITS / 8, POT_UNITS / 9};

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

/* A value table reached through a perfect hash of rank keys (keyed.c). */
struct keyed {
    uint32_t multiplier;    /* odd: a key times it, in 32 bits, gives bucket (top bits) and start (the bits below) */
    uint32_t mask;          /* value table entries - 1, a power of two less one */
    int bucket_bits;        /* log2 of the number of buckets */
    int start_shift;        /* 32 - bucket_bits - log2(entries): where the start's bits begin */
    uint16_t *disp;         /* each bucket's displacement, and one entry more (a vector gather reads 4 bytes) */
    uint16_t *value;        /* the value of each slot, and one entry more */
};

typedef struct {
    PyObject_HEAD
    struct dag dag[3]; /* the 5-, 6- and 7-card walks */
    struct dag four;   /* the 4-card walk (badugi's dag4); depth 0 when the walker has none */
    unsigned sizes;    /* bit n set: the walker walks n-card hands (n = 4..7) */
    int small_allowed; /* 0: the small and keyed tables never stand for the DAG (values not ranked as a high game's) */
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
    /* Keyed tables for checked batches of whole hands and for single hands
     * (keyed.c), built on the first such batch or after SMALL_AFTER +
     * KEYED_AFTER single hands: 5, 6 and 7 cards. keyed_ok: built and
     * usable by batches. */
    struct keyed keyed[3];
    int keyed_ok, keyed_built;
    /* The keyed tables serve single hands, whose cards are checked against
     * the deck first: built, every key placed, and the small tables they
     * come from stand for the DAG (keyed_ok adds: and the deck is all 52). */
    int keyed_single;
    unsigned walked; /* single hands before the keyed tables: walked down the DAG, then read from the small tables */
} Walker;

/* The buffers a method's arguments lend it, taken by parse_args and given
 * back by release_args. */
#define MAX_BUFFERS 9
typedef struct {
    Py_buffer view[MAX_BUFFERS];
    int held;
} Buffers;

/* Only PyInit__core leaves the shared object: the names the units share
 * stay out of the process's symbol table, and calls between units go
 * direct rather than through the PLT. */
#if defined(__GNUC__)
#pragma GCC visibility push(hidden)
#endif

extern PyTypeObject WalkerType;

/* args.c */
int parse_args(PyObject *const *args, Py_ssize_t nargs, const char *usage, Buffers *b, const char *format, ...);
PyObject *release_args(Buffers *b, const char *error, PyObject *result);

/* walker.c */
void fill_card_bits(void);
PyObject *Walker_walk_rows(Walker *self, PyObject *const *args, Py_ssize_t nargs);

/* single.c */
/* Single hands walk the DAG until SMALL_AFTER of them have, then read the
 * small tables until KEYED_AFTER more have, then the keyed tables
 * (twoplustwo.kernels._core exports both numbers, for the tests). */
#define SMALL_AFTER 2048
#define KEYED_AFTER 65536
int parse_text(const char *s, Py_ssize_t len, unsigned char *cards);
PyObject *Walker_evaluate(Walker *self, PyObject *const *args, Py_ssize_t nargs);
int init_single(void);
PyObject *core_evaluate(PyObject *module, PyObject *const *args, Py_ssize_t nargsf, PyObject *kwnames);
PyObject *core_set_default(PyObject *module, PyObject *walker);
PyObject *core_set_game(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
PyObject *core_set_fallback(PyObject *module, PyObject *fn);

/* small.c */
extern uint32_t choose[20][8];
void fill_choose(void);
extern const uint32_t n_multisets[3];
void first_multiset(int *r, int n);
int next_multiset(int *r, int n);
uint32_t multiset_index(const int *r, int n);
int build_small_tables(Walker *self);

/* keyed.c */
void fill_card_keys(void);
int build_keyed_tables(Walker *self);
int ensure_keyed(Walker *self);
extern uint64_t card_key[52];
int keyed_values(const Walker *self, const unsigned char *rows, int m, int k, uint16_t *out, int vector);
/* The batch loops, numbered as $TWOPLUSTWO_BATCH_LOOP's words are listed:
 * 0 scalar (keyed.c), 1 avx2, 2 avx512 (keyed_x86.c). choose_keyed_rows
 * reads the variable when the module loads: 0, or -1 with a ValueError
 * for a word it does not know or a loop the processor lacks. */
#define BATCH_LOOPS 3
#define BATCH_LOOP_VAR "TWOPLUSTWO_BATCH_LOOP"
int choose_keyed_rows(void);
extern const char *keyed_loop_name;
PyObject *keyed_loops_here(void);
PyObject *Walker_keyed_rows(Walker *self, PyObject *const *args, Py_ssize_t nargs);

/* keyed_x86.c: a batch loop over whole blocks of rows through the keyed
 * tables, returning the rows done (it stops at a block with a bad row); a
 * vector loop (1 or 2) where the processor has it, else NULL. */
typedef int (*keyed_rows_fn)(const struct keyed *t, const uint16_t *flush, const unsigned char *rows, int m, int k,
                             uint16_t *out);
keyed_rows_fn keyed_vector_rows(int loop);
PyObject *Walker_small_rows(Walker *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *Walker_histogram(Walker *self, PyObject *const *args, Py_ssize_t nargs);

/* enumerate.c */
PyObject *Walker_draw_values(Walker *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *Walker_fill_ordered(Walker *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *Walker_range_values(Walker *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *Walker_rank_combos(Walker *self, PyObject *const *args, Py_ssize_t nargs);

/* exact.c */
PyObject *Walker_count_showdowns(Walker *self, PyObject *const *args, Py_ssize_t nargs);

/* versus.c */
PyObject *Walker_count_vs_random(Walker *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *Walker_board_wins(Walker *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *Walker_range_sweep(Walker *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *Walker_strength_sums(Walker *self, PyObject *const *args, Py_ssize_t nargs);

/* showdown.c */
PyObject *Walker_score(Walker *self, PyObject *arg);
PyObject *Walker_score_tuples(Walker *self, PyObject *const *args, Py_ssize_t nargs);

/* omaha.c */
void fill_lows(void);
PyObject *Walker_omaha(Walker *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *Walker_omaha_rows(Walker *self, PyObject *const *args, Py_ssize_t nargs);
PyObject *core_omaha_low_rows(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* sample.c */
PyObject *Walker_sample_games(Walker *self, PyObject *const *args, Py_ssize_t nargs);

/* indexer.c */
PyObject *core_index_rows(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
PyObject *core_unindex_rows(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* classify.c */
void fill_classify(void);
PyObject *core_classify_rows(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* cluster.c */
PyObject *core_nearest_rows(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
PyObject *core_assign_rows(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
PyObject *core_median_rows(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* transport.c */
PyObject *core_transport_rows(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

/* Bit counts: the compiler's builtins where there are some, plain loops elsewhere. */
static inline int bit_count(uint32_t x) {
#if defined(__GNUC__)
    return __builtin_popcount(x);
#else
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
#endif
}

/* The lowest set bit of x != 0. */
static inline int lowest_bit(uint32_t x) {
#if defined(__GNUC__)
    return __builtin_ctz(x);
#else
    int n = 0;
    for (; !(x & 1); x >>= 1)
        n++;
    return n;
#endif
}

/* The highest set bit of x != 0. */
static inline int highest_bit64(uint64_t x) {
#if defined(__GNUC__)
    return 63 ^ __builtin_clzll(x);
#else
    int n = 0;
    for (; x >>= 1;)
        n++;
    return n;
#endif
}

static inline uint32_t get(const unsigned char *p, int width, size_t i) {
    /* The format is little-endian whatever the host (spec/README.md, section 3). */
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

/* The sizes of a walker of 5-, 6- and 7-card hands, as hold'em's (bits 5..7 of Walker.sizes). */
#define HIGH_SIZES 0xE0u

/* The DAG an n-card walk (n a size the walker walks) reads. */
static inline const struct dag *dag_of(const Walker *self, int n) {
    return n == 4 ? &self->four : &self->dag[n - 5];
}

/* The value of n cards (already checked) through dag7 and its value arrays. */
static inline uint32_t dag_value(const Walker *self, const unsigned char *cards, int n) {
    uint32_t node = walk(&self->dag[2], cards, n);
    return n == 7 ? node : get(self->value[n - 5], self->value_width[n - 5], node);
}

/* The value of n distinct cards 0..51 from the small tables (small.c). */
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

/* A rank key's bucket and start in a keyed table under multiplier `mul`:
 * the building (keyed.c) and every lookup read them here alike. */
static inline uint32_t keyed_bucket(const struct keyed *t, uint32_t key, uint32_t mul) {
    return (key * mul) >> (32 - t->bucket_bits);
}

static inline uint32_t keyed_start(const struct keyed *t, uint32_t key, uint32_t mul) {
    return (key * mul) >> t->start_shift;
}

/* The slot of a rank key in a keyed table. The product is 32 bits, so
 * that a vector of 16 keys hashes in one instruction (keyed_x86.c). */
static inline uint32_t keyed_slot(const struct keyed *t, uint32_t key) {
    uint32_t mul = t->multiplier;
    return (keyed_start(t, key, mul) + t->disp[keyed_bucket(t, key, mul)]) & t->mask;
}

/* The value of distinct cards (five to seven) whose card_key entries add up
 * to `sum` and whose card_rank_bit entries to `bits` (keyed.c), through the
 * keyed table t (of that many cards) and the small flush table. */
static inline uint16_t keyed_sum_value(const struct keyed *t, const uint16_t *flush, uint64_t sum, uint64_t bits) {
    /* A suit's count of 5 or more sets its nibble's top bit once 3 is added (counts are at most 7). */
    uint32_t five = ((uint32_t)(sum >> 32) + 0x3333u) & 0x8888u;
    if (five) {
        unsigned suit = five & 0x8u ? 0 : five & 0x80u ? 1 : five & 0x800u ? 2 : 3;
        return flush[(bits >> (16 * suit)) & 0x1FFF];
    }
    return t->value[keyed_slot(t, (uint32_t)sum)];
}

#endif
