// The phone writes a row of the sheet as the server does (scoring/_sheet_row.html): each row of
// the sheet after the queue is the row the server renders once it stored the queue, but for
// what marks a row as the phone's (its place instead of the server's id, "on this phone").

import assert from "node:assert/strict";
import { test } from "node:test";

import * as scoring from "../../static/js/sheet-scoring.js";
import { footHtml, refusedRowHtml, rowHtml } from "../../static/js/table/sheet-row.js";
import { sheetWithQueue } from "../../static/js/table/sheet-state.js";
import { DEALS_PER_ROUND, table } from "./fixtures.js";

const { before, queue, after, rows, words } = table;
const players = after.players;
const SHAPE = { pules: true, action: false }; // the server's rows: pules kept, not editable

// The server's row as the phone places it: its position instead of its id, on one line.
function placedAsThePhone(html) {
  return html
    .replaceAll("\n", "")
    .replace(
      /^<tr id="entry-(\d+)" class="([^"]*)">/,
      '<tr class="$2" data-position="$1" data-phone-row>',
    );
}

// The phone's row without the marks of an entry taken on this phone.
function withoutOnPhoneMarks(html) {
  return html
    .replace(" on-phone", "")
    .replace(/ <span class="on-phone-mark"[^>]*>[^<]*<\/span>/, "");
}

test("every row of the sheet is the server's row", () => {
  const sheet = sheetWithQueue(before, queue, scoring, DEALS_PER_ROUND);
  assert.equal(sheet.rows.length, rows.length);
  sheet.rows.forEach((row, index) => {
    const phone = rowHtml(sheet.deals[index], sheet.scored.deals[index], row, SHAPE, {
      players,
      words,
    });
    assert.equal(withoutOnPhoneMarks(phone), placedAsThePhone(rows[index]), `row ${index + 1}`);
  });
});

test("an entry taken on the phone is marked as such", () => {
  const sheet = sheetWithQueue(before, queue, scoring, DEALS_PER_ROUND);
  const last = sheet.rows.length - 1;
  const phone = rowHtml(sheet.deals[last], sheet.scored.deals[last], sheet.rows[last], SHAPE, {
    players,
    words,
  });
  assert.match(phone, /^<tr class="entry-row on-phone" data-position="6" data-phone-row>/);
  assert.ok(phone.includes(`<span class="on-phone-mark" title="${words.on_phone_title}">`));
});

test("a row before the sheet scores shows the deal with empty boxes", () => {
  const phone = rowHtml(after.sheet.deals[0], null, { position: 1, version: 1 }, SHAPE, {
    players,
    words,
  });
  assert.ok(phone.includes('<th scope="row" class="entry-no">–</th>'));
  assert.equal(phone.split('<td class="entry-cell"></td>').length - 1, players.length);
});

test("a refused entry keeps the server's words, escaped, and its remove button", () => {
  const record = { ...queue[0], status: "refused", message: "deal <5>: refused", number: 5 };
  const html = refusedRowHtml(record, { pules: true, action: true }, { players, words });
  assert.ok(html.includes('<p class="entry-refusal">deal &lt;5&gt;: refused</p>'));
  assert.ok(html.includes(`colspan="${players.length + 2}"`));
  assert.ok(html.includes(`data-queue-remove="${record.key}"`));
});

test("the foot once every deal is in: the settlement signed, the totals", () => {
  const scored = { settlement: { a: 2, b: -2 }, totals: { a: 10, b: -10 } };
  const two = [players[0], players[1]].map((p, i) => ({ ...p, key: ["a", "b"][i] }));
  const html = footHtml(scored, SHAPE, { players: two, words });
  assert.ok(html.includes("<td>+2</td><td>-2</td>"));
  assert.ok(html.includes("<td>10</td><td>-10</td>"));
});
