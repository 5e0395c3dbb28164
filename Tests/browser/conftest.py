"""The browser tests' fixtures and reporting: a served workbook, a headless Chromium, the checks
every page gets, and the closing line `browser: N passed, N failed`.

The session starts `workbook serve --port 0` on 127.0.0.1 once (or uses --base-url) and one
Chromium driven by Debian's chromium-driver; each test gets a `Browser` on them. Tests wait on
events, never on time: a line the server prints, a condition of the page (WebDriverWait), or, for
a server they do not own, one polling helper with a generous deadline (`poll`).
"""

import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from selenium import webdriver
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

REPOSITORY = Path(__file__).resolve().parents[2]
WAIT_SECONDS = 20
SITE_READY_SECONDS = 240


# Options, selection and the closing line


def pytest_addoption(parser):
    group = parser.getgroup("workbook", "the workbook under test")
    group.addoption("--workbook", help="the built workbook executable to serve the site with")
    group.addoption("--base-url", help="test a server that is already running instead")
    group.addoption("--out", default=str(REPOSITORY / ".build" / "browser-tests"),
                    help="where screenshots and the servers' logs go")
    group.addoption("--only", action="append", default=[], metavar="NAME",
                    help="run only the tests whose name contains NAME (repeatable)")


class Results:
    """Counts the tests for the closing line, and prints it after pytest's own summary."""

    def __init__(self, config):
        self.config = config
        self.outcomes = {}
        self.notes = []

    def pytest_collectreport(self, report):
        if report.failed:
            self.outcomes[report.nodeid or "collection"] = "failed"

    def pytest_runtest_logreport(self, report):
        # A test passed when its call passed and no phase failed (a broken fixture fails it).
        if report.failed:
            self.outcomes[report.nodeid] = "failed"
        elif report.when == "call" and report.passed:
            self.outcomes.setdefault(report.nodeid, "passed")

    def pytest_terminal_summary(self, terminalreporter):
        if self.notes:
            terminalreporter.write_sep("-", "figures")
            for note in self.notes:
                terminalreporter.write_line(note)

    @pytest.hookimpl(trylast=True)
    def pytest_unconfigure(self):
        passed = sum(1 for outcome in self.outcomes.values() if outcome == "passed")
        failed = sum(1 for outcome in self.outcomes.values() if outcome == "failed")
        line = f"browser: {passed} passed, {failed} failed"
        reporter = self.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_line(line)
        else:
            print(line, flush=True)


def pytest_configure(config):
    config.pluginmanager.register(Results(config), "workbook-results")


def pytest_collection_modifyitems(config, items):
    """--only NAME keeps the tests whose function name contains NAME, as the runner always did."""
    only = config.getoption("only")
    if not only:
        return
    kept = [item for item in items if any(name in item.name for name in only)]
    dropped = [item for item in items if item not in kept]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def pytest_report_teststatus(report, config):
    # One line per test in the log, with how long it took (a figure to read, not a check).
    if report.when == "call" and report.passed:
        return "passed", ".", (f"PASSED ({report.duration:.1f} s)", {"green": True})
    return None


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed test leaves a screenshot of the page it was on, named in its report."""
    outcome = yield
    report = outcome.get_result()
    browser = item.funcargs.get("browser") if hasattr(item, "funcargs") else None
    if report.when == "call" and report.failed and browser is not None:
        try:
            report.sections.append(("screenshot", str(browser.screenshot("failed-" + item.name))))
        except WebDriverException:
            pass


# Waiting


def poll(condition, what, seconds):
    """Calls `condition` until it returns something true, and returns that; fails after `seconds`.
    The suite's own polling loop, for what sends no event (a server it did not start).
    `what` says what was awaited, or is a function that says it (and what was seen) at the end."""
    __tracebackhide__ = True
    deadline = time.monotonic() + seconds
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() >= deadline:
            pytest.fail(f"timed out after {seconds} s waiting for {what() if callable(what) else what}")
        time.sleep(0.2)


def get_json(url, timeout=5):
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return json.load(response)


# The server under test


def child_environment(scratch):
    env = dict(os.environ)
    # A workbook built with coverage writes a profile on exit: keep it out of the repository.
    env["LLVM_PROFILE_FILE"] = str(Path(scratch) / "workbook-%p.profraw")
    return env


class Server:
    """`workbook serve` on a free port with a throwaway data folder; stopped with SIGTERM.

    Everything it prints goes to `log_path` and to `lines`, which `wait_for_line` watches:
    the server says when it listens, when a site build finished and when the checks did."""

    def __init__(self, workbook, scratch, log_path, arguments=(), data="data"):
        self.log_path = Path(log_path)
        self.log = open(self.log_path, "w")
        self.lines = []
        self.ended = False
        self.changed = threading.Condition()
        self.process = subprocess.Popen(
            [workbook, "serve", "--host", "127.0.0.1", "--port", "0",
             "--data-dir", str(Path(scratch) / data), "--config", "config/demo.json", *arguments],
            cwd=REPOSITORY, env=child_environment(scratch), stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True)
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        try:
            listening = self.wait_for_line(r"^listening on (http://127\.0\.0\.1:\d+)",
                                           "the server to listen", seconds=30)
        except BaseException:
            self.stop()
            raise
        self.base_url = listening.group(1)

    def _read(self):
        for line in self.process.stdout:
            self.log.write(line)
            self.log.flush()
            with self.changed:
                self.lines.append(line.rstrip("\n"))
                self.changed.notify_all()
        with self.changed:
            self.ended = True
            self.changed.notify_all()

    def wait_for_line(self, pattern, what, seconds=WAIT_SECONDS):
        """The match of the first line that matches `pattern`, waiting for the server to print
        it; fails when the server exits first or after `seconds`."""
        __tracebackhide__ = True
        expression = re.compile(pattern)
        found = []

        def seen():
            found[:] = [match for match in map(expression.search, self.lines) if match][:1]
            return found or self.ended

        with self.changed:
            self.changed.wait_for(seen, timeout=seconds)
        if found:
            return found[0]
        why = "the server exited" if self.ended else f"nothing after {seconds} s"
        pytest.fail(f"waiting for {what}: no line matching {pattern!r} ({why}; log: {self.log_path})")

    def wait_until_site_ready(self):
        """The server answers at once; the site is ready when its first build finished, which
        it prints after the build is in place."""
        self.wait_for_line(r"^site: built in ", "the first site build", seconds=SITE_READY_SECONDS)
        check_site_ready(self.base_url)

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.reader.join(timeout=10)
        self.log.close()


def site_status(base_url):
    """The server's /_workbook/status, or None while it does not answer."""
    try:
        get_json(base_url + "/healthz")
        return get_json(base_url + "/_workbook/status")
    except (urllib.error.URLError, ConnectionError, TimeoutError, ValueError):
        return None


def check_site_ready(base_url):
    status = site_status(base_url) or {}
    assert status.get("state") == "ready", \
        f"the first site build did not succeed: {json.dumps(status)[:2000]}"


# The browser


def make_driver(profile):
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in (
        "--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
        "--window-size=1280,900", f"--user-data-dir={profile}", "--no-first-run",
        "--no-default-browser-check", "--disable-background-networking", "--disable-sync",
        "--disable-component-update", "--disable-default-apps", "--disable-extensions",
        "--no-proxy-server", "--disable-features=Translate,OptimizationHints,MediaRouter",
        "--disable-renderer-backgrounding", "--disable-background-timer-throttling",
        "--disable-backgrounding-occluded-windows",
        # Anything but the loopback address fails to resolve, so a stray outside request cannot
        # succeed; the network log below still names it.
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
    ):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    service = Service(shutil.which("chromedriver") or "/usr/bin/chromedriver")
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_page_load_timeout(WAIT_SECONDS)
    driver.set_script_timeout(WAIT_SECONDS)
    return driver


class Browser:
    """A driver plus the checks every page gets: no console errors, no outside requests."""

    def __init__(self, driver, base_url, out):
        self.driver = driver
        self.base_url = base_url
        self.out = Path(out)

    def at(self, base_url):
        """The same browser, for pages of another server."""
        return Browser(self.driver, base_url, self.out)

    def get_json(self, path):
        return get_json(self.base_url + path)

    def open(self, path):
        return self.open_url(self.base_url + path, path)

    def open_url(self, url, name=None):
        self.drain_logs()
        self.driver.get(url)
        self.wait(lambda d: d.execute_script("return document.readyState") == "complete",
                  f"{name or url} to finish loading")
        return self.driver

    def wait(self, condition, what, seconds=WAIT_SECONDS):
        """Waits until `condition(driver)` is true and returns it. `what` says what was awaited,
        or is a function that says it, with what the page shows, when the time is up."""
        __tracebackhide__ = True  # a failure points at the test's line
        try:
            return WebDriverWait(self.driver, seconds, poll_frequency=0.1).until(condition)
        except TimeoutException:
            pass
        pytest.fail(f"timed out after {seconds} s waiting for {what() if callable(what) else what}")

    def drain_logs(self):
        self.driver.get_log("browser")
        self.driver.get_log("performance")

    def console_errors(self):
        return [entry["message"] for entry in self.driver.get_log("browser") if entry["level"] == "SEVERE"]

    def requested_urls(self):
        urls = []
        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            if message.get("method") == "Network.requestWillBeSent":
                urls.append(message["params"]["request"]["url"])
        return urls

    def check_page_health(self):
        """Fails on console errors and on any request not aimed at the server under test."""
        errors = self.console_errors()
        assert not errors, "console errors: " + "; ".join(errors)
        local = urlsplit(self.base_url).netloc
        # Only network schemes can leave the machine (the browser's own chrome:// pages cannot).
        outside = [url for url in self.requested_urls()
                   if urlsplit(url).scheme in ("http", "https", "ws", "wss", "ftp")
                   and urlsplit(url).netloc != local]
        assert not outside, "requests left the machine: " + ", ".join(outside)

    def screenshot(self, name):
        path = self.out / f"{name}.png"
        self.driver.save_screenshot(str(path))
        return path


# Fixtures


@pytest.fixture(scope="session")
def out(pytestconfig):
    """Where screenshots and the servers' logs go; the last run's screenshots are removed."""
    folder = Path(pytestconfig.getoption("out"))
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.png"):
        old.unlink()
    return folder


@pytest.fixture(scope="session")
def scratch():
    folder = tempfile.mkdtemp(prefix="workbook-browser-")
    yield Path(folder)
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def notes(pytestconfig):
    """Lines printed after the results: figures a test measured (never checked)."""
    return pytestconfig.pluginmanager.get_plugin("workbook-results").notes


@pytest.fixture(scope="session")
def workbook(pytestconfig):
    """The workbook executable, for tests that build a site or start their own server."""
    path = pytestconfig.getoption("workbook")
    if not path:
        pytest.fail("this test runs the workbook: give --workbook")
    return path


@pytest.fixture(scope="session")
def site_url(pytestconfig, scratch, out, notes):
    """The base URL of the served site, once its first build is in place: `workbook serve`,
    shared by the tests, logging to serve.log; or the server given by --base-url."""
    started = time.monotonic()
    given = pytestconfig.getoption("base_url")
    if given:
        base_url = given.rstrip("/")
        poll(lambda: (site_status(base_url) or {}).get("state") in ("ready", "failed"),
             f"the site at {base_url} to be built", SITE_READY_SECONDS)
        check_site_ready(base_url)
        yield base_url
        return
    if not pytestconfig.getoption("workbook"):
        pytest.fail("give --workbook PATH or --base-url URL")
    server = Server(pytestconfig.getoption("workbook"), scratch, out / "serve.log")
    try:
        server.wait_until_site_ready()
        notes.append(f"site ready at {server.base_url} after {time.monotonic() - started:.1f} s")
        yield server.base_url
    finally:
        server.stop()


@pytest.fixture(scope="session")
def driver(scratch):
    driver = make_driver(scratch / "profile")
    yield driver
    driver.quit()


@pytest.fixture
def browser(driver, site_url, out):
    """The shared browser, on the shared server, with the previous test's logs drained."""
    browser = Browser(driver, site_url, out)
    browser.drain_logs()
    return browser


@pytest.fixture
def start_server(workbook, scratch, out):
    """Starts another `workbook serve` (options, a log name in the out folder, a data folder
    name), waits for its first site build, and stops it after the test."""
    servers = []

    def start(log_name, *arguments, data):
        server = Server(workbook, scratch, out / log_name, arguments, data=data)
        servers.append(server)
        server.wait_until_site_ready()
        return server

    yield start
    for server in servers:
        server.stop()


@pytest.fixture(scope="session")
def static_site(workbook, scratch):
    """The site `workbook build` writes, for pages opened from files; built once."""
    folder = scratch / "static-site"
    built = subprocess.run(
        [workbook, "build", "--out", str(folder)], cwd=REPOSITORY, capture_output=True, text=True,
        timeout=120, env=child_environment(scratch))
    assert built.returncode == 0, f"workbook build failed: {built.stderr[-2000:]}"
    return folder
