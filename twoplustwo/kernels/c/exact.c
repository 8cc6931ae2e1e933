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

#include "core.h"

/* C(n, k) for n, k <= 4: ways to take k of the n cards of a rank left in the deck. */
static const int64_t c4[5][5] = {
    {1, 0, 0, 0, 0}, {1, 1, 0, 0, 0}, {1, 2, 1, 0, 0}, {1, 3, 3, 1, 0}, {1, 4, 6, 4, 1},
};

static const uint64_t pow5[13] = {
    1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125, 9765625, 48828125, 244140625,
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
            c[k + 2] += ways * SPLIT;
        } else {
            c[1] += ways;
            c[4] += ways;
            c[2] += ways * (SPLIT / 2);
            c[5] += ways * (SPLIT / 2);
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

/* Score the multiset d->rank/count of the missing cards, which can be
 * drawn in `ways` ways, adding up to `key`. */
static void score_multiset(struct deal *d, uint64_t key, int64_t ways) {
    const struct keyed *t = &d->w->keyed[2];
    const uint16_t *flush = d->w->flush;
    uint16_t v[9], f[9];
    for (int p = 0; p < d->players; p++)
        v[p] = t->value[keyed_slot(t, d->base[p] + key)];
    for (int i = 0; i < d->n_threats; i++) {
        int s = d->threat[i];
        /* For each drawn rank: the ways to draw its cards with one of suit
         * s among them (with) or none (without). */
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
            ways -= n;
        }
    }
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
    int in_suit[4] = {0};
    for (int r = 0; r < 13; r++) {
        d->left[r] = 0;
        d->suits[r] = 0;
        for (int s = 0; s < 4; s++)
            if (!(used >> (4 * r + s) & 1)) {
                d->left[r]++;
                d->suits[r] |= 1u << s;
                in_suit[s]++;
            }
    }
    d->n_threats = 0;
    for (int s = 0; s < 4; s++) {
        d->need[s] = 5 - most[s] > 0 ? 5 - most[s] : 0;
        if (d->need[s] <= d->missing && d->need[s] <= in_suit[s])
            d->threat[d->n_threats++] = s;
    }
    d->distinct = 0;
}

/* count_showdowns(holes, known, dead, counts, games) -> bool: for each deal
 * (row of `holes`, uint8 (deals, players, 2)), every completion of the
 * `known` board cards from the cards no one holds and not `dead`: each
 * player's wins alone, ties and pot shares in 1/SPLIT units added to
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
        Py_BEGIN_ALLOW_THREADS
        for (Py_ssize_t i = 0; i < deals; i++) {
            set_up(&d, holes + (size_t)i * 2 * players, known, k, dead, n_dead);
            d.counts = counts + i * players * 3;
            each_multiset(&d, 0, missing, 0, 1);
            games[i] += boards;
        }
        Py_END_ALLOW_THREADS
    }
    PyMem_Free(holes);
    return release_args(&bufs, error, error == NULL ? Py_NewRef(Py_True) : NULL);
}

