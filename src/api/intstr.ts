import { IntOrString } from './resources/deployment';

/**
 * Upstream GetScaledValueFromIntOrPercent (apimachinery intstr): an integer is itself; "N%"
 * is N percent of total, rounded up or down as asked. Anything else is an error.
 */
export function scaledValue(v: IntOrString | undefined, total: number, roundUp: boolean): number {
  if (v === undefined) return 0;
  if (typeof v === 'number') return v;
  const m = /^(\d+)%$/.exec(v);
  if (!m)
    throw new Error(`invalid value for IntOrString: invalid value "${v}": must be an integer or percentage (e.g '5%')`);
  const exact = (Number(m[1]) * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}
