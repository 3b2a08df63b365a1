// A stand-in for VS Code's `vscode` module, enough to run editors/vscode/
// extension.js outside the editor (tests/dap/extension_check.js): it
// records what the extension registers and lets the test play the editor.
'use strict';
const registered = { factories: {}, trackers: {}, commands: {}, panels: [] };
class DebugAdapterExecutable {
  constructor(command, args) { this.command = command; this.args = args; }
}
const debug = {
  activeDebugSession: null,
  registerDebugAdapterDescriptorFactory(type, f) { registered.factories[type] = f; return { dispose() {} }; },
  registerDebugAdapterTrackerFactory(type, f) { registered.trackers[type] = f; return { dispose() {} }; },
};
const commands = { registerCommand(name, fn) { registered.commands[name] = fn; return { dispose() {} }; } };
const window = {
  createWebviewPanel(id, title, column, options) {
    const panel = {
      id, title, options, revealed: 0, disposeHandlers: [],
      webview: { html: '', cspSource: 'vscode-resource:' },
      reveal() { this.revealed++; },
      onDidDispose(fn) { this.disposeHandlers.push(fn); },
    };
    registered.panels.push(panel);
    return panel;
  },
};
const workspace = { getConfiguration() { return { get() { return undefined; } }; } };
module.exports = { DebugAdapterExecutable, debug, commands, window, workspace, ViewColumn: { Beside: -2 }, _registered: registered };
