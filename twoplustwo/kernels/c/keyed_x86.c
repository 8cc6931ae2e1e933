/* The keyed tables' batch loops in AVX2 (eight hands at a time) and in
 * AVX-512 (sixteen), for the x86 processors that have them; each is
 * compiled with its own target attributes, so that the module builds and
 * runs everywhere, and keyed.c chooses one when the module loads. They read
 * the same tables as keyed.c's scalar loop and give the same values: the
 * tests hold every loop against the DAG walk on every 5-, 6- and 7-card
 * hand, and against the scalar loop's errors.
 *
 * Both turn each card into its place among the suits' ranks, 16 * suit +
 * rank as in keyed.c, in a 32-bit lane of its row; each lane adds 5^rank
 * for the rank key and ors the card's bit into two masks, suits 0 and 1 in
 * one and suits 2 and 3 in the other, 16 bits a suit. Counting the bits of
 * each 16-bit half gives each suit's count: a row whose counts do not add
 * up to its length held a card twice; a count of 5 or more is a flush,
 * whose 13 bits index the flush table. Every other lane hashes its rank
 * key (keyed_slot in core.h) and gathers its value. The scalar loop takes
 * any block with a bad row (a card twice or a byte over 51), so that the
 * errors are its own, and the rows after the last whole block.
 *
 * AVX-512: a block of sixteen rows is two loads. A byte permute turns each
 * card into its place, or into a place past them all for a byte over 51;
 * a byte permute per card position then gives each row that card's place.
 * popcnt counts the 16-bit halves.
 *
 * AVX2: a block of eight rows (8k bytes) is two overlapping loads of 32
 * bytes, rearranged so that each 16-byte half of two registers holds the
 * bytes of its four rows; shifts and masks turn every byte into its place
 * at once, and two in-lane byte shuffles per card position give each row
 * that card's place. 5^rank comes from two 8-entry permutes, the bit
 * counts from a nibble table. */

#include "core.h"

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>

#define VECTOR_TARGET __attribute__((target("avx512f,avx512bw,avx512vbmi,avx512bitalg")))
/* How far ahead of a block its rows are fetched into the cache (a prefetch
 * never faults, wherever it points). */
#define PREFETCH_AHEAD 1024
#define AVX2_TARGET __attribute__((target("avx2")))

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

/* A block of sixteen rows whose displacements are on the way: what its values need. */
struct pending16 {
    __m512i hash, shift, flushed; /* flushed: a flush's 13 bits where a row makes one, else 0 */
};

/* The values of a pending block into out. */
static inline VECTOR_TARGET void finish16(const struct keyed *t, const uint16_t *flush, struct pending16 p,
                                          uint16_t *out) {
    const __m512i low16 = _mm512_set1_epi32(0xFFFF);
    __mmask16 is_flush = _mm512_test_epi32_mask(p.flushed, p.flushed);
    __m512i start = _mm512_srlv_epi32(p.hash, _mm512_set1_epi32(t->start_shift));
    __m512i slot = _mm512_and_si512(_mm512_add_epi32(start, _mm512_and_si512(p.shift, low16)),
                                    _mm512_set1_epi32((int)t->mask));
    __m512i value = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), (__mmask16)~is_flush, slot, t->value, 2);
    if (is_flush) {
        __m512i suited = _mm512_and_si512(_mm512_or_si512(p.flushed, _mm512_srli_epi32(p.flushed, 16)),
                                          _mm512_set1_epi32(0x1FFF));
        value = _mm512_mask_i32gather_epi32(value, is_flush, suited, flush, 2);
    }
    _mm256_storeu_si256((__m256i *)out, _mm512_cvtepi32_epi16(value));
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
    const __m512i length = _mm512_set1_epi32(k);
    const __m512i multiplier = _mm512_set1_epi32((int)t->multiplier);
    const __m512i bucket_shift = _mm512_set1_epi32(32 - t->bucket_bits);
    struct pending16 pending = {_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512()};
    const __mmask64 tail = ((__mmask64)1 << (16 * k - 64)) - 1; /* the block's bytes past its first 64 */
    const __mmask64 first_bytes = 0x1111111111111111u;         /* byte 0 of each 32-bit lane */
    for (int b = 0; b < blocks; b++) {
        const unsigned char *p = rows + (size_t)b * 16 * k;
        _mm_prefetch((const char *)p + PREFETCH_AHEAD, _MM_HINT_T0);
        _mm_prefetch((const char *)p + PREFETCH_AHEAD + 64, _MM_HINT_T0);
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
        if (_mm512_cmpneq_epi32_mask(held, length)) {
            if (b > 0)
                finish16(t, flush, pending, out + (size_t)(b - 1) * 16);
            return 16 * b;
        }
        /* At most one suit holds five of seven cards: its 13 bits, the others' zeroed. */
        __m512i flushed = _mm512_or_si512(_mm512_maskz_mov_epi16(_mm512_cmpge_epu16_mask(count_low, five), low),
                                          _mm512_maskz_mov_epi16(_mm512_cmpge_epu16_mask(count_high, five), high));
        /* As in the AVX2 loop: the displacements' gather goes out now,
         * the values' once the next block's keys are made. */
        __m512i hash = _mm512_mullo_epi32(key, multiplier);
        __m512i shift = _mm512_i32gather_epi32(_mm512_srlv_epi32(hash, bucket_shift), t->disp, 2);
        if (b > 0)
            finish16(t, flush, pending, out + (size_t)(b - 1) * 16);
        pending.hash = hash, pending.shift = shift, pending.flushed = flushed;
    }
    if (blocks > 0)
        finish16(t, flush, pending, out + (size_t)(blocks - 1) * 16);
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


/* AVX2: in-lane shuffle indices per (k, card j): byte 4 * (i % 4) of the
 * half of row i is row i's card j, picked from the first register (from_a)
 * or the second (from_b); 0x80 zeroes a byte. */
static unsigned char from_a[3][7][32], from_b[3][7][32];

static void fill_avx2_tables(void) {
    memset(from_a, 0x80, sizeof from_a);
    memset(from_b, 0x80, sizeof from_b);
    for (int k = 5; k <= 7; k++)
        for (int j = 0; j < k; j++)
            for (int i = 0; i < 8; i++) {
                /* The half of rows 4..7 holds the block's last 32 bytes. */
                int at = k * i + j - (i < 4 ? 0 : 8 * k - 32), byte = 16 * (i / 4) + 4 * (i % 4);
                if (at < 16)
                    from_a[k - 5][j][byte] = (unsigned char)at;
                else
                    from_b[k - 5][j][byte] = (unsigned char)(at - 16);
            }
}

/* Each byte's bits counted, by a nibble table. */
static inline AVX2_TARGET __m256i byte_counts(__m256i x) {
    const __m256i table = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1,
                                           2, 2, 3, 2, 3, 3, 4);
    const __m256i low4 = _mm256_set1_epi8(0x0F);
    return _mm256_add_epi8(_mm256_shuffle_epi8(table, _mm256_and_si256(x, low4)),
                           _mm256_shuffle_epi8(table, _mm256_and_si256(_mm256_srli_epi16(x, 4), low4)));
}

/* A block of eight rows whose displacements are on the way: what its values need. */
struct pending8 {
    __m256i mask;
    __m128i start_shift;
    __m256i hash, shift, flushed; /* flushed: a flush's 13 bits where a row makes one, else 0 */
};

/* The values of a pending block into out. */
static inline AVX2_TARGET void finish8(const int *values, const int *flushes, struct pending8 p, uint16_t *out) {
    const __m256i low16 = _mm256_set1_epi32(0xFFFF);
    __m256i plain = _mm256_cmpeq_epi32(p.flushed, _mm256_setzero_si256());
    __m256i slot = _mm256_and_si256(
        _mm256_add_epi32(_mm256_srl_epi32(p.hash, p.start_shift), _mm256_and_si256(p.shift, low16)), p.mask);
    __m256i value = _mm256_mask_i32gather_epi32(_mm256_setzero_si256(), values, slot, plain, 2);
    if (_mm256_movemask_epi8(plain) != -1) {
        __m256i suited = _mm256_and_si256(_mm256_or_si256(p.flushed, _mm256_srli_epi32(p.flushed, 16)),
                                          _mm256_set1_epi32(0x1FFF));
        value = _mm256_mask_i32gather_epi32(value, flushes, suited, _mm256_xor_si256(plain, _mm256_set1_epi32(-1)), 2);
    }
    value = _mm256_and_si256(value, low16);
    __m256i packed = _mm256_permute4x64_epi64(_mm256_packus_epi32(value, value), 0x08);
    _mm_storeu_si128((__m128i *)out, _mm256_castsi256_si128(packed));
}

/* Stopping at block b (a bad row): the block before it finished, the rows done. */
static inline AVX2_TARGET int finish_at(const int *values, const int *flushes, struct pending8 p, uint16_t *out,
                                        int b) {
    if (b > 0)
        finish8(values, flushes, p, out + (size_t)(b - 1) * 8);
    return 8 * b;
}

/* Rows [0, 8 * blocks) of k cards into out, until a block holds a bad row:
 * the number of rows done (a multiple of 8). */
static inline AVX2_TARGET int rows8_of(const struct keyed *t, const uint16_t *flush, const unsigned char *rows,
                                       int blocks, const int k, uint16_t *out) {
    __m256i pick_a[7], pick_b[7];
    for (int j = 0; j < k; j++) {
        pick_a[j] = _mm256_loadu_si256((const __m256i *)from_a[k - 5][j]);
        pick_b[j] = _mm256_loadu_si256((const __m256i *)from_b[k - 5][j]);
    }
    const __m256i pow5_low = _mm256_setr_epi32(1, 5, 25, 125, 625, 3125, 15625, 78125);
    const __m256i pow5_high = _mm256_setr_epi32(390625, 1953125, 9765625, 48828125, 244140625, 0, 0, 0);
    const __m256i one = _mm256_set1_epi32(1), thirty_two = _mm256_set1_epi32(32);
    const __m256i top_card = _mm256_set1_epi8(51), low2 = _mm256_set1_epi8(3), ranks = _mm256_set1_epi8(0x0F);
    const __m256i ones8 = _mm256_set1_epi8(1), ones16 = _mm256_set1_epi16(1), four = _mm256_set1_epi16(4);
    const __m256i length = _mm256_set1_epi32(k);
    const __m256i multiplier = _mm256_set1_epi32((int)t->multiplier), mask = _mm256_set1_epi32((int)t->mask);
    const __m128i bucket_shift = _mm_cvtsi32_si128(32 - t->bucket_bits), start_shift = _mm_cvtsi32_si128(t->start_shift);
    const int *disp = (const int *)t->disp, *values = (const int *)t->value, *flushes = (const int *)flush;
    struct pending8 pending = {mask, start_shift, _mm256_setzero_si256(), _mm256_setzero_si256(),
                               _mm256_setzero_si256()};
    for (int b = 0; b < blocks; b++) {
        const unsigned char *p = rows + (size_t)b * 8 * k;
        _mm_prefetch((const char *)p + PREFETCH_AHEAD, _MM_HINT_T0);
        __m256i first = _mm256_loadu_si256((const __m256i *)p);
        __m256i last = _mm256_loadu_si256((const __m256i *)(p + 8 * k - 32));
        __m256i a = _mm256_permute2x128_si256(first, last, 0x20), c = _mm256_permute2x128_si256(first, last, 0x31);
        /* Every byte of the block is in a or c: one over 51 makes it bad. */
        __m256i cards_ok = _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_min_epu8(a, top_card), a),
                                            _mm256_cmpeq_epi8(_mm256_min_epu8(c, top_card), c));
        if (_mm256_movemask_epi8(cards_ok) != -1)
            return finish_at(values, flushes, pending, out, b);
        /* 16 * suit + rank of every byte. */
        a = _mm256_or_si256(_mm256_slli_epi16(_mm256_and_si256(a, low2), 4),
                            _mm256_and_si256(_mm256_srli_epi16(a, 2), ranks));
        c = _mm256_or_si256(_mm256_slli_epi16(_mm256_and_si256(c, low2), 4),
                            _mm256_and_si256(_mm256_srli_epi16(c, 2), ranks));
        __m256i key = _mm256_setzero_si256(), low = _mm256_setzero_si256(), high = _mm256_setzero_si256();
        for (int j = 0; j < k; j++) {
            __m256i at = _mm256_or_si256(_mm256_shuffle_epi8(a, pick_a[j]), _mm256_shuffle_epi8(c, pick_b[j]));
            /* 5^rank: ranks 0..7 from one permute, 8..12 from the other (bit 3, moved to the sign, picks). */
            __m256i power = _mm256_castps_si256(_mm256_blendv_ps(
                _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(pow5_low, at)),
                _mm256_castsi256_ps(_mm256_permutevar8x32_epi32(pow5_high, at)),
                _mm256_castsi256_ps(_mm256_slli_epi32(at, 28))));
            key = _mm256_add_epi32(key, power);
            low = _mm256_or_si256(low, _mm256_sllv_epi32(one, at)); /* a shift of 32 or more gives 0 */
            high = _mm256_or_si256(high, _mm256_sllv_epi32(one, _mm256_sub_epi32(at, thirty_two)));
        }
        __m256i count_low = _mm256_maddubs_epi16(byte_counts(low), ones8);
        __m256i count_high = _mm256_maddubs_epi16(byte_counts(high), ones8);
        __m256i held = _mm256_madd_epi16(_mm256_add_epi16(count_low, count_high), ones16);
        if (_mm256_movemask_epi8(_mm256_cmpeq_epi32(held, length)) != -1)
            return finish_at(values, flushes, pending, out, b);
        /* At most one suit holds five of seven cards: its 13 bits, the others' zeroed. */
        __m256i flushed = _mm256_or_si256(_mm256_and_si256(_mm256_cmpgt_epi16(count_low, four), low),
                                          _mm256_and_si256(_mm256_cmpgt_epi16(count_high, four), high));
        /* The displacements' gather goes out now, and the block's values
         * are gathered once the next block's keys are made: the two
         * gathers of a block wait on each other, and the wait overlaps
         * the next block's work instead of stalling its own. */
        __m256i hash = _mm256_mullo_epi32(key, multiplier);
        __m256i shift = _mm256_i32gather_epi32(disp, _mm256_srl_epi32(hash, bucket_shift), 2);
        if (b > 0)
            finish8(values, flushes, pending, out + (size_t)(b - 1) * 8);
        pending.hash = hash, pending.shift = shift, pending.flushed = flushed;
    }
    if (blocks > 0)
        finish8(values, flushes, pending, out + (size_t)(blocks - 1) * 8);
    return 8 * blocks;
}

static AVX2_TARGET int rows_avx2(const struct keyed *t, const uint16_t *flush, const unsigned char *rows, int m, int k,
                                 uint16_t *out) {
    switch (k) {
    case 7:
        return rows8_of(t, flush, rows, m / 8, 7, out);
    case 6:
        return rows8_of(t, flush, rows, m / 8, 6, out);
    default:
        return rows8_of(t, flush, rows, m / 8, 5, out);
    }
}

keyed_rows_fn keyed_vector_rows(int loop) {
    __builtin_cpu_init();
    if (loop == 2 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512bitalg")) {
        fill_vector_tables();
        return rows_avx512;
    }
    if (loop == 1 && __builtin_cpu_supports("avx2")) {
        fill_avx2_tables();
        return rows_avx2;
    }
    return NULL;
}

#else

keyed_rows_fn keyed_vector_rows(int loop) {
    (void)loop;
    return NULL;
}

#endif
