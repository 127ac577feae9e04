/* db_pg.c -- the store's PostgreSQL driver (db.h), through libpq: one
 * connection, each statement its own transaction, committed with
 * synchronous_commit on (on the server's disk before the call returns). */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../core/error.h"
#include "db.h"

#define MAX_PARAMS 16 /* the store's statements take at most 7 */
#define CHANNEL "pizzabox" /* where each change of a table is told (store.c's triggers) */

typedef struct pg_db {
    pb_db base;
    PGconn *conn;
    bool readonly;
    char where[256]; /* the URL without its password, for messages */
    char error[512];
    bool reset_before;
    time_t last_reset; /* when the connection was last opened again (monotonic seconds) */
    int64_t node;      /* this server's node, told with every change it makes (0: none yet) */
    bool listens;      /* a listener's connection (pb_db_pg_listen) */
    bool missed;       /* it was lost: changes may have gone untold */
    bool unset;        /* connected, but its session not set up (configure failed): opened again */
} pg_db;

static pg_db *of(pb_db *db)
{
    return (pg_db *)db;
}

bool pb_db_is_pg_url(const char *db)
{
    return db && (strncmp(db, "postgresql://", 13) == 0 || strncmp(db, "postgres://", 11) == 0);
}

/* The URL as it may be shown: a password in it (user:password@, or
 * ?password=) replaced by ***. */
static void redact(const char *url, char *out, size_t n)
{
    const char *user = strstr(url, "://") + 3;
    const char *at = strchr(user, '@'), *slash = strchr(user, '/');
    const char *colon = memchr(user, ':', at ? (size_t)(at - user) : 0);
    if (at && (!slash || at < slash) && colon)
        snprintf(out, n, "%.*s***%s", (int)(colon + 1 - url), url, at);
    else
        snprintf(out, n, "%s", url);
    char *query = strchr(out, '?'), *p = query;
    while (p && (p = strstr(p, "password=")) != NULL) {
        p += strlen("password=");
        if (p[-10] != '?' && p[-10] != '&')
            continue; /* a word ending in "password=", not the parameter */
        size_t len = strcspn(p, "&");
        if (strlen(out) - len + 3 < n) {
            memmove(p + 3, p + len, strlen(p + len) + 1);
            memcpy(p, "***", 3);
        }
    }
}

/* libpq's message on one line (its own spans several). */
static void keep_error(pg_db *d, const char *message)
{
    if (!message || !*message)
        message = "unknown error";
    size_t n = 0;
    for (const char *c = message; *c && n + 1 < sizeof d->error; c++) {
        bool space = *c == '\n' || *c == '\t' || *c == ' ';
        if (!space)
            d->error[n++] = *c;
        else if (n > 0 && d->error[n - 1] != ' ')
            d->error[n++] = ' ';
    }
    while (n > 0 && d->error[n - 1] == ' ')
        n--;
    d->error[n] = '\0';
}

/* Run one or more statements; 0, or -1 with the error kept. */
static int exec_kept(pg_db *d, const char *sql)
{
    PGresult *r = PQexec(d->conn, sql);
    ExecStatusType status = PQresultStatus(r);
    int rc = status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK ? 0 : -1;
    if (rc != 0)
        keep_error(d, PQresultErrorMessage(r)[0] ? PQresultErrorMessage(r) : PQerrorMessage(d->conn));
    PQclear(r);
    return rc;
}

/* What every session needs: a commit waits for the disk whatever the
 * server's default, and notices (a table already there) stay quiet; a
 * server's session names its node, which the triggers tell with each
 * change (so that it does not hear of its own); a listener listens. */
static int configure(pg_db *d)
{
    if (exec_kept(d, "SET synchronous_commit = on; SET client_min_messages = warning") != 0 ||
        (d->readonly && exec_kept(d, "SET default_transaction_read_only = on") != 0) ||
        (d->listens && exec_kept(d, "LISTEN " CHANNEL) != 0))
        return -1;
    if (d->node > 0) {
        char sql[96];
        snprintf(sql, sizeof sql, "SELECT set_config('pizzabox.node', '%lld', false)", (long long)d->node);
        return exec_kept(d, sql);
    }
    return 0;
}

/* A connection lost (the database restarted) is opened again before the
 * next statement; the statement that met the loss has failed. While the
 * database stays away, statements fail at once between attempts a second
 * apart: the server's one thread does not wait on each of them. */
static int ensure_connected(pg_db *d)
{
    if (PQstatus(d->conn) == CONNECTION_OK && !d->unset)
        return 0;
    d->missed = true;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (d->reset_before && now.tv_sec - d->last_reset < 1) {
        snprintf(d->error, sizeof d->error, "the connection to PostgreSQL was lost; trying again");
        return -1;
    }
    d->reset_before = true;
    d->last_reset = now.tv_sec;
    PQreset(d->conn);
    if (PQstatus(d->conn) != CONNECTION_OK) {
        keep_error(d, PQerrorMessage(d->conn));
        return -1;
    }
    d->unset = configure(d) != 0; /* a listener that does not listen is no listener */
    return d->unset ? -1 : 0;
}

/* sql with its `?` numbered as PostgreSQL wants them ($1, $2...); the
 * store's texts have no `?` inside quotes. */
static char *numbered(const char *sql)
{
    size_t marks = 0;
    for (const char *c = sql; *c; c++)
        marks += *c == '?';
    char *out = malloc(strlen(sql) + marks * 3 + 1), *o = out;
    if (!out)
        return NULL;
    int n = 0;
    for (const char *c = sql; *c; c++)
        if (*c == '?')
            o += sprintf(o, "$%d", ++n);
        else
            *o++ = *c;
    *o = '\0';
    return out;
}

static int pg_query(pb_db *db, const char *sql, int n, const pb_db_value *params, pb_db_rows *out)
{
    pg_db *d = of(db);
    *out = (pb_db_rows){.db = db, .row = -1};
    if (n > MAX_PARAMS) {
        keep_error(d, "too many parameters");
        return -1;
    }
    if (ensure_connected(d) != 0)
        return -1;
    char ints[MAX_PARAMS][24];
    const char *values[MAX_PARAMS];
    for (int i = 0; i < n; i++) {
        values[i] = params[i].kind == PB_DB_TEXT ? params[i].s : NULL;
        if (params[i].kind == PB_DB_INT) {
            snprintf(ints[i], sizeof ints[i], "%lld", (long long)params[i].i);
            values[i] = ints[i];
        }
    }
    char *text = numbered(sql);
    if (!text) {
        keep_error(d, "out of memory");
        return -1;
    }
    PGresult *r = PQexecParams(d->conn, text, n, NULL, values, NULL, NULL, 0);
    free(text);
    ExecStatusType status = PQresultStatus(r);
    if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK) {
        keep_error(d, PQresultErrorMessage(r)[0] ? PQresultErrorMessage(r) : PQerrorMessage(d->conn));
        PQclear(r);
        return -1;
    }
    out->handle = r;
    return 0;
}

static int pg_next(pb_db_rows *r)
{
    if (r->failed || !r->handle)
        return r->failed ? -1 : 0;
    return ++r->row < PQntuples(r->handle) ? 1 : 0;
}

static bool pg_is_null(const pb_db_rows *r, int col)
{
    return PQgetisnull(r->handle, r->row, col);
}

static int64_t pg_integer(const pb_db_rows *r, int col)
{
    return strtoll(PQgetvalue(r->handle, r->row, col), NULL, 10);
}

static const char *pg_text(const pb_db_rows *r, int col)
{
    return PQgetvalue(r->handle, r->row, col); /* "" for NULL */
}

static void pg_done(pb_db_rows *r)
{
    PQclear(r->handle);
    r->handle = NULL;
}

static int pg_script(pb_db *db, const char *sql)
{
    pg_db *d = of(db);
    if (ensure_connected(d) != 0)
        return -1;
    return exec_kept(d, sql);
}

static const char *pg_error(pb_db *db)
{
    return of(db)->error;
}

static void pg_close(pb_db *db)
{
    PQfinish(of(db)->conn);
    free(db);
}

static const pb_db_driver pg_driver = {
    .dialect = "postgresql",
    .query = pg_query,
    .next = pg_next,
    .is_null = pg_is_null,
    .integer = pg_integer,
    .text = pg_text,
    .done = pg_done,
    .script = pg_script,
    .error = pg_error,
    .close = pg_close,
};

void pb_db_pg_set_node(pb_db *db, int64_t node)
{
    of(db)->node = node;
    configure(of(db));
}

int pb_db_pg_socket(pb_db *db)
{
    return PQsocket(of(db)->conn);
}

int pb_db_pg_changes(pb_db *db, void (*each)(void *ctx, const char *payload), void *ctx)
{
    pg_db *d = of(db);
    if (ensure_connected(d) != 0) /* opened again (and listening) at most once a second */
        return -1;
    if (!PQconsumeInput(d->conn)) { /* lost: opened again at the next call */
        keep_error(d, PQerrorMessage(d->conn));
        d->missed = true;
        return -1;
    }
    int n = 0;
    PGnotify *note;
    while ((note = PQnotifies(d->conn)) != NULL) {
        each(ctx, note->extra);
        PQfreemem(note);
        n++;
    }
    if (d->missed) { /* lost for a while: anything may have changed */
        d->missed = false;
        each(ctx, "*");
        n++;
    }
    return n;
}

static pb_db *pg_open(const char *url, bool readonly, bool listens, char *err, size_t errlen);

pb_db *pb_db_pg_listen(const char *url, char *err, size_t errlen)
{
    return pg_open(url, false, true, err, errlen);
}

pb_db *pb_db_pg_open(const char *url, bool readonly, char *err, size_t errlen)
{
    return pg_open(url, readonly, false, err, errlen);
}

static pb_db *pg_open(const char *url, bool readonly, bool listens, char *err, size_t errlen)
{
    pg_db *d = calloc(1, sizeof *d);
    if (!d) {
        pb_errorf(err, errlen, "out of memory");
        return NULL;
    }
    d->base.driver = &pg_driver;
    d->readonly = readonly;
    d->listens = listens;
    redact(url, d->where, sizeof d->where);
    /* The URL comes last: what it sets wins over these defaults. An
     * unreachable host fails in 10 s instead of waiting for ever. */
    /* Keepalives: a connection a firewall dropped in silence is found out
     * (a listener would otherwise stop hearing the others for good). */
    const char *const keys[] = {"connect_timeout", "application_name", "keepalives", "keepalives_idle",
                                "keepalives_interval", "keepalives_count", "dbname", NULL};
    const char *const values[] = {"10", listens ? "pizzabox listener" : "pizzabox", "1", "30", "10", "3", url, NULL};
    d->conn = PQconnectdbParams(keys, values, 1);
    if (!d->conn) {
        pb_errorf(err, errlen, "out of memory");
        free(d);
        return NULL;
    }
    bool connected = PQstatus(d->conn) == CONNECTION_OK;
    if (!connected)
        keep_error(d, PQerrorMessage(d->conn));
    if (!connected || configure(d) != 0) {
        pb_errorf(err, errlen, "store: %s PostgreSQL at %s: %s", connected ? "cannot use" : "cannot connect to",
                  d->where, d->error);
        pg_close(&d->base);
        return NULL;
    }
    return &d->base;
}
