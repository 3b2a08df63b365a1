# Example cases (examples/README.md) and their generator. The .npy data is
# committed; scripts/gen_examples.py rewrites the same bytes.
EXAMPLE_FILES = \
	examples/multirank_signals/ranks.txt \
	examples/multirank_signals/data/in/rank0/x.npy \
	examples/multirank_signals/data/in/rank1/x.npy \
	examples/multirank_signals/data/out/rank0/out.npy \
	examples/multirank_signals/data/out/rank1/out.npy \
	examples/multirank_signals/passes_dump/00_frontend.py \
	examples/multirank_signals/passes_dump/01_after_Barrier.py \
	examples/multirank_signals/passes_dump/02_after_Handshake.py \
	examples/memory/README.md \
	examples/memory/ptodb.yaml \
	examples/memory/data/in/a.npy \
	examples/memory/data/in/b.npy \
	examples/memory/data/out/out.npy \
	examples/memory/passes_dump/00_frontend.py \
	examples/memory/passes_dump/32_after_InitMemRef.py \
	examples/memory/passes_dump/33_after_MaterializeSemanticAliases.py \
	examples/memory/passes_dump/34_after_MemoryReuse.py \
	examples/memory/passes_dump/35_after_AllocateMemoryAddr.py \
	examples/memory/passes_dump/36_after_PlantOverlap.py \
	examples/memory/passes_dump/37_after_PlantCapacity.py \
	examples/memory/passes_dump/38_after_PlantMisaligned.py \
	examples/memory/passes_dump/39_after_PlantSmallMemRef.py \
	examples/memory/passes_dump/40_after_PlantScratch.py \
	examples/memory/passes_dump/41_after_PlantSlot.py \
	examples/memory/passes_dump/42_after_PlantInplace.py \
	examples/memory/passes_dump/43_after_PlantStaleCarry.py \
	examples/memory/passes_dump/44_after_PlantLayout.py \
	examples/README.md \
	examples/mlp/ptodb.yaml \
	examples/mlp/passes_dump/00_frontend.py \
	examples/mlp/passes_dump/04_after_ConvertToSSA.py \
	examples/mlp/passes_dump/07_after_FlattenCallExpr.py \
	examples/mlp/passes_dump/09_after_OutlineIncoreScopes.py \
	examples/mlp/passes_dump/11_after_ConvertTensorToTileOps.py \
	examples/mlp/passes_dump/18_after_InferTileMemorySpace.py \
	examples/mlp/passes_dump/22_after_ExpandMixedKernel.py \
	examples/mlp/data/in/x.npy \
	examples/mlp/data/in/norm_w.npy \
	examples/mlp/data/in/w_gate.npy \
	examples/mlp/data/in/w_up.npy \
	examples/mlp/data/in/w_down.npy \
	examples/mlp/data/out/out.npy \
	examples/mlp-broken/BUG.txt \
	examples/mlp-broken/ptodb.yaml \
	examples/mlp-broken/passes_dump/00_frontend.py \
	examples/mlp-broken/passes_dump/04_after_ConvertToSSA.py \
	examples/mlp-broken/passes_dump/07_after_FlattenCallExpr.py \
	examples/mlp-broken/passes_dump/09_after_OutlineIncoreScopes.py \
	examples/mlp-broken/passes_dump/11_after_ConvertTensorToTileOps.py \
	examples/mlp-broken/passes_dump/18_after_InferTileMemorySpace.py \
	examples/mlp-broken/passes_dump/22_after_ExpandMixedKernel.py \
	examples/mlp-broken/data/in/x.npy \
	examples/mlp-broken/data/in/norm_w.npy \
	examples/mlp-broken/data/in/w_gate.npy \
	examples/mlp-broken/data/in/w_up.npy \
	examples/mlp-broken/data/in/w_down.npy \
	examples/mlp-broken/data/out/out.npy \
	examples/deadlock/ptodb.yaml \
	examples/deadlock/passes_dump/00_frontend.py \
	examples/deadlock/passes_dump/22_after_ExpandMixedKernel.py \
	examples/deadlock/data/in/x.npy \
	examples/deadlock/data/in/w.npy \
	examples/deadlock/data/in/bias.npy \
	examples/deadlock/data/out/out.npy \
	examples/spmd/ptodb.yaml \
	examples/spmd/passes_dump/00_frontend.py \
	examples/spmd/passes_dump/10_after_OutlineClusterScopes.py \
	examples/spmd/passes_dump/22_after_ExpandMixedKernel.py \
	examples/spmd/data/in/a.npy \
	examples/spmd/data/in/b.npy \
	examples/spmd/data/out/out.npy
EXTRA_DIST += $(EXAMPLE_FILES) scripts/gen_examples.py scripts/gen_scaled.py

# ptodb --check must accept every example without a diagnostic.
TESTS += tests/cli/examples_check.sh
EXTRA_DIST += tests/cli/examples_check.sh

# scripts/gen_scaled.py's benchmark cases, generated small into a temp folder,
# pass --batch (and a planted miscompile fails).
TESTS += tests/cli/scaled_examples.sh
EXTRA_DIST += tests/cli/scaled_examples.sh
