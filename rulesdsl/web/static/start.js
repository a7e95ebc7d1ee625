// The start page: choose a bundled game or variant, set its parameters and seats, create the game,
// and hand out one link per person.
"use strict";

const Start = (function () {
  const { el, clear } = RD;
  let bots = [];
  let form = null;          // the chosen ruleset's parameters and player range

  async function start() {
    document.getElementById("start").hidden = false;
    document.getElementById("title").textContent = "Start a game";
    const data = await getJSON("/api/rulesets");
    bots = data.bots;
    const select = document.getElementById("ruleset");
    const groups = { game: el("optgroup", { label: "Games" }), variant: el("optgroup", { label: "Variants" }) };
    for (const r of data.rulesets) {
      const kind = r.name.includes("/") ? "variant" : "game";
      groups[kind].append(el("option", { value: r.name }, r.name + (r.title ? " \u2014 " + r.title : "")));
    }
    select.append(groups.game, groups.variant);
    if (data.served) select.value = data.served;
    select.addEventListener("change", () => choose(select.value));
    document.getElementById("players").addEventListener("change", drawSeats);
    document.getElementById("new-game").addEventListener("submit", create);
    await choose(select.value);
  }

  async function getJSON(url, options) {
    const response = await fetch(url, options);
    const data = await response.json();
    if (!response.ok) throw new Error(data.error || response.statusText);
    return data;
  }

  async function choose(name) {
    form = await getJSON("/api/ruleset?name=" + encodeURIComponent(name));
    const players = document.getElementById("players");
    players.min = form.players.min;
    players.max = form.players.max;
    players.value = form.players.default;
    players.disabled = form.players.min === form.players.max;
    drawSeats();
    drawParams();
  }

  function drawSeats() {
    const box = clear(document.getElementById("seats"));
    const n = Number(document.getElementById("players").value);
    for (let s = 0; s < n; s++) {
      const select = el("select", { name: "seat" + s, "data-seat": s },
        el("option", { value: "human" }, "person"), bots.map((b) => el("option", { value: b }, "bot: " + b)));
      select.value = s === 0 ? "human" : (bots.includes("greedy") ? "greedy" : bots[0]);
      box.append(el("label", { class: "seat-choice" }, "seat " + (s + 1) + " ", select));
    }
  }

  function drawParams() {
    const box = clear(document.getElementById("params"));
    for (const p of form.params) {
      box.append(el("label", { class: "param", title: p.doc || "" }, el("span", {}, RD.pretty(p.name)), paramInput(p)));
    }
  }

  function paramInput(p) {
    const attrs = { name: p.name, "data-param": p.name };
    if (p.choices) {
      const s = el("select", attrs, p.choices.map((c) => el("option", { value: JSON.stringify(c) }, String(c))));
      s.value = JSON.stringify(p.default);
      return s;
    }
    if (typeof p.default === "boolean") return el("input", Object.assign({ type: "checkbox", checked: p.default }, attrs));
    if (typeof p.default === "number") {
      return el("input", Object.assign({ type: "number", value: p.default, step: "any", min: p.min, max: p.max }, attrs));
    }
    if (Array.isArray(p.default)) return el("input", Object.assign({ type: "text", value: JSON.stringify(p.default), "data-json": "1" }, attrs));
    return el("input", Object.assign({ type: "text", value: String(p.default) }, attrs));
  }

  function paramValue(input) {
    if (input.tagName === "SELECT") return JSON.parse(input.value);
    if (input.type === "checkbox") return input.checked;
    if (input.type === "number") return Number(input.value);
    if (input.dataset.json) return JSON.parse(input.value);
    return input.value;
  }

  async function create(e) {
    e.preventDefault();
    const params = {};
    try {
      document.querySelectorAll("#params [data-param]").forEach((input) => { params[input.dataset.param] = paramValue(input); });
    } catch (err) {
      return showError("a list parameter must be written as JSON, e.g. [1, 2]");
    }
    const seats = Array.from(document.querySelectorAll("#seats select")).map((s) => s.value);
    const body = { ruleset: document.getElementById("ruleset").value, params, seats };
    try {
      showLinks(await getJSON("/api/games", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }));
    } catch (err) {
      showError(err.message);
    }
  }

  function showError(text) {
    const box = document.getElementById("message");
    box.textContent = text;
    box.hidden = false;
  }

  function showLinks(made) {
    document.getElementById("message").hidden = true;
    document.getElementById("created").hidden = false;
    const list = clear(document.getElementById("links"));
    for (const s of made.seats) {
      list.append(el("li", { "data-seat": s.seat }, "seat " + (s.seat + 1) + ": ",
        s.link ? el("a", { href: s.link, target: "_blank", class: "seat-link" }, s.link) : "bot (" + s.player + ")"));
    }
    const host = clear(document.getElementById("host-link"));
    host.append("Host only (shows every card; save the game at any time): ",
      el("a", { href: made.record, class: "host-record" }, "record"));
  }

  return { start };
})();
