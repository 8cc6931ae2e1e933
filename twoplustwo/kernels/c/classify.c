/* What two hole cards hold on a board of 3, 4 or 5 cards: the made-hand
 * class and the draw flags that twoplustwo/vocab/board_classes.py defines
 * and names (the codes below are indices into its MADE_HANDS, the bits its
 * DRAWS). A function of the cards alone: no tables. The category of the
 * best five comes from rank and suit masks, which is all the five
 * categories above three of a kind need, and is held to the evaluator by
 * the tests. */

#include "core.h"

enum {
    STRAIGHT_FLUSH, FOUR_OF_A_KIND, FULL_HOUSE, FLUSH, STRAIGHT, SET, TRIPS, THREE_OF_A_KIND, TWO_PAIR, OVERPAIR,
    UNDERPAIR, POCKET_PAIR, TOP_PAIR, SECOND_PAIR, WEAK_PAIR, ACE_HIGH, NOTHING,
};
enum {
    FLUSH_DRAW = 1, NUT_FLUSH_DRAW = 2, BACKDOOR_FLUSH_DRAW = 4, OPEN_ENDED = 8, GUTSHOT = 16, OVERCARDS = 32,
    COMBO_DRAW = 64,
};

/* The ten runs of five ranks as 13-bit masks, the wheel (A-2-3-4-5) first. */
static const uint32_t runs[10] = {0x100F, 0x1F, 0x3E, 0x7C, 0xF8, 0x1F0, 0x3E0, 0x7C0, 0xF80, 0x1F00};

/* Tables of 13-bit rank masks, filled at import (fill_classify): each
 * mask's set bits (a builtin popcount without -mpopcnt is a library call);
 * the runs a set of ranks lacks exactly one rank of; and the runs that hold
 * some rank of a set. Bit i of the last two stands for runs[i]. */
static uint8_t bits13[1 << 13];
static uint16_t runs_lacking_one[1 << 13];
static uint16_t runs_meeting[1 << 13];

static inline int has_run(uint32_t ranks) {
    /* The ace is also below the deuce. */
    uint32_t m = ranks << 1 | ranks >> 12;
    return (m & m >> 1 & m >> 2 & m >> 3 & m >> 4) != 0;
}

void fill_classify(void) {
    for (uint32_t m = 1; m < 1 << 13; m++)
        bits13[m] = (uint8_t)(bits13[m >> 1] + (m & 1));
    for (uint32_t m = 0; m < 1 << 13; m++) {
        uint16_t lacking = 0, meeting = 0;
        for (int i = 0; i < 10; i++) {
            uint32_t missing = runs[i] & ~m;
            lacking |= (uint16_t)((missing != 0 && (missing & (missing - 1)) == 0) << i);
            meeting |= (uint16_t)(((runs[i] & m) != 0) << i);
        }
        runs_lacking_one[m] = lacking;
        runs_meeting[m] = meeting;
    }
}

/* Inlined whatever the compiler's weighing, so that each board size's loop
 * is unrolled for it. */
#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

/* A card's bit in a mask of 16 bits a suit: bit 16 * suit + rank. */
#define SUIT_BIT(c) ((uint64_t)1 << (((c) & 3) * 16 + ((c) >> 2)))

/* The ranks in at least 1, 2, 3 and 4 of four suits' rank masks, without a
 * loop over cards: each count is an OR of ANDs. */
static ALWAYS_INLINE void rank_counts(uint64_t cards, uint32_t *once, uint32_t *twice, uint32_t *thrice,
                                      uint32_t *four) {
    uint32_t a = (uint32_t)cards & 0x1FFF, b = (uint32_t)(cards >> 16) & 0x1FFF;
    uint32_t c = (uint32_t)(cards >> 32) & 0x1FFF, d = (uint32_t)(cards >> 48) & 0x1FFF;
    uint32_t ab = a & b, cd = c & d, a_b = a | b, c_d = c | d;
    *once = a_b | c_d;
    *twice = ab | cd | (a_b & c_d);
    *thrice = (ab & c_d) | (cd & a_b);
    *four = ab & cd;
}

/* The class and draws of checked cards: hole h[0..1] and the mask of the
 * nb board cards (SUIT_BIT). */
static ALWAYS_INLINE void classify_one(const unsigned char *h, uint64_t board, int nb, uint8_t *made,
                                       uint8_t *draws) {
    uint64_t cards = board | SUIT_BIT(h[0]) | SUIT_BIT(h[1]);
    /* Ranks held at least once, twice, three and four times: all cards, and the board's alone. */
    uint32_t once, twice, thrice, four, b1, b2, b3, b4;
    rank_counts(cards, &once, &twice, &thrice, &four);
    rank_counts(board, &b1, &b2, &b3, &b4);
    int r0 = h[0] >> 2, r1 = h[1] >> 2;
    int flush_suit = -1;
    uint32_t flush_ranks = 0;
    for (int s = 0; s < 4; s++) {
        uint32_t ranks = (uint32_t)(cards >> (16 * s)) & 0x1FFF;
        if (bits13[ranks] >= 5) {
            flush_suit = s;
            flush_ranks = ranks;
        }
    }
    int top = highest_bit64(b1), low = lowest_bit(b1);
    uint32_t below_top = b1 & ~(1u << top);
    int second = below_top ? highest_bit64(below_top) : -1;
    int m;
    if (flush_suit >= 0 && has_run(flush_ranks))
        m = STRAIGHT_FLUSH;
    else if (four)
        m = FOUR_OF_A_KIND;
    else if (thrice && (bits13[thrice] >= 2 || (twice & ~thrice)))
        m = FULL_HOUSE;
    else if (flush_suit >= 0)
        m = FLUSH;
    else if (has_run(once))
        m = STRAIGHT;
    else if (thrice) {
        if (r0 == r1 && (b1 >> r0 & 1) && !(b2 >> r0 & 1))
            m = SET;
        else if (r0 != r1 && ((b2 >> r0 & 1) || (b2 >> r1 & 1)))
            m = TRIPS;
        else
            m = THREE_OF_A_KIND;
    } else {
        int on0 = b1 >> r0 & 1, on1 = b1 >> r1 & 1;
        if (r0 != r1 && on0 && on1)
            m = TWO_PAIR;
        else if (r0 == r1)
            m = r0 > top ? OVERPAIR : r0 < low ? UNDERPAIR : POCKET_PAIR;
        else if (on0 || on1) {
            int r = on0 ? r0 : r1;
            m = r == top ? TOP_PAIR : r == second ? SECOND_PAIR : WEAK_PAIR;
        } else
            m = (r0 == 12 || r1 == 12) ? ACE_HIGH : NOTHING;
    }
    int d = 0;
    if (nb < 5) {
        /* A flush draw's or backdoor's suit is a hole card's. */
        int s0 = h[0] & 3, s1 = h[1] & 3;
        for (int k = 0; k < 1 + (s1 != s0); k++) {
            int s = k ? s1 : s0, n = bits13[(cards >> (16 * s)) & 0x1FFF];
            if (n == 4 && m != FLUSH && m != STRAIGHT_FLUSH) {
                d |= FLUSH_DRAW;
                /* The highest rank of the suit the board does not hold, as a card. */
                uint32_t free = ~(uint32_t)(board >> (16 * s)) & 0x1FFF;
                int nut = highest_bit64(free) * 4 + s;
                if (h[0] == nut || h[1] == nut)
                    d |= NUT_FLUSH_DRAW;
            }
            if (nb == 3 && n == 3)
                d |= BACKDOOR_FLUSH_DRAW;
        }
        if (!has_run(once)) {
            /* The runs lacking one rank and holding a hole rank the board has not; their lacking ranks are the outs. */
            uint32_t q = runs_lacking_one[once] & runs_meeting[((1u << r0) | (1u << r1)) & ~b1], outs = 0;
            for (; q; q &= q - 1)
                outs |= runs[lowest_bit(q)] & ~once;
            int n = bits13[outs];
            d |= n >= 2 ? OPEN_ENDED : n == 1 ? GUTSHOT : 0;
        }
        if ((m == ACE_HIGH || m == NOTHING) && r0 > top && r1 > top)
            d |= OVERCARDS;
        if ((d & FLUSH_DRAW) && (d & (OPEN_ENDED | GUTSHOT)))
            d |= COMBO_DRAW;
    }
    *made = (uint8_t)m;
    *draws = (uint8_t)d;
}

/* Classify rows of nb-card boards (each `step` bytes on from the last: 0
 * for one board shared); the first row with a card over 51 or a card twice,
 * or -1. */
static ALWAYS_INLINE Py_ssize_t classify_all(const unsigned char *holes, const unsigned char *boards, Py_ssize_t step,
                                      const int nb, Py_ssize_t rows, uint8_t *made, uint8_t *draws) {
    for (Py_ssize_t r = 0; r < rows; r++) {
        /* Checked and classified from a copy: the caller's arrays may
         * change while the GIL is released. */
        unsigned char h[2] = {holes[2 * r], holes[2 * r + 1]};
        uint64_t board = 0;
        int good = h[0] <= 51 && h[1] <= 51 && h[0] != h[1];
        for (int i = 0; i < nb; i++) {
            unsigned char c = boards[r * step + i];
            uint64_t bit = SUIT_BIT(c & 63);
            good &= c <= 51 && !(board & bit);
            board |= bit;
        }
        /* Distinct cards in 0..51 have distinct bits. */
        good &= !(board & (SUIT_BIT(h[0] & 63) | SUIT_BIT(h[1] & 63)));
        if (!good)
            return r;
        classify_one(h, board, nb, made + r, draws + r);
    }
    return -1;
}

/* classify_rows(holes, boards, made, draws) -> int: the class code and draw
 * bits of each (N, 2) uint8 hole row on its (N, 3..5) uint8 board, or on
 * one (1, k) board for every row, into uint8 made and draws of N entries.
 * A row with a card over 51 or a card twice stops the work and its index is
 * returned; else -1. A module function: classes need no tables. The GIL is
 * released while the rows are worked. */
PyObject *core_classify_rows(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    Buffers bufs;
    Py_buffer *hb, *bb, *mb, *db;
    if (parse_args(args, nargs, "classify_rows(holes, boards, made, draws)", &bufs, "rrww", &hb, &bb, &mb, &db) < 0)
        return NULL;
    int ok = hb->ndim == 2 && bb->ndim == 2 && hb->itemsize == 1 && bb->itemsize == 1 && mb->itemsize == 1 &&
             db->itemsize == 1 && hb->shape[1] == 2 && bb->shape[1] >= 3 && bb->shape[1] <= 5 &&
             (bb->shape[0] == hb->shape[0] || bb->shape[0] == 1) && mb->len == hb->shape[0] &&
             db->len == hb->shape[0];
    if (!ok)
        return release_args(&bufs,
                            "classify_rows takes (N, 2) uint8 holes, (N or 1, 3..5) uint8 boards and uint8 made and "
                            "draws of N",
                            NULL);
    Py_ssize_t rows = hb->shape[0], step = bb->shape[0] == 1 ? 0 : bb->shape[1], bad = -1;
    const unsigned char *holes = hb->buf, *boards = bb->buf;
    uint8_t *made = mb->buf, *draws = db->buf;
    Py_BEGIN_ALLOW_THREADS
    /* One loop per board size, so that each is unrolled for its size. */
    switch (bb->shape[1]) {
    case 3:
        bad = classify_all(holes, boards, step, 3, rows, made, draws);
        break;
    case 4:
        bad = classify_all(holes, boards, step, 4, rows, made, draws);
        break;
    default:
        bad = classify_all(holes, boards, step, 5, rows, made, draws);
    }
    Py_END_ALLOW_THREADS
    return release_args(&bufs, NULL, PyLong_FromSsize_t(bad));
}
