/* record.h -- game records: the config, the seed and the actions in text
 * notation, as JSON (docs/records.md). Replaying a record reproduces the
 * game exactly; a record that does not replay is rejected with the first bad
 * action named. */
#ifndef PB_RECORD_H
#define PB_RECORD_H

#include "game.h"

/* The version records are written with (core/record.c says what each one
 * changed); a record made from stored moves is of this version too. */
#define PB_RECORD_VERSION 4

typedef struct pb_record pb_record;

/* A new, empty record of a game about to start from `seed`. */
pb_record *pb_record_new(const pb_game *g, uint64_t seed);
void pb_record_free(pb_record *r);
/* Append action `a`, about to be applied to `st`; -1 if it has no notation
 * (it is not legal there). */
int pb_record_add(pb_record *r, const pb_game *g, const pb_state *st, pb_action a);
/* Set the seat names, and who plays each seat ("human" or a bot spec);
 * both optional, n = number of seats. */
void pb_record_set_names(pb_record *r, const char *const *names, int n);
void pb_record_set_seats(pb_record *r, const char *const *seats, int n);
/* The name / player of a seat, or NULL when the record has none. */
const char *pb_record_name(const pb_record *r, int seat);
const char *pb_record_seat(const pb_record *r, int seat);
/* The commitment to the seed shown before the game (core/hash.h) and the
 * salt revealed after it. */
void pb_record_set_deal(pb_record *r, const char *sha256, const char *salt);
/* The commitment, or NULL when the record has none (*salt set with it). */
const char *pb_record_deal(const pb_record *r, const char **salt);
uint64_t pb_record_seed(const pb_record *r);
/* Keep only the first nactions actions. */
void pb_record_truncate(pb_record *r, int nactions);
int pb_record_length(const pb_record *r);
/* The record as a JSON object (new reference). */
json_t *pb_record_to_json(const pb_record *r);
/* Write the record to a file atomically (temp file + rename). */
int pb_record_save(const pb_record *r, const char *path, char *err, size_t errlen);

/* The outcome of a replay. */
typedef struct pb_replay {
    pb_game *game;      /* owned */
    pb_state *state;    /* owned: the state after the last action */
    pb_record *record;  /* owned: the record as replayed */
    int actions;        /* how many actions were applied */
} pb_replay;

/* Replay a record given as JSON text. Returns 0 and fills out, or -1 with a
 * message (for a bad action: its number, its text and why) in err. */
int pb_replay_text(const char *text, pb_replay *out, char *err, size_t errlen);
void pb_replay_free(pb_replay *r);

/* The largest record file read (4 MiB). */
#define PB_RECORD_MAX_BYTES (4u << 20)

/* Read a whole file (or stdin for "-") into a new NUL-terminated buffer,
 * at most max_bytes; NULL with a message in err. */
char *pb_read_file(const char *path, size_t max_bytes, char *err, size_t errlen);

#endif
