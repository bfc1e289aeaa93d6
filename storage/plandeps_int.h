/*
 * plandeps_int.h — the hooks by which catalog.c's lookups reach the plan
 * dependency recorder (storage/plandeps.c). Storage-internal.
 */
#ifndef STRATA_STORAGE_PLANDEPS_INT_H
#define STRATA_STORAGE_PLANDEPS_INT_H
#ifndef STORE_INTERNAL
#error "storage/plandeps_int.h is internal to storage/"
#endif
#include <stdint.h>

typedef struct StoreTable StoreTable;

/* Non-zero while the calling thread records a plan's dependencies
 * (store_deps_begin .. store_deps_end): the lookups below then note what
 * they were asked and what they found. */
extern _Thread_local int store__deps_recording;

/* A lookup by name in database dboid: schema as the caller gave it (before
 * "pg_temp" was resolved), the relation found (NULL = none). */
void store__deps_note_name(uint32_t dboid, const char *schema, const char *name, const StoreTable *found);
/* A lookup by OID: the relation found (NULL = none visible). */
void store__deps_note_oid(uint32_t oid, const StoreTable *found);

#endif
