// The engine's refusal of a sheet in the server's words (core.engine_text.error_text): its
// message translated (the page hands the phone the engine's messages in the reader's language),
// the players named, and the deal it concerns placed on the referee's sheet.

import { dealCount, isPenalty, playerByKey } from "./sheet-state.js";
import { formatText } from "./text.js";

const PLAYER_PARAMS = ["player", "first", "second"];

// A message in the reader's language (`messages`, by its English template), filled in.
export function translated(messages, template, params) {
  const text = messages[template] || template;
  try {
    return formatText(text, params);
  } catch {
    return formatText(template, params);
  }
}

// A player's name for his key, as the engine gives it: as it is, or as JSON.
export function playerName(players, value) {
  if (typeof value !== "string") return value;
  const player = playerByKey(players, value);
  if (player) return player.name;
  try {
    const typed = JSON.parse(value);
    const named = typeof typed === "string" ? playerByKey(players, typed) : null;
    return named ? named.name : value;
  } catch {
    return value;
  }
}

// `error` (sheet-scoring.js's SheetError) on the sheet of `deals`, worded.
export function refusalText(error, deals, players, messages) {
  const params = { ...error.params };
  for (const name of PLAYER_PARAMS) {
    if (name in params) params[name] = playerName(players, params[name]);
  }
  const say = (template, values) => translated(messages, template, values);
  const message = say(error.template, params);
  if (error.deal === null || error.deal === undefined) return message;
  if (!(error.deal >= 1 && error.deal <= deals.length)) {
    return say("deal %(deal)s: %(message)s", { deal: error.deal, message });
  }
  const before = dealCount(deals.slice(0, error.deal - 1));
  if (!isPenalty(deals[error.deal - 1])) {
    return say("deal %(deal)s: %(message)s", { deal: before + 1, message });
  }
  if (before === 0) {
    return say("penalty pule before the first deal: %(message)s", { message });
  }
  return say("penalty pule after deal %(deal)s: %(message)s", { deal: before, message });
}
