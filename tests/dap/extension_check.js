// editors/vscode/extension.js run against a stand-in `vscode` module
// (vscode-stub/) and a fake debug session answering ptodb/passes and
// ptodb/heatmap with the replies a real ptodb --dap session gave
// (DATA.json, written by webview_data.py): the extension registers the
// ptodb adapter as `ptodb --dap`, opens its view on the command, and
// redraws it from both custom requests at each stopped event.
// usage: NODE_PATH=tests/dap/vscode-stub node extension_check.js EXTDIR DATA.json
'use strict';
const assert = require('assert');
const path = require('path');
const fs = require('fs');
const vscode = require('vscode');
const ext = require(path.resolve(process.argv[2], 'extension.js'));
const { renderHtml } = require(path.resolve(process.argv[2], 'webview.js'));
const data = JSON.parse(fs.readFileSync(process.argv[3], 'utf8'));
const reg = vscode._registered;

(async () => {
  const subs = [];
  ext.activate({ subscriptions: subs });
  assert.ok(subs.length >= 4);
  const exe = reg.factories.ptodb.createDebugAdapterDescriptor({ type: 'ptodb' });
  assert.ok(exe instanceof vscode.DebugAdapterExecutable);
  assert.deepStrictEqual([exe.command, exe.args], ['ptodb', ['--dap']]);

  const asked = [];
  const session = {
    type: 'ptodb',
    async customRequest(cmd, args) {
      asked.push(cmd);
      if (cmd === 'ptodb/passes') return data.passes;
      if (cmd === 'ptodb/heatmap') { assert.strictEqual(args.output, 0); return data.heatmap; }
      throw new Error('unexpected ' + cmd);
    },
  };
  vscode.debug.activeDebugSession = session;
  reg.commands['ptodb.showHeatmap']();
  await new Promise((r) => setTimeout(r, 50));
  assert.strictEqual(reg.panels.length, 1);
  const panel = reg.panels[0];
  assert.strictEqual(panel.options.enableScripts, false);
  assert.deepStrictEqual(asked, ['ptodb/passes', 'ptodb/heatmap']);
  assert.strictEqual(panel.webview.html, renderHtml(data.passes, data.heatmap, { cspSource: 'vscode-resource:' }));

  // a stopped event redraws; another message does not
  const tracker = reg.trackers.ptodb.createDebugAdapterTracker(session);
  panel.webview.html = '';
  tracker.onDidSendMessage({ type: 'event', event: 'output', body: {} });
  await new Promise((r) => setTimeout(r, 50));
  assert.strictEqual(panel.webview.html, '');
  tracker.onDidSendMessage({ type: 'event', event: 'stopped', body: { reason: 'step', threadId: 3 } });
  await new Promise((r) => setTimeout(r, 50));
  assert.ok(panel.webview.html.includes('<svg id="heat"'), 'redrawn at the stop');
  assert.strictEqual(asked.length, 4);

  // the same command again reuses the panel
  reg.commands['ptodb.showPasses']();
  assert.strictEqual(reg.panels.length, 1);
  console.log('extension: adapter, view and redraw at stops as expected');
})().catch((e) => { console.error(e); process.exit(1); });
