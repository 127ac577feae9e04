/* evaluate.c -- how good a New York Slice position looks to one seat.
 *
 * A heuristic for bots, using only what the seat may know: each player's
 * expected final score is what they hold now, plus the slices they are
 * placing, plus what they would take from the portions left this round if
 * everyone chose greedily; majorities are weighed by how contested they are
 * given the slices of that type not yet revealed. */
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>

#include "nyslice.h"

#define BIT(n) (1u << (n))

/* What a player is expected to hold at the end, for evaluation. */
typedef struct holding {
    int count[NYS_TYPE_SLOTS];    /* type counts in half slices */
    double points;                /* pepperoni line and fixed Special points */
    int eaten;
    bool anchovy;                 /* holds the Anchovy slice collected */
    uint16_t specials;
} holding;

#define MAX_HALVES 48 /* highest type count, in half slices, the weights cover */

/* At most this many unseen slices show one type (a Combo of one type twice
 * counts twice). */
#define MAX_UNSEEN (2 * NYS_DECK_SLICES)

/* weights[r][k] = exp(beta_r * k / 2): the softmax weight of k half slices
 * of a type with r slices of it unseen. The same for every evaluation:
 * tabled once per process (filling it was most of an evaluation's time). */
static double weights[MAX_UNSEEN + 1][MAX_HALVES];
static pthread_once_t weights_once = PTHREAD_ONCE_INIT;

static void fill_weights(void)
{
    for (int r = 0; r <= MAX_UNSEEN; r++) {
        double step = exp(1.0 / sqrt(1.0 + r)), w = 1; /* beta / 2 per half slice */
        for (int k = 0; k < MAX_HALVES; k++, w *= step)
            weights[r][k] = w;
    }
}

typedef struct board {
    int players;
    holding h[NYS_MAX_PLAYERS];
    int unrevealed[NYS_TYPE_SLOTS]; /* slices showing the type not yet seen */
    const double *weight[NYS_TYPE_SLOTS]; /* weights[unrevealed[t]] */
} board;

/* Rough worth of holding a Special, beyond what the counts already show. */
static double special_worth(int sp, const holding *h)
{
    switch (sp) {
    case NYS_STUFFED_CRUST: return 5;
    case NYS_DAY_OLD_PIZZA: return -2;
    case NYS_BUFFET: {
        int types = 0;
        for (int t = NYS_MIN_TYPE; t <= NYS_MAX_TYPE; t++)
            types += h->count[t] > 0;
        return types + 1.5;
    }
    case NYS_DIBS: return 2;
    case NYS_EVERYONE_ELSE_DIET: return 2;
    case NYS_TIEBREAKER: return 1.5;
    case NYS_MYSTERY_SLICE: return 1;
    case NYS_SECONDS: return 1.5;
    case NYS_CUT_IN_LINE: return 1;
    case NYS_SNEAK_A_SLICE: return 1;
    default: return 0.5;
    }
}

static int capped(int halves)
{
    return halves < MAX_HALVES ? halves : MAX_HALVES - 1;
}

/* Share of the type's points a count can expect against the others: a
 * softmax that sharpens as fewer slices of the type remain unseen. extra is
 * in half slices. */
/* The share once every slice of the type is seen: the rules decide (NYS-E3). */
static double settled_share(const board *b, int seat, int t, int mine)
{
    int best_other = 0;
    for (int q = 0; q < b->players; q++)
        if (q != seat && b->h[q].count[t] > best_other)
            best_other = b->h[q].count[t];
    if (mine > best_other)
        return 1;
    return mine == best_other && mine > 0 && (b->h[seat].specials >> NYS_TIEBREAKER & 1u);
}

static double majority_share(const board *b, int seat, int t, int extra)
{
    int r = b->unrevealed[t];
    int mine = b->h[seat].count[t] + extra;
    if (r == 0)
        return settled_share(b, seat, t, mine);
    double own = b->weight[t][capped(mine)], sum = own;
    for (int q = 0; q < b->players; q++)
        if (q != seat)
            sum += b->weight[t][capped(b->h[q].count[t])];
    return own / sum;
}

/* majority_share(extra) - majority_share(0) in one pass over the others
 * (the bots' hottest path), each share summed in the same order as there. */
static double majority_gain(const board *b, int seat, int t, int extra)
{
    int r = b->unrevealed[t];
    int now = b->h[seat].count[t], then = now + extra;
    if (r == 0)
        return settled_share(b, seat, t, then) - settled_share(b, seat, t, now);
    const double *w = b->weight[t];
    double own_then = w[capped(then)], own_now = w[capped(now)];
    double sum_then = own_then, sum_now = own_now;
    for (int q = 0; q < b->players; q++)
        if (q != seat) {
            double wq = w[capped(b->h[q].count[t])];
            sum_then += wq;
            sum_now += wq;
        }
    return own_then / sum_then - own_now / sum_now;
}

/* Worth to `seat` of collecting (or eating) one slice, given the board. */
static double collect_worth(const board *b, int seat, const nys_slice *s, int supreme_type)
{
    const holding *h = &b->h[seat];
    double anch = (h->specials >> NYS_YOU_LIKE_ANCHOVIES & 1u) ? s->anch : -(double)s->anch;
    double v = anch;
    if (s->kind == NYS_NUMBERED || (s->kind == NYS_SUPREME && supreme_type)) {
        int t = s->kind == NYS_NUMBERED ? s->type : supreme_type;
        v += t * majority_gain(b, seat, t, 2);
    } else if (s->kind == NYS_COMBO) {
        int w = (h->specials >> NYS_SUPERSIZE_COMBOS & 1u) ? 4 : 1;
        v += s->type * majority_gain(b, seat, s->type, w);
        v += s->type2 * majority_gain(b, seat, s->type2, w);
    } else if (s->kind == NYS_SUPREME) {
        v += 1.5; /* will join the player's best type */
    }
    return v;
}

static double eat_worth(const holding *h, const nys_slice *s)
{
    double v = s->pep;
    if (s->kind == NYS_COMBO && (h->specials >> NYS_COMBO_CRAVING & 1u))
        v += 3;
    if (s->kind == NYS_NUMBERED && s->type == NYS_VEGGIE && (h->specials >> NYS_YOU_LOVE_VEGGIES & 1u))
        v += 3;
    return v - 0.25; /* a slice kept also keeps options open */
}

/* Place one slice the best way for `seat` (`edible`: may it be eaten now);
 * returns its worth. */
static double place(board *b, int seat, const nys_slice *s, int supreme_type, bool edible, bool apply)
{
    holding *h = &b->h[seat];
    double keep = collect_worth(b, seat, s, supreme_type);
    double eat = edible ? eat_worth(h, s) : -1e9;
    if (!apply)
        return keep > eat ? keep : eat;
    if (eat > keep) {
        h->points += s->pep;
        h->eaten++;
        return eat;
    }
    h->points += (h->specials >> NYS_YOU_LIKE_ANCHOVIES & 1u) ? s->anch : -(double)s->anch;
    if (s->kind == NYS_NUMBERED)
        h->count[s->type] += 2;
    else if (s->kind == NYS_COMBO) {
        int w = (h->specials >> NYS_SUPERSIZE_COMBOS & 1u) ? 4 : 1;
        h->count[s->type] += w;
        h->count[s->type2] += w;
    } else if (s->kind == NYS_ANCHOVY) {
        h->anchovy = true;
    }
    return keep;
}

/* Worth of a whole portion to `seat`, placed the best way. */
static double portion_worth(const nys_state *st, board *b, int seat, int pid, bool apply)
{
    double v = 0;
    holding *h = &b->h[seat];
    uint16_t before = h->specials;
    /* the portion's Special applies to the slices taken with it (NYS-T3) */
    bool special = pid == st->special_portion && st->today != NYS_NONE;
    if (special)
        h->specials |= (uint16_t)BIT(st->today);
    bool veggies = special && st->today == NYS_YOU_LOVE_VEGGIES;
    for (unsigned m = st->portion_mask[pid]; m; m &= m - 1) {
        const nys_slice *s = &st->slice[st->ring[__builtin_ctz(m)]];
        v += place(b, seat, s, 0, nys_slice_edible(s, h->specials, veggies), apply);
    }
    if (special)
        v += special_worth(st->today, h);
    if (!apply)
        h->specials = before;
    return v;
}

/* The board as `viewer` sees it: holdings and unseen slices per type. */
static void read_board(const nys_state *st, int viewer, board *b)
{
    memset(b, 0, sizeof *b);
    b->players = st->players;
    for (int q = 0; q < st->players; q++) {
        const nys_tally *t = &st->tally[q];
        holding *h = &b->h[q];
        h->specials = st->specials_of[q];
        int combo = (h->specials >> NYS_SUPERSIZE_COMBOS & 1u) ? 4 : 1;
        for (int ty = NYS_MIN_TYPE; ty <= NYS_MAX_TYPE; ty++)
            h->count[ty] = 2 * t->whole[ty] + combo * t->combos[ty];
        double anch = (h->specials >> NYS_YOU_LIKE_ANCHOVIES & 1u) ? t->anch_collected : -t->anch_collected;
        h->points = t->pep_eaten + anch + 3.0 * t->eaten_combos * ((h->specials >> NYS_COMBO_CRAVING) & 1u) +
                    3.0 * t->eaten_veggies * ((h->specials >> NYS_YOU_LOVE_VEGGIES) & 1u);
        h->eaten = t->eaten;
        h->anchovy = t->anchovy_collected > 0;
    }
    if (st->supreme_type && NYS_LOC_KIND(st->loc[st->supreme]) == NYS_LOC_COLLECTED)
        b->h[NYS_LOC_SEAT(st->loc[st->supreme])].count[st->supreme_type] += 2;
    /* Another seat's eaten Mystery slice counts as "a slice eaten", nothing more. */
    int m = st->mystery;
    if (m != NYS_NONE && st->mystery_owner != viewer && NYS_LOC_KIND(st->loc[m]) == NYS_LOC_EATEN) {
        holding *h = &b->h[st->mystery_owner];
        const nys_slice *s = &st->slice[m];
        h->points -= s->pep;
        if (s->kind == NYS_COMBO && (h->specials >> NYS_COMBO_CRAVING & 1u))
            h->points -= 3;
        if (s->kind == NYS_NUMBERED && s->type == NYS_VEGGIE && (h->specials >> NYS_YOU_LOVE_VEGGIES & 1u))
            h->points -= 3;
    }
    /* Unseen: still in a stack or spare, or another seat's face-down Mystery. */
    for (int id = 0; id < st->nslices; id++) {
        int k = NYS_LOC_KIND(st->loc[id]);
        bool hidden = id == st->mystery && st->mystery_owner != viewer && k != NYS_LOC_COLLECTED;
        if (k > NYS_LOC_SPARE && !hidden)
            continue;
        const nys_slice *s = &st->slice[id];
        if (s->kind == NYS_NUMBERED)
            b->unrevealed[s->type]++;
        else if (s->kind == NYS_COMBO) {
            b->unrevealed[s->type]++;
            b->unrevealed[s->type2]++;
        }
    }
    pthread_once(&weights_once, fill_weights);
    for (int t = NYS_MIN_TYPE; t <= NYS_MAX_TYPE; t++)
        b->weight[t] = weights[b->unrevealed[t] < MAX_UNSEEN ? b->unrevealed[t] : MAX_UNSEEN];
}

/* Finish the round in imagination: the slices being placed go the best way,
 * and each chooser still to come takes the portion worth most to them. */
static void imagine_round(const nys_state *st, int viewer, board *b)
{
    if (st->phase == NYS_PH_OVER || st->round >= st->rounds)
        return;
    bool placing = st->phase == NYS_PH_PLACE || st->phase == NYS_PH_EAT_OR_KEEP ||
                   st->phase == NYS_PH_ATTACH;
    if (placing) {
        for (int i = st->qnew; i < st->qlen; i++) {
            int id = st->queue[i];
            if (id == st->mystery && st->mystery_owner != viewer)
                continue; /* not ours to know */
            if (NYS_LOC_KIND(st->loc[id]) == NYS_LOC_PENDING)
                place(b, st->owner, &st->slice[id], 0, nys_edible(st, id, st->owner), true);
        }
    }
    if (!st->nportions || (placing && st->placing != NYS_PLACING_TAKE))
        return;
    uint8_t taken = st->taken;
    for (int i = placing ? st->turn + 1 : st->turn; i < st->players; i++) {
        int seat = st->order[i], best = -1;
        double best_v = -1e18;
        for (int pid = 0; pid < st->nportions; pid++) {
            if (taken >> pid & 1u)
                continue;
            double v = portion_worth(st, b, seat, pid, false);
            if (v > best_v) {
                best_v = v;
                best = pid;
            }
        }
        if (best < 0)
            return;
        taken |= (uint8_t)BIT(best);
        portion_worth(st, b, seat, best, true);
    }
}

void nys_expected_scores(const nys_state *st, int viewer, double *ev)
{
    board b;
    read_board(st, viewer, &b);
    imagine_round(st, viewer, &b);
    int diet = st->special_owner[NYS_EVERYONE_ELSE_DIET];
    for (int q = 0; q < b.players; q++) {
        holding *h = &b.h[q];
        double v = h->points;
        for (int t = NYS_MIN_TYPE; t <= NYS_MAX_TYPE; t++) {
            v += t * majority_share(&b, q, t, 0);
            if ((h->specials >> NYS_BUFFET & 1u) && h->count[t] > 0)
                v += 1;
        }
        v += (h->specials >> NYS_BUFFET & 1u) && h->anchovy;
        v += (h->specials >> NYS_STUFFED_CRUST & 1u) ? 5 : 0;
        v -= (h->specials >> NYS_DAY_OLD_PIZZA & 1u) ? 2 : 0;
        if (diet != NYS_NONE && diet != q)
            v -= h->eaten / 2;
        /* Powers not yet used are worth something while the game goes on. */
        static const int powers[] = {NYS_DIBS, NYS_CUT_IN_LINE, NYS_SNEAK_A_SLICE, NYS_SECONDS};
        for (int i = 0; i < 4 && st->phase != NYS_PH_OVER; i++)
            if ((h->specials >> powers[i] & 1u) && !(st->special_used >> powers[i] & 1u))
                v += 0.5 * special_worth(powers[i], h);
        ev[q] = v;
    }
}
