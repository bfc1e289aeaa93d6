/*
 * test_parser.c — unit tests of the grammar and AST builders: every
 * statement shape of parser/README.md builds the expected tree (checked
 * through parse_node_to_string, plus direct field checks), precedence as
 * PostgreSQL's, statement boundaries, syntax errors with PostgreSQL 15's
 * messages and positions (taken from a PostgreSQL 15 server), and limits.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include "common/error.h"
#include "parser/parser.h"

static MemArena *arena;

static void setup(void) { arena = mem_arena_create("test_parser"); }
static void teardown(void) { mem_arena_destroy(arena); }

TestSuite(parser, .init = setup, .fini = teardown);

/* The printed trees of every statement of sql, separated by "; ". */
static const char *tree(const char *sql)
{
    List *stmts = parse_sql(arena, sql);
    char *out = mem_strdup(arena, "");
    for (int i = 0; i < list_len(stmts); i++)
        out = mem_printf(arena, "%s%s%s", out, i ? "; " : "",
                         parse_node_to_string(arena, list_nth(stmts, i)));
    return out;
}

#define assert_tree(sql, want)                                                  \
    do {                                                                        \
        const char *got_ = tree(sql);                                           \
        cr_assert_str_eq(got_, want, "\n  sql:  %s\n  got:  %s\n  want: %s", sql, got_, want); \
    } while (0)

/* The tree of the single target expression of "select <expr>". */
#define assert_expr(expr, want) assert_tree("select " expr, "(select [" want "])")

static ErrorData parse_error(const char *sql)
{
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        parse_sql(arena, sql);
        err_pop(&jmp);
        cr_assert_fail("no error for <%s>", sql);
    }
    return *err_current();
}

static void assert_syntax_error(const char *sql, const char *message, int position)
{
    ErrorData e = parse_error(sql);
    cr_assert_str_eq(e.sqlstate, "42601", "<%s>: %s %s", sql, e.sqlstate, e.message);
    cr_assert_str_eq(e.message, message, "<%s>", sql);
    cr_assert_eq(e.position, position, "<%s>: position %d, want %d", sql, e.position, position);
}

/* An error with the given SQLSTATE, message and position (0 = none). */
static void assert_error(const char *sql, const char *sqlstate, const char *message, int position)
{
    ErrorData e = parse_error(sql);
    cr_assert_str_eq(e.sqlstate, sqlstate, "<%s>: %s %s", sql, e.sqlstate, e.message);
    cr_assert_str_eq(e.message, message, "<%s>", sql);
    cr_assert_eq(e.position, position, "<%s>: position %d, want %d", sql, e.position, position);
}

/* The statement node of a one-statement query. */
static Node *stmt1(const char *sql)
{
    List *stmts = parse_sql(arena, sql);
    cr_assert_eq(list_len(stmts), 1, "<%s>", sql);
    return ((RawStmt *)list_nth(stmts, 0))->stmt;
}

/* The first target expression of a SELECT. */
static Node *target1(const char *sql)
{
    SelectStmt *s = (SelectStmt *)stmt1(sql);
    return ((ResTarget *)list_nth(s->target_list, 0))->val;
}

/* ---------- expressions ---------- */

Test(parser, arithmetic_precedence)
{
    assert_expr("1 + 2 * 3 - 4 / 5 % 6", "(- (+ 1 (* 2 3)) (% (/ 4 5) 6))");
    assert_expr("2 ^ 3 ^ 2", "(^ (^ 2 3) 2)");
    assert_expr("-2 ^ 2", "(^ -2 2)");
    assert_expr("- a ^ 2", "(^ (- a) 2)"); /* unary minus binds tighter than ^ */
    assert_expr("+a", "(+ a)");
    assert_expr("-1::int", "(- (cast 1 int4))");
    assert_expr("(1 + 2) * 3", "(* (+ 1 2) 3)");
    assert_expr("'a' || 'b' = 'ab'", "(= (|| 'a' 'b') 'ab')");
    assert_expr("a @> b + 1", "(@> a (+ b 1))");
    assert_expr("@ a", "(@ a)");
    assert_expr("- 9223372036854775808", "-9223372036854775808");
}

Test(parser, boolean_precedence)
{
    assert_expr("a or b and not c", "(or a (and b (not c)))");
    assert_expr("a and b and c or d", "(or (and a b c) d)");
    assert_expr("not 1 = 2 is null", "(not (is-null (= 1 2)))");
    assert_syntax_error("select a < b = true", "syntax error at or near \"=\"", 14);
}

Test(parser, comparison_is_nonassociative)
{
    assert_syntax_error("select 1 < 2 < 3", "syntax error at or near \"<\"", 14);
    assert_syntax_error("select 1 between 0 and 2 between true and false",
                        "syntax error at or near \"between\"", 26);
    assert_syntax_error("select 'a' like 'b' like 'c'", "syntax error at or near \"like\"", 21);
}

Test(parser, predicates)
{
    assert_expr("a is null", "(is-null a)");
    assert_expr("a isnull", "(is-null a)");
    assert_expr("a is not null", "(is-not-null a)");
    assert_expr("a notnull", "(is-not-null a)");
    assert_expr("a is true", "(is-true a)");
    assert_expr("a is not false", "(is-not-false a)");
    assert_expr("a is unknown", "(is-unknown a)");
    assert_expr("a is not unknown", "(is-not-unknown a)");
    assert_expr("a is distinct from b + 1", "(is-distinct a (+ b 1))");
    assert_expr("a is not distinct from b", "(is-not-distinct a b)");
    assert_expr("a between 1 and 2 and b", "(and (between a 1 2) b)");
    assert_expr("a not between 1 + 1 and 2", "(not-between a (+ 1 1) 2)");
    assert_expr("a between symmetric 2 and 1", "(between-sym a 2 1)");
    assert_expr("a not between symmetric 2 and 1", "(not-between-sym a 2 1)");
    assert_expr("a between asymmetric 1 and 2", "(between a 1 2)");
    assert_expr("a in (1, 2, 3)", "(in a [1 2 3])");
    assert_expr("a not in (1)", "(not-in a [1])");
    assert_expr("a like 'x%'", "(~~ a 'x%')");
    assert_expr("a not like 'x%' escape '!'", "(!~~ a 'x%' escape '!')");
    assert_expr("a ilike 'x'", "(~~* a 'x')");
    assert_expr("a not ilike 'x'", "(!~~* a 'x')");
    /* NOT before LIKE binds like LIKE (PostgreSQL's NOT_LA) */
    assert_expr("a = b not like c", "(= a (!~~ b c))");
}

Test(parser, case_cast_literals)
{
    assert_expr("case when a then 1 when b then 2 else 3 end",
                "(case (when a 1) (when b 2) (else 3))");
    assert_expr("case x when 1 then 'a' end", "(case x (when 1 'a'))");
    assert_expr("cast(a as varchar(3))", "(cast a varchar(3))");
    assert_expr("a::text[]", "(cast a text[])");
    assert_expr("a::int::text", "(cast (cast a int4) text)");
    assert_expr("date '2024-01-01'", "(cast '2024-01-01' date)");
    assert_expr("integer '5'", "(cast '5' int4)");
    assert_expr("char 'x'", "(cast 'x' bpchar)");
    assert_expr("timestamp with time zone 'now'", "(cast 'now' timestamptz)");
    assert_expr("double precision '1'", "(cast '1' float8)");
    /* the same keywords are column references where no literal follows */
    assert_tree("select time, integer, double, char from t where timestamp > interval",
                "(select [time integer double char] from [t] where (> timestamp interval))");
    assert_expr("time(3) with time zone '10:00'", "(cast '10:00' timetz(3))");
    assert_expr("true, false, null, 'it''s', 1.5, .5, 1e3, $1",
                "true false NULL 'it''s' 1.5 .5 1e3 $1");
}

Test(parser, functions_and_columns)
{
    assert_expr("count(*)", "(call count *)");
    assert_expr("count(distinct a)", "(call count distinct a)");
    assert_expr("sum(all b)", "(call sum b)");
    assert_expr("now()", "(call now)");
    assert_expr("pg_catalog.lower(x)", "(call pg_catalog.lower x)");
    assert_expr("left('abc', 2)", "(call left 'abc' 2)");
    assert_expr("current_date", "(call current_date)");
    assert_expr("extract(minute FROM t)", "(call extract 'minute' t)");
    assert_expr("extract('epoch' from t)", "(call extract 'epoch' t)");
    assert_expr("position('b' in 'abc')", "(call position 'abc' 'b')");
    assert_expr("substring(s from 2 for 3)", "(call substring s 2 3)");
    assert_expr("substring(s for 3 from 2)", "(call substring s 2 3)");
    assert_expr("substring(s from 2)", "(call substring s 2)");
    assert_expr("substring(s for 3)", "(call substring s 1 3)");
    assert_expr("substring(s, 2, 3)", "(call substring s 2 3)");
    assert_expr("trim(s)", "(call btrim s)");
    assert_expr("trim(both 'x' from s)", "(call btrim s 'x')");
    assert_expr("trim(leading from s)", "(call ltrim s)");
    assert_expr("trim(trailing 'x' from s)", "(call rtrim s 'x')");
    assert_expr("position, substring, trim, extract", "position substring trim extract");
    assert_expr("s.t.a", "s.t.a");
    assert_expr("t.*", "t.*");
    assert_expr("\"T\".\"A\"", "T.A");
    assert_syntax_error("select a.b.c.d.e from t",
                        "improper qualified name (too many dotted names): a.b.c.d.e", 8);
    ErrorData e = parse_error("select a.b.c.d from t");
    cr_assert_str_eq(e.sqlstate, "0A000");
    cr_assert_str_eq(e.message, "cross-database references are not implemented: a.b.c.d");
    assert_expr("n'x'", "(cast 'x' bpchar)");
}

Test(parser, expression_fields)
{
    List *stmts = parse_sql(arena, "select a + 1 from t");
    RawStmt *raw = list_nth(stmts, 0);
    cr_assert(IS_A(raw->stmt, SelectStmt));
    SelectStmt *s = (SelectStmt *)raw->stmt;
    ResTarget *rt = list_nth(s->target_list, 0);
    cr_assert(IS_A(rt, ResTarget));
    A_Expr *e = (A_Expr *)rt->val;
    cr_assert(IS_A(e, A_Expr));
    cr_assert_eq(e->kind, AEXPR_OP);
    cr_assert_str_eq(e->name, "+");
    cr_assert_eq(e->node.location, 9); /* the operator, as PostgreSQL */
    ColumnRef *c = (ColumnRef *)e->lexpr;
    cr_assert(IS_A(c, ColumnRef));
    cr_assert_eq(c->node.location, 7);
    A_Const *k = (A_Const *)e->rexpr;
    cr_assert_eq(k->kind, CONST_INTEGER);
    cr_assert_eq(k->ival, 1);
    RangeVar *r = list_nth(s->from_clause, 0);
    cr_assert(IS_A(r, RangeVar));
    cr_assert_str_eq(r->relname, "t");
    cr_assert_null(r->schemaname);
}

Test(parser, constants_fields)
{
    Node *n = parse_expression(arena, "99999999999999999999");
    cr_assert(IS_A(n, A_Const));
    cr_assert_eq(((A_Const *)n)->kind, CONST_NUMERIC);
    cr_assert_str_eq(((A_Const *)n)->text, "99999999999999999999");
    n = parse_expression(arena, "$$ab$$");
    cr_assert_eq(((A_Const *)n)->kind, CONST_STRING);
    cr_assert_eq(((A_Const *)n)->sval_len, 2);
    n = parse_expression(arena, "-5");
    cr_assert_eq(((A_Const *)n)->ival, -5);
    cr_assert_str_eq(((A_Const *)n)->text, "-5");
}

/* ---------- SELECT ---------- */

Test(parser, select_clauses)
{
    assert_tree("SELECT DISTINCT a AS x, b y, c FROM t WHERE a > 1 GROUP BY a, b HAVING count(*) > 1 "
                "ORDER BY a DESC NULLS FIRST, b ASC, c NULLS LAST LIMIT 10 OFFSET 5",
                "(select distinct [a AS x b AS y c] from [t] where (> a 1) group [a b] having "
                "(> (call count *) 1) order [a DESC NULLS FIRST b ASC c NULLS LAST] limit 10 offset 5)");
    assert_tree("select 1", "(select [1])");
    assert_tree("select", "(select [])");
    assert_tree("select * from s.t", "(select [*] from [s.t])");
    assert_tree("select 1 offset 2 limit 3", "(select [1] limit 3 offset 2)");
    assert_tree("select 1 limit all", "(select [1])");
    assert_tree("select 1 as select, 2 as from", "(select [1 AS select 2 AS from])");
    assert_tree("select 1 and, 2 not", "(select [1 AS and 2 AS not])"); /* bare labels */
    assert_syntax_error("select distinct", "syntax error at end of input", 16);
    assert_syntax_error("select 1 limit 1 limit 2", "syntax error at or near \"limit\"", 18);
}

Test(parser, select_parens_and_values)
{
    assert_tree("(select 1) order by 1 limit 2", "(select [1] order [1] limit 2)");
    assert_tree("((select a from t))", "(select [a] from [t])");
    assert_tree("values (1, 'a'), (2, 'b') order by 1", "(values [1 'a'] [2 'b'] order [1])");
    ErrorData e = parse_error("(select 1 order by 1) order by 2");
    cr_assert_str_eq(e.message, "multiple ORDER BY clauses not allowed");
}

Test(parser, from_and_joins)
{
    assert_tree("select * from t1 x, t2 as y(c1, c2)", "(select [*] from [t1 AS x t2 AS y(c1,c2)])");
    assert_tree("select * from a join b on a.x = b.x",
                "(select [*] from [(join inner a b on (= a.x b.x))])");
    assert_tree("select * from a inner join b on true left join c using (k, l)",
                "(select [*] from [(join left (join inner a b on true) c using (k,l))])");
    assert_tree("select * from a left outer join b on p right join c on q full join d on r",
                "(select [*] from [(join full (join right (join left a b on p) c on q) d on r)])");
    assert_tree("select * from a cross join b cross join c",
                "(select [*] from [(join cross (join cross a b) c)])");
    assert_tree("select * from a natural join b", "(select [*] from [(natural-join inner a b)])");
    assert_tree("select * from a join (b join c on p) on q",
                "(select [*] from [(join inner a (join inner b c on p) on q)])");
    assert_syntax_error("select * from t join u", "syntax error at end of input", 23);
}

/* ---------- INSERT / CREATE / DROP ---------- */

Test(parser, insert)
{
    assert_tree("insert into t values (1, 'a'), (2, default)",
                "(insert t (values [1 'a'] [2 DEFAULT]))");
    assert_tree("insert into s.t (a, b) select a, b from u",
                "(insert s.t cols [a b] (select [a b] from [u]))");
    assert_tree("insert into t default values", "(insert t default-values)");
    assert_tree("insert into t (select 1)", "(insert t (select [1]))");
    List *stmts = parse_sql(arena, "insert into t (a) values (default)");
    InsertStmt *ins = (InsertStmt *)((RawStmt *)list_nth(stmts, 0))->stmt;
    cr_assert(IS_A(ins, InsertStmt));
    cr_assert_str_eq(((ResTarget *)list_nth(ins->cols, 0))->name, "a");
    List *row = list_nth(ins->select_stmt->values_lists, 0);
    cr_assert(IS_A(list_nth(row, 0), SetToDefault));
}

Test(parser, create_table)
{
    assert_tree("create table t (a int not null default 1 + 2, b varchar(10) primary key, "
                "c char, d double precision, e float(10), f timestamp with time zone, "
                "g numeric(10,2) check (g > 0), constraint pk primary key (a, b), unique (c), "
                "h integer constraint nn not null null unique, i text default 'x', "
                "j timestamp without time zone, k float(25), l boolean, m smallint, n bigint, "
                "o real, p character varying(5), q character(2), r decimal, s timestamptz, t date)",
                "(create t [(col a int4 (not-null) (default (+ 1 2) text=\"1 + 2\")) "
                "(col b varchar(10) (primary)) (col c bpchar(1)) (col d float8) (col e float4) "
                "(col f timestamptz) (col g numeric(10,2) (check (> g 0) text=\"g > 0\")) "
                "(primary name=pk (a,b)) (unique (c)) "
                "(col h int4 (not-null name=nn) (null) (unique)) (col i text (default 'x' text=\"'x'\")) "
                "(col j timestamp) (col k float8) (col l bool) (col m int2) (col n int8) "
                "(col o float4) (col p varchar(5)) (col q bpchar(2)) (col r numeric) "
                "(col s timestamptz) (col t date)])");
    assert_tree("create table if not exists s.t ()", "(create-if-not-exists s.t [])");
    assert_tree("create table t (a int default -1 not null)",
                "(create t [(col a int4 (default -1 text=\"-1\") (not-null))])");
    ErrorData e = parse_error("create table t (a float(0))");
    cr_assert_str_eq(e.message, "precision for type float must be at least 1 bit");
    e = parse_error("create table t (a float(54))");
    cr_assert_str_eq(e.message, "precision for type float must be less than 54 bits");
    assert_syntax_error("create table user (a int)", "syntax error at or near \"user\"", 14);
    assert_syntax_error("create table t (a int,)", "syntax error at or near \")\"", 23);
}

Test(parser, drop_table)
{
    assert_tree("drop table if exists a, s.b cascade", "(drop-if-exists [a s.b] cascade)");
    assert_tree("drop table c restrict", "(drop [c])");
    List *stmts = parse_sql(arena, "drop table x");
    DropStmt *d = (DropStmt *)((RawStmt *)list_nth(stmts, 0))->stmt;
    cr_assert(IS_A(d, DropStmt));
    cr_assert_eq(d->remove_type, OBJECT_TABLE);
    cr_assert(!d->missing_ok);
}

/* ---------- utility statements ---------- */

Test(parser, transactions)
{
    assert_tree("begin; begin work; begin transaction isolation level serializable, read only; "
                "start transaction read write isolation level read committed; commit; commit work; "
                "end; end transaction; rollback; abort work",
                "(begin); (begin); (begin \"isolation level serializable\" \"read only\"); "
                "(begin \"read write\" \"isolation level read committed\"); (commit); (commit); "
                "(commit); (commit); (rollback); (rollback)");
}

Test(parser, set_reset_show)
{
    assert_tree("set search_path to public, 'x'; set local x = 1.5; set session y to default; "
                "set time zone 'UTC'; set time zone local; set x = -3; set x to on; "
                "set datestyle = iso, mdy",
                "(set search_path 'public' 'x'); (set local x 1.5); (set-default y); "
                "(set timezone 'UTC'); (set-default timezone); (set x -3); (set x 'on'); "
                "(set datestyle 'iso' 'mdy')");
    assert_tree("set transaction isolation level repeatable read; set transaction read only; "
                "set session characteristics as transaction isolation level serializable; "
                "set names 'UTF8'",
                "(set transaction_isolation 'repeatable read'); (set transaction_read_only 'on'); "
                "(set default_transaction_isolation 'serializable'); (set client_encoding 'UTF8')");
    assert_tree("reset all; reset x; reset time zone",
                "(reset-all); (reset x); (reset timezone)");
    assert_tree("show all; show time zone; show transaction isolation level; show a.b; show DateStyle",
                "(show all); (show timezone); (show transaction_isolation); (show a.b); (show datestyle)");
}

Test(parser, explain_and_alter_role)
{
    assert_tree("explain select 1; explain analyze select 1; explain analyze verbose select 1; "
                "explain verbose insert into t values (1)",
                "(explain (select [1])); (explain analyze (select [1]) options [analyze]); "
                "(explain analyze verbose (select [1]) options [analyze verbose]); "
                "(explain verbose (insert t (values [1])) options [verbose])");
    assert_tree("explain (analyze, verbose off) select 1; explain (analyze 0, verbose) select 1; "
                "explain (select 1)",
                "(explain analyze (select [1]) options [analyze verbose='off']); "
                "(explain verbose (select [1]) options [analyze=0 verbose]); (explain (select [1]))");
    assert_syntax_error("explain (foo) select 1", "unrecognized EXPLAIN option \"foo\"", 10);
    ErrorData e = parse_error("explain (analyze maybe) select 1");
    cr_assert_str_eq(e.message, "analyze requires a Boolean value");
    /* PostgreSQL's other options are parsed into ExplainStmt.options */
    assert_tree("explain (costs off, format json, buffers, settings true) select 1",
                "(explain (select [1]) options [costs='off' format='json' buffers settings='true'])");
    e = parse_error("explain (wal) select 1");
    cr_assert_str_eq(e.message, "EXPLAIN option WAL requires ANALYZE");
    assert_tree("alter role postgres with password 'x'; alter user u password null; "
                "alter role r encrypted password 'y'",
                "(alter-role postgres password=x); (alter-role u password=NULL); (alter-role r password=y)");
    List *stmts = parse_sql(arena, "alter user u password null");
    AlterRoleStmt *a = (AlterRoleStmt *)((RawStmt *)list_nth(stmts, 0))->stmt;
    cr_assert(a->has_password);
    cr_assert_null(a->password);
}

/* ---------- second wave: statement trees ---------- */

Test(parser, update_delete_truncate)
{
    assert_tree("UPDATE t SET a = 1, b = b + 1 WHERE c = 'x' RETURNING a, b",
                "(update t set [1 AS a (+ b 1) AS b] where (= c 'x') returning [a b])");
    assert_tree("UPDATE ONLY t AS x SET a = x.b FROM u WHERE u.a = x.a",
                "(update only t AS x set [x.b AS a] from [u] where (= u.a x.a))");
    assert_tree("UPDATE t x SET (a, b) = (1, 2), c = DEFAULT",
                "(update t AS x set [(multi 1/2 (tuple [1 2])) AS a (multi 2/2 (tuple [1 2])) AS b DEFAULT AS c])");
    assert_tree("UPDATE t SET (a, b) = (SELECT 1, 2), arr[1] = 5",
                "(update t set [(multi 1/2 (multiexpr (select [1 2]))) AS a (multi 2/2 (multiexpr (select [1 2]))) AS b 5 AS arr])");
    assert_tree("DELETE FROM t USING u WHERE t.a = u.a RETURNING *",
                "(delete t using [u] where (= t.a u.a) returning [*])");
    assert_tree("DELETE FROM t AS x WHERE x.a = 1",
                "(delete t AS x where (= x.a 1))");
    assert_tree("TRUNCATE t; TRUNCATE TABLE t, ONLY u RESTART IDENTITY CASCADE",
                "(truncate [t]); (truncate [t only u] restart-identity cascade)");
    assert_tree("WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d",
                "(select [*] from [d] with ([(cte d (delete t returning [*]))]))");
}

Test(parser, insert_on_conflict_returning)
{
    assert_tree("INSERT INTO t (a) VALUES (1) ON CONFLICT DO NOTHING",
                "(insert t cols [a] (values [1]) on-conflict (nothing))");
    assert_tree("INSERT INTO t (a, b) VALUES (1, 2) ON CONFLICT (a) DO UPDATE SET b = excluded.b WHERE t.b < 5",
                "(insert t cols [a b] (values [1 2]) on-conflict (update ([a]) set [excluded.b AS b] where (< t.b 5)))");
    assert_tree("INSERT INTO t VALUES (1) ON CONFLICT ON CONSTRAINT t_pkey DO NOTHING RETURNING *",
                "(insert t (values [1]) on-conflict (nothing (constraint t_pkey)) returning [*])");
    assert_tree("INSERT INTO t AS x (a) SELECT a FROM u RETURNING x.a AS z",
                "(insert t AS x cols [a] (select [a] from [u]) returning [x.a AS z])");
    assert_tree("WITH s AS (SELECT 1 AS a) INSERT INTO t (a) SELECT a FROM s",
                "(insert t cols [a] (select [a] from [s]) with ([(cte s (select [1 AS a]))]))");
}

Test(parser, create_table_as_and_options)
{
    assert_tree("CREATE TABLE n1 AS SELECT * FROM t WITH NO DATA",
                "(create-table-as (into n1 no-data) (select [*] from [t]))");
    assert_tree("CREATE TABLE IF NOT EXISTS n2 (x, y) AS SELECT a, b FROM t WITH DATA",
                "(create-table-as if-not-exists (into n2(x,y)) (select [a b] from [t]))");
    assert_tree("CREATE TABLE n3 WITH (fillfactor=70) AS SELECT 1",
                "(create-table-as (into n3 with [fillfactor=70]) (select [1]))");
    assert_tree("CREATE TEMP TABLE n4 (a int) ON COMMIT DROP",
                "(create temp n4 [(col a int4)])");
    assert_tree("CREATE TABLE n5 (a int) WITH (fillfactor=100, toast.autovacuum_enabled=false)",
                "(create n5 [(col a int4)] with [fillfactor=100 toast.autovacuum_enabled='false'])");
    assert_tree("CREATE UNLOGGED TABLE n6 (a timestamp WITH time zone)",
                "(create unlogged n6 [(col a timestamptz)])");
    assert_tree("CREATE MATERIALIZED VIEW mv AS SELECT 1",
                "(create-matview-as (into mv) (select [1]))");
    assert_tree("SELECT a INTO TEMP tt FROM t",
                "(select [a] into (into temp tt) from [t])");
}

Test(parser, alter_table_and_rename)
{
    assert_tree("ALTER TABLE t ADD COLUMN d int NOT NULL DEFAULT 0, ADD e text",
                "(alter-table t [(add-column (col d int4 (not-null) (default 0 text=\"0\"))) (add-column (col e text))])");
    assert_tree("ALTER TABLE t ADD PRIMARY KEY (a)",
                "(alter-table t [(add-constraint (primary (a)))])");
    assert_tree("ALTER TABLE t ADD CONSTRAINT t_pk PRIMARY KEY (a, b)",
                "(alter-table t [(add-constraint (primary name=t_pk (a,b)))])");
    assert_tree("ALTER TABLE IF EXISTS t DROP COLUMN IF EXISTS c CASCADE, DROP CONSTRAINT k",
                "(alter-table if-exists t [(drop-column if-exists c cascade) (drop-constraint k)])");
    assert_tree("ALTER TABLE t ALTER COLUMN a TYPE bigint USING a::bigint, ALTER b SET DEFAULT 5, ALTER b DROP NOT NULL",
                "(alter-table t [(type a (col a int8) using (cast a int8)) (default b 5) (drop-not-null b)])");
    assert_tree("ALTER TABLE t RENAME TO t9",
                "(rename t to t9)");
    assert_tree("ALTER TABLE t RENAME COLUMN a TO a2",
                "(rename column t a to a2)");
    assert_tree("ALTER TABLE t RENAME CONSTRAINT k TO k2",
                "(rename constraint t k to k2)");
    assert_tree("ALTER INDEX i RENAME TO i2",
                "(rename index i to i2)");
}

Test(parser, copy_statements)
{
    assert_tree("COPY t FROM STDIN",
                "(copy t from stdin)");
    assert_tree("COPY t (a, b) FROM STDIN WITH (FORMAT csv, HEADER true, DELIMITER ';', NULL '', QUOTE '\"', ESCAPE '\\', FREEZE on, ENCODING 'UTF8')",
                "(copy t(a,b) from stdin options [format='csv' header='true' delimiter=';' null='' quote='\"' escape='\\' freeze='on' encoding='UTF8'])");
    assert_tree("COPY t FROM '/tmp/x.csv' (FORMAT csv, HEADER match, FORCE_NOT_NULL (a, b))",
                "(copy t from /tmp/x.csv options [format='csv' header='match' force_not_null=(a,b)])");
    assert_tree("COPY (SELECT * FROM t) TO STDOUT WITH (FORMAT csv, HEADER)",
                "(copy (select [*] from [t]) to stdout options [format='csv' header])");
    assert_tree("COPY t FROM STDIN WITH DELIMITER AS '\t' NULL AS '\\N'",
                "(copy t from stdin options [delimiter='\t' null='\\N'])");
    assert_tree("COPY t FROM STDIN CSV HEADER QUOTE AS '\"' FORCE NOT NULL a",
                "(copy t from stdin options [format='csv' header=true quote='\"' force_not_null=(a)])");
    assert_tree("COPY t TO STDOUT WITH CSV FORCE QUOTE *",
                "(copy t to stdout options [format='csv' force_quote=*])");
    assert_tree("COPY BINARY t TO STDOUT",
                "(copy t to stdout options [format='binary'])");
    assert_tree("COPY t FROM STDIN FREEZE WHERE a > 1",
                "(copy t from stdin options [freeze=true] where (> a 1))");
    assert_tree("COPY t TO PROGRAM 'gzip > /tmp/x'",
                "(copy t to program gzip > /tmp/x)");
}

Test(parser, transactions_and_savepoints)
{
    assert_tree("SAVEPOINT s1; RELEASE SAVEPOINT s1; RELEASE s1; ROLLBACK TO SAVEPOINT s1; ROLLBACK WORK TO s1",
                "(savepoint s1); (release s1); (release s1); (rollback-to s1); (rollback-to s1)");
    assert_tree("BEGIN ISOLATION LEVEL SERIALIZABLE, READ ONLY, DEFERRABLE",
                "(begin \"isolation level serializable\" \"read only\" \"deferrable\")");
    assert_tree("START TRANSACTION ISOLATION LEVEL REPEATABLE READ READ WRITE NOT DEFERRABLE",
                "(begin \"isolation level repeatable read\" \"read write\" \"not deferrable\")");
    assert_tree("COMMIT AND CHAIN; ROLLBACK AND NO CHAIN",
                "(commit and-chain); (rollback)");
    assert_tree("SET TRANSACTION ISOLATION LEVEL READ UNCOMMITTED",
                "(set transaction_isolation 'read uncommitted')");
    assert_tree("SET TRANSACTION READ ONLY, ISOLATION LEVEL SERIALIZABLE",
                "(set-multi transaction modes [transaction_read_only=true transaction_isolation='serializable'])");
    assert_tree("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY",
                "(set default_transaction_read_only 'on')");
}

Test(parser, databases_schemas_roles)
{
    assert_tree("CREATE DATABASE d8 WITH OWNER = postgres ENCODING 'UTF8' TEMPLATE template0 CONNECTION LIMIT = 5",
                "(create-database d8 [owner='postgres' encoding='UTF8' template='template0' connection_limit=5])");
    assert_tree("DROP DATABASE IF EXISTS d7; DROP DATABASE d7 WITH (FORCE)",
                "(drop-database-if-exists d7); (drop-database d7 [force])");
    assert_tree("CREATE SCHEMA s9; CREATE SCHEMA IF NOT EXISTS s9 AUTHORIZATION bob; CREATE SCHEMA AUTHORIZATION bob",
                "(create-schema s9); (create-schema-if-not-exists s9 authorization bob); (create-schema <> authorization bob)");
    assert_tree("DROP SCHEMA IF EXISTS s9, s8 CASCADE",
                "(drop-if-exists schema [s9 s8] cascade)");
    assert_tree("CREATE ROLE r9 WITH LOGIN NOSUPERUSER PASSWORD 'x' CREATEDB",
                "(create-role r9 [canlogin=true superuser=false password='x' createdb=true])");
    assert_tree("CREATE USER u9 SUPERUSER CONNECTION LIMIT 3 VALID UNTIL '2030-01-01' IN ROLE admins",
                "(create-user u9 [superuser=true connectionlimit=3 validUntil='2030-01-01' addroleto=(admins)])");
    assert_tree("ALTER ROLE bob WITH NOLOGIN PASSWORD 'y'",
                "(alter-role bob [canlogin=false password='y'])");
    assert_tree("DROP ROLE r9; DROP USER IF EXISTS u9, u8",
                "(drop-role (r9)); (drop-role-if-exists (u9,u8))");
}

Test(parser, maintenance_and_indexes)
{
    assert_tree("VACUUM; VACUUM FULL; VACUUM FULL FREEZE VERBOSE ANALYZE t; VACUUM ANALYZE t, u",
                "(vacuum [] []); (vacuum [full] []); (vacuum [full freeze verbose analyze] [t]); (vacuum [analyze] [t u])");
    assert_tree("VACUUM (VERBOSE, ANALYZE) t; VACUUM (FULL true, FREEZE) t (a, b)",
                "(vacuum [verbose analyze] [t]); (vacuum [full='true' freeze] [t(a,b)])");
    assert_tree("ANALYZE; ANALYZE VERBOSE t (a); CHECKPOINT",
                "(analyze [] []); (analyze [verbose] [t(a)]); (checkpoint)");
    assert_tree("CREATE INDEX i1 ON t (a)",
                "(create-index i1 on t using btree [a])");
    assert_tree("CREATE UNIQUE INDEX IF NOT EXISTS i2 ON t USING btree (a DESC NULLS LAST, b)",
                "(create-unique-index if-not-exists i2 on t using btree [a DESC b])");
    assert_tree("CREATE INDEX ON t (lower(c)); CREATE INDEX i3 ON t ((a + b)) WHERE b > 0",
                "(create-index <> on t using btree [(call lower c)]); (create-index i3 on t using btree [(+ a b)] where (> b 0))");
    assert_tree("CREATE INDEX CONCURRENTLY i5 ON t (c text_pattern_ops, a NULLS FIRST) INCLUDE (b) WITH (fillfactor = 90)",
                "(create-index concurrently i5 on t using btree [c text_pattern_ops a] with [fillfactor=90])");
    assert_tree("DROP INDEX i1; DROP INDEX CONCURRENTLY IF EXISTS i1, i2",
                "(drop index [i1]); (drop-if-exists index [i1 i2])");
    assert_tree("CREATE VIEW v1 AS SELECT * FROM t",
                "(create-view v1 (select [*] from [t]))");
    assert_tree("CREATE OR REPLACE TEMP VIEW v1 (x, y) AS SELECT a, b FROM t WITH LOCAL CHECK OPTION",
                "(create-or-replace-view temp v1(x,y) (select [a b] from [t]) check-option)");
    assert_tree("DROP VIEW IF EXISTS v1, v2 CASCADE; DROP MATERIALIZED VIEW mv",
                "(drop-if-exists view [v1 v2] cascade); (drop matview [mv])");
    assert_tree("CREATE SEQUENCE IF NOT EXISTS sq2 AS bigint INCREMENT BY 2 MINVALUE 1 NO MAXVALUE START WITH 5 CACHE 10 CYCLE OWNED BY t.a",
                "(create-sequence sq2 [as=int8 increment=2 minvalue=1 maxvalue start=5 cache=10 cycle=true owned_by=(t,a)])");
    assert_tree("ALTER SEQUENCE sq1 RESTART WITH 1; ALTER SEQUENCE sq1 RESTART; DROP SEQUENCE IF EXISTS sq1",
                "(alter-sequence sq1 [restart=1]); (alter-sequence sq1 [restart]); (drop-if-exists sequence [sq1])");
    assert_tree("CREATE TYPE mood AS ENUM ('ok', 'sad'); DROP TYPE mood",
                "(create-enum mood (ok,sad)); (drop type [mood])");
    assert_tree("CREATE TABLE s1 (id serial PRIMARY KEY, b bigserial, c smallserial)",
                "(create s1 [(col id serial (primary)) (col b bigserial) (col c smallserial)])");
    assert_tree("CREATE TABLE s2 (id int GENERATED ALWAYS AS IDENTITY, b bigint GENERATED BY DEFAULT AS IDENTITY (START WITH 10 INCREMENT BY 5))",
                "(create s2 [(col id int4 (identity always)) (col b int8 (identity by-default options [start=10 increment=5]))])");
    assert_tree("CREATE TABLE s3 (a int, b int GENERATED ALWAYS AS (a * 2) STORED, c text COLLATE \"C\")",
                "(create s3 [(col a int4) (col b int4 (generated (* a 2) text=\"a * 2\" always)) (col c text (collate <> C))])");
    assert_tree("CREATE TABLE s4 (a int REFERENCES t (a) ON DELETE CASCADE, b int, FOREIGN KEY (b) REFERENCES u MATCH FULL ON UPDATE SET NULL ON DELETE RESTRICT)",
                "(create s4 [(col a int4 (foreign references t(a) match=s upd=a del=c)) (col b int4) (foreign (b) references u match=f upd=n del=r)])");
}

Test(parser, prepare_execute_cursors_session)
{
    assert_tree("PREPARE p1 (int, text) AS SELECT * FROM t WHERE a = $1 AND c = $2",
                "(prepare p1 [int4 text] (select [*] from [t] where (and (= a $1) (= c $2))))");
    assert_tree("PREPARE p2 AS INSERT INTO t (a) VALUES ($1); EXECUTE p1 (1, 'x'); EXECUTE p2",
                "(prepare p2 [] (insert t cols [a] (values [$1]))); (execute p1 [1 'x']); (execute p2 [])");
    assert_tree("DEALLOCATE p1; DEALLOCATE PREPARE p1; DEALLOCATE ALL",
                "(deallocate p1); (deallocate p1); (deallocate all)");
    assert_tree("DISCARD ALL; DISCARD TEMP; UNLISTEN *; UNLISTEN chan; LISTEN chan; NOTIFY chan, 'payload'",
                "(discard all); (discard temp); (unlisten *); (unlisten chan); (listen chan); (notify chan 'payload')");
    assert_tree("DECLARE c1 CURSOR WITH HOLD FOR SELECT * FROM t",
                "(declare c1 0x20 (select [*] from [t]))");
    assert_tree("DECLARE c2 BINARY NO SCROLL CURSOR WITHOUT HOLD FOR SELECT 1",
                "(declare c2 0x5 (select [1]))");
    assert_tree("FETCH c1; FETCH FORWARD 5 FROM c1; FETCH ALL IN c1; FETCH FORWARD ALL FROM c1; FETCH NEXT c1",
                "(fetch forward 1 c1); (fetch forward 5 c1); (fetch forward all c1); (fetch forward all c1); (fetch forward 1 c1)");
    assert_tree("FETCH BACKWARD 2 c1; FETCH -2 FROM c1; FETCH LAST FROM c1; MOVE ABSOLUTE 3 IN c1; CLOSE c1; CLOSE ALL",
                "(fetch backward 2 c1); (fetch backward 2 c1); (fetch absolute -1 c1); (move absolute 3 c1); (close c1); (close all)");
    assert_tree("COMMENT ON TABLE s.t IS 'x'; COMMENT ON COLUMN t.a IS NULL",
                "(comment s.t x); (comment column t.a NULL)");
    assert_tree("GRANT SELECT, INSERT ON t TO bob; GRANT ALL PRIVILEGES ON TABLE t TO PUBLIC WITH GRANT OPTION",
                "(grant (select,insert) on (t) to (bob)); (grant all on (t) to (public))");
    assert_tree("REVOKE ALL ON t FROM bob; GRANT USAGE ON SCHEMA public TO bob",
                "(revoke all on (t) to (bob)); (grant (usage) on schema (public) to (bob))");
    assert_tree("LOCK TABLE t IN ACCESS EXCLUSIVE MODE; LOCK t, u NOWAIT",
                "(lock [t] mode=8); (lock [t u] mode=8 nowait)");
    assert_tree("SHOW TRANSACTION ISOLATION LEVEL; SET ROLE bob; SET SESSION AUTHORIZATION DEFAULT; RESET SESSION AUTHORIZATION",
                "(show transaction_isolation); (set role 'bob'); (set-default session_authorization); (reset session_authorization)");
    assert_tree("EXPLAIN ANALYZE VERBOSE SELECT 1",
                "(explain analyze verbose (select [1]) options [analyze verbose])");
    assert_tree("EXPLAIN (ANALYZE, BUFFERS, COSTS OFF, FORMAT JSON) UPDATE t SET a = 1",
                "(explain analyze (update t set [1 AS a]) options [analyze buffers costs='off' format='json'])");
}

Test(parser, subqueries)
{
    assert_tree("SELECT (SELECT max(a) FROM u) FROM t",
                "(select [(expr (select [(call max a)] from [u]))] from [t])");
    assert_tree("SELECT * FROM t WHERE a IN (SELECT a FROM u) AND b NOT IN (SELECT b FROM u)",
                "(select [*] from [t] where (and (any = a (select [a] from [u])) (not (any = b (select [b] from [u])))))");
    assert_tree("SELECT * FROM t WHERE EXISTS (SELECT 1 FROM u WHERE u.a = t.a)",
                "(select [*] from [t] where (exists (select [1] from [u] where (= u.a t.a))))");
    assert_tree("SELECT * FROM t WHERE a = ANY (SELECT a FROM u) OR a > ALL (SELECT a FROM u) OR a < SOME (SELECT a FROM u)",
                "(select [*] from [t] where (or (any = a (select [a] from [u])) (all > a (select [a] from [u])) (any < a (select [a] from [u]))))");
    assert_tree("SELECT * FROM t WHERE a = ANY (arr) AND c LIKE ANY (ARRAY['a%', 'b%']) AND a <> ALL ('{1,2}'::int[])",
                "(select [*] from [t] where (and (= any a arr) (~~ any c (array ['a%' 'b%'])) (<> all a (cast '{1,2}' int4[]))))");
    assert_tree("SELECT * FROM (SELECT a, b FROM t) AS s (x, y), (VALUES (1, 2)) v (p, q)",
                "(select [*] from [(subselect (select [a b] from [t]) AS s(x,y)) (subselect (values [1 2]) AS v(p,q))])");
    assert_tree("SELECT * FROM t, LATERAL (SELECT t.a) l CROSS JOIN LATERAL generate_series(1, t.a) g",
                "(select [*] from [t (join cross (subselect lateral (select [t.a]) AS l) (function lateral [(call generate_series 1 t.a)] AS g))])");
    assert_tree("SELECT ARRAY(SELECT a FROM t), ((SELECT 1)), 1 IN ((SELECT 1))",
                "(select [(array (select [a] from [t])) (expr (select [1])) (any = 1 (select [1]))])");
    assert_tree("SELECT * FROM t WHERE (a, b) IN (SELECT a, b FROM u) AND (a, b) = (1, 2)",
                "(select [*] from [t] where (and (any = (tuple [a b]) (select [a b] from [u])) (= (tuple [a b]) (tuple [1 2]))))");
}

Test(parser, with_and_set_operations)
{
    assert_tree("WITH x AS (SELECT 1 AS a) SELECT * FROM x",
                "(select [*] from [x] with ([(cte x (select [1 AS a]))]))");
    assert_tree("WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT * FROM r",
                "(select [*] from [r] with (recursive [(cte r(n) (union-all (select [1]) (select [(+ n 1)] from [r] where (< n 5))))]))");
    assert_tree("WITH x AS MATERIALIZED (SELECT 1), y AS NOT MATERIALIZED (SELECT 2) SELECT * FROM x, y",
                "(select [*] from [x y] with ([(cte x materialized (select [1])) (cte y not-materialized (select [2]))]))");
    assert_tree("SELECT 1 UNION SELECT 2 UNION ALL SELECT 3",
                "(union-all (union (select [1]) (select [2])) (select [3]))");
    assert_tree("SELECT 1 UNION SELECT 2 INTERSECT SELECT 3",
                "(union (select [1]) (intersect (select [2]) (select [3])))");
    assert_tree("SELECT 1 INTERSECT SELECT 2 EXCEPT ALL SELECT 3",
                "(except-all (intersect (select [1]) (select [2])) (select [3]))");
    assert_tree("(SELECT 1 ORDER BY 1 LIMIT 1) UNION DISTINCT (SELECT 2) ORDER BY 1 LIMIT 5 OFFSET 1",
                "(union (select [1] order [1] limit 1) (select [2]) order [1] limit 5 offset 1)");
    assert_tree("SELECT a FROM t UNION SELECT b FROM u ORDER BY a",
                "(union (select [a] from [t]) (select [b] from [u]) order [a])");
    assert_tree("SELECT x FROM (SELECT 1 AS x UNION SELECT 2) s",
                "(select [x] from [(subselect (union (select [1 AS x]) (select [2])) AS s)])");
}

Test(parser, select_clauses_second_wave)
{
    assert_tree("SELECT DISTINCT ON (a) a, b FROM t ORDER BY a, b DESC",
                "(select distinct on [a] [a b] from [t] order [a b DESC])");
    assert_tree("SELECT a FROM t FOR UPDATE; SELECT a FROM t FOR NO KEY UPDATE OF t NOWAIT; SELECT a FROM t FOR SHARE SKIP LOCKED",
                "(select [a] from [t] locking [(for-update)]); (select [a] from [t] locking [(for-no-key-update of [t] nowait)]); (select [a] from [t] locking [(for-share skip-locked)])");
    assert_tree("SELECT a FROM t LIMIT 1 FOR UPDATE; SELECT a FROM t FETCH FIRST 5 ROWS ONLY; SELECT a FROM t OFFSET 2 ROWS FETCH NEXT ROW ONLY",
                "(select [a] from [t] limit 1 locking [(for-update)]); (select [a] from [t] limit 5); (select [a] from [t] limit 1 offset 2)");
    assert_tree("TABLE t; SELECT * FROM ONLY t; SELECT 1 AS x ORDER BY x USING >",
                "(select [*] from [t]); (select [*] from [only t]); (select [1 AS x] order [x DESC])");
    assert_tree("SELECT * FROM generate_series(1, 10) AS g (x)",
                "(select [*] from [(function [(call generate_series 1 10)] AS g(x))])");
    assert_tree("SELECT * FROM unnest(ARRAY[1,2]) WITH ORDINALITY AS u (v, n)",
                "(select [*] from [(function [(call unnest (array [1 2]))] ordinality AS u(v,n))])");
    assert_tree("SELECT * FROM json_to_record('{\"a\":1}') AS x (a int, b text)",
                "(select [*] from [(function [(call json_to_record '{\"a\":1}')] AS x coldefs [(col a int4) (col b text)])])");
    assert_tree("SELECT * FROM t1 LEFT JOIN t2 USING (a) RIGHT OUTER JOIN t3 ON true",
                "(select [*] from [(join right (join left t1 t2 using (a)) t3 on true)])");
    assert_tree("SELECT * FROM (t1 JOIN t2 USING (a)) AS j",
                "(select [*] from [(join inner t1 t2 using (a)) AS j])");
}

Test(parser, grouping_sets)
{
    assert_tree("SELECT a, sum(b) FROM t GROUP BY GROUPING SETS ((a), (a, b), ())",
                "(select [a (call sum b)] from [t] group [(sets [a (simple [a b]) (empty [])])])");
    assert_tree("SELECT a, b FROM t GROUP BY ROLLUP (a, b), CUBE ((a, b), c)",
                "(select [a b] from [t] group [(rollup [a b]) (cube [(simple [a b]) c])])");
    assert_tree("SELECT sum(a) FROM t GROUP BY (); SELECT count(*) FROM t GROUP BY DISTINCT a",
                "(select [(call sum a)] from [t] group [(empty [])]); (select [(call count *)] from [t] group [a])");
    assert_tree("SELECT grouping(a, b) FROM t GROUP BY ROLLUP (a, b)",
                "(select [(call grouping a b)] from [t] group [(rollup [a b])])");
}

Test(parser, aggregates_and_windows)
{
    assert_tree("SELECT count(*) FILTER (WHERE a > 1), string_agg(c, ',' ORDER BY a DESC), array_agg(DISTINCT a ORDER BY a) FROM t",
                "(select [(call count * filter (> a 1)) (call string_agg c ',' order [a DESC]) (call array_agg distinct a order [a])] from [t])");
    assert_tree("SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY a), mode() WITHIN GROUP (ORDER BY c) FROM t",
                "(select [(call percentile_cont 0.5 within-group [a]) (call mode within-group [c])] from [t])");
    assert_tree("SELECT row_number() OVER (), rank() OVER (PARTITION BY b ORDER BY a) FROM t",
                "(select [(call row_number over (window)) (call rank over (window partition [b] order [a]))] from [t])");
    assert_tree("SELECT sum(a) OVER (PARTITION BY b ORDER BY a ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM t",
                "(select [(call sum a over (window partition [b] order [a] frame=0x435))] from [t])");
    assert_tree("SELECT sum(a) OVER (ORDER BY a RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING EXCLUDE CURRENT ROW) FROM t",
                "(select [(call sum a over (window order [a] frame=0xc813 start 1 end 1))] from [t])");
    assert_tree("SELECT sum(a) OVER (ORDER BY a GROUPS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING EXCLUDE TIES) FROM t",
                "(select [(call sum a over (window order [a] frame=0x20319))] from [t])");
    assert_tree("SELECT sum(a) OVER (ROWS 2 PRECEDING), sum(a) OVER (RANGE UNBOUNDED PRECEDING EXCLUDE NO OTHERS) FROM t",
                "(select [(call sum a over (window frame=0xc05 start 2)) (call sum a over (window frame=0x423))] from [t])");
    assert_tree("SELECT sum(a) OVER w, avg(a) OVER (w ORDER BY b) FROM t WINDOW w AS (PARTITION BY b)",
                "(select [(call sum a over (window name=w)) (call avg a over (window ref=w order [b]))] from [t] window [(window name=w partition [b])])");
    assert_tree("SELECT make_interval(days => 1, hours := 2), f(a, b => 1)",
                "(select [(call make_interval days=>1 hours=>2) (call f a b=>1)])");
    assert_tree("SELECT count(*) FILTER (WHERE a > 1) OVER (PARTITION BY b), f(VARIADIC arr) FROM t",
                "(select [(call count * filter (> a 1) over (window partition [b])) (call f arr variadic)] from [t])");
}

Test(parser, new_expressions)
{
    assert_tree("SELECT interval '1 day', interval '1' day, interval '1-2' year to month, INTERVAL '3' SECOND, interval(2) '1'",
                "(select [(cast '1 day' interval) (cast '1' interval{0x8}) (cast '1-2' interval{0x6}) (cast '3' interval{0x1000}) (cast '1' interval(2))])");
    assert_tree("SELECT '1 day'::interval, CAST('1' AS interval hour to minute), x::interval day to second",
                "(select [(cast '1 day' interval) (cast '1' interval{0xc00}) (cast x interval{0x1c08})])");
    assert_tree("SELECT ARRAY[1, 2, 3], ARRAY[[1,2],[3,4]], ARRAY[]::int[], '{1,2}'::int[], '{}'::text[][]",
                "(select [(array [1 2 3]) (array [(array [1 2]) (array [3 4])]) (cast (array []) int4[]) (cast '{1,2}' int4[]) (cast '{}' text[][])])");
    assert_tree("SELECT arr[1], arr[1:2], arr[:2], arr[2:], (arr)[1], t.arr[1], $1[2] FROM t",
                "(select [(indirect arr [[1]]) (indirect arr [[1:2]]) (indirect arr [[<>:2]]) (indirect arr [[2:<>]]) (indirect arr [[1]]) (indirect t.arr [[1]]) (indirect $1 [[2]])] from [t])");
    assert_tree("SELECT (f(x)).y, (r).*, (SELECT arr FROM t)[1]",
                "(select [(indirect (call f x) [y]) (indirect r [*]) (indirect (expr (select [arr] from [t])) [[1]])])");
    assert_tree("SELECT j -> 'a', j ->> 'a', j #> '{a,b}', j #>> '{a}', j @> '{}', '{}' <@ j, j ? 'a' FROM t",
                "(select [(-> j 'a') (->> j 'a') (#> j '{a,b}') (#>> j '{a}') (@> j '{}') (<@ '{}' j) (? j 'a')] from [t])");
    assert_tree("SELECT c SIMILAR TO 'a%', c NOT SIMILAR TO 'b' ESCAPE '#', c ~ 'x', c ~* 'x', c !~ 'x', c !~* 'x' FROM t",
                "(select [(~ c (call similar_to_escape 'a%')) (!~ c (call similar_to_escape 'b' '#')) (~ c 'x') (~* c 'x') (!~ c 'x') (!~* c 'x')] from [t])");
    assert_tree("SELECT a IS DISTINCT FROM b, a IS NOT DISTINCT FROM b FROM t",
                "(select [(is-distinct a b) (is-not-distinct a b)] from [t])");
    assert_tree("SELECT ts AT TIME ZONE 'UTC', c COLLATE \"C\", c COLLATE pg_catalog.default FROM t ORDER BY c COLLATE \"C\"",
                "(select [(call timezone 'UTC' ts) (collate c C) (collate c pg_catalog.default)] from [t] order [(collate c C)])");
    assert_tree("SELECT 't'::regclass, 1::pg_catalog.int8, c OPERATOR(pg_catalog.~) 'x', OPERATOR(pg_catalog.-) 5, a = ANY (OPERATOR(pg_catalog.=) 1)",
                "(select [(cast 't' regclass) (cast 1 pg_catalog.int8) (~ c 'x') (- 5) (= any a (= 1))])");
    assert_tree("SELECT a OPERATOR(pg_catalog.=) ANY (arr) FROM t",
                "(select [(= any a arr)] from [t])");
    assert_tree("SELECT overlay('abcdef' PLACING 'zz' FROM 2 FOR 3), overlay('abc' PLACING 'z' FROM 2), substring('abc' FROM 'b')",
                "(select [(call overlay 'abcdef' 'zz' 2 3) (call overlay 'abc' 'z' 2) (call substring 'abc' 'b')])");
    assert_tree("SELECT CURRENT_TIMESTAMP(3), LOCALTIME(2), SESSION_USER, CURRENT_SCHEMA, CURRENT_CATALOG, CURRENT_ROLE, current_schema()",
                "(select [(call current_timestamp 3) (call localtime 2) (call session_user) (call current_schema) (call current_catalog) (call current_role) (call current_schema)])");
    assert_tree("SELECT ROW(1, 2), ROW(), (1, 2), (1, 'a') = (1, 'a')",
                "(select [(row [1 2]) (row []) (tuple [1 2]) (= (tuple [1 'a']) (tuple [1 'a']))])");
    /* unreserved and column-name keywords stay identifiers where PostgreSQL allows them */
    assert_tree("SELECT operator, exists, row, grouping, at, x at FROM t GROUP BY cube, rollup ORDER BY operator",
                "(select [operator exists row grouping at x AS at] from [t] group [cube rollup] order [operator])");
    assert_tree("UPDATE t SET set = 1; SELECT sum(a) OVER (ROWS CURRENT ROW) FROM t; SELECT nulls FROM t ORDER BY a NULLS FIRST",
                "(update t set [1 AS set]); (select [(call sum a over (window frame=0x605))] from [t]); "
                "(select [nulls] from [t] order [a NULLS FIRST])");
    assert_tree("SELECT DEFAULT; SELECT time, range, rows, partition, current, nulls, filter, over, within, cube, rollup, sets FROM t",
                "(select [DEFAULT]); (select [time range rows partition current nulls filter over within cube rollup sets] from [t])");
    assert_tree("CREATE TABLE ty (a timestamptz, b time, c interval year to month, d uuid, e bytea, f jsonb, g int[], h text[][], i int ARRAY, j interval(3), k pg_catalog.int4)",
                "(create ty [(col a timestamptz) (col b time) (col c interval{0x6}) (col d uuid) (col e bytea) (col f jsonb) (col g int4[]) (col h text[][]) (col i int4[]) (col j interval(3)) (col k pg_catalog.int4)])");
}

/* ---------- second wave: field checks ---------- */

Test(parser, sublink_and_array_fields)
{
    SubLink *s = (SubLink *)target1("select x in (select a from t)");
    cr_assert(IS_A(s, SubLink));
    cr_assert_eq(s->sub_link_type, ANY_SUBLINK);
    cr_assert_str_eq(s->oper_name, "=");
    cr_assert(IS_A(s->testexpr, ColumnRef));
    cr_assert(IS_A(s->subselect, SelectStmt));
    cr_assert_eq(s->node.location, 9);
    s = (SubLink *)target1("select (select 1)");
    cr_assert_eq(s->sub_link_type, EXPR_SUBLINK);
    cr_assert_eq(s->node.location, 7); /* the parenthesis, as PostgreSQL */
    s = (SubLink *)target1("select x <> all (select 1)");
    cr_assert_eq(s->sub_link_type, ALL_SUBLINK);
    cr_assert_str_eq(s->oper_name, "<>");
    A_ArrayOpExpr *a = (A_ArrayOpExpr *)target1("select x operator(pg_catalog.=) any (arr)");
    cr_assert(IS_A(a, A_ArrayOpExpr));
    cr_assert(a->use_or);
    cr_assert_str_eq(a->name, "=");
    cr_assert_str_eq(a->opschema, "pg_catalog");
    A_Expr *e = (A_Expr *)target1("select c operator(pg_catalog.~) 'x'");
    cr_assert_eq(e->kind, AEXPR_OP);
    cr_assert_str_eq(e->opschema, "pg_catalog");
    A_Indirection *ind = (A_Indirection *)target1("select t.arr[2:3]");
    cr_assert(IS_A(ind, A_Indirection));
    cr_assert(IS_A(ind->arg, ColumnRef));
    A_Indices *ix = list_nth(ind->indirection, 0);
    cr_assert(ix->is_slice);
    cr_assert_eq(((A_Const *)ix->lidx)->ival, 2);
    RowExpr *r = (RowExpr *)target1("select row(1, 2)");
    cr_assert(r->explicit_row);
    cr_assert_eq(list_len(r->args), 2);
    CollateClause *c = (CollateClause *)target1("select c collate \"C\"");
    cr_assert(IS_A(c, CollateClause));
    cr_assert_str_eq(list_nth(c->collname, 0), "C");
    TypeCast *tc = (TypeCast *)target1("select interval '1' day to second");
    cr_assert_eq(tc->type_name->interval_fields,
                 INTERVAL_MASK_DAY | INTERVAL_MASK_HOUR | INTERVAL_MASK_MINUTE | INTERVAL_MASK_SECOND);
    FuncCall *f = (FuncCall *)target1("select ts at time zone 'UTC'");
    cr_assert(f->sql_syntax);
    cr_assert_str_eq(list_nth(f->funcname, 0), "timezone");
    cr_assert(IS_A(target1("select default"), SetToDefault));
}

Test(parser, select_second_wave_fields)
{
    SelectStmt *s = (SelectStmt *)stmt1("select distinct on (a, b) a from t group by distinct a "
                                         "window w as (order by a)");
    cr_assert(s->distinct);
    cr_assert_eq(list_len(s->distinct_clause), 2);
    cr_assert(s->group_distinct);
    cr_assert_str_eq(((WindowDef *)list_nth(s->window_clause, 0))->name, "w");
    s = (SelectStmt *)stmt1("select distinct a from t");
    cr_assert(s->distinct);
    cr_assert_null(s->distinct_clause);
    s = (SelectStmt *)stmt1("with recursive r as (select 1) select 1 union all select 2 order by 1");
    cr_assert_eq(s->op, SELECT_SETOP_UNION);
    cr_assert(s->all);
    cr_assert(s->with_clause->recursive);
    cr_assert_eq(list_len(s->sort_clause), 1);
    cr_assert_eq(s->larg->op, SELECT_SETOP_NONE);
    s = (SelectStmt *)stmt1("select * from unnest(a) with ordinality as u(x, n), lateral (select 1) q");
    RangeFunction *rf = list_nth(s->from_clause, 0);
    cr_assert(IS_A(rf, RangeFunction));
    cr_assert(rf->ordinality);
    cr_assert_str_eq(rf->alias, "u");
    cr_assert_eq(list_len(rf->colaliases), 2);
    RangeSubselect *rs = list_nth(s->from_clause, 1);
    cr_assert(rs->lateral);
    cr_assert_str_eq(rs->alias, "q");
    FuncCall *f = (FuncCall *)target1("select sum(x) over (partition by a order by b rows between 2 preceding "
                                      "and 1 following exclude ties) from t");
    WindowDef *w = f->over;
    cr_assert_eq(w->frame_options, FRAMEOPTION_NONDEFAULT | FRAMEOPTION_ROWS | FRAMEOPTION_BETWEEN |
                                       FRAMEOPTION_START_OFFSET_PRECEDING |
                                       FRAMEOPTION_END_OFFSET_FOLLOWING | FRAMEOPTION_EXCLUDE_TIES);
    cr_assert_eq(((A_Const *)w->start_offset)->ival, 2);
    cr_assert_eq(((A_Const *)w->end_offset)->ival, 1);
    f = (FuncCall *)target1("select rank() over (order by a) from t");
    cr_assert_eq(f->over->frame_options, FRAMEOPTION_DEFAULTS);
    f = (FuncCall *)target1("select percentile_disc(0.5) within group (order by a) filter (where b) from t");
    cr_assert(f->agg_within_group);
    cr_assert_eq(list_len(f->agg_order), 1);
    cr_assert(IS_A(f->agg_filter, ColumnRef));
    s = (SelectStmt *)stmt1("select 1 from t group by rollup (a, (b, c))");
    GroupingSet *g = list_nth(s->group_clause, 0);
    cr_assert_eq(g->kind, GROUPING_SET_ROLLUP);
    cr_assert_eq(((GroupingSet *)list_nth(g->content, 1))->kind, GROUPING_SET_SIMPLE);
    s = (SelectStmt *)stmt1("select * from t for update of t skip locked");
    LockingClause *l = list_nth(s->locking_clause, 0);
    cr_assert_eq(l->strength, LCS_FORUPDATE);
    cr_assert_eq(l->wait_policy, LockWaitSkip);
}

Test(parser, dml_second_wave_fields)
{
    UpdateStmt *u = (UpdateStmt *)stmt1("update t as x set (a, b) = (select 1, 2), c = 3 from u returning *");
    cr_assert(IS_A(u, UpdateStmt));
    cr_assert_str_eq(u->relation->alias, "x");
    cr_assert_eq(list_len(u->target_list), 3);
    MultiAssignRef *m = (MultiAssignRef *)((ResTarget *)list_nth(u->target_list, 1))->val;
    cr_assert_eq(m->colno, 2);
    cr_assert_eq(m->ncolumns, 2);
    cr_assert_eq(((SubLink *)m->source)->sub_link_type, MULTIEXPR_SUBLINK);
    cr_assert_eq(list_len(u->from_clause), 1);
    cr_assert_eq(list_len(u->returning_list), 1);
    DeleteStmt *d = (DeleteStmt *)stmt1("delete from t using u where t.a = u.a");
    cr_assert_eq(list_len(d->using_clause), 1);
    InsertStmt *i = (InsertStmt *)stmt1("insert into t values (1) on conflict (a) do update set b = 2 returning a");
    cr_assert_eq(i->on_conflict->action, ONCONFLICT_UPDATE);
    cr_assert_str_eq(((IndexElem *)list_nth(i->on_conflict->infer->index_elems, 0))->name, "a");
    cr_assert_eq(list_len(i->returning_list), 1);
    TruncateStmt *tr = (TruncateStmt *)stmt1("truncate a, b restart identity");
    cr_assert_eq(list_len(tr->relations), 2);
    cr_assert(tr->restart_seqs);
    CopyStmt *c = (CopyStmt *)stmt1("copy t (a) from stdin with csv header delimiter ';'");
    cr_assert(c->is_from);
    cr_assert_null(c->filename);
    cr_assert_eq(list_len(c->attlist), 1);
    DefElem *o = list_nth(c->options, 0);
    cr_assert_str_eq(o->defname, "format");
    cr_assert_str_eq(((A_Const *)o->arg)->sval, "csv");
    o = list_nth(c->options, 1);
    cr_assert_str_eq(o->defname, "header");
    cr_assert(((A_Const *)o->arg)->bval);
    c = (CopyStmt *)stmt1("copy (select 1) to '/tmp/x'");
    cr_assert(IS_A(c->query, SelectStmt));
    cr_assert_str_eq(c->filename, "/tmp/x");
    CreateTableAsStmt *ct = (CreateTableAsStmt *)stmt1("create temp table x (a) as select 1 with no data");
    cr_assert_eq(ct->objtype, OBJECT_TABLE);
    cr_assert(ct->into->skip_data);
    cr_assert_eq(ct->into->rel->relpersistence, 't');
}

Test(parser, utility_second_wave_fields)
{
    TransactionStmt *t = (TransactionStmt *)stmt1("begin isolation level repeatable read, read only");
    cr_assert_eq(list_len(t->modes), 2);
    DefElem *d = list_nth(t->modes, 0);
    cr_assert_str_eq(d->defname, "transaction_isolation");
    cr_assert_str_eq(((A_Const *)d->arg)->sval, "repeatable read");
    d = list_nth(t->modes, 1);
    cr_assert_str_eq(d->defname, "transaction_read_only");
    cr_assert(((A_Const *)d->arg)->bval);
    VariableSetStmt *v = (VariableSetStmt *)stmt1("set transaction isolation level serializable");
    cr_assert_eq(v->kind, VAR_SET_VALUE);
    cr_assert_str_eq(v->name, "transaction_isolation");
    cr_assert_eq(list_len(v->modes), 1);
    v = (VariableSetStmt *)stmt1("set transaction read write, not deferrable");
    cr_assert_eq(v->kind, VAR_SET_MULTI);
    cr_assert_eq(list_len(v->modes), 2);
    SavepointStmt *sp = (SavepointStmt *)stmt1("rollback transaction to savepoint s");
    cr_assert_eq(sp->kind, SAVEPOINT_ROLLBACK_TO);
    cr_assert_str_eq(sp->savepoint_name, "s");
    AlterRoleStmt *ar = (AlterRoleStmt *)stmt1("alter role bob login password 'x'");
    cr_assert_not(ar->has_password); /* the first planner only supports a lone PASSWORD */
    cr_assert_eq(list_len(ar->options), 2);
    CreateRoleStmt *cr = (CreateRoleStmt *)stmt1("create user u in role a, b");
    cr_assert_eq(cr->stmt_type, ROLESTMT_USER);
    cr_assert_eq(list_len(((DefElem *)list_nth(cr->options, 0))->arg_list), 2);
    VacuumStmt *vs = (VacuumStmt *)stmt1("vacuum full analyze t (a)");
    cr_assert(vs->is_vacuumcmd);
    cr_assert_eq(list_len(vs->options), 2);
    cr_assert_eq(list_len(((VacuumRelation *)list_nth(vs->rels, 0))->va_cols), 1);
    IndexStmt *ix = (IndexStmt *)stmt1("create unique index on t using hash (a desc)");
    cr_assert(ix->unique);
    cr_assert_null(ix->idxname);
    cr_assert_str_eq(ix->access_method, "hash");
    cr_assert_eq(((IndexElem *)list_nth(ix->index_params, 0))->ordering, SORTBY_DESC);
    FetchStmt *f = (FetchStmt *)stmt1("fetch backward all in c");
    cr_assert_eq(f->direction, FETCH_BACKWARD);
    cr_assert_eq(f->how_many, FETCH_ALL);
    f = (FetchStmt *)stmt1("fetch -3 from c");
    cr_assert_eq(f->direction, FETCH_BACKWARD);
    cr_assert_eq(f->how_many, 3);
    DeclareCursorStmt *dc = (DeclareCursorStmt *)stmt1("declare c scroll cursor with hold for select 1");
    cr_assert_eq(dc->options, CURSOR_OPT_SCROLL | CURSOR_OPT_HOLD);
    ColumnDef *col = list_nth(((CreateStmt *)stmt1("create table t (a text collate \"C\" not null)"))->table_elts, 0);
    cr_assert_eq(list_len(col->constraints), 1); /* COLLATE is not a constraint */
    cr_assert_str_eq(list_nth(col->coll_clause->collname, 0), "C");
    col = list_nth(((CreateStmt *)stmt1("create table t (a int generated by default as identity)"))->table_elts, 0);
    Constraint *k = list_nth(col->constraints, 0);
    cr_assert_eq(k->contype, CONSTR_IDENTITY);
    cr_assert_eq(k->generated_when, 'd');
    ExplainStmt *e = (ExplainStmt *)stmt1("explain (analyze off, costs off) select 1");
    cr_assert_not(e->analyze);
    cr_assert_eq(list_len(e->options), 2);
    DropStmt *ds = (DropStmt *)stmt1("drop schema if exists s cascade");
    cr_assert_eq(ds->remove_type, OBJECT_SCHEMA);
    cr_assert(IS_A(list_nth(ds->objects, 0), String));
    cr_assert(ds->cascade);
}

/* Messages and positions taken from a PostgreSQL 15 server. */
Test(parser, second_wave_errors_as_postgresql)
{
    assert_syntax_error("UPDATE t SET", "syntax error at end of input", 13);
    assert_syntax_error("UPDATE t SET a", "syntax error at end of input", 15);
    assert_syntax_error("DELETE t", "syntax error at or near \"t\"", 8);
    assert_syntax_error("DELETE FROM t USING", "syntax error at end of input", 20);
    assert_syntax_error("TRUNCATE", "syntax error at end of input", 9);
    assert_syntax_error("COPY t FROM", "syntax error at end of input", 12);
    assert_syntax_error("COPY (SELECT 1) FROM STDIN", "syntax error at or near \"FROM\"", 17);
    assert_syntax_error("SAVEPOINT", "syntax error at end of input", 10);
    assert_syntax_error("RELEASE", "syntax error at end of input", 8);
    assert_syntax_error("ROLLBACK TO", "syntax error at end of input", 12);
    assert_syntax_error("BEGIN ISOLATION LEVEL", "syntax error at end of input", 22);
    assert_syntax_error("BEGIN READ", "syntax error at end of input", 11);
    assert_syntax_error("CREATE INDEX ON", "syntax error at end of input", 16);
    assert_syntax_error("CREATE INDEX i ON t", "syntax error at end of input", 20);
    assert_syntax_error("VACUUM (", "syntax error at end of input", 9);
    assert_syntax_error("SELECT * FROM t WHERE a IN (SELECT", "syntax error at end of input", 35);
    assert_syntax_error("SELECT * FROM t WHERE a = ANY", "syntax error at end of input", 30);
    assert_syntax_error("SELECT a FROM t UNION", "syntax error at end of input", 22);
    assert_syntax_error("SELECT a FROM t UNION ALL ORDER BY 1", "syntax error at or near \"ORDER\"", 27);
    assert_syntax_error("WITH x AS SELECT 1", "syntax error at or near \"SELECT\"", 11);
    assert_syntax_error("WITH x (SELECT 1)", "syntax error at or near \"SELECT\"", 9);
    assert_syntax_error("SELECT DISTINCT ON a FROM t", "syntax error at or near \"a\"", 20);
    assert_syntax_error("SELECT sum(a) OVER (ROWS) FROM t", "syntax error at or near \")\"", 25);
    assert_syntax_error("SELECT sum(a) OVER (ROWS BETWEEN 1 PRECEDING) FROM t", "syntax error at or near \")\"", 45);
    assert_syntax_error("SELECT a FROM t GROUP BY GROUPING SETS a", "syntax error at or near \"a\"", 40);
    assert_syntax_error("SELECT count(*) FILTER (a > 1) FROM t", "syntax error at or near \"a\"", 25);
    assert_syntax_error("SELECT percentile_cont(0.5) WITHIN GROUP (a) FROM t", "syntax error at or near \"a\"", 43);
    assert_syntax_error("SELECT ARRAY[1, 2", "syntax error at end of input", 18);
    assert_syntax_error("SELECT arr[1 FROM t", "syntax error at or near \"FROM\"", 14);
    assert_syntax_error("SELECT * FROM t WHERE a IS DISTINCT b", "syntax error at or near \"b\"", 37);
    assert_syntax_error("SELECT ts AT TIME 'UTC' FROM t", "syntax error at or near \"'UTC'\"", 19);
    assert_syntax_error("SELECT EXTRACT(FROM now())", "syntax error at or near \"FROM\"", 16);
    assert_syntax_error("INSERT INTO t VALUES (1) ON CONFLICT DO", "syntax error at end of input", 40);
    assert_syntax_error("INSERT INTO t VALUES (1) ON CONFLICT (a) DO UPDATE a = 1", "syntax error at or near \"a\"", 52);
    assert_syntax_error("CREATE VIEW v SELECT 1", "syntax error at or near \"SELECT\"", 15);
    assert_syntax_error("PREPARE p AS", "syntax error at end of input", 13);
    assert_syntax_error("EXECUTE", "syntax error at end of input", 8);
    assert_syntax_error("DEALLOCATE", "syntax error at end of input", 11);
    assert_syntax_error("EXPLAIN (ANALYZE", "syntax error at end of input", 17);
    assert_syntax_error("CREATE TABLE x (a int GENERATED ALWAYS AS IDENTITY", "syntax error at end of input", 51);
    assert_syntax_error("CREATE SEQUENCE s INCREMENT BY", "syntax error at end of input", 31);
    assert_syntax_error("DECLARE c CURSOR SELECT 1", "syntax error at or near \"SELECT\"", 18);
    assert_syntax_error("FETCH FORWARD FROM", "syntax error at end of input", 19);
    assert_syntax_error("CLOSE", "syntax error at end of input", 6);
    assert_syntax_error("LISTEN", "syntax error at end of input", 7);
    assert_syntax_error("NOTIFY", "syntax error at end of input", 7);
    assert_syntax_error("DISCARD", "syntax error at end of input", 8);
    assert_syntax_error("COMMENT ON TABLE t IS", "syntax error at end of input", 22);
    assert_syntax_error("SELECT * FROM (SELECT 1) AS", "syntax error at end of input", 28);
    assert_syntax_error("CREATE TABLE t2 AS", "syntax error at end of input", 19);
    assert_syntax_error("ALTER TABLE t ADD", "syntax error at end of input", 18);
    assert_syntax_error("ALTER TABLE t DROP", "syntax error at end of input", 19);
    assert_syntax_error("ALTER TABLE t RENAME", "syntax error at end of input", 21);
    assert_syntax_error("ALTER TABLE t RENAME COLUMN a b", "syntax error at or near \"b\"", 31);
    assert_syntax_error("CREATE ROLE", "syntax error at end of input", 12);
    assert_syntax_error("DROP ROLE", "syntax error at end of input", 10);
    assert_syntax_error("CREATE DATABASE", "syntax error at end of input", 16);
    assert_syntax_error("DROP SCHEMA", "syntax error at end of input", 12);
    assert_syntax_error("SELECT * FROM (VALUES (1)) AS v (", "syntax error at end of input", 34);
    assert_syntax_error("SELECT 1 FROM t FOR", "syntax error at end of input", 20);
    assert_syntax_error("SELECT interval '1' year to", "syntax error at end of input", 28);
    assert_syntax_error("SELECT c SIMILAR 'x' FROM t", "syntax error at or near \"'x'\"", 18);
    assert_syntax_error("SELECT OPERATOR(pg_catalog.~ 'x'", "syntax error at or near \"'x'\"", 30);
    assert_syntax_error("SELECT ROW(1, 2", "syntax error at end of input", 16);
    assert_syntax_error("SELECT (1, 2", "syntax error at end of input", 13);
    assert_error("SELECT * FROM (SELECT a FROM t)", "42601", "subquery in FROM must have an alias", 15);
    assert_error("SELECT * FROM (VALUES (1))", "42601", "VALUES in FROM must have an alias", 15);
    assert_error("SELECT sum(a) OVER (ROWS UNBOUNDED FOLLOWING) FROM t", "42P20", "frame start cannot be UNBOUNDED FOLLOWING", 26);
    assert_error("SELECT sum(a) OVER (ROWS BETWEEN CURRENT ROW AND 1 PRECEDING) FROM t", "42P20", "frame starting from current row cannot have preceding rows", 50);
    assert_error("SELECT sum(a) OVER (ROWS BETWEEN 1 FOLLOWING AND CURRENT ROW) FROM t", "42P20", "frame starting from following row cannot have preceding rows", 50);
    assert_error("SELECT sum(a) OVER (ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED PRECEDING) FROM t", "42P20", "frame end cannot be UNBOUNDED PRECEDING", 54);
    assert_error("SELECT sum(a) OVER (ROWS BETWEEN UNBOUNDED FOLLOWING AND CURRENT ROW) FROM t", "42P20", "frame start cannot be UNBOUNDED FOLLOWING", 34);
    assert_error("EXPLAIN (FORMAT xmlx) SELECT 1", "22023", "unrecognized value for EXPLAIN option \"format\": \"xmlx\"", 10);
    assert_error("EXPLAIN (FOO) SELECT 1", "42601", "unrecognized EXPLAIN option \"foo\"", 10);
    assert_error("EXPLAIN (ANALYZE maybe) SELECT 1", "42601", "analyze requires a Boolean value", 0);
    assert_error("UPDATE t SET (a, b) = (1, 2, 3)", "42601", "number of columns does not match number of values", 23);
    assert_error("UPDATE t SET (a, b) = 1", "0A000",
                 "source for a multiple-column UPDATE item must be a sub-SELECT or ROW() expression", 23);
    assert_error("CREATE ROLE r9 WITH FOO", "42601", "unrecognized role option \"foo\"", 21);
    assert_error("COPY t TO PROGRAM STDOUT", "42601", "STDIN/STDOUT not allowed with PROGRAM", 0);
    assert_error("COPY t TO STDOUT WHERE a > 1", "42601", "WHERE clause not allowed with COPY TO", 18);
    assert_error("CREATE TABLE g (a int GENERATED BY DEFAULT AS (1) STORED)", "42601",
                 "for a generated column, GENERATED ALWAYS must be specified", 33);
    assert_error("SELECT percentile_cont(0.5 ORDER BY a) WITHIN GROUP (ORDER BY a) FROM t", "42601",
                 "cannot use multiple ORDER BY clauses with WITHIN GROUP", 40);
    assert_error("SELECT count(DISTINCT a) WITHIN GROUP (ORDER BY a) FROM t", "42601",
                 "cannot use DISTINCT with WITHIN GROUP", 26);
    assert_error("WITH a AS (SELECT 1) (WITH b AS (SELECT 2) SELECT 3)", "42601",
                 "multiple WITH clauses not allowed", 1);
}

/* ---------- statements, errors, limits ---------- */

Test(parser, statement_boundaries)
{
    /* as PostgreSQL: a statement after ';' starts right after it */
    List *stmts = parse_sql(arena, "; ;select 1;  ; select 2 ;");
    cr_assert_eq(list_len(stmts), 2);
    RawStmt *a = list_nth(stmts, 0), *b = list_nth(stmts, 1);
    cr_assert_eq(a->stmt_location, 3);
    cr_assert_eq(a->stmt_len, 8);
    cr_assert_eq(b->stmt_location, 15);
    cr_assert_eq(b->stmt_len, 10);
    stmts = parse_sql(arena, "select 1; select 2");
    cr_assert_eq(((RawStmt *)list_nth(stmts, 0))->stmt_len, 8);
    cr_assert_eq(((RawStmt *)list_nth(stmts, 1))->stmt_location, 9);
    cr_assert_eq(((RawStmt *)list_nth(stmts, 1))->stmt_len, 0);
    cr_assert_null(parse_sql(arena, ""));
    cr_assert_null(parse_sql(arena, " ; -- nothing\n ; /* at all */"));
}

Test(parser, syntax_errors_as_postgresql)
{
    /* messages and positions checked against PostgreSQL 15 */
    assert_syntax_error("SELEC 1", "syntax error at or near \"SELEC\"", 1);
    assert_syntax_error("select 1 +", "syntax error at end of input", 11);
    assert_syntax_error("select 1 +   ", "syntax error at end of input", 14);
    assert_syntax_error("select * from", "syntax error at end of input", 14);
    assert_syntax_error("select 'é' fro t", "syntax error at or near \"t\"", 16);
    assert_syntax_error("select (1", "syntax error at end of input", 10);
    assert_syntax_error("select 1)", "syntax error at or near \")\"", 9);
    assert_syntax_error("select a from t where", "syntax error at end of input", 22);
    assert_syntax_error("insert into t values (1,", "syntax error at end of input", 25);
    assert_syntax_error("select f(1,)", "syntax error at or near \")\"", 12);
    assert_syntax_error("select 'abc' 'def'", "syntax error at or near \"'def'\"", 14);
    assert_syntax_error("select a b c", "syntax error at or near \"c\"", 12);
    assert_syntax_error("drop table", "syntax error at end of input", 11);
    assert_syntax_error("select 1; selec 2", "syntax error at or near \"selec\"", 11);
    assert_syntax_error("select 'é' || éé ||| ", "syntax error at end of input", 22);
    assert_syntax_error("select case when 1 end", "syntax error at or near \"end\"", 20);
    assert_syntax_error("select * from t as select", "syntax error at or near \"select\"", 20);
    assert_syntax_error("select $a", "syntax error at or near \"$\"", 8);
    assert_syntax_error("select 1 not null", "syntax error at or near \"null\"", 14);
}

Test(parser, parse_expression_entry)
{
    Node *n = parse_expression(arena, "a + 1");
    cr_assert_str_eq(parse_node_to_string(arena, n), "(+ a 1)");
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        parse_expression(arena, "select 1");
        err_pop(&jmp);
        cr_assert_fail("no error");
    }
    cr_assert_str_eq(err_current()->message, "syntax error at or near \"select\"");
}

static char *nested(int depth)
{
    char *s = malloc((size_t)depth * 2 + 16);
    strcpy(s, "select ");
    size_t n = strlen(s);
    memset(s + n, '(', (size_t)depth);
    s[n + depth] = '1';
    memset(s + n + depth + 1, ')', (size_t)depth);
    s[n + 2 * (size_t)depth + 1] = '\0';
    return s;
}

Test(parser, nesting_limits)
{
    char *ok = nested(400);
    cr_assert_str_eq(tree(ok), "(select [1])");
    free(ok);
    char *deep = nested(10000);
    ErrorData e = parse_error(deep);
    free(deep);
    cr_assert_str_eq(e.sqlstate, "54001");
    cr_assert_str_eq(e.message, "stack depth limit exceeded");
}

Test(parser, char_position)
{
    cr_assert_eq(parse_char_position("abc", 0), 1);
    cr_assert_eq(parse_char_position("abc", 3), 4);
    cr_assert_eq(parse_char_position("éa", 2), 2);
    cr_assert_eq(parse_char_position("€x", 3), 2);
}
