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
 * much larger (by estimated rows, estimate.c) than what it is joined to.
 * Every node gets est_rows (estimate.c's formulas), which the executor uses
 * to pre-size its hash tables.
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"
#include "planner/estimate.h"

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
        n->col_names[i] = b->nrtes > 1 || b->qualify ? mem_printf(b->arena, "%s.%s", re->refname, col) : col;
    }
}

/* A derived FROM item (subquery, VALUES, WITH query, function): its
 * subtree, all columns, with the conjuncts over it alone as a Filter. */
static PlanNode *plan_derived(Binder *b, int r, Conjunct *cj, int ncj, int **layout_out)
{
    RangeEntry *re = b->rtes[r];
    PlanNode *n = re->derived;
    int *layout = MEM_NEW_ARRAY(b->arena, int, re->ncols + 1);
    for (int i = 0; i < re->ncols; i++)
        layout[i] = re->var_base + i;
    Expr **mine = MEM_NEW_ARRAY(b->arena, Expr *, ncj + 1);
    int nmine = 0;
    double sel = 1;
    for (int i = 0; i < ncj; i++) {
        if (cj[i].placed || cj[i].rtes != (UINT64_C(1) << r))
            continue;
        mine[nmine++] = plan__remap(b, cj[i].expr, layout, re->ncols);
        sel *= plan__est_clause_sel(b, cj[i].expr);
        cj[i].placed = true;
    }
    if (nmine > 0) {
        PlanNode *f = plan__new_node(b->arena, PLAN_FILTER, n->ncols);
        f->left = n;
        memcpy(f->col_types, n->col_types, sizeof(SqlType) * (size_t)n->ncols);
        f->predicate = and_of(b, mine, nmine);
        f->est_rows = n->est_rows * sel;
        n = f;
    } else {
        PlanNode *p = plan__new_node(b->arena, PLAN_PROJECT, n->ncols);
        p->left = n;
        memcpy(p->col_types, n->col_types, sizeof(SqlType) * (size_t)n->ncols);
        p->exprs = MEM_NEW_ARRAY(b->arena, Expr *, n->ncols + 1);
        for (int i = 0; i < n->ncols; i++) {
            p->exprs[i] = plan__make_expr(b->arena, EXPR_COLUMN, n->col_types[i], -1, 0);
            p->exprs[i]->index = i;
        }
        p->est_rows = n->est_rows;
        n = p;
    }
    set_col_names(b, n, layout);
    *layout_out = layout;
    return n;
}

static PlanNode *plan_scan(Binder *b, int r, Conjunct *cj, int ncj, int **layout_out)
{
    RangeEntry *re = b->rtes[r];
    if (re->derived)
        return plan_derived(b, r, cj, ncj, layout_out);
    int nused = 0;
    for (int i = 0; i < re->ncols; i++)
        nused += re->used[i];
    if (nused == 0 && re->ncols > 0) {
        /* count(*) and the like read no column, but a scan hands out rows
         * through one: take the narrowest (read only where a row group
         * cannot be answered from its metadata, executor/README.md issue 7). */
        int best = 0;
        for (int i = 1; i < re->ncols; i++)
            if (phys_size(type_phys(re->coltypes[i])) < phys_size(type_phys(re->coltypes[best])))
                best = i;
        re->used[best] = true;
        nused = 1;
    }
    PlanNode *n = plan__new_node(b->arena, PLAN_SCAN, nused);
    n->table = re->table;
    n->est_rows = plan__est_table_rows(re->table);
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
        n->est_rows *= plan__est_clause_sel(b, cj[i].expr);
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
    int nlateral;           /* a LATERAL item: values it reads from the left */
    Expr **lateral;
} JoinSide;

/*
 * Build the hash table on the smaller input: swap the sides when the right
 * one (the table joined next) is estimated much larger than everything
 * joined so far (estimate.c: ANALYZE's statistics and the filters). The
 * thresholds keep FROM order for small inputs (a hash table under 10,000
 * rows stays in cache whichever side builds it) and for near ties, where
 * an estimate is not precise enough to be worth changing the plan.
 */
static bool swap_sides(const JoinSide *L, const JoinSide *R)
{
    return R->node->est_rows > 4 * L->node->est_rows && R->node->est_rows > 10000;
}

/* Selectivity of one join conjunct: eqjoinsel for "l = r" across the
 * sides, the clause formulas otherwise. */
static double join_clause_sel(Binder *b, const Expr *e, const JoinSide *L, const JoinSide *R)
{
    PlanColStats ls, rs;
    if (e->kind == EXPR_FUNC && e->nargs == 2 && strcmp(e->func->name, "=") == 0 &&
        plan__est_column(b, e->args[0], &ls) && plan__est_column(b, e->args[1], &rs)) {
        uint64_t s0 = plan__expr_rtes(b, e->args[0]);
        bool l_first = (s0 & ~L->rtes) == 0;
        return plan__est_join_sel(&ls, &rs, l_first ? L->node->est_rows : R->node->est_rows,
                                  l_first ? R->node->est_rows : L->node->est_rows);
    }
    if (e->kind == EXPR_FUNC && e->nargs == 2 && strcmp(e->func->name, "=") == 0) {
        PlanColStats none = {0};   /* an expression: default n_distinct of the smaller side */
        none.rows = L->node->est_rows < R->node->est_rows ? L->node->est_rows : R->node->est_rows;
        return plan__est_join_sel(&none, &none, L->node->est_rows, R->node->est_rows);
    }
    return plan__est_clause_sel(b, e);
}

/* Output rows of a join (PostgreSQL's calc_joinrel_size_estimate): outer
 * joins keep at least their preserved side(s); never below one row. */
static double join_rows(double l, double r, double sel, PlanJoinType jt)
{
    double n = l * r * sel;
    if (jt == PJOIN_LEFT || jt == PJOIN_FULL)
        n = n > l ? n : l;
    if (jt == PJOIN_FULL)
        n = n > r ? n : r;
    return n < 1 ? 1 : n;
}

static PlanNode *make_join(Binder *b, JoinSide *acc, JoinSide *next, Conjunct *cj, int ncj,
                           PlanJoinType jt)
{
    if (acc->nlateral > 0 || (next->nlateral > 0 && jt == PJOIN_FULL))
        plan__error_at(b, ERRCODE_INVALID_COLUMN_REFERENCE, -1,
                       "invalid reference to FROM-clause entry in a LATERAL item");
    JoinSide sides[2] = {*acc, *next};
    bool lateral = next->nlateral > 0;
    bool swap = jt == PJOIN_INNER && !lateral && swap_sides(acc, next);
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
    double sel = 1;
    for (int i = 0; i < ncj; i++) {
        Conjunct *c = &cj[i];
        if (c->placed || (c->rtes == 0 && jt == PJOIN_INNER) || (c->rtes & ~both) != 0)
            continue;
        c->placed = true;
        Expr *e = c->expr;
        sel *= join_clause_sel(b, e, L, R);
        if (!lateral && e->kind == EXPR_FUNC && e->nargs == 2 && strcmp(e->func->name, "=") == 0) {
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
    j->join_type = jt;
    if (lateral) {
        j->nlateral = next->nlateral;
        j->lateral_args = MEM_NEW_ARRAY(b->arena, Expr *, next->nlateral);
        for (int i = 0; i < next->nlateral; i++)
            j->lateral_args[i] = plan__remap(b, next->lateral[i], L->layout, L->n);
    }
    memcpy(j->col_types, L->node->col_types, sizeof(SqlType) * (size_t)L->n);
    memcpy(j->col_types + L->n, R->node->col_types, sizeof(SqlType) * (size_t)R->n);
    memcpy(j->col_names, L->node->col_names, sizeof(char *) * (size_t)L->n);
    memcpy(j->col_names + L->n, R->node->col_names, sizeof(char *) * (size_t)R->n);
    j->nkeys = nkeys;
    j->left_keys = lkeys;
    j->right_keys = rkeys;
    j->join_filter = and_of(b, resid, nresid);
    j->est_rows = join_rows(L->node->est_rows, R->node->est_rows, sel, jt);
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

/* ---- the FROM tree ---- */

typedef struct Pool {
    Conjunct *cj;
    int n;
    int cap;
} Pool;

static void pool_add(Binder *b, Pool *p, Expr *e)
{
    flatten(b, e, &p->cj, &p->n, &p->cap);
}

static JoinSide plan_group(Binder *b, FromNode **items, int nitems, Pool *pool);

/* The unplaced conjuncts of pool as a Filter over side. */
static void apply_rest(Binder *b, JoinSide *side, Pool *pool)
{
    Expr **rest = MEM_NEW_ARRAY(b->arena, Expr *, pool->n + 1);
    int nrest = 0;
    double sel = 1;
    for (int i = 0; i < pool->n; i++)
        if (!pool->cj[i].placed) {
            sel *= plan__est_clause_sel(b, pool->cj[i].expr);
            rest[nrest++] = plan__remap(b, pool->cj[i].expr, side->layout, side->n);
            pool->cj[i].placed = true;
        }
    if (nrest == 0)
        return;
    PlanNode *f = plan__new_node(b->arena, PLAN_FILTER, side->n);
    f->left = side->node;
    memcpy(f->col_types, side->node->col_types, sizeof(SqlType) * (size_t)side->n);
    memcpy(f->col_names, side->node->col_names, sizeof(char *) * (size_t)side->n);
    f->predicate = and_of(b, rest, nrest);
    f->est_rows = side->node->est_rows * sel;
    side->node = f;
}

/*
 * An outer join: each side planned on its own (WHERE conditions never move
 * into it); ON conditions over the nullable side alone are pushed into that
 * side (LEFT), the rest become hash keys / the join filter. RIGHT JOIN is
 * planned as LEFT with the sides swapped (layouts keep the columns straight).
 */
static JoinSide plan_outer(Binder *b, FromNode *f)
{
    FromNode *pl = f->l, *nl = f->r;
    PlanJoinType jt = f->jointype;
    if (jt == PJOIN_RIGHT) {
        pl = f->r;
        nl = f->l;
        jt = PJOIN_LEFT;
    }
    Pool on = {0}, lp = {0}, rp = {0};
    for (int i = 0; i < list_len(f->quals); i++)
        pool_add(b, &on, list_nth(f->quals, i));
    if (jt == PJOIN_LEFT)
        for (int i = 0; i < on.n; i++)
            if (on.cj[i].rtes != 0 && (on.cj[i].rtes & ~nl->rtes) == 0) {
                pool_add(b, &rp, on.cj[i].expr);
                on.cj[i].placed = true;
            }
    JoinSide L = plan_group(b, &pl, 1, &lp);
    apply_rest(b, &L, &lp);
    JoinSide R = plan_group(b, &nl, 1, &rp);
    apply_rest(b, &R, &rp);
    make_join(b, &L, &R, on.cj, on.n, jt);
    return L;
}

static void collect_atoms(Binder *b, FromNode *f, FromNode ***atoms, int *n, Pool *pool)
{
    if (f->is_join && f->jointype == PJOIN_INNER) {
        collect_atoms(b, f->l, atoms, n, pool);
        collect_atoms(b, f->r, atoms, n, pool);
        for (int i = 0; i < list_len(f->quals); i++)
            pool_add(b, pool, list_nth(f->quals, i));
        return;
    }
    *atoms = mem_realloc(b->arena, *atoms, sizeof(FromNode *) * (size_t)*n,
                         sizeof(FromNode *) * (size_t)(*n + 1));
    (*atoms)[(*n)++] = f;
}

/* Inner-join the items (left-deep, FROM order), placing pool's conjuncts. */
static JoinSide plan_group(Binder *b, FromNode **items, int nitems, Pool *pool)
{
    FromNode **atoms = NULL;
    int natoms = 0;
    for (int i = 0; i < nitems; i++)
        collect_atoms(b, items[i], &atoms, &natoms, pool);
    JoinSide acc = {0};
    for (int a = 0; a < natoms; a++) {
        JoinSide side;
        if (atoms[a]->is_join) {
            side = plan_outer(b, atoms[a]);
        } else {
            side.node = plan_scan(b, atoms[a]->rte, pool->cj, pool->n, &side.layout);
            side.n = side.node->ncols;
            side.rtes = atoms[a]->rtes;
            side.nlateral = b->rtes[atoms[a]->rte]->nlateral;
            side.lateral = b->rtes[atoms[a]->rte]->lateral_args;
        }
        if (a == 0)
            acc = side;
        else
            make_join(b, &acc, &side, pool->cj, pool->n, PJOIN_INNER);
    }
    return acc;
}

/* ---- decorrelated sublinks: semi / anti joins ---- */

static SemiJoin *find_semi(Binder *b, const Expr *e)
{
    if (e->kind != EXPR_SUBPLAN)
        return NULL;
    for (int i = 0; i < list_len(b->semi_joins); i++) {
        SemiJoin *sj = list_nth(b->semi_joins, i);
        if (sj->subplan_id == e->subplan_id)
            return sj;
    }
    return NULL;
}

/* bit 0: reads outer variables (< base); bit 1: reads the subquery's. */
static int var_sides(const Expr *e, int base)
{
    if (!e)
        return 0;
    int s = 0;
    if (e->kind == EXPR_COLUMN)
        s |= e->index < base ? 1 : 2;
    for (int i = 0; i < e->nargs; i++)
        s |= var_sides(e->args[i], base);
    return s;
}

/* EXISTS / IN → semi; NOT EXISTS → anti; NOT IN → null-aware anti (when
 * the IN's comparison can be a hash key). */
static bool semi_candidate(Binder *b, const Expr *e, SemiJoin **sj, PlanJoinType *jt)
{
    bool neg = e->kind == EXPR_NOT;
    SemiJoin *s = find_semi(b, neg ? e->args[0] : e);
    if (!s)
        return false;
    if (s->is_in && neg) {
        Expr *lk, *rk;
        if (var_sides(s->in_left, s->child_base) != 1 || var_sides(s->in_right, s->child_base) != 2 ||
            !key_pair(b, s->in_left, s->in_right, &lk, &rk))
            return false;
    }
    *sj = s;
    *jt = !neg ? PJOIN_SEMI : s->is_in ? PJOIN_ANTI_NULL : PJOIN_ANTI;
    return true;
}

static void plan_semi(Binder *b, JoinSide *acc, SemiJoin *sj, PlanJoinType jt)
{
    int n = acc->n + sj->rn;
    int *layout = MEM_NEW_ARRAY(b->arena, int, n + 1);
    memcpy(layout, acc->layout, sizeof(int) * (size_t)acc->n);
    memcpy(layout + acc->n, sj->rlayout, sizeof(int) * (size_t)sj->rn);
    int max = list_len(sj->conds) + 2;
    Expr **lkeys = MEM_NEW_ARRAY(b->arena, Expr *, max);
    Expr **rkeys = MEM_NEW_ARRAY(b->arena, Expr *, max);
    Expr **resid = MEM_NEW_ARRAY(b->arena, Expr *, max);
    int nkeys = 0, nresid = 0;
    List *conds = sj->conds;
    if (sj->is_in)
        conds = list_concat(b->arena, list_make1(b->arena, plan__make_op(b, "=", sj->in_left, sj->in_right, -1)), conds);
    for (int i = 0; i < list_len(conds); i++) {
        Expr *e = list_nth(conds, i);
        Expr *lk, *rk;
        bool eq = e->kind == EXPR_FUNC && e->nargs == 2 && strcmp(e->func->name, "=") == 0;
        if (eq && var_sides(e->args[0], sj->child_base) == 1 && var_sides(e->args[1], sj->child_base) == 2 &&
            key_pair(b, e->args[0], e->args[1], &lk, &rk)) {
            lkeys[nkeys] = plan__remap(b, lk, acc->layout, acc->n);
            rkeys[nkeys++] = plan__remap(b, rk, sj->rlayout, sj->rn);
            continue;
        }
        if (eq && var_sides(e->args[1], sj->child_base) == 1 && var_sides(e->args[0], sj->child_base) == 2 &&
            key_pair(b, e->args[1], e->args[0], &lk, &rk)) {
            lkeys[nkeys] = plan__remap(b, lk, acc->layout, acc->n);
            rkeys[nkeys++] = plan__remap(b, rk, sj->rlayout, sj->rn);
            continue;
        }
        resid[nresid++] = plan__remap(b, e, layout, n);
    }
    PlanNode *j = plan__new_node(b->arena, nkeys > 0 ? PLAN_HASH_JOIN : PLAN_NESTED_LOOP, acc->n);
    j->left = acc->node;
    j->right = sj->right;
    j->join_type = jt;
    memcpy(j->col_types, acc->node->col_types, sizeof(SqlType) * (size_t)acc->n);
    memcpy(j->col_names, acc->node->col_names, sizeof(char *) * (size_t)acc->n);
    j->nkeys = nkeys;
    j->left_keys = lkeys;
    j->right_keys = rkeys;
    j->join_filter = and_of(b, resid, nresid);
    j->est_rows = acc->node->est_rows;
    acc->node = j;
}

PlanNode *plan__plan_from(Binder *b, List *conjuncts, int **layout, int *nlayout)
{
    Pool pool = {0};
    for (int i = 0; i < list_len(conjuncts); i++)
        pool_add(b, &pool, list_nth(conjuncts, i));
    if (!b->from_items) {   /* callers that add range entries without a FROM tree */
        b->from_items = MEM_NEW_ARRAY(b->arena, FromNode *, b->nrtes + 1);
        for (int r = 0; r < b->nrtes; r++) {
            FromNode *f = MEM_NEW(b->arena, FromNode);
            f->rte = r;
            f->rtes = UINT64_C(1) << r;
            b->from_items[b->nfrom++] = f;
        }
    }
    SemiJoin **sjs = MEM_NEW_ARRAY(b->arena, SemiJoin *, pool.n + 1);
    PlanJoinType *sjt = MEM_NEW_ARRAY(b->arena, PlanJoinType, pool.n + 1);
    int nsj = 0;
    for (int i = 0; i < pool.n; i++)
        if (semi_candidate(b, pool.cj[i].expr, &sjs[nsj], &sjt[nsj])) {
            pool.cj[i].placed = true;
            nsj++;
        }
    if (nsj > 0)
        b->qualify = true;   /* EXPLAIN: (t.a = s.a), as PostgreSQL prints semi joins */
    JoinSide acc = plan_group(b, b->from_items, b->nfrom, &pool);
    if (acc.nlateral > 0)
        plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, -1,
                       "LATERAL references to an enclosing query are not supported yet");
    for (int i = 0; i < nsj; i++)
        plan_semi(b, &acc, sjs[i], sjt[i]);
    apply_rest(b, &acc, &pool);
    *layout = acc.layout;
    *nlayout = acc.n;
    return acc.node;
}
