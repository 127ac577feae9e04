/* record.c -- writing, reading and replaying game records. */
#include "record.h"

#include "jsonutil.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RECORD_FORMAT "pizzabox-record"
/* Version 2: the same file, written once New York Slice and New York Pizza
 * Delivery played every rule as printed (Seconds, You Love Veggies, the Any
 * cards, upgrades, the Park Path, Ham, ...). Version 1 files are read, but a
 * game that used a corrected rule may no longer replay: the error says so.
 * Version 3: written once New York Pizza Delivery's rules reached edition 2
 * (games/delivery/delivery.h PD_EDITION); a game of an earlier record is
 * replayed with the config it was played with (the game's
 * config_as_played).
 * Version 4: written once Pizza Theory's rules reached edition 2 (toppings
 * removed in a round refill its replacements; games/theory/theory.h
 * TH_EDITION); earlier Pizza Theory records replay as edition 1. */
#define RECORD_VERSION PB_RECORD_VERSION

struct pb_record {
    char game[32];
    json_t *config;
    uint64_t seed;
    json_t *names;   /* array of strings, or NULL */
    json_t *seats;   /* who plays each seat ("human", a bot spec), or NULL */
    json_t *actions; /* array of strings */
    json_t *deal;    /* {"sha256", "salt"}: the commitment to the seed made before the game, or NULL */
};

pb_record *pb_record_new(const pb_game *g, uint64_t seed)
{
    pb_record *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    snprintf(r->game, sizeof r->game, "%s", g->ops->id);
    r->config = json_deep_copy(g->config);
    r->seed = seed;
    r->actions = json_array();
    return r;
}

void pb_record_free(pb_record *r)
{
    if (!r)
        return;
    json_decref(r->config);
    json_decref(r->names);
    json_decref(r->seats);
    json_decref(r->actions);
    json_decref(r->deal);
    free(r);
}

int pb_record_add(pb_record *r, const pb_game *g, const pb_state *st, pb_action a)
{
    char text[256];
    if (g->ops->action_to_text(g, st, a, text, sizeof text) != 0)
        return -1;
    return json_array_append_new(r->actions, json_string(text));
}

static json_t *string_list(const char *const *v, int n)
{
    json_t *a = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(a, json_string(v[i] ? v[i] : ""));
    return a;
}

void pb_record_set_names(pb_record *r, const char *const *names, int n)
{
    json_decref(r->names);
    r->names = string_list(names, n);
}

void pb_record_set_seats(pb_record *r, const char *const *seats, int n)
{
    json_decref(r->seats);
    r->seats = string_list(seats, n);
}

const char *pb_record_name(const pb_record *r, int seat)
{
    return r->names ? json_string_value(json_array_get(r->names, (size_t)seat)) : NULL;
}

const char *pb_record_seat(const pb_record *r, int seat)
{
    return r->seats ? json_string_value(json_array_get(r->seats, (size_t)seat)) : NULL;
}

void pb_record_truncate(pb_record *r, int nactions)
{
    while ((int)json_array_size(r->actions) > nactions)
        json_array_remove(r->actions, json_array_size(r->actions) - 1);
}

void pb_record_set_deal(pb_record *r, const char *sha256, const char *salt)
{
    json_decref(r->deal);
    r->deal = json_pack("{s:s, s:s}", "sha256", sha256, "salt", salt);
}

const char *pb_record_deal(const pb_record *r, const char **salt)
{
    *salt = json_string_value(json_object_get(r->deal, "salt"));
    return json_string_value(json_object_get(r->deal, "sha256"));
}

uint64_t pb_record_seed(const pb_record *r)
{
    return r->seed;
}

int pb_record_length(const pb_record *r)
{
    return (int)json_array_size(r->actions);
}

json_t *pb_record_to_json(const pb_record *r)
{
    json_t *o = json_pack("{s:s, s:i, s:s, s:O, s:I}", "format", RECORD_FORMAT, "version",
                          RECORD_VERSION, "game", r->game, "config", r->config, "seed",
                          (json_int_t)r->seed);
    if (r->names)
        json_object_set(o, "names", r->names);
    if (r->seats)
        json_object_set(o, "seats", r->seats);
    if (r->deal)
        json_object_set(o, "deal", r->deal);
    json_object_set(o, "actions", r->actions);
    return o;
}

int pb_record_save(const pb_record *r, const char *path, char *err, size_t errlen)
{
    char tmp[4096];
    if (snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid()) >= (int)sizeof tmp) {
        snprintf(err, errlen, "record path too long");
        return -1;
    }
    json_t *o = pb_record_to_json(r);
    int rc = json_dump_file(o, tmp, JSON_INDENT(1) | JSON_COMPACT);
    json_decref(o);
    if (rc != 0 || rename(tmp, path) != 0) {
        snprintf(err, errlen, "cannot write record %s: %s", path, strerror(errno));
        unlink(tmp);
        return -1;
    }
    return 0;
}

char *pb_read_file(const char *path, size_t max_bytes, char *err, size_t errlen)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (len + 1 >= cap) {
            char *nb = cap < max_bytes + 2 ? realloc(buf, cap * 2) : NULL;
            if (!nb) {
                free(buf);
                buf = NULL;
                snprintf(err, errlen, "%s is larger than %zu bytes", path, max_bytes);
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0) {
            if (ferror(f)) {
                snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
                free(buf);
                buf = NULL;
            }
            break;
        }
        if (len > max_bytes) {
            snprintf(err, errlen, "%s is larger than %zu bytes", path, max_bytes);
            free(buf);
            buf = NULL;
            break;
        }
    }
    if (f != stdin)
        fclose(f);
    if (buf) {
        buf[len] = 0;
        if (strlen(buf) != len) {
            snprintf(err, errlen, "%s contains a NUL byte", path);
            free(buf);
            return NULL;
        }
    }
    return buf;
}

void pb_replay_free(pb_replay *r)
{
    free(r->state);
    pb_record_free(r->record);
    pb_game_free(r->game);
    memset(r, 0, sizeof *r);
}

/* An optional list of one string per seat ("names", "seats"). */
static int read_seat_list(const json_t *root, const char *key, pb_replay *out,
                          void (*set)(pb_record *, const char *const *, int), char *err, size_t errlen)
{
    json_t *list = json_object_get(root, key);
    if (!list)
        return 0;
    int n = out->game->players;
    const char *v[PB_MAX_SEATS];
    if (!json_is_array(list) || (int)json_array_size(list) != n) {
        snprintf(err, errlen, "record: '%s' must list one string per seat", key);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (!json_is_string(json_array_get(list, (size_t)i))) {
            snprintf(err, errlen, "record: '%s' must list one string per seat", key);
            return -1;
        }
        v[i] = json_string_value(json_array_get(list, (size_t)i));
    }
    set(out->record, v, n);
    return 0;
}

int pb_replay_text(const char *text, pb_replay *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    json_t *root = pb_json_parse(text, "record: ", err, errlen);
    if (!root)
        return -1;
    int rc = -1;
    if (!json_is_object(root)) {
        snprintf(err, errlen, "record: must be a JSON object");
        goto out;
    }
    static const char *const known[] = {"format", "version", "game", "config", "seed",
                                        "names", "seats", "deal", "actions", NULL};
    if (pb_json_known_keys(root, known, "record: ", "the record", err, errlen))
        goto out;
    json_t *fmt = json_object_get(root, "format"), *ver = json_object_get(root, "version");
    if (fmt && (!json_is_string(fmt) || strcmp(json_string_value(fmt), RECORD_FORMAT) != 0)) {
        snprintf(err, errlen, "record: 'format' must be \"%s\"", RECORD_FORMAT);
        goto out;
    }
    if (ver && (!json_is_integer(ver) || json_integer_value(ver) < 1 || json_integer_value(ver) > RECORD_VERSION)) {
        snprintf(err, errlen, "record: unsupported version (this pizzabox reads versions 1 to %d)",
                 RECORD_VERSION);
        goto out;
    }
    bool before_corrections = ver && json_integer_value(ver) < 2;
    json_t *game = json_object_get(root, "game"), *config = json_object_get(root, "config");
    json_t *seed = json_object_get(root, "seed"), *actions = json_object_get(root, "actions");
    if (!json_is_string(game)) {
        snprintf(err, errlen, "record: 'game' must name the game, e.g. \"nyslice\"");
        goto out;
    }
    if (config && !json_is_object(config)) {
        snprintf(err, errlen, "record: 'config' must be an object");
        goto out;
    }
    if (!json_is_integer(seed) || json_integer_value(seed) < 0 ||
        (uint64_t)json_integer_value(seed) > PB_SEED_MAX) {
        snprintf(err, errlen, "record: 'seed' must be an integer from 0 to 2^53-1");
        goto out;
    }
    if (!json_is_array(actions)) {
        snprintf(err, errlen, "record: 'actions' must be an array of action texts");
        goto out;
    }
    char gerr[PB_ERR_LEN];
    json_t *played = NULL; /* the config as the game was played, when not as written */
    const pb_game_ops *ops = pb_game_find(json_string_value(game));
    if (ops && ops->config_as_played)
        played = ops->config_as_played(config, ver ? (int)json_integer_value(ver) : RECORD_VERSION);
    if (!played)
        played = json_incref(config);
    out->game = pb_game_new(json_string_value(game), played, gerr, sizeof gerr);
    json_decref(played);
    if (!out->game) {
        snprintf(err, errlen, "record: %s", gerr);
        goto out;
    }
    uint64_t s = (uint64_t)json_integer_value(seed);
    out->state = pb_state_new(out->game, s);
    out->record = pb_record_new(out->game, s);
    if (!out->state || !out->record) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    if (read_seat_list(root, "names", out, pb_record_set_names, err, errlen) != 0 ||
        read_seat_list(root, "seats", out, pb_record_set_seats, err, errlen) != 0)
        goto out;
    json_t *deal = json_object_get(root, "deal");
    const char *sha = json_string_value(json_object_get(deal, "sha256")),
               *salt = json_string_value(json_object_get(deal, "salt"));
    if (deal && (!json_is_object(deal) || !sha || !salt || strlen(sha) != 64 || strlen(salt) > 128)) {
        snprintf(err, errlen, "record: 'deal' must be {\"sha256\": 64 hex digits, \"salt\": the salt revealed}");
        goto out;
    }
    if (deal)
        pb_record_set_deal(out->record, sha, salt);
    size_t i;
    json_t *act;
    json_array_foreach(actions, i, act) {
        char why[PB_ERR_LEN] = "it has no notation";
        if (!json_is_string(act)) {
            snprintf(err, errlen, "record: action %zu is not a string", i + 1);
            goto out;
        }
        const char *t = json_string_value(act);
        char q[80];
        pb_quote(t, q, sizeof q);
        pb_action a;
        if (pb_is_terminal(out->game, out->state)) {
            snprintf(err, errlen, "record: action %zu %s: the game is already over", i + 1, q);
            goto out;
        }
        if (out->game->ops->action_from_text(out->game, out->state, t, &a, why, sizeof why) != 0 ||
            pb_record_add(out->record, out->game, out->state, a) != 0 ||
            out->game->ops->apply(out->game, out->state, a, why, sizeof why) != 0) {
            snprintf(err, errlen, "record: action %zu %s does not replay: %s%s", i + 1, q, why,
                     before_corrections ? " (a version 1 record: written before some rules were corrected to the "
                                          "printed rules, so its game may not replay)"
                                        : "");
            goto out;
        }
        out->actions++;
    }
    rc = 0;
out:
    json_decref(root);
    if (rc != 0)
        pb_replay_free(out);
    return rc;
}
