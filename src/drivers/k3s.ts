import { getContainerRuntimeClient } from 'testcontainers';
import { K3sContainer } from '@testcontainers/k3s';

/** The k3s image the k3s target starts: Kubernetes v1.32, matching the kubernetes-1.32 profile. */
export const K3S_IMAGE = 'rancher/k3s:v1.32.4-k3s1';

export class NoContainerRuntimeError extends Error {
  constructor(reason: string) {
    super(
      `no container runtime reachable: ${reason}; use --target kube --kubeconfig <file> to judge a cluster you started yourself`,
    );
  }
}

/** How to ask whether a Docker-compatible engine answers (injectable for tests). */
export type RuntimeProbe = () => Promise<unknown>;

const defaultProbe: RuntimeProbe = () => getContainerRuntimeClient();

/** Throws NoContainerRuntimeError, with testcontainers' reason, when no engine answers. */
export async function requireContainerRuntime(probe: RuntimeProbe = defaultProbe): Promise<void> {
  try {
    await probe();
  } catch (e) {
    throw new NoContainerRuntimeError((e as Error).message || String(e));
  }
}

export interface RunningK3s {
  kubeconfig: string;
  stop(): Promise<void>;
}

/** Starts a container and gives back its kubeconfig (injectable for tests). */
export type K3sStarter = (image: string) => Promise<RunningK3s>;

const defaultStarter: K3sStarter = async (image) => {
  const started = await new K3sContainer(image).start();
  return {
    kubeconfig: started.getKubeConfig(),
    stop: async () => {
      await started.stop();
    },
  };
};

/**
 * The k3s target: checks for a container engine, starts k3s, and hands its kubeconfig to
 * the kube target. The caller stops it when the run is over.
 */
export async function startK3s(
  options: { image?: string; probe?: RuntimeProbe; starter?: K3sStarter } = {},
): Promise<RunningK3s> {
  await requireContainerRuntime(options.probe);
  return (options.starter ?? defaultStarter)(options.image ?? K3S_IMAGE);
}
