/*
 * temp.c — the session side of temporary tables: ON COMMIT actions,
 * DISCARD TEMP and the drop at the session's end.
 *
 * The store keeps temporary relations in the session's schema pg_temp_N
 * and finds them through it (storage/database.c, catalog.c); what only the
 * session knows is when its transactions commit and when it ends.
 * PostgreSQL's PreCommit_on_commit_actions runs inside the committing
 * transaction: ON COMMIT DELETE ROWS empties the table (a TRUNCATE), ON
 * COMMIT DROP drops it, both undone with the transaction if the commit
 * fails. Entries are table OIDs: an entry whose table the transaction can
 * no longer see (its CREATE rolled back, or dropped) is forgotten.
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

#include <stdlib.h>
#include "common/error.h"

typedef struct ExecOnCommit {
    uint32_t oid;
    int action;   /* 2 DELETE ROWS, 3 DROP */
} ExecOnCommit;

void exec__temp_on_commit_add(ExecSession *s, uint32_t oid, int action)
{
    if (s->non_commit == s->on_commit_cap) {
        int cap = s->on_commit_cap ? s->on_commit_cap * 2 : 4;
        ExecOnCommit *a = realloc(s->on_commit, sizeof *a * (size_t)cap);
        if (a == NULL)
            err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
        s->on_commit = a;
        s->on_commit_cap = cap;
    }
    s->on_commit[s->non_commit++] = (ExecOnCommit){oid, action};
}

/* Carry out entry i in s->txn; false when it is to be forgotten. */
static bool on_commit_one(ExecSession *s, const ExecOnCommit *e)
{
    StoreTable *t = store_table_lookup_oid(e->oid);
    if (t == NULL)
        return false;
    if (e->action == 3) {
        exec__seq_drop_owned(e->oid);
        store_table_drop(store_table_schema(t), store_table_name(t));
        return false;
    }
    if (store_table_row_count(t, s->txn) > 0)
        store_table_truncate(t, s->txn);
    return true;
}

void exec__temp_pre_commit(ExecSession *s)
{
    if (s->non_commit == 0 || s->txn == NULL)
        return;
    int kept = 0;
    for (int i = 0; i < s->non_commit; i++)
        if (on_commit_one(s, &s->on_commit[i]))
            s->on_commit[kept++] = s->on_commit[i];
    s->non_commit = kept;
}

void exec__temp_discard(ExecSession *s)
{
    store_session_temp_drop();
    s->non_commit = 0;
}

void exec__temp_session_end(ExecSession *s)
{
    free(s->on_commit);
    s->on_commit = NULL;
    s->non_commit = s->on_commit_cap = 0;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        store_session_temp_end();
        err_pop(&jmp);
    } else {
        err_clear();   /* the tables stay hidden in a schema nobody else takes; a restart drops them */
    }
}
