import * as fs from 'node:fs';

/**
 * The run-wide registry of clean-ups: what a process started that must not outlive it
 * (servers, containers, kubelets, objects on a cluster) registers how to stop it here, and
 * SIGINT/SIGTERM/SIGHUP, or the CLI at the end of an interrupted run, runs them all.
 *
 * The API, for drivers (one registry per process: the CLI's, and each Cucumber worker's):
 *
 *   const off = onShutdown('k3s container', () => container.stop());
 *   …
 *   off(); // once stopped the ordinary way, so an interrupt does not stop it twice
 *
 * - Clean-ups run newest first (what was started last may depend on what was started
 *   first), each at most CLEANUP_LIMIT_MS; one that throws or hangs is reported on stderr
 *   and the others still run.
 * - The first registration installs the signal handlers: on a signal the process runs the
 *   clean-ups and exits 128+signal (130 SIGINT, 143 SIGTERM, 129 SIGHUP). A second signal
 *   while they run exits at once.
 * - The CLI takes a signal over with `onSignal` (to write the interrupted run's report);
 *   its handler then calls `shutdown()` itself and decides the exit.
 */

type Cleanup = () => void | Promise<void>;

/** Longest one clean-up may take before the next runs: a hung one must not keep the process alive. */
export const CLEANUP_LIMIT_MS = 15_000;

const SIGNALS = [
  ['SIGINT', 2],
  ['SIGTERM', 15],
  ['SIGHUP', 1],
] as const;

const cleanups = new Map<number, { name: string; fn: Cleanup }>();
let nextId = 0;
let installed = false;
let signalled: NodeJS.Signals | undefined;
let takeover: ((signal: NodeJS.Signals, exitCode: number) => Promise<void>) | undefined;

/** Registers a clean-up; the function returned unregisters it. */
export function onShutdown(name: string, fn: Cleanup): () => void {
  const id = nextId++;
  cleanups.set(id, { name, fn });
  installSignalHandlers();
  return () => {
    cleanups.delete(id);
  };
}

/** Names of the clean-ups still registered (for tests and for the interrupted report). */
export function pendingCleanups(): string[] {
  return [...cleanups.values()].map((c) => c.name);
}

/** The signal this process received, if any. */
export function receivedSignal(): NodeJS.Signals | undefined {
  return signalled;
}

/**
 * Runs every registered clean-up, newest first, and forgets them; resolves with the problems
 * (a clean-up that threw or overran its limit), which it has also written to stderr.
 */
export async function shutdown(): Promise<string[]> {
  const problems: string[] = [];
  const all = [...cleanups.entries()].reverse();
  cleanups.clear();
  for (const [, { name, fn }] of all) {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        Promise.resolve().then(fn),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`did not finish in ${CLEANUP_LIMIT_MS / 1000} s`)),
            CLEANUP_LIMIT_MS,
          );
          timer.unref();
        }),
      ]);
    } catch (e) {
      problems.push(`stopping ${name}: ${(e as Error)?.message ?? e}`);
    } finally {
      clearTimeout(timer);
    }
  }
  for (const p of problems) process.stderr.write(`kubespec: ${p}\n`);
  return problems;
}

/** The CLI's own handling of a signal (instead of: run the clean-ups, exit 128+n). */
export function onSignal(handler: (signal: NodeJS.Signals, exitCode: number) => Promise<void>): void {
  takeover = handler;
  installSignalHandlers();
}

function installSignalHandlers(): void {
  if (installed) return;
  installed = true;
  for (const [sig, n] of SIGNALS) {
    process.on(sig, () => {
      if (signalled) {
        // A second signal: the user insists; what is left is killed by the exit hooks.
        process.exit(128 + n);
      }
      signalled = sig;
      const handle = takeover ?? (async () => void (await shutdown()));
      handle(sig, 128 + n).then(
        () => process.exit(128 + n),
        (e) => {
          process.stderr.write(`kubespec: while stopping on ${sig}: ${(e as Error)?.stack ?? e}\n`);
          process.exit(128 + n);
        },
      );
    });
  }
}

/**
 * Every living descendant of this process (children first), from /proc: Cucumber's worker
 * processes are not handed to us, and what they started would otherwise be re-parented to
 * PID 1 when they die. Empty where there is no /proc.
 */
export function descendants(root = process.pid): number[] {
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const e of entries) {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
    } catch {
      continue; // it ended while we looked
    }
    // pid (comm) state ppid …; comm may hold spaces and parentheses: read after the last ")".
    const [state, ppidText] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (state === 'Z') continue; // ended, not yet reaped: nothing left to stop
    const ppid = Number(ppidText);
    const list = children.get(ppid) ?? [];
    list.push(Number(e));
    children.set(ppid, list);
  }
  const out: number[] = [];
  const queue = [...(children.get(root) ?? [])];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

function alive(pid: number): boolean {
  try {
    return !/^\S+ \(.*\) Z /s.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/**
 * SIGTERM to every descendant (each runs its own clean-ups), then SIGKILL to whatever is
 * still alive after graceMs: no child outlives the run.
 */
export async function stopDescendants(graceMs = 10_000): Promise<void> {
  const first = descendants();
  for (const pid of first) signalPid(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && descendants().length > 0) await new Promise((r) => setTimeout(r, 100));
  for (const pid of [...new Set([...first, ...descendants()])]) if (alive(pid)) signalPid(pid, 'SIGKILL');
}

function signalPid(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch (e) {
    // ESRCH: it ended between the look and the signal, which is what was wanted.
    if ((e as NodeJS.ErrnoException).code !== 'ESRCH') throw e;
  }
}
