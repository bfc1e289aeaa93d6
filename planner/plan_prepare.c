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
 *
 * Planning again follows DDL and search_path by itself; what PostgreSQL's
 * plan cache adds is its check when it re-plans after an invalidation: the
 * result columns (names, types, typmods) must be those PREPARE described,
 * else 0A000 "cached plan must not change result type". EXECUTE makes that
 * check when the catalog changed (store_catalog_epoch) or search_path did
 * since the statement was last known good. The kept text is the whole
 * client string up to the statement, blanked (one space per character)
 * but for the statement, so that an error's position is PostgreSQL's: it
 * re-analyses the PREPARE's whole query string.
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"

#include <stdlib.h>
#include <string.h>
#include "common/guc.h"
#include "parser/parser.h"
#include "storage/storage.h"

typedef struct Prepared {
    char *name;
    char *sql;
    int nparams;
    SqlType *types;
    int ncols;                /* result columns as PREPARE described them */
    SqlType *col_types;
    char **col_names;
    uint64_t catalog_epoch;   /* store_catalog_epoch() when last known good */
    char *search_path;        /* search_path then */
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
    for (int i = 0; p->col_names && i < p->ncols; i++)
        free(p->col_names[i]);
    free(p->col_names);
    free(p->col_types);
    free(p->search_path);
    free(p);
}

static const char *current_path(const Binder *b)
{
    const char *path = b->ctx->guc ? guc_search_path(b->ctx->guc) : NULL;
    return path ? path : "";
}

/* text[0, end) with every character before start blanked to one space. */
static char *blank_prefix(const char *text, size_t start, size_t end)
{
    size_t nchars = 0;
    for (size_t i = 0; i < start; i++)
        nchars += ((unsigned char)text[i] & 0xC0) != 0x80;
    char *out = malloc(nchars + (end - start) + 1);
    if (!out)
        return NULL;
    memset(out, ' ', nchars);
    memcpy(out + nchars, text + start, end - start);
    out[nchars + (end - start)] = '\0';
    return out;
}

/* Keep what PREPARE's plan describes (false: out of memory). */
static bool keep_result(Prepared *p, const Plan *planned, const char *path)
{
    p->ncols = planned->ncols;
    p->col_types = calloc((size_t)p->ncols + 1, sizeof(SqlType));
    p->col_names = calloc((size_t)p->ncols + 1, sizeof(char *));
    p->search_path = strdup(path);
    if (!p->col_types || !p->col_names || !p->search_path)
        return false;
    for (int i = 0; i < p->ncols; i++) {
        p->col_types[i] = planned->cols[i].type;
        if (!(p->col_names[i] = strdup(planned->cols[i].name ? planned->cols[i].name : "")))
            return false;
    }
    return true;
}

/* PostgreSQL's equalTupleDescs on the result: names, types, typmods. */
static bool same_result(const Prepared *p, const Plan *plan)
{
    if (plan->ncols != p->ncols)
        return false;
    for (int i = 0; i < p->ncols; i++)
        if (plan->cols[i].type.oid != p->col_types[i].oid ||
            plan->cols[i].type.typmod != p->col_types[i].typmod ||
            strcmp(plan->cols[i].name ? plan->cols[i].name : "", p->col_names[i]) != 0)
            return false;
    return true;
}

/* After EXECUTE planned p's text again: when DDL or search_path moved
 * since p was last known good (epoch read before planning), the columns
 * must be PREPARE's (0A000 otherwise, and again at every later EXECUTE
 * until they match once more). */
static void check_replan(Binder *b, Prepared *p, const Plan *plan, uint64_t epoch)
{
    const char *path = current_path(b);
    if (epoch == p->catalog_epoch && strcmp(path, p->search_path) == 0)
        return;
    if (!same_result(p, plan))
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "cached plan must not change result type");
    char *copy = strdup(path);
    if (!copy)
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    free(p->search_path);
    p->search_path = copy;
    p->catalog_epoch = epoch;
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
    uint64_t epoch = store_catalog_epoch();   /* before: DDL meanwhile is checked */
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
    p->sql = blank_prefix(text, (size_t)start, end);
    p->nparams = planned->nparams;
    p->types = calloc((size_t)planned->nparams + 1, sizeof(SqlType));
    p->catalog_epoch = epoch;
    if (!p->name || !p->sql || !p->types || !keep_result(p, planned, current_path(b))) {
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
    uint64_t epoch = store_catalog_epoch();   /* before planning, as PREPARE */
    Plan *plan = plan__plan_raw(&eb, list_nth(stmts, 0));
    check_replan(b, p, plan, epoch);
    return plan;
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
