/* The earth mover's distance between histograms over a set of ground points,
 * for k-means of potential-aware buckets: the twin of the numpy function
 * transport_rows of twoplustwo.kernels.clustering. Moving one unit of mass
 * from ground point i to j costs the L1 distance between their rows of
 * `ground`, and the distance between two histograms of equal mass is the
 * least cost of moving one onto the other: a transportation problem, solved
 * exactly in integers by successive shortest paths.
 *
 * Two facts keep it fast. The EMD depends only on the difference of the two
 * histograms (the ground cost is a metric), so mass they share stays put and
 * only the rest is moved. And ||sum_i p_i g_i - sum_j q_j g_j||_1, the L1
 * distance between the histograms' mass-weighted sums of ground rows, is at
 * most their EMD (the triangle inequality of the norm, summed over the moves),
 * so a center whose bound is above the best distance so far is never solved. */

#include "core.h" /* Python.h first, before any standard header */

#include <math.h>

static const char transport_error[] =
    "transport_rows takes (N, K) uint16 points, (k, K) uint16 centers with 1 <= k <= 65536, (K, d) uint16 ground "
    "rows with 1 <= K <= 2048, uint16 labels, uint64 distances and float64 lower bounds of N, and float64 drifts "
    "and halves of k";

/* Work space of one call, sized by the K ground points. */
typedef struct {
    Py_ssize_t K, d;
    uint32_t *cost;   /* K x K: the L1 distance between ground rows */
    int64_t *sum;     /* each ground row's sum */
    int *order;       /* the ground points by their rows' sums */
    int64_t *dual;    /* each ground point's first potential, by the current pair */
    int *node;        /* the ground point of each source, then of each sink */
    int64_t *amount;  /* each source's supply left, then each sink's demand left */
    int32_t *flow;    /* sources x sinks */
    int64_t *pot, *dist;
    char *done;
} Work;

static void free_work(Work *w) {
    free(w->cost);
    free(w->sum);
    free(w->order);
    free(w->dual);
    free(w->node);
    free(w->amount);
    free(w->flow);
    free(w->pot);
    free(w->dist);
    free(w->done);
}

static int alloc_work(Work *w, const uint16_t *ground, Py_ssize_t K, Py_ssize_t d) {
    size_t n = (size_t)K + 1;
    w->K = K;
    w->d = d;
    w->cost = malloc((size_t)(K * K) * sizeof(uint32_t));
    w->sum = malloc((size_t)K * sizeof(int64_t));
    w->order = malloc((size_t)K * sizeof(int));
    w->dual = malloc((size_t)K * sizeof(int64_t));
    w->node = malloc(n * sizeof(int));
    w->amount = malloc(n * sizeof(int64_t));
    /* Sources and sinks are disjoint ground points, so there are at most K^2 / 4 pairs. */
    w->flow = malloc(((size_t)(K * K) / 4 + 1) * sizeof(int32_t));
    w->pot = malloc(n * sizeof(int64_t));
    w->dist = malloc(n * sizeof(int64_t));
    w->done = malloc(n);
    if (!w->cost || !w->sum || !w->order || !w->dual || !w->node || !w->amount || !w->flow || !w->pot || !w->dist || !w->done) {
        free_work(w);
        return -1;
    }
    for (Py_ssize_t i = 0; i < K; i++)
        for (Py_ssize_t j = 0; j < K; j++) {
            uint32_t s = 0; /* d <= 65536 entries of at most 65535 fit */
            for (Py_ssize_t e = 0; e < d; e++) {
                int x = (int)ground[i * d + e] - (int)ground[j * d + e];
                s += (uint32_t)(x < 0 ? -x : x);
            }
            w->cost[i * K + j] = s;
        }
    for (Py_ssize_t i = 0; i < K; i++) {
        w->sum[i] = 0;
        for (Py_ssize_t e = 0; e < d; e++)
            w->sum[i] += ground[i * d + e];
    }
    /* By sum (insertion: K is small and this is once a call), the lowest index first among equals. */
    for (Py_ssize_t i = 0; i < K; i++) {
        Py_ssize_t j = i;
        for (; j > 0 && w->sum[w->order[j - 1]] > w->sum[i]; j--)
            w->order[j] = w->order[j - 1];
        w->order[j] = (int)i;
    }
    return 0;
}

/* Sends mass from source s to a sink with demand left along edges of reduced
 * cost 0: forward to a sink, or back from a sink along a flow into it.
 * Returns the amount sent (at most `most`), 0 when no such path is left. */
static int64_t send(Work *w, int s, int ns, int nt, int64_t most) {
    const int *src = w->node, *snk = w->node + ns;
    w->done[s] = 1;
    const uint32_t *row = w->cost + (Py_ssize_t)src[s] * w->K;
    for (int t = 0; t < nt; t++) {
        int u = ns + t;
        if (w->done[u] || (int64_t)row[snk[t]] + w->pot[s] != w->pot[u])
            continue;
        w->done[u] = 1;
        int64_t sent = 0;
        if (w->amount[u] > 0) {
            sent = w->amount[u] < most ? w->amount[u] : most;
            w->amount[u] -= sent;
        } else {
            for (int r = 0; r < ns && sent == 0; r++) {
                int32_t *back = &w->flow[r * nt + t];
                if (*back > 0 && !w->done[r]) {
                    sent = send(w, r, ns, nt, most < *back ? most : *back);
                    *back -= (int32_t)sent;
                }
            }
        }
        if (sent > 0) {
            w->flow[s * nt + t] += (int32_t)sent;
            return sent;
        }
    }
    return 0;
}

/* The EMD between histograms p and q over the K ground points, of equal mass.
 *
 * Mass they share stays put; the rest goes from the sources (where p
 * exceeds q) to the sinks (where q exceeds p) by the primal-dual method.
 * Potentials keep every edge of the residual graph at a reduced cost
 * (cost + pot[from] - pot[to]) of 0 or more, and so every flow at 0 (no
 * cheaper rearrangement exists). Each phase sends all it can along edges of
 * reduced cost 0, then raises the potentials by the distances from the
 * sources with supply left (Dijkstra, capped at the nearest sink with
 * demand left), which opens a new path of reduced cost 0. */
static uint64_t emd(Work *w, const uint16_t *p, const uint16_t *q) {
    Py_ssize_t K = w->K;
    int ns = 0, nt = 0;
    int64_t left = 0;
    for (Py_ssize_t b = 0; b < K; b++)
        if (p[b] > q[b]) {
            w->node[ns] = (int)b;
            w->amount[ns++] = p[b] - q[b];
            left += p[b] - q[b];
        }
    if (left == 0)
        return 0;
    for (Py_ssize_t b = 0; b < K; b++)
        if (q[b] > p[b]) {
            w->node[ns + nt] = (int)b;
            w->amount[ns + nt++] = q[b] - p[b];
        }
    int v = ns + nt;
    const int *src = w->node, *snk = w->node + ns;
    int64_t *amount = w->amount, *pot = w->pot, *dist = w->dist;
    int32_t *flow = w->flow;
    memset(flow, 0, (size_t)ns * (size_t)nt * sizeof(int32_t));
    /* The first potentials: the dual of the same problem on the line of the rows' sums, where moving a unit
     * costs the difference of the sums. That never exceeds the L1 distance, so these are valid potentials;
     * and where the ground is that line (rows that dominate one another), the moves the line's optimum makes
     * are all at reduced cost 0, so most of the mass goes in the first phase. Along the line the potential
     * rises where more of p than of q lies behind (mass moves forward) and falls where less does. */
    int64_t ahead = 0, at = 0, last = 0;
    for (Py_ssize_t i = 0; i < K; i++) {
        int b = w->order[i];
        if (p[b] == q[b])
            continue;
        at += ahead > 0 ? w->sum[b] - last : ahead < 0 ? last - w->sum[b] : 0;
        last = w->sum[b];
        w->dual[b] = at;
        ahead += (int64_t)p[b] - q[b];
    }
    for (int u = 0; u < v; u++)
        pot[u] = w->dual[w->node[u]];
    for (;;) {
        /* Nodes a failed search saw cannot reach a sink with demand until some flow changes. */
        memset(w->done, 0, (size_t)v);
        for (int s = 0; s < ns; s++)
            while (amount[s] > 0 && !w->done[s]) {
                int64_t sent = send(w, s, ns, nt, amount[s]);
                if (sent == 0)
                    break;
                memset(w->done, 0, (size_t)v);
                amount[s] -= sent;
                left -= sent;
            }
        if (left == 0)
            break;
        for (int u = 0; u < v; u++) {
            dist[u] = u < ns && amount[u] > 0 ? 0 : INT64_MAX;
            w->done[u] = 0;
        }
        int64_t end = INT64_MAX; /* the distance to the nearest sink with demand left */
        for (;;) {
            int u = -1;
            for (int x = 0; x < v; x++)
                if (!w->done[x] && dist[x] < end && (u < 0 || dist[x] < dist[u]))
                    u = x;
            if (u < 0)
                break;
            w->done[u] = 1;
            if (u < ns) { /* a source: to every sink */
                const uint32_t *row = w->cost + (Py_ssize_t)src[u] * K;
                for (int t = 0; t < nt; t++) {
                    int64_t nd = dist[u] + (int64_t)row[snk[t]] + pot[u] - pot[ns + t];
                    dist[ns + t] = nd < dist[ns + t] ? nd : dist[ns + t];
                }
            } else if (amount[u] > 0) {
                end = dist[u];
            } else { /* a sink: back along its flows */
                int t = u - ns;
                for (int s = 0; s < ns; s++)
                    if (flow[s * nt + t] > 0) {
                        int64_t nd = dist[u] - (int64_t)w->cost[src[s] * K + snk[t]] + pot[u] - pot[s];
                        dist[s] = nd < dist[s] ? nd : dist[s];
                    }
            }
        }
        /* Nodes farther than the end rise by the end only: every reduced cost stays >= 0. */
        for (int u = 0; u < v; u++)
            pot[u] += dist[u] < end ? dist[u] : end;
    }
    uint64_t total = 0;
    for (int s = 0; s < ns; s++)
        for (int t = 0; t < nt; t++)
            total += (uint64_t)flow[s * nt + t] * w->cost[src[s] * K + snk[t]];
    return total;
}

/* The mass-weighted sum of ground rows of a histogram, into out (d entries). */
static void weighted_sum(const uint16_t *h, const uint16_t *ground, Py_ssize_t K, Py_ssize_t d, int64_t *out) {
    memset(out, 0, (size_t)d * sizeof(int64_t));
    for (Py_ssize_t b = 0; b < K; b++)
        if (h[b])
            for (Py_ssize_t e = 0; e < d; e++)
                out[e] += (int64_t)h[b] * ground[b * d + e];
}

/* transport_rows(points, centers, ground, labels, dists, lower, drift, half)
 * -> None: each (N, K) uint16 histogram's nearest (k, K) center under the
 * EMD whose ground distance is L1 between the rows of the (K, d) ground,
 * the lowest index among equals, into labels, and the distance into dists.
 * Every point and center must hold the same total mass. A label below k on
 * the way in is taken as last round's, with Hamerly's bounds as assign_rows
 * takes them (lower, drift and half: true distances; zeros skip nothing):
 * a row whose bounds keep its label is not searched. lower comes out as a
 * lower bound of each row's distance to every center but its own. */
PyObject *core_transport_rows(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    Buffers bufs;
    Py_buffer *pb, *cb, *gb, *lb, *db, *ob, *rb, *hb;
    if (parse_args(args, nargs, "transport_rows(points, centers, ground, labels, dists, lower, drift, half)", &bufs,
                   "rrrwwwrr", &pb, &cb, &gb, &lb, &db, &ob, &rb, &hb) < 0)
        return NULL;
    if (pb->ndim != 2 || cb->ndim != 2 || gb->ndim != 2 || pb->itemsize != 2 || cb->itemsize != 2 ||
        gb->itemsize != 2 || pb->shape[1] != cb->shape[1] || gb->shape[0] != pb->shape[1] || gb->shape[0] < 1 ||
        gb->shape[0] > 2048 || gb->shape[1] < 1 || gb->shape[1] > 65536 || cb->shape[0] < 1 ||
        cb->shape[0] > 65536 || lb->itemsize != 2 || lb->len != pb->shape[0] * 2 || db->itemsize != 8 ||
        db->len != pb->shape[0] * 8 || ob->itemsize != 8 || ob->len != pb->shape[0] * 8 || rb->itemsize != 8 ||
        rb->len != cb->shape[0] * 8 || hb->itemsize != 8 || hb->len != cb->shape[0] * 8)
        return release_args(&bufs, transport_error, NULL);
    const uint16_t *points = pb->buf, *centers = cb->buf, *ground = gb->buf;
    uint16_t *labels = lb->buf;
    uint64_t *dists = db->buf;
    double *lower = ob->buf;
    const double *drift = rb->buf, *half = hb->buf;
    Py_ssize_t n = pb->shape[0], K = pb->shape[1], k = cb->shape[0], d = gb->shape[1];
    const char *error = NULL;
    int lost = 0;
    Work w;
    int64_t *at_center = NULL, *at_point = NULL;
    uint64_t *bound = NULL;
    char *seen = NULL;
    Py_BEGIN_ALLOW_THREADS
    at_center = malloc((size_t)(k * d) * sizeof(int64_t));
    at_point = malloc((size_t)d * sizeof(int64_t));
    bound = malloc((size_t)k * sizeof(uint64_t));
    seen = malloc((size_t)k);
    if (at_center == NULL || at_point == NULL || bound == NULL || seen == NULL || alloc_work(&w, ground, K, d) < 0) {
        lost = 1;
    } else {
        int64_t mass = -1;
        for (Py_ssize_t c = 0; c < k && error == NULL; c++) {
            int64_t m = 0;
            for (Py_ssize_t b = 0; b < K; b++)
                m += centers[c * K + b];
            if (mass >= 0 && m != mass)
                error = "transport_rows: every point and center must hold the same total mass";
            mass = m;
            weighted_sum(centers + c * K, ground, K, d, at_center + c * d);
        }
        double most = 0;
        for (Py_ssize_t c = 0; c < k; c++)
            most = drift[c] > most ? drift[c] : most;
        for (Py_ssize_t i = 0; i < n && error == NULL; i++) {
            const uint16_t *p = points + i * K;
            int64_t m = 0;
            for (Py_ssize_t b = 0; b < K; b++)
                m += p[b];
            if (m != mass) {
                error = "transport_rows: every point and center must hold the same total mass";
                break;
            }
            Py_ssize_t arg = labels[i] < k ? labels[i] : k;
            uint64_t best = UINT64_MAX;
            if (arg < k) {
                best = emd(&w, p, centers + arg * K);
                double bound = lower[i] - most;
                if ((double)best < (bound > half[arg] ? bound : half[arg])) {
                    dists[i] = best;
                    lower[i] = bound;
                    continue;
                }
            }
            weighted_sum(p, ground, K, d, at_point);
            for (Py_ssize_t c = 0; c < k; c++) {
                const int64_t *e = at_center + c * d;
                uint64_t b = 0;
                for (Py_ssize_t j = 0; j < d; j++)
                    b += (uint64_t)(at_point[j] > e[j] ? at_point[j] - e[j] : e[j] - at_point[j]);
                bound[c] = b;
                seen[c] = c == arg;
            }
            /* The centers by bound, the least first, until a bound shows that none left can win. */
            double others = HUGE_VAL; /* a lower bound of the distance to every center but the best */
            for (;;) {
                Py_ssize_t c = -1;
                for (Py_ssize_t x = 0; x < k; x++)
                    if (!seen[x] && (c < 0 || bound[x] < bound[c]))
                        c = x;
                if (c < 0)
                    break;
                if (bound[c] > best || (bound[c] == best && c > arg)) {
                    others = (double)bound[c] < others ? (double)bound[c] : others;
                    break;
                }
                seen[c] = 1;
                uint64_t s = emd(&w, p, centers + c * K);
                if (s < best || (s == best && c < arg)) {
                    if (arg < k)
                        others = (double)best < others ? (double)best : others;
                    best = s;
                    arg = c;
                } else {
                    others = (double)s < others ? (double)s : others;
                }
            }
            labels[i] = (uint16_t)arg;
            dists[i] = best;
            lower[i] = others;
        }
        free_work(&w);
    }
    free(at_center);
    free(at_point);
    free(bound);
    free(seen);
    Py_END_ALLOW_THREADS
    if (lost)
        return release_args(&bufs, NULL, PyErr_NoMemory());
    return release_args(&bufs, error, error == NULL ? Py_NewRef(Py_None) : NULL);
}
