/*
 * config.c — the server's command line, PostgreSQL's flags:
 *
 *   -D DATADIR            data directory (default $PGDATA, else ./data)
 *   -p PORT               TCP port and Unix socket name (default $PGPORT, else 5432)
 *   -h ADDRESSES          listen_addresses: comma list, "*" = all, "" = no TCP
 *                         (default localhost)
 *   -k DIRECTORIES        unix_socket_directories: comma list, "" = none (default /tmp)
 *   -c NAME=VALUE         any setting (also --NAME=VALUE); server-level ones
 *                         (port, listen_addresses, unix_socket_directories,
 *                         max_connections, ssl, ssl_cert_file, ssl_key_file)
 *                         are read here, every one is also given to
 *                         guc_set_server_default when the GUC table knows it
 *   --password-file=FILE  set the superuser postgres's password from the first
 *                         line of FILE (stored as a SCRAM verifier)
 *   --allow-remote-trust  start even when a trust rule covers non-loopback
 *                         addresses and the server listens beyond loopback
 *   --help, --version
 * Settings apply before any thread starts.
 */
#define STRATA_PROTOCOL_INTERNAL
#include "protocol/proto_int.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "common/guc.h"

ProtoConfig proto_config;

#define MAX_SETTINGS 128

static const char *setting_names[MAX_SETTINGS];
static const char *setting_values[MAX_SETTINGS];
static int nsettings;

static void usage(void)
{
    printf("strata is the Strata database server, PostgreSQL-wire compatible.\n\n"
           "Usage:\n  strata [OPTION]...\n\n"
           "Options:\n"
           "  -c NAME=VALUE          set run-time parameter (also --NAME=VALUE)\n"
           "  -D DATADIR             database directory (default $PGDATA, else ./data)\n"
           "  -h HOSTNAME            host name or IP address to listen on (default localhost;\n"
           "                         comma list, * = all)\n"
           "  -k DIRECTORY           Unix-domain socket location (default /tmp; \"\" = none)\n"
           "  -p PORT                port number to listen on (default 5432)\n"
           "  --password-file=FILE   set the password of the superuser \"postgres\"\n"
           "                         from the first line of FILE\n"
           "  --allow-remote-trust   allow trust authentication rules for non-loopback\n"
           "                         addresses while listening beyond loopback\n"
           "  -V, --version          output version information, then exit\n"
           "  -?, --help             show this help, then exit\n\n"
           "Client authentication rules: DATADIR/strata_hba.conf (created on first start).\n"
           "TLS: -c ssl=on with DATADIR/server.crt and DATADIR/server.key\n"
           "(or -c ssl_cert_file=... -c ssl_key_file=...).\n");
}

static _Noreturn void bad_usage(const char *fmt, const char *arg)
{
    fprintf(stderr, "strata: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry \"strata --help\" for more information.\n");
    exit(1);
}

static bool parse_bool(const char *v, bool *out)
{
    if (!strcasecmp(v, "on") || !strcasecmp(v, "true") || !strcasecmp(v, "yes") || !strcmp(v, "1")) {
        *out = true;
        return true;
    }
    if (!strcasecmp(v, "off") || !strcasecmp(v, "false") || !strcasecmp(v, "no") || !strcmp(v, "0")) {
        *out = false;
        return true;
    }
    return false;
}

static int parse_int(const char *name, const char *v, int lo, int hi)
{
    char *end;
    long n = strtol(v, &end, 10);
    if (end == v || *end || n < lo || n > hi) {
        fprintf(stderr, "strata: invalid value for parameter \"%s\": \"%s\"\n", name, v);
        exit(1);
    }
    return (int)n;
}

/* Server-level settings handled here. Returns true when name is one. */
static bool apply_server_setting(const char *name, const char *value)
{
    ProtoConfig *c = &proto_config;
    if (!strcasecmp(name, "port"))
        c->port = parse_int(name, value, 1, 65535);
    else if (!strcasecmp(name, "listen_addresses"))
        snprintf(c->listen_addresses, sizeof c->listen_addresses, "%s", value);
    else if (!strcasecmp(name, "unix_socket_directories"))
        snprintf(c->socket_dirs, sizeof c->socket_dirs, "%s", value);
    else if (!strcasecmp(name, "max_connections"))
        c->max_connections = parse_int(name, value, 1, 4000);
    else if (!strcasecmp(name, "ssl")) {
        if (!parse_bool(value, &c->ssl)) {
            fprintf(stderr, "strata: parameter \"ssl\" requires a Boolean value\n");
            exit(1);
        }
    } else if (!strcasecmp(name, "ssl_cert_file"))
        snprintf(c->ssl_cert_file, sizeof c->ssl_cert_file, "%s", value);
    else if (!strcasecmp(name, "ssl_key_file"))
        snprintf(c->ssl_key_file, sizeof c->ssl_key_file, "%s", value);
    else if (!strcasecmp(name, "data_directory"))
        c->data_dir = value;
    else
        return false;
    return true;
}

/* "name=value" (from -c or --name=value) into the settings list. */
static void add_setting(const char *orig)
{
    char *arg = strdup(orig);   /* kept for the process's life; argv stays intact */
    if (!arg)
        bad_usage("out of memory at %s", orig);
    char *eq = strchr(arg, '=');
    if (!eq || eq == arg)
        bad_usage("-c %s requires a value", arg);
    if (nsettings == MAX_SETTINGS)
        bad_usage("too many -c settings (%s)", arg);
    *eq = '\0';
    for (char *p = arg; *p; p++)
        if (*p == '-')
            *p = '_';   /* --log-min=... spelled with dashes, as PostgreSQL allows */
    setting_names[nsettings] = arg;
    setting_values[nsettings] = eq + 1;
    nsettings++;
}

static void set_defaults(void)
{
    ProtoConfig *c = &proto_config;
    const char *pgdata = getenv("PGDATA");
    c->data_dir = pgdata && *pgdata ? pgdata : "./data";
    const char *pgport = getenv("PGPORT");
    c->port = pgport && *pgport ? parse_int("port", pgport, 1, 65535) : 5432;
    snprintf(c->listen_addresses, sizeof c->listen_addresses, "localhost");
    snprintf(c->socket_dirs, sizeof c->socket_dirs, "/tmp");
    c->max_connections = 100;
    snprintf(c->ssl_cert_file, sizeof c->ssl_cert_file, "server.crt");
    snprintf(c->ssl_key_file, sizeof c->ssl_key_file, "server.key");
}

/* Apply every -c: server-level ones here, all known ones to the GUC table. */
static void apply_settings(void)
{
    for (int i = 0; i < nsettings; i++) {
        bool server = apply_server_setting(setting_names[i], setting_values[i]);
        if (server && !guc_canonical_name(setting_names[i]))
            continue;
        ErrJmp jmp;
        if (ERR_TRY(jmp)) {
            guc_set_server_default(setting_names[i], setting_values[i]);
            err_pop(&jmp);
        } else {
            fprintf(stderr, "strata: %s\n", err_current()->message);
            exit(1);
        }
    }
}

void proto_config_parse(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"password-file", required_argument, NULL, 1},
        {"allow-remote-trust", no_argument, NULL, 2},
        {NULL, 0, NULL, 0},
    };
    set_defaults();
    /* --help/--version first (as PostgreSQL: only as the first argument or
     * anywhere, it doesn't matter); --NAME=VALUE for any other long option
     * becomes a setting and leaves argv before getopt runs. */
    static char *args[256];
    int nargs = 0;
    for (int i = 0; i < argc && nargs < 255; i++) {
        if (i > 0 && (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-?"))) {
            usage();
            exit(0);
        }
        if (i > 0 && (!strcmp(argv[i], "--version") || !strcmp(argv[i], "-V"))) {
            printf("strata (PostgreSQL) %s\n", PROTO_VERSION_STRING);
            exit(0);
        }
        if (i > 0 && strncmp(argv[i], "--", 2) == 0 && strchr(argv[i], '=') &&
            strncmp(argv[i], "--password-file=", 16) != 0)
            add_setting(argv[i] + 2);
        else
            args[nargs++] = argv[i];
    }
    args[nargs] = NULL;
    int opt;
    opterr = 0;
    while ((opt = getopt_long(nargs, args, "c:D:h:k:p:", longopts, NULL)) != -1) {
        switch (opt) {
        case 'c': add_setting(optarg); break;
        case 'D': proto_config.data_dir = optarg; break;
        case 'h': apply_server_setting("listen_addresses", optarg); break;
        case 'k': apply_server_setting("unix_socket_directories", optarg); break;
        case 'p': apply_server_setting("port", optarg); break;
        case 1: proto_config.password_file = optarg; break;
        case 2: proto_config.allow_remote_trust = true; break;
        default: bad_usage("invalid command-line option: %s", args[optind - 1]);
        }
    }
    if (optind < nargs)
        bad_usage("invalid argument: \"%s\"", args[optind]);
    apply_settings();
}
