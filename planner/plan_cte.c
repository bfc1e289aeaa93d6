/*
 * plan_cte.c — WITH queries and table functions as FROM items.
 *
 * WITH: as PostgreSQL 12+, a WITH query referenced once is inlined (planned
 * where it is referenced); one marked MATERIALIZED, referenced more than
 * once, or recursive is planned once and read through PLAN_CTE_SCAN nodes
 * sharing its cte_id (the executor runs it once per query). NOT
 * MATERIALIZED always inlines.
 *
 * WITH RECURSIVE x AS (base UNION [ALL] recursive): when the query refers to
 * itself it becomes PLAN_RECURSIVE_UNION(base, recursive), the recursive
 * term reading the previous iteration through PLAN_WORKTABLE_SCAN; the
 * column types are the base term's, and the recursive term must produce the
 * same types (42804 as PostgreSQL). The executor guards the recursion
 * (PLAN_MAX_RECURSION).
 *
 * Table functions: generate_series(int4|int8|numeric, ..[, step]),
 * generate_series(timestamp[tz], timestamp[tz], interval) (dates resolve to
 * timestamptz, as PostgreSQL's preferred-type rule does), unnest(array, ...),
 * WITH ORDINALITY — one PLAN_FUNCTION_SCAN.
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"

#include <string.h>

static int count_refs(const Node *n, const char *name);

void plan__bind_with(Binder *b, const WithClause *w, const SelectStmt *owner)
{
    if (!w)
        return;
    List *defs = NULL;
    for (int i = 0; i < list_len(w->ctes); i++) {
        const CommonTableExpr *cte = list_nth(w->ctes, i);
        for (int k = 0; k < i; k++)
            if (strcmp(((const CommonTableExpr *)list_nth(w->ctes, k))->ctename, cte->ctename) == 0)
                plan__error_at(b, ERRCODE_DUPLICATE_ALIAS, cte->node.location,
                               "WITH query name \"%s\" specified more than once", cte->ctename);
        if (!IS_A(cte->ctequery, SelectStmt))
            plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, cte->node.location,
                           "data-modifying statements in WITH are not supported yet");
        CteDef *c = MEM_NEW(b->arena, CteDef);
        c->name = cte->ctename;
        c->cte = cte;
        c->recursive = w->recursive;
        c->worktable_id = -1;
        c->cte_id = -1;
        int refs = count_refs((const Node *)owner, cte->ctename);
        for (int k = 0; k < list_len(w->ctes); k++)
            refs += count_refs(((const CommonTableExpr *)list_nth(w->ctes, k))->ctequery, cte->ctename);
        c->materialize = cte->ctematerialized == CTEMaterializeAlways ||
                         (cte->ctematerialized == CTEMaterializeDefault && refs > 1);
        defs = list_append(b->arena, defs, c);
    }
    b->ctes = list_concat(b->arena, defs, b->ctes);
}

/* Does the statement (or anything in it) read a FROM item named name? */
static bool refers_to(const Node *n, const char *name);

static bool refers_list(const List *l, const char *name)
{
    for (int i = 0; i < list_len(l); i++)
        if (refers_to(list_nth(l, i), name))
            return true;
    return false;
}

static bool refers_to(const Node *n, const char *name)
{
    if (!n)
        return false;
    switch (NODE_TAG(n)) {
    case T_RangeVar: {
        const RangeVar *rv = (const RangeVar *)n;
        return !rv->schemaname && strcmp(rv->relname, name) == 0;
    }
    case T_JoinExpr:
        return refers_to(((const JoinExpr *)n)->larg, name) || refers_to(((const JoinExpr *)n)->rarg, name);
    case T_RangeSubselect: return refers_to(((const RangeSubselect *)n)->subquery, name);
    case T_SelectStmt: {
        const SelectStmt *s = (const SelectStmt *)n;
        if (s->op != SELECT_SETOP_NONE)
            return refers_to((const Node *)s->larg, name) || refers_to((const Node *)s->rarg, name);
        return refers_list(s->from_clause, name);
    }
    default: return false;
    }
}

/* References to name in FROM clauses (joins, subqueries in FROM, set
 * operations, WITH queries) — what decides materialisation. */
static int count_list(const List *l, const char *name)
{
    int n = 0;
    for (int i = 0; i < list_len(l); i++)
        n += count_refs(list_nth(l, i), name);
    return n;
}

static int count_refs(const Node *n, const char *name)
{
    if (!n)
        return 0;
    switch (NODE_TAG(n)) {
    case T_RangeVar: {
        const RangeVar *rv = (const RangeVar *)n;
        return !rv->schemaname && strcmp(rv->relname, name) == 0;
    }
    case T_JoinExpr:
        return count_refs(((const JoinExpr *)n)->larg, name) + count_refs(((const JoinExpr *)n)->rarg, name);
    case T_RangeSubselect: return count_refs(((const RangeSubselect *)n)->subquery, name);
    case T_SelectStmt: {
        const SelectStmt *s = (const SelectStmt *)n;
        if (s->op != SELECT_SETOP_NONE)
            return count_refs((const Node *)s->larg, name) + count_refs((const Node *)s->rarg, name);
        return count_list(s->from_clause, name);
    }
    default: return 0;
    }
}

static const char **cte_names(Binder *b, const CteDef *c, const SelectResult *r)
{
    int nal = list_len(c->cte->aliascolnames);
    if (nal > r->ncols)
        plan__error_at(b, ERRCODE_INVALID_COLUMN_REFERENCE, c->cte->node.location,
                       "WITH query \"%s\" has %d columns available but %d columns specified", c->name,
                       r->ncols, nal);
    const char **names = MEM_NEW_ARRAY(b->arena, const char *, r->ncols + 1);
    for (int i = 0; i < r->ncols; i++)
        names[i] = i < nal ? list_nth(c->cte->aliascolnames, i) : r->cols[i].name;
    return names;
}

static SelectResult plan_in_child(Binder *b, const SelectStmt *s)
{
    Binder child;
    plan__child_binder(&child, b, false);
    SelectResult r = plan__plan_select(&child, s);
    plan__child_done(b, &child);
    return r;
}

static PlanNode *plan_recursive(Binder *b, CteDef *c, const SelectStmt *s, const char ***names)
{
    if (s->op != SELECT_SETOP_UNION)
        plan__error_at(b, ERRCODE_INVALID_RECURSION, c->cte->node.location,
                       "recursive query \"%s\" does not have the form non-recursive-term UNION [ALL] recursive-term",
                       c->name);
    if (s->sort_clause || s->limit_count || s->limit_offset)
        plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, c->cte->node.location,
                       "ORDER BY/LIMIT/OFFSET in a recursive query is not implemented");
    if (refers_to((const Node *)s->larg, c->name))
        plan__error_at(b, ERRCODE_INVALID_RECURSION, c->cte->node.location,
                       "recursive reference to query \"%s\" must not appear within its non-recursive term",
                       c->name);
    SelectResult base = plan_in_child(b, s->larg);
    *names = cte_names(b, c, &base);
    c->ncols = base.ncols;
    c->types = base.root->col_types;
    c->colnames = *names;
    c->worktable_id = b->counters[0]++;
    SelectResult rec = plan_in_child(b, s->rarg);
    int wt = c->worktable_id;
    c->worktable_id = -1;
    if (rec.ncols != base.ncols)
        plan__error_at(b, ERRCODE_SYNTAX_ERROR, c->cte->node.location,
                       "each UNION query must have the same number of columns");
    for (int i = 0; i < base.ncols; i++)
        if (rec.root->col_types[i].oid != base.root->col_types[i].oid)
            plan__error_hint(b, ERRCODE_DATATYPE_MISMATCH, c->cte->node.location,
                             "Cast the output of the non-recursive term to the correct type.",
                             "recursive query \"%s\" column %d has type %s in non-recursive term but type %s overall",
                             c->name, i + 1, plan__type_name(b, base.root->col_types[i]),
                             plan__type_name(b, rec.root->col_types[i]));
    PlanNode *n = plan__new_node(b->arena, PLAN_RECURSIVE_UNION, base.ncols);
    n->left = base.root;
    n->right = rec.root;
    n->setop_all = s->all;
    n->worktable_id = wt;
    for (int i = 0; i < base.ncols; i++) {
        n->col_types[i] = base.root->col_types[i];
        n->col_names[i] = (*names)[i];
    }
    return n;
}

static PlanNode *cte_scan(Binder *b, CteDef *c, const char ***names);
static PlanNode *plan_cte_inline(Binder *b, CteDef *c, const char ***names);

PlanNode *plan__plan_cte(Binder *b, CteDef *c, const char ***names)
{
    if (!b->counters)
        b->counters = MEM_NEW_ARRAY(b->arena, int, 4);
    if (c->worktable_id >= 0) {   /* inside its own recursive term */
        PlanNode *w = plan__new_node(b->arena, PLAN_WORKTABLE_SCAN, c->ncols);
        w->worktable_id = c->worktable_id;
        w->alias = c->name;
        for (int i = 0; i < c->ncols; i++) {
            w->col_types[i] = c->types[i];
            w->col_names[i] = c->colnames[i];
        }
        *names = c->colnames;
        return w;
    }
    if (c->materialize || (c->recursive && refers_to(c->cte->ctequery, c->name)))
        return cte_scan(b, c, names);
    return plan_cte_inline(b, c, names);
}

/* A PLAN_CTE_SCAN of c's materialised rows (planned at the first reference). */
static PlanNode *cte_scan(Binder *b, CteDef *c, const char ***names)
{
    if (!c->plan) {
        c->plan = plan_cte_inline(b, c, &c->names);
        c->cte_id = b->counters[2]++;
    }
    PlanNode *n = plan__new_node(b->arena, PLAN_CTE_SCAN, c->plan->ncols);
    n->cte_id = c->cte_id;
    n->cte_plan = c->plan;
    n->alias = c->name;
    for (int i = 0; i < n->ncols; i++) {
        n->col_types[i] = c->plan->col_types[i];
        n->col_names[i] = c->names[i];
    }
    n->est_rows = c->plan->est_rows;
    *names = c->names;
    return n;
}

static PlanNode *plan_cte_inline(Binder *b, CteDef *c, const char ***names)
{
    const SelectStmt *s = (const SelectStmt *)c->cte->ctequery;
    if (c->recursive && refers_to((const Node *)s, c->name))
        return plan_recursive(b, c, s, names);
    /* a non-recursive WITH query sees only the WITH queries before it */
    List *saved = b->ctes;
    List *visible = NULL;
    for (int i = 0; i < list_len(saved); i++) {
        CteDef *d = list_nth(saved, i);
        if (d == c)
            break;
        visible = list_append(b->arena, visible, d);
    }
    bool inner = false;
    for (int i = 0; i < list_len(saved) && !inner; i++)
        inner = list_nth(saved, i) == c;
    if (inner && !c->recursive)
        b->ctes = visible;
    SelectResult r = plan_in_child(b, s);
    b->ctes = saved;
    *names = cte_names(b, c, &r);
    return r.root;
}

/* ---- table functions ---- */

/* EXPR_OUTER_REF slot i of a child → the parent's expression for it. */
static Expr *outer_to_parent(Binder *b, const Expr *e, Expr **outer)
{
    if (e->kind == EXPR_OUTER_REF)
        return plan__copy_expr(b->arena, outer[e->index]);
    Expr *c = MEM_NEW(b->arena, Expr);
    *c = *e;
    if (e->nargs > 0) {
        c->args = MEM_NEW_ARRAY(b->arena, Expr *, e->nargs);
        for (int i = 0; i < e->nargs; i++)
            c->args[i] = outer_to_parent(b, e->args[i], outer);
    }
    return c;
}

/* A scalar function in FROM (`FROM upper('x') AS u`): a one-row VALUES of
 * its value (evaluated per lateral re-run when it reads earlier FROM
 * items), named after the function or the alias, as PostgreSQL. */
static PlanNode *scalar_function(Binder *b, const RangeFunction *rf, const char *name, Expr *e,
                                 const char ***names)
{
    int ncols = 1 + (rf->ordinality ? 1 : 0);
    PlanNode *v = plan__new_node(b->arena, PLAN_VALUES, ncols);
    v->nrows = 1;
    v->rows = MEM_NEW_ARRAY(b->arena, Expr **, 1);
    v->rows[0] = MEM_NEW_ARRAY(b->arena, Expr *, ncols);
    v->rows[0][0] = plan__remap(b, plan__fold(b, e), NULL, 0);
    v->col_types[0] = v->rows[0][0]->type;
    const char **nm = MEM_NEW_ARRAY(b->arena, const char *, ncols);
    nm[0] = rf->alias ? rf->alias : name;
    if (rf->ordinality) {
        Value one = {.is_null = false};
        one.u.i64 = 1;
        v->rows[0][1] = plan__make_const(b->arena, SQLTYPE(TYPE_INT8), one, -1);
        v->col_types[1] = SQLTYPE(TYPE_INT8);
        nm[1] = "ordinality";
    }
    for (int i = 0; i < ncols; i++)
        v->col_names[i] = nm[i];
    v->est_rows = 1;
    *names = nm;
    return v;
}

PlanNode *plan__plan_table_function(Binder *b, const RangeFunction *rf, const char ***names, Expr ***largs,
                                     int *nl)
{
    if (list_len(rf->functions) != 1 || !IS_A(list_nth(rf->functions, 0), FuncCall))
        plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, rf->node.location,
                       "this kind of table function is not supported yet");
    const FuncCall *fc = list_nth(rf->functions, 0);
    if (plan__is_infoschema_call(fc))   /* _pg_expandarray: bind_record.c */
        return plan__plan_infoschema_from(b, rf, names, largs, nl);
    const char *name = list_nth(fc->funcname, list_len(fc->funcname) - 1);
    int n = list_len(fc->args);
    /* functions in FROM are implicitly LATERAL (PostgreSQL): their
     * arguments may read earlier FROM items through correlation slots */
    Binder child;
    plan__child_binder(&child, b, true);
    Expr **args = MEM_NEW_ARRAY(b->arena, Expr *, n + 1);
    child.srf_allowed = true;   /* nested SRFs are refused below, with PostgreSQL's text */
    TableFuncKind kind;
    bool is_srf = plan__srf_lookup(name, &kind);
    if (is_srf && plan__has_named_args(fc)) {   /* f(name => x): positional (bind_namedarg.c) */
        fc = plan__named_args_positional(&child, fc, name);
        n = list_len(fc->args);
    }
    if (!is_srf) {   /* a scalar function in FROM: one row of its value */
        child.agg_forbidden = "functions in FROM";
        child.win_forbidden = "functions in FROM";
        args[0] = plan__resolve_unknown(&child, plan__bind_expr(&child, (const Node *)fc));
        n = 1;
    }
    for (int i = 0; i < n && is_srf; i++)
        args[i] = plan__bind_expr(&child, list_nth(fc->args, i));
    plan__child_done(b, &child);
    *largs = child.outer_args;
    *nl = child.nouter;
    bool only_outer = true;   /* reads only an enclosing query's slots: use them directly */
    for (int i = 0; i < child.nouter; i++)
        only_outer &= child.outer_args[i]->kind == EXPR_OUTER_REF;
    if (child.nouter > 0 && only_outer) {
        for (int i = 0; i < n; i++)
            args[i] = outer_to_parent(b, args[i], child.outer_args);
        *largs = NULL;
        *nl = 0;
    }
    for (int i = 0; i < n; i++)
        if (plan__expr_has_srf(args[i]))
            plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, args[i]->location,
                           "set-returning functions must appear at top level of FROM");
    if (!is_srf)
        return scalar_function(b, rf, name, args[0], names);
    SqlType *types = MEM_NEW_ARRAY(b->arena, SqlType, n + 2);
    const char **fnames = MEM_NEW_ARRAY(b->arena, const char *, n + 2);
    int ncols = plan__srf_resolve(b, name, kind, args, n, fc->node.location, types, fnames);
    PlanNode *p = plan__new_node(b->arena, PLAN_FUNCTION_SCAN, ncols + (rf->ordinality ? 1 : 0));
    p->func_kind = kind;
    p->alias = rf->alias ? mem_printf(b->arena, "%s %s", name, rf->alias) : name;   /* EXPLAIN */
    for (int i = 0; i < ncols; i++)
        p->col_types[i] = types[i];
    for (int i = 0; i < n; i++)
        args[i] = plan__remap(b, plan__fold(b, args[i]), NULL, 0);
    p->nfunc_args = n;
    p->func_args = args;
    p->ordinality = rf->ordinality;
    p->est_rows = 1000;
    const char **nm = MEM_NEW_ARRAY(b->arena, const char *, p->ncols + 1);
    for (int i = 0; i < ncols; i++)
        nm[i] = ncols == 1 && rf->alias && fnames[0] == name ? rf->alias : fnames[i];
    if (rf->ordinality) {
        p->col_types[ncols] = SQLTYPE(TYPE_INT8);
        nm[ncols] = "ordinality";
    }
    for (int i = 0; i < p->ncols; i++)
        p->col_names[i] = nm[i];
    *names = nm;
    return p;
}
