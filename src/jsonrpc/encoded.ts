/**
 * Values encoded once. What is the same for every request (a list page of
 * one catalogue version, a prompt with no arguments, a fixed completion
 * answer) is built once, and so is everything derived from it: its wire form
 * for a revision, that form's JSON text, the text's UTF-8 bytes. An
 * {@link Encoded} value carries those derived forms itself, so the layers
 * that derive them (core, protocol, transports) need no cache of their own
 * and the type says which values may be shared.
 *
 * Why it pays, measured: PERFORMANCE.md.
 */

const FORMS = Symbol('skillport.encoded');

/** What has been derived from one encoded value so far. */
interface Forms {
  text?: string;
  bytes?: Uint8Array;
  /** Forms derived by other layers, by the deriving function or object (an encoder, a server). */
  derived?: WeakMap<object, unknown>;
}

/**
 * A value shared by every request that asks for it: frozen (a stray write
 * fails loudly instead of going out of sync with its cached text), and never
 * changed again. A changed value is a new value.
 */
export type Encoded<T extends object> = T & { readonly [FORMS]: Forms };

/**
 * Makes `value` {@link Encoded} in place and returns it: freezes it (all the
 * way down with `deep`, for values a consumer could reach into) and gives it
 * a place for its derived forms. Idempotent. A value frozen already cannot
 * take that place: it is copied first (shallowly).
 */
export function encodeOnce<T extends object>(value: T, deep = false): Encoded<T> {
  if (isEncoded(value)) return value;
  const target = Object.isFrozen(value) ? (Array.isArray(value) ? ([...value] as T) : { ...value }) : value;
  // Not enumerable: JSON.stringify, spreads and for...in do not see it.
  Object.defineProperty(target, FORMS, { value: {} });
  if (deep) for (const key of Object.keys(target)) deepFreeze((target as Record<string, unknown>)[key]);
  return Object.freeze(target) as Encoded<T>;
}

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
}

/** Whether `value` was made with {@link encodeOnce}. */
export function isEncoded<T extends object>(value: T): value is Encoded<T> {
  return FORMS in value;
}

/**
 * The form of `value` that `key` derives, made by `make` on first use and
 * kept with the value. `key` is whatever makes the form differ: the encoder
 * of one revision, the server whose envelope wraps it.
 */
export function derive<T extends object, F>(value: Encoded<T>, key: object, make: (value: T) => F): F {
  const forms = value[FORMS];
  forms.derived ??= new WeakMap();
  if (forms.derived.has(key)) return forms.derived.get(key) as F;
  const form = make(value);
  forms.derived.set(key, form);
  return form;
}

/** The JSON text of `value`, stringified on first use: `JSON.stringify(value)`. */
export function jsonText(value: Encoded<object>): string {
  const forms = value[FORMS];
  forms.text ??= JSON.stringify(value);
  return forms.text;
}

const utf8 = new TextEncoder();

/** The UTF-8 bytes of {@link jsonText}, encoded on first use. */
export function jsonBytes(value: Encoded<object>): Uint8Array {
  const forms = value[FORMS];
  forms.bytes ??= utf8.encode(jsonText(value));
  return forms.bytes;
}
