/* fuzz_deck.c -- deck files (games/nyslice/deck.c): any bytes are answered
 * with a deck or a message, never a crash. */
#include <stdlib.h>
#include <string.h>

#include "../../games/nyslice/nyslice.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1), err[PB_ERR_LEN];
    memcpy(text, data, size);
    text[size] = 0;
    nys_deck deck;
    if (nys_deck_from_text(text, &deck, err, sizeof err) != 0 && !err[0])
        abort(); /* a refusal always says why */
    free(text);
    return 0;
}
