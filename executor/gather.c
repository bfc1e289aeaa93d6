/*
 * gather.c — Gather (issue 7): the root pipeline scan → FILTER/PROJECT →
 * client, optionally under a LIMIT, on the leader plus worker threads.
 *
 * parallel.c runs pipelines that end in an aggregate or a sort; a pipeline
 * whose rows go straight to the client (ClickBench Q19, `SELECT UserID FROM
 * hits WHERE UserID = ...`) would otherwise stream the whole column on one
 * core. As in PostgreSQL's Gather, the leader's scan is shared in morsels
 * (store_scan_share) and each worker runs its own copy of the scan and of
 * the FILTER/PROJECT operators below the LIMIT (parallel.c's helpers: own
 * arena, scratch arenas, compiled programs). A worker copies the rows that
 * survive into a batch of its own (a slot: owned vectors, strings copied
 * into the slot's arena), fills it up to VEC_CAPACITY rows across input
 * batches, and queues it; the leader, which also runs its own copy, takes
 * the queued batches first (keeping the workers busy), its own when the
 * queue is empty, and hands each one on to the pipeline's LIMIT and the
 * client. Rows come out in no fixed order, as from PostgreSQL's Gather.
 *
 * The queue is bounded: each worker owns GATHER_SLOTS slots; a worker with
 * none free waits until the leader has sent one on (a slow client stops
 * the workers instead of filling memory). Whole
 * batches move: one mutex, taken once per batch on either side, never
 * per row. The Gather is the pipeline's source operator (p->gather), so
 * portal suspension works as for any source: the batch last returned stays
 * valid until the next call. While the portal is suspended (a cursor, an
 * Execute with a row limit) the workers are parked (exec__gather_pause
 * returns once each waits): the session may run other statements of its
 * transaction meanwhile, writes to the same table included, and no thread
 * of this query may read storage then (PostgreSQL runs such portals
 * without workers at all).
 *
 * Ending: when the pipeline finishes (every thread out of morsels, or a
 * LIMIT satisfied) or is closed (portal closed, error), exec__gather_end
 * sets the abort flag, wakes and joins the workers, adds their EXPLAIN
 * ANALYZE counters, ends their scan clones and frees their memory. Errors:
 * a worker keeps its first error and raises the failure flag; the leader,
 * at its next batch, joins everyone and raises that error as its own.
 * Cancel and statement_timeout reach the workers through the session's
 * interrupt flag; the leader waits for the queue in GATHER_WAIT_MS steps
 * and checks its own between them.
 *
 * When (exec__gather_begin, at the pipeline's first run): a plain scan
 * (not a primary-key point lookup) of a table of at least
 * EXEC_PAR_MIN_ROWS row versions (smaller tables keep one thread and
 * their physical order), expressions safe on any thread, the
 * portal's top-level run, and PostgreSQL's cost model saying it pays
 * (gather_pays: the rows passed to the leader are few next to the rows
 * read; a small LIMIT stays on one thread).
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include "common/error.h"

/* Batches in flight per worker: one being filled, the rest queued or
 * being sent, so a worker seldom waits while the leader sends one (not
 * tuned: Q19 queues one batch in all; memory per slot is its rows). */
#define GATHER_SLOTS 4
/* How long the leader sleeps on an empty queue between interrupt checks. */
#define GATHER_WAIT_MS 10

typedef struct Gather Gather;
typedef struct GatherWorker GatherWorker;

/* One batch of a worker's surviving rows, owned vectors (count ≤ VEC_CAPACITY, no selection). */
typedef struct GatherSlot {
    struct GatherSlot *next;  /* in the ready queue or its owner's free list */
    GatherWorker *owner;
    Batch *batch;             /* NULL until first used (created on the worker's thread) */
    MemArena *strings;        /* the string bytes of batch, reset with it */
} GatherSlot;

struct GatherWorker {
    Gather *g;
    ExecQuery q;              /* own arena and scratch arenas */
    ExecOp *scan;             /* clone of the leader's scan, sharing its morsels */
    ExecOp **ops;             /* FILTER/PROJECT below the LIMIT */
    int nops;
    GatherSlot slots[GATHER_SLOTS];
    GatherSlot *free;         /* guarded by g->mu */
    GatherSlot *cur;          /* being filled (the worker's only) */
    pthread_cond_t free_cv;   /* a slot came back, resume, or abort */
    pthread_t thread;
    bool started;             /* running or not yet joined */
    bool launched;            /* its thread ran */
    bool failed;
    ErrorData error;          /* the worker's first error */
};

struct Gather {
    pthread_mutex_t mu;
    pthread_cond_t ready_cv;  /* a slot was queued, or a worker ended */
    GatherSlot *head, *tail;  /* ready queue (mu) */
    atomic_int nready;        /* its length, read without the lock */
    int running;              /* workers not yet ended (mu) */
    int idle;                 /* of those, waiting for a slot or parked (mu) */
    atomic_int pause;         /* portal suspended: park before the next morsel batch */
    atomic_int abort;         /* stop taking morsels */
    atomic_int failed;        /* a worker met an error */
    ExecParEnv *env;
    int nworkers;
    GatherWorker *workers;
    ExecOp *scan;             /* the leader's own copy */
    ExecOp **ops;
    int nops;
    const PlanNode *stats_node; /* the scan's: EXPLAIN ANALYZE's workers= */
    GatherSlot *held;         /* returned by the last next(), given back at the next */
    bool leader_done;         /* the leader's scan is out of morsels */
    bool ended;
};

/* ---------- the queue ---------- */

static void slot_reset(GatherSlot *s)
{
    Batch *b = s->batch;
    b->count = 0;
    b->sel = NULL;
    for (int c = 0; c < b->ncols; c++) {
        b->cols[c].validity = NULL;
        b->cols[c].is_const = false;
    }
    mem_arena_reset(s->strings);
}

/* A free slot of w's (waiting for the leader to give one back), empty and
 * shaped like b; NULL when the Gather is aborting. */
static GatherSlot *slot_take(GatherWorker *w, const Batch *b)
{
    Gather *g = w->g;
    pthread_mutex_lock(&g->mu);
    while (w->free == NULL && !atomic_load(&g->abort)) {
        g->idle++;
        pthread_cond_signal(&g->ready_cv);   /* a pausing leader counts it */
        pthread_cond_wait(&w->free_cv, &g->mu);
        g->idle--;
    }
    GatherSlot *s = w->free;
    if (s != NULL && !atomic_load(&g->abort))
        w->free = s->next;
    else
        s = NULL;
    pthread_mutex_unlock(&g->mu);
    if (s == NULL)
        return NULL;
    if (s->batch == NULL) {   /* first use: in the worker's own arena, on its thread */
        SqlType *types = MEM_NEW_ARRAY(w->q.arena, SqlType, b->ncols > 0 ? b->ncols : 1);
        for (int c = 0; c < b->ncols; c++)
            types[c] = b->cols[c].type;
        s->batch = batch_create(w->q.arena, b->ncols, types);
        s->strings = mem_arena_create("gather slot");
    } else {
        slot_reset(s);
    }
    return s;
}

static void slot_push(Gather *g, GatherSlot *s)
{
    s->next = NULL;
    pthread_mutex_lock(&g->mu);
    if (g->tail)
        g->tail->next = s;
    else
        g->head = s;
    g->tail = s;
    atomic_fetch_add(&g->nready, 1);
    pthread_cond_signal(&g->ready_cv);
    pthread_mutex_unlock(&g->mu);
}

/* Under g->mu: give the held slot back to its worker; take the oldest
 * ready slot (NULL: none). */
static GatherSlot *queue_swap_locked(Gather *g)
{
    GatherSlot *h = g->held;
    if (h != NULL) {
        h->next = h->owner->free;
        h->owner->free = h;
        pthread_cond_signal(&h->owner->free_cv);
        g->held = NULL;
    }
    GatherSlot *s = g->head;
    if (s != NULL) {
        g->head = s->next;
        if (g->head == NULL)
            g->tail = NULL;
        atomic_fetch_sub(&g->nready, 1);
    }
    return s;
}

static GatherSlot *queue_swap(Gather *g)
{
    pthread_mutex_lock(&g->mu);
    GatherSlot *s = queue_swap_locked(g);
    pthread_mutex_unlock(&g->mu);
    return s;
}

/* The leader, out of morsels: the next ready slot, waiting for one while a
 * worker runs (interrupts checked between waits); NULL when every worker
 * ended with nothing queued, or one failed. */
static GatherSlot *queue_wait(Gather *g)
{
    for (;;) {
        pthread_mutex_lock(&g->mu);
        GatherSlot *s = queue_swap_locked(g);
        if (s == NULL && g->running > 0 && !atomic_load(&g->failed)) {
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_nsec += GATHER_WAIT_MS * 1000000L;
            if (until.tv_nsec >= 1000000000L) {
                until.tv_sec++;
                until.tv_nsec -= 1000000000L;
            }
            pthread_cond_timedwait(&g->ready_cv, &g->mu, &until);
            s = queue_swap_locked(g);
        }
        bool over = g->running == 0 || atomic_load(&g->failed);
        pthread_mutex_unlock(&g->mu);
        if (s != NULL || over)
            return s;
        err_check_interrupts();
    }
}

/* ---------- copying surviving rows ---------- */

/* The string bytes of rows [from, from + n) of v into arena: one
 * allocation for the lot (NULL rows keep no bytes). */
static void copy_strings(Vector *v, uint32_t from, uint32_t n, MemArena *arena)
{
    StrRef *s = v->data;
    const uint64_t *valid = exec__validity(v);
    size_t total = 0;
    for (uint32_t i = from; i < from + n; i++)
        total += exec__bit(valid, i) ? s[i].len : 0;
    char *buf = total > 0 ? mem_alloc(arena, total) : NULL;
    for (uint32_t i = from; i < from + n; i++) {
        if (!exec__bit(valid, i) || s[i].len == 0) {
            s[i] = (StrRef){"", 0};
            continue;
        }
        memcpy(buf, s[i].ptr, s[i].len);
        s[i].ptr = buf;
        buf += s[i].len;
    }
}

/* Append b's active rows to slot s (room checked by the caller). */
static void slot_append(GatherSlot *s, const Batch *b)
{
    Batch *d = s->batch;
    const uint16_t *src = b->sel ? b->sel : exec__identity_sel;
    const uint16_t *dst = exec__identity_sel + d->count;
    ERR_ASSERT(b->ncols == d->ncols);
    for (int c = 0; c < d->ncols; c++) {
        ERR_ASSERT(b->cols[c].phys == d->cols[c].phys);   /* per batch, not per row */
        exec__vec_copy_rows(&b->cols[c], src, &d->cols[c], dst, b->count);
        if (d->cols[c].phys == PHYS_STR)
            copy_strings(&d->cols[c], d->count, b->count, s->strings);
    }
    d->count += b->count;
}

/* ---------- the workers ---------- */

/* Queue b's rows (through w's current slot). false: aborting. */
static bool worker_put(GatherWorker *w, const Batch *b)
{
    if (w->cur != NULL && w->cur->batch->count + b->count > VEC_CAPACITY) {
        slot_push(w->g, w->cur);
        w->cur = NULL;
    }
    if (w->cur == NULL && (w->cur = slot_take(w, b)) == NULL)
        return false;
    slot_append(w->cur, b);
    if (w->cur->batch->count == VEC_CAPACITY) {
        slot_push(w->g, w->cur);
        w->cur = NULL;
    }
    return true;
}

/* The next batch of scan → ops on this thread with rows in it (*out), or
 * false when the scan is out of morsels. */
static bool part_next(ExecOp *scan, ExecOp **ops, int nops, Batch **out)
{
    bool meas = scan->q->shared->stats != NULL;
    for (;;) {
        Batch *b;
        double t0 = meas ? exec__par_now_ms() : 0;
        bool got = scan->next(scan, &b);
        exec__par_account(scan, got ? b : NULL, t0);   /* the last call may read many groups */
        if (!got)
            return false;
        err_check_interrupts();
        for (int i = 0; i < nops && b != NULL && b->count > 0; i++) {
            Batch *o = NULL;
            t0 = meas ? exec__par_now_ms() : 0;
            ExecOpResult res = ops[i]->execute(ops[i], b, &o);
            exec__par_account(ops[i], o, t0);
            ERR_ASSERT(res == EXEC_NEED_INPUT);
            b = o;
        }
        if (b != NULL && b->count > 0) {
            *out = b;
            return true;
        }
    }
}

/* While the portal is suspended, wait: the session may run other
 * statements of its transaction meanwhile (even write the table), and
 * nothing of this query may read storage then. */
static void worker_park(GatherWorker *w)
{
    Gather *g = w->g;
    pthread_mutex_lock(&g->mu);
    g->idle++;
    pthread_cond_signal(&g->ready_cv);
    while (atomic_load(&g->pause) && !atomic_load(&g->abort))
        pthread_cond_wait(&w->free_cv, &g->mu);
    g->idle--;
    pthread_mutex_unlock(&g->mu);
}

static void worker_drive(GatherWorker *w)
{
    Batch *b;
    for (;;) {
        if (atomic_load_explicit(&w->g->pause, memory_order_relaxed))
            worker_park(w);
        if (atomic_load_explicit(&w->g->abort, memory_order_relaxed) || !part_next(w->scan, w->ops, w->nops, &b))
            break;
        if (!worker_put(w, b))
            return;
    }
    if (w->cur != NULL && w->cur->batch->count > 0) {
        slot_push(w->g, w->cur);
        w->cur = NULL;
    }
}

static void *worker_main(void *arg)
{
    GatherWorker *w = arg;
    Gather *g = w->g;
    exec__par_env_enter(g->env);
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        worker_drive(w);
        err_pop(&jmp);
    } else {
        w->error = *err_current();
        w->failed = true;
        err_clear();
        atomic_store(&g->abort, 1);
        atomic_store(&g->failed, 1);
    }
    pthread_mutex_lock(&g->mu);
    g->running--;
    pthread_cond_signal(&g->ready_cv);
    pthread_mutex_unlock(&g->mu);
    return NULL;
}

/* Build worker w's copy of scan → ops[0..nops) (on the leader's thread). */
static void worker_init(Gather *g, GatherWorker *w, ExecOp *scan, ExecOp *const *ops, int nops)
{
    w->g = g;
    for (int i = GATHER_SLOTS - 1; i >= 0; i--) {
        w->slots[i].owner = w;
        w->slots[i].next = w->free;
        w->free = &w->slots[i];
    }
    exec__par_query_init(&w->q, scan->q);
    w->ops = MEM_NEW_ARRAY(w->q.arena, ExecOp *, nops > 0 ? nops : 1);
    w->scan = exec__op_scan_clone(&w->q, scan, true);
    for (int i = 0; i < nops; i++) {
        const PlanNode *n = ops[i]->node;
        w->ops[i] = n->kind == PLAN_FILTER ? exec__op_filter(&w->q, n) : exec__op_project(&w->q, n);
        w->nops = i + 1;
    }
}

static void op_close(ExecOp *op)
{
    if (op && op->close) {
        void (*fn)(ExecOp *) = op->close;
        op->close = NULL;
        fn(op);
    }
}

/* Close a joined worker's operators (its scan clone ends) and free its memory. */
static void worker_destroy(GatherWorker *w)
{
    if (w->q.arena == NULL)
        return;
    op_close(w->scan);
    for (int i = 0; i < w->nops; i++)
        op_close(w->ops[i]);
    for (int i = 0; i < GATHER_SLOTS; i++)
        if (w->slots[i].strings)
            mem_arena_destroy(w->slots[i].strings);
    exec__par_query_destroy(&w->q);
}

/* Abort and join every worker (their EXPLAIN ANALYZE counters added to the leader's). */
static void workers_join(Gather *g)
{
    pthread_mutex_lock(&g->mu);
    atomic_store(&g->abort, 1);
    for (int i = 0; i < g->nworkers; i++)
        pthread_cond_broadcast(&g->workers[i].free_cv);
    pthread_mutex_unlock(&g->mu);
    const ExecShared *leader = g->scan->q->shared;
    int id = g->stats_node->node_id;
    PlanNodeStats *ps = leader->stats && id >= 0 && id < leader->nstats ? &leader->stats[id] : NULL;
    for (int i = 0; i < g->nworkers; i++) {
        GatherWorker *w = &g->workers[i];
        if (!w->started)
            continue;
        pthread_join(w->thread, NULL);
        w->started = false;
        ExecOp *ops[EXEC_MAX_OPS + 1] = {w->scan};
        for (int k = 0; k < w->nops; k++)
            ops[k + 1] = w->ops[k];
        exec__par_stats_add(w->q.shared, ops, w->nops + 1, leader);
        if (ps) {
            ps->workers++;
            ps->parallel_mode = "gather";
        }
    }
}

void exec__gather_end(ExecOp *op)
{
    Gather *g = op->state;
    if (g->ended)
        return;
    g->ended = true;
    workers_join(g);
    for (int i = 0; i < g->nworkers; i++) {
        worker_destroy(&g->workers[i]);
        pthread_cond_destroy(&g->workers[i].free_cv);
    }
    g->held = NULL;
    pthread_cond_destroy(&g->ready_cv);
    pthread_mutex_destroy(&g->mu);
}

/* A worker failed: join everyone and raise its error as the leader's. */
static void raise_worker_error(Gather *g)
{
    workers_join(g);
    for (int i = 0; i < g->nworkers; i++) {
        GatherWorker *w = &g->workers[i];
        if (w->failed) {
            ErrorData *e = err_begin(w->error.sqlstate);
            *e = w->error;
            err_throw();
        }
    }
}

/* ---------- the leader: the pipeline's source ---------- */

void exec__gather_pause(ExecOp *op)
{
    Gather *g = op->state;
    if (g->ended)
        return;
    atomic_store(&g->pause, 1);
    pthread_mutex_lock(&g->mu);
    while (g->idle < g->running)
        pthread_cond_wait(&g->ready_cv, &g->mu);
    pthread_mutex_unlock(&g->mu);
}

static void gather_resume(Gather *g)
{
    pthread_mutex_lock(&g->mu);
    atomic_store(&g->pause, 0);
    for (int i = 0; i < g->nworkers; i++)
        pthread_cond_broadcast(&g->workers[i].free_cv);
    pthread_mutex_unlock(&g->mu);
}

static bool gather_next(ExecOp *op, Batch **out)
{
    Gather *g = op->state;
    if (atomic_load_explicit(&g->pause, memory_order_relaxed))
        gather_resume(g);
    for (;;) {
        if (atomic_load(&g->failed))
            raise_worker_error(g);
        GatherSlot *s = NULL;
        if (g->leader_done)
            s = queue_wait(g);
        else if (g->held != NULL || atomic_load_explicit(&g->nready, memory_order_relaxed) > 0)
            s = queue_swap(g);   /* the workers' batches first: they wait for their slots */
        if (s != NULL) {
            g->held = s;
            *out = s->batch;
            return true;
        }
        if (g->leader_done) {
            if (atomic_load(&g->failed))
                continue;
            return false;   /* pipe_finish ends the Gather */
        }
        if (part_next(g->scan, g->ops, g->nops, out))
            return true;
        g->leader_done = true;
    }
}

/* PostgreSQL's defaults for costing a Gather (costsize.c): starting the
 * workers, passing one row from a worker to the leader, and a sequential
 * scan's CPU per row read (cpu_tuple_cost + one qual's cpu_operator_cost). */
#define PG_PARALLEL_SETUP_COST 1000.0
#define PG_PARALLEL_TUPLE_COST 0.1
#define PG_SCAN_ROW_COST 0.0125

/*
 * Whether a Gather pays, by PostgreSQL's cost model: the scan's CPU is
 * shared by the leader and the workers (PostgreSQL's parallel divisor:
 * each worker counts 1, the leader 1 - 0.3 per worker), against starting
 * the workers and passing every row that leaves them. With a LIMIT, the
 * rows read are those the planner expects it to need (offset + limit over
 * the estimated share of rows passing ops[0..k)), the rows passed at most
 * offset + limit. So a scan that keeps most of a big table goes on one
 * thread — sending the rows is the leader's work either way, and the copy
 * into the queue would only add to it — as does a small LIMIT; a
 * selective filter over a big table (ClickBench Q19: 1 row of 10M) gathers.
 */
static bool gather_pays(const ExecPipeline *p, int k, uint64_t rows, int nworkers)
{
    const PlanNode *below = k > 0 ? p->ops[k - 1]->node : p->source->node;
    double est = below->est_rows >= 1 ? below->est_rows : 1;
    double reads = (double)rows, passed = est;
    int64_t total = k < p->nops ? exec__limit_total(p->ops[k]) : -1;
    if (total >= 0) {
        double need = (double)total * (double)rows / est;
        reads = need < reads ? need : reads;
        passed = (double)total < passed ? (double)total : passed;
    }
    double leader = 1.0 - 0.3 * nworkers;
    double divisor = nworkers + (leader > 0 ? leader : 0);
    return reads >= (double)EXEC_PAR_MIN_ROWS &&
           PG_PARALLEL_SETUP_COST + PG_PARALLEL_TUPLE_COST * passed < PG_SCAN_ROW_COST * reads * (1.0 - 1.0 / divisor);
}

/* How many leading ops run on every thread (FILTER/PROJECT up to the
 * first LIMIT); -1 when p does not qualify. */
static int parallel_prefix(const ExecPipeline *p)
{
    int k = 0;
    while (k < p->nops && (p->ops[k]->node->kind == PLAN_FILTER || p->ops[k]->node->kind == PLAN_PROJECT))
        k++;
    if (!exec__par_input_ok(p, k))
        return -1;
    for (int i = k; i < p->nops; i++)
        if (p->ops[i]->node->kind != PLAN_LIMIT && !exec__par_op_safe(p->ops[i]))
            return -1;
    return k;
}

/* The Gather source in place of p's scan and ops[0..k). */
static void gather_install(ExecPipeline *p, Gather *g, int k)
{
    ExecQuery *q = p->source->q;
    const PlanNode *top = k > 0 ? p->ops[k - 1]->node : p->source->node;
    g->stats_node = p->source->node;
    PlanNode *gn = MEM_NEW(q->arena, PlanNode);
    *gn = *top;
    gn->node_id = -1;   /* its rows are counted by the operators it runs */
    ExecOp *op = exec__op_new(q, gn, 0);
    op->state = g;
    op->next = gather_next;
    op->pipe = p;
    g->scan = p->source;
    g->nops = k;
    g->ops = MEM_NEW_ARRAY(q->arena, ExecOp *, k > 0 ? k : 1);
    for (int i = 0; i < k; i++)
        g->ops[i] = p->ops[i];
    memmove(p->ops, p->ops + k, sizeof(ExecOp *) * (size_t)(p->nops - k));
    p->nops -= k;
    p->source = op;
    p->gather = op;
}

/* Whether e (a conjunct, or an AND of them) has `column = ...` on the
 * scan column reading table column col. */
static bool fixes_column(const PlanNode *n, const Expr *e, int col)
{
    if (e->kind == EXPR_AND) {
        for (int i = 0; i < e->nargs; i++)
            if (fixes_column(n, e->args[i], col))
                return true;
        return false;
    }
    if (e->kind != EXPR_FUNC || e->func == NULL || e->nargs != 2 || strcmp(e->func->name, "=") != 0)
        return false;
    for (int i = 0; i < 2; i++) {
        const Expr *a = e->args[i];
        if (a->kind == EXPR_COLUMN && a->index >= 0 && a->index < n->ncols && n->scan_cols[a->index] == col)
            return true;
    }
    return false;
}

/* Whether op_scan.c may have made scan n a primary-key point lookup
 * (every key column fixed by `=`): a superset of its test. */
static bool may_be_lookup(const PlanNode *n)
{
    int npk = store_table_npkey(n->table);
    const int *pk = store_table_pkey(n->table);
    if (npk == 0 || n->scan_filter == NULL)
        return false;
    for (int k = 0; k < npk; k++)
        if (!fixes_column(n, n->scan_filter, pk[k]))
            return false;
    return true;
}

/* The rows the scan may read, as PostgreSQL sizes a parallel scan by its
 * table (min_parallel_table_scan_size): the table's row versions, not
 * what its zone maps let through — counting that walks every row group's
 * zone map, a chain of cache misses (ClickBench Q19: 4,883 groups, 0.2 to
 * 1 ms, 9 % of the query's CPU time in perf, against 0.8 % when the scan
 * checks them between its batches). 0 for a point lookup (op_scan.c). */
static uint64_t scan_rows(const ExecOp *scan)
{
    const PlanNode *n = scan->node;
    uint64_t rows = store_table_row_count(n->table, scan->q->txn);
    if (rows >= EXEC_PAR_MIN_ROWS && may_be_lookup(n))
        return exec__scan_parallel_rows(scan);   /* 0 for a lookup, at once */
    return rows;
}

void exec__gather_begin(ExecPipeline *p)
{
    if (p->sink != NULL || p->gather != NULL || p->source == NULL || p->source->node->kind != PLAN_SCAN)
        return;
    int k = parallel_prefix(p);
    if (k < 0)
        return;
    int nworkers = exec__par_workers();
    uint64_t rows = nworkers > 0 ? scan_rows(p->source) : 0;
    if (rows < EXEC_PAR_MIN_ROWS || !gather_pays(p, k, rows, nworkers))
        return;
    ExecQuery *q = p->source->q;
    Gather *g = MEM_NEW(q->arena, Gather);
    pthread_mutex_init(&g->mu, NULL);
    pthread_cond_init(&g->ready_cv, NULL);
    atomic_init(&g->nready, 0);
    atomic_init(&g->pause, 0);
    atomic_init(&g->abort, 0);
    atomic_init(&g->failed, 0);
    g->env = exec__par_env_save(q->arena);
    g->workers = MEM_NEW_ARRAY(q->arena, GatherWorker, nworkers);
    exec__scan_share(p->source);
    gather_install(p, g, k);   /* from here exec__gather_end cleans up */
    for (int i = 0; i < nworkers; i++)
        pthread_cond_init(&g->workers[i].free_cv, NULL);
    g->nworkers = nworkers;
    for (int i = 0; i < nworkers; i++) {
        GatherWorker *w = &g->workers[i];
        worker_init(g, w, g->scan, g->ops, k);
        pthread_mutex_lock(&g->mu);
        g->running++;
        pthread_mutex_unlock(&g->mu);
        if (pthread_create(&w->thread, NULL, worker_main, w) != 0) {
            pthread_mutex_lock(&g->mu);
            g->running--;
            pthread_mutex_unlock(&g->mu);
            continue;   /* fewer threads: the others take its morsels */
        }
        w->started = w->launched = true;
    }
}
