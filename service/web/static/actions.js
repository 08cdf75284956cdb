/* The generic action panel: every listed action of every game as something to click, built
 * from GET /v1/matches/{id}/legal-actions alone (its `actions`, their `params` and the
 * parallel `words`). No game has form code of its own. Contract: service/web/README.md.
 *
 * A listed action posts back as it is. Where it has `params`, the panel draws an editor per
 * field, from that field's schema:
 *   - an array of distinct items from an enum (a payment, a discard): one checkbox per item,
 *     picked item by item, with the running total (schema `worth`, 1 an item by default)
 *     against `worth_at_least` (with `no_spare`: no item the total could do without), and
 *     `minItems` / `maxItems`;
 *   - an enum: a choice; an integer: a number (minimum, maximum); a boolean: a tick;
 *   - anything else (a free description, an object, a list of lists): the value as JSON text,
 *     prefilled with the listed value (left empty: the field is left out, when it is optional).
 * The editors start at the listed value, so "Do it" without a change posts the listing. */
(function () {
  "use strict";
  var V = window.ArbiterViewer, h = V.h;

  function withoutParams(action) {
    var out = {};
    Object.keys(action).forEach(function (k) { if (k !== "params") out[k] = action[k]; });
    return out;
  }

  /* A stable key of an action (its fields in sorted order): the half-made choice of an action
   * is kept across a reload while the same action is listed again. */
  function keyOf(action) {
    return JSON.stringify(sortKeys(withoutParams(action)));
  }
  function sortKeys(v) {
    if (Array.isArray(v)) return v.map(sortKeys);
    if (v && typeof v === "object") {
      var out = {};
      Object.keys(v).sort().forEach(function (k) { out[k] = sortKeys(v[k]); });
      return out;
    }
    return v;
  }

  /* Every scalar an action holds, at any depth (card ids, uids, seats...), and each square it
   * names as "x,y" ({x, y} fields) or "a,b" (a pair of integers): what a click on the board
   * can match (data-target on a square). */
  function valuesIn(value, out) {
    out = out || [];
    if (value === null || value === undefined) return out;
    if (Array.isArray(value)) {
      // a square as [row, col] is also "row,col"
      if (value.length === 2 && value.every(Number.isInteger)) out.push(value[0] + "," + value[1]);
      value.forEach(function (v) { valuesIn(v, out); });
    } else if (typeof value === "object") {
      // a square as {x, y} is also "x,y"
      if (Number.isInteger(value.x) && Number.isInteger(value.y)) out.push(value.x + "," + value.y);
      Object.keys(value).forEach(function (k) { if (k !== "params") valuesIn(value[k], out); });
    } else out.push(String(value));
    return out;
  }

  function isSubset(schema) {
    return schema && typeof schema === "object" && schema.type === "array" && schema.items &&
      Array.isArray(schema.items.enum);
  }

  function itemLabel(item, names) {
    var known = names && names(item);
    return known || V.humanize(String(item));
  }

  /* One editor per params field. Each returns {el, value(): [ok, value, problem], restore(v)}. */
  function editorFor(field, schema, current, names) {
    var label = h("div", {class: "param-label"}, V.humanize(field),
      schema && typeof schema === "object" && schema.description ? h("span", {class: "muted"}, " — " + schema.description) :
      typeof schema === "string" ? h("span", {class: "muted"}, " — " + schema) : null);
    if (isSubset(schema)) return subsetEditor(field, schema, current, names, label);
    if (schema && typeof schema === "object" && Array.isArray(schema.enum)) {
      var select = h("select", {dataset: {param: field}}, schema.enum.map(function (v, i) {
        return h("option", {value: String(i)}, itemLabel(v, names));
      }));
      var at = schema.enum.findIndex(function (v) { return JSON.stringify(v) === JSON.stringify(current); });
      if (at >= 0) select.value = String(at);
      return {el: h("label", {class: "param"}, label, select),
              value: function () { return [true, schema.enum[Number(select.value)]]; },
              restore: function (v) { var i = schema.enum.findIndex(function (e) { return JSON.stringify(e) === JSON.stringify(v); }); if (i >= 0) select.value = String(i); }};
    }
    if (schema && typeof schema === "object" && (schema.type === "integer" || schema.type === "number")) {
      var number = h("input", {type: "number", step: "1", min: schema.minimum, max: schema.maximum, dataset: {param: field},
                               value: current === undefined ? "" : String(current)});
      return {el: h("label", {class: "param"}, label, number),
              value: function () {
                if (number.value === "") return current === undefined ? [true, undefined] : [false, null, V.humanize(field) + " needs a number"];
                var n = Number(number.value);
                return Number.isInteger(n) ? [true, n] : [false, null, V.humanize(field) + " must be a whole number"];
              },
              restore: function (v) { number.value = v === undefined ? "" : String(v); }};
    }
    if (schema && typeof schema === "object" && schema.type === "boolean") {
      var tick = h("input", {type: "checkbox", dataset: {param: field}});
      tick.checked = !!current;
      return {el: h("label", {class: "param"}, label, tick), value: function () { return [true, tick.checked]; },
              restore: function (v) { tick.checked = !!v; }};
    }
    var text = h("textarea", {rows: "3", dataset: {param: field}, spellcheck: "false"});
    text.value = current === undefined ? "" : JSON.stringify(current);
    return {el: h("label", {class: "param param-json"}, label, text),
            value: function () {
              if (!text.value.trim()) return [true, undefined];
              try { return [true, JSON.parse(text.value)]; } catch (e) { return [false, null, V.humanize(field) + " is not valid JSON"]; }
            },
            restore: function (v) { text.value = v === undefined ? "" : JSON.stringify(v); }};
  }

  /* A subset (a payment, a discard) picked item by item, with its running total. */
  function subsetEditor(field, schema, current, names, label) {
    var chosen = new Set(Array.isArray(current) ? current.map(String) : []);
    var items = schema.items.enum;
    var worth = schema.worth || {};
    var need = typeof schema.worth_at_least === "number" ? schema.worth_at_least : null;
    var total = h("span", {class: "param-total", dataset: {param: field}});
    var boxes = h("div", {class: "param-items"});
    function worthOf(item) { return typeof worth[item] === "number" ? worth[item] : 1; }
    function sum() { var s = 0; chosen.forEach(function (i) { s += worthOf(i); }); return s; }
    /* `no_spare`: a picked item the total could do without ("a number of Cards equal to the cost") */
    function spare() {
      return need !== null && schema.no_spare === true && chosen.size > 0 &&
        sum() - Math.min.apply(null, Array.from(chosen).map(worthOf)) >= need;
    }
    function problem() {
      var n = chosen.size, s = sum();
      if (need !== null && s < need) return "worth " + s + " of at least " + need;
      if (spare()) return "one card fewer still pays " + need;
      if (typeof schema.minItems === "number" && n < schema.minItems) return "pick at least " + schema.minItems;
      if (typeof schema.maxItems === "number" && n > schema.maxItems) return "pick at most " + schema.maxItems;
      return null;
    }
    function redraw() {
      var p = problem(), s = sum();
      total.textContent = chosen.size + " picked" + (need !== null ? " · worth " + s + " of at least " + need : "") +
        (p ? (spare() ? " · " + p : "") : " ✓");
      total.className = "param-total " + (p ? "short" : "enough");
      total.dataset.worth = String(s);
      total.dataset.enough = p ? "false" : "true";
    }
    function draw() {
      boxes.replaceChildren.apply(boxes, items.map(function (item) {
        var box = h("input", {type: "checkbox", value: String(item), dataset: {item: String(item)}});
        box.checked = chosen.has(String(item));
        box.addEventListener("change", function () {
          if (box.checked) chosen.add(String(item)); else chosen.delete(String(item));
          redraw();
        });
        var w = worthOf(item);
        return h("label", {class: "param-item" + (box.checked ? " on" : "")}, box, " " + itemLabel(item, names),
          w !== 1 || need !== null ? h("span", {class: "muted"}, " (" + w + ")") : null);
      }));
      redraw();
    }
    draw();
    return {el: h("div", {class: "param param-subset"}, label, boxes, total),
            /* The running total warns; the server judges (its refusal shows beside the action). */
            value: function () { return [true, items.filter(function (i) { return chosen.has(String(i)); })]; },
            restore: function (v) { chosen = new Set(Array.isArray(v) ? v.map(String) : []); draw(); }};
  }

  /* A list's items as a multiset (order left out, repeats kept), comparable as a string. */
  function bag(values) { return values.map(function (v) { return JSON.stringify(v); }).sort().join("\u0000"); }

  /* The listing as rows, in the listing's order: {index} for an action on its own, {indices,
   * field, key} for actions without params that differ only in one list of scalars, where that
   * list reads as a set of items to tick one by one: four or more such actions, no two with the
   * same items, and the items ids (strings) or the lists of different lengths (a discard of any
   * number of cards). A square's coordinates ([row, column]: two numbers, whose order matters)
   * are no such set: each move to a square stays a row of its own. */
  function groupSubsets(actions) {
    var groups = {}, keys = [];
    actions.forEach(function (action, index) {
      var lists = Object.keys(action).filter(function (k) {
        return k !== "params" && Array.isArray(action[k]) && action[k].every(function (v) { return v === null || typeof v !== "object"; });
      });
      if (action.params || lists.length !== 1) { keys.push(null); return; }
      var rest = withoutParams(action);
      delete rest[lists[0]];
      var key = lists[0] + "|" + JSON.stringify(sortKeys(rest));
      if (!groups[key]) groups[key] = {index: index, field: lists[0], key: key, indices: []};
      groups[key].indices.push(index);
      keys.push(key);
    });
    function tickable(group) {
      var values = group.indices.map(function (i) { return actions[i][group.field]; });
      var bags = values.map(bag);
      var lengths = values.map(function (v) { return v.length; });
      var ids = values.every(function (v) { return v.every(function (x) { return typeof x === "string"; }); });
      return values.length >= 4 && new Set(bags).size === bags.length &&
        (ids || Math.min.apply(null, lengths) !== Math.max.apply(null, lengths));
    }
    Object.keys(groups).forEach(function (key) { groups[key].tickable = tickable(groups[key]); });
    var out = [];
    keys.forEach(function (key, index) {
      var group = key === null ? null : groups[key];
      if (group && group.tickable) {
        if (group.index === index) out.push(group);
      } else {
        out.push({index: index});
      }
    });
    return out;
  }

  /* The panel. opts: {legal, names(id) -> label | null, submit(action, index) -> Promise,
   *                   kept: Map(key -> {values, open}), filter: text, narrow: [values]} */
  function actionPanel(opts) {
    var legal = opts.legal, kept = opts.kept || new Map();
    var actions = legal.actions || [], words = legal.words || [];
    var rows = [];
    var list = h("ol", {class: "action-list", dataset: {count: actions.length, version: legal.version}});
    var filter = h("input", {type: "search", class: "action-filter", placeholder: "filter the " + actions.length + " listed actions",
                             "aria-label": "filter actions", value: opts.filter || ""});
    var narrowNote = h("div", {class: "action-narrow", hidden: true});
    var narrow = opts.narrow || null;

    groupSubsets(actions).forEach(function (entry) {
      if (entry.indices) subsetRow(entry); else singleRow(actions[entry.index], entry.index);
    });

    function singleRow(action, index) {
      var key = keyOf(action);
      var text = words[index] || describe(action);
      var error = h("div", {class: "action-error", role: "alert", hidden: true, dataset: {actionIndex: index}});
      var editors = {};
      var params = action.params && typeof action.params === "object" ? action.params : null;
      var editor = null;
      if (params) {
        var fields = Object.keys(params);
        var body = h("div", {class: "action-params"});
        fields.forEach(function (field) {
          editors[field] = editorFor(field, params[field], action[field], opts.names);
          body.appendChild(editors[field].el);
        });
        editor = h("details", {class: "action-edit"}, h("summary", null, "choose other " + fields.map(V.humanize).join(", ").toLowerCase() + "…"), body);
        var saved = kept.get(key);
        if (saved) {
          Object.keys(saved.values || {}).forEach(function (f) { if (editors[f]) editors[f].restore(saved.values[f]); });
          if (saved.open) editor.open = true;
        }
      }
      var button = h("button", {type: "button", class: "action-do", dataset: {actionIndex: index, type: action.type}}, text);
      var row = h("li", {class: "action", dataset: {actionIndex: index, type: action.type}}, button, editor, error);
      var values = valuesIn(withoutParams(action));
      button.addEventListener("click", function () {
        var posted = withoutParams(action);
        for (var field in editors) {
          var got = editors[field].value();
          if (!got[0]) { showError(got[2]); return; }
          if (got[1] === undefined) delete posted[field]; else posted[field] = got[1];
        }
        showError(null);
        opts.submit(posted, index).catch(function (problem) { if (problem) showError(problem); });
      });
      function showError(text) {
        error.hidden = !text;
        error.textContent = text || "";
        row.classList.toggle("refused", !!text);
      }
      rows.push({row: row, text: text.toLowerCase() + " " + action.type, values: values, key: key, showError: showError,
                 keep: function () {
                   if (!editor) return null;
                   var kept = {};
                   Object.keys(editors).forEach(function (f) { var got = editors[f].value(); if (got[0]) kept[f] = got[1]; });
                   return {values: kept, open: editor.open};
                 }});
      list.appendChild(row);
    }

    /* Listed actions that differ only in one list (HeroCard's discards: every subset of the
     * hand) are one row: the items ticked one by one, the words of the listed action the
     * ticks make shown live; a pick no action lists is posted for the server to judge. */
    function subsetRow(group) {
      var field = group.field, members = group.indices, first = actions[members[0]];
      var boxes = [];
      var counts = {};
      members.forEach(function (i) {
        var here = {};
        actions[i][field].forEach(function (v) {
          var k = JSON.stringify(v);
          here[k] = (here[k] || 0) + 1;
          if (!(k in counts)) counts[k] = 0;
        });
        Object.keys(here).forEach(function (k) { counts[k] = Math.max(counts[k], here[k]); });
      });
      var list_ = h("div", {class: "param-items"});
      Object.keys(counts).forEach(function (k) {
        for (var n = 0; n < counts[k]; n++) {
          var value = JSON.parse(k);
          var box = h("input", {type: "checkbox", dataset: {item: String(value)}});
          box.addEventListener("change", redraw);
          boxes.push({value: value, box: box});
          list_.appendChild(h("label", {class: "param-item"}, box, " " + itemLabel(value, opts.names)));
        }
      });
      function pick(values) {
        var left = values.map(function (v) { return JSON.stringify(v); });
        boxes.forEach(function (b) {
          var at = left.indexOf(JSON.stringify(b.value));
          b.box.checked = at >= 0;
          if (at >= 0) left.splice(at, 1);
        });
      }
      function picked() { return boxes.filter(function (b) { return b.box.checked; }).map(function (b) { return b.value; }); }
      function matching() {
        var mine = bag(picked());
        for (var j = 0; j < members.length; j++) if (bag(actions[members[j]][field]) === mine) return members[j];
        return null;
      }
      // the items offered are part of the key: a later listing of the same kind of action (the
      // next forced discard, from another hand) starts from its first listed choice, not from
      // ticks of items it may not even offer, which matched no listed action
      var gkey = "subset:" + group.key + "|" + JSON.stringify(counts);
      var saved = kept.get(gkey);
      pick(saved && Array.isArray(saved.picked) ? saved.picked : first[field]);
      var index = members[0];
      var error = h("div", {class: "action-error", role: "alert", hidden: true, dataset: {actionIndex: index}});
      var button = h("button", {type: "button", class: "action-do", dataset: {actionIndex: index, type: first.type}});
      var note = h("div", {class: "param-total"});
      var row = h("li", {class: "action action-subset", dataset: {actionIndex: index, type: first.type, subset: field}},
        h("div", {class: "param-label"}, V.humanize(first.type) + ": tick the " + V.humanize(field).toLowerCase() + " one by one",
          h("span", {class: "muted"}, " (" + members.length + " listed choices)")),
        list_, note, button, error);
      function redraw() {
        var m = matching();
        button.textContent = m !== null ? (words[m] || describe(actions[m])) : V.humanize(first.type) + " " + V.phrase(picked(), {names: []});
        note.textContent = m !== null ? "" : "no listed action has exactly these: the server will judge";
        note.className = "param-total" + (m !== null ? "" : " short");
        row.dataset.matches = m === null ? "" : String(m);
      }
      redraw();
      button.addEventListener("click", function () {
        var m = matching();
        var posted = m !== null ? withoutParams(actions[m]) : Object.assign(withoutParams(first), {});
        if (m === null) posted[field] = picked();
        showError(null);
        opts.submit(posted, m !== null ? m : index).catch(function (problem) { if (problem) showError(problem); });
      });
      function showError(text) {
        error.hidden = !text;
        error.textContent = text || "";
        row.classList.toggle("refused", !!text);
      }
      var values = [];
      members.forEach(function (i) { valuesIn(withoutParams(actions[i]), values); });
      rows.push({row: row, text: members.map(function (i) { return (words[i] || "").toLowerCase(); }).join(" ") + " " + first.type,
                 values: values, key: gkey, showError: showError,
                 keep: function () { return {picked: picked()}; },
                 /* a click on the board ticks that item too */
                 tick: function (value) {
                   var hit = boxes.filter(function (b) { return String(b.value) === value && !b.box.checked; })[0];
                   if (hit) { hit.box.checked = true; redraw(); }
                 }});
      list.appendChild(row);
    }

    function applyFilter() {
      var words = filter.value.trim().toLowerCase();
      var shown = 0;
      rows.forEach(function (r) {
        var ok = (!words || r.text.indexOf(words) >= 0) &&
          (!narrow || narrow.some(function (v) { return r.values.indexOf(v) >= 0; }));
        r.row.hidden = !ok;
        if (ok) shown += 1;
      });
      narrowNote.hidden = !narrow;
      if (narrow) {
        narrowNote.replaceChildren(h("span", null, shown === 1 ? "The action with what you clicked — press it to confirm: " :
          shown + " actions with what you clicked: "), h("button", {type: "button", class: "link", onclick: function () { setNarrow(null); }}, "show all"));
      }
    }
    function setNarrow(values) {
      narrow = values && values.length ? values : null;
      if (narrow) rows.forEach(function (r) { if (r.tick) narrow.forEach(function (v) { if (r.values.indexOf(v) >= 0) r.tick(v); }); });
      applyFilter();
    }
    filter.addEventListener("input", applyFilter);
    applyFilter();

    var el = h("div", {class: "action-panel"}, actions.length > 8 ? filter : null, narrowNote, list);
    return {
      el: el,
      /* The half-made choices, to keep across a reload. */
      keep: function () {
        var out = new Map();
        rows.forEach(function (r) { var k = r.keep(); if (k) out.set(r.key, k); });
        return out;
      },
      filterText: function () { return filter.value; },
      narrow: setNarrow,
      narrowed: function () { return narrow; },
      /* The board's clickable values: every scalar some listed action holds. */
      values: function () { var all = new Set(); rows.forEach(function (r) { r.values.forEach(function (v) { all.add(v); }); }); return all; },
      showError: function (index, text) { if (rows[index]) rows[index].showError(text); }
    };
  }

  function describe(action) {
    var parts = Object.keys(action).filter(function (k) { return k !== "type" && k !== "params"; }).map(function (k) {
      return V.humanize(k).toLowerCase() + " " + V.phrase(action[k], {names: []}, k);
    });
    return V.humanize(action.type) + (parts.length ? " (" + parts.join("; ") + ")" : "");
  }

  /* An Idempotency-Key: random, one per press of a button. */
  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  V.actionPanel = actionPanel;
  V.actionKey = keyOf;
  V.actionValues = valuesIn;
  V.idempotencyKey = newKey;
})();
