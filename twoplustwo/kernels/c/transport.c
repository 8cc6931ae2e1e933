/* The earth mover's distance between histograms over a set of ground points,
 * for k-means of potential-aware buckets: the twin of the numpy function
 * transport_rows of twoplustwo.kernels.numpy.transport. Moving one unit of mass
 * from ground point i to j costs the L1 distance between their rows of
 * `ground`, and the distance between two histograms of equal mass is the
 * least cost of moving one onto the other: a transportation problem, solved
 * exactly in integers by the network simplex (emd).
 *
 * Three facts keep it fast. The EMD depends only on the difference of the
 * two histograms (the ground cost is a metric), so mass they share stays put
 * and only the rest is moved. ||sum_i p_i g_i - sum_j q_j g_j||_1, the L1
 * distance between the histograms' mass-weighted sums of ground rows, is at
 * most their EMD (the triangle inequality of the norm, summed over the moves),
 * so a center whose bound is above the best distance so far is never solved.
 * And the sum over the coordinates of the one-dimensional EMD between the
 * histograms' marginals (marginal_bound) is a tighter bound, nearly the EMD
 * itself where the rows are quantile functions: it rules out most of the
 * centers the first bound lets through, at a tenth of the cost of solving. */

/* Long because it is one job in one unit: the EMD of transport_rows. The
 * network simplex (emd), its work space and the two bounds share Work and
 * Halt, and each is only ever called from transport_rows below. */

#include "core.h" /* Python.h first, before any standard header */

#include <limits.h>
#include <math.h>

static const char transport_error[] =
    "transport_rows takes (N, K) uint16 points, (k, K) uint16 centers with 1 <= k <= 65536, (K, d) uint16 ground "
    "rows with 1 <= K <= 2048, uint16 labels, uint64 distances and float64 lower bounds of N, float64 drifts "
    "and halves of k, and optionally a stop byte";

/* Steps (a center's set-up, a row, one EMD solved) between looks for a signal. One row alone may solve
 * thousands of EMDs (K = k = 2,048 took over a second a row), so a call looks inside its rows, not only
 * between them: a few dozen steps take milliseconds. */
#define CHECK_EVERY 32

/* What a call looks at between its steps, the GIL released: the caller's stop byte (NULL: none), the
 * steps since it last looked for a signal, its thread state while released, whether a handler raised. */
typedef struct {
    const volatile uint8_t *stop;
    unsigned tick;
    PyThreadState **save;
    int raised;
} Halt;

/* Whether a call must stop now: the caller set its stop byte (another thread was interrupted, or failed),
 * or, every CHECK_EVERY steps, a signal handler raised (SIGINT's: KeyboardInterrupt), which it runs with
 * the GIL taken back for the moment. h->raised says which; the exception is then set. */
static int halted(Halt *h) {
    if (h->stop != NULL && *h->stop)
        return 1;
    if (++h->tick % CHECK_EVERY)
        return 0;
    PyEval_RestoreThread(*h->save);
    h->raised = PyErr_CheckSignals() < 0;
    *h->save = PyEval_SaveThread();
    return h->raised;
}

/* Work space of one call, sized by the K ground points. */
typedef struct {
    Py_ssize_t K, d;
    uint32_t *cost; /* K x K: the L1 distance between ground rows */
    int64_t *sum;   /* each ground row's sum */
    int *order;     /* the ground points by their rows' sums */
    /* Of one pair: n = ns + nt nodes, the sources (by sum) then the sinks (by sum). */
    int *node;       /* the ground point of each node */
    int *sink;       /* the sinks' ground points and demands as the merge finds them */
    int64_t *want;
    int64_t *amount; /* each source's supply, each sink's demand */
    int64_t *rest;   /* what the north-west corner has left to place, perturbed */
    int64_t *pot;    /* the potential of each node: u of the sources, v of the sinks */
    int64_t *c;      /* ns x nt: the cost of each source-sink pair */
    int *ei, *ej;    /* the n - 1 basic cells: source, sink */
    int64_t *ex;     /* and their perturbed flows */
    int *head, *next, *prev; /* the cells at each node: slot 2e at the source of cell e, 2e + 1 at its sink */
    int *up, *depth;         /* the tree rooted at node 0: each node's cell up (-1 at the root), its depth */
    int *queue;
} Work;

static void free_work(Work *w) {
    free(w->cost);
    free(w->sum);
    free(w->order);
    free(w->node);
    free(w->sink);
    free(w->want);
    free(w->amount);
    free(w->rest);
    free(w->pot);
    free(w->c);
    free(w->ei);
    free(w->ej);
    free(w->ex);
    free(w->head);
    free(w->next);
    free(w->prev);
    free(w->up);
    free(w->depth);
    free(w->queue);
}

/* 0, or -1 out of memory, or 1 halted (the work space then freed too). */
static int alloc_work(Work *w, const uint16_t *ground, Py_ssize_t K, Py_ssize_t d, Halt *h) {
    size_t n = (size_t)K + 1;
    w->K = K;
    w->d = d;
    w->cost = malloc((size_t)(K * K) * sizeof(uint32_t));
    w->sum = malloc((size_t)K * sizeof(int64_t));
    w->order = malloc((size_t)K * sizeof(int));
    w->node = malloc(n * sizeof(int));
    w->sink = malloc(n * sizeof(int));
    w->want = malloc(n * sizeof(int64_t));
    w->amount = malloc(n * sizeof(int64_t));
    w->rest = malloc(n * sizeof(int64_t));
    w->pot = malloc(n * sizeof(int64_t));
    /* Sources and sinks are disjoint ground points, so there are at most K^2 / 4 pairs. */
    w->c = malloc(((size_t)(K * K) / 4 + 1) * sizeof(int64_t));
    w->ei = malloc(n * sizeof(int));
    w->ej = malloc(n * sizeof(int));
    w->ex = malloc(n * sizeof(int64_t));
    w->head = malloc(n * sizeof(int));
    w->next = malloc(2 * n * sizeof(int));
    w->prev = malloc(2 * n * sizeof(int));
    w->up = malloc(n * sizeof(int));
    w->depth = malloc(n * sizeof(int));
    w->queue = malloc(n * sizeof(int));
    if (!w->cost || !w->sum || !w->order || !w->node || !w->sink || !w->want || !w->amount || !w->rest ||
        !w->pot || !w->c || !w->ei || !w->ej || !w->ex || !w->head || !w->next || !w->prev || !w->up || !w->depth ||
        !w->queue) {
        free_work(w);
        return -1;
    }
    for (Py_ssize_t i = 0; i < K; i++) {
        if (halted(h)) { /* K = 2,048 rows of K costs take a few hundred milliseconds */
            free_work(w);
            return 1;
        }
        for (Py_ssize_t j = 0; j < K; j++) {
            uint32_t s = 0; /* d <= 65536 entries of at most 65535 fit */
            for (Py_ssize_t e = 0; e < d; e++) {
                int x = (int)ground[i * d + e] - (int)ground[j * d + e];
                s += (uint32_t)(x < 0 ? -x : x);
            }
            w->cost[i * K + j] = s;
        }
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

/* Hangs slot s of a cell in the list of node u. */
static inline void link_slot(Work *w, int s, int u) {
    w->prev[s] = -1;
    w->next[s] = w->head[u];
    if (w->head[u] >= 0)
        w->prev[w->head[u]] = s;
    w->head[u] = s;
}

static inline void unlink_slot(Work *w, int s, int u) {
    if (w->prev[s] >= 0)
        w->next[w->prev[s]] = w->next[s];
    else
        w->head[u] = w->next[s];
    if (w->next[s] >= 0)
        w->prev[w->next[s]] = w->prev[s];
}

/* Walks the subtree under node y, whose cell up, depth and potential are set, giving every node below its
 * cell up, its depth and the potential that makes its cell's reduced cost c - u - v zero. */
static void hang(Work *w, int ns, int nt, int y) {
    int *up = w->up, *depth = w->depth, *queue = w->queue;
    const int *ei = w->ei, *ej = w->ej;
    queue[0] = y;
    for (int at = 0, end = 1; at < end; at++) {
        int u = queue[at];
        for (int s = w->head[u]; s >= 0; s = w->next[s]) {
            int e = s >> 1;
            if (e == up[u])
                continue;
            int x = s & 1 ? ei[e] : ns + ej[e];
            up[x] = e;
            depth[x] = depth[u] + 1;
            w->pot[x] = w->c[ei[e] * nt + ej[e]] - w->pot[u];
            queue[end++] = x;
        }
    }
}

/* The bins of a histogram that hold mass, in the order of the ground rows' sums: each one's rank in that
 * order and its mass. Two of them merge into the sources and sinks of a pair without a pass over all K. */
typedef struct {
    int n;
    const uint16_t *rank, *mass;
} Held;

/* A histogram's bins that hold mass into rank and mass, n of them; returns its total mass. It writes (without
 * a branch) up to K entries of each, those past n being scratch, so the centers' lists go one after another
 * into arrays with K entries to spare. */
static int64_t hold(const Work *w, const uint16_t *h, uint16_t *rank, uint16_t *mass, int *n) {
    int64_t total = 0;
    int m = 0;
    for (Py_ssize_t r = 0; r < w->K; r++) {
        uint16_t x = h[w->order[r]];
        rank[m] = (uint16_t)r;
        mass[m] = x;
        m += x != 0;
        total += x;
    }
    *n = m;
    return total;
}

/* The EMD between histograms p and q over the K ground points, of equal mass.
 *
 * Mass they share stays put; the rest goes from the sources (where p
 * exceeds q) to the sinks (where q exceeds p): a transportation problem,
 * solved by the network simplex on its bipartite basis tree. It starts from
 * the north-west corner with sources and sinks in the order of the rows'
 * sums: the optimum on the line of those sums, and so the optimum outright
 * where rows dominate one another (their L1 distance is then the difference
 * of their sums), which is most of the time; a pivot or two mends the rest.
 *
 * Degenerate pivots (and cycling) are ruled out by perturbing the amounts
 * (Orden's): each supply a becomes a M + 1 and each demand b becomes b M, the
 * last demand b M + ns, with M = ns + 1. No proper subset of sources then
 * balances a subset of sinks, so every basic flow is positive and each pivot
 * lowers the cost. The optimal basis of the perturbed problem is optimal for
 * the problem itself (the reduced costs do not depend on the amounts, and its
 * flows, divided by M and rounded down, are feasible), so the answer is the
 * dual objective, sum a u + sum b v, with the amounts themselves. */
static uint64_t emd(Work *w, Held p, Held q) {
    Py_ssize_t K = w->K;
    const int *order = w->order;
    int *node = w->node, *sink = w->sink;
    int64_t *amount = w->amount, *want = w->want;
    int ns = 0, nt = 0;
    for (int a = 0, b = 0; a < p.n || b < q.n;) {
        int x = a < p.n ? p.rank[a] : INT_MAX, y = b < q.n ? q.rank[b] : INT_MAX;
        int64_t more = x <= y ? p.mass[a] : 0, less = y <= x ? q.mass[b] : 0;
        int at = order[x < y ? x : y];
        a += x <= y;
        b += y <= x;
        if (more > less) {
            node[ns] = at;
            amount[ns++] = more - less;
        } else if (less > more) {
            sink[nt] = at;
            want[nt++] = less - more;
        }
    }
    if (ns == 0)
        return 0;
    memcpy(node + ns, sink, (size_t)nt * sizeof(int));
    memcpy(amount + ns, want, (size_t)nt * sizeof(int64_t));
    int n = ns + nt;
    int64_t *c = w->c, *pot = w->pot, *rest = w->rest, *ex = w->ex;
    int *ei = w->ei, *ej = w->ej;
    for (int i = 0; i < ns; i++) {
        const uint32_t *row = w->cost + (Py_ssize_t)node[i] * K;
        for (int j = 0; j < nt; j++)
            c[i * nt + j] = row[node[ns + j]];
    }
    int64_t M = ns + 1;
    for (int i = 0; i < ns; i++)
        rest[i] = amount[i] * M + 1;
    for (int j = 0; j < nt; j++)
        rest[ns + j] = amount[ns + j] * M;
    rest[n - 1] += ns;
    /* The north-west corner: a staircase of n - 1 cells, and the potentials along it. */
    {
        int i = 0, j = 0, e = 0;
        pot[0] = 0;
        pot[ns] = c[0];
        for (;;) {
            int64_t f = rest[i] < rest[ns + j] ? rest[i] : rest[ns + j];
            ei[e] = i;
            ej[e] = j;
            ex[e++] = f;
            rest[i] -= f;
            rest[ns + j] -= f;
            if (rest[i] == 0) {
                if (++i == ns)
                    break;
                pot[i] = c[i * nt + j] - pot[ns + j];
            } else {
                j++;
                pot[ns + j] = c[i * nt + j] - pot[i];
            }
        }
    }
    int rooted = 0;
    for (;;) {
        /* The entering cell: the least reduced cost (Dantzig's rule), none below 0 at the optimum. */
        int64_t least = 0;
        int bi = -1, bj = -1;
        for (int i = 0; i < ns; i++) {
            const int64_t *ci = c + i * nt, *v = pot + ns;
            int64_t u = pot[i];
            for (int j = 0; j < nt; j++) {
                int64_t r = ci[j] - u - v[j];
                if (r < least) {
                    least = r;
                    bi = i;
                    bj = j;
                }
            }
        }
        if (bi < 0)
            break;
        if (!rooted) { /* the cell lists, and the tree from node 0 (the potentials stay) */
            for (int u = 0; u < n; u++)
                w->head[u] = -1;
            for (int e = 0; e < n - 1; e++) {
                link_slot(w, 2 * e, ei[e]);
                link_slot(w, 2 * e + 1, ns + ej[e]);
            }
            w->up[0] = -1;
            w->depth[0] = 0;
            hang(w, ns, nt, 0);
            rooted = 1;
        }
        /* The cycle: the cell in (+), then the tree path from its sink back to its source, whose cells
         * alternate (-) and (+). Going up from the sink, a cell above a sink is (-); going up from the
         * source (the path runs down there), a cell above a source is (-). */
        const int *up = w->up, *depth = w->depth;
        int a = bi, b = ns + bj, out = -1, below = -1; /* the cell out, and the end of the cell in under it */
        int64_t theta = INT64_MAX;
        int *path = w->queue, len = 0; /* the cells of the path, negated when (-) */
        while (a != b) {
            if (depth[a] >= depth[b]) {
                int e = up[a], minus = a < ns;
                path[len++] = minus ? -1 - e : e;
                if (minus && ex[e] < theta) {
                    theta = ex[e];
                    out = e;
                    below = bi;
                }
                a = a < ns ? ns + ej[e] : ei[e];
            } else {
                int e = up[b], minus = b >= ns;
                path[len++] = minus ? -1 - e : e;
                if (minus && ex[e] < theta) {
                    theta = ex[e];
                    out = e;
                    below = ns + bj;
                }
                b = b < ns ? ns + ej[e] : ei[e];
            }
        }
        for (int k = 0; k < len; k++) {
            if (path[k] < 0)
                ex[-1 - path[k]] -= theta;
            else
                ex[path[k]] += theta;
        }
        /* Cell out leaves, and the subtree it held hangs by the cell in instead. */
        unlink_slot(w, 2 * out, ei[out]);
        unlink_slot(w, 2 * out + 1, ns + ej[out]);
        ei[out] = bi;
        ej[out] = bj;
        ex[out] = theta;
        link_slot(w, 2 * out, bi);
        link_slot(w, 2 * out + 1, ns + bj);
        int above = below == bi ? ns + bj : bi;
        w->up[below] = out;
        w->depth[below] = w->depth[above] + 1;
        pot[below] = c[bi * nt + bj] - pot[above];
        hang(w, ns, nt, below);
    }
    /* Its terms may pass 2^63 where the sum does not: summed modulo 2^64, the sum comes out exact. */
    uint64_t total = 0;
    for (int u = 0; u < n; u++)
        total += (uint64_t)amount[u] * (uint64_t)pot[u];
    return total;
}

/* The mass-weighted sum of ground rows of a histogram, into out (d entries). */
static void weighted_sum(const Work *w, Held h, const uint16_t *ground, int64_t *out) {
    Py_ssize_t d = w->d;
    memset(out, 0, (size_t)d * sizeof(int64_t));
    for (int x = 0; x < h.n; x++) {
        const uint16_t *g = ground + w->order[h.rank[x]] * d;
        for (Py_ssize_t e = 0; e < d; e++)
            out[e] += (int64_t)h.mass[x] * g[e];
    }
}

/* The marginals of histogram h along each coordinate of the ground rows, as sorted samples: for coordinate
 * e, the value ground[b][e] of each of the h's `total` units of mass, ascending, into out[e * total ...].
 * Rows are nearly sorted by their sums, and coordinate by coordinate, so insertion sort from the order of
 * the last coordinate has little to do. item and row take h.n entries. */
static void marginals(const Work *w, Held h, const uint16_t *ground, int64_t total, int *item,
                      const uint16_t **row, uint16_t *out) {
    Py_ssize_t d = w->d;
    for (int x = 0; x < h.n; x++) {
        item[x] = x;
        row[x] = ground + w->order[h.rank[x]] * d;
    }
    for (Py_ssize_t e = 0; e < d; e++) {
        for (int x = 1; x < h.n; x++) {
            int it = item[x], y = x;
            uint16_t key = row[it][e];
            for (; y > 0 && row[item[y - 1]][e] > key; y--)
                item[y] = item[y - 1];
            item[y] = it;
        }
        uint16_t *o = out + e * total;
        for (int x = 0; x < h.n; x++) {
            uint16_t v = row[item[x]][e];
            for (int r = h.mass[item[x]]; r > 0; r--)
                *o++ = v;
        }
    }
}

/* The L1 distance between two histograms' marginals (n = d * total samples): the sum over the coordinates of
 * the one-dimensional EMD between the histograms' marginals, a lower bound of their EMD (every move's L1 cost
 * is the sum of its moves along the coordinates), and a tight one where the metric is nearly one-dimensional.
 * n <= 65536, so the sum fits. */
__attribute__((noinline)) static uint64_t marginal_bound(const uint16_t *a, const uint16_t *b, Py_ssize_t n) {
    uint32_t s = 0;
    for (Py_ssize_t x = 0; x < n; x++) {
        int v = (int)a[x] - (int)b[x];
        s += (uint32_t)(v < 0 ? -v : v);
    }
    return s;
}

/* A center whose first bound does not rule it out. */
typedef struct {
    uint64_t bound;
    int center;
} Candidate;

/* By bound, then by index. */
static int by_bound(const void *a, const void *b) {
    const Candidate *x = a, *y = b;
    if (x->bound != y->bound)
        return x->bound < y->bound ? -1 : 1;
    return (x->center > y->center) - (x->center < y->center);
}

/* Each center's first bound: the L1 distance between its mass-weighted sum of ground rows and the point's. */
__attribute__((noinline)) static void bounds(const int64_t *at_point, const int64_t *at_center, Py_ssize_t k,
                                             Py_ssize_t d, uint64_t *bound) {
    for (Py_ssize_t c = 0; c < k; c++) {
        const int64_t *e = at_center + c * d;
        uint64_t b = 0;
        for (Py_ssize_t j = 0; j < d; j++)
            b += (uint64_t)(at_point[j] > e[j] ? at_point[j] - e[j] : e[j] - at_point[j]);
        bound[c] = b;
    }
}

/* The same in 32 bits, which vectorise, when the sums are small enough: d * mass * 65535 < 2^31. */
__attribute__((noinline)) static void bounds32(const int32_t *at_point, const int32_t *at_center, Py_ssize_t k,
                                               Py_ssize_t d, uint64_t *bound) {
    for (Py_ssize_t c = 0; c < k; c++) {
        const int32_t *e = at_center + c * d;
        int32_t b = 0;
        for (Py_ssize_t j = 0; j < d; j++) {
            int32_t x = at_point[j] - e[j];
            b += x < 0 ? -x : x;
        }
        bound[c] = (uint64_t)b;
    }
}

/* transport_rows(points, centers, ground, labels, dists, lower, drift, half[, stop])
 * -> None: each (N, K) uint16 histogram's nearest (k, K) center under the
 * EMD whose ground distance is L1 between the rows of the (K, d) ground,
 * the lowest index among equals, into labels, and the distance into dists.
 * Every point and center must hold the same total mass. A label below k on
 * the way in is taken as last round's, with Hamerly's bounds as assign_rows
 * takes them (lower, drift and half: true distances; zeros skip nothing):
 * a row whose bounds keep its label is not searched. lower comes out as a
 * lower bound of each row's distance to every center but its own. The call
 * stops early, its rows part done, once the byte stop (a buffer of at least
 * one) is nonzero, and raises on a signal whose handler raises (Ctrl-C). */
PyObject *core_transport_rows(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    (void)module;
    Buffers bufs;
    Py_buffer *pb, *cb, *gb, *lb, *db, *ob, *rb, *hb, *sb = NULL;
    if (parse_args(args, nargs, "transport_rows(points, centers, ground, labels, dists, lower, drift, half[, stop])",
                   &bufs, "rrrwwwrr|r", &pb, &cb, &gb, &lb, &db, &ob, &rb, &hb, &sb) < 0)
        return NULL;
    if (pb->ndim != 2 || cb->ndim != 2 || gb->ndim != 2 || pb->itemsize != 2 || cb->itemsize != 2 ||
        gb->itemsize != 2 || pb->shape[1] != cb->shape[1] || gb->shape[0] != pb->shape[1] || gb->shape[0] < 1 ||
        gb->shape[0] > 2048 || gb->shape[1] < 1 || gb->shape[1] > 65536 || cb->shape[0] < 1 ||
        cb->shape[0] > 65536 || lb->itemsize != 2 || lb->len != pb->shape[0] * 2 || db->itemsize != 8 ||
        db->len != pb->shape[0] * 8 || ob->itemsize != 8 || ob->len != pb->shape[0] * 8 || rb->itemsize != 8 ||
        rb->len != cb->shape[0] * 8 || hb->itemsize != 8 || hb->len != cb->shape[0] * 8 ||
        (sb != NULL && (sb->itemsize != 1 || sb->len < 1)))
        return release_args(&bufs, transport_error, NULL);
    Halt h = {sb != NULL ? sb->buf : NULL, 0, NULL, 0};
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
    int32_t *narrow = NULL; /* the same, when small: the centers' then the point's */
    uint64_t *bound = NULL;
    Candidate *seen = NULL; /* the centers whose bounds do not rule them out */
    uint16_t *rank = NULL, *mass = NULL; /* the centers' bins that hold mass, then the point's */
    Held *held = NULL;
    uint16_t *margin = NULL; /* the centers' marginals (marginals), then the point's, when they are small */
    int *item = NULL;
    const uint16_t **row = NULL;
    Py_BEGIN_ALLOW_THREADS
    h.save = &_save;
    at_center = malloc((size_t)(k * d) * sizeof(int64_t));
    at_point = malloc((size_t)d * sizeof(int64_t));
    bound = malloc((size_t)k * sizeof(uint64_t));
    seen = malloc((size_t)k * sizeof(Candidate));
    held = malloc((size_t)k * sizeof(Held));
    size_t full = (size_t)K; /* how many bins of the centers hold mass, and K for the point */
    for (Py_ssize_t x = 0; x < k * K; x++)
        full += centers[x] != 0;
    rank = malloc(full * sizeof(uint16_t));
    mass = malloc(full * sizeof(uint16_t));
    /* The marginals (d x mass samples a row) are used when a row's fit the uint32 sum and all take at most
     * 2^24 samples (32 MB). */
    int64_t first = 0;
    for (Py_ssize_t b = 0; b < K; b++)
        first += centers[b];
    Py_ssize_t samples = first * d <= 65536 ? (Py_ssize_t)first * d : 0;
    if (samples > 0 && (k + 1) * samples <= (1 << 24)) {
        margin = malloc((size_t)((k + 1) * samples) * sizeof(uint16_t));
        item = malloc((size_t)K * sizeof(int));
        row = malloc((size_t)K * sizeof(uint16_t *));
        if (margin == NULL || item == NULL || row == NULL)
            lost = 1;
    }
    if (first * d * 65535 < ((int64_t)1 << 31)) {
        narrow = malloc((size_t)((k + 1) * d) * sizeof(int32_t));
        lost |= narrow == NULL;
    }
    int made = -1; /* alloc_work's answer: 1 when halted, the work space freed */
    if (!lost && at_center != NULL && at_point != NULL && bound != NULL && seen != NULL && held != NULL &&
        rank != NULL && mass != NULL)
        made = alloc_work(&w, ground, K, d, &h);
    if (made < 0) {
        lost = 1;
    } else if (made == 0) {
        int64_t total = -1;
        size_t used = 0;
        int halt = 0;
        for (Py_ssize_t c = 0; c < k && error == NULL && !(halt = halted(&h)); c++) {
            int64_t m = hold(&w, centers + c * K, rank + used, mass + used, &held[c].n);
            held[c].rank = rank + used;
            held[c].mass = mass + used;
            used += (size_t)held[c].n;
            if (total >= 0 && m != total)
                error = "transport_rows: every point and center must hold the same total mass";
            total = m;
            weighted_sum(&w, held[c], ground, at_center + c * d);
            if (narrow && error == NULL)
                for (Py_ssize_t e = 0; e < d; e++)
                    narrow[c * d + e] = (int32_t)at_center[c * d + e];
            if (margin && error == NULL)
                marginals(&w, held[c], ground, total, item, row, margin + c * samples);
        }
        Held at = {0, rank + used, mass + used}; /* the point's */
        double most = 0;
        for (Py_ssize_t c = 0; c < k; c++)
            most = drift[c] > most ? drift[c] : most;
        for (Py_ssize_t i = 0; i < n && error == NULL && !halt && !(halt = halted(&h)); i++) {
            if (hold(&w, points + i * K, rank + used, mass + used, &at.n) != total) {
                error = "transport_rows: every point and center must hold the same total mass";
                break;
            }
            Py_ssize_t arg = labels[i] < k ? labels[i] : k;
            uint64_t best = UINT64_MAX;
            if (arg < k) {
                best = emd(&w, at, held[arg]);
                double bound = lower[i] - most;
                if ((double)best < (bound > half[arg] ? bound : half[arg])) {
                    dists[i] = best;
                    lower[i] = bound;
                    continue;
                }
            }
            weighted_sum(&w, at, ground, at_point);
            if (narrow) {
                for (Py_ssize_t e = 0; e < d; e++)
                    narrow[k * d + e] = (int32_t)at_point[e];
                bounds32(narrow + k * d, narrow, k, d, bound);
            } else {
                bounds(at_point, at_center, k, d, bound);
            }
            if (arg == k) { /* no label: the center of the least bound first */
                arg = 0;
                for (Py_ssize_t c = 1; c < k; c++)
                    arg = bound[c] < bound[arg] ? c : arg;
                best = emd(&w, at, held[arg]);
            }
            /* The others whose bounds do not rule them out, by bound (then index): they are few. */
            double others = HUGE_VAL; /* a lower bound of the distance to every center but the best */
            size_t left = 0;
            for (Py_ssize_t c = 0; c < k; c++) {
                if (c == arg)
                    continue;
                if (bound[c] < best || (bound[c] == best && c < arg)) {
                    seen[left].bound = bound[c];
                    seen[left++].center = (int)c;
                } else {
                    others = (double)bound[c] < others ? (double)bound[c] : others;
                }
            }
            if (left > 32) {
                qsort(seen, left, sizeof(Candidate), by_bound);
            } else {
                for (size_t x = 1; x < left; x++) {
                    Candidate it = seen[x];
                    size_t y = x;
                    for (; y > 0 && seen[y - 1].bound > it.bound; y--)
                        seen[y] = seen[y - 1];
                    seen[y] = it;
                }
            }
            int marked = 0; /* the point's marginals are in, at the end of margin */
            for (size_t y = 0; y < left; y++) {
                Py_ssize_t c = seen[y].center;
                if (bound[c] > best || (bound[c] == best && c > arg)) { /* and so every one after it */
                    others = (double)bound[c] < others ? (double)bound[c] : others;
                    break;
                }
                if (margin) { /* a second, tighter bound first */
                    if (!marked) {
                        marginals(&w, at, ground, total, item, row, margin + k * samples);
                        marked = 1;
                    }
                    uint64_t m = marginal_bound(margin + k * samples, margin + c * samples, samples);
                    if (m > best || (m == best && c > arg)) {
                        others = (double)m < others ? (double)m : others;
                        continue;
                    }
                }
                if ((halt = halted(&h)))
                    break; /* the row is left as it was */
                uint64_t s = emd(&w, at, held[c]);
                if (s < best || (s == best && c < arg)) {
                    others = (double)best < others ? (double)best : others;
                    best = s;
                    arg = c;
                } else {
                    others = (double)s < others ? (double)s : others;
                }
            }
            if (halt)
                break;
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
    free(held);
    free(rank);
    free(mass);
    free(margin);
    free(narrow);
    free(item);
    free(row);
    Py_END_ALLOW_THREADS
    if (lost)
        return release_args(&bufs, NULL, PyErr_NoMemory());
    if (h.raised)
        return release_args(&bufs, NULL, NULL);
    return release_args(&bufs, error, error == NULL ? Py_NewRef(Py_None) : NULL);
}
