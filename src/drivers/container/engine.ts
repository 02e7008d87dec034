import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';

/**
 * The container engine as the container target needs it, and its implementation on
 * testcontainers (loaded only when a container target runs). Tests inject a fake.
 */

export interface ContainerRequest {
  image: string;
  /** Replaces the image's entrypoint (upstream/image/'s components are started one per container this way). */
  entrypoint?: string[];
  command: string[];
  env: Record<string, string>;
  network: 'host' | 'bridge';
  /** Container ports published on loopback (bridge). */
  ports: number[];
  privileged: boolean;
  tmpfs: string[];
  /** Files written into the container before it starts. */
  files: { target: string; content: string; mode?: number }[];
  /** Directories or files of this machine mounted at the same path inside (read-only unless said). */
  mounts?: { path: string; writable: boolean }[];
  /** The user (uid:gid) its process runs as (the image's when not given). */
  user?: string;
  labels: Record<string, string>;
  /** Each line of the container's output (stdout and stderr), as it comes. */
  onLine(line: string): void;
  /** Called once, when its output ends (the container exited or was removed). */
  onEnd(): void;
}

export interface StartedContainer {
  readonly id: string;
  /** Where this machine reaches a container port: the published loopback port (bridge), the port itself (host). */
  hostPort(port: number): number;
  /** The exit code once the container is no longer running, undefined while it runs. */
  exitCode(): Promise<number | undefined>;
  /** A file's content, undefined while it does not exist. */
  readFile(file: string): Promise<string | undefined>;
  /** Stops and removes it (and its anonymous volumes); a container already gone is not an error. */
  remove(): Promise<void>;
  /** SIGKILL, as a crash would, and removes it; a container already gone is not an error. */
  kill(): Promise<void>;
}

export interface ContainerEngine {
  /** Throws, with the reason, when no Docker-compatible engine answers. */
  probe(): Promise<void>;
  hasImage(image: string): Promise<boolean>;
  /** Builds the Dockerfile in dir as tag. */
  build(dir: string, tag: string): Promise<void>;
  /** Creates and starts it (pulling a missing image when the engine can); throws when it cannot start. */
  start(request: ContainerRequest): Promise<StartedContainer>;
  /** Removes every container carrying this label (a start that failed half way). */
  removeLabelled(label: string, value: string): Promise<void>;
}

/** The label every container the target starts carries, with a value of its own. */
export const LABEL_CONTAINER = 'io.kubespec.container';
/** The process that started it (what a check for leftovers of one run filters on). */
export const LABEL_PID = 'io.kubespec.pid';

export function containerToken(): string {
  return randomBytes(6).toString('hex');
}

/** The content of the one file a `docker cp`-style tar archive holds (ustar headers of 512 bytes). */
export function fileFromTar(tar: Buffer): string | undefined {
  for (let at = 0; at + 512 <= tar.length; ) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) return undefined; // end of the archive
    const size = Number.parseInt(header.subarray(124, 136).toString('latin1').replace(/\0.*$/s, '').trim() || '0', 8);
    const type = String.fromCharCode(header[156]);
    const body = at + 512;
    if (type === '0' || type === '\0') return tar.subarray(body, body + size).toString('utf8');
    at = body + Math.ceil(size / 512) * 512; // a directory, a long name or pax header: skip it
  }
  return undefined;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream as AsyncIterable<Buffer | string>) chunks.push(Buffer.isBuffer(c) ? c : Buffer.from(c));
  return Buffer.concat(chunks);
}

/** Lines of a log stream, each once, the last one even without a newline. */
function lines(stream: Readable, onLine: (line: string) => void, onEnd: () => void): void {
  let rest = '';
  stream.on('data', (chunk: Buffer | string) => {
    const text = rest + chunk.toString();
    const parts = text.split('\n');
    rest = parts.pop() ?? '';
    for (const p of parts) onLine(p.replace(/\r$/, ''));
  });
  const end = () => {
    if (rest) onLine(rest);
    rest = '';
    onEnd();
  };
  stream.once('end', end);
  stream.once('error', end);
}

/**
 * testcontainers' engine. On the host network the containers share this machine's loopback,
 * so the host testcontainers reaches them on is 127.0.0.1 (without it, it asks Docker's bridge
 * network, which an engine started with --bridge=none has not). Ryuk, its reaper, is off unless
 * the user turns it on: its image must be pulled, and this target removes its containers itself
 * (after each scenario or run, on failure, timeout and SIGINT/SIGTERM).
 */
export async function testcontainersEngine(): Promise<ContainerEngine> {
  process.env.TESTCONTAINERS_HOST_OVERRIDE ??= '127.0.0.1';
  process.env.TESTCONTAINERS_RYUK_DISABLED ??= 'true';
  const tc = await import('testcontainers');
  const client = () => tc.getContainerRuntimeClient();
  return {
    probe: async () => {
      await client();
    },
    hasImage: async (image) => (await client()).image.exists(tc.ImageName.fromString(image)),
    build: async (dir, tag) => {
      const [repository, version] = tag.split(/:(?=[^/]*$)/);
      await tc.GenericContainer.fromDockerfile(dir).build(`${repository}:${version ?? 'latest'}`, {
        deleteOnExit: false,
      });
    },
    removeLabelled: async (label, value) => {
      const c = await client();
      // All of them, not only the running ones: a start interrupted between create and start leaves one "Created".
      const found = await c.container.dockerode.listContainers({
        all: true,
        filters: { label: [`${label}=${value}`] },
      });
      for (const info of found) await c.container.getById(info.Id).remove({ force: true, v: true });
    },
    start: async (req) => {
      let container = new tc.GenericContainer(req.image)
        .withEnvironment(req.env)
        .withLabels(req.labels)
        .withNetworkMode(req.network)
        .withLogConsumer((stream) => lines(stream, req.onLine, req.onEnd))
        .withCopyContentToContainer(req.files.map((f) => ({ content: f.content, target: f.target, mode: f.mode })));
      if (req.entrypoint) container = container.withEntrypoint(req.entrypoint);
      if (req.command.length) container = container.withCommand(req.command);
      if (req.mounts?.length)
        container = container.withBindMounts(
          req.mounts.map((m) => ({ source: m.path, target: m.path, mode: m.writable ? 'rw' : 'ro' })),
        );
      if (req.user) container = container.withUser(req.user);
      if (req.network === 'bridge' && req.ports.length)
        container = container.withExposedPorts(...req.ports.map((p) => ({ container: p, host: 0 })));
      if (req.privileged) container = container.withPrivilegedMode();
      if (req.tmpfs.length) container = container.withTmpFs(Object.fromEntries(req.tmpfs.map((t) => [t, 'rw'])));
      const started = await container.start();
      const dockerContainer = (await client()).container.getById(started.getId());
      // Docker's forced removal is a SIGKILL of its process, then the removal.
      const forceRemove = () =>
        dockerContainer.remove({ force: true, v: true }).catch((again: Error) => {
          if (!/no such container|404|already in progress/i.test(again.message)) throw again;
        });
      return {
        id: started.getId(),
        hostPort: (port) => (req.network === 'host' ? port : started.getMappedPort(port)),
        exitCode: async () => {
          const info = await (await client()).container.inspect(dockerContainer);
          return info.State.Running ? undefined : info.State.ExitCode;
        },
        readFile: async (file) => {
          try {
            return fileFromTar(await readAll(await started.copyArchiveFromContainer(file)));
          } catch (e) {
            if (/no such file|not found|404/i.test((e as Error).message)) return undefined;
            throw e;
          }
        },
        remove: async () => {
          try {
            await started.stop({ remove: true, removeVolumes: true, timeout: 5_000 });
          } catch (e) {
            if (!/no such container|404|is already in progress|not running/i.test((e as Error).message)) throw e;
            await forceRemove();
          }
        },
        kill: forceRemove,
      };
    },
  };
}
