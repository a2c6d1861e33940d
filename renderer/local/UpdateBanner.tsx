import { applyUpdate, useAppUpdate } from './appUpdate.js';
import './update.css';

/** Says a newer build of the app is ready, with the button that moves every tab to it. */
export function UpdateBanner() {
  const ready = useAppUpdate((s) => s.ready);
  if (!ready) return null;
  return (
    <div className="update-banner" role="status" aria-label="App update">
      <span>A new version of Outpost is ready. Reloading updates every Outpost tab.</span>
      <button type="button" onClick={applyUpdate}>Reload</button>
    </div>
  );
}
