/*
 * test_catalog_locks.c — PostgreSQL 15's table locks and catalog waits
 * between sessions, through libpq (storage/txn.c, roles.c, sequence.c;
 * issue 3, storage/README.md "Locking"). Each expectation was checked with
 * two psql sessions on PostgreSQL 15.
 *
 * 1. A table read by a REPEATABLE READ transaction, and by a READ
 *    COMMITTED one, keeps its lock to the reader's end: another session's
 *    DROP TABLE / TRUNCATE waits (the reader meanwhile still sees its
 *    rows, and may even write the table: it goes ahead of the queued
 *    DROP), then succeeds.
 * 2. A session reaching the table while a DROP is queued waits behind it
 *    and then gets 42P01.
 * 3. Two readers both dropping: the second gets 40P01 at once, the first
 *    completes after the second's rollback. A writer dropping its table
 *    goes ahead of another session's queued DROP (which then gets 42P01).
 * 4. A waiting DROP honours cancel and statement_timeout (57014).
 * 5. Roles: a second ALTER/DROP/CREATE waits for the transaction with a
 *    pending change of the role; after its COMMIT: XX000 "tuple
 *    concurrently updated" / "... deleted", 23505 for CREATE; after its
 *    ROLLBACK the change goes ahead. Crossed ALTERs of two roles → 40P01,
 *    and a cycle through a table lock and a role's pending change too.
 * 6. Sequences: a second ALTER SEQUENCE waits, then applies on top of the
 *    committed one; after a committed DROP, ALTER gets 42P01.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "tests/protocol/ptest.h"

static TestServer server;

static void ok(PGconn *c, const char *sql)
{
    PGresult *r = PQexec(c, sql);
    ExecStatusType st = PQresultStatus(r);
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
        fprintf(stderr, "\"%s\": %s", sql, PQresultErrorMessage(r));
        ptest_failures++;
    }
    PQclear(r);
}

/* The single value of a one-row query, "ERROR:<sqlstate>" on error. */
static const char *value(PGconn *c, const char *sql)
{
    static char buf[128];
    PGresult *r = PQexec(c, sql);
    if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1)
        snprintf(buf, sizeof buf, "%s", PQgetvalue(r, 0, 0));
    else
        snprintf(buf, sizeof buf, "ERROR:%s", ptest_sqlstate(r));
    PQclear(r);
    return buf;
}

/* Collect the async query's outcome: "" on success, else its SQLSTATE;
 * the message goes into msg when given. */
static const char *finish_async(PGconn *c, char *msg, size_t msg_size)
{
    static char state[8];
    state[0] = '\0';
    if (msg)
        msg[0] = '\0';
    PGresult *r;
    while ((r = PQgetResult(c)) != NULL) {
        ExecStatusType st = PQresultStatus(r);
        if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK) {
            snprintf(state, sizeof state, "%s", ptest_sqlstate(r));
            if (msg)
                snprintf(msg, msg_size, "%s", PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY));
        }
        PQclear(r);
    }
    return state;
}

/* The SQLSTATE sql raises on c ("" when it succeeds). */
static const char *state_of(PGconn *c, const char *sql)
{
    static char state[8];
    PGresult *r = PQexec(c, sql);
    ExecStatusType st = PQresultStatus(r);
    snprintf(state, sizeof state, "%s",
             st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK ? "" : ptest_sqlstate(r));
    PQclear(r);
    return state;
}

static void phase_readers_hold_their_lock(PGconn *a, PGconn *b)
{
    const char *levels[] = {"REPEATABLE READ", "READ COMMITTED"};
    for (int i = 0; i < 2; i++) {
        ok(a, "CREATE TABLE lk (v int)");
        ok(a, "INSERT INTO lk VALUES (1), (2)");
        char begin[64];
        snprintf(begin, sizeof begin, "BEGIN ISOLATION LEVEL %s", levels[i]);
        ok(a, begin);
        CHECK_STR(value(a, "SELECT count(*) FROM lk"), "2");
        /* The scan is over; the lock stays with the transaction. */
        ptest_send_async(b, "DROP TABLE lk");
        CHECK(ptest_still_busy(b, 400));
        CHECK_STR(value(a, "SELECT count(*) FROM lk"), "2");
        CHECK(ptest_still_busy(b, 100));
        ok(a, "COMMIT");
        CHECK_STR(finish_async(b, NULL, 0), "");
        CHECK_STR(value(a, "SELECT count(*) FROM lk"), "ERROR:42P01");
    }

    /* TRUNCATE waits for a READ COMMITTED reader, which may still insert
     * (it holds a lock already, so it goes ahead of the queued TRUNCATE). */
    ok(a, "CREATE TABLE lk (v int)");
    ok(a, "INSERT INTO lk VALUES (1), (2)");
    ok(a, "BEGIN");
    CHECK_STR(value(a, "SELECT count(*) FROM lk"), "2");
    ptest_send_async(b, "TRUNCATE lk");
    CHECK(ptest_still_busy(b, 300));
    ok(a, "INSERT INTO lk VALUES (3)");
    CHECK_STR(value(a, "SELECT count(*) FROM lk"), "3");
    CHECK(ptest_still_busy(b, 100));
    ok(a, "COMMIT");
    CHECK_STR(finish_async(b, NULL, 0), "");
    CHECK_STR(value(a, "SELECT count(*) FROM lk"), "0");

    /* A writer's lock too: DROP waits for the inserting transaction. */
    ok(a, "BEGIN");
    ok(a, "INSERT INTO lk VALUES (4)");
    ptest_send_async(b, "DROP TABLE lk");
    CHECK(ptest_still_busy(b, 300));
    ok(a, "ROLLBACK");
    CHECK_STR(finish_async(b, NULL, 0), "");
}

static void phase_queue_and_deadlock(PGconn *a, PGconn *b, PGconn *c)
{
    /* A newcomer waits behind the queued DROP, then finds no table. */
    ok(a, "CREATE TABLE lq (v int)");
    ok(a, "INSERT INTO lq VALUES (1)");
    ok(a, "BEGIN");
    CHECK_STR(value(a, "SELECT count(*) FROM lq"), "1");
    ptest_send_async(b, "DROP TABLE lq");
    CHECK(ptest_still_busy(b, 200));
    ptest_send_async(c, "SELECT count(*) FROM lq");
    CHECK(ptest_still_busy(c, 300));
    ok(a, "COMMIT");
    CHECK_STR(finish_async(b, NULL, 0), "");
    char msg[256];
    CHECK_STR(finish_async(c, msg, sizeof msg), "42P01");
    CHECK_STR(msg, "relation \"lq\" does not exist");

    /* Two readers upgrading to DROP: the second closes the cycle. */
    ok(a, "CREATE TABLE ld (v int)");
    ok(a, "BEGIN");
    ok(b, "BEGIN");
    CHECK_STR(value(a, "SELECT count(*) FROM ld"), "0");
    CHECK_STR(value(b, "SELECT count(*) FROM ld"), "0");
    ptest_send_async(a, "DROP TABLE ld");
    CHECK(ptest_still_busy(a, 200));
    PGresult *r = PQexec(b, "DROP TABLE ld");
    CHECK_STR(ptest_sqlstate(r), "40P01");
    CHECK_STR(PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY), "deadlock detected");
    PQclear(r);
    ok(b, "ROLLBACK");
    CHECK_STR(finish_async(a, NULL, 0), "");
    ok(a, "COMMIT");
    CHECK_STR(value(b, "SELECT count(*) FROM ld"), "ERROR:42P01");

    /* A writer dropping its table goes ahead of a queued DROP. */
    ok(a, "CREATE TABLE lw (v int)");
    ok(a, "BEGIN");
    ok(a, "INSERT INTO lw VALUES (1)");
    ptest_send_async(b, "DROP TABLE lw");
    CHECK(ptest_still_busy(b, 200));
    ok(a, "DROP TABLE lw");
    CHECK(ptest_still_busy(b, 100));
    ok(a, "COMMIT");
    CHECK_STR(finish_async(b, msg, sizeof msg), "42P01");
    CHECK_STR(msg, "table \"lw\" does not exist");

    /* A waiting DROP can be cancelled, or time out. */
    ok(a, "CREATE TABLE lc (v int)");
    ok(a, "BEGIN");
    CHECK_STR(value(a, "SELECT count(*) FROM lc"), "0");
    ptest_send_async(b, "DROP TABLE lc");
    CHECK(ptest_still_busy(b, 200));
    PGcancel *cancel = PQgetCancel(b);
    char errbuf[256];
    CHECK(cancel && PQcancel(cancel, errbuf, sizeof errbuf));
    PQfreeCancel(cancel);
    CHECK_STR(finish_async(b, NULL, 0), "57014");
    ok(b, "SET statement_timeout = 300");
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    CHECK_STR(state_of(b, "DROP TABLE lc"), "57014");
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    CHECK(secs >= 0.25 && secs < 5.0);
    ok(b, "RESET statement_timeout");
    CHECK_STR(value(a, "SELECT count(*) FROM lc"), "0");
    ok(a, "COMMIT");
    ok(b, "DROP TABLE lc");
}

/* B's statement waits for A's pending change; A ends with `end`; B's
 * outcome is want_state (and want_msg when given). */
static void waits_then(PGconn *a, PGconn *b, const char *a_sql, const char *b_sql, const char *end,
                       const char *want_state, const char *want_msg)
{
    ok(a, "BEGIN");
    ok(a, a_sql);
    ptest_send_async(b, b_sql);
    CHECK(ptest_still_busy(b, 300));
    ok(a, end);
    char msg[256];
    const char *st = finish_async(b, msg, sizeof msg);
    if (strcmp(st, want_state) != 0)
        fprintf(stderr, "after \"%s\" / %s: \"%s\" gave [%s] %s\n", a_sql, end, b_sql, st, msg);
    CHECK_STR(st, want_state);
    if (want_msg)
        CHECK_STR(msg, want_msg);
}

static void phase_roles(PGconn *a, PGconn *b)
{
    ok(a, "CREATE ROLE lr1");
    ok(a, "CREATE ROLE lr2");
    waits_then(a, b, "ALTER ROLE lr1 SUPERUSER", "ALTER ROLE lr1 CREATEDB", "COMMIT", "XX000",
               "tuple concurrently updated");
    waits_then(a, b, "ALTER ROLE lr1 NOSUPERUSER", "ALTER ROLE lr1 CREATEROLE", "ROLLBACK", "",
               NULL);
    CHECK_STR(value(a, "SELECT rolsuper::text || rolcreaterole::text FROM pg_roles WHERE rolname = 'lr1'"),
              "truetrue");
    waits_then(a, b, "ALTER ROLE lr1 LOGIN", "DROP ROLE lr1", "COMMIT", "XX000",
               "tuple concurrently updated");
    waits_then(a, b, "DROP ROLE lr1", "ALTER ROLE lr1 NOLOGIN", "COMMIT", "XX000",
               "tuple concurrently deleted");
    waits_then(a, b, "DROP ROLE lr2", "DROP ROLE lr2", "ROLLBACK", "", NULL);
    CHECK_STR(value(a, "SELECT count(*) FROM pg_roles WHERE rolname = 'lr2'"), "0");
    waits_then(a, b, "CREATE ROLE lr3", "CREATE ROLE lr3", "COMMIT", "23505",
               "duplicate key value violates unique constraint \"pg_authid_rolname_index\"");
    waits_then(a, b, "CREATE ROLE lr4", "CREATE ROLE lr4", "ROLLBACK", "", NULL);
    /* Not waited for: an uncommitted role is invisible, a committed one exists. */
    ok(a, "BEGIN");
    ok(a, "CREATE ROLE lr5");
    CHECK_STR(state_of(b, "ALTER ROLE lr5 LOGIN"), "42704");
    ok(a, "COMMIT");
    /* Crossed changes of two roles: one of the sessions gets 40P01. */
    ok(a, "BEGIN");
    ok(b, "BEGIN");
    ok(a, "ALTER ROLE lr3 LOGIN");
    ok(b, "ALTER ROLE lr4 LOGIN");
    ptest_send_async(a, "ALTER ROLE lr4 CREATEDB");
    CHECK(ptest_still_busy(a, 200));
    CHECK_STR(state_of(b, "ALTER ROLE lr3 CREATEDB"), "40P01");
    ok(b, "ROLLBACK");
    CHECK_STR(finish_async(a, NULL, 0), "");
    ok(a, "COMMIT");
    /* A cycle through a table lock and a role: A reads lx, B alters lr4
     * and drops lx (waits for A), A alters lr4 (waits for B). PostgreSQL
     * fails B (its deadlock_timeout fires first), Strata A (it closes the
     * cycle): exactly one gets 40P01 and the other completes. */
    ok(a, "CREATE TABLE lx (v int)");
    ok(a, "BEGIN");
    CHECK_STR(value(a, "SELECT count(*) FROM lx"), "0");
    ok(b, "BEGIN");
    ok(b, "ALTER ROLE lr4 CREATEROLE");
    ptest_send_async(b, "DROP TABLE lx");
    CHECK(ptest_still_busy(b, 200));
    const char *sa = state_of(a, "ALTER ROLE lr4 NOLOGIN");
    char st_a[8];
    snprintf(st_a, sizeof st_a, "%s", sa);
    if (strcmp(st_a, "40P01") == 0) {
        ok(a, "ROLLBACK");
        CHECK_STR(finish_async(b, NULL, 0), "");
        ok(b, "COMMIT");
    } else {
        CHECK_STR(finish_async(b, NULL, 0), "40P01");
        ok(b, "ROLLBACK");
        CHECK_STR(st_a, "");
        ok(a, "COMMIT");
        ok(a, "DROP TABLE lx");
    }
    CHECK_STR(value(a, "SELECT count(*) FROM pg_class WHERE relname = 'lx'"), "0");
    ok(a, "DROP ROLE lr3");
    ok(a, "DROP ROLE lr4");
    ok(a, "DROP ROLE lr5");
}

static void phase_sequences(PGconn *a, PGconn *b)
{
    ok(a, "CREATE SEQUENCE ls1");
    ok(a, "CREATE SEQUENCE ls2");
    waits_then(a, b, "ALTER SEQUENCE ls1 INCREMENT 10", "ALTER SEQUENCE ls1 INCREMENT 5", "COMMIT",
               "", NULL);
    CHECK_STR(value(a, "SELECT nextval('ls1')"), "1");
    CHECK_STR(value(a, "SELECT nextval('ls1')"), "6");
    waits_then(a, b, "DROP SEQUENCE ls2", "ALTER SEQUENCE ls2 INCREMENT 5", "COMMIT", "42P01",
               "relation \"ls2\" does not exist");
    ok(a, "CREATE SEQUENCE ls2");
    waits_then(a, b, "DROP SEQUENCE ls2", "DROP SEQUENCE ls2", "COMMIT", "42P01",
               "sequence \"ls2\" does not exist");
    ok(a, "DROP SEQUENCE ls1");
}

static char last_notice[256];

static void notice_receiver(void *arg, const PGresult *r)
{
    (void)arg;
    snprintf(last_notice, sizeof last_notice, "%s", PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY));
}

/* A DROP TABLE that waited for a reader which then dropped the table
 * itself: the name is looked up again once the lock is held, so IF EXISTS
 * skips it with PostgreSQL's NOTICE and a plain DROP is 42P01. */
static void phase_drop_after_wait(PGconn *a, PGconn *b)
{
    PQsetNoticeReceiver(b, notice_receiver, NULL);
    ok(a, "CREATE TABLE dw1 (x int)");
    ok(a, "CREATE TABLE dw2 (x int)");
    waits_then(a, b, "SELECT count(*) FROM dw1", "DROP TABLE IF EXISTS dw1", "DROP TABLE dw1; COMMIT", "",
               NULL);
    CHECK_STR(last_notice, "table \"dw1\" does not exist, skipping");
    waits_then(a, b, "SELECT count(*) FROM dw2", "DROP TABLE dw2", "DROP TABLE dw2; COMMIT", "42P01",
               "table \"dw2\" does not exist");
}

/* ALTER TABLE ADD COLUMN / ADD PRIMARY KEY take ACCESS EXCLUSIVE: they
 * wait for a reader's transaction end, and a reader waits for theirs. */
static void phase_alter_waits(PGconn *a, PGconn *b)
{
    ok(a, "CREATE TABLE al (x int)");
    ok(a, "INSERT INTO al VALUES (1), (2)");
    waits_then(a, b, "SELECT count(*) FROM al", "ALTER TABLE al ADD COLUMN y int DEFAULT 7", "COMMIT", "",
               NULL);
    waits_then(a, b, "ALTER TABLE al ADD PRIMARY KEY (x)", "SELECT count(*) FROM al", "COMMIT", "", NULL);
    waits_then(a, b, "SELECT sum(y) FROM al", "ALTER TABLE al ADD PRIMARY KEY (x)", "COMMIT", "42P16",
               "multiple primary keys for table \"al\" are not allowed");
    CHECK_STR(value(a, "SELECT sum(x + y) FROM al"), "17");
    waits_then(a, b, "DROP TABLE al", "ALTER TABLE al ADD COLUMN z int", "COMMIT", "42P01",
               "relation \"al\" does not exist");
}

/* pg_roles reads with the transaction's snapshot (PostgreSQL's catalog
 * scans): under REPEATABLE READ a role created or dropped by another
 * session after the snapshot keeps its old state; READ COMMITTED sees it
 * at the next statement. */
static void phase_roles_snapshot(PGconn *a, PGconn *b)
{
    ok(a, "CREATE ROLE rs_old");
    ok(a, "BEGIN ISOLATION LEVEL REPEATABLE READ");
    CHECK_STR(value(a, "SELECT count(*) FROM pg_roles WHERE rolname LIKE 'rs\\_%'"), "1");
    ok(b, "CREATE ROLE rs_new LOGIN");
    ok(b, "DROP ROLE rs_old");
    CHECK_STR(value(a, "SELECT string_agg(rolname, ',' ORDER BY rolname) FROM pg_roles WHERE rolname LIKE 'rs\\_%'"),
              "rs_old");
    CHECK_STR(value(a, "SELECT count(*) FROM pg_user WHERE usename = 'rs_new'"), "0");
    ok(a, "COMMIT");
    CHECK_STR(value(a, "SELECT string_agg(rolname, ',' ORDER BY rolname) FROM pg_roles WHERE rolname LIKE 'rs\\_%'"),
              "rs_new");
    CHECK_STR(value(a, "SELECT count(*) FROM pg_user WHERE usename = 'rs_new'"), "1");
    ok(b, "DROP ROLE rs_new");
}

/* pg_class and pg_attribute under REPEATABLE READ list the tables of the
 * snapshot, as PostgreSQL's (catalog rows are read with the snapshot): a
 * table created after it is not there, one dropped after it still is;
 * after the COMMIT the listing is the latest. */
static void phase_tables_snapshot(PGconn *a, PGconn *b)
{
    ok(a, "CREATE TABLE ts_old (k int, v text)");
    ok(a, "BEGIN ISOLATION LEVEL REPEATABLE READ");
    CHECK_STR(value(a, "SELECT count(*) FROM pg_class WHERE relname LIKE 'ts\\_%'"), "1");
    ok(b, "CREATE TABLE ts_new (k int)");
    ok(b, "DROP TABLE ts_old");
    CHECK_STR(value(a, "SELECT string_agg(relname, ',' ORDER BY relname) FROM pg_class WHERE relname LIKE 'ts\\_%'"),
              "ts_old");
    CHECK_STR(value(a, "SELECT string_agg(attname, ',' ORDER BY attnum) FROM pg_attribute a JOIN pg_class c "
                       "ON a.attrelid = c.oid WHERE c.relname = 'ts_old' AND attnum > 0"),
              "k,v");
    ok(a, "COMMIT");
    CHECK_STR(value(a, "SELECT string_agg(relname, ',' ORDER BY relname) FROM pg_class WHERE relname LIKE 'ts\\_%'"),
              "ts_new");
    ok(b, "DROP TABLE ts_new");
}

int main(void)
{
    ptest_start(&server, NULL, NULL);
    PGconn *a = ptest_connect(&server, "");
    PGconn *b = ptest_connect(&server, "");
    PGconn *c = ptest_connect(&server, "");
    phase_readers_hold_their_lock(a, b);
    phase_queue_and_deadlock(a, b, c);
    phase_roles(a, b);
    phase_sequences(a, b);
    phase_roles_snapshot(a, b);
    phase_tables_snapshot(a, b);
    phase_drop_after_wait(a, b);
    phase_alter_waits(a, b);
    PQfinish(c);
    PQfinish(b);
    PQfinish(a);
    return ptest_finish(&server, "catalog_locks");
}
