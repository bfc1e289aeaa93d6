/*
 * array.h — arrays of the scalar types (1 to ARRAY_MAX_DIMS dimensions):
 * the packed binary form (a StrRef blob, PHYS_STR like text), building,
 * reading elements, and PostgreSQL's text form ('{1,2,NULL}',
 * '{{1,2},{3,4}}', '[0:1]={1,2}', array_in/array_out quoting).
 *
 * Packed form (native byte order; the blob may be unaligned, readers copy):
 *   header (16 bytes)       uint32 elem_oid, int32 lbound, uint32 nelems,
 *                           uint32 flags (ARRAY_FLAG_NULLS: a bitmap follows;
 *                           ARRAY_FLAG_DIMS: a dimension block follows)
 *   dimension block         only with ARRAY_FLAG_DIMS (ndim >= 2): uint32
 *                           ndim, int32 dims[ndim], int32 lbounds[ndim];
 *                           the header's lbound is lbounds[0] and nelems
 *                           the product of dims. One-dimensional arrays
 *                           never carry it, so their blobs are exactly the
 *                           format written before multidimensional arrays
 *                           existed (stored data stays readable).
 *   null bitmap             (nelems + 7) / 8 bytes, bit i set = element i is
 *                           NULL; present only with ARRAY_FLAG_NULLS
 *   fixed-width elements    nelems * phys_size(element phys), NULLs zeroed
 *   or, for PHYS_STR elements (text, numeric, interval, uuid, json, ...):
 *                           uint32 offsets[nelems + 1] (from the start of
 *                           the bytes), then the bytes of every element
 * An empty array has nelems 0 (its text is '{}', ndim 0); lbound is 1
 * unless the input said otherwise ('[0:1]={1,2}'). Elements are stored in
 * row-major order (the last subscript varies fastest), as PostgreSQL's.
 *
 * Memory: built arrays live in the caller's arena; an ArrayView points into
 * the blob; element StrRefs point into the blob too (no copy).
 */
#ifndef STRATA_COMMON_ARRAY_H
#define STRATA_COMMON_ARRAY_H

#include <stdbool.h>
#include <stdint.h>

#include "common/arena.h"
#include "common/strbuf.h"
#include "common/types.h"

#define ARRAY_HEADER_SIZE 16
#define ARRAY_FLAG_NULLS 1u
#define ARRAY_FLAG_DIMS 2u
#define ARRAY_MAX_DIMS 6   /* PostgreSQL's MAXDIM */
#define ARRAY_MAX_ELEMS (1u << 27) /* PostgreSQL's MaxArraySize is about 2^27 */

/* A decoded header plus pointers into the blob. */
typedef struct ArrayView {
    uint32_t elem_oid;
    int32_t lbound;
    uint32_t nelems;
    PhysType elem_phys;
    const uint8_t *nulls;   /* NULL when no element is NULL */
    const char *data;       /* fixed-width values, or the offsets table */
    const char *bytes;      /* PHYS_STR: start of the element bytes */
    int ndim;               /* 0 for an empty array */
    int32_t dims[ARRAY_MAX_DIMS];   /* length of each dimension */
    int32_t lbs[ARRAY_MAX_DIMS];    /* lower bound of each dimension */
} ArrayView;

/* Decode a blob (no validation beyond the lengths fitting; a blob written by
 * array_build is always well formed). */
ArrayView array_view(StrRef blob);
/* Element i (0-based) into out; out->is_null for a NULL element. String
 * elements point into the blob. */
void array_get(const ArrayView *a, uint32_t i, Value *out);
static inline bool array_is_null(const ArrayView *a, uint32_t i)
{
    return a->nulls != NULL && (a->nulls[i >> 3] >> (i & 7)) & 1;
}

/* Pack n values of type elem (NULLs allowed) with lower bound lbound into a
 * new blob in arena. String values are copied. Raises 54000 past
 * ARRAY_MAX_ELEMS elements. */
StrRef array_build(SqlType elem, int32_t lbound, uint32_t n, const Value *vals, MemArena *arena);
/* The same with ndim dimensions of lengths dims[] and lower bounds lbs[]
 * (n must be their product; ndim 0 or n 0 gives the empty array, ndim 1
 * the one-dimensional form). Raises 54000 past ARRAY_MAX_DIMS. */
StrRef array_build_md(SqlType elem, int ndim, const int32_t *dims, const int32_t *lbs, uint32_t n,
                      const Value *vals, MemArena *arena);
/* Shape check: true when a and b have the same ndim, dims and lower bounds. */
bool array_same_shape(const ArrayView *a, const ArrayView *b);
/* ARRAY[sub, sub, ...] over n array values (PostgreSQL's multidimensional
 * ArrayExpr): one more dimension of length n, lower bound 1, the
 * sub-arrays' shape below it. NULL and empty sub-arrays count as empty:
 * all empty gives the empty array, some empty or shapes that differ raise
 * 2202E "multidimensional arrays must have array expressions with matching
 * dimensions"; past 6 dimensions 54000. */
StrRef array_build_nested(SqlType elem, uint32_t n, const Value *subs, MemArena *arena);

/*
 * array_in: '{1,2,NULL}', '{"a b","c\"d",NULL,"NULL"}', '{}', '[0:2]={1,2,3}',
 * whitespace around elements; elements go through type_input of the element
 * type (with the array's typmod applied to each). Nested braces give
 * multidimensional arrays ('{{1,2},{3,4}}', '[0:1][1:2]={{1,2},{3,4}}').
 * Errors as PostgreSQL 15: 22P02 malformed array literal: "x" with its
 * DETAIL ("Multidimensional arrays must have sub-arrays with matching
 * dimensions.", "Unexpected \"{\" character.", ...), 54000 past 6
 * dimensions.
 */
StrRef array_in(SqlType array_type, const char *s, size_t len, MemArena *arena);
/* array_out: elements quoted when empty, "NULL" (any case), or containing
 * whitespace or one of {}," \ ; '\"' and '\\' escaped; a lower bound other
 * than 1 prefixes '[lb:ub]='. */
struct OutputOptions;
void array_out(StrRef blob, const struct OutputOptions *opt, StrBuf *out);

/* Ordering as PostgreSQL's btarraycmp: element by element in storage
 * order (NULL greater than any value), then the shorter array first, then
 * fewer dimensions, then each dimension's length, then the lower bounds. */
int array_compare(StrRef a, StrRef b);
uint64_t array_hash(StrRef a);

#endif
