/*
 * op_window.c — window functions (PLAN_WINDOW): a pipeline sink that keeps
 * its input (already sorted by partition keys, then order keys), computes
 * every call's value for every row at finalize, and then emits the input
 * columns followed by one column per call, as zero-copy views.
 *
 * Finalize, per partition (rows with equal partition columns, NULLs equal):
 *  1. peer groups: rows equal on every ORDER BY key. Partition and peer
 *     boundaries are found column by column (exec__col_adjacent_diff: one
 *     typed loop per column, no per-row type switch).
 *  2. frames: [fs[i], fe[i]) for every row from the one frame definition —
 *     ROWS (row offsets), GROUPS (peer-group offsets), RANGE (peers, or,
 *     with offsets, the planner's precomputed bound columns searched with
 *     two monotone pointers). Exclusions (CURRENT ROW / GROUP / TIES) are
 *     applied when a frame is read.
 *  3. each call: ranking functions from the peer groups; lag/lead from the
 *     partition; first/last/nth_value from the frame; aggregates through
 *     op_agg.c's states: when every frame starts at the partition start and
 *     frame ends never move back (the default frame, running totals, whole
 *     partition) the state only grows — rows [fe[i-1], fe[i]) are added and
 *     the result read, O(n) per partition; otherwise each row's frame is
 *     aggregated afresh (O(n·w); rows whose frame equals the previous row's
 *     reuse its result).
 * Rows are fed to aggregates as batches of zero-copy views with a selection
 * (no copy). Results are collected 2048 at a time and appended to result
 * columns. Cancel is checked per 2048 rows and per partition.
 *
 * Errors as PostgreSQL: frame offsets NULL → 22004, negative → 22013;
 * ntile(<= 0) → 22014; nth_value(<= 0) → 22016.
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

#include <math.h>
#include <string.h>
#include "common/error.h"
#include "common/numeric.h"

typedef struct WinArg {
    bool is_col;
    int col;
    Value val;
} WinArg;

typedef struct WinCallState {
    const WindowCall *call;
    WinArg args[3];
    AggSlot *agg;
    ExecColumn res;
    ExecColumn rev;           /* results computed back to front (shrinking frames) */
} WinCallState;

typedef struct WindowState {
    const PlanNode *n;
    int ncols;
    ExecColumn *cols;
    uint32_t nrows;
    int ncalls;
    WinCallState *calls;
    int64_t start_off, end_off;      /* ROWS / GROUPS offsets */
    /* per-row work arrays (nrows) */
    uint8_t *pdiff, *odiff;
    uint32_t *gstart, *gend, *gidx, *gpos, *fs, *fe;
    /* feeding aggregates */
    Batch feed;
    uint16_t *sel;
    uint32_t *zeros;
    uint32_t *ridx;                   /* reversed results: gather indexes */
    MemArena *scratch, *rscratch;
    Vector tmp;                       /* results of up to 2048 rows */
    /* output */
    uint32_t pos;
    Batch *out;
} WindowState;

/* ---------- set-up ---------- */

static void win_arg(ExecQuery *q, const Expr *e, WinArg *a)
{
    if (e->kind == EXPR_COLUMN) {
        a->is_col = true;
        a->col = e->index;
    } else {
        a->is_col = false;
        exec__eval_const(q, e, &a->val);
    }
}

static void arg_get(const WindowState *st, const WinArg *a, uint32_t row, Value *out)
{
    if (a->is_col)
        exec__col_get(&st->cols[a->col], row, out);
    else
        *out = a->val;
}

/* ROWS/GROUPS offset: int8, not NULL, not negative. */
static int64_t frame_offset(ExecQuery *q, const Expr *e, bool start, bool range)
{
    Value v;
    exec__eval_const(q, e, &v);
    if (v.is_null)
        err_raise(ERRCODE_NULL_VALUE_NOT_ALLOWED, "frame %s offset must not be null",
                  start ? "starting" : "ending");
    int64_t x = 0;
    bool neg = false;
    switch (type_phys(e->type)) {
    case PHYS_I16: x = v.u.i16; break;
    case PHYS_I32: x = v.u.i32; break;
    case PHYS_I64: x = v.u.i64; break;
    case PHYS_F32: neg = v.u.f32 < 0; break;
    case PHYS_F64: neg = v.u.f64 < 0; break;
    case PHYS_STR:
        if (e->type.oid == TYPE_NUMERIC)
            neg = numeric_cmp(v.u.str, numeric_from_int64(0, q->arena)) < 0;
        else if (e->type.oid == TYPE_INTERVAL) {
            Interval iv = interval_get(v.u.str);
            neg = ((int128_t)iv.months * 30 + iv.days) * USECS_PER_DAY + iv.micros < 0;
        }
        break;
    default: break;
    }
    if (x < 0 || neg) {
        if (range)
            err_raise(ERRCODE_INVALID_PRECEDING_OR_FOLLOWING_SIZE,
                      "invalid preceding or following size in window function");
        err_raise(ERRCODE_INVALID_PRECEDING_OR_FOLLOWING_SIZE, "frame %s offset must not be negative",
                  start ? "starting" : "ending");
    }
    return x;
}

/* ---------- partitions, peers, frames ---------- */

static void find_boundaries(WindowState *st)
{
    const PlanNode *n = st->n;
    memset(st->pdiff, 0, st->nrows);
    for (int k = 0; k < n->npartition; k++)
        exec__col_adjacent_diff(&st->cols[n->partition_cols[k]], 0, st->nrows, st->pdiff);
    if (st->nrows)
        st->pdiff[0] = 1;
    memcpy(st->odiff, st->pdiff, st->nrows);
    for (int k = 0; k < n->nwin_order; k++)
        exec__col_adjacent_diff(&st->cols[n->win_order[k].column], 0, st->nrows, st->odiff);
}

/* Peer groups of partition [ps, pe): gstart/gend/gidx per row, gpos[g] = first row of group g. */
static uint32_t peer_groups(WindowState *st, uint32_t ps, uint32_t pe)
{
    uint32_t ng = 0;
    for (uint32_t i = ps; i < pe; i++) {
        if (i == ps || st->odiff[i])
            st->gpos[ps + ng++] = i;
        st->gidx[i] = ng - 1;
        st->gstart[i] = st->gpos[ps + ng - 1];
    }
    st->gpos[ps + ng] = pe;
    for (uint32_t i = ps; i < pe; i++)
        st->gend[i] = st->gpos[ps + st->gidx[i] + 1];
    return ng;
}

/* Compare a stored ORDER BY key with a stored RANGE bound (types may differ
 * in width: integers, floats, numerics). */
static int cmp_key_bound(const WindowState *st, const ExecColumn *k, uint32_t i, const ExecColumn *b, uint32_t j)
{
    Value x, y;
    exec__col_get(k, i, &x);
    exec__col_get(b, j, &y);
    PhysType pk = k->phys, pb = b->phys;
    bool kint = pk == PHYS_I16 || pk == PHYS_I32 || pk == PHYS_I64;
    bool bint = pb == PHYS_I16 || pb == PHYS_I32 || pb == PHYS_I64;
    if (kint && bint) {
        int128_t a = pk == PHYS_I16 ? x.u.i16 : pk == PHYS_I32 ? x.u.i32 : x.u.i64;
        int128_t c = pb == PHYS_I16 ? y.u.i16 : pb == PHYS_I32 ? y.u.i32 : y.u.i64;
        /* date key against a timestamp bound (date ± interval is a timestamp) */
        bool kts = k->type.oid == TYPE_TIMESTAMP || k->type.oid == TYPE_TIMESTAMPTZ;
        bool bts = b->type.oid == TYPE_TIMESTAMP || b->type.oid == TYPE_TIMESTAMPTZ;
        if (k->type.oid == TYPE_DATE && bts)
            a *= USECS_PER_DAY;
        if (b->type.oid == TYPE_DATE && kts)
            c *= USECS_PER_DAY;
        return (a > c) - (a < c);
    }
    if (pk == PHYS_F32 || pk == PHYS_F64 || pb == PHYS_F32 || pb == PHYS_F64) {
        double a = pk == PHYS_F32 ? x.u.f32 : pk == PHYS_F64 ? x.u.f64 : 0;
        double c = pb == PHYS_F32 ? y.u.f32 : pb == PHYS_F64 ? y.u.f64 : 0;
        if (isnan(a) || isnan(c))
            return (int)isnan(a) - (int)isnan(c);
        return (a > c) - (a < c);
    }
    StrRef a = kint ? numeric_from_int64(pk == PHYS_I16 ? x.u.i16 : pk == PHYS_I32 ? x.u.i32 : x.u.i64, st->scratch)
                    : x.u.str;
    StrRef c = bint ? numeric_from_int64(pb == PHYS_I16 ? y.u.i16 : pb == PHYS_I32 ? y.u.i32 : y.u.i64, st->scratch)
                    : y.u.str;
    if (k->type.oid == TYPE_NUMERIC || b->type.oid == TYPE_NUMERIC)
        return numeric_cmp(a, c);
    Value va = {.u.str = a}, vc = {.u.str = c};
    return type_compare(k->type, &va, &vc);
}

/* RANGE with offsets: frames from the bound columns, two monotone pointers
 * over the partition's non-NULL keys. */
static void range_offset_frames(WindowState *st, uint32_t ps, uint32_t pe)
{
    const PlanNode *n = st->n;
    const WindowFrame *f = &n->frame;
    const SortKey *sk = &n->win_order[0];
    const ExecColumn *key = &st->cols[sk->column];
    uint32_t nn_lo = ps, nn_hi = pe;       /* the rows with non-NULL keys */
    while (nn_lo < nn_hi && !exec__col_valid(key, nn_lo))
        nn_lo++;
    while (nn_hi > nn_lo && !exec__col_valid(key, nn_hi - 1))
        nn_hi--;
    int dir = sk->descending ? -1 : 1;
    uint32_t ps_ptr = nn_lo, pe_ptr = nn_lo;
    for (uint32_t i = ps; i < pe; i++) {
        if (((i - ps) & 1023) == 0) {
            err_check_interrupts();
            mem_arena_reset(st->scratch);   /* numerics made by cmp_key_bound */
        }
        if (!exec__col_valid(key, i)) {
            if (f->start_kind == BOUND_OFFSET_PRECEDING || f->start_kind == BOUND_OFFSET_FOLLOWING)
                st->fs[i] = st->gstart[i];
            if (f->end_kind == BOUND_OFFSET_PRECEDING || f->end_kind == BOUND_OFFSET_FOLLOWING)
                st->fe[i] = st->gend[i];
            continue;
        }
        if (f->start_kind == BOUND_OFFSET_PRECEDING || f->start_kind == BOUND_OFFSET_FOLLOWING) {
            const ExecColumn *b = &st->cols[f->start_bound_col];
            while (ps_ptr < nn_hi && dir * cmp_key_bound(st, key, ps_ptr, b, i) < 0)
                ps_ptr++;
            st->fs[i] = ps_ptr;
        }
        if (f->end_kind == BOUND_OFFSET_PRECEDING || f->end_kind == BOUND_OFFSET_FOLLOWING) {
            const ExecColumn *b = &st->cols[f->end_bound_col];
            if (pe_ptr < st->fs[i])
                pe_ptr = st->fs[i] > nn_lo ? st->fs[i] : nn_lo;
            while (pe_ptr < nn_hi && dir * cmp_key_bound(st, key, pe_ptr, b, i) <= 0)
                pe_ptr++;
            st->fe[i] = pe_ptr;
        }
    }
}

static uint32_t clamp_sub(uint32_t i, int64_t k, uint32_t lo)
{
    return (int64_t)i - k < (int64_t)lo ? lo : (uint32_t)((int64_t)i - k);
}

static uint32_t clamp_add(uint32_t i, int64_t k, uint32_t hi)
{
    return (int64_t)i + k > (int64_t)hi ? hi : (uint32_t)((int64_t)i + k);
}

/* Frame [fs, fe) of every row of partition [ps, pe) with ng peer groups. */
static void frames(WindowState *st, uint32_t ps, uint32_t pe, uint32_t ng)
{
    const WindowFrame *f = &st->n->frame;
    int64_t so = st->start_off, eo = st->end_off;
    for (uint32_t i = ps; i < pe; i++) {
        if (((i - ps) & 0xFFFF) == 0xFFFF)
            err_check_interrupts();
        uint32_t g = st->gidx[i];
        uint32_t s = ps, e = pe;
        switch (f->start_kind) {
        case BOUND_UNBOUNDED_PRECEDING: s = ps; break;
        case BOUND_CURRENT_ROW: s = f->mode == FRAME_ROWS ? i : st->gstart[i]; break;
        case BOUND_OFFSET_PRECEDING:
            s = f->mode == FRAME_ROWS ? clamp_sub(i, so, ps)
              : f->mode == FRAME_GROUPS ? st->gpos[ps + clamp_sub(g, so, 0)] : ps;
            break;
        case BOUND_OFFSET_FOLLOWING:
            s = f->mode == FRAME_ROWS ? clamp_add(i, so, pe)
              : f->mode == FRAME_GROUPS ? st->gpos[ps + clamp_add(g, so, ng)] : ps;
            break;
        case BOUND_UNBOUNDED_FOLLOWING: s = pe; break;
        }
        switch (f->end_kind) {
        case BOUND_UNBOUNDED_FOLLOWING: e = pe; break;
        case BOUND_CURRENT_ROW: e = f->mode == FRAME_ROWS ? i + 1 : st->gend[i]; break;
        case BOUND_OFFSET_FOLLOWING:
            e = f->mode == FRAME_ROWS ? clamp_add(i + 1, eo, pe)
              : f->mode == FRAME_GROUPS ? st->gpos[ps + clamp_add(g + 1, eo, ng)] : pe;
            break;
        case BOUND_OFFSET_PRECEDING:
            e = f->mode == FRAME_ROWS ? ((int64_t)i + 1 - eo < (int64_t)ps ? ps : (uint32_t)((int64_t)i + 1 - eo))
              : f->mode == FRAME_GROUPS ? ((int64_t)g + 1 - eo <= 0 ? ps : st->gpos[ps + g + 1 - eo]) : pe;
            break;
        case BOUND_UNBOUNDED_PRECEDING: e = ps; break;
        }
        st->fs[i] = s;
        st->fe[i] = e;
    }
    if (f->mode == FRAME_RANGE && (f->start_kind == BOUND_OFFSET_PRECEDING || f->start_kind == BOUND_OFFSET_FOLLOWING ||
                                   f->end_kind == BOUND_OFFSET_PRECEDING || f->end_kind == BOUND_OFFSET_FOLLOWING))
        range_offset_frames(st, ps, pe);
    for (uint32_t i = ps; i < pe; i++)
        if (st->fe[i] < st->fs[i])
            st->fe[i] = st->fs[i];
}

/* The rows of row i's frame that the exclusion removes: [x0, x1) and the row keep (or none). */
static void exclusion(const WindowState *st, uint32_t i, uint32_t *x0, uint32_t *x1, int64_t *keep)
{
    *x0 = *x1 = 0;
    *keep = -1;
    switch (st->n->frame.exclusion) {
    case EXCLUDE_NO_OTHERS: break;
    case EXCLUDE_CURRENT_ROW: *x0 = i; *x1 = i + 1; break;
    case EXCLUDE_GROUP: *x0 = st->gstart[i]; *x1 = st->gend[i]; break;
    case EXCLUDE_TIES: *x0 = st->gstart[i]; *x1 = st->gend[i]; *keep = i; break;
    }
}

static bool excluded(uint32_t r, uint32_t x0, uint32_t x1, int64_t keep)
{
    return r >= x0 && r < x1 && (int64_t)r != keep;
}

/* ---------- results ---------- */

static void tmp_put(WindowState *st, uint32_t k, const Value *v)
{
    if (v->is_null)
        vec_set_null(&st->tmp, k);
    else
        vec_set_value(&st->tmp, k, v);
}

/* Flush the collected results (k rows) into the call's result column. */
static void tmp_flush(WindowState *st, WinCallState *c, MemArena *a, uint32_t k)
{
    if (k == 0)
        return;
    exec__col_append(&c->res, a, &st->tmp, exec__identity_sel, k);
    st->tmp.validity = NULL;
    mem_arena_reset(st->rscratch);
}

/* Add rows [a, b) of the input to aggregate state 0. */
static void feed(WindowState *st, MemArena *qa, AggSlot *s, uint32_t a, uint32_t b)
{
    while (a < b) {
        uint32_t base = a & ~UINT32_C(63);
        uint32_t end = b - base > VEC_CAPACITY ? base + VEC_CAPACITY : b;
        for (int c = 0; c < st->ncols; c++)
            exec__col_view(&st->cols[c], base, &st->feed.cols[c]);
        for (uint32_t j = a; j < end; j++)
            st->sel[j - a] = (uint16_t)(j - base);
        st->feed.sel = st->sel;
        st->feed.count = end - a;
        mem_arena_reset(st->scratch);
        exec__agg_slot_update(s, qa, &st->feed, st->zeros, true);
        a = end;
    }
}

static void set_tmp_type(WindowState *st, SqlType t)
{
    st->tmp.type = t;
    st->tmp.phys = type_phys(t);
    st->tmp.is_const = false;
    st->tmp.validity = NULL;
}

/*
 * Frames that all end at the partition end and whose starts never move back
 * (ROWS/RANGE/GROUPS ... AND UNBOUNDED FOLLOWING) grow when read back to
 * front: for order-independent aggregates add rows from the end, collect
 * the results in reverse, then append them in row order. O(n).
 */
static bool win_agg_reverse(WindowState *st, MemArena *qa, WinCallState *c, uint32_t ps, uint32_t pe)
{
    if (st->n->frame.exclusion != EXCLUDE_NO_OTHERS || !exec__agg_slot_order_free(c->agg))
        return false;
    for (uint32_t i = ps; i < pe; i++)
        if (st->fe[i] != pe || (i > ps && st->fs[i] < st->fs[i - 1]))
            return false;
    ExecColumn *rev = &c->rev;
    memset(rev->validity, 0, (size_t)(rev->cap / 64) * sizeof(uint64_t));
    rev->count = 0;
    rev->has_null = false;
    exec__agg_slot_clear(c->agg, 0);
    uint32_t lo = pe, k = 0;
    for (uint32_t i = pe; i-- > ps;) {
        if (st->fs[i] < lo) {
            feed(st, qa, c->agg, st->fs[i], lo);
            lo = st->fs[i];
        }
        exec__agg_slot_result(c->agg, 0, &st->tmp, k, st->rscratch);
        if (++k == VEC_CAPACITY || i == ps) {
            exec__col_append(rev, qa, &st->tmp, exec__identity_sel, k);
            st->tmp.validity = NULL;
            mem_arena_reset(st->rscratch);
            k = 0;
            err_check_interrupts();
        }
    }
    uint32_t *idx = st->ridx;
    uint32_t n = rev->count;
    for (uint32_t pos = 0; pos < n; pos += VEC_CAPACITY) {
        uint32_t m = n - pos < VEC_CAPACITY ? n - pos : VEC_CAPACITY;
        for (uint32_t j = 0; j < m; j++)
            idx[j] = n - 1 - (pos + j);
        exec__col_gather(rev, idx, m, &st->tmp);
        exec__col_append(&c->res, qa, &st->tmp, exec__identity_sel, m);
        st->tmp.validity = NULL;
    }
    return true;
}

/* Aggregate over the frames of partition [ps, pe). */
static void win_agg(WindowState *st, MemArena *qa, WinCallState *c, uint32_t ps, uint32_t pe)
{
    bool running = st->n->frame.exclusion == EXCLUDE_NO_OTHERS;
    for (uint32_t i = ps; i < pe && running; i++)
        running = st->fs[i] == ps && (i == ps || st->fe[i] >= st->fe[i - 1]);
    if (!running && win_agg_reverse(st, qa, c, ps, pe))
        return;
    exec__agg_slot_clear(c->agg, 0);
    uint32_t fed = ps, k = 0;
    for (uint32_t i = ps; i < pe; i++) {
        if (running) {
            feed(st, qa, c->agg, fed, st->fe[i]);
            fed = st->fe[i] > fed ? st->fe[i] : fed;
        } else if (i == ps || st->fs[i] != st->fs[i - 1] || st->fe[i] != st->fe[i - 1] ||
                   st->n->frame.exclusion != EXCLUDE_NO_OTHERS) {
            uint32_t x0, x1;
            int64_t keep;
            exclusion(st, i, &x0, &x1, &keep);
            exec__agg_slot_clear(c->agg, 0);
            uint32_t s = st->fs[i], e = st->fe[i];
            if (x1 > x0 && x0 < e && x1 > s) {
                feed(st, qa, c->agg, s, x0 > s ? x0 : s);
                if (keep >= s && keep < e)
                    feed(st, qa, c->agg, (uint32_t)keep, (uint32_t)keep + 1);
                feed(st, qa, c->agg, x1 < e ? x1 : e, e);
            } else {
                feed(st, qa, c->agg, s, e);
            }
        }
        exec__agg_slot_result(c->agg, 0, &st->tmp, k, st->rscratch);
        if (++k == VEC_CAPACITY) {
            tmp_flush(st, c, qa, k);
            k = 0;
            err_check_interrupts();
        }
    }
    tmp_flush(st, c, qa, k);
}

/* The n-th (0-based) row of row i's frame after exclusion, or -1. */
static int64_t frame_row(const WindowState *st, uint32_t i, int64_t nth, bool from_end)
{
    uint32_t x0, x1;
    int64_t keep;
    exclusion(st, i, &x0, &x1, &keep);
    uint32_t s = st->fs[i], e = st->fe[i];
    if (x1 <= x0) {
        if (nth >= (int64_t)(e - s))
            return -1;
        return from_end ? (int64_t)e - 1 - nth : (int64_t)s + nth;
    }
    for (uint32_t j = 0; j < e - s; j++) {
        uint32_t r = from_end ? e - 1 - j : s + j;
        if (excluded(r, x0, x1, keep))
            continue;
        if (nth-- == 0)
            return r;
    }
    return -1;
}

/* One non-aggregate call's value for row i of partition [ps, pe) (n rows). */
static void win_value(WindowState *st, WinCallState *c, uint32_t i, uint32_t ps, uint32_t pe,
                      int64_t *ntile_n, Value *v)
{
    const WindowCall *w = c->call;
    uint32_t n = pe - ps;
    v->is_null = false;
    switch (w->kind) {
    case WIN_ROW_NUMBER: v->u.i64 = i - ps + 1; break;
    case WIN_RANK: v->u.i64 = st->gstart[i] - ps + 1; break;
    case WIN_DENSE_RANK: v->u.i64 = st->gidx[i] + 1; break;
    case WIN_PERCENT_RANK: v->u.f64 = n > 1 ? (double)(st->gstart[i] - ps) / (double)(n - 1) : 0.0; break;
    case WIN_CUME_DIST: v->u.f64 = (double)(st->gend[i] - ps) / (double)n; break;
    case WIN_NTILE: {
        if (*ntile_n == 0) {
            Value b;
            arg_get(st, &c->args[0], ps, &b);
            if (b.is_null) {
                *ntile_n = -1;
            } else {
                if (b.u.i32 <= 0)
                    err_raise(ERRCODE_INVALID_ARGUMENT_FOR_NTILE, "argument of ntile must be greater than zero");
                *ntile_n = b.u.i32;
            }
        }
        if (*ntile_n < 0) {
            v->is_null = true;
            break;
        }
        int64_t per = n / *ntile_n, rem = n % *ntile_n, r = i - ps;
        v->u.i32 = (int32_t)(r < rem * (per + 1) ? r / (per + 1) + 1 : rem + (r - rem * (per + 1)) / per + 1);
        break;
    }
    case WIN_LAG: case WIN_LEAD: {
        Value off = {.is_null = false, .u.i32 = 1};
        if (w->nargs > 1)
            arg_get(st, &c->args[1], i, &off);
        if (off.is_null) {
            v->is_null = true;
            break;
        }
        int64_t t = w->kind == WIN_LAG ? (int64_t)i - off.u.i32 : (int64_t)i + off.u.i32;
        if (t >= ps && t < pe)
            arg_get(st, &c->args[0], (uint32_t)t, v);
        else if (w->nargs > 2)
            arg_get(st, &c->args[2], i, v);
        else
            v->is_null = true;
        break;
    }
    case WIN_FIRST_VALUE: case WIN_LAST_VALUE: case WIN_NTH_VALUE: {
        int64_t nth = 0;
        if (w->kind == WIN_NTH_VALUE) {
            Value nv;
            arg_get(st, &c->args[1], i, &nv);
            if (nv.is_null) {
                v->is_null = true;
                break;
            }
            if (nv.u.i32 <= 0)
                err_raise(ERRCODE_INVALID_ARGUMENT_FOR_NTH_VALUE, "argument of nth_value must be greater than zero");
            nth = nv.u.i32 - 1;
        }
        int64_t r = frame_row(st, i, nth, w->kind == WIN_LAST_VALUE);
        if (r < 0)
            v->is_null = true;
        else
            arg_get(st, &c->args[0], (uint32_t)r, v);
        break;
    }
    case WIN_AGG: break;
    }
}

static void win_values(WindowState *st, MemArena *qa, WinCallState *c, uint32_t ps, uint32_t pe)
{
    int64_t ntile_n = 0;
    uint32_t k = 0;
    for (uint32_t i = ps; i < pe; i++) {
        Value v;
        win_value(st, c, i, ps, pe, &ntile_n, &v);
        tmp_put(st, k, &v);
        if (++k == VEC_CAPACITY) {
            tmp_flush(st, c, qa, k);
            k = 0;
            err_check_interrupts();
        }
    }
    tmp_flush(st, c, qa, k);
}

static void window_finalize(ExecOp *op)
{
    WindowState *st = op->state;
    MemArena *a = op->q->arena;
    uint32_t n = st->nrows;
    st->pdiff = mem_alloc(a, (size_t)n + 1);
    st->odiff = mem_alloc(a, (size_t)n + 1);
    st->gstart = mem_alloc(a, ((size_t)n + 1) * sizeof(uint32_t));
    st->gend = mem_alloc(a, ((size_t)n + 1) * sizeof(uint32_t));
    st->gidx = mem_alloc(a, ((size_t)n + 1) * sizeof(uint32_t));
    st->gpos = mem_alloc(a, ((size_t)n + 2) * sizeof(uint32_t));
    st->fs = mem_alloc(a, ((size_t)n + 1) * sizeof(uint32_t));
    st->fe = mem_alloc(a, ((size_t)n + 1) * sizeof(uint32_t));
    find_boundaries(st);
    for (uint32_t ps = 0; ps < n;) {
        err_check_interrupts();
        uint32_t pe = ps + 1;
        while (pe < n && !st->pdiff[pe])
            pe++;
        uint32_t ng = peer_groups(st, ps, pe);
        frames(st, ps, pe, ng);
        for (int c = 0; c < st->ncalls; c++) {
            WinCallState *cs = &st->calls[c];
            set_tmp_type(st, cs->call->type);
            if (cs->call->kind == WIN_AGG)
                win_agg(st, a, cs, ps, pe);
            else
                win_values(st, a, cs, ps, pe);
        }
        ps = pe;
    }
    st->pos = 0;
}

/* ---------- pipeline ---------- */

static void window_sink(ExecOp *op, Batch *in)
{
    WindowState *st = op->state;
    const uint16_t *rows = in->sel ? in->sel : exec__identity_sel;
    for (int c = 0; c < st->ncols; c++)
        exec__col_append(&st->cols[c], op->q->arena, &in->cols[c], rows, in->count);
    if ((uint64_t)st->nrows + in->count > UINT32_MAX / 2)
        err_raise(ERRCODE_PROGRAM_LIMIT_EXCEEDED, "too many rows in a window partition set");
    st->nrows += in->count;
}

static bool window_next(ExecOp *op, Batch **out)
{
    WindowState *st = op->state;
    if (st->pos >= st->nrows)
        return false;
    Batch *b = st->out;
    for (int c = 0; c < st->ncols; c++)
        exec__col_view(&st->cols[c], st->pos, &b->cols[c]);
    for (int c = 0; c < st->ncalls; c++)
        exec__col_view(&st->calls[c].res, st->pos, &b->cols[st->ncols + c]);
    uint32_t n = st->nrows - st->pos;
    b->count = n > VEC_CAPACITY ? VEC_CAPACITY : n;
    b->sel = NULL;
    st->pos += b->count;
    *out = b;
    return true;
}

static void window_calls_init(ExecQuery *q, WindowState *st, const PlanNode *n)
{
    st->ncalls = n->nwincalls;
    st->calls = MEM_NEW_ARRAY(q->arena, WinCallState, n->nwincalls > 0 ? n->nwincalls : 1);
    for (int c = 0; c < n->nwincalls; c++) {
        WinCallState *cs = &st->calls[c];
        const WindowCall *w = &n->wincalls[c];
        cs->call = w;
        if (w->nargs > 3)
            err_raise(ERRCODE_INTERNAL_ERROR, "window function with %d arguments", w->nargs);
        for (int k = 0; k < w->nargs; k++)
            win_arg(q, w->args[k], &cs->args[k]);
        if ((w->kind == WIN_NTILE && w->nargs < 1) || (w->kind == WIN_NTH_VALUE && w->nargs < 2) ||
            ((w->kind == WIN_LAG || w->kind == WIN_LEAD || w->kind == WIN_FIRST_VALUE ||
              w->kind == WIN_LAST_VALUE) && w->nargs < 1))
            err_raise(ERRCODE_INTERNAL_ERROR, "window function without its arguments");
        if (w->kind == WIN_AGG) {
            cs->agg = mem_calloc(q->arena, 1, exec__agg_slot_size());
            exec__agg_slot_init(q, cs->agg, &w->agg, st->scratch, 1);
        }
        exec__col_init(&cs->res, w->type, q->arena, 1024);
        if (w->kind == WIN_AGG)
            exec__col_init(&cs->rev, w->type, q->arena, 64);
    }
}

ExecOp *exec__op_window(ExecQuery *q, const PlanNode *n)
{
    ExecOp *op = exec__op_new(q, n, sizeof(WindowState));
    WindowState *st = op->state;
    MemArena *a = q->arena;
    st->n = n;
    st->ncols = n->left->ncols;
    if (n->ncols != st->ncols + n->nwincalls)
        err_raise(ERRCODE_INTERNAL_ERROR, "window node with %d columns for %d inputs and %d calls", n->ncols,
                  st->ncols, n->nwincalls);
    st->cols = MEM_NEW_ARRAY(a, ExecColumn, st->ncols > 0 ? st->ncols : 1);
    for (int c = 0; c < st->ncols; c++)
        exec__col_init(&st->cols[c], n->left->col_types[c], a, 1024);
    st->scratch = exec__scratch_create(q);
    st->rscratch = exec__scratch_create(q);
    const WindowFrame *f = &n->frame;
    bool offsets_count = f->mode != FRAME_RANGE;
    if (f->start_kind == BOUND_OFFSET_PRECEDING || f->start_kind == BOUND_OFFSET_FOLLOWING) {
        int64_t v = f->start_offset ? frame_offset(q, f->start_offset, true, !offsets_count) : 0;
        st->start_off = offsets_count ? v : 0;
    }
    if (f->end_kind == BOUND_OFFSET_PRECEDING || f->end_kind == BOUND_OFFSET_FOLLOWING) {
        int64_t v = f->end_offset ? frame_offset(q, f->end_offset, false, !offsets_count) : 0;
        st->end_off = offsets_count ? v : 0;
    }
    window_calls_init(q, st, n);
    st->feed.ncols = st->ncols;
    st->feed.cols = MEM_NEW_ARRAY(a, Vector, st->ncols > 0 ? st->ncols : 1);
    st->sel = mem_alloc(a, VEC_CAPACITY * sizeof(uint16_t));
    st->zeros = mem_calloc(a, VEC_CAPACITY, sizeof(uint32_t));
    st->ridx = mem_alloc(a, VEC_CAPACITY * sizeof(uint32_t));
    vec_init(&st->tmp, SQLTYPE(TYPE_INT8), a);
    /* tmp holds any type: its data buffer must fit the widest value */
    st->tmp.data = mem_alloc(a, VEC_CAPACITY * sizeof(StrRef));
    st->out = MEM_NEW(a, Batch);
    st->out->ncols = n->ncols;
    st->out->cols = MEM_NEW_ARRAY(a, Vector, n->ncols > 0 ? n->ncols : 1);
    op->sink = window_sink;
    op->finalize = window_finalize;
    op->next = window_next;
    return op;
}
