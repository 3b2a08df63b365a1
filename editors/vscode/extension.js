// The ptodb VS Code extension: runs `ptodb --dap` for debug sessions of type
// "ptodb" and shows a webview with the heat map (ptodb/heatmap) and the
// pass list (ptodb/passes), refreshed at every stop.
'use strict';
const vscode = require('vscode');
const { renderHtml } = require('./webview');

let panel = null;

async function refresh(session) {
  if (!panel || !session || session.type !== 'ptodb') return;
  let passes = null, heat = null;
  try { passes = await session.customRequest('ptodb/passes'); } catch (e) { /* not launched yet */ }
  try { heat = await session.customRequest('ptodb/heatmap', { output: 0, rows: 16, cols: 32 }); } catch (e) { /* no run yet */ }
  panel.webview.html = renderHtml(passes, heat, { cspSource: panel.webview.cspSource });
}

function showPanel() {
  if (!panel) {
    panel = vscode.window.createWebviewPanel('ptodb', 'ptodb', vscode.ViewColumn.Beside, { enableScripts: false });
    panel.onDidDispose(() => { panel = null; });
  }
  panel.reveal();
  refresh(vscode.debug.activeDebugSession);
}

function activate(context) {
  context.subscriptions.push(
    vscode.debug.registerDebugAdapterDescriptorFactory('ptodb', {
      createDebugAdapterDescriptor() {
        const program = vscode.workspace.getConfiguration('ptodb').get('path') || 'ptodb';
        return new vscode.DebugAdapterExecutable(program, ['--dap']);
      },
    }),
    // refresh the view whenever the program stops or ends
    vscode.debug.registerDebugAdapterTrackerFactory('ptodb', {
      createDebugAdapterTracker(session) {
        return {
          onDidSendMessage(m) {
            if (m.type === 'event' && (m.event === 'stopped' || m.event === 'exited' || m.event === 'invalidated')) refresh(session);
          },
        };
      },
    }),
    vscode.commands.registerCommand('ptodb.showHeatmap', showPanel),
    vscode.commands.registerCommand('ptodb.showPasses', showPanel),
  );
}

function deactivate() {}

module.exports = { activate, deactivate };
