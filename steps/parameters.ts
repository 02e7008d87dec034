import { defineParameterType } from '@cucumber/cucumber';
import { Taint } from '../src/api/core';
import { parseDuration } from '../src/api/duration';
import { Quantity } from '../src/api/quantity';
import { parseTaints } from '../src/api/taints';

/**
 * The parameter types of the steps' Cucumber Expressions, defined once: each parses its words
 * with the project's own parser (durations with src/api/duration, quantities with
 * src/api/quantity, taints with src/api/taints), so no step re-parses them by hand.
 * Besides these the steps use Cucumber's built-ins {int}, {float}, {word} and {string}.
 *
 * Each regexp here is unique among the types: a step left as a regular expression gets a
 * type's transformer for a capture group whose source equals that type's regexp, and two
 * types with one regexp would make such a group ambiguous.
 */

/** A time unit in a step's words → the Go duration suffix parseDuration reads. */
const GO_UNIT: Record<string, string> = { millisecond: 'ms', second: 's', minute: 'm', hour: 'h' };

export const DURATION_REGEXP = /(\d+(?:\.\d+)?) (milliseconds?|seconds?|minutes?|hours?)/;

/** "40 seconds", "1 minute", "0.5 seconds" → milliseconds, through the flags' Go duration parser. */
export function durationMs(amount: string, unit: string): number {
  const u = GO_UNIT[unit.replace(/s$/, '')];
  if (!u) throw new Error(`unknown time unit "${unit}"`);
  return parseDuration(`${amount}${u}`);
}

/** {duration}: "40 seconds", "5 minutes", "1 hour", "1.5 seconds" — milliseconds. */
defineParameterType({
  name: 'duration',
  regexp: DURATION_REGEXP,
  transformer: (amount: string, unit: string) => durationMs(amount, unit),
});

/** {quantity}: a resource quantity in quotes, "100m", "64Mi", "110" — checked, kept as written (the API takes the string); "-" for none. */
defineParameterType({
  name: 'quantity',
  regexp: /"([^"\s]+)"/,
  transformer: (text: string) => {
    if (text !== '-') Quantity.parse(text); // a step text with a bad quantity fails here, with the parser's message
    return text;
  },
});

/** {node}: a node's name in quotes. */
defineParameterType({
  name: 'node',
  regexp: /"([^"]+)"/,
  transformer: (name: string) => name,
});

/** {taint}: a taint in quotes as kubectl taint writes it, "key=value:Effect" or "key:Effect" — a Taint. */
defineParameterType({
  name: 'taint',
  regexp: /"([^"=:,]+(?:=[^":,]*)?:(?:NoSchedule|PreferNoSchedule|NoExecute))"/,
  transformer: (text: string): Taint => parseTaints(text)[0],
});

/** A taint as the steps print and compare it: key[=value]:Effect. */
export function taintText(t: Pick<Taint, 'key' | 'value' | 'effect'>): string {
  return `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`;
}

/**
 * {in-namespace}: optional — ` in namespace "ns"` after an object's name, or nothing; the
 * namespace, "default" when the step names none. (A Cucumber optional cannot hold a
 * parameter, so the optional phrase is this parameter.)
 */
defineParameterType({
  name: 'in-namespace',
  regexp: /(?: in namespace "([^"]+)")?/,
  transformer: (ns: string | undefined) => ns ?? 'default',
});

/** {condition-status}: a condition's status in quotes, "True", "False" or "Unknown". */
defineParameterType({
  name: 'condition-status',
  regexp: /"(True|False|Unknown)"/,
  transformer: (s: string) => s,
});

/** {phase}: a pod's phase, Pending, Running, Succeeded, Failed or Unknown. */
defineParameterType({
  name: 'phase',
  regexp: /Pending|Running|Succeeded|Failed|Unknown/,
  transformer: (s: string) => s,
});

/** {kind}: a resource as a person names it in a step, "pod", "deployment", "lease" (one word). */
defineParameterType({
  name: 'kind',
  regexp: /\w+/,
  transformer: (s: string) => s,
});

/** {names}: a list of quoted names, "a", "b" and "c" — the names; "none" for none. */
defineParameterType({
  name: 'names',
  regexp: /none|"[^"]+"(?:(?:, | and |, and )"[^"]+")*/,
  transformer: (s: string) => [...s.matchAll(/"([^"]+)"/g)].map((m) => m[1]),
});

/** {offsets}: seconds as a list, "0, 10, 20", or "none" — the numbers. */
defineParameterType({
  name: 'offsets',
  regexp: /none|\d+(?:\.\d+)?(?:, \d+(?:\.\d+)?)*/,
  transformer: (s: string) => (s === 'none' ? [] : s.split(',').map((x) => Number(x.trim()))),
});

/** {controller}: a kind of pod controller as the steps name it, replicationcontroller (or rc) or job. */
defineParameterType({
  name: 'controller',
  regexp: /replicationcontroller|job|rc/,
  transformer: (s: string) => s,
});

/** {propagation-policy}: how a deletion treats dependents, Orphan, Background or Foreground. */
defineParameterType({
  name: 'propagation-policy',
  regexp: /Orphan|Background|Foreground/,
  transformer: (s: string) => s,
});
