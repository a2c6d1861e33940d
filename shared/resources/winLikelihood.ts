import type { Stage } from './deal.js';

/**
 * The chance of winning (a percentage) a deal's value is weighted by in
 * pipeline figures. A won deal is won: 100 %, whatever likelihood it or its
 * stage was given while it was open, so a won weighted value never falls
 * below its value. Any other deal: its own likelihood when set, else its
 * stage's.
 */
export function winLikelihood(category: Stage['category'], stageLikelihood: number, dealLikelihood: number | null = null): number {
  if (category === 'won') return 100;
  return dealLikelihood ?? stageLikelihood;
}
