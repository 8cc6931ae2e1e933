/* Showdown: who wins each board, who ties, and their pot shares in units of
 * 1/POT_UNITS of a pot, for equity's exact and sampled paths. */

#include "core.h"

/* score(values) -> list of (wins, ties, units): for a C-contiguous uint16
 * array (players, boards) of each player's value on each board, the boards
 * each player wins alone, the boards they share, and their pot shares in
 * units of 1/POT_UNITS of a pot. */
PyObject *Walker_score(Walker *self, PyObject *arg) {
    (void)self; /* a method, so that it goes with the backend a table set chose */
    Buffers bufs;
    Py_buffer *vb;
    if (parse_args(&arg, 1, "score(values)", &bufs, "r", &vb) < 0)
        return NULL;
    if (vb->ndim != 2 || vb->itemsize != 2 || vb->shape[0] < 1 || vb->shape[0] > 9)
        return release_args(&bufs, "score takes a (players, boards) uint16 array of 1 to 9 players", NULL);
    int p = (int)vb->shape[0];
    Py_ssize_t boards = vb->shape[1];
    const uint16_t *v = vb->buf;
    uint64_t wins[9] = {0}, ties[9] = {0}, units[9] = {0};
    Py_BEGIN_ALLOW_THREADS
    /* Boards go in blocks, each pass a simple loop over one player's row
     * that the compiler vectorises: the best value, how many reach it, then
     * each player's share. */
    enum { SCORE_BLOCK = 2048 };
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
        units[0] = POT_UNITS * above + POT_UNITS / 2 * split;
        units[1] = POT_UNITS * below + POT_UNITS / 2 * split;
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
            pays[j] = pot_share[count[j]];
        for (int i = 0; i < p; i++) {
            row = v + i * boards + b0;
            uint32_t w = 0, t = 0, u = 0; /* at most 2048 boards x POT_UNITS: no overflow */
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
    release_args(&bufs, NULL, NULL);
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

/* score_tuples(values, tuples, counts, games): for each deal (row of `tuples`,
 * int32, one row of `values` per player) add, over the boards where every
 * player's value is live (not 0), each player's wins alone, ties and pot
 * shares in units of 1/POT_UNITS to counts[deal][player][0..2] (int64), and the
 * number of such boards to games[deal] (int64). `values` is uint16 (rows,
 * boards). */
PyObject *Walker_score_tuples(Walker *self, PyObject *const *args, Py_ssize_t nargs) {
    (void)self;
    Buffers bufs;
    Py_buffer *vb, *tb, *cb, *gb;
    if (parse_args(args, nargs, "score_tuples(values, tuples, counts, games)", &bufs, "rrww", &vb, &tb, &cb, &gb) < 0)
        return NULL;
    const char *error = NULL;
    Py_ssize_t rows = 0, boards = 0, deals = 0;
    int players = 0;
    if (vb->ndim != 2 || vb->itemsize != 2 || tb->ndim != 2 || tb->itemsize != 4 || cb->itemsize != 8 ||
        gb->itemsize != 8)
        error = "score_tuples takes uint16 (rows, boards) values, int32 (deals, players) tuples, "
                "int64 counts and games";
    else {
        rows = vb->shape[0];
        boards = vb->shape[1];
        deals = tb->shape[0];
        players = (int)tb->shape[1];
        if (players < 2 || players > 9 || boards > INT32_MAX)
            error = "score_tuples takes 2 to 9 players and fewer than 2**31 boards";
        else if (cb->len != deals * players * 3 * 8 || gb->len != deals * 8)
            error = "counts must be (deals, players, 3) and games (deals,)";
    }
    const int32_t *tu = tb->buf;
    for (Py_ssize_t i = 0; error == NULL && i < deals * players; i++)
        if (tu[i] < 0 || tu[i] >= rows)
            error = "a tuple names a row values does not have";
    if (error == NULL) {
        const uint16_t *v = vb->buf;
        int64_t *counts = cb->buf, *games = gb->buf;
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
                c[2] += POT_UNITS * (int64_t)above + POT_UNITS / 2 * (int64_t)split;
                c[3] += below;
                c[4] += split;
                c[5] += POT_UNITS * (int64_t)below + POT_UNITS / 2 * (int64_t)split;
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
                        c[3 * q + 2] += pot_share[top];
                    }
                live++;
            }
            games[k] += live;
        }
        Py_END_ALLOW_THREADS
        if (changed)
            error = "a tuple names a row values does not have";
    }
    return release_args(&bufs, error, Py_NewRef(Py_None));
}
