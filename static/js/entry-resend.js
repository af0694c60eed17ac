// The entry page's submissions (a deal, a penalty pule, a correction, a removal: the forms
// marked data-resend) carry a client key, so the server records each once however often it
// arrives. This script sends them itself, and when the connection breaks or the server answers
// 502/503/504 (the database away for a moment) it sends the very same submission again after a
// pause (the server's Retry-After, else 1, 2, 4... up to 10 s, or at once when the phone is back
// online), until the server answers. A saved entry redirects: the page is then loaded as after
// an ordinary submission (its address marked ?saved=..., which the server ignores). A deal is
// sent with the mark of the sheet on the page (X-Entry-Sheet, section#entry-form's data-sheet):
// when nothing else changed, the server answers with only what the deal changed (the new row,
// the progress, the next forms: scoring/_deal_saved.html, X-Entry-Fragment), which is put in
// place here, under the same ?saved=... address as a new history entry (Back reads the sheet
// again, as after a loaded page). Any other
// answer (a refused entry, another device first) is shown by submitting the form the ordinary
// way: nothing was stored, and the server answers it alike.
// Without JavaScript the forms post as plain forms.
(function () {
  "use strict";

  var RETRY_STATUSES = [502, 503, 504];
  var MAX_PAUSE_SECONDS = 10;
  var TIMEOUT_MS = 20000; // a request with no answer by then counts as a broken connection

  function pauseSeconds(response, attempt) {
    var asked = response ? parseInt(response.headers.get("Retry-After"), 10) : NaN;
    if (asked > 0) {
      return Math.min(asked, MAX_PAUSE_SECONDS);
    }
    return Math.min(Math.pow(2, attempt), MAX_PAUSE_SECONDS);
  }

  function say(status, text) {
    if (status) {
      status.textContent = text || "";
      status.hidden = !text;
    }
  }

  function savedAddress(page) {
    return (
      page + (page.indexOf("?") < 0 ? "?" : "&") + "saved=" + Date.now().toString(36) + "#entry-form"
    );
  }

  // Back or forward to an entry of this page that the script added (history.pushState): the
  // sheet is read again, as a page loaded after a save would be.
  var listening = false;
  function readAgainOnBack() {
    if (!listening) {
      listening = true;
      window.addEventListener("popstate", function () {
        window.location.replace(window.location.pathname + window.location.search);
      });
    }
  }

  // The answer to a deal: the progress, the new row, the entry forms. False when the page is not
  // the one it was made for (the script then loads the page whole).
  function swap(html, page) {
    var answer = new DOMParser().parseFromString(html, "text/html");
    var progress = answer.querySelector("template[data-entry-progress]");
    var rows = answer.querySelector("template[data-entry-rows]");
    var forms = answer.getElementById("entry-form");
    var shownProgress = document.querySelector(".entry-progress");
    var body = document.querySelector(".entry-sheet tbody");
    var shownForms = document.getElementById("entry-form");
    if (!progress || !rows || !forms || !shownProgress || !body || !shownForms) {
      return false;
    }
    shownProgress.replaceChildren(document.importNode(progress.content, true));
    Array.prototype.forEach.call(body.querySelectorAll(".entry-empty"), function (cell) {
      cell.parentNode.remove();
    });
    Array.prototype.forEach.call(rows.content.querySelectorAll("tr"), function (row) {
      var shown = row.id ? document.getElementById(row.id) : null;
      var added = document.importNode(row, true);
      if (shown) {
        shown.replaceWith(added);
      } else {
        body.appendChild(added);
      }
    });
    var added = document.importNode(forms, true);
    shownForms.replaceWith(added);
    Array.prototype.forEach.call(added.querySelectorAll("form[data-resend]"), attach);
    readAgainOnBack();
    window.history.pushState(null, "", savedAddress(page));
    added.scrollIntoView();
    if (window.entryShowNextSave) {
      window.entryShowNextSave(); // static/js/entry-form.js
    }
    return true;
  }

  function attach(form) {
    var status = form.querySelector("[data-resend-status]");
    var sending = false;

    form.addEventListener("submit", function (event) {
      if (!window.fetch || !window.URLSearchParams || !window.AbortController) {
        return; // an old browser: the ordinary post
      }
      event.preventDefault();
      if (sending) {
        return; // a second tap while the first is on its way
      }
      sending = true;
      // Encoded as the browser encodes the form; its attribute, as form.action is the field
      // named "action".
      var body = new URLSearchParams(new FormData(form));
      var target = new URL(form.getAttribute("action") || "", window.location.href);
      var page = target.pathname + target.search;
      var headers = {};
      var sheet = document.getElementById("entry-form");
      if (form.querySelector("input[name='action'][value='deal']") && sheet && sheet.dataset.sheet) {
        headers["X-Entry-Sheet"] = sheet.dataset.sheet;
      }
      Array.prototype.forEach.call(form.querySelectorAll("button"), function (button) {
        button.disabled = true;
      });
      say(status, status && status.dataset.sending);

      function send(attempt) {
        var controller = new AbortController();
        var timer = window.setTimeout(function () {
          controller.abort();
        }, TIMEOUT_MS);
        window
          .fetch(target.href, {
            method: "POST",
            body: body,
            headers: headers,
            credentials: "same-origin",
            redirect: "manual",
            signal: controller.signal,
          })
          .then(
            function (response) {
              window.clearTimeout(timer);
              if (response.type === "opaqueredirect") {
                // Saved: the sheet as it is now, at the entry form, as after an ordinary post
                // (a new history entry: Back shows the sheet read again). The address must
                // differ from this one by more than its #fragment, or it would only scroll.
                window.location.assign(savedAddress(page));
              } else if (response.ok && response.headers.get("X-Entry-Fragment")) {
                // Saved, and the answer holds only what the deal changed.
                response.text().then(
                  function (html) {
                    if (!swap(html, page)) {
                      window.location.assign(savedAddress(page));
                    }
                  },
                  function () {
                    window.location.assign(savedAddress(page)); // saved: the page shows it
                  }
                );
              } else if (RETRY_STATUSES.indexOf(response.status) >= 0) {
                later(attempt, response);
              } else {
                form.submit(); // the server's own page for this answer
              }
            },
            function () {
              window.clearTimeout(timer);
              later(attempt, null);
            }
          );
      }

      function later(attempt, response) {
        say(status, status && status.dataset.waiting);
        var again = function () {
          window.clearTimeout(timer);
          window.removeEventListener("online", again);
          say(status, status && status.dataset.sending);
          send(attempt + 1);
        };
        var timer = window.setTimeout(again, pauseSeconds(response, attempt) * 1000);
        window.addEventListener("online", again);
      }

      send(0);
    });
  }

  function start() {
    Array.prototype.forEach.call(document.querySelectorAll("form[data-resend]"), attach);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
