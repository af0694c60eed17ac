// Messages on the player's own page: one tap asks this phone for the site's messages (Web
// Push) and hands the subscription to the server; another tap stops them. The section
// (templates/public/_my_notices.html) carries the site's key, the two addresses and every
// text in the page's language; without JavaScript it only says that messages need it.

import { applicationServerKey, isAppleMobile, pushState } from "./push-state.js";

const section = document.getElementById("my-notices");

function say(text) {
  section.querySelector("[data-status]").textContent = text;
}

function csrfToken() {
  return section.querySelector("input[name=csrfmiddlewaretoken]").value;
}

async function post(address, body) {
  const response = await fetch(address, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
    body: JSON.stringify(body),
    credentials: "same-origin",
  });
  if (!response.ok) {
    let detail = "";
    try {
      detail = (await response.json()).detail || "";
    } catch {
      detail = String(response.status);
    }
    throw new Error(detail || String(response.status));
  }
}

function show(button, receiving) {
  const texts = section.dataset;
  button.hidden = false;
  button.textContent = receiving ? texts.textStop : texts.textStart;
  button.setAttribute("aria-pressed", receiving ? "true" : "false");
  say(receiving ? texts.textOn : texts.textOff);
}

async function start(worker, button) {
  const subscription = await worker.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: applicationServerKey(section.dataset.key),
  });
  await post(section.dataset.subscribe, subscription.toJSON());
  show(button, true);
}

async function stop(worker, button) {
  const subscription = await worker.pushManager.getSubscription();
  if (subscription) {
    await post(section.dataset.unsubscribe, { endpoint: subscription.endpoint });
    await subscription.unsubscribe();
  }
  show(button, false);
}

async function setUp() {
  const texts = section.dataset;
  const state = pushState({
    serviceWorker: "serviceWorker" in navigator,
    pushManager: "PushManager" in window,
    notification: "Notification" in window,
    permission: "Notification" in window ? Notification.permission : "default",
    appleMobile: isAppleMobile(navigator.userAgent, navigator.maxTouchPoints || 0),
    standalone:
      window.matchMedia("(display-mode: standalone)").matches || navigator.standalone === true,
  });
  if (state !== "ready") {
    say(
      {
        unsupported: texts.textUnsupported,
        "home-screen": texts.textHomeScreen,
        blocked: texts.textBlocked,
      }[state],
    );
    return;
  }
  const button = section.querySelector("[data-toggle]");
  const worker = await navigator.serviceWorker.ready;
  const subscription = await worker.pushManager.getSubscription();
  show(button, subscription !== null);
  button.addEventListener("click", async () => {
    const receiving = button.getAttribute("aria-pressed") === "true";
    button.disabled = true;
    say(texts.textWorking);
    try {
      await (receiving ? stop(worker, button) : start(worker, button));
    } catch (error) {
      say(
        Notification.permission === "denied"
          ? texts.textBlocked
          : `${texts.textFailed} ${error.message || String(error)}`,
      );
    } finally {
      button.disabled = false;
    }
  });
}

if (section?.dataset.key) {
  setUp();
}
