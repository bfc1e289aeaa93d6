/*
 * test_catalog.c — the pg_catalog virtual tables' definitions and the
 * function registry they rely on (issue 6, executor/catalog.h):
 * PostgreSQL's column order and OIDs, schema-qualified lookup, stable OIDs
 * for schemas and roles, and no function signature registered twice
 * (several engineers add functions to the registry: a duplicate makes every
 * call of it "not unique").
 */
#include <criterion/criterion.h>
#include <string.h>
#include "executor/catalog.h"
#include "executor/funcs.h"

Test(catalog, pg_class_columns_in_postgresql_order)
{
    const ExecCatTable *t = exec_catalog_table("pg_catalog", "pg_class");
    cr_assert_not_null(t);
    cr_assert_eq(t->oid, 1259u);
    cr_assert_str_eq(t->colnames[0], "oid");
    cr_assert_str_eq(t->colnames[1], "relname");
    cr_assert_str_eq(t->colnames[2], "relnamespace");
    cr_assert_str_eq(t->colnames[t->ncols - 1], "relpartbound");
    cr_assert_eq(t->ncols, 33);
    cr_assert_eq(t->coltypes[0].oid, (uint32_t)TYPE_OID);    /* PostgreSQL's column types */
    cr_assert_eq(t->coltypes[1].oid, (uint32_t)TYPE_NAME);
    cr_assert_eq(t->coltypes[16].oid, (uint32_t)TYPE_CHAR);  /* relkind */
    cr_assert_eq(exec_catalog_table_at(t->id), t);
}

Test(catalog, lookup_by_schema)
{
    cr_assert_not_null(exec_catalog_table(NULL, "pg_namespace"));   /* pg_catalog implied */
    cr_assert_not_null(exec_catalog_table("information_schema", "tables"));
    cr_assert_null(exec_catalog_table(NULL, "tables"));             /* not on the implicit path */
    cr_assert_null(exec_catalog_table("pg_catalog", "columns"));
    cr_assert_null(exec_catalog_table("pg_catalog", "pg_nosuch"));
    cr_assert_null(exec_catalog_table_at(-1));
}

Test(catalog, column_names_unique_per_table)
{
    for (int id = 0; exec_catalog_table_at(id); id++) {
        const ExecCatTable *t = exec_catalog_table_at(id);
        cr_assert_gt(t->ncols, 0, "%s has no columns", t->name);
        for (int a = 0; a < t->ncols; a++)
            for (int b = a + 1; b < t->ncols; b++)
                cr_assert(strcmp(t->colnames[a], t->colnames[b]) != 0, "%s.%s twice", t->name,
                          t->colnames[a]);
    }
}

Test(catalog, stable_oids)
{
    cr_assert_eq(exec_catalog_schema_oid("pg_catalog"), 11u);
    cr_assert_eq(exec_catalog_schema_oid("public"), 2200u);
    cr_assert_eq(exec_catalog_schema_oid("information_schema"), 13207u);
    cr_assert_eq(exec_catalog_role_oid("postgres"), 10u);
    uint32_t s = exec_catalog_schema_oid("sales");
    cr_assert_eq(s, exec_catalog_schema_oid("sales"));
    cr_assert_geq(s, 100000u);
    cr_assert_neq(s, exec_catalog_schema_oid("sales2"));
    cr_assert_neq(exec_catalog_role_oid("alice"), exec_catalog_schema_oid("alice"));
    cr_assert_str_eq(exec_catalog_description(2200, 2615), "standard public schema");
    cr_assert_null(exec_catalog_description(2200, 1259));
}

Test(catalog, no_function_signature_twice)
{
    int n = exec_func_count();
    cr_assert_gt(n, 100);
    for (int i = 0; i < n; i++) {
        const FuncDesc *a = exec_func_at(i);
        for (int k = i + 1; k < n; k++) {
            const FuncDesc *b = exec_func_at(k);
            if (a->nargs != b->nargs || strcmp(a->name, b->name) != 0 ||
                ((a->flags ^ b->flags) & FUNC_VARIADIC))
                continue;
            bool same = true;
            for (int j = 0; j < a->nargs && j < (int)(sizeof a->argtypes / sizeof a->argtypes[0]); j++)
                same = same && a->argtypes[j] == b->argtypes[j];
            cr_assert(!same, "%s/%d registered twice", a->name, a->nargs);
        }
    }
}
