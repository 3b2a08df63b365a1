#!/bin/sh
# rc files: the user's rc runs; ./.ptodbrc runs only when trusted (safe-path
# or --trust), otherwise a one-line notice; --nx reads none; errors in rc
# files are reported as FILE:LINE: and loading goes on; -x and -ex follow.
set -e
. "$top_srcdir/tests/cli/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
home="$tmp/home" proj="$tmp/proj"
mkdir -p "$home/.config/ptodb" "$proj"
printf 'echo user rc\\n\nbogus-command\necho after error\\n\n' >"$home/.config/ptodb/ptodbrc"
printf 'echo LOCAL RC RAN\\n\n' >"$proj/.ptodbrc"
realproj=$(cd "$proj" && pwd -P)

run_in_proj() { (cd "$proj" && HOME="$home" XDG_CONFIG_HOME= "$PTODB" --nw "$@" </dev/null 2>&1); }

out=$(run_in_proj)
expect_contains "user rc runs" "user rc" "$out"
expect_contains "rc error has file:line" "$home/.config/ptodb/ptodbrc:2: Undefined command: \"bogus-command\"." "$out"
expect_contains "rc loading continues after an error" "after error" "$out"
case "$out" in *"LOCAL RC RAN"*) fail "untrusted ./.ptodbrc ran" ;; esac
expect_contains "untrusted notice" "not running untrusted $realproj/.ptodbrc" "$out"
expect_eq "notice is one line" 1 "$(printf '%s\n' "$out" | grep -c 'untrusted')"

out=$(run_in_proj --trust)
expect_contains "--trust runs ./.ptodbrc" "LOCAL RC RAN" "$out"

printf 'set auto-load safe-path %s\n' "$tmp" >"$home/.config/ptodb/ptodbrc"
out=$(run_in_proj)
expect_contains "safe-path parent trusts ./.ptodbrc" "LOCAL RC RAN" "$out"

printf 'set auto-load safe-path %s/other\n' "$tmp" >"$home/.config/ptodb/ptodbrc"
mkdir -p "$tmp/other"
ln -s "$proj" "$tmp/other/link"
out=$(cd "$tmp/other/link" && HOME="$home" XDG_CONFIG_HOME= "$PTODB" --nw </dev/null 2>&1)
case "$out" in *"LOCAL RC RAN"*) fail "a symlink into an untrusted folder was trusted" ;; esac

out=$(run_in_proj --nx)
expect_eq "--nx reads nothing" "" "$out"

printf 'echo from -x\\n\n' >"$tmp/cmds"
out=$(run_in_proj --nx -x "$tmp/cmds" -ex 'echo from -ex\n' -ex 'echo second\n')
expect_eq "-x then -ex in order" "from -x
from -ex
second" "$out"

# XDG_CONFIG_HOME wins over ~/.config; ~/.ptodbrc is the fallback.
mkdir -p "$tmp/xdg/ptodb"
printf 'echo xdg rc\\n\n' >"$tmp/xdg/ptodb/ptodbrc"
out=$(cd "$tmp" && HOME="$home" XDG_CONFIG_HOME="$tmp/xdg" "$PTODB" --nw </dev/null 2>&1)
expect_eq "XDG_CONFIG_HOME rc" "xdg rc" "$out"
rm -r "$home/.config"
printf 'echo dot rc\\n\n' >"$home/.ptodbrc"
out=$(cd "$tmp" && HOME="$home" XDG_CONFIG_HOME= "$PTODB" --nw </dev/null 2>&1)
expect_eq "~/.ptodbrc fallback" "dot rc" "$out"
