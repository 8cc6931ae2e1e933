/* Keyed tables for checked batches of whole hands and for single hands,
 * derived from the small tables (and so from dag7): a random 7-card batch
 * walks 84 MB of DAG and waits on memory at every card, while these fit in
 * the L2 cache; a single hand adds up its cards' keys instead of sorting
 * its ranks into a multiset's index, which branches on every rank.
 *
 * A hand's rank multiset has a key that its cards add up: the sum of 5^rank,
 * which is the multiset's counts written in base 5 (no rank is held more
 * than four times), so distinct multisets have distinct keys. A perfect
 * hash takes each n-card key to its own slot of a value table of a power of
 * two entries, at most 80% full: the key times an odd constant gives a
 * bucket and a start (keyed_bucket and keyed_start in core.h), and the
 * bucket's displacement, found when the tables are built, moves every key
 * of the bucket to a free slot.
 * Flushes are looked up by their suit's 13-bit rank mask in the small
 * tables' flush table. Building them takes a few milliseconds, on the first
 * checked batch or after the single hands that single.c says; if no
 * multiplier placed every key, batches walk the DAG and single hands read
 * the small tables.
 * Each key's slot holds its by_ranks value, and the tests hold the batches
 * against the DAG walk on every hand. */

#include "core.h"

/* 5^rank for each rank. */
static const uint64_t pow5[13] = {
    1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125, 9765625, 48828125, 244140625,
};

/* Each table's geometry is fixed by its count of multisets (n_multisets):
 * 2^13, 2^15 and 2^16 slots for 5, 6 and 7 cards, a bucket for every four
 * slots. build_keyed_tables checks that it made them so, and the scalar
 * loop shifts by these constants (a shift by a variable takes a register
 * of its own on x86, and three micro-ops on Intel's). */
#define SLOT_BITS(k) ((k) == 5 ? 13 : (k) == 6 ? 15 : 16)
#define BUCKET_SHIFT(k) (32 - (SLOT_BITS(k) - 2))
#define START_SHIFT(k) (34 - 2 * SLOT_BITS(k))

/* Odd multipliers tried in turn until every bucket finds a displacement
 * (the first places every key of 5, 6 and 7 cards; the keys are the same in
 * every game, only the values differ). */
static const uint32_t multipliers[] = {
    0x9E3779B1u, 0x85EBCA77u, 0xC2B2AE3Du, 0x27D4EB2Fu, 0x165667B1u, 0xD3A2646Du, 0xFD7046C5u, 0xB55A4F09u,
};

static int by_size_desc(const void *a, const void *b) {
    const uint32_t *x = a, *y = b; /* {size, bucket} */
    return x[0] != y[0] ? (x[0] < y[0] ? 1 : -1) : (x[1] > y[1]) - (x[1] < y[1]);
}

/* Find displacements for keys[0..n) under multiplier `mul` into t; 0 on
 * success, 1 if some bucket found none (try another multiplier), -1 out of
 * memory. `slot_of` and `taken` are scratch of n and t->mask + 1 entries. */
static int place(struct keyed *t, const uint32_t *keys, uint32_t n, uint32_t mul, uint32_t *slot_of,
                 unsigned char *taken) {
    uint32_t buckets = 1u << t->bucket_bits, size = t->mask + 1;
    uint32_t *count = PyMem_Calloc(buckets + 1, sizeof(uint32_t));
    uint32_t *order = PyMem_Calloc((size_t)buckets * 2, sizeof(uint32_t));
    uint32_t *members = PyMem_Calloc(n, sizeof(uint32_t));
    if (count == NULL || order == NULL || members == NULL) {
        PyMem_Free(count), PyMem_Free(order), PyMem_Free(members);
        return -1;
    }
    /* Keys grouped by bucket (a counting sort). */
    for (uint32_t i = 0; i < n; i++)
        count[keyed_bucket(t, keys[i], mul)]++;
    for (uint32_t b = 0, at = 0; b <= buckets; b++) {
        uint32_t c = b < buckets ? count[b] : 0;
        count[b] = at;
        at += c;
    }
    for (uint32_t i = 0; i < n; i++)
        members[count[keyed_bucket(t, keys[i], mul)]++] = i;
    for (uint32_t b = buckets; b > 0; b--) /* back to each bucket's first member */
        count[b] = count[b - 1];
    count[0] = 0;
    for (uint32_t b = 0; b < buckets; b++) {
        order[2 * b] = count[b + 1] - count[b];
        order[2 * b + 1] = b;
    }
    qsort(order, buckets, 2 * sizeof(uint32_t), by_size_desc);
    memset(taken, 0, size);
    int result = 0;
    for (uint32_t o = 0; o < buckets && result == 0; o++) {
        uint32_t b = order[2 * o + 1], first = count[b], m = order[2 * o];
        if (m == 0)
            break;
        uint32_t d = 0;
        for (; d < size; d++) {
            uint32_t j = 0;
            for (; j < m; j++) {
                uint32_t s = (keyed_start(t, keys[members[first + j]], mul) + d) & t->mask;
                if (taken[s])
                    break;
                taken[s] = 1; /* held while the bucket is tried */
                slot_of[j] = s;
            }
            if (j == m)
                break;
            for (uint32_t u = 0; u < j; u++)
                taken[slot_of[u]] = 0;
        }
        if (d == size)
            result = 1;
        else
            t->disp[b] = (uint16_t)d;
    }
    PyMem_Free(count), PyMem_Free(order), PyMem_Free(members);
    return result;
}

/* Build self->keyed from the small tables (built first if need be); 0, or -1 with an exception. */
int build_keyed_tables(Walker *self) {
    if (self->flush == NULL && build_small_tables(self) < 0)
        return -1;
    for (int s = 0; s < 3; s++) {
        int n = 5 + s;
        struct keyed *t = &self->keyed[s];
        uint32_t count = n_multisets[s];
        uint32_t size = 1;
        while (size < count + count / 4) /* load at most 0.8 */
            size <<= 1;
        t->mask = size - 1;
        t->bucket_bits = 1;
        while ((1u << t->bucket_bits) < size / 4) /* about three keys a bucket */
            t->bucket_bits++;
        int size_bits = 0;
        while ((1u << size_bits) < size)
            size_bits++;
        if (size_bits != SLOT_BITS(n) || t->bucket_bits != SLOT_BITS(n) - 2) {
            PyErr_SetString(PyExc_SystemError, "keyed tables: a geometry other than SLOT_BITS says");
            return -1;
        }
        t->start_shift = 32 - t->bucket_bits - size_bits;
        PyMem_Free(t->disp), PyMem_Free(t->value);
        t->disp = PyMem_Calloc(((size_t)1 << t->bucket_bits) + 1, sizeof(uint16_t));
        t->value = PyMem_Calloc((size_t)size + 1, sizeof(uint16_t));
        uint32_t *keys = PyMem_Calloc(count, sizeof(uint32_t));
        uint16_t *values = PyMem_Calloc(count, sizeof(uint16_t));
        uint32_t *scratch = PyMem_Calloc(count, sizeof(uint32_t));
        unsigned char *taken = PyMem_Calloc(size, 1);
        int status = -1;
        if (t->disp != NULL && t->value != NULL && keys != NULL && values != NULL && scratch != NULL &&
            taken != NULL) {
            int r[7];
            uint32_t i = 0;
            first_multiset(r, n);
            do {
                uint32_t key = 0; /* under 5^13 */
                for (int j = 0; j < n; j++)
                    key += (uint32_t)pow5[r[j]];
                keys[i] = key;
                values[i++] = self->by_ranks[s][multiset_index(r, n)];
            } while (next_multiset(r, n));
            count = i; /* no rank four times over: fewer than the bound */
            status = 1;
            for (size_t m = 0; m < sizeof multipliers / sizeof multipliers[0] && status == 1; m++) {
                memset(t->disp, 0, ((size_t)1 << t->bucket_bits) * sizeof(uint16_t));
                status = place(t, keys, count, multipliers[m], scratch, taken);
                t->multiplier = multipliers[m];
            }
            if (status == 0)
                for (uint32_t k = 0; k < count; k++)
                    t->value[keyed_slot(t, keys[k])] = values[k];
        }
        PyMem_Free(keys), PyMem_Free(values), PyMem_Free(scratch), PyMem_Free(taken);
        if (status < 0) {
            PyErr_NoMemory();
            return -1;
        }
        if (status > 0) { /* no multiplier worked: stay on the DAG (batches) and the small tables (single hands) */
            self->keyed_ok = self->keyed_single = 0;
            return 0;
        }
    }
    self->keyed_single = self->small_ok;
    self->keyed_ok = self->keyed_single && self->deck == ALL_CARDS;
    return 0;
}

/* Build the keyed tables on their first use (a checked batch of whole
 * hands, a counted showdown, a sampled game, single hands past the small
 * tables); 0, or -1 with an exception. Afterwards keyed_ok says whether
 * they serve batches, keyed_single whether they serve single hands. */
int ensure_keyed(Walker *self) {
    if (!self->small_allowed) /* no small tables, so no keyed ones: keyed_ok stays 0 */
        return 0;
    if (!self->keyed_built) {
        if (build_keyed_tables(self) < 0)
            return -1;
        self->keyed_built = 1;
    }
    return 0;
}

/* Per card, the two things a hand adds up (core.h): 5^rank in the low 32
 * bits (at most 4 * 5^12 + 3 * 5^11 in all) and a count of its suit in the
 * nibble 32 + 4 * suit; and its bit among its suit's ranks, 16 bits a suit. */
uint64_t card_key[52];
static uint64_t card_rank_bit[52];

static void fill_byte_tables(void);

void fill_card_keys(void) {
    for (int c = 0; c < 52; c++) {
        card_key[c] = pow5[c >> 2] | (uint64_t)1 << (32 + 4 * (c & 3));
        card_rank_bit[c] = (uint64_t)1 << (16 * (c & 3) + (c >> 2));
    }
    fill_byte_tables();
}

/* Both per-card entries side by side, for every byte a row may hold: a
 * batch reads each card once, and one load gives both. A byte over 51
 * adds nothing to the key and sets bit 63 of the rank bits (a bit no card
 * uses), so that the row shows it, and every index stays in bounds. */
#if defined(__GNUC__)
typedef uint64_t pair64 __attribute__((vector_size(16)));
#define PAIR(key, bits) ((pair64){(key), (bits)})
#else
typedef struct {
    uint64_t key, bits;
} pair64;
#define PAIR(key, bits) ((pair64){(key), (bits)})
#endif
static pair64 card_pair[256];

static void fill_byte_tables(void) {
    for (int c = 0; c < 256; c++)
        card_pair[c] = c < 52 ? PAIR(card_key[c], card_rank_bit[c]) : PAIR(0, (uint64_t)1 << 63);
}

/* The slot of a rank key in t, a table of k cards: keyed_slot with the
 * constants above. */
static inline uint32_t slot_of(const struct keyed *t, uint32_t key, int k) {
    uint32_t hash = key * t->multiplier;
    return ((hash >> START_SHIFT(k)) + t->disp[hash >> BUCKET_SHIFT(k)]) & ((1u << SLOT_BITS(k)) - 1);
}

/* The value of the k cards of row c into *out; 0, or -1 for a card held
 * twice or over 51. Each card is read once: a caller changing the row
 * meanwhile gets the value of some row, or the error, and never a read out
 * of bounds. */
static inline int keyed_value(const struct keyed *t, const uint16_t *flush, const unsigned char *c, int k,
                              uint16_t *out) {
#if defined(__GNUC__)
    /* One vector add and one or per card: the key and the rank bits added, the rank bits or'ed. */
    pair64 sum = {0, 0}, any = {0, 0};
    for (int j = 0; j < k; j++) {
        pair64 e = card_pair[c[j]];
        sum += e;
        any |= e;
    }
    uint64_t key = sum[0], bit_sum = sum[1], bits = any[1];
#else
    uint64_t key = 0, bit_sum = 0, bits = 0;
    for (int j = 0; j < k; j++) {
        pair64 e = card_pair[c[j]];
        key += e.key;
        bit_sum += e.bits;
        bits |= e.bits;
    }
#endif
    /* A card twice adds its bit twice but ors it once. */
    if (bit_sum != bits || bits >> 63)
        return -1;
    /* keyed_sum_value (core.h) with the constant geometry. */
    uint32_t five = ((uint32_t)(key >> 32) + 0x3333u) & 0x8888u;
    if (five) {
        unsigned suit = five & 0x8u ? 0 : five & 0x80u ? 1 : five & 0x800u ? 2 : 3;
        *out = flush[(bits >> (16 * suit)) & 0x1FFF];
    } else {
        *out = t->value[slot_of(t, (uint32_t)key, k)];
    }
    return 0;
}

/* keyed_value over m rows, k a constant for the compiler to unroll; the
 * first bad row, or -1. The rows' table reads are independent, and the
 * processor overlaps those of several rows by itself: rows taken two or
 * four at a time by hand ran no faster (x86-64, gcc 12). */
static inline int keyed_rows_of(const struct keyed *t, const uint16_t *flush, const unsigned char *rows, int m, int k,
                                uint16_t *out) {
    /* A copy the loop keeps in registers: the compiler cannot tell that
     * the stores to out leave the table's fields alone. */
    const struct keyed table = *t;
    for (int i = 0; i < m; i++) {
#if defined(__GNUC__)
        /* The rows a kilobyte on: read from memory one after another,
         * they come in time (a prefetch never faults). */
        if ((i & 7) == 0)
            __builtin_prefetch(rows + (size_t)i * k + 1024);
#endif
        if (keyed_value(&table, flush, rows + (size_t)i * k, k, out + i) < 0)
            return i;
    }
    return -1;
}

/* The batch loops, by the words of $TWOPLUSTWO_BATCH_LOOP: the scalar loop
 * above runs everywhere; the vector loops (keyed_x86.c) where the
 * processor has their instructions. One is chosen when the module loads. */
static const char *const loop_names[BATCH_LOOPS] = {"scalar", "avx2", "avx512"};
static const char *const loop_needs[BATCH_LOOPS] = {"", "AVX2", "AVX-512 with VBMI and BITALG"};
static keyed_rows_fn loop_rows[BATCH_LOOPS]; /* NULL for the scalar loop and for a loop the processor lacks */
static int loop_here[BATCH_LOOPS];
static int chosen_loop;
const char *keyed_loop_name = "scalar";

int choose_keyed_rows(void) {
    loop_here[0] = 1;
    for (int loop = 1; loop < BATCH_LOOPS; loop++) {
        loop_rows[loop] = keyed_vector_rows(loop);
        loop_here[loop] = loop_rows[loop] != NULL;
        if (loop_here[loop])
            chosen_loop = loop; /* the best: the last the processor has */
    }
    const char *word = getenv(BATCH_LOOP_VAR);
    if (word != NULL && *word != '\0') {
        int loop = 0;
        while (loop < BATCH_LOOPS && strcmp(word, loop_names[loop]) != 0)
            loop++;
        if (loop == BATCH_LOOPS) {
            PyErr_Format(PyExc_ValueError,
                         "$" BATCH_LOOP_VAR " must be 'scalar', 'avx2', 'avx512' or unset (the best this processor "
                         "has), got '%.40s'",
                         word);
            return -1;
        }
        if (!loop_here[loop]) {
            PyErr_Format(PyExc_ValueError,
                         "$" BATCH_LOOP_VAR "=%s, but this processor lacks %s; the loops it has: %s%s%s",
                         loop_names[loop], loop_needs[loop], "'scalar'", loop_here[1] ? ", 'avx2'" : "",
                         loop_here[2] ? ", 'avx512'" : "");
            return -1;
        }
        chosen_loop = loop;
    }
    keyed_loop_name = loop_names[chosen_loop];
    return 0;
}

/* The names of the loops this processor has, the scalar loop first and the best last. */
PyObject *keyed_loops_here(void) {
    Py_ssize_t n = 0;
    for (int loop = 0; loop < BATCH_LOOPS; loop++)
        n += loop_here[loop];
    PyObject *names = PyTuple_New(n);
    for (int loop = 0, i = 0; names != NULL && loop < BATCH_LOOPS; loop++)
        if (loop_here[loop]) {
            PyObject *name = PyUnicode_FromString(loop_names[loop]);
            if (name == NULL) {
                Py_CLEAR(names);
                break;
            }
            PyTuple_SET_ITEM(names, i++, name);
        }
    return names;
}

/* keyed_values through the loop `rows_fn` (NULL: the scalar loop alone),
 * which takes the whole blocks it can, the scalar loop the rest. */
static int keyed_values_by(const Walker *self, const unsigned char *rows, int m, int k, uint16_t *out,
                           keyed_rows_fn rows_fn) {
    const struct keyed *t = &self->keyed[k - 5];
    int done = rows_fn != NULL ? rows_fn(t, self->flush, rows, m, k, out) : 0;
    int bad;
    rows += (size_t)done * k, out += done, m -= done;
    switch (k) {
    case 7:
        bad = keyed_rows_of(t, self->flush, rows, m, 7, out);
        break;
    case 6:
        bad = keyed_rows_of(t, self->flush, rows, m, 6, out);
        break;
    default:
        bad = keyed_rows_of(t, self->flush, rows, m, 5, out);
    }
    return bad < 0 ? -1 : done + bad;
}

/* The values of m rows of k = 5..7 cards into out (each card read once, so
 * the rows may be the caller's): the index of the first row that holds a
 * card twice or one over 51, or -1. With `vector`, the loop chosen when
 * the module loaded, else the scalar loop. */
int keyed_values(const Walker *self, const unsigned char *rows, int m, int k, uint16_t *out, int vector) {
    return keyed_values_by(self, rows, m, k, out, vector ? loop_rows[chosen_loop] : NULL);
}

/* keyed_rows(hands, out, loop) -> int: checked batches' values of (N,
 * 5..7) uint8 rows through the keyed tables by the loop numbered `loop`
 * (0 scalar, 1 AVX2, 2 AVX-512; for the tests, which hold each loop the
 * processor has against the DAG): the first bad row, or -1. */
PyObject *Walker_keyed_rows(Walker *self, PyObject *const *args, Py_ssize_t nargs) {
    Buffers bufs;
    Py_buffer *in, *out;
    long loop;
    if (parse_args(args, nargs, "keyed_rows(hands, out, loop)", &bufs, "rwl", &in, &out, &loop) < 0)
        return NULL;
    if (in->ndim != 2 || in->itemsize != 1 || in->shape[1] < 5 || in->shape[1] > 7 || out->ndim != 1 ||
        out->itemsize != 2 || out->shape[0] != in->shape[0] || in->shape[0] > INT_MAX)
        return release_args(&bufs, "keyed_rows takes (N, 5..7) uint8 rows and a uint16 out of N", NULL);
    if (loop < 0 || loop >= BATCH_LOOPS || !loop_here[loop])
        return release_args(&bufs, "keyed_rows: loop is not one this processor has (0 scalar, 1 avx2, 2 avx512)",
                            NULL);
    if (ensure_keyed(self) < 0)
        return release_args(&bufs, NULL, NULL);
    if (!self->keyed_ok)
        return release_args(&bufs, "these tables have no keyed tables for batches", NULL);
    int bad;
    Py_BEGIN_ALLOW_THREADS
    bad = keyed_values_by(self, in->buf, (int)in->shape[0], (int)in->shape[1], out->buf, loop_rows[loop]);
    Py_END_ALLOW_THREADS
    return release_args(&bufs, NULL, PyLong_FromLong(bad));
}
