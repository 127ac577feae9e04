/* cmd_analyze.c -- `pizzabox analyze`: every decision of a game record
 * searched again from the deciding seat's own information, the move played
 * against the best move found (ai/analysis.h). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ai/analysis.h"
#include "../core/record.h"
#include "cli.h"

/* What one seat's decisions came to. */
typedef struct tally {
    int reviewed, forced, marks[PB_MARK_PARTS + 1];
    double loss;
} tally;

static const char *seat_label(const pb_record *rec, int seat, char *buf, size_t n)
{
    const char *name = pb_record_name(rec, seat);
    if (name && *name)
        snprintf(buf, n, "%s", name);
    else
        cli_seat_name(seat, buf, n);
    return buf;
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: pizzabox analyze RECORD|- [--seat N] [--bot LEVEL] [--seed S] [--json]\n"
            "Reviews every decision of a game record (of seat N only, counted from 1):\n"
            "the bot searches each position again from that seat's own information (never\n"
            "the deal, never another seat's secrets) and gives the seat's chance of winning\n"
            "after the move played and after the best move it found. A move that loses 5\n"
            "points of that chance or more is an inaccuracy, 10 a mistake, 20 a blunder.\n"
            "--bot: a searching bot (easy, medium, hard, expert or mcts:...; hard). --seed:\n"
            "the searches' seed (1): the same seed gives the same report. --json: one JSON\n"
            "line per decision, then one per seat with its totals.\n");
}

/* Points of chance to a tenth, as the review gives them ("12.4", "33"). */
static const char *points(double chance, char *buf, size_t n)
{
    long tenths = lround(1000 * chance);
    if (tenths % 10)
        snprintf(buf, n, "%ld.%ld", tenths / 10, tenths % 10);
    else
        snprintf(buf, n, "%ld", tenths / 10);
    return buf;
}

static void print_review(const pb_review *rv, int move, const char *who, const char *played, const char *best,
                         bool json)
{
    char p[48], b[48], l[48]; /* room for any long, as the compiler checks */
    if (json) {
        json_t *o = json_pack("{s:i, s:i, s:s, s:s, s:s}", "move", move, "seat", rv->seat, "name", who, "played",
                              played, "mark", pb_mark_name(rv->mark));
        if (rv->mark != PB_MARK_FORCED && rv->mark != PB_MARK_PARTS) {
            json_object_set_new(o, "played_chance", json_real(rv->played_value));
            json_object_set_new(o, "best", json_string(best));
            json_object_set_new(o, "best_chance", json_real(rv->best_value));
            json_object_set_new(o, "loss", json_real(rv->loss));
            json_object_set_new(o, "played_weighed", json_boolean(rv->played_weighed));
            json_object_set_new(o, "searches", json_integer(rv->searches));
        }
        char *text = json_dumps(o, JSON_COMPACT | JSON_REAL_PRECISION(4));
        printf("%s\n", text ? text : "{}");
        free(text);
        json_decref(o);
    } else if (rv->mark == PB_MARK_FORCED || rv->mark == PB_MARK_PARTS) {
        return; /* counted in the totals */
    } else if (rv->played == rv->best) {
        printf("%4d %s: %s (%s%%), the best found\n", move + 1, who, played, points(rv->played_value, p, sizeof p));
    } else {
        printf("%4d %s: %s (%s%%%s); best %s (%s%%): ", move + 1, who, played, points(rv->played_value, p, sizeof p),
               rv->played_weighed ? "" : " or less", best, points(rv->best_value, b, sizeof b));
        if (rv->loss > 0)
            printf("-%s%s%s\n", points(rv->loss, l, sizeof l), rv->mark == PB_MARK_GOOD ? "" : ", ",
                   rv->mark == PB_MARK_GOOD ? "" : pb_mark_name(rv->mark));
        else /* not weighed, and every move weighed rated alike */
            printf("no difference found\n");
    }
    fflush(stdout);
}

static void print_totals(const pb_game *g, const pb_record *rec, const tally *t, int only, bool finished, bool json)
{
    int seats = g->players;
    /* only a game with moves made of parts (a payment) has them to count */
    const char *parts = g->ops->continues ? ", or were paid in parts" : "";
    if (!json)
        printf(finished ? "\n" : "\nThe record ends before the game does: these are its moves so far.\n");
    for (int s = 0; s < seats; s++) {
        if (only >= 0 && s != only)
            continue;
        char who[64];
        seat_label(rec, s, who, sizeof who);
        const tally *k = &t[s];
        double mean = k->reviewed ? k->loss / k->reviewed : 0;
        if (json) {
            printf("{\"seat\":%d,\"name\":", s);
            json_t *name = json_string(who);
            char *text = json_dumps(name, JSON_ENCODE_ANY);
            printf("%s,\"reviewed\":%d,\"forced\":%d,\"inaccuracies\":%d,\"mistakes\":%d,\"blunders\":%d,"
                   "\"mean_loss\":%.4f,\"finished\":%s}\n", text ? text : "\"\"", k->reviewed, k->forced,
                   k->marks[PB_MARK_INACCURACY], k->marks[PB_MARK_MISTAKE], k->marks[PB_MARK_BLUNDER], mean,
                   finished ? "true" : "false");
            free(text);
            json_decref(name);
        } else {
            int in = k->marks[PB_MARK_INACCURACY], mi = k->marks[PB_MARK_MISTAKE], bl = k->marks[PB_MARK_BLUNDER];
            printf("%s: %d decisions reviewed (%d more had one move%s):\n"
                   "  %d inaccurac%s, %d mistake%s, %d blunder%s; %.1f points of chance lost a decision\n",
                   who, k->reviewed, k->forced, parts, in, in == 1 ? "y" : "ies", mi, mi == 1 ? "" : "s", bl,
                   bl == 1 ? "" : "s", 100 * mean);
        }
    }
}

int cmd_analyze(int argc, char **argv)
{
    static const struct option opts[] = {{"seat", required_argument, 0, 's'}, {"bot", required_argument, 0, 'b'},
                                         {"seed", required_argument, 0, 'S'}, {"json", no_argument, 0, 'j'},
                                         {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    int seat = 0, c;
    uint64_t seed = 1;
    const char *bot = "hard";
    bool json = false;
    optind = 1;
    while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (c) {
        case 's':
            if (cli_parse_int("--seat", optarg, 1, PB_MAX_SEATS, &seat))
                return EXIT_USAGE;
            break;
        case 'b':
            bot = optarg;
            break;
        case 'S':
            if (cli_parse_u64("--seed", optarg, 0, UINT64_MAX, &seed))
                return EXIT_USAGE;
            break;
        case 'j':
            json = true;
            break;
        case 'h':
            usage(stdout);
            return 0;
        default:
            usage(stderr);
            return EXIT_USAGE;
        }
    }
    if (optind != argc - 1) {
        cli_error("analyze", "give one record file, or - for stdin");
        return EXIT_USAGE;
    }
    const char *path = argv[optind];
    char err[PB_ERR_LEN];
    if (pb_review_bot_check(bot, err, sizeof err) != 0) {
        cli_error("analyze", "--bot: %s", err);
        return EXIT_USAGE;
    }
    char *text = pb_read_file(path, PB_RECORD_MAX_BYTES, err, sizeof err);
    pb_replay r = {0};
    if (!text || pb_replay_text(text, &r, err, sizeof err) != 0) {
        cli_error("analyze", "%s: %s", path, err);
        free(text);
        return EXIT_USAGE;
    }
    free(text);
    const pb_game *g = r.game;
    int rc = 0;
    if (seat > g->players) {
        cli_error("analyze", "--seat %d: the game has %d seats", seat, g->players);
        rc = EXIT_USAGE;
    }
    json_t *record = rc ? NULL : pb_record_to_json(r.record);
    json_t *actions = json_object_get(record, "actions");
    pb_state *st = rc ? NULL : pb_state_new(g, pb_record_seed(r.record));
    tally totals[PB_MAX_SEATS] = {{0}};
    if (st && !json)
        printf("%s, reviewed by %s from each seat's own information: the seat's chance of winning\n"
               "after the move played, and after the best move found.\n\n",
               path, bot);
    for (size_t i = 0; st && i < json_array_size(actions); i++) {
        const char *played_text = json_string_value(json_array_get(actions, i));
        pb_action played;
        int mover = pb_current_seat(g, st);
        if (g->ops->action_from_text(g, st, played_text, &played, err, sizeof err) != 0) {
            cli_error("analyze", "move %zu (%s): %s", i + 1, played_text, err);
            rc = EXIT_USAGE;
            break;
        }
        if (seat == 0 || mover == seat - 1) {
            pb_review rv;
            if (pb_review_decision(g, st, played, bot, pb_derive_seed(seed, i), &rv, err, sizeof err) != 0) {
                cli_error("analyze", "%s", err);
                rc = EXIT_USAGE;
                break;
            }
            char who[64], played_words[256], best_words[256];
            seat_label(r.record, mover, who, sizeof who);
            snprintf(played_words, sizeof played_words, "%s", played_text);
            if (g->ops->action_to_text(g, st, rv.best, best_words, sizeof best_words) != 0)
                snprintf(best_words, sizeof best_words, "?");
            print_review(&rv, (int)i, who, played_words, best_words, json);
            tally *t = &totals[mover];
            if (rv.mark == PB_MARK_FORCED || rv.mark == PB_MARK_PARTS) {
                t->forced++;
            } else {
                t->reviewed++;
                t->loss += rv.loss;
                t->marks[rv.mark]++;
            }
        }
        g->ops->apply(g, st, played, NULL, 0);
    }
    if (st && rc == 0)
        print_totals(g, r.record, totals, seat - 1, pb_is_terminal(g, st), json);
    free(st);
    json_decref(record);
    pb_replay_free(&r);
    return rc;
}
