/*
 * array.c — packed arrays of 1 to 6 dimensions (layout in array.h):
 * building, element access, PostgreSQL's array_in/array_out text forms
 * (nested braces, "[lb:ub]..." prefixes), ordering and hashing.
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
    if (flags & ARRAY_FLAG_DIMS) {
        uint32_t nd = arr_rd32(a.data);
        a.ndim = nd > ARRAY_MAX_DIMS ? ARRAY_MAX_DIMS : (int)nd;
        for (int d = 0; d < a.ndim; d++) {
            a.dims[d] = (int32_t)arr_rd32(a.data + 4 + 4 * (size_t)d);
            a.lbs[d] = (int32_t)arr_rd32(a.data + 4 + 4 * ((size_t)nd + d));
        }
        a.data += 4 + 8 * (size_t)nd;
    } else if (a.nelems > 0) {
        a.ndim = 1;
        a.dims[0] = (int32_t)a.nelems;
        a.lbs[0] = a.lbound;
    }
    if (flags & ARRAY_FLAG_NULLS) {
        a.nulls = (const uint8_t *)a.data;
        a.data += (a.nelems + 7) / 8;
    }
    if (a.elem_phys == PHYS_STR)
        a.bytes = a.data + 4 * ((size_t)a.nelems + 1);
    return a;
}

bool array_same_shape(const ArrayView *a, const ArrayView *b)
{
    if (a->ndim != b->ndim)
        return false;
    for (int d = 0; d < a->ndim; d++)
        if (a->dims[d] != b->dims[d] || a->lbs[d] != b->lbs[d])
            return false;
    return true;
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
    int32_t dim = (int32_t)n;
    return array_build_md(elem, 1, &dim, &lbound, n, vals, arena);
}

/* Write the packed elements of vals after the header + dims + bitmap. */
static void arr_pack_elems(char *p, PhysType ph, uint32_t n, const Value *vals)
{
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
        return;
    }
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

StrRef array_build_md(SqlType elem, int ndim, const int32_t *dims, const int32_t *lbs, uint32_t n,
                      const Value *vals, MemArena *arena)
{
    PhysType ph = type_phys(elem);
    bool has_nulls = false;
    size_t bitmap, data_len = 0, total, dimblock;
    uint32_t flags;
    int32_t lbound;
    char *blob, *p;
    if (ndim > ARRAY_MAX_DIMS)
        err_raise(ERRCODE_PROGRAM_LIMIT_EXCEEDED,
                  "number of array dimensions (%d) exceeds the maximum allowed (%d)", ndim, ARRAY_MAX_DIMS);
    if (n > ARRAY_MAX_ELEMS)
        err_raise(ERRCODE_PROGRAM_LIMIT_EXCEEDED,
                  "array size exceeds the maximum allowed (%u)", ARRAY_MAX_ELEMS);
    if (n == 0 || ndim <= 0)
        ndim = 0, n = 0;
    lbound = ndim > 0 ? lbs[0] : 1;
    dimblock = ndim > 1 ? 4 + 8 * (size_t)ndim : 0;
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
    total = ARRAY_HEADER_SIZE + dimblock + bitmap + data_len;
    if (total > UINT32_MAX)
        err_raise(ERRCODE_PROGRAM_LIMIT_EXCEEDED, "array size exceeds the maximum allowed");
    blob = mem_alloc(arena, total);
    memset(blob, 0, ARRAY_HEADER_SIZE + dimblock + bitmap);
    flags = (has_nulls ? ARRAY_FLAG_NULLS : 0) | (dimblock ? ARRAY_FLAG_DIMS : 0);
    memcpy(blob, &elem.oid, 4);
    memcpy(blob + 4, &lbound, 4);
    memcpy(blob + 8, &n, 4);
    memcpy(blob + 12, &flags, 4);
    if (dimblock) {
        uint32_t nd = (uint32_t)ndim;
        memcpy(blob + ARRAY_HEADER_SIZE, &nd, 4);
        memcpy(blob + ARRAY_HEADER_SIZE + 4, dims, 4 * (size_t)ndim);
        memcpy(blob + ARRAY_HEADER_SIZE + 4 + 4 * (size_t)ndim, lbs, 4 * (size_t)ndim);
    }
    p = blob + ARRAY_HEADER_SIZE + dimblock;
    arr_pack_elems(p + bitmap, ph, n, vals);
    for (uint32_t i = 0; has_nulls && i < n; i++)
        if (vals[i].is_null)
            p[i / 8] |= (char)(1u << (i % 8));
    return (StrRef){blob, (uint32_t)total};
}

static _Noreturn void arr_dims_mismatch(void)
{
    err_raise(ERRCODE_ARRAY_SUBSCRIPT_ERROR,
              "multidimensional arrays must have array expressions with matching dimensions");
}

StrRef array_build_nested(SqlType elem, uint32_t n, const Value *subs, MemArena *arena)
{
    ArrayView first;
    uint32_t nonempty = 0, total = 0, k = 0;
    bool have_empty = false;
    for (uint32_t i = 0; i < n; i++) {
        ArrayView v;
        if (subs[i].is_null || (v = array_view(subs[i].u.str)).nelems == 0) {
            have_empty = true;
            continue;
        }
        if (nonempty++ == 0)
            first = v;
        else if (!array_same_shape(&first, &v))
            arr_dims_mismatch();
        total += v.nelems;
    }
    if (nonempty == 0)
        return array_build(elem, 1, 0, NULL, arena);
    if (have_empty)
        arr_dims_mismatch();
    if (first.ndim + 1 > ARRAY_MAX_DIMS)
        err_raise(ERRCODE_PROGRAM_LIMIT_EXCEEDED,
                  "number of array dimensions (%d) exceeds the maximum allowed (%d)", first.ndim + 1,
                  ARRAY_MAX_DIMS);
    if ((uint64_t)total > ARRAY_MAX_ELEMS)
        err_raise(ERRCODE_PROGRAM_LIMIT_EXCEEDED, "array size exceeds the maximum allowed (%u)", ARRAY_MAX_ELEMS);
    int32_t dims[ARRAY_MAX_DIMS], lbs[ARRAY_MAX_DIMS];
    dims[0] = (int32_t)nonempty;
    lbs[0] = 1;
    memcpy(dims + 1, first.dims, sizeof(int32_t) * (size_t)first.ndim);
    memcpy(lbs + 1, first.lbs, sizeof(int32_t) * (size_t)first.ndim);
    Value *vals = mem_alloc(arena, sizeof(Value) * total);
    for (uint32_t i = 0; i < n; i++) {
        if (subs[i].is_null)
            continue;
        ArrayView v = array_view(subs[i].u.str);
        for (uint32_t e = 0; e < v.nelems; e++)
            array_get(&v, e, &vals[k++]);
    }
    return array_build_md(elem, first.ndim + 1, dims, lbs, total, vals, arena);
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

/* Parse the optional "[lb:ub][lb:ub]...=" prefix (whitespace allowed
 * between items, as PostgreSQL); returns the index after '=' or i. */
static size_t arr_dims(const char *s, size_t len, size_t i, int *ndim, int32_t *dims, int32_t *lbs)
{
    *ndim = 0;
    for (;;) {
        int64_t v[2] = {1, 0};
        while (i < len && arr_isspace(s[i]))
            i++;
        if (i >= len || s[i] != '[')
            break;
        i++;
        if (*ndim >= ARRAY_MAX_DIMS)
            err_raise(ERRCODE_PROGRAM_LIMIT_EXCEEDED,
                      "number of array dimensions (%d) exceeds the maximum allowed (%d)", *ndim + 1,
                      ARRAY_MAX_DIMS);
        for (int k = 0;; k++) {
            bool neg = false, digits = false;
            int64_t x = 0;
            if (i < len && (s[i] == '-' || s[i] == '+'))
                neg = s[i++] == '-', digits = true;
            for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, digits = true)
                x = x < INT32_MAX ? x * 10 + (s[i] - '0') : x;
            if (!digits)
                arr_malformed(s, len, k ? "Missing array dimension value."
                                        : "\"[\" must introduce explicitly-specified array dimensions.");
            v[1] = neg ? -x : x;
            if (k == 1 || i >= len || s[i] != ':')
                break;
            v[0] = v[1]; /* "[lb:ub]" */
            i++;
        }
        if (i >= len || s[i] != ']')
            arr_malformed(s, len, "Missing \"]\" after array dimensions.");
        i++;
        if (v[1] < v[0])
            err_raise(ERRCODE_ARRAY_SUBSCRIPT_ERROR, "upper bound cannot be less than lower bound");
        lbs[*ndim] = (int32_t)v[0];
        dims[*ndim] = (int32_t)(v[1] - v[0] + 1);
        (*ndim)++;
    }
    if (*ndim == 0)
        return i;
    if (i >= len || s[i] != '=')
        arr_malformed(s, len, "Missing \"=\" after array dimensions.");
    return i + 1;
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
    int ndim;          /* from the brace structure */
    int32_t dims[ARRAY_MAX_DIMS];
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

/* One element from s[i]; returns the index after it (at ',' or '}'). */
static size_t arr_element(ArrParse *ap, size_t i)
{
    const char *s = ap->s;
    char *out = ap->tmp + ap->tpos;
    size_t len = ap->len, n = 0, last_kept = 0;
    bool quoted_any = false, in_quotes = false, after_quote = false;
    for (; i < len; i++) {
        char c = s[i];
        if (!in_quotes && after_quote && !arr_isspace(c) && c != ',' && c != '}')
            arr_malformed(s, len, "Unexpected array element.");
        if (c == '\\') {
            if (++i >= len)
                arr_malformed(s, len, "Unexpected end of input.");
            out[n++] = s[i];
            last_kept = n;
        } else if (c == '"') {
            if (!in_quotes && n > 0)
                arr_malformed(s, len, "Unexpected array element.");
            in_quotes = !in_quotes;
            after_quote = !in_quotes;
            quoted_any = true;
            last_kept = n;
        } else if (in_quotes) {
            out[n++] = c;
            last_kept = n;
        } else if (c == ',' || c == '}') {
            break;
        } else if (c == '{') {
            arr_malformed(s, len, "Unexpected \"{\" character.");
        } else if (arr_isspace(c)) {
            if (n > 0)
                out[n++] = c;
        } else {
            out[n++] = c;
            last_kept = n;
        }
    }
    if (in_quotes || i >= len)
        arr_malformed(s, len, "Unexpected end of input.");
    n = last_kept; /* trailing unquoted whitespace is dropped */
    arr_push_raw(ap, out, n, !quoted_any && n == 4 && strncasecmp(out, "null", 4) == 0);
    ap->tpos += n;
    return i;
}

/* Where the brace scanner stands (PostgreSQL's ArrayParseState). */
typedef enum ArrState {
    ARR_NO_LEVEL, ARR_LEVEL_STARTED, ARR_ELEM_DONE, ARR_LEVEL_DONE, ARR_ELEM_DELIM, ARR_LEVEL_DELIM
} ArrState;

static _Noreturn void arr_unexpected(const ArrParse *ap, char c)
{
    char detail[32];
    snprintf(detail, sizeof detail, "Unexpected \"%c\" character.", c);
    arr_malformed(ap->s, ap->len, detail);
}

/* Close the level at depth `level`, which held n items: every sub-array
 * of one depth must hold the same number (last[] remembers it). */
static void arr_close_level(const ArrParse *ap, int32_t *last, int level, int32_t n)
{
    if (last[level] >= 0 && last[level] != n)
        arr_malformed(ap->s, ap->len,
                      "Multidimensional arrays must have sub-arrays with matching dimensions.");
    last[level] = n;
}

/* Pass 1 over "{...}" at ap->s: the raw elements in storage order and the
 * dimensions (ap->ndim, ap->dims), with PostgreSQL 15's state checks and
 * error details; only whitespace may follow the closing brace. */
static void arr_structure(ArrParse *ap)
{
    const char *s = ap->s;
    size_t i = 0, len = ap->len;
    int level = 0;
    int32_t count[ARRAY_MAX_DIMS], last[ARRAY_MAX_DIMS];
    ArrState st = ARR_NO_LEVEL;
    for (int d = 0; d < ARRAY_MAX_DIMS; d++)
        last[d] = -1;
    ap->ndim = 0;
    for (;;) {
        if (i >= len)
            arr_malformed(s, len, "Unexpected end of input.");
        char c = s[i];
        if (c == '{') {
            if (st != ARR_NO_LEVEL && st != ARR_LEVEL_STARTED && st != ARR_LEVEL_DELIM)
                arr_unexpected(ap, c);
            if (level >= ARRAY_MAX_DIMS)
                err_raise(ERRCODE_PROGRAM_LIMIT_EXCEEDED,
                          "number of array dimensions (%d) exceeds the maximum allowed (%d)", level + 1,
                          ARRAY_MAX_DIMS);
            count[level++] = 0;
            if (ap->ndim < level)
                ap->ndim = level;
            st = ARR_LEVEL_STARTED;
        } else if (c == '}') {
            if (st != ARR_ELEM_DONE && st != ARR_LEVEL_DONE && !(level == 1 && st == ARR_LEVEL_STARTED))
                arr_unexpected(ap, c);
            level--;
            arr_close_level(ap, last, level, st == ARR_LEVEL_STARTED ? 0 : count[level] + 1);
            st = ARR_LEVEL_DONE;
            if (level == 0) {
                i++;
                break;
            }
        } else if (c == ',') {
            if (st != ARR_ELEM_DONE && st != ARR_LEVEL_DONE)
                arr_unexpected(ap, c);
            count[level - 1]++;
            st = st == ARR_LEVEL_DONE ? ARR_LEVEL_DELIM : ARR_ELEM_DELIM;
        } else if (!arr_isspace(c)) {
            if (st != ARR_LEVEL_STARTED && st != ARR_ELEM_DELIM)
                arr_malformed(s, len, c == '\\' ? "Unexpected \"\\\" character." : "Unexpected array element.");
            i = arr_element(ap, i);
            st = ARR_ELEM_DONE;
            continue;
        }
        i++;
    }
    while (i < len && arr_isspace(s[i]))
        i++;
    if (i < len)
        arr_malformed(s, len, "Junk after closing right brace.");
    uint64_t product = 1;
    for (int d = 0; d < ap->ndim; d++)
        product *= (uint64_t)(ap->dims[d] = last[d]);
    if (ap->n == 0)
        ap->ndim = 0;
    else if (product != ap->n)
        arr_malformed(s, len, "Multidimensional arrays must have sub-arrays with matching dimensions.");
}

StrRef array_in(SqlType array_type, const char *s, size_t len, MemArena *arena)
{
    ArrParse ap = {NULL, 0, arena, NULL, 0, 0, NULL, 0, 0, {0}};
    SqlType elem = SQLTYPE(type_element_of(array_type.oid));
    size_t i = 0;
    int ndim;
    int32_t dims[ARRAY_MAX_DIMS], lbs[ARRAY_MAX_DIMS];
    elem.typmod = array_type.typmod;
    if (elem.oid == TYPE_INVALID)
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "type with OID %u is not supported",
                  (unsigned)array_type.oid);
    while (i < len && arr_isspace(s[i]))
        i++;
    i = arr_dims(s, len, i, &ndim, dims, lbs);
    while (i < len && arr_isspace(s[i]))
        i++;
    if (i >= len || s[i] != '{')
        arr_malformed(s, len, ndim ? "Array contents must start with \"{\"."
                                   : "Array value must start with \"{\" or dimension information.");
    ap.s = s + i;
    ap.len = len - i;
    ap.tmp = mem_alloc(arena, ap.len + 1);
    arr_structure(&ap);
    if (ndim > 0) {
        bool match = ap.ndim == ndim;
        for (int d = 0; match && d < ndim; d++)
            match = dims[d] == ap.dims[d];
        if (!match)
            arr_malformed(s, len, "Specified array dimensions do not match array contents.");
    } else {
        for (int d = 0; d < ap.ndim; d++)
            lbs[d] = 1;
    }
    for (uint32_t k = 0; k < ap.n; k++) { /* pass 2: the element values */
        StrRef raw = ap.vals[k].u.str;
        if (!ap.vals[k].is_null)
            type_input(elem, raw.ptr, raw.len, arena, &ap.vals[k]);
    }
    return array_build_md(elem, ap.ndim, ap.dims, lbs, ap.n, ap.vals, arena);
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
    int32_t idx[ARRAY_MAX_DIMS] = {0};
    bool lbs_default = true;
    for (int d = 0; d < a.ndim; d++)
        lbs_default &= a.lbs[d] == 1;
    if (!lbs_default) {
        for (int d = 0; d < a.ndim; d++) {
            char dims[48];
            int n = snprintf(dims, sizeof dims, "[%d:%lld]", (int)a.lbs[d],
                             (long long)a.lbs[d] + a.dims[d] - 1);
            strbuf_append(out, dims, (size_t)n);
        }
        strbuf_append_char(out, '=');
    }
    if (a.ndim == 0) {
        strbuf_append(out, "{}", 2);
        return;
    }
    for (int d = 0; d < a.ndim; d++)
        strbuf_append_char(out, '{');
    for (uint32_t i = 0; i < a.nelems; i++) {
        Value v;
        size_t start;
        array_get(&a, i, &v);
        if (v.is_null) {
            strbuf_append(out, "NULL", 4);
        } else {
            start = out->len;
            type_output(et, &v, opt, out);
            if (arr_needs_quotes(out->data + start, out->len - start))
                arr_quote_tail(out, start);
        }
        /* advance the subscripts (last fastest): close a brace per dimension
         * that wrapped, then ',' and reopen them */
        int d = a.ndim - 1, closed = 0;
        while (d >= 0 && ++idx[d] == a.dims[d]) {
            idx[d--] = 0;
            closed++;
            strbuf_append_char(out, '}');
        }
        if (d < 0)
            break;
        strbuf_append_char(out, ',');
        for (int k = 0; k < closed; k++)
            strbuf_append_char(out, '{');
    }
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
    if (x.ndim != y.ndim)
        return x.ndim < y.ndim ? -1 : 1;
    for (int d = 0; d < x.ndim; d++)
        if (x.dims[d] != y.dims[d])
            return x.dims[d] < y.dims[d] ? -1 : 1;
    for (int d = 0; d < x.ndim; d++)
        if (x.lbs[d] != y.lbs[d])
            return x.lbs[d] < y.lbs[d] ? -1 : 1;
    return 0;
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
    for (int d = 1; d < x.ndim; d++)   /* 1-D hashes stay as before */
        h = h * 31 + (uint64_t)(uint32_t)x.dims[d];
    return hash_u64(h);
}
