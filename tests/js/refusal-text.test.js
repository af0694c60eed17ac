// The engine's twin refuses what the engine refuses, and the phone words the refusal as the
// server does: the player named, the deal placed as the referee's sheet numbers it.

import assert from "node:assert/strict";
import { test } from "node:test";

import * as scoring from "../../static/js/sheet-scoring.js";
import { playerName, refusalText, translated } from "../../static/js/table/refusal-text.js";
import { table } from "./fixtures.js";

const { after, refused } = table;

function refusal(sheet) {
  try {
    scoring.scoreSheet(scoring.sheetFromJson(sheet));
  } catch (error) {
    if (error instanceof scoring.SheetError) return error;
    throw error;
  }
  return null;
}

test("each refusal is worded as the server words it", () => {
  for (const { sheet, text } of refused) {
    const error = refusal(sheet);
    assert.ok(error, text);
    assert.equal(refusalText(error, sheet.deals, after.players, {}), text);
  }
});

test("a translated message is used when there is one", () => {
  const messages = { "deal %(deal)s: %(message)s": "%(deal)s. partija: %(message)s" };
  assert.equal(
    translated(messages, "deal %(deal)s: %(message)s", { deal: 2, message: "x" }),
    "2. partija: x",
  );
});

test("a player is named by his key, given as it is or as JSON", () => {
  const [first] = after.players;
  assert.equal(playerName(after.players, first.key), first.name);
  assert.equal(playerName(after.players, JSON.stringify(first.key)), first.name);
  assert.equal(playerName(after.players, "nobody"), "nobody");
});
