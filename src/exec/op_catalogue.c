/* The op catalogue table (op_catalogue.h). */
#include "exec/op_catalogue.h"

#include "exec/op_isa.h"
#include "exec/program.h"
#include "ir/resolve.h"

#include <stdio.h>

int exec_op_implemented(const op_fn *table, int op)
{
    return (op >= 0 && op < IR_OP_COUNT && table[op]) || exec_program_runs_op(op);
}

void exec_op_catalogue_print(strbuf *out)
{
    op_fn table[IR_OP_COUNT];
    exec_ops_init(table);
    int implemented = 0, ref = 0, tested = 0, by_src[IR_OPSRC_COUNT] = {0}, lowered = 0, isa_checked = 0;
    strbuf_printf(out, "%-34s %-11s %-13s %-3s %-32s %s\n", "OP", "IMPLEMENTED", "SEMANTICS", "REF", "ISA",
                  "TESTED BY");
    for (int op = 0; op < IR_OP_COUNT; op++) {
        const ir_op_info *info = ir_op_info_get(op);
        int impl = exec_op_implemented(table, op);
        const char *state = impl ? "yes" : "no"; /* each "no" for a reason docs/ops.md gives */
        implemented += impl;
        ref += info->ref;
        tested += impl && info->tested_by[0];
        by_src[info->source]++;
        /* the pto-isa instruction and whether the oracle checks the op */
        const char *instr, *unchecked;
        char isa[64] = "-";
        if (exec_op_isa(op, &instr, &unchecked)) {
            snprintf(isa, sizeof isa, "%s %s%s", instr, unchecked ? "unchecked:" : "checked",
                     unchecked ? unchecked : "");
            lowered++;
            isa_checked += !unchecked;
        }
        strbuf_printf(out, "%-34s %-11s %-13s %-3s %-32s %s\n", info->name, state,
                      ir_op_source_name(info->source), info->ref ? "yes" : "no", isa,
                      info->tested_by[0] ? info->tested_by : "-");
    }
    strbuf_printf(out,
                  "%d ops lower to a pto-isa instruction, %d of them checked bit for bit against its CPU "
                  "simulator (tests/data/isa; docs/ops.md).\n",
                  lowered, isa_checked);
    strbuf_printf(out,
                  "%d ops: %d implemented (%d from torch_codegen, %d from pto-isa, %d by hand), "
                  "%d tested; REF handles %d; %d not implemented, each for a reason (docs/ops.md).\n",
                  IR_OP_COUNT, implemented, by_src[IR_OPSRC_TORCH], by_src[IR_OPSRC_ISA],
                  by_src[IR_OPSRC_HAND], tested, ref, IR_OP_COUNT - implemented);
}
