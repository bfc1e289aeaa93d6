/*
 * exec_int.h — the executor's internal header: expression programs,
 * operators, pipelines and the growable column stores they share.
 *
 * Only the executor's own .c files may include it (see executor/README.md for the design:
 * push-based pipelines of batch operators, DuckDB style).
 */
#ifndef STRATA_EXECUTOR_EXEC_INT_H
#define STRATA_EXECUTOR_EXEC_INT_H

#ifndef STRATA_EXECUTOR_INTERNAL
#error "executor/exec_int.h is internal to executor/"
#endif

#include <stdbool.h>
#include <stdint.h>
#include "common/arena.h"
#include "common/types.h"
#include "common/vector.h"
#include "executor/executor.h"
#include "executor/funcs.h"
#include "planner/plan.h"
#include "storage/storage.h"

/* ---------- query-wide context ---------- */

typedef struct ExecColumn ExecColumn;
typedef struct ExecPlanRun ExecPlanRun;

/* A materialised row set (CTE results, recursive worktables). */
typedef struct ExecRowSet {
    int ncols;
    ExecColumn *cols;
    uint32_t nrows;
    bool done;                /* CTE: fully materialised */
} ExecRowSet;

/* Cached result of an uncorrelated subplan. */
typedef struct ExecSubplanCache {
    bool done;
    Value value;
} ExecSubplanCache;

/* What every (nested) run of one portal shares: CTE buffers, worktables,
 * subplan caches, EXPLAIN ANALYZE counters, and every nested run to close. */
typedef struct ExecShared {
    MemArena *arena;          /* the portal's query arena */
    int nctes, nworktables, nsubplans;
    ExecRowSet *ctes;         /* by cte_id */
    ExecRowSet **worktables;  /* by worktable_id: the current iteration's rows */
    ExecSubplanCache *subplans; /* by subplan_id */
    struct PlanNodeStats *stats; /* by node_id, NULL = not measuring */
    int nstats;
    struct ExecQuery *main;   /* the portal's top-level query context */
} ExecShared;

/* What every operator of one run shares. */
typedef struct ExecQuery {
    MemArena *arena;          /* the query arena: everything lives here */
    StoreTxn *txn;            /* the session's transaction */
    const Value *params;
    int nparams;
    MemArena **scratch;       /* per-operator scratch arenas (destroyed at close) */
    int nscratch, scratch_cap;
    ExecShared *shared;       /* never NULL inside a portal */
    const Value *outer;       /* EXPR_OUTER_REF slots of this (re)run */
    int nouter;
    struct ExecSubRun **subs; /* nested runs created by this run's operators */
    int nsubs, subs_cap;
} ExecQuery;

/* The shared state of a portal running plan (arrays sized from the Plan). */
ExecShared *exec__shared_new(ExecQuery *q, const Plan *plan);

/* A scratch arena reset per batch by its owner; destroyed with the query. */
MemArena *exec__scratch_create(ExecQuery *q);

/* Bitmap of VEC_CAPACITY ones: what a NULL validity pointer means. */
extern const uint64_t exec__all_valid[VEC_VALIDITY_WORDS];
static inline const uint64_t *exec__validity(const Vector *v)
{
    return v->validity ? v->validity : exec__all_valid;
}
/* Index mask: 0 for constant vectors (every row reads index 0). */
static inline uint32_t exec__mask(const Vector *v) { return v->is_const ? 0u : 0xFFFFu; }
static inline bool exec__bit(const uint64_t *bm, uint32_t row) { return (bm[row >> 6] >> (row & 63)) & 1; }

/* String-form types whose equality/order is not their bytes (interval:
 * '1 month' = '30 days'; arrays: element-wise; jsonb: {"a":1.0} =
 * {"a":1}): they go through type_compare / type_hash_value
 * (common/types.h), one call per value. numeric and bpchar have typed
 * paths of their own (numeric_cmp/numeric_hash, trailing blanks trimmed). */
static inline bool exec__str_needs_typecmp(SqlType t)
{
    return t.oid == TYPE_INTERVAL || t.oid == TYPE_JSONB || type_is_array(t.oid);
}

/* Identity selection 0..VEC_CAPACITY-1. */
extern uint16_t exec__identity_sel[VEC_CAPACITY];

/* ---------- expression programs (expr.c) ---------- */

typedef enum ExprStepKind {
    STEP_CONST,     /* constant vector prepared at compile time (also parameters) */
    STEP_COLUMN,    /* reference to an input column (zero copy) */
    STEP_FUNC,
    STEP_CAST,
    STEP_AND,
    STEP_OR,
    STEP_NOT,
    STEP_IS_NULL,
    STEP_IS_NOT_NULL,
    STEP_CASE,
    STEP_IN_LIST,
    STEP_SUBPLAN,   /* a subquery's result per row (subplan.c) */
    STEP_ARRAY,     /* ARRAY[...] constructor */
} ExprStepKind;

typedef struct ExprStep {
    ExprStepKind kind;
    const Expr *expr;
    int nargs;
    int *args;              /* step indexes of the arguments */
    Vector *out;            /* result: &own, or the referenced input column */
    Vector own;             /* preallocated result buffer */
    int column;             /* STEP_COLUMN */
    uint8_t *flags;         /* AND/OR/CASE/IN: per-row work bytes (VEC_CAPACITY) */
    uint16_t *subsel;       /* AND/OR/CASE/IN: sub-selection buffer */
    uint16_t *subsel2;
    Vector tmp;             /* IN: equality result */
    struct ExecSubplan *sub; /* STEP_SUBPLAN */
    Value *vals;            /* STEP_ARRAY: one row's elements */
} ExprStep;

typedef struct ExprProg {
    int nsteps;
    ExprStep *steps;        /* post order: arguments before their user */
    int root;
    MemArena *scratch;      /* FuncCallCtx.arena: strings/numerics of one batch */
} ExprProg;

/* Compile e once (at operator init); buffers come from q->arena. scratch is
 * the arena results of string/numeric functions go to. */
ExprProg *exec__expr_compile(ExecQuery *q, const Expr *e, MemArena *scratch);
/* Evaluate over the active rows of in (sel/count may narrow them further:
 * pass in->sel/in->count normally). Results are indexed by row like the
 * input. The returned vector is valid until the next evaluation. */
Vector *exec__expr_eval(ExprProg *p, const Batch *in, const uint16_t *sel, uint32_t count);
/* Subplans (subplan.c): prepare at compile time; evaluate the active rows. */
struct ExecSubplan *exec__subplan_new(ExecQuery *q, const Expr *e);
void exec__subplan_eval(struct ExecSubplan *sp, Vector *const *args, Vector *out, const uint16_t *sel,
                        uint32_t n, MemArena *scratch);
/* Turn a boolean vector into the selection of rows that are true (NULL and
 * false dropped), branch-free. Returns the new count; out_sel may alias sel. */
uint32_t exec__select_true(const Vector *pred, const uint16_t *sel, uint32_t count, uint16_t *out_sel);

/* ---------- growable column stores (colstore.c) ---------- */

/* One column of rows kept beyond a batch (sort input, hash build side,
 * group keys). Contiguous and geometrically grown; strings copied into the
 * query arena. Validity as a bitmap so 2048-row windows at multiples of 64
 * can be handed out as vectors without copying. */
struct ExecColumn {
    SqlType type;
    PhysType phys;
    uint32_t elem;
    uint8_t *data;
    uint64_t *validity;
    uint32_t count, cap;
    bool has_null;
};

void exec__col_init(ExecColumn *c, SqlType type, MemArena *arena, uint32_t cap);
/* Make room for n more values. */
void exec__col_reserve(ExecColumn *c, MemArena *arena, uint32_t n);
/* Append the given rows of v (strings copied into arena). */
void exec__col_append(ExecColumn *c, MemArena *arena, const Vector *v, const uint16_t *rows, uint32_t n);
/* Gather values idx[0..n) into out rows 0..n (out flat, owns its buffers). */
void exec__col_gather(const ExecColumn *c, const uint32_t *idx, uint32_t n, Vector *out);
/* A zero-copy view of rows [start, start+n) (start multiple of 64). */
void exec__col_view(const ExecColumn *c, uint32_t start, Vector *out);
static inline bool exec__col_valid(const ExecColumn *c, uint32_t i) { return exec__bit(c->validity, i); }

/* Keep only rows idx[0..n) (strictly increasing), moved to 0..n in place. */
void exec__col_compact(ExecColumn *c, const uint32_t *idx, uint32_t n);
/* Stored value i as a Value (strings point into the store). */
void exec__col_get(const ExecColumn *c, uint32_t i, Value *out);
/* diff[i] |= (row i differs from row i-1 on this column), i in [max(from,1), to);
 * NULLs equal each other. (Rows where both are NULL keep diff's old value
 * from other columns only if the caller ORs column by column: see window.) */
void exec__col_adjacent_diff(const ExecColumn *c, uint32_t from, uint32_t to, uint8_t *diff);
/* Copy active rows of a (possibly constant) vector into a flat one at the same row indexes. */
void exec__vec_flatten(const Vector *src, const uint16_t *sel, uint32_t count, Vector *dst);
/* Copy rows src[srow[i]] → dst[drow[i]] (same type). */
void exec__vec_copy_rows(const Vector *src, const uint16_t *srows, Vector *dst, const uint16_t *drows, uint32_t n);

/* Hash of the active rows of v combined into hashes[i] (i-th active row). */
void exec__hash_vector(const Vector *v, const uint16_t *sel, uint32_t count, uint64_t *hashes, bool first);
/* Equality of v's rows with stored values (NULL equals NULL when nulls_equal). */
void exec__eq_column(const Vector *v, const uint16_t *rows, const ExecColumn *c, const uint32_t *idx,
                     uint32_t n, bool nulls_equal, uint8_t *eq);
/* Hash of stored value i (same function as exec__hash_vector). */
uint64_t exec__hash_stored(const ExecColumn *c, uint32_t i, uint64_t h, bool first);

/* ---------- group table (grouptab.c): hash set of key tuples ---------- */

typedef struct ExecGroupTable {
    int nkeys;
    ExecColumn *keys;      /* one per key, group i at index i */
    uint64_t *ghash;       /* hash per group */
    uint32_t ngroups;
    uint64_t *slots;       /* open addressing: hash tag << 32 | group index + 1, 0 = empty */
    uint32_t nslots;       /* power of two */
    MemArena *arena;
    /* per-batch work buffers */
    uint64_t *hash;
    uint32_t *slot;
    uint32_t *cand;
    uint16_t *todo, *todo2, *cmp_rows;
    uint16_t *cmp_i;
    uint32_t *cmp_g;
    uint8_t *eq;
    uint16_t *newpos;      /* after lookup: positions i of the rows that created groups */
    uint16_t *newrows;
    /* Runs of one key (sorted or clustered input): same[i] marks a row whose
     * key equals the previous row's, which takes its group without being
     * hashed or probed; hash_tmp, pos: the other rows' hashes, compacted.
     * Batches with few such rows turn the check off for the next
     * repeat_skip batches. */
    uint8_t *same;
    uint64_t *hash_tmp;
    uint16_t *pos;
    uint32_t repeat_skip;
    /* Set by a caller that already hashed the keys the same way (one hash
     * per active row, in order): the next lookup uses them instead of
     * hashing, then clears it. */
    const uint64_t *prehash;
} ExecGroupTable;

void exec__gt_init(ExecGroupTable *gt, MemArena *arena, int nkeys, const SqlType *types);
/* Pre-sizing from the planner's estimate (PlanNode.est_rows): a capacity
 * for est entries of `width` stored columns, a power of two between 1024
 * and EXEC_PRESIZE_MAX entries and, above 1024, at most EXEC_PRESIZE_CELLS
 * values in all, so a bad estimate never allocates more than a few MB up
 * front (tables still grow past it). NaN, negative or zero → 1024. */
#define EXEC_PRESIZE_MAX (UINT32_C(1) << 17)
#define EXEC_PRESIZE_CELLS (UINT32_C(1) << 20)
uint32_t exec__presize(double est, int width);
/* exec__gt_init with room for est_groups groups (exec__presize) up front. */
void exec__gt_init_sized(ExecGroupTable *gt, MemArena *arena, int nkeys, const SqlType *types,
                         double est_groups);
/* Find or create the group of each active row of keys (n rows: sel or 0..n).
 * group_of[i] for the i-th active row; returns the number of new groups
 * (groups ngroups_before..ngroups-1; gt->newpos[j] is the position i of
 * the row that created group ngroups_before + j). */
uint32_t exec__gt_lookup(ExecGroupTable *gt, Vector *const *keys, const uint16_t *sel, uint32_t n,
                         uint32_t *group_of);
/* Room for n more groups at once (a merge of n worker groups grows the
 * table once instead of doubling its way there). */
void exec__gt_reserve(ExecGroupTable *gt, uint32_t n);

/* ---------- aggregate states (op_agg.c), shared with windows ---------- */

/* One aggregate call's states for `cap` groups (grown by reserve). */
typedef struct AggSlot AggSlot;
/* Compile the call's argument/filter (results in scratch, which the caller
 * resets per batch) and allocate states for cap groups. cap 1 means one
 * group for good (no GROUP BY; window frames, which also pass 1, have no
 * DISTINCT): a DISTINCT set then keys on the values alone. */
void exec__agg_slot_init(ExecQuery *q, AggSlot *s, const AggCall *c, MemArena *scratch, uint32_t cap);
size_t exec__agg_slot_size(void);
void exec__agg_slot_reserve(AggSlot *s, MemArena *a, uint32_t ngroups);
/* Add the active rows of in; grp[i] = group of the i-th active row
 * (one_group: every row in group grp[0]). */
void exec__agg_slot_update(AggSlot *s, MemArena *qa, const Batch *in, const uint32_t *grp, bool one_group);
/* End of input: an aggregate with ORDER BY inside folds its buffered rows
 * now, in order (call before reading results). */
void exec__agg_slot_finish(AggSlot *s, MemArena *qa);
/* Group g's result into out[row] (strings/numerics in a). */
void exec__agg_slot_result(AggSlot *s, uint32_t g, Vector *out, uint32_t row, MemArena *a);
/* Whether the result is independent of the order rows are added in (exact
 * sums, counts, min/max): windows may then add rows back to front. */
bool exec__agg_slot_order_free(const AggSlot *s);
/* Forget group g's state (windows restart a frame). Not for DISTINCT. */
void exec__agg_slot_clear(AggSlot *s, uint32_t g);

/* ---------- operators and pipelines ---------- */

typedef enum ExecOpResult { EXEC_NEED_INPUT, EXEC_HAVE_MORE } ExecOpResult;

typedef struct ExecOp ExecOp;
typedef struct ExecPipeline ExecPipeline;

/* An operator. Sources implement next; streaming operators execute; sinks
 * sink + finalize (and then act as the source of the next pipeline). */
struct ExecOp {
    const PlanNode *node;
    ExecQuery *q;
    ExecPipeline *pipe;         /* the pipeline it streams in (limit stops it) */
    /* Source: fill *out with the next batch; false at end. */
    bool (*next)(ExecOp *op, Batch **out);
    /* Streaming: consume in, produce *out (count may be 0). HAVE_MORE: call
     * again with the same input after downstream consumed *out. */
    ExecOpResult (*execute)(ExecOp *op, Batch *in, Batch **out);
    /* Sink: consume in (copy what must outlive the batch). */
    void (*sink)(ExecOp *op, Batch *in);
    void (*finalize)(ExecOp *op);
    /* Streaming, optional: after the pipeline's source is exhausted, fill
     * *out with output that needs no input (a right/full join's unmatched
     * build rows); false when nothing is left. Called until false. */
    bool (*flush)(ExecOp *op, Batch **out);
    void (*close)(ExecOp *op);
    void *state;
};

#define EXEC_MAX_OPS 64
struct ExecPipeline {
    ExecOp *source;
    int nops;
    ExecOp *ops[EXEC_MAX_OPS];
    ExecOp *sink;               /* NULL: the portal's output */
    Batch *pending[EXEC_MAX_OPS];
    bool have_more[EXEC_MAX_OPS];
    bool source_done;
    bool stop;                  /* set by LIMIT: no more input needed */
    int stop_level;             /* index of the operator that set stop, -1 */
    int flush_level;            /* operator being flushed after the source ended, -1 = none */
    bool finished;
    bool par_checked;           /* exec__parallel_run was asked (at the first run) */
    ExecOp *gather;             /* the root's Gather source (gather.c), else NULL */
};

/* Operator constructors (op_*.c). */
ExecOp *exec__op_scan(ExecQuery *q, const PlanNode *n);
ExecOp *exec__op_values(ExecQuery *q, const PlanNode *n);
ExecOp *exec__op_filter(ExecQuery *q, const PlanNode *n);
ExecOp *exec__op_project(ExecQuery *q, const PlanNode *n);
ExecOp *exec__op_agg(ExecQuery *q, const PlanNode *n);
ExecOp *exec__op_hash_join(ExecQuery *q, const PlanNode *n);
ExecOp *exec__op_nested_loop(ExecQuery *q, const PlanNode *n);
ExecOp *exec__op_sort(ExecQuery *q, const PlanNode *n);
ExecOp *exec__op_limit(ExecQuery *q, const PlanNode *n);
ExecOp *exec__op_distinct(ExecQuery *q, const PlanNode *n);
ExecOp *exec__op_insert(ExecQuery *q, const PlanNode *n, bool buffered);
ExecOp *exec__op_window(ExecQuery *q, const PlanNode *n);
ExecOp *exec__op_setop(ExecQuery *q, const PlanNode *n);
ExecOp *exec__op_setop_right(ExecQuery *q, ExecOp *setop);
ExecOp *exec__op_append(ExecQuery *q, const PlanNode *n);
ExecOp *exec__op_cte_scan(ExecQuery *q, const PlanNode *n);
ExecOp *exec__op_recursive_union(ExecQuery *q, const PlanNode *n);
ExecOp *exec__op_worktable_scan(ExecQuery *q, const PlanNode *n);
ExecOp *exec__op_function_scan(ExecQuery *q, const PlanNode *n);
uint64_t exec__insert_count(const ExecOp *op);
/* op_update.c: the PLAN_UPDATE / PLAN_DELETE sink and its count of changed rows. */
ExecOp *exec__op_modify(ExecQuery *q, const PlanNode *n);
uint64_t exec__modify_count(const ExecOp *op);
/* A stable sort of nrows stored rows under keys (columns index cols):
 * the permutation, in arena. */
uint32_t *exec__sort_columns(ExecColumn *cols, int ncols, const SortKey *keys, int nkeys, uint32_t nrows,
                             MemArena *arena);
/* ORDER BY under LIMIT: only the first topn rows will be read. */
void exec__sort_set_topn(ExecOp *op, int64_t topn);
/* Aggregates from row-group metadata (issue 7). A scan in summary mode
 * (op_scan.c) passes each group storage can describe exactly to fold
 * (rows, and per scan column its zone summary where zone_cols asks) and
 * hands out the other groups as rows. False when the scan cannot (filter,
 * point lookup). exec__agg_summary_link (agg_onegroup.c; pipeline.c calls it for
 * an aggregate whose input pipeline is a bare scan) puts the scan in that
 * mode when every aggregate can be folded that way. */
typedef void (*ExecSummaryFold)(void *ctx, uint32_t rows, const StoreColSummary *sums);
bool exec__scan_set_summary(ExecOp *scan, const bool *zone_cols, ExecSummaryFold fold, void *ctx);
void exec__agg_summary_link(ExecOp *agg, ExecOp *scan);

/* Morsel-driven parallelism (parallel.c). exec__parallel_run runs pipeline
 * p — scan → FILTER/PROJECT → PLAN_AGG or PLAN_SORT — on several threads to its end
 * (the sink not yet finalised) and returns true; false when p does not
 * qualify, before touching it (then it runs on one thread as usual). */
bool exec__parallel_run(ExecPipeline *p);
/* Shared with gather.c. Pipelines reading fewer rows than EXEC_PAR_MIN_ROWS
 * (four morsels: after zone maps in parallel.c, the table's row versions
 * in gather.c) run on one thread. exec__par_input_ok:
 * p's source is a plain table scan of the portal's top-level run and
 * ops[0..nops) are FILTER/PROJECT, every expression (scan filter
 * included) safe on any thread; exec__par_op_safe: one FILTER/PROJECT.
 * exec__par_workers: worker threads to start (setting and machine).
 * exec__par_query_init/destroy: a worker's own query context (arena,
 * scratch arenas, EXPLAIN ANALYZE counters of its own); exec__par_stats_add adds a
 * worker's counters to the leader's, one loop more for each of ops.
 * exec__par_env_save (leader) / enter (first thing on a worker thread):
 * the session's interrupt flag, date/time settings and catalog session.
 * exec__par_account: an operator's output batch and time since t0 into
 * its EXPLAIN ANALYZE counters (t0 = 0: not measuring). */
#define EXEC_PAR_MIN_ROWS (UINT64_C(4) * 64 * 1024)
typedef struct ExecParEnv ExecParEnv;
bool exec__par_input_ok(const ExecPipeline *p, int nops);
bool exec__par_op_safe(const ExecOp *op);
int exec__par_workers(void);
void exec__par_query_init(ExecQuery *wq, const ExecQuery *q);
void exec__par_query_destroy(ExecQuery *wq);
void exec__par_stats_add(const ExecShared *wsh, ExecOp *const *ops, int nops, const ExecShared *leader);
ExecParEnv *exec__par_env_save(MemArena *arena);
void exec__par_env_enter(const ExecParEnv *env);
double exec__par_now_ms(void);
void exec__par_account(const ExecOp *op, const Batch *out, double t0);
/* Gather (gather.c): when the root pipeline p (no sink: rows go to the
 * client) is a big enough scan → FILTER/PROJECT, optionally under LIMIT
 * (and FILTER/PROJECT above it), its scan and the FILTER/PROJECT below the
 * LIMIT are replaced by a Gather source running them on the leader and
 * worker threads (p->gather); otherwise p is left as it is. Call before
 * p's first batch. exec__gather_end stops and joins the workers and frees
 * their memory (idempotent; before the leader's scan is closed).
 * exec__gather_pause (the portal suspends): returns once every worker
 * waits, reading nothing until the Gather is asked for its next batch. */
void exec__gather_begin(ExecPipeline *p);
void exec__gather_end(ExecOp *gather);
void exec__gather_pause(ExecOp *gather);
/* op_scan.c: rows a plain scan has left (0 for point lookups and summary
 * mode: those never run in parallel); share it in morsels; a clone of it
 * for another thread's query context, taking morsels from the same
 * counter (shared) or reading every row itself (store_scan_clone). */
uint64_t exec__scan_parallel_rows(const ExecOp *scan);
void exec__scan_share(ExecOp *scan);
ExecOp *exec__op_scan_clone(ExecQuery *wq, const ExecOp *scan, bool shared);
/* agg_merge.c: whether n's aggregates merge exactly across threads; fold the
 * groups and states of a worker's aggregate into `into` (same plan node).
 * disjoint: the two saw disjoint sets of DISTINCT values, so DISTINCT
 * states combine like the others (no re-insertion of the values). */
bool exec__agg_parallel_ok(const PlanNode *n);
void exec__agg_merge(ExecOp *into, ExecOp *from, bool disjoint);
/* Groups so far, plus the (group, value) pairs of DISTINCT aggregates. */
uint64_t exec__agg_groups(const ExecOp *agg);
/* Groups so far alone (1 without GROUP BY). */
uint64_t exec__agg_key_groups(const ExecOp *agg);
/* Room for `groups` groups in agg's table and states at once (GROUP BY
 * without grouping sets; otherwise nothing). */
void exec__agg_presize(ExecOp *agg, uint64_t groups);
/* Partitioned parallel aggregation: whether n's groups can be split by a
 * hash of its GROUP BY keys (plain GROUP BY, no grouping sets); then agg
 * emits the groups of parts[0..nparts) — aggregates of the same node over
 * disjoint groups — instead of its own, and calls release(ctx) when it is
 * closed (the parts' memory). */
bool exec__agg_partitionable(const PlanNode *n);
/* An aggregation (no grouping sets) whose DISTINCT calls all take the
 * same single argument: that argument (threads can split the rows by its
 * hash, with the GROUP BY keys if any: their (group, value) pairs are then
 * disjoint), else NULL. */
const Expr *exec__agg_distinct_key(const PlanNode *n);
void exec__agg_set_parts(ExecOp *agg, ExecOp **parts, int nparts, void (*release)(void *ctx), void *ctx);
/* One thread of a partitioned aggregation: every batch reaching agg's sink
 * has been through the partition filter, whose key vectors (the GROUP BY
 * keys, in order) and hashes (exec__hash_vector's, one per active row) are
 * keys and hashes; without GROUP BY the one key is the DISTINCT calls'
 * argument. The aggregate looks its groups (or DISTINCT values) up with
 * them instead of evaluating and hashing again. */
void exec__agg_prehashed(ExecOp *agg, Vector **keys, const uint64_t *hashes);
/* op_sort.c: a worker's sort (the leader's run-time top-N bound copied);
 * feed a worker's rows (its top-N under a LIMIT) into `into`'s sink. */
ExecOp *exec__op_sort_worker(ExecQuery *wq, const ExecOp *leader);
void exec__sort_merge(ExecOp *into, ExecOp *from);
/* filter_kernels.c: a filter that is one `column op constant` over int2/4/8
 * (any mix), or date/time/timestamp[tz] against the same type, or text /
 * varchar `= ''` / `<> ''` (phys PHYS_STR), evaluated straight into a
 * selection (no boolean vector). init: false when the types or the
 * constant (NULL, outside the column's range) do not fit. */
typedef enum ExecCmpOp { EXEC_CMP_EQ, EXEC_CMP_NE, EXEC_CMP_LT, EXEC_CMP_LE, EXEC_CMP_GT, EXEC_CMP_GE } ExecCmpOp;
typedef struct ExecCmpFilter {
    int column;        /* input column */
    ExecCmpOp op;      /* column op value */
    PhysType phys;     /* the column's */
    int64_t value;     /* fits the column's type */
} ExecCmpFilter;
bool exec__cmp_filter_init(SqlType col_type, ExecCmpOp op, SqlType const_type, const Value *v,
                           int column, ExecCmpFilter *f);
/* Rows of b (no selection; the column flat, of f->phys) passing f, into
 * sel; their count. When every row passed (count == b->count) sel may be
 * left unwritten: the batch needs no selection. */
uint32_t exec__cmp_filter_select(const ExecCmpFilter *f, const Batch *b, uint16_t *sel);
/* Tests: true forces the portable kernels where AVX2 ones would run. */
extern bool exec__cmp_filter_portable;
/* The PLAN_KERN_* bits of the variant exec__cmp_filter_select takes for f
 * on this machine (variant, type, operator, target_clones clone). */
uint64_t exec__cmp_filter_kernels(const ExecCmpFilter *f);
/* PLAN_KERN_CLONE_AVX2 or _DEFAULT: the clone the ifuncs of
 * target_clones("default", "avx2") kernels resolve to (the CPU's avx2
 * flag, read once at startup; 0 where there are no clones). */
extern uint64_t exec__kern_clone;

/* EXPLAIN ANALYZE counters of op's node (NULL when not measuring). */
static inline PlanNodeStats *exec__op_stats(const ExecOp *op)
{
    const ExecShared *sh = op->q->shared;
    int id = op->node->node_id;
    return sh && sh->stats && id >= 0 && id < sh->nstats ? &sh->stats[id] : NULL;
}
/* Where op ORs its PLAN_KERN bits: its node's PlanNodeStats.kernels, or
 * `spare` (a word of the operator's state) when not measuring — so the
 * data path writes unconditionally, once per batch or start, never per row.
 * Ask at operator creation (parallel workers have counters of their own,
 * added to the leader's after the join). */
static inline uint64_t *exec__kern_word(const ExecOp *op, uint64_t *spare)
{
    PlanNodeStats *ps = exec__op_stats(op);
    return ps ? &ps->kernels : spare;
}
/* offset + limit of a LIMIT operator, -1 when it has no limit. */
int64_t exec__limit_total(const ExecOp *op);

/* Join kinds as the operators implement them (mapped from the plan node). */
typedef enum ExecJoinKind {
    EXEC_JOIN_INNER,
    EXEC_JOIN_LEFT,      /* unmatched left rows null-extended */
    EXEC_JOIN_RIGHT,     /* unmatched right (build/inner) rows null-extended, at flush */
    EXEC_JOIN_FULL,
    EXEC_JOIN_SEMI,      /* left rows with a match, once; output = left columns */
    EXEC_JOIN_ANTI,      /* left rows without a match */
    EXEC_JOIN_ANTI_NA,   /* NOT IN: anti with SQL's NULL rules (a NULL comparison excludes) */
    EXEC_JOIN_MARK,      /* every left row plus a bool: matched (NULL: might match, null-aware) */
} ExecJoinKind;
ExecJoinKind exec__join_kind(const PlanNode *n);
static inline bool exec__join_left_only(ExecJoinKind k)
{
    return k == EXEC_JOIN_SEMI || k == EXEC_JOIN_ANTI || k == EXEC_JOIN_ANTI_NA || k == EXEC_JOIN_MARK;
}
/* Null-extension helpers: a vector that is NULL in every row (constant). */
void exec__vec_const_null(Vector *v, SqlType type, MemArena *arena);

/* Semi/anti/mark output of a left batch from per-row match flags (op_hashjoin.c). */
Batch *exec__join_left_output(ExecJoinKind kind, const uint8_t *lmatched, Batch *in, Batch *o,
                              Vector *cols, uint16_t *sel);
/* Joins: output = left columns of rows pair_l, then right columns of stored rows pair_r. */
void exec__join_gather(const Batch *in, const uint16_t *pair_l, const ExecColumn *rstore, int rcols,
                       const uint32_t *pair_r, uint32_t n, Batch *out);
/* Apply a join condition to out as a selection (sel is the operator's buffer). */
void exec__join_residual(ExprProg *p, MemArena *scratch, uint16_t *sel, Batch *out);

/* Allocate an operator with the given state size. */
ExecOp *exec__op_new(ExecQuery *q, const PlanNode *n, size_t state_size);
/* Output batch of ncols owned vectors of the given types. */
Batch *exec__batch_new(ExecQuery *q, int ncols, const SqlType *types);

/* A plan cut into pipelines, in dependency order (root last). */
struct ExecPlanRun {
    ExecQuery *q;
    int npipes;
    ExecPipeline **pipes;
    int current;
    ExecOp *insert;             /* root sink of INSERT, else NULL */
    ExecOp **all_ops;
    int nall, all_cap;
    bool closed;
};

ExecPlanRun *exec__plan_new(ExecQuery *q);
/* Cut root into pipelines and initialise every operator (scans begin). */
void exec__plan_build(ExecPlanRun *r, const PlanNode *root);
/* Output callback of the root pipeline: returns false to suspend after
 * this batch (the callback keeps what it could not send). */
typedef bool (*ExecEmitFn)(void *ctx, Batch *b);
/* Run pipelines; returns true when everything finished, false when emit
 * asked to suspend. */
bool exec__plan_run(ExecPlanRun *r, ExecEmitFn emit, void *ctx);
void exec__plan_close(ExecPlanRun *r);

/*
 * Pulling a subtree one batch at a time (APPEND children, CTE
 * materialisation, recursive terms, subplans, lateral sides): a nested run
 * whose root pipeline suspends after every batch. With rerun, the subtree
 * lives in its own arena and is rebuilt by exec__sub_start (new outer
 * values, fresh operators) — plans are never re-planned, only re-run.
 */
typedef struct ExecSubRun {
    const PlanNode *root;
    ExecQuery q;              /* copy of the parent's, arena/outer/scratch its own */
    ExecQuery *parent;
    MemArena *arena;          /* rerun: reset at every start; else the parent's */
    ExecPlanRun *run;
    Batch *batch;             /* the last batch pulled */
    bool got, finished, rerun;
    uint64_t starts;
} ExecSubRun;
ExecSubRun *exec__sub_new(ExecQuery *parent, const PlanNode *root, bool rerun);
/* (Re)start the subtree with these outer slot values (copied by pointer). */
void exec__sub_start(ExecSubRun *s, const Value *outer, int nouter);
/* Next batch of the subtree; false at its end. Valid until the next call. */
bool exec__sub_next(ExecSubRun *s, Batch **out);
/* Close every nested run created under q (scans ended, arenas freed). */
void exec__subs_close(ExecQuery *q);
/* Row sets: column stores of n's column types. */
void exec__rowset_init(ExecRowSet *rs, const PlanNode *n, MemArena *arena);
void exec__rowset_clear(ExecRowSet *rs);
void exec__rowset_append(ExecRowSet *rs, MemArena *arena, const Batch *b);
/* Batch rows [pos, pos+n) of a row set as views (pos multiple of 64). */
void exec__rowset_view(const ExecRowSet *rs, uint32_t pos, Batch *out);

/* ---------- set-returning functions (srf.c), issue 4 ---------- */

/* A generator of one table function's rows (TableFuncKind) for one
 * argument tuple at a time: PLAN_FUNCTION_SCAN starts it once,
 * PLAN_PROJECT_SET once per input row. */
typedef struct ExecSrf ExecSrf;
/* ncols output columns of col_types; arg_types are the arguments' types. */
ExecSrf *exec__srf_new(ExecQuery *q, TableFuncKind kind, int nargs, const SqlType *arg_types, int ncols,
                       const SqlType *col_types);
/* Start over with argument values v[0..nargs) (strings must stay valid
 * until the generator is restarted or exhausted). Raises the function's
 * errors (22023 ...). */
void exec__srf_start(ExecSrf *s, const Value *v);
/* Write up to max rows into cols[0..ncols) at rows at, at+1, ...; returns
 * how many (< max: exhausted). String results go to out (reset by the
 * caller per output batch) or point into the arguments. */
uint32_t exec__srf_fill(ExecSrf *s, Vector *cols, uint32_t at, uint32_t max, MemArena *out);

/* funcs_regex.c: every match of one string (PostgreSQL's
 * setup_regexp_matches), for regexp_matches / regexp_split_to_*. offs
 * holds n matches of width (start, end) byte-offset pairs (UINT32_MAX for
 * a group that did not participate); the buffer grows in arena and is
 * reused by the next call. */
typedef struct ExecRegexMatches {
    uint32_t *offs;
    uint32_t cap, n, width;
} ExecRegexMatches;
void exec__regex_all(ExecRegexMatches *m, StrRef s, StrRef pat, StrRef flags, bool split, const char *fname,
                     MemArena *arena);

ExecOp *exec__op_project_set(ExecQuery *q, const PlanNode *n);

/* Evaluate an expression without input columns (constants, parameters,
 * outer references of this run); strings in q->arena. */
void exec__eval_const(ExecQuery *q, const Expr *e, Value *out);
/* Evaluate a LIMIT/OFFSET style integer expression; false when NULL. */
bool exec__eval_int8(ExecQuery *q, const Expr *e, int64_t *out);

/* ---------- sessions, transactions, utility statements ---------- */

typedef struct ExecGucUndo {
    char *name;
    char *old_value;
    bool is_local;
} ExecGucUndo;

struct ExecSession {
    char *user;
    char *database;
    GucSet *guc;
    StoreTxn *txn;          /* open storage transaction, NULL = none */
    bool in_block;          /* explicit BEGIN block */
    bool implicit_block;    /* a multi-statement Query: PostgreSQL's implicit block */
    bool failed;            /* block failed: only COMMIT/ROLLBACK accepted */
    ExecGucUndo *undo;      /* settings to restore at transaction end (malloc) */
    int nundo, undo_cap;
    /* ---- issue 3: savepoints (utility_ddl3.c) ---- */
    char **sp_names;        /* sp_names[i] is storage savepoint level i + 1 (malloc) */
    int nsp, sp_cap;
    /* ---- temporary tables' ON COMMIT actions (temp.c) ---- */
    struct ExecOnCommit *on_commit;   /* malloc */
    int non_commit, on_commit_cap;
};

/* Begin a storage transaction unless one is open. */
void exec__txn_ensure(ExecSession *s);
/* End the storage transaction (commit or roll back) and restore settings:
 * SET LOCAL values always, every SET of the transaction on rollback. */
void exec__txn_finish(ExecSession *s, bool commit);
/* Remember name's current value before SET/RESET changes it. */
void exec__guc_remember(ExecSession *s, const char *name, bool is_local);
/* TRUNCATE, VACUUM, ANALYZE, CHECKPOINT, savepoints (utility_ddl3.c). */
void exec__utility_ddl3(ExecSession *s, const UtilityStmt *u, MemArena *arena);
/* UTIL_SEQUENCE (utility_seq.c, sequences); exec__seq_drop_owned: DROP TABLE's owned sequences. */
void exec__utility_seq(ExecSession *s, const UtilityStmt *u, MemArena *arena);
/* UTIL_VIEW: CREATE [OR REPLACE] VIEW / DROP VIEW in the store (utility_view.c). */
void exec__utility_view(const UtilityStmt *u, MemArena *arena);
void exec__seq_drop_owned(uint32_t table_oid);
/* BEGIN ISOLATION LEVEL x: apply u->ddl3_name (if any) to the new block's
 * transaction and to the transaction_isolation setting (utility_ddl3.c). */
void exec__ddl3_begin(ExecSession *s, const UtilityStmt *u);
/* SET [TRANSACTION] transaction_isolation: true when u was that setting and
 * has been handled (store_txn_set_isolation), false for any other SET. */
bool exec__ddl3_set_isolation(ExecSession *s, const UtilityStmt *u);
/* Whether a utility statement runs without taking a snapshot (BEGIN, SET,
 * RESET, SHOW), so that SET TRANSACTION may still follow it. */
bool exec__ddl3_no_snapshot(const struct Plan *plan);
/* Forget every savepoint name (transaction end); frees the names. */
void exec__savepoints_reset(ExecSession *s);
/* Temporary tables (temp.c): remember CREATE TEMP TABLE ... ON COMMIT
 * DELETE ROWS (2) / DROP (3) of table oid; carry the actions out in the
 * committing transaction (called by exec__txn_finish before the commit;
 * may raise, and the transaction is then rolled back); DISCARD TEMP; the
 * session's end (drops its temporary tables; never raises). */
void exec__temp_on_commit_add(ExecSession *s, uint32_t oid, int action);
void exec__temp_pre_commit(ExecSession *s);
void exec__temp_discard(ExecSession *s);
void exec__temp_session_end(ExecSession *s);

/* Result rows of a utility statement (SHOW, EXPLAIN): text cells, row-major. */
typedef struct ExecUtilRows {
    int ncols;
    int nrows;
    const char **cells;
} ExecUtilRows;

/* Run a utility statement. Fills rows (SHOW/EXPLAIN) and the command tag. */
void exec__utility_run(ExecSession *s, const Plan *plan, const Value *params, int nparams, MemArena *arena,
                       ExecUtilRows *rows, char *tag, size_t tag_size);
/* EXPLAIN ANALYZE: run plan to completion discarding its rows, filling
 * stats[node_id] (zeroed by the caller; times made inclusive of children);
 * returns the total time in ms. */
double exec__run_analyze(ExecSession *s, const Plan *plan, const Value *params, int nparams, MemArena *arena,
                         PlanNodeStats *stats);

#endif
