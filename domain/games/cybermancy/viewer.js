/* Cybermancy in the browser: draws view(state, seat) from view.py (contract: service/web/README.md).
 * Hidden Creature Hands and decks arrive as counts and are drawn as card backs. */
(function () {
  "use strict";
  var V = window.ArbiterViewer, h = V.h;
  var STARTING_HEALTH = 30;  // rules_state.START_HEALTH

  function creature(c, owner, ctx) {
    var left = c.health - c.damage;
    var cls = "card creature" + (c.status === "exhausted" ? " tapped" : c.status === "active" ? " ready" : "") + (c.damage ? " damaged" : "");
    return h("div", {class: cls, title: V.humanize(c.card) + " — " + c.status + (c.crawler ? ", crawler" : ""),
                     dataset: {card: c.card, uid: c.uid, attack: c.attack, health: left, status: c.status}},
      h("span", {class: "card-name"}, V.humanize(c.card)),
      h("span", {class: "card-sub"}, c.status + (c.crawler ? " · crawler" : "") + (c.owner !== owner ? " · " + V.seatName(ctx, c.owner) + "'s" : "")),
      h("span", {class: "card-foot"},
        h("span", {class: "atk", title: "attack"}, "⚔ " + c.attack),
        h("span", {class: "hp", title: "health left of " + c.health}, "♥ " + left + (c.damage ? "/" + c.health : ""))));
  }

  function row(title, zoneKey, items, ctx, owner) {
    return h("section", {class: "zone"},
      h("h4", {class: "zone-title"}, title, h("span", {class: "zone-count"}, String(items.length))),
      h("div", {class: "v-row", dataset: {zone: zoneKey, count: items.length}},
        items.length ? items.map(function (c) { return creature(c, owner, ctx); }) : h("span", {class: "muted"}, "empty")));
  }

  function power(kind, p) {
    var cards = p[kind];
    return h("div", {class: "v-line", dataset: {zone: kind, count: cards.length}},
      h("strong", {style: {"min-width": "2.6rem"}}, kind.toUpperCase()),
      V.stat("track", p.track[kind], {dataset: {stat: kind + "_track", value: p.track[kind]}, title: kind.toUpperCase() + " track"}),
      V.stat("pool", p.pool[kind], {dataset: {stat: kind + "_pool", value: p.pool[kind]}, title: kind.toUpperCase() + " in the pool"}),
      h("span", {class: "chips"}, cards.length ? cards.map(function (c) { return h("span", {class: "chip power", title: c}, c.replace(/^(cpu|ram)-/, "#")); })
        : h("span", {class: "muted"}, "no cards")));
  }

  function player(p, view, seat, ctx) {
    var isMe = p.seat === seat;
    var toAct = (ctx.toAct || []).indexOf(p.seat) >= 0;  // whom the rules ask (the board answer's to_act)
    var flags = [];
    if (p.team !== null && p.team !== undefined) flags.push(h("span", {class: "v-tag"}, "team " + (Number(p.team) + 1)));
    if (p.out) flags.push(h("span", {class: "v-flag v-flag-bad"}, "defeated"));
    if (view.initiative === p.seat) flags.push(h("span", {class: "v-flag v-flag-info", title: "has the initiative this round"}, "initiative"));
    if (toAct) flags.push(h("span", {class: "v-flag v-flag-turn"}, view.prompt ? "choosing" : "to act"));
    if (view.winners && view.winners.indexOf(p.seat) >= 0) flags.push(h("span", {class: "v-flag v-flag-info"}, "winner"));
    var hand = Array.isArray(p.hand)
      ? h("div", {class: "v-row", dataset: {zone: "hand", count: p.hand.length}},
          p.hand.length ? p.hand.map(function (c) { return V.card(c, {class: "card-small"}); }) : h("span", {class: "muted"}, "empty"))
      : h("div", {class: "v-row", dataset: {zone: "hand", count: p.hand, hidden: "true"}}, V.cardBacks(p.hand));
    var handCount = Array.isArray(p.hand) ? p.hand.length : p.hand;
    var health = Math.max(0, p.health);
    return h("section", {class: "panel player seat-" + p.seat + (isMe ? " me" : "") + (p.out ? " out" : "") + (toAct ? " turn" : ""),
                         dataset: {seat: p.seat}},
      h("header", {class: "v-player-head"},
        h("h3", null, ctx.names[p.seat] || "seat " + p.seat, isMe ? h("span", {class: "you", title: "the view is this seat's"}, ctx.me === p.seat ? "you" : "their view") : null), flags),
      h("div", {class: "v-line"},
        h("strong", {dataset: {stat: "health", value: p.health}, title: "health"}, "♥ " + p.health),
        h("span", {class: "v-bar" + (health > STARTING_HEALTH / 2 ? " good" : "")},
          h("span", {style: {width: Math.min(100, 100 * health / STARTING_HEALTH) + "%"}})),
        V.stat("deck", p.deck, {dataset: {stat: "deck", value: p.deck}, title: "cards left in the Summoning Deck"}),
        V.stat("graveyard", p.graveyard.length, {dataset: {stat: "graveyard", value: p.graveyard.length}})),
      power("cpu", p), power("ram", p),
      row("Frontline", "frontline", p.frontline, ctx, p.seat),
      row("Main area", "main", p.main, ctx, p.seat),
      h("section", {class: "zone"}, h("h4", {class: "zone-title"}, "Creature hand", h("span", {class: "zone-count"}, String(handCount))), hand),
      p.graveyard.length ? h("details", {class: "v-pile"},
        h("summary", {class: "zone-title"}, "Graveyard · " + p.graveyard.length + " · show"),
        h("div", {class: "zone-body", dataset: {zone: "graveyard", count: p.graveyard.length}},
          p.graveyard.map(function (c) { return V.card(c, {class: "card-small"}); }))) : null);
  }

  function render(view, seat, container, ctx) {
    var prompt = null;
    if (view.prompt) {
      prompt = h("div", {class: "v-prompt", dataset: {promptSeat: view.prompt.seat}},
        h("strong", null, V.seatName(ctx, view.prompt.seat)), " must choose: " + V.humanize(view.prompt.kind).toLowerCase(),
        view.prompt.options ? h("div", {class: "zone-body"}, view.prompt.options.map(function (o) {
          return h("span", {class: "chip"}, optionName(o, view, ctx));
        })) : null);
    }
    container.appendChild(h("div", {class: "v-table"},
      h("div", {class: "v-center"},
        h("div", {class: "v-turn"},
          h("div", {class: "v-turn-line"}, "Round ", h("strong", {dataset: {stat: "round", value: view.round}}, String(view.round))),
          h("div", null, "Phase: " + V.humanize(view.phase || "").toLowerCase()),
          (ctx.toAct || []).length ? h("div", null, h("strong", null, ctx.toAct.map(function (w) { return V.seatName(ctx, w); }).join(", ")), " to act") : null,
          h("div", {class: "muted"}, "Initiative: " + V.seatName(ctx, view.initiative) + (view.mode !== "standard" ? " · " + view.mode : "")),
          view.over ? h("div", {class: "v-banner"}, "Game over: " + V.humanize(view.over).toLowerCase() +
            (view.winners && view.winners.length ? " — " + view.winners.map(function (w) { return V.seatName(ctx, w); }).join(" & ") + " won" : "")) : null),
        h("section", {class: "zone"}, h("h4", {class: "zone-title"}, "CPU deck"),
          h("div", {class: "zone-body", dataset: {zone: "cpu_deck", count: view.cpu_deck}}, V.cardBacks(view.cpu_deck))),
        h("section", {class: "zone"}, h("h4", {class: "zone-title"}, "RAM deck"),
          h("div", {class: "zone-body", dataset: {zone: "ram_deck", count: view.ram_deck}}, V.cardBacks(view.ram_deck))),
        view.draft_pool && view.draft_pool.length ? h("section", {class: "zone"}, h("h4", {class: "zone-title"}, "Draft pool"),
          h("div", {class: "zone-body"}, view.draft_pool.map(function (c) { return V.card(c, {class: "card-small"}); }))) : null,
        prompt),
      h("div", {class: "v-players"}, view.players.map(function (p) { return player(p, view, seat, ctx); }))));
  }

  function findCreature(uid, view) {
    for (var i = 0; view && i < view.players.length; i++) {
      var all = view.players[i].frontline.concat(view.players[i].main);
      for (var j = 0; j < all.length; j++) if (all[j].uid === uid) return all[j];
    }
    return null;
  }

  function optionName(option, view, ctx) {
    if (typeof option === "string" && option.indexOf("cybermancer:") === 0) return V.seatName(ctx, Number(option.split(":")[1]));
    var c = typeof option === "string" ? findCreature(option, view) : null;
    return c ? V.humanize(c.card) : "a creature";
  }

  V.register("cybermancy", {render: render});
})();
