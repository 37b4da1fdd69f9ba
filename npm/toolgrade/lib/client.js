// The long-lived `toolgrade serve` process, spoken to in JSON Lines
// (docs/serve.md): one request per line, answered in order, so requests
// are written as they come and each response settles the oldest waiting
// request.

import { spawn } from "node:child_process";
import { findBinary } from "./binary.js";
import { ProcessError } from "./errors.js";
import { encode } from "./json.js";

/** How much of the process's stderr an error quotes. */
const STDERR_TAIL = 4000;

/**
 * One `toolgrade serve` process. Requests may be sent concurrently; the
 * process answers them in order and grades the cases of each in parallel.
 * A process that dies fails the requests it was serving with a
 * ProcessError and is started again on the next request. An idle process
 * does not keep Node running.
 */
export class Client {
  #binary;
  #workers;
  #proc = null; // the running process's state, or null
  #started = 0;

  /**
   * @param {{binary?: string, workers?: number}} [options] `binary`: the
   *   toolgrade binary (default: $TOOLGRADE_BINARY, else the platform
   *   package's); `workers`: cases graded at once (default: one per CPU).
   */
  constructor({ binary, workers } = {}) {
    this.#binary = binary;
    this.#workers = workers;
  }

  /** How many times the process was started again after it died. */
  get restarts() {
    return Math.max(0, this.#started - 1);
  }

  /** The process id of the running process, if one runs. */
  get pid() {
    return this.#proc?.child.pid;
  }

  #start() {
    const bin = this.#binary ?? findBinary();
    const args = ["serve"];
    if (this.#workers) args.push("--workers", String(this.#workers));
    const child = spawn(bin, args, { stdio: ["pipe", "pipe", "pipe"], windowsHide: true });
    const state = { child, bin, pending: [], chunks: [], stderr: "", dead: false, spawned: false };
    this.#started++;
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stdout.on("data", (chunk) => this.#read(state, chunk));
    child.stderr.on("data", (chunk) => {
      state.stderr = (state.stderr + chunk).slice(-STDERR_TAIL);
    });
    child.stdin.on("error", () => {}); // a closed pipe: the exit below reports it
    child.on("error", (err) => this.#die(state, `cannot start the toolgrade binary ${bin}: ${startError(err)}`, err, !state.spawned));
    child.on("spawn", () => { state.spawned = true; });
    // Once the process exited and its output was read to the end (the
    // answers it gave are delivered, stderr is whole), the requests left
    // fail. Its input may stay open on our side: it is not waited for.
    let exit = null;
    let open = 2;
    const ended = () => {
      if (exit !== null && open === 0) this.#die(state, exit);
    };
    child.stdout.on("close", () => { open--; ended(); });
    child.stderr.on("close", () => { open--; ended(); });
    child.on("exit", (code, signal) => {
      exit = exitText(code, signal);
      child.stdin.destroy();
      ended();
    });
    this.#idle(state);
    return state;
  }

  #read(state, chunk) {
    let start = 0;
    for (let nl = chunk.indexOf("\n"); nl >= 0; nl = chunk.indexOf("\n", start)) {
      state.chunks.push(chunk.slice(start, nl));
      const line = state.chunks.join("");
      state.chunks = [];
      start = nl + 1;
      const waiting = state.pending.shift();
      if (!waiting) continue;
      try {
        waiting.resolve(JSON.parse(line));
      } catch (err) {
        waiting.reject(new ProcessError(`the toolgrade process answered with a line that is not JSON: ${line.slice(0, 200)}`, { cause: err }));
      }
    }
    if (start < chunk.length) state.chunks.push(chunk.slice(start));
    if (state.pending.length === 0) this.#idle(state);
  }

  // #die fails the requests waiting on a process that ended; notStarted
  // says it never ran, which why then says alone.
  #die(state, why, cause, notStarted = false) {
    if (state.dead) return;
    state.dead = true;
    if (this.#proc === state) this.#proc = null;
    const detail = state.stderr.trim();
    const message = notStarted ? why : `the toolgrade process died while serving a request (${why})${detail ? ": " + detail : ""}`;
    for (const p of state.pending.splice(0)) {
      p.reject(new ProcessError(message, cause ? { cause } : undefined));
    }
  }

  // An idle process must not keep Node's event loop alive; a busy one
  // must, until its answers arrive.
  #idle(state) {
    state.child.unref();
    state.child.stdout.unref?.();
    state.child.stderr.unref?.();
    state.child.stdin.unref?.();
  }

  #busy(state) {
    state.child.ref();
    state.child.stdout.ref?.();
    state.child.stderr.ref?.();
  }

  /**
   * Sends one request (an object with "op", see docs/serve.md) and
   * resolves to its response.
   * @param {object} req
   * @returns {Promise<any>}
   */
  request(req) {
    let line;
    try {
      line = encode(req, "request");
    } catch (err) {
      return Promise.reject(err);
    }
    return this.requestText(line);
  }

  /**
   * Sends one request given as JSON text (one line) and resolves to its
   * response.
   * @param {string} line
   * @returns {Promise<any>}
   */
  requestText(line) {
    let state;
    try {
      state = this.#proc ??= this.#start();
    } catch (err) {
      return Promise.reject(err);
    }
    return new Promise((resolve, reject) => {
      state.pending.push({ resolve, reject });
      this.#busy(state);
      state.child.stdin.write(line + "\n");
    });
  }

  /**
   * Ends the process: closes its input and waits for it to exit (it is
   * started again if the client is used after).
   */
  async close() {
    const state = this.#proc;
    if (!state) return;
    this.#proc = null;
    const exited = new Promise((resolve) => {
      if (state.child.exitCode !== null || state.child.signalCode !== null) resolve();
      else state.child.once("exit", () => resolve());
    });
    this.#busy(state); // wait for it, idle as it is
    state.child.stdin.end();
    const timer = setTimeout(() => state.child.kill(), 5000);
    timer.unref();
    await exited;
    clearTimeout(timer);
  }
}

// startError says why a binary could not be started, in words.
function startError(err) {
  switch (err.code) {
    case "ENOENT":
      return "no such file (set TOOLGRADE_BINARY, or install the platform package)";
    case "EACCES":
      return "permission denied (is it executable?)";
  }
  return err.message;
}

function exitText(code, signal) {
  return signal ? `killed by ${signal}` : `exit status ${code}`;
}

let shared = null;

/** The client the module-level functions share. */
export function defaultClient() {
  shared ??= new Client();
  return shared;
}
