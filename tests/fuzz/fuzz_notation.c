/* fuzz_notation.c -- typed moves for every game: any text, in a position
 * reached by random moves, is read as a legal move or refused with a reason. */
#include <stdlib.h>
#include <string.h>

#include "../../core/game.h"
#include "pick_game.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    char err[PB_ERR_LEN] = "";
    pb_game *g = pick_game(data);
    if (!g)
        return 0;
    pb_state *st = pb_state_new(g, data[1]);
    pb_rng rng;
    pb_rng_seed(&rng, data[1]);
    for (int i = 0; i < data[2] && !pb_is_terminal(g, st); i++)
        g->ops->apply(g, st, g->ops->random_action(g, st, &rng), NULL, 0);
    char *text = malloc(size - 2);
    memcpy(text, data + 3, size - 3);
    text[size - 3] = 0;
    pb_action a;
    if (g->ops->action_from_text(g, st, text, &a, err, sizeof err) == 0) {
        if (g->ops->apply(g, st, a, err, sizeof err) != 0)
            abort(); /* read as legal, refused when played */
    } else if (!err[0]) {
        abort();
    }
    free(text);
    free(st);
    pb_game_free(g);
    return 0;
}
