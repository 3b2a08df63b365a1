# args: @SRCDIR@/tests/data/device/dual_dispatch_direct
# A kernel the orchestration calls directly runs on the core its type names
# (device semantics): the AIC kernel cube_mm on the cube core, not as
# [host]; the dual_aiv_dispatch kernel halves on both vector lanes, each
# with its own get_subblock_idx. Under --semantics=ref both run in line.
break 12
break 20
run
info cores
continue
print aiv_id
continue
print aiv_id
continue
set semantics ref
run
continue
continue
