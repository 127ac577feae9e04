/* nyslice_text.c -- New York Slice rendered as plain text for terminals. */
#include <string.h>

#include "../games/nyslice/nyslice.h"
#include "cli.h"

/* A type count in half slices, as people write it: "-", "1", "1.5". */
static void half_count(int count2, char *buf, size_t n)
{
    if (count2 == 0)
        snprintf(buf, n, "-");
    else if (count2 % 2)
        snprintf(buf, n, "%d.5", count2 / 2);
    else
        snprintf(buf, n, "%d", count2 / 2);
}

void nys_print_guest_check(FILE *out, const pb_game *g, const pb_state *pst, const char *const *names)
{
    const nys_state *st = (const nys_state *)(const void *)pst;
    const nys_rules *rules = g->rules;
    nys_guest_check gc;
    nys_score_state(st, &gc);
    int n = gc.players;
    /* 24 columns of labels and 9 per player: 78 for six. */
    fprintf(out, "%-24s", "GUEST CHECK");
    for (int p = 0; p < n; p++)
        fprintf(out, " %8.8s", names[p]);
    fprintf(out, "\n");
    for (int t = NYS_MIN_TYPE; t <= NYS_MAX_TYPE; t++) {
        if (!nys_type_in_play(rules, t))
            continue; /* NYS-S1: removed at this player count */
        char label[40];
        snprintf(label, sizeof label, "%s (%d)", rules->deck.type_name[t], t);
        fprintf(out, "%-24s", label);
        for (int p = 0; p < n; p++) {
            char cnt[16], cell[24];
            half_count(gc.line[p].count2[t], cnt, sizeof cnt);
            if (gc.line[p].types_won >> t & 1u)
                snprintf(cell, sizeof cell, "%s=%d", cnt, t);
            else
                snprintf(cell, sizeof cell, "%s", cnt);
            fprintf(out, " %8s", cell);
        }
        fprintf(out, "\n");
    }
    static const char *const rows[] = {"Pizza types", "Special*", "Pepperoni - Anchovies", "TOTAL",
                                       "Eaten slices"};
    int width = 24 + 9 * n;
    bool likes = false;
    for (int r = 0; r < 5; r++) {
        if (r == 0 || r == 3) {
            for (int i = 0; i < width; i++)
                fputc('-', out);
            fputc('\n', out);
        }
        fprintf(out, "%-24s", rows[r]);
        for (int p = 0; p < n; p++) {
            const nys_check *c = &gc.line[p];
            int v = r == 0 ? c->majorities : r == 1 ? c->specials : r == 2 ? c->pepperoni
                    : r == 3 ? c->total : c->eaten;
            /* NYS-E5: the You Like Anchovies! holder's line reads Pepperoni + Anchovies */
            if (r == 2 && c->likes_anchovies) {
                fprintf(out, " %7d+", v);
                likes = true;
            } else {
                fprintf(out, " %8d", v);
            }
        }
        fprintf(out, "\n");
    }
    fprintf(out, "\nType counts show collected slices; \"=N\" marks a majority worth N points.\n");
    if (likes)
        fprintf(out, "\"+\": that line reads Pepperoni + Anchovies (You Like Anchovies!).\n");
    int winners = __builtin_popcount(gc.winners), top = 0, level = 0;
    for (int p = 0; p < n; p++)
        if (gc.winners >> p & 1u)
            top = gc.line[p].total;
    for (int p = 0; p < n; p++)
        level += gc.line[p].total == top;
    fprintf(out, "%s", winners > 1 ? "Shared win: " : "Winner: ");
    for (int p = 0, k = 0; p < n; p++)
        if (gc.winners >> p & 1u)
            fprintf(out, "%s%s", k++ ? " and " : "", names[p]);
    /* NYS-E6: a tie on points goes to the most eaten slices, then is shared. */
    if (winners > 1)
        fprintf(out, " (tied on points and on eaten slices)\n");
    else if (level > 1)
        fprintf(out, " (tied on %d points, won on eaten slices)\n", top);
    else
        fprintf(out, "\n");
}
