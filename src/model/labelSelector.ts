/**
 * Kubernetes label selectors (issue 22: `memberSelector.byLabel` on stages and groups, as Fleet
 * Manager takes them): requirements joined by commas, all of which must hold.
 *
 * | requirement        | a member matches when                          |
 * |--------------------|------------------------------------------------|
 * | `k=v`, `k==v`      | it has label `k` with value `v`                |
 * | `k!=v`             | it has no label `k`, or one with another value |
 * | `k in (a,b)`       | it has label `k` with value `a` or `b`         |
 * | `k notin (a,b)`    | it has no label `k`, or one with neither value |
 * | `k`                | it has label `k`                               |
 * | `!k`               | it has no label `k`                            |
 *
 * Keys and values follow Kubernetes' label syntax (a key: an optional DNS-subdomain prefix and `/`, then
 * a name of at most 63 characters; a value: at most 63, possibly empty). A selector that does not parse
 * is refused with the position (from 1) of the fault. docs/rules.md §16.
 */

export const MAX_SELECTOR_LENGTH = 512;

export type Requirement =
  | { key: string; op: "=" | "!="; value: string }
  | { key: string; op: "in" | "notin"; values: string[] }
  | { key: string; op: "exists" | "!exists" };

export interface LabelSelector {
  /** The selector as written. */
  text: string;
  requirements: Requirement[];
}

/** A selector that does not parse: `position` counts characters from 1. */
export class LabelSelectorError extends Error {
  constructor(
    readonly position: number,
    readonly reason: string,
  ) {
    super(`${reason} at position ${position}`);
    this.name = "LabelSelectorError";
  }
}

const NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
/** Characters a key or a value may hold (anything else ends it). */
const WORD = /[A-Za-z0-9_.\-/]/;

/** Why `key` is not a label key, or undefined. */
export function labelKeyProblem(key: string): string | undefined {
  const slash = key.indexOf("/");
  const prefix = slash === -1 ? undefined : key.slice(0, slash);
  const name = key.slice(slash + 1); // without a slash (-1), the whole key
  if (prefix !== undefined && (prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix))) return `key '${key}': its prefix must be a DNS subdomain of at most 253 characters`;
  if (name.length > 63 || !NAME.test(name)) return `key '${key}': a name of at most 63 characters, letters, digits, '-', '_' and '.', beginning and ending with a letter or digit`;
  return undefined;
}

/** Why `value` is not a label value, or undefined. */
export function labelValueProblem(value: string): string | undefined {
  if (value.length === 0) return undefined;
  if (value.length > 63 || !NAME.test(value)) return `value '${value}': at most 63 characters, letters, digits, '-', '_' and '.', beginning and ending with a letter or digit`;
  return undefined;
}

/** Parse a selector; throws `LabelSelectorError` naming the position of the first fault. */
export function parseLabelSelector(text: string): LabelSelector {
  if (text.length > MAX_SELECTOR_LENGTH) throw new LabelSelectorError(MAX_SELECTOR_LENGTH + 1, `longer than ${MAX_SELECTOR_LENGTH} characters`);
  let i = 0;
  const spaces = (): void => {
    while (i < text.length && /\s/.test(text[i] as string)) i++;
  };
  const word = (what: string): { word: string; at: number } => {
    spaces();
    const at = i;
    while (i < text.length && WORD.test(text[i] as string)) i++;
    if (i === at) throw new LabelSelectorError(at + 1, `expected ${what}${i < text.length ? `, found '${text[i]}'` : ", found the end"}`);
    return { word: text.slice(at, i), at };
  };
  const checkKey = (key: string, at: number): void => {
    const problem = labelKeyProblem(key);
    if (problem !== undefined) throw new LabelSelectorError(at + 1, problem);
  };
  const value = (): string => {
    spaces();
    const at = i;
    while (i < text.length && WORD.test(text[i] as string)) i++;
    const v = text.slice(at, i);
    const problem = labelValueProblem(v);
    if (problem !== undefined) throw new LabelSelectorError(at + 1, problem);
    return v;
  };
  const requirements: Requirement[] = [];
  spaces();
  if (i === text.length) throw new LabelSelectorError(1, "empty selector: a selector needs at least one requirement");
  for (;;) {
    spaces();
    if (text[i] === "!") {
      i++;
      const { word: key, at } = word("a label key after '!'");
      checkKey(key, at);
      requirements.push({ key, op: "!exists" });
    } else {
      const { word: key, at } = word("a label key");
      checkKey(key, at);
      spaces();
      if (text[i] === "=") {
        i += text.startsWith("==", i) ? 2 : 1;
        requirements.push({ key, op: "=", value: value() });
      } else if (text.startsWith("!=", i)) {
        i += 2;
        requirements.push({ key, op: "!=", value: value() });
      } else if (i === text.length || text[i] === ",") {
        requirements.push({ key, op: "exists" });
      } else {
        const opAt = i;
        const op = /^(notin|in)\b/.exec(text.slice(i))?.[1];
        if (op === undefined) throw new LabelSelectorError(opAt + 1, `expected '=', '==', '!=', 'in', 'notin', ',' or the end after key '${key}'`);
        i += op.length;
        spaces();
        if (text[i] !== "(") throw new LabelSelectorError(i + 1, `expected '(' after '${op}'`);
        i++;
        const values: string[] = [];
        for (;;) {
          values.push(value());
          spaces();
          if (text[i] === ",") {
            i++;
            continue;
          }
          if (text[i] === ")") {
            i++;
            break;
          }
          throw new LabelSelectorError(i + 1, `expected ',' or ')' in the values of '${key} ${op}'`);
        }
        requirements.push({ key, op: op as "in" | "notin", values });
      }
    }
    spaces();
    if (i === text.length) break;
    if (text[i] !== ",") throw new LabelSelectorError(i + 1, `expected ',' or the end, found '${text[i]}'`);
    i++;
  }
  return { text, requirements };
}

/** Whether a member with these labels matches every requirement. */
export function matchesLabels(selector: LabelSelector, labels: Readonly<Record<string, string>> | undefined): boolean {
  return selector.requirements.every((r) => {
    const has = labels !== undefined && Object.prototype.hasOwnProperty.call(labels, r.key);
    const value = has ? (labels as Record<string, string>)[r.key] : undefined;
    switch (r.op) {
      case "=":
        return has && value === r.value;
      case "!=":
        return !has || value !== r.value;
      case "in":
        return has && r.values.includes(value as string);
      case "notin":
        return !has || !r.values.includes(value as string);
      case "exists":
        return has;
      case "!exists":
        return !has;
    }
  });
}

/** At most this many labels on a member (Kubernetes sets no limit; Fleet's members are ARM resources). */
export const MAX_LABELS = 64;
