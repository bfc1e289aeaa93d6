/*
 * pipeline.c — cutting a plan into push-based pipelines and driving them.
 *
 * A pipeline is source → streaming operators → sink (DuckDB's model). The
 * plan tree is cut at pipeline breakers: the build side of a hash join and
 * the inner side of a nested loop (sinks that materialise), aggregation and
 * sort (sinks that, once finalised, are the source of the next pipeline).
 * Pipelines are listed in dependency order, the root pipeline last; the
 * root's sink is the portal's output (or the INSERT operator).
 *
 * The driver is a loop, not a recursion: fetch a batch from the source and
 * push it through the operators; an operator that has more output for the
 * same input (a join probe producing more than one batch) says HAVE_MORE
 * and the loop returns to the deepest such operator before pulling the
 * source again. Because the whole state is in the pipeline, the root can
 * stop after any output batch (portal suspension, max_rows) and resume
 * later, and LIMIT can stop the source early. Interrupts (cancel) are
 * checked once per batch.
 *
 * At a pipeline's first run, parallel.c may run it to its end on several
 * threads (scan → filter/project → aggregate or sort), or gather.c may
 * put a Gather source in place of the root pipeline's scan (rows to the
 * client from several threads); pipe_finish and exec__plan_close end a
 * Gather's workers.
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"
#include "executor/catalog_int.h"

#include <string.h>
#include <time.h>
#include "common/error.h"

MemArena *exec__scratch_create(ExecQuery *q)
{
    if (q->nscratch == q->scratch_cap) {
        int cap = q->scratch_cap ? q->scratch_cap * 2 : 8;
        q->scratch = mem_realloc(q->arena, q->scratch, sizeof(MemArena *) * (size_t)q->scratch_cap,
                                 sizeof(MemArena *) * (size_t)cap);
        q->scratch_cap = cap;
    }
    MemArena *a = mem_arena_create("batch scratch");
    q->scratch[q->nscratch++] = a;
    return a;
}

ExecOp *exec__op_new(ExecQuery *q, const PlanNode *n, size_t state_size)
{
    ExecOp *op = MEM_NEW(q->arena, ExecOp);
    op->q = q;
    op->node = n;
    op->state = mem_calloc(q->arena, 1, state_size);
    return op;
}

Batch *exec__batch_new(ExecQuery *q, int ncols, const SqlType *types)
{
    return batch_create(q->arena, ncols, types);
}

static void run_track(ExecPlanRun *r, ExecOp *op)
{
    if (r->nall == r->all_cap) {
        int cap = r->all_cap ? r->all_cap * 2 : 16;
        r->all_ops = mem_realloc(r->q->arena, r->all_ops, sizeof(ExecOp *) * (size_t)r->all_cap,
                                 sizeof(ExecOp *) * (size_t)cap);
        r->all_cap = cap;
    }
    r->all_ops[r->nall++] = op;
}

static ExecPipeline *pipe_new(ExecPlanRun *r)
{
    ExecPipeline *p = MEM_NEW(r->q->arena, ExecPipeline);
    p->stop_level = -1;
    p->flush_level = -1;
    return p;
}

static void pipe_register(ExecPlanRun *r, ExecPipeline *p)
{
    ExecPipeline **pipes = mem_alloc(r->q->arena, sizeof(ExecPipeline *) * (size_t)(r->npipes + 1));
    if (r->npipes)
        memcpy(pipes, r->pipes, sizeof(ExecPipeline *) * (size_t)r->npipes);
    pipes[r->npipes++] = p;
    r->pipes = pipes;
}

static void pipe_push(ExecPipeline *p, ExecOp *op)
{
    if (p->nops == EXEC_MAX_OPS)
        err_raise(ERRCODE_STATEMENT_TOO_COMPLEX, "too many operators in one pipeline");
    op->pipe = p;
    p->ops[p->nops++] = op;
}

/* Does the subtree read table t? (INSERT INTO t SELECT ... FROM t must not see its own rows.) */
static bool plan_reads(const PlanNode *n, const StoreTable *t)
{
    if (n == NULL)
        return false;
    if (n->kind == PLAN_SCAN && n->table == t)
        return true;
    return plan_reads(n->left, t) || plan_reads(n->right, t);
}

/* ---------- EXPLAIN ANALYZE counters ---------- */

static inline double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static inline PlanNodeStats *op_stats(const ExecOp *op)
{
    ExecShared *sh = op->q->shared;
    if (sh == NULL || sh->stats == NULL || op->node->node_id < 0 || op->node->node_id >= sh->nstats)
        return NULL;
    return &sh->stats[op->node->node_id];
}

/* Count an operator's output batch (rows, batches) and the time since t0. */
static inline void op_account(const ExecOp *op, const Batch *out, double t0)
{
    PlanNodeStats *ps = op_stats(op);
    if (ps == NULL)
        return;
    ps->time_ms += now_ms() - t0;
    if (out && out->count > 0) {
        ps->rows += out->count;
        ps->batches++;
    }
}

static inline bool measuring(const ExecPipeline *p)
{
    const ExecOp *op = p->source ? p->source : p->sink;
    return op && op->q->shared && op->q->shared->stats;
}

static void build(ExecPlanRun *r, const PlanNode *n, ExecPipeline *cur);

/* A breaker whose input is a pipeline of its own (sinking into op). */
static ExecPipeline *build_child_pipeline(ExecPlanRun *r, const PlanNode *child, ExecOp *op)
{
    ExecPipeline *p = pipe_new(r);
    p->sink = op;
    build(r, child, p);
    pipe_register(r, p);
    return p;
}

static void build(ExecPlanRun *r, const PlanNode *n, ExecPipeline *cur)
{
    ExecQuery *q = r->q;
    ExecOp *op = NULL;
    switch (n->kind) {
    case PLAN_SCAN:
        op = exec__op_scan(q, n);
        cur->source = op;
        break;
    case PLAN_VALUES:
        op = exec__op_values(q, n);
        cur->source = op;
        break;
    case PLAN_FILTER: case PLAN_PROJECT: case PLAN_LIMIT: case PLAN_DISTINCT: case PLAN_PROJECT_SET:
        build(r, n->left, cur);
        op = n->kind == PLAN_FILTER ? exec__op_filter(q, n)
           : n->kind == PLAN_PROJECT ? exec__op_project(q, n)
           : n->kind == PLAN_PROJECT_SET ? exec__op_project_set(q, n)
           : n->kind == PLAN_LIMIT ? exec__op_limit(q, n)
           : exec__op_distinct(q, n);
        /* ORDER BY ... LIMIT: the sort right below needs only offset + limit rows */
        if (n->kind == PLAN_LIMIT && n->left->kind == PLAN_SORT && cur->nops == 0)
            exec__sort_set_topn(cur->source, exec__limit_total(op));
        pipe_push(cur, op);
        break;
    case PLAN_HASH_JOIN: case PLAN_NESTED_LOOP:
        op = n->kind == PLAN_HASH_JOIN ? exec__op_hash_join(q, n) : exec__op_nested_loop(q, n);
        if (!(n->kind == PLAN_NESTED_LOOP && n->nlateral > 0))   /* lateral: re-run per left row */
            build_child_pipeline(r, n->right, op);
        build(r, n->left, cur);
        pipe_push(cur, op);
        break;
    case PLAN_AGG: case PLAN_SORT: {
        op = n->kind == PLAN_AGG ? exec__op_agg(q, n) : exec__op_sort(q, n);
        ExecPipeline *in = build_child_pipeline(r, n->left, op);
        if (n->kind == PLAN_AGG && in->nops == 0 && in->source->node->kind == PLAN_SCAN)
            exec__agg_summary_link(op, in->source);   /* count/min/max from metadata */
        cur->source = op;
        break;
    }
    case PLAN_WINDOW:
        op = exec__op_window(q, n);
        build_child_pipeline(r, n->left, op);
        cur->source = op;
        break;
    case PLAN_SETOP:
        op = exec__op_setop(q, n);
        build_child_pipeline(r, n->left, op);
        build_child_pipeline(r, n->right, exec__op_setop_right(q, op));
        cur->source = op;
        break;
    case PLAN_APPEND: case PLAN_CTE_SCAN: case PLAN_RECURSIVE_UNION: case PLAN_WORKTABLE_SCAN:
    case PLAN_FUNCTION_SCAN:
        op = n->kind == PLAN_APPEND ? exec__op_append(q, n)
           : n->kind == PLAN_CTE_SCAN ? exec__op_cte_scan(q, n)
           : n->kind == PLAN_RECURSIVE_UNION ? exec__op_recursive_union(q, n)
           : n->kind == PLAN_WORKTABLE_SCAN ? exec__op_worktable_scan(q, n)
           : exec__op_function_scan(q, n);
        cur->source = op;
        break;
    case PLAN_CATALOG_SCAN:
        op = exec__op_catalog_scan(q, n);
        cur->source = op;
        break;
    case PLAN_INSERT: case PLAN_UPDATE: case PLAN_DELETE:
        op = n->kind == PLAN_INSERT ? exec__op_insert(q, n, n->ncols > 0 || plan_reads(n->left, n->target))
                                    : exec__op_modify(q, n);
        r->insert = op;
        if (n->ncols > 0) {   /* RETURNING: sink of its child, source of the written rows */
            build_child_pipeline(r, n->left, op);
            cur->source = op;
            break;
        }
        cur->sink = op;
        build(r, n->left, cur);
        break;
    }
    ERR_ASSERT(op != NULL);
    run_track(r, op);
    PlanNodeStats *ps = op_stats(op);
    if (ps)
        ps->loops++;
}

ExecPlanRun *exec__plan_new(ExecQuery *q)
{
    ExecPlanRun *r = MEM_NEW(q->arena, ExecPlanRun);
    r->q = q;
    return r;
}

void exec__plan_build(ExecPlanRun *r, const PlanNode *root)
{
    ExecPipeline *p = pipe_new(r);
    build(r, root, p);
    pipe_register(r, p);
}

static void pipe_finish(ExecPipeline *p)
{
    if (p->gather)   /* source exhausted or LIMIT satisfied: stop and join the workers */
        exec__gather_end(p->gather);
    p->source_done = true;
    p->finished = true;
    if (p->sink && p->sink->finalize) {
        double t0 = measuring(p) ? now_ms() : 0;
        p->sink->finalize(p->sink);
        if (t0 != 0)
            op_account(p->sink, NULL, t0);
    }
}

/* The next batch entering the pipeline and the level it enters at: the
 * source's batches enter at 0; once the source is exhausted (or LIMIT
 * stopped it), each operator's flush output enters just above it. false
 * when nothing is left. */
static bool pipe_input(ExecPipeline *p, Batch **b, int *level)
{
    if (p->flush_level < 0) {
        double t0 = measuring(p) ? now_ms() : 0;
        bool got = !p->stop && p->source->next(p->source, b);
        if (t0 != 0)
            op_account(p->source, got ? *b : NULL, t0);
        if (got) {
            *level = 0;
            return true;
        }
        p->source_done = true;
        p->flush_level = p->stop ? p->stop_level + 1 : 0;
    }
    while (p->flush_level < p->nops) {
        if (p->stop && p->flush_level <= p->stop_level)
            p->flush_level = p->stop_level + 1;     /* a LIMIT above was satisfied meanwhile */
        if (p->flush_level >= p->nops)
            break;
        ExecOp *op = p->ops[p->flush_level];
        double t0 = measuring(p) ? now_ms() : 0;
        bool got = op->flush && op->flush(op, b);
        if (t0 != 0)
            op_account(op, got ? *b : NULL, t0);
        if (got) {
            *level = p->flush_level + 1;
            return true;
        }
        p->flush_level++;
    }
    return false;
}

/* Drive one pipeline until its source is exhausted (true) or emit asked to
 * suspend (false). */
static bool pipe_run(ExecPipeline *p, ExecEmitFn emit, void *ctx)
{
    if (!p->par_checked) {
        p->par_checked = true;
        if (!p->finished && exec__parallel_run(p)) {   /* ran to its end on several threads */
            pipe_finish(p);
            return true;
        }
        if (!p->finished && p->sink == NULL)
            exec__gather_begin(p);   /* rows to the client: maybe from several threads */
    }
    while (!p->finished) {
        err_check_interrupts();
        int start = -1;
        /* after LIMIT is satisfied only operators downstream of it may
         * still have output to deliver */
        int lowest = p->stop ? p->stop_level + 1 : 0;
        for (int i = p->nops - 1; i >= lowest; i--) {
            if (p->have_more[i]) {
                start = i;
                break;
            }
        }
        Batch *b;
        if (start < 0) {
            if (!pipe_input(p, &b, &start)) {
                pipe_finish(p);
                break;
            }
            if (b->count == 0)
                continue;
        } else {
            b = p->pending[start];
        }
        bool empty = false;
        bool meas = measuring(p);
        for (int i = start; i < p->nops; i++) {
            Batch *out = NULL;
            double t0 = meas ? now_ms() : 0;
            ExecOpResult res = p->ops[i]->execute(p->ops[i], b, &out);
            if (meas)
                op_account(p->ops[i], out, t0);
            p->have_more[i] = res == EXEC_HAVE_MORE;
            p->pending[i] = b;
            if (p->stop && p->stop_level < 0)
                p->stop_level = i;
            b = out;
            if (b == NULL || b->count == 0) {
                empty = true;
                break;
            }
        }
        if (empty)
            continue;
        if (p->sink) {
            double t0 = meas ? now_ms() : 0;
            p->sink->sink(p->sink, b);
            if (meas)
                op_account(p->sink, NULL, t0);
        } else if (!emit(ctx, b)) {
            if (p->gather)   /* suspended: the workers wait until the next run */
                exec__gather_pause(p->gather);
            return false;
        }
    }
    return true;
}

bool exec__plan_run(ExecPlanRun *r, ExecEmitFn emit, void *ctx)
{
    while (r->current < r->npipes) {
        if (!pipe_run(r->pipes[r->current], emit, ctx))
            return false;
        r->current++;
    }
    return true;
}

void exec__plan_close(ExecPlanRun *r)
{
    if (r->closed)
        return;
    r->closed = true;
    for (int i = 0; i < r->npipes; i++)   /* workers' scan clones end before the leader's scan */
        if (r->pipes[i]->gather)
            exec__gather_end(r->pipes[i]->gather);
    for (int i = 0; i < r->nall; i++) {
        ExecOp *op = r->all_ops[i];
        if (op->close) {
            void (*fn)(ExecOp *) = op->close;
            op->close = NULL;
            fn(op);
        }
    }
}
