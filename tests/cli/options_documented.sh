#!/bin/sh
# --help, README.md and man/ptodb.1 say the same of the command-line options:
#  - the same options, spelled the same (-ex and --ex, -x and --command, -j
#    and --jobs ...): --help's option lines, the first column of README's
#    option table, the tags of the man page's OPTIONS;
#  - the same modes, each with the same options: --help's "Where each option
#    applies", README's table of modes and the man page's subsection of that
#    name;
#  - an option of some modes only ("with --batch/--run: ..." in --help) names
#    the same modes where README's table and the man page describe it ("with
#    `--run` or `--batch`:", "With --run or --batch:").
# And both man pages render without warnings.
set -e
. "$top_srcdir/tests/cli/lib.sh"

man_page="$top_srcdir/man/ptodb.1"
[ -f "$man_page" ] || fail "missing $man_page"
[ -f "$top_srcdir/README.md" ] || fail "missing README.md"
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM
# README's tables, their escaped pipes (`on\|off`) out of the way of the columns
sed 's/\\|/\//g' "$top_srcdir/README.md" >"$tmp/README.md"
readme="$tmp/README.md"

run_ptodb --help
expect_eq "--help exit" 0 "$rc"
printf '%s\n' "$out" >"$tmp/help"

# roff to text: \- is -, fonts and quotes go
unroff() { sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\(dq//g' -e 's/"//g' -e 's/\\&//g'; }

# ---- the options, as spelled ----------------------------------------------
sed -n '/^Options:/,/^$/p' "$tmp/help" |
    sed -nE 's/^ +((-[[:alnum:]]+), +)?(--[[:alnum:]-]+).*/\2 \3/p' | tr ' ' '\n' | sed '/^$/d' |
    sort -u >"$tmp/help.spell"
# README: the table under "| option | meaning |", its first column
awk '/^\| option \| meaning \|/ { on = 1; next } on && !/^\|/ { exit } on' "$readme" |
    awk -F'|' '{ print $2 }' | grep -oE '`[^`]*`' | tr -d '`' |
    sed -nE 's/^(-{1,2}[[:alnum:]][[:alnum:]-]*).*/\1/p' | sort -u >"$tmp/readme.spell"
# the man page: the line after each .TP of OPTIONS, up to its subsection of modes
awk '/^\.SH OPTIONS/ { on = 1; next } /^\.S[HS] / { on = 0 } on && prev == ".TP" { print } { prev = $0 }' "$man_page" |
    unroff | grep -oE '(^|[ ,])-{1,2}[[:alnum:]][[:alnum:]-]*' | sed 's/^[ ,]//' | sort -u >"$tmp/man.spell"
[ "$(wc -l <"$tmp/help.spell")" -ge 50 ] || fail "--help spells fewer than 50 options: $(cat "$tmp/help.spell")"
for doc in readme man; do
    if ! cmp -s "$tmp/help.spell" "$tmp/$doc.spell"; then
        diff -u "$tmp/help.spell" "$tmp/$doc.spell" >&2 || true
        fail "the options of --help (-) and of $doc (+) differ"
    fi
done

# ---- the modes and their options ---------------------------------------------
# one line per mode: "KEY: opt opt ..." with the options sorted
norm() { awk -F'\t' '{ n = split($2, o, /[ ,.]+/); s = ""; for (i = 1; i <= n; i++) if (o[i] ~ /^-/) s = s " " o[i]; print $1 "\t" s }' |
    while IFS="$(printf '\t')" read -r key opts; do
        printf '%s:%s\n' "$key" "$(printf '%s\n' $opts | sort | tr '\n' ' ' | sed 's/^/ /; s/ $//; s/^ $//')"
    done; }
sed -n '/^Where each option applies/,/^$/p' "$tmp/help" | sed -n 's/^  \(ptodb [^:]*\|every mode\):\(.*\)$/\1\t\2/p' |
    norm >"$tmp/help.modes"
awk '/^\| mode \| the options it takes \|/ { on = 1; next } on && !/^\|/ { exit } on && !/^\| ---/' "$readme" |
    awk -F'|' '{ k = $2; gsub(/^ *`?|`? *$/, "", k); o = $3; gsub(/`/, "", o); print k "\t" o }' | norm >"$tmp/readme.modes"
awk '/^\.SS Where each option applies/ { on = 1; next } /^\.S[HS] / { on = 0 }
     on && prev == ".TP" { key = $0; sub(/^\.B /, "", key); getline opts; print key "\t" opts } { prev = $0 }' "$man_page" |
    unroff | norm >"$tmp/man.modes"
[ "$(wc -l <"$tmp/help.modes")" -ge 14 ] || fail "--help lists fewer than 14 modes: $(cat "$tmp/help.modes")"
for doc in readme man; do
    if ! cmp -s "$tmp/help.modes" "$tmp/$doc.modes"; then
        diff -u "$tmp/help.modes" "$tmp/$doc.modes" >&2 || true
        fail "where each option applies: --help (-) and $doc (+) differ"
    fi
done

# ---- "with MODES:" where an option is described --------------------------------
# the words that name a mode in such a prefix
vocab=" --batch --run --compare reduce --merge-reports --info --check --print --list-ops --list-semantics --dap "
modes_of() { for w in $(printf '%s\n' "$1" | grep -oE -- '(--[[:alnum:]-]+|\breduce\b)'); do
    case "$vocab" in *" $w "*) echo "$w" ;; esac
done | sort -u | tr '\n' ' '; }
checked=0
sed -n '/^Options:/,/^$/p' "$tmp/help" | sed -nE 's/^ +(-[[:alnum:]]+, +)?(--[[:alnum:]-]+)( [^ ]+)? +with ([^:]*): .*/\2\t\4/p' >"$tmp/with"
[ "$(wc -l <"$tmp/with")" -ge 20 ] || fail "--help: fewer than 20 options of some modes only"
while IFS="$(printf '\t')" read -r opt with; do
    want=$(modes_of "$(printf '%s' "$with" | tr '/' ' ')")
    # README: the rows naming the option
    rows=$(awk '/^\| option \| meaning \|/ { on = 1; next } on && !/^\|/ { exit } on' "$readme" |
        awk -F'|' -v o="$opt" '{ n = split($2, t, /`/); for (i = 2; i <= n; i += 2) { split(t[i], w, /[ =]/); if (w[1] == o) { print $3; break } } }')
    [ -n "$rows" ] || fail "README.md: no row of the option table for $opt"
    printf '%s\n' "$rows" | while read -r row; do
        case $row in with\ *) ;; *) fail "README.md: $opt is for $want only, but its row does not begin with 'with': $row" ;; esac
        got=$(modes_of "${row%%:*}")
        [ "$got" = "$want" ] || fail "README.md: $opt: --help says with $want, README says with $got"
    done
    # the man page: the paragraph after its tag, up to its first colon
    text=$(awk -v o="$opt" '/^\.SH OPTIONS/ { on = 1; next } /^\.S[HS] / { on = 0 }
        on && prev == ".TP" { t = $0; gsub(/\\-/, "-", t); gsub(/\\f[BIRP]/, "", t); n = split(t, w, /[ "=]+/); hit = 0
                              for (i = 1; i <= n; i++) if (w[i] == o) hit = 1
                              grab = hit; if (hit) body = ""; prev = $0; next }
        on && grab && /^\.(TP|PP|IP)/ { grab = 0 }
        on && grab { body = body " " $0 } { prev = $0 } END { print body }' "$man_page" | unroff |
        sed -E 's/^ *\.[A-Z]+ //; s/ \.[A-Z]+ / /g')
    case $text in \ *With\ * | With\ *) ;; *) fail "man/ptodb.1: $opt is for $want only, but its paragraph does not begin with 'With': $text" ;; esac
    got=$(modes_of "${text%%:*}")
    [ "$got" = "$want" ] || fail "man/ptodb.1: $opt: --help says with $want, the man page says with $got"
    checked=$((checked + 1))
done <"$tmp/with"

if command -v groff >/dev/null 2>&1; then
    for page in "$top_srcdir/man/ptodb.1" "$top_srcdir/man/ptodbrc.5"; do
        warnings=$(groff -man -Tutf8 -ww -z "$page" 2>&1 || true)
        [ -z "$warnings" ] || fail "$page: groff warnings: $warnings"
    done
fi
echo "$(wc -l <"$tmp/help.spell") option spellings and $(wc -l <"$tmp/help.modes") modes alike in --help, README.md and man/ptodb.1; $checked options of some modes only name them alike"
