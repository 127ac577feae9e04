/* db_sqlite.c -- the store's SQLite driver (db.h): a file, its write-ahead
 * log, each statement its own commit. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../core/error.h"
#include "db.h"

#define CHECKPOINT_FRAMES 1000 /* pages in the write-ahead log before it is copied back */
#define CACHED 48              /* prepared statements kept (the store has fewer texts) */

typedef struct sqlite_db {
    pb_db base;
    sqlite3 *db;
    /* Statements prepared once, found by the address of their text (the
     * store's texts are constants): a move's insert is not parsed again. */
    struct {
        const char *sql;
        sqlite3_stmt *st;
        bool busy;
    } cache[CACHED];
    /* The write-ahead log is copied into the database file (a checkpoint,
     * which waits for the disk) by a thread of its own on a connection of
     * its own, so a commit never waits for it: the server's one thread
     * would stall every table for as long. */
    sqlite3 *ckpt_db;
    pthread_t ckpt;
    bool ckpt_running, ckpt_due, ckpt_stop;
    pthread_mutex_t lock;
    pthread_cond_t wake;
} sqlite_db;

static sqlite_db *of(pb_db *db)
{
    return (sqlite_db *)db;
}

/* The statement for sql: the cached one when free, else a new one (kept
 * in the cache when there is room, owned by the rows when not). */
static sqlite3_stmt *statement(sqlite_db *d, const char *sql, pb_db_rows *out)
{
    int slot = 0;
    while (slot < CACHED && d->cache[slot].sql && d->cache[slot].sql != sql)
        slot++;
    if (slot < CACHED && d->cache[slot].sql && !d->cache[slot].busy) {
        d->cache[slot].busy = true;
        return out->handle = d->cache[slot].st;
    }
    bool keep = slot < CACHED && !d->cache[slot].sql;
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v3(d->db, sql, -1, keep ? SQLITE_PREPARE_PERSISTENT : 0, &st, NULL) != SQLITE_OK)
        return NULL;
    if (keep) {
        d->cache[slot].sql = sql;
        d->cache[slot].st = st;
        d->cache[slot].busy = true;
    }
    out->owned = !keep;
    return out->handle = st;
}

static int sq_query(pb_db *db, const char *sql, int n, const pb_db_value *params, pb_db_rows *out)
{
    sqlite_db *d = of(db);
    *out = (pb_db_rows){.db = db};
    sqlite3_stmt *st = statement(d, sql, out);
    if (!st)
        return -1;
    for (int i = 0; i < n; i++) {
        if (params[i].kind == PB_DB_INT)
            sqlite3_bind_int64(st, i + 1, params[i].i);
        else if (params[i].kind == PB_DB_TEXT)
            sqlite3_bind_text(st, i + 1, params[i].s, -1, SQLITE_TRANSIENT);
        else
            sqlite3_bind_null(st, i + 1);
    }
    return 0;
}

static int sq_next(pb_db_rows *r)
{
    if (r->failed)
        return -1;
    int rc = sqlite3_step(r->handle);
    if (rc == SQLITE_ROW)
        return 1;
    if (rc == SQLITE_DONE)
        return 0;
    r->failed = true;
    return -1;
}

static bool sq_is_null(const pb_db_rows *r, int col)
{
    return sqlite3_column_type(r->handle, col) == SQLITE_NULL;
}

static int64_t sq_integer(const pb_db_rows *r, int col)
{
    return sqlite3_column_int64(r->handle, col);
}

static const char *sq_text(const pb_db_rows *r, int col)
{
    const unsigned char *v = sqlite3_column_text(r->handle, col);
    return v ? (const char *)v : "";
}

static void sq_done(pb_db_rows *r)
{
    if (!r->handle)
        return;
    if (r->owned) {
        sqlite3_finalize(r->handle);
    } else {
        sqlite_db *d = of(r->db);
        sqlite3_reset(r->handle);
        sqlite3_clear_bindings(r->handle);
        for (int i = 0; i < CACHED; i++)
            if (d->cache[i].st == r->handle)
                d->cache[i].busy = false;
    }
    r->handle = NULL;
}

static int sq_script(pb_db *db, const char *sql)
{
    return sqlite3_exec(of(db)->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

static const char *sq_error(pb_db *db)
{
    return sqlite3_errmsg(of(db)->db);
}

static void sq_close(pb_db *db)
{
    sqlite_db *d = of(db);
    if (d->ckpt_running) {
        pthread_mutex_lock(&d->lock);
        d->ckpt_stop = true;
        pthread_cond_signal(&d->wake);
        pthread_mutex_unlock(&d->lock);
        pthread_join(d->ckpt, NULL);
    }
    sqlite3_close(d->ckpt_db);
    for (int i = 0; i < CACHED; i++)
        sqlite3_finalize(d->cache[i].st);
    sqlite3_close(d->db); /* the last connection: the log is copied back and removed */
    pthread_mutex_destroy(&d->lock);
    pthread_cond_destroy(&d->wake);
    free(d);
}

static const pb_db_driver sqlite_driver = {
    .dialect = "sqlite",
    .query = sq_query,
    .next = sq_next,
    .is_null = sq_is_null,
    .integer = sq_integer,
    .text = sq_text,
    .done = sq_done,
    .script = sq_script,
    .error = sq_error,
    .close = sq_close,
};

/* Called on the committing thread after each commit: wakes the
 * checkpointer once the log is long. (Setting it turns off SQLite's own
 * checkpoints on commit.) */
static int on_commit(void *arg, sqlite3 *db, const char *name, int frames)
{
    (void)db;
    (void)name;
    sqlite_db *d = arg;
    if (frames >= CHECKPOINT_FRAMES) {
        pthread_mutex_lock(&d->lock);
        d->ckpt_due = true;
        pthread_cond_signal(&d->wake);
        pthread_mutex_unlock(&d->lock);
    }
    return SQLITE_OK;
}

static void *checkpointer(void *arg)
{
    sqlite_db *d = arg;
    pthread_mutex_lock(&d->lock);
    for (;;) {
        while (!d->ckpt_due && !d->ckpt_stop)
            pthread_cond_wait(&d->wake, &d->lock);
        if (d->ckpt_stop)
            break;
        d->ckpt_due = false;
        pthread_mutex_unlock(&d->lock);
        /* Passive: copies what it can without taking a lock from the
         * writer; the next commit starts the log over when all of it was
         * copied. */
        sqlite3_wal_checkpoint_v2(d->ckpt_db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
        pthread_mutex_lock(&d->lock);
    }
    pthread_mutex_unlock(&d->lock);
    return NULL;
}

static int start_checkpointer(sqlite_db *d, const char *path)
{
    if (sqlite3_open_v2(path, &d->ckpt_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX, NULL) != SQLITE_OK ||
        sqlite3_busy_timeout(d->ckpt_db, 5000) != SQLITE_OK ||
        sqlite3_exec(d->ckpt_db, "PRAGMA synchronous=NORMAL", NULL, NULL, NULL) != SQLITE_OK ||
        pthread_create(&d->ckpt, NULL, checkpointer, d) != 0)
        return -1;
    d->ckpt_running = true;
    sqlite3_wal_hook(d->db, on_commit, d);
    return 0;
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

static const char *const settings =
    "PRAGMA journal_mode=WAL;"
    "PRAGMA synchronous=NORMAL;" /* with WAL: a commit survives a killed process */
    "PRAGMA foreign_keys=ON;"
    /* A small page cache: the pages used over and over are few (the end of
     * the actions, the codes); the rest is in the system's file cache. It
     * bounds the memory the cache takes as the database grows. */
    "PRAGMA cache_size=-512;";

/* Read-write when the file allows it (though nothing is written:
 * query_only), so that closing the last connection tidies the write-ahead
 * log away as the server does; read-only otherwise. */
static int open_readonly(sqlite_db *d, const char *path, char *err, size_t errlen)
{
    struct stat sb;
    if (stat(path, &sb) != 0)
        return pb_errorf(err, errlen, "cannot open %s: %s", path, strerror(errno));
    int rc = sqlite3_open_v2(path, &d->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX, NULL);
    if (rc != SQLITE_OK) {
        sqlite3_close(d->db);
        d->db = NULL;
        rc = sqlite3_open_v2(path, &d->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_FULLMUTEX, NULL);
    }
    if (rc != SQLITE_OK || sqlite3_busy_timeout(d->db, 5000) != SQLITE_OK ||
        sqlite3_exec(d->db, "PRAGMA query_only=1", NULL, NULL, NULL) != SQLITE_OK)
        return pb_errorf(err, errlen, "%s is not a pizzabox database", path);
    return 0;
}

pb_db *pb_db_sqlite_open(const char *path, bool readonly, char *err, size_t errlen)
{
    sqlite_db *d = calloc(1, sizeof *d);
    if (!d) {
        pb_errorf(err, errlen, "out of memory");
        return NULL;
    }
    d->base.driver = &sqlite_driver;
    pthread_mutex_init(&d->lock, NULL);
    pthread_cond_init(&d->wake, NULL);
    if (readonly) {
        if (open_readonly(d, path, err, errlen) != 0) {
            sq_close(&d->base);
            return NULL;
        }
        return &d->base;
    }
    owner_only(path);
    if (sqlite3_open_v2(path, &d->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, NULL) !=
            SQLITE_OK ||
        sqlite3_busy_timeout(d->db, 5000) != SQLITE_OK ||
        sqlite3_exec(d->db, settings, NULL, NULL, NULL) != SQLITE_OK || start_checkpointer(d, path) != 0) {
        pb_errorf(err, errlen, "store: cannot open %s: %s", path, d->db ? sqlite3_errmsg(d->db) : "out of memory");
        sq_close(&d->base);
        return NULL;
    }
    return &d->base;
}
