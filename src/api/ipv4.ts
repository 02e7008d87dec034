/*
 * IPv4 addresses as dotted quads and as unsigned 32-bit numbers (what k8s.io/utils/net does
 * for the service and node CIDR allocators and for validation), in one place.
 */

const DOTTED_QUAD = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** The address as an unsigned 32-bit number; undefined when s is not a dotted-quad IPv4 address. */
export function ipv4ToNumber(s: string): number | undefined {
  const m = DOTTED_QUAD.exec(s);
  if (!m) return undefined;
  const octets = m.slice(1).map(Number);
  if (octets.some((o) => o > 255)) return undefined;
  return octets.reduce((acc, o) => ((acc << 8) | o) >>> 0, 0);
}

/** Whether s is a dotted-quad IPv4 address (four decimal octets of 0-255). */
export function isIPv4(s: string): boolean {
  return ipv4ToNumber(s) !== undefined;
}

/** The dotted quad of an unsigned 32-bit number. */
export function numberToIPv4(n: number): string {
  return [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}
