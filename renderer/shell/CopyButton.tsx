import { useState } from 'react';

/**
 * A button that copies `text` to the clipboard and says so ("Copied"); none at
 * all where the page may not use the clipboard (not a secure context), since
 * the text is shown selectable beside it anyway.
 */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  if (!window.isSecureContext || !navigator.clipboard) return null;

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return <button type="button" onClick={() => void copy()}>{copied ? 'Copied' : label}</button>;
}
