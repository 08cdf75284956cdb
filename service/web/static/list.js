/* The match list: GET /v1/games for the game filter, GET /v1/matches (read models) for rows. */
(function () {
  "use strict";
  var V = window.ArbiterViewer, h = V.h;
  var form = document.getElementById("filters");
  var body = document.querySelector("#matches tbody");
  var more = document.getElementById("more");
  var status = document.getElementById("list-status");
  var cursor = null;
  var titles = {};  // one display name per game, from the ruleset (GET /v1/games)
  var PAGE = 50;

  function filters() {
    var out = {};
    ["game", "status", "player"].forEach(function (name) {
      var value = form.elements[name].value.trim();
      if (value) out[name] = value;
    });
    return out;
  }

  function query(extra) {
    var params = new URLSearchParams(Object.assign({}, filters(), extra));
    return params.toString();
  }

  function when(text) {
    var d = new Date(text);
    return isNaN(d) ? String(text || "") : d.toLocaleString(undefined, {dateStyle: "medium", timeStyle: "short"});
  }

  function result(match) {
    var outcome = match.outcome;
    if (match.status === "running") return h("span", {class: "muted"}, "in play");
    if (!outcome) return h("span", {class: "muted"}, match.status);
    var names = match.seats || [];
    var winners = (outcome.winners || []).map(function (s) { return names[s] !== undefined ? names[s] : "seat " + s; });
    return (winners.length ? winners.join(" & ") + " won" : "no winner") +
      (outcome.reason ? " · " + V.humanize(outcome.reason).toLowerCase() : "");
  }

  function row(match) {
    var link = h("a", {href: "/matches/" + encodeURIComponent(match.match_id), class: "match-link"}, match.match_id.slice(0, 8));
    return h("tr", {dataset: {matchId: match.match_id, game: match.game, status: match.status}},
      h("td", null, link),
      h("td", null, titles[match.game] || V.humanize(match.game)),
      h("td", null, (match.seats || []).join(", ")),
      h("td", null, h("span", {class: "pill pill-" + match.status}, match.status)),
      h("td", {class: "num"}, String(match.version)),
      h("td", null, when(match.created_at)),
      h("td", null, result(match)));
  }

  var generation = 0;  // a newer filter wins over answers still on their way

  function load(reset) {
    if (reset) { body.replaceChildren(); cursor = 0; }
    var mine = ++generation;
    status.textContent = "Loading…";
    more.hidden = true;
    return V.api("/v1/matches?" + query({cursor: cursor, limit: PAGE})).then(function (page) {
      if (mine !== generation) return;
      page.matches.forEach(function (m) { body.appendChild(row(m)); });
      cursor = page.next_cursor;
      var shown = body.children.length;
      status.dataset.generation = String(mine);
      status.textContent = shown ? V.plural(shown, "match") + " shown" : "No match fits these filters.";
      more.hidden = cursor === null || cursor === undefined || page.matches.length < PAGE;
    }).catch(function (error) {
      if (mine !== generation) return;
      more.hidden = reset;  // a next page that failed can be asked again
      status.textContent = error.status === 503 ? "The match list is catching up (read models unavailable); try again in a moment."
        : "Could not load matches: " + error.message;
    });
  }

  function syncUrl() {
    var q = query({});
    history.replaceState(null, "", q ? "?" + q : location.pathname);
  }

  var initial = new URLSearchParams(location.search);
  ["status", "player"].forEach(function (name) { if (initial.get(name)) form.elements[name].value = initial.get(name); });

  V.api("/v1/games").then(function (answer) {
    var select = form.elements.game;
    answer.games.forEach(function (game) {
      titles[game.game] = game.title || V.humanize(game.game);
      select.appendChild(h("option", {value: game.game}, titles[game.game]));
    });
    if (initial.get("game")) select.value = initial.get("game");
  }).catch(function () { /* the list still works without game names */ }).then(function () { load(true); });

  form.addEventListener("submit", function (event) { event.preventDefault(); syncUrl(); load(true); });
  ["game", "status"].forEach(function (name) {
    form.elements[name].addEventListener("change", function () { syncUrl(); load(true); });
  });
  more.addEventListener("click", function () { load(false); });
})();
