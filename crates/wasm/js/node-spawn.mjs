// Starting a guest thread's Worker under Node. A module of its own, importing nothing but
// Node's, so that the launcher starts the main thread's Worker before it loads the rest of
// the host: a Worker takes longer to start than anything else (about 18 ms here), and
// loading node.mjs and supervisor.mjs first made a hello world end 1.8 ms later (Node
// 20.20, 41 interleaved runs).

import { Worker } from 'node:worker_threads';

/** Stack of the main guest thread's Worker, in MiB (wasm frames live on it). */
const MAIN_STACK_MB = 64;
/** Stack of other guest threads' Workers. */
const THREAD_STACK_MB = 8;

/**
 * Starts a guest thread's Worker (node-worker.bundle.cjs), which waits for its data
 * (worker.mjs's `ThreadData`).
 * @param {boolean} isMain  the main thread's (a larger stack)
 * @returns {Worker}
 */
export function spawnWorker(isMain) {
  return new Worker(new URL('./node-worker.bundle.cjs', import.meta.url), {
    workerData: { pnaclThread: true },
    resourceLimits: { stackSizeMb: isMain ? MAIN_STACK_MB : THREAD_STACK_MB },
  });
}
