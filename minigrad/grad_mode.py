"""Grad mode and anomaly mode: two switches that the engine and every op read.

Grad mode decides whether an op records a node in the graph. Anomaly mode makes
the engine check every gradient it computes for NaN and name the forward op
that created the failing node. Both are per thread, as in PyTorch.

A third switch, ``record_forward_inputs``, is minigrad's own (PyTorch has no
such thing): each recorded node keeps a copy of what its forward received, so
a checker can run that forward again on nudged inputs (see ``classroom``).
"""

import functools
import inspect
import threading
import warnings

import numpy as np

from . import messages


class _State(threading.local):
    grad_enabled = True
    anomaly_enabled = False
    anomaly_check_nan = True
    record_forward_inputs = False
    saved_tensors_hooks = ()  # stack of (pack, unpack); the last is used (autograd/graph.py)
    saved_tensors_hooks_disabled = None  # the error message while disabled
    graph_task = None  # the backward pass whose tensor hooks are running (engine.py)
    # While fast_backward runs built-in formulas: the maker of the PlainGradients their
    # saved tensors are handed as (plain_backward.gradient); None elsewhere.
    plain_formulas = None
    inference_mode = False
    #: True while recording a node does more than link it: anomaly mode keeps a trace,
    #: ``record_forward_inputs`` copies, ``saved_tensors_hooks`` pack. ``Node._connect`` reads
    #: this one flag instead of those three (a thread-local read is not free), and only when
    #: ``threads_with_extras`` is not empty; ``extras_changed`` keeps both, called wherever one
    #: of the three is set.
    node_extras = False


_state = _State()

# Two per-thread switches every op reads, mirrored in sets a plain read can look at (a
# thread-local read costs as much as a small part of an op): the threads (by ident) whose grad
# mode is off, and those whose ``node_extras`` is on. Both are empty nearly always, and then
# no thread-local value need be read; otherwise each thread reads its own. (A thread that ends
# with one set stays in it: every thread then reads its own switch, as before.)
threads_without_grad = set()
threads_with_extras = set()


def _mirror(threads, on):
    """This thread in ``threads`` while ``on``, out of it otherwise."""
    if on:
        threads.add(threading.get_ident())
    else:
        threads.discard(threading.get_ident())


def set_grad_mode(mode):
    """Set this thread's grad mode: every write of ``_state.grad_enabled`` goes through here."""
    _state.grad_enabled = mode
    _mirror(threads_without_grad, not mode)


def extras_changed():
    """Bring ``_state.node_extras`` up to date after one of its three switches was set."""
    on = bool(_state.anomaly_enabled or _state.record_forward_inputs or _state.saved_tensors_hooks)
    _state.node_extras = on
    _mirror(threads_with_extras, on)


def is_grad_enabled():
    """Return True if operations are currently being recorded.

    >>> import minigrad
    >>> minigrad.is_grad_enabled()
    True
    >>> with minigrad.no_grad():
    ...     minigrad.is_grad_enabled()
    False
    """
    return _state.grad_enabled


class _GradModeContext:
    """Base for the grad-mode switches: a context manager that is also a decorator.

    Like PyTorch 2, the decorator works with or without parentheses
    (``@no_grad()`` and ``@no_grad``).
    """

    mode = True

    def __new__(cls, orig_func=None):
        if orig_func is None:
            return super().__new__(cls)
        return cls()(orig_func)

    def __init__(self, orig_func=None):
        pass

    def __enter__(self):
        self._previous = _state.grad_enabled
        set_grad_mode(self.mode)

    def __exit__(self, *exc_info):
        set_grad_mode(self._previous)
        return False

    def __call__(self, fn):
        return _decorate(fn, self.__class__)


def _decorate(fn, make_context):
    """``fn`` run inside ``make_context()``; for a generator function, each of its steps is.

    A generator's body runs bit by bit, between its ``yield``s, while the caller's code runs
    in between: as PyTorch does, the mode is switched on for each step of the generator
    and back for the caller.
    """
    if not inspect.isgeneratorfunction(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with make_context():
                return fn(*args, **kwargs)

        return wrapper

    @functools.wraps(fn)
    def generator_wrapper(*args, **kwargs):
        generator = fn(*args, **kwargs)
        step = functools.partial(generator.send, None)
        while True:
            try:
                with make_context():
                    response = step()
            except StopIteration as stop:
                return stop.value
            try:
                request = yield response
            except GeneratorExit:
                with make_context():
                    generator.close()
                raise
            except BaseException as error:  # thrown in by the caller: hand it on to the generator
                step = functools.partial(generator.throw, error)
            else:
                step = functools.partial(generator.send, request)

    return generator_wrapper


class no_grad(_GradModeContext):
    """Do not record operations: results have no ``grad_fn`` and do not require grad.

    Usable as ``with minigrad.no_grad():`` or as a decorator ``@minigrad.no_grad()``.

    >>> import minigrad
    >>> x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    >>> with minigrad.no_grad():
    ...     y = x * 2
    >>> y.requires_grad
    False
    """

    mode = False


class enable_grad(_GradModeContext):
    """Record operations again, even inside ``no_grad``.

    >>> import minigrad
    >>> x = minigrad.tensor(1.0, requires_grad=True)
    >>> with minigrad.no_grad():
    ...     with minigrad.enable_grad():
    ...         y = x * 2
    >>> y.requires_grad
    True
    """

    mode = True


class inference_mode(no_grad):
    """PyTorch's faster cousin of ``no_grad``.

    NB: here it is simply ``no_grad``; PyTorch's inference tensors, which may
    never enter autograd later, are not modelled.
    """

    def __new__(cls, mode=True):
        if callable(mode):  # used bare, as @inference_mode
            return cls()(mode)
        return object.__new__(cls)

    def __init__(self, mode=True):
        self.mode = not mode
        self.inference = bool(mode)

    def __enter__(self):
        super().__enter__()
        self._previous_inference, _state.inference_mode = _state.inference_mode, self.inference

    def __exit__(self, *exc_info):
        _state.inference_mode = self._previous_inference
        return super().__exit__(*exc_info)


def is_inference_mode_enabled():
    """Return True inside ``inference_mode()``.

    >>> import minigrad
    >>> with minigrad.inference_mode():
    ...     minigrad.is_inference_mode_enabled()
    True
    """
    return _state.inference_mode


class set_grad_enabled(_GradModeContext):
    """Switch recording on or off: as a function call, a context manager or a decorator.

    Args:
        mode (bool): True to record operations, False not to.

    >>> import minigrad
    >>> _ = minigrad.set_grad_enabled(False)
    >>> minigrad.is_grad_enabled()
    False
    >>> _ = minigrad.set_grad_enabled(True)
    """

    def __new__(cls, mode):
        return object.__new__(cls)

    def __init__(self, mode):
        # Like PyTorch, the switch takes effect at construction, so a plain
        # call works; __enter__ then only remembers what to restore.
        self._previous = _state.grad_enabled
        self.mode = bool(mode)
        set_grad_mode(self.mode)

    def __enter__(self):
        pass

    def __exit__(self, *exc_info):
        set_grad_mode(self._previous)
        return False

    def __call__(self, fn):
        set_grad_mode(self._previous)
        mode = self.mode
        return _decorate(fn, lambda: set_grad_enabled(mode))


def is_anomaly_enabled():
    """Return True inside ``detect_anomaly()`` or after ``set_detect_anomaly(True)``.

    >>> import minigrad
    >>> minigrad.is_anomaly_enabled()
    False
    """
    return _state.anomaly_enabled


def is_anomaly_check_nan_enabled():
    """Return True if anomaly mode also checks every gradient for NaN (its ``check_nan``).

    >>> import minigrad
    >>> minigrad.is_anomaly_check_nan_enabled()
    True
    """
    return _state.anomaly_check_nan


class detect_anomaly:
    """Check every gradient backward computes and name the op that produced a NaN.

    Inside this context each node remembers where in your code the forward
    operation that created it was called. If a node's backward returns NaN,
    the engine raises ``RuntimeError: Function 'XBackward0' returned nan values
    in its 0th output.`` and warns with that forward traceback.

    Args:
        check_nan (bool): raise on NaN gradients (default True).
    """

    def __init__(self, check_nan=True):
        self.check_nan = check_nan
        warnings.warn(messages.ANOMALY_ENABLED, UserWarning, stacklevel=2)

    def __enter__(self):
        self._previous = (_state.anomaly_enabled, _state.anomaly_check_nan)
        _state.anomaly_enabled = True
        _state.anomaly_check_nan = self.check_nan
        extras_changed()

    def __exit__(self, *exc_info):
        _state.anomaly_enabled, _state.anomaly_check_nan = self._previous
        extras_changed()
        return False


class set_detect_anomaly(detect_anomaly):
    """Turn anomaly detection on or off: as a call or as a context manager.

    Args:
        mode (bool): on or off.
        check_nan (bool): raise on NaN gradients (default True).
    """

    def __init__(self, mode, check_nan=True):
        self._previous = (_state.anomaly_enabled, _state.anomaly_check_nan)
        _state.anomaly_enabled = bool(mode)
        _state.anomaly_check_nan = check_nan
        extras_changed()

    def __enter__(self):
        pass


class record_forward_inputs:
    """Make every node recorded in this block keep what its forward received.

    Each node gets ``node._forward_inputs = (arrays, params)``: a float64 copy
    of every floating-point input (other inputs copied as they are) and the
    forward's keyword arguments. With these the node's forward can be run again
    on nudged inputs, which is how a per-node gradient check compares a
    backward with finite differences. Off by default: it copies every input.

    NB: a minigrad teaching aid; PyTorch has no such switch.

    Args:
        mode (bool): True to record (the default), False to stop recording.

    >>> import minigrad
    >>> x = minigrad.tensor([1.0, 2.0], requires_grad=True)
    >>> with minigrad.autograd.graph.record_forward_inputs():
    ...     y = x * 3
    >>> arrays, params = y.grad_fn._forward_inputs
    >>> arrays[0].dtype, params
    (dtype('float64'), {})
    """

    def __init__(self, mode=True):
        self.mode = bool(mode)

    def __enter__(self):
        self._previous = _state.record_forward_inputs
        _state.record_forward_inputs = self.mode
        extras_changed()
        return self

    def __exit__(self, *exc_info):
        _state.record_forward_inputs = self._previous
        extras_changed()
        return False


def is_recording_forward_inputs():
    """Return True inside ``record_forward_inputs()``."""
    return _state.record_forward_inputs


def copy_for_replay(value):
    """A copy of one forward input that later changes cannot touch.

    Floating-point arrays become float64 (finite differences need the
    precision); other arrays are copied as they are; anything else is kept.
    """
    if isinstance(value, np.ndarray):
        return value.astype(np.float64) if value.dtype.kind == "f" else value.copy()
    return value
