/*
 * run_read.c — the run reader: open and validate a run file (mmap), parse
 * its footer into per-group metadata, verify and decode blocks, bloom
 * probes, point lookups; and the key order/hash helpers shared with the
 * writer and the merge.
 *
 * Every block is checked against its CRC32C each time it is decoded; bloom
 * blocks are checked once per reader, when it opens (an atomic flag per group). Any
 * mismatch or malformed byte raises XX001 naming the file: never wrong data.
 */
#define STRATA_RUNS_INTERNAL
#include <errno.h>
#include <fcntl.h>
#include <lz4.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>
#include "common/error.h"
#include "storage/runs/bloom.h"
#include "storage/runs/encode.h"
#include "storage/runs/run_int.h"

/* ---------------------------------------------------------------- keys */

static int cmp_f64(double a, double b)
{
    bool an = isnan(a), bn = isnan(b);
    if (an || bn)
        return an == bn ? 0 : an ? 1 : -1;
    return a < b ? -1 : a > b ? 1 : 0;
}

static int cmp_str(StrRef a, StrRef b)
{
    int r = memcmp(a.ptr, b.ptr, a.len < b.len ? a.len : b.len);
    if (r)
        return r < 0 ? -1 : 1;
    return a.len < b.len ? -1 : a.len > b.len ? 1 : 0;
}

void run__elem_to_value(PhysType p, const void *a, size_t i, Value *out)
{
    out->is_null = false;
    switch (p) {
    case PHYS_BOOL: out->u.b = ((const uint8_t *)a)[i] != 0; break;
    case PHYS_I16: out->u.i16 = ((const int16_t *)a)[i]; break;
    case PHYS_I32: out->u.i32 = ((const int32_t *)a)[i]; break;
    case PHYS_I64: out->u.i64 = ((const int64_t *)a)[i]; break;
    case PHYS_F32: out->u.f32 = ((const float *)a)[i]; break;
    case PHYS_F64: out->u.f64 = ((const double *)a)[i]; break;
    case PHYS_STR: out->u.str = ((const StrRef *)a)[i]; break;
    }
}

int run__cmp_values(PhysType p, const Value *a, const Value *b)
{
    switch (p) {
    case PHYS_BOOL: return (int)a->u.b - (int)b->u.b;
    case PHYS_I16: return (a->u.i16 > b->u.i16) - (a->u.i16 < b->u.i16);
    case PHYS_I32: return (a->u.i32 > b->u.i32) - (a->u.i32 < b->u.i32);
    case PHYS_I64: return (a->u.i64 > b->u.i64) - (a->u.i64 < b->u.i64);
    case PHYS_F32: return cmp_f64(a->u.f32, b->u.f32);
    case PHYS_F64: return cmp_f64(a->u.f64, b->u.f64);
    case PHYS_STR: return cmp_str(a->u.str, b->u.str);
    }
    return 0;
}

int run__cmp_elem(PhysType p, const void *a, size_t i, const void *b, size_t j)
{
    switch (p) {
#define CMP(T) { T x = ((const T *)a)[i], y = ((const T *)b)[j]; return (x > y) - (x < y); }
    case PHYS_BOOL: CMP(uint8_t)
    case PHYS_I16: CMP(int16_t)
    case PHYS_I32: CMP(int32_t)
    case PHYS_I64: CMP(int64_t)
#undef CMP
    case PHYS_F32: return cmp_f64(((const float *)a)[i], ((const float *)b)[j]);
    case PHYS_F64: return cmp_f64(((const double *)a)[i], ((const double *)b)[j]);
    case PHYS_STR: return cmp_str(((const StrRef *)a)[i], ((const StrRef *)b)[j]);
    }
    return 0;
}

int run__cmp_elem_value(PhysType p, const void *a, size_t i, const Value *v)
{
    Value x;
    run__elem_to_value(p, a, i, &x);
    return run__cmp_values(p, &x, v);
}

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

uint64_t run__hash_value(PhysType p, const Value *v)
{
    switch (p) {
    case PHYS_BOOL: return mix64(v->u.b);
    case PHYS_I16: return mix64((uint64_t)(int64_t)v->u.i16);
    case PHYS_I32: return mix64((uint64_t)(int64_t)v->u.i32);
    case PHYS_I64: return mix64((uint64_t)v->u.i64);
    case PHYS_F32:
    case PHYS_F64: {
        double d = p == PHYS_F32 ? (double)v->u.f32 : v->u.f64;
        uint64_t bits;
        if (d == 0)
            d = 0; /* -0 = 0 */
        if (isnan(d))
            d = NAN;
        memcpy(&bits, &d, 8);
        return mix64(bits);
    }
    case PHYS_STR: {
        uint64_t h = 0x9e3779b97f4a7c15ull ^ v->u.str.len;
        const uint8_t *s = (const uint8_t *)v->u.str.ptr;
        uint32_t n = v->u.str.len, i = 0;
        for (; i + 8 <= n; i += 8)
            h = mix64(h ^ run__get64(s + i));
        uint64_t tail = 0;
        memcpy(&tail, s + i, n - i);
        return mix64(h ^ tail);
    }
    }
    return 0;
}

uint64_t run__hash_elem(PhysType p, const void *a, size_t i)
{
    Value v;
    run__elem_to_value(p, a, i, &v);
    return run__hash_value(p, &v);
}

/* ---------------------------------------------------------------- blocks */

_Noreturn void run__corrupt(const char *path, const char *what)
{
    ErrorData *e = err_begin(ERRCODE_DATA_CORRUPTED);
    err_message(e, "invalid checksum in file \"%s\"", path);
    err_detail(e, "%s", what);
    err_throw();
}

static pthread_key_t zstd_key;
static pthread_once_t zstd_once = PTHREAD_ONCE_INIT;

static void zstd_free(void *p) { ZSTD_freeDCtx(p); }
static void zstd_key_init(void) { pthread_key_create(&zstd_key, zstd_free); }

static ZSTD_DCtx *zstd_dctx(void)
{
    pthread_once(&zstd_once, zstd_key_init);
    ZSTD_DCtx *d = pthread_getspecific(zstd_key);
    if (!d) {
        d = ZSTD_createDCtx();
        if (!d)
            err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
        pthread_setspecific(zstd_key, d);
    }
    return d;
}

const uint8_t *run__block_payload(const RunReader *r, uint64_t off, uint32_t block_len,
                                  uint8_t *buf, uint32_t buf_cap, uint32_t *raw_len,
                                  uint8_t *encoding, uint8_t *flags, uint32_t *rows)
{
    if (block_len < RUN_BLOCK_HEAD + RUN_BLOCK_CRC || off > r->size || block_len > r->size - off)
        run__corrupt(r->path, "block outside the file");
    const uint8_t *b = r->map + off;
    uint32_t stored = run__get32(b + 12), raw = run__get32(b + 8);
    if (stored != block_len - RUN_BLOCK_HEAD - RUN_BLOCK_CRC)
        run__corrupt(r->path, "bad block length");
    if (crc32c(0, b, RUN_BLOCK_HEAD + stored) != run__get32(b + RUN_BLOCK_HEAD + stored))
        run__corrupt(r->path, "block checksum mismatch");
    *encoding = b[1];
    *flags = b[2];
    *rows = run__get32(b + 4);
    *raw_len = raw;
    const uint8_t *src = b + RUN_BLOCK_HEAD;
    switch (b[0]) {
    case RUN_COMP_NONE:
        if (raw != stored)
            run__corrupt(r->path, "bad block length");
        return src;
    case RUN_COMP_LZ4:
        if (raw > buf_cap ||
            LZ4_decompress_safe((const char *)src, (char *)buf, (int)stored, (int)raw) != (int)raw)
            run__corrupt(r->path, "LZ4 block does not decompress");
        return buf;
    case RUN_COMP_ZSTD: {
        if (raw > buf_cap)
            run__corrupt(r->path, "bad block length");
        size_t k = ZSTD_decompressDCtx(zstd_dctx(), buf, buf_cap, src, stored);
        if (ZSTD_isError(k) || k != raw)
            run__corrupt(r->path, "ZSTD block does not decompress");
        return buf;
    }
    default:
        run__corrupt(r->path, "unknown block compression");
    }
}

PhysType run__col_phys(const RunReader *r, int col)
{
    if (col < r->schema.ncols)
        return r->phys[col];
    return col == r->schema.ncols ? PHYS_I64 : PHYS_BOOL;
}

void run__chunk_decode(RunReader *r, uint32_t g, int col, void *values, uint64_t *validity,
                       uint8_t *raw, RunChunk *out)
{
    ERR_ASSERT(g < r->info.ngroups && col >= 0 && col < r->schema.ncols + RUN_META_COLS);
    const RunChunkMeta *m = &r->groups[g].chunks[col];
    uint32_t raw_len, rows;
    uint8_t enc, flags;
    const uint8_t *p = run__block_payload(r, m->offset, m->block_len, raw, m->raw_len, &raw_len,
                                          &enc, &flags, &rows);
    uint32_t n = r->groups[g].rows;
    if (rows != n || raw_len != m->raw_len)
        run__corrupt(r->path, "chunk does not match the footer");
    out->phys = run__col_phys(r, col);
    out->count = n;
    out->values = values;
    out->validity = NULL;
    size_t vbytes = ((size_t)n + 63) / 64 * 8;
    if (flags & RUN_BLOCK_HAS_VALIDITY) {
        if (raw_len < vbytes)
            run__corrupt(r->path, "chunk too short");
        memcpy(validity, p, vbytes);
        out->validity = validity;
        p += vbytes;
        raw_len -= (uint32_t)vbytes;
    }
    if (!run__decode(out->phys, enc, p, raw_len, n, values))
        run__corrupt(r->path, "malformed column chunk");
}

void run_chunk_read(RunReader *r, uint32_t g, int col, MemArena *arena, RunChunk *out)
{
    ERR_ASSERT(g < r->info.ngroups && col >= 0 && col < r->schema.ncols + RUN_META_COLS);
    uint32_t n = r->groups[g].rows;
    void *values = mem_alloc(arena, (size_t)n * phys_size(run__col_phys(r, col)) + 8);
    uint64_t *validity = mem_alloc(arena, ((size_t)n + 63) / 64 * 8);
    uint8_t *raw = mem_alloc(arena, r->groups[g].chunks[col].raw_len + 8);
    run__chunk_decode(r, g, col, values, validity, raw, out);
}

void run_chunk_to_vector(const RunChunk *c, uint32_t start, uint32_t count, Vector *v)
{
    ERR_ASSERT(count <= VEC_CAPACITY && start + count <= c->count);
    v->is_const = false;
    v->data = (uint8_t *)c->values + (size_t)start * phys_size(c->phys);
    if (!c->validity) {
        v->validity = NULL;
        return;
    }
    memset(v->validity_buf, 0, VEC_VALIDITY_WORDS * 8);
    for (uint32_t i = 0; i < count; i++) {
        uint32_t s = start + i;
        v->validity_buf[i >> 6] |= ((c->validity[s >> 6] >> (s & 63)) & 1) << (i & 63);
    }
    v->validity = v->validity_buf;
}

/* ---------------------------------------------------------------- open */

typedef struct Parse {
    const RunReader *r;
    const uint8_t *p, *end;
} Parse;

static const uint8_t *take(Parse *ps, size_t n)
{
    if ((size_t)(ps->end - ps->p) < n)
        run__corrupt(ps->r->path, "footer too short");
    const uint8_t *at = ps->p;
    ps->p += n;
    return at;
}
static uint32_t take32(Parse *ps) { return run__get32(take(ps, 4)); }
static uint64_t take64(Parse *ps) { return run__get64(take(ps, 8)); }

static void take_value(Parse *ps, PhysType p, Value *v)
{
    v->is_null = false;
    if (p == PHYS_STR) {
        uint32_t len = take32(ps);
        v->u.str = (StrRef){(const char *)take(ps, len), len};
        return;
    }
    uint64_t x = take64(ps);
    double d;
    memcpy(&d, &x, 8);
    switch (p) {
    case PHYS_BOOL: v->u.b = x != 0; break;
    case PHYS_I16: v->u.i16 = (int16_t)x; break;
    case PHYS_I32: v->u.i32 = (int32_t)x; break;
    case PHYS_I64: v->u.i64 = (int64_t)x; break;
    case PHYS_F32: v->u.f32 = (float)d; break;
    default: v->u.f64 = d; break;
    }
}

static Value *take_key(Parse *ps, RunReader *r)
{
    Value *k = MEM_NEW_ARRAY(r->arena, Value, r->schema.nkeys);
    for (int i = 0; i < r->schema.nkeys; i++)
        take_value(ps, r->key_phys[i], &k[i]);
    return k;
}

static void parse_schema(Parse *ps, RunReader *r)
{
    uint32_t ncols = take32(ps), nkeys = take32(ps);
    r->info.ngroups = take32(ps);
    take32(ps);
    r->info.nrows = take64(ps);
    r->info.ntombstones = take64(ps);
    r->info.min_version = take64(ps);
    r->info.max_version = take64(ps);
    if (ncols == 0 || ncols > RUN_COLS_MAX || nkeys == 0 || nkeys > RUN_KEYS_MAX ||
        r->info.ngroups > r->size / 64)
        run__corrupt(r->path, "bad footer header");
    SqlType *types = MEM_NEW_ARRAY(r->arena, SqlType, ncols);
    r->phys = MEM_NEW_ARRAY(r->arena, PhysType, ncols);
    for (uint32_t c = 0; c < ncols; c++) {
        types[c].oid = take32(ps);
        types[c].typmod = (int32_t)take32(ps);
        if (!type_info(types[c].oid))
            run__corrupt(r->path, "unknown column type");
        r->phys[c] = type_phys(types[c]);
    }
    int *keys = MEM_NEW_ARRAY(r->arena, int, nkeys);
    r->key_phys = MEM_NEW_ARRAY(r->arena, PhysType, nkeys);
    for (uint32_t k = 0; k < nkeys; k++) {
        keys[k] = (int)take32(ps);
        if (keys[k] < 0 || keys[k] >= (int)ncols)
            run__corrupt(r->path, "bad key column");
        r->key_phys[k] = r->phys[keys[k]];
    }
    r->schema = (RunSchema){(int)ncols, types, (int)nkeys, keys};
}

static void parse_group(Parse *ps, RunReader *r, RunGroupMeta *g, uint64_t expect_first)
{
    g->first_row = take64(ps);
    g->rows = take32(ps);
    if (g->first_row != expect_first || g->rows == 0)
        run__corrupt(r->path, "bad row group");
    g->first_key = take_key(ps, r);
    g->last_key = take_key(ps, r);
    g->bloom_offset = take64(ps);
    g->bloom_len = take32(ps);
    g->flags = *take(ps, 1);
    int n = r->schema.ncols + RUN_META_COLS;
    g->chunks = MEM_NEW_ARRAY(r->arena, RunChunkMeta, n);
    for (int c = 0; c < n; c++) {
        RunChunkMeta *m = &g->chunks[c];
        m->offset = take64(ps);
        m->block_len = take32(ps);
        m->raw_len = take32(ps);
        m->zone.null_count = take32(ps);
        m->zone.row_count = g->rows;
        m->zone.has_minmax = *take(ps, 1) != 0;
        if (m->zone.has_minmax) {
            take_value(ps, run__col_phys(r, c), &m->zone.min);
            take_value(ps, run__col_phys(r, c), &m->zone.max);
        }
        r->max_raw_len = m->raw_len > r->max_raw_len ? m->raw_len : r->max_raw_len;
    }
    r->max_group_rows = g->rows > r->max_group_rows ? g->rows : r->max_group_rows;
}

static void bloom_verify(const RunReader *r, uint32_t g);

static void parse_footer(RunReader *r)
{
    const uint8_t *m = r->map;
    if (r->size < RUN_HEADER_SIZE + RUN_TRAILER_SIZE || memcmp(m, RUN_MAGIC, 8) != 0 ||
        crc32c(0, m, 12) != run__get32(m + 12))
        run__corrupt(r->path, "bad run file header");
    const uint8_t *t = m + r->size - RUN_TRAILER_SIZE;
    if (memcmp(t + 16, RUN_MAGIC, 8) != 0)
        run__corrupt(r->path, "bad run file trailer");
    if (run__get32(m + 8) != RUN_FORMAT_VERSION || run__get32(t + 12) != RUN_FORMAT_VERSION)
        err_raise(ERRCODE_DATA_CORRUPTED, "run file \"%s\" has format version %u, expected %u",
                  r->path, run__get32(m + 8), RUN_FORMAT_VERSION);
    uint64_t off = run__get64(t);
    uint32_t len = run__get32(t + 8);
    if (off + len != r->size - RUN_TRAILER_SIZE)
        run__corrupt(r->path, "bad footer offset");
    uint32_t raw_len, rows;
    uint8_t enc, flags;
    const uint8_t *f = run__block_payload(r, off, len, NULL, 0, &raw_len, &enc, &flags, &rows);
    Parse ps = {r, f, f + raw_len};
    parse_schema(&ps, r);
    r->groups = MEM_NEW_ARRAY(r->arena, RunGroupMeta, r->info.ngroups);
    uint64_t first = 0;
    for (uint32_t g = 0; g < r->info.ngroups; g++) {
        parse_group(&ps, r, &r->groups[g], first);
        first += r->groups[g].rows;
    }
    if (first != r->info.nrows || ps.p != ps.end)
        run__corrupt(r->path, "footer does not add up");
    if (r->info.ngroups > 0) {
        r->info.min_key = r->groups[0].first_key;
        r->info.max_key = r->groups[r->info.ngroups - 1].last_key;
    }
    r->info.file_bytes = r->size;
    r->verified = MEM_NEW_ARRAY(r->arena, _Atomic unsigned char, r->info.ngroups + 1);
}

/* Every bloom block is checked at open: a run read only by scans (or
 * loaded by recovery) never probes its filters, and damage there must not
 * wait for the first point lookup to surface (about 1.25 bytes per key to
 * checksum). */
static void verify_blooms(const RunReader *r)
{
    for (uint32_t g = 0; g < r->info.ngroups; g++)
        bloom_verify(r, g);
}

static RunReader *open_run(const char *path, bool lookups_only)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        err_raise(ERRCODE_IO_ERROR, "could not open file \"%s\": %s", path, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        err_raise(ERRCODE_IO_ERROR, "could not stat file \"%s\": %s", path, strerror(e));
    }
    MemArena *arena = mem_arena_create("run reader");
    RunReader *r = MEM_NEW(arena, RunReader);
    r->arena = arena;
    r->path = mem_strdup(arena, path);
    r->fd = fd;
    r->size = (size_t)st.st_size;
    if (r->size > 0) {
        void *m = mmap(NULL, r->size, PROT_READ, MAP_SHARED, fd, 0);
        if (m == MAP_FAILED) {
            int e = errno;
            run_close(r);
            err_raise(ERRCODE_IO_ERROR, "could not map file \"%s\": %s", path, strerror(e));
        }
        r->map = m;
    }
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        parse_footer(r);
        if (!lookups_only)
            verify_blooms(r);
        err_pop(&jmp);
    } else {
        run_close(r);
        err_rethrow();
    }
    if (lookups_only && r->map)
        (void)madvise((void *)r->map, r->size, MADV_RANDOM);  /* advice: no readahead */
    return r;
}

RunReader *run_open(const char *path) { return open_run(path, false); }

RunReader *run_open_for_lookups(const char *path) { return open_run(path, true); }

void run_close(RunReader *r)
{
    if (!r)
        return;
    if (r->map)
        munmap((void *)r->map, r->size);
    if (r->fd >= 0)
        close(r->fd);
    mem_arena_destroy(r->arena);
}

const char *run_path(const RunReader *r) { return r->path; }
void run_info(const RunReader *r, RunInfo *out) { *out = r->info; }
const RunSchema *run_schema(const RunReader *r) { return &r->schema; }
uint32_t run_group_count(const RunReader *r) { return r->info.ngroups; }

uint64_t run_group_first_row(const RunReader *r, uint32_t g)
{
    ERR_ASSERT(g < r->info.ngroups);
    return r->groups[g].first_row;
}

uint32_t run_group_rows(const RunReader *r, uint32_t g)
{
    ERR_ASSERT(g < r->info.ngroups);
    return r->groups[g].rows;
}

void run_group_zone(const RunReader *r, uint32_t g, int col, RunZone *out)
{
    ERR_ASSERT(g < r->info.ngroups && col >= 0 && col < r->schema.ncols + RUN_META_COLS);
    *out = r->groups[g].chunks[col].zone;
}

/* ---------------------------------------------------------------- lookups */

static int key_cmp(const RunReader *r, const Value *a, const Value *b)
{
    for (int k = 0; k < r->schema.nkeys; k++) {
        int c = run__cmp_values(r->key_phys[k], &a[k], &b[k]);
        if (c)
            return c;
    }
    return 0;
}

static uint64_t key_hash(const RunReader *r, const Value *key)
{
    uint64_t h = 0;
    for (int k = 0; k < r->schema.nkeys; k++)
        h = run__hash_combine(h, run__hash_value(r->key_phys[k], &key[k]));
    return h;
}

/* The group that may hold key (first group whose last key >= key), or -1. */
static int64_t find_group(const RunReader *r, const Value *key)
{
    uint32_t lo = 0, hi = r->info.ngroups;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (key_cmp(r, r->groups[mid].last_key, key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == r->info.ngroups || key_cmp(r, r->groups[lo].first_key, key) > 0)
        return -1;
    return lo;
}

/* Check group g's bloom block (CRC32C, shape) once per reader; XX001 when damaged. */
static void bloom_verify(const RunReader *r, uint32_t g)
{
    if (atomic_load_explicit(&r->verified[g], memory_order_acquire))
        return;
    const RunGroupMeta *gm = &r->groups[g];
    uint32_t raw_len, rows;
    uint8_t enc, flags;
    (void)run__block_payload(r, gm->bloom_offset, gm->bloom_len, NULL, 0, &raw_len, &enc, &flags,
                             &rows);
    if (raw_len < 12 || (raw_len - 4) % 8 != 0 || enc != RUN_ENC_RAW)
        run__corrupt(r->path, "bad bloom filter");
    atomic_store_explicit(&r->verified[g], 1, memory_order_release);
}

static bool bloom_group(const RunReader *r, uint32_t g, const Value *key)
{
    const RunGroupMeta *gm = &r->groups[g];
    bloom_verify(r, g);
    const uint8_t *p = r->map + gm->bloom_offset + RUN_BLOCK_HEAD;
    uint32_t raw_len = gm->bloom_len - RUN_BLOCK_HEAD - RUN_BLOCK_CRC;
    int k = (int)run__get32(p);
    return run__bloom_probe(p + 4, raw_len - 4, k, key_hash(r, key));
}

bool run_bloom_maybe(const RunReader *r, const Value *key)
{
    int64_t g = find_group(r, key);
    return g >= 0 && bloom_group(r, (uint32_t)g, key);
}

int64_t run_find_group(const RunReader *r, const Value *key)
{
    int64_t g = find_group(r, key);
    return g >= 0 && bloom_group(r, (uint32_t)g, key) ? g : -1;
}

/* First row of group g whose key is >= key (in decoded key chunks). */
static uint32_t lower_bound(const RunReader *r, RunChunk *kc, uint32_t n, const Value *key)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int c = 0;
        for (int k = 0; k < r->schema.nkeys && c == 0; k++)
            c = run__cmp_elem_value(r->key_phys[k], kc[k].values, mid, &key[k]);
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

bool run_lookup(RunReader *r, const Value *key, uint64_t snapshot, MemArena *scratch,
                uint64_t *row, uint64_t *version, bool *deleted)
{
    int64_t g = find_group(r, key);
    if (g < 0 || !bloom_group(r, (uint32_t)g, key))
        return false;
    RunChunk kc[RUN_KEYS_MAX], vc, dc;
    for (int k = 0; k < r->schema.nkeys; k++)
        run_chunk_read(r, (uint32_t)g, r->schema.key_cols[k], scratch, &kc[k]);
    uint32_t n = r->groups[g].rows;
    uint32_t i = lower_bound(r, kc, n, key);
    if (i == n)
        return false;
    run_chunk_read(r, (uint32_t)g, r->schema.ncols, scratch, &vc);
    static const bool none[1];
    dc.values = (void *)none;  /* a run without tombstones: no flags to decode */
    if (r->info.ntombstones)
        run_chunk_read(r, (uint32_t)g, r->schema.ncols + 1, scratch, &dc);
    for (; i < n; i++) {
        int c = 0;
        for (int k = 0; k < r->schema.nkeys && c == 0; k++)
            c = run__cmp_elem_value(r->key_phys[k], kc[k].values, i, &key[k]);
        if (c != 0)
            return false;
        uint64_t v = ((const uint64_t *)vc.values)[i];
        if (v <= snapshot) {
            *row = r->groups[g].first_row + i;
            *version = v;
            *deleted = r->info.ntombstones && ((const bool *)dc.values)[i];
            return true;
        }
    }
    return false;
}

void run_fetch_row(RunReader *r, uint64_t row, int ncols, const int *cols, MemArena *arena,
                   Value *out)
{
    ERR_ASSERT(row < r->info.nrows);
    uint32_t lo = 0, hi = r->info.ngroups;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (r->groups[mid].first_row <= row)
            lo = mid;
        else
            hi = mid;
    }
    uint32_t i = (uint32_t)(row - r->groups[lo].first_row);
    for (int j = 0; j < ncols; j++) {
        if (cols[j] >= r->schema.ncols) {
            out[j].is_null = true;
            continue;
        }
        RunChunk c;
        run_chunk_read(r, lo, cols[j], arena, &c);
        if (c.validity && !((c.validity[i >> 6] >> (i & 63)) & 1)) {
            out[j].is_null = true;
            continue;
        }
        run__elem_to_value(c.phys, c.values, i, &out[j]);
        if (c.phys == PHYS_STR)
            out[j].u.str.ptr = mem_strndup(arena, out[j].u.str.ptr, out[j].u.str.len);
    }
}
