// A stand-in for telegram-web-app.js: the WebApp calls the table page makes, posted to the
// app through window.TelegramWebviewProxy as the real script posts them, and Telegram's events
// delivered with Telegram.WebView.receiveEvent(name, data).
(function () {
  var hash = new URLSearchParams(location.hash.slice(1)), on = {}, popup = null;
  var theme = JSON.parse(hash.get("tgWebAppThemeParams") || "{}"), root = document.documentElement;
  function post(type, data) { window.TelegramWebviewProxy.postEvent(type, JSON.stringify(data || "")); }
  function fire(name, arg) { (on[name] || []).forEach(function (f) { f(arg); }); }
  function button(type, extra) {
    var b = { isVisible: false, text: "", onClick: function (f) { (on[type] = on[type] || []).push(f); } };
    function setup(progress) { post("web_app_setup_" + type, b.isVisible ? { is_visible: true, is_active: true, is_progress_visible: !!progress, text: b.text } : { is_visible: false }); }
    b.setParams = function (p) { if ("text" in p) b.text = p.text; if ("is_visible" in p) b.isVisible = p.is_visible; setup(); return b; };
    b.show = function () { b.isVisible = true; setup(); return b; };
    b.hide = function () { b.isVisible = false; setup(); return b; };
    b.showProgress = function () { setup(true); return b; };
    b.hideProgress = function () { setup(false); return b; };
    return Object.assign(b, extra || {});
  }
  Object.keys(theme).forEach(function (k) { root.style.setProperty("--tg-theme-" + k.replace(/_/g, "-"), theme[k]); });
  var bg = parseInt((theme.bg_color || "#ffffff").slice(1), 16);
  var data = hash.get("tgWebAppData") || "", fields = new URLSearchParams(data);
  var haptic = function (p) { post("web_app_trigger_haptic_feedback", p); };
  var events = {
    main_button_pressed: function () { fire("main_button"); },
    back_button_pressed: function () { fire("back_button"); },
    popup_closed: function (d) { var f = popup; popup = null; if (f) f(d.button_id || ""); },
    visibility_changed: function (d) { fire(d.is_visible ? "activated" : "deactivated"); },
    theme_changed: function () { fire("themeChanged"); }
  };
  window.Telegram = {
    WebView: { receiveEvent: function (name, d) { (events[name] || function () {})(d || {}); } },
    WebApp: {
      initData: data,
      initDataUnsafe: data ? { user: JSON.parse(fields.get("user")), start_param: fields.get("start_param") || undefined } : {},
      version: hash.get("tgWebAppVersion") || "6.0",
      colorScheme: (bg >> 16) * 0.299 + ((bg >> 8) & 255) * 0.587 + (bg & 255) * 0.114 < 128 ? "dark" : "light",
      themeParams: theme,
      ready: function () { post("web_app_ready"); },
      MainButton: button("main_button"),
      BackButton: button("back_button"),
      HapticFeedback: {
        selectionChanged: function () { haptic({ type: "selection_change" }); },
        notificationOccurred: function (t) { haptic({ type: "notification", notification_type: t }); }
      },
      showPopup: function (p, f) { if (popup) throw Error("WebAppPopupOpened"); popup = f; post("web_app_open_popup", p); },
      enableClosingConfirmation: function () { post("web_app_setup_closing_behavior", { need_confirmation: true }); },
      disableClosingConfirmation: function () { post("web_app_setup_closing_behavior", { need_confirmation: false }); },
      onEvent: function (name, f) { (on[name] = on[name] || []).push(f); }
    }
  };
})();
