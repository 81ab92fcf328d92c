/**
 * User text made safe to print on a terminal (issue 19). Whatever a user, a file or a backend wrote —
 * a gate's `displayName`, a member's message, an error from ARM, a file path — is shown as text and
 * can neither move the cursor, retitle the window, rewrite the screen (ESC sequences, C1 controls
 * such as CSI U+009B, which some terminals take as ESC [), nor break "one line per problem".
 *
 * Escaped as JSON writes them (`\n`, `\t`, `\u001b`, `\u009b`): every C0 control (U+0000–U+001F),
 * DEL (U+007F), every C1 control (U+0080–U+009F), and the Unicode line and paragraph separators
 * (U+2028, U+2029), which some viewers break lines at. With `keepNewlines`, `\n` is kept: for text
 * whose line breaks are meant (a message printed under its member). An ESC sequence is made inert by
 * escaping its ESC; the rest of it is plain text.
 */
const ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const KEEP_NEWLINES = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/g;
const SHORT: Record<string, string> = { "\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r" };

function escape(c: string): string {
  return SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

export function printable(text: string, { keepNewlines = false }: { keepNewlines?: boolean } = {}): string {
  return text.replace(keepNewlines ? KEEP_NEWLINES : ONE_LINE, escape);
}
