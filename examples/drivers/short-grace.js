// An example third-party driver (kubespec run --driver examples/drivers/short-grace.js).
//
// A driver module exports `target` (the name reports use) and `createDriver(profile)`,
// returning an object that implements ClusterDriver (src/drivers/driver.ts): an admin
// Client for objects, time (now/advance/waitFor), hollow kubelets, events, capabilities.
//
// This one is deliberately wrong, to show the suite catching a broken implementation: it
// runs kubespec's own reference control plane but forces the node controller's grace
// period to 10 s whatever the scenario or profile asks. Run it and watch exactly the
// heartbeat behaviours (NODE-GRACE-UNKNOWN…) fail while the rest passes.
const { ReferenceDriver } = require('../../src/drivers/reference');

class ShortGraceDriver extends ReferenceDriver {
  configure(flags) {
    super.configure(flags);
    super.configure({ 'kube-controller-manager': { 'node-monitor-grace-period': '10s' } });
  }
}

module.exports = {
  target: 'short-grace-example',
  createDriver: (profile) => new ShortGraceDriver(profile),
};
