// The playground's page: two chats fed by Server-Sent Events; what you do is POSTed.
"use strict";

const params = new URLSearchParams(location.search);
const state = { user: params.get("user") || "", me: null, chats: {}, source: null, language: "ru" };
// An empty group's word on how to begin, in the people's language (the bot speaks it too).
const HINTS = {
  ru: "Напишите /newgame, чтобы собрать стол",
  en: "Type /newgame to gather a table",
};

const TAGS = {
  bold: "b", italic: "i", underline: "u", strikethrough: "s", code: "code", pre: "pre",
  blockquote: "blockquote", expandable_blockquote: "blockquote",
};

function escapeText(text) {
  return text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

const SAFE_LINK = /^(https?:|tg:)/i;

// A link's address: with no scheme it is a web address (Telegram's `url` entities may
// omit it); anything but http(s) and tg is not a link here.
function address(url) {
  const full = /^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `https://${url}`;
  return SAFE_LINK.test(full) ? full : null;
}

// The tags around a piece of text that `entity` covers: [opening, closing].
function tags(entity, text) {
  const tag = TAGS[entity.type];
  if (tag) return [`<${tag}>`, `</${tag}>`];
  const piece = text.slice(entity.offset, entity.offset + entity.length);
  const link = entity.type === "text_link" ? address(entity.url || "")
    : entity.type === "url" ? address(piece) : null;
  if (link) return [`<a href="${escapeText(link)}" target="_blank" rel="noopener">`, "</a>"];
  if (entity.type === "spoiler") return ['<span class="spoiler">', "</span>"];
  if (entity.type === "bot_command") {
    return [`<span class="cmd" data-command="${escapeText(piece)}">`, "</span>"];
  }
  return ["<span>", "</span>"];
}

// Telegram's entities count UTF-16 code units, as JavaScript strings do. They may overlap,
// so the text is cut where any entity starts or ends, and each piece is wrapped in the
// entities that cover it (outer first): always well-nested HTML.
function formatted(text, entities) {
  const spans = (entities || []).filter((e) => e.length > 0)
    .sort((a, b) => a.offset - b.offset || b.length - a.length);
  const cuts = [...new Set([0, text.length, ...spans.flatMap((e) => [e.offset, e.offset + e.length])])]
    .filter((at) => at >= 0 && at <= text.length).sort((a, b) => a - b);
  let html = "";
  for (let k = 0; k + 1 < cuts.length; k++) {
    const [from, to] = [cuts[k], cuts[k + 1]];
    const covering = spans.filter((e) => e.offset <= from && e.offset + e.length >= to)
      .map((e) => tags(e, text));
    html += covering.map(([open]) => open).join("");
    html += escapeText(text.slice(from, to));
    html += covering.reverse().map(([, close]) => close).join("");
  }
  return html;
}

function pane(name) { return document.getElementById(name); }

// An animation plays as Telegram's clients play one (a GIF as a picture, an MP4 looped and
// muted); a document is a link that downloads it.
function fileElement(file) {
  if (file.kind === "animation") {
    const video = file.mime === "video/mp4";
    const element = document.createElement(video ? "video" : "img");
    element.src = file.src;
    if (file.width && file.height) [element.width, element.height] = [file.width, file.height];
    if (video) Object.assign(element, { autoplay: true, loop: true, muted: true, playsInline: true });
    else element.alt = "animation";
    element.className = "animation";
    return element;
  }
  const link = document.createElement("a");
  link.className = "document";
  link.href = file.src;
  link.download = file.name || "document";
  link.textContent = `📄 ${file.name || "document"} · ${Math.max(1, Math.round(file.size / 1024))} KB`;
  if (!/\.jsonl?$/i.test(file.name || "") || typeof viewer === "undefined") return link;
  const both = document.createElement("div");  // a game record: the viewer opens it too
  both.append(link, viewer.link(file));
  return both;
}

function messageElement(chatName, message) {
  const item = document.createElement("li");
  item.className = "msg";
  item.dataset.id = message.id;
  const bubble = document.createElement("div");
  bubble.className = "bubble";
  item.append(bubble);
  if (message.service) {
    item.classList.add("service");
    bubble.textContent = message.service;
    return item;
  }
  const mine = state.me && message.sender_id === state.me.id;
  if (mine) item.classList.add("mine");
  if (!mine && chatName === "group") {
    const sender = document.createElement("div");
    sender.className = "sender";
    sender.textContent = message.sender;
    bubble.append(sender);
  }
  if (message.photo) {
    const image = document.createElement("img");
    image.src = message.photo.src;
    image.width = message.photo.width;
    image.height = message.photo.height;
    image.alt = "picture";
    bubble.append(image);
  }
  if (message.file) bubble.append(fileElement(message.file));
  if (message.text) {
    const text = document.createElement("div");
    text.className = "text";
    text.innerHTML = formatted(message.text, message.entities);
    bubble.append(text);
  }
  if (message.edited) {
    const meta = document.createElement("div");
    meta.className = "meta";
    meta.textContent = "edited";
    bubble.append(meta);
  }
  if (message.buttons.length) {
    const keyboard = document.createElement("div");
    keyboard.className = "keyboard";
    message.buttons.forEach((row, r) => {
      const line = document.createElement("div");
      line.className = "row";
      row.forEach((button, c) => {
        const element = document.createElement("button");
        element.type = "button";
        element.textContent = button.text;
        if (button.url) element.classList.add("link");
        element.addEventListener("click", () => press(chatName, message.id, r, c, button));
        line.append(element);
      });
      keyboard.append(line);
    });
    item.append(keyboard);
  }
  return item;
}

function nearBottom(list) { return list.scrollHeight - list.scrollTop - list.clientHeight < 80; }

// The ↓ button shows while the chat is scrolled up from its newest message.
function showNewest(chatName) {
  const section = pane(chatName);
  section.querySelector(".newest").hidden = nearBottom(section.querySelector(".messages"));
}

// The group's hint shows until someone has written there (joins do not count).
function showHint() {
  const section = pane("group");
  const hint = section.querySelector(".hint");
  const said = [...section.querySelector(".messages").children]
    .some((li) => !li.classList.contains("service"));
  const text = escapeText(HINTS[state.language] || HINTS.en);
  hint.innerHTML = text.replace("/newgame", '<span class="cmd" data-command="/newgame">/newgame</span>');
  hint.hidden = said;
}

function tab(chatName) { return document.querySelector(`.tabs [data-pane="${chatName}"]`); }

// On a narrow screen one chat shows at a time (style.css): its tab is chosen, and the other
// one's tab is marked when a message arrives there.
function choose(chatName) {
  for (const name of ["group", "private"]) {
    pane(name).classList.toggle("chosen", name === chatName);
    tab(name).setAttribute("aria-selected", String(name === chatName));
  }
  tab(chatName).classList.remove("unread");
  const list = pane(chatName).querySelector(".messages");
  list.scrollTop = list.scrollHeight;  // a chat out of sight kept no place: at its newest
  showNewest(chatName);
}

function upsert(chatName, message) {
  const list = pane(chatName).querySelector(".messages");
  const old = list.querySelector(`li[data-id="${message.id}"]`);
  if (!old && !message.deleted && !pane(chatName).classList.contains("chosen")) {
    tab(chatName).classList.add("unread");
  }
  const stick = nearBottom(list);
  if (message.deleted) {
    if (old) old.remove();
  } else if (old) {
    old.replaceWith(messageElement(chatName, message));
  } else {
    const later = [...list.children].find((li) => Number(li.dataset.id) > message.id);
    list.insertBefore(messageElement(chatName, message), later || null);
  }
  if (stick) list.scrollTop = list.scrollHeight;
  showNewest(chatName);
  if (chatName === "group") showHint();
}

function setCommands(chatName, commands) {
  const menu = pane(chatName).querySelector(".commands");
  menu.replaceChildren();
  for (const { command, description } of commands || []) {
    const item = document.createElement("li");
    item.innerHTML = `<b>/${escapeText(command)}</b>${escapeText(description)}`;
    item.addEventListener("click", () => {
      menu.hidden = true;
      send(chatName, `/${command}`);
    });
    menu.append(item);
  }
}

function showChat(chatName, chat) {
  state.chats[chatName] = chat;
  const section = pane(chatName);
  const title = chatName === "group" ? `👥 ${chat.title}` : `🤖 ${chat.title} · private chat`;
  section.querySelector(".title").textContent = title;
  tab(chatName).textContent = chatName === "group" ? title : `🤖 ${chat.title}`;
  section.querySelector(".messages").replaceChildren();
  for (const message of chat.messages) upsert(chatName, message);
  tab(chatName).classList.remove("unread");  // what was there before is not news
  const list = section.querySelector(".messages");
  list.scrollTop = list.scrollHeight;
  showNewest(chatName);
  setCommands(chatName, chat.commands);
}

function showStarted() {
  const started = Boolean(state.me && state.me.started);
  pane("private").querySelector(".start").hidden = started;
  pane("private").querySelector(".compose").hidden = !started;
}

function toast(text) {
  const element = document.createElement("div");
  element.className = "toast";
  element.textContent = text;
  document.getElementById("toasts").append(element);
  setTimeout(() => element.remove(), 3500);
}

// An alert as Telegram shows one: a box with OK over the chat of the pressed button; the
// other pane goes on working.
function alertBox(chatName, text) {
  const section = pane(chatName === "private" ? "private" : "group");
  const old = section.querySelector(".alert");
  if (old) old.remove();
  const cover = document.createElement("div");
  cover.className = "alert";
  cover.setAttribute("role", "alertdialog");
  const box = document.createElement("div");
  box.className = "box";
  const body = document.createElement("p");
  body.textContent = text;
  const ok = document.createElement("button");
  ok.type = "button";
  ok.textContent = "OK";
  ok.addEventListener("click", () => cover.remove());
  cover.addEventListener("click", (event) => { if (event.target === cover) cover.remove(); });
  cover.addEventListener("keydown", (event) => { if (event.key === "Escape") cover.remove(); });
  box.append(body, ok);
  cover.append(box);
  section.append(cover);
  ok.focus();
}

function banner(event) {
  const element = document.createElement("div");
  element.className = "banner";
  const text = document.createElement("span");
  text.textContent = `Telegram would refuse this: ${event.method} → ${event.code} ${event.description}`;
  const close = document.createElement("button");
  close.textContent = "✕";
  close.addEventListener("click", () => element.remove());
  element.append(text, close);
  document.getElementById("banners").append(element);
}

async function post(path, body) {
  try {
    const response = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ user: state.user, ...body }),
    });
    const answer = await response.json();
    if (!answer.ok) toast(answer.error);
    return answer;
  } catch (error) {
    toast(`The playground did not answer: ${error}`);
    return { ok: false };
  }
}

async function send(chatName, text) {
  const answer = await post("/api/send", { chat: chatName, text });
  if (answer.ok && chatName === "private" && state.me) {
    state.me.started = answer.started;
    showStarted();
  }
}

async function press(chatName, messageId, row, column, button) {
  const chat = state.chats[chatName];
  const shown = { text: button.text, data: button.data };
  opened(await post("/api/press", { chat_id: chat.id, message_id: messageId, row, column, ...shown }));
}

function opened(answer) {
  if (answer.app) openApp(answer.app);  // a Mini App's direct link (apps.js)
  if (answer.url && address(answer.url)) window.open(address(answer.url), "_blank", "noopener");
  if (answer.opened === "private") {
    state.me.started = true;
    showStarted();
    const focused = pane("private");
    choose("private");  // as Telegram's client opens the chat
    focused.classList.add("focus");
    setTimeout(() => focused.classList.remove("focus"), 1500);
  }
}

function handle(event) {
  switch (event.type) {
    case "snapshot":
      state.me = event.me;
      state.user = event.me.name;
      state.language = event.language || state.language;
      document.getElementById("flood").textContent = event.flood
        ? "Telegram's flood limits on" : "fast: no flood limits";
      showChat("group", event.group);
      showChat("private", event.private);
      showHint();
      showStarted();
      loadUsers();
      break;
    case "message": upsert(event.chat, event.message); break;
    case "answer":
      if (event.text && event.show_alert) alertBox(event.chat, event.text);
      else if (event.text) toast(event.text);
      break;
    case "violation": banner(event); break;
    case "commands":
      setCommands("group", event.group);
      setCommands("private", event.private);
      break;
    case "reload": connect(); break;
  }
}

function connect() {
  if (state.source) state.source.close();
  const query = state.user ? `?user=${encodeURIComponent(state.user)}` : "";
  state.source = new EventSource(`/events${query}`);
  state.source.onmessage = (message) => handle(JSON.parse(message.data));
}

async function loadUsers() {
  const { users } = await (await fetch("/api/users")).json();
  const select = document.getElementById("user");
  select.replaceChildren();
  for (const name of users) {
    const option = new Option(name, name, false, name === state.user);
    select.append(option);
  }
  select.append(new Option("+ someone new…", ""));
}

document.getElementById("user").addEventListener("change", (event) => {
  const name = event.target.value || prompt("Name of the new player") || "";
  if (!name.trim()) return loadUsers();
  location.search = `?user=${encodeURIComponent(name.trim())}`;
});

for (const chatName of ["group", "private"]) {
  const section = pane(chatName);
  section.append(document.getElementById("chat").content.cloneNode(true));
  const form = section.querySelector(".compose");
  const menu = section.querySelector(".commands");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const input = form.elements.text;
    if (!input.value.trim()) return;
    send(chatName, input.value);
    input.value = "";
  });
  section.querySelector(".menu").addEventListener("click", () => { menu.hidden = !menu.hidden; });
  const list = section.querySelector(".messages");
  list.addEventListener("scroll", () => showNewest(chatName));
  section.querySelector(".newest").addEventListener("click", () => {
    list.scrollTop = list.scrollHeight;
    showNewest(chatName);
  });
  section.querySelector(".feed").addEventListener("click", async (event) => {
    const spoiler = event.target.closest(".spoiler");
    if (spoiler) spoiler.classList.toggle("shown");
    const command = event.target.closest("[data-command]");
    if (command) send(chatName, command.dataset.command.split("@")[0]);
    const link = event.target.closest("a[href]:not([download])");  // a document downloads
    if (link) {  // a link to the bot opens the private chat here, as in Telegram
      event.preventDefault();
      opened(await post("/api/link", { url: link.getAttribute("href"), chat: chatName }));
    }
  });
}
for (const element of document.querySelectorAll(".tabs [data-pane]")) {
  element.addEventListener("click", () => choose(element.dataset.pane));
}
pane("private").querySelector(".start").addEventListener("click", () => send("private", "/start"));

connect();
