import { ChildProcess, spawn, StdioOptions } from 'node:child_process';
import * as fs from 'node:fs';
import { onShutdown } from './shutdown';

/**
 * Stops a child process as a supervisor would: SIGTERM, then SIGKILL if it is still running
 * after `graceMs`; resolves once it has exited (at once if it already had, or never started).
 * With `group`, the signals go to its process group (a detached child and all it started).
 */
export async function terminate(child: ChildProcess, graceMs = 5000, group = false): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    signal(child, 'SIGTERM', group);
    setTimeout(() => {
      if (child.exitCode === null) signal(child, 'SIGKILL', group);
    }, graceMs).unref();
  });
}

function signal(child: ChildProcess, sig: NodeJS.Signals, group: boolean): void {
  if (!group) {
    child.kill(sig);
    return;
  }
  try {
    process.kill(-child.pid!, sig);
  } catch (e) {
    // ESRCH: the group has ended between the check and the signal, which is what was wanted.
    if ((e as NodeJS.ErrnoException).code !== 'ESRCH') throw e;
  }
}

/**
 * Every process group still running, so that none outlives this process: a detached child
 * is not ended with its parent, so a run killed by a signal would otherwise leave them.
 */
const liveGroups = new Set<ChildProcess>();
let exitHooked = false;
function killLiveGroups(): void {
  for (const c of liveGroups) signal(c, 'SIGKILL', true);
  liveGroups.clear();
}
function trackGroup(child: ChildProcess): void {
  liveGroups.add(child);
  child.once('exit', () => liveGroups.delete(child));
  if (exitHooked) return;
  exitHooked = true;
  process.once('exit', killLiveGroups);
  // On a signal the run-wide registry (shutdown.ts) stops each process the ordinary way
  // (WatchedProcess registers there); what is left is killed by the exit hook above.
}

export interface WatchedOptions {
  /** Where its output goes (appended); without one it is kept in memory. */
  logFile?: string;
  /** Its own process group: stop() ends it and whatever it started, and so does this process's exit. */
  group?: boolean;
  env?: NodeJS.ProcessEnv;
  /** An exit that is its design, not a failure, judged on its output (e.g. a lost leader lock). */
  exitIsDesign?: (output: string) => boolean;
}

const TAIL_LINES = 40;

/** The last lines of what a served thing wrote, headed with whose output it is and where it is kept. */
export function tailOf(name: string, output: string, logFile?: string, lines = TAIL_LINES): string {
  const all = output.trimEnd().split('\n');
  const where = logFile ? ` (${logFile})` : '';
  return `--- last ${Math.min(lines, all.length)} lines of ${name}'s output${where} ---\n${all.slice(-lines).join('\n')}`;
}

/**
 * Polls `ready` until it answers true; fails as soon as `served` has ended (its `exited` says
 * why), or after timeoutMs, with the tail of its output (and `ready`'s last answer when it
 * gave a string). What WatchedProcess.waitUntil and a component in a container wait with.
 */
export async function pollUntil(
  served: { readonly exited?: string; tail(): string },
  what: string,
  ready: () => Promise<boolean | string> | boolean | string,
  timeoutMs: number,
  pollMs = 250,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: boolean | string = false;
  for (;;) {
    if (served.exited) throw new Error(`${served.exited} while waiting for ${what}\n${served.tail()}`);
    last = await ready();
    if (last === true) return;
    if (Date.now() >= deadline) {
      const answer = typeof last === 'string' ? ` (last answer: ${last})` : '';
      throw new Error(`${what} not ready after ${timeoutMs / 1000}s${answer}\n${served.tail()}`);
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/**
 * A child process started to serve: its output kept (a log file, or memory) for the error
 * that says why it failed, an exit nobody asked for remembered in `exited`, and a wait for
 * it to serve that fails at once when it dies, both with the tail of its output. The serve
 * target's `kubespec serve`, the upstream target's components and the test etcd use it.
 */
export class WatchedProcess {
  /** Why it ended unbidden, if it did. */
  exited?: string;
  readonly child: ChildProcess;
  private stopping = false;
  private memory = '';

  constructor(
    readonly name: string,
    bin: string,
    args: readonly string[],
    private readonly options: WatchedOptions = {},
  ) {
    const fd = options.logFile ? fs.openSync(options.logFile, 'a') : undefined;
    const stdio: StdioOptions = fd === undefined ? ['ignore', 'pipe', 'pipe'] : ['ignore', fd, fd];
    this.child = spawn(bin, args, { stdio, detached: options.group ?? false, env: options.env ?? process.env });
    if (fd !== undefined) fs.closeSync(fd);
    for (const s of [this.child.stdout, this.child.stderr])
      s?.on('data', (c: Buffer) => {
        this.memory += c.toString('utf8');
      });
    if (options.group) trackGroup(this.child);
    // A signal to the run stops it too (util/shutdown.ts): it must not outlive the run.
    const off = onShutdown(name, () => this.stop(2000));
    this.child.once('exit', off);
    this.child.once('error', (e) => {
      this.exited ??= `${name} could not be started (${e.message})`;
    });
    this.child.once('exit', (code, sig) => {
      if (this.stopping || options.exitIsDesign?.(this.output())) return;
      this.exited = `${name} exited unexpectedly (${sig ?? `code ${code}`})`;
    });
  }

  /** All it has written so far. */
  output(): string {
    if (!this.options.logFile) return this.memory;
    try {
      return fs.readFileSync(this.options.logFile, 'utf8');
    } catch (e) {
      return `(its log ${this.options.logFile} cannot be read: ${(e as Error).message})`;
    }
  }

  tail(lines = TAIL_LINES): string {
    return tailOf(this.name, this.output(), this.options.logFile, lines);
  }

  /**
   * Polls `ready` until it answers true; fails as soon as the process has ended, or after
   * timeoutMs, with the tail of its output (and `ready`'s last answer when it gave a string).
   */
  waitUntil(
    what: string,
    ready: () => Promise<boolean | string> | boolean | string,
    timeoutMs: number,
    pollMs = 250,
  ): Promise<void> {
    return pollUntil(this, what, ready, timeoutMs, pollMs);
  }

  /** Whether it keeps this process's event loop alive (an idle control plane kept for later must not). */
  ref(): void {
    this.child.ref();
  }

  unref(): void {
    this.child.unref();
  }

  /** SIGTERM, SIGKILL after graceMs (to its group when it has one); an exit now is no failure. */
  stop(graceMs = 5000): Promise<void> {
    this.stopping = true;
    return terminate(this.child, graceMs, this.options.group ?? false);
  }

  /** SIGKILL at once, as a crash would (a restart judges what survives it). */
  async kill(): Promise<void> {
    this.stopping = true;
    if (this.child.exitCode !== null || this.child.signalCode !== null || this.child.pid === undefined) return;
    await new Promise<void>((resolve) => {
      this.child.once('exit', () => resolve());
      signal(this.child, 'SIGKILL', this.options.group ?? false);
    });
  }
}
