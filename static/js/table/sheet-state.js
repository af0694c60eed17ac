// The sheet as the phone has it: the server's last sheet (the table state, entry/state.py) with
// the entries still waiting on this phone laid over it, scored by the engine's twin
// (static/js/sheet-scoring.js). Pure: the page (page.js) shows what these return.

export function isPenalty(deal) {
  return "penalty" in deal;
}

// The deals played among `deals` (a penalty pule is no deal).
export function dealCount(deals) {
  return deals.filter((deal) => !isPenalty(deal)).length;
}

export function playerByKey(players, key) {
  return players.find((player) => player.key === String(key)) || null;
}

// The queue's entries still to be sent (a refused one waits for the referee instead).
export function waitingRecords(queue) {
  return queue.filter((record) => record.status !== "refused");
}

// The server's sheet (`base`, the table state) with the waiting entries of `queue` on top: the
// deals (engine JSON), one row description per deal (position, version, the phone's entry that
// made it, if any), what the engine's twin `scoring` makes of them (null before it is loaded),
// a waiting confirmation, and the first server row whose figures the phone changes.
export function sheetWithQueue(base, queue, scoring, dealsPerRound) {
  const deals = base.sheet.deals.slice();
  const rows = base.entries.map((entry) => ({
    position: entry.position,
    version: entry.version,
    record: null,
  }));
  let confirm = null;
  let changedFrom = rows.length;
  for (const record of waitingRecords(queue)) {
    const position = record.position;
    if (record.action === "deal" || record.action === "penalty") {
      deals.push(record.entry);
      rows.push({ position: rows.length + 1, version: 1, record });
    } else if (record.action === "correct") {
      const index = rows.findIndex((row) => row.position === position);
      if (index >= 0) {
        deals[index] = record.entry;
        rows[index] = { position, version: rows[index].version + 1, record, reason: record.reason };
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
  const complete = played >= dealsPerRound;
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
export function atTimeLimit(base, sheet, dealsPerRound) {
  const limit = base.deal_limit;
  return limit != null && limit < dealsPerRound && sheet.played >= limit;
}
