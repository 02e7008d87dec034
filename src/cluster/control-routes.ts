import type { IncomingMessage, ServerResponse } from 'node:http';
import { NonResourceRoute } from '../apiserver/http/handler';
import { writeJSON } from '../apiserver/http/respond';
import { errors, StatusError } from '../api/errors';
import { parseTaints } from '../api/taints';
import type { Cluster } from './cluster';
import type { KubeletSpec } from './config';
import { HollowNetwork, KubeletCaller } from './hollow-network';

/**
 * kubespec's own control endpoints on a served cluster, which upstream has no API for: the
 * lock scenarios take turns on a shared virtual clock with, the virtual clock itself, and
 * the hollow kubelets (add, stop, start, remove, a request straight to one).
 */

/** One request straight to a hollow kubelet (ClusterServer.kubeletRequest). */
export type HollowKubeletRequest = (
  nodeName: string,
  caller: KubeletCaller,
  method: string,
  pathAndQuery: string,
) => Promise<{ status: number; body: string }>;

/**
 * POST /kubespec/v1/locks/clock {holder, ttlSeconds} → 200 when the caller holds the
 * virtual clock (free, expired, or already its own: renewed), 409 while another holds it;
 * DELETE /kubespec/v1/locks/clock/{holder} releases it. Scenarios sharing one server on a
 * virtual clock take turns with it: time another scenario moved would break their timing.
 * The ttl is wall-clock time, so a killed run's lock runs out.
 */
export function locksRoute(): NonResourceRoute {
  let clockLock: { holder: string; expires: number } | undefined;
  return {
    prefix: '/kubespec/v1/locks',
    untracked: true,
    handle: async (req, res, p, body) => {
      const now = Date.now();
      const held = clockLock && clockLock.expires > now ? clockLock : undefined;
      if (p === '/kubespec/v1/locks/clock' && req.method === 'GET')
        return writeJSON(res, 200, held ? { holder: held.holder, expires: new Date(held.expires).toISOString() } : {});
      if (p === '/kubespec/v1/locks/clock' && req.method === 'POST') {
        const input = parseJSON(await body()) as { holder?: unknown; ttlSeconds?: unknown };
        if (typeof input.holder !== 'string' || !input.holder || input.holder.length > 253)
          throw errors.badRequest('holder must be a non-empty string of at most 253 characters');
        const ttl = input.ttlSeconds;
        if (typeof ttl !== 'number' || !(ttl > 0 && ttl <= 86_400))
          throw errors.badRequest('ttlSeconds must be a number in (0, 86400]');
        if (held && held.holder !== input.holder)
          throw errors.conflict({ kind: 'lock', name: 'clock' }, `held by ${held.holder}`);
        clockLock = { holder: input.holder, expires: now + ttl * 1000 };
        return writeJSON(res, 200, { holder: input.holder, expires: new Date(clockLock.expires).toISOString() });
      }
      const m = /^\/kubespec\/v1\/locks\/clock\/([^/]+)$/.exec(p);
      if (m && req.method === 'DELETE') {
        if (held?.holder === decodeURIComponent(m[1])) clockLock = undefined;
        return writeJSON(res, 200, {});
      }
      throw errors.notFound({ kind: 'kubespec', name: p });
    },
  };
}

/** GET /kubespec/v1/clock → {now, mode}; POST {advanceSeconds} → fires due timers, settles, → {now} (409 on the real clock). */
export function clockRoute(cluster: Cluster): NonResourceRoute {
  return {
    prefix: '/kubespec/v1/clock',
    untracked: true,
    async handle(req, res, p, body) {
      if (p !== '/kubespec/v1/clock') throw errors.notFound({ kind: 'kubespec', name: p });
      const mode = cluster.virtualClock ? 'virtual' : 'real';
      // RFC 3339 with milliseconds: clients step virtual time to the millisecond.
      if (req.method === 'GET') return writeJSON(res, 200, { now: new Date(cluster.clock.now()).toISOString(), mode });
      if (req.method !== 'POST') throw errors.methodNotSupported({ kind: 'clock' }, req.method ?? '');
      if (!cluster.virtualClock)
        throw errors.conflict({ kind: 'clock', name: 'real' }, 'the real clock cannot be advanced');
      const input = parseJSON(await body()) as { advanceSeconds?: unknown };
      const s = input.advanceSeconds;
      if (typeof s !== 'number' || !Number.isFinite(s) || s < 0)
        throw errors.badRequest('advanceSeconds must be a finite non-negative number');
      // Each advance fires every timer due on the way (heartbeats every few seconds per
      // node): one request may move time by at most MAX_ADVANCE_SECONDS, so it returns.
      if (s > MAX_ADVANCE_SECONDS)
        throw errors.badRequest(`advanceSeconds must be at most ${MAX_ADVANCE_SECONDS} (7 days) per request; got ${s}`);
      await cluster.advance(Math.round(s * 1000));
      writeJSON(res, 200, { now: new Date(cluster.clock.now()).toISOString(), mode });
    },
  };
}

/**
 * POST /kubespec/v1/kubelets {nodeName, labels, taints, capacity, allocatable, nodeIP,
 * externalIP, hostnameOverride, podCIDR, reserved, flags} → 201; …/{name}/stop (after one
 * last heartbeat, whose time it returns as lastHeartbeat) and …/start → 200; DELETE …/{name}
 * removes the kubelet, its kube-proxy and its machine → 200 (404 when none runs).
 */
export function kubeletsRoute(
  cluster: Cluster,
  network: HollowNetwork,
  kubeletRequest: HollowKubeletRequest,
): NonResourceRoute {
  return {
    prefix: '/kubespec/v1/kubelets',
    untracked: true,
    async handle(req: IncomingMessage, res: ServerResponse, p: string, body) {
      // DELETE …/{name}: the hollow machine goes for good (clean-up on a long-lived server).
      const del = /^\/kubespec\/v1\/kubelets\/([^/]+)$/.exec(p);
      if (req.method === 'DELETE' && del) {
        const name = decodeURIComponent(del[1]);
        if (!cluster.removeKubelet(name)) throw errors.notFound({ kind: 'kubelets', name });
        const served = network.servers.get(name);
        network.servers.delete(name);
        await served?.server.stop();
        await cluster.settle();
        return writeJSON(res, 200, { nodeName: name, running: false, removed: true });
      }
      if (req.method !== 'POST') throw errors.methodNotSupported({ kind: 'kubelets' }, req.method ?? '');
      if (p === '/kubespec/v1/kubelets') {
        const input = parseJSON(await body()) as Omit<KubeletSpec, 'name' | 'taints'> & {
          nodeName?: string;
          taints?: string | KubeletSpec['taints'];
        };
        if (!input.nodeName) throw errors.badRequest('nodeName is required');
        if (cluster.kubelets.has(input.nodeName))
          throw errors.alreadyExists({ kind: 'kubelets', name: input.nodeName });
        const taints = typeof input.taints === 'string' ? parseTaints(input.taints) : input.taints;
        const { nodeName, taints: _t, ...rest } = input;
        try {
          await cluster.addKubelet({ ...rest, name: nodeName, taints });
        } catch (e) {
          if (e instanceof StatusError) throw e;
          throw errors.badRequest((e as Error).message); // a bad flag or quantity in the spec
        }
        return writeJSON(res, 201, { nodeName: input.nodeName, running: true });
      }
      const m = /^\/kubespec\/v1\/kubelets\/([^/]+)\/(stop|start|request)$/.exec(p);
      if (!m) throw errors.notFound({ kind: 'kubelets', name: p });
      if (m[2] === 'request') {
        // {method, path, caller}: one request straight to that kubelet (see kubeletRequest).
        const input = parseJSON(await body()) as { method?: string; path?: string; caller?: KubeletCaller };
        if (typeof input.path !== 'string' || !input.path.startsWith('/'))
          throw errors.badRequest('path must be an absolute path');
        const caller = input.caller ?? { anonymous: true };
        return writeJSON(
          res,
          200,
          await kubeletRequest(decodeURIComponent(m[1]), caller, input.method ?? 'GET', input.path),
        );
      }
      const kubelet = cluster.kubelets.get(decodeURIComponent(m[1]));
      if (!kubelet) throw errors.notFound({ kind: 'kubelets', name: decodeURIComponent(m[1]) });
      if (m[2] === 'stop') {
        const at = kubelet.isRunning ? await cluster.silenceKubelet(kubelet.name) : cluster.clock.now();
        return writeJSON(res, 200, {
          nodeName: kubelet.name,
          running: false,
          lastHeartbeat: new Date(at).toISOString(),
        });
      }
      await kubelet.start();
      await cluster.settle();
      writeJSON(res, 200, { nodeName: kubelet.name, running: kubelet.isRunning });
    },
  };
}

/** The largest step of virtual time one POST /kubespec/v1/clock may ask for. */
export const MAX_ADVANCE_SECONDS = 7 * 24 * 3600;

export function parseJSON(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8') || '{}');
  } catch (e) {
    throw errors.badRequest(`invalid JSON body: ${(e as Error).message}`);
  }
}
