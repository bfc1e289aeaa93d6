/*
 * funcs_regex.c — POSIX-style regular expressions through PCRE2:
 * the operators ~ ~* !~ !~* (textregexeq and friends), regexp_like,
 * regexp_count, regexp_match (→ text[]), regexp_replace (flags g, i, c,
 * n, s, x, ...),
 * substring(text FROM pattern) (textregexsubstr), and similar_to_escape
 * (the translation behind SIMILAR TO, which the parser rewrites to
 * `x ~ similar_to_escape(pattern [, escape])`, as PostgreSQL does).
 *
 * PostgreSQL implements Spencer's ARE; Strata compiles PCRE2 patterns
 * translated from ARE syntax (are_translate): \m \M [[:<:]] [[:>:]] → word
 * start/end, \y \Y → \b \B, \Z → \z, ***= → a literal pattern; PCRE2_DOTALL
 * and PCRE2_DOLLAR_ENDONLY give ARE's default newline rules, flag n gives
 * its newline-sensitive mode (PCRE2_MULTILINE without DOTALL). Remaining
 * differences are listed in FUNCS.md.
 *
 * Compiled patterns are cached per thread (REGEX_CACHE_SIZE entries keyed
 * by pattern bytes and options, least recently used evicted), so a constant
 * pattern is compiled once per thread, not per batch or row; the cached
 * code and match data are PCRE2 heap objects living until evicted.
 */
#define STRATA_EXECUTOR_INTERNAL
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "common/array.h"
#include "common/error.h"
#include "common/types.h"
#include "executor/exec_int.h"
#include "executor/funcs.h"
#include "executor/kernels_text.h"

/* ---------- ARE → PCRE2 translation ---------- */

static void tr_str(TextOut *o, const char *s) { text_out_append(o, s, strlen(s)); }

/* Translate ARE pattern p into PCRE2 syntax (in o; returns the row). */
static StrRef are_translate(TextOut *o, StrRef p)
{
    if (p.len >= 4 && memcmp(p.ptr, "***=", 4) == 0) {
        tr_str(o, "\\Q");
        for (uint32_t k = 4; k < p.len; k++) {
            if (k + 1 < p.len && p.ptr[k] == '\\' && p.ptr[k + 1] == 'E') {
                tr_str(o, "\\E\\\\E\\Q");
                k++;
                continue;
            }
            text_out_char(o, p.ptr[k]);
        }
        tr_str(o, "\\E");
        return text_out_finish(o);
    }
    uint32_t k = (p.len >= 4 && memcmp(p.ptr, "***:", 4) == 0) ? 4 : 0;
    bool in_bracket = false;
    for (; k < p.len; k++) {
        char c = p.ptr[k];
        if (!in_bracket && c == '[') {
            if (p.len - k >= 7 && memcmp(p.ptr + k, "[[:<:]]", 7) == 0) {
                tr_str(o, "\\b(?=\\w)");
                k += 6;
                continue;
            }
            if (p.len - k >= 7 && memcmp(p.ptr + k, "[[:>:]]", 7) == 0) {
                tr_str(o, "\\b(?<=\\w)");
                k += 6;
                continue;
            }
            in_bracket = true;
            text_out_char(o, c);
            /* a ] right after [ or [^ is literal */
            if (k + 1 < p.len && p.ptr[k + 1] == '^') text_out_char(o, p.ptr[++k]);
            if (k + 1 < p.len && p.ptr[k + 1] == ']') tr_str(o, "\\]"), k++;
            continue;
        }
        if (in_bracket && c == '[' && k + 1 < p.len && (p.ptr[k + 1] == ':' || p.ptr[k + 1] == '.' ||
                                                          p.ptr[k + 1] == '=')) {
            /* [:class:] and friends: copy through the closing x] */
            char kind = p.ptr[k + 1];
            const char *end = NULL;
            for (uint32_t j = k + 2; j + 1 < p.len; j++)
                if (p.ptr[j] == kind && p.ptr[j + 1] == ']') { end = p.ptr + j; break; }
            if (end) {
                size_t n = (size_t)(end - (p.ptr + k)) + 2;
                text_out_append(o, p.ptr + k, n);
                k += (uint32_t)n - 1;
                continue;
            }
        }
        if (in_bracket && c == ']') in_bracket = false;
        if (c == '\\' && k + 1 < p.len) {
            char e = p.ptr[++k];
            if (!in_bracket) {
                if (e == 'm') { tr_str(o, "\\b(?=\\w)"); continue; }
                if (e == 'M') { tr_str(o, "\\b(?<=\\w)"); continue; }
                if (e == 'y') { tr_str(o, "\\b"); continue; }
                if (e == 'Y') { tr_str(o, "\\B"); continue; }
                if (e == 'Z') { tr_str(o, "\\z"); continue; }
            }
            text_out_char(o, '\\');
            text_out_char(o, e);
            continue;
        }
        text_out_char(o, c);
    }
    return text_out_finish(o);
}

/* ---------- leftmost-longest for literal alternatives ---------- */

/*
 * ARE picks the longest of the alternatives that match at the leftmost
 * position; PCRE2 the first one listed. For the common case — a group (or
 * the whole pattern) whose alternatives are all plain literals, like
 * `a|ab` or `(Mr|Mrs|Ms)` — listing them longest first makes PCRE2's
 * choice ARE's. Other groups are left as written (FUNCS.md lists the
 * remaining difference). The rewrite keeps every parenthesis, so group
 * numbers do not change.
 */
typedef struct LfBuf {
    char *s;
    uint32_t len, cap;
    MemArena *a;
} LfBuf;

static void lf_put(LfBuf *b, const char *p, uint32_t n)
{
    if (b->len + n > b->cap) {
        uint32_t cap = (b->len + n) * 2 + 16;
        char *s = mem_alloc(b->a, cap);
        if (b->len) memcpy(s, b->s, b->len);
        b->s = s;
        b->cap = cap;
    }
    memcpy(b->s + b->len, p, n);
    b->len += n;
}

typedef struct LfAlt {
    uint32_t start, len;   /* in the sequence buffer */
    bool literal;
} LfAlt;

static StrRef lf_seq(const char *p, uint32_t len, uint32_t *pos, MemArena *a, int depth, bool tail);

/* Index of the ')' closing the '(' at i (len when unbalanced). */
static uint32_t lf_close(const char *p, uint32_t len, uint32_t i)
{
    int depth = 0;
    for (uint32_t j = i; j < len; j++) {
        if (p[j] == '\\') { j++; continue; }
        if (p[j] == '[') {   /* skip a bracket expression */
            uint32_t k = j + 1;
            if (k < len && p[k] == '^') k++;
            if (k < len && p[k] == ']') k++;
            while (k < len && p[k] != ']') k++;
            j = k;
            continue;
        }
        if (p[j] == '(') depth++;
        if (p[j] == ')' && --depth == 0) return j;
    }
    return len;
}

/* Whether nothing that could extend a match follows index i: the end, or
 * '|' / ')' (the end of this alternative), optionally after a quantifier
 * of the group and a '$'. */
static bool lf_at_end(const char *p, uint32_t len, uint32_t i)
{
    if (i < len && (p[i] == '*' || p[i] == '+' || p[i] == '?')) i++;   /* a quantified group */
    else if (i < len && p[i] == '{')
        while (i < len && p[i++] != '}') {}
    if (i < len && p[i] == '?') i++;   /* non-greedy */
    if (i < len && p[i] == '$') i++;
    return i >= len || p[i] == '|' || p[i] == ')';
}

/* One bracket expression [...] copied as is; returns the index after it. */
static uint32_t lf_bracket(const char *p, uint32_t len, uint32_t i, LfBuf *o)
{
    uint32_t j = i + 1;
    if (j < len && p[j] == '^') j++;
    if (j < len && p[j] == ']') j++;
    while (j < len && p[j] != ']') {
        if (p[j] == '[' && j + 1 < len && (p[j + 1] == ':' || p[j + 1] == '.' || p[j + 1] == '=')) {
            char k = p[j + 1];
            uint32_t e = j + 2;
            while (e + 1 < len && !(p[e] == k && p[e + 1] == ']')) e++;
            j = e + 1 < len ? e + 2 : len;
            continue;
        }
        j++;
    }
    j = j < len ? j + 1 : len;
    lf_put(o, p + i, j - i);
    return j;
}

/* tail: nothing follows this sequence in the pattern, so the longest
 * alternative at the leftmost position is the longest match (a group
 * followed by more pattern keeps its order: `(a|ab)(c|bcd)` on "abcd" needs
 * the short one first to reach ARE's overall-longest match). */
static StrRef lf_seq(const char *p, uint32_t len, uint32_t *pos, MemArena *a, int depth, bool tail)
{
    LfBuf o = {NULL, 0, 0, a};
    LfAlt alts[64];
    int n = 0;
    bool lit = true, too_many = false;
    uint32_t start = 0;
    while (*pos < len && p[*pos] != ')') {
        char c = p[*pos];
        if (c == '|') {
            if (n < 63) alts[n++] = (LfAlt){start, o.len - start, lit};
            else too_many = true;
            lf_put(&o, "|", 1);
            start = o.len;
            lit = true;
            (*pos)++;
        } else if (c == '\\' && *pos + 1 < len) {
            lf_put(&o, p + *pos, 2);
            *pos += 2;
            lit = false;
        } else if (c == '[') {
            *pos = lf_bracket(p, len, *pos, &o);
            lit = false;
        } else if (c == '(' && depth < 64) {
            uint32_t close = lf_close(p, len, *pos);
            bool inner_tail = tail && lf_at_end(p, len, close + 1);
            lf_put(&o, "(", 1);
            (*pos)++;
            if (*pos + 1 < len && p[*pos] == '?') {   /* (?: (?= (?! ...: keep the marker outside */
                lf_put(&o, p + *pos, 2);
                *pos += 2;
            }
            StrRef inner = lf_seq(p, len, pos, a, depth + 1, inner_tail);
            lf_put(&o, inner.ptr, inner.len);
            if (*pos < len) {
                lf_put(&o, ")", 1);
                (*pos)++;
            }
            lit = false;
        } else {
            if (strchr("^$.*+?{}()", c)) lit = false;
            lf_put(&o, p + *pos, 1);
            (*pos)++;
        }
    }
    alts[n++] = (LfAlt){start, o.len - start, lit};
    bool all_lit = n > 1 && !too_many && tail;
    for (int i = 0; i < n; i++) all_lit = all_lit && alts[i].literal;
    if (!all_lit) return (StrRef){o.s ? o.s : "", o.len};
    for (int i = 1; i < n; i++) {   /* stable insertion sort, longest first */
        LfAlt x = alts[i];
        int j = i - 1;
        for (; j >= 0 && alts[j].len < x.len; j--) alts[j + 1] = alts[j];
        alts[j + 1] = x;
    }
    LfBuf r = {NULL, 0, 0, a};
    for (int i = 0; i < n; i++) {
        if (i) lf_put(&r, "|", 1);
        if (alts[i].len) lf_put(&r, o.s + alts[i].start, alts[i].len);
    }
    return (StrRef){r.s ? r.s : "", r.len};
}

/* The pattern with literal alternatives listed longest first. */
static StrRef are_longest_first(StrRef p, MemArena *a)
{
    uint32_t pos = 0;
    LfBuf out = {NULL, 0, 0, a};
    while (pos < p.len) {   /* an unbalanced ')' ends a sequence: copy it and go on */
        StrRef seq = lf_seq(p.ptr, p.len, &pos, a, 0, true);
        lf_put(&out, seq.ptr, seq.len);
        if (pos < p.len) lf_put(&out, p.ptr + pos++, 1);
    }
    return (StrRef){out.s ? out.s : "", out.len};
}

/* ---------- flags ---------- */

typedef struct RegexFlags {
    uint32_t options;   /* PCRE2 compile options */
    bool global;        /* g */
} RegexFlags;

#define REGEX_BASE_OPTIONS (PCRE2_UTF | PCRE2_DOTALL | PCRE2_DOLLAR_ENDONLY)

/* PostgreSQL's parse_re_flags. allow_g: regexp_replace/regexp_matches. */
static RegexFlags regex_flags(StrRef f, bool allow_g, const char *fname)
{
    RegexFlags r = {REGEX_BASE_OPTIONS, false};
    for (uint32_t k = 0; k < f.len; k++) {
        switch (f.ptr[k]) {
        case 'g':
            if (!allow_g) {
                ErrorData *e = err_begin(ERRCODE_INVALID_PARAMETER_VALUE);
                err_message(e, "%s() does not support the \"global\" option", fname);
                if (strcmp(fname, "regexp_match") == 0)   /* PostgreSQL hints only there */
                    err_hint(e, "Use the regexp_matches function instead.");
                err_throw();
            }
            r.global = true;
            break;
        case 'b': case 'e': case 'q':   /* BRE/ERE/literal: approximated by ARE */
            if (f.ptr[k] == 'q') r.options |= PCRE2_LITERAL;
            break;
        case 'c': r.options &= ~(uint32_t)PCRE2_CASELESS; break;
        case 'i': r.options |= PCRE2_CASELESS; break;
        case 'm': case 'n':
            r.options = (r.options & ~(uint32_t)(PCRE2_DOTALL | PCRE2_DOLLAR_ENDONLY)) | PCRE2_MULTILINE;
            break;
        case 'p': r.options &= ~(uint32_t)(PCRE2_DOTALL | PCRE2_DOLLAR_ENDONLY); break;
        case 'w': r.options |= PCRE2_MULTILINE | PCRE2_DOLLAR_ENDONLY; break;
        case 's': r.options |= PCRE2_DOTALL | PCRE2_DOLLAR_ENDONLY; r.options &= ~(uint32_t)PCRE2_MULTILINE; break;
        case 't': r.options &= ~(uint32_t)PCRE2_EXTENDED; break;
        case 'x': r.options |= PCRE2_EXTENDED; break;
        default: {
            uint32_t cl = txt_char_at(f, k);
            err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "invalid regular expression option: \"%.*s\"",
                      (int)cl, f.ptr + k);
        }
        }
    }
    return r;
}

/* ---------- the per-thread cache of compiled patterns ---------- */

#define REGEX_CACHE_SIZE 32

typedef struct RegexEntry {
    char *pattern;            /* malloc'd copy of the ARE source */
    uint32_t len;
    uint32_t options;
    uint64_t last_used;
    pcre2_code *code;
    pcre2_match_data *md;
} RegexEntry;

static _Thread_local RegexEntry regex_cache[REGEX_CACHE_SIZE];
static _Thread_local uint64_t regex_clock;

/* The cache is released when its thread exits (a session thread): a
 * pthread key whose destructor frees the entries, registered on the
 * thread's first compile. */
static pthread_key_t regex_key;
static pthread_once_t regex_key_once = PTHREAD_ONCE_INIT;

static void regex_cache_release(void *cache)
{
    RegexEntry *c = cache;
    for (int k = 0; k < REGEX_CACHE_SIZE; k++) {
        if (c[k].code == NULL) continue;
        pcre2_code_free(c[k].code);
        pcre2_match_data_free(c[k].md);
        free(c[k].pattern);
        c[k] = (RegexEntry){0};
    }
}

static void regex_key_create(void) { (void)pthread_key_create(&regex_key, regex_cache_release); }

/* PostgreSQL's texts for the commonest syntax errors; PCRE2's otherwise. */
static _Noreturn void regex_compile_error(int code)
{
    const char *msg = NULL;
    switch (code) {
    case 114: case 122: msg = "parentheses () not balanced"; break;   /* missing ), unmatched ) */
    case 106: msg = "brackets [] not balanced"; break;
    case 109: msg = "quantifier operand invalid"; break;
    case 101: msg = "invalid escape \\ sequence"; break;
    default: break;
    }
    if (msg) err_raise(ERRCODE_INVALID_REGULAR_EXPRESSION, "invalid regular expression: %s", msg);
    PCRE2_UCHAR buf[256];
    pcre2_get_error_message(code, buf, sizeof buf);
    err_raise(ERRCODE_INVALID_REGULAR_EXPRESSION, "invalid regular expression: %s", (const char *)buf);
}

static RegexEntry *regex_compile(StrRef pat, uint32_t options, MemArena *arena)
{
    RegexEntry *victim = &regex_cache[0];
    for (int k = 0; k < REGEX_CACHE_SIZE; k++) {
        RegexEntry *e = &regex_cache[k];
        if (e->code && e->len == pat.len && e->options == options &&
            (pat.len == 0 || memcmp(e->pattern, pat.ptr, pat.len) == 0)) {
            e->last_used = ++regex_clock;
            return e;
        }
        if (e->last_used < victim->last_used) victim = e;
    }
    TextOut o;
    text_out_init(&o, arena, pat.len * 2 + 16);
    StrRef src = pat;
    if (!(options & (PCRE2_LITERAL | PCRE2_EXTENDED)) && memchr(pat.ptr ? pat.ptr : "", '|', pat.len) &&
        !(pat.len >= 4 && memcmp(pat.ptr, "***=", 4) == 0))
        src = are_longest_first(pat, arena);
    StrRef tr = (options & PCRE2_LITERAL) ? pat : are_translate(&o, src);
    int errcode;
    PCRE2_SIZE erroff;
    pcre2_code *code = pcre2_compile((PCRE2_SPTR)(tr.len ? tr.ptr : ""), tr.len, options, &errcode,
                                     &erroff, NULL);
    if (code == NULL) regex_compile_error(errcode);
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(code, NULL);
    char *copy = malloc(pat.len + 1);
    if (md == NULL || copy == NULL) {
        pcre2_code_free(code);
        pcre2_match_data_free(md);
        free(copy);
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    }
    (void)pcre2_jit_compile(code, PCRE2_JIT_COMPLETE);   /* falls back to the interpreter */
    if (regex_clock == 0) {
        pthread_once(&regex_key_once, regex_key_create);
        (void)pthread_setspecific(regex_key, regex_cache);
    }
    if (victim->code) {
        pcre2_code_free(victim->code);
        pcre2_match_data_free(victim->md);
        free(victim->pattern);
    }
    if (pat.len) memcpy(copy, pat.ptr, pat.len);
    *victim = (RegexEntry){copy, pat.len, options, ++regex_clock, code, md};
    return victim;
}

/* Match at byte offset start; returns the match count (>0), 0 for none. */
static int regex_exec(RegexEntry *re, StrRef s, uint32_t start)
{
    int rc = pcre2_match(re->code, (PCRE2_SPTR)(s.len ? s.ptr : ""), s.len, start,
                         PCRE2_NO_UTF_CHECK, re->md, NULL);
    if (rc == PCRE2_ERROR_NOMATCH) return 0;
    if (rc < 0) {
        PCRE2_UCHAR buf[256];
        pcre2_get_error_message(rc, buf, sizeof buf);
        err_raise(ERRCODE_INVALID_REGULAR_EXPRESSION, "regular expression failed: %s", (const char *)buf);
    }
    return rc == 0 ? 1 : rc;
}

/* The pattern of a row: the constant one compiled once, others looked up. */
typedef struct RegexArg {
    const Vector *pat;
    const Vector *flags;      /* NULL: no flags argument */
    uint32_t base;            /* options from the operator (~* adds CASELESS) */
    bool allow_g;
    const char *fname;
    RegexEntry *fixed;        /* set when pattern and flags are constants */
    bool global;
} RegexArg;

static void regex_arg_init(RegexArg *ra, const Vector *pat, const Vector *flags, uint32_t base,
                           bool allow_g, const char *fname)
{
    *ra = (RegexArg){pat, flags, base, allow_g, fname, NULL, false};
}

static RegexEntry *regex_for_row(RegexArg *ra, uint32_t row, MemArena *arena)
{
    if (ra->fixed) return ra->fixed;
    StrRef p = ((const StrRef *)ra->pat->data)[ra->pat->is_const ? 0 : row];
    StrRef f = {"", 0};
    if (ra->flags) f = ((const StrRef *)ra->flags->data)[ra->flags->is_const ? 0 : row];
    RegexFlags fl = regex_flags(f, ra->allow_g, ra->fname);
    RegexEntry *re = regex_compile(p, fl.options | ra->base, arena);
    ra->global = fl.global;
    /* The cache may evict an entry only when a new pattern comes in; a
     * constant pattern is pinned for this batch by keeping the pointer. */
    if (ra->pat->is_const && (ra->flags == NULL || ra->flags->is_const)) ra->fixed = re;
    return re;
}

/* ---------- ~ ~* !~ !~* and regexp_like ---------- */

static void match_kernel(const FuncCallCtx *ctx, Vector *const *args, Vector *result, uint32_t base,
                         bool negate, bool has_flags)
{
    TXT_ARG(args, 0, a, am);
    uint8_t *r = (uint8_t *)result->data;
    RegexArg ra;
    regex_arg_init(&ra, args[1], has_flags ? args[2] : NULL, base, false, "regexp_like");
    TXT_FOR_ACTIVE_VALID(ctx, result, row) {
        RegexEntry *re = regex_for_row(&ra, row, ctx->arena);
        r[row] = (uint8_t)((regex_exec(re, a[row & am], 0) > 0) != negate);
    }
}
static void k_re_eq(const FuncCallCtx *c, Vector *const *a, Vector *r) { match_kernel(c, a, r, 0, false, false); }
static void k_re_ne(const FuncCallCtx *c, Vector *const *a, Vector *r) { match_kernel(c, a, r, 0, true, false); }
static void k_re_ieq(const FuncCallCtx *c, Vector *const *a, Vector *r)
{
    match_kernel(c, a, r, PCRE2_CASELESS, false, false);
}
static void k_re_ine(const FuncCallCtx *c, Vector *const *a, Vector *r)
{
    match_kernel(c, a, r, PCRE2_CASELESS, true, false);
}
static void k_regexp_like3(const FuncCallCtx *c, Vector *const *a, Vector *r)
{
    match_kernel(c, a, r, 0, false, true);
}

/* ---------- regexp_count(text, pattern [, start [, flags]]) ---------- */

static int32_t count_matches(RegexEntry *re, StrRef s, uint32_t from)
{
    int32_t n = 0;
    while (from <= s.len && regex_exec(re, s, from) > 0) {
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(re->md);
        n++;
        /* an empty match advances by one character */
        from = ov[1] > ov[0] ? (uint32_t)ov[1] : (uint32_t)ov[1] + (ov[1] < s.len ? txt_char_at(s, (uint32_t)ov[1]) : 1);
    }
    return n;
}

static void count_kernel(const FuncCallCtx *ctx, Vector *const *args, Vector *result, int nargs)
{
    TXT_ARG(args, 0, a, am);
    const int32_t *st = nargs > 2 ? (const int32_t *)args[2]->data : NULL;
    uint32_t sm = nargs > 2 && !args[2]->is_const ? UINT32_MAX : 0;
    int32_t *r = (int32_t *)result->data;
    RegexArg ra;
    regex_arg_init(&ra, args[1], nargs > 3 ? args[3] : NULL, 0, false, "regexp_count");
    TXT_FOR_ACTIVE_VALID(ctx, result, row) {
        StrRef s = a[row & am];
        int32_t start = st ? st[row & sm] : 1;
        if (start <= 0)
            err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "invalid value for parameter \"%s\": %d", "start", start);
        RegexEntry *re = regex_for_row(&ra, row, ctx->arena);
        uint32_t from = txt_offset(s, start - 1);
        r[row] = (int64_t)start - 1 > txt_count(s) ? 0 : count_matches(re, s, from);
    }
}
static void k_regexp_count2(const FuncCallCtx *c, Vector *const *a, Vector *r) { count_kernel(c, a, r, 2); }
static void k_regexp_count3(const FuncCallCtx *c, Vector *const *a, Vector *r) { count_kernel(c, a, r, 3); }
static void k_regexp_count4(const FuncCallCtx *c, Vector *const *a, Vector *r) { count_kernel(c, a, r, 4); }

/* ---------- regexp_replace(source, pattern, replacement [, flags]) ---------- */

/* PostgreSQL's appendStringInfoRegexpSubstr: \1..\9 groups, \& the whole
 * match, \\ a backslash; other backslashes are kept. */
static void append_replacement(TextOut *o, StrRef rep, StrRef s, const PCRE2_SIZE *ov, int nmatch)
{
    for (uint32_t k = 0; k < rep.len; k++) {
        char c = rep.ptr[k];
        if (c != '\\' || k + 1 >= rep.len) {
            text_out_char(o, c);
            continue;
        }
        char n = rep.ptr[k + 1];
        int g = -1;
        if (n >= '1' && n <= '9') g = n - '0';
        else if (n == '&') g = 0;
        if (g >= 0) {
            k++;
            if (g < nmatch && ov[2 * g] != PCRE2_UNSET)
                text_out_append(o, s.ptr + ov[2 * g], ov[2 * g + 1] - ov[2 * g]);
        } else if (n == '\\') {
            k++;
            text_out_char(o, '\\');
        } else {
            text_out_char(o, c);
        }
    }
}

static StrRef replace_one(TextOut *o, RegexEntry *re, StrRef s, StrRef rep, bool global)
{
    uint32_t from = 0, copied = 0;
    while (from <= s.len) {
        int rc = regex_exec(re, s, from);
        if (rc == 0) break;
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(re->md);
        text_out_append(o, s.ptr + copied, ov[0] - copied);
        append_replacement(o, rep, s, ov, rc);
        copied = (uint32_t)ov[1];
        if (!global) break;
        if (ov[1] > ov[0]) {
            from = (uint32_t)ov[1];
        } else {   /* empty match: copy one character and move on */
            if (ov[1] >= s.len) break;
            uint32_t cl = txt_char_at(s, (uint32_t)ov[1]);
            text_out_append(o, s.ptr + ov[1], cl);
            copied = from = (uint32_t)ov[1] + cl;
        }
    }
    text_out_append(o, s.ptr + copied, s.len - copied);
    return text_out_finish(o);
}

static void replace_kernel(const FuncCallCtx *ctx, Vector *const *args, Vector *result, bool has_flags)
{
    TXT_ARG(args, 0, a, am);
    TXT_ARG(args, 2, c, cm);
    StrRef *r = (StrRef *)result->data;
    TextOut out;
    text_out_init(&out, ctx->arena, 0);
    RegexArg ra;
    regex_arg_init(&ra, args[1], has_flags ? args[3] : NULL, 0, true, "regexp_replace");
    TXT_FOR_ACTIVE_VALID(ctx, result, row) {
        RegexEntry *re = regex_for_row(&ra, row, ctx->arena);
        r[row] = replace_one(&out, re, a[row & am], c[row & cm], ra.global);
    }
}
static void k_regexp_replace3(const FuncCallCtx *c, Vector *const *a, Vector *r) { replace_kernel(c, a, r, false); }
static void k_regexp_replace4(const FuncCallCtx *c, Vector *const *a, Vector *r) { replace_kernel(c, a, r, true); }

/* ---------- substring(text FROM pattern): textregexsubstr ---------- */

/* The first parenthesized subexpression's match if the pattern has one,
 * else the whole match; NULL when there is no match (or the group did not
 * participate). */
static void k_regexsubstr(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    TXT_ARG(args, 0, a, am);
    StrRef *r = (StrRef *)result->data;
    RegexArg ra;
    regex_arg_init(&ra, args[1], NULL, 0, false, "substring");
    TXT_FOR_ACTIVE_VALID(ctx, result, row) {
        RegexEntry *re = regex_for_row(&ra, row, ctx->arena);
        StrRef s = a[row & am];
        int rc = regex_exec(re, s, 0);
        uint32_t groups = 0;
        pcre2_pattern_info(re->code, PCRE2_INFO_CAPTURECOUNT, &groups);
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(re->md);
        int g = groups > 0 ? 1 : 0;
        if (rc == 0 || g >= rc || ov[2 * g] == PCRE2_UNSET) {
            vec_set_null(result, row);
            continue;
        }
        r[row] = (StrRef){s.ptr + ov[2 * g], (uint32_t)(ov[2 * g + 1] - ov[2 * g])};
    }
}

/* ---------- regexp_match(text, pattern [, flags]) → text[] ---------- */

/* The captured substrings (the whole match when the pattern has no
 * groups; NULL elements for groups that did not participate); NULL when
 * there is no match. */
static void match_array_kernel(const FuncCallCtx *ctx, Vector *const *args, Vector *result, bool has_flags)
{
    TXT_ARG(args, 0, a, am);
    StrRef *r = (StrRef *)result->data;
    RegexArg ra;
    regex_arg_init(&ra, args[1], has_flags ? args[2] : NULL, 0, false, "regexp_match");
    Value *vals = NULL;
    uint32_t vcap = 0;
    TXT_FOR_ACTIVE_VALID(ctx, result, row) {
        RegexEntry *re = regex_for_row(&ra, row, ctx->arena);
        StrRef s = a[row & am];
        int rc = regex_exec(re, s, 0);
        if (rc == 0) {
            vec_set_null(result, row);
            continue;
        }
        uint32_t groups = 0;
        pcre2_pattern_info(re->code, PCRE2_INFO_CAPTURECOUNT, &groups);
        uint32_t n = groups ? groups : 1, first = groups ? 1 : 0;
        if (n > vcap) {
            vcap = n * 2;
            vals = mem_alloc(ctx->arena, sizeof(Value) * vcap);
        }
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(re->md);
        for (uint32_t g = 0; g < n; g++) {
            uint32_t k = first + g;
            bool set = (int)k < rc && ov[2 * k] != PCRE2_UNSET;
            vals[g].is_null = !set;
            if (set) vals[g].u.str = (StrRef){s.ptr + ov[2 * k], (uint32_t)(ov[2 * k + 1] - ov[2 * k])};
        }
        r[row] = array_build(SQLTYPE(TYPE_TEXT), 1, n, vals, ctx->arena);
    }
}
static void k_regexp_match2(const FuncCallCtx *c, Vector *const *a, Vector *r) { match_array_kernel(c, a, r, false); }
static void k_regexp_match3(const FuncCallCtx *c, Vector *const *a, Vector *r) { match_array_kernel(c, a, r, true); }

/* ---------- similar_to_escape: SIMILAR TO → POSIX (PostgreSQL's similar_escape_internal) ---------- */

static _Noreturn void similar_escape_error(void)
{
    ErrorData *e = err_begin(ERRCODE_INVALID_ESCAPE_SEQUENCE);
    err_message(e, "invalid escape string");
    err_hint(e, "Escape string must be empty or one character.");
    err_throw();
}

static StrRef similar_escape(TextOut *o, StrRef p, StrRef esc, bool has_esc)
{
    const char *e = "\\";
    uint32_t elen = 1;
    if (has_esc) {
        if (esc.len == 0) e = NULL, elen = 0;
        else if (txt_char_at(esc, 0) != esc.len) similar_escape_error();
        else e = esc.ptr, elen = esc.len;
    }
    tr_str(o, "^(?:");
    int nquotes = 0;
    bool afterescape = false, incharclass = false;
    for (uint32_t k = 0; k < p.len;) {
        uint32_t cl = txt_char_at(p, k);
        const char *c = p.ptr + k;
        if (afterescape) {
            if (*c == '"' && !incharclass) {
                if (nquotes == 0) tr_str(o, "){1,1}?(");
                else if (nquotes == 1) tr_str(o, "){1,1}(?:");
                else err_raise(ERRCODE_INVALID_USE_OF_ESCAPE_CHARACTER,
                               "SQL regular expression may not contain more than two escape-double-quote separators");
                nquotes++;
            } else {
                text_out_char(o, '\\');
                text_out_append(o, c, cl);
            }
            afterescape = false;
        } else if (e && cl == elen && memcmp(c, e, elen) == 0) {
            afterescape = true;
        } else if (incharclass) {
            if (*c == '\\') text_out_char(o, '\\');
            text_out_append(o, c, cl);
            if (*c == ']') incharclass = false;
        } else if (*c == '[') {
            text_out_char(o, '[');
            incharclass = true;
        } else if (*c == '%') {
            tr_str(o, ".*");
        } else if (*c == '_') {
            text_out_char(o, '.');
        } else if (*c == '(') {
            tr_str(o, "(?:");
        } else if (*c == '\\' || *c == '.' || *c == '^' || *c == '$') {
            text_out_char(o, '\\');
            text_out_char(o, *c);
        } else {
            text_out_append(o, c, cl);
        }
        k += cl;
    }
    tr_str(o, ")$");
    return text_out_finish(o);
}

static void similar_kernel(const FuncCallCtx *ctx, Vector *const *args, Vector *result, bool has_esc)
{
    TXT_ARG(args, 0, a, am);
    const StrRef none = {"", 0};
    const StrRef *b = has_esc ? (const StrRef *)args[1]->data : &none;
    uint32_t bm = has_esc && !args[1]->is_const ? UINT32_MAX : 0;
    StrRef *r = (StrRef *)result->data;
    TextOut out;
    text_out_init(&out, ctx->arena, 0);
    TXT_FOR_ACTIVE_VALID(ctx, result, row) r[row] = similar_escape(&out, a[row & am], b[row & bm], has_esc);
}
static void k_similar1(const FuncCallCtx *c, Vector *const *a, Vector *r) { similar_kernel(c, a, r, false); }
static void k_similar2(const FuncCallCtx *c, Vector *const *a, Vector *r) { similar_kernel(c, a, r, true); }

/* ---------- the table ---------- */

#define R2(nm, ret, kern, id) {(nm), 2, {TYPE_TEXT, TYPE_TEXT, 0, 0}, (ret), FUNC_STRICT, (kern), (id)}
#define TX TYPE_TEXT

/* ---------- regexp_split_to_array, regexp_instr, regexp_substr, regexp_replace(.., start) ---------- */

static void k_split_array(const FuncCallCtx *ctx, Vector *const *args, Vector *result, bool has_flags)
{
    TXT_ARG(args, 0, a, am);
    TXT_ARG(args, 1, p, pm);
    ExecRegexMatches m = {0};
    Value *vals = NULL;
    uint32_t vcap = 0;
    TXT_FOR_ACTIVE_VALID(ctx, result, row) {
        StrRef s = a[row & am], f = {"", 0};
        if (has_flags) f = ((const StrRef *)args[2]->data)[args[2]->is_const ? 0 : row];
        exec__regex_all(&m, s, p[row & pm], f, true, "regexp_split_to_array", ctx->arena);
        if (m.n + 1 > vcap) {
            vcap = (m.n + 1) * 2;
            vals = mem_alloc(ctx->arena, sizeof(Value) * vcap);
        }
        uint32_t from = 0;
        for (uint32_t i = 0; i <= m.n; i++) {
            uint32_t so = i < m.n ? m.offs[2 * i] : s.len;
            vals[i].is_null = false;
            vals[i].u.str = (StrRef){s.ptr + from, so - from};
            if (i < m.n) from = m.offs[2 * i + 1];
        }
        ((StrRef *)result->data)[row] = array_build(SQLTYPE(TYPE_TEXT), 1, m.n + 1, vals, ctx->arena);
    }
}
static void k_split_array2(const FuncCallCtx *c, Vector *const *a, Vector *r) { k_split_array(c, a, r, false); }
static void k_split_array3(const FuncCallCtx *c, Vector *const *a, Vector *r) { k_split_array(c, a, r, true); }

/* The n-th match at or after character `start` (1-based); false if none.
 * PostgreSQL's checks: start and n must be positive (22023). */
static bool nth_match(RegexEntry *re, StrRef s, int32_t start, int32_t n, PCRE2_SIZE **ov_out)
{
    if (start <= 0)
        err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "invalid value for parameter \"%s\": %d", "start", start);
    if (n <= 0)
        err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "invalid value for parameter \"%s\": %d", "n", n);
    if ((int64_t)start - 1 > txt_count(s)) return false;
    uint32_t from = txt_offset(s, start - 1);
    for (int32_t k = 0; from <= s.len; k++) {
        if (regex_exec(re, s, from) == 0) return false;
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(re->md);
        if (k + 1 == n) {
            *ov_out = ov;
            return true;
        }
        from = ov[1] > ov[0] ? (uint32_t)ov[1] : (uint32_t)ov[1] + (ov[1] < s.len ? txt_char_at(s, (uint32_t)ov[1]) : 1);
    }
    return false;
}

/* An int4 argument of a row (arguments are never NULL in active rows). */
static int32_t i4_at(const Vector *v, uint32_t row)
{
    return ((const int32_t *)v->data)[v->is_const ? 0 : row];
}

static void bad_param(const char *name, int32_t v)
{
    err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "invalid value for parameter \"%s\": %d", name, v);
}

/* The byte span of capture group g of the last match (g = 0: the whole
 * match); false when the pattern has fewer groups or the group did not
 * take part in the match (PostgreSQL then answers 0 / NULL). */
static bool group_span(const RegexEntry *re, const PCRE2_SIZE *ov, int32_t g, PCRE2_SIZE *so, PCRE2_SIZE *eo)
{
    uint32_t ngroups = 0;
    pcre2_pattern_info(re->code, PCRE2_INFO_CAPTURECOUNT, &ngroups);
    if ((uint32_t)g > ngroups || ov[2 * g] == PCRE2_UNSET) return false;
    *so = ov[2 * g];
    *eo = ov[2 * g + 1];
    return true;
}

/*
 * regexp_instr(string, pattern [, start [, n [, endoption [, flags [, subexpr]]]]])
 * and regexp_substr(string, pattern [, start [, n [, flags [, subexpr]]]]).
 * Parameters are checked in PostgreSQL's order (start, n, endoption,
 * flags, subexpr) before matching; "g" is refused.
 */
static void instr_kernel(const FuncCallCtx *ctx, Vector *const *args, Vector *result, int nargs, bool substr)
{
    TXT_ARG(args, 0, a, am);
    int flags_idx = substr ? 4 : 5, sub_idx = flags_idx + 1;
    RegexArg ra;
    regex_arg_init(&ra, args[1], nargs > flags_idx ? args[flags_idx] : NULL, 0, false,
                   substr ? "regexp_substr" : "regexp_instr");
    TXT_FOR_ACTIVE_VALID(ctx, result, row) {
        StrRef s = a[row & am];
        int32_t start = nargs > 2 ? i4_at(args[2], row) : 1;
        int32_t n = nargs > 3 ? i4_at(args[3], row) : 1;
        int32_t endopt = !substr && nargs > 4 ? i4_at(args[4], row) : 0;
        if (start <= 0) bad_param("start", start);
        if (n <= 0) bad_param("n", n);
        if (endopt != 0 && endopt != 1) bad_param("endoption", endopt);
        RegexEntry *re = regex_for_row(&ra, row, ctx->arena);
        int32_t sub = nargs > sub_idx ? i4_at(args[sub_idx], row) : 0;
        if (sub < 0) bad_param("subexpr", sub);
        PCRE2_SIZE *ov = NULL, so = 0, eo = 0;
        bool found = nth_match(re, s, start, n, &ov) && group_span(re, ov, sub, &so, &eo);
        if (substr) {
            if (!found) vec_set_null(result, row);
            else ((StrRef *)result->data)[row] = (StrRef){s.ptr + so, (uint32_t)(eo - so)};
        } else {
            PCRE2_SIZE at = endopt ? eo : so;
            ((int32_t *)result->data)[row] =
                found ? (int32_t)txt_count((StrRef){s.ptr, (uint32_t)at}) + 1 : 0;
        }
    }
}
static void k_instr2(const FuncCallCtx *c, Vector *const *a, Vector *r) { instr_kernel(c, a, r, 2, false); }
static void k_instr3(const FuncCallCtx *c, Vector *const *a, Vector *r) { instr_kernel(c, a, r, 3, false); }
static void k_instr4(const FuncCallCtx *c, Vector *const *a, Vector *r) { instr_kernel(c, a, r, 4, false); }
static void k_instr5(const FuncCallCtx *c, Vector *const *a, Vector *r) { instr_kernel(c, a, r, 5, false); }
static void k_instr6(const FuncCallCtx *c, Vector *const *a, Vector *r) { instr_kernel(c, a, r, 6, false); }
static void k_instr7(const FuncCallCtx *c, Vector *const *a, Vector *r) { instr_kernel(c, a, r, 7, false); }
static void k_substr2(const FuncCallCtx *c, Vector *const *a, Vector *r) { instr_kernel(c, a, r, 2, true); }
static void k_substr3(const FuncCallCtx *c, Vector *const *a, Vector *r) { instr_kernel(c, a, r, 3, true); }
static void k_substr4(const FuncCallCtx *c, Vector *const *a, Vector *r) { instr_kernel(c, a, r, 4, true); }
static void k_substr5(const FuncCallCtx *c, Vector *const *a, Vector *r) { instr_kernel(c, a, r, 5, true); }
static void k_substr6(const FuncCallCtx *c, Vector *const *a, Vector *r) { instr_kernel(c, a, r, 6, true); }

/* Replace, in s from byte `from` on, the n-th match (n = 0: every match),
 * as PostgreSQL's replace_text_regexp with a start and a count. */
static StrRef replace_nth(TextOut *o, RegexEntry *re, StrRef s, StrRef rep, uint32_t from, int32_t n)
{
    uint32_t copied = 0;
    for (int32_t k = 1; from <= s.len; k++) {
        int rc = regex_exec(re, s, from);
        if (rc == 0) break;
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(re->md);
        if (n == 0 || k == n) {
            text_out_append(o, s.ptr + copied, ov[0] - copied);
            append_replacement(o, rep, s, ov, rc);
            copied = (uint32_t)ov[1];
            if (n != 0) break;
        }
        if (ov[1] > ov[0]) {
            from = (uint32_t)ov[1];
        } else {   /* empty match: step over one character */
            if (ov[1] >= s.len) break;
            from = (uint32_t)ov[1] + txt_char_at(s, (uint32_t)ov[1]);
        }
    }
    text_out_append(o, s.ptr + copied, s.len - copied);
    return text_out_finish(o);
}

/* regexp_replace(source, pattern, replacement, start [, n [, flags]]):
 * PostgreSQL 15's textregexreplace_extended. n defaults to 1 (a given n
 * wins over the "g" flag; 0 replaces every match from start on). */
static void replace_ext_kernel(const FuncCallCtx *ctx, Vector *const *args, Vector *result, int nargs)
{
    TXT_ARG(args, 0, a, am);
    TXT_ARG(args, 2, c, cm);
    TextOut out;
    text_out_init(&out, ctx->arena, 0);
    RegexArg ra;
    regex_arg_init(&ra, args[1], nargs > 5 ? args[5] : NULL, 0, true, "regexp_replace");
    TXT_FOR_ACTIVE_VALID(ctx, result, row) {
        StrRef s = a[row & am];
        int32_t start = i4_at(args[3], row);
        if (start <= 0) bad_param("start", start);
        int32_t n = nargs > 4 ? i4_at(args[4], row) : 1;
        if (n < 0) bad_param("n", n);
        RegexEntry *re = regex_for_row(&ra, row, ctx->arena);
        if ((int64_t)start - 1 > txt_count(s)) {
            ((StrRef *)result->data)[row] = s;
            continue;
        }
        ((StrRef *)result->data)[row] =
            replace_nth(&out, re, s, c[row & cm], txt_offset(s, start - 1), n);
    }
}
static void k_replace_start(const FuncCallCtx *c, Vector *const *a, Vector *r) { replace_ext_kernel(c, a, r, 4); }
static void k_replace5(const FuncCallCtx *c, Vector *const *a, Vector *r) { replace_ext_kernel(c, a, r, 5); }
static void k_replace6(const FuncCallCtx *c, Vector *const *a, Vector *r) { replace_ext_kernel(c, a, r, 6); }

const FuncDesc exec__funcs_regex[] = {
    {"regexp_split_to_array", 2, {TX, TX, 0, 0}, TYPE_TEXT_ARRAY, FUNC_STRICT, k_split_array2, 2767},
    {"regexp_split_to_array", 3, {TX, TX, TX, 0}, TYPE_TEXT_ARRAY, FUNC_STRICT, k_split_array3, 2768},
    R2("regexp_instr", TYPE_INT4, k_instr2, 6241),
    {"regexp_instr", 3, {TX, TX, TYPE_INT4, 0}, TYPE_INT4, FUNC_STRICT, k_instr3, 6242},
    {"regexp_instr", 4, {TX, TX, TYPE_INT4, TYPE_INT4}, TYPE_INT4, FUNC_STRICT, k_instr4, 6243},
    R2("regexp_substr", TX, k_substr2, 6248),
    {"regexp_substr", 3, {TX, TX, TYPE_INT4, 0}, TX, FUNC_STRICT, k_substr3, 6249},
    {"regexp_substr", 4, {TX, TX, TYPE_INT4, TYPE_INT4}, TX, FUNC_STRICT, k_substr4, 6250},
    {"regexp_instr", 5, {TX, TX, TYPE_INT4, TYPE_INT4, TYPE_INT4}, TYPE_INT4, FUNC_STRICT, k_instr5, 6260},
    {"regexp_instr", 6, {TX, TX, TYPE_INT4, TYPE_INT4, TYPE_INT4, TX}, TYPE_INT4, FUNC_STRICT, k_instr6, 6261},
    {"regexp_instr", 7, {TX, TX, TYPE_INT4, TYPE_INT4, TYPE_INT4, TX, TYPE_INT4}, TYPE_INT4, FUNC_STRICT,
     k_instr7, 6262},
    {"regexp_substr", 5, {TX, TX, TYPE_INT4, TYPE_INT4, TX}, TX, FUNC_STRICT, k_substr5, 6268},
    {"regexp_substr", 6, {TX, TX, TYPE_INT4, TYPE_INT4, TX, TYPE_INT4}, TX, FUNC_STRICT, k_substr6, 6269},
    {"regexp_replace", 4, {TX, TX, TX, TYPE_INT4}, TX, FUNC_STRICT, k_replace_start, 6253},
    {"regexp_replace", 5, {TX, TX, TX, TYPE_INT4, TYPE_INT4}, TX, FUNC_STRICT, k_replace5, 6252},
    {"regexp_replace", 6, {TX, TX, TX, TYPE_INT4, TYPE_INT4, TX}, TX, FUNC_STRICT, k_replace6, 6251},
    R2("~", TYPE_BOOL, k_re_eq, 1254),
    R2("!~", TYPE_BOOL, k_re_ne, 1256),
    R2("~*", TYPE_BOOL, k_re_ieq, 1238),
    R2("!~*", TYPE_BOOL, k_re_ine, 1239),
    R2("textregexeq", TYPE_BOOL, k_re_eq, 1254),
    R2("textregexne", TYPE_BOOL, k_re_ne, 1256),
    R2("texticregexeq", TYPE_BOOL, k_re_ieq, 1238),
    R2("texticregexne", TYPE_BOOL, k_re_ine, 1239),
    R2("regexp_like", TYPE_BOOL, k_re_eq, 6263),
    {"regexp_like", 3, {TX, TX, TX, 0}, TYPE_BOOL, FUNC_STRICT, k_regexp_like3, 6264},
    R2("regexp_count", TYPE_INT4, k_regexp_count2, 6254),
    {"regexp_count", 3, {TX, TX, TYPE_INT4, 0}, TYPE_INT4, FUNC_STRICT, k_regexp_count3, 6255},
    {"regexp_count", 4, {TX, TX, TYPE_INT4, TX}, TYPE_INT4, FUNC_STRICT, k_regexp_count4, 6256},
    {"regexp_replace", 3, {TX, TX, TX, 0}, TX, FUNC_STRICT, k_regexp_replace3, 2284},
    {"regexp_replace", 4, {TX, TX, TX, TX}, TX, FUNC_STRICT, k_regexp_replace4, 2285},
    R2("regexp_match", TYPE_TEXT_ARRAY, k_regexp_match2, 3396),
    {"regexp_match", 3, {TX, TX, TX, 0}, TYPE_TEXT_ARRAY, FUNC_STRICT, k_regexp_match3, 3397},
    R2("substring", TX, k_regexsubstr, 2073),
    R2("textregexsubstr", TX, k_regexsubstr, 2073),
    {"similar_to_escape", 1, {TX, 0, 0, 0}, TX, FUNC_STRICT, k_similar1, 1987},
    R2("similar_to_escape", TX, k_similar2, 1986),
};
const int exec__funcs_regex_count = (int)(sizeof exec__funcs_regex / sizeof exec__funcs_regex[0]);

/* ---------- all matches of a row, for the set-returning functions (srf.c) ---------- */

/* PostgreSQL's setup_regexp_matches. split (regexp_split_to_*): every
 * match, whole-match offsets only, ignoring degenerate ones (empty at the
 * start or end of the string or right after the previous match); else
 * (regexp_matches): the first match, or every match with flag 'g', with
 * the offsets of each group (of the whole match when there is none). */
void exec__regex_all(ExecRegexMatches *m, StrRef s, StrRef pat, StrRef flags, bool split, const char *fname,
                     MemArena *arena)
{
    RegexFlags fl = regex_flags(flags, !split, fname);
    RegexEntry *re = regex_compile(pat, fl.options, arena);
    uint32_t groups = 0;
    pcre2_pattern_info(re->code, PCRE2_INFO_CAPTURECOUNT, &groups);
    bool glob = split || fl.global;
    m->width = split || groups == 0 ? 1 : groups;
    m->n = 0;
    uint32_t start = 0, prev_end = 0;
    for (;;) {
        int rc = regex_exec(re, s, start);
        if (rc == 0) break;
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(re->md);
        if (!split || (ov[0] < s.len && ov[1] > prev_end)) {
            if ((m->n + 1) * m->width * 2 > m->cap) {
                uint32_t cap = m->cap ? m->cap * 2 : 64;
                while (cap < (m->n + 1) * m->width * 2) cap *= 2;
                uint32_t *o = mem_alloc(arena, sizeof(uint32_t) * cap);
                if (m->n) memcpy(o, m->offs, sizeof(uint32_t) * m->n * m->width * 2);
                m->offs = o;
                m->cap = cap;
            }
            uint32_t *o = m->offs + (size_t)m->n * m->width * 2;
            uint32_t first = split || groups == 0 ? 0 : 1;
            for (uint32_t g = 0; g < m->width; g++) {
                uint32_t k = first + g;
                bool set = (int)k < rc && ov[2 * k] != PCRE2_UNSET;
                o[2 * g] = set ? (uint32_t)ov[2 * k] : UINT32_MAX;
                o[2 * g + 1] = set ? (uint32_t)ov[2 * k + 1] : UINT32_MAX;
            }
            m->n++;
        }
        prev_end = (uint32_t)ov[1];
        if (!glob) break;
        start = prev_end;
        if (ov[0] == ov[1]) start += start < s.len ? txt_char_at(s, start) : 1;
        if (start > s.len) break;
    }
}
