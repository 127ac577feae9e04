/* lobby.c -- see lobby.h and docs/protocol.md. */
#include "lobby.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "../ai/bot.h"
#include "../core/error.h"
#include "../core/hash.h"
#include "../core/jsonutil.h"
#include "../core/text.h"

#define LOG_KEEP 12       /* moves kept for the log */
#define MAX_WATCHERS 64   /* spectators of one table */
#define NAME_MAX_LEN 32
#define BOT_GRACE 5       /* seconds a seat stays its player's after they drop */
#define LIST_MAX 500      /* tables in a `list` answer */
#define RESTORE_FINISHED 64 /* finished tables loaded at start (the rest on demand) */
#define CHAT_MAX_CHARS 300
#define CHAT_KEEP 2000     /* chat lines a table keeps */
#define CHAT_SENT 200      /* chat lines sent on arrival */
#define CHAT_BURST 5.0     /* chat lines a connection may send at once, then one a second */
#define ABANDONED_S 3600   /* a table nobody has been at for this long leaves the list ... */
#define ABANDONED_WAITING_S 600 /* ... or this long while it waits for players */
#define MAX_CLOCK_MINUTES 180
#define MAX_CLOCK_INCREMENT 600
#define MAX_CLOCK_HOURS 336
#define ALIVE_EVERY 5      /* seconds between notes that the server is running (clocks after a crash) ... */
#define ALIVE_EVERY_SHARED 1 /* ... and when other servers share the database (they judge it by them) */
#define DEAD_AFTER_MS 5000 /* a server silent that long is taken for dead: its bots' moves are claimed by another */

/* Text that grows (reserve, append, dump_into below), kept NUL-terminated. */
struct buffer {
    char *at;
    size_t len, cap;
};

typedef struct logged {
    int seat;
    int told;             /* another seat the move tells more (a card passed to it), or -1 */
    char mine[160];       /* as the mover sees it */
    char told_text[160];  /* as `told` sees it */
    char theirs[160];     /* as everyone else may see it */
    char news[768];       /* what everyone learned beyond the move (pb_news; four Specials sent back fit) */
} logged;

typedef struct table {
    int64_t id;
    char code[16];
    struct table *next_by_id, *next_by_code; /* the lobby's two indexes */
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
    /* Each kept entry as JSON text, made on first use: as its mover, its
     * told seat and everyone else see it (views send them as they are). */
    char *log_json[LOG_KEEP][3];
    /* The whole log as each seat (and, last, spectators) saw it, once asked
     * for (`history`): entries joined with commas, up to `moves`. */
    struct history {
        struct buffer text;
        int moves;
    } history[PB_MAX_SEATS + 1];
    int jobs;            /* bot jobs out (they point at g): the table stays while any is */
    time_t idle_since;   /* finished tables: last used; they leave memory when idle */
    bool waiting;        /* a human seat is free: nobody moves until it is taken or `start` */
    int position;        /* changes with every move and undo: bot answers for another are stale */
    unsigned char *who;  /* per move: its seat, | FORMAL when the server answered it (undo skips those) */
    int who_cap;
    json_t *events;      /* [{move, seat, kind, text}] */
    char rematch[16];
    uint64_t seed;       /* the deal, revealed at the end with ... */
    char salt[72];       /* ... the secret of its commitment ("" for a table from before) */
    char deal[PB_SHA256_HEX]; /* the commitment shown in every view, computed once */
    int chat_lines;
    time_t last_seen;    /* someone was at the table (the list leaves out abandoned tables) */
    bool grace_told[PB_MAX_SEATS]; /* a view went out when the seat could go to a bot */
    /* The clock (docs/protocol.md "Clocks"), when `clock` is not NULL. */
    json_t *clock;
    bool turn_based;
    int64_t per_move_ms, increment_ms;
    int64_t left[PB_MAX_SEATS]; /* at the start of the running turn */
    bool out[PB_MAX_SEATS];
    int64_t turn_start;  /* when the seat to move began its turn */
    struct replays *replays; /* finished tables: what replays are served from, once asked */
    struct analysis *analysis; /* finished tables: the review of every decision, once asked (`analyse`) */
    char owner[64];      /* the address that made it ("" unknown: made before a restart, or local) */
    bool presence_due;   /* who is present changed: shown at the next tick (show_presence) */
    bool stale;          /* another server changed it while a bot job pointed at it: caught up later */
    unsigned stale_what; /* what it changed (PB_CHANGED_*) */
    bool closed_elsewhere; /* closed by another server (nobody came back): to drop */
    bool claimed_elsewhere; /* the bot to move is another server's to play (asked again once a second) */
    unsigned elsewhere;  /* seats (a bit each) whose player is connected to another server */
    int64_t gen;         /* the store's count of take-backs, as last read (catch_up) */
    /* A bot move held for its pace, counted from when the last move was
     * told here (tell_moves): the store's write, or the move reaching this
     * server from another, must not shorten the wait people see. */
    bool held;
    pb_action held_action;
    int64_t held_due, last_move_at;
} table;

#define FORMAL 0x80

/* The least time before a bot's answer to a question asked alike is shown
 * (pb_lobby_bot_move), from when the question was sent: longer than any
 * bot's quick answer takes, with room for the question's way to a slow
 * client, which must still see no answer sooner than 100 ms. */
#define ALIKE_PACE_MS 150

/* A finished table's replays, built on the first request: its actions, its
 * public log, and the position every REPLAY_EVERY moves, so that a step is
 * at most that many moves away (a replay is a few moves of work, not a
 * game's). */
#define REPLAY_EVERY 16
struct replays {
    json_t *actions, *log;
    pb_state **at; /* at[i]: the position after i * REPLAY_EVERY moves */
    int n;
};

/* A finished table's analysis (`analyse`): every decision reviewed by
 * ANALYSIS_BOT through the bot workers, ANALYSIS_WINDOW jobs out at a time
 * (the queue stays short; live bots go first there). Kept with the table,
 * in memory only: it goes when the table leaves memory. */
#define ANALYSIS_BOT "hard"
#define ANALYSIS_SEED 1 /* the searches' seed, as `pizzabox analyze` by default: the same report */
#define ANALYSIS_WINDOW 2
#define ANALYSIS_ASKERS 16 /* connections told of one run's progress */
struct analysis {
    int total, done, next, out; /* decisions; reviewed; the next to ask for; jobs out */
    json_t *actions;            /* the record's moves */
    pb_state *at;               /* the position before decision `next` (NULL once all are asked) */
    json_t *reviews;            /* one per decision, null until reviewed */
    int asker[ANALYSIS_ASKERS], naskers; /* told of each review as it comes */
    uint64_t owner;             /* the first asker: its fair share of bots' time pays for the run */
};

/* What the lobby keeps of a connection: its chat allowance and the name it
 * watches under. */
#define PEER_HINTS 16 /* above the tables one connection may be at (PB_LOBBY_TABLES_PER_CONN) */

typedef struct peer {
    char address[64]; /* "" when it counts for no one */
    /* The ids of the tables it was placed at (a seat, a spectator's place,
     * an analysis waited for): a superset, so that leaving looks at these
     * only. `many` when they did not fit: every table is looked at. */
    int64_t hint[PEER_HINTS];
    int nhints;
    bool many;
    double chat_tokens;
    int64_t chat_last;
    char name[4 * NAME_MAX_LEN + 1];
} peer;

struct pb_lobby {
    pb_store *store;
    pb_lobby_io io;
    table **tables;
    int ntables, cap;
    /* Tables in memory by id and by code (chained, power-of-two buckets):
     * every message names its table, and a scan of thousands of tables a
     * message was a loaded server's largest cost. */
    table **by_id, **by_code;
    int buckets;
    char *list_cache; /* the last `tables` answer, until a table changes */
    /* Reused for every view: a game's view written out, and the message
     * put together (views are most of a server's work: no allocation and
     * no copy more than needed for each). */
    struct buffer dump, msg;
    /* The spectators' game view of the move being told, without its `seat`
     * member: theirs, and every seat's that sees no more (view_text). */
    struct buffer public_view;
    bool public_ready;
    bool seed_fixed;  /* PIZZABOX_TABLE_SEED (tests): every new table is dealt from `seed` */
    uint64_t seed;
    uint64_t bot_key; /* bots' choices are seeded from it: random, so nobody can work them out from a table's id */
    char request[16]; /* the type of the message being answered, or "" */
    int64_t alive_before; /* when the server before this one was last known running (Unix ms), or 0 */
    time_t alive_noted;
    int64_t alive_ok_at;  /* when the server last noted itself alive (Unix ms), 0: not yet */
    int announce;         /* beats left at which it says again who is connected to it */
    peer **peer_at; /* by connection id */
    int peers_cap;
    time_t last_evict;
    int64_t *presence_due; /* ids of the tables whose presence is to be shown */
    int npresence_due, presence_cap;
};

static int max_tables(const pb_lobby *l)
{
    return l->io.max_tables > 0 ? l->io.max_tables : PB_LOBBY_MAX_TABLES;
}

/* Now, Unix ms, by the database's clock: every time the lobby keeps is in
 * it, so that servers sharing a database on machines whose clocks differ
 * agree on turns' times and on who is alive. */
static int64_t now_ms(const pb_lobby *l)
{
    if (l->io.now_ms)
        return l->io.now_ms(l->io.ctx);
    return pb_store_now_ms(l->store);
}

static time_t now_s(const pb_lobby *l)
{
    return (time_t)(now_ms(l) / 1000);
}

/* The connection's record, made on first use; NULL only out of memory. */
static peer *peer_of(pb_lobby *l, int conn)
{
    if (conn < 0)
        return NULL;
    if (conn >= l->peers_cap) {
        int cap = l->peers_cap ? l->peers_cap : 64;
        while (cap <= conn)
            cap *= 2;
        peer **at = realloc(l->peer_at, sizeof *at * (size_t)cap);
        if (!at)
            return NULL;
        memset(at + l->peers_cap, 0, sizeof *at * (size_t)(cap - l->peers_cap));
        l->peer_at = at;
        l->peers_cap = cap;
    }
    if (!l->peer_at[conn]) {
        peer *p = calloc(1, sizeof *p);
        if (!p)
            return NULL;
        p->chat_tokens = CHAT_BURST;
        p->chat_last = now_ms(l);
        l->peer_at[conn] = p;
    }
    return l->peer_at[conn];
}

static peer *known_peer(const pb_lobby *l, int conn)
{
    return conn >= 0 && conn < l->peers_cap ? l->peer_at[conn] : NULL;
}

/* ---- Replies ---- */

static void send_json(pb_lobby *l, int conn, json_t *msg)
{
    char *text = json_dumps(msg, JSON_COMPACT);
    if (text)
        l->io.send(l->io.ctx, conn, text);
    free(text);
    json_decref(msg);
}

/* `joined` (seat >= 0) or `watching` at a table, with the texts its views
 * name by slug alone (pb_game_ops.glossary): given once here, not each move. */
static void send_arrival(pb_lobby *l, int conn, const table *t, int seat, const char *token, const char *reason)
{
    json_t *msg = json_pack("{s:s, s:s}", "type", seat >= 0 ? "joined" : "watching", "code", t->code);
    if (seat >= 0) {
        json_object_set_new(msg, "seat", json_integer(seat));
        json_object_set_new(msg, "token", json_string(token));
    }
    if (reason)
        json_object_set_new(msg, "reason", json_string(reason));
    if (t->g->ops->glossary)
        json_object_set_new(msg, "glossary", t->g->ops->glossary(t->g));
    send_json(l, conn, msg);
}

/* An error names the request it answers (`request`: its type), so a
 * client can show it where that request was made. */
static void send_error(pb_lobby *l, int conn, const char *message)
{
    json_t *e = json_pack("{s:s, s:s}", "type", "error", "message", message);
    if (l->request[0])
        json_object_set_new(e, "request", json_string(l->request));
    send_json(l, conn, e);
}

/* A count or an index from a message: the number when it is a whole number
 * from 0 to a million, else -1 (never a huge number cut down to a small
 * one: 4294967298 is not 2). */
static int small_number(const json_t *v)
{
    json_int_t n = json_integer_value(v);
    return json_is_integer(v) && n >= 0 && n <= 1000000 ? (int)n : -1;
}

/* ---- Tables ---- */

/* ---- The indexes of tables in memory ---- */

static unsigned bucket_of_id(const pb_lobby *l, int64_t id)
{
    return (unsigned)(((uint64_t)id * 0x9E3779B97F4A7C15u) >> 32) & (unsigned)(l->buckets - 1);
}

static unsigned bucket_of_code(const pb_lobby *l, const char *code)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (; *code; code++)
        h = (h ^ (unsigned char)*code) * 16777619u;
    return h & (unsigned)(l->buckets - 1);
}

static void index_table(pb_lobby *l, table *t)
{
    unsigned b = bucket_of_id(l, t->id);
    t->next_by_id = l->by_id[b];
    l->by_id[b] = t;
    b = bucket_of_code(l, t->code);
    t->next_by_code = l->by_code[b];
    l->by_code[b] = t;
}

/* Buckets for `want` tables or more, every table indexed again. */
static int grow_index(pb_lobby *l, int want)
{
    int n = l->buckets ? l->buckets : 256;
    while (n < want)
        n *= 2;
    table **by_id = calloc((size_t)n, sizeof *by_id), **by_code = calloc((size_t)n, sizeof *by_code);
    if (!by_id || !by_code) {
        free(by_id);
        free(by_code);
        return -1;
    }
    free(l->by_id);
    free(l->by_code);
    l->by_id = by_id;
    l->by_code = by_code;
    l->buckets = n;
    for (int i = 0; i < l->ntables; i++)
        index_table(l, l->tables[i]);
    return 0;
}

static void unindex_table(pb_lobby *l, const table *t)
{
    table **p = &l->by_id[bucket_of_id(l, t->id)];
    while (*p && *p != t)
        p = &(*p)->next_by_id;
    if (*p)
        *p = t->next_by_id;
    p = &l->by_code[bucket_of_code(l, t->code)];
    while (*p && *p != t)
        p = &(*p)->next_by_code;
    if (*p)
        *p = t->next_by_code;
}

static table *find_table(pb_lobby *l, const char *code)
{
    if (!code || !l->buckets)
        return NULL;
    for (table *t = l->by_code[bucket_of_code(l, code)]; t; t = t->next_by_code)
        if (strcmp(t->code, code) == 0)
            return t;
    return NULL;
}

static table *find_table_id(pb_lobby *l, int64_t id)
{
    if (!l->buckets)
        return NULL;
    for (table *t = l->by_id[bucket_of_id(l, id)]; t; t = t->next_by_id)
        if (t->id == id)
            return t;
    return NULL;
}

static void table_free(table *t)
{
    if (!t)
        return;
    free(t->st);
    pb_game_free(t->g);
    free(t->who);
    for (int i = 0; i < LOG_KEEP; i++)
        for (int v = 0; v < 3; v++)
            free(t->log_json[i][v]);
    for (int i = 0; i <= PB_MAX_SEATS; i++)
        free(t->history[i].text.at);
    json_decref(t->events);
    json_decref(t->clock);
    if (t->replays) {
        for (int i = 0; i < t->replays->n; i++)
            free(t->replays->at[i]);
        free(t->replays->at);
        json_decref(t->replays->actions);
        json_decref(t->replays->log);
        free(t->replays);
    }
    if (t->analysis) {
        free(t->analysis->at);
        json_decref(t->analysis->actions);
        json_decref(t->analysis->reviews);
        free(t->analysis);
    }
    free(t);
}

static int add_table(pb_lobby *l, table *t)
{
    if (l->ntables >= l->buckets && grow_index(l, 2 * (l->ntables + 1)) != 0)
        return -1;
    if (l->ntables == l->cap) {
        int cap = l->cap ? l->cap * 2 : 64;
        table **tables = realloc(l->tables, sizeof *tables * (size_t)cap);
        if (!tables)
            return -1;
        l->tables = tables;
        l->cap = cap;
    }
    l->tables[l->ntables++] = t;
    index_table(l, t);
    return 0;
}

/* A table out of memory (closed a moment after it was made). */
static void drop_table(pb_lobby *l, table *t)
{
    for (int i = 0; i < l->ntables; i++)
        if (l->tables[i] == t) {
            l->tables[i] = l->tables[--l->ntables];
            break;
        }
    unindex_table(l, t);
    table_free(t);
    free(l->list_cache);
    l->list_cache = NULL;
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

/* A short code people can read out: no 0/O, 1/I. Four characters while
 * a few random tries find a free one, then five, and so on: codes are
 * never reused, so the short ones run out, and the search always ends
 * (CODE_MAX characters would take 32^12 tables to fill). */
#define CODE_MAX 12
static void new_code(pb_lobby *l, char *out)
{
    static const char letters[] = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    for (int len = 4, tries = 0;; tries++) {
        if (tries == 16 && len < CODE_MAX) {
            len++;
            tries = 0;
        }
        unsigned char r[CODE_MAX];
        if (getrandom(r, (size_t)len, 0) != (ssize_t)len)
            for (int i = 0; i < len; i++)
                r[i] = (unsigned char)rand();
        for (int i = 0; i < len; i++)
            out[i] = letters[r[i] % (sizeof letters - 1)];
        out[len] = 0;
        if (!find_table(l, out) && pb_store_find_code(l->store, out) < 0)
            return;
    }
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

/* A log entry as `seat` (-1: a spectator) may see it. */
static json_t *log_entry(const logged *e, int move, int seat)
{
    const char *text = seat == e->seat ? e->mine : seat >= 0 && seat == e->told ? e->told_text : e->theirs;
    json_t *entry = json_pack("{s:i, s:i, s:s}", "move", move, "seat", e->seat, "text", text);
    if (e->news[0])
        json_object_set_new(entry, "news", json_string(e->news));
    return entry;
}

/* The seat whose time runs now, or -1. */
static int running_seat(const table *t)
{
    if (!t->clock || t->waiting || t->finished)
        return -1;
    int seat = pb_current_seat(t->g, t->st);
    return seat >= 0 && strcmp(t->player[seat], "human") == 0 ? seat : -1;
}

/* Milliseconds the seat has left now (its turn's time taken off when it
 * runs). */
static int64_t time_left(const pb_lobby *l, const table *t, int seat)
{
    return t->left[seat] - (seat == running_seat(t) ? now_ms(l) - t->turn_start : 0);
}

static json_t *clock_of(const pb_lobby *l, const table *t)
{
    if (!t->clock)
        return json_null();
    json_t *c = json_deep_copy(t->clock), *left = json_array(), *out = json_array();
    for (int s = 0; s < t->players; s++) {
        bool human = strcmp(t->player[s], "human") == 0;
        int64_t ms = time_left(l, t, s);
        json_array_append_new(left, human ? json_integer(ms > 0 ? ms : 0) : json_null());
        json_array_append_new(out, json_boolean(t->out[s]));
    }
    int run = running_seat(t);
    json_object_set_new(c, "left", left);
    json_object_set_new(c, "out", out);
    json_object_set_new(c, "running", run >= 0 ? json_integer(run) : json_null());
    return c;
}

/* Is the seat's player connected, here or to another server? */
static bool present(const table *t, int s)
{
    return t->conn[s] >= 0 || (t->elsewhere >> s & 1);
}

/* The connection at the seat (-1: none); servers sharing a database learn
 * whether its player is connected to this one. */
static void seat_conn(pb_lobby *l, table *t, int s, int conn)
{
    if ((t->conn[s] >= 0) != (conn >= 0))
        pb_store_set_present(l->store, t->id, s, conn >= 0);
    t->conn[s] = conn;
}

static bool can_hand_to_bot(const pb_lobby *l, const table *t, int s)
{
    return !t->finished && !t->waiting && strcmp(t->player[s], "human") == 0 && !present(t, s) && t->taken[s] &&
           now_s(l) - t->left_at[s] >= BOT_GRACE;
}

static bool only_person(const table *t, int seat);
static int seat_to_bot(pb_lobby *l, table *t, int s, const char *kind, const char *why, char *err, size_t errlen);

/* Did a person other than `seat` ever play at the table (a seat a bot took
 * over when its player left or ran out of time)? Then moves are not taken
 * back: that person saw them. */
static bool had_other_person(const table *t, int seat)
{
    size_t i;
    json_t *e;
    json_array_foreach(t->events, i, e)
    {
        const char *kind = json_string_value(json_object_get(e, "kind"));
        if (json_integer_value(json_object_get(e, "seat")) != seat &&
            (strcmp(kind, "bot") == 0 || strcmp(kind, "time") == 0))
            return true;
    }
    return false;
}

/* The move `undo` would take back to (the seat's last decision that the
 * server did not make for it), or -1. */
static int undo_point(const table *t, int seat)
{
    if (seat < 0 || t->finished || t->waiting || !only_person(t, seat) || had_other_person(t, seat))
        return -1;
    int k = t->moves - 1;
    while (k >= 0 && t->who[k] != seat) /* a formality carries FORMAL: never equal */
        k--;
    return k;
}

/* Who may start a waiting table: its first seated person (the creator, or
 * at a rematch the player who asked for it, in their old seat). */
static int creator_of(const table *t)
{
    for (int s = 0; s < t->players; s++)
        if ((strcmp(t->player[s], "human") == 0 && t->taken[s]) || t->out[s])
            return s;
    for (int s = 0; s < t->players; s++)
        if (strcmp(t->player[s], "human") == 0)
            return s;
    return 0;
}

/* Kept move `move` (one of the last nlog) as `seat` (-1: spectators) sees
 * it, as JSON text; NULL when out of memory. */
static const char *entry_json(table *t, int move, int seat)
{
    int k = move % LOG_KEEP;
    const logged *e = &t->log[k];
    int v = seat == e->seat ? 0 : seat >= 0 && seat == e->told ? 1 : 2;
    if (!t->log_json[k][v]) {
        json_t *entry = log_entry(e, move, v == 0 ? e->seat : v == 1 ? e->told : -1);
        t->log_json[k][v] = json_dumps(entry, JSON_COMPACT);
        json_decref(entry);
    }
    return t->log_json[k][v];
}

/* Room in b for `need` bytes in all; false when out of memory. */
static bool reserve(struct buffer *b, size_t need)
{
    if (need <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 4096;
    while (need > cap)
        cap *= 2;
    char *at = realloc(b->at, cap);
    if (!at)
        return false;
    b->at = at;
    b->cap = cap;
    return true;
}

/* Append n bytes to b (kept NUL-terminated); false when out of memory. */
static bool append(struct buffer *b, const char *text, size_t n)
{
    if (!reserve(b, b->len + n + 1))
        return false;
    memcpy(b->at + b->len, text, n);
    b->len += n;
    b->at[b->len] = 0;
    return true;
}

static bool append_str(struct buffer *b, const char *text)
{
    return text && append(b, text, strlen(text));
}

/* j written out into b, in place of what b held; false when it cannot be. */
static bool dump_into(struct buffer *b, const json_t *j)
{
    size_t n = j ? json_dumpb(j, b->at, b->cap, JSON_COMPACT) : 0;
    if (n && n >= b->cap) { /* too small: grown to fit, written again */
        if (!reserve(b, n + 1))
            return false;
        n = json_dumpb(j, b->at, b->cap, JSON_COMPACT);
    }
    b->len = 0;
    if (!n || n >= b->cap)
        return false;
    b->len = n;
    b->at[n] = 0;
    return true;
}

/* "{...}" or "[...]" of n bytes to "..." in place; the new length. */
static size_t unwrap(char *text, size_t n)
{
    memmove(text, text + 1, n - 2);
    text[n - 2] = 0;
    return n - 2;
}

/* The members of a `view` message that are the same for every seat, as
 * JSON text without the braces: made once for all the seats of a move. */
static char *view_common(pb_lobby *l, table *t)
{
    json_t *here = json_array(), *botable = json_array();
    for (int s = 0; s < t->players; s++) {
        json_array_append_new(here, json_boolean(present(t, s)));
        json_array_append_new(botable, json_boolean(can_hand_to_bot(l, t, s)));
    }
    json_t *msg = json_pack("{s:s, s:o, s:o, s:i, s:b, s:i, s:o, s:o, s:o, s:O}", "code", t->code, "names",
                            names_of(t), "players", players_of(t), "moves", t->moves, "waiting", t->waiting,
                            "creator", creator_of(t), "present", here, "botable", botable, "clock",
                            clock_of(l, t), "events", t->events);
    if (t->salt[0]) { /* the commitment from the start; the deal itself once the game is over */
        json_t *deal = json_pack("{s:s}", "sha256", t->deal);
        if (t->finished) {
            json_object_set_new(deal, "seed", json_integer((json_int_t)t->seed));
            json_object_set_new(deal, "salt", json_string(t->salt));
        }
        json_object_set_new(msg, "deal", deal);
    }
    if (t->rematch[0])
        json_object_set_new(msg, "rematch", json_string(t->rematch));
    if (t->finished) {
        const char *names[PB_MAX_SEATS];
        json_object_set_new(msg, "score", t->g->ops->score_report(t->g, t->st, seat_names(t, names)));
    }
    char *text = json_dumps(msg, JSON_COMPACT);
    json_decref(msg);
    if (text)
        unwrap(text, strlen(text));
    return text;
}

/* The `view` message for a seat (-1: spectators), as text to send, in
 * l->msg (until the next view): the seat's own members, the log and the
 * game's view around `common` (view_common). Pieces of text are joined,
 * not a JSON tree built and written out again. NULL when out of memory. */
static const char *view_text(pb_lobby *l, table *t, int seat, const char *common)
{
    char head[96], seat_json[16] = "null";
    if (seat >= 0)
        snprintf(seat_json, sizeof seat_json, "%d", seat);
    /* A seat that sees what spectators see gets their view, written once
     * a move without its `seat` member (l->public_view), with its own. */
    bool shared = seat < 0 || (t->g->ops->view_is_public && t->g->ops->view_is_public(t->g, t->st, seat));
    bool ok = true;
    if (shared && !l->public_ready) {
        json_t *gv = t->g->ops->view(t->g, t->st, PB_SPECTATOR);
        json_object_del(gv, "seat");
        ok = l->public_ready = dump_into(&l->public_view, gv) && l->public_view.len >= 2;
        json_decref(gv);
    } else if (!shared) {
        json_t *gv = t->g->ops->view(t->g, t->st, seat);
        ok = dump_into(&l->dump, gv);
        json_decref(gv);
    }
    snprintf(head, sizeof head, "{\"type\":\"view\",\"seat\":%s,\"undo\":%s,", seat_json,
             undo_point(t, seat) >= 0 ? "true" : "false");
    struct buffer *m = &l->msg;
    m->len = 0;
    ok = ok && append_str(m, head) && append_str(m, common) && append_str(m, ",\"log\":[");
    for (int i = 0; ok && i < t->nlog; i++)
        ok = (i == 0 || append_str(m, ",")) && append_str(m, entry_json(t, t->moves - t->nlog + i, seat));
    ok = ok && append_str(m, "],\"view\":");
    if (ok && shared) { /* {"seat":N, + the rest of the public view */
        const struct buffer *pv = &l->public_view;
        ok = append_str(m, "{\"seat\":") && append_str(m, seat_json) &&
             append_str(m, pv->len > 2 ? "," : "") && append(m, pv->at + 1, pv->len - 1);
    } else if (ok) {
        ok = append(m, l->dump.at, l->dump.len);
    }
    ok = ok && append_str(m, "}");
    return ok ? m->at : NULL;
}

static void send_view(pb_lobby *l, table *t, int conn, int seat)
{
    l->public_ready = false;
    char *common = view_common(l, t);
    const char *text = common ? view_text(l, t, seat, common) : NULL;
    if (text)
        l->io.send(l->io.ctx, conn, text);
    free(common);
}

static void broadcast(pb_lobby *l, table *t)
{
    t->presence_due = false; /* the views say who is present */
    free(l->list_cache); /* something changed: the table list is rebuilt on demand */
    l->list_cache = NULL;
    char *common = view_common(l, t);
    if (!common)
        return;
    l->public_ready = false;
    for (int s = 0; s < t->players; s++) {
        const char *text = t->conn[s] >= 0 ? view_text(l, t, s, common) : NULL;
        if (text)
            l->io.send(l->io.ctx, t->conn[s], text);
    }
    /* One spectators' view, made once for them all (up to MAX_WATCHERS). */
    const char *text = t->nwatchers ? view_text(l, t, -1, common) : NULL;
    for (int i = 0; text && i < t->nwatchers; i++)
        l->io.send(l->io.ctx, t->watcher[i], text);
    free(common);
}

/* Tell everyone of the table, with the moves made since the count `had`:
 * when there are some, a bot's pace counts from now, when people see them,
 * not from when they were stored. */
static void tell_moves(pb_lobby *l, table *t, int had)
{
    broadcast(l, t);
    if (t->moves != had)
        t->last_move_at = now_ms(l);
}

/* A message (taken) to everyone at the table: its seats here and its spectators. */
static void send_to_table(pb_lobby *l, const table *t, json_t *msg)
{
    char *dump = msg ? json_dumps(msg, JSON_COMPACT) : NULL;
    json_decref(msg);
    for (int s = 0; dump && s < t->players; s++)
        if (t->conn[s] >= 0)
            l->io.send(l->io.ctx, t->conn[s], dump);
    for (int w = 0; dump && w < t->nwatchers; w++)
        l->io.send(l->io.ctx, t->watcher[w], dump);
    free(dump);
}

/* Who is present at the table changed (a seat taken, left, taken back):
 * the others are shown it at the next tick, once for all the changes of
 * that moment. When a table's four players come or go together, a round
 * of views for each of them was the larger part of the work. */
static void show_presence(pb_lobby *l, table *t)
{
    free(l->list_cache); /* the list shows seats taken at once */
    l->list_cache = NULL;
    if (t->presence_due)
        return;
    if (l->npresence_due == l->presence_cap) {
        int cap = l->presence_cap ? 2 * l->presence_cap : 64;
        int64_t *ids = realloc(l->presence_due, sizeof *ids * (size_t)cap);
        if (!ids) {
            broadcast(l, t);
            return;
        }
        l->presence_due = ids;
        l->presence_cap = cap;
    }
    t->presence_due = true;
    l->presence_due[l->npresence_due++] = t->id;
}

static void show_due_presence(pb_lobby *l)
{
    for (int i = 0; i < l->npresence_due; i++) {
        table *t = find_table_id(l, l->presence_due[i]);
        if (t && t->presence_due)
            broadcast(l, t);
    }
    l->npresence_due = 0;
}

/* ---- Moves ---- */

/* Whose bot work it is, from an address: FNV-1a. */
static uint64_t owner_of(const char *address)
{
    uint64_t owner = 1469598103934665603u;
    for (const char *c = address; *c; c++)
        owner = (owner ^ (unsigned char)*c) * 1099511628211u;
    return owner;
}

static void ask_bot_if_needed(pb_lobby *l, table *t)
{
    if (t->finished || t->bot_asked || t->waiting || t->closed_elsewhere)
        return;
    int seat = pb_current_seat(t->g, t->st);
    if (seat < 0 || strcmp(t->player[seat], "human") == 0)
        return;
    /* Servers sharing a database: one of them makes the move, the one that
     * claims it first (or outlives the one that did). */
    t->claimed_elsewhere = pb_store_claim(l->store, t->id, t->moves, now_ms(l) - DEAD_AFTER_MS) != 1;
    if (t->claimed_elsewhere)
        return;
    pb_bot_job *job = calloc(1, sizeof *job);
    if (!job || !(job->state = pb_state_clone(t->g, t->st))) {
        free(job);
        return;
    }
    job->table = t->id;
    job->moves = t->position;
    job->seat = seat;
    snprintf(job->bot, sizeof job->bot, "%s", t->player[seat]);
    job->seed = pb_derive_seed(l->bot_key ^ (uint64_t)t->id, (uint64_t)t->moves);
    job->game = t->g;
    /* Bots' time is shared by who made the tables: one client's many
     * tables wait for each other, not everyone else's. */
    job->owner = t->owner[0] ? owner_of(t->owner) : (uint64_t)t->id;
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

/* Room to note one more move; false when out of memory. */
static bool who_room(table *t)
{
    if (t->moves < t->who_cap)
        return true;
    int cap = t->who_cap ? t->who_cap * 2 : 64;
    unsigned char *who = realloc(t->who, (size_t)cap);
    if (!who)
        return false;
    t->who = who;
    t->who_cap = cap;
    return true;
}

/* Keep a move's entry in the log and who made it (who_room first). */
static void note_move(table *t, const logged *e, bool formal)
{
    t->who[t->moves] = (unsigned char)(e->seat | (formal ? FORMAL : 0));
    t->log[t->moves % LOG_KEEP] = *e;
    for (int v = 0; v < 3; v++) {
        free(t->log_json[t->moves % LOG_KEEP][v]);
        t->log_json[t->moves % LOG_KEEP][v] = NULL;
    }
    t->nlog = t->nlog < LOG_KEEP ? t->nlog + 1 : LOG_KEEP;
    t->moves++;
    t->position++;
}

/* Replay stored actions on t (its state fresh from the seed), at most
 * `upto` of them, noting each; with `out`, each move's log entry as `seat`
 * sees it goes there too. 0, or -1 with a message. */
static int replay_stored(table *t, const json_t *actions, int upto, int seat, json_t *out, char *err, size_t errlen)
{
    pb_state *before = pb_state_clone(t->g, t->st);
    if (!before)
        return pb_errorf(err, errlen, "out of memory");
    int rc = 0;
    for (size_t i = 0; rc == 0 && (int)i < upto && i < json_array_size(actions); i++) {
        int mover = pb_current_seat(t->g, t->st);
        pb_action act;
        if (!who_room(t) ||
            t->g->ops->action_from_text(t->g, t->st, json_string_value(json_array_get(actions, i)), &act, err,
                                        errlen) != 0) {
            rc = -1;
            break;
        }
        logged e = describe_move(t, act, mover);
        bool formal = strcmp(t->player[mover], "human") == 0 && pb_is_formality(t->g, t->st) && only_person(t, mover);
        const char *names[PB_MAX_SEATS];
        pb_state_copy(t->g, before, t->st);
        rc = t->g->ops->apply(t->g, t->st, act, err, errlen);
        if (rc == 0) {
            pb_news(t->g, before, t->st, seat_names(t, names), e.news, sizeof e.news);
            if (out)
                json_array_append_new(out, log_entry(&e, t->moves, seat));
            note_move(t, &e, formal);
        }
    }
    free(before);
    return rc;
}

/* The log of a table's first `upto` moves as `seat` sees them, replayed
 * from the store (the table keeps only the last few); NULL with a message. */
static json_t *stored_log(pb_lobby *l, const table *t, int upto, int seat, char *err, size_t errlen)
{
    pb_stored_table st;
    if (pb_store_load(l->store, t->id, &st, err, errlen) != 0)
        return NULL;
    table *tmp = calloc(1, sizeof *tmp);
    json_t *log = json_array();
    if (tmp) {
        tmp->g = t->g; /* shared, not freed here */
        tmp->players = t->players;
        memcpy(tmp->player, t->player, sizeof tmp->player);
        memcpy(tmp->name, t->name, sizeof tmp->name);
        tmp->st = pb_state_new(t->g, st.seed);
    }
    if (!tmp || !tmp->st || replay_stored(tmp, st.actions, upto, seat, log, err, errlen) != 0) {
        if (!tmp || !tmp->st)
            pb_errorf(err, errlen, "out of memory");
        json_decref(log);
        log = NULL;
    }
    if (tmp) {
        free(tmp->st);
        free(tmp->who);
    }
    free(tmp);
    pb_stored_table_free(&st);
    return log;
}

/* What a move by `seat` at `at` takes off its clock: the time since its
 * turn began, at least 1 ms (0 for bots, without a clock, on a turn-based
 * one): a person's move always stores time, which is how a restart knows
 * to give it the increment. */
static int64_t clock_spent(const table *t, int seat, int64_t at)
{
    bool timed = t->clock && !t->turn_based && seat >= 0 && strcmp(t->player[seat], "human") == 0;
    return !timed ? 0 : at > t->turn_start ? at - t->turn_start : 1;
}

/* The clock after a move by `seat` at `at` that took `spent` off it (the
 * increment given back), and the next turn starts. */
static void clock_move(table *t, int seat, int64_t at, int64_t spent)
{
    if (t->clock && seat >= 0 && strcmp(t->player[seat], "human") == 0) {
        if (t->turn_based)
            t->left[seat] = t->per_move_ms;
        else if (spent > 0)
            t->left[seat] -= spent - t->increment_ms;
    }
    t->turn_start = at;
}

/* A move another server stored (docs/scaling.md): when, and what it took
 * off its mover's clock there (the server that timed the turn says). */
typedef struct stored_move {
    int64_t at, spent;
} stored_move;

/* Apply a move: durable in the store first, then in memory (nobody told
 * yet). Returns 0, or -1 with a message (nothing changed). A move made
 * here (stored NULL: stored now), or one another server stored, taken in
 * the same way. */
static int apply_move(pb_lobby *l, table *t, int seat, pb_action a, const stored_move *stored, char *err,
                      size_t errlen)
{
    char text[256];
    if (t->g->ops->action_to_text(t->g, t->st, a, text, sizeof text) != 0)
        return pb_errorf(err, errlen, "that move is not legal now");
    logged e = describe_move(t, a, seat);
    const char *names[PB_MAX_SEATS];
    bool formal = strcmp(t->player[seat], "human") == 0 && pb_is_formality(t->g, t->st) && only_person(t, seat) &&
                  t->nwatchers == 0;
    bool here = !stored;
    int64_t at = here ? now_ms(l) : stored->at, spent = here ? clock_spent(t, seat, at) : stored->spent;
    pb_state *next = pb_state_clone(t->g, t->st);
    if (!next || !who_room(t)) {
        free(next);
        return pb_errorf(err, errlen, "out of memory");
    }
    int rc = t->g->ops->apply(t->g, next, a, err, errlen);
    if (rc == 0 && here)
        rc = pb_store_append_action(l->store, t->id, t->moves, seat, text, at, spent, err, errlen);
    if (rc != 0) {
        free(next);
        if (rc == PB_STORE_TAKEN) /* another server's move came first: take it in (catch_up) */
            t->stale = true;
        return -1;
    }
    pb_news(t->g, t->st, next, seat_names(t, names), e.news, sizeof e.news);
    free(t->st);
    t->st = next;
    note_move(t, &e, formal);
    clock_move(t, seat, at, spent);
    t->bot_asked = false;
    if (pb_is_terminal(t->g, t->st)) {
        t->finished = true;
        t->idle_since = now_s(l);
        if (here)
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
 * Only at a table of one person and bots that nobody watches: other people
 * (spectators too) would learn from the question skipped that the seat had
 * nothing to answer with. Bots answer their own. Stops at the first that
 * cannot be stored. */
static void answer_formalities(pb_lobby *l, table *t)
{
    pb_action *legal = NULL;
    while (!t->finished && pb_is_formality(t->g, t->st)) {
        int seat = pb_current_seat(t->g, t->st);
        if (strcmp(t->player[seat], "human") != 0 || !only_person(t, seat) || t->nwatchers > 0)
            break;
        char err[PB_ERR_LEN];
        if (!legal && !(legal = malloc(sizeof *legal * PB_MAX_ACTIONS)))
            break;
        if (t->g->ops->legal_actions(t->g, t->st, legal) != 1 ||
            apply_move(l, t, seat, legal[0], NULL, err, sizeof err) != 0) {
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
    int had = t->moves;
    if (apply_move(l, t, seat, a, NULL, err, errlen) != 0)
        return -1;
    answer_formalities(l, t);
    tell_moves(l, t, had);
    ask_bot_if_needed(l, t);
    return 0;
}

static table *catch_up(pb_lobby *l, table *t, unsigned what);
static void take_in_new(pb_lobby *l, int64_t id);
static void send_new_chat(pb_lobby *l, table *t, int from, int count);

/* A bot's move not played: another server's came first (then what it
 * stored is taken in), or it should not happen (the bot is asked again). */
static void retake(pb_lobby *l, table *t)
{
    if (t->stale)
        catch_up(l, t, PB_CHANGED_ALL);
    else
        ask_bot_if_needed(l, t);
}

void pb_lobby_bot_move(pb_lobby *l, int64_t id, int moves, pb_action a)
{
    table *t = find_table_id(l, id);
    if (t && t->jobs > 0)
        t->jobs--;
    if (!t)
        return;
    if (t->stale && t->jobs == 0) /* another server moved it meanwhile */
        t = catch_up(l, t, PB_CHANGED_ALL);
    if (t->closed_elsewhere) /* no more moves: it leaves at the next tick */
        return;
    if (t->position != moves) {
        /* The table moved on (undo), or the bot could not move (-1): once no
         * job is out, the bot to move is asked again. */
        if (t->jobs == 0) {
            t->bot_asked = false;
            ask_bot_if_needed(l, t);
        }
        return;
    }
    /* Paced: held until its time, so people see one step at a time. An
     * answer to a question asked of every seat alike is held at least
     * ALIKE_PACE_MS even unpaced: a bot with one legal answer decides
     * sooner, and when it answered must not tell what it holds. */
    int pace = l->io.bot_pace_ms;
    if (pb_is_asked_alike(t->g, t->st) && pace < ALIKE_PACE_MS)
        pace = ALIKE_PACE_MS;
    int64_t due = t->last_move_at + pace;
    if (pace > 0 && now_ms(l) < due) {
        t->held = true;
        t->held_action = a;
        t->held_due = due;
        return;
    }
    t->bot_asked = false;
    char err[PB_ERR_LEN];
    int seat = pb_current_seat(t->g, t->st);
    if (seat < 0 || play_move(l, t, seat, a, err, sizeof err) != 0)
        retake(l, t);
}

/* Bot moves whose pace has come. */
static void make_held_moves(pb_lobby *l)
{
    int64_t now = now_ms(l);
    for (int i = 0; i < l->ntables; i++) {
        table *t = l->tables[i];
        if (!t->held || now < t->held_due || t->closed_elsewhere)
            continue;
        t->held = false;
        t->bot_asked = false;
        char err[PB_ERR_LEN];
        int seat = pb_current_seat(t->g, t->st);
        if (seat < 0 || play_move(l, t, seat, t->held_action, err, sizeof err) != 0)
            retake(l, t);
    }
}

/* ---- Connections and seats ---- */

/* Seats and spectators' places the connection has at the table. */
static int places_at(const table *t, int conn)
{
    int n = 0;
    for (int s = 0; s < t->players; s++)
        n += t->conn[s] == conn;
    for (int w = 0; w < t->nwatchers; w++)
        n += t->watcher[w] == conn;
    return n;
}

static bool waits_for_analysis(const table *t, int conn)
{
    for (int k = 0; t->analysis && k < t->analysis->naskers; k++)
        if (t->analysis->asker[k] == conn)
            return true;
    return false;
}

/* The connection is placed at the table (a seat, a place to watch from, an
 * analysis waited for): remembered, so that leaving and counting look at
 * its tables only. */
static void place(pb_lobby *l, int conn, const table *t)
{
    peer *p = peer_of(l, conn);
    if (!p || p->many)
        return;
    for (int i = 0; i < p->nhints; i++)
        if (p->hint[i] == t->id)
            return;
    if (p->nhints == PEER_HINTS) { /* forget the tables it has left */
        int kept = 0;
        for (int i = 0; i < p->nhints; i++) {
            const table *h = find_table_id(l, p->hint[i]);
            if (h && (places_at(h, conn) || waits_for_analysis(h, conn)))
                p->hint[kept++] = p->hint[i];
        }
        p->nhints = kept;
    }
    if (p->nhints == PEER_HINTS)
        p->many = true;
    else
        p->hint[p->nhints++] = t->id;
}

static int seats_of_conn(pb_lobby *l, int conn)
{
    int n = 0;
    const peer *p = known_peer(l, conn);
    if (p && !p->many) {
        for (int i = 0; i < p->nhints; i++) {
            const table *t = find_table_id(l, p->hint[i]);
            n += t ? places_at(t, conn) : 0;
        }
        return n;
    }
    for (int i = 0; i < l->ntables; i++)
        n += places_at(l->tables[i], conn);
    return n;
}

/* Does the connection watch the table? */
static bool watches(const table *t, int conn)
{
    for (int w = 0; w < t->nwatchers; w++)
        if (t->watcher[w] == conn)
            return true;
    return false;
}

/* The seat a connection holds at a table, or -1. */
static int seat_of(const table *t, int conn)
{
    for (int s = 0; s < t->players; s++)
        if (t->conn[s] == conn)
            return s;
    return -1;
}

/* The length in bytes of a character at c that is invisible or turns the
 * text's direction (C1 controls, soft hyphen, zero-width spaces and marks,
 * bidirectional embeddings, overrides and isolates, the byte order mark),
 * or 0. The zero-width joiner stays: emoji are made with it. */
static size_t invisible_at(const unsigned char *c)
{
    if (c[0] == 0xC2 && (c[1] <= 0x9F || c[1] == 0xAD) && c[1] >= 0x80)
        return 2;
    if (c[0] == 0xD8 && c[1] == 0x9C)
        return 2;
    if (c[0] == 0xE1 && c[1] == 0xA0 && c[2] == 0x8E)
        return 3;
    if (c[0] == 0xE2 && c[1] == 0x80 && ((c[2] >= 0x8B && c[2] <= 0x8F && c[2] != 0x8D) || (c[2] >= 0xAA && c[2] <= 0xAE)))
        return 3;
    if (c[0] == 0xE2 && c[1] == 0x81 && ((c[2] >= 0xA0 && c[2] <= 0xA4) || (c[2] >= 0xA6 && c[2] <= 0xA9)))
        return 3;
    if (c[0] == 0xEF && c[1] == 0xBB && c[2] == 0xBF)
        return 3;
    return 0;
}

/* At most NAME_MAX_LEN characters (not bytes: names are UTF-8), control
 * characters shown as '?', invisible and direction-changing ones left out
 * (a name cannot hide or turn the text around it). */
static void clean_name(const char *in, char *out, size_t n)
{
    size_t len = 0;
    const unsigned char *c = (const unsigned char *)in;
    for (int chars = 0; *c && chars < NAME_MAX_LEN;) {
        size_t skip = invisible_at(c);
        if (skip) {
            c += skip;
            continue;
        }
        /* One whole character at a time (the input is valid UTF-8). */
        size_t k = *c >= 0xF0 ? 4 : *c >= 0xE0 ? 3 : *c >= 0xC0 ? 2 : 1;
        if (len + k >= n)
            break;
        size_t i = 0;
        for (; i < k && c[i]; i++)
            out[len++] = c[i] < 0x20 || c[i] == 0x7f ? '?' : (char)c[i];
        c += i;
        chars++;
    }
    while (len > 0 && out[len - 1] == ' ')
        len--;
    out[len] = 0;
}

static bool has_free_seat(const table *t)
{
    for (int s = 0; s < t->players; s++)
        if (!t->taken[s] && strcmp(t->player[s], "human") == 0)
            return true;
    return false;
}

/* Something that happened beside the moves, stored and told with the views. */
static void add_event(pb_lobby *l, table *t, int seat, const char *kind, const char *text)
{
    char err[PB_ERR_LEN];
    if (pb_store_add_event(l->store, t->id, t->moves, seat, kind, text, err, sizeof err) != 0)
        fprintf(stderr, "pizzabox serve: table %s: %s\n", t->code, err);
    json_array_append_new(t->events, json_pack("{s:i, s:i, s:s, s:s}", "move", t->moves, "seat", seat, "kind", kind,
                                               "text", text));
}

/* The last human seat is taken (or `start`): the game begins, clocks run. */
static void begin(pb_lobby *l, table *t)
{
    char err[PB_ERR_LEN];
    t->waiting = false;
    t->turn_start = t->last_move_at = now_ms(l);
    if (pb_store_set_started(l->store, t->id, t->turn_start, err, sizeof err) != 0)
        fprintf(stderr, "pizzabox serve: table %s: %s\n", t->code, err);
}

/* The chat lines a newcomer to the table gets at once. */
static void send_chat_history(pb_lobby *l, table *t, int conn)
{
    int count;
    json_t *lines = pb_store_chat(l->store, t->id, CHAT_SENT, &count);
    send_json(l, conn, json_pack("{s:s, s:s, s:o, s:b}", "type", "chat", "code", t->code, "lines", lines, "history",
                                 1));
}

static int take_seat(pb_lobby *l, table *t, int seat, int conn, const char *name, char *err, size_t errlen)
{
    char token[33];
    random_hex(token, 16);
    char clean[4 * NAME_MAX_LEN + 1];
    clean_name(name ? name : "", clean, sizeof clean);
    if (!clean[0] || strspn(clean, " ") == strlen(clean))
        snprintf(clean, sizeof clean, "Player");
    int rc = pb_store_take_seat(l->store, t->id, seat, "human", clean, token, err, errlen);
    if (rc != 0)
        return rc;
    snprintf(t->name[seat], sizeof t->name[seat], "%s", clean);
    t->taken[seat] = true;
    seat_conn(l, t, seat, conn);
    place(l, conn, t);
    send_arrival(l, conn, t, seat, token, NULL);
    bool begins = t->waiting && !has_free_seat(t);
    if (begins)
        begin(l, t);
    send_chat_history(l, t, conn);
    if (begins) {
        broadcast(l, t);
    } else { /* the newcomer's view now; the others see the new name at the next tick */
        send_view(l, t, conn, seat);
        show_presence(l, t);
    }
    ask_bot_if_needed(l, t);
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

/* Unfinished tables made from an address (every server's: each holds
 * every unfinished table, its owner stored with it). */
static int tables_of_owner(const pb_lobby *l, const char *address)
{
    int n = 0;
    for (int i = 0; i < l->ntables; i++)
        n += !l->tables[i]->finished && strcmp(l->tables[i]->owner, address) == 0;
    return n;
}

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
static bool attended(const table *t);

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
    time_t now = now_s(l);
    for (int i = 0; i < n; i++) { /* the newest first */
        const pb_table_head *h = &heads[i];
        const table *t = h->finished ? NULL : find_table_id(l, h->id);
        if (t && !attended(t) && !(t->clock && t->turn_based) &&
            now - t->last_seen >= (t->waiting ? ABANDONED_WAITING_S : ABANDONED_S))
            continue; /* abandoned: it still opens by its code */
        json_t *seats = json_array();
        for (int s = 0; s < h->players && s < PB_MAX_SEATS; s++) {
            bool human = !h->player[s][0] || strcmp(h->player[s], "human") == 0;
            json_array_append_new(seats, json_pack("{s:s, s:s, s:b}", "name", h->name[s], "player",
                                                   human ? "human" : h->player[s], "taken",
                                                   !human || h->name[s][0]));
        }
        int to_move = t && !t->waiting ? pb_current_seat(t->g, t->st) : -1;
        json_t *mode = t && t->clock ? json_object_get(t->clock, "mode") : NULL;
        json_array_append_new(tables, json_pack("{s:s, s:s, s:i, s:o, s:i, s:b, s:b, s:o, s:o, s:O}", "code",
                                                h->code, "game", h->game, "players", h->players, "seats", seats,
                                                "moves", h->moves, "finished", h->finished, "waiting",
                                                t && t->waiting, "to_move",
                                                to_move >= 0 ? json_integer(to_move) : json_null(), "clock_left",
                                                t && running_seat(t) >= 0
                                                    ? json_integer(time_left(l, t, running_seat(t)))
                                                    : json_null(),
                                                "clock_mode", mode ? mode : json_null()));
    }
    free(heads);
    json_t *msg = json_pack("{s:s, s:o}", "type", "tables", "tables", tables);
    l->list_cache = json_dumps(msg, JSON_COMPACT);
    json_decref(msg);
    if (l->list_cache)
        l->io.send(l->io.ctx, conn, l->list_cache);
}

/* A clock as `create` gives it, checked and in its normal form (a new
 * reference), or NULL with a message naming the range broken. */
static json_t *parse_clock(const json_t *c, char *err, size_t errlen)
{
    const char *mode = json_string_value(json_object_get(c, "mode"));
    json_t *minutes = json_object_get(c, "minutes"), *inc = json_object_get(c, "increment"),
           *hours = json_object_get(c, "hours");
    if (!json_is_object(c) || !mode) {
        pb_errorf(err, errlen, "clock is an object with a mode: \"realtime\" or \"turn\"");
        return NULL;
    }
    if (strcmp(mode, "realtime") == 0) {
        json_int_t m = json_integer_value(minutes), i = inc ? json_integer_value(inc) : 0;
        if (!json_is_integer(minutes) || m < 1 || m > MAX_CLOCK_MINUTES)
            pb_errorf(err, errlen, "clock: minutes per player are a whole number from 1 to %d", MAX_CLOCK_MINUTES);
        else if ((inc && !json_is_integer(inc)) || i < 0 || i > MAX_CLOCK_INCREMENT)
            pb_errorf(err, errlen, "clock: the increment is a whole number of seconds from 0 to %d", MAX_CLOCK_INCREMENT);
        else
            return json_pack("{s:s, s:I, s:I}", "mode", "realtime", "minutes", m, "increment", i);
        return NULL;
    }
    if (strcmp(mode, "turn") == 0) {
        json_int_t h = json_integer_value(hours);
        if (json_is_integer(hours) && h >= 1 && h <= MAX_CLOCK_HOURS)
            return json_pack("{s:s, s:I}", "mode", "turn", "hours", h);
        pb_errorf(err, errlen, "clock: hours per move are a whole number from 1 to %d", MAX_CLOCK_HOURS);
        return NULL;
    }
    pb_errorf(err, errlen, "clock: the mode is \"realtime\" or \"turn\"");
    return NULL;
}

/* A table's clock from its normal form (NULL: none): every seat's time full. */
static void set_clock(table *t, json_t *clock)
{
    t->clock = clock;
    if (!clock)
        return;
    t->turn_based = strcmp(json_string_value(json_object_get(clock, "mode")), "turn") == 0;
    t->per_move_ms = json_integer_value(json_object_get(clock, "hours")) * 3600 * 1000;
    t->increment_ms = json_integer_value(json_object_get(clock, "increment")) * 1000;
    for (int s = 0; s < PB_MAX_SEATS; s++)
        t->left[s] = t->turn_based ? t->per_move_ms : json_integer_value(json_object_get(clock, "minutes")) * 60 * 1000;
}

/* A new table of `game` with its config, the seats' players ("human" or a
 * bot), the address it counts for ("": none) and a clock (NULL: none; the
 * table keeps the reference): stored and in memory, nobody seated yet,
 * waiting. NULL with a message. */
static table *new_table(pb_lobby *l, const char *game, const json_t *config, const char *const player[], int n,
                        const char *owner, json_t *clock, char *err, size_t errlen)
{
    table *t = calloc(1, sizeof *t);
    if (!t || !(t->g = pb_game_new(game, config, err, errlen)) || !(t->events = json_array())) {
        json_decref(clock);
        if (!t)
            pb_errorf(err, errlen, "out of memory");
        table_free(t);
        return NULL;
    }
    set_clock(t, clock);
    uint64_t seed = l->seed;
    if (!l->seed_fixed && getrandom(&seed, sizeof seed, 0) != (ssize_t)sizeof seed)
        seed = (uint64_t)rand();
    seed &= PB_SEED_MAX;
    new_code(l, t->code);
    t->players = n;
    t->waiting = true;
    t->last_seen = now_s(l);
    t->st = pb_state_new(t->g, seed);
    t->seed = seed;
    random_hex(t->salt, 32);
    pb_deal_commitment(seed, t->salt, t->deal);
    snprintf(t->owner, sizeof t->owner, "%s", owner);
    t->id = t->st ? pb_store_create_table(l->store, game, t->g->config, seed, t->code, owner, err, errlen) : -1;
    if (t->id > 0 && pb_store_set_salt(l->store, t->id, t->salt, err, errlen) != 0)
        t->id = -1;
    if (t->id > 0 && clock && pb_store_set_clock(l->store, t->id, clock, err, errlen) != 0)
        t->id = -1;
    for (int s = 0; s < n && t->id > 0; s++) {
        t->conn[s] = -1;
        snprintf(t->player[s], sizeof t->player[s], "%s", player[s]);
        if (strcmp(t->player[s], "human") != 0) {
            snprintf(t->name[s], sizeof t->name[s], "%c%s %d", t->player[s][0] - 32, t->player[s] + 1, s + 1);
            t->taken[s] = true;
            if (pb_store_set_seat(l->store, t->id, s, t->player[s], t->name[s], NULL, err, errlen) != 0)
                t->id = -1;
        }
    }
    if (t->id <= 0 || add_table(l, t) != 0) {
        table_free(t);
        pb_errorf(err, errlen, "could not store the table");
        return NULL;
    }
    return t;
}

static void on_create(pb_lobby *l, int conn, const json_t *msg)
{
    char err[PB_ERR_LEN] = "out of memory";
    const char *game = json_string_value(json_object_get(msg, "game"));
    json_t *players = json_object_get(msg, "players"), *seats = json_object_get(msg, "seats");
    int n = small_number(players);
    if (!game || n < 1 || n > PB_MAX_SEATS || !json_is_array(seats) ||
        (int)json_array_size(seats) != n) {
        send_error(l, conn, "create needs game, players and one seat per player");
        return;
    }
    if (unfinished_tables(l) >= max_tables(l) || seats_of_conn(l, conn) >= PB_LOBBY_TABLES_PER_CONN) {
        send_error(l, conn, "too many tables");
        return;
    }
    peer *maker = peer_of(l, conn);
    if (maker && maker->address[0] && l->io.tables_per_client > 0 &&
        tables_of_owner(l, maker->address) >= l->io.tables_per_client) {
        char m[160];
        snprintf(m, sizeof m, "too many tables: %d unfinished tables made from your address; finish or leave one first",
                 l->io.tables_per_client);
        send_error(l, conn, m);
        return;
    }
    int humans = 0;
    const char *player[PB_MAX_SEATS];
    for (int s = 0; s < n; s++) {
        const char *p = player[s] = json_string_value(json_array_get(seats, (size_t)s));
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
    json_t *powers = json_object_get(msg, "expansion_powers");
    if (powers && !json_is_boolean(powers)) {
        send_error(l, conn, "expansion_powers is true or false (New York Pizza Delivery's expansion power cards)");
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
    json_t *clock = NULL, *clock_in = json_object_get(msg, "clock");
    if (clock_in && !json_is_null(clock_in) && !(clock = parse_clock(clock_in, err, sizeof err))) {
        send_error(l, conn, err);
        return;
    }
    json_t *config = json_pack("{s:i}", "players", n);
    /* The game refuses, with its own message, what it does not have (co-op
     * for New York Slice), a row out of range or a player count it does not
     * play (1 is for co-op). */
    if (json_is_true(expansion))
        json_object_set_new(config, "expansion", json_true());
    if (json_is_true(powers))
        json_object_set_new(config, "expansion_powers", json_true());
    if (json_is_true(coop))
        json_object_set_new(config, "coop", json_true());
    if (difficulty)
        json_object_set(config, "difficulty", difficulty);
    if (json_is_true(cheese))
        json_object_set_new(config, "extra_cheese", json_true());
    /* the co-op markers set one by one and its options: the game says what is wrong with them */
    static const char *const coop_keys[] = {"blue", "red", "pizzas", "money", "coop_insane", "coop_easier", "top_chef"};
    for (size_t k = 0; k < sizeof coop_keys / sizeof coop_keys[0]; k++)
        if (json_object_get(msg, coop_keys[k]))
            json_object_set(config, coop_keys[k], json_object_get(msg, coop_keys[k]));
    table *t = new_table(l, game, config, player, n, maker ? maker->address : "", clock, err, sizeof err);
    json_decref(config);
    if (!t) {
        send_error(l, conn, err);
        return;
    }
    const char *name = json_string_value(json_object_get(msg, "name"));
    if (take_seat(l, t, creator_of(t), conn, name, err, sizeof err) != 0)
        send_error(l, conn, err);
}

static table *rebuild(pb_lobby *l, int64_t id, int64_t alive, char *err, size_t errlen);
static void restore_clock(pb_lobby *l, table *t, const json_t *spent);
static void run_out(pb_lobby *l, table *t, int seat);

/* ---- Finished tables leave memory ---- */

static bool attended(const table *t)
{
    for (int s = 0; s < t->players; s++)
        if (present(t, s))
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
        if (t->finished && t->jobs == 0 && !attended(t) && now - t->idle_since >= grace) {
            unindex_table(l, t);
            table_free(t);
        } else
            l->tables[kept++] = t;
    }
    l->ntables = kept;
}

/* A seat out of time goes to a bot. */
static void run_out(pb_lobby *l, table *t, int seat)
{
    /* Servers sharing a database: one of them hands the seat over (a claim
     * of its own kind: below every position's). */
    if (pb_store_claim(l->store, t->id, -1 - t->moves, now_ms(l) - DEAD_AFTER_MS) != 1)
        return;
    char err[PB_ERR_LEN];
    t->out[seat] = true;
    t->left[seat] = 0;
    if (seat_to_bot(l, t, seat, "time", "ran out of time", err, sizeof err) != 0)
        fprintf(stderr, "pizzabox serve: table %s: %s\n", t->code, err);
}

/* Seats out of time go to bots; seats whose player has been gone for the
 * grace become free to hand to a bot (the others are told). */
static void watch_seats(pb_lobby *l)
{
    bool clocks = false;
    for (int i = 0; i < l->ntables; i++) {
        table *t = l->tables[i];
        int run = running_seat(t);
        clocks |= run >= 0;
        if (run >= 0 && time_left(l, t, run) <= 0) {
            run_out(l, t, run);
            continue;
        }
        bool told = false;
        for (int s = 0; s < t->players; s++)
            if (!t->grace_told[s] && can_hand_to_bot(l, t, s))
                told = t->grace_told[s] = true;
        if (told)
            broadcast(l, t);
    }
    if (clocks) { /* the list shows the time left */
        free(l->list_cache);
        l->list_cache = NULL;
    }
}

/* Unfinished tables nobody has been at for close_after_hours (plus the
 * hours of a move on a turn-based clock) are closed: out of memory and of
 * the lists, no longer restored; their moves stay in the database. */
static void close_abandoned(pb_lobby *l, time_t now)
{
    if (l->io.close_after_hours <= 0)
        return;
    for (int i = l->ntables - 1; i >= 0; i--) { /* backwards: drop_table moves the last table into i */
        table *t = l->tables[i];
        time_t limit = (time_t)l->io.close_after_hours * 3600 + (t->clock && t->turn_based ? t->per_move_ms / 1000 : 0);
        char err[PB_ERR_LEN];
        if (!t->finished && t->jobs == 0 && !attended(t) && now - t->last_seen >= limit &&
            pb_store_close_table(l->store, t->id, err, sizeof err) == 0)
            drop_table(l, t);
    }
}

/* Tables another server closed leave this one, once no bot job points at
 * them: whoever is at them here is told, and their presence here ends. */
static void drop_closed_elsewhere(pb_lobby *l)
{
    for (int i = l->ntables - 1; i >= 0; i--) {
        table *t = l->tables[i];
        if (!t->closed_elsewhere || t->jobs > 0)
            continue;
        send_to_table(l, t, json_pack("{s:s, s:s}", "type", "error", "message", "that table was closed: nobody came back to it for a long time"));
        for (int s = 0; s < t->players; s++)
            seat_conn(l, t, s, -1);
        drop_table(l, t);
    }
}

/* The server notes that it is running. A server silent for long (stalled,
 * or cut off from the database) may have been taken for dead by the others,
 * who then forgot who is connected to it: once it is heard again it says
 * so again. */
static void note_alive(pb_lobby *l, time_t now)
{
    bool shared = pb_store_shared(l->store);
    if (now - l->alive_noted < (shared ? ALIVE_EVERY_SHARED : ALIVE_EVERY) || pb_store_set_alive(l->store, now_ms(l)) != 0)
        return;
    l->alive_noted = now;
    int64_t at = now_ms(l);
    if (shared && at - l->alive_ok_at > DEAD_AFTER_MS / 2)
        l->announce = 2; /* twice: a forgetting that began before the first may remove it */
    for (int i = 0; l->announce > 0 && i < l->ntables; i++)
        for (int q = 0; q < l->tables[i]->players; q++)
            if (l->tables[i]->conn[q] >= 0)
                pb_store_set_present(l->store, l->tables[i]->id, q, true);
    l->announce -= l->announce > 0;
    l->alive_ok_at = at;
}

void pb_lobby_tick(pb_lobby *l)
{
    show_due_presence(l);
    make_held_moves(l);
    time_t now = now_s(l);
    if (now != l->last_evict) { /* the rest once a second */
        l->last_evict = now;
        drop_closed_elsewhere(l);
        watch_seats(l);
        for (int i = 0; i < l->ntables; i++)
            if (l->tables[i]->claimed_elsewhere) /* its server may have died */
                ask_bot_if_needed(l, l->tables[i]);
        note_alive(l, now);
        /* A dead server's players are gone: the others hear of it, and this
         * server takes in what it changed itself. */
        int64_t gone[64];
        int ngone = pb_store_forget_dead(l->store, now_ms(l) - DEAD_AFTER_MS, gone, 64);
        for (int i = 0; i < ngone; i++) {
            table *t = find_table_id(l, gone[i]);
            if (t)
                catch_up(l, t, PB_CHANGED_PRESENCE);
        }
        evict_idle(l, now, PB_LOBBY_FINISHED_GRACE);
        close_abandoned(l, now);
    }
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
    if (finished >= max_tables(l)) /* many looked at at once: make room first */
        evict_idle(l, now_s(l), 0);
    char err[PB_ERR_LEN];
    table *t = rebuild(l, id, now_ms(l), err, sizeof err);
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
    if (t && t->closed_elsewhere) {
        send_error(l, conn, "that table was closed: nobody came back to it for a long time");
        return NULL;
    }
    if (!t)
        t = load_finished(l, code);
    if (!t && code && pb_store_is_closed(l->store, pb_store_find_code(l->store, code)))
        send_error(l, conn, "that table was closed: nobody came back to it for a long time");
    else if (!t)
        send_error(l, conn, "no table with that code");
    else if (t->finished)
        t->idle_since = now_s(l);
    else
        t->last_seen = now_s(l);
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
    /* The seat asked for when it is free (a rematch: one's old seat), else
     * the first free one; again, with what it stored taken in first, while
     * other servers seat people there a moment before (each try fills a
     * seat: the table is full at last). */
    char err[PB_ERR_LEN];
    for (int tries = 0; tries <= PB_MAX_SEATS; tries++) {
        int ask = small_number(json_object_get(msg, "seat"));
        if (ask < 0 || ask >= t->players || t->taken[ask] || strcmp(t->player[ask], "human") != 0)
            ask = -1;
        for (int s = 0; s < t->players; s++)
            if (ask < 0 && !t->taken[s] && strcmp(t->player[s], "human") == 0)
                ask = s;
        if (ask < 0) {
            send_error(l, conn, "the table is full (you may spectate)");
            return;
        }
        int rc = take_seat(l, t, ask, conn, json_string_value(json_object_get(msg, "name")), err, sizeof err);
        if (rc == 0)
            return;
        if (rc != PB_STORE_TAKEN)
            break;
        t = catch_up(l, t, PB_CHANGED_ALL);
        if (t->closed_elsewhere) {
            snprintf(err, sizeof err, "that table was closed: nobody came back to it for a long time");
            break;
        }
    }
    send_error(l, conn, err);
}

static void on_resume(pb_lobby *l, int conn, const json_t *msg)
{
    table *t = table_of(l, conn, msg);
    if (!t)
        return;
    int s = small_number(json_object_get(msg, "seat"));
    const char *token = json_string_value(json_object_get(msg, "token"));
    if (s < 0 || s >= t->players || !pb_store_check_token(l->store, t->id, s, token)) {
        send_error(l, conn, "that seat and token do not match");
        return;
    }
    if (strcmp(t->player[s], "human") != 0) {
        send_error(l, conn, t->out[s] ? "your seat is played by a bot now: you ran out of time (you may watch)"
                                      : "your seat is played by a bot now: it was handed over while you were away "
                                        "(you may watch)");
        return;
    }
    if (t->conn[s] != conn && seats_of_conn(l, conn) >= PB_LOBBY_TABLES_PER_CONN) {
        send_error(l, conn, "too many tables");
        return;
    }
    seat_conn(l, t, s, conn); /* a newer connection takes the seat over */
    place(l, conn, t);
    t->taken[s] = true;
    t->grace_told[s] = false;
    send_arrival(l, conn, t, s, token, NULL);
    send_chat_history(l, t, conn);
    send_view(l, t, conn, s);
    show_presence(l, t); /* the others see the seat present again */
}

static void on_spectate(pb_lobby *l, int conn, const json_t *msg)
{
    table *t = table_of(l, conn, msg);
    if (!t)
        return;
    const char *name = json_string_value(json_object_get(msg, "name"));
    peer *p = name ? peer_of(l, conn) : NULL;
    if (p)
        clean_name(name, p->name, sizeof p->name);
    if (watches(t, conn)) {
        send_view(l, t, conn, -1);
        return;
    }
    if (t->nwatchers == MAX_WATCHERS || seats_of_conn(l, conn) >= PB_LOBBY_TABLES_PER_CONN) {
        send_error(l, conn, t->nwatchers == MAX_WATCHERS ? "too many spectators at this table" : "too many tables");
        return;
    }
    t->watcher[t->nwatchers++] = conn;
    place(l, conn, t);
    send_arrival(l, conn, t, -1, NULL, NULL);
    send_chat_history(l, t, conn);
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
    else if (t->waiting)
        send_error(l, conn, "the game has not started: it waits for players (its creator may start it with bots)");
    else if (seat != to_move) {
        snprintf(err, sizeof err, "not your turn: %s is to move", t->name[to_move]);
        send_error(l, conn, err);
    } else if (running_seat(t) == seat && time_left(l, t, seat) <= 0) {
        /* the flag fell before the move came (the clock is watched once a second) */
        send_error(l, conn, "your time has run out");
        run_out(l, t, seat);
    } else if (!text)
        send_error(l, conn, "act needs an action");
    else if (t->g->ops->action_from_text(t->g, t->st, text, &a, err, sizeof err) != 0 ||
             play_move(l, t, seat, a, err, sizeof err) != 0) {
        if (t->stale)
            t = catch_up(l, t, PB_CHANGED_ALL);
        send_error(l, conn, t->closed_elsewhere ? "that table was closed: nobody came back to it for a long time" : err);
    }
}

/* A human seat goes to a bot (greedy) for the rest of the game, told in the
 * log's events (`kind` "bot" or "time", `why` as people read it). */
static int seat_to_bot(pb_lobby *l, table *t, int s, const char *kind, const char *why, char *err, size_t errlen)
{
    if (pb_store_set_player(l->store, t->id, s, "greedy", err, errlen) != 0)
        return -1;
    snprintf(t->player[s], sizeof t->player[s], "greedy");
    t->taken[s] = true;
    char text[256];
    snprintf(text, sizeof text, "%s %s: a bot (Greedy) plays the seat from here.", t->name[s], why);
    add_event(l, t, s, kind, text);
    /* A player still here (out of time) watches from now on, and is told why. */
    int conn = t->conn[s];
    seat_conn(l, t, s, -1);
    if (conn >= 0 && t->nwatchers < MAX_WATCHERS) {
        t->watcher[t->nwatchers++] = conn; /* placed there already, with its seat */
        send_arrival(l, conn, t, -1, NULL, text);
    }
    broadcast(l, t);
    ask_bot_if_needed(l, t);
    return 0;
}

static void on_bot(pb_lobby *l, int conn, const json_t *msg)
{
    table *t = table_of(l, conn, msg);
    if (!t)
        return;
    int s = small_number(json_object_get(msg, "seat"));
    char err[PB_ERR_LEN];
    if (seat_of(t, conn) < 0)
        send_error(l, conn, "only a player at the table may hand a seat to a bot");
    else if (s < 0 || s >= t->players || !can_hand_to_bot(l, t, s))
        send_error(l, conn, "only the seat of a player gone for a few seconds can go to a bot");
    else if (seat_to_bot(l, t, s, "bot", "left the table", err, sizeof err) != 0)
        send_error(l, conn, err);
}

/* The events of the first `moves` moves. */
static json_t *events_upto(const table *t, int moves)
{
    json_t *out = json_array(), *e;
    size_t i;
    json_array_foreach(t->events, i, e) if (json_integer_value(json_object_get(e, "move")) <= moves)
        json_array_append(out, e);
    return out;
}

/* The replays of a finished table (built once); NULL with a message. */
static struct replays *replays_of(pb_lobby *l, table *t, char *err, size_t errlen)
{
    if (t->replays)
        return t->replays;
    pb_stored_table st;
    if (pb_store_load(l->store, t->id, &st, err, errlen) != 0)
        return NULL;
    struct replays *r = calloc(1, sizeof *r);
    int slots = t->moves / REPLAY_EVERY + 1;
    if (r && (r->at = calloc((size_t)slots, sizeof *r->at)) && (r->log = stored_log(l, t, t->moves, -1, err, errlen))) {
        r->actions = json_incref(st.actions);
        pb_state *s = pb_state_new(t->g, st.seed);
        for (int k = 0; s && k <= t->moves; k++) {
            if (k % REPLAY_EVERY == 0 && !(r->at[r->n++] = pb_state_clone(t->g, s)))
                break;
            if (k < t->moves)
                pb_apply_text(t->g, s, json_string_value(json_array_get(st.actions, (size_t)k)), err, errlen);
        }
        free(s);
        t->replays = r->n == slots ? r : NULL;
    }
    if (!t->replays && r) {
        for (int i = 0; i < r->n; i++)
            free(r->at[i]);
        free(r->at);
        json_decref(r->actions);
        json_decref(r->log);
        free(r);
        pb_errorf(err, errlen, "the replay could not be built");
    }
    pb_stored_table_free(&st);
    return t->replays;
}

/* The public view of a finished game after `step` moves, with its log. */
static void on_replay(pb_lobby *l, int conn, const json_t *msg)
{
    table *t = table_of(l, conn, msg);
    if (!t)
        return;
    int k = small_number(json_object_get(msg, "step"));
    char err[PB_ERR_LEN];
    if (!t->finished || k < 0 || k > t->moves) {
        send_error(l, conn, "replay needs a finished table and a step from 0 to its moves");
        return;
    }
    struct replays *r = replays_of(l, t, err, sizeof err);
    pb_state *s = r ? pb_state_clone(t->g, r->at[k / REPLAY_EVERY]) : NULL;
    for (int i = k - k % REPLAY_EVERY; s && i < k; i++)
        pb_apply_text(t->g, s, json_string_value(json_array_get(r->actions, (size_t)i)), err, sizeof err);
    if (!s) {
        send_error(l, conn, r ? "out of memory" : err);
        return;
    }
    json_t *log = json_array();
    for (int i = 0; i < k; i++)
        json_array_append(log, json_array_get(r->log, (size_t)i));
    send_json(l, conn, json_pack("{s:s, s:s, s:i, s:o, s:o, s:o}", "type", "replay", "code", t->code, "step", k,
                                 "view", t->g->ops->view(t->g, s, PB_SPECTATOR), "log", log, "events",
                                 events_upto(t, k)));
    free(s);
}

/* ---- Analysis (`analyse`) ---- */

/* Are two connections the same client? The same connection, or the same
 * address (one that counts for someone). */
static bool same_client(pb_lobby *l, int a, int b)
{
    if (a == b)
        return true;
    const peer *p = peer_of(l, a), *q = peer_of(l, b);
    return p && q && p->address[0] && strcmp(p->address, q->address) == 0;
}

/* The analysis still running for this client, or NULL. */
static const table *analysing(pb_lobby *l, int conn)
{
    for (int i = 0; i < l->ntables; i++) {
        const struct analysis *a = l->tables[i]->analysis;
        for (int k = 0; a && a->done < a->total && k < a->naskers; k++)
            if (same_client(l, a->asker[k], conn))
                return l->tables[i];
    }
    return NULL;
}

/* An `analysis` message: the reviews from..to-1 that are done, and the count. */
static void send_analysis(pb_lobby *l, const table *t, int conn, int from, int to)
{
    const struct analysis *a = t->analysis;
    json_t *reviews = json_array();
    for (int i = from; i < to; i++)
        if (!json_is_null(json_array_get(a->reviews, (size_t)i)))
            json_array_append(reviews, json_array_get(a->reviews, (size_t)i));
    json_t *msg = json_pack("{s:s, s:s, s:o, s:i, s:i}", "type", "analysis", "code", t->code, "reviews", reviews,
                            "done", a->done, "total", a->total);
    char *text = json_dumps(msg, JSON_COMPACT | JSON_REAL_PRECISION(6));
    if (text)
        l->io.send(l->io.ctx, conn, text);
    free(text);
    json_decref(msg);
}

/* Ask for the next reviews, up to ANALYSIS_WINDOW out, while someone waits
 * for them (a run nobody waits for any more pauses until asked again). */
static void ask_reviews(pb_lobby *l, table *t)
{
    struct analysis *a = t->analysis;
    while (a->at && a->out < ANALYSIS_WINDOW && a->next < a->total && a->naskers > 0) {
        char err[PB_ERR_LEN];
        pb_bot_job *job = calloc(1, sizeof *job);
        pb_action played;
        if (!job || t->g->ops->action_from_text(t->g, a->at, json_string_value(json_array_get(a->actions,
                                                (size_t)a->next)), &played, err, sizeof err) != 0 ||
            !(job->state = pb_state_clone(t->g, a->at))) {
            free(job);
            /* A record that no longer replays, or out of memory: the run stops here, and
             * those waiting are told (they may ask for another). */
            for (int k = 0; k < a->naskers; k++)
                send_json(l, a->asker[k], json_pack("{s:s, s:s, s:s}", "type", "error", "request", "analyse", "message",
                                                    "the analysis stopped: this game's record could not be replayed"));
            a->naskers = 0;
            return;
        }
        *job = (pb_bot_job){.table = t->id, .moves = a->next, .seat = pb_current_seat(t->g, a->at),
                            .seed = pb_derive_seed(ANALYSIS_SEED, (uint64_t)a->next), .game = t->g,
                            .state = job->state, .owner = a->owner, .review = true, .played = played};
        snprintf(job->bot, sizeof job->bot, "%s", ANALYSIS_BOT);
        t->g->ops->apply(t->g, a->at, played, NULL, 0);
        if (++a->next == a->total) {
            free(a->at);
            a->at = NULL;
        }
        a->out++;
        t->jobs++;
        l->io.ask_bot(l->io.ctx, job);
    }
}

static void on_analyse(pb_lobby *l, int conn, const json_t *msg)
{
    if (!json_is_string(json_object_get(msg, "code"))) {
        send_error(l, conn, "analyse needs the table's code (a string)");
        return;
    }
    table *t = table_of(l, conn, msg);
    if (!t)
        return;
    char err[PB_ERR_LEN];
    const table *busy = analysing(l, conn);
    struct analysis *a = t->analysis;
    if (seat_of(t, conn) < 0 && !watches(t, conn)) {
        send_error(l, conn, "sit at the table or watch it first");
    } else if (!t->finished) {
        send_error(l, conn, "only a finished game can be analysed: play it to the end first");
    } else if (busy) {
        snprintf(err, sizeof err, "one analysis at a time: table %s's is still running (%d of %d decisions)",
                 busy->code, busy->analysis->done, busy->analysis->total);
        send_error(l, conn, err);
    } else if (a && a->done == a->total) {
        send_analysis(l, t, conn, 0, a->total); /* done before: from memory */
    } else if (a && a->naskers == ANALYSIS_ASKERS) {
        send_error(l, conn, "too many people wait for this table's analysis: try again soon");
    } else {
        struct replays *r = a ? NULL : replays_of(l, t, err, sizeof err);
        if (!a && r && (a = calloc(1, sizeof *a))) {
            peer *p = peer_of(l, conn);
            *a = (struct analysis){.total = t->moves, .actions = json_incref(r->actions), .reviews = json_array(),
                                   .at = pb_state_clone(t->g, r->at[0]),
                                   .owner = p && p->address[0] ? owner_of(p->address) : owner_of(t->code)};
            for (int i = 0; i < t->moves; i++)
                json_array_append_new(a->reviews, json_null());
            t->analysis = a;
        }
        if (!a) {
            send_error(l, conn, r ? "out of memory" : err);
            return;
        }
        a->asker[a->naskers++] = conn;
        place(l, conn, t);
        send_analysis(l, t, conn, 0, a->total); /* what is done so far (nothing, or another asker's) */
        ask_reviews(l, t);
    }
}

/* One review in the protocol's words: the chances only where there was a choice to weigh. */
static json_t *review_json(const pb_review *rv, int move, int seat, const char *played, const char *best)
{
    json_t *o = json_pack("{s:i, s:i, s:s, s:s}", "move", move, "seat", seat, "played", played, "mark",
                          rv ? pb_mark_name(rv->mark) : "unreviewed");
    bool weighed = rv && rv->mark != PB_MARK_FORCED && rv->mark != PB_MARK_PARTS;
    json_object_set_new(o, "best", json_string(weighed ? best : played));
    json_object_set_new(o, "played_chance", weighed ? json_real(rv->played_value) : json_null());
    json_object_set_new(o, "best_chance", weighed ? json_real(rv->best_value) : json_null());
    json_object_set_new(o, "loss", weighed ? json_real(rv->loss) : json_null());
    return o;
}

void pb_lobby_review(pb_lobby *l, int64_t id, int move, const pb_review *rv, const char *played, const char *best)
{
    table *t = find_table_id(l, id);
    if (t && t->jobs > 0)
        t->jobs--;
    struct analysis *a = t ? t->analysis : NULL;
    if (!a || move < 0 || move >= a->total || !json_is_null(json_array_get(a->reviews, (size_t)move)))
        return;
    a->out--;
    a->done++;
    int seat = t->who[move] & ~FORMAL;
    json_array_set_new(a->reviews, (size_t)move, review_json(rv, move, rv ? rv->seat : seat, played, best));
    for (int k = 0; k < a->naskers; k++)
        send_analysis(l, t, a->asker[k], move, move + 1);
    if (a->done == a->total)
        a->naskers = 0; /* done: kept for whoever asks next */
    ask_reviews(l, t);
}

/* What the table list says of one table, by its code: a shared link's page
 * says what it opens (or that no table has that code) before anyone joins. */
static void on_peek(pb_lobby *l, int conn, const json_t *msg)
{
    table *t = table_of(l, conn, msg);
    if (!t)
        return;
    json_t *seats = json_array();
    for (int s = 0; s < t->players; s++)
        json_array_append_new(seats, json_pack("{s:s, s:s, s:b}", "name", t->name[s], "player", t->player[s], "taken",
                                               t->taken[s]));
    send_json(l, conn, json_pack("{s:s, s:{s:s, s:s, s:i, s:o, s:i, s:b, s:b}}", "type", "table", "table", "code",
                                 t->code, "game", t->g->ops->id, "players", t->players, "seats", seats, "moves",
                                 t->moves, "finished", t->finished, "waiting", t->waiting));
}

/* Bring the seat's whole log up to date: built from the store the first
 * time (or after an undo, or when more moves came than the table keeps),
 * then extended by the moves since. 0, or -1 with a message. */
static int history_now(pb_lobby *l, table *t, int seat, char *err, size_t errlen)
{
    struct history *h = &t->history[seat + 1];
    if (!h->text.at || h->moves > t->moves || t->moves - h->moves > t->nlog) {
        json_t *log = stored_log(l, t, t->moves, seat, err, errlen);
        bool ok = log && dump_into(&h->text, log);
        json_decref(log);
        if (!ok)
            return log ? pb_errorf(err, errlen, "out of memory") : -1;
        h->text.len = unwrap(h->text.at, h->text.len);
        h->moves = t->moves;
    }
    for (; h->moves < t->moves; h->moves++)
        if (!(h->text.len == 0 || append_str(&h->text, ",")) || !append_str(&h->text, entry_json(t, h->moves, seat)))
            return pb_errorf(err, errlen, "out of memory");
    return 0;
}

/* The whole log so far, as the asker's seat (or a spectator) saw it. */
static void on_history(pb_lobby *l, int conn, const json_t *msg)
{
    table *t = table_of(l, conn, msg);
    if (!t)
        return;
    int seat = seat_of(t, conn);
    bool watching = watches(t, conn);
    char err[PB_ERR_LEN] = "";
    if (seat < 0 && !watching) {
        send_error(l, conn, "sit at the table or watch it first");
        return;
    }
    if (history_now(l, t, seat, err, sizeof err) != 0 || !dump_into(&l->dump, t->events)) {
        send_error(l, conn, err[0] ? err : "out of memory");
        return;
    }
    struct buffer *m = &l->msg;
    m->len = 0;
    if (append_str(m, "{\"type\":\"history\",\"code\":\"") && append_str(m, t->code) &&
        append_str(m, "\",\"events\":") && append(m, l->dump.at, l->dump.len) && append_str(m, ",\"log\":[") &&
        append(m, t->history[seat + 1].text.at, t->history[seat + 1].text.len) && append_str(m, "]}"))
        l->io.send(l->io.ctx, conn, m->at);
    else
        send_error(l, conn, "out of memory");
}

/* The creator starts a waiting table: bots take the free seats. */
static void on_start(pb_lobby *l, int conn, const json_t *msg)
{
    table *t = table_of(l, conn, msg);
    if (!t)
        return;
    const char *bot = json_string_value(json_object_get(msg, "bot"));
    char err[PB_ERR_LEN];
    if (seat_of(t, conn) != creator_of(t) || seat_of(t, conn) < 0) {
        send_error(l, conn, "only the table's creator may start it");
        return;
    }
    if (!t->waiting) {
        send_error(l, conn, "the game has already started");
        return;
    }
    if (json_object_get(msg, "bot") && (!bot || !known_bot(bot))) {
        send_error(l, conn, "bot is one of random, greedy, easy, medium, hard, expert");
        return;
    }
    bot = bot ? bot : "greedy";
    char text[256] = "", who[24]; /* bots are known by short names */
    size_t len = 0;
    bool seated_elsewhere = false;
    for (int s = 0; s < t->players; s++) {
        if (t->taken[s] || strcmp(t->player[s], "human") != 0)
            continue;
        snprintf(who, sizeof who, "%c%s %d", bot[0] - 32, bot + 1, s + 1);
        int rc = pb_store_take_seat(l->store, t->id, s, bot, who, NULL, err, sizeof err);
        if (rc == PB_STORE_TAKEN) { /* a person sat there a moment ago, through another server: theirs */
            seated_elsewhere = true;
            continue;
        }
        if (rc != 0) {
            send_error(l, conn, err);
            return;
        }
        snprintf(t->player[s], sizeof t->player[s], "%s", bot);
        snprintf(t->name[s], sizeof t->name[s], "%s", who);
        t->taken[s] = true;
        pb_appendf(text, sizeof text, &len, "%s%s", len ? ", " : "", who);
    }
    char line[320];
    snprintf(line, sizeof line, "%s started the game with bots in the free seats: %s.", t->name[creator_of(t)], text);
    add_event(l, t, creator_of(t), "start", line);
    if (seated_elsewhere) /* who sat there, taken in */
        t = catch_up(l, t, PB_CHANGED_ALL);
    if (t->closed_elsewhere)
        return;
    begin(l, t);
    broadcast(l, t);
    ask_bot_if_needed(l, t);
}

/* Chat text as the protocol takes it: 1..CHAT_MAX_CHARS characters, none a
 * control character. NULL, or why not. */
static const char *chat_problem(const char *text)
{
    if (!text)
        return "chat needs a text";
    int chars = 0;
    bool visible = false;
    for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
        if (*c < 0x20 || *c == 0x7f || invisible_at(c))
            return "chat text may not hold control or invisible characters (new lines, tabs, direction marks "
                   "and the like)";
        chars += (*c & 0xC0) != 0x80;
        visible |= *c != ' ';
    }
    if (!visible)
        return "chat text is empty";
    if (chars > CHAT_MAX_CHARS)
        return "chat text is at most 300 characters";
    return NULL;
}

static void on_chat(pb_lobby *l, int conn, const json_t *msg)
{
    table *t = table_of(l, conn, msg);
    if (!t)
        return;
    int seat = seat_of(t, conn);
    bool watching = watches(t, conn);
    const char *text = json_string_value(json_object_get(msg, "text")), *problem = chat_problem(text);
    peer *p = peer_of(l, conn);
    char err[PB_ERR_LEN];
    if (seat < 0 && !watching) {
        send_error(l, conn, "sit at the table or watch it to chat");
        return;
    }
    if (problem || !p) {
        send_error(l, conn, problem ? problem : "out of memory");
        return;
    }
    int64_t now = now_ms(l);
    p->chat_tokens += (double)(now - p->chat_last) / 1000.0;
    p->chat_tokens = p->chat_tokens > CHAT_BURST ? CHAT_BURST : p->chat_tokens;
    p->chat_last = now;
    if (p->chat_tokens < 1) {
        send_error(l, conn, "too many chat lines: 5 at once, then one a second");
        return;
    }
    if (t->chat_lines >= CHAT_KEEP) {
        send_error(l, conn, "this table's chat is full (2,000 lines)");
        return;
    }
    pb_chat_line line = {.move = t->moves, .seat = seat, .text = text, .at = now,
                         .name = seat >= 0 ? t->name[seat] : p->name[0] ? p->name : "Spectator"};
    int n = pb_store_add_chat(l->store, t->id, &line, err, sizeof err);
    if (n < 0) {
        send_error(l, conn, err);
        return;
    }
    p->chat_tokens -= 1;
    /* The line, after any another server added a moment before. */
    send_new_chat(l, t, t->chat_lines, n + 1);
    t->chat_lines = n + 1;
}

/* Take back the seat's last decision and every move after it. */
static void on_undo(pb_lobby *l, int conn, const json_t *msg)
{
    table *t = table_of(l, conn, msg);
    if (!t)
        return;
    int seat = seat_of(t, conn), k = undo_point(t, seat);
    char err[PB_ERR_LEN];
    pb_stored_table st = {0};
    pb_state *fresh = NULL;
    if (seat < 0 || k < 0) {
        send_error(l, conn, seat < 0 ? "you have no seat at this table"
                                     : "nothing to undo (undo is only against bots, before the game is over, "
                                       "once you have moved)");
        return;
    }
    int64_t undone_at = now_ms(l);
    if (pb_store_take_back(l->store, t->id, k, undone_at, err, sizeof err) != 0 ||
        pb_store_load(l->store, t->id, &st, err, sizeof err) != 0) {
        send_error(l, conn, err);
        return;
    }
    t->gen = st.gen;
    /* The position again from the deal, the kept moves replayed. */
    if (!(fresh = pb_state_new(t->g, st.seed))) {
        pb_stored_table_free(&st);
        send_error(l, conn, "out of memory");
        return;
    }
    free(t->st);
    t->st = fresh;
    int position = t->position;
    for (int i = 0; i <= PB_MAX_SEATS; i++) { /* the moves taken back leave the logs */
        free(t->history[i].text.at);
        t->history[i] = (struct history){0};
    }
    t->moves = t->nlog = 0;
    if (replay_stored(t, st.actions, k, -1, NULL, err, sizeof err) != 0)
        fprintf(stderr, "pizzabox serve: table %s: undo: %s\n", t->code, err);
    restore_clock(l, t, st.action_spent); /* the times of the moves taken back are given back, no increment kept */
    pb_stored_table_free(&st);
    t->position = position + 1; /* a bot's answer for the old position is stale */
    t->held = false;
    t->bot_asked = t->jobs > 0; /* a job still out is answered (stale) first: then the bot is asked again */
    size_t i;
    json_t *e;
    json_array_foreach(t->events, i, e) if (json_integer_value(json_object_get(e, "move")) > t->moves ||
                                            (json_integer_value(json_object_get(e, "move")) == t->moves &&
                                             strcmp(json_string_value(json_object_get(e, "kind")), "undo") == 0))
    {
        json_array_remove(t->events, i);
        i--;
    }
    char text[256];
    snprintf(text, sizeof text, "%s took a decision back.", t->name[seat]);
    add_event(l, t, seat, "undo", text);
    t->turn_start = t->last_move_at = undone_at; /* as the other servers have it */
    broadcast(l, t);
    ask_bot_if_needed(l, t);
}

/* A new table with the same game, options, seats and clock, for the
 * players of a finished one; the asker takes their seat there, the others
 * see the offer in their view. */
static void on_rematch(pb_lobby *l, int conn, const json_t *msg)
{
    table *t = table_of(l, conn, msg);
    if (!t)
        return;
    int seat = seat_of(t, conn);
    char err[PB_ERR_LEN];
    if (seat < 0 || !t->finished) {
        send_error(l, conn, seat < 0 ? "only a player at the table may ask for a rematch" : "the game is not over yet");
        return;
    }
    table *next = t->rematch[0] ? find_table(l, t->rematch) : NULL;
    if (t->rematch[0] && (!next || !next->waiting)) {
        send_error(l, conn, "the rematch has already started");
        return;
    }
    peer *asker = peer_of(l, conn);
    if (!(next && seat_of(next, conn) >= 0) && seats_of_conn(l, conn) >= PB_LOBBY_TABLES_PER_CONN) {
        send_error(l, conn, "too many tables"); /* a place more, as a create or a join */
        return;
    }
    if (!next) {
        if (unfinished_tables(l) >= max_tables(l) ||
            (asker && asker->address[0] && l->io.tables_per_client > 0 &&
             tables_of_owner(l, asker->address) >= l->io.tables_per_client)) {
            send_error(l, conn, "too many tables");
            return;
        }
        /* Seats people had stay people's, even those a bot finished. */
        const char *player[PB_MAX_SEATS];
        bool person[PB_MAX_SEATS] = {false};
        size_t i;
        json_t *e;
        json_array_foreach(t->events, i, e)
        {
            const char *kind = json_string_value(json_object_get(e, "kind"));
            int s = (int)json_integer_value(json_object_get(e, "seat"));
            if (s >= 0 && s < t->players && (strcmp(kind, "bot") == 0 || strcmp(kind, "time") == 0))
                person[s] = true;
        }
        for (int s = 0; s < t->players; s++)
            player[s] = person[s] || strcmp(t->player[s], "human") == 0 ? "human" : t->player[s];
        /* the rematch counts as the asker's table (quotas, bots' fair share);
         * it is a new game, so it plays the rules' current edition */
        json_t *config = json_deep_copy(t->g->config);
        json_object_del(config, "edition");
        next = new_table(l, t->g->ops->id, config, player, t->players, asker ? asker->address : "",
                         t->clock ? json_deep_copy(t->clock) : NULL, err, sizeof err);
        json_decref(config);
        int rc = next ? pb_store_set_rematch(l->store, t->id, next->code, err, sizeof err) : -1;
        if (rc == PB_STORE_TAKEN) {
            /* Offered through another server a moment ago: this one's table
             * is closed, and the asker goes to that one. */
            pb_store_close_table(l->store, next->id, err, sizeof err);
            drop_table(l, next);
            t = catch_up(l, t, PB_CHANGED_ALL);
            next = t->rematch[0] ? find_table(l, t->rematch) : NULL;
            if (!next && t->rematch[0]) {
                take_in_new(l, pb_store_find_code(l->store, t->rematch));
                next = find_table(l, t->rematch);
            }
            if (!next || !next->waiting) {
                send_error(l, conn, next ? "the rematch has already started" : err);
                return;
            }
        } else if (rc != 0) {
            send_error(l, conn, err);
            return;
        }
    }
    if (!t->rematch[0] || strcmp(t->rematch, next->code) != 0) {
        snprintf(t->rematch, sizeof t->rematch, "%s", next->code);
        char text[256];
        snprintf(text, sizeof text, "%s offers a rematch: table %s.", t->name[seat], next->code);
        add_event(l, t, seat, "rematch", text);
        broadcast(l, t);
    }
    int want = next->taken[seat] || strcmp(next->player[seat], "human") != 0 ? -1 : seat;
    for (int s = 0; s < next->players && want < 0; s++)
        if (!next->taken[s] && strcmp(next->player[s], "human") == 0)
            want = s;
    if (seat_of(next, conn) >= 0)
        send_error(l, conn, "you already have a seat at the rematch");
    else if (want < 0)
        send_error(l, conn, "the rematch is full (you may spectate)");
    else if (take_seat(l, next, want, conn, t->name[seat], err, sizeof err) != 0)
        send_error(l, conn, err);
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
    } handlers[] = {{"create", on_create}, {"join", on_join},   {"resume", on_resume},   {"spectate", on_spectate},
                    {"act", on_act},       {"bot", on_bot},     {"replay", on_replay},   {"history", on_history},
                    {"start", on_start},   {"chat", on_chat},   {"undo", on_undo},       {"rematch", on_rematch},
                    {"peek", on_peek},     {"analyse", on_analyse}};
    bool done = false;
    if (strcmp(type, "list") == 0) {
        on_list(l, conn);
        done = true;
    }
    for (size_t i = 0; !done && i < sizeof handlers / sizeof handlers[0]; i++)
        if (strcmp(type, handlers[i].type) == 0) {
            snprintf(l->request, sizeof l->request, "%s", handlers[i].type);
            handlers[i].handle(l, conn, msg);
            l->request[0] = 0;
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

static void forget_peer(pb_lobby *l, int conn)
{
    if (known_peer(l, conn)) {
        free(l->peer_at[conn]);
        l->peer_at[conn] = NULL;
    }
}

void pb_lobby_connect(pb_lobby *l, int conn, const char *address)
{
    forget_peer(l, conn); /* a new connection in a slot starts afresh */
    peer *p = peer_of(l, conn);
    if (p)
        snprintf(p->address, sizeof p->address, "%s", address ? address : "");
}

/* A connection gone: its seats are empty, its places to watch from and the
 * analyses it waited for are given up. */
static void leave_table(pb_lobby *l, table *t, int conn)
{
    struct analysis *a = t->analysis;
    for (int k = 0; a && k < a->naskers; k++)
        if (a->asker[k] == conn)
            a->asker[k--] = a->asker[--a->naskers];
    for (int s = 0; s < t->players; s++)
        if (t->conn[s] == conn) {
            seat_conn(l, t, s, -1);
            t->left_at[s] = t->idle_since = t->last_seen = now_s(l);
            t->grace_told[s] = false;
            show_presence(l, t); /* the others see the seat empty */
        }
    for (int w = 0; w < t->nwatchers; w++)
        if (t->watcher[w] == conn) {
            t->watcher[w--] = t->watcher[--t->nwatchers];
            t->idle_since = now_s(l);
            if (t->nwatchers == 0 && !t->finished && pb_is_formality(t->g, t->st)) {
                /* the last spectator gone: a question left to the lone person is the server's again */
                int had = t->moves;
                answer_formalities(l, t);
                tell_moves(l, t, had);
                ask_bot_if_needed(l, t);
            }
        }
}

void pb_lobby_disconnect(pb_lobby *l, int conn)
{
    const peer *p = known_peer(l, conn);
    if (p && !p->many) {
        for (int i = 0; i < p->nhints; i++) {
            table *t = find_table_id(l, p->hint[i]);
            if (t)
                leave_table(l, t, conn);
        }
    } else {
        for (int i = 0; i < l->ntables; i++)
            leave_table(l, l->tables[i], conn);
    }
    forget_peer(l, conn);
}

int pb_lobby_tables(const pb_lobby *l)
{
    return l->ntables;
}

/* ---- Start-up: rebuild tables from the store ---- */

/* A restored table's clock: each seat's time as its stored moves left it
 * (each move stores what it took off its mover's clock); the seat to move
 * starts its turn again now (the time the server was down is not
 * charged). */
static void restore_clock(pb_lobby *l, table *t, const json_t *spent)
{
    set_clock(t, t->clock); /* every seat full ... */
    for (int i = 0; t->clock && !t->turn_based && i < t->moves; i++) {
        int seat = t->who[i] & ~FORMAL;
        int64_t took = json_integer_value(json_array_get(spent, (size_t)i)); /* 0 for bots' moves */
        if (took > 0)
            t->left[seat] -= took - t->increment_ms; /* ... less what each move took, plus the increment */
    }
    t->turn_start = t->last_move_at = now_ms(l);
}

/* The turn running when the table was read began at its last move (or
 * the game's start, or the last take-back); it is charged up to `alive`,
 * the last moment a server was known to serve it (after a restart: noted
 * every ALIVE_EVERY seconds, so its player loses what they had used, not
 * the time the server was down). The turn is made to have begun that long
 * before now, so that the move ending it stores all it took, as the other
 * servers reckon it. */
static void charge_running_turn(pb_lobby *l, table *t, const pb_stored_table *s, int64_t alive)
{
    size_t n = json_array_size(s->action_at);
    int64_t from = n ? json_integer_value(json_array_get(s->action_at, n - 1)) : s->started_at;
    if (s->undone_at > from)
        from = s->undone_at;
    if (running_seat(t) >= 0 && !t->turn_based && from > 0 && alive > from)
        t->turn_start = now_ms(l) - (alive - from);
}

/* Seats whose time ran out (their "time" events). */
static void note_out_of_time(table *t)
{
    size_t i;
    json_t *e;
    json_array_foreach(t->events, i, e)
    {
        int seat = (int)json_integer_value(json_object_get(e, "seat"));
        if (seat >= 0 && seat < t->players && strcmp(json_string_value(json_object_get(e, "kind")), "time") == 0)
            t->out[seat] = true;
    }
}

/* A table from the store. The turn running is charged until `alive`: the
 * last moment a server was known to be serving it (Unix ms). */
static table *rebuild(pb_lobby *l, int64_t id, int64_t alive, char *err, size_t errlen)
{
    pb_stored_table s;
    if (pb_store_load(l->store, id, &s, err, errlen) != 0)
        return NULL;
    table *t = calloc(1, sizeof *t);
    if (t && (t->g = pb_game_new(s.game, s.config, err, errlen)) && (t->st = pb_state_new(t->g, s.seed))) {
        t->id = id;
        snprintf(t->code, sizeof t->code, "%s", s.code);
        snprintf(t->rematch, sizeof t->rematch, "%s", s.rematch);
        snprintf(t->salt, sizeof t->salt, "%s", s.salt);
        snprintf(t->owner, sizeof t->owner, "%s", s.owner);
        t->seed = s.seed;
        if (t->salt[0])
            pb_deal_commitment(t->seed, t->salt, t->deal);
        t->players = t->g->players;
        t->events = json_incref(s.events);
        set_clock(t, json_incref(s.clock));
        for (int q = 0; q < t->players; q++) {
            t->conn[q] = -1;
            t->left_at[q] = now_s(l); /* after a restart, everyone gets the grace to come back */
            snprintf(t->player[q], sizeof t->player[q], "%s", s.player[q][0] ? s.player[q] : "human");
            snprintf(t->name[q], sizeof t->name[q], "%s", s.name[q]);
            t->taken[q] = strcmp(t->player[q], "human") != 0 || s.name[q][0];
        }
        note_out_of_time(t);
        t->waiting = has_free_seat(t);
        t->last_seen = now_s(l);
        t->elsewhere = pb_store_present_elsewhere(l->store, id, now_ms(l) - DEAD_AFTER_MS);
        t->gen = s.gen;
        t->chat_lines = pb_store_chat_count(l->store, id);
        replay_stored(t, s.actions, (int)json_array_size(s.actions), -1, NULL, err, errlen);
        t->finished = pb_is_terminal(t->g, t->st);
        t->closed_elsewhere = s.closed && !t->finished; /* (a close could once overwrite an ended game) */
        restore_clock(l, t, s.action_spent);
        charge_running_turn(l, t, &s, alive);
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

/* ---- Servers sharing a database (docs/scaling.md) ---- */

/* The table's chat lines `from` to `count` - 1 (another server's, this
 * one's just said), sent to this server's people at the table. */
static void send_new_chat(pb_lobby *l, table *t, int from, int count)
{
    json_t *lines = pb_store_chat_range(l->store, t->id, from, count);
    send_to_table(l, t, json_pack("{s:s, s:s, s:o}", "type", "chat", "code", t->code, "lines", lines));
}

/* Chat lines said through other servers, sent to this server's people. */
static void take_in_chat(pb_lobby *l, table *t)
{
    int count = pb_store_chat_count(l->store, t->id);
    if (count > t->chat_lines)
        send_new_chat(l, t, t->chat_lines, count);
    t->chat_lines = count;
}

/* Who is connected to the table through other servers; a seat whose player
 * left another server gets the grace to come back from now. */
static void note_presence_elsewhere(pb_lobby *l, table *t)
{
    unsigned gone = t->elsewhere;
    t->elsewhere = pb_store_present_elsewhere(l->store, t->id, now_ms(l) - DEAD_AFTER_MS);
    gone &= ~t->elsewhere;
    for (int q = 0; q < t->players; q++)
        if ((gone >> q & 1) && t->conn[q] < 0) {
            t->left_at[q] = now_s(l);
            t->grace_told[q] = false;
        }
    if (t->elsewhere)
        t->last_seen = now_s(l); /* played elsewhere: not abandoned */
}

/* Only who is connected elsewhere changed: shown at the next tick, like
 * arrivals here. */
static void take_in_presence(pb_lobby *l, table *t)
{
    unsigned was = t->elsewhere;
    note_presence_elsewhere(l, t);
    if (t->elsewhere != was)
        show_presence(l, t);
}

/* The table rebuilt from the store in place of the one in memory (moves
 * taken back elsewhere): this server's people at it kept. */
static table *replace_table(pb_lobby *l, table *old)
{
    char err[PB_ERR_LEN];
    table *t = rebuild(l, old->id, now_ms(l), err, sizeof err);
    if (!t) {
        fprintf(stderr, "pizzabox serve: table %s not read again: %s\n", old->code, err);
        return old;
    }
    memcpy(t->conn, old->conn, sizeof t->conn);
    memcpy(t->left_at, old->left_at, sizeof t->left_at);
    memcpy(t->grace_told, old->grace_told, sizeof t->grace_told);
    memcpy(t->watcher, old->watcher, sizeof t->watcher);
    t->nwatchers = old->nwatchers;
    snprintf(t->owner, sizeof t->owner, "%s", old->owner);
    t->idle_since = old->idle_since;
    for (int i = 0; i < l->ntables; i++)
        if (l->tables[i] == old)
            l->tables[i] = t;
    unindex_table(l, old);
    index_table(l, t);
    table_free(old);
    broadcast(l, t);
    ask_bot_if_needed(l, t);
    return t;
}

/* Another server changed the table: what it stored is taken in (the moves
 * played there, seats taken or handed to bots, events, chat, a rematch
 * offered, who is connected there), reading only what it says changed
 * (PB_CHANGED_*), and shown to this server's people at it. Returns the
 * table now in its place: rebuilt whole (another one) when moves were
 * taken back. */
static table *catch_up(pb_lobby *l, table *t, unsigned what)
{
    t->stale_what |= what;
    if (t->jobs > 0) { /* a bot job points at its game: once it is back */
        t->stale = true;
        return t;
    }
    what = t->stale_what;
    t->stale = false;
    t->stale_what = 0;
    if (what == PB_CHANGED_PRESENCE) {
        take_in_presence(l, t);
        return t;
    }
    if (what == PB_CHANGED_CHAT) {
        take_in_chat(l, t);
        return t;
    }
    char err[PB_ERR_LEN];
    pb_stored_table s;
    unsigned parts = (what & PB_CHANGED_SEATS ? PB_LOAD_SEATS : 0) | (what & PB_CHANGED_EVENTS ? PB_LOAD_EVENTS : 0);
    if (pb_store_load_from(l->store, t->id, t->moves, parts, &s, err, sizeof err) != 0) {
        fprintf(stderr, "pizzabox serve: table %s not read again: %s\n", t->code, err);
        return t;
    }
    if (s.closed && !t->finished) { /* closed there (nobody came back): it leaves this server at the next tick */
        t->closed_elsewhere = true;
        pb_stored_table_free(&s);
        return t;
    }
    int stored = s.moves;
    if (stored < t->moves || s.gen != t->gen) { /* taken back there (and maybe played on) */
        pb_stored_table_free(&s);
        return replace_table(l, t);
    }
    if (!t->clock && s.clock) /* written after the table was first read */
        set_clock(t, json_incref(s.clock));
    if (!t->salt[0] && s.salt[0]) {
        snprintf(t->salt, sizeof t->salt, "%s", s.salt);
        pb_deal_commitment(t->seed, t->salt, t->deal);
    }
    for (int q = 0; (parts & PB_LOAD_SEATS) && q < t->players; q++) {
        bool was_person = strcmp(t->player[q], "human") == 0;
        snprintf(t->player[q], sizeof t->player[q], "%s", s.player[q][0] ? s.player[q] : "human");
        snprintf(t->name[q], sizeof t->name[q], "%s", s.name[q]);
        t->taken[q] = strcmp(t->player[q], "human") != 0 || s.name[q][0];
        if (was_person && strcmp(t->player[q], "human") != 0 && t->conn[q] >= 0) {
            /* handed to a bot there (out of time, gone too long): its
             * player here watches from now on */
            int conn = t->conn[q];
            seat_conn(l, t, q, -1);
            if (t->nwatchers < MAX_WATCHERS) {
                t->watcher[t->nwatchers++] = conn;
                send_arrival(l, conn, t, -1, NULL, "your seat is played by a bot now (you may watch)");
            }
        }
    }
    if (parts & PB_LOAD_EVENTS) {
        json_decref(t->events);
        t->events = json_incref(s.events);
        note_out_of_time(t);
    }
    snprintf(t->rematch, sizeof t->rematch, "%s", s.rematch);
    if (what & PB_CHANGED_PRESENCE)
        note_presence_elsewhere(l, t);
    if (t->waiting && !has_free_seat(t)) {
        t->waiting = false;
        t->turn_start = t->last_move_at = s.started_at > 0 ? s.started_at : now_ms(l);
    }
    int rc = 0, had = t->moves;
    for (int k = t->moves; rc == 0 && k < stored; k++) {
        pb_action a;
        int seat = pb_current_seat(t->g, t->st);
        size_t i = (size_t)(k - s.first);
        stored_move m = {json_integer_value(json_array_get(s.action_at, i)),
                         json_integer_value(json_array_get(s.action_spent, i))};
        if (m.at <= 0)
            m.at = now_ms(l);
        const char *text = json_string_value(json_array_get(s.actions, i));
        rc = seat < 0 ? pb_errorf(err, sizeof err, "a move stored after the end of the game")
             : !text  ? pb_errorf(err, sizeof err, "move %d missing from the log", k)
                      : t->g->ops->action_from_text(t->g, t->st, text, &a, err, sizeof err);
        if (rc == 0)
            rc = apply_move(l, t, seat, a, &m, err, sizeof err);
    }
    pb_stored_table_free(&s);
    if (rc != 0) {
        fprintf(stderr, "pizzabox serve: table %s: a stored move not taken in (%s): read again whole\n", t->code, err);
        return replace_table(l, t);
    }
    if (t->moves != had && t->held) { /* a paced bot move here was for a position gone */
        t->held = false;
        t->bot_asked = false;
    }
    if (what & PB_CHANGED_CHAT)
        take_in_chat(l, t);
    if (t->elsewhere)
        t->last_seen = now_s(l); /* played elsewhere: not abandoned (moves come with no change of presence) */
    tell_moves(l, t, had); /* a chat or presence change alone does not hold a bot back */
    ask_bot_if_needed(l, t);
    return t;
}

/* A table another server made: every server holds every unfinished table. */
static void take_in_new(pb_lobby *l, int64_t id)
{
    char err[PB_ERR_LEN];
    table *t = rebuild(l, id, now_ms(l), err, sizeof err);
    if (t && !t->finished && !t->closed_elsewhere && add_table(l, t) == 0) {
        free(l->list_cache);
        l->list_cache = NULL;
        ask_bot_if_needed(l, t);
        return;
    }
    table_free(t); /* finished ones are read when asked for */
}

void pb_lobby_changed(pb_lobby *l, int64_t id, unsigned what)
{
    if (id > 0) {
        table *t = find_table_id(l, id);
        if (t)
            catch_up(l, t, what);
        else
            take_in_new(l, id);
        return;
    }
    /* Changes may have gone untold: every table in memory is read again,
     * and every unfinished one not in memory is taken in. */
    for (int i = 0; i < l->ntables; i++)
        catch_up(l, l->tables[i], PB_CHANGED_ALL);
    int cap = max_tables(l);
    int64_t *ids = malloc(sizeof *ids * (size_t)cap);
    int n = ids ? pb_store_list(l->store, PB_STORE_UNFINISHED, ids, cap) : 0;
    for (int i = 0; i < n; i++)
        if (!find_table_id(l, ids[i]))
            take_in_new(l, ids[i]);
    free(ids);
}

pb_lobby *pb_lobby_new(pb_store *store, const pb_lobby_io *io, char *err, size_t errlen)
{
    pb_lobby *l = calloc(1, sizeof *l);
    int cap = io->max_tables > 0 ? io->max_tables : PB_LOBBY_MAX_TABLES;
    int64_t *ids = malloc(sizeof *ids * (size_t)cap);
    if (!l || !ids) {
        free(l);
        free(ids);
        pb_errorf(err, errlen, "out of memory");
        return NULL;
    }
    l->store = store;
    l->io = *io;
    l->alive_before = pb_store_alive(store);
    if (getrandom(&l->bot_key, sizeof l->bot_key, 0) != (ssize_t)sizeof l->bot_key)
        l->bot_key = (uint64_t)rand();
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
        l->bot_key = seed; /* the same game again, bots' moves included */
        fprintf(stderr, "pizzabox serve: every new table is dealt from seed %llu (PIZZABOX_TABLE_SEED): for tests only\n",
                seed);
    }
    /* Every unfinished table, then the newest finished ones (the others are
     * loaded when asked for; these too leave memory when nobody comes). */
    int n = pb_store_list(store, PB_STORE_UNFINISHED, ids, cap);
    int m = n < 0 ? 0 : n;
    int64_t *done = ids + m;
    int nd = pb_store_list(store, PB_STORE_FINISHED, done,
                           RESTORE_FINISHED < cap - m ? RESTORE_FINISHED : cap - m);
    n = m + (nd < 0 ? 0 : nd);
    for (int i = n - 1; i >= 0; i--) {
        char why[PB_ERR_LEN];
        /* a turn another server is serving now is charged until now */
        int64_t alive = now_ms(l) - l->alive_before < DEAD_AFTER_MS ? now_ms(l) : l->alive_before;
        table *t = rebuild(l, ids[i], alive, why, sizeof why);
        if (t)
            t->idle_since = now_s(l);
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
    free(l->dump.at);
    free(l->public_view.at);
    free(l->msg.at);
    for (int i = 0; i < l->peers_cap; i++)
        free(l->peer_at[i]);
    free(l->peer_at);
    free(l->by_id);
    free(l->by_code);
    free(l->presence_due);
    free(l);
}
