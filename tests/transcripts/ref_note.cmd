# args: @SRCDIR@/tests/data/ref_note
# tile.maximums with a Scalar variable operand: REF raises TypeError at run
# time, ptodb runs it by definition; the debugger says so where it validates,
# with the line --run and --batch print.
run
quit
