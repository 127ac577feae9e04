/* sim.h -- the simulator's numbers: what each game adds, and the summary.
 *
 * Every counter is an integer (wins in sixtieths, so shared wins of 2..6
 * players are exact), so the summary does not depend on the order games
 * finish in: threads, shards and sim-merge all give the same figures. */
#ifndef PB_SIM_H
#define PB_SIM_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../core/game.h"

#define SIM_MAX_SEATS 6
#define SIM_MAX_BOTS 6
#define SIM_MAX_ITEMS 32       /* things a player may hold at the end (Specials) */
#define SIM_MAX_CATEGORIES 16  /* contested categories (pizza types) */
#define SIM_WIN_UNIT 60        /* a win is 60; shared by k players, 60/k each */

typedef struct sim_tally {
    long games;                /* seat-games */
    long win60;                /* wins in sixtieths */
    long score_sum, score_sq;
} sim_tally;

typedef struct sim_stats {
    char game[32];             /* game id */
    char title[64];
    int players;
    uint64_t seed;
    bool rotate;               /* bots move one seat on each game */
    char bots[SIM_MAX_SEATS][64]; /* the bot of each seat in game 0 */
    int nbots;                 /* distinct bots */
    char bot_names[SIM_MAX_BOTS][64];
    long games;
    sim_tally by_seat[SIM_MAX_SEATS], by_bot[SIM_MAX_BOTS], first;
    long length_sum, length_sq, length_min, length_max;
    int nitems;
    char items[SIM_MAX_ITEMS][64];
    long item_games[SIM_MAX_ITEMS];          /* games in which someone held it */
    long item_holder_sum[SIM_MAX_ITEMS];     /* holders' scores */
    long item_other_sum[SIM_MAX_ITEMS], item_other_n[SIM_MAX_ITEMS];
    long item_win60[SIM_MAX_ITEMS];          /* holders' wins */
    int ncategories;
    char categories[SIM_MAX_CATEGORIES][64];
    long category_won[SIM_MAX_CATEGORIES], category_tied[SIM_MAX_CATEGORIES],
        category_empty[SIM_MAX_CATEGORIES];
    const char *item_seen[SIM_MAX_ITEMS], *category_seen[SIM_MAX_CATEGORIES]; /* fast paths */
    bool team;                 /* a cooperative game: every seat shares one result */
    long team_won;             /* games the team won */
    int nmeasures;             /* figures of the whole game, as the game names them */
    char measures[PB_MAX_MEASURES][64];
    long measure_sum[PB_MAX_MEASURES], measure_sq[PB_MAX_MEASURES];
} sim_stats;

/* One finished game, as the simulator counts it. */
typedef struct sim_result {
    long game;
    uint64_t seed;
    const char *bot[SIM_MAX_SEATS];  /* who played each seat */
    int total[SIM_MAX_SEATS];
    unsigned winners;                /* bit per seat; several on a shared win */
    long length;                     /* decisions */
    pb_facts facts;
    bool names_are_stable;           /* facts name items with the same strings every game */
} sim_result;

/* Start empty statistics for a simulation's header object (see cmd_sim.c). */
int sim_stats_init(sim_stats *s, const json_t *header, char *err, size_t errlen);
/* Add one game; -1 with a message if it does not fit. */
int sim_stats_add_result(sim_stats *s, const sim_result *r, char *err, size_t errlen);
/* Add one game given as a result line of a --out file. */
int sim_stats_add(sim_stats *s, const json_t *line, char *err, size_t errlen);
/* The result line of a game (new reference). */
json_t *sim_result_to_json(const sim_result *r, int players);
/* Add another run's statistics (same header). */
int sim_stats_merge(sim_stats *into, const sim_stats *from, char *err, size_t errlen);

/* Wilson score interval (95%) of a proportion p over n trials. */
void sim_wilson(double p, double n, double *lo, double *hi);
/* Mean and standard deviation of a tally's scores. */
double sim_mean(const sim_tally *t);
double sim_sd(const sim_tally *t);
double sim_share(const sim_tally *t); /* win share, 0..1 */
/* Mean and (in *sd) standard deviation of measure k over the games. */
double sim_measure_mean(const sim_stats *s, int k, double *sd);

/* The summary as text for people. */
void sim_print_summary(FILE *out, const sim_stats *s);
/* A self-contained HTML page with SVG charts of the same figures
 * (sim_report.c). Returns 0, or -1 if the file cannot be written. */
int sim_write_report(const sim_stats *s, const char *path, char *err, size_t errlen);

int cmd_sim(int argc, char **argv);
int cmd_sim_merge(int argc, char **argv);

#endif
