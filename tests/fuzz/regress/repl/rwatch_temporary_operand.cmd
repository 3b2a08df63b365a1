rwatch x__ssa_v0
run
continue
continue
continue
