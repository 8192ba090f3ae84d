"""Feedback that teaches: find the first node whose backward is wrong, and say why.

A whole-graph gradient check says *that* a gradient is wrong; a student wants
to know *where*. ``check_graph`` checks every node of the student's own graph
on its own:

1. Inside ``classroom.recording()`` every node keeps a copy of what its forward
   received (``node._forward_inputs``, see ``minigrad.grad_mode``).
2. For each node, in the order minigrad's engine would run them (closest to
   the loss first), pick an incoming gradient ``v`` and compare

   * what the node's ``backward(v)`` returns (the student's code, for a custom
     ``autograd.Function``), with
   * central finite differences, in float64, of ``<v, forward(inputs)>``: the
     node's own forward re-run on nudged copies of its inputs.

3. The first node that disagrees is named, with what was expected and what
   was got, and ``report.picture()`` draws the graph with that node marked.

Each node is checked twice: with an incoming gradient of ones (easy numbers
to read) and with a random one (a backward that ignores ``grad`` passes the
first and fails the second).

``compare_grads`` checks a student's *engine* instead: it runs the student's
``backward(loss)`` and minigrad's real ``backward()`` on two identical graphs
and says which leaf's gradient differs, and at which node paths meet when
gradients from two paths were not added up.

>>> import minigrad, classroom
>>> class Square(minigrad.autograd.Function):
...     @staticmethod
...     def forward(ctx, x):
...         ctx.save_for_backward(x)
...         return x * x
...     @staticmethod
...     def backward(ctx, grad):
...         (x,) = ctx.saved_tensors
...         return x * grad                   # forgot the 2
>>> x = minigrad.tensor([3.0, 2.0], requires_grad=True)
>>> with classroom.recording():
...     y = Square.apply(x)
...     loss = y.sum()
>>> report = classroom.check_graph(loss)
>>> report.ok, report.node_name
(False, 'SquareBackward')
>>> print(report)
SquareBackward (the node that makes `y`) returns the wrong gradient for its input 0: expected [6.0, 4.0] (finite differences of its forward), got [3.0, 2.0]. Check the backward of Square.
"""

import sys

import numpy as np

import minigrad
from minigrad import messages
from minigrad.autograd.function import BackwardCFunction, Function, FunctionCtx
from minigrad.autograd.graph import (AccumulateGrad, execution_order, nodes_on_a_path, observe,
                                     record_forward_inputs, walk)
from minigrad.autograd.graph import parents as graph_parents
from minigrad.tensor import Tensor
from viz.graph import names_from_frame, names_of

__all__ = ["recording", "check_graph", "GraphCheckReport", "compare_grads", "GradComparison"]


def recording():
    """Make the nodes built inside the block re-runnable, so ``check_graph`` can check them.

    A thin name for ``minigrad.autograd.graph.record_forward_inputs()``: every
    node keeps a float64 copy of its forward's inputs.

    Returns:
        A context manager.

    >>> import minigrad, classroom
    >>> x = minigrad.tensor(2.0, requires_grad=True)
    >>> with classroom.recording():
    ...     y = x.exp()
    >>> classroom.check_graph(y).ok
    True
    """
    return record_forward_inputs()


# --- words and numbers ----------------------------------------------------------------
def _number(value):
    return np.format_float_positional(value, precision=4, unique=True, trim="0")


def format_values(array, max_items=8):
    """Numbers for a message: ``[6.0, 4.0]``, short and the same run to run.

    >>> format_values(np.array([6.0, 4.0]))
    '[6.0, 4.0]'
    >>> format_values(np.array(0.5))
    '0.5'
    """
    array = np.asarray(array, dtype=np.float64)
    if array.ndim == 0:
        return _number(float(array))
    text = np.array2string(array, separator=", ", threshold=max_items, edgeitems=3,
                           formatter={"float_kind": _number}, max_line_width=10**6)
    return " ".join(text.split())  # one line, whatever the rank


def _shape(shape):
    return str(tuple(int(s) for s in shape))


def _op(node_name):
    """``SquareBackward`` -> ``Square``, ``MulBackward0`` -> ``Mul``: the op the student wrote."""
    return messages.op_name(node_name)


def _count(n, word):
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _made(name):
    return f" (the node that makes `{name}`)" if name else ""


def _node_names(root, names):
    """``{node: variable name}`` for the nodes (and leaves) of ``root``'s graph, from ``{id: name}``."""
    found = {}
    for node in _walk(root):
        key = id(node.variable) if isinstance(node, AccumulateGrad) else id(node)
        if key in names:
            found[node] = names[key]
    return found


# --- the graph, in the engine's order -------------------------------------------------
def _walk(root):
    """Every node below ``root`` (a tensor), breadth first in ``next_functions`` order."""
    return walk(root.grad_fn)


def engine_order(root):
    """The nodes below ``root`` in the order minigrad's engine runs them (its own ``execution_order``).

    >>> import minigrad
    >>> x = minigrad.tensor(1.0, requires_grad=True)
    >>> [node.name() for node in engine_order((x.exp() * 2).sum())]
    ['SumBackward0', 'MulBackward0', 'ExpBackward0', 'torch::autograd::AccumulateGrad']
    """
    return execution_order([root]) if root.grad_fn is not None else []


# --- re-running a node's forward ----------------------------------------------------
def _float64_params(params):
    # A cast to float32 inside the forward (``x.float()``) would spoil float64 finite differences.
    return {key: np.dtype(np.float64) if isinstance(value, np.dtype) and value.kind == "f" else value
            for key, value in params.items()}


def _replay(node):
    """``(run, positions)``: ``run(arrays)`` re-runs the node's forward and returns
    ``(outputs, differentiable)`` as float64 arrays and flags; ``positions`` are the
    places in ``arrays`` of the node's inputs (its ``next_functions``), in order."""
    arrays, params = node._forward_inputs
    if isinstance(node, BackwardCFunction):
        return _replay_custom(node, params), node._tensor_positions
    node_class, params = type(node), _float64_params(params)

    def run(arrays):
        with np.errstate(all="ignore"):
            out = node_class().forward(*arrays, **params)
        return [np.asarray(out, dtype=np.float64)], [True]

    return run, tuple(range(len(arrays)))


def _replay_custom(node, kwargs):
    """Re-run a custom ``Function.forward`` with a fresh ``ctx``, as ``apply`` runs it."""
    function_class, positions = node._function_class, set(node._tensor_positions)
    separate_context = function_class.setup_context is not Function.setup_context

    def run(arrays):
        ctx = FunctionCtx()
        ctx.needs_input_grad = node.needs_input_grad
        args = [minigrad.from_numpy(np.array(a)) if i in positions else a for i, a in enumerate(arrays)]  # a copy, an array
        with minigrad.no_grad(), np.errstate(all="ignore"):
            if separate_context:  # PyTorch's newer style: forward(*inputs), then setup_context
                outputs = function_class.forward(*args, **kwargs)
                function_class.setup_context(ctx, tuple(args), outputs)
            else:
                outputs = function_class.forward(ctx, *args, **kwargs)
        outputs = outputs if isinstance(outputs, tuple) else (outputs,)
        non_differentiable = {id(t) for t in getattr(ctx, "_non_differentiable", ())}
        differentiable = [isinstance(o, Tensor) and o.dtype.kind == "f" and id(o) not in non_differentiable
                          for o in outputs]
        values = [np.asarray(o._data if isinstance(o, Tensor) else o, dtype=np.float64) if d else None
                  for o, d in zip(outputs, differentiable)]
        return values, differentiable

    return run


def _finite_differences(run, arrays, position, cotangents, eps):
    """d<v, forward>/d(input) for each ``v`` in ``cotangents``, by central differences."""
    x = arrays[position]
    results = [np.zeros(x.shape) for _ in cotangents]
    nudged = list(arrays)
    for j in range(x.size):
        sides = []
        for step in (eps, -eps):
            moved = x.copy()
            moved.flat[j] += step
            nudged[position] = moved
            sides.append(run(nudged)[0])
        for result, vs in zip(results, cotangents):
            result.flat[j] = sum(np.sum(v * (plus - minus))
                                 for v, plus, minus in zip(vs, *sides) if v is not None) / (2 * eps)
    return results


def _sum_to_shape(array, shape):
    """Sum a broadcast-shaped array down to ``shape`` as the engine does (``sum_to_size``); None if impossible."""
    try:
        return minigrad.from_numpy(array).sum_to_size(shape).numpy()
    except RuntimeError:
        return None


# --- checking one node --------------------------------------------------------------------
class _Finding:
    """What is wrong at one node: the raw facts, and the sentence that says them."""

    def __init__(self, node, message, input_index=None, expected=None, got=None):
        self.node, self.message, self.input_index = node, message, input_index
        self.expected, self.got = expected, got


def _incoming_gradient(rng, shape):
    # Numbers with one decimal, away from zero: easy to read in a message, and no
    # entry is (nearly) zero, so every output element is really tested.
    return np.round(rng.choice([-1.0, 1.0], size=shape) * rng.uniform(0.5, 1.5, size=shape), 1)


def _output_dtypes(node, count):
    """The dtypes the engine hands ``node``'s backward its gradients in: its outputs' (matrix
    products refuse mixed dtypes). A built-in op's output has the dtype of its floating inputs."""
    if isinstance(node, BackwardCFunction):
        return [dtype for _, dtype in node._output_meta]
    floating = [dtype for _, dtype in node._input_meta if dtype.kind == "f"]
    return [floating[0] if floating else None] * count


def _run_backward(node, cotangents):
    """What the node's backward returns for ``cotangents``: one entry per input of forward.

    For a custom Function this calls the student's ``backward`` itself, with the
    node as ``ctx`` as ``BackwardCFunction.backward`` does, so its raw return
    (wrong count, unreduced shapes) is seen before anything fixes it up.
    """
    custom = isinstance(node, BackwardCFunction)
    # np.asarray: a 0-d cotangent is a NumPy scalar, and from_numpy takes arrays only (as PyTorch's).
    grads = [None if v is None else minigrad.from_numpy(np.asarray(v, dtype=dtype or v.dtype))
             for v, dtype in zip(cotangents, _output_dtypes(node, len(cotangents)))]
    with minigrad.no_grad(), np.errstate(all="ignore"):
        if not custom:
            result = node.backward(*grads)
        else:
            if node._materialize_grads:  # as the engine hands them over: zeros, not None
                grads = [minigrad.zeros(*shape, dtype=dtype) if g is None and dtype is not None else g
                         for g, (shape, dtype) in zip(grads, node._output_meta)]
            result = node._function_class.backward(node, *grads)
    return result if isinstance(result, tuple) else (result,)


def _check_node(node, name, rng, eps, atol, rtol, strict_shapes):
    """Compare one node's backward with finite differences of its forward; None if it is right."""
    label, where = node.name(), _made(name)
    custom = isinstance(node, BackwardCFunction)
    check_the = f"Check the backward of {_op(label)}."
    if node.released:
        return _Finding(node, f"{label}{where} has already freed what it saved for backward, so it cannot be "
                              "checked: call check_graph before loss.backward(), or use "
                              "loss.backward(retain_graph=True).")
    run, positions = _replay(node)
    arrays = list(node._forward_inputs[0])
    try:
        outputs, differentiable = run(arrays)
    except Exception as error:  # the student's forward: say what happened, do not crash
        return _Finding(node, f"Running the forward of {_op(label)} again on a copy of its inputs raised "
                              f"{type(error).__name__}: {str(error).rstrip('.')}. Check the forward of {_op(label)}.")
    ones = [np.ones(out.shape) if d else None for out, d in zip(outputs, differentiable)]
    random = [_incoming_gradient(rng, out.shape) if d else None for out, d in zip(outputs, differentiable)]

    analytic = []
    for cotangents in (ones, random):
        try:
            analytic.append(_run_backward(node, cotangents))
        except Exception as error:
            return _Finding(node, f"{label}{where} raised {type(error).__name__} when its backward ran: "
                                  f"{str(error).rstrip('.')}. "
                                  f"{check_the}")
    inputs = len(arrays) if custom else len(positions)
    if len(analytic[0]) != inputs:
        return _Finding(node, f"{label}{where} returns {_count(len(analytic[0]), 'gradient')}, but its forward "
                              f"takes {_count(inputs, 'input')}: return one gradient per input (None for an "
                              f"input that needs none). {check_the}")

    for k, position in enumerate(positions):
        x = arrays[position]
        if node.next_functions[k][0] is None or not isinstance(x, np.ndarray) or x.dtype.kind != "f":
            continue  # no gradient wanted for this input
        index = position if custom else k  # the student counts the arguments of forward
        expected = _finite_differences(run, arrays, position, (ones, random), eps)
        for attempt, (cotangents, grads) in enumerate(zip((ones, random), analytic)):
            grad, want = grads[index], expected[attempt]
            if grad is None:
                if np.allclose(want, 0, atol=atol):
                    continue  # None means zero, and zero is right
                return _Finding(node, f"{label}{where} returns None (no gradient) for its input {index}, but "
                                      f"its gradient is not zero: expected {format_values(want)} (finite "
                                      f"differences of its forward). {check_the}", index, want, None)
            if not isinstance(grad, Tensor):
                kind = "a NumPy array" if isinstance(grad, np.ndarray) else f"a {type(grad).__name__}"
                return _Finding(node, f"{label}{where} returns {kind} for its input {index}; backward must "
                                      f"return minigrad Tensors. {check_the}", index, want, None)
            got = np.asarray(grad._data, dtype=np.float64)
            if got.shape != x.shape:
                reduced = _sum_to_shape(got, x.shape)
                if reduced is None or (custom and strict_shapes):
                    why = ("a broadcast input's gradient must be summed back to its shape"
                           if reduced is not None else "a gradient must have the shape of its input")
                    return _Finding(node, f"{label}{where} returns a gradient of shape {_shape(got.shape)} for "
                                          f"input {index} of shape {_shape(x.shape)}: {why}. {check_the}",
                                    index, want, got)
                got = reduced  # a built-in op leaves this to the engine, by design
            if not np.allclose(got, want, atol=atol, rtol=rtol):
                if attempt == 0:
                    text = (f"{label}{where} returns the wrong gradient for its input {index}: expected "
                            f"{format_values(want)} (finite differences of its forward), got "
                            f"{format_values(got)}. {check_the}")
                else:
                    incoming = ", ".join(format_values(v) for v in cotangents if v is not None)
                    text = (f"{label}{where} returns the wrong gradient for its input {index} when the "
                            f"incoming gradient is {incoming}: expected {format_values(want)} (finite "
                            f"differences of its forward), got {format_values(got)}. It is right when the "
                            f"incoming gradient is all ones, so look at how the backward uses `grad`. {check_the}")
                return _Finding(node, text, index, want, got)
    return None


# --- the report ---------------------------------------------------------------------------
class GraphCheckReport:
    """What ``check_graph`` found. ``str(report)`` is the message.

    Attributes:
        ok: True if every checked node passes (and at least one was checked).
        checked: ``(node_name, ok)`` per node checked, in the engine's order.
        unchecked: names of the nodes built outside ``classroom.recording()``.
        first_wrong: the first wrong Node (closest to the loss), or None.
        node_name: its name, e.g. ``"SquareBackward"``, or None.
        input_index: which of its inputs gets the wrong gradient (None if not one input's fault).
        expected: that gradient by finite differences (a NumPy array), or None.
        got: what the node's backward returned (a NumPy array), or None.
        message: plain words for the student.
        findings: every wrong node found, first one first (``.node``, ``.message``, ...).
    """

    def __init__(self, loss, checked, unchecked, findings, message, names):
        self.loss, self.checked, self.unchecked, self.findings = loss, checked, unchecked, findings
        first = findings[0] if findings else None
        self.first_wrong = first.node if first else None
        self.node_name = first.node.name() if first else None
        self.input_index = first.input_index if first else None
        self.expected = first.expected if first else None
        self.got = first.got if first else None
        self.ok = not findings and bool(checked)
        self.message = message
        self._names = names

    def __str__(self):
        return self.message

    def __repr__(self):
        return f"<GraphCheckReport: {'ok' if self.ok else self.node_name or 'not ok'}>"

    def picture(self, legend=True, timeout=None):
        """The loss's graph with the wrong node marked ``failed`` and the message as title.

        Args:
            legend: draw the legend.
            timeout: seconds the layout may take (as in ``viz.draw``; default ``MINIGRAD_VIZ_TIMEOUT``).

        Returns:
            viz.render.Picture
        """
        return _picture(self.loss, self._names, self.first_wrong, self.message, legend, timeout)


def _picture(root, names, failed, title, legend, timeout):
    from viz.dot import to_dot
    from viz.graph import trace
    from viz.render import Picture

    data = trace(root, names=names)
    if failed is not None and id(failed) in data.ids:
        data.node(data.ids[id(failed)]).state = "failed"
    data.title = title
    return Picture(to_dot(data, legend=legend), data.summary(), timeout=timeout)


def _names_for(root, nodes, names, frame):
    """``{id: name}`` kept only for objects of this graph (which the report keeps alive)."""
    found = names_from_frame(frame) if frame is not None else {}
    found.update(names_of(names))
    keep = {id(root)} | {id(n.variable) if isinstance(n, AccumulateGrad) else id(n) for n in nodes}
    return {key: name for key, name in found.items() if key in keep}


def check_graph(loss, eps=1e-6, atol=1e-4, rtol=1e-3, *, names=None, seed=0, strict_shapes=True):
    """Check every node of ``loss``'s graph against finite differences of its own forward.

    Build the graph inside ``classroom.recording()`` first. Nodes are checked
    in the order minigrad's engine runs them, so the first wrong node reported
    is the one closest to the loss. A custom ``autograd.Function`` is checked by
    running its own ``backward`` (and, for the finite differences, its own
    ``forward`` with a fresh ``ctx``).

    Args:
        loss: the tensor whose graph to check (usually a scalar loss).
        eps: the step of the central differences (in float64).
        atol: absolute tolerance of the comparison.
        rtol: relative tolerance of the comparison.
        names: names for tensors (a dict or an ``nn.Module``), on top of the
            caller's variable names; a node is called "the node that makes `y`".
        seed: seeds the random incoming gradients, so reports repeat exactly.
        strict_shapes: for a custom Function, a gradient of a broadcast input
            must already be summed back to that input's shape (minigrad's
            engine, like PyTorch's, would sum it for you: set False to allow that).

    Returns:
        GraphCheckReport

    >>> import minigrad, classroom
    >>> x = minigrad.tensor([1.0, -2.0], requires_grad=True)
    >>> with classroom.recording():
    ...     loss = (x * x).relu().sum()
    >>> print(classroom.check_graph(loss))
    All 3 nodes pass the gradient check.
    """
    nodes = engine_order(loss) if isinstance(loss, Tensor) else []
    frame = sys._getframe(1)
    viz_names = _names_for(loss, nodes, names, frame) if nodes else {}
    node_names = _node_names(loss, viz_names) if nodes else {}
    if not nodes:
        return GraphCheckReport(loss, [], [], [], "There is no graph to check: the loss has no grad_fn, so it "
                                "was not computed from tensors that require grad (was it built under no_grad(), "
                                "or from .data / .detach()?).", viz_names)
    rng = np.random.default_rng(seed)
    checked, unchecked, findings = [], [], []
    for node in nodes:
        if isinstance(node, AccumulateGrad):
            continue  # a leaf's sink: nothing to differentiate
        if node._forward_inputs is None:
            unchecked.append(node.name())
            continue
        finding = _check_node(node, node_names.get(node), rng, eps, atol, rtol, strict_shapes)
        checked.append((node.name(), finding is None))
        if finding is not None:
            findings.append(finding)
    if findings:
        message = findings[0].message
    elif not checked:
        message = ("No node of this graph recorded its forward inputs, so nothing could be checked: build the "
                   "graph inside `with classroom.recording():`, then call check_graph.")
    elif unchecked:
        message = (f"All {len(checked)} checked nodes pass the gradient check; {len(unchecked)} built outside "
                   f"classroom.recording() were not checked: {', '.join(unchecked)}.")
    else:
        message = f"All {len(checked)} nodes pass the gradient check."
    return GraphCheckReport(loss, checked, unchecked, findings, message, viz_names)


# --- checking a student's engine ------------------------------------------------------------
class GradComparison:
    """What ``compare_grads`` found. ``str(report)`` is the message.

    Attributes:
        ok: True if the student's engine gave every leaf the right ``.grad``.
        checked: ``(leaf_name, ok)`` per named leaf, in the builder's order.
        leaf_name: the first wrong leaf's name, or None.
        expected: its gradient from minigrad's ``backward()`` (a NumPy array), or None.
        got: its ``.grad`` after the student's engine (a NumPy array, or None if unset).
        first_wrong: the node of the student's graph where things first go wrong
            (in the engine's order), or None.
        node_name: its name, or None.
        meeting: True if that node gets gradients from more than one place.
        error: the exception the student's engine raised, or None.
        message: plain words for the student.
    """

    def __init__(self, loss, checked, leaf_name=None, expected=None, got=None, first_wrong=None,
                 meeting=False, error=None, message="", names=None):
        self.loss, self.checked, self.leaf_name = loss, checked, leaf_name
        self.expected, self.got, self.error = expected, got, error
        self.first_wrong, self.meeting = first_wrong, meeting
        self.node_name = first_wrong.name() if first_wrong is not None else None
        self.ok = error is None and bool(checked) and all(ok for _, ok in checked)
        self.message = message
        self._names = names or {}

    def __str__(self):
        return self.message

    def __repr__(self):
        return f"<GradComparison: {'ok' if self.ok else self.leaf_name or 'not ok'}>"

    def picture(self, legend=True, timeout=None):
        """The student's graph with the node where things go wrong marked ``failed``.

        Args:
            legend: draw the legend.
            timeout: seconds the layout may take (as in ``viz.draw``; default ``MINIGRAD_VIZ_TIMEOUT``).

        Returns:
            viz.render.Picture
        """
        return _picture(self.loss, self._names, self.first_wrong, self.message, legend, timeout)


def _build(build_graph):
    """``(loss, {name: tensor})`` from a builder returning a dict (with ``"loss"``) or ``(loss, dict)``."""
    built = build_graph()
    if isinstance(built, tuple):
        loss, named = built
    else:
        named = dict(built)
        if "loss" not in named:
            raise ValueError("build_graph must return a dict of tensors with a 'loss' entry, or (loss, dict)")
        loss = named["loss"]
    return loss, {name: t for name, t in named.items() if isinstance(t, Tensor)}


def _watch(nodes):
    """Record what each node's backward receives; returns (received, undo)."""
    received = {}

    def watcher(node, backward):
        def watched(*grads):
            received.setdefault(node, []).append(
                [None if g is None else np.array(g._data, dtype=np.float64) for g in grads])
            return backward(*grads)
        return watched

    for node in nodes:
        node.backward = watcher(node, node.backward)  # on the instance only: the class is untouched

    def undo():
        for node in nodes:
            node.__dict__.pop("backward", None)

    return received, undo


def _sum_received(calls, count):
    """What a node received over all its backward calls, added up per output."""
    total = [None] * count
    for grads in calls:
        for i, g in enumerate(grads[:count]):
            if g is not None:
                total[i] = g.copy() if total[i] is None else total[i] + g
    return total


def _same(a, b, atol, rtol):
    if a is None or b is None:
        return (a is None or not np.any(a)) and (b is None or not np.any(b))
    return a.shape == b.shape and np.allclose(a, b, atol=atol, rtol=rtol)


def compare_grads(student_fn, build_graph, atol=1e-5, rtol=1e-4):
    """Run a student's engine and minigrad's ``backward()`` on the same graph; compare the leaves.

    ``build_graph()`` is called twice and must build the same graph both times
    (seed anything random inside it). It returns a dict of named tensors with a
    ``"loss"`` entry, or ``(loss, dict)``; the leaves that require grad are
    compared by those names. ``student_fn(loss)`` must fill the leaves' ``.grad``.

    While the student's engine runs, each node's ``backward`` is watched, so the
    report can name the first node (in minigrad's order) that received the
    wrong gradient: typically a node where two paths meet and the gradients
    were overwritten instead of added.

    Args:
        student_fn: the student's engine, called as ``student_fn(loss)``.
        build_graph: builds the graph, as above.
        atol: absolute tolerance.
        rtol: relative tolerance.

    Returns:
        GradComparison

    >>> import minigrad, classroom
    >>> def build():
    ...     x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    ...     return {"x": x, "loss": (x * x).sum()}
    >>> classroom.compare_grads(lambda loss: loss.backward(), build).ok
    True
    """
    student_loss, student_named = _build(build_graph)
    real_loss, real_named = _build(build_graph)
    student_nodes, real_nodes = _walk(student_loss), _walk(real_loss)
    if [n.name() for n in student_nodes] != [n.name() for n in real_nodes]:
        raise ValueError("build_graph built two different graphs; it must build the same graph every call")
    for name, t in student_named.items():
        if not np.array_equal(t._data, real_named[name]._data, equal_nan=True):
            raise ValueError(f"build_graph gave `{name}` different values on two calls; seed anything random "
                             "inside it so it builds the same graph every time")
    leaves = [(name, t) for name, t in student_named.items() if t.grad_fn is None and t.requires_grad]
    if not leaves:
        raise ValueError("build_graph's dict names no leaf that requires grad, so there is nothing to compare")
    names = {id(t): name for name, t in student_named.items()}
    names.update({id(t.grad_fn): name for name, t in student_named.items() if t.grad_fn is not None})

    # The right answer, and what every node received, from minigrad's own engine.
    real_received = {}
    with observe(lambda step: real_received.setdefault(step.node, step.grad_outputs)):
        real_loss.backward()
    pair = dict(zip(student_nodes, real_nodes))

    received, undo = _watch(student_nodes)
    try:
        student_fn(student_loss)
    except Exception as error:  # the student's code: report it, the teacher can re-raise report.error
        return GradComparison(student_loss, [], error=error, names=names,
                              message=f"Your backward raised {type(error).__name__}: {error}")
    finally:
        undo()

    checked, wrong = [], []
    for name, leaf in leaves:
        want = real_named[name]._grad
        want = None if want is None else np.asarray(want._data, dtype=np.float64)
        got = None if leaf._grad is None else np.asarray(leaf._grad._data, dtype=np.float64)
        ok = _same(got, want, atol, rtol)
        checked.append((name, ok))
        if not ok:
            wrong.append((name, want, got))
    if not wrong:
        return GradComparison(student_loss, checked, names=names, message=(
            f"Your backward gives all {len(checked)} leaves the same gradients as minigrad's backward()."))

    name, want, got = wrong[0]
    text = (f"`{name}.grad` should be {format_values(want) if want is not None else 'None'} (from minigrad's "
            f"backward()), but your backward gave {format_values(got) if got is not None else 'None'}.")
    if len(wrong) > 1:
        text += f" Also wrong: {', '.join(f'`{n}.grad`' for n, _, _ in wrong[1:])}."

    culprit, meeting, where = _where_it_goes_wrong(student_loss, real_named, names, pair, received,
                                                   real_received, atol, rtol)
    return GradComparison(student_loss, checked, name, want, got, culprit, meeting, None, f"{text} {where}".strip(),
                          names)


def _sources(parents):
    """``"SinBackward0 and ExpBackward0"``, ``"MulBackward0 twice"``: where a node's gradients come from."""
    counts = {}
    for parent in parents:
        counts[parent.name()] = counts.get(parent.name(), 0) + 1
    words = [name if n == 1 else f"{name} twice" if n == 2 else f"{name} {n} times" for name, n in counts.items()]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _where_it_goes_wrong(loss, real_named, names, pair, received, real_received, atol, rtol):
    """``(node, meeting, sentence)``: the first node, in the engine's order, whose gradient is wrong.

    An inner node is judged by what the student's engine handed its backward
    (added up over calls), a leaf by its ``.grad``. A node with several parents
    is where paths meet: the classic bug there is overwriting instead of adding.
    """
    parents = graph_parents(loss.grad_fn)
    node_names = _node_names(loss, names)

    def array(t):
        return None if t is None else np.asarray(t._data, dtype=np.float64)

    for node in engine_order(loss):
        if isinstance(node, AccumulateGrad):
            if id(node.variable) not in names:
                continue
            should, given = array(real_named[names[id(node.variable)]]._grad), array(node.variable._grad)
            what, its = f"`{names[id(node.variable)]}`", "its .grad should be"
        elif node in received:
            should = [array(g) for g in real_received.get(pair[node], ())][:1]
            given = _sum_received(received[node], node.num_outputs)[:1]
            should, given = (should or [None])[0], given[0]
            what, its = f"{node.name()}{_made(node_names.get(node))}", "it should receive"
        else:
            continue  # the student's engine never called this node's backward itself
        if _same(given, should, atol, rtol):
            continue
        shown = format_values(given) if given is not None else "nothing"
        if len(parents.get(node, ())) > 1:
            return node, True, (
                f"{what} gets gradients from {len(parents[node])} places ({_sources(parents[node])}), so {its} "
                f"their sum {format_values(should)}, but your engine gave it {shown}: when gradients arrive from "
                "more than one path, add them up instead of overwriting.")
        if not received:  # no backward was watched: point at where paths meet on the way, if anywhere
            below = nodes_on_a_path(loss.grad_fn, ends={node}) | {node}
            for meet in engine_order(loss):
                if len(parents.get(meet, ())) > 1 and meet in below:
                    return meet, True, (
                        f"Gradients from {len(parents[meet])} paths meet at {meet.name()}"
                        f"{_made(node_names.get(meet))} ({_sources(parents[meet])}) on the way to {what}: check that "
                        "your engine adds them up there instead of overwriting.")
        return node, False, (f"The first place it goes wrong is {what}: {its} "
                             f"{format_values(should) if should is not None else 'nothing'}, but your engine gave "
                             f"it {shown}.")
    return None, False, ""
