"""The graph as a public object: its nodes, the engine's steps, and observers.

``viz`` (and anyone curious) uses this module to watch a backward pass:

* ``iter_backward(...)`` runs a backward pass one node at a time and yields a
  ``BackwardStep`` after each (see ``minigrad.engine``);
* ``observe(callback)`` calls ``callback(step)`` for every step of every
  ``backward()`` / ``grad()`` run inside the ``with`` block, with ``.grad``
  values recorded before and after each accumulation;
* ``record_forward_inputs()`` makes each node built inside the ``with`` block
  keep a copy of its forward's inputs, so the forward can be re-run (a
  per-node gradient check does this).

>>> import minigrad
>>> x = minigrad.tensor(2.0, requires_grad=True)
>>> steps = []
>>> with minigrad.autograd.graph.observe(steps.append):
...     (x * x).backward()
>>> [step.node.name() for step in steps]
['MulBackward0', 'torch::autograd::AccumulateGrad']
"""

import contextlib

from ..engine import BackwardStep, iter_backward
from ..function import AccumulateGrad, Node, SavedTensor
from ..grad_mode import is_recording_forward_inputs, record_forward_inputs

__all__ = ["Node", "AccumulateGrad", "SavedTensor", "BackwardStep", "iter_backward", "observe",
           "record_forward_inputs", "is_recording_forward_inputs"]

_observers = []


@contextlib.contextmanager
def observe(callback):
    """Within the block, call ``callback(step)`` for each node every backward pass runs."""
    _observers.append(callback)
    try:
        yield
    finally:
        _observers.remove(callback)


def _run(steps):
    """Drive the engine's generator to the end, telling the observers."""
    for step in steps:
        for callback in _observers:
            callback(step)
        yield step
