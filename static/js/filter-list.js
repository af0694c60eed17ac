// Filters a long checkbox list as the organiser types: <input data-filter-list="ID"> filters the
// labels of the element with that id. The page works without it (Content-Security-Policy: no
// inline scripts, so this is a file).
document.querySelectorAll("[data-filter-list]").forEach(function (input) {
  var list = document.getElementById(input.dataset.filterList);
  if (!list) {
    return;
  }
  input.addEventListener("input", function () {
    var needle = input.value.toLocaleLowerCase();
    list.querySelectorAll("label").forEach(function (label) {
      label.parentElement.hidden =
        needle && label.textContent.toLocaleLowerCase().indexOf(needle) < 0;
    });
  });
});
