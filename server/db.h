/* db.h -- the few things the store (store.c) asks of a database, so that
 * its queries are written once for SQLite (db_sqlite.c) and PostgreSQL
 * (db_pg.c). Internal to the server's store.
 *
 * The SQL is the common part of both dialects: `?` for a parameter (the
 * PostgreSQL driver numbers them), coalesce, INSERT ... ON CONFLICT,
 * RETURNING. Every statement outside an explicit BEGIN commits on its own
 * before the call returns. One thread uses a connection at a time. */
#ifndef PB_DB_H
#define PB_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct pb_db pb_db;

/* A parameter: NULL, an integer or a text. */
typedef struct pb_db_value {
    enum { PB_DB_NULL, PB_DB_INT, PB_DB_TEXT } kind;
    int64_t i;
    const char *s;
} pb_db_value;

/* A statement's rows, on the caller's stack: pb_db_next until it returns
 * 0 (no more) or -1 (an error), then pb_db_done. */
typedef struct pb_db_rows {
    pb_db *db;
    void *handle; /* the driver's: a prepared statement, or a result */
    int row;      /* the current row (the PostgreSQL driver) */
    bool failed;
    bool owned;   /* a statement of its own, not the cached one (SQLite) */
} pb_db_rows;

typedef struct pb_db_driver {
    const char *dialect; /* "sqlite" or "postgresql": picks the schema's text */
    /* Run sql with its parameters; -1 (see error) when it cannot start. */
    int (*query)(pb_db *db, const char *sql, int n, const pb_db_value *params, pb_db_rows *out);
    int (*next)(pb_db_rows *r); /* 1: a row, 0: the end, -1: an error */
    bool (*is_null)(const pb_db_rows *r, int col);
    int64_t (*integer)(const pb_db_rows *r, int col);
    const char *(*text)(const pb_db_rows *r, int col); /* "" for NULL */
    void (*done)(pb_db_rows *r);
    /* Run statements without parameters (a migration); 0, or -1. */
    int (*script)(pb_db *db, const char *sql);
    const char *(*error)(pb_db *db); /* the last error, for people */
    void (*close)(pb_db *db);
} pb_db_driver;

/* Every connection starts with its driver. */
struct pb_db {
    const pb_db_driver *driver;
};

/* Open a database; NULL with a message. `readonly`: nothing is created
 * or changed. */
pb_db *pb_db_sqlite_open(const char *path, bool readonly, char *err, size_t errlen);
pb_db *pb_db_pg_open(const char *url, bool readonly, char *err, size_t errlen);
/* Several servers on one PostgreSQL database (docs/scaling.md). The
 * store's connection names its server's node, so that the triggers tell
 * each change of a table with it. A listener is a connection of its own
 * that hears the changes: its socket is watched by the server's loop, and
 * pb_db_pg_changes calls `each` with every change told since ("node:table",
 * or "*" when the connection was lost for a while and changes may have
 * gone untold); -1 when the connection is lost (it is opened again). */
void pb_db_pg_set_node(pb_db *db, int64_t node);
pb_db *pb_db_pg_listen(const char *url, char *err, size_t errlen);
int pb_db_pg_socket(pb_db *db);
int pb_db_pg_changes(pb_db *db, void (*each)(void *ctx, const char *payload), void *ctx);
/* Is this --db value a PostgreSQL URL (postgresql:// or postgres://)? */
bool pb_db_is_pg_url(const char *db);

#endif
