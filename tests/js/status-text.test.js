// The progress and the state line say what the phone's sheet and queue are, in the page's words.

import assert from "node:assert/strict";
import { test } from "node:test";

import { hallTime, progressText, queueStatusHtml } from "../../static/js/table/status-text.js";
import { formatText } from "../../static/js/table/text.js";
import { table } from "./fixtures.js";

const { words } = table;
const at = () => "10:05";

test("the progress names the next deal, every deal in, or time up", () => {
  const sheet = { played: 3, complete: false };
  assert.equal(
    progressText(sheet, 24, false, words),
    formatText(words.progress_next, { number: 4, total: 24 }),
  );
  assert.equal(
    progressText(sheet, 24, true, words),
    formatText(words.progress_time_up, { number: 3, total: 24 }),
  );
  assert.equal(
    progressText({ played: 24, complete: true }, 24, false, words),
    formatText(words.progress_complete, { total: 24 }),
  );
});

test("every entry on the server, and when it last answered", () => {
  const html = queueStatusHtml(
    { waiting: 0, refused: 0, heard: "2026-05-02T10:05:00Z" },
    words,
    at,
  );
  assert.equal(html, `${words.all_sent}<br>${formatText(words.heard, { time: "10:05" })}`);
});

test("no connection, entries waiting and refused; never heard", () => {
  const html = queueStatusHtml(
    { waiting: 2, refused: 1, offline: true, sending: true, heard: null },
    words,
    at,
  );
  const said = [
    words.offline,
    formatText(words.waiting, { count: 2 }),
    formatText(words.refused_count, { count: 1 }),
  ];
  assert.equal(html, `${said.join(" · ")}<br>${words.never_heard}`);
});

test("being sent is said only while something waits and the connection is there", () => {
  const html = queueStatusHtml({ waiting: 1, refused: 0, sending: true, heard: "" }, words, at);
  assert.ok(html.includes(words.sending));
});

test("a time is the hall's, in the tournament's time zone", () => {
  const time = new Date("2026-05-02T10:05:00Z");
  assert.equal(hallTime(time, "en-GB", "Europe/Riga"), "13:05");
  assert.equal(
    hallTime(time, "en-GB", "Not/A_Zone"),
    time.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit" }),
  );
});
