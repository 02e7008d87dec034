// Cucumber loads formatters with import(), which cannot read TypeScript: this CommonJS
// shim hands it the compiled class (ts-node is registered by bin/kubespec).
module.exports = require('./progress.ts').default;
