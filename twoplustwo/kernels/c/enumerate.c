/* Every hand or board of a kind, walked with shared prefixes walked once:
 * draw_values (each draw completing a dag7 walk), fill_ordered (every hand
 * in lexicographic order, for iter_hands), range_values (each combo of a
 * range on every board of a block, for exact range equity) and rank_combos
 * (each two-card combo finishing a walk, for rankings). */

#include "core.h"

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
PyObject *Walker_draw_values(Walker *self, PyObject *const *args, Py_ssize_t nargs) {
    Buffers bufs;
    long node, depth;
    Py_buffer *fr, *out;
    if (parse_args(args, nargs, "draw_values(node, depth, free, out)", &bufs, "llrw", &node, &depth, &fr, &out) < 0)
        return NULL;
    const struct dag *d = &self->dag[2];
    int m = (int)fr->len, t = 7 - (int)depth;
    /* The cards are checked and walked from this copy, which cannot change
     * while the GIL is released (the caller's array can). */
    unsigned char free[52];
    memcpy(free, fr->buf, (size_t)(m < 52 ? m : 52));
    const char *error = NULL;
    if (fr->itemsize != 1 || out->itemsize != 2 || depth < 0 || t < 1 || m > 52 || m < t)
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
        if ((double)(out->len / 2) != draws)
            error = "out must hold one entry per draw";
    }
    if (error != NULL)
        return release_args(&bufs, error, NULL);
    uint16_t *o = out->buf;
    Py_BEGIN_ALLOW_THREADS
    draw_walk(d, (int)depth, (uint32_t)node, free, m, t, 0, 0, &o);
    Py_END_ALLOW_THREADS
    return release_args(&bufs, NULL, Py_NewRef(Py_None));
}

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
PyObject *Walker_fill_ordered(Walker *self, PyObject *const *args, Py_ssize_t nargs) {
    Buffers bufs;
    long n, node0;
    long long r0;
    Py_buffer *fr, *inc, *cb, *vb;
    if (parse_args(args, nargs, "fill_ordered(n, node, free, include, r0, cards, values)", &bufs, "llrrLww", &n,
                   &node0, &fr, &inc, &r0, &cb, &vb) < 0)
        return NULL;
    int m = (int)fr->len, h = (int)inc->len, k = (int)n - h;
    /* The cards are checked and walked from copies, which cannot change
     * while the GIL is released (the caller's arrays can). */
    unsigned char free[52], held[MAX_DEPTH];
    memcpy(free, fr->buf, (size_t)(m < 52 ? m : 52));
    memcpy(held, inc->buf, (size_t)(h < MAX_DEPTH ? h : MAX_DEPTH));
    Py_ssize_t rows = vb->len / 2;
    const char *error = NULL;
    if (n < 5 || n > 7 || fr->itemsize != 1 || inc->itemsize != 1 || k < 1 || m > 52 || m < k)
        error = "fill_ordered takes n = 5..7, uint8 free cards (at least n - len(include)) and include cards";
    else if (cb->itemsize != 1 || vb->itemsize != 2 || cb->len != rows * n)
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
    if (error != NULL)
        return release_args(&bufs, error, NULL);
    const struct dag *d = &self->dag[n - 5];
    unsigned char *out = cb->buf;
    uint16_t *values = vb->buf;
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
    return release_args(&bufs, NULL, Py_NewRef(Py_None));
}

/* range_values(starts, held, depth, prefix, free, out): for each combo d, the
 * value of every board made of the cards `prefix` and a (7 - depth - p)-card
 * draw from the sorted cards `free` (lexicographic order), added to dag7 node
 * starts[d] (uint32) at `depth`, into row d of `out` (uint16, combos x
 * draws); 0 where the board holds a card of held[d] (uint64 masks). */
PyObject *Walker_range_values(Walker *self, PyObject *const *args, Py_ssize_t nargs) {
    Buffers bufs;
    long depth;
    Py_buffer *starts_buf, *held_buf, *prefix_buf, *free_buf, *out;
    if (parse_args(args, nargs, "range_values(starts, held, depth, prefix, free, out)", &bufs, "rrlrrw", &starts_buf,
                   &held_buf, &depth, &prefix_buf, &free_buf, &out) < 0)
        return NULL;
    const char *error = NULL;
    const struct dag *d = &self->dag[2];
    Py_ssize_t n = starts_buf->len / 4;
    int p = (int)prefix_buf->len, m = (int)free_buf->len, t = 7 - (int)depth - p;
    Py_ssize_t draws = (Py_ssize_t)binom(m, t);
    if (starts_buf->itemsize != 4 || held_buf->itemsize != 8 || prefix_buf->itemsize != 1 || free_buf->itemsize != 1 ||
        out->itemsize != 2 || held_buf->len != n * 8 || depth < 0 || p < 0 || t < 1 || m > 52 || m < t)
        error = "range_values takes uint32 starts, uint64 held, a depth, uint8 prefix and free cards "
                "(at least 7 - depth - len(prefix)) and uint16 out";
    else if (out->len != n * draws * 2)
        error = "out must hold one row per combo and one entry per draw";
    /* The cards are checked and walked from copies, which cannot change
     * while the GIL is released (the caller's arrays can). */
    unsigned char pre[MAX_DEPTH], free[52];
    if (error == NULL) {
        memcpy(pre, prefix_buf->buf, (size_t)p);
        memcpy(free, free_buf->buf, (size_t)m);
    }
    uint64_t seen = 0;
    for (int i = 0; error == NULL && i < p + m; i++) {
        int c = i < p ? pre[i] : free[i - p];
        if (c > 51 || (seen >> c & 1) || !(self->deck >> c & 1) || (i > p && c <= free[i - p - 1]))
            error = "prefix and free cards must be distinct cards of the deck, free cards sorted";
        else
            seen |= (uint64_t)1 << c;
    }
    const uint32_t *starts = starts_buf->buf;
    const size_t nodes = error == NULL ? d->entries[depth] / 52 : 0;
    for (Py_ssize_t i = 0; error == NULL && i < n; i++)
        if ((size_t)starts[i] >= nodes)
            error = "a start is not a node of that depth";
    if (error == NULL) {
        const uint64_t *held = held_buf->buf;
        uint64_t on_prefix = 0;
        for (int i = 0; i < p; i++)
            on_prefix |= (uint64_t)1 << pre[i];
        uint16_t *o = out->buf;
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
    return release_args(&bufs, error, Py_NewRef(Py_None));
}

/* rank_combos(node, depth, held, out): the value of each of the 1,326 two-card
 * combos (c1 < c2, c1 ascending, then c2) added to node `node` at `depth`
 * of the (depth + 2)-card DAG, into `out` (uint16); 0 for a combo holding a
 * card of the mask `held` (the cards already walked) or outside the deck.
 * One lookup for each first card, one for each combo. */
PyObject *Walker_rank_combos(Walker *self, PyObject *const *args, Py_ssize_t nargs) {
    Buffers bufs;
    long node, depth;
    uint64_t held;
    Py_buffer *ob;
    if (parse_args(args, nargs, "rank_combos(node, depth, held, out)", &bufs, "llmw", &node, &depth, &held, &ob) < 0)
        return NULL;
    const char *error = NULL;
    if (depth < 3 || depth > 5 || ob->itemsize != 2 || ob->len != 1326 * 2)
        error = "rank_combos takes a depth of 3..5 and a uint16 out of 1326 entries";
    else if (node < 0 || (size_t)node >= self->dag[depth - 3].entries[depth] / 52)
        error = "node is not a node of that depth";
    if (error != NULL)
        return release_args(&bufs, error, NULL);
    const struct dag *d = &self->dag[depth - 3]; /* the (depth + 2)-card DAG */
    const unsigned char *first = d->layer[depth], *last = d->layer[depth + 1];
    int w1 = d->width[depth], w2 = d->width[depth + 1];
    uint16_t *out = ob->buf;
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
    return release_args(&bufs, NULL, Py_NewRef(Py_None));
}
