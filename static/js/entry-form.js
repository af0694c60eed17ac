// The referee's sheet (templates/entry/sheet.html) is never shown from the browser's memory.
// The page is sent with Cache-Control: no-store and its forms with autocomplete="off"; a browser
// that restores it from its back-forward cache all the same (event.persisted) shows a page from
// before the last save: its forms are emptied at once, then the sheet is read again, so the form
// on screen is the next deal's, empty. The address is loaded without its #fragment (with one, the
// same address would only scroll).
//
// Back at the entry forms after a plain save (#entry-form), the next deal's Save button is
// brought onto a phone's screen: the page is scrolled just far enough, the last rows of the sheet
// above giving way first (static/js/table/page.js does the same after an entry it takes).
(function () {
  "use strict";

  function showNextSave() {
    var button = document.querySelector("#entry-form .entry-deal-form .entry-submit");
    if (!button) {
      return;
    }
    var below = button.getBoundingClientRect().bottom + 8 - window.innerHeight;
    if (below > 0) {
      window.scrollBy(0, below);
    }
  }

  window.addEventListener("load", function () {
    if (window.location.hash === "#entry-form") {
      showNextSave();
    }
  });

  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) {
      return;
    }
    document.querySelectorAll("#entry-form form").forEach(function (form) {
      form.reset();
    });
    window.location.replace(window.location.pathname + window.location.search);
  });
})();
