/* The two semantics a pass runs under, and the one table of every place
 * where they differ. `device` (the default) computes what PyPTO's runtime
 * and the PTO instruction set compute; `ref` is PyPTO's PyTorch reference
 * (torch_codegen + validate_pass_ir_codegen_results), bugs included. The
 * table drives --list-semantics, `info semantics`, docs/semantics-device.md
 * (checked by tests/cli/semantics_documented.sh) and the "REF differs
 * here" notes a run makes under `device`. */
#ifndef PTODB_EXEC_SEMANTICS_H
#define PTODB_EXEC_SEMANTICS_H

struct strbuf;

typedef enum { EXEC_SEM_DEVICE = 0, EXEC_SEM_REF = 1 } exec_semantics;

/* X(ID, name, ops, device, ref, ref_fails, source)
 *   ref_fails: 1 when REF raises there (the file is one REF cannot run),
 *   0 when REF runs it and computes something else. */
#define EXEC_SEMDIFF_LIST(X)                                                                        \
    X(SPMD, "spmd-blocks",                                                                          \
      "tile.get_block_idx, tile.get_block_num, tensor.get_block_idx, pl.spmd(N), core_num=N",       \
      "every block of the launch runs, block 0 to N-1 (--schedule random:SEED: a seeded order); "   \
      "get_block_idx is the running block, get_block_num the launch width",                         \
      "one block: get_block_idx is 0 and get_block_num 1, so only block 0's part is computed", 0,  \
      "pypto docs/en/dev/codegen/00-pto_codegen.md:780-830 (SPMD identity parameters); "            \
      "docs/en/dev/ir/01-hierarchy.md:171,210 (core_num_ of Submit / SpmdScopeStmt); REF: "        \
      "python/pypto/debug/torch_codegen.py:1068 (get_block_idx is \"0\")")               \
    X(VALID_SHAPE, "valid-shape",                                                                   \
      "every tile op whose result type has TileView(valid_shape=...); tile.store; the tile "        \
      "row/col reductions",                                                                         \
      "a result tile has the valid shape its type declares; a store writes the valid region only, " \
      "and a reduction reads it only",                                                              \
      "an op's result loses the valid shape (a plain torch tensor), so a store writes the whole "   \
      "tile, padding included; a reduction reads the padding too", 0,                               \
      "pto-isa docs/isa/tile/ops/*: 'The op uses dst.GetValidRow() / dst.GetValidCol() as the "     \
      "iteration domain'; memory-and-data-movement/tstore.md:18,122 (the transfer is "          \
      "GetValidRow x GetValidCol); reduce-and-expand/trowsum.md:14")                         \
    X(CMP_MASK, "cmp-mask", "tile.cmp, tile.cmps, tile.sel",                                        \
      "the result is the packed predicate tile the type declares (UINT8, bit k of byte j of a "     \
      "row is column 8j+k, row-major over the source's columns); tile.sel reads those bits",         \
      "a bool tensor of the source's shape, which fails check_shapes against the UINT8 mask type", \
      1,                                                                                            \
      "pto-isa include/pto/cpu/TCmps.hpp:56-100 (packing), include/pto/cpu/TSel.hpp:21-45 "          \
      "(reading), docs/isa/tile/ops/tile-scalar-and-immediate/tcmps.md (A2/A3: uint8, 8 per byte)")  \
    X(SCATTER_INDEX, "scatter-index", "tensor.scatter_update, tile.scatter_update",                 \
      "a 2-D index [b, s] scatters whole rows: row index.flat[k] of input becomes row k of src "      \
      "(input 2-D [rows, d] or 4-D [blocks, block_size, 1, d]); any integer index dtype",            \
      "input.scatter_(-2, index.expand_as(src), src): an index that does not expand to src's "       \
      "shape raises (and an index that is not int64)", 1,                                            \
      "pypto python/pypto/ir/op/tensor_ops.py:1964-1980; docs/en/dev/passes/"                        \
      "10-convert_tensor_to_tile_ops.md:156-166 (whole-row scatter, dim=-2)")                         \
    X(MEMORY, "memory", "every tile from InitMemRef on (pl.MemRef, pl.tile.alloc)",                   \
      "a tile lives at its MemRef's bytes of its core's memory: a write changes every tile on those " \
      "bytes, a read sees them, and the sanitizer reports clobber, uninit, bounds and slot faults "    \
      "(--memcheck, docs/memory.md)",                                                                 \
      "a MemRef is a name: two tiles given one buffer stay apart (--semantics=ref implies "           \
      "--memcheck=off)", 0,                                                                           \
      "pypto src/backend/common/soc.cpp:124-139,166-183 (capacities); "                              \
      "memory_allocator_policy.h:86-88 (alignment); docs/memory.md")                                   \
    X(SUBMIT, "submit", "pl.submit, pl.spmd_submit (deps=, core_num=)",                             \
      "the task runs as the runtime runs it once its dependencies are done (submission order is "   \
      "one such order); the result is the callee's outputs and the task's TaskId; two tasks of a "  \
      "manual scope touching one global element, one writing, with no deps= chain between them, "   \
      "are a race and stop the run",                                                                \
      "torch_codegen has no visitor for Submit: codegen fails", 1,                                  \
      "pypto docs/en/dev/ir/01-hierarchy.md:76,171-173 (Submit vs Call); "                          \
      "docs/en/dev/language/02-manual_dependencies.md:13-25 (manual scopes order by deps= only); "   \
      "simpler's PTO2TaskId")                                                                       \
    X(SLICE_DROP_DIMS, "slice-drop-dims", "tensor.slice (5th argument, drop_dims)",                 \
      "the listed unit axes are erased from the result, as its type says",                          \
      "the 5th argument is ignored: the result keeps them, which fails check_shapes", 1,             \
      "pypto src/ir/op/tensor_ops/memory.cpp:150-214 (tensor.slice drop_dims)")                      \
    X(SCALAR_CAST, "scalar-cast", "pl.cast of a Python number (a loop index, a host scalar)",     \
      "a scalar of the target dtype", "number.to(dtype): AttributeError", 1,                        \
      "pypto python/pypto/debug/torch_codegen.py (cast is .to on a tensor); the device's scalar "   \
      "conversion")                                                                             \
    X(PAD_VALUE, "pad-value", "tile.fillpad, tile.fillpad_expand, tile.fillpad_inplace (pad_value=)", \
      "PadValue.min/max is -inf/+inf on a float tile (FP32, FP16, BF16), the type's extremes on an "  \
      "integer tile (0 for an unsigned Min), and 0 on a 64-bit integer tile",                        \
      "the finite extremes (torch.finfo/iinfo): +-3.4028235e38 on FP32, +-65504 on FP16", 0,         \
      "pto-isa cd4a3d3f include/pto/common/constants.hpp:281-420 (PadValueMap: float Min "          \
      "0xff800000, Max 0x7f800000; half 0xfc00/0x7c00; bf16 0xff80/0x7f80; int64 0)")                    \
    X(CHECK_SHAPES, "check-shapes", "every assignment and parameter with a Tensor/Tile type",        \
      "no check: a buffer is what its type says; a value of another shape with as many elements "  \
      "is seen in the declared shape, on the same bytes (a view of it reads its source's), "     \
      "a same-width signed integer as the unsigned type declared, "                                \
      "another dtype converted; only the outputs' comparison with golden is a verdict",            \
      "check_shapes asserts each value's shape and dtype against its annotation and raises "      \
      "AssertionError", 1,                                                                           \
      "pypto python/pypto/debug/torch_codegen.py:1460-1510 (check_shapes' assertions), :28-43 "   \
      "(_DTYPE_MAP: uint16/uint32 held as int32/int64), :1715 (the validator turns them on); "      \
      "the device has no such check: a tile's buffer comes from its type; FoldNoOpReshape's "      \
      "`lhs = src` keeps one MemRef (pypto src/ir/transforms/fold_no_op_reshape_pass.cpp:37-73)")                                                     \
    X(CUBE_FP32, "cube-accumulation", "tile.matmul/_acc/_bias, batch_matmul, gemv; tensor.matmul with out_dtype=FP32 " \
      "or an FP32 accumulator (BF16 or FP16 operands)",                                             \
      "the cube multiplies and accumulates in FP32 (L0C): the FP32 result is the dot product "      \
      "rounded once to FP32, never to the operands' dtype",                                          \
      "torch.matmul of the BF16/FP16 operands returns their dtype: every element rounded to "       \
      "BF16/FP16, then .float()", 0,                                                                 \
      "pto-isa cd4a3d3f include/pto/cpu/TMatmul.hpp:26-32 (half/bf16 operands, float accumulator), " \
      ":61-74 (per element an FP32 sum from 0 in k order, fma, then acc + sum); an FP32 matmul is "  \
      "that fma chain too, over the operands' valid M, K, N (tests/data/isa/matmul.txt)")             \
    X(INT_MATMUL, "int-matmul", "tile.matmul/_acc/_bias, tensor.matmul/_acc of INT8 operands",          \
      "the cube multiplies INT8 operands and accumulates in INT32 (L0C): the sum is exact",        \
      "torch.matmul of int8 tensors returns int8: every sum wrapped to INT8, then widened", 0,      \
      "pto-isa cd4a3d3f include/pto/cpu/TMatmul.hpp:28 (s8 operands, int32_t accumulator), "       \
      ":61-74 (the sum in the accumulator's type)")                                                 \
    X(CAST_ROUNDING, "cast-rounding", "tile.cast (mode=) of a float tile to an integer dtype",      \
      "TCVT rounds by the mode: none/trunc truncate, rint ties to even, round (PyPTO's default) "    \
      "ties away from zero, floor, ceil, odd",                                                      \
      "tensor.to(dtype) truncates whatever the mode", 0,                                           \
      "pto-isa cd4a3d3f include/pto/cpu/TCvt.hpp:75-105 (applyRoundingToIntegral), :192-212; "    \
      "pypto python/pypto/ir/op/tile_ops.py:1695-1722 (mode defaults to round); "                  \
      "tests/data/isa/cast.txt")                                                                    \
    X(SCALAR_DTYPE, "scalar-dtype", "tile.adds, subs, muls, divs, maximums, minimums, lrelu on FP16/BF16", \
      "the scalar is rounded to the tile's dtype first (the instruction takes it as that dtype)",   \
      "the Python float stays in the float opmath: tile * 0.1 multiplies by 0.1f", 0,               \
      "pto-isa cd4a3d3f include/pto/cpu/TBinSOps.hpp:154-200 (typename TileSrc::DType scalar); "    \
      "tests/data/isa/scalar.txt")                                                                  \
    X(INT_REDUCTION, "int-reduction-dtype", "tile.row_sum, row_prod, col_sum, col_prod of an integer tile", \
      "the result keeps the tile's dtype: the sum wraps in INT32/INT16",                            \
      "torch's sum of an integer tensor is INT64", 0,                                              \
      "pto-isa cd4a3d3f include/pto/cpu/TRowSum.hpp:18-40, tile_offsets.hpp:25 (TypeSum); "        \
      "tests/data/isa/reduce.txt")                                                                  \
    X(PART_VALID, "part-valid", "tile.part_add, part_mul, part_max, part_min",                       \
      "the op where both sources are valid; where only src0 is (src1's valid region is smaller), "  \
      "src0's element",                                                                              \
      "torch.add/mul/maximum/minimum of the whole tiles: src1's padding enters the result", 0,      \
      "pto-isa cd4a3d3f include/pto/cpu/TPartOp.hpp:19-40 (TPartInstr), "                           \
      "docs/isa/tile/ops/irregular-and-complex/tpartadd.md:7-24; tests/data/isa/partreduce.txt")          \
    X(FMOD_EXACT, "fmod-exact", "tile.fmod, fmods, rem, rems; tensor.fmod, fmods (FP32, FP16, BF16)", \
      "the exact fmod (the floored remainder from it for rem), whatever the quotient",              \
      "torch's vectorised SLEEF fmodf: NaN where |x / y| passes FLT_MAX (3.4e38 % 1e-3)", 0,         \
      "pto-isa cd4a3d3f include/pto/cpu/ElementOp.h:199-213,307-318,444-457,522-531 (std::fmod "    \
      "in double); tests/data/isa/remfmod.txt")                                                     \
    X(SUBC_SIGN, "subc-sign", "tile.subc, tile.subsc",                                                \
      "src0 - src1 + src2 (TSUBC), src0 - scalar + src1 (TSUBSC), as the ISA defines them",        \
      "src0 - src1 - src2, as PyPTO's docstring says (python/pypto/ir/op/tile_ops.py:1346-1361)", 0, \
      "pto-isa cd4a3d3f docs/isa/tile/ops/elementwise-tile-tile/tsubc.md:7-15, "                     \
      "include/pto/cpu/ElementOp.h:397-399 (OP_SUBC), :561-563 (OP_SUBCS); the a2a3/a5 NPU trees "  \
      "have no TSUBC at this commit; REF: python/pypto/debug/torch_codegen.py:1098,1100; "           \
      "tests/data/isa/fill.txt")                                                                     \
    X(RSQRT_ROUNDING, "rsqrt-rounding", "tile.rsqrt, tensor.rsqrt (FP32, FP16)",                    \
      "1 / sqrt(x) computed in double and rounded once to the dtype",                              \
      "torch.rsqrt: the root rounded to the opmath float, then the reciprocal rounded again", 0,   \
      "pto-isa cd4a3d3f include/pto/cpu/ElementOp.h:366-371 (OP_RSQRT); tests/data/isa/unary.txt")  \
    X(ND_PARTITION, "nd-partition",                                                                 \
      "tile.load of a rank>2 window into a 2-D tile (FlattenTileNdTo2D); tile.store with its "      \
      "shapes operand, or of a lower-rank tile, into a rank>2 tensor; tensor.assemble of a "        \
      "lower-rank source into one",                                                                 \
      "the transfer goes through a partition of the tensor's rank at its strides: the shapes "      \
      "operand, else [1, .., 1] + the source's shape (a load: its valid window); tile column c is " \
      "the last axis, row r the leading axes in row-major order, so a load's 2-D tile holds the "   \
      "window's valid rows packed, and a [6, 8] tile stored at [0, 0, 0] of a [2, 3, 8] tensor "    \
      "fills all of it",                                                                            \
      "_tile_load keeps the window's rank (check_shapes raises on the 2-D type); _tile_store and "  \
      "_assemble pair the offsets with the source's shape over the leading axes and ignore the "    \
      "shapes operand: another region is written (the tile broadcast), or RuntimeError: the "       \
      "expanded size must match", 0,                                                                \
      "pypto src/backend/common/pto_ops_memory.cpp:129-137,195-212 (partition_view sizes); "        \
      "src/ir/transforms/flatten_tile_nd_to_2d/rewrite.cpp:666-700,811-828; "                       \
      "docs/en/dev/passes/36-fuse_create_assemble_to_slice.md:45; pto-isa cd4a3d3f "                \
      "include/pto/cpu/tile_offsets.hpp:169-186, TStore.hpp:62-75, TLoad.hpp:152-158")               \
    X(KERNEL_DISPATCH, "kernel-dispatch",                                                            \
      "a call of a Group function; a call of an AIC or AIV function from orchestration",            \
      "a Group launches its first AIC-typed and first AIV-typed callee, whatever their names, with " \
      "the arguments of its first kernel call; an AIC kernel runs on the cube core, an AIV kernel "  \
      "on AIV lane 0, and on both lanes (subblock 0 and 1) when it has dual_aiv_dispatch or "       \
      "split_aiv",                                                                                   \
      "a Group is paired with <group>_aic / <group>_aiv by name: without that pair its body runs "  \
      "in line on one thread (a pop there never returns), and a kernel called directly runs once, " \
      "as lane 0", 0,                                                                                \
      "pypto src/ir/transforms/utils/wrapper_call_utils.cpp:93-125 (FindGroupCallees: by "          \
      "FunctionType), src/codegen/orchestration/orchestration_codegen.cpp:3325-3383 (one "         \
      "MixedKernels task, both kernels given the first inner call's arguments), :2796-2822 "         \
      "(BuildSingleKernelSubmit: dual_aiv_dispatch -> {INVALID, aiv, aiv}, PyPTO #2379), "         \
      "docs/en/dev/codegen/01-orchestration_codegen.md:225-240,270-281; REF: "                      \
      "docs/en/dev/debug/00-torch_codegen.md:190-222 (_build_group_meta pairs by name)")            \
    X(PIPE_ID, "pipe-id", "tpush/tpop/tfree and initialize_pipe with id=",                          \
      "each id is a FIFO of its own: a pop takes the oldest push of its id",                        \
      "id is ignored: every pipe of a kernel pair shares one FIFO per direction and split", 0,       \
      "pypto src/ir/op/tile_ops/cross_core.cpp:455-495 (the id attr), "                              \
      "src/backend/common/pto_ops_crosscore.cpp:178-188 (emitted as the PTO pipe's id); pto-isa "   \
      "cd4a3d3f docs/isa/TPUSH.md:45-48 (TPipe<FlagID, ...>); REF: "                                 \
      "python/pypto/debug/torch_codegen.py:769-787 (push/pop handlers read split only)")            \
    X(NOSPLIT_REPLAY, "no-split-replay",                                                            \
      "an AIV kernel with dual_aiv_dispatch and no split (Ascend910B)",                             \
      "lane 0 runs the body; lane 1 replays it for the pipe handshakes only: its tile.store writes " \
      "nothing and returns the destination, as SplitVectorKernel's lane-1 replay does",              \
      "both lanes run the whole body: every store is made twice (an accumulation into the output " \
      "counts twice)", 0,                                                                            \
      "pypto src/ir/transforms/split_vector_kernel_pass.cpp:58-64 (RequiresNoSplitDualAivSync), "   \
      ":398-456 (BuildNoSplitLane1ReplayStmts: tile.store dropped, tiles valid_shape [0, 0]), "     \
      "docs/en/dev/passes/21-expand_mixed_kernel.md:248-254; pto-isa cd4a3d3f docs/isa/TPUSH.md "   \
      "(A2A3 TILE_NO_SPLIT needs AIV0 and AIV1 in the handshake)")                                  \
    X(SPLIT_WHOLE, "split-kernel-whole",                                                            \
      "an AIV kernel with a split mode (func_attr split or a split= pipe op) that is neither "       \
      "split_aiv nor dual_aiv_dispatch yet (before SplitVectorKernel halves it)",                   \
      "one vector core runs the body over the whole tile: a split pop returns both lanes' halves "  \
      "merged, a split push sends both halves: what the two halved lanes compute together",         \
      "two lanes each run the full-shape body on a half: a lane's half is stored where the whole " \
      "tile goes (lane 1 overwrites lane 0), the other half is never written", 0,                    \
      "pypto src/ir/transforms/split_vector_kernel_pass.cpp:64-80,496-531,667-681 "                  \
      "(ProcessStandaloneSplitFunction: the per-lane halving of a full-shape standalone split "      \
      "kernel), docs/en/dev/passes/23-split_vector_kernel.md")                                       \
    X(SPLIT_AIV_SCOPE, "split-aiv-scope",                                                           \
      "a pl.split_aiv region inside a pl.at(level=CORE_GROUP) or `with pl.spmd(N)` scope of an "   \
      "orchestration, opaque or Inline function; a group whose kernels use several split modes",    \
      "the scope runs on two AIV lanes (subblock 0 and 1), as the InCore function "                  \
      "OutlineIncoreScopes makes of it does (of a pl.spmd scope: one per block); each pipe op keeps " \
      "its own split; an Inline function with such scopes runs in line on its caller's core "       \
      "(InlineFunctions splices it into the caller), not as a split kernel",                        \
      "the region runs once, as lane 0; a group with pipe ops of two split modes fails at codegen", \
      0,                                                                                             \
      "pypto docs/en/dev/passes/99-verifier.md (AivSplitValid (h): a region lives in a CORE_GROUP " \
      "scope, which OutlineIncoreScopes outlines and stamps split_aiv), "                            \
      "src/ir/transforms/outline_incore_scopes_pass.cpp:161-184 (Orchestration bodies carry "       \
      "`pl.spmd` scopes as SpmdScopeStmt(InCoreScopeStmt), outlined the same way: pypto-lib's "     \
      "dspark lm_head's `with pl.spmd(24)` scope becomes the split_aiv InCore lm_head_matmul_push), " \
      "src/ir/transforms/inline_functions_pass.cpp:187-194 (an Inline call is spliced into its "    \
      "caller), "                                                                                    \
      "src/ir/transforms/split_vector_kernel_pass.cpp:646-661 (multi-mode split_aiv: the per-op " \
      "split ints are authoritative); REF: python/pypto/debug/torch_codegen.py "                    \
      "(_build_group_meta: conflicting split kwargs)")

typedef enum {
#define EXEC_SEMDIFF_ENUM(id, name, ops, device, ref, ref_fails, source) EXEC_SEMDIFF_##id,
    EXEC_SEMDIFF_LIST(EXEC_SEMDIFF_ENUM)
#undef EXEC_SEMDIFF_ENUM
    EXEC_SEMDIFF_COUNT
} exec_semdiff;

typedef struct exec_semdiff_info {
    const char *name;
    const char *ops;
    const char *device;
    const char *ref;
    int ref_fails;
    const char *source;
} exec_semdiff_info;

extern const exec_semdiff_info exec_semdiffs[EXEC_SEMDIFF_COUNT];

const char *exec_semantics_name(exec_semantics s);
/* "device" or "ref" (also "reference"); -1 for anything else. */
int exec_semantics_parse(const char *text);
/* The table as text (--list-semantics, `info semantics`): one block per
 * difference. */
void exec_semantics_list(struct strbuf *out);

#endif
