// The hall display (templates/public/display.html): a list longer than its column scrolls by
// itself, slowly, pauses at the bottom, returns to the top and pauses again, so that everyone
// in the hall finds his name in turn. A list that fits does not move; on a phone the columns
// are as long as their lists and the page scrolls as any page. Each list keeps its place when
// htmx puts in a fresh copy of the live part (every 30 s): the position is kept here, by id.
(function () {
  "use strict";

  var PAUSE_MS = 4000; // at the top and at the bottom
  var LINES_PER_SECOND = 0.8; // in lines of the list's own type
  var state = {}; // by the list's id: {position, pausedUntil}
  var last = null;

  function lineHeight(list) {
    var style = window.getComputedStyle(list);
    var height = parseFloat(style.lineHeight);
    return Number.isNaN(height) ? parseFloat(style.fontSize) * 1.4 : height;
  }

  function step(list, now, elapsed) {
    var end = list.scrollHeight - list.clientHeight;
    var place = state[list.id];
    if (end <= 1) {
      // It fits (or the page is on a phone): nothing to scroll.
      state[list.id] = { position: 0, pausedUntil: now + PAUSE_MS };
      return;
    }
    if (!place) {
      place = state[list.id] = { position: list.scrollTop, pausedUntil: now + PAUSE_MS };
    }
    if (now >= place.pausedUntil) {
      if (place.position >= end) {
        place.position = 0; // back to the top, then a pause there
        place.pausedUntil = now + PAUSE_MS;
      } else {
        place.position = Math.min(
          end,
          place.position + (lineHeight(list) * LINES_PER_SECOND * elapsed) / 1000
        );
        if (place.position >= end) {
          place.pausedUntil = now + PAUSE_MS;
        }
      }
    }
    list.scrollTop = place.position;
  }

  function frame(now) {
    var elapsed = last === null ? 0 : Math.min(now - last, 1000);
    last = now;
    document.querySelectorAll("[data-autoscroll][id]").forEach(function (list) {
      step(list, now, elapsed);
    });
    window.requestAnimationFrame(frame);
  }

  document.addEventListener("DOMContentLoaded", function () {
    window.requestAnimationFrame(frame);
  });
})();
