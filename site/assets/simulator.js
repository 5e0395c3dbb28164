// The deferred-flow simulator page: starts a session on the mock server, plays one event per
// button, and shows the session's state, its log of requests and answers, and its outcome.
// Opened from files (or from a server that is not `workbook serve`) it fetches nothing and says
// how to start the server, so that the console stays free of failed requests.
(function () {
  "use strict";

  var root = document.querySelector("[data-sim-root]");
  if (!root) return;

  // The site's words (site/words.json), which the page carries in #site-words: t(key) is the
  // word, and t(key, {name: value}) fills its {name} placeholders. A missing word shows its key
  // and says so in the console.
  var words = (function () {
    var element = document.getElementById("site-words");
    try {
      return element ? JSON.parse(element.textContent) : {};
    } catch (error) {
      console.error("site-words: " + error.message);
      return {};
    }
  })();

  function t(key, values) {
    var word = words[key];
    if (typeof word !== "string") {
      console.error("site-words: no word for " + key);
      return key;
    }
    return word.replace(/\{([a-z0-9-]+)\}/g, function (placeholder, name) {
      return values && Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : placeholder;
    });
  }

  var platform = document.getElementById("sim-platform");
  var installed = document.getElementById("sim-installed");
  var running = document.getElementById("sim-running");
  var startButton = document.getElementById("sim-start");
  var seconds = document.getElementById("sim-seconds");
  var stateView = document.getElementById("sim-state");
  var outcomeView = document.getElementById("sim-outcome");
  var logView = document.getElementById("sim-log");
  var offline = document.getElementById("sim-offline");
  var eventButtons = root.querySelectorAll("button[data-sim-event]");
  var clockGroup = root.querySelector(".sim-clock");
  var session = null;
  var busy = false;

  var offlineText = t("server.start");

  function isServed() {
    return window.location.protocol === "http:" || window.location.protocol === "https:";
  }

  function showOffline(extra) {
    offline.hidden = false;
    stateView.textContent = (extra ? extra + " " : "") + offlineText;
    startButton.disabled = true;
    enableEvents([]);
  }

  function enableEvents(next) {
    for (var i = 0; i < eventButtons.length; i++) {
      var name = eventButtons[i].getAttribute("data-sim-event");
      var allowed = !busy && next.indexOf(name) >= 0;
      eventButtons[i].disabled = !allowed;
      eventButtons[i].hidden = !allowed && session !== null;
    }
    seconds.disabled = busy || next.indexOf("advanceClock") < 0;
    if (clockGroup) clockGroup.hidden = session !== null && !busy && next.indexOf("advanceClock") < 0;
  }

  function post(path, body) {
    return fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Accept": "application/json" },
      body: JSON.stringify(body),
      cache: "no-store"
    }).then(function (response) {
      return response.text().then(function (text) {
        var json = null;
        try { json = JSON.parse(text); } catch (error) { json = null; }
        return { status: response.status, json: json, text: text };
      });
    });
  }

  function errorText(answer) {
    if (answer.json && answer.json.error && answer.json.error.message) {
      return answer.status + ": " + answer.json.error.message;
    }
    return t("server.answered", { status: answer.status });
  }

  function show(next) {
    session = next;
    stateView.textContent = next.stateDescription;
    stateView.setAttribute("data-state", next.state);
    renderOutcome(next.outcome);
    renderLog(next.log, next.logDropped);
    enableEvents(next.next);
  }

  function renderOutcome(outcome) {
    outcomeView.textContent = "";
    outcomeView.setAttribute("data-match-method", outcome && outcome.matchMethod ? outcome.matchMethod : "");
    outcomeView.setAttribute("data-kind", outcome ? outcome.kind : "");
    if (!outcome) return;
    var title = document.createElement("p");
    var strong = document.createElement("strong");
    if (outcome.kind === "matched") {
      strong.textContent = t("simulator.matched", { method: outcome.matchMethod });
    } else if (outcome.kind === "missed") {
      strong.textContent = t("simulator.missed", { reason: outcome.missReason || t("simulator.no-reason") });
    } else {
      strong.textContent = t("simulator.failed", { error: outcome.error || t("simulator.no-answer") });
    }
    title.appendChild(strong);
    outcomeView.appendChild(title);
    var facts = document.createElement("dl");
    addFact(facts, "matchMethod", outcome.matchMethod);
    addFact(facts, "missReason", outcome.missReason);
    addFact(facts, t("simulator.app-opens"), outcome.deepLink);
    addFact(facts, "clickId", outcome.clickId);
    outcomeView.appendChild(facts);
  }

  function addFact(list, name, value) {
    if (value === null || value === undefined || value === "") return;
    var term = document.createElement("dt");
    term.textContent = name;
    var detail = document.createElement("dd");
    var code = document.createElement("code");
    code.textContent = value;
    detail.appendChild(code);
    list.appendChild(term);
    list.appendChild(detail);
  }

  function renderLog(entries, dropped) {
    logView.textContent = "";
    if (dropped > 0) {
      var note = document.createElement("li");
      note.className = "sim-log-dropped";
      note.textContent = t("simulator.log-dropped", { count: dropped });
      logView.appendChild(note);
    }
    for (var i = 0; i < entries.length; i++) logView.appendChild(logItem(entries[i]));
  }

  function logItem(entry) {
    var item = document.createElement("li");
    item.className = "sim-log-entry sim-" + entry.direction;
    item.setAttribute("data-direction", entry.direction);
    var details = document.createElement("details");
    var summary = document.createElement("summary");
    var step = document.createElement("span");
    step.className = "sim-step";
    step.textContent = entry.step;
    summary.appendChild(step);
    summary.appendChild(document.createTextNode(" " + (entry.direction === "request" ? "→ " : "← ")));
    var line = document.createElement("code");
    line.textContent = entry.direction === "request"
      ? entry.method + " " + entry.url
      : entry.status + " (" + entry.method + " " + entry.url + ")";
    summary.appendChild(line);
    details.appendChild(summary);
    var names = Object.keys(entry.headers || {}).sort();
    var headerText = names.map(function (name) { return name + ": " + entry.headers[name]; }).join("\n");
    var pre = document.createElement("pre");
    var code = document.createElement("code");
    var body = typeof entry.body === "string" ? entry.body : JSON.stringify(entry.body, null, 2);
    code.textContent = headerText + (headerText && body ? "\n\n" : "") + body;
    pre.appendChild(code);
    details.appendChild(pre);
    item.appendChild(details);
    return item;
  }

  function start() {
    if (busy) return;
    busy = true;
    startButton.disabled = true;
    enableEvents([]);
    var body = { platform: platform.value, appInstalled: installed.checked };
    if (running && running.checked && !running.disabled) body.appRunning = true;
    post("/api/v1/sim/sessions", body)
      .then(function (answer) {
        busy = false;
        startButton.disabled = false;
        if (answer.status === 201 && answer.json) {
          show(answer.json);
        } else {
          session = null;
          stateView.textContent = errorText(answer);
          enableEvents([]);
        }
      })
      .catch(function () {
        busy = false;
        showOffline(t("server.no-answer"));
      });
  }

  function play(type) {
    if (busy || !session) return;
    var body = { type: type };
    if (type === "advanceClock") {
      var value = Number(seconds.value);
      if (!(value > 0)) {
        stateView.textContent = t("simulator.seconds-invalid");
        return;
      }
      body.seconds = value;
    }
    busy = true;
    enableEvents([]);
    post("/api/v1/sim/sessions/" + encodeURIComponent(session.id) + "/events", body)
      .then(function (answer) {
        busy = false;
        if (answer.status === 200 && answer.json) {
          show(answer.json);
        } else if (answer.status === 404) {
          session = null;
          stateView.textContent = t("simulator.session-gone", { error: errorText(answer) });
          enableEvents([]);
        } else {
          stateView.textContent = errorText(answer);
          enableEvents(session.next);
        }
      })
      .catch(function () {
        busy = false;
        showOffline(t("server.no-answer"));
      });
  }

  // A running app is Android's journey (onNewIntent), and a running app is installed.
  function syncSetup() {
    if (!running) return;
    running.disabled = platform.value !== "android";
    if (running.disabled) running.checked = false;
    if (running.checked) installed.checked = true;
    installed.disabled = running.checked;
  }
  platform.addEventListener("change", syncSetup);
  if (running) running.addEventListener("change", syncSetup);
  syncSetup();

  startButton.addEventListener("click", start);
  for (var i = 0; i < eventButtons.length; i++) {
    eventButtons[i].addEventListener("click", function (event) {
      play(event.currentTarget.getAttribute("data-sim-event"));
    });
  }
  enableEvents([]);

  // Only a page served by `workbook serve` can reach the simulator's routes; ask its health
  // route first, so that a page opened from files never sends a request that must fail.
  if (!isServed() || !window.fetch) {
    showOffline("");
    return;
  }
  startButton.disabled = true;
  fetch("/healthz", { cache: "no-store" })
    .then(function (response) { return response.ok ? response.json() : null; })
    .then(function (health) {
      if (health && health.status === "ok") {
        startButton.disabled = false;
      } else {
        showOffline(t("server.not-mock"));
      }
    })
    .catch(function () { showOffline(t("server.no-answer")); });
})();
