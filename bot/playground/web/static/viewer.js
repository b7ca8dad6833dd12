// The record viewer: a finished game's record (docs/RECORD.md) step by step, each table
// picture drawn on the server by the bot's own renderer (bot/playground/viewer.py).
// Opened from a .json/.jsonl document in a chat («▶ open in viewer») or from a local file.
// Its words are the page's language's, from the server (`GET /viewer/words`).
"use strict";

const viewer = (() => {
  const box = document.createElement("div");
  box.id = "viewer";
  box.hidden = true;
  box.setAttribute("role", "dialog");
  box.innerHTML = `
    <div class="sheet">
      <header>
        <strong data-word="title">📼 Record viewer</strong>
        <span class="game"></span>
        <label class="file"><span data-word="file">Open a file…</span>
          <input type="file" accept=".json,.jsonl,application/json"></label>
        <button type="button" class="close" data-title="close" title="close (Esc)">✕</button>
      </header>
      <p class="error" hidden></p>
      <p class="empty" data-word="empty"></p>
      <div class="chooser" hidden><p data-word="several"></p><ol></ol></div>
      <div class="player" hidden>
        <div class="controls">
          <label><span data-word="round">Round</span> <select class="round" aria-label="round"></select></label>
          <button type="button" class="first" data-title="first">⏮</button>
          <button type="button" class="prev" data-title="prev">◀</button>
          <span class="step"></span>
          <button type="button" class="next" data-title="next">▶</button>
          <button type="button" class="last" data-title="last">⏭</button>
          <span class="code"></span>
        </div>
        <p class="move"></p>
        <p class="review" hidden></p>
        <div class="stage">
          <img class="frame" data-alt="table">
          <ol class="moves"></ol>
        </div>
        <table class="hands"></table>
      </div>
    </div>`;
  const $ = (selector) => box.querySelector(selector);
  const shown = { id: null, game: null, round: 0, step: 0 };
  const words = {};

  // A word with its `{holes}` filled: say("not-json", {name, error}).
  function say(word, holes = {}) {
    return (words[word] || word).replace(/\{(\w+)\}/g, (hole, name) => holes[name] ?? hole);
  }

  async function learnWords() {
    try {
      Object.assign(words, await (await fetch("/viewer/words")).json());
    } catch {
      return;  // the page's own errors say that the playground is gone
    }
    for (const element of box.querySelectorAll("[data-word]")) element.textContent = say(element.dataset.word);
    for (const element of box.querySelectorAll("[data-title]")) element.title = say(element.dataset.title);
    for (const element of box.querySelectorAll("[data-alt]")) element.alt = say(element.dataset.alt);
    for (const element of document.querySelectorAll(".open-viewer")) element.textContent = say("open");
  }

  function fail(text) {
    $(".error").textContent = text;
    $(".error").hidden = !text;
  }

  function open() {
    box.hidden = false;
    fail("");
  }

  function close() { box.hidden = true; }

  // A file's text: one record, or JSON Lines (one a line) to pick from.
  function load(text, name) {
    let games;
    try {
      games = text.split("\n").filter((line) => line.trim()).map((line) => JSON.parse(line));
    } catch (error) {
      try { games = [JSON.parse(text)]; } catch { return fail(say("not-json", { name, error: error.message })); }
    }
    if (games.length === 1) return show(games[0]);
    if (!games.length) return fail(say("no-game", { name }));
    choose(games);
  }

  // Which of the empty viewer's hint, a file's list of games and the player shows.
  function mode(name) {
    for (const part of ["empty", "chooser", "player"]) $(`.${part}`).hidden = part !== name;
  }

  function choose(games) {
    mode("chooser");
    const list = $(".chooser ol");
    list.replaceChildren();
    for (const game of games) {
      const item = document.createElement("li");
      const pick = document.createElement("button");
      pick.type = "button";
      const seats = (game.seats || []).map((s) => s.name).join(", ");
      const rounds = (game.rounds || []).length;
      pick.textContent = `№${game.game} · ${game.preset} · ${(game.ended_at || "").slice(0, 16).replace("T", " ")}`
        + ` · ${seats} · ${say("rounds", { rounds })}`;
      pick.addEventListener("click", () => show(game));
      item.append(pick);
      list.append(item);
    }
  }

  async function show(record) {
    open();
    let answer;
    try {
      const response = await fetch("/viewer/open", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(record),
      });
      answer = await response.json();
    } catch (error) {
      return fail(say("no-answer", { error }));
    }
    if (!answer.ok) return fail(answer.error);
    mode("player");
    Object.assign(shown, { id: answer.id, game: answer, round: 0, step: 0 });
    $(".game").textContent = `№${answer.game} · ${answer.preset} · ${answer.seats.join(", ")}`;
    const select = $(".round");
    select.replaceChildren(...answer.rounds.map((r, k) => new Option(`${r.round}`, `${k}`)));
    draw();
  }

  function frameUrl(round, step) {
    return `/viewer/${shown.id}/frame/${shown.game.rounds[round].round}/${step}.png`;
  }

  function draw() {
    const round = shown.game.rounds[shown.round];
    const steps = round.steps;
    const step = steps[shown.step];
    const last = steps.length - 1;
    $(".round").value = `${shown.round}`;
    $(".frame").src = frameUrl(shown.round, shown.step);
    $(".step").textContent = step.label;
    $(".code").textContent = round.code ? `🃏 ${round.code}` : "";
    const ending = shown.step === last && round.result ? ` — ${round.result}` : "";
    $(".move").textContent = `${step.review.length ? "⚠ " : ""}${step.words}${ending}`;
    const review = $(".review");
    review.hidden = !step.review.length;
    review.textContent = step.review.join("\n");
    drawMoves(steps);
    drawHands(step);
    if (shown.step < last) new Image().src = frameUrl(shown.round, shown.step + 1);  // ready for ▶
  }

  function drawMoves(steps) {
    const list = $(".moves");
    list.replaceChildren(...steps.map((step, k) => {
      const item = document.createElement("li");
      item.textContent = `${step.review.length ? "⚠ " : ""}${k ? `${k}. ` : ""}${step.words}`;
      item.classList.toggle("current", k === shown.step);
      item.classList.toggle("marked", step.review.length > 0);
      item.addEventListener("click", () => go(shown.round, k));
      return item;
    }));
    const current = list.children[shown.step];
    if (current) current.scrollIntoView({ block: "nearest" });
  }

  function drawHands(step) {
    const rows = step.hands.map((hand, seat) => {
      const row = document.createElement("tr");
      if (seat === step.to_move) row.className = "to-move";
      const name = document.createElement("th");
      name.textContent = shown.game.seats[seat];
      const tiles = document.createElement("td");
      tiles.textContent = hand.length ? hand.join(" ") : "—";
      row.append(name, tiles);
      return row;
    });
    $(".hands").replaceChildren(...rows);
  }

  function go(round, step) {
    const rounds = shown.game.rounds;
    if (step < 0 && round > 0) [round, step] = [round - 1, rounds[round - 1].steps.length - 1];
    else if (step >= rounds[round].steps.length && round + 1 < rounds.length) [round, step] = [round + 1, 0];
    shown.round = round;
    shown.step = Math.max(0, Math.min(step, rounds[round].steps.length - 1));
    draw();
  }

  const moves = {
    first: () => go(shown.round, 0),
    prev: () => go(shown.round, shown.step - 1),
    next: () => go(shown.round, shown.step + 1),
    last: () => go(shown.round, shown.game.rounds[shown.round].steps.length - 1),
  };
  for (const [name, move] of Object.entries(moves)) $(`.${name}`).addEventListener("click", move);
  $(".round").addEventListener("change", (event) => go(Number(event.target.value), 0));
  $(".frame").addEventListener("load", () => fail(""));
  $(".frame").addEventListener("error", () => {
    if (shown.id) fail(say("no-picture"));
  });
  $(".close").addEventListener("click", close);
  box.addEventListener("click", (event) => { if (event.target === box) close(); });
  $("input[type=file]").addEventListener("change", async (event) => {
    const [file] = event.target.files;
    event.target.value = "";
    if (file) load(await file.text(), file.name);
  });
  const KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
  document.addEventListener("keydown", (event) => {
    if (box.hidden) return;
    if (event.key === "Escape") return close();
    if (!KEYS[event.key] || !shown.id || $(".player").hidden || event.target.matches("input, select")) return;
    event.preventDefault();
    moves[KEYS[event.key]]();
  });
  document.body.append(box);
  document.getElementById("records").addEventListener("click", open);

  // «▶ open in viewer» beside a chat's .json/.jsonl document (a button: the chats treat a
  // link as one to follow).
  function link(file) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "open-viewer";
    button.textContent = say("open");
    button.addEventListener("click", async () => {
      open();
      try {
        const response = await fetch(file.src);
        if (!response.ok) return fail(`${file.name}: ${response.status}`);
        load(await response.text(), file.name);
      } catch (error) {
        fail(say("no-answer", { error }));
      }
    });
    return button;
  }
  learnWords();

  return { link, load, show, close };
})();
