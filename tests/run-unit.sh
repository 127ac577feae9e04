#!/bin/sh
# Run cmocka test binaries; stop at the first failing one.
set -e
for t in "$@"; do
    echo "== $t"
    "$t"
done
