/*
 * handranks_walk: time the classic HandRanks.dat walk against the same walk
 * over our typed dag7 layers, in order and in random order; and the same
 * reads of the random walk with no read waiting on another.
 *
 *   handranks_walk HANDRANKS EXPECTED HANDS REPEATS (PATH OFFSET WIDTH COUNT) x 7
 *
 * HANDRANKS is an export of the layers given after it (dag7/layer1..layer7,
 * each as its file, data offset, bytes per entry and length); EXPECTED holds
 * the classic value of each of our values 0..7462 as 7463 little-endian int32;
 * HANDS holds the random hands, 7 card bytes each.
 *
 * First, untimed, every 7-card hand is walked in both layouts with every
 * offset checked, and the two values compared: this proves the timed walks,
 * which check nothing (as classic loaders do), stay inside the file, since a
 * hand in any card order reaches the nodes its sorted cards reach. Then each
 * walk is timed REPEATS times, the fastest counting: all 7-card hands in
 * nested loops (one read per loop level), and the HANDS in their order.
 *
 * The reference: the entries the layer walk of HANDS reads are listed
 * (untimed), then read again with no read waiting on another, one layer at a
 * time across all the hands, so the processor overlaps as many cache misses
 * as it can. It is what the memory gives these very reads; a walker must also
 * wait for each card's entry before it knows the next card's, so it is not a
 * bound, but a walker far below it is losing time to something else.
 *
 * Each timed walk sums the values it reads, so none can be optimised away,
 * and prints the sum as its checksum. Output is one JSON object.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* madvise and its MADV_HUGEPAGE, where the system has them */

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define N_VALUES 7462

typedef struct {
    const unsigned char *data;
    int width;
    uint64_t count;
} Array;

static const int32_t *hr; /* the export, read as native int32 (checked to be little-endian) */
static int64_t hr_len;
static int32_t classic[N_VALUES + 1];
static Array layer[7];

static void fail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("handranks_walk: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

static const unsigned char *map_whole(const char *path, uint64_t *size) {
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0)
        fail("%s: cannot open (%s)", path, strerror(errno));
    *size = (uint64_t)st.st_size;
    if (*size == 0)
        fail("%s: empty", path);
    void *p = mmap(NULL, (size_t)*size, PROT_READ, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED)
        fail("%s: cannot map (%s)", path, strerror(errno));
#if defined(MADV_HUGEPAGE) && defined(MADV_RANDOM)
    /* As the runtime maps (spec/README.md, R12): the export, uncached by
     * the bench after writing, comes in with 2 MiB pages as the layers do. */
    if (*size >= (uint64_t)2 << 20 && madvise(p, (size_t)*size, MADV_HUGEPAGE) == 0)
        (void)madvise(p, (size_t)*size, MADV_RANDOM);
#endif
    close(fd);
    return p;
}

static uint64_t number(const char *s) {
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *end || s[0] == '-')
        fail("not a number: '%s'", s);
    return v;
}

static inline uint32_t get(const Array *a, uint64_t i) {
    const unsigned char *p = a->data + i * (uint64_t)a->width;
    switch (a->width) {
    case 1: return p[0];
    case 2: return (uint32_t)p[0] | (uint32_t)p[1] << 8;
    default: return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    }
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void load(char **argv) {
    uint64_t size;
    const unsigned char *bytes = map_whole(argv[1], &size);
    const uint32_t probe = 1;
    unsigned char first;
    memcpy(&first, &probe, 1);
    if (first != 1)
        fail("this bench reads int32 natively and needs a little-endian host");
    if (size % 4 || size / 4 < 106)
        fail("%s: %llu bytes is no HandRanks.dat", argv[1], (unsigned long long)size);
    hr = (const int32_t *)(const void *)bytes; /* mmap returns page-aligned memory */
    hr_len = (int64_t)(size / 4);

    const unsigned char *e = map_whole(argv[2], &size);
    if (size != 4 * (N_VALUES + 1))
        fail("%s: not %d bytes", argv[2], 4 * (N_VALUES + 1));
    memcpy(classic, e, sizeof classic);

    for (int k = 0; k < 7; k++) {
        char **w = argv + 5 + 4 * k;
        uint64_t offset = number(w[1]), width = number(w[2]), count = number(w[3]);
        const unsigned char *base = map_whole(w[0], &size);
        if ((width != 1 && width != 2 && width != 4) || size != offset + count * width || count % 52)
            fail("%s: does not hold %llu entries of %llu bytes from %llu", w[0], (unsigned long long)count,
                 (unsigned long long)width, (unsigned long long)offset);
        layer[k] = (Array){base + offset, (int)width, count};
    }
    for (int k = 0; k < 7; k++) {
        uint64_t limit = k < 6 ? layer[k + 1].count / 52 : N_VALUES + 1;
        for (uint64_t i = 0; i < layer[k].count; i++)
            if (get(&layer[k], i) >= limit)
                fail("layer%d[%llu] out of range", k + 1, (unsigned long long)i);
    }
    if (layer[0].count != 52)
        fail("layer1 is not one row");
}

static int64_t follow(int64_t i) {
    int32_t p = hr[i];
    if (p < 0 || (int64_t)p + 52 >= hr_len)
        fail("HR[%lld] = %ld points outside the file", (long long)i, (long)p);
    return p;
}

/* Every 7-card hand in both layouts, checked, counted in *hands; returns the hands whose values differ. */
static uint64_t check_in_order(uint64_t *hands) {
    uint64_t bad = 0;
    for (int a = 0; a < 52; a++) {
        int64_t pa = follow(54 + a);
        uint32_t na = get(&layer[0], (uint64_t)a);
        for (int b = a + 1; b < 52; b++) {
            int64_t pb = follow(pa + b + 1);
            uint32_t nb = get(&layer[1], (uint64_t)na * 52 + b);
            for (int c = b + 1; c < 52; c++) {
                int64_t pc = follow(pb + c + 1);
                uint32_t nc = get(&layer[2], (uint64_t)nb * 52 + c);
                for (int d = c + 1; d < 52; d++) {
                    int64_t pd = follow(pc + d + 1);
                    uint32_t nd = get(&layer[3], (uint64_t)nc * 52 + d);
                    for (int e = d + 1; e < 52; e++) {
                        int64_t pe = follow(pd + e + 1);
                        uint32_t ne = get(&layer[4], (uint64_t)nd * 52 + e);
                        for (int f = e + 1; f < 52; f++) {
                            int64_t pf = follow(pe + f + 1);
                            uint32_t nf = get(&layer[5], (uint64_t)ne * 52 + f);
                            for (int g = f + 1; g < 52; g++) {
                                bad += hr[pf + g + 1] != classic[get(&layer[6], (uint64_t)nf * 52 + g)];
                                ++*hands;
                            }
                        }
                    }
                }
            }
        }
    }
    return bad;
}

static uint64_t handranks_in_order(void) {
    uint64_t sum = 0;
    for (int a = 1; a <= 52; a++) {
        int32_t pa = hr[53 + a];
        for (int b = a + 1; b <= 52; b++) {
            int32_t pb = hr[pa + b];
            for (int c = b + 1; c <= 52; c++) {
                int32_t pc = hr[pb + c];
                for (int d = c + 1; d <= 52; d++) {
                    int32_t pd = hr[pc + d];
                    for (int e = d + 1; e <= 52; e++) {
                        int32_t pe = hr[pd + e];
                        for (int f = e + 1; f <= 52; f++) {
                            const int32_t *row = hr + hr[pe + f];
                            for (int g = f + 1; g <= 52; g++)
                                sum += (uint32_t)row[g];
                        }
                    }
                }
            }
        }
    }
    return sum;
}

/* The last layer's row summed, with the width dispatched once per row. */
static uint64_t row_sum(const Array *a, uint64_t start, int from) {
    uint64_t sum = 0;
    const unsigned char *p = a->data + start * (uint64_t)a->width;
    switch (a->width) {
    case 1:
        for (int g = from; g < 52; g++) sum += p[g];
        break;
    case 2:
        for (int g = from; g < 52; g++) sum += (uint32_t)p[2 * g] | (uint32_t)p[2 * g + 1] << 8;
        break;
    default:
        for (int g = from; g < 52; g++) sum += get(a, start + (uint64_t)g);
    }
    return sum;
}

static uint64_t layers_in_order(void) {
    uint64_t sum = 0;
    for (int a = 0; a < 52; a++) {
        uint32_t na = get(&layer[0], (uint64_t)a);
        for (int b = a + 1; b < 52; b++) {
            uint32_t nb = get(&layer[1], (uint64_t)na * 52 + b);
            for (int c = b + 1; c < 52; c++) {
                uint32_t nc = get(&layer[2], (uint64_t)nb * 52 + c);
                for (int d = c + 1; d < 52; d++) {
                    uint32_t nd = get(&layer[3], (uint64_t)nc * 52 + d);
                    for (int e = d + 1; e < 52; e++) {
                        uint32_t ne = get(&layer[4], (uint64_t)nd * 52 + e);
                        for (int f = e + 1; f < 52; f++) {
                            uint32_t nf = get(&layer[5], (uint64_t)ne * 52 + f);
                            sum += row_sum(&layer[6], (uint64_t)nf * 52, f + 1);
                        }
                    }
                }
            }
        }
    }
    return sum;
}

static uint64_t handranks_random(const unsigned char *h, uint64_t n) {
    uint64_t sum = 0;
    for (uint64_t i = 0; i < n; i++, h += 7) {
        int32_t p = hr[54 + h[0]];
        p = hr[p + h[1] + 1];
        p = hr[p + h[2] + 1];
        p = hr[p + h[3] + 1];
        p = hr[p + h[4] + 1];
        p = hr[p + h[5] + 1];
        sum += (uint32_t)hr[p + h[6] + 1];
    }
    return sum;
}

static uint32_t layers_one(const unsigned char *h) {
    uint32_t node = get(&layer[0], h[0]);
    for (int k = 1; k < 7; k++)
        node = get(&layer[k], (uint64_t)node * 52 + h[k]);
    return node;
}

static uint64_t layers_random(const unsigned char *h, uint64_t n) {
    uint64_t sum = 0;
    for (uint64_t i = 0; i < n; i++, h += 7)
        sum += layers_one(h);
    return sum;
}

/* The index each layer's read takes in the walk of each of the n hands. */
static uint32_t *lookups[7];

static void list_lookups(const unsigned char *h, uint64_t n) {
    for (int k = 0; k < 7; k++)
        if (!(lookups[k] = malloc(n * sizeof(uint32_t))))
            fail("out of memory for %llu lookups", (unsigned long long)n);
    for (uint64_t i = 0; i < n; i++, h += 7) {
        uint32_t node = 0;
        for (int k = 0; k < 7; k++) {
            uint64_t at = k == 0 ? h[0] : (uint64_t)node * 52 + h[k];
            lookups[k][i] = (uint32_t)at;
            node = get(&layer[k], at);
        }
    }
}

/* Every listed read, each independent of the others. One loop per entry
 * width keeps the loop free of branches, so nothing but the reads limits it. */
static uint64_t independent_reads(const unsigned char *h, uint64_t n) {
    (void)h;
    uint64_t sum = 0;
    for (int k = 0; k < 7; k++) {
        const unsigned char *d = layer[k].data;
        const uint32_t *at = lookups[k];
        if (layer[k].width == 1) {
            for (uint64_t i = 0; i < n; i++)
                sum += d[at[i]];
        } else if (layer[k].width == 2) {
            for (uint64_t i = 0; i < n; i++)
                sum += (uint32_t)d[2 * (uint64_t)at[i]] | (uint32_t)d[2 * (uint64_t)at[i] + 1] << 8;
        } else {
            for (uint64_t i = 0; i < n; i++) {
                const unsigned char *p = d + 4 * (uint64_t)at[i];
                sum += (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
            }
        }
    }
    return sum;
}

static uint64_t check_random(const unsigned char *h, uint64_t n) {
    uint64_t bad = 0;
    for (uint64_t i = 0; i < n; i++, h += 7) {
        int32_t p = hr[54 + h[0]];
        for (int k = 1; k < 7; k++)
            p = hr[p + h[k] + 1];
        bad += p != classic[layers_one(h)];
    }
    return bad;
}

typedef uint64_t (*OrderedWalk)(void);
typedef uint64_t (*RandomWalk)(const unsigned char *, uint64_t);

static double best_ordered(OrderedWalk walk, int repeats, uint64_t *sum) {
    double best = 1e300;
    for (int r = 0; r < repeats; r++) {
        double t = now();
        *sum = walk();
        t = now() - t;
        if (t < best) best = t;
    }
    return best;
}

static double best_random(RandomWalk walk, const unsigned char *h, uint64_t n, int repeats, uint64_t *sum) {
    double best = 1e300;
    for (int r = 0; r < repeats; r++) {
        double t = now();
        *sum = walk(h, n);
        t = now() - t;
        if (t < best) best = t;
    }
    return best;
}

int main(int argc, char **argv) {
    if (argc != 5 + 4 * 7)
        fail("usage: handranks_walk HANDRANKS EXPECTED HANDS REPEATS (PATH OFFSET WIDTH COUNT) x 7");
    load(argv);
    uint64_t size;
    const unsigned char *hands = map_whole(argv[3], &size);
    uint64_t n = size / 7;
    if (size % 7)
        fail("%s: %llu bytes is not a whole number of 7-card hands", argv[3], (unsigned long long)size);
    /* The timed walks check nothing, and stay inside the arrays only for hands of distinct cards. */
    for (uint64_t i = 0; i < n; i++) {
        uint64_t held = 0;
        for (int k = 0; k < 7; k++) {
            unsigned char c = hands[7 * i + k];
            if (c > 51 || (held >> c & 1))
                fail("%s: hand %llu: card %d is %d, not a card or held twice", argv[3], (unsigned long long)i, k, c);
            held |= 1ull << c;
        }
    }
    int repeats = (int)number(argv[4]);
    if (repeats < 1)
        fail("REPEATS must be at least 1");

    uint64_t ordered_hands = 0;
    uint64_t ordered_bad = check_in_order(&ordered_hands);
    uint64_t hr_sum, layers_sum, hr_rsum, layers_rsum, reads_sum;
    double hr_s = best_ordered(handranks_in_order, repeats, &hr_sum);
    double layers_s = best_ordered(layers_in_order, repeats, &layers_sum);

    uint64_t random_bad = check_random(hands, n); /* also brings every page in before timing */
    double hr_rs = best_random(handranks_random, hands, n, repeats, &hr_rsum);
    double layers_rs = best_random(layers_random, hands, n, repeats, &layers_rsum);
    list_lookups(hands, n);
    double reads_s = best_random(independent_reads, hands, n, repeats, &reads_sum);

    printf("{\"in_order\": {\"hands\": %llu, \"handranks_s\": %.6f, \"layers_s\": %.6f, "
           "\"handranks_sum\": %llu, \"layers_sum\": %llu, \"mismatches\": %llu}, "
           "\"random\": {\"hands\": %llu, \"handranks_s\": %.6f, \"layers_s\": %.6f, "
           "\"handranks_sum\": %llu, \"layers_sum\": %llu, \"mismatches\": %llu, "
           "\"independent_reads_s\": %.6f, \"independent_reads_sum\": %llu}}\n",
           (unsigned long long)ordered_hands, hr_s, layers_s, (unsigned long long)hr_sum, (unsigned long long)layers_sum,
           (unsigned long long)ordered_bad, (unsigned long long)n, hr_rs, layers_rs,
           (unsigned long long)hr_rsum, (unsigned long long)layers_rsum, (unsigned long long)random_bad, reads_s,
           (unsigned long long)reads_sum);
    return 0;
}
