pass 00
break mlp_block
commands $bpnum
  print x
  continue
end
ignore $bpnum 1
condition 1 nan or inf and max >= -1e308
start
frame 1
up
down
pass next
pass 09
info frame
undisplay 1
set rtol 1e-3
set ref torch1.13
run
