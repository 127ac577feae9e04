/* store.c -- see store.h. The store's queries and its schema, written once
 * for both databases: the drivers (db.h) only run statements. */
#include "store.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../core/error.h"
#include "../core/game.h"
#include "../core/hash.h"
#include "db.h"

struct pb_store {
    pb_db *db;
    int64_t node; /* this server's row in `nodes` (0: read only) */
    int64_t clock_offset; /* the database's clock less this machine's, ms (PostgreSQL; 0 with SQLite) */
};

/* ---- Statements ---- */

/* Start sql with its parameters bound by a format: i int, n int (a
 * negative one binds NULL), I int64, s text (NULL binds NULL). 0, or -1. */
static int vquery(pb_store *s, pb_db_rows *r, const char *sql, const char *types, va_list ap)
{
    pb_db_value params[16];
    int n = 0;
    for (; types[n] && n < 16; n++) {
        pb_db_value *p = &params[n];
        if (types[n] == 'i' || types[n] == 'n') {
            int v = va_arg(ap, int);
            *p = types[n] == 'n' && v < 0 ? (pb_db_value){PB_DB_NULL, 0, NULL} : (pb_db_value){PB_DB_INT, v, NULL};
        } else if (types[n] == 'I')
            *p = (pb_db_value){PB_DB_INT, va_arg(ap, int64_t), NULL};
        else {
            const char *text = va_arg(ap, const char *);
            *p = text ? (pb_db_value){PB_DB_TEXT, 0, text} : (pb_db_value){PB_DB_NULL, 0, NULL};
        }
    }
    return s->db->driver->query(s->db, sql, n, params, r);
}

/* A statement whose rows are read: query, then next() until it is not 1,
 * then done(). */
static int query(pb_store *s, pb_db_rows *r, const char *sql, const char *types, ...)
{
    va_list ap;
    va_start(ap, types);
    int rc = vquery(s, r, sql, types, ap);
    va_end(ap);
    return rc;
}

static int next(pb_db_rows *r)
{
    return r->db->driver->next(r);
}

static int64_t col_int(const pb_db_rows *r, int col)
{
    return r->db->driver->integer(r, col);
}

static const char *col_text(const pb_db_rows *r, int col)
{
    return r->db->driver->text(r, col);
}

static void done(pb_db_rows *r)
{
    r->db->driver->done(r);
}

/* A statement run to its end (committed, outside a transaction), the
 * first column of its first row, if any, in *first. 0, or -1. */
static int vrun(pb_store *s, int64_t *first, const char *sql, const char *types, va_list ap)
{
    pb_db_rows r;
    if (vquery(s, &r, sql, types, ap) != 0)
        return -1;
    int rc;
    for (bool got = false; (rc = next(&r)) == 1; got = true)
        if (first && !got)
            *first = col_int(&r, 0);
    done(&r);
    return rc;
}

static int run(pb_store *s, const char *sql, const char *types, ...)
{
    va_list ap;
    va_start(ap, types);
    int rc = vrun(s, NULL, sql, types, ap);
    va_end(ap);
    return rc;
}

/* The one integer a statement returns (fallback when it returns no row or
 * fails). */
static int64_t one_int(pb_store *s, int64_t fallback, const char *sql, const char *types, ...)
{
    int64_t v = fallback;
    va_list ap;
    va_start(ap, types);
    if (vrun(s, &v, sql, types, ap) != 0)
        v = fallback;
    va_end(ap);
    return v;
}

static int script(pb_store *s, const char *sql)
{
    return s->db->driver->script(s->db, sql);
}

static int db_error(pb_store *s, const char *what, char *err, size_t errlen)
{
    return pb_errorf(err, errlen, "store: %s: %s", what, s->db->driver->error(s->db));
}

static bool is_pg(const pb_store *s)
{
    return s->db->driver->dialect[0] == 'p';
}

/* This machine's clock, Unix ms: the server's only reading of the time of
 * day. For tests only, PIZZABOX_CLOCK_AHEAD_MS sets it apart from the
 * others' (a machine whose clock is wrong: libfaketime cannot be preloaded
 * beside jemalloc). */
static int64_t now_ms(void)
{
    static int64_t ahead = -1;
    if (ahead < 0) {
        const char *set = getenv("PIZZABOX_CLOCK_AHEAD_MS");
        ahead = set ? strtoll(set, NULL, 10) : 0;
        ahead = ahead > 0 && ahead < 86400000 ? ahead : 0;
    }
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000 + ahead;
}

/* ---- The schema ---- */

/* Version 1 as it was before versions were counted (SQLite only): a
 * database from then is brought to it by add_columns and hash_old_tokens. */
static const char *const sqlite_v1 =
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
    "CREATE TABLE IF NOT EXISTS events ("
    "  table_id INTEGER NOT NULL REFERENCES tables(id), move INTEGER NOT NULL,"
    "  seat INTEGER NOT NULL, kind TEXT NOT NULL, text TEXT NOT NULL);"
    "CREATE INDEX IF NOT EXISTS events_of ON events (table_id);"
    "CREATE TABLE IF NOT EXISTS server (key TEXT PRIMARY KEY, value INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS chat ("
    "  table_id INTEGER NOT NULL REFERENCES tables(id), n INTEGER NOT NULL, move INTEGER NOT NULL,"
    "  seat INTEGER, name TEXT NOT NULL, text TEXT NOT NULL, at INTEGER NOT NULL,"
    "  PRIMARY KEY (table_id, n));";

/* Version 1 in PostgreSQL: the same tables and columns. Times are Unix
 * milliseconds (bigint). The move log's key (table_id, idx) refuses a
 * second move for the same position instead of keeping both. The events'
 * `rowid` is SQLite's implicit one made explicit: both keep them in the
 * order they came. */
static const char *const pg_v1 =
    "CREATE TABLE tables ("
    "  id BIGSERIAL PRIMARY KEY, game TEXT NOT NULL, code TEXT NOT NULL UNIQUE,"
    "  config TEXT NOT NULL, seed BIGINT NOT NULL, finished INTEGER NOT NULL DEFAULT 0,"
    "  created BIGINT NOT NULL DEFAULT extract(epoch FROM now())::bigint,"
    "  clock TEXT, rematch TEXT, salt TEXT, started_at BIGINT);"
    "CREATE TABLE seats ("
    "  table_id BIGINT NOT NULL REFERENCES tables(id), seat INTEGER NOT NULL,"
    "  player TEXT NOT NULL, name TEXT NOT NULL, token TEXT,"
    "  PRIMARY KEY (table_id, seat));"
    "CREATE TABLE actions ("
    "  table_id BIGINT NOT NULL REFERENCES tables(id), idx INTEGER NOT NULL,"
    "  seat INTEGER NOT NULL, text TEXT NOT NULL, at BIGINT, spent BIGINT,"
    "  PRIMARY KEY (table_id, idx));"
    "CREATE TABLE events ("
    "  rowid BIGSERIAL PRIMARY KEY, table_id BIGINT NOT NULL REFERENCES tables(id), move INTEGER NOT NULL,"
    "  seat INTEGER NOT NULL, kind TEXT NOT NULL, text TEXT NOT NULL);"
    "CREATE INDEX events_of ON events (table_id);"
    "CREATE TABLE server (key TEXT PRIMARY KEY, value BIGINT NOT NULL);"
    "CREATE TABLE chat ("
    "  table_id BIGINT NOT NULL REFERENCES tables(id), n INTEGER NOT NULL, move INTEGER NOT NULL,"
    "  seat INTEGER, name TEXT NOT NULL, text TEXT NOT NULL, at BIGINT NOT NULL,"
    "  PRIMARY KEY (table_id, n));";

/* Version 2: servers sharing a database. Each server is a node with a row
 * of its own, alive while it notes the time there; a bot's move at a
 * position is made by the node that claimed it (bot_claims); a seat's
 * player is connected to the nodes in `presence`. A table's `moves` is
 * where its log ends, a move appended only there (PostgreSQL; in the
 * same statement); its `gen` counts the times moves were taken back, so
 * that a server learns its history changed even when moves followed. In
 * PostgreSQL a trigger on every table of a game's rows tells each change, as
 * "node:table" on the channel `pizzabox`, in the same transaction (so a
 * change is told exactly when it is committed); the node comes from the
 * session (db_pg.c names it), so that a server can skip its own. */
static const char *const sqlite_v2 =
    "CREATE TABLE IF NOT EXISTS nodes ("
    "  id INTEGER PRIMARY KEY, started_at INTEGER NOT NULL, alive_at INTEGER NOT NULL, pid INTEGER);"
    "CREATE TABLE IF NOT EXISTS bot_claims ("
    "  table_id INTEGER NOT NULL, moves INTEGER NOT NULL, node INTEGER NOT NULL, at INTEGER NOT NULL,"
    "  PRIMARY KEY (table_id, moves));"
    "CREATE TABLE IF NOT EXISTS presence ("
    "  table_id INTEGER NOT NULL, seat INTEGER NOT NULL, node INTEGER NOT NULL,"
    "  PRIMARY KEY (table_id, seat, node));";

static const char *const pg_v2 =
    "ALTER TABLE tables ADD COLUMN IF NOT EXISTS moves INTEGER NOT NULL DEFAULT 0;"
    "ALTER TABLE tables ADD COLUMN IF NOT EXISTS gen INTEGER NOT NULL DEFAULT 0;"
    "UPDATE tables SET moves = (SELECT count(*) FROM actions WHERE actions.table_id = tables.id);"
    "CREATE TABLE nodes ("
    "  id BIGSERIAL PRIMARY KEY, started_at BIGINT NOT NULL, alive_at BIGINT NOT NULL, pid INTEGER);"
    "CREATE TABLE bot_claims ("
    "  table_id BIGINT NOT NULL, moves INTEGER NOT NULL, node BIGINT NOT NULL, at BIGINT NOT NULL,"
    "  PRIMARY KEY (table_id, moves));"
    "CREATE TABLE presence ("
    "  table_id BIGINT NOT NULL, seat INTEGER NOT NULL, node BIGINT NOT NULL,"
    "  PRIMARY KEY (table_id, seat, node));"
    "CREATE FUNCTION pizzabox_told(t BIGINT) RETURNS void LANGUAGE sql AS $$"
    "  SELECT pg_notify('pizzabox', coalesce(nullif(current_setting('pizzabox.node', true), ''), '0') || ':' || t)"
    "$$;"
    "CREATE FUNCTION pizzabox_table_changed() RETURNS trigger LANGUAGE plpgsql AS $$"
    "BEGIN PERFORM pizzabox_told(NEW.id); RETURN NULL; END $$;"
    "CREATE FUNCTION pizzabox_row_changed() RETURNS trigger LANGUAGE plpgsql AS $$"
    "BEGIN"
    "  IF TG_OP = 'DELETE' THEN PERFORM pizzabox_told(OLD.table_id); ELSE PERFORM pizzabox_told(NEW.table_id); END IF;"
    "  RETURN NULL;"
    "END $$;"
    "CREATE TRIGGER told AFTER INSERT OR UPDATE ON tables FOR EACH ROW EXECUTE FUNCTION pizzabox_table_changed();"
    "CREATE TRIGGER told AFTER INSERT OR UPDATE OR DELETE ON seats FOR EACH ROW EXECUTE FUNCTION pizzabox_row_changed();"
    "CREATE TRIGGER told AFTER INSERT OR UPDATE OR DELETE ON actions FOR EACH ROW EXECUTE FUNCTION pizzabox_row_changed();"
    "CREATE TRIGGER told AFTER INSERT OR UPDATE OR DELETE ON events FOR EACH ROW EXECUTE FUNCTION pizzabox_row_changed();"
    "CREATE TRIGGER told AFTER INSERT OR UPDATE OR DELETE ON chat FOR EACH ROW EXECUTE FUNCTION pizzabox_row_changed();"
    "CREATE TRIGGER told AFTER INSERT OR DELETE ON presence FOR EACH ROW EXECUTE FUNCTION pizzabox_row_changed();";

/* Version 3: a table's owner (the address that made it: the quota of
 * unfinished tables per address counts every server's), when moves were
 * last taken back (every server starts the turn again then), and (PostgreSQL)
 * the change told says which of the table's rows changed ("node:table:what",
 * `what` the name of the SQL table), so that a server reads only that. */
static const char *const pg_v3 =
    "ALTER TABLE tables ADD COLUMN IF NOT EXISTS owner TEXT;"
    "ALTER TABLE tables ADD COLUMN IF NOT EXISTS undone_at BIGINT;"
    "CREATE FUNCTION pizzabox_told(t BIGINT, what TEXT) RETURNS void LANGUAGE sql AS $$"
    "  SELECT pg_notify('pizzabox', coalesce(nullif(current_setting('pizzabox.node', true), ''), '0') || ':' || t "
    "    || ':' || what)"
    "$$;"
    "CREATE OR REPLACE FUNCTION pizzabox_table_changed() RETURNS trigger LANGUAGE plpgsql AS $$"
    "BEGIN PERFORM pizzabox_told(NEW.id, TG_TABLE_NAME); RETURN NULL; END $$;"
    "CREATE OR REPLACE FUNCTION pizzabox_row_changed() RETURNS trigger LANGUAGE plpgsql AS $$"
    "BEGIN"
    "  IF TG_OP = 'DELETE' THEN PERFORM pizzabox_told(OLD.table_id, TG_TABLE_NAME);"
    "  ELSE PERFORM pizzabox_told(NEW.table_id, TG_TABLE_NAME); END IF;"
    "  RETURN NULL;"
    "END $$;"
    "DROP FUNCTION pizzabox_told(BIGINT);";

/* Columns added to SQLite databases before the schema had versions: a
 * database made before them gets them (NULL in the rows already there). */
static const char *const added_columns[][3] = {
    /* version 2 (SQLite has no ADD COLUMN IF NOT EXISTS): */
    {"tables", "moves", "INTEGER NOT NULL DEFAULT 0"}, /* where its log ends (kept by PostgreSQL servers) */
    {"tables", "gen", "INTEGER NOT NULL DEFAULT 0"},   /* times moves were taken back */
    {"tables", "clock", "TEXT"},   /* the clock chosen at creation (JSON), or NULL */
    {"tables", "rematch", "TEXT"}, /* the code of the table offered as a rematch */
    {"actions", "at", "INTEGER"},  /* when it was accepted, Unix milliseconds */
    {"actions", "spent", "INTEGER"}, /* the time it took off its mover's clock, ms (restarts rebuild clocks from it) */
    {"tables", "salt", "TEXT"},    /* the secret in the deal's commitment (core/hash.h), revealed at the end */
    {"tables", "started_at", "INTEGER"}, /* when the game began (its players all there), Unix ms */
    /* version 3: */
    {"tables", "owner", "TEXT"}, /* the address that made it (quotas), or NULL */
    {"tables", "undone_at", "INTEGER"}, /* when moves were last taken back (the turn began again then), Unix ms */
};

static int add_columns(pb_store *s)
{
    for (size_t i = 0; i < sizeof added_columns / sizeof added_columns[0]; i++) {
        int64_t have = one_int(s, -1, "SELECT count(*) FROM pragma_table_info(?) WHERE name = ?", "ss",
                               added_columns[i][0], added_columns[i][1]);
        char sql[128];
        snprintf(sql, sizeof sql, "ALTER TABLE %s ADD COLUMN %s %s", added_columns[i][0], added_columns[i][1],
                 added_columns[i][2]);
        if (have < 0 || (have == 0 && script(s, sql) != 0))
            return -1;
    }
    return 0;
}

/* Seat tokens stored as issued (before they were stored hashed) are
 * hashed in place: a token is 32 hex digits, its hash 64. */
static int hash_old_tokens(pb_store *s)
{
    pb_db_rows r;
    if (query(s, &r, "SELECT table_id, seat, token FROM seats WHERE length(token) = 32", "") != 0)
        return -1;
    int rc = 0, row;
    while (rc == 0 && (row = next(&r)) == 1) {
        char hash[PB_SHA256_HEX];
        const char *token = col_text(&r, 2);
        pb_sha256_hex(token, strlen(token), hash);
        rc = run(s, "UPDATE seats SET token = ? WHERE table_id = ? AND seat = ?", "sIi", hash, col_int(&r, 0),
                 (int)col_int(&r, 1));
    }
    done(&r);
    return rc == 0 && row == 0 ? 0 : -1;
}

/* Version 2's and 3's columns in SQLite, when missing. */
static int sqlite_columns(pb_store *s)
{
    return is_pg(s) || add_columns(s) == 0 ? 0 : -1;
}

static int sqlite_before_versions(pb_store *s)
{
    return add_columns(s) == 0 && hash_old_tokens(s) == 0 ? 0 : -1;
}

/* Version 4: New York Pizza Delivery's rules reached edition 2 (a few rules
 * corrected to the printed text). A table stored before keeps the config it
 * was played with, as a record of version 2 would (the game's
 * config_as_played: Delivery's names edition 1), so its moves replay to the
 * same state. Version 5: the same for Pizza Theory's edition 2, Delivery's
 * edition 3 and New York Slice's edition 2, as a record of version 3 would
 * (tables from before name edition 1, Delivery's edition 2). */
#define RECORDS_OF_SCHEMA_3 2
#define RECORDS_OF_SCHEMA_4 3

static int tables_keep_the_rules_of(pb_store *s, int record_version)
{
    pb_db_rows r;
    if (query(s, &r, "SELECT id, game, config FROM tables", "") != 0)
        return -1;
    int rc = 0, row;
    while (rc == 0 && (row = next(&r)) == 1) {
        const pb_game_ops *ops = pb_game_find(col_text(&r, 1));
        if (!ops || !ops->config_as_played)
            continue;
        json_t *config = json_loads(col_text(&r, 2), 0, NULL); /* a damaged one is told when it is loaded */
        json_t *played = json_is_object(config) ? ops->config_as_played(config, record_version) : NULL;
        if (played) {
            char *text = json_dumps(played, JSON_COMPACT | JSON_SORT_KEYS);
            rc = text ? run(s, "UPDATE tables SET config = ? WHERE id = ?", "sI", text, col_int(&r, 0)) : -1;
            free(text);
            json_decref(played);
        }
        json_decref(config);
    }
    done(&r);
    return rc == 0 && row == 0 ? 0 : -1;
}

static int tables_keep_the_rules_they_were_played_by(pb_store *s)
{
    return tables_keep_the_rules_of(s, RECORDS_OF_SCHEMA_3);
}

static int tables_of_schema_4_keep_their_rules(pb_store *s)
{
    return tables_keep_the_rules_of(s, RECORDS_OF_SCHEMA_4);
}

/* The schema's versions, in order: each brings a database from the one
 * before to it. A new version is a new line here, with its text for each
 * database (and `then`, a step in C, when SQL is not enough). */
static const struct migration {
    const char *sqlite, *postgresql;
    int (*then)(pb_store *s); /* NULL, or run after the SQL in the same transaction */
} migrations[] = {
    {sqlite_v1, pg_v1, NULL}, /* 1: tables, seats, actions, events, server, chat */
    {sqlite_v2, pg_v2, sqlite_columns}, /* 2: nodes, claims, presence, the log's end; (PostgreSQL) every change told */
    {"", pg_v3, sqlite_columns},          /* 3: tables' owners; (PostgreSQL) what changed told */
    {"", "", tables_keep_the_rules_they_were_played_by}, /* 4: tables from before keep their rules (Delivery: edition 1) */
    {"", "", tables_of_schema_4_keep_their_rules},        /* 5: the same (Delivery: 2; the others: 1) */
};
#define SCHEMA_VERSION ((int)(sizeof migrations / sizeof migrations[0]))

/* Servers of an earlier version still serving a PostgreSQL database would
 * write without the checks the others count on (version 1 appended moves
 * without looking at the log's end; every version reads the changes told
 * in its own form): a server starts only when none is left. Version 1
 * held advisory lock 2425 while it served; later ones note in `nodes` that
 * they are alive. */
static int refuse_older_servers(pb_store *s, int64_t version, char *err, size_t errlen)
{
    if (one_int(s, -1, "SELECT pg_try_advisory_xact_lock(2425)::int", "") != 1)
        return pb_errorf(err, errlen,
                         "store: a pizzabox server of an earlier version (one server per database) is serving this "
                         "database: stop it, then start this one");
    if (version >= 2 && version < SCHEMA_VERSION &&
        one_int(s, -1, "SELECT count(*) FROM nodes WHERE alive_at >= ?", "I", now_ms() - 10000) != 0)
        return pb_errorf(err, errlen,
                         "store: pizzabox servers of an earlier version (schema version %lld) are serving this "
                         "database (or stopped less than 10 s ago): stop them all, then start this one (it brings the "
                         "schema to version %d)",
                         (long long)version, SCHEMA_VERSION);
    return 0;
}

/* Bring the database to SCHEMA_VERSION in one transaction, which also
 * keeps two servers starting at once from both doing it. */
static int migrate(pb_store *s, char *err, size_t errlen)
{
    if (script(s, is_pg(s) ? "BEGIN; SELECT pg_advisory_xact_lock(2424)" : "BEGIN IMMEDIATE") != 0)
        return db_error(s, "schema", err, errlen);
    int64_t version = -1;
    if (script(s, "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)") == 0)
        version = one_int(s, -1, "SELECT coalesce(max(version), 0) FROM schema_version", "");
    int rc = version < 0 ? db_error(s, "schema", err, errlen) : 0;
    if (rc == 0 && version > SCHEMA_VERSION)
        rc = pb_errorf(err, errlen, "store: the database has schema version %lld, newer than this pizzabox (%d)",
                       (long long)version, SCHEMA_VERSION);
    if (rc == 0 && is_pg(s))
        rc = refuse_older_servers(s, version, err, errlen);
    for (int v = (int)version + 1; rc == 0 && v <= SCHEMA_VERSION; v++) {
        const struct migration *m = &migrations[v - 1];
        const char *sql = is_pg(s) ? m->postgresql : m->sqlite; /* PostgreSQL refuses an empty one */
        if ((sql[0] && script(s, sql) != 0) ||
            (v == 1 && !is_pg(s) && sqlite_before_versions(s) != 0) || (m->then && m->then(s) != 0) ||
            run(s, "INSERT INTO schema_version (version) VALUES (?)", "i", v) != 0)
            rc = db_error(s, "schema", err, errlen);
    }
    if (rc == 0 && script(s, "COMMIT") != 0)
        rc = db_error(s, "schema", err, errlen);
    if (rc != 0)
        script(s, "ROLLBACK");
    return rc;
}

/* ---- Opening ---- */

/* Servers sharing a PostgreSQL database keep time by its clock: each
 * notes when it is alive, and when moves were made, in the database's
 * time, so that machines whose clocks differ agree on who is alive and on
 * what a turn took. */
#define PG_NOW_MS "(extract(epoch FROM clock_timestamp()) * 1000)::bigint"

/* The database's time in column 1 of r's row, read between `before` and
 * now on this machine: how far its clock is from this one's. */
static void note_clock(pb_store *s, const pb_db_rows *r, int64_t before)
{
    if (is_pg(s))
        s->clock_offset = col_int(r, 1) - (before + now_ms()) / 2;
}

int64_t pb_store_now_ms(const pb_store *s)
{
    return now_ms() + s->clock_offset;
}

bool pb_store_shared(const pb_store *s)
{
    return is_pg(s);
}

static pb_db *open_db(const char *db, bool readonly, char *err, size_t errlen)
{
    if (!db || !*db) {
        pb_errorf(err, errlen, "store: no database given");
        return NULL;
    }
    if (pb_db_is_pg_url(db))
        return pb_db_pg_open(db, readonly, err, errlen);
    if (strstr(db, "://")) { /* a URL, but not one we speak: not a file name either */
        pb_errorf(err, errlen, "store: %s: only postgresql:// (or postgres://) URLs are known; a file name for SQLite",
                  db);
        return NULL;
    }
    return pb_db_sqlite_open(db, readonly, err, errlen);
}

pb_store *pb_store_open(const char *path, char *err, size_t errlen)
{
    pb_store *s = calloc(1, sizeof *s);
    if (!s) {
        pb_errorf(err, errlen, "out of memory");
        return NULL;
    }
    if (!(s->db = open_db(path, false, err, errlen)) || migrate(s, err, errlen) != 0) {
        pb_store_close(s);
        return NULL;
    }
    /* This server's node: its row, and its name on every change it makes.
     * With SQLite it is noted alive only by the lobby, in the lobby's time
     * (pb_store_set_alive). Rows of servers long gone go (claims and
     * presence look only at living nodes). */
    pb_db_rows r;
    int64_t before = now_ms();
    if ((is_pg(s) ? query(s, &r,
                          "INSERT INTO nodes (started_at, alive_at, pid) VALUES (" PG_NOW_MS ", " PG_NOW_MS ", ?) "
                          "RETURNING id, alive_at",
                          "i", (int)getpid())
                  : query(s, &r, "INSERT INTO nodes (started_at, alive_at, pid) VALUES (?, 0, ?) RETURNING id, alive_at",
                          "Ii", before, (int)getpid())) == 0 &&
        next(&r) == 1) {
        s->node = col_int(&r, 0);
        note_clock(s, &r, before);
    }
    done(&r);
    if (s->node <= 0) {
        db_error(s, "node", err, errlen);
        pb_store_close(s);
        return NULL;
    }
    if (is_pg(s))
        run(s, "DELETE FROM nodes WHERE alive_at < ? AND id NOT IN (SELECT node FROM presence)", "I",
            pb_store_now_ms(s) - 24 * 3600 * 1000);
    else /* one server at a time: only the one before this one counts (pb_store_alive) */
        run(s, "DELETE FROM nodes WHERE id < ? - 10", "I", s->node);
    if (is_pg(s))
        pb_db_pg_set_node(s->db, s->node);
    return s;
}

int64_t pb_store_node(const pb_store *s)
{
    return s->node;
}

pb_store *pb_store_open_readonly(const char *path, char *err, size_t errlen)
{
    pb_store *s = calloc(1, sizeof *s);
    if (!s) {
        pb_errorf(err, errlen, "out of memory");
        return NULL;
    }
    if (!(s->db = open_db(path, true, err, errlen))) {
        free(s);
        return NULL;
    }
    int64_t tables =
        one_int(s, -1,
                is_pg(s) ? "SELECT count(*) FROM pg_tables WHERE schemaname = current_schema() AND "
                           "tablename IN ('tables', 'seats', 'actions')"
                         : "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
                           "name IN ('tables', 'seats', 'actions')",
                "");
    if (tables != 3) {
        pb_errorf(err, errlen, "%s is not a pizzabox database", is_pg(s) ? "that PostgreSQL database" : path);
        pb_store_close(s);
        return NULL;
    }
    return s;
}

void pb_store_close(pb_store *s)
{
    if (!s)
        return;
    if (s->db)
        s->db->driver->close(s->db);
    free(s);
}

/* ---- Tables, seats, moves ---- */

int64_t pb_store_create_table(pb_store *s, const char *game, const json_t *config, uint64_t seed,
                              const char *code, const char *owner, char *err, size_t errlen)
{
    char *conf = json_dumps(config, JSON_COMPACT | JSON_SORT_KEYS);
    int64_t id = one_int(s, -1,
                         "INSERT INTO tables (game, code, config, seed, owner) VALUES (?, ?, ?, ?, ?) RETURNING id",
                         "sssIs", game, code, conf ? conf : "{}", (int64_t)seed, owner && owner[0] ? owner : NULL);
    free(conf);
    if (id < 0)
        db_error(s, "create table", err, errlen);
    return id;
}

int pb_store_set_seat(pb_store *s, int64_t table, int seat, const char *player, const char *name,
                      const char *token, char *err, size_t errlen)
{
    char hash[PB_SHA256_HEX];
    if (token) /* only its hash is kept: a copy of the database opens no seat */
        pb_sha256_hex(token, strlen(token), hash);
    if (run(s,
            "INSERT INTO seats (table_id, seat, player, name, token) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (table_id, seat) DO UPDATE SET player = excluded.player, name = excluded.name, "
            "token = excluded.token",
            "Iisss", table, seat, player, name ? name : "", token ? hash : NULL) != 0)
        return db_error(s, "seat", err, errlen);
    return 0;
}

/* The outcome of a statement (started into r) that changes its row only
 * if no other server changed it first, and returns it when it did: 0, -1
 * on a database error, or PB_STORE_TAKEN with `taken` as the message. */
static int changed_or_taken(pb_store *s, pb_db_rows *r, const char *what, const char *taken, char *err, size_t errlen)
{
    int row = next(r);
    done(r);
    if (row < 0)
        return db_error(s, what, err, errlen);
    if (row == 0) {
        pb_errorf(err, errlen, "%s", taken);
        return PB_STORE_TAKEN;
    }
    return 0;
}

int pb_store_take_seat(pb_store *s, int64_t table, int seat, const char *player, const char *name, const char *token,
                       char *err, size_t errlen)
{
    char hash[PB_SHA256_HEX];
    if (token)
        pb_sha256_hex(token, strlen(token), hash);
    pb_db_rows r;
    if (query(s, &r,
              "INSERT INTO seats (table_id, seat, player, name, token) VALUES (?, ?, ?, ?, ?) "
              "ON CONFLICT (table_id, seat) DO UPDATE SET player = excluded.player, name = excluded.name, "
              "token = excluded.token WHERE seats.player = 'human' AND seats.name = '' RETURNING seat",
              "Iisss", table, seat, player, name, token ? hash : NULL) != 0)
        return db_error(s, "seat", err, errlen);
    return changed_or_taken(s, &r, "seat", "that seat was taken a moment ago (through another server)", err, errlen);
}

bool pb_store_check_token(pb_store *s, int64_t table, int seat, const char *token)
{
    pb_db_rows r;
    bool ok = false;
    if (!token || query(s, &r, "SELECT token FROM seats WHERE table_id = ? AND seat = ?", "Ii", table, seat) != 0)
        return false;
    if (next(&r) == 1 && !r.db->driver->is_null(&r, 0)) {
        const char *want = col_text(&r, 0);
        char hash[PB_SHA256_HEX];
        pb_sha256_hex(token, strlen(token), hash);
        /* Compare every byte, so the time taken tells nothing. */
        unsigned diff = (unsigned)(strlen(want) ^ (PB_SHA256_HEX - 1));
        for (size_t i = 0; i < PB_SHA256_HEX - 1; i++)
            diff |= (unsigned char)hash[i] ^ (unsigned char)(i < strlen(want) ? want[i] : 0);
        ok = diff == 0;
    }
    done(&r);
    return ok;
}

int pb_store_append_action(pb_store *s, int64_t table, int index, int seat, const char *text, int64_t at,
                           int64_t spent, char *err, size_t errlen)
{
    /* Its own commit: when it returns the row is durable (SQLite: in the
     * write-ahead log, which a killed process cannot lose; PostgreSQL: on
     * its disk). A second action with the same index is refused by the key. */
    if (is_pg(s)) {
        /* Only at the log's end of a table still open, checked on its row
         * under its lock: never after moves another server has just taken
         * back, nor once it closed the table. */
        pb_db_rows r;
        if (query(s, &r,
                  "WITH at_end AS (UPDATE tables SET moves = moves + 1 WHERE id = ? AND moves = ? AND finished = 0 "
                  "RETURNING id) "
                  "INSERT INTO actions (table_id, idx, seat, text, at, spent) "
                  "SELECT id, ?, ?, ?, ?, ? FROM at_end RETURNING idx",
                  "IiiisII", table, index, index, seat, text, at, spent) != 0)
            return db_error(s, "append action", err, errlen);
        return changed_or_taken(s, &r, "append action",
                                "the table moved on before your move (on another server): it was not played", err,
                                errlen);
    }
    if (run(s, "INSERT INTO actions (table_id, idx, seat, text, at, spent) VALUES (?, ?, ?, ?, ?, ?)", "IiisII", table,
            index, seat, text, at, spent) != 0) {
        if (one_int(s, 0, "SELECT count(*) FROM actions WHERE table_id = ? AND idx = ?", "Ii", table, index) == 1) {
            pb_errorf(err, errlen, "another move was made there first: the table has moved on");
            return PB_STORE_TAKEN;
        }
        return db_error(s, "append action", err, errlen);
    }
    return 0;
}

int pb_store_close_table(pb_store *s, int64_t table, char *err, size_t errlen)
{
    if (run(s, "UPDATE tables SET finished = 2 WHERE id = ? AND finished = 0", "I", table) != 0) /* a game ended stays ended */
        return db_error(s, "close", err, errlen);
    return 0;
}

bool pb_store_is_closed(pb_store *s, int64_t table)
{
    return one_int(s, 0, "SELECT finished FROM tables WHERE id = ?", "I", table) == 2;
}

int pb_store_finish(pb_store *s, int64_t table, char *err, size_t errlen)
{
    if (run(s, "UPDATE tables SET finished = 1 WHERE id = ?", "I", table) != 0 ||
        run(s, "DELETE FROM bot_claims WHERE table_id = ?", "I", table) != 0)
        return db_error(s, "finish", err, errlen);
    return 0;
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

static void copy_text(char *out, size_t n, const pb_db_rows *r, int col)
{
    snprintf(out, n, "%s", col_text(r, col));
}

/* The table's row and its actions from number `from` on, in one statement
 * (so that they agree: another server may append or take back moves
 * meanwhile): 0, or -1 with a message. Its moves are counted in the row by
 * PostgreSQL servers, and here with SQLite (one server: nothing changes
 * between two statements). */
static int load_row_and_actions(pb_store *s, int64_t table, int from, pb_stored_table *out, char *err, size_t errlen)
{
    pb_db_rows r;
    if (query(s, &r,
              "SELECT t.game, t.code, t.config, t.seed, t.finished, t.clock, t.rematch, t.salt, "
              "coalesce(t.started_at, 0), t.gen, coalesce(t.owner, ''), t.moves, coalesce(t.undone_at, 0), "
              "a.idx, a.text, coalesce(a.at, 0), coalesce(a.spent, 0) "
              "FROM tables t LEFT JOIN actions a ON a.table_id = t.id AND a.idx >= ? WHERE t.id = ? ORDER BY a.idx",
              "iI", from, table) != 0)
        return db_error(s, "load", err, errlen);
    out->actions = json_array();
    out->action_at = json_array();
    out->action_spent = json_array();
    int row, expect = from, rc = pb_errorf(err, errlen, "store: no table %lld", (long long)table);
    while ((row = next(&r)) == 1) {
        if (expect == from) { /* the table's columns, on every row */
            out->id = table;
            copy_text(out->game, sizeof out->game, &r, 0);
            copy_text(out->code, sizeof out->code, &r, 1);
            out->config = json_loads(col_text(&r, 2), 0, NULL);
            out->seed = (uint64_t)col_int(&r, 3);
            out->finished = col_int(&r, 4) != 0;
            out->closed = col_int(&r, 4) == 2;
            if (!r.db->driver->is_null(&r, 5))
                out->clock = json_loads(col_text(&r, 5), 0, NULL);
            copy_text(out->rematch, sizeof out->rematch, &r, 6);
            copy_text(out->salt, sizeof out->salt, &r, 7);
            out->started_at = col_int(&r, 8);
            out->gen = col_int(&r, 9);
            copy_text(out->owner, sizeof out->owner, &r, 10);
            out->moves = (int)col_int(&r, 11);
            out->undone_at = col_int(&r, 12);
            rc = out->config ? 0 : pb_errorf(err, errlen, "store: table %lld has a damaged config", (long long)table);
        }
        if (rc != 0 || r.db->driver->is_null(&r, 13)) /* no actions from `from` on */
            break;
        if (col_int(&r, 13) != expect)
            rc = pb_errorf(err, errlen, "store: table %lld is missing action %d", (long long)table, expect);
        json_array_append_new(out->actions, json_string(col_text(&r, 14)));
        json_array_append_new(out->action_at, json_integer(col_int(&r, 15)));
        json_array_append_new(out->action_spent, json_integer(col_int(&r, 16)));
        expect++;
    }
    done(&r);
    if (row < 0)
        return db_error(s, "load actions", err, errlen);
    if (rc == 0 && !is_pg(s))
        out->moves = (int)one_int(s, -1, "SELECT count(*) FROM actions WHERE table_id = ?", "I", table);
    return rc == 0 && out->moves < 0 ? db_error(s, "load actions", err, errlen) : rc;
}

int pb_store_load(pb_store *s, int64_t table, pb_stored_table *out, char *err, size_t errlen)
{
    return pb_store_load_from(s, table, 0, PB_LOAD_SEATS | PB_LOAD_EVENTS, out, err, errlen);
}

int pb_store_load_from(pb_store *s, int64_t table, int from, unsigned parts, pb_stored_table *out, char *err,
                       size_t errlen)
{
    memset(out, 0, sizeof *out);
    out->first = from;
    out->events = json_array();
    if (load_row_and_actions(s, table, from, out, err, errlen) != 0) {
        pb_stored_table_free(out);
        return -1;
    }
    pb_db_rows r;
    if ((parts & PB_LOAD_SEATS) &&
        query(s, &r, "SELECT seat, player, name FROM seats WHERE table_id = ? ORDER BY seat", "I", table) != 0) {
        pb_stored_table_free(out);
        return db_error(s, "load seats", err, errlen);
    }
    int row = 0;
    while ((parts & PB_LOAD_SEATS) && (row = next(&r)) == 1) {
        int seat = (int)col_int(&r, 0);
        if (seat >= 0 && seat < 6) {
            copy_text(out->player[seat], sizeof out->player[seat], &r, 1);
            copy_text(out->name[seat], sizeof out->name[seat], &r, 2);
            out->seats = seat + 1 > out->seats ? seat + 1 : out->seats;
        }
    }
    if (parts & PB_LOAD_SEATS)
        done(&r);
    if (row < 0) {
        pb_stored_table_free(out);
        return db_error(s, "load seats", err, errlen);
    }
    if (parts & PB_LOAD_EVENTS) {
        row = -1;
        if (query(s, &r, "SELECT move, seat, kind, text FROM events WHERE table_id = ? ORDER BY rowid", "I", table) == 0) {
            while ((row = next(&r)) == 1)
                json_array_append_new(out->events,
                                      json_pack("{s:I, s:I, s:s, s:s}", "move", (json_int_t)col_int(&r, 0), "seat",
                                                (json_int_t)col_int(&r, 1), "kind", col_text(&r, 2), "text",
                                                col_text(&r, 3)));
            done(&r);
        }
        if (row < 0) {
            db_error(s, "load events", err, errlen);
            pb_stored_table_free(out);
            return -1;
        }
    }
    return 0;
}

int pb_store_list(pb_store *s, pb_store_which which, int64_t *ids, int max)
{
    static const char *const sql[] = {
        [PB_STORE_ALL] = "SELECT id FROM tables ORDER BY id DESC LIMIT ?",
        [PB_STORE_UNFINISHED] = "SELECT id FROM tables WHERE finished = 0 ORDER BY id DESC LIMIT ?",
        [PB_STORE_FINISHED] = "SELECT id FROM tables WHERE finished = 1 ORDER BY id DESC LIMIT ?",
    };
    pb_db_rows r;
    if (query(s, &r, sql[which], "i", max) != 0)
        return -1;
    int n = 0;
    while (n < max && next(&r) == 1)
        ids[n++] = col_int(&r, 0);
    done(&r);
    return n;
}

int pb_store_count(pb_store *s, pb_store_which which)
{
    static const char *const sql[] = {
        [PB_STORE_ALL] = "SELECT count(*) FROM tables",
        [PB_STORE_UNFINISHED] = "SELECT count(*) FROM tables WHERE finished = 0",
        [PB_STORE_FINISHED] = "SELECT count(*) FROM tables WHERE finished = 1",
    };
    return (int)one_int(s, -1, sql[which], "");
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
    pb_db_rows r;
    if (max <= 0)
        return 0;
    /* The move count is the last action's number plus one (actions are
     * numbered from 0 without gaps): one index lookup per table. */
    if (query(s, &r,
              "SELECT id, game, code, config, finished, "
              "(SELECT coalesce(max(idx) + 1, 0) FROM actions WHERE table_id = tables.id) "
              "FROM tables WHERE finished != 2 ORDER BY id DESC LIMIT ?",
              "i", max) != 0)
        return -1;
    int n = 0;
    while (n < max && next(&r) == 1) {
        pb_table_head *h = &out[n++];
        memset(h, 0, sizeof *h);
        h->id = col_int(&r, 0);
        copy_text(h->game, sizeof h->game, &r, 1);
        copy_text(h->code, sizeof h->code, &r, 2);
        json_t *config = json_loads(col_text(&r, 3), 0, NULL);
        h->players = (int)json_integer_value(json_object_get(config, "players"));
        json_decref(config);
        h->finished = col_int(&r, 4) != 0;
        h->moves = (int)col_int(&r, 5);
    }
    done(&r);
    if (n == 0)
        return 0;
    if (query(s, &r, "SELECT table_id, seat, player, name FROM seats WHERE table_id BETWEEN ? AND ?", "II",
              out[n - 1].id, out[0].id) != 0)
        return -1;
    while (next(&r) == 1) {
        pb_table_head *h = head_of(out, n, col_int(&r, 0));
        int seat = (int)col_int(&r, 1);
        if (h && seat >= 0 && seat < 6) {
            copy_text(h->player[seat], sizeof h->player[seat], &r, 2);
            copy_text(h->name[seat], sizeof h->name[seat], &r, 3);
        }
    }
    done(&r);
    return n;
}

int pb_store_set_player(pb_store *s, int64_t table, int seat, const char *player, char *err, size_t errlen)
{
    if (run(s, "UPDATE seats SET player = ? WHERE table_id = ? AND seat = ?", "sIi", player, table, seat) != 0)
        return db_error(s, "seat", err, errlen);
    return 0;
}

int64_t pb_store_find_code(pb_store *s, const char *code)
{
    return one_int(s, -1, "SELECT id FROM tables WHERE code = ?", "s", code);
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
    pb_db_rows r;
    int64_t before = now_ms();
    if ((is_pg(s) ? query(s, &r, "UPDATE nodes SET alive_at = " PG_NOW_MS " WHERE id = ? RETURNING id, alive_at", "I",
                          s->node)
                  : query(s, &r, "UPDATE nodes SET alive_at = ? WHERE id = ? RETURNING id, alive_at", "II", at,
                          s->node)) != 0)
        return -1;
    int row = next(&r);
    if (row == 1)
        note_clock(s, &r, before);
    done(&r);
    return row == 1 ? 0 : -1;
}

int pb_store_claim(pb_store *s, int64_t table, int moves, int64_t dead_before)
{
    if (!is_pg(s))
        return 1; /* one server per SQLite file: every claim is its own */
    pb_db_rows r;
    if (query(s, &r,
              "INSERT INTO bot_claims (table_id, moves, node, at) VALUES (?, ?, ?, ?) "
              "ON CONFLICT (table_id, moves) DO UPDATE SET node = excluded.node, at = excluded.at "
              "WHERE bot_claims.node = excluded.node OR bot_claims.node NOT IN (SELECT id FROM nodes WHERE alive_at >= ?) "
              "RETURNING node",
              "IiIII", table, moves, s->node, pb_store_now_ms(s), dead_before) != 0)
        return -1;
    int row = next(&r);
    done(&r);
    return row < 0 ? -1 : row;
}

void pb_store_set_present(pb_store *s, int64_t table, int seat, bool present)
{
    if (!is_pg(s))
        return;
    if (present)
        run(s, "INSERT INTO presence (table_id, seat, node) VALUES (?, ?, ?) ON CONFLICT DO NOTHING", "IiI", table, seat,
            s->node);
    else
        run(s, "DELETE FROM presence WHERE table_id = ? AND seat = ? AND node = ?", "IiI", table, seat, s->node);
}

unsigned pb_store_present_elsewhere(pb_store *s, int64_t table, int64_t alive_since)
{
    if (!is_pg(s))
        return 0;
    pb_db_rows r;
    if (query(s, &r,
              "SELECT DISTINCT seat FROM presence JOIN nodes ON nodes.id = presence.node "
              "WHERE table_id = ? AND node <> ? AND alive_at >= ?",
              "III", table, s->node, alive_since) != 0)
        return 0;
    unsigned seats = 0;
    while (next(&r) == 1)
        seats |= 1u << (col_int(&r, 0) & 31);
    done(&r);
    return seats;
}

int pb_store_forget_dead(pb_store *s, int64_t dead_before, int64_t *tables, int max)
{
    pb_db_rows r;
    int n = 0;
    if (!is_pg(s) || query(s, &r,
                           "DELETE FROM presence WHERE node IN (SELECT id FROM nodes WHERE alive_at < ?) "
                           "RETURNING table_id",
                           "I", dead_before) != 0)
        return 0;
    while (n < max && next(&r) == 1)
        tables[n++] = col_int(&r, 0);
    done(&r);
    return n;
}

/* ---- Hearing of other servers' changes ---- */

#define HEARD_MAX 256 /* distinct tables told of at one drain before they are passed on */

struct pb_store_listener {
    pb_db *db;
    int64_t self;
    /* The tables told of since the last drain, each once with all that
     * changed (a move tells several rows' changes): taken in once each.
     * Table -1: all of them. */
    struct {
        int64_t table;
        unsigned what;
    } heard[HEARD_MAX];
    int nheard;
    void (*changed)(void *ctx, int64_t table, unsigned what);
    void *ctx;
};

pb_store_listener *pb_store_listen(const pb_store *s, const char *path, char *err, size_t errlen)
{
    if (!is_pg(s))
        return NULL; /* one server per SQLite file: nothing to hear */
    pb_store_listener *l = calloc(1, sizeof *l);
    if (!l || !(l->db = pb_db_pg_listen(path, err, errlen))) {
        if (!l)
            pb_errorf(err, errlen, "out of memory");
        free(l);
        return NULL;
    }
    l->self = s->node;
    return l;
}

int pb_store_listener_fd(const pb_store_listener *l)
{
    return pb_db_pg_socket(l->db);
}

static void pass_on(pb_store_listener *l)
{
    for (int i = 0; i < l->nheard; i++)
        l->changed(l->ctx, l->heard[i].table, l->heard[i].what);
    l->nheard = 0;
}

/* What a change told names (the SQL table whose row changed); all of it
 * when not named. */
static unsigned what_changed(const char *name)
{
    static const struct {
        const char *name;
        unsigned what;
    } names[] = {{"tables", PB_CHANGED_TABLE}, {"actions", PB_CHANGED_MOVES}, {"seats", PB_CHANGED_SEATS},
                 {"events", PB_CHANGED_EVENTS}, {"chat", PB_CHANGED_CHAT}, {"presence", PB_CHANGED_PRESENCE}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i].name) == 0)
            return names[i].what;
    return PB_CHANGED_ALL;
}

/* A change told: "node:table:what", or "*" (anything may have changed). */
static void heard(void *ctx, const char *payload)
{
    pb_store_listener *l = ctx;
    long long table = -1;
    unsigned what = PB_CHANGED_ALL;
    if (strcmp(payload, "*") != 0) {
        char *end;
        long long node = strtoll(payload, &end, 10);
        if (*end != ':' || node == l->self)
            return;
        table = strtoll(end + 1, &end, 10);
        if ((*end != '\0' && *end != ':') || table <= 0)
            return;
        what = *end == ':' ? what_changed(end + 1) : PB_CHANGED_ALL;
    }
    for (int i = 0; i < l->nheard; i++)
        if (l->heard[i].table == table) {
            l->heard[i].what |= what;
            return;
        }
    if (l->nheard == HEARD_MAX)
        pass_on(l);
    l->heard[l->nheard].table = table;
    l->heard[l->nheard++].what = what;
}

int pb_store_listener_drain(pb_store_listener *l, void (*changed)(void *ctx, int64_t table, unsigned what),
                            void *ctx)
{
    l->changed = changed;
    l->ctx = ctx;
    int n = pb_db_pg_changes(l->db, heard, l);
    pass_on(l);
    return n;
}

void pb_store_listener_close(pb_store_listener *l)
{
    if (!l)
        return;
    l->db->driver->close(l->db);
    free(l);
}

int64_t pb_store_alive(pb_store *s)
{
    /* (before version 2, the one server noted it in `server`) */
    return one_int(s, 0,
                   "SELECT coalesce((SELECT max(nullif(alive_at, 0)) FROM nodes WHERE id <> ?), "
                   "(SELECT value FROM server WHERE key = 'alive'), 0)",
                   "I", s->node);
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
    pb_db_rows r;
    if (query(s, &r, "UPDATE tables SET rematch = ? WHERE id = ? AND coalesce(rematch, '') = '' RETURNING id", "sI",
              code, table) != 0)
        return db_error(s, "rematch", err, errlen);
    return changed_or_taken(s, &r, "rematch", "a rematch was offered a moment ago (through another server)", err,
                            errlen);
}

int pb_store_add_event(pb_store *s, int64_t table, int move, int seat, const char *kind, const char *text, char *err,
                       size_t errlen)
{
    if (run(s, "INSERT INTO events (table_id, move, seat, kind, text) VALUES (?, ?, ?, ?, ?)", "Iiiss", table,
            move, seat, kind, text) != 0)
        return db_error(s, "event", err, errlen);
    return 0;
}

int pb_store_take_back(pb_store *s, int64_t table, int moves, int64_t at, char *err, size_t errlen)
{
    if (script(s, "BEGIN") != 0)
        return db_error(s, "take back", err, errlen);
    if (run(s, "UPDATE tables SET moves = ?, gen = gen + 1, undone_at = ? WHERE id = ?", "iII", moves, at, table) != 0 ||
        run(s, "DELETE FROM actions WHERE table_id = ? AND idx >= ?", "Ii", table, moves) != 0 ||
        run(s, "DELETE FROM bot_claims WHERE table_id = ? AND moves >= ?", "Ii", table, moves) != 0 ||
        run(s, "DELETE FROM events WHERE table_id = ? AND (move > ? OR (move = ? AND kind = 'undo'))", "Iii", table,
            moves, moves) != 0 ||
        script(s, "COMMIT") != 0) {
        db_error(s, "take back", err, errlen);
        script(s, "ROLLBACK"); /* never left inside a transaction */
        return -1;
    }
    return 0;
}

int pb_store_add_chat(pb_store *s, int64_t table, const pb_chat_line *line, char *err, size_t errlen)
{
    /* Numbered after the table's last line by the database: another server
     * may have added one a moment ago. Two at the very same moment collide
     * on the key: the later one tries again, after the other. */
    for (int tries = 0; tries < 3; tries++) {
        pb_db_rows r;
        if (query(s, &r,
                  "INSERT INTO chat (table_id, n, move, seat, name, text, at) "
                  "SELECT ?, coalesce(max(n) + 1, 0), ?, ?, ?, ?, ? FROM chat WHERE table_id = ? RETURNING n",
                  "IinssII", table, line->move, line->seat, line->name, line->text, line->at, table) != 0)
            continue;
        int row = next(&r);
        int n = row == 1 ? (int)col_int(&r, 0) : -1;
        done(&r);
        if (n >= 0)
            return n;
    }
    return db_error(s, "chat", err, errlen);
}

json_t *pb_store_chat_range(pb_store *s, int64_t table, int from, int to)
{
    json_t *lines = json_array();
    pb_db_rows r;
    if (query(s, &r, "SELECT n, move, seat, name, text, at FROM chat WHERE table_id = ? AND n >= ? AND n < ? ORDER BY n",
              "Iii", table, from, to) != 0)
        return lines;
    while (next(&r) == 1) {
        bool spectator = r.db->driver->is_null(&r, 2);
        json_array_append_new(lines, json_pack("{s:I, s:I, s:o, s:s, s:b, s:s, s:I}", "n", (json_int_t)col_int(&r, 0),
                                               "move", (json_int_t)col_int(&r, 1), "seat",
                                               spectator ? json_null() : json_integer(col_int(&r, 2)), "name",
                                               col_text(&r, 3), "spectator", spectator, "text", col_text(&r, 4),
                                               "at", (json_int_t)col_int(&r, 5)));
    }
    done(&r);
    return lines;
}

int pb_store_chat_count(pb_store *s, int64_t table)
{
    return (int)one_int(s, 0, "SELECT count(*) FROM chat WHERE table_id = ?", "I", table);
}

json_t *pb_store_chat(pb_store *s, int64_t table, int last, int *count)
{
    *count = pb_store_chat_count(s, table);
    return pb_store_chat_range(s, table, *count - last, *count);
}
