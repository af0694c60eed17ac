// A deal read from its form (the server's entry.forms.DealForm, or the correction the phone
// makes of it), checked as that form checks it before the engine sees it. Pure: the page hands
// it the form's fields by name (FormData) and shows what it returns.

import { playerName } from "./refusal-text.js";
import { escapeHtml, formatText } from "./text.js";

// `fields` (name -> value) of the form whose fields start with `prefix` ("deal", "fix"), at the
// table of `players`, under the sheet's `rules` (engine JSON), with the engine's twin `scoring`
// and the page's `words`. Returns {entry} (the deal as engine JSON) or {error} (the refusal's
// HTML); {error, tied} when a rondo galdiņš tie needs the players who drew the card, whose
// buttons the form lacks.
export function dealFromFields(fields, prefix, { players, rules, scoring, words }) {
  const value = (name) => String(fields[`${prefix}-${name}`] ?? "").trim();
  const number = (name) => {
    const text = value(name);
    return text === "" ? null : parseInt(text, 10);
  };
  const game = value("game");
  if (!game) return { error: words.required };
  if (game === "pass") return { entry: { game } };
  const sitsOut = value("sits_out");
  const playing = players.filter((p) => players.length !== 4 || p.key !== sitsOut);
  if (game === "galdins") {
    const tricks = {};
    const points = {};
    for (const player of playing) {
      tricks[player.key] = number(`tricks_${player.key}`);
      if (tricks[player.key] === null) return { error: words.enter_his_tricks };
      points[player.key] = number(`points_${player.key}`);
      if (points[player.key] === null) return { error: words.enter_his_points };
    }
    const entry = { game, tricks, points };
    let tied = null;
    try {
      tied = scoring.galdinsDrawNeeded({ tricks, points }, scoring.rulesFromJson(rules || {}));
    } catch {
      tied = null; // figures the engine refuses, with its own message
    }
    if (tied) {
      const drawn = value("draw_loser");
      if (!tied.includes(drawn)) {
        const [first, second] = tied.map((key) => escapeHtml(playerName(players, key)));
        return { error: formatText(words.draw, { first, second }), tied };
      }
      entry.draw_loser = drawn;
    }
    return { entry };
  }
  const declarer = value("declarer");
  if (!declarer) return { error: words.choose_declarer };
  const tricks = number("tricks");
  if (tricks === null) return { error: words.enter_tricks };
  const points = number("points");
  if (game !== "maza_zole" && points === null) return { error: words.enter_points };
  const entry = { game, declarer, tricks };
  if (points !== null) entry.points = points;
  return { entry };
}
