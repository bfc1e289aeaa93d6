/*
 * funcs_record.c — the two kernels behind anonymous records (type record,
 * OID 2249): building a record value from its fields, and reading one
 * field back.
 *
 * A record value is stored as PostgreSQL's record_out text, `(1,"a b",)`,
 * in a PHYS_STR vector, so it travels through every operator (sort keys
 * excepted, which compare it as text) and prints to clients without a
 * conversion. Its shape — field names and types — is not in the value:
 * the planner keeps it in a registry and puts the index in the type's
 * typmod (planner/bind_record.c), as PostgreSQL's "blessed" record
 * typmods. So `(r).x` is planned as record_field(r, index of x), a text,
 * cast to x's type by the ordinary I/O cast.
 *
 * Neither function is in the registry (no SQL name reaches them): the
 * planner takes their FuncDescs from exec_record_build / exec_record_field
 * (funcs.h). These serve catalog queries (JDBC's getPrimaryKeys): the
 * loops are per row with no per-row allocation beyond the batch's
 * TextOut chunks.
 */
#include <string.h>
#include "common/typio.h"
#include "executor/funcs.h"
#include "executor/kernels_template.h"
#include "executor/kernels_text.h"

/* record_out's rule: quote a field that is empty or holds a quote,
 * backslash, parenthesis, comma or white space. */
static bool needs_quotes(StrRef v)
{
    if (v.len == 0)
        return true;
    for (uint32_t i = 0; i < v.len; i++) {
        char c = v.ptr[i];
        if (c == '"' || c == '\\' || c == '(' || c == ')' || c == ',' || c == ' ' || c == '\t' ||
            c == '\n' || c == '\r' || c == '\v' || c == '\f')
            return true;
    }
    return false;
}

static void append_field(TextOut *out, StrRef v)
{
    if (!needs_quotes(v)) {
        text_out_append(out, v.ptr, v.len);
        return;
    }
    text_out_char(out, '"');
    for (uint32_t i = 0; i < v.len; i++) {
        if (v.ptr[i] == '"' || v.ptr[i] == '\\')
            text_out_char(out, v.ptr[i]);   /* doubled, as record_out */
        text_out_char(out, v.ptr[i]);
    }
    text_out_char(out, '"');
}

/* ROW(f1, ..., fn): each field's output text once per batch, then one
 * record text per active row. Not strict: a NULL field prints as nothing. */
static void record_build(const FuncCallCtx *ctx, Vector *const *args, Vector *result, int n)
{
    uint32_t count = ctx->count ? ctx->count : 1;
    StrRef *texts[FUNC_MAX_ARGS * 4];
    OutputOptions opt = OUTPUT_OPTIONS_DEFAULT;
    for (int k = 0; k < n; k++) {
        texts[k] = mem_alloc(ctx->arena, sizeof(StrRef) * count);
        type_output_vector(args[k], ctx->sel, ctx->count, &opt, ctx->arena, texts[k]);
    }
    StrRef *r = (StrRef *)result->data;
    TextOut out;
    text_out_init(&out, ctx->arena, 0);
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ctx->sel ? ctx->sel[i] : i;
        text_out_char(&out, '(');
        for (int k = 0; k < n; k++) {
            if (k > 0)
                text_out_char(&out, ',');
            if (texts[k][i].ptr != NULL)
                append_field(&out, texts[k][i]);
        }
        text_out_char(&out, ')');
        r[row] = text_out_finish(&out);
    }
}

#define RECORD_ARITIES(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) \
    X(13) X(14) X(15) X(16)
#define X_KERNEL(N)                                                                        \
    static void k_record_##N(const FuncCallCtx *c, Vector *const *a, Vector *r)           \
    { record_build(c, a, r, N); }
RECORD_ARITIES(X_KERNEL)
#undef X_KERNEL
#define X_DESC(N) [N] = {"row", N, {0}, TYPE_RECORD, 0, k_record_##N, 0},
static const FuncDesc record_inst[] = {RECORD_ARITIES(X_DESC)};
#undef X_DESC

const FuncDesc *exec_record_build(int nfields)
{
    if (nfields < 0 || nfields > EXEC_RECORD_MAX_FIELDS)
        return NULL;
    return &record_inst[nfields];
}

/* The end of the field starting at p (at the ',' or ')' that closes it,
 * outside quotes); *plain tells whether it has no quotes or escapes. */
static const char *field_end(const char *p, const char *end, bool *plain)
{
    bool quoted = false;
    *plain = true;
    for (; p < end && (quoted || (*p != ',' && *p != ')')); p++) {
        if (*p == '"') {
            if (quoted && p + 1 < end && p[1] == '"')
                p++;
            else
                quoted = !quoted;
            *plain = false;
        } else if (*p == '\\' && p + 1 < end) {
            p++;
            *plain = false;
        }
    }
    return p;
}

/*
 * Field idx (0-based) of a record text, as record_in reads it: an empty
 * unquoted field is NULL; quotes group, a doubled quote inside quotes and
 * a backslash-escaped character stand for themselves. Returns false for
 * NULL (or a field the text does not have). The result is a slice of rec
 * when the field has no quotes or escapes, else built in out.
 */
static bool field_at(StrRef rec, int32_t idx, TextOut *out, StrRef *val)
{
    const char *p = rec.ptr, *end = rec.ptr + rec.len;
    if (p < end && *p == '(')
        p++;
    for (int32_t k = 0; k < idx; k++) {
        bool plain;
        p = field_end(p, end, &plain);
        if (p >= end || *p != ',')
            return false;
        p++;
    }
    bool plain;
    const char *fe = field_end(p, end, &plain);
    if (fe == p)
        return false;   /* empty and unquoted: NULL */
    if (plain) {
        *val = (StrRef){p, (uint32_t)(fe - p)};
        return true;
    }
    bool quoted = false;
    for (; p < fe; p++) {
        if (*p == '"' && !(quoted && p + 1 < fe && p[1] == '"')) {
            quoted = !quoted;
            continue;
        }
        if (*p == '"' || (*p == '\\' && p + 1 < fe))
            p++;
        text_out_char(out, *p);
    }
    *val = text_out_finish(out);
    return true;
}

/* record_field(rec, idx) → text; strict, NULL for a NULL field. The
 * unescaped bytes of a field that needed quotes are written once for the
 * whole batch (TextOut chunks). */
static void k_record_field(const FuncCallCtx *ctx, Vector *const *args, Vector *result)
{
    const StrRef *rec = (const StrRef *)args[0]->data;
    const int32_t *idx = (const int32_t *)args[1]->data;
    uint32_t rm = args[0]->is_const ? 0 : 0xFFFFu, im = args[1]->is_const ? 0 : 0xFFFFu;
    StrRef *r = (StrRef *)result->data;
    TextOut out;
    text_out_init(&out, ctx->arena, 0);
    for (uint32_t i = 0; i < ctx->count; i++) {
        uint32_t row = ctx->sel ? ctx->sel[i] : i;
        if (!kernel_row_valid(result, row))
            continue;
        StrRef v = {"", 0};
        if (field_at(rec[row & rm], idx[row & im], &out, &v))
            r[row] = v;
        else
            vec_set_null(result, row);
    }
}

static const FuncDesc record_field_desc = {"record_field", 2, {TYPE_RECORD, TYPE_INT4}, TYPE_TEXT,
                                           FUNC_STRICT, k_record_field, 0};

const FuncDesc *exec_record_field(void)
{
    return &record_field_desc;
}
