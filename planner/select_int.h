/*
 * select_int.h — the bound form of one SELECT, shared by bind_select.c
 * (which fills it) and plan_select.c (which turns it into plan nodes).
 * Internal to planner/.
 */
#ifndef STRATA_PLANNER_SELECT_INT_H
#define STRATA_PLANNER_SELECT_INT_H

#ifndef STRATA_PLANNER_INTERNAL
#error "select_int.h is internal to planner/"
#endif

#include "planner/planner_int.h"

/* One select-list entry (or a hidden ORDER BY helper column). */
typedef struct Target {
    Expr *expr;           /* bound: variable ids, aggregate slots */
    Expr *post;           /* grouped queries: over the PLAN_AGG output */
    const char *name;
    bool hidden;          /* ORDER BY expression not in the select list */
    int location;
    uint32_t table_oid;   /* plain table column: RowDescription's origin */
    int16_t attnum;
} Target;

typedef struct SelectState {
    Target *targets;
    int ntargets;         /* visible then hidden */
    int cap;
    int nvisible;
    List *conjuncts;      /* WHERE and ON conditions (Expr *, boolean) */
    Expr **groups;        /* GROUP BY expressions, deduplicated */
    int ngroups;
    Expr *having;
    Expr *having_post;
    bool grouped;         /* aggregates, GROUP BY or HAVING present */
    SortKey *sort;        /* column = target index */
    int nsort;
    int *distinct_on;     /* DISTINCT ON: target indexes */
    int ndistinct_on;
    uint64_t *gsets;      /* GROUPING SETS / ROLLUP / CUBE: bitmasks over groups */
    int ngsets;
    Expr *limit;          /* int8, NULL = none */
    Expr *offset;
} SelectState;

void plan__bind_select(Binder *b, const SelectStmt *s, SelectState *st);
/* GROUP BY (bind_group.c): plain items, GROUPING SETS, ROLLUP, CUBE. */
void plan__bind_group(Binder *b, const SelectStmt *s, SelectState *st);
int plan__group_item(Binder *b, const Node *g, SelectState *st);
/* GROUP BY items that are functions of other, plain-column items and can be
 * computed per group above the aggregate (bind_group.c; bit i = groups[i];
 * 0 when the rewrite does not apply). */
uint64_t plan__group_derived(const Binder *b, const SelectState *st);
/* Late materialisation of top-N over one table (plan_late.c): top is the
 * tail of a SELECT; returns it, its Sort narrowed when that pays. */
PlanNode *plan__late_fetch(Binder *b, PlanNode *top);
/* GROUPING(args) over the PLAN_AGG output (bind_group.c). */
Expr *plan__grouping_post(Binder *b, const Expr *marker, const SelectState *st);
/* A bound expression over the PLAN_AGG output (42803 for ungrouped columns). */
Expr *plan__grouped_expr(Binder *b, const Expr *e, const SelectState *st);
/* LIMIT/OFFSET argument: int8, no columns, negative constants raise
 * 2201W/2201X; NULL for none (and for a NULL constant). */
Expr *plan__bind_limit(Binder *b, const Node *n, const char *what);

#endif
