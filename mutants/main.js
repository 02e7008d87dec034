#!/usr/bin/env node
// `npm run mutants`: see mutants/run.ts. Loaded through the transpile cache its judges share.
'use strict';
require('./transpile-cache').installTranspileCache(require('node:path').resolve(__dirname, '..'));
require('./run.ts')
  .main(process.argv.slice(2))
  .then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      console.error(`mutants: ${err?.message ? err.message : err}`);
      process.exitCode = 2;
    },
  );
