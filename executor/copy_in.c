/*
 * copy_in.c — COPY FROM's data path: records of text or CSV input are split
 * into raw fields, VEC_CAPACITY rows at a time, then converted column by
 * column (type_input) into a batch of the table's columns and appended
 * with store_table_bulk_load — for a table with a primary key through
 * copy_cluster.c, which buffers a segment of batches and appends it sorted
 * by the key. See executor/copy.h for the contract and PostgreSQL's
 * copyfromparse.c for the formats this follows.
 *
 * Speed (executor/README.md "COPY's memory and threads"): a text line is
 * copied once and split in place; fields are kept column-major so a
 * column converts from consecutive memory; integer, date and timestamp
 * columns parse their common text inline and send only the rest through
 * type_input (whose messages every error keeps). A COPY tells the store
 * that nothing reads its rows while it runs, so written groups leave
 * memory, and seals the load when it ends (storage/bulk.c).
 *
 * UTF-8 (as PostgreSQL's CopyConvertBuf): each chunk of input is
 * validated once, ahead of the splitting, by utf8_valid_prefix; the error
 * is raised when the line holding the first invalid byte is reached, so
 * earlier lines' errors come first and the context names that line
 * without its text (`COPY t, line 2`). Escapes that make bytes (\377,
 * \x00) are checked per field, with the line's text in the context.
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/copy.h"

#include <stdio.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include "common/datetime.h"
#include "common/error.h"
#include "common/utf8.h"
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
    StrRef *raw;              /* ncols * VEC_CAPACITY, column-major; ptr NULL = SQL NULL */
    uint64_t *line_of;        /* line number of each pending row */
    uint32_t nrows;
    uint64_t line;            /* lines started so far */
    uint64_t total;
    bool header_done, ended;
    size_t checked;           /* leading bytes of pending known valid UTF-8 */
    size_t bad_at;            /* buffer being consumed: offset of an invalid character, or SIZE_MAX */
    const char *header_rec;   /* HEADER MATCH record being split (else NULL) */
    size_t header_avail;      /* input bytes from header_rec on */
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
    /* Nothing reads the rows while the COPY runs, so the store lets
     * written rows leave memory; exec_copy_in_finish seals the load, after
     * which later statements of a block read them from its run
     * (executor/README.md "COPY's memory"). */
    store_txn_bulk_unread(s->txn);
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

/* Row r's field through type_input: its errors are PostgreSQL's, with the
 * line and text of the field for the context line. */
static void convert_value(ExecCopyIn *ci, Vector *v, uint32_t r, StrRef raw)
{
    ci->err_line = ci->line_of[r];
    ci->err_text = raw;
    Value val;
    type_input(v->type, raw.ptr, raw.len, ci->value_arena, &val);
    vec_set_value(v, r, &val);
}

/* The common integer text: an optional '-' and 1 to 18 digits (never
 * overflows). Anything else — spaces, '+', more digits, junk — returns
 * false and goes through type_input, which accepts or rejects it exactly
 * as PostgreSQL does. */
static inline bool int_fast(const char *s, uint32_t len, int64_t *out)
{
    uint32_t i = len > 0 && s[0] == '-';
    if (len == i || len - i > 18)
        return false;
    uint64_t acc = 0;
    for (; i < len; i++) {
        unsigned d = (unsigned)(unsigned char)s[i] - '0';
        if (d > 9)
            return false;
        acc = acc * 10 + d;
    }
    *out = s[0] == '-' ? -(int64_t)acc : (int64_t)acc;
    return true;
}

/* Digits s[0..n) as a number; -1 when one is not a digit. */
static inline int digits(const char *s, int n)
{
    int v = 0;
    for (int i = 0; i < n; i++) {
        unsigned d = (unsigned)(unsigned char)s[i] - '0';
        if (d > 9)
            return -1;
        v = v * 10 + (int)d;
    }
    return v;
}

/* ISO "YYYY-MM-DD" of a valid AD date (any DateStyle reads it so) into
 * *out; false for every other text (type_input decides). */
static inline bool date_fast(const char *s, uint32_t len, int32_t *out)
{
    if (len != 10 || s[4] != '-' || s[7] != '-')
        return false;
    int y = digits(s, 4), m = digits(s + 5, 2), d = digits(s + 8, 2);
    if (y < 1 || m < 0 || d < 0 || !date_ymd_valid(y, m, d))
        return false;
    *out = date_from_ymd(y, m, d);
    return true;
}

/* "YYYY-MM-DD HH:MM:SS" (whole seconds, hour < 24, second < 60: no
 * rounding or rollover to get right) into microseconds; else false. */
static inline bool timestamp_fast(const char *s, uint32_t len, int64_t *out)
{
    int32_t date;
    if (len != 19 || s[10] != ' ' || s[13] != ':' || s[16] != ':' || !date_fast(s, 10, &date))
        return false;
    int h = digits(s + 11, 2), mi = digits(s + 14, 2), sec = digits(s + 17, 2);
    if (h < 0 || h > 23 || mi < 0 || mi > 59 || sec < 0 || sec > 59)
        return false;
    *out = (int64_t)date * INT64_C(86400000000) + ((int64_t)h * 3600 + mi * 60 + sec) * 1000000;
    return true;
}

/* Columns whose common text parses here (ClickBench's hits: 73 integer,
 * 1 date and 3 timestamp columns; type_input was a third of the COPY
 * thread's time, its dispatch and general parsers for these values most
 * of it — typio_parse_int alone 15% of the load's CPU). Values the fast
 * parser takes (and, for integers, in the type's range) go straight into
 * the vector; the rest take convert_value. */
#define CONVERT_FAST(NAME, CT, XT, PARSE, OK)                                           \
    static void NAME(ExecCopyIn *ci, Vector *v, int f)                                  \
    {                                                                                   \
        CT *d = v->data;                                                                \
        for (uint32_t r = 0; r < ci->nrows; r++) {                                      \
            StrRef raw = ci->raw[(size_t)f * VEC_CAPACITY + r];            \
            XT x;                                                                       \
            if (raw.ptr == NULL) {                                                      \
                vec_set_null(v, r);                                                     \
            } else if (PARSE(raw.ptr, raw.len, &x) && (OK)) {                           \
                d[r] = (CT)x;                                                           \
                if (v->validity)                                                        \
                    v->validity[r >> 6] |= UINT64_C(1) << (r & 63);                     \
            } else {                                                                    \
                convert_value(ci, v, r, raw);                                           \
            }                                                                           \
        }                                                                               \
    }
CONVERT_FAST(convert_int2, int16_t, int64_t, int_fast, x >= INT16_MIN && x <= INT16_MAX)
CONVERT_FAST(convert_int4, int32_t, int64_t, int_fast, x >= INT32_MIN && x <= INT32_MAX)
CONVERT_FAST(convert_int8, int64_t, int64_t, int_fast,
             x >= -INT64_C(999999999999999999) && x <= INT64_C(999999999999999999))
CONVERT_FAST(convert_date, int32_t, int32_t, date_fast, true)
CONVERT_FAST(convert_timestamp, int64_t, int64_t, timestamp_fast, true)
#undef CONVERT_FAST

/* text: type_input's copy into the value arena, without its dispatch and
 * vec_set_value's per value (26 of hits' 105 columns are text). */
static void convert_text(ExecCopyIn *ci, Vector *v, int f)
{
    StrRef *d = v->data;
    for (uint32_t r = 0; r < ci->nrows; r++) {
        StrRef raw = ci->raw[(size_t)f * VEC_CAPACITY + r];
        if (raw.ptr == NULL) {
            vec_set_null(v, r);
            continue;
        }
        d[r] = (StrRef){mem_strndup(ci->value_arena, raw.ptr, raw.len), raw.len};
        if (v->validity)
            v->validity[r >> 6] |= UINT64_C(1) << (r & 63);
    }
}

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
    ci->err_field = f;
    switch (v->type.oid) {
    case TYPE_INT2: convert_int2(ci, v, f); return;
    case TYPE_INT4: convert_int4(ci, v, f); return;
    case TYPE_INT8: convert_int8(ci, v, f); return;
    case TYPE_DATE: convert_date(ci, v, f); return;
    case TYPE_TIMESTAMP: convert_timestamp(ci, v, f); return;
    case TYPE_TEXT: convert_text(ci, v, f); return;
    default: break;
    }
    for (uint32_t r = 0; r < ci->nrows; r++) {
        StrRef raw = ci->raw[(size_t)f * VEC_CAPACITY + r];
        if (raw.ptr == NULL)
            vec_set_null(v, r);
        else
            convert_value(ci, v, r, raw);
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
 * the error when it does not. The same for the rows before a record error.
 */
static void flush_rows(ExecCopyIn *ci);

static _Noreturn void raise_after_segment(ExecCopyIn *ci)
{
    ErrorData saved = *err_current();
    CopyPhase phase = ci->phase;
    bool parse = phase == PH_RECORD || phase == PH_CONVERT;
    bool canceled = strcmp(saved.sqlstate, ERRCODE_QUERY_CANCELED) == 0;
    if (((ci->cluster && parse) || (phase == PH_RECORD && ci->nrows > 0)) && !canceled) {
        uint64_t line = ci->err_line;
        int field = ci->err_field;
        StrRef text = ci->err_text;
        /* A record error (field count, invalid UTF-8) with rows of its
         * batch not yet converted: PostgreSQL converts and stores each row
         * before reading the next, so their errors come first. */
        if (phase == PH_RECORD)
            flush_rows(ci);
        if (ci->cluster)
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

/* Remember the record for the context line of the error about to be raised. */
static void record_ctx(ExecCopyIn *ci, const char *line, size_t len)
{
    ci->phase = PH_RECORD;
    ci->err_line = ci->line;
    ci->err_text = (StrRef){line, (uint32_t)len};
}

/* Field f of the row being split. The fields are kept column by column
 * (raw[f * VEC_CAPACITY + row]) so that converting a column reads them in
 * sequence: row by row they sat 105 x 16 bytes apart for ClickBench's hits,
 * a cache miss per value (flush_rows was a fifth of the COPY thread). */
static inline StrRef *field_slot(ExecCopyIn *ci, int f)
{
    return &ci->raw[(size_t)f * VEC_CAPACITY + ci->nrows];
}

/* Fields of the record at p (len bytes available), and in *end (when not
 * NULL) its length without the newline: PostgreSQL counts every field for
 * the header's message and shows the whole line in the context. Text:
 * delimiters not escaped; CSV: delimiters outside quotes. */
static int record_scan(const ExecCopyIn *ci, const char *p, size_t len, size_t *end)
{
    const ExecCopyOpts *o = &ci->o;
    int n = 1;
    bool quoted = false;
    size_t i = 0;
    for (; i < len; i++) {
        char c = p[i];
        if (!o->csv) {
            if (c == '\n' || c == '\r')
                break;
            if (c == '\\' && i + 1 < len)
                i++;
            else
                n += c == o->delim;
        } else if (quoted) {
            if (c == o->escape && i + 1 < len &&
                (p[i + 1] == o->quote || (o->escape != o->quote && p[i + 1] == o->escape)))
                i++;  /* as csv_record: an escaped quote or escape */
            else if (c == o->quote)
                quoted = false;
        } else if (c == o->quote) {
            quoted = true;
        } else if (c == '\n' || c == '\r') {
            break;
        } else {
            n += c == o->delim;
        }
    }
    if (end)
        *end = i < len ? i : len;
    return n;
}

static void check_count(ExecCopyIn *ci, int nf, const char *line, size_t len)
{
    if (ci->header_rec && nf != ci->ncols) {
        /* HEADER MATCH: PostgreSQL's message for the whole header line */
        int got = nf < ci->ncols ? nf : record_scan(ci, ci->header_rec, ci->header_avail, NULL);
        record_ctx(ci, line, len);
        err_raise(ERRCODE_BAD_COPY_FILE_FORMAT,
                  "wrong number of fields in header line: got %d, expected %d", got, ci->ncols);
    }
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

/* De-escape the text-format field [p, e) in place (never longer than its
 * escaped text); returns its new length. PostgreSQL's escapes: \b \f \n
 * \r \t \v, \xH[H], \ooo octal, any other character stands for itself. */
static uint32_t unescape_in_place(char *p, const char *e)
{
    char *w = p;
    const char *r = p;
    while (r < e) {
        const char *bs = memchr(r, '\\', (size_t)(e - r));
        if (bs == NULL) {
            memmove(w, r, (size_t)(e - r));
            w += e - r;
            break;
        }
        memmove(w, r, (size_t)(bs - r));
        w += bs - r;
        r = bs + 1;
        if (r >= e) {
            *w++ = '\\';
            break;
        }
        char c = *r++;
        switch (c) {
        case 'b': c = '\b'; break;
        case 'f': c = '\f'; break;
        case 'n': c = '\n'; break;
        case 'r': c = '\r'; break;
        case 't': c = '\t'; break;
        case 'v': c = '\v'; break;
        case 'x':
            if (r < e && hexval(*r) >= 0) {
                int v = hexval(*r++);
                if (r < e && hexval(*r) >= 0)
                    v = v * 16 + hexval(*r++);
                c = (char)v;
            }
            break;
        default:
            if (c >= '0' && c <= '7') {
                int v = c - '0';
                for (int k = 0; k < 2 && r < e && *r >= '0' && *r <= '7'; k++)
                    v = v * 8 + (*r++ - '0');
                c = (char)v;
            }
            break;
        }
        *w++ = c;
    }
    return (uint32_t)(w - p);
}

/* A de-escaped field: escapes may have made any byte (\377, \0), so it
 * is valid UTF-8 again only if checked, as PostgreSQL's
 * CopyReadAttributesText does; the context shows the line. */
static void escaped_check(ExecCopyIn *ci, const char *p, uint32_t n, const char *line, size_t len)
{
    size_t ok = utf8_valid_prefix(p, n);
    if (ok != n) {
        record_ctx(ci, line, len);
        utf8_report_invalid(p + ok, n - ok);
    }
}

/* Store field [p, p + n) of the row being split as field nf (NULL when it
 * is the NULL marker), NUL-terminated in place; the caller checked nf. */
static inline void plain_field(ExecCopyIn *ci, int nf, char *p, uint32_t n)
{
    StrRef *slot = field_slot(ci, nf);
    if (n == ci->o.null_len && memcmp(p, ci->o.null_str, n) == 0) {
        *slot = (StrRef){NULL, 0};
        return;
    }
    p[n] = '\0';
    *slot = (StrRef){p, n};
}

/* Bit i set when p[i] == c, for the 64 bytes at p. */
static inline uint64_t byte_mask64(const char *p, char c)
{
#if defined(__SSE2__)
    __m128i cv = _mm_set1_epi8(c);
    uint64_t m = 0;
    for (int k = 0; k < 4; k++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + 16 * k));
        m |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, cv)) << (16 * k);
    }
    return m;
#else
    uint64_t m = 0;
    for (int i = 0; i < 64; i++)
        m |= (uint64_t)(p[i] == c) << i;
    return m;
#endif
}

/*
 * text_record for a line copy without any backslash (nearly every line of
 * real data): fields end exactly at the delimiters, found 64 bytes at a
 * time as a bit mask (SSE2 where available) instead of a byte loop that
 * also checks for escapes; measured on ClickBench's hits lines
 * (670 bytes, 105 fields) it was the COPY thread's largest self time.
 */
static void text_record_plain(ExecCopyIn *ci, char *copy, size_t len, const char *line)
{
    char *p = copy;
    int nf = 0;
    size_t base = 0;
    while (base < len) {
        uint64_t m = 0;
        size_t span = len - base;
        if (span >= 64) {
            m = byte_mask64(copy + base, ci->o.delim);
            span = 64;
        } else {
            for (size_t i = 0; i < span; i++)
                m |= (uint64_t)(copy[base + i] == ci->o.delim) << i;
        }
        while (m) {
            char *q = copy + base + (size_t)__builtin_ctzll(m);
            m &= m - 1;
            if (nf >= ci->ncols)
                check_count(ci, nf + 1, line, len);
            plain_field(ci, nf++, p, (uint32_t)(q - p));
            p = q + 1;
        }
        base += span;
    }
    if (nf >= ci->ncols)
        check_count(ci, nf + 1, line, len);
    plain_field(ci, nf++, p, (uint32_t)(copy + len - p));
    if (ci->ncols == 0 && len == 0)
        nf = 0;
    check_count(ci, nf, line, len);
}

/*
 * One text-format line (no newline) into the pending rows. The line is
 * copied once into the batch arena and split there in place: each field
 * is NUL-terminated over its delimiter and de-escaped where it stands, so
 * a row costs one allocation instead of one per field.
 */
static void text_record(ExecCopyIn *ci, const char *line, size_t len)
{
    char *copy = mem_alloc(ci->batch_arena, len + 1);
    memcpy(copy, line, len);
    copy[len] = '\0';
    if (memchr(copy, '\\', len) == NULL) {
        text_record_plain(ci, copy, len, line);
        return;
    }
    char *p = copy, *end = copy + len;
    int nf = 0;
    for (;;) {
        char *q = p;
        while (q < end && *q != ci->o.delim) {
            if (*q == '\\' && q + 1 < end)
                q++;
            q++;
        }
        if (q > end)
            q = end;
        if (nf >= ci->ncols)
            check_count(ci, nf + 1, line, len);
        bool last = q >= end;
        StrRef *slot = field_slot(ci, nf);
        uint32_t n = (uint32_t)(q - p);
        if (n == ci->o.null_len && memcmp(p, ci->o.null_str, ci->o.null_len) == 0) {
            *slot = (StrRef){NULL, 0};
        } else {
            if (memchr(p, '\\', n) != NULL) {
                n = unescape_in_place(p, q);
                escaped_check(ci, p, n, line, len);
            }
            p[n] = '\0';
            *slot = (StrRef){p, n};
        }
        nf++;
        if (last)
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
            size_t rec_end;  /* the context shows the whole record, as PostgreSQL */
            record_scan(ci, buf, len, &rec_end);
            check_count(ci, nf + 1, buf, rec_end);
        }
        bool is_null_text = ci->field.len == o->null_len &&
                            (o->null_len == 0 || memcmp(ci->field.data, o->null_str, o->null_len) == 0);
        bool is_null = quoted ? (is_null_text && o->force_null && o->force_null[nf])
                              : (is_null_text && !(o->force_not_null && o->force_not_null[nf]));
        *field_slot(ci, nf) = is_null ? (StrRef){NULL, 0} : keep_field(ci);
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
    for (int f = 0; f < ci->ncols; f++) {
        const char *want = store_table_column(ci->t, ci->cols[f])->name;
        StrRef got = *field_slot(ci, f);
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

/* The record at buf + pos (avail bytes, its first line line_len bytes)
 * holds the invalid character found ahead at ci->bad_at. */
static bool holds_bad(const ExecCopyIn *ci, const char *buf, size_t pos, size_t line_len, size_t avail)
{
    if (ci->bad_at < pos + line_len)
        return true;
    if (!ci->o.csv || ci->bad_at >= pos + avail)
        return false;
    size_t end;   /* a quoted CSV field runs on past the first line */
    record_scan(ci, buf + pos, avail, &end);
    return ci->bad_at < pos + end;
}

/* The line being read holds invalid UTF-8: PostgreSQL raises it before
 * the line is split, its context without the line's text. */
static _Noreturn void encoding_error(ExecCopyIn *ci, const char *buf, size_t len)
{
    ci->phase = PH_RECORD;
    ci->err_line = ci->line;
    ci->err_text = (StrRef){NULL, 0};
    utf8_report_invalid(buf + ci->bad_at, len - ci->bad_at);
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
        if (ci->bad_at != SIZE_MAX && holds_bad(ci, buf, pos, line_len, avail))
            encoding_error(ci, buf, len);
        size_t used;
        bool is_header = !ci->header_done && ci->o.header;
        if (is_header && !ci->o.header_match) {
            ci->header_done = true;   /* skipped unparsed, as PostgreSQL */
            pos += nl ? line_len + 1 : line_len;
            continue;
        }
        ci->header_rec = is_header ? p : NULL;
        ci->header_avail = avail;
        if (ci->o.csv) {
            used = csv_record(ci, p, avail, final);
            if (used == 0) {
                ci->header_rec = NULL;
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
        ci->header_rec = NULL;
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

/* consume, with the segment's rows stored before a parse error is raised.
 * buf's first ci->checked bytes are known valid UTF-8; the rest is
 * validated here in one pass, and ci->checked left for the bytes not
 * consumed (a character cut by the end of a chunk is no error yet). */
static size_t consume_guarded(ExecCopyIn *ci, const char *buf, size_t len, bool final)
{
    size_t from = ci->checked < len ? ci->checked : len;
    size_t valid = from + utf8_valid_prefix(buf + from, len - from);
    ci->bad_at = valid < len && (final || !utf8_incomplete(buf + valid, len - valid)) ? valid : SIZE_MAX;
    ErrJmp jmp;
    if (!ERR_TRY(jmp))
        raise_after_segment(ci);
    size_t used = consume(ci, buf, len, final);
    err_pop(&jmp);
    ci->checked = valid > used ? valid - used : 0;
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
    } else {
        ci->checked = 0;
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
    store_txn_bulk_end(ci->s->txn);  /* sealed: the block's next statements read the rows */
    return ci->total;
}

void exec_copy_in_mark_line(ExecCopyIn *ci)
{
    if (ci == NULL)
        return;
    ci->phase = PH_RECORD;
    ci->err_line = ci->line + (ci->pending.len > 0 || ci->line == 0);
    ci->err_text = (StrRef){NULL, 0};
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
        if (ci->err_text.ptr == NULL) {   /* the line was not read whole (encoding, CopyFail) */
            snprintf(buf, size, "COPY %s, line %llu", ci->relname, (unsigned long long)ci->err_line);
            return;
        }
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
