/*
 * proto_int.h — internal header of the protocol subsystem (the strata
 * server): configuration, connections, messages, sessions. Only files in
 * protocol/ include it; nothing outside the server binary links to it.
 *
 * The pieces, one file each:
 *   main.c         flags, data directory, signals, start and fast shutdown
 *   config.c       command-line parsing into ProtoConfig, --help/--version
 *   listener.c     TCP and Unix sockets, accept loop, one thread per connection
 *   conn.c         connection thread, buffered I/O, message framing and limits
 *   startup.c      startup packet, SSL/GSS negotiation, session parameters
 *   hba.c          strata_hba.conf: rules, matching, the default file
 *   auth.c         password, md5 and SCRAM-SHA-256 exchanges
 *   scram.c        SCRAM-SHA-256 server side (RFC 5802/7677)
 *   tls.c          OpenSSL context and handshake
 *   session.c      session state: settings, statements, portals, ParameterStatus
 *   simple_query.c the Query message
 *   extended.c     Parse/Bind/Describe/Execute/Close/Sync/Flush
 *   results.c      RowDescription/DataRow/CommandComplete/ErrorResponse encoding
 *   cancel.c       backend registry (pid, key) → interrupt flag
 *   copy.c         COPY FROM STDIN / TO STDOUT / server files
 */
#ifndef STRATA_PROTOCOL_PROTO_INT_H
#define STRATA_PROTOCOL_PROTO_INT_H

#ifndef STRATA_PROTOCOL_INTERNAL
#error "protocol/proto_int.h is internal to protocol/"
#endif

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include "common/arena.h"
#include "common/error.h"
#include "common/strbuf.h"
#include "common/types.h"

/* ---------- limits (every one in one place) ---------- */

#define PROTO_STARTUP_MAX 10000          /* startup packet, as PostgreSQL's MAX_STARTUP_PACKET_LENGTH */
#define PROTO_SMALL_MSG_MAX 10000        /* Sync, Flush, Describe, Close, Execute, Terminate */
#define PROTO_AUTH_MSG_MAX 65535         /* PasswordMessage/SASL (PG_MAX_AUTH_TOKEN_LENGTH) */
#define PROTO_LARGE_MSG_MAX 0x3fffffff   /* Query, Parse, Bind: PostgreSQL's MaxAllocSize - 1 */
#define PROTO_RECV_BUF 16384             /* socket read buffer per connection */
#define PROTO_SEND_FLUSH 65536           /* flush the send buffer past this while streaming rows */
#define PROTO_MSG_KEEP_BYTES (1u << 20)  /* receive buffer kept between messages; larger ones are freed */
#define PROTO_MAX_PARAMS 65535           /* Bind/Parse parameters (int16 on the wire) */
#define PROTO_NAME_MAX 64                /* statement/portal names kept (PostgreSQL: NAMEDATALEN) */
#define PROTO_MAX_LISTEN 16              /* listen sockets */
#define PROTO_MAX_STARTUP_PARAMS 64      /* key/value pairs in a startup packet */
#define PROTO_AUTH_TIMEOUT_S 60          /* startup + authentication (authentication_timeout) */

#define PROTO_VERSION_STRING "15.0 (Strata 0.1.0)"
#define PROTO_SERVER_VERSION_NUM "150000"

/* ---------- configuration (config.c) ---------- */

typedef struct ProtoConfig {
    const char *data_dir;            /* -D, $PGDATA, else ./data */
    int port;                        /* -p, default 5432 */
    char listen_addresses[512];      /* -h, comma list, "*" = all */
    char socket_dirs[512];           /* -k, comma list, "" = no Unix socket */
    int max_connections;             /* -c max_connections=N, default 100 */
    bool ssl;                        /* -c ssl=on */
    char ssl_cert_file[512];         /* relative to data_dir unless absolute */
    char ssl_key_file[512];
    const char *password_file;       /* --password-file: postgres's password */
    bool allow_remote_trust;         /* --allow-remote-trust */
} ProtoConfig;

extern ProtoConfig proto_config;

/* Parse argv into proto_config and apply -c settings as server defaults.
 * Prints and exits for --help/--version and for bad flags. */
void proto_config_parse(int argc, char **argv);

/* ---------- logging (main.c) ---------- */

/* One line on stderr in PostgreSQL's style: "<time> [pid] LEVEL:  text". */
void proto_log(const char *level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---------- hba (hba.c) ---------- */

typedef enum HbaMethod {
    HBA_TRUST,
    HBA_REJECT,
    HBA_PASSWORD,
    HBA_MD5,
    HBA_SCRAM,
} HbaMethod;

typedef struct HbaClient {
    bool is_local;                   /* Unix socket */
    bool ssl;
    struct sockaddr_storage addr;    /* TCP peer */
    const char *user;
    const char *database;
} HbaClient;

/* Create <datadir>/strata_hba.conf with the defaults if missing, then load
 * it. Returns false (message logged) on a syntax error. */
bool proto_hba_load(const char *data_dir);
/* First matching rule's method; false when no rule matches. */
bool proto_hba_match(const HbaClient *client, HbaMethod *method);
/* True when some host rule with method trust covers a non-loopback address. */
bool proto_hba_has_remote_trust(void);
const char *proto_hba_method_name(HbaMethod m);

/* ---------- TLS (tls.c) ---------- */

typedef struct ssl_st SSL;
/* Build the server context from the certificate and key; false when ssl is
 * off. Exits with a FATAL log line when ssl is on and the files are bad. */
bool proto_tls_init(void);
bool proto_tls_enabled(void);
/* Handshake on fd; NULL (logged) on failure. */
SSL *proto_tls_accept(int fd);
void proto_tls_close(SSL *ssl);
/* tls-server-end-point channel binding data (RFC 5929) of our certificate:
 * bytes written into out (up to 64), 0 if unavailable. */
size_t proto_tls_endpoint_hash(unsigned char *out);

/* ---------- cancel registry (cancel.c) ---------- */

/* Register a backend; fills pid and key. false when the table is full. */
bool proto_cancel_register(atomic_int *flag, int32_t *pid, int32_t *key);
void proto_cancel_unregister(int32_t pid);
/* Set the interrupt flag of the backend with that pid and key (else nothing). */
void proto_cancel_request(int32_t pid, int32_t key);
/* Fast shutdown: set every registered flag and wake every socket. */
void proto_cancel_shutdown_all(void);
/* Sockets to wake at shutdown (shutdown(SHUT_RD)). */
void proto_cancel_set_fd(int32_t pid, int fd);
/* Number of registered backends (sessions past the startup packet). */
int proto_cancel_count(void);

/* ---------- connections (conn.c) ---------- */

typedef struct ProtoSession ProtoSession;

typedef struct ProtoConn {
    int fd;
    SSL *ssl;
    bool is_local;
    struct sockaddr_storage peer;
    char peer_text[64];              /* "127.0.0.1" or "[local]" */

    /* receive side: bytes [rpos, rlen) of rbuf are unread */
    char rbuf[PROTO_RECV_BUF];
    size_t rpos, rlen;
    StrBuf msg;                      /* body of the current message */

    StrBuf out;                      /* whole messages waiting to be sent */
    bool broken;                     /* socket failed: never write again */
    bool terminate;                  /* close after this message */

    atomic_int interrupt;            /* ErrInterrupt value; see cancel.c */
    int32_t pid, key;                /* BackendKeyData */
    bool registered;

    ProtoSession *session;           /* after startup */
} ProtoConn;

/* Thread entry for an accepted socket; takes ownership of the ProtoConn. */
void *proto_conn_main(void *arg);

/* Read exactly len bytes (blocking). Raises FATAL 08006 on EOF/errors with
 * broken set, so no reply is attempted. */
void proto_conn_read(ProtoConn *c, void *buf, size_t len);
/* Read one regular message: type byte, length checked against the type's
 * limit before the body is read, body into c->msg. Returns the type. */
char proto_conn_read_message(ProtoConn *c, bool in_auth);
/* Send everything buffered in c->out. Raises (broken) on failure. */
void proto_conn_flush(ProtoConn *c);
/* Receive timeout of the socket (0 = none): bounds startup and auth. */
void proto_conn_set_timeout(ProtoConn *c, int seconds);
/* Whether any bytes are buffered unread (pipelined input). */
bool proto_conn_has_pending_input(const ProtoConn *c);
/* True once a fast shutdown began (main.c). */
bool proto_server_shutting_down(void);
/* During a fast shutdown a cancelled statement becomes FATAL 57P01
 * "terminating connection due to administrator command" (in place). */
void proto_error_adjust_for_shutdown(ErrorData *e);
/* A connection thread ended (listener.c keeps the count). */
void proto_listener_conn_ended(void);
/* Start listening on every configured address; false (logged) on failure. */
bool proto_listener_open(void);
/* Accept loop; returns when proto_listener_stop() is called. */
void proto_listener_run(void);
/* Wake the accept loop, close listen sockets, remove socket files. */
void proto_listener_stop(void);
/* Close listen sockets and remove socket files (after run returned). */
void proto_listener_close(void);
/* Connection threads still running. */
int proto_listener_active(void);

/* ---------- messages (results.c) ---------- */

/* A message being read: bounds-checked getters raise 08P01. */
typedef struct ProtoMsg {
    const char *data;
    size_t len;
    size_t pos;
} ProtoMsg;

int32_t proto_msg_int32(ProtoMsg *m);
int16_t proto_msg_int16(ProtoMsg *m);
/* NUL-terminated string; raises "invalid string in message". */
const char *proto_msg_string(ProtoMsg *m);
/* Client text (PostgreSQL's pq_getmsgstring): a NUL-terminated string
 * that must be valid UTF-8, else 22021 (common/utf8.h). */
const char *proto_msg_text(ProtoMsg *m);
/* len bytes; returns a pointer into the message. */
const char *proto_msg_bytes(ProtoMsg *m, size_t len);
/* Raise "invalid message format" unless everything was consumed. */
void proto_msg_end(ProtoMsg *m);

/* Start a message of type t in sb: returns the offset to pass to msg_finish. */
size_t proto_msg_begin(StrBuf *sb, char type);
/* Back-fill the length of the message started at offset. */
void proto_msg_finish(StrBuf *sb, size_t offset);
void proto_msg_put_string(StrBuf *sb, const char *s);

void proto_send_error(ProtoConn *c, const ErrorData *e);
/* CONTEXT line sent with the next ErrorResponse (then cleared); "" = none. */
void proto_error_set_context(const char *context);
void proto_send_notice(ProtoConn *c, const ErrorData *e);
void proto_send_simple(ProtoConn *c, char type);               /* no body: '1','2','3','n','I','s' */
void proto_send_command_complete(ProtoConn *c, const char *tag);
void proto_send_ready(ProtoConn *c, char txn_status);
void proto_send_parameter_status(ProtoConn *c, const char *name, const char *value);
void proto_send_auth(ProtoConn *c, int32_t code, const void *data, size_t len);

/* ---------- sessions (session.c) ---------- */

typedef struct Plan Plan;
typedef struct ExecSession ExecSession;
typedef struct ExecPortal ExecPortal;
typedef struct GucSet GucSet;

/* A prepared statement: text, parse and plan live in its own arena. */
typedef struct ProtoStmt {
    char name[PROTO_NAME_MAX];
    MemArena *arena;
    const char *query_text;
    const Plan *plan;                /* NULL for an empty query */
    int refcount;                    /* 1 for the session's list + 1 per portal */
    struct ProtoStmt *next;
    /* DECLARE / FETCH / MOVE / CLOSE (cursor.c): not planned; run at Execute */
    const struct RawStmt *cursor_raw;
    const Plan *cursor_query;        /* DECLARE: its query's plan (parameter types) */
    uint64_t stats_epoch;            /* store_stats_epoch() when planned (extended.c re-plans) */
    uint64_t catalog_epoch;          /* store_catalog_epoch() when planned (extended.c re-plans) */
    const char *search_path;         /* search_path when last found good (in arena) */
    const struct StoreDeps *deps;    /* the relations its plan looked up (storage/plandeps.c) */
    uint64_t path_key;               /* plan_search_path_key when planned */
} ProtoStmt;

/* A portal: bound parameters and the executor's portal, in its own arena. */
typedef struct ProtoPortal {
    char name[PROTO_NAME_MAX];
    MemArena *arena;
    ProtoStmt *stmt;                 /* the statement it was bound from (kept alive) */
    const Plan *plan;
    ExecPortal *portal;              /* NULL for an empty query */
    int16_t *result_formats;         /* one per result column */
    bool done;
    char tag[64];
    struct ProtoPortal *next;
    struct ProtoCursor *cursor;      /* a SQL cursor (DECLARE), cursor_int.h */
    const struct RawStmt *cursor_raw; /* bound from a cursor statement: ProtoStmt.cursor_raw */
    const Value *cursor_params;      /* its bound parameters (DECLARE) */
    struct CursorRest *cursor_rest;  /* a FETCH's DataRows beyond an Execute's row limit */
    int cursor_ncols;                /* columns result_formats was made for (FETCH) */
    bool bound_failed;               /* bound in a failed transaction (its COMMIT/ROLLBACK may run) */
    bool failed;                     /* its run raised, or its (sub)transaction failed: PORTAL_FAILED */
    int sp_depth;                    /* savepoints open at Bind (ROLLBACK TO drops the deeper ones) */
} ProtoPortal;

struct ProtoSession {
    MemArena *arena;                 /* session lifetime: names, settings text */
    const char *user;
    const char *database;
    bool is_superuser;
    GucSet *guc;
    ExecSession *exec;
    ProtoStmt *stmts;
    ProtoPortal *portals;
    bool ignore_till_sync;           /* after an extended-protocol error */
    /* Last value sent in ParameterStatus for each reported parameter. */
    int nreported;
    char *reported_names[64];
    char *reported_values[64];
    bool reported_valid;             /* reported_* match the settings of reported_generation */
    uint64_t reported_generation;    /* guc_generation at the last full comparison */
    MemArena *batch_arena;           /* text of one batch's values; reset per batch */
    void *plan_state;                /* planner's per-session state (SQL PREPARE) */
    struct CursorSavepoints *cursor_savepoints;   /* cursor.c: savepoints of the block (session arena) */
    /* plan_search_path_key as of (guc_generation, store_catalog_epoch):
     * the schemas searched change only with a setting or the catalog */
    uint64_t path_key, path_key_gen, path_key_epoch;
    bool path_key_valid;
};

/* A new session (guc created; exec created by startup once settings apply). */
ProtoSession *proto_session_create(const char *user, const char *database, bool is_superuser);
/* Prepared statements: find (NULL when absent), add (takes ownership),
 * drop by name (no error when absent), release one reference. */
ProtoStmt *proto_stmt_find(ProtoSession *s, const char *name);
void proto_stmt_add(ProtoSession *s, ProtoStmt *st);
void proto_stmt_drop(ProtoSession *s, const char *name);
void proto_stmt_release(ProtoStmt *st);
/* Portals: find, add (takes ownership), drop by name (closes the executor portal). */
ProtoPortal *proto_portal_find(ProtoSession *s, const char *name);
void proto_portal_add(ProtoSession *s, ProtoPortal *p);
void proto_portal_drop(ProtoSession *s, const char *name);
/* The session's reported parameters: sent on startup (all) and after each
 * statement (changed ones only). */
void proto_session_report_params(ProtoConn *c, bool all);
/* Drop every portal (end of transaction). */
void proto_session_drop_portals(ProtoSession *s);
void proto_session_destroy(ProtoSession *s);

/* ---------- startup and auth (startup.c, auth.c, scram.c) ---------- */

/* Run the startup phase; returns false when the connection must close
 * (cancel request, rejected, FATAL already sent). */
bool proto_startup(ProtoConn *c);
/* Authenticate c's user per hba; raises FATAL on failure. */
void proto_auth(ProtoConn *c, const char *user, const char *database);
/* SCRAM exchange with this verifier (NULL/"" = mock exchange that fails).
 * Returns true when the proof matched. */
bool proto_scram_exchange(ProtoConn *c, const char *user, const char *verifier);
/* Check a cleartext password against a stored verifier (SCRAM or md5). */
bool proto_password_check(const char *verifier, const char *user, const char *password);
/* Base64 (RFC 4648, padded). encode returns the length written (out needs
 * 4*ceil(len/3)+1); decode returns -1 on bad input. */
size_t proto_b64_encode(const unsigned char *in, size_t len, char *out);
int proto_b64_decode(const char *in, size_t len, unsigned char *out, size_t out_max);

/* ---------- queries (simple_query.c, extended.c, results.c) ---------- */

void proto_simple_query(ProtoConn *c, ProtoMsg *m);
void proto_ext_parse(ProtoConn *c, ProtoMsg *m);
void proto_ext_bind(ProtoConn *c, ProtoMsg *m);
void proto_ext_describe(ProtoConn *c, ProtoMsg *m);
void proto_ext_execute(ProtoConn *c, ProtoMsg *m);
void proto_ext_close(ProtoConn *c, ProtoMsg *m);
void proto_ext_sync(ProtoConn *c);

/* RowDescription of plan's columns; formats NULL = all text. */
void proto_send_row_description(ProtoConn *c, const Plan *plan, const int16_t *formats);
/* Run a portal, streaming DataRows; returns exec_portal_run's result and
 * the number of rows sent (rows_sent may be NULL). */
bool proto_run_portal(ProtoConn *c, ExecPortal *portal, const Plan *plan,
                      const int16_t *formats, uint64_t max_rows, uint64_t *rows_sent);
/* COPY (copy.c): run one COPY statement of a simple Query up to, not
 * including, CommandComplete; the tag ("COPY n") into tag. */
typedef struct RawStmt RawStmt;
void proto_copy(ProtoConn *c, const char *sql, const RawStmt *raw, MemArena *arena, char *tag,
                size_t tag_size);
/* Whether binary output is implemented for this type. */
bool proto_binary_supported(uint32_t type_oid);
/* numeric's binary wire form (binary_numeric.c): send = PostgreSQL's
 * numeric_send of a packed numeric (bytes in arena); recv parses one
 * parameter (typmod applied; 22P03 for malformed data, idx names it). */
/* statement_timeout (timeout.c): after timeout_ms (<= 0: never) the
 * watcher thread sets *flag to ERR_INTERRUPT_TIMEOUT; disarm removes the
 * deadline and clears a timeout that fired too late to matter. */
void proto_timeout_arm(atomic_int *flag, int timeout_ms);
void proto_timeout_disarm(atomic_int *flag);
StrRef proto_numeric_send(StrRef num, MemArena *arena);
void proto_numeric_recv(const char *data, size_t len, int32_t typmod, int idx, MemArena *arena, Value *out);
/* interval's binary form (int64 µs, int32 days, int32 months, big-endian)
 * from the 16-byte in-memory one; and the parameters whose binary form is
 * raw bytes or that (interval): uuid (16 bytes), bytea, interval; as
 * PostgreSQL, too few bytes are 08P01, too many 22P03. */
StrRef proto_interval_send(StrRef iv, MemArena *arena);
void proto_binary_bytes_recv(uint32_t type_oid, const char *data, size_t len, int idx, MemArena *arena,
                             Value *out);
/* One binary parameter of type t into out (extended.c; idx names it in
 * errors): 0A000 for a type without a binary form, 22P03/08P01 for
 * malformed data. Arrays and json/jsonb (binary_array.c): send builds the
 * wire form of an in-memory array blob / json text (bytes in arena); recv
 * parses one parameter (arrays: one dimension, elements through
 * proto_binary_param). */
void proto_binary_param(SqlType t, const char *data, size_t len, int idx, MemArena *a, Value *out);
StrRef proto_array_send(StrRef blob, MemArena *arena);
void proto_array_recv(SqlType t, const char *data, size_t len, int idx, MemArena *arena, Value *out);
StrRef proto_json_send(uint32_t type_oid, StrRef text, MemArena *arena);
void proto_json_recv(SqlType t, const char *data, size_t len, MemArena *arena, Value *out);
/* The binary form of one column of a batch (results.c): out[i] for row i,
 * ptr NULL for NULL; bytes in arena. The type must be binary-capable. */
typedef struct Vector Vector;
typedef struct Batch Batch;
void proto_binary_column(const Vector *v, const Batch *b, MemArena *arena, StrRef *out);
/* COPY's binary format (copy_binary.c). TO: the header, each batch's rows
 * (row_end[i] = end of row i in out), the trailer; check_types raises 0A000
 * for a column without a binary form. FROM: begin/data/end over CopyData
 * bytes, feeding text-format lines to ci; free is safe after errors. */
void proto_copy_binary_header(StrBuf *out);
void proto_copy_binary_trailer(StrBuf *out);
void proto_copy_binary_check_types(const SqlType *types, int ncols);
void proto_copy_binary_batch(const Batch *b, MemArena *arena, StrBuf *out, size_t *row_end);
typedef struct ProtoCopyBinIn ProtoCopyBinIn;
typedef struct ExecCopyIn ExecCopyIn;
ProtoCopyBinIn *proto_copy_binary_in_begin(ExecCopyIn *ci, int ncols, const SqlType *types, MemArena *a);
void proto_copy_binary_in_data(ProtoCopyBinIn *in, const char *data, size_t len);
void proto_copy_binary_in_end(ProtoCopyBinIn *in);
void proto_copy_binary_in_free(ProtoCopyBinIn *in);
/* Names for the error context (the table's and the COPY's columns'; kept,
 * not copied). Then, in the COPY's error handler, turn buf — the text
 * reader's context (exec_copy_in_context) — into PostgreSQL's binary-COPY
 * context: "COPY t, line N, column c" / "COPY t, line N", never the data. */
void proto_copy_binary_in_names(ProtoCopyBinIn *in, const char *relname, const char *const *colnames);
void proto_copy_binary_in_context(const ProtoCopyBinIn *in, char *buf, size_t size);
/* SQL cursors of a simple Query (cursor.c): runs DECLARE / FETCH / CLOSE
 * (RowDescription and DataRows for FETCH) and fills the command tag;
 * false when raw is none of them. */
bool proto_cursor_statement(ProtoConn *c, const char *sql, const RawStmt *raw, char *tag, size_t tag_size);
/* The extended protocol's cursor statements (cursor.c). parse: true (and
 * st->cursor_raw set; a DECLARE's query planned into st->cursor_query for
 * its parameter types) when raw is DECLARE/FETCH/MOVE/CLOSE. result_plan:
 * the plan whose columns a FETCH returns (its cursor's; NULL for the others
 * and for a cursor that does not exist). execute: run the Bind portal's
 * statement and send CommandComplete (a FETCH's rows in p's formats). */
bool proto_cursor_parse(ProtoConn *c, ProtoStmt *st, const RawStmt *raw, const uint32_t *types, int ntypes);
const Plan *proto_cursor_result_plan(ProtoSession *s, const RawStmt *raw);
void proto_cursor_execute(ProtoConn *c, ProtoPortal *p, int32_t max_rows);
/* (execute: a FETCH with a row limit sends that many rows and
 * PortalSuspended, the rest at the next Executes, as PostgreSQL.) */
/* Execute naming a SQL cursor itself: the next max_rows rows (0 = all),
 * PortalSuspended unless the cursor reached its end, else `SELECT n`. */
void proto_cursor_execute_cursor(ProtoConn *c, ProtoPortal *p, int32_t max_rows);
/* Transaction ends. before_txn_end: a COMMIT (commit) or ROLLBACK statement
 * is about to run — in a block, materialise its WITH HOLD cursors (commit
 * only) and close its other SQL cursors. before_sync: the same for the
 * held cursors of the implicit transaction, about to end in
 * exec_session_sync with no block open. txn_ended: drop every portal but
 * keep (NULL = none; the COMMIT/ROLLBACK portal that ended the block), the
 * held cursors already materialised and, while a block is still open, its
 * SQL cursors (instead of proto_session_drop_portals when a transaction
 * ends). txn_failed: an error is about to abort the session's transaction
 * (before exec_session_abort): outside a block every portal goes
 * (txn_ended); in a block that was running, the protocol portals bound at
 * the failing level (all of them without savepoints) release their
 * executor portals and are marked failed but stay, as PostgreSQL's
 * AtAbort_Portals / AtSubAbort_Portals — Close and Describe still work,
 * Execute is 25P02 — until the block's end or a ROLLBACK TO drops them;
 * those of outer savepoint levels stay runnable. */
void proto_cursor_before_txn_end(ProtoConn *c, bool commit);
/* SAVEPOINT ('s'), RELEASE ('r') or ROLLBACK TO ('b') name is about to run
 * (through the portal self, NULL for a simple Query): ROLLBACK TO drops the
 * portals (protocol portals and SQL cursors) bound after that savepoint
 * but self, RELEASE hands them to the outer level. */
void proto_cursor_savepoint(ProtoConn *c, char op, const char *name, ProtoPortal *self);
/* DISCARD ALL is about to run: outside a block, close every SQL cursor
 * (held ones too, as PostgreSQL's CLOSE ALL inside DISCARD ALL). */
void proto_cursor_discard_all(ProtoSession *s);
void proto_cursor_before_sync(ProtoConn *c);
void proto_cursor_txn_ended(ProtoSession *s, const ProtoPortal *keep);
void proto_cursor_txn_failed(ProtoSession *s);
/* Savepoints open in the session's block now (a Bind's ProtoPortal.sp_depth). */
int proto_cursor_savepoint_depth(const ProtoSession *s);

#endif
