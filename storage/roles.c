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
 *     # strata roles 1
 *     <name> <TAB> <"super" | "-"> <TAB> <verifier or empty>
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
#define ROLES_HEADER "# strata roles 1"

typedef struct StoreRole {
    char *name;
    bool is_superuser;
    char *verifier;
} StoreRole;

static pthread_mutex_t roles_lock = PTHREAD_MUTEX_INITIALIZER;
static StoreRole *roles;
static int nroles;
static int cap_roles;
static char *roles_dir;  /* <data_dir>/global, NULL when not open */

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
    roles[nroles++] = (StoreRole){n, super, v};
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
    if (!*name || (strcmp(flag, "super") != 0 && strcmp(flag, "-") != 0) || role_find(name) >= 0)
        return false;
    if (!role_add(name, strcmp(flag, "super") == 0, verifier))
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
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
    if (f) {
        char line[8192];
        int lineno = 0;
        bool ok = true;
        while (ok && fgets(line, sizeof line, f)) {
            lineno++;
            size_t len = strlen(line);
            if (len && line[len - 1] == '\n')
                line[--len] = '\0';
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
            strbuf_append_str(&sb, roles[i].is_superuser ? "\tsuper\t" : "\t-\t");
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
