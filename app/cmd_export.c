/* cmd_export.c -- `pizzabox export`: the game records of a server's finished
 * tables (docs/records.md), so any game played in the browser can be
 * replayed at the terminal with `pizzabox replay`. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../core/error.h"
#include "../core/hash.h"
#include "../core/jsonutil.h"
#include "../core/record.h"
#include "../server/store.h"
#include "cli.h"

int cmd_export(int argc, char **argv);

/* The record of one stored table, replayed here as `pizzabox replay` will:
 * 0 and the replay (the game over), or -1 with a message naming the table.
 * The table's code goes to code (16 bytes) either way. */
static int table_record(pb_store *store, int64_t id, char *code, pb_replay *out, char *err, size_t errlen)
{
    pb_stored_table t;
    char why[PB_ERR_LEN];
    snprintf(code, 16, "%lld", (long long)id);
    if (pb_store_load(store, id, &t, why, sizeof why) != 0) {
        pb_errorf(err, errlen, "table %s: %s", code, why);
        return -1;
    }
    snprintf(code, 16, "%s", t.code);
    json_t *names = json_array(), *seats = json_array();
    pb_game *g = pb_game_new(t.game, t.config, why, sizeof why);
    int players = g ? g->players : 0;
    pb_game_free(g);
    for (int s = 0; s < players; s++) {
        json_array_append_new(names, json_string(t.name[s]));
        json_array_append_new(seats, json_string(t.player[s][0] ? t.player[s] : "human"));
    }
    json_t *rec = json_pack("{s:s, s:i, s:s, s:O, s:I, s:o, s:o, s:O}", "format", "pizzabox-record", "version", PB_RECORD_VERSION,
                            "game", t.game, "config", t.config, "seed", (json_int_t)t.seed, "names", names, "seats",
                            seats, "actions", t.actions);
    if (rec && t.salt[0]) { /* the commitment every player saw, and its secret: pizzabox verify */
        char sha[PB_SHA256_HEX];
        pb_deal_commitment(t.seed, t.salt, sha);
        json_object_set_new(rec, "deal", json_pack("{s:s, s:s}", "sha256", sha, "salt", t.salt));
    }
    char *text = rec ? json_dumps(rec, JSON_COMPACT) : NULL;
    json_decref(rec);
    int rc = -1;
    if (!players)
        pb_errorf(err, errlen, "table %s: %s", code, why);
    else if (!text)
        pb_errorf(err, errlen, "out of memory");
    else if (pb_replay_text(text, out, why, sizeof why) != 0)
        pb_errorf(err, errlen, "table %s does not replay: %s", code, why);
    else if (!pb_is_terminal(out->game, out->state)) {
        pb_errorf(err, errlen, "table %s is not finished (%d moves so far)", code, out->actions);
        pb_replay_free(out);
    } else
        rc = 0;
    free(text);
    pb_stored_table_free(&t);
    return rc;
}

/* Write one record to DIR/CODE.json, or to stdout when dir is NULL. */
static int write_record(const pb_replay *r, const char *dir, const char *code, char *err, size_t errlen)
{
    if (!dir) {
        json_t *o = pb_record_to_json(r->record);
        int rc = json_dumpf(o, stdout, JSON_INDENT(1) | JSON_COMPACT);
        json_decref(o);
        if (rc != 0 || fputc('\n', stdout) == EOF || fflush(stdout) != 0)
            return pb_errorf(err, errlen, "cannot write to standard output");
        return 0;
    }
    char path[4096];
    if (snprintf(path, sizeof path, "%s/%s.json", dir, code) >= (int)sizeof path)
        return pb_errorf(err, errlen, "the output path is too long");
    return pb_record_save(r->record, path, err, errlen);
}

int cmd_export(int argc, char **argv)
{
    enum { OPT_DB = 1, OPT_CODE, OPT_OUT, OPT_HELP };
    static const struct option opts[] = {{"db", required_argument, 0, OPT_DB},
                                         {"code", required_argument, 0, OPT_CODE},
                                         {"out", required_argument, 0, OPT_OUT},
                                         {"help", no_argument, 0, OPT_HELP},
                                         {0, 0, 0, 0}};
    const char *db = NULL, *code = NULL, *out = NULL;
    int opt;
    opterr = 0;
    optind = 1;
    while ((opt = cli_getopt("export", argc, argv, opts)) != -1) {
        switch (opt) {
        case OPT_DB: db = optarg; break;
        case OPT_CODE: code = optarg; break;
        case OPT_OUT: out = optarg; break;
        case OPT_HELP:
            printf("usage: pizzabox export --db FILE|URL [--code CODE] [--out DIR]\n"
                   "Writes the game record (docs/records.md) of every finished table in a server\n"
                   "database (a SQLite file, or a postgresql:// URL) to DIR/CODE.json (DIR: --out,\n"
                   "default the current directory), or of one table with --code: to standard\n"
                   "output, or to DIR/CODE.json with --out.\n"
                   "Each record replays with 'pizzabox replay'. The database is only read.\n"
                   "Bad input (no such database, unknown code, a table not finished): exit 2.\n");
            return 0;
        default:
            return EXIT_USAGE;
        }
    }
    if (optind != argc) {
        cli_error("export", "unexpected argument '%s' (see pizzabox export --help)", argv[optind]);
        return EXIT_USAGE;
    }
    if (!db) {
        cli_error("export", "give the server's database with --db FILE (or --db postgresql://...)");
        return EXIT_USAGE;
    }
    if (out && cli_check_output_dir("export", "--out", out) != 0)
        return EXIT_USAGE;
    char err[PB_ERR_LEN];
    pb_store *store = pb_store_open_readonly(db, err, sizeof err);
    if (!store) {
        cli_error("export", "%s", err);
        return EXIT_USAGE;
    }
    if (out && mkdir(out, 0777) != 0 && errno != EEXIST) {
        cli_error("export", "cannot create %s: %s", out, strerror(errno));
        pb_store_close(store);
        return EXIT_USAGE;
    }
    int rc = 0;
    pb_replay r;
    char tcode[16];
    if (code) {
        int64_t id = pb_store_find_code(store, code);
        char q[48];
        pb_quote(code, q, sizeof q);
        if (id <= 0) {
            cli_error("export", "no table with the code %s in %s", q, db);
            rc = EXIT_USAGE;
        } else if (table_record(store, id, tcode, &r, err, sizeof err) != 0) {
            cli_error("export", "%s", err);
            rc = EXIT_USAGE;
        } else {
            if (write_record(&r, out, tcode, err, sizeof err) != 0) {
                cli_error("export", "%s", err);
                rc = 1;
            }
            pb_replay_free(&r);
        }
        pb_store_close(store);
        return rc;
    }
    int n = pb_store_count(store, PB_STORE_FINISHED);
    int64_t *ids = n > 0 ? malloc(sizeof *ids * (size_t)n) : NULL;
    if (n < 0 || (n > 0 && (!ids || pb_store_list(store, PB_STORE_FINISHED, ids, n) != n))) {
        cli_error("export", "cannot read the tables of %s", db);
        free(ids);
        pb_store_close(store);
        return 1;
    }
    int written = 0;
    for (int i = n - 1; i >= 0; i--) { /* oldest first */
        if (table_record(store, ids[i], tcode, &r, err, sizeof err) != 0) {
            cli_error("export", "%s", err);
            rc = EXIT_USAGE;
            continue;
        }
        if (write_record(&r, out ? out : ".", tcode, err, sizeof err) != 0) {
            cli_error("export", "%s", err);
            rc = 1;
        } else {
            written++;
        }
        pb_replay_free(&r);
    }
    printf("exported %d finished table%s of %s to %s\n", written, written == 1 ? "" : "s", db, out ? out : ".");
    free(ids);
    pb_store_close(store);
    return rc;
}
