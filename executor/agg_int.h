/*
 * agg_int.h — internal to the hash aggregate's three files: the slot and
 * operator states and the helpers they share.
 *
 * op_agg.c is the operator (states, grouped update loops, sink, results,
 * init); agg_onegroup.c the paths without GROUP BY that skip the group
 * table (register-resident batch kernels, row-group summaries);
 * agg_merge.c the parallel side (merging worker states, partitioned
 * aggregation). They all read AggSlot and AggState, so those live here
 * rather than in exec_int.h, which sees AggSlot only as an opaque type
 * (windows drive slots through exec__agg_slot_*). Helpers called per row
 * (buf_store, buf_get, flt_less) are static inline so that splitting the
 * file did not stop their inlining into the update loops.
 */
#ifndef STRATA_EXECUTOR_AGG_INT_H
#define STRATA_EXECUTOR_AGG_INT_H

#ifndef STRATA_EXECUTOR_INTERNAL
#error "executor/agg_int.h is internal to executor/'s aggregate files"
#endif

#include <math.h>
#include <string.h>
#include "common/arena.h"
#include "executor/exec_int.h"

typedef enum AggStateKind {
    AS_COUNT, AS_SUM_I64, AS_SUM_I128, AS_SUM_F32, AS_SUM_F64, AS_NUMERIC, AS_MINMAX,
    AS_GENERIC,           /* the registry's AggImpl (funcs.h): one update call per batch */
} AggStateKind;

struct AggSlot {
    const AggCall *call;
    AggKind kind;
    AggStateKind sk;
    PhysType arg_phys;
    SqlType arg_type;
    ExprProg *arg;
    int64_t sum_add;      /* sum(e + c) folded to sum(e) + c * count (see sum_add_const) */
    int zone_col;         /* summary mode: the argument's column in the scan (exec__agg_summary_link) */
    int64_t *cnt;
    int64_t *i64;
    int128_t *i128;
    float *f32;
    double *f64;
    uint8_t *mm;          /* min/max values, elem bytes each */
    uint32_t elem;
    char **buf;           /* strings/numerics per group */
    uint32_t *buf_len, *buf_cap;
    ExecGroupTable *dset; /* DISTINCT: (group, value) pairs */
    Vector gvec;          /* DISTINCT: group ids at row positions */
    uint32_t *dgroup;
    uint16_t *drows;
    uint32_t *dgrp;
    ExprProg *filter;     /* FILTER (WHERE ...): rows where it is true */
    uint16_t *frows;
    uint32_t *fgrp;
    MemArena *scratch;    /* the owner's batch scratch (numeric sums) */
    uint32_t cap;
    /* AS_GENERIC */
    const AggImpl *impl;
    uint8_t *gstate;      /* cap * impl->state_size bytes */
    ExprProg *arg2;       /* second argument or the direct argument */
    /* ORDER BY inside the call: rows buffered, sorted per group at the end */
    int norder;
    ExprProg **ord;
    ExecColumn *obuf;     /* [0] group, [1] arg, [2] arg2, [3..] order keys */
    int nobuf;
    SortKey *okeys;
    Vector ogrp;
    /* EXPLAIN ANALYZE (plan.h PlanKernel): bits ORed per batch into *kern */
    uint64_t *kern, kern_spare;
    uint64_t kbits;       /* the general path's bits (exec__agg_slot_init) */
};

typedef struct AggState {
    int ngroups_keys;
    ExprProg **keys;
    Vector **keyvec;
    ExecGroupTable gt;
    int naggs;
    AggSlot *aggs;
    int *share;           /* per slot: the earlier slot whose state it reads, or -1 (share_states) */
    int ngsets;           /* grouping sets: masks over the keys */
    const uint64_t *gsets;
    Vector *nullkeys;     /* per key: a constant NULL */
    Vector *setids;       /* per set: a constant int4 index */
    Vector **setkeys;
    uint32_t *grp;        /* group of the i-th active row */
    MemArena *scratch;
    /* output */
    uint32_t ngroups_out, pos;
    Batch *out;
    MemArena *out_scratch;
    /* partitioned parallel aggregation (exec__agg_set_parts): the groups
     * are the parts' (disjoint), emitted one part after the other */
    ExecOp **parts;
    int nparts, cur_part;
    void (*release)(void *ctx);
    void *release_ctx;
    uint64_t *kern, kern_spare;   /* EXPLAIN ANALYZE: the node's PlanKernel word */
    /* one thread of a partitioned aggregation (exec__agg_prehashed): the
     * partition filter's key vectors and hashes of the batch being sunk */
    Vector **pre_keys;
    const uint64_t *pre_hash;
} AggState;

/* ---------- helpers shared by the update loops and the merge ---------- */

/* Keep a copy of v as group g's string (buffer grown geometrically). */
static inline void buf_store(AggSlot *s, MemArena *a, uint32_t g, StrRef v)
{
    if (v.len > s->buf_cap[g]) {
        uint32_t cap = s->buf_cap[g] ? s->buf_cap[g] * 2 : 16;
        while (cap < v.len)
            cap *= 2;
        s->buf[g] = mem_alloc(a, cap);
        s->buf_cap[g] = cap;
    }
    if (v.len)
        memcpy(s->buf[g], v.ptr, v.len);
    s->buf_len[g] = v.len;
}

static inline StrRef buf_get(const AggSlot *s, uint32_t g)
{
    return (StrRef){s->buf[g], s->buf_len[g]};
}

static inline bool flt_less(double a, double b) { return !isnan(a) && (isnan(b) || a < b); }
#define PLAIN_LESS(a, b) ((a) < (b))

/* op_agg.c: PostgreSQL's order of two strings of type t (min/max). */
int exec__agg_str_cmp(SqlType t, StrRef a, StrRef b);
/* op_agg.c: fold (row, group) pairs of argument vectors into s's states
 * (DISTINCT first drops pairs already seen); v2 is the second argument. */
void exec__agg_slot_apply(AggSlot *s, MemArena *qa, const Vector *v, const Vector *v2, const uint16_t *rows,
                          const uint32_t *grp, uint32_t n);
/* agg_onegroup.c: one group, flat argument, no DISTINCT: fold the batch
 * into group 0 with a register-resident kernel. False when the slot needs
 * the general loop (nothing was done then). Once per batch and aggregate,
 * a real call since the split (it was inlined into exec__agg_slot_update;
 * the kernels it picks were out-of-line ifunc calls already): callgrind,
 * release build, planner/bench_agg 2000000: exec__agg_slot_update 2,230 →
 * 2,246 instructions a call (29,330 calls, kernels included). */
bool exec__agg_update_single(AggSlot *s, const Vector *v, const Batch *in);

#endif
