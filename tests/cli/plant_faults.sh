#!/bin/sh
# The planted-fault corpus (scripts/plant-faults, docs/faults.md) on one
# example and, where the shared fixtures are, one fixture: the manifest is
# well formed (schema, one edited statement per copy, its FILE:LINE in pass K
# holds the edited text, the same edit in every later pass it survives in),
# every copy fails under ptodb --batch with pass K as the first failing pass,
# the source cases are untouched, and scripts/score-faults scores the copies
# (a table per kind, one answer per command and copy).
. "$top_srcdir/tests/cli/lib.sh"
[ -x /usr/bin/python3 ] || skip "no /usr/bin/python3 for scripts/plant-faults"

tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM

cases=mlp
have_fixtures=0
if [ -d "${PTODB_FIXTURES:-}/softmax_910b/passes_dump" ]; then
    cases=mlp,softmax_910b
    have_fixtures=1
fi
before=$(cd "$top_srcdir/examples/mlp" && find . -type f | sort | xargs cat | cksum)
/usr/bin/python3 "$top_srcdir/scripts/plant-faults" -o "$tmp/out" --examples "$top_srcdir/examples" \
    --fixtures "${PTODB_FIXTURES:-/nonexistent}" --ptodb "$PTODB" --only "$cases" >"$tmp/plant.log" 2>&1 ||
    { cat "$tmp/plant.log" >&2; fail "plant-faults exits $?"; }
after=$(cd "$top_srcdir/examples/mlp" && find . -type f | sort | xargs cat | cksum)
expect_eq "examples/mlp untouched" "$before" "$after"

/usr/bin/python3 - "$tmp/out/manifest.json" "$PTODB" "$have_fixtures" <<'PY' || fail "manifest"
import json, os, subprocess, sys
man = json.load(open(sys.argv[1]))
assert man['schema'] == 'ptodb-faults/1', man.get('schema')
copies = man['copies']
vocab = {'op', 'branch', 'loop', 'region', 'lane/core', 'memfault', 'error/deadlock', 'not-written', 'nan'}
kinds = {c['kind'] for c in copies}
mlp = [c for c in copies if c['case'] == 'mlp']
assert len(mlp) >= 7, 'only %d mlp copies' % len(mlp)
if sys.argv[3] == '1':
    assert any(c['case'] == 'softmax_910b' for c in copies), 'no softmax copy'
for c in copies:
    for k in ('id', 'case', 'kind', 'reason', 'pass', 'pass_stem', 'file', 'line', 'before', 'after', 'carried', 'copy', 'source'):
        assert k in c, (c.get('id'), k)
    assert c['reason'] in vocab, c['reason']
    assert c['carried'][0] == c['pass_stem'], c['id']
    path = os.path.join(c['copy'], c['file'])
    assert os.path.basename(path).startswith('%02d_' % c['pass']), c['id']
    lines = open(path).read().split('\n')
    assert lines[c['line'] - 1].strip() == c['after'], (c['id'], lines[c['line'] - 1])
    src = open(os.path.join(c['source'], c['file'])).read().split('\n')
    assert src[c['line'] - 1].strip() == c['before'], c['id']
    # exactly one statement differs from the source in pass K
    diff = [i for i, (a, b) in enumerate(zip(src, lines)) if a != b]
    assert diff == [c['line'] - 1] and len(src) == len(lines), (c['id'], diff)
    # every later pass carries it or says it was lost; earlier passes are the source's
    for f in sorted(os.listdir(os.path.join(c['copy'], 'passes_dump'))):
        stem = f[:-3]
        same = open(os.path.join(c['copy'], 'passes_dump', f)).read() == open(os.path.join(c['source'], 'passes_dump', f)).read()
        assert same == (stem not in c['carried']), (c['id'], stem)
    assert c['batch_exit'] == 1 and c['first_failing'] == c['pass_stem'], (c['id'], c['batch_exit'], c['first_failing'])
    p = subprocess.run([sys.argv[2], '--batch', c['copy'], '--nx'], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    assert p.returncode == 1, (c['id'], p.returncode)
print('%d copies, kinds %s' % (len(copies), ' '.join(sorted(kinds))))
PY

/usr/bin/python3 "$top_srcdir/scripts/score-faults" "$tmp/out/manifest.json" --ptodb "$PTODB" -j 1 \
    --out "$tmp/score" >"$tmp/score.log" 2>&1 || { cat "$tmp/score.log" >&2; fail "score-faults"; }
/usr/bin/python3 - "$tmp/score.json" "$tmp/out/manifest.json" <<'PY' || fail "score"
import json, sys
s = json.load(open(sys.argv[1]))
m = json.load(open(sys.argv[2]))
assert s['schema'] == 'ptodb-faults-score/1'
assert s['summary']['copies'] == len(m['copies'])
for r in s['rows']:
    for k in ('bisect', 'compare', 'why', 'tui'):
        assert 'reason' in r[k] and 'names_edit' in r[k], (r['id'], k)
# the bisect finds the planted pass of every copy
assert all(r['bisect'].get('first_bad') == next(c['pass_stem'] for c in m['copies'] if c['id'] == r['id'])
           for r in s['rows']), 'bisect misses a planted pass'
PY
grep -q '^| \*\*all\*\* |' "$tmp/score.md" || fail "score.md has no overall row"
[ "$have_fixtures" = 1 ] || skip "the example's copies pass; no shared fixtures (PTODB_FIXTURES) for a fixture's copies"
exit 0
