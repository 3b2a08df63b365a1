#!/bin/sh
# Issue #16, finding 1: a 470-byte .pt whose one float is viewed as a
# 1000000 x 1000000 tensor (strides 0, 0). Loading it is refused against
# --max-tensor-bytes with an error naming the file; with the limit raised,
# --info's statistics are sampled (bounded time) and --batch reports the
# failed allocation of the working copy with the file, never a crash or
# "fatal: out of memory". The case is crafted at test time.
set -e
. "$top_srcdir/tests/cli/lib.sh"
command -v python3 >/dev/null || skip "python3 not found"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
craft="$top_srcdir/tests/data/huge/craft_case.py"
python3 "$craft" "$tmp/in" 1000000 1000000 in
python3 "$craft" "$tmp/out" 1000000 1000000 out
# a guard against hangs only: the runs below take well under a second
run_wrapper="timeout $((300 * wait_scale))"
# calloc of terabytes must return NULL under ASan too, not abort
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}allocator_may_return_null=1"
export ASAN_OPTIONS

check_clean() {
    # ASan's note that it returned NULL for a huge calloc is what we asked for
    err=$(printf '%s\n' "$err" | grep -v 'WARNING: AddressSanitizer failed to allocate' || true)
    case "$err$out" in
    *Sanitizer* | *"runtime error"* | *fatal*) fail "$1: crash or fatal error: $err" ;;
    esac
    [ "$rc" -lt 124 ] || fail "$1: exit status $rc (signal or timeout)"
}

for which in in out; do
    file=$tmp/$which/data/$which/$([ $which = in ] && echo a || echo out).pt
    run_ptodb --batch "$tmp/$which" -j1
    check_clean "--batch ($which)"
    [ "$rc" -eq 2 ] || fail "--batch with a huge $which: exit $rc, expected 2: $err"
    expect_contains "--batch ($which) names the file" "$file: error: tensor shape [1000000, 1000000] of fp32 is 4000000000000 bytes, beyond the limit" "$err"
    expect_contains "--batch ($which) says how to raise the limit" "--max-tensor-bytes" "$err"
done

run_ptodb --info "$tmp/in/data/in/a.pt"
check_clean "--info"
[ "$rc" -eq 2 ] || fail "--info: exit $rc, expected 2"
expect_contains "--info refuses" "a.pt: error: tensor shape [1000000, 1000000]" "$err"

# Raised limit: statistics over a sample, in bounded time.
run_ptodb --max-tensor-bytes 8T --info "$tmp/in/data/in/a.pt"
check_clean "--info with 8T"
[ "$rc" -eq 0 ] || fail "--info with 8T: exit $rc: $err"
expect_contains "--info samples" "min 1.5" "$out"
expect_contains "--info says it sampled" "evenly spaced elements" "$out"

# Raised limit: the 4 TB working copy cannot be allocated. Under
# overcommit_memory=1 calloc would succeed and the copy be written page by
# page until the OOM killer: skip that part there.
if [ "$(cat /proc/sys/vm/overcommit_memory 2>/dev/null || echo 0)" != 1 ]; then
    run_ptodb --max-tensor-bytes 8T --batch "$tmp/in" -j1
    check_clean "--batch with 8T"
    [ "$rc" -ne 0 ] || fail "--batch with 8T: exit 0"
    expect_contains "--batch names the file of the failed allocation" \
        "$tmp/in/data/in/a.pt: error: cannot allocate 4000000000000 bytes for the working copy of 'a'" "$out$err"
    case "$out$err" in
    *"error: $tmp/in/data/in/a.pt: error:"*) fail "--batch with 8T: the error line says error twice" ;;
    esac
fi

# Bad limits are refused with the accepted range.
run_ptodb --max-tensor-bytes 99999999999999999999 --info "$tmp/in/data/in/a.pt"
[ "$rc" -eq 2 ] || fail "--max-tensor-bytes 99999999999999999999: exit $rc"
expect_contains "bad limit" "expected a number of bytes from 1 to" "$err"
run_ptodb --max-tensor-bytes 12Q --info "$tmp/in/data/in/a.pt"
[ "$rc" -eq 2 ] || fail "--max-tensor-bytes 12Q: exit $rc"

# The REPL setting: refused, then raised (the case opens).
run_ptodb --nw --nx -ex 'set max-tensor-bytes -1' -ex 'set max-tensor-bytes 8T' -ex 'show max-tensor-bytes' </dev/null
check_clean "REPL set"
expect_contains "REPL refuses -1" "expected for max-tensor-bytes" "$err"
expect_contains "REPL shows 8T" "8T" "$out"
echo "huge tensors refused or sampled"
