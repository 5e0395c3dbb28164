// The Link Lab page: a reader's association files, entitlements and manifest, asked through the
// mock server's lab routes (POST /api/v1/lab/aasa, applinks, assetlinks, entitlements and
// doctor), with the verdict first in words, then each finding on its line of the pasted text and
// linked to the section that explains it. The whole state can travel in the page's fragment
// (#lab= and the state as JSON, deflated and base64url-encoded), so nothing is stored on the
// server. Opened from files (or from a server that is not `workbook serve`) it asks nothing and
// says how to start the server, so that the console stays free of failed requests.
(function () {
  "use strict";

  var root = document.querySelector("[data-lab-root]");
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

  var TABS = ["ios", "android", "domain", "compare"];
  var LATEST_API_LEVEL = 35;
  // The longest fragment a permalink may have; a larger state is offered as a file instead.
  var FRAGMENT_LIMIT = 64 * 1024;
  var FRAGMENT_PREFIX = "#lab=";
  var offlineText = t("server.start");

  function byId(id) { return document.getElementById(id); }

  var fields = {
    iosURL: byId("lab-ios-url"),
    iosAASA: byId("lab-ios-aasa"),
    iosEntitlements: byId("lab-ios-entitlements"),
    androidURL: byId("lab-android-url"),
    androidAPI: byId("lab-android-api"),
    androidTarget: byId("lab-android-target"),
    androidManifest: byId("lab-android-manifest"),
    androidAssetLinks: byId("lab-android-assetlinks"),
    androidPackage: byId("lab-android-package"),
    androidFingerprint: byId("lab-android-fingerprint"),
    domainURL: byId("lab-domain-url"),
    compareURL: byId("lab-compare-url")
  };
  // The pasted texts, by the name their line views and findings use.
  var texts = {
    "ios-aasa": fields.iosAASA,
    "ios-entitlements": fields.iosEntitlements,
    "android-manifest": fields.androidManifest,
    "android-assetlinks": fields.androidAssetLinks
  };
  var message = byId("lab-message");
  var offline = byId("lab-offline");
  var demoButton = byId("lab-demo");
  var permalinkButton = byId("lab-make-permalink");
  var clearButton = byId("lab-clear");
  var stateFile = byId("lab-state-file");
  var permalinkBox = byId("lab-permalink-box");
  var permalinkField = byId("lab-permalink");
  var downloadButton = byId("lab-download");
  var tabButtons = root.querySelectorAll("[role='tab'][data-lab-tab]");
  var checkButtons = root.querySelectorAll(".lab-check");
  var activeTab = "ios";
  var served = false;
  var busy = 0;
  var oversizeState = null;

  // ---- Named examples (lab.html?example=NAME) ----

  // The demo app's entitlements and manifest: the app config/demo.json describes, claiming its
  // link domain. Its association files come from the running server, which generates them.
  var demoEntitlements = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    '<plist version="1.0">',
    "<dict>",
    "    <key>com.apple.developer.associated-domains</key>",
    "    <array>",
    "        <string>applinks:go.example</string>",
    "    </array>",
    "</dict>",
    "</plist>",
    ""
  ].join("\n");

  var demoManifest = [
    '<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.shop">',
    '  <application android:label="Shop">',
    '    <activity android:name=".MainActivity" android:exported="true" android:launchMode="singleTask">',
    '      <intent-filter android:autoVerify="true">',
    '        <action android:name="android.intent.action.VIEW" />',
    '        <category android:name="android.intent.category.DEFAULT" />',
    '        <category android:name="android.intent.category.BROWSABLE" />',
    '        <data android:scheme="https" />',
    '        <data android:host="go.example" />',
    "      </intent-filter>",
    "    </activity>",
    "  </application>",
    "</manifest>",
    ""
  ].join("\n");

  // Chapter 3's complete file.
  var chapter3File = [
    "{",
    '  "applinks": {',
    '    "defaults": { "caseSensitive": false },',
    '    "substitutionVariables": { "section": ["deals", "news"] },',
    '    "details": [',
    "      {",
    '        "appIDs": ["ABCDE12345.com.example.app", "ABCDE12345.com.example.app2"],',
    '        "components": [',
    '          { "#": "no_universal_links", "exclude": true, "comment": "the web page asked to stay" },',
    '          { "/": "/help/website/*", "exclude": true },',
    '          { "/": "/help/*", "?": { "articleNumber": "????" } },',
    '          { "/": "/$(lang)_$(region)/$(section)/*" },',
    '          { "/": "/buy/*" }',
    "        ]",
    "      }",
    "    ]",
    "  },",
    '  "webcredentials": { "apps": ["ABCDE12345.com.example.app"] },',
    '  "appclips": { "apps": ["ABCDE12345.com.example.app.Clip"] }',
    "}",
    ""
  ].join("\n");

  var firstEntryFile = [
    "{",
    '  "applinks": {',
    '    "details": [',
    '      { "appIDs": ["ABCDE12345.com.example.app"],',
    '        "components": [{ "/": "/admin/*", "exclude": true }] },',
    '      { "appIDs": ["ABCDE12345.com.example.app", "VWXYZ67890.com.other.app"],',
    '        "components": [{ "/": "*" }] }',
    "    ]",
    "  }",
    "}",
    ""
  ].join("\n");

  var fiveMistakesFile = [
    "{",
    '  "applinks": {',
    '    "details": [',
    "      {",
    '        "appIDs": ["com.example.app", "abcde12345.com.example.app"],',
    '        "components": [',
    '          { "/": "/#/market/*" },',
    '          { "/": "*" },',
    '          { "/": "/buy/*", "caseSensitve": false }',
    "        ]",
    "      }",
    "    ]",
    "  }",
    "}",
    ""
  ].join("\n");

  var noTeamIDFile = [
    "{",
    '  "applinks": {',
    '    "details": [',
    "      {",
    '        "appIDs": ["com.example.shop"],',
    '        "components": [',
    '          { "/": "/api/*", "exclude": true },',
    '          { "/": "/*", "comment": "every short link" }',
    "        ]",
    "      }",
    "    ]",
    "  }",
    "}",
    ""
  ].join("\n");

  var wwwOnlyEntitlements = demoEntitlements
    .replace("applinks:go.example", "applinks:www.example.com")
    .replace("    </array>", "        <string>webcredentials:example.com</string>\n    </array>");

  // Chapter 4's manifest of "Explaining the answer" (its pathPattern keeps the double backslash).
  var chapter4Manifest = [
    '<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.shop">',
    '  <application android:label="Shop">',
    '    <activity android:name=".MainActivity" android:exported="true" android:launchMode="singleTask">',
    '      <intent-filter android:autoVerify="true">',
    '        <action android:name="android.intent.action.VIEW" />',
    '        <category android:name="android.intent.category.DEFAULT" />',
    '        <category android:name="android.intent.category.BROWSABLE" />',
    '        <data android:scheme="https" />',
    '        <data android:host="example.com" />',
    '        <data android:pathPrefix="/product/" />',
    "      </intent-filter>",
    "      <intent-filter>",
    '        <action android:name="android.intent.action.VIEW" />',
    '        <category android:name="android.intent.category.DEFAULT" />',
    '        <category android:name="android.intent.category.BROWSABLE" />',
    '        <data android:scheme="shop" />',
    "      </intent-filter>",
    "    </activity>",
    '    <activity-alias android:name="FilesAlias" android:targetActivity=".MainActivity"',
    '        android:exported="true">',
    "      <intent-filter>",
    '        <action android:name="android.intent.action.VIEW" />',
    '        <category android:name="android.intent.category.DEFAULT" />',
    '        <category android:name="android.intent.category.BROWSABLE" />',
    '        <data android:scheme="https" android:host="example.com"',
    '            android:pathPattern="/files/.*\\\\.pdf" />',
    "      </intent-filter>",
    "    </activity-alias>",
    "  </application>",
    "</manifest>",
    ""
  ].join("\n");

  // Chapter 4's Examples/AppLinks/except-checkout/AndroidManifest.xml.
  var exceptCheckoutManifest = [
    '<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.shop">',
    '  <application android:label="Shop">',
    '    <activity android:name=".MainActivity" android:exported="true">',
    '      <intent-filter android:autoVerify="true">',
    '        <action android:name="android.intent.action.VIEW" />',
    '        <category android:name="android.intent.category.DEFAULT" />',
    '        <category android:name="android.intent.category.BROWSABLE" />',
    '        <data android:scheme="https" android:host="example.com" />',
    '        <uri-relative-filter-group android:allow="false">',
    '          <data android:pathPrefix="/checkout" />',
    "        </uri-relative-filter-group>",
    "        <uri-relative-filter-group>",
    '          <data android:pathPrefix="/" />',
    "        </uri-relative-filter-group>",
    "      </intent-filter>",
    "    </activity>",
    "  </application>",
    "</manifest>",
    ""
  ].join("\n");

  // A release build signed by Play App Signing, while the site lists only the upload key.
  var uploadKeyOnlyAssetLinks = [
    "[",
    "  {",
    '    "relation": ["delegate_permission/common.handle_all_urls"],',
    '    "target": {',
    '      "namespace": "android_app",',
    '      "package_name": "com.example.shop",',
    '      "sha256_cert_fingerprints": [',
    '        "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"',
    "      ]",
    "    }",
    "  }",
    "]",
    ""
  ].join("\n");

  // Each example: the tab it opens, whether it starts from the demo, and the fields it sets.
  var examples = {
    "demo": { tab: "ios", demo: true },
    "android-demo": { tab: "android", demo: true },
    // The demo's manifest takes every path of go.example; its association file keeps the API out.
    "compare-demo": { tab: "compare", demo: true, compare: { url: "https://go.example/api/v1/track/open" } },
    "ios-rules": { tab: "ios", ios: { url: "https://example.com/help/website/faq", aasa: chapter3File } },
    "ios-first-entry": { tab: "ios", ios: { url: "https://example.com/admin/users", aasa: firstEntryFile } },
    "ios-lint": { tab: "ios", ios: { url: "https://example.com/buy/42", aasa: fiveMistakesFile } },
    "ios-app-id": {
      tab: "ios", ios: { url: "https://go.example/summer", aasa: noTeamIDFile, entitlements: demoEntitlements }
    },
    "ios-entitlements": {
      tab: "ios",
      ios: { url: "https://example.com/buy/42", aasa: chapter3File, entitlements: wwwOnlyEntitlements }
    },
    "android-explain": {
      tab: "android", android: { url: "https://example.com/files/guide.pdf", manifest: chapter4Manifest }
    },
    "android-api-level": {
      tab: "android",
      android: { url: "https://example.com/checkout/pay", apiLevel: 34, manifest: exceptCheckoutManifest }
    },
    "android-fingerprint": {
      tab: "android", demo: true,
      android: { assetlinks: uploadKeyOnlyAssetLinks }
    },
    "domain": { tab: "domain", domain: { url: "https://example.com/" }, checks: false }
  };

  // ---- The state: every field of every tab, and the open tab ----

  function emptyState() {
    return {
      v: 1,
      tab: "ios",
      ios: { url: "", aasa: "", entitlements: "" },
      android: {
        url: "", apiLevel: LATEST_API_LEVEL, targetSdk: null, manifest: "", assetlinks: "", package: "",
        fingerprint: ""
      },
      domain: { url: "" },
      compare: { url: "" }
    };
  }

  function wholeNumber(text) {
    var value = Number(String(text).trim());
    return String(text).trim() !== "" && Math.floor(value) === value ? value : null;
  }

  function currentState() {
    return {
      v: 1,
      tab: activeTab,
      ios: { url: fields.iosURL.value, aasa: fields.iosAASA.value, entitlements: fields.iosEntitlements.value },
      android: {
        url: fields.androidURL.value,
        apiLevel: wholeNumber(fields.androidAPI.value),
        targetSdk: wholeNumber(fields.androidTarget.value),
        manifest: fields.androidManifest.value,
        assetlinks: fields.androidAssetLinks.value,
        package: fields.androidPackage.value,
        fingerprint: fields.androidFingerprint.value
      },
      domain: { url: fields.domainURL.value },
      compare: { url: fields.compareURL.value }
    };
  }

  // A state read from a link or a file: only the known fields, each of its type; anything else
  // is a state this page cannot read.
  function normalisedState(value) {
    if (!value || typeof value !== "object" || value.v !== 1) throw new Error(t("lab.state.not-lab"));
    var state = emptyState();
    function copy(section, names) {
      var given = value[section];
      if (given === undefined) return;
      if (!given || typeof given !== "object") throw new Error(t("lab.state.not-object", { field: section }));
      for (var i = 0; i < names.length; i++) {
        var name = names[i];
        if (given[name] === undefined || given[name] === null) continue;
        if (typeof state[section][name] === "string") {
          if (typeof given[name] !== "string") throw new Error(t("lab.state.not-text", { field: section + "." + name }));
          state[section][name] = given[name];
        } else {
          if (typeof given[name] !== "number") {
            throw new Error(t("lab.state.not-number", { field: section + "." + name }));
          }
          state[section][name] = given[name];
        }
      }
    }
    copy("ios", ["url", "aasa", "entitlements"]);
    copy("android", ["url", "apiLevel", "targetSdk", "manifest", "assetlinks", "package", "fingerprint"]);
    copy("domain", ["url"]);
    copy("compare", ["url"]);
    if (TABS.indexOf(value.tab) >= 0) state.tab = value.tab;
    return state;
  }

  function applyState(state) {
    fields.iosURL.value = state.ios.url;
    fields.iosAASA.value = state.ios.aasa;
    fields.iosEntitlements.value = state.ios.entitlements;
    fields.androidURL.value = state.android.url;
    fields.androidAPI.value = state.android.apiLevel === null ? "" : String(state.android.apiLevel);
    fields.androidTarget.value = state.android.targetSdk === null ? "" : String(state.android.targetSdk);
    fields.androidManifest.value = state.android.manifest;
    fields.androidAssetLinks.value = state.android.assetlinks;
    fields.androidPackage.value = state.android.package;
    fields.androidFingerprint.value = state.android.fingerprint;
    fields.domainURL.value = state.domain.url;
    fields.compareURL.value = state.compare.url;
    for (var i = 0; i < TABS.length; i++) clearResult(TABS[i]);
    selectTab(state.tab, false);
  }

  // ---- Permalinks: JSON, deflated (raw), base64url ----

  function canCompress() {
    return typeof CompressionStream === "function" && typeof DecompressionStream === "function";
  }

  function deflate(text) {
    var stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
    return new Response(stream).arrayBuffer().then(function (buffer) { return new Uint8Array(buffer); });
  }

  function inflate(bytes) {
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    return new Response(stream).text();
  }

  function toBase64URL(bytes) {
    var binary = "";
    for (var i = 0; i < bytes.length; i += 0x8000) {
      binary += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    }
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function fromBase64URL(text) {
    if (!/^[A-Za-z0-9_-]+$/.test(text)) throw new Error(t("lab.state.not-base64url"));
    var padded = text.replace(/-/g, "+").replace(/_/g, "/");
    while (padded.length % 4) padded += "=";
    var binary = atob(padded);
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  }

  // The fragment for a state, or null (with the reason shown) when it is too large for a link.
  function fragmentFor(state) {
    return deflate(JSON.stringify(state)).then(function (bytes) {
      return FRAGMENT_PREFIX + toBase64URL(bytes);
    });
  }

  function readFragment(fragment) {
    var bytes;
    try {
      bytes = fromBase64URL(fragment.slice(FRAGMENT_PREFIX.length));
    } catch (error) {
      return Promise.reject(error);
    }
    return inflate(bytes).then(function (text) { return normalisedState(JSON.parse(text)); });
  }

  function addressWith(fragment) {
    return window.location.href.split("#")[0] + fragment;
  }

  function makePermalink() {
    oversizeState = null;
    downloadButton.hidden = true;
    if (!canCompress()) {
      offerDownload(currentState(), t("lab.permalink.no-compression"));
      return;
    }
    var state = currentState();
    fragmentFor(state)
      .then(function (fragment) {
        if (fragment.length > FRAGMENT_LIMIT) {
          offerDownload(state, t("lab.permalink.too-large", { size: kilobytes(fragment.length) }));
          return;
        }
        history.replaceState(null, "", addressWith(fragment));
        permalinkBox.hidden = false;
        permalinkField.value = addressWith(fragment);
        permalinkField.focus();
        permalinkField.select();
        say(t("lab.permalink.made", { size: kilobytes(fragment.length) }));
        if (navigator.clipboard && navigator.clipboard.writeText) {
          navigator.clipboard.writeText(permalinkField.value).then(function () {
            say(t("lab.permalink.copied", { size: kilobytes(fragment.length) }));
          }, function () {});
        }
      })
      .catch(function (error) {
        offerDownload(state, t("lab.permalink.compress-failed", { error: error.message }));
      });
  }

  function kilobytes(length) {
    return (Math.round(length / 102.4) / 10).toString();
  }

  function offerDownload(state, reason) {
    oversizeState = state;
    permalinkBox.hidden = false;
    permalinkField.value = "";
    downloadButton.hidden = false;
    downloadButton.focus();
    say(reason + " " + t("lab.permalink.download"));
  }

  function downloadState() {
    var state = oversizeState || currentState();
    var blob = new Blob([JSON.stringify(state, null, 2) + "\n"], { type: "application/json" });
    var link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = "link-lab-state.json";
    document.body.appendChild(link);
    link.click();
    document.body.removeChild(link);
    setTimeout(function () { URL.revokeObjectURL(link.href); }, 1000);
  }

  function openStateFile() {
    var file = stateFile.files && stateFile.files[0];
    if (!file) return;
    file.text()
      .then(function (text) {
        applyState(normalisedState(JSON.parse(text)));
        say(t("lab.state.opened", { file: file.name }));
        checkActive(false);
      })
      .catch(function (error) {
        say(t("lab.state.unreadable", { file: file.name, error: error.message }));
      });
    stateFile.value = "";
  }

  // After a check the page's own address follows the state, so that a reload keeps it; a state
  // too large for a link leaves the address alone.
  function rememberState() {
    if (!canCompress()) return;
    fragmentFor(currentState())
      .then(function (fragment) {
        if (fragment.length <= FRAGMENT_LIMIT) history.replaceState(null, "", addressWith(fragment));
      })
      .catch(function () {});
  }

  // ---- Messages, tabs ----

  function say(text) {
    message.textContent = text;
  }

  function selectTab(name, moveFocus) {
    if (TABS.indexOf(name) < 0) name = "ios";
    activeTab = name;
    for (var i = 0; i < tabButtons.length; i++) {
      var button = tabButtons[i];
      var selected = button.getAttribute("data-lab-tab") === name;
      button.setAttribute("aria-selected", selected ? "true" : "false");
      button.tabIndex = selected ? 0 : -1;
      byId(button.getAttribute("aria-controls")).hidden = !selected;
      if (selected && moveFocus) button.focus();
    }
  }

  function onTabKey(event) {
    var index = TABS.indexOf(event.currentTarget.getAttribute("data-lab-tab"));
    var next = null;
    switch (event.key) {
      case "ArrowRight": next = (index + 1) % TABS.length; break;
      case "ArrowLeft": next = (index + TABS.length - 1) % TABS.length; break;
      case "Home": next = 0; break;
      case "End": next = TABS.length - 1; break;
    }
    if (next === null) return;
    event.preventDefault();
    selectTab(TABS[next], true);
  }

  // ---- Asking the server ----

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
        return { status: response.status, json: json, text: text, retryAfter: response.headers.get("Retry-After") };
      });
    });
  }

  function errorText(answer) {
    if (answer.json && answer.json.error && answer.json.error.message) {
      return t("server.answered-with", { status: answer.status, message: answer.json.error.message });
    }
    return t("server.answered", { status: answer.status });
  }

  // Asks one route; resolves to its 200 answer, or rejects with an Error whose message says why.
  function ask(path, body) {
    return post(path, body).then(function (answer) {
      if (answer.status === 200 && answer.json) return answer.json;
      var error = new Error(errorText(answer));
      error.answer = answer;
      throw error;
    }, function () {
      throw offlineError();
    });
  }

  // The server did not answer: the page then says how to start it.
  function offlineError() {
    var error = new Error(t("server.no-answer") + " " + offlineText);
    error.offline = true;
    return error;
  }

  function setBusy(change) {
    busy += change;
    for (var i = 0; i < checkButtons.length; i++) checkButtons[i].disabled = !served || busy > 0;
    demoButton.disabled = !served || busy > 0;
  }

  // ---- Rendering ----

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  function code(text) {
    return element("code", null, text);
  }

  function clearResult(tab) {
    var result = byId("lab-" + tab + "-result");
    result.textContent = "";
    result.removeAttribute("data-verdict");
    result.removeAttribute("data-state");
    var views = byId("lab-panel-" + tab).querySelectorAll("[data-lab-lines]");
    for (var i = 0; i < views.length; i++) {
      views[i].hidden = true;
      views[i].textContent = "";
    }
  }

  function verdictBlock(kind, sentence) {
    var block = element("div", "lab-verdict");
    block.setAttribute("data-kind", kind);
    block.appendChild(element("p", "lab-verdict-text", sentence));
    return block;
  }

  // The headings of the sections the lab's answers link, by anchor; another anchor is read as
  // its words ("chapters/03-universal-links.html#linting-the-file": "Chapter 3: Linting the file").
  var sectionTitles = {
    "linting-the-file": t("lab.section.linting-the-file"),
    "which-app-opens-this-url": t("lab.section.which-app-opens-this-url"),
    "hosting-the-file": t("lab.section.hosting-the-file"),
    "the-apps-half-associated-domains": t("lab.section.the-apps-half-associated-domains"),
    "the-sites-half-assetlinksjson": t("lab.section.the-sites-half-assetlinksjson"),
    "who-is-authorised-the-verifier": t("lab.section.who-is-authorised-the-verifier"),
    "the-apps-half-intent-filters": t("lab.section.the-apps-half-intent-filters"),
    "explaining-the-answer": t("lab.section.explaining-the-answer"),
    "matching-a-link-against-a-filter": t("lab.section.matching-a-link-against-a-filter")
  };

  function readLink(path) {
    var match = /^chapters\/0*(\d+)-[^#]*\.html(?:#(.+))?$/.exec(path);
    var section = match && match[2]
      ? (Object.prototype.hasOwnProperty.call(sectionTitles, match[2])
        ? sectionTitles[match[2]] : match[2].replace(/-/g, " "))
      : "";
    var label = match
      ? (section ? t("lab.read.section", { chapter: match[1], section: section }) : t("lab.read.chapter", { chapter: match[1] }))
      : path;
    var link = element("a", "lab-read", label);
    link.href = path;
    return link;
  }

  function gotoButton(textName, line, column) {
    var place = { line: line, column: column, text: labelOf(textName) };
    var button = element("button", "lab-goto", column ? t("lab.goto.column", place) : t("lab.goto", place));
    button.type = "button";
    button.setAttribute("data-text", textName);
    button.setAttribute("data-line", String(line));
    if (column) button.setAttribute("data-column", String(column));
    button.setAttribute("aria-label", column ? t("lab.goto.column.label", place) : t("lab.goto.label", place));
    return button;
  }

  function labelOf(textName) {
    var label = document.querySelector("label[for='" + texts[textName].id + "']");
    return label ? label.textContent : textName;
  }

  function countFindings(findings) {
    var errors = 0;
    var warnings = 0;
    for (var i = 0; i < findings.length; i++) {
      if (findings[i].severity === "error") errors++; else warnings++;
    }
    var errorText = errors === 1 ? t("lab.count.error.one") : t("lab.count.error.other", { count: errors });
    var warningText = warnings === 1 ? t("lab.count.warning.one") : t("lab.count.warning.other", { count: warnings });
    if (errors && warnings) return t("lab.count.both", { errors: errorText, warnings: warningText });
    return errors ? errorText : warnings ? warningText : t("lab.count.none");
  }

  // The findings of one file, errors first, each with its place, its line and its section.
  function findingsBlock(title, findings, textName) {
    var block = element("div", "lab-findings");
    block.setAttribute("data-text", textName || "");
    var sorted = findings.slice().sort(function (a, b) {
      return (a.severity === "error" ? 0 : 1) - (b.severity === "error" ? 0 : 1);
    });
    block.appendChild(element("h3", "lab-findings-title",
      t("lab.findings.title", { title: title, count: countFindings(findings) })));
    if (!sorted.length) return block;
    var list = element("ul", "lab-finding-list");
    for (var i = 0; i < sorted.length; i++) {
      var finding = sorted[i];
      var item = element("li", "lab-finding");
      item.setAttribute("data-severity", finding.severity);
      item.setAttribute("data-code", finding.code);
      if (finding.line) item.setAttribute("data-line", String(finding.line));
      item.appendChild(element("span", "lab-severity", finding.severity));
      item.appendChild(document.createTextNode(" "));
      item.appendChild(code(finding.code));
      item.appendChild(document.createTextNode(" "));
      item.appendChild(element("span", "lab-finding-message", finding.message));
      var place = element("span", "lab-finding-place");
      if (finding.path) {
        place.appendChild(document.createTextNode(t("lab.finding.at") + " "));
        place.appendChild(code(finding.path));
      }
      if (finding.line && textName) {
        place.appendChild(document.createTextNode(finding.path ? ", " : ""));
        place.appendChild(gotoButton(textName, finding.line, finding.column));
      }
      if (finding.read) {
        place.appendChild(document.createTextNode(" · "));
        place.appendChild(readLink(finding.read));
      }
      item.appendChild(place);
      list.appendChild(item);
    }
    block.appendChild(list);
    return block;
  }

  // The text as checked, with line numbers; the findings' lines marked by severity and the
  // lines that decided marked as such.
  function showLines(textName, findings, decided) {
    var view = document.querySelector("[data-lab-lines='" + textName + "']");
    var text = texts[textName].value;
    view.textContent = "";
    view.removeAttribute("data-stale");
    if (!text) {
      view.hidden = true;
      return;
    }
    var marks = {};
    for (var i = 0; i < findings.length; i++) {
      var line = findings[i].line;
      if (!line) continue;
      if (marks[line] !== "error") marks[line] = findings[i].severity === "error" ? "error" : "warning";
    }
    var caption = element("p", "lab-lines-caption", t("lab.lines.caption", { text: labelOf(textName) }));
    caption.id = "lab-" + textName + "-lines-caption";
    view.appendChild(caption);
    view.appendChild(element("p", "lab-stale-note", t("lab.lines.stale")));
    var pre = element("pre", "lab-lines-text");
    pre.tabIndex = 0;
    pre.setAttribute("aria-labelledby", caption.id);
    var lines = text.split("\n");
    if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
    for (var n = 1; n <= lines.length; n++) {
      var row = element("span", "lab-line");
      row.id = "lab-" + textName + "-line-" + n;
      row.setAttribute("data-line", String(n));
      if (marks[n]) {
        row.className += " lab-line-flagged lab-line-" + marks[n];
        row.setAttribute("data-severity", marks[n]);
      }
      if (decided && decided[n]) row.className += " lab-line-decided";
      row.appendChild(element("span", "lab-ln", String(n)));
      row.appendChild(element("span", "lab-code", lines[n - 1]));
      if (marks[n]) row.appendChild(element("span", "visually-hidden", " (" + marks[n] + ")"));
      row.appendChild(document.createTextNode("\n"));
      pre.appendChild(row);
    }
    view.appendChild(pre);
    view.hidden = false;
  }

  // A line link: the line marked in the view, and the cursor on it in the field.
  function goToLine(textName, line, column) {
    var view = document.querySelector("[data-lab-lines='" + textName + "']");
    var current = view.querySelectorAll(".lab-line-current");
    for (var i = 0; i < current.length; i++) current[i].classList.remove("lab-line-current");
    var row = byId("lab-" + textName + "-line-" + line);
    if (row) {
      row.classList.add("lab-line-current");
      row.scrollIntoView({ block: "nearest" });
    }
    var field = texts[textName];
    var lines = field.value.split("\n");
    var start = 0;
    for (var n = 1; n < line && n <= lines.length; n++) start += lines[n - 1].length + 1;
    var length = line <= lines.length ? lines[line - 1].length : 0;
    var caret = Math.min(start + Math.max(0, (column || 1) - 1), start + length);
    field.focus({ preventScroll: true });
    field.setSelectionRange(caret, start + length);
    var lineHeight = parseFloat(getComputedStyle(field).lineHeight) || 18;
    field.scrollTop = Math.max(0, (line - 3) * lineHeight);
  }

  function markStale(textName) {
    var view = document.querySelector("[data-lab-lines='" + textName + "']");
    if (view && !view.hidden) view.setAttribute("data-stale", "true");
  }

  function failure(tab, error) {
    var result = byId("lab-" + tab + "-result");
    result.textContent = "";
    result.setAttribute("data-state", "failed");
    result.appendChild(verdictBlock("failed", error.message));
    if (error.offline) showOffline("");
  }

  // ---- iOS ----

  // What iOS decides, from the AASA answer and the entitlements answer (either may be null).
  function iosVerdict(url, aasa, entitlements) {
    var host = hostOf(url);
    if (!url) {
      return { kind: "lint", text: t("lab.ios.lint-only") };
    }
    if (entitlements && entitlements.covering !== null && entitlements.covering.length === 0) {
      return {
        kind: "safari",
        text: t("lab.ios.not-claimed", { url: url, host: host })
      };
    }
    if (!aasa) {
      var claimed = entitlements && entitlements.covering && entitlements.covering.length
        ? t("lab.ios.claimed", { host: host, entries: entitlements.covering.join(", ") }) + " " : "";
      return { kind: "none", text: claimed + t("lab.ios.paste-aasa") };
    }
    if (aasa.apps === null) {
      return {
        kind: "unreadable",
        text: t("lab.ios.unreadable", { url: url })
      };
    }
    if (aasa.apps.length === 0) {
      var excluded = (aasa.explanation || []).filter(function (entry) { return entry.decision === "excluded"; });
      if (excluded.length) {
        return {
          kind: "safari",
          text: t("lab.ios.excluded", {
            url: url, index: excluded[0].index, apps: excluded[0].appIDs.join(", "), rule: excluded[0].rule
          })
        };
      }
      if (!(aasa.explanation || []).length) {
        return { kind: "safari", text: t("lab.ios.no-details", { url: url }) };
      }
      return { kind: "safari", text: t("lab.ios.no-rule", { url: url }) };
    }
    // The apps one rule opens the link for share a sentence: "Opens A and B: details[0], rule …".
    var groups = [];
    aasa.apps.forEach(function (app) {
      var entry = (aasa.explanation || []).filter(function (candidate) {
        return candidate.decision === "opens" && candidate.appIDs.indexOf(app) >= 0;
      })[0];
      var where = entry ? t("lab.ios.where", { index: entry.index, rule: entry.rule }) : "";
      var group = groups.filter(function (candidate) { return candidate.where === where; })[0];
      if (group) group.apps.push(app); else groups.push({ where: where, apps: [app] });
    });
    var sentences = groups.map(function (group) {
      var apps = group.apps.length > 1
        ? t("lab.list.and", { list: group.apps.slice(0, -1).join(", "), last: group.apps[group.apps.length - 1] })
        : group.apps[0];
      return group.where ? t("lab.ios.apps-where", { apps: apps, where: group.where }) : apps;
    });
    var text = t("lab.ios.opens", { apps: sentences.join("; ") });
    if (entitlements && entitlements.covering && entitlements.covering.length) {
      text += " " + t("lab.ios.claimed", { host: host, entries: entitlements.covering.join(", ") });
    }
    return { kind: "opens", text: text };
  }

  function hostOf(url) {
    try { return new URL(url).hostname; } catch (error) { return url; }
  }

  function aasaExplanationList(aasa, textName) {
    var list = element("ul", "lab-explanation");
    (aasa.explanation || []).forEach(function (entry) {
      var item = element("li", "lab-entry");
      item.setAttribute("data-decision", entry.decision);
      item.appendChild(code("details[" + entry.index + "]"));
      item.appendChild(document.createTextNode(" " + t("lab.ios.entry", {
        apps: entry.appIDs.length ? entry.appIDs.join(", ") : t("lab.ios.no-app-id"), reason: entry.reason
      }) + " "));
      if (entry.line && textName) item.appendChild(gotoButton(textName, entry.line));
      if (entry.read) {
        item.appendChild(document.createTextNode(" · "));
        item.appendChild(readLink(entry.read));
      }
      list.appendChild(item);
    });
    return list;
  }

  function checkIOS(url, aasaText, entitlementsText) {
    var questions = [];
    questions.push(aasaText ? ask("/api/v1/lab/aasa", { file: aasaText, url: url || null }) : Promise.resolve(null));
    questions.push(entitlementsText && url
      ? ask("/api/v1/lab/entitlements", { file: entitlementsText, url: url })
      : Promise.resolve(null));
    return Promise.all(questions).then(function (answers) {
      return { url: url, aasa: answers[0], entitlements: answers[1], verdict: iosVerdict(url, answers[0], answers[1]) };
    });
  }

  function renderIOS(answer) {
    var result = byId("lab-ios-result");
    result.textContent = "";
    result.setAttribute("data-state", "done");
    result.setAttribute("data-verdict", answer.verdict.kind);
    var block = verdictBlock(answer.verdict.kind, answer.verdict.text);
    result.appendChild(block);
    if (answer.aasa && answer.aasa.explanation && answer.aasa.explanation.length) {
      block.appendChild(aasaExplanationList(answer.aasa, "ios-aasa"));
    }
    if (answer.entitlements && answer.entitlements.covering === null) {
      block.appendChild(element("p", "lab-note", t("lab.ios.no-associated-domains")));
    } else if (fields.iosEntitlements.value.trim() && !answer.url) {
      block.appendChild(element("p", "lab-note", t("lab.ios.give-link")));
    }
    var decided = {};
    if (answer.aasa) {
      (answer.aasa.explanation || []).forEach(function (entry) {
        if (entry.line && entry.decision !== "no-match") decided[entry.line] = true;
      });
      result.appendChild(findingsBlock("apple-app-site-association", answer.aasa.findings, "ios-aasa"));
      showLines("ios-aasa", answer.aasa.findings, decided);
    }
    if (answer.entitlements) {
      result.appendChild(findingsBlock(t("lab.ios.entitlements"), answer.entitlements.findings, "ios-entitlements"));
      showLines("ios-entitlements", answer.entitlements.findings, null);
    }
  }

  // ---- Android ----

  function packageOf(manifest) {
    var match = /<manifest\b[^>]*\spackage\s*=\s*["']([^"']+)["']/.exec(manifest);
    return match ? match[1] : "";
  }

  function androidVerdict(url, applinks, assetlinks, packageName) {
    var host = hostOf(url);
    if (!applinks) {
      if (assetlinks) return assetLinksVerdict(assetlinks, packageName, host);
      return { kind: "none", text: t("lab.android.no-manifest") };
    }
    if (applinks.accepting === null) {
      return { kind: "unreadable", text: t("lab.android.unreadable") };
    }
    if (applinks.accepting.length === 0) {
      return { kind: "browser", text: t("lab.android.browser", { url: url }) };
    }
    var appLinks = applinks.accepting.filter(function (filter) { return filter.kind === "app-link"; });
    var deepLinks = applinks.accepting.filter(function (filter) { return filter.kind === "deep-link"; });
    var names = function (list) { return list.map(function (filter) { return filter.activity; }).join(", "); };
    if (appLinks.length) {
      if (assetlinks && assetlinks.authorised === true) {
        return {
          kind: "opens",
          text: t("lab.android.verified", { activities: names(appLinks), package: packageName, host: host })
        };
      }
      if (assetlinks) {
        return {
          kind: "unverified",
          text: t("lab.android.unverified", {
            activities: names(appLinks), host: host, reason: assetlinks.reason || t("lab.android.assetlinks-unreadable")
          })
        };
      }
      return {
        kind: "opens",
        text: t("lab.android.once-verified", { activities: names(appLinks), host: host })
      };
    }
    return {
      kind: "deep-link",
      text: t("lab.android.deep-link", { activities: names(deepLinks) })
    };
  }

  function assetLinksVerdict(assetlinks, packageName, host) {
    if (assetlinks.authorised === true) {
      return { kind: "opens", text: t("lab.assetlinks.authorised", { package: packageName, host: host }) };
    }
    if (assetlinks.authorised === false) {
      return { kind: "unverified", text: t("lab.assetlinks.not-authorised", { package: packageName, reason: assetlinks.reason }) };
    }
    return { kind: "unreadable", text: t("lab.assetlinks.unreadable") };
  }

  function filterList(applinks) {
    var list = element("ul", "lab-explanation");
    (applinks.explanation || []).forEach(function (entry) {
      var item = element("li", "lab-entry");
      item.setAttribute("data-verdict", entry.verdict);
      item.appendChild(element("span", "lab-entry-verdict", entry.verdict));
      item.appendChild(document.createTextNode(" "));
      item.appendChild(element("span", "lab-entry-reason", entry.reason));
      item.appendChild(document.createTextNode(" "));
      if (entry.line) item.appendChild(gotoButton("android-manifest", entry.line));
      if (entry.ignoredAtAPILevel && entry.ignoredAtAPILevel.length) {
        var ignored = element("span", "lab-ignored", " " + t("lab.android.ignored") + " ");
        entry.ignoredAtAPILevel.forEach(function (name, index) {
          if (index) ignored.appendChild(document.createTextNode(", "));
          ignored.appendChild(code(name));
        });
        ignored.appendChild(document.createTextNode("."));
        item.appendChild(ignored);
      }
      if (entry.read) {
        item.appendChild(document.createTextNode(" · "));
        item.appendChild(readLink(entry.read));
      }
      list.appendChild(item);
    });
    return list;
  }

  // Resolves to the answers, or rejects with what is missing.
  function checkAndroid(url, options) {
    var manifest = fields.androidManifest.value;
    var assetText = fields.androidAssetLinks.value;
    var packageName = fields.androidPackage.value.trim() || packageOf(manifest);
    var fingerprint = fields.androidFingerprint.value.trim();
    var notes = [];
    var questions = [];
    if (manifest.trim() && url) {
      var body = { manifest: manifest, url: url };
      if (options.apiLevel !== null) body.apiLevel = options.apiLevel;
      if (options.targetSdk !== null) body.targetSdk = options.targetSdk;
      questions.push(ask("/api/v1/lab/applinks", body));
    } else {
      if (manifest.trim()) notes.push(t("lab.android.give-link"));
      questions.push(Promise.resolve(null));
    }
    if (assetText.trim() && packageName && fingerprint) {
      questions.push(ask("/api/v1/lab/assetlinks", { file: assetText, package: packageName, fingerprint: fingerprint }));
    } else {
      if (assetText.trim() && !packageName) notes.push(t("lab.android.give-package"));
      if (assetText.trim() && !fingerprint) notes.push(t("lab.android.give-fingerprint"));
      questions.push(Promise.resolve(null));
    }
    return Promise.all(questions).then(function (answers) {
      return {
        url: url, applinks: answers[0], assetlinks: answers[1], packageName: packageName, notes: notes,
        verdict: androidVerdict(url, answers[0], answers[1], packageName)
      };
    });
  }

  function renderAndroid(answer) {
    var result = byId("lab-android-result");
    result.textContent = "";
    result.setAttribute("data-state", "done");
    result.setAttribute("data-verdict", answer.verdict.kind);
    var block = verdictBlock(answer.verdict.kind, answer.verdict.text);
    result.appendChild(block);
    if (answer.applinks && answer.applinks.explanation && answer.applinks.explanation.length) {
      block.appendChild(filterList(answer.applinks));
    }
    if (answer.applinks && answer.assetlinks) {
      block.appendChild(element("p", "lab-note", assetLinksVerdict(answer.assetlinks, answer.packageName,
        hostOf(answer.url)).text));
    }
    answer.notes.forEach(function (note) { block.appendChild(element("p", "lab-note", note)); });
    if (answer.applinks) {
      var decided = {};
      (answer.applinks.explanation || []).forEach(function (entry) {
        if (entry.line && entry.verdict === "accepted") decided[entry.line] = true;
      });
      result.appendChild(findingsBlock("AndroidManifest.xml", answer.applinks.findings, "android-manifest"));
      showLines("android-manifest", answer.applinks.findings, decided);
    }
    if (answer.assetlinks) {
      result.appendChild(findingsBlock("assetlinks.json", answer.assetlinks.findings, "android-assetlinks"));
      showLines("android-assetlinks", answer.assetlinks.findings, null);
    }
  }

  function androidOptions() {
    var apiLevel = wholeNumber(fields.androidAPI.value);
    var targetSdk = wholeNumber(fields.androidTarget.value);
    if (fields.androidAPI.value.trim() && apiLevel === null) throw new Error(t("lab.android.api-level"));
    if (fields.androidTarget.value.trim() && targetSdk === null) throw new Error(t("lab.android.target-sdk"));
    return { apiLevel: apiLevel, targetSdk: targetSdk };
  }

  // ---- Domain (the doctor) ----

  function checkDomain() {
    var url = fields.domainURL.value.trim();
    var result = byId("lab-domain-result");
    if (!url) {
      failure("domain", new Error(t("lab.domain.give-link")));
      return Promise.resolve();
    }
    result.textContent = "";
    result.setAttribute("data-state", "asking");
    result.appendChild(element("p", "lab-note", t("lab.domain.fetching", { host: hostOf(url) })));
    return post("/api/v1/lab/doctor", { url: url }).then(function (answer) {
      result.textContent = "";
      if (answer.status === 200 && answer.json) {
        renderDoctor(answer.json);
        return;
      }
      var text;
      var kind = "failed";
      if (answer.status === 404) {
        kind = "unavailable";
        text = t("lab.domain.unavailable", { url: url });
      } else if (answer.status === 429) {
        text = t("lab.domain.too-many", { seconds: answer.retryAfter || t("lab.domain.a-few") });
      } else if (answer.status === 403 && answer.json && answer.json.error && answer.json.error.code === "fetch_refused") {
        kind = "refused";
        text = t("lab.domain.refused", { reason: answer.json.error.message.replace(/\.$/, "") });
        if (text.indexOf("--lab-fetch-private") < 0) text += " " + t("lab.domain.public-only");
      } else {
        text = errorText(answer);
      }
      result.setAttribute("data-state", kind);
      result.appendChild(verdictBlock(kind, text));
    }, function () {
      failure("domain", offlineError());
    });
  }

  function platformName(key) {
    return key === "ios" ? t("lab.platform.ios") : t("lab.platform.android");
  }

  // One platform's half of the doctor's report: how the file was served, who opens the link,
  // and the findings (hosting first), with the statement lists an assetlinks.json includes.
  function doctorPlatform(platform, title) {
    var section = element("div", "lab-doctor-platform");
    section.setAttribute("data-passed", platform.passed ? "true" : "false");
    section.appendChild(element("h3", null, t("lab.doctor.platform", {
      platform: title, verdict: platform.passed ? t("lab.doctor.pass") : t("lab.doctor.fail")
    })));
    var fetched = element("p", "lab-note");
    fetched.appendChild(document.createTextNode(t("lab.doctor.fetched") + " "));
    fetched.appendChild(code(platform.url || ""));
    if (typeof platform.response === "string") fetched.appendChild(document.createTextNode(": " + platform.response));
    section.appendChild(fetched);
    if (platform.fileNotChecked) {
      section.appendChild(element("p", "lab-note", t("lab.doctor.not-checked", { reason: platform.fileNotChecked })));
    }
    if (Array.isArray(platform.apps)) {
      section.appendChild(element("p", "lab-note", platform.apps.length
        ? t("lab.doctor.apps", { apps: platform.apps.join(", ") })
        : t("lab.doctor.no-app")));
    }
    if (Array.isArray(platform.findings)) {
      section.appendChild(findingsBlock(t("lab.doctor.findings"), platform.findings, null));
    }
    (platform.included || []).forEach(function (included) {
      section.appendChild(doctorPlatform(included, t("lab.doctor.included")));
    });
    return section;
  }

  // The doctor's report: a verdict per platform, then each platform's half, then the report as
  // `workbook doctor` prints it.
  function renderDoctor(report) {
    var result = byId("lab-domain-result");
    result.setAttribute("data-state", "done");
    var platforms = ["ios", "android"].filter(function (key) { return report[key] && typeof report[key] === "object"; });
    var summary = platforms.map(function (key) {
      var platform = report[key];
      var findings = Array.isArray(platform.findings) ? platform.findings : [];
      var verdict = platform.passed ? t("lab.doctor.pass") : t("lab.doctor.fail");
      var named = key === "ios" ? t("lab.doctor.ios", { verdict: verdict }) : t("lab.doctor.android", { verdict: verdict });
      return findings.length ? t("lab.doctor.with-findings", { platform: named, count: countFindings(findings) }) : named;
    });
    var passed = typeof report.passed === "boolean" ? report.passed
      : platforms.every(function (key) { return report[key].passed === true; });
    var kind = platforms.length ? (passed ? "pass" : "fail") : "report";
    result.setAttribute("data-verdict", kind);
    var block = verdictBlock(kind, platforms.length
      ? (report.origin
        ? t("lab.doctor.verdict-for", { platforms: summary.join(", "), origin: report.origin })
        : t("lab.doctor.verdict", { platforms: summary.join(", ") }))
      : t("lab.doctor.report"));
    if (report.link) block.appendChild(element("p", "lab-note", t("lab.doctor.link", { link: report.link })));
    result.appendChild(block);
    platforms.forEach(function (key) { result.appendChild(doctorPlatform(report[key], platformName(key))); });
    var printed = element("details", "lab-raw");
    if (Array.isArray(report.lines)) {
      printed.appendChild(element("summary", null, t("lab.doctor.printed")));
      printed.appendChild(element("pre", "lab-doctor-lines", report.lines.join("\n")));
    } else {
      printed.appendChild(element("summary", null, t("lab.doctor.json")));
      printed.appendChild(element("pre", null, JSON.stringify(report, null, 2)));
    }
    result.appendChild(printed);
  }

  // ---- Compare ----

  function renderCompare(ios, android, url) {
    var result = byId("lab-compare-result");
    result.textContent = "";
    result.setAttribute("data-state", "done");
    var iosOpens = ios && ios.verdict.kind === "opens";
    var androidOpens = android && android.verdict.kind === "opens";
    var kind = iosOpens && androidOpens ? "both" : iosOpens ? "ios-only" : androidOpens ? "android-only" : "neither";
    var sentence = {
      both: t("lab.compare.both", { url: url }),
      "ios-only": t("lab.compare.ios-only", { url: url }),
      "android-only": t("lab.compare.android-only", { url: url }),
      neither: t("lab.compare.neither", { url: url })
    }[kind];
    result.setAttribute("data-verdict", kind);
    result.appendChild(verdictBlock(kind, sentence));
    var columns = element("div", "lab-compare");
    columns.appendChild(compareColumn(t("lab.compare.iphone"), "ios", ios, ios && ios.aasa ? ios.aasa.findings.length +
      (ios.entitlements ? ios.entitlements.findings.length : 0) : 0,
      t("lab.compare.no-aasa")));
    columns.appendChild(compareColumn(t("lab.compare.android"), "android", android,
      android ? (android.applinks ? android.applinks.findings.length : 0) +
        (android.assetlinks ? android.assetlinks.findings.length : 0) : 0,
      t("lab.compare.no-manifest")));
    result.appendChild(columns);
  }

  function compareColumn(title, tab, answer, findingCount, missing) {
    var column = element("div", "lab-compare-column");
    column.setAttribute("data-platform", tab);
    column.appendChild(element("h3", null, title));
    if (!answer) {
      column.appendChild(element("p", "lab-note", missing));
      return column;
    }
    var block = verdictBlock(answer.verdict.kind, answer.verdict.text);
    if (tab === "ios" && answer.aasa && answer.aasa.explanation && answer.aasa.explanation.length) {
      block.appendChild(aasaExplanationList(answer.aasa, null));
    }
    if (tab === "android" && answer.applinks && answer.applinks.explanation && answer.applinks.explanation.length) {
      var list = filterList({ explanation: answer.applinks.explanation.map(function (entry) {
        var copy = {};
        for (var key in entry) copy[key] = entry[key];
        copy.line = null;
        return copy;
      }) });
      block.appendChild(list);
    }
    column.appendChild(block);
    var note = element("p", "lab-note");
    note.appendChild(document.createTextNode((findingCount
      ? (findingCount === 1 ? t("lab.compare.findings.one") : t("lab.compare.findings.other", { count: findingCount }))
      : t("lab.compare.no-findings")) + " "));
    var open = element("button", "lab-open-tab", tab === "ios" ? t("lab.compare.open-ios") : t("lab.compare.open-android"));
    open.type = "button";
    open.setAttribute("data-open-tab", tab);
    note.appendChild(open);
    column.appendChild(note);
    return column;
  }

  // ---- Checking the open tab ----

  function checkTab(tab, fromExample) {
    if (!served) return Promise.resolve();
    var done;
    clearResult(tab);
    setBusy(1);
    try {
      if (tab === "ios") {
        var iosURL = fields.iosURL.value.trim();
        if (!fields.iosAASA.value.trim() && !fields.iosEntitlements.value.trim()) {
          throw new Error(t("lab.ios.paste"));
        }
        done = checkIOS(iosURL, fields.iosAASA.value, fields.iosEntitlements.value).then(renderIOS);
      } else if (tab === "android") {
        var androidURL = fields.androidURL.value.trim();
        if (!fields.androidManifest.value.trim() && !fields.androidAssetLinks.value.trim()) {
          throw new Error(t("lab.android.paste"));
        }
        if (!androidURL && fields.androidManifest.value.trim()) {
          throw new Error(t("lab.android.give-link"));
        }
        done = checkAndroid(androidURL, androidOptions()).then(renderAndroid);
      } else if (tab === "domain") {
        done = checkDomain();
      } else {
        var url = fields.compareURL.value.trim();
        if (!url) throw new Error(t("lab.compare.give-link"));
        var iosAnswer = fields.iosAASA.value.trim()
          ? checkIOS(url, fields.iosAASA.value, fields.iosEntitlements.value) : Promise.resolve(null);
        var androidAnswer = fields.androidManifest.value.trim()
          ? checkAndroid(url, androidOptions()) : Promise.resolve(null);
        done = Promise.all([iosAnswer, androidAnswer]).then(function (answers) {
          renderCompare(answers[0], answers[1], url);
        });
      }
    } catch (error) {
      done = Promise.reject(error);
    }
    return done
      .then(function () {
        if (!fromExample) rememberState();
      })
      .catch(function (error) { failure(tab, error); })
      .then(function () { setBusy(-1); });
  }

  function checkActive(fromExample) {
    if (activeTab === "domain") return Promise.resolve();
    return checkTab(activeTab, fromExample);
  }

  // ---- The demo and the examples ----

  function fetchText(path) {
    return fetch(path, { cache: "no-store" }).then(function (response) {
      if (!response.ok) throw new Error(t("lab.fetch-failed", { path: path, status: response.status }));
      return response.text();
    });
  }

  // The demo app's files: the association files as the running server generates them.
  function demoState() {
    return Promise.all([
      fetchText("/.well-known/apple-app-site-association"),
      fetchText("/.well-known/assetlinks.json")
    ]).then(function (files) {
      var fingerprint = "";
      try { fingerprint = JSON.parse(files[1])[0].target.sha256_cert_fingerprints[0] || ""; } catch (error) {}
      var state = emptyState();
      state.ios = { url: "https://go.example/summer", aasa: files[0], entitlements: demoEntitlements };
      state.android = {
        url: "https://go.example/summer", apiLevel: LATEST_API_LEVEL, targetSdk: null, manifest: demoManifest,
        assetlinks: files[1], package: "com.example.shop", fingerprint: fingerprint
      };
      state.domain = { url: window.location.origin + "/summer" };
      state.compare = { url: "https://go.example/summer" };
      return state;
    });
  }

  function exampleState(example) {
    var base = example.demo ? demoState() : Promise.resolve(emptyState());
    return base.then(function (state) {
      ["ios", "android", "domain", "compare"].forEach(function (section) {
        var given = example[section];
        if (!given) return;
        for (var key in given) state[section][key] = given[key];
      });
      state.tab = example.tab;
      return state;
    });
  }

  function loadDemo() {
    if (!served) return;
    setBusy(1);
    demoState()
      .then(function (state) {
        state.tab = activeTab;
        applyState(state);
        say(t("lab.demo.loaded"));
        setBusy(-1);
        return checkActive(false);
      })
      .catch(function (error) {
        setBusy(-1);
        say(t("lab.demo.failed", { error: error.message }) + " " + offlineText);
      });
  }

  function openExample(name) {
    var example = Object.prototype.hasOwnProperty.call(examples, name) ? examples[name] : null;
    if (!example) {
      say(t("lab.example.unknown", { name: name, names: Object.keys(examples).join(", ") }));
      return Promise.resolve();
    }
    if (!served && example.demo) {
      applyState(emptyState());
      return Promise.resolve();
    }
    return exampleState(example).then(function (state) {
      applyState(state);
      root.setAttribute("data-example", name);
      if (example.checks === false) {
        say(t("lab.example.filled", { name: name }));
        return null;
      }
      say(t("lab.example.checked", { name: name }));
      return checkActive(true);
    }, function (error) {
      say(t("lab.example.failed", { name: name, error: error.message }));
    });
  }

  function clearLab() {
    applyState(emptyState());
    permalinkBox.hidden = true;
    root.removeAttribute("data-example");
    history.replaceState(null, "", window.location.pathname);
    say(t("lab.cleared"));
  }

  // ---- Starting ----

  function showOffline(extra) {
    offline.hidden = false;
    served = false;
    setBusy(0);
    if (extra) say(extra + " " + offlineText);
  }

  // The state to start with: the fragment's, else the named example's, else an empty lab.
  function restore() {
    var hash = window.location.hash;
    if (hash.indexOf(FRAGMENT_PREFIX) === 0) {
      if (!canCompress()) {
        say(t("lab.link.no-decompression"));
        return Promise.resolve();
      }
      return readFragment(hash).then(function (state) {
        applyState(state);
        root.setAttribute("data-restored", "fragment");
        say(t("lab.link.restored"));
        return checkActive(true);
      }, function (error) {
        applyState(emptyState());
        root.setAttribute("data-restored", "failed");
        say(t("lab.link.damaged", { error: error.message || t("lab.link.damaged-reason") }));
      });
    }
    var name = new URLSearchParams(window.location.search).get("example");
    if (name) return openExample(name);
    return Promise.resolve();
  }

  for (var i = 0; i < tabButtons.length; i++) {
    tabButtons[i].addEventListener("click", function (event) {
      selectTab(event.currentTarget.getAttribute("data-lab-tab"), false);
    });
    tabButtons[i].addEventListener("keydown", onTabKey);
  }
  var forms = root.querySelectorAll("form[data-lab-form]");
  for (var f = 0; f < forms.length; f++) {
    forms[f].addEventListener("submit", function (event) {
      event.preventDefault();
      if (busy === 0) checkTab(event.currentTarget.getAttribute("data-lab-form"), false);
    });
  }
  Object.keys(texts).forEach(function (name) {
    var field = texts[name];
    field.addEventListener("input", function () { markStale(name); });
    field.addEventListener("keydown", function (event) {
      if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        var form = field.closest("form");
        if (form && busy === 0 && served) checkTab(form.getAttribute("data-lab-form"), false);
      }
    });
  });
  root.addEventListener("click", function (event) {
    var target = event.target.closest ? event.target.closest("button") : null;
    if (!target) return;
    if (target.classList.contains("lab-goto")) {
      goToLine(target.getAttribute("data-text"), Number(target.getAttribute("data-line")),
        Number(target.getAttribute("data-column")) || null);
    } else if (target.hasAttribute("data-open-tab")) {
      selectTab(target.getAttribute("data-open-tab"), true);
    }
  });
  demoButton.addEventListener("click", loadDemo);
  permalinkButton.addEventListener("click", makePermalink);
  clearButton.addEventListener("click", clearLab);
  downloadButton.addEventListener("click", downloadState);
  stateFile.addEventListener("change", openStateFile);
  window.addEventListener("hashchange", function () {
    if (window.location.hash.indexOf(FRAGMENT_PREFIX) === 0) restore();
  });
  selectTab("ios", false);

  // Only a page served by `workbook serve` can reach the lab's routes; ask its health route
  // first, so that a page opened from files never sends a request that must fail.
  if (!window.location.protocol.match(/^https?:$/) || !window.fetch) {
    showOffline("");
    restore().then(function () { root.setAttribute("data-ready", "true"); });
    return;
  }
  setBusy(0);
  fetch("/healthz", { cache: "no-store" })
    .then(function (response) { return response.ok ? response.json() : null; })
    .then(function (health) {
      if (health && health.status === "ok") {
        served = true;
        setBusy(0);
      } else {
        showOffline(t("server.not-mock"));
      }
    }, function () { showOffline(t("server.no-answer")); })
    .then(restore)
    .then(function () { root.setAttribute("data-ready", "true"); });
})();
