/* cli.c -- option parsing and game creation shared by the subcommands. */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/jsonutil.h"
#include "../core/record.h"
#include "../games/delivery/delivery.h"

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

/* What an option's value is, for "--players needs a number". */
static const char *value_of(const char *opt)
{
    static const struct {
        const char *opt, *value;
    } values[] = {{"game", "a game: nyslice, theory or delivery"},
                  {"players", "a number"},
                  {"seed", "a number"},
                  {"games", "a number"},
                  {"threads", "a number"},
                  {"difficulty", "a row from 1 (hardest) to 8 (easiest)"},
                  {"coop-goals", "markers, e.g. B11,R13,P30,M60"},
                  {"port", "a number"},
                  {"bot-threads", "a number"},
                  {"seats", "a list of seats, e.g. human,greedy"},
                  {"bots", "a bot or a list of bots, e.g. greedy,random"},
                  {"hint", "a bot, e.g. greedy"},
                  {"shard", "i/k, e.g. 1/4"},
                  {"code", "a table's code"},
                  {"record-dir", "a directory"},
                  {"web", "a directory"}};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
        if (strcmp(values[i].opt, opt) == 0)
            return values[i].value;
    return "a file name";
}

int cli_getopt(const char *cmd, int argc, char **argv, const struct option *opts)
{
    int index = -1;
    int opt = getopt_long(argc, argv, ":", opts, &index);
    const char *arg = argv[optind - 1];
    if (opt == ':' || opt == '?') {
        /* the option as typed, without a value given with = */
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)strcspn(arg, "="), arg);
        for (int i = 0; opt == ':' && opts[i].name; i++)
            if (opts[i].val == optopt && opts[i].has_arg == required_argument) {
                cli_error(cmd, "--%s needs %s", opts[i].name, value_of(opts[i].name));
                return CLI_BAD_OPTION;
            }
        cli_error(cmd, "unknown option '%s' (see pizzabox %s --help)", name, cmd);
        return CLI_BAD_OPTION;
    }
    /* "--record --seed 3" would take "--seed" for the file */
    if (opt > 0 && index >= 0 && opts[index].has_arg == required_argument && strncmp(optarg, "--", 2) == 0) {
        cli_error(cmd, "--%s needs %s, not the option '%s'", opts[index].name, value_of(opts[index].name), optarg);
        return CLI_BAD_OPTION;
    }
    return opt;
}

/* 0 when dir is a directory we may create files in; else -1 after saying
 * so for path. */
static int writable_dir(const char *cmd, const char *opt, const char *path, const char *dir)
{
    struct stat sb;
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        cli_error(cmd, "%s %s: there is no directory %s", opt, path, dir);
        return -1;
    }
    if (access(dir, W_OK | X_OK) != 0) {
        cli_error(cmd, "%s %s: cannot write in %s: %s", opt, path, dir, strerror(errno));
        return -1;
    }
    return 0;
}

/* The directory part of path ("." for a bare name) into buf. */
static void dir_of(const char *path, char *buf, size_t n)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(buf, n, ".");
    else if (slash == path)
        snprintf(buf, n, "/");
    else
        snprintf(buf, n, "%.*s", (int)(slash - path), path);
}

/* A file (or with want_dir a directory) the command will write at path:
 * either it exists as such and may be written, or its directory may be
 * written in. */
static int check_output(const char *cmd, const char *opt, const char *path, bool want_dir)
{
    struct stat sb;
    char dir[4096];
    if (!*path) {
        cli_error(cmd, "%s needs %s", opt, want_dir ? "a directory" : "a file name");
        return -1;
    }
    if (stat(path, &sb) != 0) {
        dir_of(path, dir, sizeof dir);
        return writable_dir(cmd, opt, path, dir);
    }
    if ((S_ISDIR(sb.st_mode) != 0) != want_dir) {
        cli_error(cmd, "%s %s: that is a %s", opt, path, want_dir ? "file, not a directory" : "directory, not a file");
        return -1;
    }
    if (want_dir)
        return writable_dir(cmd, opt, path, path);
    if (access(path, W_OK) != 0) {
        cli_error(cmd, "%s %s: cannot write it: %s", opt, path, strerror(errno));
        return -1;
    }
    return 0;
}

int cli_check_output(const char *cmd, const char *opt, const char *path)
{
    return check_output(cmd, opt, path, false);
}

int cli_check_output_dir(const char *cmd, const char *opt, const char *dir)
{
    return check_output(cmd, opt, dir, true);
}

/* Append " word" to buf, quoted for the shell when it needs it. */
static void append_word(char *buf, size_t n, const char *word)
{
    size_t len = strlen(buf);
    if (len + 3 >= n) /* full: the caller sees it */
        return;
    bool plain = *word && strspn(word, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./,:=+@") ==
                              strlen(word);
    if (plain) {
        snprintf(buf + len, n - len, " %s", word);
        return;
    }
    len += (size_t)snprintf(buf + len, n - len, " '");
    for (const char *c = word; *c && len + 5 < n; c++)
        len += (size_t)snprintf(buf + len, n - len, *c == '\'' ? "'\\''" : "%c", *c);
    snprintf(buf + len, n - len, "'");
}

int cli_command_line(char *buf, size_t n, const char *cmd, const pb_game *g, const cli_common *c,
                     uint64_t seed, const char *opt, const char *value)
{
    const json_t *cfg = g->config;
    const char *file_opt = json_object_get(cfg, "deck") ? "--deck" : json_object_get(cfg, "board") ? "--board" : NULL;
    const char *file = !file_opt || !c ? NULL : c->deck ? c->deck : c->board;
    if ((file_opt && !file) || json_object_get(cfg, "map") || json_object_get(cfg, "cards"))
        return -1;
    snprintf(buf, n, "pizzabox %s --game %s --players %d", cmd, g->ops->id, g->players);
    /* the 5-6 player box's cards come by themselves at 5 and 6 */
    if (json_is_true(json_object_get(cfg, "expansion")) && g->players < 5)
        append_word(buf, n, "--expansion");
    if (json_is_true(json_object_get(cfg, "expansion_powers")))
        append_word(buf, n, "--expansion-powers");
    if (json_is_true(json_object_get(cfg, "extra_cheese")))
        append_word(buf, n, "--extra-cheese");
    if (json_is_true(json_object_get(cfg, "coop"))) {
        char row[32], goals[64] = "";
        int r = (int)json_integer_value(json_object_get(cfg, "difficulty"));
        snprintf(row, sizeof row, "%d", r);
        append_word(buf, n, "--coop");
        append_word(buf, n, "--difficulty");
        append_word(buf, n, row);
        /* the markers moved off the row */
        static const char *const keys[4] = {"blue", "red", "pizzas", "money"};
        for (int k = 0; k < 4 && r >= 1 && r <= PD_DIFFICULTIES; k++) {
            int v = (int)json_integer_value(json_object_get(cfg, keys[k]));
            if (v && v != pd_difficulty[r - 1][k])
                snprintf(goals + strlen(goals), sizeof goals - strlen(goals), "%s%c%d", *goals ? "," : "", "BRPM"[k], v);
        }
        if (*goals) {
            append_word(buf, n, "--coop-goals");
            append_word(buf, n, goals);
        }
        static const char *const flags[3][2] = {
            {"coop_insane", "--coop-insane"}, {"coop_easier", "--coop-easier"}, {"top_chef", "--top-chef"}};
        for (int k = 0; k < 3; k++)
            if (json_is_true(json_object_get(cfg, flags[k][0])))
                append_word(buf, n, flags[k][1]);
    }
    if (file) {
        append_word(buf, n, file_opt);
        append_word(buf, n, file);
    }
    append_word(buf, n, opt);
    append_word(buf, n, value);
    size_t len = strlen(buf);
    snprintf(buf + len, n - len, " --seed %llu", (unsigned long long)seed);
    return strlen(buf) + 1 < n ? 0 : -1; /* a command cut short would do something else */
}

void cli_print_command(FILE *out, const char *line)
{
    int col = fprintf(out, "  ");
    for (const char *w = line; *w;) {
        int len = 0; /* 'a b' and it\'s are one word */
        for (bool quoted = false; w[len] && (quoted || w[len] != ' '); len++)
            if (!quoted && w[len] == '\\' && w[len + 1])
                len++;
            else
                quoted ^= w[len] == '\'';
        if (col > 2 && col + 1 + len + 2 > 80) { /* room for " \\" */
            fprintf(out, " \\\n    ");
            col = 4;
        } else if (col > 2) {
            col += fprintf(out, " ");
        }
        col += fprintf(out, "%.*s", len, w);
        w += len;
        w += strspn(w, " ");
    }
    fprintf(out, "\n");
}

/* A game's title from its id, or NULL for no such game. */
static const char *game_title(const char *id)
{
    const pb_game_ops *ops = pb_game_find(id);
    return ops ? ops->title : NULL;
}

/* Options that belong to one game: a sentence when given for another. */
static int check_game_options(const cli_common *c)
{
    const char *title = game_title(c->game);
    if (!title) {
        fprintf(stderr, "pizzabox: --game %s: there is no such game (%s", c->game, pb_games[0]->id);
        for (int i = 1; pb_games[i]; i++)
            fprintf(stderr, "%s%s", pb_games[i + 1] ? ", " : " or ", pb_games[i]->id);
        fprintf(stderr, ")\n");
        return -1;
    }
    const struct {
        bool given;
        const char *opt, *game;
    } owned[] = {{c->deck != NULL, "--deck", "nyslice"},   {c->board != NULL, "--board", "theory"},
                 {c->expansion, "--expansion", "delivery"}, {c->extra_cheese, "--extra-cheese", "delivery"},
                 {c->expansion_powers, "--expansion-powers", "delivery"},
                 {c->coop, "--coop", "delivery"},           {c->difficulty > 0, "--difficulty", "delivery"},
                 {c->coop_goals != NULL, "--coop-goals", "delivery"}, {c->coop_insane, "--coop-insane", "delivery"},
                 {c->coop_easier, "--coop-easier", "delivery"}, {c->top_chef, "--top-chef", "delivery"}};
    for (size_t i = 0; i < sizeof owned / sizeof owned[0]; i++)
        if (owned[i].given && strcmp(owned[i].game, c->game) != 0) {
            fprintf(stderr, "pizzabox: %s is for %s (add --game %s); this game is %s\n", owned[i].opt,
                    game_title(owned[i].game), owned[i].game, title);
            return -1;
        }
    if (c->difficulty && !c->coop) {
        fprintf(stderr, "pizzabox: --difficulty picks the co-op game's row: add --coop\n");
        return -1;
    }
    const struct {
        bool given;
        const char *opt, *what;
    } coop_only[] = {{c->coop_goals != NULL, "--coop-goals", "sets the co-op game's markers"},
                     {c->coop_insane, "--coop-insane", "is the co-op game's Insane Difficulty"},
                     {c->coop_easier, "--coop-easier", "is the co-op game's Easier Mode"},
                     {c->top_chef, "--top-chef", "names the co-op team's Top Chef"}};
    for (size_t i = 0; i < sizeof coop_only / sizeof coop_only[0]; i++)
        if (coop_only[i].given && !c->coop) {
            fprintf(stderr, "pizzabox: %s %s: add --coop\n", coop_only[i].opt, coop_only[i].what);
            return -1;
        }
    if (c->coop_insane && c->coop_easier) {
        fprintf(stderr, "pizzabox: --coop-insane and --coop-easier cannot go together: Insane adds a pizza to each "
                        "promotion, Easier takes one away\n");
        return -1;
    }
    return 0;
}

/* --coop-goals: any of B (Blue promotion), R (Red promotion), P (pizzas) and
 * M (money) with one of its column's values in the co-op table, by commas;
 * the others stay the row's. Given again, it adds markers (one set twice is
 * refused). A bad part is named. */
static int parse_goals(const char *text, int *goals)
{
    static const char letters[] = "BRPM";
    const char *p = text;
    do {
        size_t len = strcspn(p, ",");
        const char *at = *p && *p != ',' ? strchr(letters, toupper((unsigned char)*p)) : NULL;
        int k = at ? (int)(at - letters) : -1;
        if (k < 0 || len < 2 || len > 4 || strspn(p + 1, "0123456789") != len - 1) {
            fprintf(stderr, "pizzabox: --coop-goals: '%.*s' is not a marker: B (Blue promotion), R (Red promotion), "
                            "P (pizzas) or M (money) and a number, e.g. B11,R13,P30,M60\n", (int)len, p);
            return -1;
        }
        int v = atoi(p + 1);
        if (goals[k]) {
            fprintf(stderr, "pizzabox: --coop-goals: '%.*s': %c is given twice\n", (int)len, p, letters[k]);
            return -1;
        }
        if (pd_marker_row(k, v) < 0) {
            char values[64];
            pd_marker_values(k, values, sizeof values);
            fprintf(stderr, "pizzabox: --coop-goals: '%.*s' is not on the co-op table: %c takes %s\n", (int)len, p,
                    letters[k], values);
            return -1;
        }
        goals[k] = v;
        p += len;
    } while (*p++ == ',');
    return 0;
}

int cli_common_option(cli_common *c, int opt, const char *arg)
{
    uint64_t v;
    if (opt >= CLI_OPT_GAME && opt <= CLI_OPT_EXPANSION_POWERS && !c->given) {
        static const char *const names[] = {"--game",        "--players",    "--seed",        "--deck",
                                            "--board",       "--expansion",  "--coop",        "--difficulty",
                                            "--extra-cheese", "--coop-goals", "--coop-insane", "--coop-easier",
                                            "--top-chef",    "--expansion-powers"};
        c->given = names[opt - CLI_OPT_GAME];
    }
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
    case CLI_OPT_EXPANSION_POWERS:
        c->expansion_powers = true;
        return 1;
    case CLI_OPT_COOP:
        c->coop = true;
        return 1;
    case CLI_OPT_DIFFICULTY: /* the game names the rows; it says what is wrong */
        return cli_parse_int("--difficulty", arg, 1, 99, &c->difficulty) ? -1 : 1;
    case CLI_OPT_EXTRA_CHEESE:
        c->extra_cheese = true;
        return 1;
    case CLI_OPT_COOP_GOALS:
        c->coop_goals = arg;
        return parse_goals(arg, c->goals) ? -1 : 1;
    case CLI_OPT_COOP_INSANE:
        c->coop_insane = true;
        return 1;
    case CLI_OPT_COOP_EASIER:
        c->coop_easier = true;
        return 1;
    case CLI_OPT_TOP_CHEF:
        c->top_chef = true;
        return 1;
    default:
        return 0;
    }
}

int cli_name_list(const char *cmd, const char *option, const char *noun, const char *list, int max,
                  char (*out)[CLI_SPEC_LEN])
{
    int n = 0;
    for (const char *w = list;; n++) {
        w += strspn(w, " ");
        size_t len = strcspn(w, ",");
        if (n == max) {
            cli_error(cmd, "%s: at most %d %ss", option, max, noun);
            return -1;
        }
        if (len == 0) {
            cli_error(cmd, "%s: %s %d is empty", option, noun, n + 1);
            return -1;
        }
        if (len >= CLI_SPEC_LEN) { /* refused, never cut short into another name */
            cli_error(cmd, "%s: %s %d is too long (%zu characters; at most %d)", option, noun, n + 1, len,
                      CLI_SPEC_LEN - 1);
            return -1;
        }
        snprintf(out[n], CLI_SPEC_LEN, "%.*s", (int)len, w);
        if (w[len] == '\0')
            return n + 1;
        w += len + 1;
    }
}

int cli_seat_list(const char *cmd, const char *list, int players, char (*out)[CLI_SPEC_LEN])
{
    const char *option = players > 0 ? "--bots" : "--seats";
    int n = cli_name_list(cmd, option, "seat", list, PB_MAX_SEATS, out);
    if (n < 0)
        return -1;
    if (players > 0 && n != 1 && n != players) {
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
    if (check_game_options(c) != 0)
        return NULL;
    char err[PB_ERR_LEN];
    json_t *config = json_object();
    if (c->players)
        json_object_set_new(config, "players", json_integer(c->players));
    if (c->expansion)
        json_object_set_new(config, "expansion", json_true());
    if (c->expansion_powers)
        json_object_set_new(config, "expansion_powers", json_true());
    if (c->coop)
        json_object_set_new(config, "coop", json_true());
    if (c->difficulty)
        json_object_set_new(config, "difficulty", json_integer(c->difficulty));
    if (c->extra_cheese)
        json_object_set_new(config, "extra_cheese", json_true());
    static const char *const marker_keys[4] = {"blue", "red", "pizzas", "money"};
    for (int k = 0; k < 4; k++)
        if (c->goals[k])
            json_object_set_new(config, marker_keys[k], json_integer(c->goals[k]));
    const struct {
        bool on;
        const char *key;
    } options[] = {{c->coop_insane, "coop_insane"}, {c->coop_easier, "coop_easier"}, {c->top_chef, "top_chef"}};
    for (size_t k = 0; k < sizeof options / sizeof options[0]; k++)
        if (options[k].on)
            json_object_set_new(config, options[k].key, json_true());
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
