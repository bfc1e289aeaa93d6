/*
 * slt_parse.c — read a sqllogictest file into records.
 *
 * Records are separated by blank lines; `#` lines between records are
 * comments. A record is a header line, then SQL lines up to a blank line or
 * a `----` line, then (queries) expected rows up to a blank line:
 *
 *   statement ok                      statement error [SQLSTATE | message]
 *   query <types> [nosort|rowsort|valuesort] [label]
 *   query error [SQLSTATE | message]  halt
 *
 * Expected rows hold values separated by tabs, or one value per line (the
 * SQLite form); both are flattened, so only the value sequence matters.
 */
#include "tests/slt/slt.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static char *xstrdup(const char *s)
{
    char *p = strdup(s);
    if (p == NULL) {
        fprintf(stderr, "slt: out of memory\n");
        exit(2);
    }
    return p;
}

static void *xrealloc(void *p, size_t size)
{
    void *q = realloc(p, size);
    if (q == NULL) {
        fprintf(stderr, "slt: out of memory\n");
        exit(2);
    }
    return q;
}

/* Read the whole file; NUL-terminated. NULL with errno on failure. */
static char *read_all(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (fp == NULL)
        return NULL;
    size_t cap = 65536, len = 0;
    char *buf = xrealloc(NULL, cap);
    size_t n;
    while ((n = fread(buf + len, 1, cap - len - 1, fp)) > 0) {
        len += n;
        if (cap - len - 1 == 0) {
            cap *= 2;
            buf = xrealloc(buf, cap);
        }
    }
    fclose(fp);
    buf[len] = '\0';
    return buf;
}

/* Cut text into lines in place (strips "\n" and a trailing "\r"). */
static void split_lines(SltFile *f)
{
    int cap = 256;
    f->lines = xrealloc(NULL, sizeof(char *) * (size_t)cap);
    char *p = f->text;
    while (*p != '\0') {
        if (f->nlines == cap) {
            cap *= 2;
            f->lines = xrealloc(f->lines, sizeof(char *) * (size_t)cap);
        }
        f->lines[f->nlines++] = p;
        char *nl = strchr(p, '\n');
        char *end = nl != NULL ? nl : p + strlen(p);
        if (end > p && end[-1] == '\r')
            end[-1] = '\0';
        if (nl == NULL)
            break;
        *nl = '\0';
        p = nl + 1;
    }
}

/* Records end at an empty line. A line of spaces is not empty: it can be a
 * char(n) value in an expected row. */
static int is_blank(const char *s)
{
    return *s == '\0';
}

/* Rest of the line after the first n words, trimmed; NULL when empty. */
static char *rest_after_words(const char *line, int n)
{
    const char *p = line;
    for (int i = 0; i < n; i++) {
        while (isspace((unsigned char)*p))
            p++;
        while (*p != '\0' && !isspace((unsigned char)*p))
            p++;
    }
    while (isspace((unsigned char)*p))
        p++;
    size_t len = strlen(p);
    while (len > 0 && isspace((unsigned char)p[len - 1]))
        len--;
    if (len == 0)
        return NULL;
    char *s = xstrdup(p);
    s[len] = '\0';
    return s;
}

/* The idx-th whitespace-separated word of line into buf ("" if none). */
static void word_at(const char *line, int idx, char *buf, size_t size)
{
    const char *p = line;
    buf[0] = '\0';
    for (int i = 0; i <= idx; i++) {
        while (isspace((unsigned char)*p))
            p++;
        const char *start = p;
        while (*p != '\0' && !isspace((unsigned char)*p))
            p++;
        if (i == idx) {
            size_t len = (size_t)(p - start);
            if (len >= size)
                len = size - 1;
            memcpy(buf, start, len);
            buf[len] = '\0';
        }
    }
}

static int parse_error(const SltFile *f, int line, const char *msg)
{
    fprintf(stderr, "%s:%d: %s\n", f->path, line + 1, msg);
    return -1;
}

/* Fill r's kind/types/sort/error from the header line. */
static int parse_header(const SltFile *f, int idx, SltRecord *r)
{
    const char *line = f->lines[idx];
    char w0[32], w1[SLT_TYPES_MAX + 8], w2[32];
    word_at(line, 0, w0, sizeof w0);
    word_at(line, 1, w1, sizeof w1);
    word_at(line, 2, w2, sizeof w2);
    r->line = idx + 1;
    if (strcmp(w0, "halt") == 0) {
        r->kind = SLT_HALT;
    } else if (strcmp(w0, "statement") == 0 && strcmp(w1, "ok") == 0) {
        r->kind = SLT_STATEMENT_OK;
    } else if ((strcmp(w0, "statement") == 0 || strcmp(w0, "query") == 0)
               && strcmp(w1, "error") == 0) {
        r->kind = SLT_STATEMENT_ERROR;
        r->error = rest_after_words(line, 2);
    } else if (strcmp(w0, "query") == 0 && w1[0] != '\0') {
        r->kind = SLT_QUERY;
        r->ncols = (int)strlen(w1);
        if (r->ncols > SLT_TYPES_MAX)
            return parse_error(f, idx, "too many columns in query types");
        memcpy(r->types, w1, (size_t)r->ncols + 1);
        if (w2[0] == '\0' || strcmp(w2, "nosort") == 0)
            r->sort = SLT_SORT_NONE;
        else if (strcmp(w2, "rowsort") == 0)
            r->sort = SLT_SORT_ROW;
        else if (strcmp(w2, "valuesort") == 0)
            r->sort = SLT_SORT_VALUE;
        else
            return parse_error(f, idx, "unknown sort mode (nosort, rowsort, valuesort)");
    } else {
        return parse_error(f, idx, "unknown record (statement ok|error, query, halt)");
    }
    return 0;
}

/* Append the tab-separated values of one expected line. */
static void add_expected_line(SltRecord *r, const char *line, int *cap)
{
    const char *p = line;
    for (;;) {
        const char *tab = strchr(p, '\t');
        size_t len = tab != NULL ? (size_t)(tab - p) : strlen(p);
        if (r->nexpected == *cap) {
            *cap = *cap == 0 ? 16 : *cap * 2;
            r->expected = xrealloc(r->expected, sizeof(char *) * (size_t)*cap);
        }
        char *v = xrealloc(NULL, len + 1);
        memcpy(v, p, len);
        v[len] = '\0';
        r->expected[r->nexpected++] = v;
        if (tab == NULL)
            break;
        p = tab + 1;
    }
}

/* Parse the SQL and result lines of r starting at *idx; leaves *idx after them. */
static int parse_body(const SltFile *f, int *idx, SltRecord *r)
{
    int i = *idx;
    size_t sql_len = 0;
    for (; i < f->nlines && !is_blank(f->lines[i]) && strcmp(f->lines[i], "----") != 0; i++) {
        size_t len = strlen(f->lines[i]);
        r->sql = xrealloc(r->sql, sql_len + len + 2);
        if (sql_len > 0)
            r->sql[sql_len++] = '\n';
        memcpy(r->sql + sql_len, f->lines[i], len + 1);
        sql_len += len;
    }
    if (r->sql == NULL)
        return parse_error(f, r->line - 1, "record without SQL");
    r->sql_end = r->result_begin = r->result_end = i;
    if (i < f->nlines && strcmp(f->lines[i], "----") == 0) {
        r->has_separator = 1;
        r->result_begin = ++i;
        int cap = 0;
        char *msg = NULL;
        for (; i < f->nlines && !is_blank(f->lines[i]); i++) {
            if (r->kind == SLT_QUERY)
                add_expected_line(r, f->lines[i], &cap);
            else if (r->kind == SLT_STATEMENT_ERROR && msg == NULL)
                msg = xstrdup(f->lines[i]); /* DuckDB form: message after ---- */
            else
                return parse_error(f, i, "unexpected line after ---- in a statement record");
        }
        if (msg != NULL) {
            free(r->error);
            r->error = msg;
        }
        r->result_end = i;
    }
    *idx = i;
    return 0;
}

int slt_file_load(SltFile *f, const char *path)
{
    memset(f, 0, sizeof *f);
    f->path = path;
    f->text = read_all(path);
    if (f->text == NULL) {
        fprintf(stderr, "slt: %s: %s\n", path, strerror(errno));
        return -1;
    }
    split_lines(f);
    int cap = 0;
    for (int i = 0; i < f->nlines;) {
        const char *line = f->lines[i];
        if (is_blank(line) || line[0] == '#') {
            i++;
            continue;
        }
        if (f->nrecords == cap) {
            cap = cap == 0 ? 64 : cap * 2;
            f->records = xrealloc(f->records, sizeof(SltRecord) * (size_t)cap);
        }
        SltRecord *r = &f->records[f->nrecords++];
        memset(r, 0, sizeof *r);
        if (parse_header(f, i, r) != 0)
            return -1;
        i++;
        if (r->kind == SLT_HALT)
            continue;
        if (parse_body(f, &i, r) != 0)
            return -1;
    }
    return 0;
}

void slt_file_free(SltFile *f)
{
    for (int i = 0; i < f->nrecords; i++) {
        SltRecord *r = &f->records[i];
        free(r->error);
        free(r->sql);
        for (int j = 0; j < r->nexpected; j++)
            free(r->expected[j]);
        free(r->expected);
    }
    free(f->records);
    free(f->lines);
    free(f->text);
    memset(f, 0, sizeof *f);
}
