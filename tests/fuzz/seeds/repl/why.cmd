pass 11
why out
why --json out[3, 5] depth 4
why --ulp out[0, 0] pass 0
why out[1
why out[16, 0]
why out[-1, 2]
why out[1, 2, 3]
why x
why nosuch[0, 0]
why out[0, 0] depth 0
why out[0, 0] depth 100000
set ulp on
why out[15, 63] depth 2
pass 22
break 57
run
why up__tile_Vec[0, 0] depth 3
why out[1, 2]
why nosuch[0]
kill
