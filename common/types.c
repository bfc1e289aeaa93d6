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
#include <stdio.h>
#include <string.h>

static const TypeInfo type_table[] = {
    /* oid            name         sql_name                       phys       len  cat  pref */
    {TYPE_BOOL,      "bool",      "boolean",                     PHYS_BOOL, 1,   'B', true},
    {TYPE_BYTEA,     "bytea",     "bytea",                       PHYS_STR,  -1,  'U', false},
    {TYPE_NAME,      "name",      "name",                        PHYS_STR,  64,  'S', false},
    {TYPE_INT8,      "int8",      "bigint",                      PHYS_I64,  8,   'N', false},
    {TYPE_INT2,      "int2",      "smallint",                    PHYS_I16,  2,   'N', false},
    {TYPE_INT4,      "int4",      "integer",                     PHYS_I32,  4,   'N', false},
    {TYPE_TEXT,      "text",      "text",                        PHYS_STR,  -1,  'S', true},
    {TYPE_OID,       "oid",       "oid",                         PHYS_I32,  4,   'N', true},
    {TYPE_FLOAT4,    "float4",    "real",                        PHYS_F32,  4,   'N', false},
    {TYPE_FLOAT8,    "float8",    "double precision",            PHYS_F64,  8,   'N', true},
    {TYPE_UNKNOWN,   "unknown",   "unknown",                     PHYS_STR,  -2,  'X', false},
    {TYPE_BPCHAR,    "bpchar",    "character",                   PHYS_STR,  -1,  'S', false},
    {TYPE_VARCHAR,   "varchar",   "character varying",           PHYS_STR,  -1,  'S', false},
    {TYPE_DATE,      "date",      "date",                        PHYS_I32,  4,   'D', false},
    {TYPE_TIMESTAMP, "timestamp", "timestamp without time zone", PHYS_I64,  8,   'D', false},
    {TYPE_NUMERIC,   "numeric",   "numeric",                     PHYS_STR,  -1,  'N', false},
};

#define TYPE_COUNT (sizeof type_table / sizeof type_table[0])

const TypeInfo *type_info(uint32_t oid)
{
    for (size_t i = 0; i < TYPE_COUNT; i++)
        if (type_table[i].oid == oid)
            return &type_table[i];
    return NULL;
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
    if (name == NULL || !type_normalize_name(name, norm, sizeof norm))
        return TYPE_INVALID;
    for (size_t i = 0; i < TYPE_COUNT; i++)
        if (strcmp(type_table[i].name, norm) == 0)
            return type_table[i].oid;
    for (size_t i = 0; i < sizeof type_aliases / sizeof type_aliases[0]; i++)
        if (strcmp(type_aliases[i].alias, norm) == 0)
            return type_aliases[i].oid;
    return TYPE_INVALID;
}
