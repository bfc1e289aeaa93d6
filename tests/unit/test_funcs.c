/*
 * test_funcs.c — unit tests of the function registry and its kernels
 * (executor/funcs*.c): every operator family on small vectors with NULLs,
 * selection vectors and constant inputs; overflow and division errors;
 * casts and their PostgreSQL error texts; LIKE (general matcher and the
 * constant-pattern fast paths); registry lookups; number templates,
 * to_number, make_interval, to_date and jsonb edits (third wave).
 *
 * Kernels are called the way the executor calls them: result validity set
 * first (AND of the arguments'), then one kernel call per batch.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "common/arena.h"
#include "common/datetime.h"
#include "common/error.h"
#include "common/numeric.h"
#include "common/types.h"
#include "common/vector.h"
#include "executor/funcs.h"

static MemArena *A;

static void setup(void) { A = mem_arena_create("test_funcs"); }
static void teardown(void) { mem_arena_destroy(A); }
TestSuite(funcs, .init = setup, .fini = teardown);

/* ---------- helpers ---------- */

static Vector *vnew(uint32_t oid, int32_t typmod)
{
    Vector *v = MEM_NEW(A, Vector);
    vec_init(v, (SqlType){oid, typmod}, A);
    return v;
}

#define I16(v) ((int16_t *)(v)->data)
#define I32(v) ((int32_t *)(v)->data)
#define I64(v) ((int64_t *)(v)->data)
#define F32(v) ((float *)(v)->data)
#define F64(v) ((double *)(v)->data)
#define B(v) ((uint8_t *)(v)->data)
#define S(v) ((StrRef *)(v)->data)

static StrRef str(const char *s) { return (StrRef){s, (uint32_t)strlen(s)}; }

static Vector *vtext(uint32_t oid, int n, const char *const *vals)
{
    Vector *v = vnew(oid, TYPMOD_NONE);
    for (int i = 0; i < n; i++) {
        if (vals[i]) S(v)[i] = str(vals[i]);
        else vec_set_null(v, (uint32_t)i);
    }
    return v;
}

static Vector *vconst_text(const char *s)
{
    Vector *v = vnew(TYPE_TEXT, TYPMOD_NONE);
    v->is_const = true;
    S(v)[0] = str(s);
    return v;
}

static bool streq(StrRef s, const char *want)
{
    return s.len == strlen(want) && memcmp(s.ptr, want, s.len) == 0;
}

static const FuncDesc *find(const char *name, int nargs, uint32_t t0, uint32_t t1)
{
    FuncCandidates c;
    exec_func_candidates(name, nargs, &c);
    for (int i = 0; i < c.count; i++)
        if (c.items[i]->argtypes[0] == t0 && (nargs < 2 || c.items[i]->argtypes[1] == t1))
            return c.items[i];
    cr_assert_fail("no function %s(%u, %u)", name, t0, t1);
    return NULL;
}

/* Run a kernel as the executor does: result validity = AND of the args'. */
static Vector *run(FuncKernel k, uint32_t oid, int32_t typmod, int nargs, Vector **args,
                   const uint16_t *sel, uint32_t count)
{
    SqlType rt = {oid, typmod};
    Vector *r = vnew(oid, typmod);
    for (uint32_t i = 0; i < count; i++) {
        uint32_t row = sel ? sel[i] : i;
        for (int a = 0; a < nargs; a++)
            if (!vec_is_valid(args[a], row)) vec_set_null(r, row);
    }
    FuncCallCtx ctx = {sel, count, A, rt};
    k(&ctx, args, r);
    return r;
}

static Vector *run_func(const FuncDesc *f, int nargs, Vector **args, const uint16_t *sel,
                        uint32_t count)
{
    return run(f->kernel, f->rettype, TYPMOD_NONE, nargs, args, sel, count);
}

static Vector *run_cast(const CastDesc *c, uint32_t oid, int32_t typmod, Vector *arg,
                       uint32_t count)
{
    cr_assert_not_null(c);
    return run(c->kernel, oid, typmod, 1, &arg, NULL, count);
}

/* The same with a target type without typmod (no compound literal: inside
 * ERR_TRY those trip gcc's -Wclobbered at -O0). */
static Vector *cast_to(const CastDesc *c, uint32_t oid, Vector *arg, uint32_t count)
{
    return run_cast(c, oid, TYPMOD_NONE, arg, count);
}

/* Expect stmt to raise sqlstate with message. */
#define EXPECT_ERROR(stmt, code, msg)                                              \
    do {                                                                           \
        ErrJmp j_;                                                                 \
        if (ERR_TRY(j_)) {                                                         \
            stmt;                                                                  \
            err_pop(&j_);                                                          \
            cr_assert_fail("no error raised, expected %s", msg);                   \
        } else {                                                                   \
            cr_assert_str_eq(err_current()->sqlstate, code);                       \
            cr_assert_str_eq(err_current()->message, msg);                         \
        }                                                                          \
    } while (0)

/* ---------- registry ---------- */

Test(funcs, registry_candidates)
{
    FuncCandidates c;
    exec_func_candidates("+", 2, &c);
    bool found = false;
    for (int i = 0; i < c.count; i++)
        if (c.items[i]->argtypes[0] == TYPE_INT4 && c.items[i]->argtypes[1] == TYPE_INT4) {
            cr_assert_eq(c.items[i]->rettype, TYPE_INT4);
            cr_assert_eq(c.items[i]->oid, 177u);
            found = true;
        }
    cr_assert(found);
    cr_assert_gt(c.count, 10);
    exec_func_candidates("-", 1, &c);
    cr_assert_geq(c.count, 6);
    exec_func_candidates("no_such_function", 1, &c);
    cr_assert_eq(c.count, 0);
    cr_assert_eq(find("+", 2, TYPE_INT4, TYPE_INT8)->rettype, TYPE_INT8);
    cr_assert_eq(find("version", 0, 0, 0)->flags & FUNC_STABLE, FUNC_STABLE);
    cr_assert_gt(exec_func_count(), 200);
}

Test(funcs, registry_casts)
{
    cr_assert_eq(exec_cast_lookup(TYPE_INT4, TYPE_INT8)->context, CAST_IMPLICIT);
    cr_assert_eq(exec_cast_lookup(TYPE_INT8, TYPE_INT4)->context, CAST_ASSIGNMENT);
    cr_assert_eq(exec_cast_lookup(TYPE_FLOAT8, TYPE_INT4)->context, CAST_ASSIGNMENT);
    cr_assert_eq(exec_cast_lookup(TYPE_INT4, TYPE_NUMERIC)->context, CAST_IMPLICIT);
    cr_assert_eq(exec_cast_lookup(TYPE_INT4, TYPE_TEXT)->context, CAST_ASSIGNMENT);
    cr_assert_eq(exec_cast_lookup(TYPE_TEXT, TYPE_INT4)->context, CAST_EXPLICIT);
    cr_assert_eq(exec_cast_lookup(TYPE_BOOL, TYPE_INT4)->context, CAST_EXPLICIT);
    cr_assert_eq(exec_cast_lookup(TYPE_DATE, TYPE_TIMESTAMP)->context, CAST_IMPLICIT);
    cr_assert_eq(exec_cast_lookup(TYPE_TIMESTAMP, TYPE_DATE)->context, CAST_ASSIGNMENT);
    cr_assert_eq(exec_cast_lookup(TYPE_UNKNOWN, TYPE_DATE)->context, CAST_IMPLICIT);
    cr_assert_not_null(exec_cast_lookup(TYPE_VARCHAR, TYPE_VARCHAR));
    cr_assert_not_null(exec_cast_lookup(TYPE_NUMERIC, TYPE_NUMERIC));
    cr_assert_null(exec_cast_lookup(TYPE_INT4, TYPE_INT4));
    cr_assert_null(exec_cast_lookup(TYPE_BOOL, TYPE_INT8));
    cr_assert_null(exec_cast_lookup(TYPE_DATE, TYPE_INT4));
    cr_assert_neq(exec_cast_lookup(TYPE_TEXT, TYPE_VARCHAR)->kernel,
                  exec_cast_lookup_explicit(TYPE_TEXT, TYPE_VARCHAR)->kernel);
}

Test(funcs, registry_aggs)
{
    cr_assert_eq(exec_agg_lookup("sum", TYPE_INT4)->rettype, TYPE_INT8);
    cr_assert_eq(exec_agg_lookup("sum", TYPE_INT8)->rettype, TYPE_NUMERIC);
    cr_assert_eq(exec_agg_lookup("sum", TYPE_FLOAT4)->rettype, TYPE_FLOAT4);
    cr_assert_eq(exec_agg_lookup("avg", TYPE_INT4)->rettype, TYPE_NUMERIC);
    cr_assert_eq(exec_agg_lookup("avg", TYPE_FLOAT4)->rettype, TYPE_FLOAT8);
    cr_assert_eq(exec_agg_lookup("max", TYPE_TEXT)->rettype, TYPE_TEXT);
    cr_assert_eq(exec_agg_lookup("min", TYPE_DATE)->kind, AGG_MIN);
    cr_assert_eq(exec_agg_lookup("count", TYPE_INVALID)->kind, AGG_COUNT_STAR);
    cr_assert_eq(exec_agg_lookup("count", TYPE_TEXT)->kind, AGG_COUNT);
    cr_assert_eq(exec_agg_lookup("count", TYPE_TEXT)->rettype, TYPE_INT8);
    cr_assert_null(exec_agg_lookup("sum", TYPE_TEXT));
    cr_assert_null(exec_agg_lookup("min", TYPE_BOOL));
    cr_assert(exec_is_aggregate_name("avg"));
    cr_assert(!exec_is_aggregate_name("length"));
}

/* ---------- integer arithmetic ---------- */

Test(funcs, int4_add_shapes)
{
    Vector *a = vnew(TYPE_INT4, -1), *b = vnew(TYPE_INT4, -1);
    for (int i = 0; i < 100; i++) I32(a)[i] = i, I32(b)[i] = 1000 * i;
    vec_set_null(b, 3);
    const FuncDesc *f = find("+", 2, TYPE_INT4, TYPE_INT4);
    Vector *r = run_func(f, 2, (Vector *[]){a, b}, NULL, 100);
    cr_assert_eq(I32(r)[7], 7007);
    cr_assert(!vec_is_valid(r, 3));
    uint16_t sel[] = {2, 50, 99};
    r = run_func(f, 2, (Vector *[]){a, b}, sel, 3);
    cr_assert_eq(I32(r)[50], 50050);
    cr_assert_eq(I32(r)[99], 99099);
    Vector *c = vnew(TYPE_INT4, -1);
    c->is_const = true;
    I32(c)[0] = 5;
    r = run_func(f, 2, (Vector *[]){c, a}, NULL, 100);
    cr_assert_eq(I32(r)[10], 15);
    r = run_func(f, 2, (Vector *[]){a, c}, sel, 3);
    cr_assert_eq(I32(r)[99], 104);
    r = run_func(f, 2, (Vector *[]){c, c}, NULL, 4);
    cr_assert_eq(I32(r)[3], 10);
}

Test(funcs, int_overflow)
{
    Vector *a = vnew(TYPE_INT4, -1), *b = vnew(TYPE_INT4, -1);
    I32(a)[0] = 1, I32(b)[0] = 1;
    I32(a)[1] = INT32_MAX, I32(b)[1] = 1;
    const FuncDesc *f = find("+", 2, TYPE_INT4, TYPE_INT4);
    EXPECT_ERROR(run_func(f, 2, (Vector *[]){a, b}, NULL, 2), "22003", "integer out of range");
    /* the overflowing row is NULL: no error */
    vec_set_null(b, 1);
    Vector *r = run_func(f, 2, (Vector *[]){a, b}, NULL, 2);
    cr_assert_eq(I32(r)[0], 2);
    /* not selected: no error */
    vec_set_all_valid(b);
    uint16_t sel[] = {0};
    run_func(f, 2, (Vector *[]){a, b}, sel, 1);

    Vector *x = vnew(TYPE_INT2, -1), *y = vnew(TYPE_INT2, -1);
    I16(x)[0] = 200, I16(y)[0] = 200;
    EXPECT_ERROR(run_func(find("*", 2, TYPE_INT2, TYPE_INT2), 2, (Vector *[]){x, y}, NULL, 1),
                 "22003", "smallint out of range");
    Vector *p = vnew(TYPE_INT8, -1), *q = vnew(TYPE_INT8, -1);
    I64(p)[0] = INT64_MIN, I64(q)[0] = 1;
    EXPECT_ERROR(run_func(find("-", 2, TYPE_INT8, TYPE_INT8), 2, (Vector *[]){p, q}, NULL, 1),
                 "22003", "bigint out of range");
    I64(p)[0] = INT64_C(4000000000), I64(q)[0] = INT64_C(4000000000);
    EXPECT_ERROR(run_func(find("*", 2, TYPE_INT8, TYPE_INT8), 2, (Vector *[]){p, q}, NULL, 1),
                 "22003", "bigint out of range");
    I64(p)[0] = INT64_MIN;
    EXPECT_ERROR(run_func(find("-", 1, TYPE_INT8, 0), 1, (Vector *[]){p}, NULL, 1),
                 "22003", "bigint out of range");
    EXPECT_ERROR(run_func(find("abs", 1, TYPE_INT8, 0), 1, (Vector *[]){p}, NULL, 1),
                 "22003", "bigint out of range");
}

Test(funcs, overflow_full_batch_every_shape)
{
    /* the error is found by the vectorised dense loops of each shape */
    Vector *a = vnew(TYPE_INT8, -1), *c = vnew(TYPE_INT8, -1);
    for (int i = 0; i < VEC_CAPACITY; i++) I64(a)[i] = i;
    I64(a)[2000] = INT64_MAX;
    c->is_const = true;
    I64(c)[0] = 1;
    const FuncDesc *f = find("+", 2, TYPE_INT8, TYPE_INT8);
    Vector *r = run_func(f, 2, (Vector *[]){a, c}, NULL, 2000);
    cr_assert_eq(I64(r)[1999], 2000);
    EXPECT_ERROR(run_func(f, 2, (Vector *[]){a, c}, NULL, VEC_CAPACITY), "22003",
                 "bigint out of range");
    EXPECT_ERROR(run_func(f, 2, (Vector *[]){c, a}, NULL, VEC_CAPACITY), "22003",
                 "bigint out of range");
    EXPECT_ERROR(run_func(f, 2, (Vector *[]){a, a}, NULL, VEC_CAPACITY), "22003",
                 "bigint out of range");
    vec_set_null(a, 2000);
    r = run_func(f, 2, (Vector *[]){a, a}, NULL, VEC_CAPACITY);
    cr_assert_eq(I64(r)[2047], 4094);
    Vector *d = vnew(TYPE_FLOAT8, -1);
    for (int i = 0; i < VEC_CAPACITY; i++) F64(d)[i] = i;
    F64(d)[1500] = 1e308;
    EXPECT_ERROR(run_func(find("*", 2, TYPE_FLOAT8, TYPE_FLOAT8), 2, (Vector *[]){d, d}, NULL,
                          VEC_CAPACITY),
                 "22003", "value out of range: overflow");
}

Test(funcs, int_division)
{
    Vector *a = vnew(TYPE_INT4, -1), *b = vnew(TYPE_INT4, -1);
    int32_t av[] = {7, -7, 7, INT32_MIN, 5}, bv[] = {2, 2, -2, 3, 0};
    memcpy(a->data, av, sizeof av), memcpy(b->data, bv, sizeof bv);
    const FuncDesc *div = find("/", 2, TYPE_INT4, TYPE_INT4);
    const FuncDesc *mod = find("%", 2, TYPE_INT4, TYPE_INT4);
    Vector *r = run_func(div, 2, (Vector *[]){a, b}, NULL, 4);
    cr_assert_eq(I32(r)[0], 3);
    cr_assert_eq(I32(r)[1], -3);   /* truncation toward zero */
    cr_assert_eq(I32(r)[2], -3);
    r = run_func(mod, 2, (Vector *[]){a, b}, NULL, 4);
    cr_assert_eq(I32(r)[1], -1);
    EXPECT_ERROR(run_func(div, 2, (Vector *[]){a, b}, NULL, 5), "22012", "division by zero");
    EXPECT_ERROR(run_func(mod, 2, (Vector *[]){a, b}, NULL, 5), "22012", "division by zero");
    vec_set_null(b, 4);   /* NULL divisor that happens to hold 0: no error */
    run_func(div, 2, (Vector *[]){a, b}, NULL, 5);
    I32(b)[0] = -1, I32(a)[0] = INT32_MIN;
    EXPECT_ERROR(run_func(div, 2, (Vector *[]){a, b}, NULL, 1), "22003", "integer out of range");
    r = run_func(mod, 2, (Vector *[]){a, b}, NULL, 1);
    cr_assert_eq(I32(r)[0], 0);
}

Test(funcs, int_cross_types)
{
    Vector *a = vnew(TYPE_INT4, -1), *b = vnew(TYPE_INT8, -1), *s = vnew(TYPE_INT2, -1);
    I32(a)[0] = INT32_MAX, I64(b)[0] = 1, I16(s)[0] = -3;
    Vector *r = run_func(find("+", 2, TYPE_INT4, TYPE_INT8), 2, (Vector *[]){a, b}, NULL, 1);
    cr_assert_eq(I64(r)[0], INT64_C(2147483648));
    EXPECT_ERROR(run_func(find("*", 2, TYPE_INT2, TYPE_INT4), 2, (Vector *[]){s, a}, NULL, 1),
                 "22003", "integer out of range");
    r = run_func(find("<", 2, TYPE_INT2, TYPE_INT8), 2, (Vector *[]){s, b}, NULL, 1);
    cr_assert_eq(B(r)[0], 1);
}

/* ---------- floats ---------- */

Test(funcs, float_ops)
{
    Vector *a = vnew(TYPE_FLOAT8, -1), *b = vnew(TYPE_FLOAT8, -1);
    F64(a)[0] = 1.5, F64(b)[0] = 0.25;
    F64(a)[1] = 1e308, F64(b)[1] = 1e308;
    Vector *r = run_func(find("/", 2, TYPE_FLOAT8, TYPE_FLOAT8), 2, (Vector *[]){a, b}, NULL, 1);
    cr_assert_eq(F64(r)[0], 6.0);
    EXPECT_ERROR(run_func(find("*", 2, TYPE_FLOAT8, TYPE_FLOAT8), 2, (Vector *[]){a, b}, NULL, 2),
                 "22003", "value out of range: overflow");
    F64(b)[0] = 0;
    EXPECT_ERROR(run_func(find("/", 2, TYPE_FLOAT8, TYPE_FLOAT8), 2, (Vector *[]){a, b}, NULL, 1),
                 "22012", "division by zero");
    F64(a)[0] = NAN;   /* NaN / 0 is NaN in PostgreSQL, not an error */
    r = run_func(find("/", 2, TYPE_FLOAT8, TYPE_FLOAT8), 2, (Vector *[]){a, b}, NULL, 1);
    cr_assert(isnan(F64(r)[0]));
    F64(a)[0] = 1e-300, F64(b)[0] = 1e-300;
    EXPECT_ERROR(run_func(find("*", 2, TYPE_FLOAT8, TYPE_FLOAT8), 2, (Vector *[]){a, b}, NULL, 1),
                 "22003", "value out of range: underflow");
    /* infinity in, infinity out: no error */
    F64(a)[0] = INFINITY, F64(b)[0] = 1;
    r = run_func(find("+", 2, TYPE_FLOAT8, TYPE_FLOAT8), 2, (Vector *[]){a, b}, NULL, 1);
    cr_assert(isinf(F64(r)[0]));
    Vector *f4 = vnew(TYPE_FLOAT4, -1);
    F32(f4)[0] = 0.5f;
    F64(b)[0] = 0.25;
    r = run_func(find("+", 2, TYPE_FLOAT4, TYPE_FLOAT8), 2, (Vector *[]){f4, b}, NULL, 1);
    cr_assert_eq(F64(r)[0], 0.75);
    F32(f4)[0] = 3e38f;
    Vector *f4b = vnew(TYPE_FLOAT4, -1);
    F32(f4b)[0] = 3e38f;
    EXPECT_ERROR(run_func(find("+", 2, TYPE_FLOAT4, TYPE_FLOAT4), 2, (Vector *[]){f4, f4b}, NULL, 1),
                 "22003", "value out of range: overflow");
}

Test(funcs, float_compare_nan)
{
    Vector *a = vnew(TYPE_FLOAT8, -1), *b = vnew(TYPE_FLOAT8, -1);
    F64(a)[0] = NAN, F64(b)[0] = NAN;
    F64(a)[1] = NAN, F64(b)[1] = 1e300;
    F64(a)[2] = 1, F64(b)[2] = 2;
    Vector *r = run_func(find("=", 2, TYPE_FLOAT8, TYPE_FLOAT8), 2, (Vector *[]){a, b}, NULL, 3);
    cr_assert_eq(B(r)[0], 1);
    cr_assert_eq(B(r)[1], 0);
    r = run_func(find(">", 2, TYPE_FLOAT8, TYPE_FLOAT8), 2, (Vector *[]){a, b}, NULL, 3);
    cr_assert_eq(B(r)[0], 0);
    cr_assert_eq(B(r)[1], 1);
    cr_assert_eq(B(r)[2], 0);
    r = run_func(find("<=", 2, TYPE_FLOAT8, TYPE_FLOAT8), 2, (Vector *[]){a, b}, NULL, 3);
    cr_assert_eq(B(r)[0], 1);
    cr_assert_eq(B(r)[1], 0);
    cr_assert_eq(B(r)[2], 1);
}

/* ---------- comparisons of other types ---------- */

Test(funcs, text_and_bpchar_compare)
{
    const char *av[] = {"abc", "ab", "b", NULL}, *bv[] = {"abc", "abc", "a", "x"};
    Vector *a = vtext(TYPE_TEXT, 4, av), *b = vtext(TYPE_TEXT, 4, bv);
    Vector *r = run_func(find("<", 2, TYPE_TEXT, TYPE_TEXT), 2, (Vector *[]){a, b}, NULL, 4);
    cr_assert_eq(B(r)[0], 0);
    cr_assert_eq(B(r)[1], 1);
    cr_assert_eq(B(r)[2], 0);
    cr_assert(!vec_is_valid(r, 3));
    const char *cv[] = {"ab  "}, *dv[] = {"ab"};
    Vector *c = vtext(TYPE_BPCHAR, 1, cv), *d = vtext(TYPE_BPCHAR, 1, dv);
    r = run_func(find("=", 2, TYPE_BPCHAR, TYPE_BPCHAR), 2, (Vector *[]){c, d}, NULL, 1);
    cr_assert_eq(B(r)[0], 1);
    c->type.oid = TYPE_TEXT, d->type.oid = TYPE_TEXT;
    r = run_func(find("=", 2, TYPE_TEXT, TYPE_TEXT), 2, (Vector *[]){c, d}, NULL, 1);
    cr_assert_eq(B(r)[0], 0);
}

Test(funcs, date_timestamp_compare)
{
    Vector *d = vnew(TYPE_DATE, -1), *t = vnew(TYPE_TIMESTAMP, -1);
    I32(d)[0] = 1, I64(t)[0] = USECS_PER_DAY;           /* equal */
    I32(d)[1] = 1, I64(t)[1] = USECS_PER_DAY + 1;       /* less */
    I32(d)[2] = DATE_NOEND, I64(t)[2] = INT64_C(9000000000000000000);
    Vector *r = run_func(find("=", 2, TYPE_DATE, TYPE_TIMESTAMP), 2, (Vector *[]){d, t}, NULL, 3);
    cr_assert_eq(B(r)[0], 1);
    cr_assert_eq(B(r)[1], 0);
    r = run_func(find(">", 2, TYPE_DATE, TYPE_TIMESTAMP), 2, (Vector *[]){d, t}, NULL, 3);
    cr_assert_eq(B(r)[2], 1);
    r = run_func(find("<", 2, TYPE_TIMESTAMP, TYPE_DATE), 2, (Vector *[]){t, d}, NULL, 3);
    cr_assert_eq(B(r)[0], 0);
    cr_assert_eq(B(r)[2], 1);
    Vector *b1 = vnew(TYPE_BOOL, -1), *b2 = vnew(TYPE_BOOL, -1);
    B(b1)[0] = 0, B(b2)[0] = 1;
    r = run_func(find("<", 2, TYPE_BOOL, TYPE_BOOL), 2, (Vector *[]){b1, b2}, NULL, 1);
    cr_assert_eq(B(r)[0], 1);
}

Test(funcs, date_arith)
{
    Vector *d = vnew(TYPE_DATE, -1), *n = vnew(TYPE_INT4, -1);
    I32(d)[0] = 10, I32(n)[0] = 5;
    Vector *r = run_func(find("+", 2, TYPE_DATE, TYPE_INT4), 2, (Vector *[]){d, n}, NULL, 1);
    cr_assert_eq(I32(r)[0], 15);
    r = run_func(find("-", 2, TYPE_DATE, TYPE_DATE), 2, (Vector *[]){d, r}, NULL, 1);
    cr_assert_eq(I32(r)[0], -5);
    I32(n)[0] = INT32_MAX;
    EXPECT_ERROR(run_func(find("+", 2, TYPE_DATE, TYPE_INT4), 2, (Vector *[]){d, n}, NULL, 1),
                 "22008", "date out of range");
}

/* ---------- numeric ---------- */

static Vector *vnum(int n, const char *const *vals)
{
    Vector *v = vnew(TYPE_NUMERIC, -1);
    for (int i = 0; i < n; i++) {
        if (vals[i]) S(v)[i] = numeric_in(vals[i], strlen(vals[i]), -1, A);
        else vec_set_null(v, (uint32_t)i);
    }
    return v;
}

static bool numeq(StrRef n, const char *want)
{
    uint32_t len;
    char *txt = numeric_format_arena(n, A, &len);
    if (strcmp(txt, want) != 0) cr_log_error("numeric %s, want %s", txt, want);
    return strcmp(txt, want) == 0;
}

Test(funcs, numeric_ops)
{
    const char *av[] = {"1.50", "10", NULL}, *bv[] = {"2.25", "3", "1"};
    Vector *a = vnum(3, av), *b = vnum(3, bv);
    Vector *r = run_func(find("+", 2, TYPE_NUMERIC, TYPE_NUMERIC), 2, (Vector *[]){a, b}, NULL, 3);
    cr_assert(numeq(S(r)[0], "3.75"));
    cr_assert(!vec_is_valid(r, 2));
    r = run_func(find("*", 2, TYPE_NUMERIC, TYPE_NUMERIC), 2, (Vector *[]){a, b}, NULL, 2);
    cr_assert(numeq(S(r)[1], "30"));
    r = run_func(find("<", 2, TYPE_NUMERIC, TYPE_NUMERIC), 2, (Vector *[]){a, b}, NULL, 2);
    cr_assert_eq(B(r)[0], 1);
    cr_assert_eq(B(r)[1], 0);
    const char *zv[] = {"0"};
    Vector *z = vnum(1, zv);
    EXPECT_ERROR(run_func(find("/", 2, TYPE_NUMERIC, TYPE_NUMERIC), 2, (Vector *[]){a, z}, NULL, 1),
                 "22012", "division by zero");
    const char *hv[] = {"2.5", "-2.5"};
    Vector *h = vnum(2, hv);
    r = run_func(find("round", 1, TYPE_NUMERIC, 0), 1, (Vector *[]){h}, NULL, 2);
    cr_assert(numeq(S(r)[0], "3"));
    cr_assert(numeq(S(r)[1], "-3"));
}

/* ---------- casts ---------- */

Test(funcs, cast_int_narrowing_and_float)
{
    Vector *a = vnew(TYPE_INT8, -1);
    I64(a)[0] = 5, I64(a)[1] = INT64_C(3000000000);
    Vector *r = cast_to(exec_cast_lookup(TYPE_INT8, TYPE_INT4), TYPE_INT4, a, 1);
    cr_assert_eq(I32(r)[0], 5);
    EXPECT_ERROR(cast_to(exec_cast_lookup(TYPE_INT8, TYPE_INT4), TYPE_INT4, a, 2),
                 "22003", "integer out of range");
    Vector *f = vnew(TYPE_FLOAT8, -1);
    F64(f)[0] = 2.5, F64(f)[1] = 3.5, F64(f)[2] = -2.5, F64(f)[3] = 1e10;
    r = cast_to(exec_cast_lookup(TYPE_FLOAT8, TYPE_INT4), TYPE_INT4, f, 3);
    cr_assert_eq(I32(r)[0], 2);    /* rint: half to even */
    cr_assert_eq(I32(r)[1], 4);
    cr_assert_eq(I32(r)[2], -2);
    EXPECT_ERROR(cast_to(exec_cast_lookup(TYPE_FLOAT8, TYPE_INT4), TYPE_INT4, f, 4),
                 "22003", "integer out of range");
    F64(f)[0] = NAN;
    EXPECT_ERROR(cast_to(exec_cast_lookup(TYPE_FLOAT8, TYPE_INT2), TYPE_INT2, f, 1),
                 "22003", "smallint out of range");
    Vector *i = vnew(TYPE_INT4, -1);
    I32(i)[0] = 7;
    r = cast_to(exec_cast_lookup(TYPE_INT4, TYPE_FLOAT8), TYPE_FLOAT8, i, 1);
    cr_assert_eq(F64(r)[0], 7.0);
    r = cast_to(exec_cast_lookup(TYPE_INT4, TYPE_BOOL), TYPE_BOOL, i, 1);
    cr_assert_eq(B(r)[0], 1);
}

Test(funcs, cast_numeric_int)
{
    const char *v[] = {"2.5", "-2.5", "99999999999"};
    Vector *n = vnum(3, v);
    Vector *r = cast_to(exec_cast_lookup(TYPE_NUMERIC, TYPE_INT4), TYPE_INT4, n, 2);
    cr_assert_eq(I32(r)[0], 3);    /* half away from zero */
    cr_assert_eq(I32(r)[1], -3);
    EXPECT_ERROR(cast_to(exec_cast_lookup(TYPE_NUMERIC, TYPE_INT4), TYPE_INT4, n, 3),
                 "22003", "integer out of range");
    Vector *i = vnew(TYPE_INT4, -1);
    I32(i)[0] = 12345;
    r = cast_to(exec_cast_lookup(TYPE_INT4, TYPE_NUMERIC), TYPE_NUMERIC, i, 1);
    cr_assert(numeq(S(r)[0], "12345"));
    const char *big[] = {"1e39"};
    EXPECT_ERROR(cast_to(exec_cast_lookup(TYPE_NUMERIC, TYPE_FLOAT4), TYPE_FLOAT4,
                          vnum(1, big), 1),
                 "22003", "\"1000000000000000000000000000000000000000\" is out of range for type real");
    /* numeric(7,2) typmod applied by the cast */
    r = run_cast(exec_cast_lookup(TYPE_INT4, TYPE_NUMERIC),
                 TYPE_NUMERIC, ((7 << 16) | 2) + 4, i, 1);
    cr_assert(numeq(S(r)[0], "12345.00"));
}

Test(funcs, cast_text_in_out)
{
    const char *v[] = {"42", " -7 ", "x", NULL};
    Vector *t = vtext(TYPE_TEXT, 4, v);
    const CastDesc *c = exec_cast_lookup(TYPE_TEXT, TYPE_INT4);
    Vector *r = cast_to(c, TYPE_INT4, t, 2);
    cr_assert_eq(I32(r)[0], 42);
    cr_assert_eq(I32(r)[1], -7);
    EXPECT_ERROR(cast_to(c, TYPE_INT4, t, 3), "22P02",
                 "invalid input syntax for type integer: \"x\"");
    uint16_t sel[] = {0, 3};
    r = run(c->kernel, TYPE_INT4, TYPMOD_NONE, 1, &t, sel, 2);   /* NULL row skipped */
    cr_assert(!vec_is_valid(r, 3));

    Vector *i = vnew(TYPE_INT4, -1);
    I32(i)[0] = -15, I32(i)[1] = 0;
    r = cast_to(exec_cast_lookup(TYPE_INT4, TYPE_TEXT), TYPE_TEXT, i, 2);
    cr_assert(streq(S(r)[0], "-15"));
    cr_assert(streq(S(r)[1], "0"));
    Vector *b = vnew(TYPE_BOOL, -1);
    B(b)[0] = 1, B(b)[1] = 0;
    r = cast_to(exec_cast_lookup(TYPE_BOOL, TYPE_TEXT), TYPE_TEXT, b, 2);
    cr_assert(streq(S(r)[0], "true"));
    cr_assert(streq(S(r)[1], "false"));
    Vector *f = vnew(TYPE_FLOAT8, -1);
    F64(f)[0] = 0.1;
    r = cast_to(exec_cast_lookup(TYPE_FLOAT8, TYPE_TEXT), TYPE_TEXT, f, 1);
    cr_assert(streq(S(r)[0], "0.1"));
    const char *dv[] = {"2024-02-29"};
    Vector *u = vtext(TYPE_UNKNOWN, 1, dv);
    r = cast_to(exec_cast_lookup(TYPE_UNKNOWN, TYPE_DATE), TYPE_DATE, u, 1);
    r = cast_to(exec_cast_lookup(TYPE_DATE, TYPE_TEXT), TYPE_TEXT, r, 1);
    cr_assert(streq(S(r)[0], "2024-02-29"));
}

Test(funcs, cast_varchar_typmod)
{
    const char *v[] = {"abcdef", "ab", "abc   "};
    Vector *t = vtext(TYPE_TEXT, 3, v);
    SqlType vc3 = {TYPE_VARCHAR, 3 + 4};
    Vector *r =
        run_cast(exec_cast_lookup_explicit(TYPE_TEXT, TYPE_VARCHAR), vc3.oid, vc3.typmod, t, 3);
    cr_assert(streq(S(r)[0], "abc"));
    cr_assert(streq(S(r)[1], "ab"));
    EXPECT_ERROR(run_cast(exec_cast_lookup(TYPE_TEXT, TYPE_VARCHAR), vc3.oid, vc3.typmod, t, 1),
                 "22001",
                 "value too long for type character varying(3)");
    uint16_t sel[] = {1, 2};   /* trailing spaces are clipped silently */
    r = run(exec_cast_lookup(TYPE_TEXT, TYPE_VARCHAR)->kernel, vc3.oid, vc3.typmod, 1, &t, sel, 2);
    cr_assert(streq(S(r)[2], "abc"));
    SqlType bp4 = {TYPE_BPCHAR, 4 + 4};
    r = run(exec_cast_lookup(TYPE_TEXT, TYPE_BPCHAR)->kernel, bp4.oid, bp4.typmod, 1, &t, sel, 2);
    cr_assert(streq(S(r)[1], "ab  "));
    /* bpchar → text drops the padding */
    Vector *bp = r;
    r = run(exec_cast_lookup(TYPE_BPCHAR, TYPE_TEXT)->kernel, TYPE_TEXT, TYPMOD_NONE, 1, &bp, sel, 1);
    cr_assert(streq(S(r)[1], "ab"));
    Vector *i = vnew(TYPE_INT4, -1);
    I32(i)[0] = 12345;
    r = run_cast(exec_cast_lookup_explicit(TYPE_INT4, TYPE_VARCHAR), vc3.oid, vc3.typmod, i, 1);
    cr_assert(streq(S(r)[0], "123"));
}

/* ---------- strings ---------- */

Test(funcs, string_functions)
{
    const char *av[] = {"héllo", "", NULL, "ABC"}, *bv[] = {"!", "x", "y", "déf"};
    Vector *a = vtext(TYPE_TEXT, 4, av), *b = vtext(TYPE_TEXT, 4, bv);
    Vector *r = run_func(find("||", 2, TYPE_TEXT, TYPE_TEXT), 2, (Vector *[]){a, b}, NULL, 4);
    cr_assert(streq(S(r)[0], "héllo!"));
    cr_assert(streq(S(r)[1], "x"));
    cr_assert(!vec_is_valid(r, 2));
    cr_assert(streq(S(r)[3], "ABCdéf"));
    r = run_func(find("length", 1, TYPE_TEXT, 0), 1, &a, NULL, 4);
    cr_assert_eq(I32(r)[0], 5);
    cr_assert_eq(I32(r)[1], 0);
    r = run_func(find("octet_length", 1, TYPE_TEXT, 0), 1, &a, NULL, 4);
    cr_assert_eq(I32(r)[0], 6);
    r = run_func(find("upper", 1, TYPE_TEXT, 0), 1, &a, NULL, 4);
    cr_assert(streq(S(r)[0], "HéLLO"));
    r = run_func(find("lower", 1, TYPE_TEXT, 0), 1, &a, NULL, 4);
    cr_assert(streq(S(r)[3], "abc"));
    const char *pv[] = {"ab  "};
    Vector *p = vtext(TYPE_BPCHAR, 1, pv);
    r = run_func(find("length", 1, TYPE_BPCHAR, 0), 1, &p, NULL, 1);
    cr_assert_eq(I32(r)[0], 2);
    r = run_func(find("octet_length", 1, TYPE_BPCHAR, 0), 1, &p, NULL, 1);
    cr_assert_eq(I32(r)[0], 4);
}

Test(funcs, substr_semantics)
{
    const char *av[] = {"hello", "hello", "hello", "héllo", "hello"};
    Vector *s = vtext(TYPE_TEXT, 5, av), *st = vnew(TYPE_INT4, -1), *n = vnew(TYPE_INT4, -1);
    int32_t sv[] = {2, -1, 0, 2, 4}, nv[] = {3, 3, 10, 2, 100};
    memcpy(st->data, sv, sizeof sv), memcpy(n->data, nv, sizeof nv);
    const FuncDesc *f3 = find("substr", 3, TYPE_TEXT, TYPE_INT4);
    Vector *r = run_func(f3, 3, (Vector *[]){s, st, n}, NULL, 5);
    cr_assert(streq(S(r)[0], "ell"));
    cr_assert(streq(S(r)[1], "h"));
    cr_assert(streq(S(r)[2], "hello"));
    cr_assert(streq(S(r)[3], "él"));
    cr_assert(streq(S(r)[4], "lo"));
    r = run_func(find("substring", 2, TYPE_TEXT, TYPE_INT4), 2, (Vector *[]){s, st}, NULL, 1);
    cr_assert(streq(S(r)[0], "ello"));
    I32(n)[0] = -1;
    EXPECT_ERROR(run_func(f3, 3, (Vector *[]){s, st, n}, NULL, 1), "22011",
                 "negative substring length not allowed");
}

/* LIKE on a flat pattern vector (general matcher) and the same patterns as
 * constants (fast paths), which must agree. */
static void check_like(const char *op, const char *text, const char *pat, bool want)
{
    const char *tv[] = {text}, *pv[] = {pat};
    Vector *t = vtext(TYPE_TEXT, 1, tv), *p = vtext(TYPE_TEXT, 1, pv);
    const FuncDesc *f = find(op, 2, TYPE_TEXT, TYPE_TEXT);
    Vector *r = run_func(f, 2, (Vector *[]){t, p}, NULL, 1);
    cr_assert_eq(B(r)[0], want, "%s %s %s (flat)", text, op, pat);
    r = run_func(f, 2, (Vector *[]){t, vconst_text(pat)}, NULL, 1);
    cr_assert_eq(B(r)[0], want, "%s %s %s (const)", text, op, pat);
}

Test(funcs, like_patterns)
{
    check_like("~~", "hello", "hello", true);
    check_like("~~", "hello", "hell", false);
    check_like("~~", "hello", "he%", true);
    check_like("~~", "hello", "%llo", true);
    check_like("~~", "hello", "%ll%", true);
    check_like("~~", "hello", "%lx%", false);
    check_like("~~", "hello", "%", true);
    check_like("~~", "", "%", true);
    check_like("~~", "", "", true);
    check_like("~~", "a", "", false);
    check_like("~~", "hello", "h_llo", true);
    check_like("~~", "héllo", "h_llo", true);
    check_like("~~", "hello", "h%l_", true);
    check_like("~~", "hello", "%l%o%", true);
    check_like("~~", "50%", "50\\%", true);
    check_like("~~", "500", "50\\%", false);
    check_like("~~", "a_b", "%\\_%", true);
    check_like("~~", "ab", "%\\_%", false);
    check_like("~~", "a\\b", "a\\\\b", true);
    check_like("!~~", "hello", "%ell%", false);
    check_like("!~~", "hello", "x%", true);
    check_like("~~*", "HeLLo", "%ell%", true);
    check_like("~~*", "HeLLo", "h_LLO", true);
    check_like("!~~*", "HeLLo", "%xyz%", true);
    check_like("~~", "mississippi", "%iss%ppi", true);
    /* contains fast path: many false candidates hand over to memmem */
    check_like("~~", "aaaaaaaaaaaaaaaaaaaaaaaab", "%aab%", true);
    check_like("~~", "aaaaaaaaaaaaaaaaaaaaaaaac", "%aab%", false);
    check_like("~~", "xyzab", "%ab%", true);
    check_like("~~", "ab", "%ab%", true);
    check_like("~~", "a", "%ab%", false);
    check_like("~~", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaab", "%a%a%a%a%a%a%a%c", false);
}

Test(funcs, like_errors_and_escape)
{
    const char *tv[] = {"abc"}, *pv[] = {"a\\"};
    Vector *t = vtext(TYPE_TEXT, 1, tv), *p = vtext(TYPE_TEXT, 1, pv);
    EXPECT_ERROR(run_func(find("~~", 2, TYPE_TEXT, TYPE_TEXT), 2, (Vector *[]){t, p}, NULL, 1),
                 "22025", "LIKE pattern must not end with escape character");
    EXPECT_ERROR(run_func(find("~~", 2, TYPE_TEXT, TYPE_TEXT), 2,
                          (Vector *[]){t, vconst_text("a\\")}, NULL, 1),
                 "22025", "LIKE pattern must not end with escape character");
    const FuncDesc *esc = find("like_escape", 2, TYPE_TEXT, TYPE_TEXT);
    const char *patv[] = {"50#%", "a\\b", "a##b"}, *ev[] = {"#", "", "#"};
    Vector *pat = vtext(TYPE_TEXT, 3, patv), *e = vtext(TYPE_TEXT, 3, ev);
    Vector *r = run_func(esc, 2, (Vector *[]){pat, e}, NULL, 3);
    cr_assert(streq(S(r)[0], "50\\%"));
    cr_assert(streq(S(r)[1], "a\\\\b"));
    cr_assert(streq(S(r)[2], "a\\#b"));   /* PostgreSQL: a\#b */
    EXPECT_ERROR(run_func(esc, 2, (Vector *[]){pat, vconst_text("ab")}, NULL, 1), "22025",
                 "invalid escape string");
}

Test(funcs, like_const_over_batch)
{
    /* a full batch with NULLs and a selection through the contains path */
    Vector *t = vnew(TYPE_TEXT, -1);
    static char bufs[VEC_CAPACITY][16];
    for (int i = 0; i < VEC_CAPACITY; i++) {
        snprintf(bufs[i], sizeof bufs[i], "row%dx", i);
        S(t)[i] = str(bufs[i]);
    }
    vec_set_null(t, 17);
    const FuncDesc *f = find("~~", 2, TYPE_TEXT, TYPE_TEXT);
    Vector *r = run_func(f, 2, (Vector *[]){t, vconst_text("%17%")}, NULL, VEC_CAPACITY);
    int hits = 0;
    for (int i = 0; i < VEC_CAPACITY; i++) hits += vec_is_valid(r, (uint32_t)i) && B(r)[i];
    /* 17x..1799 and others containing "17", minus the NULL row 17 */
    int want = 0;
    for (int i = 0; i < VEC_CAPACITY; i++) want += i != 17 && strstr(bufs[i], "17") != NULL;
    cr_assert_eq(hits, want);
}

Test(funcs, misc_functions)
{
    const FuncDesc *v = find("version", 0, 0, 0);
    Vector *r = run_func(v, 0, NULL, NULL, 2);
    cr_assert(S(r)[1].len > 10);
    cr_assert_eq(strncmp(S(r)[1].ptr, "PostgreSQL 15.", 14), 0);
    const FuncDesc *now = find("now", 0, 0, 0);
    r = run_func(now, 0, NULL, NULL, 2);
    cr_assert_eq(I64(r)[0], I64(r)[1]);
    cr_assert_gt(I64(r)[0], INT64_C(700000000000000));   /* after 2022 */
}

/* ---------- second wave: funcs_text.c, funcs_regex.c, funcs_math.c, funcs_agg.c ---------- */

static const FuncDesc *find3(const char *name, int nargs, const uint32_t *types)
{
    FuncCandidates c;
    exec_func_candidates(name, nargs, &c);
    for (int i = 0; i < c.count; i++) {
        bool ok = true;
        for (int a = 0; a < nargs && a < c.items[i]->nargs; a++)   /* "any" takes every type */
            ok = ok && (c.items[i]->argtypes[a] == types[a] || c.items[i]->argtypes[a] == FUNC_ARG_ANY);
        if (ok) return c.items[i];
    }
    cr_assert_fail("no function %s/%d", name, nargs);
    return NULL;
}

static Vector *vint4(int n, const int32_t *vals, const bool *nulls)
{
    Vector *v = vnew(TYPE_INT4, TYPMOD_NONE);
    for (int i = 0; i < n; i++) {
        I32(v)[i] = vals[i];
        if (nulls && nulls[i]) vec_set_null(v, (uint32_t)i);
    }
    return v;
}

static Vector *vconst_int4(int32_t x)
{
    Vector *v = vnew(TYPE_INT4, TYPMOD_NONE);
    v->is_const = true;
    I32(v)[0] = x;
    return v;
}

Test(funcs, text_functions_rows_nulls_selection)
{
    const char *sv[] = {"hello world", NULL, "héllo", "", "a,b,,c"};
    Vector *s = vtext(TYPE_TEXT, 5, sv);
    uint32_t tt[] = {TYPE_TEXT, TYPE_TEXT, TYPE_TEXT};
    Vector *r = run_func(find3("initcap", 1, tt), 1, &s, NULL, 5);
    cr_assert(streq(S(r)[0], "Hello World"));
    cr_assert(!vec_is_valid(r, 1));
    Vector *args[3] = {s, vconst_text("l"), NULL};
    r = run_func(find3("strpos", 2, tt), 2, args, NULL, 5);
    cr_assert_eq(I32(r)[0], 3);
    cr_assert_eq(I32(r)[2], 3);   /* characters, not bytes */
    cr_assert_eq(I32(r)[3], 0);
    args[1] = vconst_text("l"), args[2] = vconst_text("LL");
    uint16_t sel[] = {0, 2};
    r = run_func(find3("replace", 3, tt), 3, args, sel, 2);
    cr_assert(streq(S(r)[0], "heLLLLo worLLd"));
    cr_assert(streq(S(r)[2], "héLLLLo"));
    r = run_func(find3("reverse", 1, tt), 1, &s, NULL, 5);
    cr_assert(streq(S(r)[2], "olléh"));
    uint32_t ti[] = {TYPE_TEXT, TYPE_INT4, TYPE_TEXT};
    args[1] = vconst_int4(-2);
    r = run_func(find3("left", 2, ti), 2, args, NULL, 5);
    cr_assert(streq(S(r)[2], "hél"));
    args[1] = vconst_int4(8), args[2] = vconst_text("xy");
    r = run_func(find3("lpad", 3, ti), 3, args, NULL, 5);
    cr_assert(streq(S(r)[2], "xyxhéllo"));
    cr_assert(streq(S(r)[0], "hello wo"));
    args[1] = vconst_text(","), args[2] = vconst_int4(-1);
    uint32_t tti[] = {TYPE_TEXT, TYPE_TEXT, TYPE_INT4};
    r = run_func(find3("split_part", 3, tti), 3, args, NULL, 5);
    cr_assert(streq(S(r)[4], "c"));
    cr_assert(streq(S(r)[0], "hello world"));
    r = run_func(find3("md5", 1, tt), 1, &s, NULL, 5);
    cr_assert(streq(S(r)[3], "d41d8cd98f00b204e9800998ecf8427e"));
    args[2] = vconst_int4(0);
    EXPECT_ERROR(run_func(find3("split_part", 3, tti), 3, args, NULL, 5), "22023",
                 "field position must not be zero");
}

Test(funcs, text_repeat_grows_output_over_a_batch)
{
    /* 2048 rows of repeat('abc', 100): the TextOut buffer must grow while
     * earlier rows stay intact. */
    Vector *s = vconst_text("abc");
    Vector *n = vnew(TYPE_INT4, TYPMOD_NONE);
    for (int i = 0; i < VEC_CAPACITY; i++) I32(n)[i] = 100 + (i % 3);
    uint32_t ti[] = {TYPE_TEXT, TYPE_INT4};
    Vector *r = run_func(find3("repeat", 2, ti), 2, (Vector *[]){s, n}, NULL, VEC_CAPACITY);
    for (int i = 0; i < VEC_CAPACITY; i++) {
        cr_assert_eq(S(r)[i].len, 3u * (uint32_t)(100 + i % 3));
        cr_assert(memcmp(S(r)[i].ptr + S(r)[i].len - 3, "abc", 3) == 0);
    }
}

Test(funcs, variadic_concat_and_format)
{
    const char *av[] = {"a", NULL, "c"}, *bv[] = {NULL, NULL, "d"};
    Vector *a = vtext(TYPE_TEXT, 3, av), *b = vtext(TYPE_TEXT, 3, bv);
    uint32_t tt[] = {TYPE_TEXT, TYPE_TEXT, TYPE_TEXT};
    const FuncDesc *f = find3("concat", 3, tt);
    cr_assert_eq(f->flags & FUNC_STRICT, 0u);
    Vector *args[] = {a, b, vconst_text("!")};
    Vector *r = vnew(TYPE_TEXT, TYPMOD_NONE);
    FuncCallCtx ctx = {NULL, 3, A, SQLTYPE(TYPE_TEXT)};
    f->kernel(&ctx, args, r);
    cr_assert(streq(S(r)[0], "a!"));
    cr_assert(streq(S(r)[1], "!"));
    cr_assert(streq(S(r)[2], "cd!"));
    Vector *wargs[] = {vconst_text("-"), a, b};
    r = vnew(TYPE_TEXT, TYPMOD_NONE);
    find3("concat_ws", 3, tt)->kernel(&ctx, wargs, r);
    cr_assert(streq(S(r)[0], "a"));
    cr_assert(streq(S(r)[1], ""));
    cr_assert(streq(S(r)[2], "c-d"));
    Vector *fargs[] = {vconst_text("[%2$s|%1$-3s|%L]"), a, b};
    r = vnew(TYPE_TEXT, TYPMOD_NONE);
    find3("format", 3, tt)->kernel(&ctx, fargs, r);
    cr_assert(streq(S(r)[0], "[|a  |NULL]"));
    cr_assert(streq(S(r)[2], "[d|c  |'d']"));
    FuncCandidates c;
    exec_func_candidates("concat", 0, &c);
    cr_assert_eq(c.count, 0);   /* PostgreSQL: concat() does not exist */
}

Test(funcs, regex_operators_and_replace)
{
    const char *sv[] = {"foobar", NULL, "FOO", "line1\nline2"};
    Vector *s = vtext(TYPE_TEXT, 4, sv);
    uint32_t tt[] = {TYPE_TEXT, TYPE_TEXT, TYPE_TEXT, TYPE_TEXT};
    Vector *args[4] = {s, vconst_text("^fo+"), NULL, NULL};
    Vector *r = run_func(find3("~", 2, tt), 2, args, NULL, 4);
    cr_assert_eq(B(r)[0], 1);
    cr_assert_eq(B(r)[2], 0);
    cr_assert(!vec_is_valid(r, 1));
    r = run_func(find3("~*", 2, tt), 2, args, NULL, 4);
    cr_assert_eq(B(r)[2], 1);
    args[1] = vconst_text("line1$");   /* ARE: $ only at the end without flag n */
    r = run_func(find3("~", 2, tt), 2, args, NULL, 4);
    cr_assert_eq(B(r)[3], 0);
    args[1] = vconst_text("o"), args[2] = vconst_text("<\\&>"), args[3] = vconst_text("g");
    r = run_func(find3("regexp_replace", 4, tt), 4, args, NULL, 4);
    cr_assert(streq(S(r)[0], "f<o><o>bar"));
    args[1] = vconst_text("(o+)(b)");
    r = run_func(find3("regexp_replace", 3, tt), 3, args, NULL, 4);
    cr_assert(streq(S(r)[0], "f<oob>ar"));
    args[1] = vconst_text("o(.)a");
    r = run_func(find3("substring", 2, tt), 2, args, NULL, 4);
    cr_assert(streq(S(r)[0], "b"));
    cr_assert(!vec_is_valid(r, 2));   /* no match → NULL */
    args[1] = vconst_text("a(");
    EXPECT_ERROR(run_func(find3("~", 2, tt), 2, args, NULL, 4), "2201B",
                 "invalid regular expression: parentheses () not balanced");
    args[1] = vconst_text("o"), args[3] = vconst_text("gz");
    EXPECT_ERROR(run_func(find3("regexp_replace", 4, tt), 4, args, NULL, 4), "22023",
                 "invalid regular expression option: \"z\"");
}

Test(funcs, regex_pattern_per_row)
{
    /* a different pattern in every row goes through the per-thread cache */
    Vector *s = vnew(TYPE_TEXT, TYPMOD_NONE), *p = vnew(TYPE_TEXT, TYPMOD_NONE);
    static char pats[100][8];
    for (int i = 0; i < 100; i++) {
        snprintf(pats[i], sizeof pats[i], "^%d$", i % 40);
        S(p)[i] = str(pats[i]);
        S(s)[i] = str(pats[(i + (i % 2)) % 100] + 1);   /* even rows: own number */
        S(s)[i].len -= 1;
    }
    uint32_t tt[] = {TYPE_TEXT, TYPE_TEXT};
    Vector *r = run_func(find3("~", 2, tt), 2, (Vector *[]){s, p}, NULL, 100);
    for (int i = 0; i < 100; i++) cr_assert_eq(B(r)[i], i % 2 == 0 || (i % 40) == ((i + 1) % 40));
}

Test(funcs, similar_to_escape_translation)
{
    Vector *a = vconst_text("a%b_(c|d)");
    uint32_t tt[] = {TYPE_TEXT};
    Vector *r = run_func(find3("similar_to_escape", 1, tt), 1, &a, NULL, 1);
    cr_assert(streq(S(r)[0], "^(?:a.*b.(?:c|d))$"));
}

Test(funcs, math_errors_only_for_valid_rows)
{
    Vector *x = vnew(TYPE_FLOAT8, TYPMOD_NONE);
    for (int i = 0; i < VEC_CAPACITY; i++) F64(x)[i] = i + 1;
    F64(x)[100] = -1;
    vec_set_null(x, 100);   /* a negative in a NULL row must not raise */
    uint32_t ft[] = {TYPE_FLOAT8, TYPE_FLOAT8};
    Vector *r = run_func(find3("sqrt", 1, ft), 1, &x, NULL, VEC_CAPACITY);
    cr_assert_float_eq(F64(r)[3], 2.0, 1e-15);
    F64(x)[200] = 0;
    EXPECT_ERROR(run_func(find3("ln", 1, ft), 1, &x, NULL, VEC_CAPACITY), "2201E",
                 "cannot take logarithm of zero");
    F64(x)[200] = -4;
    EXPECT_ERROR(run_func(find3("sqrt", 1, ft), 1, &x, NULL, VEC_CAPACITY), "2201F",
                 "cannot take square root of a negative number");
    Vector *y = vnew(TYPE_FLOAT8, TYPMOD_NONE);
    y->is_const = true;
    F64(y)[0] = 0.5;
    F64(x)[200] = 4;
    r = run_func(find3("power", 2, ft), 2, (Vector *[]){x, y}, NULL, VEC_CAPACITY);
    cr_assert_float_eq(F64(r)[200], 2.0, 1e-15);
    F64(x)[7] = -2;
    EXPECT_ERROR(run_func(find3("^", 2, ft), 2, (Vector *[]){x, y}, NULL, VEC_CAPACITY), "2201F",
                 "a negative number raised to a non-integer power yields a complex result");
    Vector *d = vnew(TYPE_FLOAT8, TYPMOD_NONE);
    F64(d)[0] = 30, F64(d)[1] = 60, F64(d)[2] = 45;
    r = run_func(find3("sind", 1, ft), 1, &d, NULL, 1);
    cr_assert_eq(F64(r)[0], 0.5);
    r = run_func(find3("tand", 1, ft), 1, (Vector *[]){d}, (uint16_t[]){2}, 1);
    cr_assert_eq(F64(r)[2], 1.0);
}

Test(funcs, gcd_lcm_and_numeric_helpers)
{
    int32_t av[] = {12, -12, 0, INT32_MIN}, bv[] = {18, 18, 0, 1};
    Vector *a = vint4(4, av, NULL), *b = vint4(4, bv, NULL);
    uint32_t ii[] = {TYPE_INT4, TYPE_INT4};
    Vector *r = run_func(find3("gcd", 2, ii), 2, (Vector *[]){a, b}, NULL, 4);
    cr_assert_eq(I32(r)[0], 6);
    cr_assert_eq(I32(r)[1], 6);
    cr_assert_eq(I32(r)[2], 0);
    cr_assert_eq(I32(r)[3], 1);
    EXPECT_ERROR(run_func(find3("lcm", 2, ii), 2, (Vector *[]){a, b}, NULL, 4), "22003",
                 "integer out of range");
    StrRef x = numeric_in("2", 1, TYPMOD_NONE, A);
    char *t = numeric_format_arena(exec__numeric_sqrt(x, 20, A), A, &(uint32_t){0});
    cr_assert_str_eq(t, "1.41421356237309504880");
    x = numeric_in("-7.5", 4, TYPMOD_NONE, A);
    Vector *n = vnew(TYPE_NUMERIC, TYPMOD_NONE);
    S(n)[0] = x;
    uint32_t nt[] = {TYPE_NUMERIC, TYPE_NUMERIC};
    r = run_func(find3("floor", 1, nt), 1, &n, NULL, 1);
    cr_assert_str_eq(numeric_format_arena(S(r)[0], A, &(uint32_t){0}), "-8");
    r = run_func(find3("trunc", 1, nt), 1, &n, NULL, 1);
    cr_assert_str_eq(numeric_format_arena(S(r)[0], A, &(uint32_t){0}), "-7");
}

/* Drive a generic aggregate as op_agg does: zeroed states, update per batch, final. */
static Vector *agg_run(const AggDesc *d, const Vector *arg, const Vector *arg2, const uint32_t *grp,
                       uint32_t n, uint32_t ngroups)
{
    cr_assert_not_null(d);
    cr_assert_not_null(d->impl);
    uint8_t *states = mem_calloc(A, ngroups, d->impl->state_size);
    uint16_t rows[VEC_CAPACITY];
    for (uint32_t i = 0; i < n; i++) rows[i] = (uint16_t)i;
    d->impl->update(states, grp, rows, n, arg, arg2, A, A);
    Vector *out = vnew(d->rettype, TYPMOD_NONE);
    for (uint32_t g = 0; g < ngroups; g++)
        d->impl->final(states + (size_t)g * d->impl->state_size, out, g, A);
    return out;
}

Test(funcs, generic_aggregates)
{
    Vector *b = vnew(TYPE_BOOL, TYPMOD_NONE);
    uint8_t bv[] = {1, 0, 1, 1, 0};
    memcpy(b->data, bv, sizeof bv);
    vec_set_null(b, 4);
    uint32_t grp[] = {0, 0, 1, 1, 2};
    Vector *r = agg_run(exec_agg_lookup("bool_and", TYPE_BOOL), b, NULL, grp, 5, 3);
    cr_assert_eq(B(r)[0], 0);
    cr_assert_eq(B(r)[1], 1);
    cr_assert(!vec_is_valid(r, 2));   /* only NULLs → NULL */
    r = agg_run(exec_agg_lookup("bool_or", TYPE_BOOL), b, NULL, grp, 5, 3);
    cr_assert_eq(B(r)[0], 1);
    int32_t iv[] = {1, 2, 4, 6, 9};
    Vector *i4 = vint4(5, iv, NULL);
    r = agg_run(exec_agg_lookup("bit_or", TYPE_INT4), i4, NULL, grp, 5, 3);
    cr_assert_eq(I32(r)[0], 3);
    cr_assert_eq(I32(r)[1], 6);
    r = agg_run(exec_agg_lookup("stddev", TYPE_INT4), i4, NULL, (uint32_t[]){0, 0, 0, 0, 0}, 3, 1);
    cr_assert_str_eq(numeric_format_arena(S(r)[0], A, &(uint32_t){0}), "1.5275252316519467");
    Vector *f = vnew(TYPE_FLOAT8, TYPMOD_NONE);
    double fv[] = {1, 2, 4};
    memcpy(f->data, fv, sizeof fv);
    r = agg_run(exec_agg_lookup("var_pop", TYPE_FLOAT8), f, NULL, (uint32_t[]){0, 0, 0}, 3, 1);
    cr_assert_float_eq(F64(r)[0], 14.0 / 9.0, 1e-15);
    r = agg_run(exec_agg_lookup("var_samp", TYPE_FLOAT8), f, NULL, (uint32_t[]){0, 0, 1}, 3, 2);
    cr_assert(!vec_is_valid(r, 1));   /* one row: sample variance is NULL */
    Vector *y = vnew(TYPE_FLOAT8, TYPMOD_NONE);
    double yv[] = {2, 4, 8};
    memcpy(y->data, yv, sizeof yv);
    r = agg_run(exec_agg_lookup2("regr_slope", TYPE_FLOAT8, TYPE_FLOAT8), y, f, (uint32_t[]){0, 0, 0}, 3, 1);
    cr_assert_float_eq(F64(r)[0], 2.0, 1e-12);
    r = agg_run(exec_agg_lookup2("corr", TYPE_FLOAT8, TYPE_FLOAT8), y, f, (uint32_t[]){0, 0, 0}, 3, 1);
    cr_assert_float_eq(F64(r)[0], 1.0, 1e-12);
    const char *sv[] = {"a", NULL, "b", "c"}, *dv[] = {",", ",", NULL, ";"};
    Vector *s = vtext(TYPE_TEXT, 4, sv), *dl = vtext(TYPE_TEXT, 4, dv);
    r = agg_run(exec_agg_lookup2("string_agg", TYPE_TEXT, TYPE_TEXT), s, dl, (uint32_t[]){0, 0, 0, 0}, 4, 1);
    cr_assert(streq(S(r)[0], "ab;c"));   /* NULL value skipped, NULL delimiter empty */
    Vector *frac = vnew(TYPE_FLOAT8, TYPMOD_NONE);
    frac->is_const = true;
    F64(frac)[0] = 0.5;
    double pv[] = {4, 1, 3, 2};
    Vector *pvv = vnew(TYPE_FLOAT8, TYPMOD_NONE);
    memcpy(pvv->data, pv, sizeof pv);
    const AggDesc *pc = exec_agg_lookup2("percentile_cont", TYPE_FLOAT8, TYPE_FLOAT8);
    cr_assert(pc->ordered_set);
    r = agg_run(pc, pvv, frac, (uint32_t[]){0, 0, 0, 0}, 4, 1);
    cr_assert_eq(F64(r)[0], 2.5);
    r = agg_run(exec_agg_lookup2("percentile_disc", TYPE_FLOAT8, TYPE_FLOAT8), pvv, frac,
                (uint32_t[]){0, 0, 0, 0}, 4, 1);
    cr_assert_eq(F64(r)[0], 2.0);
    int32_t mv[] = {3, 1, 3, 1, 2};
    r = agg_run(exec_agg_lookup("mode", TYPE_INT4), vint4(5, mv, NULL), NULL, (uint32_t[]){0, 0, 0, 0, 0}, 5, 1);
    cr_assert_eq(I32(r)[0], 1);   /* tie: the first in sort order */
    F64(frac)[0] = 1.5;
    EXPECT_ERROR(agg_run(pc, pvv, frac, (uint32_t[]){0, 0, 0, 0}, 4, 1), "22003",
                 "percentile value 1.5 is not between 0 and 1");
}

Test(funcs, datetime_kernels)
{
    uint32_t tt[] = {TYPE_TEXT, TYPE_TIMESTAMP};
    Vector *ts = vnew(TYPE_TIMESTAMP, TYPMOD_NONE);
    /* 2020-05-17 (a Sunday) 13:14:15.5 and 2000-01-01 00:00 */
    I64(ts)[0] = (INT64_C(7442) * 86400 + 13 * 3600 + 14 * 60 + 15) * INT64_C(1000000) + 500000;
    I64(ts)[1] = 0;
    vec_set_null(ts, 2);
    Vector *r = run_func(find3("date_trunc", 2, tt), 2, (Vector *[]){vconst_text("WEEK"), ts}, NULL, 3);
    cr_assert_eq(I64(r)[0], INT64_C(7436) * 86400 * 1000000);   /* Monday 2020-05-11 */
    cr_assert_eq(I64(r)[1], -INT64_C(5) * 86400 * 1000000);     /* Monday 1999-12-27 */
    cr_assert(!vec_is_valid(r, 2));
    r = run_func(find3("extract", 2, tt), 2, (Vector *[]){vconst_text("second"), ts}, NULL, 2);
    cr_assert_str_eq(numeric_format_arena(S(r)[0], A, &(uint32_t){0}), "15.500000");
    r = run_func(find3("date_part", 2, tt), 2, (Vector *[]){vconst_text("dow"), ts}, NULL, 2);
    cr_assert_eq(F64(r)[0], 0.0);
    cr_assert_eq(F64(r)[1], 6.0);
    EXPECT_ERROR(run_func(find3("extract", 2, tt), 2, (Vector *[]){vconst_text("fortnight"), ts}, NULL, 2),
                 "22023", "unit \"fortnight\" not recognized for type timestamp without time zone");
}

/* (a function of its own: compound literals next to ERR_TRY trip -Wclobbered at -O0) */
Test(funcs, interval_order_by_span)
{
    /* 1 mon = 30 days < 30 days 1 us */
    char m1[INTERVAL_SIZE], d30[INTERVAL_SIZE];
    Interval x = {0, 0, 1}, y = {1, 30, 0};
    Vector *a = vnew(TYPE_INTERVAL, TYPMOD_NONE), *b = vnew(TYPE_INTERVAL, TYPMOD_NONE);
    S(a)[0] = interval_put(x, m1);
    S(b)[0] = interval_put(y, d30);
    uint32_t ii[] = {TYPE_INTERVAL, TYPE_INTERVAL};
    Vector *r = run_func(find3("<", 2, ii), 2, (Vector *[]){a, b}, NULL, 1);
    cr_assert_eq(B(r)[0], 1);
    r = run_func(find3("=", 2, ii), 2, (Vector *[]){a, a}, NULL, 1);
    cr_assert_eq(B(r)[0], 1);
}

/* ---------- third wave: funcs_json.c, funcs_make.c, funcs_numfmt.c, funcs_todate.c ---------- */

/* A to_char(numeric) per row over a selection, NULL rows skipped, a
 * template that overflows gives '#'s, and template errors are 42601. */
Test(funcs, to_char_numbers_rows_and_errors)
{
    const char *nv[] = {"1234.5", "-0.5", NULL, "99999"};
    Vector *n = vnum(4, nv);
    uint32_t nt[] = {TYPE_NUMERIC, TYPE_TEXT};
    const FuncDesc *f = find3("to_char", 2, nt);
    Vector *args[2] = {n, vconst_text("FM9,999.00")};
    uint16_t sel[] = {0, 1, 2, 3};
    Vector *r = run_func(f, 2, args, sel, 4);
    cr_assert(streq(S(r)[0], "1,234.50"));
    cr_assert(streq(S(r)[1], "-.50"));
    cr_assert(!vec_is_valid(r, 2));
    cr_assert(streq(S(r)[3], "#,###.##"));
    args[1] = vconst_text("9.9.9");
    EXPECT_ERROR(run_func(f, 2, args, NULL, 1), "42601", "multiple decimal points");
    uint32_t tt[] = {TYPE_TEXT, TYPE_TEXT};
    const char *sv[] = {"12,454.8-"};
    Vector *targs[2] = {vtext(TYPE_TEXT, 1, sv), vconst_text("99G999D9S")};
    r = run_func(find3("to_number", 2, tt), 2, targs, NULL, 1);
    cr_assert(numeq(S(r)[0], "-12454.8"));
}

/* make_interval wraps as PostgreSQL 15 (no overflow check on the integer
 * fields); make_time rejects 24:00:00.5; to_date reads through a template. */
Test(funcs, make_and_to_date)
{
    uint32_t i7[] = {TYPE_INT4, TYPE_INT4, TYPE_INT4, TYPE_INT4, TYPE_INT4, TYPE_INT4, TYPE_FLOAT8};
    const FuncDesc *mi = find3("make_interval", 2, i7);
    Vector *args[2] = {vconst_int4(1), vconst_int4(2)};
    Vector *r = run_func(mi, 2, args, NULL, 1);
    Interval iv = interval_get(S(r)[0]);
    cr_assert_eq(iv.months, 14);
    cr_assert_eq(iv.days, 0);
    uint32_t tt[] = {TYPE_TEXT, TYPE_TEXT};
    const char *dv[] = {"05 Dec 2000", "2000 Foo 01"};
    Vector *dargs[2] = {vtext(TYPE_TEXT, 1, dv), vconst_text("DD Mon YYYY")};
    r = run_func(find3("to_date", 2, tt), 2, dargs, NULL, 1);
    cr_assert_eq(I32(r)[0], date_from_ymd(2000, 12, 5));
    dargs[0] = vtext(TYPE_TEXT, 1, dv + 1);
    dargs[1] = vconst_text("YYYY Mon DD");
    EXPECT_ERROR(run_func(find3("to_date", 2, tt), 2, dargs, NULL, 1), "22007",
                 "invalid value \"Foo\" for \"Mon\"");
}

/* jsonb containment, set and delete through the tree helpers. */
Test(funcs, jsonb_edits)
{
    uint32_t bb[] = {TYPE_JSONB, TYPE_JSONB};
    const char *a[] = {"{\"a\": 1, \"b\": {\"c\": [1, 2]}}", "[1, 2]"};
    const char *b[] = {"{\"b\": {\"c\": [2]}}", "1"};
    Vector *args[2] = {vtext(TYPE_JSONB, 2, a), vtext(TYPE_JSONB, 2, b)};
    Vector *r = run_func(find3("@>", 2, bb), 2, args, NULL, 2);
    cr_assert_eq(B(r)[0], 1);
    cr_assert_eq(B(r)[1], 1);
    r = run_func(find3("||", 2, bb), 2, args, NULL, 2);
    cr_assert(streq(S(r)[1], "[1, 2, 1]"));
    uint32_t bi[] = {TYPE_JSONB, TYPE_INT4};
    Vector *dargs[2] = {args[0], vconst_int4(0)};
    EXPECT_ERROR(run_func(find3("-", 2, bi), 2, dargs, NULL, 1), "22023",
                 "cannot delete from object using integer index");
}
