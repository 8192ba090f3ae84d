"""One real-browser test: a learner's notebook in JupyterLab, in headless Chromium.

The test writes a three-cell notebook (imports; a small graph drawn with
``viz.draw``; a backward ``viz.Stepper``), starts JupyterLab on a free port of
127.0.0.1 with its own config, data, runtime and root directories, opens the
notebook in Chromium through Playwright, runs all cells from the Run menu, and
checks what a learner sees:

* the graph cell shows an SVG ``<img>`` that loaded and names the graph's ops;
* the stepper shows a slider and a picture of the graph, and moving the slider
  one step (the arrow key on its handle) changes that picture;
* after that step the picture shows the gradient the first edge carried
  (issue #13: gradients on the picture), and the running box is styled;
* a graph wider than the column is shown at its own size in an output that
  scrolls, not shrunk until its labels are unreadable;
* no cell printed a traceback.

Screenshots are kept in ``test-artifacts/`` at the repository root (ignored by
git): ``jupyterlab-graph.png`` after the run, ``jupyterlab-stepper.png`` after
the step, and ``jupyterlab-failure.png`` when something went wrong.

The test skips, with the reason, only when Chromium or Playwright is missing;
with ``MINIGRAD_REQUIRE_BROWSER=1`` (CI sets it through ``./run tests``) it
fails instead. Facts it builds on: /work/shared/TOOLCHAIN.md, "A real browser".
"""

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from classroom.kernels import socket_options

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts"
NOTEBOOK = "stepper.ipynb"

# Generous: two shared cores; the whole run takes seconds when the machine is idle.
WAIT_S = 120
WAIT_MS = WAIT_S * 1000

# Debian's Chromium, as root, with nothing that reaches the network.
CELLS = [
    "import minigrad, viz",
    (
        "x = minigrad.tensor([1.0, 2.0, 3.0], requires_grad=True)\n"
        "w = minigrad.tensor([0.5, -1.0, 2.0], requires_grad=True)\n"
        "loss = (x * w).tanh().sum()\n"
        "viz.draw(loss)"
    ),
    # The stepper's module by its path: it works whether or not viz also exports Stepper.
    "viz.Stepper(loss)",
    # A wide graph (twenty leaves side by side): wider than the notebook's column.
    (
        "leaves = [minigrad.tensor(float(i), requires_grad=True) for i in range(20)]\n"
        "viz.draw(minigrad.stack(leaves).sum(), names={f'leaf_{i}': t for i, t in enumerate(leaves)})"
    ),
]

# Error and stderr outputs; JupyterLab shows a traceback with this MIME type.
STDERR = '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]'

# The pictures shown inside an output area, as text: inline <svg> markup, or the
# decoded SVG of an <img src="data:image/svg+xml,...">. Slider parts and
# icons are not pictures of the graph; the caller checks for op names.
FRAME_JS = """
(area) => {
  const parts = [];
  for (const el of area.querySelectorAll("svg, img")) {
    if (el.closest(".widget-slider")) continue;
    if (el.tagName === "IMG") {
      const src = el.getAttribute("src") || "";
      const comma = src.indexOf(",");
      const data = src.slice(comma + 1);
      parts.push(src.slice(0, comma).endsWith(";base64") ? atob(data) : decodeURIComponent(data));
    } else {
      parts.push(el.outerHTML);
    }
  }
  return parts.join("\\n");
}
"""


def _write_notebook(path):
    import nbformat

    notebook = nbformat.v4.new_notebook()
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in CELLS]
    nbformat.write(notebook, str(path))


def _tail(path, lines=40):
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


@contextlib.contextmanager
def _jupyterlab(tmp_path):
    """Runs JupyterLab on a free port over ``tmp_path/root``; yields (base URL, log path)."""
    root, config = tmp_path / "root", tmp_path / "config"
    (config / "labconfig").mkdir(parents=True)
    root.mkdir()
    # The news toast of the announcements plugin would cover the notebook.
    (config / "labconfig" / "page_config.json").write_text(
        json.dumps({"disabledExtensions": {"@jupyterlab/apputils-extension:announcements": True}})
    )
    _write_notebook(root / NOTEBOOK)

    env = dict(
        os.environ,
        JUPYTER_CONFIG_DIR=str(config),
        JUPYTER_DATA_DIR=str(tmp_path / "data"),
        JUPYTER_RUNTIME_DIR=str(tmp_path / "runtime"),
        IPYTHONDIR=str(tmp_path / "ipython"),
        # The kernel imports this checkout's minigrad and viz, whatever is installed.
        PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
        PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]),
    )
    env.pop("JUPYTER_PATH", None)
    log = tmp_path / "jupyterlab.log"
    command = [
        sys.executable, "-m", "jupyterlab",
        "--no-browser",
        "--allow-root",  # JupyterLab refuses to run as root without it
        "--ip=127.0.0.1",
        # Port 0: the server takes a free port itself and writes it to its runtime file; a port
        # chosen here could be taken by another test worker before the server binds it.
        "--port=0",
        "--ServerApp.port_retries=0",
        "--IdentityProvider.token=",
        f"--ServerApp.root_dir={root}",
        "--ServerApp.terminals_enabled=False",
        # Unix sockets, not TCP ports another test worker's connections could take first
        # (see classroom/kernels.py).
        *(f"--KernelManager.{key}={value}" for key, value in socket_options().items()),
    ]
    with open(log, "wb") as log_file:
        server = subprocess.Popen(
            command, cwd=root, env=env, stdout=log_file, stderr=subprocess.STDOUT, start_new_session=True
        )
    server_info = tmp_path / "runtime" / f"jpserver-{server.pid}.json"
    base = None
    try:
        deadline = time.monotonic() + WAIT_S
        while True:
            if server.poll() is not None:
                pytest.fail(f"JupyterLab exited with {server.returncode}:\n{_tail(log)}", pytrace=False)
            try:
                base = base or f"http://127.0.0.1:{json.loads(server_info.read_text())['port']}"
                with urllib.request.urlopen(f"{base}/api/status", timeout=5) as response:
                    if response.status == 200:
                        break
            except (FileNotFoundError, json.JSONDecodeError, urllib.error.URLError, OSError):
                pass  # not written yet, half written, or not answering yet
            if time.monotonic() > deadline:
                pytest.fail(f"JupyterLab did not answer /api/status in {WAIT_S} s:\n{_tail(log)}", pytrace=False)
            time.sleep(0.25)
        yield base, log
    finally:
        # SIGTERM lets the server shut its kernels down; kill only if it hangs.
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=30)


def _screenshot(page, name, element=None):
    ARTIFACTS.mkdir(exist_ok=True)
    if element is not None:
        element.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / name))
    return ARTIFACTS / name


def test_notebook_draws_graph_and_steps_backward(tmp_path, chromium):
    (ARTIFACTS / "jupyterlab-failure.png").unlink(missing_ok=True)  # from an earlier run
    from playwright.sync_api import Error as PlaywrightError
    from playwright.sync_api import sync_playwright

    with _jupyterlab(tmp_path) as (base, log), sync_playwright() as playwright:
        browser = playwright.chromium.launch(**chromium)
        console = []
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1000})
            page.on("console", lambda m: m.type == "error" and console.append(m.text))
            page.on("pageerror", lambda e: console.append(f"page error: {e}"))
            page.set_default_timeout(WAIT_MS)
            try:
                _run_and_check(page, base)
            except (AssertionError, PlaywrightError) as error:  # keep what the page showed
                try:
                    shot = _screenshot(page, "jupyterlab-failure.png")
                except PlaywrightError as no_shot:
                    shot = f"none ({no_shot})"
                raise AssertionError(
                    f"{error}\n\nScreenshot: {shot}\nBrowser console errors:\n"
                    + "\n".join(console[-20:])
                    + f"\n\nJupyterLab log:\n{_tail(log)}"
                ) from error
        finally:
            browser.close()


@contextlib.contextmanager
def _waiting_for(what):
    """Turns a Playwright timeout into a failure that says what never happened."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        yield
    except PlaywrightTimeout as timeout:
        raise AssertionError(f"waited {WAIT_S} s for {what}; it did not happen.\n{timeout}") from None


def _run_and_check(page, base):
    page.goto(f"{base}/lab/tree/{NOTEBOOK}?reset")
    with _waiting_for("the notebook's kernel to start and be idle"):
        # The execution indicator says "idle" for a moment before any kernel exists, and
        # Run All then does nothing: wait for the status bar to name a kernel that is idle.
        page.wait_for_function(
            """() => document.querySelector(".jp-Notebook-ExecutionIndicator[data-status='idle']") &&
              [...document.querySelectorAll(".jp-StatusBar-TextItem")].some(
                e => /\\| Idle$/.test(e.textContent.trim()) && !e.textContent.includes("No Kernel"))"""
        )
    with _waiting_for("Run > Run All Cells in the menu bar"):
        page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
        page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Run All Cells$")).click()

    with _waiting_for("every cell to run (or one to fail)"):
        # Every prompt shows a number, not "[ ]" or "[*]"; or a cell failed: Run All
        # stops there, and waiting longer would only hide the error.
        page.wait_for_function(
            """([n, errors]) => {
              const failed = [...document.querySelectorAll(errors)].some(e => /Traceback|Error/.test(e.textContent));
              if (failed) return true;
              const prompts = [...document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt')];
              return prompts.length === n && prompts.every(p => /^\\[\\d+\\]:$/.test(p.textContent.trim()));
            }""",
            arg=[len(CELLS), STDERR],
        )
    _assert_no_errors(page)
    prompts = page.locator(".jp-Notebook .jp-CodeCell .jp-InputPrompt").all_inner_texts()
    assert all(re.fullmatch(r"\[\d+\]:", p.strip()) for p in prompts), f"not every cell ran: {prompts}"
    cells = page.locator(".jp-Notebook .jp-CodeCell")

    # The graph: an SVG image that loaded and shows the ops.
    graph_cell = cells.nth(1)
    graph = graph_cell.locator('.jp-OutputArea-output[data-mime-type="image/svg+xml"] img')
    with _waiting_for("the graph cell to show an SVG image that loads"):
        graph.wait_for(state="visible")
        page.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=graph.element_handle())
    graph_svg = graph_cell.locator(".jp-OutputArea").evaluate(FRAME_JS)
    for op in ("SumBackward0", "TanhBackward0", "MulBackward0"):
        assert op in graph_svg, f"the graph picture does not name {op}"
    _screenshot(page, "jupyterlab-graph.png", graph)

    # The stepper: a slider and a picture of the graph that changes with the step.
    stepper_cell = cells.nth(2)
    stepper_area = stepper_cell.locator(".jp-OutputArea")
    slider = stepper_cell.locator(".widget-slider")
    readout = slider.locator(".widget-readout")
    with _waiting_for("the stepper to show a slider and a picture of the graph"):
        slider.wait_for(state="visible")
        page.wait_for_function(f"(area) => ({FRAME_JS})(area).includes('Backward0')", arg=stepper_area.element_handle())
    before, step_before = stepper_area.evaluate(FRAME_JS), readout.inner_text()

    # One step forward, as a learner does from the keyboard.
    slider.locator(".noUi-handle").first.focus()
    page.keyboard.press("ArrowRight")
    with _waiting_for(f"the slider to leave step {step_before} after ArrowRight on its handle"):
        page.wait_for_function("([r, before]) => r.textContent.trim() !== before", arg=[readout.element_handle(), step_before])
    with _waiting_for(f"the stepper's picture to change when the slider moved from {step_before} to {readout.inner_text()}"):
        page.wait_for_function(
            f"([area, before]) => {{ const now = ({FRAME_JS})(area); return now.includes('Backward0') && now !== before; }}",
            arg=[stepper_area.element_handle(), before],
        )
    # Gradients on the picture: the edge from the output carries backward's gradient, 1,
    # and from step 1 on one box is drawn as running.
    after = stepper_area.evaluate(FRAME_JS)
    assert ">1</text>" in after, "the stepper's picture shows no gradient on the output's edge"
    assert re.search(r'class="node [a-z]+ running"', after), "no box is drawn as running after a step"
    _screenshot(page, "jupyterlab-stepper.png", stepper_cell)

    # A wide picture keeps its size (its labels stay legible) and its output scrolls instead.
    wide_cell = cells.nth(3)
    wide = wide_cell.locator('.jp-OutputArea-output[data-mime-type="image/svg+xml"] img')
    with _waiting_for("the wide graph to show an SVG image that loads"):
        wide.wait_for(state="visible")
        page.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=wide.element_handle())
    shown, natural, column = wide.evaluate(
        "(img) => [img.getBoundingClientRect().width, img.naturalWidth,"
        " img.closest('.jp-OutputArea').getBoundingClientRect().width]")
    assert natural > column, f"the wide graph ({natural} px) is not wider than the column ({column} px)"
    assert shown >= natural - 1, f"the wide graph was shrunk from {natural} px to {shown} px"
    _screenshot(page, "jupyterlab-wide.png", wide_cell)
    _assert_no_errors(page)


def _assert_no_errors(page):
    """No cell failed, in the kernel or while its output was displayed."""
    failures = [text for text in page.locator(STDERR).all_inner_texts() if "Traceback" in text or "Error" in text]
    assert not failures, "a cell failed:\n" + "\n\n".join(failures)
    assert page.get_by_text("Error displaying widget").count() == 0, "a widget failed to display"
