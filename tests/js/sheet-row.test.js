// The phone writes a row of the sheet from the server's own row (scoring/_sheet_row.html, handed
// with its parts marked: entry/phone.py): each row of the sheet after the queue is the row the
// server renders once it stored the queue, but for what marks a row as the phone's (its place
// instead of the server's id, "on this phone"); so is the foot (scoring/_sheet_foot.html).

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import * as scoring from "../../static/js/sheet-scoring.js";
import { footHtml, refusedRowHtml, rowHtml } from "../../static/js/table/sheet-row.js";
import { sheetWithQueue } from "../../static/js/table/sheet-state.js";
import { DEALS_PER_ROUND, table } from "./fixtures.js";

const { before, queue, after, rows, feet, words, templates } = table;
const players = after.players;
const TABLE = { players, words, templates };
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

// The server's foot as the phone writes it: marked as the phone's, on one line.
function footAsThePhone(html) {
  return html
    .split("\n")
    .map((line) => line.trimStart())
    .join("")
    .replace(/<tr class="(entry-settlement|entry-totals)">/g, '<tr class="$1 on-phone">');
}

test("every row of the sheet after the queue is the server's row", () => {
  const sheet = sheetWithQueue(before, queue, scoring, DEALS_PER_ROUND);
  assert.equal(sheet.rows.length, rows.length);
  sheet.rows.forEach((row, index) => {
    const phone = rowHtml(
      sheet.deals[index],
      sheet.scored.deals[index],
      { ...row, record: null }, // without the mark of an entry taken on this phone
      SHAPE,
      TABLE,
    );
    assert.equal(phone, placedAsThePhone(rows[index]), `row ${index + 1}`);
  });
});

// The table's state tells the phone a row's version, not why it was corrected: a server row the
// phone writes again (an earlier row changed on the phone) has an empty reason.
function withoutReason(html) {
  return html.replace(/(<span class="corrected" title=")[^"]*"/, '$1"');
}

test("every row of the server's sheet, written again by the phone, is the server's row", () => {
  const sheet = sheetWithQueue(after, [], scoring, DEALS_PER_ROUND);
  assert.equal(sheet.rows.length, rows.length);
  assert.ok(rows.some((row) => row.includes('class="corrected"')));
  sheet.rows.forEach((row, index) => {
    const phone = rowHtml(sheet.deals[index], sheet.scored.deals[index], row, SHAPE, TABLE);
    assert.equal(phone, withoutReason(placedAsThePhone(rows[index])), `row ${index + 1}`);
  });
});

test("an entry taken on the phone is marked as such, and is the server's row without it", () => {
  const sheet = sheetWithQueue(before, queue, scoring, DEALS_PER_ROUND);
  const last = sheet.rows.length - 1;
  const phone = rowHtml(
    sheet.deals[last],
    sheet.scored.deals[last],
    sheet.rows[last],
    SHAPE,
    TABLE,
  );
  assert.match(phone, /^<tr class="entry-row on-phone" data-position="6" data-phone-row>/);
  const mark =
    ' <span class="on-phone-mark" title="Entered on this phone: it is sent to the server when ' +
    'the connection allows.">on this phone</span>';
  assert.ok(phone.includes(`${mark}</td>`));
  assert.equal(phone.replace(" on-phone", "").replace(mark, ""), placedAsThePhone(rows[last]));
});

test("the phone's rows hold no correction link, and an empty box where the server has one", () => {
  const sheet = sheetWithQueue(after, [], scoring, DEALS_PER_ROUND);
  const phone = rowHtml(
    sheet.deals[0],
    sheet.scored.deals[0],
    sheet.rows[0],
    {
      pules: false,
      action: true,
    },
    TABLE,
  );
  assert.ok(!phone.includes("<a "));
  assert.ok(!phone.includes("entry-pules"));
  assert.ok(phone.endsWith('<td class="entry-action"></td></tr>'));
});

test("a row before the sheet scores shows the deal with empty boxes", () => {
  const phone = rowHtml(after.sheet.deals[0], null, { position: 1, version: 1 }, SHAPE, TABLE);
  assert.ok(phone.includes('<th scope="row" class="entry-no">–</th>'));
  assert.equal(phone.split('<td class="entry-cell"></td>').length - 1, players.length);
});

test("a refused entry keeps the server's words, escaped, and its remove button", () => {
  const record = { ...queue[0], status: "refused", message: "deal <5>: refused", number: 5 };
  const html = refusedRowHtml(record, { pules: true, action: true }, TABLE);
  assert.match(
    html,
    /^<tr class="entry-row on-phone refused" data-position="4" data-phone-refused>/,
  );
  assert.ok(html.includes("on this phone · refused</span>"));
  assert.ok(html.includes('<p class="entry-refusal">deal &lt;5&gt;: refused</p>'));
  assert.ok(html.includes(`colspan="${players.length + 2}"`));
  assert.ok(html.includes(`data-queue-remove="${record.key}"`));
  assert.ok(!html.includes("entry-cell"));
});

test("an entry the server holds another version of is the phone's version", () => {
  const record = { ...queue[0], status: "refused", message: "m", conflict: true };
  const html = refusedRowHtml(record, SHAPE, TABLE);
  assert.match(html, /^<tr class="entry-row on-phone refused conflict" /);
  assert.ok(html.includes("on this phone · this phone&#x27;s version</span>"));
});

test("a refused confirmation says what it was", () => {
  const record = { key: "k", action: "confirm", status: "refused", message: "no" };
  const html = refusedRowHtml(record, SHAPE, TABLE);
  assert.ok(
    html.includes(`<td class="entry-game"><span class="game">${words.confirmation}</span> `),
  );
  assert.ok(html.includes('<th scope="row" class="entry-no">–</th>'));
});

test("the foot once every deal is in is the server's foot", () => {
  assert.ok(feet.some((foot) => foot.html.includes("+")));
  for (const foot of feet) {
    const html = footHtml(foot, { pules: true, action: foot.editable }, TABLE);
    assert.equal(html, footAsThePhone(foot.html));
  }
});

test("the phone's script holds no markup of a row of its own", () => {
  const script = readFileSync(new URL("../../static/js/table/sheet-row.js", import.meta.url), {
    encoding: "utf-8",
  });
  assert.doesNotMatch(script, /<[a-z]|class=/);
});
