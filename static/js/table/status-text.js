// What the page says of the sheet and the queue, in the page's words (entry/phone.py): the
// round's progress as the phone's sheet stands, and the state line beside each Save button.

import { escapeHtml, formatText } from "./text.js";

// The progress line while entries wait on the phone: every deal in, time up, or the next deal.
export function progressText(sheet, dealsPerRound, timeIsUp, words) {
  const total = dealsPerRound;
  if (sheet.complete) return formatText(words.progress_complete, { total });
  if (timeIsUp) return formatText(words.progress_time_up, { number: sheet.played, total });
  return formatText(words.progress_next, { number: sheet.played + 1, total });
}

// A time as the hall reads it: in the tournament's time zone, whatever the phone's own.
export function hallTime(time, language, timeZone) {
  const options = { hour: "2-digit", minute: "2-digit", timeZone };
  try {
    return new Intl.DateTimeFormat(language, options).format(time);
  } catch {
    return time.toLocaleTimeString(language, { hour: "2-digit", minute: "2-digit" });
  }
}

// One state: no connection, entries waiting, being sent, or every entry on the server; what was
// refused; and when the server last answered (`heard`, an ISO time, shown by `timeOf`).
export function queueStatusHtml({ waiting, refused, offline, sending, heard }, words, timeOf) {
  const parts = [];
  if (offline) parts.push(words.offline);
  if (waiting) parts.push(formatText(words.waiting, { count: waiting }));
  else if (!refused && !offline) parts.push(words.all_sent);
  if (refused) parts.push(formatText(words.refused_count, { count: refused }));
  if (sending && waiting && !offline) parts.push(words.sending);
  const time = heard ? new Date(heard) : null;
  const known = time && !Number.isNaN(time.getTime());
  const when = known
    ? formatText(words.heard, { time: escapeHtml(timeOf(time)) })
    : words.never_heard;
  return `${parts.join(" · ")}<br>${when}`;
}
