/*
 * kernels_text.h — helpers shared by the string and regex kernels
 * (funcs_text.c, funcs_regex.c): UTF-8 scanning, the active-row loop, and
 * TextOut, a per-batch output buffer for string results whose size is not
 * known before the row is computed.
 *
 * TextOut: results are written back to back into arena chunks; a row is
 * built with text_out_append()/text_out_reserve() and finished with
 * text_out_finish(), which returns its StrRef. When a chunk is full the row
 * built so far moves to a new chunk twice as large, so a batch makes
 * O(log total) allocations, never one per row. The bytes live as long as
 * the batch arena (ctx->arena), as every kernel result.
 */
#ifndef STRATA_EXECUTOR_KERNELS_TEXT_H
#define STRATA_EXECUTOR_KERNELS_TEXT_H

#include <stdint.h>
#include <string.h>
#include "common/arena.h"
#include "common/error.h"
#include "common/types.h"
#include "executor/funcs.h"
#include "executor/kernels_template.h"

/* PostgreSQL's MaxAllocSize - VARHDRSZ: the longest text value. */
#define TEXT_MAX_BYTES ((size_t)0x3fffffff - 4)

/* Byte length of the UTF-8 character starting with byte c (1 for invalid
 * lead bytes, so scanning always advances). */
static inline uint32_t txt_char_len(unsigned char c)
{
    if (c < 0xC0) return 1;
    if (c < 0xE0) return 2;
    if (c < 0xF0) return 3;
    return 4;
}

/* Length of the character at s[off], clamped to the string's end. */
static inline uint32_t txt_char_at(StrRef s, uint32_t off)
{
    uint32_t cl = txt_char_len((unsigned char)s.ptr[off]);
    return cl > s.len - off ? s.len - off : cl;
}

/* Characters in s. */
static inline int64_t txt_count(StrRef s)
{
    int64_t n = 0;
    for (uint32_t i = 0; i < s.len; i++) n += ((unsigned char)s.ptr[i] & 0xC0) != 0x80;
    return n;
}

/* Byte offset of character number nchars (0-based), clamped to len. */
static inline uint32_t txt_offset(StrRef s, int64_t nchars)
{
    uint32_t off = 0;
    while (nchars > 0 && off < s.len) {
        off += txt_char_len((unsigned char)s.ptr[off]);
        nchars--;
    }
    return off < s.len ? off : s.len;
}

#define TXT_FOR_ACTIVE_VALID(ctx, result, row)                                   \
    for (uint32_t i_ = 0, row = 0; i_ < (ctx)->count; i_++)                      \
        if ((row = (ctx)->sel ? (ctx)->sel[i_] : i_), kernel_row_valid((result), row))

/* Argument k of a kernel: its StrRef array and index mask (0 = constant). */
#define TXT_ARG(args, k, ptr, mask)                                              \
    const StrRef *ptr = (const StrRef *)(args)[k]->data;                         \
    uint32_t mask = (args)[k]->is_const ? 0 : UINT32_MAX

typedef struct TextOut {
    MemArena *arena;
    char *buf;
    size_t cap;
    size_t start;   /* where the row being built begins */
    size_t used;
} TextOut;

static inline void text_out_init(TextOut *o, MemArena *arena, size_t hint)
{
    o->arena = arena;
    o->cap = hint < 1024 ? 1024 : hint;
    o->buf = mem_alloc(arena, o->cap);
    o->start = o->used = 0;
}

static inline _Noreturn void text_too_long(void)
{
    err_raise(ERRCODE_PROGRAM_LIMIT_EXCEEDED, "requested length too large");
}

/* Room for n more bytes of the current row; returns where they go. */
static inline char *text_out_reserve(TextOut *o, size_t n)
{
    if (o->cap - o->used < n) {
        size_t row = o->used - o->start;
        if (row + n > TEXT_MAX_BYTES) text_too_long();
        size_t cap = o->cap * 2;
        if (cap < row + n) cap = row + n;
        char *nb = mem_alloc(o->arena, cap);
        if (row) memcpy(nb, o->buf + o->start, row);
        o->buf = nb, o->cap = cap, o->start = 0, o->used = row;
    }
    return o->buf + o->used;
}

static inline void text_out_append(TextOut *o, const char *p, size_t n)
{
    if (n == 0) return;
    memcpy(text_out_reserve(o, n), p, n);
    o->used += n;
}

static inline void text_out_char(TextOut *o, char c)
{
    *text_out_reserve(o, 1) = c;
    o->used++;
}

/* The row built since the last finish. */
static inline StrRef text_out_finish(TextOut *o)
{
    StrRef r = {o->buf + o->start, (uint32_t)(o->used - o->start)};
    o->start = o->used;
    return r;
}

#endif
