/* lobby.h -- the tables of a game server and the protocol of docs/protocol.md,
 * without any network: messages come in as text from numbered connections
 * and go out through a callback, so the whole protocol is testable here.
 *
 * Everything here runs on one thread (the server's service thread). Bot
 * moves are computed elsewhere: the lobby asks for them through a callback
 * with a copy of the position, and takes the answer back later. */
#ifndef PB_LOBBY_H
#define PB_LOBBY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../ai/analysis.h"
#include "../core/game.h"
#include "store.h"

typedef struct pb_lobby pb_lobby;

/* A bot move to compute, or (review) a finished game's decision to review:
 * the position is a copy the job owns. */
typedef struct pb_bot_job {
    int64_t table;
    int moves;            /* the table's position number when asked (it changes with every move and
                           * undo): answers for older positions are dropped; for a review, the
                           * decision's move index */
    int seat;
    char bot[64];
    uint64_t seed;
    const pb_game *game;  /* immutable, owned by the lobby, alive while the table is */
    pb_state *state;      /* owned by the job */
    uint64_t owner;       /* who the table is for: bots' time is shared fairly between owners */
    bool review;          /* analysis (`analyse`): review the move `played` (pb_review_decision);
                           * served after every live bot's move */
    pb_action played;
} pb_bot_job;

typedef struct pb_lobby_io {
    void *ctx;
    /* Queue text for a connection (copied). */
    void (*send)(void *ctx, int conn, const char *text);
    /* Ask for a bot move; the callee owns the job (and must free job->state). */
    void (*ask_bot)(void *ctx, pb_bot_job *job);
    /* The time now, Unix milliseconds (clocks, chat's rate, bots' pace);
     * NULL for the system's clock. Tests give their own. */
    int64_t (*now_ms)(void *ctx);
    /* A bot's move is made no sooner than this many milliseconds after the
     * move before it (0: at once); pb_lobby_tick makes the ones held. */
    int bot_pace_ms;
    /* Unfinished tables on the server (0: PB_LOBBY_MAX_TABLES). */
    int max_tables;
    /* Unfinished tables one address may have made (0: no limit). */
    int tables_per_client;
    /* An unfinished table with no person at it for this many hours is
     * closed (0: never); one on a turn-based clock gets its hours per move
     * on top. */
    int close_after_hours;
} pb_lobby_io;

#define PB_LOBBY_MAX_TABLES 2000 /* unfinished tables on a server, unless max_tables says otherwise */
#define PB_LOBBY_TABLES_PER_CONN 8
/* A finished table nobody sits at or watches leaves memory after this many
 * seconds; it is loaded from the store again when someone asks for it. */
#define PB_LOBBY_FINISHED_GRACE 10

/* A lobby over a store: unfinished tables are rebuilt from it (their bots
 * asked to move again). NULL with a message. */
pb_lobby *pb_lobby_new(pb_store *store, const pb_lobby_io *io, char *err, size_t errlen);
void pb_lobby_free(pb_lobby *l);

/* A new connection and the address it comes from ("" when it counts for no
 * one: the server's own machine, tests, benchmarks); the quotas per client
 * and the fair share of bots' time go by it. */
void pb_lobby_connect(pb_lobby *l, int conn, const char *address);
/* One message from a connection (any bytes: checked here). */
void pb_lobby_message(pb_lobby *l, int conn, const char *text, size_t len);
/* The connection is gone: its seats stay, without anyone watching. */
void pb_lobby_disconnect(pb_lobby *l, int conn);
/* A bot's answer for a job (the job's state already freed). Every job asked
 * for must be answered (with moves = -1 when the bot could not move): a
 * table stays in memory while a job points at its game. */
void pb_lobby_bot_move(pb_lobby *l, int64_t table, int moves, pb_action a);
/* A review's answer (a job with `review`; its state already freed): the
 * decision at move index `move`, reviewed, with the texts of the move played
 * and the best move as spectators see them; rv NULL when it could not be. */
void pb_lobby_review(pb_lobby *l, int64_t table, int move, const pb_review *rv, const char *played,
                     const char *best);
/* Housekeeping, every 100 ms or so: bot moves held for their pace are made,
 * clocks run out, seats become free to hand to a bot, finished tables idle
 * for PB_LOBBY_FINISHED_GRACE seconds leave memory. */
void pb_lobby_tick(pb_lobby *l);
/* Tables in memory, for tests and limits. */
int pb_lobby_tables(const pb_lobby *l);

/* Another server on the same database changed table `id` (docs/scaling.md):
 * what changed (PB_CHANGED_* of store.h) is read again from the store and
 * shown to this server's people at it; a table not in memory (made there)
 * is taken in. -1: changes may have gone untold, every table is read
 * again. */
void pb_lobby_changed(pb_lobby *l, int64_t id, unsigned what);

#endif
