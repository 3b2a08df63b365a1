#!/bin/sh
# Program points across passes, against ground truth: two consecutive pass
# files whose text is the same after the header line run the same program,
# so at every stop (a breakpoint on every statement line; every core, lane
# and call) every tensor of the frame must equal its counterpart at the
# mapped point of the other pass (tests/points/metamorphic.c). The same
# again for one pair per case whose second file has its SSA names renamed
# (a copy in a temporary folder): identical but for SSA renaming. And for
# the pairs a pass restructured where both validate, the region oracle: at
# every tile.store, the tile matched by its GM region holds the same data;
# and the provenance oracle: after every statement computing an
# intermediate, the value matched by provenance is bit-equal; across the
# lane splits also the other way, where a lane's value is matched as its
# share of the value computed whole before the split, bit-equal on that share.
. "$top_srcdir/tests/cli/lib.sh"
. "$top_srcdir/tests/cli/fixture_lib.sh"
fixtures_or_skip
driver="$top_builddir/tests/points/metamorphic"
[ -x "$driver" ] || fail "missing $driver"
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM
export XDG_STATE_HOME="$tmp/state" HOME="$tmp/home"

# Every pair and every stop of the cases in fixture_case_dirs' cover; the
# large cases it leaves out repeat a covered program at scale, and there the
# first identical pair's first 2000 stops are checked (all of them would take
# minutes).
cover=$(PTODB_FIXTURE_SUBSET=cover fixture_case_dirs 2>/dev/null)
total=0 bad=0 regions=0 prov=0 prov_equal=0 guesses=0 share=0 share_equal=0
# adds an --intermediates line's counts to the totals
inter_counts() {
    n=$(printf '%s\n' "$1" | sed -n 's/.* intermediate stops: \([0-9]*\) matched by provenance (\([0-9]*\) bit-equal; \([0-9]*\) of them a lane.s share, \([0-9]*\) bit-equal), \([0-9]*\) guesses.*/\1 \2 \3 \4 \5/p')
    # shellcheck disable=SC2086
    set -- $n
    prov=$((prov + ${1:-0})) prov_equal=$((prov_equal + ${2:-0})) share=$((share + ${3:-0}))
    share_equal=$((share_equal + ${4:-0})) guesses=$((guesses + ${5:-0}))
}
for c in $(fixture_case_dirs); do
    name=$(basename "$c")
    # the region and provenance oracles take the pairs where both passes
    # validate: a case whose golden is the reference's where the device
    # computes otherwise (tests/data/device/fixture_goldens.txt:
    # dyn_valid_shape_loop_910b's -inf pad) validates under --semantics=ref
    # only, so those run there (the identical pairs need no validation)
    sem=
    awk -v c="$name" '$1 == c { f = 1 } END { exit !f }' "$top_srcdir/tests/data/device/fixture_goldens.txt" &&
        sem="--semantics ref"
    limit=
    printf '%s\n' "$cover" | grep -qxF "$c" || limit="--pairs 1 --max-stops 2000"
    # where only the cover runs (the sanitizer build, distcheck), 500 stops
    # a pair (the renamed pair too) and 300 for the region oracle:
    # qwen3_scope3's 31 pairs have 162 k stops, 97% of all, the same code
    # paths again and again (the normal build checks every one)
    plimit=$limit rmax=${limit:+--max-stops 300}
    # (a cover case over 1 MiB of data, qwen3_scope3_910b, 100 for the
    # region oracle and 50 for the intermediates there: 14 and 10 s of CPU
    # under ASan at 300 and 100, most of the test)
    kib=$(du -sk "$c/data" 2>/dev/null | cut -f1)
    big=0
    [ "${kib:-0}" -gt 1024 ] && big=1
    if [ -z "$limit" ] && [ "${PTODB_FIXTURE_SUBSET:-}" = cover ]; then
        plimit="--max-stops 500" rmax="--max-stops 300"
        [ "$big" -eq 0 ] || rmax="--max-stops 100"
    fi
    # shellcheck disable=SC2086
    out=$("$driver" "$c" $plimit 2>"$tmp/err")
    rc=$?
    case "$out" in
    "0 pairs"*) echo "  $name: no identical consecutive pair"; continue ;;
    esac
    echo "  $name identical pairs${plimit:+ ($plimit)}: $out"
    [ "$rc" -eq 0 ] || { head -40 "$tmp/err" >&2; bad=1; }
    stops=$(printf '%s\n' "$out" | sed -n 's/^[0-9]* pairs, \([0-9]*\) stops.*/\1/p')
    total=$((total + ${stops:-0}))

    # a pair differing only by SSA renaming: the last identical pair (with
    # SSA names, that checks; late passes split cores and lanes)'s first file, and the same file with every
    # __ssa_vN and __tile_N renamed
    # (the cheap tests first: ptodb --check runs on the identical pairs only)
    first=$(cd "$c/passes_dump" && prev= && last= && for f in *.py; do
        if [ -n "$prev" ] && [ "$(tail -n +2 "$prev")" = "$(tail -n +2 "$f")" ] &&
            grep -q '__ssa_v\|__tile_[0-9]' "$prev" && "$PTODB" --check "$prev" >/dev/null 2>&1; then last=$prev; fi
        prev=$f; done; echo "$last")
    [ -n "$first" ] || continue
    r="$tmp/$name"
    mkdir -p "$r/passes_dump"
    ln -s "$c/data" "$r/data"
    cp "$c/passes_dump/$first" "$r/passes_dump/"
    second=$(printf '%s' "$first" | sed 's/^\([0-9]*\)_.*/\1/')
    second=$(printf '%02d_after_Renamed.py' $((1${second} - 99)))
    sed -E -e '1!s/__ssa_v([0-9]+)/__ssa_v1\1/g' -e '1!s/__tile_([0-9]+)/__tile_9\1/g' \
        "$c/passes_dump/$first" >"$r/passes_dump/$second"
    cmp -s "$c/passes_dump/$first" "$r/passes_dump/$second" && fail "$name: renaming changed nothing"
    # shellcheck disable=SC2086
    out=$("$driver" "$r" --renamed $plimit 2>"$tmp/err")
    rc=$?
    echo "  $name renamed pair ($first, its SSA names renamed): $out"
    [ "$rc" -eq 0 ] || { head -40 "$tmp/err" >&2; bad=1; }
    stops=$(printf '%s\n' "$out" | sed -n 's/^[0-9]* pairs, \([0-9]*\) stops.*/\1/p')
    total=$((total + ${stops:-0}))

    # restructured pairs that both validate: a tile stored to a GM region is
    # matched by that region, and the data there must be the same
    # shellcheck disable=SC2086
    out=$("$driver" "$c" --region $rmax $sem 2>"$tmp/err")
    rc=$?
    echo "  $name region oracle${rmax:+ ($rmax)}${sem:+ ($sem)}: $out"
    [ "$rc" -eq 0 ] || { head -40 "$tmp/err" >&2; bad=1; }
    n=$(printf '%s\n' "$out" | sed -n 's/.* store stops: \([0-9]*\) matched by region.*/\1/p')
    regions=$((regions + ${n:-0}))

    # the same pairs: every intermediate (no load, store or pop) matched by
    # provenance is the same data computed by the same ops, bit for bit
    # (300 stops a pair: the first calls and iterations of every kernel)
    # (100 in the cover runs: the sanitizer build and distcheck, where
    # qwen3's 300 a pair took 100 s of CI time under ASan)
    ilimit="--max-stops 300"
    [ "${PTODB_FIXTURE_SUBSET:-all}" != cover ] || ilimit="--max-stops 100"
    [ "${PTODB_FIXTURE_SUBSET:-all}" != cover ] || [ "$big" -eq 0 ] || ilimit="--max-stops 50"
    [ -z "$limit" ] || ilimit="--max-stops 100 --only ExpandMixedKernel"
    # shellcheck disable=SC2086
    out=$("$driver" "$c" --intermediates $ilimit $sem 2>"$tmp/err")
    rc=$?
    echo "  $name intermediates ($ilimit${sem:+ $sem}): $out"
    [ "$rc" -eq 0 ] || { head -40 "$tmp/err" >&2; bad=1; }
    inter_counts "$out"

    # the other way across the lane splits: stops in the split pass, compared
    # with the one before it, where a lane's intermediate is a share of a
    # value computed whole (matched by provenance, compared on that share)
    # shellcheck disable=SC2086
    rlimit="--max-stops 300"
    [ "${PTODB_FIXTURE_SUBSET:-all}" != cover ] && [ -z "$limit" ] || rlimit="--max-stops 100"
    out=$("$driver" "$c" --intermediates --reverse --only LowerAutoVectorSplit,ExpandMixedKernel,SplitVectorKernel \
        $rlimit $sem 2>"$tmp/err")
    rc=$?
    echo "  $name intermediates after a lane split against before it${sem:+ ($sem)}: $out"
    [ "$rc" -eq 0 ] || { head -40 "$tmp/err" >&2; bad=1; }
    inter_counts "$out"
done
echo "$total stops in all; $regions store stops matched by region"
echo "intermediates: $prov matched by provenance ($prov_equal bit-equal; $share of them a lane's share," \
    "$share_equal bit-equal), $guesses still guesses"
[ "$regions" -gt 0 ] || fail "no store stop matched by region"
[ "$prov" -gt 0 ] || fail "no intermediate matched by provenance"
[ "$share" -gt 0 ] || fail "no lane's intermediate matched as a share of a value computed whole"
[ "$bad" -eq 0 ] || fail "some stops did not compare equal with their counterpart (see above)"
[ "$total" -gt 0 ] || fail "no stop at all"
