/*
 * merge_int.h — the merge's state, shared by merge.c (creation, staged
 * paths, resolution, gather) and merge_direct.c (the recency scan paths).
 * Internal to storage/runs/.
 */
#ifndef STRATA_STORAGE_RUNS_MERGE_INT_H
#define STRATA_STORAGE_RUNS_MERGE_INT_H

#include "storage/runs/run_int.h"

typedef struct Cursor {
    MergeSource *src;
    MergeKeys blk;
    uint32_t pos;
    bool done;
    bool started;
    const int64_t *k64;   /* fast path: the block's keys as int64 */
    int64_t *conv;
    uint32_t conv_cap;
    uint32_t clean_left;  /* concatenation: entries left of a clean block */
    uint64_t clean_row;   /* its next row */
    uint32_t rank;        /* recency: 0 = the newest source (ties go to the lower rank) */
} Cursor;

/* Where the direct path puts entries: the output (first entry per key; a
 * tombstone hides its key) or the pre-merge buffer (first entry per key,
 * tombstones kept: they still hide the big source's versions). */
typedef struct Sink {
    uint16_t *src;
    uint64_t *row;
    int64_t *key;         /* pre-merge buffer only */
    bool *del;            /* pre-merge buffer only (NULL: output) */
    int64_t last;         /* the last key seen */
    bool have;
} Sink;

struct Merge {
    MemArena *arena;
    int n, K;             /* sources; leaves of the tree (power of two >= n) */
    Cursor *cur;          /* K cursors (those >= n are done) */
    int *tree;            /* tree[0] winner, tree[1..K-1] losers */
    int64_t *hk;          /* fast path: each cursor's head key (INT64_MAX when done) */
    uint32_t *hr;         /* recency: each cursor's rank (UINT32_MAX when done) */
    int nkeys;
    PhysType key_types[RUN_KEYS_MAX];
    bool fast;            /* one integer key column */
    MergeOptions opts;
    bool concat;
    int *order;           /* concatenation order */
    int concat_at;
    bool built, finished;
    /* staging (one batch) */
    uint16_t *s_src;
    uint64_t *s_row, *s_ver;
    bool *s_del, *s_new, *s_vis;
    /* output */
    uint16_t *o_src;
    uint64_t *o_row, *o_ver;
    bool *o_del;
    /* resolution state, carried across batches */
    bool resolved, drop_rest;
    uint32_t stretch_avg;  /* moving average of streamable stretch lengths, x16 */
    /* the last staged key */
    bool have_last, last_saved;
    int64_t last64;
    int last_cur;
    uint32_t last_pos;
    Value last_key[RUN_KEYS_MAX];
    /* gather scratch */
    uint32_t *g_count, *g_fill;
    uint16_t *g_iota;     /* 0, 1, 2, ... */
    /* window sort (fast path): keys relative to the round's smallest head,
     * entry indexes, their cursor and position; two buffers for radix passes */
    uint64_t *w_key, *w_key2;
    uint16_t *w_idx, *w_idx2, *w_src;
    uint32_t *w_pos, *w_take;
    uint64_t *g_rows;
    uint16_t *g_idx;
    /* recency (see plan_recency): equal keys ordered by source rank, no
     * versions read; direct: stretches go straight to the output */
    bool recency, direct;
    int *live;            /* the visible sources */
    int nlive;
    Sink out;
    /* split: the big source against the others, pre-merged into p_* */
    int big;              /* -1: no split */
    int *small;
    int nsmall;
    Sink pre;
    uint32_t p_count, p_pos, p_cap;
    bool p_done;
    /* span gather */
    bool spans_ok;        /* every source has gather_spans */
    bool span_batch;      /* the last batch's spans are in d_spans/d_src */
    uint32_t nspans;
    MergeSpan *d_spans;   /* in batch order, their sources in d_src */
    uint16_t *d_src;
    uint16_t *g_start;
    MergeSpan *g_spans;   /* grouped by source */
    /* unordered scan by shadow lists (run_shadow.c): the visible sources
     * (m->live) one after another, a block at a time */
    bool shadow;
    const bool *sh_vis;   /* per run of the set: visible to the snapshot */
    int sh_at;            /* index into m->live */
    uint64_t sh_row, sh_end; /* the current block: next row, end */
    uint64_t sh_pos;      /* next entry of the current source's list */
    uint16_t *sh_skip;    /* the batch's windows' hidden offsets */
    uint32_t sh_skip_used;
    /* the batch's pieces (a window of one block each) for gather_skip:
     * the unordered scan's batches, and with gather_only (pieces_ok) those
     * of clean blocks; piece_batch: the last batch is gathered by pieces */
    bool pieces_ok, piece_batch;
    uint32_t sh_npieces;
    uint16_t *pc_src;
    uint64_t *pc_row;
    uint32_t *pc_n, *pc_out;
    uint32_t *pc_skip, *pc_nskip; /* its hidden offsets: sh_skip + pc_skip, pc_nskip of them */
    /* emit-all mode (the shadow build): resolution keeps every entry and
     * records its "new key" flag in o_new */
    bool all;
    bool *o_new;
};

/* The rows of one run that newer versions hide (run.h, RUNS.md "Shadow
 * lists"): rows[] ascending; by[i] indexes the run of the set whose
 * visibility hides rows[i] (the run itself for its own older versions and
 * tombstones, else the oldest newer run holding the key). */
struct MergeShadow {
    const RunShadows *set;
    int idx;              /* this run's index in the set */
    uint64_t n, cap;
    uint64_t *rows;
    uint16_t *by;
};

struct RunShadows {
    MemArena *arena;      /* the set's lifetime */
    int nruns;
    RunReader **runs;
    uint64_t *min_version, *max_version; /* per run (empty runs: 1, 0) */
    MergeShadow *lists;   /* per run */
};

/* merge.c */
/* Load cursor ci's next block (marks it done at the end). */
void merge__fetch_block(Merge *m, int ci);
/* Stable radix sort of m->w_key/w_idx[0..count) by key (keys < 2^bits). */
void merge__radix_sort(Merge *m, uint32_t count, int bits);
/* Order runs of equal keys in m->w_idx by version (or rank) descending. */
void merge__order_ties(Merge *m, uint32_t count);

/* run_shadow.c */
/* Decide the unordered scan by shadow lists at merge_create. */
void merge__plan_shadow(Merge *m);
/* Allocate the piece arrays (once). */
void merge__pieces_init(Merge *m);
/* Record a piece of the batch: rows first.. first + n - 1 of source ci
 * except nskip offsets already at m->sh_skip + m->sh_skip_used, output
 * from out. False when the batch holds as many pieces as it may. */
bool merge__piece_add(Merge *m, int ci, uint64_t first, uint32_t n, uint32_t nskip, uint32_t out);
/* One output batch of the unordered scan (pieces; positions unless
 * gather_only); 0 entries possible before the end (all hidden). */
uint32_t merge__shadow_fill(Merge *m, uint32_t max);
/* merge_gather for a batch of pieces. */
void merge__pieces_gather(Merge *m, int ncols, const int *cols, Vector *out,
                          MemArena *str_arena);

/* merge_direct.c */
/* Decide recency / direct / split at merge_create (see merge_direct.c). */
void merge__plan_recency(Merge *m);
/* One output batch by the direct path into m->o_src/o_row (spans in
 * m->d_spans when m->span_batch); returns true (the batch is done). */
bool merge__direct_fill(Merge *m, uint32_t max, uint32_t *count);

/* Stretches between hidden rows (the unordered scan) are copied MERGE_SEG
 * entries at a time, a fixed-length copy the compiler unrolls and
 * vectorizes, past the stretch's end when there is room: the next stretch
 * overwrites the excess. Stretches are ~14 entries apart with 1% updates
 * per run; a copy of their exact length would mispredict its end each time.
 * m->o_row has MERGE_SEG entries of slack. */
#define MERGE_SEG 32u

/* dst[i] = v for i < n; 4 at a time (the -O2 build doesn't vectorize
 * loops of unknown trip count). */
static inline void fill_src(uint16_t *restrict dst, uint16_t v, uint32_t n)
{
    uint64_t v4 = v * 0x0001000100010001ull;
    uint32_t i = 0;
    for (; i + 4 <= n; i += 4)
        memcpy(dst + i, &v4, 8);
    for (; i < n; i++)
        dst[i] = v;
}

/* dst[i] = first + i for i < n. */
static inline void fill_rows(uint64_t *restrict dst, uint64_t first, uint32_t n)
{
    uint32_t i = 0;
    for (; i + 4 <= n; i += 4) {
        dst[i] = first + i;
        dst[i + 1] = first + i + 1;
        dst[i + 2] = first + i + 2;
        dst[i + 3] = first + i + 3;
    }
    for (; i < n; i++)
        dst[i] = first + i;
}

#endif
