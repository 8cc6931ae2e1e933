/* One hand from a Python call to its value: the card parser, the fast path
 * (list, tuple or text of 5-7 cards), Walker.evaluate, and the registry of
 * the default table set's walkers behind the module's frameless evaluate.
 * Anything this path cannot answer goes back to Python as None, or to the
 * Python fallback, which parses and explains. */

#include "core.h"

/* Deriving the small tables costs a few milliseconds (tens of thousands of
 * walks, most of them page faults in a fresh process), which a process that
 * evaluates a handful of hands should not pay: the first SMALL_AFTER single
 * hands walk the DAG (about a microsecond each), and the tables come after
 * them. The keyed tables cost a few milliseconds more and save some 60 ns a
 * hand over the small tables: they come once KEYED_AFTER hands (about what
 * they cost) have read the small tables. */

/* Cards from the common ASCII text forms ("As Kd 7h", "AsKd7h", "as,kd, 10h"):
 * the number of cards, or -1 for anything else (other characters, a comma
 * with no card before or after it, a duplicate, more than 7 cards), which
 * the Python parser then reads or explains. */
int parse_text(const char *s, Py_ssize_t len, unsigned char *cards) {
    static const char ranks[] = "23456789TJQKA";
    static const char suits[] = "cdhs";
    int n = 0, comma = 0;
    uint64_t seen = 0;
    Py_ssize_t i = 0;
    while (i < len) {
        char ch = s[i];
        if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v') {
            i++;
            continue;
        }
        if (ch == ',') {
            if (n == 0 || comma)
                return -1; /* an empty token */
            comma = 1;
            i++;
            continue;
        }
        int rank;
        if (ch == '1' && i + 1 < len && s[i + 1] == '0') {
            rank = 8;
            i += 2;
        } else {
            const char *r = ch ? strchr(ranks, ch >= 'a' && ch <= 'z' ? ch - 'a' + 'A' : ch) : NULL;
            if (r == NULL)
                return -1;
            rank = (int)(r - ranks);
            i++;
        }
        if (i >= len)
            return -1;
        char sc = s[i] >= 'A' && s[i] <= 'Z' ? (char)(s[i] - 'A' + 'a') : s[i];
        const char *su = sc ? strchr(suits, sc) : NULL;
        if (su == NULL || n == 7)
            return -1;
        i++;
        int card = rank * 4 + (int)(su - suits);
        if (seen >> card & 1)
            return -1;
        seen |= (uint64_t)1 << card;
        cards[n++] = (unsigned char)card;
        comma = 0;
    }
    return comma ? -1 : n;
}

/* A card's bit among its suit's ranks, 16 bits a suit: the cards' rank bits
 * or'ed are what keyed_sum_value reads for a flush, and a card held twice
 * finds its bit already set. */
static inline uint64_t rank_bit(int card) {
    return (uint64_t)1 << (16 * (card & 3) + (card >> 2));
}

/* The value of n distinct cards 0..51 for the single-hand path, as a new
 * int, given their card_key sum and rank bits: the keyed tables, or the
 * small tables, where they stand for the DAG (after the hands SMALL_AFTER
 * and KEYED_AFTER say), else the DAG; None for a card outside the walker's
 * deck. */
static inline PyObject *single_value(Walker *self, const unsigned char *cards, int n, uint64_t key, uint64_t bits) {
    if (!(self->sizes >> n & 1))
        Py_RETURN_NONE;
    if (!self->small_allowed) { /* a game whose values no small table stands for: its DAG, walked */
        for (int i = 0; i < n; i++)
            if (!(self->deck >> cards[i] & 1))
                Py_RETURN_NONE;
        const struct dag *d = dag_of(self, n);
        return PyLong_FromUnsignedLong(finish(d, walk(d, cards, n)));
    }
    if (self->keyed_single && self->deck == ALL_CARDS) /* hold'em, after the first hands */
        return PyLong_FromLong(keyed_sum_value(&self->keyed[n - 5], self->flush, key, bits));
    if (self->deck != ALL_CARDS) {
        for (int i = 0; i < n; i++)
            if (!(self->deck >> cards[i] & 1))
                Py_RETURN_NONE;
    }
    if (!self->keyed_built) {
        if (self->walked < SMALL_AFTER + KEYED_AFTER)
            self->walked++;
        if (self->flush == NULL) {
            if (self->walked <= SMALL_AFTER)
                return PyLong_FromUnsignedLong(dag_value(self, cards, n));
            if (build_small_tables(self) < 0)
                return PyErr_NoMemory();
        }
        if (self->walked < SMALL_AFTER + KEYED_AFTER)
            return PyLong_FromUnsignedLong(self->small_ok ? small_value(self, cards, n) : dag_value(self, cards, n));
        if (ensure_keyed(self) < 0)
            return NULL;
    }
    if (self->keyed_single)
        return PyLong_FromLong(keyed_sum_value(&self->keyed[n - 5], self->flush, key, bits));
    return PyLong_FromUnsignedLong(self->small_ok ? small_value(self, cards, n) : dag_value(self, cards, n));
}

/* A card 0..51 from an exact int, or -1 for anything else (a bool or
 * another int subclass, an int out of range): read in place where the
 * version's API allows, without a call per card. */
static inline int card_of(PyObject *x) {
    if (!PyLong_CheckExact(x))
        return -1;
#if PY_VERSION_HEX >= 0x030C0000
    if (!PyUnstable_Long_IsCompact((PyLongObject *)x))
        return -1;
    Py_ssize_t c = PyUnstable_Long_CompactValue((PyLongObject *)x);
#elif PY_VERSION_HEX >= 0x030B0000
    /* 3.11: the sign in ob_size, and digits of 30 bits; 0..51 is one digit (or none, for 0). */
    Py_ssize_t size = Py_SIZE(x);
    if (size != 0 && size != 1)
        return -1;
    Py_ssize_t c = size == 0 ? 0 : (Py_ssize_t)((PyLongObject *)x)->ob_digit[0];
#else
    int overflow;
    long c = PyLong_AsLongAndOverflow(x, &overflow);
    if (overflow)
        return -1;
#endif
    return c >= 0 && c <= 51 ? (int)c : -1;
}

/* The value of a list or tuple of 5-7 distinct ints 0..51, or of text of
 * 5-7 cards, as a new int; None for anything else. Each card's key and rank
 * bit are added up as it is read (the bits find a duplicate). */
static PyObject *fast_value(Walker *self, PyObject *seq) {
    PyObject **items;
    Py_ssize_t n;
    unsigned char cards[MAX_DEPTH];
    uint64_t key = 0, bits = 0;
    if (PyTuple_CheckExact(seq)) {
        items = PySequence_Fast_ITEMS(seq);
        n = PyTuple_GET_SIZE(seq);
    } else if (PyList_CheckExact(seq)) {
        items = PySequence_Fast_ITEMS(seq);
        n = PyList_GET_SIZE(seq);
    } else if (PyUnicode_CheckExact(seq)) {
        int k = PyUnicode_IS_ASCII(seq)
                    ? parse_text((const char *)PyUnicode_1BYTE_DATA(seq), PyUnicode_GET_LENGTH(seq), cards)
                    : -1;
        if (k < 4)
            Py_RETURN_NONE;
        for (int i = 0; i < k; i++) { /* distinct: parse_text saw to it */
            key += card_key[cards[i]];
            bits |= rank_bit(cards[i]);
        }
        return single_value(self, cards, k, key, bits);
    } else {
        Py_RETURN_NONE;
    }
    if (n < 4 || n > 7)
        Py_RETURN_NONE;
    for (Py_ssize_t i = 0; i < n; i++) {
        int c = card_of(items[i]); /* bool and int subclasses go the slow way */
        if (c < 0)
            Py_RETURN_NONE;
        uint64_t bit = rank_bit(c);
        if (bits & bit)
            Py_RETURN_NONE;
        bits |= bit;
        key += card_key[c];
        cards[i] = (unsigned char)c;
    }
    return single_value(self, cards, (int)n, key, bits);
}

/* evaluate(cards) -> int | None: the value of a list, tuple or text of 5-7
 * distinct cards of the deck, else None (Python then parses and explains). */
PyObject *Walker_evaluate(Walker *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 1) {
        PyErr_SetString(PyExc_TypeError, "evaluate() takes one argument");
        return NULL;
    }
    return fast_value(self, args[0]);
}

/* The default table set's walker, its other games' walkers by name, and
 * the Python evaluate that does the rest (parsing, errors, other table
 * sets), set by twoplustwo.tables.load and twoplustwo.hands.single. */
static PyObject *default_walker = NULL;
static PyObject *game_walkers = NULL; /* dict: game name -> Walker of the default set */
static PyObject *last_game = NULL, *last_walker = NULL; /* the last game= name evaluate met, and its walker */
static PyObject *fallback = NULL;

PyObject *core_set_default(PyObject *module, PyObject *walker) {
    (void)module;
    if (walker != Py_None && !PyObject_TypeCheck(walker, &WalkerType)) {
        PyErr_SetString(PyExc_TypeError, "set_default takes a Walker or None");
        return NULL;
    }
    /* Another default set: the other games' walkers were the old set's. */
    PyObject *fresh = PyDict_New();
    if (fresh == NULL)
        return NULL;
    Py_XSETREF(game_walkers, fresh);
    Py_CLEAR(last_game);
    Py_CLEAR(last_walker);
    Py_XSETREF(default_walker, walker == Py_None ? NULL : Py_NewRef(walker));
    Py_RETURN_NONE;
}

/* set_game(name, walker): the default set's walker for the game `name`, so
 * that evaluate(cards, game=name) runs without a Python frame too. */
PyObject *core_set_game(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    if (nargs != 2 || !PyUnicode_CheckExact(args[0]) || !PyObject_TypeCheck(args[1], &WalkerType)) {
        PyErr_SetString(PyExc_TypeError, "set_game takes a game name and a Walker");
        return NULL;
    }
    if (game_walkers == NULL && (game_walkers = PyDict_New()) == NULL)
        return NULL;
    if (PyDict_SetItem(game_walkers, args[0], args[1]) < 0)
        return NULL;
    Py_CLEAR(last_game); /* it may name this game's earlier walker */
    Py_CLEAR(last_walker);
    Py_RETURN_NONE;
}

PyObject *core_set_fallback(PyObject *module, PyObject *fn) {
    (void)module;
    if (!PyCallable_Check(fn)) {
        PyErr_SetString(PyExc_TypeError, "set_fallback takes a callable");
        return NULL;
    }
    Py_XSETREF(fallback, Py_NewRef(fn));
    Py_RETURN_NONE;
}

/* The keyword names evaluate takes, interned: a call site passes the
 * interned name, so one pointer compare finds it (see init_single). */
static PyObject *kw_game = NULL, *kw_tables = NULL;

int init_single(void) {
    kw_game = PyUnicode_InternFromString("game");
    kw_tables = PyUnicode_InternFromString("tables");
    return kw_game == NULL || kw_tables == NULL ? -1 : 0;
}

/* evaluate(cards, *, game="holdem", tables=None): the default tables'
 * single-hand path without a Python frame, for hold'em and for each game
 * whose walker set_game gave; everything else goes to the fallback. */
PyObject *core_evaluate(PyObject *module, PyObject *const *args, Py_ssize_t nargsf, PyObject *kwnames) {
    (void)module;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    PyObject *walker = nargs == 1 ? default_walker : NULL;
    Py_ssize_t kw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t i = 0; i < kw && walker != NULL; i++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, i), *value = args[nargs + i];
        int tables = name == kw_tables, game = name == kw_game;
        if (!tables && !game) { /* a name not interned, perhaps from **kwargs */
            tables = PyUnicode_CompareWithASCIIString(name, "tables") == 0;
            game = PyUnicode_CompareWithASCIIString(name, "game") == 0;
        }
        if (tables) {
            if (value != Py_None)
                walker = NULL;
        } else if (game && PyUnicode_CheckExact(value)) {
            /* A game is named by the same interned literal call after call:
             * one pointer compare, before any string compare. */
            if (value == last_game && last_game != NULL)
                walker = last_walker;
            else if (PyUnicode_CompareWithASCIIString(value, "holdem") != 0)
                walker = game_walkers == NULL ? NULL : PyDict_GetItem(game_walkers, value); /* borrowed */
            if (walker != NULL && value != last_game) {
                Py_XSETREF(last_game, Py_NewRef(value));
                Py_XSETREF(last_walker, Py_NewRef(walker));
            }
        } else {
            walker = NULL;
        }
    }
    if (walker != NULL) {
        PyObject *value = fast_value((Walker *)walker, args[0]);
        if (value != Py_None)
            return value;
        Py_DECREF(value);
    }
    if (fallback == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "twoplustwo.kernels._core.evaluate has no fallback set");
        return NULL;
    }
    return PyObject_Vectorcall(fallback, args, nargsf, kwnames);
}
