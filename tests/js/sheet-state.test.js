// The sheet with the waiting queue laid over it is the sheet the server has once it stored the
// queue, and the engine's twin scores it as the engine does.

import assert from "node:assert/strict";
import { test } from "node:test";

import * as scoring from "../../static/js/sheet-scoring.js";
import {
  atTimeLimit,
  dealCount,
  sheetWithQueue,
  waitingRecords,
} from "../../static/js/table/sheet-state.js";
import { DEALS_PER_ROUND, table } from "./fixtures.js";

const { before, queue, after, scored } = table;

test("the queue laid over the server's sheet is the sheet the server has after it", () => {
  const sheet = sheetWithQueue(before, queue, scoring, DEALS_PER_ROUND);
  assert.deepEqual(sheet.deals, after.sheet.deals);
  assert.deepEqual(
    sheet.rows.map((row) => [row.position, row.version]),
    after.entries.map((entry) => [entry.position, entry.version]),
  );
  assert.equal(sheet.played, dealCount(after.sheet.deals));
  assert.equal(sheet.error, null);
});

test("it scores as the engine scores the server's sheet", () => {
  const sheet = sheetWithQueue(before, queue, scoring, DEALS_PER_ROUND);
  assert.deepEqual(sheet.scored.totals, scored.totals);
  assert.deepEqual(
    sheet.scored.deals.map((deal) => deal.scores),
    scored.deals.map((deal) => deal.scores),
  );
});

test("the rows from the first one a correction changes are the phone's to show", () => {
  const sheet = sheetWithQueue(before, queue, scoring, DEALS_PER_ROUND);
  const corrected = queue.find((record) => record.action === "correct");
  assert.equal(sheet.changedFrom, corrected.position - 1);
  assert.equal(sheet.rows[corrected.position - 1].record, corrected);
  assert.equal(sheet.rows[corrected.position - 1].reason, corrected.reason);
});

test("a refused entry is not laid over the sheet", () => {
  const refused = queue.map((record, index) =>
    index === 0 ? { ...record, status: "refused" } : record,
  );
  const sheet = sheetWithQueue(before, refused.slice(0, 1), scoring, DEALS_PER_ROUND);
  assert.deepEqual(sheet.deals, before.sheet.deals);
  assert.deepEqual(waitingRecords(refused), queue.slice(1));
});

test("removing the last entry takes its row and deal off", () => {
  const last = before.entries[before.entries.length - 1];
  const removal = { key: "remove", action: "remove", position: last.position, status: "waiting" };
  const sheet = sheetWithQueue(before, [removal], scoring, DEALS_PER_ROUND);
  assert.deepEqual(sheet.deals, before.sheet.deals.slice(0, -1));
  assert.equal(sheet.changedFrom, before.entries.length - 1);
});

test("a confirmation waiting is said, and a sheet is not scored before the twin is loaded", () => {
  const confirmation = { key: "confirm", action: "confirm", status: "waiting" };
  const sheet = sheetWithQueue(before, [confirmation], null, DEALS_PER_ROUND);
  assert.equal(sheet.confirm, confirmation);
  assert.equal(sheet.scored, null);
});

test("once time is up the table may enter only the deal under way", () => {
  const sheet = sheetWithQueue(before, [], scoring, DEALS_PER_ROUND);
  assert.equal(atTimeLimit({ ...before, deal_limit: sheet.played }, sheet, DEALS_PER_ROUND), true);
  assert.equal(
    atTimeLimit({ ...before, deal_limit: sheet.played + 1 }, sheet, DEALS_PER_ROUND),
    false,
  );
  assert.equal(atTimeLimit({ ...before, deal_limit: null }, sheet, DEALS_PER_ROUND), false);
});
