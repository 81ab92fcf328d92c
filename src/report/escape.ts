/**
 * Escaping for the report's HTML. Every piece of text from the input (names, messages, operation ids)
 * goes through one of these: a member name or a message may be any string.
 */
const ENTITIES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text content and attribute values alike. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

/** An attribute value on one line: newlines (tooltips have several lines) become character references. */
export function escapeAttribute(text: string): string {
  return escapeHtml(text).replace(/\r\n|\r|\n/g, "&#10;");
}
