// Cucumber loads plugins with import(), which cannot read TypeScript: this CommonJS shim
// hands it the plugin (ts-node is registered by bin/kubespec), as progress-formatter.js does.
module.exports = require('./longest-first.ts').default;
