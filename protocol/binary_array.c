/*
 * binary_array.c — the binary wire forms of arrays and json/jsonb
 * (PostgreSQL's array_send/array_recv, json_send/jsonb_send and their recv),
 * which psycopg 3 in binary mode, JDBC and node-postgres use for list
 * parameters and array results.
 *
 * Array wire form (all big-endian): int32 ndim, int32 has-nulls flag,
 * uint32 element type OID, ndim × (int32 length, int32 lower bound), then
 * per element int32 length (-1 = NULL) and the element's own binary form.
 * ndim 0 is the empty array; up to 6 dimensions (common/array.h keeps
 * the dimensions and lower bounds; elements in row-major order). Elements
 * go through the scalar binary forms of extended.c/results.c, so an array
 * type is binary-capable exactly when its element type is.
 *
 * json's binary form is its text; jsonb's is a version byte (1) and the text.
 */
#define STRATA_PROTOCOL_INTERNAL
#include "protocol/proto_int.h"

#include <string.h>
#include "common/array.h"
#include "common/error.h"
#include "common/typio.h"
#include "common/utf8.h"
#include "common/types.h"

#define ARRAY_WIRE_MAX_DIMS 6     /* PostgreSQL's MAXDIM */
#define JSONB_WIRE_VERSION 1

static void put32(char *p, uint32_t v)
{
    p[0] = (char)(v >> 24);
    p[1] = (char)(v >> 16);
    p[2] = (char)(v >> 8);
    p[3] = (char)v;
}

static uint32_t get32(const unsigned char *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

StrRef proto_json_send(uint32_t type_oid, StrRef text, MemArena *arena)
{
    if (type_oid != TYPE_JSONB)
        return text;
    char *out = mem_alloc(arena, (size_t)text.len + 1);
    out[0] = JSONB_WIRE_VERSION;
    if (text.len)
        memcpy(out + 1, text.ptr, text.len);
    return (StrRef){out, text.len + 1};
}

void proto_json_recv(SqlType t, const char *data, size_t len, MemArena *arena, Value *out)
{
    if (t.oid == TYPE_JSONB) {
        if (len < 1 || (unsigned char)data[0] != JSONB_WIRE_VERSION)
            err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "unsupported jsonb version number %d",
                      len < 1 ? 0 : (unsigned char)data[0]);
        data++;
        len--;
    }
    utf8_verify(data, len);   /* json_recv's pq_getmsgtext */
    type_input(t, data, len, arena, out);
}

/* One element's binary form (bytes in arena); the value is not NULL. */
static StrRef elem_send(SqlType elem, const Value *v, MemArena *arena)
{
    const TypeInfo *ti = type_info(elem.oid);
    if (ti->phys == PHYS_STR) {
        if (elem.oid == TYPE_NUMERIC)
            return proto_numeric_send(v->u.str, arena);
        if (elem.oid == TYPE_INTERVAL)
            return proto_interval_send(v->u.str, arena);
        if (elem.oid == TYPE_JSON || elem.oid == TYPE_JSONB)
            return proto_json_send(elem.oid, v->u.str, arena);
        return v->u.str;
    }
    size_t size = phys_size(ti->phys);
    char *out = mem_alloc(arena, size);
    const unsigned char *src = (const unsigned char *)&v->u;   /* every member starts at offset 0 */
    for (size_t i = 0; i < size; i++)
        out[i] = (char)src[size - 1 - i];
    return (StrRef){out, (uint32_t)size};
}

StrRef proto_array_send(StrRef blob, MemArena *arena)
{
    ArrayView av = array_view(blob);
    SqlType elem = {av.elem_oid, -1};
    StrRef *parts = mem_alloc(arena, sizeof(StrRef) * ((size_t)av.nelems + 1));
    size_t total = av.nelems ? 20 : 12;
    for (uint32_t i = 0; i < av.nelems; i++) {
        Value v;
        array_get(&av, i, &v);
        parts[i] = v.is_null ? (StrRef){NULL, 0} : elem_send(elem, &v, arena);
        total += 4 + parts[i].len;
    }
    total += av.ndim > 1 ? 8 * (size_t)(av.ndim - 1) : 0;
    char *out = mem_alloc(arena, total);
    put32(out, (uint32_t)av.ndim);
    put32(out + 4, av.nulls ? 1 : 0);
    put32(out + 8, av.elem_oid);
    char *p = out + 12;
    for (int d = 0; d < av.ndim; d++) {
        put32(p, (uint32_t)av.dims[d]);
        put32(p + 4, (uint32_t)av.lbs[d]);
        p += 8;
    }
    for (uint32_t i = 0; i < av.nelems; i++) {
        put32(p, parts[i].ptr ? parts[i].len : UINT32_MAX);
        p += 4;
        if (parts[i].ptr && parts[i].len) {
            memcpy(p, parts[i].ptr, parts[i].len);
            p += parts[i].len;
        }
    }
    return (StrRef){out, (uint32_t)total};
}

/* Bounds-checked reader over a binary parameter. */
typedef struct WireReader {
    const unsigned char *p;
    size_t left;
} WireReader;

static uint32_t wire_u32(WireReader *r)
{
    if (r->left < 4)
        err_raise(ERRCODE_PROTOCOL_VIOLATION, "insufficient data left in message");
    uint32_t v = get32(r->p);
    r->p += 4;
    r->left -= 4;
    return v;
}

void proto_array_recv(SqlType t, const char *data, size_t len, int idx, MemArena *arena, Value *out)
{
    WireReader r = {(const unsigned char *)data, len};
    int32_t ndim = (int32_t)wire_u32(&r);
    uint32_t flags = wire_u32(&r);
    uint32_t elem_oid = wire_u32(&r);
    if (ndim < 0 || ndim > ARRAY_WIRE_MAX_DIMS)
        err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "invalid number of dimensions: %d", ndim);
    if (flags != 0 && flags != 1)
        err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "invalid array flags");
    SqlType elem = {type_element_of(t.oid), t.typmod};
    if (elem_oid != elem.oid)
        err_raise(ERRCODE_DATATYPE_MISMATCH, "binary data has array element type %u (%s) instead of expected %u (%s)",
                  elem_oid, type_info(elem_oid) ? type_info(elem_oid)->sql_name : "unknown", elem.oid,
                  type_info(elem.oid)->sql_name);
    uint32_t n = ndim > 0 ? 1 : 0;
    int32_t dims[ARRAY_WIRE_MAX_DIMS], lbs[ARRAY_WIRE_MAX_DIMS];
    for (int d = 0; d < ndim; d++) {   /* PostgreSQL's array_recv checks */
        dims[d] = (int32_t)wire_u32(&r);
        lbs[d] = (int32_t)wire_u32(&r);
        if (dims[d] < 0)
            err_raise(ERRCODE_PROGRAM_LIMIT_EXCEEDED, "array size exceeds the maximum allowed (%d)",
                      (int)ARRAY_MAX_ELEMS);
        if (dims[d] != 0 && (int64_t)lbs[d] + dims[d] - 1 > INT32_MAX)
            err_raise(ERRCODE_PROGRAM_LIMIT_EXCEEDED, "array upper bound is too large: %d", dims[d]);
        if ((uint64_t)n * (uint32_t)dims[d] > ARRAY_MAX_ELEMS)
            err_raise(ERRCODE_PROGRAM_LIMIT_EXCEEDED, "array size exceeds the maximum allowed (%d)",
                      (int)ARRAY_MAX_ELEMS);
        n *= (uint32_t)dims[d];
    }
    Value *vals = mem_calloc(arena, (size_t)n + 1, sizeof(Value));
    for (uint32_t i = 0; i < n; i++) {
        int32_t elen = (int32_t)wire_u32(&r);
        if (elen == -1) {
            vals[i].is_null = true;
            continue;
        }
        if (elen < 0 || (size_t)elen > r.left)
            err_raise(ERRCODE_INVALID_BINARY_REPRESENTATION, "insufficient data left in message");
        proto_binary_param(elem, (const char *)r.p, (size_t)elen, idx, arena, &vals[i]);
        r.p += elen;
        r.left -= (size_t)elen;
    }
    if (r.left)
        err_raise(ERRCODE_INVALID_BINARY_REPRESENTATION,
                  "incorrect binary data format in bind parameter %d", idx + 1);
    out->is_null = false;
    out->u.str = array_build_md(elem, ndim, dims, lbs, n, vals, arena);
}
