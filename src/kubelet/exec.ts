import { Pod } from '../api/core';
import { splitShellWords } from '../util/shell-words';

/**
 * What a command does inside a hollow container. Hollow containers run no image: `kubectl
 * exec` reaches a tiny simulated userland instead, enough to observe the master→node path
 * end to end (that the command, its arguments, stdin, stdout, stderr and the exit code all
 * travel through the API server to the right kubelet and container and back):
 *
 * - `echo [-n] ARGS…`            ARGS joined by spaces (and a newline unless -n)
 * - `hostname`, `cat /etc/hostname`  the pod's host name (spec.hostname, else its name)
 * - `env`, `printenv [NAME]`     PATH, HOSTNAME, HOME and the container's `env` values
 * - `cat` (no file)              stdin, echoed back once the client closes it
 * - `true`, `false`              exit 0, exit 1
 * - `sh -c 'SCRIPT'`             SCRIPT's commands separated by `;` (or `&&`, skipped after a
 *                                failure); `exit N` ends the shell with code N
 * - anything else                stderr `exec: "X": executable file not found in $PATH`, exit 127
 *
 * A non-zero exit code reaches kubectl as upstream's NonZeroExitCode Status on the error
 * channel, so `kubectl exec` exits with that code ("command terminated with exit code N").
 */
export interface ExecResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

export interface ExecContext {
  pod: Pod;
  container: string;
}

/** Whether a command reads its stdin (so the kubelet must wait for the client to close it). */
export function readsStdin(argv: string[]): boolean {
  return argv[0] === 'cat' && argv.length === 1;
}

function hostname(pod: Pod): string {
  return (pod.spec as { hostname?: string }).hostname ?? pod.metadata.name!;
}

function environment(ctx: ExecContext): [string, string][] {
  const spec = ctx.pod.spec.containers.find((c) => c.name === ctx.container);
  const env: [string, string][] = [
    ['PATH', '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'],
    ['HOSTNAME', hostname(ctx.pod)],
  ];
  for (const e of (spec as { env?: { name: string; value?: string }[] } | undefined)?.env ?? []) {
    if (typeof e?.name === 'string') env.push([e.name, typeof e.value === 'string' ? e.value : '']);
  }
  env.push(['HOME', '/root']);
  return env;
}

function shell(ctx: ExecContext, script: string, stdin: string): ExecResult {
  const out: ExecResult = { stdout: '', stderr: '', exitCode: 0 };
  // Statements split on ';' and '&&' outside quotes; '&&' skips the rest after a failure.
  const statements: { text: string; and: boolean }[] = [];
  let cur = '';
  let quote: string | undefined;
  let and = false;
  for (let i = 0; i < script.length; i++) {
    const ch = script[i];
    if (quote) {
      if (ch === quote) quote = undefined;
      cur += ch;
      continue;
    }
    if (ch === '"' || ch === "'") {
      quote = ch;
      cur += ch;
      continue;
    }
    if (ch === ';' || (ch === '&' && script[i + 1] === '&')) {
      statements.push({ text: cur, and });
      and = ch === '&';
      if (and) i++;
      cur = '';
      continue;
    }
    cur += ch;
  }
  statements.push({ text: cur, and });
  for (const s of statements) {
    const argv = splitShellWords(s.text, { closeUnterminated: true });
    if (argv.length === 0) continue;
    if (s.and && out.exitCode !== 0) continue; // a && b: b runs only after a succeeded
    if (argv[0] === 'exit') {
      const code = argv[1] === undefined ? out.exitCode : Number(argv[1]);
      return { ...out, exitCode: Number.isInteger(code) ? ((code % 256) + 256) % 256 : 2 };
    }
    const r = runCommand(ctx, argv, stdin);
    out.stdout += r.stdout;
    out.stderr += r.stderr;
    out.exitCode = r.exitCode;
  }
  return out;
}

export function runCommand(ctx: ExecContext, argv: string[], stdin = ''): ExecResult {
  const ok = (stdout: string): ExecResult => ({ stdout, stderr: '', exitCode: 0 });
  const [cmd, ...args] = argv;
  switch (cmd) {
    case 'echo': {
      const newline = args[0] !== '-n';
      return ok(`${(newline ? args : args.slice(1)).join(' ')}${newline ? '\n' : ''}`);
    }
    case 'hostname':
      return ok(`${hostname(ctx.pod)}\n`);
    case 'env':
      return ok(
        environment(ctx)
          .map(([k, v]) => `${k}=${v}\n`)
          .join(''),
      );
    case 'printenv': {
      const env = environment(ctx);
      if (args.length === 0) return ok(env.map(([k, v]) => `${k}=${v}\n`).join(''));
      const hits = args.map((a) => env.find(([k]) => k === a)).filter((x): x is [string, string] => !!x);
      return {
        stdout: hits.map(([, v]) => `${v}\n`).join(''),
        stderr: '',
        exitCode: hits.length === args.length ? 0 : 1,
      };
    }
    case 'cat': {
      if (args.length === 0) return ok(stdin);
      let stdout = '';
      let stderr = '';
      for (const f of args) {
        if (f === '/etc/hostname') stdout += `${hostname(ctx.pod)}\n`;
        else stderr += `cat: ${f}: No such file or directory\n`;
      }
      return { stdout, stderr, exitCode: stderr ? 1 : 0 };
    }
    case 'true':
      return ok('');
    case 'false':
      return { stdout: '', stderr: '', exitCode: 1 };
    case 'sh':
    case '/bin/sh':
      if (args[0] === '-c' && args.length >= 2) return shell(ctx, args[1], stdin);
      return { stdout: '', stderr: 'sh: only "sh -c SCRIPT" runs in a hollow container\n', exitCode: 2 };
    default:
      return { stdout: '', stderr: `exec: "${cmd ?? ''}": executable file not found in $PATH\n`, exitCode: 127 };
  }
}
