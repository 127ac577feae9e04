/* mcts.c -- Information Set Monte Carlo Tree Search (single-observer
 * ISMCTS, Cowling, Powley & Whitehouse 2012), guided by the game's
 * evaluation.
 *
 * Every iteration deals a fresh guess of what the bot's seat cannot see
 * (determinize) and walks one shared tree with the moves legal in that
 * guess; a child is judged only against the times it could have been
 * chosen (availability counts), and each seat's nodes are chosen for that
 * seat's own reward. A node is expanded all at once: each move gets a prior
 * and a first value from a one-ply look with the evaluation (PUCT, as in
 * AlphaZero, with the evaluation in place of a network), so every seat's
 * likely reply is searched first. The position reached is scored by the
 * evaluation, or by the real result at the end. With playouts (the expert
 * level, where the game asks for them) it is played on to the end by a
 * cheap policy instead, and scored there.
 *
 * With an iteration budget the search is reproducible from its seed, with or
 * without threads: each thread grows its own tree from its own seed and
 * their visit counts are added. A CPU cap (the levels') cuts a search that
 * would take longer short; only such a move depends on the machine. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/clock.h"
#include "bot_impl.h"

#define MCTS_MAX_THREADS 16
#define MAX_CHILDREN 48   /* moves considered at a node, best-looking first */
#define SAMPLED 24        /* moves drawn at random when a node has very many */
#define MAX_NODES (1 << 22) /* a tree's nodes by default (nodes=N; about 200 MB a
                             * thread): far above a level's, but iters= goes to 10^7 */

typedef struct mcts_cfg {
    int iters;             /* per move, over all threads; 0 when timed */
    int ms;                /* time per move, when iters is 0 */
    double cpu_cap;        /* with iters: at most this many seconds of a thread's
                            * CPU a move, short of its iterations; 0: none */
    int threads;
    double c;              /* exploration (PUCT) */
    double scale;          /* points of evaluated lead worth ~73% win chance; 0: the game's */
    double temp;           /* prior temperature, in points */
    int width;             /* moves kept at the root, best-looking first */
    int playout;           /* leaves played on to the end, each step the best of
                            * this many moves drawn at random; 0: none, unless... */
    int playout_iters;     /* ...a level's budget when the game plays out (its
                            * playout_draws), used instead of iters; 0: never */
    double mix;            /* a played-out leaf's reward: this share from the end
                            * reached, the rest from the leaf's evaluation */
    double margin;         /* an end's reward: this share from the final lead in
                            * points (squashed as evaluated leads are), the rest
                            * from the result; 0: the result alone */
    int nodes;             /* a tree grows no further: its leaves are then scored
                            * as they are (memory stays bounded) */
} mcts_cfg;

typedef struct mnode {
    pb_action action;      /* the move from the parent */
    int player;            /* who made it */
    uint32_t visits, avail;
    float prior;
    double value;          /* sum of `player`'s rewards, with one look-ahead value */
    int32_t child, sibling;
    bool expanded;
} mnode;

/* A blind seat's statistics for one move, kept apart from the moves it has
 * not seen: one per (the node where the secret step began, seat, move),
 * shared by every branch of the unseen moves below that node (decoupled
 * selection, as in simultaneous-move MCTS). A seat decides once in a
 * secret step (Pizza Theory's cut), so the seat and move name the choice. */
typedef struct blind_stat {
    int32_t anchor;        /* the node where the step began */
    int32_t next;          /* the next in its bucket, -1: none */
    pb_action action;
    int player;
    uint32_t visits, avail;
    double value;          /* sum of `player`'s rewards, with one look-ahead value */
} blind_stat;

typedef struct tree {
    const pb_game *g;
    const pb_state *root_state;
    int seat;
    const mcts_cfg *cfg;
    double scale;           /* cfg's, or the game's lead_scale */
    int draws;              /* a playout's moves drawn a step; 0: no playouts */
    double cpu_left;        /* with cfg->cpu_cap: seconds of this thread's CPU
                             * the search may still take */
    mnode *nodes;
    int n, cap;
    pb_rng rng;
    pb_state *det, *trial;
    pb_action *legal;       /* PB_MAX_ACTIONS scratch */
    double *looks;          /* PB_MAX_ACTIONS scratch: expand()'s one-ply values */
    pb_action *kids;        /* children_legal's moves and answers */
    bool *kids_legal;
    int kids_cap;
    int iters, budget;      /* budget 0: until the deadline */
    double deadline;
    int root;               /* the node whose children are the moves now asked
                             * about: 0, or deeper when a decision in parts
                             * goes on below the last search (reuse()); -1: none */
    blind_stat *stats;      /* decoupled statistics of blind seats */
    int nstats, stats_cap;
    int32_t *buckets;       /* heads of their hash chains, -1: empty */
    int nbuckets;
} tree;

/* Sure wins kept of a decision: Pizza Theory has at most its six lines. */
#define MCTS_SURE_MAX 8

typedef struct mcts {
    mcts_cfg cfg;
    tree trees[MCTS_MAX_THREADS];
    pb_state *last;        /* the position of the last decision, and its move */
    pb_action last_move;
    int last_seat;         /* -1: no search to go on from */
    pb_action sure[MCTS_SURE_MAX]; /* the last decision's sure wins (sure_wins) */
    int nsure;
} mcts;

static int new_node(tree *t, int parent, pb_action a, int player, double prior, double value)
{
    if (t->n == t->cap) {
        int cap = t->cap ? t->cap * 2 : 8192;
        mnode *nodes = realloc(t->nodes, sizeof *nodes * (size_t)cap);
        if (!nodes)
            return -1;
        t->nodes = nodes;
        t->cap = cap;
    }
    int i = t->n++;
    t->nodes[i] = (mnode){a, player, 0, 0, (float)prior, value, -1, -1, false};
    if (parent >= 0) {
        t->nodes[i].sibling = t->nodes[parent].child;
        t->nodes[parent].child = i;
    }
    return i;
}

/* A seat's reward in [0, 1] from evaluated points: its lead over the best
 * rival, or in a team game the team's worth. */
static double squash(const tree *t, const double *v, int seat)
{
    bool team = pb_is_cooperative(t->g);
    double rival = team ? 0 : -1e300;
    for (int q = 0; !team && q < t->g->players; q++)
        if (q != seat && v[q] > rival)
            rival = v[q];
    return 1.0 / (1.0 + exp(-(v[seat] - rival) / t->scale));
}

/* Rewards of a finished game: the result, with cfg->margin of the final
 * lead in points (so a seat that cannot win still plays for its points).
 * Not in a team game: its seats share one result, and their own points
 * are no lead over anyone. `only`: the one seat whose reward is wanted
 * (-1: every seat's; a one-ply look needs the mover's alone). */
static void end_rewards(const tree *t, const pb_state *st, int only, double *r)
{
    const pb_game *g = t->g;
    g->ops->returns(g, st, r);
    double m = t->cfg->margin;
    if (m <= 0 || pb_is_cooperative(g))
        return;
    int totals[PB_MAX_SEATS];
    double v[PB_MAX_SEATS];
    g->ops->totals(g, st, totals);
    for (int q = 0; q < g->players; q++)
        v[q] = totals[q];
    for (int q = 0; q < g->players; q++)
        if (only < 0 || q == only)
            r[q] = (1 - m) * r[q] + m * squash(t, v, q);
}

/* Rewards of a position as `viewer` can judge it. */
static void rewards(const tree *t, const pb_state *st, int viewer, double *r)
{
    const pb_game *g = t->g;
    if (pb_is_terminal(g, st)) {
        end_rewards(t, st, -1, r);
        return;
    }
    double v[PB_MAX_SEATS];
    g->ops->evaluate(g, st, viewer, v);
    for (int q = 0; q < g->players; q++)
        r[q] = squash(t, v, q);
}

/* The mover's reward alone, as `viewer` judges the position: what a one-ply
 * look needs, without squashing every seat's. */
static double reward_of(const tree *t, const pb_state *st, int viewer, int mover)
{
    const pb_game *g = t->g;
    double v[PB_MAX_SEATS];
    if (pb_is_terminal(g, st)) {
        end_rewards(t, st, mover, v);
        return v[mover];
    }
    g->ops->evaluate(g, st, viewer, v);
    return squash(t, v, mover);
}

/* Has `mover` not yet seen moves made before it in t->det (a secret
 * simultaneous choice)? Its looks then judge with only what it knows; in
 * the tree (callers ask below the root only, where the tree knows those
 * moves) its choice must not come from statistics that depend on them. */
static bool blind(const tree *t, int mover)
{
    return t->g->ops->unseen_moves && t->g->ops->unseen_moves(t->g, t->det, mover) > 0;
}

/* The mover's one-ply look at move a from t->det; -1 when a cannot be
 * applied (below any reward). */
static double look(tree *t, pb_action a, int viewer, int mover)
{
    pb_state_copy(t->g, t->trial, t->det);
    if (t->g->ops->apply(t->g, t->trial, a, NULL, 0) != 0)
        return -1;
    return reward_of(t, t->trial, viewer, mover);
}

/* Put k of the n moves in t->legal, drawn at random without repeats, first
 * (a partial shuffle). */
static void draw_moves(tree *t, int n, int k)
{
    for (int i = 0; i < k; i++) {
        int j = i + (int)pb_rng_below(&t->rng, (uint32_t)(n - i));
        pb_action a = t->legal[i];
        t->legal[i] = t->legal[j];
        t->legal[j] = a;
    }
}

static uint32_t stat_hash(int32_t anchor, int player, pb_action a, int nbuckets)
{
    uint64_t h = ((uint64_t)(uint32_t)anchor << 32 | a) * 0x9E3779B97F4A7C15ull ^ (uint64_t)player * 0xC2B2AE3D27D4EB4Full;
    return (uint32_t)(h >> 32) & (uint32_t)(nbuckets - 1);
}

/* The blind seat's statistics for move a in the step begun at `anchor`,
 * made (with the child's first value) when new; -1 when out of memory. */
static int blind_stat_of(tree *t, int32_t anchor, int player, const mnode *child)
{
    if (t->nbuckets == 0 || t->nstats >= t->nbuckets) { /* keep chains short: as many buckets as entries */
        int nb = t->nbuckets ? t->nbuckets * 2 : 1024;
        int32_t *b = realloc(t->buckets, sizeof *b * (size_t)nb);
        if (!b)
            return -1;
        t->buckets = b;
        t->nbuckets = nb;
        for (int i = 0; i < nb; i++)
            b[i] = -1;
        for (int i = 0; i < t->nstats; i++) {
            uint32_t h = stat_hash(t->stats[i].anchor, t->stats[i].player, t->stats[i].action, nb);
            t->stats[i].next = b[h];
            b[h] = i;
        }
    }
    uint32_t h = stat_hash(anchor, player, child->action, t->nbuckets);
    for (int i = t->buckets[h]; i >= 0; i = t->stats[i].next)
        if (t->stats[i].anchor == anchor && t->stats[i].player == player && t->stats[i].action == child->action)
            return i;
    if (t->nstats == t->stats_cap) {
        int cap = t->stats_cap ? t->stats_cap * 2 : 1024;
        blind_stat *st = realloc(t->stats, sizeof *st * (size_t)cap);
        if (!st)
            return -1;
        t->stats = st;
        t->stats_cap = cap;
    }
    int i = t->nstats++;
    t->stats[i] = (blind_stat){anchor, t->buckets[h], child->action, player, 0, 0,
                               child->value / (child->visits + 1)}; /* its first value alone */
    t->buckets[h] = i;
    return i;
}

/* Expand a node reached with state t->det: its moves (all of them, or a
 * sample when there are very many), each with a one-ply value for the seat
 * to move and a prior from those values. A blind seat's values are judged
 * with only what it knows. */
static int expand(tree *t, int node)
{
    const pb_game *g = t->g;
    int mover = pb_current_seat(g, t->det);
    int viewer = node != 0 && blind(t, mover) ? mover : t->seat;
    int n = g->ops->legal_actions(g, t->det, t->legal);
    if (n > MAX_CHILDREN && node != 0) { /* a sample of a huge set */
        draw_moves(t, n, SAMPLED);
        n = SAMPLED;
    }
    double *looks = t->looks, best = -1e300;
    for (int i = 0; i < n; i++) {
        looks[i] = look(t, t->legal[i], viewer, mover);
        best = looks[i] > best ? looks[i] : best;
    }
    /* Keep the MAX_CHILDREN best (the root: width); priors ~ exp(value / temperature). */
    int most = node == 0 ? t->cfg->width : MAX_CHILDREN;
    int keep = n < most ? n : most;
    for (int k = 0; k < keep; k++) {
        int bi = k;
        for (int i = k + 1; i < n; i++)
            if (looks[i] > looks[bi])
                bi = i;
        double v = looks[bi];
        pb_action a = t->legal[bi];
        looks[bi] = looks[k];
        t->legal[bi] = t->legal[k];
        looks[k] = v;
        t->legal[k] = a;
    }
    double sum = 0;
    for (int k = 0; k < keep; k++)
        sum += exp((looks[k] - best) / t->cfg->temp);
    for (int k = keep - 1; k >= 0; k--)
        if (new_node(t, node, t->legal[k], mover, exp((looks[k] - best) / t->cfg->temp) / sum, looks[k]) < 0)
            return -1;
    t->nodes[node].expanded = true;
    return 0;
}

/* Which of the node's children are legal in this guess, asked of the game
 * at once (pb_legal_each): the k-th child's answer at [k]; NULL when out of
 * memory. */
static const bool *children_legal(tree *t, int node)
{
    int n = 0;
    for (int ch = t->nodes[node].child; ch >= 0; ch = t->nodes[ch].sibling) {
        if (n == t->kids_cap) {
            int cap = t->kids_cap ? 2 * t->kids_cap : 64;
            pb_action *kids = realloc(t->kids, sizeof *kids * (size_t)cap);
            bool *legal = kids ? realloc(t->kids_legal, sizeof *legal * (size_t)cap) : NULL;
            if (kids)
                t->kids = kids;
            if (!legal)
                return NULL;
            t->kids_legal = legal;
            t->kids_cap = cap;
        }
        t->kids[n++] = t->nodes[ch].action;
    }
    pb_legal_each(t->g, t->det, t->kids, n, t->kids_legal);
    return t->kids_legal;
}

/* PUCT over the children legal in this guess; -1 if none is, -2 when out
 * of memory. A blind
 * seat (anchor >= 0: the node where its secret step began) chooses by its
 * statistics for the step, which do not depend on the moves it has not
 * seen; *stat gets the ones of the move chosen. */
static int select_child(tree *t, int node, int32_t anchor, int *stat)
{
    int best = -1, k = 0, player = pb_current_seat(t->g, t->det);
    double best_v = -1e300, c = t->cfg->c;
    const bool *legal = children_legal(t, node);
    *stat = -1;
    if (!legal)
        return -2;
    for (int ch = t->nodes[node].child; ch >= 0; ch = t->nodes[ch].sibling) {
        if (!legal[k++])
            continue;
        int si = anchor >= 0 ? blind_stat_of(t, anchor, player, &t->nodes[ch]) : -1;
        if (anchor >= 0 && si < 0)
            return -2;
        mnode *m = &t->nodes[ch];
        uint32_t *avail = si >= 0 ? &t->stats[si].avail : &m->avail;
        uint32_t visits = si >= 0 ? t->stats[si].visits : m->visits;
        double value = si >= 0 ? t->stats[si].value : m->value;
        ++*avail;
        double v = value / (visits + 1) + c * m->prior * sqrt((double)*avail) / (1 + visits);
        if (v > best_v) {
            best_v = v;
            best = ch;
            *stat = si;
        }
    }
    return best;
}

/* Play t->det on to the end: each mover draws t->draws moves at random
 * (all of them when there are no more) and takes the best by its one-ply
 * look, judged as it can judge (a blind seat with only what it knows, as in
 * expand()). Cheap beside the search, and the later rounds it plays are what
 * the evaluation guesses worst. */
static void play_out(tree *t)
{
    const pb_game *g = t->g;
    for (int step = 0; step < 4096 && !pb_is_terminal(g, t->det); step++) {
        int mover = pb_current_seat(g, t->det);
        int viewer = blind(t, mover) ? mover : t->seat;
        int n = g->ops->legal_actions(g, t->det, t->legal);
        if (n <= 0)
            return;
        pb_action best_a = t->legal[0];
        int draws = n < t->draws ? n : t->draws;
        if (n > t->draws)
            draw_moves(t, n, draws);
        double best = -1; /* a move look() cannot apply is never taken */
        for (int i = 0; i < draws && n > 1; i++) {
            double v = look(t, t->legal[i], viewer, mover);
            if (v > best)
                best = v, best_a = t->legal[i];
        }
        if (g->ops->apply(g, t->det, best_a, NULL, 0) != 0)
            return;
    }
}

static int iterate(tree *t)
{
    const pb_game *g = t->g;
    int path[1024], stat[1024], depth = 0, node = 0; /* stat[i]: for path[i], set when chosen */
    int32_t step = 0; /* the node where the current secret step began */
    pb_state_copy(g, t->det, t->root_state);
    g->ops->determinize(g, t->det, t->seat, &t->rng);
    path[depth++] = 0;
    while (!pb_is_terminal(g, t->det) && depth < 1024) {
        if (!t->nodes[node].expanded) {
            if (node != 0 && t->n + MAX_CHILDREN > t->cfg->nodes)
                break; /* the tree is full: score the leaf as it is (the root's
                        * expansion, however wide, is always made) */
            if (expand(t, node) != 0)
                return -1;
            if (node != 0)
                break; /* a new leaf: score it */
        }
        bool is_blind = node != 0 && blind(t, pb_current_seat(g, t->det));
        if (!is_blind)
            step = node;
        int next = select_child(t, node, is_blind ? step : -1, &stat[depth]);
        if (next == -2)
            return -1;
        if (next < 0 && t->n >= t->cfg->nodes)
            break; /* none of its moves is legal in this guess, and the tree is full */
        if (next < 0) { /* none of its moves is legal in this guess: add one */
            pb_action a = g->ops->random_action(g, t->det, &t->rng);
            if ((next = new_node(t, node, a, pb_current_seat(g, t->det), 0.05, 0.5)) < 0)
                return -1;
            stat[depth] = is_blind ? blind_stat_of(t, step, pb_current_seat(g, t->det), &t->nodes[next]) : -1;
            if (is_blind && stat[depth] < 0)
                return -1;
        }
        if (g->ops->apply(g, t->det, t->nodes[next].action, NULL, 0) != 0)
            return -1;
        path[depth++] = next;
        node = next;
    }
    double r[PB_MAX_SEATS], mix = t->draws && !pb_is_terminal(g, t->det) ? t->cfg->mix : 0;
    if (mix < 1) /* the leaf's own evaluation, unless the end alone scores it */
        rewards(t, t->det, t->seat, r);
    if (mix > 0) {
        double end[PB_MAX_SEATS];
        play_out(t);
        rewards(t, t->det, t->seat, end);
        for (int q = 0; q < g->players; q++)
            r[q] = mix < 1 ? (1 - mix) * r[q] + mix * end[q] : end[q];
    }
    t->nodes[0].visits++;
    for (int i = 1; i < depth; i++) {
        mnode *m = &t->nodes[path[i]];
        m->visits++;
        m->value += r[m->player];
        if (stat[i] >= 0) { /* a blind seat's move: its step's statistics too */
            t->stats[stat[i]].visits++;
            t->stats[stat[i]].value += r[m->player];
        }
    }
    t->iters++;
    return 0;
}

/* Has an iteration budget's search reached its CPU cap? (Asked every 16
 * iterations: the clock costs little, but not nothing.) */
static bool capped(const tree *t, double cpu_start)
{
    return t->cfg->cpu_cap > 0 && t->iters % 16 == 0 && pb_thread_cpu() - cpu_start >= t->cpu_left;
}

static void *grow(void *arg)
{
    tree *t = arg;
    double cpu_start = pb_thread_cpu();
    /* At least one iteration, so the root always has its moves. */
    while (t->iters == 0 || (t->budget ? t->iters < t->budget && !capped(t, cpu_start)
                                       : (t->iters % 16 != 0 || pb_now() < t->deadline)))
        if (iterate(t) != 0)
            break;
    return NULL;
}

static int ensure_buffers(tree *t, size_t state_size)
{
    if (!t->det)
        t->det = malloc(state_size);
    if (!t->trial)
        t->trial = malloc(state_size);
    if (!t->legal)
        t->legal = malloc(sizeof *t->legal * PB_MAX_ACTIONS);
    if (!t->looks)
        t->looks = malloc(sizeof *t->looks * PB_MAX_ACTIONS);
    return t->det && t->trial && t->legal && t->looks ? 0 : -1;
}

static int first_child(const tree *t)
{
    return t->root >= 0 && t->n > 0 ? t->nodes[t->root].child : -1;
}

/* A root move's visits over all trees, and its mean value (each tree's
 * node holds one look-ahead value besides its visits). */
static double root_totals(const mcts *m, int threads, pb_action a, double *value)
{
    double visits = 0, sum = 0;
    int trees = 0;
    for (int k = 0; k < threads; k++)
        for (int c2 = first_child(&m->trees[k]); c2 >= 0; c2 = m->trees[k].nodes[c2].sibling)
            if (m->trees[k].nodes[c2].action == a) {
                visits += m->trees[k].nodes[c2].visits;
                sum += m->trees[k].nodes[c2].value;
                trees++;
            }
    *value = sum / (visits + trees);
    return visits;
}

/* A root move's mean reward as the chance of winning a hint or the
 * analysis reports (pb_game_ops.chance_temper; not in a team game, whose
 * reward is the team's worth, not a lead). */
static double as_chance(const pb_game *g, double reward)
{
    double t = g->ops->chance_temper[g->players];
    if (t <= 0 || t == 1 || reward <= 0 || reward >= 1 || pb_is_cooperative(g))
        return reward;
    return 1 / (1 + exp(-log(reward / (1 - reward)) / t));
}

/* The root move searched most over all trees. */
static pb_action pick_most_visited(mcts *m, pb_bot *b, int threads)
{
    pb_action best = 0;
    double best_visits = -1, best_value = 0;
    int iters = 0;
    for (int i = 0; i < threads; i++) {
        iters += m->trees[i].iters;
        for (int ch = first_child(&m->trees[i]); ch >= 0; ch = m->trees[i].nodes[ch].sibling) {
            pb_action a = m->trees[i].nodes[ch].action;
            double value, visits = root_totals(m, threads, a, &value);
            if (visits > best_visits) {
                best_visits = visits;
                best_value = value;
                best = a;
            }
        }
    }
    b->searches = best_visits < 0 ? 0 : iters; /* none: no tree grew (out of memory) */
    snprintf(b->why, sizeof b->why, "%d searches: this move in %.0f, winning chance about %.0f%%", iters,
             best_visits, 100 * as_chance(m->trees[0].g, best_value));
    return best;
}

/* The place of a among the last decision's sure wins (the one played
 * first), or -1. */
static int sure_rank(const mcts *m, pb_action a)
{
    for (int i = 0; i < m->nsure; i++)
        if (m->sure[i] == a)
            return i;
    return -1;
}

/* A sure win (the game's sure_wins) is played whatever the search found:
 * its value is exact. The search's own move when it is one, else the most
 * searched of them (the first met on a tie); it goes first of them. */
static pb_action take_sure_win(mcts *m, pb_bot *b, const pb_game *g, const pb_state *st, pb_action searched)
{
    m->nsure = g->ops->sure_wins ? g->ops->sure_wins(g, st, m->sure, MCTS_SURE_MAX) : 0;
    if (!m->nsure)
        return searched;
    int best = sure_rank(m, searched);
    if (best < 0) {
        double most = -1, value;
        best = 0;
        for (int k = 0; k < m->cfg.threads; k++)
            for (int ch = first_child(&m->trees[k]); ch >= 0; ch = m->trees[k].nodes[ch].sibling) {
                int i = sure_rank(m, m->trees[k].nodes[ch].action);
                double visits = i < 0 ? -1 : root_totals(m, m->cfg.threads, m->sure[i], &value);
                if (visits > most)
                    most = visits, best = i;
            }
    }
    pb_action played = m->sure[best];
    m->sure[best] = m->sure[0];
    m->sure[0] = played;
    snprintf(b->why, sizeof b->why, "a sure win: this move wins whatever the others do");
    return played;
}

/* Does v go before w in the values: the sure wins first (the one played
 * first of them), then the most visited. */
static bool sooner(const pb_move_value *v, const pb_move_value *w, const mcts *m)
{
    int rv = sure_rank(m, v->action), rw = sure_rank(m, w->action);
    if (rv >= 0 || rw >= 0)
        return rw < 0 || (rv >= 0 && rv < rw);
    return w->visits < v->visits;
}

/* Insert v into out (n moves, in the order of sooner; few moves). */
static void insert_value(pb_move_value *out, int *n, pb_move_value v, const mcts *m)
{
    int i = (*n)++;
    for (; i > 0 && sooner(&v, &out[i - 1], m); i--)
        out[i] = out[i - 1];
    out[i] = v;
}

static bool listed(const pb_move_value *out, int n, pb_action a)
{
    for (int i = 0; i < n; i++)
        if (out[i].action == a)
            return true;
    return false;
}

/* The root moves of the last search (pb_bot_values), most visited first;
 * the sure wins before them all at their exact value, those the search
 * left out of its tree too. */
static int mcts_values(const pb_bot *b, pb_move_value *out, int max)
{
    const mcts *m = b->impl;
    int n = 0;
    for (int k = 0; k < m->cfg.threads; k++)
        for (int ch = first_child(&m->trees[k]); ch >= 0 && n < max; ch = m->trees[k].nodes[ch].sibling) {
            pb_move_value v = {m->trees[k].nodes[ch].action, 0, 0};
            if (listed(out, n, v.action)) /* met in an earlier tree */
                continue;
            v.visits = (long)root_totals(m, m->cfg.threads, v.action, &v.value);
            v.value = as_chance(m->trees[0].g, v.value);
            if (sure_rank(m, v.action) >= 0)
                v.value = 1;
            insert_value(out, &n, v, m);
        }
    for (int i = 0; i < m->nsure; i++)
        if (!listed(out, n, m->sure[i])) {
            if (n == max && (n == 0 || sure_rank(m, out[n - 1].action) >= 0))
                continue; /* no place left but a sure win's */
            if (n == max) /* the last place goes to the sure win */
                n--;
            insert_value(out, &n, (pb_move_value){m->sure[i], 0, 1}, m);
        }
    return n;
}

/* The next part of a decision in parts (a payment a card at a time), when
 * the last search was of its part before: that search went on into this
 * part below its move, so its statistics there answer without a new search
 * (a delivery of several ingredients costs one search, not one per card).
 * False when st is not what the last move led to, or that branch was
 * searched too little. */
#define REUSE_SHARE 25 /* at least this share of the last budget: 1 in 25 */
static bool reuse(mcts *m, pb_bot *b, const pb_game *g, const pb_state *st, int seat, pb_action *out)
{
    int threads = m->cfg.threads, searched = 0;
    pb_state *after = m->trees[0].trial;
    if (m->last_seat != seat || !m->last)
        return false;
    pb_state_copy(g, after, m->last);
    if (g->ops->apply(g, after, m->last_move, NULL, 0) != 0 || !pb_state_equal(g, after, st))
        return false;
    for (int k = 0; k < threads; k++) { /* go down to the last move: its children are this part's moves */
        tree *t = &m->trees[k];
        int below = -1;
        searched += t->iters;
        for (int ch = first_child(t); ch >= 0; ch = t->nodes[ch].sibling)
            if (t->nodes[ch].action == m->last_move)
                below = ch;
        t->root = below;
    }
    pb_action best = 0;
    double most = 0, value = 0;
    for (int k = 0; k < threads; k++)
        for (int ch = first_child(&m->trees[k]); ch >= 0; ch = m->trees[k].nodes[ch].sibling) {
            const mnode *c = &m->trees[k].nodes[ch];
            double v, visits = root_totals(m, threads, c->action, &v);
            if (c->player == seat && visits > most && g->ops->is_legal(g, st, c->action))
                most = visits, best = c->action, value = v;
        }
    if (most < 1 || most * REUSE_SHARE < searched)
        return false; /* the search that follows starts its trees afresh */
    pb_state_copy(g, m->last, st);
    m->last_move = best;
    b->searches = searched;
    snprintf(b->why, sizeof b->why, "the rest of the last search: this part in %.0f of its %d searches, winning "
             "chance about %.0f%%", most, searched, 100 * value);
    *out = best;
    return true;
}

static pb_action mcts_choose(pb_bot *b, const pb_game *g, const pb_state *st, int seat)
{
    mcts *m = b->impl;
    int threads = m->cfg.threads;
    m->nsure = 0;
    for (int i = 0; i < threads; i++)
        if (ensure_buffers(&m->trees[i], g->ops->state_size) != 0 ||
            (!m->last && !(m->last = malloc(g->ops->state_size)))) {
            snprintf(b->why, sizeof b->why, "out of memory: a random move");
            return g->ops->random_action(g, st, &b->rng);
        }
    pb_action a;
    if (g->ops->continues && reuse(m, b, g, st, seat, &a))
        return a;
    m->last_seat = -1;
    b->searches = 0; /* until a search is made: no values of an earlier one */
    /* one move: no search, unless the question is asked alike (the time
     * taken would tell whether this seat had a choice) */
    if (g->ops->legal_actions(g, st, m->trees[0].legal) == 1 && !pb_is_asked_alike(g, st)) {
        snprintf(b->why, sizeof b->why, "the only move");
        return m->trees[0].legal[0];
    }
    pthread_t tid[MCTS_MAX_THREADS];
    double deadline = pb_now() + m->cfg.ms / 1000.0;
    /* The cap is the whole decision's: a part searched afresh gets what the
     * parts before it left. */
    double cpu_left = m->cfg.cpu_cap - (pb_thread_cpu() - b->decision_cpu);
    int draws = m->cfg.playout ? m->cfg.playout : m->cfg.playout_iters ? g->ops->playout_draws : 0;
    int iters = !m->cfg.playout && draws ? m->cfg.playout_iters : m->cfg.iters;
    for (int i = 0; i < threads; i++) {
        tree *t = &m->trees[i];
        t->g = g;
        t->root_state = st;
        t->seat = seat;
        t->cfg = &m->cfg;
        t->scale = m->cfg.scale ? m->cfg.scale : g->ops->lead_scale ? g->ops->lead_scale : 2.0;
        t->n = 0;
        t->root = 0;
        t->nstats = 0;
        for (int k = 0; k < t->nbuckets; k++)
            t->buckets[k] = -1;
        t->iters = 0;
        t->draws = draws;
        t->budget = iters ? iters / threads + (i < iters % threads) : 0;
        t->deadline = deadline;
        t->cpu_left = cpu_left;
        pb_rng_seed(&t->rng, (uint64_t)pb_rng_next(&b->rng) << 32 | pb_rng_next(&b->rng));
        if (new_node(t, -1, 0, -1, 1, 0) < 0)
            return g->ops->random_action(g, st, &b->rng);
    }
    bool started[MCTS_MAX_THREADS] = {false};
    for (int i = 1; i < threads; i++)
        started[i] = pthread_create(&tid[i], NULL, grow, &m->trees[i]) == 0;
    grow(&m->trees[0]);
    for (int i = 1; i < threads; i++)
        if (started[i])
            pthread_join(tid[i], NULL);
    a = pick_most_visited(m, b, threads);
    if (!b->searches)
        return g->ops->random_action(g, st, &b->rng);
    a = take_sure_win(m, b, g, st, a);
    pb_state_copy(g, m->last, st);
    m->last_move = a;
    m->last_seat = seat;
    return a;
}

static void mcts_free(void *impl)
{
    mcts *m = impl;
    if (!m)
        return;
    for (int i = 0; i < MCTS_MAX_THREADS; i++) {
        free(m->trees[i].nodes);
        free(m->trees[i].det);
        free(m->trees[i].trial);
        free(m->trees[i].legal);
        free(m->trees[i].looks);
        free(m->trees[i].kids);
        free(m->trees[i].kids_legal);
        free(m->trees[i].stats);
        free(m->trees[i].buckets);
    }
    free(m->last);
    free(m);
}

/* Options after "mcts:", separated by ':': iters=N, ms=N, cap=N (with
 * iters: at most N ms of a thread's CPU), threads=N, and for experiments
 * c=X (exploration), scale=X, temp=X, width=N (moves kept at the root),
 * playout=N (leaves played out, the best of N moves drawn a step) and mix=X
 * (a played-out leaf's reward: this share from its end, at most 1),
 * margin=X (an end's reward: this share from the final lead, below 1) and
 * nodes=N (a tree's nodes at most, a thread). */
enum { OPT_ITERS, OPT_MS, OPT_CAP, OPT_THREADS, OPT_C, OPT_SCALE, OPT_TEMP, OPT_WIDTH, OPT_PLAYOUT, OPT_MIX,
       OPT_MARGIN, OPT_NODES };
static const struct {
    const char *name;
    double most;      /* the largest value taken (all above 0) */
    bool whole;       /* a whole number */
    bool below;       /* most itself is not taken */
} mcts_options[] = { /* in the enum's order */
    {"iters", 10000000, true, false}, {"ms", 60000, true, false}, {"cap", 60000, true, false},
    {"threads", MCTS_MAX_THREADS, true, false}, {"c", 1e8, false, false}, {"scale", 1e8, false, false},
    {"temp", 1e8, false, false}, {"width", PB_MAX_ACTIONS, true, false}, {"playout", 64, true, false},
    {"mix", 1, false, false}, {"margin", 1, false, true}, {"nodes", MAX_NODES, true, false},
};
#define N_MCTS_OPTIONS (sizeof mcts_options / sizeof mcts_options[0])

/* What option k takes, for the messages: "a whole number from 1 to 64". */
static void option_range(size_t k, char *buf, size_t n)
{
    double most = mcts_options[k].most;
    if (mcts_options[k].whole)
        snprintf(buf, n, "a whole number from 1 to %.0f", most);
    else
        snprintf(buf, n, "a number above 0, %s %.10g", mcts_options[k].below ? "below" : "up to", most);
}

static int parse_cfg(const char *params, mcts_cfg *cfg, char *err, size_t errlen)
{
    char copy[128], range[96];
    if (strlen(params) >= sizeof copy) {
        snprintf(err, errlen, "mcts options too long (%zu characters; at most %zu)", strlen(params), sizeof copy - 1);
        return -1;
    }
    snprintf(copy, sizeof copy, "%s", params);
    for (char *save, *kv = strtok_r(copy, ":", &save); kv; kv = strtok_r(NULL, ":", &save)) {
        char *eq = strchr(kv, '='), *end;
        double v = eq && eq[1] ? strtod(eq + 1, &end) : 0;
        if (!eq || !eq[1] || *end) {
            snprintf(err, errlen, "mcts option '%s' must be name=number, e.g. iters=2000", kv);
            return -1;
        }
        *eq = 0; /* kv: the name; eq + 1: the value */
        size_t k = 0;
        while (k < N_MCTS_OPTIONS && strcmp(kv, mcts_options[k].name) != 0)
            k++;
        if (k == N_MCTS_OPTIONS) {
            int used = snprintf(err, errlen, "unknown mcts option '%s' (known:", kv);
            for (size_t i = 0; i < N_MCTS_OPTIONS && used > 0 && (size_t)used < errlen; i++)
                used += snprintf(err + used, errlen - (size_t)used, " %s%s", mcts_options[i].name,
                                 i + 1 < N_MCTS_OPTIONS ? "," : ")");
            return -1;
        }
        double most = mcts_options[k].most;
        if (!(v > 0) || v > most || (mcts_options[k].below && v >= most) ||
            (mcts_options[k].whole && v != (double)(long)v)) {
            option_range(k, range, sizeof range);
            snprintf(err, errlen, "mcts option '%s=%s': %s takes %s", kv, eq + 1, kv, range);
            return -1;
        }
        switch (k) {
        case OPT_ITERS: cfg->iters = (int)v, cfg->ms = 0; break;
        case OPT_MS: cfg->ms = (int)v, cfg->iters = 0; break;
        case OPT_CAP: cfg->cpu_cap = v / 1000; break;
        case OPT_THREADS: cfg->threads = (int)v; break;
        case OPT_C: cfg->c = v; break;
        case OPT_SCALE: cfg->scale = v; break;
        case OPT_TEMP: cfg->temp = v; break;
        case OPT_WIDTH: cfg->width = (int)v; break;
        case OPT_PLAYOUT: cfg->playout = (int)v; break;
        case OPT_MIX: cfg->mix = v; break;
        case OPT_MARGIN: cfg->margin = v; break;
        default: cfg->nodes = (int)v; break;
        }
    }
    return 0;
}

/* Named levels for players (README, "Bots"): an iteration budget, and a
 * second of a core at most a move, whatever the position (a few Delivery
 * positions at 6 players need more than that for expert's budget). In a
 * game that asks for playouts, expert plays its leaves out: a played-out
 * iteration costs five or six of the others, so it makes fewer (a mid-game
 * New York Slice decision takes a third more time than 25,000 without). */
static const struct {
    const char *name;
    int iters, playout_iters;
} levels[] = {{"easy", 50, 0}, {"medium", 300, 0}, {"hard", 3000, 0}, {"expert", 25000, 6000}};
#define LEVEL_CPU_CAP 0.95 /* seconds: the move is made within the second */

bool pb_mcts_spec(const char *spec)
{
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++)
        if (strcmp(spec, levels[i].name) == 0)
            return true;
    return strncmp(spec, "mcts", 4) == 0 && (spec[4] == 0 || spec[4] == ':');
}

int pb_mcts_setup(pb_bot *b, const char *spec, char *err, size_t errlen)
{
    mcts_cfg cfg = {1000, 0, 0, 1, 1.0, 0, 0.05, MAX_CHILDREN, 0, 0, 1.0, 0, MAX_NODES};
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++)
        if (strcmp(spec, levels[i].name) == 0)
            cfg.iters = levels[i].iters, cfg.playout_iters = levels[i].playout_iters, cfg.cpu_cap = LEVEL_CPU_CAP;
    if (strncmp(spec, "mcts:", 5) == 0 && parse_cfg(spec + 5, &cfg, err, errlen) != 0)
        return -1;
    if (cfg.cpu_cap > 0 && cfg.iters == 0) {
        snprintf(err, errlen, "mcts option cap goes with iters (a time budget, ms, has its own end)");
        return -1;
    }
    mcts *m = calloc(1, sizeof *m);
    if (!m) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    m->cfg = cfg;
    m->last_seat = -1;
    b->impl = m;
    b->free_impl = mcts_free;
    b->choose = mcts_choose;
    b->values = mcts_values;
    return 0;
}
