// A template with its parts marked (scoring.templatetags.sheet_row_parts) filled in from a view:
// parts kept, repeated or dropped, values written as they are.

import assert from "node:assert/strict";
import { test } from "node:test";

import { fillTemplate, parseTemplate } from "../../static/js/table/fill-template.js";

const part = (name, body, mark = "#") => `\x1d${mark}${name}\x1d${body}\x1d/${name}\x1d`;
const value = (name) => `\x1e${name}\x1e`;

test("a part is kept when its name is true and dropped when false or missing", () => {
  const template = `<p>${part("late", " late")}${part("gone", " gone")}</p>`;
  assert.equal(fillTemplate(template, { late: true, gone: false }), "<p> late</p>");
  assert.equal(fillTemplate(template, {}), "<p></p>");
});

test("a part's else is kept when its name is false", () => {
  const template = part("many", `×${value("count")}`) + part("many", "one", "^");
  assert.equal(fillTemplate(template, { many: true, count: 3 }), "×3");
  assert.equal(fillTemplate(template, { many: false, count: 1 }), "one");
});

test("a list repeats its part for each item, whose values come first", () => {
  const template = `${part("cells", `<td>${value("total")}${value("sign")}</td>`)}`;
  const view = { sign: "!", cells: [{ total: 1 }, { total: -2, sign: "" }] };
  assert.equal(fillTemplate(template, view), "<td>1!</td><td>-2</td>");
  assert.equal(fillTemplate(template, { cells: [] }), "");
  assert.equal(fillTemplate(part("cells", "x", "^"), { cells: [] }), "x");
});

test("parts nest, and a value with none is empty", () => {
  const template = part("a", `[${part("b", value("v"))}${value("w")}]`);
  assert.equal(fillTemplate(template, { a: true, b: true, v: "&amp;" }), "[&amp;]");
  assert.equal(fillTemplate(template, { a: true, b: false, w: 0 }), "[0]");
});

test("a template whose parts do not close is refused", () => {
  assert.throws(() => parseTemplate(`\x1d#a\x1dx`), /leaves "a" open/);
  assert.throws(() => parseTemplate(`x\x1d/a\x1d`), /closes "a" unopened/);
});
