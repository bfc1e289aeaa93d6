/*
 * test_gather.c — Gather (executor/gather.c): rows of a scan → filter /
 * project straight to the client from the leader and the workers.
 *
 * Over a 400K-row table: EXPLAIN ANALYZE shows `workers=N gather` on the
 * scan (and not with max_parallel_workers_per_gather = 0, nor on a small
 * table, nor when most of the table would pass to the leader: PostgreSQL's
 * cost model); every row arrives exactly once with its strings intact, with
 * the workers on and off, also under LIMIT and OFFSET; an Execute with a
 * row limit suspends the portal while the workers wait for their queue,
 * the next Executes go on where it stopped until every row was sent once,
 * and closing a suspended portal early ends the workers (the session goes
 * on); errors met on any thread (22012), statement_timeout and a cancel
 * request (57014) stop a Gather.
 */
#include "tests/protocol/ptest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define ROWS 400000

static RawMsg m;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The EXPLAIN ANALYZE line of sql containing `node` ("" when none). */
static char line_buf[1024];
static const char *explain_line(PGconn *c, const char *sql, const char *node)
{
    char q[512];
    snprintf(q, sizeof q, "EXPLAIN ANALYZE %s", sql);
    PGresult *r = ptest_exec(c, q, PGRES_TUPLES_OK);
    line_buf[0] = '\0';
    for (int i = 0; i < PQntuples(r); i++)
        if (strstr(PQgetvalue(r, i, 0), node)) {
            snprintf(line_buf, sizeof line_buf, "%s", PQgetvalue(r, i, 0));
            break;
        }
    PQclear(r);
    return line_buf;
}

/* Rows of `SELECT x, s ...`: each x in 1..ROWS at most once, s = 'v' || x % 5000; the count. */
static long check_rows(PGresult *r, unsigned char *seen)
{
    long n = PQntuples(r), bad = 0;
    for (long i = 0; i < n; i++) {
        long x = atol(PQgetvalue(r, (int)i, 0));
        char want[32];
        snprintf(want, sizeof want, "v%ld", x % 5000);
        if (x < 1 || x > ROWS || seen[x]++ || strcmp(PQgetvalue(r, (int)i, 1), want) != 0)
            bad++;
    }
    CHECK(bad == 0);
    return n;
}

static void check_plans(PGconn *c)
{
    const char *scan = explain_line(c, "SELECT x, s FROM g WHERE x % 2 = 0", "Seq Scan");
    CHECK(strstr(scan, " gather)") != NULL);
    CHECK(strstr(scan, "rows=200000 ") != NULL);   /* summed over the threads */
    scan = explain_line(c, "SELECT x FROM g WHERE x % 2 = 0 LIMIT 150000", "Seq Scan");
    CHECK(strstr(scan, " gather)") != NULL);
    /* PostgreSQL's cost model: passing most of the table to the leader does not pay */
    scan = explain_line(c, "SELECT x FROM g WHERE k >= 0", "Seq Scan");
    CHECK(scan[0] != '\0' && strstr(scan, "workers=") == NULL);
    scan = explain_line(c, "SELECT x FROM small WHERE x > 0", "Seq Scan");
    CHECK(scan[0] != '\0' && strstr(scan, "workers=") == NULL);
    PQclear(ptest_exec(c, "SET max_parallel_workers_per_gather = 0", PGRES_COMMAND_OK));
    scan = explain_line(c, "SELECT x, s FROM g WHERE x % 2 = 0", "Seq Scan");
    CHECK(scan[0] != '\0' && strstr(scan, "workers=") == NULL);
    PQclear(ptest_exec(c, "RESET max_parallel_workers_per_gather", PGRES_COMMAND_OK));
}

static void check_sets(PGconn *c)
{
    unsigned char *seen = calloc(ROWS + 1, 1);
    const char *modes[] = {"RESET max_parallel_workers_per_gather", "SET max_parallel_workers_per_gather = 0"};
    for (int mode = 0; mode < 2; mode++) {
        PQclear(ptest_exec(c, modes[mode], PGRES_COMMAND_OK));
        memset(seen, 0, ROWS + 1);
        PGresult *r = ptest_exec(c, "SELECT x, s FROM g WHERE x % 2 = 0", PGRES_TUPLES_OK);
        CHECK(check_rows(r, seen) == ROWS / 2);
        PQclear(r);
        memset(seen, 0, ROWS + 1);
        r = ptest_exec(c, "SELECT x, s FROM g WHERE x % 2 = 0 LIMIT 150000 OFFSET 20000", PGRES_TUPLES_OK);
        CHECK(check_rows(r, seen) == 150000);
        PQclear(r);
    }
    PQclear(ptest_exec(c, "RESET max_parallel_workers_per_gather", PGRES_COMMAND_OK));
    free(seen);
}

static void send_execute(int fd, const char *portal, int max_rows)
{
    RawBuf b = {.len = 0};
    rb_str(&b, portal);
    rb_i32(&b, max_rows);
    raw_send(fd, 'E', b.data, b.len);
}

static void parse_bind(int fd, const char *sql)
{
    RawBuf b = {.len = 0};
    rb_str(&b, "");
    rb_str(&b, sql);
    rb_i16(&b, 0);
    raw_send(fd, 'P', b.data, b.len);
    b.len = 0;
    rb_str(&b, "p");
    rb_str(&b, "");
    rb_i16(&b, 0);
    rb_i16(&b, 0);
    rb_i16(&b, 0);
    raw_send(fd, 'B', b.data, b.len);
}

/* Read until PortalSuspended / CommandComplete / error: DataRows counted
 * (the first column's value marked in seen), the last message's type. */
static char read_rows(int fd, unsigned char *seen, long *rows, long *dups)
{
    for (;;) {
        if (raw_read(fd, &m, 10000) != 0)
            return '?';
        if (m.type == 'D' && m.len >= 6) {
            uint32_t len = ((uint32_t)(unsigned char)m.body[2] << 24) | ((uint32_t)(unsigned char)m.body[3] << 16) |
                           ((uint32_t)(unsigned char)m.body[4] << 8) | (uint32_t)(unsigned char)m.body[5];
            char v[16] = {0};
            memcpy(v, m.body + 6, len < sizeof v - 1 ? len : sizeof v - 1);
            long x = atol(v);
            if (x >= 1 && x <= ROWS && seen[x]++)
                (*dups)++;
            (*rows)++;
        } else if (m.type == 's' || m.type == 'C' || m.type == 'E') {
            return m.type;
        }
    }
}

static void check_suspend(const TestServer *s)
{
    int fd = raw_connect(s->port);
    CHECK(fd >= 0 && raw_startup(fd, "postgres", "postgres") == 0);
    unsigned char *seen = calloc(ROWS + 1, 1);
    long rows = 0, dups = 0;
    /* a whole run in steps, the workers waiting for their queue in between */
    parse_bind(fd, "SELECT x, s FROM g WHERE x % 2 = 0");
    send_execute(fd, "p", 3);
    raw_send(fd, 'H', NULL, 0);
    CHECK(read_rows(fd, seen, &rows, &dups) == 's');
    CHECK(rows == 3);
    usleep(200 * 1000);
    char last = 's';
    for (int i = 0; i < 20 && last == 's'; i++) {
        send_execute(fd, "p", 50000);
        raw_send(fd, 'H', NULL, 0);
        last = read_rows(fd, seen, &rows, &dups);
    }
    CHECK(last == 'C');
    CHECK(rows == ROWS / 2);
    CHECK(dups == 0);
    raw_send(fd, 'S', NULL, 0);
    CHECK(raw_read(fd, &m, 5000) == 0 && m.type == 'Z');
    /* closed while suspended, the queue full: the workers end with it */
    for (int round = 0; round < 3; round++) {
        memset(seen, 0, ROWS + 1);
        rows = dups = 0;
        parse_bind(fd, "SELECT x, s FROM g WHERE x % 2 = 1");
        send_execute(fd, "p", 5);
        raw_send(fd, 'H', NULL, 0);
        CHECK(read_rows(fd, seen, &rows, &dups) == 's');
        usleep(50 * 1000);
        RawBuf b = {.len = 0};
        b.data[b.len++] = 'P';
        rb_str(&b, "p");
        raw_send(fd, 'C', b.data, b.len);
        raw_send(fd, 'S', NULL, 0);
        CHECK(raw_read(fd, &m, 5000) == 0 && m.type == '3');
        CHECK(raw_read(fd, &m, 5000) == 0 && m.type == 'Z');
    }
    raw_send(fd, 'X', NULL, 0);
    close(fd);
    free(seen);
}

static void check_errors(const TestServer *s, PGconn *c)
{
    for (int i = 0; i < 3; i++) {   /* whichever thread meets x = 300000 */
        PGresult *r = PQexec(c, "SELECT x, 100 / (x - 300000) FROM g WHERE k = 0");
        CHECK_STR(ptest_sqlstate(r), "22012");
        PQclear(r);
    }
    PQclear(ptest_exec(c, "SET statement_timeout = 200", PGRES_COMMAND_OK));
    double t0 = now_s();
    PGresult *r = PQexec(c, "SELECT md5(repeat(s, 3000)) FROM g WHERE x % 2 = 0");
    CHECK_STR(ptest_sqlstate(r), "57014");
    CHECK(now_s() - t0 < 3.0);
    PQclear(r);
    PQclear(ptest_exec(c, "SET statement_timeout = 0", PGRES_COMMAND_OK));
    /* a cancel request from another connection's view: libpq's */
    PGconn *c2 = ptest_connect(s, NULL);
    ptest_send_async(c2, "SELECT md5(repeat(s, 3000)) FROM g WHERE x % 2 = 0");
    usleep(150 * 1000);
    char err[256];
    PGcancel *cn = PQgetCancel(c2);
    CHECK(cn != NULL && PQcancel(cn, err, sizeof err) == 1);
    PQfreeCancel(cn);
    t0 = now_s();
    while ((r = PQgetResult(c2)) != NULL) {
        if (PQresultStatus(r) == PGRES_FATAL_ERROR)
            CHECK_STR(ptest_sqlstate(r), "57014");
        PQclear(r);
    }
    CHECK(now_s() - t0 < 3.0);
    r = ptest_exec(c2, "SELECT count(*) FROM g", PGRES_TUPLES_OK);
    CHECK_STR(PQgetvalue(r, 0, 0), "400000");
    PQclear(r);
    PQfinish(c2);
}

int main(void)
{
    TestServer s;
    ptest_start(&s, NULL, NULL);
    PGconn *c = ptest_connect(&s, NULL);
    PQclear(ptest_exec(c, "CREATE TABLE g AS SELECT i AS x, i % 1000 AS k, 'v' || (i % 5000) AS s "
                          "FROM generate_series(1, 400000) i", PGRES_COMMAND_OK));
    PQclear(ptest_exec(c, "CREATE TABLE small AS SELECT i AS x FROM generate_series(1, 10000) i",
                       PGRES_COMMAND_OK));
    check_plans(c);
    check_sets(c);
    check_suspend(&s);
    check_errors(&s, c);
    PQfinish(c);
    return ptest_finish(&s, "test_gather");
}
