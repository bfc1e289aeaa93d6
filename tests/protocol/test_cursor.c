/*
 * test_cursor.c — SQL cursors through the extended protocol, byte by byte,
 * as PostgreSQL 15 answers the same sequence (checked with the same
 * messages against a PostgreSQL 15 server):
 *   - Describe + Execute(2) + Execute(0) + Execute(0) of a DECLAREd cursor's
 *     own portal: RowDescription, 2 DataRows, PortalSuspended, 3 DataRows,
 *     `SELECT 3`, `SELECT 0`;
 *   - Parse of a DECLARE with $1 (type inferred), Describe S: its
 *     ParameterDescription and NoData, Bind "10", Describe P: NoData,
 *     Execute: `DECLARE CURSOR`;
 *   - Parse/Bind of `FETCH ALL FROM d`, Describe P: the cursor's
 *     RowDescription, Execute(1): one DataRow + PortalSuspended, Execute(0):
 *     the other two + `FETCH 2` (PostgreSQL runs the FETCH at once and
 *     hands out its rows); a new Bind of it: `FETCH 0`;
 *   - `CLOSE ALL` through Execute (its own portal survives it), the cursor
 *     gone afterwards (34000);
 *   - a WITH HOLD cursor declared through Parse/Bind outside a block lives
 *     past the Sync that commits it, and scrolls back;
 *   - a FETCH bound before its cursor was declared: NoData, rows counted
 *     but not sent.
 */
#include "tests/protocol/ptest.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static RawMsg m;

static void expect(int fd, char type)
{
    int rc = raw_read(fd, &m, 5000);
    CHECK(rc == 0);
    if (rc == 0 && m.type != type) {
        fprintf(stderr, "expected message '%c', got '%c' (%s)\n", type, m.type,
                m.type == 'E' ? raw_error_field(&m, 'M') : "");
        ptest_failures++;
    }
}

/* Expect a DataRow whose first column is this text. */
static void expect_row(int fd, const char *value)
{
    expect(fd, 'D');
    size_t n = strlen(value);
    CHECK(m.len >= 6 + n && memcmp(m.body + 6, value, n) == 0);
}

static void expect_tag(int fd, const char *tag)
{
    expect(fd, 'C');
    CHECK_STR(m.body, tag);
}

static void send_parse(int fd, const char *name, const char *sql)
{
    RawBuf b = {.len = 0};
    rb_str(&b, name);
    rb_str(&b, sql);
    rb_i16(&b, 0);
    raw_send(fd, 'P', b.data, b.len);
}

/* Bind with no parameters or one text parameter (value NULL = none). */
static void send_bind(int fd, const char *portal, const char *stmt, const char *value)
{
    RawBuf b = {.len = 0};
    rb_str(&b, portal);
    rb_str(&b, stmt);
    rb_i16(&b, 0);
    rb_i16(&b, value ? 1 : 0);
    if (value) {
        rb_i32(&b, (int32_t)strlen(value));
        memcpy(b.data + b.len, value, strlen(value));
        b.len += strlen(value);
    }
    rb_i16(&b, 0);
    raw_send(fd, 'B', b.data, b.len);
}

static void send_describe(int fd, char kind, const char *name)
{
    RawBuf b = {.len = 0};
    b.data[b.len++] = kind;
    rb_str(&b, name);
    raw_send(fd, 'D', b.data, b.len);
}

static void send_execute(int fd, const char *portal, int max_rows)
{
    RawBuf b = {.len = 0};
    rb_str(&b, portal);
    rb_i32(&b, max_rows);
    raw_send(fd, 'E', b.data, b.len);
}

static void send_query(int fd, const char *sql)
{
    RawBuf b = {.len = 0};
    rb_str(&b, sql);
    raw_send(fd, 'Q', b.data, b.len);
}

static void cursor_portal(int fd)
{
    send_query(fd, "BEGIN; DECLARE c SCROLL CURSOR FOR SELECT g FROM generate_series(1,5) g");
    expect_tag(fd, "BEGIN");
    expect_tag(fd, "DECLARE CURSOR");
    expect(fd, 'Z');
    send_describe(fd, 'P', "c");
    send_execute(fd, "c", 2);
    send_execute(fd, "c", 0);
    send_execute(fd, "c", 0);
    raw_send(fd, 'S', NULL, 0);
    expect(fd, 'T');
    expect_row(fd, "1");
    expect_row(fd, "2");
    expect(fd, 's');
    expect_row(fd, "3");
    expect_row(fd, "4");
    expect_row(fd, "5");
    expect_tag(fd, "SELECT 3");
    expect_tag(fd, "SELECT 0");
    expect(fd, 'Z');
    CHECK(m.body[0] == 'T');
}

static void declare_with_parameter(int fd)
{
    send_parse(fd, "", "DECLARE d CURSOR FOR SELECT $1::int + g FROM generate_series(1,3) g");
    send_describe(fd, 'S', "");
    send_bind(fd, "", "", "10");
    send_describe(fd, 'P', "");
    send_execute(fd, "", 0);
    raw_send(fd, 'S', NULL, 0);
    expect(fd, '1');
    expect(fd, 't');
    CHECK(m.len == 6 && m.body[1] == 1 && m.body[5] == 23);   /* one parameter, int4 */
    expect(fd, 'n');
    expect(fd, '2');
    expect(fd, 'n');
    expect_tag(fd, "DECLARE CURSOR");
    expect(fd, 'Z');

    send_parse(fd, "f", "FETCH ALL FROM d");
    send_bind(fd, "fp", "f", NULL);
    send_describe(fd, 'P', "fp");
    send_execute(fd, "fp", 1);
    send_execute(fd, "fp", 0);
    raw_send(fd, 'S', NULL, 0);
    expect(fd, '1');
    expect(fd, '2');
    expect(fd, 'T');
    CHECK(m.len >= 2 && m.body[1] == 1);
    expect_row(fd, "11");
    expect(fd, 's');
    expect_row(fd, "12");
    expect_row(fd, "13");
    expect_tag(fd, "FETCH 2");
    expect(fd, 'Z');

    send_bind(fd, "", "f", NULL);
    send_execute(fd, "", 0);
    raw_send(fd, 'S', NULL, 0);
    expect(fd, '2');
    expect_tag(fd, "FETCH 0");
    expect(fd, 'Z');
}

static void close_all(int fd)
{
    send_parse(fd, "", "CLOSE ALL");
    send_bind(fd, "", "", NULL);
    send_describe(fd, 'P', "");
    send_execute(fd, "", 0);
    raw_send(fd, 'S', NULL, 0);
    expect(fd, '1');
    expect(fd, '2');
    expect(fd, 'n');
    expect_tag(fd, "CLOSE CURSOR ALL");
    expect(fd, 'Z');
    send_query(fd, "FETCH c");
    expect(fd, 'E');
    CHECK_STR(raw_error_field(&m, 'C'), "34000");
    expect(fd, 'Z');
    send_query(fd, "ROLLBACK");
    expect_tag(fd, "ROLLBACK");
    expect(fd, 'Z');
    CHECK(m.body[0] == 'I');
}

static void held_past_sync(int fd)
{
    send_parse(fd, "", "DECLARE h SCROLL CURSOR WITH HOLD FOR SELECT g FROM generate_series(1,3) g");
    send_bind(fd, "", "", NULL);
    send_execute(fd, "", 0);
    raw_send(fd, 'S', NULL, 0);
    expect(fd, '1');
    expect(fd, '2');
    expect_tag(fd, "DECLARE CURSOR");
    expect(fd, 'Z');
    CHECK(m.body[0] == 'I');
    send_query(fd, "FETCH LAST FROM h; FETCH BACKWARD 2 FROM h; CLOSE h");
    expect(fd, 'T');
    expect_row(fd, "3");
    expect_tag(fd, "FETCH 1");
    expect(fd, 'T');
    expect_row(fd, "2");
    expect_row(fd, "1");
    expect_tag(fd, "FETCH 2");
    expect_tag(fd, "CLOSE CURSOR");
    expect(fd, 'Z');
}

/* A FETCH bound before its cursor existed: NoData, and its rows are
 * counted but not sent (the portal has no columns), as PostgreSQL. */
static void bound_before_declare(int fd)
{
    send_query(fd, "BEGIN");
    expect_tag(fd, "BEGIN");
    expect(fd, 'Z');
    send_parse(fd, "late_f", "FETCH 2 FROM late");
    send_bind(fd, "late_p", "late_f", NULL);
    send_describe(fd, 'P', "late_p");
    raw_send(fd, 'S', NULL, 0);
    expect(fd, '1');
    expect(fd, '2');
    expect(fd, 'n');
    expect(fd, 'Z');
    send_query(fd, "DECLARE late CURSOR FOR SELECT g FROM generate_series(1,3) g");
    expect_tag(fd, "DECLARE CURSOR");
    expect(fd, 'Z');
    send_describe(fd, 'P', "late_p");
    send_execute(fd, "late_p", 0);
    raw_send(fd, 'S', NULL, 0);
    expect(fd, 'n');
    expect_tag(fd, "FETCH 2");
    expect(fd, 'Z');
    send_query(fd, "FETCH late; ROLLBACK");
    expect(fd, 'T');
    expect_row(fd, "3");
    expect_tag(fd, "FETCH 1");
    expect_tag(fd, "ROLLBACK");
    expect(fd, 'Z');
}

int main(void)
{
    TestServer s;
    ptest_start(&s, NULL, NULL);
    int fd = raw_connect(s.port);
    CHECK(fd >= 0 && raw_startup(fd, "postgres", "postgres") == 0);
    cursor_portal(fd);
    declare_with_parameter(fd);
    close_all(fd);
    held_past_sync(fd);
    bound_before_declare(fd);
    raw_send(fd, 'X', NULL, 0);
    CHECK(raw_expect_eof(fd, 2000));
    close(fd);
    return ptest_finish(&s, "protocol-cursor");
}
