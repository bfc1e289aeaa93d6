/*
 * funcs_numfmt.c — to_char for numbers: to_char(int4 | int8 | float4 |
 * float8 | numeric, template) with PostgreSQL 15's number template
 * patterns (formatting.c's NUM_ routines under the C locale): 9 0 . , D G
 * S L MI PL SG PR FM EEEE V TH/th RN/rn, B, double-quoted literal text.
 *
 * How it works, as PostgreSQL's: the template is parsed into nodes and a
 * NumDesc (digits before/after the point, flags, the position of the first
 * '0'); the value becomes a string of its digits rounded to the template's
 * decimals (or '#'s when it has more integer digits than the template);
 * then one pass over the nodes writes digits, signs, separators and
 * literal text. Under the C locale D is '.', G is ',', L is a space.
 * Template errors are 42601 with PostgreSQL's texts.
 *
 * Kernels are row loops: a constant template is parsed once per batch.
 */
#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/error.h"
#include "common/numeric.h"
#include "common/types.h"
#include "executor/funcs.h"
#include "executor/kernels_text.h"

typedef enum NumKey {
    NK_CHAR, NK_COMMA, NK_DEC, NK_0, NK_9, NK_B, NK_D, NK_E, NK_FM, NK_G, NK_L, NK_MI, NK_PL,
    NK_PR, NK_RN, NK_rn, NK_SG, NK_S, NK_TH, NK_th, NK_V,
} NumKey;

static const struct { const char *s; NumKey k; } num_keys[] = {
    {",", NK_COMMA}, {".", NK_DEC}, {"0", NK_0}, {"9", NK_9}, {"B", NK_B}, {"D", NK_D},
    {"EEEE", NK_E}, {"FM", NK_FM}, {"G", NK_G}, {"L", NK_L}, {"MI", NK_MI}, {"PL", NK_PL},
    {"PR", NK_PR}, {"RN", NK_RN}, {"SG", NK_SG}, {"S", NK_S}, {"TH", NK_TH}, {"V", NK_V},
    {"b", NK_B}, {"d", NK_D}, {"eeee", NK_E}, {"fm", NK_FM}, {"g", NK_G}, {"l", NK_L},
    {"mi", NK_MI}, {"pl", NK_PL}, {"pr", NK_PR}, {"rn", NK_rn}, {"sg", NK_SG}, {"s", NK_S},
    {"th", NK_th}, {"v", NK_V},
};

enum {
    F_DECIMAL = 1, F_ZERO = 2, F_BLANK = 4, F_FILL = 8, F_LSIGN = 16, F_BRACKET = 32,
    F_MINUS = 64, F_PLUS = 128, F_ROMAN = 256, F_MULTI = 512, F_EEEE = 1024,
};
enum { LSIGN_NONE, LSIGN_PRE, LSIGN_POST };

typedef struct NumNode {
    NumKey key;
    const char *ch;      /* NK_CHAR: the character's bytes */
    uint32_t len;
} NumNode;

typedef struct NumDesc {
    int pre, post, lsign, flag, pre_lsign_num, multi, zero_start, zero_end;
} NumDesc;

typedef struct NumFormat {
    NumNode *nodes;
    int count;
    NumDesc d;
} NumFormat;

static _Noreturn void fmt_error(const char *msg)
{
    err_raise(ERRCODE_SYNTAX_ERROR, "%s", msg);
}

/* NUMDesc_prepare: the template's constraints, as PostgreSQL checks them. */
static void num_desc_add(NumDesc *n, NumKey k)
{
    if ((n->flag & F_EEEE) && k != NK_E) fmt_error("\"EEEE\" must be the last pattern used");
    switch (k) {
    case NK_9:
        if (n->flag & F_BRACKET) fmt_error("\"9\" must be ahead of \"PR\"");
        if (n->flag & F_MULTI) n->multi++;
        else if (n->flag & F_DECIMAL) n->post++;
        else n->pre++;
        break;
    case NK_0:
        if (n->flag & F_BRACKET) fmt_error("\"0\" must be ahead of \"PR\"");
        if (!(n->flag & F_ZERO) && !(n->flag & F_DECIMAL)) n->flag |= F_ZERO, n->zero_start = n->pre + 1;
        if (!(n->flag & F_DECIMAL)) n->pre++;
        else n->post++;
        n->zero_end = n->pre + n->post;
        break;
    case NK_B:
        if (n->pre == 0 && n->post == 0 && !(n->flag & F_ZERO)) n->flag |= F_BLANK;
        break;
    case NK_D: case NK_DEC:
        if (n->flag & F_DECIMAL) fmt_error("multiple decimal points");
        if (n->flag & F_MULTI) fmt_error("cannot use \"V\" and decimal point together");
        n->flag |= F_DECIMAL;
        break;
    case NK_FM: n->flag |= F_FILL; break;
    case NK_S:
        if (n->flag & F_LSIGN) fmt_error("cannot use \"S\" twice");
        if (n->flag & (F_PLUS | F_MINUS | F_BRACKET))
            fmt_error("cannot use \"S\" and \"PL\"/\"MI\"/\"SG\"/\"PR\" together");
        if (!(n->flag & F_DECIMAL)) n->lsign = LSIGN_PRE, n->pre_lsign_num = n->pre, n->flag |= F_LSIGN;
        else if (n->lsign == LSIGN_NONE) n->lsign = LSIGN_POST, n->flag |= F_LSIGN;
        break;
    case NK_MI:
        if (n->flag & F_LSIGN) fmt_error("cannot use \"S\" and \"MI\" together");
        n->flag |= F_MINUS;
        break;
    case NK_PL:
        if (n->flag & F_LSIGN) fmt_error("cannot use \"S\" and \"PL\" together");
        n->flag |= F_PLUS;
        break;
    case NK_SG:
        if (n->flag & F_LSIGN) fmt_error("cannot use \"S\" and \"SG\" together");
        n->flag |= F_MINUS | F_PLUS;
        break;
    case NK_PR:
        if (n->flag & (F_LSIGN | F_PLUS | F_MINUS))
            fmt_error("cannot use \"PR\" and \"S\"/\"PL\"/\"MI\"/\"SG\" together");
        n->flag |= F_BRACKET;
        break;
    case NK_RN: case NK_rn: n->flag |= F_ROMAN; break;
    case NK_V:
        if (n->flag & F_DECIMAL) fmt_error("cannot use \"V\" and decimal point together");
        n->flag |= F_MULTI;
        break;
    case NK_E:
        if (n->flag & F_EEEE) fmt_error("cannot use \"EEEE\" twice");
        if (n->flag & (F_BLANK | F_FILL | F_LSIGN | F_BRACKET | F_MINUS | F_PLUS | F_ROMAN | F_MULTI)) {
            ErrorData *e = err_begin(ERRCODE_SYNTAX_ERROR);
            err_message(e, "\"EEEE\" is incompatible with other formats");
            err_detail(e, "\"EEEE\" may only be used together with digit and decimal point patterns.");
            err_throw();
        }
        n->flag |= F_EEEE;
        break;
    default: break;
    }
}

/* parse_format for number templates: keywords, "quoted text", \" escapes. */
static void num_parse(StrRef fmt, MemArena *arena, NumFormat *out)
{
    out->nodes = mem_alloc(arena, sizeof(NumNode) * (fmt.len + 1));
    out->count = 0;
    memset(&out->d, 0, sizeof out->d);
    const char *p = fmt.ptr, *end = fmt.ptr + fmt.len;
    while (p < end) {
        NumNode *n = &out->nodes[out->count];
        bool matched = false;
        for (size_t i = 0; i < sizeof num_keys / sizeof num_keys[0]; i++) {
            size_t l = strlen(num_keys[i].s);
            if ((size_t)(end - p) >= l && memcmp(p, num_keys[i].s, l) == 0) {
                n->key = num_keys[i].k;
                num_desc_add(&out->d, n->key);
                out->count++;
                p += l;
                matched = true;
                break;
            }
        }
        if (matched) continue;
        if (*p == '"') {
            for (p++; p < end && *p != '"'; out->count++) {
                if (*p == '\\' && p + 1 < end) p++;
                uint32_t cl = txt_char_at((StrRef){p, (uint32_t)(end - p)}, 0);
                out->nodes[out->count] = (NumNode){NK_CHAR, p, cl};
                p += cl;
            }
            if (p < end) p++;
            continue;
        }
        if (*p == '\\' && p + 1 < end && p[1] == '"') p++;
        uint32_t cl = txt_char_at((StrRef){p, (uint32_t)(end - p)}, 0);
        *n = (NumNode){NK_CHAR, p, cl};
        out->count++;
        p += cl;
    }
}

/* ---------- the value as a digit string ---------- */

typedef struct NumStr {
    char *digits;        /* unsigned digits with '.', or '#'s, or roman / EEEE text */
    char sign;           /* '+' or '-' */
    int out_pre_spaces;
} NumStr;

/* The common tail: sign split, padding or overflow. */
static void num_finish(NumStr *ns, char *org, NumDesc *d, MemArena *a)
{
    ns->sign = '+';
    if (*org == '-') ns->sign = '-', org++;
    char *dot = strchr(org, '.');
    int pre_len = dot ? (int)(dot - org) : (int)strlen(org);
    ns->out_pre_spaces = 0;
    ns->digits = org;
    if (pre_len < d->pre) {
        ns->out_pre_spaces = d->pre - pre_len;
    } else if (pre_len > d->pre) {
        char *s = mem_alloc(a, (size_t)d->pre + d->post + 2);
        memset(s, '#', (size_t)d->pre + d->post + 1);
        s[d->pre + d->post + 1] = '\0';
        s[d->pre] = '.';
        ns->digits = s;
    }
}

/* 10^n as a numeric. */
static StrRef numeric_pow10(int n, MemArena *a)
{
    char *s = mem_alloc(a, (size_t)n + 2);
    s[0] = '1';
    memset(s + 1, '0', (size_t)n);
    return numeric_in(s, (size_t)n + 1, -1, a);
}

/* numeric_out_sci: d.ddd (scale decimals) e±XX, the significand rounded
 * after the exponent is chosen (so 9.99 with one decimal is 10.0e+00, as
 * PostgreSQL's). The shift by 10^exp is exact on the decimal text. */
static char *numeric_format_sci(StrRef num, int scale, MemArena *a)
{
    if (numeric_is_nan(num)) return "NaN";
    uint32_t len;
    char *s = numeric_format_arena(num, a, &len);
    bool neg = s[0] == '-';
    const char *p = s + neg, *dot = strchr(p, '.');
    int intlen = dot ? (int)(dot - p) : (int)strlen(p);
    char *digs = mem_alloc(a, len + 1);
    int nd = 0, k = -1;
    for (const char *q = p; *q; q++)
        if (*q != '.') digs[nd++] = *q;
    for (int i = 0; i < nd && k < 0; i++)
        if (digs[i] != '0') k = i;
    int expo = k < 0 ? 0 : intlen - 1 - k;
    char *sig = mem_alloc(a, (size_t)nd + 3);
    int sl = 0;
    sig[sl++] = k < 0 ? '0' : digs[k];
    sig[sl++] = '.';
    for (int i = (k < 0 ? nd : k + 1); i < nd; i++) sig[sl++] = digs[i];
    if (sl == 2) sig[sl++] = '0';
    StrRef sv = numeric_round(numeric_in(sig, (size_t)sl, -1, a), scale, a);
    uint32_t svl;
    char *st = numeric_format_arena(sv, a, &svl);
    char *out = mem_alloc(a, svl + 16);
    snprintf(out, svl + 16, "%s%se%+03d", neg ? "-" : "", st, expo);
    return out;
}

static const char *const rn1[] = {"", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"};
static const char *const rn10[] = {"", "X", "XX", "XXX", "XL", "L", "LX", "LXX", "LXXX", "XC"};
static const char *const rn100[] = {"", "C", "CC", "CCC", "CD", "D", "DC", "DCC", "DCCC", "CM"};

static char *int_to_roman(int64_t v, MemArena *a)
{
    char *s = mem_alloc(a, 16);
    if (v < 1 || v > 3999) {
        memset(s, '#', 15);
        s[15] = '\0';
        return s;
    }
    int n = (int)v;
    snprintf(s, 16, "%.*s%s%s%s", n / 1000, "MMM", rn100[n / 100 % 10], rn10[n / 10 % 10], rn1[n % 10]);
    return s;
}

/* Numeric value → its digits (rounded to post decimals, times 10^multi). */
static void numstr_numeric(NumStr *ns, StrRef num, NumDesc *d, MemArena *a)
{
    if (d->flag & F_ROMAN) {
        StrRef r = numeric_round(num, 0, a);
        ns->digits = int_to_roman(numeric_is_nan(r) ? 0 : numeric_to_int32(r), a);
        ns->sign = '+', ns->out_pre_spaces = 0;
        return;
    }
    if (d->flag & F_EEEE) {
        /* numeric_out_sci: through float formatting of the exact value */
        char *txt = numeric_format_sci(num, d->post, a);
        if (strcmp(txt, "NaN") == 0) {
            char *s = mem_alloc(a, (size_t)d->pre + d->post + 7);
            memset(s, '#', (size_t)d->pre + d->post + 6);
            s[d->pre + d->post + 6] = '\0';
            s[0] = ' ', s[d->pre + 1] = '.';
            ns->digits = s;
        } else if (*txt != '-') {
            char *s = mem_alloc(a, strlen(txt) + 2);
            s[0] = ' ';
            strcpy(s + 1, txt);
            ns->digits = s;
        } else {
            ns->digits = txt;
        }
        return;
    }
    if (d->flag & F_MULTI) {
        num = numeric_mul(num, numeric_pow10(d->multi, a), a);
        d->pre += d->multi;
    }
    StrRef x = numeric_round(num, d->post, a);
    uint32_t len;
    char *org = numeric_format_arena(x, a, &len);
    num_finish(ns, org, d, a);
}

static void numstr_int(NumStr *ns, int64_t v, NumDesc *d, MemArena *a)
{
    if (d->flag & (F_ROMAN | F_EEEE)) {
        if (d->flag & F_ROMAN) {
            ns->digits = int_to_roman(v, a);
            ns->sign = '+', ns->out_pre_spaces = 0;
            return;
        }
        numstr_numeric(ns, numeric_from_int64(v, a), d, a);
        return;
    }
    char buf[48];
    if (d->flag & F_MULTI) {
        v = (int64_t)((uint64_t)v * (uint64_t)(int64_t)pow(10.0, (double)d->multi));
        d->pre += d->multi;
    }
    snprintf(buf, sizeof buf, "%lld", (long long)v);
    size_t l = strlen(buf);
    char *org = mem_alloc(a, l + (size_t)d->post + 2);
    memcpy(org, buf, l + 1);
    if (d->post) {
        org[l] = '.';
        memset(org + l + 1, '0', (size_t)d->post);
        org[l + 1 + d->post] = '\0';
    }
    num_finish(ns, org, d, a);
}

static void numstr_float(NumStr *ns, double v, NumDesc *d, MemArena *a, int dig)
{
    char *s;
    if (d->flag & F_ROMAN) {
        ns->digits = int_to_roman((int64_t)rint(v), a);
        ns->sign = '+', ns->out_pre_spaces = 0;
        return;
    }
    if (d->flag & F_EEEE) {
        if (isnan(v) || isinf(v)) {
            s = mem_alloc(a, (size_t)d->pre + d->post + 7);
            memset(s, '#', (size_t)d->pre + d->post + 6);
            s[d->pre + d->post + 6] = '\0';
            s[0] = ' ', s[d->pre + 1] = '.';
        } else {
            int n = snprintf(NULL, 0, "%+.*e", d->post, v);
            s = mem_alloc(a, (size_t)n + 1);
            snprintf(s, (size_t)n + 1, "%+.*e", d->post, v);
            if (*s == '+') *s = ' ';
        }
        ns->digits = s;
        return;
    }
    if (d->flag & F_MULTI) {
        v *= pow(10.0, (double)d->multi);
        d->pre += d->multi;
    }
    if (isnan(v) || isinf(v)) {   /* PostgreSQL's snprintf spells these out */
        s = mem_strdup(a, isnan(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity");
        num_finish(ns, s, d, a);
        return;
    }
    int n = snprintf(NULL, 0, "%.0f", fabs(v));
    if (n >= dig) d->post = 0;
    else if (n + d->post > dig) d->post = dig - n;
    n = snprintf(NULL, 0, "%.*f", d->post, v);
    s = mem_alloc(a, (size_t)n + 1);
    snprintf(s, (size_t)n + 1, "%.*f", d->post, v);
    num_finish(ns, s, d, a);
}

/* ---------- NUM_processor (to_char direction) ---------- */

typedef struct NumProc {
    NumDesc *d;
    const char *number, *number_p, *last_relevant;
    char sign;
    bool sign_wrote, num_in;
    int num_count, num_curr, out_pre_spaces;
    TextOut *out;
    size_t cut;   /* PostgreSQL writes a digit string's NUL and the text ends there: 0 = none */
} NumProc;

/* "0.1" with "9.9": the leading zero becomes a space (IS_PREDEC_SPACE). */
static bool predec_space(const NumProc *np)
{
    return !(np->d->flag & F_ZERO) && np->number == np->number_p && np->number[0] == '0' &&
           np->d->post != 0;
}

static void put_sign_pre(NumProc *np)
{
    NumDesc *d = np->d;
    if (np->sign_wrote) return;
    if (!(np->num_curr >= np->out_pre_spaces || ((d->flag & F_ZERO) && d->zero_start == np->num_curr)))
        return;
    if (predec_space(np) && !(np->last_relevant && *np->last_relevant == '.')) return;
    if (d->flag & F_LSIGN) {
        if (d->lsign == LSIGN_PRE) {
            text_out_char(np->out, np->sign == '-' ? '-' : '+');
            np->sign_wrote = true;
        }
    } else if (d->flag & F_BRACKET) {
        text_out_char(np->out, np->sign == '+' ? ' ' : '<');
        np->sign_wrote = true;
    } else if (np->sign == '+') {
        if (!(d->flag & F_FILL)) text_out_char(np->out, ' ');
        np->sign_wrote = true;
    } else if (np->sign == '-') {
        text_out_char(np->out, '-');
        np->sign_wrote = true;
    }
}

static void put_digit(NumProc *np)
{
    NumDesc *d = np->d;
    bool fill = d->flag & F_FILL;
    if (*np->number_p == '.') {
        if (!np->last_relevant || *np->last_relevant != '.' || fill) text_out_char(np->out, '.');
    } else if (np->last_relevant && np->number_p > np->last_relevant) {
        /* FM: trailing zeros after the last relevant decimal are dropped */
    } else if (predec_space(np)) {
        if (!fill) text_out_char(np->out, ' ');
        else if (np->last_relevant && *np->last_relevant == '.') text_out_char(np->out, '0');
    } else {
        if (*np->number_p == '\0' && np->cut == 0) np->cut = np->out->used - np->out->start + 1;
        else text_out_char(np->out, *np->number_p);
        np->num_in = true;
    }
    if (*np->number_p) np->number_p++;
}

/* NUM_numpart_to_char for 9 0 . D. */
static void num_part(NumProc *np, NumKey k)
{
    NumDesc *d = np->d;
    if (d->flag & F_ROMAN) return;
    put_sign_pre(np);
    (void)k;
    if (np->num_curr < np->out_pre_spaces && (d->zero_start > np->num_curr || !(d->flag & F_ZERO))) {
        if (!(d->flag & F_FILL)) text_out_char(np->out, ' ');
    } else if ((d->flag & F_ZERO) && np->num_curr < np->out_pre_spaces && d->zero_start <= np->num_curr) {
        text_out_char(np->out, '0');
        np->num_in = true;
    } else {
        put_digit(np);
    }
    int end = np->num_count + (np->out_pre_spaces ? 1 : 0) + ((d->flag & F_DECIMAL) ? 1 : 0);
    if (np->last_relevant && np->last_relevant == np->number_p) end = np->num_curr;
    if (np->num_curr + 1 == end) {
        if (np->sign_wrote && (d->flag & F_BRACKET)) text_out_char(np->out, np->sign == '+' ? ' ' : '>');
        else if ((d->flag & F_LSIGN) && d->lsign == LSIGN_POST) text_out_char(np->out, np->sign == '-' ? '-' : '+');
    }
    np->num_curr++;
}

/* get_last_relevant_decnum: the last non-zero decimal, or the point. */
static const char *last_relevant_dec(const char *num)
{
    const char *p = strchr(num, '.'), *r = p;
    if (!p) return NULL;
    while (*++p)
        if (*p != '0') r = p;
    return r;
}

static void num_th(NumProc *np, bool upper)
{
    if ((np->d->flag & (F_ROMAN | F_DECIMAL)) || *np->number == '#' || np->sign == '-') return;
    size_t len = strlen(np->number);
    char last = np->number[len - 1];
    if (len > 1 && np->number[len - 2] == '1') last = 0;
    const char *s = last == '1' ? "st" : last == '2' ? "nd" : last == '3' ? "rd" : "th";
    text_out_char(np->out, upper ? (char)(s[0] - 32) : s[0]);
    text_out_char(np->out, upper ? (char)(s[1] - 32) : s[1]);
}

static void num_roman(NumProc *np, bool lower)
{
    char buf[32];
    const char *s = np->number_p;
    if (!(np->d->flag & F_FILL)) snprintf(buf, sizeof buf, "%15s", s), s = buf;
    for (; *s; s++) text_out_char(np->out, lower ? (char)tolower((unsigned char)*s) : *s);
}

static void num_sign_setup(NumProc *np)
{
    NumDesc *d = np->d;
    if (d->flag & F_ROMAN) {
        int fill = d->flag & F_FILL;
        d->lsign = d->pre_lsign_num = d->post = d->pre = 0;
        np->out_pre_spaces = 0;
        np->sign = 0;
        d->flag = F_ROMAN | fill;
    }
    if (d->flag & (F_PLUS | F_MINUS)) {
        np->sign_wrote = !((d->flag & F_PLUS) && !(d->flag & F_MINUS));
    } else {
        if (np->sign != '-' && (d->flag & F_FILL)) d->flag &= ~F_BRACKET;
        np->sign_wrote = np->sign == '+' && (d->flag & F_FILL) && !(d->flag & F_LSIGN);
        if (d->lsign == LSIGN_PRE && d->pre == d->pre_lsign_num) d->lsign = LSIGN_POST;
    }
}

static void num_process(const NumFormat *f, NumDesc *d, const NumStr *ns, TextOut *out)
{
    if (d->zero_start) d->zero_start--;
    if (d->flag & F_EEEE) {
        text_out_append(out, ns->digits, strlen(ns->digits));
        return;
    }
    NumProc np = {d, ns->digits, ns->digits, NULL, ns->sign, false, false, 0, 0, ns->out_pre_spaces, out, 0};
    num_sign_setup(&np);
    np.num_count = d->post + d->pre - 1;
    if ((d->flag & F_FILL) && (d->flag & F_DECIMAL)) {
        np.last_relevant = last_relevant_dec(np.number);
        if (np.last_relevant && d->zero_end > np.out_pre_spaces) {
            int last_zero_pos = (int)strlen(np.number) - 1;
            if (d->zero_end - np.out_pre_spaces < last_zero_pos) last_zero_pos = d->zero_end - np.out_pre_spaces;
            if (np.last_relevant < np.number + last_zero_pos) np.last_relevant = np.number + last_zero_pos;
        }
    }
    if (!np.sign_wrote && np.out_pre_spaces == 0) np.num_count++;
    bool fill = d->flag & F_FILL;
    for (int i = 0; i < f->count; i++) {
        const NumNode *n = &f->nodes[i];
        switch (n->key) {
        case NK_9: case NK_0: case NK_DEC: case NK_D: num_part(&np, n->key); break;
        case NK_COMMA: case NK_G:
            if (np.num_in) text_out_char(out, ',');
            else if (!fill) text_out_char(out, ' ');
            break;
        case NK_L: text_out_char(out, ' '); break;
        case NK_RN: case NK_rn: num_roman(&np, n->key == NK_rn); break;
        case NK_TH: case NK_th: num_th(&np, n->key == NK_TH); break;
        case NK_MI:
            if (np.sign == '-') text_out_char(out, '-');
            else if (!fill) text_out_char(out, ' ');
            break;
        case NK_PL:
            if (np.sign == '+') text_out_char(out, '+');
            else if (!fill) text_out_char(out, ' ');
            break;
        case NK_SG: text_out_char(out, np.sign); break;
        case NK_CHAR: text_out_append(out, n->ch, n->len); break;
        default: break;
        }
    }
    if (np.cut) out->used = out->start + np.cut - 1;
}

/* ---------- kernels ---------- */

typedef enum NumSrc { SRC_INT4, SRC_INT8, SRC_FLOAT4, SRC_FLOAT8, SRC_NUMERIC } NumSrc;

static void to_char_kernel(const FuncCallCtx *ctx, Vector *const *args, Vector *result, NumSrc src)
{
    TXT_ARG(args, 1, fmts, fm);
    StrRef *r = result->data;
    TextOut out;
    text_out_init(&out, ctx->arena, 0);
    NumFormat fixed;
    bool have_fixed = false;
    TXT_FOR_ACTIVE_VALID(ctx, result, row) {
        if (!have_fixed || fm != 0) num_parse(fmts[row & fm], ctx->arena, &fixed), have_fixed = true;
        NumDesc d = fixed.d;
        NumStr ns = {"", '+', 0};
        uint32_t vr = args[0]->is_const ? 0 : row;
        switch (src) {
        case SRC_INT4: numstr_int(&ns, ((const int32_t *)args[0]->data)[vr], &d, ctx->arena); break;
        case SRC_INT8: numstr_int(&ns, ((const int64_t *)args[0]->data)[vr], &d, ctx->arena); break;
        case SRC_FLOAT4: numstr_float(&ns, ((const float *)args[0]->data)[vr], &d, ctx->arena, FLT_DIG); break;
        case SRC_FLOAT8: numstr_float(&ns, ((const double *)args[0]->data)[vr], &d, ctx->arena, DBL_DIG); break;
        case SRC_NUMERIC: numstr_numeric(&ns, ((const StrRef *)args[0]->data)[vr], &d, ctx->arena); break;
        }
        num_process(&fixed, &d, &ns, &out);
        r[row] = text_out_finish(&out);
    }
}
static void k_tc_int4(const FuncCallCtx *c, Vector *const *a, Vector *r) { to_char_kernel(c, a, r, SRC_INT4); }
static void k_tc_int8(const FuncCallCtx *c, Vector *const *a, Vector *r) { to_char_kernel(c, a, r, SRC_INT8); }
static void k_tc_float4(const FuncCallCtx *c, Vector *const *a, Vector *r) { to_char_kernel(c, a, r, SRC_FLOAT4); }
static void k_tc_float8(const FuncCallCtx *c, Vector *const *a, Vector *r) { to_char_kernel(c, a, r, SRC_FLOAT8); }
static void k_tc_numeric(const FuncCallCtx *c, Vector *const *a, Vector *r) { to_char_kernel(c, a, r, SRC_NUMERIC); }


/* ---------- to_number: NUM_processor in the reading direction ---------- */

typedef struct NumRead {
    const NumDesc *d;
    const char *in, *p, *end;
    char *number, *np;     /* number[0] is the sign slot (' ', '-', '+') */
    int read_pre, read_post;
    bool read_dec;
} NumRead;

#define NR_OVER(r) ((r)->p >= (r)->end)

/* NUM_eat_non_data_chars: skip up to n characters that can't be data. */
static void nr_eat(NumRead *r, int n)
{
    while (n-- > 0 && !NR_OVER(r) && strchr("0123456789.,+-", *r->p) == NULL)
        r->p += txt_char_len((unsigned char)*r->p);
}

/* NUM_numpart_from_char for 9 0 . D: a sign before the first digit, a
 * digit or the decimal point, then S's sign behind the last digit. */
static void nr_part(NumRead *r, NumKey k)
{
    const NumDesc *d = r->d;
    bool isread = false;
    if (NR_OVER(r)) return;
    if (*r->p == ' ') r->p++;
    if (NR_OVER(r)) return;
    if (r->number[0] == ' ' && (k == NK_0 || k == NK_9) && r->read_pre + r->read_post == 0) {
        if ((d->flag & F_LSIGN) && d->lsign == LSIGN_PRE) {
            if (*r->p == '-' || *r->p == '+') r->number[0] = *r->p++;
        } else if (*r->p == '-' || ((d->flag & F_BRACKET) && *r->p == '<')) {
            r->number[0] = '-', r->p++;
        } else if (*r->p == '+') {
            r->number[0] = '+', r->p++;
        }
    }
    if (NR_OVER(r)) return;
    if (isdigit((unsigned char)*r->p)) {
        if (r->read_dec && r->read_post == d->post) return;
        *r->np++ = *r->p;
        if (r->read_dec) r->read_post++;
        else r->read_pre++;
        isread = true;
    } else if ((d->flag & F_DECIMAL) && !r->read_dec && *r->p == '.') {
        *r->np++ = '.';
        r->read_dec = true;
        isread = true;
    }
    if (NR_OVER(r)) return;
    if (r->number[0] == ' ' && r->read_pre + r->read_post > 0) {
        if ((d->flag & F_LSIGN) && isread && r->p + 1 < r->end && !isdigit((unsigned char)r->p[1])) {
            if (r->p[1] == '-' || r->p[1] == '+') r->number[0] = r->p[1], r->p++;
        } else if (!isread && !(d->flag & F_LSIGN) && (d->flag & (F_PLUS | F_MINUS))) {
            if (*r->p == '-' || *r->p == '+') r->number[0] = *r->p;
        }
    }
}

/* One template node while reading; false = the node consumed nothing. */
static bool nr_node(NumRead *r, const NumNode *n)
{
    bool fill = r->d->flag & F_FILL;
    switch (n->key) {
    case NK_9: case NK_0: case NK_DEC: case NK_D: nr_part(r, n->key); return true;
    case NK_COMMA: case NK_G: return !fill && *r->p == ',';
    case NK_L: nr_eat(r, 1); return false;
    case NK_MI: if (*r->p == '-') { r->number[0] = '-'; return true; } nr_eat(r, 1); return false;
    case NK_PL: if (*r->p == '+') { r->number[0] = '+'; return true; } nr_eat(r, 1); return false;
    case NK_SG:
        if (*r->p == '-' || *r->p == '+') { r->number[0] = *r->p; return true; }
        nr_eat(r, 1);
        return false;
    case NK_TH: case NK_th: nr_eat(r, 2); return false;
    case NK_CHAR: nr_eat(r, (int)txt_count((StrRef){n->ch, n->len})); return false;
    default: return false;
    }
}

static StrRef to_number_one(StrRef in, const NumFormat *f, MemArena *a)
{
    NumDesc d = f->d;
    if (d.flag & F_ROMAN) err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "\"RN\" not supported for input");
    if (d.flag & F_EEEE) err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "\"EEEE\" not supported for input");
    NumRead r = {&d, in.ptr, in.ptr, in.ptr + in.len, NULL, NULL, 0, 0, false};
    r.number = mem_alloc(a, (size_t)in.len * 2 + 4);
    r.number[0] = ' ';
    r.np = r.number + 1;
    for (int i = 0; i < f->count && !NR_OVER(&r); i++)
        if (nr_node(&r, &f->nodes[i])) r.p++;
    *r.np = '\0';
    int scale = r.read_post, precision = d.pre + d.multi + scale;
    int32_t typmod = ((precision << 16) | scale) + 4;
    if (precision < 1 || precision > 1000) typmod = -1;
    StrRef v = numeric_in(r.number, strlen(r.number), typmod, a);
    if (d.flag & F_MULTI) v = numeric_div(v, numeric_pow10(d.multi, a), a);
    return v;
}

static void k_to_number(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    TXT_ARG(args, 0, in, im);
    TXT_ARG(args, 1, fmts, fm);
    NumFormat f;
    bool have = false;
    TXT_FOR_ACTIVE_VALID(ctx, result, row) {
        if (!have || fm != 0) num_parse(fmts[row & fm], ctx->arena, &f), have = true;
        ((StrRef *)result->data)[row] = to_number_one(in[row & im], &f, ctx->arena);
    }
}

#define TX TYPE_TEXT
const FuncDesc exec__funcs_numfmt[] = {
    {"to_number", 2, {TX, TX}, TYPE_NUMERIC, FUNC_STRICT, k_to_number, 1777},
    {"to_char", 2, {TYPE_INT4, TX}, TX, FUNC_STRICT, k_tc_int4, 1773},
    {"to_char", 2, {TYPE_INT8, TX}, TX, FUNC_STRICT, k_tc_int8, 1774},
    {"to_char", 2, {TYPE_FLOAT4, TX}, TX, FUNC_STRICT, k_tc_float4, 1775},
    {"to_char", 2, {TYPE_FLOAT8, TX}, TX, FUNC_STRICT, k_tc_float8, 1776},
    {"to_char", 2, {TYPE_NUMERIC, TX}, TX, FUNC_STRICT, k_tc_numeric, 1772},
};
const int exec__funcs_numfmt_count = (int)(sizeof exec__funcs_numfmt / sizeof exec__funcs_numfmt[0]);
