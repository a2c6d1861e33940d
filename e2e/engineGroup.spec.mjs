// One engine for all of a browser's tabs (shared/engineGroup.ts): in
// real Chromium tabs of one profile, each with its worker, the first worker
// leads and answers every tab; closing its tab hands the lead to another,
// which answers what was still being asked; events reach every tab. The
// "engine" here only names the worker that answered (e2e/support/groupWorker.ts):
// the group's messaging is what is under test, the real engine's worker is
// tested with it in the offline specs.
import { expect, test } from './fixtures.mjs';
import { build } from 'esbuild';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';

const PAGE = `<!doctype html><title>group</title><script type="module">
const worker = new Worker('/worker.js', { type: 'module', name: new URL(location.href).searchParams.get('name') });
let next = 1;
const waiting = new Map();
window.events = [];
worker.onmessage = ({ data }) => {
  if (data.event) window.events.push(data.payload);
  else { waiting.get(data.id)(data); waiting.delete(data.id); }
};
window.ask = (ask) => new Promise((resolve) => { const id = next++; waiting.set(id, resolve); worker.postMessage({ id, ask }); });
</script>`;

let server;
let origin;

test.beforeAll(async () => {
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL('./support/groupWorker.ts', import.meta.url))],
    bundle: true, format: 'esm', platform: 'browser', write: false,
  });
  const worker = bundle.outputFiles[0].text;
  server = createServer((request, response) => {
    const script = request.url === '/worker.js';
    response.writeHead(200, { 'content-type': script ? 'text/javascript' : 'text/html' }).end(script ? worker : PAGE);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${server.address().port}`;
});

test.afterAll(() => new Promise((resolve) => server?.close(resolve)));

async function openTab(context, name) {
  const page = await context.newPage();
  await page.goto(`${origin}/?name=${name}`);
  await page.waitForFunction(() => typeof window.ask === 'function');
  return page;
}

const ask = (page, what = {}) => page.evaluate((question) => window.ask(question), what);

test('the first tab leads and answers for the others; closing it hands the lead on, unanswered asks included', async ({ browser }) => {
  const context = await browser.newContext();
  try {
    const first = await openTab(context, 'first');
    expect(await ask(first)).toEqual({ id: 1, reply: { by: 'first' }, leader: true });
    const second = await openTab(context, 'second');
    const third = await openTab(context, 'third');
    expect((await ask(second)).reply).toEqual({ by: 'first' });
    expect(await ask(third)).toMatchObject({ reply: { by: 'first' }, leader: false });

    // Events the leader publishes reach every tab, its own included.
    await ask(third, { publish: 'hello' });
    for (const tab of [first, second, third]) await expect.poll(() => tab.evaluate(() => window.events)).toEqual([{ from: 'first', text: 'hello' }]);

    // The second tab asks something the leader is slow to answer; the leader's tab closes meanwhile.
    const slow = ask(second, { wait: 3_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await first.close();
    const handedOver = await slow;
    expect(['second', 'third']).toContain(handedOver.reply.by);
    const leader = handedOver.reply.by;
    expect((await ask(third)).reply).toEqual({ by: leader });
    expect((await ask(second)).reply).toEqual({ by: leader });

    // And once more, down to one tab.
    const [closing, last] = leader === 'second' ? [second, third] : [third, second];
    await closing.close();
    expect(await ask(last)).toMatchObject({ reply: { by: leader === 'second' ? 'third' : 'second' }, leader: true });
  } finally {
    await context.close();
  }
});

test('tabs of another profile have an engine of their own', async ({ browser }) => {
  const one = await browser.newContext();
  const other = await browser.newContext();
  try {
    const a = await openTab(one, 'a');
    const b = await openTab(other, 'b');
    expect((await ask(a)).reply).toEqual({ by: 'a' });
    expect((await ask(b)).reply).toEqual({ by: 'b' });
  } finally {
    await one.close();
    await other.close();
  }
});
