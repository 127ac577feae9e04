/* serve.c -- the network side of the server (see serve.h). One service
 * thread runs libwebsockets and the lobby; bot workers only compute moves
 * and hand them back through a queue. The service thread waits in a libev
 * loop (epoll): with thousands of connections, poll() over every socket on
 * each wake-up was the largest single cost. */
#include "serve.h"

#include <arpa/inet.h>
#include <ev.h>
#include <libwebsockets.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ai/bot.h"
#include "../core/clock.h"
#include "../core/error.h"
#include "botqueue.h"
#include "lobby.h"

#define MAX_CONNS 32768 /* WebSocket connections at once (docs/limits.md) */
#define MAX_MESSAGE 4096   /* docs/protocol.md, "Limits" */
#define MAX_QUEUED 512     /* unread replies before a connection is dropped ... */
#define MAX_QUEUED_BYTES (2 << 20) /* ... or this many bytes of them */
#define RATE 20.0          /* messages a second ... */
#define BURST 40.0         /* ... with bursts of */
#define STRIKES 10         /* refusals for rate told before the rest are ignored */
#define MAX_PER_ADDRESS 256 /* WebSocket connections from one address (loopback: no limit) */
#define ADDR_BUCKETS 4096   /* connections counted by address without a scan of them all */
#define TICK_US (100 * 1000) /* lobby housekeeping: bots' paced moves, clocks */
#define QUIET_PASS_TICKS 10 /* quiet connections are looked for once a second */

typedef struct outmsg {
    struct outmsg *next;
    size_t len;
    unsigned char data[]; /* LWS_PRE bytes of room, then the text */
} outmsg;

typedef struct conn {
    struct lws *wsi;
    outmsg *head, *tail;
    int queued;
    size_t queued_bytes;
    char rx[MAX_MESSAGE + 1];
    size_t rxlen;
    bool drop;          /* close now */
    double tokens, last;
    int strikes;
    char addr[64];      /* the client's address, numeric (client_address) */
    int same_addr;      /* the next connection (slot + 1, 0: none) in its address's bucket */
    double heard;       /* when it last sent anything, a pong included */
    bool pinged;        /* a ping went out since then ... */
    bool ping_due;      /* ... or waits for the connection to be writable */
} conn;

typedef struct done_move {
    struct done_move *next;
    int64_t table;
    int moves;
    pb_action action;
    /* A review (analysis): its result and the two moves' texts. */
    bool review, reviewed;
    pb_review rv;
    char played[160], best[160];
} done_move;


typedef struct server {
    lws_sorted_usec_list_t tick; /* the lobby's housekeeping timer */
    struct lws_context *ctx;
    pb_store *store;
    pb_store_listener *listener; /* other servers' changes (PostgreSQL), or NULL */
    struct ev_loop *loop;
    ev_io heard;                 /* the listener's socket, when the loop is libev's */
    int heard_fd;
    pb_lobby *lobby;
    conn *conns[MAX_CONNS];
    int top;                     /* slots at and above it were never used */
    int free_from;               /* no free slot below it */
    int by_addr[ADDR_BUCKETS];   /* connections with an address, by its hash: first slot + 1 (0: none) */
    pthread_mutex_t lock;        /* guards the two queues below */
    pthread_cond_t work;
    pb_botqueue *jobs;           /* fair between the tables' owners */
    done_move *done;
    int workers, reviewing;      /* bot workers, and those reviewing (analysis) now */
    int ping_after_s;            /* a quiet connection is pinged after this, closed after 2.5 times it */
    int ticks;
    bool trust_proxy;
    char proxy[64];              /* the proxy's address (--trust-proxy=ADDRESS), or "": this machine */
    bool stopping;
    unsigned char *scratch; /* a message written at once, after LWS_PRE bytes of room */
    size_t scratch_len;
} server;

static volatile sig_atomic_t interrupted;

/* Without the libev plugin: poll()'s loop, stopped by a flag. */
static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}

/* In the libev loop: SIGINT and SIGTERM end it (a clean stop). */
static void on_ev_signal(struct ev_loop *loop, ev_signal *w, int revents)
{
    (void)w;
    (void)revents;
    ev_break(loop, EVBREAK_ALL);
}

/* ---- Output ---- */

static void queue_text(void *ctx, int id, const char *text)
{
    server *s = ctx;
    conn *c = id >= 0 && id < MAX_CONNS ? s->conns[id] : NULL;
    if (!c || c->drop)
        return;
    size_t len = strlen(text);
    if (c->queued >= MAX_QUEUED || c->queued_bytes + len > MAX_QUEUED_BYTES) {
        /* It does not read: close it now (waiting for it to become
         * writable would wait for ever). */
        c->drop = true;
        lws_set_timeout(c->wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC);
        return;
    }
    if (!c->head && !c->ping_due && !lws_partial_buffered(c->wsi)) {
        /* Nothing waits and the socket takes it: written now, not at the
         * next turn of the loop (under load one turn handles thousands of
         * events, and a view waited for all of them). What the socket does
         * not take, libwebsockets keeps and sends first. */
        if (len + LWS_PRE > s->scratch_len) {
            unsigned char *b = realloc(s->scratch, len + LWS_PRE);
            if (!b)
                return;
            s->scratch = b;
            s->scratch_len = len + LWS_PRE;
        }
        memcpy(s->scratch + LWS_PRE, text, len);
        if (lws_write(c->wsi, s->scratch + LWS_PRE, len, LWS_WRITE_TEXT) < (int)len) {
            c->drop = true;
            lws_set_timeout(c->wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC);
        }
        return;
    }
    outmsg *m = malloc(sizeof *m + LWS_PRE + len);
    if (!m)
        return;
    m->next = NULL;
    m->len = len;
    memcpy(m->data + LWS_PRE, text, len);
    if (c->tail)
        c->tail->next = m;
    else
        c->head = m;
    c->tail = m;
    c->queued++;
    c->queued_bytes += len;
    lws_callback_on_writable(c->wsi);
}

/* ---- Bots ---- */

static void ask_bot(void *ctx, pb_bot_job *job)
{
    server *s = ctx;
    pthread_mutex_lock(&s->lock);
    if (pb_botqueue_push(s->jobs, job) != 0) {
        /* Out of memory: answered as a bot that could not move, so the
         * lobby asks again later and knows the job is over. */
        done_move *d = malloc(sizeof *d);
        if (d) {
            *d = (done_move){.next = s->done, .table = job->table, .moves = job->review ? job->moves : -1,
                             .review = job->review};
            s->done = d;
        }
        free(job->state);
        free(job);
    }
    pthread_cond_signal(&s->work);
    pthread_mutex_unlock(&s->lock);
}

/* A review's answer: the decision reviewed (reviewed false when it could
 * not be), with both moves as spectators see them. */
static void review_job(const pb_bot_job *job, done_move *d)
{
    char err[PB_ERR_LEN];
    const pb_game *g = job->game;
    d->reviewed = pb_review_decision(g, job->state, job->played, job->bot, job->seed, &d->rv, err, sizeof err) == 0;
    if (!d->reviewed)
        fprintf(stderr, "pizzabox serve: a review: %s\n", err);
    g->ops->describe(g, job->state, job->played, PB_SPECTATOR, d->played, sizeof d->played);
    if (d->reviewed)
        g->ops->describe(g, job->state, d->rv.best, PB_SPECTATOR, d->best, sizeof d->best);
}

/* May a worker take a review now? One worker is kept for live bots' moves
 * (when there are two or more): a table's bot never waits for a whole
 * review, only for the live moves before it. */
static bool may_review(const server *s)
{
    return s->workers < 2 || s->reviewing < s->workers - 1;
}

static void *bot_worker(void *arg)
{
    server *s = arg;
    for (;;) {
        pthread_mutex_lock(&s->lock);
        while (!s->stopping && !pb_botqueue_has_live(s->jobs) && (pb_botqueue_empty(s->jobs) || !may_review(s)))
            pthread_cond_wait(&s->work, &s->lock);
        if (s->stopping) {
            pthread_mutex_unlock(&s->lock);
            return NULL;
        }
        pb_bot_job *job = pb_botqueue_pop(s->jobs, may_review(s));
        s->reviewing += job->review;
        pthread_mutex_unlock(&s->lock);
        done_move *d = malloc(sizeof *d);
        if (d && job->review) {
            *d = (done_move){.table = job->table, .moves = job->moves, .review = true};
            review_job(job, d);
        } else if (d) {
            /* Every job is answered, even when the bot could not move
             * (moves -1: a stale answer), so the lobby knows the job no
             * longer uses the table's game. */
            char err[PB_ERR_LEN];
            pb_bot *bot = pb_bot_new(job->bot, job->seed, err, sizeof err);
            *d = (done_move){.table = job->table, .moves = bot ? job->moves : -1};
            d->action = bot ? pb_bot_choose(bot, job->game, job->state, job->seat) : 0;
            pb_bot_free(bot);
        }
        pthread_mutex_lock(&s->lock);
        if (job->review) {
            s->reviewing--;
            pthread_cond_signal(&s->work); /* a review may be taken again */
        }
        if (d) {
            d->next = s->done;
            s->done = d;
        }
        pthread_mutex_unlock(&s->lock);
        if (d)
            lws_cancel_service(s->ctx); /* wake the service thread */
        free(job->state);
        free(job);
    }
}

static void take_bot_moves(server *s)
{
    pthread_mutex_lock(&s->lock);
    done_move *d = s->done;
    s->done = NULL;
    pthread_mutex_unlock(&s->lock);
    while (d) {
        done_move *next = d->next;
        if (d->review)
            pb_lobby_review(s->lobby, d->table, d->moves, d->reviewed ? &d->rv : NULL, d->played, d->best);
        else
            pb_lobby_bot_move(s->lobby, d->table, d->moves, d->action);
        free(d);
        d = next;
    }
}

/* ---- WebSocket ---- */

typedef struct session {
    int id;
} session;

static bool is_loopback(const char *addr)
{
    return strncmp(addr, "127.", 4) == 0 || strcmp(addr, "::1") == 0;
}

void pb_address_key(char *addr, size_t n)
{
    unsigned char bytes[16];
    if (!strchr(addr, ':') || inet_pton(AF_INET6, addr, bytes) != 1)
        return;
    memset(bytes + 8, 0, 8);
    char net[INET6_ADDRSTRLEN];
    if (inet_ntop(AF_INET6, bytes, net, sizeof net))
        snprintf(addr, n, "%s/64", net);
}

/* The client's numeric address, as the limits count it (an IPv6 one by its
 * /64, pb_address_key); an IPv4 peer of a dual-stack socket is written as
 * plain IPv4. Behind a reverse proxy
 * (--trust-proxy: on this machine, or at the address given) it is the last
 * address the proxy put in X-Forwarded-For; otherwise a loopback peer is ""
 * and counts for no one (tests and benchmarks). */
#define ADDRESS_LEN 64
static void client_address(const server *s, struct lws *wsi, char out[ADDRESS_LEN])
{
    char buf[256] = "";
    lws_get_peer_simple(wsi, buf, ADDRESS_LEN);
    snprintf(out, ADDRESS_LEN, "%.63s", strncmp(buf, "::ffff:", 7) == 0 ? buf + 7 : buf);
    bool from_proxy = s->trust_proxy && (s->proxy[0] ? strcmp(out, s->proxy) == 0 : is_loopback(out));
    if (!from_proxy && !is_loopback(out)) {
        pb_address_key(out, ADDRESS_LEN);
        return;
    }
    out[0] = 0;
    if (!from_proxy)
        return;
    /* The whole header, however long (a client may send one of its own,
     * which the proxy appends to): its last address is the proxy's word. */
    int len = lws_hdr_total_length(wsi, WSI_TOKEN_X_FORWARDED_FOR);
    char *all = len > 0 ? malloc((size_t)len + 1) : NULL;
    if (all && lws_hdr_copy(wsi, all, len + 1, WSI_TOKEN_X_FORWARDED_FOR) > 0) {
        const char *last = strrchr(all, ',');
        last = last ? last + 1 : all;
        while (*last == ' ')
            last++;
        snprintf(out, ADDRESS_LEN, "%.63s", last);
    }
    free(all);
    if (!out[0]) /* no usable header: one client for the limits, never none */
        snprintf(out, ADDRESS_LEN, "proxied, unknown");
    pb_address_key(out, ADDRESS_LEN);
}

/* The WebSocket is at /ws only, and a browser's page must come from this
 * server (its Origin names the host it asked): another site's page cannot
 * play in its visitors' names. Clients that are not browsers send no
 * Origin. */
static bool upgrade_allowed(struct lws *wsi)
{
    char uri[256] = "", origin[256] = "", host[256] = "";
    if (lws_hdr_copy(wsi, uri, sizeof uri, WSI_TOKEN_GET_URI) < 0 || strcmp(uri, "/ws") != 0)
        return false;
    if (lws_hdr_total_length(wsi, WSI_TOKEN_ORIGIN) <= 0)
        return true;
    if (lws_hdr_copy(wsi, origin, sizeof origin, WSI_TOKEN_ORIGIN) < 0 ||
        lws_hdr_copy(wsi, host, sizeof host, WSI_TOKEN_HOST) < 0)
        return false;
    const char *rest = strstr(origin, "://");
    return rest && host[0] && strcmp(rest + 3, host) == 0;
}

/* May one more WebSocket connection come from this peer? */
static unsigned addr_bucket(const char *addr)
{
    unsigned h = 2166136261u;
    for (const char *c = addr; *c; c++)
        h = (h ^ (unsigned char)*c) * 16777619u;
    return h % ADDR_BUCKETS;
}

static bool address_allowed(const server *s, struct lws *wsi)
{
    char addr[64];
    client_address(s, wsi, addr);
    if (!addr[0])
        return true; /* counts for no one */
    int n = 0;
    for (int i = s->by_addr[addr_bucket(addr)]; i; i = s->conns[i - 1]->same_addr)
        n += strcmp(s->conns[i - 1]->addr, addr) == 0;
    return n < MAX_PER_ADDRESS;
}

static int new_conn(server *s, struct lws *wsi)
{
    for (int i = s->free_from; i < MAX_CONNS; i++)
        if (!s->conns[i]) {
            conn *c = calloc(1, sizeof *c);
            if (!c)
                return -1;
            c->wsi = wsi;
            client_address(s, wsi, c->addr);
            c->tokens = BURST;
            c->last = c->heard = pb_now();
            s->conns[i] = c;
            s->free_from = i + 1;
            if (i >= s->top)
                s->top = i + 1;
            if (c->addr[0]) {
                int *head = &s->by_addr[addr_bucket(c->addr)];
                c->same_addr = *head;
                *head = i + 1;
            }
            return i;
        }
    return -1;
}

static void drop_conn(server *s, int id)
{
    conn *c = id >= 0 && id < MAX_CONNS ? s->conns[id] : NULL;
    if (!c)
        return;
    pb_lobby_disconnect(s->lobby, id);
    while (c->head) {
        outmsg *m = c->head;
        c->head = m->next;
        free(m);
    }
    if (c->addr[0]) /* out of its address's bucket */
        for (int *at = &s->by_addr[addr_bucket(c->addr)]; *at; at = &s->conns[*at - 1]->same_addr)
            if (*at == id + 1) {
                *at = c->same_addr;
                break;
            }
    free(c);
    s->conns[id] = NULL;
    if (id < s->free_from)
        s->free_from = id;
}

/* Token bucket: false when the connection sends too fast. */
static bool within_rate(conn *c)
{
    double now = pb_now();
    c->tokens += (now - c->last) * RATE;
    c->last = now;
    if (c->tokens > BURST) {
        c->tokens = BURST;
        c->strikes = 0; /* calm again: earlier bursts are forgiven */
    }
    if (c->tokens < 1)
        return false;
    c->tokens -= 1;
    return true;
}

static int receive(server *s, struct lws *wsi, int id, const void *in, size_t len)
{
    conn *c = s->conns[id];
    c->heard = pb_now();
    c->pinged = false;
    if (c->rxlen + len > MAX_MESSAGE) {
        lws_close_reason(wsi, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE, (unsigned char *)"message too large", 17);
        return -1;
    }
    memcpy(c->rx + c->rxlen, in, len);
    c->rxlen += len;
    if (!lws_is_final_fragment(wsi) || lws_remaining_packet_payload(wsi))
        return 0;
    size_t n = c->rxlen;
    c->rxlen = 0;
    if (!within_rate(c)) {
        /* Told a few times, then ignored until it calms down: a flood costs
         * the server nothing, and others are served on. */
        if (++c->strikes <= STRIKES)
            queue_text(s, id, "{\"type\":\"error\",\"message\":\"too many messages: slow down\"}");
        return 0;
    }
    pb_lobby_message(s->lobby, id, c->rx, n);
    return 0;
}

static int write_next(server *s, struct lws *wsi, int id)
{
    conn *c = s->conns[id];
    if (c->drop)
        return -1;
    if (c->ping_due) {
        /* With a payload: libwebsockets hands an empty pong to no one. */
        unsigned char ping[LWS_PRE + 2] = {[LWS_PRE] = 'p', [LWS_PRE + 1] = 'b'};
        c->ping_due = false;
        if (lws_write(wsi, ping + LWS_PRE, 2, LWS_WRITE_PING) < 2)
            return -1;
        if (c->head)
            lws_callback_on_writable(wsi);
        return 0;
    }
    outmsg *m = c->head;
    if (!m)
        return 0;
    if (lws_write(wsi, m->data + LWS_PRE, m->len, LWS_WRITE_TEXT) < (int)m->len)
        return -1;
    c->head = m->next;
    if (!c->head)
        c->tail = NULL;
    c->queued--;
    c->queued_bytes -= m->len;
    free(m);
    if (c->head)
        lws_callback_on_writable(wsi);
    return 0;
}

/* The connection in slot id if it is this wsi's, else NULL. */
static conn *conn_of(const server *s, int id, const struct lws *wsi)
{
    conn *c = id >= 0 && id < MAX_CONNS ? s->conns[id] : NULL;
    return c && c->wsi == wsi ? c : NULL;
}

static int ws_callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
    server *s = lws_context_user(lws_get_context(wsi));
    session *ss = user;
    switch (reason) {
    case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
        /* Before the handshake is answered: non-zero refuses the upgrade.
         * A refused connection is still CLOSED later: it must not name a
         * slot (its session starts zeroed, which is slot 0). */
        if (ss)
            ss->id = -1;
        return upgrade_allowed(wsi) && address_allowed(s, wsi) ? 0 : -1;
    case LWS_CALLBACK_ESTABLISHED:
        /* Again here: handshakes made at the same moment all passed the
         * filter before any of them was counted. */
        ss->id = address_allowed(s, wsi) ? new_conn(s, wsi) : -1;
        if (ss->id >= 0)
            pb_lobby_connect(s->lobby, ss->id, s->conns[ss->id]->addr);
        return ss->id < 0 ? -1 : 0;
    case LWS_CALLBACK_RECEIVE:
        return conn_of(s, ss->id, wsi) ? receive(s, wsi, ss->id, in, len) : -1;
    case LWS_CALLBACK_RECEIVE_PONG:
        if (!conn_of(s, ss->id, wsi))
            return -1;
        s->conns[ss->id]->heard = pb_now();
        s->conns[ss->id]->pinged = false;
        return 0;
    case LWS_CALLBACK_SERVER_WRITEABLE:
        return conn_of(s, ss->id, wsi) ? write_next(s, wsi, ss->id) : -1;
    case LWS_CALLBACK_CLOSED:
        if (conn_of(s, ss->id, wsi))
            drop_conn(s, ss->id);
        return 0;
    case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
        take_bot_moves(s);
        return 0;
    default:
        /* Everything else (serving the web client's files) is libwebsockets' own. */
        return lws_callback_http_dummy(wsi, reason, user, in, len);
    }
}

static const struct lws_protocols protocols[] = {
    {"pizzabox", ws_callback, sizeof(session), MAX_MESSAGE, 0, NULL, 0},
    {NULL, NULL, 0, 0, 0, NULL, 0},
};

/* ---- Running ---- */

/* Dead and silent connections go: pinged when quiet, closed when nothing
 * came back (browsers answer pings by themselves). Done here, in one pass
 * a second, rather than with libwebsockets' timer per connection: each
 * message re-armed that timer in a sorted list of every connection's. */
static void close_quiet(server *s)
{
    double now = pb_now();
    for (int i = 0; i < s->top; i++) {
        conn *c = s->conns[i];
        if (!c || c->drop)
            continue;
        double quiet = now - c->heard;
        if (quiet >= 2.5 * s->ping_after_s) {
            c->drop = true;
            lws_set_timeout(c->wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC);
        } else if (quiet >= s->ping_after_s && !c->pinged) {
            c->pinged = c->ping_due = true;
            lws_callback_on_writable(c->wsi);
        }
    }
}

/* ---- Other servers on the same database ---- */

static void on_changed(void *ctx, int64_t table, unsigned what)
{
    pb_lobby_changed(((server *)ctx)->lobby, table, what);
}

static void on_heard(struct ev_loop *loop, ev_io *w, int revents);

/* What other servers changed, taken in; the socket watched again if its
 * connection was opened again. Called when it is readable and at every
 * tick (which also opens a lost connection again). */
static void hear_others(server *s)
{
    if (!s->listener)
        return;
    /* A lost connection's socket is no longer watched (it would be readable
     * for ever); the one opened again (maybe with the same number) is. */
    int fd = pb_store_listener_drain(s->listener, on_changed, s) < 0 ? -1 : pb_store_listener_fd(s->listener);
    if (s->loop && fd != s->heard_fd) {
        if (s->heard_fd >= 0)
            ev_io_stop(s->loop, &s->heard);
        s->heard_fd = fd;
        if (fd >= 0) {
            ev_io_init(&s->heard, on_heard, fd, EV_READ);
            s->heard.data = s;
            ev_io_start(s->loop, &s->heard);
        }
    }
}

static void on_heard(struct ev_loop *loop, ev_io *w, int revents)
{
    (void)loop;
    (void)revents;
    hear_others(w->data);
}

static void on_tick(lws_sorted_usec_list_t *sul)
{
    server *s = (server *)(void *)((char *)sul - offsetof(server, tick));
    pb_lobby_tick(s->lobby);
    hear_others(s);
    if (++s->ticks % QUIET_PASS_TICKS == 0)
        close_quiet(s);
    lws_sul_schedule(s->ctx, 0, &s->tick, on_tick, TICK_US);
}

int pb_serve(const pb_serve_opts *o, char *err, size_t errlen)
{
    server *s = calloc(1, sizeof *s);
    if (!s)
        return pb_errorf(err, errlen, "out of memory");
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->work, NULL);
    int rc = (s->jobs = pb_botqueue_new()) ? 0 : pb_errorf(err, errlen, "out of memory");
    if (rc == 0 && !(s->store = pb_store_open(o->db, err, errlen)))
        rc = -1;
    s->trust_proxy = o->trust_proxy;
    snprintf(s->proxy, sizeof s->proxy, "%s", o->proxy ? o->proxy : "");
    s->ping_after_s = o->ping_after_s > 0 ? o->ping_after_s : 30;
    pb_lobby_io io = {.ctx = s, .send = queue_text, .ask_bot = ask_bot, .bot_pace_ms = o->bot_pace_ms,
                      .tables_per_client = o->tables_per_client, .close_after_hours = o->close_after_hours,
                      .max_tables = o->max_tables};
    if (rc == 0 && !(s->lobby = pb_lobby_new(s->store, &io, err, errlen)))
        rc = -1;
    s->heard_fd = -1;
    if (rc == 0) {
        err[0] = '\0';
        if (!(s->listener = pb_store_listen(s->store, o->db, err, errlen)) && err[0])
            rc = -1;
    }
    static const struct lws_protocol_vhost_options markdown = {NULL, NULL, ".md", "text/plain; charset=utf-8"};
    static const struct lws_protocol_vhost_options modules = {NULL, NULL, ".mjs", "text/javascript"};
    /* On every response: the pages may not be framed by another site (a
     * click on a hidden table is a move), nor their types guessed. */
    static const struct lws_protocol_vhost_options no_sniff = {NULL, NULL, "x-content-type-options:", "nosniff"};
    static const struct lws_protocol_vhost_options no_referrer = {&no_sniff, NULL, "referrer-policy:", "no-referrer"};
    static const struct lws_protocol_vhost_options no_frames_csp = {&no_referrer, NULL, "content-security-policy:",
                                                                    "frame-ancestors 'none'"};
    static const struct lws_protocol_vhost_options no_frames = {&no_frames_csp, NULL, "x-frame-options:", "DENY"};
    static struct lws_http_mount docs_mount, web_mount;
    docs_mount = (struct lws_http_mount){.mountpoint = "/docs", .origin = o->docs, .origin_protocol = LWSMPRO_FILE,
                                         .mountpoint_len = 5, .extra_mimetypes = &markdown};
    web_mount = (struct lws_http_mount){.mount_next = &docs_mount, .mountpoint = "/", .origin = o->web,
                                        .def = "index.html", .origin_protocol = LWSMPRO_FILE, .mountpoint_len = 1,
                                        .extra_mimetypes = &modules};
    struct lws_context_creation_info info;
    memset(&info, 0, sizeof info);
    info.port = o->port;
    info.protocols = protocols;
    info.mounts = &web_mount;
    info.user = s;
    info.headers = &no_frames;
    /* No timer per connection (close_quiet does their work). */
    static const lws_retry_bo_t no_validity_timers = {.secs_since_valid_hangup = 0};
    info.retry_and_idle_policy = &no_validity_timers;
    info.ka_time = 60; /* TCP keepalive finds dropped clients */
    info.ka_probes = 3;
    info.ka_interval = 10;
    lws_set_log_level(LLL_ERR, NULL);
    /* A descriptor per connection: the soft limit (often 1,024) raised as
     * far as the hard one allows, before libwebsockets sizes its tables. */
    struct rlimit files;
    if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max &&
        files.rlim_cur < (rlim_t)MAX_CONNS + 256) {
        files.rlim_cur = files.rlim_max < (rlim_t)MAX_CONNS + 256 ? files.rlim_max : (rlim_t)MAX_CONNS + 256;
        setrlimit(RLIMIT_NOFILE, &files);
    }
    /* libev's epoll through libwebsockets' plugin (Debian's
     * libwebsockets-evlib-ev); without it, libwebsockets' own poll(). */
    struct ev_loop *loop = rc == 0 ? ev_loop_new(EVFLAG_AUTO) : NULL;
    void *foreign[1] = {loop};
    s->loop = loop;
    if (loop) {
        info.options |= LWS_SERVER_OPTION_LIBEV;
        info.foreign_loops = foreign;
        if (!(s->ctx = lws_create_context(&info))) {
            fprintf(stderr, "pizzabox serve: no libev support in libwebsockets (libwebsockets-evlib-ev): "
                            "serving with poll(), slower with many connections\n");
            ev_loop_destroy(loop);
            loop = s->loop = NULL;
            info.options &= ~(uint64_t)LWS_SERVER_OPTION_LIBEV;
            info.foreign_loops = NULL;
        }
    }
    if (rc == 0 && !s->ctx && !(s->ctx = lws_create_context(&info)))
        rc = pb_errorf(err, errlen, "cannot listen on port %d", o->port);
    pthread_t workers[8];
    int nworkers = 0;
    for (int i = 0; rc == 0 && i < o->bot_threads && i < 8; i++)
        nworkers += pthread_create(&workers[nworkers], NULL, bot_worker, s) == 0;
    pthread_mutex_lock(&s->lock);
    s->workers = nworkers;
    pthread_mutex_unlock(&s->lock);
    ev_signal sigint, sigterm;
    if (rc == 0) {
        signal(SIGPIPE, SIG_IGN);
        printf("listening on http://localhost:%d/\n", lws_get_vhost_listen_port(lws_get_vhost_by_name(s->ctx, "default")));
        fflush(stdout);
        lws_sul_schedule(s->ctx, 0, &s->tick, on_tick, TICK_US);
        if (loop) {
            ev_signal_init(&sigint, on_ev_signal, SIGINT);
            ev_signal_init(&sigterm, on_ev_signal, SIGTERM);
            ev_signal_start(loop, &sigint);
            ev_signal_start(loop, &sigterm);
            ev_run(loop, 0);
            ev_signal_stop(loop, &sigint);
            ev_signal_stop(loop, &sigterm);
            if (s->heard_fd >= 0)
                ev_io_stop(loop, &s->heard);
        } else {
            signal(SIGINT, on_signal);
            signal(SIGTERM, on_signal);
            while (!interrupted && lws_service(s->ctx, 0) >= 0)
                ;
        }
        lws_sul_cancel(&s->tick);
    }
    pthread_mutex_lock(&s->lock);
    s->stopping = true;
    pthread_cond_broadcast(&s->work);
    pthread_mutex_unlock(&s->lock);
    for (int i = 0; i < nworkers; i++)
        pthread_join(workers[i], NULL);
    if (s->ctx)
        lws_context_destroy(s->ctx);
    if (loop) { /* what libwebsockets left to close in the loop, then the loop */
        ev_run(loop, 0);
        ev_loop_destroy(loop);
    }
    for (int i = 0; i < MAX_CONNS; i++)
        if (s->conns[i])
            drop_conn(s, i);
    pb_botqueue_free(s->jobs);
    while (s->done) {
        done_move *d = s->done;
        s->done = d->next;
        free(d);
    }
    pb_lobby_free(s->lobby);
    pb_store_listener_close(s->listener);
    pb_store_close(s->store);
    free(s->scratch);
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->work);
    free(s);
    return rc;
}
