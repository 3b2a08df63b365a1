#!/bin/sh
# --batch --bisect on a fixture copied to a temporary folder with one op
# flipped (tile.add -> tile.sub) in one middle pass:
#  - in that pass only: the later passes pass again, so the verdicts are not
#    monotone and the confirming scan must find the flip and the recovery;
#  - carried into every later pass, as a real miscompile would be: the
#    binary search alone finds it, in about log2(50) evaluations.
# Both must name the pass, the flipped statement's line and its tensor. The
# fixtures are never modified: only the copy is.
. "$top_srcdir/tests/cli/lib.sh"
set -e

# fields of the "first divergence: FILE:LINE: tensor 'NAME' ..." line
divergence() {
    printf '%s\n' "$1" | sed -n "s/^first divergence: \(.*\):\([0-9][0-9]*\): tensor '\([^']*\)'.*/\1 \2 \3/p"
}

fixtures_or_skip
case_name=paged_attention_910b
src="$PTODB_FIXTURES/$case_name"
[ -d "$src/passes_dump" ] || skip "fixture $case_name not found"
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM
# -L: the fixtures folder may hold links to cases; edit a real copy, never the case
cp -RL "$src" "$tmp/"
bad_pass=30_after_CanonicalizeIOOrder
file="$tmp/$case_name/passes_dump/$bad_pass.py"
line=$(grep -n 'li_updated__ssa_v0: .* = pl\.tile\.add(' "$file" | head -1 | cut -d: -f1)
[ -n "$line" ] || fail "no tile.add line for li_updated in $file"
sed -i "${line}s/pl\.tile\.add(/pl.tile.sub(/" "$file"
grep -q 'pl\.tile\.sub(li_scaled' "$file" || fail "sed did not flip the op"
cmp -s "$file" "$src/passes_dump/$bad_pass.py" && fail "editing the copy changed the fixture itself ($src)"

# --bisect-scan (here and below): the confirming scan runs however slow the
# machine is; an edit in one pass only is found by the scan, not by the
# binary search (under valgrind the scan was otherwise skipped: exit 0)
run_ptodb --batch "$tmp/$case_name" --ref=torch1.13 --bisect --bisect-scan
expect_eq "flipped op exit" 1 "$rc"
expect_contains "flipped op: first bad pass" "bisect: first failing pass: $bad_pass (" "$out"
expect_contains "flipped op: not monotone" "NOT monotone: passes failing right after a passing one: $bad_pass;" "$out"
set -- $(divergence "$out")
expect_eq "flipped op: file" "$file" "$1"
expect_eq "flipped op: line" "$line" "$2"
expect_eq "flipped op: tensor" "li_updated__ssa_v0" "$3"

# the same in the JSON report
if [ -x /usr/bin/python3 ]; then
    "$PTODB" --batch "$tmp/$case_name" --ref=torch1.13 --bisect --bisect-scan --json "$tmp/r.json" >/dev/null || true
    /usr/bin/python3 "$top_srcdir/tests/data/batch/check_json.py" "$tmp/r.json" --bisect || fail "schema check"
    got=$(/usr/bin/python3 -c 'import json, sys
b = json.load(open(sys.argv[1]))["bisect"]
print(b["first_bad"], b["monotone"], " ".join(b["flips"]), len(b["recoveries"]), b["statement"]["line"], b["statement"]["tensor"])' "$tmp/r.json")
    expect_eq "flipped op: json" "$bad_pass False $bad_pass 1 $line li_updated__ssa_v0" "$got"
fi

# carry the flip into every later pass: monotone, the binary search finds it
for f in "$tmp/$case_name"/passes_dump/*.py; do
    n=$(basename "$f" | cut -c1-2)
    [ "$n" -gt 30 ] 2>/dev/null || continue
    sed -i 's/\(li_updated__ssa_v0: .* = pl\.tile\.\)add(/\1sub(/' "$f"
done
run_ptodb --batch "$tmp/$case_name" --ref=torch1.13 --bisect --bisect-scan
expect_eq "persistent flip exit" 1 "$rc"
expect_contains "persistent flip: first bad pass" "bisect: first failing pass: $bad_pass (last passing pass before it: 29_" "$out"
expect_contains "persistent flip: monotone" "confirmed, the verdict flips once from pass to fail" "$out"
probes=$(printf '%s\n' "$out" | sed -n 's/^bisect: the binary search looked at \([0-9]*\) of.*/\1/p')
[ -n "$probes" ] && [ "$probes" -le 8 ] || fail "persistent flip: $probes passes looked at, expected at most 2 + log2(50)"
set -- $(divergence "$out")
expect_eq "persistent flip: line" "$line" "$2"
expect_eq "persistent flip: tensor" "li_updated__ssa_v0" "$3"
echo "bisect: $probes passes looked at on $case_name (50 passes)"

# plant WHAT CASE REGEX SED [OPTION...]: a copy of CASE with SED applied to
# the first line of $bad_pass matching REGEX; --bisect (with OPTIONs) must
# name that line (sets plant_line, out).
plant() {
    what=$1 c=$2
    rm -rf "${tmp:?}/$c"
    cp -RL "$PTODB_FIXTURES/$c" "$tmp/"
    f="$tmp/$c/passes_dump/$bad_pass.py"
    plant_line=$(grep -n "$3" "$f" | head -1 | cut -d: -f1)
    [ -n "$plant_line" ] || fail "$what: no line matching $3 in $f"
    sed -i "${plant_line}$4" "$f"
    cmp -s "$f" "$PTODB_FIXTURES/$c/passes_dump/$bad_pass.py" && fail "$what: the edit did not take, or changed the fixture"
    shift 4
    run_ptodb --batch "$tmp/$c" --ref=torch1.13 "$@" --bisect --bisect-scan
    expect_eq "$what: exit" 1 "$rc"
    expect_contains "$what: first bad pass" "bisect: first failing pass: $bad_pass (" "$out"
    set -- $(divergence "$out")
    expect_eq "$what: line" "$plant_line" "$2"
    plant_tensor=$3
    echo "bisect names the $what at $bad_pass.py:$plant_line on $c"
}

# edit_from CASE FROM REGEX SED: a fresh copy of CASE with SED applied to
# the first line matching REGEX (ERE) of pass FROM and of every later pass,
# as a miscompile carried on by the later passes would be.
edit_from() {
    rm -rf "${tmp:?}/$1"
    cp -RL "$PTODB_FIXTURES/$1" "$tmp/"
    for g in "$tmp/$1"/passes_dump/*.py; do
        k=$(basename "$g" | cut -c1-2)
        [ "$k" -ge "$2" ] 2>/dev/null || continue
        gl=$(grep -n -E "$3" "$g" | head -1 | cut -d: -f1)
        if [ -n "$gl" ]; then sed -i "${gl}$4" "$g"; fi
    done
}

# carried WHAT CASE FROM REGEX SED EDITED REF: edit_from CASE FROM REGEX SED,
# then --bisect must name pass FROM and its line matching EDITED (sets f,
# edited_line, out).
carried() {
    what=$1 c=$2
    edit_from "$c" "$3" "$4" "$5"
    f=$(ls "$tmp/$c"/passes_dump/"$3"_*.py)
    edited_line=$(grep -n -E "$6" "$f" | head -1 | cut -d: -f1)
    [ -n "$edited_line" ] || fail "$what: the edit did not take in $f"
    run_ptodb --batch "$tmp/$c" --ref="$7" --bisect --bisect-scan
    expect_contains "$what: first bad pass" "bisect: first failing pass: $(basename "$f" .py) (" "$out"
    set -- $(divergence "$out")
    expect_eq "$what: line" "$edited_line" "$2"
    echo "bisect names the $what at $(basename "$f"):$edited_line on $c"
}

# A wrong load offset: the AIC loads every call's weight block from column 0
# instead of o0. The wrong tile equals another call's right tile, so a match
# against "any occurrence of the statement" would take it for equal and name
# the matmul after it; the statement at the same core, function and
# occurrence is the counterpart, and the load itself is named.
if [ -d "$PTODB_FIXTURES/qwen3_scope3_910b/passes_dump" ]; then
    plant "wrong load offset" qwen3_scope3_910b 'w_chunk__tile: .* = pl\.tile\.load(wo__ssa_v0, \[k0__ssa_v0, o0__ssa_v0\]' \
        's/\[k0__ssa_v0, o0__ssa_v0\]/[k0__ssa_v0, 0]/'
    expect_eq "wrong load offset: tensor" "w_chunk__tile" "$plant_tensor"
    # Control flow: the final residual loop runs 3 times instead of 4. No
    # tensor the pass computes differs from its counterpart (the fourth
    # block is simply never written): the loop's trip count is the divergence.
    plant "changed loop bound" qwen3_scope3_910b 'in pl\.range(4, init_values=(out__ssa_v0,))' 's/pl\.range(4,/pl.range(3,/'
    expect_contains "changed loop bound: the trip count" "tensor 'trip count of the loop over" "$out"
fi

# A statement that fails only in the failing pass: the AIC loads a [64, 64]
# weight block where the matmul after it needs [128, 64] (REF raises a shape
# assertion there). No tensor differs before it; the failing statement is
# the divergence, with its error. REF's shape assertion is checked under
# --semantics=ref; under the device's semantics check_shapes is a note, and
# the statement that fails is the matmul that cannot multiply the shapes.
if [ -d "$PTODB_FIXTURES/qwen3_scope3_910b/passes_dump" ]; then
    c=qwen3_scope3_910b
    rm -rf "${tmp:?}/$c"
    cp -RL "$PTODB_FIXTURES/$c" "$tmp/"
    f="$tmp/$c/passes_dump/$bad_pass.py"
    fl=$(grep -n 'wg__tile: .* = pl\.tile\.load(w_gate__ssa_v0, .*\[128, 64\], \[128, 64\]' "$f" | head -1 | cut -d: -f1)
    [ -n "$fl" ] || fail "failing statement: no wg__tile load in $f"
    sed -i "${fl}s/\[128, 64\], \[128, 64\], target_memory/[64, 64], [64, 64], target_memory/" "$f"
    cmp -s "$f" "$PTODB_FIXTURES/$c/passes_dump/$bad_pass.py" && fail "failing statement: the edit did not take"
    run_ptodb --batch "$tmp/$c" --ref=torch1.13 --semantics=ref --bisect --bisect-scan
    expect_eq "failing statement: exit" 1 "$rc"
    expect_contains "failing statement: named" \
        "first divergence: $f:$fl: the statement fails (function mlp_block_aic, core AIC) where 29_" "$out"
    expect_contains "failing statement: its error" "Shape mismatch for wg_tile" "$out"
    echo "bisect names the failing statement at $bad_pass.py:$fl on $c (--semantics=ref)"
    ml=$(grep -n 't__tile: .* = pl\.tile\.matmul(post_chunk__tile_Left, wg__tile_Right)' "$f" | head -1 | cut -d: -f1)
    [ -n "$ml" ] || fail "failing statement: no matmul of wg__tile_Right in $f"
    run_ptodb --batch "$tmp/$c" --ref=torch1.13 --bisect --bisect-scan
    expect_eq "failing statement (device): exit" 1 "$rc"
    expect_contains "failing statement (device): first bad pass" "bisect: first failing pass: $bad_pass (" "$out"
    expect_contains "failing statement (device): named" \
        "first divergence: $f:$ml: the statement fails (function mlp_block_aic, core AIC) where 29_" "$out"
    expect_contains "failing statement (device): its error" "mat1 and mat2 shapes cannot be multiplied (16x128 and 64x64)" "$out"
    echo "bisect names the failing statement at $bad_pass.py:$ml on $c (device semantics)"
fi

# A flipped branch condition (== to !=): the if's direction is the first
# divergence, at its line. Under --semantics=ref: the case's golden pads with
# REF's finite minimum where the device writes -inf, so under the device's
# semantics every pass fails and there is no passing pass to bisect from
# (tests/data/device/fixture_goldens.txt).
if [ -d "$PTODB_FIXTURES/dyn_valid_shape_loop_910b/passes_dump" ]; then
    plant "flipped condition" dyn_valid_shape_loop_910b '^ *if i__idx_v0 == ' 's/ == / != /' --semantics=ref
    expect_contains "flipped condition: the branch" "tensor 'branch taken by the if at line $plant_line" "$out"
fi

# A flipped condition of an if the passing pass does not have: AutoTileMatmulL0
# splits the matmul's K into a loop with `if ko == 0: matmul else: matmul_acc`;
# flipped (in pass 16 and every later pass, as control_sweep.sh does), the
# first value that differs is the matmul inside the branch (matched to pass
# 15's whole matmul by statement key, a guess). With no decision to compare,
# bisect tests the if: inverted, the pass passes, so the if is named.
if [ -d "$PTODB_FIXTURES/mixed_kernel_updown_910b/passes_dump" ]; then
    carried "flipped new if" mixed_kernel_updown_910b 16 '^ +if acc__tile_l0_ko == 0:$' 's/ == / != /' \
        '^ +if acc__tile_l0_ko != 0:$' torch2
    expect_contains "flipped new if: how" \
        "no counterpart in 15_after_LegalizeTileCast: the if is new in this pass; found by a test" "$out"
fi

# A while loop's bound (ctrl_while_950's natural `while i < 4:`, in pass 02
# only): its trip count is recorded like a for loop's and is the divergence.
if [ -d "$PTODB_FIXTURES/ctrl_while_950/passes_dump" ]; then
    c=ctrl_while_950
    rm -rf "${tmp:?}/$c"
    cp -RL "$PTODB_FIXTURES/$c" "$tmp/"
    f=$(ls "$tmp/$c"/passes_dump/02_*.py)
    wl=$(grep -n '^ *while i < 4:' "$f" | head -1 | cut -d: -f1)
    [ -n "$wl" ] || fail "while bound: no while loop in $f"
    sed -i "${wl}s/while i < 4:/while i < 3:/" "$f"
    run_ptodb --batch "$tmp/$c" --bisect --bisect-scan
    set -- $(divergence "$out")
    expect_eq "while bound: line" "$wl" "$2"
    expect_contains "while bound: the trip count" "tensor 'trip count of the while loop at line $wl'" "$out"
    echo "bisect names the while loop at $(basename "$f"):$wl on $c"
fi

# ExpandMixedKernel's AIC kernel ends in its loop: edited to run 7 times
# instead of 8 (in pass 22 and every later one), the AIV lanes wait for an
# eighth tile that never comes. The loop's trip count, recorded as the
# kernel returns from the loop, is the divergence; the lanes' stores are
# compared by GM region, not as whole tensors the other lane may or may not
# have written yet (which named a store of AIV1 instead).
if [ -d "$PTODB_FIXTURES/cross_core_c2v_updown_910b/passes_dump" ]; then
    carried "AIC kernel's loop bound" cross_core_c2v_updown_910b 22 '^ +for nb__idx_v0 in pl\.range\(8\):' \
        's/pl\.range(8)/pl.range(7)/' '^ +for nb__idx_v0 in pl\.range\(7\):' torch1.13
    expect_contains "AIC loop bound: the trip count" "tensor 'trip count of the loop over nb__idx_v0' (function main_incore_0_aic, core AIC)" "$out"
fi

# A changed tpush split= (ExpandMixedKernel's AIC pushes with split=2 where
# the AIV pops with split=1): REF refuses the group before any statement
# runs, and its error names no line; the statement whose split= the
# passing pass uses nowhere in that group is named.
if [ -d "$PTODB_FIXTURES/mixed_kernel_updown_910b/passes_dump" ]; then
    c=mixed_kernel_updown_910b
    rm -rf "${tmp:?}/$c"
    cp -RL "$PTODB_FIXTURES/$c" "$tmp/"
    for g in "$tmp/$c"/passes_dump/*.py; do
        k=$(basename "$g" | cut -c1-2)
        [ "$k" -ge 22 ] 2>/dev/null || continue
        sed -i 's/pl\.tile\.tpush_to_aiv(\(.*\), split=1)/pl.tile.tpush_to_aiv(\1, split=2)/' "$g"
    done
    f=$(ls "$tmp/$c"/passes_dump/22_*.py)
    sl=$(grep -n 'pl\.tile\.tpush_to_aiv(.*, split=2)' "$f" | head -1 | cut -d: -f1)
    [ -n "$sl" ] || fail "changed split: the edit did not take in $f"
    run_ptodb --batch "$tmp/$c" --bisect --bisect-scan
    expect_contains "changed split: named" \
        "first divergence: $f:$sl: the statement fails (function mixed_up_down_aic, core AIC)" "$out"
    expect_contains "changed split: why" "its split=2 is one 21_after_LowerAutoVectorSplit uses nowhere" "$out"
    echo "bisect names the changed split= at 22_after_ExpandMixedKernel.py:$sl on $c"
fi
exit 0
