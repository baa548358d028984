/**
 * Text made into HTML that can only ever be text. A skill's name,
 * description, arguments, file names and findings come from the served
 * folder and are untrusted: each is escaped for the HTML syntax (HTML Living
 * Standard §13.1.2.6 attribute values, §13.1.3 text) and has its controls and
 * bidi overrides made visible (util/printable.ts: Trojan Source,
 * CVE-2021-42574), so it cannot end an element, open one, or reorder what a
 * reader sees.
 */
import { escapeControls } from '../../util/printable.js';

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const SPECIAL = /[&<>"']/g;

/** `text` escaped for HTML text and quoted attribute values alike; nothing else changed. */
export function escapeHtml(text: string): string {
  return text.replace(SPECIAL, (char) => ENTITIES[char] as string);
}

/** Untrusted `text` as HTML: controls and bidi overrides made visible, then escaped. */
export function text(value: string): string {
  return escapeHtml(escapeControls(value, { lines: true }));
}

/** A size in bytes as people read it: 512 B, 1.5 KB, 2.3 MB (powers of 1024). */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}
