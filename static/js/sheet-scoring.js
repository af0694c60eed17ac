// The twin of the engine's sheet scoring (engine/json_contract.py, engine/rules.py, engine/deals.py,
// engine/sheet.py, engine/errors.py), so that a phone can score a sheet with no server: the same
// JSON sheet in (README, "The engine's command line"), the same result out, and the same refusal
// (message, deal number and field) for bad input. Each function is the engine's function of the
// same name in camelCase, in the same order of checks (a class is a function here: Rules is
// makeRules, Sheet makeSheet, a method takes its object first, as allows(rules, game); deals.py's
// _tricks and _rondo_winnings are tricksOf and galdinsRondoWinnings, so as not to clash).
// tests/e2e/test_sheet_scoring_twin.py scores thousands of random sheets, valid and not, both
// ways and requires identical answers: change the engine and this file together.
//
// What JSON.parse cannot tell apart, the twin cannot either: a whole number written 3.0 counts
// as 3 here (the engine refuses it), and an object's keys that look like whole numbers ("12")
// come first in a JavaScript object, so a galdiņš keyed by such names may name tied players in
// another order in a message.

// --- engine/errors.py -----------------------------------------------------------------------

function isDict(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function isWhole(value) {
  // Python's int: never a bool, never a float (JSON.parse gives 3.0 as 3, see above).
  return typeof value === "number" && Number.isInteger(value);
}

// A value as Python's json.dumps(value, ensure_ascii=False) writes it.
export function shown(value) {
  if (Array.isArray(value)) {
    return `[${value.map(shown).join(", ")}]`;
  }
  if (isDict(value)) {
    return (
      "{" +
      Object.keys(value)
        .map((key) => `${JSON.stringify(key)}: ${shown(value[key])}`)
        .join(", ") +
      "}"
    );
  }
  if (value === undefined) {
    return "null";
  }
  return JSON.stringify(value);
}

function formatMessage(template, params) {
  return template.replace(/%\(([a-z_]+)\)s/g, (_, name) => String(params[name]));
}

export class SheetError extends Error {
  constructor(message, { deal = null, field = null, ...params } = {}) {
    const hasParams = Object.keys(params).length > 0;
    const text = hasParams ? formatMessage(message, params) : message;
    super(deal !== null ? `deal ${deal}: ${text}` : text);
    this.name = "SheetError";
    this.template = message;
    this.params = params;
    this.text = text; // the engine's `message`: without the deal
    this.deal = deal;
    this.field = field;
  }

  toString() {
    return this.message;
  }

  atDeal(deal) {
    return new SheetError(this.template, { deal, field: this.field, ...this.params });
  }
}

// --- engine/rules.py -------------------------------------------------------------------------

export const TOTAL_POINTS = 120;
export const TRICKS_PER_DEAL = 8;
export const MAX_TALON_POINTS = 22;
const IMPOSSIBLE_POINTS = [1, 119];
const WIN_POINTS = 61;
const HIGH_WIN_POINTS = 91;
const LOW_LOSS_POINTS = 30;
const TABLE_SIZES = [3, 4];

export const GAMES = ["lielais", "zole", "maza_zole", "pass", "galdins"];
const ALL_PASS = ["pule", "galdins", "galdins_pule"];
const GALDINS_SCORING = ["tricks", "rondo"];
const PERSONAL_PULE_PAYMENT = ["N-1", "N"];

function payoutUnit(bands, { points, tricks }) {
  if (tricks === TRICKS_PER_DEAL) return bands.allTricks;
  if (tricks === 0) return bands.noTrick;
  if (points >= HIGH_WIN_POINTS) return bands.highWin;
  if (points >= WIN_POINTS) return bands.win;
  if (points > LOW_LOSS_POINTS) return bands.loss;
  return bands.lowLoss;
}

const LIELAIS_PAYOUT = { allTricks: 3, highWin: 2, win: 1, loss: -2, lowLoss: -3, noTrick: -4 };
const ZOLE_PAYOUT = { allTricks: 7, highWin: 6, win: 5, loss: -6, lowLoss: -7, noTrick: -8 };
const MAZA_ZOLE_WIN = 6;
const SMALL_ZOLE_LOSSES = [7, 6];
const GALDINS_LOSS = 2;
const RONDO_NO_TRICK = 3;
const RONDO_LOW_POINTS = 2;
const RONDO_HIGH_POINTS = 1;
const COMMON_PULE_UNIT = 1;
const SETTLEMENT_UNIT = 1;
const FOUR_TABLE_PASS_PULES = [1, 2];
const MAX_PENALTY_PULES = 3;

export function declarerUnit(game, { points, tricks, smallZoleLoss = SMALL_ZOLE_LOSSES[0] }) {
  if (game === "lielais") return payoutUnit(LIELAIS_PAYOUT, { points: points || 0, tricks });
  if (game === "zole") return payoutUnit(ZOLE_PAYOUT, { points: points || 0, tricks });
  if (game === "maza_zole") return tricks === 0 ? MAZA_ZOLE_WIN : -smallZoleLoss;
  throw new Error(`${game} has no declarer`);
}

export function rondoWinnings({ points, tricks }) {
  if (tricks === 0) return RONDO_NO_TRICK;
  if (points <= LOW_LOSS_POINTS) return RONDO_LOW_POINTS;
  return RONDO_HIGH_POINTS;
}

const RULE_CHOICES = {
  all_pass: 'rules.all_pass must be "pule", "galdins" or "galdins_pule", got %(value)s',
  personal_pule_payment: 'rules.personal_pule_payment must be "N-1" or "N", got %(value)s',
  galdins_scoring: 'rules.galdins_scoring must be "tricks" or "rondo", got %(value)s',
  four_table_pass_pules: "rules.four_table_pass_pules must be 1 or 2, got %(value)s",
  small_zole_loss: "rules.small_zole_loss must be 7 or 6, got %(value)s",
};
const CHOICE_OPTIONS = [
  ["all_pass", ALL_PASS],
  ["personal_pule_payment", PERSONAL_PULE_PAYMENT],
  ["galdins_scoring", GALDINS_SCORING],
];
const NUMBER_OPTIONS = [
  ["four_table_pass_pules", FOUR_TABLE_PASS_PULES],
  ["small_zole_loss", SMALL_ZOLE_LOSSES],
];
const RULE_DEFAULTS = {
  all_pass: "pule",
  small_zole: false,
  personal_pule_payment: "N-1",
  four_table_pass_pules: FOUR_TABLE_PASS_PULES[0],
  galdins_scoring: "tricks",
  small_zole_loss: SMALL_ZOLE_LOSSES[0],
};
const RULE_FIELDS = Object.keys(RULE_DEFAULTS);

// engine.rules.Rules: the options with their defaults, checked as Rules.__post_init__ does.
export function makeRules(options = {}) {
  const rules = { ...RULE_DEFAULTS, ...options };
  for (const [name, choices] of CHOICE_OPTIONS) {
    if (typeof rules[name] !== "string" || !choices.includes(rules[name])) {
      throw new SheetError(RULE_CHOICES[name], {
        field: `rules.${name}`,
        value: shown(rules[name]),
      });
    }
  }
  for (const [name, choices] of NUMBER_OPTIONS) {
    const value = rules[name];
    if (!isWhole(value) || !choices.includes(value)) {
      throw new SheetError(RULE_CHOICES[name], { field: `rules.${name}`, value: shown(value) });
    }
  }
  if (typeof rules.small_zole !== "boolean") {
    throw new SheetError("rules.small_zole must be true or false, got %(value)s", {
      field: "rules.small_zole",
      value: shown(rules.small_zole),
    });
  }
  rules.pules = rules.all_pass === "pule" || rules.all_pass === "galdins_pule";
  rules.rondo = rules.galdins_scoring === "rondo";
  return rules;
}

export function allows(rules, game) {
  if (game === "maza_zole") return rules.small_zole;
  if (game === "pass") return rules.all_pass === "pule";
  if (game === "galdins") return rules.all_pass === "galdins" || rules.all_pass === "galdins_pule";
  return true;
}

export function personalPuleUnits(rules, tableSize) {
  return rules.personal_pule_payment === "N" ? tableSize : tableSize - 1;
}

export function commonPulesWritten(rules, tableSize, { puleOpen }) {
  if (tableSize === 4 && !puleOpen) return rules.four_table_pass_pules;
  return 1;
}

// --- engine/deals.py -------------------------------------------------------------------------

const PLAYED_GAMES = ["lielais", "zole", "maza_zole"];
const NOT_PLAYED = {
  lielais: "lielais is not played under this table's rules",
  zole: "zole is not played under this table's rules",
  maza_zole: "maza_zole is not played under this table's rules",
  pass: "pass is not played under this table's rules",
  galdins: "galdins is not played under this table's rules",
};
const WHOLE = {
  tricks: "tricks must be a whole number, got %(value)s",
  points: "points must be a whole number, got %(value)s",
  "tricks of": "tricks of %(player)s must be a whole number, got %(value)s",
  "points of": "points of %(player)s must be a whole number, got %(value)s",
};
const RANGE = {
  tricks: "tricks must be %(low)s-%(high)s, got %(value)s",
  points: "points must be %(low)s-%(high)s, got %(value)s",
  "tricks of": "tricks of %(player)s must be %(low)s-%(high)s, got %(value)s",
  "points of": "points of %(player)s must be %(low)s-%(high)s, got %(value)s",
};
const IMPOSSIBLE = {
  points: "points cannot be %(value)s: no set of cards is worth 1 point",
  "points of": "points of %(player)s cannot be %(value)s: no set of cards is worth 1 point",
};
const NOT_AT_TABLE = {
  declarer: "declarer %(player)s is not at this table",
  player: "player %(player)s is not at this table",
  tricks: "tricks: player %(player)s is not at this table",
  points: "points: player %(player)s is not at this table",
};
const SITS_OUT = {
  declarer: "declarer %(player)s deals this deal and sits it out at a 4-player table",
  player: "player %(player)s deals this deal and sits it out at a 4-player table",
  tricks: "tricks: player %(player)s deals this deal and sits it out at a 4-player table",
  points: "points: player %(player)s deals this deal and sits it out at a 4-player table",
};
const NOT_GIVEN_EACH = {
  tricks: "tricks must give each playing player's tricks, got %(value)s",
  points: "points must give each playing player's points, got %(value)s",
};
const MISSING_OF = {
  tricks: "tricks of %(player)s is missing",
  points: "points of %(player)s is missing",
};

function fieldOf(fieldName, of) {
  if (of === null || of === undefined) return [fieldName, fieldName, {}];
  return [`${fieldName} of`, `${fieldName} of ${of}`, { player: of }];
}

function wholeNumber(value, fieldName, low, high, of = null) {
  if (!isWhole(value)) {
    const [key, field, player] = fieldOf(fieldName, of);
    throw new SheetError(WHOLE[key], { field, value: shown(value), ...player });
  }
  if (!(low <= value && value <= high)) {
    const [key, field, player] = fieldOf(fieldName, of);
    throw new SheetError(RANGE[key], { field, low, high, value, ...player });
  }
  return value;
}

function cardPoints(value, fieldName, of = null) {
  const points = wholeNumber(value, fieldName, 0, TOTAL_POINTS, of);
  if (IMPOSSIBLE_POINTS.includes(points)) {
    const [key, field, player] = fieldOf(fieldName, of);
    throw new SheetError(IMPOSSIBLE[key], { field, value: points, ...player });
  }
  return points;
}

function tricksOf(value, fieldName, of = null) {
  return wholeNumber(value, fieldName, 0, TRICKS_PER_DEAL, of);
}

function seatedPlayer(name, fieldName, players, sittingOut) {
  const field =
    fieldName === "declarer" || fieldName === "player" ? fieldName : `${fieldName}: player`;
  if (typeof name !== "string" || !players.includes(name)) {
    throw new SheetError(NOT_AT_TABLE[fieldName], { field, player: shown(name) });
  }
  if (name === sittingOut) {
    throw new SheetError(SITS_OUT[fieldName], { field, player: name });
  }
  return name;
}

function validatePlay(play, players, sittingOut) {
  seatedPlayer(play.declarer, "declarer", players, sittingOut);
  const tricks = tricksOf(play.tricks, "tricks");
  if (play.game === "maza_zole") {
    if (play.points !== null) {
      const points = cardPoints(play.points, "points");
      if (tricks === 0 && points) {
        throw new SheetError("points must be 0 when mazā zole takes no trick, got %(value)s", {
          field: "points",
          value: points,
        });
      }
    }
    return;
  }
  if (play.points === null) {
    throw new SheetError("points is missing", { field: "points" });
  }
  const points = cardPoints(play.points, "points");
  if (play.game === "lielais") {
    if (tricks === TRICKS_PER_DEAL && points !== TOTAL_POINTS) {
      throw new SheetError(
        "points must be %(total)s when Lielais takes all %(tricks)s tricks, got %(value)s",
        { field: "points", total: TOTAL_POINTS, tricks: TRICKS_PER_DEAL, value: points },
      );
    }
    if (tricks === 0 && points > MAX_TALON_POINTS) {
      throw new SheetError(
        "points must be at most %(most)s (the discards) when Lielais takes no trick, " +
          "got %(value)s",
        { field: "points", most: MAX_TALON_POINTS, value: points },
      );
    }
  } else {
    // zole: the talon counts for the defenders
    if (tricks === 0 && points) {
      throw new SheetError("points must be 0 when zole takes no trick, got %(value)s", {
        field: "points",
        value: points,
      });
    }
    if (tricks === TRICKS_PER_DEAL && points < TOTAL_POINTS - MAX_TALON_POINTS) {
      throw new SheetError(
        "points must be at least %(least)s when zole takes all %(tricks)s tricks, got %(value)s",
        {
          field: "points",
          least: TOTAL_POINTS - MAX_TALON_POINTS,
          tricks: TRICKS_PER_DEAL,
          value: points,
        },
      );
    }
  }
}

function sumOf(values) {
  return Object.values(values).reduce((total, value) => total + value, 0);
}

function validateGaldins(galdins, players, sittingOut, rules) {
  const playing = players.filter((name) => name !== sittingOut);
  for (const [fieldName, values, check] of [
    ["tricks", galdins.tricks, tricksOf],
    ["points", galdins.points, cardPoints],
  ]) {
    if (!isDict(values)) {
      throw new SheetError(NOT_GIVEN_EACH[fieldName], { field: fieldName, value: shown(values) });
    }
    for (const name of Object.keys(values)) {
      seatedPlayer(name, fieldName, players, sittingOut);
    }
    for (const name of playing) {
      if (!Object.hasOwn(values, name)) {
        throw new SheetError(MISSING_OF[fieldName], { field: fieldName, player: name });
      }
      check(values[name], fieldName, name);
    }
  }
  const trickSum = sumOf(galdins.tricks);
  if (trickSum !== TRICKS_PER_DEAL) {
    throw new SheetError("tricks must add up to %(total)s, got %(value)s", {
      field: "tricks",
      total: TRICKS_PER_DEAL,
      value: trickSum,
    });
  }
  const pointSum = sumOf(galdins.points);
  if (pointSum > TOTAL_POINTS) {
    throw new SheetError("points must add up to at most %(total)s, got %(value)s", {
      field: "points",
      total: TOTAL_POINTS,
      value: pointSum,
    });
  }
  validateDrawLoser(galdins, rules);
}

function validateDrawLoser(galdins, rules) {
  const tied = galdinsDrawNeeded(galdins, rules);
  if (tied === null) {
    if (galdins.draw_loser !== null) {
      throw new SheetError("draw_loser %(player)s is given, but this galdiņš needs no card draw", {
        field: "draw_loser",
        player: shown(galdins.draw_loser),
      });
    }
    return;
  }
  const [first, second] = tied;
  if (galdins.draw_loser === null) {
    throw new SheetError(
      "draw_loser is missing: %(first)s and %(second)s tie for the most points and " +
        "draw a card for who pays the larger half",
      { field: "draw_loser", first, second },
    );
  }
  if (!tied.includes(galdins.draw_loser)) {
    throw new SheetError(
      "draw_loser %(player)s is not one of the tied players %(first)s and %(second)s",
      { field: "draw_loser", player: shown(galdins.draw_loser), first, second },
    );
  }
}

// `dealer` is the dealer of this deal (null for a penalty, which uses no deal).
export function validateEntry(entry, { players, dealer, rules }) {
  const sittingOut = players.length === 4 ? dealer : null;
  if (entry.kind === "penalty") {
    if (!rules.pules) {
      throw new SheetError(
        'a penalty pule needs the rule all_pass = "pule" or "galdins_pule": this ' +
          "table keeps no pules",
        { field: "penalty" },
      );
    }
    seatedPlayer(entry.player, "player", players, null);
    return;
  }
  if (!allows(rules, entry.game)) {
    throw new SheetError(NOT_PLAYED[entry.game], { field: "game" });
  }
  if (entry.kind === "play") {
    validatePlay(entry, players, sittingOut);
  } else if (entry.kind === "galdins") {
    validateGaldins(entry, players, sittingOut, rules);
  }
}

function maxOf(values) {
  return Math.max(...values);
}

export function galdinsLosers(galdins, rules = null) {
  if (rules?.rondo) {
    const mostPoints = maxOf(Object.values(galdins.points));
    return Object.keys(galdins.points).filter((name) => galdins.points[name] === mostPoints);
  }
  const mostTricks = maxOf(Object.values(galdins.tricks));
  const candidates = Object.keys(galdins.tricks).filter(
    (name) => galdins.tricks[name] === mostTricks,
  );
  const mostPoints = maxOf(candidates.map((name) => galdins.points[name]));
  return candidates.filter((name) => galdins.points[name] === mostPoints);
}

function galdinsRondoWinnings(galdins, winner) {
  return rondoWinnings({ points: galdins.points[winner], tricks: galdins.tricks[winner] });
}

export function galdinsDrawNeeded(galdins, rules) {
  if (!rules.rondo) return null;
  const losers = galdinsLosers(galdins, rules);
  if (losers.length !== 2) return null;
  const winner = Object.keys(galdins.points).find((name) => !losers.includes(name));
  if (galdinsRondoWinnings(galdins, winner) % 2 === 0) return null;
  return [losers[0], losers[1]];
}

function galdinsScores(galdins, players, rules) {
  const scores = Object.fromEntries(players.map((name) => [name, 0]));
  const pay = (payer, receiver, amount) => {
    scores[payer] -= amount;
    scores[receiver] += amount;
  };
  const losers = galdinsLosers(galdins, rules);
  if (!rules.rondo) {
    // each loser pays every other seated player, the sitting-out dealer too
    for (const loser of losers) {
      for (const name of players) {
        if (name !== loser) pay(loser, name, GALDINS_LOSS);
      }
    }
  } else if (losers.length === 1) {
    // Rondo names only the playing players: the sitting-out dealer neither pays nor receives.
    const [loser] = losers;
    for (const winner of Object.keys(galdins.points)) {
      if (winner !== loser) pay(loser, winner, galdinsRondoWinnings(galdins, winner));
    }
  } else if (losers.length === 2) {
    // the two split what the one winner receives
    const winner = Object.keys(galdins.points).find((name) => !losers.includes(name));
    const amount = galdinsRondoWinnings(galdins, winner);
    const larger = galdins.draw_loser || losers[0]; // without a draw the halves are equal
    const smaller = larger === losers[0] ? losers[1] : losers[0];
    pay(larger, winner, amount - Math.floor(amount / 2));
    pay(smaller, winner, Math.floor(amount / 2));
  }
  // three tied: nothing moves
  return scores;
}

// The points one validated deal moves, in seat order, before any pule (sums to zero).
export function baseScores(deal, players, rules) {
  const size = players.length;
  if (deal.kind === "play") {
    const unit = declarerUnit(deal.game, {
      points: deal.points,
      tricks: deal.tricks,
      smallZoleLoss: rules.small_zole_loss,
    });
    const scores = new Array(size).fill(-unit);
    scores[players.indexOf(deal.declarer)] = unit * (size - 1);
    return scores;
  }
  if (deal.kind === "galdins") {
    const byName = galdinsScores(deal, players, rules);
    return players.map((name) => byName[name]);
  }
  return new Array(size).fill(0);
}

// --- engine/sheet.py -------------------------------------------------------------------------

// Only what Python's str.strip() strips (JavaScript's trim() differs at the edges).
const PYTHON_BLANK =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: Python's str.isspace() counts them
  /^[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/;

export function validatePlayers(players) {
  if (!TABLE_SIZES.includes(players.length)) {
    throw new SheetError("players: a table seats 3 or 4 players, got %(count)s", {
      field: "players",
      count: players.length,
    });
  }
  for (const name of players) {
    if (typeof name !== "string" || PYTHON_BLANK.test(name)) {
      throw new SheetError("players: every player needs a name, got %(value)s", {
        field: "players",
        value: shown(name),
      });
    }
  }
  if (new Set(players).size !== players.length) {
    throw new SheetError("players: each name may sit at the table once", { field: "players" });
  }
}

// engine.sheet.Sheet, checked as Sheet.__post_init__ does.
export function makeSheet({ players, entries = [], rules, firstDealer = null, closed = true }) {
  validatePlayers(players);
  if (firstDealer !== null && !players.includes(firstDealer)) {
    throw new SheetError("first_dealer %(player)s is not one of the players", {
      field: "first_dealer",
      player: shown(firstDealer),
    });
  }
  return { players, entries, rules, firstDealer, closed };
}

export function settleRound(personalPules, players) {
  const settlement = Object.fromEntries(players.map((name) => [name, 0]));
  for (const [owner, count] of Object.entries(personalPules)) {
    if (count) {
      for (const name of players) {
        if (name === owner) {
          settlement[name] -= SETTLEMENT_UNIT * count * (players.length - 1);
        } else {
          settlement[name] += SETTLEMENT_UNIT * count;
        }
      }
    }
  }
  return settlement;
}

function byPlayer(players, row) {
  return Object.fromEntries(players.map((name, seat) => [name, row[seat]]));
}

// Score every entry of a sheet in order; throw `SheetError` naming the first bad deal. Each
// scored deal carries, as the engine's ScoredDeal, the pules open after it.
export function scoreSheet(sheet) {
  const { players, rules } = sheet;
  const size = players.length;
  const seatOf = Object.fromEntries(players.map((name, seat) => [name, seat]));
  let dealerSeat = sheet.firstDealer !== null ? players.indexOf(sheet.firstDealer) : 0;
  const totals = new Array(size).fill(0);
  let common = 0;
  const personalCounts = new Array(size).fill(0);
  const personalQueue = []; // owners' seats, oldest pule first
  const penalties = new Array(size).fill(0); // penalty pules given this round
  const scored = [];
  let dealsPlayed = 0;

  sheet.entries.forEach((entry, index) => {
    const number = index + 1;
    let event = null;
    let owner = null;
    let written = 0;
    let scores;
    let dealer;
    if (entry.kind === "penalty") {
      try {
        validateEntry(entry, { players, dealer: null, rules });
      } catch (error) {
        throw error instanceof SheetError ? error.atDeal(number) : error;
      }
      owner = seatOf[entry.player];
      if (penalties[owner] === MAX_PENALTY_PULES) {
        throw new SheetError(
          "player %(player)s already has %(most)s penalty pules: at most %(most)s " +
            "per player per round",
          { deal: number, field: "player", player: entry.player, most: MAX_PENALTY_PULES },
        );
      }
      penalties[owner] += 1;
      personalQueue.push(owner);
      personalCounts[owner] += 1;
      scores = new Array(size).fill(0);
      event = "penalty";
      dealer = null;
    } else {
      dealer = players[dealerSeat];
      try {
        validateEntry(entry, { players, dealer, rules });
      } catch (error) {
        throw error instanceof SheetError ? error.atDeal(number) : error;
      }
      scores = baseScores(entry, players, rules);
      // Only everyone passing (galdiņš too, under galdins_pule) and Lielais touch the pules.
      if (entry.game === "pass" || entry.game === "galdins") {
        if (rules.pules) {
          written = commonPulesWritten(rules, size, {
            puleOpen: Boolean(common || personalQueue.length),
          });
          common += written;
          event = "common_written";
        }
      } else if (rules.pules && entry.kind === "play" && entry.game === "lielais") {
        const declarer = seatOf[entry.declarer];
        if (scores[declarer] > 0) {
          // a won Lielais collects one pule
          if (personalCounts[declarer]) {
            personalQueue.splice(personalQueue.indexOf(declarer), 1); // his oldest one
            personalCounts[declarer] -= 1;
            event = "own_collected";
            owner = declarer;
          } else if (common) {
            common -= 1;
            for (let seat = 0; seat < size; seat++) scores[seat] -= COMMON_PULE_UNIT;
            scores[declarer] += COMMON_PULE_UNIT * size;
            event = "common_collected";
          } else if (personalQueue.length) {
            owner = personalQueue.shift();
            personalCounts[owner] -= 1;
            const payment = personalPuleUnits(rules, size);
            scores[owner] -= payment;
            scores[declarer] += payment;
            event = "personal_collected";
          }
        } else if (common || personalQueue.length) {
          // a lost Lielais while any pule is open
          personalQueue.push(declarer);
          personalCounts[declarer] += 1;
          event = "personal_written";
          owner = declarer;
        }
      }
      dealerSeat = (dealerSeat + 1) % size;
      dealsPlayed += 1;
    }
    for (let seat = 0; seat < size; seat++) totals[seat] += scores[seat];
    scored.push({
      entry,
      number: dealer !== null ? dealsPlayed : null,
      dealer,
      scores: byPlayer(players, scores),
      totals: byPlayer(players, totals),
      commonPules: common, // open after this entry
      personalPules: byPlayer(players, personalCounts),
      puleEvent: event,
      puleOwner: owner !== null ? players[owner] : null,
      commonWritten: written,
    });
  });

  const openPersonal = byPlayer(players, personalCounts);
  // An open sheet (round still in play) is not settled yet.
  const settlement = settleRound(sheet.closed ? openPersonal : {}, players);
  return {
    players,
    deals: scored,
    settlement,
    totals: Object.fromEntries(
      players.map((name, seat) => [name, totals[seat] + settlement[name]]),
    ),
    openCommonPules: common,
    openPersonalPules: openPersonal,
    dealsPlayed,
    nextDealer: players[dealerSeat],
  };
}

// --- engine/json_contract.py -----------------------------------------------------------------

const SHEET_FIELDS = ["rules", "players", "first_dealer", "deals", "closed"];
const DEAL_FIELDS = {
  lielais: [["declarer", "points", "tricks"], []],
  zole: [["declarer", "points", "tricks"], []],
  maza_zole: [["declarer", "tricks"], ["points"]],
  pass: [[], []],
  galdins: [["tricks", "points"], ["draw_loser"]],
};
const PENALTIES = ["personal_pule"];

function checkFields(data, required, allowed) {
  for (const name of [...required].sort()) {
    if (!Object.hasOwn(data, name)) {
      throw new SheetError(`${name} is missing`, { field: name });
    }
  }
  for (const name of Object.keys(data)) {
    if (!allowed.includes(name)) {
      throw new SheetError(`unknown field ${shown(name)}`, { field: name });
    }
  }
}

// One element of a sheet's `deals` (throws `SheetError` without a deal number).
export function entryFromJson(data) {
  if (!isDict(data)) {
    throw new SheetError(`each deal must be a JSON object, got ${shown(data)}`, {
      field: "deal",
    });
  }
  if (Object.hasOwn(data, "penalty")) {
    checkFields(data, ["penalty", "player"], ["penalty", "player"]);
    if (!PENALTIES.includes(data.penalty)) {
      throw new SheetError(`penalty must be "personal_pule", got ${shown(data.penalty)}`, {
        field: "penalty",
      });
    }
    return { kind: "penalty", game: null, player: data.player };
  }
  if (!Object.hasOwn(data, "game")) {
    throw new SheetError('game is missing (or "penalty" for a penalty pule)', { field: "game" });
  }
  const game = data.game;
  if (typeof game !== "string" || !GAMES.includes(game)) {
    throw new SheetError(`game must be one of ${GAMES.join(", ")}, got ${shown(game)}`, {
      field: "game",
    });
  }
  const [required, optional] = DEAL_FIELDS[game];
  checkFields(data, required, [...required, ...optional, "game"]);
  if (game === "pass") return { kind: "pass", game };
  if (game === "galdins") {
    return {
      kind: "galdins",
      game,
      tricks: data.tricks,
      points: data.points,
      draw_loser: data.draw_loser ?? null,
    };
  }
  if (!PLAYED_GAMES.includes(game)) {
    throw new SheetError("unknown game %(value)s", { field: "game", value: shown(game) });
  }
  return {
    kind: "play",
    game,
    declarer: data.declarer,
    tricks: data.tricks,
    points: data.points ?? null,
  };
}

export function rulesFromJson(data) {
  if (!isDict(data)) {
    throw new SheetError(`rules must be a JSON object, got ${shown(data)}`, { field: "rules" });
  }
  for (const name of Object.keys(data)) {
    if (!RULE_FIELDS.includes(name)) {
      throw new SheetError(`rules: unknown option ${shown(name)}`, { field: `rules.${name}` });
    }
  }
  return makeRules(data);
}

// A sheet from the JSON contract; throws `SheetError` naming the deal and the field.
export function sheetFromJson(data) {
  if (!isDict(data)) {
    throw new SheetError(`a sheet must be a JSON object, got ${shown(data)}`, { field: "sheet" });
  }
  checkFields(data, ["players"], SHEET_FIELDS);
  const players = data.players;
  if (!Array.isArray(players)) {
    throw new SheetError(`players must be a list of names, got ${shown(players)}`, {
      field: "players",
    });
  }
  const closed = Object.hasOwn(data, "closed") ? data.closed : true;
  if (typeof closed !== "boolean") {
    throw new SheetError(`closed must be true or false, got ${shown(closed)}`, {
      field: "closed",
    });
  }
  const deals = Object.hasOwn(data, "deals") ? data.deals : [];
  if (!Array.isArray(deals)) {
    throw new SheetError(`deals must be a list, got ${shown(deals)}`, { field: "deals" });
  }
  const entries = deals.map((deal, index) => {
    try {
      return entryFromJson(deal);
    } catch (error) {
      throw error instanceof SheetError ? error.atDeal(index + 1) : error;
    }
  });
  // As in the engine, the rules are read before the players are checked.
  const rules = rulesFromJson(Object.hasOwn(data, "rules") ? data.rules : {});
  return makeSheet({
    players: [...players],
    entries,
    rules,
    firstDealer: data.first_dealer ?? null,
    closed,
  });
}

export function scoredSheetToJson(scored) {
  return {
    players: [...scored.players],
    deals: scored.deals.map((deal) => ({ dealer: deal.dealer, scores: deal.scores })),
    settlement: scored.settlement,
    totals: scored.totals,
    open_pules: { common: scored.openCommonPules, personal: scored.openPersonalPules },
  };
}

// Score one sheet given as parsed JSON (what `python -m engine score` answers); throws
// `SheetError` on bad input, whose message is the command line's one line on standard error.
export function scoreJson(data) {
  return scoredSheetToJson(scoreSheet(sheetFromJson(data)));
}
