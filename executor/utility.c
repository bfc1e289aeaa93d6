/*
 * utility.c — statements that are not queries: DDL (CREATE TABLE [AS],
 * SELECT ... INTO, DROP TABLE), transaction control, settings, EXPLAIN and
 * ALTER ROLE, with PostgreSQL's notices, errors and command tags.
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

#include <stdio.h>
#include <string.h>
#include "common/error.h"
#include "common/password.h"

#define SCHEMA_NAME_MAX 128

/* Relations are looked up in the session's temporary schema first when
 * search_path does not name it (PostgreSQL's implicit pg_temp). */
static int temp_schema_first(char out[][SCHEMA_NAME_MAX], int n, int max)
{
    const char *own = store_session_temp_schema(false);
    if (!own || max <= 0)
        return n;
    for (int i = 0; i < n; i++)
        if (strcmp(out[i], own) == 0)
            return n;
    if (n == max)
        n--;
    memmove(out[1], out[0], sizeof out[0] * (size_t)n);
    snprintf(out[0], SCHEMA_NAME_MAX, "%s", own);
    return n + 1;
}

/*
 * The schemas of search_path in order ("$user" = the session user), only
 * those that exist; with_temp: the session's temporary schema first when
 * search_path does not name it. Returns how many were written to out.
 */
static int search_path_schemas(ExecSession *s, char out[][SCHEMA_NAME_MAX], int max, bool with_temp)
{
    const char *sp = guc_search_path(s->guc);
    int n = 0;
    while (sp && *sp && n < max) {
        while (*sp == ' ' || *sp == ',')
            sp++;
        const char *end = strchr(sp, ',');
        size_t len = end ? (size_t)(end - sp) : strlen(sp);
        while (len > 0 && sp[len - 1] == ' ')
            len--;
        char name[SCHEMA_NAME_MAX];
        const char *p = sp;
        if (len >= 2 && p[0] == '"' && p[len - 1] == '"') {
            p++;
            len -= 2;
        }
        if (len > 0 && len < SCHEMA_NAME_MAX) {
            memcpy(name, p, len);
            name[len] = '\0';
            if (strcmp(name, "$user") == 0)
                snprintf(name, sizeof name, "%s", s->user);
            const char *own = store_session_temp_schema(false);
            if (store_schema_is_temp(name))   /* pg_temp: the session's own only */
                snprintf(name, sizeof name, "%s",
                         own && (strcmp(name, "pg_temp") == 0 || strcmp(name, own) == 0) ? own : "");
            if (name[0] && store_schema_exists(name))
                snprintf(out[n++], SCHEMA_NAME_MAX, "%s", name);
        }
        if (!end)
            break;
        sp = end + 1;
    }
    return with_temp ? temp_schema_first(out, n, max) : n;
}

/* CREATE TABLE; returns the new table, NULL when IF NOT EXISTS found it. */
static StoreTable *create_table(ExecSession *s, const UtilityStmt *u, MemArena *arena)
{
    char schemas[8][SCHEMA_NAME_MAX];
    const char *schema = u->schema_name;
    if (schema == NULL) {
        if (search_path_schemas(s, schemas, 8, false) == 0)
            err_raise(ERRCODE_INVALID_SCHEMA_NAME, "no schema has been selected to create in");
        schema = schemas[0];
    }
    if (u->if_not_exists && (store_relation_lookup(schema, u->table_name) ||
                             store_seq_lookup(schema, u->table_name))) {   /* one namespace */
        err_notice(ERR_SEV_NOTICE, ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists, skipping",
                   u->table_name);
        return NULL;
    }
    StoreColumnDef *defs = MEM_NEW_ARRAY(arena, StoreColumnDef, u->ncolumns > 0 ? u->ncolumns : 1);
    for (int i = 0; i < u->ncolumns; i++) {
        defs[i].name = u->columns[i].name;
        defs[i].type = u->columns[i].type;
        defs[i].not_null = u->columns[i].not_null;
        defs[i].default_text = u->columns[i].default_text;
    }
    StoreTable *t = store_table_create(schema, u->table_name, u->ncolumns, defs, u->npkey,
                                       u->npkey > 0 ? u->pkey_columns : NULL);
    if (u->on_commit > 1)
        exec__temp_on_commit_add(s, store_table_oid(t), u->on_commit);
    return store_table_lookup(schema, u->table_name);
}

static bool discard_rows(void *ctx, Batch *b)
{
    (void)ctx;
    (void)b;
    return true;
}

/* Close a run's operators and nested runs and free its scratch arenas. */
static void run_end(ExecQuery *q, ExecPlanRun *run)
{
    exec__subs_close(q);
    exec__plan_close(run);
    for (int i = 0; i < q->nscratch; i++)
        mem_arena_destroy(q->scratch[i]);
    q->nscratch = 0;
}

/* Insert the rows of plan into t (a PLAN_INSERT over its root, built here
 * because the table did not exist at plan time); returns the row count. */
static uint64_t insert_query_rows(ExecSession *s, StoreTable *t, const Plan *plan, const Value *params,
                                  int nparams, MemArena *arena)
{
    PlanNode *ins = MEM_NEW(arena, PlanNode);
    ins->kind = PLAN_INSERT;
    ins->target = t;
    ins->table = t;
    ins->left = plan->root;
    ins->node_id = -1;
    ExecQuery *q = MEM_NEW(arena, ExecQuery);
    q->arena = arena;
    q->txn = s->txn;
    q->params = params;
    q->nparams = nparams;
    q->shared = exec__shared_new(q, plan);
    ExecPlanRun *run = exec__plan_new(q);
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        exec__plan_build(run, ins);
        exec__plan_run(run, discard_rows, NULL);
        err_pop(&jmp);
    } else {
        run_end(q, run);
        err_rethrow();
    }
    uint64_t n = run->insert ? exec__insert_count(run->insert) : 0;
    run_end(q, run);
    return n;
}

/* CREATE TABLE ... AS / SELECT ... INTO: tag "SELECT n", or "CREATE TABLE
 * AS" when no rows were inserted by design (WITH NO DATA, IF NOT EXISTS). */
static const char *create_table_as(ExecSession *s, const UtilityStmt *u, const Value *params, int nparams,
                                   MemArena *arena)
{
    StoreTable *t = create_table(s, u, arena);
    if (t == NULL || u->ctas_skip_data)
        return "CREATE TABLE AS";
    uint64_t n = insert_query_rows(s, t, u->ctas_plan, params, nparams, arena);
    return mem_printf(arena, "SELECT %llu", (unsigned long long)n);
}

typedef struct DropTarget {
    char schema[SCHEMA_NAME_MAX];
    const char *name;
    bool found;
    bool no_schema;      /* "schema.name" whose schema does not exist */
} DropTarget;

/* Resolve "name" or "schema.name" through search_path. */
static void drop_resolve(ExecSession *s, const char *qualified, MemArena *arena, DropTarget *t)
{
    const char *dot = strchr(qualified, '.');
    t->found = false;
    t->no_schema = false;
    if (dot) {
        snprintf(t->schema, sizeof t->schema, "%.*s", (int)(dot - qualified), qualified);
        t->name = mem_strdup(arena, dot + 1);
        t->no_schema = !store_schema_exists(t->schema);
        t->found = !t->no_schema && store_table_lookup(t->schema, t->name) != NULL;
        return;
    }
    t->name = qualified;
    char schemas[8][SCHEMA_NAME_MAX];
    int n = search_path_schemas(s, schemas, 8, true);
    for (int i = 0; i < n && !t->found; i++) {
        if (store_table_lookup(schemas[i], qualified)) {
            memcpy(t->schema, schemas[i], SCHEMA_NAME_MAX);
            t->found = true;
        }
    }
}

/* DROP TABLE IF EXISTS of a table another transaction dropped while this
 * one waited for its lock: PostgreSQL looks the name up again once it holds
 * the lock and skips it with the NOTICE. False when that happened. */
static bool drop_if_still_there(const char *schema, const char *name)
{
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        store_table_drop(schema, name);
        err_pop(&jmp);
        return true;
    }
    if (strcmp(err_current()->sqlstate, "42P01") != 0)
        err_rethrow();
    err_clear();
    return false;
}

static void drop_table(ExecSession *s, const UtilityStmt *u, MemArena *arena)
{
    List *names = u->drop_tables;
    if (list_len(names) == 0) {
        const char *one = u->schema_name ? mem_printf(arena, "%s.%s", u->schema_name, u->table_name)
                                         : u->table_name;
        names = list_make1(arena, (void *)one);
    }
    int n = list_len(names);
    DropTarget *t = MEM_NEW_ARRAY(arena, DropTarget, n);
    for (int i = 0; i < n; i++) {
        drop_resolve(s, list_nth(names, i), arena, &t[i]);
        if (t[i].no_schema && !u->missing_ok)
            err_raise(ERRCODE_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", t[i].schema);
        if (!t[i].found && !u->missing_ok)
            err_raise(ERRCODE_UNDEFINED_TABLE, "table \"%s\" does not exist", t[i].name);
    }
    for (int i = 0; i < n; i++) {
        if (t[i].found) {
            StoreTable *dt = store_table_lookup(t[i].schema, t[i].name);   /* sequences: */
            uint32_t dt_oid = dt ? store_table_oid(dt) : 0;                 /* owned ones go too */
            if (!u->missing_ok)
                store_table_drop(t[i].schema, t[i].name);
            else if (!drop_if_still_there(t[i].schema, t[i].name))
                t[i].found = false;   /* dropped by another transaction meanwhile: the NOTICE */
            if (t[i].found)
                exec__seq_drop_owned(dt_oid);   /* transactional, as the DROP TABLE */
        }
        if (t[i].found)
            continue;
        if (t[i].no_schema)
            err_notice(ERR_SEV_NOTICE, ERRCODE_SUCCESSFUL_COMPLETION, "schema \"%s\" does not exist, skipping",
                       t[i].schema);
        else
            err_notice(ERR_SEV_NOTICE, ERRCODE_SUCCESSFUL_COMPLETION, "table \"%s\" does not exist, skipping",
                       t[i].name);
    }
}

static const char *txn_control(ExecSession *s, const UtilityStmt *u, const char *tag)
{
    switch (u->kind) {
    case UTIL_BEGIN:
        if (s->in_block)
            err_notice(ERR_SEV_WARNING, ERRCODE_ACTIVE_SQL_TRANSACTION,
                       "there is already a transaction in progress");
        s->in_block = true;
        exec__ddl3_begin(s, u);
        return tag ? tag : "BEGIN";
    case UTIL_COMMIT:
    case UTIL_ROLLBACK: {
        bool was_failed = s->failed;
        if (!s->in_block && !s->failed)
            err_notice(ERR_SEV_WARNING, ERRCODE_NO_ACTIVE_SQL_TRANSACTION, "there is no transaction in progress");
        bool commit = u->kind == UTIL_COMMIT && !was_failed;
        s->in_block = false;
        s->failed = false;
        exec__txn_finish(s, commit);
        return commit ? "COMMIT" : "ROLLBACK";
    }
    default:
        return tag;
    }
}

static void set_variable(ExecSession *s, const UtilityStmt *u)
{
    if (exec__ddl3_set_isolation(s, u))
        return;
    if (u->is_local && !s->in_block)
        err_notice(ERR_SEV_WARNING, ERRCODE_NO_ACTIVE_SQL_TRANSACTION,
                   "SET LOCAL can only be used in transaction blocks");
    exec__guc_remember(s, u->name, u->is_local);
    if (u->value)
        guc_set(s->guc, u->name, u->value);
    else
        guc_reset(s->guc, u->name);
}

static void reset_variable(ExecSession *s, const UtilityStmt *u)
{
    if (u->ddl3_op == 'D') {   /* DISCARD ALL */
        exec_prevent_in_block(s, "DISCARD ALL");
        guc_reset_all(s->guc);
        store_seq_discard_session();
        exec__temp_discard(s);
        if (u->discard_prepared && u->discard_slot)
            u->discard_prepared(u->discard_slot);
        return;
    }
    if (u->name == NULL) {
        guc_reset_all(s->guc);
        return;
    }
    exec__guc_remember(s, u->name, false);
    guc_reset(s->guc, u->name);
}

static void show_variable(ExecSession *s, const Plan *plan, const UtilityStmt *u, MemArena *arena,
                          ExecUtilRows *rows)
{
    if (u->name && strcmp(u->name, "all") == 0) {
        int ncols = plan->ncols > 0 ? plan->ncols : 3;
        int n = 0;
        const char *name, *value;
        while (guc_reported_at(s->guc, n, &name, &value))
            n++;
        rows->ncols = ncols;
        rows->nrows = n;
        rows->cells = MEM_NEW_ARRAY(arena, const char *, (size_t)(n * ncols) + 1);
        for (int i = 0; i < n; i++) {
            guc_reported_at(s->guc, i, &name, &value);
            rows->cells[i * ncols] = mem_strdup(arena, name);
            if (ncols > 1)
                rows->cells[i * ncols + 1] = mem_strdup(arena, value);
            for (int c = 2; c < ncols; c++)
                rows->cells[i * ncols + c] = "";
        }
        return;
    }
    rows->ncols = 1;
    rows->nrows = 1;
    rows->cells = MEM_NEW_ARRAY(arena, const char *, 1);
    rows->cells[0] = mem_strdup(arena, guc_show(s->guc, u->name));
}

static void explain_rows(const UtilityStmt *u, MemArena *arena, ExecUtilRows *rows)
{
    int n = list_len(u->explain_lines);
    rows->ncols = 1;
    rows->nrows = n;
    rows->cells = MEM_NEW_ARRAY(arena, const char *, (size_t)n + 1);
    for (int i = 0; i < n; i++)
        rows->cells[i] = list_nth(u->explain_lines, i);
}

/* EXPLAIN ANALYZE: run the plan with counters, then format them. */
static void explain_analyze(ExecSession *s, const UtilityStmt *u, const Value *params, int nparams,
                           MemArena *arena, ExecUtilRows *rows)
{
    const Plan *p = u->explain_plan;
    ERR_ASSERT(p != NULL && u->explain_format != NULL);
    PlanNodeStats *stats = MEM_NEW_ARRAY(arena, PlanNodeStats, p->nnodes > 0 ? p->nnodes : 1);
    double ms = exec__run_analyze(s, p, params, nparams, arena, stats);
    List *lines = u->explain_format(p, stats, ms, arena);
    int n = list_len(lines);
    rows->ncols = 1;
    rows->nrows = n;
    rows->cells = MEM_NEW_ARRAY(arena, const char *, (size_t)n + 1);
    for (int i = 0; i < n; i++)
        rows->cells[i] = list_nth(lines, i);
}

static void alter_role(ExecSession *s, const UtilityStmt *u)
{
    char verifier[PASSWORD_VERIFIER_MAX] = "";
    if (u->password)
        password_make_verifier(u->role_name, u->password, guc_show(s->guc, "password_encryption"),
                               verifier, sizeof verifier);
    store_role_set_password(u->role_name, verifier);
}

static const char *default_tag(UtilityKind k)
{
    switch (k) {
    case UTIL_CREATE_TABLE: return "CREATE TABLE";
    case UTIL_DROP_TABLE: return "DROP TABLE";
    case UTIL_BEGIN: return "BEGIN";
    case UTIL_COMMIT: return "COMMIT";
    case UTIL_ROLLBACK: return "ROLLBACK";
    case UTIL_SET: return "SET";
    case UTIL_RESET: return "RESET";
    case UTIL_SHOW: return "SHOW";
    case UTIL_EXPLAIN: case UTIL_EXPLAIN_ANALYZE: return "EXPLAIN";
    case UTIL_ALTER_ROLE: return "ALTER ROLE";
    default: return "";
    }
}

void exec__utility_run(ExecSession *s, const Plan *plan, const Value *params, int nparams, MemArena *arena,
                       ExecUtilRows *rows, char *tag, size_t tag_size)
{
    const UtilityStmt *u = plan->utility;
    ERR_ASSERT(u != NULL);
    memset(rows, 0, sizeof *rows);
    const char *t = plan->command ? plan->command : default_tag(u->kind);
    switch (u->kind) {
    case UTIL_CREATE_TABLE: create_table(s, u, arena); break;
    case UTIL_CREATE_TABLE_AS: t = create_table_as(s, u, params, nparams, arena); break;
    case UTIL_DROP_TABLE: drop_table(s, u, arena); break;
    case UTIL_BEGIN: case UTIL_COMMIT: case UTIL_ROLLBACK: t = txn_control(s, u, t); break;
    case UTIL_SET: set_variable(s, u); break;
    case UTIL_RESET: reset_variable(s, u); break;
    case UTIL_SHOW: show_variable(s, plan, u, arena, rows); break;
    case UTIL_EXPLAIN: explain_rows(u, arena, rows); break;
    case UTIL_ALTER_ROLE: alter_role(s, u); break;
    case UTIL_EXPLAIN_ANALYZE: explain_analyze(s, u, params, nparams, arena, rows); break;
    case UTIL_NOOP: break;
    case UTIL_TRUNCATE: case UTIL_MAINTENANCE: case UTIL_SAVEPOINT: case UTIL_ALTER_TABLE: case UTIL_SCHEMA:
    case UTIL_ROLE: case UTIL_DATABASE:
        exec__utility_ddl3(s, u, arena);
        break;
    case UTIL_SEQUENCE: exec__utility_seq(s, u, arena); break;   /* sequences (utility_seq.c) */
    case UTIL_VIEW: exec__utility_view(u, arena); break;          /* views (utility_view.c) */
    case UTIL_NONE:
        err_raise(ERRCODE_INTERNAL_ERROR, "utility plan without a statement");
    }
    snprintf(tag, tag_size, "%s", t);
}
