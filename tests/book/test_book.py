"""The book: built from the notebooks, complete, and readable with no network.

One build per run (a module fixture runs ``book/build.sh --out <tmp>``: npm
assets, then ``jupyter-book build -W -n --keep-going``, so any Sphinx warning
fails here), then:

* every page of the table of contents was written, and every notebook in
  ``notebooks/`` is in the table of contents;
* graphs are SVG pictures, formulas are set up for the book's own MathJax, the
  widget manager is loaded once, in order, only where there are widgets;
* nothing a page loads (scripts, styles, pictures, fonts in CSS) comes from the
  network, and every local file a page names exists;
* in a real headless Chromium, with every request that is not ``file://``
  aborted: every page loads with no script error, no missing file and no
  request for the network, no console error, MathJax typesets its formulas without errors, and on
  one page a graph picture is displayed and a backward stepper (the
  ``Stepper.to_html()`` fragment) moves when its button is clicked and its
  slider is moved; on the engine notebook (3), "next" marks the running node and labels
  the edges with the gradients it sent. Screenshot: ``test-artifacts/book-page.png`` (and
  ``book-failure.png`` when it fails).

The browser part skips, with the reason, only when Chromium or Playwright is
missing; with ``MINIGRAD_REQUIRE_BROWSER=1`` (``./run tests`` in CI) it fails
instead. Facts it builds on: /work/shared/TOOLCHAIN.md ("Jupyter Book", "A real
browser").
"""

import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

pytestmark = pytest.mark.book

REPO = Path(__file__).resolve().parents[2]
BOOK = REPO / "book"
ARTIFACTS = REPO / "test-artifacts"
BUILD_TIMEOUT_S = 1200  # two shared cores; about 30-60 s when the machine is idle
WAIT_MS = 60_000

# Debian's Chromium, as root, with nothing that reaches the network (as tests/browser).
# The widget manager's scripts, as _config.yml's nb_ipywidgets_js lists them.
WIDGET_SCRIPTS = ["jupyter-widgets/require.js", "jupyter-widgets/setup.js", "jupyter-widgets/embed-amd.js"]
SVG_IMG = re.compile(r"""<img\b[^>]*\bsrc="(?P<src>[^"]*\.svg|data:image/svg\+xml[^"]*)\"""")
# XML namespace names are identifiers, never fetched.
NAMESPACE = re.compile(r"https?://www\.w3\.org/[\w/.#-]*")
REMOTE = re.compile(r"^\s*(?:[a-z][a-z0-9+.-]*:)?//", re.I)  # http://, https://, //host, ...


def _require(what):
    """Skips with the reason, or fails where the environment promises everything is there."""
    if os.environ.get("MINIGRAD_REQUIRE_BROWSER") == "1" or os.environ.get("CI") == "true":
        pytest.fail(f"{what} (MINIGRAD_REQUIRE_BROWSER=1 or CI=true: not skipping)", pytrace=False)
    pytest.skip(what)


# --- the build ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """Builds the book once into a temporary folder; returns its HTML folder."""
    stamp = BOOK / "node_modules" / ".minigrad-lock-sha256"
    if shutil.which("npm") is None and not stamp.is_file():
        _require("npm is missing, and the book's browser assets were never fetched (apt-get install -y npm)")
    out = tmp_path_factory.mktemp("book")
    # build.sh runs jupyter-book from next to $PYTHON: this interpreter's environment.
    env = dict(os.environ, PYTHON=sys.executable)
    try:
        done = subprocess.run(
            ["bash", str(BOOK / "build.sh"), "--out", str(out)],
            cwd=REPO, env=env, capture_output=True, text=True, timeout=BUILD_TIMEOUT_S,
        )
    except subprocess.TimeoutExpired as timeout:
        pytest.fail(f"book/build.sh took more than {BUILD_TIMEOUT_S} s:\n{_tail(timeout.stdout)}\n{_tail(timeout.stderr)}")
    if done.returncode != 0:
        log = done.stdout + "\n" + done.stderr
        warnings = [line for line in log.splitlines() if re.search(r"WARNING|ERROR|Error|error:", line)]
        pytest.fail(
            f"book/build.sh failed with exit code {done.returncode} (a Sphinx warning fails the -W build).\n"
            "Warnings and errors:\n" + "\n".join(warnings[:60]) + f"\n\nEnd of the output:\n{_tail(log)}",
            pytrace=False,
        )
    root = out / "_build" / "html"
    assert (root / "index.html").is_file(), f"the build wrote no {root / 'index.html'}"
    return root


def _tail(text, lines=40):
    if isinstance(text, bytes):
        text = text.decode(errors="replace")
    return "\n".join((text or "").splitlines()[-lines:])


# --- what the book should hold ----------------------------------------------------------
def _toc_docs():
    """The docnames of _toc.yml in reading order, globs expanded as Sphinx does."""
    import yaml

    toc = yaml.safe_load((BOOK / "_toc.yml").read_text())
    docs = [_docname(toc["root"])]

    def walk(entries):
        for entry in entries or []:
            if "file" in entry:
                docs.append(_docname(entry["file"]))
            elif "glob" in entry:
                found = sorted({_docname(p.relative_to(BOOK).as_posix())
                                for suffix in (".ipynb", ".md")
                                for p in BOOK.glob(entry["glob"] + suffix)})
                docs.extend(found)
            walk(entry.get("sections"))

    for part in toc.get("parts") or []:
        walk(part.get("chapters"))
    walk(toc.get("chapters"))
    return docs


def _docname(path):
    return re.sub(r"\.(ipynb|md)$", "", path)


def _notebook_docs():
    """The notebooks of the table of contents (not the Markdown pages that live beside them)."""
    return [doc for doc in _toc_docs() if doc.startswith("notebooks/") and (BOOK / f"{doc}.ipynb").is_file()]


def _page(site, doc):
    return site / f"{doc}.html"


def _read_notebook(doc):
    return json.loads((BOOK / f"{doc}.ipynb").read_text(encoding="utf-8"))


class _Tags(html.parser.HTMLParser):
    """Every start tag with its attributes, and the text of each <script> and <style>."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.scripts, self.styles = [], [], []
        self._in = None

    def handle_starttag(self, tag, attrs):
        attrs = {k: (v or "") for k, v in attrs}
        self.tags.append((tag, attrs))
        if tag in ("script", "style"):
            self._in = (tag, attrs, [])

    def handle_endtag(self, tag):
        if self._in and tag == self._in[0]:
            kind, attrs, parts = self._in
            (self.scripts if kind == "script" else self.styles).append((attrs, "".join(parts)))
            self._in = None

    def handle_data(self, data):
        if self._in:
            self._in[2].append(data)


def _parse(path):
    parser = _Tags()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def _pages(site):
    """The book's HTML pages (not the theme's templates in _static, nor vendored files)."""
    skip = {"_static", "_sources", "_images", "mathjax", "jupyter-widgets"}
    return sorted(p for p in site.rglob("*.html") if p.relative_to(site).parts[0] not in skip)


def _resolve(site, page, url):
    """The file a relative URL of ``page`` names, or None for data:, javascript:, fragments."""
    parts = urlsplit(url)
    if parts.scheme or not parts.path:
        return None
    return (page.parent / unquote(parts.path)).resolve()


# --- the static checks ---------------------------------------------------------------------
def test_every_page_of_the_toc_was_built(site):
    docs = _toc_docs()
    notebooks = _notebook_docs()
    assert notebooks, f"the table of contents names no notebook; it holds {docs}"
    missing = [doc for doc in docs if not _page(site, doc).is_file()]
    assert not missing, f"no HTML page for: {missing}"
    untitled = []
    for doc in notebooks:
        page = _page(site, doc).read_text(encoding="utf-8")
        if not re.search(r"<h1\b", page):
            untitled.append(doc)
    assert not untitled, f"pages without a title (a notebook needs a '# Title' markdown cell): {untitled}"


def test_every_notebook_is_in_the_book():
    in_toc = set(_notebook_docs())
    on_disk = {f"notebooks/{p.stem}" for p in (REPO / "notebooks").glob("*.ipynb")}
    left_out = sorted(on_disk - in_toc)
    assert not left_out, (
        f"notebooks that are not in the book: {left_out}. A notebook named NN_name.ipynb "
        "joins by itself; any other needs an entry in book/_toc.yml"
    )


def test_graphs_are_svg_pictures(site):
    """Each notebook that drew a graph (an image/svg+xml output) shows it as an SVG picture."""
    problems, pictures = [], 0
    for doc in _notebook_docs():
        outputs = [o for c in _read_notebook(doc)["cells"] if c["cell_type"] == "code"
                   and not {"remove-output", "remove-cell"} & set(c["metadata"].get("tags", []))
                   for o in c.get("outputs", []) if "image/svg+xml" in o.get("data", {})]
        page = _page(site, doc)
        text = page.read_text(encoding="utf-8")
        found = [m["src"] for m in SVG_IMG.finditer(text)] + re.findall(r"<svg\b", text)
        pictures += len(found)
        if len(found) < len(outputs):
            problems.append(f"{doc}: {len(outputs)} SVG outputs in the notebook, {len(found)} SVG pictures on the page")
        for src in (m["src"] for m in SVG_IMG.finditer(text)):
            target = _resolve(site, page, src)
            if target is not None and not target.is_file():
                problems.append(f"{doc}: the picture {src} is not in the build")
    assert pictures, "no page of the book shows an SVG graph"
    assert not problems, "\n".join(problems)


def test_mathjax_is_the_books_own(site):
    """Pages with formulas load MathJax 3 from the book, never from elsewhere."""
    mathjax = (site / "mathjax" / "tex-chtml.js").resolve()
    assert mathjax.is_file(), f"MathJax is not in the build: {mathjax}"
    with_math, problems = [], []
    for page in _pages(site):
        parsed = _parse(page)
        has_math = any("math" in attrs.get("class", "").split() for _, attrs in parsed.tags)
        sources = [attrs["src"] for tag, attrs in parsed.tags if tag == "script" and "mathjax" in attrs.get("src", "").lower()]
        if has_math:
            with_math.append(page)
            resolved = [_resolve(site, page, src) for src in sources]
            if resolved != [mathjax]:
                problems.append(f"{page.relative_to(site)}: has formulas but loads MathJax from {sources}")
        elif sources and any(_resolve(site, page, s) != mathjax for s in sources):
            problems.append(f"{page.relative_to(site)}: loads MathJax from {sources}")
    assert with_math, "no page has a formula ($...$ in a markdown cell)"
    assert not problems, "\n".join(problems)


def test_widget_manager_loads_once_in_order_where_there_are_widgets(site):
    problems = []
    for page in _pages(site):
        parsed = _parse(page)
        sources = [attrs["src"].split("?")[0] for tag, attrs in parsed.tags if tag == "script" and attrs.get("src")]
        twice = sorted({s for s in sources if sources.count(s) > 1})
        if twice:
            problems.append(f"{page.relative_to(site)}: scripts loaded twice: {twice}")
        has_state = any(attrs.get("type") == "application/vnd.jupyter.widget-state+json" for attrs, _ in parsed.scripts)
        widget_sources = [s for s in sources if any(s.endswith(w) for w in WIDGET_SCRIPTS)]
        want = [next(s for s in widget_sources if s.endswith(w)) for w in WIDGET_SCRIPTS
                if any(s.endswith(w) for s in widget_sources)]
        if has_state and (len(widget_sources) != len(WIDGET_SCRIPTS) or widget_sources != want):
            problems.append(f"{page.relative_to(site)}: has widgets; wants {WIDGET_SCRIPTS} in order, loads {widget_sources}")
        if not has_state and widget_sources:
            problems.append(f"{page.relative_to(site)}: has no widgets, yet loads {widget_sources}")
        for src in widget_sources:
            if not (_resolve(site, page, src) or Path("/nonexistent")).is_file():
                problems.append(f"{page.relative_to(site)}: {src} is not in the build")
    assert not problems, "\n".join(problems)


def test_nothing_comes_from_the_network(site):
    """No page, and no stylesheet of the book, names a remote resource; every local one exists."""
    problems = []
    for page in _pages(site):
        name = page.relative_to(site)
        parsed = _parse(page)
        for tag, attrs in parsed.tags:
            for attr in ("src", "href", "data", "poster", "srcset"):
                url = attrs.get(attr)
                if url is None or (tag == "a" and attr == "href"):
                    continue  # links a reader may follow are fine
                if REMOTE.match(url):
                    problems.append(f"{name}: <{tag} {attr}={url!r}>")
                    continue
                loaded = tag in ("script", "img", "iframe", "source", "embed", "video", "audio") or (
                    tag == "link" and attrs.get("rel", "") in ("stylesheet", "preload", "modulepreload", "icon"))
                target = _resolve(site, page, url) if loaded and attr != "srcset" else None
                if target is not None and not target.is_file():
                    problems.append(f"{name}: <{tag} {attr}={url!r}> names a file that is not in the build")
        for _, body in parsed.scripts + parsed.styles:
            url = re.search(r"https?://[^\s\"')]+", NAMESPACE.sub("", body))
            if url:
                problems.append(f"{name}: an inline script or style names {url[0]}")
        for _, attrs in parsed.tags:
            if re.search(r"url\(\s*['\"]?(?:https?:)?//", attrs.get("style", "")):
                problems.append(f"{name}: a style attribute loads {attrs['style']!r}")
    for css in site.rglob("*.css"):
        text = css.read_text(encoding="utf-8", errors="replace")
        for match in re.finditer(r"(?:url\(|@import)\s*['\"]?((?:https?:)?//[^'\")\s]+)", text):
            problems.append(f"{css.relative_to(site)}: loads {match[1]}")
    assert not problems, "\n".join(problems[:50])


# --- a real browser -----------------------------------------------------------------------
def _on_disk(url):
    """True for a file: URL whose file exists. Chromium reports a load it cancelled itself (a font
    MathJax no longer needed, say) as a failed request, net::ERR_ABORTED; only a file that is not
    there is missing."""
    return Path(unquote(urlsplit(url).path)).is_file()


def _network_log(text):
    """Chromium's own console line for a failed request: reported (better) by the request checks."""
    return text.startswith("Failed to load resource")


def _features(page):
    text = page.read_text(encoding="utf-8")
    return {
        "graph": bool(SVG_IMG.search(text)),
        "math": "mathjax/tex-chtml.js" in text,
        "stepper": 'class="minigrad-stepper"' in text,
    }


# A to_html() stepper: one laid-out picture that each step restyles (viz/layout.py's player),
# the slider, and the "where" line. ``picture`` is every box's classes and text, so any step that
# changes a box's state or label changes it.
FRAMES_JS = """
(root) => {
  const svg = root.querySelector(".mg-picture svg");
  const box = svg ? svg.getBoundingClientRect() : {width: 0, height: 0};
  const slider = root.querySelector("input[type=range]");
  return {
    count: Number(slider.max) + 1,
    picture: svg ? [...svg.querySelectorAll("g.node")].map(
      (g) => (g.getAttribute("class") || "") + ":" + g.textContent.replace(/\\s+/g, " ").trim()).join("|") : "",
    width: box.width, height: box.height,
    slider: slider.value,
    where: root.querySelector(".mg-where").textContent,
  };
}
"""


def test_pages_in_a_real_browser_offline(site, chromium):
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright

    (ARTIFACTS / "book-failure.png").unlink(missing_ok=True)  # from an earlier run
    docs = _toc_docs()
    pages = [_page(site, doc) for doc in docs]
    features = {page: _features(page) for page in pages}
    wanted = ("graph", "math", "stepper")
    for feature in wanted:
        assert any(f[feature] for f in features.values()), (
            f"no page of the book has a {feature}"
            + (" (a notebook cell showing HTML(viz.Stepper(loss).to_html()))" if feature == "stepper" else "")
        )
    # The page to look at closely: the first with all three, else the richest.
    main = max(pages, key=lambda p: (sum(features[p].values()), -pages.index(p)))

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(**chromium)
        context = browser.new_context(viewport={"width": 1280, "height": 1000})
        remote, missing, errors = [], [], []

        def only_files(route):
            url = route.request.url
            if url.startswith(("file:", "data:", "blob:")):
                route.continue_()
            else:
                remote.append(url)
                route.abort()

        context.route("**/*", only_files)
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        page.on("requestfailed", lambda r: r.url.startswith("file:") and not _on_disk(r.url)
                and missing.append(f"{r.url} ({r.failure})"))
        page.on("pageerror", lambda e: errors.append(str(e)))
        # console.error from the page's own scripts (a theme complaining, a widget failing to render)
        page.on("console", lambda m: m.type == "error" and not _network_log(m.text) and errors.append(f"console: {m.text}"))
        try:
            # Every page: loads offline, completely, with no script error; formulas typeset.
            problems = []
            for path in pages:
                for seen in (remote, missing, errors):
                    seen.clear()
                page.goto(path.as_uri(), wait_until="load")
                math = page.evaluate(
                    """async () => {
                      if (!window.MathJax || !window.MathJax.startup) return null;
                      await window.MathJax.startup.promise;
                      await document.fonts.ready;  // the fonts MathJax asked for, loaded
                      return [document.querySelectorAll("mjx-container").length,
                              [...document.querySelectorAll("mjx-merror")].map(e => e.getAttribute("data-mjx-error") || e.textContent)];
                    }"""
                )
                name = path.relative_to(site)
                if features[path]["math"]:
                    if math is None:
                        problems.append(f"{name}: MathJax did not start")
                    elif math[0] == 0:
                        problems.append(f"{name}: MathJax typeset no formula")
                    elif math[1]:
                        problems.append(f"{name}: TeX errors: {math[1][:5]}")
                problems += [f"{name}: asked the network for {url}" for url in remote]
                problems += [f"{name}: missing file {url}" for url in missing]
                problems += [f"{name}: script error: {error}" for error in errors]
            assert not problems, "\n".join(problems)

            for seen in (remote, missing, errors):
                seen.clear()
            page.goto(main.as_uri(), wait_until="load")
            _check_main_page(page, features[main], main.relative_to(site))
            assert not remote, f"{main.name} asked the network for {remote}"
            assert not missing, f"{main.name} misses files: {missing}"
            assert not errors, f"{main.name} had script errors: {errors}"
        except (AssertionError, PlaywrightError) as error:
            try:
                ARTIFACTS.mkdir(exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / "book-failure.png"))
                shot = ARTIFACTS / "book-failure.png"
            except PlaywrightError as no_shot:
                shot = f"none ({no_shot})"
            raise AssertionError(f"{error}\n\nScreenshot: {shot}") from error
        finally:
            browser.close()


def _check_main_page(page, features, name):
    if features["math"]:
        page.wait_for_function("() => document.querySelectorAll('mjx-container').length > 0")

    if features["graph"]:
        graph = page.locator(".cell_output img[src$='.svg'], .cell_output img[src^='data:image/svg+xml']").first
        graph.scroll_into_view_if_needed()
        page.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=graph.element_handle())
        assert graph.is_visible(), f"{name}: the graph picture is not visible"

    if features["stepper"]:
        stepper = page.locator(".minigrad-stepper").first
        stepper.scroll_into_view_if_needed()
        root = stepper.element_handle()
        start = stepper.evaluate(FRAMES_JS)
        assert start["count"] >= 3, f"{name}: a stepper with {start['count']} frames: {start}"
        assert start["slider"] == "0", f"{name}: the stepper does not start at frame 0: {start}"
        assert start["width"] > 0 and start["picture"], f"{name}: the stepper's first picture is not drawn: {start}"

        stepper.locator("button[data-go=next]").click()
        page.wait_for_function(f"(root) => ({FRAMES_JS})(root).slider === '1'", arg=root)
        after_click = stepper.evaluate(FRAMES_JS)
        assert after_click["slider"] == "1", f"{name}: after 'next': {after_click}"
        assert after_click["picture"] != start["picture"], f"{name}: 'next' showed the same picture"
        assert after_click["where"] != start["where"] and after_click["width"] > 0, f"{name}: after 'next': {after_click}"

        # The slider, from the keyboard as a reader moves it: one step on.
        stepper.locator("input[type=range]").focus()
        page.keyboard.press("ArrowRight")
        page.wait_for_function(f"(root) => ({FRAMES_JS})(root).slider === '2'", arg=root)
        after_slide = stepper.evaluate(FRAMES_JS)
        assert after_slide["slider"] == "2", f"{name}: after the slider: {after_slide}"
        assert after_slide["picture"] != after_click["picture"], f"{name}: the slider showed the same picture"
        stepper.scroll_into_view_if_needed()

    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "book-page.png"))


# The engine notebook's kernel-free stepper: what a reader sees change when they press "next".
STEP_STATE_JS = """
(root) => ({
  running: [...root.querySelectorAll(".mg-picture svg g.node.running")].map(
    (g) => g.textContent.replace(/\\s+/g, " ").trim()),
  labels: [...root.querySelectorAll(".mg-picture svg g.edge")].map(
    (g) => [...g.querySelectorAll("text")].map((t) => t.textContent.trim()).join(" ")),
  where: root.querySelector(".mg-where").textContent,
})
"""
NUMBER = re.compile(r"^\[?-?\d")


def test_engine_notebooks_stepper_shows_the_running_node_and_its_gradients(site, chromium):
    """Notebook 3's HTML(stepper.to_html()): one press of "next" marks the node running now
    (a ``g.node.running`` box) and labels the edges it sent gradients along. Structure, not pixels."""
    from playwright.sync_api import sync_playwright

    doc = next((d for d in _notebook_docs() if d.startswith("notebooks/03_")), None)
    assert doc is not None, f"no notebook 03 in the book: {_notebook_docs()}"
    path = _page(site, doc)
    assert 'class="minigrad-stepper"' in path.read_text(encoding="utf-8"), (
        f"{doc}: no kernel-free stepper on the page (a cell showing HTML(stepper.to_html()))")

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(**chromium)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1000})
            page.set_default_timeout(WAIT_MS)
            page.goto(path.as_uri(), wait_until="load")
            stepper = page.locator(".minigrad-stepper").first
            stepper.scroll_into_view_if_needed()
            before = stepper.evaluate(STEP_STATE_JS)
            assert not before["running"], f"{doc}: a node is running before the first step: {before}"

            stepper.locator("button[data-go=next]").click()
            page.wait_for_function(f"(root) => ({STEP_STATE_JS})(root).running.length > 0",
                                   arg=stepper.element_handle())
            after = stepper.evaluate(STEP_STATE_JS)
            assert len(after["running"]) == 1, f"{doc}: after 'next', not one running box: {after}"
            assert "Backward" in after["running"][0], f"{doc}: the running box is not a node: {after}"
            new = [label for old, label in zip(before["labels"], after["labels"]) if label != old]
            assert len(after["labels"]) == len(before["labels"]) and new, (
                f"{doc}: 'next' labelled no edge with a gradient: before {before}, after {after}")
            assert all(NUMBER.match(label) for label in new), f"{doc}: edge labels that are not gradients: {new}"
        finally:
            browser.close()


def test_wide_pictures_keep_their_size_and_scroll(site, chromium):
    """book/_static/minigrad.css: a graph wider than the text column is not shrunk (its labels stay
    readable); its output box scrolls sideways instead. Checked on the widest graph of the book."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(**chromium)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1000})
            widest = None
            for doc in _notebook_docs():
                page.goto(_page(site, doc).as_uri(), wait_until="load")
                found = page.evaluate("""async () => {
                  const imgs = [...document.querySelectorAll(".cell_output img")].filter(
                    (i) => /\\.svg$|^data:image\\/svg/.test(i.getAttribute("src")));
                  await Promise.all(imgs.map((i) => i.decode().catch(() => null)));
                  return imgs.map((i) => {
                    const box = i.closest(".cell_output");
                    box.scrollLeft = box.scrollWidth;
                    return {natural: i.naturalWidth, shown: i.getBoundingClientRect().width,
                            column: box.clientWidth, scrolled: box.scrollLeft};
                  });
                }""")
                for picture in found:
                    if widest is None or picture["natural"] > widest[1]["natural"]:
                        widest = (doc, picture)
        finally:
            browser.close()
    assert widest is not None, "no SVG graph in the book"
    doc, picture = widest
    assert picture["natural"] > picture["column"], f"no graph is wider than the text column: {widest}"
    assert abs(picture["shown"] - picture["natural"]) < 1, f"{doc}: the widest graph was shrunk: {picture}"
    assert picture["scrolled"] > 0, f"{doc}: the widest graph's output does not scroll sideways: {picture}"


# Every graph picture on a page, as a reader sees it: drawn size against its own size, and the width of
# the box it sits in. An <img> of an SVG (draw) and a stepper's inline <svg> alike.
PICTURES_JS = """async () => {
  const imgs = [...document.querySelectorAll(".cell_output img")].filter(
    (i) => /\\.svg$|^data:image\\/svg/.test(i.getAttribute("src")));
  await Promise.all(imgs.map((i) => i.decode().catch(() => null)));
  const found = imgs.map((i) => ({kind: "draw", natural: i.naturalWidth, shown: i.getBoundingClientRect().width,
                                  column: i.closest(".cell_output").clientWidth}));
  for (const svg of document.querySelectorAll(".minigrad-stepper .mg-picture svg")) {
    found.push({kind: "stepper", natural: svg.width.baseVal.value, shown: svg.getBoundingClientRect().width,
                column: svg.closest(".mg-scroll").clientWidth});
  }
  return found;
}"""


def _pictures(site, chromium, docs):
    """``{doc: [picture, ...]}`` (see PICTURES_JS) for the book pages ``docs``, in a 1280 px wide window."""
    from playwright.sync_api import sync_playwright

    found = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(**chromium)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1000})
            for doc in docs:
                page.goto(_page(site, doc).as_uri(), wait_until="load")
                found[doc] = page.evaluate(PICTURES_JS)
        finally:
            browser.close()
    return found


def test_no_picture_is_drawn_smaller_than_its_own_size(site, chromium):
    """No label in the book is smaller than viz.dot.MIN_FONT_SIZE: the DOT never asks for less (tests/viz/
    test_palette.py), and here no picture, drawn graph or stepper, is scaled down to its column."""
    found = _pictures(site, chromium, _notebook_docs())
    assert any(p["kind"] == "stepper" for pictures in found.values() for p in pictures), "no stepper in the book"
    shrunk = [(doc, p) for doc, pictures in found.items() for p in pictures if p["shown"] < p["natural"] - 0.5]
    assert shrunk == [], f"pictures drawn smaller than their size: {shrunk}"


def test_the_stepper_and_the_create_graph_picture_fit_the_column(site, chromium):
    """Notebook 3's stepper (its legend under the graph) and notebook 7's forward + recorded picture (stacked)
    fit the text column whole: a reader needs no sideways scroll to see either."""
    docs = {prefix: next(d for d in _notebook_docs() if d.startswith(prefix))
            for prefix in ("notebooks/03_", "notebooks/07_")}
    found = _pictures(site, chromium, docs.values())
    [stepper] = [p for p in found[docs["notebooks/03_"]] if p["kind"] == "stepper"]
    assert stepper["natural"] <= stepper["column"], f"notebook 3's stepper is cut off: {stepper}"
    two_graphs = found[docs["notebooks/07_"]][0]  # viz.draw(f, d1), the notebook's first picture
    assert two_graphs["natural"] <= two_graphs["column"], f"notebook 7's create_graph picture is cut: {two_graphs}"
