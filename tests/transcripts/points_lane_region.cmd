# args: @FIXTURES@/mixed_kernel_updown_910b
# A lane's share by its subblock_idx offsets: AIV1 loads bias[64:128, 0:128]
# and stores out[64:128, 0:128]; before the split (pass 20) one core loads
# and stores all of it. The diff compares AIV1's share of the whole tile.
# acc__tile_Vec, the half of the AIC's matmul AIV1 pops, is rows 64:128 of
# pass 20's accumulator: matched by provenance as that share, not guessed.
pass 22
break 35
run
continue
diff bias__tile pass 20
diff t__tile pass 20
pass 20
pass 22
delete
break 36
run
continue
diff out__tile pass 21
diff out__ssa_v0 pass 20
diff pass 21
diff acc__tile_Vec pass 20
