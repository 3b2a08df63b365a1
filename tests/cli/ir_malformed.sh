#!/bin/sh
# Malformed dumps: every file of tests/data/malformed/ and a few generated
# ones (NUL bytes, invalid UTF-8, a 1 MB line, 10,000-deep nesting) make
# `ptodb --check` exit 2 with the expected first error line and no crash.
set -e
. "$top_srcdir/tests/cli/lib.sh"

data="$top_srcdir/tests/data/malformed"
expected="$data/EXPECTED"
[ -f "$expected" ] || fail "missing $expected"
work=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$work"' EXIT

# check_case DIR NAME EXPECTED-FIRST-LINE
check_case() {
    (cd "$1" && "$PTODB" --check "$2" >/dev/null 2>"$work/err")
    code=$?
    [ "$code" -eq 2 ] || fail "$2: exit status $code, expected 2 ($(head -3 "$work/err"))"
    if grep -q -e 'Sanitizer' -e 'runtime error' "$work/err"; then
        cat "$work/err" >&2
        fail "$2: sanitizer report"
    fi
    first=$(head -1 "$work/err")
    expect_eq "$2: first error line" "$3" "$first"
}

n=0
for f in "$data"/*.py; do
    name=$(basename "$f")
    line=$(grep -F "$name:" "$expected" | head -1)
    [ -n "$line" ] || fail "$name has no line in EXPECTED"
    set +e
    check_case "$data" "$name" "$line"
    set -e
    n=$((n + 1))
done

# Generated inputs: too big or too binary to commit.
hdr='# pypto.program: P
import pypto.language as pl

@pl.program
class P:
    @pl.function
    def f(self, x: pl.Scalar[pl.INDEX]) -> pl.Scalar[pl.INDEX]:'
gen() { # NAME EXPECTED-FIRST-LINE (file content already in $work/NAME)
    set +e
    check_case "$work" "$1" "$2"
    set -e
    n=$((n + 1))
}
{ printf '%s\n' "$hdr"; printf '        y: pl.Scalar[pl.INDEX] = x\000\n        return y\n'; } >"$work/nul_byte.py"
gen nul_byte.py "nul_byte.py:8:35: error: NUL byte in source"
{ printf '%s\n' "$hdr"; printf '        y: pl.Scalar[pl.INDEX] = x \351\n        return y\n'; } >"$work/non_utf8_code.py"
gen non_utf8_code.py "non_utf8_code.py:8:36: error: invalid UTF-8 byte 0xe9"
{ printf '%s\n' "$hdr"; printf '        # caf\351\n        return x\n'; } >"$work/non_utf8_comment.py"
gen non_utf8_comment.py "non_utf8_comment.py:8:14: error: invalid UTF-8 byte 0xe9 in comment"
{ printf '%s\n' "$hdr"; printf '        y: pl.Scalar[pl.INDEX] = pl.const(x, "\377")\n        return y\n'; } >"$work/non_utf8_string.py"
gen non_utf8_string.py "non_utf8_string.py:8:47: error: invalid UTF-8 byte 0xff in string"
{ printf '%s\n        y: pl.Scalar[pl.INDEX] = ' "$hdr"; head -c 1048576 /dev/zero | tr '\0' 'z'; printf '\n        return y\n'; } >"$work/one_mb_line.py"
gen one_mb_line.py "one_mb_line.py:8:34: error: undefined name '$(head -c 60 /dev/zero | tr '\0' 'z')...'"
{ printf '%s\n        y: pl.Scalar[pl.INDEX] = ' "$hdr"; head -c 10000 /dev/zero | tr '\0' '('; printf x;
  head -c 10000 /dev/zero | tr '\0' ')'; printf '\n        return y\n'; } >"$work/deep_parens.py"
gen deep_parens.py "deep_parens.py:8:232: error: nesting too deep (more than 200 levels)"
{ printf '%s\n        y: pl.Scalar[pl.INDEX] = ' "$hdr"; head -c 10000 /dev/zero | tr '\0' '['; printf '\n'; } >"$work/deep_lists.py"
gen deep_lists.py "deep_lists.py:8:232: error: nesting too deep (more than 200 levels)"
{ printf '%s\n        y: pl.Scalar[pl.INDEX] = x' "$hdr"; i=0; while [ $i -lt 10000 ]; do printf ' + x'; i=$((i + 1)); done;
  printf '\n        return y\n'; } >"$work/long_chain.py"
gen long_chain.py "long_chain.py:8:34: error: expression nested too deeply (more than 200 levels)"
{ printf '%s\n' "$hdr"; i=0; ind='        '; while [ $i -lt 10000 ]; do printf '%sif x:\n' "$ind"; ind="$ind "; i=$((i + 1)); done;
  printf '%spass\n' "$ind"; } >"$work/deep_blocks.py"
gen deep_blocks.py "deep_blocks.py:107:108: error: too many levels of indentation (more than 100)"

# The error cap: 200 bad statements give at most 20 errors and a count.
{ printf '%s\n' "$hdr"; i=0; while [ $i -lt 200 ]; do printf '        x = = 1\n'; i=$((i + 1)); done; } >"$work/many.py"
set +e
"$PTODB" --check "$work/many.py" >/dev/null 2>"$work/err"
code=$?
set -e
expect_eq "many errors: exit" 2 "$code"
errors=$(grep -c ': error: ' "$work/err")
expect_eq "many errors: capped" 20 "$errors"
expect_contains "many errors: summary" "note: stopped after 20 errors" "$(cat "$work/err")"

# The whole report: location, source line, caret, then the summary on stdout.
# (Unknown ops and pl.* names are warnings: tests/cli/forward_compat.sh.)
set +e
(cd "$data" && "$PTODB" --check unknown_builtin.py >"$work/out" 2>"$work/err")
code=$?
set -e
expect_eq "report: exit" 2 "$code"
expect_eq "report: stderr" "unknown_builtin.py:8:34: error: unknown builtin 'pl.clamp'
          n: pl.Scalar[pl.INDEX] = pl.clamp(1, 2)
                                   ^" "$(cat "$work/err")"
expect_eq "report: stdout" "checked 1 file: 1 with errors, 1 error" "$(cat "$work/out")"

# --print: syntax errors are reported the same way, with exit status 2.
set +e
(cd "$data" && "$PTODB" --print bad_number.py >"$work/out" 2>"$work/err")
code=$?
set -e
expect_eq "--print error: exit" 2 "$code"
expect_eq "--print error: nothing printed" "" "$(cat "$work/out")"
expect_eq "--print error: first line" "bad_number.py:9:34: error: invalid number literal" \
    "$(head -1 "$work/err")"

# A missing file and a missing argument.
set +e
"$PTODB" --check "$work/no-such.py" >/dev/null 2>"$work/err"
code=$?
set -e
expect_eq "missing file: exit" 2 "$code"
expect_contains "missing file: message" "no-such.py: error: cannot access" "$(cat "$work/err")"
set +e
"$PTODB" --check >/dev/null 2>"$work/err"
code=$?
set -e
expect_eq "--check without PATH: exit" 2 "$code"

echo "$n malformed inputs rejected with the expected first error"
