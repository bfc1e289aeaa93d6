/*
 * slt_compare.c — turn query results into comparable value lists.
 *
 * Values are compared as the text the server sent (text result format), so
 * expected results copied from PostgreSQL 15 match byte for byte. NULL is
 * shown as "NULL" and the empty string as "(empty)"; tab, newline and
 * backslash are escaped (\t \n \\) so one row stays one tab-separated line.
 * Sorting is bytewise (strcmp), the same for expected and actual values.
 */
#include "tests/slt/slt.h"

#include <libpq-fe.h>
#include <stdlib.h>
#include <string.h>

static void *xmalloc(size_t size)
{
    void *p = malloc(size == 0 ? 1 : size);
    if (p == NULL) {
        fprintf(stderr, "slt: out of memory\n");
        exit(2);
    }
    return p;
}

/* The printable form of one value (see the file comment). */
static char *format_value(const char *s, int is_null)
{
    if (is_null)
        return strcpy(xmalloc(5), "NULL");
    if (s[0] == '\0')
        return strcpy(xmalloc(8), "(empty)");
    size_t len = strlen(s);
    char *out = xmalloc(len * 2 + 1);
    char *o = out;
    for (const char *p = s; *p != '\0'; p++) {
        if (*p == '\t' || *p == '\n' || *p == '\\') {
            *o++ = '\\';
            *o++ = *p == '\t' ? 't' : *p == '\n' ? 'n' : '\\';
        } else {
            *o++ = *p;
        }
    }
    *o = '\0';
    return out;
}

void slt_values_from_result(SltValues *out, const void *pgresult)
{
    const PGresult *res = pgresult;
    int nrows = PQntuples(res);
    out->ncols = PQnfields(res);
    out->count = nrows * out->ncols;
    out->v = xmalloc(sizeof(char *) * (size_t)out->count);
    for (int r = 0; r < nrows; r++)
        for (int c = 0; c < out->ncols; c++)
            out->v[r * out->ncols + c] = format_value(PQgetvalue(res, r, c), PQgetisnull(res, r, c));
}

void slt_values_from_expected(SltValues *out, const SltRecord *r)
{
    out->ncols = r->ncols;
    out->count = r->nexpected;
    out->v = xmalloc(sizeof(char *) * (size_t)out->count);
    for (int i = 0; i < out->count; i++)
        out->v[i] = strcpy(xmalloc(strlen(r->expected[i]) + 1), r->expected[i]);
}

static int cmp_value(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* qsort has no context argument: rows are sorted as arrays of pointers to
 * their first value, and the column count travels in this file-level
 * variable (the runner is single-threaded). */
static int sort_ncols;

static int cmp_row(const void *a, const void *b)
{
    char *const *ra = *(char **const *)a;
    char *const *rb = *(char **const *)b;
    for (int c = 0; c < sort_ncols; c++) {
        int d = strcmp(ra[c], rb[c]);
        if (d != 0)
            return d;
    }
    return 0;
}

static void sort_rows(SltValues *vals)
{
    int nrows = vals->count / vals->ncols;
    char ***rows = xmalloc(sizeof(char **) * (size_t)nrows);
    for (int r = 0; r < nrows; r++)
        rows[r] = vals->v + r * vals->ncols;
    sort_ncols = vals->ncols;
    qsort(rows, (size_t)nrows, sizeof(char **), cmp_row);
    char **sorted = xmalloc(sizeof(char *) * (size_t)vals->count);
    for (int r = 0; r < nrows; r++)
        memcpy(sorted + r * vals->ncols, rows[r], sizeof(char *) * (size_t)vals->ncols);
    free(rows);
    free(vals->v);
    vals->v = sorted;
}

void slt_values_sort(SltValues *vals, SltSort sort)
{
    if (sort == SLT_SORT_VALUE)
        qsort(vals->v, (size_t)vals->count, sizeof(char *), cmp_value);
    else if (sort == SLT_SORT_ROW && vals->ncols > 0 && vals->count % vals->ncols == 0)
        sort_rows(vals);
}

int slt_values_equal(const SltValues *a, const SltValues *b)
{
    if (a->count != b->count)
        return 0;
    for (int i = 0; i < a->count; i++)
        if (strcmp(a->v[i], b->v[i]) != 0)
            return 0;
    return 1;
}

void slt_values_print(FILE *out, const SltValues *vals, const char *indent)
{
    int ncols = vals->ncols > 0 ? vals->ncols : 1;
    for (int i = 0; i < vals->count; i++) {
        if (i % ncols == 0)
            fputs(indent, out);
        fputs(vals->v[i], out);
        fputc(i % ncols == ncols - 1 || i == vals->count - 1 ? '\n' : '\t', out);
    }
}

void slt_values_free(SltValues *vals)
{
    for (int i = 0; i < vals->count; i++)
        free(vals->v[i]);
    free(vals->v);
    vals->v = NULL;
    vals->count = 0;
}
