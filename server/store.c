/* store.c -- see store.h. */
#include "store.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/error.h"
#include "../core/hash.h"

#define CHECKPOINT_FRAMES 1000 /* pages in the write-ahead log before it is copied back */

struct pb_store {
    sqlite3 *db;
    sqlite3_stmt *append; /* prepared once: the hot path */
    /* The write-ahead log is copied into the database file (a checkpoint,
     * which waits for the disk) by a thread of its own on a connection of
     * its own, so a commit never waits for it: the server's one thread
     * would stall every table for as long. */
    sqlite3 *ckpt_db;
    pthread_t ckpt;
    bool ckpt_running, ckpt_due, ckpt_stop;
    pthread_mutex_t lock;
    pthread_cond_t wake;
};

static const char *const schema =
    "PRAGMA journal_mode=WAL;"
    "PRAGMA synchronous=NORMAL;" /* with WAL: a commit survives a killed process */
    "PRAGMA foreign_keys=ON;"
    /* A small page cache: the pages used over and over are few (the end of
     * the actions, the codes); the rest is in the system's file cache. It
     * bounds the memory the cache takes as the database grows. */
    "PRAGMA cache_size=-512;"
    "CREATE TABLE IF NOT EXISTS tables ("
    "  id INTEGER PRIMARY KEY, game TEXT NOT NULL, code TEXT NOT NULL UNIQUE,"
    "  config TEXT NOT NULL, seed INTEGER NOT NULL, finished INTEGER NOT NULL DEFAULT 0,"
    "  created INTEGER NOT NULL DEFAULT (strftime('%s','now')));"
    "CREATE TABLE IF NOT EXISTS seats ("
    "  table_id INTEGER NOT NULL REFERENCES tables(id), seat INTEGER NOT NULL,"
    "  player TEXT NOT NULL, name TEXT NOT NULL, token TEXT,"
    "  PRIMARY KEY (table_id, seat));"
    "CREATE TABLE IF NOT EXISTS actions ("
    "  table_id INTEGER NOT NULL REFERENCES tables(id), idx INTEGER NOT NULL,"
    "  seat INTEGER NOT NULL, text TEXT NOT NULL,"
    "  PRIMARY KEY (table_id, idx));"
    /* What happened beside the moves (a seat handed to a bot, out of time,
     * a decision taken back), after `move` moves. */
    "CREATE TABLE IF NOT EXISTS events ("
    "  table_id INTEGER NOT NULL REFERENCES tables(id), move INTEGER NOT NULL,"
    "  seat INTEGER NOT NULL, kind TEXT NOT NULL, text TEXT NOT NULL);"
    "CREATE INDEX IF NOT EXISTS events_of ON events (table_id);"
    /* The server's own facts: "alive", the last time it was known running (Unix ms). */
    "CREATE TABLE IF NOT EXISTS server (key TEXT PRIMARY KEY, value INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS chat ("
    "  table_id INTEGER NOT NULL REFERENCES tables(id), n INTEGER NOT NULL, move INTEGER NOT NULL,"
    "  seat INTEGER, name TEXT NOT NULL, text TEXT NOT NULL, at INTEGER NOT NULL,"
    "  PRIMARY KEY (table_id, n));";

/* Columns added after the first release: a database made before them gets
 * them when the server opens it (NULL in the rows already there). */
static const char *const added_columns[][3] = {
    {"tables", "clock", "TEXT"},   /* the clock chosen at creation (JSON), or NULL */
    {"tables", "rematch", "TEXT"}, /* the code of the table offered as a rematch */
    {"actions", "at", "INTEGER"},  /* when it was accepted, Unix milliseconds */
    {"actions", "spent", "INTEGER"}, /* the time it took off its mover's clock, ms (restarts rebuild clocks from it) */
    {"tables", "salt", "TEXT"},    /* the secret in the deal's commitment (core/hash.h), revealed at the end */
    {"tables", "started_at", "INTEGER"}, /* when the game began (its players all there), Unix ms */
};

static int add_columns(sqlite3 *db)
{
    for (size_t i = 0; i < sizeof added_columns / sizeof added_columns[0]; i++) {
        sqlite3_stmt *st;
        if (sqlite3_prepare_v2(db, "SELECT count(*) FROM pragma_table_info(?) WHERE name = ?", -1, &st, NULL) !=
            SQLITE_OK)
            return -1;
        sqlite3_bind_text(st, 1, added_columns[i][0], -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, added_columns[i][1], -1, SQLITE_STATIC);
        bool have = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) > 0;
        sqlite3_finalize(st);
        char sql[128];
        snprintf(sql, sizeof sql, "ALTER TABLE %s ADD COLUMN %s %s", added_columns[i][0], added_columns[i][1],
                 added_columns[i][2]);
        if (!have && sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
            return -1;
    }
    return 0;
}

static int db_error(pb_store *s, const char *what, char *err, size_t errlen)
{
    return pb_errorf(err, errlen, "store: %s: %s", what, sqlite3_errmsg(s->db));
}

static int run(pb_store *s, const char *sql, const char *types, ...);

/* Called on the committing thread after each commit: wakes the
 * checkpointer once the log is long. (Setting it turns off SQLite's own
 * checkpoints on commit.) */
static int on_commit(void *arg, sqlite3 *db, const char *name, int frames)
{
    (void)db;
    (void)name;
    pb_store *s = arg;
    if (frames >= CHECKPOINT_FRAMES) {
        pthread_mutex_lock(&s->lock);
        s->ckpt_due = true;
        pthread_cond_signal(&s->wake);
        pthread_mutex_unlock(&s->lock);
    }
    return SQLITE_OK;
}

static void *checkpointer(void *arg)
{
    pb_store *s = arg;
    pthread_mutex_lock(&s->lock);
    for (;;) {
        while (!s->ckpt_due && !s->ckpt_stop)
            pthread_cond_wait(&s->wake, &s->lock);
        if (s->ckpt_stop)
            break;
        s->ckpt_due = false;
        pthread_mutex_unlock(&s->lock);
        /* Passive: copies what it can without taking a lock from the
         * writer; the next commit starts the log over when all of it was
         * copied. */
        sqlite3_wal_checkpoint_v2(s->ckpt_db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
        pthread_mutex_lock(&s->lock);
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

static int start_checkpointer(pb_store *s, const char *path)
{
    if (sqlite3_open_v2(path, &s->ckpt_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX, NULL) != SQLITE_OK ||
        sqlite3_busy_timeout(s->ckpt_db, 5000) != SQLITE_OK ||
        sqlite3_exec(s->ckpt_db, "PRAGMA synchronous=NORMAL", NULL, NULL, NULL) != SQLITE_OK ||
        pthread_create(&s->ckpt, NULL, checkpointer, s) != 0)
        return -1;
    s->ckpt_running = true;
    sqlite3_wal_hook(s->db, on_commit, s);
    return 0;
}

/* A store with nothing open yet; NULL with the reason in err. */
static pb_store *store_new(char *err, size_t errlen)
{
    pb_store *s = calloc(1, sizeof *s);
    if (!s) {
        pb_errorf(err, errlen, "out of memory");
        return NULL;
    }
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->wake, NULL);
    return s;
}

/* Seat tokens stored as issued (before they were stored hashed) are
 * hashed in place: a token is 32 hex digits, its hash 64. */
static int hash_old_tokens(sqlite3 *db)
{
    sqlite3_stmt *st, *up;
    if (sqlite3_prepare_v2(db, "SELECT table_id, seat, token FROM seats WHERE length(token) = 32", -1, &st, NULL) !=
        SQLITE_OK)
        return -1;
    if (sqlite3_prepare_v2(db, "UPDATE seats SET token = ? WHERE table_id = ? AND seat = ?", -1, &up, NULL) !=
        SQLITE_OK) {
        sqlite3_finalize(st);
        return -1;
    }
    int rc = 0;
    while (rc == 0 && sqlite3_step(st) == SQLITE_ROW) {
        char hash[PB_SHA256_HEX];
        pb_sha256_hex(sqlite3_column_text(st, 2), (size_t)sqlite3_column_bytes(st, 2), hash);
        sqlite3_bind_text(up, 1, hash, -1, SQLITE_TRANSIENT);
        sqlite3_bind_int64(up, 2, sqlite3_column_int64(st, 0));
        sqlite3_bind_int(up, 3, sqlite3_column_int(st, 1));
        rc = sqlite3_step(up) == SQLITE_DONE ? 0 : -1;
        sqlite3_reset(up);
    }
    sqlite3_finalize(st);
    sqlite3_finalize(up);
    return rc;
}

/* The database holds every deal's seed: only its owner may read it (SQLite
 * gives its log files the database file's mode). */
static void owner_only(const char *path)
{
    if (strcmp(path, ":memory:") == 0)
        return;
    int fd = open(path, O_RDWR | O_CREAT, 0600);
    if (fd >= 0)
        close(fd);
    chmod(path, 0600); /* a database made before by a looser umask */
}

pb_store *pb_store_open(const char *path, char *err, size_t errlen)
{
    pb_store *s = store_new(err, errlen);
    if (!s)
        return NULL;
    owner_only(path);
    if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                        NULL) != SQLITE_OK ||
        sqlite3_busy_timeout(s->db, 5000) != SQLITE_OK ||
        sqlite3_exec(s->db, schema, NULL, NULL, NULL) != SQLITE_OK || add_columns(s->db) != 0 ||
        hash_old_tokens(s->db) != 0 ||
        sqlite3_prepare_v2(s->db, "INSERT INTO actions (table_id, idx, seat, text, at, spent) VALUES (?, ?, ?, ?, ?, ?)",
                           -1,
                           &s->append, NULL) != SQLITE_OK ||
        start_checkpointer(s, path) != 0) {
        pb_errorf(err, errlen, "store: cannot open %s: %s", path, s->db ? sqlite3_errmsg(s->db) : "out of memory");
        pb_store_close(s);
        return NULL;
    }
    return s;
}

pb_store *pb_store_open_readonly(const char *path, char *err, size_t errlen)
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        pb_errorf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    pb_store *s = store_new(err, errlen);
    if (!s)
        return NULL;
    sqlite3_stmt *st = NULL;
    int tables = 0;
    /* Read-write when the file allows it (though nothing is written:
     * query_only), so that closing the last connection tidies the
     * write-ahead log away as the server does; read-only otherwise. */
    int rc = sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX, NULL);
    if (rc != SQLITE_OK) {
        sqlite3_close(s->db);
        s->db = NULL;
        rc = sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_FULLMUTEX, NULL);
    }
    if (rc == SQLITE_OK && sqlite3_busy_timeout(s->db, 5000) == SQLITE_OK &&
        sqlite3_exec(s->db, "PRAGMA query_only=1", NULL, NULL, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(s->db,
                           "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
                           "name IN ('tables', 'seats', 'actions')",
                           -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        tables = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    if (tables != 3) {
        pb_errorf(err, errlen, "%s is not a pizzabox database", path);
        pb_store_close(s);
        return NULL;
    }
    return s;
}

void pb_store_close(pb_store *s)
{
    if (!s)
        return;
    if (s->ckpt_running) {
        pthread_mutex_lock(&s->lock);
        s->ckpt_stop = true;
        pthread_cond_signal(&s->wake);
        pthread_mutex_unlock(&s->lock);
        pthread_join(s->ckpt, NULL);
    }
    sqlite3_close(s->ckpt_db);
    sqlite3_finalize(s->append);
    sqlite3_close(s->db); /* the last connection: the log is copied back and removed */
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->wake);
    free(s);
}

int64_t pb_store_create_table(pb_store *s, const char *game, const json_t *config, uint64_t seed,
                              const char *code, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    char *conf = json_dumps(config, JSON_COMPACT | JSON_SORT_KEYS);
    int64_t id = -1;
    if (sqlite3_prepare_v2(s->db, "INSERT INTO tables (game, code, config, seed) VALUES (?, ?, ?, ?)", -1, &st,
                           NULL) != SQLITE_OK) {
        free(conf);
        db_error(s, "create table", err, errlen);
        return -1;
    }
    sqlite3_bind_text(st, 1, game, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, code, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, conf ? conf : "{}", -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 4, (sqlite3_int64)seed);
    if (sqlite3_step(st) == SQLITE_DONE)
        id = sqlite3_last_insert_rowid(s->db);
    else
        db_error(s, "create table", err, errlen);
    sqlite3_finalize(st);
    free(conf);
    return id;
}

int pb_store_set_seat(pb_store *s, int64_t table, int seat, const char *player, const char *name,
                      const char *token, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db,
                           "INSERT OR REPLACE INTO seats (table_id, seat, player, name, token) VALUES (?, ?, ?, ?, ?)",
                           -1, &st, NULL) != SQLITE_OK)
        return db_error(s, "seat", err, errlen);
    sqlite3_bind_int64(st, 1, table);
    sqlite3_bind_int(st, 2, seat);
    sqlite3_bind_text(st, 3, player, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, name ? name : "", -1, SQLITE_STATIC);
    char hash[PB_SHA256_HEX];
    if (token) { /* only its hash is kept: a copy of the database opens no seat */
        pb_sha256_hex(token, strlen(token), hash);
        sqlite3_bind_text(st, 5, hash, -1, SQLITE_STATIC);
    }
    else
        sqlite3_bind_null(st, 5);
    int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : db_error(s, "seat", err, errlen);
    sqlite3_finalize(st);
    return rc;
}

bool pb_store_check_token(pb_store *s, int64_t table, int seat, const char *token)
{
    sqlite3_stmt *st;
    bool ok = false;
    if (!token || sqlite3_prepare_v2(s->db, "SELECT token FROM seats WHERE table_id = ? AND seat = ?", -1, &st,
                                     NULL) != SQLITE_OK)
        return false;
    sqlite3_bind_int64(st, 1, table);
    sqlite3_bind_int(st, 2, seat);
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) == SQLITE_TEXT) {
        const char *want = (const char *)sqlite3_column_text(st, 0);
        char hash[PB_SHA256_HEX];
        pb_sha256_hex(token, strlen(token), hash);
        /* Compare every byte, so the time taken tells nothing. */
        unsigned diff = (unsigned)(strlen(want) ^ (PB_SHA256_HEX - 1));
        for (size_t i = 0; i < PB_SHA256_HEX - 1; i++)
            diff |= (unsigned char)hash[i] ^ (unsigned char)(i < strlen(want) ? want[i] : 0);
        ok = diff == 0;
    }
    sqlite3_finalize(st);
    return ok;
}

int pb_store_append_action(pb_store *s, int64_t table, int index, int seat, const char *text, int64_t at,
                           int64_t spent, char *err, size_t errlen)
{
    sqlite3_reset(s->append);
    sqlite3_bind_int64(s->append, 1, table);
    sqlite3_bind_int(s->append, 2, index);
    sqlite3_bind_int(s->append, 3, seat);
    sqlite3_bind_text(s->append, 4, text, -1, SQLITE_STATIC);
    sqlite3_bind_int64(s->append, 5, at);
    sqlite3_bind_int64(s->append, 6, spent);
    /* Autocommit: when step returns DONE the row is in the write-ahead log,
     * which a killed process cannot lose (synchronous=NORMAL; only a power
     * cut could take the last commits). */
    int rc = sqlite3_step(s->append) == SQLITE_DONE ? 0 : db_error(s, "append action", err, errlen);
    sqlite3_reset(s->append);
    return rc;
}

int pb_store_close_table(pb_store *s, int64_t table, char *err, size_t errlen)
{
    if (run(s, "UPDATE tables SET finished = 2 WHERE id = ?", "I", table) != 0)
        return db_error(s, "close", err, errlen);
    return 0;
}

bool pb_store_is_closed(pb_store *s, int64_t table)
{
    sqlite3_stmt *st;
    bool closed = false;
    if (sqlite3_prepare_v2(s->db, "SELECT finished FROM tables WHERE id = ?", -1, &st, NULL) != SQLITE_OK)
        return false;
    sqlite3_bind_int64(st, 1, table);
    closed = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) == 2;
    sqlite3_finalize(st);
    return closed;
}

int pb_store_finish(pb_store *s, int64_t table, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, "UPDATE tables SET finished = 1 WHERE id = ?", -1, &st, NULL) != SQLITE_OK)
        return db_error(s, "finish", err, errlen);
    sqlite3_bind_int64(st, 1, table);
    int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : db_error(s, "finish", err, errlen);
    sqlite3_finalize(st);
    return rc;
}

void pb_stored_table_free(pb_stored_table *t)
{
    json_decref(t->config);
    json_decref(t->actions);
    json_decref(t->action_at);
    json_decref(t->action_spent);
    json_decref(t->clock);
    json_decref(t->events);
    memset(t, 0, sizeof *t);
}

static void copy_text(char *out, size_t n, sqlite3_stmt *st, int col)
{
    const unsigned char *v = sqlite3_column_text(st, col);
    snprintf(out, n, "%s", v ? (const char *)v : "");
}

int pb_store_load(pb_store *s, int64_t table, pb_stored_table *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT game, code, config, seed, finished, clock, rematch, salt, ifnull(started_at, 0) "
                           "FROM tables WHERE id = ?",
                           -1, &st, NULL) != SQLITE_OK)
        return db_error(s, "load", err, errlen);
    sqlite3_bind_int64(st, 1, table);
    int rc = -1;
    if (sqlite3_step(st) == SQLITE_ROW) {
        out->id = table;
        copy_text(out->game, sizeof out->game, st, 0);
        copy_text(out->code, sizeof out->code, st, 1);
        out->config = json_loads((const char *)sqlite3_column_text(st, 2), 0, NULL);
        out->seed = (uint64_t)sqlite3_column_int64(st, 3);
        out->finished = sqlite3_column_int(st, 4) != 0;
        if (sqlite3_column_type(st, 5) == SQLITE_TEXT)
            out->clock = json_loads((const char *)sqlite3_column_text(st, 5), 0, NULL);
        copy_text(out->rematch, sizeof out->rematch, st, 6);
        copy_text(out->salt, sizeof out->salt, st, 7);
        out->started_at = sqlite3_column_int64(st, 8);
        rc = out->config ? 0 : pb_errorf(err, errlen, "store: table %lld has a damaged config", (long long)table);
    } else {
        pb_errorf(err, errlen, "store: no table %lld", (long long)table);
    }
    sqlite3_finalize(st);
    if (rc != 0)
        return rc;
    out->actions = json_array();
    out->action_at = json_array();
    out->action_spent = json_array();
    out->events = json_array();
    if (sqlite3_prepare_v2(s->db, "SELECT seat, player, name FROM seats WHERE table_id = ? ORDER BY seat", -1, &st,
                           NULL) != SQLITE_OK)
        return db_error(s, "load seats", err, errlen);
    sqlite3_bind_int64(st, 1, table);
    while (sqlite3_step(st) == SQLITE_ROW) {
        int seat = sqlite3_column_int(st, 0);
        if (seat >= 0 && seat < 6) {
            copy_text(out->player[seat], sizeof out->player[seat], st, 1);
            copy_text(out->name[seat], sizeof out->name[seat], st, 2);
            out->seats = seat + 1 > out->seats ? seat + 1 : out->seats;
        }
    }
    sqlite3_finalize(st);
    if (sqlite3_prepare_v2(s->db,
                           "SELECT idx, text, ifnull(at, 0), ifnull(spent, 0) FROM actions WHERE table_id = ? ORDER BY idx",
                           -1, &st, NULL) != SQLITE_OK)
        return db_error(s, "load actions", err, errlen);
    sqlite3_bind_int64(st, 1, table);
    for (int expect = 0; sqlite3_step(st) == SQLITE_ROW && rc == 0; expect++) {
        if (sqlite3_column_int(st, 0) != expect)
            rc = pb_errorf(err, errlen, "store: table %lld is missing action %d", (long long)table, expect);
        else {
            json_array_append_new(out->actions, json_string((const char *)sqlite3_column_text(st, 1)));
            json_array_append_new(out->action_at, json_integer(sqlite3_column_int64(st, 2)));
            json_array_append_new(out->action_spent, json_integer(sqlite3_column_int64(st, 3)));
        }
    }
    sqlite3_finalize(st);
    if (rc == 0 && sqlite3_prepare_v2(s->db,
                                      "SELECT move, seat, kind, text FROM events WHERE table_id = ? ORDER BY rowid",
                                      -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_int64(st, 1, table);
        while (sqlite3_step(st) == SQLITE_ROW)
            json_array_append_new(out->events,
                                  json_pack("{s:i, s:i, s:s, s:s}", "move", sqlite3_column_int(st, 0), "seat",
                                            sqlite3_column_int(st, 1), "kind", (const char *)sqlite3_column_text(st, 2),
                                            "text", (const char *)sqlite3_column_text(st, 3)));
        sqlite3_finalize(st);
    }
    if (rc != 0)
        pb_stored_table_free(out);
    return rc;
}

int pb_store_list(pb_store *s, pb_store_which which, int64_t *ids, int max)
{
    static const char *const sql[] = {
        [PB_STORE_ALL] = "SELECT id FROM tables ORDER BY id DESC LIMIT ?",
        [PB_STORE_UNFINISHED] = "SELECT id FROM tables WHERE finished = 0 ORDER BY id DESC LIMIT ?",
        [PB_STORE_FINISHED] = "SELECT id FROM tables WHERE finished = 1 ORDER BY id DESC LIMIT ?",
    };
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, sql[which], -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_int(st, 1, max);
    int n = 0;
    while (n < max && sqlite3_step(st) == SQLITE_ROW)
        ids[n++] = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return n;
}

int pb_store_count(pb_store *s, pb_store_which which)
{
    static const char *const sql[] = {
        [PB_STORE_ALL] = "SELECT count(*) FROM tables",
        [PB_STORE_UNFINISHED] = "SELECT count(*) FROM tables WHERE finished = 0",
        [PB_STORE_FINISHED] = "SELECT count(*) FROM tables WHERE finished = 1",
    };
    sqlite3_stmt *st;
    int n = -1;
    if (sqlite3_prepare_v2(s->db, sql[which], -1, &st, NULL) != SQLITE_OK)
        return -1;
    if (sqlite3_step(st) == SQLITE_ROW)
        n = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return n;
}

/* The head with this id in out[0..n) (ids descending), or NULL. */
static pb_table_head *head_of(pb_table_head *out, int n, int64_t id)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (out[mid].id == id)
            return &out[mid];
        if (out[mid].id > id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

int pb_store_heads(pb_store *s, pb_table_head *out, int max)
{
    sqlite3_stmt *st;
    /* The move count is the last action's number plus one (actions are
     * numbered from 0 without gaps): one index lookup per table. */
    if (max <= 0 || sqlite3_prepare_v2(s->db,
                                       "SELECT id, game, code, config, finished, "
                                       "(SELECT ifnull(max(idx) + 1, 0) FROM actions WHERE table_id = tables.id) "
                                       "FROM tables WHERE finished != 2 ORDER BY id DESC LIMIT ?",
                                       -1, &st, NULL) != SQLITE_OK)
        return max <= 0 ? 0 : -1;
    sqlite3_bind_int(st, 1, max);
    int n = 0;
    while (n < max && sqlite3_step(st) == SQLITE_ROW) {
        pb_table_head *h = &out[n++];
        memset(h, 0, sizeof *h);
        h->id = sqlite3_column_int64(st, 0);
        copy_text(h->game, sizeof h->game, st, 1);
        copy_text(h->code, sizeof h->code, st, 2);
        json_t *config = json_loads((const char *)sqlite3_column_text(st, 3), 0, NULL);
        h->players = (int)json_integer_value(json_object_get(config, "players"));
        json_decref(config);
        h->finished = sqlite3_column_int(st, 4) != 0;
        h->moves = sqlite3_column_int(st, 5);
    }
    sqlite3_finalize(st);
    if (n == 0)
        return 0;
    if (sqlite3_prepare_v2(s->db, "SELECT table_id, seat, player, name FROM seats WHERE table_id BETWEEN ? AND ?", -1,
                           &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_int64(st, 1, out[n - 1].id);
    sqlite3_bind_int64(st, 2, out[0].id);
    while (sqlite3_step(st) == SQLITE_ROW) {
        pb_table_head *h = head_of(out, n, sqlite3_column_int64(st, 0));
        int seat = sqlite3_column_int(st, 1);
        if (h && seat >= 0 && seat < 6) {
            copy_text(h->player[seat], sizeof h->player[seat], st, 2);
            copy_text(h->name[seat], sizeof h->name[seat], st, 3);
        }
    }
    sqlite3_finalize(st);
    return n;
}

int pb_store_set_player(pb_store *s, int64_t table, int seat, const char *player, char *err, size_t errlen)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, "UPDATE seats SET player = ? WHERE table_id = ? AND seat = ?", -1, &st, NULL) !=
        SQLITE_OK)
        return db_error(s, "seat", err, errlen);
    sqlite3_bind_text(st, 1, player, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, table);
    sqlite3_bind_int(st, 3, seat);
    int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : db_error(s, "seat", err, errlen);
    sqlite3_finalize(st);
    return rc;
}

int64_t pb_store_find_code(pb_store *s, const char *code)
{
    sqlite3_stmt *st;
    int64_t id = -1;
    if (sqlite3_prepare_v2(s->db, "SELECT id FROM tables WHERE code = ?", -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_text(st, 1, code, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW)
        id = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return id;
}

/* One statement with its parameters bound by a format: i int, n int (a
 * negative one binds NULL), I int64, s text (NULL binds NULL); run to its
 * end. 0, or -1. */
static int run(pb_store *s, const char *sql, const char *types, ...)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
        return -1;
    va_list ap;
    va_start(ap, types);
    for (int i = 0; types[i]; i++) {
        if (types[i] == 'i' || types[i] == 'n') {
            int v = va_arg(ap, int);
            if (types[i] == 'i' || v >= 0)
                sqlite3_bind_int(st, i + 1, v);
        } else if (types[i] == 'I')
            sqlite3_bind_int64(st, i + 1, va_arg(ap, int64_t));
        else {
            const char *text = va_arg(ap, const char *);
            if (text)
                sqlite3_bind_text(st, i + 1, text, -1, SQLITE_TRANSIENT);
        }
    }
    va_end(ap);
    int rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
    sqlite3_finalize(st);
    return rc;
}

int pb_store_set_clock(pb_store *s, int64_t table, const json_t *clock, char *err, size_t errlen)
{
    char *text = clock ? json_dumps(clock, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    int rc = run(s, "UPDATE tables SET clock = ? WHERE id = ?", "sI", text, table);
    free(text);
    return rc == 0 ? 0 : db_error(s, "clock", err, errlen);
}

int pb_store_set_alive(pb_store *s, int64_t at)
{
    return run(s, "INSERT OR REPLACE INTO server (key, value) VALUES ('alive', ?)", "I", at);
}

int64_t pb_store_alive(pb_store *s)
{
    sqlite3_stmt *st;
    int64_t at = 0;
    if (sqlite3_prepare_v2(s->db, "SELECT value FROM server WHERE key = 'alive'", -1, &st, NULL) != SQLITE_OK)
        return 0;
    if (sqlite3_step(st) == SQLITE_ROW)
        at = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return at;
}

int pb_store_set_started(pb_store *s, int64_t table, int64_t at, char *err, size_t errlen)
{
    if (run(s, "UPDATE tables SET started_at = ? WHERE id = ?", "II", at, table) != 0)
        return db_error(s, "started", err, errlen);
    return 0;
}

int pb_store_set_salt(pb_store *s, int64_t table, const char *salt, char *err, size_t errlen)
{
    if (run(s, "UPDATE tables SET salt = ? WHERE id = ?", "sI", salt, table) != 0)
        return db_error(s, "salt", err, errlen);
    return 0;
}

int pb_store_set_rematch(pb_store *s, int64_t table, const char *code, char *err, size_t errlen)
{
    if (run(s, "UPDATE tables SET rematch = ? WHERE id = ?", "sI", code, table) != 0)
        return db_error(s, "rematch", err, errlen);
    return 0;
}

int pb_store_add_event(pb_store *s, int64_t table, int move, int seat, const char *kind, const char *text, char *err,
                       size_t errlen)
{
    if (run(s, "INSERT INTO events (table_id, move, seat, kind, text) VALUES (?, ?, ?, ?, ?)", "Iiiss", table,
            move, seat, kind, text) != 0)
        return db_error(s, "event", err, errlen);
    return 0;
}

int pb_store_take_back(pb_store *s, int64_t table, int moves, char *err, size_t errlen)
{
    if (sqlite3_exec(s->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
        return db_error(s, "take back", err, errlen);
    if (run(s, "DELETE FROM actions WHERE table_id = ? AND idx >= ?", "Ii", table, moves) != 0 ||
        run(s, "DELETE FROM events WHERE table_id = ? AND (move > ? OR (move = ? AND kind = 'undo'))", "Iii", table,
            moves, moves) != 0) {
        db_error(s, "take back", err, errlen);
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
        return -1;
    }
    if (sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
        return 0;
    db_error(s, "take back", err, errlen);
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL); /* never left inside a transaction */
    return -1;
}

int pb_store_add_chat(pb_store *s, int64_t table, const pb_chat_line *line, char *err, size_t errlen)
{
    if (run(s, "INSERT INTO chat (table_id, n, move, seat, name, text, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            "IiinssI", table, line->n, line->move, line->seat, line->name, line->text, line->at) != 0)
        return db_error(s, "chat", err, errlen);
    return 0;
}

json_t *pb_store_chat(pb_store *s, int64_t table, int last, int *count)
{
    sqlite3_stmt *st;
    json_t *lines = json_array();
    *count = 0;
    if (sqlite3_prepare_v2(s->db, "SELECT count(*) FROM chat WHERE table_id = ?", -1, &st, NULL) == SQLITE_OK) {
        sqlite3_bind_int64(st, 1, table);
        if (sqlite3_step(st) == SQLITE_ROW)
            *count = sqlite3_column_int(st, 0);
        sqlite3_finalize(st);
    }
    if (sqlite3_prepare_v2(s->db,
                           "SELECT n, move, seat, name, text, at FROM chat WHERE table_id = ? AND n >= ? ORDER BY n",
                           -1, &st, NULL) != SQLITE_OK)
        return lines;
    sqlite3_bind_int64(st, 1, table);
    sqlite3_bind_int(st, 2, *count - last);
    while (sqlite3_step(st) == SQLITE_ROW) {
        bool spectator = sqlite3_column_type(st, 2) == SQLITE_NULL;
        json_array_append_new(lines, json_pack("{s:i, s:i, s:o, s:s, s:b, s:s, s:I}", "n", sqlite3_column_int(st, 0),
                                               "move", sqlite3_column_int(st, 1), "seat",
                                               spectator ? json_null() : json_integer(sqlite3_column_int(st, 2)),
                                               "name", (const char *)sqlite3_column_text(st, 3), "spectator",
                                               spectator, "text", (const char *)sqlite3_column_text(st, 4), "at",
                                               (json_int_t)sqlite3_column_int64(st, 5)));
    }
    sqlite3_finalize(st);
    return lines;
}
