/*
 * test_temp_tables.c — temporary tables belong to their session
 * (executor/temp.c, storage/database.c "temporary schemas"), from several
 * sessions at once and across restarts:
 *
 * 1. Two sessions each create a temporary table of the same name: each
 *    sees its own rows only; a session without one gets 42P01; a temporary
 *    table hides a permanent one of its name in its own session only, and
 *    DROP TABLE drops the temporary one first; each session has its own
 *    pg_temp_N; pg_class lists both (as PostgreSQL's), information_schema
 *    only the session's own; another session's table named through its
 *    schema is 0A000 "cannot access temporary tables of other sessions".
 * 2. A session's end drops its temporary tables: after Terminate and
 *    after a dropped connection (socket shut down without Terminate); a
 *    later session reusing the number sees nothing of them.
 * 3. (Strata only) a restart never brings one back: kill -9 with a
 *    temporary table in a checkpoint and another only in the WAL, and a
 *    clean stop with a session still holding one; permanent rows stay.
 * 4. CREATE VIEW over a temporary table: PostgreSQL's NOTICE `view "v"
 *    will be a temporary view`, also before the 42P16 of a permanent
 *    schema; COPY of 100,000 rows (past the bulk threshold) into a
 *    temporary table, rolled back and committed, with a 23505 mid-COPY;
 *    (Strata only) neither writes WAL (under 1 KB for the COPY, its
 *    COMMIT record, against the same COPY into a permanent table) nor,
 *    with a CHECKPOINT, a run file of the temporary table.
 *
 * Parts 1, 2 and 4 run against a real PostgreSQL 15 when
 * STRATA_TEST_PG_CONNINFO names one (e.g. "host=/tmp port=55631
 * user=postgres dbname=postgres") — how their expectations were checked.
 */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "tests/protocol/ptest.h"

static TestServer server;
static char datadir[512];
static const char *pg_conninfo;   /* a real PostgreSQL 15 instead of Strata */

static void no_notices(void *arg, const char *message)
{
    (void)arg;
    (void)message;
}

static PGconn *connect_one(void)
{
    PGconn *c = pg_conninfo ? PQconnectdb(pg_conninfo) : ptest_connect(&server, "");
    if (PQstatus(c) != CONNECTION_OK) {
        fprintf(stderr, "connect failed: %s", PQerrorMessage(c));
        exit(1);
    }
    PQsetNoticeProcessor(c, no_notices, NULL);
    return c;
}

static void ok(PGconn *c, const char *sql)
{
    PGresult *r = PQexec(c, sql);
    if (PQresultStatus(r) != PGRES_COMMAND_OK && PQresultStatus(r) != PGRES_TUPLES_OK) {
        fprintf(stderr, "\"%s\": %s", sql, PQresultErrorMessage(r));
        ptest_failures++;
    }
    PQclear(r);
}

/* The single value sql returns into buf ("<error SQLSTATE>" on an error,
 * "<N rows>" for another shape); returns buf. */
static const char *value(PGconn *c, const char *sql, char *buf, size_t size)
{
    PGresult *r = PQexec(c, sql);
    if (PQresultStatus(r) != PGRES_TUPLES_OK)
        snprintf(buf, size, "<error %s>", ptest_sqlstate(r));
    else if (PQntuples(r) != 1 || PQnfields(r) != 1)
        snprintf(buf, size, "<%d rows>", PQntuples(r));
    else
        snprintf(buf, size, "%s", PQgetvalue(r, 0, 0));
    PQclear(r);
    return buf;
}

#define CHECK_VALUE(c, sql, want)                   \
    do {                                            \
        char buf_[256];                             \
        CHECK_STR(value(c, sql, buf_, sizeof buf_), want); \
    } while (0)

/* How many temporary tables named name pg_class lists, waiting up to 5 s
 * for it to become want (a backend's end is asynchronous in PostgreSQL). */
static int temp_count_becomes(PGconn *c, const char *name, int want)
{
    char sql[256], buf[64];
    snprintf(sql, sizeof sql,
             "SELECT count(*) FROM pg_class WHERE relname = '%s' AND relpersistence = 't'", name);
    int n = -1;
    for (int i = 0; i < 100; i++) {
        n = atoi(value(c, sql, buf, sizeof buf));
        if (n == want)
            break;
        usleep(50 * 1000);
    }
    return n;
}

/* The session's temporary schema name through the table it finds as name. */
static const char *temp_schema_of(PGconn *c, const char *name, char *buf, size_t size)
{
    char sql[300];
    snprintf(sql, sizeof sql,
             "SELECT n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
             "WHERE c.relname = '%s' AND pg_table_is_visible(c.oid)", name);
    return value(c, sql, buf, size);
}

static void phase_two_sessions(PGconn *a, PGconn *b)
{
    ok(a, "DROP TABLE IF EXISTS tt_shadow");
    ok(a, "CREATE TEMP TABLE tt (a int)");
    ok(a, "INSERT INTO tt VALUES (1), (2)");
    CHECK_VALUE(b, "SELECT count(*) FROM tt", "<error 42P01>");
    ok(b, "CREATE TEMPORARY TABLE tt (v text)");
    ok(b, "INSERT INTO tt VALUES ('b')");
    CHECK_VALUE(a, "SELECT sum(a) FROM tt", "3");
    CHECK_VALUE(b, "SELECT string_agg(v, ',') FROM tt", "b");
    CHECK_VALUE(b, "SELECT relpersistence FROM pg_class WHERE oid = 'tt'::regclass", "t");

    char sa[128], sb[128];
    temp_schema_of(a, "tt", sa, sizeof sa);
    temp_schema_of(b, "tt", sb, sizeof sb);
    CHECK(strncmp(sa, "pg_temp_", 8) == 0);
    CHECK(strncmp(sb, "pg_temp_", 8) == 0);
    CHECK(strcmp(sa, sb) != 0);
    CHECK(temp_count_becomes(b, "tt", 2) == 2);   /* pg_class lists every session's */
    CHECK_VALUE(b, "SELECT count(*) FROM information_schema.tables WHERE table_name = 'tt'", "1");
    CHECK_VALUE(b, "SELECT table_type FROM information_schema.tables WHERE table_name = 'tt'",
                "LOCAL TEMPORARY");
    CHECK_VALUE(b, "SELECT string_agg(column_name, ',') FROM information_schema.columns "
                   "WHERE table_name = 'tt'", "v");
    char sql[300];
    snprintf(sql, sizeof sql, "SELECT count(*) FROM %s.tt", sa);   /* A's, named by B */
    CHECK_VALUE(b, sql, "<error 0A000>");

    /* A permanent table hidden by a temporary one in one session only. */
    ok(a, "CREATE TABLE tt_shadow (v text)");
    ok(a, "INSERT INTO tt_shadow VALUES ('perm')");
    ok(b, "CREATE TEMP TABLE tt_shadow (v text)");
    ok(b, "INSERT INTO tt_shadow VALUES ('temp')");
    CHECK_VALUE(a, "SELECT v FROM tt_shadow", "perm");
    CHECK_VALUE(b, "SELECT v FROM tt_shadow", "temp");
    CHECK_VALUE(b, "SELECT v FROM public.tt_shadow", "perm");
    ok(b, "DROP TABLE tt_shadow");                     /* the temporary one */
    CHECK_VALUE(b, "SELECT v FROM tt_shadow", "perm");
    CHECK_VALUE(a, "SELECT v FROM tt_shadow", "perm");
    ok(a, "DROP TABLE tt_shadow");
}

static void phase_session_end(PGconn *a, PGconn *b)
{
    /* A's end (Terminate): its tables go; B's stays. */
    PQfinish(a);
    CHECK(temp_count_becomes(b, "tt", 1) == 1);
    CHECK_VALUE(b, "SELECT string_agg(v, ',') FROM tt", "b");

    /* A dropped connection (no Terminate) ends the session too. */
    PGconn *d = connect_one();
    ok(d, "CREATE TEMP TABLE tt_dropped (a int)");
    ok(d, "INSERT INTO tt_dropped VALUES (1)");
    CHECK(temp_count_becomes(b, "tt_dropped", 1) == 1);
    shutdown(PQsocket(d), SHUT_RDWR);
    PQfinish(d);
    CHECK(temp_count_becomes(b, "tt_dropped", 0) == 0);

    /* New sessions (one may take A's number) see nothing of A's. */
    PGconn *e = connect_one();
    PGconn *f = connect_one();
    CHECK_VALUE(e, "SELECT count(*) FROM tt", "<error 42P01>");
    ok(e, "CREATE TEMP TABLE tt (a int)");
    ok(f, "CREATE TEMP TABLE tt (a int)");
    CHECK_VALUE(e, "SELECT count(*) FROM tt", "0");
    CHECK_VALUE(f, "SELECT count(*) FROM tt", "0");
    PQfinish(e);
    PQfinish(f);
    CHECK(temp_count_becomes(b, "tt", 1) == 1);
}

static void kill9(void)
{
    kill(server.pid, SIGKILL);
    waitpid(server.pid, NULL, 0);
}

static void phase_restart(void)
{
    PGconn *c = connect_one();
    ok(c, "CREATE TABLE kept (a int)");
    ok(c, "INSERT INTO kept VALUES (1), (2)");
    ok(c, "CREATE TEMP TABLE gone_ckpt (a int)");
    ok(c, "INSERT INTO gone_ckpt VALUES (1)");
    ok(c, "CHECKPOINT");   /* gone_ckpt is in the checkpoint */
    ok(c, "CREATE TEMP TABLE gone_wal (a int)");
    ok(c, "INSERT INTO gone_wal VALUES (1)");
    ok(c, "INSERT INTO kept VALUES (3)");
    kill9();
    PQfinish(c);
    ptest_start(&server, datadir, NULL);
    c = connect_one();
    CHECK_VALUE(c, "SELECT count(*) FROM pg_class WHERE relname IN ('gone_ckpt', 'gone_wal')", "0");
    CHECK_VALUE(c, "SELECT count(*) FROM gone_ckpt", "<error 42P01>");
    CHECK_VALUE(c, "SELECT sum(a) FROM kept", "6");
    ok(c, "CREATE TEMP TABLE gone_ckpt (b text)");   /* the same number again: a fresh table */
    CHECK_VALUE(c, "SELECT count(*) FROM gone_ckpt", "0");
    ok(c, "CREATE TEMP TABLE held (a int)");
    ok(c, "INSERT INTO held VALUES (1)");
    harness_server_stop(&server);   /* clean stop with the session still open */
    PQfinish(c);
    ptest_start(&server, datadir, NULL);
    c = connect_one();
    CHECK_VALUE(c, "SELECT count(*) FROM pg_class WHERE relpersistence = 't'", "0");
    CHECK_VALUE(c, "SELECT sum(a) FROM kept", "6");
    kill9();   /* and once more: the drops recovery logged replay cleanly */
    PQfinish(c);
    ptest_start(&server, datadir, NULL);
    c = connect_one();
    CHECK_VALUE(c, "SELECT count(*) FROM pg_class WHERE relpersistence = 't'", "0");
    CHECK_VALUE(c, "SELECT sum(a) FROM kept", "6");
    PQfinish(c);
}

/* ---- 4. views over temporary tables (NOTICE), COPY into one, no WAL ---- */

static char last_notice[512];

static void keep_notice(void *arg, const char *message)
{
    (void)arg;
    snprintf(last_notice, sizeof last_notice, "%s", message);
}

/* sql's notice (the last one; "" when none) and its SQLSTATE ("" when it succeeded). */
static void notice_of(PGconn *c, const char *sql, char *notice, size_t size, char *state)
{
    last_notice[0] = 0;
    PGresult *r = PQexec(c, sql);
    snprintf(state, 6, "%s", PQresultStatus(r) == PGRES_COMMAND_OK ? "" : ptest_sqlstate(r));
    PQclear(r);
    snprintf(notice, size, "%s", last_notice);
}

static void phase_view_notices(PGconn *c)
{
    PQsetNoticeProcessor(c, keep_notice, NULL);
    char notice[512], state[6];
    ok(c, "CREATE TEMP TABLE nv_t (a int)");
    notice_of(c, "CREATE VIEW nv AS SELECT a FROM nv_t", notice, sizeof notice, state);
    CHECK_STR(notice, "NOTICE:  view \"nv\" will be a temporary view\n");
    CHECK_STR(state, "");
    CHECK_VALUE(c, "SELECT relpersistence FROM pg_class WHERE relname = 'nv'", "t");
    notice_of(c, "CREATE VIEW public.nv_bad AS SELECT a FROM nv_t", notice, sizeof notice, state);
    CHECK_STR(notice, "NOTICE:  view \"nv_bad\" will be a temporary view\n");
    CHECK_STR(state, "42P16");
    notice_of(c, "CREATE TEMP VIEW nv_temp AS SELECT a FROM nv_t", notice, sizeof notice, state);
    CHECK_STR(notice, "");   /* TEMP said so: no NOTICE */
    notice_of(c, "CREATE VIEW nv_perm AS SELECT 1 AS a", notice, sizeof notice, state);
    CHECK_STR(notice, "");
    ok(c, "DROP VIEW nv_perm");
    PQsetNoticeProcessor(c, no_notices, NULL);
}

/* COPY rows [first, first + n) as "id\tv<id>" lines; returns the COPY's
 * SQLSTATE ("" when it succeeded). */
static const char *copy_rows(PGconn *c, const char *table, int first, int n, char *state)
{
    char sql[128];
    snprintf(sql, sizeof sql, "COPY %s FROM STDIN", table);
    PGresult *r = PQexec(c, sql);
    CHECK(PQresultStatus(r) == PGRES_COPY_IN);
    PQclear(r);
    PtestBuf b = {0};
    for (int i = first; i < first + n; i++)
        ptest_buf_printf(&b, "%d\tv%d\n", i, i);
    CHECK(PQputCopyData(c, b.data, (int)b.len) == 1);
    CHECK(PQputCopyEnd(c, NULL) == 1);
    free(b.data);
    r = PQgetResult(c);
    snprintf(state, 6, "%s", PQresultStatus(r) == PGRES_COMMAND_OK ? "" : ptest_sqlstate(r));
    PQclear(r);
    while ((r = PQgetResult(c)) != NULL)
        PQclear(r);
    return state;
}

/* Bytes in datadir/wal (every log file). */
static long wal_dir_bytes(void)
{
    char path[600];
    snprintf(path, sizeof path, "%s/wal", datadir);
    DIR *d = opendir(path);
    if (!d)
        return -1;
    long n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        struct stat st;
        char f[1200];
        snprintf(f, sizeof f, "%s/%s", path, e->d_name);
        if (strstr(e->d_name, ".wal") && stat(f, &st) == 0)
            n += (long)st.st_size;
    }
    closedir(d);
    return n;
}

/* Files of datadir/checkpoint named "*.<oid>.run*". */
static int run_files_of(const char *oid)
{
    char path[600], suffix[40];
    snprintf(path, sizeof path, "%s/checkpoint", datadir);
    snprintf(suffix, sizeof suffix, ".%s.run", oid);
    DIR *d = opendir(path);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        n += strstr(e->d_name, suffix) != NULL;
    closedir(d);
    return n;
}

static void phase_copy(PGconn *c)
{
    char state[6], oid[32], poid[32];
    ok(c, "CREATE TEMP TABLE big_t (id int PRIMARY KEY, v text)");
    ok(c, "CREATE TABLE big_p (id int PRIMARY KEY, v text)");
    value(c, "SELECT 'big_t'::regclass::oid", oid, sizeof oid);
    value(c, "SELECT 'big_p'::regclass::oid", poid, sizeof poid);
    ok(c, "BEGIN");
    CHECK_STR(copy_rows(c, "big_t", 1, 100000, state), "");
    CHECK_VALUE(c, "SELECT count(*) FROM big_t", "100000");
    ok(c, "ROLLBACK");
    CHECK_VALUE(c, "SELECT count(*) FROM big_t", "0");
    long w0 = wal_dir_bytes();
    CHECK_STR(copy_rows(c, "big_t", 1, 100000, state), "");
    long w1 = wal_dir_bytes();
    CHECK_VALUE(c, "SELECT count(*) || ' ' || sum(id) || ' ' || max(v) FROM big_t", "100000 5000050000 v99999");
    CHECK_STR(copy_rows(c, "big_t", 100001, 100000, state), "");
    CHECK_STR(copy_rows(c, "big_t", 200001, 70000, state), "");
    CHECK_STR(copy_rows(c, "big_t", 199990, 20, state), "23505");   /* 199990 is there: nothing loaded */
    CHECK_VALUE(c, "SELECT count(*) FROM big_t", "270000");
    if (pg_conninfo) {
        ok(c, "DROP TABLE big_p");
        return;
    }
    long w2 = wal_dir_bytes();
    CHECK_STR(copy_rows(c, "big_p", 1, 100000, state), "");
    long w3 = wal_dir_bytes();
    printf("temp_tables: WAL bytes of a 100,000-row COPY: temporary table %ld, permanent table %ld\n",
           w1 - w0, w3 - w2);
    CHECK(w0 >= 0 && w1 - w0 < 1024);
    CHECK(w3 - w2 >= 40);   /* at least a bulk run record and the COMMIT */
    ok(c, "CHECKPOINT");
    CHECK(run_files_of(oid) == 0);
    CHECK(run_files_of(poid) >= 1);
    CHECK_VALUE(c, "SELECT count(*) FROM big_t", "270000");   /* still all there */
    ok(c, "DROP TABLE big_p");
}

int main(void)
{
    pg_conninfo = getenv("STRATA_TEST_PG_CONNINFO");
    if (!pg_conninfo) {
        if (harness_make_datadir(datadir, sizeof datadir) != 0)
            return 1;
        ptest_start(&server, datadir, NULL);
    }
    PGconn *a = connect_one();
    PGconn *b = connect_one();
    phase_two_sessions(a, b);
    phase_session_end(a, b);   /* ends a */
    phase_view_notices(b);
    phase_copy(b);
    PQfinish(b);
    if (pg_conninfo) {
        printf("temp_tables (PostgreSQL %s): %s\n", pg_conninfo, ptest_failures ? "FAILED" : "ok");
        return ptest_failures ? 1 : 0;
    }
    phase_restart();
    /* Checked: a sanitizer report in the server's log fails the test too. */
    if (harness_server_stop_checked(&server) != 0)
        ptest_failures++;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", datadir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", datadir);
    if (ptest_failures) {
        fprintf(stderr, "temp_tables: %d check(s) failed\n", ptest_failures);
        return 1;
    }
    printf("temp_tables: ok\n");
    return 0;
}
