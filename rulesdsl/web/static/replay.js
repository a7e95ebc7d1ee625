// A replay: a record (uploaded, or a finished game's) shown position by position, every seat's cards.
"use strict";

const Replay = (function () {
  const { el, clear, zoneEl, tableZones, seatZones } = RD;
  let key = null, steps = 0, step = 0, names = [];

  async function start() {
    document.getElementById("replay").hidden = false;
    document.getElementById("title").textContent = "Replay";
    document.getElementById("record-file").addEventListener("change", upload);
    const q = new URLSearchParams(location.search);
    if (q.get("game")) await open({ game: q.get("game"), token: q.get("token") || "" });
    for (const [id, move] of [["r-first", () => 0], ["r-back", () => step - 1], ["r-next", () => step + 1], ["r-last", () => steps]]) {
      document.getElementById(id).addEventListener("click", () => go(move()));
    }
    document.getElementById("r-slider").addEventListener("input", (e) => go(Number(e.target.value)));
    document.addEventListener("keydown", (e) => {
      if (!key || e.target.tagName === "INPUT" && e.target.type !== "range") return;
      if (e.key === "ArrowRight") go(step + 1);
      if (e.key === "ArrowLeft") go(step - 1);
    });
  }

  function upload(e) {
    const file = e.target.files[0];
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => {
      let record;
      try { record = JSON.parse(reader.result); } catch (err) { return fail("that file is not JSON"); }
      open({ record });
    };
    reader.readAsText(file);
  }

  function fail(text) {
    const box = document.getElementById("message");
    box.textContent = text;
    box.hidden = false;
  }

  async function open(body) {
    const response = await fetch("/api/replays", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const data = await response.json();
    if (!response.ok) return fail(data.error);
    document.getElementById("message").hidden = true;
    key = data.replay;
    steps = data.steps;
    names = data.names;
    document.getElementById("replay-view").hidden = false;
    const slider = document.getElementById("r-slider");
    slider.max = String(steps);
    await go(0);
  }

  async function go(to) {
    to = Math.max(0, Math.min(steps, to));
    const response = await fetch("/api/replays/" + encodeURIComponent(key) + "/" + to);
    const data = await response.json();
    if (!response.ok) return fail(data.error);
    step = data.step;
    draw(data);
  }

  function draw(p) {
    document.body.dataset.step = String(p.step);
    document.getElementById("title").textContent = "Replay: " + p.title;
    document.getElementById("r-slider").value = String(p.step);
    document.getElementById("r-step").textContent = "action " + p.step + " of " + p.steps + " \u00b7 hand " + p.hand_number;
    document.getElementById("r-action").textContent = p.action ? "last: " + p.action : "the deal";
    const seats = clear(document.getElementById("r-seats"));
    p.views.forEach((view, s) => {
      const box = el("div", { class: "seat-box" + (view.current_player === s ? " on-turn" : ""), "data-seat": s },
        el("div", { class: "seat-name" }, p.names[s] + (view.dealer === s ? " \u00b7 dealer" : "")));
      for (const [zone, entry] of seatZones(view, s)) box.append(zoneEl(zone, entry, null, true));
      seats.append(box);
    });
    const first = p.views[0];
    const zones = clear(document.getElementById("r-table-zones"));
    for (const [zone, entry] of tableZones(first)) zones.append(zoneEl(zone, entry));
    for (const [zone, perTeam] of Object.entries(first.team_zones || {})) {
      perTeam.forEach((entry, t) => zones.append(zoneEl(zone, p.views.map((v) => v.team_zones[zone][t]).find((e) => e.cards) || entry,
        RD.pretty(zone) + " \u00b7 team " + (t + 1))));
    }
    RD.trickEl(document.getElementById("r-trick"), first, p.names);
    RD.meldsEl(document.getElementById("r-melds"), first, p.names, null);
    RD.scoresEl(document.getElementById("r-scores"), first, p.names);
    RD.logEl(document.getElementById("r-log"), p.log);
  }

  return { start };
})();

// which page this address is: /t/TOKEN or /table/GAME?token=... (a seat), /replay, else the start page
(function route() {
  const path = location.pathname;
  const q = new URLSearchParams(location.search);
  if (path.startsWith("/t/")) {
    document.body.dataset.page = "table";
    Seat.start(decodeURIComponent(path.slice(3)));
  } else if (path.startsWith("/table/")) {
    document.body.dataset.page = "table";
    Seat.start(q.get("token") || "");
  } else if (path === "/replay") {
    document.body.dataset.page = "replay";
    Replay.start();
  } else {
    document.body.dataset.page = "start";
    Start.start();
  }
})();
