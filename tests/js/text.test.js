// The phone's text is escaped and formatted as the server's.

import assert from "node:assert/strict";
import { test } from "node:test";

import { fillPlaceholders, playerPlaceholders } from "../../static/js/table/form-placeholders.js";
import { escapeHtml, formatText, newClientKey } from "../../static/js/table/text.js";
import { table } from "./fixtures.js";

test("HTML is escaped as Django escapes it", () => {
  assert.equal(
    escapeHtml(`<a href="x">'&'</a>`),
    "&lt;a href=&quot;x&quot;&gt;&#x27;&amp;&#x27;&lt;/a&gt;",
  );
});

test("a message is filled in as Python's %-formatting fills it", () => {
  assert.equal(
    formatText("%(count)d of %(total)s, 100%%", { count: 3, total: 24 }),
    "3 of 24, 100%",
  );
});

test("a client key is a version 4 UUID, with or without crypto.randomUUID", () => {
  const shape = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  assert.match(newClientKey(), shape);
  assert.match(newClientKey({ getRandomValues: (bytes) => bytes.fill(255) }), shape);
  assert.match(newClientKey(null), shape);
});

test("a form's placeholders are filled with the page's values, escaped; unknown ones emptied", () => {
  const players = table.after.players;
  const template = "<b>\x1ename0\x1e</b> \x1eshort3\x1e \x1ekey1\x1e \x1eunknown\x1e";
  const filled = fillPlaceholders(template, playerPlaceholders(players));
  assert.equal(
    filled,
    `<b>${escapeHtml(players[0].name)}</b> ${escapeHtml(players[3].short)} ${players[1].key} `,
  );
});
