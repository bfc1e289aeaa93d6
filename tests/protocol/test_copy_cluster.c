/*
 * test_copy_cluster.c — clustered bulk loads (executor/copy_cluster.c): a
 * COPY FROM of at least 65,536 rows into a table with a primary key
 * appends its rows sorted by the key, a smaller one in file order, and the
 * errors stay PostgreSQL's: 23505 and 23502 name the first offending row
 * in file order (not the first in key order), with PostgreSQL's
 * "COPY t, line N" context, also across two segments and when a parse
 * error follows a duplicate. Physical order is observed through a plain
 * scan (single-threaded, in storage order). Expected error texts were
 * checked against PostgreSQL 15 on the same input (executor/README.md,
 * "Clustered bulk loads").
 */
#include "tests/protocol/ptest.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static TestServer server;

/* Deterministic shuffle (xorshift) of 0..n-1. */
static int *shuffled(int n, uint64_t seed)
{
    int *p = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++)
        p[i] = i;
    uint64_t x = seed;
    for (int i = n - 1; i > 0; i--) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        int j = (int)(x % (uint64_t)(i + 1));
        int t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
    return p;
}

/* COPY sql FROM STDIN with data in 64 KB CopyData messages; the final result. */
static PGresult *copy_in(PGconn *c, const char *sql, const char *data, size_t len)
{
    PGresult *r = PQexec(c, sql);
    CHECK(PQresultStatus(r) == PGRES_COPY_IN);
    if (PQresultStatus(r) != PGRES_COPY_IN)
        return r;
    PQclear(r);
    for (size_t off = 0; off < len; off += 65536) {
        size_t n = len - off < 65536 ? len - off : 65536;
        CHECK(PQputCopyData(c, data + off, (int)n) == 1);
    }
    CHECK(PQputCopyEnd(c, NULL) == 1);
    r = PQgetResult(c);
    PGresult *extra;
    while ((extra = PQgetResult(c)) != NULL)
        PQclear(extra);
    return r;
}

/* Key of input row i of the integer tables: negative values included so
 * the sign handling of the normalised keys is exercised. */
static int key_a(int i) { return i % 97 - 48; }
static long long key_b(int i) { return (long long)i - 100000; }

static int cmp_ab(int i, int j)
{
    if (key_a(i) != key_a(j))
        return key_a(i) < key_a(j) ? -1 : 1;
    return key_b(i) < key_b(j) ? -1 : key_b(i) > key_b(j);
}

/* Rows perm[0..n) as "a\tb\tc\td" lines; d is NULL for every 7th row. */
static PtestBuf int_rows(const int *perm, int n)
{
    PtestBuf b = {0};
    for (int k = 0; k < n; k++) {
        int i = perm[k];
        if (i % 7 == 0)
            ptest_buf_printf(&b, "%d\t%lld\tr%d\t\\N\n", key_a(i), key_b(i), i);
        else
            ptest_buf_printf(&b, "%d\t%lld\tr%d\t%d\n", key_a(i), key_b(i), i, i * 3);
    }
    return b;
}

/* Every row of `table` in scan order: present once, columns together, and
 * (sorted) in key order or (!sorted) in the order of perm. */
static void check_int_table(PGconn *c, const char *table, const int *perm, int n, bool sorted)
{
    char sql[200];
    snprintf(sql, sizeof sql, "SELECT a, b, c, d FROM %s", table);
    PGresult *r = ptest_exec(c, sql, PGRES_TUPLES_OK);
    CHECK(PQntuples(r) == n);
    char *seen = calloc((size_t)n, 1);
    int bad = 0, prev = -1, out_of_order = 0;
    for (int k = 0; k < PQntuples(r) && bad < 5; k++) {
        int i = (int)(atoll(PQgetvalue(r, k, 1)) + 100000);
        char want_c[32];
        snprintf(want_c, sizeof want_c, "r%d", i);
        bool ok = i >= 0 && i < n && !seen[i] && atoi(PQgetvalue(r, k, 0)) == key_a(i) &&
                  strcmp(PQgetvalue(r, k, 2), want_c) == 0 &&
                  (i % 7 == 0 ? PQgetisnull(r, k, 3) : atoi(PQgetvalue(r, k, 3)) == i * 3);
        if (!ok) {
            fprintf(stderr, "%s row %d: (%s, %s, %s, %s)\n", table, k, PQgetvalue(r, k, 0),
                    PQgetvalue(r, k, 1), PQgetvalue(r, k, 2), PQgetvalue(r, k, 3));
            bad++;
            continue;
        }
        seen[i] = 1;
        if (sorted ? (prev >= 0 && cmp_ab(prev, i) >= 0) : perm[k] != i)
            out_of_order++;
        prev = i;
    }
    CHECK(bad == 0);
    CHECK(out_of_order == 0);
    if (out_of_order)
        fprintf(stderr, "%s: %d rows out of %s order\n", table, out_of_order, sorted ? "key" : "file");
    free(seen);
    PQclear(r);
}

/* 200K shuffled rows → stored in key order; ORDER BY agrees; a filter on
 * the key finds its rows; a 1,000-row COPY stays in file order. */
static void check_sorted_load(PGconn *c)
{
    const int n = 200000;
    int *perm = shuffled(n, 42);
    PQclear(ptest_exec(c, "CREATE TABLE t (a int, b bigint, c text, d int, PRIMARY KEY (a, b))",
                       PGRES_COMMAND_OK));
    PtestBuf b = int_rows(perm, n);
    PGresult *r = copy_in(c, "COPY t FROM STDIN", b.data, b.len);
    CHECK(PQresultStatus(r) == PGRES_COMMAND_OK);
    CHECK_STR(PQcmdStatus(r), "COPY 200000");
    PQclear(r);
    check_int_table(c, "t", perm, n, true);
    r = ptest_exec(c, "SELECT b FROM t ORDER BY a, b", PGRES_TUPLES_OK);
    int *sorted_idx = malloc(sizeof(int) * (size_t)n);
    for (int i = 0; i < n; i++)
        sorted_idx[i] = perm[i];
    /* input sorted by (a, b): a = i % 97 - 48, so by i % 97 then i */
    int pos = 0;
    for (int m = 0; m < 97; m++)
        for (int i = m; i < n; i += 97)
            sorted_idx[pos++] = i;
    int diff = 0;
    for (int k = 0; k < PQntuples(r) && k < n; k++)
        diff += atoll(PQgetvalue(r, k, 0)) != key_b(sorted_idx[k]);
    CHECK(PQntuples(r) == n && diff == 0);
    PQclear(r);
    r = ptest_exec(c, "SELECT count(*), sum(b) FROM t WHERE a = 5 AND b BETWEEN 0 AND 49999",
                   PGRES_TUPLES_OK);
    long long cnt = 0, sum = 0;
    for (int i = 0; i < n; i++)
        if (key_a(i) == 5 && key_b(i) >= 0 && key_b(i) <= 49999) {
            cnt++;
            sum += key_b(i);
        }
    char want[64];
    snprintf(want, sizeof want, "%lld", cnt);
    CHECK_STR(PQgetvalue(r, 0, 0), want);
    snprintf(want, sizeof want, "%lld", sum);
    CHECK_STR(PQgetvalue(r, 0, 1), want);
    PQclear(r);
    free(b.data);
    free(sorted_idx);
    free(perm);

    /* small: file order */
    const int small = 1000;
    perm = shuffled(small, 7);
    PQclear(ptest_exec(c, "CREATE TABLE ts (a int, b bigint, c text, d int, PRIMARY KEY (a, b))",
                       PGRES_COMMAND_OK));
    b = int_rows(perm, small);
    r = copy_in(c, "COPY ts FROM STDIN", b.data, b.len);
    CHECK_STR(PQcmdStatus(r), "COPY 1000");
    PQclear(r);
    check_int_table(c, "ts", perm, small, false);
    free(b.data);
    free(perm);
}

/* A text key (op_sort's comparator path): stored in C-collation order. */
static void check_text_key(PGconn *c)
{
    const int n = 70000;
    int *perm = shuffled(n, 99);
    PQclear(ptest_exec(c, "CREATE TABLE tt (s text, n int, PRIMARY KEY (s, n))", PGRES_COMMAND_OK));
    PtestBuf b = {0};
    for (int k = 0; k < n; k++)
        ptest_buf_printf(&b, "k%d\t%d\n", perm[k] % 1000, perm[k]);
    PGresult *r = copy_in(c, "COPY tt FROM STDIN", b.data, b.len);
    CHECK_STR(PQcmdStatus(r), "COPY 70000");
    PQclear(r);
    r = ptest_exec(c, "SELECT s, n FROM tt", PGRES_TUPLES_OK);
    CHECK(PQntuples(r) == n);
    int out_of_order = 0;
    for (int k = 1; k < PQntuples(r); k++) {
        int cs = strcmp(PQgetvalue(r, k - 1, 0), PQgetvalue(r, k, 0));
        out_of_order += cs > 0 || (cs == 0 && atoi(PQgetvalue(r, k - 1, 1)) >= atoi(PQgetvalue(r, k, 1)));
    }
    CHECK(out_of_order == 0);
    PQclear(r);
    free(b.data);
    free(perm);
}

/* One failing COPY: its SQLSTATE, detail and context, and nothing loaded. */
static void expect_copy_error(PGconn *c, const char *table, const PtestBuf *b, const char *state,
                              const char *detail, const char *context, const char *count_after)
{
    char sql[200];
    snprintf(sql, sizeof sql, "COPY %s FROM STDIN", table);
    PGresult *r = copy_in(c, sql, b->data, b->len);
    CHECK(PQresultStatus(r) == PGRES_FATAL_ERROR);
    CHECK_STR(ptest_sqlstate(r), state);
    CHECK_STR(PQresultErrorField(r, PG_DIAG_MESSAGE_DETAIL), detail);
    /* PostgreSQL's 23502 context goes on with the line's text (`line N:
     * "..."`), which Strata no longer holds when the row is stored: the
     * line number must match */
    const char *ctx = PQresultErrorField(r, PG_DIAG_CONTEXT);
    CHECK(ctx != NULL && strncmp(ctx, context, strlen(context)) == 0 &&
          (ctx[strlen(context)] == '\0' || ctx[strlen(context)] == ':'));
    if (ctx == NULL || strncmp(ctx, context, strlen(context)) != 0)
        fprintf(stderr, "context \"%s\", expected \"%s\"\n", ctx ? ctx : "(null)", context);
    PQclear(r);
    snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", table);
    r = ptest_exec(c, sql, PGRES_TUPLES_OK);
    CHECK_STR(PQgetvalue(r, 0, 0), count_after);
    PQclear(r);
}

/* 100K rows with two duplicated keys: the first duplicate in file order
 * (line 70001, key (41, 9)) is reported, not the first in key order
 * ((1, 5) at line 90001). */
static void check_errors(PGconn *c)
{
    const int n = 100000;
    PQclear(ptest_exec(c, "CREATE TABLE td (a int, b int, c text, PRIMARY KEY (a, b))", PGRES_COMMAND_OK));
    PtestBuf b = {0};
    for (int i = 0; i < n; i++) {
        int a = i % 100, bb = 1000 + i;
        if (i == 10000) { a = 1; bb = 5; }
        if (i == 90000) { a = 1; bb = 5; }
        if (i == 50000) { a = 41; bb = 9; }
        if (i == 70000) { a = 41; bb = 9; }
        ptest_buf_printf(&b, "%d\t%d\tx%d\n", a, bb, i);
    }
    expect_copy_error(c, "td", &b, "23505", "Key (a, b)=(41, 9) already exists.",
                      "COPY td, line 70001", "0");
    free(b.data);

    /* NULL keys at lines 80001 and 90001 */
    b = (PtestBuf){0};
    for (int i = 0; i < n; i++) {
        if (i == 80000 || i == 90000)
            ptest_buf_printf(&b, "%d\t\\N\ty%d\n", n - i, i);
        else
            ptest_buf_printf(&b, "%d\t%d\ty%d\n", n - i, i, i);
    }
    expect_copy_error(c, "td", &b, "23502", "Failing row contains (20000, null, y80000).",
                      "COPY td, line 80001", "0");
    free(b.data);

    /* keys already in the table: (7, 700) at line 60001, (3, 300) at line
     * 95001; key order meets (3, 300) first */
    PQclear(ptest_exec(c, "INSERT INTO td VALUES (7, 700, 'old'), (3, 300, 'old')", PGRES_COMMAND_OK));
    b = (PtestBuf){0};
    for (int i = 0; i < n; i++) {
        int a = i % 100 + 10, bb = i;
        if (i == 60000) { a = 7; bb = 700; }
        if (i == 95000) { a = 3; bb = 300; }
        ptest_buf_printf(&b, "%d\t%d\tz%d\n", a, bb, i);
    }
    expect_copy_error(c, "td", &b, "23505", "Key (a, b)=(7, 700) already exists.",
                      "COPY td, line 60001", "2");
    /* the same rows without the conflicts load, sorted after the old rows */
    b.len = 0;
    for (int i = 0; i < n; i++)
        ptest_buf_printf(&b, "%d\t%d\tz%d\n", i % 100 + 10, i, i);
    PGresult *r = copy_in(c, "COPY td FROM STDIN", b.data, b.len);
    CHECK_STR(PQcmdStatus(r), "COPY 100000");
    PQclear(r);
    r = ptest_exec(c, "SELECT a, b FROM td", PGRES_TUPLES_OK);
    CHECK(PQntuples(r) == n + 2);
    int out_of_order = 0;
    for (int k = 3; k < PQntuples(r); k++) {
        int a0 = atoi(PQgetvalue(r, k - 1, 0)), a1 = atoi(PQgetvalue(r, k, 0));
        out_of_order += a0 > a1 || (a0 == a1 && atoi(PQgetvalue(r, k - 1, 1)) >= atoi(PQgetvalue(r, k, 1)));
    }
    CHECK(out_of_order == 0);
    PQclear(r);
    /* a duplicate at line 5, a bad integer at line 9000: the batch holding
     * line 5 is stored (raising 23505) before line 9000 is read, as
     * without buffering and as PostgreSQL */
    PQclear(ptest_exec(c, "CREATE TABLE tp (a int PRIMARY KEY, b int)", PGRES_COMMAND_OK));
    b.len = 0;
    for (int i = 1; i <= 10000; i++) {
        if (i == 9000)
            ptest_buf_printf(&b, "%d\tx\n", i);
        else
            ptest_buf_printf(&b, "%d\t%d\n", i == 5 ? 2 : i, i);
    }
    expect_copy_error(c, "tp", &b, "23505", "Key (a)=(2) already exists.", "COPY tp, line 5", "0");
    /* without the duplicate, the conversion error of line 9000 */
    b.len = 0;
    for (int i = 1; i <= 10000; i++)
        ptest_buf_printf(&b, i == 9000 ? "%d\tx\n" : "%d\t1\n", i);
    r = copy_in(c, "COPY tp FROM STDIN", b.data, b.len);
    CHECK_STR(ptest_sqlstate(r), "22P02");
    CHECK_STR(PQresultErrorField(r, PG_DIAG_CONTEXT), "COPY tp, line 9000, column b: \"x\"");
    PQclear(r);
    /* a small COPY's duplicate: the store's error, with the line */
    const char *two = "500\t1\tq\n10\t0\tq\n";
    r = copy_in(c, "COPY td FROM STDIN", two, strlen(two));
    CHECK_STR(ptest_sqlstate(r), "23505");
    CHECK_STR(PQresultErrorField(r, PG_DIAG_CONTEXT), "COPY td, line 2");
    PQclear(r);
    free(b.data);
}

/* 2^20 + 100,000 rows: two sorted segments (EXEC_CLUSTER_SEG_ROWS = 2^20,
 * the second above EXEC_CLUSTER_MIN_ROWS). Keys of the
 * first segment met again in the second, (10, 10) at line 1050001 and
 * (0, 0) at line 1090001: key order meets (0, 0) first, PostgreSQL's
 * error is about line 1050001. Then the same rows without them load. */
static void check_segments(PGconn *c)
{
    const int n = 1048576 + 100000;
    PQclear(ptest_exec(c, "CREATE TABLE tg (a int, b int, PRIMARY KEY (a, b))", PGRES_COMMAND_OK));
    int *perm = shuffled(n, 1234);
    PtestBuf b = {0};
    for (int k = 0; k < n; k++) {
        int i = perm[k];
        if (k == 1050000)
            i = 10;
        else if (k == 1090000)
            i = 0;
        else if (perm[k] == 10 || perm[k] == 0)
            i = k < 1048576 ? perm[k] : 2000000 + k;   /* keep (0,0), (10,10) in segment 1 */
        ptest_buf_printf(&b, "%d\t%d\n", i % 1000, i);
    }
    expect_copy_error(c, "tg", &b, "23505", "Key (a, b)=(10, 10) already exists.",
                      "COPY tg, line 1050001", "0");
    b.len = 0;
    for (int k = 0; k < n; k++)
        ptest_buf_printf(&b, "%d\t%d\n", perm[k] % 1000, perm[k]);
    PGresult *r = copy_in(c, "COPY tg FROM STDIN", b.data, b.len);
    CHECK_STR(PQcmdStatus(r), "COPY 1148576");
    PQclear(r);
    /* two ascending runs in scan order: one per segment */
    r = ptest_exec(c, "SELECT a, b FROM tg", PGRES_TUPLES_OK);
    CHECK(PQntuples(r) == n);
    int descents = 0;
    for (int k = 1; k < PQntuples(r); k++) {
        int a0 = atoi(PQgetvalue(r, k - 1, 0)), a1 = atoi(PQgetvalue(r, k, 0));
        descents += a0 > a1 || (a0 == a1 && atoi(PQgetvalue(r, k - 1, 1)) >= atoi(PQgetvalue(r, k, 1)));
    }
    CHECK(descents == 1);
    if (descents != 1)
        fprintf(stderr, "tg: %d descents in scan order\n", descents);
    PQclear(r);
    free(b.data);
    free(perm);
}

int main(void)
{
    ptest_start(&server, NULL, NULL);
    PGconn *c = ptest_connect(&server, "");
    /* The checks read rows in scan order (the layout a clustered load
     * wrote): one thread, not a Gather's any-order (executor/gather.c). */
    PQclear(ptest_exec(c, "SET max_parallel_workers_per_gather = 0", PGRES_COMMAND_OK));
    check_sorted_load(c);
    check_text_key(c);
    check_errors(c);
    check_segments(c);
    PQfinish(c);
    return ptest_finish(&server, "copy_cluster");
}
