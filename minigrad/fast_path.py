"""Speed: the tricks that make minigrad fast on small tensors, kept in one place.

Learners' tensors are small (the micrograd demo's are 100x16), so an op's
cost is not NumPy's arithmetic but what wraps it: Python calls, checks, the
graph node, the engine's bookkeeping. Every trick here removes such a cost
without changing what an op computes or records: ``graph.py`` and ``engine.py``
call them by name, and the op files (``ops/*.py``) still read formula,
forward, backward. Each was kept because a benchmark showed it pays
(``benchmarks/per_op_overhead.py``, ``micrograd_demo.py``, ``long_chain.py``,
``mlp_step.py``, or for the small ones ``instructions.py``, which counts what a step
executes, whatever the host's load); ``benchmarks/profile_minigrad.py`` shows where time goes.

1. ``warnings_off`` / ``warnings_back``: NumPy's floating-point warnings off
   around one call (PyTorch gives none for inf and nan). ``np.errstate``
   builds its settings object at every call; here it is built once.
2. ``is_recorded``: the test of whether an op records a node (``Node.apply``
   writes it out in its loop, ``records`` asks it of one input). When it is
   False (grad mode off, or no input requires grad, which is every op inside a
   plain backward pass), an op is its forward and one Tensor wrapper: no node
   is linked, nothing is saved.
3. ``broadcast_view``: ``np.broadcast_to`` without its Python overhead
   (``expand``, and the backward of every sum and mean).
4. ``FreshGradients``: the engine's record of the gradients nobody else can
   see, so that a leaf keeps its first gradient as ``.grad`` without a copy,
   as PyTorch does.
5. ``pace_collector`` / ``graph_released``: Python's cyclic garbage collector
   scans a growing graph again and again, though the graph has no cycles; its
   full collections come rarer while a long graph lives.
6. Backward formulas on arrays when nothing records: ``plain_backward.py`` (its
   own module, because it subclasses Tensor, which imports this one).
7. ``backward()``'s loop when nobody watches: ``fast_backward.py`` runs the
   engine's pass for the common node without a call per step.
8. ``write_in_place``: in-place arithmetic that records nothing (an optimizer's
   ``p -= lr * p.grad``) goes straight into the tensor's memory.
9. ``unrecorded_view``: a view op (``reshape``, ``t``, ``x[1:3]``, ``expand`` ...)
   that records nothing is its node class's ``view`` (the array alone) and a wrapper.
10. ``Node.apply_unary`` / ``Node.apply_binary``: ``Node.apply`` written out for one input
   (``exp``, ``relu``, ``sum``) or two without parameters (``x * y``, ``x @ y``): a general
   ``apply`` spends about 0.3 µs packing and unpacking its arguments and looping over its inputs.
   ``apply_unary`` and ``apply_as_view`` take forward's parameters in its order: a call by
   keyword costs about 0.2 µs more (``Node._named_params`` names them where they are kept).
   They call ``forward`` (and ``unrecorded_view`` a node's ``view``) with its arguments written
   out when it has no parameter or one, the common cases: a call that spreads ``*args`` costs
   about 0.1 µs more, as Python's quick path for calls does not take it.
11. ``unrecorded_op``: an op that records nothing and whose forward only computes (softmax)
   is that computation and a wrapper, as ``unrecorded_view`` is for a view.
12. ``ones_for`` / ``sum_all``: on a small array a NumPy reduction costs about 1 µs, whatever
   its size; a product with a vector of ones (BLAS) sums in a third of that (``x.sum()``, and
   softmax's sums).
13. ``Tensor._meta``: the ``(shape, dtype)`` pair a node keeps of each input (to fit the
   gradients it returns) is made once per tensor, not at every op that uses it (a parameter
   is used by every step). Only two things swap a tensor's array for another, and both clear
   it: the ``data`` setter and a module's ``.to(dtype)``.
14. A saved output keeps no version counter until something needs one (see graph.py,
   "saved tensors, compact"): most are never changed in place.
15. ``grad_mode.threads_without_grad`` / ``threads_with_extras``: an op reads grad mode and
   the recording extras, both per thread, only while some thread has them switched; reading a
   thread-local value costs as much as a small part of an op.
16. What a node holds, small: a 10^6-node chain held about 850 bytes per node, and each
   object a node keeps is work for the collector (5.) and fresh memory for the system to hand
   out (a chain that long asked it for about a gigabyte, page by page, every time). So the
   ``(shape, dtype)`` pairs of 13. are shared by all tensors of one shape and dtype
   (``shared_meta``), ``needs_input_grad`` is one of six shared tuples for a node of one or two
   inputs, and the saved values are a tuple, not a list with room to grow: about 640 bytes
   (a little more with 17., which gives every instance room for the names it reserves).
17. ``reserve_instance_attributes``: the names recording sets on a tensor and a node are put
   in CPython's table of attribute names when the class is made. A name first set after the
   table had filled up gave each instance a dict of its own: a recorded node or result 240
   bytes more; a chain in a process that had run the per-op benchmark before held 1,056 bytes
   per node, now about 700.
18. No ``__getattr__`` on ``Node``: CPython 3.11 specializes an attribute read
   (``node.next_functions``, ``node._released`` ...) to a few instructions only for a class
   with the default attribute lookup; a class that defines ``__getattr__`` gets the slow,
   general lookup at every read, found or not. The engine reads node attributes all the time,
   so ``_saved_self`` and the other peeks at what a node saved are now one descriptor per
   name (``graph.SavedPeek``, made in ``Node.__init_subclass__``): 4% fewer instructions in
   the tiny MLP step (``benchmarks/instructions.py``), in every part of it. (``nn.Module``
   keeps its ``__getattr__``: it is PyTorch's way to find parameters, and a module is read far
   less often than a node.)
19. ``hooks_in_use`` / ``PLAIN_NODE_TYPES``: the plain backward loop (7.) asks a node whether
   it is the common kind by its type, and asks nodes and leaves for hooks only once the
   process has registered one (``note_hooks``); the other reads were of class defaults, each
   costing about four reads of an instance's own attributes on CPython 3.11.
20. ``zero_where``: relu's backward keeps the gradient where the output is positive and puts
   zeros elsewhere. ``np.where`` does that element by element (in an MLP step, 120 µs on a
   128x256 batch); ``grad * mask`` is fast but wrong (inf * 0 is nan, -1 * 0 is -0.). The
   same bits come from a bitwise AND with a mask of all-ones or all-zeros words, which NumPy
   vectorizes: two calls instead of one, so below about 2,000 elements ``np.where`` it is.
21. ``matrix_product``: for two matrices ``a.dot(b)`` gives ``np.matmul``'s result at less
   overhead (about 1.2 against 1.9 µs; bit for bit where BLAS takes the operands as they are),
   but it fills its output with zeros before BLAS writes it. On a large output that costs more
   than the overhead saves: the first layer's weight gradient in the MLP step (256x784) took
   about 8 µs longer with ``dot``. (With cold caches ``dot`` is still the faster of the two
   on the 128x256 products of that step.)
22. ``last_dim_max``: NumPy's max along the last dim costs about 50 ns per row, however short
   the row: for the MLP step's 128 rows of 10 logits, log_softmax spent 8 µs on its max. Short
   rows are copied transposed, and the max then runs down the columns in one vectorized loop.
"""

import functools
import gc
import sys

import numpy as np

from .grad_mode import _state, threads_without_grad

_new_object = object.__new__

# --- 1. quiet floating point -------------------------------------------------------------
try:  # NumPy 2: errstate is a context variable holding a settings object; build that once.
    from numpy._core._ufunc_config import _extobj_contextvar, _make_extobj
except ImportError:  # NumPy 1.x: the public context manager
    _extobj_contextvar = None

if _extobj_contextvar is not None:
    # (Built at import: the buffer size and error callback of that moment ride along, which
    # only matters to the warnings, and those are all off.)
    _IGNORE_ALL = _make_extobj(all="ignore")
    #: ``token = warnings_off()`` ... ``warnings_back(token)``: NumPy's floating-point warnings
    #: off in between (a try/finally around the NumPy call, written where it is used: a call
    #: through a helper would cost as much as the settings object it saves).
    warnings_off = functools.partial(_extobj_contextvar.set, _IGNORE_ALL)
    warnings_back = _extobj_contextvar.reset
else:
    def warnings_off():
        quiet = np.errstate(all="ignore")
        quiet.__enter__()
        return quiet

    def warnings_back(quiet):
        quiet.__exit__(None, None, None)


def quietly(function, *args, **kwargs):
    """``function(*args, **kwargs)`` with NumPy's floating-point warnings off: a conversion of a
    number too large for the dtype (``tensor([1e300])``, ``x + 1e300``) is inf, silently, as in
    PyTorch. (For what is not on an op's hot path; ``Node.apply`` does this for ``may_warn``.)"""
    quiet = warnings_off()
    try:
        return function(*args, **kwargs)
    finally:
        warnings_back(quiet)


#: A number no larger than this (float16's largest) fits every float dtype: converting it cannot overflow.
SAFE_FOR_EVERY_FLOAT = 65504.0


# --- 2. recorded or eager ------------------------------------------------------------------
def is_recorded(inputs):
    """True if some input requires grad: with grad mode on, an op on ``inputs`` records a node.

    (A view's base may have come to require grad through an in-place op since it was made:
    ``requires_grad`` of a view looks again.)
    """
    for t in inputs:
        if t._requires_grad or (t._base is not None and t.requires_grad):
            return True
    return False


# --- 3. cheap broadcast views ------------------------------------------------------------
def broadcast_view(array, shape):
    """``np.broadcast_to(array, shape)``: a read-only view, built by the array constructor.

    ``np.broadcast_to`` is written in Python and costs several times the view it makes
    (``expand``, and the backward of every sum and mean, make one). For a C-contiguous array
    the view's strides are simple: 0 along every dimension that is added or of size 1, the
    array's own stride elsewhere. They are worked out once per layout and target shape
    (``_broadcast_strides``). (``setflags`` makes the view read-only at a third of the cost of
    ``flags.writeable = False``.)

    Raises:
        ValueError: if ``array`` does not broadcast to ``shape`` (as ``np.broadcast_to``).

    >>> import numpy as np
    >>> broadcast_view(np.arange(3.0), (2, 3))
    array([[0., 1., 2.],
           [0., 1., 2.]])
    """
    # (shape, strides and itemsize fix whether the array is C-contiguous: a layout found
    # here once is one the array constructor can view.)
    key = (array.shape, array.strides, array.itemsize, shape)
    strides = _strides_for.get(key)
    if strides is None:
        strides = _broadcast_strides(array, shape)
        if strides is None:
            return np.broadcast_to(array, shape)
        if len(_strides_for) >= 1024:  # (a program with ever new shapes: start again)
            _strides_for.clear()
        _strides_for[key] = strides
    view = np.ndarray(shape, array.dtype, array, 0, strides)
    view.setflags(write=False)
    return view


_strides_for = {}  # (shape, strides, itemsize, target shape) -> the strides of the broadcast view


def _broadcast_strides(array, shape):
    """The strides of ``array`` broadcast to ``shape``; None where the array constructor cannot
    make that view (memory not in C order, or empty), so ``np.broadcast_to`` must."""
    ndim = array.ndim
    lead = len(shape) - ndim
    if lead < 0 or not array.flags.c_contiguous or array.size == 0:
        return None
    strides = [0] * lead
    wanted = lead
    for size, stride in zip(array.shape, array.strides):
        if size == 1:
            strides.append(0)  # (also where nothing is repeated: np.broadcast_to's strides)
        elif size == shape[wanted]:
            strides.append(stride)
        else:
            raise ValueError(f"cannot broadcast shape {array.shape} to {shape}")
        wanted += 1
    return tuple(strides)


# --- 4. no needless gradient copy ----------------------------------------------------------
class FreshGradients:
    """The gradients of one backward pass that nothing outside the engine can see.

    A leaf's first gradient becomes its ``.grad``. PyTorch copies it only if someone else may
    hold it (its use count): the user's ``gradient=``, a gradient a node passed on unchanged
    (``Add`` sends the same one to both inputs), one a hook saw. Everything else, a result of
    a backward formula or a sum of two, the leaf keeps as it is. This class is that use count,
    kept by the engine: it holds the gradients made during the pass that went to one place
    only and that no hook has seen. ``take`` answers once per gradient.
    """

    __slots__ = ("_fresh",)

    def __init__(self):
        self._fresh = {}  # id -> the tensor itself (which keeps the id from being reused)

    def summed(self, first, second, total):
        """The engine added two gradients for one leaf: ``total`` is its own. The two added
        never reach a leaf now: they are dropped (held here, they would count as holders of
        memory another gradient may share, a view of the same array)."""
        fresh = self._fresh
        fresh.pop(id(first), None)
        fresh.pop(id(second), None)
        fresh[id(total)] = total

    def add_result(self, grad, grad_inputs, grad_outputs):
        """Note ``grad``, one of the gradients a built-in node's formula returned, if it is new.

        One that is among the node's incoming gradients, or returned for two inputs, is not.
        (Whether its array is shared with another tensor, ``take`` checks.)
        """
        if not _holds(grad_outputs, grad) and _holds(grad_inputs, grad) == 1:
            self._fresh[id(grad)] = grad

    def forget(self, grads):
        """A hook saw these gradients: it may have kept them."""
        for grad in grads:
            if grad is not None:
                self._fresh.pop(id(grad), None)

    def take(self, grad, like):
        """True if ``grad``'s array may become the ``.grad`` of a leaf whose data is ``like``.

        Besides being fresh, the array must be held by this one tensor (no other tensor wraps
        it, no view of it exists: its reference count says so), laid out as a new ``.grad``
        would be (C order, or the leaf's own order) and writable (a broadcast view is not).

        A view (``nn.Linear``'s weight gradient is ``(grad.mT @ x).mT`` seen through ``.t()``)
        may be taken too, when its memory is its alone: the tensor it was viewed from (its
        ``_base``, which holds that memory as well) must be held by this gradient alone.
        """
        if self._fresh.pop(id(grad), None) is None or not _REFCOUNTS_TELL:
            return False
        array_refs, base_refs, owner_refs = _reference_counts(grad)
        array = grad._data
        if (array_refs > _ARRAY_REFS_WHEN_ALONE or not array.flags.writeable
                or array.dtype != like.dtype or array.shape != like.shape):
            return False
        base = array.base
        if base is not None:
            if base.base is not None:
                return False
            owner = grad._base
            if owner is None:
                holders = _BASE_REFS_WHEN_ALONE
            elif owner._data is base and owner_refs <= _OWNER_REFS_WHEN_ALONE:
                holders = _BASE_REFS_WHEN_ALONE + 1  # the owner's own hold on its array
            else:
                return False
            if base_refs > holders:
                return False
        if like.flags.c_contiguous or like.flags.f_contiguous:
            return array.strides == like.strides
        return array.flags.c_contiguous


def _holds(grads, grad):
    """How many times ``grad`` itself is in ``grads`` (``in`` would compare values)."""
    count = 0
    for other in grads:
        if other is grad:
            count += 1
    return count


def _reference_counts(holder):
    """``sys.getrefcount`` of ``holder._data``, of its base, and of ``holder._base`` (the
    tensor a view was taken from): ``take`` reads them through here."""
    array = holder._data
    base = array.base
    owner = holder._base
    return sys.getrefcount(array), sys.getrefcount(base), sys.getrefcount(owner)


def _calibrate():
    """``(array refs, base refs, owner refs, reliable)`` when one tensor alone holds a gradient.

    The numbers depend on how the running CPython counts references (3.14 counts a local name
    less often than 3.11, say), so they are measured by the same code shape ``take`` uses, not
    written down. If one more holder does not raise both counts, ``take`` cannot tell a shared
    gradient from a fresh one, and every gradient is copied, as before this trick.
    """
    class Holder:
        _base = None

    alone, other = Holder(), Holder()
    alone._data = np.ones((2, 3)).T  # a view, so that its base is counted too
    alone._base = Holder()  # the tensor it was viewed from (held there alone)
    array_refs, base_refs, owner_refs = _reference_counts(alone)
    other._data = alone._data  # a second holder of the same array ...
    shared_array_refs, _, _ = _reference_counts(alone)
    other._data = alone._data.base.T  # ... or of another view of the same memory ...
    _, shared_base_refs, _ = _reference_counts(alone)
    other._base = alone._base  # ... or of the owner
    _, _, shared_owner_refs = _reference_counts(alone)
    tell = shared_array_refs > array_refs and shared_base_refs > base_refs and shared_owner_refs > owner_refs
    return array_refs, base_refs, owner_refs, tell


#: ``sys.getrefcount`` of a gradient's array (and of its base and the tensor it was viewed
#: from, for a view) in ``_reference_counts`` when one tensor alone holds it, and whether an
#: extra holder shows.
_ARRAY_REFS_WHEN_ALONE, _BASE_REFS_WHEN_ALONE, _OWNER_REFS_WHEN_ALONE, _REFCOUNTS_TELL = _calibrate()


# --- 5. the garbage collector and long graphs ----------------------------------------------
# minigrad's graph holds no reference cycles (a node keeps its own output as an array, not as
# the Tensor that points back at it; a leaf knows its AccumulateGrad only weakly), so reference
# counting frees a graph as soon as the last tensor on it goes. Python's cyclic collector does
# not know that. Its young collections are cheap (they look at the newest objects only), but a
# full collection scans every object alive, and one runs each time the objects alive have grown
# by a quarter: a growing graph is scanned about five times over, half of the forward time of a
# 10^6-node chain. So while a graph of many nodes is alive, the collector's third threshold (how
# many middle-generation collections come before a full one; 10 by default) grows with it, up to
# PACED_THRESHOLD_CAP. Young and middle collections go on as before, so the cycles other code
# makes are still found, most of them as soon as ever; only those that lived long wait longer.
# The user's thresholds come back when a backward pass frees the graph.

#: Recorded nodes between two looks at the collector (``Node._connect`` counts them).
PACE_EVERY = 4096
#: Graphs smaller than this (training steps) leave the collector alone.
PACE_FROM = PACE_EVERY * 4
#: The highest third threshold set.
PACED_THRESHOLD_CAP = 100_000

_paced_from = None  # the user's thresholds while pacing
_counted_from = 0  # the sequence number where the graph alive is taken to start
_recount = False  # set by graph_released: count from the next look on


def pace_collector(sequence_nr):
    """Called every ``PACE_EVERY`` recorded nodes: make full collections rarer as the graph grows.

    A node makes about six objects the collector tracks; with the default thresholds a
    middle collection comes every 7,000 allocations, so one full collection per
    ``nodes // 100`` middle ones is about one per ten times the graph's size.
    """
    global _paced_from, _counted_from, _recount
    if _recount:
        _counted_from, _recount = sequence_nr, False
    nodes = sequence_nr - _counted_from
    if nodes < PACE_FROM:
        return
    if _paced_from is None:
        _paced_from = gc.get_threshold()
    *young, full = _paced_from
    gc.set_threshold(*young, min(PACED_THRESHOLD_CAP, max(full, nodes // 100)))


def graph_released():
    """A backward pass freed its graph: count again from here, with the user's thresholds."""
    global _paced_from, _recount
    _recount = True
    if _paced_from is not None:
        gc.set_threshold(*_paced_from)
        _paced_from = None


# --- 8. in-place arithmetic that records nothing ------------------------------------------
def write_in_place(ufunc, tensor, other):
    """``tensor = ufunc(tensor, other)`` in ``tensor``'s own memory, if nothing records it.

    An in-place op computes its result out of place and then copies it in (``ops/inplace.py``),
    so that a recorded one gets its node. When nothing records (``p -= lr * p.grad`` under
    ``no_grad``) and ``other`` is a tensor of the same shape and dtype, NumPy writes the result
    into ``tensor`` at once: no result array, no copy, no node. The caller has checked what
    every in-place op checks first (a leaf that requires grad, a partial overlap), and moves the
    version on after a write, as after every other.

    Returns:
        True if it wrote; False if this case is not one of those, with nothing changed.
    """
    data, array = tensor._data, other._data
    if (array.dtype is not data.dtype or array.shape != data.shape or data.dtype.kind == "b"
            or (ufunc is np.true_divide and data.dtype.kind not in "fc") or not data.flags.writeable):
        return False
    if _state.grad_enabled and is_recorded((tensor, other)):
        return False
    quiet = warnings_off()
    try:
        ufunc(data, array, out=data)
    finally:
        warnings_back(quiet)
    return True


# --- 9. views that record nothing -----------------------------------------------------------
def records(input):
    """True if an op on ``input`` alone records a node (``is_recorded``, with grad mode, for one input)."""
    # (The input's flags first: most inputs need no gradient; then grad mode, read as grad_mode says.)
    return ((input._requires_grad or (input._base is not None and input.requires_grad))
            and (not threads_without_grad or _state.grad_enabled))


def unrecorded_view(node_class, input, *args):
    """``node_class.apply(input, ...)`` for a view op (its result shares ``input``'s memory) that
    records nothing (``records(input)`` is False). ``args``: what ``node_class.view`` takes after
    the array (the op's parameters, in order).

    A view is NumPy's view and a wrapper, so ``Node.apply``'s general steps (a node, the
    forward keeping what backward needs, the test for recording after it) were most of its
    cost. Here the node class's ``view`` makes the array (with the op's errors), and the
    wrapper is marked as a view of ``input`` as ``ops/shape._as_view_of`` marks every view:
    the same base, the same version counter. (An empty result shares no memory, so it is
    not marked, as there.)
    """
    data = input._data
    array = (node_class.view(data) if not args else node_class.view(data, args[0]) if len(args) == 1
             else node_class.view(data, *args))  # (written out for none or one: see 10)
    view = _new_object(_tensor.Tensor)
    view._data = array
    if array.size:
        view._become_view_of(input)
    return view


# --- 11. an op without a node ----------------------------------------------------------------
def unrecorded_op(compute, input, param):
    """``node_class.apply(input, param)`` for an op that records nothing (``records(input)`` is
    False) and whose node's forward is ``compute(input's array, param)`` and nothing else:
    that call, with NumPy's warnings off (as ``Node.apply`` has them for ``may_warn``), and a
    wrapper. A node, and the general steps of ``apply`` around it, cost about as much as a
    small op's arithmetic. (One parameter, not ``*args``: a call that spreads ``*args`` costs
    about 0.1 µs more than one whose arguments are written out.)
    """
    quiet = warnings_off()
    try:
        array = compute(input._data, param)
    finally:
        warnings_back(quiet)
    result = _new_object(_tensor.Tensor)
    result._data = array
    return result


# --- 12. sums as products with ones ----------------------------------------------------------
def ones_for(length, dtype):
    """A vector of ``length`` ones of ``dtype``, made once (do not write into it): ``x.dot(ones)``
    is the sum of a vector ``x``, ``m @ ones`` the sums of a matrix's rows."""
    key = (length, dtype.char)  # (a dtype's character hashes quicker than the dtype)
    ones = _ones_for.get(key)
    if ones is None:
        if len(_ones_for) >= 256:  # (a program of ever new sizes: start again)
            _ones_for.clear()
        ones = _ones_for[key] = np.ones(length, dtype)
    return ones


_ones_for = {}  # (length, dtype's character) -> np.ones of them


# --- 16. small nodes ---------------------------------------------------------------------------
def shared_meta(array):
    """``(array.shape, array.dtype)``, the same tuple for every array of that shape and dtype."""
    meta = (array.shape, array.dtype)
    shared = _metas.get(meta)
    if shared is None:
        if len(_metas) >= 4096:  # (a program of ever new shapes: start again rather than grow)
            _metas.clear()
        shared = _metas[meta] = meta
    return shared


_metas = {}  # (shape, dtype) -> itself

#: Up to this many numbers, ``sum_all`` sums with BLAS. (NumPy sums pairwise, in blocks of 128:
#: on fewer numbers both add one after another, in a few running sums.)
SMALL_SUM = 128


def sum_all(array):
    """``np.add.reduce(array, axis=None)``: the sum of every number, as a product with ones for a
    small float32 or float64 array. BLAS rounds otherwise than NumPy, within the dtype's
    precision, as PyTorch's own sum does. (Its sum of negative zeros is -0.0: that one case is
    NumPy's, whose 0.0 is PyTorch's.)
    """
    size = array.size
    if 0 < size <= SMALL_SUM and array.dtype.char in "fd":
        total = (array if array.ndim == 1 else array.reshape(-1)).dot(ones_for(size, array.dtype))
        if total:  # (nan and inf too)
            return total
    return np.add.reduce(array, axis=None)


# --- 17. attributes in CPython's shared table ------------------------------------------------
def reserve_instance_attributes(cls, names):
    """Make ``names`` the first entries of the attribute table ``cls``'s instances share.

    CPython 3.11 keeps an instance's attributes in a small array that follows a table of names
    shared by all instances of the class. The table takes new names only while few instances
    exist (each new instance lowers the room left), so a name first set after thousands of
    instances were made (a learner's first recorded op after a no-grad warm-up, say) never gets
    in: every instance that sets it gets a dict of its own, about 240 bytes more and slower to
    make. The names every recorded op sets are put in at once, when the class is made.
    """
    instance = object.__new__(cls)
    for name in names:
        object.__setattr__(instance, name, None)


# --- 19. no hooks, no question ---------------------------------------------------------------
#: Empty until the process registers its first hook of any kind (a tensor's, a leaf's
#: post-accumulate hook, a node's pre- or post-hook) or calls ``retain_grad()``; then it holds
#: True for good. Until then the plain backward loop does not ask every node and leaf whether
#: it has hooks: on CPython 3.11 reading an attribute an instance leaves to its class (the
#: ``None`` of ``Node._pre_hooks``) costs about four reads of its own attributes.
hooks_in_use = []

#: The node classes whose formulas take PlainGradients and that have one output (the plain
#: backward loop's common node), kept by ``Node.__init_subclass__``: a set lookup by type
#: instead of two class attribute reads per node.
PLAIN_NODE_TYPES = set()


def note_hooks():
    """A hook or a ``retain_grad()`` exists now: the plain backward loop must look for them."""
    if not hooks_in_use:
        hooks_in_use.append(True)


# --- 20. a select, vectorized --------------------------------------------------------------------
ZERO_WHERE_BY_BITS_FROM = 2048  # elements: the two cross at 1,000-2,000 (a float32 array, one thread)
_SAME_SIZE_INT = {2: np.dtype(np.int16), 4: np.dtype(np.int32), 8: np.dtype(np.int64)}


def zero_where(drop, values):
    """``np.where(drop, 0, values)`` for a floating ``values``, bit for bit: the zeros are +0.,
    and an inf or nan in a dropped place is dropped. ``drop`` is a bool array of the same shape."""
    if values.size < ZERO_WHERE_BY_BITS_FROM:
        return np.where(drop, 0, values)
    bits = _SAME_SIZE_INT[values.dtype.itemsize]
    keep = np.subtract(drop, 1, dtype=bits)  # 0 (no bit) where dropped, -1 (every bit) where kept
    return np.bitwise_and(values.view(bits), keep, out=keep).view(values.dtype)  # (into keep: no third array)


# --- 21. a product of two matrices ----------------------------------------------------------------
MATMUL_FROM = 1 << 16  # output elements: below, dot's zero fill costs less than matmul's overhead


def matrix_product(a, b):
    """``np.matmul(a, b)`` of two 2-D arrays by the cheaper of two NumPy calls (the same bits, except
    that a strided one-row product may round differently)."""
    if a.shape[0] * b.shape[1] < MATMUL_FROM:
        return a.dot(b)
    return np.matmul(a, b)


# --- 22. the max of each short row ----------------------------------------------------------------
SHORT_ROW = 16  # numbers per row: up to here the transposed copy is the quicker (128 rows of 10: 2 µs, not 8)
MANY_NUMBERS = 256  # ... on this many numbers or more; on fewer, the copy and reshapes cost what they save


def last_dim_max(array):
    """``np.maximum.reduce(array, axis=-1, keepdims=True)`` of a nonempty array of one dim or more.

    NumPy reduces a row at a time, and each row costs it about 50 ns however short it is: the
    max of each of 128 rows of 10 logits took 8 µs. Short rows are copied transposed first, so
    that the max runs down the columns, a whole row of the copy at a time. The values are the
    same (a max is one of its numbers, and a nan wins either way); a zero's sign may differ
    where a row's max is a zero that occurs with both signs.
    """
    columns = array.shape[-1]
    if columns > SHORT_ROW or array.size < MANY_NUMBERS or array.ndim < 2:
        return np.maximum.reduce(array, axis=-1, keepdims=True)
    by_column = array.reshape(-1, columns).T.copy()
    return np.maximum.reduce(by_column, axis=0).reshape(array.shape[:-1] + (1,))


# tensor.py imports this module (through graph.py): the module is bound last, when everything
# here that graph.py imports is defined (creation.py may import this module first).
from . import tensor as _tensor  # noqa: E402
