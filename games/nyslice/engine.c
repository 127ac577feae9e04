/* engine.c -- New York Slice rules: setup, rounds, division, choosing,
 * placing, the Specials' powers and the end of the game.
 *
 * The engine moves forward by itself through everything that needs no
 * decision (reveals, forced collects, the Slicer's last portion, a Supreme
 * with one possible type), so the state always waits on a real decision of
 * one seat, or is over. */
#include <stdio.h>
#include <string.h>

#include "nyslice.h"

#define BIT(n) (1u << (n))

static void start_round(nys_state *st);

bool nys_owns(const nys_state *st, int seat, int special)
{
    return (st->specials_of[seat] >> special) & 1u;
}

/* NYS-R6: a one-time power is ready for its owner when unused and gained in
 * an earlier round. Returns the owner, or -1. */
static int power_ready(const nys_state *st, int special)
{
    int o = st->special_owner[special];
    if (o == NYS_NONE || (st->special_used >> special & 1u) || st->special_round[special] >= st->round)
        return -1;
    return o;
}

/* Portable popcount: without -mpopcnt the builtin is a library call. */
static inline int popcount(unsigned x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return (int)((x * 0x01010101u) >> 24);
}

/* Move a slice into a collection or an eaten pile, keeping the tallies in
 * step (every such move goes through here). */
static inline void move_to_seat(nys_state *st, int id, uint8_t loc)
{
    uint8_t old = st->loc[id];
    if (old >= NYS_LOC_COLLECTED)
        nys_tally_slice(&st->tally[NYS_LOC_SEAT(old)], &st->slice[id], old >= NYS_LOC_EATEN, -1);
    st->loc[id] = loc;
    nys_tally_slice(&st->tally[NYS_LOC_SEAT(loc)], &st->slice[id], loc >= NYS_LOC_EATEN, 1);
}

/* Rebuild every tally from the slices' places. */
static void recount_tallies(nys_state *st)
{
    memset(st->tally, 0, sizeof st->tally);
    for (int id = 0; id < st->nslices; id++)
        if (st->loc[id] >= NYS_LOC_COLLECTED)
            nys_tally_slice(&st->tally[NYS_LOC_SEAT(st->loc[id])], &st->slice[id],
                            st->loc[id] >= NYS_LOC_EATEN, 1);
}

/* ---- Setup (NYS-S1..S6) ---- */

void nys_rules_setup(nys_rules *r, const nys_deck *deck, int players, int first_slicer)
{
    memset(r, 0, sizeof *r);
    r->deck = *deck;
    r->players = players;
    r->first_slicer = first_slicer;
    r->edition = NYS_EDITION;
    for (int t = NYS_MIN_TYPE; t <= NYS_MAX_TYPE; t++)
        snprintf(r->category_name[t], sizeof r->category_name[t], "%d %s", t, deck->type_name[t]);
    for (int i = 0; i < NYS_DECK_SLICES; i++) {
        if (!nys_slice_in_play(&deck->slice[i], players))
            continue;
        int n = r->nin_play++, c = n;
        r->in_play[n] = deck->slice[i];
        for (int j = 0; j < n && c == n; j++)
            if (nys_slice_equal(&r->in_play[j], &deck->slice[i]))
                c = r->in_play_class[j];
        r->in_play_class[n] = (uint8_t)c;
    }
}

/* Copy the in-play slices into the state (NYS-S1). */
static void setup_common(nys_state *st, const nys_rules *rules, uint64_t seed)
{
    memset(st, 0, sizeof *st);
    pb_rng_seed(&st->rng, seed);
    st->players = (uint8_t)rules->players;
    st->edition = (uint8_t)rules->edition;
    st->rounds = (uint8_t)nys_rounds_for(rules->players);
    st->supreme = st->anchovy = st->mystery = st->mystery_owner = NYS_NONE;
    st->today = st->special_portion = NYS_NONE;
    memset(st->special_owner, NYS_NONE, sizeof st->special_owner);
    int n = rules->nin_play;
    memcpy(st->slice, rules->in_play, sizeof(nys_slice) * (size_t)n);
    memcpy(st->cls, rules->in_play_class, (size_t)n);
    /* The deck file lists the Anchovy slice and the Supreme last. */
    st->anchovy = (uint8_t)(n - 2);
    st->supreme = (uint8_t)(n - 1);
    st->nslices = (uint8_t)n;
    /* NYS-S5: the table's choice, or drawn from the seed. */
    st->first_slicer = rules->first_slicer >= 0
                           ? (uint8_t)rules->first_slicer
                           : (uint8_t)pb_rng_below(&st->rng, st->players);
}

/* Deal the stacks, spares and Specials from the given orders (NYS-S2, S3). */
static void deal(nys_state *st, const uint8_t *order, const uint8_t *specials)
{
    int k = st->rounds * NYS_RING;
    memcpy(st->stack, order, (size_t)k); /* every loc[] is already NYS_LOC_STACK (0) */
    st->nspares = NYS_SPARES;
    for (int i = 0; i < NYS_SPARES; i++) {
        st->spare[i] = order[k];
        st->loc[order[k++]] = NYS_LOC_SPARE;
    }
    for (int r = 0; r < st->rounds; r++)
        st->stack_special[r] = specials[r];
    st->nbox = 0;
    for (int i = st->rounds; i < NYS_SPECIAL_COUNT; i++)
        st->box[st->nbox++] = specials[i];
    st->round = 0;
    st->slicer = st->first_slicer;
    start_round(st);
}

void nys_init(nys_state *st, const nys_rules *rules, uint64_t seed)
{
    uint8_t order[NYS_DECK_SLICES], specials[NYS_SPECIAL_COUNT];
    setup_common(st, rules, seed);
    for (int i = 0; i < st->nslices; i++)
        order[i] = (uint8_t)i;
    for (int i = 0; i < NYS_SPECIAL_COUNT; i++)
        specials[i] = (uint8_t)i;
    pb_rng_shuffle_u8(&st->rng, order, st->nslices);
    pb_rng_shuffle_u8(&st->rng, specials, NYS_SPECIAL_COUNT);
    deal(st, order, specials);
}

int nys_init_arranged(nys_state *st, const nys_rules *rules, uint64_t seed,
                      const uint8_t *order, const uint8_t *specials, char *err, size_t errlen)
{
    setup_common(st, rules, seed);
    uint8_t seen[NYS_DECK_SLICES] = {0}, sseen[NYS_SPECIAL_COUNT] = {0};
    for (int i = 0; i < st->nslices; i++) {
        if (order[i] >= st->nslices || seen[order[i]]++) {
            snprintf(err, errlen, "arrangement: slice order is not a permutation of 0..%d",
                     st->nslices - 1);
            return -1;
        }
    }
    for (int i = 0; i < NYS_SPECIAL_COUNT; i++) {
        if (specials[i] >= NYS_SPECIAL_COUNT || sseen[specials[i]]++) {
            snprintf(err, errlen, "arrangement: Special order is not a permutation of the 14");
            return -1;
        }
    }
    deal(st, order, specials);
    return 0;
}

/* ---- Rounds ---- */

const char *nys_special_unplayable(const nys_state *st, int sp)
{
    if (st->players == 2 && (sp == NYS_CUT_IN_LINE || sp == NYS_DIBS || sp == NYS_YOU_LOVE_VEGGIES))
        return "not played in a 2-player game";
    if (st->round == st->rounds - 1 && (sp == NYS_CUT_IN_LINE || sp == NYS_SNEAK_A_SLICE))
        return "not played in the last round";
    return NULL;
}

static bool special_valid(const nys_state *st, int sp)
{
    return !nys_special_unplayable(st, sp);
}

/* NYS-S4: reveal the round's Special, replacing it from the box until valid. */
static void reveal_special(nys_state *st)
{
    int sp = st->stack_special[st->round];
    st->replaced_now = 0;
    while (!special_valid(st, sp)) {
        st->box[st->nbox++] = (uint8_t)sp;
        st->box_seen |= (uint16_t)BIT(sp);
        st->replaced_now |= (uint16_t)BIT(sp);
        /* Drawing at random until a valid one appears is the same as drawing
         * uniformly among the valid ones, with one random number. */
        int valid = 0;
        for (int i = 0; i < st->nbox; i++)
            valid += special_valid(st, st->box[i]);
        int pick = (int)pb_rng_below(&st->rng, (uint32_t)valid);
        for (int i = 0; i < st->nbox; i++) {
            if (special_valid(st, st->box[i]) && pick-- == 0) {
                sp = st->box[i];
                st->box[i] = st->box[--st->nbox];
                break;
            }
        }
        st->stack_special[st->round] = (uint8_t)sp;
    }
    st->today = (uint8_t)sp;
}

static void start_seconds(nys_state *st);

/* NYS-R1: reveal the Special and the ring; offer Dibs! (NYS-R2). */
static void start_round(nys_state *st)
{
    if (st->round == st->rounds) {
        start_seconds(st);
        return;
    }
    reveal_special(st);
    memcpy(st->ring, st->stack[st->round], NYS_RING);
    memset(st->portion_mask, 0, sizeof st->portion_mask);
    for (int p = 0; p < NYS_RING; p++)
        st->loc[st->ring[p]] = NYS_LOC_RING;
    st->present = (uint16_t)(BIT(NYS_RING) - 1);
    st->nportions = st->ring_portions = 0;
    st->taken = 0;
    st->special_portion = NYS_NONE;
    st->turn = 0;
    int dibs = power_ready(st, NYS_DIBS);
    st->phase = dibs >= 0 ? NYS_PH_DIBS : NYS_PH_DIVIDE;
    st->actor = dibs >= 0 ? (uint8_t)dibs : st->slicer;
}

/* A reason for a refusal, when the caller wants one (search asks for none). */
#define say(err, errlen, ...) ((err) ? (void)snprintf((err), (errlen), __VA_ARGS__) : (void)0)

/* ---- Division (NYS-R3) ---- */

static unsigned present_mask(const nys_state *st)
{
    return st->present;
}

int nys_portions_from_cuts(unsigned present, unsigned cuts, uint16_t *masks)
{
    if (cuts == 0) {
        masks[0] = (uint16_t)present;
        return 1;
    }
    int first = __builtin_ctz(cuts), prev = first, n = 0;
    for (unsigned c = cuts & (cuts - 1); c; c &= c - 1) {
        int next = __builtin_ctz(c);
        masks[n++] = (uint16_t)(present & (BIT(next + 1) - BIT(prev + 1)));
        prev = next;
    }
    /* The last portion runs from after the highest cut round to the lowest. */
    masks[n++] = (uint16_t)(present & ~(BIT(prev + 1) - BIT(first + 1)));
    return n;
}

int nys_portion_at(const nys_state *st, int pos)
{
    for (int pid = 0; pid < st->nportions; pid++)
        if (st->portion_mask[pid] >> pos & 1u)
            return pid;
    return -1;
}
/* Is `pos` the lowest position of its portion under these cuts? True for
 * the lowest slice of all (it is in the portion that wraps past 11), and
 * for a slice right after a cut whose portion ends at a later cut. */
static bool lowest_of_portion(unsigned present, unsigned cuts, int pos)
{
    unsigned below = present & (BIT(pos) - 1);
    if (!below)
        return true;
    int prev = 31 - __builtin_clz(below);
    return (cuts >> prev & 1u) && (cuts >> pos) != 0;
}

/* The lowest position of the portion that starts after cut `c`. */
static int portion_start_after(unsigned present, unsigned cuts, int c)
{
    unsigned later = present & ~(BIT(c + 1) - 1);
    if (cuts >> (c + 1) == 0 || !later) /* the last cut: that portion wraps */
        return __builtin_ctz(present);
    return __builtin_ctz(later);
}

/* Cut counts of a legal division for N players: the Special alone needs
 * N-1 ring portions (no cut at all when that is one portion), the Special
 * with slices needs N. */
static int cuts_alone(int players)
{
    return players - 1 == 1 ? 0 : players - 1;
}

static bool divide_legal(const nys_state *st, unsigned cuts, int spos, char *err, size_t errlen)
{
    unsigned present = present_mask(st);
    if (cuts & ~present) {
        say(err, errlen, "a cut must follow a slice of the pizza");
        return false;
    }
    int k = popcount(cuts);
    if (spos == NYS_SPECIAL_ALONE) {
        if (k != cuts_alone(st->players)) {
            if (cuts_alone(st->players) == 0)
                say(err, errlen, "%d players with the Special alone: the whole pizza is the other portion, "
                                 "so no cuts ('special alone'), not %d", st->players, k);
            else
                say(err, errlen, "%d players with the Special alone need %d cuts (%d portions of slices), not %d",
                    st->players, cuts_alone(st->players), st->players - 1, k);
            return false;
        }
        return true;
    }
    if (k != st->players) {
        say(err, errlen, "%d players need %d cuts when the Special goes with slices (%d portions), not %d",
                 st->players, st->players, st->players, k);
        return false;
    }
    if (spos < 0 || spos >= NYS_RING || st->ring[spos] == NYS_NONE) {
        say(err, errlen, "the Special must go with a portion of slices, or alone");
        return false;
    }
    if (!lowest_of_portion(present, cuts, spos)) {
        say(err, errlen, "the Special's portion is named by its lowest position");
        return false;
    }
    return true;
}

/* The normal choosing order: clockwise from the Slicer's left, Slicer last
 * (NYS-R4), with `first` moved to the front when it is not -1. */
static void set_order(nys_state *st, int first)
{
    int n = 0;
    if (first >= 0)
        st->order[n++] = (uint8_t)first;
    for (int i = 1; i <= st->players; i++) {
        int seat = (st->slicer + i) % st->players;
        if (seat != first)
            st->order[n++] = (uint8_t)seat;
    }
    st->turn = 0;
}

/* ---- Sneak-a-Slice (NYS-R5) ---- */

typedef struct run {
    uint8_t pid, first, last, count;
} run;

/* The remaining ring portions as runs in ring order, taken portions removed
 * so their neighbours touch. Returns the number of runs. */
static int remaining_runs(const nys_state *st, run *runs)
{
    uint8_t id_at[NYS_RING], list[NYS_RING], ids[NYS_RING];
    unsigned left = 0;
    for (int pid = 0; pid < st->nportions; pid++)
        if (!(st->taken >> pid & 1u)) {
            left |= st->portion_mask[pid];
            for (unsigned m = st->portion_mask[pid]; m; m &= m - 1)
                id_at[__builtin_ctz(m)] = (uint8_t)pid;
        }
    int m = 0;
    for (; left; left &= left - 1) {
        int p = __builtin_ctz(left);
        ids[m] = id_at[p];
        list[m++] = (uint8_t)p;
    }
    if (m == 0)
        return 0;
    int start = -1;
    for (int i = 0; i < m && start < 0; i++)
        if (ids[i] != ids[(i + m - 1) % m])
            start = i;
    if (start < 0) {
        runs[0] = (run){ids[0], list[0], list[m - 1], (uint8_t)m};
        return 1;
    }
    int nr = 0;
    for (int j = 0; j < m; j++) {
        int p = list[(start + j) % m], pid = ids[(start + j) % m];
        if (nr == 0 || pid != runs[nr - 1].pid) {
            runs[nr++] = (run){(uint8_t)pid, (uint8_t)p, (uint8_t)p, 1};
        } else {
            runs[nr - 1].last = (uint8_t)p;
            runs[nr - 1].count++;
        }
    }
    return nr;
}

/* Target portion of a sneak move, or -1 if the move is not legal. */
static int sneak_target(const nys_state *st, const run *runs, int nr, int pos, int dir)
{
    if (nr < 2)
        return -1;
    for (int r = 0; r < nr; r++) {
        bool end = dir == 0 ? runs[r].first == pos : runs[r].last == pos;
        if (!end)
            continue;
        /* The move may not leave a portion empty; a portion that also holds
         * the Special may give up its last slice and becomes the Special alone. */
        if (runs[r].count < 2 && runs[r].pid != st->special_portion)
            return -1;
        /* A lone slice between just two portions reaches the same one either
         * way: only the move onward (dir 1) is listed. */
        if (runs[r].count == 1 && nr == 2 && dir == 0)
            return -1;
        return runs[dir == 0 ? (r + nr - 1) % nr : (r + 1) % nr].pid;
    }
    return -1;
}

int nys_sneak_target(const nys_state *st, int pos, int dir)
{
    run runs[NYS_RING];
    int nr = remaining_runs(st, runs);
    return pos >= 0 && pos < NYS_RING && dir >= 0 && dir <= 1 ? sneak_target(st, runs, nr, pos, dir) : -1;
}

/* Why moving the slice at `pos` into `portion` is no Sneak-a-Slice move, in
 * the words of the table (positions by number, portions by letter). */
void nys_sneak_refusal(const nys_state *st, int pos, int portion, char *err, size_t errlen)
{
    run runs[NYS_RING];
    int nr = remaining_runs(st, runs), from = nys_portion_at(st, pos);
    char to = (char)nys_portion_letter(st, portion), own = (char)nys_portion_letter(st, from);
    if (from < 0 || (st->taken >> from & 1u)) {
        say(err, errlen, "the slice at position %d is in portion %c, which is already taken", pos + 1, own);
        return;
    }
    if (portion < 0 || portion >= st->nportions || (st->taken >> portion & 1u)) {
        say(err, errlen, "portion %c is already taken: Sneak-a-Slice moves a slice into a portion still on the table", to);
        return;
    }
    if (from == portion) {
        say(err, errlen, "position %d is already in portion %c", pos + 1, to);
        return;
    }
    for (int r = 0; r < nr; r++) {
        if (runs[r].pid != from || (runs[r].first != pos && runs[r].last != pos))
            continue;
        if (runs[r].count < 2 && from != st->special_portion) {
            say(err, errlen, "moving position %d would leave portion %c empty", pos + 1, own);
            return;
        }
        say(err, errlen, "portion %c is not next to position %d: the slice can only move into the "
            "neighbouring portion on its side", to, pos + 1);
        return;
    }
    say(err, errlen, "position %d is not at an end of portion %c: Sneak-a-Slice moves an end slice", pos + 1, own);
}

/* Write the legal sneak moves as payloads; returns the count. */
static int sneak_moves(const nys_state *st, int *out)
{
    run runs[NYS_RING];
    int nr = remaining_runs(st, runs), n = 0;
    for (int r = 0; r < nr; r++)
        for (int dir = 0; dir < 2; dir++) {
            int pos = dir == 0 ? runs[r].first : runs[r].last;
            if (sneak_target(st, runs, nr, pos, dir) >= 0)
                out[n++] = pos | dir << 4;
        }
    return n;
}

static __attribute__((noinline)) bool sneak_possible(const nys_state *st)
{
    int moves[2 * NYS_RING];
    return sneak_moves(st, moves) > 0;
}

/* ---- Choosing and placing (NYS-R4, T1..T5) ---- */

/* NYS-T3: is `seat` placing the portion that brought You Love Veggies? Only
 * then may it eat Veggies without pepperoni. */
static inline bool love_veggies_now(const nys_state *st, int seat)
{
    return st->placing == NYS_PLACING_TAKE && st->today == NYS_YOU_LOVE_VEGGIES && st->owner == seat &&
           st->special_owner[NYS_YOU_LOVE_VEGGIES] == seat && st->special_round[NYS_YOU_LOVE_VEGGIES] == st->round;
}

static inline bool edible(const nys_state *st, int id, int seat)
{
    return nys_slice_edible(&st->slice[id], st->specials_of[seat], love_veggies_now(st, seat));
}

bool nys_edible(const nys_state *st, int id, int seat)
{
    return edible(st, id, seat);
}

int nys_mystery_index(const nys_state *st)
{
    bool drawn = st->mystery != NYS_NONE && st->placing == NYS_PLACING_TAKE && st->qlen > st->qnew &&
                 st->queue[st->qlen - 1] == st->mystery;
    return drawn ? st->qlen - 1 - st->qnew : -1;
}

uint16_t nys_attach_types(const nys_state *st, int seat)
{
    const nys_tally *t = &st->tally[seat];
    uint16_t m = 0;
    for (int ty = NYS_MIN_TYPE; ty <= NYS_MAX_TYPE; ty++)
        if (t->whole[ty] | t->combos[ty])
            m |= (uint16_t)BIT(ty);
    return m;
}

int nys_portion_first_pos(const nys_state *st, int portion)
{
    if (portion < 0 || portion > NYS_MAX_PLAYERS || !st->portion_mask[portion])
        return -1;
    return __builtin_ctz(st->portion_mask[portion]);
}

/* Portion ids run clockwise from after the lowest cut, and the last ring
 * portion wraps past 11 to that cut, so it holds the lowest position: A. */
int nys_portion_letter(const nys_state *st, int portion)
{
    int wrap = st->ring_portions - 1;
    if (portion < 0 || portion >= st->nportions)
        return 0;
    return portion == wrap ? 'A' : portion > wrap ? 'A' + portion : 'B' + portion;
}

int nys_portion_by_letter(const nys_state *st, int letter)
{
    for (int pid = 0; pid < st->nportions; pid++)
        if (nys_portion_letter(st, pid) == (letter >= 'a' && letter <= 'z' ? letter - 'a' + 'A' : letter))
            return pid;
    return -1;
}

static void begin_turn(nys_state *st);

/* After all slices of a placement are down. */
static void finish_placement(nys_state *st)
{
    switch (st->placing) {
    case NYS_PLACING_DIBS:
        st->phase = NYS_PH_DIVIDE;
        st->actor = st->slicer;
        return;
    case NYS_PLACING_SECONDS:
        st->phase = NYS_PH_OVER;
        st->actor = NYS_NONE;
        st->round = st->rounds;
        return;
    default:
        if (++st->turn < st->players) {
            begin_turn(st);
            return;
        }
        st->round++;
        st->slicer = (uint8_t)((st->slicer + 1) % st->players);
        start_round(st);
    }
}

/* NYS-T4: a collected Supreme with no type attaches now if it can: to a
 * numbered type, or (edition 2) next to the Anchovy slice when that is the
 * only other slice its owner collected, where it counts for no type. */
static void after_placement(nys_state *st)
{
    int o = st->owner;
    if (st->placing != NYS_PLACING_SECONDS && st->supreme != NYS_NONE && st->supreme_type == 0 &&
        !st->supreme_on_anchovy && st->loc[st->supreme] == (NYS_LOC_COLLECTED | o)) {
        uint16_t types = nys_attach_types(st, o);
        if (popcount(types) == 1) {
            st->supreme_type = (uint8_t)__builtin_ctz(types);
        } else if (types) {
            st->phase = NYS_PH_ATTACH;
            st->actor = (uint8_t)o;
            return;
        } else if (st->edition >= 2 && st->anchovy != NYS_NONE &&
                   st->loc[st->anchovy] == (NYS_LOC_COLLECTED | o)) {
            st->supreme_on_anchovy = 1;
        }
    }
    finish_placement(st);
}

/* Ask about the queue: first each collected slice that may now be eaten
 * (one decision each), then the new slices together, as one decision on
 * which to eat. Without an edible new slice they are all collected. */
static void process_queue(nys_state *st)
{
    if (st->qpos < st->qnew) {
        st->phase = NYS_PH_EAT_OR_KEEP;
        st->actor = st->owner;
        return;
    }
    if (st->qpos < st->qlen) {
        if (st->new_edible) {
            st->phase = NYS_PH_PLACE;
            st->actor = st->owner;
            return;
        }
        for (int i = st->qnew; i < st->qlen; i++)
            move_to_seat(st, st->queue[i], (uint8_t)(NYS_LOC_COLLECTED | st->owner));
        st->qpos = st->qlen;
    }
    after_placement(st);
}

/* The class a slice being placed goes by: identical slices share one, but
 * the Mystery slice just drawn stands apart, since eating it rather than a
 * visible twin keeps it secret (NYS-T5). */
static inline int place_class(const nys_state *st, int id)
{
    return id == st->mystery && st->placing == NYS_PLACING_TAKE ? -1 : st->cls[id];
}

/* Append a slice just gained to the queue, noting whether it may be eaten
 * and whether an identical edible one is already there. */
static inline void queue_new(nys_state *st, int id)
{
    int i = st->qlen - st->qnew;
    st->queue[st->qlen++] = (uint8_t)id;
    if (!edible(st, id, st->owner))
        return;
    for (unsigned m = st->new_edible; m; m &= m - 1)
        if (place_class(st, st->queue[st->qnew + __builtin_ctz(m)]) == place_class(st, id))
            st->new_twins |= (uint16_t)BIT(i);
    st->new_edible |= (uint16_t)BIT(i);
}

static void queue_collected(nys_state *st, int seat, bool (*pick)(const nys_slice *))
{
    for (int i = 0; i < st->nslices; i++)
        if (st->loc[i] == (NYS_LOC_COLLECTED | seat) && pick(&st->slice[i]))
            st->queue[st->qlen++] = (uint8_t)i;
}

static bool is_combo(const nys_slice *s)
{
    return s->kind == NYS_COMBO;
}

static bool is_veggie(const nys_slice *s)
{
    return s->kind == NYS_NUMBERED && s->type == NYS_VEGGIE;
}

static bool holds_combo(const nys_tally *t)
{
    for (int ty = NYS_MIN_TYPE; ty <= NYS_MAX_TYPE; ty++)
        if (t->combos[ty])
            return true;
    return false;
}

static void gain_special(nys_state *st, int seat, int sp)
{
    st->special_owner[sp] = (uint8_t)seat;
    st->special_round[sp] = st->round;
    st->specials_of[seat] |= (uint16_t)BIT(sp);
    /* NYS-T3: may at once eat such slices already collected. */
    const nys_tally *t = &st->tally[seat];
    if (sp == NYS_COMBO_CRAVING && holds_combo(t))
        queue_collected(st, seat, is_combo);
    if (sp == NYS_YOU_LOVE_VEGGIES && t->whole[NYS_VEGGIE] > 0)
        queue_collected(st, seat, is_veggie);
}

/* NYS-T1: take a portion, its Special, and the Mystery draw. */
static void take_portion(nys_state *st, int seat, int pid)
{
    st->taken |= (uint8_t)BIT(pid);
    st->taken_by[pid] = (uint8_t)seat;
    st->owner = (uint8_t)seat;
    st->placing = NYS_PLACING_TAKE;
    st->qlen = st->qpos = 0;
    bool special = pid == st->special_portion;
    if (special)
        gain_special(st, seat, st->today);
    st->qnew = st->qlen;
    st->new_edible = st->new_twins = 0;
    for (unsigned m = st->portion_mask[pid]; m; m &= m - 1) {
        int id = st->ring[__builtin_ctz(m)];
        st->loc[id] = (uint8_t)(NYS_LOC_PENDING | seat);
        queue_new(st, id);
    }
    if (special && st->today == NYS_MYSTERY_SLICE && st->nspares > 0) {
        int j = (int)pb_rng_below(&st->rng, st->nspares);
        int id = st->spare[j];
        st->spare[j] = st->spare[--st->nspares];
        st->loc[id] = (uint8_t)(NYS_LOC_PENDING | seat);
        st->mystery = (uint8_t)id;
        st->mystery_owner = (uint8_t)seat;
        queue_new(st, id);
    }
    process_queue(st);
}

static int portions_left(const nys_state *st)
{
    return st->nportions - popcount(st->taken);
}

/* The chooser at st->turn: offer Sneak-a-Slice, or take the last portion. */
static void begin_turn(nys_state *st)
{
    int seat = st->order[st->turn];
    if (portions_left(st) == 1) {
        for (int pid = 0; pid < st->nportions; pid++)
            if (!(st->taken >> pid & 1u)) {
                take_portion(st, seat, pid);
                return;
            }
    }
    if (seat != st->slicer && power_ready(st, NYS_SNEAK_A_SLICE) == seat && sneak_possible(st))
        st->phase = NYS_PH_SNEAK;
    else
        st->phase = NYS_PH_TAKE;
    st->actor = (uint8_t)seat;
}

/* ---- End of the game (NYS-E1) ---- */

/* NYS-E1: may Seconds eat this collected slice on type t? Only slices of
 * that type carrying pepperoni ("as long as that type has pepperonis on
 * it"): never a Combo, never a Veggie without pepperoni, whatever Specials
 * the owner holds. A Supreme counts as the type it is attached to. */
static bool seconds_fits(const nys_state *st, int id, int t)
{
    const nys_slice *s = &st->slice[id];
    if (s->pep == 0)
        return false;
    if (s->kind == NYS_NUMBERED)
        return s->type == t;
    return s->kind == NYS_SUPREME && st->supreme_type == t;
}

/* Types with a collected slice Seconds may eat (NYS-E1). */
static uint16_t seconds_types(const nys_state *st, int seat)
{
    const nys_tally *t = &st->tally[seat];
    uint16_t m = 0;
    for (int ty = NYS_MIN_TYPE; ty <= NYS_MAX_TYPE; ty++)
        if (t->peppered[ty])
            m |= (uint16_t)BIT(ty);
    if (st->supreme_type && st->loc[st->supreme] == (NYS_LOC_COLLECTED | seat))
        m |= (uint16_t)BIT(st->supreme_type);
    return m;
}

static void start_seconds(nys_state *st)
{
    st->today = NYS_NONE;
    st->placing = NYS_PLACING_SECONDS;
    int o = st->special_owner[NYS_SECONDS];
    if (o != NYS_NONE && seconds_types(st, o)) {
        st->phase = NYS_PH_SECONDS;
        st->actor = (uint8_t)o;
        st->owner = (uint8_t)o;
        return;
    }
    st->phase = NYS_PH_OVER;
    st->actor = NYS_NONE;
}

/* ---- Which new slices to eat (NYS-T2) ----
 *
 * Identical slices are interchangeable, so among identical edible slices
 * only "the first k of them" is an action: a mask is canonical when every
 * eaten twin's earlier identical slice is eaten too. */

/* Bits of the new edible slices identical to new slice i, i included. */
static unsigned twin_group(const nys_state *st, int i)
{
    unsigned g = 0;
    int c = place_class(st, st->queue[st->qnew + i]);
    for (unsigned m = st->new_edible; m; m &= m - 1) {
        int j = __builtin_ctz(m);
        if (place_class(st, st->queue[st->qnew + j]) == c)
            g |= BIT(j);
    }
    return g;
}

/* The k lowest set bits of g. */
static unsigned lowest_bits(unsigned g, int k)
{
    unsigned out = 0;
    for (; k > 0 && g; g &= g - 1, k--)
        out |= g & -g;
    return out;
}

static bool place_canonical(const nys_state *st, unsigned mask)
{
    if (!(mask & st->new_twins)) /* no twin eaten: at most the first of each group */
        return true;
    for (unsigned m = st->new_edible & ~st->new_twins; m; m &= m - 1) {
        unsigned g = twin_group(st, __builtin_ctz(m));
        if ((mask & g) != lowest_bits(g, popcount(mask & g)))
            return false;
    }
    return true;
}

/* Uniform among the canonical masks: for each group of identical slices,
 * how many to eat, from none to all. */
static __attribute__((noinline)) unsigned random_twin_mask(const nys_state *st, pb_rng *rng)
{
    unsigned mask = 0;
    for (unsigned m = st->new_edible & ~st->new_twins; m; m &= m - 1) {
        unsigned g = twin_group(st, __builtin_ctz(m));
        mask |= lowest_bits(g, (int)pb_rng_below(rng, (uint32_t)popcount(g) + 1));
    }
    return mask;
}

static int place_masks(const nys_state *st, pb_action *out)
{
    unsigned groups[NYS_QUEUE_MAX];
    int sizes[NYS_QUEUE_MAX], take[NYS_QUEUE_MAX], ng = 0, n = 0;
    for (unsigned m = st->new_edible & ~st->new_twins; m; m &= m - 1) {
        groups[ng] = twin_group(st, __builtin_ctz(m));
        sizes[ng] = popcount(groups[ng]);
        take[ng++] = 0;
    }
    for (;;) { /* count in mixed radix over the groups */
        unsigned mask = 0;
        for (int gi = 0; gi < ng; gi++)
            mask |= lowest_bits(groups[gi], take[gi]);
        out[n++] = NYS_ACTION(NYS_A_PLACE, mask);
        int gi = 0;
        while (gi < ng && ++take[gi] > sizes[gi])
            take[gi++] = 0;
        if (gi == ng)
            return n;
    }
}

/* ---- The interface: legal actions, validation, apply ---- */

int nys_current_seat(const nys_state *st)
{
    return st->phase == NYS_PH_OVER ? PB_TERMINAL : st->actor;
}

int nys_legal_actions(const nys_state *st, pb_action *out)
{
    int n = 0;
    switch (st->phase) {
    case NYS_PH_DIBS:
        out[n++] = NYS_ACTION(NYS_A_PASS, 0);
        for (int p = 0; p < NYS_RING; p++)
            if (st->ring[p] != NYS_NONE)
                out[n++] = NYS_ACTION(NYS_A_DIBS, p);
        return n;
    case NYS_PH_DIVIDE: {
        unsigned present = present_mask(st);
        int alone = cuts_alone(st->players);
        for (unsigned cuts = 0; cuts < BIT(NYS_RING); cuts++) {
            if (cuts & ~present)
                continue;
            int k = popcount(cuts);
            if (k == alone)
                out[n++] = NYS_DIVIDE(cuts, NYS_SPECIAL_ALONE);
            if (k == st->players)
                for (unsigned c = cuts; c; c &= c - 1)
                    out[n++] = NYS_DIVIDE(cuts, portion_start_after(present, cuts, __builtin_ctz(c)));
        }
        return n;
    }
    case NYS_PH_CUT_IN_LINE:
        out[n++] = NYS_ACTION(NYS_A_PASS, 0);
        out[n++] = NYS_ACTION(NYS_A_CUT_IN_LINE, 0);
        return n;
    case NYS_PH_SNEAK: {
        int moves[2 * NYS_RING];
        int m = sneak_moves(st, moves);
        out[n++] = NYS_ACTION(NYS_A_PASS, 0);
        for (int i = 0; i < m; i++)
            out[n++] = NYS_ACTION(NYS_A_SNEAK, moves[i]);
        return n;
    }
    case NYS_PH_TAKE:
        for (int pid = 0; pid < st->nportions; pid++)
            if (!(st->taken >> pid & 1u))
                out[n++] = NYS_ACTION(NYS_A_TAKE, pid);
        return n;
    case NYS_PH_PLACE:
        return place_masks(st, out);
    case NYS_PH_EAT_OR_KEEP:
        out[n++] = NYS_ACTION(NYS_A_EAT, 0);
        out[n++] = NYS_ACTION(NYS_A_KEEP, 0);
        return n;
    case NYS_PH_ATTACH: {
        uint16_t types = nys_attach_types(st, st->actor);
        for (int t = NYS_MIN_TYPE; t <= NYS_MAX_TYPE; t++)
            if (types & BIT(t))
                out[n++] = NYS_ACTION(NYS_A_ATTACH, t);
        return n;
    }
    case NYS_PH_SECONDS: {
        uint16_t types = seconds_types(st, st->actor);
        out[n++] = NYS_ACTION(NYS_A_PASS, 0);
        for (int t = NYS_MIN_TYPE; t <= NYS_MAX_TYPE; t++)
            if (types & BIT(t))
                out[n++] = NYS_ACTION(NYS_A_SECONDS, t);
        return n;
    }
    default:
        return 0;
    }
}

/* "you have collected no 5: ... (types: 7 9)": a refused type and the
 * types that would do; `what` has one %d for the type. */
static void types_refusal(int type, uint16_t ok, const char *what, char *err, size_t errlen)
{
    if (!err)
        return;
    int len = snprintf(err, errlen, what, type);
    const char *sep = " (";
    for (int t = NYS_MIN_TYPE; t <= NYS_MAX_TYPE && len >= 0 && (size_t)len < errlen; t++)
        if (ok >> t & 1u) {
            len += snprintf(err + len, errlen - (size_t)len, "%s%d", sep, t);
            sep = ", ";
        }
    if (ok && len >= 0 && (size_t)len < errlen)
        snprintf(err + len, errlen - (size_t)len, ")");
}

const char *nys_phase_expects(int phase)
{
    switch (phase) {
    case NYS_PH_DIBS: return "Dibs! on a slice, or \"pass\"";
    case NYS_PH_DIVIDE: return "the Slicer's division of the pizza";
    case NYS_PH_CUT_IN_LINE: return "\"cut-in-line\" or \"pass\"";
    case NYS_PH_SNEAK: return "a Sneak-a-Slice move, or \"pass\"";
    case NYS_PH_TAKE: return "a portion to take, by its letter";
    case NYS_PH_PLACE: return "which of the slices just taken to eat (the rest are collected)";
    case NYS_PH_EAT_OR_KEEP: return "\"eat\" or \"keep\" for the slice offered";
    case NYS_PH_ATTACH: return "a type to attach the Supreme to";
    case NYS_PH_SECONDS: return "a type for Seconds, or \"pass\"";
    default: return "nothing: the game is over";
    }
}

bool nys_is_legal(const nys_state *st, pb_action a, char *err, size_t errlen)
{
    int kind = NYS_ACTION_KIND(a), arg = NYS_ACTION_PAYLOAD(a);
    static const unsigned allowed[] = {
        [NYS_PH_DIBS] = BIT(NYS_A_PASS) | BIT(NYS_A_DIBS),
        [NYS_PH_DIVIDE] = BIT(NYS_A_DIVIDE),
        [NYS_PH_CUT_IN_LINE] = BIT(NYS_A_PASS) | BIT(NYS_A_CUT_IN_LINE),
        [NYS_PH_SNEAK] = BIT(NYS_A_PASS) | BIT(NYS_A_SNEAK),
        [NYS_PH_TAKE] = BIT(NYS_A_TAKE),
        [NYS_PH_PLACE] = BIT(NYS_A_PLACE),
        [NYS_PH_EAT_OR_KEEP] = BIT(NYS_A_EAT) | BIT(NYS_A_KEEP),
        [NYS_PH_ATTACH] = BIT(NYS_A_ATTACH),
        [NYS_PH_SECONDS] = BIT(NYS_A_PASS) | BIT(NYS_A_SECONDS),
        [NYS_PH_OVER] = 0,
    };
    if (kind <= 0 || kind > 30 || !(allowed[st->phase] & BIT(kind))) {
        say(err, errlen, "not now: the game expects %s", nys_phase_expects(st->phase));
        return false;
    }
    switch (kind) {
    case NYS_A_PASS:
    case NYS_A_CUT_IN_LINE:
        if (arg == 0)
            return true;
        break;
    case NYS_A_DIBS:
        if (arg < NYS_RING && st->ring[arg] != NYS_NONE)
            return true;
        say(err, errlen, "position %d holds no slice: Dibs! takes a slice of the pizza", arg + 1);
        return false;
    case NYS_A_DIVIDE:
        return divide_legal(st, (unsigned)arg & (BIT(NYS_RING) - 1), arg >> 11, err, errlen);
    case NYS_A_SNEAK: {
        run runs[NYS_RING];
        int nr = remaining_runs(st, runs);
        int pos = arg & 0xF, dir = arg >> 4;
        if (pos < NYS_RING && dir <= 1 && sneak_target(st, runs, nr, pos, dir) >= 0)
            return true;
        say(err, errlen, "Sneak-a-Slice moves an end slice of a portion into the adjacent "
                              "portion, and may not leave a portion empty");
        return false;
    }
    case NYS_A_TAKE:
        if (arg < st->nportions && !(st->taken >> arg & 1u))
            return true;
        if (arg < st->nportions)
            say(err, errlen, "portion %c is already taken", nys_portion_letter(st, arg));
        else
            say(err, errlen, "that portion is not on the table");
        return false;
    case NYS_A_PLACE:
        if ((arg & ~st->new_edible) == 0 && place_canonical(st, (unsigned)arg))
            return true;
        say(err, errlen, "only slices with pepperoni (and those a Special makes edible) can be eaten");
        return false;
    case NYS_A_EAT:
    case NYS_A_KEEP:
        if (arg == 0)
            return true; /* edibility was checked when the slice was offered */
        break;
    case NYS_A_ATTACH:
        if (arg < 16 && (nys_attach_types(st, st->actor) >> arg & 1u))
            return true;
        types_refusal(arg, nys_attach_types(st, st->actor), "you have collected no %d: the Supreme attaches to a "
                      "type you collected", err, errlen);
        return false;
    case NYS_A_SECONDS:
        if (arg < 16 && (seconds_types(st, st->actor) >> arg & 1u))
            return true;
        types_refusal(arg, seconds_types(st, st->actor), "you have no collected %d with pepperoni: Seconds eats "
                      "slices of one type that carry pepperoni", err, errlen);
        return false;
    }
    say(err, errlen, "malformed action");
    return false;
}

static __attribute__((noinline)) void apply_sneak(nys_state *st, int pos, int dir)
{
    int target = nys_sneak_target(st, pos, dir);
    st->portion_mask[nys_portion_at(st, pos)] &= (uint16_t)~BIT(pos);
    st->portion_mask[target] |= (uint16_t)BIT(pos);
    st->special_used |= (uint16_t)BIT(NYS_SNEAK_A_SLICE);
    st->phase = NYS_PH_TAKE;
}

/* NYS-R3: set the portions; then Cut in Line (NYS-R4) or the first chooser. */
static __attribute__((noinline)) void apply_divide(nys_state *st, unsigned cuts, int spos)
{
    int nring = nys_portions_from_cuts(st->present, cuts, st->portion_mask);
    st->nportions = st->ring_portions = (uint8_t)nring;
    if (spos == NYS_SPECIAL_ALONE) {
        st->special_portion = (uint8_t)nring;
        st->portion_mask[nring] = 0;
        st->nportions++;
    } else {
        st->special_portion = (uint8_t)nys_portion_at(st, spos);
    }
    set_order(st, -1);
    /* Offered only to a non-Slicer owner who does not already choose first. */
    int cil = power_ready(st, NYS_CUT_IN_LINE);
    if (cil >= 0 && cil != st->slicer && cil != st->order[0]) {
        st->phase = NYS_PH_CUT_IN_LINE;
        st->actor = (uint8_t)cil;
    } else {
        begin_turn(st);
    }
}

static void eat_slice(nys_state *st, int id)
{
    move_to_seat(st, id, (uint8_t)(NYS_LOC_EATEN | st->owner));
    if (id == st->mystery)
        st->mystery_specials = st->specials_of[st->owner];
}

/* NYS-T2: eat the new slices in the mask, collect the others. */
static void place_new(nys_state *st, unsigned mask)
{
    nys_tally *t = &st->tally[st->owner];
    for (int i = 0; i < st->qlen - st->qnew; i++) {
        int id = st->queue[st->qnew + i];
        bool eat = mask >> i & 1u;
        /* New slices are pending, in no tally yet. */
        st->loc[id] = (uint8_t)((eat ? NYS_LOC_EATEN : NYS_LOC_COLLECTED) | st->owner);
        nys_tally_slice(t, &st->slice[id], eat, 1);
        if (eat && id == st->mystery)
            st->mystery_specials = st->specials_of[st->owner];
    }
    st->qpos = st->qlen;
    after_placement(st);
}

int nys_apply(nys_state *st, pb_action a, char *err, size_t errlen)
{
    int kind = NYS_ACTION_KIND(a), arg = NYS_ACTION_PAYLOAD(a);
    /* The two most frequent decisions take a short path. */
    if (st->phase == NYS_PH_PLACE && kind == NYS_A_PLACE && (arg & ~st->new_edible) == 0 &&
        ((arg & st->new_twins) == 0 || place_canonical(st, (unsigned)arg))) {
        place_new(st, (unsigned)arg);
        return 0;
    }
    if (st->phase == NYS_PH_TAKE && kind == NYS_A_TAKE && arg < st->nportions &&
        !(st->taken >> arg & 1u)) {
        take_portion(st, st->actor, arg);
        return 0;
    }
    if (!nys_is_legal(st, a, err, errlen))
        return -1;
    switch (kind) {
    case NYS_A_PASS:
        if (st->phase == NYS_PH_DIBS) {
            st->phase = NYS_PH_DIVIDE;
            st->actor = st->slicer;
        } else if (st->phase == NYS_PH_CUT_IN_LINE) {
            begin_turn(st);
        } else if (st->phase == NYS_PH_SNEAK) {
            st->phase = NYS_PH_TAKE;
        } else {
            st->phase = NYS_PH_OVER; /* Seconds declined */
            st->actor = NYS_NONE;
            st->round = st->rounds;
        }
        return 0;
    case NYS_A_DIBS: {
        /* NYS-R2: the slice leaves the ring; its neighbours become adjacent. */
        int id = st->ring[arg];
        st->ring[arg] = NYS_NONE;
        st->present &= (uint16_t)~BIT(arg);
        st->special_used |= (uint16_t)BIT(NYS_DIBS);
        st->owner = st->actor;
        st->placing = NYS_PLACING_DIBS;
        st->qlen = st->qpos = st->qnew = 0;
        st->new_edible = st->new_twins = 0;
        st->loc[id] = (uint8_t)(NYS_LOC_PENDING | st->owner);
        queue_new(st, id);
        process_queue(st);
        return 0;
    }
    case NYS_A_DIVIDE:
        apply_divide(st, (unsigned)arg & (BIT(NYS_RING) - 1), arg >> 11);
        return 0;
    case NYS_A_CUT_IN_LINE:
        st->special_used |= (uint16_t)BIT(NYS_CUT_IN_LINE);
        set_order(st, st->actor);
        begin_turn(st);
        return 0;
    case NYS_A_SNEAK:
        apply_sneak(st, arg & 0xF, arg >> 4);
        return 0;
    case NYS_A_TAKE:
        take_portion(st, st->actor, arg);
        return 0;
    case NYS_A_PLACE:
        place_new(st, (unsigned)arg);
        return 0;
    case NYS_A_EAT:
    case NYS_A_KEEP: {
        int id = st->queue[st->qpos++];
        if (kind == NYS_A_EAT)
            eat_slice(st, id);
        process_queue(st);
        return 0;
    }
    case NYS_A_ATTACH:
        st->supreme_type = (uint8_t)arg;
        finish_placement(st);
        return 0;
    case NYS_A_SECONDS:
        st->seconds_type = (uint8_t)arg;
        st->qlen = st->qpos = 0;
        for (int i = 0; i < st->nslices; i++)
            if (st->loc[i] == (NYS_LOC_COLLECTED | st->owner) && seconds_fits(st, i, arg))
                st->queue[st->qlen++] = (uint8_t)i;
        st->qnew = st->qlen;
        st->new_edible = st->new_twins = 0;
        process_queue(st);
        return 0;
    }
    return -1;
}

/* ---- Random playouts: one legal action, uniformly, without listing ---- */

static const uint16_t binom[NYS_RING + 1][NYS_RING + 1] = {
    {1}, {1, 1}, {1, 2, 1}, {1, 3, 3, 1}, {1, 4, 6, 4, 1}, {1, 5, 10, 10, 5, 1},
    {1, 6, 15, 20, 15, 6, 1}, {1, 7, 21, 35, 35, 21, 7, 1}, {1, 8, 28, 56, 70, 56, 28, 8, 1},
    {1, 9, 36, 84, 126, 126, 84, 36, 9, 1}, {1, 10, 45, 120, 210, 252, 210, 120, 45, 10, 1},
    {1, 11, 55, 165, 330, 462, 462, 330, 165, 55, 11, 1},
};

/* One uniformly random division from one random number: it ranks first the
 * divisions with the Special alone (a set of cuts), then those with the
 * Special on a portion (a set of cuts times the portion). */
static __attribute__((noinline)) pb_action random_division(const nys_state *st, pb_rng *rng)
{
    int n = popcount(st->present), N = st->players, k_alone = cuts_alone(N);
    uint32_t alone = binom[n][k_alone], attached = (uint32_t)binom[n][N] * (uint32_t)N;
    uint32_t r = pb_rng_below(rng, alone + attached);
    int k = r < alone ? k_alone : N, portion = -1;
    if (r >= alone) {
        r -= alone;
        portion = (int)(r % (uint32_t)N);
        r /= (uint32_t)N;
    }
    /* Unrank r as a k-subset of the n present positions (lexicographic). */
    unsigned cuts = 0;
    for (unsigned m = st->present; m && k > 0; m &= m - 1, n--) {
        uint32_t with = binom[n - 1][k - 1]; /* subsets that cut after this slice */
        if (r < with) {
            cuts |= m & -m;
            k--;
        } else {
            r -= with;
        }
    }
    if (portion < 0)
        return NYS_DIVIDE(cuts, NYS_SPECIAL_ALONE);
    /* Each portion starts after exactly one cut. */
    unsigned c = cuts;
    for (; portion > 0; portion--)
        c &= c - 1;
    return NYS_DIVIDE(cuts, portion_start_after(st->present, cuts, __builtin_ctz(c)));
}

/* The rarer phases have at most a few dozen choices: list them. Kept out of
 * line so the hot path carries no array (and no stack guard). */
static __attribute__((noinline)) pb_action random_from_list(const nys_state *st, pb_rng *rng)
{
    pb_action all[64];
    int n = nys_legal_actions(st, all);
    return n ? all[pb_rng_below(rng, (uint32_t)n)] : 0;
}

pb_action nys_random_action(const nys_state *st, pb_rng *rng)
{
    switch (st->phase) {
    case NYS_PH_DIVIDE:
        return random_division(st, rng);
    case NYS_PH_TAKE: {
        int left = portions_left(st);
        int pick = (int)pb_rng_below(rng, (uint32_t)left);
        for (int pid = 0; pid < st->nportions; pid++)
            if (!(st->taken >> pid & 1u) && pick-- == 0)
                return NYS_ACTION(NYS_A_TAKE, pid);
        return 0;
    }
    case NYS_PH_PLACE:
        if (!st->new_twins) /* all different: every subset is one action */
            return NYS_ACTION(NYS_A_PLACE, pb_rng_next(rng) & st->new_edible);
        return NYS_ACTION(NYS_A_PLACE, random_twin_mask(st, rng));
    default:
        return random_from_list(st, rng);
    }
}

/* ---- Hidden information ---- */

int nys_find_slice(const nys_state *st, const char *token, int nth)
{
    nys_slice want;
    int attached;
    if (nys_slice_parse(token, &want, &attached) != 0)
        return -1;
    for (int i = 0; i < st->nslices; i++)
        if (nys_slice_equal(&st->slice[i], &want) && nth-- == 0)
            return i;
    return -1;
}

/* Make slice nm the Mystery slice in the place of the current one (nm is
 * unseen: in a slot the caller refills). Tallies are recounted by the caller. */
static void put_mystery(nys_state *st, uint8_t nm)
{
    int m = st->mystery;
    if (nm == m)
        return;
    st->loc[nm] = st->loc[m];
    for (int q = 0; q < st->qlen; q++)
        if (st->queue[q] == m)
            st->queue[q] = nm;
    st->mystery = nm;
}

/* Is the Mystery slice face down for `seat` (another's, pending or eaten)? */
static bool mystery_hidden(const nys_state *st, int seat)
{
    int m = st->mystery;
    return m != NYS_NONE && st->mystery_owner != seat && NYS_LOC_KIND(st->loc[m]) != NYS_LOC_COLLECTED;
}

/* The spares in one order whatever the deal (their order is unseen). */
static void sort_spares(nys_state *st)
{
    for (int i = 1; i < st->nspares; i++)
        for (int j = i; j > 0 && st->spare[j - 1] > st->spare[j]; j--) {
            uint8_t t = st->spare[j];
            st->spare[j] = st->spare[j - 1];
            st->spare[j - 1] = t;
        }
}

bool nys_last_round(const nys_state *st)
{
    return st->phase != NYS_PH_OVER && st->round + 1 >= st->rounds; /* Seconds comes after it */
}

int nys_last_round_worlds(const nys_state *st, int seat, nys_state *out)
{
    /* Nothing else is unseen in the last round: every stack is face up or
     * gone, so the spares are known as a set by elimination; only which of
     * them is another seat's face-down Mystery slice is not. The weights
     * are nys_determinize's: uniform over the slices it could be. */
    if (!mystery_hidden(st, seat)) {
        out[0] = *st;
        sort_spares(&out[0]);
        return 1;
    }
    uint8_t pool[NYS_SPARES + 1];
    int np = 0, n = 0;
    for (int i = 0; i < st->nspares; i++)
        pool[np++] = st->spare[i];
    pool[np++] = st->mystery;
    bool eaten = NYS_LOC_KIND(st->loc[st->mystery]) == NYS_LOC_EATEN;
    for (int c = 0; c < np; c++) {
        if (eaten && !nys_slice_edible(&st->slice[pool[c]], st->mystery_specials, false))
            continue;
        nys_state *w = &out[n++];
        *w = *st;
        put_mystery(w, pool[c]);
        for (int i = 0, k = 0; i < np; i++)
            if (i != c) {
                w->spare[k++] = pool[i];
                w->loc[pool[i]] = NYS_LOC_SPARE;
            }
        recount_tallies(w);
        sort_spares(w);
    }
    return n;
}

int nys_draw_outcomes(const nys_state *before, const nys_state *after)
{
    return before->mystery == NYS_NONE && after->mystery != NYS_NONE ? before->nspares : 1;
}

int nys_apply_outcome(nys_state *st, pb_action a, int k, char *err, size_t errlen)
{
    /* The draw is the next number the state's generator gives (nothing
     * else in a move draws before it): put spare k where it will land. */
    if (k > 0 || st->nspares > 1) {
        pb_rng r = st->rng;
        int j = st->nspares ? (int)pb_rng_below(&r, st->nspares) : 0;
        if (k < st->nspares && j != k) {
            uint8_t t = st->spare[j];
            st->spare[j] = st->spare[k];
            st->spare[k] = t;
        }
    }
    return nys_apply(st, a, err, errlen);
}

void nys_determinize(nys_state *st, int seat, pb_rng *rng)
{
    /* Unseen slices: the stacks of later rounds, the spares, and another
     * seat's Mystery slice while it is face down (pending or eaten). */
    uint8_t *slot[NYS_DECK_SLICES];
    uint8_t slot_loc[NYS_DECK_SLICES], pool[NYS_DECK_SLICES];
    int n = 0;
    for (int r = st->round + 1; r < st->rounds; r++)
        for (int i = 0; i < NYS_RING; i++) {
            slot_loc[n] = NYS_LOC_STACK;
            slot[n++] = &st->stack[r][i];
        }
    for (int i = 0; i < st->nspares; i++) {
        slot_loc[n] = NYS_LOC_SPARE;
        slot[n++] = &st->spare[i];
    }
    int m = st->mystery;
    bool hide_mystery = mystery_hidden(st, seat);
    for (int i = 0; i < n; i++)
        pool[i] = *slot[i];
    int np = n;
    if (hide_mystery)
        pool[np++] = (uint8_t)m;
    /* in id order: the guess never depends on where the slices really are */
    pb_sort_u8(pool, np);
    if (hide_mystery) {
        bool eaten = NYS_LOC_KIND(st->loc[m]) == NYS_LOC_EATEN;
        /* An eaten Mystery slice was edible for its owner (it never comes with
         * You Love Veggies: the round's Special was Mystery Slice). */
        int ok = 0;
        for (int i = 0; i < np; i++)
            ok += !eaten || nys_slice_edible(&st->slice[pool[i]], st->mystery_specials, false);
        int pick = (int)pb_rng_below(rng, (uint32_t)ok), chosen = 0;
        for (int i = 0; i < np; i++)
            if ((!eaten || nys_slice_edible(&st->slice[pool[i]], st->mystery_specials, false)) && pick-- == 0)
                chosen = i;
        uint8_t nm = pool[chosen];
        pool[chosen] = pool[np - 1];
        np--;
        put_mystery(st, nm);
    }
    pb_rng_deal_u8(rng, pool, np);
    for (int i = 0; i < n; i++) {
        *slot[i] = pool[i];
        st->loc[pool[i]] = slot_loc[i];
    }
    /* Unseen Specials: on later stacks and in the box, except those
     * everyone saw go back to the box. */
    uint8_t *sslot[NYS_SPECIAL_COUNT];
    uint8_t spool[NYS_SPECIAL_COUNT];
    int ns = 0;
    for (int r = st->round + 1; r < st->rounds; r++)
        sslot[ns++] = &st->stack_special[r];
    for (int i = 0; i < st->nbox; i++)
        if (!(st->box_seen >> st->box[i] & 1u))
            sslot[ns++] = &st->box[i];
    for (int i = 0; i < ns; i++)
        spool[i] = *sslot[i];
    pb_rng_deal_u8(rng, spool, ns);
    for (int i = 0; i < ns; i++)
        *sslot[i] = spool[i];
    uint64_t seed = (uint64_t)pb_rng_next(rng) << 32 | pb_rng_next(rng);
    pb_rng_seed(&st->rng, seed);
    if (hide_mystery)
        recount_tallies(st);
}

/* ---- Self-check ---- */

int nys_check_invariants(const nys_state *st, char *err, size_t errlen)
{
    int where[NYS_DECK_SLICES];
    memset(where, 0, sizeof where);
#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)
    /* Every unrevealed stack slice and spare is where its list says. */
    int first_hidden = st->phase == NYS_PH_OVER || st->round >= st->rounds ? st->rounds : st->round + 1;
    for (int r = first_hidden; r < st->rounds; r++)
        for (int i = 0; i < NYS_RING; i++) {
            int id = st->stack[r][i];
            if (id >= st->nslices || st->loc[id] != NYS_LOC_STACK)
                FAIL("stack %d slot %d: slice %d is not marked as in a stack", r, i, id);
            where[id]++;
        }
    for (int i = 0; i < st->nspares; i++) {
        int id = st->spare[i];
        if (id >= st->nslices || st->loc[id] != NYS_LOC_SPARE)
            FAIL("spare %d: slice %d is not marked as spare", i, id);
        where[id]++;
    }
    int stack_count = 0, spare_count = 0, ring_count = 0;
    for (int id = 0; id < st->nslices; id++) {
        int kind = NYS_LOC_KIND(st->loc[id]), seat = NYS_LOC_SEAT(st->loc[id]);
        if (kind == NYS_LOC_STACK)
            stack_count++;
        else if (kind == NYS_LOC_SPARE)
            spare_count++;
        else if (kind == NYS_LOC_RING)
            ring_count++;
        else if (kind > NYS_LOC_EATEN || seat >= st->players)
            FAIL("slice %d has an impossible location 0x%02x", id, st->loc[id]);
        if (kind == NYS_LOC_PENDING && st->phase != NYS_PH_PLACE && st->phase != NYS_PH_EAT_OR_KEEP)
            FAIL("slice %d is waiting to be placed outside a placement", id);
    }
    if (stack_count != 11 * (st->rounds - first_hidden))
        FAIL("%d slices are in stacks, expected %d", stack_count, 11 * (st->rounds - first_hidden));
    if (spare_count != st->nspares)
        FAIL("%d slices are spare, expected %d", spare_count, st->nspares);
    for (int id = 0; id < st->nslices; id++)
        if (where[id] > 1)
            FAIL("slice %d is listed twice", id);
    /* Ring slices are either on the table or with whoever took their portion. */
    if (st->phase != NYS_PH_OVER && st->round < st->rounds) {
        int on_table = 0;
        for (int p = 0; p < NYS_RING; p++) {
            int id = st->ring[p];
            if (id == NYS_NONE)
                continue;
            int pid = nys_portion_at(st, p);
            bool taken = pid >= 0 && (st->taken >> pid & 1u);
            if (!taken) {
                if (st->loc[id] != NYS_LOC_RING)
                    FAIL("ring position %d: slice %d left the table without its portion", p + 1, id);
                on_table++;
            } else if (NYS_LOC_SEAT(st->loc[id]) != st->taken_by[pid] ||
                       NYS_LOC_KIND(st->loc[id]) < NYS_LOC_PENDING) {
                FAIL("ring position %d: slice %d is not with the player who took it", p + 1, id);
            }
        }
        if (on_table != ring_count)
            FAIL("%d slices marked on the table, %d in the ring", ring_count, on_table);
        unsigned present = 0, covered = 0;
        for (int p = 0; p < NYS_RING; p++)
            if (st->ring[p] != NYS_NONE)
                present |= 1u << p;
        if (present != st->present)
            FAIL("the ring's slice mask is stale");
        /* After division the portions split the ring's slices exactly. */
        for (int pid = 0; pid < st->nportions; pid++) {
            if (covered & st->portion_mask[pid])
                FAIL("portion %d overlaps another", pid);
            covered |= st->portion_mask[pid];
        }
        if (st->nportions && covered != present)
            FAIL("the portions do not cover the ring");
    } else if (ring_count) {
        FAIL("%d slices are still on the table after the game", ring_count);
    }
    /* Every Special is in exactly one place. */
    int sp_where[NYS_SPECIAL_COUNT] = {0};
    for (int r = first_hidden; r < st->rounds; r++)
        sp_where[st->stack_special[r]]++;
    for (int i = 0; i < st->nbox; i++)
        sp_where[st->box[i]]++;
    for (int sp = 0; sp < NYS_SPECIAL_COUNT; sp++) {
        int o = st->special_owner[sp];
        if (o != NYS_NONE) {
            sp_where[sp]++;
            if (!nys_owns(st, o, sp))
                FAIL("Special %s: owner %d does not hold it", nys_special_slug(sp), o);
        }
    }
    if (st->today != NYS_NONE && st->special_owner[st->today] == NYS_NONE)
        sp_where[st->today]++;
    for (int sp = 0; sp < NYS_SPECIAL_COUNT; sp++)
        if (sp_where[sp] != 1)
            FAIL("Special %s is in %d places", nys_special_slug(sp), sp_where[sp]);
    nys_state copy = *st;
    recount_tallies(&copy);
    if (memcmp(copy.tally, st->tally, sizeof st->tally) != 0)
        FAIL("the players' tallies do not match their slices");
    if (st->supreme_type && (st->supreme == NYS_NONE ||
                             NYS_LOC_KIND(st->loc[st->supreme]) < NYS_LOC_COLLECTED))
        FAIL("the Supreme is attached but not in a collection");
    if (st->supreme_on_anchovy &&
        (st->supreme_type || st->supreme == NYS_NONE || st->anchovy == NYS_NONE ||
         NYS_LOC_KIND(st->loc[st->supreme]) != NYS_LOC_COLLECTED ||
         st->loc[st->anchovy] != (NYS_LOC_COLLECTED | NYS_LOC_SEAT(st->loc[st->supreme]))))
        FAIL("the Supreme is placed next to an Anchovy slice its holder has not collected");
#undef FAIL
    return 0;
}
