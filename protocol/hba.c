/*
 * hba.c — host-based authentication rules: <datadir>/strata_hba.conf.
 *
 * The file has PostgreSQL's pg_hba.conf format, one rule per line:
 *     TYPE       DATABASE  USER  [ADDRESS [MASK]]  METHOD
 *     local      all       all                     trust
 *     host       all       all   127.0.0.1/32      scram-sha-256
 *     hostssl    sales     bob   10.0.0.0 255.0.0.0 md5
 * TYPE: local (Unix socket), host (TCP, with or without TLS), hostssl,
 * hostnossl. DATABASE: all, sameuser, or a comma list of names. USER: all
 * or a comma list. ADDRESS: all, an address with a /prefix (IPv4 or IPv6),
 * or an address followed by a mask. METHOD: trust, reject, password, md5,
 * scram-sha-256. '#' starts a comment. The first matching rule wins; no
 * match refuses the connection. Rules are read once at start.
 *
 * The first start writes the default file: trust on the Unix socket and on
 * loopback (127.0.0.1/32 and ::1/128) only.
 */
#define STRATA_PROTOCOL_INTERNAL
#include "protocol/proto_int.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HBA_MAX_RULES 256
#define HBA_LINE_MAX 1024
#define HBA_LIST_MAX 256

typedef enum HbaType { HBA_LOCAL, HBA_HOST, HBA_HOSTSSL, HBA_HOSTNOSSL } HbaType;

typedef struct HbaRule {
    HbaType type;
    char databases[HBA_LIST_MAX];    /* comma list, or "all" */
    char users[HBA_LIST_MAX];
    bool any_addr;
    int family;                      /* AF_INET / AF_INET6 */
    unsigned char addr[16];
    unsigned char mask[16];
    HbaMethod method;
    int line;
} HbaRule;

static HbaRule rules[HBA_MAX_RULES];
static int nrules;

static const char default_hba[] =
    "# strata_hba.conf — client authentication rules (PostgreSQL's pg_hba.conf format).\n"
    "# The first matching rule wins. Methods: trust, reject, password, md5, scram-sha-256.\n"
    "#\n"
    "# TYPE  DATABASE  USER  ADDRESS        METHOD\n"
    "local   all       all                  trust\n"
    "host    all       all   127.0.0.1/32   trust\n"
    "host    all       all   ::1/128        trust\n";

const char *proto_hba_method_name(HbaMethod m)
{
    static const char *const names[] = {"trust", "reject", "password", "md5", "scram-sha-256"};
    return names[m];
}

static void mask_from_prefix(unsigned char *mask, int bytes, int prefix)
{
    memset(mask, 0, 16);
    for (int i = 0; i < bytes; i++) {
        int bits = prefix - 8 * i;
        mask[i] = bits >= 8 ? 0xff : bits <= 0 ? 0 : (unsigned char)(0xff << (8 - bits));
    }
}

/* Parse "addr/prefix" or "addr" + separate mask field. */
static bool parse_address(HbaRule *r, char *addr, const char *mask)
{
    if (strcmp(addr, "all") == 0) {
        r->any_addr = true;
        return mask == NULL;
    }
    char *slash = strchr(addr, '/');
    if (slash)
        *slash = '\0';
    r->family = strchr(addr, ':') ? AF_INET6 : AF_INET;
    int bytes = r->family == AF_INET ? 4 : 16;
    if (inet_pton(r->family, addr, r->addr) != 1)
        return false;
    if (slash) {
        char *end;
        long prefix = strtol(slash + 1, &end, 10);
        if (*end || prefix < 0 || prefix > bytes * 8 || mask)
            return false;
        mask_from_prefix(r->mask, bytes, (int)prefix);
    } else {
        if (!mask || inet_pton(r->family, mask, r->mask) != 1)
            return false;
    }
    for (int i = 0; i < bytes; i++)
        r->addr[i] &= r->mask[i];
    return true;
}

static bool parse_method(const char *s, HbaMethod *m)
{
    for (int i = HBA_TRUST; i <= HBA_SCRAM; i++)
        if (strcmp(s, proto_hba_method_name((HbaMethod)i)) == 0) {
            *m = (HbaMethod)i;
            return true;
        }
    return false;
}

/* Parse one non-empty line's fields into a rule; false on a syntax error. */
static bool parse_rule(char **f, int nf, HbaRule *r)
{
    static const char *const types[] = {"local", "host", "hostssl", "hostnossl"};
    int t = -1;
    for (int i = 0; i < 4; i++)
        if (strcmp(f[0], types[i]) == 0)
            t = i;
    if (t < 0)
        return false;
    r->type = (HbaType)t;
    int need = r->type == HBA_LOCAL ? 4 : 5;
    if (nf < need || nf > need + 1 || (r->type == HBA_LOCAL && nf != 4))
        return false;
    snprintf(r->databases, sizeof r->databases, "%s", f[1]);
    snprintf(r->users, sizeof r->users, "%s", f[2]);
    if (r->type != HBA_LOCAL && !parse_address(r, f[3], nf == 6 ? f[4] : NULL))
        return false;
    return parse_method(f[nf - 1], &r->method);
}

static bool load_file(FILE *fp, const char *path)
{
    char line[HBA_LINE_MAX];
    int lineno = 0;
    nrules = 0;
    while (fgets(line, sizeof line, fp)) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *f[8];
        int nf = 0;
        for (char *tok = strtok(line, " \t\r\n"); tok && nf < 8; tok = strtok(NULL, " \t\r\n"))
            f[nf++] = tok;
        if (nf == 0)
            continue;
        if (nrules == HBA_MAX_RULES || !parse_rule(f, nf, &rules[nrules])) {
            proto_log("LOG", "invalid authentication rule in file \"%s\" line %d", path, lineno);
            return false;
        }
        rules[nrules++].line = lineno;
    }
    return true;
}

bool proto_hba_load(const char *data_dir)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/strata_hba.conf", data_dir);
    FILE *fp = fopen(path, "r");
    if (!fp) {
        fp = fopen(path, "w");
        if (!fp || fputs(default_hba, fp) < 0 || fclose(fp) != 0) {
            proto_log("FATAL", "could not write file \"%s\"", path);
            return false;
        }
        fp = fopen(path, "r");
        if (!fp)
            return false;
    }
    bool ok = load_file(fp, path);
    fclose(fp);
    return ok;
}

/* Is name in the comma list (or the list is "all")? */
static bool list_has(const char *list, const char *name, const char *user, bool is_db)
{
    char buf[HBA_LIST_MAX];
    snprintf(buf, sizeof buf, "%s", list);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (strcmp(tok, "all") == 0 || strcmp(tok, name) == 0)
            return true;
        if (is_db && strcmp(tok, "sameuser") == 0 && strcmp(name, user) == 0)
            return true;
    }
    return false;
}

/* Peer address as 4 or 16 bytes (IPv4-mapped IPv6 counts as IPv4). */
static int peer_bytes(const struct sockaddr_storage *ss, unsigned char *out)
{
    if (ss->ss_family == AF_INET) {
        memcpy(out, &((const struct sockaddr_in *)ss)->sin_addr, 4);
        return AF_INET;
    }
    const struct in6_addr *a6 = &((const struct sockaddr_in6 *)ss)->sin6_addr;
    if (IN6_IS_ADDR_V4MAPPED(a6)) {
        memcpy(out, a6->s6_addr + 12, 4);
        return AF_INET;
    }
    memcpy(out, a6->s6_addr, 16);
    return AF_INET6;
}

static bool addr_matches(const HbaRule *r, const struct sockaddr_storage *ss)
{
    if (r->any_addr)
        return true;
    unsigned char a[16];
    if (peer_bytes(ss, a) != r->family)
        return false;
    int bytes = r->family == AF_INET ? 4 : 16;
    for (int i = 0; i < bytes; i++)
        if ((a[i] & r->mask[i]) != r->addr[i])
            return false;
    return true;
}

bool proto_hba_match(const HbaClient *cl, HbaMethod *method)
{
    for (int i = 0; i < nrules; i++) {
        const HbaRule *r = &rules[i];
        if ((r->type == HBA_LOCAL) != cl->is_local)
            continue;
        if ((r->type == HBA_HOSTSSL && !cl->ssl) || (r->type == HBA_HOSTNOSSL && cl->ssl))
            continue;
        if (!cl->is_local && !addr_matches(r, &cl->addr))
            continue;
        if (!list_has(r->databases, cl->database, cl->user, true) ||
            !list_has(r->users, cl->user, cl->user, false))
            continue;
        *method = r->method;
        return true;
    }
    return false;
}

/* A rule range that holds only loopback addresses: inside 127.0.0.0/8 or ::1/128. */
static bool loopback_only(const HbaRule *r)
{
    if (r->any_addr)
        return false;
    if (r->family == AF_INET)
        return r->mask[0] == 0xff && r->addr[0] == 127;
    static const unsigned char one[16] = {[15] = 1};
    for (int i = 0; i < 16; i++)
        if (r->mask[i] != 0xff)
            return false;
    return memcmp(r->addr, one, 16) == 0;
}

bool proto_hba_has_remote_trust(void)
{
    for (int i = 0; i < nrules; i++)
        if (rules[i].type != HBA_LOCAL && rules[i].method == HBA_TRUST && !loopback_only(&rules[i]))
            return true;
    return false;
}
