// The tournament form's preset list: choosing a preset fills in every rule option at once (each
// stays editable). Without JavaScript the "Fill in" button does the same through the server.
document.addEventListener("DOMContentLoaded", function () {
  var select = document.querySelector("select[data-presets]");
  if (!select) {
    return;
  }
  var presets = JSON.parse(select.dataset.presets);
  var fill = select.form.querySelector(".preset-fill");
  if (fill) {
    fill.hidden = true;
  }
  function fillIn() {
    var options = presets[select.value];
    if (!options) {
      return;
    }
    Object.keys(options).forEach(function (name) {
      var field = select.form.elements[name];
      if (!field) {
        return;
      }
      if (field.type === "checkbox") {
        field.checked = Boolean(options[name]);
      } else {
        field.value = options[name] === null ? "" : String(options[name]);
      }
      // A choice shown as radios is a RadioNodeList: its checked radio announces the change.
      var changed = field.tagName
        ? field
        : Array.prototype.find.call(field, function (radio) {
            return radio.checked;
          });
      if (changed) {
        changed.dispatchEvent(new Event("change", { bubbles: true }));
      }
    });
  }
  select.addEventListener("change", fillIn);
  // On a slow phone the list can be changed before this script has arrived: the choice made
  // meanwhile (one the page was not served with) is filled in now.
  var served = Array.prototype.find.call(select.options, function (option) {
    return option.defaultSelected;
  });
  if (select.value !== (served ? served.value : select.options[0].value)) {
    fillIn();
  }
});
