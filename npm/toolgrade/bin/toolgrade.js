#!/usr/bin/env node
// The toolgrade command: runs this machine's binary with the arguments
// given, as npx toolgrade or a package.json script does.

import { spawnSync } from "node:child_process";
import { findBinary } from "../lib/binary.js";

let bin;
try {
  bin = findBinary();
} catch (err) {
  console.error(`toolgrade: ${err.message}`);
  process.exit(2);
}
const r = spawnSync(bin, process.argv.slice(2), { stdio: "inherit", windowsHide: true });
if (r.error) {
  console.error(`toolgrade: cannot start ${bin}: ${r.error.message}`);
  process.exit(2);
}
if (r.signal) process.kill(process.pid, r.signal);
process.exit(r.status ?? 2);
