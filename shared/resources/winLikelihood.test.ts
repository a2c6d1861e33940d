import { describe, expect, it } from 'vitest';
import { winLikelihood } from './winLikelihood.js';

describe('the likelihood a deal is weighted by', () => {
  it('is 100 % for a won deal, whatever the stage or the deal itself said', () => {
    expect(winLikelihood('won', 100)).toBe(100);
    expect(winLikelihood('won', 90)).toBe(100);
    expect(winLikelihood('won', 90, 30)).toBe(100);
    expect(winLikelihood('won', 0, 0)).toBe(100);
  });

  it("is an open deal's own likelihood when set, else its stage's", () => {
    expect(winLikelihood('in_progress', 50)).toBe(50);
    expect(winLikelihood('in_progress', 50, 20)).toBe(20);
    expect(winLikelihood('incoming', 10, 0)).toBe(0);
  });

  it("is a lost or unqualified stage's own (0 unless an admin set another)", () => {
    expect(winLikelihood('lost', 0)).toBe(0);
    expect(winLikelihood('unqualified', 0, null)).toBe(0);
  });
});
