/*
 * test_storage_catalog_snap.c — pg_authid's rows as a transaction's
 * snapshot sees them (storage/roles.c, store_role_snapshot_at), as
 * PostgreSQL 15 reads pg_roles / pg_authid with the transaction's
 * snapshot: checked with two psql sessions, a REPEATABLE READ transaction
 * keeps listing a role dropped after its snapshot, does not list one
 * created after it, and shows the attributes it had; name lookups
 * (regrole, permission checks: store_role_get_attrs) see the latest
 * committed state. Other sessions are other threads.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <string.h>
#include "common/error.h"
#include "storage/storage.h"

#define STORAGE_FIXTURE_TAG "catsnap"
#include "storage_fixture.h"

TestSuite(catalog_snap, .init = storage_setup, .fini = storage_teardown, .timeout = 60);

typedef struct Listed {
    bool found;
    StoreRoleAttrs a;
} Listed;

/* The role `name` as store_role_snapshot_at lists it to this thread. */
static Listed listed(const char *name)
{
    Listed l = {false, {0}};
    StoreRoleAttrs a;
    const char *n;
    for (int i = 0; (n = store_role_snapshot_at(i, &a)) != NULL; i++)
        if (strcmp(n, name) == 0) {
            cr_assert_not(l.found, "role %s listed twice", name);
            l = (Listed){true, a};
        }
    return l;
}

static void *other_session_ddl(void *arg)
{
    (void)arg;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        store_role_create_ex("snew", &(StoreRoleAttrs){-1, 1, -1, -1, NULL});
        store_role_drop("sold");
        store_role_alter("salt", &(StoreRoleAttrs){1, -1, -1, -1, NULL});
        StoreTxn *y = store_txn_begin();
        store_role_alter("salt", &(StoreRoleAttrs){-1, -1, 1, -1, NULL});
        store_txn_commit(y);
        err_pop(&jmp);
    }
    return NULL;
}

static void run_other_session(void)
{
    pthread_t th;
    pthread_create(&th, NULL, other_session_ddl, NULL);
    pthread_join(th, NULL);
}

Test(catalog_snap, repeatable_read_lists_roles_as_of_its_snapshot)
{
    NO_ERROR(store_role_create_ex("sold", &(StoreRoleAttrs){-1, -1, -1, -1, NULL}));
    NO_ERROR(store_role_create_ex("salt", &(StoreRoleAttrs){-1, -1, -1, -1, NULL}));
    StoreTxn *x = store_txn_begin();
    store_txn_set_isolation(x, STORE_REPEATABLE_READ);
    store_txn_statement_begin(x);
    cr_assert(listed("postgres").found);
    cr_assert(listed("postgres").a.superuser == 1);
    cr_assert(listed("sold").found);
    cr_assert_not(listed("snew").found);

    run_other_session();   /* CREATE snew, DROP sold, ALTER salt twice: committed */

    store_txn_statement_begin(x);
    cr_assert_not(listed("snew").found, "created after the snapshot");
    cr_assert(listed("sold").found, "dropped after the snapshot");
    Listed salt = listed("salt");
    cr_assert(salt.found);
    cr_assert_eq(salt.a.superuser, 0, "attributes as of the snapshot");
    cr_assert_eq(salt.a.createdb, 0);
    /* Name lookups read the latest committed state, as PostgreSQL's syscache. */
    StoreRoleAttrs a;
    cr_assert(store_role_get_attrs("snew", &a, NULL, 0));
    cr_assert_not(store_role_get_attrs("sold", &a, NULL, 0));
    /* The transaction's own changes are listed to it. */
    NO_ERROR(store_role_create_ex("smine", &(StoreRoleAttrs){-1, -1, -1, -1, NULL}));
    cr_assert(listed("smine").found);
    store_txn_commit(x);

    /* READ COMMITTED: each statement's snapshot sees the new state. */
    x = store_txn_begin();
    store_txn_statement_begin(x);
    cr_assert(listed("snew").found);
    cr_assert_not(listed("sold").found);
    salt = listed("salt");
    cr_assert_eq(salt.a.superuser, 1);
    cr_assert_eq(salt.a.createdb, 1);
    store_txn_commit(x);
}

Test(catalog_snap, history_survives_a_restart_and_rollbacks_leave_none)
{
    NO_ERROR(store_role_create_ex("salt", &(StoreRoleAttrs){-1, -1, -1, -1, NULL}));
    StoreTxn *x = store_txn_begin();
    NO_ERROR(store_role_alter("salt", &(StoreRoleAttrs){1, -1, -1, -1, NULL}));
    NO_ERROR(store_role_create_ex("sgone", &(StoreRoleAttrs){-1, -1, -1, -1, NULL}));
    store_txn_rollback(x);
    x = store_txn_begin();
    store_txn_statement_begin(x);
    cr_assert_eq(listed("salt").a.superuser, 0);
    cr_assert_not(listed("sgone").found);
    store_txn_commit(x);
    restart();
    x = store_txn_begin();
    store_txn_set_isolation(x, STORE_REPEATABLE_READ);
    store_txn_statement_begin(x);
    cr_assert(listed("salt").found, "recovered roles are seen by every snapshot");
    cr_assert_not(listed("sgone").found);
    store_txn_commit(x);
}
