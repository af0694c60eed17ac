// The referee's sheet (templates/scoring/sheet.html) is never shown from the browser's memory.
// The page is sent with Cache-Control: no-store and its forms with autocomplete="off"; a browser
// that restores it from its back-forward cache all the same (event.persisted) shows a page from
// before the last save: its forms are emptied at once, then the sheet is read again, so the form
// on screen is the next deal's, empty. The address is loaded without its #fragment (with one, the
// same address would only scroll).
(function () {
  "use strict";

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
