/* engine.c -- the engine protocol's decoder and session (docs/engine.md).
 *
 * The session holds one game and a stack of states: the first from the
 * seed, one more for every move played or determinization made, so `undo`
 * is a pop. Every answer is written to a memory buffer first and sent only
 * when the command succeeded: a refused command answers with its error line
 * alone and leaves the session as it was. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../ai/bot.h"
#include "../core/record.h"
#include "../core/text.h"
#include "engine.h"

#define WORD_LEN 64 /* a command word, a seat, a seed or a bot spec */

typedef struct entry {
    pb_state *st;
    char how[256]; /* the move that led here ("" for the first state), or "determinize SEAT" */
} entry;

struct pb_engine {
    pb_game *g;
    uint64_t seed;
    entry *stack; /* stack[0] the state from the seed, stack[depth] the current one */
    int depth, cap;
};

pb_engine *pb_engine_new(void)
{
    return calloc(1, sizeof(pb_engine));
}

static void drop_game(pb_engine *e)
{
    for (int i = 0; e->stack && i <= e->depth; i++)
        free(e->stack[i].st);
    free(e->stack);
    pb_game_free(e->g);
    e->g = NULL;
    e->stack = NULL;
    e->depth = e->cap = 0;
}

void pb_engine_free(pb_engine *e)
{
    if (!e)
        return;
    drop_game(e);
    free(e);
}

static pb_state *current(const pb_engine *e)
{
    return e->stack[e->depth].st;
}

/* Push a copy of the current state, to be changed by the caller; NULL when
 * out of memory. */
static pb_state *push(pb_engine *e, const char *how)
{
    if (e->depth + 1 >= e->cap) {
        int cap = e->cap * 2;
        entry *s = realloc(e->stack, sizeof *s * (size_t)cap);
        if (!s)
            return NULL;
        e->stack = s;
        e->cap = cap;
    }
    pb_state *st = pb_state_clone(e->g, current(e));
    if (!st)
        return NULL;
    e->depth++;
    e->stack[e->depth].st = st;
    snprintf(e->stack[e->depth].how, sizeof e->stack[e->depth].how, "%s", how);
    return st;
}

static void pop(pb_engine *e)
{
    free(e->stack[e->depth].st);
    e->depth--;
}

/* ---- reading arguments ---- */

static const char *skip_blanks(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

/* The next blank-separated word of *p into buf (n bytes); 0 when there is
 * none, -1 when it is too long. */
static int next_word(const char **p, char *buf, size_t n)
{
    const char *s = skip_blanks(*p);
    size_t len = strcspn(s, " \t");
    *p = s + len;
    if (len >= n)
        return -1;
    memcpy(buf, s, len);
    buf[len] = 0;
    return len ? 1 : 0;
}

static int fail(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
    return -1;
}

static int parse_seed(const char *text, uint64_t *out, char *err, size_t n)
{
    char *end;
    errno = 0;
    unsigned long long v = isdigit((unsigned char)text[0]) ? strtoull(text, &end, 10) : 0;
    if (!isdigit((unsigned char)text[0]) || *end || errno || v > PB_SEED_MAX)
        return fail(err, n, "seed '%s' must be a whole number from 0 to %llu", text,
                    (unsigned long long)PB_SEED_MAX);
    *out = v;
    return 0;
}

/* An optional seed word, else `fallback`. */
static int optional_seed(const char **p, uint64_t fallback, uint64_t *out, char *err, size_t n)
{
    char word[WORD_LEN];
    int got = next_word(p, word, sizeof word);
    if (got < 0)
        return fail(err, n, "seed too long");
    *out = fallback;
    return got ? parse_seed(word, out, err, n) : 0;
}

/* A seat number of the game, or with `spectator_ok` the word "spectator". */
static int parse_seat(const pb_engine *e, const char **p, bool spectator_ok, int *seat, char *err, size_t n)
{
    char word[WORD_LEN];
    int got = next_word(p, word, sizeof word);
    const char *or_spec = spectator_ok ? " or 'spectator'" : "";
    if (got <= 0)
        return fail(err, n, "give a seat: 0 to %d%s", e->g->players - 1, or_spec);
    if (spectator_ok && strcmp(word, "spectator") == 0) {
        *seat = PB_SPECTATOR;
        return 0;
    }
    char *end;
    long v = isdigit((unsigned char)word[0]) ? strtol(word, &end, 10) : -1;
    if (v < 0 || *end || v >= e->g->players)
        return fail(err, n, "no seat '%s': seats are 0 to %d%s", word, e->g->players - 1, or_spec);
    *seat = (int)v;
    return 0;
}

static int no_more(const char *p, const char *cmd, char *err, size_t n)
{
    p = skip_blanks(p);
    return *p ? fail(err, n, "%s: unexpected '%.40s'", cmd, p) : 0;
}

/* ---- writing answers ---- */

/* A data line: the keyword, a blank and the text on one line. */
static void put(FILE *o, const char *key, const char *text)
{
    fprintf(o, "%s ", key);
    for (const char *s = text; *s; s++)
        fputc(*s == '\n' || *s == '\r' ? ' ' : *s, o);
    fputc('\n', o);
}

static int put_json(FILE *o, const char *key, json_t *j, char *err, size_t n)
{
    char *s = j ? json_dumps(j, JSON_COMPACT) : NULL;
    json_decref(j);
    if (!s)
        return fail(err, n, "out of memory");
    put(o, key, s);
    free(s);
    return 0;
}

static void put_seat(const pb_engine *e, FILE *o)
{
    int seat = pb_current_seat(e->g, current(e));
    if (seat == PB_TERMINAL)
        fprintf(o, "seat over\n");
    else
        fprintf(o, "seat %d\n", seat);
}

/* ---- commands ---- */

typedef int (*command_fn)(pb_engine *e, const char *args, FILE *o, char *err, size_t n);

static int cmd_help(pb_engine *e, const char *args, FILE *o, char *err, size_t n);

static int cmd_games(pb_engine *e, const char *args, FILE *o, char *err, size_t n)
{
    (void)e;
    if (no_more(args, "games", err, n))
        return -1;
    for (int i = 0; pb_games[i]; i++)
        fprintf(o, "game %s %d %d %s\n", pb_games[i]->id, pb_games[i]->min_players, pb_games[i]->max_players,
                pb_games[i]->title);
    return 0;
}

/* Replace the session's game with g (taken) from seed. */
static int start(pb_engine *e, pb_game *g, uint64_t seed, char *err, size_t n)
{
    entry *stack = malloc(sizeof *stack * 64);
    pb_state *st = stack ? pb_state_new(g, seed) : NULL;
    if (!st) {
        free(stack);
        pb_game_free(g);
        return fail(err, n, "out of memory");
    }
    drop_game(e);
    e->g = g;
    e->seed = seed;
    e->stack = stack;
    e->cap = 64;
    e->stack[0].st = st;
    e->stack[0].how[0] = 0;
    return 0;
}

static void put_game(const pb_engine *e, FILE *o)
{
    fprintf(o, "game %s\nplayers %d\n", e->g->ops->id, e->g->players);
    char *config = json_dumps(e->g->config, JSON_COMPACT | JSON_SORT_KEYS);
    if (config)
        put(o, "config", config);
    free(config);
    put_seat(e, o);
}

static int cmd_new(pb_engine *e, const char *args, FILE *o, char *err, size_t n)
{
    char id[WORD_LEN], seed_text[WORD_LEN];
    int got_id = next_word(&args, id, sizeof id);
    int got_seed = got_id > 0 ? next_word(&args, seed_text, sizeof seed_text) : 0;
    if (got_id < 0 || got_seed < 0)
        return fail(err, n, "new: the game or the seed is too long (new GAME SEED [CONFIG])");
    if (!got_id || !got_seed)
        return fail(err, n, "new needs a game and a seed: new GAME SEED [CONFIG]");
    uint64_t seed;
    if (parse_seed(seed_text, &seed, err, n))
        return -1;
    if (!pb_game_find(id))
        return fail(err, n, "unknown game '%s' (games lists them)", id);
    json_t *config = NULL;
    args = skip_blanks(args);
    if (*args) {
        json_error_t jerr;
        config = json_loads(args, JSON_REJECT_DUPLICATES, &jerr);
        if (!config)
            return fail(err, n, "config is not valid JSON: %s (at column %d)", jerr.text, jerr.column);
        if (!json_is_object(config)) {
            json_decref(config);
            return fail(err, n, "config must be a JSON object, e.g. {\"players\":4}");
        }
    }
    char why[PB_ERR_LEN];
    pb_game *g = pb_game_new(id, config, why, sizeof why);
    json_decref(config);
    if (!g)
        return fail(err, n, "bad config: %s", why);
    if (start(e, g, seed, err, n))
        return -1;
    put_game(e, o);
    return 0;
}

/* Apply a move given in notation on a new top state; its notation as the
 * game writes it into `played`. */
static int play_text(pb_engine *e, const char *text, char *played, size_t pn, char *err, size_t n)
{
    if (pb_is_terminal(e->g, current(e)))
        return fail(err, n, "the game is over: no move '%s'", text);
    pb_action a;
    char why[PB_ERR_LEN];
    if (e->g->ops->action_from_text(e->g, current(e), text, &a, why, sizeof why) != 0)
        return fail(err, n, "illegal move '%s': %s", text, why);
    if (e->g->ops->action_to_text(e->g, current(e), a, played, pn) != 0)
        snprintf(played, pn, "%s", text);
    pb_state *st = push(e, played);
    if (!st)
        return fail(err, n, "out of memory");
    if (e->g->ops->apply(e->g, st, a, why, sizeof why) != 0) {
        pop(e);
        return fail(err, n, "illegal move '%s': %s", text, why);
    }
    return 0;
}

static int cmd_load(pb_engine *e, const char *args, FILE *o, char *err, size_t n)
{
    args = skip_blanks(args);
    if (!*args)
        return fail(err, n, "load needs a game record as JSON on the same line");
    pb_replay r;
    char why[PB_ERR_LEN];
    if (pb_replay_text(args, &r, why, sizeof why) != 0)
        return fail(err, n, "bad record: %s", why);
    /* Played again move by move, so that undo reaches back to the start. */
    json_t *rec = pb_record_to_json(r.record);
    uint64_t seed = pb_record_seed(r.record);
    pb_game *g = r.game;
    r.game = NULL;
    pb_replay_free(&r);
    int rc = start(e, g, seed, err, n);
    json_t *actions = json_object_get(rec, "actions");
    size_t i;
    json_t *action;
    json_array_foreach(actions, i, action) {
        char played[256];
        if (rc == 0 && (rc = play_text(e, json_string_value(action), played, sizeof played, err, n)) != 0)
            drop_game(e); /* cannot happen: the record replayed */
    }
    json_decref(rec);
    if (rc)
        return -1;
    put_game(e, o);
    fprintf(o, "moves %d\n", e->depth);
    return 0;
}

static int cmd_seat(pb_engine *e, const char *args, FILE *o, char *err, size_t n)
{
    if (no_more(args, "seat", err, n))
        return -1;
    put_seat(e, o);
    return 0;
}

static int cmd_view(pb_engine *e, const char *args, FILE *o, char *err, size_t n)
{
    int seat;
    if (parse_seat(e, &args, true, &seat, err, n) || no_more(args, "view", err, n))
        return -1;
    return put_json(o, "view", e->g->ops->view(e->g, current(e), seat), err, n);
}

static int cmd_glossary(pb_engine *e, const char *args, FILE *o, char *err, size_t n)
{
    if (no_more(args, "glossary", err, n))
        return -1;
    const pb_game_ops *ops = e->g->ops;
    return put_json(o, "glossary", ops->glossary ? ops->glossary(e->g) : json_object(), err, n);
}

static int cmd_moves(pb_engine *e, const char *args, FILE *o, char *err, size_t n)
{
    if (no_more(args, "moves", err, n))
        return -1;
    pb_action *legal = malloc(sizeof *legal * PB_MAX_ACTIONS);
    if (!legal)
        return fail(err, n, "out of memory");
    int count = pb_is_terminal(e->g, current(e)) ? 0 : e->g->ops->legal_actions(e->g, current(e), legal);
    fprintf(o, "count %d\n", count);
    for (int i = 0; i < count; i++) {
        char text[256];
        if (e->g->ops->action_to_text(e->g, current(e), legal[i], text, sizeof text) == 0)
            put(o, "move", text);
    }
    free(legal);
    return 0;
}

static int cmd_play(pb_engine *e, const char *args, FILE *o, char *err, size_t n)
{
    args = skip_blanks(args);
    if (!*args)
        return fail(err, n, "play needs a move in notation (moves lists them)");
    char played[256], news[768];
    if (play_text(e, args, played, sizeof played, err, n))
        return -1;
    put(o, "played", played);
    pb_news(e->g, e->stack[e->depth - 1].st, current(e), NULL, news, sizeof news);
    if (news[0])
        put(o, "news", news);
    put_seat(e, o);
    return 0;
}

static int cmd_undo(pb_engine *e, const char *args, FILE *o, char *err, size_t n)
{
    if (no_more(args, "undo", err, n))
        return -1;
    if (e->depth == 0)
        return fail(err, n, "nothing to undo: this is the game's first position");
    put(o, "undone", e->stack[e->depth].how);
    pop(e);
    put_seat(e, o);
    return 0;
}

static int cmd_history(pb_engine *e, const char *args, FILE *o, char *err, size_t n)
{
    if (no_more(args, "history", err, n))
        return -1;
    fprintf(o, "count %d\n", e->depth);
    for (int i = 1; i <= e->depth; i++)
        put(o, strncmp(e->stack[i].how, "determinize ", 12) == 0 ? "step" : "move", e->stack[i].how);
    return 0;
}

static int cmd_determinize(pb_engine *e, const char *args, FILE *o, char *err, size_t n)
{
    int seat;
    uint64_t seed;
    if (parse_seat(e, &args, false, &seat, err, n) ||
        optional_seed(&args, pb_derive_seed(e->seed, 0xde7000u + (unsigned)e->depth), &seed, err, n) ||
        no_more(args, "determinize", err, n))
        return -1;
    char how[256];
    snprintf(how, sizeof how, "determinize %d", seat);
    pb_state *st = push(e, how);
    if (!st)
        return fail(err, n, "out of memory");
    pb_rng rng;
    pb_rng_seed(&rng, seed);
    e->g->ops->determinize(e->g, st, seat, &rng);
    put_seat(e, o);
    return 0;
}

static int cmd_score(pb_engine *e, const char *args, FILE *o, char *err, size_t n)
{
    if (no_more(args, "score", err, n))
        return -1;
    const pb_state *st = current(e);
    if (!pb_is_terminal(e->g, st))
        return fail(err, n, "the game is not over: seat %d to move", pb_current_seat(e->g, st));
    int totals[PB_MAX_SEATS];
    double result[PB_MAX_SEATS];
    e->g->ops->totals(e->g, st, totals);
    e->g->ops->returns(e->g, st, result);
    fprintf(o, "totals");
    for (int i = 0; i < e->g->players; i++)
        fprintf(o, " %d", totals[i]);
    fprintf(o, "\nresult");
    for (int i = 0; i < e->g->players; i++)
        fprintf(o, " %.4g", result[i]);
    fprintf(o, "\n");
    return put_json(o, "report", e->g->ops->score_report(e->g, st, NULL), err, n);
}

/* The search's root moves, when they are the position's own: not for a
 * move joined from parts, whose values are its last part's. */
static void put_candidates(const pb_engine *e, const pb_bot *b, pb_action chosen, FILE *o)
{
    pb_move_value *v = malloc(sizeof *v * PB_MAX_ACTIONS);
    int count = v ? pb_bot_values(b, v, PB_MAX_ACTIONS) : 0, own = 0;
    for (int i = 0; i < count; i++)
        own |= v[i].action == chosen;
    for (int i = 0; own && i < count; i++) {
        char text[256];
        if (e->g->ops->action_to_text(e->g, current(e), v[i].action, text, sizeof text) == 0)
            fprintf(o, "candidate %ld %.4f %s\n", v[i].visits, v[i].value, text);
    }
    free(v);
}

static int cmd_think(pb_engine *e, const char *args, FILE *o, char *err, size_t n)
{
    char spec[WORD_LEN] = "expert";
    uint64_t seed;
    if (next_word(&args, spec, sizeof spec) < 0)
        return fail(err, n, "bot spec too long");
    if (!spec[0])
        snprintf(spec, sizeof spec, "expert");
    if (optional_seed(&args, pb_derive_seed(e->seed, 0x7000u + (unsigned)e->depth), &seed, err, n) ||
        no_more(args, "think", err, n))
        return -1;
    int seat = pb_current_seat(e->g, current(e));
    if (seat == PB_TERMINAL)
        return fail(err, n, "the game is over: nothing to think about");
    char why[PB_ERR_LEN], text[256];
    pb_bot *b = pb_bot_new(spec, seed, why, sizeof why);
    if (!b)
        return fail(err, n, "%s", why);
    pb_action a = pb_bot_choose(b, e->g, current(e), seat);
    if (e->g->ops->action_to_text(e->g, current(e), a, text, sizeof text) != 0) {
        pb_bot_free(b);
        return fail(err, n, "bot %s chose a move with no notation (a bug)", spec);
    }
    fprintf(o, "seat %d\nbot %s\n", seat, spec);
    put(o, "move", text);
    fprintf(o, "searches %ld\n", pb_bot_searches(b));
    put(o, "why", pb_bot_why(b));
    put_candidates(e, b, a, o);
    pb_bot_free(b);
    return 0;
}

static int cmd_quit(pb_engine *e, const char *args, FILE *o, char *err, size_t n)
{
    (void)e;
    (void)o;
    return no_more(args, "quit", err, n);
}

static const struct {
    const char *name, *args;
    command_fn run;
    bool needs_game;
} commands[] = {
    {"help", "", cmd_help, false},
    {"games", "", cmd_games, false},
    {"new", "GAME SEED [CONFIG]", cmd_new, false},
    {"load", "RECORD", cmd_load, false},
    {"seat", "", cmd_seat, true},
    {"view", "SEAT|spectator", cmd_view, true},
    {"glossary", "", cmd_glossary, true},
    {"moves", "", cmd_moves, true},
    {"play", "MOVE", cmd_play, true},
    {"undo", "", cmd_undo, true},
    {"history", "", cmd_history, true},
    {"determinize", "SEAT [SEED]", cmd_determinize, true},
    {"score", "", cmd_score, true},
    {"think", "[BOT] [SEED]", cmd_think, true},
    {"quit", "", cmd_quit, false},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static int cmd_help(pb_engine *e, const char *args, FILE *o, char *err, size_t n)
{
    (void)e;
    if (no_more(args, "help", err, n))
        return -1;
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(o, "command %s%s%s\n", commands[i].name, commands[i].args[0] ? " " : "", commands[i].args);
    return 0;
}

/* The error line: one line of printable UTF-8 text (a command echoed in it
 * may hold any bytes). */
static void put_error(FILE *out, char *msg)
{
    pb_text_make_printable(msg);
    fprintf(out, "error %s\n", msg);
}

/* Run the command in line on the session, its answer into o. */
static int run(pb_engine *e, const char *line, FILE *o, bool *quit, char *err, size_t n)
{
    char word[WORD_LEN];
    const char *args = line;
    if (next_word(&args, word, sizeof word) < 0)
        return fail(err, n, "unknown command '%.40s...' (help lists the commands)", skip_blanks(line));
    for (size_t i = 0; i < NCOMMANDS; i++) {
        if (strcmp(word, commands[i].name) != 0)
            continue;
        if (commands[i].needs_game && !e->g)
            return fail(err, n, "no game yet: start one with 'new GAME SEED [CONFIG]'");
        *quit = commands[i].run == cmd_quit;
        return commands[i].run(e, args, o, err, n);
    }
    return fail(err, n, "unknown command '%s' (help lists the commands)", word);
}

int pb_engine_command(pb_engine *e, const char *line, size_t len, FILE *out)
{
    while (len && (line[len - 1] == '\r' || line[len - 1] == ' ' || line[len - 1] == '\t'))
        len--;
    size_t lead = 0; /* line holds len bytes, not a string */
    while (lead < len && (line[lead] == ' ' || line[lead] == '\t'))
        lead++;
    if (lead == len || line[lead] == '#')
        return 0;
    char err[PB_ERR_LEN] = "", *text = NULL, *answer = NULL;
    size_t answer_len = 0;
    bool quit = false;
    FILE *o = NULL;
    if (memchr(line, 0, len))
        snprintf(err, sizeof err, "the line holds a NUL byte");
    else if (!(text = strndup(line, len)) || !(o = open_memstream(&answer, &answer_len)))
        snprintf(err, sizeof err, "out of memory");
    else if (run(e, text, o, &quit, err, sizeof err) == 0)
        err[0] = 0;
    else if (!err[0])
        snprintf(err, sizeof err, "failed");
    if (o)
        fclose(o);
    if (err[0]) {
        put_error(out, err);
        quit = false;
    } else {
        fwrite(answer, 1, answer_len, out);
        fputs("ok\n", out);
    }
    free(answer);
    free(text);
    return quit ? 1 : 0;
}
