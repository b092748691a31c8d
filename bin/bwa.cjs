#!/usr/bin/env node
// @ts-check
'use strict';
// Installed from the package: its build (plain JavaScript, no TypeScript at run time). In bwa's own checkout: the
// build when no source is newer (`npm run build`), else the TypeScript sources through tsx (development).
const fs = require('node:fs');
const path = require('node:path');
const { BUILT_CLI, buildIsFresh } = require('./build.cjs');

const IN_CHECKOUT = fs.existsSync(path.join(__dirname, '..', 'agent', 'cli.ts'));

function loadCli() {
  if (!IN_CHECKOUT || buildIsFresh()) return require(BUILT_CLI);
  // @ts-expect-error tsx/cjs ships no types: required for its effect, a require hook that compiles TypeScript.
  require('tsx/cjs');
  return require('../agent/cli.ts');
}

loadCli()
  .main(process.argv.slice(2))
  .then(
    /** @param {number} code */
    code => {
      process.exitCode = code;
    },
    /** @param {unknown} error */
    error => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
