import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { preflight, PreflightError } from '../../src/drivers/preflight';

/** An API server that answers the pre-flight's three requests as told. */
async function fakeServer(answers: Record<string, number>): Promise<{ url: string; close(): void }> {
  const server = http.createServer((req, res) => {
    const key = `${req.method} ${req.url?.split('?')[0]}`;
    const code = answers[key] ?? 200;
    res.writeHead(code, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify(
        code === 200
          ? { gitVersion: 'v1.32.0', kind: 'Namespace' }
          : {
              kind: 'Status',
              apiVersion: 'v1',
              status: 'Failure',
              code,
              reason: code === 401 ? 'Unauthorized' : 'Forbidden',
              message:
                code === 401
                  ? 'Unauthorized'
                  : 'namespaces is forbidden: User "robot" cannot create resource "namespaces"',
            },
      ),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`, close: () => server.close() };
}

function kubeconfig(server: string): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kubespec-preflight-')), 'kubeconfig');
  fs.writeFileSync(
    file,
    `apiVersion: v1
kind: Config
clusters: [{ name: c, cluster: { server: "${server}" } }]
users: [{ name: robot, user: { token: t } }]
contexts: [{ name: c, context: { cluster: c, user: robot } }]
current-context: c
`,
  );
  return file;
}

test('the pre-flight passes a cluster that answers all three requests', async () => {
  const s = await fakeServer({});
  try {
    const r = await preflight(kubeconfig(s.url));
    assert.equal(r.version, 'v1.32.0');
    assert.match(r.user, /robot.*token/);
  } finally {
    s.close();
  }
});

test('the pre-flight names the step, server, user and HTTP status of a refusal', async () => {
  for (const [answers, step, status] of [
    [{ 'GET /api/v1/namespaces': 401 }, /authentication check/, /401 Unauthorized/],
    [{ 'POST /api/v1/namespaces': 403 }, /dry-run create/, /403 Forbidden: namespaces is forbidden/],
  ] as const) {
    const s = await fakeServer(answers);
    try {
      await assert.rejects(preflight(kubeconfig(s.url)), (e: Error) => {
        assert.ok(e instanceof PreflightError);
        assert.match(e.message, step);
        assert.match(e.message, status);
        assert.ok(e.message.includes(s.url), 'names the server');
        assert.match(e.message, /user "robot"/);
        return true;
      });
    } finally {
      s.close();
    }
  }
});
