// "Tick all" and "Untick all" for a long checkbox list: <button data-select-all="ID"> ticks every
// checkbox shown in the element with that id (those a filter hides stay as they are);
// data-select-none unticks them. The buttons are hidden until this file shows them: without
// JavaScript the list is ticked one by one (Content-Security-Policy: no inline scripts).
document.querySelectorAll("[data-select-all], [data-select-none]").forEach(function (button) {
  var ticked = button.hasAttribute("data-select-all");
  var list = document.getElementById(ticked ? button.dataset.selectAll : button.dataset.selectNone);
  if (!list) {
    return;
  }
  button.hidden = false;
  button.addEventListener("click", function () {
    list.querySelectorAll("input[type=checkbox]").forEach(function (checkbox) {
      var item = checkbox.closest("div, li");
      if (!checkbox.disabled && !(item && item.hidden)) {
        checkbox.checked = ticked;
      }
    });
  });
});
