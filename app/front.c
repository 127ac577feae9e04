/* front.c -- the terminal front end of each game (front.h). */
#include "front.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "delivery_tui.h"
#include "textbuf.h"
#include "nyslice_tui.h"
#include "nyslice_ui.h"
#include "theory_tui.h"

extern const char pb_data_nyslice_rules[];
extern const char pb_data_theory_rules[];
extern const char pb_data_delivery_rules[];

static const pb_front fronts[] = {
    {"nyslice", nys_tui_table, nys_tui_prompt, nys_ui_translate, nys_tui_banner, nys_print_guest_check,
     pb_data_nyslice_rules, "overview setup divide take place scoring supreme combo anchovy\n"
                            "                  and every Special (e.g. rules dibs)", NULL, "Special"},
    {"theory", th_tui_table, th_tui_prompt, th_ui_translate, th_tui_banner, th_print_result,
     pb_data_theory_rules, "overview setup add cut slices safety end two-players", NULL, NULL},
    {"delivery", dlv_tui_table, dlv_tui_prompt, dlv_ui_translate, dlv_tui_banner, dlv_print_result,
     pb_data_delivery_rules, "overview setup turn market reputation deliver distance powers\n"
                             "                  instant cheese inspector end coop notation", dlv_tui_gained, "card"},
};

const pb_front *pb_front_find(const char *game_id)
{
    for (size_t i = 0; i < sizeof fronts / sizeof fronts[0]; i++)
        if (strcmp(fronts[i].game, game_id) == 0)
            return &fronts[i];
    return NULL;
}

const pb_front *pb_front_for(const pb_game *g)
{
    return pb_front_find(g->ops->id);
}

char *pb_front_banner(const pb_front *f, const pb_game *g, const pb_state *st, const pb_tui_opts *o,
                      int *last_round)
{
    json_t *v = g->ops->view(g, st, o->you);
    int round = (int)json_integer_value(json_object_get(v, "round"));
    char *text = round != *last_round ? f->round_banner(v, o) : NULL;
    if (text)
        *last_round = round;
    json_decref(v);
    return text;
}

void pb_front_news(const pb_game *g, const pb_state *before, const pb_state *after, const char *const *names,
                   int indent)
{
    char news[768];
    pb_news(g, before, after, names, news, sizeof news);
    if (!*news)
        return;
    tb b = {0};
    tb_para(&b, news, indent);
    tb_nl(&b);
    char *text = tb_done(&b);
    fputs(text ? text : "", stdout);
    free(text);
}
