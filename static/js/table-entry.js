// The table's entry page takes every entry on the phone first: a deal, a penalty pule, a
// correction, a removal, a confirmation is scored at once here (static/js/sheet-scoring.js, the
// twin of the engine's sheet scoring) on top of the server's last sheet and the entries still
// waiting, written to the phone's storage (static/js/table-queue.js, IndexedDB) and shown on the
// sheet, marked "on this phone", with its running scores, totals and pules; the form is made
// ready for the next entry at once. The queue is sent to the server in the background, in order,
// and whatever the server answers replaces the sheet, with what still waits laid on top again.
// A refusal is kept on the phone, marked with the server's words, until the referee removes it.
//
// What it writes comes from the page (json_script "table-phone": the words in the page's
// language, the engine's messages, the server's entry forms with placeholders for what changes
// from one deal to the next: entry/phone.py); the table as the server last had it comes from
// json_script "table-state". Without this script, IndexedDB or fetch, the forms post as plain
// forms.

const ACTIONS = {
  deal: "deal",
  penalty: "penalty",
  correct: "fix",
  remove: "remove",
  confirm: "confirm",
};
const PLAYER_PARAMS = ["player", "first", "second"];

function readJson(id) {
  const node = document.getElementById(id);
  if (!node) return null;
  try {
    return JSON.parse(node.textContent);
  } catch (error) {
    return null;
  }
}

// As Django's escape.
function esc(value) {
  return String(value).replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" })[c],
  );
}

// Python's "%(name)s" / "%(name)d" formatting.
function fmt(template, params) {
  return template.replace(/%\(([a-z_]+)\)[sd]|%%/g, (found, name) =>
    name === undefined ? "%" : String(params[name]),
  );
}

function newKey() {
  const crypto = window.crypto;
  if (crypto && crypto.randomUUID) {
    return crypto.randomUUID(); // only in a secure context (https, localhost)
  }
  const bytes = new Uint8Array(16);
  if (crypto && crypto.getRandomValues) {
    crypto.getRandomValues(bytes);
  } else {
    for (let i = 0; i < 16; i++) bytes[i] = Math.floor(Math.random() * 256);
  }
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
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

  function playerByKey(key) {
    return base.players.find((player) => player.key === String(key)) || null;
  }

  function isPenalty(deal) {
    return Object.prototype.hasOwnProperty.call(deal, "penalty");
  }

  function dealCount(deals) {
    return deals.filter((deal) => !isPenalty(deal)).length;
  }

  // The server's sheet with the waiting entries on top: the deals (engine JSON), one row
  // description per deal (position, version, the phone's entry that made it, if any), what
  // the engine makes of them, and a waiting confirmation.
  function effective() {
    const deals = base.sheet.deals.slice();
    const rows = base.entries.map((entry) => ({
      position: entry.position,
      version: entry.version,
      record: null,
    }));
    let confirm = null;
    let changedFrom = rows.length; // the first server row whose figures the phone changes
    for (const record of queue) {
      if (record.status === "refused") continue;
      const position = record.position;
      if (record.action === "deal" || record.action === "penalty") {
        deals.push(record.entry);
        rows.push({ position: rows.length + 1, version: 1, record });
      } else if (record.action === "correct") {
        const index = rows.findIndex((row) => row.position === position);
        if (index >= 0) {
          deals[index] = record.entry;
          rows[index] = {
            position,
            version: rows[index].version + 1,
            record,
            reason: record.reason,
          };
          changedFrom = Math.min(changedFrom, index);
        }
      } else if (record.action === "remove") {
        if (rows.length && rows[rows.length - 1].position === position) {
          rows.pop();
          deals.pop();
          changedFrom = Math.min(changedFrom, rows.length);
        }
      } else if (record.action === "confirm") {
        confirm = record;
      }
    }
    const played = dealCount(deals);
    const complete = played >= phone.deals_per_round;
    let scored = null;
    let error = null;
    if (scoring) {
      try {
        scored = scoring.scoreSheet(
          scoring.sheetFromJson({ ...base.sheet, deals, closed: complete }),
        );
      } catch (thrown) {
        error = thrown;
      }
    }
    return { deals, rows, confirm, played, complete, scored, error, changedFrom };
  }

  // Time is up and the table has the deal under way: the server takes no other deal.
  function atLimit(view) {
    const limit = base.deal_limit;
    return limit != null && limit < phone.deals_per_round && view.played >= limit;
  }

  function waitingRecords() {
    return queue.filter((record) => record.status !== "refused");
  }

  // --- The engine's refusals, as the server words them (core.engine_text.error_text) --------

  function translated(template, params) {
    const text = phone.messages[template] || template;
    try {
      return fmt(text, params);
    } catch (error) {
      return fmt(template, params);
    }
  }

  function playerName(value) {
    if (typeof value !== "string") return value;
    const player = playerByKey(value);
    if (player) return player.name;
    try {
      const typed = JSON.parse(value);
      const named = typeof typed === "string" ? playerByKey(typed) : null;
      return named ? named.name : value;
    } catch (error) {
      return value;
    }
  }

  function errorText(error, deals) {
    const params = { ...error.params };
    for (const name of PLAYER_PARAMS) {
      if (name in params) params[name] = playerName(params[name]);
    }
    const message = translated(error.template, params);
    if (error.deal === null || error.deal === undefined) return message;
    if (!(error.deal >= 1 && error.deal <= deals.length)) {
      return translated("deal %(deal)s: %(message)s", { deal: error.deal, message });
    }
    const before = dealCount(deals.slice(0, error.deal - 1));
    if (!isPenalty(deals[error.deal - 1])) {
      return translated("deal %(deal)s: %(message)s", { deal: before + 1, message });
    }
    if (before === 0) {
      return translated("penalty pule before the first deal: %(message)s", { message });
    }
    return translated("penalty pule after deal %(deal)s: %(message)s", { deal: before, message });
  }

  // --- Rows ----------------------------------------------------------------------------------

  function times(count) {
    return count > 1 ? `×${count}` : "";
  }

  function nameHtml(player, full) {
    return (
      `<span class="entry-name-full">${esc(full)}</span><abbr class="entry-name-short" ` +
      `title="${esc(player.name)}">${esc(player.initials)}</abbr>`
    );
  }

  // What a deal (engine JSON) shows in its game cell, with the engine's pule marks when scored.
  function gameCell(deal, scoredDeal, { version = 1, reason = "", mark = "" } = {}) {
    const kind = isPenalty(deal) ? "penalty" : deal.game;
    let game = W.games[kind] || W.entry;
    const common = scoredDeal ? scoredDeal.commonPules : 0;
    if (common) {
      game +=
        `<span class="entry-pule-mark common entry-pules-inline" title="${W.common_open}">` +
        ` ○${times(common)}</span>`;
    }
    const parts = [`<span class="game">${game}</span>`];
    const declarer = playerByKey(isPenalty(deal) ? deal.player : deal.declarer || "");
    const points = deal.game === "galdins" ? null : (deal.points ?? null);
    const tricks = deal.game === "galdins" ? null : (deal.tricks ?? null);
    if (declarer || points !== null || tricks !== null) {
      const play = [];
      if (declarer)
        play.push(`<span class="declarer">${nameHtml(declarer, declarer.short)}</span>`);
      if (points !== null) {
        play.push(`<span class="figures">${esc(points)}/${esc(tricks)}</span>`);
      } else if (tricks !== null) {
        play.push(`<span class="figures">${W.tricks[tricks] || esc(tricks)}</span>`);
      }
      parts.push(`<span class="entry-play">${play.join(" ")}</span>`);
    }
    if (deal.game === "galdins") {
      const figures = Object.keys(deal.tricks || {})
        .map(playerByKey)
        .filter(Boolean)
        .sort((a, b) => base.players.indexOf(a) - base.players.indexOf(b))
        .map((p) => `${nameHtml(p, p.short)} ${esc(deal.tricks[p.key])}/${esc(deal.points[p.key])}`)
        .join(", ");
      parts.push(`<span class="figures">${figures}</span>`);
    }
    const event = scoredDeal ? scoredDeal.puleEvent : null;
    if (event === "personal_collected") {
      const owner = playerByKey(scoredDeal.puleOwner);
      parts.push(
        `<span class="entry-pule-event">${fmt(W.collected_pule_of, { name: owner ? esc(owner.short) : "" })}</span>`,
      );
    } else if (event && W.events[event]) {
      parts.push(`<span class="entry-pule-event">${W.events[event]}</span>`);
    }
    if (version > 1) {
      parts.push(
        `<span class="corrected" title="${esc(reason)}">${fmt(W.corrected, { version })}</span>`,
      );
    }
    if (mark) parts.push(mark);
    return `<td class="entry-game">${parts.join(" ")}</td>`;
  }

  function playerCell(player, scoredDeal, deal) {
    const size = base.players.length;
    const isDealer = scoredDeal.dealer === player.key;
    const sitsOut = isDealer && size === 4;
    const isDeclarer = (isPenalty(deal) ? deal.player : deal.declarer) === player.key;
    let classes = "entry-cell";
    classes += isDealer ? " is-dealer" : "";
    classes += sitsOut ? " sits-out" : "";
    classes += isDeclarer ? " is-declarer" : "";
    const parts = [];
    if (isDealer) {
      const title = sitsOut ? W.deals_sits_out : W.deals;
      parts.push(`<abbr class="entry-dealer-mark" title="${title}">${W.dealer_mark}</abbr>`);
    }
    parts.push(`<span class="total">${scoredDeal.totals[player.key]}</span>`);
    const score = scoredDeal.scores[player.key];
    if (score) {
      const [sign, plus] = score > 0 ? ["score-positive", "+"] : ["score-negative", ""];
      parts.push(`<small class="delta ${sign}">${plus}${score}</small>`);
    }
    const personal = scoredDeal.personalPules[player.key];
    if (personal) {
      parts.push(
        `<span class="entry-pule-mark personal" title="${W.personal_open}">` +
          `${W.personal_mark}${times(personal)}</span>`,
      );
    }
    return `<td class="${classes}">${parts.join(" ")}</td>`;
  }

  function sheetShape() {
    const table = document.querySelector(".entry-sheet");
    return {
      table,
      pules: Boolean(table && table.querySelector("thead .entry-pules")),
      action: Boolean(table && table.querySelector("thead .entry-action")),
    };
  }

  function onPhoneMark(extra) {
    return (
      `<span class="on-phone-mark" title="${W.on_phone_title}">${W.on_phone}` +
      `${extra ? ` · ${extra}` : ""}</span>`
    );
  }

  // One row the phone scored: `record` is the phone's entry (null: a server row whose running
  // figures the phone's entries change).
  function rowHtml(deal, scoredDeal, row, shape) {
    const classes = ["entry-row"];
    if (isPenalty(deal)) classes.push("entry-penalty");
    if (row.version > 1) classes.push("entry-corrected");
    if (row.record) classes.push("on-phone");
    const number = scoredDeal && scoredDeal.number ? String(scoredDeal.number) : "–";
    const parts = [
      `<tr class="${classes.join(" ")}" data-position="${row.position}" data-phone-row>`,
      `<th scope="row" class="entry-no">${number}</th>`,
      gameCell(deal, scoredDeal, {
        version: row.version,
        reason: row.reason || "",
        mark: row.record ? onPhoneMark("") : "",
      }),
    ];
    for (const player of base.players) {
      parts.push(
        scoredDeal ? playerCell(player, scoredDeal, deal) : '<td class="entry-cell"></td>',
      );
    }
    if (shape.pules) {
      const common = scoredDeal ? scoredDeal.commonPules : 0;
      const mark = common
        ? `<span class="entry-pule-mark common" title="${W.common_open}">○${times(common)}</span>`
        : "";
      parts.push(`<td class="entry-pules">${mark}</td>`);
    }
    if (shape.action) parts.push('<td class="entry-action"></td>');
    parts.push("</tr>");
    return parts.join("");
  }

  function refusedHtml(record, shape) {
    const conflict = record.conflict ? " conflict" : "";
    let game;
    if (record.entry) {
      game = gameCell(record.entry, null, {
        mark: onPhoneMark(record.conflict ? W.conflict : W.refused),
      });
    } else {
      const what = record.action === "confirm" ? W.confirmation : W.removal;
      game = `<td class="entry-game"><span class="game">${what}</span> ${onPhoneMark(W.refused)}</td>`;
    }
    const span = base.players.length + (shape.pules ? 1 : 0) + (shape.action ? 1 : 0);
    return (
      `<tr class="entry-row on-phone refused${conflict}" data-position="${record.position || ""}" ` +
      "data-phone-refused>" +
      `<th scope="row" class="entry-no">${record.number ? esc(record.number) : "–"}</th>` +
      game +
      `<td class="entry-refusal-cell" colspan="${span}"><p class="entry-refusal">${esc(record.message || "")}</p>` +
      `<button type="button" class="secondary entry-queue-remove" data-queue-remove="${esc(record.key)}">` +
      `${W.remove}</button></td></tr>`
    );
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
    body.querySelectorAll("tr[data-phone-refused]").forEach((row) => row.remove());
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
      wanted.push(rowHtml(view.deals[at], scored ? scored[at] : null, view.rows[at], shape));
    }
    const shown = new Map();
    body.querySelectorAll("tr[data-phone-row]").forEach((row) => {
      const markup = rowMarkup.get(row);
      if (!shown.has(markup)) shown.set(markup, []);
      shown.get(markup).push(row);
    });
    const rows = wanted.map((markup) => {
      const kept = shown.get(markup);
      if (kept && kept.length) return kept.shift();
      const [row] = rowsFrom(markup);
      rowMarkup.set(row, markup);
      return row;
    });
    shown.forEach((left) => left.forEach((row) => row.remove()));
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
      const [row] = rowsFrom(refusedHtml(record, shape));
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
    table.querySelectorAll("tfoot[data-phone-row]").forEach((foot) => foot.remove());
    const server = table.querySelector("tfoot");
    if (server) server.hidden = false;
    if (!waitingRecords().length) return;
    if (server) server.hidden = true;
    if (!view.complete || !view.scored) return;
    const extra =
      (shape.pules ? '<td class="entry-pules"></td>' : "") +
      (shape.action ? '<td class="entry-action"></td>' : "");
    const cells = (values, sign) =>
      base.players
        .map((p) => `<td>${sign && values[p.key] > 0 ? "+" : ""}${values[p.key]}</td>`)
        .join("");
    const foot = document.createElement("tfoot");
    foot.setAttribute("data-phone-row", "");
    foot.innerHTML =
      `<tr class="entry-settlement on-phone"><th scope="row" colspan="2">${W.settlement}</th>` +
      `${cells(view.scored.settlement, true)}${extra}</tr>` +
      `<tr class="entry-totals on-phone"><th scope="row" colspan="2">${W.total}</th>` +
      `${cells(view.scored.totals, false)}${extra}</tr>`;
    table.appendChild(foot);
  }

  function renderProgress(view) {
    const progress = document.querySelector(".entry-progress");
    if (!progress) return;
    if (!waitingRecords().length) {
      if (serverProgress !== null && progress.innerHTML !== serverProgress) {
        progress.innerHTML = serverProgress; // nothing waits: the server's words again
      }
      return;
    }
    if (view.confirm) return;
    const total = phone.deals_per_round;
    let text;
    if (view.complete) text = fmt(W.progress_complete, { total });
    else if (atLimit(view)) {
      text = fmt(W.progress_time_up, { number: view.played, total });
    } else text = fmt(W.progress_next, { number: view.played + 1, total });
    progress.innerHTML = text;
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
    if (!waitingRecords().length && serverForms) {
      if (formsFromPhone) restoreServerForms(shown);
      return;
    }
    formsFromPhone = true;
    if (view.confirm) {
      shown.innerHTML =
        `<p class="message warning entry-confirm-waits" role="status">${W.confirm_waits}</p>` +
        '<p class="entry-queue-status muted" data-queue-status role="status"></p>';
      formsDirty = false;
      return;
    }
    let name;
    if (view.complete) name = "complete";
    else if (atLimit(view)) name = "time_up";
    else if (view.scored)
      name = String(base.players.findIndex((p) => p.key === view.scored.nextDealer));
    else return; // the phone's sheet does not score: the forms stay as they are
    const template = phone.forms[name];
    if (!template) return;
    const last = view.rows[view.rows.length - 1];
    const values = {
      url: esc(link),
      csrf: esc(csrfToken()),
      position: view.rows.length + 1,
      number: view.played + 1,
      deals: view.played,
      last_position: last ? last.position : "",
      last_version: last ? last.version : "",
      deal_key: newKey(),
      penalty_key: newKey(),
      remove_key: newKey(),
    };
    base.players.forEach((player, index) => {
      values[`key${index}`] = esc(player.key);
      values[`name${index}`] = esc(player.name);
      values[`short${index}`] = esc(player.short);
      values[`initials${index}`] = esc(player.initials);
    });
    let html = template.replace(/\x1e([a-z_0-9]+)\x1e/g, (found, placeholder) =>
      placeholder in values ? String(values[placeholder]) : "",
    );
    shown.innerHTML = html;
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
        input.value = newKey();
      });
    formsDirty = false;
  }

  // A time as the hall reads it: in the tournament's time zone, whatever the phone's own.
  function hallTime(time) {
    const options = { hour: "2-digit", minute: "2-digit", timeZone: phone.time_zone };
    try {
      return new Intl.DateTimeFormat(phone.language, options).format(time);
    } catch (error) {
      return time.toLocaleTimeString(phone.language, { hour: "2-digit", minute: "2-digit" });
    }
  }

  // Beside each Save button, one state: no connection, entries waiting, being sent, or every
  // entry on the server; what was refused; and when the server last answered.
  function renderStatus() {
    const shown = section();
    if (!shown) return;
    const { waiting, refused } = Queue.counts(queue);
    const parts = [];
    if (offline) parts.push(W.offline);
    if (waiting) parts.push(fmt(W.waiting, { count: waiting }));
    else if (!refused && !offline) parts.push(W.all_sent);
    if (refused) parts.push(fmt(W.refused_count, { count: refused }));
    if (sending && waiting && !offline) parts.push(W.sending);
    const time = heard ? new Date(heard) : null;
    const known = time && !Number.isNaN(time.getTime());
    const when = known ? fmt(W.heard, { time: esc(hallTime(time)) }) : W.never_heard;
    const html = `${parts.join(" · ")}<br>${when}`;
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

  function chosen(form, name) {
    const field = form.querySelector(`input[name="${name}"]:checked`);
    if (field) return field.value;
    const input = form.querySelector(`input[name="${name}"]:not([type=radio])`);
    return input ? input.value.trim() : "";
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
    form.querySelectorAll("[data-phone-refusal]").forEach((box) => box.remove());
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
          const player = playerByKey(key);
          const id = `id_${name}_${index}`;
          return (
            `<div><label for="${id}"><input type="radio" name="${esc(name)}" value="${esc(key)}" ` +
            `autocomplete="off" id="${id}"> ${esc(player ? player.name : key)}</label></div>`
          );
        })
        .join("") +
      "</div>";
    holder.appendChild(fieldset);
  }

  // A deal (or its correction) from its form, checked as entry.forms.DealForm checks it.
  function dealFrom(form, prefix) {
    const value = (name) => chosen(form, `${prefix}-${name}`);
    const number = (name) => {
      const text = value(name);
      return text === "" ? null : parseInt(text, 10);
    };
    const game = value("game");
    if (!game) return { error: W.required };
    if (game === "pass") return { entry: { game } };
    const sitsOut = value("sits_out");
    const playing = base.players.filter((p) => base.players.length !== 4 || p.key !== sitsOut);
    if (game === "galdins") {
      const tricks = {};
      const points = {};
      for (const player of playing) {
        tricks[player.key] = number(`tricks_${player.key}`);
        if (tricks[player.key] === null) return { error: W.enter_his_tricks };
        points[player.key] = number(`points_${player.key}`);
        if (points[player.key] === null) return { error: W.enter_his_points };
      }
      const entry = { game, tricks, points };
      let tied = null;
      try {
        tied = scoring.galdinsDrawNeeded(
          { tricks, points },
          scoring.rulesFromJson(base.sheet.rules || {}),
        );
      } catch (error) {
        tied = null; // figures the engine refuses, with its own message
      }
      if (tied) {
        const drawn = value("draw_loser");
        if (!tied.includes(drawn)) {
          offerDraw(form, prefix, tied);
          const [first, second] = tied.map((key) => esc(playerName(key)));
          return { error: fmt(W.draw, { first, second }) };
        }
        entry.draw_loser = drawn;
      }
      return { entry };
    }
    const declarer = value("declarer");
    if (!declarer) return { error: W.choose_declarer };
    const tricks = number("tricks");
    if (tricks === null) return { error: W.enter_tricks };
    const points = number("points");
    if (game !== "maza_zole" && points === null) return { error: W.enter_points };
    const entry = { game, declarer, tricks };
    if (points !== null) entry.points = points;
    return { entry };
  }

  function timeUpMessage(view) {
    const marked = document.querySelector("[data-time-up-at]");
    const time = marked ? marked.getAttribute("data-time-up-at") : phone.time_up_at;
    return fmt(phone.time_up, {
      time: esc(time),
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
      key: fields[`${prefix}-client_key`] || newKey(),
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
      const made = dealFrom(form, prefix);
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
      if (last && last.record && !sending && last.record.action !== "correct") {
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
        return refuse(form, esc(errorText(error, deals)));
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

  function withPending(stored) {
    if (!pending.size) return stored;
    const kept = stored.filter((record) => !pending.has(record.key));
    pending.forEach((record) => {
      if (record) kept.push(record);
    });
    return kept.sort((a, b) => a.seq - b.seq);
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
    holder.innerHTML = template.replace(/\x1e([a-z_0-9]+)\x1e/g, (found, placeholder) => {
      const index_ = /^(key|name|short|initials)(\d)$/.exec(placeholder);
      if (index_) {
        const player = base.players[Number(index_[2])];
        const field = index_[1] === "key" ? "key" : index_[1];
        return player ? esc(player[field]) : "";
      }
      return placeholder === "url" ? esc(link) : placeholder === "csrf" ? esc(csrfToken()) : "";
    });
    const form = holder.querySelector(penalty ? "form.entry-penalty-form" : "form.entry-deal-form");
    if (!form) return null;
    const from = penalty ? "penalty-" : "deal-";
    form.querySelectorAll("[name], [id], label[for]").forEach((node) => {
      for (const attribute of ["name", "id", "for"]) {
        const value = node.getAttribute(attribute);
        if (value && value.includes(from)) {
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
    set("client_key", newKey());
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
      ? fmt(W.correct_penalty, { position })
      : fmt(W.correct_deal, { number: scoredDeal.number });
    return { form, heading };
  }

  function openCorrection(position) {
    const made = correctionForm(position);
    const shown = section();
    if (!made || !shown) return false;
    formsFromPhone = true;
    shown.innerHTML = `<h2>${made.heading}</h2>`;
    shown.appendChild(made.form);
    const back = document.createElement("p");
    back.innerHTML = `<a class="button secondary" href="${esc(link)}" data-phone-back>${W.back}</a>`;
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
        if (registration && registration.sync) {
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
    } catch (error) {
      outcome = { retry: true };
    }
    sending = false;
    if (outcome.retry && !outcome.status) connected(false);
    else if (!outcome.idle) connected(true);
    if (outcome.answer) {
      attempt = 0;
      await applyAnswer(outcome.answer);
      told = Queue.counts(queue);
    } else if (!outcome.idle || waitingRecords().length) {
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
    let stored = queue;
    try {
      stored = withPending(await Queue.list(link));
    } catch (error) {
      stored = queue.filter(
        (record) => !answer.results.some((r) => r.key === record.key && r.status === "stored"),
      );
    }
    // The worker may have sent and shown a later batch while this answer was on its way: an
    // answer older than the sheet shown is not shown.
    const current = Boolean(answer.state) && !fresher(base, answer.state);
    if (current) {
      base = answer.state;
      heard = base.heard || heard;
    }
    queue = stored;
    showServer(current ? answer.html : null);
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
      queue = withPending(entries);
      if (state && state.html && fresher(state, { heard, mark: base.mark })) fresh = state;
    } catch (error) {
      // The storage is gone: the phone keeps what it has in memory.
    }
    if (fresh) {
      base = fresh;
      heard = fresh.heard;
    }
    showServer(fresh ? fresh.html : null);
  }

  function newer(one, other) {
    const a = Date.parse(one || "");
    const b = Date.parse(other || "");
    return !Number.isNaN(a) && (Number.isNaN(b) || a > b);
  }

  // A table state written after `other`: the server's clock counts whole seconds, so within
  // one second the later write (the higher mark: the newest result id) tells.
  function fresher(state, other) {
    return (
      newer(state.heard, other.heard) ||
      (state.heard === other.heard && (state.mark || 0) > (other.mark || 0))
    );
  }

  // --- Events --------------------------------------------------------------------------------

  document.addEventListener("submit", (event) => {
    const form = event.target;
    const shown = section();
    if (!shown || !shown.contains(form) || !base.accepts_entries) return;
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
    if (shown && shown.contains(event.target)) formsDirty = true;
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
      if (stored && stored.html && fresher(stored, base)) {
        // The page came from the phone's copy, older than the server's last answer.
        base = stored;
        heard = stored.heard;
        replaceHtml(stored.html);
      } else if (!stored || !fresher(stored, base)) {
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
