// The errors toolgrade throws. Every one is a ToolgradeError, so that a
// caller can tell toolgrade's failures from its own.

/** The base class of every toolgrade error. */
export class ToolgradeError extends Error {
  constructor(message, options) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A metric config was rejected; `field` names the option at fault. */
export class ConfigError extends ToolgradeError {
  constructor(message, { field } = {}) {
    super(message);
    this.field = field;
  }
}

/**
 * A case could not be read: `caseId`, `index` (its place in the input) and
 * `field` (such as `expected_tools[1].name`) say where.
 */
export class CaseError extends ToolgradeError {
  constructor(message, { caseId, index, field } = {}) {
    super(message);
    this.caseId = caseId;
    this.index = index;
    this.field = field;
  }
}

/** A metric could not score a case, as the peer it reproduces throws. */
export class MetricError extends ToolgradeError {
  constructor(message, { caseId } = {}) {
    super(message);
    this.caseId = caseId;
  }
}

/**
 * The toolgrade process could not be started, or died while serving a
 * request (it is started again for the next one).
 */
export class ProcessError extends ToolgradeError {}
