/*
 * copy_binary.c — COPY's binary format (PostgreSQL's "PGCOPY" file format),
 * which psycopg 3 (cursor.copy with FORMAT BINARY), JDBC's CopyManager and
 * pg_dump-style tools use.
 *
 * Format: the 11-byte signature "PGCOPY\n\377\r\n\0", int32 flags (bit 16 =
 * OIDs, refused), int32 header-extension length and its bytes; then per row
 * int16 field count and per field int32 length (-1 = NULL) plus the type's
 * binary send form; a field count of -1 ends the data. All big-endian.
 *
 * COPY TO encodes each batch column by column with the same encoders as
 * DataRow (proto_binary_column, results.c), one CopyData message per row.
 * COPY FROM turns each complete binary row into one line of COPY's text
 * format (fields through proto_binary_param, then type_output, escaped) and
 * hands the lines to the executor's text COPY reader, so defaults, NOT NULL,
 * constraints and the error context are the text path's. One conversion per
 * field, on the COPY BINARY path only. Rows may span CopyData messages: the
 * unparsed tail waits in `pending`.
 *
 * Errors carry PostgreSQL's CONTEXT for binary COPY, which never shows the
 * data (CopyFromErrorCallback): "COPY t, line N, column c" while a field
 * of row N is read or converted (its length, its bytes, invalid UTF-8 in a
 * text field, a fixed-width field of the wrong size), "COPY t, line N" for
 * the row as a whole (its field count, bytes after the trailer — whose
 * "line" is the one after the last row); the text reader's own contexts
 * lose their quoted data (proto_copy_binary_in_context). Rows converted
 * before a bad field reach the text reader first, so their errors win.
 */
#define STRATA_PROTOCOL_INTERNAL
#include "protocol/proto_int.h"

#include <stdio.h>
#include <string.h>
#include "common/error.h"
#include "common/typio.h"
#include "executor/copy.h"

static const char copy_signature[11] = {'P', 'G', 'C', 'O', 'P', 'Y', '\n', '\377', '\r', '\n', '\0'};
#define COPY_BIN_HEADER_MIN 19   /* signature + flags + extension length */

static uint32_t get32(const unsigned char *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static void append_be32(StrBuf *sb, uint32_t v)
{
    char b[4] = {(char)(v >> 24), (char)(v >> 16), (char)(v >> 8), (char)v};
    strbuf_append(sb, b, 4);
}

void proto_copy_binary_header(StrBuf *out)
{
    strbuf_append(out, copy_signature, sizeof copy_signature);
    append_be32(out, 0);
    append_be32(out, 0);
}

void proto_copy_binary_trailer(StrBuf *out)
{
    strbuf_append_be16(out, 0xFFFF);
}

void proto_copy_binary_check_types(const SqlType *types, int ncols)
{
    for (int i = 0; i < ncols; i++)
        if (!proto_binary_supported(types[i].oid)) {
            const TypeInfo *ti = type_info(types[i].oid);
            err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "binary output format is not supported for type %s",
                      ti ? ti->sql_name : "unknown");
        }
}

void proto_copy_binary_batch(const Batch *b, MemArena *arena, StrBuf *out, size_t *row_end)
{
    StrRef **cols = mem_alloc(arena, sizeof(StrRef *) * ((size_t)b->ncols + 1));
    for (int col = 0; col < b->ncols; col++) {
        cols[col] = mem_alloc(arena, sizeof(StrRef) * (b->count + 1));
        proto_binary_column(&b->cols[col], b, arena, cols[col]);
    }
    for (uint32_t i = 0; i < b->count; i++) {
        strbuf_append_be16(out, (uint16_t)b->ncols);
        for (int col = 0; col < b->ncols; col++) {
            const StrRef *s = &cols[col][i];
            append_be32(out, s->ptr ? s->len : UINT32_MAX);
            if (s->ptr && s->len)
                strbuf_append(out, s->ptr, s->len);
        }
        row_end[i] = out->len;
    }
}

struct ProtoCopyBinIn {
    ExecCopyIn *ci;
    int ncols;
    const SqlType *types;
    bool header_done, ended;
    StrBuf pending;      /* bytes not yet parsed */
    StrBuf lines;        /* text-format lines for the executor */
    StrBuf field;        /* one field's text before escaping */
    MemArena *scratch;   /* binary → Value conversions; reset per message */
    const char *relname;             /* for contexts (proto_copy_binary_in_names) */
    const char *const *colnames;
    uint64_t rows;                   /* rows read whole (the trailer's "line" is rows + 1) */
    bool own_error;                  /* the error being raised is this reader's */
    int err_field;                   /* ... of this field of row rows + 1; -1 the whole row */
};

ProtoCopyBinIn *proto_copy_binary_in_begin(ExecCopyIn *ci, int ncols, const SqlType *types, MemArena *a)
{
    ProtoCopyBinIn *in = mem_calloc(a, 1, sizeof *in);
    in->ci = ci;
    in->ncols = ncols;
    in->types = types;
    strbuf_init(&in->pending);
    strbuf_init(&in->lines);
    strbuf_init(&in->field);
    in->scratch = mem_arena_create("copy binary in");
    in->err_field = -1;
    return in;
}

void proto_copy_binary_in_names(ProtoCopyBinIn *in, const char *relname, const char *const *colnames)
{
    in->relname = relname;
    in->colnames = colnames;
}

void proto_copy_binary_in_context(const ProtoCopyBinIn *in, char *buf, size_t size)
{
    if (!in || size == 0)
        return;
    if (!in->own_error) {   /* the text reader's: "COPY t, line N[, column c]: \"data\"" */
        char *data = strstr(buf, ": \"");
        if (data)
            *data = '\0';
        return;
    }
    unsigned long long line = (unsigned long long)in->rows + 1;
    const char *rel = in->relname ? in->relname : "";
    if (in->err_field >= 0 && in->colnames)
        snprintf(buf, size, "COPY %s, line %llu, column %s", rel, line, in->colnames[in->err_field]);
    else
        snprintf(buf, size, "COPY %s, line %llu", rel, line);
}

void proto_copy_binary_in_free(ProtoCopyBinIn *in)
{
    if (!in)
        return;
    strbuf_free(&in->pending);
    strbuf_free(&in->lines);
    strbuf_free(&in->field);
    mem_arena_destroy(in->scratch);
}

/* The header at p (n bytes): its length once complete, 0 while short. */
static size_t parse_header(const unsigned char *p, size_t n)
{
    if (n < COPY_BIN_HEADER_MIN)
        return 0;
    if (memcmp(p, copy_signature, sizeof copy_signature) != 0)
        err_raise(ERRCODE_BAD_COPY_FILE_FORMAT, "COPY file signature not recognized");
    uint32_t flags = get32(p + 11);
    if (flags & (1u << 16))
        err_raise(ERRCODE_BAD_COPY_FILE_FORMAT, "invalid COPY file header (WITH OIDS)");
    if (flags & 0xFFFF0000u & ~(1u << 16))
        err_raise(ERRCODE_BAD_COPY_FILE_FORMAT, "unrecognized critical flags in COPY file header");
    uint32_t ext = get32(p + 15);
    if (ext > INT32_MAX)
        err_raise(ERRCODE_BAD_COPY_FILE_FORMAT, "invalid COPY file header (wrong length)");
    return n - COPY_BIN_HEADER_MIN >= ext ? COPY_BIN_HEADER_MIN + ext : 0;
}

/* Length of the complete row at p, 0 while short (in->err_field then
 * names the field cut short); -1 fields = trailer. */
static size_t row_length(ProtoCopyBinIn *in, const unsigned char *p, size_t n, bool *trailer)
{
    in->err_field = -1;
    if (n < 2)
        return 0;
    int16_t nf = (int16_t)(((uint16_t)p[0] << 8) | p[1]);
    *trailer = nf == -1;
    if (*trailer)
        return 2;
    if (nf != in->ncols)
        err_raise(ERRCODE_BAD_COPY_FILE_FORMAT, "row field count is %d, expected %d", nf, in->ncols);
    size_t pos = 2;
    for (int f = 0; f < nf; f++) {
        in->err_field = f;
        if (n - pos < 4)
            return 0;
        int32_t len = (int32_t)get32(p + pos);
        pos += 4;
        if (len < -1)
            err_raise(ERRCODE_BAD_COPY_FILE_FORMAT, "invalid field size");
        if (len > 0) {
            if (n - pos < (size_t)len)
                return 0;
            pos += (size_t)len;
        }
    }
    in->err_field = -1;
    return pos;
}

/* A fixed-width field's size, as PostgreSQL's receive functions check it:
 * too few bytes is pq_getmsg*'s 08P01, bytes left over CopyReadBinaryAttribute's 22P03. */
static void check_width(SqlType t, size_t len)
{
    const TypeInfo *ti = type_info(t.oid);
    if (!ti || ti->phys == PHYS_STR || type_is_array(t.oid))
        return;
    size_t want = phys_size(ti->phys);
    if (len < want)
        err_raise(ERRCODE_PROTOCOL_VIOLATION, "insufficient data left in message");
    if (len > want)
        err_raise(ERRCODE_INVALID_BINARY_REPRESENTATION, "incorrect binary data format");
}

/* Append text escaped for COPY's text format. */
static void append_escaped(StrBuf *out, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        char ch = s[i];
        const char *esc = ch == '\\' ? "\\\\" : ch == '\t' ? "\\t" : ch == '\n' ? "\\n" : ch == '\r' ? "\\r" : NULL;
        if (esc)
            strbuf_append(out, esc, 2);
        else
            strbuf_append_char(out, ch);
    }
}

static void row_to_text(ProtoCopyBinIn *in, const unsigned char *p)
{
    OutputOptions oo = OUTPUT_OPTIONS_DEFAULT;   /* shortest exact floats: the round trip is lossless */
    size_t pos = 2;
    for (int f = 0; f < in->ncols; f++) {
        int32_t len = (int32_t)get32(p + pos);
        pos += 4;
        if (f > 0)
            strbuf_append_char(&in->lines, '\t');
        if (len == -1) {
            strbuf_append(&in->lines, "\\N", 2);
            continue;
        }
        Value v;
        in->err_field = f;
        check_width(in->types[f], (size_t)len);
        proto_binary_param(in->types[f], (const char *)p + pos, (size_t)len, f, in->scratch, &v);
        in->err_field = -1;
        pos += (size_t)len;
        strbuf_reset(&in->field);
        type_output(in->types[f], &v, &oo, &in->field);
        append_escaped(&in->lines, in->field.data, in->field.len);
    }
    strbuf_append_char(&in->lines, '\n');
}

/* Hand the text lines made so far to the text reader (its errors are its
 * own: their context is the text reader's). */
static void flush_lines(ProtoCopyBinIn *in)
{
    if (!in->lines.len)
        return;
    in->own_error = false;
    exec_copy_in_data(in->ci, in->lines.data, in->lines.len);
    in->own_error = true;
    strbuf_reset(&in->lines);
}

/* Before this reader raises an error of its own: PostgreSQL reads,
 * converts and stores row by row, so an error of an earlier row (NOT NULL,
 * a duplicate key...) comes first. The text reader stores the rows it
 * holds before raising a record error (exec_copy_in_data): a last line
 * with an invalid byte makes it do that, and its 22021 then means "no
 * earlier error" (the lines made from binary rows are valid UTF-8). */
static void rows_before_first(ProtoCopyBinIn *in)
{
    strbuf_append(&in->lines, "\xff\n", 2);
    in->own_error = false;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        exec_copy_in_data(in->ci, in->lines.data, in->lines.len);
        err_pop(&jmp);
    } else if (strcmp(err_current()->sqlstate, ERRCODE_CHARACTER_NOT_IN_REPERTOIRE) != 0) {
        err_rethrow();   /* an earlier row's: it wins, with the text reader's context */
    }
    strbuf_reset(&in->lines);
    in->own_error = true;
}

/* Raise the error being handled — this reader's own — again, after the
 * rows before it had their say (rows_before_first). */
static _Noreturn void raise_own(ProtoCopyBinIn *in)
{
    ErrorData saved = *err_current();
    int field = in->err_field;
    rows_before_first(in);
    in->err_field = field;
    *err_begin(saved.sqlstate) = saved;
    err_throw();
}

/* err_raise(sqlstate, message) of this reader, the rows before first. */
static _Noreturn void raise_after_rows(ProtoCopyBinIn *in, const char *sqlstate, const char *message)
{
    in->own_error = true;
    ErrJmp jmp;
    if (ERR_TRY(jmp))
        err_raise(sqlstate, "%s", message);   /* lands just below, as any error of read_rows */
    raise_own(in);
}

/* The complete rows (and trailer) at the start of pending: into lines. */
static size_t read_rows(ProtoCopyBinIn *in, const unsigned char *p, size_t n)
{
    size_t used = 0;
    for (;;) {
        bool trailer = false;
        size_t rl = row_length(in, p + used, n - used, &trailer);
        if (rl == 0)
            return used;
        if (!trailer)
            row_to_text(in, p + used);
        in->rows += !trailer;
        used += rl;
        if (trailer) {
            in->ended = true;
            if (used < n)
                err_raise(ERRCODE_BAD_COPY_FILE_FORMAT, "received copy data after EOF marker");
            return used;
        }
    }
}

void proto_copy_binary_in_data(ProtoCopyBinIn *in, const char *data, size_t len)
{
    strbuf_reset(&in->lines);
    if (in->ended) {   /* PostgreSQL reads one byte past the trailer, and refuses it */
        if (len > 0)
            raise_after_rows(in, ERRCODE_BAD_COPY_FILE_FORMAT, "received copy data after EOF marker");
        return;
    }
    strbuf_append(&in->pending, data, len);
    const unsigned char *p = (const unsigned char *)in->pending.data;
    size_t n = in->pending.len, used = 0;
    if (!in->header_done) {
        in->own_error = false;   /* header errors have no context (BeginCopyFrom) */
        used = parse_header(p, n);
        if (used == 0)
            return;
        in->header_done = true;
    }
    in->own_error = true;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        used += read_rows(in, p + used, n - used);
        err_pop(&jmp);
    } else {
        raise_own(in);
    }
    flush_lines(in);
    mem_arena_reset(in->scratch);
    memmove(in->pending.data, in->pending.data + used, n - used);
    in->pending.len = n - used;
}

void proto_copy_binary_in_end(ProtoCopyBinIn *in)
{
    in->own_error = false;
    if (!in->header_done)
        err_raise(ERRCODE_BAD_COPY_FILE_FORMAT, "COPY file signature not recognized");
    /* PostgreSQL takes an end of data where a row's field count (2 bytes)
     * would start as the end of the rows, even without the trailer; a row
     * cut short is an error naming the field it stopped in. */
    if (!in->ended && in->pending.len >= 2) {
        bool trailer = false;
        in->own_error = true;
        row_length(in, (const unsigned char *)in->pending.data, in->pending.len, &trailer);
        strbuf_reset(&in->lines);
        raise_after_rows(in, ERRCODE_BAD_COPY_FILE_FORMAT, "unexpected EOF in COPY data");
    }
}
