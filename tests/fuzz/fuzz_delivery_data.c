/* fuzz_delivery_data.c -- New York Pizza Delivery map and cards files
 * (games/delivery/map.c, cards.c): any bytes are answered, by both loaders,
 * with data or a one-line message, never a crash. A map that is accepted has
 * routes that agree with its route lengths; cards that are accepted have
 * names that read back as the same cards. */
#include <stdlib.h>
#include <string.h>

#include "../../games/delivery/data.h"
#include "../../core/game.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void refusal_says_why(const char *err)
{
    if (!err[0] || strchr(err, '\n'))
        abort();
}

/* The length a route's spaces add up to: a link or a boat trip counts 1, a
 * subway ride 0; -1 if two spaces in a row are none of these. */
static int counted(const pd_map *m, const uint8_t *r, int n, unsigned modes)
{
    unsigned lines = modes & (PD_ROUTE_RED | PD_ROUTE_BLUE);
    int len = 1;
    for (int i = 0; i + 1 < n; i++) {
        const pd_space *a = &m->space[r[i]], *b = &m->space[r[i + 1]];
        bool linked = false;
        for (int k = 0; k < a->nnext; k++)
            linked |= a->next[k] == r[i + 1];
        if (linked || (a->dock && b->dock && (modes & PD_ROUTE_BOAT)))
            len++;
        else if (!((a->subway & lines) && (b->subway & lines)))
            return -1;
    }
    return len;
}

/* Every zone-to-zone route, in every mode, adds up to its length (across
 * the Park Path too). */
static void check_routes(const pd_map *m)
{
    uint8_t r[PD_MAX_ROUTE_ACROSS];
    for (unsigned modes = 0; modes < PD_ROUTE_MODES; modes++)
        for (int a = 0; a < m->nvillages; a++)
            for (int b = 0; b < m->nvillages; b++) {
                int from = m->village[a].zone, to = m->village[b].zone;
                int len = pd_route_length(m, from, to, modes), n = pd_route(m, from, to, modes, r, PD_MAX_SPACES);
                if (len < 1 || n < 1 || r[0] != from || r[n - 1] != to || counted(m, r, n, modes) != len)
                    abort();
                /* across the Park Path (`via park`): none, or one that adds up */
                len = pd_route_length_across(m, from, to, modes);
                n = pd_route_across(m, from, to, modes, r, PD_MAX_ROUTE_ACROSS);
                if (len != -1 && (len < 1 || n < 1 || r[0] != from || r[n - 1] != to || counted(m, r, n, modes) != len))
                    abort();
                if (len == -1 && n != -1)
                    abort();
            }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static pd_data d, def;
    static int ready;
    if (!ready) {
        pd_data_default(&def);
        ready = 1;
    }
    char *text = malloc(size + 1), err[PB_ERR_LEN] = "";
    memcpy(text, data, size);
    text[size] = 0;

    if (pd_map_from_text(text, &d.map, err, sizeof err) == 0) {
        check_routes(&d.map);
        if (pd_cards_default(&d.map, &d.cards, err, sizeof err) != 0)
            refusal_says_why(err);
    } else {
        refusal_says_why(err);
    }

    err[0] = 0;
    d.map = def.map;
    if (pd_cards_from_text(text, &d.map, &d.cards, err, sizeof err) == 0) {
        char name[PD_CARD_NAME_LEN];
        pd_card back;
        for (int s = 0; s < PD_SETS; s++)
            for (int v = 0; v < d.map.nvillages; v++)
                for (int i = 0; i < d.cards.ningredients; i++) {
                    pd_card_word(&d, PD_CARD(v, i), name, sizeof name);
                    if (pd_card_from_text(&d, name, &back, err, sizeof err) != 0 || back != PD_CARD(v, i))
                        abort();
                }
    } else {
        refusal_says_why(err);
    }
    free(text);
    return 0;
}
