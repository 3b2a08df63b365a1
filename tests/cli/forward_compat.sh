#!/bin/sh
# Dumps from a newer PyPTO still open (issue 17): an unknown op, enum value,
# dtype or pl.* name is a warning at file:line:col; the file checks, lists,
# diffs and steps; a run stops at the first statement that needs the unknown
# thing with "... is not known to this ptodb (newer PyPTO?)", and the passes
# that do not use it run as before. The cases are copies made here, in a temp
# folder: examples/mlp always, and the smallest fixture case when present.
set -e
. "$top_srcdir/tests/cli/lib.sh"

work=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$work"' EXIT

# The single-file cases of tests/data/newer: --check exits 0 with one warning.
newer="$top_srcdir/tests/data/newer"
for f in unknown_dtype:pl.FP99 unknown_enum:pl.Mem.Nowhere unknown_op:tile.tpush_to_aiw \
         unknown_op_pld:pld.tensor.windw; do
    name=${f%%:*}
    thing=${f#*:}
    set +e
    (cd "$newer" && "$PTODB" --check "$name.py" >"$work/out" 2>"$work/err")
    code=$?
    set -e
    expect_eq "$name: --check exit" 0 "$code"
    first=$(head -1 "$work/err")
    case $first in
    "$name.py:"[0-9]*:[0-9]*": warning: unknown "*"'$thing' (newer PyPTO?)"*) ;;
    *) fail "$name: first stderr line is not a warning at file:line:col: $first" ;;
    esac
    expect_contains "$name: summary" "checked 1 file: 0 with errors, 0 errors, " "$(cat "$work/out")"
done

# newer_case SRC NAME OP_PASS OP ENUM_PASS ENUM_OLD ENUM_NEW: copies the case
# SRC to $work/NAME, renames pl.OP( in the pass file OP_PASS to pl.OP_next(
# and ENUM_OLD to ENUM_NEW in the pass file ENUM_PASS, then checks --check,
# --info, --batch and the REPL against the unmodified case.
newer_case() {
    src=$1 name=$2 op_pass=$3 op=$4 enum_pass=$5 enum_old=$6 enum_new=$7
    c="$work/$name"
    cp -R "$src" "$c"
    op_file=$(ls "$c/passes_dump/${op_pass}"_*.py)
    enum_file=$(ls "$c/passes_dump/${enum_pass}"_*.py)
    grep -q "pl\.$op(" "$op_file" || fail "$name: no pl.$op( in $op_file"
    grep -q "$enum_old" "$enum_file" || fail "$name: no $enum_old in $enum_file"
    sed "s/pl\.$op(/pl.${op}_next(/" "$op_file" >"$work/tmp.py" && mv "$work/tmp.py" "$op_file"
    sed "s/$enum_old/$enum_new/g" "$enum_file" >"$work/tmp.py" && mv "$work/tmp.py" "$enum_file"
    op_base=$(basename "$op_file" .py)
    enum_base=$(basename "$enum_file" .py)

    run_ptodb --check "$c/passes_dump"
    expect_eq "$name: --check exit" 0 "$rc"
    expect_contains "$name: op warning" "$op_base.py:" "$err"
    printf '%s\n' "$err" | grep -q "^$op_file:[0-9]*:[0-9]*: warning: unknown op '${op}_next' (newer PyPTO?)" ||
        fail "$name: no op warning at file:line:col in: $err"
    printf '%s\n' "$err" | grep -q "^$enum_file:[0-9]*:[0-9]*: warning: unknown name '$enum_new' (newer PyPTO?)" ||
        fail "$name: no enum warning at file:line:col in: $err"

    run_ptodb --info "$c"
    expect_eq "$name: --info exit" 0 "$rc"

    # every pass runs as in the unmodified case, except the one calling the
    # unknown op, which stops there
    run_ptodb --batch "$src"
    before=$(printf '%s\n' "$out" | sed -n '/^summary/,$p' | awk 'NF >= 3 && $1 ~ /^[0-9][0-9]_/ {print $1, ($2 == "=" ? $3 : $2)}')
    run_ptodb --batch "$c"
    after=$(printf '%s\n' "$out" | sed -n '/^summary/,$p' | awk 'NF >= 3 && $1 ~ /^[0-9][0-9]_/ {print $1, ($2 == "=" ? $3 : $2)}')
    [ -n "$before" ] || fail "$name: no summary rows"
    expect_contains "$name: batch stops at the op" \
        "in $(grep -B40 "pl.${op}_next(" "$op_file" | sed -n 's/^ *def \([A-Za-z_0-9]*\)(.*/\1/p' | tail -1): op ${op}_next is not known to this ptodb (newer PyPTO?)" "$out"
    expected=$(printf '%s\n' "$before" | awk -v p="$op_base" '$1 == p {print $1, "ERROR"; next} {print}')
    expect_eq "$name: verdicts of the other passes" "$expected" "$after"

    # the REPL: the pass lists, diffs against its predecessor, steps up to
    # the unknown op and stops there; the pass with the unknown enum runs
    run_ptodb --nw --nx "$c" -ex "pass $op_pass" -ex "list 1,3" -ex "pass diff" \
        -ex start -ex next -ex run -ex "pass $enum_pass" -ex run -ex quit
    expect_eq "$name: REPL exit" 0 "$rc"
    expect_contains "$name: REPL warning" "warning: unknown op '${op}_next' (newer PyPTO?)" "$out$err"
    expect_contains "$name: REPL diff" "pl.${op}_next(" "$out"
    expect_contains "$name: REPL stops" "op ${op}_next is not known to this ptodb (newer PyPTO?)" "$out$err"
    expect_contains "$name: REPL runs the enum pass" "Pass $enum_pass $(printf '%s' "$enum_base" | sed 's/^[0-9]*_after_//') finished" "$out"
}

newer_case "$top_srcdir/examples/mlp" mlp 11 tile.rsqrt 18 'pl\.TileLayout\.none_box' pl.TileLayout.Z

if [ -d "$PTODB_FIXTURES/softmax_910b/passes_dump" ]; then
    newer_case "$PTODB_FIXTURES/softmax_910b" softmax 18 tile.exp 20 'pl\.Role\.SubWorker' pl.Role.Z
else
    echo "note: $PTODB_FIXTURES/softmax_910b absent: checked examples/mlp only" >&2
fi
exit 0
