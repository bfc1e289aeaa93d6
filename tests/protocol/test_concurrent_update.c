/*
 * test_concurrent_update.c — READ COMMITTED writers on hot rows, through
 * libpq: the executor's re-check of concurrently updated rows
 * (executor/op_update.c, PostgreSQL's EvalPlanQual) must neither lose an
 * update nor fail one, and REPEATABLE READ must still get 40001.
 *
 * 1. THREADS clients each run ROUNDS autocommit statements
 *    `UPDATE acct SET bal = bal + 1 WHERE id = k` on HOT rows (k random),
 *    every fourth one inside BEGIN ... COMMIT together with a second row,
 *    every fourth as UPDATE ... FROM (VALUES ...) (a join), and count the rows their acknowledged command tags report. Afterwards
 *    the sum of bal equals that count, every statement succeeded, and each
 *    row's bal equals the updates acknowledged for it.
 * 2. The WHERE clause is re-evaluated on the newest version: the clients
 *    run `UPDATE capt SET bal = bal + 1 WHERE id = 1 AND bal < CAP` (a
 *    table without a primary key, with a text column) until
 *    their tags say 0 rows; the row must end at exactly CAP and the tags
 *    must add up to the increments made.
 * 3. DELETE racing UPDATE: a row deleted while an update waits for it is
 *    skipped ("UPDATE 0"), not an error.
 * 4. REPEATABLE READ: two transactions update one row; the second, blocked
 *    until the first commits, gets 40001 — also when the level comes from
 *    SET SESSION CHARACTERISTICS / default_transaction_isolation, for
 *    BEGIN without a level and for an autocommit statement.
 * 5. Command tags of CREATE TABLE AS and SELECT INTO (a sqllogictest file
 *    cannot see them).
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests/protocol/ptest.h"

#define THREADS 8
#define ROUNDS 150
#define HOT 4
#define CAP 300

static TestServer server;
static atomic_long acked[HOT + 1];     /* per row: updates acknowledged */
static atomic_int errors;               /* statements that failed */
static atomic_long capped;              /* phase 2: rows reported updated */

/* Rows a command tag "UPDATE n" reports; -1 on error (counted). */
static long run_update(PGconn *c, const char *sql)
{
    PGresult *r = PQexec(c, sql);
    long n = -1;
    if (PQresultStatus(r) == PGRES_COMMAND_OK)
        n = atol(PQcmdTuples(r));
    else {
        fprintf(stderr, "\"%s\": %s", sql, PQresultErrorMessage(r));
        atomic_fetch_add(&errors, 1);
    }
    PQclear(r);
    return n;
}

static bool run_ok(PGconn *c, const char *sql)
{
    PGresult *r = PQexec(c, sql);
    bool ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    if (!ok) {
        fprintf(stderr, "\"%s\": %s", sql, PQresultErrorMessage(r));
        atomic_fetch_add(&errors, 1);
    }
    PQclear(r);
    return ok;
}

static PGconn *connect_quiet(void)
{
    char buf[1024];
    PGconn *c = PQconnectdb(harness_conninfo(&server, "", buf, sizeof buf));
    if (PQstatus(c) != CONNECTION_OK) {
        fprintf(stderr, "connect failed: %s", PQerrorMessage(c));
        atomic_fetch_add(&errors, 1);
        PQfinish(c);
        return NULL;
    }
    PQclear(PQexec(c, "SET synchronous_commit = off"));
    return c;
}

static void *hot_worker(void *arg)
{
    unsigned seed = (unsigned)(uintptr_t)arg * 7919u + 1;
    PGconn *c = connect_quiet();
    if (!c)
        return NULL;
    char sql[128];
    for (int i = 0; i < ROUNDS; i++) {
        int k = 1 + (int)(rand_r(&seed) % HOT);
        if (i % 4 == 3) {   /* a transaction of two rows, the smaller id first */
            int k2 = k % HOT + 1;
            int a = k < k2 ? k : k2, b = k < k2 ? k2 : k;
            if (!run_ok(c, "BEGIN"))
                continue;
            snprintf(sql, sizeof sql, "UPDATE acct SET bal = bal + 1 WHERE id = %d", a);
            long na = run_update(c, sql);
            snprintf(sql, sizeof sql, "UPDATE acct SET bal = bal + 1 WHERE id = %d", b);
            long nb = na < 0 ? -1 : run_update(c, sql);
            if (na < 0 || nb < 0) {
                PQclear(PQexec(c, "ROLLBACK"));
                continue;
            }
            if (run_ok(c, "COMMIT")) {
                atomic_fetch_add(&acked[a], na);
                atomic_fetch_add(&acked[b], nb);
            }
            continue;
        }
        if (i % 4 == 1)   /* the joined form: the re-check re-runs the join */
            snprintf(sql, sizeof sql,
                     "UPDATE acct SET bal = acct.bal + d.x FROM (VALUES (%d, 1)) d(k, x) WHERE acct.id = d.k", k);
        else
            snprintf(sql, sizeof sql, "UPDATE acct SET bal = bal + 1 WHERE id = %d", k);
        long n = run_update(c, sql);
        if (n > 0)
            atomic_fetch_add(&acked[k], n);
    }
    PQfinish(c);
    return NULL;
}

static void *cap_worker(void *arg)
{
    (void)arg;
    PGconn *c = connect_quiet();
    if (!c)
        return NULL;
    char sql[128];
    snprintf(sql, sizeof sql, "UPDATE capt SET bal = bal + 1 WHERE id = 1 AND bal < %d", CAP);
    for (int i = 0; i < 4 * CAP; i++) {
        long n = run_update(c, sql);
        if (n <= 0)
            break;
        atomic_fetch_add(&capped, n);
    }
    PQfinish(c);
    return NULL;
}

static void run_threads(void *(*fn)(void *))
{
    pthread_t th[THREADS];
    for (int i = 0; i < THREADS; i++)
        pthread_create(&th[i], NULL, fn, (void *)(uintptr_t)(i + 1));
    for (int i = 0; i < THREADS; i++)
        pthread_join(th[i], NULL);
}

static long query_long(PGconn *c, const char *sql)
{
    PGresult *r = ptest_exec(c, sql, PGRES_TUPLES_OK);
    long v = PQntuples(r) == 1 && !PQgetisnull(r, 0, 0) ? atol(PQgetvalue(r, 0, 0)) : -1;
    PQclear(r);
    return v;
}

static void phase_hot(PGconn *c)
{
    PQclear(ptest_exec(c, "CREATE TABLE acct (id int PRIMARY KEY, bal bigint NOT NULL)", PGRES_COMMAND_OK));
    PQclear(ptest_exec(c, "INSERT INTO acct SELECT g, 0 FROM generate_series(1, 4) g", PGRES_COMMAND_OK));
    run_threads(hot_worker);
    CHECK(atomic_load(&errors) == 0);
    long total = 0;
    for (int k = 1; k <= HOT; k++) {
        char sql[96];
        snprintf(sql, sizeof sql, "SELECT bal FROM acct WHERE id = %d", k);
        long bal = query_long(c, sql);
        if (bal != atomic_load(&acked[k]))
            fprintf(stderr, "row %d: bal %ld, acknowledged %ld\n", k, bal, atomic_load(&acked[k]));
        CHECK(bal == atomic_load(&acked[k]));
        total += atomic_load(&acked[k]);
    }
    CHECK(total == (long)THREADS * (ROUNDS + ROUNDS / 4));
    CHECK(query_long(c, "SELECT sum(bal) FROM acct") == total);
    CHECK(query_long(c, "SELECT count(*) FROM acct") == HOT);
}

static void phase_cap(PGconn *c)
{
    /* no primary key this time: rows found by the hidden row id */
    PQclear(ptest_exec(c, "CREATE TABLE capt (id int, bal bigint, note text)", PGRES_COMMAND_OK));
    PQclear(ptest_exec(c, "INSERT INTO capt VALUES (1, 0, 'one'), (2, 0, 'two')", PGRES_COMMAND_OK));
    run_threads(cap_worker);
    CHECK(atomic_load(&errors) == 0);
    CHECK(atomic_load(&capped) == CAP);
    CHECK(query_long(c, "SELECT bal FROM capt WHERE id = 1") == CAP);
    CHECK(query_long(c, "SELECT count(*) FROM capt WHERE note = 'one'") == 1);
    CHECK(query_long(c, "SELECT count(*) FROM capt") == 2);
}

/* Session b updates a row session a holds; a then commits `a_end`. */
static PGresult *blocked_update(PGconn *a, PGconn *b, const char *b_sql, const char *a_end)
{
    CHECK(PQsendQuery(b, b_sql) == 1);
    usleep(200 * 1000);   /* let b reach the row and wait for a */
    PQclear(ptest_exec(a, a_end, PGRES_COMMAND_OK));
    PGresult *r = PQgetResult(b);
    PGresult *extra;
    while ((extra = PQgetResult(b)) != NULL)
        PQclear(extra);
    return r;
}

static void phase_delete_and_rr(PGconn *a, PGconn *b)
{
    PQclear(ptest_exec(a, "BEGIN", PGRES_COMMAND_OK));
    PQclear(ptest_exec(a, "DELETE FROM acct WHERE id = 2", PGRES_COMMAND_OK));
    PGresult *r = blocked_update(a, b, "UPDATE acct SET bal = bal + 1 WHERE id = 2", "COMMIT");
    CHECK(PQresultStatus(r) == PGRES_COMMAND_OK);
    CHECK_STR(PQcmdStatus(r), "UPDATE 0");
    PQclear(r);

    /* a moved row that still matches is changed from its newest version ... */
    PQclear(ptest_exec(a, "BEGIN", PGRES_COMMAND_OK));
    PQclear(ptest_exec(a, "UPDATE acct SET bal = 21 WHERE id = 3", PGRES_COMMAND_OK));
    r = blocked_update(a, b, "UPDATE acct SET bal = bal * 2 WHERE id = 3 AND bal >= 0 RETURNING bal", "COMMIT");
    CHECK(PQresultStatus(r) == PGRES_TUPLES_OK);
    CHECK(PQntuples(r) == 1 && strcmp(PQgetvalue(r, 0, 0), "42") == 0);
    PQclear(r);
    CHECK(query_long(a, "SELECT bal FROM acct WHERE id = 3") == 42);

    /* ... and one that no longer matches is skipped */
    PQclear(ptest_exec(a, "BEGIN", PGRES_COMMAND_OK));
    PQclear(ptest_exec(a, "UPDATE acct SET bal = -5 WHERE id = 3", PGRES_COMMAND_OK));
    r = blocked_update(a, b, "UPDATE acct SET bal = bal * 2 WHERE id = 3 AND bal >= 0 RETURNING bal", "COMMIT");
    CHECK(PQresultStatus(r) == PGRES_TUPLES_OK);
    CHECK(PQntuples(r) == 0);
    PQclear(r);
    /* a constant SET (a constant vector out of the re-check) */
    PQclear(ptest_exec(a, "BEGIN", PGRES_COMMAND_OK));
    PQclear(ptest_exec(a, "UPDATE acct SET bal = bal + 1 WHERE id = 3", PGRES_COMMAND_OK));
    r = blocked_update(a, b, "UPDATE acct SET bal = 7 WHERE id = 3", "COMMIT");
    CHECK_STR(PQcmdStatus(r), "UPDATE 1");
    PQclear(r);
    CHECK(query_long(a, "SELECT bal FROM acct WHERE id = 3") == 7);

    /* DELETE re-checks too; RETURNING shows the version it deleted */
    PQclear(ptest_exec(a, "BEGIN", PGRES_COMMAND_OK));
    PQclear(ptest_exec(a, "UPDATE acct SET bal = 100 WHERE id = 3", PGRES_COMMAND_OK));
    r = blocked_update(a, b, "DELETE FROM acct WHERE id = 3 AND bal < 1000 RETURNING bal", "COMMIT");
    CHECK(PQresultStatus(r) == PGRES_TUPLES_OK);
    CHECK(PQntuples(r) == 1 && strcmp(PQgetvalue(r, 0, 0), "100") == 0);
    PQclear(r);
    CHECK(query_long(a, "SELECT count(*) FROM acct WHERE id = 3") == 0);
    PQclear(ptest_exec(a, "INSERT INTO acct VALUES (3, 0)", PGRES_COMMAND_OK));

    /* REPEATABLE READ: 40001 */
    PQclear(ptest_exec(b, "BEGIN ISOLATION LEVEL REPEATABLE READ", PGRES_COMMAND_OK));
    CHECK(query_long(b, "SELECT bal FROM acct WHERE id = 4") >= 0);
    PQclear(ptest_exec(a, "BEGIN", PGRES_COMMAND_OK));
    PQclear(ptest_exec(a, "UPDATE acct SET bal = bal + 1 WHERE id = 4", PGRES_COMMAND_OK));
    r = blocked_update(a, b, "UPDATE acct SET bal = bal + 1 WHERE id = 4", "COMMIT");
    CHECK(PQresultStatus(r) == PGRES_FATAL_ERROR);
    CHECK_STR(ptest_sqlstate(r), "40001");
    PQclear(r);
    PQclear(ptest_exec(b, "ROLLBACK", PGRES_COMMAND_OK));

    /* ... also as the session's default level: BEGIN without a level and
     * autocommit statements start at default_transaction_isolation */
    PQclear(ptest_exec(b, "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL REPEATABLE READ",
                       PGRES_COMMAND_OK));
    PQclear(ptest_exec(b, "BEGIN", PGRES_COMMAND_OK));
    CHECK(query_long(b, "SELECT bal FROM acct WHERE id = 4") >= 0);
    PQclear(ptest_exec(a, "BEGIN", PGRES_COMMAND_OK));
    PQclear(ptest_exec(a, "UPDATE acct SET bal = bal + 1 WHERE id = 4", PGRES_COMMAND_OK));
    r = blocked_update(a, b, "UPDATE acct SET bal = bal + 1 WHERE id = 4", "COMMIT");
    CHECK_STR(ptest_sqlstate(r), "40001");
    PQclear(r);
    PQclear(ptest_exec(b, "ROLLBACK", PGRES_COMMAND_OK));
    PQclear(ptest_exec(a, "BEGIN", PGRES_COMMAND_OK));
    PQclear(ptest_exec(a, "UPDATE acct SET bal = bal + 1 WHERE id = 4", PGRES_COMMAND_OK));
    r = blocked_update(a, b, "UPDATE acct SET bal = bal + 1 WHERE id = 4", "COMMIT");
    CHECK_STR(ptest_sqlstate(r), "40001");
    PQclear(r);
    PQclear(ptest_exec(b, "SET default_transaction_isolation = 'read committed'", PGRES_COMMAND_OK));
    PQclear(ptest_exec(a, "BEGIN", PGRES_COMMAND_OK));
    PQclear(ptest_exec(a, "UPDATE acct SET bal = bal + 1 WHERE id = 4", PGRES_COMMAND_OK));
    r = blocked_update(a, b, "UPDATE acct SET bal = bal + 1 WHERE id = 4", "COMMIT");
    CHECK_STR(PQcmdStatus(r), "UPDATE 1");
    PQclear(r);
}

/* CREATE TABLE AS / SELECT INTO command tags (PostgreSQL 15's). */
static void phase_tags(PGconn *c)
{
    static const struct { const char *sql, *tag; } cases[] = {
        {"CREATE TABLE ct1 AS SELECT * FROM acct", "SELECT 3"},
        {"CREATE TABLE ct2 AS SELECT * FROM acct WITH NO DATA", "CREATE TABLE AS"},
        {"CREATE TABLE IF NOT EXISTS ct1 AS SELECT 1", "CREATE TABLE AS"},
        {"SELECT id INTO ct3 FROM acct WHERE id > 3", "SELECT 1"},
        {"CREATE TABLE ct4 AS SELECT 1 WHERE false", "SELECT 0"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        PGresult *r = ptest_exec(c, cases[i].sql, PGRES_COMMAND_OK);
        CHECK_STR(PQcmdStatus(r), cases[i].tag);
        PQclear(r);
    }
}

int main(void)
{
    ptest_start(&server, NULL, NULL);
    PGconn *a = ptest_connect(&server, "");
    PGconn *b = ptest_connect(&server, "");
    phase_hot(a);
    phase_cap(a);
    phase_delete_and_rr(a, b);
    phase_tags(a);
    PQfinish(b);
    PQfinish(a);
    return ptest_finish(&server, "concurrent_update");
}
