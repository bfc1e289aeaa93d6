/*
 * bind_select.c — binding the clauses of a SELECT (PostgreSQL's
 * transformSelectStmt): FROM items and JOIN ... ON scopes, the select list
 * with * expansion, WHERE, GROUP BY (ordinals, input columns before output
 * aliases), HAVING, ORDER BY (ordinals, output names, then expressions,
 * hidden columns for expressions not in the list), LIMIT/OFFSET, and the
 * grouping check that turns post-aggregate expressions into references
 * to the PLAN_AGG output.
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"
#include "planner/select_int.h"

#include <string.h>
#include "storage/storage.h"

static void add_target(Binder *b, SelectState *st, Expr *e, const char *name, bool hidden, int loc)
{
    if (st->ntargets == st->cap) {
        int cap = st->cap ? 2 * st->cap : 16;
        st->targets = mem_realloc(b->arena, st->targets, sizeof(Target) * (size_t)st->cap,
                                  sizeof(Target) * (size_t)cap);
        st->cap = cap;
    }
    Target *t = &st->targets[st->ntargets++];
    memset(t, 0, sizeof *t);
    t->expr = e;
    t->name = name;
    t->hidden = hidden;
    t->location = loc;
    if (e->kind == EXPR_COLUMN && !b->rtes[plan__var_rte(b, e->index)]->derived) {
        const RangeEntry *r = b->rtes[plan__var_rte(b, e->index)];
        t->table_oid = store_table_oid(r->table);
        t->attnum = (int16_t)(e->index - r->var_base + 1);
    }
}

static void bind_targets(Binder *b, const SelectStmt *s, SelectState *st)
{
    b->srf_allowed = true;
    for (int i = 0; i < list_len(s->target_list); i++) {
        const ResTarget *rt = list_nth(s->target_list, i);
        if (IS_A(rt->val, ColumnRef) && ((const ColumnRef *)rt->val)->star) {
            List *cols = plan__expand_star(b, (const ColumnRef *)rt->val);
            for (int k = 0; k < list_len(cols); k++) {
                Expr *e = list_nth(cols, k);
                add_target(b, st, e, e->name, false, rt->node.location);
            }
            continue;
        }
        List *fields = plan__expand_record_star(b, rt->val);   /* (r).* */
        for (int k = 0; k < list_len(fields); k++) {
            Expr *f = list_nth(fields, k);
            add_target(b, st, f, f->name, false, rt->val->location);
        }
        if (fields)
            continue;
        Expr *e = plan__bind_expr(b, rt->val);
        if (!b->keep_unknown || e->kind != EXPR_CONST)
            e = plan__resolve_unknown(b, e);
        const char *name = rt->name ? rt->name : plan__figure_colname(rt->val);
        add_target(b, st, e, name, false, rt->val->location);
    }
    b->srf_allowed = false;
    st->nvisible = st->ntargets;
}

static bool is_input_column(const Binder *b, const char *name)
{
    for (int i = 0; i < b->nrtes; i++)
        for (int c = 0; c < b->rtes[i]->ncols; c++)
            if (strcmp(b->rtes[i]->colnames[c], name) == 0)
                return true;
    return false;
}

static const char *bare_name(const Node *n)
{
    if (!IS_A(n, ColumnRef))
        return NULL;
    const ColumnRef *c = (const ColumnRef *)n;
    return !c->star && list_len(c->fields) == 1 ? list_nth(c->fields, 0) : NULL;
}

/* GROUP BY 2 / ORDER BY 2: the target, or 42P10. -1 when n is not an ordinal. */
static int ordinal(Binder *b, const Node *n, const SelectState *st, const char *clause)
{
    if (!IS_A(n, A_Const) || ((const A_Const *)n)->kind != CONST_INTEGER)
        return -1;
    int64_t pos = ((const A_Const *)n)->ival;
    if (pos < 1 || pos > st->nvisible)
        plan__error_at(b, ERRCODE_INVALID_COLUMN_REFERENCE, n->location,
                       "%s position %lld is not in select list", clause, (long long)pos);
    return (int)pos - 1;
}

/* One GROUP BY expression → its index in st->groups (deduplicated). */
int plan__group_item(Binder *b, const Node *g, SelectState *st)
{
    Expr *e = NULL;
    int pos = ordinal(b, g, st, "GROUP BY");
    const char *name = bare_name(g);
    if (pos < 0 && name && !is_input_column(b, name)) {
        for (int t = 0; t < st->nvisible && pos < 0; t++)
            if (strcmp(st->targets[t].name, name) == 0)
                pos = t;
    }
    if (pos >= 0) {
        e = st->targets[pos].expr;
        if (plan__expr_has_aggs(e))
            plan__error_at(b, ERRCODE_GROUPING_ERROR, g->location,
                           "aggregate functions are not allowed in GROUP BY");
    } else {
        b->agg_forbidden = "GROUP BY";
        e = plan__resolve_unknown(b, plan__bind_expr(b, g));
        b->agg_forbidden = NULL;
    }
    for (int k = 0; k < st->ngroups; k++)
        if (plan__expr_equal(st->groups[k], e))
            return k;
    if (st->ngroups >= 64)
        plan__error_at(b, ERRCODE_PROGRAM_LIMIT_EXCEEDED, g->location, "too many grouping expressions (at most 64)");
    st->groups = mem_realloc(b->arena, st->groups, sizeof(Expr *) * (size_t)st->ngroups,
                             sizeof(Expr *) * (size_t)(st->ngroups + 1));
    st->groups[st->ngroups] = e;
    return st->ngroups++;
}

/* ORDER BY name matching output column names (SQL92 rule); -1 when none. */
static int order_by_name(Binder *b, const Node *n, const SelectState *st)
{
    const char *name = bare_name(n);
    if (!name)
        return -1;
    int found = -1;
    for (int t = 0; t < st->nvisible; t++) {
        if (strcmp(st->targets[t].name, name) != 0)
            continue;
        if (found >= 0 && !plan__expr_equal(st->targets[found].expr, st->targets[t].expr))
            plan__error_at(b, ERRCODE_AMBIGUOUS_COLUMN, n->location, "ORDER BY \"%s\" is ambiguous", name);
        if (found < 0)
            found = t;
    }
    return found;
}

static void bind_order(Binder *b, const SelectStmt *s, SelectState *st)
{
    int n = list_len(s->sort_clause);
    st->sort = MEM_NEW_ARRAY(b->arena, SortKey, n + 1);
    for (int i = 0; i < n; i++) {
        const SortBy *sb = list_nth(s->sort_clause, i);
        int pos = ordinal(b, sb->node_expr, st, "ORDER BY");
        if (pos < 0)
            pos = order_by_name(b, sb->node_expr, st);
        if (pos < 0) {
            Expr *e = plan__resolve_unknown(b, plan__bind_expr(b, sb->node_expr));
            for (int t = 0; t < st->ntargets && pos < 0; t++)
                if (plan__expr_equal(st->targets[t].expr, e))
                    pos = t;
            if (pos < 0) {
                if (s->distinct && !s->distinct_clause)
                    plan__error_at(b, ERRCODE_INVALID_COLUMN_REFERENCE, sb->node_expr->location,
                                   "for SELECT DISTINCT, ORDER BY expressions must appear in select list");
                add_target(b, st, e, "?column?", true, sb->node_expr->location);
                pos = st->ntargets - 1;
            }
        }
        SortKey *k = &st->sort[st->nsort++];
        k->column = pos;
        k->descending = sb->sortby_dir == SORTBY_DESC;
        k->nulls_first = sb->sortby_nulls == SORTBY_NULLS_DEFAULT ? k->descending
                                                                  : sb->sortby_nulls == SORTBY_NULLS_FIRST;
    }
}

/* DISTINCT ON (exprs): targets (hidden when not in the list); the initial
 * ORDER BY items must be among them (42P10). */
static void bind_distinct_on(Binder *b, const SelectStmt *s, SelectState *st)
{
    int n = list_len(s->distinct_clause);
    st->distinct_on = MEM_NEW_ARRAY(b->arena, int, n + 1);
    for (int i = 0; i < n; i++) {
        const Node *x = list_nth(s->distinct_clause, i);
        int pos = ordinal(b, x, st, "SELECT DISTINCT ON");
        if (pos < 0)
            pos = order_by_name(b, x, st);
        if (pos < 0) {
            Expr *e = plan__resolve_unknown(b, plan__bind_expr(b, x));
            for (int t = 0; t < st->ntargets && pos < 0; t++)
                if (plan__expr_equal(st->targets[t].expr, e))
                    pos = t;
            if (pos < 0) {
                add_target(b, st, e, "?column?", true, x->location);
                pos = st->ntargets - 1;
            }
        }
        st->distinct_on[st->ndistinct_on++] = pos;
    }
    int m = st->nsort < n ? st->nsort : n;
    for (int k = 0; k < m; k++) {
        bool found = false;
        for (int i = 0; i < n; i++)
            found |= st->distinct_on[i] == st->sort[k].column;
        if (!found)
            plan__error_at(b, ERRCODE_INVALID_COLUMN_REFERENCE,
                           ((const Node *)list_nth(s->distinct_clause, 0))->location,
                           "SELECT DISTINCT ON expressions must match initial ORDER BY expressions");
    }
}

Expr *plan__bind_limit(Binder *b, const Node *n, const char *what)
{
    if (!n)
        return NULL;
    b->agg_forbidden = what;
    Expr *e = plan__bind_expr(b, n);
    b->agg_forbidden = NULL;
    Expr *c = plan__coerce(b, e, SQLTYPE(TYPE_INT8), CAST_IMPLICIT);
    if (!c)
        plan__error_at(b, ERRCODE_DATATYPE_MISMATCH, n->location,
                       "argument of %s must be type %s, not type %s", what, "bigint",
                       plan__type_name(b, e->type));
    if (plan__expr_has_vars(c))
        plan__error_at(b, ERRCODE_INVALID_COLUMN_REFERENCE, n->location,
                       "argument of %s must not contain variables", what);
    if (c->kind == EXPR_CONST) {
        if (c->value.is_null)
            return NULL;     /* LIMIT NULL = no limit, OFFSET NULL = 0 */
        if (c->value.u.i64 < 0 && !b->explaining) {
            if (strcmp(what, "LIMIT") == 0)
                err_raise(ERRCODE_INVALID_ROW_COUNT_IN_LIMIT_CLAUSE, "LIMIT must not be negative");
            err_raise(ERRCODE_INVALID_ROW_COUNT_IN_RESULT_OFFSET_CLAUSE, "OFFSET must not be negative");
        }
    }
    return c;
}

/* Post-aggregate form: group expressions → key columns, aggregates → agg
 * columns; a column left over is 42803. */
Expr *plan__grouped_expr(Binder *b, const Expr *e, const SelectState *st)
{
    for (int i = 0; i < st->ngroups; i++) {
        if (plan__expr_equal(e, st->groups[i])) {
            Expr *c = plan__make_expr(b->arena, EXPR_COLUMN, e->type, e->location, 0);
            c->index = i;
            c->name = e->name;
            return c;
        }
    }
    if (e->kind == EXPR_COLUMN) {
        const RangeEntry *r = b->rtes[plan__var_rte(b, e->index)];
        plan__error_at(b, ERRCODE_GROUPING_ERROR, e->location,
                       "column \"%s.%s\" must appear in the GROUP BY clause or be used in an aggregate function",
                       r->refname, r->colnames[e->index - r->var_base]);
    }
    Expr *c = MEM_NEW(b->arena, Expr);
    *c = *e;
    if (e->kind == EXPR_AGG_RESULT && !e->negated && e->index >= PLAN_GROUPING_BASE)
        return plan__grouping_post(b, e, st);
    if (e->kind == EXPR_AGG_RESULT && !e->negated) {
        c->index = st->ngroups + e->index;
        return c;
    }
    if (e->kind == EXPR_AGG_RESULT || e->kind == EXPR_OUTER_REF)
        return c;   /* window marker / correlation slot */
    if (e->kind == EXPR_PARAM) {
        c->type = b->param_types[e->index];
        return c;
    }
    if (e->nargs > 0) {
        c->args = MEM_NEW_ARRAY(b->arena, Expr *, e->nargs);
        for (int i = 0; i < e->nargs; i++)
            c->args[i] = plan__grouped_expr(b, e->args[i], st);
    }
    return c;
}

/* Bind every clause of s into st (the range table goes into b). */
void plan__bind_select(Binder *b, const SelectStmt *s, SelectState *st)
{
    memset(st, 0, sizeof *st);
    b->window_clause = s->window_clause;
    int nfrom = list_len(s->from_clause);
    b->from_items = MEM_NEW_ARRAY(b->arena, FromNode *, nfrom + 1);
    for (int i = 0; i < nfrom; i++) {
        b->from_items[i] = plan__bind_from_item(b, list_nth(s->from_clause, i));
        b->nfrom = i + 1;
    }
    b->scope = b->from_items;
    b->nscope = b->nfrom;
    for (int i = 0; i < b->nrtes; i++)
        b->visible[i] = true;
    bind_targets(b, s, st);
    if (s->where_clause) {
        b->agg_forbidden = "WHERE";
        Expr *w = plan__coerce_bool(b, plan__bind_expr(b, s->where_clause), "WHERE");
        b->agg_forbidden = NULL;
        st->conjuncts = list_append(b->arena, st->conjuncts, w);
    }
    plan__bind_group(b, s, st);
    if (s->having_clause) {
        b->win_forbidden = "HAVING";
        st->having = plan__coerce_bool(b, plan__bind_expr(b, s->having_clause), "HAVING");
        b->win_forbidden = NULL;
    }
    b->srf_allowed = true;
    bind_order(b, s, st);
    b->srf_allowed = false;
    if (s->distinct_clause) {
        b->srf_allowed = true;   /* DISTINCT ON (generate_series(...)): a hidden target */
        bind_distinct_on(b, s, st);
        b->srf_allowed = false;
    }
    st->limit = plan__bind_limit(b, s->limit_count, "LIMIT");
    st->offset = plan__bind_limit(b, s->limit_offset, "OFFSET");
    st->grouped = b->naggs > 0 || st->ngroups > 0 || st->having;
    if (!st->grouped)
        return;
    for (int t = 0; t < st->ntargets; t++)
        st->targets[t].post = plan__grouped_expr(b, st->targets[t].expr, st);
    if (st->having)
        st->having_post = plan__grouped_expr(b, st->having, st);
}
