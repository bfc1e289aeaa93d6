/*
 * plan_update.c — UPDATE t SET ... WHERE ... and DELETE FROM t WHERE ...
 *
 * Both are planned as a SELECT over the target table (built here as a
 * SelectStmt: FROM t [alias] WHERE <where>, targets = every column of t
 * followed by the SET expressions), then patched so the target's scan also
 * returns the hidden row locator (STORE_COL_ROWID) and carries it up to the
 * top projection. The top projection outputs column 0 = locator and, for
 * UPDATE, columns 1..ncols = the new row in table order with assignment
 * casts (PostgreSQL's transformAssignedExpr); with RETURNING, DELETE's
 * columns 1..ncols are the old row. PLAN_UPDATE / PLAN_DELETE
 * (executor/op_update.c, op_delete.c) apply them through storage.
 *
 * Limits: the path from the top projection down to the target's scan may
 * only hold filters and projections (no joins: WHERE with IN/EXISTS
 * subqueries that the planner turns into semi joins, UPDATE ... FROM and
 * DELETE ... USING raise 0A000); no SET a = DEFAULT or
 * SET (a, b) = ...; no array-element targets.
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"

#include <string.h>
#include "storage/storage.h"

static _Noreturn void unsupported(Binder *b, int location, const char *what)
{
    plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, location, "%s is not supported yet", what);
}

/* SELECT <targets> FROM rv WHERE where */
static SelectStmt *make_select(Binder *b, RangeVar *rv, Node *where, List *targets)
{
    SelectStmt *s = MEM_NEW(b->arena, SelectStmt);
    s->node.tag = T_SelectStmt;
    s->node.location = -1;
    s->target_list = targets;
    s->from_clause = list_make1(b->arena, rv);
    s->where_clause = where;
    return s;
}

/* ResTarget "ref.col" for each column of t. */
static List *old_columns(Binder *b, const RangeVar *rv, StoreTable *t)
{
    List *l = NULL;
    const char *ref = rv->alias ? rv->alias : rv->relname;
    for (int c = 0; c < store_table_ncols(t); c++) {
        ColumnRef *cr = MEM_NEW(b->arena, ColumnRef);
        cr->node.tag = T_ColumnRef;
        cr->node.location = -1;
        cr->fields = list_append(b->arena, list_make1(b->arena, (void *)ref),
                                 (void *)store_table_column(t, c)->name);
        ResTarget *rt = MEM_NEW(b->arena, ResTarget);
        rt->node.tag = T_ResTarget;
        rt->node.location = -1;
        rt->val = &cr->node;
        l = list_append(b->arena, l, rt);
    }
    return l;
}

/* Append the locator to the scan of the target and carry it up through
 * filters and projections; returns the locator's position in top's child. */
static int thread_rowid(Binder *b, PlanNode *n, int location)
{
    switch (n->kind) {
    case PLAN_SCAN: {
        int *cols = MEM_NEW_ARRAY(b->arena, int, n->ncols + 1);
        memcpy(cols, n->scan_cols, sizeof(int) * (size_t)n->ncols);
        cols[n->ncols] = STORE_COL_ROWID;
        n->scan_cols = cols;
        break;
    }
    case PLAN_FILTER:
        thread_rowid(b, n->left, location);
        break;
    case PLAN_PROJECT: {
        int pos = thread_rowid(b, n->left, location);
        Expr **ex = MEM_NEW_ARRAY(b->arena, Expr *, n->ncols + 1);
        memcpy(ex, n->exprs, sizeof(Expr *) * (size_t)n->ncols);
        ex[n->ncols] = plan__make_expr(b->arena, EXPR_COLUMN, SQLTYPE(TYPE_INT8), -1, 0);
        ex[n->ncols]->index = pos;
        n->exprs = ex;
        break;
    }
    default:
        unsupported(b, location, "this form of WHERE clause in UPDATE or DELETE");
    }
    SqlType *types = MEM_NEW_ARRAY(b->arena, SqlType, n->ncols + 1);
    const char **names = MEM_NEW_ARRAY(b->arena, const char *, n->ncols + 1);
    memcpy(types, n->col_types, sizeof(SqlType) * (size_t)n->ncols);
    if (n->col_names)
        memcpy(names, n->col_names, sizeof(char *) * (size_t)n->ncols);
    types[n->ncols] = SQLTYPE(TYPE_INT8);
    names[n->ncols] = "ctid";
    n->col_types = types;
    n->col_names = names;
    return n->ncols++;
}

/* The select's root as a projection (identity when it is not one). */
static PlanNode *top_project(Binder *b, PlanNode *root)
{
    if (root->kind == PLAN_PROJECT)
        return root;
    PlanNode *p = plan__new_node(b->arena, PLAN_PROJECT, root->ncols);
    p->left = root;
    p->exprs = MEM_NEW_ARRAY(b->arena, Expr *, root->ncols + 1);
    for (int i = 0; i < root->ncols; i++) {
        p->exprs[i] = plan__make_expr(b->arena, EXPR_COLUMN, root->col_types[i], -1, 0);
        p->exprs[i]->index = i;
        p->col_types[i] = root->col_types[i];
        p->col_names[i] = root->col_names ? root->col_names[i] : NULL;
    }
    return p;
}

/* Rebuild top's outputs as: locator, then vals[0..n). */
static void set_outputs(Binder *b, PlanNode *top, int rowid_pos, Expr **vals, int n)
{
    Expr **ex = MEM_NEW_ARRAY(b->arena, Expr *, n + 1);
    SqlType *types = MEM_NEW_ARRAY(b->arena, SqlType, n + 1);
    const char **names = MEM_NEW_ARRAY(b->arena, const char *, n + 1);
    ex[0] = plan__make_expr(b->arena, EXPR_COLUMN, SQLTYPE(TYPE_INT8), -1, 0);
    ex[0]->index = rowid_pos;
    names[0] = "ctid";
    for (int i = 0; i < n; i++) {
        ex[i + 1] = vals[i];
        names[i + 1] = "?column?";
    }
    for (int i = 0; i <= n; i++)
        types[i] = ex[i]->type;
    top->exprs = ex;
    top->col_types = types;
    top->col_names = names;
    top->ncols = n + 1;
}

static Plan *finish(Binder *b, PlanKind kind, const char *command, StoreTable *t, PlanNode *child)
{
    PlanNode *m = plan__new_node(b->arena, kind, 0);
    m->left = child;
    m->target = t;
    m->table = t;
    Plan *p = plan__new_plan(b, PLAN_STMT_INSERT, command);
    p->root = m;
    return p;
}

static void check_common(Binder *b, const Node *stmt, const List *from, const WithClause *with,
                         bool current_of)
{
    if (from)
        unsupported(b, stmt->location, "UPDATE ... FROM / DELETE ... USING");
    if (with)
        unsupported(b, stmt->location, "WITH in UPDATE or DELETE");
    if (current_of)
        unsupported(b, stmt->location, "WHERE CURRENT OF");
}

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

/* Resolve the SET targets: setcol[k] = table column of the k-th assignment. */
static int *set_columns(Binder *b, const UpdateStmt *s, StoreTable *t)
{
    int n = list_len(s->target_list);
    int *setcol = MEM_NEW_ARRAY(b->arena, int, n + 1);
    for (int k = 0; k < n; k++) {
        const ResTarget *rt = list_nth(s->target_list, k);
        if (!rt->val || IS_A(rt->val, SetToDefault))
            unsupported(b, rt->node.location, "SET column = DEFAULT");
        if (IS_A(rt->val, MultiAssignRef))
            unsupported(b, rt->node.location, "SET (column, ...) = ...");
        if (rt->indirection)
            unsupported(b, rt->node.location, "assignment to an array element or field");
        int c = store_table_column_index(t, rt->name);
        if (c < 0)
            plan__error_at(b, ERRCODE_UNDEFINED_COLUMN, rt->node.location,
                           "column \"%s\" of relation \"%s\" does not exist", rt->name, store_table_name(t));
        for (int j = 0; j < k; j++)
            if (setcol[j] == c)
                plan__error_at(b, ERRCODE_SYNTAX_ERROR, rt->node.location,
                               "multiple assignments to same column \"%s\"", rt->name);
        setcol[k] = c;
    }
    return setcol;
}

Plan *plan__plan_update(Binder *b, const UpdateStmt *s)
{
    check_common(b, &s->node, s->from_clause, s->with_clause, s->current_of);
    RangeVar *rv = s->relation;
    StoreTable *t = plan__lookup_table(b, rv->schemaname, rv->relname, rv->node.location, false);
    int ncols = store_table_ncols(t);
    int *setcol = set_columns(b, s, t);
    List *targets = old_columns(b, rv, t);
    for (int k = 0; k < list_len(s->target_list); k++) {
        const ResTarget *rt = list_nth(s->target_list, k);
        ResTarget *v = MEM_NEW(b->arena, ResTarget);
        v->node = rt->node;
        v->val = rt->val;
        targets = list_append(b->arena, targets, v);
    }
    b->keep_unknown = true;   /* SET a = '5': the literal is typed by the column */
    SelectResult r = plan__plan_select(b, make_select(b, rv, s->where_clause, targets));
    b->keep_unknown = false;
    PlanNode *top = top_project(b, r.root);
    int rowid_pos = thread_rowid(b, top->left, rv->node.location);
    Expr **vals = MEM_NEW_ARRAY(b->arena, Expr *, ncols + 1);
    for (int c = 0; c < ncols; c++)
        vals[c] = top->exprs[c];
    for (int k = 0; k < list_len(s->target_list); k++) {
        const StoreColumnDef *col = store_table_column(t, setcol[k]);
        Expr *e = top->exprs[ncols + k];
        if (e->location < 0)
            e->location = ((const ResTarget *)list_nth(s->target_list, k))->val->location;
        vals[setcol[k]] = plan__remap(b, assign(b, e, col), NULL, 0);
    }
    set_outputs(b, top, rowid_pos, vals, ncols);
    Plan *p = finish(b, PLAN_UPDATE, "UPDATE", t, top);
    plan__plan_returning(b, p, rv, t, s->returning_list);
    return p;
}

Plan *plan__plan_delete(Binder *b, const DeleteStmt *s)
{
    check_common(b, &s->node, s->using_clause, s->with_clause, s->current_of);
    RangeVar *rv = s->relation;
    StoreTable *t = plan__lookup_table(b, rv->schemaname, rv->relname, rv->node.location, false);
    bool ret = s->returning_list != NULL;   /* then the old row follows the locator */
    SelectResult r = plan__plan_select(b, make_select(b, rv, s->where_clause, ret ? old_columns(b, rv, t) : NULL));
    PlanNode *top = top_project(b, r.root);
    int rowid_pos = thread_rowid(b, top->left, rv->node.location);
    set_outputs(b, top, rowid_pos, ret ? top->exprs : NULL, ret ? store_table_ncols(t) : 0);
    Plan *p = finish(b, PLAN_DELETE, "DELETE", t, top);
    plan__plan_returning(b, p, rv, t, s->returning_list);
    return p;
}
