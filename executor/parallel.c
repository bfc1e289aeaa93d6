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
 * worker's groups into its aggregate (exec__agg_merge, agg_merge.c) or feeds
 * each worker's sorted rows — under a LIMIT only its top N — into its sort
 * (exec__sort_merge, op_sort.c); the sink then finalises and feeds the
 * next pipeline exactly as on one thread.
 *
 * What runs in parallel (exec__parallel_run decides per pipeline, at its
 * start): a plain table scan (not a point lookup, not the metadata summary
 * mode) of at least PAR_MIN_ROWS rows; only FILTER and PROJECT between it
 * and a PLAN_SORT or a PLAN_AGG whose aggregates merge exactly (agg_merge.c:
 * no float sums, registry aggregates or ORDER BY inside a call; rows equal
 * on every sort key come out in no fixed order, as from PostgreSQL's
 * parallel sorts); expressions without
 * subqueries, outer references or volatile/stable functions; the portal's
 * top-level run (not a re-run subtree). Under EXPLAIN ANALYZE each thread
 * counts into counters of its own, added to the leader's after the join.
 * Threads:
 * max_parallel_workers_per_gather workers (PostgreSQL's setting, default
 * 2; 0 turns this off), at most one fewer than the machine's processors
 * (but one on a one-processor machine, so every machine runs this code),
 * plus the leader.
 *
 * An aggregation starts with a sample (agg_sample): where its groups are
 * too many to merge cheaply it runs partitioned instead (run_partitioned:
 * every thread reads everything and keeps the rows of its hash partition
 * of the GROUP BY keys, so no merge is needed).
 *
 * Errors: a worker runs under its own handler, keeps the first error it
 * meets and raises the shared abort flag, which makes every thread stop
 * taking morsels; the leader, after joining, raises that error as its own.
 * If the leader itself fails, it stops and joins the workers before its
 * error travels on. Cancel and statement_timeout reach the workers through
 * the session's interrupt flag; the session's date/time settings and
 * catalog session are copied onto each worker thread.
 *
 * A root pipeline that sends its rows to the client runs in parallel
 * through gather.c instead, which shares the eligibility test, the
 * worker query contexts, the thread set-up and the EXPLAIN ANALYZE
 * accounting defined here (exec__par_*, exec_int.h).
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"
#include "executor/catalog.h"

#include <pthread.h>
#include <string.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>
#include "common/datetime.h"
#include "common/error.h"
#include "common/guc.h"

/* Below four morsels (after zone maps) thread start-up and the sample
 * outweigh what there is to share (ClickBench Q36–Q42 read 100–250 of
 * 5,000 row groups: 15 ms on one thread, 60 ms partitioned on two). */
#define PAR_MIN_ROWS EXEC_PAR_MIN_ROWS
#define PAR_MAX_WORKERS 64

typedef struct ParRun ParRun;

/* Partitioned aggregation: which rows' groups a thread keeps. A row
 * belongs to partition ((hash >> 32) * nparts) >> 32 of its GROUP BY keys'
 * hash (the group table's hash, so equal keys agree); a thread keeps the
 * rows of the partitions marked in `mine`. */
typedef struct ParPart {
    int nparts;
    bool *mine;               /* nparts flags */
    int nkeys;
    ExprProg **keys;
    Vector **keyvec;
    MemArena *scratch;
    uint64_t *hash;
    uint64_t *phash;          /* hash of each row kept, for the aggregate (exec__agg_prehashed) */
    uint16_t *sel;
} ParPart;

typedef struct ParWorker {
    ParRun *run;
    ExecQuery q;              /* own arena and scratch arenas */
    ExecPipeline pipe;        /* clone of the pipeline: source, ops, sink */
    ParPart *part;            /* partitioned aggregation, else NULL */
    pthread_t thread;
    bool started;             /* running or not yet joined */
    bool launched;            /* its thread ran */
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
    bool handed_over;         /* the workers' memory belongs to the aggregate now */
    Expr *const *part_keys;   /* partitioned: what rows are split by */
    int npart_keys;
    bool prehash;             /* partitioned: part_keys are the aggregate's lookup keys */
    uint64_t presize;         /* partitioned by GROUP BY keys: groups each thread expects */
    ExecPipeline *leader_copy; /* partitioned: the leader's own copy (its scan is closed here) */
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

bool exec__par_op_safe(const ExecOp *op)
{
    const PlanNode *n = op->node;
    return n->kind == PLAN_FILTER ? expr_parallel_safe(n->predicate)
         : n->kind == PLAN_PROJECT ? exprs_parallel_safe(n->exprs, n->ncols)
         : false;
}

bool exec__par_input_ok(const ExecPipeline *p, int nops)
{
    if (p->source == NULL || p->source->node->kind != PLAN_SCAN)
        return false;
    const ExecQuery *q = p->source->q;
    if (q->shared == NULL || q->shared->main != q || q->nouter > 0)
        return false;
    if (!expr_parallel_safe(p->source->node->scan_filter))
        return false;
    for (int i = 0; i < nops; i++)
        if (!exec__par_op_safe(p->ops[i]))
            return false;
    return true;
}

/* Whether the pipeline's shape, plan and expressions allow it. */
static bool pipe_parallel_shape(const ExecPipeline *p)
{
    if (p->sink == NULL || (p->sink->node->kind != PLAN_AGG && p->sink->node->kind != PLAN_SORT) ||
        !exec__par_input_ok(p, p->nops))
        return false;
    if (p->sink->node->kind == PLAN_SORT)
        return true;   /* sort keys are input columns */
    return exec__agg_parallel_ok(p->sink->node) && agg_exprs_safe(p->sink->node);
}

/* Workers to start: the setting, bounded by the machine (one processor is the leader's). */
int exec__par_workers(void)
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
/* Keep the active rows of b whose partition is the thread's. */
static void part_filter(ParPart *pp, Batch *b)
{
    mem_arena_reset(pp->scratch);
    for (int k = 0; k < pp->nkeys; k++)
        pp->keyvec[k] = exec__expr_eval(pp->keys[k], b, b->sel, b->count);
    for (int k = 0; k < pp->nkeys; k++)
        exec__hash_vector(pp->keyvec[k], b->sel, b->count, pp->hash, k == 0);
    const uint16_t *rows = b->sel ? b->sel : exec__identity_sel;
    uint32_t n = 0;
    for (uint32_t i = 0; i < b->count; i++) {
        uint32_t part = (uint32_t)(((pp->hash[i] >> 32) * (uint64_t)pp->nparts) >> 32);
        pp->sel[n] = rows[i];
        pp->phash[n] = pp->hash[i];
        n += pp->mine[part];
    }
    b->sel = pp->sel;
    b->count = n;
}

/* ---------- EXPLAIN ANALYZE counters (the copy's own per thread) ---------- */

double exec__par_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static PlanNodeStats *node_stats(const ExecOp *op)
{
    const ExecShared *sh = op->q->shared;
    int id = op->node->node_id;
    return sh && sh->stats && id >= 0 && id < sh->nstats ? &sh->stats[id] : NULL;
}

/* Count an operator's output batch and the time since t0 (t0 = 0: not measuring). */
void exec__par_account(const ExecOp *op, const Batch *out, double t0)
{
    PlanNodeStats *ps = t0 != 0 ? node_stats(op) : NULL;
    if (ps == NULL)
        return;
    ps->time_ms += exec__par_now_ms() - t0;
    if (out && out->count > 0) {
        ps->rows += out->count;
        ps->batches++;
    }
}

void exec__par_stats_add(const ExecShared *sh, ExecOp *const *ops, int nops, const ExecShared *leader)
{
    if (leader->stats == NULL || sh == NULL || sh->stats == NULL)
        return;
    for (int id = 0; id < leader->nstats && id < sh->nstats; id++) {
        leader->stats[id].rows += sh->stats[id].rows;
        leader->stats[id].batches += sh->stats[id].batches;
        leader->stats[id].time_ms += sh->stats[id].time_ms;
        leader->stats[id].kernels |= sh->stats[id].kernels;   /* which paths ran: on any thread */
        leader->stats[id].groups_skipped += sh->stats[id].groups_skipped;
        leader->stats[id].groups_summarised += sh->stats[id].groups_summarised;
    }
    for (int i = 0; i < nops; i++) {
        int id = ops[i] ? ops[i]->node->node_id : -1;
        if (id >= 0 && id < leader->nstats)
            leader->stats[id].loops++;
    }
}

/* A worker's counters into the leader's; each of its operators one more loop. */
static void stats_add(const ParWorker *w, const ExecShared *leader)
{
    ExecOp *ops[EXEC_MAX_OPS + 2] = {w->pipe.source, w->pipe.sink};
    int n = 2;
    for (int i = 0; i < w->pipe.nops; i++)
        ops[n++] = w->pipe.ops[i];
    exec__par_stats_add(w->q.shared, ops, n, leader);
}

/* Where a sample's time went: reading and filtering, and the sink. */
typedef struct ParTiming {
    double input_ms, sink_ms;
} ParTiming;

static bool pipe_drive(ExecPipeline *p, ParRun *r, uint64_t max_batches, uint64_t *sunk, ParPart *part,
                       ParTiming *tm)
{
    Batch *b;
    bool meas = p->source->q->shared->stats != NULL || tm != NULL;
    for (uint64_t n = 0; n < max_batches; n++) {
        double t0 = meas ? exec__par_now_ms() : 0;
        double tin = t0;
        if (atomic_load_explicit(&r->abort, memory_order_relaxed) || !p->source->next(p->source, &b))
            return true;
        exec__par_account(p->source, b, t0);
        err_check_interrupts();
        for (int i = 0; i < p->nops && b != NULL && b->count > 0; i++) {
            Batch *out = NULL;
            t0 = meas ? exec__par_now_ms() : 0;
            ExecOpResult res = p->ops[i]->execute(p->ops[i], b, &out);
            exec__par_account(p->ops[i], out, t0);
            ERR_ASSERT(res == EXEC_NEED_INPUT);
            b = out;
        }
        if (part != NULL && b != NULL && b->count > 0)
            part_filter(part, b);
        if (b != NULL && b->count > 0) {
            t0 = meas ? exec__par_now_ms() : 0;
            if (tm)
                tm->input_ms += t0 - tin;
            p->sink->sink(p->sink, b);
            exec__par_account(p->sink, NULL, t0);
            if (tm)
                tm->sink_ms += exec__par_now_ms() - t0;
            *sunk += b->count;
        } else if (tm) {
            tm->input_ms += exec__par_now_ms() - tin;
        }
    }
    return false;
}

/* The sink's EXPLAIN ANALYZE note: workers started and how they shared. */
static void stats_mode(ParRun *r, const ExecOp *sink, const char *mode)
{
    PlanNodeStats *ps = node_stats(sink);
    if (ps == NULL)
        return;
    for (int i = 0; i < r->nworkers; i++) {
        stats_add(&r->workers[i], sink->q->shared);
        ps->workers += r->workers[i].launched;
    }
    ps->parallel_mode = mode;
}

/*
 * How to spread an aggregation, judged on its first PAR_SAMPLE_BATCHES row
 * groups, which the leader aggregates alone (timed: reading and filtering
 * them, and the aggregate's own work).
 *
 * Sharing morsels halves both, then merges every worker group (and
 * DISTINCT pair) into the leader's table, serially, at about what grouping
 * a row cost; partitioning halves only the aggregate's work (every thread
 * reads and hashes every row) but merges nothing. With a sample whose
 * groups per row sunk is g, reading costs I and the aggregate S, the merge
 * costs about S * g of the input's share and partitioning about I plus
 * hashing the other threads' rows too (about I / 2 for integers, S / 4
 * when a key is a string — the aggregate reuses the partition filter's
 * hashes, exec__agg_prehashed; S / 2 before, which kept ClickBench Q16/Q17
 * sharing morsels at 450/310 ms where partitioning takes 225/210):
 * partition when 1.5 * I (+ S / 4) < S * g.
 * ClickBench, one run each way at 10M: Q32 (10M groups in 10M rows: g ≈ 1,
 * S >> I) and Q4/Q8/Q15 (UserID keys) partition; Q10 (MobilePhoneModel <>
 * '' keeps 14% of the rows: I >> S * g) and Q5 (count(DISTINCT
 * SearchPhrase): 300 ms partitioned, 220 ms sharing morsels) share
 * morsels. A sample with at most one
 * group per PAR_MIN_REDUCTION rows, or with few rows left after the
 * filters, always shares morsels. true when the sample ended the scan
 * (nothing is left to share); *partition otherwise.
 */
#define PAR_SAMPLE_BATCHES 64
#define PAR_MIN_REDUCTION 16

/* Groups each thread of a partitioned aggregation can expect, from the
 * sample's groups per row read and the rows left: its group table and
 * states are sized once instead of doubling (and rehashing) their way
 * there from 1024 — ClickBench Q32 ends at 5M groups per thread. */
static uint64_t presize_groups(const ExecPipeline *p, const ParRun *r)
{
    double read = (double)PAR_SAMPLE_BATCHES * VEC_CAPACITY;
    double rows = read + (double)exec__scan_parallel_rows(p->source);
    double est = (double)exec__agg_key_groups(p->sink) / read * rows / (r->nworkers + 1);
    /* at most 8M groups up front (~0.5 GB of table): a sample whose first
     * rows are all distinct may overstate a big table's groups */
    return est > (double)(UINT64_C(1) << 23) ? UINT64_C(1) << 23 : (uint64_t)est;
}

/* Whether a key partitioning would hash is a string (GROUP BY keys, or the
 * DISTINCT argument without GROUP BY). */
static bool agg_string_keys(const PlanNode *agg)
{
    for (int k = 0; k < agg->ngroups; k++)
        if (type_phys(agg->group_exprs[k]->type) == PHYS_STR)
            return true;
    const Expr *d = agg->ngroups == 0 ? exec__agg_distinct_key(agg) : NULL;
    return d != NULL && type_phys(d->type) == PHYS_STR;
}
static bool agg_sample(ExecPipeline *p, ParRun *r, bool *partition, bool *by_pairs)
{
    uint64_t sunk = 0;
    ParTiming tm = {0, 0};
    if (pipe_drive(p, r, PAR_SAMPLE_BATCHES, &sunk, NULL, &tm))
        return true;
    uint64_t groups = exec__agg_groups(p->sink);
    ExecSession *s = exec_catalog_session();
    const char *mode = s ? guc_show(exec_session_guc(s), "strata.parallel_aggregate") : "auto";
    if (strcmp(mode, "auto") != 0)
        *partition = strcmp(mode, "partitioned") == 0;   /* pinned (tests) */
    else if (sunk < 4 * VEC_CAPACITY || groups * PAR_MIN_REDUCTION <= sunk)
        *partition = false;
    else
        *partition = 1.5 * tm.input_ms + (agg_string_keys(p->sink->node) ? tm.sink_ms / 4 : 0) <
                     tm.sink_ms * (double)groups / (double)sunk;
    uint64_t keyed = exec__agg_key_groups(p->sink);
    *by_pairs = groups - keyed >= PAR_MIN_REDUCTION * keyed;   /* DISTINCT values far outnumber groups */
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
        if (w->part && r->presize)
            exec__agg_presize(w->pipe.sink, r->presize);
        pipe_drive(&w->pipe, r, UINT64_MAX, &sunk, w->part, NULL);
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

/* A query context of the worker's own: arena, scratch arenas, no EXPLAIN
 * ANALYZE counters; the leader's transaction and parameters. */
static void worker_query(ParWorker *w, const ExecQuery *q)
{
    exec__par_query_init(&w->q, q);
}

void exec__par_query_init(ExecQuery *wq, const ExecQuery *q)
{
    wq->arena = mem_arena_create("parallel worker");
    wq->txn = q->txn;
    wq->params = q->params;
    wq->nparams = q->nparams;
    ExecShared *sh = MEM_NEW(wq->arena, ExecShared);
    *sh = *q->shared;
    if (sh->stats)        /* EXPLAIN ANALYZE: counters of its own, added up after the join */
        sh->stats = mem_calloc(wq->arena, (size_t)sh->nstats, sizeof(PlanNodeStats));
    wq->shared = sh;
}

/* The partition filter of a thread keeping partition `index` of nparts,
 * by the hash of the run's partition keys. */
static ParPart *part_new(ExecQuery *q, const ParRun *r, int nparts, int index)
{
    ParPart *pp = MEM_NEW(q->arena, ParPart);
    pp->nparts = nparts;
    pp->mine = mem_calloc(q->arena, (size_t)nparts, sizeof(bool));
    pp->mine[index] = true;
    pp->nkeys = r->npart_keys;
    pp->scratch = exec__scratch_create(q);
    pp->keys = MEM_NEW_ARRAY(q->arena, ExprProg *, r->npart_keys);
    pp->keyvec = MEM_NEW_ARRAY(q->arena, Vector *, r->npart_keys);
    for (int k = 0; k < r->npart_keys; k++)
        pp->keys[k] = exec__expr_compile(q, r->part_keys[k], pp->scratch);
    pp->hash = mem_alloc(q->arena, VEC_CAPACITY * sizeof(uint64_t));
    pp->phash = mem_alloc(q->arena, VEC_CAPACITY * sizeof(uint64_t));
    pp->sel = mem_alloc(q->arena, VEC_CAPACITY * sizeof(uint16_t));
    return pp;
}

/* A copy of leader pipeline p in query context wq: a clone of its scan
 * (taking morsels with it, or reading every row: partitioned), its
 * FILTER/PROJECT operators, and a sink of its own. */
static void pipe_copy(ExecQuery *wq, const ExecPipeline *p, ExecPipeline *c, bool partitioned)
{
    c->stop_level = -1;
    c->flush_level = -1;
    c->source = exec__op_scan_clone(wq, p->source, !partitioned);
    for (int i = 0; i < p->nops; i++) {
        const PlanNode *n = p->ops[i]->node;
        pipe_add(c, n->kind == PLAN_FILTER ? exec__op_filter(wq, n) : exec__op_project(wq, n));
    }
    c->sink = p->sink->node->kind == PLAN_AGG ? exec__op_agg(wq, p->sink->node)
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

/* Close a copy's scan and streaming operators (its sink stays). */
static void pipe_close_input(ExecPipeline *c)
{
    op_close(c->source);
    for (int i = 0; i < c->nops; i++)
        op_close(c->ops[i]);
}

void exec__par_query_destroy(ExecQuery *wq)
{
    if (wq->arena == NULL)
        return;
    for (int i = 0; i < wq->nscratch; i++)
        mem_arena_destroy(wq->scratch[i]);
    wq->nscratch = 0;
    mem_arena_destroy(wq->arena);
    wq->arena = NULL;
}

/* Close a worker's operators and free its memory (after its thread ended). */
static void worker_destroy(ParWorker *w)
{
    if (w->q.arena == NULL)
        return;
    pipe_close_input(&w->pipe);
    op_close(w->pipe.sink);
    exec__par_query_destroy(&w->q);
}

/* What a thread other than the session's needs of it: the interrupt flag
 * (cancel, statement_timeout), date/time settings, the catalog session. */
struct ExecParEnv {
    atomic_int *interrupt;
    DateTimeThreadState dt;
    ExecSession *session;
};

ExecParEnv *exec__par_env_save(MemArena *arena)
{
    ExecParEnv *e = MEM_NEW(arena, ExecParEnv);
    e->interrupt = err_interrupt_flag;
    datetime_thread_state_save(&e->dt);
    e->session = exec_catalog_session();
    return e;
}

void exec__par_env_enter(const ExecParEnv *e)
{
    err_set_interrupt_flag(e->interrupt);
    datetime_thread_state_restore(&e->dt);
    exec_catalog_set_session(e->session);
}

/* Stop (when aborting) and join every worker. */
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

static void workers_destroy(void *ctx)
{
    ParRun *r = ctx;
    for (int i = 0; i < r->nworkers; i++)
        worker_destroy(&r->workers[i]);
}

/* Build and start the workers (partitioned: worker i keeps partition i + 1
 * of nworkers + 1; the leader keeps 0 and those of workers that could not
 * start). */
static void workers_start(ParRun *r, ExecPipeline *p, ParPart *leader_part)
{
    for (int i = 0; i < r->nworkers; i++) {
        ParWorker *w = &r->workers[i];
        w->run = r;
        worker_query(w, p->source->q);
        pipe_copy(&w->q, p, &w->pipe, leader_part != NULL);
        if (leader_part) {
            w->part = part_new(&w->q, r, r->nworkers + 1, i + 1);
            if (r->prehash)
                exec__agg_prehashed(w->pipe.sink, w->part->keyvec, w->part->phash);
        }
        if (pthread_create(&w->thread, NULL, worker_main, w) != 0) {
            if (leader_part)
                leader_part->mine[i + 1] = true;
            continue;   /* fewer threads: the leader takes the rest */
        }
        w->started = w->launched = true;
    }
}

/* Join the workers; raise the first error one of them met. */
static void workers_join(ParRun *r)
{
    workers_finish(r, false);
    for (int i = 0; i < r->nworkers; i++) {
        ParWorker *w = &r->workers[i];
        if (w->failed) {
            ErrorData *e = err_begin(w->error.sqlstate);
            *e = w->error;
            err_throw();
        }
    }
}

/*
 * Partitioned aggregation, for groups too many to merge: every thread reads
 * the whole input (its own scan from the first row, its own filters) but
 * keeps only the rows whose partition keys hash into its partition. Split
 * by the GROUP BY keys, the threads' groups are disjoint and nothing is
 * merged: the aggregate emits each thread's groups in turn. Without GROUP
 * BY, split by the argument of its DISTINCT calls (count(DISTINCT UserID)):
 * the threads' value sets are disjoint, so their states simply add up
 * (exec__agg_merge, disjoint) into the leader's; so do those of a GROUP BY
 * with far more DISTINCT values than groups, split by keys and value (the
 * leader looks the workers' few groups up). Reading and hashing every
 * row on each thread costs far less than the group-table work it splits
 * (ClickBench Q32 reads 4 narrow columns of its 10M rows, then looks up
 * 10M distinct keys). The sample's groups are dropped: its rows are read
 * again like all others.
 */
static void run_partitioned(ParRun *r, ExecPipeline *p, bool by_distinct)
{
    ExecQuery *q = p->source->q;
    int nparts = r->nworkers + 1;
    ExecPipeline *lp = MEM_NEW(q->arena, ExecPipeline);
    r->leader_copy = lp;
    pipe_copy(q, p, lp, true);
    ParPart *part = part_new(q, r, nparts, 0);
    if (r->prehash)
        exec__agg_prehashed(lp->sink, part->keyvec, part->phash);
    workers_start(r, p, part);
    uint64_t sunk = 0;
    if (r->presize)
        exec__agg_presize(lp->sink, r->presize);
    pipe_drive(lp, r, UINT64_MAX, &sunk, part, NULL);
    workers_join(r);
    stats_mode(r, p->sink, "partitioned");
    pipe_close_input(lp);
    for (int i = 0; i < r->nworkers; i++)
        pipe_close_input(&r->workers[i].pipe);
    ExecOp **parts = MEM_NEW_ARRAY(q->arena, ExecOp *, nparts);
    parts[0] = lp->sink;
    int n = 1;
    for (int i = 0; i < r->nworkers; i++) {
        if (by_distinct)
            exec__agg_merge(lp->sink, r->workers[i].pipe.sink, true);
        else
            parts[n++] = r->workers[i].pipe.sink;
    }
    exec__agg_set_parts(p->sink, parts, n, workers_destroy, r);
    r->handed_over = true;
}

/* Sample (aggregations), then run on every thread: morsels shared and the
 * workers' results merged into the leader's sink, or partitioned. */
static void parallel_body(ParRun *r, ExecPipeline *p)
{
    exec__scan_share(p->source);
    uint64_t sunk = 0;
    bool partition = false, by_pairs = false;
    if (p->sink->node->kind == PLAN_AGG && agg_sample(p, r, &partition, &by_pairs))
        return;
    if (partition) {
        const PlanNode *agg = p->sink->node;
        const Expr *dkey = exec__agg_distinct_key(agg);
        if (dkey != NULL && agg->ngroups > 0 && by_pairs) {
            /* Few groups, many DISTINCT values (Q8: RegionID, UserID):
             * split by both, so that one big group (region 229, 18% of
             * the rows) does not load one thread; the threads' (group,
             * value) pairs are disjoint and their states add up. */
            Expr **keys = MEM_NEW_ARRAY(p->source->q->arena, Expr *, agg->ngroups + 1);
            for (int k = 0; k < agg->ngroups; k++)
                keys[k] = agg->group_exprs[k];
            keys[agg->ngroups] = (Expr *)dkey;
            r->part_keys = keys;
            r->npart_keys = agg->ngroups + 1;
            run_partitioned(r, p, true);
            return;
        }
        r->prehash = true;
        if (exec__agg_partitionable(agg)) {
            r->part_keys = agg->group_exprs;
            r->npart_keys = agg->ngroups;
            r->presize = presize_groups(p, r);
            run_partitioned(r, p, false);
            return;
        }
        if (dkey != NULL) {
            r->part_keys = (Expr *const *)&dkey;
            r->npart_keys = 1;
            run_partitioned(r, p, true);
            return;
        }
        /* neither applies (grouping sets): share morsels */
    }
    workers_start(r, p, NULL);
    pipe_drive(p, r, UINT64_MAX, &sunk, NULL, NULL);
    workers_join(r);
    stats_mode(r, p->sink, "morsels");
    double t0 = node_stats(p->sink) ? exec__par_now_ms() : 0;
    for (int i = 0; i < r->nworkers; i++) {
        if (r->workers[i].q.arena == NULL)
            continue;
        if (p->sink->node->kind == PLAN_AGG)
            exec__agg_merge(p->sink, r->workers[i].pipe.sink, false);
        else
            exec__sort_merge(p->sink, r->workers[i].pipe.sink);
    }
    exec__par_account(p->sink, NULL, t0);   /* the merge is the sink's work */
}

bool exec__parallel_run(ExecPipeline *p)
{
    if (!pipe_parallel_shape(p))
        return false;
    int nworkers = exec__par_workers();
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
        if (r->leader_copy)
            pipe_close_input(r->leader_copy);
        if (!r->handed_over)
            workers_destroy(r);
        err_rethrow();
    }
    if (!r->handed_over)
        workers_destroy(r);
    return true;
}
