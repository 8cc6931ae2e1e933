/* Exact showdowns of whole hands by counting boards instead of listing them,
 * for exact equity in hold'em.
 *
 * A completion of the board is a multiset of ranks and a suit for each of
 * its cards. Unless some suit ends up with five cards in a player's hand,
 * every player's value depends on the ranks alone, so each rank multiset of
 * the missing cards is scored once, weighted by the number of ways to pick
 * its cards from the deck. The boards that can make a flush are few: for
 * each suit, those whose cards of that suit have exactly the ranks `pick`
 * (enough of them to give some player five of the suit) are scored once per
 * pick, weighted by their number, and taken off the multiset's weight.
 *
 * No board gives flushes in two suits: with two hole cards a flush needs
 * three board cards of its suit, and five board cards do not hold three of
 * two suits. So the picks of different suits never overlap, and subtracting
 * them all from the multiset's weight leaves exactly its boards without a
 * flush. Heads-up before the flop this scores about 6,000
 * multisets and 40,000 flush picks where listing walks 1.7 million boards.
 * Values come from the keyed tables (the rank multisets) and the small flush
 * table, both derived from dag7 and tested against it on every hand. */

/* Long because it is one job in one unit: counting the showdowns of deals.
 * The multiset walk, the flush picks and the few-cards-to-come path share
 * struct deal and its scoring, and read best in the order they run. */

#include "core.h"

/* C(n, k) for n, k <= 4: ways to take k of the n cards of a rank left in the deck. */
static const int64_t c4[5][5] = {
    {1, 0, 0, 0, 0}, {1, 1, 0, 0, 0}, {1, 2, 1, 0, 0}, {1, 3, 3, 1, 0}, {1, 4, 6, 4, 1},
};

static const uint64_t pow5[13] = {
    1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125, 9765625, 48828125, 244140625,
};

/* For each set of a rank's four cards (a bit per suit): how many, and a
 * byte per suit that holds its bit. */
static const unsigned char four_bits[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
static const uint32_t by_suit[16] = {
    0x0,       0x1,       0x100,       0x101,       0x10000,   0x10001,   0x10100,   0x10101,
    0x1000000, 0x1000001, 0x1000100, 0x1000101, 0x1010000, 0x1010001, 0x1010100, 0x1010101,
};

/* For n = 0..5, the subsets of n things (bit masks), the largest first,
 * at picks[2^n - 1 .. 2^(n+1) - 2], and their sizes: the picks of at least
 * `need` of a multiset's n candidate ranks are a prefix of its block. */
static const unsigned char picks[63] = {
    0, 1, 0, 3, 1, 2, 0, 7, 3, 5, 6, 1, 2, 4, 0, 15, 7, 11, 13, 14, 3, 5, 6, 9, 10, 12, 1, 2, 4, 8, 0, 31, 15,
    23, 27, 29, 30, 7, 11, 13, 14, 19, 21, 22, 25, 26, 28, 3, 5, 6, 9, 10, 12, 17, 18, 20, 24, 1, 2, 4, 8, 16,
    0,
};
static const unsigned char pick_size[63] = {
    0, 1, 0, 2, 1, 1, 0, 3, 2, 2, 2, 1, 1, 1, 0, 4, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 0, 5, 4, 4, 4, 4,
    4, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 0,
};

/* One deal, set up for counting. */
struct deal {
    const Walker *w;
    int players, missing;
    int64_t *counts; /* players x (wins, ties, units) */
    int left[13];    /* cards of each rank left in the deck */
    unsigned suits[13]; /* which suits of each rank are left, a bit each */
    uint64_t base[9];   /* each player's rank key: hole cards and known board */
    unsigned held[9][4];    /* each player's ranks of each suit (13-bit masks) */
    int suited[9][4];       /* how many */
    int threat[4], n_threats; /* the suits that some board can give a flush */
    int need[4];              /* cards of that suit a board needs for the first flush */
    /* The multiset being scored: its distinct ranks and their counts. */
    int rank[5], count[5], distinct;
};

static inline void score(struct deal *d, const uint16_t *v, int64_t ways) {
    int64_t *c = d->counts;
    if (d->players == 2) {
        int k = v[0] > v[1] ? 0 : v[0] < v[1] ? 3 : -1;
        if (k >= 0) {
            c[k] += ways;
            c[k + 2] += ways * POT_UNITS;
        } else {
            c[1] += ways;
            c[4] += ways;
            c[2] += ways * (POT_UNITS / 2);
            c[5] += ways * (POT_UNITS / 2);
        }
        return;
    }
    uint16_t best = 0;
    for (int p = 0; p < d->players; p++)
        best = v[p] > best ? v[p] : best;
    int top = 0;
    for (int p = 0; p < d->players; p++)
        top += v[p] == best;
    for (int p = 0; p < d->players; p++)
        if (v[p] == best) {
            c[3 * p + (top > 1)] += ways;
            c[3 * p + 2] += ways * pot_share[top];
        }
}

/* The boards of the multiset d->rank/count of the missing cards that give
 * some player a flush in suit s (a threat), scored a pick at a time; `v`
 * holds each player's value on the multiset's other boards. Returns how
 * many boards they were. */
static inline int64_t score_flushes(struct deal *d, int s, const uint16_t *v) {
    const uint16_t *flush = d->w->flush;
    uint16_t f[9];
    int64_t boards = 0;
    /* For each drawn rank: the ways to draw its cards with one of suit s
     * among them (with) or none (without). */
    int64_t with[5], without[5];
    int cand[5], nc = 0;
    for (int j = 0; j < d->distinct; j++) {
        int r = d->rank[j], has = (int)(d->suits[r] >> s & 1);
        without[j] = c4[d->left[r] - has][d->count[j]];
        with[j] = has ? c4[d->left[r] - 1][d->count[j] - 1] : 0;
        if (has)
            cand[nc++] = j;
    }
    for (int q = (1 << nc) - 1; q < (2 << nc) - 1 && pick_size[q] >= d->need[s]; q++) {
        unsigned pick = picks[q];
        int size = pick_size[q];
        int64_t n = 1;
        unsigned mask = 0, in = 0;
        for (int k = 0; k < nc; k++)
            if (pick >> k & 1) {
                in |= 1u << cand[k];
                mask |= 1u << d->rank[cand[k]];
            }
        for (int j = 0; j < d->distinct; j++)
            n *= in >> j & 1 ? with[j] : without[j];
        if (n == 0)
            continue;
        for (int p = 0; p < d->players; p++)
            f[p] = d->suited[p][s] + size >= 5 ? flush[d->held[p][s] | mask] : v[p];
        score(d, f, n);
        boards += n;
    }
    return boards;
}

/* Score the multiset d->rank/count of the missing cards, which can be
 * drawn in `ways` ways, adding up to `key`. */
static void score_multiset(struct deal *d, uint64_t key, int64_t ways) {
    const struct keyed *t = &d->w->keyed[2];
    uint16_t v[9];
    for (int p = 0; p < d->players; p++)
        v[p] = t->value[keyed_slot(t, (uint32_t)(d->base[p] + key))];
    for (int i = 0; i < d->n_threats; i++)
        ways -= score_flushes(d, d->threat[i], v);
    score(d, v, ways);
}

/* Every multiset of `left` more cards from ranks r..12, each rank at most as
 * often as it is left in the deck. */
static void each_multiset(struct deal *d, int r, int left, uint64_t key, int64_t ways) {
    if (left == 0) {
        score_multiset(d, key, ways);
        return;
    }
    if (r == 13)
        return;
    each_multiset(d, r + 1, left, key, ways);
    int most = d->left[r] < left ? d->left[r] : left;
    for (int k = 1; k <= most; k++) {
        d->rank[d->distinct] = r;
        d->count[d->distinct] = k;
        d->distinct++;
        each_multiset(d, r + 1, left - k, key + (uint64_t)k * pow5[r], ways * c4[d->left[r]][k]);
        d->distinct--;
    }
}

/* Set up one deal (cards checked: distinct, 0..51). */
static void set_up(struct deal *d, const unsigned char *holes, const unsigned char *known, int k,
                  const unsigned char *dead, int n_dead) {
    memset(d->held, 0, sizeof d->held);
    memset(d->suited, 0, sizeof d->suited);
    unsigned board_ranks[4] = {0};
    int board_suited[4] = {0};
    uint64_t board_key = 0, used = 0;
    for (int i = 0; i < k; i++) {
        board_ranks[known[i] & 3] |= 1u << (known[i] >> 2);
        board_suited[known[i] & 3]++;
        board_key += pow5[known[i] >> 2];
        used |= (uint64_t)1 << known[i];
    }
    for (int i = 0; i < n_dead; i++)
        used |= (uint64_t)1 << dead[i];
    int most[4] = {0};
    for (int p = 0; p < d->players; p++) {
        d->base[p] = board_key;
        for (int s = 0; s < 4; s++) {
            d->held[p][s] = board_ranks[s];
            d->suited[p][s] = board_suited[s];
        }
        for (int j = 0; j < 2; j++) {
            int c = holes[2 * p + j];
            used |= (uint64_t)1 << c;
            d->base[p] += pow5[c >> 2];
            d->held[p][c & 3] |= 1u << (c >> 2);
            d->suited[p][c & 3]++;
        }
        for (int s = 0; s < 4; s++)
            most[s] = d->suited[p][s] > most[s] ? d->suited[p][s] : most[s];
    }
    /* The cards left of each suit, a byte each. */
    uint32_t in_suit = 0;
    for (int r = 0; r < 13; r++) {
        unsigned free = (unsigned)(~used >> (4 * r)) & 15;
        d->left[r] = four_bits[free];
        d->suits[r] = free;
        in_suit += by_suit[free];
    }
    d->n_threats = 0;
    for (int s = 0; s < 4; s++) {
        d->need[s] = 5 - most[s] > 0 ? 5 - most[s] : 0;
        if (d->need[s] <= d->missing && d->need[s] <= (int)(in_suit >> (8 * s) & 255))
            d->threat[d->n_threats++] = s;
    }
    d->distinct = 0;
}

/* With at most two cards to come (the flop, the turn, the river) a call's
 * deals share their rank multisets of the missing cards, at most 91, so
 * they are counted once per call rather than once per deal:
 *
 * - Without a flush a player's value depends on the ranks alone: of their
 *   hole cards, the known board and the multiset. So each pair of hole
 *   ranks is valued once per multiset (`ranks`), whichever deals hold it.
 * - A multiset's weight, the ways to draw it, depends only on how many
 *   cards of each rank are left, which the players' hole ranks fix. So a
 *   deal's counts as if no board made a flush depend only on its players'
 *   hole ranks: they are scored once per such tuple (a `group`) and added
 *   to every deal of the tuple.
 * - A deal that some board can give a flush then takes its flush boards,
 *   found by suit and pick as in score_flushes, off their multisets'
 *   counts and adds them back with their flush values. The counts are
 *   sums over boards, so adding and taking off in any order gives exactly
 *   what scoring each board once does. */

#define FEW_MISSING 2
#define MAX_SETS 91   /* multisets of two ranks: 13 pairs and 78 of two ranks */
#define RANK_PAIRS 91 /* pairs of hole ranks */
#define MAX_GROUPS 4096

struct few {
    int n;                            /* multisets of the missing cards */
    /* Each multiset's ranks and counts; a multiset of fewer distinct ranks
     * has rank 13 (no card left) taken 0 times in their place. */
    int rank[MAX_SETS][FEW_MISSING], count[MAX_SETS][FEW_MISSING], distinct[MAX_SETS];
    uint64_t key[MAX_SETS];           /* the multiset's rank key */
    int at[13][13];                   /* the multiset of ranks a < b, one card each (two missing cards) */
    unsigned mask[MAX_SETS];          /* its ranks, a bit each */
    uint64_t board_key;               /* the known board's rank key */
    int board_count[13];              /* the known board's cards of each rank */
    int board_suited[4], board_most;  /* and of each suit, and the most of one suit */
    unsigned char valued[RANK_PAIRS]; /* whether ranks[pair] is filled */
    uint16_t ranks[RANK_PAIRS][MAX_SETS]; /* a hole rank pair's value on each multiset, without a flush */
};

static int pair_index(int a, int b) {
    int lo = a < b ? a : b, hi = a < b ? b : a;
    return hi * (hi + 1) / 2 + lo;
}

static void add_set(struct few *f, int a, int count_a, int b, int count_b) {
    int i = f->n++;
    if (count_a == 1 && count_b == 1)
        f->at[a][b] = i;
    f->rank[i][0] = a, f->count[i][0] = count_a;
    f->rank[i][1] = b, f->count[i][1] = count_b;
    f->distinct[i] = (count_a > 0) + (count_b > 0);
    f->key[i] = (count_a ? count_a * pow5[a] : 0) + (count_b ? count_b * pow5[b] : 0);
    f->mask[i] = (count_a ? 1u << a : 0) | (count_b ? 1u << b : 0);
}

/* The multisets of `missing` (at most 2) cards that a deck of `left` cards
 * of each rank deals. */
static void list_sets(struct few *f, int missing, const int *left) {
    f->n = 0;
    for (int a = 0; a < 13; a++)
        for (int b = 0; b < 13; b++)
            f->at[a][b] = -1;
    if (missing == 0)
        add_set(f, 13, 0, 13, 0);
    for (int a = 0; a < 13 && missing > 0; a++) {
        if (missing == 1) {
            if (left[a] >= 1)
                add_set(f, a, 1, 13, 0);
            continue;
        }
        if (left[a] >= 2)
            add_set(f, a, 2, 13, 0);
        for (int b = a + 1; b < 13; b++)
            if (left[a] >= 1 && left[b] >= 1)
                add_set(f, a, 1, b, 1);
    }
}

/* Value hole ranks a, b on every multiset (0 where the ranks would be held
 * more than four times: no deal of these hole ranks draws that multiset). */
static void value_ranks(struct few *f, const struct keyed *t, int a, int b) {
    uint16_t *out = f->ranks[pair_index(a, b)];
    int held[14];
    for (int r = 0; r < 13; r++)
        held[r] = f->board_count[r] + (r == a) + (r == b);
    held[13] = 0;
    uint64_t key = f->board_key + pow5[a] + pow5[b];
    for (int m = 0; m < f->n; m++) {
        int ok = held[f->rank[m][0]] + f->count[m][0] <= 4 && held[f->rank[m][1]] + f->count[m][1] <= 4;
        out[m] = ok ? t->value[keyed_slot(t, (uint32_t)(key + f->key[m]))] : 0;
    }
    f->valued[pair_index(a, b)] = 1;
}

/* Heads-up: `first` boards won by the first player, `second` by the
 * second and `tied` split, added to their counts c (2 x 3). */
static void add_heads_up(int64_t *c, int64_t first, int64_t second, int64_t tied) {
    c[0] += first, c[1] += tied, c[2] += first * POT_UNITS + tied * (POT_UNITS / 2);
    c[3] += second, c[4] += tied, c[5] += second * POT_UNITS + tied * (POT_UNITS / 2);
}

/* A deal's counts as if no board made a flush, into out (players x 3):
 * each multiset's boards scored with the rank values of `rows`. */
static void score_ranks(struct deal *d, const struct few *f, const uint16_t *const *rows, int64_t *out) {
    int left[14];
    memcpy(left, d->left, sizeof d->left);
    left[13] = 0;
    if (d->players == 2) {
        /* Branch-free sums of the boards each player wins and ties. */
        const uint16_t *x = rows[0], *y = rows[1];
        int64_t first = 0, second = 0, tied = 0;
        for (int m = 0; m < f->n; m++) {
            int64_t w = c4[left[f->rank[m][0]]][f->count[m][0]] * c4[left[f->rank[m][1]]][f->count[m][1]];
            first += x[m] > y[m] ? w : 0;
            second += x[m] < y[m] ? w : 0;
            tied += x[m] == y[m] ? w : 0;
        }
        memset(out, 0, 6 * sizeof *out);
        add_heads_up(out, first, second, tied);
        return;
    }
    int64_t *counts = d->counts; /* score adds to d->counts: out for now */
    d->counts = out;
    memset(out, 0, (size_t)d->players * 3 * sizeof *out);
    uint16_t v[9];
    for (int m = 0; m < f->n; m++) {
        int64_t w = c4[left[f->rank[m][0]]][f->count[m][0]] * c4[left[f->rank[m][1]]][f->count[m][1]];
        if (w == 0)
            continue;
        for (int p = 0; p < d->players; p++)
            v[p] = rows[p][m];
        score(d, v, w);
    }
    d->counts = counts;
}

/* The tuples of hole ranks a call has scored (score_ranks): open
 * addressing, at most half full, so that a lookup stops soon. */
struct groups {
    uint32_t slots;  /* a power of two: at least twice `most` */
    int most, n;     /* tuples it may hold, and holds */
    uint64_t *key;   /* each slot's tuple, or no_tuple */
    int32_t *group;  /* each slot's row of counts */
    int64_t *rows;   /* most + 1 rows of players x 3 counts, the last for a tuple that finds the table full */
};

static const uint64_t no_tuple = ~(uint64_t)0; /* no tuple's key: 7 bits a player, 63 at most */

/* The counts of the tuple `key` as if no board made a flush, or NULL if not scored yet. */
static const int64_t *find_tuple(const struct groups *g, uint64_t key, int width, uint32_t *slot) {
    uint32_t i = (uint32_t)((key * 0x9E3779B97F4A7C15u) >> 32) & (g->slots - 1);
    while (g->key[i] != no_tuple && g->key[i] != key)
        i = (i + 1) & (g->slots - 1);
    *slot = i;
    return g->key[i] == key ? g->rows + (size_t)g->group[i] * width : NULL;
}

/* Score the tuple `key` (hole rank rows `ranks`, the deal set up in d) as
 * if no board made a flush, and keep it at `slot` while the table has room. */
static const int64_t *add_tuple(struct deal *d, const struct few *f, struct groups *g, uint64_t key, uint32_t slot,
                                const uint16_t *const *ranks) {
    int64_t *row = g->rows + (size_t)(g->n < g->most ? g->n : g->most) * 3 * d->players;
    score_ranks(d, f, ranks, row);
    if (g->n < g->most) {
        g->key[slot] = key;
        g->group[slot] = g->n++;
    }
    return row;
}

/* Whether x has at least n bits set. */
static int at_least(unsigned x, int n) {
    for (; n > 0; n--, x &= x - 1)
        if (x == 0)
            return 0;
    return 1;
}

/* Multiset m's boards that make a flush of suit s: moved from the values
 * `ranks` (a row per player) to their flush values. */
static void move_flushes(struct deal *d, const struct few *f, int s, int m, const uint16_t *const *ranks) {
    uint16_t v[9] = {0};
    d->distinct = f->distinct[m];
    for (int j = 0; j < d->distinct; j++) {
        d->rank[j] = f->rank[m][j];
        d->count[j] = f->count[m][j];
    }
    for (int p = 0; p < d->players; p++)
        v[p] = ranks[p][m];
    int64_t moved = score_flushes(d, s, v);
    if (moved)
        score(d, v, -moved);
}

/* move_flushes where two cards are missing and a flush needs both of suit
 * s: its only flush boards are the pairs of its ranks left, `live`, one
 * board each (the pick of both ranks, whose with-ways are 1), and a player
 * with three of the suit already flushes on each. */
static void move_suited_pairs(struct deal *d, const struct few *f, int s, unsigned live,
                              const uint16_t *const *ranks) {
    const uint16_t *flush = d->w->flush;
    if (d->players == 2) {
        /* The boards each player wins and ties with the flushes, less those without. */
        const uint16_t *x0 = ranks[0], *x1 = ranks[1];
        unsigned h0 = d->held[0][s], h1 = d->held[1][s];
        int flush0 = d->suited[0][s] >= 3, flush1 = d->suited[1][s] >= 3;
        int64_t first = 0, second = 0, tied = 0;
        for (unsigned x = live; x; x &= x - 1)
            for (unsigned y = x & (x - 1); y; y &= y - 1) {
                int a = lowest_bit(x), b = lowest_bit(y), m = f->at[a][b];
                unsigned mask = 1u << a | 1u << b;
                int v0 = x0[m], v1 = x1[m];
                int f0 = flush0 ? flush[h0 | mask] : v0, f1 = flush1 ? flush[h1 | mask] : v1;
                first += (f0 > f1) - (v0 > v1);
                second += (f0 < f1) - (v0 < v1);
                tied += (f0 == f1) - (v0 == v1);
            }
        add_heads_up(d->counts, first, second, tied);
        return;
    }
    uint16_t v[9] = {0}, fv[9] = {0};
    for (unsigned x = live; x; x &= x - 1)
        for (unsigned y = x & (x - 1); y; y &= y - 1) {
            int a = lowest_bit(x), b = lowest_bit(y), m = f->at[a][b];
            unsigned mask = 1u << a | 1u << b;
            for (int p = 0; p < d->players; p++) {
                v[p] = ranks[p][m];
                fv[p] = d->suited[p][s] >= 3 ? flush[d->held[p][s] | mask] : v[p];
            }
            score(d, fv, 1);
            score(d, v, -1);
        }
}

/* Count `deals` deals with at most two missing cards into counts and games:
 * each deal set up in turn in d, the rank values kept in f, the tuples of
 * hole ranks in g (empty). */
static void count_few(struct deal *d, struct few *f, struct groups *g, const unsigned char *holes,
                      const unsigned char *known, int k, const unsigned char *dead, int n_dead, Py_ssize_t deals,
                      int64_t *counts, int64_t *games, int64_t boards) {
    const struct keyed *t = &d->w->keyed[2];
    int players = d->players, width = 3 * players;
    for (Py_ssize_t i = 0; i < deals; i++) {
        const unsigned char *h = holes + (size_t)i * 2 * players;
        int64_t *c = counts + i * width;
        const uint16_t *ranks[9];
        uint64_t key = 0;
        for (int p = 0; p < players; p++) {
            int a = h[2 * p] >> 2, b = h[2 * p + 1] >> 2, pair = pair_index(a, b);
            if (!f->valued[pair])
                value_ranks(f, t, a, b);
            ranks[p] = f->ranks[pair];
            key |= (uint64_t)pair << (7 * p);
        }
        /* Set up in full only for a new tuple or a deal that a board may
         * give a flush: five of a suit with the board and hole cards. */
        int ready = 0;
        uint32_t slot;
        const int64_t *row = find_tuple(g, key, width, &slot);
        if (row == NULL) {
            set_up(d, h, known, k, dead, n_dead);
            ready = 1;
            row = add_tuple(d, f, g, key, slot, ranks);
        }
        for (int j = 0; j < width; j++)
            c[j] += row[j];
        games[i] += boards;
        int most = f->board_most; /* the most cards of one suit a player has with the board */
        for (int p = 0; p < players; p++) {
            int x = h[2 * p] & 3, y = h[2 * p + 1] & 3, both = 1 + (x == y);
            int nx = f->board_suited[x] + both, ny = f->board_suited[y] + both;
            most = nx > most ? nx : most;
            most = ny > most ? ny : most;
        }
        if (most + d->missing < 5)
            continue;
        if (!ready)
            set_up(d, h, known, k, dead, n_dead);
        /* For each suit some board can give a flush, the multisets that
         * can draw enough of its cards: their flush boards moved to their
         * flush values. */
        d->counts = c;
        for (int j = 0; j < d->n_threats; j++) {
            int s = d->threat[j], need = d->need[s];
            unsigned live = 0;
            for (int r = 0; r < 13; r++)
                live |= (d->suits[r] >> s & 1u) << r;
            if (d->missing == 2 && need == 2)
                move_suited_pairs(d, f, s, live, ranks);
            else
                for (int m = 0; m < f->n; m++)
                    if (at_least(f->mask[m] & live, need))
                        move_flushes(d, f, s, m, ranks);
        }
    }
}

/* count_showdowns(holes, known, dead, counts, games) -> bool: for each deal
 * (row of `holes`, uint8 (deals, players, 2)), every completion of the
 * `known` board cards from the cards no one holds and not `dead`: each
 * player's wins alone, ties and pot shares in 1/POT_UNITS units added to
 * counts[deal][player][0..2] (int64), and the completions to games[deal]
 * (int64). False, with nothing written, when these tables cannot count
 * (not hold'em's, or the keyed tables do not stand for the DAG): then list
 * the boards. */
PyObject *Walker_count_showdowns(Walker *self, PyObject *const *args, Py_ssize_t nargs) {
    Buffers bufs;
    Py_buffer *hb, *kb, *db, *cb, *gb;
    if (parse_args(args, nargs, "count_showdowns(holes, known, dead, counts, games)", &bufs, "rrrww", &hb, &kb, &db,
                   &cb, &gb) < 0)
        return NULL;
    const char *error = NULL;
    Py_ssize_t deals = 0;
    int players = 0, k = (int)kb->len, n_dead = (int)db->len;
    if (hb->ndim != 3 || hb->itemsize != 1 || hb->shape[2] != 2 || kb->itemsize != 1 || db->itemsize != 1 ||
        cb->itemsize != 8 || gb->itemsize != 8)
        error = "count_showdowns takes uint8 (deals, players, 2) holes, uint8 known and dead cards, "
                "int64 counts and games";
    else {
        deals = hb->shape[0];
        players = (int)hb->shape[1];
        if (players < 2 || players > 9)
            error = "count_showdowns takes 2 to 9 players";
        else if (k > 5 || n_dead > 52)
            error = "count_showdowns takes at most 5 known cards and 52 dead ones";
        else if (cb->len != deals * players * 3 * 8 || gb->len != deals * 8)
            error = "counts must be (deals, players, 3) and games (deals,)";
    }
    if (error != NULL)
        return release_args(&bufs, error, NULL);
    if (ensure_keyed(self) < 0)
        return release_args(&bufs, NULL, NULL);
    if (!self->keyed_ok)
        return release_args(&bufs, NULL, Py_NewRef(Py_False));
    /* The cards are checked and counted from copies, which cannot change
     * while the GIL is released (the caller's arrays can). */
    unsigned char known[5], dead[52];
    memcpy(known, kb->buf, (size_t)k);
    memcpy(dead, db->buf, (size_t)n_dead);
    size_t n_cards = (size_t)deals * (size_t)players * 2;
    unsigned char *holes = PyMem_Malloc(n_cards ? n_cards : 1);
    if (holes == NULL)
        return release_args(&bufs, NULL, PyErr_NoMemory());
    memcpy(holes, hb->buf, n_cards);
    uint64_t fixed = 0;
    for (int i = 0; i < k + n_dead && error == NULL; i++) {
        int c = i < k ? known[i] : dead[i - k];
        if (c > 51 || (fixed >> c & 1))
            error = "known and dead cards must be distinct cards 0..51";
        fixed |= (uint64_t)1 << c;
    }
    int missing = 5 - k, n_fixed = k + n_dead;
    if (error == NULL && 52 - n_fixed - 2 * players < missing)
        error = "too few cards left to complete the board";
    for (Py_ssize_t i = 0; i < deals && error == NULL; i++) {
        uint64_t used = fixed;
        for (int j = 0; j < 2 * players; j++) {
            int c = holes[(size_t)i * 2 * players + j];
            if (c > 51 || (used >> c & 1))
                error = "each deal's hole cards must be distinct cards 0..51, not known or dead";
            used |= (uint64_t)1 << c;
        }
    }
    if (error == NULL) {
        struct deal d = {.w = self, .players = players, .missing = missing};
        int64_t *counts = cb->buf, *games = gb->buf;
        /* Every completion: C(cards left, missing). */
        int64_t boards = 1;
        for (int j = 0; j < missing; j++)
            boards = boards * (52 - n_fixed - 2 * players - j) / (j + 1);
        /* With few cards to come, room for the rank values and the tuples of hole ranks. */
        struct few *f = NULL;
        struct groups g = {.most = deals < MAX_GROUPS ? (int)deals : MAX_GROUPS, .slots = 16};
        if (missing <= FEW_MISSING && deals > 0) {
            while (g.slots < 2u * (uint32_t)g.most)
                g.slots <<= 1;
            f = PyMem_Malloc(sizeof *f);
            g.key = PyMem_Malloc(g.slots * sizeof *g.key);
            g.group = PyMem_Malloc(g.slots * sizeof *g.group);
            g.rows = PyMem_Malloc((size_t)(g.most + 1) * 3 * (size_t)players * sizeof *g.rows);
            if (f == NULL || g.key == NULL || g.group == NULL || g.rows == NULL) {
                PyMem_Free(f), PyMem_Free(g.key), PyMem_Free(g.group), PyMem_Free(g.rows), PyMem_Free(holes);
                return release_args(&bufs, NULL, PyErr_NoMemory());
            }
        }
        Py_BEGIN_ALLOW_THREADS
        if (f != NULL) {
            int left[13];
            f->board_key = 0;
            memset(f->board_count, 0, sizeof f->board_count);
            memset(f->board_suited, 0, sizeof f->board_suited);
            f->board_most = 0;
            for (int i = 0; i < k; i++) {
                f->board_count[known[i] >> 2]++;
                f->board_suited[known[i] & 3]++;
                f->board_most = f->board_suited[known[i] & 3] > f->board_most ? f->board_suited[known[i] & 3]
                                                                                 : f->board_most;
                f->board_key += pow5[known[i] >> 2];
            }
            for (int r = 0; r < 13; r++)
                left[r] = 4 - four_bits[fixed >> (4 * r) & 15];
            list_sets(f, missing, left);
            memset(f->valued, 0, sizeof f->valued);
            for (uint32_t i = 0; i < g.slots; i++)
                g.key[i] = no_tuple;
            g.n = 0;
            count_few(&d, f, &g, holes, known, k, dead, n_dead, deals, counts, games, boards);
        } else
            for (Py_ssize_t i = 0; i < deals; i++) {
                set_up(&d, holes + (size_t)i * 2 * players, known, k, dead, n_dead);
                d.counts = counts + i * players * 3;
                each_multiset(&d, 0, missing, 0, 1);
                games[i] += boards;
            }
        Py_END_ALLOW_THREADS
        PyMem_Free(f), PyMem_Free(g.key), PyMem_Free(g.group), PyMem_Free(g.rows);
    }
    PyMem_Free(holes);
    return release_args(&bufs, error, error == NULL ? Py_NewRef(Py_True) : NULL);
}

