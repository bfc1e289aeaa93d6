/*
 * copy_out.c — COPY TO's formatting: result batches become text or CSV
 * lines exactly as PostgreSQL 15's copyto.c writes them (text: backslash
 * escapes and "\N"; CSV: quoting only where needed, FORCE_QUOTE). Each
 * column is turned to text once per batch with type_output_vector; the
 * rows are then assembled with the format's escaping.
 */
#include "executor/copy.h"

#include <string.h>

/* Text format: escape backslash, control characters and the delimiter. */
static void put_text(StrBuf *out, const char *s, size_t len, char delim)
{
    size_t start = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        char esc = 0;
        if (c < 0x20 || c == '\\' || c == (unsigned char)delim) {
            switch (c) {
            case '\b': esc = 'b'; break;
            case '\f': esc = 'f'; break;
            case '\n': esc = 'n'; break;
            case '\r': esc = 'r'; break;
            case '\t': esc = 't'; break;
            case '\v': esc = 'v'; break;
            case '\\': esc = '\\'; break;
            default:
                if (c == (unsigned char)delim)
                    esc = (char)c;
                break;
            }
        }
        if (!esc)
            continue;
        strbuf_append(out, s + start, i - start);
        strbuf_append_char(out, '\\');
        strbuf_append_char(out, esc);
        start = i + 1;
    }
    strbuf_append(out, s + start, len - start);
}

/* CSV: quote when forced, when the value could be misread (delimiter,
 * quote, newline, the NULL string, "\." alone), else as is. */
static void put_csv(StrBuf *out, const char *s, size_t len, const ExecCopyOpts *o, bool force,
                    bool single_col)
{
    bool quote = force;
    if (!quote && len == o->null_len && memcmp(s, o->null_str, len) == 0)
        quote = true;
    if (!quote && single_col && len == 2 && s[0] == '\\' && s[1] == '.')
        quote = true;
    for (size_t i = 0; i < len && !quote; i++) {
        char c = s[i];
        if (c == o->delim || c == o->quote || c == '\n' || c == '\r')
            quote = true;
    }
    if (!quote) {
        strbuf_append(out, s, len);
        return;
    }
    strbuf_append_char(out, o->quote);
    size_t start = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] != o->quote && s[i] != o->escape)
            continue;
        strbuf_append(out, s + start, i - start);
        strbuf_append_char(out, o->escape);
        start = i;
    }
    strbuf_append(out, s + start, len - start);
    strbuf_append_char(out, o->quote);
}

void exec_copy_format_batch(const Batch *batch, const ExecCopyOpts *opts,
                            const OutputOptions *oo, MemArena *arena, StrBuf *out,
                            size_t *row_end)
{
    int ncols = batch->ncols;
    uint32_t n = batch->count;
    StrRef **text = mem_alloc(arena, sizeof(StrRef *) * (size_t)(ncols > 0 ? ncols : 1));
    for (int c = 0; c < ncols; c++) {
        text[c] = mem_alloc(arena, sizeof(StrRef) * (n > 0 ? n : 1));
        type_output_vector(&batch->cols[c], batch->sel, n, oo, arena, text[c]);
    }
    for (uint32_t r = 0; r < n; r++) {
        for (int c = 0; c < ncols; c++) {
            if (c > 0)
                strbuf_append_char(out, opts->delim);
            StrRef v = text[c][r];
            if (v.ptr == NULL)
                strbuf_append(out, opts->null_str, opts->null_len);
            else if (opts->csv)
                put_csv(out, v.ptr, v.len, opts,
                        opts->force_quote_all || (opts->force_quote && opts->force_quote[c]),
                        ncols == 1);
            else
                put_text(out, v.ptr, v.len, opts->delim);
        }
        strbuf_append_char(out, '\n');
        if (row_end)
            row_end[r] = out->len;
    }
}

void exec_copy_format_header(int ncols, const char *const *names, const ExecCopyOpts *opts,
                             StrBuf *out)
{
    for (int c = 0; c < ncols; c++) {
        if (c > 0)
            strbuf_append_char(out, opts->delim);
        if (opts->csv)
            put_csv(out, names[c], strlen(names[c]), opts, false, ncols == 1);
        else
            put_text(out, names[c], strlen(names[c]), opts->delim);
    }
    strbuf_append_char(out, '\n');
}
