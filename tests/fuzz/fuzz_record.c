/* fuzz_record.c -- game records (`pizzabox replay`): they replay, or the
 * first bad action is named. */
#include <stdlib.h>
#include <string.h>

#include "../../core/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1), err[PB_ERR_LEN] = "";
    memcpy(text, data, size);
    text[size] = 0;
    pb_replay r;
    if (pb_replay_text(text, &r, err, sizeof err) == 0)
        pb_replay_free(&r);
    else if (!err[0])
        abort();
    free(text);
    return 0;
}
