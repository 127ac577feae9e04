#!/bin/sh
# Run libFuzzer targets for a number of seconds each, from the committed seed
# corpus in tests/fuzz/corpus/TARGET; a crash stops the run with its input
# saved under build/fuzz/ (add it to the corpus once fixed: a regression test).
#   sh tests/fuzz/run.sh SECONDS build/fuzz/fuzz_deck ...
set -u
seconds=$1
shift
for bin in "$@"; do
    name=$(basename "$bin")
    seeds=tests/fuzz/corpus/$name
    work=build/fuzz/corpus/$name
    log=build/fuzz/$name.log
    mkdir -p "$work"
    if ! "$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=0 \
        -artifact_prefix=build/fuzz/"$name"- "$work" "$seeds" >"$log" 2>&1; then
        tail -n 40 "$log"
        echo "fuzz: $name failed (input saved as build/fuzz/$name-*)"
        exit 1
    fi
    echo "fuzz: $name, $seconds s: $(grep -o 'Done [0-9]* runs' "$log" | tail -n 1), clean"
done
