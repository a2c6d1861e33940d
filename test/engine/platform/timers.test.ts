import { describe, expect, it } from 'vitest';
import * as nodeSide from '../../../electron/engine/platform/timers.js';
import * as webSide from '../../../electron/engine/platform/timers.web.js';

// The browser's side runs here on Node's MessageChannel: the order is what the engine's commit groups rely on.
describe.each([['Node', nodeSide], ['browser', webSide]] as const)('timers, %s side', (_name, side) => {
  it('runs at the turn\'s end: after this code and its promises, in the order asked, unless cancelled', async () => {
    const ran: string[] = [];
    side.atTurnEnd(() => ran.push('first'));
    const cancel = side.atTurnEnd(() => ran.push('cancelled'));
    side.atTurnEnd(() => ran.push('second'));
    void Promise.resolve().then(() => ran.push('promise'));
    cancel();
    ran.push('this turn');
    await new Promise<void>((resolve) => side.atTurnEnd(resolve));
    expect(ran).toEqual(['this turn', 'promise', 'first', 'second']);
  });
});

it('lets the Node process end with an unref\'d timer pending', () => {
  const timer = setTimeout(() => undefined, 60_000);
  nodeSide.unrefTimer(timer);
  expect(timer.hasRef()).toBe(false);
  clearTimeout(timer);
});
