// Filters a long checkbox list as the organiser types: <input data-filter-list="ID"> filters the
// labels of the element with that id. A checkbox with data-search is found by that key, which
// the server made with engine.names.search_key; what is typed is keyed here the same way, with
// the spellings the input carries (data-search-spellings), so "berzins" finds "Bērziņš". When
// nothing is found, the element named by data-filter-empty says so. The page works without it
// (Content-Security-Policy: no inline scripts, so this is a file).
function searchKey(text, spellings) {
  var letters = [];
  Array.from(text.toLocaleLowerCase().normalize("NFC")).forEach(function (letter) {
    var last = letters.length ? letters[letters.length - 1].slice(-1) : "";
    if (letter === "е" && last && spellings.vowels.indexOf(last) >= 0) {
      letters.push("je");
    } else if (Object.prototype.hasOwnProperty.call(spellings.cyrillic, letter)) {
      letters.push(spellings.cyrillic[letter]);
    } else {
      letters.push(letter);
    }
  });
  var plain = letters.join("").normalize("NFKD").replace(/\p{M}/gu, "");
  spellings.latin.forEach(function (pair) {
    plain = plain.split(pair[0]).join(pair[1]);
  });
  return plain
    .split(/\s+/)
    .filter(Boolean)
    .map(function (word) {
      return word.length > 1 && word.slice(-1) === "s" ? word.slice(0, -1) : word;
    })
    .join(" ");
}

document.querySelectorAll("[data-filter-list]").forEach(function (input) {
  var list = document.getElementById(input.dataset.filterList);
  if (!list) {
    return;
  }
  var spellings = JSON.parse(
    input.dataset.searchSpellings || '{"cyrillic": {}, "vowels": "", "latin": []}'
  );
  var empty = input.dataset.filterEmpty ? document.getElementById(input.dataset.filterEmpty) : null;
  input.addEventListener("input", function () {
    var needle = searchKey(input.value, spellings);
    var shown = 0;
    list.querySelectorAll("label").forEach(function (label) {
      var box = label.querySelector("[data-search]");
      var key = box ? box.dataset.search : searchKey(label.textContent, spellings);
      var hidden = Boolean(needle) && key.indexOf(needle) < 0;
      label.parentElement.hidden = hidden;
      shown += hidden ? 0 : 1;
    });
    if (empty) {
      empty.hidden = !needle || shown > 0;
      empty.textContent = empty.dataset.template.replace("%(query)s", input.value.trim());
    }
  });
});
