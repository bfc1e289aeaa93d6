/*
 * slt.c — the sqllogictest runner: run .test files over libpq.
 *
 *   slt --server [--server-arg ARG]... [--extended] [-v] [--rewrite] FILE...
 *   slt --conninfo "host=... port=..." [--same-db] [--extended] [-v] [--rewrite] FILE...
 *
 * --server starts $STRATA_BIN through the test harness, one fresh server per
 * file. --conninfo runs against a server already running (PostgreSQL 15 to
 * prove that expected results are PostgreSQL's); each file then gets a fresh
 * database (CREATE DATABASE slt_<pid>_<n>, dropped afterwards) unless
 * --same-db. --rewrite replaces every query's expected block with what the
 * server returned (to capture results from PostgreSQL; review the diff).
 * --extended sends each single-statement record through the extended
 * protocol (Parse/Bind/Describe/Execute/Sync) instead of a simple Query, so
 * the same files test both paths of the server.
 *
 * Every failing record prints file:line, the SQL, expected and actual; the
 * run goes on and the exit status is 1 when anything failed, 2 on a usage or
 * file error or when the server cannot be reached.
 */
#include "tests/harness/harness.h"
#include "tests/slt/slt.h"

#include <libpq-fe.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { SLT_SERVER_ARGS_MAX = 32 };

typedef struct SltOptions {
    int use_server;
    const char *conninfo;
    int same_db;
    int verbose;
    int rewrite;
    int extended; /* run single statements through Parse/Bind/Execute */
    const char *server_args[SLT_SERVER_ARGS_MAX + 1];
} SltOptions;

/* Where one file runs: the connection and what to clean up afterwards. */
typedef struct SltTarget {
    PGconn *conn;
    TestServer server;
    int has_server;
    char dbname[64]; /* fresh database to drop, or "" */
} SltTarget;

static void notice_ignore(void *arg, const char *message)
{
    (void)arg;
    (void)message;
}

static PGconn *connect_to(const char *conninfo, const char *dbname)
{
    const char *keys[] = { "dbname", dbname != NULL ? "dbname" : NULL, NULL };
    const char *vals[] = { conninfo, dbname, NULL };
    PGconn *conn = PQconnectdbParams(keys, vals, 1);
    if (PQstatus(conn) != CONNECTION_OK) {
        fprintf(stderr, "slt: cannot connect (%s): %s", conninfo, PQerrorMessage(conn));
        PQfinish(conn);
        return NULL;
    }
    PQsetNoticeProcessor(conn, notice_ignore, NULL);
    return conn;
}

/* Run one utility command on a maintenance connection; 0 on success. */
static int admin_exec(const char *conninfo, const char *sql)
{
    PGconn *conn = connect_to(conninfo, NULL);
    if (conn == NULL)
        return -1;
    PGresult *res = PQexec(conn, sql);
    int ok = PQresultStatus(res) == PGRES_COMMAND_OK;
    if (!ok)
        fprintf(stderr, "slt: %s: %s", sql, PQresultErrorMessage(res));
    PQclear(res);
    PQfinish(conn);
    return ok ? 0 : -1;
}

/* A server the harness just started accepts TCP connections slightly before
 * it accepts sessions (PostgreSQL answers "the database system is starting
 * up"): retry for a while before giving up. */
static PGconn *connect_retry(const char *conninfo)
{
    for (int attempt = 0; attempt < 50; attempt++) {
        const char *keys[] = { "dbname", NULL };
        const char *vals[] = { conninfo, NULL };
        PGconn *conn = PQconnectdbParams(keys, vals, 1);
        if (PQstatus(conn) == CONNECTION_OK) {
            PQsetNoticeProcessor(conn, notice_ignore, NULL);
            return conn;
        }
        PQfinish(conn);
        usleep(100 * 1000);
    }
    return connect_to(conninfo, NULL); /* last try, reporting the error */
}

static int target_open(SltTarget *t, const SltOptions *o, int file_no)
{
    memset(t, 0, sizeof *t);
    char buf[256], sql[128];
    if (o->use_server) {
        if (harness_server_start(&t->server, NULL, o->server_args) != 0)
            return -1;
        t->has_server = 1;
        t->conn = connect_retry(harness_conninfo(&t->server, NULL, buf, sizeof buf));
        return t->conn != NULL ? 0 : -1;
    }
    if (o->same_db) {
        t->conn = connect_to(o->conninfo, NULL);
        return t->conn != NULL ? 0 : -1;
    }
    snprintf(t->dbname, sizeof t->dbname, "slt_%d_%d", (int)getpid(), file_no);
    snprintf(sql, sizeof sql, "CREATE DATABASE %s", t->dbname);
    if (admin_exec(o->conninfo, sql) != 0) {
        t->dbname[0] = '\0';
        return -1;
    }
    t->conn = connect_to(o->conninfo, t->dbname);
    return t->conn != NULL ? 0 : -1;
}

/* Close the connection, drop the fresh database, stop the server. -1 when
 * the server ended badly (crash, sanitizer report in its log). */
static int target_close(SltTarget *t, const SltOptions *o)
{
    if (t->conn != NULL)
        PQfinish(t->conn);
    t->conn = NULL;
    if (t->dbname[0] != '\0') {
        char sql[128];
        snprintf(sql, sizeof sql, "DROP DATABASE %s WITH (FORCE)", t->dbname);
        admin_exec(o->conninfo, sql);
    }
    if (t->has_server) {
        t->has_server = 0;
        return harness_server_stop_checked(&t->server);
    }
    return 0;
}

static void print_sql(const char *sql)
{
    fputs("    ", stdout);
    for (const char *p = sql; *p != '\0'; p++) {
        putchar(*p);
        if (*p == '\n')
            fputs("    ", stdout);
    }
    putchar('\n');
}

static void print_error_result(const PGresult *res)
{
    const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);
    const char *msg = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
    printf("ERROR %s: %s\n", state != NULL ? state : "(no SQLSTATE)",
           msg != NULL ? msg : PQresultErrorMessage(res));
}

static void fail_header(const SltFile *f, const SltRecord *r, const char *what)
{
    printf("%s:%d: FAIL: %s\n", f->path, r->line, what);
    print_sql(r->sql);
}

/* A bare 5-character code of digits and capitals with a digit: a SQLSTATE. */
static int looks_like_sqlstate(const char *s)
{
    int digits = 0;
    for (int i = 0; i < 5; i++) {
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'A' && s[i] <= 'Z')))
            return 0;
        digits += s[i] >= '0' && s[i] <= '9';
    }
    return s[5] == '\0' && digits > 0;
}

static int error_matches(const char *want, const PGresult *res)
{
    if (want == NULL)
        return 1;
    const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);
    if (looks_like_sqlstate(want))
        return state != NULL && strcmp(state, want) == 0;
    const char *msg = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY);
    return (msg != NULL && strstr(msg, want) != NULL)
        || strstr(PQresultErrorMessage(res), want) != NULL;
}

static int is_error(const PGresult *res)
{
    ExecStatusType st = PQresultStatus(res);
    return st == PGRES_FATAL_ERROR || st == PGRES_BAD_RESPONSE || st == PGRES_NONFATAL_ERROR;
}

/* 1 when sql holds one statement (a ';' only at its end). Approximate: a
 * ';' inside a literal also counts, which only means the simple protocol. */
static int is_single_statement(const char *sql)
{
    size_t len = strlen(sql);
    while (len > 0 && (sql[len - 1] == ';' || sql[len - 1] == ' ' || sql[len - 1] == '\n'))
        len--;
    const char *semi = memchr(sql, ';', len);
    return semi == NULL;
}

/* Run sql: the simple protocol, or with --extended the extended protocol
 * (PQexecParams: Parse/Bind/Describe/Execute/Sync, text results) when it
 * is a single statement (the extended protocol takes one at a time). */
static PGresult *exec_sql(PGconn *conn, const char *sql, const SltOptions *o)
{
    if (o->extended && is_single_statement(sql))
        return PQexecParams(conn, sql, 0, NULL, NULL, NULL, NULL, 0);
    return PQexec(conn, sql);
}

static int run_statement(const SltFile *f, const SltRecord *r, PGconn *conn, const SltOptions *o)
{
    PGresult *res = exec_sql(conn, r->sql, o);
    int failed = 0;
    if (r->kind == SLT_STATEMENT_OK && is_error(res)) {
        fail_header(f, r, "statement ok failed");
        fputs("  got: ", stdout);
        print_error_result(res);
        failed = 1;
    } else if (r->kind == SLT_STATEMENT_ERROR && !is_error(res)) {
        fail_header(f, r, "statement error succeeded");
        printf("  expected error: %s\n", r->error != NULL ? r->error : "(any)");
        failed = 1;
    } else if (r->kind == SLT_STATEMENT_ERROR && !error_matches(r->error, res)) {
        fail_header(f, r, "wrong error");
        printf("  expected error: %s\n  got: ", r->error);
        print_error_result(res);
        failed = 1;
    }
    PQclear(res);
    return failed;
}

/* Run a query record; on success with --rewrite, *actual keeps the values. */
static int run_query(const SltFile *f, const SltRecord *r, PGconn *conn, const SltOptions *o,
                     SltValues *actual)
{
    static const char *const sort_names[] = { "nosort", "rowsort", "valuesort" };
    PGresult *res = exec_sql(conn, r->sql, o);
    if (PQresultStatus(res) != PGRES_TUPLES_OK) {
        fail_header(f, r, "query did not return rows");
        fputs("  got: ", stdout);
        if (is_error(res))
            print_error_result(res);
        else
            printf("%s\n", PQresStatus(PQresultStatus(res)));
        PQclear(res);
        return 1;
    }
    slt_values_from_result(actual, res);
    PQclear(res);
    slt_values_sort(actual, r->sort);
    if (actual->ncols != r->ncols) {
        fail_header(f, r, "wrong number of columns");
        printf("  expected %d (%s), got %d\n", r->ncols, r->types, actual->ncols);
        return 1;
    }
    SltValues want;
    slt_values_from_expected(&want, r);
    slt_values_sort(&want, r->sort);
    int failed = !slt_values_equal(&want, actual);
    if (failed) {
        fail_header(f, r, "wrong result");
        printf("  expected (%s):\n", sort_names[r->sort]);
        slt_values_print(stdout, &want, "    ");
        printf("  actual:\n");
        slt_values_print(stdout, actual, "    ");
    }
    slt_values_free(&want);
    return failed;
}

/* Write path with every query block replaced by its actual values. */
static int rewrite_file(const SltFile *f, const SltValues *actual, const int *has_actual)
{
    char tmp[1024];
    snprintf(tmp, sizeof tmp, "%s.new", f->path);
    FILE *out = fopen(tmp, "w");
    if (out == NULL) {
        perror(tmp);
        return -1;
    }
    int line = 0;
    for (int i = 0; i < f->nrecords; i++) {
        const SltRecord *r = &f->records[i];
        if (!has_actual[i])
            continue;
        for (; line < r->sql_end; line++)
            fprintf(out, "%s\n", f->lines[line]);
        fputs("----\n", out);
        slt_values_print(out, &actual[i], "");
        line = r->result_end;
    }
    for (; line < f->nlines; line++)
        fprintf(out, "%s\n", f->lines[line]);
    fclose(out);
    if (rename(tmp, f->path) != 0) {
        perror(f->path);
        return -1;
    }
    return 0;
}

/* Run every record of f on conn; returns the number of failures. */
static int run_records(const SltFile *f, PGconn *conn, const SltOptions *o, SltValues *actual,
                       int *has_actual)
{
    int failures = 0;
    for (int i = 0; i < f->nrecords; i++) {
        const SltRecord *r = &f->records[i];
        if (r->kind == SLT_HALT)
            break;
        if (o->verbose)
            printf("%s:%d\n", f->path, r->line);
        int failed;
        if (r->kind == SLT_QUERY) {
            failed = run_query(f, r, conn, o, &actual[i]);
            has_actual[i] = !failed || actual[i].ncols == r->ncols;
            if (!has_actual[i])
                slt_values_free(&actual[i]);
        } else {
            failed = run_statement(f, r, conn, o);
        }
        failures += failed;
        if (failed && PQstatus(conn) != CONNECTION_OK) {
            printf("%s:%d: connection lost, abandoning the file: %s", f->path, r->line,
                   PQerrorMessage(conn));
            return failures + 1;
        }
    }
    return failures;
}

/* Run one file in its own server or database. Failures, or -1 if it could not run. */
static int run_file(const char *path, const SltOptions *o, int file_no)
{
    SltFile f;
    if (slt_file_load(&f, path) != 0) {
        slt_file_free(&f);
        return -1;
    }
    SltTarget t;
    if (target_open(&t, o, file_no) != 0) {
        target_close(&t, o);
        slt_file_free(&f);
        return -1;
    }
    SltValues *actual = calloc((size_t)f.nrecords + 1, sizeof(SltValues));
    int *has_actual = calloc((size_t)f.nrecords + 1, sizeof(int));
    if (actual == NULL || has_actual == NULL) {
        fprintf(stderr, "slt: out of memory\n");
        exit(2);
    }
    int failures = run_records(&f, t.conn, o, actual, has_actual);
    if (target_close(&t, o) != 0) {
        printf("%s: the server did not end cleanly (see its log above)\n", path);
        failures++;
    }
    if (o->rewrite && rewrite_file(&f, actual, has_actual) != 0)
        failures++;
    printf("%s: %d records, %d failed\n", path, f.nrecords, failures);
    for (int i = 0; i < f.nrecords; i++)
        slt_values_free(&actual[i]);
    free(actual);
    free(has_actual);
    slt_file_free(&f);
    return failures;
}

static int usage(void)
{
    fprintf(stderr,
            "usage: slt --server [--server-arg ARG]... [--extended] [-v] [--rewrite] FILE...\n"
            "       slt --conninfo CONNINFO [--same-db] [--extended] [-v] [--rewrite] FILE...\n");
    return 2;
}

/* Parse options; returns the index of the first file, or -1. */
static int parse_args(int argc, char **argv, SltOptions *o)
{
    int nserver = 0, i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "--server") == 0)
            o->use_server = 1;
        else if (strcmp(argv[i], "--conninfo") == 0 && i + 1 < argc)
            o->conninfo = argv[++i];
        else if (strcmp(argv[i], "--server-arg") == 0 && i + 1 < argc
                 && nserver < SLT_SERVER_ARGS_MAX)
            o->server_args[nserver++] = argv[++i];
        else if (strcmp(argv[i], "--same-db") == 0)
            o->same_db = 1;
        else if (strcmp(argv[i], "--rewrite") == 0)
            o->rewrite = 1;
        else if (strcmp(argv[i], "--extended") == 0)
            o->extended = 1;
        else if (strcmp(argv[i], "-v") == 0)
            o->verbose = 1;
        else
            return -1;
    }
    o->server_args[nserver] = NULL;
    if (i >= argc || o->use_server == (o->conninfo != NULL))
        return -1;
    return i;
}

int main(int argc, char **argv)
{
    SltOptions o;
    memset(&o, 0, sizeof o);
    int first = parse_args(argc, argv, &o);
    if (first < 0)
        return usage();
    setvbuf(stdout, NULL, _IOLBF, 0);
    int total = 0, broken = 0;
    for (int i = first; i < argc; i++) {
        int failures = run_file(argv[i], &o, i);
        if (failures < 0)
            broken++;
        else
            total += failures;
    }
    if (argc - first > 1)
        printf("total: %d files, %d failed records, %d files could not run\n", argc - first,
               total, broken);
    return broken > 0 ? 2 : total > 0 ? 1 : 0;
}
