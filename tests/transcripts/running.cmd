# args: @SRCDIR@/examples/mlp-broken
step
kill
next
pass 22
break 57
tbreak mlp_fused_aic
info breakpoints
run
bt
core list
queue show
continue
print t__tile_6[0, 0:4]
print up__tile_Vec[0, 0:4]
print subblock_idx
print nosuch
print out__ssa_v0[1:3, 62:]
print t__tile_6[0, 99]
print t__tile_6[0:2
display sigmoid__tile
next
next
info display
up
down
frame 1
info args
info locals
finish
core aiv1
core nosuch
watch h_bf16__tile
continue
delete 1
continue
undisplay
delete
continue
diff out
diff out golden
export out @TMP@/out.npy
export out @TMP@/out.npy
export -f out @TMP@/out.npy
export out @TMP@/out.txt
print golden.out[0, 0:3]
continue
run 9
