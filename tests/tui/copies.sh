#!/bin/sh
# Screen tests on cases copied to a temporary folder and changed there (the
# fixtures and examples are never touched):
#  - broken_qwen3: qwen3_scope3_910b with one tile.add flipped to tile.sub
#    from pass 25 on. The first screen, no command typed: the background
#    validation selects pass 25, draws its heat maps and says so.
#  - tab_indent: examples/mlp-broken with a tab-indented line in pass 0, at
#    80x24: the source pane and the console's wrapping keep every character.
#  - unparsable: examples/mlp with the ')' closing line 11 of pass 11 gone:
#    the background validation selects pass 11, the source pane opens at its
#    first error in the file's order (the '(' never closed, E in the
#    margin, not the later error the parser met first), the console ends
#    with that error, and the heat maps say the pass never ran.
# Expected screens: tests/tui/expected/copy_NAME.screens (PTODB_TUI_UPDATE=1
# rewrites them).
set -e
. "$top_srcdir/tests/tui/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
failed=0

# check NAME CASE KEYS: runs the keys in $tmp/cases on CASE, compares.
check() {
    name=$1 case_dir=$2 keys=$3
    expected="$top_srcdir/tests/tui/expected/copy_$name.screens"
    work="$tmp/work_$name"
    mkdir -p "$work"
    (tui_env "$work" && cd "$tmp/cases" && PTODB_TUI_SCRIPT="$keys" "$PTODB" --nx "$case_dir" \
        >"$work/actual" 2>"$work/stderr") || { echo "FAIL: $name: exit status $?" >&2; cat "$work/stderr" >&2; failed=$((failed + 1)); return; }
    if [ "${PTODB_TUI_UPDATE:-}" = 1 ]; then
        cp "$work/actual" "$expected"
        return
    fi
    if ! cmp -s "$expected" "$work/actual"; then
        echo "FAIL: screens $name" >&2
        diff -u "$expected" "$work/actual" >&2 || true
        failed=$((failed + 1))
    fi
}

mkdir -p "$tmp/cases"
# the tab-indented line (a comment, so the pass still runs)
cp -RL "$top_srcdir/examples/mlp-broken" "$tmp/cases/"
f="$tmp/cases/mlp-broken/passes_dump/00_frontend.py"
sed -i '10a\	# a tab-indented comment:\tafter a tab, then pl.tensor.row_sum(pl.tensor.mul(x, x)) in full' "$f"
grep -q "$(printf '^\t# a tab')" "$f" || fail "sed did not add the tab-indented line"
cat >"$tmp/tab.keys" <<'KEYS'
:pass 0
:list 11,12
<Esc>jjjjjjjjjjjj
screen
lllllll
screen
KEYS
check tab_indent mlp-broken "$tmp/tab.keys"

cp -RL "$top_srcdir/examples/mlp" "$tmp/cases/"
f="$tmp/cases/mlp/passes_dump/11_after_ConvertTensorToTileOps.py"
sed -i '11s/= pl\.tile\.mul(x__tile, x__tile)$/= pl.tile.mul(x__tile, x__tile/' "$f"
grep -q 'pl\.tile\.mul(x__tile, x__tile$' "$f" || fail "sed did not drop the ')' of line 11"
printf 'screen\nresize 160 48\nscreen\n' >"$tmp/unparsable.keys"
check unparsable mlp "$tmp/unparsable.keys"

if [ -d "$PTODB_FIXTURES/qwen3_scope3_910b/passes_dump" ]; then
    cp -RL "$PTODB_FIXTURES/qwen3_scope3_910b" "$tmp/cases/"
    for f in "$tmp/cases/qwen3_scope3_910b"/passes_dump/*.py; do
        n=$(basename "$f" | cut -c1-2)
        [ "$n" -ge 25 ] 2>/dev/null || continue
        sed -i 's/\(down_acc__tile: .* = pl\.tile\.\)add(/\1sub(/' "$f"
    done
    grep -q 'pl\.tile\.sub(t__tile, t__tile_1)' "$tmp/cases/qwen3_scope3_910b/passes_dump/25_after_StampTfreeSplit.py" ||
        fail "sed did not flip the op in pass 25"
    printf 'screen\nresize 160 48\nscreen\n' >"$tmp/first.keys"
    check broken_qwen3 qwen3_scope3_910b "$tmp/first.keys"
else
    echo "SKIP: broken_qwen3: fixtures not found at $PTODB_FIXTURES"
fi
[ "$failed" -eq 0 ]
