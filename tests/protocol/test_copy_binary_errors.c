/*
 * test_copy_binary_errors.c — errors in COPY FROM's binary format carry
 * PostgreSQL 15's messages, SQLSTATEs and CONTEXT lines, which for binary
 * COPY never show the data (protocol/copy_binary.c): invalid UTF-8 in a
 * text or varchar field → 22021 "COPY t, line N, column c"; a field cut
 * short, a bad field size, a fixed-width field of the wrong size, a value
 * too long; the field count of a row, bytes after the trailer, a NOT NULL
 * violation → "COPY t, line N"; a bad signature → no context; no trailer
 * (or one stray byte after the last row) → accepted, as PostgreSQL does.
 *
 * Each file goes through COPY FROM STDIN whole and in 1-byte and 7-byte
 * CopyData messages (rows split across messages), and through COPY FROM a
 * server file. STRATA_TEST_PG_CONNINFO=... runs the same checks against a
 * real PostgreSQL 15 (how they were taken); server files go to /tmp,
 * readable by that server's user.
 */
#include "tests/protocol/ptest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static TestServer server;

static void no_notices(void *arg, const char *msg)
{
    (void)arg;
    (void)msg;
}

static const char *field_of(const PGresult *r, int code)
{
    const char *v = r ? PQresultErrorField(r, code) : NULL;
    return v ? v : "";
}

static void ok(PGconn *c, const char *sql)
{
    PQclear(ptest_exec(c, sql, PGRES_COMMAND_OK));
}

/* ---------- building binary COPY data ---------- */

typedef struct Bin {
    unsigned char b[512];
    size_t len;
} Bin;

static void put(Bin *d, const void *p, size_t n)
{
    memcpy(d->b + d->len, p, n);
    d->len += n;
}

static void put16(Bin *d, int v)
{
    unsigned char x[2] = {(unsigned char)(v >> 8), (unsigned char)v};
    put(d, x, 2);
}

static void put32(Bin *d, long v)
{
    unsigned char x[4] = {(unsigned char)(v >> 24), (unsigned char)(v >> 16), (unsigned char)(v >> 8),
                          (unsigned char)v};
    put(d, x, 4);
}

static void header(Bin *d)
{
    put(d, "PGCOPY\n\377\r\n\0", 11);
    put32(d, 0);
    put32(d, 0);
}

/* A field: its bytes (n = -1: NULL). */
static void field(Bin *d, const char *bytes, long n)
{
    put32(d, n);
    if (n > 0)
        put(d, bytes, (size_t)n);
}

static void int4_field(Bin *d, long v)
{
    put32(d, 4);
    put32(d, v);
}

/* A row (a int, b text, c varchar(3)). */
static void row(Bin *d, long a, const char *b, const char *c)
{
    put16(d, 3);
    int4_field(d, a);
    field(d, b, b ? (long)strlen(b) : -1);
    field(d, c, c ? (long)strlen(c) : -1);
}

static void trailer(Bin *d) { put16(d, -1); }

/* ---------- running COPY ---------- */

static PGresult *copy_stdin(PGconn *c, const char *sql, const Bin *d, size_t chunk)
{
    PGresult *r = PQexec(c, sql);
    if (PQresultStatus(r) != PGRES_COPY_IN)
        return r;
    PQclear(r);
    for (size_t off = 0; off < d->len; off += chunk) {
        size_t n = d->len - off < chunk ? d->len - off : chunk;
        if (PQputCopyData(c, (const char *)d->b + off, (int)n) != 1)
            break;
    }
    PQputCopyEnd(c, NULL);
    r = PQgetResult(c);
    PGresult *extra;
    while ((extra = PQgetResult(c)) != NULL)
        PQclear(extra);
    return r;
}

static PGresult *copy_file(PGconn *c, const char *table, const Bin *d)
{
    char path[128], sql[256];
    snprintf(path, sizeof path, "/tmp/strata_copy_bin_test_%d.bin", (int)getpid());
    FILE *f = fopen(path, "wb");
    if (!f)
        return NULL;
    fwrite(d->b, 1, d->len, f);
    fclose(f);
    chmod(path, 0644);
    snprintf(sql, sizeof sql, "copy %s from '%s' (format binary)", table, path);
    PGresult *r = PQexec(c, sql);
    unlink(path);
    return r;
}

/* One outcome line: "OK <tag>" or "<state> <message> | <context>". */
static void outcome(PGresult *r, char *out, size_t size)
{
    if (r && PQresultStatus(r) == PGRES_COMMAND_OK)
        snprintf(out, size, "OK %s", PQcmdStatus(r));
    else
        snprintf(out, size, "%s %s | %s", ptest_sqlstate(r), field_of(r, PG_DIAG_MESSAGE_PRIMARY),
                 field_of(r, PG_DIAG_CONTEXT));
    PQclear(r);
}

/* d into table through every path, each in a transaction rolled back;
 * all must answer want. */
static void expect(PGconn *c, const char *table, const Bin *d, const char *want, int line)
{
    static const size_t chunks[] = {1, 7, 100000};
    char sql[128], got[1024];
    snprintf(sql, sizeof sql, "copy %s from stdin (format binary)", table);
    for (int i = 0; i < 4; i++) {
        ok(c, "begin");
        outcome(i < 3 ? copy_stdin(c, sql, d, chunks[i]) : copy_file(c, table, d), got, sizeof got);
        PQclear(PQexec(c, "rollback"));
        if (strcmp(got, want) != 0) {
            fprintf(stderr, "line %d (%s): got \"%s\", expected \"%s\"\n", line,
                    i < 3 ? "stdin" : "file", got, want);
            ptest_failures++;
        }
    }
}
#define EXPECT(c, table, d, want) expect((c), (table), (d), (want), __LINE__)

#define BAD_UTF8 "22021 invalid byte sequence for encoding \"UTF8\": "

static void check_utf8(PGconn *c)
{
    Bin d = {.len = 0};
    header(&d);
    row(&d, 1, "h\xffllo", "ab");
    trailer(&d);
    EXPECT(c, "cb", &d, BAD_UTF8 "0xff | COPY cb, line 1, column b");

    d.len = 0;
    header(&d);
    row(&d, 1, "hello", "ab");
    row(&d, 2, "w\xffrld", "cd");
    trailer(&d);
    EXPECT(c, "cb", &d, BAD_UTF8 "0xff | COPY cb, line 2, column b");

    d.len = 0;
    header(&d);
    row(&d, 1, "hello", "ab");
    row(&d, 2, "world", "\xc3(");
    trailer(&d);
    EXPECT(c, "cb", &d, BAD_UTF8 "0xc3 0x28 | COPY cb, line 2, column c");

    d.len = 0;   /* an incomplete sequence at the field's end */
    header(&d);
    row(&d, 1, "hello", "ab");
    row(&d, 2, "wo\xe2\x82", "cd");
    trailer(&d);
    EXPECT(c, "cb", &d, BAD_UTF8 "0xe2 0x82 | COPY cb, line 2, column b");

    d.len = 0;   /* a NUL byte */
    header(&d);
    put16(&d, 3);
    int4_field(&d, 1);
    field(&d, "a\0b", 3);
    field(&d, "x", 1);
    trailer(&d);
    EXPECT(c, "cb", &d, BAD_UTF8 "0x00 | COPY cb, line 1, column b");

    d.len = 0;   /* valid multibyte text loads */
    header(&d);
    row(&d, 1, "h\xc3\xa9llo \xe2\x82\xac", "\xc3\xa9\xc3\xa9");
    row(&d, 2, NULL, NULL);
    trailer(&d);
    EXPECT(c, "cb", &d, "OK COPY 2");
}

static void check_structure(PGconn *c)
{
    Bin d = {.len = 0};
    header(&d);
    row(&d, 1, "hello", "ab");
    row(&d, 2, "world", "cd");
    EXPECT(c, "cb", &d, "OK COPY 2");   /* no trailer */
    put(&d, "\0", 1);
    EXPECT(c, "cb", &d, "OK COPY 2");   /* and one stray byte */

    d.len = 0;
    header(&d);
    row(&d, 1, "hello", "ab");
    size_t cut = d.len;
    row(&d, 2, "world", "cd");
    d.len = cut + 2 + 8 + 4 + 2;   /* in row 2's field b */
    EXPECT(c, "cb", &d, "22P04 unexpected EOF in COPY data | COPY cb, line 2, column b");
    d.len = cut + 2 + 4 + 2;   /* in row 2's field a */
    EXPECT(c, "cb", &d, "22P04 unexpected EOF in COPY data | COPY cb, line 2, column a");
    d.len = cut + 2;   /* right after the field count */
    EXPECT(c, "cb", &d, "22P04 unexpected EOF in COPY data | COPY cb, line 2, column a");

    d.len = 0;
    header(&d);
    row(&d, 1, "hello", "ab");
    put16(&d, 2);
    int4_field(&d, 2);
    field(&d, "world", 5);
    trailer(&d);
    EXPECT(c, "cb", &d, "22P04 row field count is 2, expected 3 | COPY cb, line 2");

    d.len = 0;
    header(&d);
    row(&d, 1, "hello", "ab");
    put16(&d, 3);
    int4_field(&d, 2);
    put32(&d, -5);
    trailer(&d);
    EXPECT(c, "cb", &d, "22P04 invalid field size | COPY cb, line 2, column b");

    d.len = 0;
    header(&d);
    row(&d, 1, "hello", "ab");
    row(&d, 2, "world", "cd");
    trailer(&d);
    put(&d, "xyz", 3);
    EXPECT(c, "cb", &d, "22P04 received copy data after EOF marker | COPY cb, line 3");

    d.len = 0;
    header(&d);
    d.b[5] = 'X';
    row(&d, 1, "hello", "ab");
    trailer(&d);
    EXPECT(c, "cb", &d, "22P04 COPY file signature not recognized | ");
}

static void check_values(PGconn *c)
{
    Bin d = {.len = 0};
    header(&d);
    row(&d, 1, "hello", "ab");
    put16(&d, 3);
    field(&d, "\0\2", 2);   /* int4 in 2 bytes */
    field(&d, "world", 5);
    field(&d, "cd", 2);
    trailer(&d);
    EXPECT(c, "cb", &d, "08P01 insufficient data left in message | COPY cb, line 2, column a");

    d.len = 0;
    header(&d);
    put16(&d, 3);
    field(&d, "\0\0\0\0\2", 5);   /* int4 in 5 bytes */
    field(&d, "world", 5);
    field(&d, "cd", 2);
    trailer(&d);
    EXPECT(c, "cb", &d, "22P03 incorrect binary data format | COPY cb, line 1, column a");

    d.len = 0;
    header(&d);
    row(&d, 1, "hello", "ab");
    row(&d, 2, "world", "cdef");
    trailer(&d);
    EXPECT(c, "cb", &d, "22001 value too long for type character varying(3) | COPY cb, line 2, column c");

    d.len = 0;
    header(&d);
    row(&d, 1, "hello", "ab");
    put16(&d, 3);
    field(&d, NULL, -1);
    field(&d, "w", 1);
    field(&d, "x", 1);
    trailer(&d);
    EXPECT(c, "cbn", &d, "23502 null value in column \"a\" of relation \"cbn\" violates not-null constraint | "
                         "COPY cbn, line 2");

    /* a NOT NULL violation in row 1 comes before the bad bytes of row 2 */
    d.len = 0;
    header(&d);
    put16(&d, 3);
    field(&d, NULL, -1);
    field(&d, "w", 1);
    field(&d, "x", 1);
    row(&d, 2, "w\xff", "x");
    trailer(&d);
    EXPECT(c, "cbn", &d, "23502 null value in column \"a\" of relation \"cbn\" violates not-null constraint | "
                         "COPY cbn, line 1");
    d.len -= 2;
    put16(&d, 2);   /* ... and before a bad field count */
    EXPECT(c, "cbn", &d, "23502 null value in column \"a\" of relation \"cbn\" violates not-null constraint | "
                         "COPY cbn, line 1");
    d.len -= 2;
    trailer(&d);   /* ... and before bytes after the trailer */
    put(&d, "z", 1);
    EXPECT(c, "cbn", &d, "23502 null value in column \"a\" of relation \"cbn\" violates not-null constraint | "
                         "COPY cbn, line 1");
}

int main(void)
{
    const char *pg = getenv("STRATA_TEST_PG_CONNINFO");
    if (!pg)
        ptest_start(&server, NULL, NULL);
    PGconn *c = pg ? PQconnectdb(pg) : ptest_connect(&server, "");
    if (PQstatus(c) != CONNECTION_OK) {
        fprintf(stderr, "connect failed: %s", PQerrorMessage(c));
        return 1;
    }
    PQsetNoticeProcessor(c, no_notices, NULL);
    PQclear(PQexec(c, "drop table if exists cb, cbn"));
    ok(c, "create table cb (a int, b text, c varchar(3))");
    ok(c, "create table cbn (a int not null, b text, c varchar(3))");
    check_utf8(c);
    check_structure(c);
    check_values(c);
    PGresult *r = ptest_exec(c, "select count(*) from cb", PGRES_TUPLES_OK);
    CHECK_STR(PQgetvalue(r, 0, 0), "0");   /* every COPY was rolled back */
    PQclear(r);
    ok(c, "drop table cb, cbn");
    PQfinish(c);
    if (pg) {
        printf("copy_binary_errors (PostgreSQL): %s\n", ptest_failures ? "FAILED" : "ok");
        return ptest_failures ? 1 : 0;
    }
    if (harness_server_stop_checked(&server) != 0)
        ptest_failures++;
    if (ptest_failures) {
        fprintf(stderr, "copy_binary_errors: %d check(s) failed\n", ptest_failures);
        return 1;
    }
    printf("copy_binary_errors: ok\n");
    return 0;
}
