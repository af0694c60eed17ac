// A deal read from the fields the server's deal form posts is the deal the engine stored; what
// the form lacks is refused in the form's own words.

import assert from "node:assert/strict";
import { test } from "node:test";

import * as scoring from "../../static/js/sheet-scoring.js";
import { dealFromFields } from "../../static/js/table/deal-form.js";
import { table } from "./fixtures.js";

const { after, forms, words } = table;
const context = { players: after.players, rules: after.sheet.rules, scoring, words };

test("each deal of the sheet is read back from its form's fields", () => {
  for (const { fields, entry } of forms) {
    assert.deepEqual(dealFromFields(fields, "deal", context), { entry }, entry.game);
  }
});

test("a correction's fields are read alike under their own prefix", () => {
  const { fields, entry } = forms[0];
  const fix = Object.fromEntries(
    Object.entries(fields).map(([name, value]) => [name.replace("deal-", "fix-"), value]),
  );
  assert.deepEqual(dealFromFields(fix, "fix", context), { entry });
});

test("figures typed with spaces around them are read", () => {
  const { fields, entry } = forms[0];
  const spaced = { ...fields, "deal-tricks": ` ${fields["deal-tricks"]} ` };
  assert.deepEqual(dealFromFields(spaced, "deal", context), { entry });
});

test("a pass is a deal with no figures", () => {
  assert.deepEqual(dealFromFields({ "deal-game": "pass" }, "deal", context), {
    entry: { game: "pass" },
  });
});

test("what the form lacks is refused in the form's words", () => {
  const { fields } = forms.find((form) => form.entry.game === "lielais");
  const without = (name) => Object.fromEntries(Object.entries(fields).filter(([n]) => n !== name));
  assert.deepEqual(dealFromFields({}, "deal", context), { error: words.required });
  assert.deepEqual(dealFromFields(without("deal-declarer"), "deal", context), {
    error: words.choose_declarer,
  });
  assert.deepEqual(dealFromFields(without("deal-tricks"), "deal", context), {
    error: words.enter_tricks,
  });
  assert.deepEqual(dealFromFields(without("deal-points"), "deal", context), {
    error: words.enter_points,
  });
});

test("mazā zole needs no card points", () => {
  const { fields, entry } = forms.find((form) => form.entry.game === "maza_zole");
  assert.equal(fields["deal-points"], undefined);
  assert.deepEqual(dealFromFields(fields, "deal", context), { entry });
});

test("a galdiņš refuses a playing player's missing tricks, not the one who sits out", () => {
  const { fields } = forms.find((form) => form.entry.game === "galdins");
  const sitsOut = fields["deal-sits_out"];
  const playing = after.players.map((p) => p.key).filter((key) => key !== sitsOut);
  const missing = { ...fields };
  delete missing[`deal-tricks_${playing[0]}`];
  assert.deepEqual(dealFromFields(missing, "deal", context), { error: words.enter_his_tricks });
});

test("a rondo galdiņš tie asks who drew the card, naming the tied players", () => {
  const rondo = { ...context, rules: { ...after.sheet.rules, galdins_scoring: "rondo" } };
  const [a, b, c] = after.players.slice(1).map((p) => p.key);
  const fields = {
    "deal-game": "galdins",
    "deal-sits_out": after.players[0].key,
    // The winner took no trick: 3 to share between the two who tie, one pays the larger half.
    [`deal-tricks_${a}`]: "4",
    [`deal-points_${a}`]: "60",
    [`deal-tricks_${b}`]: "4",
    [`deal-points_${b}`]: "60",
    [`deal-tricks_${c}`]: "0",
    [`deal-points_${c}`]: "0",
  };
  const asked = dealFromFields(fields, "deal", rondo);
  assert.deepEqual(asked.tied, [a, b]);
  assert.ok(asked.error.startsWith(`${after.players[1].name} and ${after.players[2].name}`));
  const drawn = dealFromFields({ ...fields, "deal-draw_loser": b }, "deal", rondo);
  assert.equal(drawn.entry.draw_loser, b);
});
