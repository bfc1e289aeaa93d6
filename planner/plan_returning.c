/*
 * plan_returning.c — the RETURNING list of INSERT, UPDATE and DELETE.
 *
 * A modify node given ncols > 0 outputs the rows it wrote, in the target
 * table's column order and types (new rows for INSERT and UPDATE, old rows
 * for DELETE; see PLAN_INSERT in plan.h). The RETURNING list is bound in a
 * binder of its own whose only range entry is the target (with its alias),
 * so column variables map one to one onto those output columns, and a
 * PLAN_PROJECT of the list is put above the modify node; the plan's result
 * columns describe it. The plan stays PLAN_STMT_INSERT, so the portal
 * still produces the DML command tag.
 *
 * Limits: parameters are shared with the statement's binder; sublinks in
 * RETURNING are bound like any expression (no outer references to FROM
 * or USING items, which are not supported yet anyway).
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"

#include "storage/storage.h"

/* Share the statement's parameter state with the sub-binder (and back). */
static void share_params(Binder *to, const Binder *from)
{
    to->nparams = from->nparams;
    to->param_cap = from->param_cap;
    to->param_types = from->param_types;
    to->param_fixed = from->param_fixed;
    to->param_nodes = from->param_nodes;
}

/* Append e (variable space) as an output item named name. */
static void add_item(Binder *sub, PlanNode *proj, int *n, Expr *e, const char *name, const int *layout,
                     int nlayout)
{
    e = plan__remap(sub, plan__resolve_unknown(sub, e), layout, nlayout);
    proj->exprs[*n] = e;
    proj->col_types[*n] = e->type;
    proj->col_names[*n] = name ? name : "?column?";
    (*n)++;
}

/* Number of output items (stars expanded to every column of the target). */
static int count_items(const List *returning, int ncols)
{
    int n = 0;
    for (int i = 0; i < list_len(returning); i++) {
        const ResTarget *rt = list_nth(returning, i);
        const ColumnRef *cr = IS_A(rt->val, ColumnRef) ? (const ColumnRef *)rt->val : NULL;
        n += cr && cr->star ? ncols : 1;
    }
    return n;
}

static void bind_items(Binder *sub, const RangeEntry *r, PlanNode *proj, const List *returning,
                       const int *layout, int ncols)
{
    int n = 0;
    for (int i = 0; i < list_len(returning); i++) {
        const ResTarget *rt = list_nth(returning, i);
        const ColumnRef *cr = IS_A(rt->val, ColumnRef) ? (const ColumnRef *)rt->val : NULL;
        if (cr && cr->star) {
            List *cols = plan__expand_star(sub, cr);
            for (int k = 0; k < list_len(cols); k++) {
                Expr *e = list_nth(cols, k);
                add_item(sub, proj, &n, e, r->colnames[e->index - r->var_base], layout, ncols);
            }
            continue;
        }
        Expr *e = plan__bind_expr(sub, rt->val);
        add_item(sub, proj, &n, e, rt->name ? rt->name : plan__figure_colname(rt->val), layout, ncols);
    }
    proj->ncols = n;
}

void plan__plan_returning(Binder *b, Plan *p, const RangeVar *rv, StoreTable *t, const List *returning)
{
    if (!returning)
        return;
    PlanNode *mod = p->root;
    int ncols = store_table_ncols(t);
    mod->ncols = ncols;
    mod->col_types = MEM_NEW_ARRAY(b->arena, SqlType, ncols + 1);
    mod->col_names = MEM_NEW_ARRAY(b->arena, const char *, ncols + 1);
    for (int c = 0; c < ncols; c++) {
        mod->col_types[c] = store_table_column(t, c)->type;
        mod->col_names[c] = store_table_column(t, c)->name;
    }
    Binder sub;
    plan__binder_init(&sub, b->ctx);
    share_params(&sub, b);
    sub.agg_forbidden = "RETURNING";
    sub.win_forbidden = "RETURNING";
    RangeEntry *r = plan__add_rte(&sub, rv);
    int *layout = MEM_NEW_ARRAY(b->arena, int, ncols + 1);
    for (int c = 0; c < ncols; c++)
        layout[c] = r->var_base + c;
    int nitems = count_items(returning, ncols);
    PlanNode *proj = plan__new_node(b->arena, PLAN_PROJECT, nitems);
    proj->left = mod;
    proj->exprs = MEM_NEW_ARRAY(b->arena, Expr *, nitems + 1);
    bind_items(&sub, r, proj, returning, layout, ncols);
    share_params(b, &sub);
    p->root = proj;
    p->ncols = proj->ncols;
    p->cols = MEM_NEW_ARRAY(b->arena, ResultColumn, proj->ncols + 1);
    for (int i = 0; i < proj->ncols; i++) {
        p->cols[i].name = proj->col_names[i];
        p->cols[i].type = proj->col_types[i];
    }
}
