/*
 * plan_update.c — UPDATE t SET ... [FROM ...] WHERE ... and DELETE FROM t
 * [USING ...] WHERE ...
 *
 * Both are planned as a SELECT over the target table (built here as a
 * SelectStmt: FROM t [alias], <FROM / USING items> WHERE <where>, targets =
 * every column of t followed by the SET expressions), then patched so the
 * target's scan (range entry 0) also returns the hidden row locator
 * (STORE_COL_ROWID) and carries it up to the top projection, through
 * filters, projections and joins (the target on either side; a join whose
 * left side gained the locator gets a projection above it that keeps the
 * old column layout, so nothing above needs renumbering). The top
 * projection outputs column 0 = locator and, for UPDATE, columns 1..ncols
 * = the new row in table order with assignment casts (PostgreSQL's
 * transformAssignedExpr); with RETURNING, DELETE's columns 1..ncols are the
 * old row, and the columns of the FROM / USING items follow
 * (plan_returning.c). PLAN_UPDATE / PLAN_DELETE (executor/op_update.c)
 * apply them through storage; a target row joined several times is
 * changed once.
 *
 * READ COMMITTED re-check (EvalPlanQual): the modify node's `right` is a
 * copy of the path from the top projection down to the target's scan with
 * the scan replaced by a worktable scan of re-fetched newest versions
 * (plan.h); subtrees off the path are shared.
 *
 * SET a = DEFAULT binds the column's default (nextval for identity and
 * serial columns); SET (a, b) = ROW(x, y) assigns element by element.
 * WITH queries are bound into the statement's binder before its SELECT.
 * Limits: no WHERE CURRENT OF, SET (a, b) = (SELECT …),
 * array-element targets.
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"

#include <string.h>
#include "storage/storage.h"

static _Noreturn void unsupported(Binder *b, int location, const char *what)
{
    plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, location, "%s is not supported yet", what);
}

/* SELECT <targets> FROM rv, <from...> WHERE where (rv is range entry 0) */
static SelectStmt *make_select(Binder *b, RangeVar *rv, const List *from, Node *where, List *targets)
{
    SelectStmt *s = MEM_NEW(b->arena, SelectStmt);
    s->node.tag = T_SelectStmt;
    s->node.location = -1;
    s->target_list = targets;
    s->from_clause = list_make1(b->arena, rv);
    for (int i = 0; i < list_len(from); i++)
        s->from_clause = list_append(b->arena, s->from_clause, list_nth(from, i));
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

/* Whether scan lies in the subtree n. */
static bool holds(const PlanNode *n, const PlanNode *scan)
{
    return n && (n == scan || holds(n->left, scan) || holds(n->right, scan));
}

/* A copy of e with every input column >= from moved up by one. */
static Expr *shift_columns(Binder *b, const Expr *e, int from)
{
    if (!e)
        return NULL;
    Expr *c = plan__copy_expr(b->arena, e);
    Expr *stack[256];
    int n = 0;
    stack[n++] = c;
    while (n > 0) {
        Expr *x = stack[--n];
        if (x->kind == EXPR_COLUMN && x->index >= from)
            x->index++;
        for (int i = 0; i < x->nargs && n < 256; i++)
            stack[n++] = x->args[i];
    }
    return c;
}

static Expr *column(Binder *b, SqlType t, int index)
{
    Expr *e = plan__make_expr(b->arena, EXPR_COLUMN, t, -1, 0);
    e->index = index;
    return e;
}

/* The target is in a join's left side, whose output grew by the locator
 * at position nl (its old width): columns nl.. of the joined row moved up
 * by one. Shift the join's own condition, then turn n itself into a
 * projection over the join (same pointer, so its parent is unchanged)
 * that restores the old layout with the locator last. */
static void join_left_locator(Binder *b, PlanNode *n, int nl)
{
    n->join_filter = shift_columns(b, n->join_filter, nl);
    int out = n->ncols;                 /* old join width (no locator) */
    PlanNode *j = MEM_NEW(b->arena, PlanNode);
    *j = *n;
    j->ncols = out + 1;
    j->col_types = MEM_NEW_ARRAY(b->arena, SqlType, out + 2);
    j->col_names = MEM_NEW_ARRAY(b->arena, const char *, out + 2);
    for (int c = 0, k = 0; c <= out; c++) {   /* join output: left (with locator), then the rest */
        bool loc = c == nl;
        j->col_types[c] = loc ? SQLTYPE(TYPE_INT8) : n->col_types[k];
        j->col_names[c] = loc ? "ctid" : n->col_names ? n->col_names[k] : NULL;
        k += !loc;
    }
    memset(n, 0, sizeof *n);
    n->kind = PLAN_PROJECT;
    n->left = j;
    n->node_id = j->node_id;
    n->est_rows = j->est_rows;
    n->ncols = out;
    n->col_types = MEM_NEW_ARRAY(b->arena, SqlType, out + 1);
    n->col_names = MEM_NEW_ARRAY(b->arena, const char *, out + 1);
    n->exprs = MEM_NEW_ARRAY(b->arena, Expr *, out + 1);
    for (int c = 0; c < out; c++) {
        int from = c < nl ? c : c + 1;
        n->exprs[c] = column(b, j->col_types[from], from);
        n->col_types[c] = j->col_types[from];
        n->col_names[c] = j->col_names[from];
    }
    Expr **ex = MEM_NEW_ARRAY(b->arena, Expr *, out + 1);   /* room for the locator, appended below */
    memcpy(ex, n->exprs, sizeof(Expr *) * (size_t)out);
    ex[out] = column(b, SQLTYPE(TYPE_INT8), nl);
    n->exprs = ex;
}

/* Append the locator (STORE_COL_ROWID) to the target's scan and carry it
 * up to n's output, as its last column, through filters, projections and
 * joins (the target on either side; on the right only of joins that output
 * right columns). Returns the locator's position in n's output. */
static int thread_rowid(Binder *b, PlanNode *n, const PlanNode *scan, int location)
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
        thread_rowid(b, n->left, scan, location);
        break;
    case PLAN_PROJECT: {
        int pos = thread_rowid(b, n->left, scan, location);
        Expr **ex = MEM_NEW_ARRAY(b->arena, Expr *, n->ncols + 1);
        memcpy(ex, n->exprs, sizeof(Expr *) * (size_t)n->ncols);
        ex[n->ncols] = column(b, SQLTYPE(TYPE_INT8), pos);
        n->exprs = ex;
        break;
    }
    case PLAN_HASH_JOIN: case PLAN_NESTED_LOOP:
        if (holds(n->left, scan)) {
            int nl = n->left->ncols;
            thread_rowid(b, n->left, scan, location);
            if (n->join_type == PJOIN_SEMI || n->join_type == PJOIN_ANTI || n->join_type == PJOIN_ANTI_NULL)
                break;                   /* output = left columns: the locator is already last */
            join_left_locator(b, n, nl); /* n is now a projection, locator to be appended */
            break;
        }
        if (n->join_type >= PJOIN_SEMI)
            unsupported(b, location, "this form of UPDATE or DELETE");
        thread_rowid(b, n->right, scan, location);   /* right columns come last */
        break;
    default:
        unsupported(b, location, "this form of UPDATE or DELETE");
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

/* The leaf of the re-check tree: the re-fetched versions (worktable wt, in
 * the scan's columns, locator last), through the scan's own filter. */
static PlanNode *recheck_leaf(Binder *b, const PlanNode *scan, int wt)
{
    PlanNode *w = plan__new_node(b->arena, PLAN_WORKTABLE_SCAN, scan->ncols);
    for (int c = 0; c < scan->ncols; c++) {
        w->col_types[c] = scan->col_types[c];
        w->col_names[c] = scan->col_names ? scan->col_names[c] : NULL;
    }
    w->worktable_id = wt;
    w->table = scan->table;
    w->scan_cols = scan->scan_cols;
    w->alias = store_table_name(scan->table);
    if (!scan->scan_filter)
        return w;
    PlanNode *f = plan__new_node(b->arena, PLAN_FILTER, scan->ncols);
    for (int c = 0; c < scan->ncols; c++) {
        f->col_types[c] = w->col_types[c];
        f->col_names[c] = w->col_names[c];
    }
    f->predicate = scan->scan_filter;
    f->left = w;
    return f;
}

/* EvalPlanQual's plan (see plan.h, PLAN_UPDATE): a copy of the path from
 * n down to the target's scan with the scan replaced by recheck_leaf;
 * subtrees off the path are shared, not copied (plans are immutable). */
static PlanNode *recheck_copy(Binder *b, const PlanNode *n, const PlanNode *scan, int wt)
{
    if (n == scan)
        return recheck_leaf(b, scan, wt);
    PlanNode *c = MEM_NEW(b->arena, PlanNode);
    *c = *n;
    if (holds(n->left, scan))
        c->left = recheck_copy(b, n->left, scan, wt);
    else
        c->right = recheck_copy(b, n->right, scan, wt);
    return c;
}

static Plan *finish(Binder *b, PlanKind kind, const char *command, StoreTable *t, PlanNode *child,
                    const PlanNode *scan)
{
    PlanNode *m = plan__new_node(b->arena, kind, 0);
    m->left = child;
    m->target = t;
    m->table = t;
    if (!b->counters)
        b->counters = MEM_NEW_ARRAY(b->arena, int, 4);
    m->right = recheck_copy(b, child, scan, b->counters[0]++);
    Plan *p = plan__new_plan(b, PLAN_STMT_INSERT, command);
    p->root = m;
    return p;
}

static void check_common(Binder *b, const Node *stmt, bool current_of)
{
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

/* The value node of a SET item: SET (a, b) = ROW(x, y) gives a x and b y;
 * NULL for DEFAULT (the column's default is bound after planning). A
 * sub-SELECT source is not supported yet. */
const Node *plan__set_item_value(Binder *b, const ResTarget *rt)
{
    const Node *v = rt->val;
    if (IS_A(v, MultiAssignRef)) {
        const MultiAssignRef *m = (const MultiAssignRef *)v;
        if (!IS_A(m->source, RowExpr))
            unsupported(b, m->source->location, "SET (column, ...) = (SELECT ...)");
        v = list_nth(((const RowExpr *)m->source)->args, m->colno - 1);
    }
    return !v || IS_A(v, SetToDefault) ? NULL : v;
}

/* Resolve the SET targets: setcol[k] = table column of the k-th assignment.
 * A GENERATED ALWAYS identity column takes only DEFAULT (PostgreSQL's
 * rewriteTargetListIU: 428C9, without a position). */
static int *set_columns(Binder *b, const UpdateStmt *s, StoreTable *t)
{
    int n = list_len(s->target_list);
    int *setcol = MEM_NEW_ARRAY(b->arena, int, n + 1);
    const char *identity = plan__identity_columns(b, t);
    for (int k = 0; k < n; k++) {
        const ResTarget *rt = list_nth(s->target_list, k);
        if (rt->indirection)
            unsupported(b, rt->node.location, "assignment to an array element or field");
        int c = store_table_column_index(t, rt->name);
        if (c < 0)
            plan__error_at(b, ERRCODE_UNDEFINED_COLUMN, rt->node.location,
                           "column \"%s\" of relation \"%s\" does not exist", rt->name, store_table_name(t));
        for (int j = 0; j < k; j++)
            if (setcol[j] == c)
                err_raise(ERRCODE_SYNTAX_ERROR, "multiple assignments to same column \"%s\"",
                          rt->name);   /* the rewriter's error: no position */
        setcol[k] = c;
    }
    for (int k = 0; k < n; k++) {
        if (identity[setcol[k]] == 'a' && plan__set_item_value(b, list_nth(s->target_list, k)))
            plan__identity_not_default(t, setcol[k]);
    }
    return setcol;
}

void plan__identity_not_default(StoreTable *t, int c)
{
    const char *name = store_table_column(t, c)->name;
    ErrorData *e = err_begin(ERRCODE_GENERATED_ALWAYS);
    err_message(e, "column \"%s\" can only be updated to DEFAULT", name);
    err_detail(e, "Column \"%s\" is an identity column defined as GENERATED ALWAYS.", name);
    err_throw();
}

/* The range entry of the target (the first FROM item) and its scan. */
static const PlanNode *target_scan(Binder *b, int location)
{
    if (b->nrtes < 1 || !b->scan_nodes || !b->scan_nodes[0])
        unsupported(b, location, "this form of UPDATE or DELETE");
    return b->scan_nodes[0];
}

/* RETURNING may name the FROM / USING items: their range entries (found
 * by binding the FROM clause alone in a scratch binder) become range
 * entries of the RETURNING binder (plan_returning.c), and "ref.col" for
 * each of their columns is appended to *targets, so the modify node's
 * child carries them after the row. Returns the entries (RangeEntry *). */
/* `RETURNING *` over the FROM items in PostgreSQL's order: each item's
 * columns as its FromNode lists them, a USING / NATURAL column once, as
 * (source, column) pairs (source = range entry - 1). NULL when a merged
 * column is not one side's plain column (FULL JOIN's COALESCE, a cast to
 * the common type): then every range entry's columns are listed. */
static int *star_pairs(const Binder *tmp, int *n_out)
{
    int n = 0;
    for (int i = 1; i < tmp->nfrom; i++)
        n += tmp->from_items[i]->ncols;
    int *pairs = MEM_NEW_ARRAY(tmp->arena, int, 2 * n + 2);
    int k = 0;
    for (int i = 1; i < tmp->nfrom; i++) {
        const FromNode *fn = tmp->from_items[i];
        for (int c = 0; c < fn->ncols; c++, k++) {
            const FromCol *fc = &fn->cols[c];
            int rte = fc->rte, col = fc->col;
            if (fc->merged) {
                if (fc->merged->kind != EXPR_COLUMN)
                    return NULL;
                for (rte = 0; rte < tmp->nrtes; rte++) {
                    const RangeEntry *r = tmp->rtes[rte];
                    if (fc->merged->index >= r->var_base && fc->merged->index < r->var_base + r->ncols)
                        break;
                }
                if (rte == tmp->nrtes)
                    return NULL;
                col = fc->merged->index - tmp->rtes[rte]->var_base;
            }
            if (rte < 1)
                return NULL;
            pairs[2 * k] = rte - 1;
            pairs[2 * k + 1] = col;
        }
    }
    *n_out = n;
    return pairs;
}

static List *returning_sources(Binder *b, RangeVar *rv, const List *from, const List *returning,
                               const WithClause *with, List **targets, int **star, int *nstar)
{
    *star = NULL;
    *nstar = 0;
    if (!returning || !from)
        return NULL;
    Binder tmp;
    plan__binder_init(&tmp, b->ctx);
    tmp.nparams = b->nparams;
    tmp.param_cap = b->param_cap;
    tmp.param_types = b->param_types;
    tmp.param_fixed = b->param_fixed;
    tmp.param_nodes = b->param_nodes;
    tmp.params_fixed = b->params_fixed;
    tmp.counters = b->counters;
    SelectStmt *sel = make_select(&tmp, rv, from, NULL, NULL);
    plan__bind_with(&tmp, with, sel);   /* CteDefs of its own: planning marks them */
    plan__plan_select(&tmp, sel);
    b->counters = tmp.counters;
    List *rtes = NULL;
    for (int i = 1; i < tmp.nrtes; i++) {   /* 0 is the target */
        const RangeEntry *r = tmp.rtes[i];
        for (int c = 0; c < r->ncols; c++) {
            ColumnRef *cr = MEM_NEW(b->arena, ColumnRef);
            cr->node.tag = T_ColumnRef;
            cr->node.location = -1;
            cr->fields = list_append(b->arena, list_make1(b->arena, (void *)r->refname), (void *)r->colnames[c]);
            ResTarget *rt = MEM_NEW(b->arena, ResTarget);
            rt->node.tag = T_ResTarget;
            rt->node.location = -1;
            rt->val = &cr->node;
            *targets = list_append(b->arena, *targets, rt);
        }
        rtes = list_append(b->arena, rtes, (void *)r);
    }
    if (tmp.from_items && tmp.nfrom == list_len(from) + 1)
        *star = star_pairs(&tmp, nstar);
    return rtes;
}

/* The locator, vals[0..nvals), then the top's columns [from, from+nextra). */
static Expr **with_extras(Binder *b, PlanNode *top, Expr **vals, int nvals, int from, int nextra)
{
    Expr **all = MEM_NEW_ARRAY(b->arena, Expr *, nvals + nextra + 1);
    memcpy(all, vals, sizeof(Expr *) * (size_t)nvals);
    for (int i = 0; i < nextra; i++)
        all[nvals + i] = top->exprs[from + i];
    return all;
}

Plan *plan__plan_update(Binder *b, const UpdateStmt *s)
{
    check_common(b, &s->node, s->current_of);
    RangeVar *rv = s->relation;
    StoreTable *t = plan__lookup_table(b, rv->schemaname, rv->relname, rv->node.location, false);
    int ncols = store_table_ncols(t);
    int nset = list_len(s->target_list);
    int *setcol = set_columns(b, s, t);
    List *targets = old_columns(b, rv, t);
    for (int k = 0; k < nset; k++) {   /* DEFAULT: a NULL placeholder, replaced below */
        const ResTarget *rt = list_nth(s->target_list, k);
        ResTarget *v = MEM_NEW(b->arena, ResTarget);
        v->node = rt->node;
        v->val = (Node *)plan__set_item_value(b, rt);
        if (!v->val) {
            A_Const *null = MEM_NEW(b->arena, A_Const);
            null->node.tag = T_A_Const;
            null->node.location = -1;
            null->kind = CONST_NULL;
            v->val = &null->node;
        }
        targets = list_append(b->arena, targets, v);
    }
    int before = list_len(targets);
    int *star, nstar;
    List *rvs = returning_sources(b, rv, s->from_clause, s->returning_list, s->with_clause, &targets, &star, &nstar);
    int nextra = list_len(targets) - before;
    b->keep_unknown = true;   /* SET a = '5': the literal is typed by the column */
    SelectStmt *sel = make_select(b, rv, s->from_clause, s->where_clause, targets);
    plan__bind_with(b, s->with_clause, sel);
    SelectResult r = plan__plan_select(b, sel);
    b->keep_unknown = false;
    PlanNode *top = top_project(b, r.root);
    const PlanNode *scan = target_scan(b, rv->node.location);
    int rowid_pos = thread_rowid(b, top->left, scan, rv->node.location);
    Expr **vals = MEM_NEW_ARRAY(b->arena, Expr *, ncols + 1);
    for (int c = 0; c < ncols; c++)
        vals[c] = top->exprs[c];
    for (int k = 0; k < nset; k++) {
        const StoreColumnDef *col = store_table_column(t, setcol[k]);
        const ResTarget *rt = list_nth(s->target_list, k);
        if (!plan__set_item_value(b, rt)) {
            vals[setcol[k]] = plan__column_default(b, col);
            continue;
        }
        Expr *e = top->exprs[ncols + k];
        if (e->location < 0)
            e->location = plan__set_item_value(b, rt)->location;
        vals[setcol[k]] = plan__remap(b, assign(b, e, col), NULL, 0);
    }
    set_outputs(b, top, rowid_pos, with_extras(b, top, vals, ncols, ncols + nset, nextra), ncols + nextra);
    Plan *p = finish(b, PLAN_UPDATE, "UPDATE", t, top, scan);
    plan__plan_returning_from(b, p, rv, t, s->returning_list, rvs, star, nstar);
    return p;
}

Plan *plan__plan_delete(Binder *b, const DeleteStmt *s)
{
    check_common(b, &s->node, s->current_of);
    RangeVar *rv = s->relation;
    StoreTable *t = plan__lookup_table(b, rv->schemaname, rv->relname, rv->node.location, false);
    int ncols = store_table_ncols(t);
    bool ret = s->returning_list != NULL;   /* then the old row follows the locator */
    List *targets = ret ? old_columns(b, rv, t) : NULL;
    int *star, nstar;
    List *rvs = returning_sources(b, rv, s->using_clause, s->returning_list, s->with_clause, &targets, &star, &nstar);
    int nout = list_len(targets);
    SelectStmt *sel = make_select(b, rv, s->using_clause, s->where_clause, targets);
    plan__bind_with(b, s->with_clause, sel);
    SelectResult r = plan__plan_select(b, sel);
    PlanNode *top = top_project(b, r.root);
    const PlanNode *scan = target_scan(b, rv->node.location);
    int rowid_pos = thread_rowid(b, top->left, scan, rv->node.location);
    set_outputs(b, top, rowid_pos, ret ? with_extras(b, top, top->exprs, ncols, ncols, nout - ncols) : NULL,
                ret ? nout : 0);
    Plan *p = finish(b, PLAN_DELETE, "DELETE", t, top, scan);
    plan__plan_returning_from(b, p, rv, t, s->returning_list, rvs, star, nstar);
    return p;
}
