import { EtcdStore } from '../../src/store/etcd';
import { storeContract } from './contract';
import { EtcdServer, etcdMissing } from '../../src/store/etcd-process';

const skip = etcdMissing();
const etcd = new EtcdServer();
let n = 0;
storeContract({
  name: 'etcd',
  skip,
  setup: async () => {
    await etcd.start();
  },
  teardown: () => etcd.stop(),
  // Each test in its own key space of one etcd (revisions are etcd's, shared; the tests run one at a time).
  open: (q) => EtcdStore.open({ endpoints: [etcd.endpoint], keyPrefix: `/t${++n}` }, q),
  reopen: (closed, q) => EtcdStore.open({ endpoints: [etcd.endpoint], keyPrefix: (closed as EtcdStore).keyPrefix }, q),
});
