# args: @FIXTURES@/mixed_kernel_updown_910b
# A lane's share of an intermediate (docs/program-points.md, "Lanes"). In
# pass 22 AIV1 adds its half of the AIC's matmul (popped off a split queue)
# and the bias rows it loaded itself (bias[64:128, 0:128]); pass 20, before
# the lane split, adds the whole matmul and all of bias on one core. No
# value there has t__tile's provenance, yet t__tile is rows 64:128 of pass
# 20's t__tile: the same ops on those rows (element-wise, a lane's half of
# one matmul). Matched by provenance as that share and compared on it:
# equal. Pass 15, before AutoTileMatmulL0, computes the matmul another way:
# no share of anything there, a guess (said so).
pass 22
break 34
run
continue
diff t__tile pass 20
diff t__tile pass 15
