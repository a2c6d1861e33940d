import type { DownloadedFile } from '../api/client.js';

const REVOKE_AFTER_MS = 60_000;

/**
 * Saves an export the API answered as a file: a Blob behind a temporary
 * `<a download>`. Works in a browser and in Electron (its default download
 * handling asks where to save). The page's CSP does not govern downloads, so
 * no `blob:` source needs allowing.
 */
export function saveFile(file: DownloadedFile): void {
  const url = URL.createObjectURL(new Blob([file.text], { type: file.contentType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Freed later rather than at once: some browsers read the Blob only after the click returned.
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}
