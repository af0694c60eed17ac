// The server's answer replaces what the phone shows only when it is fresher; the queue read from
// storage keeps what is still being written.

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  answerMerged,
  isFresher,
  queueWithoutStored,
  withPending,
} from "../../static/js/table/sync-answer.js";
import { table } from "./fixtures.js";

const { before, after, queue } = table;

test("a fresher state is shown, with when the server was heard", () => {
  const merged = answerMerged(before, before.heard, { state: after, results: [] });
  assert.deepEqual(merged, { base: after, heard: after.heard, current: true });
});

test("an answer older than the sheet shown is not shown", () => {
  const merged = answerMerged(after, after.heard, { state: before, results: [] });
  assert.deepEqual(merged, { base: after, heard: after.heard, current: false });
  assert.equal(answerMerged(after, after.heard, { results: [] }).current, false);
});

test("within the same second the later write tells, by its mark", () => {
  const same = { ...before, heard: after.heard };
  assert.equal(isFresher(after, same), true);
  assert.equal(isFresher(same, after), false);
  assert.equal(isFresher(after, { heard: "" }), true);
  assert.equal(isFresher({ heard: "" }, after), false);
});

test("an entry whose write has not finished is in the queue, a removed one is not", () => {
  const [first, second, third] = queue;
  const pending = new Map([
    [third.key, third],
    [first.key, null],
  ]);
  assert.deepEqual(withPending([first, second], pending), [second, third]);
  assert.deepEqual(withPending([first], new Map()), [first]);
});

test("with no storage to read, the entries the server stored leave the queue", () => {
  const results = [
    { key: queue[0].key, status: "stored" },
    { key: queue[1].key, status: "refused" },
  ];
  assert.deepEqual(queueWithoutStored(queue, { results }), queue.slice(1));
});
