/* test_botqueue.c -- bots' work is shared fairly between the clients whose
 * tables wait for it (server/botqueue.c). */
#include <stdlib.h>

#include "../../server/botqueue.h"
#include "support.h"

static pb_bot_job *job(uint64_t owner, int64_t table)
{
    pb_bot_job *j = calloc(1, sizeof *j);
    assert_non_null(j);
    j->owner = owner;
    j->table = table;
    return j;
}

/* 80 tables of one client queued first; another client's table is served
 * second, not 81st; and then they take turns. */
static void test_a_backlog_holds_up_only_its_owner(void **state)
{
    (void)state;
    pb_botqueue *q = pb_botqueue_new();
    for (int i = 0; i < 80; i++)
        assert_int_equal(pb_botqueue_push(q, job(1, i)), 0);
    assert_int_equal(pb_botqueue_push(q, job(2, 100)), 0);
    assert_int_equal(pb_botqueue_push(q, job(2, 101)), 0);
    int64_t order[6];
    for (int i = 0; i < 6; i++) {
        pb_bot_job *j = pb_botqueue_pop(q, true);
        order[i] = j->table;
        free(j);
    }
    /* owner 1 served first (both unserved, its job older), then owner 2, then turns */
    int64_t want[6] = {0, 100, 1, 101, 2, 3};
    for (int i = 0; i < 6; i++)
        assert_int_equal(order[i], want[i]);
    /* A newcomer goes before both. */
    assert_int_equal(pb_botqueue_push(q, job(3, 200)), 0);
    pb_bot_job *j = pb_botqueue_pop(q, true);
    assert_int_equal(j->table, 200);
    free(j);
    assert_false(pb_botqueue_empty(q));
    pb_botqueue_free(q); /* frees the 76 left */
}

/* The queue empties in order for one owner, and the tail stays right when
 * the last job is taken out of the middle of the list. */
static void test_one_owner_is_first_in_first_out(void **state)
{
    (void)state;
    pb_botqueue *q = pb_botqueue_new();
    assert_null(pb_botqueue_pop(q, true));
    for (int i = 0; i < 5; i++)
        pb_botqueue_push(q, job(7, i));
    for (int i = 0; i < 5; i++) {
        pb_bot_job *j = pb_botqueue_pop(q, true);
        assert_int_equal(j->table, i);
        free(j);
    }
    assert_true(pb_botqueue_empty(q));
    pb_botqueue_push(q, job(8, 1));
    pb_botqueue_push(q, job(9, 2)); /* owner 9 never served: it is taken from the end */
    pb_botqueue_push(q, job(8, 3));
    free(pb_botqueue_pop(q, true)); /* 8's first (both new; the older) */
    pb_bot_job *j = pb_botqueue_pop(q, true);
    assert_int_equal(j->table, 2);
    free(j);
    pb_botqueue_push(q, job(8, 4));
    j = pb_botqueue_pop(q, true);
    assert_int_equal(j->table, 3);
    free(j);
    j = pb_botqueue_pop(q, true);
    assert_int_equal(j->table, 4);
    free(j);
    assert_true(pb_botqueue_empty(q));
    pb_botqueue_free(q);
}

/* An analysis's reviews wait behind every live bot's move, whoever's:
 * queued first and never served, they still come after; a worker kept for
 * live moves takes none. */
static void test_reviews_wait_for_live_moves(void **state)
{
    (void)state;
    pb_botqueue *q = pb_botqueue_new();
    for (int i = 0; i < 3; i++) {
        pb_bot_job *r = job(5, 10 + i);
        r->review = true;
        pb_botqueue_push(q, r);
    }
    assert_false(pb_botqueue_has_live(q));
    assert_null(pb_botqueue_pop(q, false));
    pb_botqueue_push(q, job(1, 1));
    pb_botqueue_push(q, job(1, 2));
    assert_true(pb_botqueue_has_live(q));
    int64_t want[5] = {1, 2, 10, 11, 12};
    for (int i = 0; i < 5; i++) {
        pb_bot_job *j = pb_botqueue_pop(q, true);
        assert_int_equal(j->table, want[i]);
        free(j);
    }
    assert_true(pb_botqueue_empty(q));
    pb_botqueue_free(q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_a_backlog_holds_up_only_its_owner),
                                       cmocka_unit_test(test_one_owner_is_first_in_first_out),
                                       cmocka_unit_test(test_reviews_wait_for_live_moves)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
