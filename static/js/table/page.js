// The table's entry page takes every entry on the phone first: a deal, a penalty pule, a
// correction, a removal, a confirmation is scored at once here (static/js/sheet-scoring.js, the
// twin of the engine's sheet scoring) on top of the server's last sheet and the entries still
// waiting (sheet-state.js), written to the phone's storage (static/js/table-queue.js, IndexedDB)
// and shown on the sheet (sheet-row.js, from the server's own row), marked "on this phone", with
// its running scores, totals and pules; the form is made ready for the next entry at once. The queue is sent to the server in the background, in order,
// and whatever the server answers replaces the sheet, with what still waits laid on top again.
// A refusal is kept on the phone, marked with the server's words, until the referee removes it.
//
// What it writes comes from the page (json_script "table-phone": the words in the page's
// language, the engine's messages, the server's entry forms with placeholders for what changes
// from one deal to the next, the sheet's row and foot with their parts marked: entry/phone.py); the table as the server last had it comes from
// json_script "table-state". Without this script, IndexedDB or fetch, the forms post as plain
// forms.
//
// This module is the page's part: the DOM, the events, the sending. What it decides is in the
// pure modules beside it, unit-tested on node (tests/js/).

import { dealFromFields } from "./deal-form.js";
import { fillPlaceholders, playerPlaceholders } from "./form-placeholders.js";
import { refusalText } from "./refusal-text.js";
import { footHtml, refusedRowHtml, rowHtml } from "./sheet-row.js";
import {
  atTimeLimit,
  dealCount,
  isPenalty,
  playerByKey,
  sheetWithQueue,
  waitingRecords,
} from "./sheet-state.js";
import { hallTime, progressText, queueStatusHtml } from "./status-text.js";
import { answerMerged, isFresher, queueWithoutStored, withPending } from "./sync-answer.js";
import { escapeHtml, formatText, newClientKey } from "./text.js";

const ACTIONS = {
  deal: "deal",
  penalty: "penalty",
  correct: "fix",
  remove: "remove",
  confirm: "confirm",
};

function readJson(id) {
  const node = document.getElementById(id);
  if (!node) return null;
  try {
    return JSON.parse(node.textContent);
  } catch {
    return null;
  }
}

function start() {
  const Queue = window.ZoleQueue;
  let base = readJson("table-state");
  const phone = readJson("table-phone");
  if (!base || !phone || !Queue || !window.indexedDB || !window.fetch || !window.Promise) {
    return; // the plain forms
  }
  const W = phone.words;
  const link = base.link;
  let scoring = null; // the twin, once loaded
  let queue = []; // this link's entries on the phone, oldest first (as in IndexedDB)
  // Entries taken or removed here whose IndexedDB write has not finished (key -> the entry, or
  // null when removed): a list read from IndexedDB meanwhile is brought up to date with them,
  // or an answer arriving then would drop the deal just taken.
  const pending = new Map();
  let sending = false;
  let again = false;
  let attempt = 0;
  let timer = null;
  let ready = null; // the twin loaded and the queue read from IndexedDB
  let storeBroken = false;
  let seq = 0;
  let formsDirty = false; // the referee has started filling the shown forms in
  let heard = base.heard;
  // The note of a copy the service worker served with no network (entry/sheet.html), in view
  // until the server answers again.
  const offlineNote = document.querySelector("[data-offline-note]:not([hidden])");
  // No connection: the page came from the phone's copy, the browser says so, or the last
  // request got no answer from the server; a server's answer ends it.
  let offline = Boolean(offlineNote) || navigator.onLine === false;
  // What the server was last told is on this phone (waiting, refused): told again, with no
  // entries, when that changed with nothing to send (a refused entry removed).
  let told = null;
  let serverForms = section() ? section().outerHTML : null; // the server's forms, as it sent them
  let formsFromPhone = false; // the forms on screen are the phone's own (its next entry)
  const progressShown = document.querySelector(".entry-progress");
  let serverProgress = progressShown ? progressShown.innerHTML : null; // the server's progress

  // --- The sheet as the phone has it ------------------------------------------------------

  // The server's sheet with the waiting entries on top, scored.
  function effective() {
    return sheetWithQueue(base, queue, scoring, phone.deals_per_round);
  }

  function atLimit(view) {
    return atTimeLimit(base, view, phone.deals_per_round);
  }

  // What a row of the sheet is written with: the players, the page's words, the server's row
  // and foot with their parts marked.
  function tableAndWords() {
    return { players: base.players, words: W, templates: phone.sheet };
  }

  // --- Rows ----------------------------------------------------------------------------------

  function sheetShape() {
    const table = document.querySelector(".entry-sheet");
    return {
      table,
      pules: Boolean(table?.querySelector("thead .entry-pules")),
      action: Boolean(table?.querySelector("thead .entry-action")),
    };
  }

  function rowsFrom(html) {
    const holder = document.createElement("tbody");
    holder.innerHTML = html;
    return Array.from(holder.children);
  }

  // The phone's rows on screen, by the markup each was made from: a row whose markup is the
  // same is kept as it is (a new deal adds one row, and only that one is made).
  const rowMarkup = new WeakMap();

  // The sheet on screen: the server's rows, the phone's laid on top.
  function renderSheet(view) {
    const shape = sheetShape();
    if (!shape.table) return;
    const body = shape.table.tBodies[0];
    body.querySelectorAll("tr[data-phone-refused]").forEach((row) => {
      row.remove();
    });
    // Server rows from the first one the phone changes (a correction, a removal) on are
    // shown as the phone scores them.
    const serverRows = Array.from(body.querySelectorAll("tr:not([data-phone-row])"));
    let index = 0;
    serverRows.forEach((row) => {
      if (!row.classList.contains("entry-row")) return;
      const hide = index >= view.changedFrom;
      index += 1;
      if (row.hidden !== hide) row.hidden = hide;
    });
    const scored = view.scored ? view.scored.deals : null;
    const wanted = [];
    for (let at = view.changedFrom; at < view.rows.length; at++) {
      const scoredDeal = scored ? scored[at] : null;
      wanted.push(rowHtml(view.deals[at], scoredDeal, view.rows[at], shape, tableAndWords()));
    }
    const shown = new Map();
    body.querySelectorAll("tr[data-phone-row]").forEach((row) => {
      const markup = rowMarkup.get(row);
      if (!shown.has(markup)) shown.set(markup, []);
      shown.get(markup).push(row);
    });
    const rows = wanted.map((markup) => {
      const kept = shown.get(markup);
      if (kept?.length) return kept.shift();
      const [row] = rowsFrom(markup);
      rowMarkup.set(row, markup);
      return row;
    });
    for (const left of shown.values()) {
      for (const row of left) row.remove();
    }
    let before = serverRows[serverRows.length - 1] || null;
    for (const row of rows) {
      const inPlace =
        row.parentNode === body &&
        (before ? row.previousElementSibling === before : row === body.firstElementChild);
      if (!inPlace) {
        if (before) before.after(row);
        else body.prepend(row);
      }
      before = row;
    }
    for (const record of queue) {
      if (record.status !== "refused") continue;
      const [row] = rowsFrom(refusedRowHtml(record, shape, tableAndWords()));
      const server = record.conflict ? document.getElementById(`entry-${record.position}`) : null;
      if (server && server.parentNode === body) server.after(row);
      else body.appendChild(row);
    }
    const empty = body.querySelector(".entry-empty");
    if (empty) {
      const hide = body.querySelectorAll("tr.entry-row:not([hidden])").length > 0;
      if (empty.parentNode.hidden !== hide) empty.parentNode.hidden = hide;
    }
    renderFoot(view, shape);
  }

  function renderFoot(view, shape) {
    const table = shape.table;
    table.querySelectorAll("tfoot[data-phone-row]").forEach((foot) => {
      foot.remove();
    });
    const server = table.querySelector("tfoot");
    if (server) server.hidden = false;
    if (!waitingRecords(queue).length) return;
    if (server) server.hidden = true;
    if (!view.complete || !view.scored) return;
    const foot = document.createElement("tfoot");
    foot.setAttribute("data-phone-row", "");
    foot.innerHTML = footHtml(view.scored, shape, tableAndWords());
    table.appendChild(foot);
  }

  function renderProgress(view) {
    const progress = document.querySelector(".entry-progress");
    if (!progress) return;
    if (!waitingRecords(queue).length) {
      if (serverProgress !== null && progress.innerHTML !== serverProgress) {
        progress.innerHTML = serverProgress; // nothing waits: the server's words again
      }
      return;
    }
    if (view.confirm) return;
    progress.innerHTML = progressText(view, phone.deals_per_round, atLimit(view), W);
  }

  // --- Late and absent players ----------------------------------------------------------------

  // The referee's forms for late and absent players (entry/_late_players.html, plain forms)
  // as the phone's sheet stands: a locked table, or one whose confirmation waits here, takes
  // no late arrival; a player is out of the round only before the table's first deal.
  function renderLate(view) {
    const closed = !base.accepts_entries || Boolean(view.confirm);
    const arrival = document.querySelector("#late-players form.late-arrival-form");
    if (arrival && arrival.hidden !== closed) arrival.hidden = closed;
    const played = closed || view.played > 0;
    // The form for a player out of the round, and the hall's deals said beside it.
    document
      .querySelectorAll("#late-players form.out-of-round-form, #late-players .late-hall-deals")
      .forEach((shown) => {
        if (shown.hidden !== played) shown.hidden = played;
      });
  }

  // --- The forms -----------------------------------------------------------------------------

  function section() {
    return document.getElementById("entry-form");
  }

  function csrfToken() {
    const input = document.querySelector("input[name='csrfmiddlewaretoken']");
    return input ? input.value : phone.csrf;
  }

  // The server's forms for the phone's next entry (entry.phone.placeholder_forms), each
  // placeholder filled in with this page's value, escaped as the server's template escapes.
  function renderForms(view) {
    const shown = section();
    if (!shown) return;
    // Nothing waits: the server's forms, when it sent them (it leaves out an ordinary next
    // deal's, which the phone fills in from its own below, entry.phone.phone_draws_forms).
    if (!waitingRecords(queue).length && serverForms) {
      if (formsFromPhone) restoreServerForms(shown);
      return;
    }
    // Which forms: the confirmation's note, the round complete, time called, or the next deal
    // with its dealer (null: the phone's sheet does not score, the forms stay as they are).
    let name = null;
    if (view.confirm) name = "confirm";
    else if (view.complete) name = "complete";
    else if (atLimit(view)) name = "time_up";
    else if (view.scored)
      name = String(base.players.findIndex((p) => p.key === view.scored.nextDealer));
    // The same entry's forms are on the screen already: left as they are, so a retry or a
    // read of the queue never takes the referee's focus or the button under his thumb.
    const last = view.rows[view.rows.length - 1];
    const drawing = JSON.stringify([
      name,
      view.rows.length,
      view.played,
      last ? [last.position, last.version] : null,
    ]);
    if (formsFromPhone && shown.dataset.drawing === drawing) return;
    formsFromPhone = true;
    shown.dataset.drawing = drawing;
    if (name === "confirm") {
      shown.innerHTML =
        `<p class="message warning entry-confirm-waits" role="status">${W.confirm_waits}</p>` +
        '<p class="entry-queue-status muted" data-queue-status role="status"></p>';
      formsDirty = false;
      return;
    }
    if (name === null) return;
    const template = phone.forms[name];
    if (!template) return;
    const values = {
      url: escapeHtml(link),
      csrf: escapeHtml(csrfToken()),
      position: view.rows.length + 1,
      number: view.played + 1,
      deals: view.played,
      last_position: last ? last.position : "",
      last_version: last ? last.version : "",
      deal_key: newClientKey(),
      penalty_key: newClientKey(),
      remove_key: newClientKey(),
      ...playerPlaceholders(base.players),
    };
    shown.innerHTML = fillPlaceholders(template, values);
    if (!last) {
      const remove = shown.querySelector(".entry-remove-form");
      if (remove) remove.closest("details").remove();
    }
    formsDirty = false;
  }

  // Nothing waits any more (the phone's last entry left it): the server's own forms again,
  // with keys of their own.
  function restoreServerForms(shown) {
    formsFromPhone = false;
    if (!serverForms) return;
    shown.outerHTML = serverForms;
    section()
      .querySelectorAll("input[name$='-client_key']")
      .forEach((input) => {
        input.value = newClientKey();
      });
    formsDirty = false;
  }

  // Beside each Save button, one state: no connection, entries waiting, being sent, or every
  // entry on the server; what was refused; and when the server last answered.
  function renderStatus() {
    const shown = section();
    if (!shown) return;
    const { waiting, refused } = Queue.counts(queue);
    const html = queueStatusHtml({ waiting, refused, offline, sending, heard }, W, (time) =>
      hallTime(time, phone.language, phone.time_zone),
    );
    shown.querySelectorAll("form").forEach((form) => {
      const button = form.querySelector(".entry-submit");
      const action = form.querySelector("input[name='action']");
      if (!button || !action || !(action.value in ACTIONS)) return;
      if (!form.querySelector("[data-queue-status]")) {
        const status = document.createElement("p");
        status.className = "entry-queue-status muted";
        status.setAttribute("data-queue-status", "");
        status.setAttribute("role", "status");
        button.before(status);
      }
    });
    shown.querySelectorAll("[data-queue-status]").forEach((status) => {
      status.dataset.waiting = String(waiting);
      status.dataset.refused = String(refused);
      status.classList.toggle("has-waiting", waiting > 0);
      status.classList.toggle("has-refused", refused > 0);
      status.classList.toggle("is-offline", offline);
      if (status.innerHTML !== html) status.innerHTML = html;
    });
    shown.dataset.queue = sending ? "sending" : waiting ? "waiting" : "idle";
    shown.dataset.connection = offline ? "offline" : "online";
  }

  // The server answered (or the browser lost its network): the state line, and the note of a
  // copy opened offline gone once the server is heard again.
  function connected(yes) {
    offline = !yes;
    if (yes && offlineNote && !offlineNote.hidden) {
      keepingTheView(() => {
        offlineNote.hidden = true;
      });
    }
    renderStatus();
  }

  function render() {
    const view = effective();
    renderSheet(view);
    renderProgress(view);
    renderForms(view);
    renderLate(view);
    renderStatus();
    return view;
  }

  // --- Taking an entry -----------------------------------------------------------------------

  function fieldsOf(form) {
    const fields = {};
    new FormData(form).forEach((value, name) => {
      if (name !== "csrfmiddlewaretoken" && name !== "action") fields[name] = String(value);
    });
    return fields;
  }

  function refuse(form, html) {
    clearRefusal(form);
    const box = document.createElement("div");
    box.className = "errors entry-phone-refusal";
    box.setAttribute("role", "alert");
    box.setAttribute("data-phone-refusal", "");
    box.innerHTML = html;
    const after = Array.from(form.querySelectorAll("input[type=hidden]")).pop();
    if (after) after.after(box);
    else form.prepend(box);
    box.scrollIntoView({ block: "nearest" });
    return null;
  }

  function clearRefusal(form) {
    form.querySelectorAll("[data-phone-refusal]").forEach((box) => {
      box.remove();
    });
  }

  // The draw of a rondo galdiņš tie: the two players' buttons, when the server's form lacks them.
  function offerDraw(form, prefix, tied) {
    const name = `${prefix}-draw_loser`;
    if (form.querySelector(`input[name="${name}"]`)) return;
    const holder = form.querySelector(".entry-fields-galdins") || form;
    const fieldset = document.createElement("fieldset");
    fieldset.className = "entry-choices entry-draw";
    fieldset.innerHTML =
      `<legend>${W.draw_label}</legend><div>` +
      tied
        .map((key, index) => {
          const player = playerByKey(base.players, key);
          const id = `id_${name}_${index}`;
          return (
            `<div><label for="${id}"><input type="radio" name="${escapeHtml(name)}" value="${escapeHtml(key)}" ` +
            `autocomplete="off" id="${id}"> ${escapeHtml(player ? player.name : key)}</label></div>`
          );
        })
        .join("") +
      "</div>";
    holder.appendChild(fieldset);
  }

  function timeUpMessage(view) {
    const marked = document.querySelector("[data-time-up-at]");
    const time = marked ? marked.getAttribute("data-time-up-at") : phone.time_up_at;
    return formatText(phone.time_up, {
      time: escapeHtml(time),
      limit: base.deal_limit,
      next: view.played + 1,
    });
  }

  function take(form, action) {
    const prefix = ACTIONS[action];
    const fields = fieldsOf(form);
    const view = effective();
    const position = parseInt(fields[`${prefix}-position`], 10) || null;
    const record = {
      key: fields[`${prefix}-client_key`] || newClientKey(),
      link,
      sync: base.sync,
      seq: Math.max(Date.now(), seq + 1),
      action,
      fields,
      scores: null,
      status: "waiting",
      message: "",
      csrf: csrfToken(),
      added: new Date().toISOString(),
      position,
      number: null,
      entry: null,
    };
    seq = record.seq;
    let deals = null;
    let index = null;
    if (action === "deal" || (action === "correct" && !form.querySelector(`[name="fix-player"]`))) {
      if (action === "deal" && atLimit(view)) {
        return refuse(form, timeUpMessage(view));
      }
      const made = dealFromFields(fields, prefix, {
        players: base.players,
        rules: base.sheet.rules,
        scoring,
        words: W,
      });
      if (made.tied) offerDraw(form, prefix, made.tied);
      if (made.error) return refuse(form, made.error);
      record.entry = made.entry;
    } else if (action === "penalty" || action === "correct") {
      record.entry = { penalty: "personal_pule", player: fields[`${prefix}-player`] };
    }
    if (action === "deal" || action === "penalty") {
      deals = [...view.deals, record.entry];
      index = deals.length - 1;
    } else if (action === "correct") {
      index = view.rows.findIndex((row) => row.position === position);
      if (index < 0) return refuse(form, W.required);
      deals = view.deals.slice();
      deals[index] = record.entry;
      record.reason = fields["fix-reason"] || "";
    } else if (action === "remove") {
      const last = view.rows[view.rows.length - 1];
      if (last?.record && !sending && last.record.action !== "correct") {
        // Still only on this phone: it simply leaves the phone.
        return dropRecord(last.record.key);
      }
    }
    if (deals) {
      const closed = dealCount(deals) >= phone.deals_per_round;
      let scored;
      try {
        scored = scoring.scoreSheet(scoring.sheetFromJson({ ...base.sheet, deals, closed }));
      } catch (error) {
        if (!(error instanceof scoring.SheetError)) throw error;
        return refuse(form, escapeHtml(refusalText(error, deals, base.players, phone.messages)));
      }
      record.scores = scored.deals[index].scores;
      record.number = scored.deals[index].number;
    }
    clearRefusal(form);
    queue.push(record);
    if (window.location.search) {
      window.history.replaceState(null, "", `${window.location.pathname}#entry-form`);
    }
    form.dataset.taken = ""; // a second tap on this form before the next one is in place
    // Its fields too: what is typed into them before the next form replaces it would be lost.
    for (const field of form.elements) field.disabled = true;
    // The new row first, in this frame; the next entry's forms right after it.
    const shown = effective();
    renderSheet(shown);
    renderProgress(shown);
    renderLate(shown);
    renderStatus();
    pending.set(record.key, record);
    persist(Queue.put(record), record.key);
    nextFrame(() => {
      renderForms(effective());
      renderStatus();
      showNextSave();
    });
    return record;
  }

  function saveButton() {
    const shown = section();
    return shown ? shown.querySelector(".entry-submit") : null;
  }

  // The next entry's Save button at the foot of the screen, the last rows of the sheet above
  // it in view (the rows give way first on a short screen).
  function showNextSave() {
    const button = saveButton();
    if (!button) return;
    window.scrollBy(0, button.getBoundingClientRect().bottom + 8 - window.innerHeight);
  }

  // The server's answer put in place with the Save button where it was on the screen.
  function keepingTheView(work) {
    const before = saveButton();
    const top = before ? before.getBoundingClientRect().top : null;
    work();
    const after = saveButton();
    if (top !== null && after) window.scrollBy(0, after.getBoundingClientRect().top - top);
  }

  // After the browser has painted what is on screen now.
  function nextFrame(work) {
    window.requestAnimationFrame(() => window.setTimeout(work, 0));
  }

  function dropRecord(key) {
    queue = queue.filter((record) => record.key !== key);
    render();
    pending.set(key, null);
    persist(Queue.remove(key), key);
  }

  // Written to IndexedDB, then sent. A phone whose storage fails (private mode, full) still
  // sends what it took while the page is open.
  function persist(written, key) {
    const value = pending.get(key);
    const done = () => {
      if (pending.get(key) === value) pending.delete(key);
    };
    written.then(
      () => {
        done();
        registerSync();
        kick();
      },
      () => {
        done();
        storeBroken = true;
        kick();
      },
    );
  }

  // --- A correction, made on the phone ---------------------------------------------------------

  // The server's form of the next deal (or penalty pule) for the row's dealer, made the
  // correction form of that row (entry.forms.DealForm with correction=True), filled in as the
  // entry stands on the phone's sheet.
  function correctionForm(position) {
    const view = effective();
    const index = view.rows.findIndex((row) => row.position === position);
    if (index < 0 || !view.scored || view.rows[index].record) return null;
    const deal = view.deals[index];
    const scoredDeal = view.scored.deals[index];
    const penalty = isPenalty(deal);
    const dealer = penalty ? 0 : base.players.findIndex((p) => p.key === scoredDeal.dealer);
    const template = phone.forms[String(dealer)];
    if (!template) return null;
    const holder = document.createElement("div");
    // Only the players, the page and the token: the rest is the row's, set below.
    holder.innerHTML = fillPlaceholders(template, {
      ...playerPlaceholders(base.players),
      url: escapeHtml(link),
      csrf: escapeHtml(csrfToken()),
    });
    const form = holder.querySelector(penalty ? "form.entry-penalty-form" : "form.entry-deal-form");
    if (!form) return null;
    const from = penalty ? "penalty-" : "deal-";
    form.querySelectorAll("[name], [id], label[for]").forEach((node) => {
      for (const attribute of ["name", "id", "for"]) {
        const value = node.getAttribute(attribute);
        if (value?.includes(from)) {
          node.setAttribute(attribute, value.replace(from, "fix-"));
        }
      }
    });
    const set = (name, value) => {
      const input = form.querySelector(`input[name="fix-${name}"]:not([type=radio])`);
      if (input) input.value = value === null || value === undefined ? "" : String(value);
    };
    const check = (name, value) => {
      const input = form.querySelector(
        `input[name="fix-${name}"][value="${CSS.escape(String(value))}"]`,
      );
      if (input) input.checked = true;
    };
    form.querySelector("input[name='action']").value = "correct";
    set("position", position);
    set("client_key", newClientKey());
    const version = document.createElement("input");
    version.type = "hidden";
    version.name = "fix-base_version";
    version.value = String(view.rows[index].version);
    form.querySelector("input[name='fix-position']").after(version);
    if (penalty) {
      check("player", deal.player);
    } else {
      check("game", deal.game);
      if (deal.declarer) check("declarer", deal.declarer);
      if (deal.game === "galdins") {
        for (const key of Object.keys(deal.tricks || {})) {
          set(`tricks_${key}`, deal.tricks[key]);
          set(`points_${key}`, deal.points[key]);
        }
        if (deal.draw_loser) {
          const rules = scoring.rulesFromJson(base.sheet.rules || {});
          offerDraw(form, "fix", scoring.galdinsDrawNeeded(deal, rules) || [deal.draw_loser]);
          check("draw_loser", deal.draw_loser);
        }
      } else {
        set("points", deal.points);
        set("tricks", deal.tricks);
      }
    }
    const reason = document.createElement("p");
    reason.innerHTML =
      `<label for="id_fix-reason">${W.why_corrected}</label>` +
      `<input type="text" name="fix-reason" maxlength="${W.reason_length}" autocomplete="off" ` +
      'required id="id_fix-reason">';
    const button = form.querySelector(".entry-submit");
    button.before(reason);
    button.innerHTML = W.save_correction;
    const heading = penalty
      ? formatText(W.correct_penalty, { position })
      : formatText(W.correct_deal, { number: scoredDeal.number });
    return { form, heading };
  }

  function openCorrection(position) {
    const made = correctionForm(position);
    const shown = section();
    if (!made || !shown) return false;
    formsFromPhone = true;
    delete shown.dataset.drawing; // the next entry's forms are drawn again on the way back
    shown.innerHTML = `<h2>${made.heading}</h2>`;
    shown.appendChild(made.form);
    const back = document.createElement("p");
    back.innerHTML = `<a class="button secondary" href="${escapeHtml(link)}" data-phone-back>${W.back}</a>`;
    shown.appendChild(back);
    formsDirty = true; // the server's answer does not replace it meanwhile
    renderStatus();
    shown.scrollIntoView();
    return true;
  }

  // --- Sending ------------------------------------------------------------------------------

  function registerSync() {
    if (!link.startsWith("/r/") || !("serviceWorker" in navigator)) return;
    navigator.serviceWorker.getRegistration(link).then(
      (registration) => {
        if (registration?.sync) {
          registration.sync.register(Queue.SYNC_TAG).catch(() => null);
        }
      },
      () => null,
    );
  }

  function kick() {
    window.clearTimeout(timer);
    timer = null;
    if (sending) {
      again = true;
      return;
    }
    run();
  }

  function later(outcome) {
    const pause = Queue.pauseSeconds(outcome.retryAfter || 0, attempt);
    attempt += 1;
    window.clearTimeout(timer);
    timer = window.setTimeout(kick, pause * 1000);
    registerSync();
  }

  // The server is asked even with nothing to send: after no connection (is it back?), or
  // when what it was last told is on this phone changed.
  function hello() {
    if (navigator.onLine === false) return null; // the "online" event asks once it is back
    const counts = Queue.counts(queue);
    const changed = told && (told.waiting !== counts.waiting || told.refused !== counts.refused);
    return offline || changed ? { sync: base.sync, csrf: csrfToken() } : null;
  }

  async function run() {
    sending = true;
    again = false;
    renderStatus();
    let outcome;
    try {
      outcome = await Queue.sendOnce(link, hello());
    } catch {
      outcome = { retry: true };
    }
    sending = false;
    if (outcome.retry && !outcome.status) connected(false);
    else if (!outcome.idle) connected(true);
    if (outcome.answer) {
      attempt = 0;
      await applyAnswer(outcome.answer);
      told = Queue.counts(queue);
    } else if (!outcome.idle || waitingRecords(queue).length) {
      // Idle with entries waiting here: the worker sent them meanwhile (Background Sync), and
      // the sheet it got has them.
      await refresh();
    }
    if (outcome.retry) {
      later(outcome);
      renderStatus();
    } else if (outcome.more || again) {
      kick();
    } else {
      renderStatus();
    }
  }

  function replaceHtml(html) {
    const wrap = document.querySelector(".entry-sheet-wrap");
    if (html.sheet && wrap) wrap.outerHTML = html.sheet;
    const progress = document.querySelector(".entry-progress");
    if (html.progress !== undefined && progress) {
      progress.innerHTML = html.progress;
      serverProgress = progress.innerHTML;
    }
    const forms = section();
    if ("forms" in html) serverForms = html.forms; // null: the phone draws the next deal's
    if (html.forms && forms && !keepForms()) {
      forms.outerHTML = html.forms;
      formsFromPhone = false;
    }
  }

  // The referee is filling the next deal in: the server's answer does not wipe it out when the
  // form he fills is still the next one.
  function keepForms() {
    if (!formsDirty) return false;
    if (document.querySelector("#entry-form input[name='fix-position']")) return true;
    const view = effective();
    const position = document.querySelector("#entry-form input[name='deal-position']");
    if (position) return parseInt(position.value, 10) === view.rows.length + 1;
    // The confirmation, once every deal is in: kept while it counts the deals on the sheet.
    const deals = document.querySelector("#entry-form input[name='confirm-deals']");
    return Boolean(deals) && parseInt(deals.value, 10) === view.played;
  }

  async function applyAnswer(answer) {
    let stored;
    try {
      stored = withPending(await Queue.list(link), pending);
    } catch {
      stored = queueWithoutStored(queue, answer);
    }
    // The worker may have sent and shown a later batch while this answer was on its way: an
    // answer older than the sheet shown is not shown.
    const merged = answerMerged(base, heard, answer);
    base = merged.base;
    heard = merged.heard;
    queue = stored;
    showServer(merged.current ? answer.html : null);
    if (!base.accepts_entries) window.clearTimeout(timer);
  }

  // The server's sheet and forms (`html`, when it sent newer ones) with this phone's queue on
  // top; a form the referee is filling in (or the phone's refusal in it) stays while it is
  // still the next entry's.
  function showServer(html) {
    keepingTheView(() => {
      const dirty = formsDirty;
      if (html) replaceHtml(html);
      formsDirty = dirty && keepForms();
      const view = effective();
      renderSheet(view);
      renderProgress(view);
      if (!formsDirty) renderForms(view);
      renderLate(view);
      renderStatus();
    });
  }

  // What the service worker sent meanwhile (Background Sync), or another tab: the stored state
  // and its sheet, with this phone's queue on top. Both are read at once: an entry that left
  // the queue is on the sheet shown with it, never missing from both.
  async function refresh() {
    let fresh = null;
    try {
      const { entries, state } = await Queue.snapshot(link);
      queue = withPending(entries, pending);
      if (state?.html && isFresher(state, { heard, mark: base.mark })) fresh = state;
    } catch {
      // The storage is gone: the phone keeps what it has in memory.
    }
    if (fresh) {
      base = fresh;
      heard = fresh.heard;
    }
    showServer(fresh ? fresh.html : null);
  }

  // --- Events --------------------------------------------------------------------------------

  document.addEventListener("submit", (event) => {
    const form = event.target;
    const shown = section();
    if (!shown?.contains(form) || !base.accepts_entries) return;
    const action = form.querySelector("input[name='action']");
    if (!action || !(action.value in ACTIONS)) return;
    if (storeBroken) return; // no storage on this phone: the plain post
    event.preventDefault();
    if (form.dataset.taken !== undefined) return; // taken already: the next form is on its way
    // A tap before the twin and the queue are read is taken once they are.
    ready.then(() => (storeBroken ? form.submit() : take(form, action.value)));
  });

  document.addEventListener("input", (event) => {
    const shown = section();
    if (shown?.contains(event.target)) formsDirty = true;
  });

  document.addEventListener("click", (event) => {
    if (!event.target.closest) return;
    const button = event.target.closest("[data-queue-remove]");
    if (button) {
      dropRecord(button.getAttribute("data-queue-remove"));
      return;
    }
    // A row's correction: made here, with no network, on the sheet as the phone has it.
    const correct = event.target.closest(".entry-sheet a[href*='?correct=']");
    if (correct && base.accepts_entries && scoring && !storeBroken) {
      const position = parseInt(new URL(correct.href).searchParams.get("correct"), 10);
      if (position && openCorrection(position)) event.preventDefault();
      return;
    }
    if (event.target.closest("[data-phone-back]")) {
      event.preventDefault();
      formsDirty = false;
      renderForms(effective());
      renderStatus();
    }
  });

  window.addEventListener("online", kick);
  window.addEventListener("offline", () => connected(false));
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refresh().then(kick);
  });
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.addEventListener("message", (event) => {
      const data = event.data || {};
      if (Array.isArray(data.synced) && data.synced.includes(link)) {
        connected(true); // the worker reached the server
        refresh();
      }
    });
  }

  // --- Start: the queue kept on this phone, laid over the server's sheet ----------------------

  const loaded = import(phone.scoring).then((module) => {
    scoring = module;
  });
  const opened = Promise.all([Queue.list(link), Queue.loadState(link)]).then(
    ([entries, stored]) => {
      queue = entries;
      seq = entries.reduce((most, record) => Math.max(most, record.seq), 0);
      if (stored?.html && isFresher(stored, base)) {
        // The page came from the phone's copy, older than the server's last answer.
        base = stored;
        heard = stored.heard;
        replaceHtml(stored.html);
      } else if (!stored || !isFresher(stored, base)) {
        Queue.saveState(base, null).catch(() => null);
      }
    },
    () => {
      storeBroken = true;
    },
  );
  ready = Promise.all([loaded, opened]).then(
    () => {
      if (storeBroken) return; // no IndexedDB: the plain forms
      told = Queue.counts(queue); // as the server last heard, as far as this page knows
      render();
      kick();
    },
    () => {
      storeBroken = true; // the twin did not load: the plain forms
    },
  );
}

start();
