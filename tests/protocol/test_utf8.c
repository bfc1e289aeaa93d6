/*
 * test_utf8.c — text entering the server is validated as UTF-8, as
 * PostgreSQL 15 with server_encoding UTF8 does (common/utf8.c): Query and
 * Parse strings, statement and portal names, Bind parameters in text and
 * binary format, COPY FROM STDIN (text and CSV) and COPY FROM a server
 * file, CopyFail's message, application_name in the startup packet
 * (cleaned to ASCII); every class of invalid sequence, NUL bytes,
 * PostgreSQL's message (`invalid byte sequence for encoding "UTF8": 0xe2
 * 0x82 0x27`), SQLSTATE 22021 and COPY's CONTEXT line; the session stays
 * usable after each error (25P02 inside a block). Valid multibyte text
 * round-trips unchanged.
 *
 * STRATA_TEST_PG_CONNINFO=... (e.g. "host=127.0.0.1 port=5433
 * user=postgres dbname=postgres") runs the same checks against a real
 * PostgreSQL 15 — how the expectations were taken. Server files are
 * written in /tmp, readable by that server's user.
 */
#include "tests/protocol/ptest.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static TestServer server;

#define BAD_MSG(bytes) "invalid byte sequence for encoding \"UTF8\": " bytes

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

/* Expect r to be PostgreSQL's 22021 with this primary message and
 * CONTEXT (context "" = none); clears r. */
static void expect_bad(PGresult *r, const char *msg, const char *context, int line)
{
    if (strcmp(ptest_sqlstate(r), "22021") != 0 || strcmp(field_of(r, PG_DIAG_MESSAGE_PRIMARY), msg) != 0 ||
        strcmp(field_of(r, PG_DIAG_CONTEXT), context) != 0) {
        fprintf(stderr, "line %d: got %s \"%s\" context \"%s\"; expected 22021 \"%s\" context \"%s\"\n", line,
                ptest_sqlstate(r), field_of(r, PG_DIAG_MESSAGE_PRIMARY), field_of(r, PG_DIAG_CONTEXT), msg,
                context);
        ptest_failures++;
    }
    PQclear(r);
}
#define EXPECT_BAD(r, msg, ctx) expect_bad((r), (msg), (ctx), __LINE__)

static void ok(PGconn *c, const char *sql)
{
    PQclear(ptest_exec(c, sql, PGRES_COMMAND_OK));
}

/* The single value of a one-row query, as text ("" on failure). */
static void expect_value(PGconn *c, const char *sql, const char *want, int line)
{
    PGresult *r = PQexec(c, sql);
    const char *got = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 ? PQgetvalue(r, 0, 0) : "";
    if (strcmp(got, want) != 0) {
        fprintf(stderr, "line %d: %s -> \"%s\" (%s), expected \"%s\"\n", line, sql, got,
                PQresultErrorMessage(r), want);
        ptest_failures++;
    }
    PQclear(r);
}
#define EXPECT_VALUE(c, sql, want) expect_value((c), (sql), (want), __LINE__)

/* COPY sql FROM STDIN with len bytes of data in chunks of chunk bytes. */
static PGresult *copy_in(PGconn *c, const char *sql, const char *data, size_t len, size_t chunk)
{
    PGresult *r = PQexec(c, sql);
    CHECK(PQresultStatus(r) == PGRES_COPY_IN);
    if (PQresultStatus(r) != PGRES_COPY_IN)
        return r;
    PQclear(r);
    for (size_t off = 0; off < len; off += chunk) {
        size_t n = len - off < chunk ? len - off : chunk;
        CHECK(PQputCopyData(c, data + off, (int)n) == 1);
    }
    CHECK(PQputCopyEnd(c, NULL) == 1);
    r = PQgetResult(c);
    PGresult *extra;
    while ((extra = PQgetResult(c)) != NULL)
        PQclear(extra);
    return r;
}

/* ---------- Query ---------- */

static void check_query(PGconn *c)
{
    static const struct {
        const char *sql, *msg;
    } cases[] = {
        {"select 'a\xff" "b'", BAD_MSG("0xff")},
        {"select 'a\xfe'", BAD_MSG("0xfe")},
        {"select '\x80'", BAD_MSG("0x80")},                             /* continuation alone */
        {"select 'x\xbf\xbf'", BAD_MSG("0xbf")},
        {"select '\xc0\xaf'", BAD_MSG("0xc0 0xaf")},                    /* overlong '/' */
        {"select '\xc1\xbf'", BAD_MSG("0xc1 0xbf")},
        {"select '\xe0\x80\xaf'", BAD_MSG("0xe0 0x80 0xaf")},           /* overlong, 3 bytes */
        {"select '\xf0\x80\x80\xaf'", BAD_MSG("0xf0 0x80 0x80 0xaf")},  /* overlong, 4 bytes */
        {"select '\xed\xa0\x80'", BAD_MSG("0xed 0xa0 0x80")},           /* surrogate D800 */
        {"select '\xed\xbf\xbf'", BAD_MSG("0xed 0xbf 0xbf")},           /* surrogate DFFF */
        {"select '\xf4\x90\x80\x80'", BAD_MSG("0xf4 0x90 0x80 0x80")},  /* U+110000 */
        {"select '\xf5\x80\x80\x80'", BAD_MSG("0xf5 0x80 0x80 0x80")},
        {"select '\xf8\x88\x80\x80\x80'", BAD_MSG("0xf8")},                        /* PostgreSQL shows one byte */
        {"select 'ab\xe2\x82'", BAD_MSG("0xe2 0x82 0x27")},             /* truncated by the quote */
        {"select 1 -- \xe2\x82", BAD_MSG("0xe2 0x82")},                 /* truncated at the end */
        {"select 1 -- \xf0", BAD_MSG("0xf0")},
        {"select '\xc3'", BAD_MSG("0xc3 0x27")},
        {"select '\xe2\x28\xa1'", BAD_MSG("0xe2 0x28 0xa1")},
        {"select 'long ascii prefix before the bad byte, more than thirty-two bytes \xff'", BAD_MSG("0xff")},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        PGresult *r = PQexec(c, cases[i].sql);
        if (strcmp(field_of(r, PG_DIAG_MESSAGE_PRIMARY), cases[i].msg) != 0)
            fprintf(stderr, "query case %zu:\n", i);
        EXPECT_BAD(r, cases[i].msg, "");
    }
    EXPECT_VALUE(c, "select 1", "1");
    /* valid multibyte text, every length, the largest code points */
    EXPECT_VALUE(c, "select 'h\xc3\xa9llo \xe2\x82\xac \xf0\x9d\x84\x9e \xef\xbf\xbf \xf4\x8f\xbf\xbf'",
                 "h\xc3\xa9llo \xe2\x82\xac \xf0\x9d\x84\x9e \xef\xbf\xbf \xf4\x8f\xbf\xbf");
    EXPECT_VALUE(c, "select length('\xc3\xa9\xe2\x82\xac\xf0\x9d\x84\x9e')", "3");
    EXPECT_VALUE(c, "select '\xed\x9f\xbf\xee\x80\x80'", "\xed\x9f\xbf\xee\x80\x80");  /* around surrogates */
    /* inside a transaction block: the block fails, 25P02 until ROLLBACK */
    ok(c, "begin");
    EXPECT_BAD(PQexec(c, "select 'x\xff'"), BAD_MSG("0xff"), "");
    PGresult *r = PQexec(c, "select 1");
    CHECK_STR(ptest_sqlstate(r), "25P02");
    PQclear(r);
    ok(c, "rollback");
    EXPECT_VALUE(c, "select 2", "2");
}

/* ---------- Parse / Bind ---------- */

static void check_extended(PGconn *c)
{
    EXPECT_BAD(PQprepare(c, "", "select 'a\xff'", 0, NULL), BAD_MSG("0xff"), "");
    EXPECT_BAD(PQprepare(c, "st\xff", "select 1", 0, NULL), BAD_MSG("0xff"), "");
    EXPECT_BAD(PQexecParams(c, "select 'x\xe2\x82\xac\xed\xa0\x80'", 0, NULL, NULL, NULL, NULL, 0),
               BAD_MSG("0xed 0xa0 0x80"), "");
    EXPECT_VALUE(c, "select 1", "1");

    /* text-format parameters, any type */
    const char *bad[] = {"a\xff" "b"};
    EXPECT_BAD(PQexecParams(c, "select $1::text", 1, NULL, bad, NULL, NULL, 0), BAD_MSG("0xff"),
               "unnamed portal parameter $1");
    EXPECT_BAD(PQexecParams(c, "select $1::int", 1, NULL, bad, NULL, NULL, 0), BAD_MSG("0xff"),
               "unnamed portal parameter $1");
    const char *two[] = {"ok", "\xf4\x90\x80\x80"};
    EXPECT_BAD(PQexecParams(c, "select $1::text, $2::text", 2, NULL, two, NULL, NULL, 0),
               BAD_MSG("0xf4 0x90 0x80 0x80"), "unnamed portal parameter $2");
    const char *good[] = {"\xe2\x82\xac"};
    PGresult *r = PQexecParams(c, "select $1::text", 1, NULL, good, NULL, NULL, 0);
    CHECK(PQresultStatus(r) == PGRES_TUPLES_OK && strcmp(PQgetvalue(r, 0, 0), "\xe2\x82\xac") == 0);
    PQclear(r);

    /* binary-format text parameters: textrecv validates as well */
    const Oid text_oid[] = {25};
    const int fmt1[] = {1};
    const char *bin_bad[] = {"a\xc0\xaf"};
    const int len3[] = {3};
    EXPECT_BAD(PQexecParams(c, "select $1", 1, text_oid, bin_bad, len3, fmt1, 0), BAD_MSG("0xc0 0xaf"),
               "unnamed portal parameter $1");
    const char *bin_nul[] = {"a\0b"};
    EXPECT_BAD(PQexecParams(c, "select $1", 1, text_oid, bin_nul, len3, fmt1, 0), BAD_MSG("0x00"),
               "unnamed portal parameter $1");
    const Oid varchar_oid[] = {1043};
    EXPECT_BAD(PQexecParams(c, "select $1", 1, varchar_oid, bin_bad, len3, fmt1, 0), BAD_MSG("0xc0 0xaf"),
               "unnamed portal parameter $1");
    const char *bin_good[] = {"\xc3\xa9"};
    const int len2[] = {2};
    r = PQexecParams(c, "select $1", 1, text_oid, bin_good, len2, fmt1, 0);
    CHECK(PQresultStatus(r) == PGRES_TUPLES_OK && strcmp(PQgetvalue(r, 0, 0), "\xc3\xa9") == 0);
    PQclear(r);

    /* a named statement and portal: the portal's name in the context */
    PQclear(ptest_exec(c, "begin", PGRES_COMMAND_OK));
    PQclear(PQprepare(c, "named", "select $1::text", 0, NULL));
    EXPECT_BAD(PQexecPrepared(c, "named", 1, bad, NULL, NULL, 0), BAD_MSG("0xff"),
               "unnamed portal parameter $1");
    r = PQexec(c, "select 1");
    CHECK_STR(ptest_sqlstate(r), "25P02");
    PQclear(r);
    ok(c, "rollback");
    EXPECT_VALUE(c, "select 3", "3");
}

/* A text-format parameter with a NUL byte (libpq sends text parameters
 * with strlen, so through the raw client): 0x00. */
static void check_raw_nul_param(int port)
{
    int fd = raw_connect(port);
    CHECK(fd >= 0 && raw_startup(fd, "postgres", "postgres") == 0);
    if (fd < 0)
        return;
    RawBuf b = {.len = 0};
    rb_str(&b, "");
    rb_str(&b, "select $1::text");
    rb_i16(&b, 0);
    raw_send(fd, 'P', b.data, b.len);
    b.len = 0;
    rb_str(&b, "");
    rb_str(&b, "");
    rb_i16(&b, 0);
    rb_i16(&b, 1);
    rb_i32(&b, 3);
    memcpy(b.data + b.len, "a\0b", 3);
    b.len += 3;
    rb_i16(&b, 0);
    raw_send(fd, 'B', b.data, b.len);
    raw_send(fd, 'S', NULL, 0);
    RawMsg m;
    bool seen_error = false, seen_ready = false;
    while (!seen_ready && raw_read(fd, &m, 5000) == 0) {
        if (m.type == 'E') {
            seen_error = true;
            CHECK_STR(raw_error_field(&m, 'C'), "22021");
            CHECK_STR(raw_error_field(&m, 'M'), BAD_MSG("0x00"));
            CHECK_STR(raw_error_field(&m, 'W'), "unnamed portal parameter $1");
        }
        seen_ready = m.type == 'Z';
    }
    CHECK(seen_error && seen_ready);
    /* a named portal: its name in the context */
    b.len = 0;
    rb_str(&b, "");
    rb_str(&b, "select $1::text");
    rb_i16(&b, 0);
    raw_send(fd, 'P', b.data, b.len);
    b.len = 0;
    rb_str(&b, "p1");
    rb_str(&b, "");
    rb_i16(&b, 0);
    rb_i16(&b, 1);
    rb_i32(&b, 2);
    memcpy(b.data + b.len, "\xc3(", 2);
    b.len += 2;
    rb_i16(&b, 0);
    raw_send(fd, 'B', b.data, b.len);
    raw_send(fd, 'S', NULL, 0);
    seen_error = seen_ready = false;
    while (!seen_ready && raw_read(fd, &m, 5000) == 0) {
        if (m.type == 'E') {
            seen_error = true;
            CHECK_STR(raw_error_field(&m, 'M'), BAD_MSG("0xc3 0x28"));
            CHECK_STR(raw_error_field(&m, 'W'), "portal \"p1\" parameter $1");
        }
        seen_ready = m.type == 'Z';
    }
    CHECK(seen_error && seen_ready);
    /* a name with a bad byte in Describe: 22021 too */
    b.len = 0;
    b.data[b.len++] = 'S';
    rb_str(&b, "n\xff");
    raw_send(fd, 'D', b.data, b.len);
    raw_send(fd, 'S', NULL, 0);
    seen_error = seen_ready = false;
    while (!seen_ready && raw_read(fd, &m, 5000) == 0) {
        if (m.type == 'E') {
            seen_error = true;
            CHECK_STR(raw_error_field(&m, 'C'), "22021");
        }
        seen_ready = m.type == 'Z';
    }
    CHECK(seen_error && seen_ready);
    close(fd);
}

/* ---------- COPY ---------- */

static void expect_count(PGconn *c, const char *want, int line)
{
    expect_value(c, "select count(*) from u8", want, line);
}

static void check_copy_text(PGconn *c)
{
    ok(c, "create table u8 (a int, b text)");
    const char *good = "1\th\xc3\xa9llo\n2\t\xe2\x82\xac\xf0\x9d\x84\x9e\n";
    PGresult *r = copy_in(c, "copy u8 from stdin", good, strlen(good), 3);  /* split mid-character */
    CHECK(PQresultStatus(r) == PGRES_COMMAND_OK);
    PQclear(r);
    EXPECT_VALUE(c, "select b from u8 where a = 2", "\xe2\x82\xac\xf0\x9d\x84\x9e");
    ok(c, "truncate u8");

    const char *d1 = "1\tok\n2\tx\xfey\n3\tok\n";
    EXPECT_BAD(copy_in(c, "copy u8 from stdin", d1, strlen(d1), 1000), BAD_MSG("0xfe"), "COPY u8, line 2");
    EXPECT_BAD(copy_in(c, "copy u8 from stdin", d1, strlen(d1), 1), BAD_MSG("0xfe"), "COPY u8, line 2");
    expect_count(c, "0", __LINE__);
    /* truncated sequences: by the delimiter, the newline, the end of data */
    const char *d2 = "1\tab\xe2\x82\n";
    EXPECT_BAD(copy_in(c, "copy u8 from stdin", d2, strlen(d2), 1000), BAD_MSG("0xe2 0x82 0x0a"),
               "COPY u8, line 1");
    const char *d3 = "1\tab\xe2\x82";
    EXPECT_BAD(copy_in(c, "copy u8 from stdin", d3, strlen(d3), 1000), BAD_MSG("0xe2 0x82"), "COPY u8, line 1");
    const char *d4 = "1\tab\n\xed\xa0\x80\tx\n";
    EXPECT_BAD(copy_in(c, "copy u8 from stdin", d4, strlen(d4), 2), BAD_MSG("0xed 0xa0 0x80"),
               "COPY u8, line 2");
    /* a raw NUL byte */
    const char d5[] = "1\ta\0b\n";
    EXPECT_BAD(copy_in(c, "copy u8 from stdin", d5, sizeof d5 - 1, 1000), BAD_MSG("0x00"), "COPY u8, line 1");
    /* before the field count: a bad line with too many fields */
    const char *d6 = "1\tx\xff\tmore\n";
    EXPECT_BAD(copy_in(c, "copy u8 from stdin", d6, strlen(d6), 1000), BAD_MSG("0xff"), "COPY u8, line 1");
    /* escapes that make bytes: octal and hex, then a NUL */
    const char *d7 = "1\ta\\377b\n";
    EXPECT_BAD(copy_in(c, "copy u8 from stdin", d7, strlen(d7), 1000), BAD_MSG("0xff"),
               "COPY u8, line 1: \"1\ta\\377b\"");
    const char *d8 = "1\ta\\xc3\\xa9\n";   /* escaped but valid: é */
    r = copy_in(c, "copy u8 from stdin", d8, strlen(d8), 1000);
    CHECK(PQresultStatus(r) == PGRES_COMMAND_OK);
    PQclear(r);
    EXPECT_VALUE(c, "select b from u8", "a\xc3\xa9");
    ok(c, "truncate u8");
    const char *d9 = "1\ta\\0b\n";
    EXPECT_BAD(copy_in(c, "copy u8 from stdin", d9, strlen(d9), 1000), BAD_MSG("0x00"),
               "COPY u8, line 1: \"1\ta\\0b\"");
    /* the rows before a bad line are converted first: their errors win */
    const char *d11 = "x\tok\n2\tx\xffy\n";
    r = copy_in(c, "copy u8 from stdin", d11, strlen(d11), 1000);
    CHECK_STR(ptest_sqlstate(r), "22P02");
    CHECK_STR(field_of(r, PG_DIAG_CONTEXT), "COPY u8, line 1, column a: \"x\"");
    PQclear(r);
    /* a header line is read, and checked, too */
    const char *d12 = "a\xff\tb\n1\tok\n";
    EXPECT_BAD(copy_in(c, "copy u8 from stdin (header true)", d12, strlen(d12), 1000), BAD_MSG("0xff"),
               "COPY u8, line 1");
    /* an invalid byte after the end marker is never read */
    const char *d10 = "1\tok\n\\.\n\xff\n";
    r = copy_in(c, "copy u8 from stdin", d10, strlen(d10), 1000);
    CHECK(PQresultStatus(r) == PGRES_COMMAND_OK);
    PQclear(r);
    expect_count(c, "1", __LINE__);
    ok(c, "truncate u8");
    EXPECT_VALUE(c, "select 4", "4");
}

static void check_copy_csv_and_large(PGconn *c)
{
    const char *d1 = "1,ok\n2,\"x\xc1\xbf\"\n";
    EXPECT_BAD(copy_in(c, "copy u8 from stdin (format csv)", d1, strlen(d1), 1000), BAD_MSG("0xc1 0xbf"),
               "COPY u8, line 2");
    const char *d2 = "1,\"multi\nline\"\n2,\xf5\x80\n";
    EXPECT_BAD(copy_in(c, "copy u8 from stdin (format csv)", d2, strlen(d2), 5), BAD_MSG("0xf5 0x80 0x0a"),
               "COPY u8, line 2");   /* PostgreSQL: the record's number here */
    const char d3[] = "1,\"a\0\"\n";
    EXPECT_BAD(copy_in(c, "copy u8 from stdin (format csv)", d3, sizeof d3 - 1, 1000), BAD_MSG("0x00"),
               "COPY u8, line 1");
    const char *d4 = "1,\"\xc3\xa9,\xe2\x82\xac\"\n";
    PGresult *r = copy_in(c, "copy u8 from stdin (format csv)", d4, strlen(d4), 1);
    CHECK(PQresultStatus(r) == PGRES_COMMAND_OK);
    PQclear(r);
    EXPECT_VALUE(c, "select b from u8", "\xc3\xa9,\xe2\x82\xac");
    ok(c, "truncate u8");

    /* a table with a primary key (buffered, stored in key order) */
    ok(c, "create table u8k (a int primary key, b text)");
    const char *dk = "1,ok\n2,\"\xe2\x82\xac\"\n3,\"x\xe2\x82\"\n";
    EXPECT_BAD(copy_in(c, "copy u8k from stdin (format csv)", dk, strlen(dk), 7), BAD_MSG("0xe2 0x82 0x22"),
               "COPY u8k, line 3");
    expect_value(c, "select count(*) from u8k", "0", __LINE__);
    ok(c, "drop table u8k");
    /* past the first batch of rows, mostly multibyte text */
    PtestBuf big = {0};
    for (int i = 1; i <= 5000; i++)
        ptest_buf_printf(&big, "%d\tr\xc3\xa9g\xc3\xa9 \xe2\x82\xac%d%s\n", i, i, i == 4321 ? "\xe0\x9f\xbf" : "");
    EXPECT_BAD(copy_in(c, "copy u8 from stdin", big.data, big.len, 8192), BAD_MSG("0xe0 0x9f 0xbf"),
               "COPY u8, line 4321");
    expect_count(c, "0", __LINE__);
    /* inside a block: the block fails, then rolls back */
    ok(c, "begin");
    EXPECT_BAD(copy_in(c, "copy u8 from stdin", big.data, big.len, 65536), BAD_MSG("0xe0 0x9f 0xbf"),
               "COPY u8, line 4321");
    r = PQexec(c, "select 1");
    CHECK_STR(ptest_sqlstate(r), "25P02");
    PQclear(r);
    ok(c, "rollback");
    free(big.data);

    /* CopyFail's message is client text too */
    r = PQexec(c, "copy u8 from stdin");
    CHECK(PQresultStatus(r) == PGRES_COPY_IN);
    PQclear(r);
    CHECK(PQputCopyEnd(c, "stop \xff") == 1);
    r = PQgetResult(c);
    EXPECT_BAD(r, BAD_MSG("0xff"), "COPY u8, line 1");
    while ((r = PQgetResult(c)) != NULL)
        PQclear(r);
    EXPECT_VALUE(c, "select 5", "5");
}

/* COPY FROM a server file: the same rules and context lines. */
static void check_copy_file(PGconn *c)
{
    char path[128];
    snprintf(path, sizeof path, "/tmp/strata_utf8_test_%d.txt", (int)getpid());
    const char *cases[][3] = {
        {"1\tok\n2\t\xc0\xaf\n", "", BAD_MSG("0xc0 0xaf")},
        {"1,ok\n2,ok\n3,\"\xed\xb0\x80\"\n", "(format csv)", BAD_MSG("0xed 0xb0 0x80")},
    };
    for (int i = 0; i < 2; i++) {
        FILE *f = fopen(path, "wb");
        CHECK(f != NULL);
        if (!f)
            return;
        fputs(cases[i][0], f);
        fclose(f);
        chmod(path, 0644);
        char sql[256];
        snprintf(sql, sizeof sql, "copy u8 from '%s' %s", path, cases[i][1]);
        EXPECT_BAD(PQexec(c, sql), cases[i][2], i == 0 ? "COPY u8, line 2" : "COPY u8, line 3");
    }
    FILE *f = fopen(path, "wb");
    if (f) {
        fputs("7\t\xe2\x82\xac\n", f);
        fclose(f);
        char sql[256];
        snprintf(sql, sizeof sql, "copy u8 from '%s'", path);
        ok(c, sql);
        EXPECT_VALUE(c, "select b from u8 where a = 7", "\xe2\x82\xac");
    }
    unlink(path);
    ok(c, "drop table u8");
}

/* Startup values are not validated, but application_name keeps only
 * printable ASCII (PostgreSQL's pg_clean_ascii), from the startup packet
 * and from SET alike. */
static void check_application_name(const char *conninfo)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s application_name='a\xff" "b\xc3\xa9\x01'", conninfo);
    PGconn *c = PQconnectdb(buf);
    CHECK(PQstatus(c) == CONNECTION_OK);
    if (PQstatus(c) != CONNECTION_OK) {
        PQfinish(c);
        return;
    }
    CHECK_STR(PQparameterStatus(c, "application_name"), "a?b???");
    EXPECT_VALUE(c, "show application_name", "a?b???");
    ok(c, "set application_name = 'x\xc3\xa9y'");
    EXPECT_VALUE(c, "show application_name", "x??y");
    PQfinish(c);
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
    PQclear(PQexec(c, "drop table if exists u8"));
    check_query(c);
    check_extended(c);
    check_raw_nul_param(atoi(PQport(c)));
    check_copy_text(c);
    check_copy_csv_and_large(c);
    check_copy_file(c);
    char conninfo[512];
    snprintf(conninfo, sizeof conninfo, "host=127.0.0.1 port=%s user=postgres dbname=postgres", PQport(c));
    check_application_name(conninfo);
    PQfinish(c);
    if (pg) {
        printf("utf8 (PostgreSQL): %s\n", ptest_failures ? "FAILED" : "ok");
        return ptest_failures ? 1 : 0;
    }
    if (harness_server_stop_checked(&server) != 0)
        ptest_failures++;
    if (ptest_failures) {
        fprintf(stderr, "utf8: %d check(s) failed\n", ptest_failures);
        return 1;
    }
    printf("utf8: ok\n");
    return 0;
}
