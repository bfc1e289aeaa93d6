/*
 * password.c — password verifiers as PostgreSQL stores them (see
 * common/password.h): SCRAM-SHA-256 (RFC 5802/7677) and md5, computed with
 * OpenSSL's primitives (PKCS5_PBKDF2_HMAC, HMAC, EVP digests).
 *
 * The server never keeps a cleartext password: ALTER ROLE ... PASSWORD and
 * the server's --password-file turn it into a verifier here, and the
 * protocol's authentication checks proofs against the verifier.
 * Passwords are used as given (no SASLprep normalisation): identical to
 * PostgreSQL for ASCII passwords.
 */
#include "common/password.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include "common/error.h"

#define SCRAM_ITERATIONS 4096
#define SCRAM_SALT_LEN 16
#define SCRAM_KEY_LEN 32

static size_t b64_encode(const unsigned char *in, size_t len, char *out)
{
    return (size_t)EVP_EncodeBlock((unsigned char *)out, in, (int)len);
}

/* Decode padded base64; -1 when malformed or longer than out_max. */
static int b64_decode(const char *in, size_t len, unsigned char *out, size_t out_max)
{
    if (len == 0 || len % 4 != 0 || len / 4 * 3 > out_max + 2)
        return -1;
    unsigned char tmp[256];
    if (len / 4 * 3 > sizeof tmp)
        return -1;
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

static void hex_digest(const EVP_MD *md, const void *data, size_t len, char *hex_out)
{
    unsigned char dig[EVP_MAX_MD_SIZE];
    unsigned int dlen = 0;
    if (!EVP_Digest(data, len, dig, &dlen, md, NULL))
        err_raise(ERRCODE_INTERNAL_ERROR, "could not compute digest");
    for (unsigned int i = 0; i < dlen; i++)
        sprintf(hex_out + 2 * i, "%02x", dig[i]);
}

static void make_md5(const char *user, const char *password, char *out, size_t out_size)
{
    size_t plen = strlen(password), ulen = strlen(user);
    char *buf = malloc(plen + ulen + 1);
    if (!buf)
        err_raise(ERRCODE_OUT_OF_MEMORY, "out of memory");
    memcpy(buf, password, plen);
    memcpy(buf + plen, user, ulen);
    char hex[2 * EVP_MAX_MD_SIZE + 1];
    hex_digest(EVP_md5(), buf, plen + ulen, hex);
    free(buf);
    snprintf(out, out_size, "md5%s", hex);
}

static void scram_keys(const char *password, const unsigned char *salt, size_t salt_len,
                       int iterations, unsigned char stored[SCRAM_KEY_LEN],
                       unsigned char server[SCRAM_KEY_LEN])
{
    unsigned char salted[SCRAM_KEY_LEN], client[SCRAM_KEY_LEN];
    unsigned int len = 0;
    if (!PKCS5_PBKDF2_HMAC(password, (int)strlen(password), salt, (int)salt_len, iterations,
                           EVP_sha256(), SCRAM_KEY_LEN, salted))
        err_raise(ERRCODE_INTERNAL_ERROR, "could not compute SCRAM salted password");
    HMAC(EVP_sha256(), salted, SCRAM_KEY_LEN, (const unsigned char *)"Client Key", 10, client, &len);
    EVP_Digest(client, SCRAM_KEY_LEN, stored, &len, EVP_sha256(), NULL);
    HMAC(EVP_sha256(), salted, SCRAM_KEY_LEN, (const unsigned char *)"Server Key", 10, server, &len);
}

static void make_scram(const char *password, char *out, size_t out_size)
{
    unsigned char salt[SCRAM_SALT_LEN], stored[SCRAM_KEY_LEN], server[SCRAM_KEY_LEN];
    if (RAND_bytes(salt, sizeof salt) != 1)
        err_raise(ERRCODE_INTERNAL_ERROR, "could not generate random salt");
    scram_keys(password, salt, sizeof salt, SCRAM_ITERATIONS, stored, server);
    char salt64[64], stored64[64], server64[64];
    salt64[b64_encode(salt, sizeof salt, salt64)] = '\0';
    stored64[b64_encode(stored, sizeof stored, stored64)] = '\0';
    server64[b64_encode(server, sizeof server, server64)] = '\0';
    snprintf(out, out_size, "SCRAM-SHA-256$%d:%s$%s:%s", SCRAM_ITERATIONS, salt64, stored64, server64);
}

void password_make_verifier(const char *user, const char *password, const char *method,
                            char *out, size_t out_size)
{
    if (password_is_scram_verifier(password) || password_is_md5_verifier(password)) {
        snprintf(out, out_size, "%s", password);
        return;
    }
    if (method && strcmp(method, "md5") == 0)
        make_md5(user, password, out, out_size);
    else
        make_scram(password, out, out_size);
}

bool password_is_md5_verifier(const char *v)
{
    if (strncmp(v, "md5", 3) != 0 || strlen(v) != 35)
        return false;
    for (int i = 3; i < 35; i++)
        if (!((v[i] >= '0' && v[i] <= '9') || (v[i] >= 'a' && v[i] <= 'f')))
            return false;
    return true;
}

bool password_is_scram_verifier(const char *v)
{
    int iter;
    unsigned char salt[64], stored[32], server[32];
    size_t salt_len;
    return password_parse_scram(v, &iter, salt, &salt_len, sizeof salt, stored, server);
}

/* Decode the base64 text [start, end) into exactly want bytes (or up to
 * max when want is 0). */
static bool decode_part(const char *start, const char *end, unsigned char *out, size_t max,
                        size_t want, size_t *got)
{
    int n = b64_decode(start, (size_t)(end - start), out, max);
    if (n < 0 || (want && (size_t)n != want))
        return false;
    if (got)
        *got = (size_t)n;
    return true;
}

bool password_parse_scram(const char *v, int *iterations, unsigned char *salt, size_t *salt_len,
                          size_t salt_max, unsigned char stored_key[32], unsigned char server_key[32])
{
    static const char prefix[] = "SCRAM-SHA-256$";
    if (strncmp(v, prefix, sizeof prefix - 1) != 0)
        return false;
    const char *p = v + sizeof prefix - 1;
    char *end;
    long iter = strtol(p, &end, 10);
    if (end == p || *end != ':' || iter <= 0 || iter > 100000000)
        return false;
    const char *salt_start = end + 1;
    const char *dollar = strchr(salt_start, '$');
    if (!dollar)
        return false;
    const char *colon = strchr(dollar + 1, ':');
    if (!colon)
        return false;
    if (!decode_part(salt_start, dollar, salt, salt_max, 0, salt_len) ||
        !decode_part(dollar + 1, colon, stored_key, 32, 32, NULL) ||
        !decode_part(colon + 1, colon + 1 + strlen(colon + 1), server_key, 32, 32, NULL))
        return false;
    *iterations = (int)iter;
    return true;
}
