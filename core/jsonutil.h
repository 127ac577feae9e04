/* jsonutil.h -- small helpers for reading untrusted JSON. */
#ifndef PB_JSONUTIL_H
#define PB_JSONUTIL_H

#include <jansson.h>
#include <stddef.h>

/* Write `s` as a JSON string literal (quotes, escapes) into out, cut to fit,
 * so a hostile value can never split an error message over lines. */
void pb_quote(const char *s, char *out, size_t n);

/* Check that the object has only keys from `allowed` (NULL-terminated).
 * Returns 0, or -1 with "<prefix>unknown field "key" in <where>" in err. */
int pb_json_known_keys(const json_t *obj, const char *const *allowed, const char *prefix,
                       const char *where, char *err, size_t errlen);

/* Parse untrusted JSON text (duplicated keys refused). NULL on bad text,
 * with "<prefix>malformed JSON at line L column C: <what jansson saw>" in err,
 * kept to one line (control characters from the input shown as '?'). */
json_t *pb_json_parse(const char *text, const char *prefix, char *err, size_t errlen);

/* A game's config_as_played (core/game.h) for a game whose rules had
 * editions: from[i] is the first record version played by edition i + 2
 * (n of them, ascending; the last edition is the current one). An older
 * record's config that names no "edition" is given the edition it was
 * played by (a new object for the caller); otherwise NULL, the config as it
 * is. */
json_t *pb_json_edition_as_played(const json_t *config, int record_version, const int *from, int n);

#endif
