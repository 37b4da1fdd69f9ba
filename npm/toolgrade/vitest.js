// Registers toolgrade's matchers with Vitest: `import "toolgrade/vitest"`
// in a test file or in Vitest's setupFiles.

import { expect } from "vitest";
import { matchers } from "./matchers.js";

expect.extend(matchers);
