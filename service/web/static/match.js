/* The match page: summary, audit badge, step-through over every version, the log in words,
 * perspectives after the end, seat-token sign-in and live follow over Server-Sent Events.
 *
 * Where the state of a version comes from:
 * - while the match runs: GET /v1/matches/{id}/state?version=N with the user's token (the API
 *   answers that seat's view, or the spectator's without a token);
 * - once it is over: /matches/{id}/views?version=N&seat=S (the seat's view computed from the
 *   public whole state), or the whole state itself from the API ("everything").
 *
 * The seat's side (lobby, action panel, resign / rematch, clocks, verification) is seat.js. */
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
                                          reconnects: 0, silences: 0, rendered: null, acted: 0, refused: 0, conflicts: 0,
                                          legal: null, clicks: []};
  var page = {
    summary: null, renderer: null, token: V.tokens.get(matchId), seat: null, names: [],
    version: 1, max: 1, perspective: "spectator", cache: new Map(), records: new Map(), wanted: null,
    following: false, stream: null
  };

  /* the seat's side of the page (seat.js) */
  var S = V.seat({page: page, els: els, metrics: metrics, matchId: matchId, show: show, loadSummary: loadSummary,
                  drawHeader: drawHeader, over: over});

  function over() { return page.summary && page.summary.status !== "running"; }
  function ctx() {
    return {names: page.names, game: page.summary.game, matchId: matchId, version: page.version, me: page.seat, V: V,
            catalog: page.catalog, legal: S.play.legal && S.play.legal.version === page.version ? S.play.legal : null};
  }

  function showError(text) {
    els.error.hidden = !text;
    els.error.textContent = text || "";
  }

  /* ---------------------------------------------------------------- summary and header */

  /* Two summaries asked close together (two events of a clocked match) may be answered in
   * either order: an answer older than one already drawn is not drawn over it. */
  var summariesAsked = 0, summaryDrawn = 0;
  function loadSummary() {
    var asked = ++summariesAsked;
    return V.api("/v1/matches/" + matchId).then(function (summary) {
      if (asked < summaryDrawn) return page.summary;
      summaryDrawn = asked;
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
    document.title = (S.myTurn() ? "● Your turn · " : "") + title + " · " + page.names.join(" vs ") + " · Arbiter";
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
    S.drawClocks();
  }

  /* ---------------------------------------------------------------- sign-in */

  function checkToken(token) {
    return V.api("/v1/matches/" + matchId + "/legal-actions", token).then(function (answer) { return answer.seat; });
  }

  /* The seat of a stored token. Only a 401/403 says the token is not this match's: a server
   * error or a dropped connection (a lobby's start reloads every page at once) is asked again,
   * and the token is kept, for the page holds the only copy. */
  function identify(token, tries) {
    return checkToken(token).catch(function (error) {
      if (error.status === 401 || error.status === 403) {
        V.tokens.clear(matchId);
        page.token = null;
        return null;
      }
      if (tries <= 1) {
        showError("Your seat could not be checked (" + error.message + "): reload the page to try again.");
        return null;
      }
      return new Promise(function (resolve) { setTimeout(resolve, 1000); }).then(function () { return identify(token, tries - 1); });
    });
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
    S.syncPlay();
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
    var asked = stateRequest(version).key;
    return fetchState(version).then(function (answer) {
      if (page.wanted !== version) return;
      // The match ended while this was asked: the API's answer is then the whole state, which is
      // no seat's view; ask again the way an ended match is shown.
      if (stateRequest(version).key !== asked) return show(version);
      draw(answer);
      var took = performance.now() - started;
      if (metrics.firstRender === null) metrics.firstRender = performance.now();
      else metrics.steps.push(took);
      metrics.renders += 1;
      metrics.version = version;
      metrics.rendered = asked;
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
      // whom the rules ask comes beside the view (answer.to_act), for the boards to mark
      if (renderer) renderer.render(state, seat, inner, Object.assign(ctx(), {toAct: answer.to_act || []}));
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
    S.describeCards(inner);
    S.markTargets();
    S.replied();
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
    function next(since, atLeast) {
      var url = "/v1/matches/" + matchId + "/log?limit=1000&since=" + since + "&min_version=" + atLeast;
      return V.api(url, page.token).then(function (answer) {
        answer.events.forEach(function (record) { page.records.set(record.seq, record); });
        if (answer.next_since !== null && answer.next_since !== undefined && answer.events.length) {
          return next(answer.next_since, atLeast);
        }
      });
    }
    // Records the stream brings while the log loads are kept; a gap between them and the log's
    // pages (the stream passed a record before this load began) is read again, or the stream,
    // resuming after the last record held, would never bring it.
    function gapless() {
      var top = Math.max.apply(null, [0].concat(Array.from(page.records.keys())));
      for (var seq = 1; seq <= top; seq++) {
        if (!page.records.has(seq)) return next(seq - 1, top).then(gapless);
      }
    }
    return next(0, page.summary.version).then(gapless).then(function () {
      var seqs = Array.from(page.records.keys()).sort(function (a, b) { return a - b; });
      els.log.replaceChildren.apply(els.log, seqs.map(function (seq) { return logEntry(page.records.get(seq)); }));
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
    return last;  // what this page holds, not the summary's version: the stream brings the rest
  }

  /* The server writes to a stream at least every 15 s (": keep-alive" when nothing happens), so
   * a stream silent for longer is a connection that died unnoticed (a laptop that slept, a proxy
   * that dropped an idle connection, a connect that hangs): the page drops it and reconnects,
   * rather than show "live" and wait for ever. */
  var SILENT_MS = 35000;

  /* EventSource cannot send an Authorization header, so the stream is read with fetch and
   * parsed here; on a drop it reconnects with Last-Event-ID, backing off up to 10 s. */
  function follow() {
    var stopped = false, controller = null, backoff = 500, heard = 0;
    els.followLabel.hidden = false;
    var watchdog = setInterval(function () {
      if (stopped || !controller || Date.now() - heard <= SILENT_MS) return;
      metrics.silences += 1;
      controller.abort();  // its read fails, and the failure reconnects (retry)
    }, 5000);
    function stop() {
      stopped = true;
      clearInterval(watchdog);
      if (controller) controller.abort();
    }

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
      else S.onNewVersion();
    }

    function finished() {
      stop();
      setLive("ended", "match over");
      els.followLabel.hidden = true;
      V.untilAnswered(loadSummary).then(function () {
        page.cache.clear();
        drawPerspectives();
        drawSignIn();
        S.syncPlay();
        S.watchRematch();
        audit();
        show(page.max);
        return V.untilAnswered(loadLog);
      });
    }

    function connect() {
      if (stopped) return;
      controller = new AbortController();
      heard = Date.now();
      // From what the page has drawn and listed, not from the log: the log (a read model) may
      // hold an event that came after the summary and the listing, and a stream resumed past it
      // would never bring it through onEvent (the page would wait at the older version).
      var since = Math.min(lastSeq(), page.max);
      var headers = {"Accept": "text/event-stream"};
      if (page.token) headers["Authorization"] = "Bearer " + page.token;
      if (since) headers["Last-Event-ID"] = String(since);
      setLive("connecting", "connecting…");
      fetch("/v1/matches/" + matchId + "/stream?since=" + since, {headers: headers, signal: controller.signal, cache: "no-store"})
        .then(function (response) {
          if (!response.ok) {
            var error = new Error("stream answered " + response.status);
            // 429: too many streams open here or from this address for now; retried after the
            // server's Retry-After (a refusal for good is any other 4xx)
            var later = response.status === 429;
            error.fatal = response.status >= 400 && response.status < 500 && !later;
            if (later) backoff = Math.max(backoff, 1000 * (Number(response.headers.get("Retry-After")) || 5));
            throw error;
          }
          setLive("on", "● live");
          backoff = 500;
          var reader = response.body.getReader(), decoder = new TextDecoder(), buffer = "";
          function pump() {
            return reader.read().then(function (chunk) {
              if (chunk.done) return;
              heard = Date.now();
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
        .then(function () { controller = null; retry(); }, function (error) {
          controller = null;
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
    return {stop: function () { stop(); setLive(null); els.followLabel.hidden = true; }};
  }

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
    S.loadTitle(summary.game);
    if (summary.status === "open") {  // a lobby: nothing to draw until the last seat is taken
      els.board.replaceChildren(h("p", {class: "warning"}, "This match is waiting for players. The page shows it as soon as it starts."));
      metrics.rendered = "open";
      S.lobby(summary);
      throw null;
    }
    S.loadCatalog(summary.game);
    var identity = page.token ? identify(page.token, 5) : Promise.resolve(null);
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
    S.syncPlay();
    S.watchRematch();
    // The log is a read model and may be away (503) while the store answers: the board and the
    // stream go on without it (the stream brings what the page lacks) and the log is asked again.
    var log = loadLog().catch(function (error) {
      els.log.replaceChildren(h("li", {class: "error"}, "The log cannot be read now (" + error.message + "): trying again."));
      V.untilAnswered(loadLog);
    });
    return Promise.all([first, log]).then(function () { restartLive(); });
  }).catch(function (error) {
    if (error === null) return;  // handled above
    showError(error.status === 404 ? "There is no match " + matchId + "." : "The match cannot be shown: " + error.message);
    els.status.textContent = error.status === 404 ? "not found" : "error";
    els.status.className = "pill pill-abandoned";
    els.board.replaceChildren(h("p", {class: "error"}, error.status === 404 ? "No such match." : "Nothing to show."));
    metrics.rendered = "error";
  });
})();
