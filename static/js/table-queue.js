// The phone's queue of table entries, kept in IndexedDB, and the one way they are sent to the
// server: used by the entry page (static/js/table/page.js) and by the table links' service
// worker (templates/entry/table-worker.js, on Background Sync), so that both send alike.
//
// Database "zole-table", version 1: store "entries" (keyPath "key", index "link"): one entry
// the phone took and the server has not stored, {key, link, sync, seq, action, fields, scores,
// status: "waiting" | "refused", message, csrf, added}; store "states" (keyPath "link"): the
// last table state the server gave for that link (with the sheet's html that came with it).
//
// An entry is sent in order behind the ones before it, in batches of at most 30, by its client
// key: the server stores a key once, so a batch sent again after a lost answer is harmless. The
// server stops at the first entry it does not store; that one is kept on the phone, marked
// refused with the server's words, and those behind it wait until the referee removes it.
// Where the browser has Web Locks, the page and the worker never send one link's queue at once.
(function (scope) {
  "use strict";

  var DB_NAME = "zole-table";
  var BATCH = 30;
  var TIMEOUT_MS = 20000; // a request with no answer by then counts as a broken connection
  var MAX_PAUSE_SECONDS = 30;
  var REFUSALS = ["conflict", "closed", "refused"];
  var opened = null;

  function request(req) {
    return new Promise(function (resolve, reject) {
      req.onsuccess = function () {
        resolve(req.result);
      };
      req.onerror = function () {
        reject(req.error);
      };
    });
  }

  function open() {
    if (!opened) {
      opened = new Promise(function (resolve, reject) {
        var req = scope.indexedDB.open(DB_NAME, 1);
        req.onupgradeneeded = function () {
          var db = req.result;
          var entries = db.createObjectStore("entries", { keyPath: "key" });
          entries.createIndex("link", "link");
          db.createObjectStore("states", { keyPath: "link" });
        };
        req.onsuccess = function () {
          resolve(req.result);
        };
        req.onerror = function () {
          reject(req.error);
        };
      });
      opened.catch(function () {
        opened = null;
      });
    }
    return opened;
  }

  // One transaction on `stores`; `work(tx)` queues its requests, the promise holds once written.
  function write(stores, work) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(stores, "readwrite");
        var result = work(tx);
        tx.oncomplete = function () {
          resolve(result);
        };
        tx.onerror = tx.onabort = function () {
          reject(tx.error);
        };
      });
    });
  }

  function bySeq(a, b) {
    return a.seq - b.seq;
  }

  // The link's entries, oldest first.
  function list(link) {
    return open().then(function (db) {
      var index = db.transaction("entries").objectStore("entries").index("link");
      return request(index.getAll(link)).then(function (found) {
        return found.sort(bySeq);
      });
    });
  }

  function listAll() {
    return open().then(function (db) {
      return request(db.transaction("entries").objectStore("entries").getAll());
    });
  }

  function put(entry) {
    return write(["entries"], function (tx) {
      tx.objectStore("entries").put(entry);
    });
  }

  function remove(key) {
    return write(["entries"], function (tx) {
      tx.objectStore("entries").delete(key);
    });
  }

  function loadState(link) {
    return open().then(function (db) {
      return request(db.transaction("states").objectStore("states").get(link));
    });
  }

  // The link's entries and its kept state read together, in one transaction: the worker's
  // answer removes the entries it sent and keeps the state it got in one write, so an entry
  // gone from the queue is always on the state read with it.
  function snapshot(link) {
    return open().then(function (db) {
      var tx = db.transaction(["entries", "states"]);
      return Promise.all([
        request(tx.objectStore("entries").index("link").getAll(link)),
        request(tx.objectStore("states").get(link)),
      ]).then(function (found) {
        return { entries: found[0].sort(bySeq), state: found[1] };
      });
    });
  }

  function saveState(state, html) {
    var kept = Object.assign({}, state, { html: html || null });
    return write(["states"], function (tx) {
      tx.objectStore("states").put(kept);
    });
  }

  function pauseSeconds(retryAfter, attempt) {
    if (retryAfter > 0) {
      return Math.min(retryAfter, MAX_PAUSE_SECONDS);
    }
    return Math.min(Math.pow(2, attempt), MAX_PAUSE_SECONDS);
  }

  // Run `work` holding the link's lock where the browser has Web Locks.
  function locked(link, work) {
    var locks = scope.navigator && scope.navigator.locks;
    if (locks && locks.request) {
      return locks.request("zole-table " + link, work);
    }
    return work();
  }

  function counts(entries) {
    var waiting = 0;
    var refused = 0;
    entries.forEach(function (entry) {
      if (entry.status === "refused") refused += 1;
      else waiting += 1;
    });
    return { waiting: waiting, refused: refused };
  }

  // The entries that may go now: the waiting ones before the first refused one, at most 30.
  function nextBatch(entries) {
    var batch = [];
    for (var i = 0; i < entries.length && batch.length < BATCH; i++) {
      if (entries[i].status === "refused") break;
      batch.push(entries[i]);
    }
    return batch;
  }

  function markRefused(entries, message, extra) {
    return write(["entries"], function (tx) {
      var store = tx.objectStore("entries");
      entries.forEach(function (entry) {
        store.put(Object.assign({}, entry, { status: "refused", message: message }, extra || {}));
      });
    });
  }

  // The server's answer to a batch: stored ones leave the phone, the first refused one stays,
  // marked; the state it gave is kept.
  function applyResults(batch, answer) {
    var byKey = {};
    batch.forEach(function (entry) {
      byKey[entry.key] = entry;
    });
    var stored = 0;
    var refused = 0;
    return write(["entries", "states"], function (tx) {
      var store = tx.objectStore("entries");
      (answer.results || []).forEach(function (result) {
        var entry = byKey[result.key];
        if (!entry) return;
        if (result.status === "stored") {
          store.delete(entry.key);
          stored += 1;
        } else if (REFUSALS.indexOf(result.status) >= 0) {
          refused += 1;
          store.put(
            Object.assign({}, entry, {
              status: "refused",
              message: result.message || "",
              errors: result.errors || null,
              conflict: result.status === "conflict",
              refusal: result.status,
            })
          );
        }
      });
      if (answer.state && answer.state.link) {
        tx.objectStore("states").put(
          Object.assign({}, answer.state, { html: answer.html || null })
        );
      }
    }).then(function () {
      return { stored: stored, refused: refused };
    });
  }

  function post(url, csrf, body) {
    var controller = scope.AbortController ? new scope.AbortController() : null;
    var timer = controller
      ? scope.setTimeout(function () {
          controller.abort();
        }, TIMEOUT_MS)
      : null;
    return scope
      .fetch(url, {
        method: "POST",
        body: JSON.stringify(body),
        headers: {
          "Content-Type": "application/json",
          "X-CSRFToken": csrf || "",
          Accept: "application/json",
        },
        credentials: "same-origin",
        redirect: "manual",
        signal: controller ? controller.signal : undefined,
      })
      .then(
        function (response) {
          if (timer) scope.clearTimeout(timer);
          return response;
        },
        function (error) {
          if (timer) scope.clearTimeout(timer);
          throw error;
        }
      );
  }

  function json(response) {
    return response.json().catch(function () {
      return null;
    });
  }

  // Send one batch of the link's queue. Answers {idle} (nothing to send), {answer, more}
  // (the server answered: `more` when entries still wait that may go now), {gone, message},
  // or {retry, retryAfter, status} (no answer, or one to try again later; `status` only when
  // the server gave one). `hello` ({sync, csrf}, the page's): with nothing to send, the server
  // is still asked, with no entries, for the table's state and told what is on the phone.
  function sendOnce(link, hello) {
    return locked(link, function () {
      return list(link).then(function (entries) {
        var batch = nextBatch(entries);
        if (!batch.length && !hello) {
          return { idle: true };
        }
        var count = counts(entries);
        var body = {
          entries: batch.map(function (entry) {
            return {
              key: entry.key,
              action: entry.action,
              fields: entry.fields,
              scores: entry.scores === undefined ? null : entry.scores,
            };
          }),
          waiting: count.waiting,
          refused: count.refused,
        };
        // The newest page's token: a sign-in since the first entry renews it.
        var newest = hello || entries[entries.length - 1];
        return post(newest.sync, newest.csrf, body).then(
          function (response) {
            var retryAfter = parseInt(response.headers.get("Retry-After"), 10) || 0;
            if (response.status === 200) {
              return json(response).then(function (answer) {
                if (!answer || !Array.isArray(answer.results)) {
                  // Not the server's answer (a portal's page, a proxy): try again later.
                  return { retry: true, retryAfter: retryAfter };
                }
                return applyResults(batch, answer).then(function (done) {
                  var more =
                    done.refused === 0 &&
                    done.stored === batch.length &&
                    entries.length > batch.length &&
                    entries[batch.length].status !== "refused";
                  return { answer: answer, more: more, stored: done.stored };
                });
              });
            }
            if (response.status === 410) {
              return json(response).then(function (answer) {
                var message = (answer && answer.message) || "";
                var open_ = entries.filter(function (entry) {
                  return entry.status !== "refused";
                });
                return markRefused(open_, message, { refusal: "gone" }).then(function () {
                  return { gone: true, message: message };
                });
              });
            }
            if (response.status === 400 && batch.length) {
              // A body the server does not take: the first entry is shown refused, with the
              // server's words, rather than sent again for ever.
              return json(response).then(function (answer) {
                var message = (answer && answer.error) || String(response.status);
                return markRefused([batch[0]], message, { refusal: "refused" }).then(function () {
                  return { answer: null, more: false, refused: true };
                });
              });
            }
            return { retry: true, retryAfter: retryAfter, status: response.status };
          },
          function () {
            return { retry: true, retryAfter: 0 };
          }
        );
      });
    });
  }

  // Everything waiting on this phone, every link: the worker's Background Sync. Rejects when
  // something is left to send later (the browser then tries the sync again).
  function sendAll() {
    return listAll().then(function (entries) {
      var links = [];
      entries.forEach(function (entry) {
        if (entry.status !== "refused" && links.indexOf(entry.link) < 0) links.push(entry.link);
      });
      var failed = false;
      var sent = [];
      var chain = Promise.resolve();
      links.forEach(function (link) {
        chain = chain.then(function () {
          function again(rounds) {
            return sendOnce(link).then(function (outcome) {
              if (!outcome.retry && !outcome.idle && sent.indexOf(link) < 0) sent.push(link);
              if (outcome.retry) failed = true;
              else if (outcome.more && rounds < 100) return again(rounds + 1);
            });
          }
          return again(0);
        });
      });
      return chain.then(function () {
        if (failed) throw new Error("the server did not answer: sent again later");
        return sent;
      });
    });
  }

  scope.ZoleQueue = {
    open: open,
    list: list,
    put: put,
    remove: remove,
    loadState: loadState,
    snapshot: snapshot,
    saveState: saveState,
    counts: counts,
    sendOnce: sendOnce,
    sendAll: sendAll,
    pauseSeconds: pauseSeconds,
    SYNC_TAG: "zole-table-queue",
  };
})(self);
