/*
 * test_lock_waits.c — lock_timeout, table locks and ROLLBACK TO SAVEPOINT,
 * and a second CREATE of a name being created, between two sessions
 * through libpq (storage/txn.c, catalog.c, sequence.c; issue 3,
 * storage/README.md "Locking").
 *
 * Every expectation here is PostgreSQL 15's: the same program runs
 * against a real PostgreSQL 15 when STRATA_TEST_PG_CONNINFO names one
 * (e.g. "host=/tmp port=5491 user=postgres dbname=postgres"), instead of
 * starting Strata — which is how the expectations were checked.
 *
 * 1. lock_timeout (ms, 0 = off): a lock wait longer than it fails with
 *    55P03 "canceling statement due to lock timeout" — UPDATE/DELETE of a
 *    row another transaction updated, DROP/TRUNCATE/ALTER TABLE behind a
 *    writer, a SELECT behind an uncommitted TRUNCATE, ALTER ROLE, ALTER
 *    SEQUENCE, nextval behind a pending DROP SEQUENCE, a second CREATE
 *    TABLE; 0 waits for ever, a longer timeout lets the wait end well,
 *    statement_timeout still applies (57014), SET LOCAL in a block.
 * 2. ROLLBACK TO SAVEPOINT releases the table locks first taken after the
 *    savepoint (a DROP TABLE waiting on them goes ahead), not those taken
 *    before it nor those kept by RELEASE SAVEPOINT; a TRUNCATE's or DROP's
 *    exclusive lock inside it is released too (the share lock before it
 *    stays); a failed statement's lock, and a cursor opened after the
 *    savepoint (closed by the ROLLBACK TO), go with it.
 * 3. A second CREATE TABLE / VIEW / SEQUENCE of a name another transaction
 *    is creating waits for it; its COMMIT → 23505 on pg_type's unique index
 *    (two relations with row types) or pg_class's (a sequence involved);
 *    its ROLLBACK → the second CREATE succeeds.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "tests/protocol/ptest.h"

static TestServer server;
static const char *pg_conninfo;   /* a real PostgreSQL 15 instead of Strata */

static void no_notices(void *arg, const char *msg)
{
    (void)arg;
    (void)msg;
}

static PGconn *connect_one(void)
{
    PGconn *c = pg_conninfo ? PQconnectdb(pg_conninfo) : ptest_connect(&server, "");
    if (PQstatus(c) != CONNECTION_OK) {
        fprintf(stderr, "connect failed: %s", PQerrorMessage(c));
        exit(1);
    }
    PQsetNoticeProcessor(c, no_notices, NULL);   /* IF EXISTS clean-ups */
    return c;
}

/* Statements whose outcome does not matter (clean-up before a phase). */
static void quiet(PGconn *c, const char *sql) { PQclear(PQexec(c, sql)); }

/* An error's fields, "" when absent or on success. */
typedef struct Outcome {
    char state[8];
    char msg[256];
    char detail[256];
    char constraint[64];
} Outcome;

static void outcome_take(Outcome *o, const PGresult *r)
{
    ExecStatusType st = PQresultStatus(r);
    if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK || o->state[0])
        return;
    const char *m = PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY);
    const char *d = PQresultErrorField(r, PG_DIAG_MESSAGE_DETAIL);
    const char *n = PQresultErrorField(r, PG_DIAG_CONSTRAINT_NAME);
    snprintf(o->state, sizeof o->state, "%s", ptest_sqlstate(r));
    snprintf(o->msg, sizeof o->msg, "%s", m ? m : "");
    snprintf(o->detail, sizeof o->detail, "%s", d ? d : "");
    snprintf(o->constraint, sizeof o->constraint, "%s", n ? n : "");
}

static Outcome finish_async(PGconn *c)
{
    Outcome o;
    memset(&o, 0, sizeof o);
    PGresult *r;
    while ((r = PQgetResult(c)) != NULL) {
        outcome_take(&o, r);
        PQclear(r);
    }
    return o;
}

/* Run sql on c and return its last result (the caller clears it); a
 * statement still running after 10 s is cancelled (57014), so a wait that
 * should have ended fails the test instead of hanging it. */
static PGresult *exec_bounded(PGconn *c, const char *sql)
{
    ptest_send_async(c, sql);
    if (ptest_still_busy(c, 10000)) {
        fprintf(stderr, "\"%s\": still waiting after 10 s, cancelled\n", sql);
        PGcancel *cancel = PQgetCancel(c);
        char errbuf[256];
        if (cancel)
            PQcancel(cancel, errbuf, sizeof errbuf);
        PQfreeCancel(cancel);
    }
    PGresult *last = NULL, *r;
    while ((r = PQgetResult(c)) != NULL) {
        PQclear(last);
        last = r;
    }
    return last;
}

static Outcome run(PGconn *c, const char *sql)
{
    Outcome o;
    memset(&o, 0, sizeof o);
    PGresult *r = exec_bounded(c, sql);
    outcome_take(&o, r);
    PQclear(r);
    return o;
}

static void ok(PGconn *c, const char *sql)
{
    Outcome o = run(c, sql);
    if (o.state[0]) {
        fprintf(stderr, "\"%s\": [%s] %s\n", sql, o.state, o.msg);
        ptest_failures++;
    }
}

/* The single value of a one-row query, "ERROR:<sqlstate>" on error. */
static const char *value(PGconn *c, const char *sql)
{
    static char buf[128];
    PGresult *r = exec_bounded(c, sql);
    if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1)
        snprintf(buf, sizeof buf, "%s", PQgetvalue(r, 0, 0));
    else
        snprintf(buf, sizeof buf, "ERROR:%s", ptest_sqlstate(r));
    PQclear(r);
    return buf;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* sql on b fails with lock_timeout's error after about timeout_ms. */
static void times_out(PGconn *b, const char *sql, int timeout_ms)
{
    double t0 = now_s();
    Outcome o = run(b, sql);
    double secs = now_s() - t0;
    if (strcmp(o.state, "55P03") != 0 || secs < timeout_ms * 0.0009 || secs > timeout_ms / 1000.0 + 2.0)
        fprintf(stderr, "\"%s\": [%s] %s after %.3f s\n", sql, o.state, o.msg, secs);
    CHECK_STR(o.state, "55P03");
    CHECK_STR(o.msg, "canceling statement due to lock timeout");
    CHECK(secs >= timeout_ms * 0.0009 && secs <= timeout_ms / 1000.0 + 2.0);
}

static void phase_setting(PGconn *b)
{
    CHECK_STR(value(b, "SHOW lock_timeout"), "0");
    ok(b, "SET lock_timeout = 200");
    CHECK_STR(value(b, "SHOW lock_timeout"), "200ms");
    ok(b, "SET lock_timeout = '1s'");
    CHECK_STR(value(b, "SHOW lock_timeout"), "1s");
    CHECK_STR(run(b, "SET lock_timeout = -1").state, "22023");
    ok(b, "RESET lock_timeout");
    CHECK_STR(value(b, "SHOW lock_timeout"), "0");
}

/* Every kind of lock wait ends with 55P03 after lock_timeout. */
static void phase_lock_timeout(PGconn *a, PGconn *b)
{
    quiet(a, "DROP TABLE IF EXISTS lt");
    quiet(a, "DROP TABLE IF EXISTS ltc");
    quiet(a, "DROP SEQUENCE IF EXISTS lts");
    quiet(a, "DROP ROLE IF EXISTS ltr");
    ok(a, "CREATE TABLE lt (k int PRIMARY KEY, v int)");
    ok(a, "INSERT INTO lt VALUES (1, 1), (2, 2)");
    ok(b, "SET lock_timeout = 200");

    ok(a, "BEGIN");
    ok(a, "UPDATE lt SET v = 10 WHERE k = 1");
    times_out(b, "UPDATE lt SET v = 20 WHERE k = 1", 200);
    times_out(b, "DELETE FROM lt WHERE k = 1", 200);
    times_out(b, "DROP TABLE lt", 200);
    times_out(b, "TRUNCATE lt", 200);
    times_out(b, "ALTER TABLE lt ADD COLUMN w int", 200);
    ok(a, "ROLLBACK");

    ok(a, "BEGIN");
    ok(a, "TRUNCATE lt");
    times_out(b, "SELECT count(*) FROM lt", 200);
    ok(a, "ROLLBACK");
    CHECK_STR(value(b, "SELECT count(*) FROM lt"), "2");

    /* SET LOCAL in a block; the timeout fails the block (25P02 after). */
    ok(a, "BEGIN");
    ok(a, "DELETE FROM lt WHERE k = 2");
    ok(b, "SET lock_timeout = 0");
    ok(b, "BEGIN");
    ok(b, "SET LOCAL lock_timeout = 150");
    times_out(b, "UPDATE lt SET v = 0 WHERE k = 2", 150);
    CHECK_STR(value(b, "SELECT 1"), "ERROR:25P02");
    ok(b, "ROLLBACK");
    CHECK_STR(value(b, "SHOW lock_timeout"), "0");

    /* 0 waits as long as it takes; so does a timeout longer than the wait. */
    ptest_send_async(b, "UPDATE lt SET v = 5 WHERE k = 2");
    CHECK(ptest_still_busy(b, 400));
    ok(a, "COMMIT");
    CHECK_STR(finish_async(b).state, "");
    ok(b, "SET lock_timeout = '5s'");
    ok(a, "BEGIN");
    ok(a, "UPDATE lt SET v = 6 WHERE k = 1");
    ptest_send_async(b, "UPDATE lt SET v = v + 1 WHERE k = 1");
    CHECK(ptest_still_busy(b, 300));
    ok(a, "COMMIT");
    CHECK_STR(finish_async(b).state, "");
    CHECK_STR(value(a, "SELECT string_agg(k || ':' || v, ',' ORDER BY k) FROM lt"), "1:7");

    /* statement_timeout shorter than lock_timeout: 57014. */
    ok(a, "BEGIN");
    ok(a, "UPDATE lt SET v = 8 WHERE k = 1");
    ok(b, "SET statement_timeout = 200");
    CHECK_STR(run(b, "UPDATE lt SET v = 9 WHERE k = 1").state, "57014");
    ok(b, "RESET statement_timeout");
    ok(a, "ROLLBACK");

    /* Roles, sequences, a second CREATE: waits for a transaction. */
    ok(b, "SET lock_timeout = 200");
    ok(a, "CREATE ROLE ltr");
    ok(a, "CREATE SEQUENCE lts");
    ok(a, "BEGIN");
    ok(a, "ALTER ROLE ltr LOGIN");
    ok(a, "ALTER SEQUENCE lts INCREMENT 10");
    ok(a, "CREATE TABLE ltc (x int)");
    times_out(b, "ALTER ROLE ltr CREATEDB", 200);
    times_out(b, "ALTER SEQUENCE lts INCREMENT 5", 200);
    times_out(b, "CREATE TABLE ltc (y int)", 200);
    times_out(b, "CREATE SEQUENCE ltc", 200);
    ok(a, "ROLLBACK");
    ok(a, "BEGIN");
    ok(a, "DROP SEQUENCE lts");
    times_out(b, "SELECT nextval('lts')", 200);
    ok(a, "ROLLBACK");
    CHECK_STR(value(b, "SELECT nextval('lts')"), "1");
    ok(b, "RESET lock_timeout");
    ok(a, "DROP SEQUENCE lts");
    ok(a, "DROP ROLE ltr");
    ok(a, "DROP TABLE lt");
}

/* b's DROP TABLE sp goes ahead at once (b's lock_timeout catches a wait). */
static void drop_proceeds(PGconn *b)
{
    Outcome o = run(b, "DROP TABLE sp");
    if (o.state[0])
        fprintf(stderr, "DROP TABLE sp: [%s] %s\n", o.state, o.msg);
    CHECK_STR(o.state, "");
}

/* b's DROP TABLE sp waits until a commits. */
static void drop_waits_for_commit(PGconn *a, PGconn *b)
{
    ptest_send_async(b, "DROP TABLE sp");
    CHECK(ptest_still_busy(b, 300));
    ok(a, "COMMIT");
    CHECK_STR(finish_async(b).state, "");
}

static void phase_savepoints(PGconn *a, PGconn *b)
{
    quiet(a, "DROP TABLE IF EXISTS sp");
    quiet(a, "DROP TABLE IF EXISTS spn");
    quiet(a, "DROP SEQUENCE IF EXISTS sps");
    ok(b, "SET lock_timeout = '2s'");

    /* A lock first taken after the savepoint goes with it. */
    ok(a, "CREATE TABLE sp (k int PRIMARY KEY, v int)");
    ok(a, "INSERT INTO sp VALUES (1, 1)");
    ok(a, "BEGIN");
    ok(a, "SAVEPOINT s1");
    CHECK_STR(value(a, "SELECT count(*) FROM sp"), "1");
    ok(a, "ROLLBACK TO SAVEPOINT s1");
    drop_proceeds(b);
    CHECK_STR(value(a, "SELECT count(*) FROM sp"), "ERROR:42P01");
    ok(a, "ROLLBACK");

    /* One taken before it stays. */
    ok(a, "CREATE TABLE sp (k int PRIMARY KEY, v int)");
    ok(a, "INSERT INTO sp VALUES (1, 1)");
    ok(a, "BEGIN");
    CHECK_STR(value(a, "SELECT count(*) FROM sp"), "1");
    ok(a, "SAVEPOINT s1");
    CHECK_STR(value(a, "SELECT count(*) FROM sp"), "1");
    ok(a, "ROLLBACK TO SAVEPOINT s1");
    drop_waits_for_commit(a, b);

    /* A row lock (write) inside it: another UPDATE of the row goes ahead. */
    ok(a, "CREATE TABLE sp (k int PRIMARY KEY, v int)");
    ok(a, "INSERT INTO sp VALUES (1, 1)");
    ok(a, "BEGIN");
    ok(a, "SAVEPOINT s1");
    ok(a, "UPDATE sp SET v = 2 WHERE k = 1");
    ok(a, "ROLLBACK TO SAVEPOINT s1");
    CHECK_STR(run(b, "UPDATE sp SET v = 3 WHERE k = 1").state, "");
    CHECK_STR(value(a, "SELECT v FROM sp WHERE k = 1"), "3");
    drop_waits_for_commit(a, b);

    /* Read before, written after: the write lock goes, the read lock stays. */
    ok(a, "CREATE TABLE sp (k int PRIMARY KEY, v int)");
    ok(a, "INSERT INTO sp VALUES (1, 1)");
    ok(a, "BEGIN");
    CHECK_STR(value(a, "SELECT v FROM sp WHERE k = 1"), "1");
    ok(a, "SAVEPOINT s1");
    ok(a, "DELETE FROM sp WHERE k = 1");
    ok(a, "ROLLBACK TO SAVEPOINT s1");
    CHECK_STR(run(b, "UPDATE sp SET v = 5 WHERE k = 1").state, "");
    CHECK_STR(value(a, "SELECT v FROM sp WHERE k = 1"), "5");
    drop_waits_for_commit(a, b);

    /* RELEASE passes the lock to the transaction. */
    ok(a, "CREATE TABLE sp (k int PRIMARY KEY, v int)");
    ok(a, "BEGIN");
    ok(a, "SAVEPOINT s1");
    CHECK_STR(value(a, "SELECT count(*) FROM sp"), "0");
    ok(a, "RELEASE SAVEPOINT s1");
    drop_waits_for_commit(a, b);

    /* ... or to the enclosing savepoint, whose rollback releases it. */
    ok(a, "CREATE TABLE sp (k int PRIMARY KEY, v int)");
    ok(a, "BEGIN");
    ok(a, "SAVEPOINT s1");
    ok(a, "SAVEPOINT s2");
    CHECK_STR(value(a, "SELECT count(*) FROM sp"), "0");
    ok(a, "RELEASE SAVEPOINT s2");
    ok(a, "ROLLBACK TO SAVEPOINT s1");
    drop_proceeds(b);
    ok(a, "COMMIT");

    /* TRUNCATE's exclusive lock goes, the share lock from before stays. */
    ok(a, "CREATE TABLE sp (k int PRIMARY KEY, v int)");
    ok(a, "INSERT INTO sp VALUES (1, 1)");
    ok(a, "BEGIN");
    CHECK_STR(value(a, "SELECT count(*) FROM sp"), "1");
    ok(a, "SAVEPOINT s1");
    ok(a, "TRUNCATE sp");
    ok(a, "ROLLBACK TO SAVEPOINT s1");
    CHECK_STR(value(b, "SELECT count(*) FROM sp"), "1");
    CHECK_STR(run(b, "UPDATE sp SET v = 4 WHERE k = 1").state, "");
    drop_waits_for_commit(a, b);

    /* A DROP inside it, rolled back: the table is free again. */
    ok(a, "CREATE TABLE sp (k int PRIMARY KEY, v int)");
    ok(a, "BEGIN");
    ok(a, "SAVEPOINT s1");
    ok(a, "DROP TABLE sp");
    ok(a, "ROLLBACK TO SAVEPOINT s1");
    CHECK_STR(value(b, "SELECT count(*) FROM sp"), "0");
    drop_proceeds(b);
    ok(a, "COMMIT");

    /* A failed statement's lock goes with the savepoint rolled back to. */
    ok(a, "CREATE TABLE sp (k int PRIMARY KEY, v int)");
    ok(a, "INSERT INTO sp VALUES (0, 0)");
    ok(a, "BEGIN");
    ok(a, "SAVEPOINT s1");
    CHECK_STR(value(a, "SELECT 1 / v FROM sp"), "ERROR:22012");
    ok(a, "ROLLBACK TO SAVEPOINT s1");
    drop_proceeds(b);
    ok(a, "COMMIT");

    /* A cursor opened after the savepoint closes with it, and its lock goes. */
    ok(a, "CREATE TABLE sp (k int PRIMARY KEY, v int)");
    ok(a, "INSERT INTO sp VALUES (1, 1), (2, 2)");
    ok(a, "BEGIN");
    ok(a, "SAVEPOINT s1");
    ok(a, "DECLARE c1 CURSOR FOR SELECT k FROM sp");
    CHECK_STR(value(a, "FETCH 1 FROM c1"), "1");
    ok(a, "ROLLBACK TO SAVEPOINT s1");
    CHECK_STR(value(a, "FETCH 1 FROM c1"), "ERROR:34000");
    ok(a, "ROLLBACK");
    ok(a, "BEGIN");
    ok(a, "SAVEPOINT s1");
    ok(a, "DECLARE c1 CURSOR FOR SELECT k FROM sp");
    CHECK_STR(value(a, "FETCH 1 FROM c1"), "1");
    ok(a, "ROLLBACK TO SAVEPOINT s1");
    drop_proceeds(b);
    ok(a, "COMMIT");

    /* A CREATE rolled back to its savepoint: nobody waits for the name. */
    ok(a, "BEGIN");
    ok(a, "SAVEPOINT s1");
    ok(a, "CREATE TABLE spn (x int)");
    ok(a, "CREATE SEQUENCE sps");
    ok(a, "ROLLBACK TO SAVEPOINT s1");
    CHECK_STR(run(b, "CREATE TABLE spn (y int)").state, "");
    CHECK_STR(run(b, "CREATE SEQUENCE sps").state, "");
    ok(a, "COMMIT");
    ok(b, "DROP TABLE spn");
    ok(b, "DROP SEQUENCE sps");
    ok(b, "RESET lock_timeout");
}

/* a runs a_sql in a block, b's b_sql waits for it, a ends with `end`. */
static Outcome create_after(PGconn *a, PGconn *b, const char *a_sql, const char *b_sql,
                            const char *end)
{
    quiet(a, "DROP TABLE IF EXISTS cr");
    quiet(a, "DROP VIEW IF EXISTS cr");
    quiet(a, "DROP SEQUENCE IF EXISTS cr");
    ok(a, "BEGIN");
    ok(a, a_sql);
    ptest_send_async(b, b_sql);
    CHECK(ptest_still_busy(b, 300));
    ok(a, end);
    Outcome o = finish_async(b);
    if (o.state[0] && strcmp(o.state, "23505") != 0)
        fprintf(stderr, "\"%s\" then \"%s\" / %s: [%s] %s\n", a_sql, b_sql, end, o.state, o.msg);
    return o;
}

static void check_taken(Outcome o, const char *index, const char *detail)
{
    char msg[128];
    snprintf(msg, sizeof msg, "duplicate key value violates unique constraint \"%s\"", index);
    CHECK_STR(o.state, "23505");
    CHECK_STR(o.msg, msg);
    CHECK_STR(o.detail, detail);
    CHECK_STR(o.constraint, index);
}

static void phase_create(PGconn *a, PGconn *b)
{
    const char *type_key = "Key (typname, typnamespace)=(cr, 2200) already exists.";
    const char *class_key = "Key (relname, relnamespace)=(cr, 2200) already exists.";
    check_taken(create_after(a, b, "CREATE TABLE cr (x int)", "CREATE TABLE cr (y int)", "COMMIT"),
                "pg_type_typname_nsp_index", type_key);
    CHECK_STR(value(b, "SELECT count(x) FROM cr"), "0");
    CHECK_STR(create_after(a, b, "CREATE TABLE cr (x int)", "CREATE TABLE cr (y int)", "ROLLBACK").state,
              "");
    CHECK_STR(value(b, "SELECT count(y) FROM cr"), "0");
    check_taken(create_after(a, b, "CREATE TABLE cr (x int)", "CREATE TABLE IF NOT EXISTS cr (y int)",
                             "COMMIT"),
                "pg_type_typname_nsp_index", type_key);
    check_taken(create_after(a, b, "CREATE SEQUENCE cr", "CREATE SEQUENCE cr", "COMMIT"),
                "pg_class_relname_nsp_index", class_key);
    CHECK_STR(create_after(a, b, "CREATE SEQUENCE cr", "CREATE SEQUENCE cr START 5", "ROLLBACK").state,
              "");
    CHECK_STR(value(b, "SELECT nextval('cr')"), "5");
    check_taken(create_after(a, b, "CREATE SEQUENCE cr", "CREATE TABLE cr (y int)", "COMMIT"),
                "pg_class_relname_nsp_index", class_key);
    check_taken(create_after(a, b, "CREATE TABLE cr (x int)", "CREATE SEQUENCE cr", "COMMIT"),
                "pg_class_relname_nsp_index", class_key);
    CHECK_STR(create_after(a, b, "CREATE TABLE cr (x int)", "CREATE SEQUENCE cr", "ROLLBACK").state,
              "");
    check_taken(create_after(a, b, "CREATE VIEW cr AS SELECT 1 AS x", "CREATE VIEW cr AS SELECT 2 AS y",
                             "COMMIT"),
                "pg_type_typname_nsp_index", type_key);
    check_taken(create_after(a, b, "CREATE TABLE cr (x int)", "CREATE VIEW cr AS SELECT 2 AS y",
                             "COMMIT"),
                "pg_type_typname_nsp_index", type_key);
    /* Inside b's block the wait fails the block, as any error. */
    quiet(a, "DROP TABLE IF EXISTS cr");
    ok(a, "BEGIN");
    ok(a, "CREATE TABLE cr (x int)");
    ok(b, "BEGIN");
    ptest_send_async(b, "CREATE TABLE cr (y int)");
    CHECK(ptest_still_busy(b, 300));
    ok(a, "ROLLBACK");
    CHECK_STR(finish_async(b).state, "");
    ok(b, "INSERT INTO cr VALUES (1)");
    ok(b, "COMMIT");
    CHECK_STR(value(a, "SELECT sum(y) FROM cr"), "1");
    /* Crossed CREATEs: one of the two sessions gets 40P01 (PostgreSQL the
     * first waiter, after deadlock_timeout; Strata the second, at once). */
    quiet(a, "DROP TABLE IF EXISTS cr");
    quiet(a, "DROP TABLE IF EXISTS cr2");
    ok(a, "BEGIN");
    ok(b, "BEGIN");
    ok(a, "CREATE TABLE cr (x int)");
    ok(b, "CREATE TABLE cr2 (x int)");
    ptest_send_async(a, "CREATE TABLE cr2 (y int)");
    CHECK(ptest_still_busy(a, 200));
    Outcome ob = run(b, "CREATE TABLE cr (y int)");
    if (strcmp(ob.state, "40P01") == 0) {
        ok(b, "ROLLBACK");
        CHECK_STR(finish_async(a).state, "");
        ok(a, "ROLLBACK");
    } else {
        CHECK_STR(finish_async(a).state, "40P01");
        ok(a, "ROLLBACK");
        CHECK_STR(ob.state, "");
        ok(b, "ROLLBACK");
    }
}

int main(void)
{
    pg_conninfo = getenv("STRATA_TEST_PG_CONNINFO");
    if (!pg_conninfo)
        ptest_start(&server, NULL, NULL);
    PGconn *a = connect_one();
    PGconn *b = connect_one();
    phase_setting(b);
    phase_lock_timeout(a, b);
    phase_savepoints(a, b);
    phase_create(a, b);
    PQfinish(b);
    PQfinish(a);
    if (pg_conninfo) {
        printf("lock_waits (PostgreSQL %s): %s\n", pg_conninfo, ptest_failures ? "FAILED" : "ok");
        return ptest_failures ? 1 : 0;
    }
    /* Checked: a sanitizer report in the server's log fails the test too. */
    if (harness_server_stop_checked(&server) != 0)
        ptest_failures++;
    if (ptest_failures) {
        fprintf(stderr, "lock_waits: %d check(s) failed\n", ptest_failures);
        return 1;
    }
    printf("lock_waits: ok\n");
    return 0;
}
