"""(e2) Big graphs in viz: a 2,000-node backward stepper, and a 20,000-node ``draw``.

Before issue #13, ``viz.Stepper`` laid out one SVG per frame: a 401-node graph
took 28 s to show, a 501-node one 61 s and 130 MB to export, and a 2,001-node
one did not finish in 15 minutes. Now a stepper collapses past ``max_nodes``
like ``draw``, lays its graph out once and restyles it per frame, so its cost
grows with the graph, not with graph x steps. Timed here:

* *stepper*: ``Stepper(loss)`` of a chain with branches (``y = y * 0.5 + y.tanh()``,
  three grad_fn nodes a link), then ``to_html()`` (the one layout plus the timeline),
  then ten frames as SVG (what moving the widget's slider costs);
* *draw*: ``viz.draw`` of a 20,000-node graph, collapsed (the default
  ``max_nodes=500``) and rendered; and in full (``max_nodes=inf``), whose
  layout Graphviz cannot finish: it must return and stop at the time limit
  with a message, not hang.

Wall-clock time: the layout runs in a child process. Run alone:
``python benchmarks/render_stepper.py [--quick]``.
"""

import timing  # noqa: I001  (first: pins BLAS to one thread before NumPy loads)

import time

import minigrad
import viz
from viz import render
from viz.stepper import Stepper

TITLE = "(e2) A 2,000-node stepper and a 20,000-node draw"
STEPPER_GOAL_SECONDS = 30.0  # "builds and exports in seconds"
DRAW_GOAL_SECONDS = 30.0  # "a 20,000-node draw returns"


def chain_with_branches(links):
    y = minigrad.tensor([0.5, -0.25, 1.0], requires_grad=True)
    for _ in range(links):
        y = y * 0.5 + y.tanh()
    return y.sum()


def time_stepper(links):
    """Seconds to build, export and show ten frames, and the export's size."""
    loss = chain_with_branches(links)
    start = time.perf_counter()
    stepper = Stepper(loss, values=False)
    built = time.perf_counter()
    page = stepper.to_html()
    exported = time.perf_counter()
    for k in range(0, len(stepper.frames), max(1, len(stepper.frames) // 10)):
        stepper.svg(k)
    framed = time.perf_counter()
    return len(stepper.steps), built - start, exported - built, framed - exported, len(page) / 2**20


def run(quick=False):
    report = timing.Report(TITLE)
    if render.available_renderer() is None:
        report.add("No Graphviz renderer installed: nothing to time.")
        return report
    rows, slowest = [], 0.0
    for links in ((167, 334) if quick else (167, 334, 667)):  # 3 nodes a link: 500 to 2,000 nodes
        timing.log(f"  stepper over {links * 3} nodes...")
        steps, build, export, frames, mib = time_stepper(links)
        slowest = max(slowest, build + export)
        rows.append([steps, f"{build:.2f}", f"{export:.2f}", f"{frames:.2f}", f"{mib:.2f}"])
    report.add("Stepper over a chain with branches (values=False, max_nodes=500); wall-clock seconds.", "")
    report.add(*timing.table(["nodes (= steps)", "build s", "to_html s", "10 frames s", "HTML MiB"], rows))

    links = 1667 if quick else 6667  # 20,000 grad_fn nodes, plus leaves and saved tensors
    loss = chain_with_branches(links)
    timing.log(f"  draw of {links * 3} nodes...")
    start = time.perf_counter()
    picture = viz.draw(loss)
    svg = picture.svg()
    collapsed = time.perf_counter() - start
    start = time.perf_counter()
    full = viz.draw(loss, max_nodes=float("inf"))
    full.timeout = 10
    shown = full._repr_mimebundle_()
    in_full = time.perf_counter() - start
    outcome = "laid out" if "image/svg+xml" in shown else "stopped at the 10 s limit, with its message"
    report.add("", f"`viz.draw` of {links * 3:,} grad_fn nodes: collapsed to {picture.summary} and rendered in "
               f"{collapsed:.2f} s ({len(svg) / 2**10:.0f} KiB SVG); in full (max_nodes=inf, timeout=10): "
               f"{outcome}, returned after {in_full:.1f} s.")
    report.goal(f"2,000-node stepper built and exported in under {STEPPER_GOAL_SECONDS:.0f} s",
                f"{slowest:.1f} s", slowest < STEPPER_GOAL_SECONDS)
    report.goal(f"20,000-node draw returns (collapsed, rendered) in under {DRAW_GOAL_SECONDS:.0f} s",
                f"{collapsed:.1f} s", collapsed < DRAW_GOAL_SECONDS)
    return report


if __name__ == "__main__":
    import sys

    timing.freeze_imports()
    print(run(quick="--quick" in sys.argv).markdown())
