/*
 * bind_group.c — GROUP BY with GROUPING SETS, ROLLUP, CUBE and () (PostgreSQL's
 * expand_grouping_sets), and GROUPING(...).
 *
 * Each GROUP BY item expands to a list of sets (bitmasks over the
 * deduplicated group expressions, st->groups): an expression → {{e}};
 * () → {{}}; ROLLUP (a, b) → {{a,b}, {a}, {}}; CUBE (a, b) → every subset;
 * GROUPING SETS (...) → the concatenation of its items' expansions. Several
 * items combine by cross product (union of one set from each), as SQL says.
 * Without any grouping-set construct the query is a plain GROUP BY
 * (st->ngsets = 0).
 *
 * GROUPING(a, b) binds to a marker; over the PLAN_AGG output it becomes a
 * CASE on the node's grouping-set index column with the bit pattern of each
 * set (bit set = argument not grouped in that set), 0 without grouping sets.
 *
 * plan__group_derived (end of file) finds items that are functions of
 * other, plain-column items, so the aggregate can leave them out of its key.
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"
#include "planner/select_int.h"

#include <string.h>

typedef struct SetList {
    uint64_t *sets;
    int n;
} SetList;

static void push(Binder *b, SetList *l, uint64_t m)
{
    l->sets = mem_realloc(b->arena, l->sets, sizeof(uint64_t) * (size_t)l->n, sizeof(uint64_t) * (size_t)(l->n + 1));
    l->sets[l->n++] = m;
}

#define MAX_GROUPING_SETS 4096

static SetList cross(Binder *b, SetList x, SetList y, int loc)
{
    SetList r = {0};
    if ((int64_t)x.n * y.n > MAX_GROUPING_SETS)
        plan__error_at(b, ERRCODE_STATEMENT_TOO_COMPLEX, loc, "too many grouping sets present (maximum 4096)");
    for (int i = 0; i < x.n; i++)
        for (int k = 0; k < y.n; k++)
            push(b, &r, x.sets[i] | y.sets[k]);
    return r;
}

/* The mask of one ROLLUP/CUBE element: an expression or a (a, b) list. */
static uint64_t element_mask(Binder *b, const Node *n, SelectState *st)
{
    if (IS_A(n, GroupingSet)) {
        const GroupingSet *g = (const GroupingSet *)n;
        uint64_t m = 0;
        for (int i = 0; i < list_len(g->content); i++)
            m |= element_mask(b, list_nth(g->content, i), st);
        return m;
    }
    return UINT64_C(1) << plan__group_item(b, n, st);
}

static SetList expand(Binder *b, const Node *n, SelectState *st)
{
    SetList r = {0};
    if (!IS_A(n, GroupingSet)) {
        push(b, &r, UINT64_C(1) << plan__group_item(b, n, st));
        return r;
    }
    const GroupingSet *g = (const GroupingSet *)n;
    int k = list_len(g->content);
    switch (g->kind) {
    case GROUPING_SET_EMPTY: push(b, &r, 0); break;
    case GROUPING_SET_SIMPLE: push(b, &r, element_mask(b, n, st)); break;
    case GROUPING_SET_ROLLUP: {
        uint64_t *m = MEM_NEW_ARRAY(b->arena, uint64_t, k + 1);
        for (int i = 0; i < k; i++)
            m[i] = element_mask(b, list_nth(g->content, i), st);
        for (int len = k; len >= 0; len--) {
            uint64_t s = 0;
            for (int i = 0; i < len; i++)
                s |= m[i];
            push(b, &r, s);
        }
        break;
    }
    case GROUPING_SET_CUBE: {
        if (k > 12)
            plan__error_at(b, ERRCODE_PROGRAM_LIMIT_EXCEEDED, n->location, "CUBE is limited to 12 elements");
        uint64_t *m = MEM_NEW_ARRAY(b->arena, uint64_t, k + 1);
        for (int i = 0; i < k; i++)
            m[i] = element_mask(b, list_nth(g->content, i), st);
        for (int bits = (1 << k) - 1; bits >= 0; bits--) {
            uint64_t s = 0;
            for (int i = 0; i < k; i++)
                if (bits & (1 << (k - 1 - i)))
                    s |= m[i];
            push(b, &r, s);
        }
        break;
    }
    case GROUPING_SET_SETS:
        for (int i = 0; i < k; i++) {
            SetList sub = expand(b, list_nth(g->content, i), st);
            for (int j = 0; j < sub.n; j++)
                push(b, &r, sub.sets[j]);
        }
        break;
    }
    return r;
}

void plan__bind_group(Binder *b, const SelectStmt *s, SelectState *st)
{
    int n = list_len(s->group_clause);
    bool any_sets = false;
    for (int i = 0; i < n; i++)
        any_sets |= IS_A(list_nth(s->group_clause, i), GroupingSet);
    if (!any_sets) {
        for (int i = 0; i < n; i++)
            plan__group_item(b, list_nth(s->group_clause, i), st);
        return;
    }
    SetList acc = {0};
    push(b, &acc, 0);
    for (int i = 0; i < n; i++) {
        const Node *item = list_nth(s->group_clause, i);
        acc = cross(b, acc, expand(b, item, st), item->location);
    }
    if (s->group_distinct) {   /* GROUP BY DISTINCT: drop duplicate sets */
        SetList u = {0};
        for (int i = 0; i < acc.n; i++) {
            bool dup = false;
            for (int k = 0; k < u.n && !dup; k++)
                dup = u.sets[k] == acc.sets[i];
            if (!dup)
                push(b, &u, acc.sets[i]);
        }
        acc = u;
    }
    st->gsets = acc.sets;
    st->ngsets = acc.n;
}

Expr *plan__bind_grouping(Binder *b, const FuncCall *fc)
{
    int loc = fc->node.location;
    if (b->agg_forbidden)
        plan__error_at(b, ERRCODE_GROUPING_ERROR, loc, "grouping operations are not allowed in %s",
                       b->agg_forbidden);
    int n = list_len(fc->args);
    if (n > 31)
        plan__error_at(b, ERRCODE_PROGRAM_LIMIT_EXCEEDED, loc, "GROUPING must have fewer than 32 arguments");
    Expr **args = MEM_NEW_ARRAY(b->arena, Expr *, n + 1);
    for (int i = 0; i < n; i++)
        args[i] = plan__resolve_unknown(b, plan__bind_expr(b, list_nth(fc->args, i)));
    Expr *holder = plan__make_expr(b->arena, EXPR_CASE, SQLTYPE(TYPE_INT4), loc, n);
    for (int i = 0; i < n; i++)
        holder->args[i] = args[i];
    b->groupings = list_append(b->arena, b->groupings, holder);
    Expr *e = plan__make_expr(b->arena, EXPR_AGG_RESULT, SQLTYPE(TYPE_INT4), loc, 0);
    e->index = PLAN_GROUPING_BASE + list_len(b->groupings) - 1;
    e->name = "grouping";
    return e;
}

Expr *plan__grouping_post(Binder *b, const Expr *marker, const SelectState *st)
{
    const Expr *h = list_nth(b->groupings, marker->index - PLAN_GROUPING_BASE);
    int n = h->nargs;
    int *idx = MEM_NEW_ARRAY(b->arena, int, n + 1);
    for (int j = 0; j < n; j++) {
        idx[j] = -1;
        for (int k = 0; k < st->ngroups && idx[j] < 0; k++)
            if (plan__expr_equal(h->args[j], st->groups[k]))
                idx[j] = k;
        if (idx[j] < 0)
            plan__error_at(b, ERRCODE_GROUPING_ERROR, h->args[j]->location,
                           "arguments to GROUPING must be grouping expressions of the associated query level");
    }
    Value v = {.is_null = false};
    if (st->ngsets == 0) {
        v.u.i32 = 0;
        return plan__make_const(b->arena, SQLTYPE(TYPE_INT4), v, marker->location);
    }
    Expr *setcol = plan__make_expr(b->arena, EXPR_COLUMN, SQLTYPE(TYPE_INT4), marker->location, 0);
    setcol->index = st->ngroups + b->naggs;
    setcol->name = "grouping_set";
    Expr *c = plan__make_expr(b->arena, EXPR_CASE, SQLTYPE(TYPE_INT4), marker->location, 2 * st->ngsets + 1);
    for (int i = 0; i < st->ngsets; i++) {
        int32_t bits = 0;
        for (int j = 0; j < n; j++)
            if (!((st->gsets[i] >> idx[j]) & 1))
                bits |= 1 << (n - 1 - j);
        v.u.i32 = i;
        c->args[2 * i] = plan__make_op(b, "=", setcol, plan__make_const(b->arena, SQLTYPE(TYPE_INT4), v, -1), -1);
        v.u.i32 = bits;
        c->args[2 * i + 1] = plan__make_const(b->arena, SQLTYPE(TYPE_INT4), v, -1);
    }
    v.u.i32 = 0;
    c->args[2 * st->ngsets] = plan__make_const(b->arena, SQLTYPE(TYPE_INT4), v, -1);
    c->has_else = true;
    c->name = "grouping";
    return c;
}

/*
 * Functional dependencies in GROUP BY (issue 7). In `GROUP BY ip, ip - 1`
 * the second item is a function of the first: grouping on `ip` alone gives
 * the same groups, and `ip - 1` can be computed once per group above the
 * aggregate instead of being hashed and compared for every input row
 * (ClickBench Q35). An item qualifies when
 *   - it is built only from constants, parameters, plain columns that are
 *     themselves GROUP BY items, non-volatile, non-stable functions and
 *     operators, casts, CASE, AND/OR/NOT, IS [NOT] NULL and IN lists (no
 *     subqueries, aggregates, window results, SRFs, outer references), and
 *     uses at least one column (a constant item keeps its meaning for an
 *     otherwise key-less aggregate);
 *   - every column it uses has a type whose equality is identity (integers,
 *     date, timestamp[tz], bool, text, varchar): numeric 1.0 = 1.00 and
 *     float -0 = 0 group together but differ under ::text;
 *   - the query has no grouping sets (ROLLUP's NULLed keys are per set);
 *   - a breaker above reads every group before any output leaves the
 *     query (ORDER BY, DISTINCT ON or a window): PostgreSQL evaluates the
 *     item for every input row, so an error (22003 for `ip - 1` at the
 *     int4 bound) is raised whatever a LIMIT, a cursor's FETCH or a HAVING
 *     does with the groups; computed per group it must see every group.
 * plan_select.c's agg_derived computes the items right above the aggregate,
 * below HAVING, so the breaker above sees all of them.
 */
static bool fd_identity_type(SqlType t)
{
    switch (t.oid) {
    case TYPE_BOOL: case TYPE_INT2: case TYPE_INT4: case TYPE_INT8: case TYPE_DATE:
    case TYPE_TIMESTAMP: case TYPE_TIMESTAMPTZ: case TYPE_TEXT: case TYPE_VARCHAR:
        return true;
    default:
        return false;
    }
}

/* Is e a function of the plain-column groups (see above)? *cols counts the
 * column references met. */
static bool fd_expr(const Expr *e, const SelectState *st, int *cols)
{
    switch (e->kind) {
    case EXPR_CONST:
    case EXPR_PARAM:
        return true;
    case EXPR_COLUMN:
        for (int k = 0; k < st->ngroups; k++) {
            const Expr *g = st->groups[k];
            if (g->kind == EXPR_COLUMN && g->index == e->index && fd_identity_type(g->type)) {
                (*cols)++;
                return true;
            }
        }
        return false;
    case EXPR_FUNC:
    case EXPR_IN_LIST:
        if (!e->func || (e->func->flags & (FUNC_VOLATILE | FUNC_STABLE)))
            return false;
        break;
    case EXPR_CAST: case EXPR_AND: case EXPR_OR: case EXPR_NOT: case EXPR_IS_NULL:
    case EXPR_IS_NOT_NULL: case EXPR_CASE:
        break;
    default:
        return false;
    }
    for (int i = 0; i < e->nargs; i++)
        if (!fd_expr(e->args[i], st, cols))
            return false;
    return true;
}

uint64_t plan__group_derived(const Binder *b, const SelectState *st)
{
    if (st->ngsets > 0 || st->ngroups < 2 || (st->nsort == 0 && st->ndistinct_on == 0 && b->nwins == 0))
        return 0;
    uint64_t derived = 0;
    for (int i = 0; i < st->ngroups; i++) {
        int cols = 0;
        if (st->groups[i]->kind != EXPR_COLUMN && fd_expr(st->groups[i], st, &cols) && cols > 0)
            derived |= UINT64_C(1) << i;
    }
    return derived;
}
