/* sim_stats.c -- adding up simulated games and printing the summary. */
#include <math.h>
#include <string.h>

#include "../core/error.h"
#include "sim.h"

int sim_stats_init(sim_stats *s, const json_t *header, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    json_t *h = json_object_get(header, "sim");
    json_t *game = json_object_get(h, "game"), *players = json_object_get(h, "players");
    json_t *bots = json_object_get(h, "bots"), *seed = json_object_get(h, "seed");
    if (!json_is_string(game) || !json_is_integer(players) || json_integer_value(players) < 1 ||
        json_integer_value(players) > SIM_MAX_SEATS || !json_is_array(bots) ||
        (int)json_array_size(bots) != json_integer_value(players) || !json_is_integer(seed))
        return pb_errorf(err, errlen, "not a pizzabox sim header (a first line {\"sim\": {...}})");
    snprintf(s->game, sizeof s->game, "%s", json_string_value(game));
    json_t *title = json_object_get(h, "title");
    snprintf(s->title, sizeof s->title, "%s", json_is_string(title) ? json_string_value(title) : s->game);
    s->players = (int)json_integer_value(players);
    s->seed = (uint64_t)json_integer_value(seed);
    s->rotate = json_is_true(json_object_get(h, "rotate"));
    s->team = json_is_true(json_object_get(h, "cooperative"));
    for (int i = 0; i < s->players; i++) {
        json_t *b = json_array_get(bots, (size_t)i);
        if (!json_is_string(b))
            return pb_errorf(err, errlen, "sim header: bots must be names");
        snprintf(s->bots[i], sizeof s->bots[i], "%s", json_string_value(b));
        /* Bots are listed in seat order of the first game, whatever order
         * the games are added in. */
        int k = 0;
        while (k < s->nbots && strcmp(s->bot_names[k], s->bots[i]) != 0)
            k++;
        if (k == s->nbots)
            snprintf(s->bot_names[s->nbots++], sizeof s->bot_names[0], "%s", s->bots[i]);
    }
    s->length_min = -1;
    return 0;
}

/* Index of a name in a table, adding it if new; -1 when the table is full. */
static int name_index(char (*table)[64], int *n, int max, const char *name)
{
    for (int i = 0; i < *n; i++)
        if (strcmp(table[i], name) == 0)
            return i;
    if (*n == max)
        return -1;
    snprintf(table[*n], sizeof table[0], "%s", name);
    return (*n)++;
}

static void tally(sim_tally *t, long win60, long score)
{
    t->games++;
    t->win60 += win60;
    t->score_sum += score;
    t->score_sq += score * score;
}

/* A name's index in a table, with the pointer last seen there as a fast path
 * (a game names its items from the same strings every time). */
static int cached_index(char (*table)[64], const char **seen, int *n, int max, int hint, const char *name)
{
    if (seen && hint < *n && seen[hint] == name)
        return hint;
    int k = name_index(table, n, max, name);
    if (k >= 0 && seen)
        seen[k] = name;
    return k;
}

int sim_stats_add_result(sim_stats *s, const sim_result *r, char *err, size_t errlen)
{
    int n = s->players, bot[SIM_MAX_SEATS];
    long win60[SIM_MAX_SEATS] = {0}, share = SIM_WIN_UNIT / (r->winners ? __builtin_popcount(r->winners) : 1);
    for (int q = 0; q < n; q++) {
        win60[q] = (r->winners >> q & 1u) ? share : 0;
        bot[q] = name_index(s->bot_names, &s->nbots, SIM_MAX_BOTS, r->bot[q]);
        if (bot[q] < 0)
            return pb_errorf(err, errlen, "more than %d different bots", SIM_MAX_BOTS);
    }
    for (int q = 0; q < n; q++) {
        tally(&s->by_seat[q], win60[q], r->total[q]);
        tally(&s->by_bot[bot[q]], win60[q], r->total[q]);
    }
    s->games++;
    s->team_won += s->team && r->winners;
    const pb_facts *f = &r->facts;
    for (int i = 0; i < f->nmeasures; i++) {
        int k = name_index(s->measures, &s->nmeasures, PB_MAX_MEASURES, f->measure[i]);
        if (k < 0)
            return pb_errorf(err, errlen, "more than %d measures", PB_MAX_MEASURES);
        s->measure_sum[k] += f->measure_value[i];
        s->measure_sq[k] += (long)f->measure_value[i] * f->measure_value[i];
    }
    if (f->first >= 0 && f->first < n)
        tally(&s->first, win60[f->first], r->total[f->first]);
    s->length_sum += r->length;
    s->length_sq += r->length * r->length;
    s->length_max = r->length > s->length_max ? r->length : s->length_max;
    s->length_min = s->length_min < 0 || r->length < s->length_min ? r->length : s->length_min;
    for (int i = 0; i < f->nitems; i++) {
        int k = cached_index(s->items, r->names_are_stable ? s->item_seen : NULL, &s->nitems, SIM_MAX_ITEMS, i,
                             f->item[i]);
        if (k < 0)
            return pb_errorf(err, errlen, "more than %d items", SIM_MAX_ITEMS);
        int h = f->holder[i];
        if (h < 0 || h >= n)
            continue;
        s->item_games[k]++;
        s->item_holder_sum[k] += r->total[h];
        s->item_win60[k] += win60[h];
        for (int q = 0; q < n; q++)
            if (q != h) {
                s->item_other_sum[k] += r->total[q];
                s->item_other_n[k]++;
            }
    }
    for (int i = 0; i < f->ncategories; i++) {
        int k = cached_index(s->categories, r->names_are_stable ? s->category_seen : NULL, &s->ncategories,
                             SIM_MAX_CATEGORIES, i, f->category[i]);
        if (k < 0)
            return pb_errorf(err, errlen, "more than %d categories", SIM_MAX_CATEGORIES);
        long *count = f->outcome[i] == PB_OUTCOME_WON    ? &s->category_won[k]
                      : f->outcome[i] == PB_OUTCOME_TIED ? &s->category_tied[k]
                                                         : &s->category_empty[k];
        (*count)++;
    }
    return 0;
}

int sim_stats_add(sim_stats *s, const json_t *line, char *err, size_t errlen)
{
    json_t *totals = json_object_get(line, "totals"), *winners = json_object_get(line, "winners");
    json_t *bots = json_object_get(line, "bots");
    int n = s->players;
    if (!json_is_array(totals) || (int)json_array_size(totals) != n || !json_is_array(winners) ||
        (json_array_size(winners) == 0 && !s->team) || !json_is_array(bots) || (int)json_array_size(bots) != n)
        return pb_errorf(err, errlen, "a game line without totals, winners and bots for %d seats", n);
    sim_result r;
    memset(&r, 0, sizeof r);
    size_t i;
    json_t *v;
    json_array_foreach(winners, i, v) {
        if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) >= n)
            return pb_errorf(err, errlen, "a game line with a winner that is not a seat");
        r.winners |= 1u << json_integer_value(v);
    }
    for (int q = 0; q < n; q++) {
        json_t *t = json_array_get(totals, (size_t)q);
        r.total[q] = (int)json_integer_value(t);
        r.bot[q] = json_string_value(json_array_get(bots, (size_t)q));
        if (!r.bot[q] || !json_is_integer(t) || json_integer_value(t) < -100000 || json_integer_value(t) > 100000)
            return pb_errorf(err, errlen, "a game line with a bot that is not a name or a total out of range");
    }
    json_t *length = json_object_get(line, "length");
    if (!json_is_integer(length) || json_integer_value(length) < 0 || json_integer_value(length) > 1000000)
        return pb_errorf(err, errlen, "a game line without a length of 0 to 1000000 decisions");
    r.length = (long)json_integer_value(length);
    json_t *first = json_object_get(line, "first");
    r.facts.first = json_is_integer(first) ? (int)json_integer_value(first) : -1;
    const char *key;
    json_object_foreach(json_object_get(line, "holders"), key, v) {
        if (r.facts.nitems == PB_MAX_ITEMS)
            return pb_errorf(err, errlen, "more than %d items in a game line", PB_MAX_ITEMS);
        r.facts.item[r.facts.nitems] = key;
        r.facts.holder[r.facts.nitems++] = json_is_integer(v) ? (int)json_integer_value(v) : -1;
    }
    json_object_foreach(json_object_get(line, "outcomes"), key, v) {
        if (r.facts.ncategories == PB_MAX_CATEGORIES)
            return pb_errorf(err, errlen, "more than %d categories in a game line", PB_MAX_CATEGORIES);
        const char *o = json_string_value(v);
        r.facts.category[r.facts.ncategories] = key;
        r.facts.outcome[r.facts.ncategories++] = o && strcmp(o, "won") == 0    ? PB_OUTCOME_WON
                                                 : o && strcmp(o, "tied") == 0 ? PB_OUTCOME_TIED
                                                                               : PB_OUTCOME_EMPTY;
    }
    json_object_foreach(json_object_get(line, "measures"), key, v) {
        if (r.facts.nmeasures == PB_MAX_MEASURES)
            return pb_errorf(err, errlen, "more than %d measures in a game line", PB_MAX_MEASURES);
        if (!json_is_integer(v) || json_integer_value(v) < -100000 || json_integer_value(v) > 100000)
            return pb_errorf(err, errlen, "a game line with a measure that is not a number in range");
        r.facts.measure[r.facts.nmeasures] = key;
        r.facts.measure_value[r.facts.nmeasures++] = (int)json_integer_value(v);
    }
    return sim_stats_add_result(s, &r, err, errlen);
}

json_t *sim_result_to_json(const sim_result *r, int players)
{
    static const char *const outcome[] = {"empty", "won", "tied"};
    json_t *bots = json_array(), *totals = json_array(), *winners = json_array();
    json_t *holders = json_object(), *outcomes = json_object();
    for (int q = 0; q < players; q++) {
        json_array_append_new(bots, json_string(r->bot[q]));
        json_array_append_new(totals, json_integer(r->total[q]));
        if (r->winners >> q & 1u)
            json_array_append_new(winners, json_integer(q));
    }
    for (int i = 0; i < r->facts.nitems; i++)
        json_object_set_new(holders, r->facts.item[i],
                            r->facts.holder[i] < 0 ? json_null() : json_integer(r->facts.holder[i]));
    for (int i = 0; i < r->facts.ncategories; i++)
        json_object_set_new(outcomes, r->facts.category[i], json_string(outcome[r->facts.outcome[i]]));
    json_t *j = json_pack("{s:I, s:I, s:o, s:o, s:o, s:I, s:i, s:o, s:o}", "game", (json_int_t)r->game, "seed",
                          (json_int_t)r->seed, "bots", bots, "totals", totals, "winners", winners, "length",
                          (json_int_t)r->length, "first", r->facts.first, "holders", holders, "outcomes", outcomes);
    if (r->facts.nmeasures) {
        json_t *measures = json_object();
        for (int i = 0; i < r->facts.nmeasures; i++)
            json_object_set_new(measures, r->facts.measure[i], json_integer(r->facts.measure_value[i]));
        json_object_set_new(j, "measures", measures);
    }
    return j;
}

static void merge_tally(sim_tally *a, const sim_tally *b)
{
    a->games += b->games;
    a->win60 += b->win60;
    a->score_sum += b->score_sum;
    a->score_sq += b->score_sq;
}

int sim_stats_merge(sim_stats *into, const sim_stats *from, char *err, size_t errlen)
{
    if (strcmp(into->game, from->game) != 0 || into->players != from->players || into->seed != from->seed ||
        into->rotate != from->rotate)
        return pb_errorf(err, errlen, "these results come from different simulations (game, players, seed)");
    for (int q = 0; q < into->players; q++)
        if (strcmp(into->bots[q], from->bots[q]) != 0)
            return pb_errorf(err, errlen, "these results come from simulations with different bots");
    into->games += from->games;
    into->team_won += from->team_won;
    for (int i = 0; i < from->nmeasures; i++) {
        int k = name_index(into->measures, &into->nmeasures, PB_MAX_MEASURES, from->measures[i]);
        if (k < 0)
            return pb_errorf(err, errlen, "too many measures");
        into->measure_sum[k] += from->measure_sum[i];
        into->measure_sq[k] += from->measure_sq[i];
    }
    for (int q = 0; q < into->players; q++)
        merge_tally(&into->by_seat[q], &from->by_seat[q]);
    for (int b = 0; b < from->nbots; b++) {
        int k = name_index(into->bot_names, &into->nbots, SIM_MAX_BOTS, from->bot_names[b]);
        if (k < 0)
            return pb_errorf(err, errlen, "too many bots");
        merge_tally(&into->by_bot[k], &from->by_bot[b]);
    }
    merge_tally(&into->first, &from->first);
    into->length_sum += from->length_sum;
    into->length_sq += from->length_sq;
    into->length_max = from->length_max > into->length_max ? from->length_max : into->length_max;
    if (from->length_min >= 0 && (into->length_min < 0 || from->length_min < into->length_min))
        into->length_min = from->length_min;
    for (int i = 0; i < from->nitems; i++) {
        int k = name_index(into->items, &into->nitems, SIM_MAX_ITEMS, from->items[i]);
        if (k < 0)
            return pb_errorf(err, errlen, "too many items");
        into->item_games[k] += from->item_games[i];
        into->item_holder_sum[k] += from->item_holder_sum[i];
        into->item_other_sum[k] += from->item_other_sum[i];
        into->item_other_n[k] += from->item_other_n[i];
        into->item_win60[k] += from->item_win60[i];
    }
    for (int i = 0; i < from->ncategories; i++) {
        int k = name_index(into->categories, &into->ncategories, SIM_MAX_CATEGORIES, from->categories[i]);
        if (k < 0)
            return pb_errorf(err, errlen, "too many categories");
        into->category_won[k] += from->category_won[i];
        into->category_tied[k] += from->category_tied[i];
        into->category_empty[k] += from->category_empty[i];
    }
    return 0;
}

void sim_wilson(double p, double n, double *lo, double *hi)
{
    const double z = 1.959964;
    if (n <= 0) {
        *lo = 0;
        *hi = 1;
        return;
    }
    double d = 1 + z * z / n, c = (p + z * z / (2 * n)) / d;
    double h = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d;
    *lo = c - h < 0 ? 0 : c - h;
    *hi = c + h > 1 ? 1 : c + h;
}

double sim_mean(const sim_tally *t)
{
    return t->games ? (double)t->score_sum / (double)t->games : 0;
}

double sim_sd(const sim_tally *t)
{
    if (t->games < 2)
        return 0;
    double m = sim_mean(t), var = ((double)t->score_sq - (double)t->games * m * m) / (double)(t->games - 1);
    return var > 0 ? sqrt(var) : 0;
}

double sim_share(const sim_tally *t)
{
    return t->games ? (double)t->win60 / SIM_WIN_UNIT / (double)t->games : 0;
}

static void print_tally(FILE *out, const char *label, const sim_tally *t)
{
    double lo, hi, p = sim_share(t);
    sim_wilson(p, (double)t->games, &lo, &hi);
    fprintf(out, "  %-22.22s %5.1f%%  [%5.1f%%, %5.1f%%]  score %5.1f +- %4.1f  (%ld games)\n", label,
            100 * p, 100 * lo, 100 * hi, sim_mean(t), sim_sd(t), t->games);
}

double sim_measure_mean(const sim_stats *s, int k, double *sd)
{
    double n = (double)s->games, m = n > 0 ? (double)s->measure_sum[k] / n : 0;
    double var = n > 1 ? ((double)s->measure_sq[k] - n * m * m) / (n - 1) : 0;
    *sd = var > 0 ? sqrt(var) : 0;
    return m;
}

void sim_print_summary(FILE *out, const sim_stats *s)
{
    fprintf(out, "%s, %d players, %ld games, seed %llu%s\n", s->title, s->players, s->games,
            (unsigned long long)s->seed, s->rotate ? ", bots rotated through the seats" : "");
    if (s->team) { /* one result for every seat: the team's */
        double lo, hi, p = s->games ? (double)s->team_won / (double)s->games : 0;
        sim_wilson(p, (double)s->games, &lo, &hi);
        fprintf(out, "Team wins %.1f%%  [%.1f%%, %.1f%%] (95%% Wilson interval), %ld of %ld games\n", 100 * p,
                100 * lo, 100 * hi, s->team_won, s->games);
    }
    if (s->nmeasures)
        fprintf(out, "Per game, mean +- standard deviation:\n");
    for (int k = 0; k < s->nmeasures; k++) {
        double sd, m = sim_measure_mean(s, k, &sd);
        fprintf(out, "  %-26.26s %7.1f +- %.1f\n", s->measures[k], m, sd);
    }
    if (s->team) {
        double lm = s->games ? (double)s->length_sum / (double)s->games : 0;
        fprintf(out, "Game length: %.1f decisions on average (from %ld to %ld)\n", lm,
                s->length_min < 0 ? 0 : s->length_min, s->length_max);
        return;
    }
    fprintf(out, "Win share (95%% Wilson interval; parity %.1f%%), mean score +- standard deviation\n",
            100.0 / s->players);
    fprintf(out, " by bot:\n");
    for (int b = 0; b < s->nbots; b++)
        print_tally(out, s->bot_names[b], &s->by_bot[b]);
    fprintf(out, " by seat:\n");
    for (int q = 0; q < s->players; q++) {
        char label[32];
        snprintf(label, sizeof label, "seat %d", q + 1);
        print_tally(out, label, &s->by_seat[q]);
    }
    fprintf(out, " the first to move:\n");
    print_tally(out, "first mover", &s->first);
    if (s->nitems) {
        fprintf(out, "Holding an item at the end (Specials): holder's mean score vs the others'\n");
        for (int k = 0; k < s->nitems; k++) {
            if (!s->item_games[k]) {
                fprintf(out, "  %-22.22s never held\n", s->items[k]);
                continue;
            }
            double hm = (double)s->item_holder_sum[k] / (double)s->item_games[k];
            double om = s->item_other_n[k] ? (double)s->item_other_sum[k] / (double)s->item_other_n[k] : 0;
            fprintf(out, "  %-22.22s %5.1f vs %5.1f (%+5.1f), holder wins %5.1f%%, held in %5.1f%% of games\n",
                    s->items[k], hm, om, hm - om,
                    100.0 * (double)s->item_win60[k] / SIM_WIN_UNIT / (double)s->item_games[k],
                    100.0 * (double)s->item_games[k] / (double)s->games);
        }
    }
    if (s->ncategories) {
        fprintf(out, "Majorities: won / tied (nobody scores) / nobody collected\n");
        for (int k = 0; k < s->ncategories; k++)
            fprintf(out, "  %-22.22s %5.1f%% / %5.1f%% / %5.1f%%\n", s->categories[k],
                    100.0 * (double)s->category_won[k] / (double)s->games,
                    100.0 * (double)s->category_tied[k] / (double)s->games,
                    100.0 * (double)s->category_empty[k] / (double)s->games);
    }
    double lm = s->games ? (double)s->length_sum / (double)s->games : 0;
    double lv = s->games > 1 ? ((double)s->length_sq - (double)s->games * lm * lm) / (double)(s->games - 1) : 0;
    fprintf(out, "Game length: %.1f +- %.1f decisions (from %ld to %ld)\n", lm, lv > 0 ? sqrt(lv) : 0,
            s->length_min < 0 ? 0 : s->length_min, s->length_max);
}
