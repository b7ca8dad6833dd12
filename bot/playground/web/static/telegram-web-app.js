// The playground's stand-in for https://telegram.org/js/telegram-web-app.js: the part of
// `window.Telegram.WebApp` a Mini App uses, speaking to the page that frames it as Telegram
// Web does. The launch parameters come in the address's fragment (`tgWebAppData`: the raw
// initData, `tgWebAppThemeParams`, `tgWebAppVersion`, `tgWebAppPlatform`); events go to the
// frame's parent as JSON `{eventType, eventData}` (`web_app_ready`,
// `web_app_setup_back_button`, `web_app_setup_main_button`, `web_app_trigger_haptic_feedback`,
// `web_app_close`, …) and come back the same way (`theme_changed`, `back_button_pressed`,
// `main_button_pressed`, `viewport_changed`).
"use strict";
(() => {
  const launch = new URLSearchParams(location.hash.slice(1));
  const parent = new URL(document.currentScript.src).origin;  // the playground that frames us
  const handlers = {};

  function post(eventType, eventData = {}) {
    if (window.parent !== window) window.parent.postMessage(JSON.stringify({ eventType, eventData }), parent);
  }

  function fire(name, ...args) {
    for (const handler of handlers[name] || []) handler.apply(WebApp, args);
  }

  function unsafe(raw) {
    const data = {};
    for (const [key, value] of new URLSearchParams(raw)) {
      data[key] = ["user", "receiver", "chat"].includes(key) ? JSON.parse(value)
        : key === "auth_date" ? Number(value) : value;
    }
    return data;
  }

  function dark(colour) {
    const hex = /^#?([0-9a-f]{6})$/i.exec(colour || "");
    if (!hex) return false;
    const n = parseInt(hex[1], 16);
    const [r, g, b] = [n >> 16, (n >> 8) & 255, n & 255];
    return Math.sqrt(0.299 * r * r + 0.587 * g * g + 0.114 * b * b) < 120;
  }

  function setTheme(params) {
    WebApp.themeParams = { ...params };
    WebApp.colorScheme = dark(params.bg_color) ? "dark" : "light";
    const root = document.documentElement.style;
    for (const [key, value] of Object.entries(params)) {
      root.setProperty(`--tg-theme-${key.replaceAll("_", "-")}`, value);
    }
    root.setProperty("--tg-color-scheme", WebApp.colorScheme);
  }

  function button(eventType, clicked) {
    const self = {
      isVisible: false,
      show() { self.isVisible = true; post(eventType, { is_visible: true }); return self; },
      hide() { self.isVisible = false; post(eventType, { is_visible: false }); return self; },
      onClick(handler) { WebApp.onEvent(clicked, handler); return self; },
      offClick(handler) { WebApp.offEvent(clicked, handler); return self; },
    };
    return self;
  }

  // Telegram's MainButton: a bar under the app with the app's text, told in full at each change
  function mainButton() {
    const self = {
      text: "", isVisible: false, isActive: true,
      setText(text) { self.text = String(text); return setup(); },
      show() { self.isVisible = true; return setup(); },
      hide() { self.isVisible = false; return setup(); },
      enable() { self.isActive = true; return setup(); },
      disable() { self.isActive = false; return setup(); },
      onClick(handler) { WebApp.onEvent("mainButtonClicked", handler); return self; },
      offClick(handler) { WebApp.offEvent("mainButtonClicked", handler); return self; },
    };
    function setup() {
      post("web_app_setup_main_button", { is_visible: self.isVisible, is_active: self.isActive, text: self.text });
      return self;
    }
    return self;
  }

  const initData = launch.get("tgWebAppData") || "";
  const WebApp = {
    initData,
    initDataUnsafe: unsafe(initData),
    version: launch.get("tgWebAppVersion") || "8.0",
    platform: launch.get("tgWebAppPlatform") || "unknown",
    colorScheme: "light",
    themeParams: {},
    isExpanded: true,
    viewportHeight: window.innerHeight,
    viewportStableHeight: window.innerHeight,
    ready() { post("web_app_ready"); },
    expand() { post("web_app_expand"); },
    close() { post("web_app_close"); },
    onEvent(name, handler) { (handlers[name] ||= []).push(handler); },
    offEvent(name, handler) { handlers[name] = (handlers[name] || []).filter((h) => h !== handler); },
    HapticFeedback: {
      impactOccurred(style) { post("web_app_trigger_haptic_feedback", { type: "impact", impact_style: style }); },
      notificationOccurred(type) {
        post("web_app_trigger_haptic_feedback", { type: "notification", notification_type: type });
      },
      selectionChanged() { post("web_app_trigger_haptic_feedback", { type: "selection_change" }); },
    },
  };
  WebApp.BackButton = button("web_app_setup_back_button", "backButtonClicked");
  WebApp.MainButton = mainButton();
  setTheme(JSON.parse(launch.get("tgWebAppThemeParams") || "{}"));

  window.addEventListener("message", (event) => {
    if (event.source !== window.parent || event.origin !== parent) return;
    let message;
    try {
      message = JSON.parse(event.data);
    } catch {
      return;
    }
    const data = message.eventData || {};
    if (message.eventType === "theme_changed") {
      setTheme(data.theme_params || {});
      fire("themeChanged");
    } else if (message.eventType === "back_button_pressed") {
      fire("backButtonClicked");
    } else if (message.eventType === "main_button_pressed") {
      fire("mainButtonClicked");
    } else if (message.eventType === "viewport_changed") {
      WebApp.viewportHeight = WebApp.viewportStableHeight = data.height || window.innerHeight;
      fire("viewportChanged", { isStateStable: true });
    }
  });

  window.Telegram = { WebApp };
})();
