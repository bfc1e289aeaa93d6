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
    /* second wave (issues 3, 4, 6): appended, values stay stable */
    T_String,
    T_DefElem,
    T_SubLink,
    T_A_ArrayExpr,
    T_A_Indices,
    T_A_Indirection,
    T_RowExpr,
    T_CollateClause,
    T_GroupingSet,
    T_WindowDef,
    T_MultiAssignRef,
    T_RangeSubselect,
    T_RangeFunction,
    T_WithClause,
    T_CommonTableExpr,
    T_IndexElem,
    T_InferClause,
    T_OnConflictClause,
    T_LockingClause,
    T_IntoClause,
    T_AlterTableCmd,
    T_VacuumRelation,
    T_UpdateStmt,
    T_DeleteStmt,
    T_TruncateStmt,
    T_CreateTableAsStmt,
    T_AlterTableStmt,
    T_RenameStmt,
    T_CopyStmt,
    T_CreatedbStmt,
    T_DropdbStmt,
    T_CreateSchemaStmt,
    T_CreateRoleStmt,
    T_DropRoleStmt,
    T_VacuumStmt,
    T_CheckPointStmt,
    T_IndexStmt,
    T_ViewStmt,
    T_PrepareStmt,
    T_ExecuteStmt,
    T_DeallocateStmt,
    T_CreateSeqStmt,
    T_AlterSeqStmt,
    T_DiscardStmt,
    T_ListenStmt,
    T_UnlistenStmt,
    T_NotifyStmt,
    T_DeclareCursorStmt,
    T_FetchStmt,
    T_ClosePortalStmt,
    T_CommentStmt,
    T_GrantStmt,
    T_LockStmt,
    T_A_ArrayOpExpr,
    T_SavepointStmt,
    T_CreateEnumStmt,
    T_NamedArgExpr,
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
    /* No kinds are added (switches elsewhere are exhaustive): x SIMILAR TO p
     * [ESCAPE e] is AEXPR_OP "~" (NOT SIMILAR: "!~") with rexpr the FuncCall
     * similar_to_escape(p [, e]) (sql_syntax set) — what PG's AEXPR_SIMILAR means;
     * x op ANY|SOME|ALL (array) is an A_ArrayOpExpr node. */
} A_ExprKind;

typedef struct A_Expr {
    Node node;
    A_ExprKind kind;
    const char *name;
    Node *lexpr;
    Node *rexpr;         /* a Node, or a List * (cast) for IN and BETWEEN */
    Node *escape;        /* LIKE ... ESCAPE x, else NULL */
    const char *opschema;/* OPERATOR(pg_catalog.~): "pg_catalog"; else NULL */
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
    int array_bounds;    /* number of [] (int[], int[3], int ARRAY → 1) */
    /* second wave */
    const char *schemaname; /* pg_catalog.int4 → "pg_catalog"; else NULL */
    int interval_fields; /* INTERVAL YEAR TO MONTH …: INTERVAL_MASK bits below,
                          * 0 = none given (INTERVAL_FULL_RANGE); precision
                          * (interval(3), SECOND(3)) is in typmods */
    bool pct_type;       /* t.col%TYPE (not produced yet) */
} TypeName;

/* PostgreSQL's datetime.h field bits, for TypeName.interval_fields */
#define INTERVAL_MASK_YEAR   (1 << 2)
#define INTERVAL_MASK_MONTH  (1 << 1)
#define INTERVAL_MASK_DAY    (1 << 3)
#define INTERVAL_MASK_HOUR   (1 << 10)
#define INTERVAL_MASK_MINUTE (1 << 11)
#define INTERVAL_MASK_SECOND (1 << 12)
#define INTERVAL_FULL_RANGE  0x7FFF

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
    /* second wave */
    List *agg_order;     /* string_agg(x, ',' ORDER BY y) and WITHIN GROUP: SortBy */
    Node *agg_filter;    /* FILTER (WHERE cond), else NULL */
    bool agg_within_group; /* agg_order came from WITHIN GROUP (ORDER BY …) */
    bool func_variadic;  /* f(VARIADIC arr) */
    struct WindowDef *over; /* OVER (…) / OVER w, else NULL */
    bool sql_syntax;     /* written in SQL-standard syntax (EXTRACT, TRIM,
                          * CURRENT_DATE …): PG's COERCE_SQL_SYNTAX, for column names */
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

/* A bare name inside an indirection list ((row).field, a.b[1].c) and the
 * object names of DROP SCHEMA / COMMENT ON …: PG's String value node. */
typedef struct String {
    Node node;
    const char *sval;
} String;

/* name [= value]: options of COPY, EXPLAIN, VACUUM, CREATE ROLE/DATABASE/
 * SEQUENCE, WITH (storage params), transaction modes. defname is lower-case
 * (PG's names: "format", "header", "canlogin", "transaction_isolation" …);
 * arg is NULL (bare option), an A_Const (words such as FORMAT csv, and
 * TRUE/FALSE/ON in generic option lists, become strings as PostgreSQL's
 * opt_boolean_or_string; legacy keywords such as CSV HEADER become A_Const
 * bools), a TypeName (CREATE SEQUENCE AS) or an A_Star (FORCE_QUOTE *).
 * List-valued options (FORCE_QUOTE (a, b), OWNED BY t.c, IN ROLE r, ...)
 * have arg NULL and the names (char *) in arg_list. */
typedef struct DefElem {
    Node node;
    const char *defnamespace; /* toast.autovacuum_enabled → "toast"; else NULL */
    const char *defname;
    Node *arg;
    List *arg_list;           /* char *, for list-valued options */
} DefElem;

/* Subqueries in expressions. testexpr/oper_name for ANY/ALL/ROWCOMPARE
 * (x IN (SELECT …) is ANY_SUBLINK with oper_name "="; NOT IN is NOT over it). */
typedef enum SubLinkType {
    EXISTS_SUBLINK,      /* EXISTS (SELECT …) */
    ALL_SUBLINK,         /* x op ALL (SELECT …) */
    ANY_SUBLINK,         /* x op ANY|SOME (SELECT …), x IN (SELECT …) */
    ROWCOMPARE_SUBLINK,  /* (a,b) op (SELECT …) (not produced by PG's grammar) */
    EXPR_SUBLINK,        /* (SELECT …) as a scalar */
    MULTIEXPR_SUBLINK,   /* UPDATE SET (a,b) = (SELECT …) */
    ARRAY_SUBLINK,       /* ARRAY(SELECT …) */
    CTE_SUBLINK,         /* unused by the raw parser */
} SubLinkType;
typedef struct SubLink {
    Node node;           /* location: the EXISTS/ARRAY keyword, the operator, or '(' */
    SubLinkType sub_link_type;
    Node *testexpr;      /* left operand for ANY/ALL, else NULL */
    const char *oper_name; /* "=", "<" … for ANY/ALL; NULL otherwise */
    const char *oper_schema; /* OPERATOR(schema.op), else NULL */
    Node *subselect;     /* SelectStmt */
} SubLink;

/* lexpr op ANY|SOME (rexpr) / lexpr op ALL (rexpr) with an array rexpr (PG's
 * AEXPR_OP_ANY / AEXPR_OP_ALL). With a subquery it is a SubLink instead. */
typedef struct A_ArrayOpExpr {
    Node node;           /* location: the operator */
    const char *name;    /* "=", "<>", "<", "~~" … */
    const char *opschema;/* OPERATOR(schema.op), else NULL */
    bool use_or;         /* ANY/SOME: true; ALL: false */
    Node *lexpr;
    Node *rexpr;
} A_ArrayOpExpr;

/* A named function argument, f(name => x) or f(name := x): an item of
 * FuncCall.args (PostgreSQL's NamedArgExpr; argnumber is resolved later). */
typedef struct NamedArgExpr {
    Node node;           /* location: the name */
    Node *arg;
    const char *name;
} NamedArgExpr;

/* ARRAY[e, …] (elements may be nested A_ArrayExpr for ARRAY[[1,2],[3,4]]) */
typedef struct A_ArrayExpr {
    Node node;
    List *elements;
} A_ArrayExpr;

/* [i] or [l:u]; a missing slice bound is NULL (a[:2], a[2:]) */
typedef struct A_Indices {
    Node node;
    bool is_slice;
    Node *lidx;
    Node *uidx;          /* the subscript when not a slice */
} A_Indices;

/* arg followed by subscripts and field selections: a[1], (f(x)).y, (r).*, a.b[1].
 * indirection: A_Indices, String (field name) or A_Star. A plain column
 * with subscripts (a[1], t.a[1:2]) is an A_Indirection over the ColumnRef. */
typedef struct A_Indirection {
    Node node;
    Node *arg;
    List *indirection;
} A_Indirection;

/* ROW(a, b), ROW(), or (a, b) with two or more items */
typedef struct RowExpr {
    Node node;
    List *args;
    bool explicit_row;   /* written with the ROW keyword */
} RowExpr;

/* expr COLLATE name (kept; the planner may ignore "C"/"default"/"POSIX") */
typedef struct CollateClause {
    Node node;           /* location: the COLLATE keyword */
    Node *arg;
    List *collname;      /* char *: pg_catalog.default → ["pg_catalog", "default"] */
} CollateClause;

/* GROUP BY items: GROUPING SETS (…), ROLLUP (…), CUBE (…), () */
typedef enum GroupingSetKind {
    GROUPING_SET_EMPTY,  /* () */
    GROUPING_SET_SIMPLE, /* a parenthesised list inside GROUPING SETS: (a, b) */
    GROUPING_SET_ROLLUP,
    GROUPING_SET_CUBE,
    GROUPING_SET_SETS,
} GroupingSetKind;
typedef struct GroupingSet {
    Node node;
    GroupingSetKind kind;
    List *content;       /* expressions, RowExpr-free: (a, b) inside ROLLUP is a
                          * GROUPING_SET_SIMPLE; nested GroupingSet in SETS */
} GroupingSet;

/* Window frame options: PostgreSQL's FRAMEOPTION_* bits (parsenodes.h) */
#define FRAMEOPTION_NONDEFAULT                0x00001
#define FRAMEOPTION_RANGE                     0x00002
#define FRAMEOPTION_ROWS                      0x00004
#define FRAMEOPTION_GROUPS                    0x00008
#define FRAMEOPTION_BETWEEN                   0x00010
#define FRAMEOPTION_START_UNBOUNDED_PRECEDING 0x00020
#define FRAMEOPTION_END_UNBOUNDED_PRECEDING   0x00040
#define FRAMEOPTION_START_UNBOUNDED_FOLLOWING 0x00080
#define FRAMEOPTION_END_UNBOUNDED_FOLLOWING   0x00100
#define FRAMEOPTION_START_CURRENT_ROW         0x00200
#define FRAMEOPTION_END_CURRENT_ROW           0x00400
#define FRAMEOPTION_START_OFFSET_PRECEDING    0x00800
#define FRAMEOPTION_END_OFFSET_PRECEDING      0x01000
#define FRAMEOPTION_START_OFFSET_FOLLOWING    0x02000
#define FRAMEOPTION_END_OFFSET_FOLLOWING      0x04000
#define FRAMEOPTION_EXCLUDE_CURRENT_ROW       0x08000
#define FRAMEOPTION_EXCLUDE_GROUP             0x10000
#define FRAMEOPTION_EXCLUDE_TIES              0x20000
#define FRAMEOPTION_DEFAULTS (FRAMEOPTION_RANGE | FRAMEOPTION_START_UNBOUNDED_PRECEDING | \
                              FRAMEOPTION_END_CURRENT_ROW)

/* OVER (…), OVER w, and WINDOW w AS (…) items (name set, FuncCall.over NULL) */
typedef struct WindowDef {
    Node node;
    const char *name;    /* WINDOW w AS (…): "w"; OVER w: "w" (as PostgreSQL);
                          * NULL for OVER (…) */
    const char *refname; /* OVER (w ORDER BY …): the window it copies, else NULL */
    List *partition_clause; /* expressions */
    List *order_clause;  /* SortBy */
    int frame_options;   /* FRAMEOPTION_* (FRAMEOPTION_DEFAULTS when no frame) */
    Node *start_offset;  /* n PRECEDING/FOLLOWING of the start bound, else NULL */
    Node *end_offset;
} WindowDef;

/* UPDATE … SET (a, b) = source: one ResTarget per column, each with a
 * MultiAssignRef val (colno 1-based of ncolumns). source is a RowExpr
 * ((x, y) or ROW(x, y)) or a MULTIEXPR SubLink. */
typedef struct MultiAssignRef {
    Node node;
    Node *source;
    int colno;
    int ncolumns;
} MultiAssignRef;

/* ---------- clauses ---------- */

/* SELECT list item (name = alias or NULL) or INSERT column (val NULL). */
typedef struct ResTarget {
    Node node;
    const char *name;
    Node *val;
    List *indirection;       /* UPDATE SET a[1] = …, INSERT (a[1]): A_Indices / String */
} ResTarget;

typedef struct RangeVar {
    Node node;
    const char *schemaname;  /* NULL when unqualified */
    const char *relname;
    const char *alias;       /* NULL when none */
    List *colaliases;        /* t AS x(a, b): char * */
    /* second wave */
    bool only;               /* ONLY t (no inheritance: same as t for us) */
    char relpersistence;     /* CREATE TEMP/UNLOGGED: 't' / 'u'; else 'p' (or 0 = 'p') */
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
    /* second wave: (a JOIN b) AS x [(cols)] */
    const char *alias;
    List *colaliases;        /* char * */
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
    /* second wave */
    CONSTR_IDENTITY,         /* GENERATED {ALWAYS|BY DEFAULT} AS IDENTITY [(seq options)] */
    CONSTR_GENERATED,        /* GENERATED ALWAYS AS (expr) STORED */
    CONSTR_FOREIGN,          /* REFERENCES t [(cols)] / FOREIGN KEY (cols) REFERENCES … */
} ConstrType;

typedef struct Constraint {
    Node node;
    ConstrType contype;
    const char *conname;     /* CONSTRAINT name, or NULL */
    Node *raw_expr;          /* DEFAULT / CHECK expression */
    const char *expr_text;   /* its source text (for the catalog) */
    List *keys;              /* table constraint columns: char * */
    /* second wave */
    char generated_when;     /* IDENTITY / GENERATED: 'a' ALWAYS, 'd' BY DEFAULT */
    List *options;           /* IDENTITY (sequence options): DefElem; PRIMARY KEY/UNIQUE
                              * WITH (…): DefElem */
    RangeVar *pktable;       /* FOREIGN: referenced table */
    List *fk_attrs;          /* FOREIGN: referencing columns (table constraint): char * */
    List *pk_attrs;          /* FOREIGN: referenced columns: char * (NULL = its key) */
    char fk_matchtype;       /* 'f' FULL, 'p' PARTIAL, 's' SIMPLE (default) */
    char fk_upd_action;      /* 'a' NO ACTION (default), 'r' RESTRICT, 'c' CASCADE, */
    char fk_del_action;      /* 'n' SET NULL, 'd' SET DEFAULT */
    bool deferrable;
    bool initdeferred;
} Constraint;

typedef struct ColumnDef {
    Node node;
    const char *colname;
    TypeName *type_name;
    List *constraints;       /* Constraint (column constraints) */
    /* second wave */
    struct CollateClause *coll_clause; /* COLLATE name (arg NULL), else NULL */
} ColumnDef;

/* A FROM item (SELECT …) [AS] a [(cols)], VALUES (…) AS a, LATERAL (SELECT …) */
typedef struct RangeSubselect {
    Node node;
    bool lateral;
    Node *subquery;          /* SelectStmt (VALUES: values_lists) */
    const char *alias;       /* NULL when none (allowed since PG 16; PG 15 requires it:
                              * the parser raises PG 15's error) */
    List *colaliases;        /* char * */
} RangeSubselect;

/* A FROM item f(args) [WITH ORDINALITY] [AS] a [(cols)], ROWS FROM (f(), g()) */
typedef struct RangeFunction {
    Node node;
    bool lateral;
    bool ordinality;         /* WITH ORDINALITY */
    bool is_rowsfrom;        /* ROWS FROM (…) */
    List *functions;         /* FuncCall (or any func_expr_windowless, e.g. CURRENT_DATE) */
    const char *alias;
    List *colaliases;        /* char * */
    List *coldeflist;        /* AS t(a int, b text): ColumnDef, else NULL */
} RangeFunction;

/* WITH [RECURSIVE] cte, … */
typedef struct WithClause {
    Node node;
    List *ctes;              /* CommonTableExpr */
    bool recursive;
} WithClause;

typedef enum CTEMaterialize {
    CTEMaterializeDefault,   /* no option */
    CTEMaterializeAlways,    /* MATERIALIZED */
    CTEMaterializeNever,     /* NOT MATERIALIZED */
} CTEMaterialize;
typedef struct CommonTableExpr {
    Node node;
    const char *ctename;
    List *aliascolnames;     /* char * */
    CTEMaterialize ctematerialized;
    Node *ctequery;          /* SelectStmt, or Insert/Update/DeleteStmt */
} CommonTableExpr;

/* CREATE INDEX / ON CONFLICT column: a name or a parenthesised expression */
typedef struct IndexElem {
    Node node;
    const char *name;        /* column, or NULL */
    Node *expr;              /* expression, or NULL */
    List *collation;         /* char * */
    List *opclass;           /* char * */
    SortByDir ordering;
    SortByNulls nulls_ordering;
} IndexElem;

/* ON CONFLICT (cols) [WHERE …] | ON CONFLICT ON CONSTRAINT name */
typedef struct InferClause {
    Node node;
    List *index_elems;       /* IndexElem */
    Node *where_clause;
    const char *conname;
} InferClause;

typedef enum OnConflictAction { ONCONFLICT_NONE, ONCONFLICT_NOTHING, ONCONFLICT_UPDATE } OnConflictAction;
typedef struct OnConflictClause {
    Node node;
    OnConflictAction action;
    InferClause *infer;      /* NULL when no target given */
    List *target_list;       /* DO UPDATE SET: ResTarget (as UpdateStmt) */
    Node *where_clause;      /* DO UPDATE … WHERE */
} OnConflictClause;

/* SELECT … FOR UPDATE|NO KEY UPDATE|SHARE|KEY SHARE [OF t] [NOWAIT|SKIP LOCKED] */
typedef enum LockClauseStrength {
    LCS_NONE, LCS_FORKEYSHARE, LCS_FORSHARE, LCS_FORNOKEYUPDATE, LCS_FORUPDATE,
} LockClauseStrength;
typedef enum LockWaitPolicy { LockWaitBlock, LockWaitSkip, LockWaitError } LockWaitPolicy;
typedef struct LockingClause {
    Node node;
    List *locked_rels;       /* RangeVar */
    LockClauseStrength strength;
    LockWaitPolicy wait_policy;
} LockingClause;

/* CREATE TABLE name [(cols)] [WITH (…)] AS …: the target of CreateTableAsStmt */
typedef struct IntoClause {
    Node node;
    RangeVar *rel;
    List *col_names;         /* char * */
    List *options;           /* DefElem: WITH (storage params) */
    bool skip_data;          /* WITH NO DATA */
    int oncommit;            /* ON COMMIT, as CreateStmt.oncommit (CREATE TABLE AS only) */
} IntoClause;

/* ---------- statements ---------- */

/* One statement of a (possibly multi-statement) query string. */
typedef struct RawStmt {
    Node node;
    Node *stmt;
    int stmt_location;       /* byte offset of its first character */
    int stmt_len;            /* bytes, 0 = rest of string */
} RawStmt;

/* PG's SetOperation, prefixed (planner/plan.h has SETOP_* of its own) */
typedef enum SelectSetOp {
    SELECT_SETOP_NONE = 0, SELECT_SETOP_UNION, SELECT_SETOP_INTERSECT, SELECT_SETOP_EXCEPT,
} SelectSetOp;

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
    /* second wave */
    List *distinct_clause;   /* DISTINCT ON (exprs): expressions (distinct is true too);
                              * NULL for plain DISTINCT */
    List *window_clause;     /* WINDOW w AS (…): WindowDef with name */
    struct WithClause *with_clause;
    List *locking_clause;    /* FOR UPDATE …: LockingClause */
    struct IntoClause *into_clause; /* SELECT … INTO t (parsed; PG makes it CREATE TABLE AS) */
    /* set operations: op != SELECT_SETOP_NONE, larg/rarg are SelectStmt, the
     * leaf fields above are unused except sort_clause, limit_*, with_clause
     * and locking_clause (which apply to the whole). */
    SelectSetOp op;
    bool all;                /* UNION ALL … */
    struct SelectStmt *larg;
    struct SelectStmt *rarg;
    bool group_distinct;     /* GROUP BY DISTINCT … */
} SelectStmt;

typedef struct InsertStmt {
    Node node;
    RangeVar *relation;
    List *cols;              /* ResTarget with name, or NULL for all columns */
    SelectStmt *select_stmt; /* VALUES or SELECT; NULL for DEFAULT VALUES */
    /* second wave */
    OnConflictClause *on_conflict; /* NULL when none */
    List *returning_list;    /* ResTarget */
    WithClause *with_clause;
    int override;            /* 0, or OVERRIDING_USER_VALUE / OVERRIDING_SYSTEM_VALUE */
} InsertStmt;
#define OVERRIDING_USER_VALUE 1
#define OVERRIDING_SYSTEM_VALUE 2

/* UPDATE [ONLY] t [[AS] a] SET … [FROM …] [WHERE …] [RETURNING …] */
typedef struct UpdateStmt {
    Node node;
    RangeVar *relation;      /* alias in relation->alias */
    List *target_list;       /* ResTarget: name = column, val = expression, SetToDefault
                              * or MultiAssignRef; indirection for a[1] = … */
    Node *where_clause;
    List *from_clause;
    List *returning_list;    /* ResTarget */
    WithClause *with_clause;
    bool current_of;         /* WHERE CURRENT OF cursor (where_clause NULL, cursor_name) */
    const char *cursor_name;
} UpdateStmt;

/* DELETE FROM [ONLY] t [[AS] a] [USING …] [WHERE …] [RETURNING …] */
typedef struct DeleteStmt {
    Node node;
    RangeVar *relation;
    List *using_clause;
    Node *where_clause;
    List *returning_list;
    WithClause *with_clause;
    bool current_of;
    const char *cursor_name;
} DeleteStmt;

/* TRUNCATE [TABLE] [ONLY] t, … [RESTART|CONTINUE IDENTITY] [CASCADE|RESTRICT] */
typedef struct TruncateStmt {
    Node node;
    List *relations;         /* RangeVar */
    bool restart_seqs;
    bool cascade;
} TruncateStmt;

typedef struct CreateStmt {
    Node node;
    RangeVar *relation;
    List *table_elts;        /* ColumnDef and Constraint (table constraints) */
    bool if_not_exists;
    /* second wave: the relation's relpersistence says TEMP/UNLOGGED */
    List *options;           /* WITH (fillfactor = 100, …): DefElem */
    int oncommit;            /* ON COMMIT: 0 none, 1 PRESERVE ROWS, 2 DELETE ROWS, 3 DROP */
} CreateStmt;

typedef enum ObjectType {
    OBJECT_TABLE,
    /* second wave */
    OBJECT_INDEX,
    OBJECT_VIEW,
    OBJECT_MATVIEW,
    OBJECT_SEQUENCE,
    OBJECT_SCHEMA,
    OBJECT_DATABASE,
    OBJECT_ROLE,
    OBJECT_COLUMN,
    OBJECT_TABCONSTRAINT,
    OBJECT_FUNCTION,
    OBJECT_TYPE,
    OBJECT_EXTENSION,
} ObjectType;
/* DROP TABLE|INDEX|VIEW|MATERIALIZED VIEW|SEQUENCE: objects are RangeVar;
 * DROP SCHEMA|TYPE|EXTENSION: objects are String (one name; TYPE may be
 * qualified: then RangeVar). DROP DATABASE is DropdbStmt, DROP ROLE DropRoleStmt. */
typedef struct DropStmt {
    Node node;
    ObjectType remove_type;
    List *objects;
    bool missing_ok;
    bool cascade;
    bool concurrent;         /* DROP INDEX CONCURRENTLY */
} DropStmt;

/* CREATE TABLE … AS query / CREATE MATERIALIZED VIEW … AS / SELECT … INTO */
typedef struct CreateTableAsStmt {
    Node node;
    Node *query;             /* SelectStmt (or ExecuteStmt for CREATE TABLE … AS EXECUTE) */
    IntoClause *into;
    ObjectType objtype;      /* OBJECT_TABLE or OBJECT_MATVIEW */
    bool if_not_exists;
} CreateTableAsStmt;

/* ALTER TABLE subcommands (PG's AlterTableType names; only those we parse) */
typedef enum AlterTableType {
    AT_AddColumn,            /* ADD [COLUMN] [IF NOT EXISTS] coldef: def ColumnDef */
    AT_DropColumn,           /* DROP [COLUMN] [IF EXISTS] name [CASCADE] */
    AT_AddConstraint,        /* ADD [CONSTRAINT name] PRIMARY KEY|UNIQUE|CHECK|FOREIGN KEY: def Constraint */
    AT_DropConstraint,       /* DROP CONSTRAINT [IF EXISTS] name */
    AT_ColumnDefault,        /* ALTER [COLUMN] c SET DEFAULT e (def) | DROP DEFAULT (def NULL) */
    AT_SetNotNull,           /* ALTER [COLUMN] c SET NOT NULL */
    AT_DropNotNull,          /* ALTER [COLUMN] c DROP NOT NULL */
    AT_AlterColumnType,      /* ALTER [COLUMN] c [SET DATA] TYPE t [USING e]: def ColumnDef
                              * (its type_name), USING in using_expr */
    AT_SetRelOptions,        /* SET (params): options (DefElem), def NULL */
    AT_ChangeOwner,          /* OWNER TO role: name */
    AT_AddIdentity,          /* ALTER c ADD GENERATED … AS IDENTITY: def Constraint */
} AlterTableType;
typedef struct AlterTableCmd {
    Node node;
    AlterTableType subtype;
    const char *name;        /* column or constraint name */
    Node *def;               /* ColumnDef / Constraint / expression (DEFAULT), or NULL */
    Node *using_expr;        /* AT_AlterColumnType USING expr */
    List *options;           /* AT_SetRelOptions: DefElem */
    bool cascade;
    bool missing_ok;         /* IF [NOT] EXISTS of the subcommand */
} AlterTableCmd;

/* ALTER TABLE|INDEX|VIEW|SEQUENCE [IF EXISTS] t cmd, … */
typedef struct AlterTableStmt {
    Node node;
    RangeVar *relation;
    List *cmds;              /* AlterTableCmd */
    ObjectType objtype;
    bool missing_ok;
} AlterTableStmt;

/* ALTER TABLE t RENAME TO n | RENAME [COLUMN] a TO b | RENAME CONSTRAINT a TO b;
 * ALTER INDEX|VIEW|SEQUENCE … RENAME TO; ALTER SCHEMA|DATABASE|ROLE x RENAME TO y */
typedef struct RenameStmt {
    Node node;
    ObjectType rename_type;  /* OBJECT_TABLE (the relation), OBJECT_COLUMN, OBJECT_TABCONSTRAINT … */
    ObjectType relation_type;/* for COLUMN/TABCONSTRAINT: the kind of relation */
    RangeVar *relation;      /* for relation kinds, else NULL */
    const char *subname;     /* old column/constraint/schema/db/role name */
    const char *newname;
    bool missing_ok;
} RenameStmt;

/* COPY t [(cols)] FROM STDIN|'file'|PROGRAM 'cmd' / TO STDOUT|'file'; COPY (query) TO …
 * Legacy options are normalised to the new-style DefElem as PostgreSQL does:
 * "format" (A_Const string "csv"/"binary"/"text"), "header" (NULL = true, A_Const
 * bool/integer, or string "match"), "delimiter", "null", "quote", "escape",
 * "encoding" (A_Const string), "freeze" (NULL or A_Const), "force_quote" /
 * "force_not_null" / "force_null" (arg_list of char *, or arg A_Star for *). */
typedef struct CopyStmt {
    Node node;
    RangeVar *relation;      /* NULL for COPY (query) */
    Node *query;             /* SelectStmt (or Insert/Update/Delete … RETURNING), else NULL */
    List *attlist;           /* char * */
    bool is_from;            /* FROM (load) vs TO */
    bool is_program;
    const char *filename;    /* NULL = STDIN/STDOUT */
    List *options;           /* DefElem */
    Node *where_clause;      /* COPY … FROM … WHERE */
} CopyStmt;

/* CREATE DATABASE x [WITH] [option [=] value …]: DefElem, defname lower-case
 * ("owner", "template", "encoding", "locale", "lc_collate", "connection_limit" …) */
typedef struct CreatedbStmt {
    Node node;
    const char *dbname;
    List *options;
} CreatedbStmt;

/* DROP DATABASE [IF EXISTS] x [[WITH] (FORCE)] */
typedef struct DropdbStmt {
    Node node;
    const char *dbname;
    bool missing_ok;
    List *options;           /* DefElem "force" */
} DropdbStmt;

/* CREATE SCHEMA [IF NOT EXISTS] x [AUTHORIZATION r] | CREATE SCHEMA AUTHORIZATION r */
typedef struct CreateSchemaStmt {
    Node node;
    const char *schemaname;  /* NULL when only AUTHORIZATION given (name = role) */
    const char *authrole;    /* NULL when none */
    bool if_not_exists;
    List *schema_elts;       /* CREATE TABLE … inside CREATE SCHEMA */
} CreateSchemaStmt;

/* CREATE ROLE|USER|GROUP x [WITH] options. Options as PostgreSQL's DefElem:
 * "canlogin", "superuser", "createdb", "createrole", "inherit", "isreplication",
 * "bypassrls" (A_Const bool); "password" (A_Const string or NULL for PASSWORD
 * NULL); "connectionlimit" (integer); "validUntil" (string);
 * "rolemembers" / "adminmembers" / "addroleto" (arg_list: char *). */
typedef enum RoleStmtType { ROLESTMT_ROLE, ROLESTMT_USER, ROLESTMT_GROUP } RoleStmtType;
typedef struct CreateRoleStmt {
    Node node;
    RoleStmtType stmt_type;
    const char *role;
    List *options;
} CreateRoleStmt;

typedef struct DropRoleStmt {
    Node node;
    List *roles;             /* char * */
    bool missing_ok;
} DropRoleStmt;

/* VACUUM [FULL] [FREEZE] [VERBOSE] [ANALYZE] [rels] / VACUUM (opts) [rels] /
 * ANALYZE [VERBOSE] [rels]. Legacy keywords become DefElem "full", "freeze",
 * "verbose", "analyze" (arg NULL) as PostgreSQL does. */
typedef struct VacuumRelation {
    Node node;
    RangeVar *relation;
    List *va_cols;           /* char * */
} VacuumRelation;
typedef struct VacuumStmt {
    Node node;
    List *options;           /* DefElem */
    List *rels;              /* VacuumRelation; NULL = all tables */
    bool is_vacuumcmd;       /* VACUUM (true) or ANALYZE (false) */
} VacuumStmt;

typedef struct CheckPointStmt {
    Node node;
} CheckPointStmt;

/* CREATE [UNIQUE] INDEX [CONCURRENTLY] [[IF NOT EXISTS] name] ON [ONLY] t
 * [USING method] (elems) [INCLUDE (cols)] [WITH (…)] [WHERE …] */
typedef struct IndexStmt {
    Node node;
    const char *idxname;     /* NULL when omitted */
    RangeVar *relation;
    const char *access_method; /* "btree" when omitted */
    List *index_params;      /* IndexElem */
    List *index_including_params; /* char * */
    List *options;           /* DefElem */
    Node *where_clause;
    bool unique;
    bool concurrent;
    bool if_not_exists;
} IndexStmt;

/* CREATE [OR REPLACE] [TEMP] VIEW v [(cols)] [WITH (…)] AS query [WITH CHECK OPTION] */
typedef struct ViewStmt {
    Node node;
    RangeVar *view;
    List *aliases;           /* char * */
    Node *query;             /* SelectStmt */
    bool replace;
    List *options;           /* DefElem */
    int with_check_option;   /* 0 none, 1 LOCAL, 2 CASCADED */
} ViewStmt;

/* PREPARE name [(types)] AS stmt */
typedef struct PrepareStmt {
    Node node;
    const char *name;
    List *argtypes;          /* TypeName */
    Node *query;             /* SELECT/INSERT/UPDATE/DELETE/VALUES */
} PrepareStmt;

/* EXECUTE name [(args)] */
typedef struct ExecuteStmt {
    Node node;
    const char *name;
    List *params;            /* expressions */
} ExecuteStmt;

/* DEALLOCATE [PREPARE] name | ALL */
typedef struct DeallocateStmt {
    Node node;
    const char *name;        /* NULL = ALL */
} DeallocateStmt;

/* CREATE [TEMP] SEQUENCE [IF NOT EXISTS] s options / ALTER SEQUENCE [IF EXISTS] s options.
 * DefElem (PG names): "as" (TypeName), "increment", "start", "restart" (arg NULL
 * = RESTART without value), "minvalue"/"maxvalue" (A_Const, or NULL for NO MINVALUE),
 * "cache", "cycle" (bool), "owned_by" (arg_list: ["none"] or [t, col]). */
typedef struct CreateSeqStmt {
    Node node;
    RangeVar *sequence;
    List *options;
    bool if_not_exists;
} CreateSeqStmt;
typedef struct AlterSeqStmt {
    Node node;
    RangeVar *sequence;
    List *options;
    bool missing_ok;
} AlterSeqStmt;

typedef enum DiscardMode { DISCARD_ALL, DISCARD_PLANS, DISCARD_SEQUENCES, DISCARD_TEMP } DiscardMode;
typedef struct DiscardStmt {
    Node node;
    DiscardMode target;
} DiscardStmt;

typedef struct ListenStmt {
    Node node;
    const char *conditionname;
} ListenStmt;
typedef struct UnlistenStmt {
    Node node;
    const char *conditionname; /* NULL = UNLISTEN * */
} UnlistenStmt;
typedef struct NotifyStmt {
    Node node;
    const char *conditionname;
    const char *payload;     /* NULL when none */
} NotifyStmt;

/* DECLARE c [BINARY] [[NO] SCROLL] CURSOR [WITH|WITHOUT HOLD] FOR query */
#define CURSOR_OPT_BINARY 0x0001
#define CURSOR_OPT_SCROLL 0x0002
#define CURSOR_OPT_NO_SCROLL 0x0004
#define CURSOR_OPT_INSENSITIVE 0x0008
#define CURSOR_OPT_ASENSITIVE 0x0010
#define CURSOR_OPT_HOLD 0x0020
typedef struct DeclareCursorStmt {
    Node node;
    const char *portalname;
    int options;             /* CURSOR_OPT_* */
    Node *query;             /* SelectStmt */
} DeclareCursorStmt;

/* FETCH|MOVE [direction] [FROM|IN] c */
typedef enum FetchDirection { FETCH_FORWARD, FETCH_BACKWARD, FETCH_ABSOLUTE, FETCH_RELATIVE } FetchDirection;
#define FETCH_ALL INT64_MAX
typedef struct FetchStmt {
    Node node;
    FetchDirection direction;
    int64_t how_many;        /* FETCH_ALL for ALL; NEXT = FORWARD 1, PRIOR = BACKWARD 1,
                              * FIRST = ABSOLUTE 1, LAST = ABSOLUTE -1 */
    const char *portalname;
    bool ismove;
} FetchStmt;

typedef struct ClosePortalStmt {
    Node node;
    const char *portalname;  /* NULL = CLOSE ALL */
} ClosePortalStmt;

/* COMMENT ON TABLE|COLUMN|INDEX|VIEW|SEQUENCE|SCHEMA|DATABASE|ROLE name IS 'text' | NULL */
typedef struct CommentStmt {
    Node node;
    ObjectType objtype;
    List *object;            /* char *: qualified name parts (COLUMN: [.. t, col]) */
    const char *comment;     /* NULL for IS NULL */
} CommentStmt;

/* GRANT/REVOKE privileges ON [TABLE] objects TO|FROM roles (parsed; no privilege model yet) */
typedef struct GrantStmt {
    Node node;
    bool is_grant;
    ObjectType objtype;      /* OBJECT_TABLE, OBJECT_SCHEMA, OBJECT_DATABASE, OBJECT_SEQUENCE … */
    List *objects;           /* char *: names as written (last part for qualified) */
    List *privileges;        /* char *: lower-case; NULL = ALL [PRIVILEGES] */
    List *grantees;          /* char *: role names, "public" */
    bool grant_option;
    bool cascade;
} GrantStmt;

/* CREATE TYPE name AS ENUM ('a', 'b', …) */
typedef struct CreateEnumStmt {
    Node node;
    List *type_name;         /* char *: qualified name parts */
    List *vals;              /* char *: the labels */
} CreateEnumStmt;

/* LOCK [TABLE] t, … [IN mode MODE] [NOWAIT] */
typedef struct LockStmt {
    Node node;
    List *relations;         /* RangeVar */
    int mode;                /* 1 ACCESS SHARE … 8 ACCESS EXCLUSIVE (PG's lockdefs.h) */
    bool nowait;
} LockStmt;

typedef enum TransactionStmtKind {
    TRANS_STMT_BEGIN,        /* BEGIN, BEGIN TRANSACTION/WORK, START TRANSACTION */
    TRANS_STMT_COMMIT,       /* COMMIT, END */
    TRANS_STMT_ROLLBACK,     /* ROLLBACK, ABORT */
    /* no kinds added (switches elsewhere are exhaustive): savepoints are SavepointStmt */
} TransactionStmtKind;
typedef struct TransactionStmt {
    Node node;
    TransactionStmtKind kind;
    List *options;           /* char *: "isolation level read committed", "read only" ... */
    /* second wave */
    List *modes;             /* BEGIN/START modes as PG's DefElem:
                              * "transaction_isolation" (A_Const string "read committed",
                              * "repeatable read", "serializable", "read uncommitted"),
                              * "transaction_read_only" (A_Const bool),
                              * "transaction_deferrable" (A_Const bool) */
    bool chain;              /* COMMIT|ROLLBACK AND CHAIN */
} TransactionStmt;

/* SAVEPOINT x / RELEASE [SAVEPOINT] x / ROLLBACK [WORK|TRANSACTION] TO [SAVEPOINT] x
 * (PG's TransactionStmt kinds TRANS_STMT_SAVEPOINT/RELEASE/ROLLBACK_TO, kept as a
 * node of their own so that existing exhaustive switches stay valid). */
typedef enum SavepointStmtKind { SAVEPOINT_DEFINE, SAVEPOINT_RELEASE, SAVEPOINT_ROLLBACK_TO } SavepointStmtKind;
typedef struct SavepointStmt {
    Node node;
    SavepointStmtKind kind;
    const char *savepoint_name;
} SavepointStmt;

typedef enum VariableSetKind {
    VAR_SET_VALUE,           /* SET name = value(s) / TO */
    VAR_SET_DEFAULT,         /* SET name TO DEFAULT */
    VAR_RESET,               /* RESET name */
    VAR_RESET_ALL,           /* RESET ALL */
    /* second wave */
    VAR_SET_MULTI,           /* SET TRANSACTION / SESSION CHARACTERISTICS with several
                              * modes: name "transaction" or "session characteristics",
                              * args NULL, the modes in `modes` */
} VariableSetKind;
typedef struct VariableSetStmt {
    Node node;
    VariableSetKind kind;
    const char *name;        /* lower-cased; "timezone" for SET TIME ZONE */
    List *args;              /* A_Const (strings, numbers, identifiers as strings) */
    bool is_local;
    /* second wave: SET TRANSACTION / SET SESSION CHARACTERISTICS AS TRANSACTION
     * always also fill `modes` (DefElem, as TransactionStmt.modes); with one mode
     * name/args keep the GUC form (transaction_isolation / default_…). */
    List *modes;
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
    /* second wave: every option as DefElem (analyze/verbose mirrored in the bools):
     * "analyze", "verbose", "costs", "settings", "buffers", "wal", "timing",
     * "summary" (arg NULL or A_Const bool/string), "format" (A_Const string) */
    List *options;
} ExplainStmt;

/* ALTER ROLE|USER name [WITH] PASSWORD 'x' | PASSWORD NULL (other options: later issue) */
typedef struct AlterRoleStmt {
    Node node;
    const char *role;
    const char *password;    /* NULL for PASSWORD NULL */
    bool has_password;
    /* second wave: all options as CreateRoleStmt's DefElem (password included;
     * password/has_password still mirror it) */
    List *options;
} AlterRoleStmt;

#endif
