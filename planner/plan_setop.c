/*
 * plan_setop.c — UNION / INTERSECT / EXCEPT [ALL] (PostgreSQL's
 * transformSetOperationStmt).
 *
 * Each leaf SELECT is planned by its own child binder. Column counts must
 * agree (42601 "each UNION query must have the same number of columns");
 * each column's type is resolved pairwise, bottom up, with
 * select_common_type (42804 "UNION types integer and text cannot be
 * matched"); an untyped literal in a leaf ('x', NULL) takes the other
 * side's type, as in PostgreSQL, and is converted at plan time.
 *
 * Plans: UNION ALL → PLAN_APPEND (nested UNION ALLs flattened into one);
 * UNION → PLAN_DISTINCT over the PLAN_APPEND; INTERSECT / EXCEPT [ALL] →
 * PLAN_SETOP. ORDER BY / LIMIT / OFFSET apply to the whole result; ORDER BY
 * takes output column names and ordinals only (0A000 otherwise). Column
 * names come from the leftmost leaf.
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"
#include "planner/select_int.h"

#include <string.h>

static const char *op_name(const SelectStmt *s)
{
    return s->op == SELECT_SETOP_UNION ? "UNION" : s->op == SELECT_SETOP_INTERSECT ? "INTERSECT" : "EXCEPT";
}

static SelectResult plan_leaf(Binder *b, const SelectStmt *s)
{
    Binder child;
    plan__child_binder(&child, b, b->allow_outer);
    child.keep_unknown = true;
    SelectResult r = plan__plan_select(&child, s);
    plan__child_done(b, &child);
    if (child.nouter > 0)
        plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, s->node.location,
                           "outer references inside UNION/INTERSECT/EXCEPT are not supported yet");
    return r;
}

/* Give column col of n type t: unknown literals are converted where they
 * are produced (a Project or Values below Sort/Limit/Distinct/Filter);
 * anything else gets a cast Project on top. */
static bool retype_unknown(Binder *b, PlanNode *n, int col, SqlType t)
{
    switch (n->kind) {
    case PLAN_LIMIT:
    case PLAN_SORT:
    case PLAN_DISTINCT:
    case PLAN_FILTER:
        if (!retype_unknown(b, n->left, col, t))
            return false;
        n->col_types[col] = t;
        return true;
    case PLAN_APPEND:
        for (int i = 0; i < n->nchildren; i++)
            if (!retype_unknown(b, n->children[i], col, t))
                return false;
        n->col_types[col] = t;
        return true;
    case PLAN_SETOP:
        if (!retype_unknown(b, n->left, col, t) || !retype_unknown(b, n->right, col, t))
            return false;
        n->col_types[col] = t;
        return true;
    case PLAN_PROJECT: {
        Expr *c = plan__coerce(b, n->exprs[col], t, CAST_IMPLICIT);
        if (!c)
            return false;
        n->exprs[col] = plan__fold(b, c);
        n->col_types[col] = t;
        return true;
    }
    case PLAN_VALUES:
        for (int r = 0; r < n->nrows; r++) {
            Expr *c = plan__coerce(b, n->rows[r][col], t, CAST_IMPLICIT);
            if (!c)
                return false;
            n->rows[r][col] = plan__fold(b, c);
        }
        n->col_types[col] = t;
        return true;
    default:
        return false;
    }
}

/* Cast the columns of n to types (a Project on top when any differs). */
static PlanNode *cast_to(Binder *b, PlanNode *n, const SqlType *types, const char *ctx)
{
    bool need = false;
    for (int i = 0; i < n->ncols; i++) {
        if (n->col_types[i].oid == TYPE_UNKNOWN && types[i].oid != TYPE_UNKNOWN &&
            retype_unknown(b, n, i, types[i]))
            continue;
        need |= n->col_types[i].oid != types[i].oid || n->col_types[i].typmod != types[i].typmod;
    }
    if (!need)
        return n;
    PlanNode *p = plan__new_node(b->arena, PLAN_PROJECT, n->ncols);
    p->left = n;
    p->exprs = MEM_NEW_ARRAY(b->arena, Expr *, n->ncols + 1);
    for (int i = 0; i < n->ncols; i++) {
        Expr *c = plan__make_expr(b->arena, EXPR_COLUMN, n->col_types[i], -1, 0);
        c->index = i;
        c->name = n->col_names[i];
        Expr *cc = n->col_types[i].oid == types[i].oid ? c : plan__coerce(b, c, types[i], CAST_IMPLICIT);
        if (!cc)
            plan__error_at(b, ERRCODE_CANNOT_COERCE, -1, "%s could not convert type %s to %s", ctx,
                           plan__type_name(b, n->col_types[i]), plan__type_name(b, types[i]));
        if (cc != c && cc->type.typmod != types[i].typmod)
            cc->type.typmod = types[i].typmod;
        p->exprs[i] = cc;
        p->col_types[i] = types[i];
        p->col_names[i] = n->col_names[i];
    }
    p->est_rows = n->est_rows;
    return p;
}

static void flatten_append(PlanNode *n, PlanNode ***kids, int *nk, MemArena *a)
{
    if (n->kind == PLAN_APPEND) {
        for (int i = 0; i < n->nchildren; i++)
            flatten_append(n->children[i], kids, nk, a);
        return;
    }
    *kids = mem_realloc(a, *kids, sizeof(PlanNode *) * (size_t)*nk, sizeof(PlanNode *) * (size_t)(*nk + 1));
    (*kids)[(*nk)++] = n;
}

/* PostgreSQL points at the right arm's first select-list item. */
static int first_target_location(const SelectStmt *s)
{
    while (s->op != SELECT_SETOP_NONE && s->larg)
        s = s->larg;
    if (list_len(s->target_list) > 0) {
        const ResTarget *rt = list_nth(s->target_list, 0);
        return rt->val ? rt->val->location : rt->node.location;
    }
    return s->node.location;
}

/* INTO on a leaf other than the leftmost (transformSetOperationTree). */
static void check_no_into(Binder *b, const SelectStmt *s)
{
    if (s->op != SELECT_SETOP_NONE) {
        check_no_into(b, s->larg);
        check_no_into(b, s->rarg);
    } else if (s->into_clause) {
        plan__error_at(b, ERRCODE_SYNTAX_ERROR, s->into_clause->node.location,
                       "INTO is only allowed on first SELECT of UNION/INTERSECT/EXCEPT");
    }
}

static SelectResult plan_tree(Binder *b, const SelectStmt *s)
{
    bool leaf = s->op == SELECT_SETOP_NONE;
    if (leaf)
        return plan_leaf(b, s);
    if (s->sort_clause || s->limit_count || s->limit_offset || s->with_clause) {
        /* a parenthesized set operation with its own ORDER BY/LIMIT/WITH */
        Binder child;
        plan__child_binder(&child, b, b->allow_outer);
        SelectResult r = plan__plan_select(&child, s);
        plan__child_done(b, &child);
        return r;
    }
    SelectResult L = plan_tree(b, s->larg);
    check_no_into(b, s->rarg);
    SelectResult R = plan_tree(b, s->rarg);
    const char *ctx = op_name(s);
    if (L.ncols != R.ncols)
        plan__error_at(b, ERRCODE_SYNTAX_ERROR, first_target_location(s->rarg),
                       "each %s query must have the same number of columns", ctx);
    SqlType *types = MEM_NEW_ARRAY(b->arena, SqlType, L.ncols + 1);
    for (int i = 0; i < L.ncols; i++) {
        Expr *pair[2];
        pair[0] = plan__make_expr(b->arena, EXPR_COLUMN, L.root->col_types[i], s->larg->node.location, 0);
        pair[1] = plan__make_expr(b->arena, EXPR_COLUMN, R.root->col_types[i], s->rarg->node.location, 0);
        bool both_unknown = pair[0]->type.oid == TYPE_UNKNOWN && pair[1]->type.oid == TYPE_UNKNOWN;
        types[i] = both_unknown ? SQLTYPE(TYPE_UNKNOWN) : plan__common_type(b, pair, 2, ctx);
    }
    PlanNode *l = cast_to(b, L.root, types, ctx);
    PlanNode *r = cast_to(b, R.root, types, ctx);
    PlanNode *n;
    if (s->op == SELECT_SETOP_UNION) {
        PlanNode **kids = NULL;
        int nk = 0;
        flatten_append(l, &kids, &nk, b->arena);
        flatten_append(r, &kids, &nk, b->arena);
        n = plan__new_node(b->arena, PLAN_APPEND, L.ncols);
        n->nchildren = nk;
        n->children = kids;
        for (int i = 0; i < nk; i++)
            n->est_rows += kids[i]->est_rows;
    } else {
        n = plan__new_node(b->arena, PLAN_SETOP, L.ncols);
        n->left = l;
        n->right = r;
        n->setop = s->op == SELECT_SETOP_INTERSECT ? SETOP_INTERSECT : SETOP_EXCEPT;
        n->setop_all = s->all;
        n->est_rows = l->est_rows;
    }
    for (int i = 0; i < L.ncols; i++) {
        n->col_types[i] = types[i];
        n->col_names[i] = L.cols[i].name;
    }
    if (s->op == SELECT_SETOP_UNION && !s->all) {
        PlanNode *d = plan__new_node(b->arena, PLAN_DISTINCT, n->ncols);
        d->left = n;
        memcpy(d->col_types, n->col_types, sizeof(SqlType) * (size_t)n->ncols);
        memcpy(d->col_names, n->col_names, sizeof(char *) * (size_t)n->ncols);
        d->est_rows = n->est_rows;
        n = d;
    }
    SelectResult res = {n, L.ncols, MEM_NEW_ARRAY(b->arena, ResultColumn, L.ncols + 1)};
    for (int i = 0; i < L.ncols; i++) {
        res.cols[i].name = L.cols[i].name;
        res.cols[i].type = types[i];
    }
    return res;
}

SelectResult plan__plan_setop(Binder *b, const SelectStmt *s)
{
    SelectStmt body = *s;
    body.sort_clause = NULL;
    body.limit_count = NULL;
    body.limit_offset = NULL;
    body.with_clause = NULL;
    SelectResult r = plan_tree(b, &body);
    if (!b->keep_unknown) {   /* the top: untyped columns become text */
        SqlType *types = MEM_NEW_ARRAY(b->arena, SqlType, r.ncols + 1);
        for (int i = 0; i < r.ncols; i++)
            types[i] = r.root->col_types[i].oid == TYPE_UNKNOWN ? SQLTYPE(TYPE_TEXT) : r.root->col_types[i];
        r.root = cast_to(b, r.root, types, "UNION");
        for (int i = 0; i < r.ncols; i++)
            r.cols[i].type = types[i];
    }
    const char **names = MEM_NEW_ARRAY(b->arena, const char *, r.ncols + 1);
    for (int i = 0; i < r.ncols; i++)
        names[i] = r.cols[i].name;
    int nsort = list_len(s->sort_clause);
    SortKey *keys = plan__sort_by_output(b, s->sort_clause, r.ncols, names, true);
    Expr *limit = plan__bind_limit(b, s->limit_count, "LIMIT");
    Expr *offset = plan__bind_limit(b, s->limit_offset, "OFFSET");
    r.root = plan__plan_tail(b, r.root, keys, nsort, limit, offset, false);
    return r;
}
