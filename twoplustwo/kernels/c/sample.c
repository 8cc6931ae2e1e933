/* Monte Carlo hold'em games played whole in C: sample_games deals a batch
 * of games from counter-based random words, values every hand through the
 * keyed tables (keyed.c) and tallies the pots, with the GIL released. It
 * serves the sampled equity of players who each hold one fixed hand or a
 * uniformly random one (twoplustwo.odds.sampler); the numpy reference,
 * twoplustwo/kernels/numpy/sample.py, plays the very same games.
 *
 * The generator is part of what a seed means, so it is fixed here, bit for
 * bit (numpy/sample.py says the same). All arithmetic is modulo 2^64. A batch
 * has a 64-bit key (from its SeedSequence), and game g = 0, 1, ... of the
 * batch reads the words
 *   word(g, j) = mix(key + (j * 2^32 + g) * GAMMA), j = 0, 1, ...
 * where GAMMA = 0x9E3779B97F4A7C15 and mix is the splitmix64 finalizer
 * (z ^= z >> 30, z *= 0xBF58476D1CE4E5B9, z ^= z >> 27,
 * z *= 0x94D049BB133111EB, z ^= z >> 31): output number j * 2^32 + g of
 * SplitMix64 started at the key. So word j of the batch's games is a run
 * of consecutive SplitMix64 outputs, runs 2^32 apart (a batch has fewer
 * than 2^32 games), and a game's words depend on (key, g, j) alone: the
 * same whoever plays the game and whatever was played before.
 *
 * The deal. The cards that no fixed hand, board card or dead card holds,
 * in increasing order, are the deck d of `left` cards. Draw t = 0, 1, ...
 * takes a position p_t uniform in [0, s_t), s_t = left - t, deals d[p_t]
 * and moves the last live card d[s_t - 1] into its place (a partial
 * Fisher-Yates shuffle, from the sorted deck every game). Random players
 * take draws 2r and 2r + 1 (r: their order among the random players), the
 * missing board cards the rest.
 *
 * The positions come in groups: a group takes consecutive draws while the
 * product S of their bounds s_t stays at most 2^48, and reads the game's
 * next unused word x: for each draw in turn, x * s_t = p_t * 2^64 + x'
 * (p_t the high 64 bits of the 128-bit product, x' the low ones, the next
 * x). Then word * S = P * 2^64 + x_last, where P is the group's positions read
 * as one mixed-radix number in [0, S): this is Lemire's multiply-shift on
 * the range S. If x_last < 2^64 mod S the group is rejected and drawn again
 * from the next word; otherwise every P, and so every tuple of positions,
 * has exactly floor(2^64 / S) accepted words: exactly uniform, no modulo
 * bias. A group is rejected with odds under S / 2^64 <= 2^-16 (heads-up,
 * one word deals a whole game, rejected with odds near 3e-9).
 *
 * Every ordered deal of distinct cards is equally likely, so the deal is
 * uniform over the compatible deals: for random players, whose ranges hold
 * every combo of the cards left with equal weights, that is exactly the
 * distribution whole-deal rejection samples.
 */

#include "core.h"

#define RANDOM_CARD 255 /* both cards of a random player's row of `hands` */
#define MAX_PLAYERS 9
#define MAX_DRAWS (2 * MAX_PLAYERS + 5)
#define COMBOS 1326
#define GAMMA 0x9E3779B97F4A7C15u
#define STRIDE (GAMMA << 32) /* from word j of a game to word j + 1: 2^32 * GAMMA */
#define GROUP_LIMIT ((uint64_t)1 << 48) /* the largest product of a group's bounds */

static inline uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

/* The high 64 bits of the 128-bit product x * y. */
static inline uint64_t mul_high(uint64_t x, uint64_t y) {
#if defined(__SIZEOF_INT128__)
    return (uint64_t)((unsigned __int128)x * y >> 64);
#else
    uint64_t xl = x & 0xFFFFFFFFu, xh = x >> 32, yl = y & 0xFFFFFFFFu, yh = y >> 32;
    uint64_t mid = (xl * yl >> 32) + (xh * yl & 0xFFFFFFFFu) + xl * yh;
    return xh * yh + (xh * yl >> 32) + (mid >> 32);
#endif
}

/* A batch's fixed inputs, copied from the caller's arrays before the GIL
 * is released: nothing the loop reads can change under it. */
struct table {
    int players, randoms, draws, left, known, groups;
    int random_of[MAX_PLAYERS];      /* r for the r-th random player, -1 for a fixed hand */
    int seat_of[MAX_PLAYERS];        /* the r-th random player's seat */
    unsigned char hole[MAX_PLAYERS][2];
    unsigned char board[5];          /* the known board cards */
    uint64_t deck[7];                /* its bytes: the cards left, increasing (words: a cheap copy) */
    int group_end[MAX_DRAWS];        /* group q: draws group_end[q - 1] (0 for q = 0) to group_end[q] - 1 */
    uint64_t reject[MAX_DRAWS];      /* group q's words are rejected below 2^64 mod S */
    uint64_t product[MAX_DRAWS];     /* group q's S */
    uint64_t prefix[MAX_DRAWS];      /* draw t: the product of the bounds of its group up to t */
};

/* The groups of draws and their rejection thresholds. */
static void fill_groups(struct table *tb) {
    int t = 0;
    tb->groups = 0;
    while (t < tb->draws) {
        uint64_t product = 1;
        while (t < tb->draws && product * (uint64_t)(tb->left - t) <= GROUP_LIMIT) {
            product *= (uint64_t)(tb->left - t);
            tb->prefix[t++] = product;
        }
        tb->group_end[tb->groups] = t;
        tb->product[tb->groups] = product;
        tb->reject[tb->groups++] = (0 - product) % product; /* 2^64 mod S */
    }
}

/* The row of {a, b} in COMBOS order (c1 < c2, c1 ascending, then c2). */
static inline int combo_of(int a, int b) {
    int lo = a < b ? a : b, hi = a ^ b ^ lo;
    return lo * (103 - lo) / 2 + hi - lo - 1;
}

/* How many players the set `mask` holds. */
static int winners_in(unsigned mask) {
    int k = 0;
    for (; mask; mask &= mask - 1)
        k++;
    return k;
}

/* The deal of game g, whose word j is mix(base + j * STRIDE), into
 * dealt[0..draws) while no group is rejected: -1 if one is (then
 * deal_slow deals the game). */
static inline int deal_fast(const struct table *tb, uint64_t base, unsigned char *dealt) {
    /* Each game shuffles its own copy of the sorted deck: a game's deal
     * must not depend on the games before it. */
    uint64_t deck_words[7];
    for (int k = 0; k < 7; k++)
        deck_words[k] = tb->deck[k];
    unsigned char *deck = (unsigned char *)deck_words;
    int bad = 0;
    uint32_t s = (uint32_t)tb->left;
    for (int q = 0, t = 0; q < tb->groups; q++) {
        /* The positions without the chain of products the definition
         * walks: with S_t the product of the group's bounds up to draw t,
         * word * S_t = P_t * 2^64 + x_t, where P_t reads the positions up
         * to t as a mixed-radix number, so p_t = P_t - P_(t-1) * s_t. The
         * products are independent, where the chain waited on each. */
        uint64_t x = mix(base + (uint64_t)q * STRIDE), before = 0;
        for (; t < tb->group_end[q]; t++, s--) {
            uint64_t upto = mul_high(x, tb->prefix[t]);
            uint32_t p = (uint32_t)(upto - before * s); /* < s <= 52 */
            before = upto;
            dealt[t] = deck[p];
            deck[p] = deck[s - 1];
        }
        bad |= x * tb->product[q] < tb->reject[q];
    }
    return -bad;
}

/* The deal of game g (words as for deal_fast) however many groups are rejected. */
static void deal_slow(const struct table *tb, uint64_t base, unsigned char *dealt) {
    uint64_t deck_words[7];
    memcpy(deck_words, tb->deck, sizeof deck_words);
    unsigned char *deck = (unsigned char *)deck_words;
    uint64_t j = 0; /* the next word(g, j) */
    for (int q = 0, t = 0; q < tb->groups; q++) {
        uint32_t at[MAX_DRAWS];
        uint64_t x;
        do { /* the definition, step by step */
            x = mix(base + j++ * STRIDE);
            for (int u = t; u < tb->group_end[q]; u++) {
                at[u] = (uint32_t)mul_high(x, (uint64_t)(tb->left - u));
                x *= (uint64_t)(tb->left - u);
            }
        } while (x < tb->reject[q]);
        for (; t < tb->group_end[q]; t++) {
            uint32_t s = (uint32_t)(tb->left - t);
            dealt[t] = deck[at[t]];
            deck[at[t]] = deck[s - 1];
        }
    }
}

/* The ranks player p holds in the suit of `five`'s set bit (a suit of five
 * or more cards), among the board and the hole cards of the deal `dealt`. */
static uint32_t suited_ranks(const struct table *tb, const unsigned char *dealt, int p, uint32_t five) {
    unsigned suit = five & 0x8u ? 0 : five & 0x80u ? 1 : five & 0x800u ? 2 : 3;
    int r = tb->random_of[p];
    unsigned char cards[7];
    memcpy(cards, tb->board, 5);
    memcpy(cards + tb->known, dealt + 2 * tb->randoms, (size_t)(tb->draws - 2 * tb->randoms));
    cards[5] = r < 0 ? tb->hole[p][0] : dealt[2 * r];
    cards[6] = r < 0 ? tb->hole[p][1] : dealt[2 * r + 1];
    uint32_t ranks = 0;
    for (int k = 0; k < 7; k++)
        ranks |= (cards[k] & 3) == suit ? 1u << (cards[k] >> 2) : 0;
    return ranks;
}

/* Games dealt, then valued, then scored together: the value lookups of a
 * block's hands are independent, so their cache misses overlap. */
#define BLOCK 64

/* Play games 0..n-1: winners[mask] counts the games won by the set of
 * players `mask` (bit p: player p), and random player r's games and units
 * per combo go to combos[2r * COMBOS + i] and [(2r + 1) * COMBOS + i].
 * Without keyed tables each hand walks dag7 instead: the same values. */
static inline void play_of(const Walker *w, int keyed, const struct table *tb, uint64_t key, uint64_t n,
                           int64_t *winners, int64_t *combos, const int players) {
    const struct keyed *t7 = &w->keyed[2];
    const uint16_t *flush = w->flush;
    const int draws = tb->draws, first_board = 2 * tb->randoms;
    /* What the fixed cards add up to, once for the batch. */
    uint64_t known_sum = 0, hole_sum[MAX_PLAYERS] = {0};
    for (int k = 0; k < tb->known; k++)
        known_sum += card_key[tb->board[k]];
    for (int p = 0; p < players; p++)
        if (tb->random_of[p] < 0)
            hole_sum[p] = card_key[tb->hole[p][0]] + card_key[tb->hole[p][1]];
    int64_t pay[1 << MAX_PLAYERS]; /* what each winner takes when the set `mask` wins */
    for (unsigned mask = 0; mask < 1u << players; mask++)
        pay[mask] = pot_share[winners_in(mask)];
    uint64_t sums[BLOCK * MAX_PLAYERS]; /* each hand's keys added up */
    uint32_t value[BLOCK * MAX_PLAYERS];
    uint16_t combo[BLOCK * MAX_PLAYERS]; /* a random player's combo, by COMBOS row */
    for (uint64_t g0 = 0; g0 < n; g0 += BLOCK) {
        int m = n - g0 < BLOCK ? (int)(n - g0) : BLOCK;
        /* Dealt, then added up, in passes of their own: the short loops
         * keep more games in flight than one long one (10% faster). */
        unsigned char deals[BLOCK][MAX_DRAWS];
        for (int i = 0; i < m; i++) {
            uint64_t base = key + (g0 + (uint64_t)i) * GAMMA;
            if (deal_fast(tb, base, deals[i]) < 0)
                deal_slow(tb, base, deals[i]);
        }
        for (int i = 0; i < m; i++) {
            const unsigned char *dealt = deals[i];
            uint64_t board_sum = known_sum;
            for (int t = first_board; t < draws; t++)
                board_sum += card_key[dealt[t]];
            for (int p = 0; p < players; p++) {
                int r = tb->random_of[p], at = i * players + p;
                uint64_t hs = hole_sum[p];
                if (r >= 0) {
                    unsigned char a = dealt[2 * r], b = dealt[2 * r + 1];
                    hs = card_key[a] + card_key[b];
                    combo[at] = (uint16_t)combo_of(a, b);
                }
                sums[at] = board_sum + hs;
                if (!keyed) {
                    unsigned char cards[7];
                    memcpy(cards, tb->board, (size_t)tb->known);
                    memcpy(cards + tb->known, dealt + first_board, (size_t)(draws - first_board));
                    cards[5] = r < 0 ? tb->hole[p][0] : dealt[2 * r];
                    cards[6] = r < 0 ? tb->hole[p][1] : dealt[2 * r + 1];
                    value[at] = dag_value(w, cards, 7);
                }
            }
        }
        /* A hand's value from its rank key (keyed.c's keyed_value), unless
         * a suit has five cards or more: then from that suit's ranks, found
         * from the cards, rather than adding up every hand's suit bits
         * for the few percent of hands that need them. */
        if (keyed)
            for (int i = 0; i < m; i++)
                for (int p = 0; p < players; p++) {
                    uint64_t sum = sums[i * players + p];
                    /* A suit's count of 5 or more sets its nibble's top bit once 3 is added. */
                    uint32_t five = ((uint32_t)(sum >> 32) + 0x3333u) & 0x8888u;
                    uint32_t v = t7->value[keyed_slot(t7, (uint32_t)sum)];
                    if (five)
                        v = flush[suited_ranks(tb, deals[i], p, five)];
                    value[i * players + p] = v;
                }
        /* Each game adds one to the count of its set of winners, a single
         * counter whoever won; wins, ties and units come from the counts. */
        for (int i = 0; i < m; i++) {
            const uint32_t *v = value + i * players;
            uint32_t best = 0;
            for (int p = 0; p < players; p++)
                best = v[p] > best ? v[p] : best;
            unsigned mask = 0;
            for (int p = 0; p < players; p++)
                mask |= (unsigned)(v[p] == best) << p;
            winners[mask]++;
            for (int r = 0; r < tb->randoms; r++) {
                int p = tb->seat_of[r], c = combo[i * players + p]; /* 0..1325: two distinct cards */
                combos[2 * r * COMBOS + c] += 1;
                /* No branch: one on who won was mispredicted often enough to cost 10%. */
                combos[(2 * r + 1) * COMBOS + c] += pay[mask] & -(int64_t)(mask >> p & 1);
            }
        }
    }
}

/* play_of with the number of players a constant, for the compiler to
 * unroll the loops over players (heads-up: 12% faster). A function of its
 * own: inlined into its caller, it was compiled as cold code (a `rep movs`
 * for the deck's copy, a division for a halving), at 60% of the speed. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void play(const Walker *w, int keyed, const struct table *tb, uint64_t key, uint64_t n, int64_t *winners,
                 int64_t *combos) {
    switch (tb->players) {
    case 2:
        play_of(w, keyed, tb, key, n, winners, combos, 2);
        break;
    case 3:
        play_of(w, keyed, tb, key, n, winners, combos, 3);
        break;
    case 4:
        play_of(w, keyed, tb, key, n, winners, combos, 4);
        break;
    case 5:
        play_of(w, keyed, tb, key, n, winners, combos, 5);
        break;
    case 6:
        play_of(w, keyed, tb, key, n, winners, combos, 6);
        break;
    default:
        play_of(w, keyed, tb, key, n, winners, combos, tb->players);
        break;
    }
}

/* Whether a buffer holds int64: 8-byte items of a signed letter. */
static int is_int64(const Py_buffer *b) {
    const char *f = b->format == NULL ? "" : b->format;
    if (*f == '<' || *f == '=' || *f == '@')
        f++;
    return b->itemsize == 8 && (strcmp(f, "q") == 0 || strcmp(f, "l") == 0);
}

/* sample_games(hands, board, dead, key, n, counts, combos) -> bool:
 * play games 0..n-1 of the batch whose key is `key`, each the deal
 * the generator above makes, and add their tallies.
 *   hands   uint8 (players, 2), 2 to 9 players: a fixed hand's two cards,
 *           or 255 twice for a player dealt a random hand
 *   board   uint8, the 0 to 5 known board cards; dead: uint8, dead cards
 *   key     an int, its low 64 bits read; n: 0 to 2^32 - 1 games
 *   counts  int64 (players, 5): each player's wins (pots won alone), ties
 *           (pots shared), units (pot shares in 1/POT_UNITS), squared units, games
 *   combos  int64 (random players, 2, 1326): each random player's games
 *           and units per combo, by COMBOS row
 * The cards of the hands, board and dead must be distinct cards 0..51, and
 * enough must be left to deal. Returns False, adding nothing, for a walker
 * of another game (it has no hold'em values); else True. Hands are valued
 * through the keyed tables (built on the first call), or down dag7 where
 * those cannot stand for the tables (the same values, slower). */
PyObject *Walker_sample_games(Walker *self, PyObject *const *args, Py_ssize_t nargs) {
    Buffers bufs;
    Py_buffer *hb, *bb, *db, *cb, *kb;
    uint64_t key;
    long n;
    if (parse_args(args, nargs, "sample_games(hands, board, dead, key, n, counts, combos)", &bufs, "rrrmlww", &hb,
                   &bb, &db, &key, &n, &cb, &kb) < 0)
        return NULL;
    struct table tb;
    memset(&tb, 0, sizeof tb);
    const char *error = NULL;
    if (hb->ndim != 2 || hb->itemsize != 1 || hb->shape[1] != 2 || hb->shape[0] < 2 || hb->shape[0] > MAX_PLAYERS)
        error = "hands must be a C-contiguous (players, 2) uint8 array of 2 to 9 players";
    else if (bb->ndim != 1 || bb->itemsize != 1 || bb->shape[0] > 5)
        error = "board must be a uint8 array of 0 to 5 cards";
    else if (db->ndim != 1 || db->itemsize != 1)
        error = "dead must be a uint8 array of cards";
    else if (n < 0 || (uint64_t)n > UINT32_MAX)
        error = "n must be 0 to 2**32 - 1 games";
    if (error != NULL)
        return release_args(&bufs, error, NULL);
    tb.players = (int)hb->shape[0];
    tb.known = (int)bb->shape[0];
    /* Everything read once, into tb: the caller may change its arrays
     * while the GIL is released. */
    const unsigned char *h = hb->buf;
    uint64_t taken = 0;
    int twice = 0, bad_card = 0;
    for (int p = 0; p < tb.players; p++) {
        unsigned char a = h[2 * p], b = h[2 * p + 1];
        tb.hole[p][0] = a, tb.hole[p][1] = b;
        if (a == RANDOM_CARD && b == RANDOM_CARD) {
            tb.seat_of[tb.randoms] = p;
            tb.random_of[p] = tb.randoms++;
            continue;
        }
        tb.random_of[p] = -1;
        bad_card |= a > 51 || b > 51;
        if (a <= 51 && b <= 51) {
            twice |= a == b || (taken >> a & 1) || (taken >> b & 1);
            taken |= (uint64_t)1 << a | (uint64_t)1 << b;
        }
    }
    const unsigned char *bc = bb->buf, *dc = db->buf;
    for (int k = 0; k < tb.known && k < 5; k++)
        tb.board[k] = bc[k];
    for (Py_ssize_t k = 0; k < tb.known + db->shape[0]; k++) {
        unsigned char c = k < tb.known ? tb.board[k] : dc[k - tb.known];
        bad_card |= c > 51;
        if (c <= 51) {
            twice |= (int)(taken >> c & 1);
            taken |= (uint64_t)1 << c;
        }
    }
    unsigned char *deck = (unsigned char *)tb.deck;
    for (int c = 0; c < 52; c++)
        if (!(taken >> c & 1))
            deck[tb.left++] = (unsigned char)c;
    tb.draws = 2 * tb.randoms + 5 - tb.known;
    if (bad_card)
        error = "a hand is two cards 0..51, or 255 twice for a random hand; board and dead cards are 0..51";
    else if (twice)
        error = "a card is held twice among the hands, the board and the dead cards";
    else if (tb.left < tb.draws)
        error = "too few cards are left to deal the random hands and the board";
    else if (!is_int64(cb) || cb->len != (Py_ssize_t)tb.players * 5 * 8)
        error = "counts must be a C-contiguous (players, 5) int64 array";
    else if (!is_int64(kb) || kb->len != (Py_ssize_t)tb.randoms * 2 * COMBOS * 8)
        error = "combos must be a C-contiguous (random players, 2, 1326) int64 array";
    if (error != NULL)
        return release_args(&bufs, error, NULL);
    if (self->deck != ALL_CARDS || self->dag[0].value != NULL || self->sizes != HIGH_SIZES) /* another game's walker */
        return release_args(&bufs, NULL, Py_NewRef(Py_False));
    if (ensure_keyed(self) < 0)
        return release_args(&bufs, NULL, NULL);
    fill_groups(&tb);
    int64_t winners[1 << MAX_PLAYERS];
    memset(winners, 0, sizeof winners);
    int64_t *counts = cb->buf, *per_combo = kb->buf;
    int keyed = self->keyed_ok;
    Py_BEGIN_ALLOW_THREADS
    play(self, keyed, &tb, key, (uint64_t)n, winners, per_combo);
    Py_END_ALLOW_THREADS
    for (unsigned mask = 1; mask < 1u << tb.players; mask++) {
        int k = winners_in(mask);
        int64_t games = winners[mask], units = pot_share[k];
        for (int p = 0; p < tb.players; p++)
            if (mask >> p & 1) {
                counts[5 * p] += k == 1 ? games : 0;
                counts[5 * p + 1] += k > 1 ? games : 0;
                counts[5 * p + 2] += games * units;
                counts[5 * p + 3] += games * units * units;
            }
    }
    for (int p = 0; p < tb.players; p++)
        counts[5 * p + 4] += n;
    return release_args(&bufs, NULL, Py_NewRef(Py_True));
}
