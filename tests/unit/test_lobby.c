/* test_lobby.c -- the table protocol without a network (server/lobby.c), so
 * it also runs under ASan+UBSan: whole games, hostile messages, a restart. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../ai/bot.h"
#include "../../server/lobby.h"
#include "support.h"

#define MAX_OUT 4096

typedef struct capture {
    char *out[MAX_OUT];   /* messages sent, all connections */
    int conn[MAX_OUT];
    int n;
    pb_bot_job *jobs[64];
    int njobs;
} capture;

static void on_send(void *ctx, int conn, const char *text)
{
    capture *c = ctx;
    if (c->n == MAX_OUT) { /* keep the newest */
        free(c->out[0]);
        memmove(c->out, c->out + 1, sizeof c->out[0] * (MAX_OUT - 1));
        memmove(c->conn, c->conn + 1, sizeof c->conn[0] * (MAX_OUT - 1));
        c->n--;
    }
    c->conn[c->n] = conn;
    c->out[c->n++] = strdup(text);
}

static void on_bot(void *ctx, pb_bot_job *job)
{
    capture *c = ctx;
    assert_true(c->njobs < 64);
    c->jobs[c->njobs++] = job;
}

/* Play the pending bot moves as the server's workers would. */
static void run_bots(pb_lobby *l, capture *c)
{
    while (c->njobs) {
        pb_bot_job *job = c->jobs[--c->njobs];
        char err[PB_ERR_LEN];
        pb_bot *bot = pb_bot_new(job->bot, job->seed, err, sizeof err);
        assert_non_null(bot);
        pb_action a = pb_bot_choose(bot, job->game, job->state, job->seat);
        pb_bot_free(bot);
        free(job->state);
        int64_t table = job->table;
        int moves = job->moves;
        free(job);
        pb_lobby_bot_move(l, table, moves, a);
    }
}

static void clear(capture *c)
{
    for (int i = 0; i < c->n; i++)
        free(c->out[i]);
    c->n = 0;
}

static json_t *last_of(capture *c, int conn, const char *type)
{
    for (int i = c->n - 1; i >= 0; i--) {
        if (c->conn[i] != conn)
            continue;
        json_t *m = json_loads(c->out[i], 0, NULL);
        if (m && strcmp(json_string_value(json_object_get(m, "type")), type) == 0)
            return m;
        json_decref(m);
    }
    return NULL;
}

static void say(pb_lobby *l, int conn, const char *text)
{
    pb_lobby_message(l, conn, text, strlen(text));
}

/* A move for the human from its view: the first legal one, or a division. */
static void human_move(pb_lobby *l, capture *c, int conn, const char *code)
{
    json_t *m = last_of(c, conn, "view"), *v = json_object_get(m, "view");
    json_t *legal = json_object_get(v, "legal");
    char msg[512], action[128];
    if (json_array_size(legal))
        snprintf(action, sizeof action, "%s", json_string_value(json_array_get(legal, 0)));
    else if (strcmp(json_string_value(json_object_get(v, "phase")), "place") == 0)
        snprintf(action, sizeof action, "collect all");
    else {
        int n = (int)json_integer_value(json_object_get(v, "player_count")), k = 0;
        size_t len = (size_t)snprintf(action, sizeof action, n == 2 ? "special alone" : "cut");
        for (size_t i = 0; n > 2 && i < json_array_size(json_object_get(v, "ring")) && k < n - 1; i++) {
            json_t *pos = json_array_get(json_object_get(v, "ring"), i);
            if (json_object_get(pos, "slice") != json_null()) {
                len += (size_t)snprintf(action + len, sizeof action - len, " %d",
                                        (int)json_integer_value(json_object_get(pos, "pos")));
                k++;
            }
        }
        if (n > 2)
            snprintf(action + len, sizeof action - len, " special alone");
    }
    snprintf(msg, sizeof msg, "{\"type\":\"act\",\"code\":\"%s\",\"action\":\"%s\"}", code, action);
    json_decref(m);
    say(l, conn, msg);
}

static bool over(capture *c, int conn)
{
    json_t *m = last_of(c, conn, "view");
    bool done = m && strcmp(json_string_value(json_object_get(json_object_get(m, "view"), "phase")), "over") == 0;
    json_decref(m);
    return done;
}

static void test_games_hostile_input_and_restart(void **state)
{
    (void)state;
    char path[] = "/tmp/pizzabox-lobby-XXXXXX", db[64], err[PB_ERR_LEN];
    assert_non_null(mkdtemp(path));
    snprintf(db, sizeof db, "%s/l.db", path);
    static capture c;
    pb_store *store = pb_store_open(db, err, sizeof err);
    pb_lobby_io io = {&c, on_send, on_bot};
    pb_lobby *l = pb_lobby_new(store, &io, err, sizeof err);
    assert_non_null(l);
    static const char *const hostile[] = {
        "", "{", "[]", "42", "null", "{\"type\":7}", "{\"type\":\"nope\"}", "{\"type\":\"act\"}",
        "{\"type\":\"join\",\"code\":\"ZZZZ\"}", "{\"type\":\"create\",\"game\":\"nyslice\",\"players\":7}",
        "{\"type\":\"create\",\"game\":\"chess\",\"players\":2,\"seats\":[\"human\",\"random\"]}",
        "{\"type\":\"create\",\"game\":\"nyslice\",\"players\":2,\"seats\":[\"random\",\"random\"]}",
        "{\"type\":\"resume\",\"code\":\"ZZZZ\",\"seat\":0,\"token\":\"x\"}", "{\"type\":\"replay\"}",
        "{\"type\":\"list\",\"type\":\"list\"}", "\xff\xfe\x00garbage",
    };
    for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; i++) {
        clear(&c);
        pb_lobby_message(l, 1, hostile[i], strlen(hostile[i]) + (i == sizeof hostile / sizeof hostile[0] - 1 ? 3 : 0));
        json_t *e = last_of(&c, 1, "error");
        assert_non_null(e);
        json_decref(e);
    }
    assert_int_equal(pb_lobby_tables(l), 0);
    /* Whole games for 2..6 players: one human, the rest bots. */
    char code[16] = "";
    for (int n = 2; n <= 6; n++) {
        char msg[256];
        snprintf(msg, sizeof msg, "{\"type\":\"create\",\"game\":\"nyslice\",\"players\":%d,\"seats\":[\"human\"%s],"
                 "\"name\":\"Ann\"}", n, n == 2 ? ",\"greedy\"" : n == 3 ? ",\"greedy\",\"random\"" :
                 n == 4 ? ",\"greedy\",\"random\",\"easy\"" : n == 5 ? ",\"random\",\"random\",\"random\",\"random\"" :
                 ",\"random\",\"random\",\"random\",\"random\",\"greedy\"");
        clear(&c);
        say(l, 10 + n, msg);
        json_t *j = last_of(&c, 10 + n, "joined");
        assert_non_null(j);
        snprintf(code, sizeof code, "%s", json_string_value(json_object_get(j, "code")));
        json_decref(j);
        for (int guard = 0; guard < 500 && !over(&c, 10 + n); guard++) {
            run_bots(l, &c);
            if (!over(&c, 10 + n))
                human_move(l, &c, 10 + n, code);
        }
        assert_true(over(&c, 10 + n));
        json_t *v = last_of(&c, 10 + n, "view");
        assert_non_null(json_object_get(v, "score"));
        json_decref(v);
    }
    /* Another connection may not act at that table; a restart keeps it all. */
    clear(&c);
    char act[128];
    snprintf(act, sizeof act, "{\"type\":\"act\",\"code\":\"%s\",\"action\":\"pass\"}", code);
    say(l, 99, act);
    json_t *e = last_of(&c, 99, "error");
    assert_non_null(e);
    json_decref(e);
    pb_lobby_free(l);
    l = pb_lobby_new(store, &io, err, sizeof err);
    assert_int_equal(pb_lobby_tables(l), 5);
    clear(&c);
    pb_lobby_free(l);
    pb_store_close(store);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", path);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_games_hostile_input_and_restart)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
