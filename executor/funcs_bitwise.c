/*
 * funcs_bitwise.c — the integer bit operators & | # ~ << >> of smallint,
 * integer and bigint (PostgreSQL's int2and ... int8shr). JDBC's
 * getIndexInfo writes `indoption[i] & 1::smallint` to read an index
 * column's DESC bit; psql and applications use them on flags.
 *
 * Shifts take an integer count, as PostgreSQL's; PostgreSQL shifts with
 * C's operator on x86, where the count is taken modulo the width of the
 * promoted operand (32 for smallint and integer, 64 for bigint), and a
 * smallint result is the low 16 bits: the kernels mask the count the same
 * way (no undefined behaviour, PostgreSQL's answers). None can fail.
 */
#include <stdint.h>
#include "common/types.h"
#include "executor/funcs.h"
#include "executor/kernels_template.h"

#define AND_OP(r, a, b, bad) ((void)(bad), r = (a) & (b))
#define OR_OP(r, a, b, bad) ((void)(bad), r = (a) | (b))
#define XOR_OP(r, a, b, bad) ((void)(bad), r = (a) ^ (b))
#define NOT_OP(r, a, bad) ((void)(bad), r = ~(a))
#define SHL32(T, r, a, b, bad) ((void)(bad), r = (T)(int32_t)((uint32_t)(int32_t)(a) << ((uint32_t)(b) & 31u)))
#define SHR32(T, r, a, b, bad) ((void)(bad), r = (T)((int32_t)(a) >> ((uint32_t)(b) & 31u)))
#define SHL_I2(r, a, b, bad) SHL32(int16_t, r, a, b, bad)
#define SHR_I2(r, a, b, bad) SHR32(int16_t, r, a, b, bad)
#define SHL_I4(r, a, b, bad) SHL32(int32_t, r, a, b, bad)
#define SHR_I4(r, a, b, bad) SHR32(int32_t, r, a, b, bad)
#define SHL_I8(r, a, b, bad) ((void)(bad), r = (int64_t)((uint64_t)(a) << ((uint32_t)(b) & 63u)))
#define SHR_I8(r, a, b, bad) ((void)(bad), r = (a) >> ((uint32_t)(b) & 63u))

/* X(name, LT, RT, RES, OP, sym, oid, lo, ro, reso) */
#define BIT_BINARY_OPS(X)                                                                        \
    X(int2and, int16_t, int16_t, int16_t, AND_OP, "&", 1892, TYPE_INT2, TYPE_INT2, TYPE_INT2)     \
    X(int2or, int16_t, int16_t, int16_t, OR_OP, "|", 1893, TYPE_INT2, TYPE_INT2, TYPE_INT2)       \
    X(int2xor, int16_t, int16_t, int16_t, XOR_OP, "#", 1894, TYPE_INT2, TYPE_INT2, TYPE_INT2)     \
    X(int2shl, int16_t, int32_t, int16_t, SHL_I2, "<<", 1896, TYPE_INT2, TYPE_INT4, TYPE_INT2)    \
    X(int2shr, int16_t, int32_t, int16_t, SHR_I2, ">>", 1897, TYPE_INT2, TYPE_INT4, TYPE_INT2)    \
    X(int4and, int32_t, int32_t, int32_t, AND_OP, "&", 1898, TYPE_INT4, TYPE_INT4, TYPE_INT4)     \
    X(int4or, int32_t, int32_t, int32_t, OR_OP, "|", 1899, TYPE_INT4, TYPE_INT4, TYPE_INT4)       \
    X(int4xor, int32_t, int32_t, int32_t, XOR_OP, "#", 1900, TYPE_INT4, TYPE_INT4, TYPE_INT4)     \
    X(int4shl, int32_t, int32_t, int32_t, SHL_I4, "<<", 1902, TYPE_INT4, TYPE_INT4, TYPE_INT4)    \
    X(int4shr, int32_t, int32_t, int32_t, SHR_I4, ">>", 1903, TYPE_INT4, TYPE_INT4, TYPE_INT4)    \
    X(int8and, int64_t, int64_t, int64_t, AND_OP, "&", 1904, TYPE_INT8, TYPE_INT8, TYPE_INT8)     \
    X(int8or, int64_t, int64_t, int64_t, OR_OP, "|", 1905, TYPE_INT8, TYPE_INT8, TYPE_INT8)       \
    X(int8xor, int64_t, int64_t, int64_t, XOR_OP, "#", 1906, TYPE_INT8, TYPE_INT8, TYPE_INT8)     \
    X(int8shl, int64_t, int32_t, int64_t, SHL_I8, "<<", 1908, TYPE_INT8, TYPE_INT4, TYPE_INT8)    \
    X(int8shr, int64_t, int32_t, int64_t, SHR_I8, ">>", 1909, TYPE_INT8, TYPE_INT4, TYPE_INT8)

#define X_KERNEL(name, LT, RT, RES, OP, sym, oid, lo, ro, reso) \
    KERNEL_BINARY(k_##name, LT, RT, RES, OP, KERNEL_NO_RAISE)
BIT_BINARY_OPS(X_KERNEL)
#undef X_KERNEL

KERNEL_UNARY(k_int2not, int16_t, int16_t, NOT_OP, KERNEL_NO_RAISE)
KERNEL_UNARY(k_int4not, int32_t, int32_t, NOT_OP, KERNEL_NO_RAISE)
KERNEL_UNARY(k_int8not, int64_t, int64_t, NOT_OP, KERNEL_NO_RAISE)

const FuncDesc exec__funcs_bitwise[] = {
#define X_DESC(name, LT, RT, RES, OP, sym, oid, lo, ro, reso) \
    {sym, 2, {lo, ro}, reso, FUNC_STRICT, k_##name, oid},
    BIT_BINARY_OPS(X_DESC)
#undef X_DESC
    {"~", 1, {TYPE_INT2}, TYPE_INT2, FUNC_STRICT, k_int2not, 1895},
    {"~", 1, {TYPE_INT4}, TYPE_INT4, FUNC_STRICT, k_int4not, 1901},
    {"~", 1, {TYPE_INT8}, TYPE_INT8, FUNC_STRICT, k_int8not, 1907},
};
const int exec__funcs_bitwise_count = (int)(sizeof exec__funcs_bitwise / sizeof exec__funcs_bitwise[0]);
