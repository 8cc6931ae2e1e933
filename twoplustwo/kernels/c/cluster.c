/* The steps of k-means on uint16 rows, the twins of the numpy functions of
 * twoplustwo.kernels.numpy.cluster: nearest_rows gives each point its nearest
 * center under L1 or squared L2, median_rows each cluster its weighted
 * median (the center of least L1 sum; the means of L2 are numpy's). With
 * points that are cumulative histograms (or sorted samples), L1 is the
 * earth mover's distance in one dimension. The answers are exact
 * integers, so any split of the rows over threads or workers gives the same
 * bytes; assign_rows's float bounds only decide which rows it may skip. */

#include "core.h" /* Python.h first, before any standard header */

#include <math.h>

static const char nearest_error[] =
    "nearest_rows takes (N, d) uint16 points, (k, d) uint16 centers with 1 <= k <= 65536 and d <= 65536, "
    "a uint16 out of N labels, a uint64 out of N distances and the metric, 1 (L1) or 2 (squared L2)";
static const char assign_error[] =
    "assign_rows takes (N, d) uint16 points, (k, d) uint16 centers with 1 <= k <= 65536 and d <= 65536, "
    "uint16 labels, uint64 distances and float64 lower bounds of N, float64 drifts and halves of k, and the "
    "metric, 1 (L1) or 2 (squared L2)";
static const char median_error[] =
    "median_rows takes (N, d) uint16 points, N uint16 labels, N int64 weights, (k, d) uint16 centers "
    "and an int64 out of k totals";

/* Dimensions summed before the distance so far is held against the best:
 * a block long enough for the compiler to vectorise. */
#define BLOCK 16

/* In 32 bits, which vectorise wider: d <= 65536 entries of at most 65535 fit. */
static uint64_t l1_block(const uint16_t *a, const uint16_t *b, Py_ssize_t n) {
    uint32_t s = 0;
    for (Py_ssize_t j = 0; j < n; j++) {
        int x = (int)a[j] - (int)b[j];
        s += (uint32_t)(x < 0 ? -x : x);
    }
    return s;
}

static uint64_t l2_block(const uint16_t *a, const uint16_t *b, Py_ssize_t n) {
    uint64_t s = 0;
    for (Py_ssize_t j = 0; j < n; j++) {
        int64_t x = (int64_t)a[j] - (int64_t)b[j];
        s += (uint64_t)(x * x);
    }
    return s;
}

/* The nearest center of a point, the lowest index among equals; its distance
 * in *best. The center `hint` (when below k) is measured first: mostly the
 * point's center of the last round, which most points keep, and then every
 * other center stops after a block or two. */
static uint16_t nearest(const uint16_t *p, const uint16_t *centers, Py_ssize_t k, Py_ssize_t d, Py_ssize_t hint,
                        uint64_t (*block)(const uint16_t *, const uint16_t *, Py_ssize_t), uint64_t *best) {
    Py_ssize_t arg = hint < k ? hint : 0;
    uint64_t least = block(p, centers + arg * d, d);
    for (Py_ssize_t c = 0; c < k; c++) {
        const uint16_t *q = centers + c * d;
        uint64_t s = 0;
        Py_ssize_t j = 0;
        /* A center already farther than the best one cannot win: stop summing. */
        for (; j + BLOCK <= d && s <= least; j += BLOCK)
            s += block(p + j, q + j, BLOCK);
        if (s > least)
            continue;
        s += block(p + j, q + j, d - j);
        if (s < least || (s == least && c < arg)) {
            least = s;
            arg = c;
        }
    }
    *best = least;
    return (uint16_t)arg;
}

/* nearest_rows(points, centers, labels, dists, metric) -> None: each (N, d)
 * uint16 point's nearest (k, d) center under L1 (metric 1) or squared L2
 * (metric 2), the lowest index among equals, into labels (uint16), and its
 * distance into dists (uint64). A label below k on the way in is a hint of
 * the nearest, which makes the search faster and the answer no different. */
PyObject *core_nearest_rows(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    Buffers bufs;
    Py_buffer *pb, *cb, *lb, *db;
    long metric = 0;
    if (parse_args(args, nargs, "nearest_rows(points, centers, labels, dists, metric)", &bufs, "rrwwl", &pb, &cb,
                   &lb, &db, &metric) < 0)
        return NULL;
    if (pb->ndim != 2 || cb->ndim != 2 || pb->itemsize != 2 || cb->itemsize != 2 || pb->shape[1] != cb->shape[1] ||
        cb->shape[0] < 1 || cb->shape[0] > 65536 || pb->shape[1] > 65536 || lb->itemsize != 2 ||
        lb->len != pb->shape[0] * 2 || db->itemsize != 8 || db->len != pb->shape[0] * 8 || (metric != 1 && metric != 2))
        return release_args(&bufs, nearest_error, NULL);
    const uint16_t *points = pb->buf, *centers = cb->buf;
    uint16_t *labels = lb->buf;
    uint64_t *dists = db->buf;
    Py_ssize_t n = pb->shape[0], d = pb->shape[1], k = cb->shape[0];
    uint64_t (*block)(const uint16_t *, const uint16_t *, Py_ssize_t) = metric == 1 ? l1_block : l2_block;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n; i++)
        labels[i] = nearest(points + i * d, centers, k, d, labels[i], block, &dists[i]);
    Py_END_ALLOW_THREADS
    return release_args(&bufs, NULL, Py_NewRef(Py_None));
}

/* The true distance of a metric's sum: L1 itself, or the square root of squared L2. */
static double true_distance(uint64_t s, long metric) { return metric == 1 ? (double)s : sqrt((double)s); }

/* Whether `near` is surely below `bound`, both true distances: strictly, and
 * under L2 by more than the rounding of square roots and drifts. */
static int surely_below(double near, double bound, long metric) {
    return metric == 1 ? near < bound : near * (1 + 1e-9) + 1e-9 < bound;
}

/* assign_rows(points, centers, labels, dists, lower, drift, half, metric)
 * -> None: nearest_rows for rows whose labels are last round's, skipping
 * the search where the triangle inequality shows the label stays
 * (Hamerly's bounds). lower (float64, N) holds for each row a lower bound
 * of its true distance (L1, or L2 not squared) to every center but its
 * own, valid before the centers moved by drift (float64, k, true
 * distances); half (float64, k) is half the true distance from each center
 * to its nearest other. A row keeps its label when its distance to its
 * center is below both its lower bound less the largest drift and its
 * center's half; otherwise, and for a label of k or more, every center is
 * measured. labels, dists and lower come out as for the new centers:
 * labels and dists exactly those of nearest_rows, whatever the bounds
 * were, so long as they were bounds. */
PyObject *core_assign_rows(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    Buffers bufs;
    Py_buffer *pb, *cb, *lb, *db, *ob, *rb, *hb;
    long metric = 0;
    if (parse_args(args, nargs, "assign_rows(points, centers, labels, dists, lower, drift, half, metric)", &bufs,
                   "rrwwwrrl", &pb, &cb, &lb, &db, &ob, &rb, &hb, &metric) < 0)
        return NULL;
    if (pb->ndim != 2 || cb->ndim != 2 || pb->itemsize != 2 || cb->itemsize != 2 || pb->shape[1] != cb->shape[1] ||
        cb->shape[0] < 1 || cb->shape[0] > 65536 || pb->shape[1] > 65536 || lb->itemsize != 2 ||
        lb->len != pb->shape[0] * 2 || db->itemsize != 8 || db->len != pb->shape[0] * 8 || ob->itemsize != 8 ||
        ob->len != pb->shape[0] * 8 || rb->itemsize != 8 || rb->len != cb->shape[0] * 8 || hb->itemsize != 8 ||
        hb->len != cb->shape[0] * 8 || (metric != 1 && metric != 2))
        return release_args(&bufs, assign_error, NULL);
    const uint16_t *points = pb->buf, *centers = cb->buf;
    uint16_t *labels = lb->buf;
    uint64_t *dists = db->buf;
    double *lower = ob->buf;
    const double *drift = rb->buf, *half = hb->buf;
    Py_ssize_t n = pb->shape[0], d = pb->shape[1], k = cb->shape[0];
    uint64_t (*block)(const uint16_t *, const uint16_t *, Py_ssize_t) = metric == 1 ? l1_block : l2_block;
    Py_BEGIN_ALLOW_THREADS
    double most = 0;
    for (Py_ssize_t c = 0; c < k; c++)
        most = drift[c] > most ? drift[c] : most;
    for (Py_ssize_t i = 0; i < n; i++) {
        const uint16_t *p = points + i * d;
        Py_ssize_t a = labels[i];
        if (a < k) {
            uint64_t own = block(p, centers + a * d, d);
            double near = true_distance(own, metric), bound = lower[i] - most;
            if (surely_below(near, bound > half[a] ? bound : half[a], metric)) {
                dists[i] = own;
                lower[i] = bound;
                continue;
            }
        }
        /* Every center: the nearest (the lowest index among equals) and the second nearest. */
        uint64_t best = UINT64_MAX, second = UINT64_MAX;
        Py_ssize_t arg = 0;
        for (Py_ssize_t c = 0; c < k; c++) {
            uint64_t s = block(p, centers + c * d, d);
            if (s < best) {
                second = best;
                best = s;
                arg = c;
            } else if (s < second) {
                second = s;
            }
        }
        labels[i] = (uint16_t)arg;
        dists[i] = best;
        lower[i] = k > 1 ? true_distance(second, metric) : HUGE_VAL;
    }
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
