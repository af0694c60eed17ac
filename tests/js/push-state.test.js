// The page offers messages only where the browser can take them, and says why not otherwise.

import assert from "node:assert/strict";
import { test } from "node:test";

import {
  applicationServerKey,
  isAppleMobile,
  pushState,
} from "../../static/js/notices/push-state.js";

const desktop = {
  serviceWorker: true,
  pushManager: true,
  notification: true,
  permission: "default",
  appleMobile: false,
  standalone: false,
};

test("a browser with a worker, push and notifications is ready", () => {
  assert.equal(pushState(desktop), "ready");
  assert.equal(pushState({ ...desktop, permission: "granted" }), "ready");
});

test("notifications the player refused block the messages", () => {
  assert.equal(pushState({ ...desktop, permission: "denied" }), "blocked");
});

test("a browser without push cannot take messages", () => {
  assert.equal(pushState({ ...desktop, pushManager: false }), "unsupported");
  assert.equal(pushState({ ...desktop, serviceWorker: false }), "unsupported");
  assert.equal(pushState({ ...desktop, notification: false }), "unsupported");
});

test("an iPhone takes messages only as a web app opened from the home screen", () => {
  const iphone = { ...desktop, appleMobile: true, pushManager: false, notification: false };
  assert.equal(pushState(iphone), "home-screen");
  assert.equal(
    pushState({ ...iphone, standalone: true, pushManager: true, notification: true }),
    "ready",
  );
});

test("iPhones and iPads are told apart from Macs", () => {
  const iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15";
  const mac = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15";
  assert.equal(isAppleMobile(iphone, 5), true);
  assert.equal(isAppleMobile(mac, 0), false);
  assert.equal(isAppleMobile(mac, 5), true); // an iPad that asks for the desktop site
  assert.equal(isAppleMobile("Mozilla/5.0 (Linux; Android 15) Chrome/131", 5), false);
});

test("the site's key is read from base64url", () => {
  const key = applicationServerKey(
    "BJk-GRFlcz2Z0w-8QSVUlLvHMlvrfQfECNJD7Yij7RyvkK4JLJsruyu6JoaBgoJ25qVWKLxf5CjWUCYiep2zMgA",
  );
  assert.equal(key.length, 65);
  assert.equal(key[0], 4); // an uncompressed P-256 point
  assert.deepEqual([...applicationServerKey("_-8")], [0xff, 0xef]);
});
