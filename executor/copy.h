/*
 * copy.h — COPY's data path in the executor: parsing text/CSV input into
 * batches that are bulk-loaded into a table (COPY FROM), and formatting
 * result batches as text/CSV lines (COPY TO).
 *
 * The protocol layer (protocol/copy.c) owns the statement: it reads the
 * CopyStmt's options into ExecCopyOpts, resolves the table and column list,
 * moves CopyData messages (or a server file) in and out, and plans
 * COPY (query) / COPY t TO as a SELECT. This module never sees the wire.
 *
 * Input is consumed in chunks of any size (a row may span chunks); complete
 * records are split into fields and kept raw until VEC_CAPACITY rows are
 * pending, then each column is converted with type_input and the batch is
 * appended with store_table_bulk_load. Memory: one arena per COPY, reset
 * after every batch.
 */
#ifndef STRATA_EXECUTOR_COPY_H
#define STRATA_EXECUTOR_COPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "common/arena.h"
#include "common/strbuf.h"
#include "common/typio.h"
#include "common/vector.h"

typedef struct ExecSession ExecSession;   /* executor/executor.h */
typedef struct StoreTable StoreTable;     /* storage/storage.h */
typedef struct ExecCopyIn ExecCopyIn;

/* The options of one COPY, already validated (PostgreSQL 15's defaults:
 * text: delimiter tab, null "\N"; csv: delimiter ',', null "", quote and
 * escape '"'). The per-column arrays (NULL = none) follow the COPY's
 * column list order. */
typedef struct ExecCopyOpts {
    bool csv;
    bool header;               /* first line is a header (skipped / written) */
    bool header_match;         /* HEADER MATCH: input header names are checked */
    char delim;
    char quote, escape;        /* CSV only */
    const char *null_str;      /* NUL-terminated */
    size_t null_len;
    bool force_quote_all;      /* FORCE_QUOTE * */
    const bool *force_quote;   /* COPY TO, CSV */
    const bool *force_not_null;/* COPY FROM, CSV */
    const bool *force_null;    /* COPY FROM, CSV */
} ExecCopyOpts;

/*
 * Start loading into table t: ncols input columns, cols[i] the table
 * column index of the i-th input field. Table columns not listed get
 * fill[j] (fill may be NULL: NULL values). relname names the table in
 * error context lines. Checks the session's transaction state (25P02 in a
 * failed block) and joins or starts its transaction, as a portal does.
 * Everything lives in a private arena until exec_copy_in_end/abort.
 */
ExecCopyIn *exec_copy_in_begin(ExecSession *s, StoreTable *t, int ncols, const int *cols,
                               const Value *fill, const ExecCopyOpts *opts, const char *relname);
/* Feed len bytes of input (any split). Raises on bad data (22P02, 22P04 ...):
 * exec_copy_in_context then describes where. */
void exec_copy_in_data(ExecCopyIn *ci, const char *data, size_t len);
/* End of input: the last record may lack its newline. Loads what is
 * pending and returns the number of rows loaded. Does not free. */
uint64_t exec_copy_in_finish(ExecCopyIn *ci);
/* Free everything (after finish, or after an error). Idempotent on NULL. */
void exec_copy_in_free(ExecCopyIn *ci);
/*
 * PostgreSQL's CONTEXT line for the error just raised inside this COPY:
 * `COPY t, line 3, column b: "x"` (conversion), `COPY t, line 3: "..."`
 * (record syntax) or `COPY t, line 3` (load). Empty when unknown.
 */
void exec_copy_in_context(const ExecCopyIn *ci, char *buf, size_t size);
/* The error about to be raised (CopyFail) concerns the line being read:
 * its context is `COPY t, line N` (N >= 1), as PostgreSQL's. NULL: no-op. */
void exec_copy_in_mark_line(ExecCopyIn *ci);

/*
 * Append the text of every active row of batch as COPY TO lines (each
 * ending in '\n') to out; row_end[i] receives the offset in out just past
 * row i (so a caller can frame one message per row); row_end may be NULL.
 * Strings are formatted in arena (the caller resets it per batch).
 */
void exec_copy_format_batch(const Batch *batch, const ExecCopyOpts *opts,
                            const OutputOptions *oo, MemArena *arena, StrBuf *out,
                            size_t *row_end);
/* The header line (column names, quoted in CSV as needed) with '\n'. */
void exec_copy_format_header(int ncols, const char *const *names, const ExecCopyOpts *opts,
                             StrBuf *out);

#endif
