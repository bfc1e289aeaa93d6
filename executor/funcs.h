/*
 * funcs.h — the registry of scalar functions, operators, casts and
 * aggregates: what the planner resolves names against, and what the
 * executor runs. Like PostgreSQL's pg_proc/pg_operator/pg_cast/pg_aggregate,
 * but tables in C (executor/funcs_*.c), with kernels generated per type.
 *
 * Operators are functions named by their symbol ("+", "=", "<>", "||",
 * "~~" for LIKE, "~~*" for ILIKE, "!~~" NOT LIKE, "!~~*"); unary minus is
 * "-" with one argument. The planner picks among candidates with
 * PostgreSQL's rules (exact match, then implicit casts, preferred types,
 * unknown literals) and wraps arguments in casts to the chosen signature,
 * so a kernel always receives exactly its declared argument types.
 *
 * Kernels are called once per batch, never per row.
 */
#ifndef STRATA_EXECUTOR_FUNCS_H
#define STRATA_EXECUTOR_FUNCS_H

#include <stdbool.h>
#include <stdint.h>
#include "common/arena.h"
#include "common/types.h"
#include "common/vector.h"

#define FUNC_MAX_ARGS 4
/* Declared argument slots of a FuncDesc (make_timestamptz, make_interval
 * take 7); FUNC_MAX_ARGS * 4 stays the limit of a call's arguments. */
#define FUNC_MAX_DECLARED_ARGS 8
/* PostgreSQL's "any" pseudo-type as a declared argument type: the planner
 * passes the argument with its own type (unknown literals become text) and
 * the kernel reads args[i]->type (concat, format, to_json, json builders). */
#define FUNC_ARG_ANY 2276u
/* PostgreSQL's anyelement where the result type is fixed (to_json): as
 * "any", but an unknown literal is 42804 "could not determine polymorphic
 * type because input has type unknown". */
#define FUNC_ARG_ANYELEMENT 2283u

/* Same typedefs as planner/plan.h's forward declarations (C11 allows both). */
typedef struct FuncDesc FuncDesc;
typedef struct CastDesc CastDesc;
typedef struct AggDesc AggDesc;

/*
 * Evaluation context handed to kernels: the batch's selection and count,
 * and an arena for results that need memory (strings, numerics) that is
 * reset per batch by the caller.
 */
typedef struct FuncCallCtx {
    const uint16_t *sel;   /* active rows (NULL = 0..count) */
    uint32_t count;
    MemArena *arena;       /* per-batch scratch for string/numeric results */
    SqlType result_type;   /* with typmod */
} FuncCallCtx;

/*
 * A vectorised kernel: compute result rows for the active rows of args.
 * Strict functions never see NULL inputs in active rows that matter: the
 * caller computes the result validity (AND of argument validities) first
 * and the kernel may compute garbage for NULL rows, but must not fault or
 * raise on them (e.g. division: skip rows whose divisor is invalid).
 * Raises errors (22003, 22012) after the loop, once per batch.
 */
typedef void (*FuncKernel)(const FuncCallCtx *ctx, Vector *const *args, Vector *result);

typedef enum FuncFlags {
    FUNC_STRICT = 1 << 0,     /* NULL in → NULL out (most functions) */
    FUNC_VOLATILE = 1 << 1,   /* not constant-foldable (random, now is stable) */
    FUNC_STABLE = 1 << 2,     /* constant within a statement (now()) */
    FUNC_VARIADIC = 1 << 3,   /* last argtype repeats (concat) */
} FuncFlags;

struct FuncDesc {
    const char *name;                 /* lower case; operator symbol for operators */
    int nargs;
    uint32_t argtypes[FUNC_MAX_DECLARED_ARGS]; /* TypeOids (or FUNC_ARG_ANY) */
    uint32_t rettype;
    uint32_t flags;                   /* FuncFlags */
    FuncKernel kernel;
    uint32_t oid;                     /* stable id (PostgreSQL's pg_proc OID where one exists) */
};

typedef enum CastContext {
    CAST_IMPLICIT = 'i',     /* applied silently in expressions */
    CAST_ASSIGNMENT = 'a',   /* INSERT/UPDATE targets */
    CAST_EXPLICIT = 'e',     /* only CAST()/:: */
} CastContext;

struct CastDesc {
    uint32_t source;
    uint32_t target;
    char context;            /* CastContext */
    /* Converts the active rows; result typmod (varchar(n), numeric(p,s))
     * applied from ctx->result_type; raises 22P02/22003/22001 per PostgreSQL. */
    FuncKernel kernel;
};

typedef struct FuncCandidates {
    int count;
    const FuncDesc *items[160];   /* "||" has one per array type x 3 forms */
} FuncCandidates;

/* All functions/operators of that name and arity (variadic ones match any
 * arity ≥ their nargs: at least one argument for the variadic parameter,
 * as PostgreSQL's). */
void exec_func_candidates(const char *name, int nargs, FuncCandidates *out);
/* NULL when no cast exists. Same-type casts are not listed (no-op except
 * typmod coercion, which the executor does with the "typmod" cast:
 * exec_cast_lookup(t, t) returns a length/precision coercion for
 * varchar/bpchar/numeric, NULL for others). */
const CastDesc *exec_cast_lookup(uint32_t source, uint32_t target);
/* The kernel of every array-to-array cast t[] -> u[] (funcs_array.c): the
 * element cast t -> u (its explicit form when is_explicit) over the batch's
 * flattened elements, shapes and NULL elements kept. The planner builds the
 * CastDesc (planner/coerce.c: context = the element cast's). */
FuncKernel exec_array_cast_kernel(bool is_explicit);
/* Array <-> text/varchar/bpchar I/O casts (funcs_array.c): array_out when
 * to_text, else array_in of ctx->result_type. */
FuncKernel exec_array_io_cast_kernel(bool to_text);

/* Aggregates. Result types as PostgreSQL: count → int8; sum(int2/int4) →
 * int8, sum(int8/numeric) → numeric, sum(float4) → float4, sum(float8) →
 * float8; avg(int2/int4/int8/numeric) → numeric,
 * avg(float4/float8) → float8; min/max → arg type. */
typedef enum AggKind {
    AGG_COUNT_STAR,
    AGG_COUNT,
    AGG_SUM,
    AGG_AVG,
    AGG_MIN,
    AGG_MAX,
} AggKind;

/*
 * Aggregates beyond count/sum/avg/min/max (funcs_agg.c) are "generic": their
 * AggDesc has kind AGG_GENERIC and an AggImpl that op_agg drives. (AGG_GENERIC
 * is a macro outside the enum so that switches over AggKind without a
 * default stay warning-free; op_agg tests `desc->impl != NULL` first.)
 *
 * A group's state is state_size bytes, all zero initially (no init call).
 * update() folds n (row, group) pairs of one batch — row rows[i] of the
 * argument vectors goes to the state at states + grp[i] * state_size —
 * and is called once per batch (one indirect call per batch, loops inside).
 * Rows whose first argument is NULL are skipped by update() itself (these
 * aggregates are strict in it, except array_agg, which keeps NULL elements
 * as PostgreSQL's; so op_agg must pass NULL rows through); arg2 is the second argument (corr(y, x):
 * x; string_agg: the delimiter; percentile_*: the fraction) or NULL for
 * one-argument aggregates. `arena` holds memory owned by states (string_agg
 * text, percentile value lists) and lives as long as the states; `scratch`
 * may be reset after each batch. final() writes one group's result into
 * out at row (vec_set_null for SQL NULL), result bytes from `arena`.
 * Aggregates with argtype2 == TYPE_INVALID take one argument.
 */
typedef struct AggImpl {
    uint32_t state_size;
    void (*update)(uint8_t *states, const uint32_t *grp, const uint16_t *rows, uint32_t n,
                   const Vector *arg, const Vector *arg2, MemArena *arena, MemArena *scratch);
    void (*final)(const uint8_t *state, Vector *out, uint32_t row, MemArena *arena);
} AggImpl;

#define AGG_GENERIC ((AggKind)100)

struct AggDesc {
    const char *name;
    AggKind kind;
    uint32_t argtype;      /* TYPE_INVALID for count(*); count(any) accepts every type */
    uint32_t rettype;
    uint32_t argtype2;     /* second argument, TYPE_INVALID for one-argument aggregates */
    const AggImpl *impl;   /* non-NULL exactly for AGG_GENERIC */
    bool ordered_set;      /* percentile_cont/disc, mode: WITHIN GROUP (ORDER BY arg);
                              arg2 is the direct argument (the fraction) */
};

/* NULL when no aggregate of that name accepts argtype (after the planner's
 * coercions: it tries exact, then implicit casts). */
const AggDesc *exec_agg_lookup(const char *name, uint32_t argtype);
/* Two-argument aggregates (corr(y, x), string_agg(value, delimiter),
 * percentile_cont(fraction) WITHIN GROUP (ORDER BY value) with argtype =
 * the ORDER BY value's type and argtype2 = the fraction's): exact types. */
const AggDesc *exec_agg_lookup2(const char *name, uint32_t argtype, uint32_t argtype2);
bool exec_is_aggregate_name(const char *name);

/* ---------- additions (funcs engineer) ---------- */

/*
 * The explicit form of a cast (CAST(x AS t), x::t): identical to
 * exec_cast_lookup() except that a length coercion to varchar(n)/char(n)
 * truncates silently instead of raising 22001, as PostgreSQL's
 * isExplicit argument of varchar()/bpchar(). The planner stores this
 * descriptor in EXPR_CAST for explicit casts. NULL when no cast exists at
 * all (the caller checks the context: every listed cast is allowed
 * explicitly).
 */
const CastDesc *exec_cast_lookup_explicit(uint32_t source, uint32_t target);

/* Every registered function, for tests and EXPLAIN-style listings. */
/* Anonymous records (funcs_record.c, issue 6): the value is record_out's
 * text; the planner keeps the field list (planner/bind_record.c). The
 * builder of a record of nfields fields (any types, NULLs allowed; NULL
 * when nfields > EXEC_RECORD_MAX_FIELDS), and record_field(record, int4
 * index) → text, NULL for a NULL field. Neither has a SQL name. */
#define EXEC_RECORD_MAX_FIELDS 16
const FuncDesc *exec_record_build(int nfields);
const FuncDesc *exec_record_field(void);
int exec_func_count(void);
const FuncDesc *exec_func_at(int idx);

/* version()'s text, PostgreSQL-shaped (also server_version's long form). */
#define EXEC_VERSION_STRING \
    "PostgreSQL 15.0 (Strata 0.1.0) on x86_64-pc-linux-gnu, compiled by gcc, 64-bit"

/* Internal: each funcs_*.c contributes a table (registry built in funcs.c). */
extern const FuncDesc exec__funcs_arith[];
extern const int exec__funcs_arith_count;
extern const FuncDesc exec__funcs_cmp[];
extern const int exec__funcs_cmp_count;
extern const FuncDesc exec__funcs_string[];
extern const int exec__funcs_string_count;
extern const FuncDesc exec__funcs_misc[];
extern const int exec__funcs_misc_count;
extern const FuncDesc exec__funcs_text[];
extern const int exec__funcs_text_count;
extern const FuncDesc exec__funcs_regex[];
extern const int exec__funcs_regex_count;
extern const FuncDesc exec__funcs_array[];   /* funcs_array.c: subscripts, array functions */
extern const int exec__funcs_array_count;
extern const FuncDesc exec__funcs_math[];
extern const int exec__funcs_math_count;
extern const FuncDesc exec__funcs_datetime[];
extern const int exec__funcs_datetime_count;
extern const FuncDesc exec__funcs_json[];
extern const int exec__funcs_json_count;
extern const FuncDesc exec__funcs_make[];
extern const int exec__funcs_make_count;
extern const FuncDesc exec__funcs_numfmt[];
extern const int exec__funcs_numfmt_count;
extern const FuncDesc exec__funcs_todate[];
extern const int exec__funcs_todate_count;
/* The per-arity instance of a variadic json function (funcs_json.c), NULL
 * when f is not one. */
const FuncDesc *exec__json_variadic_instance(const FuncDesc *f, int nargs);
extern const FuncDesc exec__funcs_catalog[];   /* funcs_catalog.c (issue 6) */
extern const int exec__funcs_catalog_count;
extern const FuncDesc exec__funcs_sequence[];   /* funcs_sequence.c (seq) */
extern const int exec__funcs_sequence_count;
/* The session whose search_path and user resolve sequence names in
 * nextval & co. on this thread (session.c calls it when a transaction starts). */
struct GucSet;
void exec__seq_set_session(struct GucSet *guc, const char *user);
/* Generic aggregates (funcs_agg.c). */
extern const AggDesc exec__aggs_generic[];
extern const int exec__aggs_generic_count;
/* Numeric square root rounded to rscale digits (funcs_math.c; used by
 * sqrt(numeric) and the numeric stddev aggregates). */
StrRef exec__numeric_sqrt(StrRef x, int rscale, MemArena *arena);
/* The instance of variadic function f for a call with nargs arguments (its
 * kernel knows the count); f itself when f has no per-arity instances. */
const FuncDesc *exec__variadic_instance(const FuncDesc *f, int nargs);
/* Catalog types' operators and casts (funcs_oidtypes.c, issue 6): oid,
 * reg*, name, "char"; the cast lookups fall back to this small table. */
extern const FuncDesc exec__funcs_oidtypes[];
extern const int exec__funcs_oidtypes_count;
/* Integer bit operators & | # ~ << >> (funcs_bitwise.c, issue 6). */
extern const FuncDesc exec__funcs_bitwise[];
extern const int exec__funcs_bitwise_count;
const CastDesc *exec__cast_oidtypes_lookup(uint32_t source, uint32_t target);
/* Casts: implicit/assignment table and its explicit twin (same order). */
extern const CastDesc exec__casts[];
extern const CastDesc exec__casts_explicit[];
extern const int exec__casts_count;

#endif
