/*
 * copy_in.c — COPY FROM's data path: records of text or CSV input are split
 * into raw fields, VEC_CAPACITY rows at a time, then converted column by
 * column (type_input) into a batch of the table's columns and appended
 * with store_table_bulk_load — for a table with a primary key through
 * copy_cluster.c, which buffers a segment of batches and appends it sorted
 * by the key. See executor/copy.h for the contract and PostgreSQL's
 * copyfromparse.c for the formats this follows.
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/copy.h"

#include <stdio.h>
#include <string.h>
#include "common/error.h"
#include "executor/copy_cluster.h"
#include "executor/exec_int.h"
#include "storage/storage.h"

/* Phase of the work when an error is raised, for the context line. */
typedef enum CopyPhase { PH_NONE, PH_RECORD, PH_CONVERT, PH_LOAD } CopyPhase;

#define COPY_PRINT_MAX 100   /* PostgreSQL's MAX_COPY_DATA_DISPLAY */

struct ExecCopyIn {
    ExecSession *s;
    StoreTable *t;
    const char *relname;
    int ncols;                /* input fields per record */
    int *cols;                /* table column of each field */
    int *field_of;            /* per table column: field index or -1 */
    int tcols;
    const Value *fill;
    ExecCopyOpts o;
    MemArena *arena;          /* the COPY's lifetime */
    MemArena *batch_arena;    /* raw fields (and converted strings); reset per batch */
    MemArena *value_arena;    /* converted strings: batch_arena, or the cluster segment's */
    ExecCopyCluster *cluster; /* NULL: no primary key, each batch goes straight to the store */
    StrBuf pending;           /* input bytes not yet consumed */
    StrBuf field;             /* scratch: one de-escaped field */
    Batch *batch;
    StrRef *raw;              /* VEC_CAPACITY * ncols; ptr NULL = SQL NULL */
    uint64_t *line_of;        /* line number of each pending row */
    uint32_t nrows;
    uint64_t line;            /* lines started so far */
    uint64_t total;
    bool header_done, ended;
    /* error context */
    CopyPhase phase;
    uint64_t err_line;
    int err_field;
    StrRef err_text;
};

ExecCopyIn *exec_copy_in_begin(ExecSession *s, StoreTable *t, int ncols, const int *cols,
                               const Value *fill, const ExecCopyOpts *opts, const char *relname)
{
    if (s->failed)
        err_raise(ERRCODE_IN_FAILED_SQL_TRANSACTION,
                  "current transaction is aborted, commands ignored until end of transaction block");
    exec__txn_ensure(s);
    store_txn_statement_begin(s->txn);   /* a statement, as a portal's */
    MemArena *a = mem_arena_create("copy from");
    ExecCopyIn *ci = MEM_NEW(a, ExecCopyIn);
    ci->arena = a;
    ci->batch_arena = mem_arena_create("copy batch");
    ci->s = s;
    ci->t = t;
    ci->relname = mem_strdup(a, relname);
    ci->ncols = ncols;
    ci->cols = MEM_NEW_ARRAY(a, int, ncols > 0 ? ncols : 1);
    memcpy(ci->cols, cols, sizeof(int) * (size_t)ncols);
    ci->tcols = store_table_ncols(t);
    ci->field_of = MEM_NEW_ARRAY(a, int, ci->tcols);
    for (int j = 0; j < ci->tcols; j++)
        ci->field_of[j] = -1;
    for (int i = 0; i < ncols; i++)
        ci->field_of[cols[i]] = i;
    ci->fill = fill;
    ci->o = *opts;
    SqlType *types = MEM_NEW_ARRAY(a, SqlType, ci->tcols);
    for (int j = 0; j < ci->tcols; j++)
        types[j] = store_table_column(t, j)->type;
    ci->batch = batch_create(a, ci->tcols, types);
    ci->raw = MEM_NEW_ARRAY(a, StrRef, (size_t)VEC_CAPACITY * (size_t)(ncols > 0 ? ncols : 1));
    ci->line_of = MEM_NEW_ARRAY(a, uint64_t, VEC_CAPACITY);
    ci->cluster = exec__cluster_create(t, a);
    ci->value_arena = ci->batch_arena;
    strbuf_init(&ci->pending);
    strbuf_init(&ci->field);
    return ci;
}

void exec_copy_in_free(ExecCopyIn *ci)
{
    if (ci == NULL)
        return;
    strbuf_free(&ci->pending);
    strbuf_free(&ci->field);
    exec__cluster_destroy(ci->cluster);
    mem_arena_destroy(ci->batch_arena);
    mem_arena_destroy(ci->arena);
}

/* ---------- conversion and load ---------- */

static void convert_column(ExecCopyIn *ci, int j)
{
    Vector *v = &ci->batch->cols[j];
    vec_set_all_valid(v);
    int f = ci->field_of[j];
    if (f < 0) {
        Value null_value = {.is_null = true};
        const Value *val = ci->fill ? &ci->fill[j] : &null_value;
        for (uint32_t r = 0; r < ci->nrows; r++)
            vec_set_value(v, r, val);
        return;
    }
    SqlType type = v->type;
    ci->err_field = f;
    for (uint32_t r = 0; r < ci->nrows; r++) {
        StrRef raw = ci->raw[(size_t)r * (size_t)ci->ncols + (size_t)f];
        if (raw.ptr == NULL) {
            vec_set_null(v, r);
            continue;
        }
        ci->err_line = ci->line_of[r];
        ci->err_text = raw;
        Value val;
        type_input(type, raw.ptr, raw.len, ci->value_arena, &val);
        vec_set_value(v, r, &val);
    }
}

/* Append the cluster segment (PH_LOAD: a store error names its row's line). */
static void flush_segment(ExecCopyIn *ci, bool sort)
{
    ci->phase = PH_LOAD;
    ci->err_line = 0;
    exec__cluster_flush(ci->cluster, ci->s->txn, sort, &ci->err_line);
    ci->phase = PH_NONE;
}

/*
 * A record or conversion error was raised while earlier batches wait in
 * the cluster segment. Without the segment those batches would have been
 * stored already, so a duplicate key or NULL among them would have been
 * raised first (PostgreSQL also stores rows as it reads them): append them
 * in file order — that raises such an error with its line — and re-raise
 * the error when it does not.
 */
static _Noreturn void raise_after_segment(ExecCopyIn *ci)
{
    ErrorData saved = *err_current();
    CopyPhase phase = ci->phase;
    bool parse = phase == PH_RECORD || phase == PH_CONVERT;
    if (ci->cluster && parse && strcmp(saved.sqlstate, ERRCODE_QUERY_CANCELED) != 0) {
        uint64_t line = ci->err_line;
        int field = ci->err_field;
        StrRef text = ci->err_text;
        flush_segment(ci, false);
        ci->phase = phase;
        ci->err_line = line;
        ci->err_field = field;
        ci->err_text = text;
    }
    ErrorData *e = err_begin(saved.sqlstate);
    *e = saved;
    err_throw();
}

static void flush_rows(ExecCopyIn *ci)
{
    if (ci->nrows == 0)
        return;
    if (ci->cluster) {
        /* converted straight into the segment's next batch */
        ci->batch = exec__cluster_next_batch(ci->cluster);
        ci->value_arena = exec__cluster_arena(ci->cluster);
    }
    ci->phase = PH_CONVERT;
    for (int j = 0; j < ci->tcols; j++)
        convert_column(ci, j);
    ci->batch->count = ci->nrows;
    ci->batch->sel = NULL;
    if (ci->cluster) {
        if (exec__cluster_add(ci->cluster, ci->line_of))
            flush_segment(ci, true);
    } else {
        ci->phase = PH_LOAD;
        ci->err_line = 0;
        exec__copy_load_batch(ci->t, ci->s->txn, ci->batch, ci->line_of, &ci->err_line);
    }
    ci->phase = PH_NONE;
    ci->total += ci->nrows;
    ci->nrows = 0;
    mem_arena_reset(ci->batch_arena);
}

/* ---------- record splitting ---------- */

static StrRef keep_field(ExecCopyIn *ci)
{
    return (StrRef){mem_strndup(ci->batch_arena, ci->field.data ? ci->field.data : "", ci->field.len),
                    (uint32_t)ci->field.len};
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* De-escape one text-format field [p, e) into ci->field. */
static void text_unescape(ExecCopyIn *ci, const char *p, const char *e)
{
    strbuf_reset(&ci->field);
    while (p < e) {
        const char *bs = memchr(p, '\\', (size_t)(e - p));
        if (bs == NULL) {
            strbuf_append(&ci->field, p, (size_t)(e - p));
            return;
        }
        strbuf_append(&ci->field, p, (size_t)(bs - p));
        p = bs + 1;
        if (p >= e) {
            strbuf_append_char(&ci->field, '\\');
            return;
        }
        char c = *p++;
        switch (c) {
        case 'b': c = '\b'; break;
        case 'f': c = '\f'; break;
        case 'n': c = '\n'; break;
        case 'r': c = '\r'; break;
        case 't': c = '\t'; break;
        case 'v': c = '\v'; break;
        case 'x':
            if (p < e && hexval(*p) >= 0) {
                int v = hexval(*p++);
                if (p < e && hexval(*p) >= 0)
                    v = v * 16 + hexval(*p++);
                c = (char)v;
            }
            break;
        default:
            if (c >= '0' && c <= '7') {
                int v = c - '0';
                for (int k = 0; k < 2 && p < e && *p >= '0' && *p <= '7'; k++)
                    v = v * 8 + (*p++ - '0');
                c = (char)v;
            }
            break;
        }
        strbuf_append_char(&ci->field, c);
    }
}

/* Remember the record for the context line of the error about to be raised. */
static void record_ctx(ExecCopyIn *ci, const char *line, size_t len)
{
    ci->phase = PH_RECORD;
    ci->err_line = ci->line;
    ci->err_text = (StrRef){line, (uint32_t)len};
}

static StrRef *row_slot(ExecCopyIn *ci)
{
    return &ci->raw[(size_t)ci->nrows * (size_t)ci->ncols];
}

static void check_count(ExecCopyIn *ci, int nf, const char *line, size_t len)
{
    if (nf > ci->ncols) {
        record_ctx(ci, line, len);
        err_raise(ERRCODE_BAD_COPY_FILE_FORMAT, "extra data after last expected column");
    }
    if (nf < ci->ncols) {
        record_ctx(ci, line, len);
        err_raise(ERRCODE_BAD_COPY_FILE_FORMAT, "missing data for column \"%s\"",
                  store_table_column(ci->t, ci->cols[nf])->name);
    }
}

/* One text-format line (no newline) into the pending rows. */
static void text_record(ExecCopyIn *ci, const char *line, size_t len)
{
    StrRef *slot = row_slot(ci);
    const char *p = line, *end = line + len;
    int nf = 0;
    for (;;) {
        const char *q = p;
        while (q < end && *q != ci->o.delim) {
            if (*q == '\\' && q + 1 < end)
                q++;
            q++;
        }
        if (q > end)
            q = end;
        if (nf >= ci->ncols)
            check_count(ci, nf + 1, line, len);
        if ((size_t)(q - p) == ci->o.null_len && memcmp(p, ci->o.null_str, ci->o.null_len) == 0) {
            slot[nf] = (StrRef){NULL, 0};
        } else if (memchr(p, '\\', (size_t)(q - p)) == NULL) {
            slot[nf] = (StrRef){mem_strndup(ci->batch_arena, p, (size_t)(q - p)), (uint32_t)(q - p)};
        } else {
            text_unescape(ci, p, q);
            slot[nf] = keep_field(ci);
        }
        nf++;
        if (q >= end)
            break;
        p = q + 1;
    }
    if (ci->ncols == 0 && len == 0)
        nf = 0;
    check_count(ci, nf, line, len);
}

/*
 * One CSV record starting at buf (len bytes available). Returns the bytes
 * consumed including the newline, or 0 when the record is incomplete and
 * more input may come (final: the input ended, so it is complete).
 */
static size_t csv_record(ExecCopyIn *ci, const char *buf, size_t len, bool final)
{
    const ExecCopyOpts *o = &ci->o;
    StrRef *slot = row_slot(ci);
    size_t i = 0;
    int nf = 0;
    bool done = false;
    while (!done) {
        strbuf_reset(&ci->field);
        bool in_quote = false, quoted = false;
        for (;;) {
            if (i >= len) {
                if (!final)
                    return 0;
                if (in_quote) {
                    record_ctx(ci, buf, len);
                    err_raise(ERRCODE_BAD_COPY_FILE_FORMAT, "unterminated CSV quoted field");
                }
                done = true;
                break;
            }
            char c = buf[i];
            if (in_quote) {
                if (c == o->escape && i + 1 < len && (buf[i + 1] == o->quote || (o->escape != o->quote && buf[i + 1] == o->escape))) {
                    strbuf_append_char(&ci->field, buf[i + 1]);
                    i += 2;
                    continue;
                }
                if (c == o->escape && o->escape == o->quote && i + 1 >= len && !final)
                    return 0;   /* a doubled quote may be split across chunks */
                if (c == o->quote) {
                    in_quote = false;
                    i++;
                    continue;
                }
                strbuf_append_char(&ci->field, c);   /* lines count records, as PostgreSQL */
                i++;
                continue;
            }
            if (c == o->delim) {
                i++;
                break;
            }
            if (c == '\n' || c == '\r') {
                i += (c == '\r' && i + 1 < len && buf[i + 1] == '\n') ? 2 : 1;
                if (c == '\r' && i >= len && !final)
                    return 0;
                done = true;
                break;
            }
            if (c == o->quote) {
                in_quote = quoted = true;
                i++;
                continue;
            }
            strbuf_append_char(&ci->field, c);
            i++;
        }
        if (nf >= ci->ncols) {
            check_count(ci, nf + 1, buf, i);
        }
        bool is_null_text = ci->field.len == o->null_len &&
                            (o->null_len == 0 || memcmp(ci->field.data, o->null_str, o->null_len) == 0);
        bool is_null = quoted ? (is_null_text && o->force_null && o->force_null[nf])
                              : (is_null_text && !(o->force_not_null && o->force_not_null[nf]));
        slot[nf] = is_null ? (StrRef){NULL, 0} : keep_field(ci);
        nf++;
    }
    size_t rec_len = i;
    while (rec_len > 0 && (buf[rec_len - 1] == '\n' || buf[rec_len - 1] == '\r'))
        rec_len--;
    check_count(ci, nf, buf, rec_len);
    return i;
}

static bool is_end_marker(const char *line, size_t len)
{
    if (len > 0 && line[len - 1] == '\r')
        len--;
    return len == 2 && line[0] == '\\' && line[1] == '.';
}

/* HEADER MATCH: the header record (split into the next row slot, not
 * kept) must name the COPY's columns in order. */
static void header_check(ExecCopyIn *ci, const char *line, size_t len)
{
    StrRef *slot = row_slot(ci);
    for (int f = 0; f < ci->ncols; f++) {
        const char *want = store_table_column(ci->t, ci->cols[f])->name;
        StrRef got = slot[f];
        if (got.ptr == NULL || strlen(want) != got.len || memcmp(want, got.ptr, got.len) != 0) {
            ci->phase = PH_RECORD;
            ci->err_line = ci->line;
            ci->err_text = (StrRef){line, (uint32_t)len};
            err_raise(ERRCODE_BAD_COPY_FILE_FORMAT,
                      "column name mismatch in header line field %d: got \"%.*s\", expected \"%s\"",
                      f + 1, got.ptr ? (int)got.len : 4, got.ptr ? got.ptr : "null", want);
        }
    }
}

/* Consume complete records from buf; returns the bytes consumed. */
static size_t consume(ExecCopyIn *ci, const char *buf, size_t len, bool final)
{
    size_t pos = 0;
    while (pos < len && !ci->ended) {
        const char *p = buf + pos;
        size_t avail = len - pos;
        const char *nl = memchr(p, '\n', avail);
        size_t line_len = nl ? (size_t)(nl - p) : avail;
        if (!nl && !final)
            break;
        ci->line++;
        if (is_end_marker(p, line_len)) {
            ci->ended = true;
            pos = len;
            break;
        }
        size_t used;
        bool is_header = !ci->header_done && ci->o.header;
        if (is_header && !ci->o.header_match) {
            ci->header_done = true;   /* skipped unparsed, as PostgreSQL */
            pos += nl ? line_len + 1 : line_len;
            continue;
        }
        if (ci->o.csv) {
            used = csv_record(ci, p, avail, final);
            if (used == 0) {
                ci->line--;
                break;
            }
        } else {
            size_t l = line_len;
            if (l > 0 && p[l - 1] == '\r')
                l--;
            text_record(ci, p, l);
            used = nl ? line_len + 1 : line_len;
        }
        if (is_header) {
            ci->header_done = true;
            if (ci->o.header_match)
                header_check(ci, p, line_len);
        } else {
            ci->line_of[ci->nrows] = ci->line;
            ci->nrows++;
        }
        pos += used;
        if (ci->nrows == VEC_CAPACITY)
            flush_rows(ci);
    }
    return pos;
}

/* consume, with the segment's rows stored before a parse error is raised. */
static size_t consume_guarded(ExecCopyIn *ci, const char *buf, size_t len, bool final)
{
    ErrJmp jmp;
    if (!ERR_TRY(jmp))
        raise_after_segment(ci);
    size_t used = consume(ci, buf, len, final);
    err_pop(&jmp);
    return used;
}

void exec_copy_in_data(ExecCopyIn *ci, const char *data, size_t len)
{
    if (ci->ended || len == 0)
        return;
    const char *buf = data;
    size_t n = len;
    if (ci->pending.len > 0) {
        strbuf_append(&ci->pending, data, len);
        buf = ci->pending.data;
        n = ci->pending.len;
    }
    size_t used = consume_guarded(ci, buf, n, false);
    if (buf == data) {
        strbuf_append(&ci->pending, data + used, len - used);
    } else {
        memmove(ci->pending.data, ci->pending.data + used, n - used);
        ci->pending.len = n - used;
    }
}

uint64_t exec_copy_in_finish(ExecCopyIn *ci)
{
    if (!ci->ended && ci->pending.len > 0)
        consume_guarded(ci, ci->pending.data, ci->pending.len, true);
    ci->pending.len = 0;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        flush_rows(ci);
        err_pop(&jmp);
    } else {
        raise_after_segment(ci);
    }
    if (ci->cluster)
        flush_segment(ci, true);
    return ci->total;
}

/* Append s to buf as a quoted context value, clipped as PostgreSQL does. */
static void context_value(char *buf, size_t size, StrRef s)
{
    size_t used = strlen(buf);
    if (s.len > COPY_PRINT_MAX)
        snprintf(buf + used, size - used, "\"%.*s...\"", COPY_PRINT_MAX, s.ptr);
    else
        snprintf(buf + used, size - used, "\"%.*s\"", (int)s.len, s.ptr);
}

void exec_copy_in_context(const ExecCopyIn *ci, char *buf, size_t size)
{
    buf[0] = '\0';
    if (ci == NULL || size == 0)
        return;
    switch (ci->phase) {
    case PH_NONE:
        return;
    case PH_RECORD:
        snprintf(buf, size, "COPY %s, line %llu: ", ci->relname, (unsigned long long)ci->err_line);
        context_value(buf, size, ci->err_text);
        return;
    case PH_CONVERT: {
        const char *col = store_table_column(ci->t, ci->cols[ci->err_field])->name;
        snprintf(buf, size, "COPY %s, line %llu, column %s: ", ci->relname,
                 (unsigned long long)ci->err_line, col);
        context_value(buf, size, ci->err_text);
        return;
    }
    case PH_LOAD:
        /* PostgreSQL names the line of a row whose insert failed (its
         * 23505 context has no line text; its 23502 context does, which
         * is gone here: only the line number is kept) */
        if (ci->err_line > 0)
            snprintf(buf, size, "COPY %s, line %llu", ci->relname, (unsigned long long)ci->err_line);
        else
            snprintf(buf, size, "COPY %s", ci->relname);
        return;
    }
}
