// The live page: a snapshot from /events, then patches merged into it, then a redraw.
"use strict";

let state = { games: {}, finished: [], standings: null, llr: [], title: "" };

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  for (const child of children) node.append(child);
  return node;
}

function merge(patch) {
  for (const [key, value] of Object.entries(patch)) {
    if (key === "games") {
      for (const [id, game] of Object.entries(value)) {
        if (game === null) delete state.games[id];
        else { game.at = performance.now(); state.games[id] = game; }
      }
    } else if (key === "finished") {
      const ids = new Set(value.map((f) => f.game));
      state.finished = state.finished.filter((f) => !ids.has(f.game)).concat(value);
    } else {
      state[key] = value;
    }
  }
}

function clockText(ms) {
  if (ms === null || ms === undefined) return "–";
  const total = Math.max(0, ms) / 1000;
  const minutes = Math.floor(total / 60);
  const seconds = total - minutes * 60;
  const shown = total < 20 ? seconds.toFixed(1) : Math.floor(seconds).toString();
  return `${minutes}:${shown.padStart(total < 20 ? 4 : 2, "0")}`;
}

function infoText(info) {
  if (!info) return "";
  const parts = [];
  if (info.depth !== null) parts.push(`depth ${info.depth}`);
  if (info.score !== null) parts.push(`score ${info.score}`);
  if (info.nodes !== null) parts.push(`nodes ${info.nodes}`);
  if (info.pv && info.pv.length) parts.push(`pv ${info.pv.join(" ")}`);
  return parts.join("  ");
}

function movesList(game) {
  const box = el("div", { class: "moves" });
  const perTurn = game.seat_names.length;
  game.moves.forEach((move, i) => {
    if (i % perTurn === 0) box.append(el("span", { class: "n" }, `${i / perTurn + 1}.`), " ");
    box.append(move, " ");
  });
  return box;
}

function gameCard(game) {
  const card = el("article", { class: "game", "data-game": String(game.game) });
  const heading = game.title || `Game ${game.game + 1} (round ${game.label})`;
  card.append(el("h2", {}, heading));
  const board = el("div", { class: "board", "data-plies": String(game.moves.length) });
  board.innerHTML = game.svg; // SVG drawn by the server from the position
  card.append(board);
  const seats = el("div", { class: "seats" });
  const ticking = performance.now() - game.at;
  game.players.forEach((name, seat) => {
    const toMove = game.turn === seat;
    seats.append(el("span", { class: toMove ? "seat to-move" : "seat" },
      `${game.seat_names[seat]}: ${name}`));
    let ms = game.clocks_ms[seat];
    if (toMove && ms !== null) ms -= ticking;
    seats.append(el("span", { class: "clock", "data-seat": String(seat) }, clockText(ms)));
    seats.append(el("span", { class: "info" }, infoText(game.infos[seat])));
  });
  card.append(seats, movesList(game));
  return card;
}

function drawBoards(changed) {
  const box = document.getElementById("boards");
  for (const card of [...box.children]) {
    if (!(card.dataset.game in state.games)) card.remove();
  }
  for (const [id, game] of Object.entries(state.games)) {
    if (changed && !changed.has(id) && box.querySelector(`.game[data-game="${id}"]`)) continue;
    const card = gameCard(game);
    const old = box.querySelector(`.game[data-game="${id}"]`);
    if (old) old.replaceWith(card); else box.append(card);
    const moves = card.querySelector(".moves");
    moves.scrollTop = moves.scrollHeight;
  }
  document.getElementById("none").hidden = Object.keys(state.games).length > 0;
}

function drawStandings() {
  const body = document.querySelector("#standings tbody");
  const table = state.standings;
  const rows = table ? table.rows : [];
  body.replaceChildren(...rows.map((r, i) => el("tr", {},
    el("td", { class: "num" }, String(i + 1)), el("td", {}, r.name),
    el("td", { class: "num" }, String(r.games)), el("td", { class: "num" }, String(r.points)),
    el("td", { class: "num" }, String(r.wins)), el("td", { class: "num" }, String(r.draws)),
    el("td", { class: "num" }, String(r.losses)), el("td", {}, r.elo_text))));
  const progress = document.getElementById("progress");
  progress.textContent = table ? `${table.done} of ${table.total} games · ${table.status}` : "";
  const sprt = document.getElementById("sprt");
  if (table && table.sprt) {
    const s = table.sprt;
    sprt.textContent = `SPRT elo0 ${s.elo0} elo1 ${s.elo1}: LLR ${s.llr.toFixed(2)} in ` +
      `[${s.lower.toFixed(2)}, ${s.upper.toFixed(2)}]` + (s.decision ? ` → ${s.decision}` : "");
    drawChart(s);
  } else {
    sprt.textContent = "";
    document.getElementById("llr-chart").replaceChildren();
  }
}

function drawChart(sprt) {
  const ns = "http://www.w3.org/2000/svg";
  const w = 320, h = 140, pad = 24;
  const points = state.llr;
  const maxGames = Math.max(1, ...points.map((p) => p[0]));
  // the bounds fix the scale; an LLR past a bound is drawn on the chart's edge
  const top = sprt.upper * 1.25, bottom = sprt.lower * 1.25;
  const x = (g) => pad + (g / maxGames) * (w - pad - 6);
  const y = (v) => 6 + ((top - Math.min(top, Math.max(bottom, v))) / (top - bottom)) * (h - 12 - 14);
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  svg.setAttribute("class", "llr");
  const add = (tag, attrs, text) => {
    const node = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    svg.append(node);
  };
  for (const [value, colour] of [[sprt.upper, "#2e8b3a"], [0, "#bbb"], [sprt.lower, "#c62828"]]) {
    add("line", { x1: pad, x2: w - 6, y1: y(value), y2: y(value), stroke: colour, "stroke-dasharray": "4 3" });
    add("text", { x: 2, y: y(value) + 4, "font-size": 10, fill: colour }, value.toFixed(1));
  }
  if (points.length) {
    add("polyline", { class: "llr-line", fill: "none", stroke: "#1f5bb8", "stroke-width": 2,
      points: points.map((p) => `${x(p[0])},${y(p[1])}`).join(" ") });
  }
  add("text", { x: w - 6, y: h - 2, "font-size": 10, "text-anchor": "end", fill: "#777" },
    `LLR over ${maxGames} games`);
  document.getElementById("llr-chart").replaceChildren(svg);
}

function drawFinished() {
  const body = document.querySelector("#finished tbody");
  const rows = state.finished.slice().reverse().map((f) => el("tr", { "data-game": String(f.game) },
    el("td", { class: "num" }, String(f.game + 1)), el("td", {}, f.players.join(" vs ")),
    el("td", {}, f.result), el("td", {}, f.termination === "normal" ? f.reason : f.termination),
    el("td", { class: "num" }, String(f.plies)),
    el("td", {}, el("a", { href: `/games/${f.game}.${f.record_format}`, download: "" },
      f.record_format.toUpperCase()))));
  body.replaceChildren(...rows);
}

// Redraws wait for the next frame, so a burst of patches costs one redraw.
let dirty = null;

function schedule(patch) {
  const first = dirty === null;
  if (first) dirty = { all: false, games: new Set(), standings: false, finished: false };
  if (patch === null) dirty.all = true;
  else {
    for (const id of Object.keys(patch.games || {})) dirty.games.add(id);
    if ("standings" in patch) dirty.standings = true;
    if ("finished" in patch) dirty.finished = true;
  }
  if (first) requestAnimationFrame(draw);
}

function draw() {
  const todo = dirty;
  dirty = null;
  if (todo.all) {
    document.getElementById("title").textContent = state.title || "tei live";
    if (state.title) document.title = state.title;
  }
  if (todo.all || todo.games.size) drawBoards(todo.all ? null : todo.games);
  if (todo.all || todo.standings) drawStandings();
  if (todo.all || todo.finished) drawFinished();
}

function connect() {
  const status = document.getElementById("connection");
  const source = new EventSource("/events");
  source.addEventListener("open", () => { status.textContent = "live"; status.className = "online"; });
  source.addEventListener("error", () => { status.textContent = "disconnected (retrying)"; status.className = "offline"; });
  source.addEventListener("snapshot", (e) => {
    state = JSON.parse(e.data);
    for (const game of Object.values(state.games)) game.at = performance.now();
    schedule(null);
  });
  source.addEventListener("patch", (e) => {
    const patch = JSON.parse(e.data); merge(patch); schedule(patch);
  });
}

// the clock of the side to move runs down between updates
function tick() {
  for (const game of Object.values(state.games)) {
    const ticking = performance.now() - game.at;
    const seat = game.turn;
    if (seat === null || game.clocks_ms[seat] === null) continue;
    const clock = document.querySelector(`.game[data-game="${game.game}"] .clock[data-seat="${seat}"]`);
    if (clock) clock.textContent = clockText(game.clocks_ms[seat] - ticking);
  }
}
setInterval(tick, 250);
connect();
