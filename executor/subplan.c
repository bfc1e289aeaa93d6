/*
 * subplan.c — subqueries evaluated as expressions (EXPR_SUBPLAN): scalar
 * subqueries, EXISTS, x op ANY/ALL (subquery) that the planner did not turn
 * into joins.
 *
 * An uncorrelated subplan (no args) runs once per portal run, on first use;
 * (correlated ones are memoised: see below)
 * its result is cached in the portal's shared state (strings copied into the
 * query arena) and every later batch reads the cache. A correlated subplan
 * is evaluated per outer batch: the argument expressions are evaluated over
 * the whole batch first (vectorised), then for each active row the subtree
 * is re-run — rebuilt with its EXPR_OUTER_REFs bound to that row's values,
 * never re-planned — once per DISTINCT argument tuple: results are kept in
 * a hash table keyed by the arguments (NULLs equal) for the whole portal
 * run, so repeated outer values cost a lookup; the subtree is consumed only
 * as far as the sublink needs (EXISTS
 * and ANY stop at the first deciding row; SCALAR at the second row, which
 * raises 21000). Batches of the subtree are pulled through a nested run
 * (subrun.c), so cancel is checked per batch inside.
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

#include <string.h>
#include "common/array.h"
#include "common/error.h"

typedef struct ExecSubplan {
    const Expr *e;
    ExecQuery *q;
    ExecSubRun *sub;
    Value *outer;
    Value *vals;              /* ARRAY(subquery): the collected values */
    uint32_t nvals, cap;
    /* memo of correlated results: argument tuple → group → result */
    ExecGroupTable *memo;
    ExecColumn results;
    uint32_t *group_of;
    Vector one;               /* one result, appended to results */
} ExecSubplan;

/* Memoising is exact only when the hash table's equality is identity:
 * not for numeric (1.0 = 1.00), char(n), floats (-0 = 0), interval. */
static bool memo_safe(const Expr *e)
{
    for (int k = 0; k < e->nargs; k++) {
        SqlType t = e->args[k]->type;
        PhysType p = type_phys(t);
        if (p == PHYS_F32 || p == PHYS_F64)
            return false;
        if (p == PHYS_STR && t.oid != TYPE_TEXT && t.oid != TYPE_VARCHAR && t.oid != TYPE_NAME &&
            t.oid != TYPE_UUID && t.oid != TYPE_BYTEA && t.oid != TYPE_UNKNOWN)
            return false;
    }
    return true;
}

ExecSubplan *exec__subplan_new(ExecQuery *q, const Expr *e)
{
    ERR_ASSERT(e->subplan != NULL);
    ExecSubplan *sp = MEM_NEW(q->arena, ExecSubplan);
    sp->e = e;
    sp->q = q;
    sp->sub = exec__sub_new(q, e->subplan, e->nargs > 0);
    sp->outer = MEM_NEW_ARRAY(q->arena, Value, e->nargs > 0 ? e->nargs : 1);
    if (e->nargs > 0 && memo_safe(e)) {
        SqlType *types = MEM_NEW_ARRAY(q->arena, SqlType, e->nargs);
        for (int k = 0; k < e->nargs; k++)
            types[k] = e->args[k]->type;
        sp->memo = MEM_NEW(q->arena, ExecGroupTable);
        exec__gt_init(sp->memo, q->arena, e->nargs, types);
        exec__col_init(&sp->results, e->type, q->arena, 1024);
        sp->group_of = mem_alloc(q->arena, VEC_CAPACITY * sizeof(uint32_t));
        vec_init(&sp->one, e->type, q->arena);
    }
    return sp;
}

static StrRef copy_str(StrRef s, MemArena *a)
{
    if (s.len == 0)
        return s;
    char *p = mem_alloc(a, s.len);
    memcpy(p, s.ptr, s.len);
    return (StrRef){p, s.len};
}

/* ARRAY(subquery): keep the column's values (strings stay valid: the
 * subtree's batch is consumed before the next is pulled, so copy them). */
static void array_collect(ExecSubplan *sp, const Batch *b, MemArena *arena)
{
    if (sp->nvals + b->count > sp->cap) {
        uint32_t cap = sp->cap ? sp->cap * 2 : 64;
        while (cap < sp->nvals + b->count)
            cap *= 2;
        sp->vals = mem_realloc(sp->q->arena, sp->vals, sizeof(Value) * sp->cap, sizeof(Value) * cap);
        sp->cap = cap;
    }
    bool str = type_phys(b->cols[0].type) == PHYS_STR;
    for (uint32_t i = 0; i < b->count; i++) {
        Value *v = &sp->vals[sp->nvals++];
        vec_get_value(&b->cols[0], batch_row(b, i) & exec__mask(&b->cols[0]), v);
        if (str && !v->is_null)
            v->u.str = copy_str(v->u.str, arena);
    }
}

/* Run the (started) subtree and compute the sublink's value. */
static void subplan_result(ExecSubplan *sp, MemArena *arena, Value *out)
{
    SubLinkKind kind = sp->e->sublink;
    bool found = false, saw_null = false;
    uint64_t nrows = 0;
    Batch *b;
    out->is_null = false;
    while (exec__sub_next(sp->sub, &b)) {
        if (b->count == 0)
            continue;
        if (kind == SUBLINK_EXISTS) {
            out->u.b = true;
            return;
        }
        if (kind == SUBLINK_ARRAY) {
            array_collect(sp, b, arena);
            continue;
        }
        if (kind == SUBLINK_SCALAR) {
            nrows += b->count;
            if (nrows > 1)
                err_raise(ERRCODE_CARDINALITY_VIOLATION,
                          "more than one row returned by a subquery used as an expression");
            vec_get_value(&b->cols[0], batch_row(b, 0), out);
            if (!out->is_null && type_phys(sp->e->type) == PHYS_STR)
                out->u.str = copy_str(out->u.str, arena);
            found = true;
            continue;
        }
        /* ANY / ALL over the bool column */
        const Vector *v = &b->cols[0];
        const uint8_t *d = v->data;
        uint32_t m = exec__mask(v);
        const uint64_t *vb = exec__validity(v);
        uint8_t decide = kind == SUBLINK_ANY;   /* ANY: a true decides; ALL: a false */
        for (uint32_t i = 0; i < b->count; i++) {
            uint32_t r = batch_row(b, i) & m;
            if (!exec__bit(vb, r)) {
                saw_null = true;
            } else if (d[r] == decide) {
                out->u.b = decide;
                return;
            }
        }
    }
    switch (kind) {
    case SUBLINK_EXISTS: out->u.b = false; break;
    case SUBLINK_SCALAR:
        if (!found)
            out->is_null = true;   /* no row: NULL; else the row's value (maybe NULL) */
        break;
    case SUBLINK_ANY: out->is_null = saw_null; out->u.b = false; break;
    case SUBLINK_ALL: out->is_null = saw_null; out->u.b = true; break;
    case SUBLINK_ARRAY:
        out->u.str = array_build(SQLTYPE(type_element_of(sp->e->type.oid)), 1, sp->nvals, sp->vals, arena);
        sp->nvals = 0;
        break;
    }
}

static void put(Vector *out, uint32_t row, const Value *v)
{
    if (v->is_null)
        vec_set_null(out, row);
    else
        vec_set_value(out, row, v);
}

void exec__subplan_eval(ExecSubplan *sp, Vector *const *args, Vector *out, const uint16_t *sel, uint32_t n,
                        MemArena *scratch)
{
    const Expr *e = sp->e;
    out->validity = NULL;
    if (e->nargs == 0) {
        ExecShared *sh = sp->q->shared;
        ExecSubplanCache tmp = {0};
        ExecSubplanCache *c = sh && e->subplan_id >= 0 && e->subplan_id < sh->nsubplans
                                  ? &sh->subplans[e->subplan_id] : &tmp;
        if (!c->done) {
            exec__sub_start(sp->sub, NULL, 0);
            subplan_result(sp, sh ? sh->arena : sp->q->arena, &c->value);
            c->done = true;
        }
        out->is_const = true;
        put(out, 0, &c->value);
        return;
    }
    /* correlated: one run per distinct argument tuple, remembered for the
     * whole portal run (a memo like PostgreSQL's Memoize node) */
    bool all_const = true;
    for (int k = 0; k < e->nargs; k++)
        all_const &= args[k]->is_const;
    out->is_const = all_const;
    uint32_t cnt = all_const ? (n > 0 ? 1 : 0) : n;
    const uint16_t *lsel = all_const ? NULL : sel;
    if (sp->memo == NULL) {
        for (uint32_t i = 0; i < cnt; i++) {
            uint32_t row = lsel ? lsel[i] : i;
            for (int k = 0; k < e->nargs; k++)
                vec_get_value(args[k], row & exec__mask(args[k]), &sp->outer[k]);
            exec__sub_start(sp->sub, sp->outer, e->nargs);
            Value v;
            subplan_result(sp, scratch, &v);
            put(out, row, &v);
        }
        return;
    }
    uint32_t base = sp->memo->ngroups;
    uint32_t nnew = exec__gt_lookup(sp->memo, args, lsel, cnt, sp->group_of);
    static const uint16_t row0[1] = {0};
    for (uint32_t j = 0; j < nnew; j++) {
        uint32_t i = sp->memo->newpos[j];
        uint32_t row = lsel ? lsel[i] : i;
        for (int k = 0; k < e->nargs; k++)
            vec_get_value(args[k], row & exec__mask(args[k]), &sp->outer[k]);
        exec__sub_start(sp->sub, sp->outer, e->nargs);
        Value v;
        subplan_result(sp, scratch, &v);
        sp->one.validity = NULL;
        put(&sp->one, 0, &v);
        exec__col_append(&sp->results, sp->q->arena, &sp->one, row0, 1);
        ERR_ASSERT(sp->results.count == base + j + 1);
    }
    for (uint32_t i = 0; i < cnt; i++) {
        uint32_t row = lsel ? lsel[i] : i;
        Value v;
        exec__col_get(&sp->results, sp->group_of[i], &v);
        put(out, row, &v);
    }
}
