# tests/cli/lib.sh -- the TAP-style reporting every CLI test script shares.
# Sourced, not run:  . "$(dirname "$0")/lib.sh"
#
# ok DESC, not_ok DESC WHY... and check DESC PROBLEMS... print one
# "ok - ..." / "not ok - ..." line each and keep the counts; summary NAME
# prints "NAME: P passed, F failed" and returns non-zero if any check failed.

passed=0
failed=0

ok() {
    passed=$((passed + 1))
    echo "ok - $1"
}

not_ok() {
    failed=$((failed + 1))
    echo "not ok - $1"
    shift
    for why in "$@"; do
        echo "#   $why"
    done
}

# check DESC PROBLEMS...: ok when every problem is empty.
check() {
    desc=$1
    shift
    problems=""
    for p in "$@"; do
        [ -n "$p" ] && problems="$problems; $p"
    done
    if [ -z "$problems" ]; then
        ok "$desc"
    else
        not_ok "$desc" "${problems#; }"
    fi
}

summary() {
    echo "$1: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}
