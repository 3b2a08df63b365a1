#!/bin/bash
# Accuracy sweep of --batch --bisect (not part of make check: a few minutes).
# For each fixture and pass P of a list, flips the op (add <-> sub, mul -> sub)
# of the first and of the last add/mul/sub assignment of pass P in P and every
# later pass of a copy, and checks that the report names pass P, that line and
# that tensor. Flips that leave the outputs within tolerance are counted apart.
# Usage: PTODB=build/ptodb PTODB_FIXTURES=../shared/fixtures tests/data/batch/flip_sweep.sh
P=${PTODB:?set PTODB to the ptodb binary}
F=${PTODB_FIXTURES:?set PTODB_FIXTURES}
T=$(mktemp -d) && trap 'rm -rf "$T"' EXIT
ok=0; bad=0; nofail=0
for c in qwen3_scope3_910b llama_mini_910b paged_attention_910b ffn_swiglu_910b softmax_910b dyn_valid_shape_loop_910b matmul64_950 cross_core_c2v_updown_910b cross_core_bidirect_leftright_910b mixed_kernel_updown_910b; do
  src=$F/$c
  prof=torch1.13; grep -q 'fp16-matmul shim' $src/timing.txt && prof=torch2
  for p in 04 09 11 13 16 20 22 24 26 30 34 38 45; do
    f=$(ls $src/passes_dump/${p}_*.py 2>/dev/null) || continue
    for which in head tail; do
    l=$(grep -n -E '^ +[a-z_0-9]+: .* = pl\.(tile|tensor)\.(add|mul|sub)\(' $f | $which -1)
    [ -n "$l" ] || continue
    line=${l%%:*}; tgt=$(echo "$l" | sed -E 's/^[0-9]+: +([a-z_0-9]+):.*/\1/'); op=$(echo "$l" | sed -E 's/.*= pl\.(tile|tensor)\.(add|mul|sub)\(.*/\2/')
    new=sub; [ $op = sub ] && new=add
    rm -rf $T/st && mkdir $T/st && cp -RL $src $T/st/
    for g in $T/st/$c/passes_dump/*.py; do n=$(basename $g | cut -c1-2); [ $((10#$n)) -ge $((10#$p)) ] || continue
      sed -i -E "s/^( +${tgt}: .* = pl\.(tile|tensor)\.)${op}\(/\1${new}(/" $g; done
    out=$($P --batch $T/st/$c --ref=$prof --bisect 2>&1)
    fb=$(echo "$out" | sed -n 's/^bisect: first failing pass: \([0-9]*\)_.*/\1/p')
    dv=$(echo "$out" | sed -n "s/^first divergence: .*\/\([0-9]*\)_[A-Za-z_0-9]*\.py:\([0-9]*\): tensor '\([^']*\)'.*/\1 \2 \3/p")
    if [ "$fb" != "$p" ] && echo "$out" | grep -q "first failing pass" ; then :; fi
    if [ -z "$fb" ]; then nofail=$((nofail+1)); continue; fi
    if [ "$dv" = "$p $line $tgt" ]; then ok=$((ok+1)); else bad=$((bad+1)); echo "$c p$p $tgt line $line ($op->$new): GOT fb=$fb div=[$dv]"; echo "$out" | grep -A1 "first divergence" | head -3; fi
    done
  done
done
echo "ok=$ok bad=$bad nofail(output still passes)=$nofail"
