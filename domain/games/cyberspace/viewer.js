/* Cyberspace in the browser: draws view(state, seat) from view.py (contract: service/web/README.md).
 * Nothing is secret in Cyberspace; the face-down stack arrives as a count and is drawn as backs.
 * The tile grid is SVG built node by node (text only through textContent). */
(function () {
  "use strict";
  var V = window.ArbiterViewer, h = V.h;
  var NS = "http://www.w3.org/2000/svg";
  var CELL = 58, PAD = 18;
  var SIDES = ["north", "east", "south", "west"];
  var STEP = [[0, -1], [1, 0], [0, 1], [-1, 0]];  // side -> direction from the node

  /* s("circle", {cx: 1, style: {fill: "..."}, dataset: {...}, text: "..."}, children...) */
  function s(tag, attrs) {
    var el = document.createElementNS(NS, tag);
    Object.keys(attrs || {}).forEach(function (key) {
      var value = attrs[key];
      if (value === null || value === undefined) return;
      if (key === "style") Object.keys(value).forEach(function (k) { el.style.setProperty(k, value[k]); });
      else if (key === "dataset") Object.keys(value).forEach(function (k) { el.dataset[k] = String(value[k]); });
      else if (key === "text") el.textContent = String(value);
      else if (key === "title") el.appendChild(s("title", {text: value}));
      else el.setAttribute(key, String(value));
    });
    for (var i = 2; i < arguments.length; i++) V.append(el, arguments[i]);
    return el;
  }

  function seatColour(seat) { return "var(--seat" + (seat % 6) + ")"; }
  function initial(ctx, seat) { return String(V.seatName(ctx, seat)).charAt(0).toUpperCase() || String(seat); }

  function star(cx, cy, outer, inner) {
    var points = [];
    for (var i = 0; i < 10; i++) {
      var r = i % 2 ? inner : outer, a = Math.PI / 5 * i - Math.PI / 2;
      points.push((cx + r * Math.cos(a)).toFixed(1) + "," + (cy + r * Math.sin(a)).toFixed(1));
    }
    return points.join(" ");
  }

  function tileShape(t, view, ctx) {
    var x0 = PAD + t.x * CELL, y0 = PAD + t.y * CELL, cx = x0 + CELL / 2, cy = y0 + CELL / 2;
    var net = view.networks[t.network] || {};
    var open = t.open_connections || [];
    var parts = [s("rect", {x: x0 + 1, y: y0 + 1, width: CELL - 2, height: CELL - 2, rx: 6,
                            style: {fill: net.closed ? "#e2f0e4" : "#f6f1e4", stroke: "#b8ab8f"}})];
    t.connections.forEach(function (side) {
      var d = STEP[side];
      parts.push(s("line", {x1: cx, y1: cy, x2: cx + d[0] * CELL / 2, y2: cy + d[1] * CELL / 2,
                            style: {stroke: open.indexOf(side) >= 0 ? "#8d97ab" : "#3b4a6b", "stroke-width": 6,
                                    "stroke-dasharray": open.indexOf(side) >= 0 ? "4 3" : "none"}}));
    });
    t.firewalls.forEach(function (w) {
      var d = STEP[w.side], ex = cx + d[0] * (CELL / 2 - 7), ey = cy + d[1] * (CELL / 2 - 7);
      parts.push(s("line", {x1: ex - d[1] * 13, y1: ey - d[0] * 13, x2: ex + d[1] * 13, y2: ey + d[0] * 13,
                            dataset: {firewall: w.owner}, title: V.seatName(ctx, w.owner) + "'s Firewall, " + SIDES[w.side],
                            style: {stroke: seatColour(w.owner), "stroke-width": 6, "stroke-linecap": "round"}}));
    });
    var occupied = t.avatar ? {fill: seatColour(t.avatar.seat), stroke: "#1f2328"} : {fill: "#fff", stroke: "#3b4a6b"};
    parts.push(t.node === "server"
      ? s("polygon", {points: star(cx, cy, 17, 8), style: Object.assign({"stroke-width": 2}, occupied)})
      : s("circle", {cx: cx, cy: cy, r: 12, style: Object.assign({"stroke-width": 2}, occupied)}));
    if (t.avatar) {
      parts.push(s("text", {x: cx, y: cy + 4, "text-anchor": "middle", dataset: {avatar: t.avatar.seat},
                            style: {fill: "#fff", "font-size": "11px", "font-weight": 700}, text: initial(ctx, t.avatar.seat)}));
    }
    if (t.link !== null && t.link !== undefined) {
      parts.push(s("g", {dataset: {link: t.link}, title: V.seatName(ctx, t.link) + "'s Link"},
        s("rect", {x: x0 + CELL - 22, y: y0 + CELL - 20, width: 17, height: 15, rx: 3, style: {fill: seatColour(t.link)}}),
        s("text", {x: x0 + CELL - 13.5, y: y0 + CELL - 9, "text-anchor": "middle", style: {fill: "#fff", "font-size": "10px", "font-weight": 700}, text: "L"})));
    }
    parts.push(s("text", {x: x0 + 5, y: y0 + 12, style: {fill: "#6b7078", "font-size": "9px"}, text: String(t.tile).toUpperCase()}));
    var words = String(t.tile).toUpperCase() + " at " + t.x + "," + t.y + ": " + t.node + ", network " + t.network +
      (t.avatar ? ", " + V.seatName(ctx, t.avatar.seat) + "'s Avatar" : "") + (t.pendant ? ", pendant" : "") +
      (open.length ? ", open: " + open.map(function (o) { return SIDES[o]; }).join(" ") : "");
    return s("g", {dataset: {tile: t.tile, x: t.x, y: t.y, target: t.x + "," + t.y}, title: words}, parts);
  }

  function grid(view, ctx) {
    var size = view.size, width = PAD + size * CELL + 4;
    var cells = [];
    for (var y = 0; y < size; y++) {
      cells.push(s("text", {x: 6, y: PAD + y * CELL + CELL / 2 + 4, style: {fill: "#6b7078", "font-size": "10px"}, text: y}));
      for (var x = 0; x < size; x++) {
        if (y === 0) cells.push(s("text", {x: PAD + x * CELL + CELL / 2, y: 12, "text-anchor": "middle", style: {fill: "#6b7078", "font-size": "10px"}, text: x}));
        cells.push(s("rect", {x: PAD + x * CELL + 1, y: PAD + y * CELL + 1, width: CELL - 2, height: CELL - 2, rx: 6,
                              class: "cs-square", dataset: {target: x + "," + y},
                              style: {fill: "transparent", stroke: "#e3ddd0", "stroke-dasharray": "3 3"}}));
      }
    }
    return s("svg", {viewBox: "0 0 " + width + " " + width, width: width, height: width, role: "img",
                     "aria-label": "the tile grid", class: "cs-grid", dataset: {zone: "tiles", count: view.tiles.length},
                     style: {"max-width": "100%", height: "auto"}},
      cells, view.tiles.map(function (t) { return tileShape(t, view, ctx); }));
  }

  function tileChips(ids, zoneKey, title) {
    return h("section", {class: "zone"},
      h("h4", {class: "zone-title"}, title, h("span", {class: "zone-count"}, String(ids.length))),
      h("div", {class: "zone-body", dataset: {zone: zoneKey, count: ids.length}},
        ids.length ? ids.map(function (id) { return V.card(id, {class: "card-small", title: "tile " + String(id).toUpperCase(), body: null}); })
          : h("span", {class: "muted"}, "none")));
  }

  function networks(view, ctx) {
    var rows = view.networks.filter(function (n) { return n.tiles.length > 1 || n.servers; });
    return h("section", {class: "zone", dataset: {zone: "networks", count: view.networks.length}, style: {"overflow-x": "auto", "max-width": "100%"}},
      h("h4", {class: "zone-title"}, "Networks", h("span", {class: "zone-count"}, String(view.networks.length))),
      h("table", {class: "gv-table"},
        h("thead", null, h("tr", null, ["#", "tiles", "servers", "empty clients", "closed", "worth", "servers held"].map(function (c) { return h("th", null, c); }))),
        h("tbody", null, rows.map(function (n) {
          return h("tr", {dataset: {network: n.id}},
            h("td", null, String(n.id)), h("td", null, String(n.tiles.length)), h("td", null, String(n.servers)),
            h("td", null, String(n.empty_clients)), h("td", null, n.closed ? "closed" : "open"),
            h("td", null, h("strong", null, String(n.worth))),
            h("td", null, Object.keys(n.servers_held).map(function (k) { return V.seatName(ctx, Number(k)) + " " + n.servers_held[k]; }).join(", ") || "—"));
        }))),
      view.networks.length > rows.length ? h("div", {class: "muted"}, V.plural(view.networks.length - rows.length, "lone client tile") + " not listed") : null);
  }

  /* Any duel: Bit (a coin) today, a card duel later: seats, hands as backs, cards played, points. */
  function duelPanel(duel, title, ctx) {
    if (!duel) return null;
    var lines = [];
    if (duel.attacker !== undefined) lines.push(h("div", null, h("strong", null, V.seatName(ctx, duel.attacker)), " hacks ",
      (duel.defenders || []).map(function (d) { return V.seatName(ctx, d); }).join(" & ") || "—"));
    if (duel.coin) lines.push(h("div", null, "Coin: ", h("strong", null, duel.coin), duel.coin === "heads" ? " (the hack succeeds)" : " (the hack fails)"));
    (Array.isArray(duel.players) ? duel.players : []).forEach(function (p, i) {
      var seat = typeof p.seat === "number" ? p.seat : i;
      var hand = Array.isArray(p.hand) ? h("div", {class: "zone-body"}, p.hand.map(function (c) { return V.card(String(c), {class: "card-small"}); }))
        : typeof p.hand === "number" ? V.cardBacks(p.hand) : null;
      var points = p.free && typeof p.free === "object" ? Object.keys(p.free).map(function (a) {
        return V.stat(V.humanize(a), p.free[a] + (p.scores && p.scores[a] !== undefined ? "/" + p.scores[a] : ""), {title: "free / attribute points"});
      }) : [];
      lines.push(h("div", {class: "panel seat-" + seat, style: {"border-left": "4px solid " + seatColour(seat), "margin-top": ".3rem"}},
        h("strong", null, V.seatName(ctx, seat)), p.vp !== undefined ? " · " + p.vp + " VP" : "",
        h("div", {class: "v-stats"}, points), hand));
    });
    var played = duel.sequence && duel.sequence.played || duel.played;
    if (Array.isArray(played) && played.length) {
      lines.push(h("div", {class: "zone-body"}, played.map(function (e) {
        return V.card(String(e.card || e), {class: "card-small", body: h("span", {class: "card-sub"},
          (e.seat !== undefined ? V.seatName(ctx, e.seat) : "") + (e.value !== undefined && e.value !== null ? " · " + e.value : ""))});
      })));
    }
    return h("div", {class: "v-prompt", dataset: {zone: "duel"}}, h("strong", null, title + " (" + V.humanize(String(duel.kind || "duel")).toLowerCase() + " duel)"), lines);
  }

  function lastDuel(last, ctx) {
    if (!last) return null;
    var target = last.target || {};
    var what = target.kind === "avatar" ? V.seatName(ctx, target.seat) + "'s Avatar" : V.humanize(String(target.kind || "target")).toLowerCase();
    return h("div", {class: "muted", dataset: {zone: "last_duel"}}, "Last hack: " + V.seatName(ctx, last.seat) + " on " + what + " — " +
      (last.success ? "succeeded" : "failed") + (last.duel && last.duel.coin ? " (" + last.duel.coin + ")" : "") +
      (last.duel && typeof last.duel.attack === "number" ? " (attack " + last.duel.attack + " vs block " + last.duel.block + ")" : ""));
  }

  /* The card duel's half of a player (HeroCard dueling, living through the whole match):
   * Hero, Attribute Points free of total, cards on each Attribute (Secret Cards of others
   * face down with the points they expend), hand as backs for others, deck and discard. */
  function cardsOf(hero, names, isMe, ctx) {
    if (!hero) return null;
    var hidden = !Array.isArray(hero.hand), count = hidden ? hero.hand : hero.hand.length;
    var attributes = Object.keys(names || hero.free || {});
    return h("section", {class: "zone", dataset: {zone: "cards"}},
      h("h4", {class: "zone-title"}, "Duel cards · " + V.humanize(String(hero.hero || "hero"))),
      h("div", {class: "v-stats"},
        attributes.map(function (a) {
          var stack = (hero.stacks || {})[a] || [];
          return h("span", {class: "stat", title: (names[a] || a) + ": points free / total; cards on the Attribute Stack",
                            dataset: {stat: "free_" + a, value: hero.free[a]}},
            h("span", {class: "stat-label"}, names[a] || V.humanize(a)),
            h("span", {class: "stat-value"}, hero.free[a] + "/" + hero.scores[a]),
            stack.length ? h("span", {class: "muted", dataset: {zone: "stack_" + a, count: stack.length}}, " · " + stack.map(function (e) {
              return e.card ? V.humanize(e.card) + (e.face === "down" ? " (face down)" : "") : "Secret (" + e.cost + ")";
            }).join(", ")) : null);
        }),
        hero.vp !== undefined && hero.vp !== null && hero.vp !== 0 ? V.stat("VP", hero.vp) : null,
        V.stat("deck", hero.deck, {dataset: {stat: "card_deck", value: hero.deck}}),
        V.stat("discard", (hero.discard || []).length, {title: (hero.discard || []).map(V.humanize).join(", ") || "empty"})),
      hidden ? h("div", {class: "zone-body", dataset: {zone: "hand", count: count, hidden: "true"}}, V.cardBacks(count))
        : h("div", {class: "zone-body", dataset: {zone: "hand", count: count}},
          count ? hero.hand.map(function (c) { return V.card(c, {class: "card-small"}); }) : h("span", {class: "muted"}, "no cards in hand")));
  }

  function sequencePanel(cards, ctx) {
    var seq = cards && cards.sequence;
    if (!seq) return null;
    return h("div", {class: "v-prompt", dataset: {zone: "sequence", count: (seq.played || []).length}},
      h("strong", null, "Attack Sequence"), " · ", V.seatName(ctx, seq.owner), " on ", V.seatName(ctx, seq.target),
      h("div", {class: "v-stats", style: {margin: ".25rem 0"}},
        V.stat("attack", seq.attack_value, {dataset: {stat: "attack_value", value: seq.attack_value}}),
        V.stat("block", seq.block_value, {dataset: {stat: "block_value", value: seq.block_value}})),
      h("div", {class: "zone-body"}, (seq.played || []).map(function (e) {
        return V.card(String(e.card), {class: "card-small", body: h("span", {class: "card-sub"}, V.seatName(ctx, e.seat) +
          (e.value !== null && e.value !== undefined ? " · " + e.value : ""))});
      })));
  }

  function hackLine(attack, ctx) {
    if (!attack) return null;
    var target = attack.target || {};
    var what = target.kind === "avatar" ? V.seatName(ctx, target.seat) + "'s Avatar" : "a " + V.humanize(String(target.kind || "target")).toLowerCase();
    return h("div", {class: "v-flag v-flag-warn", dataset: {zone: "attack"}}, V.seatName(ctx, attack.seat) + " hacks " + what);
  }

  function player(p, view, seat, ctx) {
    var isMe = p.seat === seat;
    var toMove = (ctx.toAct || []).indexOf(p.seat) >= 0;  // whom the rules ask (the board answer's to_act)
    var onBoard = p.avatars.filter(function (a) { return a !== null; });
    var flags = [];
    if (p.team !== null && p.team !== undefined) flags.push(h("span", {class: "v-tag"}, "team " + (p.team + 1)));
    if (toMove) flags.push(h("span", {class: "v-flag v-flag-turn"}, view.turn === p.seat && !view.hijack ? "to play" : "to act"));
    if (view.winners && view.winners.indexOf(p.seat) >= 0) flags.push(h("span", {class: "v-flag v-flag-info"}, "winner"));
    if (view.hijack && view.hijack.target === p.seat) flags.push(h("span", {class: "v-flag v-flag-warn"}, "hijacked"));
    var tokens = [];
    for (var i = 0; i < p.access_tokens_left; i++) tokens.push(h("span", {class: "cs-token", style: {display: "inline-block", width: "12px", height: "12px", "border-radius": "50%", background: seatColour(p.seat)}}));
    return h("section", {class: "panel player seat-" + p.seat + (isMe ? " me" : "") + (toMove ? " turn" : ""), dataset: {seat: p.seat}},
      h("header", {class: "v-player-head"},
        h("h3", null, ctx.names[p.seat] || "seat " + p.seat, isMe ? h("span", {class: "you"}, ctx.me === p.seat ? "you" : "their view") : null), flags),
      h("div", {class: "v-stats"},
        p.network_points_now !== null ? V.stat("points now", p.network_points_now, {dataset: {stat: "points", value: p.network_points_now}, title: "network points if scored now"}) : null,
        p.tally ? V.stat("final score", p.tally.score, {dataset: {stat: "score", value: p.tally.score}, title: "networks " + p.tally.networks + " + bonus " + p.tally.bonus}) : null,
        V.stat("Avatars on board", onBoard.length, {dataset: {stat: "avatars", value: onBoard.length}}),
        V.stat("in reserve", p.avatars_in_reserve, {dataset: {stat: "reserve", value: p.avatars_in_reserve}})),
      h("div", {class: "v-line", dataset: {stat: "access_tokens", value: p.access_tokens_left}, title: "Access tokens not yet placed as Links or Firewalls"},
        h("span", {class: "stat-label"}, "Access tokens"), tokens.length ? tokens : h("span", {class: "muted"}, "all placed"), h("strong", null, String(p.access_tokens_left))),
      h("div", {class: "v-line", dataset: {zone: "links", count: p.links.length}}, h("span", {class: "stat-label"}, "Links"),
        p.links.length ? p.links.map(function (c) { return h("span", {class: "chip"}, c); }) : h("span", {class: "muted"}, "none")),
      h("div", {class: "v-line", dataset: {zone: "firewalls", count: p.firewalls.length}}, h("span", {class: "stat-label"}, "Firewalls"),
        p.firewalls.length ? p.firewalls.map(function (w) { return h("span", {class: "chip"}, w[0] + " " + SIDES[w[1]]); }) : h("span", {class: "muted"}, "none")),
      onBoard.length ? h("div", {class: "v-line"}, h("span", {class: "stat-label"}, "Avatars at"),
        onBoard.map(function (c) { return h("span", {class: "chip"}, c); })) : null,
      view.cards && view.cards.players ? cardsOf(view.cards.players[p.seat], view.cards.attribute_names || {}, isMe, ctx) : null);
  }

  /* ["probe", "probe", "remap"] -> "Probe ×2, Remap" */
  function tally(names) {
    var order = [], count = {};
    names.forEach(function (n) { if (!count[n]) order.push(n); count[n] = (count[n] || 0) + 1; });
    return order.map(function (n) { return V.humanize(n) + (count[n] > 1 ? " ×" + count[n] : ""); }).join(", ");
  }

  function render(view, seat, container, ctx) {
    var menu = view.hijack ? view.hijack.menu : view.menu;
    var programs = view.hijack ? view.hijack.programs : view.programs;
    var center = h("div", {class: "v-center"},
      h("div", {class: "v-turn"},
        h("div", {class: "v-turn-line"}, "Turn ", h("strong", {dataset: {stat: "turn_number", value: view.turn_number}}, String(view.turn_number))),
        !view.over ? h("div", null, h("strong", null, V.seatName(ctx, view.turn)), " to play") : null,
        !view.over ? h("div", {class: "muted", dataset: {stat: "programs", value: programs}}, "Programs run: " + programs + (view.puzzle ? "" : "/3") +
          (menu.length ? " · " + tally(menu) : "")) : null,
        view.hijack ? h("div", {class: "v-flag v-flag-warn"}, "hijacking " + V.seatName(ctx, view.hijack.target)) : null,
        view.final_round ? h("div", {class: "v-flag v-flag-warn"}, "final round" + (view.final_turn ? " · a final turn" : "")) : null,
        view.puzzle ? h("div", {class: "muted"}, "Engineering Puzzle" + (view.puzzle_score !== null ? " · score " + view.puzzle_score : "")) : null,
        view.over ? h("div", {class: "v-banner"}, "Game over: " + V.humanize(view.over).toLowerCase() +
          (view.winners && view.winners.length ? " — " + view.winners.map(function (w) { return V.seatName(ctx, w); }).join(" & ") + " won" : "")) : null),
      h("section", {class: "zone"}, h("h4", {class: "zone-title"}, "Stack"),
        h("div", {class: "zone-body", dataset: {zone: "stack", count: view.stack, hidden: "true"}}, V.cardBacks(view.stack))),
      view.held ? tileChips([view.held], "held", "Drawn tile") : null,
      tileChips(view.face_up, "face_up", "Face up"),
      view.waiting.length ? tileChips(view.waiting, "waiting", "Set aside") : null,
      hackLine(view.attack, ctx),
      view.cards && view.cards.turn && !view.over ? h("div", {class: "muted"}, "Cards: " + V.humanize(String(view.cards.turn.phase)).toLowerCase() + " phase" +
        (view.cards.priority !== null && view.cards.priority !== undefined ? " · priority " + V.seatName(ctx, view.cards.priority) : "")) : null,
      sequencePanel(view.cards, ctx),
      view.cards && view.cards.pending ? h("div", {class: "v-prompt"}, V.seatName(ctx, view.cards.pending.seat) + " must discard " + V.plural(view.cards.pending.count, "card")) : null,
      duelPanel(view.duel, "Hack in progress", ctx),
      lastDuel(view.last_duel, ctx));
    var legend = h("div", {class: "muted cs-legend", style: {"max-width": (PAD + view.size * CELL) + "px", "font-size": ".8rem"}}, "○ client · ☆ server · filled: an Avatar · L: a Link · coloured bar: a Firewall · dashed: an open connection · green: a closed network");
    container.appendChild(h("div", {class: "v-table"}, center,
      h("div", {class: "cs-board", style: {display: "flex", "flex-wrap": "wrap", gap: ".9rem", "align-items": "flex-start"}},
        h("div", {style: {flex: "0 1 auto", "min-width": "0", "max-width": "100%"}}, grid(view, ctx), legend, networks(view, ctx)),
        h("div", {class: "v-players", style: {flex: "1 1 300px"}}, view.players.map(function (p) { return player(p, view, seat, ctx); })))));
  }

  V.register("cyberspace", {render: render});
})();
