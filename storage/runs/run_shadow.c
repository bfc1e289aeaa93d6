/*
 * run_shadow.c — shadow lists and the unordered scan over them (run.h,
 * RUNS.md "Shadow lists").
 *
 * A scan that needs no key order (sums, filters, hash aggregates) over
 * overlapping runs need not merge keys on every scan: which rows a newer
 * version hides is a fact of the runs, not of the scan. run_shadows_build
 * finds it once, with one k-way merge of the runs' keys (the merge's own
 * staged paths, every entry kept: emit-all mode), and stores per run the
 * sorted list of its hidden rows, each tagged with the run whose visibility
 * hides it. An unordered scan (MergeOptions.unordered) then reads the runs
 * one after another, a row group at a time without decoding keys, versions
 * or flags (MergeSourceOps.next_rows), and hands out each window of a
 * group as a piece (its rows minus the hidden ones) that merge_gather
 * copies with one gather_skip per column — about what a scan of the
 * compacted run costs.
 *
 * Snapshots: runs' version ranges are disjoint, and the scan path is taken
 * only when the snapshot sees each run wholly or not at all (as for
 * recency, merge_direct.c). A row hidden by run R is dropped iff the
 * snapshot sees R; R is the oldest newer run holding the key, so when the
 * snapshot doesn't see R it sees no newer run either and the row is the
 * newest visible version. Tombstones and a run's own older versions are
 * tagged with the run itself: dropped whenever the run is read.
 */
#define STRATA_RUNS_INTERNAL
#include "common/error.h"
#include "storage/runs/merge_int.h"

/* Per batch of the unordered scan: room for the windows' hidden offsets (a
 * window is cut to what is left; the batch ends below 64) and at most this
 * many pieces (a window each). */
#define SH_SKIP_MAX (4u * VEC_CAPACITY)
#define SH_PIECES_MAX 256u

void merge__pieces_init(Merge *m)
{
    if (m->pc_src)
        return;
    m->sh_skip = MEM_NEW_ARRAY(m->arena, uint16_t, SH_SKIP_MAX);
    m->pc_src = MEM_NEW_ARRAY(m->arena, uint16_t, SH_PIECES_MAX);
    m->pc_row = MEM_NEW_ARRAY(m->arena, uint64_t, SH_PIECES_MAX);
    m->pc_n = MEM_NEW_ARRAY(m->arena, uint32_t, SH_PIECES_MAX);
    m->pc_out = MEM_NEW_ARRAY(m->arena, uint32_t, SH_PIECES_MAX);
    m->pc_skip = MEM_NEW_ARRAY(m->arena, uint32_t, SH_PIECES_MAX);
    m->pc_nskip = MEM_NEW_ARRAY(m->arena, uint32_t, SH_PIECES_MAX);
}

bool merge__piece_add(Merge *m, int ci, uint64_t first, uint32_t n, uint32_t nskip, uint32_t out)
{
    if (m->sh_npieces == SH_PIECES_MAX)
        return false;
    uint32_t pc = m->sh_npieces++;
    m->pc_src[pc] = (uint16_t)ci;
    m->pc_row[pc] = first;
    m->pc_n[pc] = n;
    m->pc_out[pc] = out;
    m->pc_skip[pc] = m->sh_skip_used;
    m->pc_nskip[pc] = nskip;
    m->sh_skip_used += nskip;
    return true;
}

/* ---------------------------------------------------------------- build */

static void list_push(MergeShadow *l, uint64_t row, int by, MemArena *tmp)
{
    if (l->n == l->cap) {
        uint64_t cap = l->cap ? 2 * l->cap : 1024;
        uint64_t *rows = mem_alloc(tmp, cap * sizeof(uint64_t));
        uint16_t *b = mem_alloc(tmp, cap * sizeof(uint16_t));
        if (l->n) {
            memcpy(rows, l->rows, l->n * sizeof(uint64_t));
            memcpy(b, l->by, l->n * sizeof(uint16_t));
        }
        l->rows = rows;
        l->by = b;
        l->cap = cap;
    }
    l->rows[l->n] = row;
    l->by[l->n] = (uint16_t)by;
    l->n++;
}

/* One merge over every entry of every run, in (key, version descending)
 * order: within a key, the entry before one of run s is either s's own
 * newer version (s hides it) or the oldest newer run's entry (that run
 * hides it); a tombstone is hidden by its own run. Lists grow in tmp. */
static void shadows_walk(RunShadows *sh, MemArena *tmp)
{
    int n = sh->nruns;
    const RunReader *r0 = sh->runs[0];
    MergeSource **src = MEM_NEW_ARRAY(tmp, MergeSource *, n);
    for (int i = 0; i < n; i++)
        src[i] = run_merge_source(sh->runs[i], NULL, tmp);
    MergeOptions o = {.snapshot = UINT64_MAX};
    Merge *m = merge_create(src, n, r0->schema.nkeys, r0->key_phys, &o, tmp);
    m->all = true;
    m->o_new = MEM_NEW_ARRAY(tmp, bool, m->opts.batch_max);
    MergeBatch b;
    int prev = -1; /* run of the previous entry of the same key */
    while (merge_next(m, &b)) {
        const bool *fresh = m->o_new;
        for (uint32_t i = 0; i < b.count; i++) {
            int s = b.src[i];
            prev = fresh[i] ? -1 : prev;
            int by = b.deleted[i] || prev == s ? s : prev;
            if (by >= 0)
                list_push(&sh->lists[s], b.row[i], by, tmp);
            prev = s;
        }
        err_check_interrupts();
    }
}

/* Pairwise disjoint version ranges (empty runs aside)? */
static bool versions_disjoint(RunReader *const *runs, int nruns)
{
    for (int i = 0; i < nruns; i++)
        for (int j = i + 1; j < nruns; j++) {
            const RunInfo *a = &runs[i]->info, *b = &runs[j]->info;
            if (a->nrows && b->nrows && a->min_version <= b->max_version &&
                b->min_version <= a->max_version)
                return false;
        }
    return true;
}

RunShadows *run_shadows_build(RunReader *const *runs, int nruns)
{
    ERR_ASSERT(nruns >= 0 && nruns <= UINT16_MAX);
    for (int i = 1; i < nruns; i++) {
        const RunSchema *a = &runs[0]->schema, *b = &runs[i]->schema;
        ERR_ASSERT(a->nkeys == b->nkeys);
        for (int k = 0; k < a->nkeys; k++)
            ERR_ASSERT(runs[0]->key_phys[k] == runs[i]->key_phys[k]);
    }
    if (!versions_disjoint(runs, nruns))
        return NULL;
    MemArena *arena = mem_arena_create("run shadows");
    MemArena *tmp = mem_arena_create("run shadows build");
    RunShadows *sh = MEM_NEW(arena, RunShadows);
    sh->arena = arena;
    sh->nruns = nruns;
    sh->runs = MEM_NEW_ARRAY(arena, RunReader *, nruns + 1);
    sh->min_version = MEM_NEW_ARRAY(arena, uint64_t, nruns + 1);
    sh->max_version = MEM_NEW_ARRAY(arena, uint64_t, nruns + 1);
    sh->lists = MEM_NEW_ARRAY(arena, MergeShadow, nruns + 1);
    for (int i = 0; i < nruns; i++) {
        const RunInfo *in = &runs[i]->info;
        sh->runs[i] = runs[i];
        sh->min_version[i] = in->nrows ? in->min_version : 1;
        sh->max_version[i] = in->nrows ? in->max_version : 0;
        sh->lists[i] = (MergeShadow){.set = sh, .idx = i};
    }
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        if (nruns > 0)
            shadows_walk(sh, tmp);
        err_pop(&jmp);
    } else {
        mem_arena_destroy(tmp);
        mem_arena_destroy(arena);
        err_rethrow();
    }
    for (int i = 0; i < nruns; i++) { /* exact-size copies; the build's arrays go */
        MergeShadow *l = &sh->lists[i];
        uint64_t *rows = mem_alloc(arena, l->n * sizeof(uint64_t) + 1);
        uint16_t *by = mem_alloc(arena, l->n * sizeof(uint16_t) + 1);
        if (l->n) {
            memcpy(rows, l->rows, l->n * sizeof(uint64_t));
            memcpy(by, l->by, l->n * sizeof(uint16_t));
        }
        l->rows = rows;
        l->by = by;
        l->cap = l->n;
    }
    mem_arena_destroy(tmp);
    return sh;
}

void run_shadows_destroy(RunShadows *sh)
{
    if (sh)
        mem_arena_destroy(sh->arena);
}

const MergeShadow *run_shadows_of(const RunShadows *sh, const RunReader *r)
{
    for (int i = 0; sh && i < sh->nruns; i++)
        if (sh->runs[i] == r)
            return &sh->lists[i];
    return NULL;
}

uint64_t run_shadows_rows(const RunShadows *sh)
{
    uint64_t n = 0;
    for (int i = 0; sh && i < sh->nruns; i++)
        n += sh->lists[i].n;
    return n;
}

uint64_t run_shadows_bytes(const RunShadows *sh)
{
    return sh ? run_shadows_rows(sh) * (sizeof(uint64_t) + sizeof(uint16_t)) +
                    (uint64_t)sh->nruns * (sizeof(MergeShadow) + 3 * sizeof(uint64_t))
              : 0;
}

/* ---------------------------------------------------------------- the unordered scan */

/* The unordered scan applies when the caller doesn't need key order, every
 * source carries a list of one set, the sources are exactly that set's runs
 * (a run left out would still hide rows), they can hand out blocks without
 * decoding (next_rows), and the snapshot sees each run wholly or not at all
 * (no visibility hook; as for recency). Unseen runs are never read. */
void merge__plan_shadow(Merge *m)
{
    const MergeOptions *o = &m->opts;
    if ((run__merge_off & RUN_MERGE_OFF_SHADOW) || !o->unordered || !o->skip_versions ||
        o->compact || o->visible || m->n == 0 || !m->cur[0].src->shadow)
        return;
    const RunShadows *set = m->cur[0].src->shadow->set;
    if (set->nruns != m->n)
        return;
    bool *seen = MEM_NEW_ARRAY(m->arena, bool, m->n);
    bool *vis = MEM_NEW_ARRAY(m->arena, bool, m->n);
    for (int i = 0; i < m->n; i++) {
        const MergeSource *s = m->cur[i].src;
        if (!s->shadow || s->shadow->set != set || seen[s->shadow->idx] || !s->ops->next_rows ||
            !s->ops->gather_skip)
            return;
        int j = s->shadow->idx;
        seen[j] = true;
        uint64_t lo = set->min_version[j], hi = set->max_version[j];
        if (lo <= hi && lo <= o->snapshot && hi > o->snapshot)
            return; /* partly visible: needs per-entry versions */
        vis[j] = lo <= hi && hi <= o->snapshot;
    }
    m->nlive = 0;
    for (int i = 0; i < m->n; i++)
        if (vis[m->cur[i].src->shadow->idx])
            m->live[m->nlive++] = i;
    m->sh_vis = vis;
    merge__pieces_init(m);
    m->shadow = true;
    m->sh_at = 0;
    m->sh_row = m->sh_end = m->sh_pos = 0;
}

/* Load the next block of the visible sources in turn; false at the end. */
static bool shadow_next_block(Merge *m)
{
    while (m->sh_at < m->nlive) {
        MergeSource *s = m->cur[m->live[m->sh_at]].src;
        uint64_t first;
        uint32_t cnt = s->ops->next_rows(s->ctx, &first);
        if (cnt > 0) {
            m->sh_row = first;
            m->sh_end = first + cnt;
            return true;
        }
        m->sh_at++;
        m->sh_pos = 0;
        if (m->sh_at < m->nlive) { /* one set of decode buffers, kept warm */
            MergeSource *t = m->cur[m->live[m->sh_at]].src;
            if (t->ops == s->ops && t->ops->adopt_buffers)
                t->ops->adopt_buffers(t->ctx, s->ctx);
        }
    }
    return false;
}

/* dst[0..n) = first, first + 1, ...: whole MERGE_SEG-entry stores (dst has
 * MERGE_SEG entries of slack past n). */
static inline void seg_rows(uint64_t *restrict dst, uint64_t first, uint32_t n)
{
    for (uint32_t i = 0; i < MERGE_SEG; i++)
        dst[i] = first + i;
    for (uint32_t at = MERGE_SEG; at < n; at += MERGE_SEG)
        for (uint32_t i = 0; i < MERGE_SEG; i++)
            dst[at + i] = first + at + i;
}

/* A window of the current block goes out whole when none of its rows is
 * hidden (two fills, as for a compacted run); else stretch by stretch
 * between the hidden rows (seg_rows). Each window is a piece that
 * merge_gather hands to gather_skip with its hidden offsets. The batch may
 * come out empty (every row of its windows hidden) without being the last. */
uint32_t merge__shadow_fill(Merge *m, uint32_t max)
{
    uint32_t out = 0;
    m->piece_batch = true;
    m->sh_npieces = 0; /* merge_next calls again after an all-hidden batch */
    m->sh_skip_used = 0;
    while (out < max && m->sh_npieces < SH_PIECES_MAX) {
        if (m->sh_row == m->sh_end && !shadow_next_block(m)) {
            m->finished = true;
            break;
        }
        uint32_t room = max - out, skip_room = SH_SKIP_MAX - m->sh_skip_used;
        if ((out > 0 && room < 64) || skip_room < 64)
            break; /* a window over a sliver: leave it to the next batch */
        int ci = m->live[m->sh_at];
        const MergeShadow *l = m->cur[ci].src->shadow;
        const bool *vis = m->sh_vis;
        uint64_t row = m->sh_row;
        uint32_t w = m->sh_end - row < room ? (uint32_t)(m->sh_end - row) : room;
        w = w < skip_room ? w : skip_room; /* at most w offsets */
        uint64_t end = row + w, p = m->sh_pos;
        while (p < l->n && l->rows[p] < row)
            p++; /* rows of skipped groups */
        uint16_t *restrict skip = m->sh_skip + m->sh_skip_used;
        uint32_t ns = 0;
        for (; p < l->n && l->rows[p] < end; p++) {
            skip[ns] = (uint16_t)(l->rows[p] - row);
            ns += vis[l->by[p]]; /* else hidden by a run the snapshot doesn't see */
        }
        merge__piece_add(m, ci, row, w, ns, out); /* room: checked above */
        if (m->opts.gather_only) {
            out += w - ns;
        } else if (ns == 0) {
            fill_src(m->o_src + out, (uint16_t)ci, w);
            fill_rows(m->o_row + out, row, w);
            out += w;
        } else {
            fill_src(m->o_src + out, (uint16_t)ci, w);
            uint64_t *orow = m->o_row + out;
            uint32_t o = 0, at = 0;
            for (uint32_t j = 0; j <= ns; j++) {
                uint32_t stop = j < ns ? skip[j] : w;
                seg_rows(orow + o, row + at, stop - at);
                o += stop - at;
                at = stop + 1;
            }
            out += o;
        }
        m->sh_pos = p;
        m->sh_row = end;
    }
    return out;
}

/* Gather a batch of pieces: one gather_skip per (piece, column), in output
 * order. */
void merge__pieces_gather(Merge *m, int ncols, const int *cols, Vector *out,
                          MemArena *str_arena)
{
    for (int k = 0; k < ncols; k++) {
        out[k].is_const = false;
        vec_set_all_valid(&out[k]);
        for (uint32_t pc = 0; pc < m->sh_npieces; pc++) {
            const MergeSource *s = m->cur[m->pc_src[pc]].src;
            s->ops->gather_skip(s->ctx, cols[k], m->pc_row[pc], m->pc_n[pc],
                                m->sh_skip + m->pc_skip[pc], m->pc_nskip[pc], m->pc_out[pc],
                                &out[k], str_arena);
        }
    }
}
