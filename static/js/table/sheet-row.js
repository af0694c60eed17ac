// A row of the sheet as the phone writes it: the server's row itself (scoring/_sheet_row.html,
// handed with its parts marked: entry/phone.py), filled in from a view of the row made here
// (fill-template.js; tests/js/sheet-row.test.js holds the phone's rows to the server's), and
// so is the sheet's foot (scoring/_sheet_foot.html). Pure: HTML text from a deal (engine JSON),
// what the engine's twin made of it, and `table`: the table's `players`, the page's `words`
// (escaped already) and the handed `templates` ("row", "foot").

import { fillTemplate } from "./fill-template.js";
import { isPenalty, playerByKey } from "./sheet-state.js";
import { escapeHtml as esc } from "./text.js";

// A player's names under the template's `prefix` ("declarer", "player", "owner").
function names(prefix, player) {
  return {
    [`${prefix}_short`]: esc(player.short),
    [`${prefix}_name`]: esc(player.name),
    [`${prefix}_initials`]: esc(player.initials),
  };
}

// What a deal shows in its game cell, with the engine's pule marks when scored.
function game(deal, scoredDeal, table, version = 1, reason = "") {
  const { players, words } = table;
  const kind = isPenalty(deal) ? "penalty" : deal.game;
  const common = scoredDeal ? scoredDeal.commonPules : 0;
  const declarer = playerByKey(players, isPenalty(deal) ? deal.player : deal.declarer || "");
  const galdins = deal.game === "galdins";
  const points = galdins ? null : (deal.points ?? null);
  const tricks = galdins ? null : (deal.tricks ?? null);
  const event = scoredDeal ? scoredDeal.puleEvent : null;
  const owner = event === "personal_collected" ? playerByKey(players, scoredDeal.puleOwner) : null;
  const galdinsPlayers = Object.keys((galdins && deal.tricks) || {})
    .map((key) => playerByKey(players, key))
    .filter(Boolean)
    .sort((a, b) => players.indexOf(a) - players.indexOf(b))
    .map((player, index) => ({
      later: index > 0,
      ...names("player", player),
      player_tricks: esc(deal.tricks[player.key]),
      player_points: esc(deal.points[player.key]),
    }));
  return {
    ...(event ? { [event]: true } : {}),
    game: words.games[kind] || words.entry,
    common: Boolean(common),
    commons: common > 1,
    common_pules: common,
    play: Boolean(declarer) || points !== null || tricks !== null,
    with_declarer: Boolean(declarer),
    ...(declarer ? names("declarer", declarer) : {}),
    with_points: points !== null,
    points: points === null ? "" : esc(points),
    with_tricks: tricks !== null,
    tricks: tricks === null ? "" : esc(tricks),
    tricks_taken: tricks === null ? "" : words.tricks[tricks] || esc(tricks),
    galdins,
    galdins_players: galdinsPlayers,
    owner_short: owner ? esc(owner.short) : "",
    corrected: version > 1,
    version,
    reason: esc(reason),
  };
}

// A player's box: his total, his score in the deal, his open personal pules, whether he deals.
function cell(player, scoredDeal, deal, players) {
  const isDealer = scoredDeal.dealer === player.key;
  const score = scoredDeal.scores[player.key];
  const personal = scoredDeal.personalPules[player.key];
  return {
    dealer: isDealer,
    sits_out: isDealer && players.length === 4,
    declarer: (isPenalty(deal) ? deal.player : deal.declarer) === player.key,
    with_total: true,
    total: scoredDeal.totals[player.key],
    with_score: Boolean(score),
    score_apart: true, // after the total
    gain: score > 0,
    score,
    personal: Boolean(personal),
    personal_apart: true,
    personals: personal > 1,
    personal_pules: personal,
  };
}

// The box of a player in a deal the sheet does not score: empty.
const EMPTY_CELL = { dealer: false, sits_out: false, declarer: false, with_total: false };

// One row the phone scored (`scoredDeal` null: the sheet does not score), `row` its position,
// version and the phone's entry that made it (null: a server row whose running figures the
// phone's entries change); `shape`: whether the sheet has the pules and action columns.
export function rowHtml(deal, scoredDeal, row, shape, table) {
  const { players } = table;
  return fillTemplate(table.templates.row, {
    ...game(deal, scoredDeal, table, row.version, row.reason || ""),
    phone: true,
    position: row.position,
    penalty: isPenalty(deal),
    on_phone: Boolean(row.record),
    refused: false,
    editable: false,
    numbered: Boolean(scoredDeal?.number),
    number: scoredDeal?.number,
    cells: players.map((player) =>
      scoredDeal ? cell(player, scoredDeal, deal, players) : EMPTY_CELL,
    ),
    pules: shape.pules,
    action: shape.action,
  });
}

// An entry the server refused, kept on the phone with the server's words until the referee
// removes it.
export function refusedRowHtml(record, shape, table) {
  const { players, words } = table;
  const what = record.action === "confirm" ? words.confirmation : words.removal;
  return fillTemplate(table.templates.row, {
    ...(record.entry ? game(record.entry, null, table) : { game: what }),
    phone: true,
    position: record.position || "",
    penalty: false,
    corrected: false,
    on_phone: true,
    refused: true,
    conflict: Boolean(record.conflict),
    own_version: Boolean(record.conflict && record.entry), // the entry the server's differs from
    editable: false,
    numbered: Boolean(record.number),
    number: record.number ? esc(record.number) : "",
    columns: players.length + (shape.pules ? 1 : 0) + (shape.action ? 1 : 0),
    cells: [], // the refusal takes the players' cells and the columns after them
    pules: false,
    action: false,
    refusal: esc(record.message || ""),
    key: esc(record.key),
  });
}

// The sheet's foot once every deal is in on the phone: the settlement and the totals.
export function footHtml(scored, shape, table) {
  const { players } = table;
  return fillTemplate(table.templates.foot, {
    on_phone: true,
    settlement: players.map((player) => ({
      gain: scored.settlement[player.key] > 0,
      value: scored.settlement[player.key],
    })),
    totals: players.map((player) => ({ value: scored.totals[player.key] })),
    pules: shape.pules,
    action: shape.action,
  });
}
