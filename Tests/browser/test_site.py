"""Browser tests: the woven site as a reader meets it, in headless Chromium.

The fixtures (conftest.py) serve the workbook and drive Debian's chromium through chromium-driver
with selenium; every page a test opens is also checked for console errors and for requests that
leave the machine. Tests/browser/run runs them:

    /usr/bin/python3 -m pytest Tests/browser --workbook PATH [--out DIR] [--only NAME]

The tests run in the order of this file, and each opens its own pages; names say the behaviour.
Screenshots (home, a chapter, the simulator, and the page of any failure) go to --out.
"""

import base64
import json
import os
import re
import shutil
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

REPOSITORY = Path(__file__).resolve().parents[2]


# True once the page has fetched the server's config, the last step of going live.
CONFIG_LOADED = "return performance.getEntriesByType('resource').some(e => e.name.endsWith('/_workbook/config'))"


def test_home_page_loads_without_console_errors_or_outside_requests(browser):
    driver = browser.open("/")
    assert driver.find_element(By.TAG_NAME, "h1").text.strip(), "the home page has no h1"
    assert "Deep Link Workbook" in driver.title, f"unexpected title {driver.title!r}"
    browser.screenshot("home")
    # The scripts make their requests: the search index on focus, and the live connection (its
    # status, then the event stream, then the config, which is the last).
    driver.find_element(By.ID, "search-input").click()
    browser.wait(lambda d: d.execute_script("return Boolean(window.WORKBOOK_SEARCH)"), "the search index to load")
    browser.wait(lambda d: d.execute_script(CONFIG_LOADED), "the page to go live")
    browser.check_page_health()


def test_sidebar_reaches_every_chapter(browser):
    summary = REPOSITORY / "chapters" / "SUMMARY.md"
    chapters = sorted(path.stem for path in (REPOSITORY / "chapters").glob("*.md") if path != summary)
    assert chapters, "no chapters in the repository"
    driver = browser.open("/")
    # The sidebar groups the chapters by the parts of chapters/SUMMARY.md; a first heading that
    # another heading follows before any chapter is the summary's title (mdBook's), not a part.
    lines = [line for line in summary.read_text(encoding="utf-8").splitlines() if line.strip()]
    parts = [line[2:].strip() for line in lines if line.startswith("# ")]
    if len(lines) > 1 and lines[0].startswith("# ") and lines[1].startswith("# "):
        parts = parts[1:]
    # textContent: the headings are shown in capitals by CSS.
    headings = [heading.get_attribute("textContent").strip()
                for heading in driver.find_elements(By.CSS_SELECTOR, "#sidebar .nav-heading")]
    assert all(part in headings for part in parts), f"the sidebar headings {headings} lack the parts {parts}"
    links = {}
    for anchor in driver.find_elements(By.CSS_SELECTOR, "#sidebar a[href]"):
        path = urlsplit(anchor.get_attribute("href")).path
        match = re.search(r"/chapters/([^/]+)\.html$", path)
        if match:
            links[match.group(1)] = path
    missing = [chapter for chapter in chapters if chapter not in links]
    assert not missing, f"the sidebar has no link to: {', '.join(missing)}"
    for chapter in chapters:
        # Follow the sidebar from the previous page, as a reader would.
        anchor = driver.find_element(By.CSS_SELECTOR, f"#sidebar a[href$='chapters/{chapter}.html']")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", anchor)
        driver.execute_script("arguments[0].click()", anchor)
        browser.wait(lambda d: d.current_url.endswith(f"/chapters/{chapter}.html")
                     and d.execute_script("return document.readyState") == "complete",
                     f"chapter {chapter} to open")
        heading = driver.find_element(By.CSS_SELECTOR, "main h1").text.strip()
        assert heading and "not found" not in heading.lower(), f"chapter {chapter} shows {heading!r}"
        browser.check_page_health()
        if chapter.startswith("03-"):
            browser.screenshot("chapter-03")


def is_shown(driver, element):
    """Whether a reader sees the element: the inside of a closed <details> does not count."""
    return element.is_displayed() and driver.execute_script(
        "return !arguments[0].closest('details:not([open])')", element)


def test_each_part_shows_its_reading_time_and_the_internals_fold_their_tests(browser):
    driver = browser.open("/chapters/03-universal-links.html")
    time_line = driver.find_element(By.CSS_SELECTOR, "main .reading-time").text.strip()
    assert re.fullmatch(r"About \d+ min to read", time_line), f"Part I page: reading time {time_line!r}"
    assert not driver.find_elements(By.CSS_SELECTOR, "details.code-fold"), (
        "a guide chapter folds no code block")
    minutes = driver.find_elements(By.CSS_SELECTOR, "#sidebar .nav-minutes")
    assert len(minutes) >= 26 and all(re.fullmatch(r"\d+ min", m.text.strip()) for m in minutes), (
        f"the sidebar shows a reading time for every chapter: {[m.text for m in minutes][:5]}...")
    browser.check_page_health()

    driver = browser.open("/chapters/16-inside-universal-links.html")
    assert driver.find_element(By.CSS_SELECTOR, "main .reading-time").text.strip().startswith("About "), (
        "Part II page: no reading time")
    folds = driver.find_elements(By.CSS_SELECTOR, "details.code-fold")
    assert len(folds) >= 7, f"the internals of chapter 3 fold their test files: {len(folds)} folds"
    assert not any(fold.get_attribute("open") for fold in folds), "every fold starts closed"
    summaries = [fold.find_element(By.TAG_NAME, "summary").text.strip() for fold in folds]
    assert any(re.fullmatch(r"\d+ tests?, \d+ lines?", text) for text in summaries), (
        f"a folded test block is summarised by its tests: {summaries[:4]}")
    first = folds[0]
    code = first.find_element(By.CSS_SELECTOR, "figure.code")
    assert not is_shown(driver, code), "a closed fold hides its code"
    summary = first.find_element(By.TAG_NAME, "summary")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", summary)
    summary.click()
    browser.wait(lambda d: is_shown(d, code), "the fold to open on a click")
    browser.check_page_health()

    driver = browser.open("/print.html")
    closed = driver.execute_script("return document.querySelectorAll('details.code-fold:not([open])').length")
    opened = driver.execute_script("return document.querySelectorAll('details.code-fold[open]').length")
    assert closed == 0 and opened >= len(folds), f"the print page opens every fold: {opened} open, {closed} closed"


def test_exercise_hints_stay_folded_until_opened(browser):
    driver = browser.open("/exercises/06-match-aasa-components.html")
    hints = [d for d in driver.find_elements(By.CSS_SELECTOR, "main details:not(.code-fold)")
             if d.find_element(By.TAG_NAME, "summary").text.strip().startswith("Hint ")]
    assert len(hints) == 4, f"exercise 6 has four folded hints, found {len(hints)}"
    assert not any(hint.get_attribute("open") for hint in hints), "hints start folded"
    text = hints[0].find_element(By.TAG_NAME, "p")
    assert not is_shown(driver, text), "a folded hint's text is hidden"
    hints[0].find_element(By.TAG_NAME, "summary").click()
    browser.wait(lambda d: is_shown(d, text), "the first hint to open on a click")
    browser.check_page_health()


def test_a_source_label_leads_to_its_entry_and_the_entry_to_the_source(browser):
    driver = browser.open("/chapters/03-universal-links.html")
    label = browser.wait(
        lambda d: next((a for a in d.find_elements(By.CSS_SELECTOR, "main a.citation[data-url]") if a.is_displayed()),
                       None),
        "a source label on the chapter")
    source_url = label.get_attribute("data-url")
    key = urlsplit(label.get_attribute("href")).fragment
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", label)
    label.click()
    browser.wait(lambda d: urlsplit(d.current_url).path.endswith("/sources.html"), "the Sources page")
    assert urlsplit(driver.current_url).fragment == key, f"the page opened at {driver.current_url}"
    entry = driver.find_element(By.ID, key)
    assert entry.tag_name == "h3", f"#{key} is a <{entry.tag_name}>, not the entry's heading"
    out = entry.find_element(By.XPATH, "following-sibling::p[1]//a[@target='_blank']")
    assert out.get_attribute("href") == source_url, f"the entry links {out.get_attribute('href')}, not {source_url}"
    assert out.get_attribute("rel") == "noopener"
    # The entry names the chapter that cites it, and that link leads back.
    back = entry.find_element(By.XPATH, "following-sibling::p[2]//a[contains(@href, '03-universal-links.html')]")
    back.click()
    browser.wait(lambda d: "/chapters/03-universal-links.html" in d.current_url, "the way back to the chapter")
    browser.check_page_health()


def test_what_this_book_decides_lists_each_decision_with_its_reason_and_its_users(browser):
    driver = browser.open("/this-book-decides.html")
    groups = [h.text.strip() for h in driver.find_elements(By.CSS_SELECTOR, "main h2")]
    assert "The mock server" in groups and "The SDK" in groups, f"the areas are {groups}"
    entries = driver.find_elements(By.CSS_SELECTOR, "main h3")
    assert entries and all(e.text.strip().startswith("this book: ") for e in entries), "every decision is labelled"
    cited = entries[0].find_element(By.XPATH, "following-sibling::p[2]")
    assert cited.text.startswith("Cited in "), f"the first decision says {cited.text!r}"
    browser.check_page_health()


def test_search_for_the_association_file_lists_the_universal_links_chapter(browser):
    driver = browser.open("/")
    field = driver.find_element(By.ID, "search-input")
    field.click()
    field.send_keys("apple-app-site-association")
    results = browser.wait(
        lambda d: [a for a in d.find_elements(By.CSS_SELECTOR, "#search-results a[href]") if a.is_displayed()],
        "search results")
    targets = [urlsplit(a.get_attribute("href")).path for a in results]
    assert any("03-universal-links" in target for target in targets), (
        f"no result in the Universal Links chapter: {targets}")
    browser.check_page_health()


def try_it_panel(browser, page, path):
    driver = browser.open(page)
    panel = browser.wait(
        lambda d: d.find_element(By.CSS_SELECTOR, f"section.try-it[data-path='{path}']"),
        f"a Try it panel for {path} on {page}")
    headers = panel.find_element(By.CSS_SELECTOR, "textarea.try-it-headers")
    config = browser.get_json("/_workbook/config")
    browser.wait(lambda d: config["publishableKey"] in headers.get_attribute("value"),
                 "the headers to be prefilled with the server's publishable key")
    send = panel.find_element(By.CSS_SELECTOR, "button.try-it-send")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", send)
    send.click()
    status = panel.find_element(By.CSS_SELECTOR, ".try-it-status")
    browser.wait(lambda d: re.match(r"\d{3}", status.text.strip()), "a response status")
    response = panel.find_element(By.CSS_SELECTOR, ".try-it-response").text
    assert status.text.strip().startswith("200"), f"status {status.text!r}, body {response[:500]!r}"
    try:
        body = json.loads(response)
    except ValueError:
        raise AssertionError(f"the response is not JSON: {response[:500]!r}") from None
    browser.check_page_health()
    return body


def test_try_it_on_track_open_shows_a_200_json_response(browser):
    body = try_it_panel(browser, "/chapters/08-the-track-open-protocol.html", "/api/v1/track/open")
    assert "clickId" in body, f"the track/open answer has no clickId: {body}"


def test_try_it_on_the_api_reference_shows_a_200_json_response(browser):
    body = try_it_panel(browser, "/api.html", "/api/v1/track/open")
    assert "clickId" in body, f"the track/open answer has no clickId: {body}"


def run_simulator(browser, platform, installed, events, running=False):
    driver = browser.open("/simulator.html")
    Select(driver.find_element(By.ID, "sim-platform")).select_by_value(platform)
    if running:
        # A running app is installed: the page ticks and locks that box itself.
        driver.find_element(By.ID, "sim-running").click()
        assert driver.find_element(By.ID, "sim-installed").is_selected(), "running did not tick installed"
    else:
        checkbox = driver.find_element(By.ID, "sim-installed")
        if checkbox.is_selected() != installed:
            checkbox.click()
    # The page enables Start once it has found the server.
    start = browser.wait(lambda d: next((b for b in d.find_elements(By.ID, "sim-start") if b.is_enabled()), None),
                         "the simulator's Start button to be enabled")
    start.click()
    for event in events:
        selector = f"button[data-sim-event='{event}']"
        button = browser.wait(
            lambda d: next((b for b in d.find_elements(By.CSS_SELECTOR, selector)
                            if b.is_displayed() and b.is_enabled()), None),
            f"the {event} step to become available "
            f"(state: {driver.find_element(By.ID, 'sim-state').text!r})")
        driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
        button.click()
    outcome = driver.find_element(By.ID, "sim-outcome")
    browser.wait(lambda d: outcome.get_attribute("data-match-method"),
                 f"an outcome (state: {driver.find_element(By.ID, 'sim-state').text!r})")
    log_entries = driver.find_elements(By.CSS_SELECTOR, "#sim-log > li")
    assert log_entries, "the simulator's log is empty"
    browser.check_page_health()
    return outcome.get_attribute("data-match-method"), outcome.text


def test_simulator_completes_the_ios_clipboard_journey(browser):
    method, text = run_simulator(browser, "ios", False, ["tapLink", "install", "launch", "paste"])
    browser.screenshot("simulator-ios")
    assert method == "clipboard", f"matchMethod {method!r} ({text!r}), expected 'clipboard'"


def test_simulator_completes_the_android_referrer_journey(browser):
    method, text = run_simulator(browser, "android", False, ["tapLink", "install", "launch"])
    assert method == "install_referrer", f"matchMethod {method!r} ({text!r}), expected 'install_referrer'"


def test_simulator_routes_a_new_intent_once_when_the_phone_turns(browser):
    method, text = run_simulator(browser, "android", True, ["tapLink", "rotate", "rotate"], running=True)
    # The buttons come back once the last answer is shown.
    browser.wait(lambda d: next((b for b in d.find_elements(By.CSS_SELECTOR, "button[data-sim-event='rotate']")
                                 if b.is_enabled()), None), "the last turn to be answered")
    state = browser.driver.find_element(By.ID, "sim-state").text
    assert method == "app_link", f"matchMethod {method!r} ({text!r}), expected 'app_link'"
    assert "has decided once" in state, f"the state does not say the router decided once: {state!r}"


# The Link Lab (lab.html): the book's matchers and linters asked about pasted files.

FIVE_MISTAKES = """{
  "applinks": {
    "details": [
      {
        "appIDs": ["com.example.app", "abcde12345.com.example.app"],
        "components": [
          { "/": "/#/market/*" },
          { "/": "*" },
          { "/": "/buy/*", "caseSensitve": false }
        ]
      }
    ]
  }
}"""

LAB_FIELDS = ["lab-ios-url", "lab-ios-aasa", "lab-ios-entitlements", "lab-android-url", "lab-android-api",
              "lab-android-target", "lab-android-manifest", "lab-android-assetlinks", "lab-android-package",
              "lab-android-fingerprint", "lab-domain-url", "lab-compare-url"]


def open_lab(browser, query=""):
    """Opens the lab and waits until it has found the server and restored or filled its state."""
    driver = browser.open("/lab.html" + query)
    browser.wait(lambda d: d.find_element(By.ID, "lab").get_attribute("data-ready") == "true",
                 lambda: f"the lab to be ready (it says {driver.find_element(By.ID, 'lab-message').text!r})")
    return driver


def lab_answer(browser, tab):
    """The result of the tab's check once it answered; fails when the check failed."""
    result = browser.driver.find_element(By.ID, f"lab-{tab}-result")
    browser.wait(lambda d: result.get_attribute("data-state") not in (None, "", "asking"),
                 lambda: f"the {tab} check to answer (result: {result.text!r})")
    assert result.get_attribute("data-state") == "done", f"the {tab} check failed: {result.text!r}"
    return result


def verdict_of(result):
    return result.find_element(By.CSS_SELECTOR, ".lab-verdict-text").text.strip()


def lab_fields(driver):
    return {name: driver.find_element(By.ID, name).get_attribute("value") for name in LAB_FIELDS}


def selected_tab(driver):
    selected = driver.find_element(By.CSS_SELECTOR, "#lab [role='tab'][aria-selected='true']")
    return selected.get_attribute("data-lab-tab")


def press(driver, *keys):
    """Keys to whatever has the focus (through the browser's input, not into an element: a file
    field would take them for a file name)."""
    ActionChains(driver).send_keys(*keys).perform()


def click(driver, element_id):
    """Clicks a control of the lab after scrolling it clear of the page's sticky header."""
    control = driver.find_element(By.ID, element_id)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", control)
    control.click()
    return control


def tab_to(browser, selector, limit=30):
    """Presses Tab until the focused element matches `selector`, as a keyboard user would."""
    driver = browser.driver
    for _ in range(limit):
        if driver.execute_script("return document.activeElement.matches(arguments[0])", selector):
            return driver.switch_to.active_element
        press(driver, Keys.TAB)
    active = driver.execute_script("return document.activeElement.outerHTML.slice(0, 120)")
    raise AssertionError(f"{limit} presses of Tab did not reach {selector} (focus is on {active})")


def test_lab_shows_the_verdict_first_and_marks_the_line_of_each_finding(browser):
    driver = open_lab(browser)
    assert selected_tab(driver) == "ios", "the lab opens on the iOS tab"
    driver.find_element(By.ID, "lab-ios-url").send_keys("https://example.com/buy/42")
    driver.find_element(By.ID, "lab-ios-aasa").send_keys(FIVE_MISTAKES)
    click(driver, "lab-ios-check")
    result = lab_answer(browser, "ios")
    verdict = verdict_of(result)
    assert verdict.startswith(
        "Opens com.example.app and abcde12345.com.example.app: details[0], rule components[1]"), (
        f"the verdict says {verdict!r}")
    # The verdict comes first, then the findings, errors first.
    blocks = [e.get_attribute("class") for e in result.find_elements(By.XPATH, "./*")]
    assert blocks[0] == "lab-verdict" and "lab-findings" in blocks[1], f"the answer's order: {blocks}"
    findings = result.find_elements(By.CSS_SELECTOR, ".lab-finding")
    codes = [f.get_attribute("data-code") for f in findings]
    assert codes[:2] == ["aasa.appid-format", "aasa.appid-format"] and "aasa.unknown-key" in codes, (
        f"the findings are {codes}")
    first = findings[0]
    assert first.get_attribute("data-line") == "5", (
        f"the app ID's finding is on line {first.get_attribute('data-line')}")
    line = driver.find_element(By.ID, "lab-ios-aasa-line-5")
    assert "lab-line-flagged" in line.get_attribute("class") and line.get_attribute("data-severity") == "error", (
        f"line 5 is not marked as an error: {line.get_attribute('class')}")
    assert "com.example.app" in line.text and line.is_displayed(), f"line 5 of the view shows {line.text!r}"
    flagged = [e.get_attribute("data-line")
               for e in driver.find_elements(By.CSS_SELECTOR, "#lab-ios-aasa-lines .lab-line-flagged")]
    assert flagged and set(flagged) <= {str(n) for n in range(1, 15)}, f"flagged lines {flagged}"
    # A finding's line link puts the cursor on that line of the field.
    first.find_element(By.CSS_SELECTOR, ".lab-goto").click()
    field = driver.find_element(By.ID, "lab-ios-aasa")
    start = driver.execute_script("return arguments[0].selectionStart", field)
    value = field.get_attribute("value")
    assert value.count("\n", 0, start) == 4, f"the cursor is on line {value.count(chr(10), 0, start) + 1}"
    assert "lab-line-current" in line.get_attribute("class"), "the line link does not mark the line"
    browser.screenshot("lab-ios")
    browser.check_page_health()


def test_lab_finding_links_to_the_section_that_explains_it(browser):
    driver = open_lab(browser, "?example=ios-lint")
    result = lab_answer(browser, "ios")
    finding = result.find_element(By.CSS_SELECTOR, ".lab-finding[data-code='aasa.appid-format']")
    read = finding.find_element(By.CSS_SELECTOR, "a.lab-read")
    href = urlsplit(read.get_attribute("href"))
    assert href.path.endswith("/chapters/03-universal-links.html") and href.fragment == "linting-the-file", (
        f"the finding links {read.get_attribute('href')}")
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", read)
    read.click()
    browser.wait(lambda d: urlsplit(d.current_url).path.endswith("/chapters/03-universal-links.html"),
                 "the chapter to open")
    assert urlsplit(driver.current_url).fragment == "linting-the-file", (
        f"the chapter opened at {driver.current_url}")
    heading = driver.find_element(By.ID, "linting-the-file")
    assert heading.tag_name == "h2" and "Linting the file" in heading.text, (
        f"#linting-the-file is {heading.text!r}")
    browser.check_page_health()


def test_lab_permalink_reopens_the_same_state(browser):
    driver = open_lab(browser, "?example=android-api-level")
    assert selected_tab(driver) == "android", "the example opens the Android tab"
    result = lab_answer(browser, "android")
    assert verdict_of(result).startswith("Opens com.example.shop.MainActivity"), (
        f"on API 34 the checkout opens the app: {verdict_of(result)!r}")
    ignored = result.find_element(By.CSS_SELECTOR, ".lab-ignored").text
    assert "uri-relative-filter-group" in ignored, f"the filter does not say what API 34 ignores: {ignored!r}"
    level = driver.find_element(By.ID, "lab-android-api")
    level.clear()
    level.send_keys("35")
    click(driver, "lab-android-check")
    result = lab_answer(browser, "android")
    verdict = verdict_of(result)
    assert verdict.startswith("No intent filter takes"), f"on API 35 the checkout stays out: {verdict!r}"
    before = lab_fields(driver)
    click(driver, "lab-make-permalink")
    permalink = browser.wait(lambda d: d.find_element(By.ID, "lab-permalink").get_attribute("value"),
                             "the permalink")
    assert urlsplit(permalink).path.endswith("/lab.html") and urlsplit(permalink).fragment.startswith("lab="), (
        f"the permalink is {permalink[:120]}")
    assert len(urlsplit(permalink).fragment) <= 64 * 1024

    driver.get("about:blank")
    driver = browser.open_url(permalink, "/lab.html#lab=…")
    browser.wait(lambda d: d.find_element(By.ID, "lab").get_attribute("data-ready") == "true", "the lab to reopen")
    assert driver.find_element(By.ID, "lab").get_attribute("data-restored") == "fragment"
    assert lab_fields(driver) == before, "the permalink did not restore every field"
    assert selected_tab(driver) == "android", "the permalink did not restore the open tab"
    assert verdict_of(lab_answer(browser, "android")) == verdict, "the reopened lab answers differently"
    browser.check_page_health()

    # A fragment that cannot be read opens an empty lab, and says so.
    driver.get("about:blank")
    driver = open_lab(browser, "#lab=not-a-state-of-this-lab")
    assert driver.find_element(By.ID, "lab").get_attribute("data-restored") == "failed"
    assert "could not be read" in driver.find_element(By.ID, "lab-message").text
    assert not any(lab_fields(driver)[name] for name in ("lab-ios-aasa", "lab-android-manifest")), (
        "the lab is not empty")

    # A state beyond 64 KB compressed is offered as a file instead.
    noise = base64.b64encode(os.urandom(96 * 1024)).decode()
    driver.execute_script("document.getElementById('lab-android-manifest').value = arguments[0]", noise)
    click(driver, "lab-make-permalink")
    download = driver.find_element(By.ID, "lab-download")
    browser.wait(lambda d: download.is_displayed(), "the offer to download the state")
    message = driver.find_element(By.ID, "lab-message").text
    assert "64 KB" in message and "Download" in message, f"the lab says {message!r}"
    assert not driver.find_element(By.ID, "lab-permalink").get_attribute("value"), "a permalink beyond 64 KB"
    browser.check_page_health()


def test_lab_loads_the_demo_into_every_tab(browser):
    driver = open_lab(browser)
    click(driver, "lab-demo")
    verdict = verdict_of(lab_answer(browser, "ios"))
    assert verdict.startswith("Opens ABCDE12345.com.example.shop: details[0], rule components[3]"), (
        f"the demo's iOS verdict: {verdict!r}")
    served = browser.driver.execute_script(
        "return fetch('/.well-known/apple-app-site-association').then(r => r.text())")
    assert driver.find_element(By.ID, "lab-ios-aasa").get_attribute("value") == served, (
        "the iOS tab does not hold the association file the server serves")
    assert "applinks:go.example" in driver.find_element(By.ID, "lab-ios-entitlements").get_attribute("value")
    click(driver, "lab-tab-android")
    assert 'android:host="go.example"' in driver.find_element(By.ID, "lab-android-manifest").get_attribute("value")
    click(driver, "lab-android-check")
    verdict = verdict_of(lab_answer(browser, "android"))
    assert verdict.startswith("Opens com.example.shop.MainActivity directly, as an App Link: assetlinks.json "
                              "authorises com.example.shop"), f"the demo's Android verdict: {verdict!r}"
    click(driver, "lab-tab-compare")
    click(driver, "lab-compare-check")
    result = lab_answer(browser, "compare")
    assert result.get_attribute("data-verdict") == "both", f"the comparison says {verdict_of(result)!r}"
    browser.screenshot("lab-compare")
    browser.check_page_health()


def test_lab_works_with_the_keyboard_alone(browser):
    driver = open_lab(browser)
    unlabelled = driver.execute_script(
        "return Array.from(document.querySelectorAll('#lab input, #lab textarea, #lab select'))"
        ".filter(f => !document.querySelector(`label[for='${f.id}']`)).map(f => f.id || f.outerHTML)")
    assert not unlabelled, f"fields without a label: {unlabelled}"
    # From the top of the page: the skip link, then into the content and on to the lab.
    driver.execute_script("document.activeElement && document.activeElement.blur()")
    press(driver, Keys.TAB)
    assert driver.switch_to.active_element.get_attribute("class") == "skip-link", (
        "the first Tab is not the skip link")
    press(driver, Keys.ENTER)
    tab_to(browser, "#lab-demo")
    press(driver, Keys.ENTER)
    lab_answer(browser, "ios")
    tab_to(browser, "#lab-tab-ios")
    for key, expected in ((Keys.ARROW_RIGHT, "android"), (Keys.END, "compare"), (Keys.HOME, "ios"),
                          (Keys.ARROW_LEFT, "compare"), (Keys.ARROW_LEFT, "domain"), (Keys.ARROW_LEFT, "android")):
        press(driver, key)
        active = driver.switch_to.active_element
        assert active.get_attribute("id") == f"lab-tab-{expected}", f"focus is on {active.get_attribute('id')}"
        assert selected_tab(driver) == expected, f"{expected} has the focus but is not selected"
        assert driver.find_element(By.ID, f"lab-panel-{expected}").is_displayed(), f"the {expected} panel is hidden"
    # Tab leaves the tab list for the panel's fields; Ctrl+Enter in a text field checks.
    tab_to(browser, "#lab-android-manifest")
    ActionChains(driver).key_down(Keys.CONTROL).send_keys(Keys.ENTER).key_up(Keys.CONTROL).perform()
    result = lab_answer(browser, "android")
    assert verdict_of(result).startswith("Opens com.example.shop.MainActivity"), verdict_of(result)
    # On to the answer: a filter's line link puts the cursor on its line of the manifest.
    goto = tab_to(browser, "#lab-android-result .lab-goto")
    line = int(goto.get_attribute("data-line"))
    press(driver, Keys.ENTER)
    active = driver.switch_to.active_element
    assert active.get_attribute("id") == "lab-android-manifest", f"focus is on {active.get_attribute('id')}"
    start = driver.execute_script("return document.activeElement.selectionStart")
    assert active.get_attribute("value").count("\n", 0, start) == line - 1, (
        "the cursor is not on the filter's line")
    marked = driver.find_element(By.ID, f"lab-android-manifest-line-{line}")
    assert "lab-line-current" in marked.get_attribute("class"), "the filter's line is not marked"
    browser.check_page_health()


def test_lab_domain_tab_says_why_it_cannot_fetch_a_local_address(browser):
    driver = open_lab(browser)
    click(driver, "lab-tab-domain")
    # The server's own address: loopback, which the doctor refuses (and no test fetches outside).
    driver.find_element(By.ID, "lab-domain-url").send_keys(browser.base_url + "/summer")
    click(driver, "lab-domain-check")
    result = driver.find_element(By.ID, "lab-domain-result")
    browser.wait(lambda d: result.get_attribute("data-state") not in (None, "", "asking"), "the doctor's answer")
    state, text = result.get_attribute("data-state"), result.text
    assert state in ("refused", "unavailable"), f"the Domain tab answered {state}: {text!r}"
    if state == "refused":
        assert "loopback" in text and "--lab-fetch-private" in text, f"the refusal says {text!r}"
    else:
        assert "404" in text and "workbook doctor" in text, f"the missing route is not explained: {text!r}"
    # The browser logs the refusal it was sent (a 403 or a 404) as an error; nothing else may be.
    expected = re.compile(
        r"/api/v1/lab/doctor - Failed to load resource: the server responded with a status of 40[34]")
    errors = [error for error in browser.console_errors() if not expected.search(error)]
    assert not errors, "console errors: " + "; ".join(errors)
    local = urlsplit(browser.base_url).netloc
    outside = [url for url in browser.requested_urls() if urlsplit(url).scheme in ("http", "https")
               and urlsplit(url).netloc != local]
    assert not outside, "requests left the machine: " + ", ".join(outside)


def test_lab_domain_tab_shows_the_doctors_report_for_a_server_it_may_fetch(browser, start_server):
    """With --lab-fetch-private the doctor may fetch from this machine: the Domain tab asks it about
    a second server's own link (loopback only), and shows a verdict per platform with its findings."""
    server = start_server("serve-lab-private.log", "--lab-fetch-private", data="lab-private-data")
    lab = browser.at(server.base_url)
    driver = open_lab(lab)
    click(driver, "lab-tab-domain")
    driver.find_element(By.ID, "lab-domain-url").send_keys(server.base_url + "/summer")
    click(driver, "lab-domain-check")
    result = driver.find_element(By.ID, "lab-domain-result")
    lab.wait(lambda d: result.get_attribute("data-state") not in (None, "", "asking"), "the doctor's report",
             seconds=30)
    if result.get_attribute("data-state") == "unavailable":
        pytest.skip("this server has no doctor route")
    assert result.get_attribute("data-state") == "done", f"the doctor answered: {result.text!r}"
    verdict = verdict_of(result)
    assert verdict.startswith("iOS pass") and "Android pass" in verdict, f"the doctor's verdict: {verdict!r}"
    platforms = result.find_elements(By.CSS_SELECTOR, ".lab-doctor-platform")
    assert len(platforms) == 2 and "ABCDE12345.com.example.shop" in platforms[0].text, (
        f"the iOS half does not name the demo app: {platforms[0].text if platforms else result.text!r}")
    # Plain HTTP is a warning here, linked to the section on hosting.
    warning = result.find_element(By.CSS_SELECTOR, ".lab-finding[data-code='hosting.not-https']")
    assert warning.find_element(By.CSS_SELECTOR, "a.lab-read").get_attribute("href").split("#")[0].endswith(
        "/chapters/03-universal-links.html"), "the hosting finding does not link chapter 3"
    lab.check_page_health()

def test_the_home_page_the_sidebar_and_the_chapters_link_the_lab_and_its_examples(browser):
    driver = browser.open("/")
    assert driver.find_elements(By.CSS_SELECTOR, "main a[href$='lab.html']"), "the home page does not link the lab"
    assert driver.find_elements(By.CSS_SELECTOR, "#sidebar a[href$='lab.html']"), (
        "the sidebar does not link the lab")
    examples = set()
    for chapter, wants_examples in (("03-universal-links", True), ("04-app-links", True),
                                    ("11-troubleshooting", True), ("12-testing-deep-links", False)):
        driver = browser.open(f"/chapters/{chapter}.html")
        links = [a.get_attribute("href")
                 for a in driver.find_elements(By.CSS_SELECTOR, "main a[href*='lab.html']")]
        assert links, f"chapter {chapter} does not link the lab"
        named = [parse_qs(urlsplit(link).query).get("example", [""])[0] for link in links]
        assert not wants_examples or any(named), f"chapter {chapter} links no example: {links}"
        examples.update(name for name in named if name)
        browser.check_page_health()
    # Chapter 11 starts a symptom with the link: follow it as a reader would.
    driver = browser.open("/chapters/11-troubleshooting.html")
    link = driver.find_element(By.CSS_SELECTOR, "main a[href*='lab.html?example=']")
    assert link.text == "Try it in the Lab", f"chapter 11's link reads {link.text!r}"
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", link)
    link.click()
    browser.wait(lambda d: urlsplit(d.current_url).path.endswith("/lab.html"), "the lab to open")
    driver = open_lab(browser)
    examples.update(parse_qs(urlsplit(a.get_attribute("href")).query)["example"][0]
                    for a in driver.find_elements(By.CSS_SELECTOR, "main a[href^='?example=']"))
    # Every example a page names exists, and opens checked (the doctor's waits for a press).
    for name in sorted(examples):
        driver = open_lab(browser, f"?example={name}")
        message = driver.find_element(By.ID, "lab-message").text
        assert "no example named" not in message, message
        tab = selected_tab(driver)
        if tab != "domain":
            lab_answer(browser, tab)
        browser.check_page_health()


def test_dark_mode_toggles(browser):
    driver = browser.open("/")
    state = ("return [document.documentElement.dataset.theme || '',"
             " getComputedStyle(document.body).backgroundColor]")
    before_theme, before_color = driver.execute_script(state)
    driver.find_element(By.CSS_SELECTOR, ".theme-toggle").click()
    after_theme, after_color = driver.execute_script(state)
    assert after_theme in ("light", "dark") and after_theme != before_theme, (
        f"the theme did not switch ({before_theme!r} -> {after_theme!r})")
    assert after_color != before_color, f"the background stayed {before_color}"
    assert driver.execute_script("return localStorage.getItem('workbook-theme')") == after_theme, (
        "the choice is not remembered")
    driver.refresh()
    assert driver.execute_script(state)[0] == after_theme, "the choice did not survive a reload"
    driver.find_element(By.CSS_SELECTOR, ".theme-toggle").click()
    assert driver.execute_script(state)[1] == before_color, "toggling back did not restore the colours"
    dark_color = after_color if after_theme == "dark" else before_color
    # With no choice remembered, the page follows the system's preference.
    driver.execute_script("localStorage.removeItem('workbook-theme')")
    try:
        for scheme in ("dark", "light"):
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                   {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
            driver.refresh()
            theme, color = driver.execute_script(state)
            assert theme == "" and (color == dark_color) == (scheme == "dark"), (
                f"with the system in {scheme} mode the page shows {color} (dark is {dark_color})")
    finally:
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    browser.check_page_health()


def test_pages_opened_from_files_say_how_to_start_the_server(browser, static_site):
    """The site written by `workbook build`, opened from disk: the live parts explain themselves."""
    folder = static_site
    driver = browser.open_url((folder / "chapters" / "08-the-track-open-protocol.html").as_uri())
    panel = driver.find_element(By.CSS_SELECTOR, "section.try-it[data-path='/api/v1/track/open']")
    assert "./wb serve" in panel.text, f"the Try it panel does not say how to start a server: {panel.text!r}"
    assert not panel.find_element(By.CSS_SELECTOR, "button.try-it-send").is_enabled(), (
        "Send is enabled without a server")
    browser.check_page_health()
    driver = browser.open_url((folder / "simulator.html").as_uri())
    state = driver.find_element(By.ID, "sim-state").text
    assert "./wb serve" in state, f"the simulator does not say how to start a server: {state!r}"
    assert not driver.find_element(By.ID, "sim-start").is_enabled(), "Start is enabled without a server"
    browser.check_page_health()


def test_the_lab_opened_from_files_says_how_to_start_the_server(browser, static_site):
    """lab.html written by `workbook build`, opened from disk: an example fills the fields, and the
    page says how to start the server it needs instead of asking anything."""
    driver = browser.open_url((static_site / "lab.html").as_uri() + "?example=ios-rules")
    browser.wait(lambda d: d.find_element(By.ID, "lab").get_attribute("data-ready") == "true",
                 "the lab to be ready")
    note = driver.find_element(By.ID, "lab-offline")
    assert note.is_displayed() and "./wb serve" in note.text, (
        f"the lab does not say how to start a server: {note.text!r}")
    assert not driver.find_element(By.ID, "lab-ios-check").is_enabled(), "Check is enabled without a server"
    assert "/help/website/*" in driver.find_element(By.ID, "lab-ios-aasa").get_attribute("value"), (
        "the example did not fill the iOS tab")
    browser.check_page_health()


def shown_text(driver, element_id):
    """The text of an element when it is displayed, else "" (also while the page reloads)."""
    try:
        element = driver.find_element(By.ID, element_id)
        return element.text if element.is_displayed() else ""
    except WebDriverException:
        return ""


def copy_of_the_book(scratch):
    """What `workbook serve --book` needs of this repository, copied, so tests may edit chapters."""
    book = Path(scratch) / "book"
    for part in ("chapters", "exercises", "site", "config", "Sources", "Tests", "Examples"):
        shutil.copytree(REPOSITORY / part, book / part, symlinks=True,
                        ignore=shutil.ignore_patterns("Work", "__pycache__", ".build"))
    return book


def edit_chapter(path, change):
    text = path.read_text()
    path.write_text(change(text))


def banner_findings(driver):
    """The findings the page's banner lists (#wb-banner, written from the server's status)."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#wb-banner li'), item => item.textContent)")


def test_a_save_reloads_the_page_and_problems_show_on_it(browser, start_server, scratch, notes):
    """Served from a copy of the book: a save reloads the open page; a broken link and a changed
    Swift chunk show in the banner and the restart notice while the server keeps running."""
    book = copy_of_the_book(scratch)
    server = start_server("serve-live.log", "--book", str(book), data="live-data")
    live = browser.at(server.base_url)
    chapter = book / "chapters" / "01-custom-url-schemes.md"
    driver = live.open("/chapters/01-custom-url-schemes.html")
    live.wait(lambda d: d.execute_script(CONFIG_LOADED), "the page to go live")
    # The first background checks must find the copy in sync before anything is edited. The server
    # prints their verdict, then sends their status (if it changed anything) to the open pages: the
    # page has it when its banner lists the findings the server reports.
    checks = server.wait_for_line(r"^site: checks done .*", "the first background checks", seconds=90)
    assert "restart needed" not in checks.group(0), f"the copy is out of sync before any change: {checks.group(0)!r}"
    seen = {}

    def page_shows_the_servers_findings(d):
        seen["server"] = [finding["message"] for finding in live.get_json("/_workbook/status")["diagnostics"]]
        seen["page"] = banner_findings(d)
        return len(seen["page"]) == len(seen["server"]) and all(
            shown.endswith(message) for shown, message in zip(seen["page"], seen["server"]))

    live.wait(page_shows_the_servers_findings,
              lambda: f"the banner to list the server's {len(seen['server'])} findings "
                      f"(it lists {len(seen['page'])}: {seen['page'][:3]})")
    assert not shown_text(driver, "wb-restart-notice"), (
        "a restart notice before any change: " + shown_text(driver, "wb-restart-notice"))
    driver.execute_script("window.beforeTheSave = true")
    marker = f"Saved at {time.time_ns()}."
    saved = time.time()
    edit_chapter(chapter, lambda text: text + f"\n{marker}\n")
    # A cheap condition to poll: reading a long chapter's text keeps the page's main thread
    # busy, and the reload event would wait behind it.
    live.wait(lambda d: d.execute_script(
        "return window.beforeTheSave === undefined && document.readyState === 'complete'"),
        "the page to reload")
    assert marker in shown_text(driver, "content"), "the reloaded page does not show the edit"
    # From the save to the browser starting the reload, and to the new page's load event,
    # as the page's own clock tells it (the wait above polls, so its figure would be coarse).
    started, loaded = driver.execute_script(
        "return [performance.timeOrigin, performance.getEntriesByType('navigation')[0].loadEventEnd]")
    notes.append(f"save -> reload started {started - saved * 1000:.0f} ms, page loaded "
                 f"{started + loaded - saved * 1000:.0f} ms")
    live.check_page_health()

    edit_chapter(chapter, lambda text: text + "\nSee [nowhere](02-routing.md#no-such-heading).\n")
    live.wait(lambda d: "no-such-heading" in shown_text(d, "wb-banner"), "the banner to show the broken link")
    banner = shown_text(driver, "wb-banner")
    assert re.search(r"chapters/01-custom-url-schemes\.md:\d+:\d+", banner), (
        f"the banner does not name the chapter line: {banner!r}")
    assert live.get_json("/healthz").get("status") == "ok", "the server stopped answering"

    def change_a_swift_chunk(text):
        lines = text.split("\n")
        # The first Swift block that tangles: in a guide chapter that may be a named chunk
        # that a file in Part II includes.
        fence = next(i for i, line in enumerate(lines) if re.match(r"```swift \{(file=|#)", line))
        lines.insert(fence + 1, "// A comment added while the server runs.")
        return "\n".join(lines).replace("\nSee [nowhere](02-routing.md#no-such-heading).\n", "\n")

    edit_chapter(chapter, change_a_swift_chunk)
    # The link is fixed in the same save, so the page reloads, then the checks find the drift.
    live.wait(lambda d: "./wb tangle" in shown_text(d, "wb-restart-notice"), "the restart notice",
              seconds=60)
    notice = shown_text(driver, "wb-restart-notice")
    assert "Sources/DeepLinkCore/" in notice, f"the notice does not name the changed file: {notice!r}"
    live.wait(lambda d: "no-such-heading" not in shown_text(d, "wb-banner"),
              "the fixed link to leave the banner", seconds=60)
    live.screenshot("restart-notice")
    live.check_page_health()


# What a reader types, and the sections the first results must open: a method that appears in a
# table and in code, a parameter label of a call, an Android attribute (its glossary entry, then the
# guide's section), a name found only in code, and words in another form than the heading's
# (stemming: "configured" for "Configuring", "escapes" for "escaping").
SEARCHES = [
    ("submitPasteControlEmpty", ["chapters/06-consent-and-the-clipboard.html#the-consent-screen-the-app-owns"]),
    # Both sections name it once in a table; the book's order puts Android's kit first.
    ("publishableKey", ["chapters/07-install-referrer.html#li2s-android-deep-link-kit",
                        "chapters/09-the-sdk-api.html#the-surface-at-a-glance"]),
    ("pathAdvancedPattern", ["glossary.html#pathpattern", "chapters/04-app-links.html#how-android-reads-a-path-pattern"]),
    ("checkAdvancedPatterns", ["chapters/17-inside-app-links.html#reading-the-manifest"]),
    ("configured", ["chapters/09-the-sdk-api.html#configuring"]),
    ("escapes", ["chapters/04-app-links.html#two-rounds-of-escaping"]),
]


# On a fresh page, the reader's first keystroke as one event: the field takes focus and holds the
# whole first query at once. The page's clock gives the time until the first result is in the list;
# that includes loading the index, which starts on focus.
FIRST_SEARCH_SCRIPT = """
var input = document.getElementById('search-input');
var list = document.getElementById('search-results');
window.searchTiming = {};
new MutationObserver(function () {
  if (!searchTiming.result && list.querySelector('li[id] a')) searchTiming.result = performance.now();
}).observe(list, {childList: true});
searchTiming.started = performance.now();
input.focus();
input.value = arguments[0];
input.dispatchEvent(new Event('input', {bubbles: true}));
"""


def search_results(browser, query, site_root):
    """Types `query` into the emptied search field and returns the results' links relative to
    `site_root` (`chapters/02-routing.html#patterns`) once the list answers the whole query."""
    driver = browser.driver
    field = driver.find_element(By.ID, "search-input")
    field.clear()
    field.click()
    field.send_keys(query)
    browser.wait(lambda d: d.find_element(By.ID, "search-results").get_attribute("data-query") == query,
                 f"the results for {query!r}")
    links = [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, "#search-results li[id] a")]
    return [link[len(site_root):] if link.startswith(site_root) else link for link in links]


def test_the_language_switch_opens_the_same_section_in_vietnamese_and_is_remembered(browser):
    """The switch leads to the same page and anchor in the other language (anchors are the
    English ones in both), and the choice holds for the next page opened, like the theme."""
    driver = browser.open("/chapters/03-universal-links.html#the-association-file")
    try:
        assert driver.execute_script("return document.documentElement.lang") == "en"
        driver.find_element(By.CSS_SELECTOR, "a.language-switch[hreflang='vi']").click()
        browser.wait(lambda d: urlsplit(d.current_url).path == "/vi/chapters/03-universal-links.html",
                     "the Vietnamese page")
        assert urlsplit(driver.current_url).fragment == "the-association-file"
        assert driver.execute_script("return document.documentElement.lang") == "vi"
        assert driver.find_element(By.ID, "the-association-file").is_displayed()
        assert driver.execute_script("return localStorage.getItem('workbook-language')") == "vi"
        alternates = driver.execute_script(
            "return [...document.querySelectorAll('link[rel=alternate][hreflang]')].map(l => l.hreflang)")
        assert alternates == ["en"], f"the Vietnamese page names {alternates} as its alternates"
        # Remembered: an English page opened next shows in Vietnamese.
        browser.open("/chapters/02-routing.html")
        browser.wait(lambda d: urlsplit(d.current_url).path == "/vi/chapters/02-routing.html",
                     "the remembered language to open the Vietnamese page")
        browser.check_page_health()
        driver.find_element(By.CSS_SELECTOR, "a.language-switch[hreflang='en']").click()
        browser.wait(lambda d: urlsplit(d.current_url).path == "/chapters/02-routing.html", "the English page")
        assert driver.execute_script("return localStorage.getItem('workbook-language')") == "en"
        browser.open("/chapters/02-routing.html")
        assert urlsplit(driver.current_url).path == "/chapters/02-routing.html"
    finally:
        driver.execute_script("localStorage.removeItem('workbook-language')")
    browser.check_page_health()


def test_vietnamese_search_finds_words_with_and_without_their_marks(browser):
    """The Vietnamese site has its own index: syllables found as written, and without their
    diacritics and tone marks ("dong y" finds "đồng ý"), with no English stemming."""
    browser.open("/vi/index.html")
    site_root = browser.base_url + "/vi/"
    # Consent (đồng ý) is chapter 6's subject and exercise 11's. Without marks "dong" is also
    # "đóng", "dòng" and "động", so the plain query ranks other pages higher, but finds these.
    marked = search_results(browser, "đồng ý", site_root)
    assert any(link.startswith("chapters/06-consent-and-the-clipboard.html") for link in marked[:5]), (
        f"the consent chapter is not among the first results for 'đồng ý': {marked[:5]}")
    for query in ("dong y", "DONG Y"):
        plain = search_results(browser, query, site_root)
        assert any("consent" in link for link in plain[:5]), (
            f"no page on consent among the first results for {query!r}: {plain[:5]}")
    # "d" finds "đ", and a word without its tone marks finds it: verification (xác minh) is
    # chapters 3 and 4's subject.
    for query in ("xác minh", "xac minh"):
        results = search_results(browser, query, site_root)
        assert any(link.startswith(("chapters/03-", "chapters/04-")) for link in results[:5]), (
            f"neither the Universal Links nor the App Links chapter is among the first results for {query!r}: "
            f"{results[:5]}")
    browser.check_page_health()


def test_a_vietnamese_exercise_page_shows_its_task_and_folded_hints(browser):
    driver = browser.open("/vi/exercises/01-parse-a-scheme-link.html")
    assert driver.execute_script("return document.documentElement.lang") == "vi"
    title = driver.find_element(By.CSS_SELECTOR, "article h1").text
    assert title.startswith("Bài tập 1") or "link" in title.lower(), f"the title is {title!r}"
    hints = driver.find_elements(By.CSS_SELECTOR, "article details")
    assert hints and not any(h.get_attribute("open") for h in hints), "the hints are not folded"
    assert "Gợi ý" in hints[0].find_element(By.TAG_NAME, "summary").text
    english = driver.find_element(By.CSS_SELECTOR, "a.language-switch[hreflang='en']").get_attribute("href")
    assert urlsplit(english).path == "/exercises/01-parse-a-scheme-link.html"
    browser.check_page_health()


def test_every_vietnamese_page_has_the_english_pages_code(static_site):
    """`workbook build` writes the Vietnamese site beside the English one: every page under the
    same name, the Part I chapters in Vietnamese, and every <pre> byte for byte the English one's
    (a translation never touches code)."""
    folder = static_site
    english = sorted(p.relative_to(folder) for p in folder.rglob("*.html") if p.parts[len(folder.parts)] != "vi")
    assert english
    pre = re.compile(r"<pre.*?</pre>", re.S)
    blocks = 0
    for page in english:
        source = (folder / page).read_text(encoding="utf-8")
        target_file = folder / "vi" / page
        assert target_file.exists(), f"vi/{page} is missing"
        target = target_file.read_text(encoding="utf-8")
        assert '<html lang="vi"' in target, f"vi/{page} is not marked Vietnamese"
        assert pre.findall(target) == pre.findall(source), f"vi/{page}: a code block differs from {page}"
        blocks += len(pre.findall(source))
    assert blocks > 500, f"only {blocks} code blocks compared"
    for number in range(0, 13):
        page = next((folder / "vi" / "chapters").glob(f"{number:02d}-*.html"))
        assert 'class="untranslated"' not in page.read_text(encoding="utf-8"), (
            f"{page.name}: Part I has a passage left in English")


# Last: it opens pages from files only, and times the first search with the other tests done.
def test_search_finds_names_in_code_and_other_forms_of_a_word(browser, static_site, notes):
    """Identifiers are found whole, and a word finds its other forms; the first results open the
    sections that explain them. On the site `workbook build` writes, opened from files: the index
    loads through a <script>, and such pages keep no event stream open on the server. Notes how
    long a fresh page takes to show its first result."""
    folder = static_site
    page = (folder / "chapters" / "01-custom-url-schemes.html").as_uri()
    figures = []
    for _ in range(5):
        driver = browser.open_url(page)
        driver.execute_script(FIRST_SEARCH_SCRIPT, SEARCHES[0][0])
        browser.wait(lambda d: d.execute_script("return searchTiming.result"), "the first search result")
        timing = driver.execute_script("return searchTiming")
        figures.append(timing["result"] - timing["started"])
    figures.sort()
    notes.append(f"search: first result {figures[2]:.0f} ms after the first keystroke on a fresh page "
                 f"(median of 5, {figures[0]:.0f} to {figures[-1]:.0f}; search-index.js: "
                 f"{(folder / 'search-index.js').stat().st_size} bytes)")
    browser.open_url(page)
    for query, expected in SEARCHES:
        results = search_results(browser, query, folder.as_uri() + "/")
        assert results[:len(expected)] == expected, (
            f"the first results for {query!r} are not {expected}: {results[:5]}")
    browser.screenshot("search")
    browser.check_page_health()
