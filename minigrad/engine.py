"""The backward pass: the chain rule, run over the graph one node at a time.

Read this file top to bottom:

1. ``_plan`` walks the graph from the outputs once, with an explicit stack
   (no recursion, so a chain of a million nodes is fine), and counts for every
   node how many edges point at it: its *dependencies*. With ``inputs=`` it
   also works out which nodes lie on a path to those inputs, and prunes the rest.
2. ``iter_backward`` puts the output gradients into per-node buffers and runs
   a *ready queue*: a node is ready once every node that sends it a gradient
   has run, so it runs exactly once, with the sum of everything it receives.
   Running a node is the chain rule: ``node.backward(grad_outputs)`` returns
   one gradient per input, and each is added into the buffer of the node
   that produced that input (``next_functions``).
3. After a node has run, ``retain_graph=False`` releases the tensors it saved
   during the forward pass; a second backward through it then fails loudly.

``iter_backward`` is a generator: it yields one ``BackwardStep`` per node, so
``backward()`` and ``grad()`` are thin loops over it, and ``viz`` replays the
very same steps to draw them.
"""

import heapq
import itertools
import warnings
import weakref

import numpy as np

from . import messages
from .function import AccumulateGrad, accumulate_into
from .grad_mode import _state
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
            ``before``/``after`` are NumPy copies when values are recorded, else None.
        captured: ``(position, grad)`` for each ``inputs[position]`` whose gradient was
            taken at this node.
        released: names of the saved tensors freed after the node ran.
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


class GraphTask:
    """What one backward pass will run, for hooks that need to know (``register_multi_grad_hook``).

    While a pass calls tensor hooks, ``grad_mode._state.graph_task`` is its GraphTask.
    """

    __slots__ = ("dependencies", "runs", "capture_nodes", "accumulate_grad", "__weakref__")

    def __init__(self, dependencies, runs, capture_nodes, accumulate_grad):
        self.dependencies, self.runs, self.capture_nodes = dependencies, runs, capture_nodes
        self.accumulate_grad = accumulate_grad

    def will_execute(self, node):
        """Whether this pass runs ``node`` (PyTorch's ``_will_engine_execute_node``)."""
        if self.runs is None:
            return node in self.dependencies
        if not self.accumulate_grad and isinstance(node, AccumulateGrad):
            raise RuntimeError(messages.WILL_EXECUTE_LEAF_IN_GRAD)
        return node in self.runs or node in self.capture_nodes


def _plan(root_nodes, capture_nodes, execute_targets):
    """Count dependencies, and with ``inputs=`` find the nodes that must run.

    Args:
        root_nodes: the nodes the output gradients enter at.
        capture_nodes: nodes where a gradient is taken (``inputs=``), or None for
            a plain backward that runs everything it reaches.
        execute_targets: AccumulateGrad nodes that must run (leaf ``inputs=``).

    Returns:
        (dependencies, runs): ``dependencies[node]`` is the number of edges into
        ``node`` from nodes that run; ``runs`` is None (everything runs) or the
        set of nodes that run.
    """
    runs = None
    if capture_nodes is not None:
        runs = _nodes_on_a_path(root_nodes, capture_nodes, execute_targets)

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
            if child not in dependencies:
                dependencies[child] = 0
                stack.append(child)  # first time reached: walk on from it
            dependencies[child] += 1
    return dependencies, runs


def _nodes_on_a_path(root_nodes, capture_nodes, execute_targets):
    """The nodes from which some path leads to a capture or a target (those must run)."""
    # Depth-first walk with an explicit stack; `order` lists each node after
    # all nodes below it (post-order), so children are decided before parents.
    seen = set()
    order = []
    for root in root_nodes:
        if root in seen:
            continue  # already reached from an earlier root
        seen.add(root)
        stack = [(root, iter(root.next_functions))]
        while stack:
            node, children = stack[-1]
            for child, _ in children:
                if child is not None and child not in seen:
                    seen.add(child)
                    stack.append((child, iter(child.next_functions)))
                    break
            else:
                stack.pop()
                order.append(node)

    runs = set()
    for node in order:  # children come before their parents here
        if node in execute_targets or any(
            child in runs or child in capture_nodes for child, _ in node.next_functions if child is not None
        ):
            runs.add(node)
    return runs


def _validate(node, grad_inputs):
    """Make each returned gradient fit its input: same count, shape and dtype.

    A gradient of a broadcast input arrives with the broadcast shape; summing
    it back down to the input's shape is the adjoint of broadcasting, done
    here once so that every op's backward can stay the textbook formula.
    """
    if not isinstance(grad_inputs, tuple):
        grad_inputs = (grad_inputs,)
    if len(grad_inputs) != len(node.next_functions):
        raise RuntimeError(messages.WRONG_NUMBER_OF_GRADIENTS.format(
            name=node.name(), expected=len(node.next_functions), got=len(grad_inputs)))
    fitted = []
    for index, (grad, (child, _), (shape, dtype)) in enumerate(zip(grad_inputs, node.next_functions,
                                                                  node._input_meta)):
        if grad is None or child is None:
            fitted.append(None)
            continue
        if grad.shape != shape:
            try:
                grad = grad.sum_to_size(shape)
            except (ValueError, RuntimeError):
                raise RuntimeError(messages.INVALID_GRADIENT_SHAPE.format(
                    name=node.name(), index=index, got=messages.format_shape(grad.shape),
                    expected=messages.format_shape(shape))) from None
        if grad.dtype != dtype:
            grad = grad.to(dtype)
        fitted.append(grad)
    return tuple(fitted)


def _chain_rule(node, grads, wanted, create_graph):
    """``node.backward(*grads)``, checked by ``_validate``, recorded only for ``create_graph``.

    ``wanted`` is None (every input's gradient is wanted) or one bool per input. With
    ``inputs=``, a built-in node computes only the gradients on a path to them (PyTorch's
    ``should_compute_output``); it computes none when it runs only because its output is
    one of the ``inputs`` of ``backward`` (PyTorch runs it: its hooks fire, it frees what
    it saved). A custom Function's backward always computes them all, as in PyTorch.
    """
    masked = wanted is not None and node.computes_only_wanted_gradients
    if masked and not any(wanted):
        return (None,) * len(node.next_functions)
    previous_mode, _state.grad_enabled = _state.grad_enabled, create_graph
    try:
        with np.errstate(all="ignore"):  # nan/inf arise silently, as in PyTorch
            grad_inputs = _validate(node, node.backward(*grads))
        if _state.anomaly_enabled and _state.anomaly_check_nan:
            _check_nan(node, grad_inputs)
    except Exception:
        if _state.anomaly_enabled and node._forward_trace:
            # As PyTorch's anomaly mode: say where the failing node was made, then fail.
            warnings.warn(messages.ANOMALY_TRACE.format(name=node.name(), trace=node._forward_trace),
                          UserWarning, stacklevel=5)
        raise
    finally:
        _state.grad_enabled = previous_mode
    if masked:
        grad_inputs = tuple(grad if want else None for grad, want in zip(grad_inputs, wanted))
    return grad_inputs


def _check_nan(node, grad_inputs):
    for index, grad in enumerate(grad_inputs):
        if grad is not None and np.isnan(grad._data).any():
            raise RuntimeError(messages.ANOMALY_NAN.format(name=node.name(), index=index))


def iter_backward(roots, root_grads, retain_graph=False, create_graph=False,
                  inputs=None, accumulate_grad=True, record_values=False):
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

    Yields:
        BackwardStep
    """
    if _retaining:
        _follow_in_place_changes()
    root_edges = [root._gradient_edge() for root in roots]
    root_nodes = list(dict.fromkeys(node for node, _ in root_edges))

    # Where gradients are taken: {(node, output_nr): [positions in inputs]}.
    captures, capture_nodes, execute_targets = {}, None, set()
    if inputs is not None:
        for position, tensor in enumerate(inputs):
            node, output_nr = tensor._gradient_edge()
            if accumulate_grad and tensor.grad_fn is None:
                execute_targets.add(node)  # a leaf: its AccumulateGrad runs
                continue
            captures.setdefault((node, output_nr), []).append(position)
            if accumulate_grad:
                execute_targets.add(node)  # a non-leaf for backward(): its grad_fn runs (see _chain_rule)
        capture_nodes = {node for node, _ in captures}

    pending, runs = _plan(root_nodes, capture_nodes, execute_targets)
    task = GraphTask(pending, runs, capture_nodes, accumulate_grad)
    buffers = {}
    ready = []
    tiebreak = itertools.count()  # heap entries must never compare two nodes

    def send(node, output_nr, grad):
        """Deliver one incoming edge to ``node``; queue it when its last edge arrived."""
        if grad is not None:
            grads = buffers.get(node)
            if grads is None:
                grads = buffers[node] = [None] * node.num_outputs
            grads[output_nr] = grad if grads[output_nr] is None else grads[output_nr] + grad
        pending[node] -= 1
        if pending[node] == 0:
            # Newest node first, as PyTorch's engine does (AccumulateGrad's
            # sequence number is infinite, so leaves are filled right away).
            heapq.heappush(ready, (-node._sequence_nr, next(tiebreak), node))

    for node, _ in root_edges:
        pending[node] += 1  # an output gradient is one more edge into its node
    for (node, output_nr), grad in zip(root_edges, root_grads):
        send(node, output_nr, grad)

    for index in itertools.count():
        if not ready:
            return
        node = heapq.heappop(ready)[2]
        grads = buffers.pop(node, None) or [None] * node.num_outputs
        accumulated, captured = [], []

        # 1. Hooks on the tensors this node produced, retain_grad, captures.
        for output_nr, grad in enumerate(grads):
            if grad is None:
                continue
            hooks = node._tensor_hooks(output_nr)
            if hooks:
                grad = grads[output_nr] = _run_tensor_hooks(hooks, grad, task)
            retained = node._retained_tensor(output_nr)
            if retained is not None:
                accumulated.append(_accumulate(retained, grad, create_graph, record_values))
            if captures:
                for position in captures.get((node, output_nr), ()):
                    captured.append((position, grad))
                    if accumulate_grad and retained is None:
                        accumulated.append(_accumulate(inputs[position], grad, create_graph, record_values))

        runs_here = (runs is None or node in runs) and (grads[0] is not None or any(g is not None for g in grads))
        if not runs_here:
            if runs is None or node in runs:  # ran with nothing to send: still release the edges
                for child, output_nr in node.next_functions:
                    if child is not None:
                        send(child, output_nr, None)
            yield BackwardStep(index, node, False, tuple(grads), (), tuple(accumulated) if accumulated else (),
                               tuple(captured) if captured else (), (), pending)
            continue

        # 2. Pre-hooks, then the chain rule itself, then post-hooks.
        if node._pre_hooks:
            grads = list(_run_node_hooks(node._pre_hooks, tuple(grads)))
        wanted = None if runs is None else [child is not None and (child in runs or child in capture_nodes)
                                            for child, _ in node.next_functions]
        if isinstance(node, AccumulateGrad):
            accumulated.append(_accumulate(node.variable, grads[0], create_graph, record_values))
            grad_inputs = ()
        else:
            grad_inputs = _chain_rule(node, grads, wanted, create_graph)
        if node._post_hooks:
            grad_inputs = _run_node_hooks(node._post_hooks, grad_inputs, tuple(grads))

        # 3. Free what the forward pass saved, unless asked to keep it.
        released = () if retain_graph else node.release()

        # 4. Pass each input's gradient on to the node that produced that input.
        for index, ((child, output_nr), grad) in enumerate(zip(node.next_functions, grad_inputs)):
            if child is not None and (wanted is None or wanted[index]):
                send(child, output_nr, grad)

        yield BackwardStep(index, node, True, tuple(grads), grad_inputs, tuple(accumulated) if accumulated else (),
                           tuple(captured) if captured else (), released, pending)


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


def _run_tensor_hooks(hooks, grad, task):
    """Call each ``tensor.register_hook`` hook in turn; one that returns a tensor replaces ``grad``."""
    previous, _state.graph_task = _state.graph_task, task
    try:
        for hook in tuple(hooks):
            new = hook(grad)
            if new is not None:
                _check_hook_result(hook, grad, new)
                grad = new
    finally:
        _state.graph_task = previous  # (None outside a pass: a task holds its graph's nodes)
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


def _accumulate(tensor, grad, create_graph, record_values):
    """Add ``grad`` into ``tensor.grad`` and describe it for the step record."""
    before = None
    if record_values and tensor._grad is not None:
        before = tensor._grad._data.copy()
    previous_mode, _state.grad_enabled = _state.grad_enabled, create_graph
    try:
        accumulate_into(tensor, grad)
    finally:
        _state.grad_enabled = previous_mode
    after = tensor._grad._data.copy() if record_values else None
    return (tensor, before, after)
