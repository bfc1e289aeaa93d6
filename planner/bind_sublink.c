/*
 * bind_sublink.c — subqueries used as expressions: EXISTS, IN / op ANY,
 * op ALL, scalar subqueries, ARRAY(subquery) (PostgreSQL's transformSubLink).
 *
 * Every sublink becomes an EXPR_SUBPLAN (planner/plan.h): the subquery is
 * planned once by a child binder; references to the enclosing query's
 * columns become EXPR_OUTER_REF slots whose values the EXPR_SUBPLAN's args
 * carry (correlation). For ANY/ALL the comparison "lhs op column" is put
 * inside the subplan as its one bool output column, lhs being one more slot.
 *
 * A sublink in WHERE whose subquery is a plain SELECT ... FROM ... WHERE
 * (no aggregates, GROUP BY, LIMIT, set operations, window clause) also
 * gets a SemiJoin record: the subquery's FROM planned with its
 * uncorrelated conditions, and its correlated conditions rewritten over
 * the outer query's variables. When the sublink is a top-level WHERE
 * conjunct, plan_join.c turns it into a semi join (EXISTS, IN), an anti
 * join (NOT EXISTS) or a null-aware anti join (NOT IN) instead of the
 * subplan: the decorrelation.
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"
#include "planner/select_int.h"

#include <string.h>

static int next_subplan_id(Binder *b)
{
    if (!b->counters)
        b->counters = MEM_NEW_ARRAY(b->arena, int, 4);
    return b->counters[1]++;
}

/* Add a correlation slot to child holding parent expression e; returns an
 * EXPR_OUTER_REF to it. */
static Expr *add_slot(Binder *child, Expr *e)
{
    child->outer_args = mem_realloc(child->arena, child->outer_args, sizeof(Expr *) * (size_t)child->nouter,
                                    sizeof(Expr *) * (size_t)(child->nouter + 1));
    int slot = child->nouter++;
    child->outer_args[slot] = e;
    Expr *r = plan__make_expr(child->arena, EXPR_OUTER_REF, e->type, e->location, 0);
    r->index = slot;
    r->name = e->name;
    return r;
}

static PlanNode *project_one(Binder *b, PlanNode *child, Expr *e)
{
    PlanNode *p = plan__new_node(b->arena, PLAN_PROJECT, 1);
    p->left = child;
    p->exprs = MEM_NEW_ARRAY(b->arena, Expr *, 1);
    p->exprs[0] = e;
    p->col_types[0] = e->type;
    p->col_names[0] = "?column?";
    return p;
}

static Expr *col0(Binder *b, const PlanNode *n)
{
    Expr *c = plan__make_expr(b->arena, EXPR_COLUMN, n->col_types[0], -1, 0);
    c->index = 0;
    c->name = n->col_names[0];
    return c;
}

/* ---- decorrelation record ---- */

static bool has_outer_ref(const Expr *e)
{
    if (!e)
        return false;
    if (e->kind == EXPR_OUTER_REF)
        return true;
    for (int i = 0; i < e->nargs; i++)
        if (has_outer_ref(e->args[i]))
            return true;
    return false;
}

/* Replace the child's EXPR_OUTER_REFs by the parent expressions they stand for. */
static Expr *pull_up(Binder *child, const Expr *e)
{
    if (e->kind == EXPR_OUTER_REF)
        return plan__copy_expr(child->arena, child->outer_args[e->index]);
    Expr *c = MEM_NEW(child->arena, Expr);
    *c = *e;
    if (e->nargs > 0) {
        c->args = MEM_NEW_ARRAY(child->arena, Expr *, e->nargs);
        for (int i = 0; i < e->nargs; i++)
            c->args[i] = pull_up(child, e->args[i]);
    }
    return c;
}

static bool simple_subquery(const SelectStmt *s)
{
    return s->op == SELECT_SETOP_NONE && !s->group_clause && !s->having_clause && !s->limit_count &&
           !s->limit_offset && !s->window_clause && !s->values_lists && s->from_clause &&
           !s->with_clause && !s->distinct_clause;
}

static void split_and(Binder *b, Expr *e, List **out)
{
    if (e->kind == EXPR_AND) {
        for (int i = 0; i < e->nargs; i++)
            split_and(b, e->args[i], out);
        return;
    }
    *out = list_append(b->arena, *out, e);
}

/*
 * Bind s's FROM and WHERE (and, for IN, its one target compared with lhs)
 * again for a semi join. Returns NULL when the subquery is not simple
 * enough; errors of binding were already raised by the subplan path.
 */
static SemiJoin *make_semi(Binder *b, const SubLink *sl, const SelectStmt *s, Expr *lhs, int id)
{
    if (!simple_subquery(s))
        return NULL;
    bool is_in = sl->sub_link_type == ANY_SUBLINK;
    if (is_in && (list_len(s->target_list) != 1 || strcmp(sl->oper_name, "=") != 0 || !lhs))
        return NULL;
    Binder child;
    plan__child_binder(&child, b, true);
    int nfrom = list_len(s->from_clause);
    child.from_items = MEM_NEW_ARRAY(b->arena, FromNode *, nfrom + 1);
    for (int i = 0; i < nfrom; i++) {
        child.from_items[i] = plan__bind_from_item(&child, list_nth(s->from_clause, i));
        child.nfrom = i + 1;
    }
    if (child.nouter > 0)
        return NULL;   /* a FROM item reads the outer query (VALUES (t.a)): keep the subplan */
    child.scope = child.from_items;
    child.nscope = child.nfrom;
    for (int i = 0; i < child.nrtes; i++)
        child.visible[i] = true;
    List *conj = NULL;
    if (s->where_clause) {
        child.agg_forbidden = "WHERE";
        split_and(b, plan__coerce_bool(&child, plan__bind_expr(&child, s->where_clause), "WHERE"), &conj);
        child.agg_forbidden = NULL;
    }
    SemiJoin *sj = MEM_NEW(b->arena, SemiJoin);
    if (is_in) {
        const ResTarget *rt = list_nth(s->target_list, 0);
        if (IS_A(rt->val, ColumnRef) && ((const ColumnRef *)rt->val)->star)
            return NULL;
        child.srf_allowed = true;   /* (bound again by the subplan path, which checks it) */
        Expr *t = plan__resolve_unknown(&child, plan__bind_expr(&child, rt->val));
        child.srf_allowed = false;
        if (child.naggs > 0 || plan__expr_has_srf(t))
            return NULL;   /* aggregates, set-returning functions: keep the subplan */
        Expr *l = add_slot(&child, lhs);
        Expr *eq = plan__make_op(&child, "=", l, t, sl->node.location);
        if (eq->kind != EXPR_FUNC || eq->nargs != 2)
            return NULL;
        sj->in_left = pull_up(&child, eq->args[0]);
        sj->in_right = eq->args[1];
        sj->in_eq = eq;
    }
    List *inner = NULL;
    for (int i = 0; i < list_len(conj); i++) {
        Expr *c = list_nth(conj, i);
        if (has_outer_ref(c))
            sj->conds = list_append(b->arena, sj->conds, pull_up(&child, c));
        else
            inner = list_append(b->arena, inner, c);
    }
    child.qualify = true;
    sj->right = plan__plan_from(&child, inner, &sj->rlayout, &sj->rn);
    plan__child_done(b, &child);
    sj->child_base = b->nvars;
    sj->subplan_id = id;
    sj->is_in = is_in;
    return sj;
}

/* ---- the subplan ---- */

static Expr *col_n(Binder *b, const PlanNode *n, int i)
{
    Expr *c = plan__make_expr(b->arena, EXPR_COLUMN, n->col_types[i], -1, 0);
    c->index = i;
    c->name = n->col_names[i];
    return c;
}

/* (a, b) op ANY|ALL (SELECT x, y ...): pairwise, combined as PostgreSQL's
 * row comparison (= → AND, <> → OR). */
static void bind_row_any_all(Binder *b, Binder *child, const SubLink *sl, SelectResult *r)
{
    const RowExpr *row = (const RowExpr *)sl->testexpr;
    int n = list_len(row->args);
    if (r->ncols != n)
        plan__error_at(b, ERRCODE_SYNTAX_ERROR, sl->node.location,
                       r->ncols > n ? "subquery has too many columns" : "subquery has too few columns");
    bool eq = strcmp(sl->oper_name, "=") == 0;
    if (!eq && strcmp(sl->oper_name, "<>") != 0)
        plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, sl->node.location,
                       "row comparison with operator %s is not supported yet", sl->oper_name);
    Expr *acc = NULL;
    for (int i = 0; i < n; i++) {
        Expr *slot = add_slot(child, plan__bind_expr(b, list_nth(row->args, i)));
        Expr *cmp = plan__make_op(child, sl->oper_name, slot, col_n(child, r->root, i), sl->node.location);
        if (!acc) {
            acc = cmp;
            continue;
        }
        Expr *x = plan__make_expr(b->arena, eq ? EXPR_AND : EXPR_OR, SQLTYPE(TYPE_BOOL), sl->node.location, 2);
        x->args[0] = acc;
        x->args[1] = cmp;
        acc = x;
    }
    r->root = project_one(b, r->root, acc);
}

static Expr *bind_any_all(Binder *b, Binder *child, const SubLink *sl, SelectResult *r)
{
    if (IS_A(sl->testexpr, RowExpr)) {
        bind_row_any_all(b, child, sl, r);
        return NULL;
    }
    if (r->ncols != 1)
        plan__error_at(b, ERRCODE_SYNTAX_ERROR, sl->node.location,
                       r->ncols > 1 ? "subquery has too many columns" : "subquery has too few columns");
    Expr *lhs = plan__bind_expr(b, sl->testexpr);
    Expr *slot = add_slot(child, lhs);
    Expr *cmp = plan__make_op(child, sl->oper_name, slot, col0(child, r->root), sl->node.location);
    if (cmp->type.oid != TYPE_BOOL)
        plan__error_at(b, ERRCODE_DATATYPE_MISMATCH, sl->node.location,
                       "op ANY/ALL (array) requires operator to yield boolean");
    r->root = project_one(b, r->root, cmp);
    return lhs;
}

Expr *plan__bind_sublink(Binder *b, const SubLink *sl)
{
    if (b->agg_forbidden && strcmp(b->agg_forbidden, "JOIN conditions") != 0 &&
        strcmp(b->agg_forbidden, "WHERE") != 0)
        plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, sl->node.location,
                       "cannot use subquery in %s", b->agg_forbidden);
    const SelectStmt *s = (const SelectStmt *)sl->subselect;
    Binder child;
    plan__child_binder(&child, b, true);
    SelectResult r = plan__plan_select(&child, s);
    Expr *lhs = NULL;
    SubLinkKind kind = SUBLINK_EXISTS;
    SqlType type = SQLTYPE(TYPE_BOOL);
    switch (sl->sub_link_type) {
    case EXISTS_SUBLINK: break;
    case ANY_SUBLINK: kind = SUBLINK_ANY; lhs = bind_any_all(b, &child, sl, &r); break;
    case ALL_SUBLINK: kind = SUBLINK_ALL; lhs = bind_any_all(b, &child, sl, &r); break;
    case EXPR_SUBLINK:
    case ARRAY_SUBLINK:
        if (r.ncols != 1)
            plan__error_at(b, ERRCODE_SYNTAX_ERROR, sl->node.location,
                           r.ncols > 1 ? "subquery must return only one column"
                                       : "subquery must return only one column");
        kind = sl->sub_link_type == EXPR_SUBLINK ? SUBLINK_SCALAR : SUBLINK_ARRAY;
        type = r.root->col_types[0];
        if (kind == SUBLINK_ARRAY) {
            uint32_t at = type_array_of(type.oid);
            if (!at)
                plan__error_at(b, ERRCODE_UNDEFINED_OBJECT, sl->node.location,
                               "could not find array type for data type %s", plan__type_name(b, type));
            type = SQLTYPE(at);
        }
        break;
    default:
        plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, sl->node.location,
                       "this kind of subquery is not supported yet");
    }
    plan__child_done(b, &child);
    Expr *e = plan__make_expr(b->arena, EXPR_SUBPLAN, type, sl->node.location, child.nouter);
    for (int i = 0; i < child.nouter; i++)
        e->args[i] = child.outer_args[i];
    e->subplan = r.root;
    e->sublink = kind;
    e->subplan_id = next_subplan_id(b);
    e->name = kind == SUBLINK_EXISTS ? "exists" : kind == SUBLINK_ARRAY ? "array" : "?column?";
    if ((kind == SUBLINK_EXISTS || kind == SUBLINK_ANY) && b->agg_forbidden &&
        strcmp(b->agg_forbidden, "WHERE") == 0) {
        SemiJoin *sj = make_semi(b, sl, s, lhs, e->subplan_id);
        if (sj)
            b->semi_joins = list_append(b->arena, b->semi_joins, sj);
    }
    return e;
}
