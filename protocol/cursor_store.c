/*
 * cursor_store.c — where a SQL cursor's rows come from: the executor
 * portal streaming forward, or the cursor's own store of the rows it has
 * produced (scrollable cursors; held cursors after COMMIT), and the
 * DataRows sent from either.
 *
 * The store is a list of chunks, each a Batch of VEC_CAPACITY dense rows in
 * the cursor's arena: an executor batch (any selection, constants) is
 * appended column by column, strings copied with one allocation per column
 * per batch. A FETCH sends a run of stored rows by pointing a selection
 * vector at them (descending for backward fetches), so DataRows are encoded
 * per batch exactly as results.c does for a query (one type dispatch per
 * column per batch). PostgreSQL keeps the same rows in a Sort/Material node
 * or a tuplestore; like it, a scrollable cursor's memory grows with the rows
 * it has produced.
 *
 * Which cursors may move backward (proto_cursor__backward_ok) follows
 * PostgreSQL 15's ExecSupportsBackwardScan over the plan it would make: see
 * the function.
 */
#define STRATA_PROTOCOL_INTERNAL
#include "protocol/cursor_int.h"

#include <string.h>
#include "common/guc.h"
#include "common/typio.h"
#include "executor/executor.h"
#include "planner/plan.h"

/*
 * PostgreSQL's rule for a cursor declared without SCROLL / NO SCROLL: it may
 * scroll when its plan supports backward scans. In PG 15 those are scans of
 * tables, functions, VALUES lists of two or more rows and CTEs, Sort, and
 * Limit / Append / subquery scans over such; a Result (SELECT without FROM,
 * a one-row VALUES, a constant-false WHERE) and Agg, joins, Unique,
 * SetOp, WindowAgg, ProjectSet do not. Strata's Filter and Project are
 * parts of PG's scan nodes (quals and target lists), so they pass through.
 */
static bool node_backward_ok(const PlanNode *n)
{
    if (n == NULL)
        return false;
    switch (n->kind) {
    case PLAN_SCAN:
    case PLAN_CATALOG_SCAN:
    case PLAN_FUNCTION_SCAN:
    case PLAN_CTE_SCAN:
    case PLAN_SORT:
        return true;
    case PLAN_VALUES:
        return n->nrows > 1;   /* one row: PG plans a Result */
    case PLAN_FILTER:
    case PLAN_PROJECT:
    case PLAN_LIMIT:
        return node_backward_ok(n->left);
    case PLAN_APPEND:
        for (int i = 0; i < n->nchildren; i++)
            if (!node_backward_ok(n->children[i]))
                return false;
        return true;
    default:
        return false;
    }
}

bool proto_cursor__backward_ok(const Plan *plan)
{
    return plan->kind == PLAN_STMT_QUERY && node_backward_ok(plan->root);
}

/* ---------- DataRows ---------- */

/* Encode every active row of b as a DataRow (results.c's sink, for a
 * batch whose selection the store chose). */
static void send_batch(const CursorDest *d, const Batch *b)
{
    ProtoConn *c = d->c;
    MemArena *arena = c->session->batch_arena;
    OutputOptions opt = OUTPUT_OPTIONS_DEFAULT;
    opt.extra_float_digits = guc_extra_float_digits(c->session->guc);
    int ncols = b->ncols;
    StrRef **cols = mem_alloc(arena, sizeof(StrRef *) * (size_t)(ncols > 0 ? ncols : 1));
    for (int col = 0; col < ncols; col++) {
        cols[col] = mem_alloc(arena, sizeof(StrRef) * (b->count ? b->count : 1));
        if (d->formats && d->formats[col] == 1)
            proto_binary_column(&b->cols[col], b, arena, cols[col]);
        else
            type_output_vector(&b->cols[col], b->sel, b->count, &opt, arena, cols[col]);
    }
    StrBuf *sb = &c->out;
    for (uint32_t i = 0; i < b->count; i++) {
        size_t start = proto_msg_begin(sb, 'D');
        strbuf_append_be16(sb, (uint16_t)ncols);
        for (int col = 0; col < ncols; col++) {
            const StrRef *s = &cols[col][i];
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
    if (sb->len >= PROTO_SEND_FLUSH && !d->no_flush)
        proto_conn_flush(c);
}

/* ---------- the store ---------- */

static Batch *store_chunk(ProtoPortal *p)
{
    ProtoCursor *cur = p->cursor;
    if (cur->nchunks == cur->chunks_cap) {
        int cap = cur->chunks_cap ? cur->chunks_cap * 2 : 8;
        Batch **grown = mem_alloc(p->arena, sizeof(Batch *) * (size_t)cap);
        if (cur->nchunks)
            memcpy(grown, cur->chunks, sizeof(Batch *) * (size_t)cur->nchunks);
        cur->chunks = grown;
        cur->chunks_cap = cap;
    }
    Batch *b = batch_create(p->arena, cur->ncols, cur->types);
    for (int i = 0; i < cur->ncols; i++) {
        memset(b->cols[i].validity_buf, 0xff, sizeof(uint64_t) * VEC_VALIDITY_WORDS);
        b->cols[i].validity = b->cols[i].validity_buf;
    }
    b->count = 0;
    cur->chunks[cur->nchunks++] = b;
    return b;
}

/* Copy rows [from, from+n) of the active rows of src into dst at dst->count. */
static void copy_column(MemArena *arena, const Vector *src, const Batch *sb, uint32_t from, uint32_t n,
                        Vector *dst, uint32_t at)
{
    size_t size = phys_size(src->phys);
    if (src->phys == PHYS_STR) {
        size_t bytes = 0;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t row = batch_row(sb, from + i);
            if (vec_is_valid(src, row))
                bytes += ((const StrRef *)src->data)[src->is_const ? 0 : row].len;
        }
        char *buf = mem_alloc(arena, bytes ? bytes : 1);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t row = batch_row(sb, from + i);
            StrRef *out = &((StrRef *)dst->data)[at + i];
            if (!vec_is_valid(src, row)) {
                dst->validity[(at + i) >> 6] &= ~(UINT64_C(1) << ((at + i) & 63));
                out->ptr = NULL;
                out->len = 0;
                continue;
            }
            StrRef s = ((const StrRef *)src->data)[src->is_const ? 0 : row];
            if (s.len)
                memcpy(buf, s.ptr, s.len);
            out->ptr = buf;
            out->len = s.len;
            buf += s.len;
        }
        return;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint32_t row = batch_row(sb, from + i);
        if (!vec_is_valid(src, row))
            dst->validity[(at + i) >> 6] &= ~(UINT64_C(1) << ((at + i) & 63));
        memcpy((char *)dst->data + size * (at + i), (const char *)src->data + size * (src->is_const ? 0 : row),
               size);
    }
}

/* Append every active row of b to the store. */
static void store_append(ProtoPortal *p, const Batch *b)
{
    ProtoCursor *cur = p->cursor;
    uint32_t done = 0;
    while (done < b->count) {
        Batch *chunk = cur->nchunks ? cur->chunks[cur->nchunks - 1] : NULL;
        if (chunk == NULL || chunk->count == VEC_CAPACITY)
            chunk = store_chunk(p);
        uint32_t n = b->count - done;
        if (n > VEC_CAPACITY - chunk->count)
            n = VEC_CAPACITY - chunk->count;
        for (int col = 0; col < cur->ncols; col++)
            copy_column(p->arena, &b->cols[col], b, done, n, &chunk->cols[col], chunk->count);
        chunk->count += n;
        done += n;
        cur->stored += n;
    }
}

typedef struct StoreSink {
    ProtoPortal *p;
    const CursorDest *d;   /* stream: send (or count) instead of storing */
    uint64_t rows;
} StoreSink;

static void on_batch_store(void *ctx, const Batch *b)
{
    StoreSink *ss = ctx;
    store_append(ss->p, b);
    ss->rows += b->count;
}

static void on_batch_stream(void *ctx, const Batch *b)
{
    StoreSink *ss = ctx;
    if (ss->d->send)
        send_batch(ss->d, b);
    ss->rows += b->count;
}

/* Run the executor portal for up to max_rows rows (0 = all) into the store
 * or the stream; marks exec_done when it finished. Returns the rows. */
static uint64_t exec_run(ProtoPortal *p, uint64_t max_rows, const CursorDest *stream)
{
    ProtoCursor *cur = p->cursor;
    if (cur->exec_done || p->portal == NULL)
        return 0;
    StoreSink ss = {.p = p, .d = stream};
    ExecSink sink = {.ctx = &ss, .on_batch = stream ? on_batch_stream : on_batch_store};
    if (exec_portal_run(p->portal, max_rows, &sink))
        cur->exec_done = true;
    cur->consumed += ss.rows;
    return ss.rows;
}

/* Make rows up to number want (1-based, query numbering) stored when the
 * query has them; returns the number of the last row available. */
static uint64_t store_fill(ProtoPortal *p, uint64_t want)
{
    ProtoCursor *cur = p->cursor;
    while (cur->base + cur->stored < want && !cur->exec_done) {
        uint64_t missing = want == UINT64_MAX ? 0 : want - (cur->base + cur->stored);
        exec_run(p, missing, NULL);
    }
    return cur->base + cur->stored;
}

/* Send stored rows first..last (1-based; descending when first > last). */
static void store_send(ProtoPortal *p, uint64_t first, uint64_t last, const CursorDest *d)
{
    ProtoCursor *cur = p->cursor;
    bool desc = first > last;
    uint64_t n = (desc ? first - last : last - first) + 1;
    uint16_t sel[VEC_CAPACITY];
    uint64_t row = first;
    while (n > 0) {
        uint64_t idx = row - 1 - cur->base;
        const Batch *chunk = cur->chunks[idx / VEC_CAPACITY];
        uint32_t off = (uint32_t)(idx % VEC_CAPACITY);
        uint32_t k = 0;
        while (n > 0) {
            sel[k++] = (uint16_t)off;
            n--;
            row = desc ? row - 1 : row + 1;
            if (desc ? off == 0 : off + 1 == chunk->count)
                break;
            off = desc ? off - 1 : off + 1;
        }
        Batch view = {.count = k, .sel = sel, .ncols = chunk->ncols, .cols = chunk->cols};
        send_batch(d, &view);
    }
}

uint64_t proto_cursor__scan_forward(ProtoPortal *p, uint64_t count, const CursorDest *d)
{
    ProtoCursor *cur = p->cursor;
    if (!cur->scroll && !cur->persisted) {   /* stream */
        uint64_t n = exec_run(p, count, d);
        cur->scan_pos = (count == 0 || n < count) ? cur->scan_pos + n + 1 : cur->scan_pos + n;
        return n;
    }
    uint64_t from = cur->scan_pos + 1;
    uint64_t want = count == 0 ? UINT64_MAX : cur->scan_pos + count;
    uint64_t avail = store_fill(p, want);
    uint64_t last = want < avail ? want : avail;
    uint64_t n = last >= from ? last - from + 1 : 0;
    if (n > 0 && d->send)
        store_send(p, from, last, d);
    if (count == 0 || n < count)
        cur->scan_pos = avail + 1;   /* ran off the end: the query is complete */
    else
        cur->scan_pos = last;
    return n;
}

uint64_t proto_cursor__scan_backward(ProtoPortal *p, uint64_t count, const CursorDest *d)
{
    ProtoCursor *cur = p->cursor;
    ERR_ASSERT(cur->scroll && cur->base == 0);
    uint64_t have = cur->scan_pos > 0 ? cur->scan_pos - 1 : 0;
    uint64_t n = (count == 0 || count > have) ? have : count;
    if (n > 0 && d->send)
        store_send(p, cur->scan_pos - 1, cur->scan_pos - n, d);
    if (count == 0 || n < count)
        cur->scan_pos = 0;
    else
        cur->scan_pos -= n;
    return n;
}

void proto_cursor__persist(ProtoPortal *p)
{
    ProtoCursor *cur = p->cursor;
    if (!cur->scroll) {
        /* forward-only: the store starts after the rows already read */
        cur->base = cur->consumed;
        cur->stored = 0;
        cur->nchunks = 0;
    }
    store_fill(p, UINT64_MAX);
    ExecPortal *ep = p->portal;
    p->portal = NULL;
    cur->persisted = true;
    if (ep)
        exec_portal_close(ep);
}
