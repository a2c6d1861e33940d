// A worker for the engine-group spec: it joins the group as an engine worker does, and its "engine" says
// which worker answered. An ask { wait: ms } keeps the leader busy that long; { publish } sends an event to every tab.
import { joinEngineGroup } from '../../shared/engineGroup.js';

interface Ask {
  wait?: number;
  publish?: string;
}

const me = (self as unknown as { name: string }).name;
const group = joinEngineGroup<Ask, { by: string }>({
  name: 'outpost-engine-group-test',
  lead: async () => async (ask) => {
    if (ask.wait) await new Promise((resolve) => setTimeout(resolve, ask.wait));
    if (ask.publish) group.publish('note', { from: me, text: ask.publish });
    return { by: me };
  },
  onEvent: (name, payload) => postMessage({ event: name, payload }),
});

addEventListener('message', (event: MessageEvent<{ id: number; ask: Ask }>) => {
  const { id, ask } = event.data;
  group.ask(ask).then(
    (reply) => postMessage({ id, reply, leader: group.isLeader }),
    (error: unknown) => postMessage({ id, error: String(error) }),
  );
});
