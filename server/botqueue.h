/* botqueue.h -- the bot moves waiting for a worker, served fairly: turn
 * about between the owners of the tables (the address that made them), the
 * oldest job of each first. One client with many tables of slow bots then
 * delays its own tables, not everyone's. Reviews (analysis) come after
 * every live bot's move, fair between their owners alike. Not locked: the server holds its
 * lock around every call. */
#ifndef PB_BOTQUEUE_H
#define PB_BOTQUEUE_H

#include <stdbool.h>

#include "lobby.h"

typedef struct pb_botqueue pb_botqueue;

pb_botqueue *pb_botqueue_new(void);
/* Frees the queue and every job still in it (their states too). */
void pb_botqueue_free(pb_botqueue *q);
/* Queue a job (the queue owns it); -1 when out of memory (the job is not taken). */
int pb_botqueue_push(pb_botqueue *q, pb_bot_job *job);
bool pb_botqueue_empty(const pb_botqueue *q);
/* Is there a job that is not a review? */
bool pb_botqueue_has_live(const pb_botqueue *q);
/* The next job to compute (the caller owns it), or NULL when empty: a live
 * bot's move before any review; among those, the oldest of the owner served
 * longest ago, an owner never served first. With reviews false, live moves
 * only (NULL when there is none). */
pb_bot_job *pb_botqueue_pop(pb_botqueue *q, bool reviews);

#endif
