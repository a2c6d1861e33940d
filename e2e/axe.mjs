// axe-core's audit as the specs run it: the WCAG 2.0, 2.1 and 2.2 rules of levels A and AA, and only what axe
// rates serious or critical fails a test.
import { AxeBuilder } from '@axe-core/playwright';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];
const BLOCKING = new Set(['serious', 'critical']);

/**
 * An axe run in the page itself (axe.run). The app has no frames, so the default (a part per frame, finished in a
 * fresh blank page opened for each audit) checks nothing more and took twice as long per audit.
 */
export function axe(page) {
  return new AxeBuilder({ page }).setLegacyMode();
}

/** The serious and critical WCAG A and AA violations on the page as it is now, within the `include` selectors when given. */
export async function blockingViolations(page, ...include) {
  let builder = axe(page).withTags(WCAG_TAGS);
  for (const selector of include) builder = builder.include(selector);
  const { violations } = await builder.analyze();
  return violations.filter((v) => BLOCKING.has(v.impact));
}

/** Violations as "rule: elements" lines, the form a failed assertion shows. */
export function violationLines(violations) {
  return violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
