/*
 * op_catalog.c — PLAN_CATALOG_SCAN: the rows of a pg_catalog or
 * information_schema virtual table (executor/catalog.h), computed from
 * Strata's catalog when the scan starts.
 *
 * Why computed and not stored: Strata's catalog (storage/catalog.c,
 * database.c, roles, settings, the type and function tables) is the one
 * source of truth; deriving PostgreSQL's catalog rows from it at scan time
 * means they can never disagree. The tables are small (hundreds to a few
 * thousand rows), so the scan builds all rows at start into a row-major
 * Value array in the query arena (CatRows) and then hands them out in
 * batches of up to VEC_CAPACITY, like any other source: filters, joins,
 * sorts and regex operators above it are the ordinary operators.
 *
 * A row starts with every column at its type's "zero" (0, false, NULL for
 * text and arrays) and the fill functions set the columns PostgreSQL
 * fills by name (cat_set_*): a table's spec lists PostgreSQL 15's columns
 * in order, and the builder finds the index once per call by a short
 * linear search — fine for catalog sizes, never on a data path.
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/catalog_int.h"

#include <math.h>
#include <string.h>
#include "common/array.h"
#include "common/error.h"
#include "common/guc.h"
#include "executor/catalog.h"
#include "executor/executor.h"
#include "executor/funcs.h"
#include "storage/storage.h"

typedef struct CatRows {
    MemArena *arena;
    const ExecCatTable *def;
    Value *vals;            /* nrows * ncols, row-major */
    uint32_t nrows, cap;
    const char *db;         /* the session's database */
} CatRows;

typedef struct CatScanState {
    bool started;
    CatRows rows;
    uint32_t pos;
    Batch *out;
} CatScanState;

/* ---------- the row builder ---------- */

static void cat_row(CatRows *r)
{
    int nc = r->def->ncols;
    if (r->nrows == r->cap) {
        uint32_t cap = r->cap ? r->cap * 2 : 64;
        r->vals = mem_realloc(r->arena, r->vals, sizeof(Value) * r->cap * (size_t)nc,
                              sizeof(Value) * cap * (size_t)nc);
        r->cap = cap;
    }
    Value *v = &r->vals[(size_t)r->nrows * (size_t)nc];
    memset(v, 0, sizeof(Value) * (size_t)nc);
    /* information_schema and the statistics/settings views leave what they
     * do not know NULL; the pg_catalog tables proper have NOT NULL columns */
    bool all_null = strcmp(r->def->schema, "information_schema") == 0 ||
                    strcmp(r->def->name, "pg_stat_activity") == 0 ||
                    strcmp(r->def->name, "pg_stats") == 0 ||
                    strcmp(r->def->name, "pg_settings") == 0;
    for (int c = 0; c < nc; c++) {
        uint32_t t = r->def->coltypes[c].oid;
        v[c].is_null = all_null || t == TYPE_TEXT || t == TYPE_BYTEA || t == TYPE_TIMESTAMPTZ || type_is_array(t);
    }
    r->nrows++;
}

static Value *cat_col(CatRows *r, const char *col)
{
    const ExecCatTable *d = r->def;
    for (int c = 0; c < d->ncols; c++)
        if (strcmp(d->colnames[c], col) == 0)
            return &r->vals[(size_t)(r->nrows - 1) * (size_t)d->ncols + (size_t)c];
    err_raise(ERRCODE_INTERNAL_ERROR, "catalog table %s has no column %s", d->name, col);
}

static SqlType cat_coltype(const CatRows *r, const char *col)
{
    for (int c = 0; c < r->def->ncols; c++)
        if (strcmp(r->def->colnames[c], col) == 0)
            return r->def->coltypes[c];
    return SQLTYPE(TYPE_INVALID);
}

/* Integer of the column's width (smallint, integer/oid, bigint, real). */
static void cat_set_i(CatRows *r, const char *col, int64_t x)
{
    Value *v = cat_col(r, col);
    v->is_null = false;
    switch (cat_coltype(r, col).oid) {
    case TYPE_INT2: v->u.i16 = (int16_t)x; break;
    case TYPE_INT8: case TYPE_TIMESTAMPTZ: v->u.i64 = x; break;
    case TYPE_FLOAT4: v->u.f32 = (float)x; break;
    default: v->u.i32 = (int32_t)x; break;
    }
}

static void cat_set_b(CatRows *r, const char *col, bool b)
{
    Value *v = cat_col(r, col);
    v->is_null = false;
    v->u.b = b;
}

/* Text; NULL s = SQL NULL. The string must live as long as the query. */
static void cat_set_s(CatRows *r, const char *col, const char *s)
{
    Value *v = cat_col(r, col);
    v->is_null = s == NULL;
    if (s)
        v->u.str = (StrRef){s, (uint32_t)strlen(s)};
}

static void cat_set_null(CatRows *r, const char *col) { cat_col(r, col)->is_null = true; }

/* A real (float4) column. */
static void cat_set_f(CatRows *r, const char *col, double x)
{
    Value *v = cat_col(r, col);
    v->is_null = false;
    v->u.f32 = (float)x;
}

/* One-dimensional integer array (smallint[] or integer[] by the column). */
static void cat_set_ints(CatRows *r, const char *col, int n, const int32_t *xs)
{
    SqlType at = cat_coltype(r, col);
    SqlType et = SQLTYPE(type_element_of(at.oid));
    Value *elems = mem_calloc(r->arena, (size_t)(n > 0 ? n : 1), sizeof(Value));
    for (int i = 0; i < n; i++) {
        if (et.oid == TYPE_INT2)
            elems[i].u.i16 = (int16_t)xs[i];
        else
            elems[i].u.i32 = xs[i];
    }
    Value *v = cat_col(r, col);
    v->is_null = false;
    v->u.str = array_build(et, 1, (uint32_t)n, elems, r->arena);
}

static void cat_set_strs(CatRows *r, const char *col, int n, const char *const *xs)
{
    Value *elems = mem_calloc(r->arena, (size_t)(n > 0 ? n : 1), sizeof(Value));
    for (int i = 0; i < n; i++)
        elems[i].u.str = (StrRef){xs[i], (uint32_t)strlen(xs[i])};
    Value *v = cat_col(r, col);
    v->is_null = false;
    v->u.str = array_build(SQLTYPE(TYPE_TEXT), 1, (uint32_t)n, elems, r->arena);
}

/* ---------- shared facts ---------- */

static const char *owner_of_schema(const StoreSchemaInfo *s, int n, const char *schema)
{
    for (int i = 0; i < n; i++)
        if (strcmp(s[i].name, schema) == 0)
            return s[i].owner;
    return "postgres";
}

/* Owner role OID of a table: its schema's owner, the bootstrap superuser
 * for schemas owned by pg_database_owner (Strata records no table owner). */
static uint32_t table_owner(const StoreSchemaInfo *s, int n, const char *schema)
{
    const char *o = owner_of_schema(s, n, schema);
    if (strcmp(o, "pg_database_owner") == 0 || strcmp(schema, "public") == 0)
        return EXEC_CAT_ROLE_BOOTSTRAP;
    return exec_catalog_role_oid(o);
}

/* pg_type facts PostgreSQL keeps that TypeInfo does not. */
static char type_align(const TypeInfo *ti)
{
    if (ti->typlen == 1 || ti->typlen == -2)
        return 'c';
    if (ti->typlen == 2)
        return 's';
    if (ti->typlen == 8 || ti->oid == TYPE_INTERVAL || ti->oid == TYPE_INT8_ARRAY ||
        ti->oid == TYPE_FLOAT8_ARRAY || ti->oid == TYPE_TIMESTAMP_ARRAY ||
        ti->oid == TYPE_TIMESTAMPTZ_ARRAY || ti->oid == TYPE_TIME_ARRAY ||
        ti->oid == TYPE_INTERVAL_ARRAY)
        return 'd';
    return 'i';
}

/* pg_type.typstorage: plain for fixed-width types, main for numeric,
 * extended for the other variable-width ones. */
static const char *type_storage(uint32_t oid)
{
    const TypeInfo *ti = type_info(oid);
    if (ti && ti->typlen > 0)
        return "p";
    return oid == TYPE_NUMERIC ? "m" : "x";
}

static uint32_t type_collation(uint32_t oid)
{
    if (oid == TYPE_TEXT || oid == TYPE_VARCHAR || oid == TYPE_BPCHAR || oid == TYPE_TEXT_ARRAY ||
        oid == TYPE_VARCHAR_ARRAY || oid == TYPE_BPCHAR_ARRAY)
        return 100;
    return oid == TYPE_NAME ? 950 : 0;
}

static const char *char1(CatRows *r, char c)
{
    char *s = mem_alloc(r->arena, 2);
    s[0] = c;
    s[1] = 0;
    return s;
}

static const char *str_i(CatRows *r, int64_t x) { return mem_printf(r->arena, "%lld", (long long)x); }

/* ---------- pg_namespace, pg_database, roles ---------- */

static void fill_namespace(CatRows *r)
{
    StoreSchemaInfo *s;
    int n = store_catalog_schemas(r->arena, &s);
    for (int i = 0; i < n; i++) {
        cat_row(r);
        cat_set_i(r, "oid", exec_catalog_schema_oid(s[i].name));
        cat_set_s(r, "nspname", s[i].name);
        bool pub = strcmp(s[i].name, "public") == 0;
        bool sys = strcmp(s[i].name, "pg_catalog") == 0;
        cat_set_i(r, "nspowner", pub ? EXEC_CAT_ROLE_DATABASE_OWNER : exec_catalog_role_oid(s[i].owner));
        if (pub) {
            const char *acl[] = {"pg_database_owner=UC/pg_database_owner", "=U/pg_database_owner"};
            cat_set_strs(r, "nspacl", 2, acl);
        } else if (sys) {
            const char *acl[] = {"postgres=UC/postgres", "=U/postgres"};
            cat_set_strs(r, "nspacl", 2, acl);
        }
    }
    static const char *const extra[] = {"pg_toast", "information_schema"};
    for (int i = 0; i < 2; i++) {
        cat_row(r);
        cat_set_i(r, "oid", exec_catalog_schema_oid(extra[i]));
        cat_set_s(r, "nspname", extra[i]);
        cat_set_i(r, "nspowner", EXEC_CAT_ROLE_BOOTSTRAP);
        if (i == 1) {
            const char *acl[] = {"postgres=UC/postgres", "=U/postgres"};
            cat_set_strs(r, "nspacl", 2, acl);
        }
    }
}

static void fill_database(CatRows *r)
{
    StoreDatabaseInfo *d;
    int n = store_catalog_databases(r->arena, &d);
    for (int i = 0; i < n; i++) {
        bool template = strcmp(d[i].name, "template0") == 0 || strcmp(d[i].name, "template1") == 0;
        cat_row(r);
        cat_set_i(r, "oid", d[i].oid);
        cat_set_s(r, "datname", d[i].name);
        cat_set_i(r, "datdba", exec_catalog_role_oid(d[i].owner));
        cat_set_i(r, "encoding", 6);    /* UTF8 */
        cat_set_s(r, "datlocprovider", "c");
        cat_set_b(r, "datistemplate", template);
        cat_set_b(r, "datallowconn", strcmp(d[i].name, "template0") != 0);
        cat_set_i(r, "datconnlimit", -1);
        cat_set_i(r, "dattablespace", 1663);
        cat_set_s(r, "datcollate", "C");
        cat_set_s(r, "datctype", "C");
        if (template) {
            const char *acl[] = {"=c/postgres", "postgres=CTc/postgres"};
            cat_set_strs(r, "datacl", 2, acl);
        }
    }
}

/* pg_roles, pg_authid and pg_user share one loop: the columns differ. */
/* pg_roles / pg_authid / pg_user as the transaction's snapshot sees them
 * (under REPEATABLE READ a role created later is absent, a dropped one
 * still listed), as PostgreSQL's catalog scans. */
static void fill_roles(CatRows *r, char which)
{
    for (int i = -1;; i++) {
        StoreRoleAttrs a = {0};
        const char *name = i < 0 ? "pg_database_owner" : store_role_snapshot_at(i, &a);
        if (!name)
            break;
        if (which == 'u' && (i < 0 || !a.login))
            continue;
        name = mem_strdup(r->arena, name);
        cat_row(r);
        if (which == 'u') {
            cat_set_s(r, "usename", name);
            cat_set_i(r, "usesysid", exec_catalog_role_oid(name));
            cat_set_b(r, "usecreatedb", a.createdb > 0);
            cat_set_b(r, "usesuper", a.superuser > 0);
            cat_set_b(r, "userepl", a.superuser > 0);
            cat_set_b(r, "usebypassrls", a.superuser > 0);
            cat_set_s(r, "passwd", "********");
            continue;
        }
        cat_set_i(r, "oid", exec_catalog_role_oid(name));
        cat_set_s(r, "rolname", name);
        cat_set_b(r, "rolsuper", a.superuser > 0);
        cat_set_b(r, "rolinherit", true);
        cat_set_b(r, "rolcreaterole", a.createrole > 0 || a.superuser > 0);
        cat_set_b(r, "rolcreatedb", a.createdb > 0 || a.superuser > 0);
        cat_set_b(r, "rolcanlogin", a.login > 0);
        cat_set_b(r, "rolreplication", a.superuser > 0);
        cat_set_b(r, "rolbypassrls", a.superuser > 0);
        cat_set_i(r, "rolconnlimit", -1);
        cat_set_s(r, "rolpassword", which == 'r' ? "********" : NULL);
    }
}

/* ---------- pg_class, pg_attribute, pg_index, pg_constraint ---------- */

typedef struct CatSnap {
    StoreRelInfo *tables;
    int ntables;
    StoreSchemaInfo *schemas;
    int nschemas;
} CatSnap;

static CatSnap snap_take(CatRows *r)
{
    CatSnap s;
    s.ntables = store_catalog_tables(r->arena, &s.tables);
    s.nschemas = store_catalog_schemas(r->arena, &s.schemas);
    return s;
}

/* The sequences a table owns (serial, identity, OWNED BY), their facts
 * in seqs (at most max); returns how many. */
#define CAT_MAX_SEQS 64
static int owned_seqs(uint32_t table_oid, StoreSeqInfo *seqs, int max)
{
    uint32_t oids[CAT_MAX_SEQS];
    int n = store_seq_owned_by(table_oid, oids, CAT_MAX_SEQS), k = 0;
    for (int i = 0; i < n && i < CAT_MAX_SEQS && k < max; i++)
        if (store_seq_info(oids[i], &seqs[k]))
            k++;
    return k;
}

/* The identity kind ('a' / 'd') of column col of a table, 0 when none. */
static char column_identity(const StoreSeqInfo *seqs, int n, int col)
{
    for (int i = 0; i < n; i++)
        if ((seqs[i].def.identity == 'a' || seqs[i].def.identity == 'd') && seqs[i].def.owner_col == col)
            return seqs[i].def.identity;
    return 0;
}

static void class_common(CatRows *r, uint32_t oid, const char *name, uint32_t ns, uint32_t owner,
                         char kind, int natts)
{
    cat_row(r);
    cat_set_i(r, "oid", oid);
    cat_set_s(r, "relname", name);
    cat_set_i(r, "relnamespace", ns);
    cat_set_i(r, "relowner", owner);
    cat_set_i(r, "relam", kind == 'r' ? 2 : kind == 'i' ? 403 : 0);
    cat_set_i(r, "relfilenode", kind == 'v' ? 0 : oid);
    cat_set_i(r, "reltuples", -1);
    cat_set_s(r, "relpersistence", "p");
    cat_set_s(r, "relkind", char1(r, kind));
    cat_set_i(r, "relnatts", natts);
    cat_set_b(r, "relispopulated", true);
    cat_set_s(r, "relreplident", kind == 'r' ? "d" : "n");
}

/* pg_class.reltuples as PostgreSQL 15: -1 until the table is analyzed,
 * then the row count of its last ANALYZE (storage/stats.c). */
static int64_t analyzed_rows(uint32_t oid)
{
    StoreTable *t = store_table_lookup_oid(oid);
    StoreColumnStats cs;
    uint64_t rows = 0;
    if (!t || store_table_ncols(t) == 0 || !store_table_stats(t, 0, &cs, &rows))
        return -1;
    return (int64_t)rows;
}

static void fill_class(CatRows *r)
{
    CatSnap s = snap_take(r);
    for (int i = 0; i < s.ntables; i++) {
        const StoreRelInfo *t = &s.tables[i];
        uint32_t ns = exec_catalog_schema_oid(t->schema);
        uint32_t owner = table_owner(s.schemas, s.nschemas, t->schema);
        /* A temporary table (its session's pg_temp_N; other sessions' are
         * listed too, as PostgreSQL's pg_class) and its index and sequences. */
        const char *persistence = store_schema_is_temp(t->schema) ? "t" : "p";
        class_common(r, t->oid, t->name, ns, owner, t->view_sql ? 'v' : 'r', t->ncols);
        cat_set_b(r, "relhasindex", t->npkey > 0);
        cat_set_i(r, "reltuples", analyzed_rows(t->oid));
        cat_set_s(r, "relpersistence", persistence);
        if (t->npkey > 0) {
            class_common(r, EXEC_CAT_INDEX_OID(t->oid), t->pkey_name, ns, owner, 'i', t->npkey);
            cat_set_s(r, "relpersistence", persistence);
        }
        StoreSeqInfo seqs[CAT_MAX_SEQS];
        int nseq = owned_seqs(t->oid, seqs, CAT_MAX_SEQS);
        for (int k = 0; k < nseq; k++) {
            class_common(r, seqs[k].oid, mem_strdup(r->arena, seqs[k].name),
                         exec_catalog_schema_oid(seqs[k].schema), owner, 'S', 3);
            cat_set_s(r, "relpersistence", store_schema_is_temp(seqs[k].schema) ? "t" : "p");
        }
    }
    for (int id = 0;; id++) {
        const ExecCatTable *c = exec_catalog_table_at(id);
        if (!c)
            break;
        bool view = c->oid >= 12000;
        class_common(r, c->oid, c->name, exec_catalog_schema_oid(c->schema), EXEC_CAT_ROLE_BOOTSTRAP,
                     view ? 'v' : 'r', c->ncols);
        const char *acl[] = {"postgres=arwdDxt/postgres", "=r/postgres"};
        cat_set_strs(r, "relacl", 2, acl);
    }
}

/* n_distinct as PostgreSQL stores it from an exact count (its ANALYZE sees
 * every row of a table under 30,000 rows): an integer when positive
 * (floor(x + 0.5)), else -(distinct / rows). Strata's figure is a linear
 * counting estimate, rounded the same way. */
static double pg_ndistinct(double nd, uint64_t rows)
{
    if (nd >= 0)
        return floor(nd + 0.5);
    return rows ? -(floor(-nd * (double)rows + 0.5) / (double)rows) : 0;
}

/* pg_stats: one row per analyzed column of the tables (not views).
 * Gathered by Strata's ANALYZE: null_frac, n_distinct; avg_width is the
 * type's length for fixed-width types (as PostgreSQL) and NULL for
 * variable-width ones; most common values, histograms and correlation
 * are not gathered (NULL). */
static void fill_stats(CatRows *r)
{
    CatSnap s = snap_take(r);
    for (int i = 0; i < s.ntables; i++) {
        const StoreRelInfo *t = &s.tables[i];
        StoreTable *tab = t->view_sql ? NULL : store_table_lookup_oid(t->oid);
        for (int k = 0; tab && k < t->ncols; k++) {
            StoreColumnStats cs;
            uint64_t rows = 0;
            if (!store_table_stats(tab, k, &cs, &rows) || rows == 0)
                continue;   /* PostgreSQL stores no column statistics without rows */
            const TypeInfo *ti = type_info(t->cols[k].type.oid);
            cat_row(r);
            cat_set_s(r, "schemaname", t->schema);
            cat_set_s(r, "tablename", t->name);
            cat_set_s(r, "attname", t->cols[k].name);
            cat_set_b(r, "inherited", false);
            cat_set_f(r, "null_frac", cs.null_frac);
            if (ti && ti->typlen > 0)
                cat_set_i(r, "avg_width", ti->typlen);
            cat_set_f(r, "n_distinct", pg_ndistinct(cs.n_distinct, rows));
        }
    }
}

static void attribute_row(CatRows *r, uint32_t rel, int num, const StoreColumnDef *c)
{
    const TypeInfo *ti = type_info(c->type.oid);
    cat_row(r);
    cat_set_i(r, "attrelid", rel);
    cat_set_s(r, "attname", c->name);
    cat_set_i(r, "atttypid", c->type.oid);
    cat_set_i(r, "attstattarget", -1);
    cat_set_i(r, "attlen", ti ? ti->typlen : -1);
    cat_set_i(r, "attnum", num);
    cat_set_i(r, "attndims", type_is_array(c->type.oid) ? 1 : 0);
    cat_set_i(r, "attcacheoff", -1);
    cat_set_i(r, "atttypmod", c->type.typmod);
    cat_set_b(r, "attbyval", ti && ti->typlen > 0 && ti->typlen <= 8 && ti->phys != PHYS_STR);
    cat_set_s(r, "attalign", ti ? char1(r, type_align(ti)) : "i");
    cat_set_s(r, "attstorage", type_storage(c->type.oid));
    cat_set_s(r, "attcompression", "");
    cat_set_b(r, "attnotnull", c->not_null);
    cat_set_b(r, "atthasdef", c->default_text != NULL);
    cat_set_s(r, "attidentity", "");
    cat_set_s(r, "attgenerated", "");
    cat_set_b(r, "attislocal", true);
    cat_set_i(r, "attcollation", type_collation(c->type.oid));
}

static void fill_attribute(CatRows *r)
{
    CatSnap s = snap_take(r);
    for (int i = 0; i < s.ntables; i++) {
        const StoreRelInfo *t = &s.tables[i];
        StoreSeqInfo seqs[CAT_MAX_SEQS];
        int nseq = owned_seqs(t->oid, seqs, CAT_MAX_SEQS);
        for (int k = 0; k < t->ncols; k++) {
            attribute_row(r, t->oid, k + 1, &t->cols[k]);
            char id = column_identity(seqs, nseq, k);
            if (id) {   /* an identity column has no pg_attrdef default in PostgreSQL */
                cat_set_s(r, "attidentity", char1(r, id));
                cat_set_b(r, "atthasdef", false);
            }
        }
        for (int k = 0; k < t->npkey; k++)
            attribute_row(r, EXEC_CAT_INDEX_OID(t->oid), k + 1, &t->cols[t->pkey[k]]);
    }
}

/* A serial column's default as PostgreSQL deparses it: Strata keeps
 * nextval('s'), PostgreSQL shows the regclass cast nextval('s'::regclass). */
static const char *default_text(CatRows *r, const char *d)
{
    size_t n = strlen(d);
    if (strncmp(d, "nextval('", 9) == 0 && n > 11 && strcmp(d + n - 2, "')") == 0 &&
        !strstr(d, "::regclass") && !memchr(d + 9, '\'', n - 11))
        return mem_printf(r->arena, "%.*s::regclass)", (int)(n - 1), d);
    return d;
}

static void fill_attrdef(CatRows *r)
{
    CatSnap s = snap_take(r);
    for (int i = 0; i < s.ntables; i++) {
        StoreSeqInfo seqs[CAT_MAX_SEQS];
        int nseq = owned_seqs(s.tables[i].oid, seqs, CAT_MAX_SEQS);
        for (int k = 0; k < s.tables[i].ncols; k++) {
            const StoreColumnDef *c = &s.tables[i].cols[k];
            if (!c->default_text || column_identity(seqs, nseq, k))
                continue;
            cat_row(r);
            cat_set_i(r, "oid", 0x10000000u | (s.tables[i].oid << 8) | (uint32_t)(k & 0xff));
            cat_set_i(r, "adrelid", s.tables[i].oid);
            cat_set_i(r, "adnum", k + 1);
            cat_set_s(r, "adbin", default_text(r, c->default_text));
        }
    }
}

static void fill_index(CatRows *r)
{
    CatSnap s = snap_take(r);
    for (int i = 0; i < s.ntables; i++) {
        const StoreRelInfo *t = &s.tables[i];
        if (t->npkey == 0)
            continue;
        int32_t keys[EXEC_CAT_MAX_COLS], zeros[EXEC_CAT_MAX_COLS], colls[EXEC_CAT_MAX_COLS];
        int n = t->npkey < EXEC_CAT_MAX_COLS ? t->npkey : EXEC_CAT_MAX_COLS;
        for (int k = 0; k < n; k++) {
            keys[k] = t->pkey[k] + 1;
            zeros[k] = 0;
            colls[k] = (int32_t)type_collation(t->cols[t->pkey[k]].type.oid);
        }
        cat_row(r);
        cat_set_i(r, "indexrelid", EXEC_CAT_INDEX_OID(t->oid));
        cat_set_i(r, "indrelid", t->oid);
        cat_set_i(r, "indnatts", n);
        cat_set_i(r, "indnkeyatts", n);
        cat_set_b(r, "indisunique", true);
        cat_set_b(r, "indisprimary", true);
        cat_set_b(r, "indimmediate", true);
        cat_set_b(r, "indisvalid", true);
        cat_set_b(r, "indisready", true);
        cat_set_b(r, "indislive", true);
        cat_set_ints(r, "indkey", n, keys);
        cat_set_ints(r, "indcollation", n, colls);
        cat_set_ints(r, "indclass", n, zeros);
        cat_set_ints(r, "indoption", n, zeros);
    }
}

static void fill_constraint(CatRows *r)
{
    CatSnap s = snap_take(r);
    for (int i = 0; i < s.ntables; i++) {
        const StoreRelInfo *t = &s.tables[i];
        if (t->npkey == 0)
            continue;
        int32_t keys[EXEC_CAT_MAX_COLS];
        int n = t->npkey < EXEC_CAT_MAX_COLS ? t->npkey : EXEC_CAT_MAX_COLS;
        for (int k = 0; k < n; k++)
            keys[k] = t->pkey[k] + 1;
        cat_row(r);
        cat_set_i(r, "oid", EXEC_CAT_CONSTRAINT_OID(t->oid));
        cat_set_s(r, "conname", t->pkey_name);
        cat_set_i(r, "connamespace", exec_catalog_schema_oid(t->schema));
        cat_set_s(r, "contype", "p");
        cat_set_b(r, "convalidated", true);
        cat_set_i(r, "conrelid", t->oid);
        cat_set_i(r, "conindid", EXEC_CAT_INDEX_OID(t->oid));
        cat_set_s(r, "confupdtype", " ");
        cat_set_s(r, "confdeltype", " ");
        cat_set_s(r, "confmatchtype", " ");
        cat_set_b(r, "conislocal", true);
        cat_set_b(r, "connoinherit", true);
        cat_set_ints(r, "conkey", n, keys);
    }
}

static void fill_sequence(CatRows *r)
{
    CatSnap s = snap_take(r);
    for (int i = 0; i < s.ntables; i++) {
        StoreSeqInfo seqs[CAT_MAX_SEQS];
        int nseq = owned_seqs(s.tables[i].oid, seqs, CAT_MAX_SEQS);
        for (int k = 0; k < nseq; k++) {
            const StoreSeqDef *d = &seqs[k].def;
            cat_row(r);
            cat_set_i(r, "seqrelid", seqs[k].oid);
            cat_set_i(r, "seqtypid", d->type_oid);
            cat_set_i(r, "seqstart", d->start);
            cat_set_i(r, "seqincrement", d->increment);
            cat_set_i(r, "seqmax", d->max_value);
            cat_set_i(r, "seqmin", d->min_value);
            cat_set_i(r, "seqcache", d->cache);
            cat_set_b(r, "seqcycle", d->cycle);
        }
    }
}

/* ---------- pg_type, pg_proc, fixed tables ---------- */

static const uint32_t known_types[] = {
    TYPE_BOOL, TYPE_BYTEA, TYPE_NAME, TYPE_INT8, TYPE_INT2, TYPE_INT4, TYPE_TEXT, TYPE_OID,
    TYPE_JSON, TYPE_FLOAT4, TYPE_FLOAT8, TYPE_UNKNOWN, TYPE_BPCHAR, TYPE_VARCHAR, TYPE_DATE,
    TYPE_TIME, TYPE_TIMESTAMP, TYPE_TIMESTAMPTZ, TYPE_INTERVAL, TYPE_NUMERIC, TYPE_UUID, TYPE_JSONB,
    TYPE_JSON_ARRAY, TYPE_BOOL_ARRAY, TYPE_BYTEA_ARRAY, TYPE_INT2_ARRAY, TYPE_INT4_ARRAY,
    TYPE_TEXT_ARRAY, TYPE_BPCHAR_ARRAY, TYPE_VARCHAR_ARRAY, TYPE_INT8_ARRAY, TYPE_FLOAT4_ARRAY,
    TYPE_FLOAT8_ARRAY, TYPE_TIMESTAMP_ARRAY, TYPE_DATE_ARRAY, TYPE_TIME_ARRAY,
    TYPE_TIMESTAMPTZ_ARRAY, TYPE_INTERVAL_ARRAY, TYPE_NUMERIC_ARRAY, TYPE_UUID_ARRAY,
    TYPE_JSONB_ARRAY,
};

static void fill_type(CatRows *r)
{
    for (size_t i = 0; i < sizeof known_types / sizeof known_types[0]; i++) {
        const TypeInfo *ti = type_info(known_types[i]);
        if (!ti)
            continue;
        cat_row(r);
        cat_set_i(r, "oid", ti->oid);
        cat_set_s(r, "typname", ti->name);
        cat_set_i(r, "typnamespace", EXEC_CAT_NS_PG_CATALOG);
        cat_set_i(r, "typowner", EXEC_CAT_ROLE_BOOTSTRAP);
        cat_set_i(r, "typlen", ti->typlen);
        cat_set_b(r, "typbyval", ti->typlen > 0 && ti->typlen <= 8 && ti->phys != PHYS_STR);
        cat_set_s(r, "typtype", ti->oid == TYPE_UNKNOWN ? "p" : "b");
        cat_set_s(r, "typcategory", char1(r, ti->category));
        cat_set_b(r, "typispreferred", ti->preferred);
        cat_set_b(r, "typisdefined", true);
        cat_set_s(r, "typdelim", ",");
        cat_set_i(r, "typelem", ti->elem);
        cat_set_i(r, "typarray", ti->array);
        if (ti->elem) {   /* arrays: array_in / array_out (JDBC tests typinput = 'array_in'::regproc) */
            cat_set_i(r, "typinput", 750);
            cat_set_i(r, "typoutput", 751);
        }
        cat_set_s(r, "typalign", char1(r, type_align(ti)));
        cat_set_s(r, "typstorage", type_storage(ti->oid));
        cat_set_i(r, "typtypmod", -1);
        cat_set_i(r, "typcollation", type_collation(ti->oid));
    }
}

static void fill_proc(CatRows *r)
{
    int n = exec_func_count();
    for (int i = 0; i < n; i++) {
        const FuncDesc *f = exec_func_at(i);
        enum { SLOTS = sizeof f->argtypes / sizeof f->argtypes[0] };
        int32_t args[SLOTS];
        int nargs = f->nargs < SLOTS ? f->nargs : SLOTS;
        for (int k = 0; k < nargs; k++)
            args[k] = (int32_t)f->argtypes[k];
        cat_row(r);
        cat_set_i(r, "oid", f->oid);
        cat_set_s(r, "proname", f->name);
        cat_set_i(r, "pronamespace", EXEC_CAT_NS_PG_CATALOG);
        cat_set_i(r, "proowner", EXEC_CAT_ROLE_BOOTSTRAP);
        cat_set_i(r, "prolang", 12);
        cat_set_i(r, "procost", 1);
        cat_set_s(r, "prokind", "f");
        cat_set_b(r, "proisstrict", (f->flags & FUNC_STRICT) != 0);
        cat_set_s(r, "provolatile", f->flags & FUNC_VOLATILE ? "v" : f->flags & FUNC_STABLE ? "s" : "i");
        cat_set_s(r, "proparallel", "s");
        cat_set_i(r, "pronargs", f->nargs);
        cat_set_i(r, "prorettype", f->rettype);
        cat_set_ints(r, "proargtypes", nargs, args);
        cat_set_s(r, "prosrc", f->name);
    }
}

static void fill_fixed(CatRows *r)
{
    const char *t = r->def->name;
    if (strcmp(t, "pg_am") == 0) {
        static const struct { int oid; const char *name; char type; } am[] = {
            {2, "heap", 't'}, {403, "btree", 'i'}, {405, "hash", 'i'}, {783, "gist", 'i'},
            {2742, "gin", 'i'}, {4000, "spgist", 'i'}, {3580, "brin", 'i'}};
        for (size_t i = 0; i < sizeof am / sizeof am[0]; i++) {
            cat_row(r);
            cat_set_i(r, "oid", am[i].oid);
            cat_set_s(r, "amname", am[i].name);
            cat_set_s(r, "amtype", char1(r, am[i].type));
        }
    } else if (strcmp(t, "pg_description") == 0 || strcmp(t, "pg_shdescription") == 0) {
        bool shared = t[3] == 's';
        for (int i = 0; exec_catalog_description_at(i); i++) {
            const ExecCatDescription *d = exec_catalog_description_at(i);
            if ((d->classoid == 1262) != shared)
                continue;
            cat_row(r);
            cat_set_i(r, "objoid", d->objoid);
            cat_set_i(r, "classoid", d->classoid);
            cat_set_s(r, "description", d->description);
        }
    } else if (strcmp(t, "pg_extension") == 0) {
        cat_row(r);
        cat_set_i(r, "oid", 13559);
        cat_set_s(r, "extname", "plpgsql");
        cat_set_i(r, "extowner", EXEC_CAT_ROLE_BOOTSTRAP);
        cat_set_i(r, "extnamespace", EXEC_CAT_NS_PG_CATALOG);
        cat_set_s(r, "extversion", "1.0");
    } else if (strcmp(t, "pg_language") == 0) {
        static const struct { int oid; const char *name; bool pl, trusted; } lang[] = {
            {12, "internal", false, false}, {13, "c", false, false}, {14, "sql", false, true},
            {13563, "plpgsql", true, true}};
        for (size_t i = 0; i < sizeof lang / sizeof lang[0]; i++) {
            cat_row(r);
            cat_set_i(r, "oid", lang[i].oid);
            cat_set_s(r, "lanname", lang[i].name);
            cat_set_i(r, "lanowner", EXEC_CAT_ROLE_BOOTSTRAP);
            cat_set_b(r, "lanispl", lang[i].pl);
            cat_set_b(r, "lanpltrusted", lang[i].trusted);
        }
    } else if (strcmp(t, "pg_tablespace") == 0) {
        static const char *const names[] = {"pg_default", "pg_global"};
        for (int i = 0; i < 2; i++) {
            cat_row(r);
            cat_set_i(r, "oid", 1663 + i);
            cat_set_s(r, "spcname", names[i]);
            cat_set_i(r, "spcowner", EXEC_CAT_ROLE_BOOTSTRAP);
        }
    } else if (strcmp(t, "pg_collation") == 0) {
        static const struct { int oid; const char *name; char prov; } co[] = {
            {100, "default", 'd'}, {950, "C", 'c'}, {951, "POSIX", 'c'}};
        for (size_t i = 0; i < sizeof co / sizeof co[0]; i++) {
            cat_row(r);
            cat_set_i(r, "oid", co[i].oid);
            cat_set_s(r, "collname", co[i].name);
            cat_set_i(r, "collnamespace", EXEC_CAT_NS_PG_CATALOG);
            cat_set_i(r, "collowner", EXEC_CAT_ROLE_BOOTSTRAP);
            cat_set_s(r, "collprovider", char1(r, co[i].prov));
            cat_set_b(r, "collisdeterministic", true);
            cat_set_i(r, "collencoding", -1);
            if (i > 0) {
                cat_set_s(r, "collcollate", co[i].name);
                cat_set_s(r, "collctype", co[i].name);
            }
        }
    }
}

/* ---------- settings and activity ---------- */

static void fill_settings(CatRows *r)
{
    ExecSession *s = exec_catalog_session();
    const GucSet *g = s ? exec_session_guc(s) : NULL;
    const char *name, *value, *desc;
    for (int i = 0; guc_at(g, i, &name, &value, &desc); i++) {
        cat_row(r);
        cat_set_s(r, "name", name);
        cat_set_s(r, "setting", value);
        cat_set_s(r, "category", "Ungrouped");
        cat_set_s(r, "short_desc", desc);
        cat_set_s(r, "context", "user");
        cat_set_s(r, "vartype", "string");
        cat_set_s(r, "source", "default");
        cat_set_s(r, "boot_val", value);
        cat_set_s(r, "reset_val", value);
        cat_set_b(r, "pending_restart", false);
    }
}

static void fill_activity(CatRows *r)
{
    ExecSession *s = exec_catalog_session();
    if (!s)
        return;
    const char *db = exec_session_database(s), *user = exec_session_user(s);
    cat_row(r);
    cat_set_i(r, "datid", store_database_oid(db));
    cat_set_s(r, "datname", mem_strdup(r->arena, db));
    cat_set_i(r, "pid", exec_catalog_backend_pid());
    cat_set_i(r, "usesysid", exec_catalog_role_oid(user));
    cat_set_s(r, "usename", mem_strdup(r->arena, user));
    const char *app = guc_show(exec_session_guc(s), "application_name");
    cat_set_s(r, "application_name", app ? mem_strdup(r->arena, app) : "");
    cat_set_s(r, "state", "active");
    cat_set_s(r, "backend_type", "client backend");
    cat_set_null(r, "query");
}

/* ---------- information_schema ---------- */

static const char *is_data_type(CatRows *r, SqlType t)
{
    if (type_is_array(t.oid))
        return "ARRAY";
    char buf[128];
    type_format(SQLTYPE(t.oid), buf, sizeof buf);
    return mem_strdup(r->arena, buf);
}

static void column_numbers(CatRows *r, SqlType t)
{
    int tm = t.typmod;
    switch (t.oid) {
    case TYPE_INT2: case TYPE_INT4: case TYPE_INT8:
        cat_set_i(r, "numeric_precision", t.oid == TYPE_INT2 ? 16 : t.oid == TYPE_INT4 ? 32 : 64);
        cat_set_i(r, "numeric_precision_radix", 2);
        cat_set_i(r, "numeric_scale", 0);
        break;
    case TYPE_FLOAT4: case TYPE_FLOAT8:
        cat_set_i(r, "numeric_precision", t.oid == TYPE_FLOAT4 ? 24 : 53);
        cat_set_i(r, "numeric_precision_radix", 2);
        break;
    case TYPE_NUMERIC:
        cat_set_i(r, "numeric_precision_radix", 10);
        if (tm >= 4) {
            cat_set_i(r, "numeric_precision", ((tm - 4) >> 16) & 0xffff);
            cat_set_i(r, "numeric_scale", (tm - 4) & 0x7ff);
        }
        break;
    case TYPE_VARCHAR: case TYPE_BPCHAR: case TYPE_TEXT:
        if (tm >= 4) {
            cat_set_i(r, "character_maximum_length", tm - 4);
            cat_set_i(r, "character_octet_length", (tm - 4) * 4);
        } else {
            cat_set_i(r, "character_octet_length", 1073741824);
        }
        break;
    case TYPE_DATE:
        cat_set_i(r, "datetime_precision", 0);
        break;
    case TYPE_TIME: case TYPE_TIMESTAMP: case TYPE_TIMESTAMPTZ: case TYPE_INTERVAL:
        cat_set_i(r, "datetime_precision", 6);
        break;
    default:
        break;
    }
}

/* information_schema leaves other sessions' temporary relations out
 * (PostgreSQL's NOT pg_is_other_temp_schema(nc.oid)). */
static bool other_temp(const char *schema)
{
    const char *own = store_session_temp_schema(false);
    return store_schema_is_temp(schema) && (!own || strcmp(own, schema) != 0);
}

static void fill_is_columns(CatRows *r)
{
    CatSnap s = snap_take(r);
    for (int i = 0; i < s.ntables; i++) {
        const StoreRelInfo *t = &s.tables[i];
        if (other_temp(t->schema))
            continue;
        StoreSeqInfo seqs[CAT_MAX_SEQS];
        int nseq = owned_seqs(t->oid, seqs, CAT_MAX_SEQS);
        for (int k = 0; k < t->ncols; k++) {
            char id = column_identity(seqs, nseq, k);
            const StoreColumnDef *c = &t->cols[k];
            const TypeInfo *ti = type_info(c->type.oid);
            cat_row(r);
            cat_set_s(r, "table_catalog", r->db);
            cat_set_s(r, "table_schema", t->schema);
            cat_set_s(r, "table_name", t->name);
            cat_set_s(r, "column_name", c->name);
            cat_set_i(r, "ordinal_position", k + 1);
            cat_set_s(r, "column_default", c->default_text && !id ? default_text(r, c->default_text) : NULL);
            cat_set_s(r, "is_nullable", c->not_null ? "NO" : "YES");
            cat_set_s(r, "data_type", is_data_type(r, c->type));
            column_numbers(r, c->type);
            cat_set_s(r, "udt_catalog", r->db);
            cat_set_s(r, "udt_schema", "pg_catalog");
            cat_set_s(r, "udt_name", ti ? ti->name : "unknown");
            cat_set_s(r, "dtd_identifier", str_i(r, k + 1));
            cat_set_s(r, "is_self_referencing", "NO");
            cat_set_s(r, "is_identity", id ? "YES" : "NO");
            if (id)
                cat_set_s(r, "identity_generation", id == 'a' ? "ALWAYS" : "BY DEFAULT");
            cat_set_s(r, "identity_cycle", "NO");
            cat_set_s(r, "is_generated", "NEVER");
            cat_set_s(r, "is_updatable", "YES");
        }
    }
}

static void fill_is_tables(CatRows *r)
{
    CatSnap s = snap_take(r);
    for (int i = 0; i < s.ntables; i++) {
        /* The session's own temporary relations are 'LOCAL TEMPORARY'. */
        bool temp = store_schema_is_temp(s.tables[i].schema);
        if (other_temp(s.tables[i].schema))
            continue;
        cat_row(r);
        cat_set_s(r, "table_catalog", r->db);
        cat_set_s(r, "table_schema", s.tables[i].schema);
        cat_set_s(r, "table_name", s.tables[i].name);
        bool view = s.tables[i].view_sql != NULL;
        cat_set_s(r, "table_type", temp ? "LOCAL TEMPORARY" : view ? "VIEW" : "BASE TABLE");
        cat_set_s(r, "is_insertable_into", view ? "NO" : "YES");
        cat_set_s(r, "is_typed", "NO");
    }
}

static void fill_is_schemata(CatRows *r)
{
    StoreSchemaInfo *s;
    int n = store_catalog_schemas(r->arena, &s);
    for (int i = 0; i < n + 1; i++) {
        cat_row(r);
        cat_set_s(r, "catalog_name", r->db);
        cat_set_s(r, "schema_name", i < n ? s[i].name : "information_schema");
        cat_set_s(r, "schema_owner", i < n ? s[i].owner : "postgres");
        if (i < n && strcmp(s[i].name, "public") == 0)
            cat_set_s(r, "schema_owner", "pg_database_owner");
    }
}

/* table_constraints and key_column_usage: the primary keys. */
static void fill_is_keys(CatRows *r, bool columns)
{
    CatSnap s = snap_take(r);
    for (int i = 0; i < s.ntables; i++) {
        const StoreRelInfo *t = &s.tables[i];
        for (int k = 0; k < (columns ? t->npkey : t->npkey > 0); k++) {
            cat_row(r);
            cat_set_s(r, "constraint_catalog", r->db);
            cat_set_s(r, "constraint_schema", t->schema);
            cat_set_s(r, "constraint_name", t->pkey_name);
            cat_set_s(r, "table_catalog", r->db);
            cat_set_s(r, "table_schema", t->schema);
            cat_set_s(r, "table_name", t->name);
            if (columns) {
                cat_set_s(r, "column_name", t->cols[t->pkey[k]].name);
                cat_set_i(r, "ordinal_position", k + 1);
                continue;
            }
            cat_set_s(r, "constraint_type", "PRIMARY KEY");
            cat_set_s(r, "is_deferrable", "NO");
            cat_set_s(r, "initially_deferred", "NO");
            cat_set_s(r, "enforced", "YES");
            cat_set_s(r, "nulls_distinct", "YES");
        }
    }
}

/* ---------- dispatch and the operator ---------- */

static void cat_fill(CatRows *r)
{
    const char *t = r->def->name;
    if (strcmp(r->def->schema, "information_schema") == 0) {
        if (strcmp(t, "columns") == 0)
            fill_is_columns(r);
        else if (strcmp(t, "tables") == 0)
            fill_is_tables(r);
        else if (strcmp(t, "schemata") == 0)
            fill_is_schemata(r);
        else if (strcmp(t, "table_constraints") == 0 || strcmp(t, "key_column_usage") == 0)
            fill_is_keys(r, t[0] == 'k');
        return;      /* views: Strata's views are not listed yet */
    }
    if (strcmp(t, "pg_namespace") == 0)
        fill_namespace(r);
    else if (strcmp(t, "pg_database") == 0)
        fill_database(r);
    else if (strcmp(t, "pg_roles") == 0 || strcmp(t, "pg_authid") == 0 || strcmp(t, "pg_user") == 0)
        fill_roles(r, t[3] == 'r' ? 'r' : t[3] == 'a' ? 'a' : 'u');
    else if (strcmp(t, "pg_class") == 0)
        fill_class(r);
    else if (strcmp(t, "pg_attribute") == 0)
        fill_attribute(r);
    else if (strcmp(t, "pg_attrdef") == 0)
        fill_attrdef(r);
    else if (strcmp(t, "pg_index") == 0)
        fill_index(r);
    else if (strcmp(t, "pg_constraint") == 0)
        fill_constraint(r);
    else if (strcmp(t, "pg_type") == 0)
        fill_type(r);
    else if (strcmp(t, "pg_proc") == 0)
        fill_proc(r);
    else if (strcmp(t, "pg_sequence") == 0)
        fill_sequence(r);
    else if (strcmp(t, "pg_settings") == 0)
        fill_settings(r);
    else if (strcmp(t, "pg_stat_activity") == 0)
        fill_activity(r);
    else if (strcmp(t, "pg_stats") == 0)
        fill_stats(r);
    else
        fill_fixed(r);   /* pg_am, pg_tablespace, pg_collation, descriptions,
                            pg_extension, pg_language; the rest are empty */
}

static bool cat_next(ExecOp *op, Batch **out)
{
    CatScanState *st = op->state;
    if (!st->started) {
        st->started = true;
        st->rows.arena = op->q->arena;
        st->rows.def = exec_catalog_table_at(op->node->catalog_id);
        ExecSession *s = exec_catalog_session();
        st->rows.db = s ? mem_strdup(op->q->arena, exec_session_database(s))
                        : mem_strdup(op->q->arena, store_session_database());
        cat_fill(&st->rows);
    }
    CatRows *r = &st->rows;
    if (st->pos >= r->nrows)
        return false;
    uint32_t k = r->nrows - st->pos < VEC_CAPACITY ? r->nrows - st->pos : VEC_CAPACITY;
    Batch *b = st->out;
    int nc = r->def->ncols;
    for (int c = 0; c < nc; c++) {
        Vector *v = &b->cols[c];
        v->validity = NULL;
        v->is_const = false;
        for (uint32_t i = 0; i < k; i++)
            vec_set_value(v, i, &r->vals[(size_t)(st->pos + i) * (size_t)nc + (size_t)c]);
    }
    st->pos += k;
    b->count = k;
    b->sel = NULL;
    *out = b;
    return true;
}

ExecOp *exec__op_catalog_scan(ExecQuery *q, const PlanNode *n)
{
    const ExecCatTable *def = exec_catalog_table_at(n->catalog_id);
    if (!def || def->ncols != n->ncols)
        err_raise(ERRCODE_INTERNAL_ERROR, "catalog scan of an unknown table");
    ExecOp *op = exec__op_new(q, n, sizeof(CatScanState));
    CatScanState *st = op->state;
    st->out = exec__batch_new(q, n->ncols, n->col_types);
    op->next = cat_next;
    return op;
}
