/*
 * plan_window.c — PLAN_WINDOW nodes for the window functions bound by
 * bind_window.c, one per distinct window specification, in order of first
 * appearance:
 *
 *   input → Project (input columns + partition keys + order keys + function
 *           arguments + RANGE offset bounds) → Sort (partition, order)
 *         → Window (appends one column per call) → next specification ...
 *
 * Every node keeps its input's columns first, so expressions positional
 * over the input stay valid above the windows; the markers left by binding
 * are rewritten into references to the calls' result columns.
 *
 * RANGE with an offset: the single ORDER BY key is sorted in a type wide
 * enough for key ± offset not to overflow (int2/int4 → int8, int8 →
 * numeric, float4 → float8, date → timestamp), and the frame's bounds are
 * precomputed per row as columns (plan.h's WindowFrame).
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"

#include <string.h>

typedef struct ProjBuild {
    PlanNode *p;            /* the Project being built */
    int cap;
} ProjBuild;

static int add_col(Binder *b, ProjBuild *pb, Expr *e)
{
    PlanNode *p = pb->p;
    for (int i = 0; i < p->ncols; i++)
        if (plan__expr_equal(p->exprs[i], e))
            return i;
    if (p->ncols == pb->cap) {
        int cap = pb->cap * 2 + 8;
        p->exprs = mem_realloc(b->arena, p->exprs, sizeof(Expr *) * (size_t)pb->cap, sizeof(Expr *) * (size_t)cap);
        p->col_types = mem_realloc(b->arena, p->col_types, sizeof(SqlType) * (size_t)pb->cap,
                                   sizeof(SqlType) * (size_t)cap);
        p->col_names = mem_realloc(b->arena, p->col_names, sizeof(char *) * (size_t)pb->cap,
                                   sizeof(char *) * (size_t)cap);
        pb->cap = cap;
    }
    p->exprs[p->ncols] = e;
    p->col_types[p->ncols] = e->type;
    p->col_names[p->ncols] = plan__deparse(b->arena, e, p->left->col_names);
    return p->ncols++;
}

static Expr *col_ref(Binder *b, const PlanNode *n, int i)
{
    Expr *c = plan__make_expr(b->arena, EXPR_COLUMN, n->col_types[i], -1, 0);
    c->index = i;
    c->name = n->col_names[i];
    return c;
}

/* An argument as the contract wants it: a column of the Project, or an
 * expression without columns. */
static Expr *arg_col(Binder *b, ProjBuild *pb, Expr *e)
{
    if (!e || !plan__expr_has_vars(e))
        return e;
    return col_ref(b, pb->p, add_col(b, pb, e));
}

static ProjBuild identity(Binder *b, PlanNode *top)
{
    ProjBuild pb = {plan__new_node(b->arena, PLAN_PROJECT, 0), top->ncols + 8};
    PlanNode *p = pb.p;
    p->left = top;
    p->exprs = MEM_NEW_ARRAY(b->arena, Expr *, pb.cap);
    p->col_types = MEM_NEW_ARRAY(b->arena, SqlType, pb.cap);
    p->col_names = MEM_NEW_ARRAY(b->arena, const char *, pb.cap);
    for (int i = 0; i < top->ncols; i++) {
        p->exprs[i] = col_ref(b, top, i);
        p->col_types[i] = top->col_types[i];
        p->col_names[i] = top->col_names[i];
    }
    p->ncols = top->ncols;
    p->est_rows = top->est_rows;
    return pb;
}

static uint32_t wide_type(uint32_t t)
{
    switch (t) {
    case TYPE_INT2:
    case TYPE_INT4: return TYPE_INT8;
    case TYPE_INT8:
    case TYPE_NUMERIC: return TYPE_NUMERIC;
    case TYPE_FLOAT4:
    case TYPE_FLOAT8: return TYPE_FLOAT8;
    case TYPE_DATE:
    case TYPE_TIMESTAMP: return TYPE_TIMESTAMP;
    case TYPE_TIMESTAMPTZ: return TYPE_TIMESTAMPTZ;
    case TYPE_INTERVAL: return TYPE_INTERVAL;
    default: return TYPE_INVALID;
    }
}

/* RANGE offset: the bound column key ± offset (in the key's wide type). */
static int range_bound(Binder *b, ProjBuild *pb, Expr *key, const SortKey *dir, Expr *off, bool preceding)
{
    uint32_t kt = key->type.oid;
    bool datetime = kt == TYPE_TIMESTAMP || kt == TYPE_TIMESTAMPTZ || kt == TYPE_INTERVAL;
    Expr *o = plan__coerce(b, off, SQLTYPE(datetime ? TYPE_INTERVAL : kt), CAST_IMPLICIT);
    if (!o || (datetime && off->type.oid != TYPE_INTERVAL && off->type.oid != TYPE_UNKNOWN))
        plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, off->location,
                       "RANGE with offset PRECEDING/FOLLOWING is not supported for column type %s and offset type %s",
                       plan__type_name(b, key->type), plan__type_name(b, off->type));
    bool minus = preceding != dir->descending;
    Expr *e = plan__make_op(b, minus ? "-" : "+", plan__copy_expr(b->arena, key), plan__fold(b, o), off->location);
    if (e->type.oid != kt) {
        Expr *c = plan__coerce(b, e, key->type, CAST_ASSIGNMENT);
        if (c)
            e = c;
    }
    return add_col(b, pb, e);
}

static void plan_calls(Binder *b, ProjBuild *pb, PlanNode *w, int spec, PlanToPos to_pos, void *ctx, int *pos)
{
    int n = 0;
    for (int i = 0; i < b->nwins; i++)
        n += b->wins[i].spec == spec;
    w->wincalls = MEM_NEW_ARRAY(b->arena, WindowCall, n + 1);
    for (int i = 0; i < b->nwins; i++) {
        if (b->wins[i].spec != spec)
            continue;
        WindowCall c = b->wins[i].call;
        Expr **args = MEM_NEW_ARRAY(b->arena, Expr *, c.nargs + 1);
        for (int k = 0; k < c.nargs; k++)
            args[k] = arg_col(b, pb, to_pos(b, c.args[k], ctx));
        c.args = args;
        if (c.kind == WIN_AGG) {
            AggCall *a = &c.agg;
            if (a->arg)
                a->arg = arg_col(b, pb, to_pos(b, a->arg, ctx));
            if (a->filter)
                a->filter = arg_col(b, pb, to_pos(b, a->filter, ctx));
            if (a->nargs > 0) {
                Expr **aa = MEM_NEW_ARRAY(b->arena, Expr *, a->nargs);
                for (int k = 0; k < a->nargs; k++)
                    aa[k] = arg_col(b, pb, to_pos(b, a->args[k], ctx));
                a->args = aa;
                a->arg = aa[0];
            }
        }
        pos[i] = w->nwincalls;   /* relative; made absolute by the caller */
        w->wincalls[w->nwincalls++] = c;
    }
}

static PlanNode *plan_spec(Binder *b, PlanNode *top, int spec, PlanToPos to_pos, void *ctx, int *pos)
{
    BoundWinSpec *s = &b->specs[spec];
    ProjBuild pb = identity(b, top);
    WindowFrame frame = s->frame;
    bool range_off = frame.mode == FRAME_RANGE && (frame.start_offset || frame.end_offset);
    int *pcols = MEM_NEW_ARRAY(b->arena, int, s->npart + 1);
    for (int i = 0; i < s->npart; i++)
        pcols[i] = add_col(b, &pb, to_pos(b, s->part[i], ctx));
    SortKey *okeys = MEM_NEW_ARRAY(b->arena, SortKey, s->norder + 1);
    for (int i = 0; i < s->norder; i++) {
        Expr *k = to_pos(b, s->order[i], ctx);
        if (range_off) {
            uint32_t wt = wide_type(k->type.oid);
            if (wt == TYPE_INVALID)
                plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, s->order[i]->location,
                               "RANGE with offset PRECEDING/FOLLOWING is not supported for column type %s",
                               plan__type_name(b, k->type));
            if (wt != k->type.oid)
                k = plan__coerce(b, k, SQLTYPE(wt), CAST_IMPLICIT);
        }
        okeys[i] = s->dirs[i];
        okeys[i].column = add_col(b, &pb, k);
    }
    if (range_off) {
        Expr *key = pb.p->exprs[okeys[0].column];
        if (frame.start_offset)
            frame.start_bound_col = range_bound(b, &pb, key, &okeys[0], frame.start_offset,
                                                frame.start_kind == BOUND_OFFSET_PRECEDING);
        if (frame.end_offset)
            frame.end_bound_col = range_bound(b, &pb, key, &okeys[0], frame.end_offset,
                                              frame.end_kind == BOUND_OFFSET_PRECEDING);
    }
    frame.start_offset = plan__remap(b, frame.start_offset, NULL, 0);
    frame.end_offset = plan__remap(b, frame.end_offset, NULL, 0);
    PlanNode *w = plan__new_node(b->arena, PLAN_WINDOW, 0);
    plan_calls(b, &pb, w, spec, to_pos, ctx, pos);
    PlanNode *below = pb.p;
    if (s->npart + s->norder > 0) {
        PlanNode *sort = plan__new_node(b->arena, PLAN_SORT, below->ncols);
        sort->left = below;
        memcpy(sort->col_types, below->col_types, sizeof(SqlType) * (size_t)below->ncols);
        memcpy(sort->col_names, below->col_names, sizeof(char *) * (size_t)below->ncols);
        sort->nsort = s->npart + s->norder;
        sort->sort_keys = MEM_NEW_ARRAY(b->arena, SortKey, sort->nsort);
        for (int i = 0; i < s->npart; i++)
            sort->sort_keys[i] = (SortKey){pcols[i], false, false};
        memcpy(sort->sort_keys + s->npart, okeys, sizeof(SortKey) * (size_t)s->norder);
        sort->est_rows = below->est_rows;
        below = sort;
    }
    w->left = below;
    w->ncols = below->ncols + w->nwincalls;
    w->col_types = MEM_NEW_ARRAY(b->arena, SqlType, w->ncols + 1);
    w->col_names = MEM_NEW_ARRAY(b->arena, const char *, w->ncols + 1);
    memcpy(w->col_types, below->col_types, sizeof(SqlType) * (size_t)below->ncols);
    memcpy(w->col_names, below->col_names, sizeof(char *) * (size_t)below->ncols);
    for (int i = 0; i < w->nwincalls; i++) {
        w->col_types[below->ncols + i] = w->wincalls[i].type;
        w->col_names[below->ncols + i] = w->wincalls[i].display;
    }
    for (int i = 0; i < b->nwins; i++)
        if (b->wins[i].spec == spec)
            pos[i] += below->ncols;
    w->npartition = s->npart;
    w->partition_cols = pcols;
    w->nwin_order = s->norder;
    w->win_order = okeys;
    w->frame = frame;
    w->est_rows = below->est_rows;
    return w;
}

static Expr *rewrite(Binder *b, const Expr *e, const int *pos, const PlanNode *top)
{
    if (e->kind == EXPR_AGG_RESULT && e->negated) {
        Expr *c = col_ref(b, top, pos[e->index]);
        c->location = e->location;
        return c;
    }
    Expr *c = MEM_NEW(b->arena, Expr);
    *c = *e;
    if (e->nargs > 0) {
        c->args = MEM_NEW_ARRAY(b->arena, Expr *, e->nargs);
        for (int i = 0; i < e->nargs; i++)
            c->args[i] = rewrite(b, e->args[i], pos, top);
    }
    return c;
}

PlanNode *plan__plan_windows(Binder *b, PlanNode *top, Expr **exprs, int n, PlanToPos to_pos, void *ctx)
{
    int *pos = MEM_NEW_ARRAY(b->arena, int, b->nwins + 1);
    for (int s = 0; s < b->nspecs; s++)
        top = plan_spec(b, top, s, to_pos, ctx, pos);
    for (int i = 0; i < n; i++)
        exprs[i] = rewrite(b, exprs[i], pos, top);
    return top;
}
