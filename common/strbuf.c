/*
 * strbuf.c — growable malloc-backed byte buffer (text building, send buffers).
 *
 * An initialised empty buffer points at a static "" with cap 0, so
 * strbuf_init never allocates and sb.data is always a valid C string.
 * Growth doubles; failure raises 53200.
 */
#include "common/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"

static char strbuf_empty[1];

void strbuf_init(StrBuf *sb)
{
    sb->data = strbuf_empty;
    sb->len = 0;
    sb->cap = 0;
}

void strbuf_free(StrBuf *sb)
{
    if (sb->cap != 0)
        free(sb->data);
    strbuf_init(sb);
}

void strbuf_reset(StrBuf *sb)
{
    sb->len = 0;
    if (sb->cap != 0)
        sb->data[0] = '\0';
}

void strbuf_reserve(StrBuf *sb, size_t extra)
{
    size_t need = sb->len + extra + 1; /* + NUL */
    size_t cap;
    char *p;
    if (need < extra)
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    if (need <= sb->cap)
        return;
    cap = sb->cap ? sb->cap : 64;
    while (cap < need) {
        if (cap > SIZE_MAX / 2) {
            cap = need;
            break;
        }
        cap *= 2;
    }
    p = sb->cap ? realloc(sb->data, cap) : malloc(cap);
    if (p == NULL) {
        ErrorData *e = err_begin(ERRCODE_OUT_OF_MEMORY);
        err_message(e, "out of memory");
        err_detail(e, "Cannot enlarge string buffer containing %zu bytes by %zu more bytes.",
                   sb->len, extra);
        err_throw();
    }
    if (sb->cap == 0)
        p[0] = '\0';
    sb->data = p;
    sb->cap = cap;
}

void strbuf_append(StrBuf *sb, const void *data, size_t len)
{
    strbuf_reserve(sb, len);
    if (len)
        memcpy(sb->data + sb->len, data, len);
    sb->len += len;
    sb->data[sb->len] = '\0';
}

void strbuf_append_str(StrBuf *sb, const char *s)
{
    strbuf_append(sb, s, strlen(s));
}

void strbuf_append_char(StrBuf *sb, char c)
{
    strbuf_reserve(sb, 1);
    sb->data[sb->len++] = c;
    sb->data[sb->len] = '\0';
}

void strbuf_vprintf(StrBuf *sb, const char *fmt, va_list ap)
{
    va_list ap2;
    int n;
    size_t room = sb->cap > sb->len ? sb->cap - sb->len : 0;
    va_copy(ap2, ap);
    n = vsnprintf(room ? sb->data + sb->len : NULL, room, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        err_raise(ERRCODE_INTERNAL_ERROR, "could not format string");
    if ((size_t)n >= room) {
        strbuf_reserve(sb, (size_t)n);
        vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    }
    sb->len += (size_t)n;
}

void strbuf_printf(StrBuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    strbuf_vprintf(sb, fmt, ap);
    va_end(ap);
}

void strbuf_append_be16(StrBuf *sb, uint16_t v)
{
    char b[2] = {(char)(v >> 8), (char)v};
    strbuf_append(sb, b, 2);
}

void strbuf_append_be32(StrBuf *sb, uint32_t v)
{
    char b[4] = {(char)(v >> 24), (char)(v >> 16), (char)(v >> 8), (char)v};
    strbuf_append(sb, b, 4);
}

void strbuf_put_be32_at(StrBuf *sb, size_t offset, uint32_t v)
{
    unsigned char *p;
    ERR_ASSERT(offset + 4 <= sb->len);
    p = (unsigned char *)sb->data + offset;
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}
