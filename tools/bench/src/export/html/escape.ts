// Every string that comes from a results document goes through here before it reaches the page.

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Text safe in element content and in quoted attribute values. Control characters other than tab,
 * newline and carriage return (which HTML would reject or drop) become U+FFFD.
 */
export function escapeHtml(value: unknown): string {
  return String(value)
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, '\ufffd')
    .replace(/[&<>"']/g, (c) => ENTITIES[c]);
}
