// The entry of a guest thread's Worker under Node: it runs the thread of the first message
// its creator sends (worker.mjs).
//
// Node runs node-worker.bundle.cjs: this file and the modules it requires, bundled into one
// CommonJS file by esbuild when pnacl is built (crates/wasm/build.rs). A Worker whose entry
// is an ES module first loads Node's ES module loader, and each module it then loads is
// resolved, read and linked on its own; one CommonJS file made a hello world end 6 to 7 ms
// sooner, of about 95 (Node 20.20: 2 to 3 ms for the loader, 4 for the sixteen modules).
// Where pnacl was built without esbuild, the bundle only requires this file, which then
// needs a Node that can require ES modules (20.19 and later). Browsers load worker.mjs.

'use strict';

const { isMainThread, parentPort, workerData } = require('node:worker_threads');
const worker = require('./worker.mjs');

if (!isMainThread && parentPort !== null && workerData?.pnaclThread) {
  parentPort.once('message', (data) => worker.run(data, (m) => parentPort.postMessage(m)));
}
