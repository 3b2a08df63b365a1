// ptodb --dap driven by @vscode/debugadapter-testsupport's DebugClient, the
// client VS Code's own adapters are tested with. One session on
// examples/mlp-broken, pass 22 (the planted miscompile): a line breakpoint
// hit on a vector core, a tensor read page by page, an expression, a step,
// a data breakpoint on the output hit by both vector lanes, max_abs_diff
// evaluated and checked against the validator's own line at exit.
//
// The values seen are written to $DAP_VALUES (JSON) so that
// tests/cli/dap_client.sh can compare them with the same session typed at
// the REPL (ptodb --nw): the two front ends must agree.
'use strict';
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const { DebugClient } = require('@vscode/debugadapter-testsupport');

const PTODB = process.env.PTODB;
const CASE = path.resolve(process.env.top_srcdir, 'examples/mlp-broken');
const SRC = fs.realpathSync(path.join(CASE, 'passes_dump/22_after_ExpandMixedKernel.py'));
const LAUNCH = { case: CASE, pass: '22_after_ExpandMixedKernel' };
// examples/memory pass 34: b__tile takes a__tile's MemRef while a is live (its README)
const MEMCASE = path.resolve(process.env.top_srcdir, 'examples/memory');
const MEM34 = fs.realpathSync(path.join(MEMCASE, 'passes_dump/34_after_MemoryReuse.py'));
const values = {};

describe('ptodb --dap', function () {
  this.timeout(60000);
  let dc;
  beforeEach(async () => {
    dc = new DebugClient(PTODB, '--dap', 'ptodb');
    dc.defaultTimeout = 20000;
    await dc.start();
  });
  afterEach(async () => {
    await dc.stop();
  });

  it('stops at the planted memory fault of examples/memory and reads it', async () => {
    const init = await dc.initializeRequest({ adapterID: 'ptodb' });
    assert.deepStrictEqual(init.body.exceptionBreakpointFilters.map((f) => f.filter), ['memory', 'deadlock', 'error', 'multirank']);
    assert.strictEqual(init.body.supportsExceptionInfoRequest, true);
    const [, , , stopped] = await Promise.all([
      dc.waitForEvent('initialized').then(() => dc.setExceptionBreakpointsRequest({ filters: ['memory'] }))
        .then(() => dc.configurationDoneRequest()),
      dc.launchRequest({ case: MEMCASE, pass: '34_after_MemoryReuse' }),
      // the add at line 12 read the clobbered bytes; the stop is after it
      dc.assertStoppedLocation('exception', { path: MEM34, line: 13 }),
      dc.waitForEvent('stopped'),
    ]);
    // add_kernel runs on vector lane 0 (a kernel the host calls directly is a
    // task of its own): the stop is on that core's thread
    const tid = stopped.body.threadId;
    const info = (await dc.exceptionInfoRequest({ threadId: tid })).body;
    assert.strictEqual(info.exceptionId, 'clobber');
    assert.match(info.description, /^memory fault: clobber at .*34_after_MemoryReuse\.py:12:110 in add_kernel$/);
    assert.match(info.details.message, /tile: {3}a__tile \(MemRef mem_vec_1, bytes \[0, 4096\) of buffer mem_vec_1 in Vec\), defined at 10:9/);
    assert.match(info.details.message, /wrote: {2}b__tile \(MemRef mem_vec_1, bytes \[0, 4096\)/);
    // the device read b twice (a's bytes were b's): the sum over mem_vec_1 is
    // 2 b exactly, the bytes of b's .npy data doubled (fp32 doubling is exact)
    const top = (await dc.stackTraceRequest({ threadId: tid })).body.stackFrames[0];
    const scopes = (await dc.scopesRequest({ frameId: top.id })).body.scopes;
    const vars = (await dc.variablesRequest({ variablesReference: scopes[0].variablesReference })).body.variables;
    const s = vars.find((v) => v.name === 's__tile');
    assert.strictEqual(s.memoryReference, 'aiv0/Vec/0x0');
    const mem = (await dc.customRequest('readMemory', { memoryReference: s.memoryReference, count: 4096 })).body;
    const got = Buffer.from(mem.data, 'base64');
    const npy = fs.readFileSync(path.join(MEMCASE, 'data/in/b.npy'));
    const b = npy.subarray(10 + npy.readUInt16LE(8));
    assert.strictEqual(got.length, 4096);
    for (let i = 0; i < 1024; i++) assert.strictEqual(got.readFloatLE(4 * i), 2 * b.readFloatLE(4 * i), `element ${i}`);
    // the run goes on after a memory fault: to the pass's MEMFAULT verdict
    await Promise.all([dc.continueRequest({ threadId: 1 }), dc.waitForEvent('terminated')]);
  });

  it('rejects an unknown request and still initializes', async () => {
    await assert.rejects(dc.customRequest('noSuchRequest'), /not supported/);
    const init = await dc.initializeRequest({ adapterID: 'ptodb', supportsVariablePaging: true });
    assert.strictEqual(init.body.supportsStepBack, true); // stepBack and reverseContinue replay from a checkpoint
    assert.strictEqual(init.body.supportsDataBreakpoints, true);
  });

  it('debugs pass 22 of mlp-broken like the REPL', async () => {
    const outputs = [];
    dc.on('output', (e) => outputs.push(e.body.output));
    await dc.hitBreakpoint(LAUNCH, { path: SRC, line: 50 });

    // the threads are the cores, with stable ids
    const threads = (await dc.threadsRequest()).body.threads;
    assert.deepStrictEqual(threads.map((t) => t.id), [1, 2, 3, 4]);
    assert.deepStrictEqual(threads.map((t) => t.name.split(' ')[0]), ['host', 'aic', 'aiv0', 'aiv1']);

    // hit on a vector core (AIV0 = thread 3 reaches line 50 first)
    const st = await dc.stackTraceRequest({ threadId: 3 });
    const frame = st.body.stackFrames[0];
    assert.strictEqual(frame.line, 50);
    assert.strictEqual(frame.name, 'mlp_fused_aiv');

    const scopes = (await dc.scopesRequest({ frameId: frame.id })).body.scopes;
    const locals = (await dc.variablesRequest({ variablesReference: scopes[0].variablesReference })).body.variables;
    const x = locals.find((v) => v.name === 'x__tile');
    assert.ok(x, 'x__tile in Locals');
    assert.match(x.type, /^fp32 \[8, 64\]/);
    assert.strictEqual(x.indexedVariables, 8);

    // dim 0 page by page (3 + 3 + 2 rows), then row 0 in pages of 16
    const rows = [];
    for (let start = 0; start < 8; start += 3) {
      const page = (await dc.variablesRequest({ variablesReference: x.variablesReference, filter: 'indexed', start, count: 3 })).body.variables;
      assert.strictEqual(page.length, Math.min(3, 8 - start));
      assert.strictEqual(page[0].name, `[${start}]`);
      rows.push(...page);
    }
    assert.strictEqual(rows.length, 8);
    assert.strictEqual(rows[0].indexedVariables, 64);
    const row0 = [];
    for (let start = 0; start < 64; start += 16) {
      const page = (await dc.variablesRequest({ variablesReference: rows[0].variablesReference, filter: 'indexed', start, count: 16 })).body.variables;
      assert.strictEqual(page.length, 16);
      row0.push(...page.map((v) => v.value));
    }
    values.x_row0 = row0;
    values.max_abs_x = (await dc.evaluateRequest({ expression: 'max(abs(x__tile))', frameId: frame.id, context: 'watch' })).body.result;
    // hover has no side effect: an assignment is refused
    await assert.rejects(dc.evaluateRequest({ expression: 'x__tile = 0', frameId: frame.id, context: 'hover' }));

    // step one line on the same core
    await dc.setBreakpointsRequest({ source: { path: SRC }, breakpoints: [] });
    await Promise.all([dc.nextRequest({ threadId: 3 }), dc.assertStoppedLocation('step', { path: SRC, line: 51 })]);

    // a data breakpoint on the output tensor, hit by each lane's store
    // (references die when the program runs: ask for the new frame's)
    const frame51 = (await dc.stackTraceRequest({ threadId: 3 })).body.stackFrames[0];
    const scopes51 = (await dc.scopesRequest({ frameId: frame51.id })).body.scopes;
    const info = (await dc.dataBreakpointInfoRequest({ variablesReference: scopes51[0].variablesReference, name: 'out__ssa_v0' })).body;
    assert.strictEqual(info.dataId, 'tensor:out__ssa_v0');
    const set = (await dc.setDataBreakpointsRequest({ breakpoints: [{ dataId: info.dataId, accessType: 'write' }] })).body.breakpoints;
    assert.strictEqual(set[0].verified, true);
    values.max_abs_diff = [];
    for (const lane of [3, 4]) {
      const [, stopped] = await Promise.all([dc.continueRequest({ threadId: 3 }), dc.waitForEvent('stopped')]);
      assert.strictEqual(stopped.body.reason, 'data breakpoint');
      assert.strictEqual(stopped.body.threadId, lane);
      assert.deepStrictEqual(stopped.body.hitBreakpointIds, [set[0].id]);
      const top = (await dc.stackTraceRequest({ threadId: lane })).body.stackFrames[0];
      const mad = (await dc.evaluateRequest({ expression: 'max(abs(out__ssa_v0 - golden.out))', frameId: top.id, context: 'watch' })).body.result;
      values.max_abs_diff.push(mad);
    }

    // the custom requests see the same run
    const slice = (await dc.customRequest('ptodb/tensorSlice', { expression: 'out__ssa_v0[8]', maxBytes: 1000 })).body;
    assert.deepStrictEqual(slice.shape, [64]);
    assert.strictEqual(slice.total, 64);

    // to the end: the pass fails validation, so the exit code is 1
    const [, exited] = await Promise.all([dc.continueRequest({ threadId: 1 }), dc.waitForEvent('exited'), dc.waitForEvent('terminated')]);
    assert.strictEqual(exited.body.exitCode, 1);
    const validate = outputs.join('').match(/validate tensor: 'out', max_abs_diff: ([0-9.e+-]+), pass: False/);
    assert.ok(validate, 'the validator line in the output events');
    // the expression over the whole output after both lanes stored is the
    // validator's max_abs_diff (%.6e there, %g here: 7 and 6 significant
    // digits, so the two agree within half a unit in the 6th digit and half
    // a unit in the 7th)
    const decade = Math.pow(10, Math.floor(Math.log10(Math.abs(Number(validate[1])))));
    assert.ok(Math.abs(Number(validate[1]) - Number(values.max_abs_diff[1])) <= 5.5e-6 * decade + 1e-12,
      `validator ${validate[1]} vs evaluate ${values.max_abs_diff[1]}`);
    values.validator = validate[1];
    const passes = (await dc.customRequest('ptodb/passes')).body.passes;
    assert.strictEqual(passes.find((p) => p.stem === '22_after_ExpandMixedKernel').verdict, 'fail');
    if (process.env.DAP_VALUES) fs.writeFileSync(process.env.DAP_VALUES, JSON.stringify(values, null, 1));
  });
});
