#!/bin/sh
# The TUI's first screen names the divergence engine's answer, nothing
# typed (issue #40), on planted faults (scripts/plant-faults: copies of the
# shared fixtures with one statement edited, docs/faults.md): the screen is
# dumped headless (PTODB_TUI_SCRIPT, as tests/tui/screens.sh) by
# scripts/score-faults, which reads the source pane's pass and `!` line and
# the console's "reason: WORD:". For every copy the screen gives bisect's
# FILE:LINE and reason word (one engine), and for the kinds whose edit every
# command names (a flipped if, a loop bound, a dropped store, a cast's
# dtype) it is the edited line with the planted reason. The passing case and
# examples/mlp-broken are in screens.sh (first_screen_*.keys).
. "$top_srcdir/tests/cli/lib.sh"
[ -x /usr/bin/python3 ] || skip "no /usr/bin/python3"
fixtures_or_skip
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM
/usr/bin/python3 "$top_srcdir/scripts/plant-faults" -o "$tmp/out" --examples "$top_srcdir/examples" \
    --fixtures "$PTODB_FIXTURES" --ptodb "$PTODB" --kinds if_flip,loop_bound,dropped_store,cast_dtype \
    >"$tmp/plant.log" 2>&1 || { cat "$tmp/plant.log" >&2; fail "plant-faults exits $?"; }
/usr/bin/python3 "$top_srcdir/scripts/score-faults" "$tmp/out/manifest.json" --ptodb "$PTODB" --out "$tmp/score" \
    -j 2 >"$tmp/score.log" 2>&1 || { cat "$tmp/score.log" >&2; fail "score-faults exits $?"; }
/usr/bin/python3 - "$tmp/score.json" <<'PY' || fail "the first screen"
import json, os, sys
rows = json.load(open(sys.argv[1]))["rows"]
assert len(rows) >= 8, "only %d copies" % len(rows)
for r in rows:
    t, b = r["tui"], r["bisect"]
    seen = (os.path.basename(t["file"] or ""), t["line"], t["reason"])
    want = (os.path.basename(b["file"] or ""), b["line"], b["reason"])
    assert seen == want, "%s: the first screen says %s, bisect %s" % (r["id"], seen, want)
    assert t["names_edit"] and t["reason_ok"], "%s: the first screen says %s, the edit is %02d:%d (%s)" % (
        r["id"], seen, r["pass"], r["line"], r["expected"])
print("first_screen: %d copies, each named at its edit with its reason on the first screen" % len(rows))
PY
