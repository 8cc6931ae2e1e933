/* Omaha: the best high of two hole cards and three board cards down dag5,
 * and the ace-to-five eight-or-better low, for one deal or for rows. */

#include "core.h"

/* The best Hold'em value of two of the nh hole cards and three of the nb
 * board cards (all checked), down dag5: each board triple walked once, each
 * (triple, hole card) once more, each pair one last lookup. */
static uint32_t omaha_best(const Walker *self, const unsigned char *h, int nh, const unsigned char *b, int nb) {
    const struct dag *d = &self->dag[0];
    uint32_t best = 0;
    for (int i = 0; i < nb - 2; i++) {
        size_t n1 = (size_t)get(d->layer[0], d->width[0], b[i]) * 52;
        for (int j = i + 1; j < nb - 1; j++) {
            size_t n2 = (size_t)get(d->layer[1], d->width[1], n1 + b[j]) * 52;
            for (int k = j + 1; k < nb; k++) {
                size_t n3 = (size_t)get(d->layer[2], d->width[2], n2 + b[k]) * 52;
                for (int x = 0; x < nh - 1; x++) {
                    size_t n4 = (size_t)get(d->layer[3], d->width[3], n3 + h[x]) * 52;
                    for (int y = x + 1; y < nh; y++) {
                        uint32_t v = get(d->layer[4], d->width[4], n4 + h[y]);
                        best = v > best ? v : best;
                    }
                }
            }
        }
    }
    return best;
}

/* The ace-to-five eight-or-better low: a card's bit among the eight low
 * ranks (ace 1, deuce 2, ..., eight 128; 0 for a nine or higher), and the
 * value of a union of five such bits. Lower cards make a better low, and
 * comparing the unions as numbers compares the highest card first, so the
 * n-th smallest five-bit union is worth N_LOWS - n (twoplustwo/vocab/lows.py). */
#define N_LOWS 56
static unsigned char low_bit[52];
static unsigned char low_value[256];

void fill_lows(void) {
    for (int c = 0; c < 52; c++) {
        int rank = c / 4;
        low_bit[c] = (unsigned char)(rank == 12 ? 1 : rank <= 6 ? 1 << (rank + 1) : 0);
    }
    int n = 0;
    for (int m = 0; m < 256; m++) {
        int bits = 0;
        for (int x = m; x; x &= x - 1)
            bits++;
        low_value[m] = (unsigned char)(bits == 5 ? N_LOWS - n++ : 0);
    }
}

/* The best low of two of the nh hole cards and three of the nb board cards
 * (all checked), or 0 for none. Out of line: inlined into omaha_rows's
 * loop, the low rows ran 2-3% slower (GCC 12, -O3). */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static uint32_t omaha_low(const unsigned char *h, int nh, const unsigned char *b, int nb) {
    uint32_t best = 0;
    for (int i = 0; i < nb - 2; i++)
        for (int j = i + 1; j < nb - 1; j++)
            for (int k = j + 1; k < nb; k++) {
                unsigned triple = low_bit[b[i]] | low_bit[b[j]] | low_bit[b[k]];
                for (int x = 0; x < nh - 1; x++)
                    for (int y = x + 1; y < nh; y++) {
                        uint32_t v = low_value[triple | low_bit[h[x]] | low_bit[h[y]]];
                        best = v > best ? v : best;
                    }
            }
    return best;
}

/* Cards of a list or tuple of plain ints 0..51 or an ASCII card string, not
 * yet held in *seen: how many (at most max), or -1 for anything else. */
static int omaha_cards(PyObject *obj, unsigned char *cards, int max, uint64_t *seen) {
    int n;
    if (PyUnicode_CheckExact(obj)) {
        unsigned char parsed[MAX_DEPTH];
        n = PyUnicode_IS_ASCII(obj) ? parse_text((const char *)PyUnicode_1BYTE_DATA(obj), PyUnicode_GET_LENGTH(obj),
                                                 parsed)
                                    : -1;
        if (n < 0 || n > max)
            return -1;
        memcpy(cards, parsed, (size_t)n);
    } else if (PyList_CheckExact(obj) || PyTuple_CheckExact(obj)) {
        Py_ssize_t len = PySequence_Fast_GET_SIZE(obj);
        if (len > max)
            return -1;
        PyObject **items = PySequence_Fast_ITEMS(obj);
        for (Py_ssize_t i = 0; i < len; i++) {
            if (!PyLong_CheckExact(items[i]))
                return -1;
            int overflow;
            long c = PyLong_AsLongAndOverflow(items[i], &overflow);
            if (overflow || c < 0 || c > 51)
                return -1;
            cards[i] = (unsigned char)c;
        }
        n = (int)len;
    } else {
        return -1;
    }
    for (int i = 0; i < n; i++) {
        uint64_t bit = (uint64_t)1 << cards[i];
        if (*seen & bit)
            return -1;
        *seen |= bit;
    }
    return n;
}

/* Omaha is hold'em's: its walks read dag5's last layer as values. */
static int holdem_only(const Walker *self, const char *what) {
    if (self->deck == ALL_CARDS && self->dag[0].value == NULL && self->sizes == HIGH_SIZES)
        return 0;
    PyErr_Format(PyExc_ValueError, "%s needs the hold'em walker", what);
    return -1;
}

/* omaha(hole, board) -> int | None: the value of one deal of 4-6 hole cards
 * and 3-5 board cards, all distinct; None for anything else (Python then
 * parses and explains). */
PyObject *Walker_omaha(Walker *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "omaha(hole, board)");
        return NULL;
    }
    if (holdem_only(self, "omaha") < 0)
        return NULL;
    unsigned char h[6], b[5];
    uint64_t seen = 0;
    int nh = omaha_cards(args[0], h, 6, &seen);
    int nb = nh < 4 ? -1 : omaha_cards(args[1], b, 5, &seen);
    if (nb < 3)
        Py_RETURN_NONE;
    return PyLong_FromUnsignedLong(omaha_best(self, h, nh, b, nb));
}

/* The values of (N, 4..6) uint8 hole rows with (N, 3..5) uint8 boards, or
 * one (1, k) board for every row, into out (N entries of out_size bytes): the
 * best high through `walker`'s dag5 when it is given, else the best low. A
 * row with a card over 51 or a card twice stops the work and its index is
 * returned; else -1. The GIL is released while the rows are worked. */
static PyObject *omaha_rows(const Walker *walker, PyObject *const *args, Py_ssize_t nargs, const char *usage,
                            const char *error, int out_size) {
    Buffers bufs;
    Py_buffer *hb, *bb, *ob;
    if (parse_args(args, nargs, usage, &bufs, "rrw", &hb, &bb, &ob) < 0)
        return NULL;
    int ok = hb->ndim == 2 && bb->ndim == 2 && hb->itemsize == 1 && bb->itemsize == 1 && ob->itemsize == out_size &&
             hb->shape[1] >= 4 && hb->shape[1] <= 6 && bb->shape[1] >= 3 && bb->shape[1] <= 5 &&
             (bb->shape[0] == hb->shape[0] || bb->shape[0] == 1) && ob->len == hb->shape[0] * out_size;
    if (!ok)
        return release_args(&bufs, error, NULL);
    Py_ssize_t bad = -1;
    const unsigned char *holes = hb->buf, *boards = bb->buf;
    void *out = ob->buf;
    Py_ssize_t rows = hb->shape[0];
    int nh = (int)hb->shape[1], nb = (int)bb->shape[1];
    Py_ssize_t step = bb->shape[0] == 1 ? 0 : nb;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t r = 0; r < rows; r++) {
        /* The row is checked and walked from a copy: the caller's
         * arrays may change while the GIL is released, and a card read
         * twice could pass the check as one card and be walked as
         * another (even as a card over 51, reading past the tables). */
        unsigned char h[6], b[5];
        memcpy(h, holes + r * nh, (size_t)nh);
        memcpy(b, boards + r * step, (size_t)nb);
        uint64_t seen = 0;
        int good = 1;
        for (int i = 0; i < nh + nb; i++) {
            unsigned char c = i < nh ? h[i] : b[i - nh];
            uint64_t bit = (uint64_t)1 << (c & 63);
            good &= c <= 51 && !(seen & bit);
            seen |= bit;
        }
        if (!good) {
            bad = r;
            break;
        }
        if (walker != NULL)
            ((uint16_t *)out)[r] = (uint16_t)omaha_best(walker, h, nh, b, nb);
        else
            ((uint8_t *)out)[r] = (uint8_t)omaha_low(h, nh, b, nb);
    }
    Py_END_ALLOW_THREADS
    return release_args(&bufs, NULL, PyLong_FromSsize_t(bad));
}

/* omaha_rows(holes, boards, out) -> int: Omaha high values (uint16) of uint8 rows; see omaha_rows above. */
PyObject *Walker_omaha_rows(Walker *self, PyObject *const *args, Py_ssize_t nargs) {
    if (holdem_only(self, "omaha_rows") < 0)
        return NULL;
    return omaha_rows(self, args, nargs, "omaha_rows(holes, boards, out)",
                      "omaha_rows takes (N, 4..6) uint8 holes, (N or 1, 3..5) uint8 boards and a uint16 out of N", 2);
}

/* omaha_low_rows(holes, boards, out) -> int: Omaha eight-or-better low
 * values (uint8, 0 for no low) of uint8 rows. A module function: lows need
 * no tables. */
PyObject *core_omaha_low_rows(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    return omaha_rows(NULL, args, nargs, "omaha_low_rows(holes, boards, out)",
                      "omaha_low_rows takes (N, 4..6) uint8 holes, (N or 1, 3..5) uint8 boards and a uint8 out of N",
                      1);
}
