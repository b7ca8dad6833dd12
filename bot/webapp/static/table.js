// The table app's page: one game, live, inside Telegram. Plain JavaScript, no build step.
//
// Telegram.WebApp.initData is exchanged once (POST /api/session) for a token kept in memory;
// the table comes on /api/stream (read with fetch, the token in a header, resumed with
// `since` after an error or when the phone wakes); a press goes to /api/act as a whole
// Choice, and a question the core asks back (`asking`) is answered with the next one.
"use strict";

const TELEGRAM_SDK = "https://telegram.org/js/telegram-web-app.js";
const TELEGRAM_WEB = "https://web.telegram.org";
const API = new URL("../api/", location.href);
const SVG = "http://www.w3.org/2000/svg";
const RETRY_MS = [500, 1000, 2000, 5000, 10000];
const COLOURS = {
  felt: "#1d6b44", ivory: "#fcf8ec", edge: "#80745c", divider: "#706652", pip: "#181614",
  back: "#861e2a", gold: "#ffc420", ink: "#105634", white: "#f6f6f0",
};

const state = {
  tg: null, token: null, expires: 0, view: null, version: -1, asking: null, askedAt: -1,
  stream: null, failures: 0, myTurn: false, clock: null, resultRound: null,
};
const $ = (id) => document.getElementById(id);

// -- start: Telegram's script (the playground's stand-in when the playground frames us) -----

function sdkSource() {
  if (window.parent === window) return TELEGRAM_SDK;
  const ancestors = location.ancestorOrigins;
  const framer = ancestors && ancestors.length ? ancestors[0]
    : document.referrer ? new URL(document.referrer).origin : TELEGRAM_WEB;
  // only Telegram Web and the playground may frame this page (its Content-Security-Policy)
  return framer === TELEGRAM_WEB ? TELEGRAM_SDK : `${framer}/static/telegram-web-app.js`;
}

function loadSdk() {
  return new Promise((resolve, reject) => {
    const script = document.createElement("script");
    script.src = sdkSource();
    script.onload = resolve;
    script.onerror = reject;
    document.head.append(script);
  });
}

async function start() {
  try {
    await loadSdk();
  } catch {
    return say("⚠ telegram-web-app.js");
  }
  const tg = state.tg = window.Telegram.WebApp;
  tg.ready();
  tg.expand();
  theme();
  tg.onEvent("themeChanged", theme);
  tg.BackButton.onClick(cancel);
  tg.MainButton.onClick(() => lobby("start"));  // shown only to the lobby's creator
  // put away (Telegram's `deactivated`, a hidden page), the app lets its stream go: the
  // bot then keeps the private hand up to date; back, it follows the table again
  tg.onEvent("deactivated", away);
  tg.onEvent("activated", reconnect);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") reconnect();
    else away();
  });
  if (!tg.initData) return say("⚠ Telegram");
  if (await session()) listen();
}

// Telegram's script sets the theme's colours as --tg-theme-* variables; the rest follows
function theme() {
  document.documentElement.dataset.scheme = state.tg.colorScheme === "dark" ? "dark" : "light";
}

// -- the server: a session, the stream, presses ----------------------------------------------

async function session() {
  const answer = await fetch(new URL("session", API), {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ init_data: state.tg.initData }),
  });
  const body = await answer.json().catch(() => ({}));
  if (!answer.ok) {
    say(`⚠ ${body.error || answer.status}`);
    return false;
  }
  state.token = body.token;
  state.expires = body.expires;
  document.documentElement.lang = body.language;
  return true;
}

function call(path, options = {}) {
  const headers = { Authorization: `Bearer ${state.token}`, ...(options.headers || {}) };
  return fetch(new URL(path, API), { ...options, headers, cache: "no-store" });
}

async function listen() {
  const control = new AbortController();
  state.stream = control;
  try {
    // the server ends a stream as its token expires: a fresh one first, then on from `since`
    if (Date.now() / 1000 > state.expires - 60 && !(await session())) return;
    const answer = await call(`stream?since=${state.version}`, { signal: control.signal });
    if (answer.status === 401) {  // its token went stale: a fresh one, and on
      if (await session()) listen();
      return;
    }
    if (!answer.ok) throw new Error(`stream: ${answer.status}`);
    const reader = answer.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value.replaceAll("\r\n", "\n");
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        received(buffer.slice(0, cut));
        buffer = buffer.slice(cut + 2);
      }
    }
  } catch (error) {
    if (control.signal.aborted) return;  // a reconnect replaced it
  }
  if (state.stream !== control) return;
  state.failures += 1;
  if (state.view) say(state.view.words.lost);
  const wait = RETRY_MS[Math.min(state.failures, RETRY_MS.length) - 1];
  setTimeout(() => state.stream === control && listen(), wait);
}

function reconnect() {
  if (!state.token) return;
  if (state.stream) state.stream.abort();
  listen();
}

function away() {
  const stream = state.stream;
  state.stream = null;
  if (stream) stream.abort();
}

function received(block) {
  let kind = "message";
  const data = [];
  for (const line of block.split("\n")) {
    if (line.startsWith("event:")) kind = line.slice(6).trim();
    else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
  }
  if (kind !== "table" || !data.length) return;
  const update = JSON.parse(data.join("\n"));
  if (update.version < state.version) return;  // a lobby's seats change within a version
  state.failures = 0;
  state.version = update.version;
  show(update.view);
}

async function act(choice, again = true) {
  const answer = await call("act", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ version: state.version, choice }),
  });
  const body = await answer.json().catch(() => ({}));
  if (answer.status === 401 && again && (await session())) return act(choice, false);
  if (!answer.ok) return toast(body.text || body.error || answer.status);
  if (body.result === "pending" && body.asking && body.asking.query !== "tiles") {
    ask(body.asking);
  } else {
    cancel();
  }
}

// the lobby: sit down; the creator's computers, rules and ▶ (`more`: the level, the option)
async function lobby(action, more = {}, again = true) {
  const answer = await call("lobby", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ action, ...more }),
  });
  if (answer.status === 401 && again && (await session())) return lobby(action, more, false);
  if (!answer.ok) {
    const body = await answer.json().catch(() => ({}));
    toast(body.text || body.error || answer.status);
  }
}

// «🎞 Повтор» of a round, «🔍 Разбор» of the game: sent to the private chat, the app says so
async function record(ask, round, again = true) {
  const answer = await call("record", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(round === undefined ? { ask } : { ask, round }),
  });
  if (answer.status === 401 && again && (await session())) return record(ask, round, false);
  const body = await answer.json().catch(() => ({}));
  toast(body.text || body.error || answer.status);
}

// -- what the page shows ---------------------------------------------------------------------

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "onclick") node.addEventListener("click", value);
    else if (value !== false && value !== null && value !== undefined) node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  node.append(...children);
  return node;
}

function button(text, onclick, extra = {}) {
  return el("button", { type: "button", onclick, ...extra }, text);
}

function say(text) {
  $("status").textContent = text;
}

function toast(text) {
  const box = $("toast");
  box.textContent = text;
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (box.hidden = true), 3000);
}

function show(view) {
  const before = state.myTurn;
  state.view = view;
  state.myTurn = Boolean(view.hand && view.hand.turn);
  if (state.asking && state.askedAt !== view.version) cancel();
  if (state.myTurn && !before) state.tg.HapticFeedback.impactOccurred("medium");
  $("title").textContent = view.title;
  say(view.you === null && view.phase !== "lobby" ? view.words.watching : "");
  seats(view);
  table(view);
  $("lobby").hidden = view.phase !== "lobby";
  if (view.phase === "lobby") gathering(view);
  mainButton(view);
  $("moves").replaceChildren(...view.moves.map((line) => el("li", {}, line)));
  result(view);
  hand(view);
  sheet(view);
}

function seats(view) {
  const shown = view.seats.map((seat) => el(
    "li",
    { class: ["seat", seat.to_move && "moving", seat.you && "you", seat.out && "out"]
      .filter(Boolean).join(" "), "data-seat": seat.seat },
    el("span", { class: "name" }, seat.computer && !seat.name.includes("🤖") ? `🤖 ${seat.name}` : seat.name),
    el("span", { class: "count" }, view.phase === "lobby" ? "" : String(seat.tiles)),
    el("span", { class: "note" }, seat.note || ""),
    el("span", { class: "clock" }),
  ));
  const lobby = view.lobby;
  for (let i = view.seats.length; lobby && i < lobby.players; i++) {
    shown.push(el("li", { class: "seat empty" }, el("span", { class: "name" }, view.words.empty_seat)));
  }
  $("seats").replaceChildren(...shown);
  state.clock = view.clock;
  tick();
}

function tick() {
  const clock = state.clock;
  if (!clock) return;
  const place = document.querySelector(`#seats [data-seat="${clock.seat}"] .clock`);
  if (!place) return;
  const left = Math.max(0, Math.round(clock.deadline - Date.now() / 1000));
  place.textContent = `⏱ ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
}
setInterval(tick, 1000);

// the table as the picture lays it out (`layout`: the renderer's geometry), scaled to the width
function table(view) {
  const layout = view.layout;
  $("felt").hidden = !layout;
  if (!layout) return;
  const felt = layout.felt;
  const picture = $("table");
  picture.setAttribute("viewBox", `${felt.x} ${felt.y} ${felt.w} ${felt.h}`);
  const parts = [svg("rect", { x: felt.x, y: felt.y, width: felt.w, height: felt.h, rx: 24,
    fill: COLOURS.felt })];
  for (const tile of layout.tiles) parts.push(face(layout, tile));
  const arms = state.asking && ["end", "arm"].includes(state.asking.query) ? state.asking.choices : [];
  for (const end of layout.ends) parts.push(mark(layout, end, arms.includes(end.arm)));
  picture.replaceChildren(...parts);
  const counts = [];
  if (view.count) {
    const scored = view.count.points ? ` · +${view.count.points} ${view.count.scorer}` : "";
    counts.push(`${view.count.label} ${view.count.total}${scored}`);
  }
  if (view.bazaar !== null) counts.push(`${view.words.bazaar} ${view.bazaar}`);
  $("counts").textContent = counts.join(" · ");
}

// a tile: halves top then bottom (or left then right), pips where the renderer puts them
function face(layout, tile, extra = {}) {
  const { x, y, w, h } = tile;
  const u = Math.min(w, h);
  const upright = h > w;
  const group = svg("g", { class: "tile", "data-tile": tile.tile, ...extra });
  group.append(svg("rect", {
    x: x + 1, y: y + 1, width: w - 2, height: h - 2, rx: Math.max(2, u * 0.17),
    fill: tile.closed ? COLOURS.back : COLOURS.ivory,
    stroke: tile.last ? COLOURS.gold : COLOURS.edge, "stroke-width": tile.last ? u * 0.09 : u * 0.045,
  }));
  if (tile.closed) return group;
  group.append(upright
    ? svg("line", { x1: x + u * 0.15, x2: x + u * 0.85, y1: y + u, y2: y + u, stroke: COLOURS.divider })
    : svg("line", { x1: x + u, x2: x + u, y1: y + u * 0.15, y2: y + u * 0.85, stroke: COLOURS.divider }));
  [tile.a, tile.b].forEach((value, half) => {
    for (const [across, along] of layout.pips[value]) {
      const cx = upright ? x + across * u : x + (along + half) * u;
      const cy = upright ? y + (along + half) * u : y + across * u;
      group.append(svg("circle", { cx, cy, r: layout.dots[value] * u,
        fill: layout.inks ? layout.inks[value] : COLOURS.pip }));
    }
  });
  return group;
}

// an open end's badge (a line) or arrow label (round a spinner); a choice when asked for
function mark(layout, end, chosen) {
  const { x, y, w, h } = end;
  const group = svg("g", { class: chosen ? "end choice" : "end", "data-arm": end.arm });
  group.append(svg("rect", { x, y, width: w, height: h, rx: h / 2, fill: chosen ? COLOURS.gold : COLOURS.white,
    stroke: COLOURS.gold, "stroke-width": 3 }));
  group.append(svg("text", { x: x + w / 2, y: y + h / 2, "text-anchor": "middle",
    "dominant-baseline": "central", "font-size": h * 0.55, "font-weight": "bold", fill: COLOURS.ink },
  end.text));
  if (chosen) {
    const reach = Math.max(w, h, 110);  // a generous target however small the table is drawn
    group.prepend(svg("circle", { cx: x + w / 2, cy: y + h / 2, r: reach / 2, fill: "transparent" }));
    group.addEventListener("click", () => answer(end.arm));
  }
  return group;
}

function small(tile, upright = true) {
  const u = 26;
  const drawn = { ...tile, x: 0, y: 0, w: upright ? u : 2 * u, h: upright ? 2 * u : u };
  return svg("svg", { viewBox: `0 0 ${drawn.w} ${drawn.h}`, width: drawn.w, height: drawn.h,
    "aria-label": `${tile.a}-${tile.b}` }, face(state.view.layout, drawn));
}

function gathering(view) {
  const actions = [];
  if (view.you === null) actions.push(button(view.words.sit, () => lobby("sit"), { class: "main" }));
  if (view.lobby.creator) {
    for (const level of ["easy", "normal", "hard"]) {
      actions.push(button(view.words[`computer_${level}`], () => lobby("computer", { level })));
    }
    actions.push(button(view.words.start, () => lobby("start"), { class: "main" }));
  }
  $("lobby").querySelector(".note").textContent = view.words.lobby;
  $("lobby").querySelector(".rules").textContent = view.lobby.rules;
  $("lobby").querySelector(".actions").replaceChildren(...actions);
  teams(view.lobby.teams, view.you !== null);
  options(view.lobby.options, view.words.options);
}

// a team game: the teams as they would sit; a seat picks one (picked again, let go)
function teams(shown, seated) {
  const box = $("teams");
  box.hidden = !shown;
  if (!shown) return;
  box.querySelector(".note").textContent = shown.line;
  box.querySelector(".actions").replaceChildren(...(seated ? shown.buttons : []).map((text, team) =>
    button(text, () => lobby("team", { team }), {
      class: shown.picked === team ? "current" : null, "aria-pressed": String(shown.picked === team),
    })));
}

// the creator's rules: a row of values for the preset and for each option, the current marked
function options(rows, title) {
  const box = $("options");
  box.hidden = !rows;
  if (!rows) return;
  box.querySelector("summary").textContent = title;
  box.querySelector(".rows").replaceChildren(...rows.map((row) => el(
    "div", { class: "choices", "data-key": row.key },
    ...row.choices.map((choice) => button(
      choice.text,
      () => choice.current || lobby("option", { key: row.key, value: choice.value }),
      { class: choice.current ? "current" : null, "aria-pressed": String(choice.current) },
    )),
  )));
}

// Telegram's MainButton: ▶ for the lobby's creator (as the lobby's own button)
function mainButton(view) {
  const main = state.tg.MainButton;
  if (view.phase === "lobby" && view.lobby.creator) main.setText(view.words.start).show();
  else if (main.isVisible) main.hide();
}

// the last round's end: open as it ends, folded once the next round is under way
function result(view) {
  const shown = view.result;
  const box = $("result");
  box.hidden = !shown;
  if (!shown) return;
  if (state.resultRound !== shown.round) box.open = view.phase !== "playing";
  state.resultRound = shown.round;
  const names = Object.fromEntries(view.seats.map((seat) => [seat.seat, seat.name]));
  const hands = shown.hands.map((h) => el("li", {}, el("span", { class: "name" }, names[h.seat]),
    ...h.tiles.map((tile) => small(tile, false))));
  const [head, ...lines] = shown.lines;
  const asks = [button(view.words.replay, () => record("replay", shown.round))];  // it is over
  if (view.phase === "over" && view.you !== null) {
    asks.push(button(view.words.review, () => record("review")));
  }
  box.replaceChildren(
    el("summary", {}, head),
    ...lines.map((line) => el("p", {}, line)),
    el("h2", {}, view.words.hands), el("ul", { class: "hands" }, ...hands),
    ...(shown.code ? [el("p", { class: "code" }, shown.code)] : []),
    ...shown.end.map((line) => el("p", { class: "end" }, line)),
    el("div", { class: "actions" }, ...asks),
  );
}

function hand(view) {
  const mine = view.hand;
  $("hand").hidden = !mine || view.phase !== "playing";  // at a round's end: the result
  if (!mine) return;
  const asking = state.asking !== null;
  const tiles = mine.tiles.map((tile) => button(small(tile), () => act({ chose: "tile", tile: tile.tile }), {
    class: tile.playable && mine.turn ? "tile playable" : "tile",
    disabled: !(tile.playable && mine.turn) || asking, "data-tile": tile.tile, "aria-label": `${tile.a}-${tile.b}`,
  }));
  const actions = [];
  if (mine.draw) actions.push(button(view.words.draw, () => act({ chose: "draw" })));
  if (mine.pass) actions.push(button(view.words.pass, () => act({ chose: "pass" })));
  if (mine.doubles) actions.push(button(view.words.doubles, () => act({ chose: "place", placed: [] })));
  $("hand").querySelector(".prompt").textContent = mine.turn ? view.words.your_turn : "";
  $("hand").querySelector(".tiles").replaceChildren(...tiles);
  $("hand").querySelector(".actions").replaceChildren(...(asking ? [] : actions));
}

function sheet(view) {
  $("sheet").hidden = !view.sheet;
  if (!view.sheet) return;
  $("sheet").querySelector("summary").textContent = view.words.sheet;
  $("sheet").querySelector("table").replaceChildren(...view.sheet.rows.map(
    (row) => el("tr", {}, ...row.map((cell) => el("td", {}, cell)))));
}

// -- a question the core asked: the places marked, the choices offered ----------------------

function ask(asking) {
  state.asking = asking;
  state.askedAt = state.version;
  state.tg.BackButton.show();
  const view = state.view;
  const words = view.words;
  const arms = Object.fromEntries(view.layout.ends.map((end) => [end.arm, endName(view.layout, end)]));
  const tiles = Object.fromEntries(view.hand.tiles.map((tile) => [tile.tile, tile]));
  const placed = asking.placed;
  const actions = [];
  let prompt = "";
  if (asking.query === "end" || asking.query === "arm") {
    prompt = words.pick_end;
    for (const arm of asking.choices) actions.push(button(arms[arm] || String(arm), () => answer(arm)));
  } else if (asking.query === "face") {
    prompt = words.pick_face;
    const put = (closed) => act({ chose: "place", tile: asking.tile, end: asking.arm, closed, placed });
    actions.push(button(words.open, () => put(false)), button(words.closed, () => put(true)));
  } else if (asking.query === "double") {
    prompt = words.pick_double;
    for (const tile of asking.choices) {
      actions.push(button(small(tiles[tile]), () => act({ chose: "place", tile, placed }), { class: "tile" }));
    }
  } else if (asking.query === "ready") {
    prompt = words.ready;
    if (asking.choices.length) actions.push(button(words.more, () => act({ chose: "place", placed })));
  }
  if (placed.length && ["double", "ready"].includes(asking.query)) {
    actions.push(button(words.done, () => act({ chose: "done", placed }), { class: "main" }));
  }
  actions.push(button(words.cancel, cancel));
  $("ask").hidden = false;
  $("ask").querySelector(".prompt").textContent = prompt;
  $("ask").querySelector(".actions").replaceChildren(...actions);
  table(view);
  hand(view);
}

// a line's ends by their side («⬅ 5», «3 ➡»), a spinner's arms by their labels («⬆ 4»)
function endName(layout, end) {
  if (layout.spinner) return end.text;
  return end.arm === 0 ? `⬅ ${end.text}` : `${end.text} ➡`;
}

// an end or arm chosen, on the table or by its button
function answer(arm) {
  const asking = state.asking;
  if (!asking) return;
  if (asking.query === "end") act({ chose: "tile", tile: asking.tile, end: arm });
  else act({ chose: "place", tile: asking.tile, end: arm, placed: asking.placed });
}

function cancel() {
  const asked = state.asking !== null;
  state.asking = null;
  $("ask").hidden = true;
  if (state.tg) state.tg.BackButton.hide();
  if (asked && state.view) {
    table(state.view);
    hand(state.view);
  }
}

start();
