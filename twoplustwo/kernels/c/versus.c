/* Every combo against the others on one five-card board: the live combos
 * (those that miss the board) valued down dag7 and put in order of value,
 * then one sweep up that order. A sweep keeps the weight of the combos seen
 * so far and, per card, the weight of those holding it: the opponents of
 * h = (a, b) below it are the combos below less those holding a or b (no
 * combo below holds both: only h does). Three uses:
 *   count_vs_random  against a random hand, weighted boards summed (the
 *                    preflop tables)
 *   board_wins       each combo's wins and ties on each board
 *   strength_sums    each combo's river strength, its square and its
 *                    histogram, summed over weighted boards (strength)
 *   range_sweep      against a weighted range, summed over boards
 *                    (equity_vs_range) */

#include "core.h"

/* One board's live combos in order of value. */
struct sweep {
    uint16_t value[1326];           /* by combo; only live combos' are set */
    uint16_t order[1326];           /* the live combos, by value ascending */
    unsigned char first[1326], second[1326];
    int n;                          /* live combos */
};

/* The combos c1 < c2 in COMBOS order (c1 ascending, then c2). */
static void order_board(const struct dag *d, const unsigned char *board, struct sweep *w) {
    uint64_t on_board = 0;
    uint32_t node = 0;
    for (int i = 0; i < 5; i++) {
        on_board |= (uint64_t)1 << board[i];
        node = get(d->layer[i], d->width[i], (size_t)node * 52 + board[i]);
    }
    uint16_t live[1326], mid[1326];
    int n = 0;
    for (int a = 0, i = 0; a < 52; a++) {
        int dead = (int)(on_board >> a & 1);
        size_t row = dead ? 0 : (size_t)get(d->layer[5], d->width[5], (size_t)node * 52 + (size_t)a) * 52;
        for (int b = a + 1; b < 52; b++, i++) {
            if (dead || (on_board >> b & 1))
                continue;
            w->value[i] = (uint16_t)get(d->layer[6], d->width[6], row + (size_t)b);
            w->first[i] = (unsigned char)a;
            w->second[i] = (unsigned char)b;
            live[n++] = (uint16_t)i;
        }
    }
    /* A counting sort on the value's low 7 bits, then on its high 6. */
    int count[128];
    memset(count, 0, sizeof count);
    for (int j = 0; j < n; j++)
        count[w->value[live[j]] & 127]++;
    for (int k = 0, at = 0; k < 128; k++) {
        int c = count[k];
        count[k] = at;
        at += c;
    }
    for (int j = 0; j < n; j++)
        mid[count[w->value[live[j]] & 127]++] = live[j];
    memset(count, 0, sizeof count);
    for (int j = 0; j < n; j++)
        count[w->value[mid[j]] >> 7]++;
    for (int k = 0, at = 0; k < 64; k++) {
        int c = count[k];
        count[k] = at;
        at += c;
    }
    for (int j = 0; j < n; j++)
        w->order[count[w->value[mid[j]] >> 7]++] = mid[j];
    w->n = n;
}

/* The sweep with every combo weighing 1: each live combo's opponents below
 * it and at most equal to it, into below and at_most (by combo). */
static void count_board(const struct sweep *w, int *below, int *at_most) {
    int seen = 0, held[52] = {0};
    for (int j = 0; j < w->n;) {
        int end = j + 1;
        while (end < w->n && w->value[w->order[end]] == w->value[w->order[j]])
            end++;
        for (int q = j; q < end; q++) {
            int h = w->order[q];
            below[h] = seen - held[w->first[h]] - held[w->second[h]];
        }
        for (int q = j; q < end; q++) {
            held[w->first[w->order[q]]]++;
            held[w->second[w->order[q]]]++;
        }
        seen += end - j;
        /* h is among the combos seen and holds both its cards: added back once. */
        for (int q = j; q < end; q++) {
            int h = w->order[q];
            at_most[h] = seen - held[w->first[h]] - held[w->second[h]] + 1;
        }
        j = end;
    }
}

/* The sweep against weighted combos: each live combo's weight of
 * opponents below it, equal to it, and in all (those sharing no card with
 * it), added into out[combo][0..2]. */
static void weigh_board(const struct sweep *w, const double *weight, double *out) {
    double seen = 0, all = 0, held[52] = {0}, any[52] = {0};
    for (int j = 0; j < w->n; j++) {
        int h = w->order[j];
        all += weight[h];
        any[w->first[h]] += weight[h];
        any[w->second[h]] += weight[h];
    }
    for (int j = 0; j < w->n;) {
        int end = j + 1;
        while (end < w->n && w->value[w->order[end]] == w->value[w->order[j]])
            end++;
        double group = 0;
        for (int q = j; q < end; q++) {
            int h = w->order[q];
            double below = seen - held[w->first[h]] - held[w->second[h]];
            out[3 * h] += below;
            out[3 * h + 1] -= below; /* ties: at most, less below (added next) */
            out[3 * h + 2] += all - any[w->first[h]] - any[w->second[h]] + weight[h];
            group += weight[h];
        }
        for (int q = j; q < end; q++) {
            int h = w->order[q];
            held[w->first[h]] += weight[h];
            held[w->second[h]] += weight[h];
        }
        seen += group;
        for (int q = j; q < end; q++) {
            int h = w->order[q];
            /* h is among the combos seen and holds both its cards: added back once. */
            out[3 * h + 1] += seen - held[w->first[h]] - held[w->second[h]] + weight[h];
        }
        j = end;
    }
}

/* Copies of (B, 5) boards, checked: five distinct cards 0..51 each. NULL
 * with *error set, or with an exception (out of memory). */
static unsigned char *copy_boards(Py_buffer *bb, const char **error) {
    Py_ssize_t n = bb->shape[0];
    unsigned char *boards = PyMem_Malloc((size_t)n * 5 + 1);
    if (boards == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    memcpy(boards, bb->buf, (size_t)n * 5);
    for (Py_ssize_t i = 0; i < n; i++) {
        uint64_t seen = 0;
        for (int j = 0; j < 5; j++) {
            int c = boards[5 * i + j];
            if (c > 51 || (seen >> c & 1)) {
                *error = "each board must be five distinct cards 0..51";
                PyMem_Free(boards);
                return NULL;
            }
            seen |= (uint64_t)1 << c;
        }
    }
    return boards;
}

/* copy_boards, and a copy of the boards' int64 weights into *weights
 * (both freed by the caller). NULL as for copy_boards. */
static unsigned char *copy_weighted(Py_buffer *bb, Py_buffer *wb, const char **error, int64_t **weights) {
    unsigned char *boards = copy_boards(bb, error);
    *weights = boards == NULL ? NULL : PyMem_Malloc((size_t)bb->shape[0] * 8 + 8);
    if (boards != NULL && *weights == NULL) {
        PyMem_Free(boards);
        PyErr_NoMemory();
        return NULL;
    }
    if (boards != NULL)
        memcpy(*weights, wb->buf, (size_t)bb->shape[0] * 8);
    return boards;
}

/* Whether bb holds (B, 5) uint8 boards. */
static int boards_shaped(const Py_buffer *bb) {
    return bb->ndim == 2 && bb->itemsize == 1 && bb->shape[1] == 5;
}

/* Whether the walker is hold'em's: these sweeps value combos down its dag7. */
static int holdem_walker(const Walker *self) {
    return self->deck == ALL_CARDS && self->dag[2].value == NULL && self->sizes == HIGH_SIZES;
}

/* count_vs_random(boards, weights, out): for each five-card board (uint8
 * (B, 5)) and its weight (int64 (B,)), each of the 1,326 combos (in COMBOS
 * order) that the board leaves live against every opponent combo of the
 * other cards: weight x the opponents it beats added to out[combo][0] and
 * weight x those it beats or ties to out[combo][1] (int64 (1326, 2)). */
PyObject *Walker_count_vs_random(Walker *self, PyObject *const *args, Py_ssize_t nargs) {
    Buffers bufs;
    Py_buffer *bb, *wb, *ob;
    if (parse_args(args, nargs, "count_vs_random(boards, weights, out)", &bufs, "rrw", &bb, &wb, &ob) < 0)
        return NULL;
    const char *error = NULL;
    if (!boards_shaped(bb) || wb->itemsize != 8 || ob->itemsize != 8 || ob->len != 1326 * 2 * 8)
        error = "count_vs_random takes uint8 (boards, 5) boards, int64 weights and an int64 (1326, 2) out";
    else if (wb->len != bb->shape[0] * 8)
        error = "count_vs_random takes one weight per board";
    else if (!holdem_walker(self))
        error = "count_vs_random needs the hold'em walker";
    if (error != NULL)
        return release_args(&bufs, error, NULL);
    Py_ssize_t n = bb->shape[0];
    int64_t *weights;
    unsigned char *boards = copy_weighted(bb, wb, &error, &weights);
    if (boards == NULL)
        return release_args(&bufs, error, NULL);
    int64_t *out = ob->buf;
    const struct dag *d = &self->dag[2];
    Py_BEGIN_ALLOW_THREADS
    struct sweep w;
    int below[1326], at_most[1326];
    for (Py_ssize_t i = 0; i < n; i++) {
        order_board(d, boards + 5 * i, &w);
        count_board(&w, below, at_most);
        for (int j = 0; j < w.n; j++) {
            int h = w.order[j];
            out[2 * h] += weights[i] * below[h];
            out[2 * h + 1] += weights[i] * at_most[h];
        }
    }
    Py_END_ALLOW_THREADS
    PyMem_Free(boards);
    PyMem_Free(weights);
    return release_args(&bufs, NULL, Py_NewRef(Py_None));
}

/* board_wins(boards, out): for each five-card board (uint8 (B, 5)), each
 * combo's opponents among the combos of the other cards that it beats and
 * that it ties, into out[board][combo][0..1] (uint16 (B, 1326, 2)); 0 and
 * 0 for a combo that touches the board. */
PyObject *Walker_board_wins(Walker *self, PyObject *const *args, Py_ssize_t nargs) {
    Buffers bufs;
    Py_buffer *bb, *ob;
    if (parse_args(args, nargs, "board_wins(boards, out)", &bufs, "rw", &bb, &ob) < 0)
        return NULL;
    const char *error = NULL;
    if (!boards_shaped(bb) || ob->itemsize != 2 || ob->len != bb->shape[0] * 1326 * 2 * 2)
        error = "board_wins takes uint8 (boards, 5) boards and a uint16 (boards, 1326, 2) out";
    else if (!holdem_walker(self))
        error = "board_wins needs the hold'em walker";
    if (error != NULL)
        return release_args(&bufs, error, NULL);
    Py_ssize_t n = bb->shape[0];
    unsigned char *boards = copy_boards(bb, &error);
    if (boards == NULL)
        return release_args(&bufs, error, NULL);
    uint16_t *out = ob->buf;
    const struct dag *d = &self->dag[2];
    Py_BEGIN_ALLOW_THREADS
    struct sweep w;
    int below[1326], at_most[1326];
    for (Py_ssize_t i = 0; i < n; i++) {
        uint16_t *o = out + (size_t)i * 1326 * 2;
        memset(o, 0, 1326 * 2 * sizeof *o);
        order_board(d, boards + 5 * i, &w);
        count_board(&w, below, at_most);
        for (int j = 0; j < w.n; j++) {
            int h = w.order[j];
            o[2 * h] = (uint16_t)below[h];
            o[2 * h + 1] = (uint16_t)(at_most[h] - below[h]);
        }
    }
    Py_END_ALLOW_THREADS
    PyMem_Free(boards);
    return release_args(&bufs, NULL, Py_NewRef(Py_None));
}

/* range_sweep(boards, weights, out): for each five-card board (uint8 (B, 5)),
 * each combo the board leaves live against the combos of the weights
 * (float64 (1326,), by combo; 0 for a combo not in the range): the weight
 * of those it beats, ties and could face (sharing no card with it, nor
 * with the board) added into out[combo][0..2] (float64 (1326, 3)). */
PyObject *Walker_range_sweep(Walker *self, PyObject *const *args, Py_ssize_t nargs) {
    Buffers bufs;
    Py_buffer *bb, *wb, *ob;
    if (parse_args(args, nargs, "range_sweep(boards, weights, out)", &bufs, "rrw", &bb, &wb, &ob) < 0)
        return NULL;
    const char *error = NULL;
    if (!boards_shaped(bb) || wb->itemsize != 8 || wb->len != 1326 * 8 || ob->itemsize != 8 ||
        ob->len != 1326 * 3 * 8)
        error = "range_sweep takes uint8 (boards, 5) boards, float64 (1326,) weights and a float64 (1326, 3) out";
    else if (!holdem_walker(self))
        error = "range_sweep needs the hold'em walker";
    double weights[1326];
    if (error == NULL) {
        memcpy(weights, wb->buf, sizeof weights);
        for (int h = 0; h < 1326 && error == NULL; h++)
            if (!(weights[h] >= 0 && weights[h] <= 1)) /* NaN fails too */
                error = "range_sweep's weights must be in [0, 1]";
    }
    if (error != NULL)
        return release_args(&bufs, error, NULL);
    Py_ssize_t n = bb->shape[0];
    unsigned char *boards = copy_boards(bb, &error);
    if (boards == NULL)
        return release_args(&bufs, error, NULL);
    double *out = ob->buf;
    const struct dag *d = &self->dag[2];
    Py_BEGIN_ALLOW_THREADS
    struct sweep w;
    for (Py_ssize_t i = 0; i < n; i++) {
        order_board(d, boards + 5 * i, &w);
        weigh_board(&w, weights, out);
    }
    Py_END_ALLOW_THREADS
    PyMem_Free(boards);
    return release_args(&bufs, NULL, Py_NewRef(Py_None));
}

/* strength_sums(boards, weights, bins, first, second, histogram): for each
 * five-card board (uint8 (B, 5)) and its weight (int64 (B,)), each combo the
 * board leaves live, with x = 2 x its wins + its ties against every other
 * combo (0..1980): weight x x added to first[combo], weight x x^2 to
 * second[combo] (int64 (1326,) each), and, if bins > 0, weight to
 * histogram[combo][min(bins - 1, x * bins / 1980)] (int64 (1326, bins)). */
PyObject *Walker_strength_sums(Walker *self, PyObject *const *args, Py_ssize_t nargs) {
    Buffers bufs;
    Py_buffer *bb, *wb, *fb, *sb, *hb;
    long bins;
    if (parse_args(args, nargs, "strength_sums(boards, weights, bins, first, second, histogram)", &bufs, "rrlwww",
                   &bb, &wb, &bins, &fb, &sb, &hb) < 0)
        return NULL;
    const char *error = NULL;
    if (!boards_shaped(bb) || wb->itemsize != 8 || fb->itemsize != 8 || fb->len != 1326 * 8 || sb->itemsize != 8 ||
        sb->len != 1326 * 8 || hb->itemsize != 8 || bins < 0 || bins > 1980 || hb->len != 1326 * 8 * bins)
        error = "strength_sums takes uint8 (boards, 5) boards, int64 weights, bins 0..1980, int64 (1326,) first "
                "and second and an int64 (1326, bins) histogram";
    else if (wb->len != bb->shape[0] * 8)
        error = "strength_sums takes one weight per board";
    else if (!holdem_walker(self))
        error = "strength_sums needs the hold'em walker";
    if (error != NULL)
        return release_args(&bufs, error, NULL);
    Py_ssize_t n = bb->shape[0];
    int64_t *weights;
    unsigned char *boards = copy_weighted(bb, wb, &error, &weights);
    if (boards == NULL)
        return release_args(&bufs, error, NULL);
    int64_t *first = fb->buf, *second = sb->buf, *histogram = hb->buf;
    const struct dag *d = &self->dag[2];
    Py_BEGIN_ALLOW_THREADS
    struct sweep w;
    int below[1326], at_most[1326];
    for (Py_ssize_t i = 0; i < n; i++) {
        order_board(d, boards + 5 * i, &w);
        count_board(&w, below, at_most);
        int64_t weight = weights[i];
        for (int j = 0; j < w.n; j++) {
            int h = w.order[j];
            int64_t x = below[h] + at_most[h];
            first[h] += weight * x;
            second[h] += weight * x * x;
            if (bins > 0) {
                int64_t bin = x * bins / 1980;
                histogram[h * bins + (bin < bins - 1 ? bin : bins - 1)] += weight;
            }
        }
    }
    Py_END_ALLOW_THREADS
    PyMem_Free(boards);
    PyMem_Free(weights);
    return release_args(&bufs, NULL, Py_NewRef(Py_None));
}
