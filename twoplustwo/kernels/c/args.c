/* The one argument parser of the methods that take arrays: their scalars
 * and buffers in one call, the buffers given back in one call, so that no
 * method holds a buffer on an error path it forgot. */

#include "core.h" /* Python.h first, before any standard header */

#include <stdarg.h>

/* parse_args(args, nargs, usage, b, format, ...): the positional arguments
 * by `format`, one letter each, into the pointers that follow:
 *   p  an object's truth (int *)
 *   l  an int (long *)
 *   L  an int (long long *)
 *   m  an int's low 64 bits (uint64_t *), a mask of cards
 *   r  a C-contiguous buffer (Py_buffer **, into b)
 *   w  a writable C-contiguous buffer (Py_buffer **, into b)
 *   |  the arguments after it come all together or not at all; when they
 *      do not, their pointers are left as they were
 * A wrong count raises TypeError(usage). The scalars are converted before
 * any buffer is taken, so a bad scalar raises the error it always did.
 * Returns 0, or -1 with the exception set and no buffer held. */
int parse_args(PyObject *const *args, Py_ssize_t nargs, const char *usage, Buffers *b, const char *format, ...) {
    Py_ssize_t least = (Py_ssize_t)strcspn(format, "|");
    Py_ssize_t most = (Py_ssize_t)strlen(format) - (format[least] == '|');
    b->held = 0;
    if (nargs != least && nargs != most) {
        PyErr_SetString(PyExc_TypeError, usage);
        return -1;
    }
    va_list ap;
    for (int pass = 0; pass < 2; pass++) {
        va_start(ap, format);
        Py_ssize_t i = 0;
        for (const char *f = format; *f; f++) {
            if (*f == '|')
                continue;
            PyObject *arg = i < nargs ? args[i] : NULL; /* NULL: an optional argument not given */
            i++;
            int act = arg != NULL && pass == (*f == 'r' || *f == 'w');
            switch (*f) {
            case 'p': {
                int *out = va_arg(ap, int *);
                if (act)
                    *out = PyObject_IsTrue(arg);
                break;
            }
            case 'l': {
                long *out = va_arg(ap, long *);
                if (act)
                    *out = PyLong_AsLong(arg);
                break;
            }
            case 'L': {
                long long *out = va_arg(ap, long long *);
                if (act)
                    *out = PyLong_AsLongLong(arg);
                break;
            }
            case 'm': {
                uint64_t *out = va_arg(ap, uint64_t *);
                if (act)
                    *out = PyLong_AsUnsignedLongLongMask(arg);
                break;
            }
            default: { /* 'r' or 'w' */
                Py_buffer **out = va_arg(ap, Py_buffer **);
                if (!act)
                    break;
                /* The format too: a method may need to tell int64's
                 * letters ("l" or "q") from a float's. */
                int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (*f == 'w' ? PyBUF_WRITABLE : 0);
                if (b->held == MAX_BUFFERS)
                    PyErr_SetString(PyExc_SystemError, "parse_args: more buffers than MAX_BUFFERS");
                else if (PyObject_GetBuffer(arg, &b->view[b->held], flags) == 0)
                    *out = &b->view[b->held++];
                break;
            }
            }
            if (act && PyErr_Occurred()) {
                va_end(ap);
                release_args(b, NULL, NULL);
                return -1;
            }
        }
        va_end(ap);
    }
    return 0;
}

/* Give back every buffer parse_args took; then NULL with a ValueError
 * saying `error` when there is one, else `result` (a new reference, or
 * NULL with its exception set). */
PyObject *release_args(Buffers *b, const char *error, PyObject *result) {
    for (int i = 0; i < b->held; i++)
        PyBuffer_Release(&b->view[i]);
    b->held = 0;
    if (error != NULL) {
        Py_XDECREF(result);
        PyErr_SetString(PyExc_ValueError, error);
        return NULL;
    }
    return result;
}
