/*
 * plan_join.c — the FROM clause as a tree of scans and joins, with the
 * WHERE/ON conjuncts placed as low as they can go.
 *
 *   - a conjunct over one table becomes that table's scan_filter;
 *   - the tables are joined left-deep in FROM order; at each join, the
 *     conjuncts that become computable there are split: "l = r" with l over
 *     the left side and r over the right side (same type) are hash keys,
 *     the rest the join_filter; no keys → nested loop;
 *   - conjuncts over no table (constants, parameters) go to a Filter on top.
 *
 * Scans read only the columns some expression references (a table none of
 * whose columns is referenced still reads its first column, so row counts
 * flow). Build side = right child: the table joined later, unless it is
 * much larger (by committed row count) than what it is joined to.
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"

#include <string.h>
#include "storage/storage.h"

typedef struct Conjunct {
    Expr *expr;
    uint64_t rtes;
    bool placed;
} Conjunct;

PlanNode *plan__new_node(MemArena *a, PlanKind kind, int ncols)
{
    PlanNode *n = MEM_NEW(a, PlanNode);
    n->kind = kind;
    n->ncols = ncols;
    n->col_types = MEM_NEW_ARRAY(a, SqlType, ncols > 0 ? ncols : 1);
    n->col_names = MEM_NEW_ARRAY(a, const char *, ncols > 0 ? ncols : 1);
    return n;
}

static int layout_pos(const int *layout, int n, int var)
{
    for (int i = 0; i < n; i++)
        if (layout[i] == var)
            return i;
    return -1;
}

Expr *plan__remap(Binder *b, const Expr *e, const int *layout, int nlayout)
{
    if (!e)
        return NULL;
    Expr *c = MEM_NEW(b->arena, Expr);
    *c = *e;
    if (e->kind == EXPR_COLUMN && layout) {
        c->index = layout_pos(layout, nlayout, e->index);
        ERR_ASSERT(c->index >= 0);
        return c;
    }
    if (e->kind == EXPR_PARAM) {
        c->type = b->param_types[e->index];
        return c;
    }
    if (e->nargs > 0) {
        c->args = MEM_NEW_ARRAY(b->arena, Expr *, e->nargs);
        for (int i = 0; i < e->nargs; i++)
            c->args[i] = plan__remap(b, e->args[i], layout, nlayout);
    }
    return c;
}

static Expr *and_of(Binder *b, Expr **items, int n)
{
    if (n == 0)
        return NULL;
    if (n == 1)
        return items[0];
    Expr *e = plan__make_expr(b->arena, EXPR_AND, SQLTYPE(TYPE_BOOL), items[0]->location, n);
    memcpy(e->args, items, sizeof(Expr *) * (size_t)n);
    return e;
}

static void set_col_names(Binder *b, PlanNode *n, const int *layout)
{
    for (int i = 0; i < n->ncols; i++) {
        int r = plan__var_rte(b, layout[i]);
        const RangeEntry *re = b->rtes[r];
        const char *col = re->colnames[layout[i] - re->var_base];
        n->col_names[i] = b->nrtes > 1 ? mem_printf(b->arena, "%s.%s", re->refname, col) : col;
    }
}

static PlanNode *plan_scan(Binder *b, int r, Conjunct *cj, int ncj, int **layout_out)
{
    RangeEntry *re = b->rtes[r];
    int nused = 0;
    for (int i = 0; i < re->ncols; i++)
        nused += re->used[i];
    if (nused == 0 && re->ncols > 0) {
        re->used[0] = true;
        nused = 1;
    }
    PlanNode *n = plan__new_node(b->arena, PLAN_SCAN, nused);
    n->table = re->table;
    n->est_rows = (double)store_table_row_count(re->table, NULL); /* committed rows: an estimate */
    n->scan_cols = MEM_NEW_ARRAY(b->arena, int, nused > 0 ? nused : 1);
    int *layout = MEM_NEW_ARRAY(b->arena, int, nused > 0 ? nused : 1);
    for (int i = 0, k = 0; i < re->ncols; i++) {
        if (!re->used[i])
            continue;
        n->scan_cols[k] = i;
        n->col_types[k] = re->coltypes[i];
        layout[k] = re->var_base + i;
        k++;
    }
    set_col_names(b, n, layout);
    if (!b->scan_nodes)
        b->scan_nodes = MEM_NEW_ARRAY(b->arena, PlanNode *, b->nrtes);
    b->scan_nodes[r] = n;
    Expr **mine = MEM_NEW_ARRAY(b->arena, Expr *, ncj + 1);
    int nmine = 0;
    for (int i = 0; i < ncj; i++) {
        if (cj[i].placed || cj[i].rtes != (UINT64_C(1) << r))
            continue;
        mine[nmine++] = plan__remap(b, cj[i].expr, layout, nused);
        cj[i].placed = true;
    }
    n->scan_filter = and_of(b, mine, nmine);
    *layout_out = layout;
    return n;
}

/* Make a hash key pair of the same type, or return false. */
static bool key_pair(Binder *b, Expr *l, Expr *r, Expr **lk, Expr **rk)
{
    if (l->type.oid == r->type.oid) {
        *lk = l;
        *rk = r;
        return true;
    }
    Expr *c = plan__coerce(b, l, SQLTYPE(r->type.oid), CAST_IMPLICIT);
    if (c) {
        *lk = c;
        *rk = r;
        return true;
    }
    c = plan__coerce(b, r, SQLTYPE(l->type.oid), CAST_IMPLICIT);
    if (c) {
        *lk = l;
        *rk = c;
        return true;
    }
    return false;
}

typedef struct JoinSide {
    PlanNode *node;
    int *layout;
    int n;
    uint64_t rtes;
} JoinSide;

/*
 * Build the hash table on the smaller input: swap the sides when the right
 * one (the table joined next) is much larger than everything joined so far.
 * Conservative thresholds, since the only statistic is the committed row
 * count: small inputs keep FROM order.
 */
static bool swap_sides(const JoinSide *L, const JoinSide *R)
{
    return R->node->est_rows > 4 * L->node->est_rows && R->node->est_rows > 10000;
}

static PlanNode *make_join(Binder *b, JoinSide *acc, JoinSide *next, Conjunct *cj, int ncj)
{
    JoinSide sides[2] = {*acc, *next};
    bool swap = swap_sides(acc, next);
    JoinSide *L = &sides[swap ? 1 : 0];
    JoinSide *R = &sides[swap ? 0 : 1];
    int n = L->n + R->n;
    int *layout = MEM_NEW_ARRAY(b->arena, int, n);
    memcpy(layout, L->layout, sizeof(int) * (size_t)L->n);
    memcpy(layout + L->n, R->layout, sizeof(int) * (size_t)R->n);
    uint64_t both = L->rtes | R->rtes;
    Expr **lkeys = MEM_NEW_ARRAY(b->arena, Expr *, ncj + 1);
    Expr **rkeys = MEM_NEW_ARRAY(b->arena, Expr *, ncj + 1);
    Expr **resid = MEM_NEW_ARRAY(b->arena, Expr *, ncj + 1);
    int nkeys = 0, nresid = 0;
    for (int i = 0; i < ncj; i++) {
        Conjunct *c = &cj[i];
        if (c->placed || c->rtes == 0 || (c->rtes & ~both) != 0)
            continue;
        c->placed = true;
        Expr *e = c->expr;
        if (e->kind == EXPR_FUNC && e->nargs == 2 && strcmp(e->func->name, "=") == 0) {
            uint64_t s0 = plan__expr_rtes(b, e->args[0]), s1 = plan__expr_rtes(b, e->args[1]);
            Expr *lk, *rk;
            if (s0 && s1 && (s0 & ~L->rtes) == 0 && (s1 & ~R->rtes) == 0 &&
                key_pair(b, e->args[0], e->args[1], &lk, &rk)) {
                lkeys[nkeys] = plan__remap(b, lk, L->layout, L->n);
                rkeys[nkeys++] = plan__remap(b, rk, R->layout, R->n);
                continue;
            }
            if (s0 && s1 && (s1 & ~L->rtes) == 0 && (s0 & ~R->rtes) == 0 &&
                key_pair(b, e->args[1], e->args[0], &lk, &rk)) {
                lkeys[nkeys] = plan__remap(b, lk, L->layout, L->n);
                rkeys[nkeys++] = plan__remap(b, rk, R->layout, R->n);
                continue;
            }
        }
        resid[nresid++] = plan__remap(b, e, layout, n);
    }
    PlanNode *j = plan__new_node(b->arena, nkeys > 0 ? PLAN_HASH_JOIN : PLAN_NESTED_LOOP, n);
    j->left = L->node;
    j->right = R->node;
    memcpy(j->col_types, L->node->col_types, sizeof(SqlType) * (size_t)L->n);
    memcpy(j->col_types + L->n, R->node->col_types, sizeof(SqlType) * (size_t)R->n);
    memcpy(j->col_names, L->node->col_names, sizeof(char *) * (size_t)L->n);
    memcpy(j->col_names + L->n, R->node->col_names, sizeof(char *) * (size_t)R->n);
    j->nkeys = nkeys;
    j->left_keys = lkeys;
    j->right_keys = rkeys;
    j->join_filter = and_of(b, resid, nresid);
    j->est_rows = L->node->est_rows > R->node->est_rows ? L->node->est_rows : R->node->est_rows;
    acc->node = j;
    acc->layout = layout;
    acc->n = n;
    acc->rtes = both;
    return j;
}

static void flatten(Binder *b, Expr *e, Conjunct **cj, int *n, int *cap)
{
    if (e->kind == EXPR_AND) {
        for (int i = 0; i < e->nargs; i++)
            flatten(b, e->args[i], cj, n, cap);
        return;
    }
    if (*n == *cap) {
        int nc = *cap ? 2 * *cap : 16;
        *cj = mem_realloc(b->arena, *cj, sizeof(Conjunct) * (size_t)*cap, sizeof(Conjunct) * (size_t)nc);
        *cap = nc;
    }
    (*cj)[*n] = (Conjunct){e, plan__expr_rtes(b, e), false};
    (*n)++;
}

PlanNode *plan__plan_from(Binder *b, List *conjuncts, int **layout, int *nlayout)
{
    Conjunct *cj = NULL;
    int ncj = 0, cap = 0;
    for (int i = 0; i < list_len(conjuncts); i++)
        flatten(b, list_nth(conjuncts, i), &cj, &ncj, &cap);
    JoinSide acc = {0};
    for (int r = 0; r < b->nrtes; r++) {
        JoinSide side;
        side.node = plan_scan(b, r, cj, ncj, &side.layout);
        side.n = side.node->ncols;
        side.rtes = UINT64_C(1) << r;
        if (r == 0)
            acc = side;
        else
            make_join(b, &acc, &side, cj, ncj);
    }
    Expr **rest = MEM_NEW_ARRAY(b->arena, Expr *, ncj + 1);
    int nrest = 0;
    for (int i = 0; i < ncj; i++)
        if (!cj[i].placed)
            rest[nrest++] = plan__remap(b, cj[i].expr, acc.layout, acc.n);
    if (nrest > 0) {
        PlanNode *f = plan__new_node(b->arena, PLAN_FILTER, acc.n);
        f->left = acc.node;
        memcpy(f->col_types, acc.node->col_types, sizeof(SqlType) * (size_t)acc.n);
        memcpy(f->col_names, acc.node->col_names, sizeof(char *) * (size_t)acc.n);
        f->predicate = and_of(b, rest, nrest);
        acc.node = f;
    }
    *layout = acc.layout;
    *nlayout = acc.n;
    return acc.node;
}
