/*
 * utility_view.c — UTIL_VIEW: CREATE [OR REPLACE] VIEW and DROP VIEW.
 *
 * The planner (planner/plan_view.c) has checked everything it can see at
 * plan time (names, the query, OR REPLACE's column rules) and resolved the
 * schema; here the view becomes, or stops being, a catalog entry of the
 * store (storage/catalog.c: a relation with columns, no rows and its
 * query's text), so views are durable and their DDL joins the statement's
 * transaction like CREATE/DROP TABLE. OR REPLACE drops the old entry and
 * creates the new one in the same transaction.
 */
#define STRATA_EXECUTOR_INTERNAL
#include "executor/exec_int.h"

#include "common/error.h"
#include "storage/storage.h"

static void create_view(const UtilityStmt *u, MemArena *arena)
{
    StoreColumnDef *defs = MEM_NEW_ARRAY(arena, StoreColumnDef, u->ncolumns > 0 ? u->ncolumns : 1);
    for (int i = 0; i < u->ncolumns; i++) {
        defs[i].name = u->columns[i].name;
        defs[i].type = u->columns[i].type;
    }
    if (u->ddl3_op == 'r' && store_view_lookup(u->schema_name, u->table_name))
        store_view_drop(u->schema_name, u->table_name);
    store_view_create(u->schema_name, u->table_name, u->ncolumns, defs, u->view_sql);
}

static void drop_views(const UtilityStmt *u)
{
    for (int i = 0; i + 1 < list_len(u->view_drops); i += 2) {
        const char *schema = list_nth(u->view_drops, i), *name = list_nth(u->view_drops, i + 1);
        if (schema && store_view_lookup(schema, name))
            store_view_drop(schema, name);
        else if (u->missing_ok)
            err_notice(ERR_SEV_NOTICE, ERRCODE_SUCCESSFUL_COMPLETION, "view \"%s\" does not exist, skipping",
                       name);
        else
            err_raise(ERRCODE_UNDEFINED_TABLE, "view \"%s\" does not exist", name);
    }
}

void exec__utility_view(const UtilityStmt *u, MemArena *arena)
{
    if (u->ddl3_op == 'd')
        drop_views(u);
    else
        create_view(u, arena);
}
