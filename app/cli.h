/* cli.h -- shared pieces of the pizzabox subcommands. */
#ifndef PB_CLI_H
#define PB_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../core/game.h"

#define EXIT_USAGE 2  /* bad arguments or bad input */

/* Options most subcommands share. */
typedef struct cli_common {
    const char *game;      /* --game, default "nyslice" */
    int players;           /* --players, 0 = the game's default */
    uint64_t seed;         /* --seed */
    bool seed_given;
    const char *deck;      /* --deck FILE (New York Slice) */
    const char *board;     /* --board FILE (Pizza Theory) */
    bool expansion;        /* --expansion (New York Pizza Delivery: the 5-6 player box's cards) */
    bool expansion_powers; /* --expansion-powers (its 26 power cards alone) */
    bool coop;             /* --coop (New York Pizza Delivery's co-op game) */
    int difficulty;        /* --difficulty 1..8 (its row of markers), 0 = the default */
    bool extra_cheese;     /* --extra-cheese (New York Pizza Delivery: the Extra Cheese cards) */
    const char *coop_goals; /* --coop-goals B11,R13,P30,M60 as typed, or NULL */
    int goals[4];          /* its Blue, Red, pizzas and money markers, 0: the row's */
    bool coop_insane;      /* --coop-insane: a back-side promotion token more each time */
    bool coop_easier;      /* --coop-easier: promotion tokens back side up */
    bool top_chef;         /* --top-chef: the die names a Top Chef at the end */
    const char *given;     /* the first of these options given (for play --resume), or NULL */
} cli_common;

/* The options every game command takes, for its getopt_long table. */
enum {
    CLI_OPT_GAME = 500,
    CLI_OPT_PLAYERS,
    CLI_OPT_SEED,
    CLI_OPT_DECK,
    CLI_OPT_BOARD,
    CLI_OPT_EXPANSION,
    CLI_OPT_COOP,
    CLI_OPT_DIFFICULTY,
    CLI_OPT_EXTRA_CHEESE,
    CLI_OPT_COOP_GOALS,
    CLI_OPT_COOP_INSANE,
    CLI_OPT_COOP_EASIER,
    CLI_OPT_TOP_CHEF,
    CLI_OPT_EXPANSION_POWERS
};
#define CLI_COMMON_OPTIONS                                                                             \
    {"game", required_argument, 0, CLI_OPT_GAME}, {"players", required_argument, 0, CLI_OPT_PLAYERS},     \
        {"seed", required_argument, 0, CLI_OPT_SEED}, {"deck", required_argument, 0, CLI_OPT_DECK},       \
        {"board", required_argument, 0, CLI_OPT_BOARD}, {"expansion", no_argument, 0, CLI_OPT_EXPANSION}, \
        {"coop", no_argument, 0, CLI_OPT_COOP}, {"difficulty", required_argument, 0, CLI_OPT_DIFFICULTY}, \
        {"extra-cheese", no_argument, 0, CLI_OPT_EXTRA_CHEESE},                                         \
        {"coop-goals", required_argument, 0, CLI_OPT_COOP_GOALS},                                        \
        {"coop-insane", no_argument, 0, CLI_OPT_COOP_INSANE}, {"coop-easier", no_argument, 0, CLI_OPT_COOP_EASIER}, \
        {"top-chef", no_argument, 0, CLI_OPT_TOP_CHEF},                                                \
        {"expansion-powers", no_argument, 0, CLI_OPT_EXPANSION_POWERS}

/* The co-op options in a usage line, and what they do. */
#define CLI_COOP_HELP                                                              \
    "       [--coop [--difficulty 1..8] [--coop-goals B11,R13,P30,M60]\n"          \
    "        [--coop-insane | --coop-easier] [--top-chef]]\n"
#define CLI_COOP_ABOUT                                                                      \
    "--coop plays the co-op game, --difficulty its row from 1 (hardest) to 8\n"            \
    "(easiest), default 4; --coop-goals moves single markers to another row's value\n"     \
    "(B Blue promotion, R Red promotion, P pizzas, M money; any of them);\n"               \
    "--coop-insane adds a back-side promotion token (one pizza more) to each one\n"        \
    "placed, --coop-easier turns the tokens back side up (one pizza instead of two),\n"   \
    "the player who reached the marker choosing morning or evening; --top-chef\n"         \
    "rolls the die for a Top Chef at the end.\n"

#define CLI_BAD_OPTION '?' /* what cli_getopt returns after printing why */

/* getopt_long for a subcommand: the next option's id, -1 after the last,
 * or CLI_BAD_OPTION after printing what is wrong (an unknown option, an
 * option without its value: "--players needs a number", a value that is
 * another option). */
int cli_getopt(const char *cmd, int argc, char **argv, const struct option *opts);

/* An output file or directory the command will write: 0 when it can be
 * written (its directory exists and is writable), else -1 after printing
 * why. Checked before any game is played. */
int cli_check_output(const char *cmd, const char *opt, const char *path);
int cli_check_output_dir(const char *cmd, const char *opt, const char *dir);

/* The command line that plays g again from seed with the same options
 * (game, players, expansions, co-op row, deck or board file), and the option
 * opt with its value (e.g. "--seats", "human,greedy"); c names the files, or
 * NULL when the game comes from a record. -1 when it cannot be said (a
 * record's own deck or board). */
int cli_command_line(char *buf, size_t n, const char *cmd, const pb_game *g, const cli_common *c,
                     uint64_t seed, const char *opt, const char *value);

/* Print a command line indented by two, wrapped to 80 columns between its
 * words with " \" at the end of each line but the last, as a shell reads it. */
void cli_print_command(FILE *out, const char *line);

/* Take one of those options into c: 1 if opt was one, 0 if not, -1 after
 * printing why its value is bad. */
int cli_common_option(cli_common *c, int opt, const char *arg);

/* Parse a whole decimal number in [min, max]; -1 with a message if not. */
int cli_parse_u64(const char *opt, const char *text, uint64_t min, uint64_t max, uint64_t *out);
int cli_parse_int(const char *opt, const char *text, int min, int max, int *out);

/* Build the game config from the common options and create the game;
 * NULL after printing the reason to stderr. */
pb_game *cli_make_game(const cli_common *c);

/* The number of players a game has when none is asked for (4 for New York
 * Slice, 3 for Pizza Theory); 0 for an unknown game. */
int cli_default_players(const char *game);

/* Print "pizzabox CMD: message" to stderr. */
void cli_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define CLI_SPEC_LEN 64

/* Split a comma list (spaces before a name skipped) into at most max names
 * of fewer than CLI_SPEC_LEN characters; -1 after printing why, naming the
 * option and the item by its noun ("--bots: bot 2 is too long ..."). */
int cli_name_list(const char *cmd, const char *option, const char *noun, const char *list, int max,
                  char (*out)[CLI_SPEC_LEN]);

/* Split a comma list of seat players ("human", bot specs) into out. With
 * players > 0 the list must name every seat or one for all (then copied to
 * every seat); with players = 0 it may name 1..PB_MAX_SEATS seats. Returns
 * the number of seats, or -1 after printing why. */
int cli_seat_list(const char *cmd, const char *list, int players, char (*out)[CLI_SPEC_LEN]);

/* The name of seat i for people: "Seat 1".. */
void cli_seat_name(int seat, char *buf, size_t n);

int cmd_score(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_verify(int argc, char **argv); /* cmd_verify.c */
int cmd_selfplay(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_demo(int argc, char **argv);
int cmd_play(int argc, char **argv);
int cmd_serve(int argc, char **argv);
int cmd_engine(int argc, char **argv); /* cmd_engine.c */
int cmd_analyze(int argc, char **argv); /* cmd_analyze.c */

/* Render a finished New York Slice game's Guest Check as a table. */
void nys_print_guest_check(FILE *out, const pb_game *g, const pb_state *st, const char *const *names);

#endif
