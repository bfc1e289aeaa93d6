/*
 * planner.c — plan_statement(): the planner's entry point, binder set-up,
 * error reporting with positions, and parameter type bookkeeping.
 *
 * Every statement goes through here: SELECT and INSERT are bound and
 * planned (plan_select.c, plan_insert.c), EXPLAIN plans its query and
 * prints it (explain.c), the rest become UtilityStmt plans
 * (plan_utility.c).
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "parser/parser.h"

void plan__binder_init(Binder *b, const PlanContext *ctx)
{
    memset(b, 0, sizeof *b);
    b->ctx = ctx;
    b->arena = ctx->arena;
    b->query_text = ctx->query_text;
    b->nparams = ctx->nparams > 0 ? ctx->nparams : 0;
    b->param_cap = b->nparams + 8;
    b->param_types = MEM_NEW_ARRAY(b->arena, SqlType, b->param_cap);
    b->param_fixed = MEM_NEW_ARRAY(b->arena, bool, b->param_cap);
    b->param_nodes = MEM_NEW_ARRAY(b->arena, Expr *, b->param_cap);
    for (int i = 0; i < b->nparams; i++) {
        uint32_t t = ctx->param_types ? ctx->param_types[i] : TYPE_INVALID;
        b->param_fixed[i] = t != TYPE_INVALID && t != TYPE_UNKNOWN;
        b->param_types[i] = SQLTYPE(b->param_fixed[i] ? t : TYPE_UNKNOWN);
    }
}

int plan__pos(const Binder *b, int location)
{
    if (!b->query_text || location < 0)
        return 0;
    return parse_char_position(b->query_text, location);
}

static _Noreturn void raise_v(const Binder *b, const char *sqlstate, int location,
                              const char *hint, const char *fmt, va_list ap)
{
    char msg[ERR_MESSAGE_MAX];
    vsnprintf(msg, sizeof msg, fmt, ap);
    int pos = plan__pos(b, location);
    ErrorData *e = err_begin(sqlstate);
    err_message(e, "%s", msg);
    if (hint)
        err_hint(e, "%s", hint);
    e->position = pos;
    err_throw();
}

void plan__error_at(const Binder *b, const char *sqlstate, int location, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    raise_v(b, sqlstate, location, NULL, fmt, ap);
}

void plan__error_hint(const Binder *b, const char *sqlstate, int location, const char *hint,
                      const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    raise_v(b, sqlstate, location, hint, fmt, ap);
}

/* format_type spelling, in the plan arena (messages). */
const char *plan__type_name(const Binder *b, SqlType t)
{
    char buf[128];
    const char *s = type_format(t, buf, sizeof buf);
    return mem_strdup(b->arena, s ? s : "???");
}

Plan *plan__new_plan(Binder *b, PlanStmtKind kind, const char *command)
{
    Plan *p = MEM_NEW(b->arena, Plan);
    p->kind = kind;
    p->command = command;
    p->query_text = b->ctx->query_text;
    return p;
}

/*
 * Every parameter must have a type by now: given by the client, or
 * inferred from context (unknown in a select list became text). A $n
 * never referenced and not typed by the client is 42P18, as PostgreSQL.
 */
void plan__finish_params(Binder *b, Plan *plan)
{
    plan__finish_nodes(b, plan);
    plan->nparams = b->nparams;
    plan->param_types = MEM_NEW_ARRAY(b->arena, SqlType, b->nparams > 0 ? b->nparams : 1);
    for (int i = 0; i < b->nparams; i++) {
        SqlType t = b->param_types[i];
        if (t.oid == TYPE_UNKNOWN || t.oid == TYPE_INVALID)
            err_raise(ERRCODE_INDETERMINATE_DATATYPE,
                      "could not determine data type of parameter $%d", i + 1);
        plan->param_types[i] = t;
    }
}

static Plan *plan_query(Binder *b, const SelectStmt *s)
{
    SelectResult r = plan__plan_select(b, s);
    Plan *p = plan__new_plan(b, PLAN_STMT_QUERY, "SELECT");
    p->root = r.root;
    p->ncols = r.ncols;
    p->cols = r.cols;
    return p;
}

static Plan *plan_explain(Binder *b, const ExplainStmt *ex)
{
    b->explaining = !ex->analyze;
    Plan *inner;
    if (IS_A(ex->query, SelectStmt))
        inner = plan_query(b, (const SelectStmt *)ex->query);
    else if (IS_A(ex->query, InsertStmt))
        inner = plan__plan_insert(b, (const InsertStmt *)ex->query);
    else
        plan__error_at(b, ERRCODE_FEATURE_NOT_SUPPORTED, ex->query ? ((const Node *)ex->query)->location : -1,
                       "EXPLAIN of this statement is not supported");
    plan__finish_params(b, inner);
    Plan *p = plan__new_plan(b, PLAN_STMT_UTILITY, "EXPLAIN");
    UtilityStmt *u = MEM_NEW(b->arena, UtilityStmt);
    u->kind = UTIL_EXPLAIN;
    if (ex->analyze)
        plan__explain_analyze(b, inner, u);
    else
        u->explain_lines = plan__explain(b, inner);
    p->utility = u;
    p->ncols = 1;
    p->cols = MEM_NEW_ARRAY(b->arena, ResultColumn, 1);
    p->cols[0].name = "QUERY PLAN";
    p->cols[0].type = SQLTYPE(TYPE_TEXT);
    p->nparams = inner->nparams;
    p->param_types = inner->param_types;
    return p;
}

static Plan *plan_with(Binder *b, const RawStmt *stmt);

Plan *plan_statement(const PlanContext *ctx, const RawStmt *stmt)
{
    Binder b;
    plan__binder_init(&b, ctx);
    return plan_with(&b, stmt);
}

Plan *plan_statement_fixed_params(const PlanContext *ctx, const RawStmt *stmt)
{
    Binder b;
    plan__binder_init(&b, ctx);
    b.params_fixed = true;
    return plan_with(&b, stmt);
}

/* UNLISTEN name | *: Strata has no LISTEN, so a session never listens and
 * there is nothing to stop (connection poolers send UNLISTEN * between
 * clients); LISTEN and NOTIFY stay unsupported. */
static Plan *plan_unlisten(Binder *b)
{
    Plan *p = plan__new_plan(b, PLAN_STMT_UTILITY, "UNLISTEN");
    p->utility = MEM_NEW(b->arena, UtilityStmt);
    p->utility->kind = UTIL_NOOP;
    return p;
}

Plan *plan__plan_raw(Binder *b, const RawStmt *stmt)
{
    return plan_with(b, stmt);
}

static Plan *plan_with(Binder *b, const RawStmt *stmt)
{
    const Node *n = stmt->stmt;
    Plan *p;
    if (IS_A(n, SelectStmt) && plan__select_into((const SelectStmt *)n))
        p = plan__plan_select_into(b, (const SelectStmt *)n);   /* plan_ctas.c */
    else if (IS_A(n, SelectStmt))
        p = plan_query(b, (const SelectStmt *)n);
    else if (IS_A(n, InsertStmt))
        p = plan__plan_insert(b, (const InsertStmt *)n);
    else if (IS_A(n, UpdateStmt))
        p = plan__plan_update(b, (const UpdateStmt *)n);
    else if (IS_A(n, DeleteStmt))
        p = plan__plan_delete(b, (const DeleteStmt *)n);
    else if (IS_A(n, ExplainStmt))
        return plan_explain(b, (const ExplainStmt *)n);
    else if (IS_A(n, ExecuteStmt))
        return plan__execute(b, (const ExecuteStmt *)n);
    else if (IS_A(n, PrepareStmt))
        p = plan__prepare(b, stmt, (const PrepareStmt *)n);
    else if (IS_A(n, DeallocateStmt))
        p = plan__deallocate(b, (const DeallocateStmt *)n);
    else if (IS_A(n, UnlistenStmt))
        p = plan_unlisten(b);
    else
        p = plan__plan_utility(b, stmt, n);
    plan__finish_params(b, p);
    return p;
}

uint64_t plan_search_path_key(const PlanContext *ctx)
{
    Binder b;
    plan__binder_init(&b, ctx);
    const char *schemas[16];
    int n = plan__search_schemas(&b, schemas, 16);
    uint64_t h = 0xcbf29ce484222325ULL;   /* FNV-1a over the names, NUL-separated */
    for (int i = 0; i < n; i++)
        for (const char *p = schemas[i];; p++) {
            h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
            if (!*p)
                break;
        }
    return h ^ (uint64_t)n;
}
