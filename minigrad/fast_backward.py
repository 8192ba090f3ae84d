"""Speed, continued from ``fast_path.py``: ``backward()``'s loop when nobody watches.

``engine.iter_backward`` is the backward pass as a learner should read it: a plan,
a ready queue, and per node a handful of small steps (``_run_node``), each a call,
each yielding a record for ``viz``. On a learner's small tensors those calls cost
more than the formulas: the micrograd demo's 38 nodes spent about 16 µs each in
the engine, PyTorch's engine about 7.

Most passes need none of that flexibility: a plain ``loss.backward()``, with no
``create_graph``, no ``inputs=``, no anomaly mode, and nobody stepping through it.
``run_plain_backward`` runs such a pass as one loop with the same plan, the same
ready queue and the same order, and does for the common node (one output, no hooks,
no ``retain_grad``, a built-in formula) what ``_run_node`` would do, written out in
place: formula, fitting check, release, sending on. Any other node goes through
``engine._run_node`` itself, so every rarer behaviour (hooks, ``retain_grad``,
custom Functions, several outputs) has one implementation only.

A leaf's AccumulateGrad that a node completes is run right after that node's gradients
are all sent, without the ready queue's heap: its sequence number is infinite, so the heap
would give it next anyway, in the same order. A leaf's gradient that comes by one edge
only is not put in a buffer either.

Grad mode is off and NumPy's floating-point warnings are off for the whole loop,
instead of around each formula. For a node taken through ``_run_node`` the
warnings come back, as in the engine's own loop. The two misfits a built-in formula
commonly returns, a bias's gradient in the broadcast shape and a Tensor (relu's formula
calls a node), are fitted here (``_fitted``); a node's saved tensors are dropped by
``Node._drop_saved``, which is ``release()`` without building the names it returns.

``tests/minigrad/test_fast_backward.py`` runs the same programs through both loops
and compares every ``.grad`` bit for bit, every hook's order, every error and what
each node has freed.
"""

import heapq

from .engine import ReadyQueue, _follow_in_place_changes, _GradWriter, _run_node, fit_gradients, plan_backward
from .fast_path import PLAIN_NODE_TYPES, graph_released, hooks_in_use, warnings_back, warnings_off
from .graph import AccumulateGrad, accumulate_grad
from .grad_mode import _state, set_grad_mode
from .ops.reduce import broadcasts_to, sum_to_shape
from .plain_backward import PlainGradient, gradient, in_flight
from .tensor import Tensor, _retaining


def run_plain_backward(roots, root_grads, retain_graph=False):
    """``iter_backward(roots, root_grads, retain_graph)`` run to its end, records not made.

    Only for a pass without ``create_graph``, ``inputs=``, anomaly mode or observers
    (``autograd.backward`` decides).
    """
    if _retaining:
        _follow_in_place_changes()
    plan = plan_backward(roots)
    write = _GradWriter(create_graph=False, record_values=False, preview=False)
    fresh = write.fresh
    queue = ReadyQueue(plan.dependencies, fresh)
    for (node, output_nr), grad in zip(plan.root_edges, root_grads):
        queue.send(node, output_nr, None if grad is None else gradient(grad._data))
    ready, buffers, pending, tiebreak = queue._ready, queue.buffers, queue.pending, queue._tiebreak
    heappop, heappush = heapq.heappop, heapq.heappush
    leaves_now = []

    previous_mode = _state.grad_enabled
    set_grad_mode(False)
    quiet = [warnings_off()]  # (in a list: _through_engine turns the warnings on and off again)
    previous_plain, _state.plain_formulas = _state.plain_formulas, gradient  # saved tensors as PlainGradients
    try:
        while ready or leaves_now:
            # Leaves: add into .grad, keeping a gradient nobody else holds without a copy. These
            # are the ones the last node completed, in the order the heap would give them.
            if leaves_now:
                grads = grad_inputs = None  # (gradients held here would count as holders in take())
                for index in range(len(leaves_now)):
                    child, grad = leaves_now[index]
                    leaves_now[index] = None
                    if grad is None:  # (its gradient waited in buffers, if it got one)
                        slots = buffers.pop(child, None)
                        grad = slots and slots[0]
                    leaf = child.variable
                    if grad is None or hooks_in_use and (leaf._hooks or leaf._post_accumulate_hooks
                                                         or child._pre_hooks or child._post_hooks):
                        _through_engine(child, None if grad is None else [grad], plan, queue, write, retain_graph,
                                        quiet)
                    else:
                        accumulate_grad(leaf, grad, fresh.take(grad, leaf._data))
                    grad = slots = None
                leaves_now.clear()
                continue

            node = heappop(ready)[2]
            if type(node) is AccumulateGrad:  # (a root, or a leaf that a node run by the engine completed)
                leaves_now.append((node, None))
                continue
            grads = buffers.pop(node, None)

            # Any node but the common one: the engine's own steps.
            if grads is None or type(node) not in PLAIN_NODE_TYPES or hooks_in_use and (
                    node._tensor_pre_hooks or node._retain_grad is not None or node._pre_hooks or node._post_hooks):
                _through_engine(node, grads, plan, queue, write, retain_graph, quiet)
                continue

            # The chain rule: fit_gradients and in_flight only when a gradient needs them.
            grad_inputs = node.backward(grads[0])
            edges = node.next_functions
            if type(grad_inputs) is not tuple:
                grad_inputs = (grad_inputs,)  # (a node of one input may return its gradient bare)
            if len(grad_inputs) != len(edges):
                grad_inputs = in_flight(fit_gradients(node, grad_inputs))  # (raises PyTorch's error)
            else:
                for grad, (child, _), (shape, dtype) in zip(grad_inputs, edges, node._input_meta):
                    if grad is not None and (child is None or type(grad) is not PlainGradient
                                             or grad._data.shape != shape or grad._data.dtype is not dtype):
                        grad_inputs = _fitted(node, grad_inputs)
                        break
            if not retain_graph:
                node._drop_saved()

            # Send each gradient on (ReadyQueue.pass_on and send, in place).
            for grad, (child, output_nr) in zip(grad_inputs, edges):
                if child is None:
                    continue
                if type(child) is AccumulateGrad and grad is not None and pending[child] == 1 \
                        and child not in buffers:
                    # A leaf's whole gradient in one edge: no buffer, and no heap (leaves_now, above).
                    pending[child] = 0
                    fresh.add_result(grad, grad_inputs, grads)
                    leaves_now.append((child, grad))
                    continue
                if grad is not None:
                    slots = buffers.get(child)
                    if slots is None:
                        if type(child) is AccumulateGrad:
                            # (A gradient summed with another never reaches a leaf: only a first one
                            # is worth noting, as _GradWriter.computed would.)
                            fresh.add_result(grad, grad_inputs, grads)
                        slots = buffers[child] = [None] * child.num_outputs
                    if slots[output_nr] is None:
                        slots[output_nr] = grad
                    elif type(child) is AccumulateGrad:
                        first = slots[output_nr]
                        slots[output_nr] = first + grad
                        fresh.summed(first, grad, slots[output_nr])
                    else:
                        slots[output_nr] = slots[output_nr] + grad
                left = pending[child] = pending[child] - 1
                if not left:
                    if type(child) is AccumulateGrad:
                        leaves_now.append((child, None))  # (its gradient is in buffers)
                    else:
                        heappush(ready, (-child._sequence_nr, next(tiebreak), child))
            # (Gradients held here would count as other holders when a leaf asks take() next.)
            grad_inputs = grad = slots = first = grads = None
    finally:
        if quiet[0] is not None:
            warnings_back(quiet[0])
        set_grad_mode(previous_mode)
        _state.plain_formulas = previous_plain
    if not retain_graph:
        graph_released()  # (fast_path: the garbage collector's pace for long graphs)


def _fitted(node, grad_inputs):
    """``in_flight(fit_gradients(node, grad_inputs))`` for the two common misfits, without the
    general steps: a gradient of a broadcast input (a bias's: summed down to the input's shape),
    and a Tensor from a formula that called a node's ``apply`` (relu's). Any other misfit (a
    dtype to change, a shape that does not broadcast: PyTorch's error) goes the general way.
    """
    fitted = []
    for grad, (child, _), (shape, dtype) in zip(grad_inputs, node.next_functions, node._input_meta):
        if grad is None or child is None:
            fitted.append(None)
            continue
        kind = type(grad)
        array = grad._data
        if (kind is not PlainGradient and kind is not Tensor) or array.dtype is not dtype:
            return in_flight(fit_gradients(node, grad_inputs))
        if array.shape != shape:
            if not broadcasts_to(shape, array.shape):
                return in_flight(fit_gradients(node, grad_inputs))
            grad = gradient(sum_to_shape(array, shape))  # (SumToSize's forward, as fit_gradients sums)
        elif kind is Tensor:
            grad = gradient(array)
        fitted.append(grad)
    return tuple(fitted)


def _through_engine(node, grads, plan, queue, write, retain_graph, quiet):
    """Run ``node`` by ``engine._run_node`` (hooks and all), with NumPy's warnings on as there.

    ``quiet`` holds the loop's ``warnings_off`` token: None while they are on.
    """
    warnings_back(quiet[0])
    quiet[0] = None
    _state.plain_formulas = None  # (a custom Function's backward reads plain Tensors)
    _run_node(0, node, grads or [None] * node.num_outputs, plan, queue, write, None, retain_graph,
              create_graph=False, records=False)
    _state.plain_formulas = gradient
    quiet[0] = warnings_off()
