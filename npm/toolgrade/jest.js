// Registers toolgrade's matchers with Jest: list "toolgrade/jest" in
// setupFilesAfterEnv (Jest loads this ES module with
// NODE_OPTIONS=--experimental-vm-modules). Jest's `expect` is a global
// there.

import { matchers } from "./matchers.js";

if (typeof globalThis.expect?.extend !== "function") {
  throw new Error("toolgrade/jest: no global expect with extend(); list toolgrade/jest in Jest's setupFilesAfterEnv, or use toolgrade/vitest under Vitest");
}
globalThis.expect.extend(matchers);
