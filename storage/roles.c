/*
 * roles.c — roles and their password verifiers, kept in the data
 * directory's global/roles file.
 *
 * The superuser "postgres" always exists. Passwords are stored only as the
 * verifiers the caller hands in (SCRAM-SHA-256 or md5, see
 * common/password.h), never in clear. Every change rewrites the whole file
 * atomically (temp file, fsync, rename, fsync of the directory), so a crash
 * leaves either the old or the new file. The file is small and read once,
 * at store_open.
 *
 * File format, one role per line, fields separated by a tab, with "\\",
 * "\t" and "\n" escaped as backslash sequences:
 *     # strata roles 2
 *     <name> <TAB> <flags> <TAB> <verifier or empty>
 * flags: "-" or a comma list of super, login, createdb, createrole. Version 1
 * files ("super" or "-", login implied) are read the same way.
 *
 * Roles are global (all databases) and not transactional: CREATE/ALTER/DROP
 * ROLE take effect and are durable when the call returns.
 */
#define STORE_INTERNAL
#include "storage/storage_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "common/error.h"
#include "common/strbuf.h"

#define ROLES_DIR "global"
#define ROLES_FILE "roles"
#define ROLES_HEADER "# strata roles 2"

typedef struct StoreRole {
    char *name;
    bool is_superuser;
    char *verifier;
    bool login, createdb, createrole;
} StoreRole;

static pthread_mutex_t roles_lock = PTHREAD_MUTEX_INITIALIZER;
static StoreRole *roles;
static int nroles;
static int cap_roles;
static char *roles_dir;  /* <data_dir>/global, NULL when not open */

static bool file_v2;     /* the file being read has the version 2 header */

static int role_find(const char *name)
{
    for (int i = 0; i < nroles; i++)
        if (strcmp(roles[i].name, name) == 0)
            return i;
    return -1;
}

/* Add a role (caller holds roles_lock or is single-threaded); false on OOM. */
static bool role_add(const char *name, bool super, const char *verifier)
{
    if (nroles == cap_roles) {
        int cap = cap_roles ? cap_roles * 2 : 8;
        StoreRole *arr = realloc(roles, (size_t)cap * sizeof *arr);
        if (!arr)
            return false;
        roles = arr;
        cap_roles = cap;
    }
    char *n = strdup(name), *v = strdup(verifier);
    if (!n || !v) {
        free(n);
        free(v);
        return false;
    }
    roles[nroles++] = (StoreRole){n, super, v, true, super, super};
    return true;
}

void store__roles_free(void)
{
    pthread_mutex_lock(&roles_lock);
    for (int i = 0; i < nroles; i++) {
        free(roles[i].name);
        free(roles[i].verifier);
    }
    free(roles);
    roles = NULL;
    nroles = cap_roles = 0;
    free(roles_dir);
    roles_dir = NULL;
    pthread_mutex_unlock(&roles_lock);
}

static void unescape(char *s)
{
    char *w = s;
    for (char *r = s; *r; r++) {
        if (*r == '\\' && r[1]) {
            r++;
            *w++ = *r == 't' ? '\t' : *r == 'n' ? '\n' : *r;
        } else {
            *w++ = *r;
        }
    }
    *w = '\0';
}

static void escape_into(StrBuf *sb, const char *s)
{
    for (; *s; s++) {
        if (*s == '\\')
            strbuf_append_str(sb, "\\\\");
        else if (*s == '\t')
            strbuf_append_str(sb, "\\t");
        else if (*s == '\n')
            strbuf_append_str(sb, "\\n");
        else
            strbuf_append_char(sb, *s);
    }
}

/* Parse one line "name\tsuper\tverifier" in place; false when malformed. */
static bool parse_line(char *line)
{
    char *t1 = strchr(line, '\t');
    char *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
    if (!t1 || !t2)
        return false;
    *t1 = *t2 = '\0';
    char *name = line, *flag = t1 + 1, *verifier = t2 + 1;
    unescape(name);
    unescape(verifier);
    if (!*name || role_find(name) >= 0)
        return false;
    bool v1 = !file_v2;
    bool super = false, login = v1, createdb = false, createrole = false;
    for (char *tok = strtok(flag, ","); tok; tok = strtok(NULL, ",")) {
        if (strcmp(tok, "super") == 0)
            super = true;
        else if (strcmp(tok, "login") == 0)
            login = true;
        else if (strcmp(tok, "createdb") == 0)
            createdb = true;
        else if (strcmp(tok, "createrole") == 0)
            createrole = true;
        else if (strcmp(tok, "-") != 0)
            return false;
    }
    if (!role_add(name, super, verifier))
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    StoreRole *r = &roles[nroles - 1];
    r->login = login;
    r->createdb = createdb || (v1 && super);
    r->createrole = createrole || (v1 && super);
    return true;
}

void store__roles_load(const char *data_dir)
{
    store__roles_free();
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", data_dir, ROLES_DIR);
    if (mkdir(path, 0700) != 0 && errno != EEXIST)
        err_raise_fatal(ERRCODE_IO_ERROR, "could not create directory \"%s\": %s", path,
                        strerror(errno));
    roles_dir = store__strdup(path);
    snprintf(path, sizeof path, "%s/%s/%s", data_dir, ROLES_DIR, ROLES_FILE);
    FILE *f = fopen(path, "re");
    if (!f && errno != ENOENT)
        err_raise_fatal(ERRCODE_IO_ERROR, "could not open file \"%s\": %s", path, strerror(errno));
    file_v2 = false;
    if (f) {
        char line[8192];
        int lineno = 0;
        bool ok = true;
        while (ok && fgets(line, sizeof line, f)) {
            lineno++;
            size_t len = strlen(line);
            if (len && line[len - 1] == '\n')
                line[--len] = '\0';
            if (line[0] == '#' && strcmp(line, ROLES_HEADER) == 0)
                file_v2 = true;
            if (line[0] == '#' || len == 0)
                continue;
            ok = parse_line(line);
        }
        fclose(f);
        if (!ok)
            err_raise_fatal(ERRCODE_DATA_CORRUPTED, "invalid line %d in file \"%s\"", lineno, path);
    }
    int pg = role_find("postgres");
    if (pg < 0 && !role_add("postgres", true, ""))
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    if (pg >= 0)
        roles[pg].is_superuser = true;
}

bool store_role_get(const char *name, bool *is_superuser, char *verifier, size_t verifier_size)
{
    pthread_mutex_lock(&roles_lock);
    int i = role_find(name);
    bool found = i >= 0;
    if (found) {
        if (is_superuser)
            *is_superuser = roles[i].is_superuser;
        if (verifier && verifier_size)
            snprintf(verifier, verifier_size, "%s", roles[i].verifier);
    }
    pthread_mutex_unlock(&roles_lock);
    if (!found && strcmp(name, "postgres") == 0) {
        /* The store is not open yet: the superuser exists regardless. */
        if (is_superuser)
            *is_superuser = true;
        if (verifier && verifier_size)
            verifier[0] = '\0';
        return true;
    }
    return found;
}

/* Rewrite global/roles. Caller holds roles_lock; returns 0 or an errno. */
static int roles_save(void)
{
    if (!roles_dir)
        return 0;  /* not open: in memory only */
    StrBuf sb;
    strbuf_init(&sb);
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {  /* strbuf raises on OOM: catch it, the mutex is held */
        strbuf_append_str(&sb, ROLES_HEADER "\n");
        for (int i = 0; i < nroles; i++) {
            escape_into(&sb, roles[i].name);
            strbuf_append_char(&sb, '\t');
            const StoreRole *r = &roles[i];
            const char *flags[4] = {r->is_superuser ? "super" : NULL, r->login ? "login" : NULL,
                                    r->createdb ? "createdb" : NULL,
                                    r->createrole ? "createrole" : NULL};
            bool any = false;
            for (int k = 0; k < 4; k++) {
                if (!flags[k])
                    continue;
                if (any)
                    strbuf_append_char(&sb, ',');
                strbuf_append_str(&sb, flags[k]);
                any = true;
            }
            if (!any)
                strbuf_append_char(&sb, '-');
            strbuf_append_char(&sb, '\t');
            escape_into(&sb, roles[i].verifier);
            strbuf_append_char(&sb, '\n');
        }
        err_pop(&jmp);
    } else {
        strbuf_free(&sb);
        return ENOMEM;
    }
    int rc = store__write_file_atomic(roles_dir, ROLES_FILE, sb.data, sb.len);
    strbuf_free(&sb);
    return rc;
}

static _Noreturn void raise_save_error(int rc)
{
    if (rc == ENOMEM)
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    err_raise(ERRCODE_IO_ERROR, "could not write file \"%s/%s\": %s", store_g.data_dir ? store_g.data_dir : "",
              ROLES_DIR "/" ROLES_FILE, strerror(rc));
}

void store_role_set_password(const char *name, const char *verifier)
{
    char *copy = store__strdup(verifier);
    pthread_mutex_lock(&roles_lock);
    int i = role_find(name);
    if (i < 0 && strcmp(name, "postgres") == 0 && role_add("postgres", true, ""))
        i = role_find(name);
    if (i < 0) {
        pthread_mutex_unlock(&roles_lock);
        free(copy);
        err_raise(ERRCODE_UNDEFINED_OBJECT, "role \"%s\" does not exist", name);
    }
    char *old = roles[i].verifier;
    roles[i].verifier = copy;
    int rc = roles_save();
    if (rc != 0) {
        roles[i].verifier = old;  /* memory and file stay in agreement */
        old = copy;
    }
    pthread_mutex_unlock(&roles_lock);
    free(old);
    if (rc != 0)
        raise_save_error(rc);
}

void store_role_create(const char *name, bool is_superuser, const char *verifier)
{
    pthread_mutex_lock(&roles_lock);
    if (role_find(name) >= 0) {
        pthread_mutex_unlock(&roles_lock);
        err_raise(ERRCODE_DUPLICATE_OBJECT, "role \"%s\" already exists", name);
    }
    if (!role_add(name, is_superuser, verifier)) {
        pthread_mutex_unlock(&roles_lock);
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    }
    int rc = roles_save();
    if (rc != 0) {
        nroles--;
        free(roles[nroles].name);
        free(roles[nroles].verifier);
    }
    pthread_mutex_unlock(&roles_lock);
    if (rc != 0)
        raise_save_error(rc);
}

/* Apply the set fields of a to role r. */
static void role_apply(StoreRole *r, const StoreRoleAttrs *a)
{
    if (a->superuser >= 0)
        r->is_superuser = a->superuser;
    if (a->login >= 0)
        r->login = a->login;
    if (a->createdb >= 0)
        r->createdb = a->createdb;
    if (a->createrole >= 0)
        r->createrole = a->createrole;
}

void store_role_create_ex(const char *name, const StoreRoleAttrs *a)
{
    pthread_mutex_lock(&roles_lock);
    if (role_find(name) >= 0) {
        pthread_mutex_unlock(&roles_lock);
        err_raise(ERRCODE_DUPLICATE_OBJECT, "role \"%s\" already exists", name);
    }
    if (!role_add(name, false, a->verifier ? a->verifier : "")) {
        pthread_mutex_unlock(&roles_lock);
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    }
    StoreRole *r = &roles[nroles - 1];
    r->login = r->createdb = r->createrole = false;  /* CREATE ROLE's defaults */
    role_apply(r, a);
    int rc = roles_save();
    if (rc != 0) {
        nroles--;
        free(roles[nroles].name);
        free(roles[nroles].verifier);
    }
    pthread_mutex_unlock(&roles_lock);
    if (rc != 0)
        raise_save_error(rc);
}

void store_role_alter(const char *name, const StoreRoleAttrs *a)
{
    char *copy = a->verifier ? store__strdup(a->verifier) : NULL;
    pthread_mutex_lock(&roles_lock);
    int i = role_find(name);
    if (i < 0) {
        pthread_mutex_unlock(&roles_lock);
        free(copy);
        err_raise(ERRCODE_UNDEFINED_OBJECT, "role \"%s\" does not exist", name);
    }
    StoreRole saved = roles[i];
    role_apply(&roles[i], a);
    if (copy)
        roles[i].verifier = copy;
    int rc = roles_save();
    if (rc != 0) {
        roles[i] = saved;  /* memory and file stay in agreement */
        free(copy);
    } else if (copy) {
        free(saved.verifier);
    }
    pthread_mutex_unlock(&roles_lock);
    if (rc != 0)
        raise_save_error(rc);
}

void store_role_drop(const char *name)
{
    if (strcmp(name, "postgres") == 0)
        err_raise(ERRCODE_OBJECT_IN_USE,
                  "cannot drop role %s because it is required by the database system", name);
    pthread_mutex_lock(&roles_lock);
    int i = role_find(name);
    if (i < 0) {
        pthread_mutex_unlock(&roles_lock);
        err_raise(ERRCODE_UNDEFINED_OBJECT, "role \"%s\" does not exist", name);
    }
    StoreRole gone = roles[i];
    memmove(&roles[i], &roles[i + 1], (size_t)(nroles - i - 1) * sizeof *roles);
    nroles--;
    int rc = roles_save();
    if (rc != 0) {
        memmove(&roles[i + 1], &roles[i], (size_t)(nroles - i) * sizeof *roles);
        roles[i] = gone;
        nroles++;
    }
    pthread_mutex_unlock(&roles_lock);
    if (rc != 0)
        raise_save_error(rc);
    free(gone.name);
    free(gone.verifier);
}

bool store_role_get_attrs(const char *name, StoreRoleAttrs *a, char *verifier, size_t verifier_size)
{
    pthread_mutex_lock(&roles_lock);
    int i = role_find(name);
    if (i >= 0) {
        a->superuser = roles[i].is_superuser;
        a->login = roles[i].login;
        a->createdb = roles[i].createdb;
        a->createrole = roles[i].createrole;
        a->verifier = NULL;
        if (verifier && verifier_size)
            snprintf(verifier, verifier_size, "%s", roles[i].verifier);
    }
    pthread_mutex_unlock(&roles_lock);
    return i >= 0;
}

const char *store_role_at(int idx)
{
    pthread_mutex_lock(&roles_lock);
    /* Names stay allocated until the role is dropped or the store closes. */
    const char *name = idx >= 0 && idx < nroles ? roles[idx].name : NULL;
    pthread_mutex_unlock(&roles_lock);
    return name;
}
