/*
 * run_write.c — the run writer: buffers sorted rows into row groups, encodes
 * and compresses each column chunk, writes blocks with CRC32C, per-group
 * bloom filters, and a footer; then fsync, rename, fsync the directory.
 *
 * Memory: the writer's buffers are malloc'd (StrBuf) or in the writer's own
 * arenas; run_writer_finish/abort free everything. Strings of the current
 * group live in str_arena[cur]; a flush copies the leftover rows' strings to
 * the other arena and swaps, so a group can be cut anywhere.
 */
#define STRATA_RUNS_INTERNAL
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <lz4.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <zstd.h>
#include "common/error.h"
#include "storage/runs/bloom.h"
#include "storage/runs/encode.h"
#include "storage/runs/run_int.h"

#define WRITE_BUF_MAX (1u << 20)

typedef struct ColBuf {
    uint8_t *values;     /* cap values of the phys */
    uint64_t *validity;  /* cap/64 + 1 words; bit set = valid */
    uint32_t nulls;      /* NULLs among the buffered rows */
} ColBuf;

struct RunWriter {
    char *path, *tmp_path;
    int fd;
    MemArena *arena;          /* writer lifetime: schema, key copies */
    MemArena *str_arena[2];   /* strings of the buffered rows */
    int cur;
    MemArena *scratch;        /* per chunk temporaries */
    RunSchema schema;
    PhysType *phys;           /* ncols + RUN_META_COLS */
    RunWriteOptions opts;
    uint32_t group_rows;
    ColBuf *cols;             /* ncols + RUN_META_COLS (version, deleted) */
    uint32_t n, cap;
    /* output */
    StrBuf out;               /* pending file bytes */
    uint64_t offset;          /* file offset of out.data[0] */
    StrBuf groups;            /* serialized group records */
    StrBuf chunk, comp;
    uint64_t *hashes;
    uint32_t ngroups;
    uint64_t nrows, ntomb, minv, maxv;
    ZSTD_CCtx *zctx;
    bool have_last;           /* last_key valid (buffer empty after a flush) */
    Value *last_key;
    uint64_t last_version;
};

static void io_error(const char *what, const char *path)
{
    err_raise(ERRCODE_IO_ERROR, "could not %s file \"%s\": %s", what, path, strerror(errno));
}

static void out_flush(RunWriter *w)
{
    size_t done = 0;
    while (done < w->out.len) {
        ssize_t k = write(w->fd, w->out.data + done, w->out.len - done);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            io_error("write to", w->tmp_path);
        done += (size_t)k;
    }
    w->offset += w->out.len;
    strbuf_reset(&w->out);
}

static uint64_t out_pos(const RunWriter *w) { return w->offset + w->out.len; }

static void out_bytes(RunWriter *w, const void *p, size_t len)
{
    strbuf_append(&w->out, p, len);
    if (w->out.len >= WRITE_BUF_MAX)
        out_flush(w);
}

static void grow(RunWriter *w, uint32_t need)
{
    if (need <= w->cap)
        return;
    uint32_t cap = w->cap ? w->cap : w->group_rows + VEC_CAPACITY;
    while (cap < need)
        cap *= 2;
    for (int c = 0; c < w->schema.ncols + RUN_META_COLS; c++) {
        ColBuf *b = &w->cols[c];
        b->values = realloc(b->values, (size_t)cap * phys_size(w->phys[c]) + 8);
        b->validity = realloc(b->validity, ((size_t)cap / 64 + 1) * 8);
        if (!b->values || !b->validity)
            err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    }
    w->cap = cap;
}

RunWriter *run_writer_create(const char *path, const RunSchema *schema, const RunWriteOptions *opts)
{
    ERR_ASSERT(schema->nkeys >= 1 && schema->nkeys <= RUN_KEYS_MAX);
    ERR_ASSERT(schema->ncols >= 1 && schema->ncols <= RUN_COLS_MAX);
    MemArena *arena = mem_arena_create("run writer");
    RunWriter *w = MEM_NEW(arena, RunWriter);
    w->arena = arena;
    w->fd = -1;
    w->path = mem_strdup(arena, path);
    w->tmp_path = mem_printf(arena, "%s.tmp", path);
    w->opts = opts ? *opts : (RunWriteOptions){0};
    w->group_rows = w->opts.group_rows ? w->opts.group_rows : RUN_GROUP_ROWS_DEFAULT;
    if (w->opts.bloom_bits_per_key == 0)
        w->opts.bloom_bits_per_key = 10;
    if (w->opts.zstd_level == 0)
        w->opts.zstd_level = 3;
    int nc = schema->ncols;
    SqlType *types = mem_alloc(arena, sizeof(SqlType) * (size_t)nc);
    memcpy(types, schema->types, sizeof(SqlType) * (size_t)nc);
    int *keys = mem_alloc(arena, sizeof(int) * (size_t)schema->nkeys);
    memcpy(keys, schema->key_cols, sizeof(int) * (size_t)schema->nkeys);
    w->schema = (RunSchema){nc, types, schema->nkeys, keys};
    w->phys = mem_alloc(arena, sizeof(PhysType) * (size_t)(nc + RUN_META_COLS));
    for (int c = 0; c < nc; c++)
        w->phys[c] = type_phys(types[c]);
    w->phys[nc] = PHYS_I64;
    w->phys[nc + 1] = PHYS_BOOL;
    for (int k = 0; k < schema->nkeys; k++)
        ERR_ASSERT(keys[k] >= 0 && keys[k] < nc);
    w->cols = MEM_NEW_ARRAY(arena, ColBuf, nc + RUN_META_COLS);
    w->last_key = MEM_NEW_ARRAY(arena, Value, schema->nkeys);
    w->str_arena[0] = mem_arena_create("run writer strings");
    w->str_arena[1] = mem_arena_create("run writer strings");
    w->scratch = mem_arena_create("run writer scratch");
    strbuf_init(&w->out);
    strbuf_init(&w->groups);
    strbuf_init(&w->chunk);
    strbuf_init(&w->comp);
    w->minv = UINT64_MAX;
    w->fd = open(w->tmp_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (w->fd < 0) {
        int e = errno;
        run_writer_abort(w);
        errno = e;
        err_raise(ERRCODE_IO_ERROR, "could not create file \"%s.tmp\": %s", path, strerror(e));
    }
    uint8_t head[RUN_HEADER_SIZE];
    memcpy(head, RUN_MAGIC, 8);
    run__put32(head + 8, RUN_FORMAT_VERSION);
    run__put32(head + 12, crc32c(0, head, 12));
    out_bytes(w, head, sizeof head);
    grow(w, 1);
    return w;
}

void run_writer_abort(RunWriter *w)
{
    if (!w)
        return;
    if (w->fd >= 0) {
        close(w->fd);
        unlink(w->tmp_path);
    }
    for (int c = 0; c < w->schema.ncols + RUN_META_COLS; c++) {
        free(w->cols[c].values);
        free(w->cols[c].validity);
    }
    free(w->hashes);
    strbuf_free(&w->out);
    strbuf_free(&w->groups);
    strbuf_free(&w->chunk);
    strbuf_free(&w->comp);
    if (w->zctx)
        ZSTD_freeCCtx(w->zctx);
    mem_arena_destroy(w->str_arena[0]);
    mem_arena_destroy(w->str_arena[1]);
    mem_arena_destroy(w->scratch);
    mem_arena_destroy(w->arena);
}

/* ---------------------------------------------------------------- appending */

static int key_cmp_rows(const RunWriter *w, uint32_t a, uint32_t b)
{
    for (int k = 0; k < w->schema.nkeys; k++) {
        int c = w->schema.key_cols[k];
        int r = run__cmp_elem(w->phys[c], w->cols[c].values, a, w->cols[c].values, b);
        if (r)
            return r;
    }
    return 0;
}

/* Row `row` (buffered) against the last row before it; raises if out of order. */
static void check_order(const RunWriter *w, uint32_t row)
{
    int r = 0;
    uint64_t prev_version;
    if (row > 0) {
        r = key_cmp_rows(w, row, row - 1);
        prev_version = ((uint64_t *)w->cols[w->schema.ncols].values)[row - 1];
    } else if (w->have_last) {
        for (int k = 0; k < w->schema.nkeys && r == 0; k++) {
            int c = w->schema.key_cols[k];
            r = run__cmp_elem_value(w->phys[c], w->cols[c].values, row, &w->last_key[k]);
        }
        prev_version = w->last_version;
    } else {
        return;
    }
    uint64_t v = ((uint64_t *)w->cols[w->schema.ncols].values)[row];
    if (r < 0 || (r == 0 && v > prev_version))
        err_raise(ERRCODE_INTERNAL_ERROR, "run \"%s\": rows appended out of key order", w->path);
}

/* check_order for rows [from, from + n); a single bigint key (a table
 * run's row number) in one typed loop. */
static void check_batch_order(const RunWriter *w, uint32_t from, uint32_t n)
{
    int c = w->schema.key_cols[0];
    if (w->schema.nkeys != 1 || w->phys[c] != PHYS_I64 || (from == 0 && !w->have_last)) {
        for (uint32_t i = 0; i < n; i++)
            check_order(w, from + i);
        return;
    }
    const int64_t *key = (const int64_t *)(const void *)w->cols[c].values;
    const uint64_t *ver = (const uint64_t *)(const void *)w->cols[w->schema.ncols].values;
    int64_t prev = from > 0 ? key[from - 1] : w->last_key[0].u.i64;
    uint64_t prev_version = from > 0 ? ver[from - 1] : w->last_version;
    bool bad = false;
    for (uint32_t i = from; i < from + n; i++) {
        bad |= key[i] < prev || (key[i] == prev && ver[i] > prev_version);
        prev = key[i];
        prev_version = ver[i];
    }
    if (bad)
        err_raise(ERRCODE_INTERNAL_ERROR, "run \"%s\": rows appended out of key order", w->path);
}

/* Validity bits of rows [w->n, w->n + count) from v; NULLs counted. */
static void copy_validity(RunWriter *w, ColBuf *cb, const Vector *v, const Batch *b)
{
    bool all_valid = v->validity == NULL || (v->is_const && vec_is_valid(v, 0));
    for (uint32_t i = 0; i < b->count; i++) {
        uint32_t dst = w->n + i;
        uint64_t bit = 1ull << (dst & 63);
        if (all_valid || vec_is_valid(v, batch_row(b, i))) {
            cb->validity[dst >> 6] |= bit;
        } else {
            cb->validity[dst >> 6] &= ~bit;
            cb->nulls++;
        }
    }
}

/* Strings of the batch into one block of the current string arena (a
 * NULL is the empty string). */
static void copy_strings(RunWriter *w, ColBuf *cb, const Vector *v, const Batch *b)
{
    const StrRef *src = v->data;
    StrRef *dst = (StrRef *)cb->values + w->n;
    size_t total = 0;
    for (uint32_t i = 0; i < b->count; i++) {
        uint32_t r = v->is_const ? 0 : batch_row(b, i);
        total += vec_is_valid(v, r) ? src[r].len : 0;
    }
    char *p = total ? mem_alloc(w->str_arena[w->cur], total) : NULL;
    for (uint32_t i = 0; i < b->count; i++) {
        uint32_t r = v->is_const ? 0 : batch_row(b, i);
        uint32_t len = vec_is_valid(v, r) ? src[r].len : 0;
        if (len == 0) {
            dst[i] = (StrRef){"", 0};
            continue;
        }
        memcpy(p, src[r].ptr, len);
        dst[i] = (StrRef){p, len};
        p += len;
    }
}

/* Fixed-width values: one copy when the rows are contiguous; a NULL's
 * value is zero (encodings and zone maps never see garbage). */
static void copy_fixed(RunWriter *w, int c, const Vector *v, const Batch *b)
{
    ColBuf *cb = &w->cols[c];
    size_t width = phys_size(w->phys[c]);
    uint8_t *dst = cb->values + (size_t)w->n * width;
    const uint8_t *src = v->data;
    if (!v->is_const && !b->sel) {
        memcpy(dst, src, (size_t)b->count * width);
    } else {
        for (uint32_t i = 0; i < b->count; i++)
            memcpy(dst + i * width, src + (size_t)(v->is_const ? 0 : batch_row(b, i)) * width, width);
    }
    if (v->validity == NULL)
        return;
    for (uint32_t i = 0; i < b->count; i++)
        if (!vec_is_valid(v, v->is_const ? 0 : batch_row(b, i)))
            memset(dst + i * width, 0, width);
}

static void copy_column(RunWriter *w, int c, const Vector *v, const Batch *b)
{
    ColBuf *cb = &w->cols[c];
    copy_validity(w, cb, v, b);
    if (w->phys[c] == PHYS_STR)
        copy_strings(w, cb, v, b);
    else
        copy_fixed(w, c, v, b);
}

static void flush_group(RunWriter *w, uint32_t rows);

void run_writer_append(RunWriter *w, const Batch *batch, const uint64_t *versions,
                       const bool *deleted)
{
    ERR_ASSERT(batch->ncols >= w->schema.ncols);
    grow(w, w->n + batch->count);
    int nc = w->schema.ncols;
    for (int c = 0; c < nc; c++)
        copy_column(w, c, &batch->cols[c], batch);
    uint64_t *ver = (uint64_t *)w->cols[nc].values;
    bool *del = (bool *)w->cols[nc + 1].values;
    for (uint32_t i = 0; i < batch->count; i++) {
        uint32_t dst = w->n + i;
        ver[dst] = versions[i];
        del[dst] = deleted ? deleted[i] : false;
        w->cols[nc].validity[dst >> 6] |= 1ull << (dst & 63);
        w->cols[nc + 1].validity[dst >> 6] |= 1ull << (dst & 63);
    }
    for (int k = 0; k < w->schema.nkeys; k++)
        if (w->cols[w->schema.key_cols[k]].nulls)
            err_raise(ERRCODE_INTERNAL_ERROR, "run \"%s\": NULL in a key column", w->path);
    check_batch_order(w, w->n, batch->count);
    w->n += batch->count;
    while (w->n >= w->group_rows) {
        uint32_t cut = w->group_rows;
        while (cut < w->n && key_cmp_rows(w, cut, cut - 1) == 0)
            cut++;
        if (cut == w->n)
            break; /* the last key's versions may continue: wait */
        flush_group(w, cut);
    }
}

/* ---------------------------------------------------------------- groups */

static void put_u8(StrBuf *b, uint8_t v) { strbuf_append(b, &v, 1); }
static void put_u32(StrBuf *b, uint32_t v) { strbuf_append(b, &v, 4); }
static void put_u64(StrBuf *b, uint64_t v) { strbuf_append(b, &v, 8); }

/* One value in the footer: 8 bytes for fixed types (ints widened, floats as
 * double), u32 length + bytes for strings. */
static void put_elem(StrBuf *b, PhysType p, const void *arr, size_t i)
{
    Value v;
    run__elem_to_value(p, arr, i, &v);
    switch (p) {
    case PHYS_BOOL: put_u64(b, v.u.b); break;
    case PHYS_I16: put_u64(b, (uint64_t)(int64_t)v.u.i16); break;
    case PHYS_I32: put_u64(b, (uint64_t)(int64_t)v.u.i32); break;
    case PHYS_I64: put_u64(b, (uint64_t)v.u.i64); break;
    case PHYS_F32: { double d = v.u.f32; strbuf_append(b, &d, 8); } break;
    case PHYS_F64: strbuf_append(b, &v.u.f64, 8); break;
    case PHYS_STR: put_u32(b, v.u.str.len); strbuf_append(b, v.u.str.ptr, v.u.str.len); break;
    }
}

static void put_key(RunWriter *w, StrBuf *b, uint32_t row)
{
    for (int k = 0; k < w->schema.nkeys; k++) {
        int c = w->schema.key_cols[k];
        put_elem(b, w->phys[c], w->cols[c].values, row);
    }
}

/* Frame payload[0..len) as a block (compressing per the options when it
 * pays), append it to the file; returns the block's total length. */
static uint32_t write_block(RunWriter *w, bool compress, uint8_t enc, uint8_t flags, uint32_t rows,
                            const uint8_t *payload, uint32_t len)
{
    uint8_t codec = RUN_COMP_NONE;
    const uint8_t *stored = payload;
    uint32_t stored_len = len;
    if (compress && len >= 64 && w->opts.compression != RUN_COMP_NONE) {
        size_t got = 0;
        strbuf_reset(&w->comp);
        if (w->opts.compression == RUN_COMP_LZ4) {
            int bound = LZ4_compressBound((int)len);
            strbuf_reserve(&w->comp, (size_t)bound);
            int k = LZ4_compress_default((const char *)payload, w->comp.data, (int)len, bound);
            got = k > 0 ? (size_t)k : 0;
        } else {
            size_t bound = ZSTD_compressBound(len);
            strbuf_reserve(&w->comp, bound);
            if (!w->zctx)
                w->zctx = ZSTD_createCCtx();
            size_t k = ZSTD_compressCCtx(w->zctx, w->comp.data, bound, payload, len,
                                         w->opts.zstd_level);
            got = ZSTD_isError(k) ? 0 : k;
        }
        if (got > 0 && got < len - len / 16) { /* keep it only when it saves > 6% */
            codec = (uint8_t)w->opts.compression;
            stored = (const uint8_t *)w->comp.data;
            stored_len = (uint32_t)got;
        }
    }
    uint8_t head[RUN_BLOCK_HEAD] = {codec, enc, flags, 0};
    run__put32(head + 4, rows);
    run__put32(head + 8, len);
    run__put32(head + 12, stored_len);
    uint8_t crc[4];
    run__put32(crc, crc32c(crc32c(0, head, sizeof head), stored, stored_len));
    out_bytes(w, head, sizeof head);
    out_bytes(w, stored, stored_len);
    out_bytes(w, crc, sizeof crc);
    return RUN_BLOCK_HEAD + stored_len + RUN_BLOCK_CRC;
}

/* The rows holding the least and the greatest value among the valid rows
 * [0, rows) of a chunk (the first of equal ones), as run__cmp_elem orders
 * them; false when every row is NULL. One typed loop per physical type:
 * this runs for every value a run stores, so no call per value. */
#define ZONE_LESS_INT(a, b) ((a) < (b))
#define ZONE_LESS_FLOAT(a, b) (!isnan(a) && (isnan(b) || (a) < (b)))  /* NaN sorts last */
#define DEFINE_ZONE_RANGE(name, T, LESS)                                                        \
    static bool name(const void *values, const uint64_t *validity, uint32_t rows, int64_t *mn, \
                     int64_t *mx)                                                              \
    {                                                                                          \
        const T *v = values;                                                                   \
        uint32_t lo = 0, hi = 0, i = 0;                                                        \
        if (validity)                                                                          \
            while (i < rows && !((validity[i >> 6] >> (i & 63)) & 1))                          \
                i++;                                                                           \
        if (i == rows)                                                                         \
            return false;                                                                      \
        lo = hi = i;                                                                           \
        for (; i < rows; i++) {                                                                \
            if (validity && !((validity[i >> 6] >> (i & 63)) & 1))                             \
                continue;                                                                      \
            lo = LESS(v[i], v[lo]) ? i : lo;                                                   \
            hi = LESS(v[hi], v[i]) ? i : hi;                                                   \
        }                                                                                      \
        *mn = lo;                                                                              \
        *mx = hi;                                                                              \
        return true;                                                                           \
    }
DEFINE_ZONE_RANGE(zone_range_u8, uint8_t, ZONE_LESS_INT)
DEFINE_ZONE_RANGE(zone_range_i16, int16_t, ZONE_LESS_INT)
DEFINE_ZONE_RANGE(zone_range_i32, int32_t, ZONE_LESS_INT)
DEFINE_ZONE_RANGE(zone_range_i64, int64_t, ZONE_LESS_INT)
DEFINE_ZONE_RANGE(zone_range_f32, float, ZONE_LESS_FLOAT)
DEFINE_ZONE_RANGE(zone_range_f64, double, ZONE_LESS_FLOAT)

/* Strings: no zone map when a value is longer than RUN_ZONE_STR_MAX. */
static bool zone_range_str(const void *values, const uint64_t *validity, uint32_t rows,
                           int64_t *mn, int64_t *mx)
{
    const StrRef *v = values;
    int64_t lo = -1, hi = -1;
    for (uint32_t i = 0; i < rows; i++) {
        if (validity && !((validity[i >> 6] >> (i & 63)) & 1))
            continue;
        if (v[i].len > RUN_ZONE_STR_MAX)
            return false;
        if (lo < 0) {
            lo = hi = i;
            continue;
        }
        if (run__cmp_elem(PHYS_STR, v, i, v, (size_t)lo) < 0)
            lo = i;
        else if (run__cmp_elem(PHYS_STR, v, i, v, (size_t)hi) > 0)
            hi = i;
    }
    *mn = lo;
    *mx = hi;
    return lo >= 0;
}

/* Zone map of rows [0, rows) of column c, appended to the group record. */
static void put_zone(RunWriter *w, int c, uint32_t rows, uint32_t nulls)
{
    const ColBuf *b = &w->cols[c];
    PhysType p = w->phys[c];
    const uint64_t *validity = nulls ? b->validity : NULL;
    int64_t mn = -1, mx = -1;
    bool any = false;
    switch (p) {
    case PHYS_BOOL: any = zone_range_u8(b->values, validity, rows, &mn, &mx); break;
    case PHYS_I16: any = zone_range_i16(b->values, validity, rows, &mn, &mx); break;
    case PHYS_I32: any = zone_range_i32(b->values, validity, rows, &mn, &mx); break;
    case PHYS_I64: any = zone_range_i64(b->values, validity, rows, &mn, &mx); break;
    case PHYS_F32: any = zone_range_f32(b->values, validity, rows, &mn, &mx); break;
    case PHYS_F64: any = zone_range_f64(b->values, validity, rows, &mn, &mx); break;
    case PHYS_STR: any = zone_range_str(b->values, validity, rows, &mn, &mx); break;
    }
    put_u32(&w->groups, nulls);
    put_u8(&w->groups, any);
    if (any) {
        put_elem(&w->groups, p, b->values, (size_t)mn);
        put_elem(&w->groups, p, b->values, (size_t)mx);
    }
}

static void write_chunk(RunWriter *w, int c, uint32_t rows)
{
    ColBuf *b = &w->cols[c];
    uint32_t nulls = 0;
    for (uint32_t i = 0; i < rows; i++)
        nulls += !((b->validity[i >> 6] >> (i & 63)) & 1);
    strbuf_reset(&w->chunk);
    if (nulls)
        strbuf_append(&w->chunk, b->validity, ((size_t)rows + 63) / 64 * 8);
    mem_arena_reset(w->scratch);
    uint8_t enc = run__encode(w->phys[c], b->values, nulls ? b->validity : NULL, rows, &w->chunk,
                              w->scratch);
    uint64_t off = out_pos(w);
    uint32_t len = write_block(w, true, enc, nulls ? RUN_BLOCK_HAS_VALIDITY : 0, rows,
                               (const uint8_t *)w->chunk.data, (uint32_t)w->chunk.len);
    put_u64(&w->groups, off);
    put_u32(&w->groups, len);
    put_u32(&w->groups, (uint32_t)w->chunk.len);
    put_zone(w, c, rows, nulls);
}

/* Returns the number of distinct keys of the group. */
static uint32_t write_bloom(RunWriter *w, uint32_t rows)
{
    w->hashes = realloc(w->hashes, (size_t)rows * 8 + 8);
    if (!w->hashes)
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    uint32_t n = 0;
    for (uint32_t i = 0; i < rows; i++) {
        if (i > 0 && key_cmp_rows(w, i, i - 1) == 0)
            continue;
        uint64_t h = 0;
        for (int k = 0; k < w->schema.nkeys; k++) {
            int c = w->schema.key_cols[k];
            h = run__hash_combine(h, run__hash_elem(w->phys[c], w->cols[c].values, i));
        }
        w->hashes[n++] = h;
    }
    size_t nbytes = run__bloom_size(n, w->opts.bloom_bits_per_key);
    int k = run__bloom_k(w->opts.bloom_bits_per_key);
    strbuf_reset(&w->chunk);
    put_u32(&w->chunk, (uint32_t)k);
    strbuf_reserve(&w->chunk, nbytes);
    memset(w->chunk.data + 4, 0, nbytes);
    w->chunk.len += nbytes;
    run__bloom_add((uint8_t *)w->chunk.data + 4, nbytes, k, w->hashes, n);
    uint64_t off = out_pos(w);
    uint32_t len = write_block(w, false, RUN_ENC_RAW, 0, n, (const uint8_t *)w->chunk.data,
                               (uint32_t)w->chunk.len);
    put_u64(&w->groups, off);
    put_u32(&w->groups, len);
    return n;
}

/* Keep rows [rows, n) as the start of the next group. */
static void shift_leftover(RunWriter *w, uint32_t rows)
{
    uint32_t left = w->n - rows;
    MemArena *next = w->str_arena[1 - w->cur];
    for (int c = 0; c < w->schema.ncols + RUN_META_COLS; c++) {
        ColBuf *b = &w->cols[c];
        size_t width = phys_size(w->phys[c]);
        memmove(b->values, b->values + (size_t)rows * width, (size_t)left * width);
        b->nulls = 0;
        for (uint32_t i = 0; i < left; i++) {
            uint32_t s = rows + i;
            bool valid = (b->validity[s >> 6] >> (s & 63)) & 1;
            b->validity[i >> 6] = (b->validity[i >> 6] & ~(1ull << (i & 63))) | ((uint64_t)valid << (i & 63));
            b->nulls += !valid;
            if (w->phys[c] == PHYS_STR) {
                StrRef *sr = &((StrRef *)b->values)[i];
                char *p = mem_alloc(next, sr->len);
                memcpy(p, sr->ptr, sr->len);
                sr->ptr = p;
            }
        }
    }
    mem_arena_reset(w->str_arena[w->cur]);
    w->cur = 1 - w->cur;
    w->n = left;
}

static void flush_group(RunWriter *w, uint32_t rows)
{
    int nc = w->schema.ncols;
    put_u64(&w->groups, w->nrows);
    put_u32(&w->groups, rows);
    put_key(w, &w->groups, 0);
    put_key(w, &w->groups, rows - 1);
    uint32_t distinct = write_bloom(w, rows);
    put_u8(&w->groups, distinct == rows ? RUN_GROUP_DISTINCT : 0);
    for (int c = 0; c < nc + RUN_META_COLS; c++)
        write_chunk(w, c, rows);
    const uint64_t *ver = (const uint64_t *)w->cols[nc].values;
    const bool *del = (const bool *)w->cols[nc + 1].values;
    for (uint32_t i = 0; i < rows; i++) {
        w->minv = ver[i] < w->minv ? ver[i] : w->minv;
        w->maxv = ver[i] > w->maxv ? ver[i] : w->maxv;
        w->ntomb += del[i];
    }
    /* remember the last key for order checks once the buffer is empty */
    for (int k = 0; k < w->schema.nkeys; k++) {
        int c = w->schema.key_cols[k];
        run__elem_to_value(w->phys[c], w->cols[c].values, rows - 1, &w->last_key[k]);
        if (w->phys[c] == PHYS_STR)
            w->last_key[k].u.str.ptr = mem_strndup(w->arena, w->last_key[k].u.str.ptr,
                                                   w->last_key[k].u.str.len);
    }
    w->last_version = ver[rows - 1];
    w->have_last = true;
    w->nrows += rows;
    w->ngroups++;
    shift_leftover(w, rows);
}

/* ---------------------------------------------------------------- finish */

static void fsync_dir(const char *path)
{
    char *copy = strdup(path);
    if (!copy)
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    int fd = open(dirname(copy), O_RDONLY | O_CLOEXEC);
    int e = errno;
    if (fd < 0 || fsync(fd) != 0) {
        e = errno;
        if (fd >= 0)
            close(fd);
        free(copy);
        errno = e;
        io_error("fsync directory of", path);
    }
    close(fd);
    free(copy);
}

static void write_footer(RunWriter *w)
{
    StrBuf f;
    strbuf_init(&f);
    put_u32(&f, (uint32_t)w->schema.ncols);
    put_u32(&f, (uint32_t)w->schema.nkeys);
    put_u32(&f, w->ngroups);
    put_u32(&f, 0);
    put_u64(&f, w->nrows);
    put_u64(&f, w->ntomb);
    put_u64(&f, w->nrows ? w->minv : 0);
    put_u64(&f, w->nrows ? w->maxv : 0);
    for (int c = 0; c < w->schema.ncols; c++) {
        put_u32(&f, w->schema.types[c].oid);
        put_u32(&f, (uint32_t)w->schema.types[c].typmod);
    }
    for (int k = 0; k < w->schema.nkeys; k++)
        put_u32(&f, (uint32_t)w->schema.key_cols[k]);
    strbuf_append(&f, w->groups.data, w->groups.len);
    uint64_t off = out_pos(w);
    uint32_t len = write_block(w, false, RUN_ENC_RAW, 0, 0, (const uint8_t *)f.data, (uint32_t)f.len);
    strbuf_free(&f);
    uint8_t tr[RUN_TRAILER_SIZE];
    run__put64(tr, off);
    run__put32(tr + 8, len);
    run__put32(tr + 12, RUN_FORMAT_VERSION);
    memcpy(tr + 16, RUN_MAGIC, 8);
    out_bytes(w, tr, sizeof tr);
    out_flush(w);
}

void run_writer_finish(RunWriter *w, RunInfo *info)
{
    if (w->n > 0)
        flush_group(w, w->n);
    write_footer(w);
    if (!w->opts.no_fsync && fsync(w->fd) != 0)
        io_error("fsync", w->tmp_path);
    if (close(w->fd) != 0) {
        w->fd = -1;
        io_error("close", w->tmp_path);
    }
    w->fd = -1;
    if (rename(w->tmp_path, w->path) != 0) {
        int e = errno;
        unlink(w->tmp_path);
        errno = e;
        io_error("rename", w->tmp_path);
    }
    if (!w->opts.no_fsync)
        fsync_dir(w->path);
    if (info) {
        *info = (RunInfo){.nrows = w->nrows, .ntombstones = w->ntomb, .ngroups = w->ngroups,
                          .min_version = w->nrows ? w->minv : 0, .max_version = w->nrows ? w->maxv : 0,
                          .file_bytes = w->offset};
    }
    run_writer_abort(w);
}
