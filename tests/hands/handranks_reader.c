/*
 * handranks_reader: an independent reader of the classic 2+2 HandRanks.dat,
 * written from the protocol alone, that walks every 5-, 6- and 7-card hand
 * and compares each value with the one our own dag7 layers give.
 *
 *   handranks_reader HANDRANKS EXPECTED ARRAY x 9
 *
 * HANDRANKS is the file under test: little-endian int32 entries, cards coded
 * 1..52, a walk p = HR[53 + c1]; p = HR[p + c2]; ... whose read of the
 * seventh card is the value, with one more read HR[p + 0] giving the value
 * of 5 or 6 cards. EXPECTED holds 7463 little-endian int32: the classic value
 * of each of our values 0..7462. Each ARRAY is four words, PATH OFFSET WIDTH
 * COUNT, naming where an array of dag7 starts in its file, its bytes per
 * entry and its length, for dag7/layer1..layer7, dag7/value5, dag7/value6
 * in that order (spec/README.md, sections 3 to 5).
 *
 * Hands are enumerated c1 < c2 < ... < c7 in nested loops, so a prefix is
 * walked once for all the hands that extend it: one read per loop level in
 * each file. Every offset read from HANDRANKS is checked to leave room for a
 * whole node (p >= 0 and p + 52 inside the file) before it is followed, so a
 * truncated or corrupt file ends in an error message, never a wild read.
 *
 * Output, one line per hand size:
 *   hands N COUNT mismatches M categories K1 ... K9 invalid I
 * where K1..K9 count hands by the classic category (value >> 12) read from
 * HANDRANKS, and I counts values of no category. The first mismatches are
 * listed on their own lines. Exit status: 0 when every value matched, 1 on
 * a mismatch, 2 on bad arguments or a bad file.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define N_VALUES 7462
#define N_ARRAYS 9
#define SHOWN_MISMATCHES 10

typedef struct {
    const unsigned char *data; /* first entry */
    int width;                 /* bytes per entry: 1, 2 or 4 */
    uint64_t count;
} Array;

static const unsigned char *hr;   /* the file under test */
static int64_t hr_len;            /* its entries */
static int32_t expected[N_VALUES + 1];
static Array arr[N_ARRAYS];       /* layer1..layer7, value5, value6 */

static uint64_t hands[8], mismatches[8], cats[8][10], invalid[8];

static void fail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("handranks_reader: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

static const unsigned char *map_whole(const char *path, uint64_t *size) {
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        fail("%s: cannot open (%s)", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0)
        fail("%s: cannot stat (%s)", path, strerror(errno));
    *size = (uint64_t)st.st_size;
    if (*size == 0) {
        close(fd);
        return NULL;
    }
    void *p = mmap(NULL, (size_t)*size, PROT_READ, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED)
        fail("%s: cannot map (%s)", path, strerror(errno));
    close(fd);
    return p;
}

static uint32_t le32(const unsigned char *p) {
    return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int32_t as_int32(uint32_t u) {
    /* Two's complement without the implementation-defined conversion. */
    return u <= 0x7fffffffu ? (int32_t)u : -(int32_t)(~u) - 1;
}

/* Entry i of the file under test; callers only pass i inside the file. */
static int32_t at(int64_t i) { return as_int32(le32(hr + 4 * i)); }

/* Entry i, read as the offset of a node, which must lie whole inside the file. */
static int64_t follow(int64_t i) {
    int32_t p = at(i);
    if (p < 0 || (int64_t)p + 52 >= hr_len)
        fail("HR[%lld] = %ld is no node inside a file of %lld entries (truncated or corrupt)",
             (long long)i, (long)p, (long long)hr_len);
    return p;
}

static uint32_t get(const Array *a, uint64_t i) {
    const unsigned char *p = a->data + i * (uint64_t)a->width;
    switch (a->width) {
    case 1: return p[0];
    case 2: return p[0] | (uint32_t)p[1] << 8;
    default: return le32(p);
    }
}

static uint64_t parse_number(const char *s, const char *what) {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *end || s[0] == '-' || v > 0xffffffffffffull)
        fail("%s: not a number: '%s'", what, s);
    return v;
}

static void load_array(int k, char **words) {
    static const char *roles[N_ARRAYS] = {"layer1", "layer2", "layer3", "layer4", "layer5",
                                          "layer6", "layer7", "value5", "value6"};
    uint64_t size, offset = parse_number(words[1], roles[k]);
    uint64_t width = parse_number(words[2], roles[k]);
    uint64_t count = parse_number(words[3], roles[k]);
    if (width != 1 && width != 2 && width != 4)
        fail("%s: width %llu is not 1, 2 or 4", roles[k], (unsigned long long)width);
    const unsigned char *base = map_whole(words[0], &size);
    if (size != offset + count * width)
        fail("%s: %s has %llu bytes, not %llu + %llu * %llu", roles[k], words[0], (unsigned long long)size,
             (unsigned long long)offset, (unsigned long long)count, (unsigned long long)width);
    arr[k].data = base + offset;
    arr[k].width = (int)width;
    arr[k].count = count;
}

/* Our arrays are trusted no more than the file under test: every entry must
 * be a node of the next depth, or a value, before any walk uses it. */
static void check_arrays(void) {
    if (arr[0].count != 52)
        fail("layer1 has %llu entries, not 52", (unsigned long long)arr[0].count);
    for (int k = 0; k < 7; k++) {
        if (arr[k].count % 52)
            fail("layer%d has %llu entries, not a multiple of 52", k + 1, (unsigned long long)arr[k].count);
        uint64_t limit = k < 6 ? arr[k + 1].count / 52 : N_VALUES + 1;
        for (uint64_t i = 0; i < arr[k].count; i++)
            if (get(&arr[k], i) >= limit)
                fail("layer%d[%llu] = %lu, not below %llu", k + 1, (unsigned long long)i,
                     (unsigned long)get(&arr[k], i), (unsigned long long)limit);
    }
    for (int k = 7; k < 9; k++) {
        if (arr[k].count != arr[k - 2].count / 52)
            fail("value%d has %llu entries, not one per node of its depth", k - 2, (unsigned long long)arr[k].count);
        for (uint64_t i = 0; i < arr[k].count; i++)
            if (get(&arr[k], i) > N_VALUES)
                fail("value%d[%llu] is no value", k - 2, (unsigned long long)i);
    }
}

static void load_expected(const char *path) {
    uint64_t size;
    const unsigned char *p = map_whole(path, &size);
    if (size != 4 * (N_VALUES + 1))
        fail("%s: %llu bytes, not %d", path, (unsigned long long)size, 4 * (N_VALUES + 1));
    for (int v = 0; v <= N_VALUES; v++)
        expected[v] = as_int32(le32(p + 4 * v));
}

static void load_handranks(const char *path) {
    uint64_t size;
    hr = map_whole(path, &size);
    if (size % 4)
        fail("%s: %llu bytes, not a whole number of int32 entries (truncated?)", path, (unsigned long long)size);
    hr_len = (int64_t)(size / 4);
    if (hr_len < 53 + 53)
        fail("%s: %lld entries, too few to hold the root node at 53..105 (truncated?)", path, (long long)hr_len);
}

static void card_text(int classic, char out[3]) {
    out[0] = "23456789TJQKA"[(classic - 1) >> 2];
    out[1] = "cdhs"[(classic - 1) & 3];
    out[2] = 0;
}

/* One hand of n classic cards c[0..n-1] read `got`; our layers say `ours`. */
static void check(int n, const int *c, int32_t got, uint32_t ours) {
    hands[n]++;
    int cat = (int)(got >> 12);
    if (got > 0 && cat >= 1 && cat <= 9)
        cats[n][cat]++;
    else
        invalid[n]++;
    if (got == expected[ours])
        return;
    if (mismatches[n]++ < SHOWN_MISMATCHES) {
        printf("mismatch %d cards", n);
        for (int i = 0; i < n; i++) {
            char t[3];
            card_text(c[i], t);
            printf(" %s", t);
        }
        printf(": read %ld, expected %ld (our value %lu)\n", (long)got, (long)expected[ours], (unsigned long)ours);
    }
}

static void walk_all(void) {
    int c[7];
    for (c[0] = 1; c[0] <= 52; c[0]++) {
        int64_t p1 = follow(53 + c[0]);
        uint32_t n1 = get(&arr[0], (uint64_t)c[0] - 1);
        for (c[1] = c[0] + 1; c[1] <= 52; c[1]++) {
            int64_t p2 = follow(p1 + c[1]);
            uint32_t n2 = get(&arr[1], (uint64_t)n1 * 52 + c[1] - 1);
            for (c[2] = c[1] + 1; c[2] <= 52; c[2]++) {
                int64_t p3 = follow(p2 + c[2]);
                uint32_t n3 = get(&arr[2], (uint64_t)n2 * 52 + c[2] - 1);
                for (c[3] = c[2] + 1; c[3] <= 52; c[3]++) {
                    int64_t p4 = follow(p3 + c[3]);
                    uint32_t n4 = get(&arr[3], (uint64_t)n3 * 52 + c[3] - 1);
                    for (c[4] = c[3] + 1; c[4] <= 52; c[4]++) {
                        int64_t p5 = follow(p4 + c[4]);
                        uint32_t n5 = get(&arr[4], (uint64_t)n4 * 52 + c[4] - 1);
                        check(5, c, at(p5), get(&arr[7], n5));
                        for (c[5] = c[4] + 1; c[5] <= 52; c[5]++) {
                            int64_t p6 = follow(p5 + c[5]);
                            uint32_t n6 = get(&arr[5], (uint64_t)n5 * 52 + c[5] - 1);
                            check(6, c, at(p6), get(&arr[8], n6));
                            uint64_t row = (uint64_t)n6 * 52 - 1;
                            for (c[6] = c[5] + 1; c[6] <= 52; c[6]++)
                                check(7, c, at(p6 + c[6]), get(&arr[6], row + c[6]));
                        }
                    }
                }
            }
        }
    }
}

int main(int argc, char **argv) {
    if (argc != 3 + 4 * N_ARRAYS)
        fail("usage: handranks_reader HANDRANKS EXPECTED (PATH OFFSET WIDTH COUNT) x %d", N_ARRAYS);
    for (int k = 0; k < N_ARRAYS; k++)
        load_array(k, argv + 3 + 4 * k);
    check_arrays();
    load_expected(argv[2]);
    load_handranks(argv[1]);
    walk_all();
    uint64_t bad = 0;
    for (int n = 5; n <= 7; n++) {
        printf("hands %d %llu mismatches %llu categories", n, (unsigned long long)hands[n],
               (unsigned long long)mismatches[n]);
        for (int k = 1; k <= 9; k++)
            printf(" %llu", (unsigned long long)cats[n][k]);
        printf(" invalid %llu\n", (unsigned long long)invalid[n]);
        bad += mismatches[n];
    }
    return bad ? 1 : 0;
}
