#!/usr/bin/env node
// Runs the TypeScript CLI from a bundle that is rebuilt when its sources change (cli/bundle.mjs).
import { loadCli } from './bundle.mjs';

const { main } = await loadCli();
process.exitCode = await main(process.argv);
