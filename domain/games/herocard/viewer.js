/* HeroCard in the browser: draws view(state, seat) from view.py (contract: service/web/README.md).
 * Other Heroes' hands and every deck arrive as counts and are drawn as backs; another Hero's
 * deployed Secret Cards arrive face down with only the points they expend, and are drawn so. */
(function () {
  "use strict";
  var V = window.ArbiterViewer, h = V.h;

  function seatColour(seat) { return "var(--seat" + (seat % 6) + ")"; }
  function names(seats, ctx) { return (seats || []).map(function (s) { return V.seatName(ctx, s); }).join(" & "); }

  /* One card deployed on an Attribute: face up, or a Secret Card (face down; its name only for its owner). */
  function deployed(entry) {
    var sub = "expends " + entry.cost + " · turn " + entry.turn;
    if (entry.card === null) {
      return h("div", {class: "card card-small", title: "a face-down Secret Card expending " + entry.cost + " points",
                       dataset: {secret: "true", uid: entry.uid, cost: entry.cost},
                       style: {background: "repeating-linear-gradient(45deg, #3b4a6b, #3b4a6b 4px, #4d5f86 4px, #4d5f86 8px)", color: "#fff"}},
        h("span", {class: "card-name"}, "Secret"), h("span", {style: {"font-size": ".7rem"}}, sub));
    }
    return V.card(entry.card, {class: "card-small" + (entry.face === "down" ? " tapped" : ""), dataset: {uid: entry.uid, cost: entry.cost},
      title: V.humanize(entry.card) + (entry.face === "down" ? " (face down: only you see it)" : ""),
      body: h("span", {class: "card-sub"}, (entry.face === "down" ? "face down · " : "") + sub)});
  }

  function attributeRow(p, attribute, label) {
    var free = p.free[attribute], score = p.scores[attribute], stack = p.stacks[attribute] || [];
    var twisted = p.twisted.indexOf(attribute) >= 0;
    return h("div", {class: "hc-attribute", style: {display: "grid", "grid-template-columns": "7.5rem minmax(0, 1fr)", gap: ".5rem",
      "align-items": "start", padding: ".3rem 0", "border-top": "1px solid #eee8dc"}},
      h("div", null,
        h("div", null, h("strong", null, label), twisted ? h("span", {class: "v-flag v-flag-bad", style: {"margin-left": ".3rem"}}, "twisted") : null),
        h("div", {class: "v-line", title: free + " of " + score + " points free"},
          h("strong", {dataset: {stat: "free_" + attribute, value: free}}, String(free)),
          h("span", {class: "muted", dataset: {stat: "score_" + attribute, value: score}}, "/ " + score),
          h("span", {class: "v-bar good", style: {"min-width": "40px"}}, h("span", {style: {width: (score ? Math.max(0, Math.min(100, 100 * free / score)) : 0) + "%"}})))),
      h("div", {class: "v-row", dataset: {zone: "stack_" + attribute, count: stack.length}},
        stack.length ? stack.map(deployed) : h("span", {class: "muted"}, "no cards")));
  }

  function hero(p, view, seat, ctx) {
    var isMe = p.seat === seat;
    var toAct = (ctx.toAct || []).indexOf(p.seat) >= 0;  // whom the rules ask (the board answer's to_act)
    var flags = [h("span", {class: "v-tag"}, V.humanize(p.hero))];
    if (view.teams) flags.push(h("span", {class: "v-tag", title: "partners sit opposite"}, "team " + (p.seat % 2 ? "B" : "A")));
    if (view.turn.active === p.seat && !view.over) flags.push(h("span", {class: "v-flag v-flag-info"}, V.humanize(view.turn.phase).toLowerCase() + " phase"));
    if (toAct) flags.push(h("span", {class: "v-flag v-flag-turn"}, "to act"));
    if (p.skip_turns) flags.push(h("span", {class: "v-flag v-flag-warn"}, "skips " + V.plural(p.skip_turns, "turn")));
    if (p.preference) flags.push(h("span", {class: "v-flag"}, "prefers " + V.humanize(p.preference)));
    if (view.winners && view.winners.indexOf(p.seat) >= 0) flags.push(h("span", {class: "v-flag v-flag-info"}, "winner"));
    var hidden = !Array.isArray(p.hand), count = hidden ? p.hand : p.hand.length;
    var top = p.discard.length ? p.discard[p.discard.length - 1] : null;
    return h("section", {class: "panel player seat-" + p.seat + (isMe ? " me" : "") + (toAct ? " turn" : ""), dataset: {seat: p.seat}},
      h("header", {class: "v-player-head"},
        h("h3", null, ctx.names[p.seat] || "seat " + p.seat, isMe ? h("span", {class: "you"}, ctx.me === p.seat ? "you" : "their view") : null), flags),
      h("div", {class: "v-stats"},
        h("span", {class: "stat", title: "Victory Points (" + view.goal + " win)", dataset: {stat: "vp", value: p.vp},
                   style: {background: "#ffe7a8"}}, h("span", {class: "stat-label"}, "VP"), h("span", {class: "stat-value"}, p.vp + " / " + view.goal)),
        V.stat("deck", p.deck, {dataset: {stat: "deck", value: p.deck}, title: "cards left in the deck"}),
        V.stat("discard", p.discard.length, {dataset: {stat: "discard", value: p.discard.length}})),
      Object.keys(view.attribute_names).map(function (a) { return attributeRow(p, a, view.attribute_names[a]); }),
      h("section", {class: "zone"}, h("h4", {class: "zone-title"}, "Hand", h("span", {class: "zone-count"}, String(count))),
        hidden ? h("div", {class: "zone-body", dataset: {zone: "hand", count: count, hidden: "true"}}, V.cardBacks(count))
          : h("div", {class: "zone-body", dataset: {zone: "hand", count: count}},
            count ? p.hand.map(function (c) { return V.card(c, {class: "card-small"}); }) : h("span", {class: "muted"}, "empty"))),
      h("details", {class: "v-pile"},
        h("summary", {class: "zone-title"}, "Discard · " + p.discard.length + (top ? " · top: " + V.humanize(top) + " · show all" : "")),
        h("div", {class: "zone-body", dataset: {zone: "discard", count: p.discard.length}},
          p.discard.slice().reverse().map(function (c) { return V.card(c, {class: "card-small"}); }))));
  }

  function sequence(seq, ctx) {
    if (!seq) return null;
    return h("div", {class: "v-prompt", dataset: {zone: "sequence", count: seq.played.length}},
      h("div", null, h("strong", null, "Attack Sequence"), seq.duplicate ? " (duplicate)" : ""),
      h("div", null, names(seq.attack, ctx) || V.seatName(ctx, seq.owner), " attack ", names(seq.block, ctx) || V.seatName(ctx, seq.target)),
      h("div", {class: "v-stats", style: {margin: ".3rem 0"}},
        V.stat("attack", seq.attack_value, {dataset: {stat: "attack_value", value: seq.attack_value}}),
        V.stat("block", seq.block_value, {dataset: {stat: "block_value", value: seq.block_value}})),
      h("div", {class: "zone-body"}, seq.played.map(function (e) {
        return V.card(e.card, {class: "card-small", dataset: {uid: e.uid}, body: h("span", {class: "card-sub", style: {color: seatColour(e.seat)}},
          V.seatName(ctx, e.seat) + " · " + V.humanize(String(e.kind)).toLowerCase() +
          (e.value !== null && e.value !== undefined ? " " + (/mod$/.test(e.kind) && e.value >= 0 ? "+" : "") + e.value : ""))});
      })));
  }

  function render(view, seat, container, ctx) {
    var turn = view.turn, last = view.last_result;
    var center = h("div", {class: "v-center"},
      h("div", {class: "v-turn"},
        h("div", {class: "v-turn-line"}, "Turn ", h("strong", {dataset: {stat: "turn", value: turn.number}}, String(turn.number))),
        !view.over ? h("div", null, h("strong", null, V.seatName(ctx, turn.active)), "'s " + V.humanize(turn.phase).toLowerCase() + " phase") : null,
        !view.over && view.priority !== null ? h("div", {class: "muted"}, "Priority: " + V.seatName(ctx, view.priority) + (view.passes ? " · " + V.plural(view.passes, "pass") : "")) : null,
        h("div", {class: "muted", dataset: {stat: "goal", value: view.goal}}, "First to " + view.goal + " VP wins" + (view.teams ? " · teams" : "")),
        view.over ? h("div", {class: "v-banner"}, "Game over: " + V.humanize(String(view.over)).toLowerCase() +
          (view.winners && view.winners.length ? " — " + names(view.winners, ctx) + " won" : "")) : null),
      sequence(view.sequence, ctx),
      !view.sequence && last ? h("div", {class: "muted", dataset: {zone: "last_result"}}, "Last attack: " + V.seatName(ctx, last.owner) +
        " on " + V.seatName(ctx, last.target) + ", " + last.attack + " vs " + last.block + " — " + (last.success ? "succeeded" : "failed")) : null,
      view.pending ? h("div", {class: "v-prompt"}, h("strong", null, V.seatName(ctx, view.pending.seat)), " must discard " +
        V.plural(view.pending.count, "card") + (view.pending.of ? " (" + V.humanize(String(view.pending.of)).toLowerCase() + ")" : "")) : null);
    container.appendChild(h("div", {class: "v-table"}, center,
      h("div", {class: "v-players", style: {"grid-template-columns": "repeat(auto-fit, minmax(min(380px, 100%), 1fr))"}},
        view.players.map(function (p) { return hero(p, view, seat, ctx); }))));
  }

  V.register("herocard", {render: render});
})();
