#!/bin/sh
# Issue #16, finding 4: a saved session is data, not a script. A breakpoint
# whose `commands` body exports a tensor is saved; the dump is shortened so
# that its line is gone; reopening the case skips that record with one
# warning and never runs the body (no MARKER.npy). Lines of a session file
# that are not records (an `export` at top level) are skipped, not run.
set -e
. "$top_srcdir/tests/cli/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case_dir="$tmp/case"
cp -RL "$top_srcdir/examples/mlp-broken" "$case_dir"
chmod -R u+w "$case_dir"
mkdir "$tmp/out"
export XDG_STATE_HOME="$tmp/state" HOME="$tmp/home" XDG_CONFIG_HOME="$tmp/config"
dump="$case_dir/passes_dump/22_after_ExpandMixedKernel.py"

"$PTODB" --nw "$case_dir" >/dev/null 2>&1 <<CMDS
pass 22
break 57
commands
  export x $tmp/out/MARKER.npy
end
break 20
quit
CMDS
saved=$(ls "$tmp/state/ptodb/sessions/")
[ -n "$saved" ] || fail "no session file saved"
grep -q "export x" "$tmp/state/ptodb/sessions/$saved" || fail "the commands body was not saved"

# Shorten the dump: line 57 is gone, line 20 stays.
head -n 40 "$dump" >"$tmp/short.py" && cat "$tmp/short.py" >"$dump"
out=$("$PTODB" --nw "$case_dir" 2>&1 <<'CMDS'
info breakpoints
quit
CMDS
)
[ ! -e "$tmp/out/MARKER.npy" ] || fail "restoring the session ran the breakpoint's commands body"
warnings=$(printf '%s\n' "$out" | grep -c 'no longer applies' || true)
expect_eq "one warning for the stale record" 1 "$warnings"
expect_contains "the warning says the body is not run" "its commands are not run" "$out"
expect_contains "the record that still applies is restored" "22_after_ExpandMixedKernel.py:20" "$out"
case "$out" in *"Undefined command"* | *"export"*"Saved"*) fail "body lines ran as commands: $out" ;; esac

# A hand-edited session file: a top-level command is not a record.
file="$tmp/state/ptodb/sessions/$saved"
printf '# ptodb session\nexport x %s/out/TOPLEVEL.npy\nbreak 20\n' "$tmp" >"$file"
out=$("$PTODB" --nw "$case_dir" 2>&1 <<'CMDS'
quit
CMDS
)
[ ! -e "$tmp/out/TOPLEVEL.npy" ] || fail "a top-level command in a session file ran"
expect_contains "a non-record line is skipped with a warning" "not a breakpoint or display record, skipped: export x" "$out"
echo "saved sessions are data"
