/*
 * guc.h — run-time settings ("grand unified configuration", as PostgreSQL).
 *
 * One table of known parameters (guc.c) with PostgreSQL's names, defaults,
 * SHOW spellings and validation. A GucSet is one session's values; it
 * starts from the server defaults (set with -c name=value or in the data
 * directory's strata.conf) and changes with SET / RESET / startup options.
 * Parameters marked "reported" are sent to the client in ParameterStatus
 * when they change.
 */
#ifndef STRATA_COMMON_GUC_H
#define STRATA_COMMON_GUC_H

#include <stdbool.h>
#include <stdint.h>

typedef struct GucSet GucSet;

typedef enum GucContext {
    GUC_CTX_SERVER,   /* only at server start (-c, config file) */
    GUC_CTX_SESSION,  /* SET allowed */
} GucContext;

/* Server-wide defaults: set_default raises 42704 for an unknown name and 22023
 * for a bad value. */
void guc_set_server_default(const char *name, const char *value);

/* A session's settings, copied from the server defaults. malloc-backed. */
GucSet *guc_session_create(void);
void guc_session_destroy(GucSet *g);

/*
 * SET name = value: validates and canonicalises (e.g. DateStyle "iso" →
 * "ISO, MDY"); raises 42704 unrecognized configuration parameter "x",
 * 22023 invalid value, 55P02 for a server-only parameter.
 */
void guc_set(GucSet *g, const char *name, const char *value);
void guc_reset(GucSet *g, const char *name);    /* RESET name */
void guc_reset_all(GucSet *g);                  /* RESET ALL */
/* SHOW name: the canonical text; raises 42704 when unknown. */
const char *guc_show(const GucSet *g, const char *name);
/* Whether a change to this parameter is reported with ParameterStatus. */
bool guc_is_reported(const char *name);
/* Iterate reported parameters (for the startup ParameterStatus burst):
 * returns false when idx is past the end. name is PostgreSQL's spelling. */
bool guc_reported_at(const GucSet *g, int idx, const char **name, const char **value);
/* Canonical spelling of a parameter name ("datestyle" → "DateStyle"), NULL if unknown. */
const char *guc_canonical_name(const char *name);

/* A counter that changes whenever any of g's values is stored (SET, RESET,
 * SET LOCAL's undo...): equal counters mean no value changed in between
 * (ParameterStatus reporting skips its comparison then). */
uint64_t guc_generation(const GucSet *g);

/* Typed fast accessors for hot paths. */
int guc_extra_float_digits(const GucSet *g);
const char *guc_search_path(const GucSet *g);

/* A value from the startup packet (or -c at connection level): like
 * guc_set, and it also becomes the value RESET returns to, as PostgreSQL. */
void guc_set_startup(GucSet *g, const char *name, const char *value);
/* Set by the server itself (is_superuser, session_authorization at login):
 * validated but not subject to the SET rules; also the RESET value. */
void guc_set_internal(GucSet *g, const char *name, const char *value);
/* SHOW ALL: idx-th visible parameter in name order (PostgreSQL's hidden ones
 * skipped); false past the end. g NULL = server defaults. */
bool guc_at(const GucSet *g, int idx, const char **name, const char **value,
            const char **description);
/* Integer parameters in their base unit (ms for timeouts, kB for memory);
 * raises 42704 for an unknown name. */
int guc_get_int(const GucSet *g, const char *name);
bool guc_get_bool(const GucSet *g, const char *name);

#endif
