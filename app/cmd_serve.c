/* cmd_serve.c -- `pizzabox serve`: tables for friends in the browser. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../server/serve.h"
#include "cli.h"

int cmd_serve(int argc, char **argv)
{
    enum { OPT_PORT = 1, OPT_DB, OPT_WEB, OPT_BOTS, OPT_PACE, OPT_QUOTA, OPT_CLOSE, OPT_PROXY, OPT_MAX, OPT_PING, OPT_HELP };
    static const struct option opts[] = {{"port", required_argument, 0, OPT_PORT},
                                         {"db", required_argument, 0, OPT_DB},
                                         {"web", required_argument, 0, OPT_WEB},
                                         {"bot-threads", required_argument, 0, OPT_BOTS},
                                         {"bot-pace", required_argument, 0, OPT_PACE},
                                         {"tables-per-client", required_argument, 0, OPT_QUOTA},
                                         {"close-after", required_argument, 0, OPT_CLOSE},
                                         {"trust-proxy", optional_argument, 0, OPT_PROXY},
                                         {"max-tables", required_argument, 0, OPT_MAX},
                                         {"ping-after", required_argument, 0, OPT_PING},
                                         {"help", no_argument, 0, OPT_HELP},
                                         {0, 0, 0, 0}};
    /* Bots think on every core but one (the service thread's). */
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    pb_serve_opts o = {.port = 8080, .db = "var/pizzabox.db", .web = "web", .docs = "docs",
                       .bot_threads = cores > 2 ? (int)(cores - 1 < 8 ? cores - 1 : 8) : 1, .bot_pace_ms = 800,
                       .tables_per_client = 16, .close_after_hours = 72, .max_tables = 2000, .ping_after_s = 30};
    int opt;
    opterr = 0;
    optind = 1;
    while ((opt = cli_getopt("serve", argc, argv, opts)) != -1) {
        switch (opt) {
        case OPT_PORT:
            if (cli_parse_int("--port", optarg, 0, 65535, &o.port))
                return EXIT_USAGE;
            break;
        case OPT_DB: o.db = optarg; break;
        case OPT_WEB: o.web = optarg; break;
        case OPT_BOTS:
            if (cli_parse_int("--bot-threads", optarg, 1, 8, &o.bot_threads))
                return EXIT_USAGE;
            break;
        case OPT_PACE:
            if (cli_parse_int("--bot-pace", optarg, 0, 10000, &o.bot_pace_ms))
                return EXIT_USAGE;
            break;
        case OPT_QUOTA:
            if (cli_parse_int("--tables-per-client", optarg, 0, 2000, &o.tables_per_client))
                return EXIT_USAGE;
            break;
        case OPT_CLOSE:
            if (cli_parse_int("--close-after", optarg, 0, 24 * 365, &o.close_after_hours))
                return EXIT_USAGE;
            break;
        case OPT_PROXY:
            o.trust_proxy = true;
            o.proxy = optarg; /* --trust-proxy=ADDRESS: a proxy on another machine */
            break;
        case OPT_MAX:
            if (cli_parse_int("--max-tables", optarg, 1, 100000, &o.max_tables))
                return EXIT_USAGE;
            break;
        case OPT_PING:
            if (cli_parse_int("--ping-after", optarg, 1, 3600, &o.ping_after_s))
                return EXIT_USAGE;
            break;
        case OPT_HELP:
            printf("usage: pizzabox serve [--port 8080] [--db var/pizzabox.db] [--web web]\n"
                   "       [--bot-threads N] [--bot-pace MS] [--tables-per-client N]\n"
                   "       [--close-after HOURS] [--trust-proxy | --trust-proxy=ADDRESS]\n"
                   "       [--max-tables N] [--ping-after SECONDS]\n"
                   "Serves the web client and the table protocol (docs/protocol.md) on one port;\n"
                   "every accepted move is in the database before anyone hears of it, and\n"
                   "unfinished tables continue after a restart. --port 0 picks a free port.\n"
                   "--db: a SQLite file (made if missing), or a PostgreSQL database's URL,\n"
                   "postgresql://user:password@host:5432/name (docs/scaling.md).\n"
                   "--bot-pace: a bot's move is shown no sooner than MS milliseconds after the\n"
                   "move before it (800; 0 for at once; an answer to a question asked of every\n"
                   "seat alike waits 100 at least). --bot-threads: bots' worker threads (the\n"
                   "cores less one). --tables-per-client: unfinished tables one address may make\n"
                   "(16; 0 for no limit). --close-after: an unfinished table nobody has been at for\n"
                   "that many hours is closed (72; 0 for never). --trust-proxy: behind a reverse\n"
                   "proxy on this machine (=ADDRESS: at that numeric address), the client's address\n"
                   "is the last in X-Forwarded-For (otherwise connections from this machine count\n"
                   "for no one: tests, benchmarks).\n"
                   "--max-tables: unfinished tables on the server (2000). --ping-after: a\n"
                   "connection quiet that long is pinged, and closed when nothing came from it\n"
                   "for 2.5 times as long (30; browsers answer pings by themselves).\n");
            return 0;
        default:
            return EXIT_USAGE;
        }
    }
    if (strncmp(o.db, "var/", 4) == 0)
        mkdir("var", 0777);
    char err[PB_ERR_LEN];
    if (pb_serve(&o, err, sizeof err) != 0) {
        cli_error("serve", "%s", err);
        return 1;
    }
    return 0;
}
