// Session ids to storage keys for the Cloudflare stores: injective for any id, bounded in bytes.
import * as v from 'valibot';

const encoder = new TextEncoder();
// A lone surrogate would turn into U+FFFD on the wire (UTF-8), so '\uD800' and '\uFFFD' would share a key.
const loneSurrogate = /\p{Cs}/u;

/** The UTF-8 length of a string, in bytes. */
export function byteLength(text: string): number {
  return encoder.encode(text).byteLength;
}

/** A key prefix option: 1 to 64 bytes of well-formed text, default `'tsl:'`. */
export const prefixSchema: v.OptionalSchema<v.GenericSchema<string>, 'tsl:'> = v.optional(
  v.pipe(
    v.string('must be a string'),
    v.check((text) => text.length > 0, 'must not be empty (the store would share its keys with everything else)'),
    v.check((text) => !loneSurrogate.test(text), 'must be well-formed text (no lone surrogates)'),
    v.check((text) => byteLength(text) <= 64, 'must be at most 64 bytes'),
  ),
  'tsl:',
);

/**
 * The key of a session: `<base>s:<id>` when that fits in `maxBytes` and the id is well-formed text,
 * else `<base>h:<SHA-256 of the id's UTF-16 code units, hex>`. The two markers keep a plain id from
 * ever spelling another id's hashed key, and hashing code units (not UTF-8) keeps ill-formed ids apart.
 */
export async function sessionKey(base: string, sessionId: string, maxBytes: number): Promise<string> {
  const plain = `${base}s:${sessionId}`;
  if (!loneSurrogate.test(sessionId) && byteLength(plain) <= maxBytes) return plain;
  const units = new Uint8Array(sessionId.length * 2);
  for (let i = 0; i < sessionId.length; i++) {
    const code = sessionId.charCodeAt(i);
    units[2 * i] = code & 0xff;
    units[2 * i + 1] = code >> 8;
  }
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', units));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return `${base}h:${hex}`;
}

/**
 * The key of a shared value: a session key under `<base>x:`, so `<base>x:s:<key>` or `<base>x:h:<hash>`. Session
 * keys start with `<base>s:` or `<base>h:`, so no session id reaches a shared value and no shared key a session.
 */
export function sharedKey(base: string, key: string, maxBytes: number): Promise<string> {
  return sessionKey(`${base}x:`, key, maxBytes);
}
