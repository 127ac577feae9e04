/* serve.h -- the game server: libwebsockets for HTTP (the web client) and
 * the WebSocket protocol, a lobby of tables, SQLite underneath, and bot
 * moves on worker threads so the network never waits for a bot. */
#ifndef PB_SERVE_H
#define PB_SERVE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct pb_serve_opts {
    int port;             /* 0: any free port (reported by pb_serve_port) */
    const char *db;       /* SQLite file */
    const char *web;      /* directory of the web client */
    const char *docs;     /* directory served at /docs (rules texts) */
    int bot_threads;
    int bot_pace_ms;      /* a bot's move no sooner than this after the move before */
    int tables_per_client; /* unfinished tables one address may make (0: no limit) */
    int max_tables;       /* unfinished tables on the server */
    int close_after_hours; /* unfinished tables nobody is at are closed after this (0: never) */
    int ping_after_s;     /* a quiet connection is pinged after this, closed after 2.5 times it (0: 30) */
    bool trust_proxy;     /* behind a reverse proxy: the client is in X-Forwarded-For ... */
    const char *proxy;    /* ... the proxy's address, or NULL: on this machine */
} pb_serve_opts;

/* A client's address as the limits count it (in place; n: its room): an
 * IPv6 address stands for its /64 network ("2001:db8:1:2::/64"), as one
 * machine or home usually holds a whole /64 and could otherwise count as
 * countless clients; IPv4 and anything else stay as they are. */
void pb_address_key(char *addr, size_t n);

/* Run the server until SIGINT/SIGTERM. Prints "listening on URL" once
 * ready. Returns 0, or -1 with a message. */
int pb_serve(const pb_serve_opts *opts, char *err, size_t errlen);

#endif
