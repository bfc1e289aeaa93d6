/*
 * bind_window.c — window functions (PostgreSQL's parse_func.c window part
 * and planner's window planning).
 *
 * Binding: f(args) OVER (spec | w) becomes a marker expression
 * (EXPR_AGG_RESULT with negated = true, index = slot in Binder.wins) and a
 * BoundWin: the WindowCall with arguments in the binder's variable space
 * plus the index of its window specification. Identical specifications
 * (partition, order, frame) share one index, as in PostgreSQL. Named
 * windows (WINDOW w AS (...), OVER w, OVER (w ORDER BY ...)) are resolved
 * here with PostgreSQL's copy rules and 42P20 errors.
 *
 * Planning (plan__plan_windows, after Agg/HAVING, before the select list's
 * Project): per specification, a Project appends the partition keys, order
 * keys, function arguments and RANGE offset bounds to the input columns, a
 * Sort orders by (partition, order), and a PLAN_WINDOW appends the results;
 * the markers in the select list become references to those columns.
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"
#include "planner/select_int.h"

#include <string.h>

typedef struct WinName {
    const char *name;
    WinFuncKind kind;
    int min_args, max_args;
    uint32_t result;       /* 0: the first argument's type */
} WinName;

static const WinName win_names[] = {
    {"row_number", WIN_ROW_NUMBER, 0, 0, TYPE_INT8},
    {"rank", WIN_RANK, 0, 0, TYPE_INT8},
    {"dense_rank", WIN_DENSE_RANK, 0, 0, TYPE_INT8},
    {"percent_rank", WIN_PERCENT_RANK, 0, 0, TYPE_FLOAT8},
    {"cume_dist", WIN_CUME_DIST, 0, 0, TYPE_FLOAT8},
    {"ntile", WIN_NTILE, 1, 1, TYPE_INT4},
    {"lag", WIN_LAG, 1, 3, 0},
    {"lead", WIN_LEAD, 1, 3, 0},
    {"first_value", WIN_FIRST_VALUE, 1, 1, 0},
    {"last_value", WIN_LAST_VALUE, 1, 1, 0},
    {"nth_value", WIN_NTH_VALUE, 2, 2, 0},
};

static const WindowDef *named_window(Binder *b, const char *name, int loc)
{
    for (int i = 0; i < list_len(b->window_clause); i++) {
        const WindowDef *w = list_nth(b->window_clause, i);
        if (w->name && strcmp(w->name, name) == 0)
            return w;
    }
    plan__error_at(b, ERRCODE_UNDEFINED_OBJECT, loc, "window \"%s\" does not exist", name);
}

/* Resolve OVER (w ...) against the WINDOW clause: partition from w, order
 * from w unless given, frame from the OVER. */
static void resolve_def(Binder *b, const WindowDef *over, List **part, List **order, int *fopts,
                        const Node **so, const Node **eo)
{
    if (over->name && !over->refname) {   /* OVER w: the named window as it is */
        const WindowDef *ref = named_window(b, over->name, over->node.location);
        *part = ref->partition_clause;
        *order = ref->order_clause;
        *fopts = ref->frame_options;
        *so = ref->start_offset;
        *eo = ref->end_offset;
        return;
    }
    *part = over->partition_clause;
    *order = over->order_clause;
    *fopts = over->frame_options;
    *so = over->start_offset;
    *eo = over->end_offset;
    if (!over->refname)
        return;
    const WindowDef *ref = named_window(b, over->refname, over->node.location);
    bool bare = !over->partition_clause && !over->order_clause &&
                !(over->frame_options & FRAMEOPTION_NONDEFAULT);
    if (over->partition_clause)
        plan__error_at(b, ERRCODE_WINDOWING_ERROR, over->node.location,
                       "cannot override PARTITION BY clause of window \"%s\"", over->refname);
    *part = ref->partition_clause;
    if (ref->order_clause) {
        if (over->order_clause)
            plan__error_at(b, ERRCODE_WINDOWING_ERROR, over->node.location,
                           "cannot override ORDER BY clause of window \"%s\"", over->refname);
        *order = ref->order_clause;
    }
    if (bare) {
        *fopts = ref->frame_options;
        *so = ref->start_offset;
        *eo = ref->end_offset;
    } else if (ref->frame_options & FRAMEOPTION_NONDEFAULT) {
        plan__error_at(b, ERRCODE_WINDOWING_ERROR, over->node.location,
                       "cannot copy window \"%s\" because it has a frame clause", over->refname);
    }
}

static Expr *bind_offset(Binder *b, const Node *n, FrameMode mode)
{
    if (!n)
        return NULL;
    const char *what = mode == FRAME_ROWS ? "ROWS" : mode == FRAME_GROUPS ? "GROUPS" : "RANGE";
    const char *saved = b->agg_forbidden;
    b->agg_forbidden = "window definition";
    Expr *e = plan__bind_expr(b, n);
    b->agg_forbidden = saved;
    if (plan__expr_has_vars(e))
        plan__error_at(b, ERRCODE_INVALID_COLUMN_REFERENCE, n->location,
                       "argument of %s must not contain variables", what);
    if (mode == FRAME_RANGE)
        return e;
    Expr *c = plan__coerce(b, e, SQLTYPE(TYPE_INT8), CAST_IMPLICIT);
    if (!c)
        plan__error_at(b, ERRCODE_DATATYPE_MISMATCH, n->location, "argument of %s must be type %s, not type %s",
                       what, "bigint", plan__type_name(b, e->type));
    return plan__fold(b, c);
}

static FrameBoundKind bound_kind(int o, bool start)
{
    if (o & (start ? FRAMEOPTION_START_UNBOUNDED_PRECEDING : FRAMEOPTION_END_UNBOUNDED_PRECEDING))
        return BOUND_UNBOUNDED_PRECEDING;
    if (o & (start ? FRAMEOPTION_START_UNBOUNDED_FOLLOWING : FRAMEOPTION_END_UNBOUNDED_FOLLOWING))
        return BOUND_UNBOUNDED_FOLLOWING;
    if (o & (start ? FRAMEOPTION_START_OFFSET_PRECEDING : FRAMEOPTION_END_OFFSET_PRECEDING))
        return BOUND_OFFSET_PRECEDING;
    if (o & (start ? FRAMEOPTION_START_OFFSET_FOLLOWING : FRAMEOPTION_END_OFFSET_FOLLOWING))
        return BOUND_OFFSET_FOLLOWING;
    return BOUND_CURRENT_ROW;
}

static void bind_frame(Binder *b, BoundWinSpec *s, int o, const Node *so, const Node *eo, int loc)
{
    WindowFrame *f = &s->frame;
    f->mode = (o & FRAMEOPTION_ROWS) ? FRAME_ROWS : (o & FRAMEOPTION_GROUPS) ? FRAME_GROUPS : FRAME_RANGE;
    f->start_kind = bound_kind(o, true);
    f->end_kind = (o & FRAMEOPTION_BETWEEN) || (o & FRAMEOPTION_NONDEFAULT) == 0 ? bound_kind(o, false)
                                                                                : BOUND_CURRENT_ROW;
    f->exclusion = (o & FRAMEOPTION_EXCLUDE_CURRENT_ROW) ? EXCLUDE_CURRENT_ROW
                   : (o & FRAMEOPTION_EXCLUDE_GROUP)     ? EXCLUDE_GROUP
                   : (o & FRAMEOPTION_EXCLUDE_TIES)      ? EXCLUDE_TIES
                                                         : EXCLUDE_NO_OTHERS;
    f->start_bound_col = f->end_bound_col = -1;
    f->start_offset = bind_offset(b, so, f->mode);
    f->end_offset = bind_offset(b, eo, f->mode);
    bool range_offset = f->mode == FRAME_RANGE && (f->start_offset || f->end_offset);
    if (f->mode == FRAME_GROUPS && s->norder == 0)
        plan__error_at(b, ERRCODE_WINDOWING_ERROR, loc, "GROUPS mode requires an ORDER BY clause");
    if (range_offset && s->norder != 1)
        plan__error_at(b, ERRCODE_WINDOWING_ERROR, loc,
                       "RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column");
}

static bool spec_equal(const BoundWinSpec *x, const BoundWinSpec *y)
{
    if (x->npart != y->npart || x->norder != y->norder || memcmp(&x->frame, &y->frame, sizeof x->frame) != 0)
        return false;
    for (int i = 0; i < x->npart; i++)
        if (!plan__expr_equal(x->part[i], y->part[i]))
            return false;
    for (int i = 0; i < x->norder; i++)
        if (!plan__expr_equal(x->order[i], y->order[i]) || x->dirs[i].descending != y->dirs[i].descending ||
            x->dirs[i].nulls_first != y->dirs[i].nulls_first)
            return false;
    return true;
}

static int bind_spec(Binder *b, const WindowDef *over)
{
    List *part, *order;
    int fopts;
    const Node *so, *eo;
    resolve_def(b, over, &part, &order, &fopts, &so, &eo);
    BoundWinSpec s = {0};
    const char *saved = b->agg_forbidden;
    b->agg_forbidden = NULL;
    b->in_window = true;
    s.npart = list_len(part);
    s.part = MEM_NEW_ARRAY(b->arena, Expr *, s.npart + 1);
    for (int i = 0; i < s.npart; i++)
        s.part[i] = plan__resolve_unknown(b, plan__bind_expr(b, list_nth(part, i)));
    s.norder = list_len(order);
    s.order = MEM_NEW_ARRAY(b->arena, Expr *, s.norder + 1);
    s.dirs = MEM_NEW_ARRAY(b->arena, SortKey, s.norder + 1);
    for (int i = 0; i < s.norder; i++) {
        const SortBy *sb = list_nth(order, i);
        s.order[i] = plan__resolve_unknown(b, plan__bind_expr(b, sb->node_expr));
        s.dirs[i].descending = sb->sortby_dir == SORTBY_DESC;
        s.dirs[i].nulls_first = sb->sortby_nulls == SORTBY_NULLS_DEFAULT ? s.dirs[i].descending
                                                                         : sb->sortby_nulls == SORTBY_NULLS_FIRST;
    }
    b->in_window = false;
    b->agg_forbidden = saved;
    bind_frame(b, &s, fopts, so, eo, over->node.location);
    for (int i = 0; i < b->nspecs; i++)
        if (spec_equal(&b->specs[i], &s))
            return i;
    b->specs = mem_realloc(b->arena, b->specs, sizeof(BoundWinSpec) * (size_t)b->nspecs,
                           sizeof(BoundWinSpec) * (size_t)(b->nspecs + 1));
    b->specs[b->nspecs] = s;
    return b->nspecs++;
}

static void bind_win_args(Binder *b, const FuncCall *fc, const WinName *wn, WindowCall *c)
{
    int n = list_len(fc->args);
    if (n < wn->min_args || n > wn->max_args || fc->agg_star)
        plan__error_hint(b, ERRCODE_UNDEFINED_FUNCTION, fc->node.location,
                         "No function matches the given name and argument types. You might need to add explicit type casts.",
                         "function %s(%s) does not exist", wn->name, n == 0 ? "" : "...");
    c->nargs = n;
    c->args = MEM_NEW_ARRAY(b->arena, Expr *, n + 1);
    for (int i = 0; i < n; i++)
        c->args[i] = plan__bind_expr(b, list_nth(fc->args, i));
    c->type = SQLTYPE(wn->result);
    if (wn->kind == WIN_NTILE || wn->kind == WIN_NTH_VALUE || ((wn->kind == WIN_LAG || wn->kind == WIN_LEAD) && n >= 2)) {
        int k = wn->kind == WIN_NTILE ? 0 : 1;
        Expr *x = plan__coerce(b, c->args[k], SQLTYPE(TYPE_INT4), CAST_IMPLICIT);
        if (!x)
            plan__error_at(b, ERRCODE_UNDEFINED_FUNCTION, fc->node.location,
                           "function %s(%s, %s) does not exist", wn->name,
                           plan__type_name(b, c->args[0]->type), plan__type_name(b, c->args[k]->type));
        c->args[k] = x;
    }
    if (wn->result == 0) {
        if (n == 3) {
            Expr *pair[2] = {c->args[0], c->args[2]};
            SqlType t = plan__common_type(b, pair, 2, "lag/lead");
            plan__coerce_all(b, pair, 2, t, "lag/lead");
            c->args[0] = pair[0];
            c->args[2] = pair[1];
        }
        c->args[0] = plan__resolve_unknown(b, c->args[0]);
        c->type = c->args[0]->type;
    }
}

Expr *plan__bind_window_call(Binder *b, const FuncCall *fc)
{
    int loc = fc->node.location;
    const char *name = list_nth(fc->funcname, list_len(fc->funcname) - 1);
    if (b->win_forbidden || b->agg_forbidden)
        plan__error_at(b, ERRCODE_WINDOWING_ERROR, loc, "window functions are not allowed in %s",
                       b->win_forbidden ? b->win_forbidden : b->agg_forbidden);
    if (b->in_agg)
        plan__error_at(b, ERRCODE_GROUPING_ERROR, loc,
                       "aggregate function calls cannot contain window function calls");
    if (b->in_window)
        plan__error_at(b, ERRCODE_WINDOWING_ERROR, loc, "window function calls cannot be nested");
    BoundWin w = {0};
    const WinName *wn = NULL;
    for (size_t i = 0; i < sizeof win_names / sizeof win_names[0] && !wn; i++)
        if (strcmp(win_names[i].name, name) == 0)
            wn = &win_names[i];
    b->in_window = true;
    if (wn) {
        if (fc->agg_distinct || fc->agg_order || fc->agg_filter)
            plan__error_at(b, ERRCODE_WRONG_OBJECT_TYPE, loc,
                           "%s is not an aggregate function: DISTINCT, ORDER BY and FILTER are not allowed", name);
        w.call.kind = wn->kind;
        bind_win_args(b, fc, wn, &w.call);
    } else if (exec_is_aggregate_name(name)) {
        if (fc->agg_distinct)
            plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, loc, "DISTINCT is not implemented for window functions");
        if (fc->agg_order)
            plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, loc,
                           "aggregate ORDER BY is not implemented for window functions");
        w.call.kind = WIN_AGG;
        b->in_window = false;
        bool saved_in_agg = b->in_agg;
        b->win_agg = true;
        plan__bind_agg_call(b, fc, &w.call.agg);
        b->in_agg = saved_in_agg;
        w.call.type = w.call.agg.type;
    } else {
        plan__error_at(b, ERRCODE_WRONG_OBJECT_TYPE, loc,
                       "OVER specified, but %s is not a window function nor an aggregate function", name);
    }
    b->in_window = false;
    w.call.display = name;
    w.spec = bind_spec(b, fc->over);
    w.location = loc;
    b->wins = mem_realloc(b->arena, b->wins, sizeof(BoundWin) * (size_t)b->nwins,
                          sizeof(BoundWin) * (size_t)(b->nwins + 1));
    b->wins[b->nwins] = w;
    Expr *e = plan__make_expr(b->arena, EXPR_AGG_RESULT, w.call.type, loc, 0);
    e->negated = true;
    e->index = b->nwins++;
    e->name = name;
    return e;
}
