/* The module twoplustwo.kernels._core: its functions, its constants and its
 * init. What each does is in its unit (core.h lists them). */

#include "core.h"

static PyMethodDef core_functions[] = {
    {"evaluate", (PyCFunction)(void (*)(void))core_evaluate, METH_FASTCALL | METH_KEYWORDS,
     /* The text signature (up to "--") is what inspect.signature reads. */
     "evaluate(cards, *, game='holdem', tables=None)\n--\n\n"
     "Value of one hand of 5, 6 or 7 cards, in any order: 1..7462 in hold'em, higher stronger.\n\n"
     "cards: ints 0..51 (rank * 4 + suit) or card strings, or one string such as 'As Kd Qh Jc Ts'.\n"
     "game: 'holdem', 'short-deck' or 'short-deck-classic' (values 1..1404).\n"
     "tables: a Tables from load_tables(), or None for the default set.\n"
     "Raises ValueError naming the bad card for a duplicate, a card out of range or of another\n"
     "game's deck, a malformed string or a wrong card count.\n\n"
     ">>> evaluate('As Ks Qs Js Ts 2c 3d')\n"
     "7462"},
    {"set_default", core_set_default, METH_O, "set_default(walker): the default tables' walker, or None"},
    {"set_fallback", core_set_fallback, METH_O, "set_fallback(fn): the Python evaluate for everything else"},
    {"set_game", (PyCFunction)(void (*)(void))core_set_game, METH_FASTCALL,
     "set_game(name, walker): the default set's walker for evaluate(cards, game=name)"},
    {"omaha_low_rows", (PyCFunction)(void (*)(void))core_omaha_low_rows, METH_FASTCALL,
     "omaha_low_rows(holes, boards, out) -> int: Omaha low values of uint8 rows; the first bad row or -1"},
    {"classify_rows", (PyCFunction)(void (*)(void))core_classify_rows, METH_FASTCALL,
     "classify_rows(holes, boards, made, draws) -> int: made-hand codes and draw bits of uint8 rows; the first bad "
     "row or -1"},
    {"index_rows", (PyCFunction)(void (*)(void))core_index_rows, METH_FASTCALL,
     "index_rows(hands, counts, codes, offsets, slots, out) -> int: suit-isomorphic indices of uint8 rows; the first "
     "bad row or -1"},
    {"unindex_rows", (PyCFunction)(void (*)(void))core_unindex_rows, METH_FASTCALL,
     "unindex_rows(indices, counts, codes, offsets, out) -> int: the canonical hand of each index; the first bad "
     "index or -1"},
    {"nearest_rows", (PyCFunction)(void (*)(void))core_nearest_rows, METH_FASTCALL,
     "nearest_rows(points, centers, labels, dists) -> None: each uint16 point's nearest center under L1"},
    {"assign_rows", (PyCFunction)(void (*)(void))core_assign_rows, METH_FASTCALL,
     "assign_rows(points, centers, labels, dists, lower, drift, half, metric) -> None: nearest_rows, skipping "
     "rows whose bounds keep their label"},
    {"median_rows", (PyCFunction)(void (*)(void))core_median_rows, METH_FASTCALL,
     "median_rows(points, labels, weights, centers, totals) -> None: each cluster's weight and weighted median"},
    {"transport_rows", (PyCFunction)(void (*)(void))core_transport_rows, METH_FASTCALL,
     "transport_rows(points, centers, ground, labels, dists, lower, drift, half[, stop]) -> None: each uint16 "
     "histogram's nearest center under the earth mover's distance over the ground rows (stopping early once the "
     "byte stop is nonzero)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "_core", "The C backend of twoplustwo's hot paths.", -1, core_functions, NULL, NULL, NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
    fill_choose();
    fill_lows();
    fill_classify();
    fill_card_bits();
    fill_card_keys();
    if (choose_keyed_rows() < 0 || init_single() < 0 || PyType_Ready(&WalkerType) < 0)
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
    if (PyModule_AddIntConstant(m, "POT_UNITS", POT_UNITS) < 0 || PyModule_AddIntConstant(m, "SMALL_AFTER", SMALL_AFTER) < 0 ||
        PyModule_AddIntConstant(m, "KEYED_AFTER", KEYED_AFTER) < 0 ||
        PyModule_AddStringConstant(m, "VECTOR_BATCHES", keyed_loop_name) < 0 ||
        PyModule_AddObject(m, "BATCH_LOOPS", keyed_loops_here()) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
