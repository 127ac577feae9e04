# tests/cli/lib.sh -- the TAP-style reporting every CLI test script shares.
# Sourced, not run:  . "$(dirname "$0")/lib.sh"
#
# ok DESC, not_ok DESC WHY... and check DESC PROBLEMS... print one
# "ok - ..." / "not ok - ..." line each and keep the counts; summary NAME
# prints "NAME: P passed, F failed" and returns non-zero if any check failed.
# use_binary NAME [PATH] sets BIN to the pizzabox binary (absolute) and T to a
# temporary directory removed at exit.

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

# use_binary NAME [PATH]: BIN from PATH (default build/pizzabox), or exit 2
# when it is not there; T a fresh temporary directory, removed at exit.
use_binary() {
    BIN=${2:-build/pizzabox}
    case $BIN in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
    if [ ! -x "$BIN" ]; then
        echo "$1: no executable at $BIN" >&2
        exit 2
    fi
    T=$(mktemp -d "${TMPDIR:-/tmp}/pizzabox-$1.XXXXXX") || exit 2
    trap 'rm -rf "$T"' EXIT
    trap 'exit 130' INT TERM
}

# poll CMD ARGS...: run the command every tenth of a second until it
# succeeds, for at most about 5 seconds; its last status.
poll() {
    i=0
    while ! "$@"; do
        i=$((i + 1))
        [ $i -lt 50 ] || return 1
        sleep 0.1 2>/dev/null || sleep 1
    done
}

# command_after MARKER FILE: the command printed on the lines after the line
# ending in MARKER (continued with " \\"), as one line without "pizzabox ".
command_after() {
    awk -v m="$1" 'on { s = $0; more = sub(/ \\$/, "", s); sub(/^ +/, "", s); c = c (c == "" ? "" : " ") s
                       if (!more) { sub(/^pizzabox /, "", c); print c; exit } }
                   index($0, m) && substr($0, length($0) - length(m) + 1) == m { on = 1 }' "$2"
}
