/*
 * plan_sequence.c — sequence statements become UTIL_SEQUENCE plans
 * (PlanSeqStmt, plan.h) that executor/utility_seq.c carries out:
 *
 *  - CREATE SEQUENCE [IF NOT EXISTS] s options, ALTER SEQUENCE [IF EXISTS]
 *    s options, DROP SEQUENCE [IF EXISTS] a, b: options are parsed here
 *    (42601 conflicting or redundant options, 22P02 for a non-integer, 22023
 *    for AS a non-integer type, OWNED BY resolved to a table column); their
 *    cross-checks against the current definition (PostgreSQL's
 *    init_params) happen at execution.
 *  - CREATE TABLE with serial / bigserial / smallserial columns or
 *    GENERATED {ALWAYS | BY DEFAULT} AS IDENTITY: the statement is rewritten
 *    before the ordinary CREATE TABLE planning (plan_utility.c) — the type
 *    becomes int4/int8/int2, the column NOT NULL with DEFAULT
 *    nextval('t_col_seq') — and the plan is wrapped so that the executor
 *    creates the owned sequences with the table (op 't').
 *  - TRUNCATE ... RESTART IDENTITY: the ordinary TRUNCATE plan wrapped
 *    (op 'r'); the executor truncates, then restarts the tables' owned
 *    sequences.
 *  - DISCARD SEQUENCES (op 'x'): the session forgets currval/lastval;
 *    DISCARD TEMP (op 'T'): the session's temporary tables are dropped;
 *    DISCARD PLANS is a no-op.
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/error.h"
#include "parser/parser.h"
#include "storage/storage.h"

static Plan *seq_plan(Binder *b, char op, const char *command, PlanSeqStmt **out)
{
    Plan *p = plan__new_plan(b, PLAN_STMT_UTILITY, command);
    UtilityStmt *u = MEM_NEW(b->arena, UtilityStmt);
    u->kind = UTIL_SEQUENCE;
    u->seq = MEM_NEW(b->arena, PlanSeqStmt);
    u->seq->op = op;
    p->utility = u;
    *out = u->seq;
    return p;
}

/* PostgreSQL's defGetInt64: integers, or numeric text that int8in accepts. */
static int64_t opt_int64(Binder *b, const DefElem *d)
{
    const A_Const *c = (const A_Const *)d->arg;
    if (!IS_A(c, A_Const))
        plan__error_at(b, ERRCODE_SYNTAX_ERROR, d->node.location, "%s requires a numeric value", d->defname);
    if (c->kind == CONST_INTEGER)
        return c->ival;
    const char *txt = c->text ? c->text : "";
    char *end = NULL;
    errno = 0;
    long long v = strtoll(txt, &end, 10);
    if (c->kind != CONST_NUMERIC || *txt == '\0' || *end != '\0')
        err_raise(ERRCODE_INVALID_TEXT_REPRESENTATION, "invalid input syntax for type bigint: \"%s\"", txt);
    if (errno == ERANGE)
        err_raise(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE, "value \"%s\" is out of range for type bigint", txt);
    return v;
}

static void opt_owned(Binder *b, const DefElem *d, PlanSeqOptions *o)
{
    int n = list_len(d->arg_list);
    if (n == 1 && strcmp(list_nth(d->arg_list, 0), "none") == 0) {
        o->owned_none = true;
        return;
    }
    if (n < 2)
        plan__error_hint(b, ERRCODE_SYNTAX_ERROR, -1, "Specify OWNED BY table.column or OWNED BY NONE.",
                         "invalid OWNED BY option");
    const char *schema = n >= 3 ? list_nth(d->arg_list, n - 3) : NULL;
    const char *table = list_nth(d->arg_list, n - 2), *col = list_nth(d->arg_list, n - 1);
    StoreTable *t = plan__lookup_table(b, schema, table, -1, false);
    int ci = store_table_column_index(t, col);
    if (ci < 0)
        err_raise(ERRCODE_UNDEFINED_COLUMN, "column \"%s\" of relation \"%s\" does not exist", col, table);
    o->owned_table = store_table_oid(t);
    o->owned_col = ci;
}

static void opt_type(Binder *b, const DefElem *d, PlanSeqOptions *o)
{
    SqlType t = plan__resolve_type_name(b, (const TypeName *)d->arg);
    if (t.oid != TYPE_INT2 && t.oid != TYPE_INT4 && t.oid != TYPE_INT8)
        err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "sequence type must be smallint, integer, or bigint");
    o->type_oid = t.oid;
}

/* One option into o; a repeated option is 42601. */
static void seq_option(Binder *b, const DefElem *d, PlanSeqOptions *o, bool *seen, const char *const *names)
{
    int k = 0;
    while (names[k] && strcmp(names[k], d->defname) != 0)
        k++;
    if (!names[k])
        plan__error_at(b, ERRCODE_SYNTAX_ERROR, d->node.location, "option \"%s\" not recognized", d->defname);
    if (seen[k])
        plan__error_at(b, ERRCODE_SYNTAX_ERROR, d->node.location, "conflicting or redundant options");
    seen[k] = true;
    switch (k) {
    case 0: opt_type(b, d, o); break;
    case 1: o->has_increment = true; o->increment = opt_int64(b, d); break;
    case 2: o->has_start = true; o->start = opt_int64(b, d); break;
    case 3:
        o->has_restart = true;
        o->restart_value_given = d->arg != NULL;
        if (d->arg)
            o->restart = opt_int64(b, d);
        break;
    case 4:
        o->has_min = true;
        o->no_min = d->arg == NULL;
        if (d->arg)
            o->min_value = opt_int64(b, d);
        break;
    case 5:
        o->has_max = true;
        o->no_max = d->arg == NULL;
        if (d->arg)
            o->max_value = opt_int64(b, d);
        break;
    case 6: o->has_cache = true; o->cache = opt_int64(b, d); break;
    case 7: o->has_cycle = true; o->cycle = ((const A_Const *)d->arg)->bval; break;
    case 8: o->has_owned = true; opt_owned(b, d, o); break;
    default: break;
    }
}

static void seq_options(Binder *b, const List *opts, PlanSeqOptions *o, bool for_create)
{
    static const char *const names[] = {"as",       "increment", "start", "restart", "minvalue",
                                        "maxvalue", "cache",     "cycle", "owned_by", NULL};
    bool seen[9] = {0};
    for (int i = 0; i < list_len(opts); i++) {
        const DefElem *d = list_nth(opts, i);
        if (for_create && strcmp(d->defname, "restart") == 0)
            plan__error_at(b, ERRCODE_SYNTAX_ERROR, d->node.location, "option \"restart\" not recognized");
        seq_option(b, d, o, seen, names);
    }
}

static Plan *plan_create_seq(Binder *b, const CreateSeqStmt *s)
{
    PlanSeqStmt *q;
    Plan *p = seq_plan(b, 'c', "CREATE SEQUENCE", &q);
    q->schema = plan__creation_schema_p(b, s->sequence->schemaname, s->sequence->relpersistence, -1);
    q->name = s->sequence->relname;
    q->if_not_exists = s->if_not_exists;
    seq_options(b, s->options, &q->options, true);
    return p;
}

static Plan *plan_alter_seq(Binder *b, const AlterSeqStmt *s)
{
    PlanSeqStmt *q;
    Plan *p = seq_plan(b, 'a', "ALTER SEQUENCE", &q);
    q->schema = s->sequence->schemaname;
    q->name = s->sequence->relname;
    q->if_not_exists = s->missing_ok;
    seq_options(b, s->options, &q->options, false);
    return p;
}

static Plan *plan_drop_seq(Binder *b, const DropStmt *s)
{
    if (s->cascade)
        err_raise(ERRCODE_FEATURE_NOT_SUPPORTED, "DROP SEQUENCE ... CASCADE is not supported yet");
    PlanSeqStmt *q;
    Plan *p = seq_plan(b, 'd', "DROP SEQUENCE", &q);
    q->if_not_exists = s->missing_ok;
    for (int i = 0; i < list_len(s->objects); i++) {
        const RangeVar *rv = list_nth(s->objects, i);
        q->names = list_append(b->arena, q->names, (void *)(rv->schemaname ? rv->schemaname : ""));
        q->names = list_append(b->arena, q->names, (void *)rv->relname);
    }
    return p;
}

/* DISCARD SEQUENCES forgets the session's currval/lastval (op 'x');
 * DISCARD TEMP drops the session's temporary tables (op 'T'); DISCARD
 * PLANS has nothing to drop (no plan outlives its statement but prepared
 * statements, which PostgreSQL keeps too). DISCARD ALL, what connection
 * poolers send between clients, is RESET ALL + DEALLOCATE ALL + DISCARD
 * SEQUENCES + DISCARD TEMP, carried out by the executor (UTIL_RESET 'D')
 * so a transaction block can refuse it. */
static Plan *plan_discard(Binder *b, const DiscardStmt *d)
{
    PlanSeqStmt *q;
    if (d->target == DISCARD_SEQUENCES)
        return seq_plan(b, 'x', "DISCARD SEQUENCES", &q);
    if (d->target == DISCARD_ALL) {
        Plan *p = plan__new_plan(b, PLAN_STMT_UTILITY, "DISCARD ALL");
        UtilityStmt *u = p->utility = MEM_NEW(b->arena, UtilityStmt);
        u->kind = UTIL_RESET;
        u->ddl3_op = 'D';
        u->discard_prepared = plan_session_release;
        u->discard_slot = b->ctx->session_state;
        return p;
    }
    if (d->target == DISCARD_TEMP)
        return seq_plan(b, 'T', "DISCARD TEMP", &q);
    Plan *p = plan__new_plan(b, PLAN_STMT_UTILITY, "DISCARD PLANS");
    p->utility = MEM_NEW(b->arena, UtilityStmt);
    p->utility->kind = UTIL_NOOP;
    return p;
}

Plan *plan__plan_sequence(Binder *b, const Node *stmt)
{
    if (IS_A(stmt, DiscardStmt))
        return plan_discard(b, (const DiscardStmt *)stmt);
    if (IS_A(stmt, CreateSeqStmt))
        return plan_create_seq(b, (const CreateSeqStmt *)stmt);
    if (IS_A(stmt, AlterSeqStmt))
        return plan_alter_seq(b, (const AlterSeqStmt *)stmt);
    return plan_drop_seq(b, (const DropStmt *)stmt);
}

/* ---- serial and identity columns in CREATE TABLE ---- */

/* int4/int8/int2 for serial type names, 0 otherwise. */
static uint32_t serial_type(const TypeName *tn)
{
    if (!tn || tn->array_bounds || tn->typmods ||
        (tn->schemaname && strcmp(tn->schemaname, "pg_catalog") != 0))
        return 0;
    static const struct { const char *name; uint32_t oid; } map[] = {
        {"serial", TYPE_INT4},  {"serial4", TYPE_INT4},     {"bigserial", TYPE_INT8},
        {"serial8", TYPE_INT8}, {"smallserial", TYPE_INT2}, {"serial2", TYPE_INT2},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(tn->name, map[i].name) == 0)
            return map[i].oid;
    return 0;
}

static const char *type_name_of(uint32_t oid)
{
    return oid == TYPE_INT8 ? "int8" : oid == TYPE_INT2 ? "int2" : "int4";
}

/* PostgreSQL's ChooseRelationName(table, column, "seq"): t_col_seq, made
 * unique in the schema with a number, names clipped to 63 bytes. */
static const char *choose_seq_name(Binder *b, const char *schema, const char *table, const char *col,
                                   const PlanSeqStmt *q)
{
    for (int n = 0;; n++) {
        char suffix[16];
        snprintf(suffix, sizeof suffix, n ? "seq%d" : "seq", n);
        size_t tl = strlen(table), cl = strlen(col), room = 63 - strlen(suffix) - 2;
        while (tl + cl > room) {   /* clip the longer part first, as PostgreSQL */
            if (tl >= cl) tl--;
            else cl--;
        }
        const char *name = mem_printf(b->arena, "%.*s_%.*s_%s", (int)tl, table, (int)cl, col, suffix);
        bool taken = store_seq_lookup(schema, name) || store_table_lookup(schema, name);
        for (int i = 0; i < q->nowned && !taken; i++)
            taken = strcmp(q->owned[i].seq_name, name) == 0;
        if (!taken)
            return name;
    }
}

static Constraint *make_constraint(Binder *b, ConstrType type, int location)
{
    Constraint *c = MEM_NEW(b->arena, Constraint);
    c->node.tag = T_Constraint;
    c->node.location = location;
    c->contype = type;
    return c;
}

/* Rewrite one column when serial/identity; records the owned sequence. */
static ColumnDef *rewrite_column(Binder *b, const CreateStmt *s, const char *schema, const ColumnDef *cd,
                                 PlanSeqStmt *q)
{
    uint32_t st = serial_type(cd->type_name);
    const Constraint *ident = NULL;
    bool has_default = false;
    for (int k = 0; k < list_len(cd->constraints); k++) {
        const Constraint *c = list_nth(cd->constraints, k);
        if (c->contype == CONSTR_IDENTITY) {
            if (ident)
                err_raise(ERRCODE_SYNTAX_ERROR, "multiple identity specifications for column \"%s\" of table \"%s\"",
                          cd->colname, s->relation->relname);
            ident = c;
        }
        has_default |= c->contype == CONSTR_DEFAULT;
    }
    if (!st && !ident)
        return NULL;
    if (st && has_default)
        err_raise(ERRCODE_SYNTAX_ERROR, "multiple default values specified for column \"%s\" of table \"%s\"",
                  cd->colname, s->relation->relname);
    if (ident && has_default)
        err_raise(ERRCODE_SYNTAX_ERROR, "both default and identity specified for column \"%s\" of table \"%s\"",
                  cd->colname, s->relation->relname);
    PlanSeqOwned *o = &q->owned[q->nowned];
    if (ident) {
        SqlType t = plan__resolve_type_name(b, cd->type_name);
        if (t.oid != TYPE_INT2 && t.oid != TYPE_INT4 && t.oid != TYPE_INT8)
            err_raise(ERRCODE_INVALID_PARAMETER_VALUE, "identity column type must be smallint, integer, or bigint");
        st = t.oid;
        seq_options(b, ident->options, &o->options, true);
        if (o->options.has_owned)
            err_raise(ERRCODE_SYNTAX_ERROR, "option \"owned_by\" not recognized");
        o->identity = ident->generated_when == 'a' ? 'a' : 'd';
    } else {
        o->identity = 's';
    }
    o->options.type_oid = st;
    o->seq_name = choose_seq_name(b, schema, s->relation->relname, cd->colname, q);
    q->nowned++;
    ColumnDef *n = MEM_NEW(b->arena, ColumnDef);
    *n = *cd;
    TypeName *tn = MEM_NEW(b->arena, TypeName);
    *tn = *cd->type_name;
    tn->name = type_name_of(st);
    tn->schemaname = NULL;
    n->type_name = tn;
    n->constraints = NULL;
    for (int k = 0; k < list_len(cd->constraints); k++) {
        Constraint *c = list_nth(cd->constraints, k);
        if (c->contype != CONSTR_IDENTITY)
            n->constraints = list_append(b->arena, n->constraints, c);
    }
    n->constraints = list_append(b->arena, n->constraints, make_constraint(b, CONSTR_NOTNULL, cd->node.location));
    Constraint *def = make_constraint(b, CONSTR_DEFAULT, cd->node.location);
    const char *qual = strcmp(schema, "public") == 0 ? o->seq_name : mem_printf(b->arena, "%s.%s", schema, o->seq_name);
    def->expr_text = mem_printf(b->arena, "nextval('%s')", qual);
    def->raw_expr = parse_expression(b->arena, def->expr_text);
    n->constraints = list_append(b->arena, n->constraints, def);
    return n;
}

const CreateStmt *plan__seq_rewrite_create(Binder *b, const CreateStmt *s, PlanSeqStmt **out)
{
    *out = NULL;
    /* tables and sequences share names (the store's catalog knows only tables) */
    const char *where = plan__creation_schema_p(b, s->relation->schemaname, s->relation->relpersistence,
                                                s->relation->node.location);
    if (!s->if_not_exists && store_seq_lookup(where, s->relation->relname))
        err_raise(ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists", s->relation->relname);
    int ncols = list_len(s->table_elts);
    PlanSeqStmt *q = MEM_NEW(b->arena, PlanSeqStmt);
    q->op = 't';
    q->owned = MEM_NEW_ARRAY(b->arena, PlanSeqOwned, ncols + 1);
    const char *schema = NULL;
    CreateStmt *copy = NULL;
    for (int i = 0, ci = 0; i < ncols; i++) {
        const ColumnDef *cd = list_nth(s->table_elts, i);
        if (!IS_A(cd, ColumnDef))
            continue;
        if (!schema && (serial_type(cd->type_name) || cd->constraints))
            schema = where;
        ColumnDef *n = schema ? rewrite_column(b, s, schema, cd, q) : NULL;
        if (n) {
            if (!copy) {
                copy = MEM_NEW(b->arena, CreateStmt);
                *copy = *s;
                copy->table_elts = NULL;
                for (int k = 0; k < ncols; k++)
                    copy->table_elts = list_append(b->arena, copy->table_elts, list_nth(s->table_elts, k));
            }
            q->owned[q->nowned - 1].column = ci;
            copy->table_elts->items[i] = n;
        }
        ci++;
    }
    if (!copy)
        return s;
    *out = q;
    return copy;
}

Plan *plan__seq_wrap(Binder *b, Plan *inner, PlanSeqStmt *q)
{
    if (!q)
        return inner;
    q->create_table = inner->utility;
    PlanSeqStmt *w;
    Plan *p = seq_plan(b, q->op, inner->command, &w);
    *w = *q;
    return p;
}

Plan *plan__seq_truncate(Binder *b, const TruncateStmt *s, Plan *inner)
{
    if (!s->restart_seqs)
        return inner;
    PlanSeqStmt *q = MEM_NEW(b->arena, PlanSeqStmt);
    q->op = 'r';
    return plan__seq_wrap(b, inner, q);
}

/* ---- SELECT * FROM a sequence ---- */

/* The sequence a FROM-clause RangeVar names (a table of the same name in
 * the same schema of search_path comes first, as relations share names). */
static const char *seq_from_name(Binder *b, const RangeVar *rv)
{
    if (rv->schemaname)
        return store_schema_exists(rv->schemaname) && store_seq_lookup(rv->schemaname, rv->relname)
                   ? rv->schemaname : NULL;
    const char *schemas[16];
    int n = plan__search_schemas(b, schemas, 16);
    for (int i = 0; i < n; i++) {
        if (store_table_lookup(schemas[i], rv->relname))
            return NULL;
        if (store_seq_lookup(schemas[i], rv->relname))
            return schemas[i];
    }
    return NULL;
}

PlanNode *plan__seq_expand(Binder *b, const RangeVar *rv, const char ***names)
{
    const char *schema = seq_from_name(b, rv);
    if (!schema)
        return NULL;
    /* PostgreSQL shows the sequence's one row: last_value, log_cnt, is_called,
     * read when the query runs (strata_sequence_state, funcs_sequence.c). */
    const char *q = mem_printf(b->arena, "'\"%s\".\"%s\"'", schema, rv->relname);
    const char *sql = mem_printf(b->arena,
                                 "SELECT strata_sequence_state(%s, 1) AS last_value, "
                                 "strata_sequence_state(%s, 2) AS log_cnt, "
                                 "strata_sequence_state(%s, 3) = 1 AS is_called", q, q, q);
    List *stmts = parse_sql(b->arena, sql);
    const RawStmt *raw = list_nth(stmts, 0);
    Binder child;
    plan__child_binder(&child, b, false);
    child.query_text = NULL;
    child.ctes = NULL;
    SelectResult r = plan__plan_select(&child, (const SelectStmt *)raw->stmt);
    plan__child_done(b, &child);
    const char **nm = MEM_NEW_ARRAY(b->arena, const char *, r.ncols + 1);
    for (int i = 0; i < r.ncols; i++)
        nm[i] = r.cols[i].name;
    *names = nm;
    return r.root;
}
