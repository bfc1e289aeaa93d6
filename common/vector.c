/*
 * vector.c — allocation and slow-path access of column vectors and batches.
 *
 * The hot paths (kernels, output) read v->data directly as a typed array;
 * the functions here are for set-up, constants and tests.
 */
#include "common/vector.h"

#include <string.h>

#include "common/error.h"

void vec_init(Vector *v, SqlType type, MemArena *arena)
{
    memset(v, 0, sizeof *v);
    v->type = type;
    v->phys = type_phys(type);
    v->is_const = false;
    v->data = mem_alloc(arena, phys_size(v->phys) * VEC_CAPACITY);
    v->validity_buf = mem_alloc(arena, sizeof(uint64_t) * VEC_VALIDITY_WORDS);
    v->validity = NULL;
}

Batch *batch_create(MemArena *arena, int ncols, const SqlType *types)
{
    Batch *b = MEM_NEW(arena, Batch);
    b->ncols = ncols;
    b->cols = MEM_NEW_ARRAY(arena, Vector, ncols > 0 ? (size_t)ncols : 1);
    for (int i = 0; i < ncols; i++)
        vec_init(&b->cols[i], types[i], arena);
    return b;
}

void vec_set_null(Vector *v, uint32_t row)
{
    ERR_ASSERT(v->validity_buf != NULL);
    if (v->is_const)
        row = 0;
    if (v->validity == NULL)
        memset(v->validity_buf, 0xff, sizeof(uint64_t) * VEC_VALIDITY_WORDS);
    else if (v->validity != v->validity_buf)
        memcpy(v->validity_buf, v->validity, sizeof(uint64_t) * VEC_VALIDITY_WORDS);
    v->validity = v->validity_buf;
    v->validity[row >> 6] &= ~(UINT64_C(1) << (row & 63));
}

void vec_get_value(const Vector *v, uint32_t row, Value *out)
{
    if (v->is_const)
        row = 0;
    memset(out, 0, sizeof *out);
    if (!vec_is_valid(v, row)) {
        out->is_null = true;
        return;
    }
    switch (v->phys) {
    case PHYS_BOOL: out->u.b = ((const uint8_t *)v->data)[row] != 0; break;
    case PHYS_I16: out->u.i16 = ((const int16_t *)v->data)[row]; break;
    case PHYS_I32: out->u.i32 = ((const int32_t *)v->data)[row]; break;
    case PHYS_I64: out->u.i64 = ((const int64_t *)v->data)[row]; break;
    case PHYS_F32: out->u.f32 = ((const float *)v->data)[row]; break;
    case PHYS_F64: out->u.f64 = ((const double *)v->data)[row]; break;
    case PHYS_STR: out->u.str = ((const StrRef *)v->data)[row]; break;
    }
}

void vec_set_value(Vector *v, uint32_t row, const Value *val)
{
    if (v->is_const)
        row = 0;
    if (val->is_null) {
        vec_set_null(v, row);
        return;
    }
    if (v->validity != NULL) {
        if (v->validity != v->validity_buf) {
            ERR_ASSERT(v->validity_buf != NULL);
            memcpy(v->validity_buf, v->validity, sizeof(uint64_t) * VEC_VALIDITY_WORDS);
            v->validity = v->validity_buf;
        }
        v->validity[row >> 6] |= UINT64_C(1) << (row & 63);
    }
    switch (v->phys) {
    case PHYS_BOOL: ((uint8_t *)v->data)[row] = val->u.b ? 1 : 0; break;
    case PHYS_I16: ((int16_t *)v->data)[row] = val->u.i16; break;
    case PHYS_I32: ((int32_t *)v->data)[row] = val->u.i32; break;
    case PHYS_I64: ((int64_t *)v->data)[row] = val->u.i64; break;
    case PHYS_F32: ((float *)v->data)[row] = val->u.f32; break;
    case PHYS_F64: ((double *)v->data)[row] = val->u.f64; break;
    case PHYS_STR: ((StrRef *)v->data)[row] = val->u.str; break;
    }
}
