// Registers the player's own page's service worker, which keeps the page as the server last
// answered it (and the files it uses) on the phone, so that the link opens with no network.
// Without it, or without JavaScript, the page works as before: it only needs the network.
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || !("serviceWorker" in navigator)) return;
  // Served from /t/<slug>/me/, the worker's scope is the tournament's players' pages.
  navigator.serviceWorker.register(script.dataset.worker).catch(function () {
    // A browser that refuses workers (private mode, storage full) keeps the online page.
  });
})();
