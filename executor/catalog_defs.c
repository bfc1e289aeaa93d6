/*
 * catalog_defs.c — the column lists of the pg_catalog and
 * information_schema virtual tables (PostgreSQL 15's names and order,
 * taken from a real PostgreSQL 15 catalog), their lookup by name, the
 * stable OIDs of schemas and roles, and the calling thread's session for
 * the catalog functions.
 *
 * Each table is written as a compact spec "name:T name:T ..." whose type
 * letters are: o oid, n name, t text, c "char", b boolean, s smallint,
 * i integer, l bigint, x xid (bigint), f real, d double precision, z timestamptz, y bytea; arrays: T text[] /
 * name[], O oid[] / oidvector (integer[]), S int2vector / smallint[], F real[], C
 * "char"[] (text[]), A aclitem[] and anyarray (text[]). The specs are
 * parsed once (pthread_once) into ExecCatTable entries.
 */
#include "executor/catalog.h"

#include <pthread.h>
#include <string.h>
#include "common/error.h"

typedef struct CatSpec {
    const char *schema;
    const char *name;
    uint32_t oid;
    const char *cols;
} CatSpec;

static const CatSpec cat_specs[] = {
    {"pg_catalog", "pg_am", 2601,
     "oid:o amname:n amhandler:o amtype:c"},
    {"pg_catalog", "pg_attrdef", 2604,
     "oid:o adrelid:o adnum:s adbin:t"},
    {"pg_catalog", "pg_attribute", 1249,
     "attrelid:o attname:n atttypid:o attstattarget:i attlen:s attnum:s attndims:i "
     "attcacheoff:i atttypmod:i attbyval:b attalign:c attstorage:c attcompression:c "
     "attnotnull:b atthasdef:b atthasmissing:b attidentity:c attgenerated:c "
     "attisdropped:b attislocal:b attinhcount:i attcollation:o attacl:A attoptions:T "
     "attfdwoptions:T attmissingval:A"},
    {"pg_catalog", "pg_auth_members", 1261,
     "roleid:o member:o grantor:o admin_option:b"},
    {"pg_catalog", "pg_authid", 1260,
     "oid:o rolname:n rolsuper:b rolinherit:b rolcreaterole:b rolcreatedb:b rolcanlogin:b "
     "rolreplication:b rolbypassrls:b rolconnlimit:i rolpassword:t rolvaliduntil:z"},
    {"pg_catalog", "pg_cast", 2605,
     "oid:o castsource:o casttarget:o castfunc:o castcontext:c castmethod:c"},
    {"pg_catalog", "pg_class", 1259,
     "oid:o relname:n relnamespace:o reltype:o reloftype:o relowner:o relam:o "
     "relfilenode:o reltablespace:o relpages:i reltuples:f relallvisible:i "
     "reltoastrelid:o relhasindex:b relisshared:b relpersistence:c relkind:c relnatts:s "
     "relchecks:s relhasrules:b relhastriggers:b relhassubclass:b relrowsecurity:b "
     "relforcerowsecurity:b relispopulated:b relreplident:c relispartition:b relrewrite:o "
     "relfrozenxid:x relminmxid:x relacl:A reloptions:T relpartbound:t"},
    {"pg_catalog", "pg_collation", 3456,
     "oid:o collname:n collnamespace:o collowner:o collprovider:c collisdeterministic:b "
     "collencoding:i collcollate:t collctype:t colliculocale:t collversion:t"},
    {"pg_catalog", "pg_constraint", 2606,
     "oid:o conname:n connamespace:o contype:c condeferrable:b condeferred:b "
     "convalidated:b conrelid:o contypid:o conindid:o conparentid:o confrelid:o "
     "confupdtype:c confdeltype:c confmatchtype:c conislocal:b coninhcount:i "
     "connoinherit:b conkey:S confkey:S conpfeqop:O conppeqop:O conffeqop:O "
     "confdelsetcols:S conexclop:O conbin:t"},
    {"pg_catalog", "pg_database", 1262,
     "oid:o datname:n datdba:o encoding:i datlocprovider:c datistemplate:b datallowconn:b "
     "datconnlimit:i datfrozenxid:x datminmxid:x dattablespace:o datcollate:t datctype:t "
     "daticulocale:t datcollversion:t datacl:A"},
    {"pg_catalog", "pg_depend", 2608,
     "classid:o objid:o objsubid:i refclassid:o refobjid:o refobjsubid:i deptype:c"},
    {"pg_catalog", "pg_description", 2609,
     "objoid:o classoid:o objsubid:i description:t"},
    {"pg_catalog", "pg_enum", 3501,
     "oid:o enumtypid:o enumsortorder:f enumlabel:n"},
    {"pg_catalog", "pg_event_trigger", 3466,
     "oid:o evtname:n evtevent:n evtowner:o evtfoid:o evtenabled:c evttags:T"},
    {"pg_catalog", "pg_extension", 3079,
     "oid:o extname:n extowner:o extnamespace:o extrelocatable:b extversion:t extconfig:O "
     "extcondition:T"},
    {"pg_catalog", "pg_foreign_table", 3118,
     "ftrelid:o ftserver:o ftoptions:T"},
    {"pg_catalog", "pg_index", 2610,
     "indexrelid:o indrelid:o indnatts:s indnkeyatts:s indisunique:b "
     "indnullsnotdistinct:b indisprimary:b indisexclusion:b indimmediate:b "
     "indisclustered:b indisvalid:b indcheckxmin:b indisready:b indislive:b "
     "indisreplident:b indkey:S indcollation:O indclass:O indoption:S indexprs:t "
     "indpred:t"},
    {"pg_catalog", "pg_indexes", 12043,
     "schemaname:n tablename:n indexname:n tablespace:n indexdef:t"},
    {"pg_catalog", "pg_inherits", 2611,
     "inhrelid:o inhparent:o inhseqno:i inhdetachpending:b"},
    {"pg_catalog", "pg_language", 2612,
     "oid:o lanname:n lanowner:o lanispl:b lanpltrusted:b lanplcallfoid:o laninline:o "
     "lanvalidator:o lanacl:A"},
    {"pg_catalog", "pg_locks", 12073,
     "locktype:t database:o relation:o page:i tuple:s virtualxid:t transactionid:x "
     "classid:o objid:o objsubid:s virtualtransaction:t pid:i mode:t granted:b fastpath:b "
     "waitstart:z"},
    {"pg_catalog", "pg_matviews", 12038,
     "schemaname:n matviewname:n matviewowner:n tablespace:n hasindexes:b ispopulated:b "
     "definition:t"},
    {"pg_catalog", "pg_namespace", 2615,
     "oid:o nspname:n nspowner:o nspacl:A"},
    {"pg_catalog", "pg_opclass", 2616,
     "oid:o opcmethod:o opcname:n opcnamespace:o opcowner:o opcfamily:o opcintype:o "
     "opcdefault:b opckeytype:o"},
    {"pg_catalog", "pg_operator", 2617,
     "oid:o oprname:n oprnamespace:o oprowner:o oprkind:c oprcanmerge:b oprcanhash:b "
     "oprleft:o oprright:o oprresult:o oprcom:o oprnegate:o oprcode:o oprrest:o oprjoin:o"},
    {"pg_catalog", "pg_opfamily", 2753,
     "oid:o opfmethod:o opfname:n opfnamespace:o opfowner:o"},
    {"pg_catalog", "pg_partitioned_table", 3350,
     "partrelid:o partstrat:c partnatts:s partdefid:o partattrs:S partclass:O "
     "partcollation:O partexprs:t"},
    {"pg_catalog", "pg_policy", 3256,
     "oid:o polname:n polrelid:o polcmd:c polpermissive:b polroles:O polqual:t "
     "polwithcheck:t"},
    {"pg_catalog", "pg_proc", 1255,
     "oid:o proname:n pronamespace:o proowner:o prolang:o procost:f prorows:f "
     "provariadic:o prosupport:o prokind:c prosecdef:b proleakproof:b proisstrict:b "
     "proretset:b provolatile:c proparallel:c pronargs:s pronargdefaults:s prorettype:o "
     "proargtypes:O proallargtypes:O proargmodes:C proargnames:T proargdefaults:t "
     "protrftypes:O prosrc:t probin:t prosqlbody:t proconfig:T proacl:A"},
    {"pg_catalog", "pg_publication", 6104,
     "oid:o pubname:n pubowner:o puballtables:b pubinsert:b pubupdate:b pubdelete:b "
     "pubtruncate:b pubviaroot:b"},
    {"pg_catalog", "pg_publication_namespace", 6237,
     "oid:o pnpubid:o pnnspid:o"},
    {"pg_catalog", "pg_publication_rel", 6106,
     "oid:o prpubid:o prrelid:o prqual:t prattrs:S"},
    {"pg_catalog", "pg_range", 3541,
     "rngtypid:o rngsubtype:o rngmultitypid:o rngcollation:o rngsubopc:o rngcanonical:o "
     "rngsubdiff:o"},
    {"pg_catalog", "pg_rewrite", 2618,
     "oid:o rulename:n ev_class:o ev_type:c ev_enabled:c is_instead:b ev_qual:t "
     "ev_action:t"},
    {"pg_catalog", "pg_roles", 12000,
     "rolname:n rolsuper:b rolinherit:b rolcreaterole:b rolcreatedb:b rolcanlogin:b "
     "rolreplication:b rolconnlimit:i rolpassword:t rolvaliduntil:z rolbypassrls:b "
     "rolconfig:T oid:o"},
    {"pg_catalog", "pg_sequence", 2224,
     "seqrelid:o seqtypid:o seqstart:l seqincrement:l seqmax:l seqmin:l seqcache:l "
     "seqcycle:b"},
    {"pg_catalog", "pg_settings", 12104,
     "name:t setting:t unit:t category:t short_desc:t extra_desc:t context:t vartype:t "
     "source:t min_val:t max_val:t enumvals:T boot_val:t reset_val:t sourcefile:t "
     "sourceline:i pending_restart:b"},
    {"pg_catalog", "pg_shdescription", 2396,
     "objoid:o classoid:o description:t"},
    {"pg_catalog", "pg_stat_activity", 12222,
     "datid:o datname:n pid:i leader_pid:i usesysid:o usename:n application_name:t "
     "client_addr:t client_hostname:t client_port:i backend_start:z xact_start:z "
     "query_start:z state_change:z wait_event_type:t wait_event:t state:t backend_xid:x "
     "backend_xmin:x query_id:l query:t backend_type:t"},
    {"pg_catalog", "pg_stat_user_tables", 12161,
     "relid:o schemaname:n relname:n seq_scan:l seq_tup_read:l idx_scan:l idx_tup_fetch:l "
     "n_tup_ins:l n_tup_upd:l n_tup_del:l n_tup_hot_upd:l n_live_tup:l n_dead_tup:l "
     "n_mod_since_analyze:l n_ins_since_vacuum:l last_vacuum:z last_autovacuum:z "
     "last_analyze:z last_autoanalyze:z vacuum_count:l autovacuum_count:l analyze_count:l "
     "autoanalyze_count:l"},
    {"pg_catalog", "pg_stats", 12053,
     "schemaname:n tablename:n attname:n inherited:b null_frac:f avg_width:i n_distinct:f "
     "most_common_vals:A most_common_freqs:F histogram_bounds:A correlation:f "
     "most_common_elems:A most_common_elem_freqs:F elem_count_histogram:F"},
    {"pg_catalog", "pg_statistic_ext", 3381,
     "oid:o stxrelid:o stxname:n stxnamespace:o stxowner:o stxstattarget:i stxkeys:S "
     "stxkind:C stxexprs:t"},
    {"pg_catalog", "pg_tables", 12033,
     "schemaname:n tablename:n tableowner:n tablespace:n hasindexes:b hasrules:b "
     "hastriggers:b rowsecurity:b"},
    {"pg_catalog", "pg_tablespace", 1213,
     "oid:o spcname:n spcowner:o spcacl:A spcoptions:T"},
    {"pg_catalog", "pg_trigger", 2620,
     "oid:o tgrelid:o tgparentid:o tgname:n tgfoid:o tgtype:s tgenabled:c tgisinternal:b "
     "tgconstrrelid:o tgconstrindid:o tgconstraint:o tgdeferrable:b tginitdeferred:b "
     "tgnargs:s tgattr:S tgargs:y tgqual:t tgoldtable:n tgnewtable:n"},
    {"pg_catalog", "pg_type", 1247,
     "oid:o typname:n typnamespace:o typowner:o typlen:s typbyval:b typtype:c "
     "typcategory:c typispreferred:b typisdefined:b typdelim:c typrelid:o typsubscript:o "
     "typelem:o typarray:o typinput:o typoutput:o typreceive:o typsend:o typmodin:o "
     "typmodout:o typanalyze:o typalign:c typstorage:c typnotnull:b typbasetype:o "
     "typtypmod:i typndims:i typcollation:o typdefaultbin:t typdefault:t typacl:A"},
    {"pg_catalog", "pg_user", 12014,
     "usename:n usesysid:o usecreatedb:b usesuper:b userepl:b usebypassrls:b passwd:t "
     "valuntil:z useconfig:T"},
    {"pg_catalog", "pg_views", 12028,
     "schemaname:n viewname:n viewowner:n definition:t"},
    {"information_schema", "columns", 13295,
     "table_catalog:t table_schema:t table_name:t column_name:t ordinal_position:i "
     "column_default:t is_nullable:t data_type:t character_maximum_length:i "
     "character_octet_length:i numeric_precision:i numeric_precision_radix:i "
     "numeric_scale:i datetime_precision:i interval_type:t interval_precision:i "
     "character_set_catalog:t character_set_schema:t character_set_name:t "
     "collation_catalog:t collation_schema:t collation_name:t domain_catalog:t "
     "domain_schema:t domain_name:t udt_catalog:t udt_schema:t udt_name:t scope_catalog:t "
     "scope_schema:t scope_name:t maximum_cardinality:i dtd_identifier:t "
     "is_self_referencing:t is_identity:t identity_generation:t identity_start:t "
     "identity_increment:t identity_maximum:t identity_minimum:t identity_cycle:t "
     "is_generated:t generation_expression:t is_updatable:t"},
    {"information_schema", "key_column_usage", 13329,
     "constraint_catalog:t constraint_schema:t constraint_name:t table_catalog:t "
     "table_schema:t table_name:t column_name:t ordinal_position:i "
     "position_in_unique_constraint:i"},
    {"information_schema", "schemata", 13382,
     "catalog_name:t schema_name:t schema_owner:t default_character_set_catalog:t "
     "default_character_set_schema:t default_character_set_name:t sql_path:t"},
    {"information_schema", "table_constraints", 13411,
     "constraint_catalog:t constraint_schema:t constraint_name:t table_catalog:t "
     "table_schema:t table_name:t constraint_type:t is_deferrable:t initially_deferred:t "
     "enforced:t nulls_distinct:t"},
    {"information_schema", "tables", 13425,
     "table_catalog:t table_schema:t table_name:t table_type:t "
     "self_referencing_column_name:t reference_generation:t user_defined_type_catalog:t "
     "user_defined_type_schema:t user_defined_type_name:t is_insertable_into:t is_typed:t "
     "commit_action:t"},
    {"information_schema", "views", 13483,
     "table_catalog:t table_schema:t table_name:t view_definition:t check_option:t "
     "is_updatable:t is_insertable_into:t is_trigger_updatable:t is_trigger_deletable:t "
     "is_trigger_insertable_into:t"},
};

#define CAT_NTABLES ((int)(sizeof cat_specs / sizeof cat_specs[0]))

static ExecCatTable cat_tables[CAT_NTABLES];
static pthread_once_t cat_once = PTHREAD_ONCE_INIT;

static SqlType letter_type(char c)
{
    switch (c) {
    case 'o': return SQLTYPE(TYPE_OID);
    case 'i': return SQLTYPE(TYPE_INT4);
    case 'n': return SQLTYPE(TYPE_NAME);
    case 'c': return SQLTYPE(TYPE_CHAR);
    case 't': return SQLTYPE(TYPE_TEXT);
    case 'b': return SQLTYPE(TYPE_BOOL);
    case 's': return SQLTYPE(TYPE_INT2);
    case 'l': case 'x': return SQLTYPE(TYPE_INT8);
    case 'f': return SQLTYPE(TYPE_FLOAT4);
    case 'd': return SQLTYPE(TYPE_FLOAT8);
    case 'z': return SQLTYPE(TYPE_TIMESTAMPTZ);
    case 'y': return SQLTYPE(TYPE_BYTEA);
    case 'O': return SQLTYPE(TYPE_INT4_ARRAY);
    case 'S': return SQLTYPE(TYPE_INT2_ARRAY);
    case 'F': return SQLTYPE(TYPE_FLOAT4_ARRAY);
    default: return SQLTYPE(TYPE_TEXT_ARRAY);   /* T C A */
    }
}

/* Column names point into a static buffer split from the spec strings. */
static char cat_names[16384];

static void cat_init(void)
{
    size_t used = 0;
    for (int t = 0; t < CAT_NTABLES; t++) {
        ExecCatTable *ct = &cat_tables[t];
        ct->id = t;
        ct->schema = cat_specs[t].schema;
        ct->name = cat_specs[t].name;
        ct->oid = cat_specs[t].oid;
        for (const char *p = cat_specs[t].cols; *p;) {
            const char *colon = strchr(p, ':');
            size_t len = (size_t)(colon - p);
            ERR_ASSERT(ct->ncols < EXEC_CAT_MAX_COLS && used + len + 1 < sizeof cat_names);
            memcpy(cat_names + used, p, len);
            cat_names[used + len] = 0;
            ct->colnames[ct->ncols] = cat_names + used;
            ct->coltypes[ct->ncols++] = letter_type(colon[1]);
            used += len + 1;
            p = colon + 2;
            while (*p == ' ')
                p++;
        }
    }
}

const ExecCatTable *exec_catalog_table(const char *schema, const char *name)
{
    pthread_once(&cat_once, cat_init);
    if (!schema)
        schema = "pg_catalog";
    for (int t = 0; t < CAT_NTABLES; t++)
        if (strcmp(cat_tables[t].name, name) == 0 && strcmp(cat_tables[t].schema, schema) == 0)
            return &cat_tables[t];
    return NULL;
}

const ExecCatTable *exec_catalog_table_at(int id)
{
    pthread_once(&cat_once, cat_init);
    return id >= 0 && id < CAT_NTABLES ? &cat_tables[id] : NULL;
}

/* FNV-1a of the name (seeded per kind) folded into [100000, 2^30): stable across restarts,
 * clear of PostgreSQL's built-in OIDs and of the store's table OIDs in
 * practice. */
static uint32_t name_hash_oid(const char *s, uint32_t seed)
{
    uint32_t h = 2166136261u ^ seed;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return 100000u + h % ((1u << 30) - 100000u);
}

uint32_t exec_catalog_schema_oid(const char *schema)
{
    if (strcmp(schema, "pg_catalog") == 0)
        return EXEC_CAT_NS_PG_CATALOG;
    if (strcmp(schema, "public") == 0)
        return EXEC_CAT_NS_PUBLIC;
    if (strcmp(schema, "information_schema") == 0)
        return EXEC_CAT_NS_INFORMATION_SCHEMA;
    if (strcmp(schema, "pg_toast") == 0)
        return EXEC_CAT_NS_PG_TOAST;
    return name_hash_oid(schema, 0);
}

uint32_t exec_catalog_role_oid(const char *role)
{
    if (strcmp(role, "postgres") == 0)
        return EXEC_CAT_ROLE_BOOTSTRAP;
    if (strcmp(role, "pg_database_owner") == 0)
        return EXEC_CAT_ROLE_DATABASE_OWNER;
    return name_hash_oid(role, 0x726f6c65u);   /* seeded apart from a schema of the same name */
}

static _Thread_local ExecSession *cat_session;

void exec_catalog_set_session(ExecSession *s)
{
    cat_session = s;
    exec_catalog_reg_install();   /* reg* output needs the catalog: a pointer store, idempotent */
}
ExecSession *exec_catalog_session(void) { return cat_session; }

static _Thread_local int32_t cat_backend_pid;

void exec_catalog_set_backend_pid(int32_t pid) { cat_backend_pid = pid; }
int32_t exec_catalog_backend_pid(void) { return cat_backend_pid; }

/* PostgreSQL 15's descriptions of the built-in objects Strata also has
 * (pg_description / pg_shdescription rows; classoid 0 = shared). */
static const ExecCatDescription cat_descriptions[] = {
    {11, 2615, "system catalog schema"},
    {99, 2615, "reserved schema for TOAST tables"},
    {2200, 2615, "standard public schema"},
    {12, 2612, "built-in functions"},
    {13, 2612, "dynamically-loaded C functions"},
    {14, 2612, "SQL-language functions"},
    {13563, 2612, "PL/pgSQL procedural language"},
    {13559, 3079, "PL/pgSQL procedural language"},
    {1, 1262, "default template for new databases"},
    {4, 1262, "unmodifiable empty database"},
    {5, 1262, "default administrative connection database"},
};

const ExecCatDescription *exec_catalog_description_at(int idx)
{
    int n = (int)(sizeof cat_descriptions / sizeof cat_descriptions[0]);
    return idx >= 0 && idx < n ? &cat_descriptions[idx] : NULL;
}

const char *exec_catalog_description(uint32_t objoid, uint32_t classoid)
{
    for (const ExecCatDescription *d = cat_descriptions;
         d < cat_descriptions + sizeof cat_descriptions / sizeof cat_descriptions[0]; d++)
        if (d->objoid == objoid && d->classoid == classoid)
            return d->description;
    return NULL;
}
