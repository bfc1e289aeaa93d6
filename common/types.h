/*
 * types.h — SQL types, their physical form in memory, and single values.
 *
 * A SQL type is PostgreSQL's type OID plus a typmod (varchar(n), numeric(p,s)).
 * Each SQL type has one physical form, used in column vectors, run files
 * and constants alike:
 *
 *   SQL type                         PhysType     C type     notes
 *   boolean                          PHYS_BOOL    uint8_t    0 or 1
 *   smallint                         PHYS_I16     int16_t
 *   integer                          PHYS_I32     int32_t
 *   bigint                           PHYS_I64     int64_t
 *   real                             PHYS_F32     float
 *   double precision                 PHYS_F64     double
 *   date                             PHYS_I32     int32_t    days since 2000-01-01 (PostgreSQL's
 *                                                            epoch); DATE_NOBEGIN/DATE_NOEND = -/+infinity
 *   timestamp                        PHYS_I64     int64_t    microseconds since 2000-01-01 00:00:00;
 *                                                            TS_NOBEGIN/TS_NOEND = -/+infinity
 *   text, varchar(n), char(n),       PHYS_STR     StrRef     bytes are UTF-8; char(n) stored padded
 *   unknown (untyped literal)                                 to n as PostgreSQL's bpchar
 *   numeric                          PHYS_STR     StrRef     bytes are the packed numeric format of
 *                                                            common/numeric.h (arbitrary precision)
 *
 * StrRef points into memory owned by someone else (a table's storage, a
 * query or batch arena); it never owns.
 */
#ifndef STRATA_COMMON_TYPES_H
#define STRATA_COMMON_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* PostgreSQL's type OIDs: clients see these in RowDescription. */
typedef enum TypeOid {
    TYPE_INVALID = 0,
    TYPE_BOOL = 16,
    TYPE_BYTEA = 17,
    TYPE_NAME = 19,
    TYPE_INT8 = 20,
    TYPE_INT2 = 21,
    TYPE_INT4 = 23,
    TYPE_TEXT = 25,
    TYPE_OID = 26,
    TYPE_FLOAT4 = 700,
    TYPE_FLOAT8 = 701,
    TYPE_UNKNOWN = 705,
    TYPE_BPCHAR = 1042,
    TYPE_VARCHAR = 1043,
    TYPE_DATE = 1082,
    TYPE_TIMESTAMP = 1114,
    TYPE_NUMERIC = 1700,
} TypeOid;

typedef struct SqlType {
    uint32_t oid;   /* a TypeOid */
    int32_t typmod; /* -1 = none; varchar/bpchar: n + 4 (PostgreSQL's VARHDRSZ
                       convention); numeric: ((p << 16) | s) + 4 */
} SqlType;

#define TYPMOD_NONE (-1)
#define SQLTYPE(o) ((SqlType){(o), TYPMOD_NONE})

typedef enum PhysType {
    PHYS_BOOL,
    PHYS_I16,
    PHYS_I32,
    PHYS_I64,
    PHYS_F32,
    PHYS_F64,
    PHYS_STR,
} PhysType;

/* 128-bit integers (GCC/Clang extension; __extension__ keeps -Wpedantic quiet):
 * exact sums of bigints and numeric fast paths. */
__extension__ typedef __int128 int128_t;
__extension__ typedef unsigned __int128 uint128_t;

typedef struct StrRef {
    const char *ptr;
    uint32_t len;
} StrRef;

/* A single value of some SqlType (constants, parameters, aggregate results). */
typedef struct Value {
    bool is_null;
    union {
        bool b;
        int16_t i16;
        int32_t i32;
        int64_t i64;
        float f32;
        double f64;
        StrRef str;
    } u;
} Value;

/* Special dates and timestamps (PostgreSQL's values). */
#define DATE_NOBEGIN ((int32_t)INT32_MIN)
#define DATE_NOEND ((int32_t)INT32_MAX)
#define TS_NOBEGIN ((int64_t)INT64_MIN)
#define TS_NOEND ((int64_t)INT64_MAX)
#define USECS_PER_DAY INT64_C(86400000000)

/* Facts about a type, from one table (types.c). */
typedef struct TypeInfo {
    uint32_t oid;
    const char *name;      /* pg_type.typname, e.g. "int4" */
    const char *sql_name;  /* format_type's spelling, e.g. "integer" */
    PhysType phys;
    int16_t typlen;        /* RowDescription's typlen: 1,2,4,8 or -1 */
    char category;         /* pg_type.typcategory: B N S D U ... */
    bool preferred;        /* pg_type.typispreferred */
} TypeInfo;

/* NULL for an OID Strata doesn't know. */
const TypeInfo *type_info(uint32_t oid);
PhysType type_phys(SqlType t);
/* Size in bytes of one value of a physical type in a vector. */
size_t phys_size(PhysType p);
/* PostgreSQL's format_type(): "integer", "character varying(10)", "numeric(10,2)". */
const char *type_format(SqlType t, char *buf, size_t buf_size);
/* Resolve a type name as written in SQL ("int", "int4", "varchar", "double precision",
 * "timestamp without time zone", ...). Returns TYPE_INVALID when unknown. */
uint32_t type_lookup_name(const char *name);

#endif
