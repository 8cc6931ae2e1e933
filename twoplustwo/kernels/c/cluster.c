/* The two steps of k-medians under the L1 distance, the twins of the numpy
 * functions of twoplustwo.kernels.clustering: nearest_rows gives each point
 * its nearest center, median_rows each cluster its weighted median. With
 * points that are cumulative histograms (or sorted samples), L1 is the
 * earth mover's distance in one dimension, and both steps are exact in
 * integers: no rounding, so any split of the rows over threads or workers
 * gives the same bytes. */

#include "core.h" /* Python.h first, before any standard header */

static const char nearest_error[] =
    "nearest_rows takes (N, d) uint16 points, (k, d) uint16 centers with 1 <= k <= 65536 and d <= 65536, "
    "a uint16 out of N labels and a uint32 out of N distances";
static const char median_error[] =
    "median_rows takes (N, d) uint16 points, N uint16 labels, N int64 weights, (k, d) uint16 centers "
    "and an int64 out of k totals";

/* Dimensions summed before the distance so far is held against the best:
 * a block long enough for the compiler to vectorise. */
#define BLOCK 16

static uint32_t l1_block(const uint16_t *a, const uint16_t *b, Py_ssize_t n) {
    uint32_t s = 0;
    for (Py_ssize_t j = 0; j < n; j++) {
        int x = (int)a[j] - (int)b[j];
        s += (uint32_t)(x < 0 ? -x : x);
    }
    return s;
}

/* The nearest center of a point, the lowest index among equals; its distance
 * in *best. The center `hint` (when below k) is measured first: mostly the
 * point's center of the last round, which most points keep, and then every
 * other center stops after a block or two. */
static uint16_t nearest(const uint16_t *p, const uint16_t *centers, Py_ssize_t k, Py_ssize_t d, Py_ssize_t hint,
                        uint32_t *best) {
    Py_ssize_t arg = hint < k ? hint : 0;
    uint32_t least = l1_block(p, centers + arg * d, d);
    for (Py_ssize_t c = 0; c < k; c++) {
        const uint16_t *q = centers + c * d;
        uint32_t s = 0;
        Py_ssize_t j = 0;
        /* A center already farther than the best one cannot win: stop summing. */
        for (; j + BLOCK <= d && s <= least; j += BLOCK)
            s += l1_block(p + j, q + j, BLOCK);
        if (s > least)
            continue;
        s += l1_block(p + j, q + j, d - j);
        if (s < least || (s == least && c < arg)) {
            least = s;
            arg = c;
        }
    }
    *best = least;
    return (uint16_t)arg;
}

/* nearest_rows(points, centers, labels, dists) -> None: each (N, d) uint16
 * point's nearest (k, d) center under L1, the lowest index among equals,
 * into labels (uint16), and its distance into dists (uint32). A label
 * below k on the way in is a hint of the nearest, which makes the search
 * faster and the answer no different. */
PyObject *core_nearest_rows(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    Buffers bufs;
    Py_buffer *pb, *cb, *lb, *db;
    if (parse_args(args, nargs, "nearest_rows(points, centers, labels, dists)", &bufs, "rrww", &pb, &cb, &lb, &db) < 0)
        return NULL;
    if (pb->ndim != 2 || cb->ndim != 2 || pb->itemsize != 2 || cb->itemsize != 2 || pb->shape[1] != cb->shape[1] ||
        cb->shape[0] < 1 || cb->shape[0] > 65536 || pb->shape[1] > 65536 || lb->itemsize != 2 ||
        lb->len != pb->shape[0] * 2 || db->itemsize != 4 || db->len != pb->shape[0] * 4)
        return release_args(&bufs, nearest_error, NULL);
    const uint16_t *points = pb->buf, *centers = cb->buf;
    uint16_t *labels = lb->buf;
    uint32_t *dists = db->buf;
    Py_ssize_t n = pb->shape[0], d = pb->shape[1], k = cb->shape[0];
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++)
        labels[i] = nearest(points + i * d, centers, k, d, labels[i], &dists[i]);
    Py_END_ALLOW_THREADS
    return release_args(&bufs, NULL, Py_NewRef(Py_None));
}

/* The weighted median of each (cluster, dimension) in two passes over the
 * points, so that memory stays small whatever the values: the first counts
 * weight by a value's high byte and finds the byte where half the weight is
 * reached, the second counts by the low byte among the values with that
 * high byte. Dimensions go `group` at a time. Returns -1 out of memory. */
static int medians(const uint16_t *points, const uint16_t *labels, const int64_t *weights, Py_ssize_t n,
                   Py_ssize_t d, Py_ssize_t k, const int64_t *totals, uint16_t *centers) {
    Py_ssize_t group = ((Py_ssize_t)1 << 22) / (k * 256);
    if (group < 1)
        group = 1;
    if (group > d)
        group = d;
    int64_t *count = malloc((size_t)(k * group * 256) * sizeof(int64_t));
    int64_t *below = malloc((size_t)(k * group) * sizeof(int64_t));
    unsigned char *high = malloc((size_t)(k * group));
    if (count == NULL || below == NULL || high == NULL) {
        free(count);
        free(below);
        free(high);
        return -1;
    }
    for (Py_ssize_t j0 = 0; j0 < d; j0 += group) {
        Py_ssize_t g = d - j0 < group ? d - j0 : group;
        for (int pass = 0; pass < 2; pass++) {
            memset(count, 0, (size_t)(k * g * 256) * sizeof(int64_t));
            for (Py_ssize_t i = 0; i < n; i++) {
                const uint16_t *p = points + i * d + j0;
                Py_ssize_t c = labels[i];
                int64_t *row = count + c * g * 256;
                for (Py_ssize_t j = 0; j < g; j++) {
                    unsigned v = p[j];
                    if (pass == 0)
                        row[j * 256 + (v >> 8)] += weights[i];
                    else if ((v >> 8) == high[c * g + j])
                        row[j * 256 + (v & 255)] += weights[i];
                }
            }
            for (Py_ssize_t c = 0; c < k; c++) {
                if (totals[c] == 0)
                    continue; /* an empty cluster keeps its center: the caller moves it */
                for (Py_ssize_t j = 0; j < g; j++) {
                    /* The smallest value at which the weight so far reaches half the total. */
                    const int64_t *h = count + (c * g + j) * 256;
                    int64_t sum = pass == 0 ? 0 : below[c * g + j];
                    unsigned b = 0;
                    while (2 * (sum + h[b]) < totals[c])
                        sum += h[b++];
                    if (pass == 0) {
                        high[c * g + j] = (unsigned char)b;
                        below[c * g + j] = sum;
                    } else {
                        centers[c * d + j0 + j] = (uint16_t)(high[c * g + j] << 8 | b);
                    }
                }
            }
        }
    }
    free(count);
    free(below);
    free(high);
    return 0;
}

/* median_rows(points, labels, weights, centers, totals) -> None: each
 * cluster's total weight into totals (int64, k of them) and, for each
 * cluster of positive weight, the weighted median of its points in each
 * dimension (the smallest value at which the weight so far reaches half
 * its total) into its row of centers; the rows of empty clusters stay as
 * they were. Those medians minimise the weighted L1 distance to the
 * cluster's points. Labels must be below k and weights at least 0, with
 * a sum below 2**62. */
PyObject *core_median_rows(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    Buffers bufs;
    Py_buffer *pb, *lb, *wb, *cb, *tb;
    if (parse_args(args, nargs, "median_rows(points, labels, weights, centers, totals)", &bufs, "rrrww", &pb, &lb,
                   &wb, &cb, &tb) < 0)
        return NULL;
    if (pb->ndim != 2 || cb->ndim != 2 || pb->itemsize != 2 || cb->itemsize != 2 || pb->shape[1] != cb->shape[1] ||
        cb->shape[0] < 1 || cb->shape[0] > 65536 || lb->itemsize != 2 || lb->len != pb->shape[0] * 2 ||
        wb->itemsize != 8 || wb->len != pb->shape[0] * 8 || tb->itemsize != 8 || tb->len != cb->shape[0] * 8)
        return release_args(&bufs, median_error, NULL);
    const uint16_t *points = pb->buf, *labels = lb->buf;
    const int64_t *weights = wb->buf;
    uint16_t *centers = cb->buf;
    int64_t *totals = tb->buf;
    Py_ssize_t n = pb->shape[0], d = pb->shape[1], k = cb->shape[0];
    const char *error = NULL;
    int lost = 0;
    Py_BEGIN_ALLOW_THREADS
    memset(totals, 0, (size_t)k * sizeof(int64_t));
    int64_t all = 0;
    for (Py_ssize_t i = 0; i < n && error == NULL; i++) {
        if (labels[i] >= k)
            error = "median_rows: a label is not below k, the number of centers";
        else if (weights[i] < 0 || weights[i] >= ((int64_t)1 << 62) - all)
            error = "median_rows: weights must be at least 0, with a sum below 2**62";
        else {
            totals[labels[i]] += weights[i];
            all += weights[i];
        }
    }
    if (error == NULL && d > 0)
        lost = medians(points, labels, weights, n, d, k, totals, centers) < 0;
    Py_END_ALLOW_THREADS
    if (lost)
        return release_args(&bufs, NULL, PyErr_NoMemory());
    return release_args(&bufs, error, error == NULL ? Py_NewRef(Py_None) : NULL);
}
