#!/bin/sh
# `make install` into a private DESTDIR and prefix: the installed ptodb runs
# (--version, --help, --batch on an example), its man pages format without
# warnings, its bash completion loads and completes options and case paths, and
# `make uninstall` removes every file it installed.
set -e
. "$top_srcdir/tests/cli/lib.sh"
: "${top_builddir:?run through make check}"

tmp=$(mktemp -d)
trap '[ -n "${KEEP_TMP-}" ] || rm -rf "$tmp"' EXIT
dest="$tmp/dest"
prefix=/ptodb-install-test
# make check runs in parallel: the install goes to this test's own folder, and
# the outer make's flags (jobserver, TESTS=...) stay out of it.
submake() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$top_builddir" "$@" prefix="$prefix" DESTDIR="$dest" >"$tmp/make.log" 2>&1 ||
    { cat "$tmp/make.log" >&2; fail "make $1 failed"; }; }
submake install

installed() { find "$dest" -path "*/$1" -type f | head -n 1; }
bin=$(installed bin/ptodb)
man1=$(installed man1/ptodb.1)
man5=$(installed man5/ptodbrc.5)
completion=$(installed bash-completion/completions/ptodb)
[ -x "$bin" ] || fail "make install put no executable bin/ptodb under $dest$prefix"
[ -n "$man1" ] || fail "make install put no man1/ptodb.1 under $dest$prefix"
[ -n "$man5" ] || fail "make install put no man5/ptodbrc.5 under $dest$prefix"
[ -n "$completion" ] || fail "make install put no bash-completion/completions/ptodb under $dest$prefix"
case "$bin $man1 $man5 $completion" in
*"$dest$prefix/"*"$dest$prefix/"*"$dest$prefix/"*"$dest$prefix/"*) ;;
*) fail "an installed file is outside the prefix: $bin $man1 $man5 $completion" ;;
esac

# The installed binary, away from the build tree.
PTODB=$bin # run_ptodb runs $PTODB
cd "$tmp"
run_ptodb --version
expect_eq "installed --version exit" 0 "$rc"
expect_contains "installed --version" "ptodb " "$out"
run_ptodb --help
expect_eq "installed --help exit" 0 "$rc"
expect_contains "installed --help" "Usage: ptodb" "$out"
run_ptodb --batch "$top_srcdir/examples/mlp"
expect_eq "installed --batch examples/mlp exit ($err)" 0 "$rc"
expect_contains "installed --batch examples/mlp" "7 passes: 7 pass, 0 fail" "$out"

if command -v man >/dev/null 2>&1; then
    for page in "$man1" "$man5"; do
        MANWIDTH=80 man --warnings -l "$page" >"$tmp/page" 2>"$tmp/warnings" ||
            { cat "$tmp/warnings" >&2; fail "man -l $page failed"; }
        [ -s "$tmp/warnings" ] && { cat "$tmp/warnings" >&2; fail "man -l $page warns"; }
        grep -q '^NAME' "$tmp/page" || fail "man -l $page: no NAME section"
    done
    echo "man -l: both installed pages format without warnings"
else
    echo "man is not installed: the installed man pages are not formatted (apt-get install man-db)"
fi

if command -v bash >/dev/null 2>&1; then
    # Each line of $tmp/complete: a command line after "ptodb ", then what
    # bash offers for its last word, as Tab would.
    PATH="$(dirname "$bin"):$PATH" bash --norc --noprofile -c '
        src=$2
        . "$1" || exit 1
        complete -p ptodb
        for line in "--ba" "-" "$src/examples/mlp/" "--ref torch1" "-e"; do
            # shellcheck disable=SC2086
            set -- ptodb $line; [ "${line% }" = "$line" ] || set -- "$@" ""
            COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=()
            _ptodb ptodb "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
            printf "%s:" "$line"; printf " %s" "${COMPREPLY[@]}"; echo
        done' sh "$completion" "$top_srcdir" >"$tmp/complete" 2>&1 ||
        { cat "$tmp/complete" >&2; fail "sourcing $completion in bash failed"; }
    sed "s|$top_srcdir|SRC|g" "$tmp/complete" >"$tmp/complete.n"
    expect_eq "complete -p ptodb" "complete -F _ptodb ptodb" "$(sed -n 1p "$tmp/complete.n")"
    expect_eq "completing 'ptodb --ba'" "--ba: --batch" "$(grep '^--ba:' "$tmp/complete.n")"
    expect_eq "completing 'ptodb --ref torch1'" "--ref torch1: torch1.13" "$(grep '^--ref torch1:' "$tmp/complete.n")"
    expect_eq "completing 'ptodb -e' (gdb's -ex)" "-e: -ex" "$(grep '^-e:' "$tmp/complete.n")"
    # Every option of --help, and only those, completes from '-'.
    "$bin" --help | sed -nE 's/^ +(-[[:alnum:]]+, +)?(--[[:alnum:]-]+).*/\2/p' | sort >"$tmp/help.opts"
    grep '^-:' "$tmp/complete.n" | cut -d: -f2- | tr ' ' '\n' | sed '/^$/d' | sort >"$tmp/complete.opts"
    [ "$(wc -l <"$tmp/help.opts")" -ge 20 ] || fail "ptodb --help lists fewer than 20 options"
    cmp -s "$tmp/help.opts" "$tmp/complete.opts" ||
        { diff "$tmp/help.opts" "$tmp/complete.opts" >&2; fail "completing '-' does not give --help's options"; }
    case_line=$(grep '^SRC/examples/mlp/:' "$tmp/complete.n") || true
    for want in SRC/examples/mlp/ptodb.yaml SRC/examples/mlp/passes_dump SRC/examples/mlp/data; do
        expect_contains "completing a case folder" " $want" "$case_line"
    done
    echo "bash completion: $(wc -l <"$tmp/complete.opts") options, case paths, values"
else
    echo "bash is not installed: the completion is not tried"
fi

submake uninstall
left=$(find "$dest" ! -type d)
[ -z "$left" ] || fail "make uninstall left files behind: $left"
echo "make install / uninstall under DESTDIR: 4 files installed, none left"
