#!/bin/sh
# Issue #16, finding 3: ptodb opens only regular files. A FIFO named like a
# dump in a folder given to --check, a manifest `file:` naming a FIFO, a
# FIFO passes_dump file, a FIFO -x script or manifest: each is one error
# line, never an open() that waits for a writer for ever.
set -e
. "$top_srcdir/tests/cli/lib.sh"
command -v mkfifo >/dev/null || skip "mkfifo not found"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# a guard against the hang itself; every run below takes well under a second
run_wrapper="timeout $((60 * wait_scale))"

mkdir "$tmp/dir"
mkfifo "$tmp/dir/a.py"
cp "$top_srcdir/examples/mlp/passes_dump/00_frontend.py" "$tmp/dir/b.py"
run_ptodb --check "$tmp/dir"
[ "$rc" -eq 2 ] || fail "--check with a FIFO: exit $rc, expected 2 (124: it blocked)"
expect_contains "--check names the FIFO" "$tmp/dir/a.py: error: not a regular file (a FIFO)" "$err"

cp -r "$top_srcdir/examples/mlp" "$tmp/case"
mkfifo "$tmp/case/data/in/fifo.npy"
sed 's|data/in/x.npy|data/in/fifo.npy|' "$top_srcdir/examples/mlp/ptodb.yaml" >"$tmp/case/ptodb.yaml"
run_ptodb --batch "$tmp/case" --timeout 5 -j1
[ "$rc" -eq 2 ] || fail "--batch with a manifest file: FIFO: exit $rc, expected 2 (124: it blocked)"
expect_contains "--batch names the FIFO" "$tmp/case/data/in/fifo.npy: error: not a regular file (a FIFO)" "$err"

mkfifo "$tmp/manifest.yaml"
run_ptodb --info "$tmp/manifest.yaml"
[ "$rc" -eq 2 ] || fail "--info on a FIFO manifest: exit $rc, expected 2"
expect_contains "--info names the FIFO" "not a regular file (a FIFO)" "$err"

rm "$tmp/case/data/in/fifo.npy"
cp "$top_srcdir/examples/mlp/ptodb.yaml" "$tmp/case/ptodb.yaml"
mkfifo "$tmp/case/passes_dump/05_after_Fifo.py"
run_ptodb --batch "$tmp/case" -j1
[ "$rc" -eq 0 ] || fail "--batch with a FIFO pass file: exit $rc, expected 0 (the FIFO is no pass; 124: blocked)"
run_ptodb --info "$tmp/case"
[ "$rc" -lt 124 ] || fail "--info with a FIFO pass file: exit $rc (blocked)"
expect_contains "--info warns about the FIFO pass" "05_after_Fifo.py: warning: ignored: not a regular file (a FIFO)" "$out$err"

run_ptodb --nw --nx -x "$tmp/dir/a.py" </dev/null
[ "$rc" -lt 124 ] || fail "-x FIFO: exit $rc (blocked)"
expect_contains "-x names the FIFO" "a.py: not a regular file (a FIFO)" "$err"
echo "FIFOs refused"
