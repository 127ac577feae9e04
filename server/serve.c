/* serve.c -- the network side of the server (see serve.h). One service
 * thread runs libwebsockets and the lobby; bot workers only compute moves
 * and hand them back through a queue. */
#include "serve.h"

#include <libwebsockets.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../ai/bot.h"
#include "../core/clock.h"
#include "../core/error.h"
#include "lobby.h"

#define MAX_CONNS 8192
#define MAX_MESSAGE 4096   /* docs/protocol.md, "Limits" */
#define MAX_QUEUED 512     /* unread replies before a connection is dropped ... */
#define MAX_QUEUED_BYTES (2 << 20) /* ... or this many bytes of them */
#define RATE 20.0          /* messages a second ... */
#define BURST 40.0         /* ... with bursts of */
#define STRIKES 10         /* refusals for rate told before the rest are ignored */
#define MAX_PER_ADDRESS 256 /* WebSocket connections from one address (loopback: no limit) */
#define TICK_US (100 * 1000) /* lobby housekeeping: bots' paced moves, clocks */

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
    char addr[64];      /* the peer's address, numeric */
} conn;

typedef struct done_move {
    struct done_move *next;
    int64_t table;
    int moves;
    pb_action action;
} done_move;

typedef struct job_node {
    struct job_node *next;
    pb_bot_job *job;
} job_node;

typedef struct server {
    lws_sorted_usec_list_t tick; /* the lobby's housekeeping timer */
    struct lws_context *ctx;
    pb_store *store;
    pb_lobby *lobby;
    conn *conns[MAX_CONNS];
    pthread_mutex_t lock;        /* guards the two queues below */
    pthread_cond_t work;
    job_node *jobs, *jobs_tail;
    done_move *done;
    bool stopping;
} server;

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
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
    job_node *n = malloc(sizeof *n);
    if (!n) {
        free(job->state);
        free(job);
        return;
    }
    n->next = NULL;
    n->job = job;
    pthread_mutex_lock(&s->lock);
    if (s->jobs_tail)
        s->jobs_tail->next = n;
    else
        s->jobs = n;
    s->jobs_tail = n;
    pthread_cond_signal(&s->work);
    pthread_mutex_unlock(&s->lock);
}

static void *bot_worker(void *arg)
{
    server *s = arg;
    for (;;) {
        pthread_mutex_lock(&s->lock);
        while (!s->jobs && !s->stopping)
            pthread_cond_wait(&s->work, &s->lock);
        if (s->stopping) {
            pthread_mutex_unlock(&s->lock);
            return NULL;
        }
        job_node *n = s->jobs;
        s->jobs = n->next;
        if (!s->jobs)
            s->jobs_tail = NULL;
        pthread_mutex_unlock(&s->lock);
        pb_bot_job *job = n->job;
        free(n);
        char err[PB_ERR_LEN];
        pb_bot *bot = pb_bot_new(job->bot, job->seed, err, sizeof err);
        done_move *d = malloc(sizeof *d);
        if (d) {
            /* Every job is answered, even when the bot could not move
             * (moves -1: a stale answer), so the lobby knows the job no
             * longer uses the table's game. */
            d->table = job->table;
            d->moves = bot ? job->moves : -1;
            d->action = bot ? pb_bot_choose(bot, job->game, job->state, job->seat) : 0;
            pthread_mutex_lock(&s->lock);
            d->next = s->done;
            s->done = d;
            pthread_mutex_unlock(&s->lock);
            lws_cancel_service(s->ctx); /* wake the service thread */
        }
        pb_bot_free(bot);
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
        pb_lobby_bot_move(s->lobby, d->table, d->moves, d->action);
        free(d);
        d = next;
    }
}

/* ---- WebSocket ---- */

typedef struct session {
    int id;
} session;

/* The peer's numeric address; an IPv4 peer of a dual-stack socket is
 * written as plain IPv4. */
static void peer_address(struct lws *wsi, char *out, size_t n)
{
    char buf[64] = "";
    lws_get_peer_simple(wsi, buf, sizeof buf);
    snprintf(out, n, "%s", strncmp(buf, "::ffff:", 7) == 0 ? buf + 7 : buf);
}

static bool is_loopback(const char *addr)
{
    return strncmp(addr, "127.", 4) == 0 || strcmp(addr, "::1") == 0;
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
static bool address_allowed(const server *s, struct lws *wsi)
{
    char addr[64];
    peer_address(wsi, addr, sizeof addr);
    if (is_loopback(addr))
        return true; /* benchmarks, tests, and a reverse proxy on this machine */
    int n = 0;
    for (int i = 0; i < MAX_CONNS; i++)
        n += s->conns[i] && strcmp(s->conns[i]->addr, addr) == 0;
    return n < MAX_PER_ADDRESS;
}

static int new_conn(server *s, struct lws *wsi)
{
    for (int i = 0; i < MAX_CONNS; i++)
        if (!s->conns[i]) {
            conn *c = calloc(1, sizeof *c);
            if (!c)
                return -1;
            c->wsi = wsi;
            peer_address(wsi, c->addr, sizeof c->addr);
            c->tokens = BURST;
            c->last = pb_now();
            s->conns[i] = c;
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
    free(c);
    s->conns[id] = NULL;
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
        return ss->id < 0 ? -1 : 0;
    case LWS_CALLBACK_RECEIVE:
        return conn_of(s, ss->id, wsi) ? receive(s, wsi, ss->id, in, len) : -1;
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

static void on_tick(lws_sorted_usec_list_t *sul)
{
    server *s = (server *)(void *)((char *)sul - offsetof(server, tick));
    pb_lobby_tick(s->lobby);
    lws_sul_schedule(s->ctx, 0, &s->tick, on_tick, TICK_US);
}

int pb_serve(const pb_serve_opts *o, char *err, size_t errlen)
{
    server *s = calloc(1, sizeof *s);
    if (!s)
        return pb_errorf(err, errlen, "out of memory");
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->work, NULL);
    int rc = 0;
    if (!(s->store = pb_store_open(o->db, err, errlen)))
        rc = -1;
    pb_lobby_io io = {s, queue_text, ask_bot, NULL, o->bot_pace_ms};
    if (rc == 0 && !(s->lobby = pb_lobby_new(s->store, &io, err, errlen)))
        rc = -1;
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
    info.ka_time = 60; /* TCP keepalive finds dropped clients */
    info.ka_probes = 3;
    info.ka_interval = 10;
    lws_set_log_level(LLL_ERR, NULL);
    if (rc == 0 && !(s->ctx = lws_create_context(&info)))
        rc = pb_errorf(err, errlen, "cannot listen on port %d", o->port);
    pthread_t workers[8];
    int nworkers = 0;
    for (int i = 0; rc == 0 && i < o->bot_threads && i < 8; i++)
        nworkers += pthread_create(&workers[nworkers], NULL, bot_worker, s) == 0;
    if (rc == 0) {
        signal(SIGINT, on_signal);
        signal(SIGTERM, on_signal);
        signal(SIGPIPE, SIG_IGN);
        printf("listening on http://localhost:%d/\n", lws_get_vhost_listen_port(lws_get_vhost_by_name(s->ctx, "default")));
        fflush(stdout);
        lws_sul_schedule(s->ctx, 0, &s->tick, on_tick, TICK_US);
        while (!interrupted && lws_service(s->ctx, 0) >= 0)
            ;
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
    for (int i = 0; i < MAX_CONNS; i++)
        if (s->conns[i])
            drop_conn(s, i);
    while (s->jobs) {
        job_node *n = s->jobs;
        s->jobs = n->next;
        free(n->job->state);
        free(n->job);
        free(n);
    }
    while (s->done) {
        done_move *d = s->done;
        s->done = d->next;
        free(d);
    }
    pb_lobby_free(s->lobby);
    pb_store_close(s->store);
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->work);
    free(s);
    return rc;
}
