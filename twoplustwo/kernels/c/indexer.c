/* Suit-isomorphic hand indices: index_rows and unindex_rows, the twins of
 * the numpy functions of twoplustwo.kernels.numpy.indexer; twoplustwo.vocab.indexing fixes
 * the layout both follow to the bit. Module functions: a round's tables
 * (its plan: counts, codes, offsets, slots) come from Python, which makes
 * them once; each call checks and copies them, so that nothing the caller
 * changes while the GIL is released can lead a read or a write astray. */

/* Long because it is one job in one unit: the layout of hand indices, both
 * ways. index_rows and unindex_rows read the same plan (load_plan,
 * read_config) and the same rank tables (fill_tables), each the other's
 * inverse; apart they would share a header for a single caller each. */

#include "core.h" /* Python.h first, before any standard header */

#define MOST_ROUNDS 8
#define MOST_CARDS 7
#define MOST_CODES 1024 /* as twoplustwo.kernels.numpy.indexer */
#define MOST_SLOTS 8192
#define HASH 0x9E3779B1u

static const char index_error[] =
    "index_rows takes (N, k) uint8 hands, a plan of k cards (uint8 counts, uint32 codes, uint64 offsets, "
    "uint32 slots) and a uint64 out of N";
static const char unindex_error[] =
    "unindex_rows takes (N,) uint64 indices, a plan of k cards (uint8 counts, uint32 codes, uint64 offsets) "
    "and a uint8 (N, k) out";

/* Tables of the 13 ranks, filled on the first call, under the GIL:
 *   binom[n][k]   C(n, k)
 *   rank_info[m]  the colex rank of the rank set m among the sets of its
 *                 size (below 2**11), plus its size times 2**12
 *   mset[t][a]    C(a + t - 1, t), the term of a group's t-th suit of index
 *                 a in the group's rank, for t = 2..4; a suit in a group of t
 *                 holds at most 7 / t cards, so a is below 1716 (t = 2), 156
 *                 (3) or 13 (4), and the rest is 0, as are rows 0 and 1
 *   card_bit[c]   card c's bit in a hand's rank masks, suit s's ranks in
 *                 bits 16s..16s+12; for c = 52..255, BAD_CARD, a bit no
 *                 card has: one test of a row's mask finds them all
 *   colex_set[c][u] the rank set of colex rank u among the sets of c
 *                 ranks, for c <= 7 (its ranks are the lowest it can take:
 *                 the same set among the c-sets of fewer ranks)
 *   one_bit[b]    1 << b, and above[b] the bits above b in its 16-bit lane:
 *                 read rather than shifted, as a shift by a variable costs
 *                 several micro-ops where BMI2 may not be assumed */
#define MSET_MASK 2047 /* a suit's index in a group of 2 or more is below 1716 */
static uint32_t binom[14][8];
static uint16_t rank_info[1 << 13];
static uint32_t mset[5][MSET_MASK + 1];
static uint16_t colex_set[8][1716]; /* C(13, c) <= 1716 */
#define BAD_CARD ((uint64_t)1 << 15)
static uint64_t card_bit[256], one_bit[64], above[64];
static int filled;

static void fill_tables(void) {
    if (filled)
        return;
    for (int n = 0; n < 14; n++)
        for (int k = 0; k < 8; k++)
            binom[n][k] = k == 0 ? 1 : n == 0 ? 0 : binom[n - 1][k - 1] + binom[n - 1][k];
    for (uint32_t m = 0; m < (1u << 13); m++) {
        uint32_t u = 0, t = 0;
        for (int r = 0; r < 13; r++)
            if (m >> r & 1 && t < 7) /* sets of more than 7 ranks never come */
                u += binom[r][++t];
        rank_info[m] = (uint16_t)(u | t << 12);
        if (t == (uint32_t)bit_count(m))
            colex_set[t][u] = (uint16_t)m;
    }
    static const uint32_t below[5] = {0, 0, 1716, 156, 13};
    for (int t = 2; t <= 4; t++)
        for (uint32_t a = 0; a < below[t]; a++) {
            uint64_t c = 1;
            for (int i = 0; i < t; i++)
                c = c * (a + (uint32_t)i) / (uint64_t)(i + 1);
            mset[t][a] = (uint32_t)c;
        }
    for (int c = 0; c < 256; c++)
        card_bit[c] = c < 52 ? (uint64_t)1 << (16 * (c & 3) + (c >> 2)) : BAD_CARD;
    for (int b = 0; b < 64; b++) {
        one_bit[b] = (uint64_t)1 << b;
        above[b] = (0xFFFFull << (b & 48)) & ~((one_bit[b] << 1) - 1); /* 1 << 64 wraps to 0 */
    }
    filled = 1;
}

/* What a configuration's hands need: its sorted suits' place in their
 * group, counts and n(key), and each group's size and place value. */
struct config {
    uint64_t offset; /* its first index */
    uint64_t mult[4]; /* the place value of each suit's group */
    uint64_t group[4]; /* the number of multisets of each suit's group */
    uint32_t size[4]; /* n(key) */
    uint32_t code;
    /* A suit's term of its group's rank is (a & whole) + row[a & part]:
     * a itself when it is first in its group (whole: all ones, part 0,
     * row mset[1], all 0), else mset[t][a] (whole 0, part MSET_MASK), so
     * that no branch waits on which suits group together. */
    uint32_t whole[4], part[4];
    const uint32_t *row[4];
    uint8_t t[4]; /* the suit's place in its group, from 1 */
    uint8_t count[4][MOST_ROUNDS];
};

struct plan {
    int rounds, cards;
    int count[MOST_ROUNDS];
    int first[MOST_ROUNDS + 1]; /* where each round's cards start in a row, and the row's end */
    uint64_t total; /* the number of indices */
    uint32_t n_codes, slot_mask, shift;
    struct config *configs;
    uint32_t *slots;
};

/* C(x, t) for t = 1..4, without overflow for the x of a valid group. */
static uint64_t mchoose(uint64_t x, int t) {
    uint64_t c = 1;
    for (int i = 0; i < t; i++)
        c = c * (x - (uint64_t)i) / (uint64_t)(i + 1);
    return c;
}

/* The configuration of `code` for rounds of p's counts, into c: 0 if the
 * code is not one (a round's cards do not add up). */
static int read_config(const struct plan *p, uint32_t code, struct config *c) {
    if (code >> 28)
        return 0;
    c->code = code;
    uint32_t key[4];
    for (int q = 0; q < 4; q++)
        key[q] = code >> (21 - 7 * q) & 127;
    for (int j = p->rounds - 1; j >= 0; j--) {
        uint32_t radix = (uint32_t)p->count[j] + 1, sum = 0;
        for (int q = 0; q < 4; q++) {
            c->count[q][j] = (uint8_t)(key[q] % radix);
            sum += key[q] % radix;
            key[q] /= radix;
        }
        if (sum != (uint32_t)p->count[j])
            return 0;
    }
    if (key[0] | key[1] | key[2] | key[3])
        return 0;
    for (int q = 0; q < 4; q++) {
        uint32_t size = 1, left = 13;
        for (int j = 0; j < p->rounds; j++) {
            size *= binom[left][c->count[q][j]];
            left -= c->count[q][j];
        }
        c->size[q] = size;
        key[q] = code >> (21 - 7 * q) & 127;
        c->t[q] = (uint8_t)(q > 0 && key[q] == key[q - 1] ? c->t[q - 1] + 1 : 1);
        c->whole[q] = c->t[q] == 1 ? 0xFFFFFFFFu : 0;
        c->part[q] = c->t[q] == 1 ? 0 : MSET_MASK;
        c->row[q] = mset[c->t[q]];
    }
    /* Groups from the last (place value 1) to the first. */
    uint64_t mult = 1;
    for (int q = 3; q >= 0;) {
        int g = c->t[q];
        uint64_t group = mchoose(c->size[q] + (uint64_t)g - 1, g);
        for (int i = 0; i < g; i++, q--) {
            c->mult[q] = mult;
            c->group[q] = group;
        }
        mult *= group;
    }
    return 1;
}

/* Check a plan's arrays as the numpy twin does, and copy what the rows
 * need into p (free_plan gives it back). slots may be NULL. Returns 1, or
 * 0 for a bad plan, or -1 with MemoryError set. */
static int load_plan(struct plan *p, const Py_buffer *counts, const Py_buffer *codes, const Py_buffer *offsets,
                     const Py_buffer *slots) {
    p->configs = NULL;
    p->slots = NULL;
    if (counts->ndim != 1 || counts->itemsize != 1 || counts->shape[0] < 1 || counts->shape[0] > MOST_ROUNDS)
        return 0;
    if (codes->ndim != 1 || codes->itemsize != 4 || codes->shape[0] < 1 || codes->shape[0] > MOST_CODES)
        return 0;
    if (offsets->ndim != 1 || offsets->itemsize != 8 || offsets->shape[0] != codes->shape[0] + 1)
        return 0;
    Py_ssize_t n_slots = 0;
    if (slots != NULL) {
        n_slots = slots->shape[0];
        if (slots->ndim != 1 || slots->itemsize != 4 || n_slots < 16 || n_slots > MOST_SLOTS ||
            (n_slots & (n_slots - 1)) != 0)
            return 0;
    }
    p->rounds = (int)counts->shape[0];
    p->cards = 0;
    for (int j = 0; j < p->rounds; j++) {
        p->count[j] = ((const unsigned char *)counts->buf)[j];
        if (p->count[j] < 1 || p->cards + p->count[j] > MOST_CARDS)
            return 0;
        p->first[j] = p->cards;
        p->cards += p->count[j];
    }
    p->first[p->rounds] = p->cards;
    p->n_codes = (uint32_t)codes->shape[0];
    p->configs = PyMem_Malloc(p->n_codes * sizeof(struct config) + 4 * (size_t)n_slots);
    if (p->configs == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    /* Each entry read once, and checked as read. */
    const uint32_t *code = codes->buf;
    const uint64_t *offset = offsets->buf;
    uint64_t last = 0;
    int ok = 1;
    for (uint32_t c = 0; c <= p->n_codes && ok; c++) {
        uint64_t at = offset[c];
        ok = c == 0 ? at == 0 : at >= last;
        if (c < p->n_codes) {
            ok &= read_config(p, code[c], &p->configs[c]);
            p->configs[c].offset = at;
        }
        last = at;
    }
    p->total = last;
    if (slots != NULL && ok) {
        p->slots = (uint32_t *)(p->configs + p->n_codes);
        memcpy(p->slots, slots->buf, 4 * (size_t)n_slots);
        int free_slot = 0;
        for (Py_ssize_t s = 0; s < n_slots; s++) {
            ok &= p->slots[s] <= p->n_codes;
            free_slot |= p->slots[s] == 0; /* a probe for a missing code ends there */
        }
        ok &= free_slot;
        p->slot_mask = (uint32_t)n_slots - 1;
        p->shift = 32 - (uint32_t)bit_count(p->slot_mask);
    }
    if (!ok) {
        PyMem_Free(p->configs);
        p->configs = NULL;
    }
    return ok;
}

static void free_plan(struct plan *p) {
    PyMem_Free(p->configs);
}

/* The lanes of a hand's rank masks m, less the held ranks of each lane,
 * renumbered downwards over them. A loop over the held cards: as many in
 * every row of a round, so the branch predicts. */
static inline uint64_t squeeze(uint64_t m, uint64_t held) {
    while (held) {
        int b = highest_bit64(held);
        m = (m & ~above[b]) | ((m & above[b]) >> 1);
        held ^= one_bit[b];
    }
    return m;
}

#define SORT2(a, b)                                                                                                    \
    do {                                                                                                               \
        uint32_t lo = a < b ? a : b;                                                                                   \
        b ^= a ^ lo;                                                                                                   \
        a = lo;                                                                                                        \
    } while (0)

/* A hand's suits in order, from its rounds' squeezed rank masks: (127 -
 * key) << 24 | index each, sorted, so that keys come largest first and
 * equal keys by index (n(key) < 13!/6! < 2**24). Returns the hand's
 * configuration code. Inlined for each number of rounds R, so that its
 * loops unroll. */
static inline __attribute__((always_inline)) uint32_t sort_suits(const struct plan *p, const uint64_t *lanes,
                                                                uint32_t *order, int R) {
    uint32_t o[4];
    for (int s = 0; s < 4; s++) {
        uint32_t info = rank_info[lanes[0] >> (16 * s) & 0x1FFF];
        uint32_t key = info >> 12, index = info & 0xFFF, left = 13 - key;
        for (int j = 1; j < R; j++) {
            info = rank_info[lanes[j] >> (16 * s) & 0x1FFF];
            uint32_t c = info >> 12;
            index = index * binom[left][c] + (info & 0xFFF);
            key = key * (uint32_t)(p->count[j] + 1) + c;
            left -= c;
        }
        o[s] = (127 - key) << 24 | index;
    }
    uint32_t o0 = o[0], o1 = o[1], o2 = o[2], o3 = o[3];
    SORT2(o0, o1);
    SORT2(o2, o3);
    SORT2(o0, o2);
    SORT2(o1, o3);
    SORT2(o1, o2);
    order[0] = o0;
    order[1] = o1;
    order[2] = o2;
    order[3] = o3;
    /* 127 - k is 127 ^ k for a 7-bit k */
    return 0x0FFFFFFFu ^ ((o0 >> 24) << 21 | (o1 >> 24) << 14 | (o2 >> 24) << 7 | (o3 >> 24));
}

/* sort_suits for n rows of lanes, into order and code. */
static void sort_block(const struct plan *p, uint64_t (*lanes)[MOST_ROUNDS], uint32_t (*order)[4], uint32_t *code,
                       int n) {
#define ROWS(R)                                                                                                        \
    for (int i = 0; i < n; i++)                                                                                        \
        code[i] = sort_suits(p, lanes[i], order[i], R);                                                                \
    break
    switch (p->rounds) {
    case 1:
        ROWS(1);
    case 2:
        ROWS(2);
    case 3:
        ROWS(3);
    case 4:
        ROWS(4);
    case 5:
        ROWS(5);
    case 6:
        ROWS(6);
    default:
        ROWS(7);
    }
#undef ROWS
}

#undef SORT2

/* The index of a hand from its sorted suits and code: UINT64_MAX when the
 * plan lacks the configuration (no index comes near it). */
static inline uint64_t place_hand(const struct plan *p, const uint32_t *order, uint32_t code) {
    uint32_t slot = (code * HASH) >> p->shift;
    const struct config *c;
    for (;;) {
        uint32_t number = p->slots[slot];
        if (number == 0)
            return UINT64_MAX;
        c = &p->configs[number - 1];
        if (c->code == code)
            break;
        slot = (slot + 1) & p->slot_mask;
    }
    uint64_t place = c->offset;
    for (int q = 0; q < 4; q++) {
        uint32_t a = order[q] & 0xFFFFFF;
        place += c->mult[q] * ((a & c->whole[q]) + c->row[q][a & c->part[q]]);
    }
    return place;
}

/* Rows go through in blocks, each in three passes (cards, suits, places):
 * a row's work is one long chain of dependent steps, and short loops let
 * the processor overlap the chains of several rows. */
#define BLOCK 128

/* Index the rows of k cards: inlined for each k, so that each row's copy
 * and card loop have a constant length. Returns the first bad row, or -1
 * (rows before it are written); sets *lost when the plan lacks a hand's
 * configuration. */
static inline __attribute__((always_inline)) Py_ssize_t index_block(const struct plan *p, const unsigned char *hands,
                                                                   Py_ssize_t rows, int k, uint64_t *out, int *lost) {
    uint32_t order[BLOCK][4], code[BLOCK];
    uint64_t lanes[BLOCK][MOST_ROUNDS];
    for (Py_ssize_t r0 = 0; r0 < rows; r0 += BLOCK) {
        int n = rows - r0 < BLOCK ? (int)(rows - r0) : BLOCK, bad = -1;
        for (int i = 0; i < n; i++) {
            /* The row from a copy: the caller's array may change while
             * the GIL is released, and a card read twice could pass the
             * check as one card and be indexed as another. */
            unsigned char h[MOST_CARDS];
            memcpy(h, hands + (r0 + i) * k, (size_t)k);
            /* The rank masks of the first i cards: a round's are the
             * difference of two. */
            uint64_t dealt[MOST_CARDS + 1], twice = 0;
            dealt[0] = 0;
            for (int c = 0; c < k; c++) {
                uint64_t bit = card_bit[h[c]];
                twice |= dealt[c] & bit;
                dealt[c + 1] = dealt[c] | bit;
            }
            if ((dealt[k] & BAD_CARD) | twice) {
                bad = n = i;
                break;
            }
            lanes[i][0] = dealt[p->first[1]];
            for (int j = 1; j < p->rounds; j++)
                lanes[i][j] = squeeze(dealt[p->first[j + 1]] ^ dealt[p->first[j]], dealt[p->first[j]]);
        }
        sort_block(p, lanes, order, code, n);
        for (int i = 0; i < n; i++) {
            uint64_t x = place_hand(p, order[i], code[i]);
            if (x == UINT64_MAX) {
                *lost = 1;
                return -1;
            }
            out[r0 + i] = x;
        }
        if (bad >= 0)
            return r0 + bad;
    }
    return -1;
}

/* index_rows(hands, counts, codes, offsets, slots, out) -> int: the index
 * (uint64) of each (N, k) uint8 row of cards under a plan of k cards; the
 * first row with a card over 51 or a card twice, or -1 (rows before it are
 * written). */
PyObject *core_index_rows(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    Buffers bufs;
    Py_buffer *hb, *nb, *cb, *fb, *sb, *ob;
    if (parse_args(args, nargs, "index_rows(hands, counts, codes, offsets, slots, out)", &bufs, "rrrrrw", &hb, &nb,
                   &cb, &fb, &sb, &ob) < 0)
        return NULL;
    fill_tables();
    struct plan p;
    int loaded = load_plan(&p, nb, cb, fb, sb);
    if (loaded < 0)
        return release_args(&bufs, NULL, NULL);
    if (!loaded || hb->ndim != 2 || hb->itemsize != 1 || hb->shape[1] != p.cards || ob->itemsize != 8 ||
        ob->len != hb->shape[0] * 8) {
        free_plan(&p);
        return release_args(&bufs, index_error, NULL);
    }
    const unsigned char *hands = hb->buf;
    uint64_t *out = ob->buf;
    Py_ssize_t rows = hb->shape[0], bad = -1;
    int lost = 0;
    Py_BEGIN_ALLOW_THREADS
    switch (p.cards) {
    case 1:
        bad = index_block(&p, hands, rows, 1, out, &lost);
        break;
    case 2:
        bad = index_block(&p, hands, rows, 2, out, &lost);
        break;
    case 3:
        bad = index_block(&p, hands, rows, 3, out, &lost);
        break;
    case 4:
        bad = index_block(&p, hands, rows, 4, out, &lost);
        break;
    case 5:
        bad = index_block(&p, hands, rows, 5, out, &lost);
        break;
    case 6:
        bad = index_block(&p, hands, rows, 6, out, &lost);
        break;
    default:
        bad = index_block(&p, hands, rows, 7, out, &lost);
        break;
    }
    Py_END_ALLOW_THREADS
    free_plan(&p);
    if (lost)
        return release_args(&bufs, "index_rows: a hand's configuration is not in the plan", NULL);
    return release_args(&bufs, NULL, PyLong_FromSsize_t(bad));
}

/* The largest a below `size` with mset[t][a] <= rank, for t = 2..4:
 * the index of a group's t-th suit from what is left of its rank. */
static inline uint32_t largest(uint64_t rank, int t, uint32_t size) {
    uint32_t lo = 0, hi = size; /* mset[t][0] = 0 <= rank; size <= 1716 */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (mset[t][mid] <= rank)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* The inverse of squeeze for one lane: m's ranks renumbered upwards over the held ones. */
static inline uint32_t spread(uint32_t m, uint32_t held) {
    while (held) {
        uint32_t low = (held & -held) - 1;
        m = (m & low) | ((m & ~low) << 1);
        held &= held - 1;
    }
    return m;
}

/* The hand of index x (below the plan's total), into row: the suit in
 * sorted place q is suit 3 - q, each round's cards in decreasing order. */
static void unindex_hand(const struct plan *p, uint64_t x, unsigned char *row) {
    uint32_t lo = 0, hi = p->n_codes; /* offset[lo] <= x < offset[hi] (the total at n_codes) */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (p->configs[mid].offset <= x)
            lo = mid;
        else
            hi = mid;
    }
    const struct config *c = &p->configs[lo];
    /* The groups' ranks, last group first, then the indices of their
     * suits, last first: a group's first suit takes what is left. */
    uint64_t rem = x - c->offset, rank = 0;
    uint32_t index[4];
    for (int q = 3; q >= 0; q--) {
        int t = c->t[q];
        if (q == 3 || c->t[q + 1] == 1) {
            rank = 0;
            if (c->group[q] > 1) { /* a division is slow, and suits that hold no card make groups of 1 */
                rank = rem % c->group[q];
                rem /= c->group[q];
            }
        }
        index[q] = t == 1 ? (uint32_t)rank : largest(rank, t, c->size[q]);
        rank -= t == 1 ? rank : mset[t][index[q]];
    }
    /* Each round's cards as a mask of card bits, read from the top. */
    uint64_t cards[MOST_ROUNDS] = {0};
    for (int q = 0; q < 4; q++) {
        uint32_t digit[MOST_ROUNDS], held = 0;
        int left[MOST_ROUNDS];
        for (int j = 0, n = 13; j < p->rounds; j++) {
            left[j] = n;
            n -= c->count[q][j];
        }
        for (int j = p->rounds - 1; j > 0; j--) {
            uint32_t radix = binom[left[j]][c->count[q][j]];
            digit[j] = 0;
            if (radix > 1) { /* as above: most suits sit some rounds out */
                digit[j] = index[q] % radix;
                index[q] /= radix;
            }
        }
        /* What is left is below C(13, count) for a plan that adds up;
         * for any other, a set in range all the same. */
        digit[0] = index[q] < binom[13][c->count[q][0]] ? index[q] : 0;
        for (int j = 0; j < p->rounds; j++) {
            uint32_t m = spread(colex_set[c->count[q][j]][digit[j]], held);
            held |= m;
            for (; m; m &= m - 1)
                cards[j] |= (uint64_t)1 << (4 * lowest_bit(m) + 3 - q);
        }
    }
    for (int j = 0, i = 0; j < p->rounds; j++)
        for (int a = 0; a < p->count[j]; a++) {
            int top = highest_bit64(cards[j]); /* a round holds count[j] cards: never empty here */
            row[i++] = (unsigned char)top;
            cards[j] ^= (uint64_t)1 << top;
        }
}

/* unindex_rows(indices, counts, codes, offsets, out) -> int: the hand of
 * each (N,) uint64 index under a plan of k cards, into the uint8 (N, k)
 * out; the first index out of range, or -1 (rows before it are written). */
PyObject *core_unindex_rows(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    Buffers bufs;
    Py_buffer *xb, *nb, *cb, *fb, *ob;
    if (parse_args(args, nargs, "unindex_rows(indices, counts, codes, offsets, out)", &bufs, "rrrrw", &xb, &nb, &cb,
                   &fb, &ob) < 0)
        return NULL;
    fill_tables();
    struct plan p;
    int loaded = load_plan(&p, nb, cb, fb, NULL);
    if (loaded < 0)
        return release_args(&bufs, NULL, NULL);
    if (!loaded || xb->ndim != 1 || xb->itemsize != 8 || ob->itemsize != 1 || ob->len != xb->shape[0] * p.cards) {
        free_plan(&p);
        return release_args(&bufs, unindex_error, NULL);
    }
    const uint64_t *indices = xb->buf;
    unsigned char *out = ob->buf;
    Py_ssize_t rows = xb->shape[0], bad = -1;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t r = 0; r < rows; r++) {
        uint64_t x = indices[r]; /* read once */
        if (x >= p.total) {
            bad = r;
            break;
        }
        unsigned char row[MOST_CARDS];
        unindex_hand(&p, x, row);
        memcpy(out + r * p.cards, row, (size_t)p.cards);
    }
    Py_END_ALLOW_THREADS
    free_plan(&p);
    return release_args(&bufs, NULL, PyLong_FromSsize_t(bad));
}
