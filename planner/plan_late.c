/*
 * plan_late.c — late materialisation for top-N over one table (issue 7):
 *
 *   Limit → Sort (top-N) → Project → Scan(table, filter)
 *
 * where the Project passes many table columns through untouched (`SELECT *
 * FROM hits WHERE URL LIKE '%google%' ORDER BY EventTime LIMIT 10`,
 * ClickBench Q23). Columns the filter reads anyway (URL) stay in the scan. Scanning all 105 columns of every row that passes the
 * filter only to keep 10 of them decodes and copies data that is thrown
 * away; instead the scan reads the filter's columns, the columns the sort
 * keys and computed outputs need, and each row's locator
 * (STORE_COL_ROWID); the sort keeps just those and fetches the passed-
 * through columns by locator for the rows it emits (executor/op_sort.c,
 * store_row_fetch). The plan's output (types, names, column order) does not
 * change; neither does EXPLAIN's text.
 *
 * Applied when the LIMIT is a constant (sort_topn ≤ PLAN_LATE_TOPN_MAX), at
 * least two output columns are plain table columns that are not sort keys,
 * and the table is big enough that a full read costs more than the fetches
 * (table rows ≥ PLAN_LATE_ROWS_PER_FETCH per emitted row: a fetch touches
 * one row group per column, a scan every row group).
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"
#include "planner/select_int.h"

#include <string.h>
#include "planner/estimate.h"
#include "storage/storage.h"

#define PLAN_LATE_TOPN_MAX 1024
#define PLAN_LATE_ROWS_PER_FETCH 64

static void mark_columns(const Expr *e, bool *used)
{
    if (!e)
        return;
    if (e->kind == EXPR_COLUMN)
        used[e->index] = true;
    for (int i = 0; i < e->nargs; i++)
        mark_columns(e->args[i], used);
}

/* e with every EXPR_COLUMN index i replaced by map[i] (copied). */
static Expr *remap_columns(Binder *b, const Expr *e, const int *map)
{
    if (!e)
        return NULL;
    Expr *c = MEM_NEW(b->arena, Expr);
    *c = *e;
    if (e->kind == EXPR_COLUMN) {
        c->index = map[e->index];
        return c;
    }
    if (e->nargs > 0) {
        c->args = MEM_NEW_ARRAY(b->arena, Expr *, e->nargs);
        for (int i = 0; i < e->nargs; i++)
            c->args[i] = remap_columns(b, e->args[i], map);
    }
    return c;
}

/* Which project outputs are fetched late: plain table columns that are
 * neither sort keys nor read by the scan's filter anyway. */
static int pick_late(Binder *b, const PlanNode *sort, const PlanNode *proj, const PlanNode *scan, bool *late)
{
    bool *in_filter = MEM_NEW_ARRAY(b->arena, bool, scan->ncols + 1);
    memset(in_filter, 0, sizeof(bool) * (size_t)(scan->ncols + 1));
    mark_columns(scan->scan_filter, in_filter);
    int nlate = 0;
    for (int i = 0; i < proj->ncols; i++) {
        const Expr *e = proj->exprs[i];
        late[i] = e->kind == EXPR_COLUMN && scan->scan_cols[e->index] >= 0 && !in_filter[e->index];
        for (int k = 0; k < sort->nsort && late[i]; k++)
            late[i] = sort->sort_keys[k].column != i;
        nlate += late[i];
    }
    return nlate;
}

/* Narrow the scan in place (EXPLAIN finds it by address) to the columns
 * `used` marks, then the locator. scan_map gets old → new positions. */
static void narrow_scan(Binder *b, PlanNode *s, const bool *used, int *scan_map)
{
    int n = 0;
    for (int c = 0; c < s->ncols; c++)
        n += used[c];
    int *cols = MEM_NEW_ARRAY(b->arena, int, n + 1);
    SqlType *types = MEM_NEW_ARRAY(b->arena, SqlType, n + 1);
    const char **names = MEM_NEW_ARRAY(b->arena, const char *, n + 1);
    n = 0;
    for (int c = 0; c < s->ncols; c++) {
        scan_map[c] = used[c] ? n : -1;
        if (!used[c])
            continue;
        cols[n] = s->scan_cols[c];
        types[n] = s->col_types[c];
        names[n] = s->col_names ? s->col_names[c] : "?column?";
        n++;
    }
    cols[n] = STORE_COL_ROWID;
    types[n] = SQLTYPE(TYPE_INT8);
    names[n] = "ctid";
    s->ncols = n + 1;
    s->scan_cols = cols;
    s->col_types = types;
    s->col_names = names;
    s->scan_filter = remap_columns(b, s->scan_filter, scan_map);
}

/* Rebuild Sort's subtree as Project(early outputs, locator) → narrow scan
 * and give the sort its fetch list. */
static void rebuild(Binder *b, PlanNode *sort, const PlanNode *proj, PlanNode *scan, const bool *late,
                    int nlate)
{
    int *table_col = MEM_NEW_ARRAY(b->arena, int, proj->ncols);   /* before the scan narrows */
    for (int i = 0; i < proj->ncols; i++)
        table_col[i] = late[i] ? scan->scan_cols[proj->exprs[i]->index] : -1;
    bool *used = MEM_NEW_ARRAY(b->arena, bool, scan->ncols + 1);
    memset(used, 0, sizeof(bool) * (size_t)(scan->ncols + 1));
    mark_columns(scan->scan_filter, used);
    for (int i = 0; i < proj->ncols; i++)
        if (!late[i])
            mark_columns(proj->exprs[i], used);
    int *scan_map = MEM_NEW_ARRAY(b->arena, int, scan->ncols + 1);
    narrow_scan(b, scan, used, scan_map);

    int nearly = proj->ncols - nlate;
    PlanNode *p = plan__new_node(b->arena, PLAN_PROJECT, nearly + 1);
    p->left = scan;
    p->est_rows = proj->est_rows;
    p->exprs = MEM_NEW_ARRAY(b->arena, Expr *, nearly + 1);
    sort->late_map = MEM_NEW_ARRAY(b->arena, int, proj->ncols);
    sort->late_cols = MEM_NEW_ARRAY(b->arena, int, nlate);
    int *early_pos = MEM_NEW_ARRAY(b->arena, int, proj->ncols);
    int ne = 0, nl = 0;
    for (int i = 0; i < proj->ncols; i++) {
        if (late[i]) {
            sort->late_cols[nl] = table_col[i];
            sort->late_map[i] = -1 - nl++;
            continue;
        }
        p->exprs[ne] = remap_columns(b, proj->exprs[i], scan_map);
        p->col_types[ne] = proj->col_types[i];
        p->col_names[ne] = proj->col_names[i];
        early_pos[i] = sort->late_map[i] = ne++;
    }
    p->exprs[ne] = plan__make_expr(b->arena, EXPR_COLUMN, SQLTYPE(TYPE_INT8), -1, 0);
    p->exprs[ne]->index = scan->ncols - 1;   /* the locator */
    p->col_types[ne] = SQLTYPE(TYPE_INT8);
    p->col_names[ne] = "ctid";
    SortKey *keys = MEM_NEW_ARRAY(b->arena, SortKey, sort->nsort);
    for (int k = 0; k < sort->nsort; k++) {
        keys[k] = sort->sort_keys[k];
        keys[k].column = early_pos[keys[k].column];
    }
    sort->sort_keys = keys;
    sort->left = p;
    sort->nlate = nlate;
    sort->late_rowid = ne;
    sort->late_table = scan->table;
}

PlanNode *plan__late_fetch(Binder *b, PlanNode *top)
{
    if (top->kind != PLAN_LIMIT || top->left->kind != PLAN_SORT)
        return top;
    PlanNode *sort = top->left, *proj = sort->left;
    if (sort->sort_topn <= 0 || sort->sort_topn > PLAN_LATE_TOPN_MAX || sort->nlate > 0 ||
        proj->kind != PLAN_PROJECT || proj->left->kind != PLAN_SCAN || !proj->left->table)
        return top;
    PlanNode *scan = proj->left;
    if (plan__est_table_rows(scan->table) < (double)sort->sort_topn * PLAN_LATE_ROWS_PER_FETCH)
        return top;
    for (int c = 0; c < scan->ncols; c++)
        if (scan->scan_cols[c] < 0)
            return top;                 /* already carries a locator (not ours) */
    bool *late = MEM_NEW_ARRAY(b->arena, bool, proj->ncols + 1);
    int nlate = pick_late(b, sort, proj, scan, late);
    if (nlate < 2)
        return top;
    rebuild(b, sort, proj, scan, late, nlate);
    return top;
}
