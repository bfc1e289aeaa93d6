/*
 * plan_finish.c — the last step of every plan: number its nodes (node_id,
 * for EXPLAIN ANALYZE's per-node counters) in every tree the plan holds —
 * the root, subplans inside expressions, recursive terms — and record the
 * counts the executor sizes its per-query state with (Plan.nnodes,
 * nworktables, nsubplans, nctes).
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"

typedef struct Numbering {
    int next;
    bool *cte_done;          /* per cte_id: its plan numbered already */
    int nctes;
} Numbering;

static void number_node(PlanNode *n, Numbering *next);

static void number_expr(Expr *e, Numbering *next)
{
    if (!e)
        return;
    if (e->kind == EXPR_SUBPLAN && e->subplan)
        number_node(e->subplan, next);
    for (int i = 0; i < e->nargs; i++)
        number_expr(e->args[i], next);
}

static void number_exprs(Expr **es, int n, Numbering *next)
{
    for (int i = 0; es && i < n; i++)
        number_expr(es[i], next);
}

static void number_agg(AggCall *a, Numbering *next)
{
    number_expr(a->arg, next);
    number_exprs(a->args, a->nargs, next);
    number_expr(a->filter, next);
    number_exprs(a->order_exprs, a->norder, next);
    number_expr(a->direct_arg, next);
}

static void number_node(PlanNode *n, Numbering *next)
{
    if (!n)
        return;
    n->node_id = next->next++;
    number_expr(n->scan_filter, next);
    for (int r = 0; n->rows && r < n->nrows; r++)
        number_exprs(n->rows[r], n->ncols, next);
    number_expr(n->predicate, next);
    if (n->kind == PLAN_PROJECT || n->kind == PLAN_PROJECT_SET)
        number_exprs(n->exprs, n->ncols, next);
    number_exprs(n->group_exprs, n->ngroups, next);
    for (int i = 0; n->aggs && i < n->naggs; i++)
        number_agg(&n->aggs[i], next);
    number_exprs(n->left_keys, n->nkeys, next);
    number_exprs(n->right_keys, n->nkeys, next);
    number_expr(n->join_filter, next);
    number_exprs(n->lateral_args, n->nlateral, next);
    for (int i = 0; n->wincalls && i < n->nwincalls; i++) {
        number_exprs(n->wincalls[i].args, n->wincalls[i].nargs, next);
        number_agg(&n->wincalls[i].agg, next);
    }
    number_exprs(n->func_args, n->nfunc_args, next);
    if (n->kind == PLAN_CTE_SCAN && n->cte_id >= 0 && n->cte_id < next->nctes && !next->cte_done[n->cte_id]) {
        next->cte_done[n->cte_id] = true;
        number_node(n->cte_plan, next);
    }
    number_node(n->left, next);
    number_node(n->right, next);
    for (int i = 0; n->children && i < n->nchildren; i++)
        number_node(n->children[i], next);
}

void plan__finish_nodes(Binder *b, Plan *plan)
{
    int nctes = b->counters ? b->counters[2] : 0;
    Numbering nb = {0, MEM_NEW_ARRAY(b->arena, bool, nctes + 1), nctes};
    number_node(plan->root, &nb);
    plan->nnodes = nb.next;
    plan->nworktables = b->counters ? b->counters[0] : 0;
    plan->nsubplans = b->counters ? b->counters[1] : 0;
    plan->nctes = b->counters ? b->counters[2] : 0;
}
