// The server's forms with placeholders (entry/phone.py: a name between two ASCII record
// separators) filled in with this page's values, escaped as the server's template escapes.

import { escapeHtml } from "./text.js";

// biome-ignore lint/suspicious/noControlCharactersInRegex: the record separator marks a placeholder
const PLACEHOLDER = /\x1e([a-z_0-9]+)\x1e/g;

// Every placeholder of `template` replaced by its value in `values` (HTML already), "" if none.
export function fillPlaceholders(template, values) {
  return template.replace(PLACEHOLDER, (_found, name) =>
    name in values ? String(values[name]) : "",
  );
}

// The players' placeholders ("key0", "name0", "short0", "initials0"...), escaped.
export function playerPlaceholders(players) {
  const values = {};
  players.forEach((player, index) => {
    values[`key${index}`] = escapeHtml(player.key);
    values[`name${index}`] = escapeHtml(player.name);
    values[`short${index}`] = escapeHtml(player.short);
    values[`initials${index}`] = escapeHtml(player.initials);
  });
  return values;
}
