/*
 * plan_ddl3.c — utility statements of issue 3 that the planner only has to
 * resolve names for: TRUNCATE, VACUUM, ANALYZE and CHECKPOINT. Each becomes
 * a PLAN_STMT_UTILITY plan (UTIL_TRUNCATE / UTIL_MAINTENANCE) holding the
 * resolved tables; executor/utility_ddl3.c runs them through the storage
 * API. Name resolution follows search_path (plan__lookup_table), so
 * `TRUNCATE nosuch` is 42P01 at the table's position, as PostgreSQL.
 */
#define STRATA_PLANNER_INTERNAL
#include "planner/planner_int.h"

#include <string.h>
#include "storage/storage.h"

static Plan *ddl3_plan(Binder *b, UtilityKind kind, const char *command, UtilityStmt **out)
{
    Plan *p = plan__new_plan(b, PLAN_STMT_UTILITY, command);
    UtilityStmt *u = MEM_NEW(b->arena, UtilityStmt);
    u->kind = kind;
    p->utility = u;
    *out = u;
    return p;
}

static StoreTable *resolve(Binder *b, const RangeVar *rv)
{
    return plan__lookup_table(b, rv->schemaname, rv->relname, rv->node.location, false);
}

static Plan *plan_truncate(Binder *b, const TruncateStmt *s)
{
    UtilityStmt *u;
    Plan *p = ddl3_plan(b, UTIL_TRUNCATE, "TRUNCATE TABLE", &u);
    for (int i = 0; i < list_len(s->relations); i++)
        u->ddl3_tables = list_append(b->arena, u->ddl3_tables, resolve(b, list_nth(s->relations, i)));
    return p;
}

static Plan *plan_vacuum(Binder *b, const VacuumStmt *s)
{
    UtilityStmt *u;
    Plan *p = ddl3_plan(b, UTIL_MAINTENANCE, s->is_vacuumcmd ? "VACUUM" : "ANALYZE", &u);
    u->ddl3_op = s->is_vacuumcmd ? 'v' : 'a';
    for (int i = 0; i < list_len(s->options); i++) {
        const DefElem *d = list_nth(s->options, i);
        if (strcmp(d->defname, "analyze") == 0 && s->is_vacuumcmd)
            u->ddl3_op = 'b';   /* VACUUM ANALYZE: both */
    }
    for (int i = 0; i < list_len(s->rels); i++) {
        const VacuumRelation *vr = list_nth(s->rels, i);
        StoreTable *t = resolve(b, vr->relation);
        for (int k = 0; k < list_len(vr->va_cols); k++) {
            const char *col = list_nth(vr->va_cols, k);
            if (store_table_column_index(t, col) < 0)
                err_raise(ERRCODE_UNDEFINED_COLUMN, "column \"%s\" of relation \"%s\" does not exist", col,
                          store_table_name(t));
        }
        u->ddl3_tables = list_append(b->arena, u->ddl3_tables, t);
    }
    return p;
}

Plan *plan__plan_ddl3(Binder *b, const RawStmt *raw, const Node *stmt)
{
    (void)raw;
    UtilityStmt *u;
    switch (stmt->tag) {
    case T_TruncateStmt: return plan_truncate(b, (const TruncateStmt *)stmt);
    case T_VacuumStmt: return plan_vacuum(b, (const VacuumStmt *)stmt);
    case T_CheckPointStmt: {
        Plan *p = ddl3_plan(b, UTIL_MAINTENANCE, "CHECKPOINT", &u);
        u->ddl3_op = 'c';
        return p;
    }
    default:
        return NULL;
    }
}
