// For specs and benches that drive the web app's engine worker as the app does. Nothing of it is in the product.

/**
 * An init script for a browser context (`context.addInitScript(askingTheEngine)`): records the page's engine
 * worker (the Worker the app makes, named 'outpost-engine') and defines `window.__outpostAsk(call)`, which posts
 * `{ id, ...call }` to it as the app's WorkerBridge does and resolves with the worker's `result` (rejects with its
 * `error`). Its ids start far above the app's own, which the app's bridge never asked and so ignores.
 */
export function askingTheEngine() {
  const Original = window.Worker;
  let nextId = 2_000_000_000;
  window.Worker = class extends Original {
    constructor(url, options) {
      super(url, options);
      if (options?.name === 'outpost-engine') window.__outpostEngine = this;
    }
  };
  window.__outpostAsk = (call) => new Promise((resolve, reject) => {
    const worker = window.__outpostEngine;
    if (!worker) {
      reject(new Error('the page made no engine worker'));
      return;
    }
    const id = nextId++;
    const onMessage = (event) => {
      if (event.data?.id !== id) return;
      worker.removeEventListener('message', onMessage);
      if ('error' in event.data) reject(new Error(event.data.error));
      else resolve(event.data.result);
    };
    worker.addEventListener('message', onMessage);
    worker.postMessage({ id, ...call });
  });
}

/** `request` (an ApiRequest: method, path, query, body) answered by the page's engine: `{ status, body }`. */
export const askEngine = (page, request) => page.evaluate((asked) => window.__outpostAsk({ call: 'request', request: asked }), request);
