import { reportTo } from '../../client/background';
import { onShutdown } from '../../util/shutdown';
import {
  containerToken,
  ContainerEngine,
  ContainerRequest,
  LABEL_CONTAINER,
  LABEL_PID,
  StartedContainer,
} from './engine';

/**
 * A container started under the run's clean-ups: labelled with a token of its own and this
 * process's PID, and removed on SIGINT/SIGTERM (util/shutdown.ts, newest first) before the
 * process ends the way the signal would have ended it. Every container the container target
 * starts — a whole control plane (container.ts) or one component of it (components.ts) — is
 * started this way.
 */
export interface LaunchedContainer {
  /** The value of its LABEL_CONTAINER label. */
  readonly token: string;
  /** The engine's start: the container once it runs. */
  readonly started: Promise<StartedContainer>;
  /** Stops and removes it (once: later calls, and kill(), wait for the first). */
  remove(): Promise<void>;
  /** SIGKILL, as a crash would, and removes it (once, as remove()). */
  kill(): Promise<void>;
}

export function launchContainer(engine: ContainerEngine, request: ContainerRequest): LaunchedContainer {
  const token = containerToken();
  let ending: Promise<void> | undefined;
  const end = (kill: boolean): Promise<void> => {
    ending ??= (async () => {
      try {
        // A start under way (a signal came meanwhile) is let finish, or the container it is
        // creating would appear after the removal; a failed one leaves its container labelled.
        // Its failure is told (the start's caller may be gone: a signal came meanwhile).
        const container = await started.catch((e: unknown) => {
          reportTo('container target: the start a removal waited for')(e);
          return undefined;
        });
        if (!container) await engine.removeLabelled(LABEL_CONTAINER, token);
        else if (kill) await container.kill();
        else await container.remove();
      } finally {
        off();
      }
    })();
    return ending;
  };
  const off = onShutdown(`container ${token}`, () => end(false));
  const started = engine.start({
    ...request,
    labels: { ...request.labels, [LABEL_CONTAINER]: token, [LABEL_PID]: String(process.pid) },
  });
  return { token, started, remove: () => end(false), kill: () => end(true) };
}
