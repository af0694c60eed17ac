// The round clock ticks in the browser (templates/scoring/_round_clock.html). Each running clock
// carries the server's remaining seconds (data-remaining) and counts down from them with the
// browser's monotonic clock, so a device whose clock is wrong still shows the right time left,
// and a phone that slept catches up at once. At zero the "time is up" text replaces the time.
// htmx replaces a clock with a fresh one from the server every 20 s (its data-sync address);
// the new one starts from the server's figures again. Without JavaScript the page shows the time
// left when it was loaded and the time the round ends.
(function () {
  "use strict";

  function pad(number) {
    return number < 10 ? "0" + number : String(number);
  }

  function clockText(seconds) {
    var minutes = Math.floor(seconds / 60);
    var hours = Math.floor(minutes / 60);
    seconds = seconds % 60;
    if (hours) {
      return hours + ":" + pad(minutes % 60) + ":" + pad(seconds);
    }
    return pad(minutes) + ":" + pad(seconds);
  }

  function start(clock) {
    if (clock.dataset.clockTicking || !clock.hasAttribute("data-running")) {
      return;
    }
    clock.dataset.clockTicking = "1";
    var remaining = parseInt(clock.dataset.remaining, 10) || 0;
    var startedAt = performance.now();
    var time = clock.querySelector("[data-clock-time]");
    var running = clock.querySelector("[data-clock-running]");
    var up = clock.querySelector("[data-clock-up]");

    function tick() {
      if (!clock.isConnected) {
        return; // replaced by a fresh copy from the server
      }
      var elapsed = (performance.now() - startedAt) / 1000;
      var left = Math.max(0, Math.ceil(remaining - elapsed));
      if (time) {
        time.textContent = clockText(left);
      }
      if (left <= 0) {
        clock.classList.remove("is-running");
        clock.classList.add("is-up");
        if (running) {
          running.hidden = true;
        }
        if (up) {
          up.hidden = false;
        }
        return;
      }
      // The next whole second, so the display never skips one.
      var fraction = remaining - elapsed - (left - 1);
      window.setTimeout(tick, Math.max(50, Math.round(fraction * 1000) + 20));
    }

    tick();
  }

  function startAll(root) {
    if (root.matches && root.matches("[data-round-clock]")) {
      start(root);
    }
    if (root.querySelectorAll) {
      root.querySelectorAll("[data-round-clock]").forEach(start);
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    startAll(document);
  });
  // htmx announces every piece of page it puts in (a fresh clock, the display's live part).
  document.addEventListener("htmx:load", function (event) {
    startAll(event.detail.elt);
  });
})();
