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
    bool failed;            /* block failed: only COMMIT/ROLLBACK accepted */
    ExecGucUndo *undo;      /* settings to restore at transaction end (malloc) */
    int nundo, undo_cap;
};

/* Begin a storage transaction unless one is open. */
void exec__txn_ensure(ExecSession *s);
/* End the storage transaction (commit or roll back) and restore settings:
 * SET LOCAL values always, every SET of the transaction on rollback. */
void exec__txn_finish(ExecSession *s, bool commit);
/* Remember name's current value before SET/RESET changes it. */
void exec__guc_remember(ExecSession *s, const char *name, bool is_local);

/* Result rows of a utility statement (SHOW, EXPLAIN): text cells, row-major. */
typedef struct ExecUtilRows {
    int ncols;
    int nrows;
    const char **cells;
} ExecUtilRows;

/* Run a utility statement. Fills rows (SHOW/EXPLAIN) and the command tag. */
void exec__utility_run(ExecSession *s, const Plan *plan, MemArena *arena, ExecUtilRows *rows,
                       char *tag, size_t tag_size);

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

/* What every operator of one portal shares. */
typedef struct ExecQuery {
    MemArena *arena;          /* the query arena: everything lives here */
    StoreTxn *txn;            /* the session's transaction */
    const Value *params;
    int nparams;
    MemArena **scratch;       /* per-operator scratch arenas (destroyed at close) */
    int nscratch, scratch_cap;
} ExecQuery;

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
/* Turn a boolean vector into the selection of rows that are true (NULL and
 * false dropped), branch-free. Returns the new count; out_sel may alias sel. */
uint32_t exec__select_true(const Vector *pred, const uint16_t *sel, uint32_t count, uint16_t *out_sel);

/* ---------- growable column stores (colstore.c) ---------- */

/* One column of rows kept beyond a batch (sort input, hash build side,
 * group keys). Contiguous and geometrically grown; strings copied into the
 * query arena. Validity as a bitmap so 2048-row windows at multiples of 64
 * can be handed out as vectors without copying. */
typedef struct ExecColumn {
    SqlType type;
    PhysType phys;
    uint32_t elem;
    uint8_t *data;
    uint64_t *validity;
    uint32_t count, cap;
    bool has_null;
} ExecColumn;

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
    uint32_t *slots;       /* open addressing: group index + 1, 0 = empty */
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
} ExecGroupTable;

void exec__gt_init(ExecGroupTable *gt, MemArena *arena, int nkeys, const SqlType *types);
/* Find or create the group of each active row of keys (n rows: sel or 0..n).
 * group_of[i] for the i-th active row; returns the number of new groups
 * (groups ngroups_before..ngroups-1; gt->newpos[j] is the position i of
 * the row that created group ngroups_before + j). */
uint32_t exec__gt_lookup(ExecGroupTable *gt, Vector *const *keys, const uint16_t *sel, uint32_t n,
                         uint32_t *group_of);

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
    bool finished;
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
uint64_t exec__insert_count(const ExecOp *op);
/* ORDER BY under LIMIT: only the first topn rows will be read. */
void exec__sort_set_topn(ExecOp *op, int64_t topn);
/* offset + limit of a LIMIT operator, -1 when it has no limit. */
int64_t exec__limit_total(const ExecOp *op);

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
typedef struct ExecPlanRun {
    ExecQuery *q;
    int npipes;
    ExecPipeline **pipes;
    int current;
    ExecOp *insert;             /* root sink of INSERT, else NULL */
    ExecOp **all_ops;
    int nall, all_cap;
} ExecPlanRun;

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
    bool failed;            /* block failed: only COMMIT/ROLLBACK accepted */
    ExecGucUndo *undo;      /* settings to restore at transaction end (malloc) */
    int nundo, undo_cap;
};

/* Begin a storage transaction unless one is open. */
void exec__txn_ensure(ExecSession *s);
/* End the storage transaction (commit or roll back) and restore settings:
 * SET LOCAL values always, every SET of the transaction on rollback. */
void exec__txn_finish(ExecSession *s, bool commit);
/* Remember name's current value before SET/RESET changes it. */
void exec__guc_remember(ExecSession *s, const char *name, bool is_local);

/* Result rows of a utility statement (SHOW, EXPLAIN): text cells, row-major. */
typedef struct ExecUtilRows {
    int ncols;
    int nrows;
    const char **cells;
} ExecUtilRows;

/* Run a utility statement. Fills rows (SHOW/EXPLAIN) and the command tag. */
void exec__utility_run(ExecSession *s, const Plan *plan, MemArena *arena, ExecUtilRows *rows,
                       char *tag, size_t tag_size);

#endif
