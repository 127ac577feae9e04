/* cli.c -- option parsing and game creation shared by the subcommands. */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../core/jsonutil.h"
#include "../core/record.h"

void cli_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "pizzabox %s: ", cmd);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

int cli_parse_u64(const char *opt, const char *text, uint64_t min, uint64_t max, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (!isdigit((unsigned char)text[0]) || *end || errno || v < min || v > max) {
        fprintf(stderr, "pizzabox: %s needs a whole number from %llu to %llu, not '%s'\n", opt,
                (unsigned long long)min, (unsigned long long)max, text);
        return -1;
    }
    *out = v;
    return 0;
}

int cli_parse_int(const char *opt, const char *text, int min, int max, int *out)
{
    uint64_t v;
    if (cli_parse_u64(opt, text, (uint64_t)min, (uint64_t)max, &v) != 0)
        return -1;
    *out = (int)v;
    return 0;
}

int cli_common_option(cli_common *c, int opt, const char *arg)
{
    uint64_t v;
    switch (opt) {
    case CLI_OPT_GAME:
        c->game = arg;
        return 1;
    case CLI_OPT_PLAYERS:
        return cli_parse_int("--players", arg, 1, PB_MAX_SEATS, &c->players) ? -1 : 1;
    case CLI_OPT_SEED:
        if (cli_parse_u64("--seed", arg, 0, PB_SEED_MAX, &v))
            return -1;
        c->seed = v;
        c->seed_given = true;
        return 1;
    case CLI_OPT_DECK:
        c->deck = arg;
        return 1;
    case CLI_OPT_BOARD:
        c->board = arg;
        return 1;
    case CLI_OPT_EXPANSION:
        c->expansion = true;
        return 1;
    case CLI_OPT_COOP:
        c->coop = true;
        return 1;
    case CLI_OPT_DIFFICULTY: /* the game names the rows; it says what is wrong */
        return cli_parse_int("--difficulty", arg, 1, 99, &c->difficulty) ? -1 : 1;
    case CLI_OPT_EXTRA_CHEESE:
        c->extra_cheese = true;
        return 1;
    default:
        return 0;
    }
}

int cli_seat_list(const char *cmd, const char *list, int players, char (*out)[CLI_SPEC_LEN])
{
    char copy[512];
    int n = 0;
    snprintf(copy, sizeof copy, "%s", list);
    for (char *save, *w = strtok_r(copy, ",", &save); w; w = strtok_r(NULL, ",", &save), n++) {
        while (*w == ' ')
            w++;
        if (n == PB_MAX_SEATS || strlen(w) >= CLI_SPEC_LEN) {
            cli_error(cmd, n == PB_MAX_SEATS ? "at most %d seats" : "seat %d: that name is too long",
                      n == PB_MAX_SEATS ? PB_MAX_SEATS : n + 1);
            return -1;
        }
        snprintf(out[n], CLI_SPEC_LEN, "%s", w);
    }
    if (n == 0 || (players > 0 && n != 1 && n != players)) {
        cli_error(cmd, "--bots needs one bot for every seat (%d), or one for all", players);
        return -1;
    }
    if (players > 0)
        for (int q = n; q < players; q++)
            memcpy(out[q], out[0], CLI_SPEC_LEN);
    return players > 0 ? players : n;
}

void cli_seat_name(int seat, char *buf, size_t n)
{
    snprintf(buf, n, "Seat %d", seat + 1);
}

/* Put the JSON file at path into config[key]; -1 after printing why not. */
static int load_part(json_t *config, const char *key, const char *path)
{
    char err[PB_ERR_LEN];
    char *text = pb_read_file(path, 1 << 20, err, sizeof err);
    if (!text) {
        fprintf(stderr, "pizzabox: %s\n", err);
        return -1;
    }
    char prefix[256];
    snprintf(prefix, sizeof prefix, "%s %s: ", key, path);
    json_t *part = pb_json_parse(text, prefix, err, sizeof err);
    free(text);
    if (!part) {
        fprintf(stderr, "pizzabox: %s\n", err);
        return -1;
    }
    json_object_set_new(config, key, part);
    return 0;
}

pb_game *cli_make_game(const cli_common *c)
{
    char err[PB_ERR_LEN];
    json_t *config = json_object();
    if (c->players)
        json_object_set_new(config, "players", json_integer(c->players));
    if (c->expansion)
        json_object_set_new(config, "expansion", json_true());
    if (c->coop)
        json_object_set_new(config, "coop", json_true());
    if (c->difficulty)
        json_object_set_new(config, "difficulty", json_integer(c->difficulty));
    if (c->extra_cheese)
        json_object_set_new(config, "extra_cheese", json_true());
    if ((c->deck && load_part(config, "deck", c->deck) != 0) ||
        (c->board && load_part(config, "board", c->board) != 0)) {
        json_decref(config);
        return NULL;
    }
    const char *file = c->deck ? c->deck : c->board;
    pb_game *g = pb_game_new(c->game, config, err, sizeof err);
    json_decref(config);
    if (!g)
        fprintf(stderr, "pizzabox: %s%s%s\n", file ? file : "", file ? ": " : "", err);
    return g;
}

int cli_default_players(const char *game)
{
    char err[PB_ERR_LEN];
    pb_game *g = pb_game_new(game, NULL, err, sizeof err);
    int n = g ? g->players : 0;
    pb_game_free(g);
    return n;
}
