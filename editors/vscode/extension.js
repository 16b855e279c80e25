// The rulepack extension: the rules language (grammar and configuration in
// package.json) and its language server, `rulepack lsp`, over stdio.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("rulepack").get("command")
    || ["rulepack", "lsp"];
  const server = { command, args };
  client = new LanguageClient("rulepack", "rulepack rules", { run: server, debug: server }, {
    documentSelector: [{ scheme: "file", language: "rules" }, { scheme: "untitled", language: "rules" }],
  });
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
