#!/usr/bin/env node
'use strict';
// The package ships TypeScript sources; tsx compiles them on load (no build step, no dist/ to go stale).
require('tsx/cjs');
const { main } = require('../agent/cli.ts');
main(process.argv.slice(2)).then(
  code => {
    process.exitCode = code;
  },
  error => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
