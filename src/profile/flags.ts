import { parseDuration } from '../api/duration';
import { Component, Flags } from './profile';

type Parser<T> = (value: string, flag: string) => T;

const duration: Parser<number> = (v, flag) => {
  try {
    return parseDuration(v);
  } catch {
    throw new Error(`invalid value "${v}" for flag --${flag}: parse error (want a duration such as 40s or 5m0s)`);
  }
};
const float: Parser<number> = (v, flag) => {
  const n = Number(v);
  if (v.trim() === '' || Number.isNaN(n))
    throw new Error(`invalid value "${v}" for flag --${flag}: parse error (want a number)`);
  return n;
};
const int: Parser<number> = (v, flag) => {
  const n = float(v, flag);
  if (!Number.isInteger(n)) throw new Error(`invalid value "${v}" for flag --${flag}: parse error (want an integer)`);
  return n;
};
const bool: Parser<boolean> = (v, flag) => {
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw new Error(`invalid value "${v}" for flag --${flag}: parse error (want true or false)`);
};
const str: Parser<string> = (v) => v;

/** Every flag the reference control plane honours, by component, with its parser. */
const FLAG_TABLE = {
  'kube-apiserver': {
    'secure-port': int,
    'bind-address': str,
    'insecure-port': int,
    'insecure-bind-address': str,
    'service-cluster-ip-range': str,
    'advertise-address': str,
    'default-not-ready-toleration-seconds': int,
    'default-unreachable-toleration-seconds': int,
    'enable-admission-plugins': str,
    'authorization-mode': str,
    'token-auth-file': str,
    'basic-auth-file': str,
    'kubelet-certificate-authority': str,
    'kubelet-client-certificate': str,
    'kubelet-client-key': str,
    'anonymous-auth': bool,
    'max-requests-inflight': int,
    'max-mutating-requests-inflight': int,
    'request-timeout': duration,
  },
  'kube-controller-manager': {
    'node-monitor-period': duration,
    'node-monitor-grace-period': duration,
    'node-startup-grace-period': duration,
    'pod-eviction-timeout': duration,
    'node-eviction-rate': float,
    'secondary-node-eviction-rate': float,
    'large-cluster-size-threshold': int,
    'unhealthy-zone-threshold': float,
    'allocate-node-cidrs': bool,
    'cluster-cidr': str,
    'node-cidr-mask-size': int,
    'enable-taint-manager': bool,
    'cloud-provider': str,
    controllers: str,
    'resource-quota-sync-period': duration,
    'cluster-name': str,
    'leader-elect': bool,
    'leader-elect-lease-duration': duration,
    'leader-elect-renew-deadline': duration,
    'leader-elect-retry-period': duration,
    'leader-elect-resource-lock': str,
  },
  'kube-scheduler': {
    'algorithm-provider': str,
    'policy-config-file': str,
    'scheduler-name': str,
  },
  kubelet: {
    'node-status-update-frequency': duration,
    'node-status-report-frequency': duration,
    'node-lease-duration-seconds': int,
    'register-node': bool,
    // The kubelet API's guard (its own names; the API server has flags of the same names).
    'anonymous-auth': bool,
    'authentication-token-webhook': bool,
    'authorization-mode': str,
    'enable-debugging-handlers': bool,
    'cloud-provider': str,
  },
} satisfies Record<Component, Record<string, Parser<unknown>>>;

type Table = typeof FLAG_TABLE;
type Parsed<C extends Component> = { [F in keyof Table[C]]?: Table[C][F] extends Parser<infer T> ? T : never };

export type ParsedFlags = { [C in Component]: Parsed<C> };

export function knownFlags(component: Component): string[] {
  return Object.keys(FLAG_TABLE[component]);
}

/** Parses every component's flags, refusing unknown names and bad values with a clear message. */
export function parseFlags(flags: Flags): ParsedFlags {
  const out = { 'kube-apiserver': {}, 'kube-controller-manager': {}, 'kube-scheduler': {}, kubelet: {} } as ParsedFlags;
  for (const [component, values] of Object.entries(flags) as [Component, Record<string, string>][]) {
    const table = FLAG_TABLE[component] as Record<string, Parser<unknown>>;
    if (!table) throw new Error(`unknown component "${component}"`);
    for (const [flag, value] of Object.entries(values ?? {})) {
      const parse = table[flag];
      if (!parse) throw new Error(`unknown flag --${flag} for ${component} (known: ${Object.keys(table).join(', ')})`);
      (out[component] as Record<string, unknown>)[flag] = parse(String(value), flag);
    }
  }
  return out;
}

/** Which component takes a flag (flag names are unique across components). */
export function componentOf(flag: string): Component | undefined {
  return (Object.keys(FLAG_TABLE) as Component[]).find((c) => flag in FLAG_TABLE[c]);
}
