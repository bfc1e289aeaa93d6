/*
 * expr.c — expression programs: an Expr tree compiled once per operator
 * into a flat array of steps, evaluated one batch at a time.
 *
 * Why: the planner's Expr tree is immutable and shared by executions; the
 * program adds what one execution needs — a preallocated result vector per
 * step (allocated at operator init, reused for every batch), parameters
 * turned into constant vectors, sub-selection buffers for AND/OR/CASE/IN.
 *
 * Evaluation works on the active rows of a batch (sel/count). Every step's
 * result is indexed by row like its input, so column references are just
 * pointers to the input vectors (zero copy). Functions and casts run their
 * vectorised kernels (executor/funcs.h) once per batch; for strict ones the
 * result validity is the AND of the argument bitmaps, 64 rows per word,
 * computed here before the kernel runs. Control-flow steps (AND, OR, CASE,
 * IN) evaluate their arguments on shrinking sub-selections, which gives
 * PostgreSQL's short-circuit semantics batch-wise: in `x <> 0 AND 10 / x > 1`
 * the division never sees the rows where x = 0.
 *
 * No per-row indirect call: kernels are called per batch; the loops here
 * are plain loops over uint8 booleans and bitmaps.
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

#include <string.h>
#include "common/array.h"
#include "common/error.h"

#define ONES8 ~UINT64_C(0), ~UINT64_C(0), ~UINT64_C(0), ~UINT64_C(0), \
              ~UINT64_C(0), ~UINT64_C(0), ~UINT64_C(0), ~UINT64_C(0)
const uint64_t exec__all_valid[VEC_VALIDITY_WORDS] = {ONES8, ONES8, ONES8, ONES8};
_Static_assert(VEC_VALIDITY_WORDS == 32, "exec__all_valid initialiser assumes 2048 rows");

uint16_t exec__identity_sel[VEC_CAPACITY];

__attribute__((constructor)) static void exec_identity_init(void)
{
    for (uint32_t i = 0; i < VEC_CAPACITY; i++)
        exec__identity_sel[i] = (uint16_t)i;
}

/* ---------- compilation ---------- */

static int expr_count(const Expr *e)
{
    int n = 1;
    for (int i = 0; i < e->nargs; i++)
        n += expr_count(e->args[i]);
    return n;
}

static void const_vector(Vector *v, SqlType type, const Value *val, MemArena *arena)
{
    vec_init(v, type, arena);
    v->is_const = true;
    if (val->is_null) {
        vec_set_null(v, 0);
    } else {
        vec_set_value(v, 0, val);
        v->validity = NULL;
    }
}

static ExprStepKind step_kind(const Expr *e)
{
    switch (e->kind) {
    case EXPR_CONST: case EXPR_PARAM: case EXPR_OUTER_REF: return STEP_CONST;
    case EXPR_COLUMN: case EXPR_AGG_RESULT: return STEP_COLUMN;
    case EXPR_FUNC: return STEP_FUNC;
    case EXPR_CAST: return STEP_CAST;
    case EXPR_AND: return STEP_AND;
    case EXPR_OR: return STEP_OR;
    case EXPR_NOT: return STEP_NOT;
    case EXPR_IS_NULL: return STEP_IS_NULL;
    case EXPR_IS_NOT_NULL: return STEP_IS_NOT_NULL;
    case EXPR_CASE: return STEP_CASE;
    case EXPR_IN_LIST: return STEP_IN_LIST;
    case EXPR_SUBPLAN: return STEP_SUBPLAN;
    case EXPR_ARRAY: return STEP_ARRAY;
    case EXPR_SRF: break;   /* planned into PLAN_PROJECT_SET, never compiled */
    }
    err_raise(ERRCODE_INTERNAL_ERROR, "unrecognized expression kind %d", (int)e->kind);
}

static int compile_step(ExecQuery *q, ExprProg *p, const Expr *e)
{
    int *args = e->nargs ? MEM_NEW_ARRAY(q->arena, int, e->nargs) : NULL;
    for (int i = 0; i < e->nargs; i++)
        args[i] = compile_step(q, p, e->args[i]);
    int idx = p->nsteps++;
    ExprStep *st = &p->steps[idx];
    st->kind = step_kind(e);
    st->expr = e;
    st->nargs = e->nargs;
    st->args = args;
    st->out = &st->own;
    switch (st->kind) {
    case STEP_CONST:
        if (e->kind == EXPR_PARAM) {
            if (e->index < 0 || e->index >= q->nparams)
                err_raise(ERRCODE_UNDEFINED_PARAMETER, "there is no parameter $%d", e->index + 1);
            const_vector(&st->own, e->type, &q->params[e->index], q->arena);
        } else if (e->kind == EXPR_OUTER_REF) {
            if (e->index < 0 || e->index >= q->nouter)
                err_raise(ERRCODE_INTERNAL_ERROR, "outer reference %d outside its subplan", e->index);
            const_vector(&st->own, e->type, &q->outer[e->index], q->arena);
        } else {
            const_vector(&st->own, e->type, &e->value, q->arena);
        }
        break;
    case STEP_COLUMN:
        st->column = e->index;
        st->out = NULL;
        break;
    case STEP_FUNC:
        ERR_ASSERT(e->func != NULL && e->func->kernel != NULL);
        vec_init(&st->own, e->type, q->arena);
        break;
    case STEP_CAST:
        ERR_ASSERT(e->cast != NULL && e->cast->kernel != NULL && e->nargs == 1);
        vec_init(&st->own, e->type, q->arena);
        break;
    case STEP_IN_LIST:
        ERR_ASSERT(e->func != NULL && e->func->kernel != NULL);
        vec_init(&st->tmp, SQLTYPE(TYPE_BOOL), q->arena);
        /* fall through */
    case STEP_AND: case STEP_OR: case STEP_CASE:
        st->flags = mem_alloc(q->arena, VEC_CAPACITY);
        st->subsel = mem_alloc(q->arena, VEC_CAPACITY * sizeof(uint16_t));
        st->subsel2 = mem_alloc(q->arena, VEC_CAPACITY * sizeof(uint16_t));
        vec_init(&st->own, e->type, q->arena);
        break;
    case STEP_NOT: case STEP_IS_NULL: case STEP_IS_NOT_NULL:
        vec_init(&st->own, SQLTYPE(TYPE_BOOL), q->arena);
        break;
    case STEP_SUBPLAN:
        vec_init(&st->own, e->type, q->arena);
        st->sub = exec__subplan_new(q, e);
        break;
    case STEP_ARRAY:
        vec_init(&st->own, e->type, q->arena);
        st->vals = MEM_NEW_ARRAY(q->arena, Value, e->nargs > 0 ? e->nargs : 1);
        break;
    }
    return idx;
}

ExprProg *exec__expr_compile(ExecQuery *q, const Expr *e, MemArena *scratch)
{
    ExprProg *p = MEM_NEW(q->arena, ExprProg);
    p->steps = MEM_NEW_ARRAY(q->arena, ExprStep, expr_count(e));
    p->scratch = scratch;
    p->root = compile_step(q, p, e);
    return p;
}

/* ---------- evaluation ---------- */

static void eval_step(ExprProg *p, int idx, const Batch *in, const uint16_t *sel, uint32_t n);

/*
 * Strict validity: result row valid iff every argument row is valid.
 * Whole words at a time (rows outside the selection get garbage bits,
 * which nobody reads). The word loop vectorises (gcc 12 -O3
 * -fopt-info-vec: "loop vectorized using 16 byte vectors"). Returns false when some constant argument is NULL:
 * then every row is NULL and the kernel need not run.
 */
static bool strict_validity(Vector *const *argv, int nargs, Vector *r)
{
    int nbm = 0;
    const uint64_t *bms[16];
    for (int k = 0; k < nargs; k++) {
        const Vector *a = argv[k];
        if (a->validity == NULL)
            continue;
        if (a->is_const) {
            if (!exec__bit(a->validity, 0))
                return false;
            continue;
        }
        if (nbm < 16)
            bms[nbm++] = a->validity;
    }
    if (nbm == 0) {
        r->validity = NULL;
        return true;
    }
    uint64_t *restrict out = r->validity_buf;
    memcpy(out, bms[0], sizeof(uint64_t) * VEC_VALIDITY_WORDS);
    for (int k = 1; k < nbm; k++)
        for (int w = 0; w < VEC_VALIDITY_WORDS; w++)
            out[w] &= bms[k][w];
    r->validity = out;
    return true;
}

/* Run a function/cast kernel over (sel, n) with PostgreSQL's strictness. */
static void call_kernel(FuncKernel kernel, bool strict, bool volatile_fn, Vector *const *argv,
                        int nargs, Vector *r, const uint16_t *sel, uint32_t n, MemArena *scratch,
                        SqlType type)
{
    bool all_const = nargs > 0 && !volatile_fn;
    for (int k = 0; k < nargs; k++)
        all_const = all_const && argv[k]->is_const;
    FuncCallCtx ctx = {.sel = sel, .count = n, .arena = scratch, .result_type = type};
    r->is_const = all_const;
    if (all_const) {
        ctx.sel = NULL;
        ctx.count = 1;
    }
    if (strict) {
        if (!strict_validity(argv, nargs, r)) {
            r->validity = r->validity_buf;
            memset(r->validity_buf, 0, sizeof(uint64_t) * VEC_VALIDITY_WORDS);
            return;
        }
    } else {
        r->validity = NULL;
    }
    kernel(&ctx, argv, r);
}

static void eval_func(ExprProg *p, ExprStep *st, const Batch *in, const uint16_t *sel, uint32_t n)
{
    Vector *argv[FUNC_MAX_ARGS * 4];
    ERR_ASSERT(st->nargs <= FUNC_MAX_ARGS * 4);
    for (int k = 0; k < st->nargs; k++) {
        eval_step(p, st->args[k], in, sel, n);
        argv[k] = p->steps[st->args[k]].out;
    }
    if (st->kind == STEP_CAST) {
        call_kernel(st->expr->cast->kernel, true, false, argv, 1, &st->own, sel, n, p->scratch,
                    st->expr->type);
    } else {
        const FuncDesc *f = st->expr->func;
        call_kernel(f->kernel, (f->flags & FUNC_STRICT) != 0, (f->flags & FUNC_VOLATILE) != 0,
                    argv, st->nargs, &st->own, sel, n, p->scratch, st->expr->type);
    }
}

/* Set the validity bit of row to valid (bitmap already in use). */
static inline void set_bit(uint64_t *bm, uint32_t row, uint64_t valid)
{
    uint64_t m = UINT64_C(1) << (row & 63);
    bm[row >> 6] = (bm[row >> 6] & ~m) | (valid << (row & 63));
}

/*
 * AND / OR over sub-selections. flags[row]: bit 0 = decided (AND: a false
 * argument seen; OR: a true one), bit 1 = a NULL argument seen. Each
 * argument is evaluated only on the rows not yet decided.
 */
static void eval_bool(ExprProg *p, ExprStep *st, const Batch *in, const uint16_t *sel, uint32_t n)
{
    const uint16_t *s = sel ? sel : exec__identity_sel;
    uint8_t *restrict flags = st->flags;
    uint8_t want = st->kind == STEP_OR; /* the value that decides */
    for (uint32_t i = 0; i < n; i++)
        flags[s[i]] = 0;
    const uint16_t *cur = s;
    uint32_t cn = n;
    for (int k = 0; k < st->nargs && cn > 0; k++) {
        eval_step(p, st->args[k], in, cur, cn);
        const Vector *a = p->steps[st->args[k]].out;
        const uint8_t *d = a->data;
        const uint64_t *vb = exec__validity(a);
        uint32_t m = exec__mask(a);
        uint32_t j = 0;
        for (uint32_t i = 0; i < cn; i++) {
            uint32_t row = cur[i];
            uint8_t valid = exec__bit(vb, row & m);
            uint8_t dec = valid & (uint8_t)(d[row & m] == want);
            flags[row] |= (uint8_t)(dec | ((valid ^ 1) << 1));
            st->subsel[j] = (uint16_t)row;
            j += (uint32_t)((flags[row] & 1) ^ 1);
        }
        cur = st->subsel;
        cn = j;
    }
    Vector *r = &st->own;
    r->is_const = false;
    r->validity = r->validity_buf;
    uint8_t *rd = r->data;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t row = s[i];
        uint8_t f = flags[row];
        uint8_t dec = f & 1, null = (f >> 1) & 1;
        rd[row] = st->kind == STEP_OR ? dec : (uint8_t)(dec ^ 1);
        set_bit(r->validity, row, (uint64_t)(dec | (null ^ 1)));
    }
}

static void eval_not_null(ExprProg *p, ExprStep *st, const Batch *in, const uint16_t *sel, uint32_t n)
{
    eval_step(p, st->args[0], in, sel, n);
    const Vector *a = p->steps[st->args[0]].out;
    Vector *r = &st->own;
    const uint64_t *vb = exec__validity(a);
    uint8_t *rd = r->data;
    r->is_const = a->is_const;
    if (a->is_const) {
        n = 1;
        sel = NULL;
    }
    uint8_t flip = st->kind == STEP_IS_NULL;
    if (st->kind == STEP_NOT) {
        const uint8_t *d = a->data;
        if (a->validity) {
            memcpy(r->validity_buf, a->validity, sizeof(uint64_t) * VEC_VALIDITY_WORDS);
            r->validity = r->validity_buf;
        } else {
            r->validity = NULL;
        }
        for (uint32_t i = 0; i < n; i++) {
            uint32_t row = sel ? sel[i] : i;
            rd[row] = d[row] ^ 1;
        }
        return;
    }
    r->validity = NULL;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t row = sel ? sel[i] : i;
        rd[row] = (uint8_t)exec__bit(vb, row) ^ flip;
    }
}

/* CASE WHEN c THEN v ...: each condition sees only the rows no earlier
 * condition took; each branch is evaluated on the rows it produces. */
static void eval_case(ExprProg *p, ExprStep *st, const Batch *in, const uint16_t *sel, uint32_t n)
{
    const uint16_t *rem = sel ? sel : exec__identity_sel;
    uint32_t rn = n;
    Vector *r = &st->own;
    r->is_const = false;
    r->validity = r->validity_buf;
    int nwhen = st->nargs / 2;
    for (int w = 0; w < nwhen && rn > 0; w++) {
        eval_step(p, st->args[2 * w], in, rem, rn);
        const Vector *c = p->steps[st->args[2 * w]].out;
        const uint8_t *d = c->data;
        const uint64_t *vb = exec__validity(c);
        uint32_t m = exec__mask(c);
        uint32_t mn = 0, keep = 0;
        for (uint32_t i = 0; i < rn; i++) {
            uint32_t row = rem[i];
            uint32_t t = (uint32_t)(exec__bit(vb, row & m) & d[row & m]);
            st->subsel2[mn] = (uint16_t)row;
            mn += t;
            st->subsel[keep] = (uint16_t)row;
            keep += t ^ 1;
        }
        if (mn > 0) {
            eval_step(p, st->args[2 * w + 1], in, st->subsel2, mn);
            exec__vec_copy_rows(p->steps[st->args[2 * w + 1]].out, st->subsel2, r, st->subsel2, mn);
        }
        rem = st->subsel;
        rn = keep;
    }
    if (rn == 0)
        return;
    if (st->expr->has_else) {
        eval_step(p, st->args[st->nargs - 1], in, rem, rn);
        exec__vec_copy_rows(p->steps[st->args[st->nargs - 1]].out, rem, r, rem, rn);
    } else {
        for (uint32_t i = 0; i < rn; i++)
            set_bit(r->validity, rem[i], 0);
    }
}

/* x IN (a, b, ...): OR of x = item with three-valued logic, each item
 * evaluated only on rows not yet matched. */
static void eval_in(ExprProg *p, ExprStep *st, const Batch *in, const uint16_t *sel, uint32_t n)
{
    const uint16_t *s = sel ? sel : exec__identity_sel;
    uint8_t *restrict flags = st->flags;
    for (uint32_t i = 0; i < n; i++)
        flags[s[i]] = 0;
    eval_step(p, st->args[0], in, s, n);
    Vector *argv[2] = {p->steps[st->args[0]].out, NULL};
    const FuncDesc *eq = st->expr->func;
    const uint16_t *cur = s;
    uint32_t cn = n;
    for (int k = 1; k < st->nargs && cn > 0; k++) {
        eval_step(p, st->args[k], in, cur, cn);
        argv[1] = p->steps[st->args[k]].out;
        call_kernel(eq->kernel, true, false, argv, 2, &st->tmp, cur, cn, p->scratch, SQLTYPE(TYPE_BOOL));
        const Vector *t = &st->tmp;
        const uint8_t *d = t->data;
        const uint64_t *vb = exec__validity(t);
        uint32_t m = exec__mask(t);
        uint32_t j = 0;
        for (uint32_t i = 0; i < cn; i++) {
            uint32_t row = cur[i];
            uint8_t valid = exec__bit(vb, row & m);
            flags[row] |= (uint8_t)((valid & d[row & m]) | ((valid ^ 1) << 1));
            st->subsel[j] = (uint16_t)row;
            j += (uint32_t)((flags[row] & 1) ^ 1);
        }
        cur = st->subsel;
        cn = j;
    }
    Vector *r = &st->own;
    r->is_const = false;
    r->validity = r->validity_buf;
    uint8_t *rd = r->data;
    uint8_t neg = st->expr->negated;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t row = s[i];
        uint8_t found = flags[row] & 1, null = (flags[row] >> 1) & 1;
        rd[row] = found ^ neg;
        set_bit(r->validity, row, (uint64_t)(found | (null ^ 1)));
    }
}

/* ARRAY[a, b, ...]: one packed array per row (common/array.h), in the
 * batch scratch arena; constant when every element is. */
static void eval_array(ExprProg *p, ExprStep *st, const Batch *in, const uint16_t *sel, uint32_t n)
{
    bool all_const = true;
    for (int k = 0; k < st->nargs; k++) {
        eval_step(p, st->args[k], in, sel, n);
        all_const &= p->steps[st->args[k]].out->is_const;
    }
    SqlType elem = SQLTYPE(type_element_of(st->expr->type.oid));
    Vector *r = &st->own;
    r->is_const = all_const;
    r->validity = NULL;
    uint32_t cnt = all_const ? 1 : n;
    for (uint32_t i = 0; i < cnt; i++) {
        uint32_t row = all_const ? 0 : (sel ? sel[i] : i);
        for (int k = 0; k < st->nargs; k++) {
            const Vector *a = p->steps[st->args[k]].out;
            vec_get_value(a, row & exec__mask(a), &st->vals[k]);
        }
        Value v = {.is_null = false};
        if (st->nargs > 0 && st->expr->args[0]->type.oid == st->expr->type.oid)   /* ARRAY[ARRAY[..], ..] */
            v.u.str = array_build_nested(elem, (uint32_t)st->nargs, st->vals, p->scratch);
        else
            v.u.str = array_build(elem, 1, (uint32_t)st->nargs, st->vals, p->scratch);
        vec_set_value(r, row, &v);
    }
}

static void eval_step(ExprProg *p, int idx, const Batch *in, const uint16_t *sel, uint32_t n)
{
    ExprStep *st = &p->steps[idx];
    switch (st->kind) {
    case STEP_CONST:
        return;
    case STEP_COLUMN:
        if (in == NULL || st->column < 0 || st->column >= in->ncols)
            err_raise(ERRCODE_INTERNAL_ERROR, "column reference %d outside the input", st->column);
        st->out = &in->cols[st->column];
        return;
    case STEP_FUNC: case STEP_CAST:
        eval_func(p, st, in, sel, n);
        return;
    case STEP_AND: case STEP_OR:
        eval_bool(p, st, in, sel, n);
        return;
    case STEP_NOT: case STEP_IS_NULL: case STEP_IS_NOT_NULL:
        eval_not_null(p, st, in, sel, n);
        return;
    case STEP_CASE:
        eval_case(p, st, in, sel, n);
        return;
    case STEP_IN_LIST:
        eval_in(p, st, in, sel, n);
        return;
    case STEP_ARRAY:
        eval_array(p, st, in, sel, n);
        return;
    case STEP_SUBPLAN: {
        Vector *argv[64];
        ERR_ASSERT(st->nargs <= 64);
        for (int k = 0; k < st->nargs; k++) {
            eval_step(p, st->args[k], in, sel, n);
            argv[k] = p->steps[st->args[k]].out;
        }
        exec__subplan_eval(st->sub, argv, &st->own, sel, n, p->scratch);
        return;
    }
    }
}

Vector *exec__expr_eval(ExprProg *p, const Batch *in, const uint16_t *sel, uint32_t count)
{
    eval_step(p, p->root, in, sel, count);
    return p->steps[p->root].out;
}

/* ---------- filters ---------- */

/*
 * Branch-free selection: every row is written, the output index advances
 * only for true rows (DuckDB's `sel[n] = i; n += pred;`). Four loop shapes
 * chosen once per batch so each inner loop is a plain counted loop. The
 * compaction itself does not vectorise (gcc: the store index depends on
 * the previous iteration; it needs AVX-512 VPCOMPRESS or a shuffle table):
 * ~1 cycle per row without branch mispredictions, whatever the selectivity.
 */
uint32_t exec__select_true(const Vector *pred, const uint16_t *sel, uint32_t count, uint16_t *out_sel)
{
    const uint8_t *restrict d = pred->data;
    uint32_t k = 0;
    if (pred->is_const) {
        if (!vec_is_valid(pred, 0) || !d[0])
            return 0;
        for (uint32_t i = 0; i < count; i++)
            out_sel[i] = (uint16_t)(sel ? sel[i] : i);
        return count;
    }
    const uint64_t *vb = pred->validity;
    if (vb == NULL && sel == NULL) {
        for (uint32_t i = 0; i < count; i++) {
            out_sel[k] = (uint16_t)i;
            k += d[i];
        }
    } else if (vb == NULL) {
        for (uint32_t i = 0; i < count; i++) {
            uint32_t row = sel[i];
            out_sel[k] = (uint16_t)row;
            k += d[row];
        }
    } else {
        for (uint32_t i = 0; i < count; i++) {
            uint32_t row = sel ? sel[i] : i;
            out_sel[k] = (uint16_t)row;
            k += d[row] & (uint32_t)exec__bit(vb, row);
        }
    }
    return k;
}

/* ---------- scalar evaluation (constant folding) ---------- */

void exec__eval_const(ExecQuery *q, const Expr *e, Value *out)
{
    ExprProg *p = exec__expr_compile(q, e, q->arena);
    Vector *v = exec__expr_eval(p, NULL, NULL, 1);
    vec_get_value(v, 0, out);
    if (!out->is_null && type_phys(e->type) == PHYS_STR && out->u.str.len > 0) {
        char *copy = mem_alloc(q->arena, out->u.str.len);
        memcpy(copy, out->u.str.ptr, out->u.str.len);
        out->u.str.ptr = copy;
    }
}

/* Nested runs and scratch arenas a standalone evaluation created (a
 * subquery inside a constant expression). */
static void scalar_cleanup(ExecQuery *q)
{
    exec__subs_close(q);
    for (int i = 0; i < q->nscratch; i++)
        mem_arena_destroy(q->scratch[i]);
    q->nscratch = 0;
}

void exec_eval_scalar(const Expr *e, const Value *params, int nparams, MemArena *arena, Value *out)
{
    ExecQuery *q = MEM_NEW(arena, ExecQuery);   /* in memory: survives a longjmp intact */
    q->arena = arena;
    q->params = params;
    q->nparams = nparams;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        exec__eval_const(q, e, out);
        err_pop(&jmp);
    } else {
        scalar_cleanup(q);
        err_rethrow();
    }
    scalar_cleanup(q);
}

bool exec__eval_int8(ExecQuery *q, const Expr *e, int64_t *out)
{
    Value v;
    exec__eval_const(q, e, &v);
    if (v.is_null)
        return false;
    switch (type_phys(e->type)) {
    case PHYS_I16: *out = v.u.i16; return true;
    case PHYS_I32: *out = v.u.i32; return true;
    case PHYS_I64: *out = v.u.i64; return true;
    default:
        err_raise(ERRCODE_DATATYPE_MISMATCH, "argument of LIMIT must be type bigint");
    }
}
