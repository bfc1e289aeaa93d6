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
    char *identity;     /* per table column: 'a' ALWAYS, 'd' BY DEFAULT, 0 (sequence.c) */
    int override;       /* OVERRIDING_USER_VALUE / OVERRIDING_SYSTEM_VALUE / 0 */
} InsertTargets;

/* Identity columns of t (their owned sequences say so). */
static char *identity_columns(Binder *b, StoreTable *t)
{
    int ncols = store_table_ncols(t);
    char *id = MEM_NEW_ARRAY(b->arena, char, ncols + 1);
    uint32_t oids[32];
    int n = store_seq_owned_by(store_table_oid(t), oids, 32);
    for (int i = 0; i < n && i < 32; i++) {
        StoreSeqInfo in;
        if (store_seq_info(oids[i], &in) && (in.def.identity == 'a' || in.def.identity == 'd') &&
            in.def.owner_col < ncols)
            id[in.def.owner_col] = in.def.identity;
    }
    return id;
}

/* A value given for table column c: false when it must be replaced by the
 * DEFAULT (OVERRIDING USER VALUE on an identity column); 428C9 for an
 * ALWAYS identity column without OVERRIDING SYSTEM VALUE (PostgreSQL's
 * rewriteTargetListIU). */
static bool value_allowed(const InsertTargets *it, StoreTable *t, int c)
{
    if (!it->identity[c])
        return true;
    if (it->override == OVERRIDING_USER_VALUE)
        return false;
    if (it->identity[c] == 'a' && it->override != OVERRIDING_SYSTEM_VALUE) {
        const char *name = store_table_column(t, c)->name;
        ErrorData *e = err_begin(ERRCODE_GENERATED_ALWAYS);
        err_message(e, "cannot insert a non-DEFAULT value into column \"%s\"", name);
        err_detail(e, "Column \"%s\" is an identity column defined as GENERATED ALWAYS.", name);
        err_hint(e, "Use OVERRIDING SYSTEM VALUE to override.");
        err_throw();
    }
    return true;
}

static InsertTargets resolve_targets(Binder *b, const InsertStmt *s, StoreTable *t)
{
    InsertTargets it;
    int ncols = store_table_ncols(t);
    it.n = s->cols ? list_len(s->cols) : ncols;
    it.cols = MEM_NEW_ARRAY(b->arena, int, it.n + 1);
    it.identity = identity_columns(b, t);
    it.override = s->override;
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
        if (vals[i] != defaults[it->cols[i]] && value_allowed(it, t, it->cols[i]))
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

/* PostgreSQL's transformInsertStmt plans the source SELECT without resolving
 * its untyped literals to text and copies an unknown-typed constant of the
 * select list up into the INSERT's row, where the target column types it
 * (INSERT INTO t SELECT 1, NULL). Only for a plain select list whose
 * targets no DISTINCT, GROUP BY, ORDER BY or HAVING can reference: those
 * resolve them to text in PostgreSQL too. */
static bool keeps_unknown_literals(const SelectStmt *q)
{
    return q->op == SELECT_SETOP_NONE && !q->values_lists && !q->distinct && !q->group_clause &&
           !q->having_clause && !q->sort_clause;
}

/* The unknown-typed constant that output column i of p passes up, or NULL:
 * a one-row VALUES (no FROM) or a projection, through projected column
 * references and LIMIT. */
static const Expr *unknown_const_output(const PlanNode *p, int i)
{
    while (p) {
        if (p->kind == PLAN_LIMIT) {
            p = p->left;
            continue;
        }
        if ((p->kind != PLAN_PROJECT && (p->kind != PLAN_VALUES || p->nrows != 1)) || i >= p->ncols)
            return NULL;
        const Expr *e = p->kind == PLAN_VALUES ? p->rows[0][i] : p->exprs[i];
        if (e->type.oid != TYPE_UNKNOWN)
            return NULL;
        if (e->kind == EXPR_CONST)
            return e;
        if (e->kind != EXPR_COLUMN || p->kind == PLAN_VALUES)
            return NULL;
        i = e->index;
        p = p->left;
    }
    return NULL;
}

static PlanNode *select_source(Binder *b, const InsertStmt *s, StoreTable *t, const InsertTargets *it,
                               Expr **defaults)
{
    bool keep = b->keep_unknown;
    b->keep_unknown = keeps_unknown_literals(s->select_stmt);
    SelectResult r = plan__plan_select(b, s->select_stmt);
    b->keep_unknown = keep;
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
        const Expr *lit = r.cols[i].type.oid == TYPE_UNKNOWN ? unknown_const_output(r.root, i) : NULL;
        if (lit) {   /* typed by its target column below, as PostgreSQL's copied-up constant */
            vals[i] = plan__copy_expr(b->arena, lit);
            continue;
        }
        vals[i] = plan__make_expr(b->arena, EXPR_COLUMN, r.cols[i].type, loc, 0);
        vals[i]->index = i;
        vals[i]->name = r.cols[i].name;
        vals[i] = plan__resolve_unknown(b, vals[i]);
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

/* ---- ON CONFLICT ---- */

/* The arbiter is the primary key (Strata has no other unique index): the
 * inference columns must be exactly its columns (42P10 otherwise), ON
 * CONSTRAINT must name it. Returns false when there is no arbiter (DO
 * NOTHING without a target on a table without a key: a plain insert). */
static bool conflict_target(Binder *b, const InsertStmt *s, StoreTable *t)
{
    const OnConflictClause *oc = s->on_conflict;
    const InferClause *inf = oc->infer;
    int npk = store_table_npkey(t);
    const int *pk = store_table_pkey(t);
    if (!inf) {
        if (oc->action == ONCONFLICT_UPDATE)
            plan__error_hint(b, ERRCODE_SYNTAX_ERROR, oc->node.location, "For example, ON CONFLICT (column_name).",
                             "ON CONFLICT DO UPDATE requires inference specification or constraint name");
        return npk > 0;
    }
    if (inf->conname) {
        const char *pkname = mem_printf(b->arena, "%s_pkey", store_table_name(t));
        if (npk == 0 || strcmp(inf->conname, pkname) != 0)
            err_raise(ERRCODE_UNDEFINED_OBJECT, "constraint \"%s\" for table \"%s\" does not exist", inf->conname,
                      store_table_name(t));
        return true;
    }
    uint64_t want = 0, got = 0;
    bool matches = npk > 0 && npk <= 64;
    for (int k = 0; k < npk && matches; k++)
        want |= (uint64_t)1 << (pk[k] & 63);
    for (int i = 0; i < list_len(inf->index_elems); i++) {
        const IndexElem *ie = list_nth(inf->index_elems, i);
        if (!ie->name) {
            matches = false;
            continue;
        }
        int c = store_table_column_index(t, ie->name);
        if (c < 0)
            plan__error_at(b, ERRCODE_UNDEFINED_COLUMN, ie->node.location, "column \"%s\" does not exist", ie->name);
        bool in_pk = false;
        for (int k = 0; k < npk; k++)
            in_pk |= pk[k] == c;
        matches &= in_pk;
        got |= (uint64_t)1 << (c & 63);
    }
    if (!matches || got != want)
        err_raise(ERRCODE_INVALID_COLUMN_REFERENCE,
                  "there is no unique or exclusion constraint matching the ON CONFLICT specification");
    return true;
}

/* Share the statement's parameter state with a sub-binder (and back). */
static void share_params(Binder *to, const Binder *from)
{
    to->nparams = from->nparams;
    to->param_cap = from->param_cap;
    to->param_types = from->param_types;
    to->param_fixed = from->param_fixed;
    to->param_nodes = from->param_nodes;
}

/* The SET list of DO UPDATE: exprs[c] for assigned columns (variable space). */
static void bind_set_list(Binder *sub, const List *targets, StoreTable *t, Expr **exprs, Expr **defaults)
{
    const char *identity = identity_columns(sub, t);
    for (int i = 0; i < list_len(targets); i++) {
        const ResTarget *rt = list_nth(targets, i);
        int c = store_table_column_index(t, rt->name);
        if (c < 0)
            plan__error_at(sub, ERRCODE_UNDEFINED_COLUMN, rt->node.location,
                           "column \"%s\" of relation \"%s\" does not exist", rt->name, store_table_name(t));
        if (rt->indirection)
            plan__error_at(sub, ERRCODE_FEATURE_NOT_SUPPORTED, rt->node.location,
                           "subscripts in ON CONFLICT DO UPDATE are not supported yet");
        if (exprs[c])
            plan__error_at(sub, ERRCODE_SYNTAX_ERROR, -1, "multiple assignments to same column \"%s\"",
                           rt->name);   /* PostgreSQL gives no position */
        const Node *v = plan__set_item_value(sub, rt);   /* SET (a, b) = ROW(…) too */
        if (!v) {
            if (!defaults[c])
                defaults[c] = default_expr(sub, store_table_column(t, c));
            exprs[c] = defaults[c];
            continue;
        }
        if (identity[c] == 'a')
            plan__identity_not_default(t, c);
        exprs[c] = assign(sub, plan__bind_expr(sub, v), store_table_column(t, c));
    }
}

/* DO UPDATE's tree: Project(locator, new row) <- [Filter(WHERE)] <- the
 * worktable of conflicts (existing row, excluded row, locator). */
static PlanNode *conflict_update_tree(Binder *b, const InsertStmt *s, StoreTable *t, Expr **defaults)
{
    int n = store_table_ncols(t);
    Binder sub;
    plan__binder_init(&sub, b->ctx);
    share_params(&sub, b);
    sub.query_text = b->query_text;
    sub.agg_forbidden = "UPDATE";
    sub.win_forbidden = "UPDATE";
    RangeEntry *rt = plan__add_rte(&sub, s->relation);
    RangeVar ex = *s->relation;
    ex.alias = "excluded";
    ex.colaliases = NULL;
    RangeEntry *re = plan__add_rte(&sub, &ex);
    int *layout = MEM_NEW_ARRAY(b->arena, int, 2 * n + 1);
    for (int c = 0; c < n; c++) {
        layout[c] = rt->var_base + c;
        layout[n + c] = re->var_base + c;
    }
    Expr **set = MEM_NEW_ARRAY(b->arena, Expr *, n + 1);
    bind_set_list(&sub, s->on_conflict->target_list, t, set, defaults);
    Expr *where = NULL;
    if (s->on_conflict->where_clause)
        where = plan__coerce_bool(&sub, plan__bind_expr(&sub, s->on_conflict->where_clause), "WHERE");
    share_params(b, &sub);
    if (!b->counters)
        b->counters = MEM_NEW_ARRAY(b->arena, int, 4);
    PlanNode *w = plan__new_node(b->arena, PLAN_WORKTABLE_SCAN, 2 * n + 1);
    for (int c = 0; c < 2 * n; c++) {
        w->col_types[c] = store_table_column(t, c % n)->type;
        w->col_names[c] = store_table_column(t, c % n)->name;
    }
    w->col_types[2 * n] = SQLTYPE(TYPE_INT8);
    w->col_names[2 * n] = "ctid";
    w->worktable_id = b->counters[0]++;
    w->alias = "excluded";
    PlanNode *top = w;
    if (where) {
        PlanNode *f = plan__new_node(b->arena, PLAN_FILTER, 2 * n + 1);
        memcpy(f->col_types, w->col_types, sizeof(SqlType) * (size_t)(2 * n + 1));
        memcpy(f->col_names, w->col_names, sizeof(const char *) * (size_t)(2 * n + 1));
        f->predicate = plan__remap(&sub, where, layout, 2 * n);
        f->left = w;
        top = f;
    }
    PlanNode *p = plan__new_node(b->arena, PLAN_PROJECT, n + 1);
    p->left = top;
    p->exprs = MEM_NEW_ARRAY(b->arena, Expr *, n + 2);
    p->exprs[0] = plan__make_expr(b->arena, EXPR_COLUMN, SQLTYPE(TYPE_INT8), -1, 0);
    p->exprs[0]->index = 2 * n;
    p->col_types[0] = SQLTYPE(TYPE_INT8);
    p->col_names[0] = "ctid";
    for (int c = 0; c < n; c++) {
        const StoreColumnDef *col = store_table_column(t, c);
        Expr *e = set[c] ? plan__remap(&sub, set[c], layout, 2 * n) : NULL;
        if (!e) {
            e = plan__make_expr(b->arena, EXPR_COLUMN, col->type, -1, 0);
            e->index = c;
            e->name = col->name;
        }
        p->exprs[c + 1] = e;
        p->col_types[c + 1] = col->type;
        p->col_names[c + 1] = col->name;
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
    plan__bind_with(b, s->with_clause, sel);   /* WITH … INSERT: visible to the source */
    bool plain_values = !sel || (sel->values_lists && !sel->sort_clause && !sel->limit_count &&
                                 !sel->limit_offset);
    PlanNode *src = plain_values ? values_source(b, s, t, &it, defaults)
                                 : select_source(b, s, t, &it, defaults);
    PlanNode *ins = plan__new_node(b->arena, PLAN_INSERT, 0);
    ins->left = src;
    ins->target = t;
    ins->table = t;
    if (s->on_conflict && conflict_target(b, s, t)) {
        ins->on_conflict = s->on_conflict->action == ONCONFLICT_UPDATE ? 'u' : s->on_conflict->infer ? 'n' : 'a';
        if (ins->on_conflict == 'u')
            ins->right = conflict_update_tree(b, s, t, defaults);
    }
    Plan *p = plan__new_plan(b, PLAN_STMT_INSERT, "INSERT");
    p->root = ins;
    plan__plan_returning(b, p, rv, t, s->returning_list);
    return p;
}

Expr *plan__column_default(Binder *b, const StoreColumnDef *col)
{
    return default_expr(b, col);
}

char *plan__identity_columns(Binder *b, StoreTable *t)
{
    return identity_columns(b, t);
}
