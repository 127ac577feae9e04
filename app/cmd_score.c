/* cmd_score.c -- `pizzabox score` and `pizzabox replay`: final score reports. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "../core/record.h"
#include "../games/nyslice/nyslice.h"
#include "cli.h"

#define MAX_INPUT (4u << 20)

static void print_json(json_t *j)
{
    char *s = json_dumps(j, JSON_COMPACT);
    if (s)
        puts(s);
    free(s);
}

/* Exit 2 with one line on stderr and nothing on stdout for any bad input. */
int cmd_score(int argc, char **argv)
{
    static const struct option opts[] = {{"deck", required_argument, 0, 'd'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    const char *deck_path = NULL;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        if (c == 'd') {
            deck_path = optarg;
        } else if (c == 'h') {
            printf("usage: pizzabox score [--deck FILE] FILE|-\n"
                   "Scores a finished New York Slice table (JSON; - reads stdin) and prints\n"
                   "the Guest Check of every player as JSON. Bad input: exit 2.\n");
            return 0;
        } else {
            cli_error("score", "unknown option '%s' (see pizzabox score --help)", argv[optind - 1]);
            return EXIT_USAGE;
        }
    }
    if (optind != argc - 1) {
        cli_error("score", "give one table file, or - for stdin");
        return EXIT_USAGE;
    }
    char err[PB_ERR_LEN];
    nys_deck deck;
    if (deck_path) {
        char *text = pb_read_file(deck_path, MAX_INPUT, err, sizeof err);
        if (!text || nys_deck_from_text(text, &deck, err, sizeof err) != 0) {
            free(text);
            cli_error("score", "%s: %s", deck_path, err);
            return EXIT_USAGE;
        }
        free(text);
    } else {
        nys_deck_default(&deck);
    }
    char *text = pb_read_file(argv[optind], MAX_INPUT, err, sizeof err);
    if (!text) {
        cli_error("score", "%s", err);
        return EXIT_USAGE;
    }
    json_t *report = nys_score_file(text, &deck, err, sizeof err);
    free(text);
    if (!report) {
        cli_error("score", "%s", err);
        return EXIT_USAGE;
    }
    print_json(report);
    json_decref(report);
    return 0;
}

int cmd_replay(int argc, char **argv)
{
    if (argc == 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        printf("usage: pizzabox replay FILE|-\n"
               "Re-applies every action of a game record and prints the final score report\n"
               "(the same JSON as pizzabox score). A record that does not replay is rejected\n"
               "with its first bad action named: exit 2.\n");
        return 0;
    }
    if (argc != 2) {
        cli_error("replay", "give one record file, or - for stdin");
        return EXIT_USAGE;
    }
    char err[PB_ERR_LEN];
    char *text = pb_read_file(argv[1], MAX_INPUT, err, sizeof err);
    if (!text) {
        cli_error("replay", "%s", err);
        return EXIT_USAGE;
    }
    pb_replay r;
    int rc = pb_replay_text(text, &r, err, sizeof err);
    free(text);
    if (rc != 0) {
        cli_error("replay", "%s: %s", argv[1], err);
        return EXIT_USAGE;
    }
    if (!pb_is_terminal(r.game, r.state)) {
        char who[32];
        cli_seat_name(pb_current_seat(r.game, r.state), who, sizeof who);
        cli_error("replay", "%s: the record ends after %d actions, before the game is over (%s to move)",
                  argv[1], r.actions, who);
        pb_replay_free(&r);
        return EXIT_USAGE;
    }
    json_t *rec = pb_record_to_json(r.record), *names = json_object_get(rec, "names");
    const char *nm[PB_MAX_SEATS] = {0};
    for (size_t i = 0; names && i < json_array_size(names) && i < PB_MAX_SEATS; i++)
        nm[i] = json_string_value(json_array_get(names, i));
    json_t *report = r.game->ops->score_report(r.game, r.state, nm);
    print_json(report);
    json_decref(report);
    json_decref(rec);
    pb_replay_free(&r);
    return 0;
}
