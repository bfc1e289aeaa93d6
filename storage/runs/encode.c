/*
 * encode.c — encodings of column chunks (see encode.h and RUNS.md).
 *
 * Integers (and booleans) are widened to int64 once, then the sizes of
 * frame-of-reference (FOR), delta and run-length encodings are computed in
 * one pass and the smallest wins (plain when nothing beats it). Floats use
 * run-length or plain. Strings use a dictionary when it is smaller than
 * plain offsets + bytes. NULL slots take the previous valid value so they
 * neither widen a FOR range nor break a run.
 *
 * Bit-packed data is little-endian, value i at bit i*bits, followed by 8
 * bytes of zero padding so the decoder may load 8 bytes at any value's byte.
 */
#define STRATA_RUNS_INTERNAL
#include "storage/runs/encode.h"
#include "storage/runs/run_int.h"

#define DICT_MAX 65536u

static inline bool slot_valid(const uint64_t *validity, uint32_t i)
{
    return validity == NULL || (validity[i >> 6] >> (i & 63)) & 1;
}

static int bits_for(uint64_t range)
{
    return range == 0 ? 0 : 64 - __builtin_clzll(range);
}

static size_t packed_bytes(uint64_t n, int bits)
{
    return (size_t)((n * (uint64_t)bits + 63) / 64) * 8 + 8;
}

/* Pack (v[i] - base) for i < n, `bits` each, appending to out. */
static void pack_append(StrBuf *out, const int64_t *v, uint32_t n, uint64_t base, int bits)
{
    size_t bytes = packed_bytes(n, bits);
    strbuf_reserve(out, bytes);
    uint8_t *dst = (uint8_t *)out->data + out->len;
    memset(dst, 0, bytes);
    if (bits > 0) {
        uint64_t acc = 0;
        int fill = 0;
        size_t w = 0;
        for (uint32_t i = 0; i < n; i++) {
            uint64_t x = (uint64_t)v[i] - base;
            acc |= x << fill;
            if (fill + bits >= 64) {
                run__put64(dst + 8 * w++, acc);
                acc = fill == 0 ? 0 : x >> (64 - fill);
                fill = fill + bits - 64;
            } else {
                fill += bits;
            }
        }
        if (fill > 0)
            run__put64(dst + 8 * w, acc);
    }
    out->len += bytes;
}

static void put_u8(StrBuf *out, uint8_t v) { strbuf_append(out, &v, 1); }
static void put_u32(StrBuf *out, uint32_t v) { strbuf_append(out, &v, 4); }
static void put_u64(StrBuf *out, uint64_t v) { strbuf_append(out, &v, 8); }

static int64_t *widen_ints(PhysType p, const void *values, const uint64_t *validity, uint32_t n,
                           MemArena *scratch)
{
    int64_t *v = mem_alloc(scratch, (size_t)n * 8 + 8);
    int64_t prev = 0;
    bool seen = false;
    for (uint32_t i = 0; i < n; i++) {
        int64_t x;
        switch (p) {
        case PHYS_BOOL: x = ((const uint8_t *)values)[i]; break;
        case PHYS_I16: x = ((const int16_t *)values)[i]; break;
        case PHYS_I32: x = ((const int32_t *)values)[i]; break;
        default: x = ((const int64_t *)values)[i]; break;
        }
        if (!slot_valid(validity, i)) {
            x = prev;
        } else if (!seen) {
            for (uint32_t j = 0; j < i; j++) /* leading NULLs take the first value */
                v[j] = x;
            seen = true;
        }
        v[i] = prev = x;
    }
    return v;
}

static void write_rle(StrBuf *out, const int64_t *v, uint32_t n, size_t width, uint64_t runs)
{
    put_u32(out, (uint32_t)runs);
    size_t at = out->len;
    strbuf_reserve(out, runs * (width + 4));
    out->len += runs * (width + 4);
    uint8_t *vals = (uint8_t *)out->data + at, *lens = vals + runs * width;
    uint32_t r = 0, len = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (i > 0 && v[i] != v[i - 1]) {
            run__put32(lens + 4 * r++, len);
            len = 0;
        }
        if (len == 0)
            memcpy(vals + r * width, &v[i], width); /* little-endian narrowing */
        len++;
    }
    run__put32(lens + 4 * r, len);
}

/* first, min delta, bits, then the n-1 deltas (minus dmn) packed. */
static void write_delta(StrBuf *out, const int64_t *v, uint32_t n, int64_t dmn, int bits)
{
    put_u64(out, (uint64_t)v[0]);
    put_u64(out, (uint64_t)dmn);
    put_u8(out, (uint8_t)bits);
    size_t bytes = packed_bytes(n - 1, bits);
    strbuf_reserve(out, bytes);
    uint8_t *dst = (uint8_t *)out->data + out->len;
    memset(dst, 0, bytes);
    uint64_t acc = 0;
    int fill = 0;
    size_t w = 0;
    for (uint32_t i = 1; i < n && bits > 0; i++) {
        uint64_t x = (uint64_t)v[i] - (uint64_t)v[i - 1] - (uint64_t)dmn;
        acc |= x << fill;
        if (fill + bits >= 64) {
            run__put64(dst + 8 * w++, acc);
            acc = fill == 0 ? 0 : x >> (64 - fill);
            fill = fill + bits - 64;
        } else {
            fill += bits;
        }
    }
    if (fill > 0)
        run__put64(dst + 8 * w, acc);
    out->len += bytes;
}

static uint8_t encode_ints(PhysType p, const int64_t *v, uint32_t n, StrBuf *out)
{
    size_t width = phys_size(p);
    int64_t mn = v[0], mx = v[0], dmn = 0, dmx = 0;
    uint64_t runs = n > 0;
    for (uint32_t i = 1; i < n; i++) {
        int64_t x = v[i];
        mn = x < mn ? x : mn;
        mx = x > mx ? x : mx;
        int64_t d = (int64_t)((uint64_t)x - (uint64_t)v[i - 1]);
        if (i == 1 || d < dmn) dmn = d;
        if (i == 1 || d > dmx) dmx = d;
        runs += x != v[i - 1];
    }
    int for_bits = bits_for((uint64_t)mx - (uint64_t)mn);
    int delta_bits = bits_for((uint64_t)dmx - (uint64_t)dmn);
    size_t sz_plain = (size_t)n * width;
    size_t sz_for = 9 + packed_bytes(n, for_bits);
    size_t sz_delta = n > 1 ? 17 + packed_bytes(n - 1, delta_bits) : SIZE_MAX;
    size_t sz_rle = 4 + runs * (width + 4);
    if (sz_rle < sz_for && sz_rle < sz_delta && sz_rle < sz_plain) {
        write_rle(out, v, n, width, runs);
        return RUN_ENC_RLE;
    }
    if (sz_delta < sz_for && sz_delta < sz_plain) {
        write_delta(out, v, n, dmn, delta_bits);
        return RUN_ENC_DELTA;
    }
    if (sz_for < sz_plain) {
        put_u64(out, (uint64_t)mn);
        put_u8(out, (uint8_t)for_bits);
        pack_append(out, v, n, (uint64_t)mn, for_bits);
        return RUN_ENC_FOR;
    }
    for (uint32_t i = 0; i < n; i++)
        strbuf_append(out, &v[i], width);
    return RUN_ENC_PLAIN;
}

static uint8_t encode_floats(PhysType p, const void *values, uint32_t n, StrBuf *out)
{
    size_t width = phys_size(p);
    const uint8_t *b = values;
    uint32_t runs = n > 0;
    for (uint32_t i = 1; i < n; i++)
        runs += memcmp(b + i * width, b + (i - 1) * width, width) != 0;
    if (4 + (size_t)runs * (width + 4) < (size_t)n * width) {
        put_u32(out, runs);
        uint32_t len = 0;
        StrBuf lens;
        strbuf_init(&lens);
        for (uint32_t i = 0; i < n; i++) {
            if (i > 0 && memcmp(b + i * width, b + (i - 1) * width, width) != 0) {
                strbuf_append(&lens, &len, 4);
                len = 0;
            }
            if (len == 0)
                strbuf_append(out, b + i * width, width);
            len++;
        }
        strbuf_append(&lens, &len, 4);
        strbuf_append(out, lens.data, lens.len);
        strbuf_free(&lens);
        return RUN_ENC_RLE;
    }
    strbuf_append(out, values, (size_t)n * width);
    return RUN_ENC_PLAIN;
}

static uint64_t str_hash(const char *p, uint32_t len)
{
    uint64_t h = 0xcbf29ce484222325ull ^ len;
    for (uint32_t i = 0; i < len; i++)
        h = (h ^ (uint8_t)p[i]) * 0x100000001b3ull;
    return h ^ (h >> 29);
}

/* Build a dictionary of the distinct strings; returns entry count, or 0 when
 * there are more than limit. ids[i] gets row i's entry. */
static uint32_t build_dict(const StrRef *s, const uint64_t *validity, uint32_t n, uint32_t limit,
                           int64_t *ids, uint32_t *first_row, MemArena *scratch)
{
    uint32_t cap = 16;
    while (cap < limit * 2)
        cap <<= 1;
    int32_t *slots = mem_alloc(scratch, cap * sizeof(int32_t));
    memset(slots, -1, cap * sizeof(int32_t));
    uint32_t entries = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!slot_valid(validity, i)) {
            ids[i] = 0;
            continue;
        }
        uint32_t h = (uint32_t)str_hash(s[i].ptr, s[i].len) & (cap - 1);
        for (;;) {
            int32_t e = slots[h];
            if (e < 0) {
                if (entries == limit)
                    return 0;
                first_row[entries] = i;
                slots[h] = (int32_t)entries;
                ids[i] = entries++;
                break;
            }
            const StrRef *o = &s[first_row[e]];
            if (o->len == s[i].len && memcmp(o->ptr, s[i].ptr, o->len) == 0) {
                ids[i] = e;
                break;
            }
            h = (h + 1) & (cap - 1);
        }
    }
    return entries;
}

static uint8_t encode_strings(const StrRef *s, const uint64_t *validity, uint32_t n, StrBuf *out,
                              MemArena *scratch)
{
    size_t total = 0;
    for (uint32_t i = 0; i < n; i++)
        total += slot_valid(validity, i) ? s[i].len : 0;
    uint32_t limit = n / 2 < DICT_MAX ? n / 2 : DICT_MAX;
    int64_t *ids = mem_alloc(scratch, (size_t)n * 8 + 8);
    uint32_t *first = mem_alloc(scratch, (size_t)(limit + 1) * 4);
    uint32_t entries = limit > 0 ? build_dict(s, validity, n, limit, ids, first, scratch) : 0;
    if (entries > 0) {
        size_t dict_bytes = 0;
        for (uint32_t e = 0; e < entries; e++)
            dict_bytes += s[first[e]].len;
        int bits = bits_for(entries - 1);
        size_t sz_dict = 4 + 4 * ((size_t)entries + 1) + dict_bytes + 1 + packed_bytes(n, bits);
        if (sz_dict < 4 * ((size_t)n + 1) + total) {
            put_u32(out, entries);
            uint32_t off = 0;
            for (uint32_t e = 0; e < entries; e++) {
                put_u32(out, off);
                off += s[first[e]].len;
            }
            put_u32(out, off);
            for (uint32_t e = 0; e < entries; e++)
                strbuf_append(out, s[first[e]].ptr, s[first[e]].len);
            put_u8(out, (uint8_t)bits);
            pack_append(out, ids, n, 0, bits);
            return RUN_ENC_DICT;
        }
    }
    uint32_t off = 0;
    for (uint32_t i = 0; i < n; i++) {
        put_u32(out, off);
        off += slot_valid(validity, i) ? s[i].len : 0;
    }
    put_u32(out, off);
    for (uint32_t i = 0; i < n; i++)
        if (slot_valid(validity, i))
            strbuf_append(out, s[i].ptr, s[i].len);
    return RUN_ENC_PLAIN;
}

uint8_t run__encode(PhysType phys, const void *values, const uint64_t *validity, uint32_t n,
                    StrBuf *out, MemArena *scratch)
{
    switch (phys) {
    case PHYS_BOOL:
    case PHYS_I16:
    case PHYS_I32:
    case PHYS_I64:
        return encode_ints(phys, widen_ints(phys, values, validity, n, scratch), n, out);
    case PHYS_F32:
    case PHYS_F64:
        return encode_floats(phys, values, n, out);
    case PHYS_STR:
        return encode_strings(values, validity, n, out, scratch);
    }
    return RUN_ENC_PLAIN;
}

/* ---------------------------------------------------------------- decode */

/* Unpack n values of `bits` from in, add base, store as T. Values up to 56
 * bits come from one unaligned 8-byte load; wider ones from two words. */
#define DEFINE_UNPACK(NAME, T)                                                        \
    static void NAME(const uint8_t *in, uint32_t n, int bits, uint64_t base, T *dst)  \
    {                                                                                 \
        if (bits == 0) {                                                              \
            for (uint32_t i = 0; i < n; i++)                                          \
                dst[i] = (T)base;                                                     \
            return;                                                                   \
        }                                                                             \
        uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;                      \
        if (bits <= 56) {                                                             \
            uint64_t pos = 0;                                                         \
            for (uint32_t i = 0; i < n; i++, pos += (uint64_t)bits) {                 \
                uint64_t w = run__get64(in + (pos >> 3));                             \
                dst[i] = (T)(base + ((w >> (pos & 7)) & mask));                       \
            }                                                                         \
            return;                                                                   \
        }                                                                             \
        for (uint32_t i = 0; i < n; i++) {                                            \
            uint64_t pos = (uint64_t)i * (uint64_t)bits, wi = pos >> 6;               \
            unsigned sh = (unsigned)(pos & 63);                                       \
            uint64_t x = run__get64(in + 8 * wi) >> sh;                               \
            if (sh + (unsigned)bits > 64)                                             \
                x |= run__get64(in + 8 * wi + 8) << (64 - sh);                        \
            dst[i] = (T)(base + (x & mask));                                          \
        }                                                                             \
    }
DEFINE_UNPACK(unpack_u8, uint8_t)
DEFINE_UNPACK(unpack_i16, int16_t)
DEFINE_UNPACK(unpack_i32, int32_t)
DEFINE_UNPACK(unpack_i64, int64_t)

static void unpack_to(PhysType p, const uint8_t *in, uint32_t n, int bits, uint64_t base, void *dst)
{
    switch (p) {
    case PHYS_BOOL: unpack_u8(in, n, bits, base, dst); break;
    case PHYS_I16: unpack_i16(in, n, bits, base, dst); break;
    case PHYS_I32: unpack_i32(in, n, bits, base, dst); break;
    default: unpack_i64(in, n, bits, base, dst); break;
    }
}

static void prefix_sum(PhysType p, void *dst, uint32_t n)
{
    /* dst holds first, then raw deltas (already including min delta) */
    switch (p) {
#define PSUM(T) { T *d = dst; for (uint32_t i = 1; i < n; i++) d[i] = (T)(d[i] + d[i - 1]); } break
    case PHYS_BOOL: PSUM(uint8_t);
    case PHYS_I16: PSUM(int16_t);
    case PHYS_I32: PSUM(int32_t);
    default: { uint64_t *d = dst; for (uint32_t i = 1; i < n; i++) d[i] += d[i - 1]; } break;
#undef PSUM
    }
}

static bool decode_rle(PhysType p, const uint8_t *in, size_t len, uint32_t n, void *values)
{
    size_t width = phys_size(p);
    if (len < 4)
        return false;
    uint32_t runs = run__get32(in);
    if (runs > n || 4 + (size_t)runs * (width + 4) > len)
        return false;
    const uint8_t *vals = in + 4, *lens = vals + (size_t)runs * width;
    uint8_t *dst = values;
    uint32_t at = 0;
    for (uint32_t r = 0; r < runs; r++) {
        uint32_t l = run__get32(lens + 4 * r);
        if (l > n - at)
            return false;
        const uint8_t *v = vals + r * width;
        switch (width) {
        case 1: memset(dst + at, v[0], l); break;
        case 2: { int16_t x; memcpy(&x, v, 2); for (uint32_t i = 0; i < l; i++) ((int16_t *)values)[at + i] = x; } break;
        case 4: { int32_t x; memcpy(&x, v, 4); for (uint32_t i = 0; i < l; i++) ((int32_t *)values)[at + i] = x; } break;
        default: { int64_t x; memcpy(&x, v, 8); for (uint32_t i = 0; i < l; i++) ((int64_t *)values)[at + i] = x; } break;
        }
        at += l;
    }
    return at == n;
}

static bool decode_strings(uint8_t enc, const uint8_t *in, size_t len, uint32_t n, StrRef *out)
{
    if (enc == RUN_ENC_PLAIN) {
        if (4 * ((size_t)n + 1) > len)
            return false;
        const uint8_t *bytes = in + 4 * ((size_t)n + 1);
        size_t avail = len - 4 * ((size_t)n + 1);
        uint32_t prev = run__get32(in);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t next = run__get32(in + 4 * (i + 1));
            if (next < prev || next > avail)
                return false;
            out[i].ptr = (const char *)bytes + prev;
            out[i].len = next - prev;
            prev = next;
        }
        return true;
    }
    if (enc != RUN_ENC_DICT || len < 4)
        return false;
    uint32_t entries = run__get32(in);
    if (entries == 0 || entries > DICT_MAX || 4 + 4 * ((size_t)entries + 1) > len)
        return false;
    const uint8_t *offs = in + 4;
    uint32_t dict_len = run__get32(offs + 4 * entries);
    const uint8_t *bytes = offs + 4 * ((size_t)entries + 1);
    if ((size_t)(bytes - in) + dict_len + 1 > len)
        return false;
    const uint8_t *ids = bytes + dict_len + 1;
    int bits = bytes[dict_len];
    if (bits > 16 || (size_t)(ids - in) + packed_bytes(n, bits) > len)
        return false;
    uint64_t mask = bits == 0 ? 0 : (1ull << bits) - 1, pos = 0;
    for (uint32_t i = 0; i < n; i++, pos += (uint64_t)bits) {
        uint32_t e = bits == 0 ? 0 : (uint32_t)((run__get64(ids + (pos >> 3)) >> (pos & 7)) & mask);
        if (e >= entries)
            return false;
        uint32_t a = run__get32(offs + 4 * e), b = run__get32(offs + 4 * e + 4);
        if (b < a || b > dict_len)
            return false;
        out[i].ptr = (const char *)bytes + a;
        out[i].len = b - a;
    }
    return true;
}

bool run__decode(PhysType phys, uint8_t enc, const uint8_t *in, size_t len, uint32_t n,
                 void *values)
{
    size_t width = phys_size(phys);
    if (phys == PHYS_STR)
        return decode_strings(enc, in, len, n, values);
    switch (enc) {
    case RUN_ENC_PLAIN:
        if ((size_t)n * width > len)
            return false;
        memcpy(values, in, (size_t)n * width);
        return true;
    case RUN_ENC_RLE:
        return decode_rle(phys, in, len, n, values);
    case RUN_ENC_FOR: {
        if (phys == PHYS_F32 || phys == PHYS_F64 || len < 9 || in[8] > 64)
            return false;
        if (9 + packed_bytes(n, in[8]) > len)
            return false;
        unpack_to(phys, in + 9, n, in[8], run__get64(in), values);
        return true;
    }
    case RUN_ENC_DELTA: {
        if (phys == PHYS_F32 || phys == PHYS_F64 || len < 17 || in[16] > 64 || n < 2)
            return false;
        if (17 + packed_bytes(n - 1, in[16]) > len)
            return false;
        uint64_t first = run__get64(in), dmin = run__get64(in + 8);
        uint8_t *dst = values;
        if (in[16] == 0 && phys == PHYS_I64) { /* constant step (a dense row id): no unpack */
            uint64_t *d = values;
            for (uint32_t i = 0; i < n; i++)
                d[i] = first + (uint64_t)i * dmin;
            return true;
        }
        unpack_to(phys, in + 17, n - 1, in[16], dmin, dst + width);
        memcpy(dst, &first, width);
        prefix_sum(phys, values, n);
        return true;
    }
    default:
        return false;
    }
}
