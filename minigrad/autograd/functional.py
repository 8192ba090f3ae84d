"""PyTorch's ``torch.autograd.functional``: derivatives of a whole function at a point.

Everything here is built from one tool, ``autograd.grad``, which gives a
vector-Jacobian product ``v^T J``:

* ``vjp``: one call.
* ``jacobian``: one ``vjp`` per output element, with ``v`` a basis vector (a row of J).
* ``jvp`` (``J v``): the *double-backward trick*. ``g(u) = u^T J`` is linear in
  ``u``, so the vjp of ``g`` with vector ``v`` is ``J v``: differentiate the
  backward pass once more, with respect to the dummy ``u``.
* ``hessian``: the Jacobian of the gradient; ``vhp``/``hvp``: one more vjp of
  the gradient (``hvp`` with the double-backward trick again).

Results have the structure PyTorch gives them: a Tensor where the user gave
a Tensor, a tuple where the user gave a tuple, and nested tuples
``result[i][j]`` (output i, input j) for Jacobians of several outputs and inputs.
"""

from ..creation import zeros_like
from ..grad_mode import enable_grad, is_grad_enabled, set_grad_enabled
from ..ops import stack
from ..tensor import Tensor

__all__ = ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]


# --- helpers, as in PyTorch's functional.py ------------------------------------------


def _as_tuple(inp, arg_name, fn_name):
    """``(was it a tuple?, the inputs as a tuple)``; anything but Tensors is a TypeError."""
    is_tuple = isinstance(inp, tuple)
    if not is_tuple:
        inp = (inp,)
    for i, el in enumerate(inp):
        if not isinstance(el, Tensor):
            where = f"the value at index {i}" if is_tuple else f"the given {arg_name}"
            raise TypeError(
                f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of Tensors but "
                f"{where} has type {type(el)}.")
    return is_tuple, inp


def _tuple_postprocess(res, to_unpack):
    """Undo ``_as_tuple``: unwrap one level (a bool) or two levels (a pair of bools)."""
    if isinstance(to_unpack, tuple):
        if not to_unpack[1]:
            res = tuple(el[0] for el in res)
        if not to_unpack[0]:
            res = res[0]
    elif not to_unpack:
        res = res[0]
    return res


def _grad_preprocess(inputs, create_graph, need_graph):
    """Fresh tensor objects for the inputs, so the graph we build starts at them.

    With ``create_graph`` an input that requires grad stays connected to its
    history (through a view); otherwise it is detached.
    """
    result = []
    for inp in inputs:
        if create_graph and inp.requires_grad:
            result.append(inp.view_as(inp))
        else:
            result.append(inp.detach().requires_grad_(need_graph))
    return tuple(result)


def _grad_postprocess(inputs, create_graph):
    """Detach the results unless the user asked for a differentiable result."""
    if isinstance(inputs[0], Tensor):
        return inputs if create_graph else tuple(inp.detach() for inp in inputs)
    return tuple(_grad_postprocess(inp, create_graph) for inp in inputs)


def _validate_v(v, other, is_other_tuple):
    if len(other) != len(v):
        if is_other_tuple:
            raise RuntimeError(f"v is a tuple of invalid length: should be {len(other)} but got {len(v)}.")
        raise RuntimeError("The given v should contain a single Tensor.")
    for idx, (el_v, el_other) in enumerate(zip(v, other)):
        if el_v.shape != el_other.shape:
            prepend = f"Entry {idx} in " if is_other_tuple else ""
            raise RuntimeError(
                f"{prepend}v has invalid size: should be {_size(el_other.shape)} but got {_size(el_v.shape)}.")


def _size(shape):
    return f"minigrad.Size([{', '.join(str(s) for s in shape)}])"


def _check_requires_grad(inputs, input_type, strict):
    """In strict mode, refuse results that do not depend on the inputs."""
    if not strict:
        return
    for i, inp in enumerate(inputs):
        if inp is None:
            raise RuntimeError(
                f"The output of the user-provided function is independent of input {i}."
                " This is not allowed in strict mode.")
        if inp.requires_grad:
            continue
        if input_type == "hessian":
            raise RuntimeError(
                f"The hessian of the user-provided function with respect to input {i}"
                " is independent of the input. This is not allowed in strict mode."
                " You should ensure that your function is thrice differentiable and that"
                " the hessian depends on the inputs.")
        if input_type == "jacobian":
            raise RuntimeError(
                "While computing the hessian, found that the jacobian of the user-provided"
                f" function with respect to input {i} is independent of the input. This is not"
                " allowed in strict mode. You should ensure that your function is twice"
                " differentiable and that the jacobian depends on the inputs (this would be"
                " violated by a linear function for example).")
        if input_type == "grad_inputs":
            raise RuntimeError(
                f"The gradient with respect to input {i} is independent of the inputs of the"
                " user-provided function. This is not allowed in strict mode.")
        raise RuntimeError(
            f"Output {i} of the user-provided function does not require gradients."
            " The outputs must be computed in a differentiable manner from the input"
            " when running in strict mode.")


def _autograd_grad(outputs, inputs, grad_outputs=None, create_graph=False, retain_graph=None):
    """``autograd.grad`` that skips outputs outside the graph and returns None for unused inputs."""
    from . import grad

    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    pairs = [(out, g) for out, g in zip(outputs, grad_outputs) if out is not None and out.requires_grad]
    if not pairs:
        return (None,) * len(inputs)
    return grad([out for out, _ in pairs], inputs, [g for _, g in pairs], allow_unused=True,
                create_graph=create_graph, retain_graph=retain_graph)


_STRICT_NONE = {
    "back": "The output of the user-provided function is independent of input {i}. "
            "This is not allowed in strict mode.",
    "back_trick": "The gradient with respect to the input is independent of entry {i} in the "
                  "grad_outputs when using the double backward trick to compute forward mode "
                  "gradients. This is not allowed in strict mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {i}. "
                   "This is not allowed in strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry {i} in "
                         "the grad_jacobian. This is not allowed in strict mode as it prevents from "
                         "using the double backward trick to replace forward mode AD.",
}


def _fill_in_zeros(grads, refs, strict, create_graph, stage):
    """Replace a None gradient (no dependence) by zeros, or refuse it in strict mode."""
    result = []
    for i, grad in enumerate(grads):
        if grad is None:
            if strict:
                raise RuntimeError(_STRICT_NONE[stage].format(i=i))
            grad = zeros_like(refs[i])
        elif strict and create_graph and not grad.requires_grad:
            what = "hessian" if "double" in stage else "jacobian"
            raise RuntimeError(
                f"The {what} of the user-provided function is independent of "
                f"input {i}. This is not allowed in strict mode when create_graph=True.")
        result.append(grad)
    return tuple(result)


def _prepare_v(v, reference, is_reference_tuple, create_graph, fn_name, none_message):
    if v is None:
        if len(reference) != 1 or reference[0].numel() != 1:
            raise RuntimeError(none_message)
        return None
    _, v = _as_tuple(v, "v", fn_name)
    v = _grad_preprocess(v, create_graph=create_graph, need_graph=False)
    _validate_v(v, reference, is_reference_tuple)
    return v


_V_NONE_INPUT = ("The vector v can only be None if the input to the user-provided function "
                 "is a single Tensor with a single element.")


# --- the public functions ------------------------------------------------------------


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """The vector-Jacobian product ``v^T J`` of ``func`` at ``inputs``.

    Args:
        func: a function of Tensors returning a Tensor or a tuple of Tensors.
        inputs: a Tensor or a tuple of Tensors.
        v: one Tensor per output, shaped like it; may be omitted if the output
            is a single element (then it is 1).
        create_graph: make the results differentiable.
        strict: raise instead of returning zeros when an input does not matter.

    Returns:
        ``(func_output, vjp)``, the vjp shaped like ``inputs``.

    Raises:
        RuntimeError: with PyTorch's messages for a wrong ``v`` and in strict mode.

    >>> import minigrad
    >>> from minigrad.autograd.functional import vjp
    >>> vjp(lambda x: x ** 2, minigrad.tensor([1.0, 2.0]), minigrad.ones(2))
    (tensor([1., 4.]), tensor([2., 4.]))
    """
    with enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "vjp")
        _check_requires_grad(outputs, "outputs", strict=strict)
        v = _prepare_v(v, outputs, is_outputs_tuple, create_graph, "vjp",
                       "The vector v can only be None if the user-provided function returns "
                       "a single Tensor with a single element.")
    with set_grad_enabled(create_graph or is_grad_enabled()):
        grads = _autograd_grad(outputs, inputs, v, create_graph=create_graph)
        result = _fill_in_zeros(grads, inputs, strict, create_graph, "back")
    outputs = _grad_postprocess(outputs, create_graph)
    result = _grad_postprocess(result, create_graph)
    return _tuple_postprocess(outputs, is_outputs_tuple), _tuple_postprocess(result, is_inputs_tuple)


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """The Jacobian-vector product ``J v`` of ``func`` at ``inputs``, by the double-backward trick.

    ``u -> u^T J`` (a backward pass with a dummy ``grad_outputs`` u) is linear in
    u, and its own vjp with ``v`` is ``J v``.

    Args:
        func: a function of Tensors returning a Tensor or a tuple of Tensors.
        inputs: a Tensor or a tuple of Tensors.
        v: one Tensor per input, shaped like it; may be omitted if the input is
            a single element (then it is 1).
        create_graph: make the results differentiable.
        strict: raise instead of returning zeros when an output does not depend on the inputs.

    Returns:
        ``(func_output, jvp)``, the jvp shaped like the output.

    Raises:
        RuntimeError: with PyTorch's messages for a wrong ``v`` and in strict mode.

    >>> import minigrad
    >>> from minigrad.autograd.functional import jvp
    >>> jvp(lambda x: x ** 2, minigrad.tensor([1.0, 2.0]), minigrad.tensor([1.0, 0.0]))
    (tensor([1., 4.]), tensor([2., 0.]))
    """
    with enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        v = _prepare_v(v, inputs, is_inputs_tuple, create_graph, "jvp",
                       "The vector v can only be None if the input to the user-provided function "
                       "is a single Tensor with a single element.")
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "jvp")
        _check_requires_grad(outputs, "outputs", strict=strict)
        # The backward is linear in grad_outputs, so their values never reach the
        # result: zeros will do (they only must not be inf or nan).
        grad_outputs = tuple(zeros_like(out, requires_grad=True) for out in outputs)
        grad_inputs = _autograd_grad(outputs, inputs, grad_outputs, create_graph=True)
        _check_requires_grad(grad_inputs, "grad_inputs", strict=strict)
    with set_grad_enabled(create_graph or is_grad_enabled()):
        grads = _autograd_grad(grad_inputs, grad_outputs, v, create_graph=create_graph)
        result = _fill_in_zeros(grads, outputs, strict, create_graph, "back_trick")
    outputs = _grad_postprocess(outputs, create_graph)
    result = _grad_postprocess(result, create_graph)
    return _tuple_postprocess(outputs, is_outputs_tuple), _tuple_postprocess(result, is_outputs_tuple)


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    """The Jacobian of ``func`` at ``inputs``: one backward pass per output element.

    Args:
        func: a function of Tensors returning a Tensor or a tuple of Tensors.
        inputs: a Tensor or a tuple of Tensors.
        create_graph: make the Jacobian differentiable (for higher derivatives).
        strict: raise instead of returning zeros when an output does not depend on an input.
        vectorize: accepted; the Jacobian is computed row by row all the same (PyTorch batches
            the rows with vmap; minigrad has none).
        strategy: ``"reverse-mode"`` or ``"forward-mode"`` (which needs ``vectorize=True``, as in
            PyTorch); both run reverse mode here, with the same result.

    Returns:
        ``J[i][j]`` of shape ``output_i.shape + input_j.shape``: a Tensor for one
        input and one output, a tuple when one of them is a tuple, a tuple of
        tuples when both are.

    Raises:
        RuntimeError: in strict mode, with PyTorch's messages.
        NotImplementedError: for forward mode without ``vectorize=True`` (PyTorch's limits).

    >>> import minigrad
    >>> from minigrad.autograd.functional import jacobian
    >>> jacobian(lambda x: x ** 2, minigrad.tensor([1.0, 2.0]))
    tensor([[2., 0.],
            [0., 4.]])
    """
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError(
            'Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your '
            'function has more outputs than inputs, "forward-mode" tends to be more performant. '
            'Otherwise, prefer to use "reverse-mode".')
    if strategy == "forward-mode":
        if create_graph:
            raise NotImplementedError(
                "minigrad.autograd.functional.jacobian: `create_graph=True` "
                'and `strategy="forward-mode"` are not supported together (yet). '
                "Please either set `create_graph=False` or "
                '`strategy="reverse-mode"`.')
        if strict:
            raise RuntimeError(
                "minigrad.autograd.functional.jacobian: `strict=True` "
                'and `strategy="forward-mode"` are not supported together (yet). '
                "Please either set `strict=False` or "
                '`strategy="reverse-mode"`.')
        if not vectorize:
            raise NotImplementedError(
                "Computing Jacobian using forward-AD or forward-over-reverse Hessian is"
                "only implemented for `vectorize=True`.")
    if vectorize and strict:
        raise RuntimeError(
            "minigrad.autograd.functional.jacobian: `strict=True` and `vectorized=True` are not "
            "supported together. Please either set `strict=False` or `vectorize=False`.")
    # NB: PyTorch computes vectorize=True with vmap (all rows in one batched pass) and
    # forward-mode with forward AD, column by column; minigrad has neither, so every
    # strategy runs the reverse-mode loop below: the same Jacobian, one backward per row.

    with enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "jacobian")
        _check_requires_grad(outputs, "outputs", strict=strict)

        jacobian = []
        for i, out in enumerate(outputs):
            rows = [[] for _ in inputs]  # rows[j]: the rows of d out / d inputs[j]
            flat = out.reshape(-1)
            for k in range(out.numel()):
                # d out[k] / d inputs: one row of the Jacobian per backward pass.
                vj = _autograd_grad((flat[k],), inputs, retain_graph=True, create_graph=create_graph)
                for j, (row, inp) in enumerate(zip(vj, inputs)):
                    if row is None:
                        if strict:
                            raise RuntimeError(
                                f"Output {i} of the user-provided function is independent of input {j}. "
                                "This is not allowed in strict mode.")
                        row = zeros_like(inp)
                    elif strict and create_graph and not row.requires_grad:
                        raise RuntimeError(
                            f"The jacobian of the user-provided function is independent of input {i}. "
                            "This is not allowed in strict mode when create_graph=True.")
                    rows[j].append(row)
            jacobian.append(tuple(stack(rows_j, 0).view(out.shape + inp.shape)
                                  for rows_j, inp in zip(rows, inputs)))
        jacobian = _grad_postprocess(tuple(jacobian), create_graph)
        return _tuple_postprocess(jacobian, (is_outputs_tuple, is_inputs_tuple))


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False,
            outer_jacobian_strategy="reverse-mode"):
    """The Hessian of a scalar function ``func`` at ``inputs``: the Jacobian of its gradient.

    Args:
        func: a function of Tensors returning a single-element Tensor.
        inputs: a Tensor or a tuple of Tensors.
        create_graph: make the Hessian differentiable.
        strict: raise instead of returning zeros when an input does not matter.
        vectorize: accepted (see ``jacobian``).
        outer_jacobian_strategy: ``"reverse-mode"`` or ``"forward-mode"`` (see ``jacobian``).

    Returns:
        ``H`` of shape ``input.shape + input.shape`` for one input; for a tuple of
        inputs, a tuple of tuples with ``H[i][j]`` for inputs i and j.

    Raises:
        RuntimeError: if ``func`` does not return a single-element Tensor, and in strict mode.

    >>> import minigrad
    >>> from minigrad.autograd.functional import hessian
    >>> hessian(lambda x: (x ** 3).sum(), minigrad.tensor([1.0, 2.0]))
    tensor([[ 6.,  0.],
            [ 0., 12.]])
    """
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def ensure_single_output_function(*inp):
        out = func(*inp)
        is_out_tuple, t_out = _as_tuple(out, "outputs of the user-provided function", "hessian")
        _check_requires_grad(t_out, "outputs", strict=strict)
        if is_out_tuple or not isinstance(out, Tensor):
            raise RuntimeError("The function given to hessian should return a single Tensor")
        if out.numel() != 1:
            raise RuntimeError(
                "The Tensor returned by the function given to hessian should contain a single element")
        return out.squeeze()

    def jac_func(*inp):
        jac = jacobian(ensure_single_output_function, inp, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict=strict)
        return jac

    res = jacobian(jac_func, inputs, create_graph=create_graph, strict=strict, vectorize=vectorize,
                   strategy=outer_jacobian_strategy)
    return _tuple_postprocess(res, (is_inputs_tuple, is_inputs_tuple))


def _scalar_function_gradient(func, inputs, v, create_graph, strict, fn_name):
    """Shared start of vhp and hvp: inputs, v, the output and its gradient (with a graph)."""
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", fn_name)
    inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
    v = _prepare_v(v, inputs, is_inputs_tuple, create_graph, fn_name, _V_NONE_INPUT)
    outputs = func(*inputs)
    is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", fn_name)
    _check_requires_grad(outputs, "outputs", strict=strict)
    if is_outputs_tuple or not isinstance(outputs[0], Tensor):
        raise RuntimeError(f"The function given to {fn_name} should return a single Tensor")
    if outputs[0].numel() != 1:
        raise RuntimeError(
            f"The Tensor returned by the function given to {fn_name} should contain a single element")
    jac = _autograd_grad(outputs, inputs, create_graph=True)
    _check_requires_grad(jac, "jacobian", strict=strict)
    return is_inputs_tuple, inputs, v, is_outputs_tuple, outputs, jac


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """The vector-Hessian product ``v^T H`` of a scalar function: a vjp of its gradient.

    Args:
        func: a function of Tensors returning a single-element Tensor.
        inputs: a Tensor or a tuple of Tensors.
        v: one Tensor per input, shaped like it (optional for a single-element input).
        create_graph: make the results differentiable.
        strict: raise instead of returning zeros when an input does not matter.

    Returns:
        ``(func_output, vhp)``, the vhp shaped like ``inputs``.

    Raises:
        RuntimeError: with PyTorch's messages.

    >>> import minigrad
    >>> from minigrad.autograd.functional import vhp
    >>> vhp(lambda x: (x ** 3).sum(), minigrad.tensor([1.0, 2.0]), minigrad.ones(2))
    (tensor(9.), tensor([ 6., 12.]))
    """
    with enable_grad():
        is_inputs_tuple, inputs, v, is_outputs_tuple, outputs, jac = _scalar_function_gradient(
            func, inputs, v, create_graph, strict, "vhp")
    with set_grad_enabled(create_graph or is_grad_enabled()):
        grads = _autograd_grad(jac, inputs, v, create_graph=create_graph)
        result = _fill_in_zeros(grads, inputs, strict, create_graph, "double_back")
    outputs = _grad_postprocess(outputs, create_graph)
    result = _grad_postprocess(result, create_graph)
    return _tuple_postprocess(outputs, is_outputs_tuple), _tuple_postprocess(result, is_inputs_tuple)


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """The Hessian-vector product ``H v`` of a scalar function, by the double-backward trick.

    Args:
        func: a function of Tensors returning a single-element Tensor.
        inputs: a Tensor or a tuple of Tensors.
        v: one Tensor per input, shaped like it (optional for a single-element input).
        create_graph: make the results differentiable.
        strict: raise instead of returning zeros when an input does not matter.

    Returns:
        ``(func_output, hvp)``, the hvp shaped like ``inputs``.

    Raises:
        RuntimeError: with PyTorch's messages.

    >>> import minigrad
    >>> from minigrad.autograd.functional import hvp
    >>> hvp(lambda x: (x ** 3).sum(), minigrad.tensor([1.0, 2.0]), minigrad.ones(2))
    (tensor(9.), tensor([ 6., 12.]))
    """
    with enable_grad():
        is_inputs_tuple, inputs, v, is_outputs_tuple, outputs, jac = _scalar_function_gradient(
            func, inputs, v, create_graph, strict, "hvp")
        grad_jac = tuple(zeros_like(inp, requires_grad=True) for inp in inputs)
        double_back = _autograd_grad(jac, inputs, grad_jac, create_graph=True)
        _check_requires_grad(jac, "hessian", strict=strict)
    with set_grad_enabled(create_graph or is_grad_enabled()):
        grads = _autograd_grad(double_back, grad_jac, v, create_graph=create_graph)
        result = _fill_in_zeros(grads, inputs, strict, create_graph, "double_back_trick")
    outputs = _grad_postprocess(outputs, create_graph)
    result = _grad_postprocess(result, create_graph)
    return _tuple_postprocess(outputs, is_outputs_tuple), _tuple_postprocess(result, is_inputs_tuple)
