/*
 * portal.c — a plan bound to parameters and running: what the protocol's
 * Execute drives, with suspension after max_rows rows.
 *
 * Creating a portal checks the session's transaction state (25P02 in a
 * failed block), opens the implicit transaction if none is open, and
 * builds the operators (all buffers allocated now, in the portal's arena).
 * Running pushes batches to the caller's sink. When a batch would pass
 * max_rows, the first rows go out and the portal remembers the rest of that
 * batch (a view: the pipeline is not advanced while suspended, so the
 * vectors stay valid); the next run sends them before pulling more.
 *
 * Errors: an error raised while building or running closes the portal
 * (scans ended, scratch arenas freed) before it propagates, so the caller
 * only has to destroy the arena and call exec_session_abort().
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "common/error.h"

struct ExecPortal {
    ExecSession *s;
    const Plan *plan;
    MemArena *arena;
    ExecQuery q;
    ExecPlanRun *run;
    bool done, closed;
    uint64_t nrows;
    char tag[64];
    /* output */
    const ExecSink *sink;
    uint64_t budget;           /* rows still allowed in this run */
    Batch *flat;               /* constant columns flattened for the sink (own vectors) */
    Batch flat_view;           /* what the sink sees: flat's or the batch's vectors */
    Batch *pending;            /* rows of a batch not yet sent (suspended) */
    uint32_t pending_off;
    Batch view;
    /* utility statements */
    bool util_ran;
    ExecUtilRows util;
    int util_pos;
    Batch *util_batch;
};

ExecShared *exec__shared_new(ExecQuery *q, const Plan *plan)
{
    ExecShared *sh = MEM_NEW(q->arena, ExecShared);
    sh->arena = q->arena;
    sh->main = q;
    sh->nctes = plan->nctes;
    sh->nworktables = plan->nworktables;
    sh->nsubplans = plan->nsubplans;
    sh->ctes = MEM_NEW_ARRAY(q->arena, ExecRowSet, plan->nctes > 0 ? plan->nctes : 1);
    sh->worktables = MEM_NEW_ARRAY(q->arena, ExecRowSet *, plan->nworktables > 0 ? plan->nworktables : 1);
    sh->subplans = MEM_NEW_ARRAY(q->arena, ExecSubplanCache, plan->nsubplans > 0 ? plan->nsubplans : 1);
    return sh;
}

static bool is_txn_end(const Plan *plan)
{
    return plan->kind == PLAN_STMT_UTILITY && plan->utility &&
           (plan->utility->kind == UTIL_COMMIT || plan->utility->kind == UTIL_ROLLBACK ||
            (plan->utility->kind == UTIL_SAVEPOINT && plan->utility->ddl3_op == 'b'));
}

static void portal_release(ExecPortal *p)
{
    if (p->closed)
        return;
    p->closed = true;
    exec__subs_close(&p->q);
    if (p->run)
        exec__plan_close(p->run);
    for (int i = 0; i < p->q.nscratch; i++)
        mem_arena_destroy(p->q.scratch[i]);
    p->q.nscratch = 0;
}

ExecPortal *exec_portal_create(ExecSession *s, const Plan *plan, const Value *params, int nparams,
                               MemArena *arena)
{
    if (s->failed && !is_txn_end(plan))
        err_raise(ERRCODE_IN_FAILED_SQL_TRANSACTION,
                  "current transaction is aborted, commands ignored until end of transaction block");
    if (!s->failed) {
        exec__txn_ensure(s);
        /* READ COMMITTED: a fresh snapshot per statement; REPEATABLE READ
         * keeps the one its first statement took. */
        if (!exec__ddl3_no_snapshot(plan))
            store_txn_statement_begin(s->txn);
    }
    ExecPortal *p = MEM_NEW(arena, ExecPortal);
    p->s = s;
    p->plan = plan;
    p->arena = arena;
    p->q.arena = arena;
    p->q.txn = s->txn;
    p->q.params = params;
    p->q.nparams = nparams;
    p->q.shared = exec__shared_new(&p->q, plan);
    if (plan->kind == PLAN_STMT_UTILITY)
        return p;
    ERR_ASSERT(plan->root != NULL);
    p->run = exec__plan_new(&p->q);
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        exec__plan_build(p->run, plan->root);
        if (plan->kind == PLAN_STMT_QUERY || plan->ncols > 0) {   /* ncols: RETURNING */
            p->flat = exec__batch_new(&p->q, plan->root->ncols, plan->root->col_types);
            p->flat_view.cols = MEM_NEW_ARRAY(arena, Vector, plan->root->ncols > 0 ? plan->root->ncols : 1);
        }
        err_pop(&jmp);
    } else {
        portal_release(p);
        err_rethrow();
    }
    return p;
}

/* Send up to budget rows of b; keep the rest pending. false = suspend. */
static bool send_rows(ExecPortal *p, Batch *b, uint32_t off)
{
    uint32_t left = b->count - off;
    const uint16_t *sel = b->sel ? b->sel : exec__identity_sel;
    uint32_t n = (uint64_t)left > p->budget ? (uint32_t)p->budget : left;
    if (n > 0) {
        p->view.ncols = b->ncols;
        p->view.cols = b->cols;
        p->view.count = n;
        p->view.sel = (off == 0 && b->sel == NULL && n == b->count) ? NULL : (uint16_t *)sel + off;
        p->sink->on_batch(p->sink->ctx, &p->view);
        p->nrows += n;
        p->budget -= n;
    }
    if (n < left) {
        p->pending = b;
        p->pending_off = off + n;
        return false;
    }
    p->pending = NULL;
    return p->budget > 0;
}

static bool portal_emit(void *ctx, Batch *b)
{
    ExecPortal *p = ctx;
    bool any_const = false;
    for (int c = 0; c < b->ncols; c++)
        any_const |= b->cols[c].is_const;
    if (any_const && p->flat) {
        /* constant columns flattened into the portal's own vectors; the
         * others passed by reference (the view's column array is separate
         * so the own vectors are never replaced) */
        for (int c = 0; c < b->ncols; c++) {
            if (b->cols[c].is_const) {
                exec__vec_flatten(&b->cols[c], b->sel, b->count, &p->flat->cols[c]);
                p->flat_view.cols[c] = p->flat->cols[c];
            } else {
                p->flat_view.cols[c] = b->cols[c];
            }
        }
        p->flat_view.sel = b->sel;
        p->flat_view.count = b->count;
        p->flat_view.ncols = b->ncols;
        b = &p->flat_view;
    }
    return send_rows(p, b, 0);
}

static bool run_utility(ExecPortal *p)
{
    if (!p->util_ran) {
        p->util_ran = true;
        exec__utility_run(p->s, p->plan, p->q.params, p->q.nparams, p->arena, &p->util, p->tag, sizeof p->tag);
        if (p->util.nrows > 0) {
            SqlType *types = MEM_NEW_ARRAY(p->arena, SqlType, p->util.ncols);
            for (int c = 0; c < p->util.ncols; c++)
                types[c] = SQLTYPE(TYPE_TEXT);
            p->util_batch = exec__batch_new(&p->q, p->util.ncols, types);
        }
    }
    while (p->util_pos < p->util.nrows) {
        int n = p->util.nrows - p->util_pos;
        if (n > VEC_CAPACITY)
            n = VEC_CAPACITY;
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < p->util.ncols; c++) {
                const char *cell = p->util.cells[(size_t)(p->util_pos + r) * (size_t)p->util.ncols + (size_t)c];
                Value v = {.is_null = cell == NULL};
                if (cell)
                    v.u.str = (StrRef){cell, (uint32_t)strlen(cell)};
                if (cell)
                    vec_set_value(&p->util_batch->cols[c], (uint32_t)r, &v);
                else
                    vec_set_null(&p->util_batch->cols[c], (uint32_t)r);
            }
        }
        p->util_batch->count = (uint32_t)n;
        p->util_batch->sel = NULL;
        p->util_pos += n;
        if (!send_rows(p, p->util_batch, 0))
            return false;
    }
    return true;
}

/* "<word> <count>" into the portal's tag, truncated like snprintf; done
 * by hand because vfprintf cost ~600 instructions per statement. */
static void put_tag(ExecPortal *p, const char *word, uint64_t count)
{
    char digits[24];
    int nd = 0;
    do {
        digits[nd++] = (char)('0' + count % 10);
        count /= 10;
    } while (count > 0);
    size_t cap = sizeof p->tag - 1, len = word ? strnlen(word, cap) : 0;
    if (len > 0)
        memcpy(p->tag, word, len);
    if (len < cap)
        p->tag[len++] = ' ';
    while (nd > 0 && len < cap)
        p->tag[len++] = digits[--nd];
    p->tag[len] = '\0';
}

static void set_tag(ExecPortal *p)
{
    if (p->plan->kind == PLAN_STMT_INSERT && p->run->insert->node->kind != PLAN_INSERT)
        put_tag(p, p->plan->command, exec__modify_count(p->run->insert));
    else if (p->plan->kind == PLAN_STMT_INSERT)
        put_tag(p, "INSERT 0", exec__insert_count(p->run->insert));
    else if (p->plan->kind == PLAN_STMT_QUERY)
        put_tag(p, p->plan->command ? p->plan->command : "SELECT", p->nrows);
}

static bool portal_step(ExecPortal *p)
{
    if (p->pending && !send_rows(p, p->pending, p->pending_off))
        return false;
    if (p->plan->kind == PLAN_STMT_UTILITY)
        return run_utility(p);
    return exec__plan_run(p->run, portal_emit, p);
}

bool exec_portal_run(ExecPortal *p, uint64_t max_rows, const ExecSink *sink)
{
    if (p->done)
        return true;
    ERR_ASSERT(!p->closed);
    p->sink = sink;
    p->budget = max_rows ? max_rows : UINT64_MAX;
    p->q.txn = p->s->txn;
    ErrJmp jmp;
    volatile bool finished = false;
    if (ERR_TRY(jmp)) {
        finished = portal_step(p);
        err_pop(&jmp);
    } else {
        portal_release(p);
        err_rethrow();
    }
    if (!finished)
        return false;
    p->done = true;
    set_tag(p);
    portal_release(p);
    return true;
}

void exec_portal_command_tag(const ExecPortal *p, char *buf, size_t buf_size)
{
    if (buf_size == 0)
        return;
    size_t len = strnlen(p->tag, buf_size - 1);
    memcpy(buf, p->tag, len);
    buf[len] = '\0';
}

void exec_portal_close(ExecPortal *p)
{
    if (p)
        portal_release(p);
}

/* ---------- EXPLAIN ANALYZE ---------- */

static bool discard_rows(void *ctx, Batch *b)
{
    (void)ctx;
    (void)b;
    return true;
}

/* Times were measured per operator (self); EXPLAIN shows them with children. */
static double inclusive_ms(const PlanNode *n, PlanNodeStats *stats, int nstats)
{
    if (n == NULL)
        return 0;
    double t = inclusive_ms(n->left, stats, nstats) + inclusive_ms(n->right, stats, nstats);
    for (int i = 0; i < n->nchildren; i++)
        t += inclusive_ms(n->children[i], stats, nstats);
    if (n->node_id < 0 || n->node_id >= nstats)
        return t;
    stats[n->node_id].time_ms += t;
    return stats[n->node_id].time_ms;
}

double exec__run_analyze(ExecSession *s, const Plan *plan, const Value *params, int nparams, MemArena *arena,
                         PlanNodeStats *stats)
{
    ERR_ASSERT(plan->root != NULL);
    ExecQuery *q = MEM_NEW(arena, ExecQuery);
    q->arena = arena;
    q->txn = s->txn;
    q->params = params;
    q->nparams = nparams;
    q->shared = exec__shared_new(q, plan);
    q->shared->stats = stats;
    q->shared->nstats = plan->nnodes;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    ExecPlanRun *run = exec__plan_new(q);
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        exec__plan_build(run, plan->root);
        exec__plan_run(run, discard_rows, NULL);
        err_pop(&jmp);
    } else {
        exec__subs_close(q);
        exec__plan_close(run);
        for (int i = 0; i < q->nscratch; i++)
            mem_arena_destroy(q->scratch[i]);
        err_rethrow();
    }
    exec__subs_close(q);
    exec__plan_close(run);
    for (int i = 0; i < q->nscratch; i++)
        mem_arena_destroy(q->scratch[i]);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    inclusive_ms(plan->root, stats, plan->nnodes);
    return (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
}
