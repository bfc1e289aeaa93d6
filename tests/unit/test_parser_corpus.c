/*
 * test_parser_corpus.c — every statement real clients sent to PostgreSQL 15
 * (psql and its \d queries, pgbench, psycopg2/3, JDBC, node-postgres,
 * postgres.js, ClickBench; captured in /work/shared/pgwire/<client>.sql) must
 * parse, and every node of its tree must be known to the printer.
 *
 * The statements are copied into tests/unit/pgwire_statements.txt (a fresh
 * clone has no /work/shared): each is preceded by a line "-- @ file:line"
 * naming where it was captured. Regenerate it with the extraction described
 * in parser/README.md ("Tests").
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/error.h"
#include "parser/parser.h"

#ifndef PARSE_CORPUS_FILE
#error "PARSE_CORPUS_FILE (path of pgwire_statements.txt) must be defined by the build"
#endif

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    cr_assert_not_null(f, "cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    cr_assert_not_null(buf);
    cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return buf;
}

/* Parse one statement; on error, fail naming where it was captured. */
static void check_statement(const char *where, const char *sql)
{
    MemArena *arena = mem_arena_create("corpus");
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        List *stmts = parse_sql(arena, sql);
        err_pop(&jmp);
        cr_assert_gt(list_len(stmts), 0, "%s: no statement in <%s>", where, sql);
        for (int i = 0; i < list_len(stmts); i++) {
            const char *tree = parse_node_to_string(arena, list_nth(stmts, i));
            cr_assert_null(strstr(tree, "<?>"), "%s: unprintable node in %s", where, tree);
        }
    } else {
        const ErrorData *e = err_current();
        cr_assert_fail("%s: %s %s (position %d) in <%s>", where, e->sqlstate, e->message, e->position,
                       sql);
    }
    mem_arena_destroy(arena);
}

Test(parser_corpus, every_captured_statement_parses)
{
    size_t len;
    char *text = read_file(PARSE_CORPUS_FILE, &len);
    static const char mark[] = "-- @ ";
    int count = 0;
    char *p = strstr(text, mark);
    while (p) {
        char *where = p + sizeof mark - 1;
        char *eol = strchr(where, '\n');
        cr_assert_not_null(eol);
        *eol = '\0';
        char *sql = eol + 1;
        char *next = strstr(sql, mark);
        if (next)
            next[-1] = '\0'; /* the newline before the next mark */
        check_statement(where, sql);
        count++;
        p = next;
    }
    free(text);
    /* the capture holds 312 statements: a truncated file must not pass */
    cr_assert_geq(count, 312, "only %d statements read", count);
}
