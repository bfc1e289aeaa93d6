/*
 * funcs_arith.c — arithmetic operators and math functions: + - * / % and
 * unary - + for int2/int4/int8 (and PostgreSQL's cross-type integer
 * operators), float4/float8 (and their cross forms), numeric, date ± int;
 * abs, mod, round, trunc, floor, ceil.
 *
 * Every kernel is generated from a one-row OP by kernels_template.h; the
 * operator lists below are X-macros expanded twice: once into kernels,
 * once into the FuncDesc table (pg_proc OIDs from PostgreSQL 15's catalog).
 * Overflow is detected without branches (wider arithmetic for int2/int4,
 * sign tests for int8) and gathered into a per-batch flag; see the template
 * header for how NULL rows are excluded before raising.
 */
#include <math.h>
#include <stdint.h>
#include "common/error.h"
#include "common/numeric.h"
#include "common/types.h"
#include "executor/funcs.h"
#include "executor/kernels_template.h"

/* ---------- errors ---------- */

static _Noreturn void raise_int(unsigned bits, const char *type_msg)
{
    if (bits & KBAD_DIVZERO) err_raise(ERRCODE_DIVISION_BY_ZERO, "division by zero");
    err_raise(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "%s", type_msg);
}
static _Noreturn void raise_i16(unsigned bits) { raise_int(bits, "smallint out of range"); }
static _Noreturn void raise_i32(unsigned bits) { raise_int(bits, "integer out of range"); }
static _Noreturn void raise_i64(unsigned bits) { raise_int(bits, "bigint out of range"); }
static _Noreturn void raise_float(unsigned bits)
{
    if (bits & KBAD_DIVZERO) err_raise(ERRCODE_DIVISION_BY_ZERO, "division by zero");
    if (bits & KBAD_UNDERFLOW)
        err_raise(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: underflow");
    err_raise(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "value out of range: overflow");
}

/* ---------- one-row operations (OP(r, a, b, bad)) ---------- */

/* Add/sub: wrap in the unsigned type, overflow when the result's sign
 * differs from both operands' (add) or from a's while a and b differ in
 * sign (sub). Only same-width integer ops and a logical shift: SSE2 can
 * vectorise it for every width. Cross-type operands are widened first. */
#define ADD_WRAP(T, UT, r, a, b, bad)                                               \
    do {                                                                            \
        UT x_ = (UT)(T)(a), y_ = (UT)(T)(b), s_ = (UT)(x_ + y_);                    \
        r = (T)s_;                                                                  \
        bad |= (unsigned)(((x_ ^ s_) & (y_ ^ s_)) >> (sizeof(UT) * 8 - 1));         \
    } while (0)
#define SUB_WRAP(T, UT, r, a, b, bad)                                               \
    do {                                                                            \
        UT x_ = (UT)(T)(a), y_ = (UT)(T)(b), s_ = (UT)(x_ - y_);                    \
        r = (T)s_;                                                                  \
        bad |= (unsigned)(((x_ ^ y_) & (x_ ^ s_)) >> (sizeof(UT) * 8 - 1));         \
    } while (0)
/* int2/int4 multiply: exact in the next wider type, overflow = doesn't
 * narrow back. */
#define MUL_NARROW(T, W, r, a, b, bad)                                              \
    do { W t_ = (W)(a) * (W)(b); r = (T)t_; bad |= (unsigned)(t_ != (W)(T)t_); } while (0)
#define ADD_I16(r, a, b, bad) ADD_WRAP(int16_t, uint16_t, r, a, b, bad)
#define SUB_I16(r, a, b, bad) SUB_WRAP(int16_t, uint16_t, r, a, b, bad)
#define MUL_I16(r, a, b, bad) MUL_NARROW(int16_t, int32_t, r, a, b, bad)
#define ADD_I32(r, a, b, bad) ADD_WRAP(int32_t, uint32_t, r, a, b, bad)
#define SUB_I32(r, a, b, bad) SUB_WRAP(int32_t, uint32_t, r, a, b, bad)
#define MUL_I32(r, a, b, bad) MUL_NARROW(int32_t, int64_t, r, a, b, bad)
#define ADD_I64(r, a, b, bad) ADD_WRAP(int64_t, uint64_t, r, a, b, bad)
#define SUB_I64(r, a, b, bad) SUB_WRAP(int64_t, uint64_t, r, a, b, bad)
#define MUL_I64(r, a, b, bad)                                                       \
    do { int64_t p_; bad |= (unsigned)__builtin_mul_overflow((int64_t)(a), (int64_t)(b), &p_); r = p_; } while (0)

/* Division and modulo: the divisor is replaced by 1 when it is 0 or -1 so
 * garbage in NULL rows can't fault; x / -1 is negation (overflow for MIN),
 * x % -1 is 0 (PostgreSQL special-cases both). */
#define DIV_INT(T, UT, MIN, r, a, b, bad)                                           \
    do {                                                                            \
        T x_ = (T)(a), y_ = (T)(b);                                                 \
        unsigned z_ = y_ == 0, m1_ = y_ == -1;                                      \
        T d_ = (z_ | m1_) ? 1 : y_;                                                 \
        r = m1_ ? (T)(UT)(0u - (UT)x_) : (T)(x_ / d_);                              \
        bad |= z_ * KBAD_DIVZERO | (m1_ & (unsigned)(x_ == MIN)) * KBAD_OVERFLOW;   \
    } while (0)
#define MOD_INT(T, r, a, b, bad)                                                    \
    do {                                                                            \
        T x_ = (T)(a), y_ = (T)(b);                                                 \
        unsigned z_ = y_ == 0, m1_ = y_ == -1;                                      \
        T d_ = (z_ | m1_) ? 1 : y_;                                                 \
        r = m1_ ? (T)0 : (T)(x_ % d_);                                              \
        bad |= z_ * KBAD_DIVZERO;                                                   \
    } while (0)
#define DIV_I16(r, a, b, bad) DIV_INT(int16_t, uint16_t, INT16_MIN, r, a, b, bad)
#define DIV_I32(r, a, b, bad) DIV_INT(int32_t, uint32_t, INT32_MIN, r, a, b, bad)
#define DIV_I64(r, a, b, bad) DIV_INT(int64_t, uint64_t, INT64_MIN, r, a, b, bad)
#define MOD_I16(r, a, b, bad) MOD_INT(int16_t, r, a, b, bad)
#define MOD_I32(r, a, b, bad) MOD_INT(int32_t, r, a, b, bad)
#define MOD_I64(r, a, b, bad) MOD_INT(int64_t, r, a, b, bad)

/* Floats, as PostgreSQL's float.h: overflow = infinite result from finite
 * inputs; underflow = zero result from non-zero inputs (mul, div). */
#define FINF(x) (__builtin_isinf(x) != 0)
#define FLOAT_ADD(T, r, a, b, bad)                                                  \
    do { T x_ = (T)(a), y_ = (T)(b), s_ = x_ + y_; r = s_;                          \
         bad |= (unsigned)(FINF(s_) & (FINF(x_) == 0) & (FINF(y_) == 0)); } while (0)
#define FLOAT_SUB(T, r, a, b, bad)                                                  \
    do { T x_ = (T)(a), y_ = (T)(b), s_ = x_ - y_; r = s_;                          \
         bad |= (unsigned)(FINF(s_) & (FINF(x_) == 0) & (FINF(y_) == 0)); } while (0)
#define FLOAT_MUL(T, r, a, b, bad)                                                  \
    do { T x_ = (T)(a), y_ = (T)(b), s_ = x_ * y_; r = s_;                          \
         bad |= (unsigned)(FINF(s_) & (FINF(x_) == 0) & (FINF(y_) == 0)) * KBAD_OVERFLOW |      \
                (unsigned)((s_ == 0) & (x_ != 0) & (y_ != 0)) * KBAD_UNDERFLOW; } while (0)
#define FLOAT_DIV(T, r, a, b, bad)                                                  \
    do { T x_ = (T)(a), y_ = (T)(b), s_ = x_ / y_; r = s_;                          \
         bad |= (unsigned)((y_ == 0) & (x_ == x_)) * KBAD_DIVZERO |                 \
                (unsigned)(FINF(s_) & (FINF(x_) == 0)) * KBAD_OVERFLOW |                  \
                (unsigned)((s_ == 0) & (x_ != 0) & (FINF(y_) == 0)) * KBAD_UNDERFLOW; } while (0)
#define ADD_F4(r, a, b, bad) FLOAT_ADD(float, r, a, b, bad)
#define SUB_F4(r, a, b, bad) FLOAT_SUB(float, r, a, b, bad)
#define MUL_F4(r, a, b, bad) FLOAT_MUL(float, r, a, b, bad)
#define DIV_F4(r, a, b, bad) FLOAT_DIV(float, r, a, b, bad)
#define ADD_F8(r, a, b, bad) FLOAT_ADD(double, r, a, b, bad)
#define SUB_F8(r, a, b, bad) FLOAT_SUB(double, r, a, b, bad)
#define MUL_F8(r, a, b, bad) FLOAT_MUL(double, r, a, b, bad)
#define DIV_F8(r, a, b, bad) FLOAT_DIV(double, r, a, b, bad)

/* ---------- binary operator list: X(name, LT, RT, RES, OP, RAISE, sym, oid, lo, ro, reso) ---------- */

#define I2 int16_t
#define I4 int32_t
#define I8 int64_t
#define F4 float
#define F8 double

#define ARITH_BINARY_OPS(X)                                                                     \
    X(int2pl, I2, I2, I2, ADD_I16, raise_i16, "+", 176, TYPE_INT2, TYPE_INT2, TYPE_INT2)         \
    X(int2mi, I2, I2, I2, SUB_I16, raise_i16, "-", 180, TYPE_INT2, TYPE_INT2, TYPE_INT2)         \
    X(int2mul, I2, I2, I2, MUL_I16, raise_i16, "*", 152, TYPE_INT2, TYPE_INT2, TYPE_INT2)        \
    X(int2div, I2, I2, I2, DIV_I16, raise_i16, "/", 153, TYPE_INT2, TYPE_INT2, TYPE_INT2)        \
    X(int2mod, I2, I2, I2, MOD_I16, raise_i16, "%", 155, TYPE_INT2, TYPE_INT2, TYPE_INT2)        \
    X(int2mod_f, I2, I2, I2, MOD_I16, raise_i16, "mod", 940, TYPE_INT2, TYPE_INT2, TYPE_INT2)    \
    X(int4pl, I4, I4, I4, ADD_I32, raise_i32, "+", 177, TYPE_INT4, TYPE_INT4, TYPE_INT4)         \
    X(int4mi, I4, I4, I4, SUB_I32, raise_i32, "-", 181, TYPE_INT4, TYPE_INT4, TYPE_INT4)         \
    X(int4mul, I4, I4, I4, MUL_I32, raise_i32, "*", 141, TYPE_INT4, TYPE_INT4, TYPE_INT4)        \
    X(int4div, I4, I4, I4, DIV_I32, raise_i32, "/", 154, TYPE_INT4, TYPE_INT4, TYPE_INT4)        \
    X(int4mod, I4, I4, I4, MOD_I32, raise_i32, "%", 156, TYPE_INT4, TYPE_INT4, TYPE_INT4)        \
    X(int4mod_f, I4, I4, I4, MOD_I32, raise_i32, "mod", 941, TYPE_INT4, TYPE_INT4, TYPE_INT4)    \
    X(int8pl, I8, I8, I8, ADD_I64, raise_i64, "+", 463, TYPE_INT8, TYPE_INT8, TYPE_INT8)         \
    X(int8mi, I8, I8, I8, SUB_I64, raise_i64, "-", 464, TYPE_INT8, TYPE_INT8, TYPE_INT8)         \
    X(int8mul, I8, I8, I8, MUL_I64, raise_i64, "*", 465, TYPE_INT8, TYPE_INT8, TYPE_INT8)        \
    X(int8div, I8, I8, I8, DIV_I64, raise_i64, "/", 466, TYPE_INT8, TYPE_INT8, TYPE_INT8)        \
    X(int8mod, I8, I8, I8, MOD_I64, raise_i64, "%", 945, TYPE_INT8, TYPE_INT8, TYPE_INT8)        \
    X(int8mod_f, I8, I8, I8, MOD_I64, raise_i64, "mod", 947, TYPE_INT8, TYPE_INT8, TYPE_INT8)    \
    X(int24pl, I2, I4, I4, ADD_I32, raise_i32, "+", 178, TYPE_INT2, TYPE_INT4, TYPE_INT4)        \
    X(int42pl, I4, I2, I4, ADD_I32, raise_i32, "+", 179, TYPE_INT4, TYPE_INT2, TYPE_INT4)        \
    X(int24mi, I2, I4, I4, SUB_I32, raise_i32, "-", 182, TYPE_INT2, TYPE_INT4, TYPE_INT4)        \
    X(int42mi, I4, I2, I4, SUB_I32, raise_i32, "-", 183, TYPE_INT4, TYPE_INT2, TYPE_INT4)        \
    X(int24mul, I2, I4, I4, MUL_I32, raise_i32, "*", 170, TYPE_INT2, TYPE_INT4, TYPE_INT4)       \
    X(int42mul, I4, I2, I4, MUL_I32, raise_i32, "*", 171, TYPE_INT4, TYPE_INT2, TYPE_INT4)       \
    X(int24div, I2, I4, I4, DIV_I32, raise_i32, "/", 172, TYPE_INT2, TYPE_INT4, TYPE_INT4)       \
    X(int42div, I4, I2, I4, DIV_I32, raise_i32, "/", 173, TYPE_INT4, TYPE_INT2, TYPE_INT4)       \
    X(int28pl, I2, I8, I8, ADD_I64, raise_i64, "+", 841, TYPE_INT2, TYPE_INT8, TYPE_INT8)        \
    X(int82pl, I8, I2, I8, ADD_I64, raise_i64, "+", 837, TYPE_INT8, TYPE_INT2, TYPE_INT8)        \
    X(int28mi, I2, I8, I8, SUB_I64, raise_i64, "-", 942, TYPE_INT2, TYPE_INT8, TYPE_INT8)        \
    X(int82mi, I8, I2, I8, SUB_I64, raise_i64, "-", 838, TYPE_INT8, TYPE_INT2, TYPE_INT8)        \
    X(int28mul, I2, I8, I8, MUL_I64, raise_i64, "*", 943, TYPE_INT2, TYPE_INT8, TYPE_INT8)       \
    X(int82mul, I8, I2, I8, MUL_I64, raise_i64, "*", 839, TYPE_INT8, TYPE_INT2, TYPE_INT8)       \
    X(int28div, I2, I8, I8, DIV_I64, raise_i64, "/", 948, TYPE_INT2, TYPE_INT8, TYPE_INT8)       \
    X(int82div, I8, I2, I8, DIV_I64, raise_i64, "/", 840, TYPE_INT8, TYPE_INT2, TYPE_INT8)       \
    X(int48pl, I4, I8, I8, ADD_I64, raise_i64, "+", 1278, TYPE_INT4, TYPE_INT8, TYPE_INT8)       \
    X(int84pl, I8, I4, I8, ADD_I64, raise_i64, "+", 1274, TYPE_INT8, TYPE_INT4, TYPE_INT8)       \
    X(int48mi, I4, I8, I8, SUB_I64, raise_i64, "-", 1279, TYPE_INT4, TYPE_INT8, TYPE_INT8)       \
    X(int84mi, I8, I4, I8, SUB_I64, raise_i64, "-", 1275, TYPE_INT8, TYPE_INT4, TYPE_INT8)       \
    X(int48mul, I4, I8, I8, MUL_I64, raise_i64, "*", 1280, TYPE_INT4, TYPE_INT8, TYPE_INT8)      \
    X(int84mul, I8, I4, I8, MUL_I64, raise_i64, "*", 1276, TYPE_INT8, TYPE_INT4, TYPE_INT8)      \
    X(int48div, I4, I8, I8, DIV_I64, raise_i64, "/", 1281, TYPE_INT4, TYPE_INT8, TYPE_INT8)      \
    X(int84div, I8, I4, I8, DIV_I64, raise_i64, "/", 1277, TYPE_INT8, TYPE_INT4, TYPE_INT8)      \
    X(float4pl, F4, F4, F4, ADD_F4, raise_float, "+", 204, TYPE_FLOAT4, TYPE_FLOAT4, TYPE_FLOAT4) \
    X(float4mi, F4, F4, F4, SUB_F4, raise_float, "-", 205, TYPE_FLOAT4, TYPE_FLOAT4, TYPE_FLOAT4) \
    X(float4mul, F4, F4, F4, MUL_F4, raise_float, "*", 202, TYPE_FLOAT4, TYPE_FLOAT4, TYPE_FLOAT4) \
    X(float4div, F4, F4, F4, DIV_F4, raise_float, "/", 203, TYPE_FLOAT4, TYPE_FLOAT4, TYPE_FLOAT4) \
    X(float8pl, F8, F8, F8, ADD_F8, raise_float, "+", 218, TYPE_FLOAT8, TYPE_FLOAT8, TYPE_FLOAT8) \
    X(float8mi, F8, F8, F8, SUB_F8, raise_float, "-", 219, TYPE_FLOAT8, TYPE_FLOAT8, TYPE_FLOAT8) \
    X(float8mul, F8, F8, F8, MUL_F8, raise_float, "*", 216, TYPE_FLOAT8, TYPE_FLOAT8, TYPE_FLOAT8) \
    X(float8div, F8, F8, F8, DIV_F8, raise_float, "/", 217, TYPE_FLOAT8, TYPE_FLOAT8, TYPE_FLOAT8) \
    X(float48pl, F4, F8, F8, ADD_F8, raise_float, "+", 281, TYPE_FLOAT4, TYPE_FLOAT8, TYPE_FLOAT8) \
    X(float48mi, F4, F8, F8, SUB_F8, raise_float, "-", 282, TYPE_FLOAT4, TYPE_FLOAT8, TYPE_FLOAT8) \
    X(float48mul, F4, F8, F8, MUL_F8, raise_float, "*", 279, TYPE_FLOAT4, TYPE_FLOAT8, TYPE_FLOAT8) \
    X(float48div, F4, F8, F8, DIV_F8, raise_float, "/", 280, TYPE_FLOAT4, TYPE_FLOAT8, TYPE_FLOAT8) \
    X(float84pl, F8, F4, F8, ADD_F8, raise_float, "+", 285, TYPE_FLOAT8, TYPE_FLOAT4, TYPE_FLOAT8) \
    X(float84mi, F8, F4, F8, SUB_F8, raise_float, "-", 286, TYPE_FLOAT8, TYPE_FLOAT4, TYPE_FLOAT8) \
    X(float84mul, F8, F4, F8, MUL_F8, raise_float, "*", 283, TYPE_FLOAT8, TYPE_FLOAT4, TYPE_FLOAT8) \
    X(float84div, F8, F4, F8, DIV_F8, raise_float, "/", 284, TYPE_FLOAT8, TYPE_FLOAT4, TYPE_FLOAT8)

#define X_KERNEL(name, LT, RT, RES, OP, RAISE, sym, oid, lo, ro, reso) \
    KERNEL_BINARY(k_##name, LT, RT, RES, OP, RAISE)
ARITH_BINARY_OPS(X_KERNEL)
#undef X_KERNEL

/* ---------- unary operations (OP(r, a, bad)) ---------- */

#define NEG_INT(T, UT, MIN, r, a, bad)                                               \
    do { T x_ = (a); r = (T)(UT)(0u - (UT)x_); bad |= (unsigned)(x_ == MIN); } while (0)
#define ABS_INT(T, UT, MIN, r, a, bad)                                               \
    do { T x_ = (a); r = x_ < 0 ? (T)(UT)(0u - (UT)x_) : x_; bad |= (unsigned)(x_ == MIN); } while (0)
#define NEG_I16(r, a, bad) NEG_INT(int16_t, uint16_t, INT16_MIN, r, a, bad)
#define NEG_I32(r, a, bad) NEG_INT(int32_t, uint32_t, INT32_MIN, r, a, bad)
#define NEG_I64(r, a, bad) NEG_INT(int64_t, uint64_t, INT64_MIN, r, a, bad)
#define ABS_I16(r, a, bad) ABS_INT(int16_t, uint16_t, INT16_MIN, r, a, bad)
#define ABS_I32(r, a, bad) ABS_INT(int32_t, uint32_t, INT32_MIN, r, a, bad)
#define ABS_I64(r, a, bad) ABS_INT(int64_t, uint64_t, INT64_MIN, r, a, bad)
#define NEG_FLT(r, a, bad) ((void)(bad), r = -(a))
#define COPY_VAL(r, a, bad) ((void)(bad), r = (a))
#define ABS_F4(r, a, bad) ((void)(bad), r = fabsf(a))
#define ABS_F8(r, a, bad) ((void)(bad), r = fabs(a))
#define RINT_F8(r, a, bad) ((void)(bad), r = rint(a))
#define TRUNC_F8(r, a, bad) ((void)(bad), r = trunc(a))
#define FLOOR_F8(r, a, bad) ((void)(bad), r = floor(a))
#define CEIL_F8(r, a, bad) ((void)(bad), r = ceil(a))

/* X(name, AT, RES, OP, RAISE, fname, oid, argoid, reso) */
#define ARITH_UNARY_OPS(X)                                                                  \
    X(int2um, I2, I2, NEG_I16, raise_i16, "-", 213, TYPE_INT2, TYPE_INT2)                  \
    X(int4um, I4, I4, NEG_I32, raise_i32, "-", 212, TYPE_INT4, TYPE_INT4)                  \
    X(int8um, I8, I8, NEG_I64, raise_i64, "-", 462, TYPE_INT8, TYPE_INT8)                  \
    X(float4um, F4, F4, NEG_FLT, KERNEL_NO_RAISE, "-", 206, TYPE_FLOAT4, TYPE_FLOAT4)      \
    X(float8um, F8, F8, NEG_FLT, KERNEL_NO_RAISE, "-", 220, TYPE_FLOAT8, TYPE_FLOAT8)      \
    X(int2up, I2, I2, COPY_VAL, KERNEL_NO_RAISE, "+", 1911, TYPE_INT2, TYPE_INT2)          \
    X(int4up, I4, I4, COPY_VAL, KERNEL_NO_RAISE, "+", 1912, TYPE_INT4, TYPE_INT4)          \
    X(int8up, I8, I8, COPY_VAL, KERNEL_NO_RAISE, "+", 1910, TYPE_INT8, TYPE_INT8)          \
    X(float4up, F4, F4, COPY_VAL, KERNEL_NO_RAISE, "+", 1913, TYPE_FLOAT4, TYPE_FLOAT4)    \
    X(float8up, F8, F8, COPY_VAL, KERNEL_NO_RAISE, "+", 1914, TYPE_FLOAT8, TYPE_FLOAT8)    \
    X(int2abs, I2, I2, ABS_I16, raise_i16, "abs", 1398, TYPE_INT2, TYPE_INT2)              \
    X(int4abs, I4, I4, ABS_I32, raise_i32, "abs", 1397, TYPE_INT4, TYPE_INT4)              \
    X(int8abs, I8, I8, ABS_I64, raise_i64, "abs", 1396, TYPE_INT8, TYPE_INT8)              \
    X(float4abs, F4, F4, ABS_F4, KERNEL_NO_RAISE, "abs", 1394, TYPE_FLOAT4, TYPE_FLOAT4)   \
    X(float8abs, F8, F8, ABS_F8, KERNEL_NO_RAISE, "abs", 1395, TYPE_FLOAT8, TYPE_FLOAT8)   \
    X(int2abs_op, I2, I2, ABS_I16, raise_i16, "@", 1398, TYPE_INT2, TYPE_INT2)             \
    X(int4abs_op, I4, I4, ABS_I32, raise_i32, "@", 1397, TYPE_INT4, TYPE_INT4)             \
    X(int8abs_op, I8, I8, ABS_I64, raise_i64, "@", 1396, TYPE_INT8, TYPE_INT8)             \
    X(float4abs_op, F4, F4, ABS_F4, KERNEL_NO_RAISE, "@", 1394, TYPE_FLOAT4, TYPE_FLOAT4)  \
    X(float8abs_op, F8, F8, ABS_F8, KERNEL_NO_RAISE, "@", 1395, TYPE_FLOAT8, TYPE_FLOAT8)  \
    X(dround, F8, F8, RINT_F8, KERNEL_NO_RAISE, "round", 1342, TYPE_FLOAT8, TYPE_FLOAT8)   \
    X(dtrunc, F8, F8, TRUNC_F8, KERNEL_NO_RAISE, "trunc", 1343, TYPE_FLOAT8, TYPE_FLOAT8)  \
    X(dfloor, F8, F8, FLOOR_F8, KERNEL_NO_RAISE, "floor", 2309, TYPE_FLOAT8, TYPE_FLOAT8)  \
    X(dceil, F8, F8, CEIL_F8, KERNEL_NO_RAISE, "ceil", 2308, TYPE_FLOAT8, TYPE_FLOAT8)     \
    X(dceiling, F8, F8, CEIL_F8, KERNEL_NO_RAISE, "ceiling", 2320, TYPE_FLOAT8, TYPE_FLOAT8)

#define X_KERNEL(name, AT, RES, OP, RAISE, fname, oid, ao, reso) \
    KERNEL_UNARY(k_##name, AT, RES, OP, RAISE)
ARITH_UNARY_OPS(X_KERNEL)
#undef X_KERNEL

/* ---------- numeric (row at a time through common/numeric.h) ---------- */

#define NUMERIC_BINARY(X)                                           \
    X(numeric_add, numeric_add, "+", 1724)                          \
    X(numeric_sub, numeric_sub, "-", 1725)                          \
    X(numeric_mul, numeric_mul, "*", 1726)                          \
    X(numeric_div, numeric_div, "/", 1727)                          \
    X(numeric_mod, numeric_mod, "%", 1729)                          \
    X(numeric_mod_f, numeric_mod, "mod", 1728)

#define X_KERNEL(name, fn, sym, oid) \
    KERNEL_ROWS_BINARY(k_##name, StrRef, StrRef, StrRef, r[row] = fn(a[ia], b[ib], arena))
NUMERIC_BINARY(X_KERNEL)
#undef X_KERNEL

KERNEL_ROWS_UNARY(k_numeric_uminus, StrRef, StrRef, r[row] = numeric_neg(a[ia], arena))
KERNEL_ROWS_UNARY(k_numeric_uplus, StrRef, StrRef, r[row] = a[ia])
KERNEL_ROWS_UNARY(k_numeric_abs, StrRef, StrRef, r[row] = numeric_abs(a[ia], arena))
KERNEL_ROWS_UNARY(k_numeric_round, StrRef, StrRef, r[row] = numeric_round(a[ia], 0, arena))
KERNEL_ROWS_BINARY(k_numeric_round_s, StrRef, int32_t, StrRef,
                   r[row] = numeric_round(a[ia], b[ib], arena))

/* ---------- date ± integer (PostgreSQL's date_pli/date_mii/date_mi) ---------- */

/* IS_VALID_DATE: Julian day 0 .. DATE_END_JULIAN, relative to 2000-01-01. */
#define DATE_MIN_DAYS (-INT64_C(2451545))
#define DATE_END_DAYS (INT64_C(2147483494) - INT64_C(2451545))

static int32_t date_add_days(int32_t date, int64_t days)
{
    if (date == DATE_NOBEGIN || date == DATE_NOEND) return date;
    int64_t res = (int64_t)date + days;
    if (res < DATE_MIN_DAYS || res >= DATE_END_DAYS)
        err_raise(ERRCODE_DATETIME_FIELD_OVERFLOW, "date out of range");
    return (int32_t)res;
}

static int32_t date_diff(int32_t a, int32_t b)
{
    if (a == DATE_NOBEGIN || a == DATE_NOEND || b == DATE_NOBEGIN || b == DATE_NOEND)
        err_raise(ERRCODE_DATETIME_FIELD_OVERFLOW, "cannot subtract infinite dates");
    return a - b;
}

KERNEL_ROWS_BINARY(k_date_pli, int32_t, int32_t, int32_t, r[row] = date_add_days(a[ia], b[ib]))
KERNEL_ROWS_BINARY(k_integer_pl_date, int32_t, int32_t, int32_t, r[row] = date_add_days(b[ib], a[ia]))
KERNEL_ROWS_BINARY(k_date_mii, int32_t, int32_t, int32_t,
                   r[row] = date_add_days(a[ia], -(int64_t)b[ib]))
KERNEL_ROWS_BINARY(k_date_mi, int32_t, int32_t, int32_t, r[row] = date_diff(a[ia], b[ib]))

/* ---------- the table ---------- */

#define F2(nm, a0, a1, ret, kern, id) \
    {(nm), 2, {(a0), (a1), 0, 0}, (ret), FUNC_STRICT, (kern), (id)}
#define F1(nm, a0, ret, kern, id) {(nm), 1, {(a0), 0, 0, 0}, (ret), FUNC_STRICT, (kern), (id)}

const FuncDesc exec__funcs_arith[] = {
#define X_ENTRY(name, LT, RT, RES, OP, RAISE, sym, oid, lo, ro, reso) F2(sym, lo, ro, reso, k_##name, oid),
    ARITH_BINARY_OPS(X_ENTRY)
#undef X_ENTRY
#define X_ENTRY(name, AT, RES, OP, RAISE, fname, oid, ao, reso) F1(fname, ao, reso, k_##name, oid),
    ARITH_UNARY_OPS(X_ENTRY)
#undef X_ENTRY
#define X_ENTRY(name, fn, sym, oid) F2(sym, TYPE_NUMERIC, TYPE_NUMERIC, TYPE_NUMERIC, k_##name, oid),
    NUMERIC_BINARY(X_ENTRY)
#undef X_ENTRY
    F1("-", TYPE_NUMERIC, TYPE_NUMERIC, k_numeric_uminus, 1771),
    F1("+", TYPE_NUMERIC, TYPE_NUMERIC, k_numeric_uplus, 1915),
    F1("abs", TYPE_NUMERIC, TYPE_NUMERIC, k_numeric_abs, 1705),
    F1("@", TYPE_NUMERIC, TYPE_NUMERIC, k_numeric_abs, 1705),
    F1("round", TYPE_NUMERIC, TYPE_NUMERIC, k_numeric_round, 1708),
    F2("round", TYPE_NUMERIC, TYPE_INT4, TYPE_NUMERIC, k_numeric_round_s, 1707),
    F2("+", TYPE_DATE, TYPE_INT4, TYPE_DATE, k_date_pli, 1141),
    F2("+", TYPE_INT4, TYPE_DATE, TYPE_DATE, k_integer_pl_date, 2550),
    F2("-", TYPE_DATE, TYPE_INT4, TYPE_DATE, k_date_mii, 1142),
    F2("-", TYPE_DATE, TYPE_DATE, TYPE_INT4, k_date_mi, 1140),
};
const int exec__funcs_arith_count = (int)(sizeof exec__funcs_arith / sizeof exec__funcs_arith[0]);
