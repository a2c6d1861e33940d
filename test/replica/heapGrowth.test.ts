import { getHeapSpaceStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { collectGarbageNow } from '../../electron/engine/platform/heap.js';

/**
 * The collection a first sync runs before its end (bulkLoad.ts): in this
 * process's real V8, after a pull-like churn of parsed pages, it gives the
 * young generation's memory back. V8 12 (Node 22, the Electron 45 runtime's)
 * knows the collection's kind; Node 20's V8 11 runs a regular one, which
 * keeps the young generation (the test says so and checks only that it runs).
 */
const youngGenerationMb = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')!.space_size / 2 ** 20;
const v8Major = Number(process.versions.v8.split('.')[0]);

/** Parses pages of records as a pull does, each kept until the next few are parsed, so the young generation grows. */
function churnLikeAPull(): void {
  const page = JSON.stringify(Array.from({ length: 1000 }, (_, i) => ({ id: i, name: `Person ${i} ${'x'.repeat(40)}`, tags: ['vip'], address: { city: `City ${i}` } })));
  const kept: unknown[] = [];
  for (let i = 0; i < 1500; i++) {
    kept.push(JSON.parse(page));
    if (kept.length > 3) kept.shift();
  }
}

describe('collectGarbageNow', () => {
  it("gives back the young generation a pull grew (V8's last-resort collection; a regular one on V8 before 12)", () => {
    churnLikeAPull();
    const grown = youngGenerationMb();
    expect(grown).toBeGreaterThanOrEqual(8);
    collectGarbageNow();
    if (v8Major >= 12) expect(youngGenerationMb()).toBeLessThanOrEqual(grown / 4);
    else console.log(`V8 ${process.versions.v8} runs a regular full collection here, which keeps the young generation (${youngGenerationMb()} MB)`);
  });
});
