/* botqueue.c -- see botqueue.h. */
#include "botqueue.h"

#include <stdint.h>
#include <stdlib.h>

#define OWNERS 256 /* owners remembered; the one idle longest is forgotten first */

typedef struct node {
    struct node *next;
    pb_bot_job *job;
} node;

struct pb_botqueue {
    node *head, *tail;
    uint64_t owner[OWNERS], served_at[OWNERS]; /* when each recent owner was last served (0: never) */
    uint64_t served;
};

pb_botqueue *pb_botqueue_new(void)
{
    return calloc(1, sizeof(pb_botqueue));
}

void pb_botqueue_free(pb_botqueue *q)
{
    if (!q)
        return;
    while (q->head) {
        node *n = q->head;
        q->head = n->next;
        free(n->job->state);
        free(n->job);
        free(n);
    }
    free(q);
}

int pb_botqueue_push(pb_botqueue *q, pb_bot_job *job)
{
    node *n = malloc(sizeof *n);
    if (!n)
        return -1;
    *n = (node){NULL, job};
    if (q->tail)
        q->tail->next = n;
    else
        q->head = n;
    q->tail = n;
    return 0;
}

bool pb_botqueue_empty(const pb_botqueue *q)
{
    return !q->head;
}

bool pb_botqueue_has_live(const pb_botqueue *q)
{
    for (const node *n = q->head; n; n = n->next)
        if (!n->job->review)
            return true;
    return false;
}

static uint64_t last_served(const pb_botqueue *q, uint64_t owner)
{
    for (int i = 0; i < OWNERS; i++)
        if (q->served_at[i] && q->owner[i] == owner)
            return q->served_at[i];
    return 0;
}

pb_bot_job *pb_botqueue_pop(pb_botqueue *q, bool reviews)
{
    node **best = NULL, *prev_of_best = NULL, *prev = NULL;
    uint64_t best_at = UINT64_MAX;
    bool best_review = true;
    for (node **p = &q->head; *p; prev = *p, p = &(*p)->next) {
        bool review = (*p)->job->review;
        if (review && !reviews)
            continue;
        uint64_t at = last_served(q, (*p)->job->owner);
        /* A live move before any review; then strictly: the oldest job of an owner wins. */
        if (best_review > review || (best_review == review && at < best_at)) {
            best_review = review;
            best = p;
            best_at = at;
            prev_of_best = prev;
        }
    }
    if (!best)
        return NULL;
    node *n = *best;
    *best = n->next;
    if (q->tail == n)
        q->tail = prev_of_best;
    pb_bot_job *job = n->job;
    free(n);
    /* This owner served now, in its slot or the one idle longest. */
    int slot = 0;
    for (int i = 0; i < OWNERS; i++) {
        if (q->served_at[i] && q->owner[i] == job->owner) {
            slot = i;
            break;
        }
        if (q->served_at[i] < q->served_at[slot])
            slot = i;
    }
    q->owner[slot] = job->owner;
    q->served_at[slot] = ++q->served;
    return job;
}
