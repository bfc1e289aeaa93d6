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
                "(explain (select [1])); (explain analyze (select [1])); "
                "(explain analyze verbose (select [1])); (explain verbose (insert t (values [1])))");
    assert_tree("explain (analyze, verbose off) select 1; explain (analyze 0, verbose) select 1; "
                "explain (select 1)",
                "(explain analyze (select [1])); (explain verbose (select [1])); (explain (select [1]))");
    assert_syntax_error("explain (foo) select 1", "unrecognized EXPLAIN option \"foo\"", 10);
    ErrorData e = parse_error("explain (analyze maybe) select 1");
    cr_assert_str_eq(e.message, "analyze requires a Boolean value");
    e = parse_error("explain (costs off) select 1");
    cr_assert_str_eq(e.sqlstate, "0A000");
    assert_tree("alter role postgres with password 'x'; alter user u password null; "
                "alter role r encrypted password 'y'",
                "(alter-role postgres password=x); (alter-role u password=NULL); (alter-role r password=y)");
    List *stmts = parse_sql(arena, "alter user u password null");
    AlterRoleStmt *a = (AlterRoleStmt *)((RawStmt *)list_nth(stmts, 0))->stmt;
    cr_assert(a->has_password);
    cr_assert_null(a->password);
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
