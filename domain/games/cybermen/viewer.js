/* Cybermen in the browser: draws view(state, seat) from view.py (contract: service/web/README.md).
 * Other players' item cards and the draw pile arrive as counts and are drawn as backs. The map
 * is a grid of squares: buildings, hedges, exits, Cyberconversion Units, groups, Cybermen. */
(function () {
  "use strict";
  var V = window.ArbiterViewer, h = V.h;
  var SQUARE = 34;
  var TERRAIN = {".": ["#f7f4ec", "open ground"], "B": ["#8d8578", "building"], "H": ["#6e9a59", "hedge"], "E": ["#f6dc85", "exit"]};
  var ARROW = {N: "▲", E: "▶", S: "▼", W: "◀"};
  var ROMAN = ["", "I", "II", "III", "IV", "V", "VI"];

  function seatColour(seat) { return "var(--seat" + (seat % 6) + ")"; }
  function mark(n) { return "Mark " + (ROMAN[n] || n); }
  /* "0.best_man" -> "Best Man" */
  function human(id) { return V.humanize(String(id).split(".").pop()); }
  function humanOf(id, ctx) { return human(id) + " (" + V.seatName(ctx, Number(String(id).split(".")[0])) + ")"; }
  function at(pos) { return "row " + pos[0] + ", column " + pos[1]; }

  function disc(colour, text, title, data) {
    return h("span", {title: title, dataset: data || {}, style: {display: "inline-flex", "align-items": "center", "justify-content": "center",
      width: "22px", height: "22px", "border-radius": "50%", background: colour, color: "#fff", "font-size": "11px", "font-weight": "700",
      border: "2px solid #fff", "box-shadow": "0 0 0 1px #555", "line-height": "1"}}, text);
  }

  var NS = "http://www.w3.org/2000/svg";
  var TURN = {N: 0, E: 90, S: 180, W: 270};

  function svg(tag, attrs) {
    var el = document.createElementNS(NS, tag);
    Object.keys(attrs).forEach(function (k) { if (k === "text") el.textContent = String(attrs[k]); else el.setAttribute(k, String(attrs[k])); });
    return el;
  }

  /* A Cyberman: a steel square, a wedge on the side it faces, its Mark's numeral; a seat-coloured
   * rim for the Cyberleader and lieutenants; a red badge counting the humans it carries. */
  function cyberman(id, c, ctx) {
    var role = c.role !== "normal" ? ", " + c.role + " of " + V.seatName(ctx, c.seat) : "";
    var title = id + ": " + mark(c.mark) + " facing " + c.facing + role +
      (c.carrying.length ? ", carrying " + c.carrying.map(function (x) { return humanOf(x, ctx); }).join(", ") : "");
    var icon = svg("svg", {width: 30, height: 30, viewBox: "0 0 30 30"});
    icon.appendChild(svg("rect", {x: 3, y: 3, width: 24, height: 24, rx: 5, fill: "#b7bec7", stroke: "#3d454f", "stroke-width": 1.5}));
    icon.appendChild(svg("polygon", {points: "15,0 21,8 9,8", fill: "#1f2328", transform: "rotate(" + (TURN[c.facing] || 0) + " 15 15)"}));
    icon.appendChild(svg("text", {x: 15, y: 20, "text-anchor": "middle", "font-size": 10, "font-weight": 700, fill: "#1f2328", text: ROMAN[c.mark] || c.mark}));
    return h("span", {title: title, dataset: {cyberman: id, mark: c.mark, facing: c.facing, row: c.pos[0], col: c.pos[1]},
      style: {display: "inline-flex", position: "relative", "border-radius": "7px",
        "box-shadow": c.role !== "normal" ? "0 0 0 3px " + seatColour(c.seat) : "none"}},
      icon,
      c.carrying.length ? h("span", {style: {position: "absolute", top: "-6px", right: "-6px", background: "var(--bad)", color: "#fff",
        "border-radius": "999px", "font-size": "9px", padding: "0 3px"}}, String(c.carrying.length)) : null);
  }

  function map(view, ctx) {
    var rows = view.map.length, cols = view.map[0].length;
    var things = {};
    function put(pos, el) { (things[pos[0] + "," + pos[1]] = things[pos[0] + "," + pos[1]] || []).push(el); }
    Object.keys(view.units).forEach(function (uid) {
      put(view.units[uid], h("span", {title: "Cyberconversion Unit " + uid, dataset: {unit: uid, row: view.units[uid][0], col: view.units[uid][1]}, style: {display: "inline-flex",
        "align-items": "center", "justify-content": "center", width: "30px", height: "30px", "border-radius": "4px",
        background: "#4b3f8a", color: "#fff", "font-size": "10px", "font-weight": "700"}}, "CCU"));
    });
    view.groups.forEach(function (g) {
      if (!g.members.length) return;
      put(g.pos, disc(seatColour(g.seat), String(g.members.length), g.name + " (" + V.seatName(ctx, g.seat) + "): " +
        g.members.map(human).join(", "), {group: g.seat}));
    });
    Object.keys(view.cybermen).sort().forEach(function (id) { put(view.cybermen[id].pos, cyberman(id, view.cybermen[id], ctx)); });
    var grid = h("div", {class: "cm-map", dataset: {zone: "cybermen", count: Object.keys(view.cybermen).length},
      style: {display: "grid", "grid-template-columns": "18px repeat(" + cols + ", " + SQUARE + "px)",
        "grid-template-rows": "16px repeat(" + rows + ", " + SQUARE + "px)",
        gap: "1px", background: "#cfc8b8", border: "1px solid #b8ab8f", width: "max-content", "font-size": "10px"}});
    grid.appendChild(h("span", {style: {background: "var(--panel)"}}));
    for (var c = 0; c < cols; c++) grid.appendChild(h("span", {style: {background: "var(--panel)", color: "#6b7078", "text-align": "center"}}, String(c)));
    for (var r = 0; r < rows; r++) {
      grid.appendChild(h("span", {style: {background: "var(--panel)", color: "#6b7078", display: "flex", "align-items": "center"}}, String(r)));
      for (c = 0; c < cols; c++) {
        var t = TERRAIN[view.map[r][c]] || TERRAIN["."];
        var here = things[r + "," + c] || [];
        grid.appendChild(h("div", {title: t[1] + " · " + at([r, c]), dataset: {terrain: view.map[r][c], target: r + "," + c},
          style: {background: t[0], display: "flex", "flex-wrap": "wrap", "align-items": "center", "justify-content": "center",
            gap: "1px", overflow: "visible", position: "relative"}},
          here.length > 1 ? here.map(function (el) { el.style.setProperty("zoom", here.length > 2 ? "0.45" : "0.55"); return el; })
            : here.length ? here : view.map[r][c] === "E" ? h("span", {style: {color: "#8a6a00", "font-weight": "700"}}, "EXIT") : null));
      }
    }
    return grid;
  }

  function group(g, view, seat, ctx) {
    var isMe = g.seat === seat;
    var toMove = !view.over && view.turn === g.seat;
    var flags = [h("span", {class: "v-tag"}, g.status)];
    if (toMove) flags.push(h("span", {class: "v-flag v-flag-turn"}, "their turn"));
    if (g.stunned) flags.push(h("span", {class: "v-flag v-flag-warn"}, "stunned"));
    if (g.injured) flags.push(h("span", {class: "v-flag v-flag-warn"}, "injured " + g.injured));
    if (g.mind) flags.push(h("span", {class: "v-flag v-flag-bad"}, "mind-controlled"));
    if (view.winners && view.winners.indexOf(g.seat) >= 0) flags.push(h("span", {class: "v-flag v-flag-info"}, "winner"));
    var hidden = !Array.isArray(g.hand);
    var count = hidden ? g.hand : g.hand.length;
    var people = function (ids, how) {
      return ids.map(function (id) { return h("span", {class: "chip", dataset: {human: id}, title: how}, human(id)); });
    };
    return h("section", {class: "panel player seat-" + g.seat + (isMe ? " me" : "") + (toMove ? " turn" : "") +
                         (g.status === "out" ? " out" : ""), dataset: {seat: g.seat}},
      h("header", {class: "v-player-head"},
        h("h3", null, disc(seatColour(g.seat), String(g.members.length), "humans on the map"), " ", ctx.names[g.seat] || "seat " + g.seat,
          isMe ? h("span", {class: "you"}, ctx.me === g.seat ? "you" : "their view") : null),
        h("span", {class: "muted"}, g.name), flags),
      h("div", {class: "v-stats"},
        V.stat("VP", g.vp, {dataset: {stat: "vp", value: g.vp}, title: "Victory Points"}),
        V.stat("Escape", g.escape, {dataset: {stat: "escape", value: g.escape}, title: "Escape tokens"}),
        V.stat("Fatigue", g.fatigue, {dataset: {stat: "fatigue", value: g.fatigue}, title: "Fatigue tokens"}),
        g.members.length ? V.stat("at", g.pos[0] + "," + g.pos[1], {title: at(g.pos)}) : null),
      h("div", {class: "v-line", dataset: {zone: "members", count: g.members.length}}, h("span", {class: "stat-label"}, "Humans"),
        g.members.length ? people(g.members, "on the map") : h("span", {class: "muted"}, "none on the map")),
      g.escaped.length ? h("div", {class: "v-line", dataset: {zone: "escaped", count: g.escaped.length}}, h("span", {class: "stat-label"}, "Escaped"), people(g.escaped, "escaped")) : null,
      g.converted.length ? h("div", {class: "v-line", dataset: {zone: "converted", count: g.converted.length}}, h("span", {class: "stat-label"}, "Converted"), people(g.converted, "converted")) : null,
      h("section", {class: "zone"}, h("h4", {class: "zone-title"}, "Items", h("span", {class: "zone-count"}, String(count))),
        hidden ? h("div", {class: "zone-body", dataset: {zone: "hand", count: count, hidden: "true"}}, V.cardBacks(count))
          : h("div", {class: "zone-body", dataset: {zone: "hand", count: count}},
            count ? g.hand.map(function (c) { return V.card(c, {class: "card-small"}); }) : h("span", {class: "muted"}, "none"))));
  }

  function cybermenTable(view, ctx) {
    var ids = Object.keys(view.cybermen).sort(function (a, b) { return Number(a.slice(1)) - Number(b.slice(1)); });
    return h("table", {class: "gv-table"},
      h("thead", null, h("tr", null, ["", "Mark", "at", "facing", "role", "carrying"].map(function (c) { return h("th", null, c); }))),
      h("tbody", null, ids.map(function (id) {
        var c = view.cybermen[id];
        return h("tr", null, h("td", null, id), h("td", null, mark(c.mark)), h("td", null, c.pos[0] + "," + c.pos[1]),
          h("td", null, (ARROW[c.facing] || "") + " " + c.facing),
          h("td", null, c.role === "normal" ? "—" : c.role + " · " + V.seatName(ctx, c.seat)),
          h("td", null, c.carrying.map(function (x) { return humanOf(x, ctx); }).join(", ") || "—"));
      })));
  }

  function render(view, seat, container, ctx) {
    var prompt = view.prompt ? h("div", {class: "v-prompt"}, h("strong", null, V.seatName(ctx, view.prompt.seat)), " must answer: " +
      V.humanize(String(view.prompt.kind)).toLowerCase() + (view.prompt.attacker ? " (attacked by " + view.prompt.attacker + ")" : "") +
      (view.prompt.roll !== undefined ? " · roll " + view.prompt.roll + (view.prompt.needs ? ", needs " + view.prompt.needs : "") : "")) : null;
    var supply = Object.keys(view.supply).map(function (m) { return h("span", {class: "chip", title: "figures left in the supply"}, ROMAN[m] + " ×" + view.supply[m]); });
    var center = h("div", {class: "v-center"},
      h("div", {class: "v-turn"},
        h("div", {class: "v-turn-line"}, "Round ", h("strong", {dataset: {stat: "round", value: view.round}}, String(view.round))),
        !view.over ? h("div", null, h("strong", null, V.seatName(ctx, view.turn)), "'s turn") : null,
        h("div", null, "Phase: " + V.humanize(String(view.phase)).toLowerCase()),
        view.roll !== null && view.phase === "group" ? h("div", {class: "muted"}, "Group may move " + V.plural(view.roll, "square")) : null,
        view.count !== null ? h("div", {class: "muted", title: "the Cyberman die: how many may move or use an ability"},
          (view.phase === "abilities" ? "Abilities used " : "Cybermen moved ") + view.used + " of " + view.count) : null,
        view.active ? h("div", {class: "muted"}, "Moving: " + view.active.id + " (" + V.humanize(String(view.active.stage)).toLowerCase() + ")") : null,
        view.over ? h("div", {class: "v-banner"}, "Game over: " + V.humanize(String(view.over)).toLowerCase() +
          (view.winners && view.winners.length ? " — " + view.winners.map(function (w) { return V.seatName(ctx, w); }).join(" & ") + " won" : "")) : null),
      h("div", {class: "v-stats"}, V.stat("new Cybermen", mark(view.mark), {dataset: {stat: "mark", value: view.mark}, title: "the Mark new Cybermen arrive as"})),
      view.leader !== null ? h("div", null, "Cyberleader: ", h("strong", null, String(view.leader))) : null,
      view.lieutenants.length ? h("div", null, "Cyberlieutenants: " + view.lieutenants.join(", ")) : null,
      h("section", {class: "zone"}, h("h4", {class: "zone-title"}, "Supply"), h("div", {class: "chips"}, supply)),
      h("section", {class: "zone"}, h("h4", {class: "zone-title"}, "Item deck"),
        h("div", {class: "zone-body", dataset: {zone: "deck", count: view.deck, hidden: "true"}}, V.cardBacks(view.deck))),
      h("section", {class: "zone"}, h("h4", {class: "zone-title"}, "Discard", h("span", {class: "zone-count"}, String(view.discard.length))),
        h("div", {class: "zone-body", dataset: {zone: "discard", count: view.discard.length}},
          view.discard.length ? view.discard.map(function (c) { return V.card(c, {class: "card-small"}); }) : h("span", {class: "muted"}, "empty"))),
      prompt);
    var legend = h("div", {class: "muted", style: {"font-size": ".8rem", "max-width": (20 + 12 * (SQUARE + 1)) + "px"}},
      "Grey squares: buildings · green: hedges · yellow: exits · CCU: a Cyberconversion Unit · coloured disc: a group and its humans · ",
      "a steel square: a Cyberman, its wedge the way it faces, its numeral its Mark (a coloured rim: leader or lieutenant; a red badge: humans carried)");
    container.appendChild(h("div", {class: "v-table"}, center,
      h("div", {style: {display: "flex", "flex-wrap": "wrap", gap: ".9rem", "align-items": "flex-start"}},
        h("div", {style: {flex: "0 1 auto", "min-width": "0", "max-width": "100%", "overflow-x": "auto"}}, map(view, ctx), legend),
        h("div", {style: {flex: "1 1 280px", "min-width": "0"}},
          h("div", {class: "v-players"}, view.groups.map(function (g) { return group(g, view, seat, ctx); })),
          h("h4", {class: "zone-title", style: {"margin-top": ".6rem"}}, "Cybermen"), cybermenTable(view, ctx)))));
  }

  V.register("cybermen", {render: render});
})();
