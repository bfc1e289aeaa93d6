/*
 * funcs_oidtypes.c — operators and casts of the catalog types: oid, the
 * reg* types (regclass, regtype, regproc, regprocedure, regnamespace,
 * regrole), name, "char", xid8, and record's casts to and from text
 * (PostgreSQL's pg_operator / pg_cast rows for them).
 *
 * reg* values have no operators of their own, as in PostgreSQL: they are
 * binary-coercible to oid both ways (implicit), so `c.oid = 't'::regclass`
 * is oid = oid. Integers cast to oid and reg* implicitly, back by
 * assignment; text casts to regclass implicitly (text_regclass), the other
 * text conversions are I/O casts (explicit from text, assignment to text).
 * name and text convert implicitly both ways; "char" ↔ text as
 * PostgreSQL's char/text functions. oid compares unsigned.
 */
#include <string.h>
#include "common/error.h"
#include "common/typio.h"
#include "common/types.h"
#include "executor/funcs.h"
#include "executor/kernels_template.h"

/* ---------- comparison operators ---------- */

#define OID_CMP(NAME, OP) \
    KERNEL_ROWS_BINARY(NAME, int32_t, int32_t, uint8_t, r[row] = (uint8_t)((uint32_t)a[ia] OP (uint32_t)b[ib]))
OID_CMP(k_oid_eq, ==) OID_CMP(k_oid_ne, !=) OID_CMP(k_oid_lt, <)
OID_CMP(k_oid_le, <=) OID_CMP(k_oid_gt, >) OID_CMP(k_oid_ge, >=)

/* xid8: unsigned 64-bit transaction ids (txid_current's values fit int64). */
#define XID8_CMP(NAME, OP) \
    KERNEL_ROWS_BINARY(NAME, int64_t, int64_t, uint8_t, r[row] = (uint8_t)((uint64_t)a[ia] OP (uint64_t)b[ib]))
XID8_CMP(k_xid8_eq, ==) XID8_CMP(k_xid8_ne, !=) XID8_CMP(k_xid8_lt, <)
XID8_CMP(k_xid8_le, <=) XID8_CMP(k_xid8_gt, >) XID8_CMP(k_xid8_ge, >=)

/* name and "char": bytewise (C collation), shorter first on a common prefix. */
static inline int cmp_bytes(StrRef a, StrRef b)
{
    uint32_t n = a.len < b.len ? a.len : b.len;
    int c = n ? memcmp(a.ptr, b.ptr, n) : 0;
    if (c != 0)
        return c;
    return (a.len > b.len) - (a.len < b.len);
}
#define STR_CMP(NAME, OP) \
    KERNEL_ROWS_BINARY(NAME, StrRef, StrRef, uint8_t, r[row] = (uint8_t)(cmp_bytes(a[ia], b[ib]) OP 0))
STR_CMP(k_str_eq, ==) STR_CMP(k_str_ne, !=) STR_CMP(k_str_lt, <)
STR_CMP(k_str_le, <=) STR_CMP(k_str_gt, >) STR_CMP(k_str_ge, >=)

/* ---------- cast kernels ---------- */

/* Binary-coercible (oid ↔ reg*, int4 → oid, oid → int4; name ↔ text):
 * the same bytes under another type. */
KERNEL_ROWS_UNARY(k_same32, int32_t, int32_t, r[row] = a[ia])
KERNEL_ROWS_UNARY(k_samestr, StrRef, StrRef, r[row] = a[ia])
KERNEL_ROWS_UNARY(k_i2_oid, int16_t, int32_t, r[row] = (int32_t)a[ia])
KERNEL_ROWS_UNARY(k_oid_i8, int32_t, int64_t, r[row] = (int64_t)(uint32_t)a[ia])

/* int8 → oid: PostgreSQL's i8tooid, 22003 "OID out of range" outside [0, 2^32). */
static int32_t i8_to_oid(int64_t v)
{
    if (v < 0 || v > (int64_t)UINT32_MAX)
        err_raise(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "OID out of range");
    return (int32_t)(uint32_t)v;
}
KERNEL_ROWS_UNARY(k_i8_oid, int64_t, int32_t, r[row] = i8_to_oid(a[ia]))

/* I/O conversion: the source's output function, the target's input function. */
static void k_io(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    StrRef *tmp = mem_alloc(ctx->arena, sizeof(StrRef) * (ctx->count ? ctx->count : 1));
    OutputOptions opt = OUTPUT_OPTIONS_DEFAULT;
    type_output_vector(args[0], ctx->sel, ctx->count, &opt, ctx->arena, tmp);
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ctx->sel ? ctx->sel[i] : i;
        if (!kernel_row_valid(result, row) || tmp[i].ptr == NULL)
            continue;
        Value v;
        type_input(ctx->result_type, tmp[i].ptr, tmp[i].len, ctx->arena, &v);
        vec_set_value(result, row, &v);
    }
}

/* pg_typeof(any): the argument's type as regtype, NULL values too. */
static void k_pg_typeof(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    int32_t *r = (int32_t *)result->data;
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ctx->sel ? ctx->sel[i] : i;
        r[row] = (int32_t)args[0]->type.oid;
    }
}

/* ---------- the tables ---------- */

#define CMP6(lt, rt, k, o_eq, o_ne, o_lt, o_le, o_gt, o_ge)                                   \
    {"=", 2, {lt, rt}, TYPE_BOOL, FUNC_STRICT, k##_eq, o_eq},                                 \
    {"<>", 2, {lt, rt}, TYPE_BOOL, FUNC_STRICT, k##_ne, o_ne},                                \
    {"<", 2, {lt, rt}, TYPE_BOOL, FUNC_STRICT, k##_lt, o_lt},                                 \
    {"<=", 2, {lt, rt}, TYPE_BOOL, FUNC_STRICT, k##_le, o_le},                                \
    {">", 2, {lt, rt}, TYPE_BOOL, FUNC_STRICT, k##_gt, o_gt},                                 \
    {">=", 2, {lt, rt}, TYPE_BOOL, FUNC_STRICT, k##_ge, o_ge},

const FuncDesc exec__funcs_oidtypes[] = {
    CMP6(TYPE_OID, TYPE_OID, k_oid, 607, 608, 609, 611, 610, 612)
    CMP6(TYPE_NAME, TYPE_NAME, k_str, 93, 643, 660, 661, 662, 663)
    CMP6(TYPE_CHAR, TYPE_CHAR, k_str, 92, 630, 631, 632, 633, 634)
    CMP6(TYPE_XID8, TYPE_XID8, k_xid8, 5084, 5085, 5034, 5036, 5035, 5037)
    {"pg_typeof", 1, {FUNC_ARG_ANY}, TYPE_REGTYPE, FUNC_STABLE, k_pg_typeof, 1619},
};
const int exec__funcs_oidtypes_count = (int)(sizeof exec__funcs_oidtypes / sizeof exec__funcs_oidtypes[0]);

#define REG_CASTS(X, r)                                                            \
    X(TYPE_OID, r, 'i', k_same32) X(r, TYPE_OID, 'i', k_same32)                   \
    X(TYPE_INT4, r, 'i', k_same32) X(TYPE_INT2, r, 'i', k_i2_oid)                 \
    X(TYPE_INT8, r, 'i', k_i8_oid) X(r, TYPE_INT4, 'a', k_same32)                 \
    X(r, TYPE_INT8, 'a', k_oid_i8) X(TYPE_UNKNOWN, r, 'i', k_io)                  \
    X(r, TYPE_TEXT, 'a', k_io) X(r, TYPE_VARCHAR, 'a', k_io) X(r, TYPE_BPCHAR, 'a', k_io)
#define FROM_STRINGS(X, t, ctx)                                                   \
    X(TYPE_TEXT, t, ctx, k_io) X(TYPE_VARCHAR, t, ctx, k_io) X(TYPE_BPCHAR, t, ctx, k_io)

#define CAST_LIST(X)                                                               \
    REG_CASTS(X, TYPE_REGCLASS) REG_CASTS(X, TYPE_REGTYPE) REG_CASTS(X, TYPE_REGPROC) \
    REG_CASTS(X, TYPE_REGNAMESPACE)                                                \
    REG_CASTS(X, TYPE_REGPROCEDURE) REG_CASTS(X, TYPE_REGROLE)                     \
    X(TYPE_REGPROC, TYPE_REGPROCEDURE, 'i', k_same32)                              \
    X(TYPE_REGPROCEDURE, TYPE_REGPROC, 'i', k_same32)                              \
    FROM_STRINGS(X, TYPE_REGPROCEDURE, 'e') FROM_STRINGS(X, TYPE_REGROLE, 'e')     \
    X(TYPE_REGCLASS, TYPE_REGTYPE, 'i', k_same32) X(TYPE_REGTYPE, TYPE_REGCLASS, 'i', k_same32) \
    FROM_STRINGS(X, TYPE_REGCLASS, 'i') FROM_STRINGS(X, TYPE_REGTYPE, 'e')         \
    FROM_STRINGS(X, TYPE_REGPROC, 'e') FROM_STRINGS(X, TYPE_REGNAMESPACE, 'e')     \
    X(TYPE_INT4, TYPE_OID, 'i', k_same32) X(TYPE_INT2, TYPE_OID, 'i', k_i2_oid)    \
    X(TYPE_INT8, TYPE_OID, 'i', k_i8_oid) X(TYPE_OID, TYPE_INT4, 'a', k_same32)    \
    X(TYPE_OID, TYPE_INT8, 'a', k_oid_i8) X(TYPE_UNKNOWN, TYPE_OID, 'i', k_io)     \
    X(TYPE_OID, TYPE_TEXT, 'a', k_io) X(TYPE_OID, TYPE_VARCHAR, 'a', k_io)         \
    X(TYPE_OID, TYPE_BPCHAR, 'a', k_io) FROM_STRINGS(X, TYPE_OID, 'e')             \
    X(TYPE_NAME, TYPE_TEXT, 'i', k_samestr) X(TYPE_TEXT, TYPE_NAME, 'i', k_io)     \
    X(TYPE_VARCHAR, TYPE_NAME, 'i', k_io) X(TYPE_BPCHAR, TYPE_NAME, 'i', k_io)     \
    X(TYPE_NAME, TYPE_VARCHAR, 'a', k_io) X(TYPE_NAME, TYPE_BPCHAR, 'a', k_io)     \
    X(TYPE_UNKNOWN, TYPE_NAME, 'i', k_io)                                          \
    X(TYPE_CHAR, TYPE_TEXT, 'i', k_io) X(TYPE_TEXT, TYPE_CHAR, 'a', k_io)          \
    X(TYPE_CHAR, TYPE_VARCHAR, 'a', k_io) X(TYPE_VARCHAR, TYPE_CHAR, 'a', k_io)    \
    X(TYPE_CHAR, TYPE_BPCHAR, 'a', k_io) X(TYPE_BPCHAR, TYPE_CHAR, 'a', k_io)      \
    X(TYPE_UNKNOWN, TYPE_CHAR, 'i', k_io)                                          \
    X(TYPE_UNKNOWN, TYPE_XID8, 'i', k_io) FROM_STRINGS(X, TYPE_XID8, 'e')          \
    X(TYPE_XID8, TYPE_TEXT, 'a', k_io) X(TYPE_XID8, TYPE_VARCHAR, 'a', k_io)       \
    X(TYPE_XID8, TYPE_BPCHAR, 'a', k_io)                                           \
    X(TYPE_RECORD, TYPE_TEXT, 'a', k_samestr) X(TYPE_RECORD, TYPE_VARCHAR, 'a', k_io) \
    X(TYPE_RECORD, TYPE_BPCHAR, 'a', k_io) FROM_STRINGS(X, TYPE_RECORD, 'e')

static const CastDesc oidtype_casts[] = {
#define X_ENTRY(s, t, c, k) {(s), (t), (c), k},
    CAST_LIST(X_ENTRY)
#undef X_ENTRY
};

const CastDesc *exec__cast_oidtypes_lookup(uint32_t source, uint32_t target)
{
    for (size_t i = 0; i < sizeof oidtype_casts / sizeof oidtype_casts[0]; i++)
        if (oidtype_casts[i].source == source && oidtype_casts[i].target == target)
            return &oidtype_casts[i];
    return NULL;
}
