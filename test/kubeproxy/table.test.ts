import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Service } from '../../src/api/resources/service';
import { buildTable } from '../../src/kubeproxy/table';

test('kube-proxy table: ClusterIP:port to the ready addresses of the same-named endpoint port', () => {
  const s: Service = {
    metadata: { name: 'web', namespace: 'd' },
    spec: { clusterIP: '10.96.0.10', ports: [{ name: 'http', port: 80, protocol: 'TCP' }] },
  };
  const table = buildTable([s, { ...s, metadata: { name: 'h', namespace: 'd' }, spec: { clusterIP: 'None' } }], () => ({
    metadata: { name: 'web' },
    subsets: [
      {
        addresses: [{ ip: '10.0.0.3' }, { ip: '10.0.0.2' }],
        notReadyAddresses: [{ ip: '10.0.0.9' }],
        ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
      },
    ],
  }));
  assert.deepEqual([...table.keys()], ['10.96.0.10:80/TCP']);
  assert.deepEqual(table.get('10.96.0.10:80/TCP')!.backends, [
    { ip: '10.0.0.2', port: 8080 },
    { ip: '10.0.0.3', port: 8080 },
  ]);
});
