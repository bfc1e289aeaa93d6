/*
 * grammar.y — the SQL grammar, for Debian's `lemon` (generated at build
 * time into grammar.c/grammar.h; never commit those).
 *
 * Shaped after PostgreSQL's gram.y (same nonterminal names where they
 * exist: a_expr, b_expr, c_expr, simple_select, select_with_parens...) and
 * written in SQLite's style: every action is one call into a builder of
 * build.c, so the node-making code compiles with all warnings.
 *
 * Memory: every value lives in the parse arena, so no %destructor is
 * needed; errors longjmp out of the parser (the parser object is in the
 * arena too). Unreserved keywords fall back to ID (%fallback) wherever the
 * grammar cannot shift them. Precedence is PostgreSQL's (see README.md).
 */

%include {
#define PARSER_INTERNAL
#include <assert.h>
#include "parser/build.h"
#define YYSTACKDEPTH PARSE_STACK_DEPTH
#define YYNOERRORRECOVERY 1
#define YYPARSEFREENEVERNULL 1
}

%name parse__lemon
%token_prefix TK_
%token_type {ParseToken}
%default_type {Node *}
%extra_context {ParseCtx *pctx}

%syntax_error { parse__syntax_error(pctx, &yyminor); }
%stack_overflow { parse__stack_overflow(pctx); }

/* Lexical token classes (keywords are declared by their use below). */
%token ID SCONST ICONST FCONST PARAM OP TYPECAST COLON_EQUALS EQUALS_GREATER DOT_DOT
       LBRACKET RBRACKET COMMA SEMI COLON OTHER MODE_EXPR.
/* Reserved and type/function-name keywords the grammar does not use yet. */
%token ANY ARRAY BOTH COLLATION COLUMN CONCURRENTLY CURRENT_CATALOG CURRENT_ROLE
       CURRENT_SCHEMA DO EXCEPT FETCH FOR FOREIGN FREEZE GRANT INITIALLY INTERSECT
       LATERAL LEADING ONLY OVERLAPS PLACING REFERENCES RETURNING SESSION_USER SOME
       TABLESAMPLE TRAILING UNION VARIADIC WINDOW AUTHORIZATION BINARY COLLATE.

/* Unreserved and column-name keywords are identifiers where not shiftable. */
%fallback ID ABORT ALTER BEGIN BY CASCADE COMMIT COMMITTED DOUBLE DROP ENCRYPTED ESCAPE
             EXPLAIN FIRST IF INSERT ISOLATION KEY LAST LEVEL LOCAL NULLS PASSWORD READ
             REPEATABLE RESET RESTRICT ROLE ROLLBACK SERIALIZABLE SESSION SET SHOW START
             TRANSACTION UNCOMMITTED UNKNOWN VARYING WITHOUT WORK WRITE ZONE CHARACTERISTICS NAMES
             BETWEEN BIGINT BOOLEAN CHAR CHARACTER DEC DECIMAL EXISTS FLOAT INT INTEGER
             INTERVAL NUMERIC PRECISION REAL SMALLINT TIME TIMESTAMP VALUES VARCHAR
             EXTRACT POSITION SUBSTRING TRIM.

/* Precedence, lowest first, as PostgreSQL's gram.y. */
%left UNION EXCEPT.
%left INTERSECT.
%left OR.
%left AND.
%right NOT.
%nonassoc IS ISNULL NOTNULL.
%nonassoc LT GT EQ LE GE NE.
%nonassoc BETWEEN IN LIKE ILIKE SIMILAR NOT_LA.
%nonassoc ESCAPE.
%left OP.
%left PLUS MINUS.
%left STAR SLASH PERCENT.
%left CARET.
%right UMINUS.
%left LBRACKET RBRACKET.
%left LP RP.
%left TYPECAST.
%left DOT.
%left JOIN CROSS LEFT FULL RIGHT INNER NATURAL.

/* ---------------- statements ---------------- */

input ::= stmtmulti(L).                 { pctx->stmts = L; }
input ::= MODE_EXPR a_expr(E).          { pctx->expr = E; }

%type stmtmulti {List *}
stmtmulti(A) ::= stmtmulti(L) SEMI(S) toplevel_stmt(X). { A = parse__stmt_append(pctx, L, S.offset, X); }
stmtmulti(A) ::= toplevel_stmt(X).      { A = parse__stmt_append(pctx, NULL, -1, X); }

toplevel_stmt(A) ::= stmt(X).           { A = X; }
toplevel_stmt(A) ::= .                  { A = NULL; }

stmt(A) ::= select_stmt(X).             { A = X; }
stmt(A) ::= insert_stmt(X).             { A = X; }
stmt(A) ::= create_stmt(X).             { A = X; }
stmt(A) ::= drop_stmt(X).               { A = X; }
stmt(A) ::= transaction_stmt(X).        { A = X; }
stmt(A) ::= variable_set_stmt(X).       { A = X; }
stmt(A) ::= variable_show_stmt(X).      { A = X; }
stmt(A) ::= explain_stmt(X).            { A = X; }
stmt(A) ::= alter_role_stmt(X).         { A = X; }

/* ---------------- SELECT ---------------- */

select_stmt(A) ::= select_no_parens(X).   { A = X; }
select_stmt(A) ::= select_with_parens(X). { A = X; }

select_with_parens(A) ::= LP select_no_parens(X) RP.   { A = X; }
select_with_parens(A) ::= LP select_with_parens(X) RP. { A = X; }

select_no_parens(A) ::= simple_select(X).                   { A = X; }
select_no_parens(A) ::= select_clause(X) sort_clause(S).    { A = parse__select_tail(pctx, X, S, NULL); }
select_no_parens(A) ::= select_clause(X) opt_sort_clause(S) select_limit(L). { A = parse__select_tail(pctx, X, S, &L); }

select_clause(A) ::= simple_select(X).      { A = X; }
select_clause(A) ::= select_with_parens(X). { A = X; }

simple_select(A) ::= SELECT(K) opt_all opt_target_list(T) from_clause(F) where_clause(W) group_clause(G) having_clause(H). { A = parse__select(pctx, K.offset, false, T, F, W, G, H); }
simple_select(A) ::= SELECT(K) DISTINCT target_list(T) from_clause(F) where_clause(W) group_clause(G) having_clause(H). { A = parse__select(pctx, K.offset, true, T, F, W, G, H); }
simple_select(A) ::= values_clause(X).      { A = X; }

values_clause(A) ::= VALUES(K) LP values_row(R) RP.          { A = parse__values(pctx, NULL, R, K.offset); }
values_clause(A) ::= values_clause(V) COMMA LP values_row(R) RP. { A = parse__values(pctx, V, R, -1); }

%type values_row {List *}
values_row(A) ::= values_item(X).                      { A = parse__list1(pctx, X); }
values_row(A) ::= values_row(L) COMMA values_item(X).  { A = parse__list_append(pctx, L, X); }
values_item(A) ::= a_expr(X).                          { A = X; }
values_item(A) ::= DEFAULT(K).                         { A = parse__set_to_default(pctx, K.offset); }

opt_all ::= ALL.
opt_all ::= .

%type opt_target_list {List *}
opt_target_list(A) ::= target_list(L). { A = L; }
opt_target_list(A) ::= .               { A = NULL; }

%type target_list {List *}
target_list(A) ::= target_el(X).                       { A = parse__list1(pctx, X); }
target_list(A) ::= target_list(L) COMMA target_el(X).  { A = parse__list_append(pctx, L, X); }

target_el(A) ::= a_expr(E) AS collabel(N).  { A = parse__target(pctx, E, N.str); }
target_el(A) ::= a_expr(E) ID(N).           { A = parse__target(pctx, E, N.str); }
target_el(A) ::= a_expr(E) bare_label(N).   { A = parse__target(pctx, E, N.str); }
target_el(A) ::= a_expr(E).                 { A = parse__target(pctx, E, NULL); }
target_el(A) ::= STAR(S).                   { A = parse__target(pctx, parse__star(pctx, S.offset), NULL); }

%type from_clause {List *}
from_clause(A) ::= FROM from_list(L).   { A = L; }
from_clause(A) ::= .                    { A = NULL; }

%type from_list {List *}
from_list(A) ::= table_ref(X).                     { A = parse__list1(pctx, X); }
from_list(A) ::= from_list(L) COMMA table_ref(X).  { A = parse__list_append(pctx, L, X); }

table_ref(A) ::= relation_expr(R) opt_alias_clause(L). { A = parse__range_alias(pctx, R, &L); }
table_ref(A) ::= joined_table(J).                      { A = J; }

joined_table(A) ::= LP joined_table(J) RP.                        { A = J; }
joined_table(A) ::= table_ref(L) CROSS(K) JOIN table_ref(R).      { A = parse__join(pctx, JOIN_CROSS, false, L, R, NULL, K.offset); }
joined_table(A) ::= table_ref(L) join_type(T) JOIN(K) table_ref(R) join_qual(Q). { A = parse__join(pctx, T, false, L, R, &Q, K.offset); }
joined_table(A) ::= table_ref(L) JOIN(K) table_ref(R) join_qual(Q). { A = parse__join(pctx, JOIN_INNER, false, L, R, &Q, K.offset); }
joined_table(A) ::= table_ref(L) NATURAL(K) join_type(T) JOIN table_ref(R). { A = parse__join(pctx, T, true, L, R, NULL, K.offset); }
joined_table(A) ::= table_ref(L) NATURAL(K) JOIN table_ref(R).    { A = parse__join(pctx, JOIN_INNER, true, L, R, NULL, K.offset); }

%type join_type {JoinType}
join_type(A) ::= FULL opt_outer.    { A = JOIN_FULL; }
join_type(A) ::= LEFT opt_outer.    { A = JOIN_LEFT; }
join_type(A) ::= RIGHT opt_outer.   { A = JOIN_RIGHT; }
join_type(A) ::= INNER.             { A = JOIN_INNER; }
opt_outer ::= OUTER.
opt_outer ::= .

%type join_qual {ParseJoinQual}
join_qual(A) ::= USING LP name_list(L) RP.  { A.using_cols = L; A.on = NULL; }
join_qual(A) ::= ON a_expr(E).              { A.using_cols = NULL; A.on = E; }

relation_expr(A) ::= qualified_name(X).     { A = X; }

qualified_name(A) ::= colid(N).                 { A = parse__range_var(pctx, &N, NULL); }
qualified_name(A) ::= colid(S) DOT colid(N).    { A = parse__range_var(pctx, &S, &N); }

%type opt_alias_clause {ParseAlias}
opt_alias_clause(A) ::= AS colid(N) opt_col_aliases(C). { A.name = N.str; A.colnames = C; }
opt_alias_clause(A) ::= colid(N) opt_col_aliases(C).    { A.name = N.str; A.colnames = C; }
opt_alias_clause(A) ::= .                               { A.name = NULL; A.colnames = NULL; }

%type opt_col_aliases {List *}
opt_col_aliases(A) ::= LP name_list(L) RP.  { A = L; }
opt_col_aliases(A) ::= .                    { A = NULL; }

%type name_list {List *}
name_list(A) ::= colid(N).                      { A = parse__list1(pctx, (void *)N.str); }
name_list(A) ::= name_list(L) COMMA colid(N).   { A = parse__list_append(pctx, L, (void *)N.str); }

where_clause(A) ::= WHERE a_expr(E).    { A = E; }
where_clause(A) ::= .                   { A = NULL; }

%type group_clause {List *}
group_clause(A) ::= GROUP BY expr_list(L).  { A = L; }
group_clause(A) ::= .                       { A = NULL; }

having_clause(A) ::= HAVING a_expr(E).  { A = E; }
having_clause(A) ::= .                  { A = NULL; }

%type opt_sort_clause {List *}
opt_sort_clause(A) ::= sort_clause(L).  { A = L; }
opt_sort_clause(A) ::= .                { A = NULL; }

%type sort_clause {List *}
sort_clause(A) ::= ORDER BY sortby_list(L). { A = L; }

%type sortby_list {List *}
sortby_list(A) ::= sortby(X).                       { A = parse__list1(pctx, X); }
sortby_list(A) ::= sortby_list(L) COMMA sortby(X).  { A = parse__list_append(pctx, L, X); }

sortby(A) ::= a_expr(E) opt_asc_desc(D) opt_nulls_order(N). { A = parse__sortby(pctx, E, D, N); }

%type opt_asc_desc {SortByDir}
opt_asc_desc(A) ::= ASC.    { A = SORTBY_ASC; }
opt_asc_desc(A) ::= DESC.   { A = SORTBY_DESC; }
opt_asc_desc(A) ::= .       { A = SORTBY_DEFAULT; }

%type opt_nulls_order {SortByNulls}
opt_nulls_order(A) ::= NULLS FIRST.   { A = SORTBY_NULLS_FIRST; }
opt_nulls_order(A) ::= NULLS LAST.    { A = SORTBY_NULLS_LAST; }
opt_nulls_order(A) ::= .              { A = SORTBY_NULLS_DEFAULT; }

%type select_limit {ParseLimit}
select_limit(A) ::= limit_clause(L) offset_clause(O). { A = parse__limit(L, true, O, true); }
select_limit(A) ::= offset_clause(O) limit_clause(L). { A = parse__limit(L, true, O, true); }
select_limit(A) ::= limit_clause(L).                  { A = parse__limit(L, true, NULL, false); }
select_limit(A) ::= offset_clause(O).                 { A = parse__limit(NULL, false, O, true); }

limit_clause(A) ::= LIMIT a_expr(E).    { A = E; }
limit_clause(A) ::= LIMIT ALL.          { A = NULL; }
offset_clause(A) ::= OFFSET a_expr(E).  { A = E; }

/* ---------------- INSERT ---------------- */

insert_stmt(A) ::= INSERT(K) INTO qualified_name(R) insert_rest(X). { A = parse__insert(pctx, R, &X, K.offset); }

%type insert_rest {ParseInsertRest}
insert_rest(A) ::= select_stmt(S).                          { A.cols = NULL; A.select = S; }
insert_rest(A) ::= LP insert_column_list(C) RP select_stmt(S). { A.cols = C; A.select = S; }
insert_rest(A) ::= DEFAULT VALUES.                          { A.cols = NULL; A.select = NULL; }

%type insert_column_list {List *}
insert_column_list(A) ::= colid(N). { A = parse__list1(pctx, parse__insert_col(pctx, &N)); }
insert_column_list(A) ::= insert_column_list(L) COMMA colid(N). { A = parse__list_append(pctx, L, parse__insert_col(pctx, &N)); }

/* ---------------- CREATE TABLE / DROP TABLE ---------------- */

create_stmt(A) ::= CREATE(K) TABLE qualified_name(R) LP opt_table_elts(E) RP. { A = parse__create(pctx, R, E, false, K.offset); }
create_stmt(A) ::= CREATE(K) TABLE IF NOT EXISTS qualified_name(R) LP opt_table_elts(E) RP. { A = parse__create(pctx, R, E, true, K.offset); }

%type opt_table_elts {List *}
opt_table_elts(A) ::= table_elts(L).    { A = L; }
opt_table_elts(A) ::= .                 { A = NULL; }

%type table_elts {List *}
table_elts(A) ::= table_elt(X).                     { A = parse__list1(pctx, X); }
table_elts(A) ::= table_elts(L) COMMA table_elt(X). { A = parse__list_append(pctx, L, X); }

table_elt(A) ::= colid(N) typename(T) col_qual_list(Q). { A = parse__column_def(pctx, &N, T, Q); }
table_elt(A) ::= table_constraint(X).                   { A = X; }

%type col_qual_list {List *}
col_qual_list(A) ::= col_qual_list(L) col_constraint(X). { A = parse__list_append(pctx, L, X); }
col_qual_list(A) ::= .                                   { A = NULL; }

col_constraint(A) ::= CONSTRAINT(K) colid(N) col_constraint_elem(C). { A = parse__constraint_name(pctx, C, &N, K.offset); }
col_constraint(A) ::= col_constraint_elem(C).       { A = C; }

col_constraint_elem(A) ::= NOT(K) NULL.             { A = parse__constraint(pctx, CONSTR_NOTNULL, NULL, NULL, K.offset); }
col_constraint_elem(A) ::= NULL(K).                 { A = parse__constraint(pctx, CONSTR_NULL, NULL, NULL, K.offset); }
col_constraint_elem(A) ::= UNIQUE(K).               { A = parse__constraint(pctx, CONSTR_UNIQUE, NULL, NULL, K.offset); }
col_constraint_elem(A) ::= PRIMARY(K) KEY.          { A = parse__constraint(pctx, CONSTR_PRIMARY, NULL, NULL, K.offset); }
col_constraint_elem(A) ::= CHECK(K) LP(P) a_expr(E) RP(Q). { A = parse__constraint_check(pctx, E, P.offset, Q.offset, K.offset); }
col_constraint_elem(A) ::= DEFAULT(K) b_expr(E).    { A = parse__constraint_default(pctx, E, K.offset + K.len); }

table_constraint(A) ::= CONSTRAINT(K) colid(N) constraint_elem(C). { A = parse__constraint_name(pctx, C, &N, K.offset); }
table_constraint(A) ::= constraint_elem(C).         { A = C; }

constraint_elem(A) ::= CHECK(K) LP(P) a_expr(E) RP(Q).      { A = parse__constraint_check(pctx, E, P.offset, Q.offset, K.offset); }
constraint_elem(A) ::= UNIQUE(K) LP name_list(L) RP.        { A = parse__constraint(pctx, CONSTR_UNIQUE, NULL, L, K.offset); }
constraint_elem(A) ::= PRIMARY(K) KEY LP name_list(L) RP.   { A = parse__constraint(pctx, CONSTR_PRIMARY, NULL, L, K.offset); }

drop_stmt(A) ::= DROP(K) TABLE IF EXISTS qualified_name_list(L) opt_drop_behavior(B). { A = parse__drop(pctx, L, true, B, K.offset); }
drop_stmt(A) ::= DROP(K) TABLE qualified_name_list(L) opt_drop_behavior(B).           { A = parse__drop(pctx, L, false, B, K.offset); }

%type qualified_name_list {List *}
qualified_name_list(A) ::= qualified_name(X).                             { A = parse__list1(pctx, X); }
qualified_name_list(A) ::= qualified_name_list(L) COMMA qualified_name(X). { A = parse__list_append(pctx, L, X); }

%type opt_drop_behavior {bool}
opt_drop_behavior(A) ::= CASCADE.   { A = true; }
opt_drop_behavior(A) ::= RESTRICT.  { A = false; }
opt_drop_behavior(A) ::= .          { A = false; }

/* ---------------- transactions ---------------- */

transaction_stmt(A) ::= BEGIN(K) opt_transaction opt_transaction_modes(M). { A = parse__transaction(pctx, TRANS_STMT_BEGIN, M, K.offset); }
transaction_stmt(A) ::= START(K) TRANSACTION opt_transaction_modes(M).     { A = parse__transaction(pctx, TRANS_STMT_BEGIN, M, K.offset); }
transaction_stmt(A) ::= COMMIT(K) opt_transaction.   { A = parse__transaction(pctx, TRANS_STMT_COMMIT, NULL, K.offset); }
transaction_stmt(A) ::= END(K) opt_transaction.      { A = parse__transaction(pctx, TRANS_STMT_COMMIT, NULL, K.offset); }
transaction_stmt(A) ::= ROLLBACK(K) opt_transaction. { A = parse__transaction(pctx, TRANS_STMT_ROLLBACK, NULL, K.offset); }
transaction_stmt(A) ::= ABORT(K) opt_transaction.    { A = parse__transaction(pctx, TRANS_STMT_ROLLBACK, NULL, K.offset); }

opt_transaction ::= WORK.
opt_transaction ::= TRANSACTION.
opt_transaction ::= .

%type opt_transaction_modes {List *}
opt_transaction_modes(A) ::= transaction_modes(L).  { A = L; }
opt_transaction_modes(A) ::= .                      { A = NULL; }

%type transaction_modes {List *}
transaction_modes(A) ::= transaction_mode(X).                          { A = parse__list1(pctx, (void *)X); }
transaction_modes(A) ::= transaction_modes(L) COMMA transaction_mode(X). { A = parse__list_append(pctx, L, (void *)X); }
transaction_modes(A) ::= transaction_modes(L) transaction_mode(X).     { A = parse__list_append(pctx, L, (void *)X); }

%type transaction_mode {const char *}
transaction_mode(A) ::= ISOLATION LEVEL READ UNCOMMITTED.   { A = "isolation level read uncommitted"; }
transaction_mode(A) ::= ISOLATION LEVEL READ COMMITTED.     { A = "isolation level read committed"; }
transaction_mode(A) ::= ISOLATION LEVEL REPEATABLE READ.    { A = "isolation level repeatable read"; }
transaction_mode(A) ::= ISOLATION LEVEL SERIALIZABLE.       { A = "isolation level serializable"; }
transaction_mode(A) ::= READ ONLY.          { A = "read only"; }
transaction_mode(A) ::= READ WRITE.         { A = "read write"; }
transaction_mode(A) ::= DEFERRABLE.         { A = "deferrable"; }
transaction_mode(A) ::= NOT DEFERRABLE.     { A = "not deferrable"; }

/* ---------------- SET / RESET / SHOW ---------------- */

variable_set_stmt(A) ::= SET set_rest(X).           { A = X; }
variable_set_stmt(A) ::= SET LOCAL set_rest(X).     { A = parse__set_local(X, true); }
variable_set_stmt(A) ::= SET SESSION set_rest(X).   { A = X; }
variable_set_stmt(A) ::= RESET(K) var_name(N).      { A = parse__set(pctx, VAR_RESET, N, NULL, K.offset); }
variable_set_stmt(A) ::= RESET(K) TIME ZONE.        { A = parse__set(pctx, VAR_RESET, "timezone", NULL, K.offset); }
variable_set_stmt(A) ::= RESET(K) ALL.              { A = parse__set(pctx, VAR_RESET_ALL, NULL, NULL, K.offset); }

set_rest(A) ::= var_name(N) TO(K) var_list(L).      { A = parse__set(pctx, VAR_SET_VALUE, N, L, K.offset); }
set_rest(A) ::= var_name(N) EQ(K) var_list(L).      { A = parse__set(pctx, VAR_SET_VALUE, N, L, K.offset); }
set_rest(A) ::= var_name(N) TO(K) DEFAULT.          { A = parse__set(pctx, VAR_SET_DEFAULT, N, NULL, K.offset); }
set_rest(A) ::= var_name(N) EQ(K) DEFAULT.          { A = parse__set(pctx, VAR_SET_DEFAULT, N, NULL, K.offset); }
set_rest(A) ::= TIME(K) ZONE zone_value(V).         { A = parse__set(pctx, VAR_SET_VALUE, "timezone", parse__list1(pctx, V), K.offset); }
set_rest(A) ::= TIME(K) ZONE DEFAULT.               { A = parse__set(pctx, VAR_SET_DEFAULT, "timezone", NULL, K.offset); }
set_rest(A) ::= TIME(K) ZONE LOCAL.                 { A = parse__set(pctx, VAR_SET_DEFAULT, "timezone", NULL, K.offset); }
set_rest(A) ::= TRANSACTION(K) transaction_mode(M). { A = parse__set_transaction(pctx, "transaction_", M, K.offset); }
set_rest(A) ::= SESSION(K) CHARACTERISTICS AS TRANSACTION transaction_mode(M). { A = parse__set_transaction(pctx, "default_transaction_", M, K.offset); }
set_rest(A) ::= NAMES(K) SCONST(V).                 { A = parse__set(pctx, VAR_SET_VALUE, "client_encoding", parse__list1(pctx, parse__const_string(pctx, &V)), K.offset); }
set_rest(A) ::= NAMES(K) DEFAULT.                   { A = parse__set(pctx, VAR_SET_DEFAULT, "client_encoding", NULL, K.offset); }

%type var_name {const char *}
var_name(A) ::= colid(N).                   { A = N.str; }
var_name(A) ::= var_name(L) DOT colid(N).   { A = parse__name_join(pctx, L, N.str); }

%type var_list {List *}
var_list(A) ::= var_value(X).                   { A = parse__list1(pctx, X); }
var_list(A) ::= var_list(L) COMMA var_value(X). { A = parse__list_append(pctx, L, X); }

var_value(A) ::= TRUE(K).         { A = parse__var_word(pctx, "true", K.offset); }
var_value(A) ::= FALSE(K).        { A = parse__var_word(pctx, "false", K.offset); }
var_value(A) ::= ON(K).           { A = parse__var_word(pctx, "on", K.offset); }
var_value(A) ::= ID(K).           { A = parse__var_word(pctx, K.str, K.offset); }
var_value(A) ::= SCONST(K).       { A = parse__const_string(pctx, &K); }
var_value(A) ::= numeric_only(X). { A = X; }

zone_value(A) ::= SCONST(K).        { A = parse__const_string(pctx, &K); }
zone_value(A) ::= ID(K).            { A = parse__var_word(pctx, K.str, K.offset); }
zone_value(A) ::= numeric_only(X).  { A = X; }

numeric_only(A) ::= ICONST(K).          { A = parse__var_value(pctx, &K, false); }
numeric_only(A) ::= FCONST(K).          { A = parse__var_value(pctx, &K, false); }
numeric_only(A) ::= PLUS ICONST(K).     { A = parse__var_value(pctx, &K, false); }
numeric_only(A) ::= PLUS FCONST(K).     { A = parse__var_value(pctx, &K, false); }
numeric_only(A) ::= MINUS ICONST(K).    { A = parse__var_value(pctx, &K, true); }
numeric_only(A) ::= MINUS FCONST(K).    { A = parse__var_value(pctx, &K, true); }

variable_show_stmt(A) ::= SHOW(K) var_name(N).      { A = parse__show(pctx, N, K.offset); }
variable_show_stmt(A) ::= SHOW(K) TIME ZONE.        { A = parse__show(pctx, "timezone", K.offset); }
variable_show_stmt(A) ::= SHOW(K) TRANSACTION ISOLATION LEVEL. { A = parse__show(pctx, "transaction_isolation", K.offset); }
variable_show_stmt(A) ::= SHOW(K) SESSION AUTHORIZATION. { A = parse__show(pctx, "session_authorization", K.offset); }
variable_show_stmt(A) ::= SHOW(K) ALL.              { A = parse__show(pctx, "all", K.offset); }

/* ---------------- EXPLAIN / ALTER ROLE ---------------- */

explain_stmt(A) ::= EXPLAIN(K) explainable_stmt(S).                  { A = parse__explain(pctx, S, false, false, K.offset); }
explain_stmt(A) ::= EXPLAIN(K) ANALYZE explainable_stmt(S).          { A = parse__explain(pctx, S, true, false, K.offset); }
explain_stmt(A) ::= EXPLAIN(K) ANALYZE VERBOSE explainable_stmt(S).  { A = parse__explain(pctx, S, true, true, K.offset); }
explain_stmt(A) ::= EXPLAIN(K) VERBOSE explainable_stmt(S).          { A = parse__explain(pctx, S, false, true, K.offset); }

explain_stmt(A) ::= EXPLAIN(K) LP explain_options(O) RP explainable_stmt(S). { A = parse__explain(pctx, S, O.analyze, O.verbose, K.offset); }

%type explain_options {ParseExplainOpts}
explain_options(A) ::= explain_option(X).                          { A = parse__explain_option(pctx, NULL, &X); }
explain_options(A) ::= explain_options(L) COMMA explain_option(X). { A = parse__explain_option(pctx, &L, &X); }

%type explain_option {ParseExplainOpt}
explain_option(A) ::= explain_option_name(N).                         { A.name = N; A.value.code = 0; }
explain_option(A) ::= explain_option_name(N) explain_option_value(V). { A.name = N; A.value = V; }
%type explain_option_name {ParseToken}
explain_option_name(A) ::= ID|ANALYZE|VERBOSE(N).   { A = N; }
%type explain_option_value {ParseToken}
explain_option_value(A) ::= ID|TRUE|FALSE|ON|ICONST|SCONST(V).   { A = V; }

explainable_stmt(A) ::= select_stmt(X). { A = X; }
explainable_stmt(A) ::= insert_stmt(X). { A = X; }

alter_role_stmt(A) ::= ALTER(K) role_or_user colid(N) opt_with PASSWORD SCONST(P). { A = parse__alter_role(pctx, &N, &P, K.offset); }
alter_role_stmt(A) ::= ALTER(K) role_or_user colid(N) opt_with ENCRYPTED PASSWORD SCONST(P). { A = parse__alter_role(pctx, &N, &P, K.offset); }
alter_role_stmt(A) ::= ALTER(K) role_or_user colid(N) opt_with PASSWORD NULL. { A = parse__alter_role(pctx, &N, NULL, K.offset); }

role_or_user ::= ROLE.
role_or_user ::= USER.
opt_with ::= WITH.
opt_with ::= .

/* ---------------- expressions ---------------- */

%type expr_list {List *}
expr_list(A) ::= a_expr(X).                     { A = parse__list1(pctx, X); }
expr_list(A) ::= expr_list(L) COMMA a_expr(X).  { A = parse__list_append(pctx, L, X); }

a_expr(A) ::= c_expr(X).                                { A = X; }
a_expr(A) ::= a_expr(X) TYPECAST(K) typename(T).        { A = parse__typecast(pctx, X, T, K.offset); }
a_expr(A) ::= PLUS(K) a_expr(X). [UMINUS]               { A = parse__op(pctx, "+", NULL, X, K.offset); }
a_expr(A) ::= MINUS(K) a_expr(X). [UMINUS]              { A = parse__uminus(pctx, X, K.offset); }
a_expr(A) ::= a_expr(L) PLUS(K) a_expr(R).      { A = parse__op(pctx, "+", L, R, K.offset); }
a_expr(A) ::= a_expr(L) MINUS(K) a_expr(R).     { A = parse__op(pctx, "-", L, R, K.offset); }
a_expr(A) ::= a_expr(L) STAR(K) a_expr(R).      { A = parse__op(pctx, "*", L, R, K.offset); }
a_expr(A) ::= a_expr(L) SLASH(K) a_expr(R).     { A = parse__op(pctx, "/", L, R, K.offset); }
a_expr(A) ::= a_expr(L) PERCENT(K) a_expr(R).   { A = parse__op(pctx, "%", L, R, K.offset); }
a_expr(A) ::= a_expr(L) CARET(K) a_expr(R).     { A = parse__op(pctx, "^", L, R, K.offset); }
a_expr(A) ::= a_expr(L) LT(K) a_expr(R).        { A = parse__op(pctx, "<", L, R, K.offset); }
a_expr(A) ::= a_expr(L) GT(K) a_expr(R).        { A = parse__op(pctx, ">", L, R, K.offset); }
a_expr(A) ::= a_expr(L) EQ(K) a_expr(R).        { A = parse__op(pctx, "=", L, R, K.offset); }
a_expr(A) ::= a_expr(L) LE(K) a_expr(R).        { A = parse__op(pctx, "<=", L, R, K.offset); }
a_expr(A) ::= a_expr(L) GE(K) a_expr(R).        { A = parse__op(pctx, ">=", L, R, K.offset); }
a_expr(A) ::= a_expr(L) NE(K) a_expr(R).        { A = parse__op(pctx, "<>", L, R, K.offset); }
a_expr(A) ::= a_expr(L) OP(K) a_expr(R).        { A = parse__op(pctx, K.str, L, R, K.offset); }
a_expr(A) ::= OP(K) a_expr(X). [OP]             { A = parse__op(pctx, K.str, NULL, X, K.offset); }
a_expr(A) ::= a_expr(L) AND(K) a_expr(R).       { A = parse__bool(pctx, AND_EXPR, L, R, K.offset); }
a_expr(A) ::= a_expr(L) OR(K) a_expr(R).        { A = parse__bool(pctx, OR_EXPR, L, R, K.offset); }
a_expr(A) ::= NOT(K) a_expr(X).                 { A = parse__bool(pctx, NOT_EXPR, X, NULL, K.offset); }
a_expr(A) ::= a_expr(L) LIKE(K) a_expr(R).                          { A = parse__like(pctx, AEXPR_LIKE, "~~", L, R, NULL, K.offset); }
a_expr(A) ::= a_expr(L) LIKE(K) a_expr(R) ESCAPE a_expr(E).         { A = parse__like(pctx, AEXPR_LIKE, "~~", L, R, E, K.offset); }
a_expr(A) ::= a_expr(L) NOT_LA(K) LIKE a_expr(R).                   { A = parse__like(pctx, AEXPR_LIKE, "!~~", L, R, NULL, K.offset); }
a_expr(A) ::= a_expr(L) NOT_LA(K) LIKE a_expr(R) ESCAPE a_expr(E).  { A = parse__like(pctx, AEXPR_LIKE, "!~~", L, R, E, K.offset); }
a_expr(A) ::= a_expr(L) ILIKE(K) a_expr(R).                         { A = parse__like(pctx, AEXPR_ILIKE, "~~*", L, R, NULL, K.offset); }
a_expr(A) ::= a_expr(L) ILIKE(K) a_expr(R) ESCAPE a_expr(E).        { A = parse__like(pctx, AEXPR_ILIKE, "~~*", L, R, E, K.offset); }
a_expr(A) ::= a_expr(L) NOT_LA(K) ILIKE a_expr(R).                  { A = parse__like(pctx, AEXPR_ILIKE, "!~~*", L, R, NULL, K.offset); }
a_expr(A) ::= a_expr(L) NOT_LA(K) ILIKE a_expr(R) ESCAPE a_expr(E). { A = parse__like(pctx, AEXPR_ILIKE, "!~~*", L, R, E, K.offset); }
a_expr(A) ::= a_expr(X) IS(K) NULL.             { A = parse__null_test(pctx, IS_NULL, X, K.offset); }
a_expr(A) ::= a_expr(X) ISNULL(K).              { A = parse__null_test(pctx, IS_NULL, X, K.offset); }
a_expr(A) ::= a_expr(X) IS(K) NOT NULL.         { A = parse__null_test(pctx, IS_NOT_NULL, X, K.offset); }
a_expr(A) ::= a_expr(X) NOTNULL(K).             { A = parse__null_test(pctx, IS_NOT_NULL, X, K.offset); }
a_expr(A) ::= a_expr(X) IS(K) TRUE.             { A = parse__null_test(pctx, IS_TRUE, X, K.offset); }
a_expr(A) ::= a_expr(X) IS(K) NOT TRUE.         { A = parse__null_test(pctx, IS_NOT_TRUE, X, K.offset); }
a_expr(A) ::= a_expr(X) IS(K) FALSE.            { A = parse__null_test(pctx, IS_FALSE, X, K.offset); }
a_expr(A) ::= a_expr(X) IS(K) NOT FALSE.        { A = parse__null_test(pctx, IS_NOT_FALSE, X, K.offset); }
a_expr(A) ::= a_expr(X) IS(K) UNKNOWN.          { A = parse__null_test(pctx, IS_UNKNOWN, X, K.offset); }
a_expr(A) ::= a_expr(X) IS(K) NOT UNKNOWN.      { A = parse__null_test(pctx, IS_NOT_UNKNOWN, X, K.offset); }
a_expr(A) ::= a_expr(L) IS(K) DISTINCT FROM a_expr(R). [IS]     { A = parse__aexpr(pctx, AEXPR_DISTINCT, "=", L, R, K.offset); }
a_expr(A) ::= a_expr(L) IS(K) NOT DISTINCT FROM a_expr(R). [IS] { A = parse__aexpr(pctx, AEXPR_NOT_DISTINCT, "=", L, R, K.offset); }
a_expr(A) ::= a_expr(X) BETWEEN(K) opt_asymmetric b_expr(L) AND a_expr(H). [BETWEEN]    { A = parse__between(pctx, AEXPR_BETWEEN, X, L, H, K.offset); }
a_expr(A) ::= a_expr(X) NOT_LA(K) BETWEEN opt_asymmetric b_expr(L) AND a_expr(H). [NOT_LA] { A = parse__between(pctx, AEXPR_NOT_BETWEEN, X, L, H, K.offset); }
a_expr(A) ::= a_expr(X) BETWEEN(K) SYMMETRIC b_expr(L) AND a_expr(H). [BETWEEN]         { A = parse__between(pctx, AEXPR_BETWEEN_SYM, X, L, H, K.offset); }
a_expr(A) ::= a_expr(X) NOT_LA(K) BETWEEN SYMMETRIC b_expr(L) AND a_expr(H). [NOT_LA]   { A = parse__between(pctx, AEXPR_NOT_BETWEEN_SYM, X, L, H, K.offset); }
a_expr(A) ::= a_expr(X) IN(K) LP expr_list(L) RP.           { A = parse__in(pctx, false, X, L, K.offset); }
a_expr(A) ::= a_expr(X) NOT_LA(K) IN LP expr_list(L) RP.    { A = parse__in(pctx, true, X, L, K.offset); }

opt_asymmetric ::= ASYMMETRIC.
opt_asymmetric ::= .

/* b_expr: a_expr without the boolean, IS [NOT] NULL, BETWEEN, IN and LIKE
 * forms, for places where those would be ambiguous (DEFAULT, BETWEEN). */
b_expr(A) ::= c_expr(X).                                { A = X; }
b_expr(A) ::= b_expr(X) TYPECAST(K) typename(T).        { A = parse__typecast(pctx, X, T, K.offset); }
b_expr(A) ::= PLUS(K) b_expr(X). [UMINUS]               { A = parse__op(pctx, "+", NULL, X, K.offset); }
b_expr(A) ::= MINUS(K) b_expr(X). [UMINUS]              { A = parse__uminus(pctx, X, K.offset); }
b_expr(A) ::= b_expr(L) PLUS(K) b_expr(R).      { A = parse__op(pctx, "+", L, R, K.offset); }
b_expr(A) ::= b_expr(L) MINUS(K) b_expr(R).     { A = parse__op(pctx, "-", L, R, K.offset); }
b_expr(A) ::= b_expr(L) STAR(K) b_expr(R).      { A = parse__op(pctx, "*", L, R, K.offset); }
b_expr(A) ::= b_expr(L) SLASH(K) b_expr(R).     { A = parse__op(pctx, "/", L, R, K.offset); }
b_expr(A) ::= b_expr(L) PERCENT(K) b_expr(R).   { A = parse__op(pctx, "%", L, R, K.offset); }
b_expr(A) ::= b_expr(L) CARET(K) b_expr(R).     { A = parse__op(pctx, "^", L, R, K.offset); }
b_expr(A) ::= b_expr(L) LT(K) b_expr(R).        { A = parse__op(pctx, "<", L, R, K.offset); }
b_expr(A) ::= b_expr(L) GT(K) b_expr(R).        { A = parse__op(pctx, ">", L, R, K.offset); }
b_expr(A) ::= b_expr(L) EQ(K) b_expr(R).        { A = parse__op(pctx, "=", L, R, K.offset); }
b_expr(A) ::= b_expr(L) LE(K) b_expr(R).        { A = parse__op(pctx, "<=", L, R, K.offset); }
b_expr(A) ::= b_expr(L) GE(K) b_expr(R).        { A = parse__op(pctx, ">=", L, R, K.offset); }
b_expr(A) ::= b_expr(L) NE(K) b_expr(R).        { A = parse__op(pctx, "<>", L, R, K.offset); }
b_expr(A) ::= b_expr(L) OP(K) b_expr(R).        { A = parse__op(pctx, K.str, L, R, K.offset); }
b_expr(A) ::= OP(K) b_expr(X). [OP]             { A = parse__op(pctx, K.str, NULL, X, K.offset); }
b_expr(A) ::= b_expr(L) IS(K) DISTINCT FROM b_expr(R). [IS]     { A = parse__aexpr(pctx, AEXPR_DISTINCT, "=", L, R, K.offset); }
b_expr(A) ::= b_expr(L) IS(K) NOT DISTINCT FROM b_expr(R). [IS] { A = parse__aexpr(pctx, AEXPR_NOT_DISTINCT, "=", L, R, K.offset); }

c_expr(A) ::= columnref(X).                     { A = X; }
c_expr(A) ::= aexpr_const(X).                   { A = X; }
c_expr(A) ::= PARAM(K).                         { A = parse__param(pctx, &K); }
c_expr(A) ::= LP a_expr(X) RP.                  { A = parse__paren(pctx, X); }
c_expr(A) ::= case_expr(X).                     { A = X; }
c_expr(A) ::= func_expr(X).                     { A = X; }
c_expr(A) ::= CAST(K) LP a_expr(X) AS typename(T) RP. { A = parse__typecast(pctx, X, T, K.offset); }

columnref(A) ::= colid(N).                      { A = parse__colref(pctx, &N, NULL); }
columnref(A) ::= type_keyword(N).               { A = parse__colref(pctx, &N, NULL); }
columnref(A) ::= colid(N) indirection(L).       { A = parse__colref(pctx, &N, L); }

%type indirection {List *}
indirection(A) ::= DOT collabel(N).                 { A = parse__list1(pctx, (void *)N.str); }
indirection(A) ::= DOT STAR.                        { A = parse__list1(pctx, (void *)parse__star_marker); }
indirection(A) ::= indirection(L) DOT collabel(N).  { A = parse__list_append(pctx, L, (void *)N.str); }
indirection(A) ::= indirection(L) DOT STAR.         { A = parse__list_append(pctx, L, (void *)parse__star_marker); }

aexpr_const(A) ::= ICONST(K).           { A = parse__const_int(pctx, &K); }
aexpr_const(A) ::= FCONST(K).           { A = parse__const_numeric(pctx, &K); }
aexpr_const(A) ::= SCONST(K).           { A = parse__const_string(pctx, &K); }
aexpr_const(A) ::= TRUE(K).             { A = parse__const_bool(pctx, true, K.offset); }
aexpr_const(A) ::= FALSE(K).            { A = parse__const_bool(pctx, false, K.offset); }
aexpr_const(A) ::= NULL(K).             { A = parse__const_null(pctx, K.offset); }
aexpr_const(A) ::= ID(N) SCONST(S).     { A = parse__typed_literal(pctx, parse__type_generic(pctx, &N, NULL), &S); }
aexpr_const(A) ::= const_typename(T) SCONST(S). { A = parse__typed_literal(pctx, T, &S); }

case_expr(A) ::= CASE(K) case_arg(X) when_list(W) case_default(D) END. { A = parse__case(pctx, X, W, D, K.offset); }
case_arg(A) ::= a_expr(X).  { A = X; }
case_arg(A) ::= .           { A = NULL; }
%type when_list {List *}
when_list(A) ::= when_clause(X).                { A = parse__list1(pctx, X); }
when_list(A) ::= when_list(L) when_clause(X).   { A = parse__list_append(pctx, L, X); }
when_clause(A) ::= WHEN(K) a_expr(C) THEN a_expr(R). { A = parse__case_when(pctx, C, R, K.offset); }
case_default(A) ::= ELSE a_expr(X). { A = X; }
case_default(A) ::= .               { A = NULL; }

func_expr(A) ::= func_name(N) LP RP.                           { A = parse__func(pctx, &N, NULL, false, false); }
func_expr(A) ::= func_name(N) LP expr_list(L) RP.              { A = parse__func(pctx, &N, L, false, false); }
func_expr(A) ::= func_name(N) LP ALL expr_list(L) RP.          { A = parse__func(pctx, &N, L, false, false); }
func_expr(A) ::= func_name(N) LP DISTINCT expr_list(L) RP.     { A = parse__func(pctx, &N, L, false, true); }
func_expr(A) ::= func_name(N) LP STAR RP.                      { A = parse__func(pctx, &N, NULL, true, false); }
func_expr(A) ::= CURRENT_DATE|CURRENT_TIME|CURRENT_TIMESTAMP|LOCALTIME|LOCALTIMESTAMP|CURRENT_USER|USER(K). { A = parse__sql_value_func(pctx, &K); }

/* SQL-standard call syntaxes, as PostgreSQL 15's func_expr_common_subexpr:
 * the result is a plain call of PostgreSQL's function name. */
func_expr(A) ::= EXTRACT(K) LP extract_field(F) FROM a_expr(X) RP. { A = parse__func_special(pctx, &K, "extract", parse__list_append(pctx, parse__list1(pctx, F), X)); }
func_expr(A) ::= POSITION(K) LP b_expr(N) IN b_expr(H) RP.        { A = parse__func_special(pctx, &K, "position", parse__list_append(pctx, parse__list1(pctx, H), N)); }
func_expr(A) ::= SUBSTRING(K) LP substr_list(L) RP.               { A = parse__func_special(pctx, &K, "substring", L); }
func_expr(A) ::= SUBSTRING(K) LP RP.                              { A = parse__func_special(pctx, &K, "substring", NULL); }
func_expr(A) ::= TRIM(K) LP trim_list(L) RP.                      { A = parse__func_special(pctx, &K, "btrim", L); }
func_expr(A) ::= TRIM(K) LP BOTH trim_list(L) RP.                 { A = parse__func_special(pctx, &K, "btrim", L); }
func_expr(A) ::= TRIM(K) LP LEADING trim_list(L) RP.              { A = parse__func_special(pctx, &K, "ltrim", L); }
func_expr(A) ::= TRIM(K) LP TRAILING trim_list(L) RP.             { A = parse__func_special(pctx, &K, "rtrim", L); }

/* extract's field: a word (year, minute, epoch ...) or a string, as text */
extract_field(A) ::= ID(F).         { A = parse__var_word(pctx, F.str, F.offset); }
extract_field(A) ::= SCONST(F).     { A = parse__const_string(pctx, &F); }

%type substr_list {List *}
substr_list(A) ::= expr_list(L).                            { A = L; }
substr_list(A) ::= a_expr(X) FROM a_expr(F) FOR a_expr(N).  { A = parse__list_append(pctx, parse__list_append(pctx, parse__list1(pctx, X), F), N); }
substr_list(A) ::= a_expr(X) FOR a_expr(N) FROM a_expr(F).  { A = parse__list_append(pctx, parse__list_append(pctx, parse__list1(pctx, X), F), N); }
substr_list(A) ::= a_expr(X) FROM a_expr(F).                { A = parse__list_append(pctx, parse__list1(pctx, X), F); }
substr_list(A) ::= a_expr(X) FOR(K) a_expr(N).              { A = parse__list_append(pctx, parse__list_append(pctx, parse__list1(pctx, X), parse__const_one(pctx, K.offset)), N); }

/* trim(chars FROM x) is btrim(x, chars) */
%type trim_list {List *}
trim_list(A) ::= a_expr(C) FROM expr_list(L).   { A = parse__list_append(pctx, L, C); }
trim_list(A) ::= FROM expr_list(L).             { A = L; }
trim_list(A) ::= expr_list(L).                  { A = L; }

%type func_name {ParseFuncName}
func_name(A) ::= colid(N).                  { A = parse__func_name(pctx, &N, NULL); }
func_name(A) ::= colid(N) indirection(L).   { A = parse__func_name(pctx, &N, L); }
func_name(A) ::= LEFT|RIGHT|FULL|INNER|CROSS|JOIN|NATURAL|OUTER|LIKE|ILIKE|IS|ISNULL|NOTNULL|SIMILAR|VERBOSE(N). { A = parse__func_name(pctx, &N, NULL); }

/* ---------------- type names ---------------- */

%type typename {TypeName *}
typename(A) ::= simple_typename(T).                     { A = T; }
typename(A) ::= typename(T) LBRACKET RBRACKET.          { A = parse__type_array(pctx, T); }
typename(A) ::= typename(T) LBRACKET ICONST RBRACKET.   { A = parse__type_array(pctx, T); }

%type simple_typename {TypeName *}
simple_typename(A) ::= ID(N) opt_type_modifiers(M).     { A = parse__type_generic(pctx, &N, M); }
simple_typename(A) ::= const_typename(T).               { A = T; }

%type const_typename {TypeName *}
const_typename(A) ::= INT(K).                       { A = parse__type(pctx, "int4", NULL, K.offset); }
const_typename(A) ::= INTEGER(K).                   { A = parse__type(pctx, "int4", NULL, K.offset); }
const_typename(A) ::= SMALLINT(K).                  { A = parse__type(pctx, "int2", NULL, K.offset); }
const_typename(A) ::= BIGINT(K).                    { A = parse__type(pctx, "int8", NULL, K.offset); }
const_typename(A) ::= REAL(K).                      { A = parse__type(pctx, "float4", NULL, K.offset); }
const_typename(A) ::= FLOAT(K).                     { A = parse__type_float(pctx, NULL, K.offset); }
const_typename(A) ::= FLOAT(K) LP ICONST(P) RP.     { A = parse__type_float(pctx, &P, K.offset); }
const_typename(A) ::= DOUBLE(K) PRECISION.          { A = parse__type(pctx, "float8", NULL, K.offset); }
const_typename(A) ::= DECIMAL(K) opt_type_modifiers(M). { A = parse__type(pctx, "numeric", M, K.offset); }
const_typename(A) ::= DEC(K) opt_type_modifiers(M).     { A = parse__type(pctx, "numeric", M, K.offset); }
const_typename(A) ::= NUMERIC(K) opt_type_modifiers(M). { A = parse__type(pctx, "numeric", M, K.offset); }
const_typename(A) ::= BOOLEAN(K).                   { A = parse__type(pctx, "bool", NULL, K.offset); }
const_typename(A) ::= INTERVAL(K).                  { A = parse__type(pctx, "interval", NULL, K.offset); }
const_typename(A) ::= character(C) LP ICONST(L) RP. { A = parse__type_char(pctx, C.str, &L, C.offset); }
const_typename(A) ::= character(C).                 { A = parse__type_char(pctx, C.str, NULL, C.offset); }
const_typename(A) ::= TIMESTAMP(K) opt_precision(P) opt_timezone(Z). { A = parse__type_datetime(pctx, K.str, P.code ? &P : NULL, Z, K.offset); }
const_typename(A) ::= TIME(K) opt_precision(P) opt_timezone(Z).      { A = parse__type_datetime(pctx, K.str, P.code ? &P : NULL, Z, K.offset); }

/* character, char, varchar: the token's str becomes "bpchar" or "varchar" */
%type character {ParseToken}
character(A) ::= CHARACTER(K).                 { A = K; A.str = "bpchar"; }
character(A) ::= CHAR(K).                      { A = K; A.str = "bpchar"; }
character(A) ::= CHARACTER(K) VARYING.         { A = K; A.str = "varchar"; }
character(A) ::= CHAR(K) VARYING.              { A = K; A.str = "varchar"; }
character(A) ::= VARCHAR(K).                    { A = K; A.str = "varchar"; }

%type opt_precision {ParseToken}
opt_precision(A) ::= LP ICONST(P) RP.   { A = P; }
opt_precision(A) ::= .                  { A.code = 0; }

%type opt_timezone {bool}
opt_timezone(A) ::= WITH TIME ZONE.     { A = true; }
opt_timezone(A) ::= WITHOUT TIME ZONE.  { A = false; }
opt_timezone(A) ::= .                   { A = false; }

%type opt_type_modifiers {List *}
opt_type_modifiers(A) ::= LP type_modifiers(L) RP.  { A = L; }
opt_type_modifiers(A) ::= .                         { A = NULL; }

%type type_modifiers {List *}
type_modifiers(A) ::= ICONST(K).                        { A = parse__list1(pctx, parse__typmod(pctx, &K)); }
type_modifiers(A) ::= type_modifiers(L) COMMA ICONST(K). { A = parse__list_append(pctx, L, parse__typmod(pctx, &K)); }

/* ---------------- names ---------------- */

%type colid {ParseToken}
colid(A) ::= ID(N).     { A = N; }

/* A label after AS or a dot: any word, reserved or not. */
%type collabel {ParseToken}
collabel(A) ::= ID|ALL|ANALYZE|AND|ANY|ARRAY|AS|ASC|ASYMMETRIC|AUTHORIZATION|BINARY|BOTH|CASE|CAST|CHECK|COLLATE|COLLATION|COLUMN|CONCURRENTLY|CONSTRAINT|CREATE|CROSS|CURRENT_CATALOG|CURRENT_DATE|CURRENT_ROLE|CURRENT_SCHEMA|CURRENT_TIME|CURRENT_TIMESTAMP|CURRENT_USER|DEFAULT|DEFERRABLE|DESC|DISTINCT|DO|ELSE|END|EXCEPT|FALSE|FETCH|FOR|FOREIGN|FREEZE|FROM|FULL|GRANT|GROUP|HAVING|ILIKE|IN|INITIALLY|INNER|INTERSECT|INTO|IS|ISNULL|JOIN|LATERAL|LEADING|LEFT|LIKE|LIMIT|LOCALTIME|LOCALTIMESTAMP|NATURAL|NOT|NOTNULL|NULL|OFFSET|ON|ONLY|OR|ORDER|OUTER|OVERLAPS|PLACING|PRIMARY|REFERENCES|RETURNING|RIGHT|SELECT|SESSION_USER|SIMILAR|SOME|SYMMETRIC|TABLE|TABLESAMPLE|THEN|TO|TRAILING|TRUE|UNION|UNIQUE|USER|USING|VARIADIC|VERBOSE|WHEN|WHERE|WINDOW|WITH(N). { A = N; }

%code {
/* The engine lives in the parse arena (no malloc, nothing to free on error). */
void *parse__lemon_create(MemArena *arena, ParseCtx *pc)
{
    yyParser *p = mem_alloc(arena, sizeof *p);
    parse__lemonInit(p, pc);
    return p;
}
}

/* Keywords PostgreSQL 15 accepts as a column label without AS (BARE_LABEL
 * in kwlist.h); unreserved ones arrive as ID through %fallback. */
%type bare_label {ParseToken}
bare_label(A) ::= ALL|ANALYZE|ANY|ASC|ASYMMETRIC|BOTH|CASE|CAST|CHECK|COLLATE|COLUMN|CONSTRAINT|CURRENT_CATALOG|CURRENT_DATE|CURRENT_ROLE|CURRENT_TIME|CURRENT_TIMESTAMP|CURRENT_USER|DEFAULT|DEFERRABLE|DESC|DISTINCT|DO|ELSE|END|FALSE|FOREIGN|INITIALLY|LATERAL|LEADING|LOCALTIME|LOCALTIMESTAMP|NOT|NULL|ONLY|PLACING|PRIMARY|REFERENCES|SELECT|SESSION_USER|SOME|SYMMETRIC|TABLE|THEN|TRAILING|TRUE|UNIQUE|USER|USING|VARIADIC|WHEN|AUTHORIZATION|BINARY|COLLATION|CONCURRENTLY|CROSS|CURRENT_SCHEMA|FREEZE|FULL|INNER|JOIN|LEFT|NATURAL|OUTER|RIGHT|SIMILAR|TABLESAMPLE|VERBOSE(N). { A = N; }
/* Also operators: separate rules so that LR lookahead decides (a multi-
 * terminal shift would conflict with the operator's shift). */
bare_label(A) ::= AND(N). { A = N; }
bare_label(A) ::= OR(N). { A = N; }
bare_label(A) ::= IS(N). { A = N; }
bare_label(A) ::= IN(N). { A = N; }
bare_label(A) ::= LIKE(N). { A = N; }
bare_label(A) ::= ILIKE(N). { A = N; }
bare_label(A) ::= BETWEEN(N). { A = N; }

/* Column-name keywords that also start a type name are column references
 * where no literal follows (`select time from t`), as PostgreSQL's ColId.
 * One rule per token, and no multi-terminal for them anywhere, so that LR
 * lookahead decides between this and a typed literal. */
%type type_keyword {ParseToken}
type_keyword(A) ::= INT(N). { A = N; }
type_keyword(A) ::= INTEGER(N). { A = N; }
type_keyword(A) ::= SMALLINT(N). { A = N; }
type_keyword(A) ::= BIGINT(N). { A = N; }
type_keyword(A) ::= REAL(N). { A = N; }
type_keyword(A) ::= FLOAT(N). { A = N; }
type_keyword(A) ::= DOUBLE(N). { A = N; }
type_keyword(A) ::= DECIMAL(N). { A = N; }
type_keyword(A) ::= DEC(N). { A = N; }
type_keyword(A) ::= NUMERIC(N). { A = N; }
type_keyword(A) ::= BOOLEAN(N). { A = N; }
type_keyword(A) ::= INTERVAL(N). { A = N; }
type_keyword(A) ::= CHARACTER(N). { A = N; }
type_keyword(A) ::= CHAR(N). { A = N; }
type_keyword(A) ::= VARCHAR(N). { A = N; }
type_keyword(A) ::= TIMESTAMP(N). { A = N; }
type_keyword(A) ::= TIME(N). { A = N; }
type_keyword(A) ::= EXTRACT(N). { A = N; }
type_keyword(A) ::= POSITION(N). { A = N; }
type_keyword(A) ::= SUBSTRING(N). { A = N; }
type_keyword(A) ::= TRIM(N). { A = N; }
