/*
 * eval.c: evaluate poker hands with the twoplustwo tables from C.
 *
 * A reader written from spec/README.md alone, in C99 with libc and POSIX
 * (open, mmap) only. It follows the reader checklist of section 11: it
 * parses manifest.json with a small strict JSON parser, checks every field,
 * maps each table file read-only after checking its .npy header and size,
 * checks once that every entry is in range (so that no walk, even of a
 * damaged set, can leave the maps) and then evaluates hands.
 *
 * It knows every role of format version 1: hold'em's 20, and the game roles
 * <game>/dagN/layer1..N (N = 4..7), <game>/dag7/value5 and value6 of the other
 * games a set holds (section 13). Every listed game role is checked like
 * hold'em's (its fields, its length against nodes["<game>/dagN"], the range
 * of its node entries) and mapped, whichever game is evaluated.
 *
 *   eval [--verify] [--game NAME] [--dag7] [TABLES_DIR] < hands.txt
 *       reads one hand per line ("As Kd 7h 7c 2s 3d 9c": 5 to 7 cards in
 *       the card text notation of section 6.1, separated by blanks or
 *       commas) and prints "<cards> <category> <value>" per hand. A bad
 *       line (unknown card, card outside the game's deck, duplicate, wrong
 *       count) gets one error line on stderr and no output line; the others
 *       go on, and the exit status is 1 if any line was bad. Blank lines and
 *       lines starting with '#' are skipped. In hold'em, 5- and 6-card hands
 *       walk the dedicated dag5 and dag6; --dag7 walks them through dag7 and
 *       dag7/value5, value6.
 *
 *   --game NAME (default holdem) evaluates another game of the set, such as
 *       short-deck or razz (section 13): its hands walk the first 5, 6 or 7
 *       layers of <game>/dag7, and 5- and 6-card hands look the node up in
 *       <game>/dag7/value5 or value6; a game of a smaller DAG <game>/dagN
 *       (lowball-27/dag5, badugi/dag4) walks all of it with N cards, and a
 *       game whose entry names hold'em's dag7 (stud) walks hold'em's DAGs. The game's deck, hand
 *       sizes, values (1..N) and categories come from the manifest's
 *       games[NAME] entry, checked on load (section 13; hold'em never reads
 *       it, its values and categories are section 7's). A card outside the
 *       deck, such as a deuce in short deck, is a bad line. A NAME the set
 *       does not know is exit status 2, naming the games it knows; a set that
 *       lists a game but not all 9 of its roles, or its roles but no games
 *       entry, is a table error (exit status 2).
 *
 *   eval [--verify] [--game NAME] --all [TABLES_DIR]
 *       walks every 7-card hand of the game's deck in lexicographic order
 *       (c1 < c2 < ... < c7, reusing each prefix's node): 133,784,560 in
 *       hold'em, 8,347,680 in short deck; prints the category counts
 *       (strongest first), the total and the walk time.
 *
 *   eval [--verify] [--game NAME] --check [TABLES_DIR]
 *       loads the set and says so: exit status 0 for a loadable set, 2 with
 *       an error naming the file and the field at fault otherwise. With
 *       --game it also checks that game's games entry, and that every value
 *       in its DAG is one of its values (other games' values are not
 *       indices, and are only bounded by their own games entry, which a
 *       reader of one game must not refuse a set for).
 *
 *   eval [--verify] [--game NAME] --vectors FILE [TABLES_DIR]
 *       checks every "<cards>\t<value>" line of FILE (the format of
 *       spec/conformance/vectors.txt): in hold'em through both walks of
 *       section 5.2, in another game through its DAG; exit status 1 if any
 *       value differs or any line is malformed.
 *
 *   eval [--verify] --strength [TABLES_DIR] < lines
 *       reads hole cards and a board per line (2 cards, then 0, 3, 4 or 5)
 *       and prints "<cards> <ehs> <ehs2>" from the strength tables
 *       (section 14): the hand's suit-isomorphic index (section 14.1, with
 *       the hole cards as round 0 and the board as round 1) picks its sums.
 *       A set without the street's tables gets an error line per hand,
 *       and so does one listing only part of them (naming the missing role).
 *
 *   eval --index ROUNDS < hands.txt
 *       prints the suit-isomorphic index (section 14.1) of each line's
 *       cards, dealt in ROUNDS such as 2,3 (cards per round); no tables.
 *
 * It knows the strength tables' roles too: each listed one is checked (its
 * fields, its length from section 14) and mapped; a set may list none.
 *
 * --verify also checks every file's SHA-256 against the manifest, as a
 * reader must before trusting files from elsewhere (checklist item R1).
 * TABLES_DIR defaults to $TWOPLUSTWO_TABLES, else "tables".
 * Exit status: 0 ok, 1 some input line was bad, 2 usage or table error.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* madvise and its MADV_HUGEPAGE, where the system has them */

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
#define MAX_VALUE 7462 /* hold'em's values are 1..7462 (section 7) */
#define MAX_GAME_VALUES 65535 /* the most values of another game this reader takes, as the Python runtime */
#define MAX_INT 9007199254740991ULL /* 2**53 - 1: every JSON parser reads it exactly */
#define MAX_DEPTH 64
#define MAX_MANIFEST (1L << 20)
#define ALIGN 64
#define MAX_OFFSET 65536
#define MAX_READS 5
#define MAX_STR 256 /* a name is at most 255 bytes */
#define NROLES 20
#define GAME_ROLES 9

static const char HOLDEM[] = "holdem";

static const char *const CATEGORY[9] = {
    "high_card", "pair", "two_pair", "three_of_a_kind", "straight",
    "flush", "full_house", "four_of_a_kind", "straight_flush",
};
/* First value of each category; the last one ends at MAX_VALUE. */
static const int CATEGORY_FIRST[9] = {1, 1278, 4138, 4996, 5854, 5864, 7141, 7297, 7453};

/* Section 13.1's categories of the two short decks, for a games entry of
 * theirs that gives no categories of its own. */
#define SHORT_DECK_VALUES 1404
static const struct {
    const char *game;
    const char *name[9];
    uint32_t first[9];
} SECTION_13_1[2] = {
    {"short-deck",
     {"high_card", "pair", "two_pair", "straight", "three_of_a_kind", "full_house", "flush", "four_of_a_kind",
      "straight_flush"},
     {1, 121, 625, 877, 883, 1135, 1207, 1327, 1399}},
    {"short-deck-classic",
     {"high_card", "pair", "two_pair", "three_of_a_kind", "straight", "full_house", "flush", "four_of_a_kind",
      "straight_flush"},
     {1, 121, 625, 877, 1129, 1135, 1207, 1327, 1399}},
};

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

/* The strength tables' roles (section 14), optional, and their lengths. */
#define NSTRENGTH 10
static const char *const STRENGTH_ROLE[NSTRENGTH] = {
    "strength/river/wins", "strength/river/ties", "strength/turn/sum", "strength/turn/sum2",
    "strength/flop/sum", "strength/flop/sum2", "strength/flop/histogram",
    "strength/preflop/sum", "strength/preflop/sum2", "strength/preflop/histogram",
};
static const uint64_t STRENGTH_LENGTH[NSTRENGTH] = {
    123156254, 123156254, 13960050, 13960050, 1286792, 1286792, 1286792ULL * 50, 169, 2 * 169, 169 * 50,
};
enum { RIVER_WINS, RIVER_TIES, TURN_SUM, TURN_SUM2, FLOP_SUM, FLOP_SUM2, FLOP_HIST, PRE_SUM, PRE_SUM2, PRE_HIST };

/* A game role is "<game>/dagN/" (N = 4..7) and one of these: layers 0..N-1, values 7, 8 (a dag7's only). */
static const char *const GAME_ROLE[GAME_ROLES] = {
    "layer1", "layer2", "layer3", "layer4", "layer5", "layer6", "layer7", "value5", "value6",
};

static void die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("eval: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

/* Room for element n of a growing array of *cap elements. */
static void *grow(void *p, int n, int *cap, size_t size) {
    void *q;
    if (n < *cap) return p;
    q = realloc(p, (size_t)(*cap ? 2 * *cap : 8) * size);
    if (!q) die("out of memory");
    *cap = *cap ? 2 * *cap : 8;
    return q;
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
    out->v = 0;
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


/* A list of integers at ps (peek(ps) is '['): keeps the first cap in v and
 * returns how many it holds; *good is 0 if any is not an integer in range. */
static int int_list(struct parser *ps, uint64_t *v, int cap, int *good) {
    int n = 0;
    *good = 1;
    enter(ps);
    ps->p++;
    if (peek(ps) != ']') {
        for (;;) {
            struct jint x;
            int_value(ps, &x);
            *good &= x.kind == GOOD;
            if (n < cap) v[n] = x.v;
            n++;
            if (peek(ps) == ',') { ps->p++; continue; }
            break;
        }
    }
    expect(ps, ']');
    ps->depth--;
    return n;
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

/* Another game's DAG "<game>/dagN", made by the first of its roles listed. */
struct gdag {
    char game[MAX_STR];
    char dag[MAX_STR + 8]; /* "<game>/dagN" */
    int depth;             /* N: the cards of the hands that walk all of it */
    int role[GAME_ROLES];  /* its files[] entries: indices into manifest.gr, -1 if not listed */
    uint64_t nodes[7];     /* nodes["<game>/dagN"], once checked */
};

/* One listed game role. */
struct grole {
    int dag, which;       /* manifest.g[dag], GAME_ROLE[which] */
    char role[MAX_STR];
    struct entry e;
};

struct manifest {
    const char *text;     /* the manifest's text, for a second look at nodes and games */
    struct jint version;
    int files_kind, nodes_kind, games_kind;
    int dag_kind[3], dag_count[3];
    uint64_t nodes[3][7];
    struct entry e[NROLES];
    struct entry s[NSTRENGTH]; /* the strength tables' entries, where listed */
    struct gdag *g;       /* other games' DAGs, in the order their first role is listed */
    int ng, gcap;
    struct grole *gr;     /* their listed roles, in file order */
    int ngr, grcap;
    const char *nodes_raw, *games_raw; /* the nodes and games values */
    int nodes_len, games_len;
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

static int strength_role(const struct jstr *s) {
    if (s->nul || s->len >= MAX_STR) return -1;
    for (int i = 0; i < NSTRENGTH; i++)
        if (!strcmp(s->s, STRENGTH_ROLE[i])) return i;
    return -1;
}

/* A game's name: [a-z][a-z0-9]*(-[a-z0-9]+)* (section 2). */
static int game_name_ok(const char *s, size_t n) {
    if (n == 0 || s[0] < 'a' || s[0] > 'z') return 0;
    for (size_t i = 1; i < n; i++) {
        char c = s[i];
        if (c == '-') {
            if (i + 1 == n || s[i + 1] == '-') return 0;
        } else if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) {
            return 0;
        }
    }
    return 1;
}

/* Which GAME_ROLE a role "<game>/dag7/..." is, with its game's name length;
 * -1 for any other role. */
static int game_role(const struct jstr *s, size_t *game_len, int *depth) {
    const char *slash;
    if (s->nul || s->len >= MAX_STR || !(slash = strchr(s->s, '/'))) return -1;
    if (!game_name_ok(s->s, (size_t)(slash - s->s)) || strncmp(slash, "/dag", 4) || slash[4] < '4' ||
        slash[4] > '7' || slash[5] != '/')
        return -1;
    int n = slash[4] - '0';
    for (int i = 0; i < GAME_ROLES; i++) {
        if (!strcmp(slash + 6, GAME_ROLE[i]) && (i < 7 ? i < n : n == 7)) {
            *game_len = (size_t)(slash - s->s);
            *depth = n;
            return i;
        }
    }
    return -1;
}

/* The DAG "<game[0..len)>/dag<depth>", added if it is new. */
static int gdag_index(struct manifest *m, const char *game, size_t len, int depth) {
    struct gdag *g;
    for (int d = 0; d < m->ng; d++)
        if (strlen(m->g[d].game) == len && !memcmp(m->g[d].game, game, len) && m->g[d].depth == depth) return d;
    m->g = grow(m->g, m->ng, &m->gcap, sizeof *m->g);
    g = &m->g[m->ng];
    memset(g, 0, sizeof *g);
    memcpy(g->game, game, len);
    g->game[len] = '\0';
    g->depth = depth;
    snprintf(g->dag, sizeof g->dag, "%s/dag%d", g->game, depth);
    for (int w = 0; w < GAME_ROLES; w++) g->role[w] = -1;
    return m->ng++;
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
    int r = role_index(&role), d = -1, which = -1, st = -1, depth = 0;
    size_t game_len = 0;
    if (r < 0) {
        which = game_role(&role, &game_len, &depth);
        if (which < 0 && (st = strength_role(&role)) < 0) return; /* a role of a later version: not ours to read */
        if (which >= 0) d = gdag_index(m, role.s, game_len, depth);
    }
    if (r >= 0 ? m->e[r].present : st >= 0 ? m->s[st].present : m->g[d].role[which] >= 0) {
        snprintf(m->error, sizeof m->error, "%s: role '%s' appears twice", ps->where, role.s);
        return;
    }
    for (int i = 0; i < 7; i++) {
        if (!seen[i]) {
            snprintf(m->error, sizeof m->error, "%s: files[%d] must have keys for every field; %s has no '%s'",
                     ps->where, index, role.s, keys[i]);
            return;
        }
    }
    e.present = 1;
    if (r >= 0) {
        m->e[r] = e;
        return;
    }
    if (st >= 0) {
        m->s[st] = e;
        return;
    }
    m->gr = grow(m->gr, m->ngr, &m->grcap, sizeof *m->gr);
    m->gr[m->ngr].dag = d;
    m->gr[m->ngr].which = which;
    memcpy(m->gr[m->ngr].role, role.s, role.len + 1);
    m->gr[m->ngr].e = e;
    m->g[d].role[which] = m->ngr++;
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
                int good, n = int_list(ps, m->nodes[d], 7, &good);
                for (int i = 0; i < n && i < 7; i++) good &= m->nodes[d][i] >= 1;
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

/* nodes[key] for another game's DAG: a second look at the nodes object,
 * which the first pass parsed whole (so it is well-formed). */
static void game_nodes(const struct manifest *m, const char *key, const char *where, uint64_t v[7], int *count,
                       int *kind) {
    struct parser ps = {m->text, m->nodes_raw, m->nodes_raw + m->nodes_len, where, 1};
    int seen = 0;
    *kind = MISSING;
    *count = 0;
    if (m->nodes_kind != GOOD) return;
    ps.p++;
    if (peek(&ps) == '}') return;
    for (;;) {
        struct jstr k;
        string(&ps, &k);
        expect(&ps, ':');
        if (!k.nul && k.len < MAX_STR && !strcmp(k.s, key)) {
            if (seen++) dup_key(&ps, key);
            if (peek(&ps) == '[') {
                int good;
                *count = int_list(&ps, v, 7, &good);
                for (int i = 0; i < *count && i < 7; i++) good &= v[i] >= 1;
                *kind = good ? GOOD : BAD;
            } else {
                skip(&ps);
                *kind = BAD;
            }
        } else {
            skip(&ps);
        }
        if (peek(&ps) == ',') { ps.p++; continue; }
        break;
    }
}

/* Parses the whole text first (so any JSON error wins), then checks. */
static void parse_manifest(const char *text, size_t len, const char *where, struct manifest *m) {
    struct parser ps = {text, text, text + len, where, 0};
    int seen[4] = {0};
    free(m->g);
    free(m->gr);
    memset(m, 0, sizeof *m);
    m->text = text;
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
                    m->nodes_raw = ps.p;
                    nodes_object(&ps, m);
                    m->nodes_len = (int)(ps.p - m->nodes_raw);
                    m->nodes_kind = GOOD;
                } else {
                    skip(&ps);
                    m->nodes_kind = BAD;
                }
            } else if (!k.nul && !strcmp(k.s, "games")) {
                /* Read only for the game evaluated (section 13): here just found. */
                if (seen[3]++) dup_key(&ps, "games");
                m->games_kind = peek(&ps) == '{' ? GOOD : BAD;
                m->games_raw = ps.p;
                skip(&ps);
                m->games_len = (int)(ps.p - m->games_raw);
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

/* The fields of one files[] entry of a known role (checklist item R7). */
static void check_entry(struct entry *e, const char *role, const char *where) {
    char got[64];
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
    for (int r = 0; r < NROLES; r++) check_entry(&m->e[r], ROLE[r], where);
    for (int i = 0; i < m->ngr; i++) check_entry(&m->gr[i].e, m->gr[i].role, where);
    for (int i = 0; i < NSTRENGTH; i++) {
        if (!m->s[i].present) continue;
        check_entry(&m->s[i], STRENGTH_ROLE[i], where);
        if (m->s[i].length.v != STRENGTH_LENGTH[i])
            die("%s: %s has %llu entries (shape), expected %llu (section 14)", where, STRENGTH_ROLE[i],
                (unsigned long long)m->s[i].length.v, (unsigned long long)STRENGTH_LENGTH[i]);
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
    /* Every other game's DAG with a role listed: its nodes entry, and the
     * length of each listed role (section 4), even when evaluating hold'em. */
    for (int d = 0; d < m->ng; d++) {
        struct gdag *g = &m->g[d];
        const char *key = g->dag;
        int count, kind;
        game_nodes(m, key, where, g->nodes, &count, &kind);
        if (kind != GOOD || count != g->depth || g->nodes[0] != 1)
            die("%s: nodes['%s'] must list %d node counts, integers 1..2**53-1 starting with 1 (the root), for the "
                "roles %s/...", where, key, g->depth, key);
        for (int w = 0; w < GAME_ROLES; w++) {
            const struct grole *r = g->role[w] >= 0 ? &m->gr[g->role[w]] : NULL;
            if (!r) continue;
            if (w < g->depth && r->e.length.v != g->nodes[w] * 52)
                die("%s: %s has %llu entries, expected %llu (shape; nodes['%s'][%d] = %llu nodes x 52 cards)", where,
                    r->role, (unsigned long long)r->e.length.v, (unsigned long long)(g->nodes[w] * 52), key, w,
                    (unsigned long long)g->nodes[w]);
            if (w >= 7 && r->e.length.v != g->nodes[w - 2])
                die("%s: %s has %llu entries (shape), expected one per depth-%d node: nodes['%s'][%d] = %llu", where,
                    r->role, (unsigned long long)r->e.length.v, w - 2, key, w - 2,
                    (unsigned long long)g->nodes[w - 2]);
        }
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

/* The file of a listed game role. */
struct gfile {
    struct array a;
    char *path;
};

struct tables {
    struct array a[NROLES];
    struct array s[NSTRENGTH]; /* the strength tables the set lists (section 14); base NULL where it lists none */
    struct manifest m;
    char path[NROLES][4096];
    struct gfile *gf;          /* one per m.gr */
};

/* A category: its values first..last. */
struct category {
    char name[MAX_STR];        /* as printed: one word, blanks made '_' */
    uint32_t first, last;
};

/* The game evaluated: hold'em, or another game of the set. */
struct game {
    const char *name;
    int holdem;
    int on_holdem;                 /* another game whose entry names hold'em's DAGs (stud): walked as hold'em */
    int gdag;                      /* another game: its DAG, manifest.g[gdag]; -1 for hold'em */
    int depth;                     /* the cards of the hands that walk all of its DAG: 7, or 5, or 4 */
    char dag[MAX_STR + 8];         /* "dag7" or "<game>/dagN" */
    uint64_t deck;                 /* one bit per card of the deck */
    int ndeck, cards[52];          /* the deck's cards, increasing */
    int sizes;                     /* bit n set: the game evaluates n-card hands */
    uint32_t values;               /* its values are 1..values */
    int ncat, catcap;
    struct category *cat;          /* weakest first, from 1 to values without a gap */
    const struct array *layer[7];  /* the DAG: 7 layers, or depth */
    const struct array *value[2];  /* a 7-card DAG's value5 and value6 */
    const struct array *own[2];    /* hold'em: dag5/layer1 and dag6/layer1, the first of their DAG's layers */
};

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
    /* O_NONBLOCK: a FIFO planted in the directory would block the open
     * forever; it is refused below instead (checklist R10). */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    FILE *f;
    struct stat st;
    long size;
    size_t bad;
    if (fd < 0) {
        if (errno == ENOENT)
            die("no tables at %s (missing manifest.json): build them with make, or python -m twoplustwo_builder",
                dir);
        die("%s: %s", path, strerror(errno));
    }
    if (fstat(fd, &st)) die("%s: %s", path, strerror(errno));
    if (!S_ISREG(st.st_mode)) die("%s: not a regular file", path);
    if (!(f = fdopen(fd, "rb"))) die("%s: %s", path, strerror(errno));
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
        "(spec/README.md, section 3)", path);
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
    fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); /* a FIFO is refused below, never waited on */
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
#if defined(MADV_HUGEPAGE) && defined(MADV_RANDOM)
    /* Checklist R12: a page not yet cached comes in as one 2 MiB piece,
     * mapped with a 2 MiB page; the header below is read through the
     * mapping. Advice only: a refusal changes nothing. */
    if ((size_t)st.st_size >= (size_t)2 << 20 && madvise(base, (size_t)st.st_size, MADV_HUGEPAGE) == 0)
        (void)madvise(base, (size_t)st.st_size, MADV_RANDOM);
#endif
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
    for (int i = 0; i < NSTRENGTH; i++) {
        if (t->s[i].base) munmap(t->s[i].base, t->s[i].size);
        memset(&t->s[i], 0, sizeof t->s[i]);
    }
    for (int i = 0; t->gf && i < t->m.ngr; i++) {
        if (t->gf[i].a.base) munmap(t->gf[i].a.base, t->gf[i].a.size);
        free(t->gf[i].path);
    }
    free(t->gf);
    t->gf = NULL;
}

/* Entries of array a must be below limit. */
static void check_range(const struct array *a, uint64_t limit, int value, const char *path, const char *role,
                        const char *game) {
    for (uint64_t i = 0; i < a->length; i++) {
        uint32_t v = get(a, i);
        if (v < limit) continue;
        if (value)
            die("%s (%s): entry %llu is %u, not a value of %s (1..%llu): damaged tables", path, role,
                (unsigned long long)i, v, game, (unsigned long long)(limit - 1));
        die("%s (%s): entry %llu is %u, out of range (at most %llu): damaged tables", path, role,
            (unsigned long long)i, v, (unsigned long long)(limit - 1));
    }
}

/* Every entry of a non-final layer must be a node of the next depth, and
 * every value at most 7462 (dead entries of a last layer may be 0): after
 * this no walk of valid cards, or of any cards 0..51, can leave the maps.
 * The same for every other game's DAG listed, its values bounded by the
 * game's own count when it is the game evaluated: they are never indices,
 * and another game's games entry must not stop this one from loading. */
static void range_check(const struct tables *t, const struct game *g) {
    for (int d = 0; d < 3; d++) {
        int n = d + 5;
        for (int k = 1; k <= n; k++) {
            int r = FIRST_ROLE[d] + k - 1;
            if (k < n) check_range(&t->a[r], t->m.nodes[d][k], 0, t->path[r], ROLE[r], HOLDEM);
            else check_range(&t->a[r], MAX_VALUE + 1, 0, t->path[r], ROLE[r], HOLDEM);
        }
    }
    for (int r = VALUE5; r <= VALUE6; r++) check_range(&t->a[r], MAX_VALUE + 1, 1, t->path[r], ROLE[r], HOLDEM);
    for (int i = 0; i < t->m.ngr; i++) {
        const struct grole *r = &t->m.gr[i];
        const struct gdag *gd = &t->m.g[r->dag];
        if (r->which < gd->depth - 1)
            check_range(&t->gf[i].a, gd->nodes[r->which + 1], 0, t->gf[i].path, r->role, gd->game);
        else if (r->dag == g->gdag)
            check_range(&t->gf[i].a, (uint64_t)g->values + 1, 1, t->gf[i].path, r->role, gd->game);
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

/* --------------------------------------------------------------- games */

/* Appends a game's name to the list of known games, within cap bytes. */
static void add_known(char *known, size_t cap, const char *name) {
    size_t n = strlen(known), len = strlen(name);
    if (n + 2 + len + 5 >= cap) {
        if (n + 5 < cap && strcmp(known + (n >= 5 ? n - 5 : 0), ", ...")) memcpy(known + n, ", ...", 6);
        return;
    }
    known[n++] = ',';
    known[n++] = ' ';
    for (size_t i = 0; i < len; i++) known[n++] = name[i] >= 0x20 && name[i] < 0x7F ? name[i] : '?';
    known[n] = '\0';
}

/* games[name]: a second look at the games object (well-formed: the first
 * pass parsed it) that also lists its games in known. Returns 1 and a
 * parser at the entry's value if there is one. */
static int find_game(const struct manifest *m, const char *name, const char *where, struct parser *at, char *known,
                     size_t cap) {
    struct parser ps = {m->text, m->games_raw, m->games_raw + m->games_len, where, 1};
    int found = 0;
    if (m->games_kind == MISSING) return 0;
    if (m->games_kind != GOOD) die("%s: 'games' must map each game's name to its entry (section 13)", where);
    ps.p++;
    if (peek(&ps) == '}') return 0;
    for (;;) {
        struct jstr k;
        string(&ps, &k);
        expect(&ps, ':');
        if (!k.nul && k.len < MAX_STR && strcmp(k.s, HOLDEM)) add_known(known, cap, k.s);
        if (!k.nul && k.len < MAX_STR && !strcmp(k.s, name)) {
            if (found++) dup_key(&ps, name);
            peek(&ps);
            *at = ps;
        }
        skip(&ps);
        if (peek(&ps) == ',') { ps.p++; continue; }
        break;
    }
    return found;
}

/* Room for nine categories, in place of any g->cat holds. */
static struct category *nine_categories(struct game *g) {
    free(g->cat);
    g->cat = calloc(9, sizeof *g->cat);
    if (!g->cat) die("out of memory");
    g->ncat = 0;
    g->catcap = 9;
    return g->cat;
}

/* One [name, first, last] of games[...].categories, appended to g->cat;
 * *bad is set if it is something else. */
static void category_item(struct parser *ps, struct game *g, int *bad) {
    struct jstr name;
    struct jint first, last;
    int n = 0;
    memset(&name, 0, sizeof name);
    memset(&first, 0, sizeof first);
    memset(&last, 0, sizeof last);
    if (peek(ps) != '[') {
        skip(ps);
        *bad = 1;
        return;
    }
    enter(ps);
    ps->p++;
    if (peek(ps) != ']') {
        for (;;) {
            if (n == 0) str_value(ps, &name);
            else if (n == 1) int_value(ps, &first);
            else if (n == 2) int_value(ps, &last);
            else skip(ps);
            n++;
            if (peek(ps) == ',') { ps->p++; continue; }
            break;
        }
    }
    expect(ps, ']');
    ps->depth--;
    if (n != 3 || name.kind != GOOD || name.nul || name.len == 0 || name.len >= MAX_STR || first.kind != GOOD ||
        last.kind != GOOD || first.v > MAX_GAME_VALUES || last.v > MAX_GAME_VALUES || g->ncat > MAX_GAME_VALUES) {
        *bad = 1;
        return;
    }
    g->cat = grow(g->cat, g->ncat, &g->catcap, sizeof *g->cat);
    struct category *c = &g->cat[g->ncat++];
    /* One word on an output line: "three of a kind" is three_of_a_kind. */
    for (size_t i = 0; i <= name.len; i++) {
        unsigned char ch = (unsigned char)name.s[i];
        c->name[i] = ch == ' ' ? '_' : (ch && (ch < 0x20 || ch == 0x7F)) ? '?' : (char)ch;
    }
    c->first = (uint32_t)first.v;
    c->last = (uint32_t)last.v;
}

/* games[name] for another game (section 13): its deck, sizes, values, dags
 * and categories, each checked; any defect is a table error. */
static void game_entry(struct parser *ps, struct game *g, const char *where) {
    enum { DECK, SIZES, VALUES, DAGS, CATEGORIES, NKEYS };
    static const char *const keys[NKEYS] = {"deck", "sizes", "values", "dags", "categories"};
    const char *raw[NKEYS] = {0};
    int rawlen[NKEYS] = {0}, seen[NKEYS] = {0}, bad[NKEYS] = {0};
    uint64_t deck[53], sizes[4];
    int ndeck = 0, nsizes = 0, has_dag = 0;
    struct jint values;
    char got[64];
    memset(&values, 0, sizeof values);
    if (peek(ps) != '{') {
        const char *r = ps->p;
        skip(ps);
        shown(got, sizeof got, r, (int)(ps->p - r));
        die("%s: games['%s'] must be an object, got %s", where, g->name, got);
    }
    enter(ps);
    ps->p++;
    if (peek(ps) != '}') {
        for (;;) {
            struct jstr k;
            int which = -1;
            string(ps, &k);
            expect(ps, ':');
            for (int i = 0; i < NKEYS && !k.nul && k.len < MAX_STR; i++)
                if (!strcmp(k.s, keys[i])) which = i;
            if (which >= 0 && seen[which]++) dup_key(ps, keys[which]);
            peek(ps);
            if (which >= 0) raw[which] = ps->p;
            switch (which) {
            case DECK:
            case SIZES: {
                int good = 0;
                if (peek(ps) != '[') skip(ps);
                else if (which == DECK) ndeck = int_list(ps, deck, 53, &good);
                else nsizes = int_list(ps, sizes, 4, &good);
                bad[which] = !good;
                break;
            }
            case VALUES: int_value(ps, &values); break;
            case DAGS:
                if (peek(ps) != '[') {
                    skip(ps);
                    bad[DAGS] = 1;
                    break;
                }
                enter(ps);
                ps->p++;
                if (peek(ps) != ']') {
                    for (;;) {
                        struct jstr d;
                        str_value(ps, &d);
                        if (d.kind != GOOD) bad[DAGS] = 1;
                        else if (!d.nul && d.len < MAX_STR && !strcmp(d.s, g->dag)) has_dag = 1;
                        else if (!d.nul && g->gdag < 0 && !strcmp(d.s, "dag7")) g->on_holdem = 1;
                        if (peek(ps) == ',') { ps->p++; continue; }
                        break;
                    }
                }
                expect(ps, ']');
                ps->depth--;
                break;
            case CATEGORIES:
                if (peek(ps) != '[') {
                    skip(ps);
                    bad[CATEGORIES] = 1;
                    break;
                }
                enter(ps);
                ps->p++;
                if (peek(ps) != ']') {
                    for (;;) {
                        category_item(ps, g, &bad[CATEGORIES]);
                        if (peek(ps) == ',') { ps->p++; continue; }
                        break;
                    }
                }
                expect(ps, ']');
                ps->depth--;
                break;
            default: skip(ps);
            }
            if (which >= 0) rawlen[which] = (int)(ps->p - raw[which]);
            if (peek(ps) == ',') { ps->p++; continue; }
            break;
        }
    }
    expect(ps, '}');
    ps->depth--;

#define GOT(key) (seen[key] ? (shown(got, sizeof got, raw[key], rawlen[key]), got) : "nothing")
    /* deck: card ints 0..51, increasing. */
    for (int i = 0; !bad[DECK] && i < ndeck && i < 53; i++)
        if (deck[i] > 51 || (i && deck[i] <= deck[i - 1])) bad[DECK] = 1;
    if (!seen[DECK] || bad[DECK] || ndeck < 1 || ndeck > 52)
        die("%s: games['%s'].deck must list the card ints of the deck, 0..51 increasing (section 13), got %s", where,
            g->name, GOT(DECK));
    g->ndeck = ndeck;
    for (int i = 0; i < ndeck; i++) {
        g->cards[i] = (int)deck[i];
        g->deck |= (uint64_t)1 << deck[i];
    }
    /* sizes: hand sizes among 4..7 that the game's DAG walks (all of it, or a dag7's first 5 or 6 layers and
     * its value arrays), increasing. */
    uint64_t depth = g->on_holdem ? 7 : (uint64_t)g->depth;
    for (int i = 0; !bad[SIZES] && i < nsizes && i < 4; i++)
        if (sizes[i] < 4 || sizes[i] > depth || (sizes[i] < depth && (depth != 7 || sizes[i] < 5)) ||
            (i && sizes[i] <= sizes[i - 1]))
            bad[SIZES] = 1;
    if (!seen[SIZES] || bad[SIZES] || nsizes < 1 || nsizes > 4)
        die("%s: games['%s'].sizes must list hand sizes its DAG %s walks, increasing, such as [5, 6, 7], got %s",
            where, g->name, g->on_holdem ? "dag7" : g->dag, GOT(SIZES));
    for (int i = 0; i < nsizes; i++) g->sizes |= 1 << sizes[i];
    if (values.kind != GOOD || values.v < 1 || values.v > MAX_GAME_VALUES)
        die("%s: games['%s'].values must be an integer from 1 to %d (this reader's limit), got %s", where, g->name,
            MAX_GAME_VALUES, GOT(VALUES));
    g->values = (uint32_t)values.v;
    if (!seen[DAGS] || bad[DAGS] || (!has_dag && !g->on_holdem))
        die("%s: games['%s'].dags must be a list of strings holding '%s', got %s", where, g->name, g->dag,
            GOT(DAGS));
    if (!seen[CATEGORIES]) {
        /* None given: section 13.1's, for the two short decks it defines. */
        for (int v = 0; v < 2; v++) {
            if (strcmp(g->name, SECTION_13_1[v].game) || g->values != SHORT_DECK_VALUES) continue;
            g->cat = nine_categories(g);
            for (int c = 0; c < 9; c++) {
                snprintf(g->cat[c].name, sizeof g->cat[c].name, "%s", SECTION_13_1[v].name[c]);
                g->cat[c].first = SECTION_13_1[v].first[c];
                g->cat[c].last = c < 8 ? SECTION_13_1[v].first[c + 1] - 1 : SHORT_DECK_VALUES;
            }
            g->ncat = 9;
            return;
        }
        die("%s: games['%s'] has no categories, and section 13.1 gives none for it", where, g->name);
    }
    if (!bad[CATEGORIES] && g->ncat == 0) {
        /* [] (section 13: a low, said by its ranks): one nameless category, printed "-", over every value. */
        g->cat = grow(g->cat, 0, &g->catcap, sizeof *g->cat);
        strcpy(g->cat[0].name, "-");
        g->cat[0].first = 1;
        g->cat[0].last = g->values;
        g->ncat = 1;
    }
    uint32_t following = 1;
    for (int c = 0; !bad[CATEGORIES] && c < g->ncat; c++) {
        if (g->cat[c].first != following || g->cat[c].last < g->cat[c].first) bad[CATEGORIES] = 1;
        following = g->cat[c].last + 1;
    }
    if (bad[CATEGORIES] || g->ncat < 1 || following != g->values + 1)
        die("%s: games['%s'].categories must be [] or [name, first, last] lists covering the values 1..%u in "
            "order, without a gap or an overlap, got %s", where, g->name, g->values, GOT(CATEGORIES));
#undef GOT
}

/* The game named name, as the manifest holds it (before the files are
 * mapped: a game the set lacks is refused first). */
static void choose_game(const struct manifest *m, const char *name, const char *where, struct game *g) {
    char known[400] = "holdem", shown_name[64];
    struct parser at;
    int found, missing = -1;
    free(g->cat);
    memset(g, 0, sizeof *g);
    g->name = name;
    g->gdag = -1;
    if (!strcmp(name, HOLDEM)) {
        /* Sections 6 and 7: a reader of hold'em never reads games. */
        g->holdem = 1;
        g->depth = 7;
        strcpy(g->dag, "dag7");
        g->ndeck = 52;
        for (int c = 0; c < 52; c++) g->cards[c] = c;
        g->deck = ~(uint64_t)0 >> 12;
        g->sizes = 1 << 5 | 1 << 6 | 1 << 7;
        g->values = MAX_VALUE;
        g->cat = nine_categories(g);
        for (int c = 0; c < 9; c++) {
            snprintf(g->cat[c].name, sizeof g->cat[c].name, "%s", CATEGORY[c]);
            g->cat[c].first = (uint32_t)CATEGORY_FIRST[c];
            g->cat[c].last = c < 8 ? (uint32_t)CATEGORY_FIRST[c + 1] - 1 : MAX_VALUE;
        }
        g->ncat = 9;
        return;
    }
    shown(shown_name, sizeof shown_name, name, (int)strlen(name));
    snprintf(g->dag, sizeof g->dag, "%.*s/dag7", MAX_STR - 1, name);
    g->depth = 7;
    found = find_game(m, name, where, &at, known, sizeof known);
    /* The game's DAG: its largest one listed (a game has one, section 13). */
    for (int d = 0; d < m->ng; d++)
        if (!strcmp(m->g[d].game, name) && (g->gdag < 0 || m->g[d].depth > m->g[g->gdag].depth)) g->gdag = d;
    if (!found && g->gdag < 0) die("unknown game '%s'; known games: %s (the games of %s)", shown_name, known, where);
    if (g->gdag >= 0) {
        snprintf(g->dag, sizeof g->dag, "%s", m->g[g->gdag].dag);
        g->depth = m->g[g->gdag].depth;
    }
    /* A game without roles of its own whose entry names hold'em's dag7 (stud) walks hold'em's DAGs. */
    if (found) game_entry(&at, g, where);
    if (g->on_holdem) return;
    for (int w = 0; w < GAME_ROLES && missing < 0; w++)
        if ((w < g->depth || g->depth == 7) && (g->gdag < 0 || m->g[g->gdag].role[w] < 0)) missing = w;
    if (missing >= 0)
        die("%s: the set holds no %s DAG (missing role '%s/%s'): rebuild the tables with make or python -m "
            "twoplustwo_builder, which build every game", where, shown_name, g->dag, GAME_ROLE[missing]);
    if (!found)
        die("%s: games has no entry '%s', though the set lists its roles (section 13); known games: %s", where,
            shown_name, known);
}

/* Points the game at its arrays, once mapped. */
static void attach_game(const struct tables *t, struct game *g) {
    if (g->holdem || g->on_holdem) {
        for (int k = 0; k < 7; k++) g->layer[k] = &t->a[FIRST_ROLE[2] + k];
        g->value[0] = &t->a[VALUE5];
        g->value[1] = &t->a[VALUE6];
        g->own[0] = &t->a[FIRST_ROLE[0]];
        g->own[1] = &t->a[FIRST_ROLE[1]];
        return;
    }
    const struct gdag *d = &t->m.g[g->gdag];
    for (int k = 0; k < d->depth; k++) g->layer[k] = &t->gf[d->role[k]].a;
    if (d->depth == 7) {
        g->value[0] = &t->gf[d->role[7]].a;
        g->value[1] = &t->gf[d->role[8]].a;
    }
}

static void verify(const struct tables *t) {
    for (int r = 0; r < NROLES; r++) {
        char hex64[65];
        sha256_hex(t->a[r].base, t->a[r].size, hex64);
        if (strcmp(hex64, t->m.e[r].sha256.s))
            die("%s: content does not match its sha256 in the manifest (corrupt)", t->path[r]);
    }
    for (int i = 0; i < t->m.ngr; i++) {
        char hex64[65];
        sha256_hex(t->gf[i].a.base, t->gf[i].a.size, hex64);
        if (strcmp(hex64, t->m.gr[i].e.sha256.s))
            die("%s: content does not match its sha256 in the manifest (corrupt)", t->gf[i].path);
    }
}

/* Reads the manifest once and maps what it lists; if a listed file is gone
 * a publish happened in between: read the manifest again and start over,
 * at most MAX_READS reads in all (section 8). */
static void load(const char *dir, struct tables *t, int check_sha, const char *game, struct game *g) {
    char mpath[4096], strength_path[4096] = "";
    int missing = -1;
    if (snprintf(mpath, sizeof mpath, "%s/manifest.json", dir) >= (int)sizeof mpath) die("%s: path too long", dir);
    for (int reads = 1; reads <= MAX_READS; reads++) {
        size_t len;
        char *text = read_manifest(mpath, dir, &len);
        parse_manifest(text, len, mpath, &t->m);
        check_manifest(&t->m, mpath);
        choose_game(&t->m, game, mpath, g);
        missing = -1;
        for (int r = 0; r < NROLES && missing < 0; r++)
            if (map_file(dir, &t->m.e[r], &t->a[r], t->path[r], sizeof t->path[r])) missing = r;
        t->gf = calloc((size_t)t->m.ngr + 1, sizeof *t->gf);
        if (!t->gf) die("out of memory");
        for (int i = 0; i < t->m.ngr && missing < 0; i++) {
            char path[4096];
            int gone = map_file(dir, &t->m.gr[i].e, &t->gf[i].a, path, sizeof path);
            if (!(t->gf[i].path = strdup(path))) die("out of memory");
            if (gone) missing = NROLES + i;
        }
        for (int i = 0; i < NSTRENGTH && missing < 0; i++)
            if (t->m.s[i].present && map_file(dir, &t->m.s[i], &t->s[i], strength_path, sizeof strength_path))
                missing = NROLES + t->m.ngr + i;
        if (missing < 0) break;
        if (reads < MAX_READS) unmap_all(t);
    }
    if (missing >= NROLES + t->m.ngr)
        die("%s: missing (listed in %s as %s; read the manifest %d times and a listed file was gone each time)",
            strength_path, mpath, STRENGTH_ROLE[missing - NROLES - t->m.ngr], MAX_READS);
    if (missing >= 0)
        die("%s: missing (listed in %s as %s; read the manifest %d times and a listed file was gone each time)",
            missing < NROLES ? t->path[missing] : t->gf[missing - NROLES].path, mpath,
            missing < NROLES ? ROLE[missing] : t->m.gr[missing - NROLES].role, MAX_READS);
    attach_game(t, g);
    range_check(t, g);
    if (check_sha) verify(t);
}

/* --------------------------------------------------------------- hands */

/* The category of a value: the last one starting at or below it. */
static int category_of(const struct game *g, uint32_t value) {
    int lo = 0, hi = g->ncat - 1;
    while (lo < hi) {
        int mid = lo + (hi - lo + 1) / 2;
        if (g->cat[mid].first <= value) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

/* Cards must be valid (in the deck, no duplicates): dead transitions lead
 * anywhere. Another game, and hold'em with via_dag7, walk the first n
 * layers of the 7-card DAG and look 5- and 6-card nodes up in value5,
 * value6 (sections 5.2, 13); hold'em walks dag5 and dag6 otherwise. */
static uint32_t evaluate(const struct game *g, const int *cards, int n, int via_dag7) {
    uint32_t node = 0;
    if ((g->holdem || g->on_holdem) && !via_dag7 && n < 7) {
        const struct array *layers = g->own[n - 5];
        for (int k = 0; k < n; k++) node = get(&layers[k], (uint64_t)node * 52 + (uint64_t)cards[k]);
        return node;
    }
    for (int k = 0; k < n; k++) node = get(g->layer[k], (uint64_t)node * 52 + (uint64_t)cards[k]);
    if (n == g->depth) return node; /* the last layer holds values */
    return get(g->value[n - 5], node);
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


/* Parses one line into cards of the game's deck; on error writes a message
 * and returns -1. */
static int parse_cards_of(char *line, int *cards, char *err, size_t errcap, const struct game *g) {
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
        if (!(g->deck >> c & 1)) {
            snprintf(err, errcap, "card %d ('%c%c'): not in the %s deck of %d cards", n, RANKS[c >> 2],
                     SUITS[c & 3], g->name, g->ndeck);
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
    return n;
}

/* One hand of 5 to 7 cards (4 in badugi) of the game's deck from a line: the count, or -1 with err. */
static int parse_hand(char *line, int *cards, char *err, size_t errcap, const struct game *g) {
    int n = parse_cards_of(line, cards, err, errcap, g);
    if (n < 0) return -1;
    if (n < 5 && !(g->sizes >> n & 1)) {
        snprintf(err, errcap, "%d cards, a hand has 5 to 7", n);
        return -1;
    }
    if (!(g->sizes >> n & 1)) {
        snprintf(err, errcap, "%d cards, not a hand size of %s (its games entry's sizes)", n, g->name);
        return -1;
    }
    return n;
}

static int skipped(const char *line);

/* ------------------------------------------- the suit-isomorphic index (14.1) */

#define MAX_ROUNDS 8
#define MAX_CODES 1024

struct indexer {
    int nr, n[MAX_ROUNDS], total;
    int ncodes;
    uint32_t code[MAX_CODES];  /* every configuration's code, increasing */
    uint64_t first[MAX_CODES]; /* the first index of its block */
    uint64_t size;
};

static uint64_t choose(uint64_t n, int k) {
    uint64_t r = 1;
    if (k < 0 || (uint64_t)k > n) return 0;
    for (int i = 0; i < k; i++) r = r * (n - (uint64_t)i) / (uint64_t)(i + 1); /* exact at every step */
    return r;
}

static int bits(uint32_t x) {
    int n = 0;
    for (; x; x &= x - 1) n++;
    return n;
}

/* A suit's key (step 1) and n(key) from its counts per round. */
static void key_of(const struct indexer *ix, const int *counts, uint32_t *key, uint64_t *n) {
    int held = 0;
    *key = 0;
    *n = 1;
    for (int j = 0; j < ix->nr; j++) {
        *key = *key * (uint32_t)(ix->n[j] + 1) + (uint32_t)counts[j];
        *n *= choose((uint64_t)(13 - held), counts[j]);
        held += counts[j];
    }
}

/* The configuration code and the block's size of four suits' keys and n(key)s (steps 3 and 4). */
static uint32_t configuration(uint32_t key[4], uint64_t n[4], uint64_t idx[4], uint64_t *size) {
    /* Sorted by key, largest first, and equal keys by index, smallest first. */
    for (int a = 1; a < 4; a++)
        for (int b = a; b > 0 && (key[b] > key[b - 1] || (key[b] == key[b - 1] && idx[b] < idx[b - 1])); b--) {
            uint32_t k = key[b]; key[b] = key[b - 1]; key[b - 1] = k;
            uint64_t x = n[b]; n[b] = n[b - 1]; n[b - 1] = x;
            x = idx[b]; idx[b] = idx[b - 1]; idx[b - 1] = x;
        }
    *size = 1;
    for (int a = 0; a < 4;) {
        int g = 1;
        while (a + g < 4 && key[a + g] == key[a]) g++;
        *size *= choose(n[a] + (uint64_t)g - 1, g);
        a += g;
    }
    return key[0] << 21 | key[1] << 14 | key[2] << 7 | key[3];
}

/* Every split of each round's cards over the four suits, counts[s][j]. */
static void each_split(struct indexer *ix, int counts[4][MAX_ROUNDS], int j, int s, int left) {
    if (j == ix->nr) {
        uint32_t key[4];
        uint64_t n[4], idx[4] = {0, 0, 0, 0}, size;
        for (int u = 0; u < 4; u++) key_of(ix, counts[u], &key[u], &n[u]);
        uint32_t code = configuration(key, n, idx, &size);
        for (int c = 0; c < ix->ncodes; c++)
            if (ix->code[c] == code) return;
        if (ix->ncodes == MAX_CODES) die("too many configurations");
        ix->code[ix->ncodes] = code;
        ix->first[ix->ncodes++] = size; /* sizes for now; made first indices below */
        return;
    }
    if (s == 3) {
        counts[3][j] = left;
        each_split(ix, counts, j + 1, 0, j + 1 < ix->nr ? ix->n[j + 1] : 0);
        return;
    }
    for (int c = 0; c <= left; c++) {
        counts[s][j] = c;
        each_split(ix, counts, j, s + 1, left - c);
    }
}

static void make_indexer(struct indexer *ix, const int *rounds, int nr) {
    int counts[4][MAX_ROUNDS];
    memset(ix, 0, sizeof *ix);
    ix->nr = nr;
    for (int j = 0; j < nr; j++) {
        ix->n[j] = rounds[j];
        ix->total += rounds[j];
    }
    each_split(ix, counts, 0, 0, ix->n[0]);
    /* Blocks in increasing order of code (step 3). */
    for (int a = 1; a < ix->ncodes; a++)
        for (int b = a; b > 0 && ix->code[b] < ix->code[b - 1]; b--) {
            uint32_t c = ix->code[b]; ix->code[b] = ix->code[b - 1]; ix->code[b - 1] = c;
            uint64_t x = ix->first[b]; ix->first[b] = ix->first[b - 1]; ix->first[b - 1] = x;
        }
    for (int c = 0; c < ix->ncodes; c++) {
        uint64_t size = ix->first[c];
        ix->first[c] = ix->size;
        ix->size += size;
    }
}

/* The index of cards[0..total), round after round (steps 1 to 4). */
static uint64_t index_of(const struct indexer *ix, const int *cards) {
    uint32_t key[4];
    uint64_t n[4], idx[4], size;
    for (int s = 0; s < 4; s++) {
        uint32_t held = 0;
        int at = 0;
        key[s] = 0;
        n[s] = 1;
        idx[s] = 0;
        for (int j = 0; j < ix->nr; j++) {
            uint32_t ranks = 0;
            for (int i = at; i < at + ix->n[j]; i++)
                if ((cards[i] & 3) == s) ranks |= 1u << (cards[i] >> 2);
            at += ix->n[j];
            int c = bits(ranks), t = 0;
            uint64_t digit = 0, radix = choose((uint64_t)(13 - bits(held)), c);
            /* Step 2: the colex rank of the set among the ranks not held before, renumbered upwards. */
            for (int r = 0; r < 13; r++)
                if (ranks >> r & 1) digit += choose((uint64_t)(r - bits(held & ((1u << r) - 1))), ++t);
            key[s] = key[s] * (uint32_t)(ix->n[j] + 1) + (uint32_t)c;
            idx[s] = idx[s] * radix + digit;
            n[s] *= radix;
            held |= ranks;
        }
    }
    uint32_t code = configuration(key, n, idx, &size);
    uint64_t place = 0;
    for (int a = 0; a < 4;) {
        int g = 1;
        while (a + g < 4 && key[a + g] == key[a]) g++;
        uint64_t rank = 0;
        for (int u = 0; u < g; u++) rank += choose(idx[a + u] + (uint64_t)u, u + 1); /* sorted already */
        place = place * choose(n[a] + (uint64_t)g - 1, g) + rank;
        a += g;
    }
    for (int c = 0; c < ix->ncodes; c++)
        if (ix->code[c] == code) return ix->first[c] + place;
    die("no block for configuration %#x", code);
    return 0;
}

/* --index R1,R2,..: each line's cards, R1 + R2 + .. of them, to their index. */
static int run_index(const struct game *g, const char *spec) {
    int rounds[MAX_ROUNDS], nr = 0, total = 0;
    struct indexer ix;
    for (const char *p = spec; *p;) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 1 || nr == MAX_ROUNDS || total + v > 7) die("--index takes rounds such as 2,3 (at most 7 cards)");
        rounds[nr++] = (int)v;
        total += (int)v;
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',') die("--index takes rounds such as 2,3 (at most 7 cards)");
    }
    if (!nr) die("--index takes rounds such as 2,3");
    make_indexer(&ix, rounds, nr);
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    int bad = 0;
    while (getline(&line, &cap, stdin) != -1) {
        int cards[7], n;
        char err[512];
        lineno++;
        if (skipped(line)) continue;
        n = parse_cards_of(line, cards, err, sizeof err, g);
        if (n >= 0 && n != total) snprintf(err, sizeof err, "%d cards, the rounds deal %d", n, total);
        if (n < 0 || n != total) {
            fprintf(stderr, "eval: line %ld: %s\n", lineno, err);
            bad = 1;
            continue;
        }
        printf("%llu\n", (unsigned long long)index_of(&ix, cards));
    }
    free(line);
    return bad;
}

/* The roles a street of k board cards is read from, both (section 14: which
 * roles serve together), and the histogram it may add; -1 where none. */
static const int STREET_NEEDS[6][2] = {{PRE_SUM, PRE_SUM2}, {-1, -1}, {-1, -1}, {FLOP_SUM, FLOP_SUM2},
                                       {TURN_SUM, TURN_SUM2}, {RIVER_WINS, RIVER_TIES}};
static const int STREET_HIST[6] = {PRE_HIST, -1, -1, FLOP_HIST, -1, -1};

/* Whether the set serves the street of k board cards: both its roles
 * mapped. If not, err says why: it has none of the street's tables, or only
 * part of them, naming the role that is missing (never served by half). */
static int served(const struct tables *t, int k, char *err, size_t len) {
    const int a = STREET_NEEDS[k][0], b = STREET_NEEDS[k][1], h = STREET_HIST[k];
    if (t->s[a].base && t->s[b].base) return 1;
    if (!t->s[a].base && !t->s[b].base && (h < 0 || !t->s[h].base))
        snprintf(err, len, "the set has no %s table", STRENGTH_ROLE[a]);
    else
        snprintf(err, len, "the set lists part of this street's strength tables but not %s: it is read from %s and %s together (section 14)",
                 STRENGTH_ROLE[t->s[a].base ? b : a], STRENGTH_ROLE[a], STRENGTH_ROLE[b]);
    return 0;
}

/* --strength: each line's hole cards and board (0, 3, 4 or 5 cards) looked
 * up in the strength tables (section 14): ehs, ehs2, and on the river W and T. */
static int run_strength(const struct tables *t, const struct game *g) {
    static const int first[6] = {PRE_SUM, -1, -1, FLOP_SUM, TURN_SUM, RIVER_WINS};
    static const uint64_t completions[6] = {2118760, 0, 0, 1081, 46, 1};
    struct indexer ix[6];
    for (int k = 0; k <= 5; k++) {
        int rounds[2] = {2, k};
        if (first[k] >= 0) make_indexer(&ix[k], rounds, k ? 2 : 1);
    }
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    int bad = 0;
    while (getline(&line, &cap, stdin) != -1) {
        int cards[7], n;
        char err[512];
        lineno++;
        if (skipped(line)) continue;
        n = parse_cards_of(line, cards, err, sizeof err, g);
        int k = n - 2;
        int ok = n >= 0;
        if (ok && (k < 0 || first[k] < 0)) {
            snprintf(err, sizeof err, "%d cards: two hole cards and 0, 3, 4 or 5 board cards", n);
            ok = 0;
        } else if (ok) ok = served(t, k, err, sizeof err);
        if (!ok) {
            fprintf(stderr, "eval: line %ld: %s\n", lineno, err);
            bad = 1;
            continue;
        }
        uint64_t i = index_of(&ix[k], cards), sum, sum2;
        if (k == 5) {
            uint64_t w = get(&t->s[RIVER_WINS], i), ti = get(&t->s[RIVER_TIES], i);
            sum = 2 * w + ti;
            sum2 = sum * sum;
        } else {
            sum = get(&t->s[first[k]], i);
            sum2 = k == 0 ? get(&t->s[PRE_SUM2], 2 * i) | (uint64_t)get(&t->s[PRE_SUM2], 2 * i + 1) << 32
                          : get(&t->s[first[k] + 1], i);
        }
        for (int c = 0; c < n; c++) printf("%c%c ", RANKS[cards[c] >> 2], SUITS[cards[c] & 3]);
        printf("%.17g %.17g\n", (double)sum / (1980.0 * (double)completions[k]),
               (double)sum2 / (1980.0 * 1980.0 * (double)completions[k]));
    }
    free(line);
    return bad;
}

static int skipped(const char *line) {
    while (*line == ' ' || *line == '\t') line++;
    return *line == '#' || *line == '\n' || *line == '\r' || !*line;
}

static int run_lines(const struct game *g, int via_dag7) {
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0;
    int bad = 0;
    while (getline(&line, &cap, stdin) != -1) {
        int cards[7], n;
        char err[512];
        lineno++;
        if (skipped(line)) continue;
        n = parse_hand(line, cards, err, sizeof err, g);
        if (n < 0) {
            fprintf(stderr, "eval: line %ld: %s\n", lineno, err);
            bad = 1;
            continue;
        }
        uint32_t v = evaluate(g, cards, n, via_dag7);
        for (int i = 0; i < n; i++) printf("%c%c ", RANKS[cards[i] >> 2], SUITS[cards[i] & 3]);
        printf("%s %u\n", g->cat[category_of(g, v)].name, v);
    }
    free(line);
    if (ferror(stdin)) die("reading stdin: %s", strerror(errno));
    return bad;
}

/* Lines "<cards>\t<value>": in hold'em both walks of section 5.2 must give
 * the value, in another game the walk of its DAG. */
static int run_vectors(const struct game *g, const char *file) {
    FILE *f = fopen(file, "r");
    char *line = NULL;
    size_t cap = 0;
    long lineno = 0, count = 0, wrong = 0;
    if (!f) die("%s: %s", file, strerror(errno));
    while (getline(&line, &cap, f) != -1) {
        int cards[7], n;
        char err[512], *tab, *stop;
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
        n = parse_hand(line, cards, err, sizeof err, g);
        if (n < 0) {
            fprintf(stderr, "eval: %s:%ld: %s\n", file, lineno, err);
            wrong++;
            continue;
        }
        count++;
        uint32_t own = evaluate(g, cards, n, 0), via7 = evaluate(g, cards, n, 1);
        if ((long)own != want || (long)via7 != want) {
            if (wrong < 10 && g->holdem)
                fprintf(stderr, "eval: %s:%ld: %s: expected %ld, dag%d gives %u, dag7 gives %u\n", file, lineno, line,
                        want, n, own, via7);
            else if (wrong < 10)
                fprintf(stderr, "eval: %s:%ld: %s: expected %ld, %s gives %u\n", file, lineno, line, want, g->dag,
                        own);
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
static void count_row(const struct array *a, uint64_t row, int from, int native, uint64_t *const hist[2]) {
    uint64_t base = row * 52, *h0 = hist[0], *h1 = hist[1];
    int c = from;
    if (native && a->width == 2) {
        const uint16_t *p = (const uint16_t *)(const void *)a->data + base;
        for (; c + 1 < 52; c += 2) {
            h0[p[c]]++;
            h1[p[c + 1]]++;
        }
    }
    for (; c < 52; c++) h0[get(a, base + (uint64_t)c)]++;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Every 7-card hand of the game's deck, c1 < ... < c7. The range check
 * bounds every value of the game's last layer by its count of values, so
 * the histogram holds them all. */
static void run_all(const struct game *g) {
    if (g->depth != 7) die("--all walks 7-card hands; %s values hands of fewer cards (its DAG is %s)", g->name, g->dag);
    const struct array *const *L = g->layer;
    const int *d = g->cards, nd = g->ndeck;
    /* A deck of every card from some card up to 51 (hold'em's, short deck's)
     * ends each row: count_row reads the rest of the row. */
    int native = little_endian(), suffix = nd > 0 && d[0] == 52 - nd && d[nd - 1] == 51;
    uint64_t *hist[2], *counts, total = 0;
    double t0, seconds;
    hist[0] = calloc((size_t)g->values + 1, sizeof *hist[0]);
    hist[1] = calloc((size_t)g->values + 1, sizeof *hist[1]);
    counts = calloc((size_t)g->ncat, sizeof *counts);
    if (!hist[0] || !hist[1] || !counts) die("out of memory");
    t0 = now();
    for (int i1 = 0; i1 < nd; i1++) {
        uint64_t n1 = get(L[0], (uint64_t)d[i1]);
        for (int i2 = i1 + 1; i2 < nd; i2++) {
            uint64_t n2 = get(L[1], n1 * 52 + (uint64_t)d[i2]);
            for (int i3 = i2 + 1; i3 < nd; i3++) {
                uint64_t n3 = get(L[2], n2 * 52 + (uint64_t)d[i3]);
                for (int i4 = i3 + 1; i4 < nd; i4++) {
                    uint64_t n4 = get(L[3], n3 * 52 + (uint64_t)d[i4]);
                    for (int i5 = i4 + 1; i5 < nd; i5++) {
                        uint64_t n5 = get(L[4], n4 * 52 + (uint64_t)d[i5]);
                        for (int i6 = i5 + 1; i6 + 1 < nd; i6++) {
                            uint64_t row = get(L[5], n5 * 52 + (uint64_t)d[i6]);
                            if (suffix) {
                                count_row(L[6], row, d[i6] + 1, native, hist);
                                continue;
                            }
                            for (int i7 = i6 + 1; i7 < nd; i7++) hist[0][get(L[6], row * 52 + (uint64_t)d[i7])]++;
                        }
                    }
                }
            }
        }
    }
    seconds = now() - t0;
    for (uint32_t v = 1, c = 0; v <= g->values; v++) {
        uint64_t h = hist[0][v] + hist[1][v];
        while (c + 1 < (uint32_t)g->ncat && v >= g->cat[c + 1].first) c++;
        counts[c] += h;
        total += h;
    }
    for (int c = g->ncat - 1; c >= 0; c--) printf("%-16s %llu\n", g->cat[c].name, (unsigned long long)counts[c]);
    printf("%-16s %llu\n", "total", (unsigned long long)total);
    printf("%-16s %.3f\n", "seconds", seconds);
    free(hist[0]);
    free(hist[1]);
    free(counts);
}

/* ---------------------------------------------------------------- main */

static int usage(const char *prog, FILE *to, int status) {
    fprintf(to,
            "usage: %s [--verify] [--game NAME] [--dag7] [TABLES_DIR] < hands.txt\n"
            "       %s [--verify] [--game NAME] --all | --check | --vectors FILE [TABLES_DIR]\n"
            "       %s [--verify] --strength [TABLES_DIR] < holes-and-boards.txt\n"
            "       %s --index ROUNDS < hands.txt   (ROUNDS such as 2,3: cards per round)\n"
            "NAME is holdem (the default) or another game of the set, such as short-deck\n",
            prog, prog, prog, prog);
    return status;
}

int main(int argc, char **argv) {
    static struct tables t; /* static: large, and reachable until exit */
    static struct game g;
    const char *dir = NULL, *vectors = NULL, *game = HOLDEM, *index = NULL;
    int all = 0, check = 0, via_dag7 = 0, check_sha = 0, strength = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--all")) all = 1;
        else if (!strcmp(argv[i], "--check")) check = 1;
        else if (!strcmp(argv[i], "--verify")) check_sha = 1;
        else if (!strcmp(argv[i], "--dag7")) via_dag7 = 1;
        else if (!strcmp(argv[i], "--vectors") && i + 1 < argc) vectors = argv[++i];
        else if (!strcmp(argv[i], "--game") && i + 1 < argc) game = argv[++i];
        else if (!strcmp(argv[i], "--index") && i + 1 < argc) index = argv[++i];
        else if (!strcmp(argv[i], "--strength")) strength = 1;
        else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) return usage(argv[0], stdout, 0);
        else if (argv[i][0] == '-' || dir) return usage(argv[0], stderr, 2);
        else dir = argv[i];
    }
    if (all + check + (vectors != NULL) + (index != NULL) + strength > 1) return usage(argv[0], stderr, 2);
    if (index) {
        g.name = HOLDEM;
        g.deck = (1ULL << 52) - 1;
        g.ndeck = 52;
        return run_index(&g, index);
    }
    if (!dir) dir = getenv("TWOPLUSTWO_TABLES");
    if (!dir || !*dir) dir = "tables";
    load(dir, &t, check_sha, game, &g);
    if (all) {
        run_all(&g);
        return 0;
    }
    if (check) {
        uint64_t bytes = 0;
        int unchecked = 0;
        for (int r = 0; r < NROLES; r++) bytes += t.a[r].length * (uint64_t)t.a[r].width;
        for (int i = 0; i < t.m.ngr; i++) {
            bytes += t.gf[i].a.length * (uint64_t)t.gf[i].a.width;
            unchecked |= t.m.gr[i].dag != g.gdag && t.m.gr[i].which >= t.m.g[t.m.gr[i].dag].depth - 1;
        }
        printf("%s: ok, %d files, %llu bytes of entries, all in range%s%s", dir, NROLES + t.m.ngr,
               (unsigned long long)bytes, unchecked ? " but other games' values (--game NAME checks them)" : "",
               check_sha ? ", sha256 verified" : "");
        if (!g.holdem) printf("; game %s: %d cards, values 1..%u in %d categories", g.name, g.ndeck, g.values, g.ncat);
        putchar('\n');
        return 0;
    }
    if (vectors) return run_vectors(&g, vectors);
    if (strength) return run_strength(&t, &g);
    return run_lines(&g, via_dag7);
}
