# args: @SRCDIR@/examples/mlp-broken
pass 11
break 29 if max > 100
break 29 if bogus(1) > 1
break 29 if max >
break mlp_fused if nan
run
info breakpoints
condition 1 max > 1
run
print ib__idx_v0
condition 1
ignore 1 1
define hook-stop
echo [hook-stop] at a stop\n
end
run
print ib__idx_v0
commands 1
echo [commands] breakpoint 1 hit\n
print i0__ssa_v0
end
run
disable 1
until 33
enable 1
continue
delete 1
condition 99 nan
ignore 99 1
enable 99
break nan
condition $bpnum max > 1
break inf
tbreak 34
info breakpoints
continue
watch h__tile if max > 3
continue
continue
delete
break pass /ConvertTensor|Infer/ if max_abs_diff > 0.5
break pass NoSuchPass
break pass
break pass /[/
pass 0
run
continue
continue
info breakpoints
save breakpoints @TMP@/bps
delete
source @TMP@/bps
info breakpoints
show rtol
set rtol 0.5
show rtol
echo done\n
break 29
break 11_after_ConvertTensorToTileOps.py:29
clear 29
clear 29
break mlp_fused
clear mlp_fused
clear nosuch
