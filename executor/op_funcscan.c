/*
 * op_funcscan.c — table functions in FROM (PLAN_FUNCTION_SCAN):
 * generate_series over int4 / int8 / numeric (with a step) and over
 * timestamp / timestamptz with an interval step, and unnest of arrays.
 *
 * The arguments are evaluated once, when the scan is started (their outer
 * references bound for a lateral or subplan rerun); then the source fills
 * up to VEC_CAPACITY rows per batch straight into its output vectors:
 * integers with a plain loop in a wider type (so the last value before an
 * overflow is emitted and the series then ends, as PostgreSQL's), numerics
 * with numeric_add into a per-batch scratch arena, timestamps with
 * timestamp[tz]_add_interval. WITH ORDINALITY adds an int8 counter column.
 * Errors as PostgreSQL: step 0 → 22023 "step size cannot equal zero".
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

#include <string.h>
#include "common/array.h"
#include "common/error.h"
#include "common/interval.h"
#include "common/numeric.h"

typedef struct FuncScanState {
    bool started, done;
    SqlType type;             /* generate_series: the value type */
    int128_t cur, stop, step; /* integers and timestamps (cur only) */
    StrRef ncur, nstop, nstep; /* numeric */
    Interval istep;
    bool desc;
    int64_t ordinal;
    /* unnest */
    int narrays;
    ArrayView *arrays;
    uint32_t maxlen, pos;
    MemArena *scratch;
    Batch *out;
} FuncScanState;

static void gs_start(ExecOp *op, FuncScanState *st, const Value *v, int nargs)
{
    const PlanNode *n = op->node;
    st->type = n->func_args[0]->type;
    for (int i = 0; i < nargs; i++)
        if (v[i].is_null) {
            st->done = true;
            return;
        }
    switch (st->type.oid) {
    case TYPE_INT4: case TYPE_INT8: {
        bool i4 = st->type.oid == TYPE_INT4;
        st->cur = i4 ? v[0].u.i32 : v[0].u.i64;
        st->stop = i4 ? v[1].u.i32 : v[1].u.i64;
        st->step = nargs > 2 ? (i4 ? v[2].u.i32 : v[2].u.i64) : 1;
        if (st->step == 0)
            err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "step size cannot equal zero");
        st->desc = st->step < 0;
        break;
    }
    case TYPE_NUMERIC: {
        MemArena *a = op->q->arena;
        st->ncur = v[0].u.str;
        st->nstop = v[1].u.str;
        st->nstep = nargs > 2 ? v[2].u.str : numeric_from_int64(1, a);
        if (numeric_is_nan(st->ncur))
            err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "start value cannot be NaN");
        if (numeric_is_nan(st->nstop))
            err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "stop value cannot be NaN");
        if (numeric_is_nan(st->nstep))
            err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "step size cannot be NaN");
        int sgn = numeric_cmp(st->nstep, numeric_from_int64(0, a));
        if (sgn == 0)
            err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "step size cannot equal zero");
        st->desc = sgn < 0;
        break;
    }
    case TYPE_TIMESTAMP: case TYPE_TIMESTAMPTZ: {
        if (nargs < 3)
            err_raise(ERRCODE_INTERNAL_ERROR, "generate_series over timestamps needs a step");
        st->cur = v[0].u.i64;
        st->stop = v[1].u.i64;
        st->istep = interval_get(v[2].u.str);
        int128_t span = ((int128_t)st->istep.months * 30 + st->istep.days) * USECS_PER_DAY + st->istep.micros;
        if (span == 0)
            err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "step size cannot equal zero");
        st->desc = span < 0;
        break;
    }
    default:
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "generate_series over type %u is not supported",
                  st->type.oid);
    }
}

static bool in_range(const FuncScanState *st, int128_t x)
{
    return st->desc ? x >= st->stop : x <= st->stop;
}

/* Fill up to VEC_CAPACITY values; returns how many. */
static uint32_t gs_fill(FuncScanState *st, Vector *v)
{
    uint32_t k = 0;
    switch (st->type.oid) {
    case TYPE_INT4: case TYPE_INT8: {
        int128_t lo = st->type.oid == TYPE_INT4 ? INT32_MIN : INT64_MIN;
        int128_t hi = st->type.oid == TYPE_INT4 ? INT32_MAX : INT64_MAX;
        for (; k < VEC_CAPACITY && !st->done; k++) {
            if (!in_range(st, st->cur))
                break;
            if (st->type.oid == TYPE_INT4)
                ((int32_t *)v->data)[k] = (int32_t)st->cur;
            else
                ((int64_t *)v->data)[k] = (int64_t)st->cur;
            st->cur += st->step;
            if (st->cur < lo || st->cur > hi)
                st->done = true;        /* the next value would overflow: the series ends */
        }
        break;
    }
    case TYPE_NUMERIC:
        for (; k < VEC_CAPACITY; k++) {
            int c = numeric_cmp(st->ncur, st->nstop);
            if (st->desc ? c < 0 : c > 0)
                break;
            ((StrRef *)v->data)[k] = st->ncur;
            st->ncur = numeric_add(st->ncur, st->nstep, st->scratch);
        }
        break;
    default: {
        bool tz = st->type.oid == TYPE_TIMESTAMPTZ;
        for (; k < VEC_CAPACITY; k++) {
            if (!in_range(st, st->cur))
                break;
            ((int64_t *)v->data)[k] = (int64_t)st->cur;
            st->cur = tz ? timestamptz_add_interval((int64_t)st->cur, st->istep)
                         : timestamp_add_interval((int64_t)st->cur, st->istep);
        }
        break;
    }
    }
    if (k < VEC_CAPACITY)
        st->done = true;
    return k;
}

static void unnest_start(ExecOp *op, FuncScanState *st, const Value *v, int nargs)
{
    st->narrays = nargs;
    st->arrays = MEM_NEW_ARRAY(op->q->arena, ArrayView, nargs > 0 ? nargs : 1);
    for (int i = 0; i < nargs; i++) {
        if (v[i].is_null) {
            st->arrays[i].nelems = 0;     /* a NULL array counts as empty */
            continue;
        }
        st->arrays[i] = array_view(v[i].u.str);
        if (st->arrays[i].nelems > st->maxlen)
            st->maxlen = st->arrays[i].nelems;
    }
}

static uint32_t unnest_fill(FuncScanState *st, Batch *out)
{
    uint32_t k = st->maxlen - st->pos < VEC_CAPACITY ? st->maxlen - st->pos : VEC_CAPACITY;
    for (int a = 0; a < st->narrays; a++) {
        Vector *v = &out->cols[a];
        const ArrayView *av = &st->arrays[a];
        for (uint32_t i = 0; i < k; i++) {
            uint32_t e = st->pos + i;
            Value x = {.is_null = true};
            if (e < av->nelems)
                array_get(av, e, &x);
            if (x.is_null)
                vec_set_null(v, i);
            else
                vec_set_value(v, i, &x);
        }
    }
    st->pos += k;
    if (st->pos >= st->maxlen)
        st->done = true;
    return k;
}

static void fs_start(ExecOp *op, FuncScanState *st)
{
    const PlanNode *n = op->node;
    Value *v = MEM_NEW_ARRAY(op->q->arena, Value, n->nfunc_args > 0 ? n->nfunc_args : 1);
    for (int i = 0; i < n->nfunc_args; i++)
        exec__eval_const(op->q, n->func_args[i], &v[i]);
    st->started = true;
    if (n->func_kind == TABLEFUNC_GENERATE_SERIES) {
        if (n->nfunc_args < 2 || n->nfunc_args > 3)
            err_raise(ERRCODE_INTERNAL_ERROR, "generate_series with %d arguments", n->nfunc_args);
        gs_start(op, st, v, n->nfunc_args);
    } else {
        unnest_start(op, st, v, n->nfunc_args);
        st->done = st->maxlen == 0;
    }
}

static bool fs_next(ExecOp *op, Batch **out)
{
    FuncScanState *st = op->state;
    if (!st->started)
        fs_start(op, st);
    if (st->done)
        return false;
    mem_arena_reset(st->scratch);
    Batch *b = st->out;
    for (int c = 0; c < b->ncols; c++) {
        b->cols[c].validity = NULL;
        b->cols[c].is_const = false;
    }
    uint32_t k = op->node->func_kind == TABLEFUNC_GENERATE_SERIES ? gs_fill(st, &b->cols[0])
                                                                   : unnest_fill(st, b);
    if (st->type.oid == TYPE_NUMERIC && !st->done) {
        /* the next value outlives this batch's scratch */
        char *keep = mem_alloc(op->q->arena, st->ncur.len);
        memcpy(keep, st->ncur.ptr, st->ncur.len);
        st->ncur.ptr = keep;
    }
    if (op->node->ordinality) {
        int64_t *o = b->cols[b->ncols - 1].data;
        for (uint32_t i = 0; i < k; i++)
            o[i] = ++st->ordinal;
    }
    b->count = k;
    b->sel = NULL;
    *out = b;
    return k > 0;
}

ExecOp *exec__op_function_scan(ExecQuery *q, const PlanNode *n)
{
    ExecOp *op = exec__op_new(q, n, sizeof(FuncScanState));
    FuncScanState *st = op->state;
    int want = n->func_kind == TABLEFUNC_GENERATE_SERIES ? 1 : n->nfunc_args;
    if (n->ncols != want + (n->ordinality ? 1 : 0))
        err_raise(ERRCODE_INTERNAL_ERROR, "table function with %d output columns", n->ncols);
    st->scratch = exec__scratch_create(q);
    st->out = exec__batch_new(q, n->ncols, n->col_types);
    op->next = fs_next;
    return op;
}
