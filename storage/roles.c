/*
 * roles.c — roles and their password verifiers: global (all databases),
 * durable through the WAL and checkpoints, and transactional as
 * PostgreSQL's pg_authid rows.
 *
 * The superuser "postgres" always exists. Passwords are stored only as the
 * verifiers the caller hands in (SCRAM-SHA-256 or md5, see
 * common/password.h), never in clear.
 *
 * Transactions. CREATE/ALTER/DROP ROLE join the calling thread's
 * transaction (store__txn_current; without one, a transaction of their
 * own): the change is a WAL_ROLE record in its buffer plus an entry in its
 * catalog log (catalog_txn.c) holding the role's previous image. Until
 * commit, a created role is visible to its creator only (create_txn), a
 * dropped one is invisible to its dropper only (drop_txn), and an altered
 * one shows its new attributes (pend) to its alterer only (alter_txn):
 * other sessions — and authentication — see the committed values. Rollback
 * (or ROLLBACK TO a savepoint before the change) puts the image back.
 * Another transaction changing a role with a change pending waits for
 * the first transaction to end (store__txn_wait_txn: deadlock detection,
 * cancel), as PostgreSQL waits for the row's xmax: when that one rolled
 * back the change goes ahead; when it committed, ALTER and DROP raise
 * PostgreSQL's XX000 "tuple concurrently updated" (or "... deleted" after
 * a DROP), and a CREATE of a name the other was creating 23505 (its unique
 * index pg_authid_rolname_index).
 * Roles are never freed before store_close (a dropped one is `dead`), so
 * names handed out by store_role_at stay valid.
 *
 * WAL_ROLE payload: u8 op, then
 *   'c' create or replace: u8 flags (1 super, 2 login, 4 createdb,
 *       8 createrole), str name, str verifier      (str = u32 len | bytes)
 *   'd' drop: str name
 *   'R' reset (checkpoints, before their 'c' records): forget every role.
 * Checkpoints write 'R' and a 'c' per committed role; recovery replays
 * them and the WAL after. Data directories of earlier versions kept roles
 * in global/roles (lines "name TAB flags TAB verifier", flags "-" or
 * super,login,createdb,createrole; version 1 files "super" or "-", login
 * implied): that file is still read at start, before recovery, and the
 * first checkpoint's 'R' supersedes it; it is no longer written.
 */
#define STORE_INTERNAL
#include "storage/storage_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "common/error.h"
#include "common/password.h"

#define ROLES_DIR "global"
#define ROLES_FILE "roles"
#define ROLES_HEADER "# strata roles 2"

typedef struct RoleVals {
    bool super, login, createdb, createrole;
    char verifier[PASSWORD_VERIFIER_MAX];
} RoleVals;

/* A committed image an ALTER replaced, kept for older snapshots. */
typedef struct RoleHist {
    RoleVals vals;
    uint64_t from_seq;     /* commit sequence it took effect at */
    struct RoleHist *next; /* older */
} RoleHist;

typedef struct StoreRole {
    char name[STORE_NAME_MAX];
    RoleVals cur;          /* committed (or, while create_txn is set, its creator's) */
    uint64_t create_seq;   /* commit sequence of its CREATE (0: before any snapshot) */
    uint64_t cur_seq;      /* ... at which cur took effect */
    uint64_t drop_seq;     /* ... of its DROP when dead (0: never visible, or replayed) */
    RoleHist *hist;        /* images cur replaced, newest first (freed with the role) */
    RoleVals pend;         /* alter_txn's attributes */
    StoreTxn *create_txn;  /* uncommitted CREATE: visible to it only */
    StoreTxn *drop_txn;    /* uncommitted DROP: invisible to it only */
    StoreTxn *alter_txn;   /* uncommitted ALTER: pend shown to it only */
    bool dead;
    uint64_t version;      /* bumped by each committed change (a waiter's "concurrently updated") */
} StoreRole;

static pthread_mutex_t roles_lock = PTHREAD_MUTEX_INITIALIZER;
static StoreRole **roles;   /* never shrinks before store__roles_free */
static int nroles, cap_roles;

/* ---- lookup (roles_lock held) ---- */

static bool role_visible(const StoreRole *r, const StoreTxn *me)
{
    return !r->dead && (!r->create_txn || r->create_txn == me) && (!r->drop_txn || r->drop_txn != me);
}

static const RoleVals *role_vals(const StoreRole *r, const StoreTxn *me)
{
    return r->alter_txn && r->alter_txn == me ? &r->pend : &r->cur;
}

static StoreRole *role_find(const char *name, const StoreTxn *me)
{
    for (int i = 0; i < nroles; i++)
        if (role_visible(roles[i], me) && strcmp(roles[i]->name, name) == 0)
            return roles[i];
    return NULL;
}

/* Replay and legacy loading: the live role of that name, whoever made it. */
static StoreRole *role_find_live(const char *name)
{
    for (int i = 0; i < nroles; i++)
        if (!roles[i]->dead && strcmp(roles[i]->name, name) == 0)
            return roles[i];
    return NULL;
}

/* A new role (allocates: call without roles_lock); NULL on OOM. */
static StoreRole *role_alloc(const char *name, const RoleVals *v)
{
    StoreRole *r = calloc(1, sizeof *r);
    if (r) {
        snprintf(r->name, sizeof r->name, "%s", name);
        r->cur = *v;
    }
    return r;
}

/* Room in the array for one more (roles_lock held); false on OOM. */
static bool role_room(void)
{
    if (nroles < cap_roles)
        return true;
    int cap = cap_roles ? cap_roles * 2 : 16;
    StoreRole **arr = realloc(roles, (size_t)cap * sizeof *arr);
    if (!arr)
        return false;
    roles = arr;
    cap_roles = cap;
    return true;
}

/* Insert r (roles_lock held); raises 53200 (after unlocking) on OOM. */
static void role_insert_locked(StoreRole *r)
{
    if (!role_room()) {
        pthread_mutex_unlock(&roles_lock);
        free(r);
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    }
    roles[nroles++] = r;
}

static void vals_init(RoleVals *v, bool super, bool login, const char *verifier)
{
    *v = (RoleVals){.super = super, .login = login, .createdb = super, .createrole = super};
    snprintf(v->verifier, sizeof v->verifier, "%s", verifier ? verifier : "");
}

static void ensure_postgres_locked(void)
{
    if (role_find_live("postgres"))
        return;
    RoleVals v;
    vals_init(&v, true, true, "");
    StoreRole *r = role_alloc("postgres", &v);
    if (r && role_room())
        roles[nroles++] = r;
    else
        free(r);
}

void store__roles_free(void)
{
    pthread_mutex_lock(&roles_lock);
    for (int i = 0; i < nroles; i++) {
        for (RoleHist *h = roles[i]->hist, *next; h; h = next) {
            next = h->next;
            free(h);
        }
        free(roles[i]);
    }
    free(roles);
    roles = NULL;
    nroles = cap_roles = 0;
    pthread_mutex_unlock(&roles_lock);
}

/* ---- the legacy file ---- */

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

/* Parse one line "name\tflags\tverifier" in place; false when malformed. */
static bool parse_line(char *line, bool v2)
{
    char *t1 = strchr(line, '\t');
    char *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
    if (!t1 || !t2)
        return false;
    *t1 = *t2 = '\0';
    char *name = line, *flag = t1 + 1, *verifier = t2 + 1;
    unescape(name);
    unescape(verifier);
    if (!*name || strlen(name) >= STORE_NAME_MAX || role_find_live(name))
        return false;
    RoleVals v;
    vals_init(&v, false, !v2, verifier);
    char *save = NULL;
    for (char *tok = strtok_r(flag, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (strcmp(tok, "super") == 0)
            v.super = true;
        else if (strcmp(tok, "login") == 0)
            v.login = true;
        else if (strcmp(tok, "createdb") == 0)
            v.createdb = true;
        else if (strcmp(tok, "createrole") == 0)
            v.createrole = true;
        else if (strcmp(tok, "-") != 0)
            return false;
    }
    if (!v2 && v.super)
        v.createdb = v.createrole = true;
    StoreRole *r = role_alloc(name, &v);
    if (!r || !role_room()) {
        free(r);
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    }
    roles[nroles++] = r;
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
    snprintf(path, sizeof path, "%s/%s/%s", data_dir, ROLES_DIR, ROLES_FILE);
    FILE *f = fopen(path, "re");
    if (!f && errno != ENOENT)
        err_raise_fatal(ERRCODE_IO_ERROR, "could not open file \"%s\": %s", path, strerror(errno));
    if (f) {
        char line[8192];
        int lineno = 0;
        bool ok = true, v2 = false;
        while (ok && fgets(line, sizeof line, f)) {
            lineno++;
            size_t len = strlen(line);
            if (len && line[len - 1] == '\n')
                line[--len] = '\0';
            if (line[0] == '#' && strcmp(line, ROLES_HEADER) == 0)
                v2 = true;
            if (line[0] == '#' || len == 0)
                continue;
            ok = parse_line(line, v2);
        }
        fclose(f);
        if (!ok)
            err_raise_fatal(ERRCODE_DATA_CORRUPTED, "invalid line %d in file \"%s\"", lineno, path);
    }
    pthread_mutex_lock(&roles_lock);
    ensure_postgres_locked();
    StoreRole *pg = role_find_live("postgres");
    if (pg)
        pg->cur.super = true;
    pthread_mutex_unlock(&roles_lock);
}

/* ---- WAL_ROLE records ---- */

typedef struct RoleRec {
    uint8_t bytes[1 + 1 + 4 + STORE_NAME_MAX + 4 + PASSWORD_VERIFIER_MAX];
    size_t len;
} RoleRec;

static void rec_put(RoleRec *b, const void *p, size_t n)
{
    ERR_ASSERT(b->len + n <= sizeof b->bytes);
    memcpy(b->bytes + b->len, p, n);
    b->len += n;
}

static void rec_str(RoleRec *b, const char *s)
{
    uint32_t n = (uint32_t)strlen(s);
    rec_put(b, &n, 4);
    rec_put(b, s, n);
}

static void rec_create(RoleRec *b, const char *name, const RoleVals *v)
{
    b->len = 0;
    uint8_t op = 'c';
    uint8_t flags = (uint8_t)((v->super ? 1 : 0) | (v->login ? 2 : 0) | (v->createdb ? 4 : 0) |
                              (v->createrole ? 8 : 0));
    rec_put(b, &op, 1);
    rec_put(b, &flags, 1);
    rec_str(b, name);
    rec_str(b, v->verifier);
}

static void rec_drop(RoleRec *b, const char *name)
{
    b->len = 0;
    uint8_t op = 'd';
    rec_put(b, &op, 1);
    rec_str(b, name);
}

static _Noreturn void bad_role_record(void)
{
    err_raise(ERRCODE_DATA_CORRUPTED, "invalid role record in the write-ahead log");
}

/* A str of the record into out (cap bytes with the NUL). */
static const uint8_t *take_str(const uint8_t *p, const uint8_t *end, char *out, size_t cap)
{
    uint32_t n;
    if (end - p < 4)
        bad_role_record();
    memcpy(&n, p, 4);
    p += 4;
    if ((size_t)(end - p) < n || n >= cap)
        bad_role_record();
    memcpy(out, p, n);
    out[n] = '\0';
    return p + n;
}

void store__role_replay(const uint8_t *payload, size_t len)
{
    const uint8_t *p = payload, *end = payload + len;
    if (len < 1)
        bad_role_record();
    uint8_t op = *p++;
    char name[STORE_NAME_MAX];
    pthread_mutex_lock(&roles_lock);
    if (op == 'R') {
        for (int i = 0; i < nroles; i++)
            roles[i]->dead = true;
        pthread_mutex_unlock(&roles_lock);
        return;
    }
    pthread_mutex_unlock(&roles_lock);
    if (op == 'd') {
        take_str(p, end, name, sizeof name);
        pthread_mutex_lock(&roles_lock);
        StoreRole *r = role_find_live(name);
        if (r)
            r->dead = true;
        pthread_mutex_unlock(&roles_lock);
        return;
    }
    if (op != 'c' || end - p < 1)
        bad_role_record();
    uint8_t flags = *p++;
    RoleVals v = {.super = flags & 1, .login = flags & 2, .createdb = flags & 4, .createrole = flags & 8};
    p = take_str(p, end, name, sizeof name);
    take_str(p, end, v.verifier, sizeof v.verifier);
    StoreRole *fresh = role_alloc(name, &v);
    if (!fresh)
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    pthread_mutex_lock(&roles_lock);
    StoreRole *r = role_find_live(name);
    if (r) {
        r->cur = v;
        pthread_mutex_unlock(&roles_lock);
        free(fresh);
        return;
    }
    role_insert_locked(fresh);
    pthread_mutex_unlock(&roles_lock);
}

void store__role_checkpoint(StoreTxn *buf)
{
    RoleRec b = {.len = 0};
    uint8_t op = 'R';
    rec_put(&b, &op, 1);
    store__wal_add(buf, WAL_ROLE, b.bytes, b.len);
    for (int i = 0;; i++) {
        pthread_mutex_lock(&roles_lock);
        if (i >= nroles) {
            pthread_mutex_unlock(&roles_lock);
            break;
        }
        const StoreRole *r = roles[i];
        bool skip = r->dead || r->create_txn;   /* committed roles only */
        if (!skip)
            rec_create(&b, r->name, &r->cur);   /* cur: committed (pend is an ALTER's) */
        pthread_mutex_unlock(&roles_lock);
        if (!skip)
            store__wal_add(buf, WAL_ROLE, b.bytes, b.len);
    }
}

/* ---- changes ---- */

void store__role_cat_end(void *obj, void *saved, StoreTxn *x, bool commit)
{
    StoreRole *r = obj;
    /* Without memory for the history an older snapshot reads the new image. */
    RoleHist *hist = commit ? malloc(sizeof *hist) : NULL;
    pthread_mutex_lock(&roles_lock);
    if (!commit) {
        if (saved)
            *r = *(StoreRole *)saved;
        else
            r->dead = true;   /* its CREATE */
    } else if (x) {
        uint64_t seq = store__cat_commit_seq();
        r->version++;
        if (r->create_txn == x) {
            r->create_txn = NULL;
            r->create_seq = r->cur_seq = seq;
        }
        if (r->alter_txn == x) {
            if (hist)   /* the image older snapshots still read */
                *hist = (RoleHist){r->cur, r->cur_seq, r->hist};
            r->hist = hist ? hist : r->hist;
            hist = NULL;
            r->cur = r->pend;
            r->cur_seq = seq;
            r->alter_txn = NULL;
        }
        if (r->drop_txn == x) {
            r->drop_txn = NULL;
            r->dead = true;
            r->drop_seq = seq;
        }
    }
    pthread_mutex_unlock(&roles_lock);
    free(hist);
}

/* What a change found wrong (raised once roles_lock is released), or the
 * other transaction it must wait for (owner set, code NULL). */
typedef struct RoleErr {
    const char *code;
    char msg[160];
    char detail[160];
    StoreTxn *owner;       /* the transaction with a change of `role` pending */
    uint64_t owner_id;
    const StoreRole *role;
    uint64_t version;      /* role->version when the wait began */
    bool creating;         /* owner is creating the name (CREATE's wait) */
} RoleErr;

/* One change, under roles_lock: checks, then applies it (claiming the role
 * for x), fills *rec and returns the role, copying its previous image into
 * *saved first (setting *saved = NULL for a CREATE: nothing to put back).
 * Returns NULL with *e filled when the change is refused. */
typedef StoreRole *(*RoleChange)(StoreTxn *x, void *arg, RoleRec *rec, StoreRole **saved,
                                 RoleErr *e);

static _Noreturn void raise_role_err(const RoleErr *e)
{
    if (strcmp(e->code, ERRCODE_OUT_OF_MEMORY) == 0)
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    ErrorData *d = err_begin(e->code);
    err_message(d, "%s", e->msg);
    if (e->detail[0])
        err_detail(d, "%s", e->detail);
    err_throw();
}

/* After waiting for e->owner: what its end means for our change (roles_lock
 * held). False = it rolled back, try again; true = *e filled with
 * PostgreSQL's error for a committed concurrent change. */
static bool role_wait_outcome(RoleErr *e)
{
    const StoreRole *r = e->role;
    if (e->creating) {
        if (r->dead)
            return false;   /* the other CREATE rolled back */
        e->code = ERRCODE_UNIQUE_VIOLATION;
        snprintf(e->msg, sizeof e->msg,
                 "duplicate key value violates unique constraint \"pg_authid_rolname_index\"");
        snprintf(e->detail, sizeof e->detail, "Key (rolname)=(%s) already exists.", r->name);
        return true;
    }
    if (r->version == e->version)
        return false;   /* its ALTER or DROP rolled back */
    e->code = ERRCODE_INTERNAL_ERROR;
    snprintf(e->msg, sizeof e->msg, "tuple concurrently %s", r->dead ? "deleted" : "updated");
    return true;
}

/* Another transaction has a change of r pending: fill *e to wait for it
 * (roles_lock held). Returns NULL for the change functions to return. */
static StoreRole *role_wait(RoleErr *e, const StoreRole *r, bool creating)
{
    StoreTxn *o = creating ? r->create_txn : r->drop_txn ? r->drop_txn
                                         : r->alter_txn ? r->alter_txn : r->create_txn;
    e->owner = o;
    e->owner_id = o->id;
    e->role = r;
    e->version = r->version;
    e->creating = creating;
    return NULL;
}

/* One change's progress (role_change's error path reads it). */
typedef struct RoleStep {
    RoleChange fn;
    void *arg;
    StoreRole *copy;    /* malloc'd room for the previous image */
    StoreRole *r;       /* the role changed, once applied */
    StoreRole *saved;   /* copy, or NULL for a CREATE */
} RoleStep;

static void role_step(StoreTxn *x, RoleStep *st)
{
    RoleRec rec;
    RoleErr e;
    store__cat_reserve(x);
    st->copy = store__malloc(sizeof *st->copy);
    for (;;) {
        e = (RoleErr){.code = NULL};
        st->saved = st->copy;
        pthread_mutex_lock(&roles_lock);
        st->r = st->fn(x, st->arg, &rec, &st->saved, &e);
        pthread_mutex_unlock(&roles_lock);
        if (st->r || !e.owner)
            break;
        /* Another transaction's change is pending: wait for its end. */
        store__txn_wait_txn(x, e.owner, e.owner_id);
        pthread_mutex_lock(&roles_lock);
        bool failed = role_wait_outcome(&e);
        pthread_mutex_unlock(&roles_lock);
        if (failed)
            break;
    }
    if (!st->r)
        raise_role_err(&e);
    uint64_t pos = store__wal_pos(x);
    store__wal_add(x, WAL_ROLE, rec.bytes, rec.len);   /* may raise 53200 */
    store__cat_push(x, CAT_ROLE, st->r, st->saved, pos);
    if (!st->saved)
        free(st->copy);
    st->copy = NULL;   /* the log owns the image now */
    st->r = NULL;
}

/* Run fn in the caller's transaction (or one of its own), log it, record
 * it in the transaction's catalog log. */
static void role_change(RoleChange fn, void *arg)
{
    RoleRec rec;
    RoleErr e = {.code = NULL};
    if (!store_g.open) {
        /* No data directory (tests without a store): memory only, at once. */
        StoreRole img, *saved = &img;
        pthread_mutex_lock(&roles_lock);
        StoreRole *r = fn(NULL, arg, &rec, &saved, &e);
        pthread_mutex_unlock(&roles_lock);
        if (!r)
            raise_role_err(&e);
        return;
    }
    StoreTxn *cur = store__txn_current();
    StoreTxn *x = cur ? cur : store_txn_begin();
    RoleStep st = {fn, arg, NULL, NULL, NULL};   /* in memory: read after a longjmp */
    ErrJmp jmp;
    if (ERR_TRY(jmp)) {
        role_step(x, &st);
        err_pop(&jmp);
    } else {
        if (st.r)   /* applied but not logged: put it back */
            store__role_cat_end(st.r, st.saved, x, false);
        free(st.copy);
        if (!cur)
            store_txn_rollback(x);
        err_rethrow();
    }
    if (!cur)
        store_txn_commit(x);
}

/* Whether a transaction other than x has a change of r pending. */
static bool role_busy(const StoreRole *r, const StoreTxn *x)
{
    return (r->drop_txn && r->drop_txn != x) || (r->alter_txn && r->alter_txn != x) ||
           (r->create_txn && r->create_txn != x);
}

static StoreRole *refuse(RoleErr *e, const char *code, const char *fmt, const char *name)
{
    e->code = code;
    snprintf(e->msg, sizeof e->msg, fmt, name);
    return NULL;
}

typedef struct CreateArg {
    const char *name;
    const StoreRoleAttrs *a;
    bool is_superuser;   /* store_role_create: the old interface */
    bool old_api;
} CreateArg;

static void vals_apply(RoleVals *v, const StoreRoleAttrs *a)
{
    if (a->superuser >= 0)
        v->super = a->superuser;
    if (a->login >= 0)
        v->login = a->login;
    if (a->createdb >= 0)
        v->createdb = a->createdb;
    if (a->createrole >= 0)
        v->createrole = a->createrole;
    if (a->verifier)
        snprintf(v->verifier, sizeof v->verifier, "%s", a->verifier);
}

static StoreRole *do_create(StoreTxn *x, void *arg, RoleRec *rec, StoreRole **saved, RoleErr *e)
{
    CreateArg *c = arg;
    for (int i = 0; i < nroles; i++) {
        const StoreRole *o = roles[i];
        if (o->dead || strcmp(o->name, c->name) != 0)
            continue;
        if (role_visible(o, x))
            return refuse(e, ERRCODE_DUPLICATE_OBJECT, "role \"%s\" already exists", c->name);
        if (o->create_txn && o->create_txn != x) {
            if (x)   /* another transaction is creating it: wait for its end */
                return role_wait(e, o, true);
            return refuse(e, ERRCODE_DUPLICATE_OBJECT, "role \"%s\" already exists", c->name);
        }
    }
    RoleVals v;
    if (c->old_api) {
        vals_init(&v, c->is_superuser, true, c->a->verifier);
    } else {
        vals_init(&v, false, false, "");   /* CREATE ROLE's defaults */
        v.createdb = v.createrole = false;
        vals_apply(&v, c->a);
    }
    StoreRole *r = calloc(1, sizeof *r);
    if (!r || !role_room()) {
        free(r);
        e->code = ERRCODE_OUT_OF_MEMORY;
        return NULL;
    }
    snprintf(r->name, sizeof r->name, "%s", c->name);
    r->cur = v;
    r->create_txn = x;
    roles[nroles++] = r;
    rec_create(rec, r->name, &v);
    *saved = NULL;
    return r;
}

typedef struct AlterArg {
    const char *name;
    const StoreRoleAttrs *a;
} AlterArg;

static StoreRole *do_alter(StoreTxn *x, void *arg, RoleRec *rec, StoreRole **saved, RoleErr *e)
{
    AlterArg *c = arg;
    StoreRole *r = role_find(c->name, x);
    if (!r && strcmp(c->name, "postgres") == 0) {
        ensure_postgres_locked();
        r = role_find(c->name, x);
    }
    if (!r)
        return refuse(e, ERRCODE_UNDEFINED_OBJECT, "role \"%s\" does not exist", c->name);
    if (role_busy(r, x))
        return x ? role_wait(e, r, false)
                 : refuse(e, ERRCODE_INTERNAL_ERROR, "tuple concurrently updated%s", "");
    **saved = *r;
    if (!x || r->create_txn == x) {
        vals_apply(&r->cur, c->a);   /* nobody else sees it yet */
        rec_create(rec, r->name, &r->cur);
        if (!x)
            return r;
    } else {
        if (r->alter_txn != x) {
            r->pend = r->cur;
            r->alter_txn = x;
        }
        vals_apply(&r->pend, c->a);
        rec_create(rec, r->name, &r->pend);
    }
    return r;
}

static StoreRole *do_drop(StoreTxn *x, void *arg, RoleRec *rec, StoreRole **saved, RoleErr *e)
{
    const char *name = arg;
    StoreRole *r = role_find(name, x);
    if (!r)
        return refuse(e, ERRCODE_UNDEFINED_OBJECT, "role \"%s\" does not exist", name);
    if (role_busy(r, x))
        return x ? role_wait(e, r, false)
                 : refuse(e, ERRCODE_INTERNAL_ERROR, "tuple concurrently updated%s", "");
    **saved = *r;
    if (x)
        r->drop_txn = x;
    else
        r->dead = true;
    rec_drop(rec, r->name);
    return r;
}

/* ---- the interface (storage.h) ---- */

bool store_role_get(const char *name, bool *is_superuser, char *verifier, size_t verifier_size)
{
    StoreRoleAttrs a;
    bool found = store_role_get_attrs(name, &a, verifier, verifier_size);
    if (found && is_superuser)
        *is_superuser = a.superuser == 1;
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

static void check_name(const char *name)
{
    if (strlen(name) >= STORE_NAME_MAX)
        err_raise(ERRCODE_NAME_TOO_LONG, "identifier too long");
}

void store_role_set_password(const char *name, const char *verifier)
{
    StoreRoleAttrs a = {-1, -1, -1, -1, verifier};
    store_role_alter(name, &a);
}

void store_role_create(const char *name, bool is_superuser, const char *verifier)
{
    check_name(name);
    StoreRoleAttrs a = {-1, -1, -1, -1, verifier};
    CreateArg c = {name, &a, is_superuser, true};
    role_change(do_create, &c);
}

void store_role_create_ex(const char *name, const StoreRoleAttrs *a)
{
    check_name(name);
    CreateArg c = {name, a, false, false};
    role_change(do_create, &c);
}

void store_role_alter(const char *name, const StoreRoleAttrs *a)
{
    if (a->verifier && strlen(a->verifier) >= PASSWORD_VERIFIER_MAX)
        err_raise(ERRCODE_PROGRAM_LIMIT_EXCEEDED, "password verifier too long");
    AlterArg c = {name, a};
    role_change(do_alter, &c);
}

void store_role_drop(const char *name)
{
    if (strcmp(name, "postgres") == 0)
        err_raise(ERRCODE_OBJECT_IN_USE,
                  "cannot drop role %s because it is required by the database system", name);
    role_change(do_drop, (void *)name);
}

bool store_role_get_attrs(const char *name, StoreRoleAttrs *a, char *verifier, size_t verifier_size)
{
    StoreTxn *me = store__txn_current();
    pthread_mutex_lock(&roles_lock);
    const StoreRole *r = role_find(name, me);
    if (r) {
        const RoleVals *v = role_vals(r, me);
        a->superuser = v->super;
        a->login = v->login;
        a->createdb = v->createdb;
        a->createrole = v->createrole;
        a->verifier = NULL;
        if (verifier && verifier_size)
            snprintf(verifier, verifier_size, "%s", v->verifier);
    }
    pthread_mutex_unlock(&roles_lock);
    return r != NULL;
}

/* The committed image of r snapshot snap sees, NULL when it sees no role
 * (roles_lock held). The transaction's own changes come first. */
static const RoleVals *role_vals_at(const StoreRole *r, const StoreTxn *me, uint64_t snap)
{
    if (me && (r->create_txn == me || r->alter_txn == me || r->drop_txn == me))
        return role_visible(r, me) ? role_vals(r, me) : NULL;
    if (r->create_txn || r->create_seq > snap || (r->dead && r->drop_seq <= snap))
        return NULL;
    if (r->cur_seq <= snap)
        return &r->cur;
    for (const RoleHist *h = r->hist; h; h = h->next)
        if (h->from_seq <= snap)
            return &h->vals;
    return &r->cur;   /* its history was not kept (out of memory) */
}

const char *store_role_snapshot_at(int idx, StoreRoleAttrs *a)
{
    StoreTxn *me = store__txn_current();
    uint64_t snap = me ? store__txn_snapshot(me) : atomic_load(&store_g.visible_seq);
    const char *name = NULL;
    pthread_mutex_lock(&roles_lock);
    for (int i = 0, k = 0; i < nroles && !name; i++) {
        const RoleVals *v = role_vals_at(roles[i], me, snap);
        if (!v || k++ != idx)
            continue;
        name = roles[i]->name;   /* never freed before store_close */
        *a = (StoreRoleAttrs){v->super, v->login, v->createdb, v->createrole, NULL};
    }
    pthread_mutex_unlock(&roles_lock);
    return name;
}

const char *store_role_at(int idx)
{
    StoreTxn *me = store__txn_current();
    const char *name = NULL;
    pthread_mutex_lock(&roles_lock);
    /* Roles are never freed before store_close: the name stays valid. */
    for (int i = 0, k = 0; i < nroles && !name; i++)
        if (role_visible(roles[i], me) && k++ == idx)
            name = roles[i]->name;
    pthread_mutex_unlock(&roles_lock);
    return name;
}
