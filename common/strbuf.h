/*
 * strbuf.h — a growable byte buffer for building text and messages.
 *
 * Backed by malloc (not an arena) because send buffers outlive queries;
 * strbuf_free releases it. Growth failure raises 53200.
 */
#ifndef STRATA_COMMON_STRBUF_H
#define STRATA_COMMON_STRBUF_H

#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>

typedef struct StrBuf {
    char *data;   /* always NUL-terminated when len < cap */
    size_t len;
    size_t cap;
} StrBuf;

void strbuf_init(StrBuf *sb);
void strbuf_free(StrBuf *sb);
void strbuf_reset(StrBuf *sb);                       /* len = 0, keep memory */
void strbuf_reserve(StrBuf *sb, size_t extra);       /* room for extra more bytes */
void strbuf_append(StrBuf *sb, const void *data, size_t len);
void strbuf_append_str(StrBuf *sb, const char *s);
void strbuf_append_char(StrBuf *sb, char c);
void strbuf_printf(StrBuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_vprintf(StrBuf *sb, const char *fmt, va_list ap);
/* Network byte order integers (wire protocol). */
void strbuf_append_be16(StrBuf *sb, uint16_t v);
void strbuf_append_be32(StrBuf *sb, uint32_t v);
void strbuf_put_be32_at(StrBuf *sb, size_t offset, uint32_t v); /* back-fill a length */

#endif
