// The fixtures the server writes for these tests (tests/entry/test_js_fixtures.py).

import { readFileSync } from "node:fs";

export const table = JSON.parse(
  readFileSync(new URL("./fixtures/table.json", import.meta.url), "utf-8"),
);

export const DEALS_PER_ROUND = table.before.deals_per_round;
