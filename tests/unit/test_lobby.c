/* test_lobby.c -- the table protocol without a network (server/lobby.c), so
 * it also runs under ASan+UBSan: whole games, hostile messages, a restart. */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../ai/bot.h"
#include "../../server/lobby.h"
#include "../../server/serve.h"
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

/* A database in a directory of its own for one test, and its removal. */
typedef struct place {
    char dir[32], db[64];
} place;

static pb_store *open_place(place *p)
{
    char err[PB_ERR_LEN];
    snprintf(p->dir, sizeof p->dir, "/tmp/pizzabox-lobby-XXXXXX");
    assert_non_null(mkdtemp(p->dir));
    snprintf(p->db, sizeof p->db, "%s/l.db", p->dir);
    pb_store *store = pb_store_open(p->db, err, sizeof err);
    assert_non_null(store);
    return store;
}

/* The lobby and store closed, the capture emptied, the directory gone. */
static void close_place(place *p, pb_lobby *l, pb_store *store, capture *c)
{
    pb_lobby_free(l);
    pb_store_close(store);
    clear(c);
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf %s", p->dir);
    assert_int_equal(system(cmd), 0);
}

/* The server restarted: a new lobby on the store opened again (a new
 * node, as a new process would be). */
static pb_lobby *restart(pb_lobby *l, pb_store **store, const place *p, const pb_lobby_io *io)
{
    char err[PB_ERR_LEN];
    pb_lobby_free(l);
    pb_store_close(*store);
    *store = pb_store_open(p->db, err, sizeof err);
    assert_non_null(*store);
    pb_lobby *next = pb_lobby_new(*store, io, err, sizeof err);
    assert_non_null(next);
    return next;
}

static void test_games_hostile_input_and_restart(void **state)
{
    (void)state;
    char err[PB_ERR_LEN];
    place where;
    static capture c;
    pb_store *store = open_place(&where);
    pb_lobby_io io = {.ctx = &c, .send = on_send, .ask_bot = on_bot};
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
    close_place(&where, l, store, &c);
}

/* ---- Waiting, clocks, chat, undo, rematch (issue 20), on a clock of the test's own ---- */

static int64_t fake_ms = 1700000000000;

static int64_t fake_now(void *ctx)
{
    (void)ctx;
    return fake_ms;
}

/* The last message of a type to a connection, with the error's text when
 * it is an error. */
static json_t *sent(capture *c, int conn, const char *type)
{
    json_t *m = last_of(c, conn, type);
    assert_non_null(m);
    return m;
}

static void expect_error(pb_lobby *l, capture *c, int conn, const char *msg, const char *words)
{
    int mark = c->n; /* only what this message brought: its first error to conn */
    say(l, conn, msg);
    json_t *e = NULL;
    for (int i = mark; i < c->n && !e; i++) {
        json_t *m = json_loads(c->out[i], 0, NULL);
        if (c->conn[i] == conn && strcmp(json_string_value(json_object_get(m, "type")), "error") == 0)
            e = m;
        else
            json_decref(m);
    }
    if (!e)
        fail_msg("\"%s\" was not refused", msg);
    const char *text = json_string_value(json_object_get(e, "message"));
    if (!strstr(text, words))
        fail_msg("\"%s\" answered \"%s\", not \"%s\"", msg, text, words);
    json_decref(e);
}

static void joined_code(capture *c, int conn, char *code, size_t n)
{
    json_t *j = sent(c, conn, "joined");
    snprintf(code, n, "%s", json_string_value(json_object_get(j, "code")));
    json_decref(j);
}

/* The table joined and the seat's token (to resume it after a restart). */
static void joined_seat(capture *c, int conn, char code[16], char token[64])
{
    json_t *j = sent(c, conn, "joined");
    snprintf(code, 16, "%s", json_string_value(json_object_get(j, "code")));
    snprintf(token, 64, "%s", json_string_value(json_object_get(j, "token")));
    json_decref(j);
}

static json_t *view_of(capture *c, int conn)
{
    return sent(c, conn, "view");
}

static void test_waiting_clock_chat_undo_rematch(void **state)
{
    (void)state;
    char err[PB_ERR_LEN], msg[512], code[16], code2[16];
    place where;
    static capture c;
    pb_store *store = open_place(&where);
    pb_lobby_io io = {.ctx = &c, .send = on_send, .ask_bot = on_bot, .now_ms = fake_now};
    pb_lobby *l = pb_lobby_new(store, &io, err, sizeof err);
    assert_non_null(l);

    /* Absurd clocks are refused with their range. */
    expect_error(l, &c, 1, "{\"type\":\"create\",\"game\":\"nyslice\",\"players\":2,\"seats\":[\"human\",\"greedy\"],"
                 "\"clock\":{\"mode\":\"realtime\",\"minutes\":100000}}", "1 to 180");
    expect_error(l, &c, 1, "{\"type\":\"create\",\"game\":\"nyslice\",\"players\":2,\"seats\":[\"human\",\"greedy\"],"
                 "\"clock\":{\"mode\":\"turn\",\"hours\":-3}}", "1 to 336");
    expect_error(l, &c, 1, "{\"type\":\"create\",\"game\":\"nyslice\",\"players\":2,\"seats\":[\"human\",\"greedy\"],"
                 "\"clock\":{\"mode\":\"blitz\"}}", "realtime");
    assert_int_equal(pb_lobby_tables(l), 0);

    /* A table with a free human seat waits: nobody moves, bots neither. */
    clear(&c);
    say(l, 1, "{\"type\":\"create\",\"game\":\"nyslice\",\"players\":3,\"seats\":[\"human\",\"greedy\",\"human\"],"
              "\"name\":\"Ann\",\"clock\":{\"mode\":\"realtime\",\"minutes\":1,\"increment\":0}}");
    joined_code(&c, 1, code, sizeof code);
    json_t *v = view_of(&c, 1);
    assert_true(json_is_true(json_object_get(v, "waiting")));
    assert_int_equal(json_integer_value(json_object_get(v, "creator")), 0);
    assert_true(json_is_null(json_object_get(json_object_get(v, "clock"), "running")));
    json_decref(v);
    assert_int_equal(c.njobs, 0);
    snprintf(msg, sizeof msg, "{\"type\":\"act\",\"code\":\"%s\",\"action\":\"pass\"}", code);
    expect_error(l, &c, 1, msg, "has not started");

    /* Chat: a spectator and a player; hostile lines refused. */
    snprintf(msg, sizeof msg, "{\"type\":\"spectate\",\"code\":\"%s\",\"name\":\"Cy\"}", code);
    say(l, 2, msg);
    clear(&c);
    snprintf(msg, sizeof msg, "{\"type\":\"chat\",\"code\":\"%s\",\"text\":\"hi <b>all</b>\"}", code);
    say(l, 2, msg);
    json_t *chat = sent(&c, 1, "chat"), *line = json_array_get(json_object_get(chat, "lines"), 0);
    assert_string_equal(json_string_value(json_object_get(line, "name")), "Cy");
    assert_true(json_is_true(json_object_get(line, "spectator")));
    assert_string_equal(json_string_value(json_object_get(line, "text")), "hi <b>all</b>");
    json_decref(chat);
    snprintf(msg, sizeof msg, "{\"type\":\"chat\",\"code\":\"%s\",\"text\":\"two\\nlines\"}", code);
    expect_error(l, &c, 1, msg, "control or invisible characters");
    char long_text[400];
    memset(long_text, 'x', 301);
    long_text[301] = 0;
    snprintf(msg, sizeof msg, "{\"type\":\"chat\",\"code\":\"%s\",\"text\":\"%s\"}", code, long_text);
    expect_error(l, &c, 1, msg, "at most 300");
    snprintf(msg, sizeof msg, "{\"type\":\"chat\",\"code\":\"%s\",\"text\":\"flood\"}", code);
    for (int i = 0; i < 5; i++)
        say(l, 1, msg);
    expect_error(l, &c, 1, msg, "too many chat lines");
    snprintf(msg, sizeof msg, "{\"type\":\"chat\",\"code\":\"%s\",\"text\":\"me too\"}", code);
    expect_error(l, &c, 3, msg, "sit at the table or watch");

    /* Only the creator starts; the last seat taken starts it too. */
    snprintf(msg, sizeof msg, "{\"type\":\"join\",\"code\":\"%s\",\"name\":\"Bo\"}", code);
    clear(&c);
    say(l, 3, msg);
    json_t *hist = sent(&c, 3, "chat");
    assert_true(json_is_true(json_object_get(hist, "history")));
    assert_int_equal(json_array_size(json_object_get(hist, "lines")), 6); /* Cy's and Ann's five */
    json_decref(hist);
    v = view_of(&c, 3);
    assert_false(json_is_true(json_object_get(v, "waiting")));
    int running = (int)json_integer_value(json_object_get(json_object_get(v, "clock"), "running"));
    assert_int_equal(running, 0); /* New York Slice: the first player divides */
    json_decref(v);

    /* Out of time: the seat goes to a bot, the events tell it. */
    fake_ms += 59 * 1000;
    pb_lobby_tick(l);
    snprintf(msg, sizeof msg, "{\"type\":\"spectate\",\"code\":\"%s\"}", code);
    say(l, 2, msg); /* a spectator asking again gets the view again */
    v = view_of(&c, 2);
    assert_true(json_integer_value(json_array_get(json_object_get(json_object_get(v, "clock"), "left"), 0)) <= 1000);
    json_decref(v);
    fake_ms += 2 * 1000;
    clear(&c);
    pb_lobby_tick(l);
    v = view_of(&c, 3);
    assert_string_equal(json_string_value(json_array_get(json_object_get(v, "players"), 0)), "greedy");
    assert_true(json_is_true(json_array_get(json_object_get(json_object_get(v, "clock"), "out"), 0)));
    json_t *ev = json_array_get(json_object_get(v, "events"), 0);
    assert_string_equal(json_string_value(json_object_get(ev, "kind")), "time");
    assert_non_null(strstr(json_string_value(json_object_get(ev, "text")), "Ann ran out of time"));
    assert_false(json_is_true(json_object_get(v, "undo"))); /* Bo's moves were seen by Ann: no undo for him */
    json_decref(v);
    /* Ann, still connected, watches from now on and is told why. */
    json_t *w = sent(&c, 1, "watching");
    assert_non_null(strstr(json_string_value(json_object_get(w, "reason")), "Ann ran out of time"));
    json_decref(w);
    v = view_of(&c, 1);
    assert_true(json_is_null(json_object_get(v, "seat")));
    json_decref(v);
    assert_int_equal(c.njobs, 1); /* the bot is asked for the seat */
    run_bots(l, &c);

    /* A restart keeps the clock's verdict, the events and the chat. */
    pb_lobby_free(l);
    clear(&c);
    l = pb_lobby_new(store, &io, err, sizeof err);
    run_bots(l, &c);
    snprintf(msg, sizeof msg, "{\"type\":\"spectate\",\"code\":\"%s\"}", code);
    clear(&c);
    say(l, 4, msg);
    v = view_of(&c, 4);
    assert_true(json_is_true(json_array_get(json_object_get(json_object_get(v, "clock"), "out"), 0)));
    assert_int_equal(json_array_size(json_object_get(v, "events")), 1);
    json_decref(v);
    hist = sent(&c, 4, "chat");
    assert_int_equal(json_array_size(json_object_get(hist, "lines")), 6);
    json_decref(hist);
    snprintf(msg, sizeof msg, "{\"type\":\"history\",\"code\":\"%s\"}", code);
    clear(&c);
    say(l, 4, msg);
    hist = sent(&c, 4, "history");
    assert_true(json_array_size(json_object_get(hist, "log")) >= 1);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(json_object_get(hist, "log"), 0), "move")), 0);
    json_decref(hist);

    /* `start`: only the creator; bots take the free seats. */
    clear(&c);
    say(l, 5, "{\"type\":\"create\",\"game\":\"theory\",\"players\":3,\"seats\":[\"human\",\"human\",\"human\"],"
              "\"name\":\"Di\"}");
    joined_code(&c, 5, code2, sizeof code2);
    snprintf(msg, sizeof msg, "{\"type\":\"join\",\"code\":\"%s\",\"name\":\"Ed\"}", code2);
    say(l, 6, msg);
    snprintf(msg, sizeof msg, "{\"type\":\"start\",\"code\":\"%s\"}", code2);
    expect_error(l, &c, 6, msg, "only the table's creator");
    snprintf(msg, sizeof msg, "{\"type\":\"start\",\"code\":\"%s\",\"bot\":\"wizard\"}", code2);
    expect_error(l, &c, 5, msg, "bot is one of");
    snprintf(msg, sizeof msg, "{\"type\":\"start\",\"code\":\"%s\",\"bot\":\"random\"}", code2);
    clear(&c);
    say(l, 5, msg);
    v = view_of(&c, 6);
    assert_false(json_is_true(json_object_get(v, "waiting")));
    assert_string_equal(json_string_value(json_array_get(json_object_get(v, "players"), 2)), "random");
    assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(v, "events"), 0), "kind")),
                        "start");
    json_decref(v);

    /* Undo against bots; a whole game; a rematch. */
    clear(&c);
    say(l, 7, "{\"type\":\"create\",\"game\":\"nyslice\",\"players\":2,\"seats\":[\"human\",\"greedy\"],"
              "\"name\":\"Flo\"}");
    joined_code(&c, 7, code, sizeof code);
    snprintf(msg, sizeof msg, "{\"type\":\"undo\",\"code\":\"%s\"}", code);
    expect_error(l, &c, 7, msg, "nothing to undo");
    human_move(l, &c, 7, code);
    run_bots(l, &c);
    v = view_of(&c, 7);
    int moves = (int)json_integer_value(json_object_get(v, "moves"));
    assert_true(moves >= 1);
    assert_true(json_is_true(json_object_get(v, "undo")));
    json_decref(v);
    clear(&c);
    say(l, 7, msg);
    v = view_of(&c, 7);
    assert_int_equal(json_integer_value(json_object_get(v, "moves")), 0);
    assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(v, "events"), 0), "kind")),
                        "undo");
    json_decref(v);
    for (int guard = 0; guard < 500 && !over(&c, 7); guard++) {
        run_bots(l, &c);
        if (!over(&c, 7))
            human_move(l, &c, 7, code);
    }
    assert_true(over(&c, 7));
    expect_error(l, &c, 7, msg, "nothing to undo");
    snprintf(msg, sizeof msg, "{\"type\":\"rematch\",\"code\":\"%s\"}", code);
    expect_error(l, &c, 8, msg, "only a player");
    clear(&c);
    say(l, 7, msg);
    joined_code(&c, 7, code2, sizeof code2);
    assert_string_not_equal(code, code2);
    v = view_of(&c, 7);
    assert_string_equal(json_string_value(json_object_get(v, "code")), code2);
    assert_string_equal(json_string_value(json_array_get(json_object_get(v, "players"), 1)), "greedy");
    json_decref(v);

    close_place(&where, l, store, &c);
}

/* A rematch is a place more for the connection asking, counted like a
 * create or a join: at eight places (its old table and seven it watches) it
 * is refused, and nothing is made. */
static void test_rematch_counts_as_a_place(void **state)
{
    (void)state;
    char msg[256], code[16], other[16];
    place where;
    pb_store *store = open_place(&where);
    static capture c;
    char err[PB_ERR_LEN];
    pb_lobby_io io = {.ctx = &c, .send = on_send, .ask_bot = on_bot};
    pb_lobby *l = pb_lobby_new(store, &io, err, sizeof err);
    assert_non_null(l);
    clear(&c);
    say(l, 7, "{\"type\":\"create\",\"game\":\"nyslice\",\"players\":2,\"seats\":[\"human\",\"greedy\"],"
              "\"name\":\"Flo\"}");
    joined_code(&c, 7, code, sizeof code);
    for (int guard = 0; guard < 500 && !over(&c, 7); guard++) {
        run_bots(l, &c);
        if (!over(&c, 7))
            human_move(l, &c, 7, code);
    }
    assert_true(over(&c, 7));
    for (int i = 0; i < PB_LOBBY_TABLES_PER_CONN - 1; i++) {
        clear(&c);
        say(l, 20 + i, "{\"type\":\"create\",\"game\":\"theory\",\"players\":2,\"seats\":[\"human\",\"human\"],"
                       "\"name\":\"Al\"}");
        joined_code(&c, 20 + i, other, sizeof other);
        snprintf(msg, sizeof msg, "{\"type\":\"spectate\",\"code\":\"%s\"}", other);
        say(l, 7, msg);
    }
    int tables = pb_store_count(store, PB_STORE_ALL);
    snprintf(msg, sizeof msg, "{\"type\":\"rematch\",\"code\":\"%s\"}", code);
    expect_error(l, &c, 7, msg, "too many tables");
    assert_int_equal(pb_store_count(store, PB_STORE_ALL), tables);
    close_place(&where, l, store, &c);
}

/* The limits by address count an IPv6 client by its /64 network (a home or
 * a machine holds a whole one); IPv4 and what is no address stay as they
 * are. */
static void test_address_key_ipv6_by_its_64(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"},
        {"2001:db8:1:2::ffff", "2001:db8:1:2::/64"},
        {"2001:db8::1", "2001:db8::/64"},
        {"203.0.113.7", "203.0.113.7"},
        {"proxied, unknown", "proxied, unknown"},
        {"not:an:address", "not:an:address"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char addr[64];
        snprintf(addr, sizeof addr, "%s", cases[i][0]);
        pb_address_key(addr, sizeof addr);
        assert_string_equal(addr, cases[i][1]);
    }
}

/* Hostile numbers and names; after a restart, a seat's player has the
 * grace to come back before anyone may hand it to a bot. */
static void test_hostile_numbers_names_and_restart_grace(void **state)
{
    (void)state;
    char err[PB_ERR_LEN], msg[512], code[16];
    place where;
    static capture c;
    pb_store *store = open_place(&where);
    pb_lobby_io io = {.ctx = &c, .send = on_send, .ask_bot = on_bot, .now_ms = fake_now};
    pb_lobby *l = pb_lobby_new(store, &io, err, sizeof err);
    /* 4294967298 is not 2 */
    expect_error(l, &c, 1, "{\"type\":\"create\",\"game\":\"nyslice\",\"players\":4294967298,"
                 "\"seats\":[\"human\",\"greedy\"]}", "create needs");
    /* A name with a right-to-left override, zero-width spaces and a BOM. */
    clear(&c);
    say(l, 1, "{\"type\":\"create\",\"game\":\"nyslice\",\"players\":2,\"seats\":[\"human\",\"human\"],"
              "\"name\":\"\\u202eAnn\\u200b\\u2066x\\ufeff\"}");
    json_t *j = sent(&c, 1, "joined");
    char ann_token[64];
    snprintf(code, sizeof code, "%s", json_string_value(json_object_get(j, "code")));
    snprintf(ann_token, sizeof ann_token, "%s", json_string_value(json_object_get(j, "token")));
    json_decref(j);
    json_t *v = view_of(&c, 1);
    assert_string_equal(json_string_value(json_array_get(json_object_get(v, "names"), 0)), "Annx");
    json_decref(v);
    snprintf(msg, sizeof msg, "{\"type\":\"join\",\"code\":\"%s\",\"name\":\"\\u200b\\u200e \",\"seat\":4294967297}",
             code);
    clear(&c);
    say(l, 2, msg);
    j = sent(&c, 2, "joined");
    assert_int_equal(json_integer_value(json_object_get(j, "seat")), 1);
    json_decref(j);
    v = view_of(&c, 2);
    assert_string_equal(json_string_value(json_array_get(json_object_get(v, "names"), 1)), "Player");
    json_decref(v);

    /* Bo drops and the server restarts: when Ann is back, Bo's seat is
     * not free for a bot until Bo has had the grace to come back too. */
    pb_lobby_disconnect(l, 2);
    fake_ms += 10 * 1000;
    pb_lobby_free(l);
    l = pb_lobby_new(store, &io, err, sizeof err);
    snprintf(msg, sizeof msg, "{\"type\":\"resume\",\"code\":\"%s\",\"seat\":0,\"token\":\"%s\"}", code, ann_token);
    say(l, 4, msg);
    snprintf(msg, sizeof msg, "{\"type\":\"bot\",\"code\":\"%s\",\"seat\":1}", code);
    expect_error(l, &c, 4, msg, "gone for a few seconds");
    fake_ms += 6 * 1000;
    pb_lobby_tick(l);
    clear(&c);
    say(l, 4, msg);
    v = view_of(&c, 4);
    assert_string_equal(json_string_value(json_array_get(json_object_get(v, "players"), 1)), "greedy");
    json_decref(v);
    close_place(&where, l, store, &c);
}

/* Bots' seeds are not a function of the table's id and move count (which
 * anyone can count): two servers seed the same table's first bot move
 * differently. */
static uint64_t first_bot_seed(void)
{
    char err[PB_ERR_LEN];
    static capture c;
    pb_store *store = pb_store_open(":memory:", err, sizeof err);
    pb_lobby_io io = {.ctx = &c, .send = on_send, .ask_bot = on_bot};
    pb_lobby *l = pb_lobby_new(store, &io, err, sizeof err);
    say(l, 1, "{\"type\":\"create\",\"game\":\"nyslice\",\"players\":2,\"seats\":[\"greedy\",\"human\"]}");
    assert_int_equal(c.njobs, 1);
    uint64_t seed = c.jobs[0]->seed;
    run_bots(l, &c);
    pb_lobby_free(l);
    pb_store_close(store);
    clear(&c);
    return seed;
}

static void test_bot_seeds_unpredictable(void **state)
{
    (void)state;
    assert_true(first_bot_seed() != first_bot_seed());
}

/* Codes are never reused: once every four-character code is taken, a new
 * table gets a longer one (the search used to loop for ever). */
static void test_codes_never_run_out(void **state)
{
    (void)state;
    char err[PB_ERR_LEN], code[16];
    place where;
    pb_store_close(open_place(&where)); /* the schema */
    const char *db = where.db;
    /* Every four-character code taken, by rows that are neither unfinished
     * nor finished (finished = 2), so the lobby loads none of them. */
    sqlite3 *raw;
    sqlite3_stmt *st;
    assert_int_equal(sqlite3_open(db, &raw), SQLITE_OK);
    assert_int_equal(sqlite3_exec(raw, "BEGIN", NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(raw, "INSERT INTO tables (game, code, config, seed, finished) "
                                             "VALUES ('nyslice', ?, '{\"players\":2}', 1, 2)", -1, &st, NULL),
                     SQLITE_OK);
    static const char letters[] = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    for (int i = 0; i < 32 * 32 * 32 * 32; i++) {
        char c[5] = {letters[i & 31], letters[(i >> 5) & 31], letters[(i >> 10) & 31], letters[(i >> 15) & 31], 0};
        sqlite3_bind_text(st, 1, c, 4, SQLITE_TRANSIENT);
        assert_int_equal(sqlite3_step(st), SQLITE_DONE);
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    assert_int_equal(sqlite3_exec(raw, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(raw);
    static capture c;
    pb_store *store = pb_store_open(db, err, sizeof err);
    pb_lobby_io io = {.ctx = &c, .send = on_send, .ask_bot = on_bot};
    pb_lobby *l = pb_lobby_new(store, &io, err, sizeof err);
    assert_non_null(l);
    say(l, 1, "{\"type\":\"create\",\"game\":\"theory\",\"players\":2,\"seats\":[\"human\",\"greedy\"]}");
    joined_code(&c, 1, code, sizeof code);
    assert_int_equal(strlen(code), 5);
    close_place(&where, l, store, &c);
}

/* One address may make only so many unfinished tables (others are not held
 * up by it); an unfinished table nobody comes back to is closed, and says
 * so when asked for. */
static void test_quota_per_client_and_abandoned_tables_closed(void **state)
{
    (void)state;
    char err[PB_ERR_LEN], msg[256], code[16];
    place where;
    static capture c;
    pb_store *store = open_place(&where);
    pb_lobby_io io = {.ctx = &c, .send = on_send, .ask_bot = on_bot, .now_ms = fake_now, .tables_per_client = 3,
                      .close_after_hours = 2};
    pb_lobby *l = pb_lobby_new(store, &io, err, sizeof err);
    const char *create = "{\"type\":\"create\",\"game\":\"theory\",\"players\":2,\"seats\":[\"human\",\"human\"]}";
    /* Three connections from one address make three tables; a fourth is refused. */
    for (int conn = 1; conn <= 4; conn++)
        pb_lobby_connect(l, conn, "203.0.113.9");
    pb_lobby_connect(l, 5, "198.51.100.7");
    pb_lobby_connect(l, 6, ""); /* this machine: counts for no one */
    for (int conn = 1; conn <= 3; conn++) {
        clear(&c);
        say(l, conn, create);
        joined_code(&c, conn, code, sizeof code);
    }
    expect_error(l, &c, 4, create, "too many tables: 3 unfinished tables made from your address");
    clear(&c);
    say(l, 5, create);
    joined_code(&c, 5, code, sizeof code);
    for (int i = 0; i < 4; i++) {
        clear(&c);
        say(l, 6, create);
        joined_code(&c, 6, code, sizeof code);
    }
    assert_int_equal(pb_lobby_tables(l), 8);

    /* Everyone leaves; two hours later the tables are closed. */
    for (int conn = 1; conn <= 6; conn++)
        pb_lobby_disconnect(l, conn);
    fake_ms += 3600 * 1000;
    pb_lobby_tick(l);
    assert_int_equal(pb_lobby_tables(l), 8);
    fake_ms += 3600 * 1000 + 1000;
    pb_lobby_tick(l);
    assert_int_equal(pb_lobby_tables(l), 0);
    snprintf(msg, sizeof msg, "{\"type\":\"spectate\",\"code\":\"%s\"}", code);
    expect_error(l, &c, 7, msg, "closed");
    clear(&c);
    say(l, 7, "{\"type\":\"list\"}");
    json_t *tables = sent(&c, 7, "tables");
    assert_int_equal(json_array_size(json_object_get(tables, "tables")), 0);
    json_decref(tables);
    /* Closed tables are not restored, and the quota is free again. */
    pb_lobby_free(l);
    l = pb_lobby_new(store, &io, err, sizeof err);
    assert_int_equal(pb_lobby_tables(l), 0);
    pb_lobby_connect(l, 8, "203.0.113.9");
    clear(&c);
    say(l, 8, create);
    joined_code(&c, 8, code, sizeof code);
    close_place(&where, l, store, &c);
}

/* A clock after a restart: each seat has what its moves left it, the turn
 * that was running charged until the server was last known alive (the time
 * it was down is not charged); bots have none. */
static void test_clock_after_a_restart(void **state)
{
    (void)state;
    char err[PB_ERR_LEN], msg[256], code[16], token[64];
    place where;
    static capture c;
    pb_store *store = open_place(&where);
    pb_lobby_io io = {.ctx = &c, .send = on_send, .ask_bot = on_bot, .now_ms = fake_now};
    pb_lobby *l = pb_lobby_new(store, &io, err, sizeof err);
    clear(&c);
    say(l, 1, "{\"type\":\"create\",\"game\":\"nyslice\",\"players\":2,\"seats\":[\"human\",\"greedy\"],"
              "\"name\":\"Ann\",\"clock\":{\"mode\":\"realtime\",\"minutes\":1,\"increment\":5}}");
    joined_seat(&c, 1, code, token);
    fake_ms += 20 * 1000; /* Ann thinks 20 s: 60 - 20 + 5 = 45 s left */
    human_move(l, &c, 1, code);
    run_bots(l, &c);
    fake_ms += 4 * 1000; /* Ann's turn again: 4 s into it the server notes it is alive, then dies */
    pb_lobby_tick(l);
    fake_ms += 3600 * 1000; /* down an hour: charged 4 s, not the hour */
    l = restart(l, &store, &where, &io);
    run_bots(l, &c);
    snprintf(msg, sizeof msg, "{\"type\":\"resume\",\"code\":\"%s\",\"seat\":0,\"token\":\"%s\"}", code, token);
    clear(&c);
    say(l, 1, msg);
    json_t *v = view_of(&c, 1), *clock = json_object_get(v, "clock");
    assert_int_equal(json_integer_value(json_array_get(json_object_get(clock, "left"), 0)), 41 * 1000);
    assert_true(json_is_null(json_array_get(json_object_get(clock, "left"), 1)));
    json_decref(v);
    close_place(&where, l, store, &c);
}

/* Found in review: a move after the flag fell is refused; undo gives the
 * clock back what the moves took and leaves one event however often it is
 * used; a bot that could not move is asked again; two restarts charge no
 * downtime. */
static void test_clock_and_undo_edges(void **state)
{
    (void)state;
    char err[PB_ERR_LEN], msg[256], code[16], token[64];
    place where;
    static capture c;
    pb_store *store = open_place(&where);
    pb_lobby_io io = {.ctx = &c, .send = on_send, .ask_bot = on_bot, .now_ms = fake_now};
    pb_lobby *l = pb_lobby_new(store, &io, err, sizeof err);
    clear(&c);
    say(l, 1, "{\"type\":\"create\",\"game\":\"nyslice\",\"players\":2,\"seats\":[\"human\",\"greedy\"],"
              "\"name\":\"Ann\",\"clock\":{\"mode\":\"realtime\",\"minutes\":2,\"increment\":60}}");
    joined_seat(&c, 1, code, token);
    snprintf(msg, sizeof msg, "{\"type\":\"undo\",\"code\":\"%s\"}", code);
    /* Five moves of 1 s, each taken back: the clock is as it was, one undo event. */
    for (int i = 0; i < 5; i++) {
        fake_ms += 1000;
        human_move(l, &c, 1, code);
        run_bots(l, &c);
        clear(&c);
        say(l, 1, msg);
    }
    json_t *v = view_of(&c, 1), *clock = json_object_get(v, "clock");
    assert_int_equal(json_integer_value(json_array_get(json_object_get(clock, "left"), 0)), 120 * 1000);
    assert_int_equal(json_array_size(json_object_get(v, "events")), 1);
    json_decref(v);
    /* A bot that could not move (an answer for no position) is asked again. */
    fake_ms += 2000;
    human_move(l, &c, 1, code);
    assert_int_equal(c.njobs, 1);
    pb_bot_job *job = c.jobs[--c.njobs];
    int64_t id = job->table;
    free(job->state);
    free(job);
    pb_lobby_bot_move(l, id, -1, 0);
    assert_int_equal(c.njobs, 1);
    run_bots(l, &c);
    /* Two restarts, an hour down each, charge nothing: 120 - 2 + 60 = 178 s. */
    for (int r = 0; r < 2; r++) {
        fake_ms += 3600 * 1000;
        l = restart(l, &store, &where, &io);
        run_bots(l, &c);
        if (r == 0) { /* Ann moves 10 s into her turn after the first restart */
            snprintf(msg, sizeof msg, "{\"type\":\"resume\",\"code\":\"%s\",\"seat\":0,\"token\":\"%s\"}", code, token);
            clear(&c);
            say(l, 1, msg);
            fake_ms += 10 * 1000;
            human_move(l, &c, 1, code);
            run_bots(l, &c);
        }
    }
    snprintf(msg, sizeof msg, "{\"type\":\"resume\",\"code\":\"%s\",\"seat\":0,\"token\":\"%s\"}", code, token);
    clear(&c);
    say(l, 1, msg);
    v = view_of(&c, 1);
    clock = json_object_get(v, "clock");
    assert_int_equal(json_integer_value(json_array_get(json_object_get(clock, "left"), 0)), (178 - 10 + 60) * 1000);
    json_decref(v);
    /* The flag falls between the clock's checks: the late move is refused. */
    fake_ms += 229 * 1000;
    snprintf(msg, sizeof msg, "{\"type\":\"act\",\"code\":\"%s\",\"action\":\"pass\"}", code);
    expect_error(l, &c, 1, msg, "your time has run out");
    v = view_of(&c, 1);
    assert_true(json_is_null(json_object_get(v, "seat"))); /* watching now */
    json_decref(v);
    close_place(&where, l, store, &c);
}

/* The answer to a `history` request, which must come. */
static json_t *ask_history(pb_lobby *l, capture *c, int conn, const char *request)
{
    int mark = c->n;
    say(l, conn, request);
    for (int i = mark; i < c->n; i++)
        if (c->conn[i] == conn && strstr(c->out[i], "\"type\":\"history\""))
            return json_loads(c->out[i], 0, NULL);
    fail_msg("no history for connection %d", conn);
    return NULL;
}

/* The whole log (`history`) for a seat and for spectators: kept by the
 * server and extended move by move, it is what a server that just started
 * rebuilds from the store; after an undo too. */
static void test_history_kept_up_to_date(void **state)
{
    (void)state;
    char err[PB_ERR_LEN], msg[256], code[16], token[64];
    place where;
    static capture c;
    pb_store *store = open_place(&where);
    pb_lobby_io io = {.ctx = &c, .send = on_send, .ask_bot = on_bot};
    pb_lobby *l = pb_lobby_new(store, &io, err, sizeof err);
    clear(&c);
    say(l, 1, "{\"type\":\"create\",\"game\":\"nyslice\",\"players\":2,\"seats\":[\"human\",\"greedy\"],"
              "\"name\":\"Ann\"}");
    joined_seat(&c, 1, code, token);
    char spectate[96], history[96], resume[160];
    snprintf(spectate, sizeof spectate, "{\"type\":\"spectate\",\"code\":\"%s\"}", code);
    snprintf(history, sizeof history, "{\"type\":\"history\",\"code\":\"%s\"}", code);
    snprintf(resume, sizeof resume, "{\"type\":\"resume\",\"code\":\"%s\",\"seat\":0,\"token\":\"%s\"}", code,
             token);
    say(l, 2, spectate);
    json_t *kept[2] = {NULL, NULL};
    /* asked after 1 move, after 3 more (extended), after 15 more (more than
     * the table keeps: rebuilt), then after an undo */
    static const int asked_after[] = {1, 3, 15, -1};
    for (int round = 0; round < 4; round++) {
        if (asked_after[round] < 0) {
            snprintf(msg, sizeof msg, "{\"type\":\"undo\",\"code\":\"%s\"}", code);
            say(l, 1, msg);
        }
        for (int m = 0; m < asked_after[round] && !over(&c, 1); m++) {
            human_move(l, &c, 1, code);
            run_bots(l, &c);
        }
        for (int conn = 1; conn <= 2; conn++) {
            json_decref(kept[conn - 1]);
            kept[conn - 1] = ask_history(l, &c, conn, history);
        }
        /* The same from a server that has just started. */
        pb_lobby_free(l);
        clear(&c);
        l = pb_lobby_new(store, &io, err, sizeof err);
        run_bots(l, &c);
        say(l, 1, resume);
        say(l, 2, spectate);
        for (int conn = 1; conn <= 2; conn++) {
            json_t *cold = ask_history(l, &c, conn, history);
            if (!json_equal(cold, kept[conn - 1]))
                fail_msg("round %d, %s: the kept history differs from the stored one", round,
                         conn == 1 ? "the player" : "a spectator");
            json_decref(cold);
        }
    }
    assert_true(json_array_size(json_object_get(kept[0], "log")) > 12);
    json_decref(kept[0]);
    json_decref(kept[1]);
    close_place(&where, l, store, &c);
}

/* Answer the analysis's review jobs with a made-up review (the lobby's part:
 * the search is ai/analysis.c's, tested there): move 0 a blunder, the rest
 * good. Returns how many were answered. */
static int answer_reviews(pb_lobby *l, capture *c)
{
    int n = 0;
    while (c->njobs) {
        pb_bot_job *job = c->jobs[--c->njobs];
        assert_true(job->review);
        assert_string_equal(job->bot, "hard");
        assert_true(job->seed == pb_derive_seed(1, (uint64_t)job->moves)); /* as pizzabox analyze's default */
        bool bad = job->moves == 0;
        pb_review rv = {.seat = job->seat, .played = job->played, .best = job->played, .played_value = bad ? 0.1 : 0.5,
                        .best_value = 0.5, .loss = bad ? 0.4 : 0, .mark = bad ? PB_MARK_BLUNDER : PB_MARK_GOOD};
        int64_t table = job->table;
        int move = job->moves;
        free(job->state);
        free(job);
        pb_lobby_review(l, table, move, &rv, "played", bad ? "better" : "played");
        n++;
    }
    return n;
}

/* `analyse`: refused before the end; a few reviews out at a time; a second
 * request of the same client refused; a run nobody waits for pauses, and
 * resumes for the next who asks, who gets what was done; once done, kept. */
static void test_analysis_runs_pauses_and_is_kept(void **state)
{
    (void)state;
    char err[PB_ERR_LEN], code[16], token[64], msg[128];
    place where;
    static capture c;
    pb_store *store = open_place(&where);
    pb_lobby_io io = {.ctx = &c, .send = on_send, .ask_bot = on_bot};
    pb_lobby *l = pb_lobby_new(store, &io, err, sizeof err);
    say(l, 1, "{\"type\":\"create\",\"game\":\"nyslice\",\"players\":2,\"seats\":[\"human\",\"random\"],"
              "\"name\":\"Ann\"}");
    joined_seat(&c, 1, code, token);
    snprintf(msg, sizeof msg, "{\"type\":\"analyse\",\"code\":\"%s\"}", code);
    expect_error(l, &c, 1, msg, "only a finished game");
    for (int guard = 0; guard < 500 && !over(&c, 1); guard++) {
        run_bots(l, &c);
        if (!over(&c, 1))
            human_move(l, &c, 1, code);
    }
    json_t *end = sent(&c, 1, "view");
    int total = (int)json_integer_value(json_object_get(end, "moves"));
    json_decref(end);
    assert_true(total > 4);

    say(l, 1, msg);
    json_t *a = sent(&c, 1, "analysis");
    assert_int_equal(json_integer_value(json_object_get(a, "total")), total);
    assert_int_equal(json_integer_value(json_object_get(a, "done")), 0);
    json_decref(a);
    assert_int_equal(c.njobs, 2); /* two out at a time */
    expect_error(l, &c, 1, msg, "one analysis at a time");
    assert_int_equal(c.njobs, 2);

    /* Ann leaves: the two out come back, nothing more is asked. */
    pb_lobby_disconnect(l, 1);
    assert_int_equal(answer_reviews(l, &c), 2);
    assert_int_equal(c.njobs, 0);

    /* A spectator asks: what was done, then the rest as it comes. */
    snprintf(err, sizeof err, "{\"type\":\"spectate\",\"code\":\"%s\"}", code);
    say(l, 2, err);
    clear(&c);
    say(l, 2, msg);
    a = sent(&c, 2, "analysis");
    assert_int_equal(json_integer_value(json_object_get(a, "done")), 2);
    assert_int_equal(json_array_size(json_object_get(a, "reviews")), 2);
    json_t *first = json_array_get(json_object_get(a, "reviews"), 0);
    assert_int_equal(json_integer_value(json_object_get(first, "move")), 0);
    assert_string_equal(json_string_value(json_object_get(first, "mark")), "blunder");
    assert_string_equal(json_string_value(json_object_get(first, "best")), "better");
    json_decref(a);
    int answered = 2;
    while (c.njobs)
        answered += answer_reviews(l, &c);
    assert_int_equal(answered, total); /* each decision asked for once */
    a = sent(&c, 2, "analysis");
    assert_int_equal(json_integer_value(json_object_get(a, "done")), total);
    json_decref(a);

    /* Done: kept. Another spectator gets it all in one answer, no job asked. */
    say(l, 3, err);
    clear(&c);
    say(l, 3, msg);
    a = sent(&c, 3, "analysis");
    assert_int_equal(json_array_size(json_object_get(a, "reviews")), total);
    assert_int_equal(json_integer_value(json_object_get(a, "done")), total);
    json_decref(a);
    assert_int_equal(c.njobs, 0);
    close_place(&where, l, store, &c);
}

/* The present seat of the view `conn` had last of table `code`. */
static bool seat_present(capture *c, int conn, const char *code, int seat)
{
    for (int i = c->n - 1; i >= 0; i--) {
        if (c->conn[i] != conn)
            continue;
        json_t *m = json_loads(c->out[i], 0, NULL);
        if (m && strcmp(json_string_value(json_object_get(m, "type")), "view") == 0 &&
            strcmp(json_string_value(json_object_get(m, "code")), code) == 0) {
            bool here = json_is_true(json_array_get(json_object_get(m, "present"), (size_t)seat));
            json_decref(m);
            return here;
        }
        json_decref(m);
    }
    fail_msg("no view of %s for connection %d", code, conn);
    return false;
}

/* The lobby remembers where each connection is rather than looking at
 * every table: a connection that has been at many tables (its seats taken
 * over by newer connections) is counted right, and when it goes, every seat
 * it had is empty for the others. */
static void test_places_counted_and_let_go(void **state)
{
    (void)state;
    char msg[256], code[16], token[64], codes[PB_LOBBY_TABLES_PER_CONN][16];
    place where;
    pb_store *store = open_place(&where);
    static capture c;
    char err[PB_ERR_LEN];
    pb_lobby_io io = {.ctx = &c, .send = on_send, .ask_bot = on_bot};
    pb_lobby *l = pb_lobby_new(store, &io, err, sizeof err);
    assert_non_null(l);
    const char *create = "{\"type\":\"create\",\"game\":\"theory\",\"players\":2,\"seats\":[\"human\",\"human\"],"
                         "\"name\":\"Al\"}";
    for (int i = 0; i < 20; i++) { /* 20 tables, each seat taken over at once */
        clear(&c);
        say(l, 1, create);
        joined_seat(&c, 1, code, token);
        snprintf(msg, sizeof msg, "{\"type\":\"resume\",\"code\":\"%s\",\"seat\":0,\"token\":\"%s\"}", code, token);
        say(l, 100 + i, msg);
        json_t *resumed = last_of(&c, 100 + i, "joined");
        assert_non_null(resumed);
        json_decref(resumed);
    }
    for (int i = 0; i < PB_LOBBY_TABLES_PER_CONN; i++) { /* at none of them now: room for eight */
        clear(&c);
        say(l, 1, create);
        joined_code(&c, 1, codes[i], sizeof codes[i]);
        snprintf(msg, sizeof msg, "{\"type\":\"spectate\",\"code\":\"%s\"}", codes[i]);
        say(l, 2 + i, msg);
        assert_true(seat_present(&c, 2 + i, codes[i], 0));
    }
    expect_error(l, &c, 1, create, "too many tables");
    clear(&c);
    pb_lobby_disconnect(l, 1);
    assert_int_equal(c.n, 0); /* shown at the next tick, once for every change of the moment */
    pb_lobby_tick(l);
    for (int i = 0; i < PB_LOBBY_TABLES_PER_CONN; i++)
        assert_false(seat_present(&c, 2 + i, codes[i], 0));
    close_place(&where, l, store, &c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_games_hostile_input_and_restart),
                                       cmocka_unit_test(test_waiting_clock_chat_undo_rematch),
                                       cmocka_unit_test(test_rematch_counts_as_a_place),
                                       cmocka_unit_test(test_address_key_ipv6_by_its_64),
                                       cmocka_unit_test(test_hostile_numbers_names_and_restart_grace),
                                       cmocka_unit_test(test_bot_seeds_unpredictable),
                                       cmocka_unit_test(test_codes_never_run_out),
                                       cmocka_unit_test(test_quota_per_client_and_abandoned_tables_closed),
                                       cmocka_unit_test(test_clock_after_a_restart),
                                       cmocka_unit_test(test_clock_and_undo_edges),
                                       cmocka_unit_test(test_history_kept_up_to_date),
                                       cmocka_unit_test(test_analysis_runs_pauses_and_is_kept),
                                       cmocka_unit_test(test_places_counted_and_let_go)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
