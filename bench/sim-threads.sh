#!/bin/sh
# Simulator throughput: random-vs-random New York Slice games per second on
# 1 and 2 threads, and the 2-thread rate per thread as a share of the
# 1-thread rate (the target is at least 90%). Run it on an idle machine.
#
#   sh bench/sim-threads.sh [build/pizzabox] [GAMES]
set -eu
bin=${1:-build/pizzabox}
games=${2:-600000}
rate() {
    start=$(date +%s.%N)
    "$bin" sim --game nyslice --players 4 --bots random --games "$games" --seed 1 --threads "$1" >/dev/null
    end=$(date +%s.%N)
    echo "$start $end" | awk -v g="$games" '{ printf "%.0f", g / ($2 - $1) }'
}
one=$(rate 1)
two=$(rate 2)
echo "1 thread:  $one games/s"
echo "2 threads: $two games/s"
echo "$one $two" | awk '{ printf "per thread on 2 threads: %.1f%% of one thread (target 90%%)\n", 100 * $2 / 2 / $1 }'
