// The entry of a guest thread's Worker under Node: it runs the thread of the first message
// its creator sends (worker.mjs).
//
// It is CommonJS on purpose. A Worker whose entry is an ES module first loads Node's ES
// module loader (seventeen more of Node's internal modules, compiled in every Worker),
// which made a Worker ready 4 to 6 ms later, of about 24 ms (Node 20.20, a hello world's
// main thread). Where Node's require() loads ES modules (`process.features.require_module`,
// Node 20.19 and later), the host's modules are read synchronously with it; elsewhere with
// import().

'use strict';

const { isMainThread, parentPort, workerData } = require('node:worker_threads');

/** @param {{run: (data: any, post: (message: any) => void) => void}} worker */
function listen(worker) {
  if (parentPort === null) return;
  parentPort.once('message', (data) => worker.run(data, (m) => parentPort.postMessage(m)));
}

if (!isMainThread && workerData?.pnaclThread) {
  if (process.features.require_module) listen(require('./worker.mjs'));
  else import('./worker.mjs').then(listen);
}
