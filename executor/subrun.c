/*
 * subrun.c — nested runs: pulling a plan subtree one batch at a time, and
 * materialised row sets.
 *
 * Why: several operators consume whole subtrees that are not part of their
 * own pipeline — APPEND reads its children one after the other, a CTE scan
 * materialises its WITH query on first read, a recursive union re-runs its
 * recursive term per iteration, subplans and lateral nested loops re-run
 * their subtree per outer row. A nested run is an ordinary ExecPlanRun whose
 * root pipeline suspends after every output batch (the same mechanism as
 * portal suspension), so the consumer pulls batches one at a time and every
 * pipeline inside keeps its batch-at-a-time, cancel-checking loop.
 *
 * Reruns: a rerunnable subtree lives in an arena of its own; exec__sub_start
 * closes the previous run (scans ended, scratch arenas destroyed), resets
 * that arena and builds fresh operators with the new outer-reference values
 * (compiled as constants). The plan is never re-planned; the cost per rerun
 * is the operators' initialisation (documented in README.md).
 *
 * Memory: a non-rerun subtree allocates in its parent's arena; row sets in
 * the arena given (the portal's query arena for CTEs).
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

#include <string.h>
#include "common/error.h"

static void sub_register(ExecQuery *q, ExecSubRun *s)
{
    if (q->nsubs == q->subs_cap) {
        int cap = q->subs_cap ? q->subs_cap * 2 : 8;
        q->subs = mem_realloc(q->arena, q->subs, sizeof(ExecSubRun *) * (size_t)q->subs_cap,
                              sizeof(ExecSubRun *) * (size_t)cap);
        q->subs_cap = cap;
    }
    q->subs[q->nsubs++] = s;
}

ExecSubRun *exec__sub_new(ExecQuery *parent, const PlanNode *root, bool rerun)
{
    ExecSubRun *s = MEM_NEW(parent->arena, ExecSubRun);
    s->root = root;
    s->parent = parent;
    s->rerun = rerun;
    s->arena = parent->arena;
    sub_register(parent, s);      /* closed with the parent's run */
    if (rerun)
        s->arena = mem_arena_create("subplan run");
    return s;
}

/* End the current run: nested runs and operators closed, scratch arenas destroyed. */
static void sub_end(ExecSubRun *s)
{
    exec__subs_close(&s->q);
    if (s->run)
        exec__plan_close(s->run);
    for (int i = 0; i < s->q.nscratch; i++)
        mem_arena_destroy(s->q.scratch[i]);
    s->q.nscratch = 0;
    s->run = NULL;
}

void exec__sub_start(ExecSubRun *s, const Value *outer, int nouter)
{
    sub_end(s);
    if (s->rerun)
        mem_arena_reset(s->arena);
    s->q = *s->parent;
    s->q.arena = s->arena;
    s->q.scratch = NULL;
    s->q.nscratch = s->q.scratch_cap = 0;
    s->q.outer = outer;
    s->q.nouter = nouter;
    s->q.subs = NULL;
    s->q.nsubs = s->q.subs_cap = 0;
    s->finished = false;
    s->starts++;
    s->run = exec__plan_new(&s->q);
    exec__plan_build(s->run, s->root);
}

static bool sub_emit(void *ctx, Batch *b)
{
    ExecSubRun *s = ctx;
    s->batch = b;
    s->got = true;
    return false;        /* suspend after every batch: the consumer pulls */
}

bool exec__sub_next(ExecSubRun *s, Batch **out)
{
    if (s->run == NULL)
        exec__sub_start(s, s->parent->outer, s->parent->nouter);
    if (s->finished)
        return false;
    s->got = false;
    exec__plan_run(s->run, sub_emit, s);
    if (s->got) {
        *out = s->batch;
        return true;
    }
    s->finished = true;
    return false;
}

void exec__subs_close(ExecQuery *q)
{
    for (int i = 0; i < q->nsubs; i++) {
        ExecSubRun *s = q->subs[i];
        sub_end(s);
        if (s->rerun && s->arena) {
            mem_arena_destroy(s->arena);
            s->arena = NULL;
        }
    }
    q->nsubs = 0;
}

/* ---------- row sets ---------- */

void exec__rowset_init(ExecRowSet *rs, const PlanNode *n, MemArena *arena)
{
    memset(rs, 0, sizeof *rs);
    rs->ncols = n->ncols;
    rs->cols = MEM_NEW_ARRAY(arena, ExecColumn, n->ncols > 0 ? n->ncols : 1);
    for (int c = 0; c < n->ncols; c++)
        exec__col_init(&rs->cols[c], n->col_types[c], arena, 1024);
}

void exec__rowset_clear(ExecRowSet *rs)
{
    for (int c = 0; c < rs->ncols; c++) {
        ExecColumn *col = &rs->cols[c];
        memset(col->validity, 0, (size_t)(col->cap / 64) * sizeof(uint64_t));
        col->count = 0;
        col->has_null = false;
    }
    rs->nrows = 0;
}

void exec__rowset_append(ExecRowSet *rs, MemArena *arena, const Batch *b)
{
    const uint16_t *rows = b->sel ? b->sel : exec__identity_sel;
    for (int c = 0; c < rs->ncols; c++)
        exec__col_append(&rs->cols[c], arena, &b->cols[c], rows, b->count);
    if ((uint64_t)rs->nrows + b->count > UINT32_MAX / 2)
        err_raise(ERRCODE_PROGRAM_LIMIT_EXCEEDED, "too many rows in a materialised result");
    rs->nrows += b->count;
}

void exec__rowset_view(const ExecRowSet *rs, uint32_t pos, Batch *out)
{
    uint32_t n = rs->nrows - pos < VEC_CAPACITY ? rs->nrows - pos : VEC_CAPACITY;
    for (int c = 0; c < rs->ncols; c++)
        exec__col_view(&rs->cols[c], pos, &out->cols[c]);
    out->count = n;
    out->sel = NULL;
}
