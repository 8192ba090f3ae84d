"""The backward pass: the chain rule, run over the graph one node at a time.

Read this file top to bottom:

1. ``plan_backward`` walks the graph from the outputs once, with an explicit
   stack (no recursion, so a chain of a million nodes is fine), and counts for
   every node how many edges point at it: its *dependencies*. With ``inputs=``
   it also works out which nodes lie on a path to those inputs; the rest never run.
2. ``ReadyQueue`` holds the gradients in flight, one buffer per node. A node is
   *ready* once every edge into it has delivered, so it runs exactly once, with
   the sum of everything it received; the newest ready node runs first.
3. ``iter_backward`` is the loop: take a ready node, run it (``_run_node``: the
   chain rule, ``node.backward(grad_outputs)``, one gradient per input), pass each
   input's gradient on to the node that produced that input (``next_functions``).
   With ``retain_graph=False`` a node releases the tensors it saved once it ran;
   a second backward through it then fails loudly.

``iter_backward`` is a generator: it yields one ``BackwardStep`` per node, so
``backward()`` and ``grad()`` are thin loops over it, and ``viz`` replays the
very same steps. (A plain ``loss.backward()``, which nobody watches, runs the
same pass written out as one loop: ``fast_backward.py``.) With ``preview=True``
the same loop only *reports* what it would write into ``.grad`` and what it
would free, and changes neither.

Without ``create_graph`` nothing a formula computes is recorded, so the gradients in
flight are ``PlainGradient`` s: Tensors whose arithmetic goes straight to NumPy
(``plain_backward.py``). Hooks, custom Functions and whatever the user receives
get plain Tensors.
"""

import heapq
import itertools
import warnings
import weakref

import numpy as np

from . import messages
from .fast_path import FreshGradients, graph_released, warnings_back, warnings_off
from .graph import AccumulateGrad, accumulate_grad, nodes_on_a_path
from .plain_backward import PlainGradient, gradient, in_flight, plain, plain_all
from .grad_mode import _state, set_grad_mode
from .tensor import Tensor, _retaining


class BackwardStep:
    """What the engine did at one node: the record ``iter_backward`` yields.

    Attributes:
        index: 0 for the first node run, then 1, 2, ...
        node: the Node.
        executed: False if the node was only reached to capture a gradient
            (``inputs=`` / ``autograd.grad``) or received no gradient.
        grad_outputs: gradients with respect to the node's outputs (after hooks),
            one per output.
        grad_inputs: what ``node.backward`` returned, one per entry of
            ``node.next_functions`` (None where no gradient flows); ``()`` for
            ``AccumulateGrad``.
        accumulated: ``(tensor, before, after)`` for each ``.grad`` written at this
            step (a leaf's, a ``retain_grad()`` tensor's, a non-leaf ``inputs=``).
            ``before``/``after`` are NumPy copies when values are recorded (and in a
            preview, where nothing is written), else None.
        captured: ``(position, grad)`` for each ``inputs[position]`` whose gradient was
            taken at this node.
        released: names of the saved tensors freed after the node ran (in a preview:
            the names that would be freed).
        pending: the live dependency counts (node -> edges still to arrive); copy
            it to keep a snapshot.
    """

    __slots__ = ("index", "node", "executed", "grad_outputs", "grad_inputs",
                 "accumulated", "captured", "released", "pending")

    def __init__(self, index, node, executed, grad_outputs, grad_inputs, accumulated, captured, released, pending):
        self.index = index
        self.node = node
        self.executed = executed
        self.grad_outputs = grad_outputs
        self.grad_inputs = grad_inputs
        self.accumulated = accumulated
        self.captured = captured
        self.released = released
        self.pending = pending

    def __repr__(self):
        return f"<BackwardStep {self.index}: {self.node.name()}>"


# --- 1. the plan ------------------------------------------------------------------------------
class Plan:
    """What a backward pass will do, worked out before any node runs.

    Attributes:
        root_edges: ``(node, output_nr)`` where each output's gradient enters.
        dependencies: ``{node: edges into it}`` from nodes that run (the ready queue's counts).
        runs: None (every node reached runs) or, with ``inputs=``, the set of nodes that run.
        captures: ``{(node, output_nr): [positions in inputs]}``: where ``inputs=`` gradients are taken.
        capture_nodes: the nodes of ``captures`` (None without ``inputs=``).
        accumulate_grad: True for ``backward()``, False for ``grad()``.
    """

    def __init__(self, root_edges, dependencies, runs, captures, capture_nodes, accumulate_grad):
        self.root_edges, self.dependencies, self.runs = root_edges, dependencies, runs
        self.captures, self.capture_nodes, self.accumulate_grad = captures, capture_nodes, accumulate_grad

    def will_execute(self, node):
        """Whether this pass runs ``node`` (PyTorch's ``_will_engine_execute_node``)."""
        if self.runs is None:
            return node in self.dependencies
        if not self.accumulate_grad and isinstance(node, AccumulateGrad):
            raise RuntimeError(messages.WILL_EXECUTE_LEAF_IN_GRAD)
        return node in self.runs or node in self.capture_nodes

    def runs_node(self, node):
        """Whether ``node`` runs (computes and sends on) in this pass, if its gradient arrives."""
        return self.runs is None or node in self.runs

    def wanted(self, node):
        """None (send every gradient) or one bool per input: is it on a path to ``inputs=``?"""
        if self.runs is None:
            return None
        return [child is not None and (child in self.runs or child in self.capture_nodes)
                for child, _ in node.next_functions]


def plan_backward(roots, inputs=None, accumulate_grad=True):
    """Count dependencies and, with ``inputs=``, find the nodes that must run.

    Args:
        roots: the output tensors (or ``GradientEdge``-like objects) backward starts from.
        inputs: None, or the tensors whose gradients are wanted.
        accumulate_grad: True for ``backward()`` (a leaf in ``inputs`` gets its
            ``AccumulateGrad`` run), False for ``grad()`` (gradients are only captured).

    Returns:
        Plan
    """
    root_edges = [root._gradient_edge() for root in roots]
    root_nodes = list(dict.fromkeys(node for node, _ in root_edges))
    captures, capture_nodes, runs = {}, None, None
    if inputs is not None:
        targets = set()  # nodes that must run themselves: a leaf's AccumulateGrad, a non-leaf's grad_fn
        for position, tensor in enumerate(inputs):
            node, output_nr = tensor._gradient_edge()
            if accumulate_grad:
                targets.add(node)  # (a non-leaf's grad_fn runs: PyTorch runs it, see _chain_rule)
                if tensor.grad_fn is None:
                    continue  # a leaf: its AccumulateGrad writes .grad, nothing to capture
            captures.setdefault((node, output_nr), []).append(position)
        capture_nodes = {node for node, _ in captures}
        runs = nodes_on_a_path(root_nodes, capture_nodes, targets)

    # Walk every edge once from the roots, with an explicit stack (no recursion),
    # counting the edges into each node (as PyTorch's compute_dependencies).
    dependencies = dict.fromkeys(root_nodes, 0)
    stack = list(dependencies)
    while stack:
        node = stack.pop()
        if runs is not None and node not in runs:
            continue  # a node that does not run sends nothing
        for child, _ in node.next_functions:
            if child is None or (runs is not None and child not in runs and child not in capture_nodes):
                continue
            if child in dependencies:
                dependencies[child] += 1
            else:
                dependencies[child] = 1
                stack.append(child)  # first time reached: walk on from it
    for node, _ in root_edges:
        dependencies[node] += 1  # an output's gradient is one more edge into its node
    return Plan(root_edges, dependencies, runs, captures, capture_nodes, accumulate_grad)


# --- 2. the ready queue -----------------------------------------------------------------------
class ReadyQueue:
    """Gradients in flight, one buffer per node, and the nodes ready to run.

    ``send`` delivers one edge; the node's last edge makes it ready. ``pop`` gives
    the newest ready node, as PyTorch's engine does (AccumulateGrad's sequence number
    is infinite, so a leaf's ``.grad`` is written as soon as it is complete). A sum of
    two gradients is the engine's own: it goes into ``fresh`` (``fast_path.FreshGradients``).
    """

    def __init__(self, dependencies, fresh=None):
        self.pending = dependencies  # node -> edges still to arrive
        self.buffers = {}  # node -> [gradient per output], summed as edges arrive
        self.fresh = fresh
        self._ready = []
        self._tiebreak = itertools.count()  # heap entries must never compare two nodes

    def send(self, node, output_nr, grad):
        """Deliver one edge into ``node`` (``grad`` may be None: the edge still counts)."""
        if grad is not None:
            grads = self.buffers.get(node)
            if grads is None:
                grads = self.buffers[node] = [None] * node.num_outputs
            if grads[output_nr] is None:
                grads[output_nr] = grad
            else:
                # (Without create_graph both are PlainGradients: NumPy's sum; else the op, recorded.)
                first = grads[output_nr]
                grads[output_nr] = first + grad
                if self.fresh is not None and type(node) is AccumulateGrad:
                    self.fresh.summed(first, grad, grads[output_nr])
        left = self.pending[node] = self.pending[node] - 1
        if not left:
            heapq.heappush(self._ready, (-node._sequence_nr, next(self._tiebreak), node))

    def pass_on(self, node, grad_inputs, wanted):
        """Send each input's gradient to the node that produced that input (None: nothing to send)."""
        send = self.send
        for index, (child, output_nr) in enumerate(node.next_functions):
            if child is not None and (wanted is None or wanted[index]):
                send(child, output_nr, None if grad_inputs is None else grad_inputs[index])

    def pop(self):
        """``(node, grad_outputs)`` of the next node to run, or None when the pass is over."""
        if not self._ready:
            return None
        node = heapq.heappop(self._ready)[2]
        return node, self.buffers.pop(node, None) or [None] * node.num_outputs


def execution_order(roots):
    """The nodes a plain ``backward()`` from ``roots`` runs, in the order it runs them.

    The engine's own plan and ready queue, with no gradients: the order depends only
    on the graph (a node runs once every edge into it has delivered; newest first).

    >>> import minigrad
    >>> x = minigrad.tensor(1.0, requires_grad=True)
    >>> [node.name() for node in execution_order([(x.exp() * 2).sum()])]
    ['SumBackward0', 'MulBackward0', 'ExpBackward0', 'torch::autograd::AccumulateGrad']
    """
    plan = plan_backward(roots)
    queue = ReadyQueue(plan.dependencies)
    for node, output_nr in plan.root_edges:
        queue.send(node, output_nr, None)
    order = []
    while (entry := queue.pop()) is not None:
        order.append(entry[0])
        queue.pass_on(entry[0], None, None)
    return order


# --- 3. the loop ------------------------------------------------------------------------------
def iter_backward(roots, root_grads, retain_graph=False, create_graph=False,
                  inputs=None, accumulate_grad=True, record_values=False, preview=False):
    """Run the backward pass, yielding a ``BackwardStep`` after each node.

    Args:
        roots: the output tensors (each must have a ``grad_fn`` or require grad).
        root_grads: d(loss)/d(root) for each root, already of the root's shape.
        retain_graph: if False, each node releases its saved tensors after running.
        create_graph: record the backward computations, for higher derivatives.
        inputs: None, or the tensors whose gradients are wanted; then only
            nodes on a path to them run.
        accumulate_grad: True for ``backward()`` (write ``.grad``), False for
            ``grad()`` (only capture, report in ``BackwardStep.captured``).
        record_values: put NumPy copies of ``.grad`` before/after in each step.
        preview: run the chain rule and the hooks, but write no ``.grad`` and free no
            saved tensor: the steps say what a real pass would write and free.

    Yields:
        BackwardStep

    >>> import minigrad
    >>> x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    >>> steps = list(iter_backward([(x * x).sum()], [minigrad.tensor(1.0)], preview=True))
    >>> [(step.node.name(), step.released) for step in steps]
    [('SumBackward0', ()), ('MulBackward0', ('self', 'other')), ('torch::autograd::AccumulateGrad', ())]
    >>> steps[-1].accumulated[0][2], x.grad
    (array([2., 4.], dtype=float32), None)
    """
    if _retaining:
        _follow_in_place_changes()
    plan = plan_backward(roots, inputs, accumulate_grad)
    write = _GradWriter(create_graph, record_values, preview)
    queue = ReadyQueue(plan.dependencies, write.fresh)
    for (node, output_nr), grad in zip(plan.root_edges, root_grads):
        # Without create_graph the gradients in flight are PlainGradients (see plain_backward).
        queue.send(node, output_nr, grad if create_graph or grad is None else gradient(grad._data))
    index = 0
    while (entry := queue.pop()) is not None:
        node, grads = entry
        # As in PyTorch, a node runs in grad mode ``create_graph``, its hooks too (not across a yield).
        previous_mode = _state.grad_enabled
        set_grad_mode(create_graph)
        try:
            step = _run_node(index, node, grads, plan, queue, write, inputs, retain_graph, create_graph)
        finally:
            set_grad_mode(previous_mode)
        yield step
        step = None  # (a record held here would hold its gradients: a leaf could not keep one)
        index += 1
    if not (retain_graph or preview):
        graph_released()  # (fast_path: the garbage collector's pace for long graphs)


def _run_node(index, node, grads, plan, queue, write, inputs, retain_graph, create_graph, records=True):
    """One node: its tensors' hooks, then the chain rule, then pass the gradients on.

    (Written for the common node, which has no hooks, no ``retain_grad`` and one output, and
    runs in a pass without ``inputs=``: each rarer case is one test, then a helper.) With
    ``records=False`` it returns None instead of the step (``fast_backward`` sends here the
    nodes it does not run itself).
    """
    if plan.captures or node._retain_grad is not None or node.num_outputs != 1 or node._tensor_hooks(0):
        grads, accumulated, captured = _receive(node, grads, plan, write, inputs)
    else:
        accumulated = captured = ()
    runs = plan.runs is None or node in plan.runs
    if not runs or (grads[0] is None and not _any_gradient(grads)):
        if runs:  # ran with nothing to send: still release the edges
            queue.pass_on(node, None, None)
        return BackwardStep(index, node, False, plain_all(grads), (), tuple(accumulated), tuple(captured), (),
                            queue.pending)

    if node._pre_hooks:
        write.seen_by_hooks(grads)
        grads = list(_run_node_hooks(node._pre_hooks, plain_all(grads)))
    wanted = None if plan.runs is None else plan.wanted(node)
    if type(node) is AccumulateGrad:
        accumulated = (*accumulated, write(node.variable, grads[0], leaf=True))  # what AccumulateGrad.backward does
        grad_inputs = ()
    else:
        grad_inputs = _chain_rule(node, grads, wanted, create_graph)
        if write.fresh is not None:
            write.computed(node, grad_inputs, grads)
    if node._post_hooks:
        grad_inputs = _run_node_hooks(node._post_hooks, plain_all(grad_inputs), plain_all(grads))
    released = () if retain_graph else node.release(write.preview)
    queue.pass_on(node, grad_inputs, wanted)
    if not records:
        return None
    return BackwardStep(index, node, True, plain_all(grads), plain_all(grad_inputs), tuple(accumulated),
                        tuple(captured), released, queue.pending)


def _receive(node, grads, plan, write, inputs):
    """The gradients arriving at ``node``'s outputs: run the tensor hooks on them, then
    ``retain_grad()`` writes and ``inputs=`` captures.

    Returns:
        (grads, accumulated, captured) for the step record.
    """
    accumulated, captured = [], []
    if not (plan.captures or node._retain_grad or node._tensor_hooks(0)) and node.num_outputs == 1:
        return grads, accumulated, captured  # the common case: nothing to do here
    for output_nr, grad in enumerate(grads):
        if grad is None:
            continue
        hooks = node._tensor_hooks(output_nr)
        if hooks:
            write.seen_by_hooks((grad,))
            grad = grads[output_nr] = _run_tensor_hooks(hooks, plain(grad), plan)
        retained = node._retained_tensor(output_nr)
        if retained is not None:
            accumulated.append(write(retained, grad))
        for position in plan.captures.get((node, output_nr), ()):
            captured.append((position, plain(grad)))
            if plan.accumulate_grad and retained is None:
                accumulated.append(write(inputs[position], grad))  # a non-leaf in backward(inputs=)
    return grads, accumulated, captured


def _any_gradient(grads):
    """Whether any output received a gradient (checks the common first slot before the loop)."""
    return grads[0] is not None or any(grad is not None for grad in grads)


def _chain_rule(node, grads, wanted, create_graph):
    """``node.backward(*grads)``, checked by ``fit_gradients``, recorded only for ``create_graph``.

    ``wanted`` is None (every input's gradient is wanted) or one bool per input. With
    ``inputs=``, a built-in node computes only the gradients on a path to them (PyTorch's
    ``should_compute_output``); it computes none when it runs only because its output is
    one of the ``inputs`` of ``backward`` (PyTorch runs it: its hooks fire, it frees what
    it saved). A custom Function's backward always computes them all, as in PyTorch.
    """
    masked = wanted is not None and node.computes_only_wanted_gradients
    if masked and not any(wanted):
        return (None,) * len(node.next_functions)
    quiet = warnings_off()  # nan/inf arise silently, as in PyTorch
    try:
        if not node.takes_plain_gradients:
            grads = plain_all(grads)  # the user's code (a custom Function's backward) sees Tensors
        grad_inputs = fit_gradients(node, node.backward(*grads))
        if not create_graph:
            grad_inputs = in_flight(grad_inputs)  # (a formula's Node.apply gave a Tensor: relu's)
        if _state.anomaly_enabled and _state.anomaly_check_nan:
            _check_nan(node, grad_inputs)
    except Exception:
        if _state.anomaly_enabled and node._forward_trace:
            # As PyTorch's anomaly mode: say where the failing node was made, then fail.
            warnings.warn(messages.ANOMALY_TRACE.format(name=node.name(), trace=node._forward_trace),
                          UserWarning, stacklevel=6)
        raise
    finally:
        warnings_back(quiet)
    if masked:
        grad_inputs = tuple(grad if want else None for grad, want in zip(grad_inputs, wanted))
    return grad_inputs


def fit_gradients(node, grad_inputs):
    """Make each gradient ``node.backward`` returned fit its input: same count, shape and dtype.

    A gradient of a broadcast input arrives with the broadcast shape; summing
    it back down to the input's shape is the adjoint of broadcasting, done
    here once so that every op's backward can stay the textbook formula.
    """
    if not isinstance(grad_inputs, tuple):
        grad_inputs = (grad_inputs,)
    if len(grad_inputs) != len(node.next_functions):
        raise RuntimeError(messages.WRONG_NUMBER_OF_GRADIENTS.format(
            name=node.name(), expected=len(node.next_functions), got=len(grad_inputs)))
    # Most formulas return gradients that fit already: look first, change only if one does not.
    # (A dtype equal to the input's but another object goes the long way, and is kept there.)
    for grad, (child, _), (shape, dtype) in zip(grad_inputs, node.next_functions, node._input_meta):
        if grad is not None and (child is None or (type(grad) is not PlainGradient and type(grad) is not Tensor)
                                 or grad._data.shape != shape or grad._data.dtype is not dtype):
            break
    else:
        return grad_inputs
    fitted = []
    for grad, (child, _), (shape, dtype) in zip(grad_inputs, node.next_functions, node._input_meta):
        if grad is None or child is None:
            fitted.append(None)
            continue
        array = grad._data if isinstance(grad, Tensor) else grad  # (cheaper than the Tensor's own shape)
        if array.shape != shape:
            try:
                grad = grad.sum_to_size(shape)
            except (ValueError, RuntimeError):
                raise RuntimeError(messages.INVALID_GRADIENT_SHAPE.format(
                    name=node.name(), index=len(fitted), got=messages.format_shape(grad.shape),
                    expected=messages.format_shape(shape))) from None
        if array.dtype != dtype:
            grad = grad.to(dtype)
        fitted.append(grad)
    return tuple(fitted)


def _check_nan(node, grad_inputs):
    for index, grad in enumerate(grad_inputs):
        if grad is not None and np.isnan(grad._data).any():
            raise RuntimeError(messages.ANOMALY_NAN.format(name=node.name(), index=index))


class _GradWriter:
    """Every ``.grad`` write of a pass goes through here (the adding is ``graph.accumulate_grad``).

    Calling it returns the step record's ``(tensor, before, after)``. In a preview it
    writes nothing: ``after`` is the sum ``accumulate_grad`` would store.

    ``fresh`` follows the gradients only the engine holds (``fast_path.FreshGradients``): a
    leaf keeps such a one as its first ``.grad`` without a copy. Not when recording (each
    ``.grad`` is then a graph of its own), nor when the values are recorded (viz shows the
    gradients of a step later, and a kept one would change with the ``.grad`` it became).
    """

    def __init__(self, create_graph, record_values, preview):
        self.create_graph, self.preview = create_graph, preview
        self.record_values = record_values or preview
        self.fresh = None if create_graph or self.record_values else FreshGradients()

    def computed(self, node, grad_inputs, grad_outputs):
        """``node``'s formula returned ``grad_inputs``: the new ones that go to a leaf are the engine's own.

        Not a custom Function's (its backward may return a tensor the user holds), nor those
        a node post-hook will see.
        """
        if self.fresh is None or not node.computes_only_wanted_gradients or node._post_hooks:
            return
        for grad, (child, _) in zip(grad_inputs, node.next_functions):
            if grad is not None and type(child) is AccumulateGrad:
                self.fresh.add_result(grad, grad_inputs, grad_outputs)

    def seen_by_hooks(self, grads):
        """A hook is about to see ``grads``: it may keep them."""
        if self.fresh is not None:
            self.fresh.forget(grads)

    def __call__(self, tensor, grad, leaf=False):
        before = None
        if self.record_values and tensor._grad is not None:
            before = tensor._grad._data.copy()
        if self.preview:
            after = np.array(grad._data, dtype=tensor._data.dtype) if before is None else \
                (before + grad._data).astype(before.dtype, copy=False)
            return (tensor, before, after)
        keep = leaf and self.fresh is not None and self.fresh.take(grad, tensor._data)
        accumulate_grad(tensor, grad, keep)  # (in grad mode create_graph: see iter_backward)
        after = tensor._grad._data.copy() if self.record_values else None
        return (tensor, before, after)


# --- hooks ------------------------------------------------------------------------------------
def _follow_in_place_changes():
    """Move each ``retain_grad()`` to its tensor's current ``grad_fn``.

    An in-place op (``y.mul_(2)``, or a write through a view of ``y``) gives ``y`` a new
    ``grad_fn``; as PyTorch moves the retains_grad hook there, ``y.grad`` is then the
    gradient of the new values of ``y``. (The old node stops retaining: see
    ``Node._retained_tensor``.)
    """
    for tensor in list(_retaining.values()):
        node = tensor.grad_fn  # (a view's grad_fn is brought up to date here)
        if node is None or node._retained_tensor(tensor.output_nr) is tensor:
            continue
        if node._retain_grad is None:
            node._retain_grad = {}
        node._retain_grad[tensor.output_nr] = weakref.ref(tensor)


def _run_tensor_hooks(hooks, grad, plan):
    """Call each ``tensor.register_hook`` hook in turn; one that returns a tensor replaces ``grad``.

    While they run, ``grad_mode._state.graph_task`` is this pass's plan, for hooks that
    ask what the pass will run (``register_multi_grad_hook``).
    """
    previous, _state.graph_task = _state.graph_task, plan
    try:
        for hook in tuple(hooks):
            new = hook(grad)
            if new is not None:
                _check_hook_result(hook, grad, new)
                grad = new
    finally:
        _state.graph_task = previous  # (None outside a pass: a plan holds its graph's nodes)
    return grad


def _run_node_hooks(hooks, values, *more):
    """Call each node pre-hook (``hook(grad_outputs)``) or post-hook (``hook(grad_inputs, grad_outputs)``);
    one that returns a tuple replaces ``values``."""
    for hook in tuple(hooks):
        new = hook(values, *more)
        if new is None:
            continue
        if not isinstance(new, tuple):
            raise TypeError(messages.HOOK_RETURNED_NOT_TUPLE.format(type=type(new).__name__))
        if len(new) != len(values):
            raise RuntimeError(messages.HOOK_WRONG_NUMBER.format(
                name=_hook_name(hook), got=len(new), expected=len(values)))
        for old, replacement in zip(values, new):
            if replacement is not None:
                if old is None:
                    raise RuntimeError(messages.HOOK_REPLACED_NONE)
                _check_hook_result(hook, old, replacement)
        values = new
    return values


def _check_hook_result(hook, grad, new):
    """A hook may replace a gradient only by a tensor of the same dtype and shape (PyTorch's checks)."""
    if not isinstance(new, Tensor):
        raise TypeError(messages.HOOK_RETURNED_NOT_TENSOR.format(type=type(new).__name__))
    if new.dtype != grad.dtype:
        raise RuntimeError(messages.HOOK_CHANGED_TYPE.format(
            name=_hook_name(hook), was=messages.legacy_type_name(grad.dtype), got=messages.legacy_type_name(new.dtype)))
    if new.shape != grad.shape:
        raise RuntimeError(messages.HOOK_CHANGED_SIZE.format(name=_hook_name(hook)))


def _hook_name(hook):
    return getattr(hook, "__name__", "<unknown>")


# --- checking what backward() and grad() were given -------------------------------------------
def make_root_grads(outputs, grads, is_grads_batched=False):
    """One gradient per output: given ones checked for shape, implicit ones for scalars.

    With ``is_grads_batched``, each given gradient holds a batch of them along its first dimension.

    >>> import minigrad
    >>> make_root_grads([minigrad.tensor(2.0, requires_grad=True) * 3], [None])
    [tensor(1.)]
    """
    new_grads = []
    for index, (out, grad) in enumerate(zip(outputs, grads)):
        if grad is None:
            if out.requires_grad and out.numel() != 1:
                raise RuntimeError(messages.IMPLICIT_GRAD_NOT_SCALAR)
            # (ones_like's array without its argument checks: this runs at every backward())
            new_grads.append(Tensor._wrap(np.ones(out._data.shape, out._data.dtype)) if out.requires_grad else None)
            continue
        if not isinstance(grad, Tensor):
            raise TypeError(messages.GRADIENT_NOT_TENSOR.format(type=type(grad).__name__))
        if is_grads_batched:
            if grad.shape[1:] != out.shape:
                raise RuntimeError(messages.BATCHED_GRAD_SHAPE_MISMATCH.format(
                    index=index, grad_shape=messages.format_size(grad.shape[1:]),
                    output_shape=messages.format_size(out.shape)))
        elif grad.shape != out.shape:
            raise RuntimeError(messages.SHAPE_MISMATCH.format(
                index=index, grad_shape=messages.format_size(grad.shape),
                output_shape=messages.format_size(out.shape)))
        new_grads.append(grad if grad.dtype == out.dtype else grad.to(out.dtype))
    return new_grads


def check_roots(outputs):
    """PyTorch's error for an output no backward can start from (it needs no gradient)."""
    for index, out in enumerate(outputs):
        if not out.requires_grad or (out.grad_fn is None and out._no_grad_view):
            raise RuntimeError(messages.NO_GRAD_FN.format(index=index))
