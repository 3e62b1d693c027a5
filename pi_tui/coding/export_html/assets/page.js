// pi-tui session export: branch switching from the tree, tree filters and search, T/O toggles. No network.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("tree-data").textContent);
  var nodes = data.nodes;
  var children = {};
  Object.keys(nodes).forEach(function (id) {
    var parent = nodes[id][0];
    if (parent && nodes[parent] && parent !== id) (children[parent] = children[parent] || []).push(id);
  });
  var tree = document.getElementById("tree");
  var rows = Array.prototype.slice.call(tree.querySelectorAll("li.node"));

  function pathTo(id) {
    var seen = {};
    while (id && nodes[id] && !seen[id]) { seen[id] = true; id = nodes[id][0]; }
    return seen;
  }

  function newestLeaf(id) {
    var best = id, bestTime = -1, stack = [id], seen = {};
    while (stack.length) {
      var current = stack.pop();
      if (seen[current]) continue;
      seen[current] = true;
      var kids = children[current] || [];
      if (!kids.length && nodes[current][1] >= bestTime) { best = current; bestTime = nodes[current][1]; }
      for (var i = 0; i < kids.length; i++) stack.push(kids[i]);
    }
    return best;
  }

  function navigate(leaf, target) {
    var onPath = pathTo(leaf);
    document.querySelectorAll("#messages > .entry").forEach(function (section) {
      section.hidden = !onPath[section.dataset.id];
    });
    rows.forEach(function (row) {
      var inPath = !!onPath[row.dataset.id];
      row.classList.toggle("on-path", inPath);
      row.classList.toggle("target", row.dataset.id === target);
      if (!row.classList.contains("leaf")) row.querySelector(".tree-marker").textContent = inPath ? "\u2022" : " ";
    });
    var element = target && document.getElementById("entry-" + target);
    if (element && !element.hidden) {
      element.scrollIntoView({ block: "center" });
      element.classList.add("target-flash");
      setTimeout(function () { element.classList.remove("target-flash"); }, 1500);
    }
  }

  rows.forEach(function (row) {
    row.querySelector("a").addEventListener("click", function (event) {
      event.preventDefault();
      var id = row.dataset.id;
      navigate(newestLeaf(id), id);
      history.replaceState(null, "", "#entry-" + id);
    });
  });

  document.querySelectorAll("button.filter").forEach(function (button) {
    button.addEventListener("click", function () {
      tree.dataset.filter = button.dataset.filter;
      document.querySelectorAll("button.filter").forEach(function (b) { b.classList.toggle("active", b === button); });
    });
  });

  var search = document.getElementById("tree-search");
  search.addEventListener("input", function () {
    var tokens = search.value.toLowerCase().split(/\s+/).filter(Boolean);
    rows.forEach(function (row) {
      var text = row.textContent.toLowerCase();
      row.classList.toggle("search-miss", !tokens.every(function (t) { return text.indexOf(t) >= 0; }));
    });
  });

  function toggleAll(selector) {
    var blocks = Array.prototype.slice.call(document.querySelectorAll(selector));
    var open = !blocks.some(function (b) { return b.open; });
    blocks.forEach(function (b) { b.open = open; });
  }
  function toggleThinking() { toggleAll("details.thinking"); }
  function toggleTools() { toggleAll("details.tool-call, details.compaction-block"); }
  document.getElementById("toggle-thinking").addEventListener("click", toggleThinking);
  document.getElementById("toggle-tools").addEventListener("click", toggleTools);
  document.addEventListener("keydown", function (event) {
    var active = document.activeElement;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (active && (active.tagName === "INPUT" || active.tagName === "TEXTAREA" || active.isContentEditable)) {
      if (event.key === "Escape") { search.value = ""; search.dispatchEvent(new Event("input")); active.blur(); }
      return;
    }
    var key = event.key.toLowerCase();
    if (key === "t") { event.preventDefault(); toggleThinking(); }
    else if (key === "o") { event.preventDefault(); toggleTools(); }
  });

  var hash = decodeURIComponent(location.hash.replace(/^#entry-/, ""));
  if (hash && nodes[hash]) navigate(newestLeaf(hash), hash);
  else if (data.leaf) navigate(data.leaf, null);
  document.body.dataset.ready = "1";  // the browser test checks that the script ran under the page CSP
})();
