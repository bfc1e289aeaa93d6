/*
 * catalog_txn.c — transactional DDL for the objects that live outside the
 * table catalog: roles (roles.c), sequences (sequence.c) and ANALYZE's
 * statistics (stats.c).
 *
 * Tables and schemas keep their DDL in the transaction's undo log (mvcc.c).
 * These three keep theirs in a second, smaller log on the transaction
 * (StoreTxn.cat_undo): each change pushes an entry naming the object, a
 * malloc'd image of what the object was before (so that a rollback can put
 * it back) and the transaction's WAL stream position *before* the change's
 * record. Every such change writes a WAL record into the transaction's
 * buffer, so stream positions order the entries, and ROLLBACK TO a savepoint
 * — which cuts the stream back to the savepoint's position (store__wal_cut)
 * — undoes exactly the entries at or past that position. Commit finishes
 * the entries in order right after the records are written and before the
 * commit is published (store__wal_commit), so a checkpoint, which waits for
 * every written commit to be published, never misses one.
 *
 * Committed statistics also bump a counter (store_stats_epoch) by which
 * cached plans notice that the planner might now choose differently; the
 * catalog epoch (store_catalog_epoch) is the same for DDL: bumped here for
 * sequences, and by catalog.c, alter.c and database.c for tables, views,
 * columns, keys and schemas, at the change and at its transaction's end.
 *
 * The modules decide visibility themselves: an object changed by a running
 * transaction carries that transaction (create_txn / drop_txn / alter_txn)
 * and shows its new state to it only.
 */
#define STORE_INTERNAL
#include "storage/storage_int.h"

#include <stdlib.h>
#include "common/error.h"

void store__cat_reserve(StoreTxn *x)
{
    if (x->ncat_undo < x->cap_cat_undo)
        return;
    int cap = x->cap_cat_undo ? x->cap_cat_undo * 2 : 8;
    StoreCatUndo *arr = realloc(x->cat_undo, (size_t)cap * sizeof *arr);
    if (!arr)
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    x->cat_undo = arr;
    x->cap_cat_undo = cap;
}

/* Bumped after committed statistics are installed (store_stats_epoch). */
static _Atomic uint64_t stats_epoch = 1;

uint64_t store_stats_epoch(void) { return atomic_load(&stats_epoch); }

/* Bumped after every catalog change a plan may depend on, and again when
 * its transaction ends (store_catalog_epoch). Sequential consistency: a
 * reader that sees the new value also sees the change made before it. */
static _Atomic uint64_t catalog_epoch = 1;

uint64_t store_catalog_epoch(void) { return atomic_load(&catalog_epoch); }

void store__catalog_epoch_bump(void) { atomic_fetch_add(&catalog_epoch, 1); }

void store__cat_push(StoreTxn *x, StoreCatKind kind, void *obj, void *saved, uint64_t pos)
{
    ERR_ASSERT(x->ncat_undo < x->cap_cat_undo);
    x->cat_undo[x->ncat_undo++] = (StoreCatUndo){kind, pos, obj, saved};
    if (kind == CAT_SEQ)   /* CREATE / ALTER / DROP SEQUENCE, seen by x from now on */
        store__catalog_epoch_bump();
}

static void entry_end(StoreCatUndo *u, StoreTxn *x, bool commit)
{
    switch (u->kind) {
    case CAT_ROLE: store__role_cat_end(u->obj, u->saved, x, commit); break;
    case CAT_SEQ:
        store__seq_cat_end(u->obj, u->saved, x, commit);
        store__catalog_epoch_bump();   /* committed for all, or undone for x */
        break;
    case CAT_STATS:
        store__stats_cat_end(u->obj, u->saved, x, commit);
        if (commit)   /* after the install: a plan made at the new value sees them */
            atomic_fetch_add(&stats_epoch, 1);
        break;
    }
    free(u->saved);
    u->saved = NULL;
}

void store__cat_precommit(StoreTxn *x)
{
    for (int i = 0; i < x->ncat_undo; i++)
        if (x->cat_undo[i].kind == CAT_SEQ)
            store__seq_precommit(x->cat_undo[i].obj, x);
}

void store__cat_commit(StoreTxn *x)
{
    /* Oldest first: a later entry's image already holds the earlier ones. */
    for (int i = 0; i < x->ncat_undo; i++)
        entry_end(&x->cat_undo[i], x, true);
    x->ncat_undo = 0;
}

static void undo_from(StoreTxn *x, int keep)
{
    for (int i = x->ncat_undo - 1; i >= keep; i--)
        entry_end(&x->cat_undo[i], x, false);
    x->ncat_undo = keep;
}

void store__cat_end(StoreTxn *x, bool commit)
{
    if (commit)
        store__cat_commit(x);
    else
        undo_from(x, 0);
    if (x->cap_cat_undo > 64) {
        free(x->cat_undo);
        x->cat_undo = NULL;
        x->cap_cat_undo = 0;
    }
}

uint64_t store__cat_commit_seq(void)
{
    /* store__wal_commit publishes commits in sequence order and finishes
     * the catalog entries just before publishing its own: the commit at
     * hand is the one after the last published. */
    if (store_g.replaying)
        return 0;
    return atomic_load(&store_g.visible_seq) + 1;
}

void store__cat_cut(StoreTxn *x, uint64_t pos)
{
    int keep = x->ncat_undo;
    while (keep > 0 && x->cat_undo[keep - 1].wal_pos >= pos)
        keep--;
    undo_from(x, keep);
}

void store__cat_free(StoreTxn *x)
{
    for (int i = 0; i < x->ncat_undo; i++)
        free(x->cat_undo[i].saved);
    free(x->cat_undo);
    x->cat_undo = NULL;
    x->ncat_undo = x->cap_cat_undo = 0;
}
