/* fuzz_score.c -- the scoring file (`pizzabox score`): a report or a
 * one-line message. */
#include <stdlib.h>
#include <string.h>

#include "../../games/nyslice/nyslice.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static nys_deck deck;
    static int ready;
    if (!ready) {
        nys_deck_default(&deck);
        ready = 1;
    }
    char *text = malloc(size + 1), err[PB_ERR_LEN] = "";
    memcpy(text, data, size);
    text[size] = 0;
    json_t *report = nys_score_file(text, &deck, err, sizeof err);
    if (!report && (!err[0] || strchr(err, '\n')))
        abort(); /* refused: with one line saying why */
    json_decref(report);
    free(text);
    return 0;
}
