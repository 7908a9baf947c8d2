// gg console: live pages. When the page's body names a live stream (data-live), every `changed`
// event re-fetches this page's live region and swaps it in place, keeping which folders and
// blocks the reader opened or closed. No other script runs on the console's pages.
(function () {
  "use strict";
  var url = document.body.getAttribute("data-live");
  if (!url || !window.EventSource) return;
  var busy = false, again = false;
  var source = new EventSource(url);
  source.addEventListener("changed", refresh);
  source.addEventListener("ended", function () { source.close(); refresh(); });

  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    fetch(window.location.href, { headers: { "X-Console-Live": "1" }, credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) { if (html !== null) swap(html); })
      .catch(function () {})
      .then(function () { busy = false; if (again) { again = false; refresh(); } });
  }

  function swap(html) {
    var region = document.getElementById("live-region");
    if (!region) return;
    var states = {};
    region.querySelectorAll("details[id]").forEach(function (d) { states[d.id] = d.open; });
    var parsed = new DOMParser().parseFromString("<main>" + html + "</main>", "text/html");
    var fresh = parsed.body.firstElementChild;
    region.replaceChildren.apply(region, Array.prototype.slice.call(fresh.childNodes));
    region.querySelectorAll("details[id]").forEach(function (d) {
      if (Object.prototype.hasOwnProperty.call(states, d.id)) d.open = states[d.id];
    });
    document.body.setAttribute("data-refreshed", String(Date.now()));
  }
})();
