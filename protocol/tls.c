/*
 * tls.c — TLS through OpenSSL: the server context, the handshake after an
 * SSLRequest answered 'S', and the tls-server-end-point channel binding
 * data for SCRAM-SHA-256-PLUS.
 *
 * With ssl=on the certificate and key (ssl_cert_file, ssl_key_file,
 * default server.crt / server.key, relative to the data directory) are
 * loaded once at start; a bad file stops the server, as in PostgreSQL.
 * TLS 1.2 is the minimum. The context is shared read-only by all threads.
 */
#define STRATA_PROTOCOL_INTERNAL
#include "protocol/proto_int.h"

#include <stdio.h>
#include <string.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

static SSL_CTX *ctx;
static unsigned char endpoint_hash[EVP_MAX_MD_SIZE];
static unsigned int endpoint_hash_len;

static void resolve(const char *file, char *out, size_t size)
{
    if (file[0] == '/')
        snprintf(out, size, "%s", file);
    else
        snprintf(out, size, "%s/%s", proto_config.data_dir, file);
}

static const char *ssl_error_text(void)
{
    unsigned long e = ERR_get_error();
    return e ? ERR_reason_error_string(e) ? ERR_reason_error_string(e) : "unknown" : "no error";
}

/* RFC 5929: hash the certificate with its signature's hash, except that
 * MD5 and SHA-1 are replaced by SHA-256. */
static void compute_endpoint_hash(void)
{
    X509 *cert = SSL_CTX_get0_certificate(ctx);
    int md_nid = NID_undef, pk_nid = NID_undef;
    if (!cert || !OBJ_find_sigid_algs(X509_get_signature_nid(cert), &md_nid, &pk_nid))
        return;
    const EVP_MD *md = (md_nid == NID_md5 || md_nid == NID_sha1) ? EVP_sha256()
                                                                  : EVP_get_digestbynid(md_nid);
    if (!md || !X509_digest(cert, md, endpoint_hash, &endpoint_hash_len))
        endpoint_hash_len = 0;
}

bool proto_tls_init(void)
{
    if (!proto_config.ssl)
        return false;
    char cert[1024], key[1024];
    resolve(proto_config.ssl_cert_file, cert, sizeof cert);
    resolve(proto_config.ssl_key_file, key, sizeof key);
    ctx = SSL_CTX_new(TLS_server_method());
    if (!ctx) {
        proto_log("FATAL", "could not create SSL context: %s", ssl_error_text());
        return false;
    }
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    SSL_CTX_set_mode(ctx, SSL_MODE_AUTO_RETRY);
    if (SSL_CTX_use_certificate_chain_file(ctx, cert) != 1) {
        proto_log("FATAL", "could not load server certificate file \"%s\": %s", cert, ssl_error_text());
        return false;
    }
    if (SSL_CTX_use_PrivateKey_file(ctx, key, SSL_FILETYPE_PEM) != 1) {
        proto_log("FATAL", "could not load private key file \"%s\": %s", key, ssl_error_text());
        return false;
    }
    if (SSL_CTX_check_private_key(ctx) != 1) {
        proto_log("FATAL", "check of private key failed: %s", ssl_error_text());
        return false;
    }
    compute_endpoint_hash();
    return true;
}

bool proto_tls_enabled(void)
{
    return ctx != NULL;
}

SSL *proto_tls_accept(int fd)
{
    SSL *ssl = SSL_new(ctx);
    if (!ssl)
        return NULL;
    SSL_set_fd(ssl, fd);
    if (SSL_accept(ssl) != 1) {
        proto_log("LOG", "could not accept SSL connection: %s", ssl_error_text());
        SSL_free(ssl);
        ERR_clear_error();
        return NULL;
    }
    return ssl;
}

void proto_tls_close(SSL *ssl)
{
    SSL_shutdown(ssl);
    SSL_free(ssl);
    ERR_clear_error();
}

size_t proto_tls_endpoint_hash(unsigned char *out)
{
    if (!ctx || endpoint_hash_len == 0)
        return 0;
    memcpy(out, endpoint_hash, endpoint_hash_len);
    return endpoint_hash_len;
}
