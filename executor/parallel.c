/*
 * parallel.c — morsel-driven parallelism (issue 7): a pipeline
 * scan → filter/project → hash aggregate or sort runs on several threads
 * at once.
 *
 * The leader (the session's thread) shares its scan (store_scan_share):
 * from then on every scan of the pipeline takes its rows 64K at a time from
 * one counter, so fast threads simply take more morsels (Leis et al.,
 * "Morsel-driven parallelism", SIGMOD 2014). Each worker thread gets a copy
 * of the pipeline built from the same plan nodes in an arena of its own: a
 * clone of the scan (same snapshot, same run reference), its own filter,
 * project and aggregate operators — expression programs, scratch arenas
 * and group table included — so nothing in the data path is shared and
 * nothing is locked per row or per batch. The leader drives its own copy
 * the same way. At the end the leader joins the workers and folds each
 * worker's groups into its aggregate (exec__agg_merge, op_agg.c) or feeds
 * each worker's sorted rows — under a LIMIT only its top N — into its sort
 * (exec__sort_merge, op_sort.c); the sink then finalises and feeds the
 * next pipeline exactly as on one thread.
 *
 * What runs in parallel (exec__parallel_run decides per pipeline, at its
 * start): a plain table scan (not a point lookup, not the metadata summary
 * mode) of at least PAR_MIN_ROWS rows; only FILTER and PROJECT between it
 * and a PLAN_SORT or a PLAN_AGG whose aggregates merge exactly (op_agg.c:
 * no float sums, registry aggregates or ORDER BY inside a call; rows equal
 * on every sort key come out in no fixed order, as from PostgreSQL's
 * parallel sorts); expressions without
 * subqueries, outer references or volatile/stable functions; the portal's
 * top-level run (not a re-run subtree); not under EXPLAIN ANALYZE (its
 * per-node counters are not shared between threads). Threads:
 * max_parallel_workers_per_gather workers (PostgreSQL's setting, default
 * 2; 0 turns this off), at most one fewer than the machine's processors
 * (but one on a one-processor machine, so every machine runs this code),
 * plus the leader.
 *
 * Errors: a worker runs under its own handler, keeps the first error it
 * meets and raises the shared abort flag, which makes every thread stop
 * taking morsels; the leader, after joining, raises that error as its own.
 * If the leader itself fails, it stops and joins the workers before its
 * error travels on. Cancel and statement_timeout reach the workers through
 * the session's interrupt flag; the session's date/time settings and
 * catalog session are copied onto each worker thread.
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"
#include "executor/catalog.h"

#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>
#include "common/datetime.h"
#include "common/error.h"
#include "common/guc.h"

/* Below two morsels there is nothing to share. */
#define PAR_MIN_ROWS (UINT64_C(2) * 64 * 1024)
#define PAR_MAX_WORKERS 64

typedef struct ParRun ParRun;

typedef struct ParWorker {
    ParRun *run;
    ExecQuery q;              /* own arena and scratch arenas */
    ExecPipeline pipe;        /* clone of the pipeline: source, ops, sink */
    pthread_t thread;
    bool started;
    bool failed;
    ErrorData error;          /* the worker's first error */
} ParWorker;

struct ParRun {
    atomic_int abort;         /* set by the first failure: stop taking morsels */
    atomic_int *interrupt;    /* the session's cancel / timeout flag */
    DateTimeThreadState dt;
    ExecSession *session;
    int nworkers;
    ParWorker *workers;
};

/* ---------- eligibility ---------- */

/* Whether e can be evaluated on any thread with the same result. */
static bool expr_parallel_safe(const Expr *e)
{
    if (e == NULL)
        return true;
    switch (e->kind) {
    case EXPR_SUBPLAN: case EXPR_OUTER_REF: case EXPR_SRF:
        return false;
    case EXPR_FUNC:
        if (e->func == NULL || (e->func->flags & (FUNC_VOLATILE | FUNC_STABLE)))
            return false;
        break;
    default:
        break;
    }
    for (int i = 0; i < e->nargs; i++)
        if (!expr_parallel_safe(e->args[i]))
            return false;
    return true;
}

static bool exprs_parallel_safe(Expr *const *es, int n)
{
    for (int i = 0; i < n; i++)
        if (!expr_parallel_safe(es[i]))
            return false;
    return true;
}

static bool agg_exprs_safe(const PlanNode *n)
{
    if (!exprs_parallel_safe(n->group_exprs, n->ngroups))
        return false;
    for (int a = 0; a < n->naggs; a++) {
        const AggCall *c = &n->aggs[a];
        if (!expr_parallel_safe(c->arg) || !expr_parallel_safe(c->filter) ||
            !expr_parallel_safe(c->direct_arg) || !exprs_parallel_safe(c->args, c->nargs))
            return false;
    }
    return true;
}

/* Whether the pipeline's shape, plan and expressions allow it. */
static bool pipe_parallel_shape(const ExecPipeline *p)
{
    if (p->source == NULL || p->sink == NULL || p->source->node->kind != PLAN_SCAN ||
        (p->sink->node->kind != PLAN_AGG && p->sink->node->kind != PLAN_SORT))
        return false;
    const ExecQuery *q = p->source->q;
    if (q->shared == NULL || q->shared->stats != NULL || q->shared->main != q || q->nouter > 0)
        return false;
    const PlanNode *scan = p->source->node;
    if (!expr_parallel_safe(scan->scan_filter))
        return false;
    for (int i = 0; i < p->nops; i++) {
        const PlanNode *n = p->ops[i]->node;
        if (n->kind == PLAN_FILTER ? !expr_parallel_safe(n->predicate)
            : n->kind == PLAN_PROJECT ? !exprs_parallel_safe(n->exprs, n->ncols)
            : true)
            return false;
    }
    if (p->sink->node->kind == PLAN_SORT)
        return true;   /* sort keys are input columns */
    return exec__agg_parallel_ok(p->sink->node) && agg_exprs_safe(p->sink->node);
}

/* Workers to start: the setting, bounded by the machine (one processor is the leader's). */
static int workers_wanted(void)
{
    static atomic_int ncpu;
    int n = atomic_load_explicit(&ncpu, memory_order_relaxed);
    if (n == 0) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        n = c < 1 ? 1 : c > PAR_MAX_WORKERS + 1 ? PAR_MAX_WORKERS + 1 : (int)c;
        atomic_store_explicit(&ncpu, n, memory_order_relaxed);
    }
    ExecSession *s = exec_catalog_session();
    GucSet *g = s ? exec_session_guc(s) : NULL;
    int want = g ? guc_get_int(g, "max_parallel_workers_per_gather") : 2;
    int cap = n > 2 ? n - 1 : 1;   /* one processor: still one worker (tests reach this code everywhere) */
    return want < cap ? want : cap;
}

/* ---------- the workers ---------- */

/* Run a pipeline copy until its scan runs out of morsels (true), abort, or
 * max_batches source batches (false; UINT64_MAX = no limit); *sunk counts
 * the rows that reached the sink. Only FILTER and PROJECT sit between
 * source and sink: one output per input. */
static bool pipe_drive(ExecPipeline *p, ParRun *r, uint64_t max_batches, uint64_t *sunk)
{
    Batch *b;
    for (uint64_t n = 0; n < max_batches; n++) {
        if (atomic_load_explicit(&r->abort, memory_order_relaxed) || !p->source->next(p->source, &b))
            return true;
        err_check_interrupts();
        for (int i = 0; i < p->nops && b != NULL && b->count > 0; i++) {
            Batch *out = NULL;
            ExecOpResult res = p->ops[i]->execute(p->ops[i], b, &out);
            ERR_ASSERT(res == EXEC_NEED_INPUT);
            b = out;
        }
        if (b != NULL && b->count > 0) {
            p->sink->sink(p->sink, b);
            *sunk += b->count;
        }
    }
    return false;
}

/*
 * Whether an aggregation is worth spreading, judged on its first
 * PAR_SAMPLE_BATCHES row groups, which the leader aggregates alone: the
 * merge folds every worker group (and DISTINCT pair) into the leader's
 * table, so where nearly every row makes a group of its own (ClickBench's
 * Q32: 10M groups in 10M rows) two threads do the grouping twice over, in
 * twice the fresh memory — 1.3 s on one thread became 3.7 s on two. A
 * sample with at most one group (or DISTINCT pair) per PAR_MIN_REDUCTION
 * rows, or with few rows left after the filters, goes parallel (groups
 * grow more slowly than rows, so the whole input reduces at least as well
 * as its sample); the rest of the scan then runs on every thread. true
 * also when the sample ended the scan (nothing is left to share).
 */
#define PAR_SAMPLE_BATCHES 64
#define PAR_MIN_REDUCTION 3
static bool agg_sample(ExecPipeline *p, ParRun *r, bool *parallel)
{
    uint64_t sunk = 0;
    if (pipe_drive(p, r, PAR_SAMPLE_BATCHES, &sunk))
        return true;
    uint64_t groups = exec__agg_groups(p->sink);
    *parallel = sunk < 4 * VEC_CAPACITY || groups * PAR_MIN_REDUCTION <= sunk;
    return false;
}

static void *worker_main(void *arg)
{
    ParWorker *w = arg;
    ParRun *r = w->run;
    err_set_interrupt_flag(r->interrupt);
    datetime_thread_state_restore(&r->dt);
    exec_catalog_set_session(r->session);
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        uint64_t sunk = 0;
        pipe_drive(&w->pipe, r, UINT64_MAX, &sunk);
        err_pop(&jmp);
    } else {
        w->error = *err_current();
        w->failed = true;
        atomic_store_explicit(&r->abort, 1, memory_order_relaxed);
        err_clear();
    }
    return NULL;
}

static void pipe_add(ExecPipeline *p, ExecOp *op)
{
    op->pipe = p;
    p->ops[p->nops++] = op;
}

/* The worker's copy of leader pipeline p, in the worker's own arena. */
static void worker_build(ParWorker *w, const ExecPipeline *p)
{
    const ExecQuery *q = p->source->q;
    ExecQuery *wq = &w->q;
    wq->arena = mem_arena_create("parallel worker");
    wq->txn = q->txn;
    wq->params = q->params;
    wq->nparams = q->nparams;
    ExecShared *sh = MEM_NEW(wq->arena, ExecShared);
    *sh = *q->shared;
    sh->stats = NULL;     /* EXPLAIN ANALYZE never runs in parallel */
    sh->nstats = 0;
    wq->shared = sh;
    w->pipe.stop_level = -1;
    w->pipe.flush_level = -1;
    w->pipe.source = exec__op_scan_clone(wq, p->source);
    for (int i = 0; i < p->nops; i++) {
        const PlanNode *n = p->ops[i]->node;
        pipe_add(&w->pipe, n->kind == PLAN_FILTER ? exec__op_filter(wq, n) : exec__op_project(wq, n));
    }
    w->pipe.sink = p->sink->node->kind == PLAN_AGG ? exec__op_agg(wq, p->sink->node)
                                                   : exec__op_sort_worker(wq, p->sink);
}

static void op_close(ExecOp *op)
{
    if (op && op->close) {
        void (*fn)(ExecOp *) = op->close;
        op->close = NULL;
        fn(op);
    }
}

/* Close a worker's operators and free its memory (after its thread ended). */
static void worker_destroy(ParWorker *w)
{
    if (w->q.arena == NULL)
        return;
    op_close(w->pipe.source);
    for (int i = 0; i < w->pipe.nops; i++)
        op_close(w->pipe.ops[i]);
    op_close(w->pipe.sink);
    for (int i = 0; i < w->q.nscratch; i++)
        mem_arena_destroy(w->q.scratch[i]);
    mem_arena_destroy(w->q.arena);
    w->q.arena = NULL;
}

/* Stop (when aborting), join and free every worker. */
static void workers_finish(ParRun *r, bool abort)
{
    if (abort)
        atomic_store_explicit(&r->abort, 1, memory_order_relaxed);
    for (int i = 0; i < r->nworkers; i++) {
        if (r->workers[i].started) {
            pthread_join(r->workers[i].thread, NULL);
            r->workers[i].started = false;
        }
    }
}

static void workers_destroy(ParRun *r)
{
    for (int i = 0; i < r->nworkers; i++)
        worker_destroy(&r->workers[i]);
}

/* Build and start the workers; drive the leader's own copy; join; merge. */
static void parallel_body(ParRun *r, ExecPipeline *p)
{
    exec__scan_share(p->source);
    uint64_t sunk = 0;
    bool parallel = true;
    if (p->sink->node->kind == PLAN_AGG && agg_sample(p, r, &parallel))
        return;
    if (!parallel) {
        pipe_drive(p, r, UINT64_MAX, &sunk);
        return;
    }
    for (int i = 0; i < r->nworkers; i++) {
        ParWorker *w = &r->workers[i];
        w->run = r;
        worker_build(w, p);
        if (pthread_create(&w->thread, NULL, worker_main, w) != 0)
            break;   /* fewer threads: the leader takes the morsels left */
        w->started = true;
    }
    pipe_drive(p, r, UINT64_MAX, &sunk);
    workers_finish(r, false);
    for (int i = 0; i < r->nworkers; i++) {
        ParWorker *w = &r->workers[i];
        if (w->failed) {
            ErrorData *e = err_begin(w->error.sqlstate);
            *e = w->error;
            err_throw();
        }
    }
    for (int i = 0; i < r->nworkers; i++)
        if (r->workers[i].q.arena) {
            if (p->sink->node->kind == PLAN_AGG)
                exec__agg_merge(p->sink, r->workers[i].pipe.sink);
            else
                exec__sort_merge(p->sink, r->workers[i].pipe.sink);
        }
}

bool exec__parallel_run(ExecPipeline *p)
{
    if (!pipe_parallel_shape(p))
        return false;
    int nworkers = workers_wanted();
    if (nworkers <= 0 || exec__scan_parallel_rows(p->source) < PAR_MIN_ROWS)
        return false;
    ExecQuery *q = p->source->q;
    ParRun *r = MEM_NEW(q->arena, ParRun);
    atomic_init(&r->abort, 0);
    r->interrupt = err_interrupt_flag;
    datetime_thread_state_save(&r->dt);
    r->session = exec_catalog_session();
    r->nworkers = nworkers;
    r->workers = MEM_NEW_ARRAY(q->arena, ParWorker, nworkers);
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        parallel_body(r, p);
        err_pop(&jmp);
    } else {
        workers_finish(r, true);
        workers_destroy(r);
        err_rethrow();
    }
    workers_destroy(r);
    return true;
}
