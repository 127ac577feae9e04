/* perfect.c -- the exact last-round solver (perfect.h) and the `perfect`
 * bot, which plays it in New York Slice's last round and a search level
 * before (and in other games).
 *
 * The search goes through the game interface (legal_actions, apply,
 * current_seat), scoring the end with the engine's Guest Check (totals()
 * and returns() in one). It remembers no positions: measured on whole
 * rounds, hardly any is reached twice (identical slices aside), and hashing
 * a state cost more than it saved. Only two things come from the New York
 * Slice engine: the arrangements a seat cannot tell apart, and the outcomes
 * of a Mystery draw (apply() would draw one at random). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/clock.h"
#include "../games/nyslice/nyslice.h"
#include "bot_impl.h"
#include "perfect.h"

#define EPS 1e-6
/* Decisions in a row in one last round: far fewer (a Dibs!, the division,
 * Cut in Line, then per seat Sneak-a-Slice, a take, a few eat-or-keeps, a
 * placement, an attachment; Seconds at the end). */
#define MAX_DEPTH 160

typedef struct val {
    double score[PB_MAX_SEATS], win[PB_MAX_SEATS];
} val;

typedef struct solver {
    const pb_game *g;
    nys_state *states; /* one per depth: the position after a move */
    pb_action *acts;   /* PB_MAX_ACTIONS per depth */
    double deadline;   /* 0: none */
    long max_nodes;    /* 0: none */
    bool for_win;      /* pb_perfect_limits.win */
    bool rivals_lead;  /* pb_perfect_limits.rivals_lead */
    int root;          /* the seat whose decision is solved */
    int bound;         /* pb_perfect_limits.bound */
    bool failed, timeout;
} solver;

static _Thread_local long nodes;

long pb_perfect_nodes(void)
{
    return nodes;
}

bool pb_perfect_applies(const pb_game *g, const pb_state *st)
{
    return g->ops == &nys_game_ops && nys_last_round((const nys_state *)(const void *)st);
}

static double strongest_rival(const val *v, int seat, int players)
{
    double r = -INFINITY;
    for (int q = 0; q < players; q++)
        if (q != seat && v->score[q] > r)
            r = v->score[q];
    return r;
}

static int compare(double x, double y)
{
    return x > y + EPS ? 1 : x < y - EPS ? -1 : 0;
}

/* Does `seat` prefer a to b (perfect.h: own score, then the rival's; or
 * the win share first)? */
static bool prefers(const solver *s, const val *a, const val *b, int seat)
{
    if (s->bound)
        return s->bound * compare(a->win[s->root], b->win[s->root]) > 0;
    int c = s->for_win ? compare(a->win[seat], b->win[seat]) : 0;
    if (c == 0 && s->rivals_lead && seat != s->root)
        c = compare(a->score[seat] - strongest_rival(a, seat, s->g->players),
                    b->score[seat] - strongest_rival(b, seat, s->g->players));
    if (c == 0)
        c = compare(a->score[seat], b->score[seat]);
    if (c == 0)
        c = compare(strongest_rival(b, seat, s->g->players), strongest_rival(a, seat, s->g->players));
    return c > 0;
}

static void solve(solver *s, const pb_state *st, int depth, val *out);

static void add_scaled(val *acc, const val *v, double w, int players)
{
    for (int q = 0; q < players; q++) {
        acc->score[q] += w * v->score[q];
        acc->win[q] += w * v->win[q];
    }
}

/* The value of move a from st: over each Mystery draw it makes. */
static void move_value(solver *s, const pb_state *st, pb_action a, int depth, val *out)
{
    const pb_game *g = s->g;
    int players = g->players;
    memset(out, 0, sizeof *out);
    if (depth + 1 >= MAX_DEPTH) { /* the child's moves are listed at depth + 1 */
        s->failed = true;        /* cannot happen: see MAX_DEPTH */
        return;
    }
    nys_state *child = &s->states[depth];
    memcpy(child, st, sizeof *child);
    if (g->ops->apply(g, (pb_state *)(void *)child, a, NULL, 0) != 0) {
        s->failed = true; /* cannot happen: a is legal */
        return;
    }
    int k = nys_draw_outcomes((const nys_state *)(const void *)st, child);
    if (k == 1) {
        solve(s, (const pb_state *)(const void *)child, depth + 1, out);
        return;
    }
    for (int j = 0; j < k; j++) {
        memcpy(child, st, sizeof *child);
        nys_apply_outcome(child, a, j, NULL, 0);
        val v;
        solve(s, (const pb_state *)(const void *)child, depth + 1, &v);
        add_scaled(out, &v, 1.0 / k, players);
    }
}

static void solve(solver *s, const pb_state *st, int depth, val *out)
{
    const pb_game *g = s->g;
    int players = g->players;
    if (++nodes % 4096 == 0 &&
        ((s->deadline && pb_now() > s->deadline) || (s->max_nodes && nodes > s->max_nodes)))
        s->timeout = true;
    int seat = pb_current_seat(g, st);
    if (seat == PB_TERMINAL) {
        /* totals() and returns() in one scoring: it is half the search's time */
        nys_guest_check gc;
        nys_score_state((const nys_state *)(const void *)st, &gc);
        int winners = __builtin_popcount(gc.winners);
        for (int q = 0; q < players; q++) {
            out->score[q] = gc.line[q].total;
            out->win[q] = (gc.winners >> q & 1u) ? 1.0 / winners : 0.0;
        }
        return;
    }
    pb_action *acts = &s->acts[(size_t)depth * PB_MAX_ACTIONS];
    int n = g->ops->legal_actions(g, st, acts);
    for (int i = 0; i < n && !s->timeout; i++) {
        val v;
        move_value(s, st, acts[i], depth, &v);
        if (i == 0 || prefers(s, &v, out, seat))
            *out = v;
    }
}

static void solver_free(solver *s)
{
    free(s->states);
    free(s->acts);
}

/* A quick guess at a move's worth to `seat`: play the round out with every
 * seat taking the move the game's evaluation likes best for it (each
 * Mystery draw being the first spare), and score the end. */
static double greedy_outcome(solver *s, const nys_state *world, pb_action a, int seat, pb_action *acts)
{
    const pb_game *g = s->g;
    nys_state cur = *world, trial;
    nys_apply_outcome(&cur, a, 0, NULL, 0);
    int mover;
    while ((mover = nys_current_seat(&cur)) != PB_TERMINAL) {
        int n = g->ops->legal_actions(g, (const pb_state *)(const void *)&cur, acts), pick = 0;
        double top = -INFINITY;
        for (int i = 0; i < n && n > 1; i++) {
            double v[PB_MAX_SEATS];
            trial = cur;
            nys_apply_outcome(&trial, acts[i], 0, NULL, 0);
            g->ops->evaluate(g, (const pb_state *)(const void *)&trial, mover, v);
            if (v[mover] > top)
                top = v[mover], pick = i;
        }
        nys_apply_outcome(&cur, acts[pick], 0, NULL, 0);
    }
    int tot[PB_MAX_SEATS];
    g->ops->totals(g, (const pb_state *)(const void *)&cur, tot);
    return tot[seat];
}

/* The order moves are solved in under a time limit: `must` first, then
 * the moves that look best for the seat (greedy_outcome). */
static void rank_moves(solver *s, const nys_state *world, int seat, const pb_perfect_limits *lim,
                       const pb_action *acts, int n, int *order)
{
    double *key = malloc(sizeof *key * (size_t)n);
    pb_action *scratch = malloc(sizeof *scratch * PB_MAX_ACTIONS);
    for (int i = 0; i < n; i++) {
        order[i] = i;
        if (!key || !scratch)
            continue;
        key[i] = greedy_outcome(s, world, acts[i], seat, scratch);
        for (int m = 0; m < lim->nmust; m++)
            if (lim->must[m] == acts[i])
                key[i] = INFINITY;
    }
    for (int i = 1; key && scratch && i < n; i++) /* stable: equal keys keep the game's order */
        for (int j = i; j > 0 && key[order[j - 1]] < key[order[j]]; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    free(key);
    free(scratch);
}

int pb_perfect_values(const pb_game *g, const pb_state *st, const pb_perfect_limits *limits, pb_exact_value *out,
                      int *best, char *err, size_t errlen)
{
    static const pb_perfect_limits none = {0};
    const pb_perfect_limits *lim = limits ? limits : &none;
    if (!pb_perfect_applies(g, st)) {
        snprintf(err, errlen, "the exact solver plays only New York Slice's last round");
        return -1;
    }
    nodes = 0;
    solver s = {.g = g};
    s.deadline = lim->seconds > 0 ? pb_now() + lim->seconds : 0;
    s.max_nodes = lim->positions > 0 ? lim->positions : 0;
    s.for_win = lim->win;
    s.rivals_lead = lim->win && lim->rivals_lead;
    s.root = pb_current_seat(g, st);
    s.bound = lim->bound;
    s.states = malloc(sizeof *s.states * MAX_DEPTH);
    s.acts = malloc(sizeof *s.acts * PB_MAX_ACTIONS * MAX_DEPTH);
    nys_state worlds[NYS_SPARES + 1];
    pb_action *acts = malloc(sizeof *acts * PB_MAX_ACTIONS);
    int *order = malloc(sizeof *order * PB_MAX_ACTIONS);
    if (!acts || !order || !s.states || !s.acts) {
        free(acts);
        free(order);
        solver_free(&s);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int seat = pb_current_seat(g, st);
    int nw = nys_last_round_worlds((const nys_state *)(const void *)st, seat, worlds);
    int n = g->ops->legal_actions(g, st, acts);
    if (lim->seconds > 0 || lim->positions > 0)
        rank_moves(&s, &worlds[0], seat, lim, acts, n, order);
    else
        for (int i = 0; i < n; i++)
            order[i] = i;
    *best = -1;
    for (int r = 0; r < n; r++) {
        int i = order[r];
        val acc = {0};
        for (int w = 0; w < nw && !s.timeout; w++) {
            val v;
            move_value(&s, (const pb_state *)(const void *)&worlds[w], acts[i], 0, &v);
            add_scaled(&acc, &v, 1.0 / nw, g->players);
        }
        out[i] = (pb_exact_value){.action = acts[i], .exact = !s.timeout};
        if (!out[i].exact)
            continue;
        memcpy(out[i].score, acc.score, sizeof acc.score);
        memcpy(out[i].win, acc.win, sizeof acc.win);
        val b;
        if (*best >= 0) {
            memcpy(b.score, out[*best].score, sizeof b.score);
            memcpy(b.win, out[*best].win, sizeof b.win);
        }
        if (*best < 0 || prefers(&s, &acc, &b, seat) ||
            (!prefers(&s, &b, &acc, seat) && i < *best)) /* a tie: the game's order */
            *best = i;
    }
    bool failed = s.failed;
    free(acts);
    free(order);
    solver_free(&s);
    if (failed) {
        snprintf(err, errlen, "the search went wrong (a move refused or too deep)");
        return -1;
    }
    return n;
}

/* ---- The `perfect` bot ---- */

#define BOT_SECONDS 0.5   /* the solver's share of a decision */
/* expert's share, in positions so that it plays the same on any machine
 * (about 0.25 s on one core here): its search may still follow */
#define EXPERT_POSITIONS 1500000
#define MANY_MOVES 64     /* more (the division): the level's move is solved first */

typedef struct perfect {
    pb_bot *level;        /* plays before the last round, and when time runs out */
    bool for_win;         /* perfect-win: the win share first */
    bool settled_only;    /* expert: only where no move changes the win share */
    pb_exact_value *values;
    int n, best, seat;    /* the last solve (n 0: the level decided) */
} perfect;

static void perfect_free(void *impl)
{
    perfect *p = impl;
    if (!p)
        return;
    pb_bot_free(p->level);
    free(p->values);
    free(p);
}

static pb_action level_move(pb_bot *b, const pb_game *g, const pb_state *st, int seat)
{
    perfect *p = b->impl;
    p->n = 0;
    p->level->decision_cpu = b->decision_cpu; /* the same decision's cap */
    pb_action a = p->level->choose(p->level, g, st, seat);
    snprintf(b->why, sizeof b->why, "%s", pb_bot_why(p->level));
    b->searches = pb_bot_searches(p->level);
    return a;
}

/* Is the win share of the seat to move the same after each of its n moves
 * however every seat plays from there (itself included)? Solved twice, all
 * playing for it and all against it, within `positions`; false when they
 * are not enough. */
static bool settled(const pb_game *g, const pb_state *st, long positions, int n)
{
    pb_exact_value *v = malloc(sizeof *v * PB_MAX_ACTIONS);
    double most = 0, least = 1;
    int seat = pb_current_seat(g, st), best;
    bool same = v != NULL;
    char err[PB_ERR_LEN];
    for (int sign = 1; same && sign >= -1; sign -= 2) {
        pb_perfect_limits lim = {.positions = positions, .bound = sign};
        same = positions > 0 && pb_perfect_values(g, st, &lim, v, &best, err, sizeof err) == n;
        positions -= pb_perfect_nodes();
        for (int i = 0; same && i < n; i++) {
            most = fmax(most, v[i].win[seat]);
            least = fmin(least, v[i].win[seat]);
            same = v[i].exact && most - least <= EPS;
        }
    }
    free(v);
    return same;
}

static pb_action perfect_choose(pb_bot *b, const pb_game *g, const pb_state *st, int seat)
{
    perfect *p = b->impl;
    int moves = g->ops->legal_actions(g, st, (pb_action *)(void *)p->values); /* scratch: only the count */
    if (!pb_perfect_applies(g, st) || (p->settled_only && (moves > MANY_MOVES || moves == 1)))
        return level_move(b, g, st, seat);
    b->searches = 0;
    pb_perfect_limits lim = {.seconds = BOT_SECONDS, .win = p->for_win};
    if (p->settled_only)
        lim = (pb_perfect_limits){.positions = EXPERT_POSITIONS, .win = true, .rivals_lead = true};
    pb_action first = 0;
    int best;
    char err[PB_ERR_LEN];
    if (moves > MANY_MOVES) {
        first = level_move(b, g, st, seat);
        lim.must = &first;
        lim.nmust = 1;
    }
    int n = pb_perfect_values(g, st, &lim, p->values, &best, err, sizeof err);
    long used = pb_perfect_nodes();
    if (n < 0 || best < 0)
        return moves > MANY_MOVES ? first : level_move(b, g, st, seat);
    int solved = 0;
    for (int i = 0; i < n; i++)
        solved += p->values[i].exact;
    if (solved < n && n <= MANY_MOVES) /* a partial answer to a small question: the level knows as much */
        return level_move(b, g, st, seat);
    /* expert: where a move could change the win share, its search, which
     * expects the others to play as searches do and wins more than a
     * solver that expects exact play (docs/perfect.md) */
    for (int i = 0; p->settled_only && i < n; i++)
        if (fabs(p->values[i].win[seat] - p->values[best].win[seat]) > EPS)
            return level_move(b, g, st, seat);
    if (p->settled_only && !settled(g, st, EXPERT_POSITIONS - used, n))
        return level_move(b, g, st, seat);
    snprintf(b->why, sizeof b->why, "exact last round: expected score %.2f, win share %.0f%% (%d of %d moves solved)",
             p->values[best].score[seat], 100 * p->values[best].win[seat], solved, n);
    p->n = n;
    p->best = best;
    p->seat = seat;
    b->searches = used > 0 ? used : 1;
    return p->values[best].action;
}

/* pb_bot_values: the level's search, or the moves the last round's solve
 * valued: the move played first, then the others by win share (the value). */
static int perfect_values(const pb_bot *b, pb_move_value *out, int max)
{
    const perfect *p = b->impl;
    if (p->n == 0)
        return pb_bot_values(p->level, out, max);
    pb_move_value *all = malloc(sizeof *all * (size_t)p->n);
    int k = 0;
    for (int i = 0; all && i < p->n; i++)
        if (p->values[i].exact)
            all[k++] = (pb_move_value){p->values[i].action, 1, p->values[i].win[p->seat]};
    for (int i = 0; i < k; i++)
        if (all[i].action == p->values[p->best].action) {
            pb_move_value played = all[i];
            all[i] = all[0];
            all[0] = played;
        }
    for (int i = 2; i < k; i++) /* insertion: a few dozen moves, the division's solved ones */
        for (int j = i; j > 1 && all[j - 1].value < all[j].value; j--) {
            pb_move_value t = all[j];
            all[j] = all[j - 1];
            all[j - 1] = t;
        }
    k = k < max ? k : max;
    for (int i = 0; i < k; i++)
        out[i] = all[i];
    free(all);
    return k;
}

/* "perfect" or "perfect-win", then ":LEVEL" or nothing; the length of the
 * name, 0 when it is neither. */
static size_t perfect_name(const char *spec)
{
    static const char *const names[] = {"perfect-win", "perfect"};
    for (int i = 0; i < 2; i++) {
        size_t n = strlen(names[i]);
        if (strncmp(spec, names[i], n) == 0 && (spec[n] == 0 || spec[n] == ':'))
            return n;
    }
    return 0;
}

bool pb_perfect_spec(const char *spec)
{
    return perfect_name(spec) > 0;
}

/* The level's seed: expert's search is seeded as the bot, so that before
 * the last round (and in the other games) it plays as the search alone. */
static uint64_t level_seed(const perfect *p, uint64_t seed)
{
    return p->settled_only ? seed : pb_derive_seed(seed, 1);
}

static void perfect_reseed(pb_bot *b, uint64_t seed)
{
    perfect *p = b->impl;
    pb_bot_reseed(p->level, level_seed(p, seed));
}

/* The bot around its level: `perfect`, `perfect-win`, or the `expert` level
 * (for_win with the others played as the search levels play, and the
 * solver's move only where the seat's win share is settled). */
static int wrap(pb_bot *b, const char *spec, const char *level, uint64_t seed, char *err, size_t errlen)
{
    perfect *p = calloc(1, sizeof *p);
    if (p)
        p->values = malloc(sizeof *p->values * PB_MAX_ACTIONS);
    if (!p || !p->values) {
        perfect_free(p);
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    char why[PB_ERR_LEN];
    p->settled_only = strcmp(spec, "expert") == 0;
    p->level = pb_bot_new_search(level, level_seed(p, seed), why, sizeof why);
    if (!p->level) {
        snprintf(err, errlen, "%s: %s", spec, why);
        perfect_free(p);
        return -1;
    }
    p->for_win = p->settled_only || perfect_name(spec) == strlen("perfect-win");
    b->impl = p;
    b->free_impl = perfect_free;
    b->choose = perfect_choose;
    b->values = perfect_values;
    b->reseed = perfect_reseed;
    return 0;
}

int pb_perfect_setup(pb_bot *b, const char *spec, uint64_t seed, char *err, size_t errlen)
{
    size_t n = perfect_name(spec);
    const char *level = spec[n] == ':' ? spec + n + 1 : "expert";
    if (pb_perfect_spec(level)) {
        snprintf(err, errlen, "perfect:LEVEL takes a level or bot other than perfect, e.g. perfect:hard");
        return -1;
    }
    return wrap(b, spec, level, seed, err, errlen);
}

int pb_expert_setup(pb_bot *b, uint64_t seed, char *err, size_t errlen)
{
    return wrap(b, "expert", "expert", seed, err, errlen);
}
