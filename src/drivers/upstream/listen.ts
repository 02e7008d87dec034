import * as fs from 'node:fs';

/**
 * The address a TCP port is listening on, as the kernel tells it (/proc/net/tcp and tcp6,
 * state 0A = LISTEN): "0.0.0.0" for a wildcard socket (IPv4 0.0.0.0, or IPv6 :: as Go binds
 * "0.0.0.0" on a dual-stack machine), else the IPv4 address; undefined when nothing listens.
 * The driver reports what kube-apiserver really bound, not what it was told.
 */
export function listeningAddress(port: number): string | undefined {
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') continue; // no IPv6 on this kernel
      throw e;
    }
    const found = listeningIn(text, port);
    if (found) return found;
  }
  return undefined;
}

/** The listening address of `port` in one /proc/net/tcp{,6} table. */
export function listeningIn(text: string, port: number): string | undefined {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const line of text.split('\n').slice(1)) {
    const cols = line.trim().split(/\s+/);
    if (cols.length < 4 || cols[3] !== '0A') continue;
    const [addr, p] = cols[1].split(':');
    if (p !== hexPort) continue;
    if (/^0+$/.test(addr)) return '0.0.0.0';
    if (addr.length === 8) {
      // Little-endian bytes of the IPv4 address.
      const b = addr.match(/../g)!.map((h) => parseInt(h, 16));
      return `${b[3]}.${b[2]}.${b[1]}.${b[0]}`;
    }
    // An IPv4-mapped IPv6 address (::ffff:a.b.c.d) keeps its IPv4 form in the last word.
    if (addr.slice(0, 24) === '0000000000000000FFFF0000') {
      const b = addr
        .slice(24)
        .match(/../g)!
        .map((h) => parseInt(h, 16));
      return `${b[3]}.${b[2]}.${b[1]}.${b[0]}`;
    }
    return addr;
  }
  return undefined;
}
