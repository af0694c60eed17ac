// A row of the sheet as the phone writes it, the same markup as the server's row
// (templates/scoring/_sheet_row.html; tests/js/sheet-row.test.js holds the two together on the
// rows the server renders). Pure: HTML text from a deal (engine JSON), what the engine's twin
// made of it, the table's `players` and the page's `words` (entry/phone.py, escaped already).

import { isPenalty, playerByKey } from "./sheet-state.js";
import { escapeHtml as esc, formatText } from "./text.js";

function times(count) {
  return count > 1 ? `×${count}` : "";
}

function nameHtml(player, full) {
  return (
    `<span class="entry-name-full">${esc(full)}</span><abbr class="entry-name-short" ` +
    `title="${esc(player.name)}">${esc(player.initials)}</abbr>`
  );
}

// The mark of a row that is only on this phone, with what became of it (`extra`).
export function onPhoneMark(words, extra) {
  return (
    `<span class="on-phone-mark" title="${words.on_phone_title}">${words.on_phone}` +
    `${extra ? ` · ${extra}` : ""}</span>`
  );
}

// What a deal shows in its game cell, with the engine's pule marks when scored.
export function gameCell(deal, scoredDeal, table, { version = 1, reason = "", mark = "" } = {}) {
  const { players, words } = table;
  const kind = isPenalty(deal) ? "penalty" : deal.game;
  let game = words.games[kind] || words.entry;
  const common = scoredDeal ? scoredDeal.commonPules : 0;
  if (common) {
    game +=
      `<span class="entry-pule-mark common entry-pules-inline" title="${words.common_open}">` +
      ` ○${times(common)}</span>`;
  }
  const parts = [`<span class="game">${game}</span>`];
  const declarer = playerByKey(players, isPenalty(deal) ? deal.player : deal.declarer || "");
  const points = deal.game === "galdins" ? null : (deal.points ?? null);
  const tricks = deal.game === "galdins" ? null : (deal.tricks ?? null);
  if (declarer || points !== null || tricks !== null) {
    const play = [];
    if (declarer) play.push(`<span class="declarer">${nameHtml(declarer, declarer.short)}</span>`);
    if (points !== null) {
      play.push(`<span class="figures">${esc(points)}/${esc(tricks)}</span>`);
    } else if (tricks !== null) {
      play.push(`<span class="figures">${words.tricks[tricks] || esc(tricks)}</span>`);
    }
    parts.push(`<span class="entry-play">${play.join(" ")}</span>`);
  }
  if (deal.game === "galdins") {
    const figures = Object.keys(deal.tricks || {})
      .map((key) => playerByKey(players, key))
      .filter(Boolean)
      .sort((a, b) => players.indexOf(a) - players.indexOf(b))
      .map((p) => `${nameHtml(p, p.short)} ${esc(deal.tricks[p.key])}/${esc(deal.points[p.key])}`)
      .join(", ");
    parts.push(`<span class="figures">${figures}</span>`);
  }
  const event = scoredDeal ? scoredDeal.puleEvent : null;
  if (event === "personal_collected") {
    const owner = playerByKey(players, scoredDeal.puleOwner);
    const name = owner ? esc(owner.short) : "";
    parts.push(
      `<span class="entry-pule-event">${formatText(words.collected_pule_of, { name })}</span>`,
    );
  } else if (event && words.events[event]) {
    parts.push(`<span class="entry-pule-event">${words.events[event]}</span>`);
  }
  if (version > 1) {
    parts.push(
      `<span class="corrected" title="${esc(reason)}">${formatText(words.corrected, { version })}</span>`,
    );
  }
  if (mark) parts.push(mark);
  return `<td class="entry-game">${parts.join(" ")}</td>`;
}

// A player's box: his total, his score in the deal, his open personal pules, whether he deals.
export function playerCell(player, scoredDeal, deal, table) {
  const { players, words } = table;
  const isDealer = scoredDeal.dealer === player.key;
  const sitsOut = isDealer && players.length === 4;
  const isDeclarer = (isPenalty(deal) ? deal.player : deal.declarer) === player.key;
  let classes = "entry-cell";
  classes += isDealer ? " is-dealer" : "";
  classes += sitsOut ? " sits-out" : "";
  classes += isDeclarer ? " is-declarer" : "";
  const parts = [];
  if (isDealer) {
    const title = sitsOut ? words.deals_sits_out : words.deals;
    parts.push(`<abbr class="entry-dealer-mark" title="${title}">${words.dealer_mark}</abbr>`);
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
      `<span class="entry-pule-mark personal" title="${words.personal_open}">` +
        `${words.personal_mark}${times(personal)}</span>`,
    );
  }
  return `<td class="${classes}">${parts.join(" ")}</td>`;
}

// One row the phone scored (`scoredDeal` null: the sheet does not score), `row` its position,
// version and the phone's entry that made it (null: a server row whose running figures the
// phone's entries change); `shape`: whether the sheet has the pules and action columns.
export function rowHtml(deal, scoredDeal, row, shape, table) {
  const classes = ["entry-row"];
  if (isPenalty(deal)) classes.push("entry-penalty");
  if (row.version > 1) classes.push("entry-corrected");
  if (row.record) classes.push("on-phone");
  const number = scoredDeal?.number ? String(scoredDeal.number) : "–";
  const parts = [
    `<tr class="${classes.join(" ")}" data-position="${row.position}" data-phone-row>`,
    `<th scope="row" class="entry-no">${number}</th>`,
    gameCell(deal, scoredDeal, table, {
      version: row.version,
      reason: row.reason || "",
      mark: row.record ? onPhoneMark(table.words, "") : "",
    }),
  ];
  for (const player of table.players) {
    parts.push(
      scoredDeal ? playerCell(player, scoredDeal, deal, table) : '<td class="entry-cell"></td>',
    );
  }
  if (shape.pules) {
    const common = scoredDeal ? scoredDeal.commonPules : 0;
    const mark = common
      ? `<span class="entry-pule-mark common" title="${table.words.common_open}">○${times(common)}</span>`
      : "";
    parts.push(`<td class="entry-pules">${mark}</td>`);
  }
  if (shape.action) parts.push('<td class="entry-action"></td>');
  parts.push("</tr>");
  return parts.join("");
}

// An entry the server refused, kept on the phone with the server's words until the referee
// removes it.
export function refusedRowHtml(record, shape, table) {
  const { players, words } = table;
  const conflict = record.conflict ? " conflict" : "";
  let game;
  if (record.entry) {
    const mark = onPhoneMark(words, record.conflict ? words.conflict : words.refused);
    game = gameCell(record.entry, null, table, { mark });
  } else {
    const what = record.action === "confirm" ? words.confirmation : words.removal;
    game = `<td class="entry-game"><span class="game">${what}</span> ${onPhoneMark(words, words.refused)}</td>`;
  }
  const span = players.length + (shape.pules ? 1 : 0) + (shape.action ? 1 : 0);
  return (
    `<tr class="entry-row on-phone refused${conflict}" data-position="${record.position || ""}" ` +
    "data-phone-refused>" +
    `<th scope="row" class="entry-no">${record.number ? esc(record.number) : "–"}</th>` +
    game +
    `<td class="entry-refusal-cell" colspan="${span}"><p class="entry-refusal">${esc(record.message || "")}</p>` +
    `<button type="button" class="secondary entry-queue-remove" data-queue-remove="${esc(record.key)}">` +
    `${words.remove}</button></td></tr>`
  );
}

// The sheet's foot once every deal is in on the phone: the settlement and the totals.
export function footHtml(scored, shape, table) {
  const { players, words } = table;
  const extra =
    (shape.pules ? '<td class="entry-pules"></td>' : "") +
    (shape.action ? '<td class="entry-action"></td>' : "");
  const cells = (values, sign) =>
    players.map((p) => `<td>${sign && values[p.key] > 0 ? "+" : ""}${values[p.key]}</td>`).join("");
  return (
    `<tr class="entry-settlement on-phone"><th scope="row" colspan="2">${words.settlement}</th>` +
    `${cells(scored.settlement, true)}${extra}</tr>` +
    `<tr class="entry-totals on-phone"><th scope="row" colspan="2">${words.total}</th>` +
    `${cells(scored.totals, false)}${extra}</tr>`
  );
}
