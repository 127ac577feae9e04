#!/bin/sh
# Strength of one bot against three copies of another in 4-player New York
# Slice, seats rotated so every seat is played equally: the win share of the
# tested bot with a Wilson 95% interval (25% is parity). A shared win counts
# as a share.
#
#   sh bench/nyslice-bots.sh [build/pizzabox] [BOT] [OPPONENT] [GAMES]
#   sh bench/nyslice-bots.sh build/pizzabox greedy random 2000
set -eu
bin=${1:-build/pizzabox}
bot=${2:-greedy}
opp=${3:-random}
games=${4:-2000}
per_seat=$((games / 4))
total=0
for seat in 0 1 2 3; do
    bots=""
    for s in 0 1 2 3; do
        if [ "$s" = "$seat" ]; then b=$bot; else b=$opp; fi
        bots="${bots:+$bots,}$b"
    done
    wins=$("$bin" selfplay --game nyslice --players 4 --games "$per_seat" --seed $((1000 + seat)) \
        --bots "$bots" | tail -n 1 | sed 's/.*"wins":\[\([^]]*\)\].*/\1/' |
        awk -F, -v s=$((seat + 1)) '{print $s}')
    echo "$bot in seat $((seat + 1)) of 4 against $opp: $wins wins in $per_seat games"
    total=$(echo "$total $wins" | awk '{print $1 + $2}')
done
echo "$total $((per_seat * 4))" | awk -v bot="$bot" -v opp="$opp" '{
    n = $2; p = $1 / n; z = 1.959964
    d = 1 + z * z / n; c = (p + z * z / (2 * n)) / d
    h = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    printf "%s vs 3 x %s: win share %.1f%% (95%% CI %.1f%%-%.1f%%) over %d games, parity 25%%\n",
           bot, opp, 100 * p, 100 * (c - h), 100 * (c + h), n
}'
