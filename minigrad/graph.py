"""The graph: its nodes, its edges, what they save, and where gradients end up.

This is the one home of the backward graph; the engine (``engine.py``) runs it,
``viz`` draws it and ``classroom`` checks it, all through what is defined here:

* ``Node``: what a forward op leaves behind for backward (below);
* an *edge* is a ``(node, output_nr)`` pair: "the gradient of output ``output_nr``
  of ``node``". ``next_functions`` holds one per input, and ``GradientEdge`` is the
  same pair with names (PyTorch's ``torch.autograd.graph.GradientEdge``);
* ``SavedTensor`` (made by ``save``): a tensor kept for backward, with its version (a recorded
  op keeps the same in a compact form: see "saved tensors, compact");
* ``AccumulateGrad`` and ``accumulate_grad``: the sink of a leaf, and the one
  function that adds into any ``.grad``;
* ``walk`` and ``parents``: the graph below a node, without recursion.

Every differentiable op is a subclass of ``Node`` with two methods:

* ``forward(self, *arrays, **params)`` computes the result from NumPy arrays;
* ``backward(self, grad)`` returns one gradient per input, built from minigrad
  Tensor ops, so that the backward pass can itself be recorded
  (``create_graph=True``) with no extra code.

``Node.apply`` runs ``forward``, wraps the result in a Tensor and, when
gradients are needed, links the node into the graph: ``next_functions`` points
at the nodes that produced the inputs (or at an ``AccumulateGrad`` for a leaf)
and the tensors named in ``saves`` are kept for backward until the engine
releases them.

PyTorch's public names for these (``torch.autograd.graph.Node``,
``GradientEdge`` ...) are re-exported by ``minigrad.autograd.graph``; the
user-facing ``minigrad.autograd.Function`` (with ``ctx``) lives in
``autograd/function.py`` and builds nodes of this kind.
"""

import itertools
import math
import os
import traceback
import typing
import weakref
from collections import deque

import numpy as np

from . import messages
from .fast_path import (PACE_EVERY, PLAIN_NODE_TYPES, note_hooks, pace_collector, reserve_instance_attributes,
                        shared_meta, warnings_back, warnings_off)
from .grad_mode import _state, copy_for_replay, threads_with_extras, threads_without_grad

# tensor.py imports this module; binding the module (not the class) breaks the cycle.
from . import tensor as _tensor  # noqa: E402

_new_tensor = object.__new__  # (Tensor._wrap, inlined where every op result is made)
_new_node = object.__new__

# Creation order of nodes: the engine runs the newest ready node first (as
# PyTorch does), and viz numbers nodes by it so pictures are stable.
_sequence = itertools.count()


def next_sequence_nr():
    """The number the next node made will not get below: nodes made from now on have larger ones.

    ``viz.scope`` reads it before and after a block to know which nodes the block made.
    """
    return next(_sequence)


class RemovableHandle:
    """Returned by every ``register_*hook``; ``handle.remove()`` takes the hook away."""

    __slots__ = ("_hooks", "_hook")

    def __init__(self, hooks, hook):
        self._hooks = hooks
        self._hook = hook

    def remove(self):
        if self._hook in self._hooks:
            self._hooks.remove(self._hook)


class SavedTensor:
    """A tensor a node keeps for its backward, with the version it had when saved.

    Unpacking checks the version counter, so an in-place change after the
    forward pass is an error rather than a silently wrong gradient.
    A node's own output is kept as its array only (not the Tensor, which points
    back at the node): unpacking rebuilds a Tensor whose ``grad_fn`` is the node.
    """

    __slots__ = ("tensor", "data", "version_counter", "version", "is_output", "requires_grad", "hooked")

    def __new__(cls, tensor, is_output):
        return save(tensor, is_output)  # (the ops call ``save`` itself: a class call costs more)

    def _pack(self, tensor, pack_hook, unpack_hook):
        """Inside ``saved_tensors_hooks``: keep ``pack_hook(tensor)`` instead of the tensor.

        What unpacking must restore is kept too: the tensor's place in the graph, as
        PyTorch's SavedVariable does. As in PyTorch, the version is not checked then: what
        the hooks keep is theirs to keep right.
        """
        self.tensor = self.data = self.version_counter = None
        self.requires_grad = tensor._requires_grad
        place = None if self.is_output else (tensor._grad_fn, tensor.output_nr,
                                             tensor._grad_accumulator() if tensor.is_leaf and tensor._requires_grad
                                             else None)
        self.hooked = (pack_hook(tensor), unpack_hook, place)

    def _unpack_hooked(self, node):
        packed, unpack_hook, place = self.hooked
        value = unpack_hook(packed)
        if not isinstance(value, _tensor.Tensor):
            raise TypeError(messages.UNPACK_HOOK_NOT_TENSOR.format(type=type(value).__name__))
        t = _tensor.Tensor._wrap(value._data)  # a new tensor, in the original's place in the graph
        t._requires_grad = self.requires_grad
        if self.is_output:
            t._grad_fn = node if self.requires_grad else None
        else:
            t._grad_fn, t.output_nr, accumulator = place
            if accumulator is not None:
                t._accumulator_ref = weakref.ref(accumulator)
        return t

    def unpack(self, node):
        if self.hooked is not None:
            return self._unpack_hooked(node)
        self._check_version(node)
        if not self.is_output:
            return self.tensor
        t = _tensor.Tensor._wrap(self.data)
        if self.requires_grad:
            t._requires_grad = True
            t._grad_fn = node
        if self.version_counter is None:  # (an output never changed: see "saved tensors, compact")
            self.version_counter = node._output_version_counter()
        t._version_counter = self.version_counter
        return t

    def unpack_array(self, node):
        """The saved tensor's array alone, checked as ``unpack`` checks it."""
        if self.hooked is None:  # (the version check written out: most formulas call this)
            if self.is_output:
                counter = self.version_counter
                if counter is None or counter.value == self.version:
                    return self.data
            elif self.tensor._version == self.version:
                return self.tensor._data
        return self.unpack(node)._data  # (a hook's tensor, or the error of a changed one)

    @property
    def current_version(self):
        """The version the saved tensor has now (an output without a version counter was never
        changed: see "saved tensors, compact")."""
        if not self.is_output:
            return self.tensor._version
        return self.version if self.version_counter is None else self.version_counter.value

    def _check_version(self, node):
        """PyTorch's error if the tensor was changed in place since it was saved."""
        current = self.current_version
        if current != self.version:
            if self.is_output:
                what, owner = self.data, node
            else:
                what, owner = self.tensor, self.tensor.grad_fn
            which = f", which is output 0 of {messages.op_name(owner.name())}," if owner is not None else ""
            raise RuntimeError(
                messages.INPLACE_VERSION.format(
                    what=messages.legacy_type(_tensor.Tensor._wrap(np.asarray(what)) if self.is_output else what),
                    which=which,
                    version=current,
                    expected=self.version,
                )
            )


def save(tensor, is_output):
    """A ``SavedTensor`` of ``tensor``: an input of the node (``is_output`` False) or its output."""
    saved = _new_node(SavedTensor)
    saved.is_output = is_output
    saved.hooked = None
    if _state.saved_tensors_hooks:
        saved._pack(tensor, *_state.saved_tensors_hooks[-1])
    elif is_output:
        # Kept as its array, so it needs the shared counter object to see later changes.
        saved.tensor, saved.data = None, tensor._data
        saved.version_counter = counter = tensor._shared_version_counter()
        saved.version = counter.value
        saved.requires_grad = tensor._requires_grad
    else:
        # Kept as the Tensor, whose _version we can read later.
        # (``data`` and ``version_counter`` stay unset: only an output's are read.)
        saved.tensor = tensor
        saved.version = tensor._version
    return saved


# --- saved tensors, compact ---------------------------------------------------------
# A SavedTensor object per saved tensor was a third of what recording a ``mul`` cost. So a
# recorded op keeps its saved tensors in ``node._saved_values``, one per name of
# ``node._kept_saves``, in the smallest form that can still be checked when read:
#   * an input of the node: the pair ``(tensor, version)``;
#   * the node's output: ``(array, version, counter)`` (not its Tensor, which points back at
#     the node), with the version counter it shares with that Tensor; or, while that Tensor has
#     no version counter (it never had an in-place change, a view or a detach, which all make
#     one), its array alone: the counter is made when first needed, and then this entry is
#     made to watch it (``Node._output_version_counter``, called by the Tensor);
#   * a ``SavedTensor``: what ``saved_tensors_hooks`` packed, or any entry once someone read
#     ``node._saved`` (viz, an in-place op on the output), which turns them all into objects.
# ``saved_tensors`` reads every form; the object is the readable one, with the checks.


def saved_tensor_object(entry):
    """The ``SavedTensor`` a compact entry stands for (an object is returned as it is)."""
    if type(entry) is np.ndarray:  # an output with no version counter yet
        entry = (entry, 0, None)
    elif type(entry) is not tuple:
        return entry
    saved = _new_node(SavedTensor)
    saved.hooked = None
    if len(entry) == 2:
        saved.tensor, saved.version = entry
        saved.is_output = False
    else:
        saved.data, saved.version, saved.version_counter = entry
        saved.tensor, saved.is_output, saved.requires_grad = None, True, True  # (a recorded result requires grad)
    return saved


def _saved_array(node, entry):
    """The array of one saved entry, checked for in-place changes (a formula's usual read)."""
    kind = type(entry)
    if kind is tuple:
        if len(entry) == 2:
            tensor, version = entry
            counter = tensor._version_counter
            if counter is None and tensor._grad_fn is not None and tensor._grad_fn._output_counter is not None:
                counter = tensor._existing_version_counter()  # (one its node's entry had made)
            if (0 if counter is None else counter.value) == version:
                return tensor._data
        elif entry[2].value == entry[1]:
            return entry[0]
    elif kind is np.ndarray:
        return entry  # (an output never changed: a change would have given it a counter, and this entry one)
    return saved_tensor_object(entry).unpack_array(node)  # (a hook's tensor, or the error of a changed one)


_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def forward_trace():
    """The call stack down to the user's own line (anomaly mode keeps it on each node).

    minigrad's own frames at the end are left out: PyTorch's trace ends where the
    user's code called the op, too.
    """
    frames = traceback.extract_stack()
    while frames and os.path.abspath(frames[-1].filename).startswith(_PACKAGE_DIR + os.sep):
        frames.pop()
    return "".join(traceback.format_list(frames))


def _is_needed(needed_by, needs_input_grad):
    """The ``saved_for`` rule: a tensor is kept if no positions are named, or one of them needs a gradient."""
    return needed_by is None or any(needs_input_grad[i] for i in needed_by)


class SavedPeek:
    """``node._saved_<name>``: what a node saved under ``name``, as PyTorch lets one peek.

    A saved tensor (``saves``): the tensor, or None if this node did not need to keep it; an
    error once released. A saved array (``saved_arrays``): it, as a Tensor. A parameter
    (``saved_params``): its value, if the node set one. Otherwise no such attribute.
    """

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __get__(self, node, owner=None):
        if node is None:
            return self
        name = self.name
        if name in type(node).saves:
            if node._released:
                raise RuntimeError(messages.FREED_GRAPH)
            saved = node._saved or {}
            return saved[name].unpack(node) if name in saved else None
        if name in node.saved_arrays:
            value = node._array(name)
            return _tensor.Tensor._wrap(value) if isinstance(value, np.ndarray) else value
        if name in type(node).saved_params and name in node.__dict__:
            return node.__dict__[name]
        raise AttributeError(f"'{type(node).__name__}' object has no attribute '_saved_{name}'")


class Node:
    """A node of the backward graph (PyTorch's ``torch.autograd.graph.Node``).

    Attributes:
        next_functions: one ``(node, output_nr)`` pair per input: where the
            gradient for that input goes next (``(None, 0)`` if it needs none).
        needs_input_grad: one bool per input.
        metadata: a dict free for the user (and for viz) to annotate the node.
    """

    #: Names of the tensors to keep for backward: input names from
    #: ``input_names``, or ``"result"`` for the output.
    saves = ()
    #: How the inputs are named in ``_saved_<name>`` (PyTorch's names).
    input_names = ("self", "other")
    #: Optional ``{name: (input positions)}``: save ``name`` only if one of
    #: those inputs needs a gradient (``Mul`` needs ``other`` only for grad_self).
    saved_for = None
    #: True for ops whose forward can turn numbers into inf or nan (log(0), 1/0,
    #: overflow, inf - inf): NumPy's warnings are silenced there, as PyTorch gives
    #: none (``test_no_numpy_warnings.py`` runs every op on such numbers). The engine
    #: silences them for every backward.
    may_warn = False
    #: Names of arrays forward keeps as attributes that PyTorch counts as saved
    #: tensors (indices, a condition): released with them, so a second backward
    #: fails loudly instead of silently adding again.
    saved_arrays = ()
    #: Plain (non-tensor) values forward stores as attributes, readable as ``_saved_<name>``.
    saved_params = ()
    #: With ``inputs=``, the engine keeps only the gradients on a path to them (None for the
    #: rest), as PyTorch's built-in nodes compute only those; a custom Function's node sets
    #: this False: PyTorch hands on all it returns.
    computes_only_wanted_gradients = True
    #: Without ``create_graph``, the engine hands this node's formula its gradients as
    #: ``plain_backward.PlainGradient`` s (NumPy under Tensor names). Off for nodes whose
    #: backward is the user's code (a custom Function, a module's backward hook).
    takes_plain_gradients = True

    # Defaults live on the class: a node is made for every op call, including
    # the ones a backward pass runs unrecorded, so __init__ sets nothing.
    next_functions = ()
    needs_input_grad = ()
    _sequence_nr = -1
    _kept_saves = ()  # ((name, input position or None), ...) of the tensors kept, once recorded
    _saved_values = None  # one entry per _kept_saves (see "saved tensors, compact"); None once released
    _save_plan = ()  # made from ``saves`` by __init_subclass__
    _kept_always = None  # (likewise)
    _output_counter = None  # the version counter of the saved output, once made (see "saved tensors, compact")
    _released = False
    _input_meta = ()  # ((shape, dtype), ...) of the inputs, to check returned gradients
    _pre_hooks = None
    _post_hooks = None
    _tensor_pre_hooks = None  # {output_nr: [hook]} for non-leaf tensor hooks
    _retain_grad = None  # {output_nr: weakref to the tensor}
    _forward_trace = None
    _forward_inputs = None  # (arrays, params) inside grad_mode.record_forward_inputs()
    _name = None
    _metadata = None
    num_outputs = 1
    several_outputs = False  # True for a node made by ops.operands.apply_with_outputs (num_outputs set per call)

    @property
    def metadata(self):
        """A dict free for the user (and for viz) to annotate the node."""
        if self._metadata is None:
            self._metadata = {}
        return self._metadata

    # --- building the graph ---------------------------------------------------
    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # (fast_path, 17: what _connect and a backward pass set, in CPython's shared table)
        reserve_instance_attributes(cls, ("_sequence_nr", "next_functions", "needs_input_grad", "_input_meta",
                                          "_kept_saves", "_saved_values", "_released", "_output_counter"))
        # Where each saved tensor comes from, worked out once per class instead of at
        # every call: (name, input position or None for the output, the input
        # positions whose gradient needs it, or None if it is always kept).
        needed_by = cls.saved_for or {}
        cls._save_plan = tuple(
            (name, None if name == "result" else cls.input_names.index(name), needed_by.get(name))
            for name in cls.saves)
        cls._kept_by_needs = {}
        # (What is kept when no ``saved_for`` rule applies: the same at every call.)
        cls._kept_always = (tuple((name, position) for name, position, _ in cls._save_plan)
                            if all(needed_by is None for _, _, needed_by in cls._save_plan) else None)
        if cls.takes_plain_gradients and cls.num_outputs == 1 and not cls.several_outputs:  # (fast_path, 19)
            PLAIN_NODE_TYPES.add(cls)
        else:
            PLAIN_NODE_TYPES.discard(cls)
        # ``node._saved_self``, ``_saved_result`` ...: PyTorch's way to peek at saved tensors and
        # parameters, one descriptor per name (not __getattr__: see fast_path, 18).
        for name in (*cls.saves, *cls.saved_arrays, *cls.saved_params):
            if not hasattr(cls, "_saved_" + name):
                setattr(cls, "_saved_" + name, SavedPeek(name))

    @classmethod
    def _kept(cls, needs):
        """``(name, input position or None)`` of each tensor to save, given the inputs'
        ``needs_input_grad``: the ``saved_for`` rule, worked out once per pattern of needs."""
        kept = cls._kept_by_needs.get(needs)
        if kept is None:
            kept = tuple((name, position) for name, position, needed_by in cls._save_plan
                         if _is_needed(needed_by, needs))
            if len(needs) <= 8:  # (ops of many inputs, such as cat, would make many patterns)
                cls._kept_by_needs[needs] = kept
        return kept

    @classmethod
    def apply(cls, *inputs, **params):
        """Run the op on Tensors and record it in the graph if any input needs a gradient."""
        node = cls()
        # (The arrays of one or two inputs without a list: most ops have one or two.)
        count = len(inputs)
        arrays = ((inputs[0]._data,) if count == 1 else (inputs[0]._data, inputs[1]._data) if count == 2
                  else tuple([t._data for t in inputs]))
        if cls.may_warn:  # inf and nan arise silently, as in PyTorch
            quiet = warnings_off()
            try:
                out = node.forward(*arrays, **params) if params else node.forward(*arrays)
            finally:
                warnings_back(quiet)
        else:
            out = node.forward(*arrays, **params) if params else node.forward(*arrays)
        result = _new_tensor(_tensor.Tensor)
        # (NumPy gives scalars, not 0-d arrays, for some 0-d results.)
        result._data = out if type(out) is np.ndarray else np.asarray(out)
        if not threads_without_grad or _state.grad_enabled:  # (grad mode: see grad_mode)
            for t in inputs:  # (is_recorded written out: most ops record nothing or stop at the first)
                if t._requires_grad or (t._base is not None and t.requires_grad):
                    node._connect(inputs, result, params)
                    break
        return result

    @classmethod
    def apply_unary(cls, x, *args):
        """``apply`` for an op of one input (``exp``, ``relu``, ``sum`` ...), its parameters
        ``args`` passed in the order ``forward`` takes them: the same steps, written out for
        that case (see fast_path, 10)."""
        node = cls()
        data = x._data
        # (Without a parameter or with one, forward's call is written out: see fast_path, 10.)
        if cls.may_warn:
            quiet = warnings_off()
            try:
                out = (node.forward(data) if not args else node.forward(data, args[0]) if len(args) == 1
                       else node.forward(data, *args))
            finally:
                warnings_back(quiet)
        else:
            out = (node.forward(data) if not args else node.forward(data, args[0]) if len(args) == 1
                   else node.forward(data, *args))
        result = _new_tensor(_tensor.Tensor)
        result._data = out if type(out) is np.ndarray else np.asarray(out)
        if ((x._requires_grad or (x._base is not None and x.requires_grad))
                and (not threads_without_grad or _state.grad_enabled)):
            node._connect((x,), result, args)
        return result

    @classmethod
    def apply_binary(cls, x, y):
        """``apply(x, y)`` for an op of two inputs and no parameters (``x * y``, ``x @ y`` ...):
        the same steps, written out for that case (see fast_path, 10)."""
        node = cls()
        if cls.may_warn:
            quiet = warnings_off()
            try:
                out = node.forward(x._data, y._data)
            finally:
                warnings_back(quiet)
        else:
            out = node.forward(x._data, y._data)
        result = _new_tensor(_tensor.Tensor)
        result._data = out if type(out) is np.ndarray else np.asarray(out)
        if ((x._requires_grad or (x._base is not None and x.requires_grad)
                or y._requires_grad or (y._base is not None and y.requires_grad))
                and (not threads_without_grad or _state.grad_enabled)):
            node._connect((x, y), result)
        return result

    @classmethod
    def apply_as_view(cls, input, *args):
        """``apply`` for a view op (``expand``, ``reshape``, ``t`` ...) that records: its result
        shares ``input``'s memory and is marked as its view, as ``Tensor._become_view_of`` marks
        every view (an empty result shares nothing and is not). For an op on one input, when
        ``fast_path.records(input)`` is True (else ``fast_path.unrecorded_view`` is quicker),
        its parameters ``args`` passed in the order ``forward`` takes them: the steps of
        ``apply`` for other ops (warnings, several inputs) are left out.
        """
        node = cls()
        result = _new_tensor(_tensor.Tensor)
        data = input._data
        result._data = (node.forward(data) if not args else node.forward(data, args[0]) if len(args) == 1
                        else node.forward(data, *args))  # (written out for none or one: fast_path, 10)
        # (fast_path.records(input) written out, as apply writes it: this is every recorded view's path)
        recorded = ((input._requires_grad or (input._base is not None and input.requires_grad))
                    and (not threads_without_grad or _state.grad_enabled))
        if recorded:
            node._connect((input,), result, args)
        if result._data.size:
            result._become_view_of(input, recorded)
        return result

    def _connect(self, inputs, result, params=None):
        """Link this node into the graph as the creator of ``result``. ``params``: what forward
        took besides the arrays, by name, or in its order (``apply_unary``, ``apply_as_view``)."""
        self._sequence_nr = sequence_nr = next(_sequence)
        if not sequence_nr % PACE_EVERY:
            pace_collector(sequence_nr)  # a long graph: see fast_path
        count = len(inputs)
        # (Most ops have one input or two: their three tuples without lists, and the edge of an
        # input that is not a view without the call to _gradient_edge: its node's, or its
        # accumulator's for a leaf that requires grad, or none.)
        if count == 1:
            (x,) = inputs
            node_x, needs_x, meta_x = x._grad_fn, x._requires_grad, x._meta
            self.next_functions = (
                x._gradient_edge() if x._base is not None else (node_x, x.output_nr) if node_x is not None
                else accumulator_edge(x) if needs_x else _NO_EDGE,)
            self.needs_input_grad = _NEEDS_1 if needs_x else _NEEDS_0
            if meta_x is None:  # (made once per tensor: see fast_path, 13)
                meta_x = x._meta = shared_meta(x._data)
            self._input_meta = (meta_x,)
        elif count == 2:
            x, y = inputs
            node_x, needs_x, node_y, needs_y = x._grad_fn, x._requires_grad, y._grad_fn, y._requires_grad
            self.next_functions = (
                x._gradient_edge() if x._base is not None else (node_x, x.output_nr) if node_x is not None
                else accumulator_edge(x) if needs_x else _NO_EDGE,
                y._gradient_edge() if y._base is not None else (node_y, y.output_nr) if node_y is not None
                else accumulator_edge(y) if needs_y else _NO_EDGE)
            self.needs_input_grad = ((_NEEDS_11 if needs_y else _NEEDS_10) if needs_x
                                     else _NEEDS_01 if needs_y else _NEEDS_00)
            meta_x, meta_y = x._meta, y._meta
            if meta_x is None:
                meta_x = x._meta = shared_meta(x._data)
            if meta_y is None:
                meta_y = y._meta = shared_meta(y._data)
            self._input_meta = (meta_x, meta_y)
        else:
            edges, needs, meta = [], [], []
            for t in inputs:  # (as for one input, in a loop: addmm's three, cat's many)
                node_t, needs_t, meta_t = t._grad_fn, t._requires_grad, t._meta
                edges.append(t._gradient_edge() if t._base is not None else (node_t, t.output_nr)
                             if node_t is not None else accumulator_edge(t) if needs_t else _NO_EDGE)
                needs.append(needs_t)
                if meta_t is None:
                    meta_t = t._meta = shared_meta(t._data)
                meta.append(meta_t)
            self.next_functions, self.needs_input_grad, self._input_meta = tuple(edges), tuple(needs), tuple(meta)
        result._requires_grad = True
        result._grad_fn = self
        extras = threads_with_extras and _state.node_extras  # (the three rare cases: see grad_mode)
        if self._save_plan:
            # As PyTorch: a tensor is kept only if a gradient that uses it is wanted.
            kept = self._kept_always
            if kept is None:
                needs = self.needs_input_grad
                kept = self._kept_by_needs.get(needs)  # (_kept's own first step, without the call)
                if kept is None:
                    kept = self._kept(needs)
            self._kept_saves = kept
            if extras and _state.saved_tensors_hooks:
                self._saved_values = tuple([save(result, True) if position is None else save(inputs[position], False)
                                            for _, position in kept])
            else:  # the compact form (see "saved tensors, compact" above)
                values = []
                for _, position in kept:
                    if position is None:
                        counter = result._version_counter  # (a new result has none yet: see just above)
                        values.append(result._data if counter is None else (result._data, counter.value, counter))
                    else:
                        t = inputs[position]
                        counter = t._version_counter
                        if counter is None and t._grad_fn is not None and t._grad_fn._output_counter is not None:
                            counter = t._existing_version_counter()  # (one its node's entry had made)
                        values.append((t, 0 if counter is None else counter.value))
                self._saved_values = tuple(values)  # (not the list: fast_path, 16)
        if extras:
            if _state.anomaly_enabled:
                self._forward_trace = forward_trace()
            if _state.record_forward_inputs:
                if type(params) is tuple:
                    params = self._named_params(len(inputs), params)
                # Copies, so the forward can be re-run later even if an input is changed in place.
                self._forward_inputs = (tuple([copy_for_replay(t._data) for t in inputs]),
                                        {key: copy_for_replay(value) for key, value in (params or {}).items()})

    def _output_version_counter(self):
        """The version counter of this node's output (0) as its saved entry watches it, made now
        if it has none (see "saved tensors, compact"); None if the node kept no such entry. A
        Tensor of that output with no counter yet takes this one (``_shared_version_counter``).
        """
        if self._output_counter is not None:
            return self._output_counter
        values = self._saved_values
        if not values:
            return None
        for index, (_, position) in enumerate(self._kept_saves):
            if position is not None:
                continue
            # (Not told apart by their arrays: as in PyTorch, ``y.data = ...`` keeps y's counter.)
            entry = values[index]
            if type(entry) is np.ndarray:
                counter = _tensor._VersionCounter()
                self._saved_values = values[:index] + ((entry, 0, counter),) + values[index + 1:]
            elif type(entry) is tuple:
                counter = entry[2]
            elif entry.is_output and entry.hooked is None:
                if entry.version_counter is None:
                    entry.version_counter = _tensor._VersionCounter()
                counter = entry.version_counter
            else:
                return None
            self._output_counter = counter  # (for the output's other Tensors: Tensor._existing_version_counter)
            return counter
        return None

    def _named_params(self, n_arrays, args):
        """``args``, forward's parameters after its ``n_arrays`` arrays, as ``{name: value}``."""
        import inspect

        names = list(inspect.signature(self.forward).parameters)[n_arrays:]
        return dict(zip(names, args))

    def forward(self, *arrays, **params):
        raise NotImplementedError(f"{type(self).__name__} must define forward")

    def backward(self, *grads):
        raise NotImplementedError(f"{type(self).__name__} must define backward")

    # --- saved tensors ---------------------------------------------------------
    @property
    def _saved(self):
        """``{name: SavedTensor}`` of the tensors kept (None if nothing was recorded or once released).

        The slow, readable view of ``_saved_values``: its entries become ``SavedTensor``
        objects for good, so the same objects come back each time and can be changed.
        """
        values = self._saved_values
        if values is None:
            return None
        values = self._saved_values = tuple([saved_tensor_object(entry) for entry in values])
        return {name: entry for (name, _), entry in zip(self._kept_saves, values)}

    @property
    def saved_tensors(self):
        """The tensors named in ``saves``, in that order; an error once released."""
        if self._released:
            raise RuntimeError(messages.FREED_GRAPH)
        entries = self._saved_values or ()
        kept = self._kept_saves
        if len(kept) != len(self.saves):  # (None in the place of each one not kept)
            found = {name: entry for (name, _), entry in zip(kept, entries)}
            entries = [found.get(name) for name in self.saves]
        plain = _state.plain_formulas  # (fast_backward: a formula's saved tensors are PlainGradients too)
        if plain is None:
            return tuple([None if entry is None else saved_tensor_object(entry).unpack(self) for entry in entries])
        return tuple([None if entry is None else plain(_saved_array(self, entry)) for entry in entries])

    def release(self, dry_run=False):
        """Drop the saved tensors (what ``retain_graph=False`` does after this node ran).

        Args:
            dry_run: only say what would be dropped (the engine's preview).

        Returns:
            tuple of the names released (empty if nothing was saved or already released).
        """
        if self._released:
            return ()
        arrays = tuple([name for name in self.saved_arrays if name in self.__dict__]) if self.saved_arrays else ()
        names = tuple([name for name, _ in self._kept_saves]) + arrays if self._saved_values else arrays
        if names and not dry_run:
            self._drop_saved()
        return names

    def _drop_saved(self):
        """``release()`` without naming what it drops: the plain backward loop's, after every node."""
        if self._released:
            return
        if not self.saved_arrays:  # (most nodes: saved tensors only, the short way)
            if self._saved_values:  # (nothing kept: PyTorch lets such a node run again)
                self._saved_values = None
                self._released = True
            return
        kept = [name for name in self.saved_arrays if name in self.__dict__]
        if not kept and not self._saved_values:
            return
        self._saved_values = None
        for name in kept:
            del self.__dict__[name]
        self._released = True

    def _array(self, name):
        """A saved array (see ``saved_arrays``); PyTorch's error once released."""
        if self._released:
            raise RuntimeError(messages.FREED_GRAPH)
        return self.__dict__[name]

    @property
    def released(self):
        """True once ``release()`` has dropped this node's saved tensors."""
        return self._released

    @property
    def saved_tensor_names(self):
        """The names this node saves (``("self", "other")``), released or not."""
        return tuple(type(self).saves)

    @property
    def kept_tensor_names(self):
        """The names of ``saved_tensor_names`` this node kept when it was recorded, released or not.

        ``saved_for`` leaves out a tensor no wanted gradient uses (``x * w`` with only ``w``
        requiring grad keeps ``self`` alone), by the rule ``_connect`` applies.
        """
        return tuple(name for name, _ in self._kept(self.needs_input_grad))

    @property
    def sequence_nr(self):
        """The node's creation number: the engine runs the newest ready node first."""
        return self._sequence_nr

    def __call__(self, *grad_outputs):
        """Run this node's backward by hand: ``y.grad_fn(grad)`` gives the gradients for its inputs.

        As in PyTorch: one per ``next_functions`` entry (None where that input needs no
        gradient), a bare tensor when there is one; recorded if grad mode is on; nothing is
        freed and no hook runs.

        >>> import minigrad
        >>> x = minigrad.tensor([1.0, 2.0], requires_grad=True)
        >>> (x * minigrad.tensor([3.0, 4.0])).grad_fn(minigrad.ones(2))
        (tensor([3., 4.]), None)
        """
        if len(grad_outputs) != self.num_outputs:
            raise TypeError(messages.NODE_CALL_ARGUMENTS.format(expected=self.num_outputs, got=len(grad_outputs)))
        result = self.backward(*grad_outputs)
        if not isinstance(result, tuple):
            result = (result,)
        result = tuple(None if child is None else grad for grad, (child, _) in zip(result, self.next_functions))
        return result[0] if len(result) == 1 else result

    # --- identity and hooks ----------------------------------------------------
    def name(self):
        """PyTorch's name for this node, e.g. ``"MulBackward0"``."""
        return self._name or f"{type(self).__name__}Backward0"

    def register_prehook(self, hook):
        """``hook(grad_outputs) -> None or new grad_outputs`` runs before the node."""
        if self._pre_hooks is None:
            self._pre_hooks = []
            note_hooks()
        self._pre_hooks.append(hook)
        return RemovableHandle(self._pre_hooks, hook)

    def register_hook(self, hook):
        """``hook(grad_inputs, grad_outputs) -> None or new grad_inputs`` runs after it."""
        if self._post_hooks is None:
            self._post_hooks = []
            note_hooks()
        self._post_hooks.append(hook)
        return RemovableHandle(self._post_hooks, hook)

    def _register_tensor_pre_hook(self, output_nr, hook):
        if self._tensor_pre_hooks is None:
            self._tensor_pre_hooks = {}
            note_hooks()
        hooks = self._tensor_pre_hooks.setdefault(output_nr, [])
        hooks.append(hook)
        return RemovableHandle(hooks, hook)

    def _tensor_hooks(self, output_nr):
        """Hooks on the tensor that is output ``output_nr`` of this node (leaf: the tensor's)."""
        if self._tensor_pre_hooks is None:
            return ()
        return self._tensor_pre_hooks.get(output_nr, ())

    def _retained_tensor(self, output_nr):
        if self._retain_grad is None:
            return None
        ref = self._retain_grad.get(output_nr)
        tensor = ref() if ref is not None else None
        # After an in-place op the tensor's grad_fn is a newer node, which retains it instead.
        return tensor if tensor is not None and tensor._grad_fn is self else None

    def __repr__(self):
        # PyTorch's repr, address included; a name in a namespace (torch::autograd::CopySlices)
        # shows its class name alone, as in PyTorch.
        return f"<{self.name().split('::')[-1]} object at {id(self):#x}>"


class AccumulateGrad(Node):
    """The sink for a leaf: adds the incoming gradient into ``variable.grad``.

    PyTorch keeps one per leaf while a graph uses it; so does minigrad, through
    a weak reference on the tensor.
    """

    # PyTorch gives AccumulateGrad the largest sequence number, so a leaf's
    # gradient is stored as soon as it is complete.
    _sequence_nr = math.inf

    def __init__(self, variable):
        self.variable = variable

    def __repr__(self):
        return f"<AccumulateGrad object at {id(self):#x}>"  # PyTorch shows the class name here, not name()

    def name(self):
        return "torch::autograd::AccumulateGrad"

    def _tensor_hooks(self, output_nr):
        return self.variable._hooks or ()

    def _retained_tensor(self, output_nr):
        return None

    def backward(self, grad):
        """Add ``grad`` into the leaf's ``.grad`` (what the engine does when this node runs)."""
        accumulate_grad(self.variable, grad)
        return ()


_NO_EDGE = (None, 0)  # where the gradient of an input that needs none goes

#: ``needs_input_grad`` of a node of one input or two, one tuple each for all nodes (fast_path, 16).
_NEEDS_0, _NEEDS_1, _NEEDS_00, _NEEDS_01, _NEEDS_10, _NEEDS_11 = (
    (False,), (True,), (False, False), (False, True), (True, False), (True, True))

_weak = weakref.ref


def accumulator_edge(leaf):
    """``(AccumulateGrad, 0)``: the edge into a leaf that requires grad.

    The leaf's accumulator while a graph holds it, else a new one, which the leaf knows only
    weakly (as in PyTorch: it lives as long as some graph uses it, so the graph holds no cycle).
    Every recorded op on a parameter asks this, so the node is made without a call to __init__.
    """
    ref = leaf._accumulator_ref
    node = ref() if ref is not None else None
    if node is None:
        node = _new_node(AccumulateGrad)
        node.variable = leaf
        leaf._accumulator_ref = _weak(node)
    return (node, 0)


def _laid_out_like(array):
    """An empty array of ``array``'s shape and dtype whose memory order follows it (else C order)."""
    return np.empty_like(array, order="K" if array.flags.f_contiguous or array.flags.c_contiguous else "C")


def accumulate_grad(tensor, grad, keep=False):
    """Add ``grad`` into ``tensor.grad`` as PyTorch does: every ``.grad`` write goes through here.

    Without ``create_graph`` the sum is written in place into the existing
    ``.grad`` (so a reference to it sees the new value); while recording,
    the sum is a new Tensor with its own ``grad_fn``.

    A new ``.grad`` is laid out in memory like the leaf (PyTorch's "gradient layout
    contract"): C order for the usual leaf, the leaf's own order for a transposed one.
    With ``keep``, the engine vouches that nothing else holds ``grad`` and that it is laid
    out so (``fast_path.FreshGradients``): a first ``.grad`` is then ``grad``'s array, not a copy.
    """
    old = tensor._grad
    if old is None and _state.grad_enabled:
        # Recording (create_graph): a copy that stays in the graph, made as PyTorch makes it:
        # an empty tensor, then copy_ (so .grad's grad_fn is CopyBackwards, at version 1).
        from .ops.inplace import copy_

        tensor._grad = copy_(_tensor.Tensor._wrap(_laid_out_like(tensor._data)), grad)
    elif old is None and keep:
        tensor._grad = _tensor.Tensor._wrap(grad._data)
    elif old is None:
        # Copy: the incoming gradient may be shared with another input (Add
        # sends the same tensor to both sides) or be the user's `gradient=`.
        out = _laid_out_like(tensor._data)
        np.copyto(out, grad._data, casting="unsafe")
        tensor._grad = _tensor.Tensor._wrap(out)
    elif _state.grad_enabled:
        tensor._grad = old + grad
    else:
        # In place, as PyTorch's `variable_grad += new_grad` under no_grad, even when .grad has a
        # graph of its own (from an earlier create_graph=True): its grad_fn stays, its version moves.
        np.add(old._data, grad._data, out=old._data, casting="unsafe")
        old._shared_version_counter().value += 1
    for hook in tensor._post_accumulate_hooks or ():
        if hook(tensor) is not None:
            raise RuntimeError(messages.POST_ACCUMULATE_HOOK_RETURNED)




class GradientEdge(typing.NamedTuple):
    """Where a tensor's gradient enters the graph: ``(node, output_nr)`` with names.

    ``next_functions`` holds plain pairs (as PyTorch prints them); ``autograd.grad``
    accepts a GradientEdge in ``inputs`` in place of the tensor.
    """

    node: Node
    output_nr: int

    def _gradient_edge(self):
        return (self.node, self.output_nr)


def walk(start):
    """Every node below ``start`` (a node, or several), each once: breadth first, in
    ``next_functions`` order, with a queue instead of recursion (graphs can be deep).

    >>> import minigrad
    >>> x = minigrad.tensor(2.0, requires_grad=True)
    >>> [node.name() for node in walk((x.exp() * x).grad_fn)]
    ['MulBackward0', 'ExpBackward0', 'torch::autograd::AccumulateGrad']
    """
    starts = [start] if start is None or hasattr(start, "next_functions") else list(start)
    order, seen = [], set()
    queue = deque(node for node in starts if node is not None)
    while queue:
        node = queue.popleft()
        if node in seen:
            continue
        seen.add(node)
        order.append(node)
        queue.extend(child for child, _ in node.next_functions if child is not None)
    return order


def parents(start):
    """``{node: [nodes with an edge into it]}`` below ``start``, one entry per edge (``x * x`` gives two).

    >>> import minigrad
    >>> x = minigrad.tensor(2.0, requires_grad=True)
    >>> leaf = minigrad.autograd.graph.get_gradient_edge(x).node
    >>> [node.name() for node in parents((x * x).grad_fn)[leaf]]
    ['MulBackward0', 'MulBackward0']
    """
    found = {}
    for node in walk(start):
        for child, _ in node.next_functions:
            if child is not None:
                found.setdefault(child, []).append(node)
    return found


def nodes_on_a_path(start, ends, targets=()):
    """The nodes below ``start`` from which a path leads into ``ends``, plus ``targets`` on the way.

    A node of ``ends`` is in the result only if a path leads from it to another end
    (or it is a target): the engine runs exactly these nodes for ``inputs=``, where the
    ends are the nodes whose gradient is taken.

    >>> import minigrad
    >>> x = minigrad.tensor(2.0, requires_grad=True)
    >>> h = x.exp()
    >>> y = (h * x).sum()
    >>> leading_to_h = nodes_on_a_path(y.grad_fn, {h.grad_fn})
    >>> [node.name() for node in walk(y.grad_fn) if node in leading_to_h]
    ['SumBackward0', 'MulBackward0']
    """
    starts = [start] if start is None or hasattr(start, "next_functions") else list(start)
    # Depth-first walk with an explicit stack; `order` lists each node after
    # all nodes below it (post-order), so children are decided before parents.
    seen, order = set(), []
    for root in starts:
        if root is None or root in seen:
            continue  # already reached from an earlier start
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

    found = set()
    for node in order:  # children come before their parents here
        if node in targets or any(child in found or child in ends for child, _ in node.next_functions
                                  if child is not None):
            found.add(node)
    return found
