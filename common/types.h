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
 *   timestamp with time zone         PHYS_I64     int64_t    UTC microseconds since 2000-01-01
 *                                                            00:00:00+00; TS_NOBEGIN/TS_NOEND
 *   time                             PHYS_I64     int64_t    microseconds since midnight
 *   interval                         PHYS_STR     StrRef     16 bytes: Interval (below), native
 *                                                            byte order, read with interval_get
 *   uuid                             PHYS_STR     StrRef     16 bytes, RFC 4122 byte order
 *   bytea                            PHYS_STR     StrRef     the raw bytes
 *   json                             PHYS_STR     StrRef     the input text, validated
 *   jsonb                            PHYS_STR     StrRef     canonical text (common/json.h): keys
 *                                                            sorted, duplicates removed, PG spacing
 *   oid, regclass, regtype,          PHYS_I32     int32_t    the OID's 32 bits (compared unsigned);
 *   regproc, regnamespace,                                    reg* print the object's name (typio hook)
 *   regprocedure, regrole
 *   record (anonymous)               PHYS_STR     StrRef     record_out's text "(1,x)"; fields: typmod
 *   name                             PHYS_STR     StrRef     at most 63 bytes
 *   "char"                           PHYS_STR     StrRef     0 or 1 byte
 *   void                             PHYS_STR     StrRef     always empty; prints as ''
 *   T[] (one-dimensional arrays)     PHYS_STR     StrRef     packed array (common/array.h): header
 *                                                            with element type and lower bound,
 *                                                            null bitmap, elements
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
    TYPE_JSON = 114,
    TYPE_TIME = 1083,
    TYPE_TIMESTAMPTZ = 1184,
    TYPE_INTERVAL = 1186,
    TYPE_UUID = 2950,
    TYPE_JSONB = 3802,
    /* catalog types (issue 6): oid-like PHYS_I32 values printed by name,
     * "char" (one byte, PHYS_STR of length 0 or 1), void (empty, prints empty) */
    TYPE_CHAR = 18,
    TYPE_REGPROC = 24,
    TYPE_REGCLASS = 2205,
    TYPE_REGTYPE = 2206,
    TYPE_REGNAMESPACE = 4089,
    TYPE_VOID = 2278,
    /* issue 6: more reg* types (PHYS_I32 like regclass) and the anonymous
     * record (PHYS_STR: record_out's text; its fields live in the planner's
     * registry, indexed by the typmod — executor/funcs_record.c) */
    TYPE_REGPROCEDURE = 2202,
    TYPE_REGROLE = 4096,
    TYPE_RECORD = 2249,
    TYPE_XID8 = 5069,   /* PHYS_I64: a 64-bit transaction id (pg_current_xact_id) */
    /* one-dimensional arrays (PostgreSQL's array type OIDs) */
    TYPE_JSON_ARRAY = 199,
    TYPE_BOOL_ARRAY = 1000,
    TYPE_BYTEA_ARRAY = 1001,
    TYPE_INT2_ARRAY = 1005,
    TYPE_INT4_ARRAY = 1007,
    TYPE_TEXT_ARRAY = 1009,
    TYPE_BPCHAR_ARRAY = 1014,
    TYPE_VARCHAR_ARRAY = 1015,
    TYPE_INT8_ARRAY = 1016,
    TYPE_FLOAT4_ARRAY = 1021,
    TYPE_FLOAT8_ARRAY = 1022,
    TYPE_TIMESTAMP_ARRAY = 1115,
    TYPE_DATE_ARRAY = 1182,
    TYPE_TIME_ARRAY = 1183,
    TYPE_TIMESTAMPTZ_ARRAY = 1185,
    TYPE_INTERVAL_ARRAY = 1187,
    TYPE_NUMERIC_ARRAY = 1231,
    TYPE_UUID_ARRAY = 2951,
    TYPE_JSONB_ARRAY = 3807,
    TYPE_CHAR_ARRAY = 1002,
    TYPE_NAME_ARRAY = 1003,
    TYPE_OID_ARRAY = 1028,
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
#define USECS_PER_HOUR INT64_C(3600000000)
#define USECS_PER_SEC INT64_C(1000000)

/* interval: PostgreSQL's three fields, kept apart ('1 month' is not '30 days'
 * for arithmetic, though they compare equal). Stored as a 16-byte StrRef
 * blob; interval_get/interval_put copy (the blob may be unaligned). */
typedef struct Interval {
    int64_t micros;
    int32_t days;
    int32_t months;
} Interval;
#define INTERVAL_SIZE 16

/* Facts about a type, from one table (types.c). */
typedef struct TypeInfo {
    uint32_t oid;
    const char *name;      /* pg_type.typname, e.g. "int4" */
    const char *sql_name;  /* format_type's spelling, e.g. "integer" */
    PhysType phys;
    int16_t typlen;        /* RowDescription's typlen: 1,2,4,8 or -1 */
    char category;         /* pg_type.typcategory: B N S D U A ... */
    bool preferred;        /* pg_type.typispreferred */
    uint32_t elem;         /* arrays: the element type (pg_type.typelem), else 0 */
    uint32_t array;        /* scalars: their array type (pg_type.typarray), else 0 */
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
/* Array type of a scalar type (TYPE_INT4 → TYPE_INT4_ARRAY); TYPE_INVALID
 * when there is none (arrays of arrays, unknown types). */
uint32_t type_array_of(uint32_t elem_oid);
/* Element type of an array type; TYPE_INVALID when oid is not an array. */
uint32_t type_element_of(uint32_t array_oid);
static inline bool type_is_array(uint32_t oid) { return type_element_of(oid) != 0; }
/* regclass, regtype, regproc, regnamespace: an OID shown by name. */
static inline bool type_is_reg(uint32_t oid)
{
    return oid == TYPE_REGCLASS || oid == TYPE_REGTYPE || oid == TYPE_REGPROC ||
           oid == TYPE_REGNAMESPACE || oid == TYPE_REGPROCEDURE ||
           oid == TYPE_REGROLE;
}
/* oid and the reg* types: unsigned 32-bit values in PHYS_I32. */
static inline bool type_is_oidlike(uint32_t oid) { return oid == TYPE_OID || type_is_reg(oid); }

/* The 16 bytes of an interval value (v->u.str) as a struct, and back
 * (into 16 bytes of caller memory, which becomes the StrRef). */
Interval interval_get(StrRef s);
StrRef interval_put(Interval iv, char *mem16);

/*
 * Total order of two non-NULL values of type t, as PostgreSQL's btree
 * comparison for the type (returns <0, 0, >0): integers and dates
 * numerically; floats with NaN greatest and -0 = 0; numeric by value
 * (1.5 = 1.50); text-like and bytea bytewise (C collation), shorter first
 * on a common prefix; interval by its span (months*30 days + days + µs,
 * so '1 month' = '30 days'); uuid bytewise; arrays element by element
 * (NULL elements greatest, then length, then lower bound); jsonb as
 * PostgreSQL's jsonb btree (json.h's jsonb_compare: 1.0 = 1). json has no
 * ordering in PostgreSQL: compared as text.
 * Slow path (one switch per call); kernels use typed loops.
 */
int type_compare(SqlType t, const struct Value *a, const struct Value *b);
/* A 64-bit hash of a non-NULL value consistent with type_compare's
 * equality (1.5 and 1.50, '1 month' and '30 days', 0.0 and -0.0 hash the
 * same). */
uint64_t type_hash_value(SqlType t, const struct Value *v);

#endif
