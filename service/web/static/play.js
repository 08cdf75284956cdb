/* The lobby page: the open lobbies (GET /v1/lobbies, refreshed live) and a form to open a
 * match of any game, its seats (you, a person who joins later, or a server bot of a kind) and
 * its options drawn from the game's option schema (GET /v1/games), never written per game.
 * A seat token (and a lobby's host token) is kept in sessionStorage for that match only. */
(function () {
  "use strict";
  var V = window.ArbiterViewer, h = V.h;
  var $ = function (id) { return document.getElementById(id); };
  var form = $("create"), gameSelect = $("create-game"), countSelect = $("create-count"), nameInput = $("create-name");
  var seatsBox = $("create-seats"), optionsBox = $("create-options"), errorBox = $("create-error");
  var lobbiesBody = document.querySelector("#lobbies tbody"), lobbiesStatus = $("lobbies-status");
  var games = {}, optionFields = [];
  var metrics = window.arbiterMetrics = {lobbies: null, created: null};

  nameInput.value = V.myName.get();
  nameInput.addEventListener("change", function () { V.myName.set(nameInput.value.trim()); });

  function fail(text) { errorBox.hidden = !text; errorBox.textContent = text || ""; }

  /* ---------------------------------------------------------------- the form */

  function drawCount() {
    var game = games[gameSelect.value];
    var keep = Number(countSelect.value) || 0;
    countSelect.replaceChildren();
    for (var n = game.seats.min; n <= game.seats.max; n++) countSelect.appendChild(h("option", {value: String(n)}, String(n)));
    countSelect.value = String(keep >= game.seats.min && keep <= game.seats.max ? keep : Math.max(game.seats.min, Math.min(2, game.seats.max)));
  }

  function drawSeats() {
    var game = games[gameSelect.value], count = Number(countSelect.value);
    var rows = [];
    for (var seat = 0; seat < count; seat++) {
      var select = h("select", {dataset: {seat: seat}, "aria-label": "seat " + seat},
        h("option", {value: "you"}, "you"),
        h("option", {value: "open"}, "a person (joins with a name)"),
        game.bots.map(function (kind) { return h("option", {value: "bot:" + kind}, "a bot (" + kind + ")"); }));
      select.value = seat === 0 ? "you" : "open";
      rows.push(h("label", {class: "create-seat"}, "Seat " + seat + " ", select));
    }
    seatsBox.replaceChildren.apply(seatsBox, [h("legend", null, "Seats")].concat(rows));
  }

  /* One field per property of the game's option schema; left blank, the game's default. */
  function drawOptions() {
    var schema = games[gameSelect.value].options || {};
    var props = schema.properties || {};
    optionFields = [];
    var rows = Object.keys(props).map(function (key) {
      var p = props[key], input, read;
      var hint = p.description ? h("span", {class: "muted hint"}, p.description) : null;
      if (Array.isArray(p.enum)) {
        input = h("select", {dataset: {option: key}}, h("option", {value: ""}, "default" + (p.default !== undefined ? " (" + p.default + ")" : "")),
          p.enum.map(function (v, i) { return h("option", {value: String(i)}, V.humanize(String(v))); }));
        read = function () { return input.value === "" ? undefined : p.enum[Number(input.value)]; };
      } else if (p.type === "boolean") {
        input = h("select", {dataset: {option: key}}, h("option", {value: ""}, "default (" + (p.default ? "yes" : "no") + ")"),
          h("option", {value: "true"}, "yes"), h("option", {value: "false"}, "no"));
        read = function () { return input.value === "" ? undefined : input.value === "true"; };
      } else if (p.type === "integer") {
        input = h("input", {type: "number", step: "1", min: p.minimum, max: p.maximum, placeholder: p.default !== undefined ? "default " + p.default : "default",
                            dataset: {option: key}});
        read = function () { return input.value === "" ? undefined : Number(input.value); };
      } else if (p.type === "array" && p.items && Array.isArray(p.items.enum)) {
        var boxes = p.items.enum.map(function (v) { return h("input", {type: "checkbox", value: String(v), dataset: {option: key, item: String(v)}}); });
        input = h("span", {class: "option-items"}, boxes.map(function (b, i) { return h("label", null, b, " " + V.humanize(String(p.items.enum[i]))); }));
        read = function () {
          var picked = p.items.enum.filter(function (v, i) { return boxes[i].checked; });
          return picked.length ? picked : undefined;
        };
      } else {
        input = h("textarea", {rows: "2", placeholder: "default (JSON)", dataset: {option: key}, spellcheck: "false"});
        read = function () {
          if (!input.value.trim()) return undefined;
          try { return JSON.parse(input.value); } catch (e) { throw new Error(V.humanize(key) + " is not valid JSON"); }
        };
      }
      optionFields.push({key: key, read: read});
      return h("div", {class: "create-option"}, h("label", null, h("span", {class: "option-name"}, V.humanize(key)), input), hint);
    });
    if (!rows.length) rows = [h("p", {class: "muted"}, schema.description || "This game takes no options.")];
    optionsBox.replaceChildren.apply(optionsBox, [h("legend", null, "Options")].concat(rows));
  }

  function drawGame() { drawCount(); drawSeats(); drawOptions(); fail(""); }
  gameSelect.addEventListener("change", drawGame);
  countSelect.addEventListener("change", drawSeats);

  var clockKind = $("clock-kind");
  clockKind.addEventListener("change", function () {
    document.querySelectorAll("[data-clock]").forEach(function (el) {
      el.hidden = !clockKind.value || (el.dataset.clock !== "any" && el.dataset.clock !== clockKind.value);
    });
  });

  function clock() {
    if (!clockKind.value) return null;
    var out = {on_timeout: $("clock-timeout").value};
    if (clockKind.value === "fischer") {
      out.base_seconds = Number($("clock-base").value);
      out.increment_seconds = Number($("clock-increment").value);
    } else {
      out.move_seconds = Number($("clock-move").value);
    }
    return out;
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    fail("");
    var name = nameInput.value.trim();
    var seats = [], mine = null;
    try {
      seatsBox.querySelectorAll("select[data-seat]").forEach(function (select, seat) {
        var v = select.value;
        if (v === "you") {
          if (mine !== null) throw new Error("you can hold one seat only");
          if (!name) throw new Error("your name, please");
          mine = seat;
          seats.push({name: name});
        } else if (v === "open") seats.push({open: true});
        else seats.push({bot: v.slice(4)});
      });
      var options = {};
      optionFields.forEach(function (f) { var v = f.read(); if (v !== undefined) options[f.key] = v; });
    } catch (e) { fail(e.message); return; }
    var body = {game: gameSelect.value, seats: seats, options: options};
    var c = clock();
    if (c) body.clock = c;
    V.myName.set(name);
    V.api("/v1/matches", null, {method: "POST", json: body}).then(function (created) {
      metrics.created = created.match_id;
      if (mine !== null) {
        V.tokens.set(created.match_id, created.seats[mine].token);
        try { sessionStorage.setItem("arbiter-seat:" + created.match_id, String(mine)); } catch (e) { /* ignore */ }
      }
      if (created.host_token) V.hostTokens.set(created.match_id, created.host_token);
      location.href = "/matches/" + created.match_id;
    }).catch(function (error) { fail(error.message); });
  });

  /* ---------------------------------------------------------------- the open lobbies */

  function lobbyRow(lobby) {
    var open = lobby.open_seats || [];
    var join = h("button", {type: "button", class: "join-lobby", dataset: {matchId: lobby.match_id}}, "Join");
    join.addEventListener("click", function () {
      joinFailed(null);
      var name = nameInput.value.trim();
      if (!name) { fail("your name, please (above)"); nameInput.focus(); return; }
      V.myName.set(name);
      V.api("/v1/matches/" + lobby.match_id + "/join", null, {method: "POST", json: {name: name}}).then(function (joined) {
        V.tokens.set(lobby.match_id, joined.token);
        try { sessionStorage.setItem("arbiter-seat:" + lobby.match_id, String(joined.seat)); } catch (e) { /* ignore */ }
        location.href = "/matches/" + lobby.match_id;
      }).catch(function (error) { joinFailed("Could not join: " + error.message); });
    });
    var game = games[lobby.game];
    return h("tr", {dataset: {matchId: lobby.match_id, game: lobby.game}},
      h("td", null, h("a", {href: "/matches/" + lobby.match_id}, game && game.title || V.humanize(lobby.game))),
      h("td", null, (lobby.seats || []).map(function (held, seat) {
        return h("span", {class: "seat-tag seat-" + seat}, held ? (held.name || "bot") + (held.bot ? " (bot)" : "") : h("span", {class: "muted"}, "open"));
      })),
      h("td", null, Object.keys(lobby.options || {}).length ? JSON.stringify(lobby.options) : h("span", {class: "muted"}, "defaults"),
        lobby.clock ? h("span", {class: "muted"}, " · clock") : null),
      h("td", null, new Date(lobby.created_at).toLocaleTimeString()),
      h("td", null, open.length ? join : h("span", {class: "muted"}, "full")));
  }

  /* A join's refusal stays until the next join is pressed (the list beside it refreshes). */
  var joinError = $("join-error");
  function joinFailed(text) { joinError.hidden = !text; joinError.textContent = text || ""; }

  var polls = 0;
  function loadLobbies() {
    V.api("/v1/lobbies?limit=100").then(function (answer) {
      lobbiesBody.replaceChildren.apply(lobbiesBody, answer.lobbies.map(lobbyRow));
      lobbiesStatus.textContent = answer.lobbies.length ? "" : "none open: open one above";
      metrics.lobbies = answer.lobbies.map(function (l) { return l.match_id; });
      metrics.polls = ++polls;
    }).catch(function (error) {
      lobbiesStatus.textContent = error.status === 503 ? "catching up…" : "could not load lobbies: " + error.message;
    }).then(function () { setTimeout(loadLobbies, 1500); });
  }

  V.api("/v1/games").then(function (answer) {
    answer.games.forEach(function (g) {
      games[g.game] = g;
      gameSelect.appendChild(h("option", {value: g.game}, g.title || V.humanize(g.game)));
    });
    var wanted = new URLSearchParams(location.search).get("game");
    if (wanted && games[wanted]) gameSelect.value = wanted;
    drawGame();
    loadLobbies();
  }).catch(function (error) { fail("Could not load the games: " + error.message); });
})();
