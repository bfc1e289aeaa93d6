/*
 * session.c — a connection's executor state: user, settings, and the
 * transaction state machine (PostgreSQL's implicit and explicit blocks).
 *
 *   idle ──portal──▶ implicit txn ──sync──▶ commit ──▶ idle
 *                        │ BEGIN
 *                        ▼
 *                    block ('T') ──COMMIT/ROLLBACK──▶ idle
 *                        │ error (exec_session_abort)
 *                        ▼
 *                    failed ('E') ──COMMIT or ROLLBACK (tag ROLLBACK)──▶ idle
 *
 * Storage work is undone as soon as a block fails (store_txn_rollback), so
 * a failed block holds no locks while it waits for the client's ROLLBACK.
 * Settings changed by SET inside a transaction are remembered with their
 * old values: rollback restores all of them, commit restores only SET LOCAL
 * ones (PostgreSQL's GUC nesting, one level deep). Each transaction starts
 * at default_transaction_isolation.
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

#include <stdlib.h>
#include <string.h>
#include "common/datetime.h"
#include "common/error.h"
#include "executor/catalog.h"

static char *dup_or_die(const char *s)
{
    char *d = strdup(s ? s : "");
    if (d == NULL)
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    return d;
}

ExecSession *exec_session_create(const char *user, const char *database, GucSet *guc)
{
    ExecSession *s = calloc(1, sizeof *s);
    if (s == NULL)
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    s->user = strdup(user ? user : "");
    s->database = strdup(database ? database : "");
    if (s->user == NULL || s->database == NULL) {
        free(s->user);
        free(s->database);
        free(s);
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    }
    s->guc = guc;
    /* The store's errors that name a schema by OID number it as pg_namespace
     * does (a pointer store, the same for every session). */
    store_set_namespace_oid_fn(exec_catalog_schema_oid);
    return s;
}

static void undo_clear(ExecSession *s)
{
    for (int i = 0; i < s->nundo; i++) {
        free(s->undo[i].name);
        free(s->undo[i].old_value);
    }
    s->nundo = 0;
}

void exec_session_destroy(ExecSession *s)
{
    if (s == NULL)
        return;
    if (s->txn) {
        StoreTxn *t = s->txn;
        s->txn = NULL;
        store_txn_rollback(t);
    }
    exec__temp_session_end(s);   /* its temporary tables go with the session */
    undo_clear(s);
    exec__savepoints_reset(s);
    free(s->sp_names);
    free(s->undo);
    free(s->user);
    free(s->database);
    free(s);
}

ExecTxnStatus exec_session_txn_status(const ExecSession *s)
{
    if (s->failed)
        return EXEC_TXN_FAILED;
    return s->in_block ? EXEC_TXN_BLOCK : EXEC_TXN_IDLE;
}

GucSet *exec_session_guc(ExecSession *s) { return s->guc; }
const char *exec_session_user(const ExecSession *s) { return s->user; }
const char *exec_session_database(const ExecSession *s) { return s->database; }

/* A new transaction's isolation level is default_transaction_isolation
 * (SET default_transaction_isolation, SET SESSION CHARACTERISTICS AS
 * TRANSACTION ISOLATION LEVEL): transaction_isolation shows it for the
 * transaction's life (restored at its end, as a SET LOCAL), and BEGIN
 * ISOLATION LEVEL / SET TRANSACTION may still change it before the first
 * query. */
static void txn_default_isolation(ExecSession *s)
{
    const char *d = guc_show(s->guc, "default_transaction_isolation");
    if (d == NULL)
        return;
    if (strcmp(d, guc_show(s->guc, "transaction_isolation")) != 0) {
        exec__guc_remember(s, "transaction_isolation", true);
        guc_set(s->guc, "transaction_isolation", d);
    }
    if (strcmp(d, "repeatable read") == 0 || strcmp(d, "serializable") == 0)
        store_txn_set_isolation(s->txn, STORE_REPEATABLE_READ);
}

void exec__txn_ensure(ExecSession *s)
{
    if (s->txn == NULL) {
        s->txn = store_txn_begin();
        /* The store reads lock_timeout from here at each lock wait (a SET
         * later in the transaction counts from its next wait on). */
        store_txn_set_settings(s->txn, s->guc);
        txn_default_isolation(s);
        /* now()/current_timestamp are the transaction's start time, as in
         * PostgreSQL: read the clock once and pin it for this thread. */
        datetime_set_xact_time(0);
        datetime_set_xact_time(timestamp_now());
        exec__seq_set_session(s->guc, s->user);   /* sequences: nextval's search_path */
    }
}

void exec__guc_remember(ExecSession *s, const char *name, bool is_local)
{
    const char *canon = guc_canonical_name(name);
    if (canon == NULL)
        return;    /* unknown: guc_set raises 42704 next */
    if (s->nundo == s->undo_cap) {
        int cap = s->undo_cap ? s->undo_cap * 2 : 8;
        ExecGucUndo *u = realloc(s->undo, sizeof *u * (size_t)cap);
        if (u == NULL)
            err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
        s->undo = u;
        s->undo_cap = cap;
    }
    char *n = dup_or_die(canon);
    char *old = strdup(guc_show(s->guc, canon));
    if (old == NULL) {
        free(n);
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    }
    s->undo[s->nundo++] = (ExecGucUndo){n, old, is_local};
}

/* Restore remembered settings, newest first. Errors are swallowed: the
 * values were valid when saved. */
static void undo_apply(ExecSession *s, bool commit)
{
    for (int i = s->nundo - 1; i >= 0; i--) {
        if (commit && !s->undo[i].is_local)
            continue;
        ErrJmp jmp;
        if (ERR_TRY(jmp)) {
            guc_set(s->guc, s->undo[i].name, s->undo[i].old_value);
            err_pop(&jmp);
        }
    }
    undo_clear(s);
}

void exec__txn_finish(ExecSession *s, bool commit)
{
    if (commit)
        exec__temp_pre_commit(s);   /* ON COMMIT DELETE ROWS / DROP, inside the transaction */
    StoreTxn *t = s->txn;
    s->txn = NULL;
    exec__savepoints_reset(s);
    undo_apply(s, commit);
    if (t == NULL)
        return;
    if (commit)
        store_txn_commit(t);
    else
        store_txn_rollback(t);
}

void exec_session_set_implicit_block(ExecSession *s, bool on)
{
    s->implicit_block = on;
}

void exec_prevent_in_block(const ExecSession *s, const char *what)
{
    if (s->in_block || s->implicit_block)
        err_raise(ERRCODE_ACTIVE_SQL_TRANSACTION, "%s cannot run inside a transaction block", what);
}

void exec_session_sync(ExecSession *s)
{
    s->implicit_block = false;
    if (s->in_block || s->failed)
        return;
    exec__txn_finish(s, true);
}

void exec_session_abort(ExecSession *s)
{
    s->implicit_block = false;
    if (s->in_block) {
        s->failed = true;
        if (s->nsp == 0)   /* with savepoints, ROLLBACK TO may resume the block */
            exec__txn_finish(s, false);
        return;
    }
    if (s->failed)
        return;
    exec__txn_finish(s, false);
}
