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
 * UPDATE ... FROM / DELETE ... USING (plan__plan_returning_from): the range
 * entries of the FROM / USING items (tables, subqueries, VALUES, functions,
 * the members of joins) are range entries of the sub-binder too, after the
 * target, and their columns follow the target's in the modify node's
 * output (plan_update.c puts them in its child after the new or old row):
 * RETURNING *, s.x work as in PostgreSQL.
 *
 * An unqualified `*` lists the FROM items' columns in PostgreSQL's order
 * (star_pairs from plan_update.c: a JOIN … USING / NATURAL column once).
 *
 * Limits: parameters are shared with the statement's binder; sublinks in
 * RETURNING are bound like any expression; under a FULL JOIN … USING (or a
 * merged column cast to a common type) `*` lists both sides' columns.
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

/* An unqualified `*` in PostgreSQL's order when the FROM items have one
 * (plan_update.c: a USING / NATURAL column once): the target's columns,
 * then (source, column) pairs; NULL pairs = every range entry's columns. */
typedef struct StarOrder {
    const int *pairs;
    int npairs;
    RangeEntry **sre;
} StarOrder;

static bool ordered_star(const ColumnRef *cr, const StarOrder *so)
{
    return cr && cr->star && list_len(cr->fields) == 0 && so->pairs;
}

static Expr *source_var(Binder *sub, RangeEntry *e, int c, int location)
{
    e->used[c] = true;
    Expr *x = plan__make_expr(sub->arena, EXPR_COLUMN, e->coltypes[c], location, 0);
    x->index = e->var_base + c;
    x->name = e->colnames[c];
    return x;
}

static List *expand_ordered_star(Binder *sub, const ColumnRef *cr, const StarOrder *so)
{
    List *out = NULL;
    RangeEntry *t = sub->rtes[0];
    for (int c = 0; c < t->ncols; c++)
        out = list_append(sub->arena, out, source_var(sub, t, c, cr->node.location));
    for (int k = 0; k < so->npairs; k++)
        out = list_append(sub->arena, out,
                          source_var(sub, so->sre[so->pairs[2 * k]], so->pairs[2 * k + 1], cr->node.location));
    return out;
}

/* Number of output items (a star expands to the columns it names). */
static int count_items(const List *returning, Binder *sub, const StarOrder *so)
{
    int n = 0;
    for (int i = 0; i < list_len(returning); i++) {
        const ResTarget *rt = list_nth(returning, i);
        const ColumnRef *cr = IS_A(rt->val, ColumnRef) ? (const ColumnRef *)rt->val : NULL;
        n += ordered_star(cr, so) ? sub->rtes[0]->ncols + so->npairs
             : cr && cr->star     ? list_len(plan__expand_star(sub, cr))
                                  : 1;
    }
    return n;
}

/* The name of a star's column e (a variable of one of sub's range entries). */
static const char *star_name(const Binder *sub, const Expr *e)
{
    for (int i = 0; i < sub->nrtes; i++) {
        const RangeEntry *r = sub->rtes[i];
        if (e->index >= r->var_base && e->index < r->var_base + r->ncols)
            return r->colnames[e->index - r->var_base];
    }
    return "?column?";
}

static void bind_items(Binder *sub, PlanNode *proj, const List *returning, const int *layout, int ncols,
                       const StarOrder *so)
{
    int n = 0;
    for (int i = 0; i < list_len(returning); i++) {
        const ResTarget *rt = list_nth(returning, i);
        const ColumnRef *cr = IS_A(rt->val, ColumnRef) ? (const ColumnRef *)rt->val : NULL;
        if (cr && cr->star) {
            List *cols = ordered_star(cr, so) ? expand_ordered_star(sub, cr, so) : plan__expand_star(sub, cr);
            for (int k = 0; k < list_len(cols); k++) {
                Expr *e = list_nth(cols, k);
                add_item(sub, proj, &n, e, star_name(sub, e), layout, ncols);
            }
            continue;
        }
        Expr *e = plan__bind_expr(sub, rt->val);
        add_item(sub, proj, &n, e, rt->name ? rt->name : plan__figure_colname(rt->val), layout, ncols);
    }
    proj->ncols = n;
}

/* The modify node's output columns: the target's, then each source's. */
static void modify_columns(Binder *b, PlanNode *mod, StoreTable *t, RangeEntry **src, int nsrc)
{
    int n = store_table_ncols(t);
    for (int i = 0; i < nsrc; i++)
        n += src[i]->ncols;
    mod->ncols = n;
    mod->col_types = MEM_NEW_ARRAY(b->arena, SqlType, n + 1);
    mod->col_names = MEM_NEW_ARRAY(b->arena, const char *, n + 1);
    int k = 0;
    for (int c = 0; c < store_table_ncols(t); c++, k++) {
        mod->col_types[k] = store_table_column(t, c)->type;
        mod->col_names[k] = store_table_column(t, c)->name;
    }
    for (int i = 0; i < nsrc; i++)
        for (int c = 0; c < src[i]->ncols; c++, k++) {
            mod->col_types[k] = src[i]->coltypes[c];
            mod->col_names[k] = src[i]->colnames[c];
        }
}

/* A FROM item's range entry again in the RETURNING binder (its rows are the
 * modify node's columns, so only names and types matter). */
static RangeEntry *add_source(Binder *sub, const RangeEntry *r)
{
    PlanNode *shape = plan__new_node(sub->arena, PLAN_VALUES, r->ncols);
    for (int c = 0; c < r->ncols; c++)
        shape->col_types[c] = r->coltypes[c];
    RangeEntry *e = plan__add_derived_rte(sub, r->refname, r->has_alias, shape, r->colnames, NULL, r->location);
    e->schema = r->schema;
    e->relname = r->relname;
    e->has_alias = r->has_alias;
    return e;
}

void plan__plan_returning(Binder *b, Plan *p, const RangeVar *rv, StoreTable *t, const List *returning)
{
    plan__plan_returning_from(b, p, rv, t, returning, NULL, NULL, 0);
}

void plan__plan_returning_from(Binder *b, Plan *p, const RangeVar *rv, StoreTable *t, const List *returning,
                               const List *sources, const int *star_pairs, int nstar)
{
    if (!returning)
        return;
    PlanNode *mod = p->root;
    int nsrc = list_len(sources);
    Binder sub;
    plan__binder_init(&sub, b->ctx);
    share_params(&sub, b);
    sub.agg_forbidden = "RETURNING";
    sub.win_forbidden = "RETURNING";
    RangeEntry *r = plan__add_rte(&sub, rv);
    RangeEntry **sre = MEM_NEW_ARRAY(b->arena, RangeEntry *, nsrc + 1);
    for (int i = 0; i < nsrc; i++)
        sre[i] = add_source(&sub, list_nth(sources, i));
    modify_columns(b, mod, t, sre, nsrc);
    int *layout = MEM_NEW_ARRAY(b->arena, int, mod->ncols + 1);
    int k = 0;
    for (int i = -1; i < nsrc; i++) {
        const RangeEntry *e = i < 0 ? r : sre[i];
        for (int c = 0; c < e->ncols; c++)
            layout[k++] = e->var_base + c;
    }
    StarOrder so = {star_pairs, nstar, sre};
    int nitems = count_items(returning, &sub, &so);
    PlanNode *proj = plan__new_node(b->arena, PLAN_PROJECT, nitems);
    proj->left = mod;
    proj->exprs = MEM_NEW_ARRAY(b->arena, Expr *, nitems + 1);
    bind_items(&sub, proj, returning, layout, mod->ncols, &so);
    share_params(b, &sub);
    p->root = proj;
    p->ncols = proj->ncols;
    p->cols = MEM_NEW_ARRAY(b->arena, ResultColumn, proj->ncols + 1);
    for (int i = 0; i < proj->ncols; i++) {
        p->cols[i].name = proj->col_names[i];
        p->cols[i].type = proj->col_types[i];
    }
}
