import { expect } from 'chai';
import { NotApplicableError } from '../src/drivers';
import type { KubeObject } from '../src/api/meta';
import { KubeWorld, NOT_APPLICABLE } from './world';

type StepBody<A extends unknown[]> = (this: KubeWorld, ...args: A) => Promise<unknown> | unknown;

/**
 * On a real clock nothing tells the suite that the cluster is at rest: upstream's
 * controllers react to a write within their own periods (the node controller's 5 s pass,
 * the scheduler's queue, informer latency). So an outcome (a Then step) is eventually
 * consistent there, as upstream's e2e tests judge it: a failed check is retried for up to
 * this long before it counts. On a virtual clock the cluster settles after every write and
 * the check runs once.
 */
export const REAL_CLOCK_SETTLE_MS = 20_000;

/**
 * How far a measured age may be off on a real clock: API timestamps have whole seconds
 * (RFC 3339), and a step reads them some hundreds of ms after the moment it names.
 */
export const REAL_CLOCK_TOLERANCE_MS = 2_000;

/** The tolerance for ages measured on this world's target (none on a virtual clock). */
export function ageTolerance(world: KubeWorld): number {
  return world.driver.capabilities.virtualTime ? 0 : REAL_CLOCK_TOLERANCE_MS;
}

function retryable(e: unknown): boolean {
  const err = e as { name?: string; reason?: string; code?: number };
  return err?.name === 'AssertionError' || err?.code === 404;
}

/** The step's body, retried while it fails an assertion if it is an outcome on a real clock. */
async function runBody<A extends unknown[]>(world: KubeWorld, body: StepBody<A>, args: A): Promise<unknown> {
  if (world.stepType !== 'Outcome' || !world.isStarted || world.driver.capabilities.virtualTime)
    return body.apply(world, args);
  const deadline = Date.now() + REAL_CLOCK_SETTLE_MS;
  for (;;) {
    try {
      return await body.apply(world, args);
    } catch (e) {
      if (!retryable(e) || Date.now() >= deadline) throw e;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

/**
 * Wraps a step so that a NotApplicableError reports the scenario not applicable (skipped,
 * with the reason attached) instead of failing it. `arity`: how many arguments the step's
 * expression gives, when one body serves expressions with and without a trailing parameter.
 */
export function step<A extends unknown[]>(
  body: StepBody<A>,
  arity = body.length,
): (this: KubeWorld, ...args: A) => Promise<unknown> {
  const wrapped = async function (this: KubeWorld, ...args: A) {
    const outcome = this.stepType === 'Outcome';
    if (outcome) this.readPast = false;
    else this.late = undefined;
    const moves = this.driver.timeMoves();
    try {
      const result = await runBody(this, body, args);
      // Outcomes are judged from the instant the last action or wait ended (or named, when
      // it was already past): what held since then (expectHeld). An outcome that let time
      // pass ("over the next 30 s …") moved the timeline as a wait does.
      if (!outcome) this.judgedFrom = this.late?.at ?? Date.now();
      else if (this.driver.timeMoves() !== moves) {
        this.late = undefined;
        this.judgedFrom = Date.now();
      }
      return result;
    } catch (e) {
      if (e instanceof NotApplicableError) {
        this.attach(e.message, NOT_APPLICABLE);
        return 'skipped';
      }
      if (outcome && this.late && !this.readPast) throw lateError(this.late, e);
      throw e;
    }
  };
  // Cucumber checks a step's arity against its parameters.
  Object.defineProperty(wrapped, 'length', { value: arity });
  return wrapped;
}

/** An outcome that failed now, after a wait that ended past the instant it named: what it saw now may not be what held then. */
function lateError(late: NonNullable<KubeWorld['late']>, e: unknown): Error {
  const err = new Error(
    `already ${late.by} ms past ${late.what}, and this check reads the cluster only as it is now: ${(e as Error).message}`,
  );
  err.stack = `${err.message}\n${(e as Error).stack ?? ''}`;
  return err;
}

/**
 * The objects a check reads, judged as they are now, and else — on a real clock, where the
 * target keeps their states (objectStates) — as they were at any instant since the last
 * action or wait ended, or since the instant it named. On a loaded machine a check reads the
 * cluster seconds after that instant: a rollout's first step lasts minReadySeconds and was
 * over when read, a wait anchored to the pods' Ready time began after its own instant
 * (twenty-first full run). Held at some instant since is what the retried check judges
 * already, moving forward; the target's record adds the seconds before the read.
 */
export async function expectHeld(
  world: KubeWorld,
  ref: { resource: string; namespace?: string; name?: string },
  readNow: () => Promise<KubeObject[]>,
  check: (objects: KubeObject[]) => void,
): Promise<void> {
  let failure: unknown;
  try {
    check(await readNow());
    return;
  } catch (e) {
    if (!retryable(e)) throw e;
    failure = e;
  }
  const cluster = await world.cluster();
  const since = world.judgedFrom;
  if (cluster.capabilities.virtualTime || !cluster.objectStates || since === undefined) throw failure;
  const states = await cluster.objectStates(ref, since);
  if (!states) throw failure;
  world.readPast = true;
  for (const { at, objects } of states) {
    try {
      check(objects);
    } catch (e) {
      if (!retryable(e)) throw e;
      continue;
    }
    world.attach(
      `held at ${new Date(at).toISOString()}, ${at - since} ms after the instant judged from (the API server's audit record), though not when read`,
      'text/plain',
    );
    return;
  }
  throw failure;
}

/** One object's check judged as expectHeld does: `check` gets it, or undefined where it does not exist. */
export async function expectObjectHeld(
  world: KubeWorld,
  ref: { resource: string; namespace?: string },
  name: string,
  check: (obj: KubeObject | undefined) => void,
): Promise<void> {
  const cluster = await world.cluster();
  await expectHeld(
    world,
    { ...ref, name },
    async () => {
      try {
        return [await cluster.client.get(ref, name)];
      } catch (e) {
        if ((e as { code?: number }).code === 404) return [];
        throw e;
      }
    },
    (objects) => check(objects.find((o) => o.metadata.name === name)),
  );
}

/** Some event with this reason names the object (and, when given, one of them has this message). */
export async function expectEvent(
  world: KubeWorld,
  reason: string,
  involvedName: string,
  what: string,
  message?: string,
): Promise<void> {
  const cluster = await world.cluster();
  const events = await cluster.events({ involvedName, reason });
  expect(
    events.map((e) => `${e.reason}: ${e.message}`),
    `events for ${what}`,
  ).to.not.be.empty;
  if (message !== undefined) expect(events.map((e) => e.message)).to.include(message);
}

interface StatusCondition {
  type: string;
  status: string;
  reason?: string;
}

/** An object's conditions as the messages show them. */
export function describeConditions(conditions: StatusCondition[] | undefined): string {
  return (conditions ?? []).map((c) => `${c.type}=${c.status} (${c.reason ?? ''})`).join(', ') || 'no conditions';
}

/** The object (named `subject` in the messages) has the condition with this status, and this reason when given. */
export function expectCondition(
  subject: string,
  conditions: StatusCondition[] | undefined,
  type: string,
  status: string,
  reason?: string,
): void {
  const c = conditions?.find((x) => x.type === type);
  expect(c, `${subject} has no ${type} condition (${describeConditions(conditions)})`).to.not.equal(undefined);
  expect(c!.status, `conditions of ${subject}: ${describeConditions(conditions)}`).to.equal(status);
  if (reason !== undefined) expect(c!.reason).to.equal(reason);
}

/**
 * A table cell that states a value: the value itself, or "<matches /RE/>" for its form (what a
 * real machine or release reports varies, its shape does not).
 */
export function expectCell(actual: unknown, expected: string, what: string): void {
  const form = /^<matches \/(.*)\/>$/.exec(expected);
  if (form) expect(actual, what).to.be.a('string').and.match(new RegExp(form[1]));
  else expect(actual, what).to.equal(expected);
}

/**
 * The latest of some objects' times (ms since the epoch), once every one is known: `read` gives
 * each object's time (NaN while it has none) or undefined while the set is not complete yet.
 * Waits up to a minute: on a real clock the objects are still being made and started.
 */
export async function latestOnceAllKnown(
  world: KubeWorld,
  description: string,
  read: () => Promise<number[] | undefined>,
): Promise<number> {
  const cluster = await world.cluster();
  let latest = 0;
  await cluster.waitFor(
    description,
    async () => {
      const times = await read();
      if (!times || times.length === 0 || times.some(Number.isNaN)) return false;
      latest = Math.max(...times);
      return true;
    },
    60_000,
  );
  return latest;
}

/** Lets time pass until `ms` after `since` (the cluster's clock), or fails if that is past. */
export async function advanceUntil(world: KubeWorld, since: number, ms: number, what: string): Promise<void> {
  const cluster = await world.cluster();
  const wait = since + ms - cluster.now();
  if (wait < 0) {
    const late = { at: since + ms, by: -wait, what: `${ms / 1000} s after ${what}` };
    // Where the target keeps the objects' states, the outcomes judge what held from that instant on.
    if (!cluster.objectStates) throw new Error(`already ${late.by} ms past ${late.what}`);
    world.late = late;
    return;
  }
  await cluster.advance(wait);
}

/**
 * Lets time pass from the instant the last action or wait ended. On a virtual clock that is
 * now: checks take no time. On a real one the checks between took seconds on a loaded machine
 * (8 s at load 50: job.feature:15 in the twenty-third full run read the Job 5 s after it
 * completed, where the scenario's timeline has it at the wait's end). Past that instant
 * already, the wait ends at once and the outcomes after it judge what held from it on
 * (advanceUntil); where the target keeps no record of states, it waits the whole time from now.
 */
export async function letTimePass(world: KubeWorld, ms: number): Promise<void> {
  const cluster = await world.cluster();
  const from = world.judgedFrom;
  if (cluster.capabilities.virtualTime || from === undefined || (from + ms < cluster.now() && !cluster.objectStates))
    return cluster.advance(ms);
  await advanceUntil(world, from, ms, 'the last action or wait ended');
}
