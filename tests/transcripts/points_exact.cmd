# args: @FIXTURES@/qwen3_scope3_910b
# Pass 28 and pass 29 differ only in their header line: every answer below is
# "same point" and every diff is 0. A lane (AIV1), a call index (the third
# call of final_resid_block), statements that assign nothing (a for line, a
# pl.yield_, a tfree) and `pass next` keeping core, lane and call.
pass 28
break 95
run
diff t__tile_5 pass 29
pass next
print t__tile_5[0, 0:2]
pass 28
delete
break 10
run
continue
continue
print o0
diff t__tile_1 pass 29
diff pass 29
delete
break 229
run
continue
diff out__iter_v3 pass 29
delete
break 61
run
next
diff gate_acc__tile_1 pass 29
next
next
next
diff t__tile_Vec pass 29
# ExpandMixedKernel split mlp_block into mlp_block_aic/_aiv: the match is by
# statement keys, and says it is a guess.
pass 22
delete
break 63
run
diff gate_acc__tile_1 pass 21
