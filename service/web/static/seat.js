/* The seat's side of the match page (contract: service/web/README.md): the open lobby (join,
 * leave, start), the seat's action panel and its posts (expected_version, Idempotency-Key,
 * refusals beside the action, 409 reloads), board click targets, card details from the
 * catalog, resign / abort / rematch, clocks and in-browser verification. match.js calls
 * ArbiterViewer.seat(M) once with what it shares: {page, els, metrics, matchId, show(version),
 * loadSummary(), drawHeader(), over()}. */
(function () {
  "use strict";
  var V = window.ArbiterViewer, h = V.h;

  V.seat = function (M) {
    var page = M.page, els = M.els, metrics = M.metrics, matchId = M.matchId;
    var show = M.show, loadSummary = M.loadSummary, drawHeader = M.drawHeader, over = M.over;

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
        // A post in flight asks for the listing itself when it is answered; a listing already at
        // the latest version the stream brought (the post's own, its event arriving after the
        // answer) has nothing new: asking again redrew the mover's panel on every move.
        if (!play.busy && !(play.legal && play.legal.version >= page.max)) syncPlay();
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
        if (play.listFailed) { play.listFailed = false; showPlayError(""); }
      }).catch(function (error) {
        if (error.status === 409) return;
        showPlayError("Your actions cannot be listed: " + error.message);
        // a passing failure (no answer, 5xx, 429) is listed again; another event would too
        if (!error.status || error.status >= 500 || error.status === 429) {
          play.listFailed = true;
          clearTimeout(play.relist);
          play.relist = setTimeout(syncPlay, 2000);
        }
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
      els.rematch.hidden = running || !!play.offered;  // an offer found (watchRematch) is accepted instead
      els.acceptRematch.hidden = running || !play.offered;
      els.raw.hidden = !running;
      var mine = myTurn();
      if (mine && !play.wasMine && document.hidden) chime();
      play.wasMine = mine;
      document.body.classList.toggle("my-turn", mine);
      els.play.classList.toggle("my-turn", mine);
      els.play.dataset.turn = mine ? "mine" : running ? "theirs" : "over";
      els.play.dataset.version = play.legal ? String(play.legal.version) : "";
      if (!running) els.turn.textContent = play.offered ? "A rematch is offered." : "The match is over.";
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

    /* A post answers within a second (a served bot's reply included); one unanswered this long is
     * given up (a connection that died, a server that hangs) rather than block the page. */
    var POST_TIMEOUT_MS = 20000;

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
        method: "POST", headers: {"Idempotency-Key": V.idempotencyKey()}, json: {action: action, expected_version: version},
        timeoutMs: POST_TIMEOUT_MS
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
        if (!error.status || error.status >= 500) {
          // No answer, or the server failed: the action may or may not have been taken. The
          // listing says which (expected_version refuses a second press of a taken one).
          metrics.unanswered = (metrics.unanswered || 0) + 1;
          showPlayError("Your action got no answer (" + error.message + "): here are the actions as the match stands now.");
          return syncPlay().then(function () { throw null; });
        }
        metrics.refused += 1;
        throw error.message || "refused";
      }).finally(function () {
        play.busy = false;
        els.play.classList.remove("busy");
        replied();
        els.actions.dataset.ready = myTurn() && play.panel && play.legal.version >= (play.minVersion || 0) ? "true" : "false";
        // An event that came during the post was left to it (onNewVersion), but the post's own
        // listing may be older than that event: list again, or the page waits for a turn it has.
        if (play.legal && play.legal.version < page.max) syncPlay();
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
          if (play.offered) return drawPlay();
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
          var name = h("span", {class: "clock-name"}, page.names[c.seat] || "seat " + c.seat);
          if (c.untimed) {  // a served bot: its time is the server's pace, and its bank never moves
            return h("span", {class: "clock untimed seat-" + c.seat, dataset: {seat: c.seat},
                              title: "a served bot: its clock does not run"},
              name, h("span", {class: "clock-time"}, "—"));
          }
          return h("span", {class: "clock seat-" + c.seat + (c.running && running ? " running" : "") + (low ? " low" : "") + (c.seat === page.seat ? " me" : ""),
                            dataset: {seat: c.seat, ms: Math.round(left)}},
            name, h("span", {class: "clock-time"}, Math.floor(secs / 60) + ":" + ("0" + secs % 60).slice(-2)));
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
      V.verifyExport(matchId, page.max).then(function (result) {
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

    return {play: play, myTurn: myTurn, loadTitle: loadTitle, loadCatalog: loadCatalog, describeCards: describeCards,
            markTargets: markTargets, replied: replied, onNewVersion: onNewVersion, syncPlay: syncPlay,
            watchRematch: watchRematch, drawClocks: drawClocks, lobby: lobby};
  };
})();
