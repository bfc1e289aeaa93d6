/*
 * ast.h — the raw parse tree: what the grammar builds and the planner reads.
 *
 * Shaped after PostgreSQL's parsenodes.h (so its documentation and source
 * read across): every node starts with a NodeTag and a location, the byte
 * offset of the node's first token in the query text (-1 = unknown), which
 * errors turn into a character position for psql's caret. Identifiers are
 * already case-folded (unquoted → lower case). Lists are common/list.h
 * List * of nodes (or of char * where noted); NULL is the empty list.
 * Everything lives in the parse arena.
 */
#ifndef STRATA_PARSER_AST_H
#define STRATA_PARSER_AST_H

#include <stdbool.h>
#include <stdint.h>
#include "common/list.h"

typedef enum NodeTag {
    T_Invalid = 0,
    /* expressions */
    T_A_Const,
    T_ColumnRef,
    T_ParamRef,
    T_A_Expr,
    T_BoolExpr,
    T_NullTest,
    T_CaseExpr,
    T_CaseWhen,
    T_TypeCast,
    T_FuncCall,
    T_A_Star,
    /* clauses */
    T_ResTarget,
    T_RangeVar,
    T_JoinExpr,
    T_SortBy,
    T_TypeName,
    T_ColumnDef,
    T_Constraint,
    /* statements */
    T_RawStmt,
    T_SelectStmt,
    T_InsertStmt,
    T_CreateStmt,
    T_DropStmt,
    T_TransactionStmt,
    T_VariableSetStmt,
    T_VariableShowStmt,
    T_ExplainStmt,
    T_AlterRoleStmt,
    /* added after the first interface commit (appended: values stay stable) */
    T_SetToDefault,
} NodeTag;

typedef struct Node {
    NodeTag tag;
    int location;
} Node;

#define NODE_TAG(n) (((const Node *)(n))->tag)
#define IS_A(n, T) ((n) != NULL && NODE_TAG(n) == T_##T)

/* ---------- expressions ---------- */

typedef enum ConstKind {
    CONST_INTEGER,   /* digits that fit int64: ival; text keeps the spelling */
    CONST_NUMERIC,   /* 1.5, 1e3, .5, or integers too big for int64: text */
    CONST_STRING,    /* 'x', E'x', $$x$$: sval (decoded bytes, sval_len) */
    CONST_BOOL,      /* TRUE / FALSE: bval */
    CONST_NULL,
} ConstKind;

typedef struct A_Const {
    Node node;
    ConstKind kind;
    int64_t ival;
    bool bval;
    const char *text;    /* the literal's digits for INTEGER/NUMERIC */
    const char *sval;    /* STRING: decoded value, NUL-terminated */
    uint32_t sval_len;   /* STRING: byte length (may contain no NULs) */
} A_Const;

/* a, t.a, s.t.a, t.*, * : fields are char * (lower-cased unless quoted);
 * a trailing "*" field is represented by star = true. */
typedef struct ColumnRef {
    Node node;
    List *fields;
    bool star;
} ColumnRef;

typedef struct ParamRef {
    Node node;
    int number;          /* $1 → 1 */
} ParamRef;

/* Operators by name. lexpr NULL for prefix operators (unary minus).
 * Kinds other than OP carry their own meaning. */
typedef enum A_ExprKind {
    AEXPR_OP,            /* lexpr name rexpr: name is "+", "<=", "||", ... */
    AEXPR_IN,            /* lexpr IN (rexpr list): name "=" or "<>" (NOT IN) */
    AEXPR_LIKE,          /* name "~~" or "!~~"; rexpr pattern; escape in args */
    AEXPR_ILIKE,         /* name "~~*" or "!~~*" */
    AEXPR_BETWEEN,       /* rexpr: List of two nodes */
    AEXPR_NOT_BETWEEN,
    AEXPR_BETWEEN_SYM,
    AEXPR_NOT_BETWEEN_SYM,
    AEXPR_DISTINCT,      /* IS DISTINCT FROM */
    AEXPR_NOT_DISTINCT,  /* IS NOT DISTINCT FROM */
} A_ExprKind;

typedef struct A_Expr {
    Node node;
    A_ExprKind kind;
    const char *name;
    Node *lexpr;
    Node *rexpr;         /* a Node, or a List * (cast) for IN and BETWEEN */
    Node *escape;        /* LIKE ... ESCAPE x, else NULL */
} A_Expr;

typedef enum BoolExprType { AND_EXPR, OR_EXPR, NOT_EXPR } BoolExprType;
typedef struct BoolExpr {
    Node node;
    BoolExprType boolop;
    List *args;
} BoolExpr;

/* IS [NOT] NULL, IS [NOT] TRUE/FALSE/UNKNOWN */
typedef enum NullTestType {
    IS_NULL, IS_NOT_NULL,
    IS_TRUE, IS_NOT_TRUE, IS_FALSE, IS_NOT_FALSE, IS_UNKNOWN, IS_NOT_UNKNOWN,
} NullTestType;
typedef struct NullTest {
    Node node;
    Node *arg;
    NullTestType nulltesttype;
} NullTest;

typedef struct CaseWhen {
    Node node;
    Node *expr;          /* condition, or comparison value for simple CASE */
    Node *result;
} CaseWhen;

typedef struct CaseExpr {
    Node node;
    Node *arg;           /* CASE arg WHEN ... (simple form), else NULL */
    List *args;          /* CaseWhen */
    Node *defresult;     /* ELSE, or NULL */
} CaseExpr;

/* A type as written: names joined and canonicalised by the grammar to
 * PostgreSQL's internal names: "int4", "int8", "int2", "float4", "float8",
 * "numeric", "bool", "text", "varchar", "bpchar", "date", "timestamp",
 * "timestamptz", "time", "interval", or the user's identifier as written. */
typedef struct TypeName {
    Node node;
    const char *name;
    List *typmods;       /* A_Const integers: varchar(10) → [10]; numeric(10,2) → [10,2] */
    int array_bounds;    /* number of [] (arrays: later issue) */
} TypeName;

typedef struct TypeCast {
    Node node;
    Node *arg;
    TypeName *type_name;
} TypeCast;

/* name(args): funcname list of char * (schema-qualified names have 2). */
typedef struct FuncCall {
    Node node;
    List *funcname;
    List *args;
    bool agg_star;       /* count(*) */
    bool agg_distinct;   /* count(DISTINCT x) */
} FuncCall;

typedef struct A_Star {
    Node node;
} A_Star;

/* DEFAULT as an item of INSERT ... VALUES (...): "use the column's default".
 * The grammar accepts it in any VALUES list; the planner rejects it where
 * PostgreSQL does ("DEFAULT is not allowed in this context"). */
typedef struct SetToDefault {
    Node node;
} SetToDefault;

/* ---------- clauses ---------- */

/* SELECT list item (name = alias or NULL) or INSERT column (val NULL). */
typedef struct ResTarget {
    Node node;
    const char *name;
    Node *val;
} ResTarget;

typedef struct RangeVar {
    Node node;
    const char *schemaname;  /* NULL when unqualified */
    const char *relname;
    const char *alias;       /* NULL when none */
    List *colaliases;        /* t AS x(a, b): char * */
} RangeVar;

typedef enum JoinType { JOIN_INNER, JOIN_LEFT, JOIN_FULL, JOIN_RIGHT, JOIN_CROSS } JoinType;
typedef struct JoinExpr {
    Node node;
    JoinType jointype;
    bool is_natural;
    Node *larg;              /* RangeVar or JoinExpr */
    Node *rarg;
    List *using_clause;      /* char * */
    Node *quals;             /* ON condition */
} JoinExpr;

typedef enum SortByDir { SORTBY_DEFAULT, SORTBY_ASC, SORTBY_DESC } SortByDir;
typedef enum SortByNulls { SORTBY_NULLS_DEFAULT, SORTBY_NULLS_FIRST, SORTBY_NULLS_LAST } SortByNulls;
typedef struct SortBy {
    Node node;
    Node *node_expr;
    SortByDir sortby_dir;
    SortByNulls sortby_nulls;
} SortBy;

typedef enum ConstrType {
    CONSTR_NULL,
    CONSTR_NOTNULL,
    CONSTR_DEFAULT,
    CONSTR_PRIMARY,
    CONSTR_UNIQUE,
    CONSTR_CHECK,
} ConstrType;

typedef struct Constraint {
    Node node;
    ConstrType contype;
    const char *conname;     /* CONSTRAINT name, or NULL */
    Node *raw_expr;          /* DEFAULT / CHECK expression */
    const char *expr_text;   /* its source text (for the catalog) */
    List *keys;              /* table constraint columns: char * */
} Constraint;

typedef struct ColumnDef {
    Node node;
    const char *colname;
    TypeName *type_name;
    List *constraints;       /* Constraint (column constraints) */
} ColumnDef;

/* ---------- statements ---------- */

/* One statement of a (possibly multi-statement) query string. */
typedef struct RawStmt {
    Node node;
    Node *stmt;
    int stmt_location;       /* byte offset of its first character */
    int stmt_len;            /* bytes, 0 = rest of string */
} RawStmt;

typedef struct SelectStmt {
    Node node;
    bool distinct;
    List *target_list;       /* ResTarget */
    List *from_clause;       /* RangeVar / JoinExpr */
    Node *where_clause;
    List *group_clause;      /* expressions */
    Node *having_clause;
    List *sort_clause;       /* SortBy */
    Node *limit_count;       /* NULL, or expression (LIMIT ALL → NULL) */
    Node *limit_offset;
    List *values_lists;      /* VALUES (...), (...): List of List of expressions */
} SelectStmt;

typedef struct InsertStmt {
    Node node;
    RangeVar *relation;
    List *cols;              /* ResTarget with name, or NULL for all columns */
    SelectStmt *select_stmt; /* VALUES or SELECT; NULL for DEFAULT VALUES */
} InsertStmt;

typedef struct CreateStmt {
    Node node;
    RangeVar *relation;
    List *table_elts;        /* ColumnDef and Constraint (table constraints) */
    bool if_not_exists;
} CreateStmt;

typedef enum ObjectType { OBJECT_TABLE } ObjectType;
typedef struct DropStmt {
    Node node;
    ObjectType remove_type;
    List *objects;           /* RangeVar */
    bool missing_ok;
    bool cascade;
} DropStmt;

typedef enum TransactionStmtKind {
    TRANS_STMT_BEGIN,        /* BEGIN, BEGIN TRANSACTION/WORK, START TRANSACTION */
    TRANS_STMT_COMMIT,       /* COMMIT, END */
    TRANS_STMT_ROLLBACK,     /* ROLLBACK, ABORT */
} TransactionStmtKind;
typedef struct TransactionStmt {
    Node node;
    TransactionStmtKind kind;
    List *options;           /* char *: "isolation level read committed", "read only" ... */
} TransactionStmt;

typedef enum VariableSetKind {
    VAR_SET_VALUE,           /* SET name = value(s) / TO */
    VAR_SET_DEFAULT,         /* SET name TO DEFAULT */
    VAR_RESET,               /* RESET name */
    VAR_RESET_ALL,           /* RESET ALL */
} VariableSetKind;
typedef struct VariableSetStmt {
    Node node;
    VariableSetKind kind;
    const char *name;        /* lower-cased; "timezone" for SET TIME ZONE */
    List *args;              /* A_Const (strings, numbers, identifiers as strings) */
    bool is_local;
} VariableSetStmt;

typedef struct VariableShowStmt {
    Node node;
    const char *name;        /* "all" for SHOW ALL */
} VariableShowStmt;

typedef struct ExplainStmt {
    Node node;
    Node *query;
    bool analyze;
    bool verbose;
} ExplainStmt;

/* ALTER ROLE|USER name [WITH] PASSWORD 'x' | PASSWORD NULL (other options: later issue) */
typedef struct AlterRoleStmt {
    Node node;
    const char *role;
    const char *password;    /* NULL for PASSWORD NULL */
    bool has_password;
} AlterRoleStmt;

#endif
