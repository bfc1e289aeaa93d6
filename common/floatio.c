/*
 * floatio.c — float4/float8 text input and output, as PostgreSQL 15.
 *
 * Output with extra_float_digits > 0 is the shortest decimal that reads back
 * to the same bits (PostgreSQL 12+ uses Ryu for this). We get the same text
 * without Ryu:
 *
 *  - For a normal double, if the correctly rounded 15-digit decimal (%.14e)
 *    reads back, it is the only 15-digit decimal inside the value's rounding
 *    interval (15-digit spacing >= 1e-15 relative, the interval < 2.3e-16
 *    relative), so every shorter candidate is that same number with its
 *    trailing zeros dropped: strip them and we have the shortest.
 *  - Otherwise try 16 then 17 digits. With 16 digits two candidates can fit;
 *    the correctly rounded one is the closest, which is Ryu's choice, except
 *    at a power of two where the interval is lopsided, so the neighbours of
 *    the rounded digits are tried too. 17 digits always read back.
 *  - Subnormals have a wider relative interval: try every precision from 1.
 *  - float4: the same with 6 (FLT_DIG), 7, 8, 9 digits and strtof.
 *  - A candidate exactly halfway to a neighbour is refused even though
 *    strtod reads it back (PostgreSQL's Ryu excludes the interval's ends):
 *    '7e22'::float8 prints 7.0000000000000004e+22, as PostgreSQL does.
 *
 * The digits are then laid out as PostgreSQL's Ryu does: fixed notation
 * when the decimal exponent is in [-4, 15) for float8 and [-4, 6) for
 * float4, else d.ddde+XX (at least two exponent digits).
 *
 * With extra_float_digits <= 0 the output is %.{DBL_DIG|FLT_DIG + efd}g.
 */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/error.h"
#include "common/typio.h"

/* A decimal: digits[0..ndigits) (no trailing zeros), value = 0.d1d2.. * 10^(exp10+1). */
typedef struct FloatDigits {
    char digits[32];
    int ndigits;
    int exp10; /* exponent of the first digit */
} FloatDigits;

/* Split "%.*e" output ("-d.ddde-XX") into digits and exponent. */
static void float_split(const char *txt, FloatDigits *fd)
{
    const char *p = txt;
    int n = 0;
    if (*p == '-')
        p++;
    for (; *p && *p != 'e'; p++)
        if (isdigit((unsigned char)*p))
            fd->digits[n++] = *p;
    fd->exp10 = (*p == 'e') ? atoi(p + 1) : 0;
    while (n > 1 && fd->digits[n - 1] == '0')
        n--;
    fd->digits[n] = '\0';
    fd->ndigits = n;
}

/* Build "d.ddde<exp>" text for digits (as strtod input). */
static void float_join(const char *digits, int ndigits, int exp10, char *out, size_t size)
{
    size_t k = 0;
    out[k++] = digits[0];
    if (ndigits > 1) {
        out[k++] = '.';
        memcpy(out + k, digits + 1, (size_t)ndigits - 1);
        k += (size_t)ndigits - 1;
    }
    snprintf(out + k, size - k, "e%d", exp10);
}

/*
 * Whether decimal txt lies exactly halfway between v and a neighbour.
 * PostgreSQL builds Ryu without STRICTLY_SHORTEST, so both ends of the
 * rounding interval are excluded: 7e22 (exactly halfway, read back to v by
 * round-half-even) prints as 7.0000000000000004e+22. The halfway point has
 * one bit more than the type, so it is exact in the next wider type
 * (long double's 64-bit mantissa for double, double for float).
 */
static bool float_is_midpoint(const char *txt, double v, bool is_float4)
{
    if (is_float4) {
        double d = strtod(txt, NULL);
        float fv = (float)v;
        float nb;
        if (d == (double)fv)
            return false;
        nb = nextafterf(fv, d > (double)fv ? INFINITY : -INFINITY);
        return !isinf(nb) && d == ((double)fv + (double)nb) / 2;
    }
#if LDBL_MANT_DIG >= 64
    long double d = strtold(txt, NULL);
    double nb;
    if (d == (long double)v)
        return false;
    nb = nextafter(v, d > (long double)v ? INFINITY : -INFINITY);
    return !isinf(nb) && d == ((long double)v + (long double)nb) / 2;
#else
    return false;
#endif
}

static bool float_reads_back(const char *txt, double v, bool is_float4)
{
    if (is_float4) {
        float f = strtof(txt, NULL);
        if (memcmp(&f, &(float){(float)v}, sizeof f) != 0)
            return false;
    } else {
        double d = strtod(txt, NULL);
        if (memcmp(&d, &v, sizeof d) != 0)
            return false;
    }
    return !float_is_midpoint(txt, v, is_float4);
}

/* Add delta (+1/-1) to the last of prec digits, carrying; false if it leaves prec digits. */
static bool float_bump(char *digits, int prec, int *exp10, int delta)
{
    int i = prec - 1;
    if (delta > 0) {
        while (i >= 0 && digits[i] == '9')
            digits[i--] = '0';
        if (i < 0) {
            memmove(digits + 1, digits, (size_t)prec - 1);
            digits[0] = '1';
            (*exp10)++;
            return true;
        }
        digits[i]++;
        return true;
    }
    while (i >= 0 && digits[i] == '0')
        digits[i--] = '9';
    if (i < 0 || (i == 0 && digits[0] == '1' && prec > 1))
        return false; /* would lose a digit; not a same-length neighbour */
    digits[i]--;
    return true;
}

/*
 * The prec-digit rounding of max_txt (the value printed with the most digits
 * the type needs), as "%.*e" of the value itself would print it. Rounding the
 * already rounded text again is only ambiguous when its dropped digits are
 * exactly 5000...: false then, and the caller asks snprintf.
 */
static bool float_round_text(const char *max_txt, int prec, char *out, size_t size)
{
    char digits[32];
    int n = 0, exp10, up = 0;
    const char *p;
    for (p = max_txt; *p && *p != 'e'; p++)
        if (isdigit((unsigned char)*p) && n < (int)sizeof digits)
            digits[n++] = *p;
    exp10 = atoi(p + 1);
    if (prec >= n)
        return false;
    if (digits[prec] > '5') {
        up = 1;
    } else if (digits[prec] == '5') {
        up = -1;
        for (int i = prec + 1; i < n; i++)
            if (digits[i] != '0')
                up = 1;
        if (up < 0)
            return false;
    }
    if (up)
        float_bump(digits, prec, &exp10, +1);
    float_join(digits, prec, exp10, out, size);
    return true;
}

/* Try prec significant digits (with neighbours when check_neighbours). */
static bool float_try_prec(double v, int prec, bool is_float4, bool check_neighbours,
                           const char *max_txt, FloatDigits *fd)
{
    char txt[64], cand[48];
    double av = fabs(v);
    if (max_txt == NULL || !float_round_text(max_txt, prec, txt, sizeof txt))
        snprintf(txt, sizeof txt, "%.*e", prec - 1, av);
    if (float_reads_back(txt, av, is_float4)) {
        float_split(txt, fd);
        return true;
    }
    if (!check_neighbours)
        return false;
    for (int delta = -1; delta <= 1; delta += 2) {
        char digits[32];
        int exp10, n = 0;
        const char *p;
        for (p = txt; *p && *p != 'e'; p++)
            if (isdigit((unsigned char)*p))
                digits[n++] = *p;
        exp10 = atoi(p + 1);
        if (!float_bump(digits, prec, &exp10, delta))
            continue;
        float_join(digits, prec, exp10, cand, sizeof cand);
        if (float_reads_back(cand, av, is_float4)) {
            float_split(cand, fd);
            return true;
        }
    }
    return false;
}

/*
 * Shortest round-trip digits of a finite non-zero value. Normal values print
 * once with the type's maximum digits (17 / 9) and derive the shorter
 * candidates from that text; the maximum-digit text itself always reads back
 * and is never a halfway point (its error is below half an ulp).
 */
static void float_shortest(double v, bool is_float4, FloatDigits *fd)
{
    int base = is_float4 ? FLT_DIG : DBL_DIG;
    int max = is_float4 ? 9 : 17;
    bool subnormal = is_float4 ? fabs(v) < FLT_MIN : fabs(v) < DBL_MIN;
    char max_txt[64];
    if (subnormal) {
        for (int prec = 1; prec < max; prec++)
            if (float_try_prec(v, prec, is_float4, true, NULL, fd))
                return;
    }
    snprintf(max_txt, sizeof max_txt, "%.*e", max - 1, fabs(v));
    if (!subnormal)
        for (int prec = base; prec < max; prec++)
            if (float_try_prec(v, prec, is_float4, prec > base, max_txt, fd))
                return;
    float_split(max_txt, fd);
}

/* Lay digits out as PostgreSQL's Ryu to_chars: fixed in [-4, fixed_max), else exponent. */
static size_t float_layout(const FloatDigits *fd, bool neg, int fixed_max, char *buf)
{
    size_t k = 0;
    int e = fd->exp10, n = fd->ndigits;
    if (neg)
        buf[k++] = '-';
    if (e >= -4 && e < fixed_max) {
        if (e < 0) {
            buf[k++] = '0';
            buf[k++] = '.';
            for (int i = 0; i < -e - 1; i++)
                buf[k++] = '0';
            memcpy(buf + k, fd->digits, (size_t)n);
            k += (size_t)n;
        } else if (n <= e + 1) {
            memcpy(buf + k, fd->digits, (size_t)n);
            k += (size_t)n;
            for (int i = n; i < e + 1; i++)
                buf[k++] = '0';
        } else {
            memcpy(buf + k, fd->digits, (size_t)e + 1);
            k += (size_t)e + 1;
            buf[k++] = '.';
            memcpy(buf + k, fd->digits + e + 1, (size_t)(n - e - 1));
            k += (size_t)(n - e - 1);
        }
        buf[k] = '\0';
        return k;
    }
    buf[k++] = fd->digits[0];
    if (n > 1) {
        buf[k++] = '.';
        memcpy(buf + k, fd->digits + 1, (size_t)n - 1);
        k += (size_t)n - 1;
    }
    k += (size_t)snprintf(buf + k, TYPIO_NUMBUF - k, "e%c%02d", e < 0 ? '-' : '+', abs(e));
    return k;
}

/* NaN, infinities and zeros; 0 when v is an ordinary number. */
static size_t float_special(double v, char *buf)
{
    const char *s = NULL;
    if (isnan(v))
        s = "NaN";
    else if (isinf(v))
        s = v > 0 ? "Infinity" : "-Infinity";
    else if (v == 0)
        s = signbit(v) ? "-0" : "0";
    if (s == NULL)
        return 0;
    strcpy(buf, s);
    return strlen(s);
}

static size_t float_format(double v, bool is_float4, int extra_float_digits, char *buf)
{
    size_t k = float_special(v, buf);
    if (k)
        return k;
    if (extra_float_digits > 0) {
        FloatDigits fd;
        memset(&fd, 0, sizeof fd);
        float_shortest(v, is_float4, &fd);
        return float_layout(&fd, signbit(v) != 0, is_float4 ? 6 : 15, buf);
    }
    int ndig = (is_float4 ? FLT_DIG : DBL_DIG) + extra_float_digits;
    if (ndig < 1)
        ndig = 1;
    return (size_t)snprintf(buf, TYPIO_NUMBUF, "%.*g", ndig, v);
}

size_t typio_format_float8(double v, int extra_float_digits, char *buf)
{
    return float_format(v, false, extra_float_digits, buf);
}

size_t typio_format_float4(float v, int extra_float_digits, char *buf)
{
    return float_format((double)v, true, extra_float_digits, buf);
}

/* ---- input ---- */

typedef enum FloatParse { FP_OK, FP_SYNTAX, FP_RANGE } FloatParse;

static bool float_isspace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* The special spellings PostgreSQL checks when strtod gives up. */
static const char *float_match_special(const char *num, double *val)
{
    static const struct { const char *word; double sign; bool nan; } words[] = {
        {"NaN", 1, true}, {"Infinity", 1, false}, {"+Infinity", 1, false},
        {"-Infinity", -1, false}, {"inf", 1, false}, {"+inf", 1, false}, {"-inf", -1, false},
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        size_t n = strlen(words[i].word);
        if (strncasecmp(num, words[i].word, n) == 0) {
            *val = words[i].nan ? NAN : words[i].sign * INFINITY;
            return num + n;
        }
    }
    return NULL;
}

/* Parse a NUL-terminated string as float8in/float4in do; *num_end marks the number's end. */
static FloatParse float_parse(const char *str, bool is_float4, double *out, const char **num_start,
                              const char **num_end)
{
    const char *num = str;
    char *endptr;
    double val;
    int save_errno;
    while (*num && float_isspace(*num))
        num++;
    *num_start = *num_end = num;
    if (*num == '\0')
        return FP_SYNTAX;
    errno = 0;
    val = is_float4 ? (double)strtof(num, &endptr) : strtod(num, &endptr);
    save_errno = errno;
    *num_end = endptr;
    if (endptr == num || save_errno != 0) {
        const char *sp = float_match_special(num, &val);
        if (sp != NULL) {
            endptr = (char *)sp;
        } else if (save_errno == ERANGE) {
            double huge = is_float4 ? (double)HUGE_VALF : HUGE_VAL;
            if (val == 0.0 || val >= huge || val <= -huge)
                return FP_RANGE;
        } else {
            return FP_SYNTAX;
        }
    }
    while (*endptr && float_isspace(*endptr))
        endptr++;
    if (*endptr != '\0')
        return FP_SYNTAX;
    *out = val;
    return FP_OK;
}

/* Copy, parse, free, and only then raise (no leak across the longjmp). */
static double float_input(const char *s, size_t len, bool is_float4)
{
    char small[128];
    char *str = len < sizeof small ? small : malloc(len + 1);
    const char *type_name = is_float4 ? "real" : "double precision";
    const char *ns, *ne;
    double val = 0;
    FloatParse r;
    char msg[ERR_MESSAGE_MAX];
    if (str == NULL)
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    memcpy(str, s, len);
    str[len] = '\0';
    r = float_parse(str, is_float4, &val, &ns, &ne);
    if (r == FP_SYNTAX)
        snprintf(msg, sizeof msg, "invalid input syntax for type %s: \"%s\"", type_name, str);
    else if (r == FP_RANGE && is_float4)
        snprintf(msg, sizeof msg, "\"%s\" is out of range for type real", str);
    else if (r == FP_RANGE)
        snprintf(msg, sizeof msg, "\"%.*s\" is out of range for type double precision",
                 (int)(ne - ns), ns);
    if (str != small)
        free(str);
    if (r == FP_SYNTAX)
        err_raise(ERRCODE_INVALID_TEXT_REPRESENTATION, "%s", msg);
    if (r == FP_RANGE)
        err_raise(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "%s", msg);
    return val;
}

double typio_parse_float8(const char *s, size_t len)
{
    return float_input(s, len, false);
}

float typio_parse_float4(const char *s, size_t len)
{
    return (float)float_input(s, len, true);
}
