/* Arbiter viewer core: safe DOM building, the public API client, the renderer registry and
 * the generic renderer. No dependencies, no build step. Every piece of data reaches the page
 * as text nodes or attribute values (never parsed as HTML). Contract: service/web/README.md. */
(function () {
  "use strict";

  /* h("div", {class: "x", title: t, onclick: f, dataset: {seat: 1}}, child, [children], "text") */
  function h(tag, attrs) {
    var el = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (key) {
        var value = attrs[key];
        if (value === null || value === undefined || value === false) return;
        if (key === "class") el.className = value;
        else if (key === "dataset") Object.keys(value).forEach(function (k) { el.dataset[k] = String(value[k]); });
        else if (key === "style" && typeof value === "object") Object.keys(value).forEach(function (k) { el.style.setProperty(k, value[k]); });
        else if (key.slice(0, 2) === "on" && typeof value === "function") el.addEventListener(key.slice(2), value);
        else if (key === "text") el.textContent = String(value);
        else el.setAttribute(key, value === true ? "" : String(value));
      });
    }
    for (var i = 2; i < arguments.length; i++) append(el, arguments[i]);
    return el;
  }

  function append(el, child) {
    if (child === null || child === undefined || child === false) return;
    if (Array.isArray(child)) { child.forEach(function (c) { append(el, c); }); return; }
    el.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }

  /* "one-number-5-screw" -> "One Number 5 Screw"; other text is returned as it is. */
  function humanize(id) {
    if (typeof id !== "string") return String(id);
    if (!/^[a-z0-9]+([-_][a-z0-9]+)*$/.test(id)) return id;
    return id.split(/[-_]/).map(function (w) { return w.charAt(0).toUpperCase() + w.slice(1); }).join(" ");
  }

  function plural(n, word) { return n + " " + word + (n === 1 ? "" : /(s|sh|ch|x)$/.test(word) ? "es" : "s"); }

  /* ------------------------------------------------------------------ API client */

  function ApiError(status, body) {
    this.status = status;
    this.body = body || {};
    this.code = this.body.code || "http_" + status;
    this.message = this.body.detail || this.body.title || ("HTTP " + status);
  }
  ApiError.prototype = Object.create(Error.prototype);

  function api(path, token, options) {
    var headers = {"Accept": "application/json"};
    if (token) headers["Authorization"] = "Bearer " + token;
    options = options || {};
    Object.keys(options.headers || {}).forEach(function (k) { headers[k] = options.headers[k]; });
    if (options.json !== undefined) {
      headers["Content-Type"] = "application/json";
      options = Object.assign({}, options, {body: JSON.stringify(options.json)});
      delete options.json;
    }
    var init = Object.assign({cache: "no-store"}, options, {headers: headers});
    var timer = null, seconds = options.timeoutMs / 1000;
    if (options.timeoutMs) {  // given up after that long: a request the server never answers
      var controller = new AbortController();
      init.signal = controller.signal;
      timer = setTimeout(function () { controller.abort(); }, options.timeoutMs);
      delete init.timeoutMs;
    }
    return fetch(path, init).then(function (response) {
      return response.text().then(function (text) {
        var body = null;
        try { body = text ? JSON.parse(text) : null; } catch (e) { body = {detail: text.slice(0, 200)}; }
        if (!response.ok) throw new ApiError(response.status, body);
        return body;
      });
    }, function (error) {  // no answer at all: status 0
      throw new ApiError(0, {code: "no_answer", detail: error && error.name === "AbortError"
        ? "no answer from the server in " + seconds + " s" : "the server cannot be reached"});
    }).finally(function () { clearTimeout(timer); });
  }

  /* `read()` again until it is answered: a second apart, then up to 10 s apart. For reads the
   * page cannot do without (the summary at the end, the log); their errors are passing ones. */
  function untilAnswered(read, wait) {
    wait = wait || 1000;
    return read().catch(function () {
      return new Promise(function (resolve) { setTimeout(resolve, wait); })
        .then(function () { return untilAnswered(read, Math.min(wait * 2, 10000)); });
    });
  }

  var TOKEN_PREFIX = "arbiter-token:";
  var tokens = {
    get: function (matchId) { try { return sessionStorage.getItem(TOKEN_PREFIX + matchId); } catch (e) { return null; } },
    set: function (matchId, token) { try { sessionStorage.setItem(TOKEN_PREFIX + matchId, token); } catch (e) { /* private mode */ } },
    clear: function (matchId) { try { sessionStorage.removeItem(TOKEN_PREFIX + matchId); } catch (e) { /* ignore */ } }
  };
  /* The host token of a lobby this browser opened (it starts the match early). */
  var HOST_PREFIX = "arbiter-host:";
  var hostTokens = {
    get: function (matchId) { try { return sessionStorage.getItem(HOST_PREFIX + matchId); } catch (e) { return null; } },
    set: function (matchId, token) { try { sessionStorage.setItem(HOST_PREFIX + matchId, token); } catch (e) { /* private mode */ } }
  };
  /* The name this browser last played under (a convenience for the join forms). */
  var myName = {
    get: function () { try { return localStorage.getItem("arbiter-name") || ""; } catch (e) { return ""; } },
    set: function (name) { try { localStorage.setItem("arbiter-name", name); } catch (e) { /* private mode */ } }
  };

  /* ------------------------------------------------------------------ renderers */

  var renderers = {};

  /* A game's viewer.js calls ArbiterViewer.register("<game id>", {render: fn}); its log words come from the server. */
  function register(game, renderer) {
    if (!renderer || typeof renderer.render !== "function") throw new Error("a renderer needs render(view, seat, container, ctx)");
    renderers[game] = renderer;
  }

  /* Small pieces renderers share. */
  function card(name, extra) {
    extra = extra || {};
    return h("div", {class: "card" + (extra.class ? " " + extra.class : ""), title: extra.title || humanize(name),
                     dataset: Object.assign({card: name}, extra.dataset || {})},
      h("span", {class: "card-name"}, humanize(name)), extra.body || null);
  }

  function cardBacks(count, label) {
    var shown = Math.min(count, 5);
    var stack = h("div", {class: "backs", title: plural(count, "hidden card"), dataset: {count: count}});
    for (var i = 0; i < shown; i++) stack.appendChild(h("div", {class: "card back", style: {"--i": i}}));
    stack.appendChild(h("span", {class: "backs-count"}, count === 0 ? "none" : (label ? label + " " : "") + "×" + count));
    if (count === 0) stack.classList.add("empty");
    return stack;
  }

  function zone(title, content, extra) {
    extra = extra || {};
    return h("section", {class: "zone" + (extra.class ? " " + extra.class : ""), dataset: extra.dataset || {}},
      h("h4", {class: "zone-title"}, title, extra.count !== undefined ? h("span", {class: "zone-count"}, String(extra.count)) : null),
      h("div", {class: "zone-body"}, content));
  }

  function stat(label, value, extra) {
    extra = extra || {};
    return h("span", {class: "stat" + (extra.class ? " " + extra.class : ""), title: extra.title || label,
                      dataset: extra.dataset || {}},
      h("span", {class: "stat-label"}, label), h("span", {class: "stat-value"}, String(value)));
  }

  /* ------------------------------------------------------------------ generic renderer */

  function isScalar(v) { return v === null || typeof v !== "object"; }

  function scalarText(v) {
    if (v === null) return "—";
    if (typeof v === "boolean") return v ? "yes" : "no";
    if (typeof v === "string") return humanize(v);
    return String(v);
  }

  /* A number under one of these keys counts cards the viewer may not see: drawn as backs. */
  var HIDDEN_COUNT_KEY = /(^|_)(hand|deck|pile|draw_pile|bag|stack|library|reserve)s?$/i;
  var SLUG = /^[a-z0-9]+([-_][a-z0-9]+)*$/;
  /* A top-level list under one of these keys with one entry per seat is labelled by seat. */
  var PER_SEAT_KEY = /(^|_)(hands?|decks?|boards?|scores?|players?|seats?|piles?|discards?|tableaus?|play|in_play|packs?|bins?|fame|trouble|vp|points|life|heroes|avatars|mana|pools?)$/i;

  function genericValue(key, value, path, ctx, depth) {
    if (isScalar(value)) {
      if (typeof value === "number" && HIDDEN_COUNT_KEY.test(key)) {
        return h("span", {class: "gv gv-count", dataset: {path: path, value: String(value)}},
          cardBacks(value));
      }
      var seatName = (key === "seat" || key === "owner" || key === "actor") && typeof value === "number" && ctx.names[value];
      return h("span", {class: "gv gv-" + (value === null ? "null" : typeof value), dataset: {path: path, value: String(value)}},
        scalarText(value), seatName ? h("span", {class: "muted"}, " (" + seatName + ")") : null);
    }
    if (Array.isArray(value)) {
      if (value.length === 0) return h("span", {class: "gv gv-empty", dataset: {path: path, count: 0}}, "none");
      if (value.every(isScalar)) {
        var cards = value.every(function (v) { return typeof v === "string" && SLUG.test(v); }) &&
          value.some(function (v) { return v.indexOf("-") > 0; });
        var chips = h("div", {class: "chips", dataset: {path: path, count: value.length}});
        value.forEach(function (item, i) {
          chips.appendChild(cards
            ? card(item, {class: "card-small", dataset: {path: path + "." + i}})
            : h("span", {class: "chip", dataset: {path: path + "." + i, value: String(item)}}, scalarText(item)));
        });
        return chips;
      }
      if (value.every(function (v) { return Array.isArray(v) && v.every(isScalar); })) {
        var grid = h("table", {class: "gv-grid", dataset: {path: path}});
        value.forEach(function (row, r) {
          grid.appendChild(h("tr", null, row.map(function (cell, c) {
            return h("td", {dataset: {path: path + "." + r + "." + c, value: String(cell)}}, scalarText(cell));
          })));
        });
        return grid;
      }
      if (tableable(value)) {
        var table = objectTable(key, value, path, ctx, depth);
        var map = placed(value) ? gridMap(value, ctx) : null;
        return map ? h("div", {class: "gv-mapped"}, map, table) : table;
      }
      var list = h("div", {class: "gv-list", dataset: {path: path, count: value.length}});
      value.forEach(function (item, i) {
        list.appendChild(h("div", {class: "gv-item"}, genericValue(key, item, path + "." + i, ctx, depth + 1)));
      });
      return list;
    }
    var keys = Object.keys(value);
    if (HIDDEN_COUNT_KEY.test(key) && keys.length === 1 && typeof value[keys[0]] === "number") {  // {"count": 3}
      return h("span", {class: "gv gv-count", dataset: {path: path + "." + keys[0], value: String(value[keys[0]])}},
        cardBacks(value[keys[0]]));
    }
    return genericObject(value, path, ctx, depth + 1);
  }

  /* A list of like objects (tiles, creatures, resources) reads best as a table. */
  function smallObject(v) {
    return !!v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length <= 4 &&
      Object.keys(v).every(function (j) { return isScalar(v[j]); });
  }

  function tableable(items) {
    if (!items.every(function (v) { return v && typeof v === "object" && !Array.isArray(v); })) return false;
    var keys = {};
    var flat = items.every(function (item) {
      return Object.keys(item).every(function (k) {
        keys[k] = true;
        var v = item[k];
        return isScalar(v) || smallObject(v) || (Array.isArray(v) && v.length <= 6 && v.every(function (x) { return isScalar(x) || smallObject(x); }));
      });
    });
    return flat && Object.keys(keys).length <= 12;
  }

  /* Things placed at integer x, y (tiles, units) are also drawn on a small grid. */
  function placed(items) {
    return items.length > 1 && items.every(function (item) {
      return Number.isInteger(item.x) && Number.isInteger(item.y) && item.x >= -50 && item.x <= 50 && item.y >= -50 && item.y <= 50;
    });
  }

  var LABEL_KEYS = ["tile", "card", "name", "id", "kind", "type", "node"];

  function gridMap(items, ctx) {
    var xs = items.map(function (i) { return i.x; }), ys = items.map(function (i) { return i.y; });
    var x0 = Math.min.apply(null, xs), x1 = Math.max.apply(null, xs), y0 = Math.min.apply(null, ys), y1 = Math.max.apply(null, ys);
    if (x1 - x0 > 30 || y1 - y0 > 30) return null;
    var at = {};
    items.forEach(function (item) { (at[item.x + "," + item.y] = at[item.x + "," + item.y] || []).push(item); });
    var label = LABEL_KEYS.filter(function (k) { return items.every(function (i) { return isScalar(i[k]) && i[k] !== null; }); })[0];
    var owner = ["owner", "seat", "avatar"].filter(function (k) { return items.some(function (i) { return typeof i[k] === "number"; }); })[0];
    var rows = [h("tr", null, h("th", null, ""), range(x0, x1).map(function (x) { return h("th", null, String(x)); }))];
    range(y0, y1).forEach(function (y) {
      rows.push(h("tr", null, h("th", null, String(y)), range(x0, x1).map(function (x) {
        var here = at[x + "," + y] || [];
        var seatOf = here.length && owner && typeof here[0][owner] === "number" ? here[0][owner] : null;
        return h("td", {class: here.length ? "filled" + (seatOf !== null ? " seat-bg-" + seatOf : "") : "",
                        title: here.map(function (i) { return Object.keys(i).map(function (k) { return humanize(k) + ": " + phrase(i[k], ctx, k); }).join("; "); }).join("\n")},
          here.map(function (i) { return label ? scalarText(i[label]) : "•"; }).join(" "));
      })));
    });
    return h("table", {class: "gv-map"}, rows);
  }

  function range(a, b) { var out = []; for (var i = a; i <= b; i++) out.push(i); return out; }

  function objectTable(key, items, path, ctx, depth) {
    var columns = [];
    items.forEach(function (item) { Object.keys(item).forEach(function (k) { if (columns.indexOf(k) < 0) columns.push(k); }); });
    return h("table", {class: "gv-table", dataset: {path: path, count: items.length}},
      h("thead", null, h("tr", null, columns.map(function (c) { return h("th", null, humanize(c)); }))),
      h("tbody", null, items.map(function (item, i) {
        return h("tr", null, columns.map(function (c) {
          return h("td", null, c in item ? genericValue(c, item[c], path + "." + i + "." + c, ctx, depth + 1) : "");
        }));
      })));
  }

  function genericObject(obj, path, ctx, depth) {
    var dl = h("dl", {class: "gv-object depth-" + Math.min(depth, 4), dataset: {path: path}});
    Object.keys(obj).forEach(function (key) {
      var sub = path ? path + "." + key : key;
      dl.appendChild(h("div", {class: "gv-row"}, h("dt", null, humanize(key)), h("dd", null, genericValue(key, obj[key], sub, ctx, depth))));
    });
    return dl;
  }

  /* Draws any view: top-level numbers and words as a summary line, a panel per player when
   * the view has a "players" list, and everything else as labelled, nested sections. Hands
   * and decks the viewer may not see arrive from the API as counts and are drawn as backs. */
  function renderGeneric(view, seat, container, ctx) {
    if (isScalar(view) || Array.isArray(view)) { container.appendChild(genericValue("view", view, "", ctx, 0)); return; }
    var summary = h("div", {class: "gv-summary"});
    var rest = [];
    Object.keys(view).forEach(function (key) {
      var value = view[key];
      if (isScalar(value)) summary.appendChild(h("span", {class: "stat"}, h("span", {class: "stat-label"}, humanize(key)),
        h("span", {class: "stat-value"}, genericValue(key, value, key, ctx, 0))));
      else rest.push(key);
    });
    container.appendChild(summary);
    rest.forEach(function (key) {
      var value = view[key];
      if ((key === "players" || key === "seats") && Array.isArray(value) && value.length && value.every(function (p) { return p && typeof p === "object" && !Array.isArray(p); })) {
        var row = h("div", {class: "gv-players"});
        value.forEach(function (player, i) {
          var s = typeof player.seat === "number" ? player.seat : i;
          row.appendChild(h("section", {class: "panel player" + (s === seat ? " me" : ""), dataset: {seat: s}},
            h("h3", null, ctx.names[s] || ("seat " + s), h("span", {class: "muted"}, " seat " + s + (s === seat ? (ctx.me === s ? " · you" : " · their view") : ""))),
            genericObject(player, key + "." + i, ctx, 1)));
        });
        container.appendChild(zone(humanize(key), row, {class: "gv-section"}));
      } else if (Array.isArray(value) && value.length === ctx.names.length && value.length > 1 && PER_SEAT_KEY.test(key)) {
        // one entry per seat (hands, scores, decks of the whole state): each labelled with its player
        container.appendChild(zone(humanize(key), h("div", {class: "gv-list gv-per-seat", dataset: {path: key, count: value.length}},
          value.map(function (item, s) {
            return h("div", {class: "gv-item seat-" + s, dataset: {seat: s}},
              h("div", {class: "gv-seat-label"}, ctx.names[s], h("span", {class: "muted"}, " · seat " + s)),
              genericValue(key, item, key + "." + s, ctx, 1));
          })), {class: "gv-section"}));
      } else {
        container.appendChild(zone(humanize(key), genericValue(key, value, key, ctx, 0), {class: "gv-section"}));
      }
    });
  }

  /* ------------------------------------------------------------------ names and the log */

  function seatName(ctx, seat) {
    return typeof seat === "number" && ctx.names[seat] !== undefined ? ctx.names[seat] : (seat === null || seat === undefined ? "someone" : "seat " + seat);
  }

  function phrase(value, ctx, key) {
    if (value === null || value === undefined) return key === "card" ? "a hidden card" : "—";
    if ((key === "seat" || key === "owner" || key === "actor" || key === "target_seat") && typeof value === "number") return seatName(ctx, value);
    if (Array.isArray(value)) return value.length ? value.map(function (v) { return phrase(v, ctx); }).join(", ") : "none";
    if (typeof value === "object") return Object.keys(value).map(function (k) { return humanize(k) + " " + phrase(value[k], ctx, k); }).join(", ");
    if (typeof value === "number" && key === "order") return value + " cards (hidden order)";
    return scalarText(value);
  }

  /* {text, facts: [text]} for one log record: the words the server sent with it
   * (`record.words`, made for the reader of the log from what it may read, by the game's
   * domain/games/<game>/words.py); a fact the game counts as bookkeeping has none. */
  function describeRecord(record) {
    var words = record && record.words;
    if (words && typeof words.text === "string") {
      return {text: words.text, facts: (words.facts || []).filter(function (t) { return typeof t === "string" && t; })};
    }
    return {text: humanize(record && record.type || "event"), facts: []};
  }

  window.ArbiterViewer = {
    h: h, append: append, humanize: humanize, plural: plural,
    api: api, ApiError: ApiError, untilAnswered: untilAnswered, tokens: tokens, hostTokens: hostTokens, myName: myName,
    register: register, renderers: renderers,
    card: card, cardBacks: cardBacks, zone: zone, stat: stat,
    renderGeneric: renderGeneric, describeRecord: describeRecord, seatName: seatName, phrase: phrase
  };
})();
