"""Watching a backward pass: which nodes ran, what they freed, what they stored.

``record()`` collects the engine's own steps (``minigrad.autograd.graph.observe``)
while your code runs, so a picture drawn afterwards can show which nodes a
``backward(inputs=...)`` left out, which step failed, and the gradient every
edge carried.

PyTorch's engine cannot be observed from outside, so for a PyTorch graph name
its output: ``with viz.record(loss) as run:`` puts a hook on every node of
that graph (``node.register_hook``, which PyTorch calls in execution order
with the node's ``grad_inputs`` and ``grad_outputs``) and takes them off after.
A pre-hook on each node (``node.register_prehook``, called just before the
node runs) notes the node that started and did not finish: when PyTorch's
backward raises, that is the node that failed.

>>> import minigrad, viz
>>> x = minigrad.tensor(2.0, requires_grad=True)
>>> with viz.record() as run:
...     (x * x).backward()
>>> [step.node.name() for step in run.steps]
['MulBackward0', 'torch::autograd::AccumulateGrad']
"""

import contextlib
from types import SimpleNamespace

from minigrad.autograd import graph as autograd_graph
from minigrad.autograd.graph import next_sequence_nr


class Recording:
    """The steps of every backward pass run inside a ``record()`` block.

    Attributes:
        steps: the ``BackwardStep`` records, in the order the engine ran them.
        error: the exception a backward raised inside the block, if any.
        failed_node: the node that was running when it raised (None if the
            error came before the engine started, e.g. a wrong-shaped gradient);
            for a PyTorch graph watched through ``record(loss)``, PyTorch's node.
    """

    def __init__(self):
        self.steps = []
        self.error = None
        self.failed_node = None
        self._torch_running = None  # the PyTorch node between its pre-hook and its hook

    @property
    def ran(self):
        """The nodes whose backward actually ran."""
        return {step.node for step in self.steps if step.executed}

    @property
    def reached(self):
        """Every node the engine reached (ran, or only captured a gradient at)."""
        return {step.node for step in self.steps}


def _node_in_traceback(error):
    """The node ``iter_backward`` was running when ``error`` was raised, if any."""
    tb = error.__traceback__
    node = None
    while tb is not None:
        frame = tb.tb_frame
        if frame.f_code.co_name == "iter_backward" and "node" in frame.f_locals:
            node = frame.f_locals["node"]
        tb = tb.tb_next
    return node


@contextlib.contextmanager
def record(*roots, catch=False):
    """Record the backward passes run in the block.

    Args:
        roots: for PyTorch, the outputs whose graphs to watch (minigrad's
            engine is watched whole, without them).
        catch: if True, an exception raised in the block is kept in
            ``Recording.error`` (for ``viz.draw_error``) instead of propagating.

    Yields:
        Recording
    """
    run = Recording()
    with autograd_graph.observe(run.steps.append), _torch_hooks(roots, run):
        try:
            yield run
        except Exception as error:  # noqa: BLE001 - kept for the picture, re-raised unless asked
            run.error = error
            node = _node_in_traceback(error)  # minigrad's engine; else the PyTorch node that did not finish
            run.failed_node = node if node is not None else run._torch_running
            if not catch:
                raise


@contextlib.contextmanager
def _torch_hooks(roots, run):
    """Hooks on every node of the PyTorch graphs behind ``roots``: a step recorded when a node has run,
    and the node that is running (a pre-hook), so that a failing backward names its node."""
    from .torch_graph import is_torch_tensor

    handles, seen = [], set()
    stack = [root.grad_fn for root in roots if is_torch_tensor(root)]
    while stack:  # an explicit stack: graphs can be deep
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        handles.append(fn.register_prehook(_start_recorder(fn, run)))
        handles.append(fn.register_hook(_step_recorder(fn, run)))
        stack.extend(child for child, _ in fn.next_functions)
    try:
        yield
    finally:
        for handle in handles:
            handle.remove()


def _start_recorder(fn, run):
    """A node pre-hook: ``fn`` is about to run (its gradients have all arrived)."""
    def prehook(grad_outputs):
        run._torch_running = fn
    return prehook


def _step_recorder(fn, run):
    """A node hook that appends minigrad-style step records (``grad_inputs`` is what the node sends)."""
    def hook(grad_inputs, grad_outputs):
        run._torch_running = None  # it ran to the end
        run.steps.append(SimpleNamespace(index=len(run.steps), node=fn, executed=True,
                                         grad_outputs=tuple(grad_outputs),
                                         grad_inputs=() if hasattr(fn, "variable") else tuple(grad_inputs),
                                         accumulated=(), captured=(), released=()))
    return hook


class Scope:
    """Nodes created inside ``with viz.scope(name):``, found by their creation numbers."""

    def __init__(self, name):
        self.name = name
        self.first = self.last = None

    def __contains__(self, node):
        nr = node.sequence_nr
        return self.first is not None and self.first <= nr < self.last


_scopes = []


@contextlib.contextmanager
def scope(name):
    """Group the nodes created in the block under ``name`` (big graphs collapse by scope).

    Args:
        name: the label the group gets in pictures, e.g. ``"layer1"``.
    """
    s = Scope(name)
    s.first = next_sequence_nr()
    try:
        yield s
    finally:
        s.last = next_sequence_nr()
        _scopes.append(s)


def scope_of(node):
    """The innermost recorded scope containing ``node`` (or None)."""
    best = None
    for s in _scopes:
        if node in s and (best is None or s.first >= best.first):
            best = s
    return best.name if best is not None else None


def forget_scopes():
    """Drop every recorded scope (for tests and long sessions)."""
    _scopes.clear()

