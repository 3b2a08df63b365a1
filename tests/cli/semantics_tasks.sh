#!/bin/sh
# The task race check of manual scopes (exec/tasks.h) on a dump of ours
# (tests/data/tasks/manual_scope.py, examples/spmd's data: out = 2a + b in
# four row blocks, stage1 writing a block of out and stage2 reading it back):
#  - with stage2's deps=[tid1] every pass passes (tasks of other iterations
#    touch other rows: no report);
#  - with the edge removed, the run stops at stage2's submit naming both
#    tasks and the element both touch (out[0, 0]);
#  - the same without the manual scope is no race: the runtime orders tasks
#    by their buffers' overlap there;
#  - --semantics=ref fails at the submit, as the reference's codegen does.
. "$top_srcdir/tests/cli/lib.sh"
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM
dump="$top_srcdir/tests/data/tasks/manual_scope.py"
mkdir -p "$tmp/c/passes_dump"
cp -r "$top_srcdir/examples/spmd/data" "$top_srcdir/examples/spmd/ptodb.yaml" "$tmp/c/"
cp "$dump" "$tmp/c/passes_dump/39_after_AutoDeriveTaskDependencies.py"
sed 's/, deps=\[tid1\]//' "$dump" >"$tmp/c/passes_dump/40_after_NoEdge.py"
grep -q 'deps=' "$tmp/c/passes_dump/40_after_NoEdge.py" && fail "the edit did not remove the edge"
sed -e 's/, deps=\[tid1\]//' -e 's/with pl.scope(mode=pl.ScopeMode.MANUAL):/with pl.scope():/' "$dump" \
    >"$tmp/c/passes_dump/41_after_AutoScope.py"
run_ptodb --batch "$tmp/c"
[ "$rc" -eq 1 ] || fail "exit $rc, expected 1: $out"
expect_contains "with the edge" "39_after_AutoDeriveTaskDependencies   PASS" "$out"
expect_contains "the race" "40_after_NoEdge.py:27:87: in orchestrator: race: task 1 (stage2, submitted at line 27) reads out[0, 0], which task 0 (stage1, submitted at line 24) writes, and no deps= chain orders the two in this manual scope: on the device their order is not fixed" "$out"
expect_contains "without the edge" "40_after_NoEdge                       ERROR" "$out"
expect_contains "auto scope" "41_after_AutoScope                    PASS" "$out"
run_ptodb --batch --semantics=ref "$tmp/c"
expect_contains "ref" "REF would fail here: pl.submit: torch_codegen has no visitor for Submit" "$out"
exit 0
