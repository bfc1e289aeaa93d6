/*
 * types.c — the table of SQL types Strata knows: names, physical forms,
 * pg_type facts (typlen, category, preferred) and PostgreSQL's spellings.
 *
 * One table, looked up by OID; format_type and the SQL-name aliases are
 * derived from it so that adding a type is one row here (plus its text I/O
 * in typio.c).
 */
#include "common/types.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static const TypeInfo type_table[] = {
    /* oid             name           sql_name                       phys       len  cat  pref  elem  array */
    {TYPE_BOOL,        "bool",        "boolean",                     PHYS_BOOL, 1,   'B', true,  0, TYPE_BOOL_ARRAY},
    {TYPE_BYTEA,       "bytea",       "bytea",                       PHYS_STR,  -1,  'U', false, 0, TYPE_BYTEA_ARRAY},
    {TYPE_NAME,        "name",        "name",                        PHYS_STR,  64,  'S', false, 0, TYPE_NAME_ARRAY},
    {TYPE_CHAR,        "char",        "\"char\"",                      PHYS_STR,  1,   'Z', false, 0, TYPE_CHAR_ARRAY},
    {TYPE_REGPROC,     "regproc",     "regproc",                     PHYS_I32,  4,   'N', false, 0, 0},
    {TYPE_REGCLASS,    "regclass",    "regclass",                    PHYS_I32,  4,   'N', false, 0, 0},
    {TYPE_REGTYPE,     "regtype",     "regtype",                     PHYS_I32,  4,   'N', false, 0, 0},
    {TYPE_REGNAMESPACE,"regnamespace","regnamespace",                PHYS_I32,  4,   'N', false, 0, 0},
    {TYPE_REGPROCEDURE,"regprocedure","regprocedure",                PHYS_I32,  4,   'N', false, 0, 0},
    {TYPE_REGROLE,     "regrole",     "regrole",                     PHYS_I32,  4,   'N', false, 0, 0},
    {TYPE_RECORD,      "record",      "record",                      PHYS_STR,  -1,  'P', false, 0, 0},
    {TYPE_XID8,        "xid8",        "xid8",                        PHYS_I64,  8,   'U', false, 0, 0},
    {TYPE_VOID,        "void",        "void",                        PHYS_STR,  4,   'P', false, 0, 0},
    {TYPE_INT8,        "int8",        "bigint",                      PHYS_I64,  8,   'N', false, 0, TYPE_INT8_ARRAY},
    {TYPE_INT2,        "int2",        "smallint",                    PHYS_I16,  2,   'N', false, 0, TYPE_INT2_ARRAY},
    {TYPE_INT4,        "int4",        "integer",                     PHYS_I32,  4,   'N', false, 0, TYPE_INT4_ARRAY},
    {TYPE_TEXT,        "text",        "text",                        PHYS_STR,  -1,  'S', true,  0, TYPE_TEXT_ARRAY},
    {TYPE_OID,         "oid",         "oid",                         PHYS_I32,  4,   'N', true,  0, TYPE_OID_ARRAY},
    {TYPE_FLOAT4,      "float4",      "real",                        PHYS_F32,  4,   'N', false, 0, TYPE_FLOAT4_ARRAY},
    {TYPE_FLOAT8,      "float8",      "double precision",            PHYS_F64,  8,   'N', true,  0, TYPE_FLOAT8_ARRAY},
    {TYPE_UNKNOWN,     "unknown",     "unknown",                     PHYS_STR,  -2,  'X', false, 0, 0},
    {TYPE_BPCHAR,      "bpchar",      "character",                   PHYS_STR,  -1,  'S', false, 0, TYPE_BPCHAR_ARRAY},
    {TYPE_VARCHAR,     "varchar",     "character varying",           PHYS_STR,  -1,  'S', false, 0, TYPE_VARCHAR_ARRAY},
    {TYPE_DATE,        "date",        "date",                        PHYS_I32,  4,   'D', false, 0, TYPE_DATE_ARRAY},
    {TYPE_TIMESTAMP,   "timestamp",   "timestamp without time zone", PHYS_I64,  8,   'D', false, 0, TYPE_TIMESTAMP_ARRAY},
    {TYPE_NUMERIC,     "numeric",     "numeric",                     PHYS_STR,  -1,  'N', false, 0, TYPE_NUMERIC_ARRAY},
    {TYPE_JSON,        "json",        "json",                        PHYS_STR,  -1,  'U', false, 0, TYPE_JSON_ARRAY},
    {TYPE_TIME,        "time",        "time without time zone",      PHYS_I64,  8,   'D', false, 0, TYPE_TIME_ARRAY},
    {TYPE_TIMESTAMPTZ, "timestamptz", "timestamp with time zone",    PHYS_I64,  8,   'D', true,  0, TYPE_TIMESTAMPTZ_ARRAY},
    {TYPE_INTERVAL,    "interval",    "interval",                    PHYS_STR,  16,  'T', true,  0, TYPE_INTERVAL_ARRAY},
    {TYPE_UUID,        "uuid",        "uuid",                        PHYS_STR,  16,  'U', false, 0, TYPE_UUID_ARRAY},
    {TYPE_JSONB,       "jsonb",       "jsonb",                       PHYS_STR,  -1,  'U', false, 0, TYPE_JSONB_ARRAY},
    /* arrays: typlen -1, category A, sql_name is the element's + "[]" (type_format) */
    {TYPE_JSON_ARRAY,        "_json",        "json[]",                         PHYS_STR, -1, 'A', false, TYPE_JSON, 0},
    {TYPE_BOOL_ARRAY,        "_bool",        "boolean[]",                      PHYS_STR, -1, 'A', false, TYPE_BOOL, 0},
    {TYPE_BYTEA_ARRAY,       "_bytea",       "bytea[]",                        PHYS_STR, -1, 'A', false, TYPE_BYTEA, 0},
    {TYPE_INT2_ARRAY,        "_int2",        "smallint[]",                     PHYS_STR, -1, 'A', false, TYPE_INT2, 0},
    {TYPE_INT4_ARRAY,        "_int4",        "integer[]",                      PHYS_STR, -1, 'A', false, TYPE_INT4, 0},
    {TYPE_TEXT_ARRAY,        "_text",        "text[]",                         PHYS_STR, -1, 'A', false, TYPE_TEXT, 0},
    {TYPE_BPCHAR_ARRAY,      "_bpchar",      "character[]",                    PHYS_STR, -1, 'A', false, TYPE_BPCHAR, 0},
    {TYPE_VARCHAR_ARRAY,     "_varchar",     "character varying[]",            PHYS_STR, -1, 'A', false, TYPE_VARCHAR, 0},
    {TYPE_INT8_ARRAY,        "_int8",        "bigint[]",                       PHYS_STR, -1, 'A', false, TYPE_INT8, 0},
    {TYPE_FLOAT4_ARRAY,      "_float4",      "real[]",                         PHYS_STR, -1, 'A', false, TYPE_FLOAT4, 0},
    {TYPE_FLOAT8_ARRAY,      "_float8",      "double precision[]",             PHYS_STR, -1, 'A', false, TYPE_FLOAT8, 0},
    {TYPE_TIMESTAMP_ARRAY,   "_timestamp",   "timestamp without time zone[]",  PHYS_STR, -1, 'A', false, TYPE_TIMESTAMP, 0},
    {TYPE_DATE_ARRAY,        "_date",        "date[]",                         PHYS_STR, -1, 'A', false, TYPE_DATE, 0},
    {TYPE_TIME_ARRAY,        "_time",        "time without time zone[]",       PHYS_STR, -1, 'A', false, TYPE_TIME, 0},
    {TYPE_TIMESTAMPTZ_ARRAY, "_timestamptz", "timestamp with time zone[]",     PHYS_STR, -1, 'A', false, TYPE_TIMESTAMPTZ, 0},
    {TYPE_INTERVAL_ARRAY,    "_interval",    "interval[]",                     PHYS_STR, -1, 'A', false, TYPE_INTERVAL, 0},
    {TYPE_NUMERIC_ARRAY,     "_numeric",     "numeric[]",                      PHYS_STR, -1, 'A', false, TYPE_NUMERIC, 0},
    {TYPE_UUID_ARRAY,        "_uuid",        "uuid[]",                         PHYS_STR, -1, 'A', false, TYPE_UUID, 0},
    {TYPE_JSONB_ARRAY,       "_jsonb",       "jsonb[]",                        PHYS_STR, -1, 'A', false, TYPE_JSONB, 0},
    {TYPE_CHAR_ARRAY,        "_char",        "\"char\"[]",                     PHYS_STR, -1, 'A', false, TYPE_CHAR, 0},
    {TYPE_NAME_ARRAY,        "_name",        "name[]",                         PHYS_STR, -1, 'A', false, TYPE_NAME, 0},
    {TYPE_OID_ARRAY,         "_oid",         "oid[]",                          PHYS_STR, -1, 'A', false, TYPE_OID, 0},
};

#define TYPE_COUNT (sizeof type_table / sizeof type_table[0])
_Static_assert(sizeof type_table / sizeof type_table[0] < 255, "type_slot holds row + 1 in a byte");

/* OID → row + 1 (0 = unknown), built once: type_info is on per-value
 * paths (array_view, type_phys). Every OID of the table is below 8192
 * (the largest, xid8, is 5069). */
#define TYPE_SLOTS 8192
static uint8_t type_slot[TYPE_SLOTS];
static pthread_once_t type_slot_once = PTHREAD_ONCE_INIT;

static void type_slot_build(void)
{
    for (size_t i = 0; i < TYPE_COUNT; i++)
        if (type_table[i].oid < TYPE_SLOTS)
            type_slot[type_table[i].oid] = (uint8_t)(i + 1);
}

const TypeInfo *type_info(uint32_t oid)
{
    pthread_once(&type_slot_once, type_slot_build);
    if (oid >= TYPE_SLOTS || type_slot[oid] == 0)
        return NULL;
    return &type_table[type_slot[oid] - 1];
}

PhysType type_phys(SqlType t)
{
    const TypeInfo *ti = type_info(t.oid);
    return ti ? ti->phys : PHYS_STR;
}

size_t phys_size(PhysType p)
{
    switch (p) {
    case PHYS_BOOL: return 1;
    case PHYS_I16: return 2;
    case PHYS_I32: return 4;
    case PHYS_I64: return 8;
    case PHYS_F32: return 4;
    case PHYS_F64: return 8;
    case PHYS_STR: return sizeof(StrRef);
    }
    return 8;
}

const char *type_format(SqlType t, char *buf, size_t buf_size)
{
    const TypeInfo *ti = type_info(t.oid);
    int32_t tm = t.typmod;
    if (ti == NULL) {
        snprintf(buf, buf_size, "%u", (unsigned)t.oid);
        return buf;
    }
    if (ti->elem != 0) {
        /* format_type: the element with the array's typmod, then "[]" */
        size_t n;
        type_format((SqlType){ti->elem, tm}, buf, buf_size);
        n = strlen(buf);
        snprintf(buf + n, buf_size - n, "[]");
        return buf;
    }
    switch (t.oid) {
    case TYPE_VARCHAR:
        if (tm >= 4) snprintf(buf, buf_size, "character varying(%d)", (int)(tm - 4));
        else snprintf(buf, buf_size, "character varying");
        return buf;
    case TYPE_BPCHAR:
        /* format_type_be: without a typmod "bpchar", since "character" means char(1) */
        if (tm >= 4) snprintf(buf, buf_size, "character(%d)", (int)(tm - 4));
        else snprintf(buf, buf_size, "bpchar");
        return buf;
    case TYPE_NUMERIC:
        if (tm >= 4)
            snprintf(buf, buf_size, "numeric(%d,%d)", (int)(((tm - 4) >> 16) & 0xffff),
                     (int)(int16_t)((tm - 4) & 0xffff));
        else
            snprintf(buf, buf_size, "numeric");
        return buf;
    case TYPE_TIMESTAMP:
        if (tm >= 0) snprintf(buf, buf_size, "timestamp(%d) without time zone", (int)tm);
        else snprintf(buf, buf_size, "timestamp without time zone");
        return buf;
    case TYPE_TIMESTAMPTZ:
        if (tm >= 0) snprintf(buf, buf_size, "timestamp(%d) with time zone", (int)tm);
        else snprintf(buf, buf_size, "timestamp with time zone");
        return buf;
    case TYPE_TIME:
        if (tm >= 0) snprintf(buf, buf_size, "time(%d) without time zone", (int)tm);
        else snprintf(buf, buf_size, "time without time zone");
        return buf;
    default:
        snprintf(buf, buf_size, "%s", ti->sql_name);
        return buf;
    }
}

/* SQL spellings that are not a pg_type name or format_type output. */
static const struct { const char *alias; uint32_t oid; } type_aliases[] = {
    {"int", TYPE_INT4},
    {"integer", TYPE_INT4},
    {"smallint", TYPE_INT2},
    {"bigint", TYPE_INT8},
    {"real", TYPE_FLOAT4},
    {"float", TYPE_FLOAT8},
    {"double precision", TYPE_FLOAT8},
    {"decimal", TYPE_NUMERIC},
    {"dec", TYPE_NUMERIC},
    {"boolean", TYPE_BOOL},
    {"character varying", TYPE_VARCHAR},
    {"char varying", TYPE_VARCHAR},
    {"char", TYPE_BPCHAR},
    {"character", TYPE_BPCHAR},
    {"timestamp without time zone", TYPE_TIMESTAMP},
    {"timestamp with time zone", TYPE_TIMESTAMPTZ},
    {"time without time zone", TYPE_TIME},
    {"\"char\"", TYPE_CHAR},   /* the one-byte type; bare char is bpchar */
};

/* Copy name lowercased with runs of whitespace collapsed to one space. */
static bool type_normalize_name(const char *name, char *out, size_t out_size)
{
    size_t n = 0;
    bool space = false;
    while (*name && isspace((unsigned char)*name))
        name++;
    for (; *name; name++) {
        if (isspace((unsigned char)*name)) {
            space = true;
            continue;
        }
        if (space && n + 1 < out_size)
            out[n++] = ' ';
        space = false;
        if (n + 1 >= out_size)
            return false;
        out[n++] = (char)tolower((unsigned char)*name);
    }
    out[n] = '\0';
    return true;
}

uint32_t type_lookup_name(const char *name)
{
    char norm[64];
    size_t n;
    if (name == NULL || !type_normalize_name(name, norm, sizeof norm))
        return TYPE_INVALID;
    n = strlen(norm);
    if (n > 2 && strcmp(norm + n - 2, "[]") == 0) {
        /* "integer[]", "int4 []": the element's array type */
        n -= 2;
        while (n > 0 && norm[n - 1] == ' ')
            n--;
        norm[n] = '\0';
        return type_array_of(type_lookup_name(norm));
    }
    /* aliases first: "char" is bpchar, the "char" type is spelled quoted */
    for (size_t i = 0; i < sizeof type_aliases / sizeof type_aliases[0]; i++)
        if (strcmp(type_aliases[i].alias, norm) == 0)
            return type_aliases[i].oid;
    for (size_t i = 0; i < TYPE_COUNT; i++)
        if (strcmp(type_table[i].name, norm) == 0)
            return type_table[i].oid;
    return TYPE_INVALID;
}

/* One X(elem, array) per array type; the switches below compile to jump
 * tables (type_is_array sits on per-value paths such as type_output). */
#define TYPE_ARRAY_PAIRS(X)                                                      \
    X(TYPE_BOOL, TYPE_BOOL_ARRAY) X(TYPE_BYTEA, TYPE_BYTEA_ARRAY)                \
    X(TYPE_INT2, TYPE_INT2_ARRAY) X(TYPE_INT4, TYPE_INT4_ARRAY)                  \
    X(TYPE_INT8, TYPE_INT8_ARRAY) X(TYPE_TEXT, TYPE_TEXT_ARRAY)                  \
    X(TYPE_BPCHAR, TYPE_BPCHAR_ARRAY) X(TYPE_VARCHAR, TYPE_VARCHAR_ARRAY)        \
    X(TYPE_FLOAT4, TYPE_FLOAT4_ARRAY) X(TYPE_FLOAT8, TYPE_FLOAT8_ARRAY)          \
    X(TYPE_TIMESTAMP, TYPE_TIMESTAMP_ARRAY) X(TYPE_DATE, TYPE_DATE_ARRAY)        \
    X(TYPE_TIME, TYPE_TIME_ARRAY) X(TYPE_TIMESTAMPTZ, TYPE_TIMESTAMPTZ_ARRAY)    \
    X(TYPE_INTERVAL, TYPE_INTERVAL_ARRAY) X(TYPE_NUMERIC, TYPE_NUMERIC_ARRAY)    \
    X(TYPE_UUID, TYPE_UUID_ARRAY) X(TYPE_JSON, TYPE_JSON_ARRAY)                  \
    X(TYPE_JSONB, TYPE_JSONB_ARRAY) X(TYPE_CHAR, TYPE_CHAR_ARRAY)                \
    X(TYPE_NAME, TYPE_NAME_ARRAY) X(TYPE_OID, TYPE_OID_ARRAY)

uint32_t type_array_of(uint32_t elem_oid)
{
    switch (elem_oid) {
#define TYPE_X(e, a) case e: return a;
    TYPE_ARRAY_PAIRS(TYPE_X)
#undef TYPE_X
    default: return TYPE_INVALID;
    }
}

uint32_t type_element_of(uint32_t array_oid)
{
    switch (array_oid) {
#define TYPE_X(e, a) case a: return e;
    TYPE_ARRAY_PAIRS(TYPE_X)
#undef TYPE_X
    default: return TYPE_INVALID;
    }
}

Interval interval_get(StrRef s)
{
    Interval iv = {0, 0, 0};
    if (s.len >= INTERVAL_SIZE) {
        memcpy(&iv.micros, s.ptr, 8);
        memcpy(&iv.days, s.ptr + 8, 4);
        memcpy(&iv.months, s.ptr + 12, 4);
    }
    return iv;
}

StrRef interval_put(Interval iv, char *mem16)
{
    memcpy(mem16, &iv.micros, 8);
    memcpy(mem16 + 8, &iv.days, 4);
    memcpy(mem16 + 12, &iv.months, 4);
    return (StrRef){mem16, INTERVAL_SIZE};
}
