/* cmd_serve.c -- `pizzabox serve`: tables for friends in the browser. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "../server/serve.h"
#include "cli.h"

int cmd_serve(int argc, char **argv)
{
    enum { OPT_PORT = 1, OPT_DB, OPT_WEB, OPT_BOTS, OPT_PACE, OPT_HELP };
    static const struct option opts[] = {{"port", required_argument, 0, OPT_PORT},
                                         {"db", required_argument, 0, OPT_DB},
                                         {"web", required_argument, 0, OPT_WEB},
                                         {"bot-threads", required_argument, 0, OPT_BOTS},
                                         {"bot-pace", required_argument, 0, OPT_PACE},
                                         {"help", no_argument, 0, OPT_HELP},
                                         {0, 0, 0, 0}};
    pb_serve_opts o = {8080, "var/pizzabox.db", "web", "docs", 1, 800};
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
        case OPT_HELP:
            printf("usage: pizzabox serve [--port 8080] [--db var/pizzabox.db] [--web web]\n"
                   "       [--bot-threads N] [--bot-pace MS]\n"
                   "Serves the web client and the table protocol (docs/protocol.md) on one port;\n"
                   "every accepted move is in the SQLite database before anyone hears of it, and\n"
                   "unfinished tables continue after a restart. --port 0 picks a free port.\n"
                   "--bot-pace: a bot's move is shown no sooner than MS milliseconds after the\n"
                   "move before it (800; 0 for at once).\n");
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
