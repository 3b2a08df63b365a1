#!/bin/sh
# import_peer_buffer, the producer's handle to its consumer's slot buffer
# (docs/memory.md): it must name a reserve_buffer of the peer function
# (PyPTO's "every peer import must have a matching reservation"). Planted
# on a copy of examples/mlp pass 22, line 10, whose AIC kernel imports
# mlp_fused_c2v_slot_buffer from mlp_fused_aiv (reserved there at line 37):
#   - the name misspelled: mlp_fused_aiv reserves no such buffer: a slot
#     fault at the import (10:65), MEMFAULT, exit 1;
#   - peer_func naming no function: the same, saying so;
# and unedited, `info memory` on AIC lists the import with the peer's
# reservation (8192 bytes, no address before AllocateMemoryAddr); on the
# fixture cross_core_bidirect_leftright_910b pass 40 with its address,
# [0, 16384) of the AIV's Vec (its reserve_buffer at line 33, base=0).
. "$top_srcdir/tests/cli/lib.sh"
tmp=$(mktemp -d) || fail "mktemp"
trap 'rm -rf "$tmp"' EXIT INT TERM
cp -r "$top_srcdir/examples/mlp" "$tmp/name" && cp -r "$top_srcdir/examples/mlp" "$tmp/peer" || fail "copy"
f=passes_dump/22_after_ExpandMixedKernel.py
grep -q "^        mlp_fused_c2v_slot_buffer_import: .*import_peer_buffer(name='mlp_fused_c2v_slot_buffer', peer_func='mlp_fused_aiv')$" "$tmp/name/$f" ||
    fail "examples/mlp changed: no import at line 10"
sed -i "10s/name='mlp_fused_c2v_slot_buffer'/name='mlp_fused_c2v_slot_bufer'/" "$tmp/name/$f"
sed -i "10s/peer_func='mlp_fused_aiv'/peer_func='mlp_fused_aiw'/" "$tmp/peer/$f"

"$PTODB" --batch "$tmp/name" >"$tmp/out" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "misspelt name: exit $rc: $(cat "$tmp/out")"
grep -q "^memory fault: slot at .*/22_after_ExpandMixedKernel.py:10:65 in mlp_fused_aic$" "$tmp/out" || fail "no slot fault at 10:65: $(cat "$tmp/out")"
grep -q "^  why:    import_peer_buffer(name='mlp_fused_c2v_slot_bufer', peer_func='mlp_fused_aiv'): mlp_fused_aiv reserves no buffer mlp_fused_c2v_slot_bufer (PyPTO: every peer import must have a matching reservation; on 950 the producer's pushes would land in memory nothing reserved)$" "$tmp/out" ||
    fail "why line: $(cat "$tmp/out")"
grep -q "^  stmt:   system.import_peer_buffer at 10:65 imports it$" "$tmp/out" || fail "stmt line"
grep -q "^22_after_ExpandMixedKernel  *MEMFAULT " "$tmp/out" || fail "verdict"

"$PTODB" --batch "$tmp/peer" >"$tmp/out2" 2>&1
[ $? -eq 1 ] || fail "wrong peer: expected exit 1"
grep -q "^  why:    import_peer_buffer(name='mlp_fused_c2v_slot_buffer', peer_func='mlp_fused_aiw'): the program has no function mlp_fused_aiw$" "$tmp/out2" ||
    fail "wrong peer: $(cat "$tmp/out2")"
# the reference's blind semantics: both pass
"$PTODB" --batch --memcheck=off "$tmp/name" >/dev/null 2>&1 || fail "--memcheck=off: the misspelt name fails"

printf 'pass 22\nbreak 12\nrun\ninfo memory\nquit\n' | "$PTODB" "$top_srcdir/examples/mlp" >"$tmp/repl" 2>&1
grep -q "^imported: slot buffer mlp_fused_c2v_slot_buffer of mlp_fused_aiv, its Vec (no address yet), 8192 bytes$" "$tmp/repl" ||
    fail "info memory: $(cat "$tmp/repl")"

C=${PTODB_FIXTURES:-}/cross_core_bidirect_leftright_910b
if [ -d "$C" ]; then
    printf 'pass 40\nbreak 16\nrun\ninfo memory\nquit\n' | "$PTODB" "$C" >"$tmp/fx" 2>&1
    grep -q "^imported: slot buffer main_incore_0_c2v_slot_buffer of main_incore_0_aiv, its Vec \[0, 16384)$" "$tmp/fx" ||
        fail "fixture info memory: $(cat "$tmp/fx")"
else
    echo "note: $C not found: the addressed import is not checked"
fi
echo ok
