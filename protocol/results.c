/*
 * results.c — building backend messages and reading frontend ones.
 *
 * Every backend message is built whole in the connection's send buffer
 * (type, back-filled length, body) and flushed only before the server
 * waits for input, or while streaming when the buffer grows past
 * PROTO_SEND_FLUSH; a client never sees half a message from us.
 *
 * Result rows are encoded straight from the executor's batches: one
 * type_output_vector call per column per batch turns the column into text
 * (one type dispatch per batch, no per-row indirect call), then one pass
 * over the rows writes the DataRows. Binary result columns (when a Bind
 * asked for them) are encoded per column the same way.
 */
#define STRATA_PROTOCOL_INTERNAL
#include "protocol/proto_int.h"

#include <stdio.h>
#include <string.h>
#include "common/guc.h"
#include "common/typio.h"
#include "common/utf8.h"
#include "executor/executor.h"
#include "planner/plan.h"

/* ---------- reading frontend messages ---------- */

static _Noreturn void msg_bad(const char *what)
{
    err_raise(ERRCODE_PROTOCOL_VIOLATION, "%s", what);
}

int32_t proto_msg_int32(ProtoMsg *m)
{
    if (m->len - m->pos < 4)
        msg_bad("insufficient data left in message");
    const unsigned char *p = (const unsigned char *)m->data + m->pos;
    m->pos += 4;
    return (int32_t)(((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3]);
}

int16_t proto_msg_int16(ProtoMsg *m)
{
    if (m->len - m->pos < 2)
        msg_bad("insufficient data left in message");
    const unsigned char *p = (const unsigned char *)m->data + m->pos;
    m->pos += 2;
    return (int16_t)(((unsigned)p[0] << 8) | p[1]);
}

const char *proto_msg_string(ProtoMsg *m)
{
    const char *s = m->data + m->pos;
    const char *nul = memchr(s, '\0', m->len - m->pos);
    if (!nul)
        msg_bad("invalid string in message");
    m->pos += (size_t)(nul - s) + 1;
    return s;
}

const char *proto_msg_text(ProtoMsg *m)
{
    size_t start = m->pos;
    const char *s = proto_msg_string(m);
    utf8_verify(s, m->pos - start - 1);
    return s;
}

const char *proto_msg_bytes(ProtoMsg *m, size_t len)
{
    if (m->len - m->pos < len)
        msg_bad("insufficient data left in message");
    const char *p = m->data + m->pos;
    m->pos += len;
    return p;
}

void proto_msg_end(ProtoMsg *m)
{
    if (m->pos != m->len)
        msg_bad("invalid message format");
}

/* ---------- building backend messages ---------- */

size_t proto_msg_begin(StrBuf *sb, char type)
{
    size_t start = sb->len;
    strbuf_append_char(sb, type);
    strbuf_append_be32(sb, 0);
    return start;
}

void proto_msg_finish(StrBuf *sb, size_t offset)
{
    strbuf_put_be32_at(sb, offset + 1, (uint32_t)(sb->len - offset - 1));
}

void proto_msg_put_string(StrBuf *sb, const char *s)
{
    strbuf_append(sb, s, strlen(s) + 1);
}

static const char *severity_name(ErrSeverity s)
{
    switch (s) {
    case ERR_SEV_DEBUG: return "DEBUG";
    case ERR_SEV_LOG: return "LOG";
    case ERR_SEV_INFO: return "INFO";
    case ERR_SEV_NOTICE: return "NOTICE";
    case ERR_SEV_WARNING: return "WARNING";
    case ERR_SEV_ERROR: return "ERROR";
    case ERR_SEV_FATAL: return "FATAL";
    case ERR_SEV_PANIC: return "PANIC";
    }
    return "ERROR";
}

static void put_field(StrBuf *sb, char code, const char *value)
{
    if (!value[0])
        return;
    strbuf_append_char(sb, code);
    proto_msg_put_string(sb, value);
}

/* CONTEXT ('W') of the next ErrorResponse: ErrorData has no such field,
 * so the statement that knows it (COPY) leaves it here. */
static _Thread_local char error_context[512];

void proto_error_set_context(const char *context)
{
    snprintf(error_context, sizeof error_context, "%s", context);
}

/* ErrorResponse and NoticeResponse share the field layout. */
static void send_fields(ProtoConn *c, char type, const ErrorData *e)
{
    StrBuf *sb = &c->out;
    size_t start = proto_msg_begin(sb, type);
    const char *sev = severity_name(e->severity);
    put_field(sb, 'S', sev);
    put_field(sb, 'V', sev);
    put_field(sb, 'C', e->sqlstate[0] ? e->sqlstate : "XX000");
    strbuf_append_char(sb, 'M');
    proto_msg_put_string(sb, e->message);
    put_field(sb, 'D', e->detail);
    put_field(sb, 'H', e->hint);
    if (e->position > 0) {
        char pos[16];
        snprintf(pos, sizeof pos, "%d", e->position);
        put_field(sb, 'P', pos);
    }
    if (type == 'E') {
        put_field(sb, 'W', error_context);
        error_context[0] = '\0';
    }
    put_field(sb, 's', e->schema_name);
    put_field(sb, 't', e->table_name);
    put_field(sb, 'c', e->column_name);
    put_field(sb, 'n', e->constraint_name);
    strbuf_append_char(sb, '\0');
    proto_msg_finish(sb, start);
}

void proto_send_error(ProtoConn *c, const ErrorData *e)
{
    send_fields(c, 'E', e);
}

void proto_send_notice(ProtoConn *c, const ErrorData *e)
{
    send_fields(c, 'N', e);
}

void proto_send_simple(ProtoConn *c, char type)
{
    proto_msg_finish(&c->out, proto_msg_begin(&c->out, type));
}

void proto_send_command_complete(ProtoConn *c, const char *tag)
{
    size_t start = proto_msg_begin(&c->out, 'C');
    proto_msg_put_string(&c->out, tag);
    proto_msg_finish(&c->out, start);
}

void proto_send_ready(ProtoConn *c, char txn_status)
{
    size_t start = proto_msg_begin(&c->out, 'Z');
    strbuf_append_char(&c->out, txn_status);
    proto_msg_finish(&c->out, start);
}

void proto_send_parameter_status(ProtoConn *c, const char *name, const char *value)
{
    size_t start = proto_msg_begin(&c->out, 'S');
    proto_msg_put_string(&c->out, name);
    proto_msg_put_string(&c->out, value);
    proto_msg_finish(&c->out, start);
}

void proto_send_auth(ProtoConn *c, int32_t code, const void *data, size_t len)
{
    size_t start = proto_msg_begin(&c->out, 'R');
    strbuf_append_be32(&c->out, (uint32_t)code);
    if (len)
        strbuf_append(&c->out, data, len);
    proto_msg_finish(&c->out, start);
}

/* ---------- RowDescription ---------- */

void proto_send_row_description(ProtoConn *c, const Plan *plan, const int16_t *formats)
{
    StrBuf *sb = &c->out;
    size_t start = proto_msg_begin(sb, 'T');
    strbuf_append_be16(sb, (uint16_t)plan->ncols);
    for (int i = 0; i < plan->ncols; i++) {
        const ResultColumn *col = &plan->cols[i];
        const TypeInfo *ti = type_info(col->type.oid);
        proto_msg_put_string(sb, col->name ? col->name : "?column?");
        strbuf_append_be32(sb, col->table_oid);
        strbuf_append_be16(sb, (uint16_t)col->attnum);
        strbuf_append_be32(sb, col->type.oid);
        strbuf_append_be16(sb, (uint16_t)(ti ? ti->typlen : -1));
        strbuf_append_be32(sb, (uint32_t)col->type.typmod);
        strbuf_append_be16(sb, (uint16_t)(formats ? formats[i] : 0));
    }
    proto_msg_finish(sb, start);
}

/* ---------- DataRow streaming ---------- */

bool proto_binary_supported(uint32_t oid)
{
    switch (oid) {
    case TYPE_BOOL: case TYPE_INT2: case TYPE_INT4: case TYPE_INT8:
    case TYPE_FLOAT4: case TYPE_FLOAT8: case TYPE_TEXT: case TYPE_VARCHAR:
    case TYPE_BPCHAR: case TYPE_NAME: case TYPE_UNKNOWN: case TYPE_DATE:
    case TYPE_TIMESTAMP: case TYPE_NUMERIC: case TYPE_TIMESTAMPTZ: case TYPE_TIME:
    case TYPE_UUID: case TYPE_BYTEA: case TYPE_INTERVAL: case TYPE_JSON: case TYPE_JSONB:
    /* catalog types: oid and reg* are unsigned 4-byte integers on the wire,
     * "char" its one byte (PostgreSQL's oidsend / charsend) */
    case TYPE_OID: case TYPE_REGPROC: case TYPE_REGCLASS: case TYPE_REGTYPE:
    case TYPE_REGNAMESPACE: case TYPE_CHAR:
    case TYPE_REGPROCEDURE: case TYPE_REGROLE:
        return true;
    default:   /* arrays: when their element type is (binary_array.c) */
        return type_is_array(oid) && proto_binary_supported(type_element_of(oid));
    }
}

typedef struct RowSink {
    ProtoConn *c;
    const Plan *plan;
    const int16_t *formats;
    OutputOptions opt;
    StrRef **cols;      /* per column: VEC_CAPACITY values of the current batch */
    uint64_t rows;      /* DataRows sent by this run */
} RowSink;

/* Big-endian copy of a fixed-width value (binary format). */
static void put_be(char *dst, const void *src, size_t size)
{
    const unsigned char *s = src;
    for (size_t i = 0; i < size; i++)
        dst[i] = (char)s[size - 1 - i];
}

/* Binary form of one column of a batch into out[] (bytes in arena). */
void proto_binary_column(const Vector *v, const Batch *b, MemArena *arena, StrRef *out)
{
    if (v->phys == PHYS_STR) {
        for (uint32_t i = 0; i < b->count; i++) {
            uint32_t row = batch_row(b, i);
            if (!vec_is_valid(v, row)) {
                out[i].ptr = NULL;
                continue;
            }
            out[i] = ((const StrRef *)v->data)[v->is_const ? 0 : row];
            if (v->type.oid == TYPE_NUMERIC)
                out[i] = proto_numeric_send(out[i], arena);
            else if (v->type.oid == TYPE_INTERVAL)
                out[i] = proto_interval_send(out[i], arena);
            else if (v->type.oid == TYPE_JSON || v->type.oid == TYPE_JSONB)
                out[i] = proto_json_send(v->type.oid, out[i], arena);
            else if (type_is_array(v->type.oid))
                out[i] = proto_array_send(out[i], arena);
            if (!out[i].ptr)
                out[i].ptr = "";
        }
        return;
    }
    size_t size = phys_size(v->phys);
    char *buf = mem_alloc(arena, size * b->count);
    for (uint32_t i = 0; i < b->count; i++) {
        uint32_t row = batch_row(b, i);
        if (!vec_is_valid(v, row)) {
            out[i].ptr = NULL;
            continue;
        }
        const char *src = (const char *)v->data + size * (v->is_const ? 0 : row);
        put_be(buf + size * i, src, size);
        out[i].ptr = buf + size * i;
        out[i].len = (uint32_t)size;
    }
}

static void sink_batch(void *ctx, const Batch *b)
{
    RowSink *rs = ctx;
    ProtoConn *c = rs->c;
    MemArena *arena = c->session->batch_arena;
    int ncols = rs->plan->ncols;
    for (int col = 0; col < ncols; col++) {
        if (rs->formats && rs->formats[col] == 1)
            proto_binary_column(&b->cols[col], b, arena, rs->cols[col]);
        else
            type_output_vector(&b->cols[col], b->sel, b->count, &rs->opt, arena, rs->cols[col]);
    }
    StrBuf *sb = &c->out;
    rs->rows += b->count;
    for (uint32_t i = 0; i < b->count; i++) {
        size_t start = proto_msg_begin(sb, 'D');
        strbuf_append_be16(sb, (uint16_t)ncols);
        for (int col = 0; col < ncols; col++) {
            const StrRef *s = &rs->cols[col][i];
            if (!s->ptr) {
                strbuf_append_be32(sb, UINT32_MAX);   /* -1: NULL */
                continue;
            }
            strbuf_append_be32(sb, s->len);
            strbuf_append(sb, s->ptr, s->len);
        }
        proto_msg_finish(sb, start);
    }
    mem_arena_reset(arena);
    if (sb->len >= PROTO_SEND_FLUSH)
        proto_conn_flush(c);
}

bool proto_run_portal(ProtoConn *c, ExecPortal *portal, const Plan *plan,
                      const int16_t *formats, uint64_t max_rows, uint64_t *rows_sent)
{
    RowSink rs = {.c = c, .plan = plan, .formats = formats};
    rs.opt = OUTPUT_OPTIONS_DEFAULT;
    rs.opt.extra_float_digits = guc_extra_float_digits(c->session->guc);
    /* Per-column text arrays for one batch, alive for this call only. */
    StrRef **cols = NULL;
    MemArena *tmp = NULL;
    if (plan->ncols > 0) {
        tmp = mem_arena_create("proto result columns");
        cols = mem_alloc(tmp, sizeof(StrRef *) * (size_t)plan->ncols);
        for (int i = 0; i < plan->ncols; i++)
            cols[i] = mem_alloc(tmp, sizeof(StrRef) * VEC_CAPACITY);
    }
    rs.cols = cols;
    ExecSink sink = {.ctx = &rs, .on_batch = sink_batch};
    bool done;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        done = exec_portal_run(portal, plan->ncols > 0 ? max_rows : 0, &sink);
        err_pop(&jmp);
    } else {
        mem_arena_destroy(tmp);
        mem_arena_reset(c->session->batch_arena);
        err_rethrow();
    }
    mem_arena_destroy(tmp);
    if (rows_sent)
        *rows_sent = rs.rows;
    return done;
}
