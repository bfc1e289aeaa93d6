/*
 * utility_seq.c — UTIL_SEQUENCE statements (planner/plan_sequence.c):
 * CREATE / ALTER / DROP SEQUENCE, CREATE TABLE with serial and identity
 * columns, TRUNCATE ... RESTART IDENTITY, and the owned sequences DROP
 * TABLE takes along.
 *
 * apply_options is PostgreSQL 15's init_params: options applied to the
 * current definition (or the defaults for CREATE) in PostgreSQL's order,
 * with its checks and messages (22023). CREATE/ALTER/DROP SEQUENCE are
 * transactional as in PostgreSQL (storage/sequence.c: undone by ROLLBACK,
 * an ALTER with options other than OWNED BY also restores the state, as
 * PostgreSQL's new relfilenode does); nextval/setval are not.
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

#include <stdio.h>
#include <string.h>
#include "common/error.h"
#include "common/guc.h"

uint32_t exec__seq_find(const char *schema, const char *name, bool *is_table);

static const char *seq_type_name(uint32_t oid)
{
    return oid == TYPE_INT2 ? "smallint" : oid == TYPE_INT4 ? "integer" : "bigint";
}

static void type_bounds(uint32_t oid, int64_t *lo, int64_t *hi)
{
    *lo = oid == TYPE_INT2 ? INT16_MIN : oid == TYPE_INT4 ? INT32_MIN : INT64_MIN;
    *hi = oid == TYPE_INT2 ? INT16_MAX : oid == TYPE_INT4 ? INT32_MAX : INT64_MAX;
}

#define BAD_PARAM(...) err_raise(ERRCODE_INVALID_PARAMETER_VALUE, __VA_ARGS__)

/* AS, INCREMENT, CYCLE, MAXVALUE, MINVALUE (init_params' first half). */
static void apply_bounds(StoreSeqDef *d, const PlanSeqOptions *o, bool init)
{
    bool reset_max = false, reset_min = false;
    int64_t lo, hi;
    if (o->type_oid) {
        if (!init) {
            type_bounds(d->type_oid, &lo, &hi);
            reset_max = d->max_value == hi;
            reset_min = d->min_value == lo;
        }
        d->type_oid = o->type_oid;
    } else if (init) {
        d->type_oid = TYPE_INT8;
    }
    type_bounds(d->type_oid, &lo, &hi);
    if (o->has_increment) {
        d->increment = o->increment;
        if (d->increment == 0)
            BAD_PARAM("INCREMENT must not be zero");
    } else if (init) {
        d->increment = 1;
    }
    if (o->has_cycle)
        d->cycle = o->cycle;
    else if (init)
        d->cycle = false;
    if (o->has_max && !o->no_max)
        d->max_value = o->max_value;
    else if (init || o->has_max || reset_max)
        d->max_value = d->increment > 0 || reset_max ? hi : -1;
    if (d->max_value < lo || d->max_value > hi)
        BAD_PARAM("MAXVALUE (%lld) is out of range for sequence data type %s", (long long)d->max_value,
                  seq_type_name(d->type_oid));
    if (o->has_min && !o->no_min)
        d->min_value = o->min_value;
    else if (init || o->has_min || reset_min)
        d->min_value = d->increment < 0 || reset_min ? lo : 1;
    if (d->min_value < lo || d->min_value > hi)
        BAD_PARAM("MINVALUE (%lld) is out of range for sequence data type %s", (long long)d->min_value,
                  seq_type_name(d->type_oid));
    if (d->min_value >= d->max_value)
        BAD_PARAM("MINVALUE (%lld) must be less than MAXVALUE (%lld)", (long long)d->min_value,
                  (long long)d->max_value);
}

/* PostgreSQL's init_params. *last: the current last_value (ALTER) or out
 * (CREATE); *restart set when the state restarts at *last. */
static void apply_options(StoreSeqDef *d, const PlanSeqOptions *o, bool init, int64_t *last, bool *restart)
{
    apply_bounds(d, o, init);
    if (o->has_start)
        d->start = o->start;
    else if (init)
        d->start = d->increment > 0 ? d->min_value : d->max_value;
    if (d->start < d->min_value)
        BAD_PARAM("START value (%lld) cannot be less than MINVALUE (%lld)", (long long)d->start,
                  (long long)d->min_value);
    if (d->start > d->max_value)
        BAD_PARAM("START value (%lld) cannot be greater than MAXVALUE (%lld)", (long long)d->start,
                  (long long)d->max_value);
    *restart = init || o->has_restart;
    if (o->has_restart)
        *last = o->restart_value_given ? o->restart : d->start;
    else if (init)
        *last = d->start;
    if (*last < d->min_value)
        BAD_PARAM("RESTART value (%lld) cannot be less than MINVALUE (%lld)", (long long)*last,
                  (long long)d->min_value);
    if (*last > d->max_value)
        BAD_PARAM("RESTART value (%lld) cannot be greater than MAXVALUE (%lld)", (long long)*last,
                  (long long)d->max_value);
    if (o->has_cache) {
        d->cache = o->cache;
        if (d->cache <= 0)
            BAD_PARAM("CACHE (%lld) must be greater than zero", (long long)d->cache);
    } else if (init) {
        d->cache = 1;
    }
    if (o->has_owned) {
        d->owner_table = o->owned_none ? 0 : o->owned_table;
        d->owner_col = o->owned_none ? 0 : o->owned_col;
    }
}

/* OWNED BY: the table must be in the sequence's schema (55000). */
static void check_owner(const StoreSeqDef *d, const char *schema)
{
    if (!d->owner_table)
        return;
    StoreTable *t = store_table_lookup_oid(d->owner_table);
    if (t && strcmp(store_table_schema(t), schema) != 0)
        err_raise(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE,
                  "sequence must be in same schema as table it is linked to");
}

static void create_seq(const PlanSeqStmt *q)
{
    if (store_seq_lookup(q->schema, q->name) || store_relation_lookup(q->schema, q->name)) {
        if (q->if_not_exists) {
            err_notice(ERR_SEV_NOTICE, ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists, skipping",
                       q->name);
            return;
        }
        err_raise(ERRCODE_DUPLICATE_TABLE, "relation \"%s\" already exists", q->name);
    }
    StoreSeqDef d = {0};
    int64_t last = 0;
    bool restart = false;
    apply_options(&d, &q->options, true, &last, &restart);
    check_owner(&d, q->schema);
    store_seq_create(q->schema, q->name, &d);
}

static void alter_seq(const PlanSeqStmt *q)
{
    bool is_table = false;
    uint32_t oid = exec__seq_find(q->schema, q->name, &is_table);
    if (is_table)
        err_raise(ERRCODE_WRONG_OBJECT_TYPE, "\"%s\" is not a sequence", q->name);
    if (!oid) {
        if (q->if_not_exists) {
            err_notice(ERR_SEV_NOTICE, ERRCODE_SUCCESSFUL_COMPLETION, "relation \"%s\" does not exist, skipping",
                       q->name);
            return;
        }
        err_raise(ERRCODE_UNDEFINED_TABLE, "relation \"%s\" does not exist", q->name);
    }
    StoreSeqInfo in;
    if (!store_seq_info(oid, &in))
        err_raise(ERRCODE_UNDEFINED_TABLE, "relation \"%s\" does not exist", q->name);
    StoreSeqDef d = in.def;
    int64_t last = in.last_value;
    bool restart = false;
    apply_options(&d, &q->options, false, &last, &restart);
    check_owner(&d, in.schema);
    const PlanSeqOptions *o = &q->options;
    /* PostgreSQL's need_seq_rewrite: every option but OWNED BY. */
    bool rewrite = o->type_oid || o->has_increment || o->has_start || o->has_restart || o->has_min ||
                   o->has_max || o->has_cache || o->has_cycle;
    store_seq_alter_ex(oid, &d, restart, last, rewrite);
}

/* 2BP01 when a column's DEFAULT or identity needs the sequence. */
static void check_drop_dependency(const StoreSeqInfo *in)
{
    if (!in->def.identity || !in->def.owner_table)
        return;
    StoreTable *t = store_table_lookup_oid(in->def.owner_table);
    if (!t || in->def.owner_col >= store_table_ncols(t))
        return;
    const char *col = store_table_column(t, in->def.owner_col)->name;
    ErrorData *e = err_begin(ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST);
    if (in->def.identity == 's') {
        err_message(e, "cannot drop sequence %s because other objects depend on it", in->name);
        err_detail(e, "default value for column %s of table %s depends on sequence %s", col,
                   store_table_name(t), in->name);
        err_hint(e, "Use DROP ... CASCADE to drop the dependent objects too.");
    } else {
        err_message(e, "cannot drop sequence %s because column %s of table %s requires it", in->name, col,
                    store_table_name(t));
        err_hint(e, "You can drop column %s of table %s instead.", col, store_table_name(t));
    }
    err_throw();
}

static void drop_seqs(const PlanSeqStmt *q)
{
    int n = list_len(q->names) / 2;
    uint32_t oids[64];
    if (n > 64)
        err_raise(ERRCODE_PROGRAM_LIMIT_EXCEEDED, "too many sequences in one DROP SEQUENCE");
    for (int i = 0; i < n; i++) {
        const char *schema = list_nth(q->names, 2 * i), *name = list_nth(q->names, 2 * i + 1);
        bool is_table = false;
        oids[i] = exec__seq_find(schema[0] ? schema : NULL, name, &is_table);
        if (is_table) {
            ErrorData *e = err_begin(ERRCODE_WRONG_OBJECT_TYPE);
            err_message(e, "\"%s\" is not a sequence", name);
            err_hint(e, "Use DROP TABLE to remove a table.");
            err_throw();
        }
        StoreSeqInfo in;
        if (oids[i] && store_seq_info(oids[i], &in))
            check_drop_dependency(&in);
        if (!oids[i] && !q->if_not_exists)
            err_raise(ERRCODE_UNDEFINED_TABLE, "sequence \"%s\" does not exist", name);
    }
    for (int i = 0; i < n; i++) {
        if (oids[i])
            store_seq_drop(oids[i]);
        else
            err_notice(ERR_SEV_NOTICE, ERRCODE_SUCCESSFUL_COMPLETION, "sequence \"%s\" does not exist, skipping",
                       (const char *)list_nth(q->names, 2 * i + 1));
    }
}

/* CREATE TABLE with serial / identity columns: the sequences first (so the
 * table's DEFAULTs name existing ones), then the table, then the owner
 * links. A failing CREATE TABLE drops the sequences again. */
static void create_table_with_seqs(ExecSession *s, const PlanSeqStmt *q, MemArena *arena)
{
    UtilityStmt *ct = q->create_table;
    Plan inner = {.kind = PLAN_STMT_UTILITY, .command = "CREATE TABLE", .utility = ct};
    ExecUtilRows rows;
    char tag[64];
    if (ct->if_not_exists && ct->schema_name && store_table_lookup(ct->schema_name, ct->table_name)) {
        exec__utility_run(s, &inner, NULL, 0, arena, &rows, tag, sizeof tag);   /* the NOTICE */
        return;
    }
    const char *schema = ct->schema_name ? ct->schema_name : "public";
    uint32_t *oids = MEM_NEW_ARRAY(arena, uint32_t, q->nowned + 1);
    StoreSeqDef *defs = MEM_NEW_ARRAY(arena, StoreSeqDef, q->nowned + 1);
    for (int i = 0; i < q->nowned; i++) {
        int64_t last = 0;
        bool restart = false;
        apply_options(&defs[i], &q->owned[i].options, true, &last, &restart);
        defs[i].identity = q->owned[i].identity;
    }
    int made = 0;
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        for (; made < q->nowned; made++)
            oids[made] = store_seq_create(schema, q->owned[made].seq_name, &defs[made]);
        exec__utility_run(s, &inner, NULL, 0, arena, &rows, tag, sizeof tag);
        err_pop(&jmp);
    } else {
        for (int i = 0; i < made; i++)
            store_seq_drop(oids[i]);
        err_rethrow();
    }
    StoreTable *t = store_table_lookup(schema, ct->table_name);
    for (int i = 0; i < q->nowned && t; i++) {
        defs[i].owner_table = store_table_oid(t);
        defs[i].owner_col = q->owned[i].column;
        StoreSeqInfo in;
        if (store_seq_info(oids[i], &in))
            store_seq_alter_ex(oids[i], &defs[i], false, in.last_value, false);
    }
}

/* TRUNCATE ... RESTART IDENTITY: truncate, then restart every owned
 * sequence of the tables at its START. */
static void truncate_restart(ExecSession *s, const PlanSeqStmt *q, MemArena *arena)
{
    exec__utility_ddl3(s, q->create_table, arena);
    const List *tables = q->create_table->ddl3_tables;
    for (int i = 0; i < list_len(tables); i++) {
        uint32_t oids[32];
        int n = store_seq_owned_by(store_table_oid(list_nth(tables, i)), oids, 32);
        for (int k = 0; k < n && k < 32; k++) {
            StoreSeqInfo in;
            if (store_seq_info(oids[k], &in))
                store_seq_alter(oids[k], &in.def, true, in.def.start);
        }
    }
}

void exec__seq_drop_owned(uint32_t table_oid)
{
    uint32_t oids[32];
    int n;
    while (table_oid && (n = store_seq_owned_by(table_oid, oids, 32)) > 0)
        for (int k = 0; k < n && k < 32; k++)
            store_seq_drop(oids[k]);
}

void exec__utility_seq(ExecSession *s, const UtilityStmt *u, MemArena *arena)
{
    const PlanSeqStmt *q = u->seq;
    exec__seq_set_session(exec_session_guc(s), exec_session_user(s));
    switch (q->op) {
    case 'c': create_seq(q); break;
    case 'a': alter_seq(q); break;
    case 'd': drop_seqs(q); break;
    case 't': create_table_with_seqs(s, q, arena); break;
    case 'r': truncate_restart(s, q, arena); break;
    case 'x': store_seq_discard_session(); break;
    case 'T': exec__temp_discard(s); break;   /* DISCARD TEMP */
    default: err_raise(ERRCODE_INTERNAL_ERROR, "unknown sequence statement '%c'", q->op);
    }
}
