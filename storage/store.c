/*
 * store.c — the data directory: creation, the lock file, the format
 * version, and the store's process-wide state.
 *
 * store_open creates the directory (mode 0700) when missing, takes an
 * exclusive flock on "strata.pid" (so a second server on the same directory
 * stops with PostgreSQL's "lock file ... already exists" FATAL), writes
 * STRATA_VERSION on first use and refuses a directory written by another
 * storage format, loads the roles, then recovers the catalog and tables
 * from the last checkpoint and the WAL (recovery.c). store_close releases
 * all of it.
 */
#define STORE_INTERNAL
#include "storage/storage_int.h"

#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "common/error.h"

#define STORE_LOCK_FILE "strata.pid"
#define STORE_VERSION_FILE "STRATA_VERSION"

StoreGlobal store_g = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .cond = PTHREAD_COND_INITIALIZER,
    .catalog_lock = PTHREAD_RWLOCK_INITIALIZER,
    .lock_fd = -1,
};

void store__lock(void) { pthread_mutex_lock(&store_g.lock); }
void store__unlock(void) { pthread_mutex_unlock(&store_g.lock); }

void *store__malloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p)
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    return p;
}

void *store__calloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    return p;
}

char *store__strdup(const char *s)
{
    size_t len = strlen(s);
    char *p = store__malloc(len + 1);
    memcpy(p, s, len + 1);
    return p;
}

/* mkdir -p with mode 0700 for every directory created. */
static void store_mkdir_p(const char *path)
{
    char buf[4096];
    size_t len = strlen(path);
    if (len == 0 || len >= sizeof buf)
        err_raise_fatal(ERRCODE_INVALID_PARAMETER_VALUE, "invalid data directory \"%s\"", path);
    memcpy(buf, path, len + 1);
    for (size_t i = 1; i <= len; i++) {
        if (buf[i] != '/' && buf[i] != '\0')
            continue;
        char saved = buf[i];
        buf[i] = '\0';
        if (mkdir(buf, 0700) != 0 && errno != EEXIST)
            err_raise_fatal(ERRCODE_IO_ERROR, "could not create directory \"%s\": %s", buf,
                            strerror(errno));
        buf[i] = saved;
    }
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        err_raise_fatal(ERRCODE_IO_ERROR, "data directory \"%s\" is not a directory", path);
}

/* Read the PID recorded in an existing lock file (0 when unreadable). */
static long store_lock_file_pid(int fd)
{
    char buf[64] = {0};
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    return n > 0 ? strtol(buf, NULL, 10) : 0;
}

static void store_take_lock(const char *dir)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, STORE_LOCK_FILE);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
        err_raise_fatal(ERRCODE_IO_ERROR, "could not create lock file \"%s\": %s", path,
                        strerror(errno));
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        int saved = errno;
        long pid = store_lock_file_pid(fd);
        close(fd);
        if (saved != EWOULDBLOCK)
            err_raise_fatal(ERRCODE_IO_ERROR, "could not lock file \"%s\": %s", path,
                            strerror(saved));
        ErrorData *e = err_begin(ERRCODE_LOCK_FILE_EXISTS);
        e->severity = ERR_SEV_FATAL;
        err_message(e, "lock file \"%s\" already exists", STORE_LOCK_FILE);
        err_hint(e, "Is another server (PID %ld) running in data directory \"%s\"?", pid, dir);
        err_throw();
    }
    char line[4200];
    int len = snprintf(line, sizeof line, "%ld\n%s\n", (long)getpid(), dir);
    if (ftruncate(fd, 0) != 0 || pwrite(fd, line, (size_t)len, 0) != len || fsync(fd) != 0) {
        int saved = errno;
        close(fd);
        err_raise_fatal(ERRCODE_IO_ERROR, "could not write lock file \"%s\": %s", path,
                        strerror(saved));
    }
    store_g.lock_fd = fd;
}

/* Write a small file atomically: temp file, fsync, rename, fsync the
 * directory. Returns 0 or an errno value (never raises: callers may hold a
 * mutex). */
int store__write_file_atomic(const char *dir, const char *name, const char *data, size_t len)
{
    char path[4200], tmp[4300];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return errno;
    size_t off = 0;
    while (off < len) {
        ssize_t n = write(fd, data + off, len - off);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            int saved = errno;
            close(fd);
            unlink(tmp);
            return saved;
        }
        off += (size_t)n;
    }
    if (fsync(fd) != 0 || close(fd) != 0) {
        int saved = errno;
        unlink(tmp);
        return saved;
    }
    if (rename(tmp, path) != 0) {
        int saved = errno;
        unlink(tmp);
        return saved;
    }
    /* The rename is durable only once the directory entry is. */
    char dpath[4200];
    snprintf(dpath, sizeof dpath, "%s/%s", dir, name);
    char *slash = strrchr(dpath, '/');
    *slash = '\0';
    int dfd = open(dpath, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
    return 0;
}

static void store_check_version(const char *dir)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, STORE_VERSION_FILE);
    FILE *f = fopen(path, "re");
    if (!f) {
        if (errno != ENOENT)
            err_raise_fatal(ERRCODE_IO_ERROR, "could not open file \"%s\": %s", path,
                            strerror(errno));
        char text[32];
        int len = snprintf(text, sizeof text, "%d\n", STORE_FORMAT_VERSION);
        int rc = store__write_file_atomic(dir, STORE_VERSION_FILE, text, (size_t)len);
        if (rc != 0)
            err_raise_fatal(ERRCODE_IO_ERROR, "could not write file \"%s\": %s", path, strerror(rc));
        return;
    }
    char buf[64] = {0};
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    buf[strcspn(buf, "\r\n")] = '\0';
    char expect[32];
    snprintf(expect, sizeof expect, "%d", STORE_FORMAT_VERSION);
    if (strcmp(buf, "1") == 0 || strcmp(buf, "2") == 0) {
        /* Version 1 (the in-memory edition) kept only global/roles, which
         * later versions read unchanged; version 2 had no key runs
         * (keyruns.c), which version 3 reads as a table whose keys are all
         * in its hash. Upgrade in place: a version 2 server must not read
         * the TABLE_KEYS records version 3 checkpoints write. */
        char text[32];
        int len = snprintf(text, sizeof text, "%d\n", STORE_FORMAT_VERSION);
        int rc = store__write_file_atomic(dir, STORE_VERSION_FILE, text, (size_t)len);
        if (rc != 0)
            err_raise_fatal(ERRCODE_IO_ERROR, "could not write file \"%s\": %s", path, strerror(rc));
        return;
    }
    if (strcmp(buf, expect) != 0) {
        ErrorData *e = err_begin(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE);
        e->severity = ERR_SEV_FATAL;
        err_message(e, "database files are incompatible with server");
        err_detail(e, "The data directory was initialized by Strata storage format version %s, "
                      "which is not compatible with this version %d.", buf, STORE_FORMAT_VERSION);
        err_throw();
    }
}

static void store_release_lock(void)
{
    if (store_g.lock_fd < 0)
        return;
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", store_g.data_dir, STORE_LOCK_FILE);
    unlink(path);  /* before unlocking: a new server then creates a fresh file */
    flock(store_g.lock_fd, LOCK_UN);
    close(store_g.lock_fd);
    store_g.lock_fd = -1;
}

/* Recovery leaves no snapshot: every row deleted by a replayed commit is
 * dead, every other one seen by all; release the groups that hold only
 * dead rows and share one stamp array among those holding only live,
 * never-updated ones (vacuum.c). */
static void vacuum_recovered(StoreTable *t, void *arg)
{
    (void)arg;
    store__vacuum_groups(t, atomic_load(&store_g.visible_seq));
    store__freeze_stamps(t);
}

void store_open(const char *data_dir)
{
    if (store_g.open)
        err_raise_fatal(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE, "the store is already open");
    store_mkdir_p(data_dir);
    /* Messages and the lock file name the directory absolutely, as PostgreSQL. */
    char abs[PATH_MAX];
    if (!realpath(data_dir, abs))
        err_raise_fatal(ERRCODE_IO_ERROR, "could not resolve data directory \"%s\": %s", data_dir,
                        strerror(errno));
    data_dir = abs;
    store_take_lock(data_dir);
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        store_check_version(data_dir);
        store_g.data_dir = store__strdup(data_dir);
        store__roles_load(data_dir);
        err_pop(&jmp);
    } else {
        if (!store_g.data_dir) {
            flock(store_g.lock_fd, LOCK_UN);
            close(store_g.lock_fd);
            store_g.lock_fd = -1;
        } else {
            store_release_lock();
            free(store_g.data_dir);
            store_g.data_dir = NULL;
        }
        store__roles_free();
        err_rethrow();
    }
    store__catalog_init();
    store_g.open = true;
    if (ERR_TRY(jmp)) {
        store__recover();  /* checkpoint + WAL replay; torn tail truncated */
        store__table_visit(vacuum_recovered, NULL);
        store__run_trim();  /* the freed stamps sit between live blocks: give the pages back */
        err_pop(&jmp);
        store__checkpointer_start();
    } else {
        store__wal_close();
        store__txn_free_all();
        store__catalog_free();
        store__roles_free();
        store_release_lock();
        free(store_g.data_dir);
        store_g.data_dir = NULL;
        store_g.open = false;
        err_rethrow();
    }
}

void store_close(void)
{
    if (!store_g.open)
        return;
    store__checkpointer_stop();
    store__wal_close();
    store__txn_id_stop();  /* control.c: the next start continues at the next id */
    store__txn_free_all();
    store__catalog_free();
    store__roles_free();
    store_release_lock();
    free(store_g.data_dir);
    store_g.data_dir = NULL;
    atomic_store(&store_g.visible_seq, 0);
    store_g.open = false;
}

const char *store_data_dir(void)
{
    return store_g.data_dir;
}
