/* store.h -- the server's storage: tables, their seats and every accepted
 * action, in SQLite (a file: write-ahead log) or PostgreSQL (a
 * postgresql:// URL); each action its own commit. The queries and the
 * versioned schema are in store.c, written once for both; the drivers in
 * db_sqlite.c and db_pg.c (db.h). One thread uses a store.
 *
 * The server writes an action here before it confirms it to anyone, so a
 * crash loses nothing that was acknowledged: after a restart every unfinished
 * table is rebuilt by replaying its actions from its seed. SQLite's log is
 * copied back into the database file (and flushed to the disk) on a thread
 * of the store's own, so a commit never waits for the disk; PostgreSQL's
 * commit waits for its disk (synchronous_commit on). */
#ifndef PB_STORE_H
#define PB_STORE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct pb_store pb_store;

#define PB_TOKEN_LEN 32 /* hex characters of a seat token */

/* Open the database: a SQLite file at path (created if needed), or the
 * PostgreSQL database of a postgresql:// or postgres:// URL (which must
 * exist); its schema is brought up to date. NULL with a message (a URL's
 * password never in it). */
pb_store *pb_store_open(const char *path, char *err, size_t errlen);
/* Open an existing database only to read it (nothing is created or
 * changed; a server may be using it at the same time): NULL with a message
 * when it is missing or is not a pizzabox database. Only the reading
 * functions below may be used on it. */
pb_store *pb_store_open_readonly(const char *path, char *err, size_t errlen);
void pb_store_close(pb_store *s);

/* A new table: game id, normalized config (JSON), seed, a short code for
 * people, and the address that made it (quotas count every server's
 * tables; NULL or "": none known). Returns the table's id (> 0), or -1
 * with a message. */
int64_t pb_store_create_table(pb_store *s, const char *game, const json_t *config, uint64_t seed,
                              const char *code, const char *owner, char *err, size_t errlen);
/* Record who sits in a seat: "human" with a name and a token, or a bot
 * spec. Replaces an earlier occupant. */
int pb_store_set_seat(pb_store *s, int64_t table, int seat, const char *player, const char *name,
                      const char *token, char *err, size_t errlen);
/* A free human seat taken by a person (its token kept hashed), or given to
 * a bot (`player`, token NULL): 0, -1 with a message, or PB_STORE_TAKEN
 * when a person has it already (another server seated someone there first). */
int pb_store_take_seat(pb_store *s, int64_t table, int seat, const char *player, const char *name, const char *token,
                       char *err, size_t errlen);
/* Does the token open this seat? */
bool pb_store_check_token(pb_store *s, int64_t table, int seat, const char *token);
/* Append the table's action number `index` (0-based, in order) and commit.
 * Returns 0 once the action is durable, -1 (with a message) otherwise:
 * then it must not be confirmed; PB_STORE_TAKEN when another server stored
 * an action with that number first. */
#define PB_STORE_TAKEN (-2)
int pb_store_append_action(pb_store *s, int64_t table, int index, int seat, const char *text, int64_t at,
                           int64_t spent, char *err, size_t errlen);
/* Close an unfinished table nobody came back to: it leaves the lists and
 * is no longer restored (its moves stay in the database). */
int pb_store_close_table(pb_store *s, int64_t table, char *err, size_t errlen);
bool pb_store_is_closed(pb_store *s, int64_t table);
/* Mark a table finished. */
int pb_store_finish(pb_store *s, int64_t table, char *err, size_t errlen);

/* A table as stored: enough to rebuild it. */
typedef struct pb_stored_table {
    int64_t id;
    char game[32];
    char code[16];
    json_t *config;   /* owned */
    uint64_t seed;
    bool finished;
    int seats;
    char player[6][64];
    char name[6][132];       /* up to 32 characters of UTF-8 */
    int moves;        /* actions stored */
    int first;        /* the number of the first in `actions` (pb_store_load_from) */
    json_t *actions;  /* owned: array of action texts, in order */
    json_t *action_at; /* owned: when each was accepted (Unix ms; 0 when not known) */
    json_t *action_spent; /* owned: what each took off its mover's clock (ms) */
    json_t *clock;    /* owned: the clock chosen at creation, or NULL */
    char rematch[16]; /* the code of the rematch offered, or "" */
    char salt[72];    /* the deal's secret salt (hex), or "" for a table from before */
    int64_t started_at; /* when the game began, Unix ms (0: not yet, or not known) */
    int64_t gen;      /* times moves were taken back (another server's undo) */
    bool closed;      /* closed unfinished (nobody came back) */
    char owner[64];   /* the address that made it, or "" */
    int64_t undone_at; /* when moves were last taken back, Unix ms (0: never) */
    json_t *events;   /* owned: [{move, seat, kind, text}], in order */
} pb_stored_table;

/* Load one table; 0, or -1 with a message. Free with pb_stored_table_free. */
int pb_store_load(pb_store *s, int64_t table, pb_stored_table *out, char *err, size_t errlen);
/* The same with only the actions from number `from` on (another server's
 * new moves; `moves` still counts them all), and of the seats and events
 * only the parts asked for (the others left empty). */
#define PB_LOAD_SEATS 1u
#define PB_LOAD_EVENTS 2u
int pb_store_load_from(pb_store *s, int64_t table, int from, unsigned parts, pb_stored_table *out, char *err,
                       size_t errlen);
void pb_stored_table_free(pb_stored_table *t);
typedef enum pb_store_which { PB_STORE_ALL, PB_STORE_UNFINISHED, PB_STORE_FINISHED } pb_store_which;

/* Ids of tables, newest first; returns how many were written (at most
 * max), or -1. */
int pb_store_list(pb_store *s, pb_store_which which, int64_t *ids, int max);
/* How many tables there are; -1 on a database error. */
int pb_store_count(pb_store *s, pb_store_which which);

/* What the table list shows of a table: no seed, no actions. */
typedef struct pb_table_head {
    int64_t id;
    char game[32];
    char code[16];
    int players;       /* from the config */
    int moves;         /* actions stored */
    bool finished;
    char player[6][64];      /* "" for a human seat nobody has taken */
    char name[6][132];
} pb_table_head;

/* The newest tables (at most max), newest first; how many were written, or
 * -1. One pass over the database, whatever the number of tables. */
int pb_store_heads(pb_store *s, pb_table_head *out, int max);
/* Change who plays a seat, keeping its name and token. */
int pb_store_set_player(pb_store *s, int64_t table, int seat, const char *player, char *err, size_t errlen);
/* The id of the table with this code, or -1. */
int64_t pb_store_find_code(pb_store *s, const char *code);

/* The table's clock (JSON, docs/protocol.md), set once at creation. */
int pb_store_set_clock(pb_store *s, int64_t table, const json_t *clock, char *err, size_t errlen);
/* The server is running at `at` (Unix ms; PostgreSQL notes the database's
 * time instead), noted every few seconds in its node's row: after a crash,
 * a clock that was running is charged until the last such note, not for
 * the time the server was down. pb_store_alive: the latest note of any
 * other node (a server before this one, or one serving beside it), 0 when
 * none. */
int pb_store_set_alive(pb_store *s, int64_t at);
int64_t pb_store_alive(pb_store *s);

/* Several servers on one PostgreSQL database (docs/scaling.md): each is a
 * node, and hears of the changes the others make to any table. */
int64_t pb_store_node(const pb_store *s);
/* Is the database one several servers may share (PostgreSQL)? */
bool pb_store_shared(const pb_store *s);
/* Now, Unix ms, by the database's clock (servers on machines whose clocks
 * differ agree on it); this machine's with SQLite. Learnt again at every
 * pb_store_set_alive. */
int64_t pb_store_now_ms(const pb_store *s);
/* Claim the bot's move at `moves` moves of the table for this node: 1 when
 * it is this node's to make (claimed now, before, or taken over from a node
 * not alive since dead_before, Unix ms), 0 when another node's, -1 on a
 * database error. Always 1 with SQLite (one server). */
int pb_store_claim(pb_store *s, int64_t table, int moves, int64_t dead_before);
/* A seat's player connected to this node, or no longer; the seats (a bit
 * each) whose player is connected to another node alive since alive_since
 * (Unix ms). The presence of nodes not alive since dead_before is
 * forgotten, which tells the others (its tables, up to max, are returned:
 * this server is not told of its own change). Nothing with SQLite. */
void pb_store_set_present(pb_store *s, int64_t table, int seat, bool present);
unsigned pb_store_present_elsewhere(pb_store *s, int64_t table, int64_t alive_since);
int pb_store_forget_dead(pb_store *s, int64_t dead_before, int64_t *tables, int max);
typedef struct pb_store_listener pb_store_listener;
/* A listener on the store's database (path as given to pb_store_open):
 * NULL with SQLite (err empty), or NULL with a message. */
pb_store_listener *pb_store_listen(const pb_store *s, const char *path, char *err, size_t errlen);
/* Its socket: readable when changes were told (it may change after the
 * connection was lost and opened again). */
int pb_store_listener_fd(const pb_store_listener *l);
/* Calls changed(ctx, table, what) for each table another node changed
 * since the last call, with what changed (PB_CHANGED_*, several at once),
 * and changed(ctx, -1, PB_CHANGED_ALL) when changes may have gone untold
 * (the connection was lost). The number of changes, or -1 when the
 * connection is lost (it is opened again at a later call, at most once a
 * second). */
#define PB_CHANGED_TABLE 1u    /* the table's row: moves, take-backs, clock, rematch, end */
#define PB_CHANGED_MOVES 2u
#define PB_CHANGED_SEATS 4u
#define PB_CHANGED_EVENTS 8u
#define PB_CHANGED_CHAT 16u
#define PB_CHANGED_PRESENCE 32u
#define PB_CHANGED_ALL 63u
int pb_store_listener_drain(pb_store_listener *l, void (*changed)(void *ctx, int64_t table, unsigned what),
                            void *ctx);
void pb_store_listener_close(pb_store_listener *l);
/* When the game began: its players all there (the first turn's clock starts). */
int pb_store_set_started(pb_store *s, int64_t table, int64_t at, char *err, size_t errlen);
/* The secret salt of the table's deal commitment (core/hash.h). */
int pb_store_set_salt(pb_store *s, int64_t table, const char *salt, char *err, size_t errlen);
/* The code of the table offered as this one's rematch, unless one was
 * offered already (PB_STORE_TAKEN: through another server, a moment ago). */
int pb_store_set_rematch(pb_store *s, int64_t table, const char *code, char *err, size_t errlen);
/* Something that happened beside the moves, after `move` moves: `kind` a
 * word for programs ("bot", "time", "start", "undo"), `text` for people. */
int pb_store_add_event(pb_store *s, int64_t table, int move, int seat, const char *kind, const char *text, char *err,
                       size_t errlen);
/* Undo at `at` (Unix ms; the turn begins again then): forget the actions
 * from number `moves` on, the events after them and an earlier undo's event
 * at `moves` (one is enough), in one transaction. */
int pb_store_take_back(pb_store *s, int64_t table, int moves, int64_t at, char *err, size_t errlen);

/* A chat line; seat -1 for a spectator. Added after the table's last
 * line (another server's too): its number (0 for the first), or -1 with a
 * message. */
typedef struct pb_chat_line {
    int move, seat;
    const char *name, *text;
    int64_t at; /* Unix ms */
} pb_chat_line;
int pb_store_add_chat(pb_store *s, int64_t table, const pb_chat_line *line, char *err, size_t errlen);
/* The last `last` chat lines of a table, oldest first, as the protocol
 * sends them ({n, move, seat, name, spectator, text, at}); *count is how
 * many the table has. Never NULL. */
json_t *pb_store_chat(pb_store *s, int64_t table, int last, int *count);
/* Its lines numbered from `from` to `to` - 1 (those another server added),
 * and how many it has. */
json_t *pb_store_chat_range(pb_store *s, int64_t table, int from, int to);
int pb_store_chat_count(pb_store *s, int64_t table);

#endif
