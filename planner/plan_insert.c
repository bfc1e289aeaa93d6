/*
 * plan_insert.c — INSERT INTO t [(cols)] VALUES ... | SELECT ... | DEFAULT VALUES.
 *
 * The child of PLAN_INSERT produces whole rows in the table's column
 * order and types: each target gets its expression with an assignment
 * cast (PostgreSQL's transformAssignedExpr: numeric 1.5 into an integer
 * column rounds, text into integer is 42804), every other column its
 * DEFAULT (the stored SQL text, parsed and bound here) or NULL. A
 * multi-row VALUES is typed row by row against the target columns, as
 * PostgreSQL does, not by a common type. RETURNING: plan_returning.c.
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"

#include <string.h>
#include "parser/parser.h"
#include "storage/storage.h"

static Expr *assign(Binder *b, Expr *e, const StoreColumnDef *col)
{
    Expr *r = plan__coerce(b, e, col->type, CAST_ASSIGNMENT);
    if (!r)
        plan__error_hint(b, ERRCODE_DATATYPE_MISMATCH, e->location,
                         "You will need to rewrite or cast the expression.",
                         "column \"%s\" is of type %s but expression is of type %s", col->name,
                         plan__type_name(b, col->type), plan__type_name(b, SQLTYPE(e->type.oid)));
    return r;
}

/* The column's DEFAULT bound in a scope of its own (no positions), or NULL. */
static Expr *default_expr(Binder *b, const StoreColumnDef *col)
{
    if (!col->default_text) {
        Value null = {.is_null = true};
        return plan__make_const(b->arena, col->type, null, -1);
    }
    Binder sub;
    plan__binder_init(&sub, b->ctx);
    sub.query_text = NULL;
    sub.agg_forbidden = "DEFAULT expressions";
    Node *n = parse_expression(b->arena, col->default_text);
    Expr *e = plan__bind_expr(&sub, n);
    if (plan__expr_has_vars(e))
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "cannot use column reference in DEFAULT expression");
    return plan__remap(&sub, assign(&sub, e, col), NULL, 0);
}

typedef struct InsertTargets {
    int n;
    int *cols;          /* table column per target */
    int *locations;     /* ResTarget positions (for count errors) */
} InsertTargets;

static InsertTargets resolve_targets(Binder *b, const InsertStmt *s, StoreTable *t)
{
    InsertTargets it;
    int ncols = store_table_ncols(t);
    it.n = s->cols ? list_len(s->cols) : ncols;
    it.cols = MEM_NEW_ARRAY(b->arena, int, it.n + 1);
    it.locations = MEM_NEW_ARRAY(b->arena, int, it.n + 1);
    for (int i = 0; i < it.n; i++) {
        if (!s->cols) {
            it.cols[i] = i;
            it.locations[i] = -1;
            continue;
        }
        const ResTarget *rt = list_nth(s->cols, i);
        int c = store_table_column_index(t, rt->name);
        if (c < 0)
            plan__error_at(b, ERRCODE_UNDEFINED_COLUMN, rt->node.location,
                           "column \"%s\" of relation \"%s\" does not exist", rt->name, store_table_name(t));
        for (int k = 0; k < i; k++)
            if (it.cols[k] == c)
                plan__error_at(b, ERRCODE_DUPLICATE_COLUMN, rt->node.location,
                               "column \"%s\" specified more than once", rt->name);
        it.cols[i] = c;
        it.locations[i] = rt->node.location;
    }
    return it;
}

static void check_count(Binder *b, const InsertStmt *s, const InsertTargets *it, int nexprs,
                        int extra_location)
{
    if (nexprs > it->n)
        plan__error_at(b, ERRCODE_SYNTAX_ERROR, extra_location,
                       "INSERT has more expressions than target columns");
    if (nexprs < it->n && s->cols)
        plan__error_at(b, ERRCODE_SYNTAX_ERROR, it->locations[nexprs],
                       "INSERT has more target columns than expressions");
}

/* One row in table order: targets from vals (n of them), the rest defaulted. */
static Expr **full_row(Binder *b, StoreTable *t, const InsertTargets *it, Expr **vals, int n,
                       Expr **defaults)
{
    int ncols = store_table_ncols(t);
    Expr **row = MEM_NEW_ARRAY(b->arena, Expr *, ncols + 1);
    for (int i = 0; i < n; i++)
        row[it->cols[i]] = assign(b, vals[i], store_table_column(t, it->cols[i]));
    for (int c = 0; c < ncols; c++) {
        if (row[c])
            continue;
        if (!defaults[c])
            defaults[c] = default_expr(b, store_table_column(t, c));
        row[c] = defaults[c];
    }
    return row;
}

static PlanNode *values_source(Binder *b, const InsertStmt *s, StoreTable *t, const InsertTargets *it,
                               Expr **defaults)
{
    const List *lists = s->select_stmt ? s->select_stmt->values_lists : NULL;
    int nrows = s->select_stmt ? list_len(lists) : 1;
    int ncols = store_table_ncols(t);
    PlanNode *v = plan__new_node(b->arena, PLAN_VALUES, ncols);
    v->nrows = nrows;
    v->rows = MEM_NEW_ARRAY(b->arena, Expr **, nrows);
    int width = lists ? list_len(list_nth(lists, 0)) : 0;
    b->agg_forbidden = "VALUES";
    for (int r = 0; r < nrows; r++) {
        const List *row = lists ? list_nth(lists, r) : NULL;
        int n = list_len(row);
        if (n != width)
            plan__error_at(b, ERRCODE_SYNTAX_ERROR, ((const Node *)list_nth(row, 0))->location,
                           "VALUES lists must all be the same length");
        check_count(b, s, it, n, n > it->n ? ((const Node *)list_nth(row, it->n))->location : -1);
        Expr **vals = MEM_NEW_ARRAY(b->arena, Expr *, n + 1);
        for (int i = 0; i < n; i++) {
            const Node *item = list_nth(row, i);
            if (IS_A(item, SetToDefault)) {   /* VALUES (DEFAULT, ...) */
                int c = it->cols[i];
                if (!defaults[c])
                    defaults[c] = default_expr(b, store_table_column(t, c));
                vals[i] = defaults[c];
                continue;
            }
            vals[i] = plan__bind_expr(b, item);
        }
        Expr **full = full_row(b, t, it, vals, n, defaults);
        for (int c = 0; c < ncols; c++)
            full[c] = plan__remap(b, full[c], NULL, 0);
        v->rows[r] = full;
    }
    b->agg_forbidden = NULL;
    for (int c = 0; c < ncols; c++) {
        v->col_types[c] = store_table_column(t, c)->type;
        v->col_names[c] = mem_printf(b->arena, "column%d", c + 1);
    }
    return v;
}

static PlanNode *select_source(Binder *b, const InsertStmt *s, StoreTable *t, const InsertTargets *it,
                               Expr **defaults)
{
    SelectResult r = plan__plan_select(b, s->select_stmt);
    int extra = -1;
    if (r.ncols > it->n) {
        const List *tl = s->select_stmt->target_list;
        if (list_len(tl) == r.ncols) {
            extra = ((const ResTarget *)list_nth(tl, it->n))->val->location;
        } else { /* a * expanded: point at it */
            for (int i = 0; i < list_len(tl) && extra < 0; i++) {
                const ResTarget *rt = list_nth(tl, i);
                if (IS_A(rt->val, ColumnRef) && ((const ColumnRef *)rt->val)->star)
                    extra = rt->val->location;
            }
        }
    }
    check_count(b, s, it, r.ncols, extra);
    Expr **vals = MEM_NEW_ARRAY(b->arena, Expr *, r.ncols + 1);
    for (int i = 0; i < r.ncols; i++) {
        const List *tl = s->select_stmt->target_list;
        int loc = -1;   /* errors point at the select-list item, when there is no * */
        if (list_len(tl) == r.ncols)
            loc = ((const ResTarget *)list_nth(tl, i))->val->location;
        vals[i] = plan__make_expr(b->arena, EXPR_COLUMN, r.cols[i].type, loc, 0);
        vals[i]->index = i;
        vals[i]->name = r.cols[i].name;
    }
    Expr **row = full_row(b, t, it, vals, r.ncols, defaults);
    int ncols = store_table_ncols(t);
    PlanNode *p = plan__new_node(b->arena, PLAN_PROJECT, ncols);
    p->left = r.root;
    p->exprs = row;
    for (int c = 0; c < ncols; c++) {
        p->col_types[c] = row[c]->type;
        p->col_names[c] = store_table_column(t, c)->name;
    }
    return p;
}

Plan *plan__plan_insert(Binder *b, const InsertStmt *s)
{
    const RangeVar *rv = s->relation;
    StoreTable *t = plan__lookup_table(b, rv->schemaname, rv->relname, rv->node.location, false);
    InsertTargets it = resolve_targets(b, s, t);
    Expr **defaults = MEM_NEW_ARRAY(b->arena, Expr *, store_table_ncols(t) + 1);
    const SelectStmt *sel = s->select_stmt;
    bool plain_values = !sel || (sel->values_lists && !sel->sort_clause && !sel->limit_count &&
                                 !sel->limit_offset);
    PlanNode *src = plain_values ? values_source(b, s, t, &it, defaults)
                                 : select_source(b, s, t, &it, defaults);
    PlanNode *ins = plan__new_node(b->arena, PLAN_INSERT, 0);
    ins->left = src;
    ins->target = t;
    ins->table = t;
    Plan *p = plan__new_plan(b, PLAN_STMT_INSERT, "INSERT");
    p->root = ins;
    plan__plan_returning(b, p, rv, t, s->returning_list);
    return p;
}
