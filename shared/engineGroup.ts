// One engine per browser profile and hub, however many tabs are open. Every
// tab runs a worker; the workers queue on one Web Lock, and the one holding
// it (the leader) opens the database and answers for all. The others pass
// their tab's requests to it over a BroadcastChannel and hand its events on.
// When the leader's tab closes, its lock is freed, the next worker in the
// queue takes the lead and every request still unanswered is asked again:
// reads are safe to repeat and writes carry an Idempotency-Key.
// (A SharedWorker cannot hold OPFS's synchronous file handles, and Chrome on
// Android has none: so a lock and a channel.)

/** What the leader answers with: the engine's dispatch (a rejection reaches the asker as its error). */
export type Answer<Ask, Reply> = (ask: Ask) => Promise<Reply>;

type Message<Ask, Reply> =
  | { kind: 'ask'; from: string; id: number; ask: Ask }
  | { kind: 'reply'; to: string; id: number; reply: Reply }
  | { kind: 'failed'; to: string; id: number; error: string }
  | { kind: 'leader'; id: string }
  | { kind: 'event'; name: string; payload: unknown };

export interface GroupOptions<Ask, Reply> {
  /** The lock's and the channel's name: one group per hub origin. */
  name: string;
  /** Becomes the leader: opens the engine and returns how it answers (a failure is rethrown to every asker). */
  lead(): Promise<Answer<Ask, Reply>>;
  /** An event the leader published, for this worker's tab. */
  onEvent(name: string, payload: unknown): void;
}

export interface EngineGroup<Ask, Reply> {
  /** Answered by the leader, wherever it runs. */
  ask(ask: Ask): Promise<Reply>;
  /** From the leader: tells every tab (this one included). */
  publish(name: string, payload: unknown): void;
  readonly isLeader: boolean;
  /** Leaves the group: the lock is freed (if held) and pending asks fail. */
  close(): void;
}

interface Pending<Reply> {
  ask: unknown;
  resolve(reply: Reply): void;
  reject(error: unknown): void;
}

/**
 * Asks the group's leader without joining (the service worker: it never leads, and no
 * tab waits on it). Null when no leader answers within `timeoutMs` (no tab open).
 */
export function askLeader<Ask, Reply>(name: string, ask: Ask, timeoutMs: number): Promise<Reply | null> {
  const me = crypto.randomUUID();
  const channel = new BroadcastChannel(name);
  return new Promise<Reply | null>((resolve) => {
    const done = (reply: Reply | null) => {
      clearTimeout(timer);
      channel.close();
      resolve(reply);
    };
    const timer = setTimeout(() => done(null), timeoutMs);
    const send = () => channel.postMessage({ kind: 'ask', from: me, id: 1, ask } satisfies Message<Ask, Reply>);
    channel.onmessage = (event: MessageEvent<Message<Ask, Reply>>) => {
      const message = event.data;
      if ((message.kind === 'reply' || message.kind === 'failed') && message.to === me) done(message.kind === 'reply' ? message.reply : null);
      else if (message.kind === 'leader') send();
    };
    send();
  });
}

/** Joins the group: leads now if no worker does, else follows (and leads when the leader goes). */
export function joinEngineGroup<Ask, Reply>(options: GroupOptions<Ask, Reply>): EngineGroup<Ask, Reply> {
  const me = crypto.randomUUID();
  const channel = new BroadcastChannel(options.name);
  const pending = new Map<number, Pending<Reply>>();
  // Bounded: an ask is asked again only around a change of leader, moments after it was first sent.
  const answered = new Set<string>();
  const ANSWERED_KEPT = 10_000;
  let answer: Answer<Ask, Reply> | null = null;
  let leading: Promise<Answer<Ask, Reply>> | null = null;
  let nextId = 1;
  let release: () => void = () => undefined;

  const post = (message: Message<Ask, Reply>) => channel.postMessage(message);
  const sendPending = () => {
    for (const [id, request] of pending) post({ kind: 'ask', from: me, id, ask: request.ask as Ask });
  };

  // The leader answers each (asker, id) once, however often it is asked again.
  const answerFor = async (from: string, id: number, ask: Ask) => {
    const key = `${from}:${id}`;
    if (answered.has(key) || !answer) return;
    answered.add(key);
    if (answered.size > ANSWERED_KEPT) answered.delete(answered.values().next().value as string);
    try {
      post({ kind: 'reply', to: from, id, reply: await answer(ask) });
    } catch (error) {
      post({ kind: 'failed', to: from, id, error: error instanceof Error ? error.message : String(error) });
    }
  };

  channel.onmessage = (event: MessageEvent<Message<Ask, Reply>>) => {
    const message = event.data;
    if (message.kind === 'ask') void answerFor(message.from, message.id, message.ask);
    else if (message.kind === 'reply' && message.to === me) settle(message.id, (request) => request.resolve(message.reply));
    else if (message.kind === 'failed' && message.to === me) settle(message.id, (request) => request.reject(new Error(message.error)));
    else if (message.kind === 'leader' && message.id !== me) sendPending();
    else if (message.kind === 'event') options.onEvent(message.name, message.payload);
  };

  const settle = (id: number, how: (request: Pending<Reply>) => void) => {
    const request = pending.get(id);
    if (!request) return;
    pending.delete(id);
    how(request);
  };

  void navigator.locks
    .request(options.name, () => {
      leading = options.lead();
      return leading.then(
        (ready) => {
          answer = ready;
          post({ kind: 'leader', id: me });
          // This tab's own requests asked before it led go straight to the engine now.
          for (const [id, request] of pending) settle(id, (own) => void ready(request.ask as Ask).then(own.resolve, own.reject));
          return new Promise<void>((resolve) => (release = resolve));
        },
        (failed: unknown) => {
          for (const id of [...pending.keys()]) settle(id, (own) => own.reject(failed));
          throw failed;
        },
      );
    })
    .catch(() => undefined);

  return {
    ask(ask) {
      if (answer) return answer(ask);
      return new Promise<Reply>((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { ask, resolve, reject });
        // Until someone leads (or while this worker is taking the lead), the ask waits; a new leader asks for it again.
        if (!leading) post({ kind: 'ask', from: me, id, ask });
      });
    },
    publish(name, payload) {
      options.onEvent(name, payload);
      post({ kind: 'event', name, payload });
    },
    get isLeader() {
      return answer !== null;
    },
    close() {
      for (const id of [...pending.keys()]) settle(id, (request) => request.reject(new Error('The engine group was left.')));
      channel.close();
      release();
    },
  };
}
