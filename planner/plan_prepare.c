/*
 * plan_prepare.c — SQL-level prepared statements: PREPARE name [(types)] AS
 * stmt, EXECUTE name [(args)], DEALLOCATE [PREPARE] name | ALL.
 *
 * The statements live in the per-session state the caller hands over in
 * PlanContext.session_state (malloc'd, freed by DEALLOCATE or
 * plan_session_release at the end of the session). PREPARE plans the
 * statement once to check it and to infer the parameter types, then keeps
 * its SQL text and those types. EXECUTE binds the arguments (assignment
 * casts to the parameter types, as PostgreSQL's EXECUTE), parses the text
 * again and plans it with each $n replaced by its argument's value, so the
 * resulting plan needs no parameters and carries the executed statement's
 * own command tag. (No plan cache yet: every EXECUTE plans again.)
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"

#include <stdlib.h>
#include <string.h>
#include "parser/parser.h"

typedef struct Prepared {
    char *name;
    char *sql;
    int nparams;
    SqlType *types;
    struct Prepared *next;
} Prepared;

typedef struct SessionState {
    Prepared *prepared;
} SessionState;

static void prepared_free(Prepared *p)
{
    free(p->name);
    free(p->sql);
    free(p->types);
    free(p);
}

void plan_session_release(void **session_state)
{
    if (!session_state || !*session_state)
        return;
    SessionState *s = *session_state;
    while (s->prepared) {
        Prepared *p = s->prepared;
        s->prepared = p->next;
        prepared_free(p);
    }
    free(s);
    *session_state = NULL;
}

static SessionState *state(Binder *b, const char *what)
{
    void **slot = b->ctx->session_state;
    if (!slot)
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "%s is not supported in this context", what);
    if (!*slot) {
        *slot = calloc(1, sizeof(SessionState));
        if (!*slot)
            err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    }
    return *slot;
}

static Prepared *find(SessionState *s, const char *name)
{
    for (Prepared *p = s->prepared; p; p = p->next)
        if (strcmp(p->name, name) == 0)
            return p;
    return NULL;
}

static Plan *noop(Binder *b, const char *tag)
{
    Plan *p = plan__new_plan(b, PLAN_STMT_UTILITY, tag);
    p->utility = MEM_NEW(b->arena, UtilityStmt);
    p->utility->kind = UTIL_NOOP;
    return p;
}

Plan *plan__prepare(Binder *b, const RawStmt *raw, const PrepareStmt *s)
{
    SessionState *ss = state(b, "PREPARE");
    if (find(ss, s->name))
        err_raise(ERRCODE_DUPLICATE_PSTATEMENT, "prepared statement \"%s\" already exists", s->name);
    int n = list_len(s->argtypes);
    uint32_t *oids = MEM_NEW_ARRAY(b->arena, uint32_t, n + 1);
    for (int i = 0; i < n; i++)
        oids[i] = plan__resolve_type_name(b, list_nth(s->argtypes, i)).oid;
    const char *text = b->ctx->query_text;
    int start = ((const Node *)s->query)->location;
    if (!text || start < 0)
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "PREPARE needs the statement's text");
    size_t end = raw->stmt_len > 0 ? (size_t)(raw->stmt_location + raw->stmt_len) : strlen(text);
    while (end > (size_t)start && (text[end - 1] == ';' || text[end - 1] == ' ' || text[end - 1] == '\n'))
        end--;
    /* plan it now: errors surface at PREPARE, parameter types get inferred */
    PlanContext ctx = *b->ctx;
    ctx.param_types = oids;
    ctx.nparams = n;
    RawStmt inner = *raw;
    inner.stmt = s->query;
    Binder ib;
    plan__binder_init(&ib, &ctx);
    Plan *planned = plan__plan_raw(&ib, &inner);
    if (planned->kind == PLAN_STMT_UTILITY)
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "PREPARE of this statement is not supported");
    Prepared *p = calloc(1, sizeof *p);
    if (!p)
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    p->name = strdup(s->name);
    p->sql = strndup(text + start, end - (size_t)start);
    p->nparams = planned->nparams;
    p->types = calloc((size_t)planned->nparams + 1, sizeof(SqlType));
    if (!p->name || !p->sql || !p->types) {
        prepared_free(p);
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    }
    memcpy(p->types, planned->param_types, sizeof(SqlType) * (size_t)planned->nparams);
    p->next = ss->prepared;
    ss->prepared = p;
    return noop(b, "PREPARE");
}

Plan *plan__execute(Binder *b, const ExecuteStmt *s)
{
    SessionState *ss = state(b, "EXECUTE");
    Prepared *p = find(ss, s->name);
    if (!p)
        err_raise(ERRCODE_INVALID_SQL_STATEMENT_NAME, "prepared statement \"%s\" does not exist", s->name);
    int n = list_len(s->params);
    if (n != p->nparams) {
        ErrorData *e = err_begin(ERRCODE_SYNTAX_ERROR);
        err_message(e, "wrong number of parameters for prepared statement \"%s\"", s->name);
        err_detail(e, "Expected %d parameters but got %d.", p->nparams, n);
        err_throw();
    }
    Expr **args = MEM_NEW_ARRAY(b->arena, Expr *, n + 1);
    b->agg_forbidden = "EXECUTE parameter";
    for (int i = 0; i < n; i++) {
        const Node *x = list_nth(s->params, i);
        Expr *a = plan__bind_expr(b, x);
        Expr *c = plan__coerce(b, a, p->types[i], CAST_ASSIGNMENT);
        if (!c)
            plan__error_hint(b, ERRCODE_DATATYPE_MISMATCH, x->location,
                             "You will need to rewrite or cast the expression.",
                             "parameter $%d of type %s cannot be coerced to the expected type %s", i + 1,
                             plan__type_name(b, a->type), plan__type_name(b, p->types[i]));
        args[i] = plan__remap(b, plan__fold(b, c), NULL, 0);
    }
    b->agg_forbidden = NULL;
    char *sql = mem_strdup(b->arena, p->sql);
    List *stmts = parse_sql(b->arena, sql);
    PlanContext ctx = *b->ctx;
    ctx.query_text = sql;
    ctx.param_types = NULL;
    ctx.nparams = 0;
    Binder eb;
    plan__binder_init(&eb, &ctx);
    eb.param_subst = args;
    eb.nparam_subst = n;
    if (b->nparams > 0)
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "parameters in EXECUTE arguments are not supported");
    return plan__plan_raw(&eb, list_nth(stmts, 0));
}

Plan *plan__deallocate(Binder *b, const DeallocateStmt *s)
{
    SessionState *ss = state(b, "DEALLOCATE");
    if (!s->name) {
        while (ss->prepared) {
            Prepared *p = ss->prepared;
            ss->prepared = p->next;
            prepared_free(p);
        }
        return noop(b, "DEALLOCATE ALL");
    }
    for (Prepared **pp = &ss->prepared; *pp; pp = &(*pp)->next) {
        if (strcmp((*pp)->name, s->name) == 0) {
            Prepared *p = *pp;
            *pp = p->next;
            prepared_free(p);
            return noop(b, "DEALLOCATE");
        }
    }
    err_raise(ERRCODE_INVALID_SQL_STATEMENT_NAME, "prepared statement \"%s\" does not exist", s->name);
}
