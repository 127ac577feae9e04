/* lobby.c -- see lobby.h and docs/protocol.md. */
#include "lobby.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "../ai/bot.h"
#include "../core/error.h"
#include "../core/jsonutil.h"

#define LOG_KEEP 12       /* moves kept for the log */
#define MAX_WATCHERS 64   /* spectators of one table */
#define NAME_MAX_LEN 32
#define BOT_GRACE 5       /* seconds a seat stays its player's after they drop */
#define LIST_MAX 500      /* tables in a `list` answer */
#define RESTORE_FINISHED 64 /* finished tables loaded at start (the rest on demand) */

typedef struct logged {
    int seat;
    int told;             /* another seat the move tells more (a card passed to it), or -1 */
    char mine[160];       /* as the mover sees it */
    char told_text[160];  /* as `told` sees it */
    char theirs[160];     /* as everyone else may see it */
    char news[256];       /* what everyone learned beyond the move (pb_news) */
} logged;

typedef struct table {
    int64_t id;
    char code[16];
    pb_game *g;
    pb_state *st;
    int players, moves;
    bool finished, bot_asked;
    char player[PB_MAX_SEATS][64];   /* "human" or a bot */
    char name[PB_MAX_SEATS][4 * NAME_MAX_LEN + 1];
    bool taken[PB_MAX_SEATS];
    int conn[PB_MAX_SEATS];          /* connection at the seat, or -1 */
    time_t left_at[PB_MAX_SEATS];    /* when its connection went */
    int watcher[MAX_WATCHERS], nwatchers;
    logged log[LOG_KEEP];
    int nlog;
    int jobs;            /* bot jobs out (they point at g): the table stays while any is */
    time_t idle_since;   /* finished tables: last used; they leave memory when idle */
} table;

struct pb_lobby {
    pb_store *store;
    pb_lobby_io io;
    table **tables;
    int ntables, cap;
    char *list_cache; /* the last `tables` answer, until a table changes */
    bool seed_fixed;  /* PIZZABOX_TABLE_SEED (tests): every new table is dealt from `seed` */
    uint64_t seed;
};

/* ---- Replies ---- */

static void send_json(pb_lobby *l, int conn, json_t *msg)
{
    char *text = json_dumps(msg, JSON_COMPACT);
    if (text)
        l->io.send(l->io.ctx, conn, text);
    free(text);
    json_decref(msg);
}

static void send_error(pb_lobby *l, int conn, const char *message)
{
    send_json(l, conn, json_pack("{s:s, s:s}", "type", "error", "message", message));
}

/* ---- Tables ---- */

static table *find_table(pb_lobby *l, const char *code)
{
    for (int i = 0; code && i < l->ntables; i++)
        if (strcmp(l->tables[i]->code, code) == 0)
            return l->tables[i];
    return NULL;
}

static table *find_table_id(pb_lobby *l, int64_t id)
{
    for (int i = 0; i < l->ntables; i++)
        if (l->tables[i]->id == id)
            return l->tables[i];
    return NULL;
}

static void table_free(table *t)
{
    if (!t)
        return;
    free(t->st);
    pb_game_free(t->g);
    free(t);
}

static int add_table(pb_lobby *l, table *t)
{
    if (l->ntables == l->cap) {
        int cap = l->cap ? l->cap * 2 : 64;
        table **tables = realloc(l->tables, sizeof *tables * (size_t)cap);
        if (!tables)
            return -1;
        l->tables = tables;
        l->cap = cap;
    }
    l->tables[l->ntables++] = t;
    return 0;
}

static void random_hex(char *out, int bytes)
{
    unsigned char buf[32];
    if (getrandom(buf, (size_t)bytes, 0) != bytes)
        for (int i = 0; i < bytes; i++)
            buf[i] = (unsigned char)rand();
    for (int i = 0; i < bytes; i++)
        snprintf(out + 2 * i, 3, "%02x", buf[i]);
}

/* A short code people can read out: no 0/O, 1/I. */
static void new_code(pb_lobby *l, char *out)
{
    static const char letters[] = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    do {
        unsigned char r[4];
        if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r)
            for (int i = 0; i < 4; i++)
                r[i] = (unsigned char)rand();
        for (int i = 0; i < 4; i++)
            out[i] = letters[r[i] % (sizeof letters - 1)];
        out[4] = 0;
    } while (find_table(l, out) || pb_store_find_code(l->store, out) >= 0);
}

/* ---- Views ---- */

static json_t *names_of(const table *t)
{
    json_t *a = json_array();
    for (int s = 0; s < t->players; s++)
        json_array_append_new(a, json_string(t->name[s]));
    return a;
}

static json_t *players_of(const table *t)
{
    json_t *a = json_array();
    for (int s = 0; s < t->players; s++)
        json_array_append_new(a, json_string(t->player[s]));
    return a;
}

/* Everything one connection sees of a table: its seat's view only. */
/* The seats' names as the games take them (score reports, the log's news). */
static const char *const *seat_names(const table *t, const char *names[PB_MAX_SEATS])
{
    for (int s = 0; s < t->players; s++)
        names[s] = t->name[s];
    return names;
}

static void send_view(pb_lobby *l, table *t, int conn, int seat)
{
    json_t *log = json_array();
    for (int i = 0; i < t->nlog; i++) {
        const logged *e = &t->log[(t->moves - t->nlog + i) % LOG_KEEP];
        const char *text = seat == e->seat ? e->mine : seat >= 0 && seat == e->told ? e->told_text : e->theirs;
        json_t *entry = json_pack("{s:i, s:s}", "seat", e->seat, "text", text);
        if (e->news[0])
            json_object_set_new(entry, "news", json_string(e->news));
        json_array_append_new(log, entry);
    }
    json_t *msg = json_pack("{s:s, s:s, s:o, s:o, s:o, s:i, s:o, s:o}", "type", "view", "code", t->code,
                            "seat", seat >= 0 ? json_integer(seat) : json_null(), "names", names_of(t),
                            "players", players_of(t), "moves", t->moves, "log", log, "view",
                            t->g->ops->view(t->g, t->st, seat >= 0 ? seat : PB_SPECTATOR));
    if (t->finished) {
        const char *names[PB_MAX_SEATS];
        json_object_set_new(msg, "score", t->g->ops->score_report(t->g, t->st, seat_names(t, names)));
    }
    send_json(l, conn, msg);
}

static void broadcast(pb_lobby *l, table *t)
{
    free(l->list_cache); /* something changed: the table list is rebuilt on demand */
    l->list_cache = NULL;
    for (int s = 0; s < t->players; s++)
        if (t->conn[s] >= 0)
            send_view(l, t, t->conn[s], s);
    for (int i = 0; i < t->nwatchers; i++)
        send_view(l, t, t->watcher[i], -1);
}

/* ---- Moves ---- */

static void ask_bot_if_needed(pb_lobby *l, table *t)
{
    if (t->finished || t->bot_asked)
        return;
    int seat = pb_current_seat(t->g, t->st);
    if (seat < 0 || strcmp(t->player[seat], "human") == 0)
        return;
    pb_bot_job *job = calloc(1, sizeof *job);
    if (!job || !(job->state = pb_state_clone(t->g, t->st))) {
        free(job);
        return;
    }
    job->table = t->id;
    job->moves = t->moves;
    job->seat = seat;
    snprintf(job->bot, sizeof job->bot, "%s", t->player[seat]);
    job->seed = pb_derive_seed((uint64_t)t->id, (uint64_t)t->moves);
    job->game = t->g;
    t->bot_asked = true;
    t->jobs++;
    l->io.ask_bot(l->io.ctx, job);
}

/* A move as its mover sees it, as everyone may, and as the one other seat
 * it tells more sees it (co-op Transfer Goods: the card passed to it). A
 * second such seat would get the public text: it hides more, never less. */
static logged describe_move(const table *t, pb_action a, int mover)
{
    logged e = {.seat = mover, .told = -1};
    t->g->ops->describe(t->g, t->st, a, mover, e.mine, sizeof e.mine);
    t->g->ops->describe(t->g, t->st, a, PB_SPECTATOR, e.theirs, sizeof e.theirs);
    for (int s = 0; s < t->players && e.told < 0; s++) {
        if (s == mover)
            continue;
        t->g->ops->describe(t->g, t->st, a, s, e.told_text, sizeof e.told_text);
        if (strcmp(e.told_text, e.theirs) != 0)
            e.told = s;
    }
    return e;
}

/* Apply a move: durable in the store first, then in memory (nobody told
 * yet). Returns 0, or -1 with a message (nothing changed). */
static int apply_move(pb_lobby *l, table *t, int seat, pb_action a, char *err, size_t errlen)
{
    char text[256];
    if (t->g->ops->action_to_text(t->g, t->st, a, text, sizeof text) != 0)
        return pb_errorf(err, errlen, "that move is not legal now");
    logged e = describe_move(t, a, seat);
    const char *names[PB_MAX_SEATS];
    pb_state *next = pb_state_clone(t->g, t->st);
    if (!next)
        return pb_errorf(err, errlen, "out of memory");
    if (t->g->ops->apply(t->g, next, a, err, errlen) != 0 ||
        pb_store_append_action(l->store, t->id, t->moves, seat, text, err, errlen) != 0) {
        free(next);
        return -1;
    }
    pb_news(t->g, t->st, next, seat_names(t, names), e.news, sizeof e.news);
    free(t->st);
    t->st = next;
    t->log[t->moves % LOG_KEEP] = e;
    t->nlog = t->nlog < LOG_KEEP ? t->nlog + 1 : LOG_KEEP;
    t->moves++;
    t->bot_asked = false;
    if (pb_is_terminal(t->g, t->st)) {
        t->finished = true;
        t->idle_since = time(NULL);
        pb_store_finish(l->store, t->id, err, errlen);
    }
    return 0;
}

/* Is every seat but this one a bot? */
static bool only_person(const table *t, int seat)
{
    for (int s = 0; s < t->players; s++)
        if (s != seat && strcmp(t->player[s], "human") == 0)
            return false;
    return true;
}

/* A human seat asked a formality (core/game.h: a question every seat is
 * asked alike, with one answer for this one) is answered by the server, as
 * the seat's own move, stored like any other: a record replays exactly.
 * Only at a table of one person and bots: other people would learn from
 * the question skipped that the seat had nothing to answer with. Bots
 * answer their own. Stops at the first that cannot be stored. */
static void answer_formalities(pb_lobby *l, table *t)
{
    pb_action *legal = NULL;
    while (!t->finished && pb_is_formality(t->g, t->st)) {
        int seat = pb_current_seat(t->g, t->st);
        if (strcmp(t->player[seat], "human") != 0 || !only_person(t, seat))
            break;
        char err[PB_ERR_LEN];
        if (!legal && !(legal = malloc(sizeof *legal * PB_MAX_ACTIONS)))
            break;
        if (t->g->ops->legal_actions(t->g, t->st, legal) != 1 || apply_move(l, t, seat, legal[0], err, sizeof err) != 0) {
            fprintf(stderr, "pizzabox serve: table %s: a formality not answered\n", t->code);
            break;
        }
    }
    free(legal);
}

/* Apply a move (and the formalities after it), then tell everyone and ask
 * the next bot. Returns 0, or -1 with a message (nothing changed). */
static int play_move(pb_lobby *l, table *t, int seat, pb_action a, char *err, size_t errlen)
{
    if (apply_move(l, t, seat, a, err, errlen) != 0)
        return -1;
    answer_formalities(l, t);
    broadcast(l, t);
    ask_bot_if_needed(l, t);
    return 0;
}

void pb_lobby_bot_move(pb_lobby *l, int64_t id, int moves, pb_action a)
{
    table *t = find_table_id(l, id);
    if (t && t->jobs > 0)
        t->jobs--;
    if (!t || t->moves != moves)
        return; /* the table moved on (or is gone): the answer is stale */
    t->bot_asked = false;
    char err[PB_ERR_LEN];
    int seat = pb_current_seat(t->g, t->st);
    if (seat < 0 || play_move(l, t, seat, a, err, sizeof err) != 0)
        ask_bot_if_needed(l, t); /* should not happen: ask again */
}

/* ---- Connections and seats ---- */

static int seats_of_conn(const pb_lobby *l, int conn)
{
    int n = 0;
    for (int i = 0; i < l->ntables; i++) {
        const table *t = l->tables[i];
        for (int s = 0; s < t->players; s++)
            n += t->conn[s] == conn;
        for (int w = 0; w < t->nwatchers; w++)
            n += t->watcher[w] == conn;
    }
    return n;
}

/* The seat a connection holds at a table, or -1. */
static int seat_of(const table *t, int conn)
{
    for (int s = 0; s < t->players; s++)
        if (t->conn[s] == conn)
            return s;
    return -1;
}

/* At most NAME_MAX_LEN characters (not bytes: names are UTF-8), no control
 * characters. */
static void clean_name(const char *in, char *out, size_t n)
{
    size_t len = 0;
    const unsigned char *c = (const unsigned char *)in;
    for (int chars = 0; *c && chars < NAME_MAX_LEN; chars++) {
        /* One whole character at a time (the input is valid UTF-8). */
        size_t k = *c >= 0xF0 ? 4 : *c >= 0xE0 ? 3 : *c >= 0xC0 ? 2 : 1;
        if (len + k >= n)
            break;
        size_t i = 0;
        for (; i < k && c[i]; i++)
            out[len++] = c[i] < 0x20 || c[i] == 0x7f ? '?' : (char)c[i];
        c += i;
    }
    out[len] = 0;
}

static int take_seat(pb_lobby *l, table *t, int seat, int conn, const char *name, char *err, size_t errlen)
{
    char token[33];
    random_hex(token, 16);
    char clean[4 * NAME_MAX_LEN + 1];
    clean_name(name && *name ? name : "Player", clean, sizeof clean);
    if (pb_store_set_seat(l->store, t->id, seat, "human", clean, token, err, errlen) != 0)
        return -1;
    snprintf(t->name[seat], sizeof t->name[seat], "%s", clean);
    t->taken[seat] = true;
    t->conn[seat] = conn;
    send_json(l, conn, json_pack("{s:s, s:s, s:i, s:s}", "type", "joined", "code", t->code, "seat", seat,
                                 "token", token));
    broadcast(l, t); /* everyone at the table sees the new name */
    return 0;
}

static bool known_bot(const char *spec)
{
    static const char *const bots[] = {"random", "greedy", "easy", "medium", "hard", "expert", NULL};
    for (int i = 0; bots[i]; i++)
        if (strcmp(spec, bots[i]) == 0)
            return true;
    return false;
}

/* ---- Requests ---- */

static int unfinished_tables(const pb_lobby *l)
{
    int n = 0;
    for (int i = 0; i < l->ntables; i++)
        n += !l->tables[i]->finished;
    return n;
}

/* The list comes from the store, so finished tables that have left memory
 * are in it too; what is stored is what is in memory (a change is stored
 * before it is made in memory). */
static void on_list(pb_lobby *l, int conn)
{
    if (l->list_cache) { /* the list costs milliseconds to build: not once per request */
        l->io.send(l->io.ctx, conn, l->list_cache);
        return;
    }
    pb_table_head *heads = malloc(sizeof *heads * LIST_MAX);
    int n = heads ? pb_store_heads(l->store, heads, LIST_MAX) : -1;
    if (n < 0) {
        free(heads);
        send_error(l, conn, "the table list is not available now");
        return;
    }
    json_t *tables = json_array();
    for (int i = 0; i < n; i++) { /* the newest first */
        const pb_table_head *h = &heads[i];
        json_t *seats = json_array();
        for (int s = 0; s < h->players && s < PB_MAX_SEATS; s++) {
            bool human = !h->player[s][0] || strcmp(h->player[s], "human") == 0;
            json_array_append_new(seats, json_pack("{s:s, s:s, s:b}", "name", h->name[s], "player",
                                                   human ? "human" : h->player[s], "taken",
                                                   !human || h->name[s][0]));
        }
        json_array_append_new(tables, json_pack("{s:s, s:s, s:i, s:o, s:i, s:b}", "code", h->code, "game", h->game,
                                                "players", h->players, "seats", seats, "moves", h->moves,
                                                "finished", h->finished));
    }
    free(heads);
    json_t *msg = json_pack("{s:s, s:o}", "type", "tables", "tables", tables);
    l->list_cache = json_dumps(msg, JSON_COMPACT);
    json_decref(msg);
    if (l->list_cache)
        l->io.send(l->io.ctx, conn, l->list_cache);
}

static void on_create(pb_lobby *l, int conn, const json_t *msg)
{
    char err[PB_ERR_LEN] = "out of memory";
    const char *game = json_string_value(json_object_get(msg, "game"));
    json_t *players = json_object_get(msg, "players"), *seats = json_object_get(msg, "seats");
    int n = (int)json_integer_value(players);
    if (!game || !json_is_integer(players) || n < 1 || n > PB_MAX_SEATS || !json_is_array(seats) ||
        (int)json_array_size(seats) != n) {
        send_error(l, conn, "create needs game, players and one seat per player");
        return;
    }
    if (unfinished_tables(l) >= PB_LOBBY_MAX_TABLES || seats_of_conn(l, conn) >= PB_LOBBY_TABLES_PER_CONN) {
        send_error(l, conn, "too many tables");
        return;
    }
    int humans = 0;
    for (int s = 0; s < n; s++) {
        const char *p = json_string_value(json_array_get(seats, (size_t)s));
        if (!p || (strcmp(p, "human") != 0 && !known_bot(p))) {
            send_error(l, conn, "each seat is \"human\" or a bot: random, greedy, easy, medium, hard, expert");
            return;
        }
        humans += strcmp(p, "human") == 0;
    }
    if (humans == 0) {
        send_error(l, conn, "a table needs a human seat");
        return;
    }
    json_t *expansion = json_object_get(msg, "expansion"), *cheese = json_object_get(msg, "extra_cheese");
    if (expansion && !json_is_boolean(expansion)) {
        send_error(l, conn, "expansion is true or false (New York Pizza Delivery's 5-6 player box)");
        return;
    }
    json_t *coop = json_object_get(msg, "coop"), *difficulty = json_object_get(msg, "difficulty");
    if (coop && !json_is_boolean(coop)) {
        send_error(l, conn, "coop is true or false (New York Pizza Delivery's co-op game)");
        return;
    }
    if (difficulty && !json_is_integer(difficulty)) {
        send_error(l, conn, "difficulty is a whole number: the co-op table's row, 1 (hardest) to 8 (easiest)");
        return;
    }
    if (cheese && !json_is_boolean(cheese)) {
        send_error(l, conn, "extra_cheese is true or false (New York Pizza Delivery's Extra Cheese cards)");
        return;
    }
    table *t = calloc(1, sizeof *t);
    json_t *config = json_pack("{s:i}", "players", n);
    /* The game refuses, with its own message, what it does not have (co-op
     * for New York Slice), a row out of range or a player count it does not
     * play (1 is for co-op). */
    if (json_is_true(expansion))
        json_object_set_new(config, "expansion", json_true());
    if (json_is_true(coop))
        json_object_set_new(config, "coop", json_true());
    if (difficulty)
        json_object_set(config, "difficulty", difficulty);
    if (json_is_true(cheese))
        json_object_set_new(config, "extra_cheese", json_true());
    if (!t || !(t->g = pb_game_new(game, config, err, sizeof err))) {
        json_decref(config);
        free(t);
        send_error(l, conn, err);
        return;
    }
    uint64_t seed = l->seed;
    if (!l->seed_fixed && getrandom(&seed, sizeof seed, 0) != (ssize_t)sizeof seed)
        seed = (uint64_t)rand();
    seed &= PB_SEED_MAX;
    new_code(l, t->code);
    t->players = n;
    t->st = pb_state_new(t->g, seed);
    t->id = t->st ? pb_store_create_table(l->store, game, t->g->config, seed, t->code, err, sizeof err) : -1;
    json_decref(config);
    for (int s = 0; s < n && t->id > 0; s++) {
        t->conn[s] = -1;
        snprintf(t->player[s], sizeof t->player[s], "%s", json_string_value(json_array_get(seats, (size_t)s)));
        if (strcmp(t->player[s], "human") != 0) {
            snprintf(t->name[s], sizeof t->name[s], "%c%s %d", t->player[s][0] - 32, t->player[s] + 1, s + 1);
            t->taken[s] = true;
            if (pb_store_set_seat(l->store, t->id, s, t->player[s], t->name[s], NULL, err, sizeof err) != 0)
                t->id = -1;
        }
    }
    if (t->id <= 0 || add_table(l, t) != 0) {
        table_free(t);
        send_error(l, conn, "could not store the table");
        return;
    }
    int first = 0;
    while (strcmp(t->player[first], "human") != 0)
        first++;
    const char *name = json_string_value(json_object_get(msg, "name"));
    if (take_seat(l, t, first, conn, name, err, sizeof err) != 0)
        send_error(l, conn, err);
    ask_bot_if_needed(l, t);
}

static table *rebuild(pb_lobby *l, int64_t id, char *err, size_t errlen);

/* ---- Finished tables leave memory ---- */

static bool attended(const table *t)
{
    for (int s = 0; s < t->players; s++)
        if (t->conn[s] >= 0)
            return true;
    return t->nwatchers > 0;
}

/* Drop finished tables nobody sits at or watches, idle for `grace` seconds
 * or more (and no bot job pointing at them); they are loaded again from the
 * store when asked for. */
static void evict_idle(pb_lobby *l, time_t now, int grace)
{
    int kept = 0;
    for (int i = 0; i < l->ntables; i++) {
        table *t = l->tables[i];
        if (t->finished && t->jobs == 0 && !attended(t) && now - t->idle_since >= grace)
            table_free(t);
        else
            l->tables[kept++] = t;
    }
    l->ntables = kept;
}

void pb_lobby_tick(pb_lobby *l)
{
    evict_idle(l, time(NULL), PB_LOBBY_FINISHED_GRACE);
}

/* A finished table that is not in memory, from the store; NULL if there is
 * no finished table with that code. */
static table *load_finished(pb_lobby *l, const char *code)
{
    int64_t id = code ? pb_store_find_code(l->store, code) : -1;
    if (id <= 0)
        return NULL;
    int finished = 0;
    for (int i = 0; i < l->ntables; i++)
        finished += l->tables[i]->finished;
    if (finished >= PB_LOBBY_MAX_TABLES) /* many looked at at once: make room first */
        evict_idle(l, time(NULL), 0);
    char err[PB_ERR_LEN];
    table *t = rebuild(l, id, err, sizeof err);
    if (t && (!t->finished || add_table(l, t) != 0)) {
        /* An unfinished table is always in memory unless it could not be
         * restored: it stays out. */
        table_free(t);
        t = NULL;
    }
    return t;
}

static table *table_of(pb_lobby *l, int conn, const json_t *msg)
{
    const char *code = json_string_value(json_object_get(msg, "code"));
    table *t = find_table(l, code);
    if (!t)
        t = load_finished(l, code);
    if (!t)
        send_error(l, conn, "no table with that code");
    else if (t->finished)
        t->idle_since = time(NULL);
    return t;
}

static void on_join(pb_lobby *l, int conn, const json_t *msg)
{
    table *t = table_of(l, conn, msg);
    if (!t)
        return;
    if (seat_of(t, conn) >= 0) {
        send_error(l, conn, "you already have a seat at this table");
        return;
    }
    if (seats_of_conn(l, conn) >= PB_LOBBY_TABLES_PER_CONN) {
        send_error(l, conn, "too many tables");
        return;
    }
    for (int s = 0; s < t->players; s++)
        if (!t->taken[s] && strcmp(t->player[s], "human") == 0) {
            char err[PB_ERR_LEN];
            if (take_seat(l, t, s, conn, json_string_value(json_object_get(msg, "name")), err, sizeof err) != 0)
                send_error(l, conn, err);
            return;
        }
    send_error(l, conn, "the table is full (you may spectate)");
}

static void on_resume(pb_lobby *l, int conn, const json_t *msg)
{
    table *t = table_of(l, conn, msg);
    if (!t)
        return;
    json_t *seat = json_object_get(msg, "seat");
    int s = (int)json_integer_value(seat);
    const char *token = json_string_value(json_object_get(msg, "token"));
    if (!json_is_integer(seat) || s < 0 || s >= t->players || strcmp(t->player[s], "human") != 0 ||
        !pb_store_check_token(l->store, t->id, s, token)) {
        send_error(l, conn, "that seat and token do not match");
        return;
    }
    if (t->conn[s] != conn && seats_of_conn(l, conn) >= PB_LOBBY_TABLES_PER_CONN) {
        send_error(l, conn, "too many tables");
        return;
    }
    t->conn[s] = conn; /* a newer connection takes the seat over */
    t->taken[s] = true;
    free(l->list_cache);
    l->list_cache = NULL;
    send_json(l, conn, json_pack("{s:s, s:s, s:i, s:s}", "type", "joined", "code", t->code, "seat", s, "token",
                                 token));
    send_view(l, t, conn, s);
}

static void on_spectate(pb_lobby *l, int conn, const json_t *msg)
{
    table *t = table_of(l, conn, msg);
    if (!t)
        return;
    for (int w = 0; w < t->nwatchers; w++)
        if (t->watcher[w] == conn) {
            send_view(l, t, conn, -1);
            return;
        }
    if (t->nwatchers == MAX_WATCHERS || seats_of_conn(l, conn) >= PB_LOBBY_TABLES_PER_CONN) {
        send_error(l, conn, t->nwatchers == MAX_WATCHERS ? "too many spectators at this table" : "too many tables");
        return;
    }
    t->watcher[t->nwatchers++] = conn;
    send_json(l, conn, json_pack("{s:s, s:s}", "type", "watching", "code", t->code));
    send_view(l, t, conn, -1);
}

static void on_act(pb_lobby *l, int conn, const json_t *msg)
{
    table *t = table_of(l, conn, msg);
    if (!t)
        return;
    int seat = seat_of(t, conn), to_move = pb_current_seat(t->g, t->st);
    const char *text = json_string_value(json_object_get(msg, "action"));
    char err[PB_ERR_LEN];
    pb_action a;
    if (seat < 0)
        send_error(l, conn, "you have no seat at this table");
    else if (t->finished)
        send_error(l, conn, "the game is over");
    else if (seat != to_move) {
        snprintf(err, sizeof err, "not your turn: %s is to move", t->name[to_move]);
        send_error(l, conn, err);
    } else if (!text)
        send_error(l, conn, "act needs an action");
    else if (t->g->ops->action_from_text(t->g, t->st, text, &a, err, sizeof err) != 0 ||
             play_move(l, t, seat, a, err, sizeof err) != 0)
        send_error(l, conn, err);
}

static void on_bot(pb_lobby *l, int conn, const json_t *msg)
{
    table *t = table_of(l, conn, msg);
    if (!t)
        return;
    json_t *seat = json_object_get(msg, "seat");
    int s = (int)json_integer_value(seat);
    char err[PB_ERR_LEN];
    if (seat_of(t, conn) < 0)
        send_error(l, conn, "only a player at the table may hand a seat to a bot");
    else if (t->finished || !json_is_integer(seat) || s < 0 || s >= t->players ||
             strcmp(t->player[s], "human") != 0 || t->conn[s] >= 0 || !t->taken[s] ||
             time(NULL) - t->left_at[s] < BOT_GRACE)
        send_error(l, conn, "only the seat of a player gone for a few seconds can go to a bot");
    else if (pb_store_set_player(l->store, t->id, s, "greedy", err, sizeof err) != 0)
        send_error(l, conn, err);
    else {
        snprintf(t->player[s], sizeof t->player[s], "greedy");
        t->taken[s] = true;
        broadcast(l, t);
        ask_bot_if_needed(l, t);
    }
}

/* The public view of a finished game after `step` moves. */
static void on_replay(pb_lobby *l, int conn, const json_t *msg)
{
    table *t = table_of(l, conn, msg);
    if (!t)
        return;
    json_t *step = json_object_get(msg, "step");
    int k = (int)json_integer_value(step);
    pb_stored_table st;
    char err[PB_ERR_LEN];
    if (!t->finished || !json_is_integer(step) || k < 0 || k > t->moves) {
        send_error(l, conn, "replay needs a finished table and a step from 0 to its moves");
        return;
    }
    if (pb_store_load(l->store, t->id, &st, err, sizeof err) != 0) {
        send_error(l, conn, err);
        return;
    }
    pb_state *s = pb_state_new(t->g, st.seed);
    for (int i = 0; s && i < k; i++)
        pb_apply_text(t->g, s, json_string_value(json_array_get(st.actions, (size_t)i)), err, sizeof err);
    if (s)
        send_json(l, conn, json_pack("{s:s, s:s, s:i, s:o}", "type", "replay", "code", t->code, "step", k, "view",
                                     t->g->ops->view(t->g, s, PB_SPECTATOR)));
    free(s);
    pb_stored_table_free(&st);
}

void pb_lobby_message(pb_lobby *l, int conn, const char *text, size_t len)
{
    json_error_t jerr;
    json_t *msg = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
    const char *type = json_string_value(json_object_get(msg, "type"));
    if (!msg || !json_is_object(msg) || !type) {
        send_error(l, conn, msg ? "a message is an object with a \"type\"" : "malformed JSON (or a key given twice)");
        json_decref(msg);
        return;
    }
    static const struct {
        const char *type;
        void (*handle)(pb_lobby *, int, const json_t *);
    } handlers[] = {{"create", on_create}, {"join", on_join},     {"resume", on_resume}, {"spectate", on_spectate},
                    {"act", on_act},       {"bot", on_bot},       {"replay", on_replay}};
    bool done = false;
    if (strcmp(type, "list") == 0) {
        on_list(l, conn);
        done = true;
    }
    for (size_t i = 0; !done && i < sizeof handlers / sizeof handlers[0]; i++)
        if (strcmp(type, handlers[i].type) == 0) {
            handlers[i].handle(l, conn, msg);
            done = true;
        }
    if (!done) {
        char q[48], m[96];
        pb_quote(type, q, sizeof q);
        snprintf(m, sizeof m, "unknown message type %s", q);
        send_error(l, conn, m);
    }
    json_decref(msg);
}

void pb_lobby_disconnect(pb_lobby *l, int conn)
{
    for (int i = 0; i < l->ntables; i++) {
        table *t = l->tables[i];
        for (int s = 0; s < t->players; s++)
            if (t->conn[s] == conn) {
                t->conn[s] = -1;
                t->left_at[s] = t->idle_since = time(NULL);
            }
        for (int w = 0; w < t->nwatchers; w++)
            if (t->watcher[w] == conn) {
                t->watcher[w--] = t->watcher[--t->nwatchers];
                t->idle_since = time(NULL);
            }
    }
}

int pb_lobby_tables(const pb_lobby *l)
{
    return l->ntables;
}

/* ---- Start-up: rebuild tables from the store ---- */

static table *rebuild(pb_lobby *l, int64_t id, char *err, size_t errlen)
{
    pb_stored_table s;
    if (pb_store_load(l->store, id, &s, err, errlen) != 0)
        return NULL;
    table *t = calloc(1, sizeof *t);
    if (t && (t->g = pb_game_new(s.game, s.config, err, errlen)) && (t->st = pb_state_new(t->g, s.seed))) {
        t->id = id;
        snprintf(t->code, sizeof t->code, "%s", s.code);
        t->players = t->g->players;
        for (int q = 0; q < t->players; q++) {
            t->conn[q] = -1;
            snprintf(t->player[q], sizeof t->player[q], "%s", s.player[q][0] ? s.player[q] : "human");
            snprintf(t->name[q], sizeof t->name[q], "%s", s.name[q]);
            t->taken[q] = strcmp(t->player[q], "human") != 0 || s.name[q][0];
        }
        size_t i;
        json_t *a;
        pb_state *before = pb_state_clone(t->g, t->st);
        if (!before)
            pb_errorf(err, errlen, "out of memory");
        json_array_foreach(s.actions, i, a) {
            int seat = pb_current_seat(t->g, t->st);
            pb_action act;
            if (!before || t->g->ops->action_from_text(t->g, t->st, json_string_value(a), &act, err, errlen) != 0)
                break;
            logged e = describe_move(t, act, seat);
            const char *names[PB_MAX_SEATS];
            pb_state_copy(t->g, before, t->st);
            if (t->g->ops->apply(t->g, t->st, act, err, errlen) != 0)
                break;
            pb_news(t->g, before, t->st, seat_names(t, names), e.news, sizeof e.news);
            t->log[t->moves % LOG_KEEP] = e;
            t->nlog = t->nlog < LOG_KEEP ? t->nlog + 1 : LOG_KEEP;
            t->moves++;
        }
        free(before);
        t->finished = pb_is_terminal(t->g, t->st);
        if (t->moves != (int)json_array_size(s.actions)) {
            table_free(t);
            t = NULL;
        }
    } else {
        table_free(t);
        t = NULL;
    }
    pb_stored_table_free(&s);
    return t;
}

pb_lobby *pb_lobby_new(pb_store *store, const pb_lobby_io *io, char *err, size_t errlen)
{
    pb_lobby *l = calloc(1, sizeof *l);
    int64_t *ids = malloc(sizeof *ids * PB_LOBBY_MAX_TABLES);
    if (!l || !ids) {
        free(l);
        free(ids);
        pb_errorf(err, errlen, "out of memory");
        return NULL;
    }
    l->store = store;
    l->io = *io;
    /* For tests only: a known deal, so that a recorded game can be played
     * again move by move. Anyone who knows the seed knows every card to
     * come: a server people play on never has it. */
    const char *fixed = getenv("PIZZABOX_TABLE_SEED");
    if (fixed && *fixed) {
        char *end;
        unsigned long long seed = strtoull(fixed, &end, 10);
        if (*end || *fixed == '-' || seed > PB_SEED_MAX) {
            free(l);
            free(ids);
            pb_errorf(err, errlen, "PIZZABOX_TABLE_SEED must be a seed from 0 to %llu", (unsigned long long)PB_SEED_MAX);
            return NULL;
        }
        l->seed_fixed = true;
        l->seed = seed;
        fprintf(stderr, "pizzabox serve: every new table is dealt from seed %llu (PIZZABOX_TABLE_SEED): for tests only\n",
                seed);
    }
    /* Every unfinished table, then the newest finished ones (the others are
     * loaded when asked for; these too leave memory when nobody comes). */
    int n = pb_store_list(store, PB_STORE_UNFINISHED, ids, PB_LOBBY_MAX_TABLES);
    int m = n < 0 ? 0 : n;
    int64_t *done = ids + m;
    int nd = pb_store_list(store, PB_STORE_FINISHED, done,
                           RESTORE_FINISHED < PB_LOBBY_MAX_TABLES - m ? RESTORE_FINISHED : PB_LOBBY_MAX_TABLES - m);
    n = m + (nd < 0 ? 0 : nd);
    for (int i = n - 1; i >= 0; i--) {
        char why[PB_ERR_LEN];
        table *t = rebuild(l, ids[i], why, sizeof why);
        if (t)
            t->idle_since = time(NULL);
        if (t && add_table(l, t) != 0)
            table_free(t);
        else if (!t)
            fprintf(stderr, "pizzabox serve: table %lld not restored: %s\n", (long long)ids[i], why);
    }
    free(ids);
    for (int i = 0; i < l->ntables; i++) {
        /* stopped between a move and the formality after it */
        answer_formalities(l, l->tables[i]);
        ask_bot_if_needed(l, l->tables[i]);
    }
    return l;
}

void pb_lobby_free(pb_lobby *l)
{
    if (!l)
        return;
    for (int i = 0; i < l->ntables; i++)
        table_free(l->tables[i]);
    free(l->tables);
    free(l->list_cache);
    free(l);
}
