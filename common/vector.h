/*
 * vector.h — column vectors and batches: the unit of work of every layer.
 *
 * A Vector holds up to VEC_CAPACITY values of one physical type in a plain
 * array, plus a validity bitmap (bit i set = row i is not NULL; NULL pointer
 * = every row valid). A constant vector (is_const) stores one value at
 * index 0 that stands for every row.
 *
 * A Batch is a set of equally long vectors plus an optional selection
 * vector: when sel is non-NULL, the batch's rows are sel[0..count), each an
 * index into the vectors; otherwise rows 0..count. Filters only shrink the
 * selection; they never move data.
 *
 * Memory: vectors point at buffers allocated once when an operator starts
 * (vec_init) and reused for every batch; storage may point data (and
 * validity) straight at its own arrays (zero copy): writers then go through
 * vec_set_value/vec_set_null, which copy the bitmap into validity_buf first.
 */
#ifndef STRATA_COMMON_VECTOR_H
#define STRATA_COMMON_VECTOR_H

#include <stdbool.h>
#include <stdint.h>
#include "common/arena.h"
#include "common/types.h"

#define VEC_CAPACITY 2048 /* power of two: fits L1/L2 for a few columns */
#define VEC_VALIDITY_WORDS (VEC_CAPACITY / 64)

typedef struct Vector {
    SqlType type;
    PhysType phys;
    bool is_const;
    void *data;          /* VEC_CAPACITY values of phys (1 when is_const) */
    uint64_t *validity;  /* VEC_VALIDITY_WORDS words, or NULL = all valid */
    uint64_t *validity_buf; /* the vector's own bitmap buffer (validity may point here) */
} Vector;

typedef struct Batch {
    uint32_t count;   /* rows in the batch (after selection) */
    uint16_t *sel;    /* NULL, or count row indexes into the vectors */
    int ncols;
    Vector *cols;
} Batch;

/* Allocate a vector's buffers (data for VEC_CAPACITY values and a bitmap). */
void vec_init(Vector *v, SqlType type, MemArena *arena);
/* Allocate a batch with ncols vectors of the given types. */
Batch *batch_create(MemArena *arena, int ncols, const SqlType *types);

static inline bool vec_is_valid(const Vector *v, uint32_t row)
{
    if (v->is_const) row = 0;
    return v->validity == NULL || (v->validity[row >> 6] >> (row & 63)) & 1;
}
/* Mark row NULL (makes validity point at validity_buf, all-valid first). */
void vec_set_null(Vector *v, uint32_t row);
/* Forget NULLs: every row valid. */
static inline void vec_set_all_valid(Vector *v) { v->validity = NULL; }

/* Row index of the i-th active row of a batch. */
static inline uint32_t batch_row(const Batch *b, uint32_t i) { return b->sel ? b->sel[i] : i; }

/* Read one value (slow path: constants, tests, printing). */
void vec_get_value(const Vector *v, uint32_t row, Value *out);
/* Write one value (slow path). Strings are not copied. */
void vec_set_value(Vector *v, uint32_t row, const Value *val);

#endif
