/*
 * test_filter_kernels.c — executor/filter_kernels.c: `column op constant`
 * straight to a selection, AVX2 and portable kernels alike, against a plain
 * scalar loop: int16/int32/int64 columns, every operator, batch sizes from
 * 1 to 2048 (whole and partial 64-row words), with and without NULLs,
 * constants inside, at the edges of and between the values; text and
 * varchar against '' (a length test) and what is refused.
 */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

static uint64_t rng = 88172645463325252ull;
static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static bool ref_cmp(int64_t x, ExecCmpOp op, int64_t c)
{
    switch (op) {
    case EXEC_CMP_EQ: return x == c;
    case EXEC_CMP_NE: return x != c;
    case EXEC_CMP_LT: return x < c;
    case EXEC_CMP_LE: return x <= c;
    case EXEC_CMP_GT: return x > c;
    case EXEC_CMP_GE: return x >= c;
    }
    return false;
}

static void check_type(PhysType phys, SqlType type, int64_t lo, int64_t hi)
{
    static int64_t vals[VEC_CAPACITY];
    static uint8_t raw[VEC_CAPACITY * 8];
    static uint64_t validity[VEC_VALIDITY_WORDS];
    static uint16_t sel[VEC_CAPACITY];
    size_t w = phys == PHYS_I16 ? 2 : phys == PHYS_I32 ? 4 : 8;
    const uint32_t sizes[] = {1, 7, 63, 64, 65, 128, 1000, 2047, 2048};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        uint32_t n = sizes[si];
        for (int with_nulls = 0; with_nulls < 2; with_nulls++) {
            memset(validity, 0, sizeof validity);
            for (uint32_t i = 0; i < n; i++) {
                /* few distinct values so = and <> both select something; the edges too */
                uint64_t r = next_rand();
                int64_t x = r % 7 == 0 ? lo : r % 7 == 1 ? hi : (int64_t)(r % 9) - 4;
                vals[i] = x;
                memcpy(raw + i * w, &x, w);   /* little endian: the low bytes */
                if (!with_nulls || next_rand() % 5)
                    validity[i / 64] |= UINT64_C(1) << (i % 64);
            }
            Vector v = {.type = type, .phys = phys, .data = raw, .validity = with_nulls ? validity : NULL};
            Batch b = {.ncols = 1, .count = n, .cols = &v};
            const int64_t consts[] = {lo, hi, 0, -4, 4, 3, lo + 1, hi - 1};
            for (size_t ci = 0; ci < sizeof consts / sizeof consts[0]; ci++) {
                for (int op = EXEC_CMP_EQ; op <= EXEC_CMP_GE; op++) {
                    Value c = {.is_null = false};
                    c.u.i64 = consts[ci];
                    ExecCmpFilter f;
                    cr_assert(exec__cmp_filter_init(type, (ExecCmpOp)op, SQLTYPE(TYPE_INT8), &c, 0, &f));
                    for (int portable = 0; portable < 2; portable++) {
                        exec__cmp_filter_portable = portable;
                        uint32_t k = exec__cmp_filter_select(&f, &b, sel), m = 0;
                        for (uint32_t i = 0; k == n && i < n; i++)
                            sel[i] = (uint16_t)i;   /* all passed: sel may be unwritten */
                        for (uint32_t i = 0; i < n; i++) {
                            bool valid = !with_nulls || ((validity[i / 64] >> (i % 64)) & 1);
                            if (!valid || !ref_cmp(vals[i], (ExecCmpOp)op, consts[ci]))
                                continue;
                            cr_assert(m < k && sel[m] == i, "phys %d n %u op %d c %lld portable %d: row %u",
                                      (int)phys, n, op, (long long)consts[ci], portable, i);
                            m++;
                        }
                        cr_assert_eq(k, m, "phys %d n %u op %d c %lld portable %d: %u rows, expected %u",
                                     (int)phys, n, op, (long long)consts[ci], portable, k, m);
                    }
                    exec__cmp_filter_portable = false;
                }
            }
        }
    }
}

Test(filter_kernels, int16)
{
    check_type(PHYS_I16, SQLTYPE(TYPE_INT2), INT16_MIN, INT16_MAX);
}

Test(filter_kernels, int32)
{
    check_type(PHYS_I32, SQLTYPE(TYPE_INT4), INT32_MIN, INT32_MAX);
}

Test(filter_kernels, int64)
{
    check_type(PHYS_I64, SQLTYPE(TYPE_INT8), INT64_MIN, INT64_MAX);
}

Test(filter_kernels, constants_out_of_range_and_null_are_refused)
{
    ExecCmpFilter f;
    Value c = {.is_null = false};
    c.u.i64 = 40000;
    cr_assert_not(exec__cmp_filter_init(SQLTYPE(TYPE_INT2), EXEC_CMP_EQ, SQLTYPE(TYPE_INT8), &c, 0, &f));
    c.u.i64 = -32768;
    cr_assert(exec__cmp_filter_init(SQLTYPE(TYPE_INT2), EXEC_CMP_EQ, SQLTYPE(TYPE_INT8), &c, 0, &f));
    c.is_null = true;
    cr_assert_not(exec__cmp_filter_init(SQLTYPE(TYPE_INT4), EXEC_CMP_EQ, SQLTYPE(TYPE_INT4), &c, 0, &f));
    c = (Value){.is_null = false};
    cr_assert_not(exec__cmp_filter_init(SQLTYPE(TYPE_DATE), EXEC_CMP_EQ, SQLTYPE(TYPE_TIMESTAMP), &c, 0, &f));
    cr_assert_not(exec__cmp_filter_init(SQLTYPE(TYPE_FLOAT8), EXEC_CMP_EQ, SQLTYPE(TYPE_FLOAT8), &c, 0, &f));
}

Test(filter_kernels, text_against_empty_string)
{
    static StrRef vals[VEC_CAPACITY];
    static uint64_t validity[VEC_VALIDITY_WORDS];
    static uint16_t sel[VEC_CAPACITY];
    const uint32_t sizes[] = {1, 63, 64, 65, 1000, 2048};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        uint32_t n = sizes[si];
        memset(validity, 0, sizeof validity);
        for (uint32_t i = 0; i < n; i++) {
            vals[i] = next_rand() % 3 ? (StrRef){"abc", (uint32_t)(next_rand() % 3)} : (StrRef){"", 0};
            if (next_rand() % 4)
                validity[i / 64] |= UINT64_C(1) << (i % 64);
        }
        Vector v = {.type = SQLTYPE(TYPE_TEXT), .phys = PHYS_STR, .data = vals, .validity = validity};
        Batch b = {.ncols = 1, .count = n, .cols = &v};
        for (int op = EXEC_CMP_EQ; op <= EXEC_CMP_NE; op++) {
            Value c = {.is_null = false};
            c.u.str = (StrRef){"", 0};
            ExecCmpFilter f;
            cr_assert(exec__cmp_filter_init(SQLTYPE(TYPE_VARCHAR), (ExecCmpOp)op, SQLTYPE(TYPE_TEXT), &c, 0, &f));
            uint32_t k = exec__cmp_filter_select(&f, &b, sel), m = 0;
            for (uint32_t i = 0; k == n && i < n; i++)
                sel[i] = (uint16_t)i;   /* all passed: sel may be unwritten */
            for (uint32_t i = 0; i < n; i++) {
                bool valid = (validity[i / 64] >> (i % 64)) & 1;
                bool empty = vals[i].len == 0;
                if (!valid || empty != (op == EXEC_CMP_EQ))
                    continue;
                cr_assert(m < k && sel[m] == i, "n %u op %d: row %u", n, op, i);
                m++;
            }
            cr_assert_eq(k, m, "n %u op %d: %u rows, expected %u", n, op, k, m);
        }
    }
    Value x = {.is_null = false};
    x.u.str = (StrRef){"x", 1};
    ExecCmpFilter f;
    cr_assert_not(exec__cmp_filter_init(SQLTYPE(TYPE_TEXT), EXEC_CMP_NE, SQLTYPE(TYPE_TEXT), &x, 0, &f));
    x.u.str = (StrRef){"", 0};
    cr_assert_not(exec__cmp_filter_init(SQLTYPE(TYPE_TEXT), EXEC_CMP_LT, SQLTYPE(TYPE_TEXT), &x, 0, &f));
    cr_assert_not(exec__cmp_filter_init(SQLTYPE(TYPE_BPCHAR), EXEC_CMP_EQ, SQLTYPE(TYPE_BPCHAR), &x, 0, &f));
}
