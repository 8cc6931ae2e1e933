/* The keyed tables' batch loop in AVX-512, sixteen hands at a time, for
 * the x86 processors that have it (chosen once, when the module loads; see
 * keyed_vector_rows). It reads the same tables as keyed.c's scalar loop
 * and gives the same values: the tests hold both against the DAG walk on
 * every 5-, 6- and 7-card hand.
 *
 * A block of sixteen rows is two loads. A byte lookup in the register
 * turns each card into its place among the suits' ranks, 16 * suit + rank
 * as in keyed.c, or into a place past them all for a byte over 51; a byte
 * permute per card position then gives each row that card's place in a
 * 32-bit lane of its own. Each lane adds 5^rank for the rank key and ors
 * the card's bit into two masks, suits 0 and 1 in one and suits 2 and 3 in
 * the other, 16 bits a suit. Counting the bits of each 16-bit half gives
 * each suit's count: a row whose counts do not add up to its length held a
 * card twice or one over 51; a count of 5 or more is a flush, whose 13
 * bits index the flush table. Every other lane hashes its rank key
 * (keyed_slot in core.h) and gathers its value. The scalar loop takes any
 * block with a bad row, so that the errors are its own, and the rows after
 * the last whole block. */

#include "core.h"

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>

#define VECTOR_TARGET __attribute__((target("avx512f,avx512bw,avx512vbmi,avx512bitalg")))

/* Byte permute indices: byte 4 * i of card j's (k = 5, 6, 7) is row i's
 * card j, the other bytes are zeroed. */
static unsigned char transpose[3][7][64];

/* Each byte 0..63, after bytes over 63 are clamped to 63: 16 * suit + rank
 * for a card, 0xFF (a shift past both lanes) for 52..63. */
static unsigned char card_position[64];

static void fill_vector_tables(void) {
    for (int k = 5; k <= 7; k++)
        for (int j = 0; j < k; j++)
            for (int i = 0; i < 16; i++)
                transpose[k - 5][j][4 * i] = (unsigned char)(k * i + j);
    for (int b = 0; b < 64; b++)
        card_position[b] = b < 52 ? (unsigned char)(16 * (b & 3) + (b >> 2)) : 0xFF;
}

/* Rows [0, 16 * blocks) of k cards into out, until a block holds a bad row:
 * the number of rows done (a multiple of 16). */
static inline VECTOR_TARGET int rows_of(const struct keyed *t, const uint16_t *flush, const unsigned char *rows,
                                        int blocks, const int k, uint16_t *out) {
    __m512i by_card[7];
    for (int j = 0; j < k; j++)
        by_card[j] = _mm512_loadu_si512(transpose[k - 5][j]);
    const __m512i positions = _mm512_loadu_si512(card_position);
    const __m512i pow5 = _mm512_setr_epi32(1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125, 9765625,
                                           48828125, 244140625, 0, 0, 0);
    const __m512i one = _mm512_set1_epi32(1), thirty_two = _mm512_set1_epi32(32);
    const __m512i clamp = _mm512_set1_epi8(63), five = _mm512_set1_epi16(5), ones16 = _mm512_set1_epi16(1);
    const __m512i length = _mm512_set1_epi32(k), low13 = _mm512_set1_epi32(0x1FFF), low16 = _mm512_set1_epi32(0xFFFF);
    const __m512i multiplier = _mm512_set1_epi32((int)t->multiplier), mask = _mm512_set1_epi32((int)t->mask);
    const __m512i bucket_shift = _mm512_set1_epi32(32 - t->bucket_bits), start_shift = _mm512_set1_epi32(t->start_shift);
    const __mmask64 tail = ((__mmask64)1 << (16 * k - 64)) - 1; /* the block's bytes past its first 64 */
    const __mmask64 first_bytes = 0x1111111111111111u;         /* byte 0 of each 32-bit lane */
    for (int b = 0; b < blocks; b++) {
        const unsigned char *p = rows + (size_t)b * 16 * k;
        __m512i first = _mm512_permutexvar_epi8(_mm512_min_epu8(_mm512_loadu_si512(p), clamp), positions);
        __m512i rest = _mm512_permutexvar_epi8(_mm512_min_epu8(_mm512_maskz_loadu_epi8(tail, p + 64), clamp),
                                               positions);
        __m512i key = _mm512_setzero_si512(), low = _mm512_setzero_si512(), high = _mm512_setzero_si512();
        for (int j = 0; j < k; j++) {
            __m512i at = _mm512_maskz_permutex2var_epi8(first_bytes, first, by_card[j], rest);
            key = _mm512_add_epi32(key, _mm512_permutexvar_epi32(at, pow5)); /* the low 4 bits are the rank */
            low = _mm512_or_si512(low, _mm512_sllv_epi32(one, at));
            high = _mm512_or_si512(high, _mm512_sllv_epi32(one, _mm512_sub_epi32(at, thirty_two)));
        }
        __m512i count_low = _mm512_popcnt_epi16(low), count_high = _mm512_popcnt_epi16(high);
        __m512i held = _mm512_madd_epi16(_mm512_add_epi16(count_low, count_high), ones16);
        if (_mm512_cmpneq_epi32_mask(held, length))
            return 16 * b;
        /* At most one suit holds five of seven cards: its 13 bits, the others' zeroed. */
        __m512i flushed = _mm512_or_si512(_mm512_maskz_mov_epi16(_mm512_cmpge_epu16_mask(count_low, five), low),
                                          _mm512_maskz_mov_epi16(_mm512_cmpge_epu16_mask(count_high, five), high));
        __mmask16 is_flush = _mm512_test_epi32_mask(flushed, flushed);
        __m512i hash = _mm512_mullo_epi32(key, multiplier);
        __m512i disp = _mm512_and_si512(_mm512_i32gather_epi32(_mm512_srlv_epi32(hash, bucket_shift), t->disp, 2),
                                        low16);
        __m512i slot = _mm512_and_si512(_mm512_add_epi32(_mm512_srlv_epi32(hash, start_shift), disp), mask);
        __m512i value = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), (__mmask16)~is_flush, slot, t->value, 2);
        if (is_flush) {
            __m512i suited = _mm512_and_si512(_mm512_or_si512(flushed, _mm512_srli_epi32(flushed, 16)), low13);
            value = _mm512_mask_i32gather_epi32(value, is_flush, suited, flush, 2);
        }
        _mm256_storeu_si256((__m256i *)(out + (size_t)b * 16), _mm512_cvtepi32_epi16(value));
    }
    return 16 * blocks;
}

static VECTOR_TARGET int rows_avx512(const struct keyed *t, const uint16_t *flush, const unsigned char *rows, int m,
                                     int k, uint16_t *out) {
    switch (k) {
    case 7:
        return rows_of(t, flush, rows, m / 16, 7, out);
    case 6:
        return rows_of(t, flush, rows, m / 16, 6, out);
    default:
        return rows_of(t, flush, rows, m / 16, 5, out);
    }
}

keyed_rows_fn keyed_vector_rows(void) {
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx512f") || !__builtin_cpu_supports("avx512bw") ||
        !__builtin_cpu_supports("avx512vbmi") || !__builtin_cpu_supports("avx512bitalg"))
        return NULL;
    fill_vector_tables();
    return rows_avx512;
}

#else

keyed_rows_fn keyed_vector_rows(void) {
    return NULL;
}

#endif
