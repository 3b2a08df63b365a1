# args: @FIXTURES@/qwen3_scope3_910b
pass 22
break 54
info breakpoints
continue
run
print t__tile_Vec[0:2, 0:4]
print gate_acc__iter_v1
core aic
queue show
core aiv0
next
step
step
core list
queue show
pass next
print gate_acc__tile_1[0, 0:3]
diff out golden
continue
continue
diff out
