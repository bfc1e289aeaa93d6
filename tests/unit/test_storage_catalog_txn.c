/*
 * test_storage_catalog_txn.c — issue 3's transactional and durable catalog
 * objects outside the table catalog (storage/catalog_txn.c): ANALYZE's
 * statistics (durable: restart with and without a CHECKPOINT, crash),
 * roles (CREATE/ALTER/DROP undone by ROLLBACK and ROLLBACK TO, invisible to
 * other threads until COMMIT, durable after it, an uncommitted change lost
 * in a crash) and sequences (CREATE/DROP/ALTER undone by ROLLBACK with
 * PostgreSQL's rules for the state; crash in both outcomes).
 *
 * Crashes: a child process opens the data directory, does the work and
 * SIGKILLs itself (no store_close); the parent recovers the directory.
 */
#include <criterion/criterion.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "common/error.h"
#include "common/types.h"
#include "common/vector.h"
#include "storage/storage.h"

#define STORAGE_FIXTURE_TAG "cattxn"
#include "storage_fixture.h"

TestSuite(catalog_txn, .init = storage_setup, .fini = storage_teardown, .timeout = 60);

/* ---- helpers ---- */

/* Run fn in a child that owns the directory and SIGKILLs itself at the
 * end; then recover in the parent. */
static void crash_with(void (*fn)(void))
{
    store_close();
    fflush(NULL);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        ErrJmp jmp;
        if (ERR_TRY(jmp)) {
            store_open(dir);
            fn();
            kill(getpid(), SIGKILL);
        }
        _exit(4);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "child status %d", status);
    open_store();
}

/* t(a bigint, b integer, c double precision): a = first.., b = a % 10, c NULL every 4th. */
static StoreTable *make_t(void)
{
    StoreColumnDef cols[] = {
        {"a", SQLTYPE(TYPE_INT8), false, NULL},
        {"b", SQLTYPE(TYPE_INT4), false, NULL},
        {"c", SQLTYPE(TYPE_FLOAT8), false, NULL},
    };
    StoreTable *t = NULL;
    NO_ERROR(t = store_table_create("public", "t", 3, cols, 0, NULL));
    return t;
}

static void load_t(StoreTable *t, int64_t first, uint32_t n)
{
    SqlType types[] = {SQLTYPE(TYPE_INT8), SQLTYPE(TYPE_INT4), SQLTYPE(TYPE_FLOAT8)};
    StoreTxn *x = store_txn_begin();
    for (uint32_t done = 0; done < n;) {
        uint32_t k = n - done < 2000 ? n - done : 2000;
        Batch *b = batch_create(arena, 3, types);
        for (uint32_t i = 0; i < k; i++) {
            int64_t a = first + done + i;
            Value v = {.is_null = false};
            v.u.i64 = a;
            vec_set_value(&b->cols[0], i, &v);
            v.u.i32 = (int32_t)(a % 10);
            vec_set_value(&b->cols[1], i, &v);
            if (a % 4 == 0) {
                vec_set_null(&b->cols[2], i);
            } else {
                v.u.f64 = (double)a / 2;
                vec_set_value(&b->cols[2], i, &v);
            }
        }
        b->count = k;
        store_table_append(t, x, b);
        done += k;
    }
    store_txn_commit(x);
}

typedef struct StatsSnap {
    bool ok;
    uint64_t rows;
    StoreColumnStats col[3];
} StatsSnap;

static StatsSnap stats_of(const char *name)
{
    StatsSnap s = {0};
    StoreTable *t = store_table_lookup("public", name);
    cr_assert_not_null(t);
    s.ok = true;
    for (int c = 0; c < 3; c++)
        s.ok = s.ok && store_table_stats(t, c, &s.col[c], &s.rows);
    return s;
}

static void assert_stats_eq(const StatsSnap *a, const StatsSnap *b)
{
    cr_assert(a->ok && b->ok);
    cr_assert_eq(a->rows, b->rows);
    for (int c = 0; c < 3; c++) {
        cr_assert_eq(a->col[c].null_frac, b->col[c].null_frac, "column %d", c);
        cr_assert_eq(a->col[c].n_distinct, b->col[c].n_distinct, "column %d", c);
        cr_assert_eq(a->col[c].has_minmax, b->col[c].has_minmax, "column %d", c);
        cr_assert_eq(memcmp(&a->col[c].min.u, &b->col[c].min.u, 8), 0, "column %d min", c);
        cr_assert_eq(memcmp(&a->col[c].max.u, &b->col[c].max.u, 8), 0, "column %d max", c);
    }
}

/* ---- statistics ---- */

Test(catalog_txn, statistics_survive_restart_with_and_without_checkpoint)
{
    StoreTable *t = make_t();
    load_t(t, 1, 5000);
    StoreTxn *x = store_txn_begin();
    NO_ERROR(store_table_analyze(t, x));
    cr_assert_not(stats_of("t").ok, "statistics are the analyzing transaction's until it commits");
    store_txn_commit(x);
    StatsSnap before = stats_of("t");
    cr_assert(before.ok);
    cr_assert_eq(before.rows, 5000);
    cr_assert_eq(before.col[0].min.u.i64, 1);
    cr_assert_eq(before.col[0].max.u.i64, 5000);
    cr_assert_eq(before.col[1].max.u.i32, 9);
    cr_assert(before.col[2].null_frac > 0.24 && before.col[2].null_frac < 0.26);
    cr_assert(before.col[1].n_distinct > 9.5 && before.col[1].n_distinct < 10.5);

    restart();   /* from the WAL only */
    StatsSnap after = stats_of("t");
    assert_stats_eq(&before, &after);

    NO_ERROR(store_checkpoint());
    restart();   /* from the checkpoint */
    after = stats_of("t");
    assert_stats_eq(&before, &after);
    NO_ERROR(store_checkpoint());
    restart();   /* a checkpoint of a recovered store writes them again */
    after = stats_of("t");
    assert_stats_eq(&before, &after);
}

Test(catalog_txn, analyze_rolled_back_keeps_the_old_statistics)
{
    StoreTable *t = make_t();
    load_t(t, 1, 1000);
    NO_ERROR(store_table_analyze(t, NULL));
    StatsSnap first = stats_of("t");
    load_t(t, 1001, 1000);
    StoreTxn *x = store_txn_begin();
    NO_ERROR(store_table_analyze(t, x));
    store_txn_rollback(x);
    StatsSnap now = stats_of("t");
    assert_stats_eq(&first, &now);
    x = store_txn_begin();
    int sp = store_txn_savepoint(x);
    NO_ERROR(store_table_analyze(t, x));
    store_txn_rollback_to(x, sp);
    store_txn_commit(x);
    now = stats_of("t");
    assert_stats_eq(&first, &now);
    restart();
    now = stats_of("t");
    assert_stats_eq(&first, &now);
    cr_assert_eq(now.rows, 1000);
}

static void crash_analyze(void)
{
    StoreTable *t = store_table_lookup("public", "t");
    load_t(t, 3001, 1000);
    store_table_analyze(t, NULL);            /* committed: 4000 rows */
    StoreTxn *x = store_txn_begin();
    load_t(t, 4001, 500);
    store_table_analyze(t, x);               /* never committed */
}

static void crash_analyze_checkpoint(void)
{
    crash_analyze();
    store_checkpoint();
}

Test(catalog_txn, statistics_survive_a_crash)
{
    StoreTable *t = make_t();
    load_t(t, 1, 3000);
    NO_ERROR(store_table_analyze(t, NULL));
    crash_with(crash_analyze);
    StatsSnap s = stats_of("t");
    cr_assert(s.ok);
    cr_assert_eq(s.rows, 4000);
    cr_assert_eq(s.col[0].max.u.i64, 4000);
    /* committed: 3000 + 1000 + the 500 loaded before the lost ANALYZE; then
     * 1000 more (3001.. again: no key) analyzed, 500 more not */
    crash_with(crash_analyze_checkpoint);
    s = stats_of("t");
    cr_assert_eq(s.rows, 5500);
    cr_assert_eq(s.col[0].max.u.i64, 4500);
}

Test(catalog_txn, statistics_of_columns_added_later_are_absent)
{
    StoreTable *t = make_t();
    load_t(t, 1, 100);
    NO_ERROR(store_table_analyze(t, NULL));
    StoreColumnDef d = {"d", SQLTYPE(TYPE_INT8), false, NULL};
    StoreTxn *x = store_txn_begin();
    NO_ERROR(store_table_add_column(t, x, &d, NULL));
    store_txn_commit(x);
    StoreColumnStats st;
    uint64_t rows;
    cr_assert(store_table_stats(t, 2, &st, &rows));
    cr_assert_not(store_table_stats(t, 3, &st, &rows));
    restart();
    t = store_table_lookup("public", "t");
    cr_assert_not(store_table_stats(t, 3, &st, &rows));
    cr_assert(store_table_stats(t, 0, &st, &rows));
    cr_assert_eq(rows, 100);
}

/* ---- roles ---- */

static bool role_exists(const char *name) { return store_role_get_attrs(name, &(StoreRoleAttrs){0}, NULL, 0); }

typedef struct Probe {
    const char *name;
    bool exists;
    int super;
} Probe;

/* Another thread (no transaction: another session's view). */
static void *probe_main(void *arg)
{
    Probe *p = arg;
    StoreRoleAttrs a = {0};
    p->exists = store_role_get_attrs(p->name, &a, NULL, 0);
    p->super = p->exists ? a.superuser : -1;
    return NULL;
}

static Probe probe(const char *name)
{
    Probe p = {name, false, -1};
    pthread_t th;
    pthread_create(&th, NULL, probe_main, &p);
    pthread_join(th, NULL);
    return p;
}

typedef struct OtherAlter {
    const char *name;
    char sqlstate[6];
} OtherAlter;

/* ALTER ROLE name SUPERUSER in a transaction of another thread. */
static void *other_alter_main(void *arg)
{
    OtherAlter *o = arg;
    StoreTxn *y = store_txn_begin();
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        store_role_alter(o->name, &(StoreRoleAttrs){1, -1, -1, -1, NULL});
        err_pop(&jmp);
        snprintf(o->sqlstate, sizeof o->sqlstate, "00000");
    } else {
        snprintf(o->sqlstate, sizeof o->sqlstate, "%s", err_current()->sqlstate);
    }
    store_txn_rollback(y);
    return NULL;
}

static const StoreRoleAttrs login_attrs = {-1, 1, -1, -1, "md5" "0123456789abcdef0123456789abcdef"};

Test(catalog_txn, role_ddl_rolls_back_and_is_invisible_until_commit)
{
    StoreTxn *x = store_txn_begin();
    NO_ERROR(store_role_create_ex("alice", &login_attrs));
    cr_assert(role_exists("alice"), "the creator sees it");
    cr_assert_not(probe("alice").exists, "another session does not");
    store_txn_rollback(x);
    cr_assert_not(role_exists("alice"));

    x = store_txn_begin();
    NO_ERROR(store_role_create_ex("alice", &login_attrs));
    store_txn_commit(x);
    cr_assert(probe("alice").exists);

    x = store_txn_begin();
    NO_ERROR(store_role_alter("alice", &(StoreRoleAttrs){1, -1, -1, -1, NULL}));
    StoreRoleAttrs a;
    cr_assert(store_role_get_attrs("alice", &a, NULL, 0));
    cr_assert_eq(a.superuser, 1);
    cr_assert_eq(probe("alice").super, 0, "the ALTER is not committed");
    /* A second ALTER waits for this transaction (test_storage_catalog_locks.c
     * has the outcomes), and goes ahead after its rollback. */
    OtherAlter o = {"alice", ""};
    pthread_t th;
    pthread_create(&th, NULL, other_alter_main, &o);
    usleep(200 * 1000);
    cr_assert_str_eq(o.sqlstate, "", "a second ALTER waits while one is pending");
    store_txn_rollback(x);
    pthread_join(th, NULL);
    cr_assert_str_eq(o.sqlstate, "00000");
    cr_assert(store_role_get_attrs("alice", &a, NULL, 0));
    cr_assert_eq(a.superuser, 0);

    x = store_txn_begin();
    NO_ERROR(store_role_drop("alice"));
    cr_assert_not(role_exists("alice"));
    cr_assert(probe("alice").exists, "the DROP is not committed");
    EXPECT_ERROR("42704", store_role_drop("alice"));
    store_txn_rollback(x);
    cr_assert(role_exists("alice"));
    restart();
    cr_assert(role_exists("alice"));
    cr_assert(store_role_get_attrs("alice", &a, NULL, 0));
    cr_assert_eq(a.login, 1);
    cr_assert_eq(a.superuser, 0);
}

Test(catalog_txn, role_ddl_and_savepoints)
{
    StoreTxn *x = store_txn_begin();
    NO_ERROR(store_role_create_ex("bob", &login_attrs));
    int sp = store_txn_savepoint(x);
    NO_ERROR(store_role_alter("bob", &(StoreRoleAttrs){1, 0, -1, -1, ""}));
    NO_ERROR(store_role_create_ex("carol", &login_attrs));
    NO_ERROR(store_role_drop("bob"));
    cr_assert_not(role_exists("bob"));
    NO_ERROR(store_role_create_ex("bob", &(StoreRoleAttrs){-1, -1, 1, -1, NULL}));
    store_txn_rollback_to(x, sp);
    cr_assert_not(role_exists("carol"));
    StoreRoleAttrs a;
    char v[256];
    cr_assert(store_role_get_attrs("bob", &a, v, sizeof v));
    cr_assert_eq(a.superuser, 0);
    cr_assert_eq(a.login, 1);
    cr_assert_eq(a.createdb, 0);
    cr_assert_str_eq(v, login_attrs.verifier);
    NO_ERROR(store_role_alter("bob", &(StoreRoleAttrs){-1, -1, 1, -1, NULL}));
    store_txn_commit(x);
    restart();
    cr_assert(store_role_get_attrs("bob", &a, v, sizeof v));
    cr_assert_eq(a.createdb, 1);
    cr_assert_eq(a.login, 1);
    cr_assert_not(role_exists("carol"));
    /* the role list (pg_roles) shows each role once */
    int n = 0;
    for (int i = 0; store_role_at(i); i++)
        n += strcmp(store_role_at(i), "bob") == 0;
    cr_assert_eq(n, 1);
}

static void crash_roles(void)
{
    store_role_create_ex("dave", &login_attrs);     /* committed (a transaction of its own) */
    StoreTxn *x = store_txn_begin();
    store_role_create_ex("erin", &login_attrs);
    store_role_drop("dave");
    store_role_alter("frank", &(StoreRoleAttrs){1, -1, -1, -1, NULL});
    (void)x;                                        /* never committed */
}

static void crash_roles_checkpoint(void)
{
    StoreTxn *x = store_txn_begin();
    store_role_create_ex("gina", &login_attrs);
    store_role_drop("dave");
    store_txn_commit(x);
    store_checkpoint();
    x = store_txn_begin();
    store_role_drop("gina");                        /* never committed */
}

Test(catalog_txn, roles_after_a_crash)
{
    NO_ERROR(store_role_create_ex("frank", &login_attrs));
    crash_with(crash_roles);
    cr_assert(role_exists("dave"));
    cr_assert_not(role_exists("erin"));
    StoreRoleAttrs a;
    cr_assert(store_role_get_attrs("frank", &a, NULL, 0));
    cr_assert_eq(a.superuser, 0);
    crash_with(crash_roles_checkpoint);
    cr_assert_not(role_exists("dave"));
    cr_assert(role_exists("gina"));
    cr_assert(role_exists("frank"));
    cr_assert(role_exists("postgres"));
}

/* ---- sequences ---- */

static StoreSeqDef def_int8(int64_t start)
{
    return (StoreSeqDef){.type_oid = TYPE_INT8, .start = start, .increment = 1, .min_value = 1,
                         .max_value = INT64_MAX, .cache = 1};
}

static int64_t next1(uint32_t oid)
{
    int64_t v = 0;
    NO_ERROR(store_seq_nextval(oid, 1, &v));
    return v;
}

Test(catalog_txn, sequence_ddl_rolls_back_as_postgresql)
{
    StoreSeqDef d = def_int8(1);
    StoreTxn *x = store_txn_begin();
    uint32_t oid = 0;
    NO_ERROR(oid = store_seq_create("public", "s", &d));
    cr_assert_eq(next1(oid), 1);
    store_txn_rollback(x);
    cr_assert_eq(store_seq_lookup("public", "s"), 0, "CREATE rolled back");

    NO_ERROR(oid = store_seq_create("public", "s", &d));   /* no transaction: committed */
    cr_assert_eq(next1(oid), 1);
    x = store_txn_begin();
    cr_assert_eq(next1(oid), 2);
    NO_ERROR(store_seq_drop(oid));
    cr_assert_eq(store_seq_lookup("public", "s"), 0);
    store_txn_rollback(x);
    cr_assert_eq(store_seq_lookup("public", "s"), oid, "DROP rolled back");
    cr_assert_eq(next1(oid), 3, "nextval is not transactional");

    /* ALTER ... INCREMENT (a rewrite): the state goes back too (PostgreSQL: 9 then 4) */
    x = store_txn_begin();
    StoreSeqDef inc = d;
    inc.increment = 5;
    NO_ERROR(store_seq_alter_ex(oid, &inc, false, 0, true));
    cr_assert_eq(next1(oid), 8);
    store_txn_rollback(x);
    cr_assert_eq(next1(oid), 4);
    StoreSeqInfo in;
    cr_assert(store_seq_info(oid, &in));
    cr_assert_eq(in.def.increment, 1);

    /* ALTER ... OWNED BY only: the definition goes back, the values stay taken */
    x = store_txn_begin();
    StoreSeqDef own = d;
    own.owner_table = 0;
    own.cache = 1;
    NO_ERROR(store_seq_alter_ex(oid, &own, false, 0, false));
    cr_assert_eq(next1(oid), 5);
    store_txn_rollback(x);
    cr_assert_eq(next1(oid), 6);

    /* RESTART inside a rolled back ALTER */
    x = store_txn_begin();
    NO_ERROR(store_seq_alter(oid, &d, true, 100));
    cr_assert_eq(next1(oid), 100);
    store_txn_rollback(x);
    cr_assert_eq(next1(oid), 7);

    /* setval is not transactional */
    x = store_txn_begin();
    NO_ERROR(store_seq_setval(oid, 500, true));
    store_txn_rollback(x);
    cr_assert_eq(next1(oid), 501);
    restart();
    oid = store_seq_lookup("public", "s");
    cr_assert_gt(next1(oid), 501);
}

Test(catalog_txn, sequence_created_in_a_transaction_and_savepoints)
{
    StoreSeqDef d = def_int8(1);
    StoreTxn *x = store_txn_begin();
    uint32_t oid = 0;
    NO_ERROR(oid = store_seq_create("public", "s3", &d));
    int sp = store_txn_savepoint(x);
    cr_assert_eq(next1(oid), 1);
    NO_ERROR(store_seq_alter(oid, &d, true, 7));
    cr_assert_eq(next1(oid), 7);
    store_txn_rollback_to(x, sp);
    cr_assert_eq(next1(oid), 2, "PostgreSQL: 2 (the state as at the ALTER)");
    for (int i = 3; i <= 40; i++)
        cr_assert_eq(next1(oid), i);
    store_txn_commit(x);
    restart();
    oid = store_seq_lookup("public", "s3");
    cr_assert_neq(oid, 0);
    cr_assert_gt(next1(oid), 40, "values taken inside the creating transaction stay taken");
}

typedef struct SeqProbe {
    uint32_t oid;
    int64_t value;
    int64_t increment;
} SeqProbe;

static void *seq_probe_main(void *arg)
{
    SeqProbe *p = arg;
    StoreSeqInfo in;
    if (store_seq_info(p->oid, &in))
        p->increment = in.def.increment;
    store_seq_nextval(p->oid, 1, &p->value);   /* waits for the ALTER's transaction */
    return NULL;
}

Test(catalog_txn, others_see_the_committed_sequence_and_wait_for_an_alter)
{
    StoreSeqDef d = def_int8(1);
    uint32_t oid = 0;
    NO_ERROR(oid = store_seq_create("public", "w", &d));
    cr_assert_eq(next1(oid), 1);
    StoreTxn *x = store_txn_begin();
    StoreSeqDef inc = d;
    inc.increment = 10;
    NO_ERROR(store_seq_alter_ex(oid, &inc, false, 0, true));
    SeqProbe p = {oid, 0, 0};
    pthread_t th;
    pthread_create(&th, NULL, seq_probe_main, &p);
    usleep(300 * 1000);
    cr_assert_eq(p.value, 0, "nextval waits while the ALTER is pending");
    store_txn_commit(x);
    pthread_join(th, NULL);
    cr_assert_eq(p.increment, 1, "the committed definition until the ALTER commits");
    cr_assert_eq(p.value, 11);
}

static void crash_seqs(void)
{
    StoreSeqDef d = def_int8(1);
    StoreTxn *x = store_txn_begin();
    uint32_t a = store_seq_create("public", "ca", &d);
    for (int i = 0; i < 40; i++) {   /* one at a time: logged 32 ahead */
        int64_t v;
        store_seq_nextval(a, 1, &v);
    }
    store_txn_commit(x);
    x = store_txn_begin();
    store_seq_alter(a, &d, true, 1000);        /* never committed */
    store_seq_create("public", "cb", &d);      /* never committed */
    store_seq_drop(store_seq_lookup("public", "cc"));  /* never committed */
}

static void crash_seqs_committed(void)
{
    StoreSeqDef d = def_int8(1);
    uint32_t a = store_seq_lookup("public", "ca");
    StoreTxn *x = store_txn_begin();
    store_seq_alter(a, &d, true, 1000);
    store_seq_drop(store_seq_lookup("public", "cc"));
    store_txn_commit(x);
    store_checkpoint();
    int64_t v[5];
    store_seq_nextval(a, 5, v);
}

Test(catalog_txn, sequences_after_a_crash_in_both_outcomes)
{
    StoreSeqDef d = def_int8(1);
    uint32_t c = 0;
    NO_ERROR(c = store_seq_create("public", "cc", &d));
    cr_assert_eq(next1(c), 1);
    crash_with(crash_seqs);
    uint32_t a = store_seq_lookup("public", "ca");
    cr_assert_neq(a, 0, "committed CREATE survives");
    int64_t v = next1(a);
    cr_assert(v > 40 && v < 1000, "values taken are not repeated, the RESTART is lost: %lld", (long long)v);
    cr_assert_eq(store_seq_lookup("public", "cb"), 0);
    cr_assert_eq(store_seq_lookup("public", "cc"), c);
    crash_with(crash_seqs_committed);
    a = store_seq_lookup("public", "ca");
    v = next1(a);
    cr_assert(v > 1004, "the committed RESTART and the values after it: %lld", (long long)v);
    cr_assert_eq(store_seq_lookup("public", "cc"), 0);
}

static void crash_owned_by_then_rewrite(void)
{
    uint32_t a = store_seq_lookup("public", "ob");
    StoreSeqDef d = def_int8(1);
    StoreTxn *x = store_txn_begin();
    store_seq_alter_ex(a, &d, false, 0, false);   /* OWNED BY: nextval stays non-transactional */
    int64_t v;
    for (int i = 0; i < 5; i++)
        store_seq_nextval(a, 1, &v);
    StoreSeqDef inc = d;
    inc.increment = 2;
    store_seq_alter_ex(a, &inc, false, 0, true);  /* now a rewrite: state transactional */
    store_seq_nextval(a, 1, &v);
    store_checkpoint();                           /* writes the committed image */
    (void)x;                                      /* never committed */
}

Test(catalog_txn, checkpoint_during_a_pending_alter_writes_the_committed_sequence)
{
    StoreSeqDef d = def_int8(1);
    NO_ERROR(store_seq_create("public", "ob", &d));
    crash_with(crash_owned_by_then_rewrite);
    uint32_t a = store_seq_lookup("public", "ob");
    StoreSeqInfo in;
    cr_assert(store_seq_info(a, &in));
    cr_assert_eq(in.def.increment, 1, "the uncommitted ALTER is not in the checkpoint");
    int64_t v = next1(a);
    cr_assert(v > 5 && v < 100, "the 5 values taken under OWNED BY stay taken: %lld", (long long)v);
}
