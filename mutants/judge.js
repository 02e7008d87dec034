#!/usr/bin/env node
// Entry of a mutant's judge process (see worker.ts): installs the transpile cache for the copy
// it runs in (its cwd), then runs the worker.
'use strict';
require('./transpile-cache').installTranspileCache(process.cwd());
require('./worker.ts').judgeMain();
