/*
 * run_source.c — a run file as a merge source (run.h: run_merge_source):
 * hands the merge one row group's keys, versions and tombstone flags at a
 * time (versions not decoded once the merge calls keys_only, flags not
 * decoded when the group's zone map says it holds no tombstone), passes
 * clean groups through untouched (next_clean), and gathers columns for the
 * merge's surviving positions — per entry (gather) or per span of
 * consecutive rows (gather_spans) — from per-column caches of one decoded
 * row group. For the unordered scan by shadow lists it hands out whole
 * groups' rows without decoding anything (next_rows).
 */
#define STRATA_RUNS_INTERNAL
#include "common/error.h"
#include "storage/runs/run_int.h"


typedef struct ColCache {
    int64_t group;       /* decoded group, -1 = none */
    RunChunk chunk;
    void *values;
    uint64_t *validity;
    uint8_t *raw;
    uint32_t rows_cap, raw_cap; /* what the buffers hold */
    /* the cache that decoded into the buffers last: buffers may be shared
     * with a source read before this one (run_source_adopt) */
    const void **owner;
    const void *own_owner;
} ColCache;

typedef struct RunSource {
    RunReader *r;
    MergeSource ms;
    MemArena *arena;
    bool *skip;
    bool keys_only;      /* the merge doesn't read versions */
    bool keys_ready;     /* keys[] have buffers */
    uint32_t next_group;
    ColCache keys[RUN_KEYS_MAX + RUN_META_COLS]; /* the key block being merged */
    ColCache **cols;     /* gather caches per column, made on first use */
    int *key_of;         /* per column: its key position, or -1 */
    uint8_t *raw;        /* decompression buffer shared by fixed-width columns
                            (their decoded values don't point into it) */
} RunSource;

static void cache_init(RunSource *s, ColCache *c, int col)
{
    RunReader *r = s->r;
    c->group = -1;
    c->owner = &c->own_owner;
    c->rows_cap = r->max_group_rows;
    c->raw_cap = r->max_raw_len;
    c->values = mem_alloc(s->arena, (size_t)r->max_group_rows * phys_size(run__col_phys(r, col)) + 8);
    c->validity = mem_alloc(s->arena, ((size_t)r->max_group_rows + 63) / 64 * 8);
    if (run__col_phys(r, col) != PHYS_STR) {
        if (!s->raw)
            s->raw = mem_alloc(s->arena, (size_t)r->max_raw_len + 8);
        c->raw = s->raw;
    } else {
        c->raw = mem_alloc(s->arena, (size_t)r->max_raw_len + 8);
    }
}

static void cache_load(RunSource *s, ColCache *c, int col, uint32_t g)
{
    if (c->group == (int64_t)g && *c->owner == c)
        return;
    c->group = -1;
    run__chunk_decode(s->r, g, col, c->values, c->validity, c->raw, &c->chunk);
    c->group = g;
    *c->owner = c;
}

static bool run_source_next(void *ctx, MergeKeys *out)
{
    RunSource *s = ctx;
    RunReader *r = s->r;
    while (s->next_group < r->info.ngroups && s->skip && s->skip[s->next_group])
        s->next_group++;
    if (s->next_group >= r->info.ngroups)
        return false;
    uint32_t g = s->next_group++;
    int nk = r->schema.nkeys;
    if (!s->keys_ready) {
        for (int k = 0; k < nk; k++)
            cache_init(s, &s->keys[k], r->schema.key_cols[k]);
        cache_init(s, &s->keys[nk], r->schema.ncols);
        cache_init(s, &s->keys[nk + 1], r->schema.ncols + 1);
        s->keys_ready = true;
    }
    for (int k = 0; k < nk; k++) {
        cache_load(s, &s->keys[k], r->schema.key_cols[k], g);
        out->keys[k] = s->keys[k].chunk.values;
    }
    out->versions = NULL;
    if (!s->keys_only) {
        cache_load(s, &s->keys[nk], r->schema.ncols, g);
        out->versions = s->keys[nk].chunk.values;
    }
    /* no tombstone in the group (zone max of the flags false): no decode */
    const RunZone *dz = &r->groups[g].chunks[r->schema.ncols + 1].zone;
    out->deleted = NULL;
    if (!dz->has_minmax || dz->max.u.b) {
        cache_load(s, &s->keys[nk + 1], r->schema.ncols + 1, g);
        out->deleted = s->keys[nk + 1].chunk.values;
    }
    out->count = r->groups[g].rows;
    out->distinct = (r->groups[g].flags & RUN_GROUP_DISTINCT) != 0;
    out->rows = NULL;
    out->first_row = r->groups[g].first_row;
    return true;
}

static uint32_t run_source_next_clean(void *ctx, uint64_t snapshot, uint64_t *first_row)
{
    RunSource *s = ctx;
    RunReader *r = s->r;
    while (s->next_group < r->info.ngroups && s->skip && s->skip[s->next_group])
        s->next_group++;
    if (s->next_group >= r->info.ngroups)
        return 0;
    const RunGroupMeta *g = &r->groups[s->next_group];
    const RunZone *vz = &g->chunks[r->schema.ncols].zone;
    const RunZone *dz = &g->chunks[r->schema.ncols + 1].zone;
    if (!(g->flags & RUN_GROUP_DISTINCT) || !vz->has_minmax || (uint64_t)vz->max.u.i64 > snapshot ||
        !dz->has_minmax || dz->max.u.b)
        return 0;
    s->next_group++;
    *first_row = g->first_row;
    return g->rows;
}

/* The next group's rows, nothing decoded (the unordered scan by shadow
 * lists decides from the lists which rows survive). */
static uint32_t run_source_next_rows(void *ctx, uint64_t *first_row)
{
    RunSource *s = ctx;
    RunReader *r = s->r;
    while (s->next_group < r->info.ngroups &&
           ((s->skip && s->skip[s->next_group]) || r->groups[s->next_group].rows == 0))
        s->next_group++;
    if (s->next_group >= r->info.ngroups)
        return 0;
    const RunGroupMeta *g = &r->groups[s->next_group++];
    *first_row = g->first_row;
    return g->rows;
}

static uint32_t group_of(const RunReader *r, uint64_t row, uint32_t hint)
{
    if (hint < r->info.ngroups && row >= r->groups[hint].first_row &&
        row - r->groups[hint].first_row < r->groups[hint].rows)
        return hint;
    uint32_t lo = 0, hi = r->info.ngroups;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (r->groups[mid].first_row <= row)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Copy rows[0..n) (all in c's group, first row base) into out. */
static void gather_group(const ColCache *c, uint64_t base, const uint64_t *rows,
                         const uint16_t *idx, uint32_t n, Vector *out, MemArena *str_arena)
{
    const RunChunk *ch = &c->chunk;
    size_t w = phys_size(ch->phys);
    uint8_t *dst = out->data;
    const uint8_t *src = ch->values;
    if (ch->phys == PHYS_STR) {
        for (uint32_t i = 0; i < n; i++) {
            StrRef s = ((const StrRef *)src)[rows[i] - base];
            char *p = mem_alloc(str_arena, s.len);
            memcpy(p, s.ptr, s.len);
            ((StrRef *)dst)[idx[i]] = (StrRef){p, s.len};
        }
    } else if (rows[n - 1] - rows[0] == n - 1 && (uint32_t)idx[n - 1] - idx[0] == n - 1) {
        memcpy(dst + (size_t)idx[0] * w, src + (rows[0] - base) * w, (size_t)n * w);
    } else {
        switch (w) {
#define GATHER(T) for (uint32_t i = 0; i < n; i++) ((T *)dst)[idx[i]] = ((const T *)src)[rows[i] - base]; break
        case 1: GATHER(uint8_t);
        case 2: GATHER(uint16_t);
        case 4: GATHER(uint32_t);
        default: GATHER(uint64_t);
#undef GATHER
        }
    }
    if (ch->validity)
        for (uint32_t i = 0; i < n; i++) {
            uint64_t r = rows[i] - base;
            if (!((ch->validity[r >> 6] >> (r & 63)) & 1))
                vec_set_null(out, idx[i]);
        }
}

static void run_source_gather(void *ctx, int col, const uint64_t *rows, const uint16_t *idx,
                              uint32_t n, Vector *out, MemArena *str_arena)
{
    RunSource *s = ctx;
    RunReader *r = s->r;
    if (col >= r->schema.ncols) { /* added after this run was written */
        for (uint32_t i = 0; i < n; i++)
            vec_set_null(out, idx[i]);
        return;
    }
    ERR_ASSERT(col >= 0);
    if (!s->cols[col]) {
        s->cols[col] = MEM_NEW(s->arena, ColCache);
        cache_init(s, s->cols[col], col);
    }
    ColCache *own = s->cols[col], *key = s->key_of[col] >= 0 ? &s->keys[s->key_of[col]] : NULL;
    uint32_t i = 0;
    while (i < n) {
        uint32_t g = group_of(r, rows[i], own->group >= 0 ? (uint32_t)own->group : 0);
        ColCache *c = key && key->group == (int64_t)g ? key : own; /* keys decoded by the merge */
        cache_load(s, c, col, g);
        uint64_t base = r->groups[g].first_row, end = base + r->groups[g].rows;
        uint32_t j = n; /* the first row past the group (rows ascend) */
        if (rows[n - 1] >= end) {
            uint32_t lo = i + 1;
            j = n - 1;
            while (lo < j) {
                uint32_t mid = lo + (j - lo) / 2;
                if (rows[mid] < end)
                    lo = mid + 1;
                else
                    j = mid;
            }
        }
        gather_group(c, base, rows + i, idx + i, j - i, out, str_arena);
        i = j;
    }
}

/* Copy one span (rows of group g, cache c loaded) into out. */
static void gather_span(const ColCache *c, uint64_t base, const MergeSpan *sp, Vector *out,
                        MemArena *str_arena)
{
    const RunChunk *ch = &c->chunk;
    uint64_t from = sp->row - base;
    if (ch->phys == PHYS_STR) {
        const StrRef *src = (const StrRef *)ch->values + from;
        StrRef *dst = (StrRef *)out->data + sp->out_at;
        for (uint32_t i = 0; i < sp->len; i++) {
            char *p = mem_alloc(str_arena, src[i].len);
            memcpy(p, src[i].ptr, src[i].len);
            dst[i] = (StrRef){p, src[i].len};
        }
    } else {
        size_t w = phys_size(ch->phys);
        const uint8_t *src = (const uint8_t *)ch->values + from * w;
        uint8_t *dst = (uint8_t *)out->data + (size_t)sp->out_at * w;
        if (w == 8 && sp->len <= 4) /* short spans (interleaved sources): no memcpy call */
            for (uint32_t i = 0; i < sp->len; i++)
                memcpy(dst + i * 8, src + i * 8, 8);
        else
            memcpy(dst, src, (size_t)sp->len * w);
    }
    if (ch->validity)
        for (uint32_t i = 0; i < sp->len; i++) {
            uint64_t r = from + i;
            if (!((ch->validity[r >> 6] >> (r & 63)) & 1))
                vec_set_null(out, sp->out_at + i);
        }
}

static void run_source_gather_spans(void *ctx, int col, const MergeSpan *spans, uint32_t n,
                                    Vector *out, MemArena *str_arena)
{
    RunSource *s = ctx;
    RunReader *r = s->r;
    if (col >= r->schema.ncols) { /* added after this run was written */
        for (uint32_t i = 0; i < n; i++)
            for (uint32_t j = 0; j < spans[i].len; j++)
                vec_set_null(out, spans[i].out_at + j);
        return;
    }
    ERR_ASSERT(col >= 0);
    if (!s->cols[col]) {
        s->cols[col] = MEM_NEW(s->arena, ColCache);
        cache_init(s, s->cols[col], col);
    }
    ColCache *own = s->cols[col], *key = s->key_of[col] >= 0 ? &s->keys[s->key_of[col]] : NULL;
    uint32_t g = own->group >= 0 ? (uint32_t)own->group : 0;
    for (uint32_t i = 0; i < n; i++) {
        MergeSpan sp = spans[i];
        while (sp.len > 0) { /* a span may run on into the next group */
            g = group_of(r, sp.row, g);
            ColCache *c = key && key->group == (int64_t)g ? key : own; /* keys decoded by the merge */
            cache_load(s, c, col, g);
            uint64_t base = r->groups[g].first_row, end = base + r->groups[g].rows;
            MergeSpan piece = sp;
            if (sp.row + sp.len > end)
                piece.len = (uint16_t)(end - sp.row);
            gather_span(c, base, &piece, out, str_arena);
            sp.row += piece.len;
            sp.out_at = (uint16_t)(sp.out_at + piece.len);
            sp.len = (uint16_t)(sp.len - piece.len);
        }
    }
}

/* The unordered scan's stretches (rows between hidden ones, ~14 long with
 * 1% updates per run) are copied SEG values at a time, a fixed-length copy
 * that compiles to a few vector moves, even past the stretch when source
 * and vector have room: the next stretch overwrites the excess (pieces and
 * stretches come in output order). An exact-length memcpy would mispredict
 * on every stretch's length. */
#define SEG 32u
#define SEG_COPY(T)                                                             \
    do {                                                                        \
        const T *sv = (const T *)ch->values;                                    \
        T *dv = (T *)out->data;                                                 \
        uint32_t o = out_at, at = 0;                                            \
        for (uint32_t j = 0; j <= nskip; j++) {                                 \
            uint32_t stop = j < nskip ? skip[j] : n, len = stop - at;           \
            uint64_t s0 = from + at;                                            \
            if (len <= SEG && s0 + SEG <= ch->count && o + SEG <= VEC_CAPACITY) \
                memcpy(dv + o, sv + s0, SEG * sizeof(T));                       \
            else                                                                \
                memcpy(dv + o, sv + s0, len * sizeof(T));                       \
            o += len;                                                           \
            at = stop + 1;                                                      \
        }                                                                       \
    } while (0)

#if defined(__x86_64__) && defined(__GNUC__) && !defined(STRATA_NO_TARGET_CLONES)
#include <immintrin.h>
#define SKIP_AVX512 1
/* 8-byte values with AVX-512 (checked once at run time): compact 8 rows at
 * a time by a keep mask (vpcompressq into a register, then a whole 64-byte
 * store: the compress-to-memory form is slow on some CPUs), ~3 cycles per 8
 * rows whatever the stretch lengths. The store may write up to 8 values
 * past the kept ones, never past dst[n - 1]; the tail is done one by one. */
__attribute__((target("avx512f,popcnt"))) static void
skip_compress64(const uint64_t *src, uint32_t n, const uint16_t *skip, uint32_t nskip,
                uint64_t *dst)
{
    uint8_t keep[VEC_CAPACITY / 8 + 1];
    memset(keep, 0xff, n / 8 + 1);
    for (uint32_t j = 0; j < nskip; j++)
        keep[skip[j] >> 3] &= (uint8_t)~(1u << (skip[j] & 7));
    uint32_t o = 0, i = 0;
    for (; i + 8 <= n; i += 8) {
        __m512i v = _mm512_loadu_si512((const void *)(src + i));
        _mm512_storeu_si512((void *)(dst + o), _mm512_maskz_compress_epi64(keep[i >> 3], v));
        o += (uint32_t)__builtin_popcount(keep[i >> 3]);
    }
    for (; i < n; i++) {
        dst[o] = src[i];
        o += (keep[i >> 3] >> (i & 7)) & 1;
    }
}

/* (__builtin_cpu_supports reads flags libgcc fills once at start-up) */
static bool have_avx512(void) { return __builtin_cpu_supports("avx512f"); }
#endif

/* Copy rows from .. from + n - 1 of a decoded chunk except the offsets
 * skip[0..nskip) to out at out_at, out_at + 1, ... Also compiled for AVX2
 * (the loader picks the clone once): a SEG copy is then 8 32-byte moves
 * instead of 16 16-byte ones. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(STRATA_NO_TARGET_CLONES)
__attribute__((target_clones("default", "avx2")))
#endif
static void skip_copy(const RunChunk *ch, uint64_t from, uint32_t n, const uint16_t *skip,
                      uint32_t nskip, uint32_t out_at, Vector *out, MemArena *str_arena)
{
    size_t w = phys_size(ch->phys);
    if (ch->phys == PHYS_STR) {
        const StrRef *sv = (const StrRef *)ch->values + from;
        StrRef *dv = (StrRef *)out->data + out_at;
        for (uint32_t i = 0, o = 0, j = 0; i < n; i++) {
            if (j < nskip && skip[j] == i) {
                j++;
                continue;
            }
            char *p = mem_alloc(str_arena, sv[i].len);
            memcpy(p, sv[i].ptr, sv[i].len);
            dv[o++] = (StrRef){p, sv[i].len};
        }
    } else if (nskip == 0) {
        memcpy((uint8_t *)out->data + (size_t)out_at * w, (const uint8_t *)ch->values + from * w,
               (size_t)n * w);
    } else if (w == 8) {
#ifdef SKIP_AVX512
        if (n <= VEC_CAPACITY && have_avx512()) {
            skip_compress64((const uint64_t *)ch->values + from, n, skip, nskip,
                            (uint64_t *)out->data + out_at);
            goto validity;
        }
#endif
        SEG_COPY(uint64_t);
    } else if (w == 4) {
        SEG_COPY(uint32_t);
    } else if (w == 2) {
        SEG_COPY(uint16_t);
    } else {
        SEG_COPY(uint8_t);
    }
#ifdef SKIP_AVX512
validity:
#endif
    if (ch->validity)
        for (uint32_t i = 0, o = 0, j = 0; i < n; i++) {
            if (j < nskip && skip[j] == i) {
                j++;
                continue;
            }
            uint64_t r = from + i;
            if (!((ch->validity[r >> 6] >> (r & 63)) & 1))
                vec_set_null(out, out_at + o);
            o++;
        }
}
#undef SEG_COPY

/* gather_skip: rows of one group (a block handed out by next_rows). */
static void run_source_gather_skip(void *ctx, int col, uint64_t first_row, uint32_t n,
                                   const uint16_t *skip, uint32_t nskip, uint32_t out_at,
                                   Vector *out, MemArena *str_arena)
{
    RunSource *s = ctx;
    RunReader *r = s->r;
    if (col >= r->schema.ncols) { /* added after this run was written */
        for (uint32_t i = 0; i < n - nskip; i++)
            vec_set_null(out, out_at + i);
        return;
    }
    ERR_ASSERT(col >= 0);
    if (!s->cols[col]) {
        s->cols[col] = MEM_NEW(s->arena, ColCache);
        cache_init(s, s->cols[col], col);
    }
    ColCache *own = s->cols[col], *key = s->key_of[col] >= 0 ? &s->keys[s->key_of[col]] : NULL;
    uint32_t g = group_of(r, first_row, own->group >= 0 ? (uint32_t)own->group : 0);
    ColCache *c = key && key->group == (int64_t)g ? key : own; /* keys decoded by the merge */
    cache_load(s, c, col, g);
    uint64_t from = first_row - r->groups[g].first_row;
    ERR_ASSERT(from + n <= r->groups[g].rows);
    skip_copy(&c->chunk, from, n, skip, nskip, out_at, out, str_arena);
}

/* adopt_buffers: this source is read after `from` (a run source too): its
 * gather caches decode into from's buffers where they are big enough, so
 * that a scan reading sources one after another keeps one set of decode
 * buffers warm in cache instead of one per source. The owner tag keeps
 * both correct if they alternate (a batch holding the end of one and the
 * start of the other): the one whose data was overwritten decodes again. */
static void run_source_adopt(void *ctx, void *from_ctx)
{
    RunSource *s = ctx, *f = from_ctx;
    RunReader *r = s->r;
    int n = r->schema.ncols < f->r->schema.ncols ? r->schema.ncols : f->r->schema.ncols;
    for (int col = 0; col < n; col++) {
        const ColCache *fc = f->cols[col];
        if (s->cols[col] || !fc || run__col_phys(r, col) != run__col_phys(f->r, col) ||
            fc->rows_cap < r->max_group_rows || fc->raw_cap < r->max_raw_len)
            continue;
        ColCache *c = MEM_NEW(s->arena, ColCache);
        *c = (ColCache){.group = -1, .values = fc->values, .validity = fc->validity,
                        .raw = fc->raw, .rows_cap = fc->rows_cap, .raw_cap = fc->raw_cap,
                        .owner = fc->owner};
        s->cols[col] = c;
    }
}

static void run_source_keys_only(void *ctx) { ((RunSource *)ctx)->keys_only = true; }

static const MergeSourceOps run_source_ops = {run_source_next, run_source_gather,
                                              run_source_next_clean, run_source_keys_only,
                                              run_source_gather_spans, run_source_next_rows,
                                              run_source_gather_skip, run_source_adopt};

MergeSource *run_merge_source(RunReader *r, const bool *skip_groups, MemArena *arena)
{
    RunSource *s = MEM_NEW(arena, RunSource);
    s->r = r;
    s->arena = arena;
    if (skip_groups) {
        s->skip = MEM_NEW_ARRAY(arena, bool, r->info.ngroups + 1);
        memcpy(s->skip, skip_groups, sizeof(bool) * r->info.ngroups);
    }
    int nk = r->schema.nkeys;
    for (int k = 0; k < nk + RUN_META_COLS; k++)
        s->keys[k].group = -1; /* buffers on first use: an unordered scan never decodes keys */
    s->cols = MEM_NEW_ARRAY(arena, ColCache *, r->schema.ncols);
    s->key_of = MEM_NEW_ARRAY(arena, int, r->schema.ncols);
    for (int c = 0; c < r->schema.ncols; c++)
        s->key_of[c] = -1;
    for (int k = 0; k < nk; k++)
        s->key_of[r->schema.key_cols[k]] = k;
    s->ms = (MergeSource){&run_source_ops, s, r->info.min_key, r->info.max_key,
                          r->info.nrows > 0, r->info.min_version, r->info.max_version,
                          r->info.nrows, NULL};
    return &s->ms;
}
