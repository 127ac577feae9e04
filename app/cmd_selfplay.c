/* cmd_selfplay.c -- `pizzabox selfplay`, `pizzabox bench` and `pizzabox demo`:
 * games between bots. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../core/clock.h"
#include "../ai/bot.h"
#include "../ai/perfect.h"
#include "../core/record.h"
#include "../games/nyslice/nyslice.h"
#include "cli.h"
#include "front.h"
#include "textbuf.h"

enum { OPT_GAMES = 1000, OPT_BOTS, OPT_RECORD_DIR, OPT_RECORD, OPT_REGRET, OPT_LAST_ROUND, OPT_AGAINST, OPT_WHOLE_GAMES,
       OPT_HELP };

/* Every command here takes every game option. */
#define GAME_OPTIONS                                                                                          \
    CLI_OPT_GAME, CLI_OPT_PLAYERS, CLI_OPT_SEED, CLI_OPT_DECK, CLI_OPT_BOARD, CLI_OPT_EXPANSION, CLI_OPT_COOP, \
        CLI_OPT_DIFFICULTY, CLI_OPT_EXTRA_CHEESE, CLI_OPT_COOP_GOALS, CLI_OPT_COOP_INSANE, CLI_OPT_COOP_EASIER,    \
        CLI_OPT_TOP_CHEF, CLI_OPT_EXPANSION_POWERS
#define GAME_OPTIONS_HELP \
    "       [--deck FILE] [--board FILE] [--expansion] [--expansion-powers]\n"                   \
    "       [--extra-cheese]\n" CLI_COOP_HELP

static const struct option opts[] = {
    CLI_COMMON_OPTIONS,
    {"games", required_argument, 0, OPT_GAMES}, {"bots", required_argument, 0, OPT_BOTS},
    {"record-dir", required_argument, 0, OPT_RECORD_DIR}, {"record", required_argument, 0, OPT_RECORD},
    {"regret", no_argument, 0, OPT_REGRET}, {"last-round", no_argument, 0, OPT_LAST_ROUND},
    {"against", required_argument, 0, OPT_AGAINST}, {"whole-games", no_argument, 0, OPT_WHOLE_GAMES},
    {"help", no_argument, 0, OPT_HELP},
    {0, 0, 0, 0}};

typedef struct batch_args {
    cli_common common;
    int games;
    const char *bots;
    bool bots_given;
    const char *record_dir;
    const char *record;
    bool regret;
    bool last_round;
    const char *against;
    bool against_given;
    bool whole_games;
    bool help;
} batch_args;

/* Parse the options of a batch command; `allowed` lists the option ids it
 * takes. Returns 0, or EXIT_USAGE after printing why. */
static int parse_batch(const char *cmd, int argc, char **argv, const int *allowed, batch_args *a)
{
    memset(a, 0, sizeof *a);
    a->common.game = "nyslice";
    a->games = 1;
    a->bots = "random";
    a->against = "mcts:iters=1000";
    int c;
    opterr = 0;
    optind = 1;
    while ((c = cli_getopt(cmd, argc, argv, opts)) != -1) {
        if (c == CLI_BAD_OPTION)
            return EXIT_USAGE;
        bool ok = c == OPT_HELP;
        for (int i = 0; allowed[i]; i++)
            ok = ok || allowed[i] == c;
        if (!ok) {
            cli_error(cmd, "unknown option '%s' (see pizzabox %s --help)", argv[optind - 1], cmd);
            return EXIT_USAGE;
        }
        int common = cli_common_option(&a->common, c, optarg);
        if (common < 0)
            return EXIT_USAGE;
        switch (common ? 0 : c) {
        case OPT_GAMES:
            if (cli_parse_int("--games", optarg, 1, 2000000000, &a->games))
                return EXIT_USAGE;
            break;
        case OPT_BOTS: a->bots = optarg, a->bots_given = true; break;
        case OPT_RECORD_DIR: a->record_dir = optarg; break;
        case OPT_RECORD: a->record = optarg; break;
        case OPT_REGRET: a->regret = true; break;
        case OPT_LAST_ROUND: a->last_round = true; break;
        case OPT_AGAINST: a->against = optarg, a->against_given = true; break;
        case OPT_WHOLE_GAMES: a->whole_games = true; break;
        case OPT_HELP: a->help = true; break;
        }
    }
    if (optind != argc) {
        cli_error(cmd, "unexpected argument '%s'", argv[optind]);
        return EXIT_USAGE;
    }
    return 0;
}

/* One bot per seat from a comma list (one name is used for every seat). */
static int make_bots(const char *cmd, const char *spec, int players, uint64_t seed, pb_bot **bots)
{
    char names[PB_MAX_SEATS][CLI_SPEC_LEN];
    if (cli_seat_list(cmd, spec, players, names) < 0)
        return -1;
    for (int i = 0; i < players; i++) {
        char err[PB_ERR_LEN];
        bots[i] = pb_bot_new(names[i], pb_derive_seed(seed, 1000u + (unsigned)i), err, sizeof err);
        if (!bots[i]) {
            cli_error(cmd, "%s", err);
            while (i--)
                pb_bot_free(bots[i]);
            return -1;
        }
    }
    return 0;
}

static void free_bots(pb_bot **bots, int n)
{
    for (int i = 0; i < n; i++)
        pb_bot_free(bots[i]);
}

int cmd_selfplay(int argc, char **argv)
{
    static const int allowed[] = {GAME_OPTIONS, OPT_GAMES, OPT_BOTS, OPT_RECORD_DIR, 0};
    batch_args a;
    if (parse_batch("selfplay", argc, argv, allowed, &a))
        return EXIT_USAGE;
    if (a.help) {
        printf("usage: pizzabox selfplay --game nyslice|theory|delivery --players N --games K\n"
               "       --seed S [--bots random,...] [--record-dir DIR]\n" GAME_OPTIONS_HELP
               "Plays K games between bots and prints one JSON line per game (seed, totals,\n"
               "winners), then a summary line. The same arguments always print the same output.\n"
               "--record-dir keeps every game's record there. --deck: New York Slice; --board:\n"
               "Pizza Theory; the others: New York Pizza Delivery (as in pizzabox play --help).\n");
        return 0;
    }
    if (a.record_dir && cli_check_output_dir("selfplay", "--record-dir", a.record_dir) != 0)
        return EXIT_USAGE;
    pb_game *g = cli_make_game(&a.common);
    if (!g)
        return EXIT_USAGE;
    if (a.record_dir && mkdir(a.record_dir, 0777) != 0 && errno != EEXIST) {
        cli_error("selfplay", "cannot create %s: %s", a.record_dir, strerror(errno));
        pb_game_free(g);
        return EXIT_USAGE;
    }
    int n = g->players, rc = 0;
    double wins[PB_MAX_SEATS] = {0}, totals[PB_MAX_SEATS] = {0};
    char bot_names[PB_MAX_SEATS][64];
    for (int i = 0; i < a.games && rc == 0; i++) {
        uint64_t seed = pb_derive_seed(a.common.seed, (uint64_t)i);
        pb_bot *bots[PB_MAX_SEATS];
        if (make_bots("selfplay", a.bots, n, seed, bots)) {
            rc = EXIT_USAGE;
            break;
        }
        for (int s = 0; s < n; s++)
            snprintf(bot_names[s], sizeof bot_names[s], "%s", pb_bot_name(bots[s]));
        pb_record *rec = a.record_dir ? pb_record_new(g, seed) : NULL;
        char err[PB_ERR_LEN];
        pb_state *st = pb_match_play(g, seed, bots, rec, err, sizeof err);
        free_bots(bots, n);
        if (!st) {
            cli_error("selfplay", "game %d: %s", i, err);
            pb_record_free(rec);
            rc = 1;
            break;
        }
        json_t *report = g->ops->score_report(g, st, NULL);
        json_t *tot = json_array(), *winners = json_object_get(report, "winners");
        double ret[PB_MAX_SEATS];
        int total[PB_MAX_SEATS];
        g->ops->returns(g, st, ret);
        g->ops->totals(g, st, total);
        for (int s = 0; s < n; s++) {
            json_array_append_new(tot, json_integer(total[s]));
            totals[s] += total[s];
            wins[s] += ret[s];
        }
        json_t *line = json_pack("{s:i, s:I, s:o, s:O}", "game", i, "seed", (json_int_t)seed, "totals",
                                 tot, "winners", winners);
        char *s = json_dumps(line, JSON_COMPACT);
        puts(s);
        free(s);
        json_decref(line);
        json_decref(report);
        if (rec) {
            char path[4096];
            snprintf(path, sizeof path, "%s/game-%06d.json", a.record_dir, i);
            if (pb_record_save(rec, path, err, sizeof err) != 0) {
                cli_error("selfplay", "%s", err);
                rc = 1;
            }
            pb_record_free(rec);
        }
        free(st);
    }
    if (rc == 0) {
        json_t *w = json_array(), *m = json_array(), *b = json_array();
        for (int s = 0; s < n; s++) {
            json_array_append_new(w, json_real(wins[s]));
            json_array_append_new(m, json_real(totals[s] / a.games));
            json_array_append_new(b, json_string(bot_names[s]));
        }
        json_t *sum = json_pack("{s:{s:s, s:i, s:i, s:I, s:o, s:o, s:o}}", "summary", "game", g->ops->id,
                                "players", n, "games", a.games, "seed", (json_int_t)a.common.seed,
                                "bots", b, "wins", w, "mean_total", m);
        char *s = json_dumps(sum, JSON_COMPACT | JSON_REAL_PRECISION(6));
        puts(s);
        free(s);
        json_decref(sum);
    }
    pb_game_free(g);
    return rc;
}

/* The times of a bot's decisions: wall and its thread's CPU. */
typedef struct decision_times {
    long n, over_second, searches;
    double total, worst, cpu_total, cpu_worst;
    int game, move;               /* the decision being timed: the game's number (from 1) and its
                                   * move's (from 0, as in records) */
    int worst_game, worst_move;   /* the one that took the most CPU */
} decision_times;

static pb_action timed_choice(pb_bot *bot, const pb_game *g, const pb_state *st, decision_times *t)
{
    double t0 = pb_now(), c0 = pb_thread_cpu();
    pb_action a = pb_bot_choose(bot, g, st, pb_current_seat(g, st));
    double dt = pb_now() - t0, dc = pb_thread_cpu() - c0;
    t->n++;
    t->total += dt;
    t->worst = dt > t->worst ? dt : t->worst;
    t->cpu_total += dc;
    if (dc > t->cpu_worst) {
        t->cpu_worst = dc;
        t->worst_game = t->game;
        t->worst_move = t->move;
    }
    t->over_second += dc >= 1.0;
    t->searches += pb_bot_searches(bot);
    return a;
}

/* bench --bots's report of the times. */
static void print_times(const pb_game *g, const batch_args *a, const decision_times *t)
{
    if (a->whole_games)
        printf("%s, %d players, bot %s in every seat: %ld moves in %d games, ", g->ops->id, g->players, a->bots,
               t->n, a->games);
    else
        printf("%s, %d players, bot %s: %ld mid-game moves, ", g->ops->id, g->players, a->bots, t->n);
    printf("%.1f ms per move on average, %.1f ms at most (its thread's CPU time: %.1f ms on average, %.1f at "
           "most; %ld moves of 1 s or more)",
           1000 * t->total / t->n, 1000 * t->worst, 1000 * t->cpu_total / t->n, 1000 * t->cpu_worst, t->over_second);
    /* Not over whole games: New York Slice's expert counts the exact last
     * round's positions there, which are not iterations. */
    if (t->searches && !a->whole_games)
        printf(", %.0f iterations per second of CPU", t->searches / t->cpu_total);
    if (t->n)
        printf("; the slowest was move %d of game %d", t->worst_move, t->worst_game);
    printf("\n");
}

/* Time a bot's decisions in mid-game positions (half-way through random
 * games), or with --whole-games every decision of K games it plays in every
 * seat (the first and the last moves too, where a level may be slowest):
 * milliseconds per move and, for search bots in mid-game, iterations per
 * second. */
static int bench_bot(const pb_game *g, const batch_args *a)
{
    char err[PB_ERR_LEN];
    pb_bot *bot = pb_bot_new(a->bots, a->common.seed, err, sizeof err);
    if (!bot) {
        cli_error("bench", "%s", err);
        return EXIT_USAGE;
    }
    pb_state *st = pb_state_new(g, 0);
    pb_rng rng;
    pb_rng_seed(&rng, a->common.seed);
    decision_times t = {0};
    int rc = EXIT_SUCCESS;
    for (int i = 0; i < a->games && rc == EXIT_SUCCESS; i++) {
        g->ops->init(g, st, pb_derive_seed(a->common.seed, (uint64_t)i));
        t.game = i + 1;
        if (a->whole_games) {
            for (t.move = 0; rc == EXIT_SUCCESS && !pb_is_terminal(g, st); t.move++)
                if (g->ops->apply(g, st, timed_choice(bot, g, st, &t), err, sizeof err) != 0) {
                    cli_error("bench", "bot %s chose an illegal move: %s", a->bots, err);
                    rc = EXIT_FAILURE;
                }
            continue;
        }
        int length = 0;
        pb_state *probe = pb_state_clone(g, st);
        while (!pb_is_terminal(g, probe) && ++length)
            g->ops->apply(g, probe, g->ops->random_action(g, probe, &rng), NULL, 0);
        free(probe);
        for (int k = 0; k < length / 2; k++)
            g->ops->apply(g, st, g->ops->random_action(g, st, &rng), NULL, 0);
        t.move = length / 2;
        timed_choice(bot, g, st, &t);
    }
    if (rc == EXIT_SUCCESS)
        print_times(g, a, &t);
    free(st);
    pb_bot_free(bot);
    return rc;
}

/* Regret against exact play (ai/perfect.h): K games are played by `easy` to
 * New York Slice's last round; each bot of the --bots list then plays that
 * round in every seat, and each of its decisions with a choice is valued
 * exactly. Regret: the deciding seat's expected final score after the best
 * move less after the move chosen. */
#define REGRET_SECONDS 1.0  /* a solve's limit; past it the regret is a lower bound */
#define REGRET_BOTS 8

/* A mean with its 95% interval. */
typedef struct mean_acc {
    long n;
    double sum, sum2;
} mean_acc;

static void mean_add(mean_acc *m, double x)
{
    m->n++;
    m->sum += x;
    m->sum2 += x * x;
}

static double mean_of(const mean_acc *m, double *half)
{
    double mean = m->n ? m->sum / m->n : 0;
    double sd = m->n > 1 ? sqrt(fmax(0, (m->sum2 - m->n * mean * mean) / (m->n - 1))) : 0;
    *half = m->n ? 1.959964 * sd / sqrt((double)m->n) : 0;
    return mean;
}

typedef struct regret_sum {
    char name[CLI_SPEC_LEN];
    mean_acc points;      /* expected points lost per decision */
    mean_acc open_points; /* the same where the moves' win shares differ (the game still open) */
    mean_acc division;    /* the same at the Slicer's division */
    mean_acc win;         /* expected win share lost: the best move's for winning less the chosen one's */
    long partial, costly; /* decisions not fully solved; costing >= 1 point */
    double seconds;       /* the bot's thinking time */
} regret_sum;

/* The values of the last position solved: the bots meet the same round's
 * first decision, the costliest, one after another. */
typedef struct regret_cache {
    pb_state *st;
    pb_exact_value mv[PB_MAX_ACTIONS];
    int n, best;
} regret_cache;

static int find_move(const regret_cache *c, pb_action a)
{
    for (int i = 0; i < c->n; i++)
        if (c->mv[i].action == a)
            return c->mv[i].exact ? i : -1;
    return -1;
}

/* One decision (false when not even the bot's move was solved): the points
 * it lost, the win share it lost, and whether the win was still open. */
static bool decision_regret(const pb_game *g, const pb_state *st, pb_action chosen, regret_cache *c,
                            double *points, double *win, bool *open, bool *partial)
{
    if (!(c->st && pb_state_equal(g, c->st, st) && find_move(c, chosen) >= 0)) {
        pb_perfect_limits lim = {.seconds = REGRET_SECONDS, .must = &chosen, .nmust = 1};
        char err[PB_ERR_LEN];
        free(c->st);
        c->st = pb_state_clone(g, st);
        c->n = pb_perfect_values(g, st, &lim, c->mv, &c->best, err, sizeof err);
    }
    int i = find_move(c, chosen), seat = pb_current_seat(g, st);
    if (i < 0 || c->best < 0)
        return false;
    double top = 0, low = 1;
    *partial = false;
    for (int k = 0; k < c->n; k++) {
        *partial = *partial || !c->mv[k].exact;
        if (c->mv[k].exact) {
            top = fmax(top, c->mv[k].win[seat]);
            low = fmin(low, c->mv[k].win[seat]);
        }
    }
    *points = c->mv[c->best].score[seat] - c->mv[i].score[seat];
    *win = top - c->mv[i].win[seat];
    *open = top - low > 1e-9;
    return true;
}

static void regret_round(const pb_game *g, const pb_state *start, pb_bot *bot, regret_cache *cache, regret_sum *r)
{
    pb_state *st = pb_state_clone(g, start);
    pb_action legal[PB_MAX_ACTIONS];
    int seat;
    while (st && (seat = pb_current_seat(g, st)) != PB_TERMINAL) {
        double t0 = pb_now();
        pb_action a = pb_bot_choose(bot, g, st, seat);
        r->seconds += pb_now() - t0;
        bool partial, open;
        double points, win;
        if (g->ops->legal_actions(g, st, legal) > 1 &&
            decision_regret(g, st, a, cache, &points, &win, &open, &partial)) {
            mean_add(&r->points, points);
            mean_add(&r->win, win);
            if (open)
                mean_add(&r->open_points, points);
            if (NYS_ACTION_KIND(a) == NYS_A_DIVIDE)
                mean_add(&r->division, points);
            r->partial += partial;
            r->costly += points >= 1 - 1e-9;
        }
        g->ops->apply(g, st, a, NULL, 0);
    }
    free(st);
}

/* The figures so far (a long run shows them on stderr as it goes). */
static void print_regret(FILE *f, const pb_game *g, const regret_sum *sums, int nb, int games, double seconds)
{
    fprintf(f, "New York Slice, %d players, %d last rounds (played to them by easy), %.0f s:\n", g->players, games,
            seconds);
    for (int b = 0; b < nb; b++) {
        const regret_sum *r = &sums[b];
        double hp, ho, hw, hd, p = mean_of(&r->points, &hp), o = mean_of(&r->open_points, &ho),
               w = mean_of(&r->win, &hw), d = mean_of(&r->division, &hd);
        long n = r->points.n;
        fprintf(f, "  %-10s regret %.3f points per decision (95%% CI %.3f to %.3f) over %ld decisions;\n"
                "             %.3f (%.3f to %.3f) over the %ld where the win was still open; win share lost %.4f "
                "(%.4f to %.4f);\n"
                "             %.3f (%.3f to %.3f) over the %ld divisions, the Slicer's;\n"
                "             %.1f%% cost a point or more; %ld partly solved (regret a lower bound); %.0f ms per "
                "decision\n",
                r->name, p, p - hp, p + hp, n, o, o - ho, o + ho, r->open_points.n, w, w - hw, w + hw, d, d - hd,
                d + hd, r->division.n, n ? 100.0 * r->costly / n : 0, r->partial, n ? 1000 * r->seconds / n : 0);
    }
    fflush(f);
}

static int bench_regret(const pb_game *g, const batch_args *a)
{
    if (strcmp(g->ops->id, "nyslice") != 0) {
        cli_error("bench", "--regret measures New York Slice bots against its exact last round");
        return EXIT_USAGE;
    }
    regret_sum sums[REGRET_BOTS] = {0};
    char names[REGRET_BOTS][CLI_SPEC_LEN];
    int nb = cli_name_list("bench", "--bots", "bot", a->bots, REGRET_BOTS, names);
    if (nb < 0)
        return EXIT_USAGE;
    for (int b = 0; b < nb; b++)
        snprintf(sums[b].name, sizeof sums[b].name, "%.*s", (int)sizeof sums[b].name - 1, names[b]);
    char err[PB_ERR_LEN];
    pb_bot *to_last = pb_bot_new("easy", a->common.seed, err, sizeof err);
    pb_bot *bots[REGRET_BOTS] = {0};
    for (int b = 0; b < nb; b++)
        if (!(bots[b] = pb_bot_new(names[b], pb_derive_seed(a->common.seed, 7u + (unsigned)b), err, sizeof err))) {
            cli_error("bench", "%s", err);
            while (b--)
                pb_bot_free(bots[b]);
            pb_bot_free(to_last);
            return EXIT_USAGE;
        }
    regret_cache *cache = calloc(1, sizeof *cache);
    double t0 = pb_now();
    for (int i = 0; cache && i < a->games; i++) {
        pb_state *st = pb_state_new(g, pb_derive_seed(a->common.seed, (uint64_t)i));
        while (st && !pb_perfect_applies(g, st) && !pb_is_terminal(g, st))
            g->ops->apply(g, st, pb_bot_choose(to_last, g, st, pb_current_seat(g, st)), NULL, 0);
        for (int b = 0; st && b < nb; b++)
            regret_round(g, st, bots[b], cache, &sums[b]);
        free(st);
        if ((i + 1) % 100 == 0 && i + 1 < a->games)
            print_regret(stderr, g, sums, nb, i + 1, pb_now() - t0);
    }
    print_regret(stdout, g, sums, nb, a->games, pb_now() - t0);
    for (int b = 0; b < nb; b++)
        pb_bot_free(bots[b]);
    pb_bot_free(to_last);
    if (cache)
        free(cache->st);
    free(cache);
    return 0;
}

/* Play st on with a bot per seat (`mine` in seat `me`) to the last round
 * (to_last) or the end; -1 with the reason in err for an illegal move. */
static int play_until(const pb_game *g, pb_state *st, pb_bot **seats, pb_bot *mine, int me, bool to_last, char *err,
                      size_t errlen)
{
    int q;
    while ((q = pb_current_seat(g, st)) != PB_TERMINAL && !(to_last && pb_perfect_applies(g, st))) {
        pb_bot *b = q == me ? mine : seats[q];
        char why[PB_ERR_LEN];
        if (g->ops->apply(g, st, pb_bot_choose(b, g, st, q), why, sizeof why) != 0) {
            snprintf(err, errlen, "bot %.60s chose an illegal move: %.160s", pb_bot_name(b), why);
            return -1;
        }
    }
    return 0;
}

/* The last round at the table (New York Slice): K games are played by the
 * --against bot in every seat to the last round; each bot of --bots then
 * plays that round in one seat (the seats taken in turn) against the same
 * opponents, reseeded alike, so the bots meet the same rounds and the
 * difference from the first bot is paired. */
static int bench_last_round(const pb_game *g, const batch_args *a)
{
    if (strcmp(g->ops->id, "nyslice") != 0) {
        cli_error("bench", "--last-round plays New York Slice's last round");
        return EXIT_USAGE;
    }
    char names[REGRET_BOTS][CLI_SPEC_LEN], err[PB_ERR_LEN];
    int nb = cli_name_list("bench", "--bots", "bot", a->bots, REGRET_BOTS, names), players = g->players, rc = 0;
    if (nb < 0)
        return EXIT_USAGE;
    pb_bot *bots[REGRET_BOTS] = {0}, *others[PB_MAX_SEATS] = {0};
    for (int b = 0; b < nb && !rc; b++)
        if (!(bots[b] = pb_bot_new(names[b], pb_derive_seed(a->common.seed, 7u + (unsigned)b), err, sizeof err)))
            rc = EXIT_USAGE;
    for (int q = 0; q < players && !rc; q++)
        if (!(others[q] = pb_bot_new(a->against, pb_derive_seed(a->common.seed, 100u + (unsigned)q), err, sizeof err)))
            rc = EXIT_USAGE;
    mean_acc win[REGRET_BOTS] = {0}, points[REGRET_BOTS] = {0}, dwin[REGRET_BOTS] = {0}, dpoints[REGRET_BOTS] = {0};
    double t0 = pb_now();
    for (int i = 0; !rc && i < a->games; i++) {
        pb_state *start = pb_state_new(g, pb_derive_seed(a->common.seed, (uint64_t)i));
        for (int q = 0; q < players; q++) /* each game's round the same whatever the bots listed */
            pb_bot_reseed(others[q], pb_derive_seed(a->common.seed, 4000000u + (uint64_t)i * PB_MAX_SEATS + q));
        if (!start || play_until(g, start, others, NULL, -1, true, err, sizeof err) != 0) {
            rc = EXIT_FAILURE;
            free(start);
            break;
        }
        int me = i % players;
        double first_win = 0, first_points = 0;
        for (int b = 0; !pb_is_terminal(g, start) && b < nb; b++) {
            pb_state *st = pb_state_clone(g, start);
            pb_bot_reseed(bots[b], pb_derive_seed(a->common.seed, 5000000u + (uint64_t)i));
            for (int q = 0; q < players; q++)
                pb_bot_reseed(others[q], pb_derive_seed(a->common.seed, 6000000u + (uint64_t)i * PB_MAX_SEATS + q));
            if (!st || play_until(g, st, others, bots[b], me, false, err, sizeof err) != 0) {
                rc = EXIT_FAILURE;
                free(st);
                break;
            }
            double ret[PB_MAX_SEATS];
            int tot[PB_MAX_SEATS];
            g->ops->returns(g, st, ret);
            g->ops->totals(g, st, tot);
            mean_add(&win[b], ret[me]);
            mean_add(&points[b], tot[me]);
            if (b == 0)
                first_win = ret[me], first_points = tot[me];
            mean_add(&dwin[b], ret[me] - first_win);
            mean_add(&dpoints[b], tot[me] - first_points);
            free(st);
        }
        free(start);
        bool last = i + 1 == a->games;
        if (!last && (i + 1) % 50 != 0)
            continue;
        FILE *f = last ? stdout : stderr;
        fprintf(f, "New York Slice, %d players, %d last rounds (played to them by %s, one seat each in turn "
                "against it), %.0f s:\n", players, i + 1, a->against, pb_now() - t0);
        for (int b = 0; b < nb; b++) {
            double hw, hp, hdw, hdp, w = mean_of(&win[b], &hw), p = mean_of(&points[b], &hp);
            double dw = mean_of(&dwin[b], &hdw), dp = mean_of(&dpoints[b], &hdp);
            fprintf(f, "  %-24s win share %.3f (95%% CI %.3f to %.3f), points %.2f", names[b], w, w - hw, w + hw, p);
            if (b > 0)
                fprintf(f, "; against %s: win share %+.3f (%+.3f to %+.3f), points %+.2f (%+.2f to %+.2f)", names[0],
                        dw, dw - hdw, dw + hdw, dp, dp - hdp, dp + hdp);
            fprintf(f, "\n");
        }
        fflush(f);
    }
    if (rc)
        cli_error("bench", "%s", err);
    for (int b = 0; b < nb; b++)
        pb_bot_free(bots[b]);
    free_bots(others, players);
    return rc;
}

int cmd_bench(int argc, char **argv)
{
    static const int allowed[] = {GAME_OPTIONS,      OPT_GAMES,   OPT_BOTS, OPT_REGRET, OPT_LAST_ROUND,
                                  OPT_WHOLE_GAMES, OPT_AGAINST, 0};
    batch_args a;
    if (parse_batch("bench", argc, argv, allowed, &a))
        return EXIT_USAGE;
    if (a.help) {
        printf("usage: pizzabox bench --game nyslice|theory|delivery --players N --games K\n"
               "       [--seed S] [--bots BOT [--whole-games]]\n"
               "       pizzabox bench --regret --players N --games K [--seed S] --bots B,...\n"
               "       pizzabox bench --last-round --players N --games K [--seed S] --bots B,...\n"
               "       [--against BOT]\n" GAME_OPTIONS_HELP
               "Plays K games of uniformly random moves on one thread (setup and scoring\n"
               "included) and prints games per second and nanoseconds per game. With\n"
               "--bots BOT, times that bot's decision in K mid-game positions instead;\n"
               "with --whole-games, every decision of K games it plays in every seat.\n"
               "--regret (New York Slice): the points per decision each bot of --bots (a\n"
               "comma list) loses in K last rounds against the exact solver.\n"
               "--last-round [--against BOT] (New York Slice): K games played by BOT\n"
               "(default mcts:iters=1000) to the last round; each bot of --bots plays it in\n"
               "one seat against BOT: its win share and points, paired with the first's.\n");
        return 0;
    }
    pb_game *g = cli_make_game(&a.common);
    if (!g)
        return EXIT_USAGE;
    const char *clash = a.whole_games && (a.regret || a.last_round)
                            ? "--whole-games goes with --bots BOT alone, not with --regret or --last-round"
                        : a.regret && a.last_round ? "--regret and --last-round are two benchmarks: give one"
                        : a.against_given && !a.last_round ? "--against names the other seats' bot of --last-round"
                        : (a.regret || a.last_round) && !a.bots_given
                            ? "--regret and --last-round measure the bots of --bots: name them (e.g. --bots easy,expert)"
                            : NULL;
    if (clash) {
        cli_error("bench", "%s", clash);
        pb_game_free(g);
        return EXIT_USAGE;
    }
    if (a.regret || a.last_round || a.whole_games || strcmp(a.bots, "random") != 0) {
        int rc = a.regret ? bench_regret(g, &a) : a.last_round ? bench_last_round(g, &a) : bench_bot(g, &a);
        pb_game_free(g);
        return rc;
    }
    pb_state *st = pb_state_new(g, 0);
    pb_rng rng;
    pb_rng_seed(&rng, a.common.seed);
    double ret[PB_MAX_SEATS], checksum = 0;
    long decisions = 0;
    double t0 = pb_now();
    for (int i = 0; i < a.games; i++) {
        g->ops->init(g, st, pb_derive_seed(a.common.seed, (uint64_t)i));
        while (g->ops->current_seat(g, st) != PB_TERMINAL) {
            pb_action act = g->ops->random_action(g, st, &rng);
            g->ops->apply(g, st, act, NULL, 0);
            decisions++;
        }
        g->ops->returns(g, st, ret);
        checksum += ret[0];
    }
    double dt = pb_now() - t0;
    printf("%s, %d players: %d random games in %.3f s: %.0f games/s, %.0f ns/game, "
           "%.1f decisions/game (seat 1 win share %.3f)\n",
           g->ops->id, g->players, a.games, dt, a.games / dt, dt * 1e9 / a.games,
           (double)decisions / a.games, checksum / a.games);
    free(st);
    pb_game_free(g);
    return 0;
}

/* A move of the demo's log: "  Name: move", wrapped at 80 columns (a
 * payment of many parts is long), its continuation indented. */
static void print_move(const char *name, const char *text)
{
    char said[400];
    tb b = {0};
    snprintf(said, sizeof said, "%s: %s", name, text);
    tb_pad(&b, 1); /* the first word's blank makes it two */
    tb_para(&b, said, 4);
    tb_nl(&b);
    char *out = tb_done(&b);
    fputs(out ? out : "", stdout);
    free(out);
}

int cmd_demo(int argc, char **argv)
{
    static const int allowed[] = {GAME_OPTIONS, OPT_BOTS, OPT_RECORD, 0};
    batch_args a;
    if (parse_batch("demo", argc, argv, allowed, &a))
        return EXIT_USAGE;
    if (a.help) {
        printf("usage: pizzabox demo [--game nyslice|theory|delivery] [--players N] [--seed S]\n"
               "       [--bots random,...] [--record FILE]\n" GAME_OPTIONS_HELP
               "Plays one game between bots, printing every decision, then the result (the\n"
               "Guest Check). --record writes the game record (pizzabox replay FILE).\n"
               "The game's options are explained in pizzabox play --help.\n");
        return 0;
    }
    if (!a.common.seed_given)
        a.common.seed = ((uint64_t)time(NULL) * 2654435761u) & 0xFFFFFFu;
    if (a.record && cli_check_output("demo", "--record", a.record) != 0)
        return EXIT_USAGE;
    pb_game *g = cli_make_game(&a.common);
    if (!g)
        return EXIT_USAGE;
    int n = g->players;
    pb_bot *bots[PB_MAX_SEATS];
    if (make_bots("demo", a.bots, n, a.common.seed, bots)) {
        pb_game_free(g);
        return EXIT_USAGE;
    }
    char again[8192];
    if (cli_command_line(again, sizeof again, "demo", g, &a.common, a.common.seed, "--bots", a.bots) == 0) {
        printf("%s, %d players, seed %llu; this plays it again:\n", g->ops->title, n,
               (unsigned long long)a.common.seed);
        cli_print_command(stdout, again);
        printf("\n");
    } else {
        printf("%s, %d players, seed %llu\n\n", g->ops->title, n, (unsigned long long)a.common.seed);
    }
    pb_state *st = pb_state_new(g, a.common.seed), *before = pb_state_new(g, a.common.seed);
    pb_record *rec = a.record ? pb_record_new(g, a.common.seed) : NULL;
    const char *names[PB_MAX_SEATS];
    char namebuf[PB_MAX_SEATS][64];
    for (int s = 0; s < n; s++) {
        snprintf(namebuf[s], sizeof namebuf[s], "%s %d", pb_bot_name(bots[s]), s + 1);
        names[s] = namebuf[s];
    }
    const pb_front *front = pb_front_for(g);
    pb_tui_opts show = {false, names, PB_SPECTATOR};
    int seat, last_round = -1;
    while ((seat = pb_current_seat(g, st)) != PB_TERMINAL) {
        char *banner = pb_front_banner(front, g, st, &show, &last_round);
        fputs(banner ? banner : "", stdout);
        free(banner);
        pb_action act = pb_bot_choose(bots[seat], g, st, seat);
        char text[256], err[PB_ERR_LEN];
        g->ops->describe(g, st, act, seat, text, sizeof text); /* as its maker sees it */
        print_move(names[seat], text);
        if (rec)
            pb_record_add(rec, g, st, act);
        pb_state_copy(g, before, st);
        if (g->ops->apply(g, st, act, err, sizeof err) != 0) {
            cli_error("demo", "bot chose an illegal action: %s", err);
            break;
        }
        pb_front_news(g, before, st, names, 4);
    }
    int rc = 0;
    if (pb_is_terminal(g, st)) {
        json_t *view = g->ops->view(g, st, PB_SPECTATOR);
        char *table = front->table(view, &show);
        printf("\n%s\n", table ? table : "");
        free(table);
        json_decref(view);
        front->print_result(stdout, g, st, names);
    }
    if (rec) {
        char err[PB_ERR_LEN];
        pb_record_set_names(rec, names, n);
        if (pb_record_save(rec, a.record, err, sizeof err) != 0) {
            cli_error("demo", "%s", err);
            rc = 1;
        }
        pb_record_free(rec);
    }
    free(st);
    free(before);
    free_bots(bots, n);
    pb_game_free(g);
    return rc;
}
