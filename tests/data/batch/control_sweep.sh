#!/bin/bash
# Control-flow sweep of --batch --bisect (not part of make check: minutes).
# For each fixture and pass P of a list, edits in P and every later pass of a
# copy: the trip count of the first and of the last counted loop
# (pl.range(N, ...) / pl.parallel(N, ...) with N > 1, to N - 1) and the
# first if condition (== <-> !=, < <-> >=). Where the outputs then fail, the
# report must name pass P and the edited line. Edits that leave the outputs
# within tolerance are counted apart, and so are those where P itself still
# passes (the copy carried into a later pass fails first there).
# Usage: PTODB=build/ptodb PTODB_FIXTURES=../shared/fixtures tests/data/batch/control_sweep.sh
P=${PTODB:?set PTODB to the ptodb binary}
F=${PTODB_FIXTURES:?set PTODB_FIXTURES}
T=$(mktemp -d) && trap 'rm -rf "$T"' EXIT
ok=0; bad=0; nofail=0; later=0
# edit_nth FILE REGEX K SED: applies SED to the K-th line of FILE matching
# REGEX (ERE), only that one (a pass may hold several loops over one name:
# the AIC and AIV kernels after ExpandMixedKernel).
edit_nth() {
    local file=$1 re=$2 k=$3 expr=$4 ln
    ln=$(grep -n -E "$re" "$file" | sed -n "${k}p" | cut -d: -f1)
    [ -n "$ln" ] && sed -i -E "${ln}${expr}" "$file"
}
# check CASE PASS LINE WHAT: runs bisect on $T/st/CASE, compares
check() {
    local c=$1 p=$2 line=$3 what=$4
    local prof=torch1.13
    grep -q 'fp16-matmul shim' "$F/$c/timing.txt" && prof=torch2
    local out fb dv
    out=$($P --batch "$T/st/$c" --ref=$prof --bisect 2>&1)
    fb=$(echo "$out" | sed -n 's/^bisect: first failing pass: \([0-9]*\)_.*/\1/p')
    dv=$(echo "$out" | sed -n 's/^first divergence: .*\/\([0-9]*\)_[A-Za-z_0-9]*\.py:\([0-9]*\):.*/\1 \2/p')
    if [ -z "$fb" ]; then nofail=$((nofail + 1)); return; fi
    # the edit of pass P left P's outputs within tolerance; the copies carried
    # into later passes (by occurrence) failed first where a pass restructures
    if [ "$fb" != "$p" ]; then later=$((later + 1)); echo "$c p$p line $line ($what): first fails at $fb, not $p"; return; fi
    if [ "$dv" = "$p $line" ]; then ok=$((ok + 1)); else
        bad=$((bad + 1)); echo "$c p$p line $line ($what): GOT fb=$fb div=[$dv]"
        echo "$out" | grep -A1 "first divergence" | head -3
    fi
}
for c in qwen3_scope3_910b llama_mini_910b paged_attention_910b ffn_swiglu_910b softmax_910b dyn_valid_shape_loop_910b matmul64_950 cross_core_c2v_updown_910b cross_core_bidirect_leftright_910b mixed_kernel_updown_910b; do
  src=$F/$c
  [ -d "$src/passes_dump" ] || continue
  for p in 04 09 11 13 16 20 22 24 26 30 34 38 45; do
    f=$(ls $src/passes_dump/${p}_*.py 2>/dev/null) || continue
    # loops: for VAR[, ...] in pl.range|parallel(N, with N > 1
    for which in head tail; do
      l=$(grep -n -E '^ +for [a-z_0-9]+.* in pl\.(range|parallel)\([2-9][0-9]*[,)]' $f | $which -1)
      [ -n "$l" ] || continue
      line=${l%%:*}
      var=$(echo "$l" | sed -E 's/^[0-9]+: +for ([a-z_0-9]+).*/\1/')
      n=$(echo "$l" | sed -E 's/.* in pl\.(range|parallel)\(([0-9]+)[,)].*/\2/')
      base=${var%%__*}
      re="^ +for ${base}(__[a-z_0-9]*)?[,: ].*in pl\.(range|parallel)\(${n}[,)]"
      nth=$(grep -n -E "$re" $f | grep -n "^${line}:" | cut -d: -f1)
      rm -rf $T/st && mkdir $T/st && cp -RL $src $T/st/
      for g in $T/st/$c/passes_dump/*.py; do k=$(basename $g | cut -c1-2); [ $((10#$k)) -ge $((10#$p)) ] || continue
        edit_nth $g "$re" "$nth" "s/( in pl\.(range|parallel)\()${n}([,)])/\1$((n - 1))\3/"; done
      cmp -s $T/st/$c/passes_dump/$(basename $f) $f && continue
      check $c $p $line "loop $var: $n -> $((n - 1))"
    done
    # branches: the first if with == or <
    l=$(grep -n -E '^ +if .*( == | < ).*:$' $f | head -1)
    if [ -n "$l" ]; then
      line=${l%%:*}
      cond=$(echo "$l" | sed -E 's/^[0-9]+: +if (.*):$/\1/')
      new=$(echo "$cond" | sed -E 's/ == / != /; t; s/ < / >= /')
      rm -rf $T/st && mkdir $T/st && cp -RL $src $T/st/
      esc=$(printf '%s' "$cond" | sed 's/[][\.*^$/()+?|{}]/\\&/g')
      re="^ +if ${esc}:\$"
      nth=$(grep -n -E "$re" $f | grep -n "^${line}:" | cut -d: -f1)
      op=" == "; rep=" != "; case $cond in *" == "*) ;; *) op=" < "; rep=" >= " ;; esac
      for g in $T/st/$c/passes_dump/*.py; do k=$(basename $g | cut -c1-2); [ $((10#$k)) -ge $((10#$p)) ] || continue
        edit_nth $g "$re" "$nth" "s/${op}/${rep}/"; done
      cmp -s $T/st/$c/passes_dump/$(basename $f) $f || check $c $p $line "if $cond -> $new"
    fi
  done
done
echo "ok=$ok bad=$bad nofail(output still passes)=$nofail later(P itself passes)=$later"
