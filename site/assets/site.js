// Deep Link Workbook: the site's behaviour. Plain JavaScript, no dependencies but highlight.js
// (Debian's libjs-highlight.js, copied in at build time when installed). Everything works on
// pages opened from files: the search index loads through a <script>, never through fetch.
(function () {
  "use strict";

  var root = document.documentElement.getAttribute("data-root") || "";

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

  // Theme: follow the system until the reader chooses; remember the choice.

  function effectiveTheme() {
    var chosen = document.documentElement.dataset.theme;
    if (chosen === "light" || chosen === "dark") return chosen;
    return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  }

  function toggleTheme() {
    var next = effectiveTheme() === "dark" ? "light" : "dark";
    document.documentElement.dataset.theme = next;
    try {
      localStorage.setItem("workbook-theme", next);
    } catch (error) {
      // Storage may be unavailable (private mode, file: pages in some browsers): the toggle still works.
    }
    updateThemeButton();
  }

  function updateThemeButton() {
    var button = document.querySelector(".theme-toggle");
    if (!button) return;
    var dark = effectiveTheme() === "dark";
    button.setAttribute("aria-pressed", dark ? "true" : "false");
    button.setAttribute("aria-label", dark ? t("theme.to-light") : t("theme.to-dark"));
  }

  // Language: the switch opens the same page in the other language at the same anchor (the
  // anchors are the English ones in every language), and the choice is remembered like the
  // theme: the template's head script opens later pages in it.

  document.querySelectorAll("a.language-switch").forEach(function (link) {
    link.addEventListener("click", function (event) {
      try {
        localStorage.setItem("workbook-language", link.getAttribute("hreflang"));
      } catch (error) {
        // Without storage the switch still opens the page; the choice is not remembered.
      }
      if (location.hash) {
        event.preventDefault();
        location.href = link.href + location.hash;
      }
    });
  });

  // Highlighting. Code is split into runs around <<chunk>> reference links, so each run is
  // highlighted on its own, carrying the parser state from one run to the next.

  var languages = {
    swift: "swift", kotlin: "kotlin", kt: "kotlin", json: "json", xml: "xml", plist: "xml", html: "xml",
    entitlements: "xml", sh: "bash", bash: "bash", shell: "bash", console: "shell", http: "http",
    java: "java", javascript: "javascript", js: "javascript", yaml: "yaml", diff: "diff"
  };

  function highlightAll() {
    if (!window.hljs || !window.hljs.highlight) return;
    var blocks = document.querySelectorAll("pre code[class*='language-']");
    for (var i = 0; i < blocks.length; i++) {
      var match = /language-([\w+-]+)/.exec(blocks[i].className);
      var name = match && languages[match[1].toLowerCase()];
      if (!name || !window.hljs.getLanguage(name)) continue;
      var runs = blocks[i].querySelectorAll(".code-text");
      var state = undefined;
      for (var j = 0; j < runs.length; j++) {
        try {
          var result = window.hljs.highlight(name, runs[j].textContent, true, state);
          runs[j].innerHTML = result.value;
          state = result.top;
        } catch (error) {
          state = undefined;
        }
      }
      blocks[i].classList.add("hljs");
    }
  }

  // Copy buttons on code blocks.

  function addCopyButtons() {
    if (!navigator.clipboard) return;
    var headers = document.querySelectorAll(".code-header");
    for (var i = 0; i < headers.length; i++) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "copy-button";
      button.textContent = t("code.copy");
      button.setAttribute("aria-label", t("code.copy.label"));
      button.addEventListener("click", function (event) {
        var target = event.currentTarget;
        var code = target.closest(".code").querySelector("pre code");
        navigator.clipboard.writeText(code.textContent).then(function () {
          target.textContent = t("code.copied");
          setTimeout(function () { target.textContent = t("code.copy"); }, 1500);
        });
      });
      headers[i].appendChild(button);
    }
  }

  // Search. The build reads every section into words (Sources/Weave/SearchTerms.swift): a word is
  // a run of letters, digits and "_", lowercased and stemmed with Porter's algorithm, and a name
  // such as publishableKey also counts as its parts. It writes each word with the sections that
  // hold it and a weight (search-index.js). Here the words typed are read by the same rules and
  // looked up; SearchPostings.search in Sources/Weave/SearchIndex.swift is this ranking, step
  // for step, so a change to one is a change to both.

  var searchInput = document.getElementById("search-input");
  var resultsList = document.getElementById("search-results");
  var index = null;
  var loading = null;
  var selected = -1;

  function queryWords(text) {
    return text.toLowerCase().split(/[^\p{L}\p{N}_]+/u).filter(function (word) { return word.length > 0; });
  }

  // Porter's stemmer ("An algorithm for suffix stripping", 1980) as published; like Porter's C
  // version it leaves words of one or two letters alone, and words with anything but a to z.
  var step2 = ["ational", "ate", "tional", "tion", "enci", "ence", "anci", "ance", "izer", "ize", "abli", "able",
    "alli", "al", "entli", "ent", "eli", "e", "ousli", "ous", "ization", "ize", "ation", "ate", "ator", "ate",
    "alism", "al", "iveness", "ive", "fulness", "ful", "ousness", "ous", "aliti", "al", "iviti", "ive",
    "biliti", "ble"];
  var step3 = ["icate", "ic", "ative", "", "alize", "al", "iciti", "ic", "ical", "ic", "ful", "", "ness", ""];
  var step4 = ["al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou",
    "ism", "ate", "iti", "ous", "ive", "ize"];

  // Porter's rules are English: a Vietnamese page's index holds its words unstemmed, each
  // syllable with diacritics also under its plain letters (SearchLanguage in SearchTerms.swift).
  var stems = !/^vi\b/.test(document.documentElement.lang);

  function stem(word) {
    if (!stems || word.length < 3 || !/^[a-z]+$/.test(word)) return word;
    var b = word.split("");
    var k = b.length - 1;
    var j = 0;
    function isConsonant(i) {
      switch (b[i]) {
        case "a": case "e": case "i": case "o": case "u": return false;
        case "y": return i === 0 ? true : !isConsonant(i - 1);
        default: return true;
      }
    }
    // The number of vowel-consonant sequences in b[0...j].
    function measure() {
      var n = 0;
      var i = 0;
      while (true) { if (i > j) return n; if (!isConsonant(i)) break; i++; }
      i++;
      while (true) {
        while (true) { if (i > j) return n; if (isConsonant(i)) break; i++; }
        i++;
        n++;
        while (true) { if (i > j) return n; if (!isConsonant(i)) break; i++; }
        i++;
      }
    }
    function hasVowelInStem() {
      for (var i = 0; i <= j; i++) if (!isConsonant(i)) return true;
      return false;
    }
    function isDoubleConsonant(i) { return i >= 1 && b[i] === b[i - 1] && isConsonant(i); }
    function isCVC(i) {
      if (i < 2 || !isConsonant(i) || isConsonant(i - 1) || !isConsonant(i - 2)) return false;
      return b[i] !== "w" && b[i] !== "x" && b[i] !== "y";
    }
    function ends(suffix) {
      var count = suffix.length;
      if (count > k + 1) return false;
      for (var i = 0; i < count; i++) if (b[k - count + 1 + i] !== suffix[i]) return false;
      j = k - count;
      return true;
    }
    function setTo(replacement) {
      b.length = j + 1;
      for (var i = 0; i < replacement.length; i++) b.push(replacement[i]);
      k = j + replacement.length;
    }
    function replaceFirst(pairs) {
      for (var i = 0; i < pairs.length; i += 2) {
        if (!ends(pairs[i])) continue;
        if (measure() > 0) setTo(pairs[i + 1]);
        return;
      }
    }
    // Step 1a: plurals.
    if (b[k] === "s") {
      if (ends("sses")) k -= 2;
      else if (ends("ies")) setTo("i");
      else if (b[k - 1] !== "s") k -= 1;
    }
    // Step 1b: -eed, -ed, -ing.
    if (ends("eed")) {
      if (measure() > 0) k -= 1;
    } else if ((ends("ed") || ends("ing")) && hasVowelInStem()) {
      k = j;
      if (ends("at")) setTo("ate");
      else if (ends("bl")) setTo("ble");
      else if (ends("iz")) setTo("ize");
      else if (isDoubleConsonant(k)) {
        if (b[k] !== "l" && b[k] !== "s" && b[k] !== "z") k -= 1;
      } else {
        j = k;
        if (measure() === 1 && isCVC(k)) setTo("e");
      }
    }
    if (k > 0) {
      // Step 1c: a final y after a vowel in the stem becomes i.
      if (ends("y") && hasVowelInStem()) b[k] = "i";
      replaceFirst(step2);
      replaceFirst(step3);
      // Step 4: suffixes removed when the measure stays above 1.
      for (var s = 0; s < step4.length; s++) {
        if (!ends(step4[s])) continue;
        if (step4[s] === "ion" && !(j >= 0 && (b[j] === "s" || b[j] === "t"))) break;
        if (measure() > 1) k = j;
        break;
      }
      // Step 5: a final e, and ll.
      j = k;
      if (b[k] === "e") {
        var m = measure();
        if (m > 1 || (m === 1 && !isCVC(k - 1))) k -= 1;
      }
      if (b[k] === "l" && isDoubleConsonant(k) && measure() > 1) k -= 1;
    }
    return b.slice(0, k + 1).join("");
  }

  function loadIndex() {
    if (index) return Promise.resolve(index);
    if (loading) return loading;
    loading = new Promise(function (resolve, reject) {
      function done() {
        var data = window.WORKBOOK_SEARCH;
        if (!data || data.version !== 2) return reject(new Error("no search index"));
        index = data;
        resolve(index);
      }
      if (window.WORKBOOK_SEARCH) return done();
      var script = document.createElement("script");
      script.src = root + "search-index.js";
      script.onload = done;
      script.onerror = function () { reject(new Error("cannot load the search index")); };
      document.head.appendChild(script);
    });
    return loading;
  }

  // The position of the first term not below `term` in the sorted terms.
  function lowerBound(term) {
    var terms = index.terms;
    var low = 0;
    var high = terms.length;
    while (low < high) {
      var middle = (low + high) >> 1;
      if (terms[middle] < term) low = middle + 1; else high = middle;
    }
    return low;
  }

  function find(term) {
    var at = lowerBound(term);
    return at < index.terms.length && index.terms[at] === term ? at : -1;
  }

  // Every word must be found in a section (its stem, weight doubled); the last also as the start
  // of longer words or, when nothing starts with it, as a word of four letters or more that it
  // begins with, up to three letters shorter ("matchin" finds "match" while it is typed).
  // Sections rank by the sum of their best weight for each word, then in book order.
  function search(query) {
    var words = queryWords(query);
    if (words.length === 0) return [];
    var scores = null;
    for (var w = 0; w < words.length; w++) {
      var word = words[w];
      var wordStem = stem(word);
      var wordScores = Object.create(null);
      // A term's postings: the distance from the previous section's number, then the weight.
      var add = function (at, factor) {
        var list = index.postings[at];
        var section = 0;
        for (var p = 0; p < list.length; p += 2) {
          section += list[p];
          var score = list[p + 1] * factor;
          if (!(wordScores[section] >= score)) wordScores[section] = score;
        }
      };
      var exact = find(wordStem);
      if (exact >= 0) add(exact, 2);
      if (w === words.length - 1) {
        var longer = 0;
        for (var at = lowerBound(word), found = 0;
          at < index.terms.length && index.terms[at].lastIndexOf(word, 0) === 0 && found < 200; at++, found++) {
          if (index.terms[at] !== wordStem) { add(at, 1); longer++; }
        }
        if (exact < 0 && longer === 0 && stems && /^[a-z]+$/.test(word)) {
          for (var length = word.length - 1; length >= Math.max(4, word.length - 3); length--) {
            var start = word.slice(0, length);
            var shorter = start === wordStem ? -1 : find(start);
            if (shorter >= 0) add(shorter, 1);
          }
        }
      }
      if (scores === null) {
        scores = wordScores;
      } else {
        var both = Object.create(null);
        for (var section in scores) if (section in wordScores) both[section] = scores[section] + wordScores[section];
        scores = both;
      }
    }
    return Object.keys(scores).map(function (section) { return { number: +section, score: scores[section] }; })
      .sort(function (a, b) { return b.score - a.score || a.number - b.number; })
      .slice(0, 12)
      .map(function (result) { return { section: index.sections[result.number], score: result.score }; });
  }

  function escapeHTML(text) {
    return text.replace(/[&<>"]/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c];
    });
  }

  // What to look for in a section's text for a word typed: the letters it shares with its stem
  // ("match" for "matching", "happ" for "happy").
  function roots(query) {
    return queryWords(query).map(function (word) {
      var wordStem = stem(word);
      var length = 0;
      while (length < word.length && word[length] === wordStem[length]) length++;
      return word.slice(0, length);
    }).filter(function (root) { return root.length > 1; });
  }

  // About 160 characters of text around the first word found, the words found marked.
  function snippet(text, words) {
    var lower = text.toLowerCase();
    var at = -1;
    for (var i = 0; i < words.length && at < 0; i++) at = lower.indexOf(words[i]);
    var start = Math.max(0, at - 60);
    var piece = (start > 0 ? "…" : "") + text.slice(start, start + 160) + (start + 160 < text.length ? "…" : "");
    if (words.length === 0) return escapeHTML(piece);
    var pattern = new RegExp("(?:" + words.map(function (word) {
      return word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    }).join("|") + ")[\\p{L}\\p{N}_]*", "giu");
    var html = "";
    var last = 0;
    var match;
    while ((match = pattern.exec(piece)) !== null) {
      html += escapeHTML(piece.slice(last, match.index)) + "<mark>" + escapeHTML(match[0]) + "</mark>";
      last = match.index + match[0].length;
    }
    return html + escapeHTML(piece.slice(last));
  }

  function showResults(results, query) {
    selected = -1;
    resultsList.innerHTML = "";
    resultsList.setAttribute("data-query", query);
    if (!query.trim()) {
      closeResults();
      return;
    }
    if (results.length === 0) {
      var empty = document.createElement("li");
      empty.className = "result-empty";
      empty.setAttribute("role", "option");
      empty.textContent = t("search.nothing", { query: query });
      resultsList.appendChild(empty);
    }
    var words = roots(query);
    results.forEach(function (result, position) {
      var item = document.createElement("li");
      item.setAttribute("role", "option");
      item.id = "search-result-" + position;
      var section = result.section;
      item.innerHTML = '<a href="' + escapeHTML(root + section.url) + '"><span class="result-title">' +
        escapeHTML(section.title) + "</span>" +
        (section.page === section.title ? "" : '<span class="result-page">' + escapeHTML(section.page) + "</span>") +
        '<span class="result-text">' + snippet(section.text, words) + "</span></a>";
      resultsList.appendChild(item);
    });
    resultsList.hidden = false;
    searchInput.setAttribute("aria-expanded", "true");
  }

  function closeResults() {
    resultsList.hidden = true;
    searchInput.setAttribute("aria-expanded", "false");
    searchInput.removeAttribute("aria-activedescendant");
  }

  function moveSelection(step) {
    var items = resultsList.querySelectorAll("li[id]");
    if (items.length === 0) return;
    if (selected >= 0) items[selected].removeAttribute("aria-selected");
    selected = (selected + step + items.length) % items.length;
    items[selected].setAttribute("aria-selected", "true");
    items[selected].scrollIntoView({ block: "nearest" });
    searchInput.setAttribute("aria-activedescendant", items[selected].id);
  }

  function setUpSearch() {
    if (!searchInput || !resultsList) return;
    searchInput.addEventListener("focus", function () { loadIndex().catch(function () {}); });
    searchInput.addEventListener("input", function () {
      var query = searchInput.value;
      loadIndex().then(function () { showResults(search(query), query); }, function () {
        showResults([], query);
      });
    });
    searchInput.addEventListener("keydown", function (event) {
      if (event.key === "ArrowDown") { moveSelection(1); event.preventDefault(); }
      else if (event.key === "ArrowUp") { moveSelection(-1); event.preventDefault(); }
      else if (event.key === "Enter") {
        var items = resultsList.querySelectorAll("li[id] a");
        var target = items[selected >= 0 ? selected : 0];
        if (target) window.location.href = target.href;
      } else if (event.key === "Escape") {
        closeResults();
        searchInput.blur();
      }
    });
    document.addEventListener("click", function (event) {
      if (!event.target.closest(".search")) closeResults();
    });
  }

  // Help overlay and keyboard shortcuts.

  var help = document.getElementById("help");
  var focusBeforeHelp = null;

  function openHelp() {
    if (!help) return;
    focusBeforeHelp = document.activeElement;
    help.hidden = false;
    help.querySelector(".help-close").focus();
  }

  function closeHelp() {
    if (!help || help.hidden) return;
    help.hidden = true;
    if (focusBeforeHelp && focusBeforeHelp.focus) focusBeforeHelp.focus();
  }

  function follow(rel) {
    var link = document.querySelector("a[rel='" + rel + "']");
    if (link) window.location.href = link.href;
  }

  function isTyping(target) {
    return target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
  }

  function onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "Escape") { closeHelp(); return; }
    if (isTyping(event.target)) return;
    switch (event.key) {
      case "/":
      case "s":
        if (searchInput) { event.preventDefault(); searchInput.focus(); searchInput.select(); }
        break;
      case "n": follow("next"); break;
      case "p": follow("prev"); break;
      case "t": toggleTheme(); break;
      case "?": if (help && help.hidden) openHelp(); else closeHelp(); break;
    }
  }

  function setUpButtons() {
    var themeButton = document.querySelector(".theme-toggle");
    if (themeButton) themeButton.addEventListener("click", toggleTheme);
    var helpButton = document.querySelector(".help-toggle");
    if (helpButton) helpButton.addEventListener("click", openHelp);
    if (help) {
      help.querySelector(".help-close").addEventListener("click", closeHelp);
      help.addEventListener("click", function (event) { if (event.target === help) closeHelp(); });
    }
    var menu = document.querySelector(".menu-toggle");
    var sidebar = document.getElementById("sidebar");
    if (menu && sidebar) {
      menu.addEventListener("click", function () {
        var open = sidebar.classList.toggle("open");
        menu.setAttribute("aria-expanded", open ? "true" : "false");
      });
    }
  }

  // Parts that need the mock server say how to start it when the page is opened from files.
  function markLiveNotes() {
    var notes = document.querySelectorAll("[data-live-note]");
    for (var i = 0; i < notes.length; i++) notes[i].hidden = window.location.protocol !== "file:";
  }

  // Live parts. Served by `workbook serve`, a page follows the book: it reloads after each
  // rebuild (Server-Sent Events from /_workbook/events), lists the book's diagnostics in
  // #wb-banner, says when the server must be restarted (#wb-restart-notice), and sends the
  // "Try it" requests. Opened from files there is nothing to ask, so nothing is fetched: the
  // panels say how to start a server. The protocol is checked before any fetch, because a
  // failed request would be an error in the console.

  var live = { generation: null, source: null };

  function isServed() {
    return window.location.protocol === "http:" || window.location.protocol === "https:";
  }

  function setUpLive() {
    var panels = document.querySelectorAll(".try-it");
    for (var i = 0; i < panels.length; i++) setUpPanel(panels[i]);
    if (!isServed() || !window.fetch) return;
    fetch("/_workbook/status", { cache: "no-store" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (status) {
        if (!status || typeof status.generation !== "number") return;
        live.generation = status.generation;
        showStatus(status);
        openEvents();
        return fetch("/_workbook/config", { cache: "no-store" })
          .then(function (response) { return response.ok ? response.json() : null; })
          .then(function (config) { if (config) goLive(panels, config); });
      })
      .catch(function () {});
  }

  function openEvents() {
    if (!window.EventSource) return;
    var source = new EventSource("/_workbook/events");
    live.source = source;
    source.addEventListener("reload", function (event) {
      var data = parse(event.data);
      if (!data || data.generation === live.generation) return;
      // A rebuild of the site in other languages than this page's: nothing of it changed.
      if (data.languages && data.languages.indexOf(document.documentElement.lang) < 0) {
        live.generation = data.generation;
        return;
      }
      window.location.reload();
    });
    source.addEventListener("status", function (event) {
      var status = parse(event.data);
      if (!status) return;
      // A page that missed a reload (its server restarted, or the stream dropped) catches up.
      if (status.state === "ready" && status.generation !== live.generation) {
        window.location.reload();
        return;
      }
      showStatus(status);
    });
    source.addEventListener("replaced", function () {
      // More pages are open than the server keeps streams for, and this one is the oldest.
      live.replaced = true;
      source.close();
      showBanner([t("live.replaced")], "");
    });
    source.addEventListener("error", function () {
      if (live.replaced) return;
      // The server stopped. Reconnecting to a closed port would log an error every second.
      source.close();
      showBanner([t("live.lost")], "");
    });
    window.addEventListener("pagehide", function () { source.close(); });
  }

  function parse(text) {
    try {
      return JSON.parse(text);
    } catch (error) {
      return null;
    }
  }

  function showStatus(status) {
    var lines = [];
    var diagnostics = status.diagnostics || [];
    for (var i = 0; i < diagnostics.length; i++) {
      var d = diagnostics[i];
      var place = d.file ? d.file + (d.line ? ":" + d.line + (d.column ? ":" + d.column : "") : "") + ": " : "";
      lines.push(place + d.message);
    }
    var title = "";
    if (status.state === "failed") title = t("live.failed");
    else if (lines.length) {
      title = lines.length === 1 ? t("live.findings.one") : t("live.findings.other", { count: lines.length });
    }
    showBanner(lines, title);
    var notice = document.getElementById("wb-restart-notice");
    if (notice) {
      notice.textContent = "";
      if (status.restartNeeded) {
        // The server's reason says what to run: ./wb tangle and a restart, or a restart alone.
        var reason = document.createElement("p");
        reason.textContent = status.restartReason || t("live.restart.default");
        notice.appendChild(reason);
      }
      notice.hidden = !status.restartNeeded;
    }
  }

  function showBanner(lines, title) {
    var banner = document.getElementById("wb-banner");
    if (!banner) return;
    banner.textContent = "";
    if (title || lines.length) {
      var heading = document.createElement("p");
      heading.textContent = title || lines[0];
      banner.appendChild(heading);
      if (title && lines.length) {
        var list = document.createElement("ul");
        for (var i = 0; i < lines.length; i++) {
          var item = document.createElement("li");
          item.textContent = lines[i];
          list.appendChild(item);
        }
        banner.appendChild(list);
      }
    }
    banner.hidden = !(title || lines.length);
  }

  // "Try it" panels: until a server answers, each shows its request and how to start one.

  function setUpPanel(panel) {
    var button = panel.querySelector(".try-it-send");
    if (button) {
      button.disabled = true;
      button.addEventListener("click", function () { send(panel); });
    }
  }

  function goLive(panels, config) {
    for (var i = 0; i < panels.length; i++) {
      var panel = panels[i];
      panel.classList.add("live");
      var headers = panel.querySelector(".try-it-headers");
      if (headers && config.publishableKey) {
        headers.value = headers.value
          .replace(/^(X-Li2-Key:).*$/gim, "$1 " + config.publishableKey)
          .split(t("tryit.publishable-key")).join(config.publishableKey);
      }
      var path = panel.querySelector(".try-it-path");
      if (path && config.linkDomain) path.value = path.value.split("{domain}").join(config.linkDomain);
      var offline = panel.querySelector(".try-it-offline");
      if (offline) offline.hidden = true;
      var button = panel.querySelector(".try-it-send");
      if (button) button.disabled = false;
    }
  }

  var reasons = { 200: "OK", 201: "Created", 204: "No Content", 302: "Found", 400: "Bad Request",
    401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed", 409: "Conflict",
    413: "Payload Too Large", 415: "Unsupported Media Type", 500: "Internal Server Error",
    503: "Service Unavailable" };

  function send(panel) {
    var method = panel.getAttribute("data-method") || "GET";
    var pathInput = panel.querySelector(".try-it-path");
    var path = pathInput ? pathInput.value : panel.getAttribute("data-path");
    var headers = {};
    var headerText = panel.querySelector(".try-it-headers");
    var lines = headerText ? headerText.value.split("\n") : [];
    for (var i = 0; i < lines.length; i++) {
      var colon = lines[i].indexOf(":");
      if (colon > 0) headers[lines[i].slice(0, colon).trim()] = lines[i].slice(colon + 1).trim();
    }
    var bodyText = panel.querySelector(".try-it-body");
    var options = { method: method, headers: headers, cache: "no-store" };
    if (method !== "GET" && method !== "HEAD" && bodyText && bodyText.value.trim()) options.body = bodyText.value;
    var status = panel.querySelector(".try-it-status");
    var responseHeaders = panel.querySelector(".try-it-response-headers");
    var response = panel.querySelector(".try-it-response");
    status.textContent = t("tryit.sending");
    responseHeaders.textContent = "";
    response.textContent = "";
    fetch(path, options)
      .then(function (answer) {
        var names = [];
        answer.headers.forEach(function (value, name) { names.push(name + ": " + value); });
        return answer.text().then(function (text) {
          status.textContent = answer.status + " " + (answer.statusText || reasons[answer.status] || "");
          responseHeaders.textContent = names.sort().join("\n");
          var json = parse(text);
          response.textContent = json === null ? text : JSON.stringify(json, null, 2);
        });
      })
      .catch(function (error) {
        status.textContent = t("tryit.no-answer", { error: error.message });
      });
  }

  // Folded code blocks (tests and long code in the internals): a link to a block, or to a line
  // inside one, opens its fold; printing opens them all.
  function openFoldOfTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    var fold = target && target.closest("details.code-fold");
    if (fold && !fold.open) {
      fold.open = true;
      target.scrollIntoView();
    }
  }

  function setUpFolds() {
    openFoldOfTarget();
    window.addEventListener("hashchange", openFoldOfTarget);
    window.addEventListener("beforeprint", function () {
      document.querySelectorAll("details.code-fold").forEach(function (fold) {
        fold.open = true;
      });
    });
  }

  function start() {
    updateThemeButton();
    highlightAll();
    addCopyButtons();
    setUpSearch();
    setUpButtons();
    markLiveNotes();
    setUpLive();
    setUpFolds();
    document.addEventListener("keydown", onKey);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
