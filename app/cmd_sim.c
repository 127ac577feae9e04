/* cmd_sim.c -- `pizzabox sim` and `pizzabox sim-merge`: many games between
 * bots on every core, with statistics for designers.
 *
 * Game i is played from the seed derived from (base seed, i), so results do
 * not depend on threads or shards. Results are written in game order, and
 * all statistics are integer sums, so a sharded run merged with sim-merge
 * gives exactly the summary of one run. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../core/clock.h"
#include "../ai/bot.h"
#include "../core/record.h"
#include "../core/jsonutil.h"
#include "../games/delivery/delivery.h"
#include "cli.h"
#include "sim.h"

#define WINDOW 1024 /* games finished ahead of the oldest unwritten one */

typedef struct sim_run {
    const pb_game *g;
    uint64_t seed;
    char bots[SIM_MAX_SEATS][64];
    bool rotate;
    long lo, hi;            /* this shard's games */
    long next;              /* next game to hand out */
    long done;              /* games counted */
    long flushed;           /* games written (with --out) */
    char *slot[WINDOW];     /* result lines waiting for their turn */
    pthread_mutex_t lock;
    pthread_cond_t moved;
    FILE *out;
    const json_t *header;
    sim_stats *part[64];    /* each thread's own statistics */
    char err[PB_ERR_LEN];
    bool failed;
} sim_run;

/* Play game i into a result; -1 with a message on failure. */
static int play_one(sim_run *r, long i, sim_result *res, char *err, size_t errlen)
{
    const pb_game *g = r->g;
    int n = g->players;
    memset(res, 0, sizeof *res);
    res->game = i;
    res->seed = pb_derive_seed(r->seed, (uint64_t)i);
    pb_bot *bots[SIM_MAX_SEATS] = {0};
    int rc = 0;
    for (int q = 0; q < n && rc == 0; q++) {
        res->bot[q] = r->bots[r->rotate ? (q + n - (int)(i % n)) % n : q];
        bots[q] = pb_bot_new(res->bot[q], pb_derive_seed(res->seed, 1000u + (unsigned)q), err, errlen);
        rc = bots[q] ? 0 : -1;
    }
    pb_state *st = rc == 0 ? pb_state_new(g, res->seed) : NULL;
    int seat;
    while (st && (seat = pb_current_seat(g, st)) != PB_TERMINAL) {
        if (g->ops->apply(g, st, pb_bot_choose(bots[seat], g, st, seat), err, errlen) != 0)
            break;
        res->length++;
    }
    for (int q = 0; q < n; q++)
        pb_bot_free(bots[q]);
    if (!st || !pb_is_terminal(g, st)) {
        free(st);
        return -1;
    }
    double ret[PB_MAX_SEATS];
    g->ops->returns(g, st, ret);
    g->ops->totals(g, st, res->total);
    for (int q = 0; q < n; q++)
        res->winners |= ret[q] > 0 ? 1u << q : 0;
    res->facts.first = -1;
    res->names_are_stable = true; /* the game names its items from its own tables */
    if (g->ops->result_facts)
        g->ops->result_facts(g, st, &res->facts);
    free(st);
    return 0;
}

/* Write the result lines at the front of the window, in game order.
 * Called with the lock held. */
static void flush_ready(sim_run *r)
{
    while (r->flushed < r->hi && r->slot[r->flushed % WINDOW]) {
        fprintf(r->out, "%s\n", r->slot[r->flushed % WINDOW]);
        free(r->slot[r->flushed % WINDOW]);
        r->slot[r->flushed % WINDOW] = NULL;
        r->flushed++;
    }
    pthread_cond_broadcast(&r->moved);
}

typedef struct worker_arg {
    sim_run *run;
    int index;
} worker_arg;

/* Take the next game; false when there is none (or a failure stopped us).
 * With --out, wait while too far ahead of the writer. */
static bool next_game(sim_run *r, long *i)
{
    pthread_mutex_lock(&r->lock);
    while (r->out && !r->failed && r->next < r->hi && r->next >= r->flushed + WINDOW)
        pthread_cond_wait(&r->moved, &r->lock);
    bool more = !r->failed && r->next < r->hi;
    if (more)
        *i = r->next++;
    pthread_mutex_unlock(&r->lock);
    return more;
}

static void *worker(void *arg)
{
    sim_run *r = ((worker_arg *)arg)->run;
    sim_stats *mine = r->part[((worker_arg *)arg)->index];
    long i;
    while (next_game(r, &i)) {
        char err[PB_ERR_LEN] = "";
        sim_result res;
        char *line = NULL;
        int rc = play_one(r, i, &res, err, sizeof err);
        if (rc == 0)
            rc = sim_stats_add_result(mine, &res, err, sizeof err);
        if (rc == 0 && r->out) {
            json_t *j = sim_result_to_json(&res, r->g->players);
            line = json_dumps(j, JSON_COMPACT);
            json_decref(j);
        }
        pthread_mutex_lock(&r->lock);
        if (rc != 0) {
            if (!r->failed)
                snprintf(r->err, sizeof r->err, "game %ld: %s", i, *err ? err : "the game did not finish");
            r->failed = true;
            pthread_cond_broadcast(&r->moved);
        } else {
            r->done++;
            if (r->out) {
                r->slot[i % WINDOW] = line;
                flush_ready(r);
            }
        }
        pthread_mutex_unlock(&r->lock);
    }
    return NULL;
}

/* A progress bar with rate and time left, on a terminal only. */
static void progress(long done, long total, double elapsed, bool last)
{
    int width = 30, fill = total ? (int)(width * done / total) : width;
    double rate = elapsed > 0 ? done / elapsed : 0;
    double left = rate > 0 ? (total - done) / rate : 0;
    fprintf(stderr, "\r[%.*s%*s] %3d%% %ld/%ld games, %.0f games/s, %d:%02d left ", fill,
            "==============================", width - fill, "", total ? (int)(100 * done / total) : 100,
            done, total, rate, (int)left / 60, (int)left % 60);
    if (last)
        fprintf(stderr, "\n");
}

static int run_threads(sim_run *r, int threads, sim_stats *total)
{
    pthread_t tid[64];
    worker_arg args[64];
    bool running[64] = {false};
    char err[PB_ERR_LEN];
    int started = 0;
    for (int t = 0; t < threads; t++) {
        if (!(r->part[t] = calloc(1, sizeof(sim_stats))) || sim_stats_init(r->part[t], r->header, err, sizeof err))
            break;
        args[t] = (worker_arg){r, t};
        running[t] = pthread_create(&tid[t], NULL, worker, &args[t]) == 0;
        started += running[t];
    }
    bool bar = isatty(STDERR_FILENO);
    double t0 = pb_now();
    for (int ticks = 0; started > 0; ticks++) {
        pthread_mutex_lock(&r->lock);
        long done = r->done;
        bool over = r->done >= r->hi - r->lo || r->failed;
        pthread_mutex_unlock(&r->lock);
        if (bar && (over || ticks % 4 == 0))
            progress(done, r->hi - r->lo, pb_now() - t0, over);
        if (over)
            break;
        usleep(50000);
    }
    for (int t = 0; t < threads; t++)
        if (running[t])
            pthread_join(tid[t], NULL);
    for (int t = 0; t < threads; t++)
        if (r->part[t]) {
            if (!r->failed && sim_stats_merge(total, r->part[t], r->err, sizeof r->err) != 0)
                r->failed = true;
            free(r->part[t]);
        }
    if (started == 0 && !r->failed) {
        snprintf(r->err, sizeof r->err, "could not start a thread");
        r->failed = true;
    }
    return r->failed ? -1 : 0;
}

static json_t *header_json(const pb_game *g, const sim_run *r, long games, int shard, int shards)
{
    json_t *bots = json_array();
    for (int q = 0; q < g->players; q++)
        json_array_append_new(bots, json_string(r->bots[q]));
    json_t *h = json_pack("{s:{s:s, s:s, s:i, s:I, s:I, s:o, s:b, s:[i, i], s:O}}", "sim", "game", g->ops->id, "title",
                          g->ops->title, "players", g->players, "seed", (json_int_t)r->seed, "games", (json_int_t)games,
                          "bots", bots, "rotate", r->rotate, "shard", shard, shards, "config", g->config);
    if (pb_is_cooperative(g)) /* one result for the whole team */
        json_object_set_new(json_object_get(h, "sim"), "cooperative", json_true());
    return h;
}

/* One bot per seat from a comma list, or one bot for every seat; each is
 * tried once so a bad name is reported before any game is played. */
static int seat_bots(const char *list, int players, char (*out)[64])
{
    if (cli_seat_list("sim", list, players, out) < 0)
        return -1;
    for (int q = 0; q < players; q++) {
        char err[PB_ERR_LEN];
        pb_bot *probe = pb_bot_new(out[q], 0, err, sizeof err);
        if (!probe) {
            cli_error("sim", "%s", err);
            return -1;
        }
        pb_bot_free(probe);
    }
    return 0;
}

/* What one simulation plays. */
typedef struct sim_plan {
    const char *bots;
    uint64_t seed;
    int games, threads, shard, shards;
    bool rotate;
    const char *out;        /* results file, or NULL */
} sim_plan;

/* Play the plan's games of g into stats (and the results file); 0, or an
 * exit code after printing why not. */
static int simulate(const pb_game *g, const sim_plan *p, sim_stats *stats)
{
    sim_run *r = calloc(1, sizeof *r);
    int rc = r ? 0 : 1, games = p->games, shard = p->shard, shards = p->shards;
    const char *out = p->out;
    if (rc == 0) {
        r->g = g;
        r->seed = p->seed;
        r->rotate = p->rotate;
        char err[PB_ERR_LEN];
        if (seat_bots(p->bots, g->players, r->bots) != 0)
            rc = EXIT_USAGE;
        r->lo = (long)((long long)games * (shard - 1) / shards);
        r->hi = (long)((long long)games * shard / shards);
        r->next = r->flushed = r->lo;
        json_t *header = rc == 0 ? header_json(g, r, games, shard, shards) : NULL;
        r->header = header;
        if (header && sim_stats_init(stats, header, err, sizeof err) != 0) {
            cli_error("sim", "%s", err);
            rc = 1;
        }
        if (rc == 0 && out && !(r->out = fopen(out, "w"))) {
            cli_error("sim", "cannot write %s: %s", out, strerror(errno));
            rc = EXIT_USAGE;
        }
        if (rc == 0 && r->out) {
            char *h = json_dumps(header, JSON_COMPACT);
            fprintf(r->out, "%s\n", h);
            free(h);
        }
        if (rc == 0) {
            pthread_mutex_init(&r->lock, NULL);
            pthread_cond_init(&r->moved, NULL);
            if (run_threads(r, p->threads, stats) != 0) {
                cli_error("sim", "%s", r->err);
                rc = 1;
            }
            pthread_mutex_destroy(&r->lock);
            pthread_cond_destroy(&r->moved);
        }
        json_decref(header);
        if (r->out && fclose(r->out) != 0 && rc == 0) {
            cli_error("sim", "cannot write %s", out);
            rc = 1;
        }
        for (int k = 0; k < WINDOW; k++)
            free(r->slot[k]);
    }
    free(r);
    return rc;
}

/* One line of the co-op table: the markers played, the team's wins and
 * what it reached. The win rate into *won. */
static int sim_coop_row(cli_common *c, const char *label, const char *bots, int games, int threads, bool rotate,
                        sim_stats *stats, bool first, double *won)
{
    pb_game *g = cli_make_game(c);
    if (!g)
        return EXIT_USAGE;
    sim_plan plan = {bots, c->seed, games, threads, 1, 1, rotate, NULL};
    int rc = simulate(g, &plan, stats);
    if (rc == 0 && first)
        printf("%s co-op, %d players, bots %s, %d games a row, seed %llu\n"
               "row      blue  red  pizzas  money   team wins [95%% Wilson]   pizzas        money       turns"
               "  lost: inspector / no order\n",
               g->ops->title, g->players, bots, games, (unsigned long long)c->seed);
    if (rc == 0) {
        const json_t *cfg = g->config;
        double lo, hi, p = (double)stats->team_won / (double)stats->games, sd[5], m[5];
        sim_wilson(p, (double)stats->games, &lo, &hi);
        for (int k = 0; k < 5; k++) /* the measures in the order the game gives them */
            m[k] = k < stats->nmeasures ? sim_measure_mean(stats, k, &sd[k]) : (sd[k] = 0);
        printf("%-8s %4d %4d %7d %6d   %5.1f%% [%5.1f%%, %5.1f%%]  %5.1f +- %4.1f  %5.1f +- %4.1f  %5.1f  %5.1f%% / %5.1f%%\n",
               label, (int)json_integer_value(json_object_get(cfg, "blue")),
               (int)json_integer_value(json_object_get(cfg, "red")),
               (int)json_integer_value(json_object_get(cfg, "pizzas")),
               (int)json_integer_value(json_object_get(cfg, "money")), 100 * p, 100 * lo, 100 * hi, m[0], sd[0], m[1],
               sd[1], m[2], 100 * m[3], 100 * m[4]);
        fflush(stdout);
        *won = p;
    }
    pb_game_free(g);
    return rc;
}

/* PD-C1's difficulty table checked against play: the same games at every
 * row, one line each with the team's win rate and what it reached; then
 * (unless a mode was chosen for all) the default row with Insane and with
 * Easier; and the row nearest an even chance, a fair start for the team
 * (the rulebook's recommended rows per player count are lost in its text). */
static int sim_coop_rows(cli_common *c, const char *bots, int games, int threads, bool rotate)
{
    sim_stats *stats = calloc(1, sizeof *stats);
    int rc = stats ? 0 : 1, fair = 0;
    double best = 2, fair_rate = 0, won = 0;
    for (int row = 1; row <= PD_DIFFICULTIES && rc == 0; row++) {
        char label[16];
        snprintf(label, sizeof label, "%d", row);
        c->difficulty = row;
        rc = sim_coop_row(c, label, bots, games, threads, rotate, stats, row == 1, &won);
        if (rc == 0 && fabs(won - 0.5) < best) {
            best = fabs(won - 0.5);
            fair = row;
            fair_rate = won;
        }
    }
    bool *modes[2] = {&c->coop_insane, &c->coop_easier};
    static const char *const mode_labels[2] = {"insane", "easier"};
    bool mixed = c->coop_insane || c->coop_easier;
    for (int k = 0; k < 2 && rc == 0 && !mixed; k++) {
        char label[16];
        snprintf(label, sizeof label, "%d %s", PD_DEFAULT_DIFFICULTY, mode_labels[k]);
        c->difficulty = PD_DEFAULT_DIFFICULTY;
        *modes[k] = true;
        rc = sim_coop_row(c, label, bots, games, threads, rotate, stats, false, &won);
        *modes[k] = false;
    }
    if (rc == 0 && best < 0.5) /* some row between all lost and all won */
        printf("closest to 50%%: row %d (%.1f%%)\n", fair, 100 * fair_rate);
    else if (rc == 0)
        printf("closest to 50%%: none (every row %s): more games, or other bots\n", fair_rate > 0.5 ? "won" : "lost");
    free(stats);
    return rc;
}

enum { OPT_BOTS = 1, OPT_GAMES, OPT_THREADS, OPT_SHARD, OPT_OUT, OPT_REPORT, OPT_ROTATE, OPT_HELP };

static void sim_usage(void)
{
    printf("usage: pizzabox sim --game nyslice|theory|delivery --players N --bots B1,B2,...\n"
           "       --games K --seed S [--threads T] [--shard i/k] [--rotate]\n"
           "       [--out results.jsonl] [--report report.html] [--deck FILE] [--board FILE]\n"
           "       [--expansion] [--expansion-powers] [--extra-cheese]\n" CLI_COOP_HELP
           "Plays K games between bots on T threads (default: every core) and prints win\n"
           "shares by bot and by seat with 95%% intervals, scores, the first mover's\n"
           "advantage, what each Special is worth, majorities (New York Slice) and game\n"
           "length. --rotate moves the bots one seat on every game. --out writes one JSON\n"
           "line per game (after a header line); --shard i/k plays only the i-th of k\n"
           "equal parts of the games, for pizzabox sim-merge to combine. --report writes\n"
           "an HTML page with charts. New York Pizza Delivery: --expansion adds the 5-6\n"
           "player box's cards for 2 to 4 players, --expansion-powers its 26 power cards\n"
           "alone, --extra-cheese the Extra Cheese mini\n"
           "expansion's cards; --coop plays the co-op game and reports the team's win\n"
           "rate; without --difficulty it plays K games at each of the 8 difficulty rows\n"
           "(1 HARD .. 8 EASY), one line a row, then the default row with Insane and\n"
           "with Easier, and names the row closest to a 50%% win rate.\n" CLI_COOP_ABOUT);
}

static int parse_shard(const char *text, int *i, int *k)
{
    char tail;
    if (sscanf(text, "%d/%d%c", i, k, &tail) != 2 || *k < 1 || *k > 100000 || *i < 1 || *i > *k) {
        cli_error("sim", "--shard needs i/k with 1 <= i <= k, not '%s'", text);
        return -1;
    }
    return 0;
}

int cmd_sim(int argc, char **argv)
{
    static const struct option opts[] = {
        CLI_COMMON_OPTIONS,
        {"bots", required_argument, 0, OPT_BOTS},       {"games", required_argument, 0, OPT_GAMES},
        {"threads", required_argument, 0, OPT_THREADS}, {"shard", required_argument, 0, OPT_SHARD},
        {"out", required_argument, 0, OPT_OUT},         {"report", required_argument, 0, OPT_REPORT},
        {"rotate", no_argument, 0, OPT_ROTATE},         {"help", no_argument, 0, OPT_HELP},
        {0, 0, 0, 0}};
    cli_common c = {.game = "nyslice"};
    const char *bots = "random", *out = NULL, *report = NULL;
    int games = 1000, threads = (int)sysconf(_SC_NPROCESSORS_ONLN), shard = 1, shards = 1, opt;
    bool rotate = false;
    opterr = 0;
    optind = 1;
    while ((opt = cli_getopt("sim", argc, argv, opts)) != -1) {
        int common = cli_common_option(&c, opt, optarg);
        if (common < 0)
            return EXIT_USAGE;
        if (common)
            continue;
        switch (opt) {
        case OPT_BOTS: bots = optarg; break;
        case OPT_GAMES:
            if (cli_parse_int("--games", optarg, 1, 2000000000, &games))
                return EXIT_USAGE;
            break;
        case OPT_THREADS:
            if (cli_parse_int("--threads", optarg, 1, 64, &threads))
                return EXIT_USAGE;
            break;
        case OPT_SHARD:
            if (parse_shard(optarg, &shard, &shards))
                return EXIT_USAGE;
            break;
        case OPT_OUT: out = optarg; break;
        case OPT_REPORT: report = optarg; break;
        case OPT_ROTATE: rotate = true; break;
        case OPT_HELP: sim_usage(); return 0;
        default:
            return EXIT_USAGE;
        }
    }
    if (optind != argc) {
        cli_error("sim", "unexpected argument '%s'", argv[optind]);
        return EXIT_USAGE;
    }
    if ((out && cli_check_output("sim", "--out", out) != 0) ||
        (report && cli_check_output("sim", "--report", report) != 0))
        return EXIT_USAGE;
    if (threads < 1)
        threads = 1;
    if (threads > 64)
        threads = 64;
    if (c.coop && !c.difficulty && !c.coop_goals) {
        if (out || report || shards > 1) {
            cli_error("sim", "--out, --report and --shard need one --difficulty row with --coop");
            return EXIT_USAGE;
        }
        return sim_coop_rows(&c, bots, games, threads, rotate);
    }
    pb_game *g = cli_make_game(&c);
    if (!g)
        return EXIT_USAGE;
    sim_stats *stats = calloc(1, sizeof *stats);
    sim_plan plan = {bots, c.seed, games, threads, shard, shards, rotate, out};
    int rc = stats ? simulate(g, &plan, stats) : 1;
    char err[PB_ERR_LEN];
    if (rc == 0) {
        sim_print_summary(stdout, stats);
        if (report && sim_write_report(stats, report, err, sizeof err) != 0) {
            cli_error("sim", "%s", err);
            rc = 1;
        }
    }
    free(stats);
    pb_game_free(g);
    return rc;
}

/* What the files being merged must agree on, and which shards came. */
typedef struct merge_plan {
    json_t *header;          /* the first file's header, less its shard */
    int shards;
    bool seen[4096];         /* shard numbers already merged */
    int nseen;
} merge_plan;

/* Check a file's header against the others'; sets its game range. */
static int check_header(merge_plan *plan, const char *path, const json_t *j, long *lo, long *hi)
{
    json_t *h = json_deep_copy(json_object_get(j, "sim")), *shard = json_object_get(h, "shard");
    json_t *games = json_object_get(h, "games");
    long i = (long)json_integer_value(json_array_get(shard, 0)), k = (long)json_integer_value(json_array_get(shard, 1));
    int rc = 0;
    if (!json_is_integer(games) || json_integer_value(games) < 1 || k < 1 || k > 4096 || i < 1 || i > k) {
        cli_error("sim-merge", "%s: not a pizzabox sim results file (no header with games and shard)", path);
        rc = -1;
    } else {
        long total = (long)json_integer_value(games);
        *lo = (long)((long long)total * (i - 1) / k);
        *hi = (long)((long long)total * i / k);
        json_object_del(h, "shard");
        if (!plan->header) {
            plan->header = json_incref(h);
            plan->shards = (int)k;
        } else if (!json_equal(plan->header, h) || plan->shards != k) {
            cli_error("sim-merge", "%s comes from a different simulation (game, bots, seed, games, config "
                      "or shard count differ)", path);
            rc = -1;
        }
        if (rc == 0 && plan->seen[i - 1]) {
            cli_error("sim-merge", "%s: shard %ld/%ld is given twice", path, i, k);
            rc = -1;
        }
        if (rc == 0) {
            plan->seen[i - 1] = true;
            plan->nseen++;
        }
    }
    json_decref(h);
    return rc;
}

/* Read one results file into the statistics: the header, then one line per
 * game of its shard, in order. */
static int merge_file(merge_plan *plan, const char *path, sim_stats *stats, bool first)
{
    char err[PB_ERR_LEN];
    FILE *f = fopen(path, "r");
    if (!f) {
        cli_error("sim-merge", "cannot open %s", path);
        return -1;
    }
    sim_stats *mine = first ? stats : calloc(1, sizeof *mine);
    char *line = NULL;
    size_t cap = 0;
    long lo = 0, hi = 0, next = 0, lineno = 0;
    int rc = mine ? 0 : -1;
    while (rc == 0 && getline(&line, &cap, f) >= 0) {
        line[strcspn(line, "\n")] = 0;
        json_t *j = pb_json_parse(line, "", err, sizeof err);
        lineno++;
        if (!j) {
            cli_error("sim-merge", "%s line %ld: %s", path, lineno, err);
            rc = -1;
        } else if (lineno == 1) {
            if (sim_stats_init(mine, j, err, sizeof err) != 0) {
                cli_error("sim-merge", "%s line 1: %s", path, err);
                rc = -1;
            } else {
                rc = check_header(plan, path, j, &lo, &hi);
                next = lo;
            }
        } else if (json_integer_value(json_object_get(j, "game")) != next || next >= hi) {
            cli_error("sim-merge", "%s line %ld: expected game %ld of this shard", path, lineno, next);
            rc = -1;
        } else if (sim_stats_add(mine, j, err, sizeof err) != 0) {
            cli_error("sim-merge", "%s line %ld: %s", path, lineno, err);
            rc = -1;
        } else {
            next++;
        }
        json_decref(j);
    }
    free(line);
    fclose(f);
    if (rc == 0 && lineno == 0) {
        cli_error("sim-merge", "%s is empty", path);
        rc = -1;
    }
    if (rc == 0 && next != hi) {
        cli_error("sim-merge", "%s is incomplete: %ld of its %ld games", path, next - lo, hi - lo);
        rc = -1;
    }
    if (rc == 0 && !first && sim_stats_merge(stats, mine, err, sizeof err) != 0) {
        cli_error("sim-merge", "%s: %s", path, err);
        rc = -1;
    }
    if (!first)
        free(mine);
    return rc;
}

int cmd_sim_merge(int argc, char **argv)
{
    enum { OPT_MERGE_REPORT = 1, OPT_MERGE_HELP };
    static const struct option opts[] = {{"report", required_argument, 0, OPT_MERGE_REPORT},
                                         {"help", no_argument, 0, OPT_MERGE_HELP},
                                         {0, 0, 0, 0}};
    const char *report = NULL;
    int opt;
    optind = 1;
    while ((opt = cli_getopt("sim-merge", argc, argv, opts)) != -1) {
        if (opt == OPT_MERGE_HELP) {
            printf("usage: pizzabox sim-merge [--report report.html] FILES...\n"
                   "Combines the --out files of sharded pizzabox sim runs into the summary one\n"
                   "run of all the games gives.\n");
            return 0;
        }
        if (opt != OPT_MERGE_REPORT)
            return EXIT_USAGE;
        report = optarg;
    }
    int i = optind;
    if (i >= argc) {
        cli_error("sim-merge", "give the result files to merge");
        return EXIT_USAGE;
    }
    if (report && cli_check_output("sim-merge", "--report", report) != 0)
        return EXIT_USAGE;
    sim_stats *stats = calloc(1, sizeof *stats);
    merge_plan *plan = calloc(1, sizeof *plan);
    int rc = stats && plan ? 0 : 1;
    for (int k = i; rc == 0 && k < argc; k++)
        if (merge_file(plan, argv[k], stats, k == i) != 0)
            rc = EXIT_USAGE;
    if (rc == 0 && plan->nseen != plan->shards)
        fprintf(stderr, "pizzabox sim-merge: note: %d of %d shards merged\n", plan->nseen, plan->shards);
    if (rc == 0) {
        sim_print_summary(stdout, stats);
        char err[PB_ERR_LEN];
        if (report && sim_write_report(stats, report, err, sizeof err) != 0) {
            cli_error("sim-merge", "%s", err);
            rc = 1;
        }
    }
    if (plan)
        json_decref(plan->header);
    free(plan);
    free(stats);
    return rc;
}
