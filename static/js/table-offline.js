// Registers the table link's service worker, which keeps the page (its scripts, styles and the
// sheet as last seen) on the phone so that the link opens with no network. Without it, or
// without JavaScript, the page works as before: it only needs the network.
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || !("serviceWorker" in navigator)) return;
  navigator.serviceWorker
    .register(script.dataset.worker, { scope: script.dataset.scope })
    .then(function () {
      // A deal saved in place changes the sheet without loading the page: the worker then
      // keeps the sheet as the server now has it.
      var page = document.querySelector(".entry-page");
      if (!page || !("MutationObserver" in window)) return;
      var pending = null;
      new MutationObserver(function () {
        // One copy once the page has settled, not one per changed node.
        window.clearTimeout(pending);
        pending = window.setTimeout(function () {
          var worker = navigator.serviceWorker.controller;
          if (worker) worker.postMessage({ keep: window.location.pathname });
        }, 300);
      }).observe(page, { childList: true, subtree: true });
    })
    .catch(function () {
      // A browser that refuses workers (private mode, storage full) keeps the online page.
    });
})();
