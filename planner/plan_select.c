/*
 * plan_select.c — the plan of a bound SELECT, bottom up:
 *
 *   FROM (scans with pushed filters, joins; plan_join.c) or a one-row VALUES
 *   → Agg (GROUP BY keys then aggregates; no keys = exactly one row)
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

#include <string.h>

static PlanNode *wrap(Binder *b, PlanKind kind, PlanNode *child)
{
    PlanNode *n = plan__new_node(b->arena, kind, child->ncols);
    n->left = child;
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
    for (int i = 0; i < n; i++) {
        p->col_types[i] = exprs[i]->type;
        p->col_names[i] = display(b, exprs[i], child->col_names);
    }
    return p;
}

static PlanNode *make_agg(Binder *b, PlanNode *input, const int *layout, int nlayout,
                          const SelectState *st)
{
    PlanNode *a = plan__new_node(b->arena, PLAN_AGG, st->ngroups + b->naggs);
    a->left = input;
    a->ngroups = st->ngroups;
    a->group_exprs = MEM_NEW_ARRAY(b->arena, Expr *, st->ngroups + 1);
    for (int i = 0; i < st->ngroups; i++) {
        a->group_exprs[i] = plan__remap(b, st->groups[i], layout, nlayout);
        a->col_types[i] = a->group_exprs[i]->type;
        a->col_names[i] = display(b, a->group_exprs[i], input->col_names);
    }
    a->naggs = b->naggs;
    a->aggs = MEM_NEW_ARRAY(b->arena, AggCall, b->naggs + 1);
    for (int i = 0; i < b->naggs; i++) {
        AggCall *c = &a->aggs[i];
        *c = b->aggs[i].call;
        c->arg = plan__remap(b, c->arg, layout, nlayout);
        int col = st->ngroups + i;
        a->col_types[col] = c->type;
        const char *arg = c->arg ? plan__deparse(b->arena, c->arg, input->col_names) : "*";
        a->col_names[col] = mem_printf(b->arena, "%s(%s%s)", c->agg->name, c->distinct ? "DISTINCT " : "", arg);
    }
    return a;
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

static PlanNode *plan_body(Binder *b, SelectState *st)
{
    int n = st->ntargets;
    Expr **exprs = MEM_NEW_ARRAY(b->arena, Expr *, n + 1);
    if (b->nrtes == 0 && !st->conjuncts && !st->grouped && n == st->nvisible) {
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
        top = make_agg(b, top, layout, nlayout, st);
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
    return make_project(b, top, exprs, n);
}

static PlanNode *plan_tail(Binder *b, PlanNode *top, const SortKey *sort, int nsort, Expr *limit,
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
        top = wrap(b, PLAN_LIMIT, top);
        top->limit = plan__remap(b, limit, NULL, 0);
        top->offset = plan__remap(b, offset, NULL, 0);
    }
    return top;
}

static SelectResult plan_values(Binder *b, const SelectStmt *s);

SelectResult plan__plan_select(Binder *b, const SelectStmt *s)
{
    if (s->values_lists)
        return plan_values(b, s);
    SelectState st;
    plan__bind_select(b, s, &st);
    PlanNode *top = plan_body(b, &st);
    top = plan_tail(b, top, st.sort, st.nsort, st.limit, st.offset, s->distinct);
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

/* ORDER BY over a VALUES list: ordinals and column names only. */
static SortKey *values_sort(Binder *b, const SelectStmt *s, PlanNode *v, const char **names)
{
    int n = list_len(s->sort_clause);
    SortKey *keys = MEM_NEW_ARRAY(b->arena, SortKey, n + 1);
    for (int i = 0; i < n; i++) {
        const SortBy *sb = list_nth(s->sort_clause, i);
        const Node *x = sb->node_expr;
        int pos = -1;
        if (IS_A(x, A_Const) && ((const A_Const *)x)->kind == CONST_INTEGER) {
            int64_t p = ((const A_Const *)x)->ival;
            if (p < 1 || p > v->ncols)
                plan__error_at(b, ERRCODE_INVALID_COLUMN_REFERENCE, x->location,
                               "ORDER BY position %lld is not in select list", (long long)p);
            pos = (int)p - 1;
        } else if (IS_A(x, ColumnRef) && list_len(((const ColumnRef *)x)->fields) == 1) {
            const char *name = list_nth(((const ColumnRef *)x)->fields, 0);
            for (int c = 0; c < v->ncols && pos < 0; c++)
                if (strcmp(names[c], name) == 0)
                    pos = c;
            if (pos < 0)
                plan__error_at(b, ERRCODE_UNDEFINED_COLUMN, x->location, "column \"%s\" does not exist", name);
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
    SortKey *keys = values_sort(b, s, v, names);
    Expr *limit = plan__bind_limit(b, s->limit_count, "LIMIT");
    Expr *offset = plan__bind_limit(b, s->limit_offset, "OFFSET");
    PlanNode *top = plan_tail(b, v, keys, list_len(s->sort_clause), limit, offset, s->distinct);
    SelectResult r = {top, v->ncols, MEM_NEW_ARRAY(b->arena, ResultColumn, v->ncols + 1)};
    for (int c = 0; c < v->ncols; c++) {
        r.cols[c].name = names[c];
        r.cols[c].type = v->col_types[c];
    }
    return r;
}
