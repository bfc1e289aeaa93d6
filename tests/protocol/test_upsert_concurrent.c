/*
 * test_upsert_concurrent.c — INSERT … ON CONFLICT between sessions, as
 * PostgreSQL 15's speculative insertion behaves (executor/op_insert.c,
 * storage/delta.c store_table_insert_or_conflict):
 *   - an upsert waits only for a transaction holding its own key: other
 *     keys, plain INSERTs and later upserts of the same table go on;
 *   - waiting for a holder of its key, it then updates the row the holder
 *     committed (READ COMMITTED), inserts when the holder rolled back or
 *     deleted the row, and gets 40001 under REPEATABLE READ;
 *   - a DO UPDATE whose row a concurrent UPDATE or DELETE changed follows
 *     it (the new version, or an insert);
 *   - clients bumping counters with ON CONFLICT DO UPDATE never lose a bump
 *     and never see an error.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tests/protocol/ptest.h"

static TestServer server;

/* The result of the query sent with ptest_send_async (the rest drained). */
static PGresult *async_result(PGconn *c)
{
    PGresult *first = PQgetResult(c), *r;
    while ((r = PQgetResult(c)) != NULL)
        PQclear(r);
    return first;
}

static void expect_value(PGconn *c, const char *sql, const char *want)
{
    PGresult *r = ptest_exec(c, sql, PGRES_TUPLES_OK);
    CHECK(PQntuples(r) == 1);
    if (PQntuples(r) == 1)
        CHECK_STR(PQgetvalue(r, 0, 0), want);
    PQclear(r);
}

static void expect_status(PGresult *r, const char *tag)
{
    if (PQresultStatus(r) != PGRES_COMMAND_OK && PQresultStatus(r) != PGRES_TUPLES_OK)
        fprintf(stderr, "expected %s, got %s\n", tag, PQresultErrorMessage(r));
    CHECK_STR(PQcmdStatus(r), tag);
    PQclear(r);
}

/* While a holds a new key in an open transaction, b's upserts of other
 * keys and its plain INSERTs go through (lock_timeout would end a wait),
 * and a then meets b's committed key as a conflict, not a deadlock. */
static void phase_other_keys_never_wait(PGconn *a, PGconn *b)
{
    PQclear(ptest_exec(b, "SET lock_timeout = '3s'", PGRES_COMMAND_OK));
    PQclear(ptest_exec(a, "BEGIN", PGRES_COMMAND_OK));
    expect_status(ptest_exec(a, "INSERT INTO u VALUES (1, 1) ON CONFLICT DO NOTHING", PGRES_COMMAND_OK),
                  "INSERT 0 1");
    expect_status(ptest_exec(b, "INSERT INTO u VALUES (2, 1) ON CONFLICT (k) DO UPDATE SET v = 9",
                             PGRES_COMMAND_OK), "INSERT 0 1");
    expect_status(ptest_exec(b, "INSERT INTO u VALUES (3, 1)", PGRES_COMMAND_OK), "INSERT 0 1");
    expect_status(ptest_exec(b, "INSERT INTO u VALUES (2, 1) ON CONFLICT (k) DO UPDATE SET v = 9",
                             PGRES_COMMAND_OK), "INSERT 0 1");
    expect_status(ptest_exec(a, "INSERT INTO u VALUES (3, 5), (4, 5) ON CONFLICT DO NOTHING",
                             PGRES_COMMAND_OK), "INSERT 0 1");
    expect_status(ptest_exec(a, "INSERT INTO u VALUES (3, 5) ON CONFLICT (k) DO UPDATE SET v = u.v + 10",
                             PGRES_COMMAND_OK), "INSERT 0 1");
    PQclear(ptest_exec(a, "COMMIT", PGRES_COMMAND_OK));
    expect_value(a, "SELECT string_agg(k || ':' || v, ' ' ORDER BY k) FROM u", "1:1 2:9 3:11 4:5");
    PQclear(ptest_exec(b, "RESET lock_timeout", PGRES_COMMAND_OK));
}

/* a holds key k (its `hold` statement, open); b's upsert `sql` waits for
 * a, which then ends with `end`; b's result is returned. */
static PGresult *upsert_behind(PGconn *a, PGconn *b, const char *hold, const char *sql, const char *end)
{
    PQclear(ptest_exec(a, "BEGIN", PGRES_COMMAND_OK));
    PQclear(ptest_exec(a, hold, PGRES_COMMAND_OK));
    ptest_send_async(b, sql);
    CHECK(ptest_still_busy(b, 300));
    PQclear(ptest_exec(a, end, PGRES_COMMAND_OK));
    return async_result(b);
}

static void phase_same_key_waits(PGconn *a, PGconn *b)
{
    const char *bump = "INSERT INTO u VALUES (%d, 1) ON CONFLICT (k) DO UPDATE SET v = u.v + 1";
    char sql[200], hold[200];
    /* a's new key committed: b updates it (a's row is not in b's snapshot). */
    snprintf(hold, sizeof hold, bump, 10);
    snprintf(sql, sizeof sql, bump, 10);
    expect_status(upsert_behind(a, b, hold, sql, "COMMIT"), "INSERT 0 1");
    expect_value(a, "SELECT v FROM u WHERE k = 10", "2");
    /* a's new key rolled back: b inserts. */
    snprintf(hold, sizeof hold, bump, 11);
    snprintf(sql, sizeof sql, bump, 11);
    expect_status(upsert_behind(a, b, hold, sql, "ROLLBACK"), "INSERT 0 1");
    expect_value(a, "SELECT v FROM u WHERE k = 11", "1");
    /* a deleted the key's row: b inserts after a's commit … */
    snprintf(sql, sizeof sql, bump, 10);
    expect_status(upsert_behind(a, b, "DELETE FROM u WHERE k = 10", sql, "COMMIT"), "INSERT 0 1");
    expect_value(a, "SELECT v FROM u WHERE k = 10", "1");
    /* … and DO NOTHING skips the row again after a's rollback. */
    PGresult *r = upsert_behind(a, b, "DELETE FROM u WHERE k = 10",
                                "INSERT INTO u VALUES (10, 7) ON CONFLICT DO NOTHING", "ROLLBACK");
    expect_status(r, "INSERT 0 0");
    expect_value(a, "SELECT v FROM u WHERE k = 10", "1");
    /* REPEATABLE READ: a key committed after b's snapshot is 40001. */
    PQclear(ptest_exec(b, "BEGIN ISOLATION LEVEL REPEATABLE READ", PGRES_COMMAND_OK));
    PQclear(ptest_exec(b, "SELECT count(*) FROM u", PGRES_TUPLES_OK));
    r = upsert_behind(a, b, "INSERT INTO u VALUES (12, 1)",
                      "INSERT INTO u VALUES (12, 2) ON CONFLICT DO NOTHING", "COMMIT");
    CHECK_STR(ptest_sqlstate(r), "40001");
    PQclear(r);
    PQclear(ptest_exec(b, "ROLLBACK", PGRES_COMMAND_OK));
}

/* b's DO UPDATE meets a row a concurrent UPDATE or DELETE holds. */
static void phase_row_changed_under_update(PGconn *a, PGconn *b)
{
    PQclear(ptest_exec(a, "INSERT INTO u VALUES (20, 0), (21, 0)", PGRES_COMMAND_OK));
    const char *bump = "INSERT INTO u VALUES (%d, 1) ON CONFLICT (k) DO UPDATE SET v = u.v + 1 RETURNING v";
    char sql[200];
    snprintf(sql, sizeof sql, bump, 20);
    PGresult *r = upsert_behind(a, b, "UPDATE u SET v = v + 100 WHERE k = 20", sql, "COMMIT");
    CHECK(PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1);
    if (PQntuples(r) == 1)
        CHECK_STR(PQgetvalue(r, 0, 0), "101");
    PQclear(r);
    snprintf(sql, sizeof sql, bump, 21);
    r = upsert_behind(a, b, "DELETE FROM u WHERE k = 21", sql, "COMMIT");
    CHECK(PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1);
    if (PQntuples(r) == 1)
        CHECK_STR(PQgetvalue(r, 0, 0), "1");
    PQclear(r);
    expect_value(a, "SELECT string_agg(k || ':' || v, ' ' ORDER BY k) FROM u WHERE k >= 20", "20:101 21:1");
}

#define BUMPERS 4
#define BUMPS 150
#define COUNTERS 3

static int bump_errors;

static void *bumper(void *arg)
{
    unsigned seed = (unsigned)(uintptr_t)arg;
    PGconn *c = ptest_connect(&server, "");
    for (int i = 0; i < BUMPS; i++) {
        char sql[200];
        snprintf(sql, sizeof sql,
                 "INSERT INTO ctr VALUES (%d, 1) ON CONFLICT (k) DO UPDATE SET n = ctr.n + 1",
                 (int)(rand_r(&seed) % COUNTERS));
        PGresult *r = PQexec(c, sql);
        if (PQresultStatus(r) != PGRES_COMMAND_OK) {
            fprintf(stderr, "bump: %s", PQresultErrorMessage(r));
            __atomic_add_fetch(&bump_errors, 1, __ATOMIC_RELAXED);
        }
        PQclear(r);
    }
    PQfinish(c);
    return NULL;
}

static void phase_counters(PGconn *a)
{
    PQclear(ptest_exec(a, "CREATE TABLE ctr (k int PRIMARY KEY, n bigint)", PGRES_COMMAND_OK));
    pthread_t th[BUMPERS];
    for (uintptr_t i = 0; i < BUMPERS; i++)
        pthread_create(&th[i], NULL, bumper, (void *)(i + 1));
    for (int i = 0; i < BUMPERS; i++)
        pthread_join(th[i], NULL);
    CHECK(bump_errors == 0);
    char want[32];
    snprintf(want, sizeof want, "%d", BUMPERS * BUMPS);
    expect_value(a, "SELECT sum(n) FROM ctr", want);
    expect_value(a, "SELECT count(*) FROM ctr", "3");
}

int main(void)
{
    ptest_start(&server, NULL, NULL);
    PGconn *a = ptest_connect(&server, "");
    PGconn *b = ptest_connect(&server, "");
    PQclear(ptest_exec(a, "CREATE TABLE u (k int PRIMARY KEY, v int)", PGRES_COMMAND_OK));
    phase_other_keys_never_wait(a, b);
    phase_same_key_waits(a, b);
    phase_row_changed_under_update(a, b);
    phase_counters(a);
    PQfinish(b);
    PQfinish(a);
    return ptest_finish(&server, "upsert_concurrent");
}
