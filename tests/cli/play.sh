#!/bin/sh
# tests/cli/play.sh -- `pizzabox play` end to end: whole games typed in
# through stdin, the way a scripted player would.
#
#   sh tests/cli/play.sh build/pizzabox
#
# When stdin is not a terminal, play reads one line per prompt and echoes it
# after the prompt ("You> take B"), so the output reads like a typed game.
# A blank line plays the suggested move (at a terminal it takes two: see
# play-tmux.sh). Nothing here depends on which moves
# the bots happen to make: the moves of a game are read back from a first
# run ("plan") and the later runs are built from them.
#
# Uses only sh, grep, sed, awk, cmp, mktemp and the binary. Prints "ok - ..."
# or "not ok - ..." per check, then "play: P passed, F failed"; exits
# non-zero if any check failed.

NO_COLOR=1
export NO_COLOR

. "$(dirname "$0")/lib.sh"
use_binary play "${1:-}"

# play_in INPUT NAME ARGS...: `pizzabox play ARGS` reading INPUT; stdout in
# $T/NAME.out, stderr in $T/NAME.err, exit status in $rc. Hints come from
# the greedy bot here: the default (expert) thinks too long for a test suite.
play_in() {
    input=$1
    name=$2
    shift 2
    "$BIN" play --hint greedy "$@" <"$input" >"$T/$name.out" 2>"$T/$name.err"
    rc=$?
}

# blanks N FILE: N empty lines (Enter N times).
blanks() {
    awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) print "" }' >"$2"
}
blanks 400 "$T/enter"

# lines TEXT...: one input line per argument, to stdout.
lines() {
    for l in "$@"; do
        printf '%s\n' "$l"
    done
}

nlines() {
    awk 'END { print NR }' "$1"
}

last_line() {
    sed -n '$p' "$1"
}

first_line() {
    sed -n 1p "$1"
}

# The actions of a record, one per line.
actions_of() {
    awk '/"actions":\[\]/ { exit }
         /"actions":\[/ { on = 1; next }
         on && /^ *\]/ { exit }
         on { s = $0; sub(/^ *"/, "", s); sub(/",?$/, "", s); print s }' "$1"
}

nactions() {
    actions_of "$1" | awk 'END { print NR }'
}

# The seat names of a record, one per line.
names_of() {
    awk '/"names":\[/ { on = 1; next }
         on && /^ *\]/ { exit }
         on { s = $0; sub(/^ *"/, "", s); sub(/",?$/, "", s); print s }' "$1"
}

# "[t1,t2,...]" from the TOTAL row of the last Guest Check in a play output.
check_totals() {
    awk '/^GUEST CHECK/ { t = "" }
         /^TOTAL / { t = ""; for (i = 2; i <= NF; i++) t = t (i > 2 ? "," : "") $i }
         END { print "[" t "]" }' "$1"
}

# "[t1,t2,...]" from the "total" fields of a score report.
report_totals() {
    sed 's/[[:space:]]//g' "$1" | grep -o '"total":-\{0,1\}[0-9]*' | sed 's/.*://' |
        awk '{ s = s (NR > 1 ? "," : "") $0 } END { print "[" s "]" }'
}

# The problems with a finished game in $T/NAME.out (empty if none): exit 0,
# nothing on stderr, a Guest Check, and a winner line last.
finished() {
    f=""
    [ "$rc" -eq 0 ] || f="exit status $rc"
    [ ! -s "$T/$1.err" ] || f="$f; stderr: $(first_line "$T/$1.err")"
    grep -q '^GUEST CHECK' "$T/$1.out" || f="$f; no Guest Check"
    grep -q '^TOTAL ' "$T/$1.out" || f="$f; no TOTAL row"
    last_line "$T/$1.out" | grep -E -q '^(Winner|Shared win): .' ||
        f="$f; last line: $(last_line "$T/$1.out")"
    printf '%s' "${f#; }"
}

# same_file A B DESC-OF-B: empty when the files are identical.
same_file() {
    if [ ! -f "$1" ]; then
        printf '%s' "$1 is missing"
    elif [ ! -f "$2" ]; then
        printf '%s' "$2 is missing"
    elif ! cmp -s "$1" "$2"; then
        printf '%s' "the record differs from $3 (actions $(nactions "$1") vs $(nactions "$2"))"
    fi
}

# ---- Reading a game back: the human's decisions ----

# plan OUT NAME: one line per decision of the human named NAME in a play
# output: phase TAB suggested move TAB the same move in the friendly forms
# (portion letters, slice numbers, y/n, bare numbers).
cat >"$T/plan.awk" <<'EOF'
function letter_at(pos,   c) {
    if (pos <= 6)
        c = substr(toplet, 12 * pos - 6, 1)
    else
        c = substr(botlet, 12 + 12 * (11 - pos), 1)
    return c ~ /^[A-Z]$/ ? c : ""
}
function friendly(phase, mv,   w, n, i, j, k, out, used) {
    n = split(mv, w, " ")
    if (phase == "take" && w[2] ~ /^[0-9]+$/ && letter_at(w[2]) != "")
        return (++takes % 2 ? "" : "take ") letter_at(w[2])
    if (phase == "place" && mv == "collect all")
        return "collect"
    if (phase == "place" && w[1] == "eat") {
        out = "eat"
        for (i = 2; i <= n; i++) {
            k = 0
            for (j = 1; j <= nplace; j++)
                if (ptok[j] == w[i] && !(j in used)) {
                    k = j
                    break
                }
            if (!k)
                return mv
            used[k] = 1
            out = out " " k
        }
        return out
    }
    if (phase == "eat-or-keep")
        return w[1] == "eat" ? "y" : "n"
    if (mv == "pass" && phase != "sneak")
        return "n"
    if (phase == "cut-in-line")
        return "y"
    if ((phase == "dibs" || phase == "attach" || phase == "seconds") && n == 2)
        return w[2]
    return mv
}
{ L[NR] = $0 }
END {
    phase = "?"
    for (i = 1; i <= NR; i++) {
        s = L[i]
        if (s ~ /^   1 /) { # the ring: positions 1-6, letters, 11-7, letters
            if (L[i + 1] ~ /^        11 /) {
                toplet = ""
                botlet = ""
            } else {
                toplet = L[i + 1]
                botlet = L[i + 3]
            }
        } else if (s !~ /^ / && s ~ / - placing( \(Dibs!\))?: | - Seconds: /) {
            t = s
            for (j = i + 1; L[j] ~ /^  /; j++)
                t = t " " L[j]
            nplace = 0
            m = split(t, w, " ")
            for (j = 1; j <= m; j++)
                if (w[j] ~ /^[0-9]+:./) {
                    sub(/^[0-9]+:/, "", w[j])
                    ptok[++nplace] = w[j]
                }
        } else if (s ~ /^Divide into /) phase = "divide"
        else if (s ~ /^Dibs!: /) phase = "dibs"
        else if (s ~ /^Cut in Line: /) phase = "cut-in-line"
        else if (s ~ /^Sneak-a-Slice: /) phase = "sneak"
        else if (s ~ /^Take a portion /) phase = "take"
        else if (s ~ /^Place your slices: /) phase = "place"
        else if (s ~ /^Eat or keep /) phase = "eat-or-keep"
        else if (s ~ /^Attach your Supreme/) phase = "attach"
        else if (s ~ /^Seconds: /) phase = "seconds"
        else if (index(s, P "> ") == 1 && L[i + 1] ~ /^\(suggested\) /) {
            printf "%s\t%s\t%s\n", phase, substr(L[i + 1], 13), friendly(phase, substr(L[i + 1], 13))
            phase = "?"
        }
    }
}
EOF
plan() {
    awk -v P="$2" -f "$T/plan.awk" "$1"
}

# has_phase PHASE PLAN: the plan has a decision in PHASE.
has_phase() {
    awk -F '\t' -v p="$1" '$1 == p { found = 1; exit } END { exit !found }' "$2"
}

# column N PLAN: the Nth field of every plan line (the input of a game).
column() {
    awk -F '\t' -v n="$1" '{ print $n }' "$2"
}

# answered OUT PROMPT LINE WANT: empty when the typed LINE was answered with a
# message mentioning WANT and then the prompt again, with no move made.
answered() {
    awk -v typed="$2> $3" -v prompt="$2> " -v want="$4" -v mover="  $2: " '
        found == 0 && $0 == typed { found = 1; next }
        found == 1 { msg = $0; found = 2; next }
        found == 2 {
            if (index($0, prompt) == 1) { again = 1; exit }
            if (++n >= 4 || index($0, mover) == 1 || /^\(suggested\)/) exit
        }
        END {
            if (!found) print "the line \"" typed "\" was never read"
            else if (msg == "" || msg ~ /^ / || index(msg, prompt) == 1 || msg ~ /^\(suggested\)/)
                print "no message after \"" typed "\" (next line: \"" msg "\")"
            else if (index(msg, want) == 0)
                print "\"" typed "\" got \"" msg "\", which does not mention " want
            else if (!again)
                print "no prompt again after \"" typed "\""
        }' "$1"
}

# first_refusal OUT: the first typed line that was refused, with the answer.
first_refusal() {
    awk '/> / { typed = $0 }
         /^(unknown action|not now|a division reads|name the slices|the game is over)/ ||
         / is not a position | is not one of the slices | cannot be eaten| is not among / {
             print "\"" typed "\" was refused: " $0; exit }' "$1"
}

# ---- Full games, Enter only ----

seats_for() {
    case $1 in
    2) echo human,random ;;
    3) echo human,greedy,random ;;
    4) echo human,random,greedy,greedy ;;
    5) echo human,greedy,random,greedy,random ;;
    6) echo human,random,greedy,random,greedy,greedy ;;
    esac
}

for n in 2 3 4 5 6; do
    seats=$(seats_for $n)
    play_in "$T/enter" "full$n" --seed $((40 + n)) --seats "$seats" --record "$T/full$n.json"
    check "play: $n players ($seats), Enter only: exit 0, Guest Check, winner line last" "$(finished "full$n")"

    human=$(grep -c '^You> $' "$T/full$n.out")
    suggested=$(grep -c '^(suggested) ' "$T/full$n.out")
    check "play: $n players: every Enter played a suggested move" \
        "$([ "$human" -gt 0 ] || echo "no human decision")" \
        "$([ "$human" -eq "$suggested" ] || echo "$human prompts answered, $suggested suggested moves")"

    "$BIN" replay "$T/full$n.json" >"$T/replay$n.out" 2>"$T/replay$n.err"
    rrc=$?
    want=$(check_totals "$T/full$n.out")
    got=$(report_totals "$T/replay$n.out")
    check "play: $n players: --record replays to the Guest Check's TOTAL row $want" \
        "$([ "$rrc" -eq 0 ] || echo "replay exit $rrc: $(first_line "$T/replay$n.err")")" \
        "$([ "$got" = "$want" ] || echo "replay totals $got")"

    # The winner line names the winners of the replayed record.
    winners=$(sed 's/[[:space:]]//g' "$T/replay$n.out" | grep -o '"winners":\[[0-9,]*\]' | sed 's/.*\[//; s/\]//')
    expect=$(names_of "$T/full$n.json" | awk -v w="$winners" '
        BEGIN { k = split(w, win, ","); for (i = 1; i <= k; i++) is[win[i] + 1] = 1 }
        is[NR] { s = s (s == "" ? "" : " and ") $0 }
        END { print (k > 1 ? "Shared win: " : "Winner: ") s }')
    line=$(last_line "$T/full$n.out")
    case $line in
    "$expect" | "$expect ("*) ok "play: $n players: the winner line agrees with replay ($expect)" ;;
    *) not_ok "play: $n players: the winner line agrees with replay" "expected $expect" "got $line" ;;
    esac

    # The Guest Check's rule lines (before "Pizza types" and "TOTAL") are dashes.
    rules=$(awk '/^GUEST CHECK/ { p = ""; bad = 0; n = 0 }
                 /^(Pizza types|TOTAL) / { n++; if (p !~ /^---+$/) bad++ }
                 { p = $0 }
                 END { print (n == 2 && bad == 0) ? "" : "rule lines before Pizza types/TOTAL: " bad " of " n " are not dashes" }' "$T/full$n.out")
    check "play: $n players: the Guest Check has its dashed rule lines" "$rules"

    if grep -q "$(printf '\033')" "$T/full$n.out"; then
        not_ok "play: $n players: NO_COLOR=1 output has no escape sequences"
    else
        ok "play: $n players: NO_COLOR=1 output has no escape sequences"
    fi
done

# ---- The game the rest of the tests play: four players, one human ----
#
# A seed whose game asks the human to divide, take and place (and, if one is
# found, to decide on Dibs!), played with Enter only: the reference record.

SEATS=human,greedy,random,greedy
SEED=""
for s in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30; do
    play_in "$T/enter" "scan" --seed "$s" --seats "$SEATS"
    [ "$rc" -eq 0 ] || continue
    plan "$T/scan.out" You >"$T/scan.plan"
    has_phase take "$T/scan.plan" && has_phase place "$T/scan.plan" || continue
    [ "$(nlines "$T/scan.plan")" -ge 6 ] || continue
    if [ -z "$SEED" ]; then
        SEED=$s
    fi
    if has_phase dibs "$T/scan.plan"; then
        SEED=$s
        break
    fi
done
if [ -z "$SEED" ]; then
    not_ok "play: a seed in 1-30 whose game asks the human to take and place"
    SEED=1
fi
G="--seed $SEED --seats $SEATS"
play_in "$T/enter" clean $G --record "$T/clean.json"
plan "$T/clean.out" You >"$T/clean.plan"
ndec=$(nlines "$T/clean.plan")
check "play: seed $SEED, Enter only: the reference game finishes ($ndec decisions)" "$(finished clean)" \
    "$([ "$ndec" -ge 6 ] || echo "only $ndec decisions")"

# Typing every move in the notation plays the same game.
column 2 "$T/clean.plan" >"$T/notation.in"
play_in "$T/notation.in" notation $G --record "$T/notation.json"
check "play: typing each move in the notation (\"cut 2 5 9 special 3\", \"take 6\", \"eat 9p2\") plays the same game" \
    "$(finished notation)" "$(same_file "$T/notation.json" "$T/clean.json" "the Enter-only game")" \
    "$(first_refusal "$T/notation.out")"

# The friendly forms: "B" / "take B", "eat 1 3", "collect", y/n, bare numbers.
column 3 "$T/clean.plan" >"$T/friendly.in"
play_in "$T/friendly.in" friendly $G --record "$T/friendly.json"
check "play: the friendly forms (\"B\", \"take B\", \"eat 1 3\", \"collect\", y/n) play the same game" \
    "$(finished friendly)" "$(same_file "$T/friendly.json" "$T/clean.json" "the Enter-only game")" \
    "$(first_refusal "$T/friendly.out")"

# "eat all" eats exactly the slices the table says may be eaten.
eatall=$(awk -F '\t' '$1 == "place" { print NR; exit }' "$T/clean.plan")
awk -v k="$eatall" 'NR == k { print "eat all"; next } { print "" }' "$T/clean.plan" >"$T/eatall.in"
blanks 50 "$T/more"
sed -n p "$T/more" >>"$T/eatall.in"
play_in "$T/eatall.in" eatall $G
eatall_problem=$(awk '
    function bag(s,   w, n, i, j, t) { # the words of s, sorted
        n = split(s, w, " ")
        for (i = 2; i <= n; i++)
            for (j = i; j > 1 && w[j - 1] > w[j]; j--) { t = w[j]; w[j] = w[j - 1]; w[j - 1] = t }
        t = ""
        for (i = 1; i <= n; i++) t = t " " w[i]
        return t
    }
    /^You - placing: / { t = $0; placing = 1; next }
    placing && /^  / { t = t " " $0; next }
    { placing = 0 }
    $0 == "You> eat all" {
        typed = 1; n = split(t, w, " "); want = ""; inmay = 0
        for (i = 1; i <= n; i++) {
            if (w[i] ~ /^[0-9]+:./) {
                x = w[i]; k = x; sub(/:.*/, "", k); sub(/^[0-9]+:/, "", x); listed[k + 0] = x
            } else if (w[i] == "eat" && w[i - 1] == "may") inmay = 1
            else if (inmay && w[i] ~ /^[0-9]+$/) want = want " " listed[w[i] + 0]
            else inmay = 0
        }
        next
    }
    typed == 1 { typed = 2; if ($0 !~ /^  You: /) { refused = $0; exit } got = $0; sub(/^  You: /, "", got); sub(/^eat/, "", got); exit }
    END {
        if (!typed) print "no place decision to type \"eat all\" at"
        else if (refused != "") print "\"eat all\" was refused: " refused
        else if (bag(got) != bag(want)) print "ate \"" got "\", the table said may eat \"" want "\""
    }' "$T/eatall.out")
check "play: \"eat all\" eats every slice the table marks \"may eat\"" "$eatall_problem" \
    "$([ "$rc" -eq 0 ] || echo "exit status $rc")"

# ---- Bad input changes nothing ----

first_take=$(awk -F '\t' '$1 == "take" { print NR; exit }' "$T/clean.plan")
first_place=$(awk -F '\t' '$1 == "place" { print NR; exit }' "$T/clean.plan")
first_dibs=$(awk -F '\t' '$1 == "dibs" { print NR; exit }' "$T/clean.plan")
[ -n "$first_dibs" ] || first_dibs=1
awk -v take="$first_take" -v place="$first_place" -v dibs="$first_dibs" -v nodir="$T/no/such/dir/x.json" '
    NR == 1 { print "frobnicate"; print "cut 99 special 1"; print "save"; print "save " nodir }
    NR == dibs { print "dibs" }
    NR == take { print "take Z" }
    NR == place { print "eat A"; print "eat 99" }
    { print "" }' "$T/clean.plan" >"$T/bad.in"
sed -n p "$T/more" >>"$T/bad.in"
play_in "$T/bad.in" bad $G --record "$T/bad.json"
bad_line() {
    check "play: bad input $1 is answered with a message (mentioning $3) and the prompt again" \
        "$(answered "$T/bad.out" You "$2" "$3")"
}
bad_line "(an unknown word)" frobnicate frobnicate
bad_line "(a malformed division)" "cut 99 special 1" 99
bad_line "(save with no file name)" save "save FILE"
bad_line "(save into a missing directory)" "save $T/no/such/dir/x.json" "cannot"
bad_line "(dibs with no number)" dibs dibs
bad_line "(take a portion that is not there)" "take Z" Z
bad_line "(eat the Anchovy slice when placing)" "eat A" '"A"'
bad_line "(eat slice 99 of a few)" "eat 99" 99
check "play: after the bad input the game finishes normally" "$(finished bad)"
check "play: bad input changes nothing: the record equals the Enter-only game's" \
    "$(same_file "$T/bad.json" "$T/clean.json" "the Enter-only game")"

# ---- Commands ----

lines help '?' rules 'rules dibs' 'rules nosuch' table >"$T/cmd.in"
sed -n p "$T/enter" >>"$T/cmd.in"
play_in "$T/cmd.in" cmd $G --record "$T/cmd.json"
help_n=$(grep -c '^  save FILE ' "$T/cmd.out")
check "play: \"help\" and \"?\" list the commands" \
    "$([ "$help_n" -eq 2 ] || echo "the command list appeared $help_n times")" \
    "$(for c in 'help ' 'rules \[topic\]' 'hint ' 'table ' 'undo ' 'save FILE' 'quit '; do
        grep -q "^  $c" "$T/cmd.out" || printf '%s ' "no \"$c\" line"
    done)"
topics=$(awk '/^Topics:/ { on = 1; printf "%s", $0; next } on && /^       / { printf "%s", $0; next } { on = 0 }' "$T/cmd.out")
check "play: \"rules\" lists the topics" \
    "$(for w in overview divide take place scoring dibs mystery-slice seconds; do
        printf '%s\n' "$topics" | grep -q " $w\( \|$\)" || printf '%s ' "no topic $w"
    done)"
check "play: \"rules dibs\" prints the Dibs! rule" \
    "$(grep -q '^Dibs!: ' "$T/cmd.out" || echo "no \"Dibs!:\" line")"
check "play: \"rules nosuch\" says there is no such topic" \
    "$(grep -q "no rules topic or Special named 'nosuch'" "$T/cmd.out" || echo "no message")"
# help lists `rules NAME` only where the game has things to look up by name:
# New York Slice's Specials, Delivery's cards; Pizza Theory has neither.
helps=""
for game in nyslice theory delivery; do
    printf 'help\nrules nosuch\nquit\n' | "$BIN" play --game "$game" --players 2 >"$T/help-$game.out" 2>&1
    named=$(grep '^  rules [A-Z]' "$T/help-$game.out")
    nosuch=$(grep "^no rules topic.* named 'nosuch'" "$T/help-$game.out")
    case $game in
    nyslice) want_named="  rules SPECIAL   what a Special does, named as the table shows it"
             want_nosuch="no rules topic or Special named 'nosuch' (type 'rules' for the topics)" ;;
    theory) want_named="" want_nosuch="no rules topic named 'nosuch' (type 'rules' for the topics)" ;;
    delivery) want_named="  rules CARD      what a card does, named as you type it"
              want_nosuch="no rules topic or card named 'nosuch' (type 'rules' for the topics)" ;;
    esac
    [ "$named" = "$want_named" ] || helps="$helps; $game's help: \"${named:-no rules NAME line}\""
    [ "$nosuch" = "$want_nosuch" ] || helps="$helps; $game: \"$nosuch\""
done
check "play: help lists \"rules CARD\" or \"rules SPECIAL\" only in a game with cards or Specials" "${helps#; }"
# Every rules topic of every game, wrapped to the terminal whatever its source's lines.
for game in nyslice theory delivery; do
    printf 'rules\nquit\n' | "$BIN" play --game "$game" --players 2 >"$T/topics.out" 2>&1
    list=$(awk '/^You> rules/ { on = 1; next } on && /^(Topics:|       )/ { sub(/^Topics:/, ""); print } on && /^You>/ { exit }' \
        "$T/topics.out")
    { for topic in $list; do echo "rules $topic"; done; echo quit; } |
        "$BIN" play --game "$game" --players 2 >"$T/rules-$game.out" 2>&1
    widest=$(sed -n '/^You> rules /,$p' "$T/rules-$game.out" | LC_ALL=C.UTF-8 wc -L)
    check "play --game $game: every rules topic ($(echo $list | wc -w)) fits 80 columns" \
        "$([ "$(echo $list | wc -w)" -ge 5 ] || echo "topics: $list")" \
        "$([ "$widest" -le 80 ] || echo "a line of $widest columns")" \
        "$(grep -q 'no rules topic' "$T/rules-$game.out" && echo 'a listed topic is missing')"
done
tables=$(awk '$0 == "You> table" { on = 1 } on && /^NEW YORK SLICE/ { print "yes"; exit }' "$T/cmd.out")
check "play: \"table\" shows the table again" "$([ "$tables" = yes ] || echo "no table after \"table\"")"
check "play: after the commands the game finishes, the same game as with Enter only" "$(finished cmd)" \
    "$(same_file "$T/cmd.json" "$T/clean.json" "the Enter-only game")"

# hint: before every decision, then Enter. Over a few seeds.
hint_lines=""
hint_problems=""
for s in $SEED $((SEED + 1)) $((SEED + 2)); do
    awk 'BEGIN { for (i = 0; i < 60; i++) { print "hint"; print "" } }' >"$T/hint.in"
    play_in "$T/hint.in" hint --seed "$s" --seats "$SEATS"
    p=$(finished hint)
    [ -z "$p" ] || hint_lines="$hint_lines; seed $s: $p"
    nh=$(grep -c '^hint: [^ ]' "$T/hint.out")
    np=$(grep -c '^You> hint$' "$T/hint.out")
    [ "$nh" -gt 0 ] && [ "$nh" -eq "$np" ] || hint_lines="$hint_lines; seed $s: $nh \"hint: MOVE  (why)\" lines for $np hints"
    p=$(awk '/^hint: / { h = substr($0, 7); sub(/  \(.*/, "", h); next }
             /^\(suggested\) / { n++; if (substr($0, 13) != h) { print "decision " n ": hint \"" h "\" but Enter played \"" substr($0, 13) "\""; exit } }' "$T/hint.out")
    [ -z "$p" ] || hint_problems="$hint_problems; seed $s: $p"
done
check "play: \"hint\" prints \"hint: MOVE  (why)\" at every decision, and the game finishes" "${hint_lines#; }"
check "play: Enter right after \"hint\" plays the hinted move" "${hint_problems#; }"

# ---- Undo ----

# At the third decision: save, undo, save again; then play on.
awk 'NR == 3 { exit } { print "" }' "$T/clean.plan" >"$T/undo.in"
lines "save $T/u1.json" undo "save $T/u2.json" >>"$T/undo.in"
sed -n p "$T/enter" >>"$T/undo.in"
play_in "$T/undo.in" undo $G --record "$T/undo.json"
# The game as it was at the second decision.
lines "" "save $T/r2.json" quit >"$T/r2.in"
play_in "$T/r2.in" r2 $G
n1=$(nactions "$T/u1.json" 2>/dev/null)
n2=$(nactions "$T/u2.json" 2>/dev/null)
# The move taken back is the human's last one (the one before "undo"), asked again.
took=$(awk '/^You> / { if ($0 == "You> undo") { print last; exit } } /^  You: / { last = substr($0, 8) }' "$T/undo.out")
check "play: undo says which decision it took back, and the game goes back (fewer actions in the record)" \
    "$(grep -qxF "Took back your last decision ($took): make it again." "$T/undo.out" ||
        echo "no \"Took back your last decision ($took)\" line: $(grep -m1 '^Took back' "$T/undo.out")")" \
    "$([ -f "$T/u2.json" ] && [ "${n2:-0}" -lt "${n1:-0}" ] || echo "actions before undo ${n1:-none}, after ${n2:-none}")"
check "play: after undo the game is exactly as it was at the human's previous decision" \
    "$(same_file "$T/u2.json" "$T/r2.json" "the game saved at the previous decision")"
"$BIN" replay "$T/undo.json" >/dev/null 2>&1
rrc=$?
check "play: after undo the game finishes and its record replays" "$(finished undo)" \
    "$([ "$rrc" -eq 0 ] || echo "replay exit $rrc")"

lines undo quit >"$T/undo0.in"
play_in "$T/undo0.in" undo0 $G
check "play: undo at the first decision: \"nothing to undo yet\", and quit exits 0" \
    "$(answered "$T/undo0.out" You undo "nothing to undo")" "$([ "$rc" -eq 0 ] || echo "exit status $rc")"

# Undo, then quit: the --record file is the game on the screen.
awk 'NR == 3 { exit } { print "" }' "$T/clean.plan" >"$T/undoq.in"
lines undo quit >>"$T/undoq.in"
play_in "$T/undoq.in" undoq $G --record "$T/undoq.json"
check "play --record: undo then quit leaves the undone game in the record (what --resume continues)" \
    "$([ "$rc" -eq 0 ] || echo "exit status $rc")" \
    "$(same_file "$T/undoq.json" "$T/r2.json" "the game saved at the previous decision")"

# ---- Save, quit, resume ----

awk 'NR == 5 { exit } { print "" }' "$T/clean.plan" >"$T/save.in"
lines "save $T/saved.json" quit >>"$T/save.in"
play_in "$T/save.in" save $G
check "play: \"save FILE\" then \"quit\" mid-game: exit 0, the file is written, no Guest Check" \
    "$([ "$rc" -eq 0 ] || echo "exit status $rc")" \
    "$(grep -q "^saved to $T/saved.json" "$T/save.out" || echo "no \"saved to\" line")" \
    "$([ -s "$T/saved.json" ] || echo "no file")" \
    "$(grep -q '^GUEST CHECK' "$T/save.out" && echo "a Guest Check was printed")"
sed -n p "$T/saved.json" >"$T/midgame.json"
play_in "$T/enter" resume --resume "$T/saved.json"
check "play --resume: the saved game continues and finishes" "$(finished resume)" \
    "$(grep -q -E "dealt from seed $SEED[;.]" "$T/resume.out" || echo "the end does not name seed $SEED")" \
    "$(command_after 'this deals it again:' "$T/resume.out" |
        grep -q -E "^play --game nyslice --players [0-9] --seats [a-z,]+ --seed $SEED\$" ||
        echo "no command that deals it again: $(command_after 'this deals it again:' "$T/resume.out")")"
check "play --resume: the finished game equals the same seed played straight through (same seed, same game)" \
    "$(same_file "$T/saved.json" "$T/clean.json" "the game played straight through")" \
    "$([ "$(check_totals "$T/resume.out")" = "$(check_totals "$T/clean.out")" ] ||
        echo "Guest Check totals $(check_totals "$T/resume.out"), straight $(check_totals "$T/clean.out")")"

# The record is now a finished game: resuming it shows the Guest Check.
play_in "$T/enter" over --resume "$T/saved.json"
check "play --resume of a finished game: the Guest Check, exit 0, no prompt" "$(finished over)" \
    "$([ "$(check_totals "$T/over.out")" = "$(check_totals "$T/clean.out")" ] || echo "totals $(check_totals "$T/over.out")")" \
    "$(grep -q '^You> ' "$T/over.out" && echo "a prompt was shown")"

# Input that ends mid-game: exit 1, the --record file holds the game so far.
awk 'NR == 4 { exit } { print "" }' "$T/clean.plan" >"$T/eof.in"
play_in "$T/eof.in" eof $G --record "$T/eof.json"
prefix=$(actions_of "$T/clean.json" | awk -v n="$(nactions "$T/eof.json")" 'NR <= n')
check "play --record: input ending mid-game exits 1, says so, and the record holds the moves so far" \
    "$([ "$rc" -eq 1 ] || echo "exit status $rc")" \
    "$(grep -q '^input ended before the game was over' "$T/eof.out" || echo "no \"input ended\" line")" \
    "$(grep -q "the game is saved in $T/eof.json" "$T/eof.out" || echo "no \"the game is saved in\" line")" \
    "$([ "$(nactions "$T/eof.json")" -gt 0 ] && [ "$prefix" = "$(actions_of "$T/eof.json")" ] ||
        echo "the record's $(nactions "$T/eof.json") actions are not the start of the game")"
play_in "$T/enter" eofresume --resume "$T/eof.json"
check "play --resume after input ended: finishes the same game as straight through" "$(finished eofresume)" \
    "$(same_file "$T/eof.json" "$T/clean.json" "the game played straight through")"

# Leaving a game that is not saved says so, and how to keep one; a script's
# quit is not asked to confirm (nobody would answer): it ends at once.
awk 'NR == 4 { exit } { print "" }' "$T/clean.plan" >"$T/noeof.in"
play_in "$T/noeof.in" noeof $G
lines "" "" quit >"$T/noquit.in"
play_in "$T/noquit.in" noquit $G
awk 'NR == 3 { exit } { print "" }' "$T/clean.plan" >"$T/savedquit.in"
lines "save $T/sq.json" quit >>"$T/savedquit.in"
play_in "$T/savedquit.in" savedquit $G
lines "save $T/sl.json" "" "" quit >"$T/savedlater.in"
play_in "$T/savedlater.in" savedlater $G
check "play: input ending, or quit, in a game not saved says it was not saved and how to keep one" \
    "$(grep -q '^input ended before the game was over$' "$T/noeof.out" || echo "no \"input ended\" line")" \
    "$(grep -q "^the game was not saved: 'save FILE' during a game keeps it" "$T/noeof.out" || echo "input ended: not said unsaved")" \
    "$(grep -q 'and pizzabox play --resume FILE continues it$' "$T/noeof.out" || echo "no --resume")" \
    "$([ "$rc" -eq 0 ] || echo "quit: exit $rc")" \
    "$(grep -q "^the game was not saved: 'save FILE'" "$T/noquit.out" || echo "quit: not said unsaved")" \
    "$(grep -q 'Quit?' "$T/noquit.out" && echo 'a script was asked to confirm')" \
    "$(grep -qx "the game is saved in $T/sq.json: pizzabox play --resume $T/sq.json" "$T/savedquit.out" ||
        echo "save then quit: $(sed -n '$p' "$T/savedquit.out")")" \
    "$(grep -q "^the game was not saved after its last moves: $T/sl.json has it as it was saved" "$T/savedlater.out" ||
        echo "moves after save, then quit: $(sed -n '$p' "$T/savedlater.out")")"

# --resume tells where the game stands: its moves so far and the last ones.
sed -n p "$T/midgame.json" >"$T/r.json"
nmid=$(nactions "$T/r.json")
last_move=$(actions_of "$T/r.json" | sed -n '$p')
play_in "$T/noquit.in" resumed --resume "$T/r.json"
last_said=$(awk '/^Continuing / { on = 1; next } on && /^  [^ ]/ { l = $0 } on && !/^  / { print l; exit }' "$T/resumed.out")
check "play --resume: a summary of the moves already played, the last one last" \
    "$(grep -qx "Continuing $T/r.json: $nmid moves played, the last ones:" "$T/resumed.out" ||
        echo "no \"Continuing\" line: $(sed -n 2p "$T/resumed.out")")" \
    "$([ "$(awk '/^Continuing / { on = 1; next } on && /^  (You|Greedy [0-9]|Random [0-9]): / { n++ } on && !/^  / { exit } END { print n }' \
        "$T/resumed.out")" -eq 6 ] || echo "not the last 6 moves")" \
    "$(case $last_said in *": $last_move") ;; *) echo "the last move said \"$last_said\", the record's \"$last_move\"" ;; esac)"

# ---- Hot-seat ----

# A seed where a human eats the Mystery slice, if one is found: scan.
cat >"$T/mystery.awk" <<'EOF'
# Tables of a hot-seat game (seats 0 and 1 human): the row marked "(you)" is
# the viewer. Counts: mine (the viewer's own "your Mystery slice"), leak (it
# in someone else's row), hidden (a "?" eaten by the other human, as the
# viewer sees it), ownq (a "?" in the viewer's own eaten slices).
function flush(   r, ate) {
    for (r = 0; r < rows; r++) {
        if (det[r] ~ /your Mystery slice:/) {
            if (r == viewer) mine++
            else leak++
        }
        ate = det[r]
        if (viewer < 0 || r > 1 || !sub(/.*ate [0-9]+:/, "", ate))
            continue
        sub(/(specials:|your Mystery slice:).*/, "", ate)
        if ((" " ate " ") ~ / \? /) {
            if (r == viewer) ownq++
            else hidden++
        }
    }
}
/^NEW YORK SLICE/ { grid = 0; rows = 0; viewer = -1 }
/Ate  Anch$/ { grid = 1; next }
grid && /^> to move/ { flush(); grid = 0; next }
grid && /^[> ] [^ ]/ { if (index($0, "(you)")) viewer = rows; det[rows++] = ""; next }
grid && /^    / { det[rows - 1] = det[rows - 1] " " $0 }
END { printf "mine=%d leak=%d hidden=%d ownq=%d\n", mine, leak, hidden, ownq }
EOF
HS=""
for s in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 \
    31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60; do
    play_in "$T/enter" hsscan --seed "$s" --seats human,human,greedy
    [ "$rc" -eq 0 ] || continue
    case $(awk -f "$T/mystery.awk" "$T/hsscan.out") in
    *" hidden=0 "*) ;;
    *) HS=$s; break ;;
    esac
done
MYSTERY=$HS
[ -n "$HS" ] || HS=7
play_in "$T/enter" hs --seed "$HS" --seats human,human,greedy --record "$T/hs.json"
check "play hot-seat (human,human,greedy, seed $HS), Enter only: the game finishes" "$(finished hs)"

# The hand-over line names the next human whenever the human at the
# keyboard changes, and only then.
handover=$(awk '
    /^==== .*, your turn\. / { h = $0; sub(/^==== /, "", h); sub(/, your turn\..*/, "", h); pending = h; nh++; next }
    /^Player [0-9]+> / {
        who = $0; sub(/> .*/, "", who); np++
        if (who != last) { changes++; if (pending != who) miss = miss " before prompt " np " (" who ")" }
        else if (pending != "") extra = extra " before prompt " np
        pending = ""; last = who
    }
    END {
        if (np == 0) print "no human prompt"
        else if (miss != "") print "no hand-over" miss
        else if (extra != "") print "a hand-over without a change of human" extra
        else if (nh != changes) print nh " hand-overs for " changes " changes"
    }' "$T/hs.out")
nh=$(grep -c '^==== .*, your turn\. ' "$T/hs.out")
check "play hot-seat: a hand-over line naming the next human each time the human changes ($nh)" "$handover"

# Each hand-over reads one line: answer them with "ready" and it is the same game.
awk '/^==== .*, your turn\. / { print "ready"; next } /^Player [0-9]+> / { print "" }' "$T/hs.out" >"$T/ready.in"
sed -n p "$T/more" >>"$T/ready.in"
play_in "$T/ready.in" ready --seed "$HS" --seats human,human,greedy --record "$T/ready.json"
consumed=$(awk '/^==== .*, your turn\. / { n++; getline; if ($0 != "ready") bad++ } END { if (!n || bad) print bad " of " n " hand-overs not followed by the line read" }' "$T/ready.out")
check "play hot-seat: each hand-over consumes exactly one line" "$(finished ready)" "$consumed" \
    "$(grep -q '"ready"' "$T/ready.out" && echo "\"ready\" was read as a move")" \
    "$(same_file "$T/ready.json" "$T/hs.json" "the game with blank hand-overs")"

# Undo is refused against a second human, and changes nothing.
lines "" undo >"$T/hsundo.in"
sed -n p "$T/enter" >>"$T/hsundo.in"
play_in "$T/hsundo.in" hsundo --seed "$HS" --seats human,human,greedy --record "$T/hsundo.json"
check "play hot-seat: undo is refused (\"only for games against bots\") and the game goes on" \
    "$(answered "$T/hsundo.out" "Player 1" undo "only for games against bots")" "$(finished hsundo)" \
    "$(same_file "$T/hsundo.json" "$T/hs.json" "the game without undo")"

if [ -n "$MYSTERY" ]; then
    m=$(awk -f "$T/mystery.awk" "$T/hs.out")
    leak=$(printf '%s\n' "$m" | sed 's/.*leak=\([0-9]*\).*/\1/')
    ownq=$(printf '%s\n' "$m" | sed 's/.*ownq=\([0-9]*\).*/\1/')
    mine=$(printf '%s\n' "$m" | sed 's/.*mine=\([0-9]*\).*/\1/')
    check "play hot-seat: a Mystery slice a human ate is \"?\" in the other human's table, never shown there ($m)" \
        "$([ "$leak" -eq 0 ] || echo "\"your Mystery slice\" shown in another seat's row $leak times")" \
        "$([ "$mine" -gt 0 ] || echo "the owner was never shown their Mystery slice")" \
        "$([ "$ownq" -eq 0 ] || echo "the owner saw their own eaten Mystery slice as \"?\" $ownq times")"
else
    ok "play hot-seat: Mystery slice shown as \"?\" to the other human # SKIP no seed in 1-60 where a human eats one"
fi

# ---- Hostile records for --resume ----

# bad_resume DESC WANT: the last run failed with exit 2, one line on stderr
# mentioning WANT, nothing on stdout.
bad_resume() {
    check "$1" "$([ "$rc" -eq 2 ] || echo "exit status $rc, expected 2")" \
        "$([ "$(nlines "$T/hostile.err")" -eq 1 ] || echo "stderr has $(nlines "$T/hostile.err") lines")" \
        "$(grep -F -q -- "$2" "$T/hostile.err" || echo "stderr does not mention $2: $(first_line "$T/hostile.err")")" \
        "$([ ! -s "$T/hostile.out" ] || echo "stdout: $(first_line "$T/hostile.out")")"
}

printf '{"format": "pizzabox-record", "version": 1, "game": "nyslice",\n' >"$T/malformed.json"
play_in "$T/enter" hostile --resume "$T/malformed.json"
bad_resume "play --resume: malformed JSON exits 2 with one line" "JSON"

# The third action of the saved game becomes a move that cannot be made.
awk '/"actions":\[/ { on = 1; print; next } on && ++k == 3 { print "  \"take 12\","; next } { print }' \
    "$T/midgame.json" >"$T/tampered.json"
play_in "$T/enter" hostile --resume "$T/tampered.json"
bad_resume "play --resume: a tampered action exits 2 with one line naming it" "action 3"

play_in "$T/enter" hostile --resume "$T/no-such-record.json"
bad_resume "play --resume: a missing file exits 2 naming it" "no-such-record.json"

sed 's/"greedy"/"deepblue"/' "$T/midgame.json" >"$T/unknown-bot.json"
play_in "$T/enter" hostile --resume "$T/unknown-bot.json"
bad_resume "play --resume: a record seating an unknown bot exits 2 naming it" "deepblue"

play_in "$T/enter" hostile --resume "$T/midgame.json" --seats human,greedy
bad_resume "play --resume --seats with the wrong number of seats exits 2" "--seats"

# Seat names are the record's: control characters in them must not reach the
# terminal (escape sequences could clear or retitle it).
awk '/"names":\[/ { on = 1; print; next } on && ++k == 2 { print "  \"Evil\\u001b]0;pwned\\u0007\\u001b[2J\","; next } { print }' \
    "$T/midgame.json" >"$T/evil.json"
play_in "$T/enter" evil --resume "$T/evil.json"
ctl=$(awk '/[\001-\010\013-\037\177]/ { n++; if (!first) first = NR } END { if (n) print n " lines with control characters, first line " first }' "$T/evil.out")
check "play --resume: seat names with escape sequences are not printed raw" \
    "$([ "$rc" -eq 0 ] || echo "exit status $rc")" "$ctl"

# ---- Usage errors ----

play_in "$T/enter" hostile --frobnicate
bad_resume "play: unknown option exits 2" "--frobnicate"
play_in "$T/enter" hostile --seats human,deepblue
bad_resume "play: an unknown bot in --seats exits 2" "deepblue"
play_in "$T/enter" hostile --players 3 --seats human,greedy
bad_resume "play: --players and --seats disagreeing exits 2" "--players 3"
play_in "$T/enter" hostile --resume "$T/saved.json" --seed 5
bad_resume "play --resume with --seed: the record's seed cannot change" \
    "--seed cannot change a game continued with --resume"
play_in "$T/enter" hostile --seed 1 --record "$T"
bad_resume "play --record DIRECTORY: refused before the game starts" "that is a directory, not a file"
play_in "$T/enter" hostile --hint
bad_resume "play --hint without its value: says it needs a bot" "--hint needs a bot"

# A bot's payment of several parts is one move, one line of the log: the
# build it pays for stays on screen.
printf '1\n\n\nquit\n' >"$T/steps.in"
play_in "$T/steps.in" steps --game delivery --players 3 --seed 5
check "play: a bot's payment of several parts is one move on one line (\"pay A B\")" \
    "$(grep -q '^  Greedy 3: pay [^ ;]* [^;]*$' "$T/steps.out" || echo "payments on lines of their own: $(grep -c '^  Greedy 3: pay ' "$T/steps.out")")" \
    "$(grep -q '^  Greedy 3: build UW-2 UW/Onions$' "$T/steps.out" || echo 'the build is not on a line of its own')"

# A version 3 New York Slice record was played by edition 1 of the rules,
# where a Supreme collected beside only the Anchovy slice waited for a type:
# it replays so, to its totals. Read as version 4 (edition 2), the Supreme
# is placed next to the Anchovy slice at once, so the later "attach 6" is
# not asked.
check "replay: a version 3 New York Slice record replays with edition 1 of the rules, to its totals" \
    "$(replayed_as_played "$(dirname "$0")/records/nyslice-v3-supreme-waits.json" 3 \
        '"total":19,.*"total":16,.*"total":40,.*"total":28,' 'action 16 "attach 6" does not replay')"

summary play
