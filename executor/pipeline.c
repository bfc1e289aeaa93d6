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
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

#include <string.h>
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

static void build(ExecPlanRun *r, const PlanNode *n, ExecPipeline *cur);

/* A breaker whose input is a pipeline of its own (sinking into op). */
static void build_child_pipeline(ExecPlanRun *r, const PlanNode *child, ExecOp *op)
{
    ExecPipeline *p = pipe_new(r);
    p->sink = op;
    build(r, child, p);
    pipe_register(r, p);
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
    case PLAN_FILTER: case PLAN_PROJECT: case PLAN_LIMIT: case PLAN_DISTINCT:
        build(r, n->left, cur);
        op = n->kind == PLAN_FILTER ? exec__op_filter(q, n)
           : n->kind == PLAN_PROJECT ? exec__op_project(q, n)
           : n->kind == PLAN_LIMIT ? exec__op_limit(q, n)
           : exec__op_distinct(q, n);
        /* ORDER BY ... LIMIT: the sort right below needs only offset + limit rows */
        if (n->kind == PLAN_LIMIT && n->left->kind == PLAN_SORT && cur->nops == 0)
            exec__sort_set_topn(cur->source, exec__limit_total(op));
        pipe_push(cur, op);
        break;
    case PLAN_HASH_JOIN: case PLAN_NESTED_LOOP:
        op = n->kind == PLAN_HASH_JOIN ? exec__op_hash_join(q, n) : exec__op_nested_loop(q, n);
        build_child_pipeline(r, n->right, op);
        build(r, n->left, cur);
        pipe_push(cur, op);
        break;
    case PLAN_AGG: case PLAN_SORT:
        op = n->kind == PLAN_AGG ? exec__op_agg(q, n) : exec__op_sort(q, n);
        build_child_pipeline(r, n->left, op);
        cur->source = op;
        break;
    case PLAN_INSERT:
        op = exec__op_insert(q, n, plan_reads(n->left, n->target));
        cur->sink = op;
        r->insert = op;
        build(r, n->left, cur);
        break;
    }
    ERR_ASSERT(op != NULL);
    run_track(r, op);
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
    p->source_done = true;
    p->finished = true;
    if (p->sink && p->sink->finalize)
        p->sink->finalize(p->sink);
}

/* Drive one pipeline until its source is exhausted (true) or emit asked to
 * suspend (false). */
static bool pipe_run(ExecPipeline *p, ExecEmitFn emit, void *ctx)
{
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
            if (p->stop || !p->source->next(p->source, &b)) {
                pipe_finish(p);
                break;
            }
            if (b->count == 0)
                continue;
            start = 0;
        } else {
            b = p->pending[start];
        }
        bool empty = false;
        for (int i = start; i < p->nops; i++) {
            Batch *out = NULL;
            ExecOpResult res = p->ops[i]->execute(p->ops[i], b, &out);
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
            p->sink->sink(p->sink, b);
        } else if (!emit(ctx, b)) {
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
    for (int i = 0; i < r->nall; i++) {
        ExecOp *op = r->all_ops[i];
        if (op->close) {
            void (*fn)(ExecOp *) = op->close;
            op->close = NULL;
            fn(op);
        }
    }
}
