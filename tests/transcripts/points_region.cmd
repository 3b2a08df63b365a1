# args: @FIXTURES@/qwen3_scope3_910b
# ExpandMixedKernel (pass 22) splits oproj_block into oproj_block_aic and
# oproj_block_aiv: a tile of the AIV kernel is matched with pass 21's by the
# GM region it is stored to or loaded from, and says so; equal data there.
# Then a tile popped off the aic->aiv queue in pass 23 is matched by its
# queue slot (the n-th pop) in pass 24 (SplitVectorKernel) and pass 22.
pass 22
break 111
run
continue
continue
diff t__tile_1 pass 21
diff t__tile pass 21
diff resid__tile pass 21
pass 21
pass 22
delete
pass 23
break 53
run
next
diff t__tile_Vec pass 24
diff t__tile_Vec pass 22
