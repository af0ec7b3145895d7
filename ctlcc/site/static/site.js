/* ctlcc report: sort and filter the claims ledger (no libraries, works from file://) */
(function () {
  "use strict";
  function cellKey(row, index, numeric) {
    var cell = row.cells[index];
    var key = cell.hasAttribute("data-key") ? cell.getAttribute("data-key") : cell.textContent.trim();
    if (numeric) {
      var x = parseFloat(key);
      return isNaN(x) ? null : x;
    }
    return key.toLowerCase();
  }
  function cellGroup(row, index) {
    /* values of different units never sort together: by unit first, then by number */
    var cell = row.cells[index];
    return cell.hasAttribute("data-group") ? cell.getAttribute("data-group") : "";
  }
  function sortTable(table, index, numeric, descending) {
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var ga = cellGroup(a, index), gb = cellGroup(b, index);
      if (ga !== gb) { return (ga < gb ? -1 : 1) * (descending ? -1 : 1); }
      var x = cellKey(a, index, numeric), y = cellKey(b, index, numeric);
      if (x === y) { return 0; }
      if (x === null) { return 1; }          /* text values after numbers, either way */
      if (y === null) { return -1; }
      var order = x < y ? -1 : 1;
      return descending ? -order : order;
    });
    rows.forEach(function (row) { body.appendChild(row); });
  }
  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), function (table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, index) {
      th.addEventListener("click", function () {
        var descending = th.classList.contains("asc");
        Array.prototype.forEach.call(table.tHead.rows[0].cells, function (other) {
          other.classList.remove("asc", "desc");
        });
        th.classList.add(descending ? "desc" : "asc");
        sortTable(table, index, th.getAttribute("data-sort") === "number", descending);
      });
    });
  });

  var ledger = document.getElementById("ledger");
  if (!ledger) { return; }
  var text = document.getElementById("filter-text");
  var paper = document.getElementById("filter-paper");
  var verdict = document.getElementById("filter-verdict");
  var count = document.getElementById("ledger-count");
  function apply() {
    var words = text.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0, rows = ledger.tBodies[0].rows;
    for (var i = 0; i < rows.length; i++) {
      var row = rows[i], content = row.textContent.toLowerCase();
      var ok = (!paper.value || row.getAttribute("data-paper") === paper.value) &&
               (!verdict.value || row.getAttribute("data-verdict") === verdict.value) &&
               words.every(function (w) { return content.indexOf(w) >= 0; });
      row.hidden = !ok;
      if (ok) { shown++; }
    }
    count.textContent = shown + " of " + rows.length + " records";
  }
  function fromHash() {
    /* claims.html#paper=stpd&verdict=differs pre-sets the filters */
    var hash = decodeURIComponent(window.location.hash.slice(1));
    if (hash.indexOf("=") < 0) { return; }
    paper.value = ""; verdict.value = ""; text.value = "";   /* the hash is the whole filter */
    hash.split("&").forEach(function (pair) {
      var kv = pair.split("=");
      if (kv[0] === "paper") { paper.value = kv[1]; }
      if (kv[0] === "verdict") { verdict.value = kv[1]; }
      if (kv[0] === "q") { text.value = kv[1]; }
    });
  }
  [text, paper, verdict].forEach(function (el) {
    el.addEventListener("input", apply);
    el.addEventListener("change", apply);
  });
  window.addEventListener("hashchange", function () { fromHash(); apply(); });
  fromHash();
  apply();
})();
