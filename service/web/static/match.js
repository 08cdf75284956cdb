/* The match page: summary, audit badge, step-through over every version, the log in words,
 * perspectives after the end, seat-token sign-in and live follow over Server-Sent Events.
 *
 * Where the state of a version comes from:
 * - while the match runs: GET /v1/matches/{id}/state?version=N with the user's token (the API
 *   answers that seat's view, or the spectator's without a token);
 * - once it is over: /matches/{id}/views?version=N&seat=S (the seat's view computed from the
 *   public whole state), or the whole state itself from the API ("everything"). */
(function () {
  "use strict";
  var V = window.ArbiterViewer, h = V.h;
  var root = document.getElementById("app");
  var matchId = root.dataset.matchId;
  var withRenderer = (root.dataset.renderers || "").split(/\s+/).filter(Boolean);
  var FINAL = ["MatchEnded", "MatchAbandoned"];
  var $ = function (id) { return document.getElementById(id); };
  var els = {
    title: $("match-title"), status: $("status"), audit: $("audit"), live: $("live"), players: $("players"),
    outcome: $("outcome"), error: $("error"), slider: $("slider"), label: $("version-label"), board: $("board"),
    log: $("log"), perspective: $("perspective"), login: $("login"), token: $("token"), signedIn: $("signed-in"),
    signedInAs: $("signed-in-as"), logout: $("logout"), follow: $("follow"), followLabel: $("follow-label"),
    clocks: $("clocks"), lobby: $("lobby"), play: $("play"), turn: $("turn"), actions: $("actions"), playError: $("play-error"),
    resign: $("resign"), abort: $("abort"), rematch: $("rematch"), acceptRematch: $("accept-rematch"),
    raw: $("raw"), rawAction: $("raw-action"), rawSend: $("raw-send"), rawError: $("raw-error"),
    exportLink: $("export"), verify: $("verify")
  };

  var metrics = window.arbiterMetrics = {firstRender: null, steps: [], renders: 0, version: null, streamEvents: 0,
                                          reconnects: 0, rendered: null, acted: 0, refused: 0, conflicts: 0,
                                          legal: null, clicks: []};
  var page = {
    summary: null, renderer: null, token: V.tokens.get(matchId), seat: null, names: [],
    version: 1, max: 1, perspective: "spectator", cache: new Map(), records: new Map(), wanted: null,
    following: false, stream: null
  };

  function over() { return page.summary && page.summary.status !== "running"; }
  function ctx() {
    return {names: page.names, game: page.summary.game, matchId: matchId, version: page.version, me: page.seat, V: V,
            catalog: page.catalog, legal: play.legal && play.legal.version === page.version ? play.legal : null};
  }

  function showError(text) {
    els.error.hidden = !text;
    els.error.textContent = text || "";
  }

  /* ---------------------------------------------------------------- summary and header */

  function loadSummary() {
    return V.api("/v1/matches/" + matchId).then(function (summary) {
      page.summary = summary;
      page.names = (summary.seats || []).map(function (s) { return s.name || ("seat " + s.seat); });
      page.max = Math.max(page.max, summary.version);
      page.clockAt = performance.now();
      drawHeader();
      return summary;
    });
  }

  function drawHeader() {
    var s = page.summary;
    var title = page.gameTitle || V.humanize(s.game);
    document.title = (myTurn() ? "● Your turn · " : "") + title + " · " + page.names.join(" vs ") + " · Arbiter";
    els.title.textContent = title;
    els.status.textContent = s.status;
    els.status.className = "pill pill-" + s.status;
    els.players.replaceChildren.apply(els.players, page.names.map(function (name, seat) {
      var toAct = (s.to_act || []).indexOf(seat) >= 0 && s.status === "running";
      return h("span", {class: "seat-tag seat-" + seat + (toAct ? " to-act" : "") + (seat === page.seat ? " me" : ""), dataset: {seat: seat}},
        name, h("span", {class: "muted"}, " · seat " + seat), seat === page.seat ? h("span", {class: "you"}, "you") : null);
    }));
    var outcome = s.outcome;
    if (outcome && s.status !== "running") {
      var winners = (outcome.winners || []).map(function (w) { return page.names[w]; });
      els.outcome.textContent = (s.status === "abandoned" ? "Abandoned" : (winners.length ? winners.join(" and ") + (winners.length > 1 ? " win" : " wins") : "No winner")) +
        (outcome.reason ? " — " + V.humanize(outcome.reason).toLowerCase() : "");
    } else {
      els.outcome.textContent = s.status === "running" ? "In play · to act: " + (s.to_act || []).map(function (w) { return page.names[w]; }).join(", ") : "";
    }
    els.exportLink.hidden = s.status === "running" || s.status === "open";
    els.verify.hidden = s.status === "open";  // a lobby has no events to check yet
    els.exportLink.href = "/v1/matches/" + matchId + "/export";
    drawClocks();
  }

  /* ---------------------------------------------------------------- sign-in */

  function checkToken(token) {
    return V.api("/v1/matches/" + matchId + "/legal-actions", token).then(function (answer) { return answer.seat; });
  }

  function drawSignIn() {
    var signedIn = page.seat !== null;
    els.login.hidden = signedIn;
    els.signedIn.hidden = !signedIn;
    els.signedInAs.textContent = signedIn ? "Signed in as " + page.names[page.seat] + " (seat " + page.seat + ")" : "";
  }

  els.login.addEventListener("submit", function (event) {
    event.preventDefault();
    var token = els.token.value.trim();
    if (!token) return;
    checkToken(token).then(function (seat) {
      els.token.value = "";
      page.token = token;
      page.seat = seat;
      V.tokens.set(matchId, token);
      showError("");
      afterIdentityChange(seat);
    }).catch(function (error) {
      showError(error.status === 403 ? "This token holds no seat in this match." : "Sign-in failed: " + error.message);
    });
  });

  els.logout.addEventListener("click", function () {
    V.tokens.clear(matchId);
    page.token = null;
    page.seat = null;
    afterIdentityChange("spectator");
  });

  function afterIdentityChange(perspective) {
    page.cache.clear();
    page.perspective = perspective === null || perspective === undefined ? "spectator" : String(perspective);
    drawSignIn();
    drawHeader();
    drawPerspectives();
    restartLive();
    syncPlay();
    return loadLog().then(function () { return show(page.version); });
  }

  /* ---------------------------------------------------------------- perspectives */

  function drawPerspectives() {
    var options = [];
    if (over()) {
      options.push(["spectator", "Spectator"]);
      page.names.forEach(function (name, seat) { options.push([String(seat), name + " (seat " + seat + ")" + (seat === page.seat ? " — you" : "")]); });
      options.push(["all", "Everything (whole state)"]);
    } else if (page.seat !== null) {
      options.push([String(page.seat), page.names[page.seat] + " (seat " + page.seat + ") — you"]);
    } else {
      options.push(["spectator", "Spectator"]);
    }
    els.perspective.replaceChildren.apply(els.perspective, options.map(function (o) { return h("option", {value: o[0]}, o[1]); }));
    if (!options.some(function (o) { return o[0] === page.perspective; })) page.perspective = options[0][0];
    els.perspective.value = page.perspective;
    els.perspective.disabled = options.length < 2;
    els.perspective.title = over() ? "After the end every hand is public: see the match as any seat saw it"
      : "While the match runs you see what your token may see";
  }

  els.perspective.addEventListener("change", function () {
    page.perspective = els.perspective.value;
    syncHash();
    show(page.version);
  });

  /* ---------------------------------------------------------------- states */

  function stateRequest(version) {
    if (over() && page.perspective === "all") {
      return {key: "all:" + version, url: "/v1/matches/" + matchId + "/state?version=" + version, token: null};
    }
    if (over()) {
      var seat = page.perspective === "spectator" ? "spectator" : page.perspective;
      return {key: "view:" + seat + ":" + version, url: "/matches/" + matchId + "/views?version=" + version + "&seat=" + seat, token: null};
    }
    return {key: "live:" + (page.seat === null ? "spectator" : page.seat) + ":" + version,
            url: "/v1/matches/" + matchId + "/state?version=" + version, token: page.token};
  }

  function fetchState(version) {
    var req = stateRequest(version);
    if (!page.cache.has(req.key)) {
      var pending = V.api(req.url, req.token).catch(function (error) { page.cache.delete(req.key); throw error; });
      page.cache.set(req.key, pending);
    }
    return page.cache.get(req.key);
  }

  function prefetch(version) {
    [version + 1, version - 1].forEach(function (v) {
      if (v >= 1 && v <= page.max) fetchState(v).catch(function () { /* shown when stepped to */ });
    });
  }

  /* ---------------------------------------------------------------- drawing */

  function show(version) {
    version = Math.max(1, Math.min(page.max, version | 0));
    page.version = version;
    page.wanted = version;
    els.slider.max = String(page.max);
    els.slider.value = String(version);
    els.label.textContent = "version " + version + " of " + page.max;
    markLog(version);
    syncHash();
    var started = performance.now();
    return fetchState(version).then(function (answer) {
      if (page.wanted !== version) return;
      draw(answer);
      var took = performance.now() - started;
      if (metrics.firstRender === null) metrics.firstRender = performance.now();
      else metrics.steps.push(took);
      metrics.renders += 1;
      metrics.version = version;
      metrics.rendered = stateRequest(version).key;
      showError("");
      prefetch(version);
    }).catch(function (error) {
      if (page.wanted !== version) return;
      els.board.replaceChildren(h("p", {class: "error"}, "Version " + version + " cannot be shown: " + error.message));
      metrics.rendered = "error:" + version;
    });
  }

  function draw(answer) {
    var state = answer.state;
    var seat = answer.seat === null || answer.seat === undefined ? null : answer.seat;
    var toAct = (answer.to_act || []).map(function (s) { return page.names[s]; });
    var head = h("div", {class: "board-head"},
      h("span", {class: "board-version", dataset: {version: answer.version}}, "Version " + answer.version),
      answer.status === "running" && toAct.length ? h("span", null, " · to act: ", h("strong", null, toAct.join(", "))) : null,
      h("span", {class: "muted"}, " · seen by " + (page.perspective === "all" && over() ? "everyone (whole state)" : seat === null ? "a spectator" : page.names[seat])),
      caption(answer.version));
    var inner = h("div", {class: "board-body", dataset: {game: page.summary.game, seat: seat === null ? "spectator" : seat,
                                                          version: answer.version, perspective: page.perspective}});
    var renderer = page.perspective === "all" && over() ? null : page.renderer;
    try {
      if (renderer) renderer.render(state, seat, inner, ctx());
      else V.renderGeneric(state, seat, inner, ctx());
    } catch (error) {
      console.error(error);
      inner.replaceChildren(h("p", {class: "warning"}, "This game's renderer failed (" + error.message + "); the view is shown as a table."));
      V.renderGeneric(state, seat, inner, ctx());
    }
    els.board.replaceChildren(head, inner);
    els.board.dataset.version = String(answer.version);
    if (page.summary && answer.version >= page.summary.version && answer.to_act) {
      // the header follows the latest version drawn (it kept the first "to act" before)
      page.summary.version = answer.version;
      page.summary.to_act = answer.to_act;
      drawHeader();
    }
    describeCards(inner);
    markTargets();
    replied();
  }

  /* What happened at this version, in words, above the board. */
  function caption(version) {
    var record = page.records.get(version);
    if (!record) return null;
    return h("div", {class: "board-caption"}, V.describeRecord(record).text);
  }

  /* The board drawn before the log arrived gets its caption now. */
  function recaption() {
    var head = els.board.querySelector(".board-head");
    if (!head || head.querySelector(".board-caption")) return;
    var words = caption(Number(els.board.dataset.version));
    if (words) head.appendChild(words);
  }

  /* ---------------------------------------------------------------- the log */

  function logEntry(record) {
    var words = V.describeRecord(record);
    var li = h("li", {class: "log-entry type-" + record.type, dataset: {seq: record.seq}, tabindex: "0",
                      title: "show version " + record.seq},
      h("span", {class: "seq"}, String(record.seq)),
      h("div", {class: "log-text"},
        h("span", null, words.text),
        words.facts && words.facts.length ? h("ul", {class: "facts"}, words.facts.map(function (f) { return h("li", null, f); })) : null));
    li.addEventListener("click", function () { stepTo(record.seq); });
    li.addEventListener("keydown", function (e) { if (e.key === "Enter") stepTo(record.seq); });
    return li;
  }

  function loadLog() {
    page.records = new Map();
    var entries = [];
    function next(since) {
      var url = "/v1/matches/" + matchId + "/log?limit=1000&since=" + since + "&min_version=" + page.summary.version;
      return V.api(url, page.token).then(function (answer) {
        answer.events.forEach(function (record) { page.records.set(record.seq, record); entries.push(logEntry(record)); });
        if (answer.next_since !== null && answer.next_since !== undefined && answer.events.length) return next(answer.next_since);
      });
    }
    return next(0).then(function () {
      els.log.replaceChildren.apply(els.log, entries);
      markLog(page.version);
      recaption();
    });
  }

  function addRecord(record) {
    if (page.records.has(record.seq)) return;
    page.records.set(record.seq, record);
    els.log.appendChild(logEntry(record));
  }

  var marked = null;
  function markLog(version) {
    if (marked) marked.classList.remove("current");
    marked = els.log.querySelector('li[data-seq="' + version + '"]');
    if (marked) {
      marked.classList.add("current");
      var pane = els.log, top = marked.offsetTop - pane.offsetTop;
      if (top < pane.scrollTop || top > pane.scrollTop + pane.clientHeight - marked.offsetHeight) {
        pane.scrollTop = Math.max(0, top - pane.clientHeight / 3);
      }
    }
  }

  /* ---------------------------------------------------------------- audit badge */

  function audit() {
    els.audit.className = "badge badge-pending";
    els.audit.textContent = "auditing…";
    return V.api("/v1/matches/" + matchId + "/audit").then(function (report) {
      var d = report.first_divergence;
      els.audit.dataset.seq = d ? String(d.seq) : "";
      if (d) {
        els.audit.className = "badge badge-fail";
        els.audit.textContent = "✘ audit failed at seq " + d.seq + " (" + d.check + ")";
        els.audit.title = report.summary + " — click to show version " + d.seq;
      } else if (report.ok) {
        els.audit.className = "badge badge-ok";
        els.audit.textContent = "✔ audit verified";
        els.audit.title = report.summary;
      } else {
        els.audit.className = "badge badge-partial";
        els.audit.textContent = "✔ chain intact · seed still secret";
        els.audit.title = report.summary;
      }
      els.audit.dataset.verdict = d ? "fail" : report.ok ? "ok" : "partial";
    }).catch(function (error) {
      els.audit.className = "badge badge-fail";
      els.audit.dataset.verdict = "error";
      els.audit.textContent = "✘ audit refused";
      els.audit.title = error.message;
    });
  }

  els.audit.addEventListener("click", function () {
    if (els.audit.dataset.seq) stepTo(Number(els.audit.dataset.seq));
    else audit();
  });

  /* ---------------------------------------------------------------- live follow (SSE over fetch) */

  function setLive(state, text) {
    els.live.hidden = !state;
    els.live.className = "live live-" + state;
    els.live.dataset.state = state || "";
    els.live.textContent = text || "";
  }

  function restartLive() {
    if (page.stream) page.stream.stop();
    page.stream = null;
    if (!over()) page.stream = follow();
  }

  function lastSeq() {
    var last = 0;
    page.records.forEach(function (_, seq) { if (seq > last) last = seq; });
    return Math.max(last, page.summary.version);
  }

  /* EventSource cannot send an Authorization header, so the stream is read with fetch and
   * parsed here; on a drop it reconnects with Last-Event-ID, backing off up to 10 s. */
  function follow() {
    var stopped = false, controller = null, backoff = 500;
    els.followLabel.hidden = false;

    function onEvent(id, type, data) {
      var record;
      try { record = JSON.parse(data); } catch (e) { return; }
      metrics.streamEvents += 1;
      addRecord(record);
      page.max = Math.max(page.max, record.seq);
      els.slider.max = String(page.max);
      els.label.textContent = "version " + page.version + " of " + page.max;
      if (els.follow.checked) show(page.max);
      if (FINAL.indexOf(type) >= 0) finished();
      else onNewVersion();
    }

    function finished() {
      stopped = true;
      if (controller) controller.abort();
      setLive("ended", "match over");
      els.followLabel.hidden = true;
      loadSummary().then(function () {
        page.cache.clear();
        drawPerspectives();
        drawSignIn();
        syncPlay();
        watchRematch();
        audit();
        return loadLog();
      }).then(function () { show(page.max); });
    }

    function connect() {
      if (stopped) return;
      controller = new AbortController();
      var since = lastSeq();
      var headers = {"Accept": "text/event-stream"};
      if (page.token) headers["Authorization"] = "Bearer " + page.token;
      if (since) headers["Last-Event-ID"] = String(since);
      setLive("connecting", "connecting…");
      fetch("/v1/matches/" + matchId + "/stream?since=" + since, {headers: headers, signal: controller.signal, cache: "no-store"})
        .then(function (response) {
          if (!response.ok) {
            var error = new Error("stream answered " + response.status);
            error.fatal = response.status >= 400 && response.status < 500;
            throw error;
          }
          setLive("on", "● live");
          backoff = 500;
          var reader = response.body.getReader(), decoder = new TextDecoder(), buffer = "";
          function pump() {
            return reader.read().then(function (chunk) {
              if (chunk.done) return;
              buffer += decoder.decode(chunk.value, {stream: true}).replace(/\r\n?/g, "\n");
              var cut;
              while ((cut = buffer.indexOf("\n\n")) >= 0) {
                var block = buffer.slice(0, cut);
                buffer = buffer.slice(cut + 2);
                var id = null, type = "message", data = [];
                block.split("\n").forEach(function (line) {
                  if (!line || line.charAt(0) === ":") return;
                  var colon = line.indexOf(":"), field = colon < 0 ? line : line.slice(0, colon);
                  var value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
                  if (field === "id") id = value;
                  else if (field === "event") type = value;
                  else if (field === "data") data.push(value);
                });
                if (data.length) onEvent(id, type, data.join("\n"));
                if (stopped) return;
              }
              return pump();
            });
          }
          return pump();
        })
        .then(function () { retry(); }, function (error) {
          if (stopped) return;
          if (error.fatal) { setLive("error", "live stream refused: " + error.message); return; }
          retry();
        });
    }

    function retry() {
      if (stopped) return;
      metrics.reconnects += 1;
      setLive("retry", "reconnecting…");
      setTimeout(connect, backoff);
      backoff = Math.min(backoff * 2, 10000);
    }

    connect();
    return {stop: function () { stopped = true; if (controller) controller.abort(); setLive(null); els.followLabel.hidden = true; }};
  }

  /* ---------------------------------------------------------------- playing: the seat's actions */

  var play = {legal: null, panel: null, kept: new Map(), filter: "", narrow: null, busy: false, loading: null, again: false,
              rematchTimer: null, offered: null, checked: new Set()};

  function myTurn() {
    return !!(play.legal && page.seat !== null && page.summary && page.summary.status === "running" &&
              play.legal.actions && play.legal.actions.length && (play.legal.to_act || []).indexOf(page.seat) >= 0);
  }

  function loadTitle(game) {
    V.api("/v1/games").then(function (answer) {
      (answer.games || []).forEach(function (g) { if (g.game === game && g.title) page.gameTitle = g.title; });
      if (page.summary) drawHeader();
    }).catch(function () { /* the humanized id stands in */ });
  }

  /* Card, tile, Hero... details from the game's data: hover (title) and a detail pane on click. */
  page.catalog = {};
  function loadCatalog(game) {
    V.api("/v1/games/" + encodeURIComponent(game) + "/catalog").then(function (answer) {
      (answer.entries || []).forEach(function (e) { page.catalog[e.id] = e; });
      describeCards(els.board);
      if (play.legal) drawPlay();
    }).catch(function () { /* names only */ });
  }

  function catalogEntry(id) {
    if (id === null || id === undefined) return null;
    id = String(id);
    return page.catalog[id] || page.catalog[id.split("#")[0]] || null;
  }

  function entryText(e) {
    var extra = Object.keys(e).filter(function (k) { return ["id", "name", "kind", "text"].indexOf(k) < 0 && e[k] !== null && typeof e[k] !== "object"; })
      .map(function (k) { return V.humanize(k).toLowerCase() + " " + e[k]; });
    return e.name + " — " + V.humanize(e.kind).toLowerCase() + (extra.length ? " · " + extra.join(" · ") : "") + (e.text ? "\n" + e.text : "");
  }

  function describeCards(root) {
    if (!root) return;
    root.querySelectorAll("[data-card]").forEach(function (el) {
      var e = catalogEntry(el.dataset.card);
      if (!e) return;
      el.title = entryText(e);
      // the game's own spelling of the name ("Low and Underhanded Trick", not the id's capitals)
      var name = el.querySelector(":scope > .card-name");
      if (name && name.childNodes.length === 1 && name.textContent.toLowerCase() === e.name.toLowerCase()) name.textContent = e.name;
    });
  }

  els.board.addEventListener("click", function (event) {
    var target = event.target.closest("[data-click]");
    if (target && play.panel) {  // a click target: the actions holding it (press one to confirm)
      var value = target.dataset.click;
      metrics.clicks.push(value);
      play.panel.narrow([value]);
      play.narrow = [value];
      els.play.scrollIntoView({block: "nearest"});
      return;
    }
    var card = event.target.closest("[data-card]");
    var e = card && catalogEntry(card.dataset.card);
    if (e) showDetail(e);
  });

  function showDetail(e) {
    var pane = document.getElementById("detail") || h("aside", {id: "detail", class: "detail panel"});
    var extra = Object.keys(e).filter(function (k) { return ["id", "name", "kind", "text"].indexOf(k) < 0 && e[k] !== null; });
    pane.replaceChildren(
      h("button", {type: "button", class: "detail-close", title: "close", onclick: function () { pane.remove(); }}, "×"),
      h("h3", null, e.name, h("span", {class: "muted"}, " · " + V.humanize(e.kind).toLowerCase())),
      extra.length ? h("dl", {class: "gv-object"}, extra.map(function (k) {
        return h("div", {class: "gv-row"}, h("dt", null, V.humanize(k)), h("dd", null, typeof e[k] === "object" ? JSON.stringify(e[k]) : String(e[k])));
      })) : null,
      e.text ? h("p", {class: "detail-text"}, e.text) : null);
    if (!pane.parentNode) document.body.appendChild(pane);
  }

  var TARGET_KEYS = ["target", "uid", "unit", "cyberman", "secret", "card"];

  /* Board elements that hold a value some listed action holds become click targets: a card in
   * hand, a creature, a square. A renderer marks more with data-target (README). */
  function markTargets() {
    var body = els.board.querySelector(".board-body");
    if (!body) return;
    body.querySelectorAll("[data-click]").forEach(function (el) { el.classList.remove("clickable"); delete el.dataset.click; });
    if (!myTurn() || !play.panel || Number(els.board.dataset.version) !== play.legal.version) return;
    var values = play.panel.values();
    body.querySelectorAll(TARGET_KEYS.map(function (k) { return "[data-" + k + "]"; }).join(",")).forEach(function (el) {
      for (var i = 0; i < TARGET_KEYS.length; i++) {
        var v = el.dataset[TARGET_KEYS[i]];
        if (v !== undefined && values.has(v)) { el.dataset.click = v; el.classList.add("clickable"); return; }
      }
    });
  }

  var versionTimer = null;
  function onNewVersion() {
    clearTimeout(versionTimer);
    versionTimer = setTimeout(function () {
      if (!play.busy) syncPlay();  // a post in flight asks for the listing itself when it is answered
      if (page.summary && page.summary.clock) loadSummary().catch(function () { /* next event */ });
    }, 20);
  }

  /* The seat's listing at the latest version (again after every event, post and conflict). */
  function syncPlay() {
    if (page.seat === null || !page.token || !page.summary || page.summary.status !== "running") {
      play.legal = null;
      drawPlay();
      return Promise.resolve();
    }
    if (play.loading) { play.again = true; return play.loading; }
    play.loading = V.api("/v1/matches/" + matchId + "/legal-actions", page.token).then(function (legal) {
      if (play.legal && legal.version < play.legal.version) return;
      play.legal = legal;
      metrics.legal = legal.version;
      if (legal.version > page.max) {
        page.max = legal.version;
        els.slider.max = String(page.max);
        if (els.follow.checked) show(page.max);
      }
      page.summary.to_act = legal.to_act;
      drawHeader();
      drawPlay();
    }).catch(function (error) {
      if (error.status !== 409) showPlayError("Your actions cannot be listed: " + error.message);
    }).then(function () {
      play.loading = null;
      if (play.again) { play.again = false; return syncPlay(); }
    });
    return play.loading;
  }

  function showPlayError(text) {
    els.playError.hidden = !text;
    els.playError.textContent = text || "";
  }

  function drawPlay() {
    var seated = page.seat !== null && !!page.token;
    var s = page.summary;
    els.play.hidden = !seated || !s;
    if (els.play.hidden) { document.body.classList.remove("my-turn"); return; }
    var running = s.status === "running";
    var out = s.left && s.left[String(page.seat)];
    els.resign.hidden = !running || !!out;
    els.abort.hidden = !running || !!out || page.max > 1;  // only before anyone has acted (the API's rule)
    els.rematch.hidden = running;
    els.raw.hidden = !running;
    var mine = myTurn();
    if (mine && !play.wasMine && document.hidden) chime();
    play.wasMine = mine;
    document.body.classList.toggle("my-turn", mine);
    els.play.classList.toggle("my-turn", mine);
    els.play.dataset.turn = mine ? "mine" : running ? "theirs" : "over";
    els.play.dataset.version = play.legal ? String(play.legal.version) : "";
    if (!running) els.turn.textContent = "The match is over.";
    else if (out) els.turn.textContent = "You are out of this match (" + out.replace(/_/g, " ") + ").";
    else if (mine) els.turn.textContent = "Your turn — choose an action" + ((play.legal.to_act || []).length > 1 ? " (others act at the same time)" : "");
    else els.turn.textContent = "Waiting for " + ((s.to_act || []).map(function (w) { return page.names[w]; }).join(", ") || "the server") + "…";
    if (play.panel) { play.kept = play.panel.keep(); play.filter = play.panel.filterText(); play.narrow = play.panel.narrowed(); }
    if (mine) {
      var narrow = play.narrow && play.narrow.filter(function (v) {
        return play.legal.actions.some(function (a) { return V.actionValues(a).indexOf(v) >= 0; });
      });
      play.panel = V.actionPanel({legal: play.legal, kept: play.kept, filter: play.filter, narrow: narrow && narrow.length ? narrow : null,
                                  names: function (id) { var e = catalogEntry(id); return e ? e.name : null; }, submit: submit});
      els.actions.replaceChildren(play.panel.el);
    } else {
      play.panel = null;
      els.actions.replaceChildren();
    }
    els.actions.dataset.version = play.legal ? String(play.legal.version) : "";
    els.actions.dataset.ready = mine && !play.busy && play.legal.version >= (play.minVersion || 0) ? "true" : "false";
    document.title = document.title.replace(/^● Your turn · /, "");
    if (mine) document.title = "● Your turn · " + document.title;
    markTargets();
    replied();
  }

  /* From a press to the board drawn with the reply and the seat's turn again: metrics.replies (ms). */
  function replied() {
    if (play.pressedAt === undefined || play.pressedAt === null || play.busy || !myTurn()) return;
    if (Number(els.board.dataset.version) < play.legal.version || play.legal.version < (play.minVersion || 0)) return;
    (metrics.replies = metrics.replies || []).push(performance.now() - play.pressedAt);
    play.pressedAt = null;
  }

  /* A short chime when the turn comes to a page in a background tab (Web Audio, no file). */
  function chime() {
    try {
      var Audio = window.AudioContext || window.webkitAudioContext;
      if (!Audio) return;
      var audio = play.audio = play.audio || new Audio(), tone = audio.createOscillator(), gain = audio.createGain();
      tone.frequency.value = 880;
      gain.gain.setValueAtTime(0.08, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.35);
    } catch (e) { /* no sound: the title and colours still say it */ }
  }

  /* Post one action: expected_version and a fresh Idempotency-Key; a refusal's detail beside
   * the action and nothing else changes; a conflict (409) reloads, keeping half-made choices. */
  function submit(action, index) {
    if (play.busy || !play.legal) return Promise.reject(null);
    play.busy = true;
    els.play.classList.add("busy");
    els.actions.dataset.ready = "false";
    showPlayError("");
    var version = play.legal.version;
    var started = performance.now();
    play.pressedAt = started;
    return V.api("/v1/matches/" + matchId + "/actions", page.token, {
      method: "POST", headers: {"Idempotency-Key": V.idempotencyKey()}, json: {action: action, expected_version: version}
    }).then(function (result) {
      metrics.acted += 1;
      metrics.lastPost = {ms: performance.now() - started, version: result.version};
      play.minVersion = result.version;
      play.narrow = null;
      els.follow.checked = true;
      // the listing after the post (and the bots' replies, made within it) gives the version to draw
      return syncPlay().then(function () { if (page.version < page.max) return show(page.max); });
    }, function (error) {
      if (error.status === 409) {
        metrics.conflicts += 1;
        showPlayError(error.code === "version_conflict" ? "The match moved on before your action arrived: here is the new position."
          : error.message);
        els.follow.checked = true;
        return syncPlay().then(function () { show(page.max); throw null; });
      }
      metrics.refused += 1;
      throw error.message || "refused";
    }).finally(function () {
      play.busy = false;
      els.play.classList.remove("busy");
      replied();
      els.actions.dataset.ready = myTurn() && play.panel && play.legal.version >= (play.minVersion || 0) ? "true" : "false";
    });
  }

  els.rawSend.addEventListener("click", function () {
    var action;
    try { action = JSON.parse(els.rawAction.value); } catch (e) { return rawError("not valid JSON"); }
    if (!action || typeof action !== "object" || Array.isArray(action)) return rawError("an action is a JSON object");
    rawError(null);
    submit(action, -1).catch(function (problem) { if (problem) rawError(problem); });
  });
  function rawError(text) { els.rawError.hidden = !text; els.rawError.textContent = text || ""; }

  function seatCommand(path) {
    showPlayError("");
    return V.api("/v1/matches/" + matchId + path, page.token, {method: "POST"}).catch(function (error) {
      showPlayError(error.message);
      throw null;
    });
  }

  els.resign.addEventListener("click", function () {
    if (els.resign.dataset.confirm !== "yes") {  // the confirm step: a second press resigns
      els.resign.dataset.confirm = "yes";
      els.resign.textContent = "Really resign?";
      setTimeout(function () { els.resign.dataset.confirm = ""; els.resign.textContent = "Resign"; }, 4000);
      return;
    }
    seatCommand("/resign").then(function () { loadSummary().then(syncPlay); }).catch(function () {});
  });
  els.abort.addEventListener("click", function () {
    seatCommand("/abort").then(function () { loadSummary().then(syncPlay); }).catch(function () {});
  });

  /* A rematch: the first press makes it (the API's rematch); the other player's page finds it
   * (their matches made after this one, whose rematch_of is this match) and offers to accept;
   * accepting asks the API again, which answers the same match. Each old token opens its new seat. */
  function goRematch() {
    seatCommand("/rematch").then(function (summary) {
      V.tokens.set(summary.match_id, page.token);
      location.href = "/matches/" + summary.match_id;
    }).catch(function () {});
  }
  els.rematch.addEventListener("click", goRematch);
  els.acceptRematch.addEventListener("click", goRematch);

  function watchRematch() {
    if (play.rematchTimer || page.seat === null || !page.token || !over()) return;
    play.rematchTimer = true;  // one watcher
    var name = page.names[page.seat];
    function look() {
      var q = new URLSearchParams({player: name, game: page.summary.game, created_after: page.summary.created_at, limit: "50"});
      V.api("/v1/matches?" + q.toString()).then(function (answer) {
        return Promise.all((answer.matches || []).filter(function (m) { return m.match_id !== matchId && !play.checked.has(m.match_id); })
          .map(function (m) {
            return V.api("/v1/matches/" + m.match_id).then(function (summary) {
              play.checked.add(m.match_id);
              if (summary.rematch_of === matchId) play.offered = summary;
            });
          }));
      }).catch(function () { /* try again */ }).then(function () {
        if (play.offered) {
          els.acceptRematch.hidden = false;
          els.rematch.hidden = true;
          els.turn.textContent = "A rematch is offered.";
          return;
        }
        play.rematchTimer = setTimeout(look, 1500);
      });
    }
    look();
  }

  /* ---------------------------------------------------------------- clocks */

  var clockTimer = null;
  function drawClocks() {
    var clock = page.summary && page.summary.clock;
    els.clocks.hidden = !clock;
    if (!clock) return;
    page.clockAt = page.clockAt || performance.now();
    clearInterval(clockTimer);
    var running = page.summary.status === "running";
    function tick() {
      var now = performance.now();
      els.clocks.replaceChildren.apply(els.clocks, (clock.seats || []).map(function (c) {
        var left = c.remaining_ms - (c.running && running ? now - page.clockAt : 0);
        left = Math.max(0, left);
        var total = (clock.base_seconds || clock.move_seconds || 60) * 1000;
        var low = c.running && running && (left < 10000 || left < total * 0.1);
        var secs = Math.ceil(left / 1000);
        return h("span", {class: "clock seat-" + c.seat + (c.running && running ? " running" : "") + (low ? " low" : "") + (c.seat === page.seat ? " me" : ""),
                          dataset: {seat: c.seat, ms: Math.round(left)}},
          h("span", {class: "clock-name"}, page.names[c.seat] || "seat " + c.seat),
          h("span", {class: "clock-time"}, Math.floor(secs / 60) + ":" + ("0" + secs % 60).slice(-2)));
      }));
    }
    tick();
    if (running) clockTimer = setInterval(tick, 200);
  }

  /* ---------------------------------------------------------------- an open lobby */

  function lobby(summary) {
    var token = V.tokens.get(matchId), host = V.hostTokens.get(matchId);
    els.lobby.hidden = false;
    var mySeat = null;
    try { mySeat = sessionStorage.getItem("arbiter-seat:" + matchId); } catch (e) { /* ignore */ }
    var name = h("input", {type: "text", maxlength: "64", placeholder: "your name", "aria-label": "your name", value: V.myName.get(), id: "join-name"});
    var error = h("p", {class: "error", hidden: true, id: "lobby-error"});
    function fail(e) { error.hidden = false; error.textContent = e.message || String(e); }
    var join = h("form", {class: "join", id: "join"}, name, h("button", {type: "submit"}, "Join"));
    join.addEventListener("submit", function (event) {
      event.preventDefault();
      var who = name.value.trim();
      if (!who) return fail("a name, please");
      V.myName.set(who);
      V.api("/v1/matches/" + matchId + "/join", null, {method: "POST", json: {name: who}}).then(function (joined) {
        V.tokens.set(matchId, joined.token);
        try { sessionStorage.setItem("arbiter-seat:" + matchId, String(joined.seat)); } catch (e) { /* ignore */ }
        if (joined.status === "running") location.reload(); else refresh();
      }).catch(fail);
    });
    var start = h("button", {type: "button", id: "lobby-start"}, "Start now with the seats taken");
    start.addEventListener("click", function () {
      V.api("/v1/matches/" + matchId + "/start", host, {method: "POST"}).then(function () { location.reload(); }).catch(fail);
    });
    var leave = h("button", {type: "button", id: "lobby-leave"}, "Leave");
    leave.addEventListener("click", function () {
      V.api("/v1/matches/" + matchId + "/leave", V.tokens.get(matchId), {method: "POST"}).then(function () {
        V.tokens.clear(matchId);
        refresh();
      }).catch(fail);
    });
    function drawLobby(s) {
      token = V.tokens.get(matchId);
      try { mySeat = sessionStorage.getItem("arbiter-seat:" + matchId); } catch (e) { /* ignore */ }
      var seats = h("ol", {class: "lobby-seats"}, (s.seats || []).map(function (seat) {
        return h("li", {class: "seat-tag seat-" + seat.seat, dataset: {seat: seat.seat, open: seat.open ? "true" : "false"}},
          seat.open ? h("span", {class: "muted"}, "open seat") : seat.name,
          seat.bot ? h("span", {class: "muted"}, " · bot (" + seat.bot + ")") : null,
          token && String(seat.seat) === mySeat ? h("span", {class: "you"}, "you") : null);
      }));
      els.lobby.replaceChildren(
        h("h2", null, "Waiting for players"),
        h("p", {class: "muted"}, "Options: " + (Object.keys(s.options || {}).length ? JSON.stringify(s.options) : "the defaults") +
          (s.clock ? " · clock: " + clockWords(s.clock) : "")),
        seats,
        token ? h("p", null, "You hold a seat. The match starts when the last seat is taken.") : (s.open_seats || []).length ? join : null,
        h("div", {class: "lobby-buttons"}, host ? start : null, token ? leave : null),
        error);
    }
    function refresh() {
      return V.api("/v1/matches/" + matchId).then(function (s) {
        if (s.status !== "open") { location.reload(); return; }
        drawLobby(s);
      }).catch(fail);
    }
    drawLobby(summary);
    setInterval(refresh, 1000);
  }

  function clockWords(c) {
    return c.kind === "fischer" ? c.base_seconds + " s + " + c.increment_seconds + " s a move" : c.move_seconds + " s a move";
  }

  /* ---------------------------------------------------------------- verifying in the browser */

  els.verify.addEventListener("click", function () {
    els.verify.className = "badge badge-pending";
    els.verify.textContent = "verifying…";
    V.verifyExport(matchId).then(function (result) {
      els.verify.dataset.chain = result.chain ? "ok" : "fail";
      els.verify.dataset.seed = result.seed === null ? "not-run" : result.seed ? "ok" : "fail";
      els.verify.dataset.contents = result.contents === undefined ? "not-run" : result.contents ? "ok" : "fail";
      var good = result.chain && result.seed !== false && result.contents !== false;
      els.verify.className = "badge " + (good ? (result.seed ? "badge-ok" : "badge-partial") : "badge-fail");
      els.verify.textContent = (result.chain ? "✔ chain of " + result.events + " events" : "✘ chain broken at seq " + result.brokenAt) +
        (result.seed === null ? " · seed check not run (" + result.seedWhy + ")" : result.seed ? " · ✔ seed matches its commitment" : " · ✘ seed does not match its commitment") +
        (result.contents === undefined ? "" : result.contents ? " · ✔ every event's content matches its commitment" : " · ✘ content of seq " + result.contentsWrongAt + " differs from its commitment");
      els.verify.title = "checked in this browser with WebCrypto SHA-256 over the export";
    }).catch(function (error) {
      els.verify.className = "badge badge-fail";
      els.verify.textContent = "✘ cannot verify: " + (error.message || error);
    });
  });

  /* ---------------------------------------------------------------- stepping */

  var sliderTimer = null;
  els.slider.addEventListener("input", function () {
    els.follow.checked = false;
    var v = Number(els.slider.value);
    els.label.textContent = "version " + v + " of " + page.max;
    clearTimeout(sliderTimer);
    sliderTimer = setTimeout(function () { show(v); }, 15);
  });
  function stepTo(v) { els.follow.checked = v >= page.max; show(v); }
  $("first").addEventListener("click", function () { stepTo(1); });
  $("prev").addEventListener("click", function () { stepTo(page.version - 1); });
  $("next").addEventListener("click", function () { stepTo(page.version + 1); });
  $("last").addEventListener("click", function () { stepTo(page.max); });
  document.addEventListener("keydown", function (event) {
    if (event.target && /INPUT|SELECT|TEXTAREA/.test(event.target.tagName) && event.target !== els.slider) return;
    if (event.target === els.slider) return;  // the slider handles its own keys
    if (event.key === "ArrowRight") stepTo(page.version + 1);
    else if (event.key === "ArrowLeft") stepTo(page.version - 1);
    else if (event.key === "Home") stepTo(1);
    else if (event.key === "End") stepTo(page.max);
    else return;
    event.preventDefault();
  });

  function syncHash() {
    var hash = "#v=" + page.version + (over() ? "&as=" + page.perspective : "");
    if (location.hash !== hash) history.replaceState(null, "", hash);
  }

  window.addEventListener("hashchange", function () {
    // an edited fragment, or Back / Forward over it, moves the board
    var wanted = fromHash();
    if (!page.summary || page.summary.status === "open") return;
    if (wanted.as && over() && wanted.as !== page.perspective) {
      page.perspective = wanted.as;
      drawPerspectives();
    }
    if (wanted.version && wanted.version !== page.version) { els.follow.checked = wanted.version >= page.max; show(wanted.version); }
    else if (wanted.as) show(page.version);
  });

  function fromHash() {
    var params = new URLSearchParams(location.hash.slice(1));
    return {version: params.get("v") ? Number(params.get("v")) : null, as: params.get("as")};
  }

  /* ---------------------------------------------------------------- start */

  function loadRenderer(game) {
    if (withRenderer.indexOf(game) < 0) return Promise.resolve(null);
    return new Promise(function (resolve) {
      var script = document.createElement("script");
      script.src = "/viewer/renderers/" + encodeURIComponent(game) + ".js";
      script.onload = function () { resolve(V.renderers[game] || null); };
      script.onerror = function () { resolve(null); };
      document.head.appendChild(script);
    });
  }

  loadSummary().then(function (summary) {
    loadTitle(summary.game);
    if (summary.status === "open") {  // a lobby: nothing to draw until the last seat is taken
      els.board.replaceChildren(h("p", {class: "warning"}, "This match is waiting for players. The page shows it as soon as it starts."));
      metrics.rendered = "open";
      lobby(summary);
      throw null;
    }
    loadCatalog(summary.game);
    var identity = page.token ? checkToken(page.token).catch(function () { V.tokens.clear(matchId); page.token = null; return null; })
      : Promise.resolve(null);
    if (!page.token) {  // the first state is known already: fetch it while the renderer loads
      var early = fromHash();
      page.perspective = early.as || "spectator";
      fetchState(Math.max(1, Math.min(page.max, early.version || page.max))).catch(function () { /* shown by show() */ });
    }
    return Promise.all([identity, loadRenderer(summary.game)]);
  }).then(function (both) {
    page.seat = both[0] === null || both[0] === undefined ? null : both[0];
    page.renderer = both[1];
    var wanted = fromHash();
    page.perspective = wanted.as || (page.seat !== null ? String(page.seat) : "spectator");
    drawSignIn();
    drawHeader();
    drawPerspectives();
    var first = show(wanted.version || page.max);
    audit();
    syncPlay();
    watchRematch();
    return Promise.all([first, loadLog()]).then(function () { restartLive(); });
  }).catch(function (error) {
    if (error === null) return;  // handled above
    showError(error.status === 404 ? "There is no match " + matchId + "." : "The match cannot be shown: " + error.message);
    els.status.textContent = error.status === 404 ? "not found" : "error";
    els.status.className = "pill pill-abandoned";
    els.board.replaceChildren(h("p", {class: "error"}, error.status === 404 ? "No such match." : "Nothing to show."));
    metrics.rendered = "error";
  });
})();
