import { createHash } from 'node:crypto';
import type { Container } from '../api/core';

/** One event the image manager records for a container (type, reason, message). */
export interface ImageEvent {
  type: 'Normal' | 'Warning';
  reason: string;
  message: string;
}

/** What ensuring a container's image gave: the events in order, and why it cannot start, if so. */
export interface ImageOutcome {
  events: ImageEvent[];
  failure?: { reason: string; message: string };
}

/**
 * The kubelet's image manager on a hollow machine (pkg/kubelet/images, EnsureImageExists):
 * before a container starts its image must be on the machine. Its pull policy (the API
 * defaults it: Always for a :latest or untagged image, else IfNotPresent) decides whether
 * the kubelet pulls: Always pulls every time, IfNotPresent only what the machine lacks,
 * Never pulls nothing and a missing image keeps the container from starting
 * (ErrImageNeverPull). The machine starts with no image and keeps what it pulled for its
 * life (kubelet restarts included). A pull is instant here; the registry answers every name.
 * `durations`: v1.30+'s Pulled message with its durations and the image's size; v1.12 said
 * "pulling image" and "Successfully pulled image" only.
 */
export class ImageManager {
  private readonly present = new Set<string>();

  constructor(private readonly durations: boolean) {}

  ensure(container: Container): ImageOutcome {
    const image = container.image ?? '';
    const ref = normalizedReference(image);
    const present = this.present.has(ref);
    // The API has defaulted the policy (SetDefaults_Container); like shouldPullImage, anything
    // but Never and IfNotPresent pulls.
    const policy = container.imagePullPolicy;
    if (policy === 'Never' || (policy === 'IfNotPresent' && present)) {
      if (present) return { events: [normal('Pulled', `Container image "${image}" already present on machine`)] };
      const message = `Container image "${image}" is not present with pull policy of Never`;
      return {
        events: [{ type: 'Warning', reason: 'ErrImageNeverPull', message }],
        failure: { reason: 'ErrImageNeverPull', message },
      };
    }
    this.present.add(ref);
    return {
      events: this.durations
        ? [
            normal('Pulling', `Pulling image "${image}"`),
            normal(
              'Pulled',
              `Successfully pulled image "${image}" in 0s (0s including waiting). Image size: ${imageSize(ref)} bytes.`,
            ),
          ]
        : [normal('Pulling', `pulling image "${image}"`), normal('Pulled', `Successfully pulled image "${image}"`)],
    };
  }
}

function normal(reason: string, message: string): ImageEvent {
  return { type: 'Normal', reason, message };
}

/**
 * The image a reference names, as a runtime stores it: docker.io/library/ for a bare Docker
 * Hub name, :latest for no tag or digest, so "nginx" and "docker.io/library/nginx:latest"
 * are one image on the machine.
 */
export function normalizedReference(image: string): string {
  const parts = image.split('/');
  const hasDomain = parts.length > 1 && (/[.:]/.test(parts[0]) || parts[0] === 'localhost');
  let name = hasDomain ? image : parts.length === 1 ? `docker.io/library/${image}` : `docker.io/${image}`;
  const last = name.split('/').pop() ?? '';
  if (!name.includes('@') && !last.includes(':')) name = `${name}:latest`;
  return name;
}

/** A hollow image's size: stable for a name, between 1 and 100 MB. */
function imageSize(ref: string): number {
  return 1_000_000 + (createHash('sha256').update(ref).digest().readUInt32BE(0) % 99_000_000);
}
