#!/bin/sh
# The README's walk-through reproduces exactly after scripts/demo has run
# twice (not on a terminal: it prints the planted-bug transcript), all three
# sharing one $XDG_STATE_HOME: breakpoint numbers still start at 1, nothing
# is restored. The comparison itself is readme_walkthrough.sh's.
walkthrough_after_demo=1
. "$top_srcdir/tests/cli/readme_walkthrough.sh"
