/*
 * auth.c — client authentication: pick the method from strata_hba.conf,
 * run its exchange, raise FATAL on failure.
 *
 * Methods (PostgreSQL's semantics):
 *   trust          no exchange;
 *   reject         always FATAL 28000;
 *   password       AuthenticationCleartextPassword, checked against the
 *                  verifier (SCRAM or md5);
 *   md5            AuthenticationMD5Password with a random 4-byte salt when
 *                  the role has an md5 verifier; with a SCRAM verifier the
 *                  server uses SCRAM instead, as PostgreSQL does;
 *   scram-sha-256  the SASL exchange of scram.c.
 * A missing role or a role without password fails as a wrong password
 * (28P01) after the exchange, never earlier: the client learns nothing.
 */
#define STRATA_PROTOCOL_INTERNAL
#include "protocol/proto_int.h"

#include <stdio.h>
#include <string.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include "common/password.h"
#include "storage/storage.h"

static _Noreturn void auth_failed(const char *user)
{
    err_raise_fatal(ERRCODE_INVALID_PASSWORD, "password authentication failed for user \"%s\"", user);
}

static const char *encryption_text(const ProtoConn *c)
{
    return c->ssl ? "SSL encryption" : "no encryption";
}

/* Read a PasswordMessage ('p') holding one string. */
static const char *read_password(ProtoConn *c)
{
    proto_conn_flush(c);
    proto_conn_read_message(c, true);
    ProtoMsg m = {.data = c->msg.data, .len = c->msg.len, .pos = 0};
    const char *pw = proto_msg_string(&m);
    proto_msg_end(&m);
    return pw;
}

static void auth_password(ProtoConn *c, const char *user, const char *verifier)
{
    proto_send_auth(c, 3, NULL, 0);
    const char *pw = read_password(c);
    if (!pw[0])
        err_raise_fatal(ERRCODE_INVALID_PASSWORD, "empty password returned by client");
    if (!verifier || !proto_password_check(verifier, user, pw))
        auth_failed(user);
}

static void auth_md5(ProtoConn *c, const char *user, const char *verifier)
{
    unsigned char salt[4];
    RAND_bytes(salt, sizeof salt);
    proto_send_auth(c, 5, salt, sizeof salt);
    const char *resp = read_password(c);
    if (!verifier || !password_is_md5_verifier(verifier))
        auth_failed(user);
    /* expected: "md5" + md5hex(md5hex(password || user) || salt) */
    unsigned char buf[32 + 4], dig[EVP_MAX_MD_SIZE];
    unsigned int dlen = 0;
    memcpy(buf, verifier + 3, 32);
    memcpy(buf + 32, salt, 4);
    EVP_Digest(buf, sizeof buf, dig, &dlen, EVP_md5(), NULL);
    char expect[3 + 32 + 1] = "md5";
    for (unsigned int i = 0; i < dlen && i < 16; i++)
        snprintf(expect + 3 + 2 * i, 3, "%02x", dig[i]);
    if (strlen(resp) != 35 || CRYPTO_memcmp(resp, expect, 35) != 0)
        auth_failed(user);
}

void proto_auth(ProtoConn *c, const char *user, const char *database)
{
    HbaClient hc = {.is_local = c->is_local, .ssl = c->ssl != NULL, .user = user, .database = database};
    hc.addr = c->peer;
    HbaMethod method;
    if (!proto_hba_match(&hc, &method))
        err_raise_fatal(ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION,
                        "no pg_hba.conf entry for host \"%s\", user \"%s\", database \"%s\", %s",
                        c->peer_text, user, database, encryption_text(c));
    if (method == HBA_TRUST)
        return;
    if (method == HBA_REJECT)
        err_raise_fatal(ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION,
                        "pg_hba.conf rejects connection for host \"%s\", user \"%s\", database \"%s\", %s",
                        c->peer_text, user, database, encryption_text(c));

    char verifier_buf[PASSWORD_VERIFIER_MAX] = "";
    bool superuser;
    const char *verifier = NULL;
    if (store_role_get(user, &superuser, verifier_buf, sizeof verifier_buf) && verifier_buf[0])
        verifier = verifier_buf;

    if (method == HBA_PASSWORD) {
        auth_password(c, user, verifier);
    } else if (method == HBA_MD5 && (!verifier || password_is_md5_verifier(verifier))) {
        auth_md5(c, user, verifier);
    } else {
        /* scram-sha-256, or md5 with a SCRAM verifier / no verifier */
        if (!proto_scram_exchange(c, user, verifier))
            auth_failed(user);
    }
}
