/*
 * plan_select.c — the plan of a bound SELECT, bottom up:
 *
 *   FROM (scans with pushed filters, joins; plan_join.c) or a one-row VALUES
 *   → Agg (GROUP BY keys then aggregates; no keys = exactly one row;
 *     items that depend on plain-column items computed by a Project above)
 *   → Filter (HAVING)
 *   → Project (select list, then hidden ORDER BY columns)
 *   → Distinct → Sort → Limit/Offset
 *   → Project (drops hidden columns, only when there are some)
 *
 * A SELECT without FROM, WHERE, aggregates or hidden columns is a single
 * PLAN_VALUES row of the select-list expressions. A VALUES list is a
 * PLAN_VALUES with column types from select_common_type per column.
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"
#include "planner/select_int.h"
#include "planner/estimate.h"

#include <stdint.h>
#include <string.h>

static PlanNode *wrap(Binder *b, PlanKind kind, PlanNode *child)
{
    PlanNode *n = plan__new_node(b->arena, kind, child->ncols);
    n->left = child;
    n->est_rows = child->est_rows;   /* an upper bound for Filter/Distinct/Limit */
    memcpy(n->col_types, child->col_types, sizeof(SqlType) * (size_t)child->ncols);
    memcpy(n->col_names, child->col_names, sizeof(char *) * (size_t)child->ncols);
    return n;
}

static const char *display(Binder *b, const Expr *e, const char *const *names)
{
    return plan__deparse(b->arena, e, names);
}

static PlanNode *make_project(Binder *b, PlanNode *child, Expr **exprs, int n)
{
    PlanNode *p = plan__new_node(b->arena, PLAN_PROJECT, n);
    p->left = child;
    p->exprs = exprs;
    p->est_rows = child->est_rows;
    for (int i = 0; i < n; i++) {
        p->col_types[i] = exprs[i]->type;
        p->col_names[i] = display(b, exprs[i], child->col_names);
    }
    return p;
}

/* Remap every expression of an aggregate call to the input layout. */
void plan__remap_agg_call(Binder *b, AggCall *c, const int *layout, int nlayout)
{
    c->arg = plan__remap(b, c->arg, layout, nlayout);
    c->filter = plan__remap(b, c->filter, layout, nlayout);
    c->direct_arg = plan__remap(b, c->direct_arg, layout, nlayout);
    if (c->nargs > 0) {
        Expr **args = MEM_NEW_ARRAY(b->arena, Expr *, c->nargs);
        for (int k = 0; k < c->nargs; k++)
            args[k] = plan__remap(b, c->args[k], layout, nlayout);
        c->args = args;
        c->arg = args[0];
    }
    if (c->norder > 0) {
        Expr **ord = MEM_NEW_ARRAY(b->arena, Expr *, c->norder);
        for (int k = 0; k < c->norder; k++)
            ord[k] = plan__remap(b, c->order_exprs[k], layout, nlayout);
        c->order_exprs = ord;
    }
}

/* GROUPING SETS made only of () sets: one plain aggregate row, repeated
 * once per set (a cross join with the set indexes), in the layout of a
 * grouping-sets PLAN_AGG: aggregates, then the set index. */
static PlanNode *empty_sets(Binder *b, PlanNode *a, int ngsets)
{
    a->ngsets = 0;
    a->gsets = NULL;
    a->ncols--;
    PlanNode *v = plan__new_node(b->arena, PLAN_VALUES, 1);
    v->nrows = ngsets;
    v->rows = MEM_NEW_ARRAY(b->arena, Expr **, ngsets);
    for (int i = 0; i < ngsets; i++) {
        v->rows[i] = MEM_NEW_ARRAY(b->arena, Expr *, 1);
        Value x = {.is_null = false};
        x.u.i32 = i;
        v->rows[i][0] = plan__make_const(b->arena, SQLTYPE(TYPE_INT4), x, -1);
    }
    v->col_types[0] = SQLTYPE(TYPE_INT4);
    v->col_names[0] = "grouping_set";
    v->est_rows = ngsets;
    PlanNode *j = plan__new_node(b->arena, PLAN_NESTED_LOOP, a->ncols + 1);
    j->left = a;
    j->right = v;
    memcpy(j->col_types, a->col_types, sizeof(SqlType) * (size_t)a->ncols);
    memcpy(j->col_names, a->col_names, sizeof(char *) * (size_t)a->ncols);
    j->col_types[a->ncols] = v->col_types[0];
    j->col_names[a->ncols] = v->col_names[0];
    j->est_rows = ngsets;
    return j;
}

static PlanNode *make_agg(Binder *b, PlanNode *input, const int *layout, int nlayout,
                          const SelectState *st)
{
    PlanNode *a = plan__new_node(b->arena, PLAN_AGG, st->ngroups + b->naggs + (st->ngsets > 0 ? 1 : 0));
    a->ngsets = st->ngsets;
    a->gsets = st->gsets;
    if (st->ngsets > 0) {
        a->col_types[a->ncols - 1] = SQLTYPE(TYPE_INT4);
        a->col_names[a->ncols - 1] = "grouping_set";
    }
    a->left = input;
    a->ngroups = st->ngroups;
    /* groups: estimate.c (n_distinct products capped by the input rows);
     * the executor pre-sizes its group table from it */
    a->est_rows = plan__est_group_rows(b, st->groups, st->ngroups, input->est_rows) *
                  (st->ngsets > 0 ? st->ngsets : 1);
    a->group_exprs = MEM_NEW_ARRAY(b->arena, Expr *, st->ngroups + 1);
    for (int i = 0; i < st->ngroups; i++) {
        a->group_exprs[i] = plan__remap(b, st->groups[i], layout, nlayout);
        a->col_types[i] = a->group_exprs[i]->type;
        a->col_names[i] = display(b, a->group_exprs[i], input->col_names);
    }
    bool group_srf = false;
    for (int i = 0; i < st->ngroups; i++)
        group_srf |= plan__expr_has_srf(a->group_exprs[i]);
    if (group_srf) {
        /* GROUP BY unnest(x): the SRFs run in ProjectSets below the
         * aggregate (input columns keep their positions; the keys read the
         * SRF columns appended after them) */
        input = plan__plan_srfs(b, input, a->group_exprs, st->ngroups);
        a->left = input;
        for (int i = 0; i < st->ngroups; i++)
            a->col_names[i] = display(b, a->group_exprs[i], input->col_names);
    }
    a->naggs = b->naggs;
    a->aggs = MEM_NEW_ARRAY(b->arena, AggCall, b->naggs + 1);
    for (int i = 0; i < b->naggs; i++) {
        AggCall *c = &a->aggs[i];
        *c = b->aggs[i].call;
        plan__remap_agg_call(b, c, layout, nlayout);
        int col = st->ngroups + i;
        a->col_types[col] = c->type;
        const char *arg = c->arg ? plan__deparse(b->arena, c->arg, input->col_names) : "*";
        a->col_names[col] = mem_printf(b->arena, "%s(%s%s)", c->agg->name, c->distinct ? "DISTINCT " : "", arg);
    }
    if (st->ngsets > 0 && st->ngroups == 0)
        return empty_sets(b, a, st->ngsets);
    return a;
}

/* GROUP BY items that depend on plain grouped columns (bind_group.c,
 * plan__group_derived) stay out of the aggregate's key; a Project right
 * above it computes them for every group and restores the layout (keys,
 * aggregates) the post-aggregate expressions and HAVING expect. */
static PlanNode *agg_derived(Binder *b, PlanNode *input, const int *layout, int nlayout,
                             const SelectState *st, uint64_t derived)
{
    SelectState red = *st;
    red.groups = MEM_NEW_ARRAY(b->arena, Expr *, st->ngroups);
    red.ngroups = 0;
    for (int i = 0; i < st->ngroups; i++)
        if (!((derived >> i) & 1))
            red.groups[red.ngroups++] = st->groups[i];
    PlanNode *a = make_agg(b, input, layout, nlayout, &red);
    int n = st->ngroups + b->naggs;
    Expr **exprs = MEM_NEW_ARRAY(b->arena, Expr *, n);
    for (int i = 0; i < st->ngroups; i++)
        exprs[i] = plan__grouped_expr(b, st->groups[i], &red);
    for (int j = 0; j < b->naggs; j++) {
        exprs[st->ngroups + j] = plan__make_expr(b->arena, EXPR_COLUMN, a->col_types[red.ngroups + j], -1, 0);
        exprs[st->ngroups + j]->index = red.ngroups + j;
    }
    PlanNode *p = make_project(b, a, exprs, n);
    p->est_rows = a->est_rows;
    p->agg_derived = true;
    return p;
}

/* The row source: FROM with WHERE placed, or one empty-ish row. */
static PlanNode *plan_input(Binder *b, SelectState *st, int **layout, int *nlayout)
{
    if (b->nrtes > 0)
        return plan__plan_from(b, st->conjuncts, layout, nlayout);
    /* one row of one dummy column, so every operator has a column to count */
    PlanNode *v = plan__new_node(b->arena, PLAN_VALUES, 1);
    v->nrows = 1;
    v->rows = MEM_NEW_ARRAY(b->arena, Expr **, 1);
    v->rows[0] = MEM_NEW_ARRAY(b->arena, Expr *, 1);
    Value zero = {.is_null = false};
    v->rows[0][0] = plan__make_const(b->arena, SQLTYPE(TYPE_INT4), zero, -1);
    v->col_types[0] = SQLTYPE(TYPE_INT4);
    v->col_names[0] = "0";
    *layout = MEM_NEW_ARRAY(b->arena, int, 1);
    (*layout)[0] = -1;
    *nlayout = 1;
    if (st->conjuncts) {
        int n = list_len(st->conjuncts);
        PlanNode *f = wrap(b, PLAN_FILTER, v);
        Expr *pred = plan__make_expr(b->arena, EXPR_AND, SQLTYPE(TYPE_BOOL), -1, n);
        for (int i = 0; i < n; i++)
            pred->args[i] = plan__remap(b, list_nth(st->conjuncts, i), NULL, 0);
        f->predicate = n == 1 ? pred->args[0] : pred;
        return f;
    }
    return v;
}

typedef struct WinCtx {
    const SelectState *st;
    const int *layout;
    int nlayout;
} WinCtx;

/* A window's expression (bound) positional over the window input. */
static Expr *win_to_pos(Binder *b, const Expr *e, void *ctx)
{
    const WinCtx *wc = ctx;
    if (wc->st->grouped)
        return plan__grouped_expr(b, e, wc->st);
    return plan__remap(b, e, wc->layout, wc->nlayout);
}

static PlanNode *plan_body(Binder *b, SelectState *st)
{
    int n = st->ntargets;
    Expr **exprs = MEM_NEW_ARRAY(b->arena, Expr *, n + 1);
    bool has_srf = false;
    for (int i = 0; i < n; i++)
        has_srf |= plan__expr_has_srf(st->targets[i].expr);
    if (b->nrtes == 0 && !st->conjuncts && !st->grouped && n == st->nvisible && b->nwins == 0 && !has_srf) {
        PlanNode *v = plan__new_node(b->arena, PLAN_VALUES, n);
        v->nrows = 1;
        v->rows = MEM_NEW_ARRAY(b->arena, Expr **, 1);
        v->rows[0] = exprs;
        for (int i = 0; i < n; i++) {
            exprs[i] = plan__remap(b, st->targets[i].expr, NULL, 0);
            v->col_types[i] = exprs[i]->type;
            v->col_names[i] = display(b, exprs[i], NULL);
        }
        return v;
    }
    int *layout, nlayout;
    PlanNode *top = plan_input(b, st, &layout, &nlayout);
    if (st->grouped) {
        uint64_t derived = plan__group_derived(b, st);
        top = derived ? agg_derived(b, top, layout, nlayout, st, derived) : make_agg(b, top, layout, nlayout, st);
        if (st->having_post) {
            PlanNode *f = wrap(b, PLAN_FILTER, top);
            f->predicate = st->having_post;
            top = f;
        }
        for (int i = 0; i < n; i++)
            exprs[i] = st->targets[i].post;
    } else {
        for (int i = 0; i < n; i++)
            exprs[i] = plan__remap(b, st->targets[i].expr, layout, nlayout);
    }
    if (b->nwins > 0) {
        WinCtx wc = {st, layout, nlayout};
        top = plan__plan_windows(b, top, exprs, n, win_to_pos, &wc);
    }
    if (has_srf)   /* ProjectSet(s) between the window/aggregate and the Project */
        top = plan__plan_srfs(b, top, exprs, n);
    return make_project(b, top, exprs, n);
}

PlanNode *plan__plan_tail(Binder *b, PlanNode *top, const SortKey *sort, int nsort, Expr *limit,
                          Expr *offset, bool distinct)
{
    if (distinct)
        top = wrap(b, PLAN_DISTINCT, top);
    if (nsort > 0) {
        top = wrap(b, PLAN_SORT, top);
        top->nsort = nsort;
        top->sort_keys = MEM_NEW_ARRAY(b->arena, SortKey, nsort);
        memcpy(top->sort_keys, sort, sizeof(SortKey) * (size_t)nsort);
    }
    if (limit || offset) {
        PlanNode *sort = top->kind == PLAN_SORT ? top : NULL;
        top = wrap(b, PLAN_LIMIT, top);
        top->limit = plan__remap(b, limit, NULL, 0);
        top->offset = plan__remap(b, offset, NULL, 0);
        /* top-N: ORDER BY ... LIMIT with constants */
        if (sort && top->limit && top->limit->kind == EXPR_CONST &&
            (!top->offset || top->offset->kind == EXPR_CONST)) {
            int64_t n = top->limit->value.u.i64;
            int64_t off = top->offset && !top->offset->value.is_null ? top->offset->value.u.i64 : 0;
            if (n > 0 && off >= 0 && n <= INT64_MAX - off)
                sort->sort_topn = n + off;
        }
    }
    return top;
}

/* SELECT DISTINCT ON (...) ... : Sort (ORDER BY, then the remaining
 * DISTINCT ON keys) → Distinct keeping each key's first row → Limit. */
static PlanNode *plan_distinct_on(Binder *b, PlanNode *top, const SelectState *st)
{
    int nsort = st->nsort;
    SortKey *keys = MEM_NEW_ARRAY(b->arena, SortKey, st->nsort + st->ndistinct_on + 1);
    memcpy(keys, st->sort, sizeof(SortKey) * (size_t)st->nsort);
    for (int i = 0; i < st->ndistinct_on; i++) {
        bool have = false;
        for (int k = 0; k < nsort; k++)
            have |= keys[k].column == st->distinct_on[i];
        if (!have)
            keys[nsort++] = (SortKey){st->distinct_on[i], false, false};
    }
    top = plan__plan_tail(b, top, keys, nsort, NULL, NULL, false);
    top = wrap(b, PLAN_DISTINCT, top);
    top->ndistinct_on = st->ndistinct_on;
    top->distinct_on = st->distinct_on;
    return plan__plan_tail(b, top, NULL, 0, st->limit, st->offset, false);
}

static SelectResult plan_values(Binder *b, const SelectStmt *s);

SelectResult plan__plan_select(Binder *b, const SelectStmt *s)
{
    plan__bind_with(b, s->with_clause, s);
    /* a top-level SELECT … INTO became CREATE TABLE AS before planning
     * (plan_ctas.c); anywhere else it is PostgreSQL's transformSelectStmt error */
    if (s->into_clause)
        plan__error_at(b, ERRCODE_SYNTAX_ERROR, s->into_clause->node.location,
                       "SELECT ... INTO is not allowed here");
    if (s->op != SELECT_SETOP_NONE)
        return plan__plan_setop(b, s);
    if (s->values_lists)
        return plan_values(b, s);
    SelectState st;
    plan__bind_select(b, s, &st);
    PlanNode *top = plan_body(b, &st);
    if (st.ndistinct_on > 0)
        top = plan_distinct_on(b, top, &st);
    else
        top = plan__late_fetch(b, plan__plan_tail(b, top, st.sort, st.nsort, st.limit, st.offset, s->distinct));
    if (st.ntargets > st.nvisible) {
        Expr **keep = MEM_NEW_ARRAY(b->arena, Expr *, st.nvisible + 1);
        for (int i = 0; i < st.nvisible; i++) {
            keep[i] = plan__make_expr(b->arena, EXPR_COLUMN, top->col_types[i], -1, 0);
            keep[i]->index = i;
        }
        top = make_project(b, top, keep, st.nvisible);
    }
    SelectResult r = {top, st.nvisible, MEM_NEW_ARRAY(b->arena, ResultColumn, st.nvisible + 1)};
    for (int i = 0; i < st.nvisible; i++) {
        const Target *t = &st.targets[i];
        r.cols[i].name = t->name;
        r.cols[i].type = top->col_types[i];
        r.cols[i].table_oid = t->table_oid;
        r.cols[i].attnum = t->attnum;
    }
    return r;
}

/* ORDER BY over a VALUES list or a set operation: ordinals and column names only. */
SortKey *plan__sort_by_output(Binder *b, const List *sort_clause, int ncols, const char **names,
                              bool setop)
{
    int n = list_len(sort_clause);
    SortKey *keys = MEM_NEW_ARRAY(b->arena, SortKey, n + 1);
    for (int i = 0; i < n; i++) {
        const SortBy *sb = list_nth(sort_clause, i);
        const Node *x = sb->node_expr;
        int pos = -1;
        if (IS_A(x, A_Const) && ((const A_Const *)x)->kind == CONST_INTEGER) {
            int64_t p = ((const A_Const *)x)->ival;
            if (p < 1 || p > ncols)
                plan__error_at(b, ERRCODE_INVALID_COLUMN_REFERENCE, x->location,
                               "ORDER BY position %lld is not in select list", (long long)p);
            pos = (int)p - 1;
        } else if (IS_A(x, ColumnRef) && list_len(((const ColumnRef *)x)->fields) == 1) {
            const char *name = list_nth(((const ColumnRef *)x)->fields, 0);
            for (int c = 0; c < ncols && pos < 0; c++)
                if (strcmp(names[c], name) == 0)
                    pos = c;
            if (pos < 0)
                plan__error_at(b, ERRCODE_UNDEFINED_COLUMN, x->location, "column \"%s\" does not exist", name);
        } else if (setop) {
            plan__error_hint(b, ERRCODE_FEATURE_NOT_SUPPORTED, x->location,
                             "Add the expression/function to every SELECT, or move the UNION into a FROM clause.",
                             "invalid UNION/INTERSECT/EXCEPT ORDER BY clause");
        } else {
            plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, x->location,
                           "ORDER BY expressions over VALUES are not supported yet");
        }
        keys[i].column = pos;
        keys[i].descending = sb->sortby_dir == SORTBY_DESC;
        keys[i].nulls_first = sb->sortby_nulls == SORTBY_NULLS_DEFAULT ? keys[i].descending
                                                                       : sb->sortby_nulls == SORTBY_NULLS_FIRST;
    }
    return keys;
}

/* Bind the rows of a VALUES list and type each column (select_common_type). */
static PlanNode *values_rows(Binder *b, const List *lists)
{
    int nrows = list_len(lists);
    int ncols = list_len(list_nth(lists, 0));
    PlanNode *v = plan__new_node(b->arena, PLAN_VALUES, ncols);
    v->nrows = nrows;
    v->rows = MEM_NEW_ARRAY(b->arena, Expr **, nrows);
    b->agg_forbidden = "VALUES";
    for (int r = 0; r < nrows; r++) {
        const List *row = list_nth(lists, r);
        if (list_len(row) != ncols)
            plan__error_at(b, ERRCODE_SYNTAX_ERROR, ((const Node *)list_nth(row, 0))->location,
                           "VALUES lists must all be the same length");
        v->rows[r] = MEM_NEW_ARRAY(b->arena, Expr *, ncols + 1);
        for (int c = 0; c < ncols; c++)
            v->rows[r][c] = plan__bind_expr(b, list_nth(row, c));
    }
    b->agg_forbidden = NULL;
    Expr **col = MEM_NEW_ARRAY(b->arena, Expr *, nrows);
    for (int c = 0; c < ncols; c++) {
        for (int r = 0; r < nrows; r++)
            col[r] = v->rows[r][c];
        SqlType t = plan__common_type(b, col, nrows, "VALUES");
        plan__coerce_all(b, col, nrows, t, "VALUES");
        for (int r = 0; r < nrows; r++)
            v->rows[r][c] = plan__remap(b, col[r], NULL, 0);
        v->col_types[c] = t;
        v->col_names[c] = mem_printf(b->arena, "column%d", c + 1);
    }
    return v;
}

static SelectResult plan_values(Binder *b, const SelectStmt *s)
{
    PlanNode *v = values_rows(b, s->values_lists);
    const char **names = MEM_NEW_ARRAY(b->arena, const char *, v->ncols + 1);
    for (int c = 0; c < v->ncols; c++)
        names[c] = v->col_names[c];
    SortKey *keys = plan__sort_by_output(b, s->sort_clause, v->ncols, names, false);
    Expr *limit = plan__bind_limit(b, s->limit_count, "LIMIT");
    Expr *offset = plan__bind_limit(b, s->limit_offset, "OFFSET");
    PlanNode *top = plan__plan_tail(b, v, keys, list_len(s->sort_clause), limit, offset, s->distinct);
    SelectResult r = {top, v->ncols, MEM_NEW_ARRAY(b->arena, ResultColumn, v->ncols + 1)};
    for (int c = 0; c < v->ncols; c++) {
        r.cols[c].name = names[c];
        r.cols[c].type = v->col_types[c];
    }
    return r;
}
