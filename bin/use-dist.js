'use strict';
// Loaded by Cucumber (requireModule) in each of its processes when bin/kubespec runs the
// compiled CLI: the step files' imports of ../src/ load the compiled dist/ modules instead (see
// dist.js), the same copies the CLI itself uses.
require('./dist').useDist();
