/* A match verified in the browser, per docs/verification.md, with WebCrypto SHA-256: so a
 * player who distrusts the host need not trust the host's audit badge.
 *   chain: every record's hash = sha256_hex(prev_hash + canonical({seq, type, public, commit}))
 *          (event format 1: canonical({seq, type, data})), prev_hash of seq 1 = "0" * 64;
 *   seed:  once the seed is revealed, sha256_hex(seed bytes) = MatchCreated.data.commitment.
 * It reads the export (GET .../export) or, where that is refused (a running match), the
 * spectator's log, which carries the public form, commit and hashes. */
(function () {
  "use strict";
  var V = window.ArbiterViewer;

  /* Python's json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False). */
  function canonical(value) {
    if (value === null || typeof value !== "object") return JSON.stringify(value);
    if (Array.isArray(value)) return "[" + value.map(canonical).join(",") + "]";
    return "{" + Object.keys(value).sort(codepointOrder).map(function (k) { return JSON.stringify(k) + ":" + canonical(value[k]); }).join(",") + "}";
  }

  /* Python sorts str keys by code point; JS's default sort compares UTF-16 units. */
  function codepointOrder(a, b) {
    var x = Array.from(a), y = Array.from(b);
    for (var i = 0; i < Math.min(x.length, y.length); i++) {
      var d = x[i].codePointAt(0) - y[i].codePointAt(0);
      if (d) return d;
    }
    return x.length - y.length;
  }

  function hex(buffer) {
    return Array.prototype.map.call(new Uint8Array(buffer), function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  function sha256Hex(bytes) { return crypto.subtle.digest("SHA-256", bytes).then(hex); }
  function utf8(text) { return new TextEncoder().encode(text); }
  function fromHex(text) {
    var out = new Uint8Array(text.length / 2);
    for (var i = 0; i < out.length; i++) out[i] = parseInt(text.substr(i * 2, 2), 16);
    return out;
  }

  /* `atLeast`: the version the page has shown; the log is a read model, and one behind the
   * store would verify a shorter chain than the page shows (the API's min_version waits). */
  function records(matchId, atLeast) {
    return fetch("/v1/matches/" + matchId + "/export", {cache: "no-store"}).then(function (response) {
      if (response.ok) return response.text().then(function (text) {
        return text.split("\n").filter(Boolean).map(function (line) { return JSON.parse(line); });
      });
      var all = [];
      function next(since) {
        var wait = atLeast >= 1 ? "&min_version=" + atLeast : "";
        return V.api("/v1/matches/" + matchId + "/log?limit=1000&since=" + since + wait).then(function (answer) {
          all = all.concat(answer.events);
          if (answer.next_since !== null && answer.next_since !== undefined && answer.events.length) return next(answer.next_since);
          return all;
        });
      }
      return next(0);
    });
  }

  function verifyRecords(list) {
    var format = list.length && list[0].data && list[0].data.event_format ? list[0].data.event_format : 1;
    var prev = "0".repeat(64), brokenAt = null, i = 0;
    function step() {
      if (i >= list.length || brokenAt !== null) return Promise.resolve();
      var r = list[i++];
      if (r.seq !== i || r.prev_hash !== prev || typeof r.hash !== "string") { brokenAt = r.seq || i; return Promise.resolve(); }
      var body = format >= 2 ? {seq: r.seq, type: r.type, public: r.public !== undefined ? r.public : r.data, commit: r.commit}
        : {seq: r.seq, type: r.type, data: r.data};
      return sha256Hex(utf8(prev + canonical(body))).then(function (digest) {
        if (digest !== r.hash) { brokenAt = r.seq; return; }
        prev = r.hash;
        return step();
      });
    }
    return step().then(function () {
      var result = {events: list.length, chain: brokenAt === null && list.length > 0, brokenAt: brokenAt, seed: null, seedWhy: ""};
      var created = list[0] && list[0].data || {};
      var last = list[list.length - 1];
      var seed = last && last.data && typeof last.data.seed === "string" ? last.data.seed : null;
      if (!seed) { result.seedWhy = "the seed is still secret while the match runs"; return result; }
      if (!created.commitment) { result.seedWhy = "no commitment recorded"; return result; }
      return sha256Hex(fromHex(seed)).then(function (digest) {
        result.seed = digest === created.commitment;
        return format >= 2 && result.seed ? contents(list, fromHex(seed)) : null;
      }).then(function (wrong) {
        if (wrong !== null && wrong !== undefined) { result.contents = wrong === 0; result.contentsWrongAt = wrong || null; }
        return result;
      });
    });
  }

  function hmac(keyBytes, message) {
    return crypto.subtle.importKey("raw", keyBytes, {name: "HMAC", hash: "SHA-256"}, false, ["sign"])
      .then(function (key) { return crypto.subtle.sign("HMAC", key, message); });
  }

  /* Once the seed is out: every event's full data against the commitment the chain carried
   * while the match ran (key = HMAC(seed, "arbiter event commitments"); commit = hex
   * HMAC(key, canonical({seq, type, data}))). 0 when all agree, else the first wrong seq. */
  function contents(list, seed) {
    return hmac(seed, utf8("arbiter event commitments")).then(function (key) {
      var i = 0;
      function next() {
        if (i >= list.length) return 0;
        var r = list[i++];
        return hmac(key, utf8(canonical({seq: r.seq, type: r.type, data: r.data}))).then(function (mac) {
          return hex(mac) === r.commit ? next() : r.seq;
        });
      }
      return next();
    });
  }

  V.canonical = canonical;
  V.verifyRecords = verifyRecords;
  V.verifyExport = function (matchId, atLeast) {
    if (!(window.crypto && crypto.subtle)) return Promise.reject(new Error("this browser offers no WebCrypto here (it needs https or localhost)"));
    return records(matchId, atLeast).then(verifyRecords);
  };
})();
