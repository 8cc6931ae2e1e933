/* twoplustwo._core: the hot loops of the runtime in C99 against the CPython API.
 *
 * A Walker holds pointers into one table set's mapped arrays (it keeps the
 * Python objects that own them alive) and walks hands down a DAG, one lookup
 * per card, exactly as tables/README.md section 5 says. Every function here
 * either gives the same answer as the numpy path or says "not mine": the
 * single-hand call returns None for anything but distinct ints 0..51, and
 * the batch walk returns the first bad row, so that Python raises the very
 * same errors on both backends.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define MAX_DEPTH 7
/* Rows walked together by walk_rows: enough independent lookups in flight
 * to hide memory latency, few enough for the node array to stay in L1. */
#define BLOCK 1024

struct dag {
    const unsigned char *layer[MAX_DEPTH]; /* layer k+1 of the DAG */
    int width[MAX_DEPTH];                  /* bytes per entry: 1, 2 or 4 */
    int depth;                             /* cards per hand: 5, 6 or 7 */
};

typedef struct {
    PyObject_HEAD
    struct dag dag[3]; /* dag5, dag6, dag7 */
    const unsigned char *value[2]; /* dag7/value5, dag7/value6 */
    int value_width[2];
    PyObject *owners; /* the buffers' owners, kept alive */
    Py_buffer *views;
    Py_ssize_t n_views;
} Walker;

static inline uint32_t get(const unsigned char *p, int width, size_t i) {
    /* The format is little-endian whatever the host (tables/README.md, section 3). */
    switch (width) {
    case 1:
        return p[i];
    case 2:
        p += 2 * i;
        return (uint32_t)p[0] | (uint32_t)p[1] << 8;
    default:
        p += 4 * i;
        return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    }
}

static inline uint32_t walk(const struct dag *d, const unsigned char *cards, int n) {
    uint32_t node = 0;
    for (int k = 0; k < n; k++)
        node = get(d->layer[k], d->width[k], (size_t)node * 52 + cards[k]);
    return node;
}

static void Walker_dealloc(Walker *self) {
    for (Py_ssize_t i = 0; i < self->n_views; i++)
        PyBuffer_Release(&self->views[i]);
    PyMem_Free(self->views);
    Py_XDECREF(self->owners);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Take a read-only, C-contiguous view of buffer `obj` of `width`-byte items. */
static const unsigned char *take(Walker *self, PyObject *obj, int *width) {
    Py_buffer *view = &self->views[self->n_views];
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return NULL;
    self->n_views++;
    if (view->itemsize != 1 && view->itemsize != 2 && view->itemsize != 4) {
        PyErr_Format(PyExc_ValueError, "table arrays hold 1, 2 or 4 byte entries, got %zd", view->itemsize);
        return NULL;
    }
    *width = (int)view->itemsize;
    return (const unsigned char *)view->buf;
}

/* Walker(dag5_layers, dag6_layers, dag7_layers, value5, value6): sequences of
 * little-endian arrays exposing the buffer protocol. */
static PyObject *Walker_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    PyObject *dags[3], *v5, *v6;
    static char *kwlist[] = {"dag5", "dag6", "dag7", "value5", "value6", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOO:Walker", kwlist, &dags[0], &dags[1], &dags[2], &v5, &v6))
        return NULL;
    Walker *self = (Walker *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    self->views = PyMem_Calloc(5 + 6 + 7 + 2, sizeof(Py_buffer));
    self->owners = PyTuple_Pack(5, dags[0], dags[1], dags[2], v5, v6);
    if (self->views == NULL || self->owners == NULL) {
        Py_DECREF(self);
        return PyErr_NoMemory();
    }
    for (int d = 0; d < 3; d++) {
        PyObject *seq = PySequence_Fast(dags[d], "each DAG is a sequence of layer arrays");
        if (seq == NULL) {
            Py_DECREF(self);
            return NULL;
        }
        Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
        if (n != 5 + d) {
            Py_DECREF(seq);
            Py_DECREF(self);
            return PyErr_Format(PyExc_ValueError, "dag%d needs %d layers, got %zd", 5 + d, 5 + d, n);
        }
        self->dag[d].depth = (int)n;
        for (Py_ssize_t k = 0; k < n; k++) {
            self->dag[d].layer[k] = take(self, PySequence_Fast_GET_ITEM(seq, k), &self->dag[d].width[k]);
            if (self->dag[d].layer[k] == NULL) {
                Py_DECREF(seq);
                Py_DECREF(self);
                return NULL;
            }
        }
        Py_DECREF(seq);
    }
    self->value[0] = take(self, v5, &self->value_width[0]);
    if (self->value[0] == NULL || (self->value[1] = take(self, v6, &self->value_width[1])) == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

/* evaluate(cards) -> int | None: the value of a list or tuple of 5-7
 * distinct ints 0..51, else None (Python then parses and explains). */
static PyObject *Walker_evaluate(Walker *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 1) {
        PyErr_SetString(PyExc_TypeError, "evaluate() takes one argument");
        return NULL;
    }
    PyObject *seq = args[0];
    PyObject **items;
    Py_ssize_t n;
    if (PyList_CheckExact(seq)) {
        items = PySequence_Fast_ITEMS(seq);
        n = PyList_GET_SIZE(seq);
    } else if (PyTuple_CheckExact(seq)) {
        items = PySequence_Fast_ITEMS(seq);
        n = PyTuple_GET_SIZE(seq);
    } else {
        Py_RETURN_NONE;
    }
    if (n < 5 || n > 7)
        Py_RETURN_NONE;
    unsigned char cards[MAX_DEPTH];
    uint64_t seen = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = items[i];
        if (!PyLong_CheckExact(x)) /* bool and int subclasses go the slow way */
            Py_RETURN_NONE;
        int overflow;
        long c = PyLong_AsLongAndOverflow(x, &overflow);
        if (overflow || c < 0 || c > 51)
            Py_RETURN_NONE;
        uint64_t bit = (uint64_t)1 << c;
        if (seen & bit)
            Py_RETURN_NONE;
        seen |= bit;
        cards[i] = (unsigned char)c;
    }
    const struct dag *d = &self->dag[2];
    uint32_t node = walk(d, cards, (int)n);
    if (n < 7)
        node = get(self->value[n - 5], self->value_width[n - 5], node);
    return PyLong_FromUnsignedLong(node);
}

/* One layer for m rows: node[i] = layer[node[i] * 52 + cards[i * stride]].
 * A prefetch PREFETCH rows ahead starts the next misses early; one loop per
 * entry width keeps the loop body small. */
#define PREFETCH 32
#define STEP(TYPE, LOAD)                                                                  \
    for (int i = 0; i < m; i++) {                                                         \
        if (i + PREFETCH < m)                                                             \
            PREFETCH_AT(layer + ((size_t)node[i + PREFETCH] * 52 + cards[(i + PREFETCH) * stride]) * sizeof(TYPE)); \
        const unsigned char *p = layer + ((size_t)node[i] * 52 + cards[i * stride]) * sizeof(TYPE); \
        node[i] = LOAD;                                                                   \
    }
#if defined(__GNUC__)
#define PREFETCH_AT(p) __builtin_prefetch(p)
#else
#define PREFETCH_AT(p) ((void)0)
#endif

static void step(const unsigned char *layer, int width, uint32_t *node, const unsigned char *cards, int stride, int m) {
    switch (width) {
    case 1:
        STEP(uint8_t, p[0])
        break;
    case 2:
        STEP(uint16_t, (uint32_t)p[0] | (uint32_t)p[1] << 8)
        break;
    default:
        STEP(uint32_t, (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24)
        break;
    }
}

/* walk_rows(hands, out, check) -> int: values of the rows of a C-contiguous
 * (N, k) uint8 array into a uint16 array of N, through the k-card DAG. A row
 * holding a card over 51, or with check a duplicate, stops the walk and its
 * index is returned; else -1. The GIL is released while walking. */
static PyObject *Walker_walk_rows(Walker *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "walk_rows(hands, out, check)");
        return NULL;
    }
    int check = PyObject_IsTrue(args[2]);
    if (check < 0)
        return NULL;
    Py_buffer in, out;
    if (PyObject_GetBuffer(args[0], &in, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_ND) < 0)
        return NULL;
    if (PyObject_GetBuffer(args[1], &out, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_ND) < 0) {
        PyBuffer_Release(&in);
        return NULL;
    }
    Py_ssize_t bad = -1;
    const char *error = NULL;
    if (in.ndim != 2 || in.itemsize != 1 || in.shape[1] < 5 || in.shape[1] > 7)
        error = "hands must be a C-contiguous (N, 5..7) uint8 array";
    else if (out.ndim != 1 || out.itemsize != 2 || out.shape[0] != in.shape[0])
        error = "out must be a C-contiguous uint16 array of one entry per hand";
    if (error != NULL) {
        PyBuffer_Release(&in);
        PyBuffer_Release(&out);
        PyErr_SetString(PyExc_ValueError, error);
        return NULL;
    }
    Py_ssize_t rows = in.shape[0];
    int k = (int)in.shape[1];
    const struct dag *d = &self->dag[k - 5];
    const unsigned char *h = (const unsigned char *)in.buf;
    uint16_t *values = (uint16_t *)out.buf;
    Py_BEGIN_ALLOW_THREADS
    /* Rows go in blocks, one layer at a time across the block: the lookups
     * of different rows are independent, so their cache misses overlap
     * instead of queueing behind each other as in a row-by-row walk. */
    uint32_t node[BLOCK];
    for (Py_ssize_t r0 = 0; r0 < rows && bad < 0; r0 += BLOCK) {
        int m = rows - r0 < BLOCK ? (int)(rows - r0) : BLOCK;
        const unsigned char *block = h + r0 * k;
        /* Cards over 51 are always caught, so no walk can leave the arrays;
         * duplicates only with check (unchecked they give some value, as on
         * the numpy path). */
        for (int i = 0; i < m; i++) {
            const unsigned char *c = block + i * k;
            uint64_t seen = 0;
            int ok = 1;
            for (int j = 0; j < k; j++) {
                uint64_t bit = (uint64_t)1 << (c[j] & 63);
                ok &= c[j] <= 51 && !(check && (seen & bit));
                seen |= bit;
            }
            if (!ok) {
                bad = r0 + i;
                break;
            }
            node[i] = 0;
        }
        if (bad >= 0)
            break;
        for (int j = 0; j < k; j++)
            step(d->layer[j], d->width[j], node, block + j, k, m);
        for (int i = 0; i < m; i++)
            values[r0 + i] = (uint16_t)node[i];
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&in);
    PyBuffer_Release(&out);
    return PyLong_FromSsize_t(bad);
}

static PyMethodDef Walker_methods[] = {
    {"evaluate", (PyCFunction)(void (*)(void))Walker_evaluate, METH_FASTCALL,
     "evaluate(cards) -> int | None: value of 5-7 distinct ints 0..51 in a list or tuple, else None"},
    {"walk_rows", (PyCFunction)(void (*)(void))Walker_walk_rows, METH_FASTCALL,
     "walk_rows(hands, out, check) -> int: walk uint8 rows into out; first bad row or -1"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject WalkerType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "twoplustwo._core.Walker",
    .tp_doc = "Walks hands down one table set's DAGs (C backend).",
    .tp_basicsize = sizeof(Walker),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = Walker_new,
    .tp_dealloc = (destructor)Walker_dealloc,
    .tp_methods = Walker_methods,
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "_core", "The C backend of twoplustwo's hot paths.", -1, NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&WalkerType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&WalkerType);
    if (PyModule_AddObject(m, "Walker", (PyObject *)&WalkerType) < 0) {
        Py_DECREF(&WalkerType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
