/* pick_game.h -- how the game fuzzers turn their first bytes into a game:
 * byte 0 picks the game and its player count, byte 1's top bit a team game
 * where the game has one (New York Pizza Delivery's co-op), and in a team
 * game its next bits the options: 0x40 Insane, else 0x20 Easier, 0x10 Top
 * Chef; a config the game refuses (1 player without co-op) is tried the
 * other way. */
#ifndef PB_FUZZ_PICK_GAME_H
#define PB_FUZZ_PICK_GAME_H

#include <stdint.h>

#include "../../core/game.h"

static int game_count(void)
{
    int n = 0;
    while (pb_games[n])
        n++;
    return n;
}

/* The game for data[0..1], or NULL when the game takes neither config. */
static pb_game *pick_game(const uint8_t *data)
{
    char err[PB_ERR_LEN];
    const pb_game_ops *ops = pb_games[data[0] % game_count()];
    int span = ops->max_players - ops->min_players + 1;
    json_t *config = json_pack("{s:i}", "players", ops->min_players + data[0] / game_count() % span);
    bool team = data[1] & 0x80;
    if (team) {
        json_object_set_new(config, "coop", json_true());
        if (data[1] & 0x40)
            json_object_set_new(config, "coop_insane", json_true());
        else if (data[1] & 0x20)
            json_object_set_new(config, "coop_easier", json_true());
        if (data[1] & 0x10)
            json_object_set_new(config, "top_chef", json_true());
    }
    pb_game *g = pb_game_new(ops->id, config, err, sizeof err);
    if (!g) {
        if (team) { /* a game without co-op takes none of its options */
            json_object_del(config, "coop");
            json_object_del(config, "coop_insane");
            json_object_del(config, "coop_easier");
            json_object_del(config, "top_chef");
        }
        else
            json_object_set_new(config, "coop", json_true());
        g = pb_game_new(ops->id, config, err, sizeof err);
    }
    json_decref(config);
    return g;
}

#endif
