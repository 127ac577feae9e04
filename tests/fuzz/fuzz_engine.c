/* fuzz_engine.c -- every engine through the game interface: the input picks
 * the game, the player count, the seed and every move; after each move the
 * game's invariants must hold (every slice, every topping accounted for),
 * and every action's text must read back as itself;
 * at the end the record must replay to the same state, and a seat's view
 * must not change when what it cannot see is reshuffled. */
#include <stdlib.h>
#include <string.h>

#include "../../core/record.h"
#include "pick_game.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void same_view(const pb_game *g, const pb_state *st, int seat, uint64_t seed)
{
    pb_state *det = pb_state_clone(g, st);
    pb_rng rng;
    pb_rng_seed(&rng, seed);
    g->ops->determinize(g, det, seat, &rng);
    json_t *a = g->ops->view(g, st, seat), *b = g->ops->view(g, det, seat);
    if (!json_equal(a, b))
        abort(); /* the view showed something hidden */
    json_decref(a);
    json_decref(b);
    free(det);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    static pb_action acts[PB_MAX_ACTIONS];
    char err[PB_ERR_LEN], text[256];
    pb_game *g = pick_game(data);
    if (!g)
        return 0;
    uint64_t seed = (uint64_t)data[1] << 8 | data[2];
    pb_state *st = pb_state_new(g, seed);
    pb_record *rec = pb_record_new(g, seed);
    for (size_t i = 3; i < size && !pb_is_terminal(g, st); i++) {
        int n = g->ops->legal_actions(g, st, acts);
        pb_action a = acts[data[i] % n], back;
        if (g->ops->action_to_text(g, st, a, text, sizeof text) != 0 ||
            g->ops->action_from_text(g, st, text, &back, err, sizeof err) != 0)
            abort();
        pb_state *x = pb_state_clone(g, st), *y = pb_state_clone(g, st);
        g->ops->apply(g, x, a, NULL, 0);
        g->ops->apply(g, y, back, NULL, 0); /* the same move, as text said it */
        if (!pb_state_equal(g, x, y))
            abort();
        free(x);
        free(y);
        pb_record_add(rec, g, st, a);
        if (g->ops->apply(g, st, a, err, sizeof err) != 0 ||
            g->ops->check_invariants(g, st, err, sizeof err) != 0)
            abort();
        if (data[i] % 7 == 0)
            same_view(g, st, data[i] % g->players, seed + i);
    }
    json_t *j = pb_record_to_json(rec);
    char *dump = json_dumps(j, 0);
    pb_replay r;
    if (pb_replay_text(dump, &r, err, sizeof err) != 0 || !pb_state_equal(g, r.state, st))
        abort();
    pb_replay_free(&r);
    free(dump);
    json_decref(j);
    pb_record_free(rec);
    free(st);
    pb_game_free(g);
    return 0;
}
