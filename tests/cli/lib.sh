# tests/cli/lib.sh -- the TAP-style reporting every CLI test script shares.
# Sourced, not run:  . "$(dirname "$0")/lib.sh"
#
# ok DESC, not_ok DESC WHY... and check DESC PROBLEMS... print one
# "ok - ..." / "not ok - ..." line each and keep the counts; summary NAME
# prints "NAME: P passed, F failed" and returns non-zero if any check failed.
# replayed_as_played FILE VERSION RESULT REFUSAL: the problems (none: no
# output) with a record of VERSION written before a rules edition: it must
# replay, its output (spaces and line ends taken out) matching the pattern
# RESULT; marked as the next version (the next edition), it must not replay,
# and its error must match REFUSAL.
replayed_as_played() {
    "$BIN" replay "$1" >"$T/old.out" 2>"$T/old.err"
    rc_old=$?
    sed "s/\"version\":$2/\"version\":$(($2 + 1))/" "$1" >"$T/next.json"
    "$BIN" replay "$T/next.json" >"$T/next.out" 2>"$T/next.err"
    rc_next=$?
    [ $rc_old -eq 0 ] || echo "exit $rc_old: $(head -2 "$T/old.err")"
    tr -d ' \n' <"$T/old.out" | grep -q -- "$3" || echo "replayed: $(tail -1 "$T/old.out" | cut -c1-200)"
    [ $rc_next -ne 0 ] && grep -q -- "$4" "$T/next.err" ||
        echo "as version $(($2 + 1)): exit $rc_next: $(head -2 "$T/next.err")"
}

# use_binary NAME [PATH] sets BIN to the pizzabox binary (absolute) and T to a
# temporary directory removed at exit. use_tmux NAME [PATH] does the same for
# a test on a real terminal and gives it tm, tmux_session, screen, history
# and nap (see below).

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

# use_tmux NAME [PATH]: exit 0 ("skipped") when tmux is not installed, else
# use_binary NAME PATH. Then tm ARGS... runs tmux on a server of the test's
# own (socket $SOCK, in $T; a script may point SOCK at another one there),
# with $T/tmux.conf (a script may add settings before its first session;
# exit-empty off so that replacing the only session does not race the
# server's exit: "server exited unexpectedly") and /bin/sh for the commands. Every server in $T is killed at exit.
use_tmux() {
    if ! command -v tmux >/dev/null 2>&1; then
        echo "$1: skipped (tmux not installed)"
        exit 0
    fi
    use_binary "$1" "${2:-}"
    SOCK=$T/tmux.sock
    echo 'set -g exit-empty off' >"$T/tmux.conf"
    unset TMUX
    trap 'for s in "$T"/*.sock; do [ -S "$s" ] && tmux -S "$s" kill-server >/dev/null 2>&1; done; rm -rf "$T"' EXIT
}

tm() {
    SHELL=/bin/sh tmux -S "$SOCK" -f "$T/tmux.conf" "$@"
}

# tmux_session COLS ROWS COMMAND [THEN]: a new detached COLSxROWS session
# "pb", in place of any earlier one, runs the shell line COMMAND; its exit
# status goes to $T/status, then THEN runs (e.g. "sleep 60" to keep the
# pane there).
tmux_session() {
    rm -f "$T/status"
    tm kill-session -t pb >/dev/null 2>&1
    tm new-session -d -s pb -x "$1" -y "$2" "$3; echo \$? >\"$T/status\"${4:+; $4}"
}

# screen FILE [OPTIONS...]: the visible pane into FILE (capture-pane
# OPTIONS, e.g. -e for the colours). history FILE: the pane and all its
# history, wrapped lines joined.
screen() {
    out=$1
    shift
    tm capture-pane -p "$@" -t pb >"$out" 2>/dev/null
}

history() {
    screen "$1" -J -S -
}

# nap: a short wait for the program to answer ($NAP seconds, default 0.1).
nap() {
    sleep "${NAP:-0.1}" 2>/dev/null || sleep 1
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
