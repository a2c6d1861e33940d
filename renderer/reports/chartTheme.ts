/** The charts' colours, from the app's palette (styles.css): accent teal, its light tint, and the danger red for losses. */
export const COLORS = {
  primary: '#0f6b6e',
  secondary: '#9fd3d4',
  lost: '#e4665c',
  line: '#123a44',
  grid: '#eef1f4',
  muted: '#66748a',
};

/** One colour per activity kind, told apart by lightness too (for colour-blind readers). */
export const SERIES = ['#0f6b6e', '#5fb3b5', '#e2b93b', '#8a6fb0', '#e4665c'];

/*
 * Bars and lines are drawn without animation (isAnimationActive={false} on each):
 * a report is read, not watched, and a chart resized mid-animation (a phone
 * turned) showed bars and labels out of step.
 */

/** Axis text as the app writes small text. */
export const TICK = { fontSize: 12, fill: COLORS.muted };

/** Whole numbers only on count axes: half a deal is no tick. */
export const countTick = (n: number) => (Number.isInteger(n) ? n.toLocaleString() : '');

/** Legend and tooltip items in the order the series are drawn (recharts sorts them by name otherwise). */
export function seriesOrder(names: readonly string[]) {
  return {
    legend: (item: { value?: unknown }) => names.indexOf(String(item.value)),
    tooltip: (item: { name?: unknown }) => names.indexOf(String(item.name)),
  };
}

/** A category axis's labels: level where there is room, slanted on a phone so long names (stages, sources) do not overlap. */
export function categoryTicks(phone: boolean) {
  return phone ? { interval: 0, angle: -30, textAnchor: 'end', height: 70 } as const : { interval: 0, height: 30 } as const;
}
