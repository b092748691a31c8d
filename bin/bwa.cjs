#!/usr/bin/env node
// @ts-check
'use strict';
// The build `npm ci` made (plain JavaScript: starts at once); the TypeScript sources through tsx when a source is
// newer than the build (development, or a checkout that moved on without `npm run build`).
const { BUILT_CLI, buildIsFresh } = require('./build.cjs');

function loadCli() {
  if (buildIsFresh()) return require(BUILT_CLI);
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
