/*
 * test_prepared_ddl.c — a statement prepared with Parse is planned again
 * at its next Bind (or Describe) after DDL, as PostgreSQL 15's plan cache
 * after the invalidation DDL sends (protocol/extended.c stmt_revalidate,
 * storage store_catalog_epoch).
 *
 * Each step runs in one of two sessions — `c` prepares and executes, `o`
 * changes the catalog under it — and compares what came back (the rows,
 * or the error's SQLSTATE and position) with what PostgreSQL 15 answers.
 * The same program runs against a real PostgreSQL 15 when
 * STRATA_TEST_PG_CONNINFO names one, which is how every expectation here
 * was checked: ADD COLUMN under `SELECT *` → 0A000 "cached plan must not
 * change result type" at Describe and Bind, and again at every later try;
 * DROP TABLE → 42P01 with the position in the prepared text; DROP + CREATE
 * with the same columns → the new table's rows, with another column type or
 * name → 0A000; the session's own uncommitted ALTER / DROP + CREATE, and
 * their rollback; search_path changes; INSERT after ADD COLUMN ... DEFAULT;
 * views; a prepared TRUNCATE after DROP + CREATE; DROP SCHEMA. Last, with
 * the raw client: Describe of a stale statement sends ParameterDescription,
 * then the error; a SELECT's portal bound in a block makes the session's
 * own ALTER TABLE 55006 (PostgreSQL's executor holds the table open), an
 * INSERT's does not, and then fails with 42804 at Execute; portals bound
 * before an error in their block answer 25P02 at Execute (a COMMIT's too;
 * one bound after the error runs) and at a Describe of their rows.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "tests/protocol/ptest.h"

static TestServer server;

static void no_notices(void *arg, const char *msg)
{
    (void)arg;
    (void)msg;
}

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

/* What r says, in one line: "ERROR:<state>[@<position>]", or its rows
 * (columns joined by '|', rows by ';'), or "OK". Clears r. */
static void outcome(PGresult *r, char *out, size_t size)
{
    ExecStatusType st = PQresultStatus(r);
    size_t len = 0;
    out[0] = '\0';
    if (st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK) {
        const char *pos = PQresultErrorField(r, PG_DIAG_STATEMENT_POSITION);
        snprintf(out, size, "ERROR:%s%s%s", ptest_sqlstate(r), pos ? "@" : "", pos ? pos : "");
    } else if (st == PGRES_COMMAND_OK) {
        snprintf(out, size, "OK");
    } else {
        for (int i = 0; i < PQntuples(r); i++)
            for (int j = 0; j < PQnfields(r) && len + 1 < size; j++)
                len += (size_t)snprintf(out + len, size - len, "%s%s", j ? "|" : i ? ";" : "",
                                        PQgetvalue(r, i, j));
    }
    PQclear(r);
}

static void expect(int line, PGresult *r, const char *want)
{
    char got[1024];
    outcome(r, got, sizeof got);
    if (strcmp(got, want) != 0) {
        fprintf(stderr, "line %d: got \"%s\", expected \"%s\"\n", line, got, want);
        ptest_failures++;
    }
}

static void prepare(PGconn *c, const char *name, const char *sql)
{
    PGresult *r = PQprepare(c, name, sql, 0, NULL);
    if (PQresultStatus(r) != PGRES_COMMAND_OK) {
        fprintf(stderr, "prepare \"%s\": %s", sql, PQresultErrorMessage(r));
        ptest_failures++;
    }
    PQclear(r);
}

#define EXEC(c, name, want) expect(__LINE__, PQexecPrepared(c, name, 0, NULL, NULL, NULL, 0), want)
#define EXEC1(c, name, arg, want)                                                   \
    do {                                                                            \
        const char *v_[1] = {arg};                                                  \
        expect(__LINE__, PQexecPrepared(c, name, 1, v_, NULL, NULL, 0), want);      \
    } while (0)
#define DESCRIBE(c, name, want) expect(__LINE__, PQdescribePrepared(c, name), want)
#define QUERY(c, sql, want) expect(__LINE__, PQexec(c, sql), want)

/* Another session's ALTER / DROP / CREATE under c's statements. */
static void phase_other_session(PGconn *c, PGconn *o)
{
    ok(o, "CREATE TABLE t (a int, b text)");
    ok(o, "INSERT INTO t VALUES (1, 'x')");
    prepare(c, "p", "SELECT * FROM t");
    prepare(c, "q", "  SELECT a FROM t WHERE a > 0");
    EXEC(c, "p", "1|x");
    ok(o, "ALTER TABLE t ADD COLUMN c int");
    DESCRIBE(c, "p", "ERROR:0A000");
    EXEC(c, "p", "ERROR:0A000");
    EXEC(c, "p", "ERROR:0A000");   /* stays so: compared with the first columns */
    EXEC(c, "q", "1");
    ok(o, "DROP TABLE t");
    DESCRIBE(c, "q", "ERROR:42P01@17");
    EXEC(c, "q", "ERROR:42P01@17");
    ok(o, "CREATE TABLE t (a int, b text)");
    ok(o, "INSERT INTO t VALUES (2, 'y')");
    EXEC(c, "q", "2");
    EXEC(c, "p", "2|y");   /* the first columns again */
    ok(o, "DROP TABLE t");
    ok(o, "CREATE TABLE t (a bigint, b text)");
    EXEC(c, "p", "ERROR:0A000");
    EXEC(c, "q", "ERROR:0A000");
    ok(o, "DROP TABLE t");
    ok(o, "CREATE TABLE t (a int, bb text)");
    EXEC(c, "p", "ERROR:0A000");   /* a column's name counts too */
    EXEC(c, "q", "");
    /* the unnamed statement (c sends no Query until it is used) */
    ok(o, "CREATE TABLE t2 (a int)");
    prepare(c, "", "SELECT * FROM t2");
    ok(o, "ALTER TABLE t2 ADD COLUMN b int");
    EXEC(c, "", "ERROR:0A000");
    ok(o, "DROP TABLE t, t2");
}

/* c's own DDL, inside its transaction, and its rollback. */
static void phase_own_transaction(PGconn *c)
{
    ok(c, "CREATE TABLE u (a int)");
    ok(c, "INSERT INTO u VALUES (7)");
    prepare(c, "pu", "SELECT * FROM u");
    EXEC(c, "pu", "7");
    ok(c, "BEGIN");
    ok(c, "ALTER TABLE u ADD COLUMN b int");
    EXEC(c, "pu", "ERROR:0A000");
    ok(c, "ROLLBACK");
    EXEC(c, "pu", "7");
    ok(c, "BEGIN");
    ok(c, "DROP TABLE u");
    EXEC(c, "pu", "ERROR:42P01@15");
    ok(c, "ROLLBACK");
    EXEC(c, "pu", "7");
    ok(c, "BEGIN");
    ok(c, "DROP TABLE u");
    ok(c, "CREATE TABLE u (a int)");
    ok(c, "INSERT INTO u VALUES (42)");
    EXEC(c, "pu", "42");
    ok(c, "COMMIT");
    EXEC(c, "pu", "42");
    ok(c, "BEGIN");
    ok(c, "SAVEPOINT s");
    ok(c, "ALTER TABLE u ADD COLUMN b int");
    EXEC(c, "pu", "ERROR:0A000");
    ok(c, "ROLLBACK TO s");
    EXEC(c, "pu", "42");
    ok(c, "COMMIT");
    /* in a failed transaction, Bind answers 25P02 first */
    ok(c, "BEGIN");
    ok(c, "ALTER TABLE u ADD COLUMN b int");
    QUERY(c, "SELECT 1/0", "ERROR:22012");
    EXEC(c, "pu", "ERROR:25P02");
    ok(c, "ROLLBACK");
    EXEC(c, "pu", "42");
    ok(c, "DROP TABLE u");
}

/* A statement re-planned with a new search_path (PostgreSQL ≥ 9.3). */
static void phase_search_path(PGconn *c, PGconn *o)
{
    ok(o, "CREATE SCHEMA s1");
    ok(o, "CREATE SCHEMA s2");
    ok(o, "CREATE TABLE s1.w (a int)");
    ok(o, "CREATE TABLE s2.w (a int)");
    ok(o, "INSERT INTO s1.w VALUES (1)");
    ok(o, "INSERT INTO s2.w VALUES (2)");
    ok(o, "CREATE TABLE s1.x (a text)");
    ok(o, "CREATE TABLE s2.x (a int)");
    ok(c, "SET search_path = s1, public");
    prepare(c, "pw", "SELECT * FROM w");
    EXEC(c, "pw", "1");
    ok(c, "SET search_path = s2, public");
    EXEC(c, "pw", "2");
    prepare(c, "px", "SELECT * FROM x");
    EXEC(c, "px", "");
    ok(c, "SET search_path = s1, public");
    EXEC(c, "px", "ERROR:0A000");
    ok(c, "SET search_path = s3, public");
    EXEC(c, "pw", "ERROR:42P01@15");
    ok(o, "CREATE SCHEMA s3");
    ok(o, "CREATE TABLE s3.w (a int)");
    ok(o, "INSERT INTO s3.w VALUES (3)");
    EXEC(c, "pw", "3");
    ok(c, "RESET search_path");
    /* DROP SCHEMA under a qualified name */
    prepare(c, "pq", "SELECT a FROM s2.w");
    EXEC(c, "pq", "2");
    ok(o, "DROP SCHEMA s2 CASCADE");
    EXEC(c, "pq", "ERROR:42P01@15");
    ok(o, "CREATE SCHEMA s2");
    ok(o, "CREATE TABLE s2.w (a int)");
    EXEC(c, "pq", "");
    ok(o, "DROP SCHEMA s1, s2, s3 CASCADE");
}

/* INSERT, RETURNING, ADD PRIMARY KEY, views, TRUNCATE. */
static void phase_statements(PGconn *c, PGconn *o)
{
    ok(o, "CREATE TABLE k (a int PRIMARY KEY, b int)");
    prepare(c, "pi", "INSERT INTO k VALUES ($1, 6)");
    EXEC1(c, "pi", "5", "OK");
    ok(o, "ALTER TABLE k ADD COLUMN z int DEFAULT 9");
    EXEC1(c, "pi", "6", "OK");
    QUERY(c, "SELECT * FROM k ORDER BY a", "5|6|9;6|6|9");
    prepare(c, "pr", "INSERT INTO k VALUES ($1, 8) RETURNING *");
    EXEC1(c, "pr", "7", "7|8|9");
    ok(o, "ALTER TABLE k ADD COLUMN y text DEFAULT 'd'");
    EXEC1(c, "pr", "8", "ERROR:0A000");
    EXEC1(c, "pi", "9", "OK");
    QUERY(c, "SELECT * FROM k WHERE a = 9", "9|6|9|d");

    ok(o, "CREATE TABLE kk (a int, b int)");
    ok(o, "INSERT INTO kk VALUES (1, 10)");
    prepare(c, "pk", "SELECT b FROM kk WHERE a = $1");
    prepare(c, "pki", "INSERT INTO kk VALUES ($1, 0)");
    EXEC1(c, "pk", "1", "10");
    EXEC1(c, "pki", "1", "OK");
    ok(o, "DELETE FROM kk WHERE b = 0");
    ok(o, "ALTER TABLE kk ADD PRIMARY KEY (a)");
    EXEC1(c, "pk", "1", "10");
    EXEC1(c, "pki", "1", "ERROR:23505");
    EXEC1(c, "pki", "2", "OK");
    EXEC1(c, "pk", "2", "0");

    ok(o, "CREATE VIEW vv AS SELECT 1 AS one");
    prepare(c, "pv", "SELECT * FROM vv");
    EXEC(c, "pv", "1");
    ok(o, "DROP VIEW vv");
    EXEC(c, "pv", "ERROR:42P01@15");
    ok(o, "CREATE VIEW vv AS SELECT 1 AS uno");
    EXEC(c, "pv", "ERROR:0A000");
    ok(o, "DROP VIEW vv");
    ok(o, "CREATE VIEW vv AS SELECT 2 AS one");
    EXEC(c, "pv", "2");
    ok(o, "CREATE OR REPLACE VIEW vv AS SELECT 3 AS one");
    EXEC(c, "pv", "3");
    ok(o, "DROP VIEW vv");
    ok(o, "CREATE VIEW vv AS SELECT 2::bigint AS one");
    EXEC(c, "pv", "ERROR:0A000");

    ok(o, "CREATE TABLE tr (a int)");
    ok(o, "INSERT INTO tr VALUES (1)");
    prepare(c, "ptr", "TRUNCATE tr");
    ok(o, "DROP TABLE tr");
    EXEC(c, "ptr", "ERROR:42P01");
    ok(o, "CREATE TABLE tr (a int)");
    ok(o, "INSERT INTO tr VALUES (1)");
    EXEC(c, "ptr", "OK");
    QUERY(c, "SELECT count(*) FROM tr", "0");
    ok(o, "DROP VIEW vv");
    ok(o, "DROP TABLE k, kk, tr");
}

/* Read messages until ReadyForQuery; the SQLSTATE of the first error
 * ("" for none) into state. */
static void until_ready(int fd, char *state, size_t size)
{
    static RawMsg m;
    state[0] = '\0';
    while (raw_read(fd, &m, 5000) == 0 && m.type != 'Z')
        if (m.type == 'E' && !state[0])
            snprintf(state, size, "%s", raw_error_field(&m, 'C'));
}

static void raw_query(int fd, const char *sql, const char *want_state, int line)
{
    char state[16];
    CHECK(raw_send(fd, 'Q', sql, strlen(sql) + 1) == 0);
    until_ready(fd, state, sizeof state);
    if (strcmp(state, want_state) != 0) {
        fprintf(stderr, "line %d: \"%s\" gave \"%s\", expected \"%s\"\n", line, sql, state, want_state);
        ptest_failures++;
    }
}

/* Parse + Bind of sql into the portal and statement name, then Sync. */
static void bind_portal(int fd, const char *name, const char *sql)
{
    char buf[256], state[16];
    size_t n = (size_t)snprintf(buf, sizeof buf, "%s", name) + 1;
    n += (size_t)snprintf(buf + n, sizeof buf - n, "%s", sql) + 1;
    memset(buf + n, 0, 2);   /* no parameter types */
    CHECK(raw_send(fd, 'P', buf, n + 2) == 0);
    n = (size_t)snprintf(buf, sizeof buf, "%s", name) + 1;
    n += (size_t)snprintf(buf + n, sizeof buf - n, "%s", name) + 1;
    memset(buf + n, 0, 6);   /* no formats, no parameters, no result formats */
    CHECK(raw_send(fd, 'B', buf, n + 6) == 0);
    CHECK(raw_send(fd, 'S', "", 0) == 0);
    until_ready(fd, state, sizeof state);
    CHECK_STR(state, "");
}

static void execute_portal(int fd, const char *name, const char *want_state, int line)
{
    char buf[64], state[16];
    size_t n = (size_t)snprintf(buf, sizeof buf, "%s", name) + 1;
    memset(buf + n, 0, 4);   /* no row limit */
    CHECK(raw_send(fd, 'E', buf, n + 4) == 0);
    CHECK(raw_send(fd, 'S', "", 0) == 0);
    until_ready(fd, state, sizeof state);
    if (strcmp(state, want_state) != 0) {
        fprintf(stderr, "line %d: Execute %s gave \"%s\", expected \"%s\"\n", line, name, state, want_state);
        ptest_failures++;
    }
}

/* A portal bound (not yet run) in a block, then DDL of its table by the
 * same session: PostgreSQL refuses it for a SELECT's portal (55006: its
 * executor has the table open); the DDL of a later block is fine. */
static void portal_then_ddl(int fd)
{
    char state[16];
    raw_query(fd, "BEGIN", "", __LINE__);
    static const char parse[] = "pp\0SELECT * FROM rd\0\0\0";
    static const char bind[] = "pp\0pp\0\0\0\0\0\0\0";
    CHECK(raw_send(fd, 'P', parse, sizeof parse - 1) == 0);
    CHECK(raw_send(fd, 'B', bind, sizeof bind - 1) == 0);
    CHECK(raw_send(fd, 'S', "", 0) == 0);
    until_ready(fd, state, sizeof state);
    CHECK_STR(state, "");
    raw_query(fd, "ALTER TABLE rd ADD COLUMN c int", "55006", __LINE__);
    raw_query(fd, "ROLLBACK", "", __LINE__);
    raw_query(fd, "ALTER TABLE rd ADD COLUMN c int", "", __LINE__);
    /* an INSERT's portal holds no table open: the ALTER goes ahead, and
     * the portal's rows no longer fit (42804) */
    raw_query(fd, "BEGIN", "", __LINE__);
    bind_portal(fd, "pi", "INSERT INTO rd VALUES (1, 2, 3)");
    raw_query(fd, "ALTER TABLE rd ADD COLUMN d int DEFAULT 4", "", __LINE__);
    execute_portal(fd, "pi", "42804", __LINE__);
    raw_query(fd, "ROLLBACK", "", __LINE__);
    /* portals bound before an error in their block: 25P02 at Execute,
     * a COMMIT's too (the abort released their plans) */
    static const char *const sqls[] = {"INSERT INTO rd VALUES (1, 2, 3)", "UPDATE rd SET a = 1",
                                       "DELETE FROM rd", "SELECT * FROM rd", "COMMIT"};
    for (int i = 0; i < 5; i++) {
        char name[8];
        snprintf(name, sizeof name, "e%d", i);
        raw_query(fd, "BEGIN", "", __LINE__);
        bind_portal(fd, name, sqls[i]);
        raw_query(fd, "SELECT 1/0", "22012", __LINE__);
        execute_portal(fd, name, "25P02", __LINE__);
        raw_query(fd, "ROLLBACK", "", __LINE__);
    }
    /* Describe in a failed block: rows are refused (25P02) before the
     * ParameterDescription; a statement without rows is still described */
    raw_query(fd, "BEGIN", "", __LINE__);
    bind_portal(fd, "d1", "SELECT * FROM rd");
    bind_portal(fd, "d2", "INSERT INTO rd VALUES (1, 2, 3)");
    raw_query(fd, "SELECT 1/0", "22012", __LINE__);
    static RawMsg m;
    CHECK(raw_send(fd, 'D', "Sd1", 4) == 0);
    CHECK(raw_send(fd, 'S', "", 0) == 0);
    CHECK(raw_read(fd, &m, 5000) == 0 && m.type == 'E' && strcmp(raw_error_field(&m, 'C'), "25P02") == 0);
    CHECK(raw_read(fd, &m, 5000) == 0 && m.type == 'Z');
    CHECK(raw_send(fd, 'D', "Sd2", 4) == 0);
    CHECK(raw_send(fd, 'S', "", 0) == 0);
    CHECK(raw_read(fd, &m, 5000) == 0 && m.type == 't');
    CHECK(raw_read(fd, &m, 5000) == 0 && m.type == 'n');
    CHECK(raw_read(fd, &m, 5000) == 0 && m.type == 'Z');
    raw_query(fd, "ROLLBACK", "", __LINE__);
    /* ... while a COMMIT bound after the error ends the block */
    raw_query(fd, "BEGIN", "", __LINE__);
    raw_query(fd, "SELECT 1/0", "22012", __LINE__);
    bind_portal(fd, "e5", "COMMIT");
    execute_portal(fd, "e5", "", __LINE__);
    raw_query(fd, "SELECT 1", "", __LINE__);
}

/* Raw v3: Parse, then DDL, then Describe + Sync of the statement:
 * ParameterDescription, ErrorResponse, ReadyForQuery. */
static void phase_describe_raw(int port, PGconn *o)
{
    int fd = raw_connect(port);
    CHECK(fd >= 0 && raw_startup(fd, PQuser(o), PQdb(o)) == 0);
    if (fd < 0)
        return;
    ok(o, "CREATE TABLE rd (a int)");
    static const char parse[] = "rd\0SELECT * FROM rd WHERE a = $1\0\0\0";
    CHECK(raw_send(fd, 'P', parse, sizeof parse - 1) == 0);
    CHECK(raw_send(fd, 'S', "", 0) == 0);
    static RawMsg m;
    CHECK(raw_read(fd, &m, 5000) == 0 && m.type == '1');
    CHECK(raw_read(fd, &m, 5000) == 0 && m.type == 'Z');
    ok(o, "ALTER TABLE rd ADD COLUMN b int");
    CHECK(raw_send(fd, 'D', "Srd", 4) == 0);
    CHECK(raw_send(fd, 'S', "", 0) == 0);
    CHECK(raw_read(fd, &m, 5000) == 0 && m.type == 't');
    CHECK(raw_read(fd, &m, 5000) == 0 && m.type == 'E');
    CHECK(memmem(m.body, m.len < sizeof m.body ? m.len : sizeof m.body, "C0A000", 7) != NULL);
    CHECK(raw_read(fd, &m, 5000) == 0 && m.type == 'Z');
    portal_then_ddl(fd);
    close(fd);
    ok(o, "DROP TABLE rd");
}

int main(void)
{
    const char *pg = getenv("STRATA_TEST_PG_CONNINFO");
    if (!pg)
        ptest_start(&server, NULL, NULL);
    PGconn *c = pg ? PQconnectdb(pg) : ptest_connect(&server, "");
    PGconn *o = pg ? PQconnectdb(pg) : ptest_connect(&server, "");
    if (PQstatus(c) != CONNECTION_OK || PQstatus(o) != CONNECTION_OK) {
        fprintf(stderr, "connect failed: %s", PQerrorMessage(c));
        return 1;
    }
    PQsetNoticeProcessor(c, no_notices, NULL);
    PQsetNoticeProcessor(o, no_notices, NULL);
    phase_other_session(c, o);
    phase_own_transaction(c);
    phase_search_path(c, o);
    phase_statements(c, o);
    int port = pg ? atoi(PQport(o)) : server.port;
    phase_describe_raw(port, o);
    PQfinish(c);
    PQfinish(o);
    if (pg) {
        printf("prepared_ddl (PostgreSQL): %s\n", ptest_failures ? "FAILED" : "ok");
        return ptest_failures ? 1 : 0;
    }
    if (harness_server_stop_checked(&server) != 0)
        ptest_failures++;
    if (ptest_failures) {
        fprintf(stderr, "prepared_ddl: %d check(s) failed\n", ptest_failures);
        return 1;
    }
    printf("prepared_ddl: ok\n");
    return 0;
}
