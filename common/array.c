/*
 * array.c — packed one-dimensional arrays (layout in array.h): building,
 * element access, PostgreSQL's array_in/array_out text forms, ordering
 * and hashing.
 *
 * Why a packed blob: arrays then travel through vectors, storage and run
 * files as any PHYS_STR value (no new physical type for every layer to
 * handle), and subscripting is O(1) (fixed-width elements or an offsets
 * table).
 */
#include "common/array.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "common/error.h"
#include "common/typio.h"

static uint32_t arr_rd32(const char *p)
{
    uint32_t x;
    memcpy(&x, p, 4);
    return x;
}

ArrayView array_view(StrRef blob)
{
    ArrayView a;
    uint32_t flags;
    memset(&a, 0, sizeof a);
    if (blob.len < ARRAY_HEADER_SIZE) {
        a.elem_phys = PHYS_STR;
        return a;
    }
    a.elem_oid = arr_rd32(blob.ptr);
    a.lbound = (int32_t)arr_rd32(blob.ptr + 4);
    a.nelems = arr_rd32(blob.ptr + 8);
    flags = arr_rd32(blob.ptr + 12);
    a.elem_phys = type_phys(SQLTYPE(a.elem_oid));
    a.data = blob.ptr + ARRAY_HEADER_SIZE;
    if (flags & ARRAY_FLAG_NULLS) {
        a.nulls = (const uint8_t *)a.data;
        a.data += (a.nelems + 7) / 8;
    }
    if (a.elem_phys == PHYS_STR)
        a.bytes = a.data + 4 * ((size_t)a.nelems + 1);
    return a;
}

void array_get(const ArrayView *a, uint32_t i, Value *out)
{
    memset(out, 0, sizeof *out);
    if (array_is_null(a, i)) {
        out->is_null = true;
        return;
    }
    switch (a->elem_phys) {
    case PHYS_BOOL: out->u.b = a->data[i] != 0; return;
    case PHYS_I16: memcpy(&out->u.i16, a->data + 2 * (size_t)i, 2); return;
    case PHYS_I32: memcpy(&out->u.i32, a->data + 4 * (size_t)i, 4); return;
    case PHYS_I64: memcpy(&out->u.i64, a->data + 8 * (size_t)i, 8); return;
    case PHYS_F32: memcpy(&out->u.f32, a->data + 4 * (size_t)i, 4); return;
    case PHYS_F64: memcpy(&out->u.f64, a->data + 8 * (size_t)i, 8); return;
    case PHYS_STR: {
        uint32_t b = arr_rd32(a->data + 4 * (size_t)i), e = arr_rd32(a->data + 4 * (size_t)i + 4);
        out->u.str.ptr = a->bytes + b;
        out->u.str.len = e - b;
        return;
    }
    }
}

/* Bytes of one element's value in the packed data (fixed width). */
static size_t arr_elem_width(PhysType p)
{
    return p == PHYS_STR ? 0 : phys_size(p);
}

StrRef array_build(SqlType elem, int32_t lbound, uint32_t n, const Value *vals, MemArena *arena)
{
    PhysType ph = type_phys(elem);
    bool has_nulls = false;
    size_t bitmap, data_len = 0, total;
    uint32_t flags;
    char *blob, *p;
    if (n > ARRAY_MAX_ELEMS)
        err_raise(ERRCODE_PROGRAM_LIMIT_EXCEEDED,
                  "array size exceeds the maximum allowed (%u)", ARRAY_MAX_ELEMS);
    for (uint32_t i = 0; i < n; i++) {
        has_nulls |= vals[i].is_null;
        if (ph == PHYS_STR && !vals[i].is_null)
            data_len += vals[i].u.str.len;
    }
    bitmap = has_nulls ? (n + 7) / 8 : 0;
    if (ph == PHYS_STR)
        data_len += 4 * ((size_t)n + 1);
    else
        data_len = (size_t)n * arr_elem_width(ph);
    total = ARRAY_HEADER_SIZE + bitmap + data_len;
    if (total > UINT32_MAX)
        err_raise(ERRCODE_PROGRAM_LIMIT_EXCEEDED, "array size exceeds the maximum allowed");
    blob = mem_alloc(arena, total);
    memset(blob, 0, ARRAY_HEADER_SIZE + bitmap);
    flags = has_nulls ? ARRAY_FLAG_NULLS : 0;
    memcpy(blob, &elem.oid, 4);
    memcpy(blob + 4, &lbound, 4);
    memcpy(blob + 8, &n, 4);
    memcpy(blob + 12, &flags, 4);
    p = blob + ARRAY_HEADER_SIZE + bitmap;
    if (ph == PHYS_STR) {
        char *bytes = p + 4 * ((size_t)n + 1);
        uint32_t off = 0;
        for (uint32_t i = 0; i < n; i++) {
            memcpy(p + 4 * (size_t)i, &off, 4);
            if (vals[i].is_null)
                continue;
            if (vals[i].u.str.len)
                memcpy(bytes + off, vals[i].u.str.ptr, vals[i].u.str.len);
            off += vals[i].u.str.len;
        }
        memcpy(p + 4 * (size_t)n, &off, 4);
    } else {
        size_t w = arr_elem_width(ph);
        for (uint32_t i = 0; i < n; i++) {
            if (vals[i].is_null)
                memset(p + w * i, 0, w);
            else if (ph == PHYS_BOOL)
                p[i] = vals[i].u.b ? 1 : 0;
            else
                memcpy(p + w * i, &vals[i].u, w);
        }
    }
    for (uint32_t i = 0; has_nulls && i < n; i++)
        if (vals[i].is_null)
            blob[ARRAY_HEADER_SIZE + i / 8] |= (char)(1u << (i % 8));
    return (StrRef){blob, (uint32_t)total};
}

/* ---- text input ---- */

static bool arr_isspace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static _Noreturn void arr_malformed(const char *s, size_t len, const char *detail)
{
    ErrorData *e = err_begin(ERRCODE_INVALID_TEXT_REPRESENTATION);
    err_message(e, "malformed array literal: \"%.*s\"", (int)len, s);
    err_detail(e, "%s", detail);
    err_throw();
}

/* Parse an optional "[lb:ub]=" or "[ub]=" prefix; returns the index after it. */
static size_t arr_dims(const char *s, size_t len, size_t i, int32_t *lb, int64_t *ub, bool *have)
{
    const char *what = "\"[\" must introduce explicitly-specified array dimensions.";
    int64_t v[2] = {1, 0};
    int k = 0;
    *have = false;
    if (i >= len || s[i] != '[')
        return i;
    i++;
    for (;; k++) {
        bool neg = false, digits = false;
        int64_t x = 0;
        if (i < len && (s[i] == '-' || s[i] == '+'))
            neg = s[i++] == '-';
        for (; i < len && s[i] >= '0' && s[i] <= '9' && x < INT32_MAX; i++, digits = true)
            x = x * 10 + (s[i] - '0');
        if (!digits)
            arr_malformed(s, len, k ? "Missing array dimension value." : what);
        v[1] = neg ? -x : x;
        if (k == 1 || i >= len || s[i] != ':')
            break;
        v[0] = v[1]; /* "[lb:ub]" */
        i++;
    }
    if (i >= len || s[i] != ']')
        arr_malformed(s, len, "Missing \"]\" in array dimensions.");
    i++;
    if (i < len && s[i] == '[')
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "multidimensional arrays are not supported");
    while (i < len && arr_isspace(s[i]))
        i++;
    if (i >= len || s[i] != '=')
        arr_malformed(s, len, "Missing \"=\" after array dimensions.");
    i++;
    if (v[1] < v[0])
        err_raise(ERRCODE_ARRAY_SUBSCRIPT_ERROR, "upper bound cannot be less than lower bound");
    *lb = (int32_t)v[0];
    *ub = v[1];
    *have = true;
    return i;
}

/*
 * Parsing runs in two passes as PostgreSQL's array_in: the structure first
 * (so a malformed literal is reported as such even when an element would
 * also fail), then each element through its type's input function.
 * Structure errors quote the text from the opening brace on (PostgreSQL's
 * message shows the string after any "[lb:ub]=" prefix).
 */
typedef struct ArrParse {
    const char *s;     /* from the opening brace */
    size_t len;
    MemArena *arena;
    Value *vals;       /* pass 1: raw element text in u.str; pass 2: values */
    uint32_t n, cap;
    char *tmp;         /* de-escaped text of every element, back to back */
    size_t tpos;
} ArrParse;

static void arr_push_raw(ArrParse *ap, const char *text, size_t n, bool is_null)
{
    Value *v;
    if (ap->n == ap->cap) {
        uint32_t cap = ap->cap ? ap->cap * 2 : 16;
        Value *nv = mem_alloc(ap->arena, cap * sizeof *nv);
        if (ap->n)
            memcpy(nv, ap->vals, ap->n * sizeof *nv);
        ap->vals = nv;
        ap->cap = cap;
    }
    v = &ap->vals[ap->n++];
    memset(v, 0, sizeof *v);
    v->is_null = is_null;
    v->u.str.ptr = text;
    v->u.str.len = (uint32_t)n;
}

/* A nested '{': PostgreSQL would read a multidimensional array. Refuse it
 * with 0A000 when the literal starts "{{" and the braces balance, else
 * report it as malformed. */
static _Noreturn void arr_nested(const ArrParse *ap)
{
    int depth = 0;
    bool in_quotes = false;
    size_t i = 1;
    while (i < ap->len && arr_isspace(ap->s[i]))
        i++;
    if (i >= ap->len || ap->s[i] != '{')
        arr_malformed(ap->s, ap->len, "Unexpected \"{\" character.");
    i = 0;
    for (; i < ap->len; i++) {
        char c = ap->s[i];
        if (c == '\\')
            i++;
        else if (c == '"')
            in_quotes = !in_quotes;
        else if (!in_quotes && c == '{')
            depth++;
        else if (!in_quotes && c == '}' && --depth == 0)
            break;
    }
    if (depth != 0 || in_quotes)
        arr_malformed(ap->s, ap->len, "Unexpected end of input.");
    err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "multidimensional arrays are not supported");
}

/* One element from s[i]; returns the index after it (at ',' or '}'). */
static size_t arr_element(ArrParse *ap, size_t i)
{
    const char *s = ap->s;
    char *out = ap->tmp + ap->tpos;
    size_t len = ap->len, n = 0, last_kept = 0;
    bool quoted_any = false, in_quotes = false;
    for (; i < len; i++) {
        char c = s[i];
        if (c == '\\') {
            if (++i >= len)
                arr_malformed(s, len, "Unexpected end of input.");
            out[n++] = s[i];
            last_kept = n;
        } else if (c == '"') {
            if (!in_quotes && n > 0 && !quoted_any)
                arr_malformed(s, len, "Unexpected \"\"\" character.");
            in_quotes = !in_quotes;
            quoted_any = true;
            last_kept = n;
        } else if (in_quotes) {
            out[n++] = c;
            last_kept = n;
        } else if (c == ',' || c == '}') {
            break;
        } else if (c == '{') {
            arr_nested(ap);
        } else if (arr_isspace(c)) {
            if (n > 0)
                out[n++] = c;
        } else {
            if (quoted_any)
                arr_malformed(s, len, "Incorrectly quoted array element.");
            out[n++] = c;
            last_kept = n;
        }
    }
    if (in_quotes || i >= len)
        arr_malformed(s, len, "Unexpected end of input.");
    n = last_kept; /* trailing unquoted whitespace is dropped */
    if (!quoted_any && n == 0)
        arr_malformed(s, len, "Unexpected \",\" character.");
    arr_push_raw(ap, out, n, !quoted_any && n == 4 && strncasecmp(out, "null", 4) == 0);
    ap->tpos += n;
    return i;
}

/* Pass 1 over "{...}" at ap->s: the raw elements; returns the index after
 * the closing brace and trailing whitespace (must be the end). */
static void arr_structure(ArrParse *ap)
{
    const char *s = ap->s;
    size_t i = 1, len = ap->len;
    while (i < len && arr_isspace(s[i]))
        i++;
    if (i < len && s[i] == '}') {
        i++;
    } else {
        for (;;) {
            i = arr_element(ap, i);
            if (s[i++] == '}')
                break;
        }
    }
    while (i < len && arr_isspace(s[i]))
        i++;
    if (i < len)
        arr_malformed(s, len, "Junk after closing right brace.");
}

StrRef array_in(SqlType array_type, const char *s, size_t len, MemArena *arena)
{
    ArrParse ap = {NULL, 0, arena, NULL, 0, 0, NULL, 0};
    SqlType elem = SQLTYPE(type_element_of(array_type.oid));
    size_t i = 0;
    int32_t lb = 1;
    int64_t ub = 0;
    bool have_dims;
    elem.typmod = array_type.typmod;
    if (elem.oid == TYPE_INVALID)
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "type with OID %u is not supported",
                  (unsigned)array_type.oid);
    while (i < len && arr_isspace(s[i]))
        i++;
    i = arr_dims(s, len, i, &lb, &ub, &have_dims);
    while (i < len && arr_isspace(s[i]))
        i++;
    if (i >= len || s[i] != '{')
        arr_malformed(s, len, have_dims ? "Array contents must start with \"{\"."
                              : "Array value must start with \"{\" or dimension information.");
    ap.s = s + i;
    ap.len = len - i;
    ap.tmp = mem_alloc(arena, ap.len + 1);
    arr_structure(&ap);
    if (have_dims && (int64_t)ap.n != ub - lb + 1)
        arr_malformed(s, len, "Specified array dimensions do not match array contents.");
    for (uint32_t k = 0; k < ap.n; k++) { /* pass 2: the element values */
        StrRef raw = ap.vals[k].u.str;
        if (!ap.vals[k].is_null)
            type_input(elem, raw.ptr, raw.len, arena, &ap.vals[k]);
    }
    if (ap.n == 0)
        lb = 1;
    return array_build(elem, lb, ap.n, ap.vals, arena);
}

/* ---- text output ---- */

static bool arr_needs_quotes(const char *p, size_t n)
{
    if (n == 0 || (n == 4 && strncasecmp(p, "null", 4) == 0))
        return true;
    for (size_t i = 0; i < n; i++)
        if (p[i] == '{' || p[i] == '}' || p[i] == ',' || p[i] == '"' || p[i] == '\\' ||
            arr_isspace(p[i]))
            return true;
    return false;
}

/* Quote out's bytes from start on in place: "..." with \" and \\ escaped. */
static void arr_quote_tail(StrBuf *out, size_t start)
{
    size_t n = out->len - start, extra = 2;
    char *p;
    for (size_t k = 0; k < n; k++)
        extra += out->data[start + k] == '"' || out->data[start + k] == '\\';
    strbuf_reserve(out, extra);
    p = out->data + start;
    /* move from the end so nothing is overwritten before it is read */
    p[n + extra - 1] = '"';
    for (size_t k = n, w = n + extra - 1; k > 0; k--) {
        char c = p[k - 1];
        p[--w] = c;
        if (c == '"' || c == '\\')
            p[--w] = '\\';
    }
    p[0] = '"';
    out->len += extra;
    out->data[out->len] = '\0';
}

void array_out(StrRef blob, const struct OutputOptions *opt, StrBuf *out)
{
    ArrayView a = array_view(blob);
    SqlType et = SQLTYPE(a.elem_oid);
    if (a.nelems > 0 && a.lbound != 1) {
        char dims[48];
        int n = snprintf(dims, sizeof dims, "[%d:%lld]=", (int)a.lbound,
                         (long long)a.lbound + a.nelems - 1);
        strbuf_append(out, dims, (size_t)n);
    }
    strbuf_append_char(out, '{');
    for (uint32_t i = 0; i < a.nelems; i++) {
        Value v;
        size_t start;
        if (i > 0)
            strbuf_append_char(out, ',');
        array_get(&a, i, &v);
        if (v.is_null) {
            strbuf_append(out, "NULL", 4);
            continue;
        }
        start = out->len;
        type_output(et, &v, opt, out);
        if (arr_needs_quotes(out->data + start, out->len - start))
            arr_quote_tail(out, start);
    }
    strbuf_append_char(out, '}');
}

/* ---- ordering and hashing ---- */

int array_compare(StrRef a, StrRef b)
{
    ArrayView x = array_view(a), y = array_view(b);
    uint32_t n = x.nelems < y.nelems ? x.nelems : y.nelems;
    SqlType et = SQLTYPE(x.elem_oid);
    for (uint32_t i = 0; i < n; i++) {
        Value va, vb;
        int c;
        array_get(&x, i, &va);
        array_get(&y, i, &vb);
        if (va.is_null || vb.is_null) {
            if (va.is_null && vb.is_null)
                continue;
            return va.is_null ? 1 : -1;
        }
        if ((c = type_compare(et, &va, &vb)) != 0)
            return c;
    }
    if (x.nelems != y.nelems)
        return x.nelems < y.nelems ? -1 : 1;
    return x.lbound < y.lbound ? -1 : x.lbound > y.lbound;
}

uint64_t array_hash(StrRef a)
{
    ArrayView x = array_view(a);
    SqlType et = SQLTYPE(x.elem_oid);
    uint64_t h = UINT64_C(1);
    for (uint32_t i = 0; i < x.nelems; i++) {
        Value v;
        array_get(&x, i, &v);
        h = h * 31 + (v.is_null ? 0 : type_hash_value(et, &v));
    }
    return hash_u64(h);
}
