#!/bin/sh
# tests/cli/rules-coverage.sh -- docs/rules-coverage.md stays true: every C
# test function it names exists, and every New York Slice Special and New
# York Pizza Delivery power card is named in one of its table rows.
#
#   sh tests/cli/rules-coverage.sh build/pizzabox

. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DOC=$ROOT/docs/rules-coverage.md

missing=""
for t in $(grep -o '`test_[A-Za-z0-9_]*`' "$DOC" | tr -d '`' | sort -u); do
    grep -q "void $t(" "$ROOT"/tests/unit/*.c || missing="$missing $t"
done
check "every test the coverage map names exists" "${missing:+not found:$missing}"

# The Specials by name as the engine spells them, the power cards by name as the data does.
absent=""
for name in "Buffet" "Combo Craving" "Cut in Line" "Day-Old Pizza" "Dibs!" "Everyone-Else Diet" \
    "Mystery Slice" "Seconds" "Sneak-a-Slice" "Stuffed Crust" "Supersize Combos" "Tiebreaker" \
    "You Like Anchovies!" "You Love Veggies"; do
    grep '^|' "$DOC" | grep -qiF -- "$name" || absent="$absent '$name'"
done
check "every New York Slice Special has a row" "${absent:+no row for$absent}"

# the "powers" part of the card data: every card's "name"
cards=$(sed -n '/"powers"/,$p' "$ROOT"/data/delivery/cards.json | grep -o '"name": *"[^"]*"' | sed 's/.*: *"//; s/"$//')
absent=""
n=0
IFS='
'
for name in $cards; do
    n=$((n + 1))
    grep '^|' "$DOC" | grep -qiF -- "$name" || absent="$absent '$name'"
done
unset IFS
check "every New York Pizza Delivery power card ($n) has a row" \
    "$([ "$n" -ge 40 ] || echo "only $n power cards read from the data")" "${absent:+no row for$absent}"

summary rules-coverage
