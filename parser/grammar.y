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
       LBRACKET RBRACKET COMMA SEMI COLON OTHER MODE_EXPR WITH_LA NULLS_LA NULLS.

/* Unreserved and column-name keywords are identifiers where not shiftable. */
%fallback ID ABORT ABSOLUTE ACCESS ACTION ADD ADMIN ALTER ALWAYS ASENSITIVE AT BACKWARD BEGIN BETWEEN
             BIGINT BIT BOOLEAN BY CACHE CASCADE CASCADED CHAIN CHAR CHARACTER
             CHARACTERISTICS CHECKPOINT CLOSE COMMENT COMMIT COMMITTED CONFLICT
             CONNECTION CONTINUE COPY CSV CUBE CURRENT CURSOR CYCLE DATA DATABASE DAY
             DEALLOCATE DEC DECIMAL DECLARE DELETE DELIMITER DELIMITERS DISCARD DOUBLE
             DROP ENCODING ENCRYPTED ENUM ESCAPE EXCLUDE EXCLUSIVE EXECUTE EXISTS EXPLAIN
             EXTENSION EXTRACT FILTER FIRST FLOAT FOLLOWING FORCE FORWARD GENERATED
             GROUPING GROUPS HEADER HOLD HOUR IDENTITY IF INCLUDE INCREMENT INDEX INHERIT
             INSENSITIVE INSERT INT INTEGER INTERVAL ISOLATION KEY LAST LEVEL LISTEN
             LOCAL LOCK LOCKED MATCH MATERIALIZED MAXVALUE MINUTE MINVALUE MODE MONTH
             MOVE NAMES NEXT NO NOTHING NOTIFY NOWAIT NULLS NUMERIC OF OIDS OPERATOR
             OPTION ORDINALITY OTHERS OVER OVERLAY OVERRIDING OWNED OWNER PARTIAL
             PARTITION PASSWORD PLANS POSITION PRECEDING PRECISION PREPARE PRESERVE PRIOR
             PRIVILEGES PROGRAM QUOTE RANGE READ REAL RECURSIVE RELATIVE RELEASE RENAME
             REPEATABLE REPLACE RESET RESTART RESTRICT REVOKE ROLE ROLLBACK ROLLUP ROW
             ROWS SAVEPOINT SCHEMA SCROLL SECOND SEQUENCE SEQUENCES SERIALIZABLE SESSION
             SET SETS SHARE SHOW SIMPLE SKIP SMALLINT START STDIN STDOUT STORED SUBSTRING
             SYSTEM TEMP TEMPLATE TEMPORARY TIES TIME TIMESTAMP TRANSACTION TRIM TRUNCATE
             TYPE UNBOUNDED UNCOMMITTED UNKNOWN UNLISTEN UNLOGGED UNTIL UPDATE VACUUM
             VALID VALUE VALUES VARCHAR VARYING VIEW WITHIN WITHOUT WORK WRITE YEAR ZONE.

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
%left OP OPERATOR.
%left PLUS MINUS.
%left STAR SLASH PERCENT.
%left CARET.
%left AT.
%left COLLATE.
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
stmt(A) ::= update_stmt(X).             { A = X; }
stmt(A) ::= delete_stmt(X).             { A = X; }
stmt(A) ::= truncate_stmt(X).           { A = X; }
stmt(A) ::= create_as_stmt(X).          { A = X; }
stmt(A) ::= alter_table_stmt(X).        { A = X; }
stmt(A) ::= rename_stmt(X).             { A = X; }
stmt(A) ::= copy_stmt(X).               { A = X; }
stmt(A) ::= savepoint_stmt(X).          { A = X; }
stmt(A) ::= createdb_stmt(X).           { A = X; }
stmt(A) ::= dropdb_stmt(X).             { A = X; }
stmt(A) ::= create_schema_stmt(X).      { A = X; }
stmt(A) ::= create_role_stmt(X).        { A = X; }
stmt(A) ::= drop_role_stmt(X).          { A = X; }
stmt(A) ::= vacuum_stmt(X).             { A = X; }
stmt(A) ::= analyze_stmt(X).            { A = X; }
stmt(A) ::= checkpoint_stmt(X).         { A = X; }
stmt(A) ::= index_stmt(X).              { A = X; }
stmt(A) ::= view_stmt(X).               { A = X; }
stmt(A) ::= prepare_stmt(X).            { A = X; }
stmt(A) ::= execute_stmt(X).            { A = X; }
stmt(A) ::= deallocate_stmt(X).         { A = X; }
stmt(A) ::= create_seq_stmt(X).         { A = X; }
stmt(A) ::= alter_seq_stmt(X).          { A = X; }
stmt(A) ::= discard_stmt(X).            { A = X; }
stmt(A) ::= listen_stmt(X).             { A = X; }
stmt(A) ::= declare_cursor_stmt(X).     { A = X; }
stmt(A) ::= fetch_stmt(X).              { A = X; }
stmt(A) ::= close_portal_stmt(X).       { A = X; }
stmt(A) ::= comment_stmt(X).            { A = X; }
stmt(A) ::= grant_stmt(X).              { A = X; }
stmt(A) ::= lock_stmt(X).               { A = X; }
stmt(A) ::= create_enum_stmt(X).        { A = X; }

/* ---------------- SELECT ---------------- */

select_stmt(A) ::= select_no_parens(X).   { A = X; }
select_stmt(A) ::= select_with_parens(X). { A = X; }

select_with_parens(A) ::= LP select_no_parens(X) RP.   { A = X; }
select_with_parens(A) ::= LP select_with_parens(X) RP. { A = X; }

select_no_parens(A) ::= simple_select(X).                   { A = X; }
select_no_parens(A) ::= select_clause(X) sort_clause(S).    { A = parse__select_tail(pctx, X, S, NULL); }
select_no_parens(A) ::= select_clause(X) opt_sort_clause(S) select_limit(L) opt_for_locking_clause(F). { A = parse__select_tail2(pctx, X, S, &L, F, NULL); }
select_no_parens(A) ::= select_clause(X) opt_sort_clause(S) for_locking_clause(F) opt_select_limit(L). { A = parse__select_tail2(pctx, X, S, &L, F, NULL); }
select_no_parens(A) ::= with_clause(W) select_clause(X).    { A = parse__select_tail2(pctx, X, NULL, NULL, NULL, W); }
select_no_parens(A) ::= with_clause(W) select_clause(X) sort_clause(S). { A = parse__select_tail2(pctx, X, S, NULL, NULL, W); }
select_no_parens(A) ::= with_clause(W) select_clause(X) opt_sort_clause(S) select_limit(L) opt_for_locking_clause(F). { A = parse__select_tail2(pctx, X, S, &L, F, W); }
select_no_parens(A) ::= with_clause(W) select_clause(X) opt_sort_clause(S) for_locking_clause(F) opt_select_limit(L). { A = parse__select_tail2(pctx, X, S, &L, F, W); }

select_clause(A) ::= simple_select(X).      { A = X; }
select_clause(A) ::= select_with_parens(X). { A = X; }

simple_select(A) ::= SELECT(K) opt_all opt_target_list(T) into_clause(I) from_clause(F) where_clause(W) group_clause(G) having_clause(H) window_clause(WN). { A = parse__select_full(pctx, K.offset, NULL, T, I, F, W, &G, H, WN); }
simple_select(A) ::= SELECT(K) distinct_clause(D) target_list(T) into_clause(I) from_clause(F) where_clause(W) group_clause(G) having_clause(H) window_clause(WN). { A = parse__select_full(pctx, K.offset, D, T, I, F, W, &G, H, WN); }
simple_select(A) ::= values_clause(X).      { A = X; }
simple_select(A) ::= TABLE(K) relation_expr(R). { A = parse__select_table(pctx, R, K.offset); }
simple_select(A) ::= select_clause(L) UNION(K) set_quantifier(Q) select_clause(R).     { A = parse__setop(pctx, SELECT_SETOP_UNION, Q, L, R, K.offset); }
simple_select(A) ::= select_clause(L) INTERSECT(K) set_quantifier(Q) select_clause(R). { A = parse__setop(pctx, SELECT_SETOP_INTERSECT, Q, L, R, K.offset); }
simple_select(A) ::= select_clause(L) EXCEPT(K) set_quantifier(Q) select_clause(R).    { A = parse__setop(pctx, SELECT_SETOP_EXCEPT, Q, L, R, K.offset); }

/* 0 none, 1 ALL, 2 DISTINCT */
%type set_quantifier {int}
set_quantifier(A) ::= ALL.        { A = 1; }
set_quantifier(A) ::= DISTINCT.   { A = 2; }
set_quantifier(A) ::= .           { A = 0; }

/* DISTINCT → a one-item list holding NULL; DISTINCT ON (exprs) → the exprs */
%type distinct_clause {List *}
distinct_clause(A) ::= DISTINCT.                          { A = parse__list1(pctx, NULL); }
distinct_clause(A) ::= DISTINCT ON LP expr_list(L) RP.    { A = L; }

into_clause(A) ::= INTO opt_table qualified_name(R).           { A = parse__into(pctx, R, 'p'); }
into_clause(A) ::= INTO opttemp_kw(T) opt_table qualified_name(R). { A = parse__into(pctx, R, T); }
into_clause(A) ::= .                                            { A = NULL; }

%type opttemp_kw {char}
opttemp_kw(A) ::= TEMPORARY.        { A = 't'; }
opttemp_kw(A) ::= TEMP.             { A = 't'; }
opttemp_kw(A) ::= LOCAL TEMPORARY.  { A = 't'; }
opttemp_kw(A) ::= LOCAL TEMP.       { A = 't'; }
opttemp_kw(A) ::= UNLOGGED.         { A = 'u'; }

opt_table ::= TABLE.
opt_table ::= .

/* WITH [RECURSIVE] name [(cols)] AS [[NOT] MATERIALIZED] (stmt), ... */
with_clause(A) ::= WITH(K) cte_list(L).           { A = parse__with(pctx, L, false, K.offset); }
with_clause(A) ::= WITH(K) RECURSIVE cte_list(L). { A = parse__with(pctx, L, true, K.offset); }

opt_with_clause(A) ::= with_clause(X).  { A = X; }
opt_with_clause(A) ::= .                { A = NULL; }

%type cte_list {List *}
cte_list(A) ::= common_table_expr(X).                   { A = parse__list1(pctx, X); }
cte_list(A) ::= cte_list(L) COMMA common_table_expr(X). { A = parse__list_append(pctx, L, X); }

common_table_expr(A) ::= colid(N) opt_name_list(C) AS opt_materialized(M) LP preparable_stmt(S) RP. { A = parse__cte(pctx, &N, C, M, S); }

%type opt_materialized {int}
opt_materialized(A) ::= MATERIALIZED.       { A = CTEMaterializeAlways; }
opt_materialized(A) ::= NOT MATERIALIZED.   { A = CTEMaterializeNever; }
opt_materialized(A) ::= .                   { A = CTEMaterializeDefault; }

preparable_stmt(A) ::= select_stmt(X). { A = X; }
preparable_stmt(A) ::= insert_stmt(X). { A = X; }
preparable_stmt(A) ::= update_stmt(X). { A = X; }
preparable_stmt(A) ::= delete_stmt(X). { A = X; }

%type opt_name_list {List *}
opt_name_list(A) ::= LP name_list(L) RP.    { A = L; }
opt_name_list(A) ::= .                      { A = NULL; }

values_clause(A) ::= VALUES(K) LP values_row(R) RP.          { A = parse__values(pctx, NULL, R, K.offset); }
values_clause(A) ::= values_clause(V) COMMA LP values_row(R) RP. { A = parse__values(pctx, V, R, -1); }

%type values_row {List *}
values_row(A) ::= a_expr(X).                      { A = parse__list1(pctx, X); }
values_row(A) ::= values_row(L) COMMA a_expr(X).  { A = parse__list_append(pctx, L, X); }

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
table_ref(A) ::= func_table(F) func_alias_clause(L).   { A = parse__range_func(pctx, F, &L, false); }
table_ref(A) ::= LATERAL func_table(F) func_alias_clause(L). { A = parse__range_func(pctx, F, &L, true); }
table_ref(A) ::= select_with_parens(S) opt_alias_clause(L). { A = parse__range_subselect(pctx, S, &L, false); }
table_ref(A) ::= LATERAL select_with_parens(S) opt_alias_clause(L). { A = parse__range_subselect(pctx, S, &L, true); }
table_ref(A) ::= joined_table(J).                      { A = J; }
table_ref(A) ::= LP joined_table(J) RP alias_clause(L). { A = parse__join_alias(pctx, J, &L); }

/* f(...) [WITH ORDINALITY] in FROM; RangeFunction (alias set later) */
func_table(A) ::= func_expr_windowless(F) opt_ordinality(O). { A = parse__func_table(pctx, F, O); }

%type opt_ordinality {bool}
opt_ordinality(A) ::= WITH_LA ORDINALITY.   { A = true; }
opt_ordinality(A) ::= .                     { A = false; }

%type func_alias_clause {ParseAlias}
func_alias_clause(A) ::= alias_clause(L).                              { A = L; }
func_alias_clause(A) ::= AS LP table_func_elts(E) RP.                  { A.name = NULL; A.colnames = NULL; A.coldefs = E; }
func_alias_clause(A) ::= AS colid(N) LP table_func_elts(E) RP.         { A.name = N.str; A.colnames = NULL; A.coldefs = E; }
func_alias_clause(A) ::= colid(N) LP table_func_elts(E) RP.            { A.name = N.str; A.colnames = NULL; A.coldefs = E; }
func_alias_clause(A) ::= .                                             { A.name = NULL; A.colnames = NULL; A.coldefs = NULL; }

%type table_func_elts {List *}
table_func_elts(A) ::= table_func_elt(X).                          { A = parse__list1(pctx, X); }
table_func_elts(A) ::= table_func_elts(L) COMMA table_func_elt(X). { A = parse__list_append(pctx, L, X); }
table_func_elt(A) ::= colid(N) typename(T).                        { A = parse__column_def(pctx, &N, T, NULL); }

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

relation_expr(A) ::= qualified_name(X).             { A = X; }
relation_expr(A) ::= qualified_name(X) STAR.        { A = X; }
relation_expr(A) ::= ONLY qualified_name(X).        { A = parse__range_only(pctx, X); }
relation_expr(A) ::= ONLY LP qualified_name(X) RP.  { A = parse__range_only(pctx, X); }

%type relation_expr_list {List *}
relation_expr_list(A) ::= relation_expr(X).                            { A = parse__list1(pctx, X); }
relation_expr_list(A) ::= relation_expr_list(L) COMMA relation_expr(X). { A = parse__list_append(pctx, L, X); }

qualified_name(A) ::= colid(N).                 { A = parse__range_var(pctx, &N, NULL); }
qualified_name(A) ::= colid(S) DOT collabel(N). { A = parse__range_var(pctx, &S, &N); }

%type opt_alias_clause {ParseAlias}
opt_alias_clause(A) ::= alias_clause(L).                { A = L; }
opt_alias_clause(A) ::= .                               { A.name = NULL; A.colnames = NULL; A.coldefs = NULL; }

%type alias_clause {ParseAlias}
alias_clause(A) ::= AS colid(N) opt_col_aliases(C). { A.name = N.str; A.colnames = C; A.coldefs = NULL; }
alias_clause(A) ::= colid(N) opt_col_aliases(C).    { A.name = N.str; A.colnames = C; A.coldefs = NULL; }

%type opt_col_aliases {List *}
opt_col_aliases(A) ::= LP name_list(L) RP.  { A = L; }
opt_col_aliases(A) ::= .                    { A = NULL; }

%type name_list {List *}
name_list(A) ::= colid(N).                      { A = parse__list1(pctx, (void *)N.str); }
name_list(A) ::= name_list(L) COMMA colid(N).   { A = parse__list_append(pctx, L, (void *)N.str); }

where_clause(A) ::= WHERE a_expr(E).    { A = E; }
where_clause(A) ::= .                   { A = NULL; }

%type group_clause {ParseGroup}
group_clause(A) ::= GROUP BY set_quantifier(Q) group_by_list(L).  { A.list = L; A.distinct = Q == 2; }
group_clause(A) ::= .                       { A.list = NULL; A.distinct = false; }

%type group_by_list {List *}
group_by_list(A) ::= group_by_item(X).                        { A = parse__list1(pctx, X); }
group_by_list(A) ::= group_by_list(L) COMMA group_by_item(X). { A = parse__list_append(pctx, L, X); }

group_by_item(A) ::= a_expr(X).                   { A = X; }
group_by_item(A) ::= LP(K) RP.                    { A = parse__grouping_set(pctx, GROUPING_SET_EMPTY, NULL, K.offset); }
group_by_item(A) ::= ROLLUP(K) LP expr_list(L) RP. { A = parse__grouping_set(pctx, GROUPING_SET_ROLLUP, L, K.offset); }
group_by_item(A) ::= CUBE(K) LP expr_list(L) RP.  { A = parse__grouping_set(pctx, GROUPING_SET_CUBE, L, K.offset); }
group_by_item(A) ::= GROUPING(K) SETS LP group_by_list(L) RP. { A = parse__grouping_set(pctx, GROUPING_SET_SETS, L, K.offset); }

having_clause(A) ::= HAVING a_expr(E).  { A = E; }
having_clause(A) ::= .                  { A = NULL; }

%type window_clause {List *}
window_clause(A) ::= WINDOW window_definition_list(L).  { A = L; }
window_clause(A) ::= .                                  { A = NULL; }

%type window_definition_list {List *}
window_definition_list(A) ::= window_definition(X).                                 { A = parse__list1(pctx, X); }
window_definition_list(A) ::= window_definition_list(L) COMMA window_definition(X).  { A = parse__list_append(pctx, L, X); }

window_definition(A) ::= colid(N) AS window_specification(W). { A = parse__window_name(pctx, W, &N); }

/* Every alternative starts with an explicit token (no empty prefix): an
 * empty opt_ clause before the frame would make PARTITION/RANGE/ROWS/GROUPS
 * fall back to ID (the existing window name) in the state after '('. */
window_specification(A) ::= LP(K) RP.                          { A = parse__window_spec(pctx, NULL, NULL, K.offset); }
window_specification(A) ::= LP(K) window_tail(T) RP.           { A = parse__window_spec(pctx, NULL, &T, K.offset); }
window_specification(A) ::= LP(K) colid(N) RP.                 { A = parse__window_spec(pctx, N.str, NULL, K.offset); }
window_specification(A) ::= LP(K) colid(N) window_tail(T) RP.  { A = parse__window_spec(pctx, N.str, &T, K.offset); }

%type window_tail {ParseWindowTail}
window_tail(A) ::= PARTITION BY expr_list(P) opt_sort_clause(S) opt_frame_clause(F). { A.partition = P; A.order = S; A.frame = F; }
window_tail(A) ::= sort_clause(S) opt_frame_clause(F).                               { A.partition = NULL; A.order = S; A.frame = F; }
window_tail(A) ::= frame_clause(F).                                                  { A.partition = NULL; A.order = NULL; A.frame = F; }


%type opt_frame_clause {ParseFrame}
opt_frame_clause(A) ::= frame_clause(F).  { A = F; }
opt_frame_clause(A) ::= .  { A = parse__frame(pctx, 0, NULL, 0, -1); }

%type frame_clause {ParseFrame}
frame_clause(A) ::= RANGE(K) frame_extent(E) opt_window_exclusion(X).  { A = parse__frame(pctx, FRAMEOPTION_RANGE, &E, X, K.offset); }
frame_clause(A) ::= ROWS(K) frame_extent(E) opt_window_exclusion(X).   { A = parse__frame(pctx, FRAMEOPTION_ROWS, &E, X, K.offset); }
frame_clause(A) ::= GROUPS(K) frame_extent(E) opt_window_exclusion(X). { A = parse__frame(pctx, FRAMEOPTION_GROUPS, &E, X, K.offset); }

%type frame_extent {ParseFrameExtent}
frame_extent(A) ::= frame_bound(S).                              { A.start = S; A.end.kind = -1; A.end.offset = NULL; A.between = false; A.and_location = -1; }
frame_extent(A) ::= BETWEEN frame_bound(S) AND(K) frame_bound(E). { A.start = S; A.end = E; A.between = true; A.and_location = K.offset; }

%type frame_bound {ParseFrameBound}
frame_bound(A) ::= UNBOUNDED(K) PRECEDING.  { A.kind = PARSE_FB_UNBOUNDED_PRECEDING; A.offset = NULL; A.location = K.offset; }
frame_bound(A) ::= UNBOUNDED(K) FOLLOWING.  { A.kind = PARSE_FB_UNBOUNDED_FOLLOWING; A.offset = NULL; A.location = K.offset; }
frame_bound(A) ::= CURRENT(K) ROW.          { A.kind = PARSE_FB_CURRENT_ROW; A.offset = NULL; A.location = K.offset; }
frame_bound(A) ::= a_expr(X) PRECEDING.     { A.kind = PARSE_FB_OFFSET_PRECEDING; A.offset = X; A.location = X->location; }
frame_bound(A) ::= a_expr(X) FOLLOWING.     { A.kind = PARSE_FB_OFFSET_FOLLOWING; A.offset = X; A.location = X->location; }

%type opt_window_exclusion {int}
opt_window_exclusion(A) ::= EXCLUDE CURRENT ROW.  { A = FRAMEOPTION_EXCLUDE_CURRENT_ROW; }
opt_window_exclusion(A) ::= EXCLUDE GROUP.        { A = FRAMEOPTION_EXCLUDE_GROUP; }
opt_window_exclusion(A) ::= EXCLUDE TIES.         { A = FRAMEOPTION_EXCLUDE_TIES; }
opt_window_exclusion(A) ::= EXCLUDE NO OTHERS.    { A = 0; }
opt_window_exclusion(A) ::= .                     { A = 0; }

%type opt_sort_clause {List *}
opt_sort_clause(A) ::= sort_clause(L).  { A = L; }
opt_sort_clause(A) ::= .                { A = NULL; }

%type sort_clause {List *}
sort_clause(A) ::= ORDER BY sortby_list(L). { A = L; }

%type sortby_list {List *}
sortby_list(A) ::= sortby(X).                       { A = parse__list1(pctx, X); }
sortby_list(A) ::= sortby_list(L) COMMA sortby(X).  { A = parse__list_append(pctx, L, X); }

sortby(A) ::= a_expr(E) opt_asc_desc(D) opt_nulls_order(N). { A = parse__sortby(pctx, E, D, N); }
sortby(A) ::= a_expr(E) USING qual_all_op(O) opt_nulls_order(N). { A = parse__sortby_using(pctx, E, &O, N); }

%type opt_asc_desc {SortByDir}
opt_asc_desc(A) ::= ASC.    { A = SORTBY_ASC; }
opt_asc_desc(A) ::= DESC.   { A = SORTBY_DESC; }
opt_asc_desc(A) ::= .       { A = SORTBY_DEFAULT; }

%type opt_nulls_order {SortByNulls}
opt_nulls_order(A) ::= NULLS_LA FIRST.   { A = SORTBY_NULLS_FIRST; }
opt_nulls_order(A) ::= NULLS_LA LAST.    { A = SORTBY_NULLS_LAST; }
opt_nulls_order(A) ::= .              { A = SORTBY_NULLS_DEFAULT; }

%type select_limit {ParseLimit}
select_limit(A) ::= limit_clause(L) offset_clause(O). { A = parse__limit(L, true, O, true); }
select_limit(A) ::= offset_clause(O) limit_clause(L). { A = parse__limit(L, true, O, true); }
select_limit(A) ::= limit_clause(L).                  { A = parse__limit(L, true, NULL, false); }
select_limit(A) ::= offset_clause(O).                 { A = parse__limit(NULL, false, O, true); }

%type opt_select_limit {ParseLimit}
opt_select_limit(A) ::= select_limit(L).  { A = L; }
opt_select_limit(A) ::= .                 { A = parse__limit(NULL, false, NULL, false); }

limit_clause(A) ::= LIMIT a_expr(E).    { A = E; }
limit_clause(A) ::= LIMIT ALL.          { A = NULL; }
limit_clause(A) ::= FETCH first_or_next c_expr(E) row_or_rows ONLY. { A = E; }
limit_clause(A) ::= FETCH(K) first_or_next row_or_rows ONLY.        { A = parse__const_one(pctx, K.offset); }
offset_clause(A) ::= OFFSET a_expr(E).  { A = E; }
offset_clause(A) ::= OFFSET c_expr(E) row_or_rows. { A = E; }

first_or_next ::= FIRST.
first_or_next ::= NEXT.
row_or_rows ::= ROW.
row_or_rows ::= ROWS.

/* FOR UPDATE / NO KEY UPDATE / SHARE / KEY SHARE [OF t, ...] [NOWAIT | SKIP LOCKED] */
%type opt_for_locking_clause {List *}
opt_for_locking_clause(A) ::= for_locking_clause(L).  { A = L; }
opt_for_locking_clause(A) ::= .                       { A = NULL; }

%type for_locking_clause {List *}
for_locking_clause(A) ::= for_locking_items(L).   { A = L; }
for_locking_clause(A) ::= FOR READ ONLY.          { A = NULL; }

%type for_locking_items {List *}
for_locking_items(A) ::= for_locking_item(X).                       { A = parse__list1(pctx, X); }
for_locking_items(A) ::= for_locking_items(L) for_locking_item(X).  { A = parse__list_append(pctx, L, X); }

for_locking_item(A) ::= for_locking_strength(S) locked_rels_list(R) opt_nowait_or_skip(W). { A = parse__locking(pctx, S, R, W); }

%type for_locking_strength {int}
for_locking_strength(A) ::= FOR UPDATE.         { A = LCS_FORUPDATE; }
for_locking_strength(A) ::= FOR NO KEY UPDATE.  { A = LCS_FORNOKEYUPDATE; }
for_locking_strength(A) ::= FOR SHARE.          { A = LCS_FORSHARE; }
for_locking_strength(A) ::= FOR KEY SHARE.      { A = LCS_FORKEYSHARE; }

%type locked_rels_list {List *}
locked_rels_list(A) ::= OF qualified_name_list(L).  { A = L; }
locked_rels_list(A) ::= .                           { A = NULL; }

%type opt_nowait_or_skip {int}
opt_nowait_or_skip(A) ::= NOWAIT.       { A = LockWaitError; }
opt_nowait_or_skip(A) ::= SKIP LOCKED.  { A = LockWaitSkip; }
opt_nowait_or_skip(A) ::= .             { A = LockWaitBlock; }

/* ---------------- INSERT / UPDATE / DELETE ---------------- */

insert_stmt(A) ::= opt_with_clause(W) INSERT(K) INTO insert_target(R) insert_rest(X) opt_on_conflict(C) returning_clause(RT). { A = parse__insert2(pctx, R, &X, W, C, RT, K.offset); }

insert_target(A) ::= qualified_name(R).               { A = R; }
insert_target(A) ::= qualified_name(R) AS colid(N).   { A = parse__range_set_alias(pctx, R, &N); }

%type insert_rest {ParseInsertRest}
insert_rest(A) ::= select_stmt(S).                          { A.cols = NULL; A.select = S; A.override = 0; }
insert_rest(A) ::= OVERRIDING override_kind(O) VALUE select_stmt(S). { A.cols = NULL; A.select = S; A.override = O; }
insert_rest(A) ::= LP insert_column_list(C) RP select_stmt(S). { A.cols = C; A.select = S; A.override = 0; }
insert_rest(A) ::= LP insert_column_list(C) RP OVERRIDING override_kind(O) VALUE select_stmt(S). { A.cols = C; A.select = S; A.override = O; }
insert_rest(A) ::= DEFAULT VALUES.                          { A.cols = NULL; A.select = NULL; A.override = 0; }

%type override_kind {int}
override_kind(A) ::= USER.      { A = OVERRIDING_USER_VALUE; }
override_kind(A) ::= SYSTEM.    { A = OVERRIDING_SYSTEM_VALUE; }

%type insert_column_list {List *}
insert_column_list(A) ::= colid(N). { A = parse__list1(pctx, parse__insert_col(pctx, &N)); }
insert_column_list(A) ::= insert_column_list(L) COMMA colid(N). { A = parse__list_append(pctx, L, parse__insert_col(pctx, &N)); }

opt_on_conflict(A) ::= ON(K) CONFLICT opt_conf_expr(I) DO UPDATE SET set_clause_list(L) where_clause(W). { A = parse__on_conflict(pctx, ONCONFLICT_UPDATE, I, L, W, K.offset); }
opt_on_conflict(A) ::= ON(K) CONFLICT opt_conf_expr(I) DO NOTHING. { A = parse__on_conflict(pctx, ONCONFLICT_NOTHING, I, NULL, NULL, K.offset); }
opt_on_conflict(A) ::= .  { A = NULL; }

opt_conf_expr(A) ::= LP(K) index_params(L) RP where_clause(W). { A = parse__infer(pctx, L, W, NULL, K.offset); }
opt_conf_expr(A) ::= ON(K) CONSTRAINT colid(N).                { A = parse__infer(pctx, NULL, NULL, N.str, K.offset); }
opt_conf_expr(A) ::= .                                         { A = NULL; }

%type returning_clause {List *}
returning_clause(A) ::= RETURNING target_list(L).   { A = L; }
returning_clause(A) ::= .                           { A = NULL; }

/* relation_expr [[AS] alias] spelled out: with an optional alias, SET (an
 * unreserved keyword) would fall back to ID and be taken as the alias. */
update_stmt(A) ::= opt_with_clause(W) UPDATE(K) relation_expr(R) SET set_clause_list(L) from_clause(F) where_clause(WH) returning_clause(RT). { A = parse__update(pctx, R, L, F, WH, RT, W, K.offset); }
update_stmt(A) ::= opt_with_clause(W) UPDATE(K) relation_expr(R) colid(N) SET set_clause_list(L) from_clause(F) where_clause(WH) returning_clause(RT). { A = parse__update(pctx, parse__range_set_alias(pctx, R, &N), L, F, WH, RT, W, K.offset); }
update_stmt(A) ::= opt_with_clause(W) UPDATE(K) relation_expr(R) AS colid(N) SET set_clause_list(L) from_clause(F) where_clause(WH) returning_clause(RT). { A = parse__update(pctx, parse__range_set_alias(pctx, R, &N), L, F, WH, RT, W, K.offset); }

relation_expr_opt_alias(A) ::= relation_expr(R).                 { A = R; }
relation_expr_opt_alias(A) ::= relation_expr(R) colid(N).        { A = parse__range_set_alias(pctx, R, &N); }
relation_expr_opt_alias(A) ::= relation_expr(R) AS colid(N).     { A = parse__range_set_alias(pctx, R, &N); }

%type set_clause_list {List *}
set_clause_list(A) ::= set_clause(L).                          { A = L; }
set_clause_list(A) ::= set_clause_list(L) COMMA set_clause(X). { A = parse__list_concat(pctx, L, X); }

%type set_clause {List *}
set_clause(A) ::= set_target(T) EQ a_expr(E).                      { A = parse__list1(pctx, parse__set_target_value(pctx, T, E)); }
set_clause(A) ::= LP set_target_list(L) RP EQ a_expr(E).           { A = parse__multi_assign(pctx, L, E); }

set_target(A) ::= colid(N) opt_indirection(I).     { A = parse__set_target(pctx, &N, I); }

%type set_target_list {List *}
set_target_list(A) ::= set_target(X).                          { A = parse__list1(pctx, X); }
set_target_list(A) ::= set_target_list(L) COMMA set_target(X). { A = parse__list_append(pctx, L, X); }

delete_stmt(A) ::= opt_with_clause(W) DELETE(K) FROM relation_expr_opt_alias(R) using_clause(U) where_clause(WH) returning_clause(RT). { A = parse__delete(pctx, R, U, WH, RT, W, K.offset); }

%type using_clause {List *}
using_clause(A) ::= USING from_list(L). { A = L; }
using_clause(A) ::= .                   { A = NULL; }

truncate_stmt(A) ::= TRUNCATE(K) opt_table relation_expr_list(L) opt_restart_seqs(R) opt_drop_behavior(B). { A = parse__truncate(pctx, L, R, B, K.offset); }

%type opt_restart_seqs {bool}
opt_restart_seqs(A) ::= CONTINUE IDENTITY.  { A = false; }
opt_restart_seqs(A) ::= RESTART IDENTITY.   { A = true; }
opt_restart_seqs(A) ::= .                   { A = false; }

/* ---------------- CREATE TABLE / DROP ---------------- */

create_stmt(A) ::= CREATE(K) opttemp(P) TABLE qualified_name(R) LP opt_table_elts(E) RP opt_with_params(O) on_commit(C). { A = parse__create2(pctx, R, E, false, P, O, C, K.offset); }
create_stmt(A) ::= CREATE(K) opttemp(P) TABLE IF NOT EXISTS qualified_name(R) LP opt_table_elts(E) RP opt_with_params(O) on_commit(C). { A = parse__create2(pctx, R, E, true, P, O, C, K.offset); }

create_as_stmt(A) ::= CREATE(K) opttemp(P) TABLE create_as_target(T) AS select_stmt(S) opt_with_data(D). { A = parse__create_as(pctx, T, P, S, D, false, OBJECT_TABLE, K.offset); }
create_as_stmt(A) ::= CREATE(K) opttemp(P) TABLE IF NOT EXISTS create_as_target(T) AS select_stmt(S) opt_with_data(D). { A = parse__create_as(pctx, T, P, S, D, true, OBJECT_TABLE, K.offset); }
create_as_stmt(A) ::= CREATE(K) MATERIALIZED VIEW create_mv_target(T) AS select_stmt(S) opt_with_data(D). { A = parse__create_as(pctx, T, 'p', S, D, false, OBJECT_MATVIEW, K.offset); }
create_as_stmt(A) ::= CREATE(K) MATERIALIZED VIEW IF NOT EXISTS create_mv_target(T) AS select_stmt(S) opt_with_data(D). { A = parse__create_as(pctx, T, 'p', S, D, true, OBJECT_MATVIEW, K.offset); }

/* PostgreSQL's create_as_target takes ON COMMIT, create_mv_target not. */
create_as_target(A) ::= qualified_name(R) opt_name_list(C) opt_with_params(O) on_commit(X). { A = parse__into_target(pctx, R, C, O, X); }
create_mv_target(A) ::= qualified_name(R) opt_name_list(C) opt_with_params(O). { A = parse__into_target(pctx, R, C, O, 0); }

%type opt_with_data {bool}
opt_with_data(A) ::= WITH DATA.     { A = false; }
opt_with_data(A) ::= WITH NO DATA.  { A = true; }
opt_with_data(A) ::= .              { A = false; }

%type opttemp {char}
opttemp(A) ::= opttemp_kw(T).   { A = T; }
opttemp(A) ::= .                { A = 'p'; }

%type opt_with_params {List *}
opt_with_params(A) ::= WITH reloptions(L).  { A = L; }
opt_with_params(A) ::= WITHOUT OIDS.        { A = NULL; }
opt_with_params(A) ::= .                    { A = NULL; }

%type reloptions {List *}
reloptions(A) ::= LP reloption_list(L) RP.  { A = L; }

%type reloption_list {List *}
reloption_list(A) ::= reloption_elem(X).                          { A = parse__list1(pctx, X); }
reloption_list(A) ::= reloption_list(L) COMMA reloption_elem(X).  { A = parse__list_append(pctx, L, X); }

reloption_elem(A) ::= collabel(N) EQ def_arg(V).                   { A = parse__defelem(pctx, NULL, &N, V); }
reloption_elem(A) ::= collabel(N).                                 { A = parse__defelem(pctx, NULL, &N, NULL); }
reloption_elem(A) ::= collabel(S) DOT collabel(N) EQ def_arg(V).   { A = parse__defelem(pctx, S.str, &N, V); }
reloption_elem(A) ::= collabel(S) DOT collabel(N).                 { A = parse__defelem(pctx, S.str, &N, NULL); }

def_arg(A) ::= collabel(K).     { A = parse__var_word(pctx, K.str, K.offset); }
def_arg(A) ::= SCONST(K).       { A = parse__const_string(pctx, &K); }
def_arg(A) ::= numeric_only(X). { A = X; }

%type on_commit {int}
on_commit(A) ::= ON COMMIT DROP.             { A = 3; }
on_commit(A) ::= ON COMMIT DELETE ROWS.      { A = 2; }
on_commit(A) ::= ON COMMIT PRESERVE ROWS.    { A = 1; }
on_commit(A) ::= .                           { A = 0; }

%type opt_table_elts {List *}
opt_table_elts(A) ::= table_elts(L).    { A = L; }
opt_table_elts(A) ::= .                 { A = NULL; }

%type table_elts {List *}
table_elts(A) ::= table_elt(X).                     { A = parse__list1(pctx, X); }
table_elts(A) ::= table_elts(L) COMMA table_elt(X). { A = parse__list_append(pctx, L, X); }

table_elt(A) ::= column_def(X).                         { A = X; }
table_elt(A) ::= table_constraint(X).                   { A = X; }

column_def(A) ::= colid(N) typename(T) col_qual_list(Q). { A = parse__column_def(pctx, &N, T, Q); }

%type col_qual_list {List *}
col_qual_list(A) ::= col_qual_list(L) col_constraint(X). { A = parse__list_append(pctx, L, X); }
col_qual_list(A) ::= .                                   { A = NULL; }

col_constraint(A) ::= CONSTRAINT(K) colid(N) col_constraint_elem(C). { A = parse__constraint_name(pctx, C, &N, K.offset); }
col_constraint(A) ::= col_constraint_elem(C).       { A = C; }
col_constraint(A) ::= COLLATE(K) any_name(N).       { A = parse__constraint_collate(pctx, N, K.offset); }

col_constraint_elem(A) ::= NOT(K) NULL.             { A = parse__constraint(pctx, CONSTR_NOTNULL, NULL, NULL, K.offset); }
col_constraint_elem(A) ::= NULL(K).                 { A = parse__constraint(pctx, CONSTR_NULL, NULL, NULL, K.offset); }
col_constraint_elem(A) ::= UNIQUE(K).               { A = parse__constraint(pctx, CONSTR_UNIQUE, NULL, NULL, K.offset); }
col_constraint_elem(A) ::= PRIMARY(K) KEY.          { A = parse__constraint(pctx, CONSTR_PRIMARY, NULL, NULL, K.offset); }
col_constraint_elem(A) ::= CHECK(K) LP(P) a_expr(E) RP(Q). { A = parse__constraint_check(pctx, E, P.offset, Q.offset, K.offset); }
col_constraint_elem(A) ::= DEFAULT(K) b_expr(E).    { A = parse__constraint_default(pctx, E, K.offset + K.len); }
col_constraint_elem(A) ::= GENERATED(K) generated_when(W) AS IDENTITY opt_paren_seq_opts(O). { A = parse__constraint_identity(pctx, (char)W.ival, O, K.offset); }
col_constraint_elem(A) ::= GENERATED(K) generated_when(W) AS LP(P) a_expr(E) RP(Q) STORED. { A = parse__constraint_generated(pctx, &W, E, P.offset, Q.offset, K.offset); }
col_constraint_elem(A) ::= REFERENCES(K) qualified_name(R) opt_name_list(C) key_match(M) key_actions(X). { A = parse__constraint_fk(pctx, NULL, R, C, M, X, K.offset); }

/* the token, with ival 'a' (ALWAYS) or 'd' (BY DEFAULT) */
%type generated_when {ParseToken}
generated_when(A) ::= ALWAYS(K).       { A = K; A.ival = 'a'; }
generated_when(A) ::= BY(K) DEFAULT.   { A = K; A.ival = 'd'; }

%type opt_paren_seq_opts {List *}
opt_paren_seq_opts(A) ::= LP seq_opt_list(L) RP.  { A = L; }
opt_paren_seq_opts(A) ::= .                       { A = NULL; }

%type key_match {char}
key_match(A) ::= MATCH FULL.     { A = 'f'; }
key_match(A) ::= MATCH PARTIAL.  { A = 'p'; }
key_match(A) ::= MATCH SIMPLE.   { A = 's'; }
key_match(A) ::= .               { A = 's'; }

/* (update action << 8) | delete action */
%type key_actions {int}
key_actions(A) ::= key_update(U).                 { A = (U << 8) | 'a'; }
key_actions(A) ::= key_delete(D).                 { A = ('a' << 8) | D; }
key_actions(A) ::= key_update(U) key_delete(D).   { A = (U << 8) | D; }
key_actions(A) ::= key_delete(D) key_update(U).   { A = (U << 8) | D; }
key_actions(A) ::= .                              { A = ('a' << 8) | 'a'; }

%type key_update {int}
key_update(A) ::= ON UPDATE key_action(X).   { A = X; }
%type key_delete {int}
key_delete(A) ::= ON DELETE key_action(X).   { A = X; }

%type key_action {int}
key_action(A) ::= NO ACTION.     { A = 'a'; }
key_action(A) ::= RESTRICT.      { A = 'r'; }
key_action(A) ::= CASCADE.       { A = 'c'; }
key_action(A) ::= SET NULL.      { A = 'n'; }
key_action(A) ::= SET DEFAULT.   { A = 'd'; }

table_constraint(A) ::= CONSTRAINT(K) colid(N) constraint_elem(C). { A = parse__constraint_name(pctx, C, &N, K.offset); }
table_constraint(A) ::= constraint_elem(C).         { A = C; }

constraint_elem(A) ::= CHECK(K) LP(P) a_expr(E) RP(Q).      { A = parse__constraint_check(pctx, E, P.offset, Q.offset, K.offset); }
constraint_elem(A) ::= UNIQUE(K) LP name_list(L) RP.        { A = parse__constraint(pctx, CONSTR_UNIQUE, NULL, L, K.offset); }
constraint_elem(A) ::= PRIMARY(K) KEY LP name_list(L) RP.   { A = parse__constraint(pctx, CONSTR_PRIMARY, NULL, L, K.offset); }
constraint_elem(A) ::= FOREIGN(K) KEY LP name_list(F) RP REFERENCES qualified_name(R) opt_name_list(C) key_match(M) key_actions(X). { A = parse__constraint_fk(pctx, F, R, C, M, X, K.offset); }

/* DROP TABLE|SEQUENCE|VIEW|MATERIALIZED VIEW|INDEX [CONCURRENTLY] [IF EXISTS] names [CASCADE|RESTRICT] */
drop_stmt(A) ::= DROP(K) drop_rel_type(T) IF EXISTS qualified_name_list(L) opt_drop_behavior(B). { A = parse__drop2(pctx, T, L, true, B, false, K.offset); }
drop_stmt(A) ::= DROP(K) drop_rel_type(T) qualified_name_list(L) opt_drop_behavior(B).           { A = parse__drop2(pctx, T, L, false, B, false, K.offset); }
drop_stmt(A) ::= DROP(K) INDEX CONCURRENTLY IF EXISTS qualified_name_list(L) opt_drop_behavior(B). { A = parse__drop2(pctx, OBJECT_INDEX, L, true, B, true, K.offset); }
drop_stmt(A) ::= DROP(K) INDEX CONCURRENTLY qualified_name_list(L) opt_drop_behavior(B).         { A = parse__drop2(pctx, OBJECT_INDEX, L, false, B, true, K.offset); }
drop_stmt(A) ::= DROP(K) drop_name_type(T) IF EXISTS name_list(L) opt_drop_behavior(B). { A = parse__drop_names(pctx, T, L, true, B, K.offset); }
drop_stmt(A) ::= DROP(K) drop_name_type(T) name_list(L) opt_drop_behavior(B).           { A = parse__drop_names(pctx, T, L, false, B, K.offset); }

%type drop_rel_type {ObjectType}
drop_rel_type(A) ::= TABLE.              { A = OBJECT_TABLE; }
drop_rel_type(A) ::= SEQUENCE.           { A = OBJECT_SEQUENCE; }
drop_rel_type(A) ::= VIEW.               { A = OBJECT_VIEW; }
drop_rel_type(A) ::= MATERIALIZED VIEW.  { A = OBJECT_MATVIEW; }
drop_rel_type(A) ::= INDEX.              { A = OBJECT_INDEX; }
drop_rel_type(A) ::= TYPE.               { A = OBJECT_TYPE; }

%type drop_name_type {ObjectType}
drop_name_type(A) ::= SCHEMA.     { A = OBJECT_SCHEMA; }
drop_name_type(A) ::= EXTENSION.  { A = OBJECT_EXTENSION; }

%type qualified_name_list {List *}
qualified_name_list(A) ::= qualified_name(X).                             { A = parse__list1(pctx, X); }
qualified_name_list(A) ::= qualified_name_list(L) COMMA qualified_name(X). { A = parse__list_append(pctx, L, X); }

%type opt_drop_behavior {bool}
opt_drop_behavior(A) ::= CASCADE.   { A = true; }
opt_drop_behavior(A) ::= RESTRICT.  { A = false; }
opt_drop_behavior(A) ::= .          { A = false; }

%type any_name {List *}
any_name(A) ::= colid(N).                   { A = parse__list1(pctx, (void *)N.str); }
any_name(A) ::= any_name(L) DOT collabel(N). { A = parse__list_append(pctx, L, (void *)N.str); }

/* ---------------- transactions ---------------- */

transaction_stmt(A) ::= BEGIN(K) opt_transaction opt_transaction_modes(M). { A = parse__transaction(pctx, TRANS_STMT_BEGIN, M, K.offset); }
transaction_stmt(A) ::= START(K) TRANSACTION opt_transaction_modes(M).     { A = parse__transaction(pctx, TRANS_STMT_BEGIN, M, K.offset); }
transaction_stmt(A) ::= COMMIT(K) opt_transaction opt_chain(C).   { A = parse__transaction_chain(pctx, TRANS_STMT_COMMIT, C, K.offset); }
transaction_stmt(A) ::= END(K) opt_transaction opt_chain(C).      { A = parse__transaction_chain(pctx, TRANS_STMT_COMMIT, C, K.offset); }
transaction_stmt(A) ::= ROLLBACK(K) opt_transaction opt_chain(C). { A = parse__transaction_chain(pctx, TRANS_STMT_ROLLBACK, C, K.offset); }
transaction_stmt(A) ::= ABORT(K) opt_transaction opt_chain(C).    { A = parse__transaction_chain(pctx, TRANS_STMT_ROLLBACK, C, K.offset); }

%type opt_chain {bool}
opt_chain(A) ::= AND CHAIN.      { A = true; }
opt_chain(A) ::= AND NO CHAIN.   { A = false; }
opt_chain(A) ::= .               { A = false; }

savepoint_stmt(A) ::= SAVEPOINT(K) colid(N).                { A = parse__savepoint(pctx, SAVEPOINT_DEFINE, &N, K.offset); }
savepoint_stmt(A) ::= RELEASE(K) SAVEPOINT colid(N).        { A = parse__savepoint(pctx, SAVEPOINT_RELEASE, &N, K.offset); }
savepoint_stmt(A) ::= RELEASE(K) colid(N).                  { A = parse__savepoint(pctx, SAVEPOINT_RELEASE, &N, K.offset); }
savepoint_stmt(A) ::= ROLLBACK(K) opt_transaction TO SAVEPOINT colid(N). { A = parse__savepoint(pctx, SAVEPOINT_ROLLBACK_TO, &N, K.offset); }
savepoint_stmt(A) ::= ROLLBACK(K) opt_transaction TO colid(N).           { A = parse__savepoint(pctx, SAVEPOINT_ROLLBACK_TO, &N, K.offset); }
savepoint_stmt(A) ::= ABORT(K) opt_transaction TO SAVEPOINT colid(N).    { A = parse__savepoint(pctx, SAVEPOINT_ROLLBACK_TO, &N, K.offset); }
savepoint_stmt(A) ::= ABORT(K) opt_transaction TO colid(N).              { A = parse__savepoint(pctx, SAVEPOINT_ROLLBACK_TO, &N, K.offset); }

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
variable_set_stmt(A) ::= RESET(K) TRANSACTION ISOLATION LEVEL. { A = parse__set(pctx, VAR_RESET, "transaction_isolation", NULL, K.offset); }
variable_set_stmt(A) ::= RESET(K) SESSION AUTHORIZATION. { A = parse__set(pctx, VAR_RESET, "session_authorization", NULL, K.offset); }
variable_set_stmt(A) ::= RESET(K) ALL.              { A = parse__set(pctx, VAR_RESET_ALL, NULL, NULL, K.offset); }

set_rest(A) ::= var_name(N) TO(K) var_list(L).      { A = parse__set(pctx, VAR_SET_VALUE, N, L, K.offset); }
set_rest(A) ::= var_name(N) EQ(K) var_list(L).      { A = parse__set(pctx, VAR_SET_VALUE, N, L, K.offset); }
set_rest(A) ::= var_name(N) TO(K) DEFAULT.          { A = parse__set(pctx, VAR_SET_DEFAULT, N, NULL, K.offset); }
set_rest(A) ::= var_name(N) EQ(K) DEFAULT.          { A = parse__set(pctx, VAR_SET_DEFAULT, N, NULL, K.offset); }
set_rest(A) ::= TIME(K) ZONE zone_value(V).         { A = parse__set(pctx, VAR_SET_VALUE, "timezone", parse__list1(pctx, V), K.offset); }
set_rest(A) ::= TIME(K) ZONE DEFAULT.               { A = parse__set(pctx, VAR_SET_DEFAULT, "timezone", NULL, K.offset); }
set_rest(A) ::= TIME(K) ZONE LOCAL.                 { A = parse__set(pctx, VAR_SET_DEFAULT, "timezone", NULL, K.offset); }
set_rest(A) ::= TRANSACTION(K) transaction_modes(M). { A = parse__set_transaction(pctx, "transaction_", M, K.offset); }
set_rest(A) ::= SESSION(K) CHARACTERISTICS AS TRANSACTION transaction_modes(M). { A = parse__set_transaction(pctx, "default_transaction_", M, K.offset); }
set_rest(A) ::= NAMES(K) SCONST(V).                 { A = parse__set(pctx, VAR_SET_VALUE, "client_encoding", parse__list1(pctx, parse__const_string(pctx, &V)), K.offset); }
set_rest(A) ::= NAMES(K) DEFAULT.                   { A = parse__set(pctx, VAR_SET_DEFAULT, "client_encoding", NULL, K.offset); }
set_rest(A) ::= SCHEMA(K) SCONST(V).                { A = parse__set(pctx, VAR_SET_VALUE, "search_path", parse__list1(pctx, parse__const_string(pctx, &V)), K.offset); }
set_rest(A) ::= ROLE(K) var_value(V).               { A = parse__set(pctx, VAR_SET_VALUE, "role", parse__list1(pctx, V), K.offset); }
set_rest(A) ::= SESSION(K) AUTHORIZATION var_value(V). { A = parse__set(pctx, VAR_SET_VALUE, "session_authorization", parse__list1(pctx, V), K.offset); }
set_rest(A) ::= SESSION(K) AUTHORIZATION DEFAULT.   { A = parse__set(pctx, VAR_SET_DEFAULT, "session_authorization", NULL, K.offset); }

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

/* ---------------- EXPLAIN ---------------- */

explain_stmt(A) ::= EXPLAIN(K) explainable_stmt(S).                  { A = parse__explain(pctx, S, false, false, K.offset); }
explain_stmt(A) ::= EXPLAIN(K) ANALYZE explainable_stmt(S).          { A = parse__explain(pctx, S, true, false, K.offset); }
explain_stmt(A) ::= EXPLAIN(K) ANALYZE VERBOSE explainable_stmt(S).  { A = parse__explain(pctx, S, true, true, K.offset); }
explain_stmt(A) ::= EXPLAIN(K) VERBOSE explainable_stmt(S).          { A = parse__explain(pctx, S, false, true, K.offset); }
explain_stmt(A) ::= EXPLAIN(K) LP utility_option_list(O) RP explainable_stmt(S). { A = parse__explain_opts(pctx, S, O, K.offset); }

/* PostgreSQL's utility_option_list (EXPLAIN, VACUUM, ANALYZE): name [value] */
%type utility_option_list {List *}
utility_option_list(A) ::= utility_option_elem(X).                              { A = parse__list1(pctx, X); }
utility_option_list(A) ::= utility_option_list(L) COMMA utility_option_elem(X). { A = parse__list_append(pctx, L, X); }

utility_option_elem(A) ::= utility_option_name(N) utility_option_arg(V).  { A = parse__defelem(pctx, NULL, &N, V); }

%type utility_option_name {ParseToken}
utility_option_name(A) ::= ID(N).       { A = N; }
utility_option_name(A) ::= ANALYZE(N).  { A = N; A.str = "analyze"; }
utility_option_name(A) ::= VERBOSE(N).  { A = N; }
utility_option_name(A) ::= FULL(N).     { A = N; }
utility_option_name(A) ::= FREEZE(N).   { A = N; }

utility_option_arg(A) ::= ID(K).          { A = parse__var_word(pctx, K.str, K.offset); }
utility_option_arg(A) ::= TRUE(K).        { A = parse__var_word(pctx, "true", K.offset); }
utility_option_arg(A) ::= FALSE(K).       { A = parse__var_word(pctx, "false", K.offset); }
utility_option_arg(A) ::= ON(K).          { A = parse__var_word(pctx, "on", K.offset); }
utility_option_arg(A) ::= SCONST(K).      { A = parse__const_string(pctx, &K); }
utility_option_arg(A) ::= numeric_only(X). { A = X; }
utility_option_arg(A) ::= .               { A = NULL; }

explainable_stmt(A) ::= select_stmt(X). { A = X; }
explainable_stmt(A) ::= insert_stmt(X). { A = X; }
explainable_stmt(A) ::= update_stmt(X). { A = X; }
explainable_stmt(A) ::= delete_stmt(X). { A = X; }
explainable_stmt(A) ::= create_as_stmt(X). { A = X; }
explainable_stmt(A) ::= execute_stmt(X). { A = X; }
explainable_stmt(A) ::= declare_cursor_stmt(X). { A = X; }

/* ---------------- roles ---------------- */

alter_role_stmt(A) ::= ALTER(K) role_or_user colid(N) opt_with alter_role_opts(O). { A = parse__alter_role2(pctx, &N, O, K.offset); }
alter_role_stmt(A) ::= ALTER(K) role_or_user colid(N) RENAME TO colid(M). { A = parse__rename_name(pctx, OBJECT_ROLE, &N, &M, K.offset); }

%type alter_role_opts {List *}
alter_role_opts(A) ::= role_opt(X).                     { A = parse__list1(pctx, X); }
alter_role_opts(A) ::= alter_role_opts(L) role_opt(X).  { A = parse__list_append(pctx, L, X); }

%type opt_role_opts {List *}
opt_role_opts(A) ::= alter_role_opts(L). { A = L; }
opt_role_opts(A) ::= .                   { A = NULL; }

role_opt(A) ::= PASSWORD(K) SCONST(P).             { A = parse__role_opt_str(pctx, "password", &P, K.offset); }
role_opt(A) ::= PASSWORD(K) NULL.                  { A = parse__role_opt_str(pctx, "password", NULL, K.offset); }
role_opt(A) ::= ENCRYPTED(K) PASSWORD SCONST(P).   { A = parse__role_opt_str(pctx, "password", &P, K.offset); }
role_opt(A) ::= CONNECTION(K) LIMIT numeric_only(V). { A = parse__role_opt_node(pctx, "connectionlimit", V, K.offset); }
role_opt(A) ::= VALID(K) UNTIL SCONST(P).          { A = parse__role_opt_str(pctx, "validUntil", &P, K.offset); }
role_opt(A) ::= INHERIT(K).                        { A = parse__role_opt_node(pctx, "inherit", parse__const_bool(pctx, true, K.offset), K.offset); }
role_opt(A) ::= ID(K).                             { A = parse__role_opt_word(pctx, &K); }
role_opt(A) ::= IN(K) ROLE name_list(L).           { A = parse__defelem_list(pctx, "addroleto", L, K.offset); }
role_opt(A) ::= IN(K) GROUP name_list(L).          { A = parse__defelem_list(pctx, "addroleto", L, K.offset); }
role_opt(A) ::= ROLE(K) name_list(L).              { A = parse__defelem_list(pctx, "rolemembers", L, K.offset); }
role_opt(A) ::= ADMIN(K) name_list(L).             { A = parse__defelem_list(pctx, "adminmembers", L, K.offset); }
role_opt(A) ::= USER(K) name_list(L).              { A = parse__defelem_list(pctx, "rolemembers", L, K.offset); }

%type role_or_user {int}
role_or_user(A) ::= ROLE.   { A = ROLESTMT_ROLE; }
role_or_user(A) ::= USER.   { A = ROLESTMT_USER; }
role_or_user(A) ::= GROUP.  { A = ROLESTMT_GROUP; }
opt_with ::= WITH.
opt_with ::= .

create_role_stmt(A) ::= CREATE(K) role_or_user(T) colid(N) opt_with opt_role_opts(O). { A = parse__create_role(pctx, T, &N, O, K.offset); }

drop_role_stmt(A) ::= DROP(K) role_or_user IF EXISTS name_list(L). { A = parse__drop_role(pctx, L, true, K.offset); }
drop_role_stmt(A) ::= DROP(K) role_or_user name_list(L).           { A = parse__drop_role(pctx, L, false, K.offset); }

/* ---------------- ALTER TABLE / RENAME ---------------- */

alter_table_stmt(A) ::= ALTER(K) alter_rel_type(T) relation_expr(R) alter_table_cmds(C).           { A = parse__alter_table(pctx, T, R, C, false, K.offset); }
alter_table_stmt(A) ::= ALTER(K) alter_rel_type(T) IF EXISTS relation_expr(R) alter_table_cmds(C). { A = parse__alter_table(pctx, T, R, C, true, K.offset); }

%type alter_rel_type {ObjectType}
alter_rel_type(A) ::= TABLE.   { A = OBJECT_TABLE; }
alter_rel_type(A) ::= INDEX.   { A = OBJECT_INDEX; }
alter_rel_type(A) ::= VIEW.    { A = OBJECT_VIEW; }
alter_rel_type(A) ::= MATERIALIZED VIEW. { A = OBJECT_MATVIEW; }

%type alter_table_cmds {List *}
alter_table_cmds(A) ::= alter_table_cmd(X).                          { A = parse__list1(pctx, X); }
alter_table_cmds(A) ::= alter_table_cmds(L) COMMA alter_table_cmd(X). { A = parse__list_append(pctx, L, X); }

alter_table_cmd(A) ::= ADD(K) opt_column column_def(D).                   { A = parse__at_cmd(pctx, AT_AddColumn, NULL, D, false, false, K.offset); }
alter_table_cmd(A) ::= ADD(K) opt_column IF NOT EXISTS column_def(D).     { A = parse__at_cmd(pctx, AT_AddColumn, NULL, D, false, true, K.offset); }
alter_table_cmd(A) ::= ADD(K) table_constraint(D).                        { A = parse__at_cmd(pctx, AT_AddConstraint, NULL, D, false, false, K.offset); }
alter_table_cmd(A) ::= DROP(K) opt_column colid(N) opt_drop_behavior(B).  { A = parse__at_cmd(pctx, AT_DropColumn, N.str, NULL, B, false, K.offset); }
alter_table_cmd(A) ::= DROP(K) opt_column IF EXISTS colid(N) opt_drop_behavior(B). { A = parse__at_cmd(pctx, AT_DropColumn, N.str, NULL, B, true, K.offset); }
alter_table_cmd(A) ::= DROP(K) CONSTRAINT colid(N) opt_drop_behavior(B).  { A = parse__at_cmd(pctx, AT_DropConstraint, N.str, NULL, B, false, K.offset); }
alter_table_cmd(A) ::= DROP(K) CONSTRAINT IF EXISTS colid(N) opt_drop_behavior(B). { A = parse__at_cmd(pctx, AT_DropConstraint, N.str, NULL, B, true, K.offset); }
alter_table_cmd(A) ::= ALTER(K) opt_column colid(N) SET DEFAULT a_expr(E). { A = parse__at_cmd(pctx, AT_ColumnDefault, N.str, E, false, false, K.offset); }
alter_table_cmd(A) ::= ALTER(K) opt_column colid(N) DROP DEFAULT.          { A = parse__at_cmd(pctx, AT_ColumnDefault, N.str, NULL, false, false, K.offset); }
alter_table_cmd(A) ::= ALTER(K) opt_column colid(N) SET NOT NULL.          { A = parse__at_cmd(pctx, AT_SetNotNull, N.str, NULL, false, false, K.offset); }
alter_table_cmd(A) ::= ALTER(K) opt_column colid(N) DROP NOT NULL.         { A = parse__at_cmd(pctx, AT_DropNotNull, N.str, NULL, false, false, K.offset); }
alter_table_cmd(A) ::= ALTER(K) opt_column colid(N) opt_set_data TYPE typename(T) opt_using(U). { A = parse__at_type(pctx, &N, T, U, K.offset); }
alter_table_cmd(A) ::= ALTER(K) opt_column colid(N) ADD GENERATED generated_when(W) AS IDENTITY opt_paren_seq_opts(O). { A = parse__at_cmd(pctx, AT_AddIdentity, N.str, parse__constraint_identity(pctx, (char)W.ival, O, K.offset), false, false, K.offset); }
alter_table_cmd(A) ::= OWNER(K) TO colid(N).                              { A = parse__at_cmd(pctx, AT_ChangeOwner, N.str, NULL, false, false, K.offset); }
alter_table_cmd(A) ::= SET(K) reloptions(L).                              { A = parse__at_options(pctx, L, K.offset); }

opt_column ::= COLUMN.
opt_column ::= .
opt_set_data ::= SET DATA.
opt_set_data ::= .
opt_using(A) ::= USING a_expr(E).  { A = E; }
opt_using(A) ::= .                 { A = NULL; }

rename_stmt(A) ::= ALTER(K) alter_rel_type(T) relation_expr(R) RENAME TO colid(N).            { A = parse__rename(pctx, T, T, R, NULL, &N, false, K.offset); }
rename_stmt(A) ::= ALTER(K) alter_rel_type(T) IF EXISTS relation_expr(R) RENAME TO colid(N).  { A = parse__rename(pctx, T, T, R, NULL, &N, true, K.offset); }
rename_stmt(A) ::= ALTER(K) alter_rel_type(T) relation_expr(R) RENAME opt_column colid(O) TO colid(N). { A = parse__rename(pctx, OBJECT_COLUMN, T, R, &O, &N, false, K.offset); }
rename_stmt(A) ::= ALTER(K) alter_rel_type(T) IF EXISTS relation_expr(R) RENAME opt_column colid(O) TO colid(N). { A = parse__rename(pctx, OBJECT_COLUMN, T, R, &O, &N, true, K.offset); }
rename_stmt(A) ::= ALTER(K) alter_rel_type(T) relation_expr(R) RENAME CONSTRAINT colid(O) TO colid(N). { A = parse__rename(pctx, OBJECT_TABCONSTRAINT, T, R, &O, &N, false, K.offset); }
rename_stmt(A) ::= ALTER(K) SEQUENCE relation_expr(R) RENAME TO colid(N).   { A = parse__rename(pctx, OBJECT_SEQUENCE, OBJECT_SEQUENCE, R, NULL, &N, false, K.offset); }
rename_stmt(A) ::= ALTER(K) SCHEMA colid(O) RENAME TO colid(N).     { A = parse__rename_name(pctx, OBJECT_SCHEMA, &O, &N, K.offset); }
rename_stmt(A) ::= ALTER(K) DATABASE colid(O) RENAME TO colid(N).   { A = parse__rename_name(pctx, OBJECT_DATABASE, &O, &N, K.offset); }

/* ---------------- COPY ---------------- */

copy_stmt(A) ::= COPY(K) opt_binary(B) qualified_name(R) opt_name_list(C) copy_from(F) opt_program(P) copy_file_name(N) copy_delimiter(D) opt_with copy_options(O). { A = parse__copy(pctx, R, NULL, C, F, P, &N, parse__copy_opts(pctx, B, D, O), NULL, K.offset); }
copy_stmt(A) ::= COPY(K) opt_binary(B) qualified_name(R) opt_name_list(C) copy_from(F) opt_program(P) copy_file_name(N) copy_delimiter(D) opt_with copy_options(O) WHERE(WK) a_expr(W). { A = parse__copy_where(pctx, parse__copy(pctx, R, NULL, C, F, P, &N, parse__copy_opts(pctx, B, D, O), W, K.offset), WK.offset); }
copy_stmt(A) ::= COPY(K) LP preparable_stmt(S) RP TO opt_program(P) copy_file_name(N) opt_with copy_options(O). { A = parse__copy(pctx, NULL, S, NULL, false, P, &N, O, NULL, K.offset); }

%type opt_binary {bool}
opt_binary(A) ::= BINARY.   { A = true; }
opt_binary(A) ::= .         { A = false; }

%type copy_from {bool}
copy_from(A) ::= FROM.  { A = true; }
copy_from(A) ::= TO.    { A = false; }

%type opt_program {bool}
opt_program(A) ::= PROGRAM. { A = true; }
opt_program(A) ::= .        { A = false; }

%type copy_file_name {ParseToken}
copy_file_name(A) ::= SCONST(K).  { A = K; }
copy_file_name(A) ::= STDIN(K).   { A = K; A.code = 0; }
copy_file_name(A) ::= STDOUT(K).  { A = K; A.code = 0; }

copy_delimiter(A) ::= opt_using_kw DELIMITERS(K) SCONST(S). { A = parse__defelem_str(pctx, "delimiter", &S, K.offset); }
copy_delimiter(A) ::= .                                  { A = NULL; }
opt_using_kw ::= USING.
opt_using_kw ::= .

%type copy_options {List *}
copy_options(A) ::= copy_opt_list(L).                       { A = L; }
copy_options(A) ::= LP copy_generic_opt_list(L) RP.         { A = L; }

%type copy_opt_list {List *}
copy_opt_list(A) ::= copy_opt_list(L) copy_opt_item(X).     { A = parse__list_append(pctx, L, X); }
copy_opt_list(A) ::= .                                      { A = NULL; }

copy_opt_item(A) ::= BINARY(K).                     { A = parse__defelem_word(pctx, "format", "binary", K.offset); }
copy_opt_item(A) ::= FREEZE(K).                     { A = parse__defelem_node(pctx, "freeze", parse__const_bool(pctx, true, K.offset), K.offset); }
copy_opt_item(A) ::= DELIMITER(K) opt_as SCONST(S). { A = parse__defelem_str(pctx, "delimiter", &S, K.offset); }
copy_opt_item(A) ::= NULL(K) opt_as SCONST(S).      { A = parse__defelem_str(pctx, "null", &S, K.offset); }
copy_opt_item(A) ::= CSV(K).                        { A = parse__defelem_word(pctx, "format", "csv", K.offset); }
copy_opt_item(A) ::= HEADER(K).                     { A = parse__defelem_node(pctx, "header", parse__const_bool(pctx, true, K.offset), K.offset); }
copy_opt_item(A) ::= QUOTE(K) opt_as SCONST(S).     { A = parse__defelem_str(pctx, "quote", &S, K.offset); }
copy_opt_item(A) ::= ESCAPE(K) opt_as SCONST(S).    { A = parse__defelem_str(pctx, "escape", &S, K.offset); }
copy_opt_item(A) ::= FORCE(K) QUOTE name_list(L).   { A = parse__defelem_list(pctx, "force_quote", L, K.offset); }
copy_opt_item(A) ::= FORCE(K) QUOTE STAR(S).        { A = parse__defelem_node(pctx, "force_quote", parse__a_star(pctx, S.offset), K.offset); }
copy_opt_item(A) ::= FORCE(K) NOT NULL name_list(L). { A = parse__defelem_list(pctx, "force_not_null", L, K.offset); }
copy_opt_item(A) ::= FORCE(K) NULL name_list(L).    { A = parse__defelem_list(pctx, "force_null", L, K.offset); }
copy_opt_item(A) ::= ENCODING(K) SCONST(S).         { A = parse__defelem_str(pctx, "encoding", &S, K.offset); }

opt_as ::= AS.
opt_as ::= .

%type copy_generic_opt_list {List *}
copy_generic_opt_list(A) ::= copy_generic_opt_elem(X).                                { A = parse__list1(pctx, X); }
copy_generic_opt_list(A) ::= copy_generic_opt_list(L) COMMA copy_generic_opt_elem(X).  { A = parse__list_append(pctx, L, X); }

copy_generic_opt_elem(A) ::= collabel(N) copy_generic_opt_arg(V).  { A = parse__defelem(pctx, NULL, &N, V); }
copy_generic_opt_elem(A) ::= collabel(N) LP name_list(L) RP.       { A = parse__defelem_list(pctx, N.str, L, N.offset); }

copy_generic_opt_arg(A) ::= collabel(K).          { A = parse__var_word(pctx, K.str, K.offset); }
copy_generic_opt_arg(A) ::= SCONST(K).            { A = parse__const_string(pctx, &K); }
copy_generic_opt_arg(A) ::= numeric_only(X).      { A = X; }
copy_generic_opt_arg(A) ::= STAR(S).              { A = parse__a_star(pctx, S.offset); }
copy_generic_opt_arg(A) ::= .                     { A = NULL; }

/* ---------------- databases, schemas ---------------- */

createdb_stmt(A) ::= CREATE(K) DATABASE colid(N) opt_with createdb_opt_list(O). { A = parse__createdb(pctx, &N, O, K.offset); }

%type createdb_opt_list {List *}
createdb_opt_list(A) ::= createdb_opt_list(L) createdb_opt_item(X). { A = parse__list_append(pctx, L, X); }
createdb_opt_list(A) ::= .                                          { A = NULL; }

createdb_opt_item(A) ::= createdb_opt_name(N) opt_equal createdb_opt_value(V). { A = parse__defelem(pctx, NULL, &N, V); }

%type createdb_opt_name {ParseToken}
createdb_opt_name(A) ::= ID(N).                     { A = N; }
createdb_opt_name(A) ::= CONNECTION(N) LIMIT.       { A = N; A.str = "connection_limit"; }
createdb_opt_name(A) ::= ENCODING(N).               { A = N; }
createdb_opt_name(A) ::= OWNER(N).                  { A = N; }
createdb_opt_name(A) ::= TEMPLATE(N).               { A = N; }

createdb_opt_value(A) ::= ID(K).          { A = parse__var_word(pctx, K.str, K.offset); }
createdb_opt_value(A) ::= SCONST(K).      { A = parse__const_string(pctx, &K); }
createdb_opt_value(A) ::= numeric_only(X). { A = X; }
createdb_opt_value(A) ::= TRUE(K).        { A = parse__var_word(pctx, "true", K.offset); }
createdb_opt_value(A) ::= FALSE(K).       { A = parse__var_word(pctx, "false", K.offset); }
createdb_opt_value(A) ::= ON(K).          { A = parse__var_word(pctx, "on", K.offset); }
createdb_opt_value(A) ::= DEFAULT.        { A = NULL; }

opt_equal ::= EQ.
opt_equal ::= .

dropdb_stmt(A) ::= DROP(K) DATABASE colid(N) opt_drop_force(F).           { A = parse__dropdb(pctx, &N, false, F, K.offset); }
dropdb_stmt(A) ::= DROP(K) DATABASE IF EXISTS colid(N) opt_drop_force(F). { A = parse__dropdb(pctx, &N, true, F, K.offset); }

%type opt_drop_force {bool}
opt_drop_force(A) ::= opt_with LP FORCE RP.   { A = true; }
opt_drop_force(A) ::= .                       { A = false; }

create_schema_stmt(A) ::= CREATE(K) SCHEMA colid(N).                               { A = parse__create_schema(pctx, &N, NULL, false, K.offset); }
create_schema_stmt(A) ::= CREATE(K) SCHEMA colid(N) AUTHORIZATION colid(R).        { A = parse__create_schema(pctx, &N, &R, false, K.offset); }
create_schema_stmt(A) ::= CREATE(K) SCHEMA AUTHORIZATION colid(R).                 { A = parse__create_schema(pctx, NULL, &R, false, K.offset); }
create_schema_stmt(A) ::= CREATE(K) SCHEMA IF NOT EXISTS colid(N).                 { A = parse__create_schema(pctx, &N, NULL, true, K.offset); }
create_schema_stmt(A) ::= CREATE(K) SCHEMA IF NOT EXISTS colid(N) AUTHORIZATION colid(R). { A = parse__create_schema(pctx, &N, &R, true, K.offset); }
create_schema_stmt(A) ::= CREATE(K) SCHEMA IF NOT EXISTS AUTHORIZATION colid(R).   { A = parse__create_schema(pctx, NULL, &R, true, K.offset); }

/* ---------------- VACUUM / ANALYZE / CHECKPOINT ---------------- */

vacuum_stmt(A) ::= VACUUM(K) opt_full(F) opt_freeze(Z) opt_verbose(V) opt_analyze(N) opt_vacuum_relation_list(L). { A = parse__vacuum(pctx, true, parse__vacuum_flags(pctx, F, Z, V, N), L, K.offset); }
vacuum_stmt(A) ::= VACUUM(K) LP utility_option_list(O) RP opt_vacuum_relation_list(L). { A = parse__vacuum(pctx, true, O, L, K.offset); }
analyze_stmt(A) ::= ANALYZE(K) opt_verbose(V) opt_vacuum_relation_list(L).  { A = parse__vacuum(pctx, false, parse__vacuum_flags(pctx, false, false, V, false), L, K.offset); }
analyze_stmt(A) ::= ANALYZE(K) LP utility_option_list(O) RP opt_vacuum_relation_list(L). { A = parse__vacuum(pctx, false, O, L, K.offset); }

%type opt_full {bool}
opt_full(A) ::= FULL.   { A = true; }
opt_full(A) ::= .       { A = false; }
%type opt_freeze {bool}
opt_freeze(A) ::= FREEZE. { A = true; }
opt_freeze(A) ::= .       { A = false; }
%type opt_verbose {bool}
opt_verbose(A) ::= VERBOSE. { A = true; }
opt_verbose(A) ::= .        { A = false; }
%type opt_analyze {bool}
opt_analyze(A) ::= ANALYZE. { A = true; }
opt_analyze(A) ::= .        { A = false; }

%type opt_vacuum_relation_list {List *}
opt_vacuum_relation_list(A) ::= vacuum_relation_list(L). { A = L; }
opt_vacuum_relation_list(A) ::= .                        { A = NULL; }

%type vacuum_relation_list {List *}
vacuum_relation_list(A) ::= vacuum_relation(X).                              { A = parse__list1(pctx, X); }
vacuum_relation_list(A) ::= vacuum_relation_list(L) COMMA vacuum_relation(X). { A = parse__list_append(pctx, L, X); }

vacuum_relation(A) ::= qualified_name(R) opt_name_list(C).  { A = parse__vacuum_rel(pctx, R, C); }

checkpoint_stmt(A) ::= CHECKPOINT(K).  { A = parse__checkpoint(pctx, K.offset); }

/* ---------------- CREATE INDEX / VIEW / SEQUENCE ---------------- */

index_stmt(A) ::= CREATE(K) opt_unique(U) INDEX opt_concurrently(C) opt_index_name(N) ON relation_expr(R) access_method_clause(M) LP index_params(P) RP opt_include(I) opt_reloptions(O) where_clause(W). { A = parse__index(pctx, U, C, N, false, R, M, P, I, O, W, K.offset); }
index_stmt(A) ::= CREATE(K) opt_unique(U) INDEX opt_concurrently(C) IF NOT EXISTS colid(N) ON relation_expr(R) access_method_clause(M) LP index_params(P) RP opt_include(I) opt_reloptions(O) where_clause(W). { A = parse__index(pctx, U, C, N.str, true, R, M, P, I, O, W, K.offset); }

%type opt_unique {bool}
opt_unique(A) ::= UNIQUE.   { A = true; }
opt_unique(A) ::= .         { A = false; }
%type opt_concurrently {bool}
opt_concurrently(A) ::= CONCURRENTLY. { A = true; }
opt_concurrently(A) ::= .             { A = false; }
%type opt_index_name {const char *}
opt_index_name(A) ::= colid(N).   { A = N.str; }
opt_index_name(A) ::= .           { A = NULL; }
%type access_method_clause {const char *}
access_method_clause(A) ::= USING colid(N).   { A = N.str; }
access_method_clause(A) ::= .                 { A = NULL; }
%type opt_include {List *}
opt_include(A) ::= INCLUDE LP name_list(L) RP.  { A = L; }
opt_include(A) ::= .                            { A = NULL; }
%type opt_reloptions {List *}
opt_reloptions(A) ::= WITH reloptions(L).   { A = L; }
opt_reloptions(A) ::= .                     { A = NULL; }

%type index_params {List *}
index_params(A) ::= index_elem(X).                          { A = parse__list1(pctx, X); }
index_params(A) ::= index_params(L) COMMA index_elem(X).    { A = parse__list_append(pctx, L, X); }

index_elem(A) ::= colid(N) index_elem_opts(O).              { A = parse__index_elem(pctx, N.str, NULL, &O, N.offset); }
index_elem(A) ::= func_expr_windowless(E) index_elem_opts(O). { A = parse__index_elem(pctx, NULL, E, &O, E->location); }
index_elem(A) ::= LP(K) a_expr(E) RP index_elem_opts(O).    { A = parse__index_elem(pctx, NULL, E, &O, K.offset); }

%type index_elem_opts {ParseIndexOpts}
index_elem_opts(A) ::= opt_collate(C) opt_class(K) opt_asc_desc(D) opt_nulls_order(N). { A.collation = C; A.opclass = K; A.dir = D; A.nulls = N; }

%type opt_collate {List *}
opt_collate(A) ::= COLLATE any_name(N).  { A = N; }
opt_collate(A) ::= .                     { A = NULL; }
%type opt_class {List *}
opt_class(A) ::= any_name(N).  { A = N; }
opt_class(A) ::= .             { A = NULL; }

view_stmt(A) ::= CREATE(K) opttemp(P) VIEW qualified_name(R) opt_name_list(C) opt_reloptions(O) AS select_stmt(S) opt_check_option(X). { A = parse__view(pctx, false, P, R, C, O, S, X, K.offset); }
view_stmt(A) ::= CREATE(K) OR REPLACE opttemp(P) VIEW qualified_name(R) opt_name_list(C) opt_reloptions(O) AS select_stmt(S) opt_check_option(X). { A = parse__view(pctx, true, P, R, C, O, S, X, K.offset); }

%type opt_check_option {int}
opt_check_option(A) ::= WITH CHECK OPTION.           { A = 2; }
opt_check_option(A) ::= WITH CASCADED CHECK OPTION.  { A = 2; }
opt_check_option(A) ::= WITH LOCAL CHECK OPTION.     { A = 1; }
opt_check_option(A) ::= .                            { A = 0; }

create_seq_stmt(A) ::= CREATE(K) opttemp(P) SEQUENCE qualified_name(R) opt_seq_opt_list(O).               { A = parse__create_seq(pctx, P, R, O, false, K.offset); }
create_seq_stmt(A) ::= CREATE(K) opttemp(P) SEQUENCE IF NOT EXISTS qualified_name(R) opt_seq_opt_list(O). { A = parse__create_seq(pctx, P, R, O, true, K.offset); }
alter_seq_stmt(A) ::= ALTER(K) SEQUENCE relation_expr(R) seq_opt_list(O).            { A = parse__alter_seq(pctx, R, O, false, K.offset); }
alter_seq_stmt(A) ::= ALTER(K) SEQUENCE IF EXISTS relation_expr(R) seq_opt_list(O).  { A = parse__alter_seq(pctx, R, O, true, K.offset); }

%type opt_seq_opt_list {List *}
opt_seq_opt_list(A) ::= seq_opt_list(L).  { A = L; }
opt_seq_opt_list(A) ::= .                 { A = NULL; }

%type seq_opt_list {List *}
seq_opt_list(A) ::= seq_opt_elem(X).                  { A = parse__list1(pctx, X); }
seq_opt_list(A) ::= seq_opt_list(L) seq_opt_elem(X).  { A = parse__list_append(pctx, L, X); }

seq_opt_elem(A) ::= AS(K) simple_typename(T).        { A = parse__defelem_node(pctx, "as", (Node *)T, K.offset); }
seq_opt_elem(A) ::= CACHE(K) numeric_only(V).        { A = parse__defelem_node(pctx, "cache", V, K.offset); }
seq_opt_elem(A) ::= CYCLE(K).                        { A = parse__defelem_node(pctx, "cycle", parse__const_bool(pctx, true, K.offset), K.offset); }
seq_opt_elem(A) ::= NO(K) CYCLE.                     { A = parse__defelem_node(pctx, "cycle", parse__const_bool(pctx, false, K.offset), K.offset); }
seq_opt_elem(A) ::= INCREMENT(K) opt_by numeric_only(V). { A = parse__defelem_node(pctx, "increment", V, K.offset); }
seq_opt_elem(A) ::= MAXVALUE(K) numeric_only(V).     { A = parse__defelem_node(pctx, "maxvalue", V, K.offset); }
seq_opt_elem(A) ::= MINVALUE(K) numeric_only(V).     { A = parse__defelem_node(pctx, "minvalue", V, K.offset); }
seq_opt_elem(A) ::= NO(K) MAXVALUE.                  { A = parse__defelem_node(pctx, "maxvalue", NULL, K.offset); }
seq_opt_elem(A) ::= NO(K) MINVALUE.                  { A = parse__defelem_node(pctx, "minvalue", NULL, K.offset); }
seq_opt_elem(A) ::= OWNED(K) BY any_name(N).         { A = parse__defelem_list(pctx, "owned_by", N, K.offset); }
seq_opt_elem(A) ::= START(K) opt_with numeric_only(V). { A = parse__defelem_node(pctx, "start", V, K.offset); }
seq_opt_elem(A) ::= RESTART(K).                      { A = parse__defelem_node(pctx, "restart", NULL, K.offset); }
seq_opt_elem(A) ::= RESTART(K) opt_with numeric_only(V). { A = parse__defelem_node(pctx, "restart", V, K.offset); }

opt_by ::= BY.
opt_by ::= .

create_enum_stmt(A) ::= CREATE(K) TYPE any_name(N) AS ENUM LP opt_enum_vals(V) RP. { A = parse__create_enum(pctx, N, V, K.offset); }

%type opt_enum_vals {List *}
opt_enum_vals(A) ::= enum_vals(L).  { A = L; }
opt_enum_vals(A) ::= .              { A = NULL; }
%type enum_vals {List *}
enum_vals(A) ::= SCONST(S).                     { A = parse__list1(pctx, (void *)S.str); }
enum_vals(A) ::= enum_vals(L) COMMA SCONST(S).  { A = parse__list_append(pctx, L, (void *)S.str); }

/* ---------------- PREPARE / EXECUTE / DEALLOCATE ---------------- */

prepare_stmt(A) ::= PREPARE(K) colid(N) prep_type_clause(T) AS preparable_stmt(S). { A = parse__prepare(pctx, &N, T, S, K.offset); }

%type prep_type_clause {List *}
prep_type_clause(A) ::= LP type_list(L) RP.  { A = L; }
prep_type_clause(A) ::= .                    { A = NULL; }

%type type_list {List *}
type_list(A) ::= typename(T).                       { A = parse__list1(pctx, T); }
type_list(A) ::= type_list(L) COMMA typename(T).    { A = parse__list_append(pctx, L, T); }

execute_stmt(A) ::= EXECUTE(K) colid(N).                     { A = parse__execute(pctx, &N, NULL, K.offset); }
execute_stmt(A) ::= EXECUTE(K) colid(N) LP expr_list(L) RP.  { A = parse__execute(pctx, &N, L, K.offset); }

deallocate_stmt(A) ::= DEALLOCATE(K) colid(N).            { A = parse__deallocate(pctx, N.str, K.offset); }
deallocate_stmt(A) ::= DEALLOCATE(K) PREPARE colid(N).    { A = parse__deallocate(pctx, N.str, K.offset); }
deallocate_stmt(A) ::= DEALLOCATE(K) ALL.                 { A = parse__deallocate(pctx, NULL, K.offset); }
deallocate_stmt(A) ::= DEALLOCATE(K) PREPARE ALL.         { A = parse__deallocate(pctx, NULL, K.offset); }

/* ---------------- sessions: DISCARD, LISTEN, cursors, COMMENT, GRANT, LOCK ---------------- */

discard_stmt(A) ::= DISCARD(K) ALL.        { A = parse__discard(pctx, DISCARD_ALL, K.offset); }
discard_stmt(A) ::= DISCARD(K) PLANS.      { A = parse__discard(pctx, DISCARD_PLANS, K.offset); }
discard_stmt(A) ::= DISCARD(K) SEQUENCES.  { A = parse__discard(pctx, DISCARD_SEQUENCES, K.offset); }
discard_stmt(A) ::= DISCARD(K) TEMP.       { A = parse__discard(pctx, DISCARD_TEMP, K.offset); }
discard_stmt(A) ::= DISCARD(K) TEMPORARY.  { A = parse__discard(pctx, DISCARD_TEMP, K.offset); }

listen_stmt(A) ::= LISTEN(K) colid(N).                   { A = parse__listen(pctx, T_ListenStmt, N.str, NULL, K.offset); }
listen_stmt(A) ::= UNLISTEN(K) colid(N).                 { A = parse__listen(pctx, T_UnlistenStmt, N.str, NULL, K.offset); }
listen_stmt(A) ::= UNLISTEN(K) STAR.                     { A = parse__listen(pctx, T_UnlistenStmt, NULL, NULL, K.offset); }
listen_stmt(A) ::= NOTIFY(K) colid(N).                   { A = parse__listen(pctx, T_NotifyStmt, N.str, NULL, K.offset); }
listen_stmt(A) ::= NOTIFY(K) colid(N) COMMA SCONST(P).   { A = parse__listen(pctx, T_NotifyStmt, N.str, &P, K.offset); }

declare_cursor_stmt(A) ::= DECLARE(K) colid(N) cursor_options(O) CURSOR opt_hold(H) FOR select_stmt(S). { A = parse__declare_cursor(pctx, &N, O | H, S, K.offset); }

%type cursor_options {int}
cursor_options(A) ::= cursor_options(L) NO SCROLL.     { A = L | CURSOR_OPT_NO_SCROLL; }
cursor_options(A) ::= cursor_options(L) SCROLL.        { A = L | CURSOR_OPT_SCROLL; }
cursor_options(A) ::= cursor_options(L) BINARY.        { A = L | CURSOR_OPT_BINARY; }
cursor_options(A) ::= cursor_options(L) ASENSITIVE.    { A = L | CURSOR_OPT_ASENSITIVE; }
cursor_options(A) ::= cursor_options(L) INSENSITIVE.   { A = L | CURSOR_OPT_INSENSITIVE; }
cursor_options(A) ::= .                                { A = 0; }

%type opt_hold {int}
opt_hold(A) ::= WITH HOLD.      { A = CURSOR_OPT_HOLD; }
opt_hold(A) ::= WITHOUT HOLD.   { A = 0; }
opt_hold(A) ::= .               { A = 0; }

fetch_stmt(A) ::= FETCH(K) fetch_args(F).  { A = parse__fetch(pctx, &F, false, K.offset); }
fetch_stmt(A) ::= MOVE(K) fetch_args(F).   { A = parse__fetch(pctx, &F, true, K.offset); }

%type fetch_args {ParseFetch}
fetch_args(A) ::= colid(N).                                  { A = parse__fetch_args(FETCH_FORWARD, 1, &N); }
fetch_args(A) ::= from_in colid(N).                          { A = parse__fetch_args(FETCH_FORWARD, 1, &N); }
fetch_args(A) ::= NEXT opt_from_in colid(N).                 { A = parse__fetch_args(FETCH_FORWARD, 1, &N); }
fetch_args(A) ::= PRIOR opt_from_in colid(N).                { A = parse__fetch_args(FETCH_BACKWARD, 1, &N); }
fetch_args(A) ::= FIRST opt_from_in colid(N).                { A = parse__fetch_args(FETCH_ABSOLUTE, 1, &N); }
fetch_args(A) ::= LAST opt_from_in colid(N).                 { A = parse__fetch_args(FETCH_ABSOLUTE, -1, &N); }
fetch_args(A) ::= ABSOLUTE signed_iconst(V) opt_from_in colid(N). { A = parse__fetch_args(FETCH_ABSOLUTE, V, &N); }
fetch_args(A) ::= RELATIVE signed_iconst(V) opt_from_in colid(N). { A = parse__fetch_args(FETCH_RELATIVE, V, &N); }
fetch_args(A) ::= signed_iconst(V) opt_from_in colid(N).     { A = parse__fetch_args(FETCH_FORWARD, V, &N); }
fetch_args(A) ::= ALL opt_from_in colid(N).                  { A = parse__fetch_args(FETCH_FORWARD, FETCH_ALL, &N); }
fetch_args(A) ::= FORWARD opt_from_in colid(N).              { A = parse__fetch_args(FETCH_FORWARD, 1, &N); }
fetch_args(A) ::= FORWARD signed_iconst(V) opt_from_in colid(N). { A = parse__fetch_args(FETCH_FORWARD, V, &N); }
fetch_args(A) ::= FORWARD ALL opt_from_in colid(N).          { A = parse__fetch_args(FETCH_FORWARD, FETCH_ALL, &N); }
fetch_args(A) ::= BACKWARD opt_from_in colid(N).             { A = parse__fetch_args(FETCH_BACKWARD, 1, &N); }
fetch_args(A) ::= BACKWARD signed_iconst(V) opt_from_in colid(N). { A = parse__fetch_args(FETCH_BACKWARD, V, &N); }
fetch_args(A) ::= BACKWARD ALL opt_from_in colid(N).         { A = parse__fetch_args(FETCH_BACKWARD, FETCH_ALL, &N); }

from_in ::= FROM.
from_in ::= IN.
opt_from_in ::= from_in.
opt_from_in ::= .

%type signed_iconst {int64_t}
signed_iconst(A) ::= ICONST(K).        { A = K.ival; }
signed_iconst(A) ::= PLUS ICONST(K).   { A = K.ival; }
signed_iconst(A) ::= MINUS ICONST(K).  { A = -K.ival; }

close_portal_stmt(A) ::= CLOSE(K) colid(N). { A = parse__close(pctx, N.str, K.offset); }
close_portal_stmt(A) ::= CLOSE(K) ALL.      { A = parse__close(pctx, NULL, K.offset); }

comment_stmt(A) ::= COMMENT(K) ON comment_type(T) any_name(N) IS comment_text(C). { A = parse__comment(pctx, T, N, C, K.offset); }

%type comment_type {ObjectType}
comment_type(A) ::= TABLE.      { A = OBJECT_TABLE; }
comment_type(A) ::= COLUMN.     { A = OBJECT_COLUMN; }
comment_type(A) ::= INDEX.      { A = OBJECT_INDEX; }
comment_type(A) ::= VIEW.       { A = OBJECT_VIEW; }
comment_type(A) ::= SEQUENCE.   { A = OBJECT_SEQUENCE; }
comment_type(A) ::= SCHEMA.     { A = OBJECT_SCHEMA; }
comment_type(A) ::= DATABASE.   { A = OBJECT_DATABASE; }
comment_type(A) ::= ROLE.       { A = OBJECT_ROLE; }

%type comment_text {const char *}
comment_text(A) ::= SCONST(S).  { A = S.str; }
comment_text(A) ::= NULL.       { A = NULL; }

grant_stmt(A) ::= GRANT(K) privileges(P) ON grant_target(T) TO name_list(R) opt_grant_option(G). { A = parse__grant(pctx, true, P, &T, R, G, false, K.offset); }
grant_stmt(A) ::= REVOKE(K) privileges(P) ON grant_target(T) FROM name_list(R) opt_drop_behavior(B). { A = parse__grant(pctx, false, P, &T, R, false, B, K.offset); }

%type privileges {List *}
privileges(A) ::= ALL.                 { A = NULL; }
privileges(A) ::= ALL PRIVILEGES.      { A = NULL; }
privileges(A) ::= privilege_list(L).   { A = L; }

%type privilege_list {List *}
privilege_list(A) ::= privilege(X).                         { A = parse__list1(pctx, (void *)X); }
privilege_list(A) ::= privilege_list(L) COMMA privilege(X). { A = parse__list_append(pctx, L, (void *)X); }

%type privilege {const char *}
privilege(A) ::= SELECT.        { A = "select"; }
privilege(A) ::= REFERENCES.    { A = "references"; }
privilege(A) ::= CREATE.        { A = "create"; }
privilege(A) ::= TEMP.          { A = "temporary"; }
privilege(A) ::= TEMPORARY.     { A = "temporary"; }
privilege(A) ::= ID(N).         { A = N.str; }

%type grant_target {ParseGrantTarget}
grant_target(A) ::= qualified_name_list(L).            { A.type = OBJECT_TABLE; A.objects = L; A.names = false; }
grant_target(A) ::= TABLE qualified_name_list(L).      { A.type = OBJECT_TABLE; A.objects = L; A.names = false; }
grant_target(A) ::= SEQUENCE qualified_name_list(L).   { A.type = OBJECT_SEQUENCE; A.objects = L; A.names = false; }
grant_target(A) ::= SCHEMA name_list(L).               { A.type = OBJECT_SCHEMA; A.objects = L; A.names = true; }
grant_target(A) ::= DATABASE name_list(L).             { A.type = OBJECT_DATABASE; A.objects = L; A.names = true; }

%type opt_grant_option {bool}
opt_grant_option(A) ::= WITH GRANT OPTION.  { A = true; }
opt_grant_option(A) ::= .                   { A = false; }

lock_stmt(A) ::= LOCK(K) opt_table relation_expr_list(L) opt_lock(M) opt_nowait(N). { A = parse__lock(pctx, L, M, N, K.offset); }

%type opt_lock {int}
opt_lock(A) ::= IN lock_type(T) MODE.  { A = T; }
opt_lock(A) ::= .                      { A = 8; }
%type lock_type {int}
lock_type(A) ::= ACCESS SHARE.            { A = 1; }
lock_type(A) ::= ROW SHARE.               { A = 2; }
lock_type(A) ::= ROW EXCLUSIVE.           { A = 3; }
lock_type(A) ::= SHARE UPDATE EXCLUSIVE.  { A = 4; }
lock_type(A) ::= SHARE.                   { A = 5; }
lock_type(A) ::= SHARE ROW EXCLUSIVE.     { A = 6; }
lock_type(A) ::= EXCLUSIVE.               { A = 7; }
lock_type(A) ::= ACCESS EXCLUSIVE.        { A = 8; }
%type opt_nowait {bool}
opt_nowait(A) ::= NOWAIT.  { A = true; }
opt_nowait(A) ::= .        { A = false; }

/* ---------------- expressions ---------------- */

%type expr_list {List *}
expr_list(A) ::= a_expr(X).                     { A = parse__list1(pctx, X); }
expr_list(A) ::= expr_list(L) COMMA a_expr(X).  { A = parse__list_append(pctx, L, X); }

a_expr(A) ::= c_expr(X).                                { A = X; }
a_expr(A) ::= a_expr(X) TYPECAST(K) typename(T).        { A = parse__typecast(pctx, X, T, K.offset); }
a_expr(A) ::= a_expr(X) COLLATE(K) any_name(N).         { A = parse__collate(pctx, X, N, K.offset); }
a_expr(A) ::= a_expr(X) AT(K) TIME ZONE a_expr(Z). [AT] { A = parse__at_time_zone(pctx, X, Z, K.offset); }
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
a_expr(A) ::= a_expr(L) OPERATOR(K) LP any_operator(O) RP a_expr(R). [OP] { A = parse__qual_op(pctx, &O, L, R, K.offset); }
a_expr(A) ::= OPERATOR(K) LP any_operator(O) RP a_expr(X). [OP]          { A = parse__qual_op(pctx, &O, NULL, X, K.offset); }
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
a_expr(A) ::= a_expr(L) SIMILAR(K) TO a_expr(R). [SIMILAR]                        { A = parse__similar(pctx, false, L, R, NULL, K.offset); }
a_expr(A) ::= a_expr(L) SIMILAR(K) TO a_expr(R) ESCAPE a_expr(E). [SIMILAR]       { A = parse__similar(pctx, false, L, R, E, K.offset); }
a_expr(A) ::= a_expr(L) NOT_LA(K) SIMILAR TO a_expr(R). [NOT_LA]                  { A = parse__similar(pctx, true, L, R, NULL, K.offset); }
a_expr(A) ::= a_expr(L) NOT_LA(K) SIMILAR TO a_expr(R) ESCAPE a_expr(E). [NOT_LA] { A = parse__similar(pctx, true, L, R, E, K.offset); }
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
a_expr(A) ::= a_expr(X) IN(K) select_with_parens(S).        { A = parse__in_sublink(pctx, false, X, S, K.offset); }
a_expr(A) ::= a_expr(X) NOT_LA(K) IN select_with_parens(S). { A = parse__in_sublink(pctx, true, X, S, K.offset); }
a_expr(A) ::= a_expr(X) subquery_op(O) sub_type(T) select_with_parens(S). [OP] { A = parse__sublink_op(pctx, X, &O, T, S); }
a_expr(A) ::= a_expr(X) subquery_op(O) sub_type(T) LP a_expr(E) RP. [OP]      { A = parse__array_op(pctx, X, &O, T, E); }
a_expr(A) ::= DEFAULT(K).                       { A = parse__set_to_default(pctx, K.offset); }

opt_asymmetric ::= ASYMMETRIC.
opt_asymmetric ::= .

/* ANY/SOME (true) or ALL (false) */
%type sub_type {bool}
sub_type(A) ::= ANY.    { A = true; }
sub_type(A) ::= SOME.   { A = true; }
sub_type(A) ::= ALL.    { A = false; }

/* The operator of x op ANY|ALL (...): name in str, schema (OPERATOR(s.op)) in ival as a pointer-free flag */
%type subquery_op {ParseQualOp}
subquery_op(A) ::= PLUS(K).     { A = parse__qop(K.offset, "+", NULL); }
subquery_op(A) ::= MINUS(K).    { A = parse__qop(K.offset, "-", NULL); }
subquery_op(A) ::= STAR(K).     { A = parse__qop(K.offset, "*", NULL); }
subquery_op(A) ::= SLASH(K).    { A = parse__qop(K.offset, "/", NULL); }
subquery_op(A) ::= PERCENT(K).  { A = parse__qop(K.offset, "%", NULL); }
subquery_op(A) ::= CARET(K).    { A = parse__qop(K.offset, "^", NULL); }
subquery_op(A) ::= LT(K).       { A = parse__qop(K.offset, "<", NULL); }
subquery_op(A) ::= GT(K).       { A = parse__qop(K.offset, ">", NULL); }
subquery_op(A) ::= EQ(K).       { A = parse__qop(K.offset, "=", NULL); }
subquery_op(A) ::= LE(K).       { A = parse__qop(K.offset, "<=", NULL); }
subquery_op(A) ::= GE(K).       { A = parse__qop(K.offset, ">=", NULL); }
subquery_op(A) ::= NE(K).       { A = parse__qop(K.offset, "<>", NULL); }
subquery_op(A) ::= OP(K).       { A = parse__qop(K.offset, K.str, NULL); }
subquery_op(A) ::= LIKE(K).     { A = parse__qop(K.offset, "~~", NULL); }
subquery_op(A) ::= NOT_LA(K) LIKE.  { A = parse__qop(K.offset, "!~~", NULL); }
subquery_op(A) ::= ILIKE(K).    { A = parse__qop(K.offset, "~~*", NULL); }
subquery_op(A) ::= NOT_LA(K) ILIKE. { A = parse__qop(K.offset, "!~~*", NULL); }
subquery_op(A) ::= OPERATOR(K) LP any_operator(O) RP. { A = O; A.location = K.offset; }

/* OPERATOR(op) / OPERATOR(schema.op) */
%type any_operator {ParseQualOp}
any_operator(A) ::= all_op(O).                   { A = O; }
any_operator(A) ::= colid(S) DOT all_op(O).      { A = O; A.schema = S.str; }

%type all_op {ParseQualOp}
all_op(A) ::= OP(K).       { A = parse__qop(K.offset, K.str, NULL); }
all_op(A) ::= PLUS(K).     { A = parse__qop(K.offset, "+", NULL); }
all_op(A) ::= MINUS(K).    { A = parse__qop(K.offset, "-", NULL); }
all_op(A) ::= STAR(K).     { A = parse__qop(K.offset, "*", NULL); }
all_op(A) ::= SLASH(K).    { A = parse__qop(K.offset, "/", NULL); }
all_op(A) ::= PERCENT(K).  { A = parse__qop(K.offset, "%", NULL); }
all_op(A) ::= CARET(K).    { A = parse__qop(K.offset, "^", NULL); }
all_op(A) ::= LT(K).       { A = parse__qop(K.offset, "<", NULL); }
all_op(A) ::= GT(K).       { A = parse__qop(K.offset, ">", NULL); }
all_op(A) ::= EQ(K).       { A = parse__qop(K.offset, "=", NULL); }
all_op(A) ::= LE(K).       { A = parse__qop(K.offset, "<=", NULL); }
all_op(A) ::= GE(K).       { A = parse__qop(K.offset, ">=", NULL); }
all_op(A) ::= NE(K).       { A = parse__qop(K.offset, "<>", NULL); }

%type qual_all_op {ParseQualOp}
qual_all_op(A) ::= all_op(O).                             { A = O; }
qual_all_op(A) ::= OPERATOR(K) LP any_operator(O) RP.     { A = O; A.location = K.offset; }

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
c_expr(A) ::= PARAM(K) opt_indirection(I).      { A = parse__indirect(pctx, parse__param(pctx, &K), I); }
c_expr(A) ::= LP a_expr(X) RP opt_indirection(I). { A = parse__indirect(pctx, parse__paren(pctx, X), I); }
c_expr(A) ::= case_expr(X).                     { A = X; }
c_expr(A) ::= func_expr(X).                     { A = X; }
c_expr(A) ::= CAST(K) LP a_expr(X) AS typename(T) RP. { A = parse__typecast(pctx, X, T, K.offset); }
c_expr(A) ::= select_with_parens(S). [UMINUS]   { A = parse__sublink(pctx, EXPR_SUBLINK, S, -1); }
c_expr(A) ::= select_with_parens(S) indirection(I). { A = parse__indirect(pctx, parse__sublink(pctx, EXPR_SUBLINK, S, -1), I); }
c_expr(A) ::= EXISTS(K) select_with_parens(S).  { A = parse__sublink(pctx, EXISTS_SUBLINK, S, K.offset); }
c_expr(A) ::= ARRAY(K) select_with_parens(S).   { A = parse__sublink(pctx, ARRAY_SUBLINK, S, K.offset); }
c_expr(A) ::= ARRAY(K) array_expr(X).           { A = parse__array_kw(X, K.offset); }
c_expr(A) ::= ROW(K) LP expr_list(L) RP.        { A = parse__row(pctx, L, true, K.offset); }
c_expr(A) ::= ROW(K) LP RP.                     { A = parse__row(pctx, NULL, true, K.offset); }
c_expr(A) ::= LP(K) expr_list(L) COMMA a_expr(X) RP. { A = parse__row(pctx, parse__list_append(pctx, L, X), false, K.offset); }
c_expr(A) ::= GROUPING(K) LP expr_list(L) RP.   { A = parse__func_special(pctx, &K, "grouping", L); }

array_expr(A) ::= LBRACKET(K) expr_list(L) RBRACKET.        { A = parse__array(pctx, L, K.offset); }
array_expr(A) ::= LBRACKET(K) array_expr_list(L) RBRACKET.  { A = parse__array(pctx, L, K.offset); }
array_expr(A) ::= LBRACKET(K) RBRACKET.                     { A = parse__array(pctx, NULL, K.offset); }

%type array_expr_list {List *}
array_expr_list(A) ::= array_expr(X).                           { A = parse__list1(pctx, X); }
array_expr_list(A) ::= array_expr_list(L) COMMA array_expr(X).  { A = parse__list_append(pctx, L, X); }

columnref(A) ::= colid(N).                      { A = parse__colref(pctx, &N, NULL); }
columnref(A) ::= type_keyword(N).               { A = parse__colref(pctx, &N, NULL); }
columnref(A) ::= colid(N) indirection(L).       { A = parse__colref(pctx, &N, L); }

/* Indirection items are nodes: String (.name), A_Star (.*), A_Indices ([i], [l:u]) */
%type indirection {List *}
indirection(A) ::= indirection_el(X).                 { A = parse__list1(pctx, X); }
indirection(A) ::= indirection(L) indirection_el(X).  { A = parse__list_append(pctx, L, X); }

%type opt_indirection {List *}
opt_indirection(A) ::= opt_indirection(L) indirection_el(X).  { A = parse__list_append(pctx, L, X); }
opt_indirection(A) ::= .                                      { A = NULL; }

indirection_el(A) ::= DOT collabel(N).          { A = parse__string(pctx, N.str, N.offset); }
indirection_el(A) ::= DOT STAR(S).              { A = parse__a_star(pctx, S.offset); }
indirection_el(A) ::= LBRACKET(K) a_expr(X) RBRACKET.  { A = parse__indices(pctx, false, NULL, X, K.offset); }
indirection_el(A) ::= LBRACKET(K) opt_slice_bound(L) COLON opt_slice_bound(U) RBRACKET. { A = parse__indices(pctx, true, L, U, K.offset); }

opt_slice_bound(A) ::= a_expr(X).   { A = X; }
opt_slice_bound(A) ::= .            { A = NULL; }

aexpr_const(A) ::= ICONST(K).           { A = parse__const_int(pctx, &K); }
aexpr_const(A) ::= FCONST(K).           { A = parse__const_numeric(pctx, &K); }
aexpr_const(A) ::= SCONST(K).           { A = parse__const_string(pctx, &K); }
aexpr_const(A) ::= TRUE(K).             { A = parse__const_bool(pctx, true, K.offset); }
aexpr_const(A) ::= FALSE(K).            { A = parse__const_bool(pctx, false, K.offset); }
aexpr_const(A) ::= NULL(K).             { A = parse__const_null(pctx, K.offset); }
aexpr_const(A) ::= ID(N) SCONST(S).     { A = parse__typed_literal(pctx, parse__type_generic(pctx, &N, NULL), &S); }
aexpr_const(A) ::= const_typename(T) SCONST(S). { A = parse__typed_literal(pctx, T, &S); }
aexpr_const(A) ::= INTERVAL(K) SCONST(S) opt_interval(F). { A = parse__typed_literal(pctx, parse__type_interval(pctx, F, NULL, K.offset), &S); }
aexpr_const(A) ::= INTERVAL(K) LP ICONST(P) RP SCONST(S). { A = parse__typed_literal(pctx, parse__type_interval(pctx, 0, &P, K.offset), &S); }

case_expr(A) ::= CASE(K) case_arg(X) when_list(W) case_default(D) END. { A = parse__case(pctx, X, W, D, K.offset); }
case_arg(A) ::= a_expr(X).  { A = X; }
case_arg(A) ::= .           { A = NULL; }
%type when_list {List *}
when_list(A) ::= when_clause(X).                { A = parse__list1(pctx, X); }
when_list(A) ::= when_list(L) when_clause(X).   { A = parse__list_append(pctx, L, X); }
when_clause(A) ::= WHEN(K) a_expr(C) THEN a_expr(R). { A = parse__case_when(pctx, C, R, K.offset); }
case_default(A) ::= ELSE a_expr(X). { A = X; }
case_default(A) ::= .               { A = NULL; }

/* f(...) [WITHIN GROUP (ORDER BY ...)] [FILTER (WHERE ...)] [OVER ...] */
func_expr(A) ::= func_application(F) within_group_clause(W) filter_clause(FL) over_clause(O). { A = parse__func_decorate(pctx, F, &W, FL, O); }
func_expr(A) ::= func_expr_common_subexpr(X).  { A = X; }

func_expr_windowless(A) ::= func_application(F).         { A = F; }
func_expr_windowless(A) ::= func_expr_common_subexpr(X). { A = X; }

func_application(A) ::= func_name(N) LP RP.                                           { A = parse__func(pctx, &N, NULL, false, false); }
func_application(A) ::= func_name(N) LP func_arg_list(L) opt_sort_clause(S) RP.           { A = parse__func_agg(pctx, &N, L, S, false, false); }
func_application(A) ::= func_name(N) LP VARIADIC func_arg_expr(X) opt_sort_clause(S) RP.     { A = parse__func_agg(pctx, &N, parse__list1(pctx, X), S, false, true); }
func_application(A) ::= func_name(N) LP func_arg_list(L) COMMA VARIADIC func_arg_expr(X) opt_sort_clause(S) RP. { A = parse__func_agg(pctx, &N, parse__list_append(pctx, L, X), S, false, true); }
func_application(A) ::= func_name(N) LP ALL func_arg_list(L) opt_sort_clause(S) RP.       { A = parse__func_agg(pctx, &N, L, S, false, false); }
func_application(A) ::= func_name(N) LP DISTINCT func_arg_list(L) opt_sort_clause(S) RP.  { A = parse__func_agg(pctx, &N, L, S, true, false); }

%type func_arg_list {List *}
func_arg_list(A) ::= func_arg_expr(X).                          { A = parse__list1(pctx, X); }
func_arg_list(A) ::= func_arg_list(L) COMMA func_arg_expr(X).   { A = parse__list_append(pctx, L, X); }

func_arg_expr(A) ::= a_expr(X).                                 { A = X; }
func_arg_expr(A) ::= colid(N) EQUALS_GREATER a_expr(X).         { A = parse__named_arg(pctx, &N, X); }
func_arg_expr(A) ::= colid(N) COLON_EQUALS a_expr(X).           { A = parse__named_arg(pctx, &N, X); }
func_application(A) ::= func_name(N) LP STAR RP.                                      { A = parse__func(pctx, &N, NULL, true, false); }

%type within_group_clause {ParseListLoc}
within_group_clause(A) ::= WITHIN(K) GROUP LP sort_clause(S) RP.  { A.list = S; A.location = K.offset; }
within_group_clause(A) ::= .                                      { A.list = NULL; A.location = -1; }

filter_clause(A) ::= FILTER LP WHERE a_expr(E) RP.   { A = E; }
filter_clause(A) ::= .                               { A = NULL; }

over_clause(A) ::= OVER window_specification(W).     { A = W; }
over_clause(A) ::= OVER colid(N).                    { A = parse__window_ref(pctx, &N); }
over_clause(A) ::= .                                 { A = NULL; }

/* SQL-standard call syntaxes, as PostgreSQL 15's func_expr_common_subexpr:
 * the result is a plain call of PostgreSQL's function name. */
func_expr_common_subexpr(A) ::= CURRENT_DATE(K). { A = parse__sql_value_func(pctx, &K, NULL); }
func_expr_common_subexpr(A) ::= CURRENT_TIME(K). { A = parse__sql_value_func(pctx, &K, NULL); }
func_expr_common_subexpr(A) ::= CURRENT_TIMESTAMP(K). { A = parse__sql_value_func(pctx, &K, NULL); }
func_expr_common_subexpr(A) ::= LOCALTIME(K). { A = parse__sql_value_func(pctx, &K, NULL); }
func_expr_common_subexpr(A) ::= LOCALTIMESTAMP(K). { A = parse__sql_value_func(pctx, &K, NULL); }
func_expr_common_subexpr(A) ::= CURRENT_USER(K). { A = parse__sql_value_func(pctx, &K, NULL); }
func_expr_common_subexpr(A) ::= USER(K). { A = parse__sql_value_func(pctx, &K, NULL); }
func_expr_common_subexpr(A) ::= SESSION_USER(K). { A = parse__sql_value_func(pctx, &K, NULL); }
func_expr_common_subexpr(A) ::= CURRENT_ROLE(K). { A = parse__sql_value_func(pctx, &K, NULL); }
func_expr_common_subexpr(A) ::= CURRENT_CATALOG(K). { A = parse__sql_value_func(pctx, &K, NULL); }
func_expr_common_subexpr(A) ::= CURRENT_SCHEMA(K). { A = parse__sql_value_func(pctx, &K, NULL); }
func_expr_common_subexpr(A) ::= CURRENT_TIME(K) LP ICONST(P) RP.      { A = parse__sql_value_func(pctx, &K, &P); }
func_expr_common_subexpr(A) ::= CURRENT_TIMESTAMP(K) LP ICONST(P) RP. { A = parse__sql_value_func(pctx, &K, &P); }
func_expr_common_subexpr(A) ::= LOCALTIME(K) LP ICONST(P) RP.         { A = parse__sql_value_func(pctx, &K, &P); }
func_expr_common_subexpr(A) ::= LOCALTIMESTAMP(K) LP ICONST(P) RP.    { A = parse__sql_value_func(pctx, &K, &P); }
func_expr_common_subexpr(A) ::= EXTRACT(K) LP extract_field(F) FROM a_expr(X) RP. { A = parse__func_special(pctx, &K, "extract", parse__list_append(pctx, parse__list1(pctx, F), X)); }
func_expr_common_subexpr(A) ::= POSITION(K) LP b_expr(N) IN b_expr(H) RP.        { A = parse__func_special(pctx, &K, "position", parse__list_append(pctx, parse__list1(pctx, H), N)); }
func_expr_common_subexpr(A) ::= SUBSTRING(K) LP substr_list(L) RP.               { A = parse__func_special(pctx, &K, "substring", L); }
func_expr_common_subexpr(A) ::= SUBSTRING(K) LP RP.                              { A = parse__func_special(pctx, &K, "substring", NULL); }
func_expr_common_subexpr(A) ::= OVERLAY(K) LP a_expr(X) PLACING a_expr(P) FROM a_expr(F) RP. { A = parse__func_special(pctx, &K, "overlay", parse__list_append(pctx, parse__list_append(pctx, parse__list1(pctx, X), P), F)); }
func_expr_common_subexpr(A) ::= OVERLAY(K) LP a_expr(X) PLACING a_expr(P) FROM a_expr(F) FOR a_expr(N) RP. { A = parse__func_special(pctx, &K, "overlay", parse__list_append(pctx, parse__list_append(pctx, parse__list_append(pctx, parse__list1(pctx, X), P), F), N)); }
func_expr_common_subexpr(A) ::= TRIM(K) LP trim_list(L) RP.                      { A = parse__func_special(pctx, &K, "btrim", L); }
func_expr_common_subexpr(A) ::= TRIM(K) LP BOTH trim_list(L) RP.                 { A = parse__func_special(pctx, &K, "btrim", L); }
func_expr_common_subexpr(A) ::= TRIM(K) LP LEADING trim_list(L) RP.              { A = parse__func_special(pctx, &K, "ltrim", L); }
func_expr_common_subexpr(A) ::= TRIM(K) LP TRAILING trim_list(L) RP.             { A = parse__func_special(pctx, &K, "rtrim", L); }
func_expr_common_subexpr(A) ::= OVERLAY(K) LP expr_list(L) RP.                   { A = parse__func_special(pctx, &K, "overlay", L); }

/* extract's field: a word (year, minute, epoch ...) or a string, as text */
extract_field(A) ::= ID(F).         { A = parse__var_word(pctx, F.str, F.offset); }
extract_field(A) ::= SCONST(F).     { A = parse__const_string(pctx, &F); }

%type substr_list {List *}
substr_list(A) ::= expr_list(L).                            { A = L; }
substr_list(A) ::= a_expr(X) FROM a_expr(F) FOR a_expr(N).  { A = parse__list_append(pctx, parse__list_append(pctx, parse__list1(pctx, X), F), N); }
substr_list(A) ::= a_expr(X) FOR a_expr(N) FROM a_expr(F).  { A = parse__list_append(pctx, parse__list_append(pctx, parse__list1(pctx, X), F), N); }
substr_list(A) ::= a_expr(X) FROM a_expr(F).                { A = parse__list_append(pctx, parse__list1(pctx, X), F); }
substr_list(A) ::= a_expr(X) FOR(K) a_expr(N).              { A = parse__list_append(pctx, parse__list_append(pctx, parse__list1(pctx, X), parse__const_one(pctx, K.offset)), N); }
substr_list(A) ::= a_expr(X) SIMILAR a_expr(P) ESCAPE a_expr(E). { A = parse__list_append(pctx, parse__list_append(pctx, parse__list1(pctx, X), P), E); }

/* trim(chars FROM x) is btrim(x, chars) */
%type trim_list {List *}
trim_list(A) ::= a_expr(C) FROM expr_list(L).   { A = parse__list_append(pctx, L, C); }
trim_list(A) ::= FROM expr_list(L).             { A = L; }
trim_list(A) ::= expr_list(L).                  { A = L; }

%type func_name {ParseFuncName}
func_name(A) ::= colid(N).                  { A = parse__func_name(pctx, &N, NULL); }
func_name(A) ::= colid(N) indirection(L).   { A = parse__func_name(pctx, &N, L); }
func_name(A) ::= CURRENT_SCHEMA(N).         { A = parse__func_name(pctx, &N, NULL); }
func_name(A) ::= LEFT|RIGHT|FULL|INNER|CROSS|JOIN|NATURAL|OUTER|LIKE|ILIKE|IS|ISNULL|NOTNULL|SIMILAR|VERBOSE|COLLATION|FREEZE|BINARY|CONCURRENTLY|OVERLAPS|TABLESAMPLE|AUTHORIZATION(N). { A = parse__func_name(pctx, &N, NULL); }

/* ---------------- type names ---------------- */

%type typename {TypeName *}
typename(A) ::= simple_typename(T).                     { A = T; }
typename(A) ::= typename(T) LBRACKET RBRACKET.          { A = parse__type_array(pctx, T); }
typename(A) ::= typename(T) LBRACKET ICONST RBRACKET.   { A = parse__type_array(pctx, T); }
typename(A) ::= simple_typename(T) ARRAY.               { A = parse__type_array(pctx, T); }

%type simple_typename {TypeName *}
simple_typename(A) ::= ID(N) opt_type_modifiers(M).     { A = parse__type_generic(pctx, &N, M); }
simple_typename(A) ::= ID(N) DOT collabel(M) opt_type_modifiers(X). { A = parse__type_qualified(pctx, &N, &M, X); }
simple_typename(A) ::= const_typename(T).               { A = T; }
simple_typename(A) ::= INTERVAL(K) opt_interval(F).     { A = parse__type_interval(pctx, F, NULL, K.offset); }
simple_typename(A) ::= INTERVAL(K) LP ICONST(P) RP.     { A = parse__type_interval(pctx, 0, &P, K.offset); }

/* INTERVAL fields: a mask of INTERVAL_MASK_* (precision of SECOND(p) ignored) */
%type opt_interval {int}
opt_interval(A) ::= YEAR.                     { A = INTERVAL_MASK_YEAR; }
opt_interval(A) ::= MONTH.                    { A = INTERVAL_MASK_MONTH; }
opt_interval(A) ::= DAY.                      { A = INTERVAL_MASK_DAY; }
opt_interval(A) ::= HOUR.                     { A = INTERVAL_MASK_HOUR; }
opt_interval(A) ::= MINUTE.                   { A = INTERVAL_MASK_MINUTE; }
opt_interval(A) ::= interval_second.          { A = INTERVAL_MASK_SECOND; }
opt_interval(A) ::= YEAR TO MONTH.            { A = INTERVAL_MASK_YEAR | INTERVAL_MASK_MONTH; }
opt_interval(A) ::= DAY TO HOUR.              { A = INTERVAL_MASK_DAY | INTERVAL_MASK_HOUR; }
opt_interval(A) ::= DAY TO MINUTE.            { A = INTERVAL_MASK_DAY | INTERVAL_MASK_HOUR | INTERVAL_MASK_MINUTE; }
opt_interval(A) ::= DAY TO interval_second.   { A = INTERVAL_MASK_DAY | INTERVAL_MASK_HOUR | INTERVAL_MASK_MINUTE | INTERVAL_MASK_SECOND; }
opt_interval(A) ::= HOUR TO MINUTE.           { A = INTERVAL_MASK_HOUR | INTERVAL_MASK_MINUTE; }
opt_interval(A) ::= HOUR TO interval_second.  { A = INTERVAL_MASK_HOUR | INTERVAL_MASK_MINUTE | INTERVAL_MASK_SECOND; }
opt_interval(A) ::= MINUTE TO interval_second. { A = INTERVAL_MASK_MINUTE | INTERVAL_MASK_SECOND; }
opt_interval(A) ::= .                         { A = 0; }

interval_second ::= SECOND.
interval_second ::= SECOND LP ICONST RP.

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
const_typename(A) ::= character(C) LP ICONST(L) RP. { A = parse__type_char(pctx, C.str, &L, C.offset); }
const_typename(A) ::= character(C).                 { A = parse__type_char(pctx, C.str, NULL, C.offset); }
const_typename(A) ::= TIMESTAMP(K) opt_precision(P) opt_timezone(Z). { A = parse__type_datetime(pctx, K.str, P.code ? &P : NULL, Z, K.offset); }
const_typename(A) ::= TIME(K) opt_precision(P) opt_timezone(Z).      { A = parse__type_datetime(pctx, K.str, P.code ? &P : NULL, Z, K.offset); }
const_typename(A) ::= BIT(K) opt_type_modifiers(M).         { A = parse__type(pctx, "bit", M, K.offset); }
const_typename(A) ::= BIT(K) VARYING opt_type_modifiers(M). { A = parse__type(pctx, "varbit", M, K.offset); }

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
opt_timezone(A) ::= WITH_LA TIME ZONE.  { A = true; }
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
bare_label(A) ::= ALL|ANALYZE|ANY|ASC|ASYMMETRIC|AUTHORIZATION|BINARY|BOTH|CASE|CAST|CHECK|COLLATION|COLUMN|CONCURRENTLY|CONSTRAINT|CROSS|CURRENT_CATALOG|CURRENT_DATE|CURRENT_ROLE|CURRENT_SCHEMA|CURRENT_TIME|CURRENT_TIMESTAMP|CURRENT_USER|DEFAULT|DEFERRABLE|DESC|DISTINCT|DO|ELSE|END|FALSE|FOREIGN|FREEZE|FULL|INITIALLY|INNER|JOIN|LATERAL|LEADING|LEFT|LOCALTIME|LOCALTIMESTAMP|NATURAL|NOT|NULL|ONLY|OUTER|PLACING|PRIMARY|REFERENCES|RIGHT|SELECT|SESSION_USER|SOME|SYMMETRIC|TABLE|TABLESAMPLE|THEN|TRAILING|TRUE|UNIQUE|USER|USING|VARIADIC|VERBOSE|WHEN(N). { A = N; }
/* Also operators: separate rules so that LR lookahead decides (a multi-
 * terminal shift would conflict with the operator's shift). */
bare_label(A) ::= AND(N). { A = N; }
bare_label(A) ::= OR(N). { A = N; }
bare_label(A) ::= IS(N). { A = N; }
bare_label(A) ::= IN(N). { A = N; }
bare_label(A) ::= LIKE(N). { A = N; }
bare_label(A) ::= ILIKE(N). { A = N; }
bare_label(A) ::= BETWEEN(N). { A = N; }
bare_label(A) ::= COLLATE(N). { A = N; }
bare_label(A) ::= SIMILAR(N). { A = N; }

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
type_keyword(A) ::= BIT(N). { A = N; }
type_keyword(A) ::= OVERLAY(N). { A = N; }
type_keyword(A) ::= EXISTS(N). { A = N; }
type_keyword(A) ::= ROW(N). { A = N; }
