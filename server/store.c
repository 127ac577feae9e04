/* store.c -- see store.h. */
#include "store.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/error.h"

struct pb_store {
    sqlite3 *db;
    sqlite3_stmt *append; /* prepared once: the hot path */
};

static const char *const schema =
    "PRAGMA journal_mode=WAL;"
    "PRAGMA synchronous=NORMAL;" /* with WAL: a commit survives a killed process */
    "PRAGMA foreign_keys=ON;"
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
    "  PRIMARY KEY (table_id, idx));";

static int db_error(pb_store *s, const char *what, char *err, size_t errlen)
{
    return pb_errorf(err, errlen, "store: %s: %s", what, sqlite3_errmsg(s->db));
}

pb_store *pb_store_open(const char *path, char *err, size_t errlen)
{
    pb_store *s = calloc(1, sizeof *s);
    if (!s) {
        pb_errorf(err, errlen, "out of memory");
        return NULL;
    }
    if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                        NULL) != SQLITE_OK ||
        sqlite3_busy_timeout(s->db, 5000) != SQLITE_OK ||
        sqlite3_exec(s->db, schema, NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(s->db, "INSERT INTO actions (table_id, idx, seat, text) VALUES (?, ?, ?, ?)", -1,
                           &s->append, NULL) != SQLITE_OK) {
        pb_errorf(err, errlen, "store: cannot open %s: %s", path, s->db ? sqlite3_errmsg(s->db) : "out of memory");
        pb_store_close(s);
        return NULL;
    }
    return s;
}

void pb_store_close(pb_store *s)
{
    if (!s)
        return;
    sqlite3_finalize(s->append);
    sqlite3_close(s->db);
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
    if (token)
        sqlite3_bind_text(st, 5, token, -1, SQLITE_STATIC);
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
        size_t n = strlen(want);
        /* Compare every byte, so the time taken tells nothing. */
        unsigned diff = (unsigned)(n ^ strlen(token));
        for (size_t i = 0; i < n; i++)
            diff |= (unsigned char)want[i] ^ (unsigned char)(i < strlen(token) ? token[i] : 0);
        ok = diff == 0 && n > 0;
    }
    sqlite3_finalize(st);
    return ok;
}

int pb_store_append_action(pb_store *s, int64_t table, int index, int seat, const char *text, char *err,
                           size_t errlen)
{
    sqlite3_reset(s->append);
    sqlite3_bind_int64(s->append, 1, table);
    sqlite3_bind_int(s->append, 2, index);
    sqlite3_bind_int(s->append, 3, seat);
    sqlite3_bind_text(s->append, 4, text, -1, SQLITE_STATIC);
    /* Autocommit: when step returns DONE the row is in the write-ahead log,
     * which a killed process cannot lose (synchronous=NORMAL; only a power
     * cut could take the last commits). */
    int rc = sqlite3_step(s->append) == SQLITE_DONE ? 0 : db_error(s, "append action", err, errlen);
    sqlite3_reset(s->append);
    return rc;
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
    if (sqlite3_prepare_v2(s->db, "SELECT game, code, config, seed, finished FROM tables WHERE id = ?", -1, &st,
                           NULL) != SQLITE_OK)
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
        rc = out->config ? 0 : pb_errorf(err, errlen, "store: table %lld has a damaged config", (long long)table);
    } else {
        pb_errorf(err, errlen, "store: no table %lld", (long long)table);
    }
    sqlite3_finalize(st);
    if (rc != 0)
        return rc;
    out->actions = json_array();
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
    if (sqlite3_prepare_v2(s->db, "SELECT idx, text FROM actions WHERE table_id = ? ORDER BY idx", -1, &st, NULL) !=
        SQLITE_OK)
        return db_error(s, "load actions", err, errlen);
    sqlite3_bind_int64(st, 1, table);
    for (int expect = 0; sqlite3_step(st) == SQLITE_ROW && rc == 0; expect++) {
        if (sqlite3_column_int(st, 0) != expect)
            rc = pb_errorf(err, errlen, "store: table %lld is missing action %d", (long long)table, expect);
        else
            json_array_append_new(out->actions, json_string((const char *)sqlite3_column_text(st, 1)));
    }
    sqlite3_finalize(st);
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
