/* test_store.c -- the server's storage: tables, seats and actions survive a
 * restart and a crash, and what was acknowledged is never lost. */
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../core/record.h"
#include "../../server/store.h"
#include "support.h"

static char dir[64];

static int make_dir(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/pizzabox-store-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void db_path(char *out, size_t n, const char *name)
{
    snprintf(out, n, "%s/%s.db", dir, name);
}

/* A server taking in another's moves reads only those after the ones it
 * has, with the table's row; past the end it gets none; a gap in the log
 * is an error, not a shorter game; a take-back is seen with its time. */
static void test_moves_read_from_a_number(void **state)
{
    (void)state;
    char path[128], err[PB_ERR_LEN];
    db_path(path, sizeof path, "from");
    pb_store *s = pb_store_open(path, err, sizeof err);
    assert_non_null(s);
    json_t *config = json_pack("{s:i}", "players", 2);
    int64_t id = pb_store_create_table(s, "nyslice", config, 9, "FROM", "198.51.100.3", err, sizeof err);
    assert_true(id > 0);
    pb_stored_table t;
    assert_int_equal(pb_store_load_from(s, id, 0, 0, &t, err, sizeof err), 0); /* no moves yet */
    assert_int_equal(t.moves, 0);
    assert_int_equal(json_array_size(t.actions), 0);
    assert_string_equal(t.owner, "198.51.100.3");
    pb_stored_table_free(&t);
    static const char *const moves[] = {"cut 1 4 8 special 2", "take 2", "take 1"};
    for (int i = 0; i < 3; i++)
        assert_int_equal(pb_store_append_action(s, id, i, i % 2, moves[i], 1000 * (i + 1), 7, err, sizeof err), 0);
    assert_int_equal(pb_store_load_from(s, id, 1, 0, &t, err, sizeof err), 0);
    assert_int_equal(t.moves, 3);
    assert_int_equal(t.first, 1);
    assert_int_equal(json_array_size(t.actions), 2);
    assert_string_equal(json_string_value(json_array_get(t.actions, 0)), "take 2");
    assert_int_equal(json_integer_value(json_array_get(t.action_at, 1)), 3000);
    assert_int_equal(json_integer_value(json_array_get(t.action_spent, 1)), 7);
    assert_string_equal(t.code, "FROM");
    assert_int_equal(t.seats, 0); /* seats not asked for */
    pb_stored_table_free(&t);
    assert_int_equal(pb_store_load_from(s, id, 5, 0, &t, err, sizeof err), 0); /* past the end */
    assert_int_equal(t.moves, 3);
    assert_int_equal(json_array_size(t.actions), 0);
    pb_stored_table_free(&t);
    assert_int_equal(pb_store_take_back(s, id, 2, 4242, err, sizeof err), 0);
    assert_int_equal(pb_store_load_from(s, id, 0, 0, &t, err, sizeof err), 0);
    assert_int_equal(t.moves, 2);
    assert_int_equal(t.undone_at, 4242);
    assert_int_equal(t.gen, 1);
    pb_stored_table_free(&t);
    pb_store_close(s);
    /* A gap, as a damaged file would have it. */
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "DELETE FROM actions WHERE idx = 0", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    s = pb_store_open(path, err, sizeof err);
    assert_non_null(s);
    assert_int_equal(pb_store_load_from(s, id, 0, 0, &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "missing action 0"));
    assert_int_equal(pb_store_load_from(s, id + 1, 0, 0, &t, err, sizeof err), -1);
    assert_non_null(strstr(err, "no table"));
    json_decref(config);
    pb_store_close(s);
}

/* A table written, closed, reopened: everything is there, in order. */
static void test_table_survives_a_restart(void **state)
{
    (void)state;
    char path[128], err[PB_ERR_LEN];
    db_path(path, sizeof path, "restart");
    pb_store *s = pb_store_open(path, err, sizeof err);
    assert_non_null(s);
    json_t *config = json_pack("{s:i}", "players", 3);
    int64_t id = pb_store_create_table(s, "nyslice", config, 42, "ABCD", NULL, err, sizeof err);
    assert_true(id > 0);
    assert_int_equal(pb_store_set_seat(s, id, 0, "human", "Ann", "t0k3n", err, sizeof err), 0);
    assert_int_equal(pb_store_set_seat(s, id, 1, "greedy", "Greedy 2", NULL, err, sizeof err), 0);
    assert_int_equal(pb_store_append_action(s, id, 0, 0, "cut 1 4 8 special 2", 1000, 0, err, sizeof err), 0);
    assert_int_equal(pb_store_append_action(s, id, 1, 1, "take 2", 2000, 0, err, sizeof err), 0);
    /* The same action number twice is refused: it would fork the game. */
    assert_int_equal(pb_store_append_action(s, id, 1, 1, "take 5", 3000, 0, err, sizeof err), PB_STORE_TAKEN);
    assert_non_null(strstr(err, "another move was made there first"));
    pb_store_close(s);

    s = pb_store_open(path, err, sizeof err);
    assert_non_null(s);
    pb_stored_table t;
    assert_int_equal(pb_store_load(s, id, &t, err, sizeof err), 0);
    assert_string_equal(t.game, "nyslice");
    assert_string_equal(t.code, "ABCD");
    assert_int_equal(t.seed, 42);
    assert_true(json_equal(t.config, config));
    assert_string_equal(t.player[0], "human");
    assert_string_equal(t.name[0], "Ann");
    assert_string_equal(t.player[1], "greedy");
    assert_int_equal(json_array_size(t.actions), 2);
    assert_string_equal(json_string_value(json_array_get(t.actions, 1)), "take 2");
    assert_true(pb_store_check_token(s, id, 0, "t0k3n"));
    assert_false(pb_store_check_token(s, id, 0, "t0k3m"));
    assert_false(pb_store_check_token(s, id, 0, "t0k3n0"));
    assert_false(pb_store_check_token(s, id, 1, ""));
    assert_int_equal(pb_store_find_code(s, "ABCD"), id);
    assert_int_equal(pb_store_find_code(s, "ZZZZ"), -1);
    pb_stored_table_free(&t);
    json_decref(config);
    pb_store_close(s);
}

static void test_unfinished_tables_listed_for_recovery(void **state)
{
    (void)state;
    char path[128], err[PB_ERR_LEN];
    db_path(path, sizeof path, "list");
    pb_store *s = pb_store_open(path, err, sizeof err);
    json_t *config = json_object();
    int64_t a = pb_store_create_table(s, "nyslice", config, 1, "AAAA", NULL, err, sizeof err);
    int64_t b = pb_store_create_table(s, "nyslice", config, 2, "BBBB", NULL, err, sizeof err);
    assert_int_equal(pb_store_create_table(s, "nyslice", config, 3, "AAAA", NULL, err, sizeof err), -1);
    assert_int_equal(pb_store_finish(s, a, err, sizeof err), 0);
    int64_t ids[8];
    assert_int_equal(pb_store_list(s, PB_STORE_UNFINISHED, ids, 8), 1);
    assert_int_equal(ids[0], b);
    assert_int_equal(pb_store_list(s, PB_STORE_FINISHED, ids, 8), 1);
    assert_int_equal(ids[0], a);
    assert_int_equal(pb_store_list(s, PB_STORE_ALL, ids, 8), 2);
    json_decref(config);
    pb_store_close(s);
}

/* A child stores a real game's actions, telling the parent after each one
 * is committed, and is killed with SIGKILL part-way. Every acknowledged
 * action is in the database, and they replay. */
static void test_acknowledged_actions_survive_kill_9(void **state)
{
    (void)state;
    char path[128], err[PB_ERR_LEN];
    db_path(path, sizeof path, "crash");
    pb_store *s = pb_store_open(path, err, sizeof err);
    json_t *config = json_pack("{s:i}", "players", 4);
    int64_t id = pb_store_create_table(s, "nyslice", config, 77, "KILL", NULL, err, sizeof err);
    pb_store_close(s);
    int pipefd[2];
    assert_int_equal(pipe(pipefd), 0);
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0) {
        close(pipefd[0]);
        pb_store *cs = pb_store_open(path, err, sizeof err);
        pb_game *g = pb_game_new("nyslice", config, err, sizeof err);
        pb_state *st = pb_state_new(g, 77);
        pb_rng rng;
        pb_rng_seed(&rng, 5);
        for (int i = 0; cs && !pb_is_terminal(g, st); i++) {
            pb_action a = g->ops->random_action(g, st, &rng);
            char text[256];
            g->ops->action_to_text(g, st, a, text, sizeof text);
            if (pb_store_append_action(cs, id, i, pb_current_seat(g, st), text, 0, 0, err, sizeof err) != 0)
                _exit(3);
            g->ops->apply(g, st, a, NULL, 0);
            if (write(pipefd[1], &i, sizeof i) != (ssize_t)sizeof i) /* the acknowledgement */
                _exit(4);
            if (i == 20)
                raise(SIGKILL);
        }
        _exit(0);
    }
    close(pipefd[1]);
    int acked = -1, i;
    while (read(pipefd[0], &i, sizeof i) == (ssize_t)sizeof i)
        acked = i;
    close(pipefd[0]);
    int status;
    waitpid(child, &status, 0);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    assert_int_equal(acked, 20);

    s = pb_store_open(path, err, sizeof err);
    pb_stored_table t;
    assert_int_equal(pb_store_load(s, id, &t, err, sizeof err), 0);
    assert_true((int)json_array_size(t.actions) >= acked + 1);
    /* The stored actions replay from the seed. */
    json_t *rec = json_pack("{s:s, s:O, s:I, s:O}", "game", t.game, "config", t.config, "seed",
                            (json_int_t)t.seed, "actions", t.actions);
    char *text = json_dumps(rec, 0);
    pb_replay r;
    assert_int_equal(pb_replay_text(text, &r, err, sizeof err), 0);
    assert_int_equal(r.actions, (int)json_array_size(t.actions));
    pb_replay_free(&r);
    free(text);
    json_decref(rec);
    pb_stored_table_free(&t);
    json_decref(config);
    pb_store_close(s);
}

static void test_unusable_path_is_refused(void **state)
{
    (void)state;
    char err[PB_ERR_LEN] = "";
    assert_null(pb_store_open("/nonexistent-dir/x/y.db", err, sizeof err));
    assert_non_null(strstr(err, "cannot open"));
}

/* --db takes a file or a PostgreSQL URL; a URL that cannot be used is
 * refused with what is wrong, and never shows the password in it. */
static void test_bad_database_urls_are_refused(void **state)
{
    (void)state;
    char err[PB_ERR_LEN] = "";
    /* Nothing listens on port 1: refused at once. */
    assert_null(pb_store_open("postgresql://ann:s3cret@127.0.0.1:1/pizzabox", err, sizeof err));
    assert_non_null(strstr(err, "cannot connect to PostgreSQL at postgresql://ann:***@127.0.0.1:1/pizzabox"));
    assert_non_null(strstr(err, "Connection refused"));
    assert_null(strstr(err, "s3cret"));
    assert_null(pb_store_open_readonly("postgres://127.0.0.1:1/pizzabox", err, sizeof err));
    assert_non_null(strstr(err, "cannot connect to PostgreSQL"));
    assert_null(pb_store_open("postgresql://127.0.0.1:1/x?user=ann&password=s3cret&sslmode=disable", err, sizeof err));
    assert_non_null(strstr(err, "?user=ann&password=***&sslmode=disable"));
    assert_null(strstr(err, "s3cret"));
    assert_null(pb_store_open("postgresql://host:notaport/x", err, sizeof err));
    assert_non_null(strstr(err, "notaport"));
    assert_null(pb_store_open("mysql://host/x", err, sizeof err));
    assert_non_null(strstr(err, "only postgresql://"));
    assert_null(pb_store_open("", err, sizeof err));
    assert_non_null(strstr(err, "no database"));
}

/* The number of rows in schema_version and the highest version there. */
static void schema_versions(const char *path, int *rows, int *highest)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT count(*), max(version) FROM schema_version", -1, &st, NULL),
                     SQLITE_OK);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    *rows = sqlite3_column_int(st, 0);
    *highest = sqlite3_column_int(st, 1);
    sqlite3_finalize(st);
    sqlite3_close(db);
}

/* The schema is applied once, by version, at start; a database made by a
 * newer pizzabox (a higher version) is refused, not misread. */
static void test_schema_versions_applied_once(void **state)
{
    (void)state;
    char path[128], err[PB_ERR_LEN];
    db_path(path, sizeof path, "versions");
    pb_store *s = pb_store_open(path, err, sizeof err);
    assert_non_null(s);
    pb_store_close(s);
    int rows, highest;
    schema_versions(path, &rows, &highest);
    assert_true(highest >= 1);
    assert_int_equal(rows, highest); /* one row for each version applied */
    s = pb_store_open(path, err, sizeof err);
    assert_non_null(s);
    pb_store_close(s);
    int rows2, highest2;
    schema_versions(path, &rows2, &highest2);
    assert_int_equal(rows2, rows);
    assert_int_equal(highest2, highest);

    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "INSERT INTO schema_version VALUES (999)", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    assert_null(pb_store_open(path, err, sizeof err));
    assert_non_null(strstr(err, "schema version 999, newer than this pizzabox"));
}

/* A New York Pizza Delivery table stored before its rules' edition 2 keeps
 * edition 1 (schema version 4), so its moves replay as they were played; a
 * table that names its edition is left alone. The other games' tables of
 * then keep their edition 1 too (schema version 5). */
static void test_delivery_tables_keep_their_edition(void **state)
{
    (void)state;
    char path[128], err[PB_ERR_LEN];
    db_path(path, sizeof path, "edition");
    pb_store *s = pb_store_open(path, err, sizeof err);
    assert_non_null(s);
    json_t *before = json_pack("{s:i}", "players", 3), *named = json_pack("{s:i, s:i}", "players", 2, "edition", 2);
    int64_t old = pb_store_create_table(s, "delivery", before, 7, "DLV1", NULL, err, sizeof err);
    int64_t kept = pb_store_create_table(s, "delivery", named, 8, "DLV2", NULL, err, sizeof err);
    int64_t slice = pb_store_create_table(s, "nyslice", before, 9, "NYS1", NULL, err, sizeof err);
    int64_t theory = pb_store_create_table(s, "theory", before, 10, "PT1", NULL, err, sizeof err);
    json_decref(before);
    json_decref(named);
    pb_store_close(s);
    sqlite3 *db; /* back to schema version 3, as a server of before left it */
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "DELETE FROM schema_version WHERE version >= 4", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    s = pb_store_open(path, err, sizeof err);
    assert_non_null(s);
    const struct {
        int64_t id;
        int edition; /* 0: none */
    } want[] = {{old, 1}, {kept, 2}, {slice, 1}, {theory, 1}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        pb_stored_table t;
        assert_int_equal(pb_store_load(s, want[i].id, &t, err, sizeof err), 0);
        assert_int_equal(json_integer_value(json_object_get(t.config, "edition")), want[i].edition);
        assert_int_equal(json_integer_value(json_object_get(t.config, "players")), i == 1 ? 2 : 3);
        pb_stored_table_free(&t);
    }
    pb_store_close(s);
}

/* Tables stored by a server of schema version 4 keep the rules they were
 * played by (schema version 5): a Pizza Theory table edition 1, a Delivery
 * table edition 2, a New York Slice table edition 1. */
static void test_tables_of_schema_4_keep_their_edition(void **state)
{
    (void)state;
    char path[128], err[PB_ERR_LEN];
    db_path(path, sizeof path, "theory-edition");
    pb_store *s = pb_store_open(path, err, sizeof err);
    assert_non_null(s);
    json_t *config = json_pack("{s:i}", "players", 2);
    int64_t theory = pb_store_create_table(s, "theory", config, 7, "PT1", NULL, err, sizeof err);
    int64_t delivery = pb_store_create_table(s, "delivery", config, 8, "DLV1", NULL, err, sizeof err);
    int64_t slice = pb_store_create_table(s, "nyslice", config, 9, "NYS1", NULL, err, sizeof err);
    json_decref(config);
    pb_store_close(s);
    sqlite3 *db; /* back to schema version 4, as a server of before left it */
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "DELETE FROM schema_version WHERE version >= 5", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    s = pb_store_open(path, err, sizeof err);
    assert_non_null(s);
    pb_stored_table t;
    assert_int_equal(pb_store_load(s, theory, &t, err, sizeof err), 0);
    assert_int_equal(json_integer_value(json_object_get(t.config, "edition")), 1);
    pb_stored_table_free(&t);
    assert_int_equal(pb_store_load(s, delivery, &t, err, sizeof err), 0);
    assert_int_equal(json_integer_value(json_object_get(t.config, "edition")), 2);
    pb_stored_table_free(&t);
    assert_int_equal(pb_store_load(s, slice, &t, err, sizeof err), 0);
    assert_int_equal(json_integer_value(json_object_get(t.config, "edition")), 1);
    pb_stored_table_free(&t);
    pb_store_close(s);
}

/* The token column of a seat, read straight from the file. */
static void stored_token(const char *path, int64_t id, int seat, char *out, size_t n)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    out[0] = 0;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT token FROM seats WHERE table_id = ? AND seat = ?", -1, &st, NULL),
                     SQLITE_OK);
    sqlite3_bind_int64(st, 1, id);
    sqlite3_bind_int(st, 2, seat);
    if (sqlite3_step(st) == SQLITE_ROW)
        snprintf(out, n, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    sqlite3_close(db);
}

/* Only the owner reads the database (it holds every deal's seed), and a
 * copy of it opens no seat: tokens are stored hashed, old ones hashed on
 * open. */
static void test_database_private_and_tokens_hashed(void **state)
{
    (void)state;
    char path[128], wal[160], err[PB_ERR_LEN], kept[128];
    db_path(path, sizeof path, "private");
    mode_t old = umask(022);
    pb_store *s = pb_store_open(path, err, sizeof err);
    umask(old);
    assert_non_null(s);
    json_t *config = json_pack("{s:i}", "players", 2);
    int64_t id = pb_store_create_table(s, "nyslice", config, 7, "WXYZ", NULL, err, sizeof err);
    json_decref(config);
    const char *token = "00112233445566778899aabbccddeeff";
    assert_int_equal(pb_store_set_seat(s, id, 0, "human", "Ann", token, err, sizeof err), 0);
    assert_int_equal(pb_store_append_action(s, id, 0, 0, "special alone", 5, 0, err, sizeof err), 0);
    struct stat sb;
    assert_int_equal(stat(path, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0600);
    snprintf(wal, sizeof wal, "%s-wal", path);
    assert_int_equal(stat(wal, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0600);
    stored_token(path, id, 0, kept, sizeof kept);
    assert_int_equal(strlen(kept), 64);
    assert_null(strstr(kept, token));
    assert_true(pb_store_check_token(s, id, 0, token));
    assert_false(pb_store_check_token(s, id, 0, kept)); /* the stored text itself opens nothing */
    assert_false(pb_store_check_token(s, id, 0, "00112233445566778899aabbccddeefe"));
    pb_store_close(s);

    /* A database from before (before tokens were hashed, before the
     * schema had versions): the token as issued, hashed when opened. */
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    char sql[256];
    snprintf(sql, sizeof sql, "UPDATE seats SET token = '%s' WHERE table_id = %lld AND seat = 0; DROP TABLE schema_version",
             token, (long long)id);
    assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    chmod(path, 0644);
    s = pb_store_open(path, err, sizeof err);
    assert_non_null(s);
    assert_int_equal(stat(path, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0600);
    stored_token(path, id, 0, kept, sizeof kept);
    assert_int_equal(strlen(kept), 64);
    assert_true(pb_store_check_token(s, id, 0, token));
    pb_store_close(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_survives_a_restart),
        cmocka_unit_test(test_moves_read_from_a_number),
        cmocka_unit_test(test_unfinished_tables_listed_for_recovery),
        cmocka_unit_test(test_acknowledged_actions_survive_kill_9),
        cmocka_unit_test(test_unusable_path_is_refused),
        cmocka_unit_test(test_bad_database_urls_are_refused),
        cmocka_unit_test(test_schema_versions_applied_once),
        cmocka_unit_test(test_delivery_tables_keep_their_edition),
        cmocka_unit_test(test_tables_of_schema_4_keep_their_edition),
        cmocka_unit_test(test_database_private_and_tokens_hashed),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
