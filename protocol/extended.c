/*
 * extended.c — the extended query protocol: Parse, Bind, Describe,
 * Execute, Close, Sync (Flush is answered in conn.c).
 *
 * State per session (session.c):
 *   prepared statements — name → query text + plan, planned at Parse
 *     ("" is the unnamed statement, replaced by the next Parse) and again
 *     at a Bind (or a Describe of its rows) once a relation its plan found
 *     was altered, analyzed or dropped (any session's change, committed or
 *     rolled back, or this session's own, uncommitted), or search_path
 *     finds other schemas (stmt_revalidate, storage/plandeps.c);
 *   portals — name → bound parameter values + the executor's portal +
 *     result formats ("" is the unnamed portal, replaced by the next Bind);
 *     portals live until closed or until the transaction ends (dropped at
 *     Sync when the session is idle, or at once by an Execute of COMMIT /
 *     ROLLBACK; they survive Sync inside BEGIN, and an error inside it:
 *     failed, cursor.c proto_cursor_txn_failed).
 * An error in any of these messages is sent once; conn.c then discards
 * every message until Sync, whose ReadyForQuery ends the cycle.
 *
 * Formats: parameters and results are text (0) or binary (1) for the
 * types whose binary form is their in-memory form (bool, integers,
 * floats, strings, date, timestamp); binary for other types is refused
 * with 0A000.
 */
#define STRATA_PROTOCOL_INTERNAL
#include "protocol/proto_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/guc.h"
#include "common/typio.h"
#include "common/utf8.h"
#include "executor/executor.h"
#include "parser/parser.h"
#include "planner/plan.h"
#include "planner/planner.h"
#include "storage/storage.h"

/* Bounded string copy (names are checked < PROTO_NAME_MAX by name_arg);
 * snprintf("%s") cost ~500 instructions per Bind. */
static void copy_str(char *dst, size_t size, const char *src)
{
    size_t len = strnlen(src, size - 1);
    memcpy(dst, src, len);
    dst[len] = '\0';
}

static const char *name_arg(ProtoMsg *m)
{
    const char *name = proto_msg_text(m);
    if (strlen(name) >= PROTO_NAME_MAX)
        err_raise(ERRCODE_PROTOCOL_VIOLATION, "name too long in message: \"%s\"", name);
    return name;
}

/* ---------- Parse ---------- */

/* plan_search_path_key now, computed again only after a setting was
 * stored or the catalog changed (it costs ~1,800 instructions: the
 * path parsed, each schema looked up). */
static uint64_t session_path_key(ProtoConn *c, MemArena *scratch)
{
    ProtoSession *s = c->session;
    uint64_t gen = guc_generation(s->guc), epoch = store_catalog_epoch();   /* before */
    if (s->path_key_valid && s->path_key_gen == gen && s->path_key_epoch == epoch)
        return s->path_key;
    PlanContext pc = {.arena = scratch, .guc = s->guc, .session_state = &s->plan_state};
    s->path_key = plan_search_path_key(&pc);
    s->path_key_gen = gen;
    s->path_key_epoch = epoch;
    s->path_key_valid = true;
    return s->path_key;
}

static void parse_into(ProtoStmt *st, ProtoConn *c, const char *query, const uint32_t *types, int ntypes)
{
    st->query_text = mem_strdup(st->arena, query);
    List *stmts = parse_sql(st->arena, st->query_text);
    if (list_len(stmts) > 1)
        err_raise(ERRCODE_SYNTAX_ERROR, "cannot insert multiple commands into a prepared statement");
    if (list_len(stmts) == 0)
        return;   /* empty query: Execute answers EmptyQueryResponse */
    if (proto_cursor_parse(c, st, list_nth(stmts, 0), types, ntypes))
        return;   /* DECLARE / FETCH / MOVE / CLOSE: cursor.c runs them at Execute */
    PlanContext pc = {.arena = st->arena, .query_text = st->query_text, .guc = c->session->guc,
                      .param_types = types, .nparams = ntypes,
                      .session_state = &c->session->plan_state};
    /* before planning: DDL or an ANALYZE meanwhile is checked */
    st->stats_epoch = store_stats_epoch();
    st->catalog_epoch = store_catalog_epoch();
    const char *path = guc_search_path(c->session->guc);
    st->search_path = mem_strdup(st->arena, path ? path : "");
    st->path_key = session_path_key(c, st->arena);
    /* what the plan looks up: its relations, by name and by OID */
    store_deps_begin();
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        st->plan = plan_statement(&pc, list_nth(stmts, 0));
        err_pop(&jmp);
    } else {
        store_deps_abort();
        err_rethrow();
    }
    st->deps = store_deps_end(st->arena);
}

/* Whether st's plan is one stmt_revalidate makes again: queries,
 * INSERT/UPDATE/DELETE, EXPLAIN (whose text is made at plan time) and the
 * utility statements whose plan holds the tables it names (TRUNCATE,
 * VACUUM / ANALYZE, ALTER TABLE: PostgreSQL looks their names up when
 * they run). Other utility statements resolve nothing at plan time, and
 * some (PREPARE) act when planned. */
static bool stmt_replannable(const ProtoStmt *st)
{
    const Plan *p = st->plan;
    if (!p || st->cursor_raw)
        return false;
    if (p->kind != PLAN_STMT_UTILITY)
        return true;
    UtilityKind k = p->utility ? p->utility->kind : UTIL_NONE;
    return k == UTIL_EXPLAIN || k == UTIL_TRUNCATE || k == UTIL_ALTER_TABLE ||
           (k == UTIL_MAINTENANCE && p->utility->ddl3_tables);
}

/* Whether st must be planned again, as PostgreSQL's plan cache decides:
 * search_path finds other schemas than when it was planned (another
 * setting, a schema of the path created or dropped, the session's first
 * temporary table: plan_search_path_key), or a relation its plan found
 * changed — altered, analyzed, dropped (and perhaps created again) — by
 * this session's own transaction or by another's, committed or rolled
 * back (store_deps_changed). A table created under the same name in an
 * earlier schema of the path changes none of them (PostgreSQL's PREPARE
 * documents this). The storage epochs and the setting's text only say
 * whether anything changed at all since st was last found good: while they
 * stand still nothing is looked up, and DDL or ANALYZE of other tables
 * costs one check, no re-plan. */
static bool stmt_stale(ProtoStmt *st, ProtoConn *c)
{
    const char *path = guc_search_path(c->session->guc);
    if (!path)
        path = "";
    uint64_t stats = store_stats_epoch(), catalog = store_catalog_epoch();   /* before the checks */
    bool same_path = strcmp(st->search_path ? st->search_path : "", path) == 0;
    if (same_path && st->stats_epoch == stats && st->catalog_epoch == catalog)
        return false;
    if (session_path_key(c, st->arena) != st->path_key)
        return true;
    if ((st->stats_epoch != stats || st->catalog_epoch != catalog) && store_deps_changed(st->deps))
        return true;
    st->stats_epoch = stats;
    st->catalog_epoch = catalog;
    if (!same_path)
        st->search_path = mem_strdup(st->arena, path);
    return false;
}

/* PostgreSQL's "cached plan must not change result type": a re-plan that
 * would describe other columns than the statement did (equalTupleDescs:
 * names, types, typmods; not the tables they come from). */
static bool same_result(const Plan *a, const Plan *b)
{
    if (a->ncols != b->ncols || a->nparams != b->nparams)
        return false;
    for (int i = 0; i < a->ncols; i++)
        if (a->cols[i].type.oid != b->cols[i].type.oid ||
            a->cols[i].type.typmod != b->cols[i].type.typmod ||
            strcmp(a->cols[i].name ? a->cols[i].name : "", b->cols[i].name ? b->cols[i].name : "") != 0)
            return false;
    return true;
}

/* A new statement named as st, planned from st's text with the parameter
 * types st's plan settled on. */
static ProtoStmt *stmt_replan(ProtoConn *c, const ProtoStmt *st)
{
    int n = st->plan->nparams;
    uint32_t *tp = malloc(sizeof(uint32_t) * ((size_t)n + 1));
    ProtoStmt *volatile nst = tp ? calloc(1, sizeof(ProtoStmt)) : NULL;
    if (!nst) {
        free(tp);
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    }
    for (int i = 0; i < n; i++)
        tp[i] = st->plan->param_types[i].oid;
    copy_str(nst->name, sizeof nst->name, st->name);
    nst->arena = mem_arena_create("prepared statement");
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        parse_into(nst, c, st->query_text, tp, n);
        if (!nst->plan || !same_result(st->plan, nst->plan))
            err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "cached plan must not change result type");
        err_pop(&jmp);
    } else {
        free(tp);
        mem_arena_destroy(nst->arena);
        free(nst);
        err_rethrow();
    }
    free(tp);
    return nst;
}

/* PostgreSQL re-plans a cached statement after an ANALYZE or DDL (the
 * relcache invalidation reaches its plan cache) or when search_path
 * changed; Strata re-plans every statement that is stale so (stmt_stale)
 * at its next Bind, or Describe of its rows. The re-plan's errors are the
 * client's (42P01 for a dropped table, with the position in the statement's
 * text, 0A000 when the columns would change); the statement stays as it
 * was then, and is tried again next time. A new statement takes st's
 * place in the session; portals bound from st keep st (refcount) until
 * they close. In a failed transaction nothing is re-planned: Bind answers
 * 25P02 first, as PostgreSQL's. Returns the statement to use. */
static ProtoStmt *stmt_revalidate(ProtoConn *c, ProtoStmt *st)
{
    if (!stmt_replannable(st) || !stmt_stale(st, c) ||
        exec_session_txn_status(c->session->exec) == EXEC_TXN_FAILED)
        return st;
    ProtoStmt *nst = stmt_replan(c, st);
    proto_stmt_drop(c->session, st->name);
    proto_stmt_add(c->session, nst);
    return nst;
}

void proto_ext_parse(ProtoConn *c, ProtoMsg *m)
{
    ProtoSession *s = c->session;
    const char *name = name_arg(m);
    const char *query = proto_msg_text(m);
    int ntypes = proto_msg_int16(m);
    if (ntypes < 0)
        err_raise(ERRCODE_PROTOCOL_VIOLATION, "invalid number of parameter types");
    uint32_t *tp = malloc(sizeof(uint32_t) * ((size_t)ntypes + 1));
    if (!tp)
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    ProtoStmt *volatile st = NULL;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        for (int i = 0; i < ntypes; i++)
            tp[i] = (uint32_t)proto_msg_int32(m);
        proto_msg_end(m);
        if (name[0] && proto_stmt_find(s, name))
            err_raise(ERRCODE_DUPLICATE_PSTATEMENT, "prepared statement \"%s\" already exists", name);
        if (!name[0])
            proto_stmt_drop(s, "");
        st = calloc(1, sizeof(ProtoStmt));
        if (!st)
            err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
        copy_str(st->name, sizeof st->name, name);
        st->arena = mem_arena_create("prepared statement");
        parse_into(st, c, query, tp, ntypes);
        err_pop(&jmp);
    } else {
        free(tp);
        if (st) {
            mem_arena_destroy(st->arena);
            free(st);
        }
        err_rethrow();
    }
    free(tp);
    proto_stmt_add(s, st);
    proto_send_simple(c, '1');   /* ParseComplete */
}

/* ---------- Bind ---------- */

static int16_t format_at(const int16_t *formats, int nformats, int i)
{
    return nformats == 0 ? 0 : nformats == 1 ? formats[0] : formats[i];
}

static int16_t *read_formats(ProtoMsg *m, MemArena *a, int *count)
{
    *count = proto_msg_int16(m);
    if (*count < 0)
        err_raise(ERRCODE_PROTOCOL_VIOLATION, "invalid number of format codes");
    int16_t *f = mem_alloc(a, sizeof(int16_t) * (size_t)(*count + 1));
    for (int i = 0; i < *count; i++) {
        f[i] = proto_msg_int16(m);
        if (f[i] != 0 && f[i] != 1)
            err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "unsupported format code: %d", f[i]);
    }
    return f;
}

static uint64_t be_bytes(const unsigned char *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++)
        v = (v << 8) | p[i];
    return v;
}

/* Binary parameter: the wire form of the fixed-width types is their
 * in-memory form in network byte order; strings are their bytes; arrays
 * and json/jsonb in binary_array.c. */
void proto_binary_param(SqlType t, const char *data, size_t len, int idx, MemArena *a, Value *out)
{
    const TypeInfo *ti = type_info(t.oid);
    if (!ti || !proto_binary_supported(t.oid))
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "binary format is not supported for parameters of type %s",
                  ti ? ti->sql_name : "unknown");
    if (type_is_array(t.oid)) {
        proto_array_recv(t, data, len, idx, a, out);
        return;
    }
    if (t.oid == TYPE_JSON || t.oid == TYPE_JSONB) {
        proto_json_recv(t, data, len, a, out);
        return;
    }
    if (t.oid == TYPE_NUMERIC) {
        proto_numeric_recv(data, len, t.typmod, idx, a, out);
        return;
    }
    if (t.oid == TYPE_INTERVAL || t.oid == TYPE_UUID || t.oid == TYPE_BYTEA) {
        proto_binary_bytes_recv(t.oid, data, len, idx, a, out);   /* binary_numeric.c */
        return;
    }
    if (ti->phys == PHYS_STR) {
        utf8_verify(data, len);   /* textrecv's pq_getmsgtext */
        type_input(t, data, len, a, out);
        return;
    }
    size_t want = phys_size(ti->phys);
    if (len != want)
        err_raise(ERRCODE_INVALID_BINARY_REPRESENTATION,
                  "incorrect binary data format in bind parameter %d", idx + 1);
    uint64_t v = be_bytes((const unsigned char *)data, len);
    out->is_null = false;
    switch (ti->phys) {
    case PHYS_BOOL: out->u.b = v != 0; break;
    case PHYS_I16: out->u.i16 = (int16_t)(uint16_t)v; break;
    case PHYS_I32: out->u.i32 = (int32_t)(uint32_t)v; break;
    case PHYS_I64: out->u.i64 = (int64_t)v; break;
    case PHYS_F32: { uint32_t u = (uint32_t)v; memcpy(&out->u.f32, &u, 4); break; }
    case PHYS_F64: memcpy(&out->u.f64, &v, 8); break;
    case PHYS_STR: break;
    }
}

/* A parameter that is client text must be valid UTF-8 (PostgreSQL's
 * pg_client_to_server for the text format, pq_getmsgtext for binary text
 * types), the error's context naming it as PostgreSQL's
 * bind_param_error_callback does before the value is known. */
static void param_verify(const char *data, size_t len, const char *portal, int idx)
{
    size_t ok = utf8_valid_prefix(data, len);
    if (ok == len)
        return;
    char ctx[128];
    if (portal[0])
        snprintf(ctx, sizeof ctx, "portal \"%s\" parameter $%d", portal, idx + 1);
    else
        snprintf(ctx, sizeof ctx, "unnamed portal parameter $%d", idx + 1);
    proto_error_set_context(ctx);
    utf8_report_invalid(data + ok, len - ok);
}

/* Binary forms that are text (text, varchar, bpchar, name, json, jsonb's
 * after its version byte, which is ASCII): validated as such. */
static bool binary_is_text(uint32_t oid)
{
    const TypeInfo *ti = type_info(oid);
    if (!ti || type_is_array(oid))
        return false;
    if (oid == TYPE_JSON || oid == TYPE_JSONB)
        return true;
    return ti->phys == PHYS_STR && oid != TYPE_NUMERIC && oid != TYPE_INTERVAL && oid != TYPE_UUID &&
           oid != TYPE_BYTEA;
}

/* The number of parameters a Bind supplies, checked against its formats
 * and the statement (before the portal exists, as PostgreSQL's). */
static int read_param_count(ProtoMsg *m, const Plan *plan, const char *stmt_name, int nformats)
{
    int nparams = proto_msg_int16(m);
    if (nformats > 1 && nformats != nparams)
        err_raise(ERRCODE_PROTOCOL_VIOLATION, "bind message has %d parameter formats but %d parameters",
                  nformats, nparams);
    int want = plan ? plan->nparams : 0;
    if (nparams != want)
        err_raise(ERRCODE_PROTOCOL_VIOLATION,
                  "bind message supplies %d parameters, but prepared statement \"%s\" requires %d",
                  nparams, stmt_name, want);
    return nparams;
}

static Value *read_params(ProtoMsg *m, const Plan *plan, int nparams, const int16_t *formats, int nformats,
                          MemArena *a, const char *portal)
{
    Value *values = mem_calloc(a, (size_t)nparams + 1, sizeof(Value));
    for (int i = 0; i < nparams; i++) {
        int32_t len = proto_msg_int32(m);
        if (len == -1) {
            values[i].is_null = true;
            continue;
        }
        if (len < 0)
            err_raise(ERRCODE_PROTOCOL_VIOLATION, "invalid parameter length %d", len);
        const char *data = proto_msg_bytes(m, (size_t)len);
        bool binary = format_at(formats, nformats, i) == 1;
        if (!binary || binary_is_text(plan->param_types[i].oid))
            param_verify(data, (size_t)len, portal, i);
        if (binary)
            proto_binary_param(plan->param_types[i], data, (size_t)len, i, a, &values[i]);
        else
            type_input(plan->param_types[i], data, (size_t)len, a, &values[i]);
    }
    return values;
}

static int16_t *result_formats(ProtoMsg *m, const Plan *plan, MemArena *a)
{
    int n;
    int16_t *f = read_formats(m, a, &n);
    int ncols = plan ? plan->ncols : 0;
    if (n > 1 && n != ncols)
        err_raise(ERRCODE_PROTOCOL_VIOLATION, "bind message has %d result formats but query has %d columns",
                  n, ncols);
    int16_t *out = mem_calloc(a, (size_t)ncols + 1, sizeof(int16_t));
    for (int i = 0; i < ncols; i++) {
        out[i] = format_at(f, n, i);
        if (out[i] == 1 && !proto_binary_supported(plan->cols[i].type.oid)) {
            const TypeInfo *ti = type_info(plan->cols[i].type.oid);
            err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "binary output format is not supported for type %s",
                      ti ? ti->sql_name : "unknown");
        }
    }
    return out;
}

/* COMMIT, ROLLBACK, ROLLBACK TO: what a failed transaction still runs. */
static bool ends_txn(const Plan *plan)
{
    const UtilityStmt *u = plan->kind == PLAN_STMT_UTILITY ? plan->utility : NULL;
    return u && (u->kind == UTIL_COMMIT || u->kind == UTIL_ROLLBACK ||
                 (u->kind == UTIL_SAVEPOINT && u->ddl3_op == 'b'));
}

/* What a Bind reads and checks before its portal exists (PostgreSQL's
 * exec_bind_message up to CreatePortal). */
typedef struct BindHead {
    int16_t *formats;
    int nformats;
    int nparams;
} BindHead;

static void bind_head(ProtoConn *c, ProtoMsg *m, const ProtoStmt *st, MemArena *a, BindHead *h)
{
    h->formats = read_formats(m, a, &h->nformats);
    /* a cursor statement: parameters of the DECLARE's query */
    h->nparams = read_param_count(m, st->cursor_raw ? st->cursor_query : st->plan, st->name, h->nformats);
    /* In a failed block only COMMIT / ROLLBACK / ROLLBACK TO without
     * parameters are bound (no type input runs there). */
    if (exec_session_txn_status(c->session->exec) == EXEC_TXN_FAILED &&
        (!st->plan || st->cursor_raw || !ends_txn(st->plan) || h->nparams != 0))
        err_raise(ERRCODE_IN_FAILED_SQL_TRANSACTION,
                  "current transaction is aborted, commands ignored until end of transaction block");
}

static void bind_into(ProtoConn *c, ProtoPortal *p, ProtoMsg *m, ProtoStmt *st, const BindHead *h)
{
    MemArena *a = p->arena;
    /* a cursor statement: parameters of the DECLARE's query, result
     * columns of the FETCH's cursor (cursor.c) */
    const Plan *params_plan = st->cursor_raw ? st->cursor_query : st->plan;
    const Plan *rows_plan = st->cursor_raw ? proto_cursor_result_plan(c->session, st->cursor_raw) : st->plan;
    Value *values = read_params(m, params_plan, h->nparams, h->formats, h->nformats, a, p->name);
    p->result_formats = result_formats(m, rows_plan, a);
    proto_msg_end(m);
    if (st->cursor_raw) {
        p->cursor_raw = st->cursor_raw;
        p->cursor_params = values;
        p->cursor_ncols = rows_plan ? rows_plan->ncols : 0;
        return;
    }
    p->plan = st->plan;
    if (st->plan)
        p->portal = exec_portal_create(c->session->exec, st->plan, values, st->plan->nparams, a);
}

/* A portal whose Bind failed after it was created stays, never planned
 * (PostgreSQL's PORTAL_NEW): Describe says NoData, Execute
 * EmptyQueryResponse, its name is taken until it is closed or the
 * transaction ends (outside a block the error handler drops it at once). */
static void portal_make_empty(ProtoPortal *p)
{
    p->plan = NULL;
    p->cursor_raw = NULL;
    p->cursor_params = NULL;
    p->cursor_ncols = 0;
    p->result_formats = NULL;
    p->portal = NULL;   /* exec_portal_create released what it built */
}

void proto_ext_bind(ProtoConn *c, ProtoMsg *m)
{
    ProtoSession *s = c->session;
    const char *portal_name = name_arg(m);
    const char *stmt_name = name_arg(m);
    ProtoStmt *st = proto_stmt_find(s, stmt_name);
    if (!st) {
        if (stmt_name[0])
            err_raise(ERRCODE_INVALID_SQL_STATEMENT_NAME, "prepared statement \"%s\" does not exist", stmt_name);
        err_raise(ERRCODE_INVALID_SQL_STATEMENT_NAME, "unnamed prepared statement does not exist");
    }
    ProtoPortal *volatile p = calloc(1, sizeof(ProtoPortal));
    if (!p)
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    copy_str(p->name, sizeof p->name, portal_name);
    p->arena = mem_arena_create("portal");
    volatile bool added = false;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        BindHead h;
        bind_head(c, m, st, p->arena, &h);
        if (portal_name[0] && proto_portal_find(s, portal_name))
            err_raise(ERRCODE_DUPLICATE_CURSOR, "cursor \"%s\" already exists", portal_name);
        if (!portal_name[0])
            proto_portal_drop(s, "");
        p->bound_failed = exec_session_txn_status(s->exec) == EXEC_TXN_FAILED;
        p->sp_depth = proto_cursor_savepoint_depth(s);
        proto_portal_add(s, p);   /* owned by the session from here: freed with it */
        added = true;
        st = stmt_revalidate(c, st);
        p->stmt = st;
        st->refcount++;
        bind_into(c, p, m, st, &h);
        err_pop(&jmp);
    } else {
        if (added) {
            portal_make_empty(p);
        } else {
            mem_arena_destroy(p->arena);
            free(p);
        }
        err_rethrow();
    }
    proto_send_simple(c, '2');   /* BindComplete */
}

/* ---------- Describe ---------- */

/* PostgreSQL refuses to describe rows in a failed transaction (that
 * needs the catalog), before anything is sent; parameters and NoData
 * still are. */
static void describe_check_txn(ProtoSession *s, const Plan *rows)
{
    if (rows && rows->ncols > 0 && exec_session_txn_status(s->exec) == EXEC_TXN_FAILED)
        err_raise(ERRCODE_IN_FAILED_SQL_TRANSACTION,
                  "current transaction is aborted, commands ignored until end of transaction block");
}

static void describe_rows(ProtoConn *c, const Plan *plan, const int16_t *formats)
{
    if (plan && plan->ncols > 0)
        proto_send_row_description(c, plan, formats);
    else
        proto_send_simple(c, 'n');   /* NoData */
}

void proto_ext_describe(ProtoConn *c, ProtoMsg *m)
{
    ProtoSession *s = c->session;
    char kind = proto_msg_bytes(m, 1)[0];
    const char *name = name_arg(m);
    proto_msg_end(m);
    if (kind == 'S') {
        ProtoStmt *st = proto_stmt_find(s, name);
        if (!st)
            err_raise(ERRCODE_INVALID_SQL_STATEMENT_NAME, "prepared statement \"%s\" does not exist", name);
        const Plan *params_plan = st->cursor_raw ? st->cursor_query : st->plan;
        describe_check_txn(s, st->cursor_raw ? proto_cursor_result_plan(s, st->cursor_raw) : st->plan);
        size_t start = proto_msg_begin(&c->out, 't');
        int n = params_plan ? params_plan->nparams : 0;
        strbuf_append_be16(&c->out, (uint16_t)n);
        for (int i = 0; i < n; i++)
            strbuf_append_be32(&c->out, params_plan->param_types[i].oid);
        proto_msg_finish(&c->out, start);
        /* PostgreSQL revalidates a statement that returns rows before
         * describing them (CachedPlanGetTargetList): its error follows the
         * ParameterDescription. */
        if (st->plan && st->plan->ncols > 0)
            st = stmt_revalidate(c, st);
        describe_rows(c, st->cursor_raw ? proto_cursor_result_plan(s, st->cursor_raw) : st->plan, NULL);
    } else if (kind == 'P') {
        ProtoPortal *p = proto_portal_find(s, name);
        if (!p)
            err_raise(ERRCODE_INVALID_CURSOR_NAME, "portal \"%s\" does not exist", name);
        /* a FETCH portal describes its cursor's rows in the FETCH's formats */
        const Plan *rows = !p->cursor_raw ? p->plan
                           : p->cursor_ncols ? proto_cursor_result_plan(s, p->cursor_raw) : NULL;
        describe_check_txn(s, rows);
        describe_rows(c, rows, p->result_formats);
    } else {
        err_raise(ERRCODE_PROTOCOL_VIOLATION, "invalid DESCRIBE message subtype %d", kind);
    }
}

/* ---------- Execute ---------- */

/* A portal bound before an error in its block, or before DDL of its own
 * session, runs no more as it was planned. In a failed transaction
 * PostgreSQL's Execute answers 25P02 but for a COMMIT / ROLLBACK bound
 * after the failure (the abort released the plans of the portals made
 * before it, even a COMMIT's); an INSERT whose table gained columns since
 * Bind fails its executor's check of the plan's row (ExecCheckPlanOutput)
 * instead of appending rows of the old width. */
static void portal_check_runnable(ProtoSession *s, const ProtoPortal *p)
{
    if (exec_session_txn_status(s->exec) == EXEC_TXN_FAILED &&
        (p->cursor || (p->plan && !(p->bound_failed && ends_txn(p->plan)))))
        err_raise(ERRCODE_IN_FAILED_SQL_TRANSACTION,
                  "current transaction is aborted, commands ignored until end of transaction block");
    if (p->failed && p->plan)   /* PostgreSQL's MarkPortalActive of a failed portal */
        err_raise(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE, "portal \"%s\" cannot be run", p->name);
    const PlanNode *root = p->plan && !p->done && p->plan->kind == PLAN_STMT_INSERT ? p->plan->root : NULL;
    if (root && root->kind == PLAN_INSERT && root->target && root->left &&
        root->left->ncols < store_table_ncols(root->target)) {
        ErrorData *e = err_begin(ERRCODE_DATATYPE_MISMATCH);
        err_message(e, "table row type and query-specified row type do not match");
        err_detail(e, "Query has too few columns.");
        err_throw();
    }
}

/* Run p up to max_rows rows (0 = all); false when suspended. A portal
 * whose run raises is failed for good (PostgreSQL's PortalRun marks it
 * so): after a ROLLBACK TO it is "cannot be run". */
static bool run_portal(ProtoConn *c, ProtoPortal *p, int32_t max_rows, uint64_t *rows)
{
    volatile bool done = false;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        done = proto_run_portal(c, p->portal, p->plan, p->result_formats,
                                max_rows > 0 ? (uint64_t)max_rows : 0, rows);
        err_pop(&jmp);
    } else {
        p->failed = true;
        err_rethrow();
    }
    return done;
}

void proto_ext_execute(ProtoConn *c, ProtoMsg *m)
{
    ProtoSession *s = c->session;
    const char *name = name_arg(m);
    int32_t max_rows = proto_msg_int32(m);
    proto_msg_end(m);
    ProtoPortal *p = proto_portal_find(s, name);
    if (!p)
        err_raise(ERRCODE_INVALID_CURSOR_NAME, "portal \"%s\" does not exist", name);
    portal_check_runnable(s, p);
    if (p->cursor_raw) {   /* DECLARE / FETCH / MOVE / CLOSE (cursor.c) */
        proto_cursor_execute(c, p, max_rows);
        return;
    }
    if (p->cursor) {   /* Execute of a DECLAREd cursor's own portal: fetch forward */
        proto_cursor_execute_cursor(c, p, max_rows);
        return;
    }
    if (!p->plan) {
        proto_send_simple(c, 'I');   /* EmptyQueryResponse */
        return;
    }
    if (p->plan->kind == PLAN_STMT_UTILITY && p->plan->utility && !p->done &&
        (p->plan->utility->kind == UTIL_COMMIT || p->plan->utility->kind == UTIL_ROLLBACK))
        proto_cursor_before_txn_end(c, p->plan->utility->kind == UTIL_COMMIT);   /* cursor.c: WITH HOLD */
    if (p->plan->kind == PLAN_STMT_UTILITY && p->plan->utility && !p->done &&
        p->plan->utility->kind == UTIL_SAVEPOINT && p->plan->utility->ddl3_name)
        proto_cursor_savepoint(c, p->plan->utility->ddl3_op, p->plan->utility->ddl3_name, p);
    if (p->plan->kind == PLAN_STMT_UTILITY && p->plan->utility && !p->done &&
        p->plan->utility->kind == UTIL_RESET && p->plan->utility->ddl3_op == 'D')
        proto_cursor_discard_all(s);   /* DISCARD ALL closes the held cursors */
    /* A row-returning portal's tag counts the rows of this Execute, as
     * PostgreSQL's does ("SELECT 1" after suspended chunks of 2). */
    bool returns_rows = p->plan->kind == PLAN_STMT_QUERY && p->plan->command &&
                        strcmp(p->plan->command, "SELECT") == 0;
    uint64_t rows = 0;
    if (!p->done) {
        if (!run_portal(c, p, max_rows, &rows)) {
            proto_send_simple(c, 's');   /* PortalSuspended */
            return;
        }
        p->done = true;
        exec_portal_command_tag(p->portal, p->tag, sizeof p->tag);
        /* A COMMIT / ROLLBACK that ended the block drops its portals at
         * once (PostgreSQL's AtCommit/AtCleanup_Portals), all but this one */
        if (p->plan->kind == PLAN_STMT_UTILITY && p->plan->utility &&
            (p->plan->utility->kind == UTIL_COMMIT || p->plan->utility->kind == UTIL_ROLLBACK) &&
            exec_session_txn_status(s->exec) == EXEC_TXN_IDLE)
            proto_cursor_txn_ended(s, p);
    }
    if (returns_rows) {
        char tag[64];
        snprintf(tag, sizeof tag, "SELECT %llu", (unsigned long long)rows);
        proto_send_command_complete(c, tag);
    } else {
        proto_send_command_complete(c, p->tag);
    }
    proto_session_report_params(c, false);
}

/* ---------- Close and Sync ---------- */

void proto_ext_close(ProtoConn *c, ProtoMsg *m)
{
    char kind = proto_msg_bytes(m, 1)[0];
    const char *name = name_arg(m);
    proto_msg_end(m);
    if (kind == 'S')
        proto_stmt_drop(c->session, name);
    else if (kind == 'P')
        proto_portal_drop(c->session, name);
    else
        err_raise(ERRCODE_PROTOCOL_VIOLATION, "invalid CLOSE message subtype %d", kind);
    proto_send_simple(c, '3');   /* CloseComplete */
}

void proto_ext_sync(ProtoConn *c)
{
    ProtoSession *s = c->session;
    s->ignore_till_sync = false;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        proto_cursor_before_sync(c);   /* WITH HOLD cursors of the implicit transaction */
        exec_session_sync(s->exec);
        err_pop(&jmp);
    } else {
        static _Thread_local ErrorData e;
        e = *err_current();
        if (e.severity >= ERR_SEV_FATAL)
            err_rethrow();
        proto_send_error(c, &e);
        exec_session_abort(s->exec);
    }
    if (exec_session_txn_status(s->exec) == EXEC_TXN_IDLE)
        proto_cursor_txn_ended(s, NULL);   /* every portal but the held cursors */
    proto_session_report_params(c, false);
    proto_send_ready(c, (char)exec_session_txn_status(s->exec));
}
