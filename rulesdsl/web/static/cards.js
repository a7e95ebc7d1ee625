// Drawing helpers shared by the table and the replay: cards, zones, melds, the trick, scores.
// Everything drawn comes from a view the server sent; nothing here knows any game.
"use strict";

const RD = (function () {
  const SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  const SUIT_ORDER = ["S", "H", "C", "D"];
  const RANK_ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];

  // el("div", {class: "x", onclick: f}, child, "text", ...) -- text is always set as text, never HTML
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (key === "text") node.textContent = value;
      else node.setAttribute(key, value === true ? "" : String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }

  // "10H" -> {rank: "10", suit: "H"}; "Jk=5S" -> joker standing for 5S; "face down" -> a back
  function parseCard(text) {
    const [base, stands] = String(text).split("=");
    if (base === "face down") return { back: true, text };
    const last = base.slice(-1);
    if (base.length > 1 && SUITS[last] !== undefined) {
      return { rank: base.slice(0, -1), suit: last, stands, text };
    }
    return { rank: base, suit: "", stands, text };
  }

  function cardEl(text, extra) {
    const c = parseCard(text);
    if (c.back) return el("span", { class: "card back", title: "face down", "data-card": text });
    const attrs = Object.assign({}, extra || {});
    const cls = "card" + (c.suit ? " suit-" + c.suit : " no-suit") + (c.stands ? " wild" : "") +
      (attrs.class ? " " + attrs.class : "");
    delete attrs.class;
    const node = el("span", Object.assign({ class: cls, "data-card": text, title: text }, attrs),
      el("span", { class: "rank" }, c.rank),
      el("span", { class: "pip" }, c.suit ? (SUITS[c.suit] || c.suit) : "\u2605"));
    if (c.stands) node.append(el("span", { class: "stands" }, "=" + c.stands));
    return node;
  }

  function rankIndex(rank) {
    const i = RANK_ORDER.indexOf(rank);
    return i < 0 ? 99 : i;
  }

  // sorted by suit, then rank; cards without a suit (jokers) last
  function sortCards(cards) {
    return cards.map((text, i) => ({ text, i, c: parseCard(text) })).sort((a, b) => {
      const sa = a.c.suit ? SUIT_ORDER.indexOf(a.c.suit) : 9, sb = b.c.suit ? SUIT_ORDER.indexOf(b.c.suit) : 9;
      if (sa !== sb) return (sa < 0 ? 8 : sa) - (sb < 0 ? 8 : sb);
      return rankIndex(a.c.rank) - rankIndex(b.c.rank) || a.text.localeCompare(b.text);
    });
  }

  // a hand grouped by suit: [{suit, cards: [{text, i}]}]
  function groupBySuit(cards) {
    const groups = [];
    for (const item of sortCards(cards)) {
      const suit = item.c.suit || "*";
      if (!groups.length || groups[groups.length - 1].suit !== suit) groups.push({ suit, cards: [] });
      groups[groups.length - 1].cards.push(item);
    }
    return groups;
  }

  function pretty(name) {
    return String(name).replace(/_/g, " ");
  }

  // one zone: its name, count, and the cards shown (all, or the top one)
  function zoneEl(name, entry, label, sorted) {
    const box = el("div", { class: "zone", "data-zone": name },
      el("span", { class: "zone-name" }, label || pretty(name)),
      el("span", { class: "count", title: "cards" }, String(entry.count)));
    const row = el("span", { class: "cards" });
    const cards = Array.isArray(entry.cards) && sorted ? sortCards(entry.cards).map((x) => x.text) : entry.cards;
    if (Array.isArray(cards)) cards.forEach((t) => row.append(cardEl(t)));
    else if (entry.top) row.append(cardEl(entry.top));
    else if (entry.top_face_down || entry.count > 0) row.append(el("span", { class: "card back" }));
    box.append(row);
    return box;
  }

  // zones kept by the table (stock, discard, trick ...): an object per zone
  function tableZones(view) {
    return Object.entries(view.zones || {}).filter(([, v]) => !Array.isArray(v));
  }

  // zones kept per seat (hand, foot ...): an array per zone, one entry per seat
  function seatZones(view, seat) {
    return Object.entries(view.zones || {}).filter(([, v]) => Array.isArray(v)).map(([k, v]) => [k, v[seat]]);
  }

  function ownerName(view, owner, names) {
    if (view.teams && owner !== null && owner !== undefined && view.teams[owner]) {
      return "team " + (owner + 1);
    }
    return owner === null || owner === undefined ? "" : (names[owner] || "seat " + (owner + 1));
  }

  function meldsEl(list, view, names, onMeld) {
    clear(list);
    (view.melds || []).forEach((m, i) => {
      const item = el("li", { class: "meld", "data-meld": i + 1 },
        el("span", { class: "meld-no" }, "#" + (i + 1)),
        el("span", { class: "meld-owner" }, ownerName(view, m.owner, names) + (m.kind ? " \u00b7 " + pretty(m.kind) : "")),
        el("span", { class: "cards" }, m.cards.map((t) => cardEl(t))));
      if (onMeld) item.addEventListener("click", () => onMeld(i + 1));
      list.append(item);
    });
    if (!(view.melds || []).length) list.append(el("li", { class: "empty" }, "none"));
  }

  function trickEl(box, view, names) {
    clear(box);
    const t = view.trick;
    if (!t) return;
    if (t.plays) {  // one card per player: each card with who played it
      box.append(el("div", { class: "trick" },
        el("span", { class: "trick-label" }, "trick " + t.number + (t.trump ? " (trumps: " + t.trump + ")" : "")),
        el("span", { class: "cards" }, t.plays.map((p) => el("span", { class: "played" }, names[p.seat] + " ", cardEl(p.card)))),
        (t.tricks_won || []).some((n) => n) ? el("span", { class: "passed" }, "tricks: " +
          t.tricks_won.map((n, s) => names[s] + " " + n).join(", ")) : null));
      return;
    }
    const who = t.last_player === null || t.last_player === undefined ? "" : " by " + names[t.last_player];
    box.append(el("div", { class: "trick" },
      el("span", { class: "trick-label" }, "to beat" + who),
      el("span", { class: "cards" }, (t.last_play || []).map((c) => cardEl(c))),
      t.kind ? el("span", { class: "trick-kind" }, pretty(t.kind)) : null,
      t.named_suit ? el("span", { class: "trick-kind" }, "suit named: " + t.named_suit) : null,
      (t.passed || []).length ? el("span", { class: "passed" }, "passed: " + t.passed.map((s) => names[s]).join(", ")) : null));
    if ((view.finished || []).length) {
      box.append(el("div", { class: "finished" }, "out so far: " + view.finished.map((s) => names[s]).join(", ")));
    }
  }

  function scoresEl(tableNode, view, names) {
    clear(tableNode);
    const teams = view.teams;
    const rows = teams ? teams.map((members, t) => ["team " + (t + 1) + " (" + members.map((s) => names[s]).join(", ") + ")", t])
      : names.map((n, s) => [n, s]);
    tableNode.append(el("tr", {}, el("th", {}, ""), el("th", {}, "score"), el("th", {}, "hands")));
    for (const [label, i] of rows) {
      const current = !teams && view.current_player === i;
      tableNode.append(el("tr", { class: current ? "on-turn" : "" },
        el("td", {}, label), el("td", { class: "num" }, String(view.scores[i])),
        el("td", { class: "num" }, String((view.hands_won || [])[i] ?? ""))));
    }
  }

  function logEl(list, lines) {
    clear(list);
    for (const line of lines) list.append(el("li", {}, line));
    list.scrollTop = list.scrollHeight;
  }

  // what a phase says about itself (a claim window, a question, the exchange, roles ...)
  function infoEl(box, view, names) {
    clear(box);
    const known = new Set(["seat", "players", "hand_number", "dealer", "turn_order", "current_player", "phase",
      "step", "scores", "hands_won", "zones", "melds", "last_hands", "legal_actions", "is_over", "winner", "winners", "trick",
      "finished", "team_zones", "teams", "in_reserve", "team_melded"]);
    for (const [key, value] of Object.entries(view)) {
      if (known.has(key) || value === null || value === undefined) continue;
      if (typeof value === "object" && !Array.isArray(value) && !Object.values(value).some((v) => v)) continue;
      if (Array.isArray(value) && !value.length) continue;
      box.append(el("div", { class: "info" }, el("b", {}, pretty(key) + ": "), describe(value, names)));
    }
  }

  function describe(value, names) {
    if (typeof value !== "object" || value === null) return String(value);
    if (Array.isArray(value)) return value.map((v) => describe(v, names)).join(", ");
    return Object.entries(value).filter(([, v]) => v !== null && v !== false)
      .map(([k, v]) => pretty(k) + " " + describe(v, names)).join("; ");
  }

  return { el, clear, parseCard, cardEl, sortCards, groupBySuit, zoneEl, tableZones, seatZones, meldsEl,
    trickEl, scoresEl, logEl, infoEl, ownerName, pretty };
})();
