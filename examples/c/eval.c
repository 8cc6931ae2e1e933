/*
 * eval.c: evaluate poker hands with the twoplustwo tables from C.
 *
 * A reader written from tables/README.md alone, in C99 with libc and POSIX
 * (open, mmap) only. It follows the reader checklist of section 11: it
 * parses manifest.json with a small strict JSON parser, checks every field,
 * maps each table file read-only after checking its .npy header and size,
 * checks once that every entry is in range (so that no walk, even of a
 * damaged set, can leave the maps) and then:
 *
 *   eval [--verify] [--dag7] [TABLES_DIR] < hands.txt
 *       reads one hand per line ("As Kd 7h 7c 2s 3d 9c": 5 to 7 cards in
 *       the card text notation of section 6.1, separated by blanks or
 *       commas) and prints "<cards> <category> <value>" per hand. A bad
 *       line (unknown card, duplicate, wrong count) gets one error line on
 *       stderr and no output line; the others go on, and the exit status
 *       is 1 if any line was bad. Blank lines and lines starting with '#'
 *       are skipped. 5- and 6-card hands walk the dedicated dag5 and dag6;
 *       --dag7 walks them through dag7 and dag7/value5, value6.
 *
 *   eval [--verify] --all [TABLES_DIR]
 *       walks all 133,784,560 seven-card hands in lexicographic order
 *       (c1 < c2 < ... < c7, reusing each prefix's node) and prints the
 *       category counts and the walk time.
 *
 *   eval [--verify] --check [TABLES_DIR]
 *       loads the set and says so: exit status 0 for a loadable set, 2 with
 *       an error naming the file and the field at fault otherwise.
 *
 *   eval [--verify] --vectors FILE [TABLES_DIR]
 *       checks every "<cards>\t<value>" line of FILE (the format of
 *       tables/conformance/vectors.txt) through both walks of section 5.2;
 *       exit status 1 if any value differs or any line is malformed.
 *
 * --verify also checks every file's SHA-256 against the manifest, as a
 * reader must before trusting files from elsewhere (checklist item R1).
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
#define MAX_INT 9007199254740991ULL /* 2**53 - 1: every JSON parser reads it exactly */
#define MAX_DEPTH 64
#define MAX_MANIFEST (1L << 20)
#define ALIGN 64
#define MAX_OFFSET 65536
#define MAX_READS 5
#define MAX_STR 256 /* a name is at most 255 bytes */
#define NROLES 20

static const char *const CATEGORY[9] = {
    "high_card", "pair", "two_pair", "three_of_a_kind", "straight",
    "flush", "full_house", "four_of_a_kind", "straight_flush",
};
/* First value of each category; the last one ends at MAX_VALUE. */
static const int CATEGORY_FIRST[9] = {1, 1278, 4138, 4996, 5854, 5864, 7141, 7297, 7453};

/* Roles in a fixed order: dag5/layer1..5 are 0..4, dag6/layer1..6 are
 * 5..10, dag7/layer1..7 are 11..17, then dag7/value5 and dag7/value6. */
static const char *const ROLE[NROLES] = {
    "dag5/layer1", "dag5/layer2", "dag5/layer3", "dag5/layer4", "dag5/layer5",
    "dag6/layer1", "dag6/layer2", "dag6/layer3", "dag6/layer4", "dag6/layer5", "dag6/layer6",
    "dag7/layer1", "dag7/layer2", "dag7/layer3", "dag7/layer4", "dag7/layer5", "dag7/layer6", "dag7/layer7",
    "dag7/value5", "dag7/value6",
};
static const int FIRST_ROLE[3] = {0, 5, 11}; /* of dag5, dag6, dag7 */
#define VALUE5 18
#define VALUE6 19

static void die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("eval: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

/* ------------------------------------------------------------ JSON */

/* A value as the manifest gave it: its kind, and its text for messages. */
enum { MISSING, GOOD, BAD };

struct jstr {
    int kind;       /* MISSING; GOOD: a JSON string; BAD: something else */
    size_t len;     /* decoded length, even past the buffer */
    int nul;        /* holds a \u0000 */
    char s[MAX_STR];
    const char *raw;
    int rawlen;
};

struct jint {
    int kind;       /* GOOD: an integer 0..MAX_INT without fraction or exponent */
    uint64_t v;
    const char *raw;
    int rawlen;
};

struct parser {
    const char *start, *p, *end, *where;
    int depth;
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

static void enter(struct parser *ps) {
    if (++ps->depth > MAX_DEPTH)
        die("%s: nested more than %d levels deep at byte %ld (not a manifest)", ps->where, MAX_DEPTH,
            (long)(ps->p - ps->start));
}

static int hex(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static void put(struct jstr *out, unsigned char c) {
    if (out->len < MAX_STR - 1) out->s[out->len] = (char)c;
    out->len++;
}

/* A JSON string, decoded into out (when given); \uXXXX becomes UTF-8. */
static void string(struct parser *ps, struct jstr *out) {
    struct jstr scratch;
    if (!out) out = &scratch;
    out->len = 0;
    out->nul = 0;
    out->kind = GOOD;
    out->raw = ps->p;
    expect(ps, '"');
    for (;;) {
        unsigned char c;
        if (ps->p >= ps->end) perr(ps, "unterminated string");
        c = (unsigned char)*ps->p++;
        if (c == '"') break;
        if (c < 0x20) perr(ps, "control character in a string");
        if (c != '\\') {
            put(out, c);
            continue;
        }
        if (ps->p >= ps->end) perr(ps, "unterminated string");
        switch (*ps->p++) {
        case '"': put(out, '"'); break;
        case '\\': put(out, '\\'); break;
        case '/': put(out, '/'); break;
        case 'b': put(out, '\b'); break;
        case 'f': put(out, '\f'); break;
        case 'n': put(out, '\n'); break;
        case 'r': put(out, '\r'); break;
        case 't': put(out, '\t'); break;
        case 'u': {
            unsigned u = 0;
            for (int i = 0; i < 4; i++) {
                int h = ps->p < ps->end ? hex((unsigned char)*ps->p) : -1;
                if (h < 0) perr(ps, "bad \\u escape");
                u = u << 4 | (unsigned)h;
                ps->p++;
            }
            if (u == 0) out->nul = 1;
            if (u < 0x80) {
                put(out, (unsigned char)u);
            } else if (u < 0x800) {
                put(out, (unsigned char)(0xC0 | u >> 6));
                put(out, (unsigned char)(0x80 | (u & 0x3F)));
            } else {
                put(out, (unsigned char)(0xE0 | u >> 12));
                put(out, (unsigned char)(0x80 | (u >> 6 & 0x3F)));
                put(out, (unsigned char)(0x80 | (u & 0x3F)));
            }
            break;
        }
        default: ps->p--; perr(ps, "bad escape");
        }
    }
    out->s[out->len < MAX_STR ? out->len : MAX_STR - 1] = '\0';
    out->rawlen = (int)(ps->p - out->raw);
}

/* A JSON number; out->kind is GOOD only for an integer 0..MAX_INT. */
static void number(struct parser *ps, struct jint *out) {
    const char *p = ps->p;
    int neg = 0, integral = 1, big = 0;
    uint64_t v = 0;
    out->raw = p;
    if (p < ps->end && *p == '-') { neg = 1; p++; }
    if (p >= ps->end || !isdigit((unsigned char)*p)) { ps->p = p; perr(ps, "bad number"); }
    if (*p == '0') {
        p++;
    } else {
        while (p < ps->end && isdigit((unsigned char)*p)) {
            unsigned d = (unsigned)(*p++ - '0');
            if (v > (MAX_INT - d) / 10) big = 1;
            else v = v * 10 + d;
        }
    }
    if (p < ps->end && *p == '.') {
        integral = 0;
        p++;
        if (p >= ps->end || !isdigit((unsigned char)*p)) { ps->p = p; perr(ps, "bad number"); }
        while (p < ps->end && isdigit((unsigned char)*p)) p++;
    }
    if (p < ps->end && (*p == 'e' || *p == 'E')) {
        integral = 0;
        p++;
        if (p < ps->end && (*p == '+' || *p == '-')) p++;
        if (p >= ps->end || !isdigit((unsigned char)*p)) { ps->p = p; perr(ps, "bad number"); }
        while (p < ps->end && isdigit((unsigned char)*p)) p++;
    }
    ps->p = p;
    out->rawlen = (int)(p - out->raw);
    out->v = v;
    /* -0 is 0; any other negative number is no count. */
    out->kind = integral && !big && (!neg || v == 0) ? GOOD : BAD;
}

static void skip(struct parser *ps) {
    int c = peek(ps);
    if (c == '"') {
        string(ps, NULL);
    } else if (c == '{' || c == '[') {
        char close = c == '{' ? '}' : ']';
        enter(ps);
        ps->p++;
        if (peek(ps) == close) {
            ps->p++;
        } else {
            for (;;) {
                if (c == '{') { string(ps, NULL); expect(ps, ':'); }
                skip(ps);
                if (peek(ps) == ',') { ps->p++; continue; }
                expect(ps, close);
                break;
            }
        }
        ps->depth--;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
        struct jint scratch;
        number(ps, &scratch);
    } else {
        static const char *const words[3] = {"true", "false", "null"};
        for (int i = 0; i < 3; i++) {
            size_t n = strlen(words[i]);
            if ((size_t)(ps->end - ps->p) >= n && memcmp(ps->p, words[i], n) == 0) {
                ps->p += n;
                return;
            }
        }
        perr(ps, c < 0 ? "expected a value, found the end" : "expected a value");
    }
}

/* Any value into a jint: GOOD only for an integer in range. */
static void int_value(struct parser *ps, struct jint *out) {
    int c = peek(ps);
    if (c == '-' || (c >= '0' && c <= '9')) {
        number(ps, out);
        return;
    }
    out->raw = ps->p;
    skip(ps);
    out->rawlen = (int)(ps->p - out->raw);
    out->kind = BAD;
}

static void str_value(struct parser *ps, struct jstr *out) {
    if (peek(ps) == '"') {
        string(ps, out);
        return;
    }
    out->raw = ps->p;
    skip(ps);
    out->rawlen = (int)(ps->p - out->raw);
    out->kind = BAD;
    out->s[0] = '\0';
}

/* ------------------------------------------------------------ manifest */

struct entry {
    struct jstr name, dtype, sha256;
    struct jint offset, nbytes;
    struct jint length;   /* shape[0]; BAD unless shape is a list of one good integer */
    int shape_kind;
    const char *shape_raw;
    int shape_rawlen;
    int present;          /* a files[] entry has this role */
    int width;            /* bytes per entry, once checked */
};

struct manifest {
    struct jint version;
    int files_kind, nodes_kind;
    int dag_kind[3], dag_count[3];
    uint64_t nodes[3][7];
    struct entry e[NROLES];
    char error[600];      /* the first defect of a files[] entry, in file order */
};

static const char *dag_names[3] = {"dag5", "dag6", "dag7"};

/* At most 40 bytes of a value's JSON text, for a message. */
static void shown(char *buf, size_t cap, const char *raw, int rawlen) {
    size_t n = 0;
    for (int i = 0; i < rawlen && n + 4 < cap && i < 40; i++)
        buf[n++] = raw[i] >= 0x20 && raw[i] < 0x7F ? raw[i] : '?';
    if (rawlen > 40 && n + 4 < cap) { memcpy(buf + n, "...", 3); n += 3; }
    buf[n] = '\0';
}

static int role_index(const struct jstr *s) {
    if (s->nul || s->len >= MAX_STR) return -1;
    for (int i = 0; i < NROLES; i++)
        if (!strcmp(s->s, ROLE[i])) return i;
    return -1;
}

static void dup_key(struct parser *ps, const char *key) {
    die("%s: key %s appears twice in one object", ps->where, key);
}

/* One files[] element, checked in the order of the reader checklist. */
static void file_object(struct parser *ps, struct manifest *m, int index) {
    char got[64];
    struct jstr k, role;
    struct entry e;
    int seen[8] = {0};
    static const char *const keys[8] = {"name", "role", "dtype", "shape", "offset", "nbytes", "sha256", ""};
    memset(&e, 0, sizeof e);
    memset(&role, 0, sizeof role);
    if (peek(ps) != '{') {
        const char *raw = ps->p;
        skip(ps);
        shown(got, sizeof got, raw, (int)(ps->p - raw));
        if (!m->error[0])
            snprintf(m->error, sizeof m->error, "%s: files[%d] must be an object, got %s", ps->where, index, got);
        return;
    }
    enter(ps);
    ps->p++;
    if (peek(ps) != '}') {
        for (;;) {
            int which = 7;
            string(ps, &k);
            expect(ps, ':');
            for (int i = 0; i < 7 && !k.nul; i++)
                if (!strcmp(k.s, keys[i])) which = i;
            if (which < 7 && seen[which]++) dup_key(ps, keys[which]);
            switch (which) {
            case 0: str_value(ps, &e.name); break;
            case 1: str_value(ps, &role); break;
            case 2: str_value(ps, &e.dtype); break;
            case 3:
                peek(ps);
                e.shape_raw = ps->p;
                if (peek(ps) == '[') {
                    int n = 0, good = 1;
                    enter(ps);
                    ps->p++;
                    if (peek(ps) != ']') {
                        for (;;) {
                            struct jint v;
                            int_value(ps, &v);
                            if (n++ == 0) e.length = v;
                            good &= v.kind == GOOD;
                            if (peek(ps) == ',') { ps->p++; continue; }
                            break;
                        }
                    }
                    expect(ps, ']');
                    ps->depth--;
                    e.shape_kind = n == 1 && good ? GOOD : BAD;
                } else {
                    skip(ps);
                    e.shape_kind = BAD;
                }
                e.shape_rawlen = (int)(ps->p - e.shape_raw);
                break;
            case 4: int_value(ps, &e.offset); break;
            case 5: int_value(ps, &e.nbytes); break;
            case 6: str_value(ps, &e.sha256); break;
            default: skip(ps);
            }
            if (peek(ps) == ',') { ps->p++; continue; }
            break;
        }
    }
    expect(ps, '}');
    ps->depth--;
    if (m->error[0]) return;
    /* Only the role decides whether the entry is ours: a later version's
     * entry may look like nothing this reader knows. */
    if (role.kind != GOOD) {
        shown(got, sizeof got, role.raw, role.rawlen);
        snprintf(m->error, sizeof m->error, "%s: files[%d]: role must be a string, got %s", ps->where, index,
                 role.kind == MISSING ? "nothing" : got);
        return;
    }
    int r = role_index(&role);
    if (r < 0) return;
    if (m->e[r].present) {
        snprintf(m->error, sizeof m->error, "%s: role '%s' appears twice", ps->where, ROLE[r]);
        return;
    }
    for (int i = 0; i < 7; i++) {
        if (!seen[i]) {
            snprintf(m->error, sizeof m->error, "%s: files[%d] must have keys for every field; %s has no '%s'",
                     ps->where, index, ROLE[r], keys[i]);
            return;
        }
    }
    e.present = 1;
    m->e[r] = e;
}

static void nodes_object(struct parser *ps, struct manifest *m) {
    int seen[3] = {0};
    enter(ps);
    ps->p++;
    if (peek(ps) != '}') {
        for (;;) {
            struct jstr k;
            int d = -1;
            string(ps, &k);
            expect(ps, ':');
            for (int i = 0; i < 3 && !k.nul; i++)
                if (!strcmp(k.s, dag_names[i])) d = i;
            if (d >= 0 && seen[d]++) dup_key(ps, dag_names[d]);
            if (d >= 0 && peek(ps) == '[') {
                int n = 0, good = 1;
                enter(ps);
                ps->p++;
                if (peek(ps) != ']') {
                    for (;;) {
                        struct jint v;
                        int_value(ps, &v);
                        good &= v.kind == GOOD && v.v >= 1;
                        if (n < 7) m->nodes[d][n] = v.v;
                        n++;
                        if (peek(ps) == ',') { ps->p++; continue; }
                        break;
                    }
                }
                expect(ps, ']');
                ps->depth--;
                m->dag_count[d] = n;
                m->dag_kind[d] = good ? GOOD : BAD;
            } else {
                skip(ps);
                if (d >= 0) m->dag_kind[d] = BAD;
            }
            if (peek(ps) == ',') { ps->p++; continue; }
            break;
        }
    }
    expect(ps, '}');
    ps->depth--;
}

/* Parses the whole text first (so any JSON error wins), then checks. */
static void parse_manifest(const char *text, size_t len, const char *where, struct manifest *m) {
    struct parser ps = {text, text, text + len, where, 0};
    int seen[3] = {0};
    memset(m, 0, sizeof *m);
    if (peek(&ps) != '{') {
        skip(&ps);
        if (peek(&ps) != -1) perr(&ps, "more after the value");
        die("%s: expected a JSON object", where);
    }
    enter(&ps);
    ps.p++;
    if (peek(&ps) != '}') {
        for (;;) {
            struct jstr k;
            string(&ps, &k);
            expect(&ps, ':');
            if (!k.nul && !strcmp(k.s, "format_version")) {
                if (seen[0]++) dup_key(&ps, "format_version");
                int_value(&ps, &m->version);
            } else if (!k.nul && !strcmp(k.s, "files")) {
                if (seen[1]++) dup_key(&ps, "files");
                if (peek(&ps) == '[') {
                    int n = 0;
                    enter(&ps);
                    ps.p++;
                    if (peek(&ps) != ']') {
                        for (;;) {
                            file_object(&ps, m, n++);
                            if (peek(&ps) == ',') { ps.p++; continue; }
                            break;
                        }
                    }
                    expect(&ps, ']');
                    ps.depth--;
                    m->files_kind = GOOD;
                } else {
                    skip(&ps);
                    m->files_kind = BAD;
                }
            } else if (!k.nul && !strcmp(k.s, "nodes")) {
                if (seen[2]++) dup_key(&ps, "nodes");
                if (peek(&ps) == '{') {
                    nodes_object(&ps, m);
                    m->nodes_kind = GOOD;
                } else {
                    skip(&ps);
                    m->nodes_kind = BAD;
                }
            } else {
                skip(&ps);
            }
            if (peek(&ps) == ',') { ps.p++; continue; }
            break;
        }
    }
    expect(&ps, '}');
    if (peek(&ps) != -1) perr(&ps, "more after the manifest's object");
}

static int name_ok(const struct jstr *s) {
    if (s->kind != GOOD || s->nul || s->len == 0 || s->len >= MAX_STR || s->s[0] == '.') return 0;
    for (size_t i = 0; i < s->len; i++) {
        unsigned char c = (unsigned char)s->s[i];
        if (!(isalnum(c) && c < 0x80) && c != '.' && c != '_' && c != '-') return 0;
    }
    return 1;
}

static int sha_ok(const struct jstr *s) {
    if (s->kind != GOOD || s->nul || s->len != 64) return 0;
    for (int i = 0; i < 64; i++)
        if (!((s->s[i] >= '0' && s->s[i] <= '9') || (s->s[i] >= 'a' && s->s[i] <= 'f'))) return 0;
    return 1;
}

/* The checks of section 2, in the order the Python reader makes them. */
static void check_manifest(struct manifest *m, const char *where) {
    char got[64];
    if (m->version.kind != GOOD || m->version.v != FORMAT_VERSION) {
        shown(got, sizeof got, m->version.raw, m->version.rawlen);
        die("%s: format version %s, this reader reads version %d", where,
            m->version.kind == MISSING ? "missing" : got, FORMAT_VERSION);
    }
    if (m->files_kind != GOOD) die("%s: 'files' must be a list", where);
    if (m->error[0]) die("%s", m->error);
    for (int r = 0; r < NROLES; r++)
        if (!m->e[r].present) die("%s: missing role '%s'", where, ROLE[r]);
    for (int r = 0; r < NROLES; r++) {
        struct entry *e = &m->e[r];
        const char *role = ROLE[r];
        if (!name_ok(&e->name)) {
            shown(got, sizeof got, e->name.raw, e->name.rawlen);
            die("%s: %s: file name %s must be a plain file name (field name: 1 to 255 of A-Z a-z 0-9 . _ -, "
                "not starting with '.')", where, role, got);
        }
        if (e->dtype.kind == GOOD && !strcmp(e->dtype.s, "|u1")) e->width = 1;
        else if (e->dtype.kind == GOOD && !strcmp(e->dtype.s, "<u2")) e->width = 2;
        else if (e->dtype.kind == GOOD && !strcmp(e->dtype.s, "<u4")) e->width = 4;
        else {
            shown(got, sizeof got, e->dtype.raw, e->dtype.rawlen);
            die("%s: %s: unsupported dtype %s (field dtype: one of |u1, <u2, <u4)", where, role, got);
        }
        if (e->shape_kind != GOOD || e->length.v > MAX_INT) {
            shown(got, sizeof got, e->shape_raw, e->shape_rawlen);
            die("%s: %s: shape must be [length], one integer 0..2**53-1, got %s", where, role, got);
        }
        if (e->offset.kind != GOOD || e->offset.v < ALIGN || e->offset.v > MAX_OFFSET || e->offset.v % ALIGN) {
            shown(got, sizeof got, e->offset.raw, e->offset.rawlen);
            die("%s: %s: offset must be an integer multiple of %d from %d to %d, got %s", where, role, ALIGN,
                ALIGN, MAX_OFFSET, got);
        }
        /* length <= 2**53 - 1 and width <= 4: the product cannot wrap. */
        if (e->nbytes.kind != GOOD || e->nbytes.v != e->length.v * (uint64_t)e->width) {
            shown(got, sizeof got, e->nbytes.raw, e->nbytes.rawlen);
            die("%s: %s: nbytes is %s, but shape [%llu] of %s is %llu bytes", where, role, got,
                (unsigned long long)e->length.v, e->dtype.s, (unsigned long long)(e->length.v * (uint64_t)e->width));
        }
        if (!sha_ok(&e->sha256)) {
            shown(got, sizeof got, e->sha256.raw, e->sha256.rawlen);
            die("%s: %s: sha256 must be 64 lowercase hex digits, got %s", where, role, got);
        }
    }
    if (m->nodes_kind != GOOD) die("%s: 'nodes' must map each DAG to its node counts", where);
    for (int d = 0; d < 3; d++) {
        int n = d + 5;
        if (m->dag_kind[d] != GOOD || m->dag_count[d] != n || m->nodes[d][0] != 1)
            die("%s: nodes['%s'] must list %d node counts, integers 1..2**53-1 starting with 1 (the root)", where,
                dag_names[d], n);
        for (int k = 1; k <= n; k++) {
            const struct entry *e = &m->e[FIRST_ROLE[d] + k - 1];
            uint64_t want = m->nodes[d][k - 1] * 52; /* below 2**59 */
            if (e->length.v != want)
                die("%s: %s has %llu entries, expected %llu (shape; nodes['%s'][%d] = %llu nodes x 52 cards)", where,
                    ROLE[FIRST_ROLE[d] + k - 1], (unsigned long long)e->length.v, (unsigned long long)want,
                    dag_names[d], k - 1, (unsigned long long)m->nodes[d][k - 1]);
        }
    }
    for (int depth = 5; depth <= 6; depth++) {
        const struct entry *e = &m->e[depth == 5 ? VALUE5 : VALUE6];
        if (e->length.v != m->nodes[2][depth])
            die("%s: dag7/value%d has %llu entries (shape), expected one per depth-%d node: nodes['dag7'][%d] = %llu",
                where, depth, (unsigned long long)e->length.v, depth, depth, (unsigned long long)m->nodes[2][depth]);
    }
}

/* -------------------------------------------------------------- tables */

struct array {
    const unsigned char *data; /* first entry, inside the mapped file */
    uint64_t length;           /* entries */
    int width;                 /* bytes per entry: 1, 2 or 4, little-endian */
    void *base;                /* the whole file, mapped */
    size_t size;
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
    struct array a[NROLES];
    struct manifest m;
    char path[NROLES][4096];
};

static const struct array *dag_layers(const struct tables *t, int n) {
    return &t->a[FIRST_ROLE[n - 5]];
}

static int utf8_error(const unsigned char *s, size_t n, size_t *at) {
    size_t i = 0;
    while (i < n) {
        unsigned c = s[i];
        size_t len;
        unsigned min;
        if (c < 0x80) { i++; continue; }
        if (c >= 0xC2 && c <= 0xDF) { len = 2; min = 0x80; }
        else if (c >= 0xE0 && c <= 0xEF) { len = 3; min = 0x800; }
        else if (c >= 0xF0 && c <= 0xF4) { len = 4; min = 0x10000; }
        else { *at = i; return 1; }
        if (n - i < len) { *at = i; return 1; }
        unsigned cp = c & (0x7F >> len);
        for (size_t j = 1; j < len; j++) {
            if ((s[i + j] & 0xC0) != 0x80) { *at = i; return 1; }
            cp = cp << 6 | (s[i + j] & 0x3F);
        }
        /* No overlong forms, no surrogates, nothing past U+10FFFF. */
        if (cp < min || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) { *at = i; return 1; }
        i += len;
    }
    return 0;
}

/* The manifest, read once into memory: the copy this load works from. */
static char *read_manifest(const char *path, const char *dir, size_t *len) {
    static char *buf; /* kept reachable: die() may exit while it is in use */
    FILE *f = fopen(path, "rb");
    long size;
    size_t bad;
    if (!f) {
        if (errno == ENOENT)
            die("no tables at %s (missing manifest.json): build them with make, or python -m twoplustwo_builder",
                dir);
        die("%s: %s", path, strerror(errno));
    }
    if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
        die("%s: cannot size: %s", path, strerror(errno));
    if (size > MAX_MANIFEST) die("%s: larger than %ld bytes (not a manifest)", path, (long)MAX_MANIFEST);
    free(buf);
    buf = malloc((size_t)size + 1);
    if (!buf || fread(buf, 1, (size_t)size, f) != (size_t)size) die("%s: cannot read", path);
    fclose(f);
    buf[size] = '\0';
    if (utf8_error((const unsigned char *)buf, (size_t)size, &bad))
        die("%s: not valid UTF-8 at byte %lu", path, (unsigned long)bad);
    *len = (size_t)size;
    return buf;
}

/* Moves *q past lit if the text at *q starts with it. */
static int take(const char **q, const char *end, const char *lit) {
    size_t n = strlen(lit);
    if ((size_t)(end - *q) < n || memcmp(*q, lit, n)) return 0;
    *q += n;
    return 1;
}

/* The header must be exactly "{'descr': '<dtype>', 'fortran_order': False,
 * 'shape': (<length>,), }", then spaces, then a newline at offset - 1. */
static void check_header(const char *path, const unsigned char *b, uint64_t size, const struct entry *e) {
    static const char p1[] = "{'descr': '", p2[] = "', 'fortran_order': ", p3[] = ", 'shape': (", p4[] = ",), }";
    const char *h, *q, *end, *descr, *digits;
    size_t descr_len, digits_len;
    uint64_t hlen, length = 0;
    int fortran = 0, overflow = 0;
    if (size < 10 || memcmp(b, "\x93NUMPY", 6))
        die("%s: not a readable .npy file (no \\x93NUMPY magic at its start)", path);
    if (b[6] != 1 || b[7] != 0)
        die("%s: not a readable .npy file: npy format version %d.%d, the table format allows version 1.0 only", path,
            b[6], b[7]);
    hlen = (uint64_t)b[8] | (uint64_t)b[9] << 8;
    if (10 + hlen > size) die("%s: not a readable .npy file (the header is cut short: %llu bytes)", path,
                              (unsigned long long)size);
    h = (const char *)b + 10;
    end = h + hlen;
    for (q = h; q < end; q++)
        if ((unsigned char)*q >= 0x80) break;
    if (hlen == 0 || q < end || end[-1] != '\n') goto bad;
    end--;
    while (end > h && end[-1] == ' ') end--;
    q = h;
    if (!take(&q, end, p1)) goto bad;
    descr = q;
    while (q < end && *q != '\'') q++;
    descr_len = (size_t)(q - descr);
    if (!take(&q, end, p2)) goto bad;
    if ((size_t)(end - q) >= 4 && !memcmp(q, "True", 4)) { fortran = 1; q += 4; }
    else if ((size_t)(end - q) >= 5 && !memcmp(q, "False", 5)) { fortran = 0; q += 5; }
    else goto bad;
    if (!take(&q, end, p3)) goto bad;
    digits = q;
    while (q < end && isdigit((unsigned char)*q)) {
        unsigned d = (unsigned)(*q++ - '0');
        if (length > (UINT64_MAX - d) / 10) overflow = 1;
        else length = length * 10 + d;
    }
    digits_len = (size_t)(q - digits);
    if (digits_len == 0 || (digits[0] == '0' && digits_len > 1)) goto bad;
    if (!take(&q, end, p4)) goto bad;
    if (q != end) goto bad;
    if (fortran) die("%s: .npy header has fortran_order True, the format requires False", path);
    if (descr_len != strlen(e->dtype.s) || memcmp(descr, e->dtype.s, descr_len) || overflow ||
        length != e->length.v || 10 + hlen != e->offset.v)
        die("%s: header says dtype %.*s shape [%.*s] at offset %llu, manifest says dtype %s shape [%llu] at offset "
            "%llu", path, (int)(descr_len > 16 ? 16 : descr_len), descr, (int)(digits_len > 24 ? 24 : digits_len),
            digits, (unsigned long long)(10 + hlen), e->dtype.s, (unsigned long long)e->length.v,
            (unsigned long long)e->offset.v);
    /* offset <= 65536 and nbytes < 2**56: no wrap. */
    if (size != e->offset.v + e->nbytes.v)
        die("%s: %llu bytes, expected %llu (truncated or padded)", path, (unsigned long long)size,
            (unsigned long long)(e->offset.v + e->nbytes.v));
    return;
bad:
    die("%s: .npy header is not the one dict literal the format allows, padded with spaces and a newline "
        "(tables/README.md, section 3)", path);
}

/* Maps one file after checking its header and size; returns -1 if it is
 * missing (a publish may have removed it since the manifest was read). */
static int map_file(const char *dir, const struct entry *e, struct array *a, char *path, size_t cap) {
    struct stat st;
    void *base;
    int fd;
    char full[4096];
    if (snprintf(full, sizeof full, "%s/%s", dir, e->name.s) >= (int)sizeof full || strlen(full) >= cap)
        die("%s/%s: path too long", dir, e->name.s);
    memcpy(path, full, strlen(full) + 1);
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT) return -1;
        die("%s: %s", path, strerror(errno));
    }
    if (fstat(fd, &st)) die("%s: %s", path, strerror(errno));
    if (!S_ISREG(st.st_mode)) die("%s: not a regular file", path);
    if (st.st_size < 10) die("%s: not a readable .npy file (%lld bytes)", path, (long long)st.st_size);
    if ((uintmax_t)st.st_size > SIZE_MAX) die("%s: too large to map", path);
    /* Map the whole file: mmap offsets must be page-aligned, data offsets
     * are only 64-byte aligned. */
    base = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
    if (base == MAP_FAILED) die("%s: mmap: %s", path, strerror(errno));
    close(fd); /* the mapping keeps the file */
    a->base = base;
    a->size = (size_t)st.st_size;
    check_header(path, base, (uint64_t)st.st_size, e);
    a->data = (const unsigned char *)base + e->offset.v;
    a->length = e->length.v;
    a->width = e->width;
    return 0;
}

static void unmap_all(struct tables *t) {
    for (int r = 0; r < NROLES; r++) {
        if (t->a[r].base) munmap(t->a[r].base, t->a[r].size);
        memset(&t->a[r], 0, sizeof t->a[r]);
    }
}

/* Every entry of a non-final layer must be a node of the next depth, and
 * every value at most 7462 (dead entries of a last layer may be 0): after
 * this no walk of valid cards, or of any cards 0..51, can leave the maps. */
static void range_check(const struct tables *t) {
    for (int d = 0; d < 3; d++) {
        int n = d + 5;
        for (int k = 1; k <= n; k++) {
            int r = FIRST_ROLE[d] + k - 1;
            const struct array *a = &t->a[r];
            uint64_t limit = k < n ? t->m.nodes[d][k] : MAX_VALUE + 1;
            for (uint64_t i = 0; i < a->length; i++) {
                uint32_t v = get(a, i);
                if (v >= limit)
                    die("%s (%s): entry %llu is %u, out of range (at most %llu): damaged tables", t->path[r], ROLE[r],
                        (unsigned long long)i, v, (unsigned long long)(limit - 1));
            }
        }
    }
    for (int r = VALUE5; r <= VALUE6; r++) {
        for (uint64_t i = 0; i < t->a[r].length; i++) {
            uint32_t v = get(&t->a[r], i);
            if (v > MAX_VALUE)
                die("%s (%s): entry %llu is %u, not a value: damaged tables", t->path[r], ROLE[r],
                    (unsigned long long)i, v);
        }
    }
}

/* ------------------------------------------------------------- SHA-256 */

static const uint32_t K256[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static uint32_t ror(uint32_t x, int n) { return x >> n | x << (32 - n); }

static void sha256_block(uint32_t h[8], const unsigned char *p) {
    uint32_t w[64], s[8];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ w[i - 15] >> 3;
        uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ w[i - 2] >> 10;
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    memcpy(s, h, sizeof s);
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = s[7] + (ror(s[4], 6) ^ ror(s[4], 11) ^ ror(s[4], 25)) + ((s[4] & s[5]) ^ (~s[4] & s[6])) +
                      K256[i] + w[i];
        uint32_t t2 = (ror(s[0], 2) ^ ror(s[0], 13) ^ ror(s[0], 22)) + ((s[0] & s[1]) ^ (s[0] & s[2]) ^ (s[1] & s[2]));
        memmove(s + 1, s, 7 * sizeof s[0]);
        s[4] += t1;
        s[0] = t1 + t2;
    }
    for (int i = 0; i < 8; i++) h[i] += s[i];
}

/* The SHA-256 of n bytes, as 64 lowercase hex digits. */
static void sha256_hex(const unsigned char *p, size_t n, char out[65]) {
    uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    unsigned char tail[128] = {0};
    size_t full = n / 64 * 64, rest = n - full, blocks;
    uint64_t bits = (uint64_t)n * 8;
    for (size_t i = 0; i < full; i += 64) sha256_block(h, p + i);
    memcpy(tail, p + full, rest);
    tail[rest] = 0x80;
    blocks = rest < 56 ? 1 : 2;
    for (size_t i = 0; i < 8; i++) tail[blocks * 64 - 1 - i] = (unsigned char)(bits >> (8 * i));
    for (size_t b = 0; b < blocks; b++) sha256_block(h, tail + 64 * b);
    for (int i = 0; i < 8; i++) snprintf(out + 8 * i, 9, "%08x", (unsigned)h[i]);
}

static void verify(const struct tables *t) {
    for (int r = 0; r < NROLES; r++) {
        char hex64[65];
        sha256_hex(t->a[r].base, t->a[r].size, hex64);
        if (strcmp(hex64, t->m.e[r].sha256.s))
            die("%s: content does not match its sha256 in the manifest (corrupt)", t->path[r]);
    }
}

/* Reads the manifest once and maps what it lists; if a listed file is gone
 * a publish happened in between: read the manifest again and start over,
 * at most MAX_READS reads in all (section 8). */
static void load(const char *dir, struct tables *t, int check_sha) {
    char mpath[4096];
    int missing = -1;
    if (snprintf(mpath, sizeof mpath, "%s/manifest.json", dir) >= (int)sizeof mpath) die("%s: path too long", dir);
    memset(t, 0, sizeof *t);
    for (int reads = 1; reads <= MAX_READS; reads++) {
        size_t len;
        char *text = read_manifest(mpath, dir, &len);
        parse_manifest(text, len, mpath, &t->m);
        check_manifest(&t->m, mpath);
        missing = -1;
        for (int r = 0; r < NROLES && missing < 0; r++)
            if (map_file(dir, &t->m.e[r], &t->a[r], t->path[r], sizeof t->path[r])) missing = r;
        if (missing < 0) break;
        unmap_all(t);
    }
    if (missing >= 0)
        die("%s: missing (listed in %s as %s; read the manifest %d times and a listed file was gone each time)",
            t->path[missing], mpath, ROLE[missing], MAX_READS);
    range_check(t);
    if (check_sha) verify(t);
}

/* --------------------------------------------------------------- hands */

static int category_of(uint32_t value) {
    int c = 8;
    while (c > 0 && (int)value < CATEGORY_FIRST[c]) c--;
    return c;
}

/* Cards must be valid (0..51, no duplicates): dead transitions lead anywhere. */
static uint32_t evaluate(const struct tables *t, const int *cards, int n, int via_dag7) {
    const struct array *layers = dag_layers(t, via_dag7 ? 7 : n);
    uint32_t node = 0;
    for (int k = 0; k < n; k++) node = get(&layers[k], (uint64_t)node * 52 + (uint64_t)cards[k]);
    if (via_dag7 && n == 5) return get(&t->a[VALUE5], node);
    if (via_dag7 && n == 6) return get(&t->a[VALUE6], node);
    return node;
}

static const char RANKS[] = "23456789TJQKA", SUITS[] = "cdhs";
/* The suit symbols U+2663, U+2666, U+2665, U+2660 in UTF-8, in suit order. */
static const char *const SUIT_SYMBOLS[4] = {"\xE2\x99\xA3", "\xE2\x99\xA6", "\xE2\x99\xA5", "\xE2\x99\xA0"};

/* One card such as "As", "td", "10h" or "K\u2660"; returns 0..51, or -1. */
static int parse_card(const char *s, size_t len) {
    const char *r;
    size_t rank_len = len >= 2 && s[0] == '1' && s[1] == '0' ? 2 : 1;
    int rank;
    if (len <= rank_len) return -1;
    if (rank_len == 2) rank = 8;
    else if (s[0] && (r = strchr(RANKS, toupper((unsigned char)s[0])))) rank = (int)(r - RANKS);
    else return -1;
    s += rank_len;
    len -= rank_len;
    if (len == 1) {
        const char *u = s[0] ? strchr(SUITS, tolower((unsigned char)s[0])) : NULL;
        return u ? rank * 4 + (int)(u - SUITS) : -1;
    }
    for (int i = 0; i < 4; i++)
        if (len == 3 && !memcmp(s, SUIT_SYMBOLS[i], 3)) return rank * 4 + i;
    return -1;
}

/* Parses one line into cards; on error writes a message and returns -1. */
static int parse_hand(char *line, int *cards, char *err, size_t errcap) {
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
            snprintf(err, errcap, "card %d ('%c%c'): duplicate", n, RANKS[c >> 2], SUITS[c & 3]);
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

static int skipped(const char *line) {
    while (*line == ' ' || *line == '\t') line++;
    return *line == '#' || *line == '\n' || *line == '\r' || !*line;
}

static int run_lines(const struct tables *t, int via_dag7) {
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    int bad = 0;
    while (getline(&line, &cap, stdin) != -1) {
        int cards[7], n;
        char err[128];
        lineno++;
        if (skipped(line)) continue;
        n = parse_hand(line, cards, err, sizeof err);
        if (n < 0) {
            fprintf(stderr, "eval: line %ld: %s\n", lineno, err);
            bad = 1;
            continue;
        }
        uint32_t v = evaluate(t, cards, n, via_dag7);
        for (int i = 0; i < n; i++) printf("%c%c ", RANKS[cards[i] >> 2], SUITS[cards[i] & 3]);
        printf("%s %u\n", CATEGORY[category_of(v)], v);
    }
    free(line);
    if (ferror(stdin)) die("reading stdin: %s", strerror(errno));
    return bad;
}

/* Lines "<cards>\t<value>": both walks of section 5.2 must give the value. */
static int run_vectors(const struct tables *t, const char *file) {
    FILE *f = fopen(file, "r");
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0, count = 0, wrong = 0;
    if (!f) die("%s: %s", file, strerror(errno));
    while (getline(&line, &cap, f) != -1) {
        int cards[7], n;
        char err[128], *tab, *stop;
        long want = 0;
        lineno++;
        if (skipped(line)) continue;
        tab = strchr(line, '\t');
        if (tab) {
            *tab = '\0';
            errno = 0;
            want = strtol(tab + 1, &stop, 10);
            if (stop == tab + 1 || errno || (*stop && *stop != '\n' && *stop != '\r')) tab = NULL;
        }
        if (!tab) {
            fprintf(stderr, "eval: %s:%ld: not \"<cards>\\t<value>\"\n", file, lineno);
            wrong++;
            continue;
        }
        n = parse_hand(line, cards, err, sizeof err);
        if (n < 0) {
            fprintf(stderr, "eval: %s:%ld: %s\n", file, lineno, err);
            wrong++;
            continue;
        }
        count++;
        uint32_t own = evaluate(t, cards, n, 0), via7 = evaluate(t, cards, n, 1);
        if ((long)own != want || (long)via7 != want) {
            if (wrong < 10)
                fprintf(stderr, "eval: %s:%ld: %s: expected %ld, dag%d gives %u, dag7 gives %u\n", file, lineno, line,
                        want, n, own, via7);
            wrong++;
        }
    }
    free(line);
    if (ferror(f)) die("%s: %s", file, strerror(errno));
    fclose(f);
    printf("%s: %ld hands, %ld wrong or malformed\n", file, count, wrong);
    return wrong ? 1 : 0;
}

/* ------------------------------------------------------------- all hands */

static int little_endian(void) {
    const uint16_t one = 1;
    return *(const unsigned char *)&one == 1;
}

/* Adds the values of cards from..51 after a 6-card node to the histogram:
 * the innermost loop, a sequential read of one row. On little-endian hosts
 * a uint16 layer is read as native uint16 (data offsets are multiples of
 * 64 in a page-aligned map), and two histograms take turns so that runs of
 * equal values do not wait on each other's increments. */
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
    const struct array *L = dag_layers(t, 7);
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

static int usage(const char *prog, FILE *to, int status) {
    fprintf(to,
            "usage: %s [--verify] [--dag7] [TABLES_DIR] < hands.txt\n"
            "       %s [--verify] --all | --check | --vectors FILE [TABLES_DIR]\n",
            prog, prog);
    return status;
}

int main(int argc, char **argv) {
    static struct tables t; /* static: large, and reachable until exit */
    const char *dir = NULL, *vectors = NULL;
    int all = 0, check = 0, via_dag7 = 0, check_sha = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--all")) all = 1;
        else if (!strcmp(argv[i], "--check")) check = 1;
        else if (!strcmp(argv[i], "--verify")) check_sha = 1;
        else if (!strcmp(argv[i], "--dag7")) via_dag7 = 1;
        else if (!strcmp(argv[i], "--vectors") && i + 1 < argc) vectors = argv[++i];
        else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) return usage(argv[0], stdout, 0);
        else if (argv[i][0] == '-' || dir) return usage(argv[0], stderr, 2);
        else dir = argv[i];
    }
    if (all + check + (vectors != NULL) > 1) return usage(argv[0], stderr, 2);
    if (!dir) dir = getenv("TWOPLUSTWO_TABLES");
    if (!dir || !*dir) dir = "tables";
    load(dir, &t, check_sha);
    if (all) {
        run_all(&t);
        return 0;
    }
    if (check) {
        uint64_t bytes = 0;
        for (int r = 0; r < NROLES; r++) bytes += t.a[r].length * (uint64_t)t.a[r].width;
        printf("%s: ok, %d files, %llu bytes of entries, all in range%s\n", dir, NROLES, (unsigned long long)bytes,
               check_sha ? ", sha256 verified" : "");
        return 0;
    }
    if (vectors) return run_vectors(&t, vectors);
    return run_lines(&t, via_dag7);
}
