/*
 * estimate.c — cardinality estimates for the planner's choices: how many
 * rows a scan with its filter, a join and a GROUP BY produce.
 *
 * The inputs are ANALYZE's statistics (storage/stats.c: row count, per
 * column null fraction, n_distinct, min/max of fixed-width types), read
 * through store_table_stats; without ANALYZE a table's row count is the
 * live count storage keeps, and the column-level figures fall back to
 * PostgreSQL's defaults (utils/selfuncs.h: 0.005 for equality, 1/3 for
 * ranges and anything unknown, 200 distinct values). The formulas are
 * PostgreSQL's (selfuncs.c) minus what needs statistics we do not gather
 * (most common values, histograms): with only min/max, a range is a linear
 * interpolation over [min, max], i.e. a one-bucket histogram.
 *
 * Estimates only steer choices (build side, hash-table pre-sizing); a bad
 * one costs speed, never a wrong answer.
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"
#include "planner/estimate.h"

#include <math.h>
#include <string.h>
#include "storage/storage.h"

double plan__est_clamp(double sel)
{
    if (isnan(sel))
        return PLAN_EST_DEFAULT_INEQ_SEL;
    return sel < 0 ? 0 : sel > 1 ? 1 : sel;
}

double plan__est_ndistinct(const PlanColStats *s)
{
    double nd;
    if (s->unique)
        nd = s->rows * (1 - s->null_frac);
    else if (s->analyzed)
        nd = s->n_distinct;
    else
        nd = s->rows < PLAN_EST_DEFAULT_NUM_DISTINCT ? s->rows : PLAN_EST_DEFAULT_NUM_DISTINCT;
    return nd < 1 ? 1 : nd;
}

double plan__est_sel_eq(const PlanColStats *s)
{
    if (!s->analyzed && !s->unique)
        return PLAN_EST_DEFAULT_EQ_SEL;
    return plan__est_clamp((1 - s->null_frac) / plan__est_ndistinct(s));
}

double plan__est_sel_range(const PlanColStats *s, PlanEstOp op, double c)
{
    if (!s->has_minmax || isnan(c))
        return PLAN_EST_DEFAULT_INEQ_SEL;
    double below;   /* fraction of non-null values < c (≈ <= c: continuous) */
    if (c < s->min)
        below = 0;
    else if (c > s->max)
        below = 1;
    else if (s->max > s->min)
        below = (c - s->min) / (s->max - s->min);
    else   /* one value, c equals it: half below, half above */
        below = 0.5;
    double frac = op == PLAN_EST_LT || op == PLAN_EST_LE ? below : 1 - below;
    return plan__est_clamp(frac * (1 - s->null_frac));
}

double plan__est_sel_null(const PlanColStats *s, bool is_null)
{
    if (!s->analyzed)
        return is_null ? PLAN_EST_DEFAULT_UNK_SEL : 1 - PLAN_EST_DEFAULT_UNK_SEL;
    return plan__est_clamp(is_null ? s->null_frac : 1 - s->null_frac);
}

double plan__est_join_sel(const PlanColStats *l, const PlanColStats *r, double l_rows, double r_rows)
{
    double nd1 = plan__est_ndistinct(l), nd2 = plan__est_ndistinct(r);
    if (l_rows >= 1 && nd1 > l_rows)
        nd1 = l_rows;
    if (r_rows >= 1 && nd2 > r_rows)
        nd2 = r_rows;
    double sel = (1 - l->null_frac) * (1 - r->null_frac);
    return plan__est_clamp(sel / (nd1 > nd2 ? nd1 : nd2));
}

double plan__est_groups(const PlanColStats *cols, int n, double input_rows)
{
    if (n == 0 || input_rows < 1)
        return 1;
    double g = 1;
    for (int i = 0; i < n; i++) {
        double nd = plan__est_ndistinct(&cols[i]);
        if (cols[i].null_frac > 0)
            nd += 1;   /* the NULL group */
        g *= nd;
        if (g > input_rows)
            return input_rows;
    }
    return g;
}

/* ---- over the range table ---- */

double plan__est_table_rows(StoreTable *t)
{
    StoreColumnStats cs;
    uint64_t rows = 0;
    if (store_table_ncols(t) > 0 && store_table_stats(t, 0, &cs, &rows))
        return (double)rows;
    return (double)store_table_row_count(t, NULL);
}

/* Value of a constant of a type whose physical order is numeric (the types
 * ANALYZE keeps min/max for and compares as signed numbers); NAN otherwise. */
static double const_number(uint32_t oid, const Value *v)
{
    if (v->is_null)
        return NAN;
    switch (oid) {
    case TYPE_INT2: return v->u.i16;
    case TYPE_INT4: case TYPE_DATE: return v->u.i32;
    case TYPE_INT8: case TYPE_TIMESTAMP: case TYPE_TIMESTAMPTZ: case TYPE_TIME: return (double)v->u.i64;
    case TYPE_FLOAT4: return v->u.f32;
    case TYPE_FLOAT8: return v->u.f64;
    default: return NAN;
    }
}

bool plan__est_column(const Binder *b, const Expr *e, PlanColStats *out)
{
    memset(out, 0, sizeof *out);
    while (e && e->kind == EXPR_CAST && e->nargs == 1)
        e = e->args[0];
    if (!e || e->kind != EXPR_COLUMN || e->index < 0)
        return false;
    int r = -1;   /* not plan__var_rte: a stray id must not assert here */
    for (int i = 0; i < b->nrtes && r < 0; i++)
        if (e->index >= b->rtes[i]->var_base && e->index < b->rtes[i]->var_base + b->rtes[i]->ncols)
            r = i;
    if (r < 0 || !b->rtes[r]->table)
        return false;
    const RangeEntry *re = b->rtes[r];
    int col = e->index - re->var_base;
    out->rows = plan__est_table_rows(re->table);
    out->unique = store_table_npkey(re->table) == 1 && store_table_pkey(re->table)[0] == col;
    StoreColumnStats cs;
    uint64_t rows = 0;
    if (!store_table_stats(re->table, col, &cs, &rows))
        return true;
    out->analyzed = true;
    out->null_frac = cs.null_frac;
    out->n_distinct = cs.n_distinct < 0 ? -cs.n_distinct * (double)rows : cs.n_distinct;
    uint32_t oid = re->coltypes[col].oid;
    if (cs.has_minmax && !isnan(const_number(oid, &cs.min))) {
        out->has_minmax = true;
        out->min = const_number(oid, &cs.min);
        out->max = const_number(oid, &cs.max);
    }
    return true;
}

/* "col op const" (either order): the column's statistics and the constant
 * (NULL when not a constant of the column's type, e.g. a parameter). */
static bool col_and_const(const Binder *b, const Expr *e, PlanColStats *s, const Expr **k, bool *flipped)
{
    *flipped = false;
    if (plan__est_column(b, e->args[0], s)) {
        *k = e->args[1];
    } else if (plan__est_column(b, e->args[1], s)) {
        *k = e->args[0];
        *flipped = true;
    } else {
        return false;
    }
    const Expr *col = *flipped ? e->args[1] : e->args[0];
    if ((*k)->kind != EXPR_CONST || col->kind != EXPR_COLUMN || (*k)->type.oid != col->type.oid)
        *k = NULL;
    return true;
}

static double op_sel(const Binder *b, const Expr *e)
{
    const char *op = e->func->name;
    PlanColStats s;
    const Expr *k;
    bool flipped;
    if (!col_and_const(b, e, &s, &k, &flipped))
        return strcmp(op, "=") == 0 ? PLAN_EST_DEFAULT_EQ_SEL : PLAN_EST_DEFAULT_INEQ_SEL;
    if (k && k->value.is_null)
        return 0;   /* strict operator, NULL constant */
    if (strcmp(op, "=") == 0)
        return plan__est_sel_eq(&s);
    if (strcmp(op, "<>") == 0)
        return plan__est_clamp(1 - plan__est_sel_eq(&s) - s.null_frac);
    PlanEstOp o;
    if (strcmp(op, "<") == 0)
        o = flipped ? PLAN_EST_GT : PLAN_EST_LT;
    else if (strcmp(op, "<=") == 0)
        o = flipped ? PLAN_EST_GE : PLAN_EST_LE;
    else if (strcmp(op, ">") == 0)
        o = flipped ? PLAN_EST_LT : PLAN_EST_GT;
    else if (strcmp(op, ">=") == 0)
        o = flipped ? PLAN_EST_LE : PLAN_EST_GE;
    else if (strcmp(op, "~~") == 0 || strcmp(op, "~~*") == 0 || strcmp(op, "~") == 0 || strcmp(op, "~*") == 0)
        return PLAN_EST_DEFAULT_MATCH_SEL;
    else
        return PLAN_EST_DEFAULT_INEQ_SEL;
    return plan__est_sel_range(&s, o, k ? const_number(k->type.oid, &k->value) : NAN);
}

/* x [NOT] IN (c1, ...): the sum of the equalities (distinct constants). */
static double in_sel(const Binder *b, const Expr *e)
{
    PlanColStats s;
    double one = plan__est_column(b, e->args[0], &s) ? plan__est_sel_eq(&s) : PLAN_EST_DEFAULT_EQ_SEL;
    double sel = 0;
    for (int i = 1; i < e->nargs; i++)
        if (e->args[i]->kind != EXPR_CONST || !e->args[i]->value.is_null)
            sel += one;
    sel = plan__est_clamp(sel);
    return e->negated ? plan__est_clamp(1 - sel - s.null_frac) : sel;
}

double plan__est_clause_sel(const Binder *b, const Expr *e)
{
    PlanColStats s;
    double sel;
    switch (e->kind) {
    case EXPR_AND:
        sel = 1;
        for (int i = 0; i < e->nargs; i++)
            sel *= plan__est_clause_sel(b, e->args[i]);
        return sel;
    case EXPR_OR:
        sel = 0;
        for (int i = 0; i < e->nargs; i++) {
            double s2 = plan__est_clause_sel(b, e->args[i]);
            sel = sel + s2 - sel * s2;
        }
        return sel;
    case EXPR_NOT:
        return plan__est_clamp(1 - plan__est_clause_sel(b, e->args[0]));
    case EXPR_IS_NULL:
    case EXPR_IS_NOT_NULL:
        if (!plan__est_column(b, e->args[0], &s))
            return e->kind == EXPR_IS_NULL ? PLAN_EST_DEFAULT_UNK_SEL : 1 - PLAN_EST_DEFAULT_UNK_SEL;
        return plan__est_sel_null(&s, e->kind == EXPR_IS_NULL);
    case EXPR_IN_LIST:
        return in_sel(b, e);
    case EXPR_CONST:
        return e->value.is_null || !e->value.u.b ? 0 : 1;
    case EXPR_COLUMN:
        return 0.5;   /* a boolean column alone: PostgreSQL's boolvarsel default */
    case EXPR_FUNC:
        if (e->nargs == 2 && e->func)
            return op_sel(b, e);
        return PLAN_EST_DEFAULT_INEQ_SEL;
    default:
        return PLAN_EST_DEFAULT_INEQ_SEL;
    }
}

double plan__est_group_rows(const Binder *b, Expr *const *exprs, int n, double input_rows)
{
    if (n <= 0)
        return 1;
    PlanColStats one[16];
    int k = n < 16 ? n : 16;
    for (int i = 0; i < k; i++)
        if (!plan__est_column(b, exprs[i], &one[i]))
            one[i].rows = input_rows;   /* an expression: default n_distinct */
    return plan__est_groups(one, k, input_rows);
}
