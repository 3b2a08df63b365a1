#!/bin/sh
# Issue #16, findings 5 and 6 (outputs): ptodb writes only where it is told,
# completely or not at all.
#  - a relative XDG_STATE_HOME is ignored with a warning (XDG spec), so a
#    session run from inside the case folder writes nothing there;
#  - --save-outputs into a missing folder, or an output that cannot be
#    written, is an error with exit 2 (--run and --batch); --batch saves;
#  - --json is written to a temporary file and renamed: a run killed by
#    SIGTERM leaves the previous file intact, not an empty one.
set -e
. "$top_srcdir/tests/cli/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case_dir="$tmp/case"
cp -RL "$top_srcdir/examples/mlp" "$case_dir"
chmod -R u+w "$case_dir"
before=$(cd "$case_dir" && find . | sort)

# relative XDG_STATE_HOME, the case as cwd
out=$(cd "$case_dir" && HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/config" XDG_STATE_HOME=state "$PTODB" --nw . 2>&1 <<'CMDS'
break 10
quit
CMDS
)
after=$(cd "$case_dir" && find . | sort)
expect_eq "nothing written inside the case folder" "$before" "$after"
expect_contains "relative XDG_STATE_HOME is refused" "XDG_STATE_HOME=state is not an absolute path: ignored" "$out"

# absolute XDG_STATE_HOME inside the case (through a link, folders still
# missing): refused before anything is created, nothing restored or saved
ln -s "$case_dir" "$tmp/caselink"
for state in "$case_dir/state" "$tmp/caselink/deeper/state"; do
    out=$(HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/config" XDG_STATE_HOME="$state" "$PTODB" --nw "$case_dir" 2>&1 <<'CMDS'
break 10
display x
quit
CMDS
)
    after=$(cd "$case_dir" && find . | sort)
    expect_eq "XDG_STATE_HOME=$state: nothing written inside the case folder" "$before" "$after"
    expect_contains "XDG_STATE_HOME=$state is refused" "warning: state folder $state/ptodb is inside the case folder" "$out"
done

# --save-outputs
for mode in --run --batch; do
    run_ptodb $mode "$case_dir" --save-outputs "$tmp/nonexistent/dir" -j1
    expect_eq "$mode --save-outputs missing folder: exit" 2 "$rc"
    expect_contains "$mode --save-outputs missing folder" "--save-outputs: $tmp/nonexistent/dir: No such file or directory" "$err"
done
mkdir "$tmp/saved"
run_ptodb --batch "$case_dir" --save-outputs "$tmp/saved" -j2
expect_eq "--batch --save-outputs exit" 0 "$rc"
[ "$(ls "$tmp/saved" | wc -l)" -eq 7 ] || fail "--batch --save-outputs wrote $(ls "$tmp/saved" | wc -l) files, expected 7"
[ -s "$tmp/saved/22_after_ExpandMixedKernel.out.raw" ] || fail "--batch --save-outputs: no 22_after_ExpandMixedKernel.out.raw"
cmp -s "$tmp/saved/00_frontend.out.raw" "$tmp/saved/22_after_ExpandMixedKernel.out.raw" ||
    fail "--batch --save-outputs: identical passes saved different bytes"
# an output that cannot be written (a folder has its name)
rm -rf "$tmp/saved" && mkdir -p "$tmp/saved/00_frontend.out.raw"
for mode in --run --batch; do
    run_ptodb $mode "$case_dir" --save-outputs "$tmp/saved" -j2
    expect_eq "$mode unwritable output: exit" 2 "$rc"
    expect_contains "$mode unwritable output" "cannot write $tmp/saved/00_frontend.out.raw" "$err"
done
[ -z "$(ls -A "$tmp/saved/00_frontend.out.raw")" ] || fail "something was written into the folder"
ls -a "$tmp/saved" | grep -q '^\.00_frontend' && fail "a temporary file was left behind"

# --json killed by SIGTERM: the old file stays. (Run without make
# check-valgrind's wrapper: a process killed in the middle of a statement
# holds that statement's tensors, which valgrind would call lost.)
endless="$top_srcdir/tests/data/endless"
echo OLD >"$tmp/report.json"
"${PTODB_REAL:-$PTODB}" --batch "$endless" -j1 --json "$tmp/report.json" >"$tmp/batch.out" 2>&1 &
pid=$!
n=0
until grep -q 'ptodb --batch' "$tmp/batch.out" 2>/dev/null; do
    n=$((n + 1))
    [ $n -lt $((3000 * wait_scale)) ] || { kill $pid; fail "ptodb --batch did not start"; }
    sleep 0.02
done
kill -TERM $pid
wait $pid || true
expect_eq "--json after SIGTERM keeps the previous file" OLD "$(cat "$tmp/report.json")"
ls -A "$tmp" | grep -q '^\.report\.json\.' && fail "SIGTERM left the temporary JSON file behind"
# a --json that cannot be written is exit 2
mkdir "$tmp/report.dir.json"
run_ptodb --batch "$case_dir" -j1 --json "$tmp/report.dir.json"
expect_eq "--json onto a folder: exit" 2 "$rc"
run_ptodb --batch "$case_dir" -j1 --json "$tmp/report.json"
expect_eq "--json exit" 0 "$rc"
grep -q '"summary"' "$tmp/report.json" || fail "--json wrote no report"
echo "outputs complete or refused"
