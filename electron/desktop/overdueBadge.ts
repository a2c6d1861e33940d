// The number of the user's overdue tasks on the dock / launcher icon (macOS,
// Linux docks with the LauncherEntry API) or as an overlay on the taskbar
// button (Windows, which has no badge count). The count comes from the
// engine through the same in-process API as the UI's:
// `GET /v2/tasks?owner_id=<me>&overdue=true&completed=false`.
// Pure Node code (no 'electron' import) so it is tested under Vitest.
import type { ApiResponse, QueryValue } from '../../shared/bridge.js';

/** A GET through the in-process API, as the local user. */
export type EngineGet = (path: string, query?: Record<string, QueryValue>) => Promise<ApiResponse>;

/** Counting stops here: a badge does not need to be exact beyond it, and the count stays a few queries. */
export const MAX_COUNTED = 999;
const PER_PAGE = 100;

interface CollectionBody {
  items?: unknown[];
  meta?: { links?: { next_page?: string } };
}

/** The id of the user the engine acts for (the local user, or the hub user of a replica); null when it cannot say. */
export async function signedInUserId(get: EngineGet): Promise<number | null> {
  const me = await get('/v2/users/self');
  const userId = (me.body as { data?: { id?: unknown } } | null)?.data?.id;
  return me.status === 200 && typeof userId === 'number' ? userId : null;
}

/**
 * The signed-in user's open tasks whose due date has passed (up to MAX_COUNTED).
 * Null when the engine cannot say (no user yet, an error): the badge then stays as it was.
 */
export async function countOverdueTasks(get: EngineGet): Promise<number | null> {
  const userId = await signedInUserId(get);
  if (userId === null) return null;
  let count = 0;
  for (let page = 1; count < MAX_COUNTED; page++) {
    const answer = await get('/v2/tasks', { owner_id: userId, overdue: true, completed: false, per_page: PER_PAGE, page });
    if (answer.status !== 200) return null;
    const body = answer.body as CollectionBody | null;
    count += body?.items?.length ?? 0;
    if (!body?.meta?.links?.next_page) break;
  }
  return Math.min(count, MAX_COUNTED);
}

/** The text next to the badge (the overlay's accessible description, a tooltip). */
export function overdueLabel(count: number): string {
  if (count === 0) return 'No overdue tasks';
  const number = count >= MAX_COUNTED ? `${MAX_COUNTED}+` : String(count);
  return `${number} overdue ${count === 1 ? 'task' : 'tasks'}`;
}

/**
 * Keeps the badge in step: `refresh()` may be called as often as anything
 * changes (a timer, every sync status, every write). Counts never overlap:
 * calls made while one runs share a single count after it (and resolve when
 * that is done); the badge is only touched when the number changed.
 */
export class OverdueBadge {
  private shown: number | null = null;
  private running: Promise<void> | null = null;
  private next: Promise<void> | null = null;

  constructor(
    private readonly count: () => Promise<number | null>,
    private readonly show: (count: number) => void,
  ) {}

  refresh(): Promise<void> {
    if (!this.running) {
      this.running = this.update().finally(() => {
        this.running = null;
      });
      return this.running;
    }
    this.next ??= this.running.then(() => {
      this.next = null;
      return this.refresh();
    });
    return this.next;
  }

  private async update(): Promise<void> {
    let count: number | null;
    try {
      count = await this.count();
    } catch {
      return; // the engine is closing, say: keep what is shown
    }
    if (count === null || count === this.shown) return;
    this.shown = count;
    this.show(count);
  }
}

/**
 * The Windows overlay: a red dot with a white rim, as the raw BGRA pixels
 * `nativeImage.createFromBitmap` takes (the taskbar draws it 16×16 over the
 * corner of the app's icon; the count itself is in the description).
 */
export function overlayDotBitmap(size = 16): Buffer {
  const pixels = Buffer.alloc(size * size * 4);
  const centre = (size - 1) / 2;
  const radius = size / 2;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const distance = Math.hypot(x - centre, y - centre);
      if (distance > radius - 0.5) continue; // transparent outside the dot
      const rim = distance > radius - 2;
      const [blue, green, red] = rim ? [255, 255, 255] : [48, 38, 220];
      pixels.set([blue, green, red, 255], (y * size + x) * 4);
    }
  }
  return pixels;
}
