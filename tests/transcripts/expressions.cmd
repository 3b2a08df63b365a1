# args: @SRCDIR@/examples/mlp-broken
# Expressions, value history, convenience variables and print formats
# (gdb's), each answer checked against an identity or a hand computation.
print 1
print $
print 2 + 3 * 4
print (2 + 3) * 4
print 7 / 2
print -3 - -5
print $1 + $$ + $3
print $$3
pass 22
break 58
run
# the tile just written by line 57: t__tile_6 = neg(up__tile_Vec)
print t__tile_6[0, 0:4]
print up__tile_Vec[0, 0:4]
# identity: t + up == 0 everywhere (neg is exact)
print count(t__tile_6 + up__tile_Vec == 0)
print max(abs(t__tile_6 + up__tile_Vec))
print allclose(t__tile_6, -up__tile_Vec)
print allclose(t__tile_6, up__tile_Vec, 0, 0)
print count(t__tile_6 > 0) + count(t__tile_6 <= 0)
print sum(t__tile_6[0, 0:4]) - (t__tile_6[0, 0] + t__tile_6[0, 1] + t__tile_6[0, 2] + t__tile_6[0, 3])
print mean(t__tile_6[0:2, 0:2])
print min(t__tile_6) == -max(up__tile_Vec)
print max(t__tile_6[0, 0:4], 0)
print t__tile_6[0:2, 0:3] - t__tile_6[0, 0:3]
# formats: the raw bits of fp32 -0.566406 (0xbf110000), bf16 and int
p/x t__tile_6[0, 0:2]
p/t t__tile_6[0, 0]
p/e t__tile_6[0, 0]
p/f t__tile_6[0, 0]
p/d t__tile_6[0, 0:4]
p/x 255
p/o 8
p/q 1
output t__tile_6[0, 0]
echo \n
output/x 16
echo \n
whatis t__tile_6
whatis 1.5
ptype t__tile_6
ptype t__tile_6[0:2, 1:3]
x/8x t__tile_6[0, 0]
x/4f t__tile_6[1, 0]
x/2d t__tile_6[7, 63]
# names: norm_w is both the parameter norm_w__ssa_v0 and the tile norm_w__tile
print norm_w
whatis norm_w
whatis norm_w__tile
# convenience variables are snapshots
set var $saved = t__tile_6[0, 0:2]
set $k = 3
print $k * 2
print $saved
print $nosuch
# set var writes the program's tensor (broadcast, converted)
set var t__tile_6[0, 0:4] = 7
print t__tile_6[0, 0:4]
print $saved
set var t__tile_6[1, :] = t__tile_6[0, :] * 0
print max(abs(t__tile_6[1]))
set var golden.out = 1
set var t__tile_6[0, 0:4] = t__tile_6[0:2, 0:4]
set var 1 + 2 = 3
set var
display/x t__tile_6[0, 0:2]
display max(t__tile_6)
next
undisplay
info frame
up
info frame
down
# errors
print nosuch
print 1 +
print t__tile_6 + t__tile_6[0:2, 0:3]
print $99
print foo(1)
print abs(1, 2)
print t__tile_6[0, 99]
x/0x t__tile_6
x/4x t__tile_6[7, 62]
apropos history
apropos ^wh
apropos (
continue
