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
 */
#define STRATA_PROTOCOL_INTERNAL
#include "protocol/proto_int.h"

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
    return in;
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

/* Length of the complete row at p, 0 while short; -1 fields = trailer. */
static size_t row_length(const ProtoCopyBinIn *in, const unsigned char *p, size_t n, bool *trailer)
{
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
    return pos;
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
        proto_binary_param(in->types[f], (const char *)p + pos, (size_t)len, f, in->scratch, &v);
        pos += (size_t)len;
        strbuf_reset(&in->field);
        type_output(in->types[f], &v, &oo, &in->field);
        append_escaped(&in->lines, in->field.data, in->field.len);
    }
    strbuf_append_char(&in->lines, '\n');
}

void proto_copy_binary_in_data(ProtoCopyBinIn *in, const char *data, size_t len)
{
    if (in->ended)
        return;   /* bytes after the trailer are ignored, as PostgreSQL */
    strbuf_append(&in->pending, data, len);
    const unsigned char *p = (const unsigned char *)in->pending.data;
    size_t n = in->pending.len, used = 0;
    if (!in->header_done) {
        used = parse_header(p, n);
        if (used == 0)
            return;
        in->header_done = true;
    }
    strbuf_reset(&in->lines);
    for (;;) {
        bool trailer = false;
        size_t rl = row_length(in, p + used, n - used, &trailer);
        if (rl == 0)
            break;
        if (!trailer)
            row_to_text(in, p + used);
        used += rl;
        if (trailer) {
            in->ended = true;
            break;
        }
    }
    if (in->lines.len)
        exec_copy_in_data(in->ci, in->lines.data, in->lines.len);
    mem_arena_reset(in->scratch);
    memmove(in->pending.data, in->pending.data + used, n - used);
    in->pending.len = n - used;
}

void proto_copy_binary_in_end(ProtoCopyBinIn *in)
{
    if (!in->header_done)
        err_raise(ERRCODE_BAD_COPY_FILE_FORMAT, "COPY file signature not recognized");
    if (!in->ended && in->pending.len > 0)
        err_raise(ERRCODE_BAD_COPY_FILE_FORMAT, "unexpected EOF in COPY data");
}
