/*
 * catalog.h — the pg_catalog and information_schema virtual tables: their
 * names and columns (for the planner, which binds `pg_catalog.pg_class` to
 * a PLAN_CATALOG_SCAN) and the session hook the catalog functions read.
 *
 * The rows are computed at scan time from Strata's own catalog
 * (storage/catalog_list.c, roles, settings, the type and function tables),
 * so they are always current and never stored. See executor/README.md
 * ("Catalog tables").
 *
 * OIDs: built-in objects carry PostgreSQL 15's OIDs (types, namespaces
 * pg_catalog = 11 / public = 2200 / information_schema = 13207, the
 * bootstrap superuser 10, access methods, tablespaces, collations), so the
 * type maps of drivers work. Tables keep their store OIDs (>= 16384); a
 * table's primary-key index and constraint get EXEC_CAT_INDEX_OID(t) and
 * EXEC_CAT_CONSTRAINT_OID(t); other schemas and roles get a stable hash
 * of their name (exec_catalog_name_oid). oid, name and "char" columns
 * have those types (PostgreSQL's OIDs in RowDescription).
 */
#ifndef STRATA_EXECUTOR_CATALOG_H
#define STRATA_EXECUTOR_CATALOG_H

#include <stdbool.h>
#include <stdint.h>
#include "common/types.h"

typedef struct ExecSession ExecSession;

#define EXEC_CAT_NS_PG_CATALOG 11u
#define EXEC_CAT_NS_PUBLIC 2200u
#define EXEC_CAT_NS_INFORMATION_SCHEMA 13207u
#define EXEC_CAT_NS_PG_TOAST 99u
#define EXEC_CAT_ROLE_BOOTSTRAP 10u
#define EXEC_CAT_ROLE_DATABASE_OWNER 6171u
#define EXEC_CAT_INDEX_OID(t) (0x20000000u | (uint32_t)(t))
#define EXEC_CAT_CONSTRAINT_OID(t) (0x30000000u | (uint32_t)(t))
#define EXEC_CAT_MAX_COLS 64

/* One virtual table: PostgreSQL 15's column names and order. */
typedef struct ExecCatTable {
    int id;                  /* index in the executor's table list */
    const char *schema;      /* "pg_catalog" or "information_schema" */
    const char *name;
    uint32_t oid;            /* its pg_class OID (PostgreSQL's for pg_catalog tables) */
    int ncols;
    const char *colnames[EXEC_CAT_MAX_COLS];
    SqlType coltypes[EXEC_CAT_MAX_COLS];
} ExecCatTable;

/* The virtual table schema.name (schema NULL: pg_catalog, as the implicit
 * first entry of search_path); NULL when there is none. Thread-safe. */
const ExecCatTable *exec_catalog_table(const char *schema, const char *name);
/* By id (PlanNode.catalog_id); NULL when out of range. */
const ExecCatTable *exec_catalog_table_at(int id);

/* Descriptions of built-in objects (pg_description, pg_shdescription,
 * obj_description()): classoid is the pg_class OID of the object's catalog
 * (pg_namespace 2615, pg_database 1262, ...). NULL / past the end: none. */
typedef struct ExecCatDescription {
    uint32_t objoid;
    uint32_t classoid;
    const char *description;
} ExecCatDescription;
const ExecCatDescription *exec_catalog_description_at(int idx);
const char *exec_catalog_description(uint32_t objoid, uint32_t classoid);

/* Stable OID of a user schema or role from its name (PostgreSQL's built-in
 * ones are fixed: see above). */
uint32_t exec_catalog_schema_oid(const char *schema);
uint32_t exec_catalog_role_oid(const char *role);

/* The session of the calling thread (one connection per thread), read by
 * current_setting(), pg_settings, current_user...; the protocol sets it
 * after exec_session_create and clears it (NULL) before destroying it. */
void exec_catalog_set_session(ExecSession *s);
ExecSession *exec_catalog_session(void);
/* The backend's process id as BackendKeyData sent it (pg_backend_pid(),
 * pg_stat_activity.pid); the protocol sets it per connection thread. */
void exec_catalog_set_backend_pid(int32_t pid);
int32_t exec_catalog_backend_pid(void);

/* search_path of the calling thread's session: whether schema is on it
 * (pg_catalog always is), and its existing schemas in order (pg_catalog
 * first when implicit); names stay valid until the thread's next call. */
bool exec_catalog_schema_visible(const char *schema);
int exec_catalog_path_schemas(const char **out, int max, bool implicit);
/* Install the reg* name hooks of common/typio.h (catalog_reg.c);
 * idempotent, called when a session is set. */
void exec_catalog_reg_install(void);
/* regprocedurein: "name(type, ...)" (optionally schema-qualified; types
 * as SQL spells them) → the function's OID; 22P02 without parentheses,
 * 42704 unknown type, 42883 no such function. regrolein of an already
 * unquoted/lower-cased name: 42704 role "x" does not exist. (issue 6) */
uint32_t exec_catalog_regprocedure_in(const char *text);
uint32_t exec_catalog_regrole_in(const char *name);
/* The OID of the primary-key index named name (schema NULL: search_path),
 * 0 when none: regclass input of index names. */
uint32_t exec_catalog_index_lookup(const char *schema, const char *name);

#endif
