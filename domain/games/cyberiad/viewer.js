/* Cyberiad in the browser: draws view(state, seat) from view.py (contract: service/web/README.md).
 * Hidden hands arrive as counts and are drawn as card backs; nothing else is hidden here. */
(function () {
  "use strict";
  var V = window.ArbiterViewer, h = V.h;


  function cardList(cards, cls) {
    return cards.length ? cards.map(function (c) { return V.card(c, {class: cls}); }) : h("span", {class: "muted"}, "none");
  }

  function player(p, view, seat, ctx) {
    var isMe = p.seat === seat;
    var toMove = (ctx.toAct || []).indexOf(p.seat) >= 0;  // whom the rules ask (the board answer's to_act)
    var flags = [];
    if (p.out) flags.push(h("span", {class: "v-flag v-flag-bad"}, "out"));
    if (p.shielded) flags.push(h("span", {class: "v-flag v-flag-info", title: "shielded"}, "shielded"));
    if (p.imprisoned) flags.push(h("span", {class: "v-flag v-flag-warn", title: "imprisoned for " + p.imprisoned + " turn(s)"}, "imprisoned " + p.imprisoned));
    if (toMove) flags.push(h("span", {class: "v-flag v-flag-turn"},
      view.prompt ? "choosing" : view.phase === "pick" ? "picking a Constructor" : "to play"));
    var hand = Array.isArray(p.hand)
      ? h("div", {class: "zone-body", dataset: {zone: "hand", count: p.hand.length}}, cardList(p.hand))
      : h("div", {class: "zone-body", dataset: {zone: "hand", count: p.hand, hidden: "true"}}, V.cardBacks(p.hand));
    var handCount = Array.isArray(p.hand) ? p.hand.length : p.hand;
    return h("section", {class: "panel player seat-" + p.seat + (isMe ? " me" : "") + (p.out ? " out" : "") + (toMove ? " turn" : ""),
                         dataset: {seat: p.seat}},
      h("header", {class: "v-player-head"},
        h("h3", null, ctx.names[p.seat] || "seat " + p.seat, isMe ? h("span", {class: "you", title: "the view is this seat's"}, ctx.me === p.seat ? "you" : "their view") : null),
        h("span", {class: "v-tag", dataset: {constructor: p.constructor || ""}}, p.constructor ? V.humanize(p.constructor) : "no Constructor yet"),
        flags),
      h("div", {class: "v-stats"},
        V.stat("Fame", p.fame, {dataset: {stat: "fame", value: p.fame}, title: "Fame (cards and tokens)"}),
        V.stat("Trouble", p.trouble, {dataset: {stat: "trouble", value: p.trouble}, title: "Trouble (cards and tokens)"}),
        V.stat("Genius", p.tokens.genius, {dataset: {stat: "genius", value: p.tokens.genius}}),
        V.stat("Sallies", p.sallies, {dataset: {stat: "sallies", value: p.sallies}}),
        V.stat("Hand limit", p.hand_limit, {dataset: {stat: "hand_limit", value: p.hand_limit}})),
      h("section", {class: "zone"}, h("h4", {class: "zone-title"}, "Hand", h("span", {class: "zone-count"}, String(handCount))), hand),
      h("section", {class: "zone"}, h("h4", {class: "zone-title"}, "In play", h("span", {class: "zone-count"}, String(p.in_play.length))),
        h("div", {class: "zone-body", dataset: {zone: "in_play", count: p.in_play.length}}, cardList(p.in_play))));
  }

  function render(view, seat, container, ctx) {
    var turn = view.turn || {};
    var top = view.discard.length ? view.discard[view.discard.length - 1] : null;
    var discard = h("details", {class: "v-pile", dataset: {zone: "discard", count: view.discard.length}},
      h("summary", null, top ? V.card(top, {title: "top of the discard pile"}) : h("span", {class: "muted"}, "empty"),
        h("span", {class: "backs-count"}, "×" + view.discard.length + (view.discard.length ? " · show all" : ""))),
      h("div", {class: "zone-body"}, view.discard.slice().reverse().map(function (c) { return V.card(c, {class: "card-small"}); })));
    var prompt = null;
    if (view.prompt) {
      prompt = h("div", {class: "v-prompt", dataset: {promptSeat: view.prompt.seat}},
        h("strong", null, V.seatName(ctx, view.prompt.seat)), " must choose: ", V.humanize(view.prompt.kind).toLowerCase(),
        view.prompt.actor !== view.prompt.seat ? " (for " + V.seatName(ctx, view.prompt.actor) + ")" : "",
        view.prompt.options ? h("div", {class: "zone-body"}, view.prompt.options.map(function (o) { return V.card(String(o), {class: "card-small"}); })) : null);
    }
    var over = view.over ? h("div", {class: "v-banner"}, "Game over: " + V.humanize(view.over).toLowerCase()) : null;
    container.appendChild(h("div", {class: "v-table"},
      h("div", {class: "v-center"},
        h("div", {class: "v-turn"},
          h("div", {class: "v-turn-line"}, "Turn ", h("strong", {dataset: {stat: "turn", value: turn.number}}, String(turn.number)),
            turn.seat !== null && turn.seat !== undefined ? [" · ", h("strong", null, V.seatName(ctx, turn.seat)), " to play"] : null),
          h("div", {class: "muted"}, "Phase: " + V.humanize(view.phase).toLowerCase() +
            (turn.played ? " · has played a card" : "") +
            (turn.used && turn.used.length ? " · used " + turn.used.map(V.humanize).join(", ") : "") +
            (view.first !== null && view.first !== undefined ? " · first player " + V.seatName(ctx, view.first) : "")),
          over),
        h("section", {class: "zone"}, h("h4", {class: "zone-title"}, "Deck"),
          h("div", {class: "zone-body", dataset: {zone: "deck", count: view.deck}}, V.cardBacks(view.deck))),
        h("section", {class: "zone"}, h("h4", {class: "zone-title"}, "Discard"), discard),
        prompt),
      h("div", {class: "v-players"}, view.players.map(function (p) { return player(p, view, seat, ctx); }))));
  }

  V.register("cyberiad", {render: render});
})();
