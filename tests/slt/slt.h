/*
 * slt.h — internal header of the sqllogictest runner (tests/slt/).
 *
 * The runner reads a .test file into records (slt_parse.c), runs each record
 * over libpq and compares what the server sent as text (slt_compare.c), and
 * drives files, servers and databases (slt.c). See tests/README.md for the
 * file format.
 */
#ifndef STRATA_TESTS_SLT_H
#define STRATA_TESTS_SLT_H

#include <stdio.h>

enum {
    SLT_TYPES_MAX = 64, /* columns of one query record */
};

typedef enum SltKind {
    SLT_STATEMENT_OK,
    SLT_STATEMENT_ERROR, /* also `query error` */
    SLT_QUERY,
    SLT_HALT,
} SltKind;

typedef enum SltSort {
    SLT_SORT_NONE,  /* nosort: rows in the order the server sent them */
    SLT_SORT_ROW,   /* rowsort: rows sorted bytewise, column by column */
    SLT_SORT_VALUE, /* valuesort: every value sorted on its own */
} SltSort;

/* One record of a .test file. Strings are malloc'd and owned by the record. */
typedef struct SltRecord {
    SltKind kind;
    int line;                /* 1-based line of the header */
    SltSort sort;
    int ncols;               /* query: number of type letters */
    char types[SLT_TYPES_MAX + 1];
    char *error;             /* statement error: SQLSTATE or message substring, or NULL */
    char *sql;               /* the statement text, lines joined by '\n' */
    char **expected;         /* query: expected values, flattened row-major */
    int nexpected;
    /* Line indexes (0-based) into the file, for --rewrite: the query's result
     * block is lines [result_begin, result_end); has_separator says whether
     * a `----` line precedes it. */
    int sql_end;
    int result_begin;
    int result_end;
    int has_separator;
} SltRecord;

/* A parsed file: its lines (for --rewrite) and its records. */
typedef struct SltFile {
    const char *path;
    char *text;   /* the file's bytes, cut into lines in place */
    char **lines;
    int nlines;
    SltRecord *records;
    int nrecords;
} SltFile;

/* Read and parse path. 0 on success; -1 with a message (file:line) on stderr. */
int slt_file_load(SltFile *f, const char *path);
/* Free everything slt_file_load allocated. */
void slt_file_free(SltFile *f);

/* A result's values as the runner prints them: NULL → "NULL", "" → "(empty)",
 * tab/newline/backslash escaped as \t \n \\ so one row stays one line. */
typedef struct SltValues {
    char **v;   /* row-major, malloc'd strings */
    int count;
    int ncols;
} SltValues;

/* Copy the values of a PGresult (declared void * to keep libpq out of this header). */
void slt_values_from_result(SltValues *out, const void *pgresult);
/* Copy (strdup) the expected values of a record. */
void slt_values_from_expected(SltValues *out, const SltRecord *r);
/* Sort per mode (rows need count % ncols == 0, else left as is). */
void slt_values_sort(SltValues *vals, SltSort sort);
/* 1 when both hold the same values in the same order. */
int slt_values_equal(const SltValues *a, const SltValues *b);
/* Print as tab-separated rows, each line prefixed with indent. */
void slt_values_print(FILE *out, const SltValues *vals, const char *indent);
void slt_values_free(SltValues *vals);

#endif
