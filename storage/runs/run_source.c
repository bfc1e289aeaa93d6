/*
 * run_source.c — a run file as a merge source (run.h: run_merge_source):
 * hands the merge one row group's keys, versions and tombstone flags at a
 * time (versions not decoded once the merge calls keys_only, flags not
 * decoded when the group's zone map says it holds no tombstone), passes
 * clean groups through untouched (next_clean), and gathers columns for the
 * merge's surviving positions — per entry (gather) or per span of
 * consecutive rows (gather_spans) — from per-column caches of one decoded
 * row group.
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
} ColCache;

typedef struct RunSource {
    RunReader *r;
    MergeSource ms;
    MemArena *arena;
    bool *skip;
    bool keys_only;      /* the merge doesn't read versions */
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
    if (c->group == (int64_t)g)
        return;
    c->group = -1;
    run__chunk_decode(s->r, g, col, c->values, c->validity, c->raw, &c->chunk);
    c->group = g;
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
        uint32_t j = i + 1;
        while (j < n && rows[j] < end)
            j++;
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

static void run_source_keys_only(void *ctx) { ((RunSource *)ctx)->keys_only = true; }

static const MergeSourceOps run_source_ops = {run_source_next, run_source_gather,
                                              run_source_next_clean, run_source_keys_only,
                                              run_source_gather_spans};

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
    for (int k = 0; k < nk; k++)
        cache_init(s, &s->keys[k], r->schema.key_cols[k]);
    cache_init(s, &s->keys[nk], r->schema.ncols);
    cache_init(s, &s->keys[nk + 1], r->schema.ncols + 1);
    s->cols = MEM_NEW_ARRAY(arena, ColCache *, r->schema.ncols);
    s->key_of = MEM_NEW_ARRAY(arena, int, r->schema.ncols);
    for (int c = 0; c < r->schema.ncols; c++)
        s->key_of[c] = -1;
    for (int k = 0; k < nk; k++)
        s->key_of[r->schema.key_cols[k]] = k;
    s->ms = (MergeSource){&run_source_ops, s, r->info.min_key, r->info.max_key,
                          r->info.nrows > 0, r->info.min_version, r->info.max_version,
                          r->info.nrows};
    return &s->ms;
}
