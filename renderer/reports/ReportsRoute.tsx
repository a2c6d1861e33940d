import { lazy, Suspense } from 'react';

/** Loaded when first opened: the charts library is most of its weight, and the other screens never need it. */
const ReportsScreen = lazy(() => import('./ReportsScreen.js').then((m) => ({ default: m.ReportsScreen })));

/** The `/reports` screen, as App routes it. */
export function ReportsRoute() {
  return (
    <Suspense fallback={<p className="muted splash">Loading…</p>}>
      <ReportsScreen />
    </Suspense>
  );
}
