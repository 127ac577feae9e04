/* cmd_score.c -- `pizzabox score` and `pizzabox replay`: final score reports. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "../core/record.h"
#include "../core/text.h"
#include "../games/nyslice/nyslice.h"
#include "cli.h"
#include "front.h"
#include "textbuf.h"

#define MAX_INPUT PB_RECORD_MAX_BYTES

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
    while ((c = cli_getopt("score", argc, argv, opts)) != -1) {
        if (c == 'd') {
            deck_path = optarg;
        } else if (c == 'h') {
            printf("usage: pizzabox score [--deck FILE] FILE|-\n"
                   "Scores a finished New York Slice table (JSON; - reads stdin) and prints\n"
                   "the Guest Check of every player as JSON. Bad input: exit 2.\n");
            return 0;
        } else {
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
    json_t *probe = json_loads(text, 0, NULL);
    const char *format = json_string_value(json_object_get(probe, "format"));
    bool record = format && strcmp(format, "pizzabox-record") == 0;
    json_decref(probe);
    if (record) {
        free(text);
        cli_error("score", "%s is a game record, not a table: pizzabox replay %s prints its score report "
                  "(replay --moves its moves)", argv[optind], argv[optind]);
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

/* Every move of a replayed record in the log's words, as a spectator sees
 * it (nothing secret), with the round banners and each move's news; then
 * the result when the game is over. -1 when the record's actions do not
 * replay (cannot happen after pb_replay_text accepted them). */
static int print_moves(const pb_replay *r)
{
    const pb_game *g = r->game;
    json_t *rec = pb_record_to_json(r->record), *names = json_object_get(rec, "names");
    json_t *actions = json_object_get(rec, "actions");
    char namebuf[PB_MAX_SEATS][64];
    const char *nm[PB_MAX_SEATS];
    for (int s = 0; s < g->players && s < PB_MAX_SEATS; s++) {
        const char *given = json_string_value(json_array_get(names, (size_t)s));
        if (given && *given)
            snprintf(namebuf[s], sizeof namebuf[s], "%s", given);
        else
            cli_seat_name(s, namebuf[s], sizeof namebuf[s]);
        pb_text_make_printable(namebuf[s]); /* names come from a file: one printable line */
        nm[s] = namebuf[s];
    }
    const pb_front *front = pb_front_for(g);
    pb_tui_opts o = {false, nm, PB_SPECTATOR};
    uint64_t seed = (uint64_t)json_integer_value(json_object_get(rec, "seed"));
    pb_state *st = pb_state_new(g, seed), *before = pb_state_new(g, seed);
    int rc = st && before ? 0 : -1, last_round = -1;
    for (size_t i = 0; rc == 0 && i < json_array_size(actions); i++) {
        char *banner = pb_front_banner(front, g, st, &o, &last_round);
        fputs(banner ? banner : "", stdout);
        free(banner);
        pb_action a;
        char text[256], err[PB_ERR_LEN];
        int seat = pb_current_seat(g, st);
        rc = g->ops->action_from_text(g, st, json_string_value(json_array_get(actions, i)), &a, err, sizeof err);
        if (rc == 0 && g->ops->describe(g, st, a, PB_SPECTATOR, text, sizeof text) == 0)
            printf("%4zu  %s: %s\n", i + 1, nm[seat], text);
        if (rc == 0) {
            pb_state_copy(g, before, st);
            rc = g->ops->apply(g, st, a, err, sizeof err);
        }
        if (rc == 0)
            pb_front_news(g, before, st, nm, 6);
    }
    if (rc == 0 && pb_is_terminal(g, st)) {
        printf("\n");
        front->print_result(stdout, g, st, nm);
    } else if (rc == 0) {
        printf("\nThe record ends here, before the game is over (%zu moves).\n", json_array_size(actions));
    }
    free(st);
    free(before);
    json_decref(rec);
    return rc;
}

int cmd_replay(int argc, char **argv)
{
    bool moves = false;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: pizzabox replay [--moves] FILE|-\n"
                   "Re-applies every action of a game record and prints the final score report\n"
                   "(the same JSON as pizzabox score). A record that does not replay is rejected\n"
                   "with its first bad action named: exit 2. --moves prints the game move by move\n"
                   "instead, in the words of the game's log as a spectator sees it (no secrets),\n"
                   "with what each move brought (a round's reveal, an event), then the result;\n"
                   "a record of an unfinished game is fine there.\n");
            return 0;
        }
        if (strcmp(argv[i], "--moves") == 0)
            moves = true;
        else if (argv[i][0] == '-' && argv[i][1]) {
            cli_error("replay", "unknown option '%s' (see pizzabox replay --help)", argv[i]);
            return EXIT_USAGE;
        } else if (path) {
            cli_error("replay", "give one record file, or - for stdin");
            return EXIT_USAGE;
        } else
            path = argv[i];
    }
    if (!path) {
        cli_error("replay", "give one record file, or - for stdin");
        return EXIT_USAGE;
    }
    char err[PB_ERR_LEN];
    char *text = pb_read_file(path, MAX_INPUT, err, sizeof err);
    if (!text) {
        cli_error("replay", "%s", err);
        return EXIT_USAGE;
    }
    pb_replay r;
    int rc = pb_replay_text(text, &r, err, sizeof err);
    free(text);
    if (rc != 0) {
        cli_error("replay", "%s: %s", path, err);
        return EXIT_USAGE;
    }
    if (moves) {
        rc = print_moves(&r) == 0 ? 0 : 1;
        pb_replay_free(&r);
        return rc;
    }
    if (!pb_is_terminal(r.game, r.state)) {
        char who[32];
        cli_seat_name(pb_current_seat(r.game, r.state), who, sizeof who);
        cli_error("replay", "%s: the record ends after %d actions, before the game is over (%s to move; "
                  "replay --moves shows them)", path, r.actions, who);
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
