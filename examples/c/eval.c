/*
 * eval.c: evaluate poker hands with the twoplustwo tables from C.
 *
 * A reader written from tables/README.md alone, in C99 with libc and POSIX
 * (open, mmap) only. It parses manifest.json with a small JSON parser,
 * memory-maps each table file read-only, checks the tables once so that a
 * damaged file cannot send a walk out of bounds, and then:
 *
 *   eval [--dag7] [TABLES_DIR] < hands.txt
 *       reads one hand per line ("As Kd 7h 7c 2s 3d 9c": 5 to 7 cards,
 *       rank 2-9 T J Q K A or 10, suit c d h s, either case, separated by
 *       blanks or commas) and prints "<cards> <category> <value>" per hand.
 *       A bad line (unknown card, duplicate, wrong count) gets one error
 *       line on stderr and no output line; the others go on, and the exit
 *       status is 1 if any line was bad. Blank lines and lines starting
 *       with '#' are skipped. 5- and 6-card hands walk the dedicated dag5
 *       and dag6; --dag7 walks them through dag7 and dag7/value5, value6.
 *
 *   eval --all [TABLES_DIR]
 *       walks all 133,784,560 seven-card hands in lexicographic order
 *       (c1 < c2 < ... < c7, reusing each prefix's node) and prints the
 *       category counts and the walk time.
 *
 * TABLES_DIR defaults to $TWOPLUSTWO_TABLES, else "tables".
 * Exit status: 0 ok, 1 some input line was bad, 2 usage or table error.
 */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
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

#define FORMAT_VERSION 1
#define MAX_VALUE 7462
#define MAX_FILES 64
#define MAX_STR 256

static const char *const CATEGORY[9] = {
    "high_card", "pair", "two_pair", "three_of_a_kind", "straight",
    "flush", "full_house", "four_of_a_kind", "straight_flush",
};
/* First value of each category; the last one ends at MAX_VALUE. */
static const int CATEGORY_FIRST[9] = {1, 1278, 4138, 4996, 5854, 5864, 7141, 7297, 7453};

static void die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("eval: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

/* ------------------------------------------------------------ manifest */

struct file_entry {
    char name[MAX_STR], role[MAX_STR], dtype[8];
    long long offset, nbytes, length; /* length: shape[0] */
    int nshape;
};

struct parser {
    const char *start, *p, *end, *where;
};

static void perr(struct parser *ps, const char *what) {
    die("%s: bad JSON at byte %ld: %s", ps->where, (long)(ps->p - ps->start), what);
}

static void ws(struct parser *ps) {
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
        ps->p++;
}

static int peek(struct parser *ps) {
    ws(ps);
    return ps->p < ps->end ? (unsigned char)*ps->p : -1;
}

static void expect(struct parser *ps, char c) {
    if (peek(ps) != c) {
        char msg[32];
        snprintf(msg, sizeof msg, "expected '%c'", c);
        perr(ps, msg);
    }
    ps->p++;
}

/* A string into out (truncated to cap - 1 bytes); escapes are decoded,
 * except that \uXXXX becomes '?': no name or role the format allows has one. */
static void string(struct parser *ps, char *out, size_t cap) {
    size_t n = 0;
    expect(ps, '"');
    while (ps->p < ps->end && *ps->p != '"') {
        char c = *ps->p++;
        if (c == '\\') {
            if (ps->p >= ps->end) break;
            c = *ps->p++;
            switch (c) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'u':
                if (ps->end - ps->p < 4) perr(ps, "short \\u escape");
                ps->p += 4;
                c = '?';
                break;
            default: break; /* \" \\ \/ stand for themselves */
            }
        }
        if (out && n + 1 < cap) out[n++] = c;
    }
    expect(ps, '"');
    if (out) out[n] = '\0';
}

static long long number(struct parser *ps) {
    char *stop;
    long long v;
    ws(ps);
    errno = 0;
    v = strtoll(ps->p, &stop, 10);
    if (stop == ps->p || errno) perr(ps, "expected an integer");
    ps->p = stop;
    /* Skip a fraction or exponent: only values we do not use have them. */
    while (ps->p < ps->end && strchr(".eE+-0123456789", *ps->p)) ps->p++;
    return v;
}

static void skip(struct parser *ps, int depth) {
    int c = peek(ps);
    if (depth > 64) perr(ps, "nested too deeply");
    if (c == '"') {
        string(ps, NULL, 0);
    } else if (c == '{' || c == '[') {
        char close = c == '{' ? '}' : ']';
        ps->p++;
        if (peek(ps) == close) { ps->p++; return; }
        for (;;) {
            if (c == '{') { string(ps, NULL, 0); expect(ps, ':'); }
            skip(ps, depth + 1);
            if (peek(ps) == ',') { ps->p++; continue; }
            expect(ps, close);
            return;
        }
    } else if (c == '-' || (c >= '0' && c <= '9')) {
        number(ps);
    } else {
        const char *words[3] = {"true", "false", "null"};
        for (int i = 0; i < 3; i++) {
            size_t n = strlen(words[i]);
            if ((size_t)(ps->end - ps->p) >= n && memcmp(ps->p, words[i], n) == 0) {
                ps->p += n;
                return;
            }
        }
        perr(ps, "unexpected character");
    }
}

static void file_object(struct parser *ps, struct file_entry *f) {
    char key[MAX_STR];
    memset(f, 0, sizeof *f);
    f->offset = f->nbytes = f->length = -1;
    expect(ps, '{');
    if (peek(ps) == '}') { ps->p++; return; }
    for (;;) {
        string(ps, key, sizeof key);
        expect(ps, ':');
        if (!strcmp(key, "name")) string(ps, f->name, sizeof f->name);
        else if (!strcmp(key, "role")) string(ps, f->role, sizeof f->role);
        else if (!strcmp(key, "dtype")) string(ps, f->dtype, sizeof f->dtype);
        else if (!strcmp(key, "offset")) f->offset = number(ps);
        else if (!strcmp(key, "nbytes")) f->nbytes = number(ps);
        else if (!strcmp(key, "shape")) {
            expect(ps, '[');
            while (peek(ps) != ']') {
                long long v = number(ps);
                if (f->nshape++ == 0) f->length = v;
                if (peek(ps) == ',') ps->p++;
            }
            ps->p++;
        } else skip(ps, 1);
        if (peek(ps) == ',') { ps->p++; continue; }
        expect(ps, '}');
        return;
    }
}

/* Reads format_version and the files list; every other key is skipped. */
static int parse_manifest(const char *text, size_t len, const char *where,
                          struct file_entry *files, int *version) {
    struct parser ps = {text, text, text + len, where};
    char key[MAX_STR];
    int n = 0;
    *version = -1;
    expect(&ps, '{');
    for (;;) {
        string(&ps, key, sizeof key);
        expect(&ps, ':');
        if (!strcmp(key, "format_version")) {
            *version = (int)number(&ps);
        } else if (!strcmp(key, "files")) {
            expect(&ps, '[');
            while (peek(&ps) != ']') {
                if (n == MAX_FILES) die("%s: more than %d files", where, MAX_FILES);
                file_object(&ps, &files[n++]);
                if (peek(&ps) == ',') ps.p++;
            }
            ps.p++;
        } else {
            skip(&ps, 1);
        }
        if (peek(&ps) == ',') { ps.p++; continue; }
        expect(&ps, '}');
        return n;
    }
}

/* -------------------------------------------------------------- tables */

struct array {
    const unsigned char *data; /* first entry, inside the mapped file */
    uint64_t length;           /* entries */
    int width;                 /* bytes per entry: 1, 2 or 4, little-endian */
};

/* Byte by byte, so the reader is right on any host; compilers turn it into
 * one load on little-endian machines. */
static inline uint32_t get(const struct array *a, uint64_t i) {
    const unsigned char *p = a->data + i * (uint64_t)a->width;
    switch (a->width) {
    case 1: return p[0];
    case 2: return (uint32_t)p[0] | (uint32_t)p[1] << 8;
    default: return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    }
}

struct tables {
    struct array dag5[5], dag6[6], dag7[7], value5, value6;
};

static char *read_text(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    char *buf;
    long size;
    if (!f) die("%s: %s (build the tables: make, or python -m builder)", path, strerror(errno));
    if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
        die("%s: cannot size: %s", path, strerror(errno));
    buf = malloc((size_t)size + 1);
    if (!buf || fread(buf, 1, (size_t)size, f) != (size_t)size) die("%s: cannot read", path);
    fclose(f);
    buf[size] = '\0';
    *len = (size_t)size;
    return buf;
}

static void map_file(const char *dir, const struct file_entry *f, struct array *a) {
    char path[4096];
    struct stat st;
    void *base;
    int fd, width;
    if (!strcmp(f->dtype, "|u1")) width = 1;
    else if (!strcmp(f->dtype, "<u2")) width = 2;
    else if (!strcmp(f->dtype, "<u4")) width = 4;
    else die("%s: unsupported dtype '%s'", f->role, f->dtype);
    if (f->nshape != 1 || f->length < 1 || f->offset < 10 || f->nbytes != f->length * width)
        die("%s: inconsistent shape, offset or nbytes in the manifest", f->role);
    if (!f->name[0] || strchr(f->name, '/')) die("%s: bad file name '%s'", f->role, f->name);
    if (snprintf(path, sizeof path, "%s/%s", dir, f->name) >= (int)sizeof path)
        die("%s/%s: path too long", dir, f->name);
    fd = open(path, O_RDONLY);
    if (fd < 0) die("%s: %s", path, strerror(errno));
    if (fstat(fd, &st)) die("%s: %s", path, strerror(errno));
    if ((long long)st.st_size != f->offset + f->nbytes)
        die("%s: %lld bytes, manifest says %lld (truncated or padded)", path,
            (long long)st.st_size, f->offset + f->nbytes);
    /* Map the whole file: mmap offsets must be page-aligned, data offsets
     * are only 64-byte aligned. */
    base = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED) die("%s: mmap: %s", path, strerror(errno));
    close(fd); /* the mapping keeps the file */
    if (memcmp(base, "\x93NUMPY", 6)) die("%s: not a .npy file", path);
    a->data = (const unsigned char *)base + f->offset;
    a->length = (uint64_t)f->length;
    a->width = width;
}

/* Every entry of a non-final layer must name a row of the next layer, and
 * every value must be at most 7462 (dead entries of the last layer may be
 * 0): after this no walk, valid or not, can leave the maps. */
static void check_dag(const char *dag, struct array *layers, int n) {
    if (layers[0].length != 52) die("%s/layer1: %llu entries, expected 52", dag,
                                    (unsigned long long)layers[0].length);
    for (int k = 0; k < n; k++) {
        uint64_t limit = k + 1 < n ? layers[k + 1].length / 52 : MAX_VALUE + 1;
        if (layers[k].length % 52) die("%s/layer%d: not whole rows of 52", dag, k + 1);
        for (uint64_t i = 0; i < layers[k].length; i++) {
            uint32_t v = get(&layers[k], i);
            if (v >= limit)
                die("%s/layer%d: entry %llu is %u, out of range (damaged tables)", dag, k + 1,
                    (unsigned long long)i, v);
        }
    }
}

static void check_values(const char *role, const struct array *a, uint64_t nodes) {
    if (a->length != nodes) die("%s: %llu entries, expected %llu", role,
                                (unsigned long long)a->length, (unsigned long long)nodes);
    for (uint64_t i = 0; i < a->length; i++) {
        uint32_t v = get(a, i);
        if (v > MAX_VALUE) die("%s: entry %llu is %u, not a value", role,
                                        (unsigned long long)i, v);
    }
}

static void load(const char *dir, struct tables *t) {
    char path[4096];
    static struct file_entry files[MAX_FILES];
    size_t len;
    int version, n, found = 0;
    char *text;
    if (snprintf(path, sizeof path, "%s/manifest.json", dir) >= (int)sizeof path)
        die("%s: path too long", dir);
    /* Read the manifest once: a concurrent publish replaces it by a rename,
     * and the files this copy names are never overwritten. */
    text = read_text(path, &len);
    n = parse_manifest(text, len, path, files, &version);
    free(text);
    if (version != FORMAT_VERSION)
        die("%s: format version %d, this reader reads version %d", path, version, FORMAT_VERSION);
    memset(t, 0, sizeof *t);
    for (int i = 0; i < n; i++) {
        const char *role = files[i].role;
        struct array *a = NULL;
        int k;
        char dag;
        if (sscanf(role, "dag%c/layer%d", &dag, &k) == 2 && k >= 1) {
            if (dag == '5' && k <= 5) a = &t->dag5[k - 1];
            if (dag == '6' && k <= 6) a = &t->dag6[k - 1];
            if (dag == '7' && k <= 7) a = &t->dag7[k - 1];
        } else if (!strcmp(role, "dag7/value5")) {
            a = &t->value5;
        } else if (!strcmp(role, "dag7/value6")) {
            a = &t->value6;
        }
        if (!a) die("%s: unknown role '%s'", path, role);
        if (a->data) die("%s: role '%s' appears twice", path, role);
        map_file(dir, &files[i], a);
        found++;
    }
    if (found != 5 + 6 + 7 + 2) die("%s: %d roles, expected 20", path, found);
    check_dag("dag5", t->dag5, 5);
    check_dag("dag6", t->dag6, 6);
    check_dag("dag7", t->dag7, 7);
    check_values("dag7/value5", &t->value5, t->dag7[5].length / 52);
    check_values("dag7/value6", &t->value6, t->dag7[6].length / 52);
}

/* --------------------------------------------------------------- hands */

static int category_of(uint32_t value) {
    int c = 8;
    while (c > 0 && (int)value < CATEGORY_FIRST[c]) c--;
    return c;
}

/* Cards must be valid (0..51, no duplicates): dead transitions lead anywhere. */
static uint32_t evaluate(const struct tables *t, const int *cards, int n, int via_dag7) {
    const struct array *layers = n == 7 || via_dag7 ? t->dag7 : n == 6 ? t->dag6 : t->dag5;
    uint32_t node = 0;
    for (int k = 0; k < n; k++) node = get(&layers[k], (uint64_t)node * 52 + (uint64_t)cards[k]);
    if (via_dag7 && n == 5) return get(&t->value5, node);
    if (via_dag7 && n == 6) return get(&t->value6, node);
    return node;
}

/* One card such as "As", "td" or "10h"; returns 0..51, or -1. */
static int parse_card(const char *s, size_t len) {
    static const char ranks[] = "23456789TJQKA", suits[] = "cdhs";
    const char *r, *u;
    int rank;
    if (len == 3 && s[0] == '1' && s[1] == '0') {
        rank = 8;
    } else if (len == 2 && (r = strchr(ranks, toupper((unsigned char)s[0]))) && *r) {
        rank = (int)(r - ranks);
    } else {
        return -1;
    }
    u = strchr(suits, tolower((unsigned char)s[len - 1]));
    if (!u || !*u) return -1;
    return rank * 4 + (int)(u - suits);
}

/* Parses one line into cards; on error writes a message and returns -1. */
static int parse_hand(char *line, int *cards, char *err, size_t errcap) {
    static const char ranks[] = "23456789TJQKA", suits[] = "cdhs";
    uint64_t seen = 0;
    int n = 0;
    char *p = line;
    for (;;) {
        size_t len;
        int c;
        while (*p == ' ' || *p == '\t' || *p == ',' || *p == '\r' || *p == '\n') p++;
        if (!*p) break;
        len = strcspn(p, " \t,\r\n");
        c = parse_card(p, len);
        if (c < 0) {
            snprintf(err, errcap, "card %d ('%.*s'): not a card", n, (int)(len > 16 ? 16 : len), p);
            return -1;
        }
        if (seen >> c & 1) {
            snprintf(err, errcap, "card %d ('%c%c'): duplicate", n, ranks[c >> 2], suits[c & 3]);
            return -1;
        }
        seen |= (uint64_t)1 << c;
        if (n == 7) {
            snprintf(err, errcap, "more than 7 cards");
            return -1;
        }
        cards[n++] = c;
        p += len;
    }
    if (n < 5) {
        snprintf(err, errcap, "%d cards, a hand has 5 to 7", n);
        return -1;
    }
    return n;
}

static int run_lines(const struct tables *t, int via_dag7) {
    static const char ranks[] = "23456789TJQKA", suits[] = "cdhs";
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    int bad = 0;
    while (getline(&line, &cap, stdin) != -1) {
        int cards[7], n;
        char err[128];
        const char *p = line;
        lineno++;
        while (*p == ' ' || *p == '\t') p++;
        if (*p == '#' || *p == '\n' || *p == '\r' || !*p) continue;
        n = parse_hand(line, cards, err, sizeof err);
        if (n < 0) {
            fprintf(stderr, "eval: line %ld: %s\n", lineno, err);
            bad = 1;
            continue;
        }
        uint32_t v = evaluate(t, cards, n, via_dag7);
        for (int i = 0; i < n; i++) printf("%c%c ", ranks[cards[i] >> 2], suits[cards[i] & 3]);
        printf("%s %u\n", CATEGORY[category_of(v)], v);
    }
    free(line);
    if (ferror(stdin)) die("reading stdin: %s", strerror(errno));
    return bad;
}

/* ------------------------------------------------------------- all hands */

static int little_endian(void) {
    const uint16_t one = 1;
    return *(const unsigned char *)&one == 1;
}

/* Adds the values of cards from..51 after a 6-card node to the histogram:
 * the innermost loop, a sequential read of one row. On little-endian hosts
 * a uint16 layer is read as native uint16 (data offsets are 64-byte
 * aligned), and two histograms take turns so that runs of equal values do
 * not wait on each other's increments. */
static void count_row(const struct array *a, uint64_t row, int from, int native,
                      uint64_t (*hist)[MAX_VALUE + 1]) {
    uint64_t base = row * 52;
    int c = from;
    if (native && a->width == 2) {
        const uint16_t *p = (const uint16_t *)(const void *)a->data + base;
        for (; c + 1 < 52; c += 2) {
            hist[0][p[c]]++;
            hist[1][p[c + 1]]++;
        }
    }
    for (; c < 52; c++) hist[0][get(a, base + (uint64_t)c)]++;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void run_all(const struct tables *t) {
    static uint64_t hist[2][MAX_VALUE + 1];
    const struct array *L = t->dag7;
    int native = little_endian();
    uint64_t counts[9] = {0}, total = 0;
    double t0 = now(), seconds;
    for (int c1 = 0; c1 < 52; c1++) {
        uint64_t n1 = get(&L[0], (uint64_t)c1);
        for (int c2 = c1 + 1; c2 < 52; c2++) {
            uint64_t n2 = get(&L[1], n1 * 52 + (uint64_t)c2);
            for (int c3 = c2 + 1; c3 < 52; c3++) {
                uint64_t n3 = get(&L[2], n2 * 52 + (uint64_t)c3);
                for (int c4 = c3 + 1; c4 < 52; c4++) {
                    uint64_t n4 = get(&L[3], n3 * 52 + (uint64_t)c4);
                    for (int c5 = c4 + 1; c5 < 52; c5++) {
                        uint64_t n5 = get(&L[4], n4 * 52 + (uint64_t)c5);
                        for (int c6 = c5 + 1; c6 < 51; c6++)
                            count_row(&L[6], get(&L[5], n5 * 52 + (uint64_t)c6), c6 + 1, native, hist);
                    }
                }
            }
        }
    }
    seconds = now() - t0;
    for (uint32_t v = 1; v <= MAX_VALUE; v++) {
        uint64_t h = hist[0][v] + hist[1][v];
        counts[category_of(v)] += h;
        total += h;
    }
    for (int c = 8; c >= 0; c--) printf("%-16s %llu\n", CATEGORY[c], (unsigned long long)counts[c]);
    printf("%-16s %llu\n", "total", (unsigned long long)total);
    printf("%-16s %.3f\n", "seconds", seconds);
}

/* ---------------------------------------------------------------- main */

int main(int argc, char **argv) {
    const char *dir = NULL;
    int all = 0, via_dag7 = 0;
    struct tables t;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--all")) all = 1;
        else if (!strcmp(argv[i], "--dag7")) via_dag7 = 1;
        else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            printf("usage: %s [--all] [--dag7] [TABLES_DIR] < hands.txt\n", argv[0]);
            return 0;
        } else if (argv[i][0] == '-' || dir) {
            fprintf(stderr, "usage: %s [--all] [--dag7] [TABLES_DIR] < hands.txt\n", argv[0]);
            return 2;
        } else dir = argv[i];
    }
    if (!dir) dir = getenv("TWOPLUSTWO_TABLES");
    if (!dir || !*dir) dir = "tables";
    load(dir, &t);
    if (all) {
        run_all(&t);
        return 0;
    }
    return run_lines(&t, via_dag7);
}
