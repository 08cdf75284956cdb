/* Cybermancy in the browser: draws view(state, seat) from view.py (contract: service/web/README.md).
 * Hidden Creature Hands and decks arrive as counts and are drawn as card backs. */
(function () {
  "use strict";
  var V = window.ArbiterViewer, h = V.h;
  var STARTING_HEALTH = 30;  // rules_state.START_HEALTH
  var uidCards = {};  // creature uid -> card, learnt from the log's summon facts (per match)

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
    var toAct = !view.over && (view.prompt ? view.prompt.seat === p.seat : view.turn === p.seat);
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
          view.turn !== null && view.turn !== undefined && !view.over ? h("div", null, h("strong", null, V.seatName(ctx, view.turn)), " to act") : null,
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
    return c ? V.humanize(c.card) : uidName(option, ctx);
  }

  function uidName(uid, ctx) {
    if (typeof uid === "string" && uid.indexOf("cybermancer:") === 0) return V.seatName(ctx, Number(uid.split(":")[1]));
    var known = (uidCards[ctx.matchId] || {})[uid];
    return known ? V.humanize(known) : String(uid);
  }

  function learn(fact, ctx) {
    if (fact.f === "summon" && fact.uid) (uidCards[ctx.matchId] = uidCards[ctx.matchId] || {})[fact.uid] = fact.card;
  }

  function describeFact(fact, ctx) {
    var who = function (s) { return V.seatName(ctx, s); };
    learn(fact, ctx);
    switch (fact.f) {
      case "summon": return who(fact.seat) + " summons " + V.humanize(fact.card) + " to the " + (fact.area === "main" ? "main area" : fact.area) + " (" + fact.status + ")";
      case "spend": return who(fact.seat) + " spends " + fact.card;
      case "power": return who(fact.seat) + " gets " + fact.kind.toUpperCase() + " card " + fact.card;
      case "power_back": return who(fact.seat) + " puts " + fact.card + " back";
      case "power_order": return "The " + fact.kind.toUpperCase() + " deck is shuffled";
      case "deck_order": return who(fact.seat) + "'s deck is shuffled";
      case "round": return "Round " + fact.number + " begins; initiative: " + who(fact.initiative);
      case "turn": return who(fact.seat) + " to act";
      case "acted": return fact.attack ? "" : "";
      case "pass": return "Pass";
      case "queue": return "";
      case "phase": return "Phase: " + V.humanize(fact.phase).toLowerCase();
      case "draw": return who(fact.seat) + " draws " + (fact.card ? V.humanize(fact.card) : "a hidden card");
      case "to_deck": return who(fact.seat) + " puts " + (fact.card ? V.humanize(fact.card) : "a hidden card") + " into the deck";
      case "refresh": return "Creatures and power refresh";
      case "track": return who(fact.seat) + " advances the " + fact.kind.toUpperCase() + " track";
      case "health": return who(fact.seat) + (fact.delta < 0 ? " takes " + (-fact.delta) + " damage" : " heals " + fact.delta);
      case "creature":
        return uidName(fact.uid, ctx) + ": " + Object.keys(fact.set || {}).map(function (k) { return k + " " + V.phrase(fact.set[k], ctx); }).join(", ");
      case "destroyed": return uidName(fact.uid, ctx) + " is destroyed";
      case "promote": return uidName(fact.uid, ctx) + " is promoted to the frontline";
      case "out": return who(fact.seat) + " is defeated";
      case "over": return "Game over (" + V.humanize(fact.reason).toLowerCase() + ")";
      case "prompt": return fact.prompt ? who(fact.prompt.seat) + " must choose (" + V.humanize(fact.prompt.kind).toLowerCase() + ")" : "";
      case "pending": return "";
      case "owed": return "";
      default: return null;
    }
  }

  function describeAction(action, ctx) {
    var list = function (xs) { return Array.isArray(xs) ? xs.join(", ") : xs + " hidden"; };
    switch (action.type) {
      case "summon": return "summons " + V.humanize(action.card) + " paying " + list((action.cpu || []).concat(action.ram || []));
      case "attack": return "attacks " + uidName(action.target, ctx) + " with " + uidName(action.attacker, ctx);
      case "end_turn": return "ends the turn";
      case "pass": return "passes";
      case "advance": return "advances the " + String(action.track).toUpperCase() + " track";
      case "choose": return action.option === undefined ? "chooses" : "chooses " + uidName(action.option, ctx);
      case "mulligan":
        var n = Array.isArray(action.creatures) ? action.creatures.length : action.creatures;
        var p = (action.cpu || []).length + (action.ram || []).length;
        return n || p ? "mulligans " + V.plural(n, "creature") + " and " + V.plural(p, "power card") : "keeps the opening hand";
      default: return null;
    }
  }

  V.register("cybermancy", {
    render: render,
    describeFact: describeFact,
    describe: function (record, ctx) {
      if (record.type !== "ActionTaken") return null;
      var facts = (record.data.facts || []).map(function (f) { var t = describeFact(f, ctx); return t === null ? V.describeFact(f, ctx) : t; })
        .filter(function (t) { return t; });
      var text = describeAction(record.data.action || {}, ctx) || V.describeAction(record.data.action, ctx);
      return {who: V.seatName(ctx, record.data.seat), text: text, facts: facts};
    }
  });
})();
