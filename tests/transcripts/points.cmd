# args: @SRCDIR@/examples/mlp-broken
pass 22
break 62
run
diff t__tile_9 pass 18
diff t__tile_9[0:2, 0:3] pass 18
diff t__tile_9[0:2, 0:3] pass 9
diff t__tile_9 pass 99
diff t__tile_9 pass
print t__tile_9[0, 0:2]
pass 18
bt
print t__tile_9[0, 0:2]
pass 11
print t__tile_6[0, 0:2]
pass 9
print t__tmp_v6[0, 0:2]
pass 0
