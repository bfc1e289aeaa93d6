/*
 * copy.c — the COPY statement on the wire: COPY FROM STDIN (CopyInResponse,
 * then CopyData/CopyDone/CopyFail from the client), COPY TO STDOUT
 * (CopyOutResponse, one CopyData per row, CopyDone), and COPY FROM/TO a
 * server file (superuser only), in PostgreSQL 15's text and CSV formats.
 *
 * This file owns the statement: it validates the options (PostgreSQL's
 * ProcessCopyOptions messages), resolves the table through search_path and
 * the column list, and hands the data to executor/copy.h: input in chunks
 * to exec_copy_in_*, which batches, converts and bulk-loads; output by
 * planning `SELECT cols FROM t` (or the COPY's own query) and formatting
 * each result batch with exec_copy_format_batch.
 *
 * Errors inside the data carry PostgreSQL's CONTEXT line
 * (`COPY t, line 3, column b: "x"`), sent as the ErrorResponse 'W' field
 * (proto_error_set_context). After an error during COPY FROM STDIN the
 * client's remaining CopyData/CopyDone/CopyFail are ignored by the
 * connection loop, as PostgreSQL does. Only the simple Query protocol runs
 * COPY FROM STDIN (as psql's \copy and pgbench use it).
 */
#define STRATA_PROTOCOL_INTERNAL
#include "protocol/proto_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/guc.h"
#include "executor/copy.h"
#include "executor/executor.h"
#include "parser/ast.h"
#include "parser/parser.h"
#include "planner/plan.h"
#include "planner/planner.h"
#include "storage/storage.h"

#define COPY_FILE_CHUNK 65536

/* Parsed options, before they become ExecCopyOpts. */
typedef struct CopyOptState {
    const char *format, *delim, *null_str, *quote, *escape, *header;
    bool header_seen, freeze_seen, encoding_seen;
    const DefElem *force_quote, *force_not_null, *force_null;
} CopyOptState;

/* The statement's text, for error positions of options. */
static _Thread_local const char *copy_sql;

/* 1-based character position of an option (0 when unknown). */
static int opt_pos(const DefElem *d)
{
    if (copy_sql == NULL || d->node.location < 0)
        return 0;
    int chars = 1;
    for (int i = 0; i < d->node.location && copy_sql[i]; i++)
        if (((unsigned char)copy_sql[i] & 0xC0) != 0x80)
            chars++;
    return chars;
}

static _Noreturn void conflicting(const DefElem *d)
{
    err_raise_pos(ERRCODE_SYNTAX_ERROR, opt_pos(d), "conflicting or redundant options");
}

/* The text of an option's argument (strings, numbers, booleans). */
static const char *opt_text(const DefElem *d)
{
    const A_Const *k = IS_A(d->arg, A_Const) ? (const A_Const *)d->arg : NULL;
    if (k && k->kind == CONST_STRING)
        return k->sval;
    if (k && (k->kind == CONST_INTEGER || k->kind == CONST_NUMERIC))
        return k->text;
    if (k && k->kind == CONST_BOOL)
        return k->bval ? "true" : "false";
    err_raise(ERRCODE_SYNTAX_ERROR, "%s requires a parameter", d->defname);
}

static void set_once(const char **slot, const DefElem *d)
{
    if (*slot)
        conflicting(d);
    *slot = opt_text(d);
}

static void set_list(const DefElem **slot, const DefElem *d)
{
    if (*slot)
        conflicting(d);
    *slot = d;
}

static void collect_options(const CopyStmt *cs, CopyOptState *st)
{
    memset(st, 0, sizeof *st);
    for (int i = 0; i < list_len(cs->options); i++) {
        const DefElem *d = list_nth(cs->options, i);
        const char *n = d->defname;
        if (strcmp(n, "format") == 0) {
            set_once(&st->format, d);
            if (strcmp(st->format, "csv") && strcmp(st->format, "text") && strcmp(st->format, "binary"))
                err_raise_pos(ERRCODE_INVALID_PARAMETER_VALUE, opt_pos(d), "COPY format \"%s\" not recognized",
                              st->format);
        }
        else if (strcmp(n, "delimiter") == 0)
            set_once(&st->delim, d);
        else if (strcmp(n, "null") == 0)
            set_once(&st->null_str, d);
        else if (strcmp(n, "quote") == 0)
            set_once(&st->quote, d);
        else if (strcmp(n, "escape") == 0)
            set_once(&st->escape, d);
        else if (strcmp(n, "header") == 0) {
            if (st->header_seen)
                conflicting(d);
            st->header_seen = true;
            st->header = d->arg ? opt_text(d) : "true";
        } else if (strcmp(n, "freeze") == 0) {
            if (st->freeze_seen)
                conflicting(d);
            st->freeze_seen = true;
        } else if (strcmp(n, "encoding") == 0) {
            if (st->encoding_seen)
                conflicting(d);
            st->encoding_seen = true;
            const char *e = opt_text(d);
            if (strcasecmp(e, "utf8") != 0 && strcasecmp(e, "utf-8") != 0 && strcasecmp(e, "sql_ascii") != 0)
                err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "argument to option \"%s\" must be a valid encoding name", n);
        } else if (strcmp(n, "force_quote") == 0)
            set_list(&st->force_quote, d);
        else if (strcmp(n, "force_not_null") == 0)
            set_list(&st->force_not_null, d);
        else if (strcmp(n, "force_null") == 0)
            set_list(&st->force_null, d);
        else
            err_raise_pos(ERRCODE_SYNTAX_ERROR, opt_pos(d), "option \"%s\" not recognized", n);
    }
}

/* HEADER's value: false/true/match (PostgreSQL's defGetCopyHeaderChoice). */
static void header_choice(const char *v, bool is_from, ExecCopyOpts *o)
{
    if (v == NULL)
        return;
    if (!strcasecmp(v, "true") || !strcasecmp(v, "on") || !strcmp(v, "1"))
        o->header = true;
    else if (!strcasecmp(v, "false") || !strcasecmp(v, "off") || !strcmp(v, "0"))
        o->header = false;
    else if (!strcasecmp(v, "match")) {
        if (!is_from)
            err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "cannot use \"%s\" with HEADER in COPY TO", v);
        o->header = o->header_match = true;
    } else
        err_raise(ERRCODE_SYNTAX_ERROR, "%s requires a Boolean value or \"match\"", "header");
}

static char single_char(const char *v, const char *what)
{
    if (strlen(v) != 1)
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "COPY %s must be a single one-byte character", what);
    return v[0];
}

/* Only-in-CSV and direction checks of the FORCE options. */
static void check_force(const DefElem *d, bool csv, bool want_from, bool is_from, const char *what)
{
    if (d == NULL)
        return;
    if (!csv)
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "COPY %s available only in CSV mode", what);
    if (want_from != is_from)
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "COPY %s only available using COPY %s", what,
                  want_from ? "FROM" : "TO");
}

/* FORMAT binary: the options that make no sense there are errors (as
 * PostgreSQL); the rest of the text defaults stay, since COPY FROM feeds
 * the executor text lines (copy_binary.c). */
static void check_binary(const CopyOptState *st)
{
    if (st->delim)
        err_raise(ERRCODE_SYNTAX_ERROR, "cannot specify DELIMITER in BINARY mode");
    if (st->null_str)
        err_raise(ERRCODE_SYNTAX_ERROR, "cannot specify NULL in BINARY mode");
    if (st->header)
        err_raise(ERRCODE_SYNTAX_ERROR, "cannot specify HEADER in BINARY mode");
}

static void make_options(const CopyStmt *cs, ExecCopyOpts *o, bool *binary)
{
    CopyOptState st;
    collect_options(cs, &st);
    memset(o, 0, sizeof *o);
    *binary = st.format && strcmp(st.format, "binary") == 0;
    if (st.format && strcmp(st.format, "csv") == 0)
        o->csv = true;
    else if (*binary)
        check_binary(&st);
    else if (st.format && strcmp(st.format, "text") != 0)
        err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "COPY format \"%s\" not recognized", st.format);
    o->delim = st.delim ? single_char(st.delim, "delimiter") : (o->csv ? ',' : '\t');
    o->null_str = st.null_str ? st.null_str : (o->csv ? "" : "\\N");
    o->null_len = strlen(o->null_str);
    header_choice(st.header, cs->is_from, o);
    if (!o->csv && st.quote)
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "COPY quote available only in CSV mode");
    if (!o->csv && st.escape)
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "COPY escape available only in CSV mode");
    o->quote = st.quote ? single_char(st.quote, "quote") : '"';
    o->escape = st.escape ? single_char(st.escape, "escape") : o->quote;
    if (o->delim == '\n' || o->delim == '\r')
        err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "COPY delimiter cannot be newline or carriage return");
    if (strchr(o->null_str, '\n') || strchr(o->null_str, '\r'))
        err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "COPY null representation cannot use newline or carriage return");
    if (!o->csv && strchr("\\.abcdefghijklmnopqrstuvwxyz0123456789", o->delim))
        err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "COPY delimiter cannot be \"%c\"", o->delim);
    if (o->csv && o->delim == o->quote)
        err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "COPY delimiter and quote must be different");
    check_force(st.force_quote, o->csv, false, cs->is_from, "force quote");
    check_force(st.force_not_null, o->csv, true, cs->is_from, "force not null");
    check_force(st.force_null, o->csv, true, cs->is_from, "force null");
    if (strchr(o->null_str, o->delim))
        err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "COPY delimiter must not appear in the NULL specification");
    if (o->csv && strchr(o->null_str, o->quote))
        err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "CSV quote character must not appear in the NULL specification");
}

/* ---------- table and columns ---------- */

/* search_path's schemas in order ("$user" = the session user). */
static StoreTable *lookup_in_path(ProtoSession *s, const char *name)
{
    const char *own = store_session_temp_schema(false);   /* temporary tables first, as PostgreSQL */
    StoreTable *temp = own ? store_table_lookup(own, name) : NULL;
    if (temp)
        return temp;
    const char *path = guc_search_path(s->guc);
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", path ? path : "\"$user\", public");
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ')
            tok++;
        size_t len = strlen(tok);
        while (len > 0 && tok[len - 1] == ' ')
            tok[--len] = '\0';
        if (len >= 2 && tok[0] == '"' && tok[len - 1] == '"') {
            tok[len - 1] = '\0';
            tok++;
        }
        const char *schema = strcmp(tok, "$user") == 0 ? s->user : tok;
        if (!store_schema_exists(schema))
            continue;
        StoreTable *t = store_table_lookup(schema, name);
        if (t)
            return t;
    }
    return NULL;
}

static StoreTable *resolve_table(ProtoSession *s, const RangeVar *rv)
{
    StoreTable *t;
    if (rv->schemaname) {
        t = store_schema_exists(rv->schemaname) ? store_table_lookup(rv->schemaname, rv->relname) : NULL;
        if (!t)
            err_raise(ERRCODE_UNDEFINED_TABLE, "relation \"%s.%s\" does not exist", rv->schemaname,
                      rv->relname);
        return t;
    }
    t = lookup_in_path(s, rv->relname);
    if (!t)
        err_raise(ERRCODE_UNDEFINED_TABLE, "relation \"%s\" does not exist", rv->relname);
    return t;
}

/* The COPY's column list as table column indexes (all columns when none). */
static int resolve_columns(const CopyStmt *cs, StoreTable *t, MemArena *a, int **out)
{
    int n = list_len(cs->attlist);
    int tn = store_table_ncols(t);
    int *cols = MEM_NEW_ARRAY(a, int, (n ? n : tn) + 1);
    if (n == 0) {
        for (int j = 0; j < tn; j++)
            cols[j] = j;
        *out = cols;
        return tn;
    }
    for (int i = 0; i < n; i++) {
        const char *name = list_nth(cs->attlist, i);
        int j = store_table_column_index(t, name);
        if (j < 0)
            err_raise(ERRCODE_UNDEFINED_COLUMN, "column \"%s\" of relation \"%s\" does not exist", name,
                      store_table_name(t));
        for (int k = 0; k < i; k++)
            if (cols[k] == j)
                err_raise(ERRCODE_DUPLICATE_COLUMN, "column \"%s\" specified more than once", name);
        cols[i] = j;
    }
    *out = cols;
    return n;
}

/* FORCE_* (a, b) / FORCE_QUOTE *: a flag per COPY column. */
static const bool *force_flags(const CopyStmt *cs, StoreTable *t, const char *opt, const char *label,
                               int ncols, const char *const *names, MemArena *a, bool *all)
{
    const DefElem *d = NULL;
    for (int i = 0; i < list_len(cs->options); i++) {
        const DefElem *e = list_nth(cs->options, i);
        if (strcmp(e->defname, opt) == 0)
            d = e;
    }
    if (d == NULL)
        return NULL;
    bool *flags = MEM_NEW_ARRAY(a, bool, ncols + 1);
    if (IS_A(d->arg, A_Star)) {
        for (int c = 0; c < ncols; c++)
            flags[c] = true;
        if (all)
            *all = true;
        return flags;
    }
    for (int i = 0; i < list_len(d->arg_list); i++) {
        const char *name = list_nth(d->arg_list, i);
        int c = 0;
        while (c < ncols && strcmp(names[c], name) != 0)
            c++;
        if (c == ncols && t && store_table_column_index(t, name) < 0)
            err_raise(ERRCODE_UNDEFINED_COLUMN, "column \"%s\" of relation \"%s\" does not exist", name,
                      store_table_name(t));
        if (c == ncols && !t)
            err_raise(ERRCODE_UNDEFINED_COLUMN, "column \"%s\" does not exist", name);
        if (c == ncols)
            err_raise(ERRCODE_INVALID_COLUMN_REFERENCE, "%s column \"%s\" not referenced by COPY", label, name);
        flags[c] = true;
    }
    return flags;
}

/* ---------- output sink ---------- */

typedef struct CopyOut {
    ProtoConn *c;
    FILE *file;                  /* COPY TO 'file', else NULL */
    const ExecCopyOpts *opts;
    OutputOptions oo;
    MemArena *scratch;
    StrBuf text;
    size_t *row_end;
    uint64_t rows;
    bool binary;                 /* FORMAT binary (copy_binary.c) */
    bool binary_header;          /* its header is still to be sent */
} CopyOut;

static void out_write_file(CopyOut *co, const char *data, size_t len)
{
    if (len > 0 && fwrite(data, 1, len, co->file) != len)
        err_raise(ERRCODE_IO_ERROR, "could not write to COPY file: %s", strerror(errno));
}

/* The lines in co->text as CopyData messages, one per row. */
static void out_send_rows(CopyOut *co, uint32_t n)
{
    size_t start = 0;
    for (uint32_t r = 0; r < n; r++) {
        size_t m = proto_msg_begin(&co->c->out, 'd');
        strbuf_append(&co->c->out, co->text.data + start, co->row_end[r] - start);
        proto_msg_finish(&co->c->out, m);
        start = co->row_end[r];
    }
    if (co->c->out.len >= PROTO_SEND_FLUSH)
        proto_conn_flush(co->c);
}

static void copy_out_batch(void *ctx, const Batch *b)
{
    CopyOut *co = ctx;
    strbuf_reset(&co->text);
    if (co->binary && co->binary_header)
        proto_copy_binary_header(&co->text);   /* in the first row's message, as PostgreSQL (psycopg needs it) */
    co->binary_header = false;
    if (co->binary)
        proto_copy_binary_batch(b, co->scratch, &co->text, co->row_end);
    else
        exec_copy_format_batch(b, co->opts, &co->oo, co->scratch, &co->text, co->row_end);
    if (co->file)
        out_write_file(co, co->text.data, co->text.len);
    else
        out_send_rows(co, b->count);
    co->rows += b->count;
    mem_arena_reset(co->scratch);
}

/* The binary format's trailer as one CopyData message (or file write),
 * after the header when no row carried it. */
static void copy_out_trailer(CopyOut *co)
{
    strbuf_reset(&co->text);
    if (co->binary_header)
        proto_copy_binary_header(&co->text);
    co->binary_header = false;
    proto_copy_binary_trailer(&co->text);
    co->row_end[0] = co->text.len;
    if (co->file)
        out_write_file(co, co->text.data, co->text.len);
    else
        out_send_rows(co, 1);
}

static void put_ident(StrBuf *sb, const char *name)
{
    strbuf_append_char(sb, '"');
    for (const char *p = name; *p; p++) {
        if (*p == '"')
            strbuf_append_char(sb, '"');
        strbuf_append_char(sb, *p);
    }
    strbuf_append_char(sb, '"');
}

/* Plan COPY's query: its own (COPY (query) TO) or SELECT cols FROM t. */
static const Plan *plan_copy_query(ProtoConn *c, const char *sql, const RawStmt *raw,
                                   const CopyStmt *cs, MemArena *a)
{
    PlanContext pc = {.arena = a, .query_text = sql, .guc = c->session->guc};
    if (cs->query) {
        RawStmt *r = MEM_NEW(a, RawStmt);
        *r = *raw;
        r->stmt = cs->query;
        return plan_statement_fixed_params(&pc, r);
    }
    StoreTable *t = resolve_table(c->session, cs->relation);
    int *cols;
    int n = resolve_columns(cs, t, a, &cols);
    StrBuf q;
    strbuf_init(&q);
    strbuf_append_str(&q, "SELECT ");
    for (int i = 0; i < n; i++) {
        if (i > 0)
            strbuf_append_str(&q, ", ");
        put_ident(&q, store_table_column(t, cols[i])->name);
    }
    strbuf_append_str(&q, " FROM ");
    put_ident(&q, store_table_schema(t));
    strbuf_append_char(&q, '.');
    put_ident(&q, store_table_name(t));
    char *text = mem_strndup(a, q.data, q.len);
    strbuf_free(&q);
    List *stmts = parse_sql(a, text);
    pc.query_text = text;
    return plan_statement_fixed_params(&pc, list_nth(stmts, 0));
}

static FILE *open_server_file(ProtoConn *c, const CopyStmt *cs)
{
    if (cs->is_program)
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "COPY PROGRAM is not supported");
    if (!c->session->is_superuser) {
        ErrorData *e = err_begin(ERRCODE_INSUFFICIENT_PRIVILEGE);
        err_message(e, "must be superuser or have privileges of the %s role to COPY %s a file",
                    cs->is_from ? "pg_read_server_files" : "pg_write_server_files",
                    cs->is_from ? "from" : "to");
        err_hint(e, "Anyone can COPY to stdout or from stdin. psql's \\copy command also works for anyone.");
        err_throw();
    }
    if (!cs->is_from && cs->filename[0] != '/')
        err_raise(ERRCODE_INVALID_NAME, "relative path not allowed for COPY to file");
    FILE *f = fopen(cs->filename, cs->is_from ? "rb" : "wb");
    if (f == NULL) {
        int en = errno;
        ErrorData *e = err_begin(en == ENOENT ? ERRCODE_UNDEFINED_FILE : ERRCODE_IO_ERROR);
        err_message(e, "could not open file \"%s\" for %s: %s", cs->filename,
                    cs->is_from ? "reading" : "writing", strerror(en));
        err_hint(e, "COPY %s instructs the PostgreSQL server process to %s a file. You may want a "
                    "client-side facility such as psql's \\copy.",
                 cs->is_from ? "FROM" : "TO", cs->is_from ? "read" : "write");
        err_throw();
    }
    return f;
}

/* Everything COPY TO needs to release after an error. */
typedef struct CopyToState {
    CopyOut co;
    ExecPortal *portal;
} CopyToState;

static void copy_to_run(ProtoConn *c, const char *sql, const RawStmt *raw, const CopyStmt *cs,
                        const ExecCopyOpts *base, MemArena *a, CopyToState *st, bool binary)
{
    const Plan *plan = plan_copy_query(c, sql, raw, cs, a);
    if (plan->kind != PLAN_STMT_QUERY || plan->ncols == 0)
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "COPY query must have a RETURNING clause");
    const char **names = MEM_NEW_ARRAY(a, const char *, plan->ncols);
    for (int i = 0; i < plan->ncols; i++)
        names[i] = plan->cols[i].name;
    ExecCopyOpts *o = MEM_NEW(a, ExecCopyOpts);
    *o = *base;
    o->force_quote = force_flags(cs, cs->relation ? resolve_table(c->session, cs->relation) : NULL, "force_quote", "FORCE_QUOTE", plan->ncols, names, a, &o->force_quote_all);
    st->portal = exec_portal_create(c->session->exec, plan, NULL, 0, a);
    CopyOut *co = &st->co;
    co->c = c;
    co->opts = o;
    co->oo = (OutputOptions){.extra_float_digits = guc_extra_float_digits(c->session->guc)};
    co->scratch = mem_arena_create("copy out");
    co->row_end = MEM_NEW_ARRAY(a, size_t, VEC_CAPACITY);
    co->binary = binary;
    if (binary) {
        SqlType *types = MEM_NEW_ARRAY(a, SqlType, plan->ncols);
        for (int i = 0; i < plan->ncols; i++)
            types[i] = plan->cols[i].type;
        proto_copy_binary_check_types(types, plan->ncols);
    }
    if (cs->filename)
        co->file = open_server_file(c, cs);
    else {
        size_t m = proto_msg_begin(&c->out, 'H');
        strbuf_append_char(&c->out, binary ? 1 : 0);
        strbuf_append_be16(&c->out, (uint16_t)plan->ncols);
        for (int i = 0; i < plan->ncols; i++)
            strbuf_append_be16(&c->out, binary ? 1 : 0);
        proto_msg_finish(&c->out, m);
    }
    co->binary_header = binary;
    if (o->header) {
        StrBuf h;
        strbuf_init(&h);
        exec_copy_format_header(plan->ncols, names, o, &h);
        co->row_end[0] = h.len;
        strbuf_reset(&co->text);
        strbuf_append(&co->text, h.data, h.len);
        strbuf_free(&h);
        if (co->file)
            out_write_file(co, co->text.data, co->text.len);
        else
            out_send_rows(co, 1);
    }
    ExecSink sink = {.ctx = co, .on_batch = copy_out_batch};
    while (!exec_portal_run(st->portal, 0, &sink)) {
    }
    if (binary)
        copy_out_trailer(co);
    if (co->file) {
        FILE *f = co->file;
        co->file = NULL;
        if (fclose(f) != 0)
            err_raise(ERRCODE_IO_ERROR, "could not close file \"%s\": %s", cs->filename, strerror(errno));
    } else {
        proto_send_simple(c, 'c');
    }
}

static void copy_to_cleanup(CopyToState *st)
{
    if (st->portal)
        exec_portal_close(st->portal);
    st->portal = NULL;
    if (st->co.file)
        fclose(st->co.file);
    st->co.file = NULL;
    strbuf_free(&st->co.text);
    mem_arena_destroy(st->co.scratch);
    st->co.scratch = NULL;
}

static uint64_t copy_to(ProtoConn *c, const char *sql, const RawStmt *raw, const CopyStmt *cs,
                        const ExecCopyOpts *o, MemArena *a, bool binary)
{
    CopyToState *st = MEM_NEW(a, CopyToState);
    strbuf_init(&st->co.text);
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        copy_to_run(c, sql, raw, cs, o, a, st, binary);
        err_pop(&jmp);
    } else {
        copy_to_cleanup(st);
        err_rethrow();
    }
    uint64_t rows = st->co.rows;
    copy_to_cleanup(st);
    return rows;
}

/* ---------- COPY FROM ---------- */

static void capture_value(void *ctx, const Batch *b)
{
    Value *v = ctx;
    if (b->count > 0)
        vec_get_value(&b->cols[0], batch_row(b, 0), v);
}

/*
 * Values for the table columns a column list leaves out: NULL, or the
 * DEFAULT evaluated once for the whole COPY (volatile defaults such as
 * nextval() are refused rather than repeated on every row).
 */
static const Value *eval_defaults(ProtoConn *c, StoreTable *t, const int *cols, int ncols, MemArena *a)
{
    int tn = store_table_ncols(t);
    Value *fill = MEM_NEW_ARRAY(a, Value, tn);
    for (int j = 0; j < tn; j++) {
        fill[j].is_null = true;
        bool listed = false;
        for (int i = 0; i < ncols; i++)
            listed = listed || cols[i] == j;
        const StoreColumnDef *d = store_table_column(t, j);
        if (listed || d->default_text == NULL)
            continue;
        if (strstr(d->default_text, "nextval") || strstr(d->default_text, "random") ||
            strstr(d->default_text, "clock_timestamp"))
            err_raise(ERRCODE_FEATURE_NOT_SUPPORTED,
                      "COPY with a column list that leaves out column \"%s\" (volatile DEFAULT) is not supported",
                      d->name);
        char tbuf[128];
        char *sql = mem_printf(a, "SELECT CAST((%s) AS %s)", d->default_text,
                               type_format(d->type, tbuf, sizeof tbuf));
        PlanContext pc = {.arena = a, .query_text = sql, .guc = c->session->guc};
        const Plan *plan = plan_statement_fixed_params(&pc, list_nth(parse_sql(a, sql), 0));
        ExecPortal *p = exec_portal_create(c->session->exec, plan, NULL, 0, a);
        ExecSink sink = {.ctx = &fill[j], .on_batch = capture_value};
        while (!exec_portal_run(p, 0, &sink)) {
        }
        exec_portal_close(p);
        if (!fill[j].is_null && type_phys(d->type) == PHYS_STR)
            fill[j].u.str.ptr = mem_strndup(a, fill[j].u.str.ptr, fill[j].u.str.len);
    }
    return fill;
}

/* CopyData messages until CopyDone (CopyFail raises 57014); with bin,
 * through the binary format's reader (copy_binary.c). */
static void copy_in_stdin(ProtoConn *c, ExecCopyIn *ci, int ncols, ProtoCopyBinIn *bin)
{
    size_t m = proto_msg_begin(&c->out, 'G');
    strbuf_append_char(&c->out, bin ? 1 : 0);
    strbuf_append_be16(&c->out, (uint16_t)ncols);
    for (int i = 0; i < ncols; i++)
        strbuf_append_be16(&c->out, bin ? 1 : 0);
    proto_msg_finish(&c->out, m);
    proto_conn_flush(c);
    for (;;) {
        char type = proto_conn_read_message(c, false);
        switch (type) {
        case 'd':
            if (bin)
                proto_copy_binary_in_data(bin, c->msg.data, c->msg.len);
            else
                exec_copy_in_data(ci, c->msg.data, c->msg.len);
            break;
        case 'c':
            if (bin)
                proto_copy_binary_in_end(bin);
            return;
        case 'f': {
            ProtoMsg fm = {.data = c->msg.data, .len = c->msg.len, .pos = 0};
            exec_copy_in_mark_line(ci);   /* PostgreSQL's context: the line being read */
            err_raise(ERRCODE_QUERY_CANCELED, "COPY from stdin failed: %s", proto_msg_text(&fm));
        }
        case 'H':
        case 'S':
            break;   /* ignored during COPY, as PostgreSQL */
        default:
            err_raise(ERRCODE_PROTOCOL_VIOLATION, "unexpected message type 0x%02X during COPY from stdin",
                      (unsigned char)type);
        }
    }
}

static void copy_in_file(FILE *f, ExecCopyIn *ci, const char *name, ProtoCopyBinIn *bin)
{
    char *buf = malloc(COPY_FILE_CHUNK);
    if (buf == NULL)
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    size_t n;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        while ((n = fread(buf, 1, COPY_FILE_CHUNK, f)) > 0) {
            if (bin)
                proto_copy_binary_in_data(bin, buf, n);
            else
                exec_copy_in_data(ci, buf, n);
        }
        if (ferror(f))
            err_raise(ERRCODE_IO_ERROR, "could not read from COPY file \"%s\": %s", name, strerror(errno));
        if (bin)
            proto_copy_binary_in_end(bin);
        err_pop(&jmp);
    } else {
        free(buf);
        err_rethrow();
    }
    free(buf);
}

typedef struct CopyFromState {
    ExecCopyIn *ci;
    FILE *file;
    ProtoCopyBinIn *bin;   /* FORMAT binary, else NULL */
} CopyFromState;

static uint64_t copy_from_run(ProtoConn *c, const CopyStmt *cs, const ExecCopyOpts *base, MemArena *a,
                              CopyFromState *st, bool binary)
{
    if (cs->where_clause)
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "COPY FROM ... WHERE is not supported");
    StoreTable *t = resolve_table(c->session, cs->relation);
    int *cols;
    int n = resolve_columns(cs, t, a, &cols);
    const char **names = MEM_NEW_ARRAY(a, const char *, n + 1);
    for (int i = 0; i < n; i++)
        names[i] = store_table_column(t, cols[i])->name;
    ExecCopyOpts *o = MEM_NEW(a, ExecCopyOpts);
    *o = *base;
    o->force_not_null = force_flags(cs, t, "force_not_null", "FORCE_NOT_NULL", n, names, a, NULL);
    o->force_null = force_flags(cs, t, "force_null", "FORCE_NULL", n, names, a, NULL);
    const Value *fill = eval_defaults(c, t, cols, n, a);
    if (cs->filename)
        st->file = open_server_file(c, cs);
    st->ci = exec_copy_in_begin(c->session->exec, t, n, cols, fill, o, store_table_name(t));
    if (binary) {
        SqlType *types = MEM_NEW_ARRAY(a, SqlType, n + 1);
        for (int i = 0; i < n; i++)
            types[i] = store_table_column(t, cols[i])->type;
        st->bin = proto_copy_binary_in_begin(st->ci, n, types, a);
        proto_copy_binary_in_names(st->bin, store_table_name(t), names);   /* its error context */
    }
    if (st->file)
        copy_in_file(st->file, st->ci, cs->filename, st->bin);
    else
        copy_in_stdin(c, st->ci, n, st->bin);
    return exec_copy_in_finish(st->ci);
}

static uint64_t copy_from(ProtoConn *c, const CopyStmt *cs, const ExecCopyOpts *o, MemArena *a, bool binary)
{
    CopyFromState *st = MEM_NEW(a, CopyFromState);
    uint64_t rows = 0;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        rows = copy_from_run(c, cs, o, a, st, binary);
        err_pop(&jmp);
    } else {
        char ctx[512];
        exec_copy_in_context(st->ci, ctx, sizeof ctx);
        proto_copy_binary_in_context(st->bin, ctx, sizeof ctx);   /* binary: PostgreSQL's own */
        proto_error_set_context(ctx);
        exec_copy_in_free(st->ci);
        proto_copy_binary_in_free(st->bin);
        if (st->file)
            fclose(st->file);
        err_rethrow();
    }
    exec_copy_in_free(st->ci);
    proto_copy_binary_in_free(st->bin);
    if (st->file)
        fclose(st->file);
    return rows;
}

void proto_copy(ProtoConn *c, const char *sql, const RawStmt *raw, MemArena *arena, char *tag,
                size_t tag_size)
{
    const CopyStmt *cs = (const CopyStmt *)raw->stmt;
    proto_error_set_context("");
    ExecCopyOpts o;
    bool binary;
    copy_sql = sql;
    make_options(cs, &o, &binary);
    copy_sql = NULL;
    uint64_t rows = cs->is_from ? copy_from(c, cs, &o, arena, binary) : copy_to(c, sql, raw, cs, &o, arena, binary);
    snprintf(tag, tag_size, "COPY %llu", (unsigned long long)rows);
}
