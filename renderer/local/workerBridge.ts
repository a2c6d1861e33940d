import type { ApiRequest, ApiResponse, BridgeEvent, DesktopBridge } from '../../shared/bridge.js';
import type { EngineAnswers, EngineCall, EngineEvent, PageMessage, WorkerMessage } from '../../shared/localEngine.js';

type Listener = (payload: unknown) => void;

/**
 * The page's side of its engine worker: the same bridge the desktop's preload
 * gives (requests and events), plus the local session's calls.
 */
export class WorkerBridge implements DesktopBridge {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve(result: unknown): void; reject(error: Error): void }>();
  private readonly listeners = new Map<EngineEvent, Set<Listener>>();

  constructor(private readonly worker: Worker) {
    worker.addEventListener('message', (event: MessageEvent<WorkerMessage>) => this.receive(event.data));
  }

  call<C extends EngineCall>(call: C): Promise<EngineAnswers[C['call']]> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (result: unknown) => void, reject });
      this.worker.postMessage({ id, ...call } satisfies PageMessage);
    });
  }

  request(request: ApiRequest): Promise<ApiResponse> {
    return this.call({ call: 'request', request });
  }

  /** Ends the worker (after sign-out): its lock goes to another tab's worker, if any. */
  close(): void {
    this.worker.terminate();
    for (const waiting of this.waiting.values()) waiting.reject(new Error('The engine worker was closed.'));
    this.waiting.clear();
  }

  on(event: BridgeEvent | EngineEvent, listener: Listener): () => void {
    const listeners = this.listeners.get(event) ?? new Set<Listener>();
    this.listeners.set(event, listeners);
    listeners.add(listener);
    return () => listeners.delete(listener);
  }

  private receive(message: WorkerMessage): void {
    if ('event' in message) {
      for (const listener of this.listeners.get(message.event) ?? []) listener(message.payload);
      return;
    }
    const waiting = this.waiting.get(message.id);
    if (!waiting) return;
    this.waiting.delete(message.id);
    if ('error' in message) waiting.reject(new Error(message.error));
    else waiting.resolve(message.result);
  }
}
