// Finding the toolgrade binary: the platform package npm installed beside
// this one (an optional dependency, chosen by its os and cpu fields).

import { chmodSync, existsSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { ProcessError } from "./errors.js";

const require = createRequire(import.meta.url);

/** The npm package holding this machine's binary, e.g. `@toolgrade/linux-x64`. */
export function platformPackage() {
  return `@toolgrade/${process.platform}-${process.arch}`;
}

/**
 * The path of the toolgrade binary: `$TOOLGRADE_BINARY`, else the one in
 * this machine's platform package. There is no fallback to a `toolgrade`
 * on PATH, which could be another version than this package's.
 */
export function findBinary() {
  const env = process.env.TOOLGRADE_BINARY;
  if (env) return env;
  const pkg = platformPackage();
  let dir;
  try {
    dir = dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    throw new ProcessError(
      `toolgrade binary not found: the package ${pkg} is not installed. npm installs it with toolgrade ` +
        `as an optional dependency for this platform; install its tarball (${pkg.slice(1).replace("/", "-")}-*.tgz) ` +
        `beside toolgrade's, make sure optional dependencies are not omitted, or set TOOLGRADE_BINARY`,
    );
  }
  const bin = join(dir, "bin", process.platform === "win32" ? "toolgrade.exe" : "toolgrade");
  if (!existsSync(bin)) throw new ProcessError(`toolgrade binary not found: ${pkg} has no ${bin}`);
  if (process.platform !== "win32") {
    // Some package managers drop the execute bit a tarball gives.
    const mode = statSync(bin).mode;
    if ((mode & 0o111) === 0) {
      try {
        chmodSync(bin, mode | 0o755);
      } catch {
        // Starting it reports the error.
      }
    }
  }
  return bin;
}
