#!/bin/sh
# Every option that --help lists is documented in man/ptodb.1, and the man
# page renders without warnings.
set -e
. "$top_srcdir/tests/cli/lib.sh"

man_page="$top_srcdir/man/ptodb.1"
[ -f "$man_page" ] || fail "missing $man_page"
run_ptodb --help
options=$(printf '%s\n' "$out" | sed -n 's/^ *\(-., \)\{0,1\}--\([a-z][a-z0-9-]*\).*/\2/p')
[ -n "$options" ] || fail "no options parsed from --help"
for o in $options; do
    # roff escapes the hyphens: \-\-name
    grep -q -- "\\\\-\\\\-$(printf '%s' "$o" | sed 's/-/\\\\-/g')" "$man_page" ||
        fail "option --$o is not documented in man/ptodb.1"
done

if command -v groff >/dev/null 2>&1; then
    for page in "$top_srcdir/man/ptodb.1" "$top_srcdir/man/ptodbrc.5"; do
        warnings=$(groff -man -Tutf8 -ww -z "$page" 2>&1 || true)
        [ -z "$warnings" ] || fail "$page: groff warnings: $warnings"
    done
fi
