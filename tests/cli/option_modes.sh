#!/bin/sh
# An option given to a mode it does not apply to is refused: one line on
# standard error, nothing on standard output, exit 2 (never silently
# ignored). Every (mode, option) pair that --help's "Where each option
# applies" does not list is tried, from a table of a command line per mode
# (a --dap launch's args: tests/dap/protocol.py);
# then the refusals the issue named, word for word, and -ex and -x running in
# the order given, as in gdb.
set -e
. "$top_srcdir/tests/cli/lib.sh"
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM
export HOME="$tmp/home" XDG_STATE_HOME="$tmp/state" XDG_CONFIG_HOME="$tmp/config"
ex="$top_srcdir/examples"
mlp="$ex/mlp"

run_ptodb --help
expect_eq "--help exit" 0 "$rc"
# "  ptodb --batch PATH: --rtol --atol ..." -> "ptodb --batch PATH|--rtol --atol ..."
printf '%s\n' "$out" | sed -n '/^Where each option applies/,/^$/p' |
    sed -n 's/^  \(ptodb [^:]*\):\(.*\)$/\1|\2/p' >"$tmp/modes"
[ "$(wc -l <"$tmp/modes")" -eq 15 ] || fail "--help lists $(wc -l <"$tmp/modes") modes, not 15: $(cat "$tmp/modes")"
# the options of every mode (--help, --version, --nx)
every=$(printf '%s\n' "$out" | sed -n '/^Where each option applies/,/^$/p' | sed -n 's/^  every mode://p')
case " $every " in *" --help --version "*) ;; *) fail "--help: no 'every mode: --help --version ...' line" ;; esac
# every option of --help, as the lists by mode spell it, and its argument:
# "--jobs|N", "--metrics|" ("PATH" of --run and the like is not one)
printf '%s\n' "$out" | sed -n '/^Options:/,/^$/p' |
    sed -nE 's/^ +(-[[:alnum:]]+, +)?--([[:alnum:]-]+)( ([^ ]+))? +.*/\2|\4/p' |
    sed -e 's/^ex|/-ex|/' -e 's/^command|/-x|/' -e '/^-/!s/^/--/' \
        -e 's/^\(--info\|--run\|--batch\|--merge-reports\|--compare\)|.*/\1|/' >"$tmp/options"
[ "$(wc -l <"$tmp/options")" -ge 40 ] || fail "--help lists fewer than 40 options"
grep -qx -- '--jobs|N' "$tmp/options" || fail "--help: no '-j, --jobs N': $(cat "$tmp/options")"
grep -qx -- '--metrics|' "$tmp/options" || fail "--help: no '--metrics'"

# The command line of each mode (without the option tried).
echo '{}' >"$tmp/r.json"
: >"$tmp/keys"
template() {
    case $1 in
    "ptodb PATH") echo "$mlp" ;;
    "ptodb --compare A B (on a terminal)") echo "--compare $mlp $mlp" ;;
    "ptodb --batch PATH -ex CMD") echo "--batch $mlp -ex quit" ;;
    "ptodb --batch PATH") echo "--batch $mlp" ;;
    "ptodb --run PATH") echo "--run $mlp" ;;
    "ptodb --compare A B") echo "--compare $mlp $mlp" ;;
    "ptodb reduce CASE") echo "reduce $mlp" ;;
    "ptodb --info PATH") echo "--info $mlp" ;;
    "ptodb --check PATH...") echo "--check $mlp" ;;
    "ptodb --print FILE") echo "--print $mlp/passes_dump/00_frontend.py" ;;
    "ptodb --list-ops") echo "--list-ops" ;;
    "ptodb --list-semantics") echo "--list-semantics" ;;
    "ptodb --merge-reports FILE...") echo "--merge-reports $tmp/r.json" ;;
    "ptodb --dap") echo "--dap" ;;
    "ptodb --dap (a launch request's args)") ;; # tests/dap/protocol.py
    *) fail "no command line for the mode '$1' of --help" ;;
    esac
}
modes_opts="--info --check --print --list-ops --list-semantics --run --batch --merge-reports --compare --dap --dap-port"
is_mode_option() { case " $modes_opts " in *" $1 "*) return 0 ;; esac; return 1; }

refused=0
while IFS='|' read -r mode listed; do
    args=$(template "$mode")
    [ -n "$args" ] || continue
    while IFS='|' read -r opt arg; do
        case " $listed " in *" $opt "*) continue ;; esac
        case " $every " in *" $opt "*) continue ;; esac
        case "$mode " in *" $opt "*) continue ;; esac # the mode's own option
        # options that choose another mode rather than go with this one
        # (two mode options: below)
        is_mode_option "$opt" && continue
        case "$mode:$opt" in
        "ptodb --batch PATH:-ex" | "ptodb --batch PATH:-x") continue ;;
        "ptodb --compare A B (on a terminal):--batch" | "ptodb --compare A B (on a terminal):--nw" | \
            "ptodb --compare A B (on a terminal):--json" | "ptodb --compare A B (on a terminal):--html" | \
            "ptodb --compare A B (on a terminal):--junit") continue ;;
        esac
        # an option's argument: one it could take (refusal comes first anyway)
        value=
        case $opt in
        -ex) value=quit ;;
        -x) value=$tmp/r.json ;;
        --print) value=$mlp/passes_dump/00_frontend.py ;;
        *) [ -z "$arg" ] || value=1 ;;
        esac
        env=
        case $mode in *"on a terminal"*) env="PTODB_TUI_SCRIPT=$tmp/keys" ;; esac
        # shellcheck disable=SC2086
        set +e
        if [ -n "$value" ]; then
            env $env "$PTODB" $args "$opt" "$value" </dev/null >"$tmp/out" 2>"$tmp/err"
        else
            env $env "$PTODB" $args "$opt" </dev/null >"$tmp/out" 2>"$tmp/err"
        fi
        st=$?
        set -e
        what="$mode with $opt${value:+ $value}"
        [ "$st" -eq 2 ] || fail "$what: exit $st, not 2 (refused): $(cat "$tmp/err")"
        [ ! -s "$tmp/out" ] || fail "$what: wrote to standard output: $(head -3 "$tmp/out")"
        [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "$what: not one line on standard error: $(cat "$tmp/err")"
        grep -qE -- "^ptodb: $opt does not apply to .*; it applies to .*$" "$tmp/err" || fail "$what: $(cat "$tmp/err")"
        refused=$((refused + 1))
    done <"$tmp/options"
done <"$tmp/modes"
[ "$refused" -ge 300 ] || fail "only $refused refused pairs tried"

# two modes at once: refused, whichever comes first (--batch goes with
# --compare, --dap-port with --dap)
pairs=0
for a in --info --check --list-ops --list-semantics --run --batch --merge-reports --compare --dap; do
    for b in --info --check --list-ops --list-semantics --run --batch --merge-reports --compare --dap --dap-port; do
        [ "$a" != "$b" ] || continue
        case "$a $b" in "--batch --compare" | "--compare --batch" | "--dap --dap-port") continue ;; esac
        extra=
        [ "$b" != --dap-port ] || extra=0
        # shellcheck disable=SC2086
        run_ptodb "$a" $b $extra "$mlp" </dev/null
        [ "$rc" -eq 2 ] && [ -z "$out" ] || fail "$a $b: exit $rc: $err"
        case $err in
        "ptodb: $a and $b are two modes: give one" | "ptodb: $b and $a are two modes: give one") ;;
        *) fail "$a $b: $err" ;;
        esac
        pairs=$((pairs + 1))
    done
done

# the refusals of issue #41, word for word
run_ptodb --bisect "$mlp"
expect_eq "--bisect without --batch: exit" 2 "$rc"
expect_eq "--bisect without --batch" "ptodb: --bisect does not apply to the debugger (ptodb PATH: the TUI, or the command line with --nw); it applies to --batch" "$err"
run_ptodb --batch "$mlp" --pass 3
expect_eq "--pass with --batch" "ptodb: --pass does not apply to --batch; it applies to reduce" "$err"
run_ptodb --heatmap --run "$mlp"
expect_eq "--heatmap --run" "ptodb: --heatmap does not apply to --run; it applies to --batch" "$err"
run_ptodb --nw --timeout 5 "$mlp" </dev/null
expect_eq "--timeout with --nw" "ptodb: --timeout does not apply to the debugger (ptodb PATH: the TUI, or the command line with --nw); it applies to --batch, --run, --compare and reduce" "$err"
run_ptodb --run --batch "$mlp"
expect_eq "two modes" "ptodb: --run and --batch are two modes: give one" "$err"
run_ptodb --batch "$mlp" -ex 'pass 0' --metrics
expect_eq "--metrics with --batch -ex" "ptodb: --metrics does not apply to --batch with -ex or -x; it applies to --batch" "$err"
# what a mode takes still runs
run_ptodb --compare "$mlp" "$mlp" --batch --json "$tmp/c.json"
expect_eq "--compare --batch --json: exit" 0 "$rc"
run_ptodb --batch "$mlp" -ex 'pass 0' --trace "$tmp/t.json"
expect_eq "--batch -ex --trace: exit" 0 "$rc"
[ -s "$tmp/t.json" ] || fail "--batch -ex --trace wrote no trace"

# -ex and -x in the order given, as gdb does (not every -x first)
printf 'echo B\\n\n' >"$tmp/b.ptodb"
printf 'echo D\\n\n' >"$tmp/d.ptodb"
run_ptodb --nw --nx -ex 'echo A\n' -x "$tmp/b.ptodb" -ex 'echo C\n' -x "$tmp/d.ptodb" -ex quit </dev/null
expect_eq "-ex and -x in order: exit" 0 "$rc"
expect_eq "-ex and -x in order" "A
B
C
D" "$out"
run_ptodb --batch "$mlp" -x "$tmp/b.ptodb" -ex 'echo A\n'
expect_eq "--batch: -x then -ex" "B
A" "$(printf '%s\n' "$out" | tail -2)"
echo "$refused (mode, option) pairs and $pairs pairs of modes refused; -ex and -x in command-line order"
