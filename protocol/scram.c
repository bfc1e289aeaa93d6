/*
 * scram.c — the server side of SCRAM-SHA-256 (RFC 5802, RFC 7677) and the
 * checks of cleartext and md5 passwords against stored verifiers.
 *
 * The exchange, as libpq and PostgreSQL run it:
 *   S: AuthenticationSASL        "SCRAM-SHA-256-PLUS" (over TLS), "SCRAM-SHA-256"
 *   C: SASLInitialResponse       gs2-header client-first-bare   ("n,,n=,r=<cnonce>")
 *   S: AuthenticationSASLContinue r=<cnonce><snonce>,s=<salt>,i=<iterations>
 *   C: SASLResponse              c=<b64 gs2-header[+cbind]>,r=<nonce>,p=<proof>
 *   S: AuthenticationSASLFinal   v=<server signature>          (then AuthenticationOk)
 * The user name inside the SCRAM messages is ignored (libpq sends "n=",
 * other drivers "n=*"): the role is the StartupMessage's.
 *
 * ClientKey = proof XOR HMAC(StoredKey, AuthMessage); the proof is right
 * when SHA-256(ClientKey) == StoredKey. A role without a SCRAM verifier
 * gets a mock exchange with a random salt that always fails, so a client
 * cannot tell missing roles from wrong passwords.
 *
 * Channel binding: over TLS the server offers SCRAM-SHA-256-PLUS with
 * tls-server-end-point (RFC 5929: a hash of our certificate), which libpq
 * prefers; a client that says "y" (supports binding but thinks we don't)
 * while we offered it is refused, as PostgreSQL does (downgrade attack).
 */
#define STRATA_PROTOCOL_INTERNAL
#include "protocol/proto_int.h"

#include <string.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include "common/password.h"

#define KEY_LEN 32
#define NONCE_RAW 18
#define SCRAM_MSG_MAX 1024

size_t proto_b64_encode(const unsigned char *in, size_t len, char *out)
{
    return (size_t)EVP_EncodeBlock((unsigned char *)out, in, (int)len);
}

int proto_b64_decode(const char *in, size_t len, unsigned char *out, size_t out_max)
{
    if (len % 4 != 0 || len / 4 * 3 > out_max + 2 || len / 4 * 3 > 1024)
        return -1;
    if (len == 0)
        return 0;
    unsigned char tmp[1024];
    int n = EVP_DecodeBlock(tmp, (const unsigned char *)in, (int)len);
    if (n < 0)
        return -1;
    if (in[len - 1] == '=')
        n--;
    if (in[len - 2] == '=')
        n--;
    if ((size_t)n > out_max)
        return -1;
    memcpy(out, tmp, (size_t)n);
    return n;
}

static void hmac256(const unsigned char *key, size_t key_len, const void *data, size_t len,
                    unsigned char out[KEY_LEN])
{
    unsigned int olen = 0;
    HMAC(EVP_sha256(), key, (int)key_len, data, len, out, &olen);
}

static void sha256(const void *data, size_t len, unsigned char out[KEY_LEN])
{
    unsigned int olen = 0;
    EVP_Digest(data, len, out, &olen, EVP_sha256(), NULL);
}

bool proto_password_check(const char *verifier, const char *user, const char *password)
{
    if (!password[0] || !verifier[0])
        return false;
    if (password_is_md5_verifier(verifier)) {
        char computed[PASSWORD_VERIFIER_MAX];
        password_make_verifier(user, password, "md5", computed, sizeof computed);
        return strcmp(computed, verifier) == 0;
    }
    int iter;
    unsigned char salt[128], stored[KEY_LEN], server[KEY_LEN], salted[KEY_LEN], ckey[KEY_LEN], h[KEY_LEN];
    size_t salt_len;
    if (!password_parse_scram(verifier, &iter, salt, &salt_len, sizeof salt, stored, server))
        return false;
    if (!PKCS5_PBKDF2_HMAC(password, (int)strlen(password), salt, (int)salt_len, iter,
                           EVP_sha256(), KEY_LEN, salted))
        return false;
    hmac256(salted, KEY_LEN, "Client Key", 10, ckey);
    sha256(ckey, KEY_LEN, h);
    return CRYPTO_memcmp(h, stored, KEY_LEN) == 0;
}

/* ---------- the exchange ---------- */

typedef struct ScramState {
    int iterations;
    unsigned char salt[128];
    size_t salt_len;
    unsigned char stored_key[KEY_LEN];
    unsigned char server_key[KEY_LEN];
    bool mock;                        /* no usable verifier: always fail */
    bool plus;                        /* client chose SCRAM-SHA-256-PLUS */
    char gs2_header[128];             /* "n,," / "y,," / "p=tls-server-end-point,," */
    char client_first_bare[SCRAM_MSG_MAX];
    char server_first[2 * SCRAM_MSG_MAX];
    char nonce[SCRAM_MSG_MAX];        /* client nonce + server nonce */
} ScramState;

static _Noreturn void scram_malformed(const char *detail)
{
    ErrorData *e = err_begin(ERRCODE_PROTOCOL_VIOLATION);
    e->severity = ERR_SEV_FATAL;
    err_message(e, "malformed SCRAM message");
    err_detail(e, "%s", detail);
    err_throw();
}

static ProtoMsg read_sasl_message(ProtoConn *c)
{
    proto_conn_flush(c);
    char type = proto_conn_read_message(c, true);
    (void)type;
    return (ProtoMsg){.data = c->msg.data, .len = c->msg.len, .pos = 0};
}

/* Parse the gs2 header and client-first-bare of SASLInitialResponse. */
static void parse_client_first(ScramState *st, const char *data, size_t len, bool offered_plus)
{
    if (len >= SCRAM_MSG_MAX || memchr(data, '\0', len))
        scram_malformed("The message is too long or contains a NUL byte.");
    char msg[SCRAM_MSG_MAX];
    memcpy(msg, data, len);
    msg[len] = '\0';
    const char *p = msg;
    if (*p == 'n' || *p == 'y') {
        if (*p == 'y' && offered_plus)
            err_raise_fatal(ERRCODE_PROTOCOL_VIOLATION, "SCRAM channel binding negotiation error");
        if (st->plus)
            err_raise_fatal(ERRCODE_PROTOCOL_VIOLATION,
                            "channel binding is required, but client does not support it");
        p++;
    } else if (strncmp(p, "p=tls-server-end-point", 22) == 0) {
        if (!st->plus)
            err_raise_fatal(ERRCODE_PROTOCOL_VIOLATION,
                            "channel binding was used but the client did not select SCRAM-SHA-256-PLUS");
        p += 22;
    } else {
        scram_malformed("Unexpected channel-binding flag.");
    }
    if (*p++ != ',')
        scram_malformed("Comma expected after the channel-binding flag.");
    if (*p == 'a')
        err_raise_fatal(ERRCODE_FEATURE_NOT_SUPPORTED,
                        "client uses authorization identity, but it is not supported");
    if (*p++ != ',')
        scram_malformed("Unexpected attribute in client-first-message.");
    snprintf(st->gs2_header, sizeof st->gs2_header, "%.*s", (int)(p - msg), msg);
    snprintf(st->client_first_bare, sizeof st->client_first_bare, "%s", p);
    /* n=<ignored user>,r=<nonce> */
    if (strncmp(p, "n=", 2) != 0)
        scram_malformed("Expected attribute \"n\".");
    const char *r = strstr(p, ",r=");
    if (!r)
        scram_malformed("Expected attribute \"r\".");
    r += 3;
    size_t rlen = strcspn(r, ",");
    if (rlen == 0)
        scram_malformed("The client nonce is empty.");
    char snonce_raw[NONCE_RAW], snonce[NONCE_RAW * 2];
    RAND_bytes((unsigned char *)snonce_raw, NONCE_RAW);
    snonce[proto_b64_encode((unsigned char *)snonce_raw, NONCE_RAW, snonce)] = '\0';
    size_t slen = strlen(snonce);
    if (rlen + slen >= sizeof st->nonce)
        scram_malformed("The client nonce is too long.");
    memcpy(st->nonce, r, rlen);
    memcpy(st->nonce + rlen, snonce, slen + 1);
}

static void send_server_first(ProtoConn *c, ScramState *st)
{
    char salt64[256];
    salt64[proto_b64_encode(st->salt, st->salt_len, salt64)] = '\0';
    snprintf(st->server_first, sizeof st->server_first, "r=%s,s=%s,i=%d", st->nonce, salt64,
             st->iterations);
    proto_send_auth(c, 11, st->server_first, strlen(st->server_first));
}

/* Expected c= value: base64(gs2 header [+ channel binding data]). */
static void expected_cbind(const ScramState *st, char *out)
{
    unsigned char raw[256];
    size_t hlen = strlen(st->gs2_header);
    memcpy(raw, st->gs2_header, hlen);
    if (st->plus)
        hlen += proto_tls_endpoint_hash(raw + hlen);
    out[proto_b64_encode(raw, hlen, out)] = '\0';
}

/* Verify client-final; on success fill the server signature. */
static bool check_client_final(ScramState *st, const char *data, size_t len,
                               unsigned char server_sig[KEY_LEN])
{
    if (len >= SCRAM_MSG_MAX || memchr(data, '\0', len))
        scram_malformed("The message is too long or contains a NUL byte.");
    char msg[SCRAM_MSG_MAX], cbind[512];
    memcpy(msg, data, len);
    msg[len] = '\0';
    expected_cbind(st, cbind);
    if (strncmp(msg, "c=", 2) != 0)
        scram_malformed("Expected attribute \"c\".");
    size_t clen = strcspn(msg + 2, ",");
    if (clen != strlen(cbind) || strncmp(msg + 2, cbind, clen) != 0)
        err_raise_fatal(ERRCODE_PROTOCOL_VIOLATION, "SCRAM channel binding check failed");
    const char *r = msg + 2 + clen;
    if (strncmp(r, ",r=", 3) != 0)
        scram_malformed("Expected attribute \"r\".");
    size_t nlen = strcspn(r + 3, ",");
    if (nlen != strlen(st->nonce) || strncmp(r + 3, st->nonce, nlen) != 0)
        scram_malformed("Nonce does not match.");
    char *proof_attr = strstr(msg, ",p=");
    if (!proof_attr)
        scram_malformed("Could not find proof in client-final-message.");
    unsigned char proof[KEY_LEN];
    const char *proof64 = proof_attr + 3;
    if (proto_b64_decode(proof64, strlen(proof64), proof, sizeof proof) != KEY_LEN)
        scram_malformed("Malformed proof in client-final-message.");
    *proof_attr = '\0';   /* msg is now client-final-without-proof */

    char auth[4 * SCRAM_MSG_MAX + 4];
    int alen = snprintf(auth, sizeof auth, "%s,%s,%s", st->client_first_bare, st->server_first, msg);
    unsigned char csig[KEY_LEN], ckey[KEY_LEN], h[KEY_LEN];
    hmac256(st->stored_key, KEY_LEN, auth, (size_t)alen, csig);
    for (int i = 0; i < KEY_LEN; i++)
        ckey[i] = proof[i] ^ csig[i];
    sha256(ckey, KEY_LEN, h);
    hmac256(st->server_key, KEY_LEN, auth, (size_t)alen, server_sig);
    return !st->mock && CRYPTO_memcmp(h, st->stored_key, KEY_LEN) == 0;
}

static void load_verifier(ScramState *st, const char *verifier)
{
    st->mock = !verifier || !password_parse_scram(verifier, &st->iterations, st->salt, &st->salt_len,
                                                  sizeof st->salt, st->stored_key, st->server_key);
    if (st->mock) {
        st->iterations = 4096;
        st->salt_len = 16;
        RAND_bytes(st->salt, (int)st->salt_len);
        RAND_bytes(st->stored_key, KEY_LEN);
        RAND_bytes(st->server_key, KEY_LEN);
    }
}

bool proto_scram_exchange(ProtoConn *c, const char *user, const char *verifier)
{
    (void)user;
    ScramState st;
    memset(&st, 0, sizeof st);
    load_verifier(&st, verifier);
    unsigned char cb[64];
    bool offer_plus = c->ssl && proto_tls_endpoint_hash(cb) > 0;
    static const char both[] = "SCRAM-SHA-256-PLUS\0SCRAM-SHA-256\0";
    static const char plain[] = "SCRAM-SHA-256\0";
    if (offer_plus)
        proto_send_auth(c, 10, both, sizeof both);
    else
        proto_send_auth(c, 10, plain, sizeof plain);

    ProtoMsg m = read_sasl_message(c);
    const char *mech = proto_msg_string(&m);
    if (strcmp(mech, "SCRAM-SHA-256-PLUS") == 0 && offer_plus)
        st.plus = true;
    else if (strcmp(mech, "SCRAM-SHA-256") != 0)
        err_raise_fatal(ERRCODE_PROTOCOL_VIOLATION,
                        "client selected an invalid SASL authentication mechanism");
    int32_t ilen = proto_msg_int32(&m);
    if (ilen < 0)
        scram_malformed("The client sent no initial response.");
    const char *idata = proto_msg_bytes(&m, (size_t)ilen);
    proto_msg_end(&m);
    parse_client_first(&st, idata, (size_t)ilen, offer_plus);
    send_server_first(c, &st);

    m = read_sasl_message(c);
    unsigned char server_sig[KEY_LEN];
    if (!check_client_final(&st, m.data, m.len, server_sig))
        return false;
    char final[128];
    int flen = snprintf(final, sizeof final, "v=");
    flen += (int)proto_b64_encode(server_sig, KEY_LEN, final + flen);
    proto_send_auth(c, 12, final, (size_t)flen);
    return true;
}
