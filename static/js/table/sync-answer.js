// An answer of the server's sync (entry/sync.py) merged into what the phone has: the table state
// it sent, kept only when it is fresher than the one shown (the service worker may have sent and
// shown a later batch meanwhile), and the queue as stored with what is still being written.

// `one` later than `other` (ISO times; an unknown time is the earliest).
export function isNewer(one, other) {
  const a = Date.parse(one || "");
  const b = Date.parse(other || "");
  return !Number.isNaN(a) && (Number.isNaN(b) || a > b);
}

// A table state written after `other`: the server's clock counts whole seconds, so within one
// second the later write (the higher mark: the newest result id) tells.
export function isFresher(state, other) {
  return (
    isNewer(state.heard, other.heard) ||
    (state.heard === other.heard && (state.mark || 0) > (other.mark || 0))
  );
}

// The queue read from storage brought up to date with the entries taken or removed here whose
// write has not finished (`pending`: key -> the entry, or null when removed), oldest first.
export function withPending(stored, pending) {
  if (!pending.size) return stored;
  const kept = stored.filter((record) => !pending.has(record.key));
  pending.forEach((record) => {
    if (record) kept.push(record);
  });
  return kept.sort((a, b) => a.seq - b.seq);
}

// The queue as the phone holds it in memory, once the server stored what `answer` says it
// stored (for when the storage cannot be read).
export function queueWithoutStored(queue, answer) {
  return queue.filter(
    (record) => !answer.results.some((r) => r.key === record.key && r.status === "stored"),
  );
}

// The table state to show after `answer`: its own when it is fresher than `base`, and when the
// server was last heard. `current` says whether the answer's sheet is to be shown.
export function answerMerged(base, heard, answer) {
  const current = Boolean(answer.state) && !isFresher(base, answer.state);
  if (!current) return { base, heard, current };
  return { base: answer.state, heard: answer.state.heard || heard, current };
}
