/* The ISA table (op_isa.h). Rows: the op, the instruction PyPTO e2d0f78ae's
 * codegen emits for it (src/backend/common/pto_ops_elementwise.cpp:591-696
 * and its custom handlers, pto_ops_datamove.cpp, pto_ops_crosscore.cpp), and
 * NULL when tests/unit/check_ops_isa_oracle.c checks ptodb's device
 * semantics of the op against pto-isa's CPU simulator, else why not:
 *   sync     the instruction moves data between cores; the simulator's
 *            synchronisation is a no-op (docs/coding/cpu_sim.md)
 *   address  the instruction computes an address, no values: the
 *            simulator's TGET_SCALE_ADDR points the scale tile at the data
 *            tile's own bytes (include/pto/cpu/TGetScaleAddr.hpp:18-23),
 *            the device at the MX scale buffer (src address >> 4,
 *            include/pto/npu/a5/TGetScaleAddr.hpp), so there is nothing
 *            to compare
 *   pending  the simulator implements it; no driver in
 *            scripts/gen_isa_expected yet (none left)
 * BF16 is never checked (the simulator's bfloat16_t is _Float16 without
 * C++23 <stdfloat>): docs/ops.md. */
#include "exec/op_isa.h"

#include <stddef.h>

#include "ir/resolve.h"

static const struct {
    int op;
    const char *instr, *unchecked;
} isa_rows[] = {
    {IR_OP_TILE_ABS, "TABS", NULL},
    {IR_OP_TILE_ADD, "TADD", NULL},
    {IR_OP_TILE_ADDC, "TADDC", NULL},
    {IR_OP_TILE_ADDS, "TADDS", NULL},
    {IR_OP_TILE_ADDSC, "TADDSC", NULL},
    {IR_OP_TILE_AND, "TAND", NULL},
    {IR_OP_TILE_ANDS, "TANDS", NULL},
    {IR_OP_TILE_BATCH_MATMUL, "TMATMUL", NULL},
    {IR_OP_TILE_BATCH_MATMUL_ACC, "TMATMUL_ACC", NULL},
    {IR_OP_TILE_CAST, "TCVT", NULL},
    {IR_OP_TILE_CI, "TCI", NULL},
    {IR_OP_TILE_CMP, "TCMP", NULL},
    {IR_OP_TILE_CMPS, "TCMPS", NULL},
    {IR_OP_TILE_COL_ARGMAX, "TCOLARGMAX", NULL},
    {IR_OP_TILE_COL_ARGMIN, "TCOLARGMIN", NULL},
    {IR_OP_TILE_COL_EXPAND, "TCOLEXPAND", NULL},
    {IR_OP_TILE_COL_EXPAND_ADD, "TCOLEXPANDADD", NULL},
    {IR_OP_TILE_COL_EXPAND_DIV, "TCOLEXPANDDIV", NULL},
    {IR_OP_TILE_COL_EXPAND_EXPDIF, "TCOLEXPANDEXPDIF", NULL},
    {IR_OP_TILE_COL_EXPAND_MAX, "TCOLEXPANDMAX", NULL},
    {IR_OP_TILE_COL_EXPAND_MIN, "TCOLEXPANDMIN", NULL},
    {IR_OP_TILE_COL_EXPAND_MUL, "TCOLEXPANDMUL", NULL},
    {IR_OP_TILE_COL_EXPAND_SUB, "TCOLEXPANDSUB", NULL},
    {IR_OP_TILE_COL_MAX, "TCOLMAX", NULL},
    {IR_OP_TILE_COL_MIN, "TCOLMIN", NULL},
    {IR_OP_TILE_COL_PROD, "TCOLPROD", NULL},
    {IR_OP_TILE_COL_SUM, "TCOLSUM", NULL},
    {IR_OP_TILE_CONCAT, "TCONCAT", NULL},
    {IR_OP_TILE_DIV, "TDIV", NULL},
    {IR_OP_TILE_DIVS, "TDIVS", NULL},
    {IR_OP_TILE_EXP, "TEXP", NULL},
    {IR_OP_TILE_EXPANDS, "TEXPANDS", NULL},
    {IR_OP_TILE_EXTRACT, "TEXTRACT", NULL},
    {IR_OP_TILE_FILLPAD, "TFILLPAD", NULL},
    {IR_OP_TILE_FILLPAD_EXPAND, "TFILLPAD_EXPAND", NULL},
    {IR_OP_TILE_FILLPAD_INPLACE, "TFILLPAD", NULL},
    {IR_OP_TILE_FMOD, "TFMOD", NULL},
    {IR_OP_TILE_FMODS, "TFMODS", NULL},
    {IR_OP_TILE_FULL, "TEXPANDS", NULL},
    {IR_OP_TILE_GATHER, "TGATHER", NULL},
    {IR_OP_TILE_GATHERB, "TGATHERB", NULL},
    {IR_OP_TILE_GEMV, "TGEMV", NULL},
    {IR_OP_TILE_GEMV_ACC, "TGEMV_ACC", NULL},
    {IR_OP_TILE_GEMV_BIAS, "TGEMV_BIAS", NULL},
    {IR_OP_TILE_LOAD, "TLOAD", NULL},
    {IR_OP_TILE_LOG, "TLOG", NULL},
    {IR_OP_TILE_LRELU, "TLRELU", NULL},
    {IR_OP_TILE_MATMUL, "TMATMUL", NULL},
    {IR_OP_TILE_MATMUL_ACC, "TMATMUL_ACC", NULL},
    {IR_OP_TILE_MATMUL_BIAS, "TMATMUL_BIAS", NULL},
    {IR_OP_TILE_MATMUL_MX, "TMATMUL_MX", NULL},
    {IR_OP_TILE_MATMUL_MX_ACC, "TMATMUL_MX", NULL},
    {IR_OP_TILE_MATMUL_MX_BIAS, "TMATMUL_MX", NULL},
    {IR_OP_TILE_MAXIMUM, "TMAX", NULL},
    {IR_OP_TILE_MAXIMUMS, "TMAXS", NULL},
    {IR_OP_TILE_MGATHER, "MGATHER", NULL},
    {IR_OP_TILE_MINIMUM, "TMIN", NULL},
    {IR_OP_TILE_MINIMUMS, "TMINS", NULL},
    {IR_OP_TILE_MOVE, "TMOV", NULL},
    {IR_OP_TILE_MRGSORT_FORMAT1, "TMRGSORT", NULL},
    {IR_OP_TILE_MRGSORT_FORMAT2, "TMRGSORT", NULL},
    {IR_OP_TILE_MSCATTER, "MSCATTER", NULL},
    {IR_OP_TILE_MUL, "TMUL", NULL},
    {IR_OP_TILE_MULS, "TMULS", NULL},
    {IR_OP_TILE_NEG, "TNEG", NULL},
    {IR_OP_TILE_NOT, "TNOT", NULL},
    {IR_OP_TILE_OR, "TOR", NULL},
    {IR_OP_TILE_ORS, "TORS", NULL},
    {IR_OP_TILE_PART_ADD, "TPARTADD", NULL},
    {IR_OP_TILE_PART_MAX, "TPARTMAX", NULL},
    {IR_OP_TILE_PART_MIN, "TPARTMIN", NULL},
    {IR_OP_TILE_PART_MUL, "TPARTMUL", NULL},
    {IR_OP_TILE_PRELU, "TPRELU", NULL},
    {IR_OP_TILE_RANDOM, "TRANDOM", NULL},
    {IR_OP_TILE_RECIP, "TRECIP", NULL},
    {IR_OP_TILE_RELU, "TRELU", NULL},
    {IR_OP_TILE_REM, "TREM", NULL},
    {IR_OP_TILE_REMS, "TREMS", NULL},
    {IR_OP_TILE_RESHAPE, "TRESHAPE", NULL},
    {IR_OP_TILE_ROW_ARGMAX, "TROWARGMAX", NULL},
    {IR_OP_TILE_ROW_ARGMIN, "TROWARGMIN", NULL},
    {IR_OP_TILE_ROW_EXPAND, "TROWEXPAND", NULL},
    {IR_OP_TILE_ROW_EXPAND_ADD, "TROWEXPANDADD", NULL},
    {IR_OP_TILE_ROW_EXPAND_DIV, "TROWEXPANDDIV", NULL},
    {IR_OP_TILE_ROW_EXPAND_EXPDIF, "TROWEXPANDEXPDIF", NULL},
    {IR_OP_TILE_ROW_EXPAND_MAX, "TROWEXPANDMAX", NULL},
    {IR_OP_TILE_ROW_EXPAND_MIN, "TROWEXPANDMIN", NULL},
    {IR_OP_TILE_ROW_EXPAND_MUL, "TROWEXPANDMUL", NULL},
    {IR_OP_TILE_ROW_EXPAND_SUB, "TROWEXPANDSUB", NULL},
    {IR_OP_TILE_ROW_MAX, "TROWMAX", NULL},
    {IR_OP_TILE_ROW_MIN, "TROWMIN", NULL},
    {IR_OP_TILE_ROW_PROD, "TROWPROD", NULL},
    {IR_OP_TILE_ROW_SUM, "TROWSUM", NULL},
    {IR_OP_TILE_RSQRT, "TRSQRT", NULL},
    {IR_OP_TILE_SCATTER, "TSCATTER", NULL},
    {IR_OP_TILE_SEL, "TSEL", NULL},
    {IR_OP_TILE_SELS, "TSELS", NULL},
    {IR_OP_TILE_SHL, "TSHL", NULL},
    {IR_OP_TILE_SHLS, "TSHLS", NULL},
    {IR_OP_TILE_SHR, "TSHR", NULL},
    {IR_OP_TILE_SHRS, "TSHRS", NULL},
    {IR_OP_TILE_SORT32, "TSORT32", NULL},
    {IR_OP_TILE_SQRT, "TSQRT", NULL},
    {IR_OP_TILE_STORE, "TSTORE", NULL},
    {IR_OP_TILE_SUB, "TSUB", NULL},
    {IR_OP_TILE_SUBC, "TSUBC", NULL},
    {IR_OP_TILE_SUBS, "TSUBS", NULL},
    {IR_OP_TILE_SUBSC, "TSUBSC", NULL},
    {IR_OP_TILE_TGET_SCALE_ADDR, "TGET_SCALE_ADDR", "address"},
    {IR_OP_TILE_TPOP_FROM_AIC, "TPOP", "sync"},
    {IR_OP_TILE_TPOP_FROM_AIV, "TPOP", "sync"},
    {IR_OP_TILE_TPUSH_TO_AIC, "TPUSH", "sync"},
    {IR_OP_TILE_TPUSH_TO_AIV, "TPUSH", "sync"},
    {IR_OP_TILE_TRANSPOSE, "TTRANS", NULL},
    {IR_OP_TILE_TRI, "TTRI", NULL},
    {IR_OP_TILE_XOR, "TXOR", NULL},
    {IR_OP_TILE_XORS, "TXORS", NULL},
};

int exec_op_isa(int op, const char **instr, const char **unchecked)
{
    for (size_t k = 0; k < sizeof isa_rows / sizeof isa_rows[0]; k++)
        if (isa_rows[k].op == op) {
            *instr = isa_rows[k].instr;
            *unchecked = isa_rows[k].unchecked;
            return 1;
        }
    return 0;
}
