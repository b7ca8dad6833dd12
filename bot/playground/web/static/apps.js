// A Mini App opened from a direct link (`https://t.me/<bot>/<app>?startapp=…`): a frame the
// size of a phone over the page, as Telegram Web shows one. The server gave its address with
// the launch parameters in the fragment (initData signed with the bot's token); the frame's
// bar has Telegram's ✕ / ← Back and a light/dark switch that feeds the app's themeParams, and
// under the app is Telegram's MainButton when the app shows it.
"use strict";
const THEMES = {
  light: {
    bg_color: "#ffffff", text_color: "#000000", hint_color: "#707579", link_color: "#3390ec",
    button_color: "#3390ec", button_text_color: "#ffffff", secondary_bg_color: "#f4f4f5",
    header_bg_color: "#ffffff", accent_text_color: "#3390ec", section_bg_color: "#ffffff",
    section_header_text_color: "#707579", subtitle_text_color: "#707579",
    destructive_text_color: "#e53935",
  },
  dark: {
    bg_color: "#212121", text_color: "#ffffff", hint_color: "#aaaaaa", link_color: "#8774e1",
    button_color: "#8774e1", button_text_color: "#ffffff", secondary_bg_color: "#0f0f0f",
    header_bg_color: "#212121", accent_text_color: "#8774e1", section_bg_color: "#212121",
    section_header_text_color: "#aaaaaa", subtitle_text_color: "#aaaaaa",
    destructive_text_color: "#ff595a",
  },
};
const miniApp = {
  scheme: matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light",
  origin: null, back: false, haptics: 0,
};

function appBox() {
  return document.getElementById("app");
}

function openApp(app) {
  const box = appBox();
  miniApp.origin = new URL(app.url).origin;
  miniApp.back = false;
  miniApp.haptics = 0;
  box.dataset.haptics = "0";
  box.dataset.scheme = miniApp.scheme;
  box.querySelector(".name").textContent = app.title;
  const theme = encodeURIComponent(JSON.stringify(THEMES[miniApp.scheme]));
  box.querySelector("iframe").src = `${app.url}&tgWebAppThemeParams=${theme}`;
  showBack();
  box.querySelector(".main-button").hidden = true;
  box.hidden = false;
}

function closeApp() {
  const box = appBox();
  box.hidden = true;
  box.querySelector("iframe").src = "about:blank";
  miniApp.origin = null;
}

function tellApp(eventType, eventData = {}) {
  const frame = appBox().querySelector("iframe");
  if (miniApp.origin) frame.contentWindow.postMessage(JSON.stringify({ eventType, eventData }), miniApp.origin);
}

function showBack() {
  const left = appBox().querySelector(".back");
  left.textContent = miniApp.back ? "←" : "✕";
  left.title = miniApp.back ? "Back" : "Close";
}

function switchScheme() {
  miniApp.scheme = miniApp.scheme === "dark" ? "light" : "dark";
  appBox().dataset.scheme = miniApp.scheme;
  tellApp("theme_changed", { theme_params: THEMES[miniApp.scheme] });
}

window.addEventListener("message", (event) => {
  const frame = appBox().querySelector("iframe");
  if (event.origin !== miniApp.origin || event.source !== frame.contentWindow) return;
  let message;
  try {
    message = JSON.parse(event.data);
  } catch {
    return;
  }
  const data = message.eventData || {};
  switch (message.eventType) {
    case "web_app_setup_back_button":
      miniApp.back = Boolean(data.is_visible);
      showBack();
      break;
    case "web_app_setup_main_button": {
      const main = appBox().querySelector(".main-button");
      main.hidden = !data.is_visible;
      main.disabled = data.is_active === false;
      main.textContent = data.text || "";
      break;
    }
    case "web_app_trigger_haptic_feedback":  // felt, on a phone: counted and flashed here
      miniApp.haptics += 1;
      appBox().dataset.haptics = String(miniApp.haptics);
      appBox().querySelector(".phone").animate([{ translate: "2px 0" }, { translate: "0 0" }], 120);
      break;
    case "web_app_request_theme":
      tellApp("theme_changed", { theme_params: THEMES[miniApp.scheme] });
      break;
    case "web_app_close":
      closeApp();
      break;
  }
});

document.addEventListener("DOMContentLoaded", () => {
  const box = appBox();
  box.querySelector(".back").addEventListener("click", () => (miniApp.back ? tellApp("back_button_pressed") : closeApp()));
  box.querySelector(".scheme").addEventListener("click", switchScheme);
  box.querySelector(".main-button").addEventListener("click", () => tellApp("main_button_pressed"));
});
