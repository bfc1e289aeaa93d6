/*
 * bind_join.c — the FROM clause as a tree (PostgreSQL's transformFromClause):
 * tables, WITH queries, subqueries and VALUES in FROM, table functions
 * (generate_series, unnest), and joins of every type with ON, USING and
 * NATURAL, including PostgreSQL's merged-column semantics.
 *
 * Each FROM item becomes a FromNode (planner_int.h). A join's ON condition
 * is bound with only its two sides in scope. USING (a, b) / NATURAL merge
 * the named columns: the merged column has the common type of both sides
 * and is the left value (INNER, LEFT), the right value (RIGHT) or
 * COALESCE(left, right) (FULL); an unqualified name finds the merged column
 * while t.a still reaches each side's own column.
 *
 * Subqueries in FROM are planned by a child binder (plan__child_binder),
 * which shares the statement's arena, parameters and WITH queries; their
 * result becomes a "derived" range entry whose rows come from the subtree.
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"

#include <string.h>
#include "storage/storage.h"

void plan__child_binder(Binder *child, Binder *parent, bool allow_outer)
{
    memset(child, 0, sizeof *child);
    child->ctx = parent->ctx;
    child->arena = parent->arena;
    child->query_text = parent->query_text;
    child->param_types = parent->param_types;
    child->nparams = parent->nparams;
    child->param_cap = parent->param_cap;
    child->param_fixed = parent->param_fixed;
    child->param_nodes = parent->param_nodes;
    child->params_fixed = parent->params_fixed;
    child->explaining = parent->explaining;
    child->no_fold = parent->no_fold;
    child->ctes = parent->ctes;
    if (!parent->counters)
        parent->counters = MEM_NEW_ARRAY(parent->arena, int, 4);
    child->counters = parent->counters;
    child->parent = parent;
    child->allow_outer = allow_outer;
    child->nvars = parent->nvars;   /* variable ids stay disjoint from the parent's */
}

void plan__child_done(Binder *parent, const Binder *child)
{
    parent->param_types = child->param_types;
    parent->nparams = child->nparams;
    parent->param_cap = child->param_cap;
    parent->param_fixed = child->param_fixed;
    parent->param_nodes = child->param_nodes;
}

static FromNode *leaf_node(Binder *b, int r)
{
    const RangeEntry *re = b->rtes[r];
    FromNode *f = MEM_NEW(b->arena, FromNode);
    f->rte = r;
    f->rtes = UINT64_C(1) << r;
    f->ncols = re->ncols;
    f->cols = MEM_NEW_ARRAY(b->arena, FromCol, re->ncols + 1);
    for (int i = 0; i < re->ncols; i++)
        f->cols[i] = (FromCol){re->colnames[i], r, i, NULL};
    return f;
}

RangeEntry *plan__add_derived_rte(Binder *b, const char *refname, bool has_alias, PlanNode *node,
                                  const char **colnames, List *colaliases, int location)
{
    for (int i = 0; i < b->nrtes; i++)
        if (has_alias && strcmp(b->rtes[i]->refname, refname) == 0)
            err_raise(ERRCODE_DUPLICATE_ALIAS, "table name \"%s\" specified more than once", refname);
    if (b->nrtes >= 64)
        plan__error_at(b, ERRCODE_PROGRAM_LIMIT_EXCEEDED, location, "too many FROM-clause entries (at most 64)");
    if (list_len(colaliases) > node->ncols)
        plan__error_at(b, ERRCODE_INVALID_COLUMN_REFERENCE, location,
                       "table \"%s\" has %d columns available but %d columns specified", refname,
                       node->ncols, list_len(colaliases));
    RangeEntry *r = MEM_NEW(b->arena, RangeEntry);
    r->refname = refname;
    r->relname = refname;
    r->schema = "";
    r->has_alias = has_alias;
    r->derived = node;
    r->location = location;
    r->ncols = node->ncols;
    r->colnames = MEM_NEW_ARRAY(b->arena, const char *, r->ncols + 1);
    r->coltypes = MEM_NEW_ARRAY(b->arena, SqlType, r->ncols + 1);
    r->used = MEM_NEW_ARRAY(b->arena, bool, r->ncols + 1);
    for (int i = 0; i < r->ncols; i++) {
        r->colnames[i] = i < list_len(colaliases) ? list_nth(colaliases, i) : colnames[i];
        r->coltypes[i] = node->col_types[i];
    }
    r->var_base = b->nvars;
    b->nvars += r->ncols;
    if (!b->rtes)
        b->rtes = MEM_NEW_ARRAY(b->arena, RangeEntry *, 64);
    if (!b->visible)
        b->visible = MEM_NEW_ARRAY(b->arena, bool, 64);
    b->rtes[b->nrtes] = r;
    b->visible[b->nrtes] = true;
    b->nrtes++;
    return r;
}

/* Plan a SELECT as a FROM item (or WITH query) with a child binder. */
/* Plan a subquery in FROM; LATERAL ones may read earlier FROM items, whose
 * values come back in *largs (correlation slots, see plan__set_lateral). */
static Expr *up_expr(Binder *b, const Expr *e, Expr **outer);

static void up_list(Binder *b, Expr **es, int n, Expr **outer)
{
    for (int i = 0; es && i < n; i++)
        es[i] = up_expr(b, es[i], outer);
}

static void up_agg(Binder *b, AggCall *c, Expr **outer)
{
    c->arg = up_expr(b, c->arg, outer);
    c->filter = up_expr(b, c->filter, outer);
    c->direct_arg = up_expr(b, c->direct_arg, outer);
    up_list(b, c->args, c->nargs, outer);
    up_list(b, c->order_exprs, c->norder, outer);
}

/*
 * A non-LATERAL FROM subquery that reads enclosing queries' columns (its
 * correlation slots are all the parent's own EXPR_OUTER_REFs): rewrite its
 * own-level EXPR_OUTER_REF i into outer[i], so the subtree reads the
 * parent's slots directly and needs no lateral re-run. Nested subplans and
 * lateral right sides have slots of their own: only their arguments are
 * rewritten.
 */
static void up_node(Binder *b, PlanNode *n, Expr **outer)
{
    if (!n)
        return;
    n->scan_filter = up_expr(b, n->scan_filter, outer);
    for (int r = 0; n->kind == PLAN_VALUES && r < n->nrows; r++)
        up_list(b, n->rows[r], n->ncols, outer);
    n->predicate = up_expr(b, n->predicate, outer);
    if (n->kind == PLAN_PROJECT || n->kind == PLAN_PROJECT_SET)
        up_list(b, n->exprs, n->ncols, outer);
    up_list(b, n->group_exprs, n->ngroups, outer);
    for (int i = 0; n->aggs && i < n->naggs; i++)
        up_agg(b, &n->aggs[i], outer);
    up_list(b, n->left_keys, n->nkeys, outer);
    up_list(b, n->right_keys, n->nkeys, outer);
    n->join_filter = up_expr(b, n->join_filter, outer);
    n->limit = up_expr(b, n->limit, outer);
    n->offset = up_expr(b, n->offset, outer);
    up_list(b, n->lateral_args, n->nlateral, outer);
    for (int i = 0; n->wincalls && i < n->nwincalls; i++) {
        up_list(b, n->wincalls[i].args, n->wincalls[i].nargs, outer);
        up_agg(b, &n->wincalls[i].agg, outer);
    }
    n->frame.start_offset = up_expr(b, n->frame.start_offset, outer);
    n->frame.end_offset = up_expr(b, n->frame.end_offset, outer);
    up_list(b, n->func_args, n->nfunc_args, outer);
    up_node(b, n->left, outer);
    if (!(n->kind == PLAN_NESTED_LOOP && n->nlateral > 0))
        up_node(b, n->right, outer);
    for (int i = 0; n->children && i < n->nchildren; i++)
        up_node(b, n->children[i], outer);
}

static Expr *up_expr(Binder *b, const Expr *e, Expr **outer)
{
    if (!e)
        return NULL;
    if (e->kind == EXPR_OUTER_REF)
        return plan__copy_expr(b->arena, outer[e->index]);
    Expr *c = MEM_NEW(b->arena, Expr);
    *c = *e;
    if (e->nargs > 0) {   /* an EXPR_SUBPLAN's args are ours; its subplan is not */
        c->args = MEM_NEW_ARRAY(b->arena, Expr *, e->nargs);
        for (int i = 0; i < e->nargs; i++)
            c->args[i] = up_expr(b, e->args[i], outer);
    }
    return c;
}

static SelectResult plan_subselect(Binder *b, const SelectStmt *s, bool lateral, Expr ***largs, int *nl)
{
    Binder child;
    /* not LATERAL: it may still read enclosing queries (outer_skip_parent) */
    plan__child_binder(&child, b, true);
    child.outer_skip_parent = !lateral;
    SelectResult r = plan__plan_select(&child, s);
    plan__child_done(b, &child);
    *largs = child.outer_args;
    *nl = child.nouter;
    if (!lateral && child.nouter > 0) {
        up_node(b, r.root, child.outer_args);
        *largs = NULL;
        *nl = 0;
    }
    return r;
}

void plan__set_lateral(Binder *b, RangeEntry *r, Expr **args, int n)
{
    (void)b;
    r->nlateral = n;
    r->lateral_args = args;
}

static const char **result_names(Binder *b, const SelectResult *r)
{
    const char **names = MEM_NEW_ARRAY(b->arena, const char *, r->ncols + 1);
    for (int i = 0; i < r->ncols; i++)
        names[i] = r->cols[i].name;
    return names;
}

static FromNode *bind_subselect(Binder *b, const RangeSubselect *rs)
{
    if (!rs->alias)
        plan__error_at(b, ERRCODE_SYNTAX_ERROR, rs->node.location, "subquery in FROM must have an alias");
    Expr **largs;
    int nl;
    SelectResult r = plan_subselect(b, (const SelectStmt *)rs->subquery, rs->lateral, &largs, &nl);
    RangeEntry *re = plan__add_derived_rte(b, rs->alias, true, r.root, result_names(b, &r), rs->colaliases,
                                           rs->node.location);
    plan__set_lateral(b, re, largs, nl);
    return leaf_node(b, b->nrtes - 1);
}

/* ---- WITH queries ---- */

static CteDef *find_cte(Binder *b, const char *name)
{
    for (Binder *x = b; x; x = x->parent)
        for (int i = 0; i < list_len(x->ctes); i++) {
            CteDef *c = list_nth(x->ctes, i);
            if (strcmp(c->name, name) == 0)
                return c;
        }
    return NULL;
}

static FromNode *bind_cte_ref(Binder *b, CteDef *c, const RangeVar *rv)
{
    const char **names = NULL;
    PlanNode *n = plan__plan_cte(b, c, &names);
    const char *refname = rv->alias ? rv->alias : rv->relname;
    plan__add_derived_rte(b, refname, true, n, names, rv->colaliases, rv->node.location);
    return leaf_node(b, b->nrtes - 1);
}

/* ---- table functions ---- */

static FromNode *bind_function(Binder *b, const RangeFunction *rf)
{
    const char **names = NULL;
    Expr **largs = NULL;
    int nl = 0;
    PlanNode *n = plan__plan_table_function(b, rf, &names, &largs, &nl);
    const FuncCall *fc = list_nth(rf->functions, 0);
    const char *fname = IS_A(fc, FuncCall) ? list_nth(fc->funcname, list_len(fc->funcname) - 1) : "?";
    const char *refname = rf->alias ? rf->alias : fname;
    RangeEntry *re = plan__add_derived_rte(b, refname, rf->alias != NULL, n, names, rf->colaliases,
                                           rf->node.location);
    plan__set_lateral(b, re, largs, nl);
    return leaf_node(b, b->nrtes - 1);
}

/* ---- joins ---- */

static Expr *col_expr(Binder *b, const FromCol *c, int location)
{
    if (c->merged)
        return plan__copy_expr(b->arena, c->merged);
    RangeEntry *r = b->rtes[c->rte];
    r->used[c->col] = true;
    Expr *e = plan__make_expr(b->arena, EXPR_COLUMN, r->coltypes[c->col], location, 0);
    e->index = r->var_base + c->col;
    e->name = r->colnames[c->col];
    return e;
}

/* The column of f named name for USING: exactly one, or an error. */
static int using_col(Binder *b, const FromNode *f, const char *name, const char *side)
{
    int found = -1;
    for (int i = 0; i < f->ncols; i++) {
        if (strcmp(f->cols[i].name, name) != 0)
            continue;
        if (found >= 0)
            plan__error_at(b, ERRCODE_AMBIGUOUS_COLUMN, -1,
                           "common column name \"%s\" appears more than once in %s table", name, side);
        found = i;
    }
    if (found < 0)
        plan__error_at(b, ERRCODE_UNDEFINED_COLUMN, -1,
                       "column \"%s\" specified in USING clause does not exist in %s table", name, side);
    return found;
}

static List *natural_names(Binder *b, const FromNode *l, const FromNode *r)
{
    List *names = NULL;
    for (int i = 0; i < l->ncols; i++)
        for (int k = 0; k < r->ncols; k++)
            if (strcmp(l->cols[i].name, r->cols[k].name) == 0) {
                names = list_append(b->arena, names, (void *)l->cols[i].name);
                break;
            }
    return names;
}

/* COALESCE(l, r) as CASE WHEN l IS NOT NULL THEN l ELSE r END. */
static Expr *coalesce2(Binder *b, Expr *l, Expr *r)
{
    Expr *c = plan__make_expr(b->arena, EXPR_CASE, l->type, l->location, 3);
    Expr *t = plan__make_expr(b->arena, EXPR_IS_NOT_NULL, SQLTYPE(TYPE_BOOL), l->location, 1);
    t->args[0] = l;
    c->args[0] = t;
    c->args[1] = plan__copy_expr(b->arena, l);
    c->args[2] = r;
    c->has_else = true;
    c->name = l->name;
    return c;
}

static void bind_using(Binder *b, FromNode *j, List *names, int loc)
{
    int n = list_len(names);
    FromNode *l = j->l, *r = j->r;
    bool *lused = MEM_NEW_ARRAY(b->arena, bool, l->ncols + 1);
    bool *rused = MEM_NEW_ARRAY(b->arena, bool, r->ncols + 1);
    j->cols = MEM_NEW_ARRAY(b->arena, FromCol, l->ncols + r->ncols + 1);
    j->ncols = 0;
    for (int i = 0; i < n; i++) {
        const char *name = list_nth(names, i);
        for (int k = 0; k < i; k++)
            if (strcmp(list_nth(names, k), name) == 0)
                plan__error_at(b, ERRCODE_DUPLICATE_COLUMN, -1,
                               "column name \"%s\" appears more than once in USING clause", name);
        int li = using_col(b, l, name, "left");
        int ri = using_col(b, r, name, "right");
        lused[li] = rused[ri] = true;
        Expr *le = col_expr(b, &l->cols[li], loc), *re = col_expr(b, &r->cols[ri], loc);
        Expr *pair[2] = {le, re};
        SqlType t = plan__common_type(b, pair, 2, "JOIN/USING");
        plan__coerce_all(b, pair, 2, t, "JOIN/USING");
        j->quals = list_append(b->arena, j->quals, plan__make_op(b, "=", pair[0], pair[1], loc));
        Expr *m = j->jointype == PJOIN_RIGHT  ? plan__copy_expr(b->arena, pair[1])
                  : j->jointype == PJOIN_FULL ? coalesce2(b, plan__copy_expr(b->arena, pair[0]),
                                                          plan__copy_expr(b->arena, pair[1]))
                                              : plan__copy_expr(b->arena, pair[0]);
        m->name = name;
        j->cols[j->ncols++] = (FromCol){name, -1, -1, m};
    }
    for (int i = 0; i < l->ncols; i++)
        if (!lused[i])
            j->cols[j->ncols++] = l->cols[i];
    for (int i = 0; i < r->ncols; i++)
        if (!rused[i])
            j->cols[j->ncols++] = r->cols[i];
}

static void set_scope(Binder *b, FromNode **nodes, int n, uint64_t rtes)
{
    b->scope = nodes;
    b->nscope = n;
    for (int i = 0; i < b->nrtes; i++)
        b->visible[i] = (rtes >> i) & 1;
}

static FromNode *bind_join(Binder *b, const JoinExpr *je)
{
    FromNode *j = MEM_NEW(b->arena, FromNode);
    j->is_join = true;
    j->l = plan__bind_from_item(b, je->larg);
    j->r = plan__bind_from_item(b, je->rarg);
    j->rtes = j->l->rtes | j->r->rtes;
    static const PlanJoinType types[] = {PJOIN_INNER, PJOIN_LEFT, PJOIN_FULL, PJOIN_RIGHT, PJOIN_INNER};
    j->jointype = types[je->jointype];
    List *using = je->is_natural ? natural_names(b, j->l, j->r) : je->using_clause;
    if (using) {
        bind_using(b, j, using, je->node.location);
    } else {
        j->ncols = j->l->ncols + j->r->ncols;
        j->cols = MEM_NEW_ARRAY(b->arena, FromCol, j->ncols + 1);
        memcpy(j->cols, j->l->cols, sizeof(FromCol) * (size_t)j->l->ncols);
        memcpy(j->cols + j->l->ncols, j->r->cols, sizeof(FromCol) * (size_t)j->r->ncols);
    }
    if (je->quals) {
        FromNode **saved_scope = b->scope;
        int saved_n = b->nscope;
        bool saved_vis[64];
        for (int i = 0; i < b->nrtes; i++)
            saved_vis[i] = b->visible[i];
        FromNode **sides = MEM_NEW_ARRAY(b->arena, FromNode *, 2);
        sides[0] = j->l;
        sides[1] = j->r;
        set_scope(b, sides, 2, j->rtes);
        b->agg_forbidden = "JOIN conditions";
        Expr *e = plan__coerce_bool(b, plan__bind_expr(b, je->quals), "JOIN/ON");
        b->agg_forbidden = NULL;
        b->scope = saved_scope;
        b->nscope = saved_n;
        for (int i = 0; i < b->nrtes; i++)
            b->visible[i] = saved_vis[i];
        j->quals = list_append(b->arena, j->quals, e);
    }
    return j;
}

FromNode *plan__bind_from_item(Binder *b, const Node *item)
{
    if (IS_A(item, RangeVar)) {
        const RangeVar *rv = (const RangeVar *)item;
        CteDef *c = rv->schemaname ? NULL : find_cte(b, rv->relname);
        if (c)
            return bind_cte_ref(b, c, rv);
        const char **names = NULL;
        PlanNode *view = plan__expand_view(b, rv, &names);
        if (view) {
            plan__add_derived_rte(b, rv->alias ? rv->alias : rv->relname, true, view, names,
                                  rv->colaliases, rv->node.location);
            return leaf_node(b, b->nrtes - 1);
        }
        plan__add_rte(b, rv);
        return leaf_node(b, b->nrtes - 1);
    }
    if (IS_A(item, JoinExpr))
        return bind_join(b, (const JoinExpr *)item);
    if (IS_A(item, RangeSubselect))
        return bind_subselect(b, (const RangeSubselect *)item);
    if (IS_A(item, RangeFunction))
        return bind_function(b, (const RangeFunction *)item);
    plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, item->location,
                   "this kind of FROM item is not supported yet");
}
