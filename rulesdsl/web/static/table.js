// A seat's table: one socket to the server, which sends this seat's state after every change.
// The server is the only authority; this page only shows the state and sends action texts.
"use strict";

const Seat = (function () {
  const { el, clear, cardEl, groupBySuit, zoneEl, tableZones, seatZones } = RD;
  let token = null;
  let socket = null;
  let state = null;
  let selected = [];          // indexes into the hand's cards
  let retry = 500;

  function start(tok) {
    token = tok;
    document.getElementById("table").hidden = false;
    document.getElementById("free-action").addEventListener("submit", (e) => {
      e.preventDefault();
      const input = document.getElementById("action-text");
      if (input.value.trim()) send(input.value.trim());
      input.value = "";
    });
    connect();
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    socket = new WebSocket(scheme + "//" + location.host + "/ws?token=" + encodeURIComponent(token));
    status("connecting");
    socket.onopen = () => { status("connected"); retry = 500; };
    socket.onmessage = (e) => receive(JSON.parse(e.data));
    socket.onclose = (e) => {
      status("disconnected");
      if (e.code === 4403) return;                 // the token opens no seat: trying again won't help
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 8000);
    };
  }

  function status(text) {
    const s = document.getElementById("status");
    s.textContent = text;
    s.dataset.status = text;
  }

  function send(action) {
    if (!socket || socket.readyState !== WebSocket.OPEN) return say("not connected; trying again");
    socket.send(JSON.stringify({ type: "act", action }));
    selected = [];
  }

  function say(text, kind) {
    const box = document.getElementById("message");
    box.textContent = text;
    box.dataset.kind = kind || "error";
    box.hidden = false;
    clearTimeout(say.timer);
    say.timer = setTimeout(() => { box.hidden = true; }, 6000);
  }

  function receive(msg) {
    if (msg.type === "state") {
      if (state && state.game === msg.game && msg.version < state.version) return;   // an older position
      if (!state || state.version !== msg.version) selected = [];
      state = msg;
      render();
    } else if (msg.type === "refused") {
      say("Not allowed: " + msg.message);
    } else if (msg.type === "error") {
      say(msg.message);
    }
  }

  // ------------------------------------------------------------------ drawing the state
  function render() {
    const v = state.view, names = state.names, me = state.seat;
    const myTurn = v.current_player === me && v.legal_actions.length > 0;
    document.body.dataset.version = String(state.version);
    document.body.dataset.myturn = myTurn ? "1" : "0";
    document.body.dataset.over = v.is_over ? "1" : "0";
    document.title = (myTurn ? "\u25cf " : "") + state.title;
    document.getElementById("title").textContent = state.title;
    document.getElementById("hand-info").textContent = "hand " + v.hand_number + " \u00b7 " + RD.pretty(v.step);
    const turn = document.getElementById("turn");
    turn.textContent = v.is_over ? "game over" : myTurn ? "your turn" : (names[v.current_player] || "") + " to move";
    turn.className = myTurn ? "mine" : "";
    renderOthers(v, names, me);
    renderCenter(v, names);
    renderMine(v, names, me);
    renderActions(v);
    RD.scoresEl(document.getElementById("scores"), v, names);
    renderResult(state.hand_end, names);
    renderOver(v, names);
    RD.logEl(document.getElementById("log"), state.log);
  }

  function renderOthers(v, names, me) {
    const box = clear(document.getElementById("others"));
    for (let k = 1; k < v.players; k++) {            // around the table, from the seat after mine
      const s = (me + k) % v.players;
      const seat = el("div", { class: "seat-box" + (v.current_player === s ? " on-turn" : ""), "data-seat": s },
        el("div", { class: "seat-name" }, names[s] + (v.dealer === s ? " \u00b7 dealer" : "")));
      for (const [zone, entry] of seatZones(v, s)) seat.append(zoneEl(zone, entry));
      box.append(seat);
    }
  }

  function renderCenter(v, names) {
    const zones = clear(document.getElementById("table-zones"));
    for (const [zone, entry] of tableZones(v)) zones.append(zoneEl(zone, entry));
    RD.trickEl(document.getElementById("trick"), v, names);
    const teamBox = clear(document.getElementById("team-zones"));
    for (const [zone, perTeam] of Object.entries(v.team_zones || {})) {
      perTeam.forEach((entry, t) => teamBox.append(zoneEl(zone, entry, RD.pretty(zone) + " \u00b7 team " + (t + 1))));
    }
    RD.infoEl(document.getElementById("info"), v, names);
    RD.meldsEl(document.getElementById("melds"), v, names, onMeldClick);
  }

  function handZone(v) {
    // the seat's first per-seat zone whose cards it sees is its hand (the one it plays from)
    const mine = seatZones(v, state.seat).filter(([, e]) => e && Array.isArray(e.cards));
    return mine.length ? mine[0] : [null, { count: 0, cards: [] }];
  }

  function renderMine(v, names, me) {
    const [handName, hand] = handZone(v);
    document.getElementById("me-name").textContent = "You (seat " + (me + 1) + ")" + (v.dealer === me ? " \u00b7 dealer" : "") +
      (handName ? " \u00b7 " + RD.pretty(handName) + " " + hand.count : "");
    const box = clear(document.getElementById("hand"));
    box.dataset.zone = handName || "";
    for (const group of groupBySuit(hand.cards)) {
      const g = el("span", { class: "suit-group" });
      for (const item of group.cards) {
        const chosen = selected.includes(item.i);
        g.append(cardEl(item.text, { class: "in-hand" + (chosen ? " selected" : ""), onclick: () => toggle(item.i) }));
      }
      box.append(g);
    }
    const others = clear(document.getElementById("my-zones"));
    for (const [zone, entry] of seatZones(v, me)) if (zone !== handName) others.append(zoneEl(zone, entry));
  }

  function toggle(i) {
    selected = selected.includes(i) ? selected.filter((x) => x !== i) : selected.concat([i]);
    renderMine(state.view, state.names, state.seat);
    renderActions(state.view);
  }

  function selectedTexts() {
    const cards = handZone(state.view)[1].cards;
    return selected.map((i) => cards[i]).filter((t) => t !== undefined);
  }

  // the card texts an action names (those that are cards of this hand), "Jk=5S" counted as Jk
  function actionCards(text, hand) {
    const inHand = new Set(hand);
    return text.split(/\s+/).slice(1).map((w) => w.split("=")[0]).filter((w) => inHand.has(w));
  }

  function sameCards(a, b) {
    if (a.length !== b.length) return false;
    const x = a.slice().sort(), y = b.slice().sort();
    return x.every((t, i) => t === y[i]);
  }

  function renderActions(v) {
    const box = clear(document.getElementById("actions"));
    const chosen = selectedTexts();
    const hand = handZone(v)[1].cards;
    const sel = clear(document.getElementById("selection"));
    const verbs = new Set(v.legal_actions.map((a) => a.split(" ")[0]));
    if (chosen.length) {
      sel.append(el("span", {}, "selected: "), ...chosen.map((t) => cardEl(t)));
      for (const verb of ["play", "meld", "discard", "give"]) {
        if (verbs.has(verb) && (verb === "play" || verb === "meld" || chosen.length === 1)) {
          const text = verb + " " + chosen.join(" ");
          sel.append(el("button", { class: "compose", "data-action": text, onclick: () => send(text) }, text));
        }
      }
      if (verbs.has("layoff") && chosen.length) sel.append(el("span", { class: "hint" }, " or click a meld to lay off on it"));
    }
    for (const text of v.legal_actions) {
      const match = chosen.length && sameCards(actionCards(text, hand), chosen);
      box.append(el("button", { class: "action" + (match ? " match" : ""), "data-action": text, onclick: () => send(text) }, text));
    }
    document.getElementById("free-action").hidden = !v.legal_actions.length;
  }

  function onMeldClick(number) {
    const chosen = selectedTexts();
    if (!state || !chosen.length) return;
    if (state.view.legal_actions.some((a) => a.startsWith("layoff "))) send("layoff " + chosen.join(" ") + " on " + number);
  }

  function renderResult(end, names) {
    const box = clear(document.getElementById("result"));
    box.hidden = !end;
    if (!end) return;
    box.dataset.hand = String(end.hand);
    box.append(el("h3", {}, "Hand " + end.hand + " result"));
    if (end.result) box.append(el("p", { class: "result-words" }, end.result));
    box.append(el("p", { class: "final" }, "Last: " + end.final));
    const entry = end.entry || {};
    if (entry.order && entry.order.length) {
      box.append(el("ol", { class: "order" }, entry.order.map((s, i) =>
        el("li", {}, names[s] + (entry.roles && entry.roles[i] ? " \u2014 " + RD.pretty(entry.roles[i]) : "")))));
    }
    if (!end.result && entry.deadwood && entry.deadwood.some((d) => d)) {     // else the sentence says it
      box.append(el("p", {}, "Left in hand: " + entry.deadwood.map((d, s) => names[s] + " " + d).join(", ")));
    }
    const melds = el("ol", { class: "melds small" });
    RD.meldsEl(melds, { melds: end.melds, teams: state.view.teams }, names, null);
    if (end.melds.length) box.append(el("div", {}, "Melds as the hand ended:"), melds);
    const seen = el("div", { class: "zones" });
    for (const [zone, perSeat] of Object.entries(end.zones || {})) {
      if (!Array.isArray(perSeat)) continue;
      perSeat.forEach((entry, s) => {
        if (entry && Array.isArray(entry.cards) && entry.cards.length) seen.append(zoneEl(zone, entry, names[s] + " \u00b7 " + RD.pretty(zone), true));
      });
    }
    if (seen.childNodes.length) box.append(seen);
  }

  function renderOver(v, names) {
    const box = clear(document.getElementById("over"));
    box.hidden = !v.is_over;
    if (!v.is_over) return;
    const side = (w) => v.teams ? "team " + (w + 1) + " (" + v.teams[w].map((s) => names[s]).join(" and ") + ")" : names[w];
    const winners = v.winners || [];
    const winner = winners.length === 1 ? "winner: " + side(winners[0])
      : winners.length ? "shared win: " + winners.map(side).join(", ") : "no winner";
    const q = "?token=" + encodeURIComponent(token);
    box.append(el("h3", {}, "Game over"), el("p", {}, winner),
      el("a", { class: "button", id: "save-record", href: "/api/" + state.game + "/record" + q, download: "record.json" }, "Save record"),
      " ",
      el("a", { class: "button", id: "open-replay", href: "/replay?game=" + encodeURIComponent(state.game) + "&token=" + encodeURIComponent(token) }, "Replay"));
  }

  return { start };
})();
