/*
 * explain.c — EXPLAIN's text: the plan tree in PostgreSQL's shape, one
 * line per row of the "QUERY PLAN" column:
 *
 *   Limit
 *     ->  Sort
 *           Sort Key: x DESC
 *           ->  Hash Join
 *                 Hash Cond: (a.id = b.id)
 *                 ->  Seq Scan on a
 *                       Filter: (x > 1)
 *                 ->  Hash
 *                       ->  Seq Scan on b
 *
 * A node's name starts at column c, its properties at c + 2, its children
 * as "->  " at c + 2. Costs and row estimates are not printed (there are no
 * statistics yet: what PostgreSQL prints with COSTS OFF). Project nodes are
 * not shown (PostgreSQL folds projections into the node below); a HAVING
 * filter shows as "Filter:" on its Aggregate, a constant WHERE as a
 * "Result" with "One-Time Filter:". Column names are qualified with the
 * table's alias when the query has more than one table. EXPLAIN ANALYZE
 * adds each node's counters to its title line and a "Kernels:" line (the
 * specialised paths that ran, issue 7) under its properties.
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"

#include <ctype.h>
#include <string.h>
#include "common/strbuf.h"
#include "common/typio.h"
#include "storage/storage.h"

static void deparse(StrBuf *sb, const Expr *e, const char *const *names);

static bool is_operator(const char *name)
{
    return name && !isalpha((unsigned char)name[0]) && name[0] != '_';
}

static void sql_type_name(StrBuf *sb, SqlType t)
{
    char buf[128];
    const char *s = type_format(t, buf, sizeof buf);
    strbuf_append_str(sb, s ? s : "?");
}

static void deparse_const(StrBuf *sb, const Expr *e)
{
    if (e->value.is_null) {
        strbuf_append_str(sb, "NULL::");
        sql_type_name(sb, e->type);
        return;
    }
    StrBuf v;
    strbuf_init(&v);
    OutputOptions opt = OUTPUT_OPTIONS_DEFAULT;
    type_output(e->type, &e->value, &opt, &v);
    const char *text = v.data ? v.data : "";
    /* PostgreSQL's get_const_expr: int4 bare unless negative; numeric bare
     * when it looks like a float (has '.', 'e') and has no typmod */
    bool plain_number = (e->type.oid == TYPE_INT4 && text[0] != '-') ||
                        (e->type.oid == TYPE_NUMERIC && isdigit((unsigned char)text[0]) &&
                         strcspn(text, "eE.") != strlen(text) && e->type.typmod < 0);
    if (plain_number) {
        strbuf_append(sb, text, v.len);   /* negative numbers print quoted, as PostgreSQL */
    } else if (e->type.oid == TYPE_BOOL) {
        strbuf_append_str(sb, e->value.u.b ? "true" : "false");
    } else {
        strbuf_append_char(sb, '\'');
        for (size_t i = 0; i < v.len; i++) {
            if (text[i] == '\'')
                strbuf_append_char(sb, '\'');
            strbuf_append_char(sb, text[i]);
        }
        strbuf_append_str(sb, "'::");
        sql_type_name(sb, e->type);
    }
    strbuf_free(&v);
}

static void deparse_list(StrBuf *sb, Expr **args, int n, const char *sep, const char *const *names)
{
    for (int i = 0; i < n; i++) {
        if (i)
            strbuf_append_str(sb, sep);
        deparse(sb, args[i], names);
    }
}

/* x IN (1, 2) prints as PostgreSQL's (x = ANY ('{1,2}'::integer[])). */
static void deparse_in(StrBuf *sb, const Expr *e, const char *const *names)
{
    strbuf_append_char(sb, '(');
    deparse(sb, e->args[0], names);
    strbuf_append_str(sb, e->negated ? " <> ALL (" : " = ANY (");
    bool consts = true;
    for (int i = 1; i < e->nargs; i++)
        consts &= e->args[i]->kind == EXPR_CONST;
    if (!consts) {
        strbuf_append_str(sb, "ARRAY[");
        deparse_list(sb, e->args + 1, e->nargs - 1, ", ", names);
        strbuf_append_str(sb, "]))");
        return;
    }
    strbuf_append_str(sb, "'{");
    OutputOptions opt = OUTPUT_OPTIONS_DEFAULT;
    for (int i = 1; i < e->nargs; i++) {
        const Expr *a = e->args[i];
        if (i > 1)
            strbuf_append_char(sb, ',');
        if (a->value.is_null) {
            strbuf_append_str(sb, "NULL");
            continue;
        }
        StrBuf v;
        strbuf_init(&v);
        type_output(a->type, &a->value, &opt, &v);
        bool quote = v.len == 0;
        for (size_t k = 0; k < v.len; k++)
            quote |= strchr(" ,{}\"\\'", v.data[k]) != NULL;
        if (quote)
            strbuf_append_char(sb, '"');
        for (size_t k = 0; k < v.len; k++) {
            if (v.data[k] == '"' || v.data[k] == '\\')
                strbuf_append_char(sb, '\\');
            if (v.data[k] == '\'')
                strbuf_append_char(sb, '\'');
            strbuf_append_char(sb, v.data[k]);
        }
        if (quote)
            strbuf_append_char(sb, '"');
        strbuf_free(&v);
    }
    strbuf_append_str(sb, "}'::");
    sql_type_name(sb, e->args[0]->type);
    strbuf_append_str(sb, "[]))");
}

static void deparse(StrBuf *sb, const Expr *e, const char *const *names)
{
    switch (e->kind) {
    case EXPR_CONST: deparse_const(sb, e); return;
    case EXPR_COLUMN:
    case EXPR_AGG_RESULT:
        if (names && e->index >= 0 && names[e->index])
            strbuf_append_str(sb, names[e->index]);
        else
            strbuf_printf(sb, "$col%d", e->index + 1);
        return;
    case EXPR_PARAM: strbuf_printf(sb, "$%d", e->index + 1); return;
    case EXPR_FUNC:
        if (e->func->name[0] == '[') {   /* a[i], a[i:j] */
            bool col = e->args[0]->kind == EXPR_COLUMN;
            strbuf_append_str(sb, col ? "" : "(");
            deparse(sb, e->args[0], names);
            strbuf_append_str(sb, col ? "[" : ")[");
            deparse(sb, e->args[1], names);
            if (e->nargs > 2) {
                strbuf_append_char(sb, ':');
                deparse(sb, e->args[2], names);
            }
            strbuf_append_char(sb, ']');
            return;
        }
        if (is_operator(e->func->name) && e->nargs <= 2) {
            strbuf_append_char(sb, '(');
            if (e->nargs == 2) {
                deparse(sb, e->args[0], names);
                strbuf_append_char(sb, ' ');
            }
            strbuf_printf(sb, "%s ", e->func->name);
            deparse(sb, e->args[e->nargs - 1], names);
            strbuf_append_char(sb, ')');
            return;
        }
        strbuf_printf(sb, "%s(", e->func->name);
        deparse_list(sb, e->args, e->nargs, ", ", names);
        strbuf_append_char(sb, ')');
        return;
    case EXPR_CAST:
        strbuf_append_char(sb, '(');
        deparse(sb, e->args[0], names);
        strbuf_append_str(sb, ")::");
        sql_type_name(sb, e->type);
        return;
    case EXPR_AND:
    case EXPR_OR:
        strbuf_append_char(sb, '(');
        deparse_list(sb, e->args, e->nargs, e->kind == EXPR_AND ? " AND " : " OR ", names);
        strbuf_append_char(sb, ')');
        return;
    case EXPR_NOT:
        strbuf_append_str(sb, "(NOT ");
        deparse(sb, e->args[0], names);
        strbuf_append_char(sb, ')');
        return;
    case EXPR_IS_NULL:
    case EXPR_IS_NOT_NULL:
        strbuf_append_char(sb, '(');
        deparse(sb, e->args[0], names);
        strbuf_append_str(sb, e->kind == EXPR_IS_NULL ? " IS NULL)" : " IS NOT NULL)");
        return;
    case EXPR_CASE: {
        strbuf_append_str(sb, "CASE");
        int nw = (e->nargs - (e->has_else ? 1 : 0)) / 2;
        for (int i = 0; i < nw; i++) {
            strbuf_append_str(sb, " WHEN ");
            deparse(sb, e->args[2 * i], names);
            strbuf_append_str(sb, " THEN ");
            deparse(sb, e->args[2 * i + 1], names);
        }
        if (e->has_else) {
            strbuf_append_str(sb, " ELSE ");
            deparse(sb, e->args[e->nargs - 1], names);
        }
        strbuf_append_str(sb, " END");
        return;
    }
    case EXPR_IN_LIST: deparse_in(sb, e, names); return;
    case EXPR_SUBPLAN:
        strbuf_printf(sb, "(%s %d)", e->nargs > 0 ? "SubPlan" : "InitPlan", e->subplan_id + 1);
        return;
    case EXPR_OUTER_REF: strbuf_printf(sb, "$outer%d", e->index + 1); return;
    case EXPR_SRF:
        strbuf_printf(sb, "%s(", e->name ? e->name : "srf");
        deparse_list(sb, e->args, e->nargs, ", ", names);
        strbuf_append_char(sb, ')');
        return;
    case EXPR_ARRAY:
        strbuf_append_str(sb, "ARRAY[");
        deparse_list(sb, e->args, e->nargs, ", ", names);
        strbuf_append_char(sb, ']');
        return;
    }
}

char *plan__deparse(MemArena *a, const Expr *e, const char *const *colnames)
{
    StrBuf sb;
    strbuf_init(&sb);
    deparse(&sb, e, colnames);
    char *s = mem_strndup(a, sb.data ? sb.data : "", sb.len);
    strbuf_free(&sb);
    return s;
}

/* ---- the tree ---- */

typedef struct Explainer {
    Binder *b;
    List *lines;
    int *title_line;                  /* per node_id: index of its title line, -1 none */
    int nnodes;
    bool *cte_shown;                  /* per cte_id: its plan printed already */
    const StoreTable *insert_target;  /* INSERT's table: a scan of it gets alias "<t>_1" */
    const PlanNode *agg_keys;         /* an agg_derived Project: its Agg's Group Key */
} Explainer;

static void line(Explainer *x, int indent, const char *arrow, const char *fmt, const char *text)
{
    char *s = mem_printf(x->b->arena, "%*s%s%s%s", indent, "", arrow, fmt, text ? text : "");
    x->lines = list_append(x->b->arena, x->lines, s);
}

static void prop(Explainer *x, int col, const char *label, const Expr *e, const char *const *names)
{
    if (!e)
        return;
    line(x, col + 2, "", label, plan__deparse(x->b->arena, e, names));
}

static void node(Explainer *x, const PlanNode *n, int col, bool arrow);

static void child(Explainer *x, const PlanNode *n, int col)
{
    node(x, n, col + 2, true);
}

static const char *scan_title(Explainer *x, const PlanNode *n)
{
    const Binder *b = x->b;
    for (int i = 0; i < b->nrtes; i++) {
        if (!b->scan_nodes || b->scan_nodes[i] != n)
            continue;
        const RangeEntry *r = b->rtes[i];
        if (strcmp(r->refname, r->relname) != 0)
            return mem_printf(b->arena, "Seq Scan on %s %s", r->relname, r->refname);
        if (n->table == x->insert_target) /* PostgreSQL's unique alias for a second use */
            return mem_printf(b->arena, "Seq Scan on %s %s_1", r->relname, r->relname);
        return mem_printf(b->arena, "Seq Scan on %s", r->relname);
    }
    return mem_printf(b->arena, "Seq Scan on %s", store_table_name(n->table));
}

/* Scan filters print unqualified column names (PostgreSQL's show_scan_qual). */
static const char *const *scan_names(Explainer *x, const PlanNode *n)
{
    const char **names = MEM_NEW_ARRAY(x->b->arena, const char *, n->ncols + 1);
    for (int k = 0; k < n->ncols; k++)   /* a locator (STORE_COL_ROWID) is PostgreSQL's ctid */
        names[k] = n->scan_cols[k] < 0 ? "ctid" : store_table_column(n->table, n->scan_cols[k])->name;
    const Binder *b = x->b;
    for (int i = 0; i < b->nrtes; i++)
        if (b->scan_nodes && b->scan_nodes[i] == n)
            for (int k = 0; k < n->ncols; k++)
                if (n->scan_cols[k] >= 0)
                    names[k] = b->rtes[i]->colnames[n->scan_cols[k]];
    return names;
}

static const char *join_keys(Explainer *x, const PlanNode *n)
{
    StrBuf sb;
    strbuf_init(&sb);
    if (n->nkeys > 1)
        strbuf_append_char(&sb, '(');
    for (int i = 0; i < n->nkeys; i++) {
        if (i)
            strbuf_append_str(&sb, " AND ");
        strbuf_append_char(&sb, '(');
        deparse(&sb, n->left_keys[i], n->left->col_names);
        strbuf_append_str(&sb, " = ");
        deparse(&sb, n->right_keys[i], n->right->col_names);
        strbuf_append_char(&sb, ')');
    }
    if (n->nkeys > 1)
        strbuf_append_char(&sb, ')');
    char *s = mem_strndup(x->b->arena, sb.data ? sb.data : "", sb.len);
    strbuf_free(&sb);
    return s;
}

static bool simple_name(const char *s)
{
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_' && *s != '.' && *s != '"' && *s != '$')
            return false;
    return true;
}

static const char *key_list(Explainer *x, const PlanNode *n, bool sort)
{
    StrBuf sb;
    strbuf_init(&sb);
    int count = sort ? n->nsort : n->kind == PLAN_AGG ? n->ngroups : n->ncols;
    for (int i = 0; i < count; i++) {
        if (i)
            strbuf_append_str(&sb, ", ");
        int c = sort ? n->sort_keys[i].column : i;
        bool child_ref = sort || n->kind != PLAN_AGG;
        bool wrap = sort;
        const char *nm = child_ref ? n->left->col_names[c] : n->col_names[c];
        if (!nm)
            nm = "?";
        /* a reference to a computed child column prints parenthesized, as PostgreSQL's get_variable */
        if (wrap && !simple_name(nm))
            strbuf_printf(&sb, "(%s)", nm);
        else
            strbuf_append_str(&sb, nm);
        if (sort) {
            const SortKey *k = &n->sort_keys[i];
            if (k->descending)
                strbuf_append_str(&sb, " DESC");
            if (k->nulls_first != k->descending)
                strbuf_append_str(&sb, k->nulls_first ? " NULLS FIRST" : " NULLS LAST");
        }
    }
    char *s = mem_strndup(x->b->arena, sb.data ? sb.data : "", sb.len);
    strbuf_free(&sb);
    return s;
}

/* The Group Key as written: with GROUP BY items computed per group above
 * the aggregate (plan_select.c agg_derived), all of them, as PostgreSQL. */
static const char *derived_keys(Explainer *x, const PlanNode *agg)
{
    const PlanNode *p = x->agg_keys;
    x->agg_keys = NULL;
    if (!p || p->left != agg)
        return key_list(x, agg, false);
    StrBuf sb;
    strbuf_init(&sb);
    for (int i = 0; i < p->ncols - agg->naggs; i++)
        strbuf_printf(&sb, "%s%s", i ? ", " : "", p->col_names[i] ? p->col_names[i] : "?");
    char *s = mem_strndup(x->b->arena, sb.data ? sb.data : "", sb.len);
    strbuf_free(&sb);
    return s;
}

static void agg_node(Explainer *x, const PlanNode *n, int col, const char *arrow, const Expr *having,
                     const char *const *having_names)
{
    line(x, col - (int)strlen(arrow), arrow, n->ngroups > 0 ? "HashAggregate" : "Aggregate", NULL);
    if (n->ngroups > 0)
        line(x, col + 2, "", "Group Key: ", derived_keys(x, n));
    prop(x, col, "Filter: ", having, having_names);
    child(x, n->left, col);
}

static const char *join_word(PlanJoinType t)
{
    static const char *words[] = {"", "Left ", "Right ", "Full ", "Semi ", "Anti ", "Anti ", "Mark "};
    return words[t];
}

/* Names of the concatenated row a join filter reads: left's, then right's. */
static const char *const *joined_names(Explainer *x, const PlanNode *n)
{
    int nl = n->left->ncols, nr = n->right->ncols;
    const char **names = MEM_NEW_ARRAY(x->b->arena, const char *, nl + nr + 1);
    memcpy(names, n->left->col_names, sizeof(char *) * (size_t)nl);
    memcpy(names + nl, n->right->col_names, sizeof(char *) * (size_t)nr);
    return names;
}

static const char *window_title(Explainer *x, const PlanNode *n)
{
    (void)x;
    return n->npartition > 0 || n->nwin_order > 0 ? "WindowAgg" : "WindowAgg";
}

/* The plan kinds added for issue 4. */
static void node_more(Explainer *x, const PlanNode *n, int pre, int at, const char *arrow, const Expr *filter)
{
    switch (n->kind) {
    case PLAN_APPEND:
        line(x, pre, arrow, "Append", NULL);
        for (int i = 0; i < n->nchildren; i++)
            child(x, n->children[i], at);
        return;
    case PLAN_SETOP:
        line(x, pre, arrow,
             mem_printf(x->b->arena, "HashSetOp %s%s", n->setop == SETOP_INTERSECT ? "Intersect" : "Except",
                        n->setop_all ? " All" : ""), NULL);
        child(x, n->left, at);
        child(x, n->right, at);
        return;
    case PLAN_WINDOW:
        line(x, pre, arrow, window_title(x, n), NULL);
        child(x, n->left, at);
        return;
    case PLAN_CTE_SCAN:
        line(x, pre, arrow, "CTE Scan on ", n->alias ? n->alias : "?");
        if (filter)
            prop(x, at, "Filter: ", filter, n->col_names);
        if (!x->cte_shown || !x->cte_shown[n->cte_id]) {
            if (x->cte_shown)
                x->cte_shown[n->cte_id] = true;
            line(x, at + 2, "", "CTE ", n->alias ? n->alias : "?");
            child(x, n->cte_plan, at + 2);
        }
        return;
    case PLAN_RECURSIVE_UNION:
        line(x, pre, arrow, "Recursive Union", NULL);
        child(x, n->left, at);
        child(x, n->right, at);
        return;
    case PLAN_WORKTABLE_SCAN:
        line(x, pre, arrow, "WorkTable Scan on ", n->alias ? n->alias : "?");
        if (filter)
            prop(x, at, "Filter: ", filter, n->col_names);
        return;
    case PLAN_PROJECT_SET:
        line(x, pre, arrow, "ProjectSet", NULL);
        child(x, n->left, at);
        return;
    case PLAN_FUNCTION_SCAN:
        line(x, pre, arrow, "Function Scan on ", n->alias ? n->alias : "function");
        if (filter)
            prop(x, at, "Filter: ", filter, n->col_names);
        return;
    default:
        return;
    }
}

static void node_body(Explainer *x, const PlanNode *n, int col, bool has_arrow);

/* "SubPlan N" / "InitPlan N" sections for the subqueries an expression runs. */
static void subplans_of(Explainer *x, const Expr *e, int at)
{
    if (!e)
        return;
    if (e->kind == EXPR_SUBPLAN && e->subplan) {
        line(x, at + 2, "", e->nargs > 0 ? "SubPlan " : "InitPlan ", mem_printf(x->b->arena, "%d", e->subplan_id + 1));
        child(x, e->subplan, at + 2);
    }
    for (int i = 0; i < e->nargs; i++)
        subplans_of(x, e->args[i], at);
}

static void node(Explainer *x, const PlanNode *n, int col, bool has_arrow)
{
    node_body(x, n, col, has_arrow);
    int at = col + (has_arrow ? 4 : 0);
    subplans_of(x, n->scan_filter, at);
    subplans_of(x, n->predicate, at);
    subplans_of(x, n->join_filter, at);
    for (int i = 0; (n->kind == PLAN_PROJECT || n->kind == PLAN_PROJECT_SET) && i < n->ncols; i++)
        subplans_of(x, n->exprs[i], at);
}

static void node_body(Explainer *x, const PlanNode *n, int col, bool has_arrow)
{
    if (x->title_line && n->kind != PLAN_PROJECT && n->node_id >= 0 && n->node_id < x->nnodes)
        x->title_line[n->node_id] = list_len(x->lines);
    const char *arrow = has_arrow ? "->  " : "";
    int at = col + (has_arrow ? 4 : 0);   /* column of the node's name */
    int pre = col;
    switch (n->kind) {
    case PLAN_PROJECT:
        if (n->left->kind == PLAN_PROJECT_SET) {   /* computing over SRF results: PostgreSQL's Result */
            bool computed = false;
            for (int i = 0; i < n->ncols; i++)
                computed |= n->exprs[i]->kind != EXPR_COLUMN;
            if (computed) {
                if (x->title_line && n->node_id >= 0 && n->node_id < x->nnodes)
                    x->title_line[n->node_id] = list_len(x->lines);
                line(x, pre, arrow, "Result", NULL);
                child(x, n->left, at);
                return;
            }
        }
        if (n->agg_derived)
            x->agg_keys = n;
        node(x, n->left, col, has_arrow);
        return;
    case PLAN_FILTER:
        if (n->left->kind == PLAN_CTE_SCAN || n->left->kind == PLAN_FUNCTION_SCAN ||
            n->left->kind == PLAN_WORKTABLE_SCAN) {   /* a filter on a scan shows on the scan */
            if (x->title_line && n->left->node_id < x->nnodes)
                x->title_line[n->left->node_id] = -1;
            node_more(x, n->left, pre, at, arrow, n->predicate);
            return;
        }
        if (n->left->kind == PLAN_AGG) {
            agg_node(x, n->left, at, arrow, n->predicate, n->left->col_names);
            return;
        }
        if (n->left->kind == PLAN_PROJECT && n->left->agg_derived) {
            /* GROUP BY items computed per group (plan_select.c agg_derived) */
            x->agg_keys = n->left;
            agg_node(x, n->left->left, at, arrow, n->predicate, n->left->col_names);
            return;
        }
        line(x, pre, arrow, "Result", NULL);
        prop(x, at, "One-Time Filter: ", n->predicate, n->left->col_names);
        /* a constant-false filter: PostgreSQL plans no input at all */
        if ((n->left->kind != PLAN_VALUES || n->left->nrows != 1) && n->predicate->kind != EXPR_CONST)
            child(x, n->left, at);
        return;
    case PLAN_SCAN:
        line(x, pre, arrow, scan_title(x, n), NULL);
        prop(x, at, "Filter: ", n->scan_filter, scan_names(x, n));
        return;
    case PLAN_VALUES:
        line(x, pre, arrow, n->nrows == 1 ? "Result" : "Values Scan on \"*VALUES*\"", NULL);
        return;
    case PLAN_AGG:
        agg_node(x, n, at, arrow, NULL, NULL);
        return;
    case PLAN_HASH_JOIN:
        line(x, pre, arrow, mem_printf(x->b->arena, "Hash %sJoin", join_word(n->join_type)), NULL);
        line(x, at + 2, "", "Hash Cond: ", join_keys(x, n));
        prop(x, at, "Join Filter: ", n->join_filter, joined_names(x, n));
        child(x, n->left, at);
        line(x, at + 2, "->  ", "Hash", NULL);
        child(x, n->right, at + 6);
        return;
    case PLAN_NESTED_LOOP:
        line(x, pre, arrow,
             n->join_type == PJOIN_INNER ? "Nested Loop"
                                         : mem_printf(x->b->arena, "Nested Loop %sJoin", join_word(n->join_type)),
             NULL);
        prop(x, at, "Join Filter: ", n->join_filter, joined_names(x, n));
        child(x, n->left, at);
        child(x, n->right, at);
        return;
    case PLAN_SORT:
        line(x, pre, arrow, "Sort", NULL);
        line(x, at + 2, "", "Sort Key: ", key_list(x, n, true));
        child(x, n->left, at);
        return;
    case PLAN_LIMIT:
        line(x, pre, arrow, "Limit", NULL);
        child(x, n->left, at);
        return;
    case PLAN_DISTINCT:
        line(x, pre, arrow, "HashAggregate", NULL);
        line(x, at + 2, "", "Group Key: ", key_list(x, n, false));
        child(x, n->left, at);
        return;
    case PLAN_INSERT:
        x->insert_target = n->target;
        line(x, pre, arrow, "Insert on ", store_table_name(n->target));
        if (n->on_conflict) {   /* ON CONFLICT (seq): the arbiter is the primary key */
            line(x, at + 2, "", "Conflict Resolution: ", n->on_conflict == 'u' ? "UPDATE" : "NOTHING");
            if (n->on_conflict != 'a')   /* 'a': DO NOTHING without a target */
                line(x, at + 2, "", "Conflict Arbiter Indexes: ",
                     mem_printf(x->b->arena, "%s_pkey", store_table_name(n->target)));
        }
        child(x, n->left, at);
        return;
    default:
        node_more(x, n, pre, at, arrow, NULL);
        return;
    }
}

List *plan__explain(Binder *b, const Plan *plan)
{
    Explainer x = {b, NULL, NULL, 0, NULL, NULL, NULL};
    x.cte_shown = MEM_NEW_ARRAY(b->arena, bool, plan->nctes + 1);
    node(&x, plan->root, 0, false);
    return x.lines;
}

/* What EXPLAIN ANALYZE keeps from plan time: the lines and which node each
 * title line shows. */
typedef struct AnalyzeText {
    int nlines;
    const char **lines;
    int *title_line;
    int nnodes;
} AnalyzeText;

/* ---------- EXPLAIN ANALYZE's "Kernels:" line (issue 7) ----------
 *
 * One line under a node's own properties naming the specialised paths that
 * ran (PlanNodeStats.kernels, filled by the executor), in PlanKernel order:
 *
 *   ->  Seq Scan on hits  (actual rows=...)
 *         Filter: (adv <> 0)
 *         Kernels: avx2 filter i16 <> const, zone maps skipped 3 row groups
 *
 * Names and meanings: executor/README.md "Kernels in EXPLAIN ANALYZE".
 * Nodes with nothing to say get no line; plain EXPLAIN never has one. */
static const char *const kern_names[PLAN_KERN_COUNT] = {
    [PLAN_KERN_FILTER_REST] = "other conjuncts on selected rows",
    [PLAN_KERN_FILTER_EXPR] = "expression filter",
    [PLAN_KERN_FILTER_ALLPASS] = "all-pass batches",
    [PLAN_KERN_SCAN_LOOKUP] = "primary-key lookup",
    [PLAN_KERN_AGG_ONE_GROUP] = "one group",
    [PLAN_KERN_AGG_HASH_FIXED] = "hash table (fixed-width keys)",
    [PLAN_KERN_AGG_HASH_STR] = "hash table (string keys)",
    [PLAN_KERN_AGG_GSETS] = "grouping sets",
    [PLAN_KERN_AGG_COUNT_STAR] = "count(*) by batch size",
    [PLAN_KERN_AGG_REG_COUNT] = "register count",
    [PLAN_KERN_AGG_REG_SUM] = "register sum i16/i32",
    [PLAN_KERN_AGG_SUM64_FAST] = "int8 sum (no overflow)",
    [PLAN_KERN_AGG_SUM64_EXACT] = "int8 sum (exact split)",
    [PLAN_KERN_AGG_REG_MINMAX] = "register min/max",
    [PLAN_KERN_AGG_REG_FSUM] = "float sum in row order",
    [PLAN_KERN_AGG_SCATTER] = "per-group update loops",
    [PLAN_KERN_AGG_DISTINCT] = "distinct value set",
    [PLAN_KERN_AGG_FILTER] = "FILTER selection",
    [PLAN_KERN_AGG_ORDERED] = "ORDER BY buffer",
    [PLAN_KERN_AGG_GENERIC] = "registry aggregate",
    [PLAN_KERN_AGG_SHARED] = "shared sum states",
    [PLAN_KERN_AGG_ADD_CONST] = "sum(x + c) folded",
    [PLAN_KERN_AGG_METADATA] = "metadata fold",
    [PLAN_KERN_SORT_FULL] = "merge sort",
    [PLAN_KERN_SORT_TOPN] = "top-N quickselect",
    [PLAN_KERN_SORT_BOUND] = "bound filter",
    [PLAN_KERN_SORT_BOUND_ONE] = "bound filter (one integer key)",
    [PLAN_KERN_SORT_LATE] = "late materialisation",
    [PLAN_KERN_HJ_CHAINS] = "hash chains",
    [PLAN_KERN_HJ_FIRST_MATCH] = "first-match probe",
    [PLAN_KERN_HJ_NULL_CHECK] = "null-aware check",
    [PLAN_KERN_CLONE_AVX2] = "avx2 clones",
    [PLAN_KERN_CLONE_DEFAULT] = "default clones",
};

static bool kbit(uint64_t k, PlanKernel b)
{
    return (k >> b) & 1;
}

/* The fused scan filter: "<variant> filter <type> <op> const". */
static void kern_filter(StrBuf *sb, uint64_t k)
{
    static const char *const ops[] = {"=", "<>", "<", "<=", ">", ">="};
    static const char *const types[] = {"i16", "i32", "i64", "text"};
    const char *op = "?", *type = "?";
    for (int i = 0; i < 6; i++)
        if (kbit(k, (PlanKernel)(PLAN_KERN_CMP_EQ + i)))
            op = ops[i];
    for (int i = 0; i < 4; i++)
        if (kbit(k, (PlanKernel)(PLAN_KERN_CMP_I16 + i)))
            type = types[i];
    const char *variant = kbit(k, PLAN_KERN_FILTER_AVX2) ? "avx2" : kbit(k, PLAN_KERN_FILTER_PACKED) ? "packed" : "length";
    strbuf_printf(sb, "%s filter %s %s %s", variant, type, op, kbit(k, PLAN_KERN_CMP_TEXT) ? "''" : "const");
}

/* The Kernels line's text, or NULL when the node has nothing to say. */
static const char *kern_text(const PlanNodeStats *st, MemArena *arena)
{
    uint64_t k = st->kernels;
    if (k == 0 && st->groups_skipped == 0 && st->groups_summarised == 0)
        return NULL;
    StrBuf sb;
    strbuf_init(&sb);
    const char *sep = "";
    if (k & (PLAN_KERN(PLAN_KERN_FILTER_AVX2) | PLAN_KERN(PLAN_KERN_FILTER_PACKED) | PLAN_KERN(PLAN_KERN_FILTER_LENGTH))) {
        kern_filter(&sb, k);
        sep = ", ";
    }
    for (int b = 0; b < PLAN_KERN_COUNT; b++)
        if (kern_names[b] && kbit(k, (PlanKernel)b)) {
            strbuf_printf(&sb, "%s%s", sep, kern_names[b]);
            sep = ", ";
        }
    if (st->groups_summarised) {
        strbuf_printf(&sb, "%s%llu row groups from metadata", sep, (unsigned long long)st->groups_summarised);
        sep = ", ";
    }
    if (st->groups_skipped)
        strbuf_printf(&sb, "%szone maps skipped %llu row groups", sep, (unsigned long long)st->groups_skipped);
    const char *out = mem_printf(arena, "%s", sb.data ? sb.data : "");
    strbuf_free(&sb);
    return out;
}

/* Where a node's Kernels line goes: after the title line i and the
 * node's own properties (lines at the properties' column that are not a
 * child "->", a SubPlan/InitPlan or a CTE heading). *col = that column. */
static int kern_line_pos(const AnalyzeText *t, const int *node_of, int i, int *col)
{
    const char *s = t->lines[i];
    int c = (int)strspn(s, " ");
    if (strncmp(s + c, "->  ", 4) == 0)
        c += 4;
    *col = c + 2;
    int j = i + 1;
    for (; j < t->nlines && node_of[j] < 0; j++) {
        const char *p = t->lines[j];
        if ((int)strspn(p, " ") != c + 2)
            break;
        p += c + 2;
        if (strncmp(p, "->", 2) == 0 || strncmp(p, "SubPlan ", 8) == 0 || strncmp(p, "InitPlan ", 9) == 0 ||
            strncmp(p, "CTE ", 4) == 0)
            break;
    }
    return j;
}

/* UtilityStmt.explain_format: the plan text with each node's counters. */
static List *format_analyze(const Plan *plan, const PlanNodeStats *stats, double total_ms, MemArena *arena)
{
    const AnalyzeText *t = plan->planner_private;
    int *node_of = MEM_NEW_ARRAY(arena, int, t->nlines + 1);
    for (int i = 0; i < t->nlines; i++)
        node_of[i] = -1;
    for (int id = 0; id < t->nnodes; id++)
        if (t->title_line[id] >= 0 && t->title_line[id] < t->nlines && node_of[t->title_line[id]] < 0)
            node_of[t->title_line[id]] = id;
    /* kern_at[j]: the Kernels line to print before plan line j (j = nlines: at the end) */
    const char **kern_at = MEM_NEW_ARRAY(arena, const char *, t->nlines + 1);
    for (int i = 0; i < t->nlines; i++) {
        const char *k = node_of[i] >= 0 ? kern_text(&stats[node_of[i]], arena) : NULL;
        int col = 0, j = k ? kern_line_pos(t, node_of, i, &col) : 0;
        if (k && kern_at[j] == NULL)
            kern_at[j] = mem_printf(arena, "%*sKernels: %s", col, "", k);
    }
    List *out = NULL;
    for (int i = 0; i < t->nlines; i++) {
        const char *s = t->lines[i];
        int id = node_of[i];
        if (kern_at[i])
            out = list_append(arena, out, (void *)kern_at[i]);
        if (id >= 0) {
            const PlanNodeStats *st = &stats[id];
            s = mem_printf(arena, "%s  (actual rows=%llu loops=%llu batches=%llu time=%.3f ms%s)", s,
                           (unsigned long long)st->rows, (unsigned long long)st->loops,
                           (unsigned long long)st->batches, st->time_ms,
                           st->workers > 0 ? mem_printf(arena, " workers=%d %s", st->workers,
                                                        st->parallel_mode ? st->parallel_mode : "")
                                           : "");
        }
        out = list_append(arena, out, (void *)s);
    }
    if (kern_at[t->nlines])
        out = list_append(arena, out, (void *)kern_at[t->nlines]);
    out = list_append(arena, out, mem_printf(arena, "Execution Time: %.3f ms", total_ms));
    return out;
}

void plan__explain_analyze(Binder *b, const Plan *inner, UtilityStmt *u)
{
    Explainer x = {b, NULL, NULL, inner->nnodes, NULL, NULL, NULL};
    x.cte_shown = MEM_NEW_ARRAY(b->arena, bool, inner->nctes + 1);
    x.title_line = MEM_NEW_ARRAY(b->arena, int, inner->nnodes + 1);
    for (int i = 0; i < inner->nnodes; i++)
        x.title_line[i] = -1;
    node(&x, inner->root, 0, false);
    AnalyzeText *t = MEM_NEW(b->arena, AnalyzeText);
    t->nlines = list_len(x.lines);
    t->lines = MEM_NEW_ARRAY(b->arena, const char *, t->nlines + 1);
    for (int i = 0; i < t->nlines; i++)
        t->lines[i] = list_nth(x.lines, i);
    t->title_line = x.title_line;
    t->nnodes = inner->nnodes;
    ((Plan *)inner)->planner_private = t;
    u->kind = UTIL_EXPLAIN_ANALYZE;
    u->explain_plan = inner;
    u->explain_format = format_analyze;
}
