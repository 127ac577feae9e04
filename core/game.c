/* game.c -- game registry and the generic state helpers. */
#include "game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const pb_game_ops nys_game_ops;
extern const pb_game_ops th_game_ops;
extern const pb_game_ops pd_game_ops;

const pb_game_ops *const pb_games[] = {&nys_game_ops, &th_game_ops, &pd_game_ops, NULL};

const pb_game_ops *pb_game_find(const char *id)
{
    for (int i = 0; pb_games[i]; i++)
        if (strcmp(pb_games[i]->id, id) == 0)
            return pb_games[i];
    return NULL;
}

pb_game *pb_game_new(const char *id, const json_t *config, char *err, size_t errlen)
{
    const pb_game_ops *ops = pb_game_find(id);
    if (!ops) {
        snprintf(err, errlen, "unknown game '%s'", id);
        return NULL;
    }
    pb_game *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    g->ops = ops;
    json_t *empty = NULL;
    if (!config)
        config = empty = json_object();
    int rc = ops->rules_new(config, &g->rules, &g->config, &g->players, err, errlen);
    json_decref(empty);
    if (rc != 0) {
        free(g);
        return NULL;
    }
    return g;
}

void pb_game_free(pb_game *g)
{
    if (!g)
        return;
    g->ops->rules_free(g->rules);
    json_decref(g->config);
    free(g);
}

pb_state *pb_state_new(const pb_game *g, uint64_t seed)
{
    pb_state *st = malloc(g->ops->state_size);
    if (st)
        g->ops->init(g, st, seed);
    return st;
}

pb_state *pb_state_clone(const pb_game *g, const pb_state *st)
{
    pb_state *c = malloc(g->ops->state_size);
    if (c)
        memcpy(c, st, g->ops->state_size);
    return c;
}

void pb_state_copy(const pb_game *g, pb_state *dst, const pb_state *src)
{
    memcpy(dst, src, g->ops->state_size);
}

bool pb_state_equal(const pb_game *g, const pb_state *a, const pb_state *b)
{
    size_t n = g->ops->position_size ? g->ops->position_size : g->ops->state_size;
    return memcmp(a, b, n) == 0;
}

void pb_legal_each(const pb_game *g, const pb_state *st, const pb_action *a, int n, bool *legal)
{
    if (g->ops->legal_each) {
        g->ops->legal_each(g, st, a, n, legal);
        return;
    }
    for (int i = 0; i < n; i++)
        legal[i] = g->ops->is_legal(g, st, a[i]);
}

bool pb_is_formality(const pb_game *g, const pb_state *st)
{
    static _Thread_local pb_action legal[PB_MAX_ACTIONS];
    return pb_is_asked_alike(g, st) && g->ops->legal_actions(g, st, legal) == 1;
}

int pb_apply_text(const pb_game *g, pb_state *st, const char *text, char *err, size_t errlen)
{
    pb_action a;
    if (g->ops->action_from_text(g, st, text, &a, err, errlen) != 0)
        return -1;
    return g->ops->apply(g, st, a, err, errlen);
}
