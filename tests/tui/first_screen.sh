#!/bin/sh
# The TUI's first screen names the divergence engine's answer, nothing
# typed (issue #40), on planted faults (scripts/plant-faults: copies of the
# shared fixtures with one statement edited, docs/faults.md): the screen is
# dumped headless (PTODB_TUI_SCRIPT, as tests/tui/screens.sh) by
# scripts/score-faults, which reads the source pane's pass and `!` line and
# the console's "reason: WORD:". For every copy (every kind, 41 copies) the
# four answers, bisect, --compare against the unedited case, `why` on the
# failing output and the first screen, name the edited FILE:LINE with the
# planted reason (issue #40's "Must show"). The passing case and
# examples/mlp-broken are in screens.sh (first_screen_*.keys).
# Where only the fixtures' cover runs (PTODB_FIXTURE_SUBSET=cover: the
# sanitizer build), one copy of each kind: the same code paths, a quarter of
# the TUI runs; the normal build scores every copy.
. "$top_srcdir/tests/cli/lib.sh"
[ -x /usr/bin/python3 ] || skip "no /usr/bin/python3"
fixtures_or_skip
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM
per_kind="" min_copies=40
[ "${PTODB_FIXTURE_SUBSET:-all}" = cover ] && per_kind="--per-kind 1" min_copies=11
/usr/bin/python3 "$top_srcdir/scripts/plant-faults" -o "$tmp/out" --examples "$top_srcdir/examples" \
    --fixtures "$PTODB_FIXTURES" --ptodb "$PTODB" $per_kind >"$tmp/plant.log" 2>&1 || { cat "$tmp/plant.log" >&2; fail "plant-faults exits $?"; }
/usr/bin/python3 "$top_srcdir/scripts/score-faults" "$tmp/out/manifest.json" --ptodb "$PTODB" --out "$tmp/score" \
    -j 2 >"$tmp/score.log" 2>&1 || { cat "$tmp/score.log" >&2; fail "score-faults exits $?"; }
/usr/bin/python3 - "$tmp/score.json" "$min_copies" <<'PY' || fail "the first screen"
import json, os, sys
rows = json.load(open(sys.argv[1]))["rows"]
assert len(rows) >= int(sys.argv[2]) and len({r["kind"] for r in rows}) == 11, "only %d copies" % len(rows)
for r in rows:
    t, b = r["tui"], r["bisect"]
    seen = (os.path.basename(t["file"] or ""), t["line"], t["reason"])
    want = (os.path.basename(b["file"] or ""), b["line"], b["reason"])
    assert seen == want, "%s: the first screen says %s, bisect %s" % (r["id"], seen, want)
    for k in ("bisect", "compare", "why", "tui"):
        a = r[k]
        assert a["names_edit"] and a["reason_ok"], "%s: %s says %s:%s %s, the edit is %02d:%d (%s)" % (
            r["id"], k, os.path.basename(a.get("file") or "-"), a.get("line"), a.get("reason"), r["pass"], r["line"],
            r["expected"])
print("first_screen: %d copies, each named at its edit with its reason by all four" % len(rows))
PY
