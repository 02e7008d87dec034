import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { served, grant, Answer, Served, credentialsOf, requestAnswer } from '../hostile-harness';
import { informerErrors } from '../../src/client/informer';
import { apiVersionOf } from '../../src/api/registry';
import { Store } from '../../src/store';

/**
 * Property-based hostile input (issue 13): fast-check draws requests from the classes an
 * attacker with namespace rights would send — every resource × every verb, with bodies of
 * wrong JSON types, malformed metadata, deep nesting, alias bombs, oversized values,
 * garbage media types and query parameters, bad escapes, deletion fields — and checks of
 * each answer: no 5xx (a 504 only for a watch from a future resourceVersion), every error
 * a Status, the store unchanged when the request was refused. Afterwards every resource
 * still lists and no informer handler failed. Size: FUZZ_RUNS (default 400).
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 400);
const NS = 'team';

interface Req {
  method: string;
  path: string;
  body?: string | Buffer;
  contentType?: string;
  what: string;
}

function watchOnce(
  s: Served,
  caller: (m: string, p: string, b?: string | Buffer, h?: Record<string, string>) => Promise<Answer>,
  r: Req,
): Promise<Answer> {
  if (!/[?&]watch=(true|1)/.test(r.path))
    return caller(r.method, r.path, r.body, r.contentType ? { 'Content-Type': r.contentType } : {});
  // A watch that starts streams forever: take the status and headers, then hang up.
  const url = new URL(s.url);
  return requestAnswer(
    { host: url.hostname, port: url.port, path: r.path, method: 'GET', rejectUnauthorized: false },
    undefined,
    true,
  );
}

/**
 * What a refused request must leave unchanged: every object as stored (key and mod
 * revision), and the value of each allocation range. A refused Service create may reserve
 * its cluster IP and release it again before its validation fails, as upstream's BeginCreate
 * runs before validation: the range is written twice and comes back the same.
 */
async function contents(store: Store): Promise<string> {
  const all = await store.range<unknown>('/');
  return all.items
    .map((kv) =>
      kv.key.startsWith('/registry/ranges/') ? `${kv.key}=${JSON.stringify(kv.value)}` : `${kv.key}@${kv.modRevision}`,
    )
    .join('\n');
}

test(`fuzz: ${RUNS} hostile requests over every resource and verb — no crash, no 5xx, every error a Status, refused requests change nothing`, {
  timeout: 600_000,
}, async () => {
  const s = await served();
  const failuresBefore = informerErrors.count;
  const figures = {
    tried: 0,
    byClass: {} as Record<string, number>,
    codes: {} as Record<number, number>,
    fiveHundreds: 0,
    changedOnRefusal: 0,
  };
  try {
    const registry = s.cluster.api.registry;
    const all = registry.all();
    await grant(s, NS, 'eve', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]);
    const eve = s.as('eve');
    await s.cluster.addKubelet({ name: 'n1', nodeIP: '10.0.0.1' });
    // a few objects to update, patch and delete
    await s.admin('POST', `/api/v1/namespaces/${NS}/secrets`, JSON.stringify({ metadata: { name: 'x' } }));
    await s.admin(
      'POST',
      `/api/v1/namespaces/${NS}/pods`,
      JSON.stringify({ metadata: { name: 'x' }, spec: { containers: [{ name: 'c', image: 'i' }] } }),
    );

    const pathOf = (rt: (typeof all)[number], name?: string, sub?: string) => {
      const base = rt.group ? `/apis/${rt.group}/${rt.version}` : `/api/${rt.version}`;
      const ns = rt.namespaced ? `/namespaces/${NS}` : '';
      return `${base}${ns}/${rt.resource}${name !== undefined ? `/${name}` : ''}${sub ? `/${sub}` : ''}`;
    };
    const resource = fc.constantFrom(...all);
    const anyJson = fc.jsonValue({ maxDepth: 4 });
    const metaValue = fc.oneof(
      fc.record(
        {
          ownerReferences: fc.oneof(
            anyJson,
            fc.array(
              fc.record(
                {
                  apiVersion: fc.option(fc.string()),
                  kind: fc.option(fc.string()),
                  name: fc.option(fc.string()),
                  uid: fc.option(fc.string()),
                  controller: fc.option(fc.boolean()),
                },
                { requiredKeys: [] },
              ),
            ),
          ),
        },
        { requiredKeys: [] },
      ),
      fc.record({ labels: fc.oneof(anyJson, fc.dictionary(fc.string(), fc.string())) }),
      fc.record({ annotations: fc.oneof(anyJson, fc.dictionary(fc.string({ maxLength: 300 }), fc.string())) }),
      fc.record({ finalizers: fc.oneof(anyJson, fc.array(fc.string())) }),
      fc.record(
        {
          deletionTimestamp: fc.oneof(fc.constant('2020-01-01T00:00:00Z'), anyJson),
          deletionGracePeriodSeconds: fc.oneof(fc.integer(), anyJson),
        },
        { requiredKeys: [] },
      ),
      fc.record({ managedFields: anyJson, generation: anyJson, uid: anyJson }, { requiredKeys: [] }),
      fc.dictionary(fc.string(), anyJson),
    );
    const name = fc.oneof(
      fc.constant('x'),
      fc.constant('n1'),
      fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/),
      fc.string({ maxLength: 30 }),
    );
    const object = fc
      .record({
        name,
        meta: metaValue,
        top: fc.dictionary(
          fc.constantFrom(
            'spec',
            'status',
            'data',
            'rules',
            'subjects',
            'roleRef',
            'type',
            'involvedObject',
            'subsets',
            'secrets',
            'kind',
            'apiVersion',
          ),
          anyJson,
        ),
        spec: fc.dictionary(
          fc.constantFrom(
            'containers',
            'selector',
            'template',
            'ports',
            'hard',
            'taints',
            'finalizers',
            'replicas',
            'limits',
            'nodeName',
            'type',
            'clusterIP',
          ),
          anyJson,
        ),
      })
      .map(({ name: n, meta, top, spec }) => ({
        ...top,
        spec: Object.keys(spec).length ? spec : top.spec,
        metadata: { name: n, ...meta },
      }));

    const classes: Record<string, fc.Arbitrary<Req>> = {
      'typed garbage': fc.tuple(resource, object, fc.constantFrom('POST', 'PUT')).map(([rt, o, m]) => ({
        what: 'typed garbage',
        method: m,
        path:
          m === 'POST' ? pathOf(rt) : pathOf(rt, encodeURIComponent(String((o.metadata as { name: unknown }).name))),
        body: JSON.stringify({ apiVersion: apiVersionOf(rt), kind: rt.kind, ...o }),
      })),
      patch: fc
        .tuple(
          resource,
          fc.constantFrom(
            'application/merge-patch+json',
            'application/strategic-merge-patch+json',
            'application/json-patch+json',
            'application/apply-patch+yaml',
            'text/plain',
          ),
          fc.oneof(
            object.map((o) => JSON.stringify(o)),
            anyJson.map((j) => JSON.stringify(j)),
            fc
              .array(
                fc.record(
                  {
                    op: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test', 'bogus'),
                    path: fc.constantFrom(
                      '/metadata',
                      '/metadata/ownerReferences',
                      '/spec',
                      '/spec/containers/0',
                      '/metadata/deletionTimestamp',
                      '/-',
                      '',
                    ),
                    value: anyJson,
                    from: fc.constantFrom('/metadata', '/spec'),
                  },
                  { requiredKeys: ['op', 'path'] },
                ),
              )
              .map((j) => JSON.stringify(j)),
          ),
          fc.constantFrom('x', 'n1'),
          fc.constantFrom(undefined, 'status', 'scale', 'finalize'),
        )
        .map(([rt, ct, body, n, sub]) => ({
          what: 'patch',
          method: 'PATCH',
          path:
            pathOf(rt, rt.resource === 'nodes' ? 'n1' : rt.resource === 'namespaces' ? NS : n, sub) +
            (ct.includes('apply') ? '?fieldManager=fuzz' : ''),
          body,
          contentType: ct,
        })),
      'deep nesting': fc
        .tuple(resource, fc.integer({ min: 50, max: 5000 }), fc.constantFrom('[', '{"a":'))
        .map(([rt, d, open]) => ({
          what: 'deep nesting',
          method: 'POST',
          path: pathOf(rt),
          body: `{"metadata":{"name":"deep"},"spec":${open.repeat(d)}1${(open === '[' ? ']' : '}').repeat(d)}}`,
        })),
      'yaml alias bomb': fc.tuple(resource, fc.integer({ min: 3, max: 12 })).map(([rt, depth]) => {
        const lines = ['a0: &a0 ["x","x","x","x","x","x","x","x","x"]'];
        for (let i = 1; i < depth; i++)
          lines.push(
            `a${i}: &a${i} [${Array(9)
              .fill(`*a${i - 1}`)
              .join(',')}]`,
          );
        return {
          what: 'yaml alias bomb',
          method: 'POST',
          path: pathOf(rt),
          body: `metadata:\n  name: bomb\n${lines.join('\n')}\n`,
          contentType: 'application/yaml',
        };
      }),
      'media types and bytes': fc
        .tuple(
          resource,
          fc.constantFrom(
            'application/vnd.kubernetes.protobuf',
            'application/yaml',
            'application/json',
            'application/cbor',
            'text/html',
            '',
          ),
          fc.uint8Array({ maxLength: 300 }),
        )
        .map(([rt, ct, bytes]) => ({
          what: 'media types and bytes',
          method: 'POST',
          path: pathOf(rt),
          body: Buffer.concat([
            ct.includes('protobuf') ? Buffer.from([0x6b, 0x38, 0x73, 0x00]) : Buffer.alloc(0),
            Buffer.from(bytes),
          ]),
          contentType: ct || 'application/json',
        })),
      'query garbage': fc
        .tuple(
          resource,
          fc.constantFrom(
            'fieldSelector',
            'labelSelector',
            'resourceVersion',
            'timeoutSeconds',
            'watch',
            'gracePeriodSeconds',
            'propagationPolicy',
            'dryRun',
            'limit',
            'continue',
          ),
          fc.oneof(
            fc.string(),
            fc.constantFrom('-1', 'abc', '1e400', '999999999', 'spec.foo=bar', 'metadata.name==x', '!!', 'true', 'All'),
          ),
          fc.constantFrom('GET', 'DELETE'),
          fc.boolean(),
        )
        .map(([rt, k, v, m, watch]) => ({
          what: 'query garbage',
          method: m,
          path: `${pathOf(rt)}?${watch && m === 'GET' ? 'watch=true&' : ''}${k}=${encodeURIComponent(v)}`,
        })),
      'path garbage': fc
        .tuple(
          resource,
          fc.constantFrom(
            '%',
            '%E0%A4%A',
            '%00',
            '..',
            '%2F',
            'x/status/extra',
            'x/nope',
            'x/binding',
            'x/eviction',
            'x/log',
            'x/scale',
            'x/status',
          ),
          fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
        )
        .map(([rt, seg, m]) => ({
          what: 'path garbage',
          method: m,
          path: `${pathOf(rt)}/${seg}`,
          body: m === 'GET' || m === 'DELETE' || m === 'OPTIONS' ? undefined : '{}',
          contentType: m === 'PATCH' ? 'application/merge-patch+json' : undefined,
        })),
      oversized: fc
        .tuple(resource, fc.integer({ min: 3 * 1024 * 1024 - 100, max: 4 * 1024 * 1024 }))
        .map(([rt, n]) => ({
          what: 'oversized',
          method: 'POST',
          path: pathOf(rt),
          body: JSON.stringify({ metadata: { name: 'big', annotations: { a: 'x'.repeat(n) } } }),
        })),
      delete: fc
        .tuple(
          resource,
          fc.constantFrom('x', 'n1', NS, 'nope'),
          fc.oneof(
            fc.constant(undefined),
            anyJson.map((j) => JSON.stringify(j)),
          ),
          fc.boolean(),
        )
        .map(([rt, n, body, collection]) => ({
          what: 'delete',
          method: 'DELETE',
          path: collection ? `${pathOf(rt)}?fieldSelector=spec.bogus%3D1` : pathOf(rt, n),
          body,
        })),
    };
    const request = fc.oneof(...Object.values(classes).map((arb) => ({ arbitrary: arb, weight: 1 })));

    await fc.assert(
      fc.asyncProperty(request, fc.boolean(), async (r, asAdmin) => {
        await s.cluster.settle();
        const before = await contents(s.cluster.api.store);
        const a = await watchOnce(s, asAdmin ? s.admin : eve, r);
        figures.tried++;
        figures.byClass[r.what] = (figures.byClass[r.what] ?? 0) + 1;
        figures.codes[a.code] = (figures.codes[a.code] ?? 0) + 1;
        const ctx = `${r.method} ${r.path.slice(0, 200)} [${r.contentType ?? ''}] ${String(r.body ?? '').slice(0, 300)} → ${a.code} ${a.text.slice(0, 300)}`;
        const futureWatch = a.code === 504 && /Too large resource version/.test(a.json?.message ?? '');
        if (a.code >= 500 && !futureWatch) figures.fiveHundreds++;
        assert.ok(a.code < 500 || futureWatch, `5xx: ${ctx}`);
        if (a.code >= 400) {
          assert.equal(a.json?.kind, 'Status', `not a Status: ${ctx}`);
          assert.equal(a.json?.code, a.code, ctx);
          await s.cluster.settle();
          const after = await contents(s.cluster.api.store);
          if (after !== before) figures.changedOnRefusal++;
          assert.equal(after, before, `a refused request changed the store: ${ctx}`);
        }
      }),
      { numRuns: RUNS, seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined, endOnFailure: true },
    );

    // The server still serves every resource, and no component skipped an object.
    for (const rt of all) {
      const l = await s.admin('GET', pathOf(rt));
      assert.equal(l.code, 200, `${rt.resource} does not list: ${l.text.slice(0, 300)}`);
      if (rt.namespaced)
        assert.equal(
          (
            await s.admin(
              'GET',
              `${rt.group ? `/apis/${rt.group}/${rt.version}` : `/api/${rt.version}`}/${rt.resource}`,
            )
          ).code,
          200,
        );
    }
    assert.equal(informerErrors.count - failuresBefore, 0, 'an informer handler failed on a stored object');
  } finally {
    console.log(
      `fuzz figures: ${JSON.stringify({ ...figures, informerFailures: informerErrors.count - failuresBefore })}`,
    );
    await s.stop();
  }
});

/**
 * Issue 28: a namespace-scoped user (a Role and RoleBinding in one namespace) against every
 * path shape the API server serves — every resource through its own and through a namespaced
 * URL, collections and objects, every subresource and a bogus one, proxies, watches,
 * deletecollection, every patch type, dryRun in the query and in DeleteOptions bodies, and
 * impersonation headers — each answer compared with a model of RBAC: a request the model
 * refuses is 403; one it allows is never 401/403 (and never a 5xx). The model is the Role's
 * rules in its namespace plus what system:authenticated holds cluster-wide (the self reviews).
 */
const TENANT_RULES = [
  { apiGroups: [''], resources: ['pods', 'configmaps'], verbs: ['*'] },
  { apiGroups: [''], resources: ['pods/log', 'pods/status'], verbs: ['get'] },
  { apiGroups: [''], resources: ['secrets', 'services'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: [''], resources: ['services/proxy'], verbs: ['get'] },
  { apiGroups: ['apps'], resources: ['deployments'], verbs: ['*'] },
  { apiGroups: ['apps'], resources: ['deployments/scale'], verbs: ['get'] },
  { apiGroups: ['batch'], resources: ['jobs'], verbs: ['get', 'list'] },
];

interface Shape {
  method: string;
  path: string;
  body?: string;
  headers: Record<string, string>;
  /** What RequestInfo makes of the request, for the model. */
  attrs: { namespace?: string; group: string; resource: string; subresource?: string; verb: string };
  /** The request impersonates someone (the tenant may impersonate nobody). */
  impersonates: boolean;
  shape: string;
}

function modelAllows(s: Shape): boolean {
  const a = s.attrs;
  if (s.impersonates) return false;
  const self =
    a.verb === 'create' &&
    !a.subresource &&
    ((a.group === 'authorization.k8s.io' &&
      ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'].includes(a.resource)) ||
      (a.group === 'authentication.k8s.io' && a.resource === 'selfsubjectreviews'));
  if (self) return true;
  if (a.namespace !== NS) return false;
  const res = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  return TENANT_RULES.some(
    (r) =>
      r.apiGroups.includes(a.group) && r.resources.includes(res) && (r.verbs.includes('*') || r.verbs.includes(a.verb)),
  );
}

test(`fuzz: a namespace-scoped user against every path shape, judged by a model of RBAC (${RUNS} requests)`, {
  timeout: 600_000,
}, async () => {
  const s = await served();
  const figures = {
    requests: 0,
    allowed: 0,
    refused: 0,
    fiveHundreds: 0,
    byShape: {} as Record<string, number>,
    codes: {} as Record<number, number>,
  };
  try {
    const all = s.cluster.api.registry.all();
    await grant(s, NS, 'tina', TENANT_RULES);
    await s.admin('POST', '/api/v1/namespaces', JSON.stringify({ metadata: { name: 'other' } }));
    await s.cluster.addKubelet({ name: 'n1', nodeIP: '10.0.0.1' });
    for (const ns of [NS, 'other']) {
      await s.admin('POST', `/api/v1/namespaces/${ns}/configmaps`, JSON.stringify({ metadata: { name: 'x' } }));
      await s.admin(
        'POST',
        `/api/v1/namespaces/${ns}/pods`,
        JSON.stringify({ metadata: { name: 'x' }, spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'i' }] } }),
      );
    }
    const { server, ca, cert, key } = credentialsOf(s.server.kubeconfigFor(s.url, 'tina', []));
    // The tenant's requests; a watch that starts (200) is hung up at once.
    const tina = (r: Shape) => {
      const h: Record<string, string | number> = { ...r.headers };
      if (r.body !== undefined) h['Content-Length'] = Buffer.byteLength(r.body);
      return requestAnswer(
        { host: server.hostname, port: server.port, method: r.method, path: r.path, ca, cert, key, headers: h },
        r.body,
        r.attrs.verb === 'watch',
      );
    };

    const tenantTypes = all.filter((rt) =>
      TENANT_RULES.some((r) => r.apiGroups.includes(rt.group) && r.resources.includes(rt.resource)),
    );
    const PATCH_TYPES = [
      'application/merge-patch+json',
      'application/strategic-merge-patch+json',
      'application/json-patch+json',
      'application/apply-patch+yaml',
    ];
    const shape = fc
      .record({
        // every resource, and as often the tenant's own (so that the model allows a fair share)
        rt: fc.oneof(fc.constantFrom(...all), fc.constantFrom(...tenantTypes)),
        // the resource's own scope, a namespaced URL (cluster-scoped included), or another namespace
        scope: fc.constantFrom('own', 'own', 'team', 'other', 'cluster'),
        name: fc.constantFrom(undefined, 'x', 'n1', 'nope'),
        sub: fc.oneof(
          { arbitrary: fc.constant(undefined), weight: 4 },
          { arbitrary: fc.constantFrom('nope', 'proxy'), weight: 1 },
          { arbitrary: fc.constant('SUB'), weight: 3 },
        ),
        method: fc.constantFrom('GET', 'GET-WATCH', 'POST', 'PUT', 'PATCH', 'DELETE'),
        patchType: fc.constantFrom(...PATCH_TYPES),
        dryRun: fc.constantFrom('none', 'query', 'body'),
        impersonate: fc.oneof(
          { arbitrary: fc.constant(undefined), weight: 6 },
          { arbitrary: fc.constantFrom('Impersonate-User', 'Impersonate-Group', 'Impersonate-Uid'), weight: 1 },
        ),
        subIndex: fc.nat(),
      })
      .map((d): Shape => {
        const { rt } = d;
        const base = rt.group ? `/apis/${rt.group}/${rt.version}` : `/api/${rt.version}`;
        const ns = d.scope === 'own' ? (rt.namespaced ? NS : undefined) : d.scope === 'cluster' ? undefined : d.scope;
        const subresource =
          d.sub === 'SUB'
            ? rt.subresources.length
              ? rt.subresources[d.subIndex % rt.subresources.length]
              : undefined
            : d.sub;
        const name = subresource && !d.name ? 'x' : d.name;
        let path = `${base}${ns ? `/namespaces/${ns}` : ''}/${rt.resource}${name ? `/${name}` : ''}${name && subresource ? `/${subresource}` : ''}`;
        if (subresource === 'proxy' && name) path += '/some/path';
        const method = d.method === 'GET-WATCH' ? 'GET' : d.method;
        const query: string[] = [];
        if (d.method === 'GET-WATCH') query.push('watch=true');
        if (d.dryRun === 'query' && method !== 'GET') query.push('dryRun=All');
        if (method === 'PATCH' && d.patchType.includes('apply')) query.push('fieldManager=fuzz');
        if (query.length) path += `?${query.join('&')}`;
        // RequestInfo: the verb from the method and whether an object is named; namespaces name their own namespace
        const named = !!name;
        const verb =
          method === 'GET'
            ? named
              ? 'get'
              : d.method === 'GET-WATCH'
                ? 'watch'
                : 'list'
            : method === 'POST'
              ? 'create'
              : method === 'PUT'
                ? 'update'
                : method === 'PATCH'
                  ? 'patch'
                  : named
                    ? 'delete'
                    : 'deletecollection';
        const headers: Record<string, string> = {};
        let body: string | undefined;
        if (method === 'POST' || method === 'PUT')
          body = JSON.stringify({ apiVersion: apiVersionOf(rt), kind: rt.kind, metadata: { name: name ?? 'made' } });
        if (method === 'PATCH') {
          headers['Content-Type'] = d.patchType;
          body = d.patchType.includes('json-patch')
            ? '[{"op":"add","path":"/metadata/labels","value":{"f":"z"}}]'
            : d.patchType.includes('apply')
              ? JSON.stringify({ apiVersion: apiVersionOf(rt), kind: rt.kind, metadata: { name, labels: { f: 'z' } } })
              : '{"metadata":{"labels":{"f":"z"}}}';
        }
        if (method === 'DELETE' && d.dryRun === 'body')
          body = JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['All'] });
        if (body !== undefined && !headers['Content-Type']) headers['Content-Type'] = 'application/json';
        // a user always: groups, uid or extra without one are upstream's 500 ("requested … without
        // impersonating a user", WithImpersonation answers InternalError), which kubespec follows
        if (d.impersonate) headers['Impersonate-User'] = 'admin';
        if (d.impersonate === 'Impersonate-Group') headers[d.impersonate] = 'system:masters';
        if (d.impersonate === 'Impersonate-Uid') headers[d.impersonate] = '1';
        const nsAttr = rt.resource === 'namespaces' && !ns && name ? name : ns;
        return {
          method,
          path,
          body,
          headers,
          attrs: {
            namespace: nsAttr,
            group: rt.group,
            resource: rt.resource,
            subresource: name ? subresource : undefined,
            verb,
          },
          impersonates: !!d.impersonate,
          shape: `${rt.namespaced ? 'namespaced' : 'cluster'}:${d.scope}${subresource && name ? `/${subresource === 'nope' || subresource === 'proxy' ? subresource : 'sub'}` : ''} ${verb}${d.impersonate ? ' impersonating' : ''}`,
        };
      });

    await fc.assert(
      fc.asyncProperty(shape, async (r) => {
        const a = await tina(r);
        const allowed = modelAllows(r);
        figures.requests++;
        figures[allowed ? 'allowed' : 'refused']++;
        figures.byShape[r.shape] = (figures.byShape[r.shape] ?? 0) + 1;
        figures.codes[a.code] = (figures.codes[a.code] ?? 0) + 1;
        const ctx = `${r.method} ${r.path} ${JSON.stringify(r.headers)} ${r.body ?? ''} (model: ${allowed ? 'allowed' : 'refused'} ${JSON.stringify(r.attrs)}) → ${a.code} ${a.text.slice(0, 300)}`;
        if (a.code >= 500) figures.fiveHundreds++;
        assert.ok(a.code < 500, `5xx: ${ctx}`);
        if (allowed) assert.ok(a.code !== 401 && a.code !== 403, `refused what RBAC allows: ${ctx}`);
        else assert.equal(a.code, 403, `not refused: ${ctx}`);
        if (a.code >= 400 && !(a.code === 200 && r.attrs.verb === 'watch')) assert.equal(a.json?.kind, 'Status', ctx);
        await s.cluster.settle();
      }),
      { numRuns: RUNS, seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined, endOnFailure: true },
    );
  } finally {
    const { byShape, ...counts } = figures;
    console.log(`fuzz RBAC-model figures: ${JSON.stringify(counts)} over ${Object.keys(byShape).length} path shapes`);
    await s.stop();
  }
});
