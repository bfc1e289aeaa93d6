/*
 * test_password.c — common/password.c against verifiers made by
 * PostgreSQL 15 itself (CREATE ROLE ... PASSWORD 'pencil' with
 * password_encryption md5 and scram-sha-256): the md5 verifier is
 * reproduced byte for byte, PostgreSQL's SCRAM verifier parses and its
 * StoredKey/ServerKey follow from the password and salt, and our own SCRAM
 * verifiers have PostgreSQL's shape.
 */
#include <criterion/criterion.h>
#include <string.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include "common/password.h"

static const char pg_md5[] = "md5760ef1bba4ad56c969b91196de1bed98";   /* user u1 */
static const char pg_scram[] =
    "SCRAM-SHA-256$4096:EhxPxSFl9bfrWWlAKZ7ZhA==$hLzNSNTV6WlSZf9eAnYbicopPjYVUqORDQpo6fYAd10="
    ":6LsO3MkpNYYxozXZXdt9q/Ui5R/VS+2iH8dxximJjXQ=";

/* StoredKey and ServerKey of password with salt, as RFC 5802 defines them. */
static void keys(const char *password, const unsigned char *salt, size_t salt_len, int iter,
                 unsigned char stored[32], unsigned char server[32])
{
    unsigned char salted[32], client[32];
    unsigned int len;
    cr_assert(PKCS5_PBKDF2_HMAC(password, (int)strlen(password), salt, (int)salt_len, iter,
                                EVP_sha256(), 32, salted));
    HMAC(EVP_sha256(), salted, 32, (const unsigned char *)"Client Key", 10, client, &len);
    EVP_Digest(client, 32, stored, &len, EVP_sha256(), NULL);
    HMAC(EVP_sha256(), salted, 32, (const unsigned char *)"Server Key", 10, server, &len);
}

Test(password, md5_matches_postgres)
{
    char out[PASSWORD_VERIFIER_MAX];
    password_make_verifier("u1", "pencil", "md5", out, sizeof out);
    cr_assert_str_eq(out, pg_md5);
    cr_assert(password_is_md5_verifier(out));
    cr_assert(!password_is_scram_verifier(out));
}

Test(password, postgres_scram_verifier_parses)
{
    int iter = 0;
    unsigned char salt[64], stored[32], server[32], want_stored[32], want_server[32];
    size_t salt_len = 0;
    cr_assert(password_parse_scram(pg_scram, &iter, salt, &salt_len, sizeof salt, stored, server));
    cr_assert_eq(iter, 4096);
    cr_assert_eq(salt_len, 16);
    keys("pencil", salt, salt_len, iter, want_stored, want_server);
    cr_assert(memcmp(stored, want_stored, 32) == 0);
    cr_assert(memcmp(server, want_server, 32) == 0);
    cr_assert(password_is_scram_verifier(pg_scram));
}

Test(password, own_scram_verifier)
{
    char out[PASSWORD_VERIFIER_MAX];
    password_make_verifier("postgres", "pencil", "scram-sha-256", out, sizeof out);
    cr_assert(strncmp(out, "SCRAM-SHA-256$4096:", 19) == 0);
    int iter;
    unsigned char salt[64], stored[32], server[32], want_stored[32], want_server[32];
    size_t salt_len;
    cr_assert(password_parse_scram(out, &iter, salt, &salt_len, sizeof salt, stored, server));
    keys("pencil", salt, salt_len, iter, want_stored, want_server);
    cr_assert(memcmp(stored, want_stored, 32) == 0 && memcmp(server, want_server, 32) == 0);
    char again[PASSWORD_VERIFIER_MAX];
    password_make_verifier("postgres", "pencil", "scram-sha-256", again, sizeof again);
    cr_assert_str_neq(out, again);   /* a fresh random salt every time */
}

Test(password, verifier_given_is_kept)
{
    char out[PASSWORD_VERIFIER_MAX];
    password_make_verifier("x", pg_scram, "md5", out, sizeof out);
    cr_assert_str_eq(out, pg_scram);
    password_make_verifier("x", pg_md5, "scram-sha-256", out, sizeof out);
    cr_assert_str_eq(out, pg_md5);
}

Test(password, malformed_verifiers)
{
    int iter;
    unsigned char salt[64], stored[32], server[32];
    size_t salt_len;
    cr_assert(!password_parse_scram("SCRAM-SHA-256$x:abc$def:ghi", &iter, salt, &salt_len, sizeof salt,
                                    stored, server));
    cr_assert(!password_parse_scram("SCRAM-SHA-256$4096:EhxPxSFl9bfrWWlAKZ7ZhA==$short:short", &iter, salt,
                                    &salt_len, sizeof salt, stored, server));
    cr_assert(!password_is_md5_verifier("md5xyz"));
    cr_assert(!password_is_md5_verifier("pencil"));
    cr_assert(!password_is_scram_verifier(""));
}
