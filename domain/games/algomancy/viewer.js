/* Algomancy in the browser: draws view(state, seat) from view.py (contract: service/web/README.md).
 * Other players' hands, packs, dormant resources and decklists, every deck, and FFA intent cards
 * until they flip arrive as {"count": n} (or {"hidden": bool}) and are drawn as backs. Units are
 * drawn from `shown_units` (their current power and defense); each region shows its units and
 * the formations fighting there, in columns (one per attacking column) and rows. */
(function () {
  "use strict";
  var V = window.ArbiterViewer, h = V.h;
  var START_LIFE = 30;  // state.START_LIFE
  var ELEMENT = {fire: "#d9534f", water: "#2f6fb0", earth: "#8a6a2f", wood: "#2f8f5b", metal: "#6b7078"};

  function seatColour(seat) { return "var(--seat" + (seat % 6) + ")"; }
  function countOf(value) { return Array.isArray(value) ? value.length : value && typeof value.count === "number" ? value.count : 0; }
  function cardName(id) { return String(id).split("#")[0]; }
  function mana(p) { return p.resources.filter(function (r) { return !r.expended; }).length; }

  function unit(uid, view, ctx) {
    var u = view.shown_units[uid];
    if (!u) return h("div", {class: "card card-small muted"}, cardName(uid));
    var left = u.defense - u.damage;
    return h("div", {class: "card" + (u.damage ? " damaged" : ""), dataset: {unit: uid, card: u.name, power: u.power, defense: left},
      title: u.name + " (" + V.seatName(ctx, u.controller) + ")" + (u.attributes.length ? " · " + u.attributes.join(", ") : "") +
        (u.mods.length ? " · mods: " + u.mods.join(", ") : ""),
      style: {"border-left": "4px solid " + seatColour(u.controller), "min-width": "110px"}},
      h("span", {class: "card-name"}, u.name, u.token ? h("span", {class: "muted"}, " (token)") : null),
      u.attributes.length ? h("span", {class: "card-sub"}, u.attributes.join(" · ")) : null,
      u.mods.length ? h("span", {class: "card-sub"}, "+ " + u.mods.join(", ")) : null,
      h("span", {class: "card-foot"},
        h("span", {title: "power"}, "⚔ " + u.power),
        h("span", {class: "hp", title: "defense left of " + u.defense}, "def " + left + (u.damage ? "/" + u.defense : ""))));
  }

  /* Rows top to bottom: the defenders' back and front rows, then the attackers' front and back rows. */
  function formation(f, view, ctx) {
    var blocks = f.blocks || [];
    var width = Math.max(f.columns.length, blocks.length, 1);
    var rows = [["defending, back", blocks, 1], ["defending, front", blocks, 0], ["attacking, front", f.columns, 0], ["attacking, back", f.columns, 1]];
    var grid = h("div", {style: {display: "grid", "grid-template-columns": "6.5rem repeat(" + width + ", minmax(112px, 1fr))",
                                 gap: ".3rem", "align-items": "center", "min-width": "min-content"}});
    rows.forEach(function (row) {
      grid.appendChild(h("span", {class: "stat-label"}, row[0]));
      for (var c = 0; c < width; c++) {
        var column = row[1][c] || [];
        grid.appendChild(column[row[2]] ? unit(column[row[2]], view, ctx) : h("span", {class: "muted", style: {"text-align": "center"}}, "·"));
      }
    });
    return h("div", {class: "v-prompt", dataset: {formation: f.id, columns: f.columns.length}, style: {"overflow-x": "auto", "max-width": "100%"}},
      h("div", {style: {"margin-bottom": ".3rem"}}, h("strong", null, V.seatName(ctx, f.attacker)), " attacks ", h("strong", null, V.seatName(ctx, f.defender)),
        f.region !== f.destination ? " · heading to " + f.destination : "",
        f.blocks === null ? h("span", {class: "muted"}, " · blocks not declared yet") : "",
        f.tokens.length ? " · spell tokens: " + f.tokens.join(", ") : ""),
      grid);
  }

  function regionBox(region, view, busy, ctx) {
    var homeOf = [];
    view.home.forEach(function (r, s) { if (r === region) homeOf.push(V.seatName(ctx, s)); });
    var loose = Object.keys(view.shown_units).filter(function (uid) { return view.shown_units[uid].region === region && !busy[uid]; });
    var fights = ((view.battle || {}).formations || []).filter(function (f) { return f.region === region; });
    var tokens = Object.keys(view.spell_tokens || {}).filter(function (t) { return view.spell_tokens[t].region === region; });
    var window_ = view.window && view.window.region === region;
    return h("section", {class: "panel", dataset: {zone: "region_" + (region === null ? "transit" : region), count: loose.length},
                         style: {"box-shadow": window_ ? "0 0 0 2px var(--warn)" : null, "min-width": "0",
                                 "grid-column": fights.length ? "1 / -1" : null}},
      h("h3", null, region === null ? "In transit" : "Region " + region,
        homeOf.length ? h("span", {class: "muted"}, " · home of " + homeOf.join(" & ")) : null,
        window_ ? h("span", {class: "v-flag v-flag-turn", style: {"margin-left": ".4rem"}}, V.humanize(view.window.stage).toLowerCase()) : null),
      h("div", {class: "v-row"}, loose.length ? loose.map(function (uid) { return unit(uid, view, ctx); }) : h("span", {class: "muted"}, "no units")),
      tokens.length ? h("div", {class: "v-line"}, h("span", {class: "stat-label"}, "Spell tokens"), tokens.map(function (t) {
        return h("span", {class: "chip"}, cardName(t) + " (" + V.seatName(ctx, view.spell_tokens[t].controller) + ", X=" + view.spell_tokens[t].x + ")");
      })) : null,
      fights.map(function (f) { return formation(f, view, ctx); }));
  }

  function hiddenOrCards(value, zoneKey, title, empty) {
    var hidden = !Array.isArray(value), count = countOf(value);
    return h("section", {class: "zone"}, h("h4", {class: "zone-title"}, title, h("span", {class: "zone-count"}, String(count))),
      hidden ? h("div", {class: "zone-body", dataset: {zone: zoneKey, count: count, hidden: "true"}}, V.cardBacks(count))
        : h("div", {class: "zone-body", dataset: {zone: zoneKey, count: count}},
          count ? value.map(function (c) { return V.card(cardName(c), {class: "card-small", title: String(c), dataset: {target: c}}); }) : h("span", {class: "muted"}, empty || "none")));
  }

  function intent(p, ctx) {
    var i = p.intent;
    if (i === null || i === undefined || (i && i.hidden === false)) return null;
    if (Array.isArray(i)) {
      return h("div", {class: "v-line", dataset: {zone: "intent", count: i.length}}, h("span", {class: "v-flag v-flag-info"}, "intent card"),
        i.length ? i.map(function (f) { return h("span", {class: "chip"}, "attack " + V.seatName(ctx, f.target) + " with " + V.plural(f.columns.length, "column")); })
          : h("span", {class: "muted"}, "no attack"));
    }
    return h("div", {class: "v-line", dataset: {zone: "intent", count: 0, hidden: "true"}},
      h("span", {class: "v-flag v-flag-warn"}, "intent card face down"), h("span", {class: "muted"}, "revealed when all flip"));
  }

  function player(p, s, view, seat, ctx) {
    var isMe = s === seat;
    var flags = [];
    if (view.setup !== "1v1" && view.setup !== "ffa") flags.push(h("span", {class: "v-tag"}, "team " + view.team[s]));
    flags.push(h("span", {class: "v-tag", title: "home region"}, view.home[s]));
    if (view.initiative === s) flags.push(h("span", {class: "v-flag v-flag-info", title: "has the initiative"}, "initiative"));
    if (p.out) flags.push(h("span", {class: "v-flag v-flag-bad"}, "out"));
    var life = Math.max(0, p.life), total = p.resources.length;
    var byKind = {};
    p.resources.forEach(function (r) { var k = byKind[r.kind] = byKind[r.kind] || {n: 0, ready: 0, element: r.element}; k.n++; if (!r.expended) k.ready++; });
    return h("section", {class: "panel player seat-" + s + (isMe ? " me" : "") + (p.out ? " out" : ""), dataset: {seat: s}},
      h("header", {class: "v-player-head"},
        h("h3", null, ctx.names[s] || "seat " + s, isMe ? h("span", {class: "you"}, ctx.me === s ? "you" : "their view") : null), flags),
      h("div", {class: "v-line"},
        h("strong", {dataset: {stat: "life", value: p.life}, title: "life"}, "♥ " + p.life),
        h("span", {class: "v-bar" + (life > START_LIFE / 2 ? " good" : "")}, h("span", {style: {width: Math.min(100, 100 * life / START_LIFE) + "%"}})),
        V.stat("mana", mana(p) + " / " + total, {dataset: {stat: "mana", value: mana(p)}, title: "resources not expended / in play"})),
      h("div", {class: "v-line", dataset: {zone: "resources", count: total}, style: {"flex-wrap": "wrap"}},
        h("span", {class: "stat-label"}, "Resources"),
        Object.keys(byKind).map(function (k) {
          var r = byKind[k];
          return h("span", {class: "chip", title: r.ready + " of " + r.n + " ready" + (r.element ? " · " + r.element : ""),
                            style: {"border-left": "4px solid " + (ELEMENT[r.element] || "#b8ab8f")}}, k + " " + r.ready + "/" + r.n);
        }),
        total ? null : h("span", {class: "muted"}, "none"),
        countOf(p.dormant) ? h("span", {class: "chip", dataset: {stat: "dormant", value: countOf(p.dormant)}, title: "face-down resources"}, "+" + countOf(p.dormant) + " dormant") : null),
      intent(p, ctx),
      h("div", {style: {display: "flex", gap: "1rem", "flex-wrap": "wrap"}},
        h("div", {style: {flex: "1 1 auto"}}, hiddenOrCards(p.hand, "hand", "Hand", "empty")),
        countOf(p.pack) || Array.isArray(p.pack) && view.pack_turns ? hiddenOrCards(p.pack, "pack", "Pack") : null),
      h("div", {class: "v-stats"},
        V.stat("bin", p.bin.length, {dataset: {stat: "bin", value: p.bin.length}, title: p.bin.map(cardName).join(", ") || "empty"}),
        typeof view.decks[p.deck] === "object" ? V.stat("deck", view.decks[p.deck].count, {dataset: {stat: "deck", value: view.decks[p.deck].count}, title: "deck " + p.deck}) : null,
        p.exchanges_left ? V.stat("exchanges left", p.exchanges_left) : null));
  }

  function stackItem(item, ctx) {
    return h("div", {class: "card card-small", dataset: {effect: item.id}, style: {"border-left": "4px solid " + seatColour(item.controller)}},
      h("span", {class: "card-name"}, item.card ? cardName(item.card) : V.humanize(String(item.kind))),
      h("span", {class: "card-sub"}, V.humanize(String(item.kind)).toLowerCase() + " · " + V.seatName(ctx, item.controller) +
        (item.targets && item.targets.length ? " → " + item.targets.map(function (t) { return cardName(String(t).replace(/^player:(\d+)$/, function (m, n) { return V.seatName(ctx, Number(n)); })); }).join(", ") : "")));
  }

  function render(view, seat, container, ctx) {
    var step = view.step || {};
    var formations = (view.battle || {}).formations || [];
    var busy = {};
    formations.forEach(function (f) { f.columns.concat(f.blocks || []).forEach(function (col) { col.forEach(function (uid) { busy[uid] = true; }); }); });
    var regions = [];
    view.home.forEach(function (r) { if (regions.indexOf(r) < 0) regions.push(r); });
    Object.keys(view.shown_units).forEach(function (uid) { var r = view.shown_units[uid].region; if (r !== null && regions.indexOf(r) < 0) regions.push(r); });
    var transit = formations.some(function (f) { return f.region === null; }) ||
      Object.keys(view.shown_units).some(function (uid) { return view.shown_units[uid].region === null && !busy[uid]; });
    var decks = Object.keys(view.decks).map(function (k) {
      return h("div", {class: "v-line"}, h("span", {class: "stat-label", style: {"min-width": "3rem"}}, k),
        h("div", {dataset: {zone: "deck_" + k, count: countOf(view.decks[k]), hidden: "true"}}, V.cardBacks(countOf(view.decks[k]))));
    });
    var stack = view.stack.slice().reverse();
    var center = h("div", {class: "v-center"},
      h("div", {class: "v-turn"},
        h("div", {class: "v-turn-line"}, "Turn ", h("strong", {dataset: {stat: "turn", value: view.turn}}, String(view.turn)), h("span", {class: "muted"}, " of " + view.turn_limit)),
        h("div", null, "Initiative: ", h("strong", {dataset: {stat: "initiative", value: view.initiative}}, V.seatName(ctx, view.initiative))),
        h("div", {class: "muted"}, (view.setup === "ffa" ? "FFA" : V.humanize(view.setup)) + " · " + V.humanize(view.format).toLowerCase()),
        !view.over ? h("div", null, "Step: " + V.humanize(String(step.k || "—")).toLowerCase() +
          (view.window ? " (" + V.humanize(view.window.stage).toLowerCase() + " in " + view.window.region + ")" : "")) : null,
        !view.over && view.script.length ? h("div", {class: "muted"}, "Then: " + view.script.slice(0, 5).map(function (k) { return V.humanize(k).toLowerCase(); }).join(" › ")) : null,
        view.over ? h("div", {class: "v-banner"}, "Game over: " + V.humanize(String(view.over)).toLowerCase()) : null),
      h("section", {class: "zone"}, h("h4", {class: "zone-title"}, "The stack (top first)", h("span", {class: "zone-count"}, String(stack.length))),
        h("div", {class: "zone-body", dataset: {zone: "stack", count: stack.length}, style: {"flex-direction": "column"}},
          stack.length ? stack.map(function (item) { return stackItem(item, ctx); }) : h("span", {class: "muted"}, "empty"))),
      view.choice ? h("div", {class: "v-prompt"}, "Waiting for a choice: " + V.humanize(String(view.choice.kind)).toLowerCase() +
        (view.choice.queue && view.choice.queue.length ? " (" + view.choice.queue.map(function (s) { return V.seatName(ctx, s); }).join(", ") + ")" : "")) : null,
      h("section", {class: "zone"}, h("h4", {class: "zone-title"}, "Decks"), decks),
      view.cube ? h("div", {class: "muted"}, "Cube pool: " + countOf(view.cube.pool) + " cards") : null);
    container.appendChild(h("div", {class: "v-table"}, center,
      h("div", null,
        h("div", {class: "v-players"}, view.players.map(function (p, s) { return player(p, s, view, seat, ctx); })),
        h("div", {style: {display: "grid", "grid-template-columns": "repeat(auto-fit, minmax(min(320px, 100%), 1fr))", gap: ".65rem", "margin-top": ".65rem"}},
          regions.map(function (r) { return regionBox(r, view, busy, ctx); }), transit ? regionBox(null, view, busy, ctx) : null))));
  }

  V.register("algomancy", {render: render});
})();
