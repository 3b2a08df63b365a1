# The seed inputs of each harness, relative to the source tree: files and
# folders of our own (examples/, test data, tests/fuzz/seeds/<harness>/).
# tests/fuzz/corpus/<harness>/ is the committed corpus: inputs of longer
# `make fuzz` runs that reached code the seeds do not (`make fuzz-merge`).
# (Not "seeds.sh": make's built-in rule would build a file tests/fuzz/seeds
# from it in the build folder, and `make dist` would ship that file instead
# of the seeds folder.) Sourced by scripts/fuzz (which copies them into the build folder as
# libFuzzer's seed corpus) and tests/fuzz/replay.sh (which replays them).
FUZZ_HARNESSES="ir zip pickle pt npy manifest repl session interp reduce dap dapwire ranks sched schedfile rankprog ranktrace"

# fuzz_seeds HARNESS: prints its seed paths, one per line.
fuzz_seeds() {
    case $1 in
    ir) echo examples/mlp/passes_dump; echo examples/deadlock/passes_dump; echo examples/spmd/passes_dump
        echo examples/memory/passes_dump
        echo tests/data/malformed; echo tests/data/xcore ;;
    zip) echo tests/data/bad/pt; echo tests/fuzz/seeds/pt ;;
    pt) echo tests/data/bad/pt ;;
    pickle) ;;
    npy) echo examples/mlp/data/in; echo examples/deadlock/data/in; echo tests/data/bad/npy ;;
    manifest) echo examples/mlp/ptodb.yaml; echo examples/deadlock/ptodb.yaml
        for f in tests/data/bad/yaml/*.yaml; do echo "$f"; done ;;
    repl) for f in tests/transcripts/*.cmd; do echo "$f"; done ;;
    session) ;;
    interp) echo examples/mlp/passes_dump; echo examples/mlp-broken/passes_dump; echo examples/memory/passes_dump ;;
    reduce) echo examples/mlp/passes_dump; echo examples/mlp-broken/passes_dump; echo tests/data/xcore ;;
    dap) ;;
    dapwire) echo tests/fuzz/seeds/dap ;;
    ranks) echo tests/data/multirank/order_2397/ranks.txt ;;
    sched) ;;
    schedfile) ;;
    rankprog) for d in tests/data/multirank/*/passes_dump examples/multirank_*/passes_dump; do echo "$d"; done ;;
    ranktrace) for d in tests/data/multirank/*/passes_dump; do echo "$d"; done ;;
    esac
    echo "tests/fuzz/seeds/$1"
    echo "tests/fuzz/corpus/$1"
}
