// The phone's text as the server writes it: HTML escaped as Django escapes, messages filled in
// as Python's "%(name)s" formatting fills them, and the client keys of the entries it takes.

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };

// As Django's escape.
export function escapeHtml(value) {
  return String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

// Python's "%(name)s" / "%(name)d" formatting.
export function formatText(template, params) {
  return template.replace(/%\(([a-z_]+)\)[sd]|%%/g, (_found, name) =>
    name === undefined ? "%" : String(params[name]),
  );
}

// A random UUID (version 4): the entry's client key, which the server stores once.
export function newClientKey(crypto = globalThis.crypto) {
  if (crypto?.randomUUID) {
    return crypto.randomUUID(); // only in a secure context (https, localhost)
  }
  const bytes = new Uint8Array(16);
  if (crypto?.getRandomValues) {
    crypto.getRandomValues(bytes);
  } else {
    for (let i = 0; i < 16; i++) bytes[i] = Math.floor(Math.random() * 256);
  }
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
