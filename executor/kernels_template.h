/*
 * kernels_template.h — code generators for the per-type kernels of
 * executor/funcs_*.c: one macro writes a whole batch kernel from a
 * one-row operation, so each operator family is a list of one-liners
 * (X-macros) instead of copy-pasted loops per type.
 *
 * KERNEL_UNARY(NAME, AT, RT, OP, RAISE) and KERNEL_BINARY(NAME, LT, RT, RESULT_T,
 * OP, RAISE) define `static void NAME(const FuncCallCtx *, Vector *const *,
 * Vector *)` (a FuncKernel). OP is a function-like macro
 *     OP(r, a, b, bad)     (binary)      OP(r, a, bad)   (unary)
 * that stores the row's result into the lvalue r and ORs error bits
 * (KBAD_*) into the unsigned lvalue bad, without branching, so the loop stays
 * a straight counted loop that the compiler vectorises. RAISE is a function
 * `_Noreturn void RAISE(unsigned bits)` that raises the error of those bits,
 * or KERNEL_NO_RAISE for operations that cannot fail.
 *
 * Shape dispatch is done once per batch, as DuckDB's BinaryExecutor: no
 * selection and flat/flat, const/flat or flat/const inputs run a dense
 * loop over 0..count; a selection vector (or const/const) runs a gather
 * loop where a const input is read at index 0 through an index mask.
 *
 * NULL rows: strict kernels compute garbage for NULL rows (their values
 * are whatever the vector holds), so the fast loop may set bad bits for a
 * row that is NULL. When bad is non-zero after the loop, a second, scalar
 * pass recomputes only the rows that are valid in the result (the caller
 * already set result validity = AND of the arguments') and raises the
 * first real error in row order; if every bad row was NULL, nothing is
 * raised. The common case (no error) pays nothing for this. Operations
 * that could fault on garbage (integer division by zero, INT_MIN / -1)
 * must make their OP safe by themselves (divide by a substituted divisor).
 *
 * Vectorisation proof (gcc 12.2, x86-64). Command:
 *   gcc -O2 -fopt-info-vec-optimized -D_GNU_SOURCE -std=c11 -I. -I<build> \
 *       -c executor/funcs_arith.c      (likewise funcs_cmp.c, funcs_cast.c)
 * reports "optimized: loop vectorized using 16 byte vectors" (SSE2 clone)
 * and "... using 32 byte vectors" (AVX2 clone) for the template lines:
 * 179 + 114 loops in funcs_arith.c, 740 in funcs_cmp.c, 51 in
 * funcs_cast.c. (Every kernel expands on one source line, so the per-kernel
 * view comes from the object: `objdump -d` the .o built with -fno-ipa-icf
 * and look for packed instructions per function.) Per kernel, that shows:
 *  - vectorised in both clones: + - and unary - of int2/int4/int8 (and the
 *    cross-type forms), int2 *, float4 + - * /, every comparison of int2,
 *    int4, int2/int4 cross, bool, date, float4, float4/float8 cross; the
 *    widening casts int→int, int→float, float4→float8, bool↔int4;
 *  - vectorised in the AVX2 clone only (SSE2 lacks the instruction: 64-bit
 *    compares, 32x32→64 multiply, double masks → flags): int4 *, float8
 *    + - * /, comparisons of int8, timestamp, float8 and int8 cross forms;
 *  - scalar: int8 * (no 64-bit SIMD multiply before AVX-512), / and %
 *    (no SIMD integer division), float→int casts in the SSE2 clone, the
 *    gather loops (selection vectors), and the row kernels (numeric,
 *    strings) which call out per row by design.
 * clang 14 -O2 -Rpass=loop-vectorize: 308 loops vectorised in
 * funcs_arith.c, 468 in funcs_cmp.c (both clones counted).
 */
#ifndef STRATA_EXECUTOR_KERNELS_TEMPLATE_H
#define STRATA_EXECUTOR_KERNELS_TEMPLATE_H

#include <stdint.h>
#include "common/error.h"
#include "common/vector.h"
#include "executor/funcs.h"

/*
 * gcc 12 at -O2 vectorises only with the "very-cheap" cost model, which
 * refuses any loop whose trip count is not a known multiple of the vector
 * width — i.e. every batch loop. The kernel files opt into the dynamic cost
 * model (what -O3 uses) so that -O2/debugoptimized builds vectorise them too.
 * clang vectorises these loops at -O2 by default.
 */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-loop-vectorize", "vect-cost-model=dynamic")
#endif

/* Error bits an OP may set; RAISE maps them to PostgreSQL's errors. */
#define KBAD_OVERFLOW 1u
#define KBAD_DIVZERO 2u
#define KBAD_UNDERFLOW 4u

/* Is the result row valid (not NULL)? Rows outside the validity mask are
 * never checked for errors. */
static inline bool kernel_row_valid(const Vector *result, uint32_t row)
{
    return result->validity == NULL || ((result->validity[row >> 6] >> (row & 63)) & 1);
}

#define KERNEL_NO_RAISE(bits) ((void)(bits))

/*
 * Runtime dispatch: baseline x86-64 (SSE2) has no 64-bit integer compare,
 * no 32x32→64 signed multiply and no way to turn double-compare masks into
 * narrower flags, so int8/timestamp/float8 kernels and int4 multiply stay
 * scalar there. Each fixed-width kernel is therefore also compiled for
 * AVX2 and the loader picks the clone once per process (GNU ifunc) — the
 * "runtime dispatch" of ARCHITECTURE.md without hand-written intrinsics.
 */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(STRATA_NO_TARGET_CLONES)
#define KERNEL_DISPATCH __attribute__((target_clones("default", "avx2")))
#else
#define KERNEL_DISPATCH
#endif

#define KERNEL_BINARY(NAME, LT, RT, RESULT_T, OP, RAISE)                           \
    KERNEL_DISPATCH static void NAME(const FuncCallCtx *ctx, Vector *const *args, Vector *result)    \
    {                                                                                \
        const LT *restrict a_ = (const LT *)args[0]->data;                                    \
        const RT *restrict b_ = (const RT *)args[1]->data;                                    \
        RESULT_T *restrict r_ = (RESULT_T *)result->data;                                     \
        const uint16_t *sel_ = ctx->sel;                                             \
        uint32_t n_ = ctx->count;                                                    \
        bool ac_ = args[0]->is_const, bc_ = args[1]->is_const;                       \
        unsigned bad_ = 0;                                                           \
        if (sel_ == NULL && !ac_ && !bc_) {                                          \
            for (uint32_t i = 0; i < n_; i++) OP(r_[i], a_[i], b_[i], bad_);         \
        } else if (sel_ == NULL && ac_ && !bc_) {                                    \
            const LT av_ = a_[0];                                                    \
            for (uint32_t i = 0; i < n_; i++) OP(r_[i], av_, b_[i], bad_);           \
        } else if (sel_ == NULL && !ac_ && bc_) {                                    \
            const RT bv_ = b_[0];                                                    \
            for (uint32_t i = 0; i < n_; i++) OP(r_[i], a_[i], bv_, bad_);           \
        } else {                                                                     \
            uint32_t am_ = ac_ ? 0 : UINT32_MAX, bm_ = bc_ ? 0 : UINT32_MAX;         \
            for (uint32_t i = 0; i < n_; i++) {                                      \
                uint32_t row_ = sel_ ? sel_[i] : i;                                  \
                OP(r_[row_], a_[row_ & am_], b_[row_ & bm_], bad_);                  \
            }                                                                        \
        }                                                                            \
        if (bad_) {                                                                  \
            uint32_t am_ = ac_ ? 0 : UINT32_MAX, bm_ = bc_ ? 0 : UINT32_MAX;         \
            for (uint32_t i = 0; i < n_; i++) {                                      \
                uint32_t row_ = sel_ ? sel_[i] : i;                                  \
                unsigned rb_ = 0;                                                    \
                RESULT_T tmp_;                                                       \
                if (!kernel_row_valid(result, row_)) continue;                       \
                OP(tmp_, a_[row_ & am_], b_[row_ & bm_], rb_);                       \
                (void)tmp_;                                                          \
                if (rb_) RAISE(rb_);                                                 \
            }                                                                        \
        }                                                                            \
    }

#define KERNEL_UNARY(NAME, AT, RESULT_T, OP, RAISE)                                  \
    KERNEL_DISPATCH static void NAME(const FuncCallCtx *ctx, Vector *const *args, Vector *result)    \
    {                                                                                \
        const AT *restrict a_ = (const AT *)args[0]->data;                                    \
        RESULT_T *restrict r_ = (RESULT_T *)result->data;                                     \
        const uint16_t *sel_ = ctx->sel;                                             \
        uint32_t n_ = ctx->count;                                                    \
        uint32_t am_ = args[0]->is_const ? 0 : UINT32_MAX;                           \
        unsigned bad_ = 0;                                                           \
        if (sel_ == NULL && am_) {                                                   \
            for (uint32_t i = 0; i < n_; i++) OP(r_[i], a_[i], bad_);                \
        } else {                                                                     \
            for (uint32_t i = 0; i < n_; i++) {                                      \
                uint32_t row_ = sel_ ? sel_[i] : i;                                  \
                OP(r_[row_], a_[row_ & am_], bad_);                                  \
            }                                                                        \
        }                                                                            \
        if (bad_) {                                                                  \
            for (uint32_t i = 0; i < n_; i++) {                                      \
                uint32_t row_ = sel_ ? sel_[i] : i;                                  \
                unsigned rb_ = 0;                                                    \
                RESULT_T tmp_;                                                       \
                if (!kernel_row_valid(result, row_)) continue;                       \
                OP(tmp_, a_[row_ & am_], rb_);                                       \
                (void)tmp_;                                                          \
                if (rb_) RAISE(rb_);                                                 \
            }                                                                        \
        }                                                                            \
    }

/*
 * Row-at-a-time kernels for types whose operations call out (numeric,
 * strings): BODY is a statement using `row` (the row index), `ia`/`ib`
 * (argument indexes, 0 for a const argument) and the typed pointers a, b, r.
 * Rows that are NULL in the result are skipped, so BODY may raise.
 */
#define KERNEL_ROWS_BINARY(NAME, LT, RT, RESULT_T, BODY)                             \
    static void NAME(const FuncCallCtx *ctx, Vector *const *args, Vector *result)    \
    {                                                                                \
        const LT *a = (const LT *)args[0]->data;                                     \
        const RT *b = (const RT *)args[1]->data;                                     \
        RESULT_T *r = (RESULT_T *)result->data;                                      \
        uint32_t am_ = args[0]->is_const ? 0 : UINT32_MAX;                           \
        uint32_t bm_ = args[1]->is_const ? 0 : UINT32_MAX;                           \
        MemArena *arena = ctx->arena;                                                \
        (void)arena;                                                                 \
        for (uint32_t i = 0; i < ctx->count; i++) {                                  \
            uint32_t row = ctx->sel ? ctx->sel[i] : i;                               \
            uint32_t ia = row & am_, ib = row & bm_;                                 \
            if (!kernel_row_valid(result, row)) continue;                            \
            BODY;                                                                    \
        }                                                                            \
    }

#define KERNEL_ROWS_UNARY(NAME, AT, RESULT_T, BODY)                                  \
    static void NAME(const FuncCallCtx *ctx, Vector *const *args, Vector *result)    \
    {                                                                                \
        const AT *a = (const AT *)args[0]->data;                                     \
        RESULT_T *r = (RESULT_T *)result->data;                                      \
        uint32_t am_ = args[0]->is_const ? 0 : UINT32_MAX;                           \
        MemArena *arena = ctx->arena;                                                \
        (void)arena;                                                                 \
        for (uint32_t i = 0; i < ctx->count; i++) {                                  \
            uint32_t row = ctx->sel ? ctx->sel[i] : i;                               \
            uint32_t ia = row & am_;                                                 \
            if (!kernel_row_valid(result, row)) continue;                            \
            BODY;                                                                    \
        }                                                                            \
    }

#endif
