"""``Module``: the base class of every layer and model.

A module is a tree. Assigning a ``Parameter`` or another ``Module`` to an
attribute (``self.fc = Linear(2, 3)``) registers it, by name, in one of three
ordered dicts that ``__setattr__`` maintains:

* ``_parameters``: the tensors to train, found by ``parameters()``;
* ``_buffers``: other state to save (``register_buffer``), not trained;
* ``_modules``: the children, whose parameters are found recursively with
  dotted names (``"fc.weight"``).

Calling the module (``model(x)``) runs its ``forward``.
"""

import warnings
from collections import OrderedDict, namedtuple
from collections.abc import Mapping

from .. import dtypes, messages
from ..graph import RemovableHandle
from ..graph import Node
from ..grad_mode import is_grad_enabled, no_grad
from ..tensor import Tensor
from .parameter import Parameter


def _typename(obj):
    """PyTorch's ``torch.typename``, with minigrad's names: ``minigrad.FloatTensor``, ``int``."""
    if isinstance(obj, Tensor):
        return "minigrad." + dtypes.LEGACY_TYPE_NAMES.get(obj.dtype, "Tensor")
    module, qualname = type(obj).__module__, type(obj).__qualname__
    return qualname if module == "builtins" else f"{module}.{qualname}"


def _addindent(text, num_spaces):
    """Indent every line but the first (how a child's repr nests inside its parent's)."""
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    return lines[0] + "\n" + "\n".join(" " * num_spaces + line for line in lines[1:])


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What ``load_state_dict`` returns: the keys it did not find and the keys it did not expect."""

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


class BackwardHookFunction(Node):
    """z = x (an identity that calls ``on_grad`` with the gradient flowing back through it)        grad_x = grad"""

    input_names = ("self",)
    takes_plain_gradients = False  # on_grad hands the gradient to the user's hooks

    def name(self):
        return "BackwardHookFunctionBackward"

    def forward(self, x, on_grad):
        self.on_grad = on_grad
        return x.view()  # the same memory, as PyTorch returns its input as-is

    def backward(self, grad):
        return self.on_grad(grad)


class _BackwardHooks:
    """One call's worth of a module's full backward hooks: catch grad_output, then grad_input.

    NB: PyTorch handles any number of tensor inputs and outputs; minigrad one of each.
    """

    def __init__(self, module):
        self.module = module
        self.grad_output = None
        self.input_needs_grad = False
        self.n_inputs = 0

    def wrap_inputs(self, args):
        tensors = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        self.n_inputs = len(tensors)
        needing = [i for i in tensors if args[i].requires_grad]
        if len(tensors) > 1 and needing:
            raise NotImplementedError("minigrad's full backward hooks handle modules with one tensor input")
        if not needing:
            return args
        self.input_needs_grad = True
        (i,) = needing
        return args[:i] + (BackwardHookFunction.apply(args[i], on_grad=self._on_input_grad),) + args[i + 1:]

    def wrap_output(self, output):
        if not isinstance(output, Tensor):
            raise NotImplementedError("minigrad's full backward hooks handle modules with one tensor output")
        if not output.requires_grad:
            return output
        return BackwardHookFunction.apply(output, on_grad=self._on_output_grad)

    def _on_output_grad(self, grad):
        self.grad_output = (grad,)
        if not self.input_needs_grad:
            warnings.warn("Full backward hook is firing when gradients are computed with respect to module outputs "
                          "since no inputs require gradients. See https://docs.pytorch.org/docs/main/generated/"
                          "torch.nn.Module.html#torch.nn.Module.register_full_backward_hook for more details.",
                          stacklevel=2)
            self._run_hooks((None,) * self.n_inputs)
        return grad

    def _on_input_grad(self, grad):
        return self._run_hooks((grad,))[0]

    def _run_hooks(self, grad_input):
        for hook in list(self.module._backward_hooks):
            result = hook(self.module, grad_input, self.grad_output)
            if result is not None:
                result = tuple(result) if isinstance(result, (tuple, list)) else (result,)
                if len(result) != len(grad_input):
                    raise RuntimeError(f"Backward hook returned an invalid number of grad_input, got "
                                       f"{len(result)}, but expected {len(grad_input)}")
                grad_input = result
        return grad_input


class Module:
    """Base class for all neural network modules: subclass it and define ``forward``.

    >>> import minigrad
    >>> from minigrad import nn
    >>> class Net(nn.Module):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.fc = nn.Linear(2, 1)
    ...     def forward(self, x):
    ...         return self.fc(x).tanh()
    >>> [name for name, _ in Net().named_parameters()]
    ['fc.weight', 'fc.bias']
    """

    def __init__(self):
        # object.__setattr__: our own __setattr__ needs these dicts to exist first.
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", OrderedDict())
        object.__setattr__(self, "_buffers", OrderedDict())
        object.__setattr__(self, "_non_persistent_buffers_set", set())
        object.__setattr__(self, "_modules", OrderedDict())
        object.__setattr__(self, "_forward_pre_hooks", [])
        object.__setattr__(self, "_forward_hooks", [])
        object.__setattr__(self, "_backward_hooks", [])

    def forward(self, *args, **kwargs):
        """What the module computes; every subclass defines it."""
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')

    def __call__(self, *args, **kwargs):
        if self._forward_pre_hooks or self._forward_hooks or self._backward_hooks:
            return self._call_with_hooks(args, kwargs)
        return self.forward(*args, **kwargs)

    def _call_with_hooks(self, args, kwargs):
        for hook in list(self._forward_pre_hooks):
            result = hook(self, args)
            if result is not None:
                args = result if isinstance(result, tuple) else (result,)
        # As PyTorch: backward hooks wrap the inputs before forward and the output after the forward hooks.
        backward_hooks = _BackwardHooks(self) if self._backward_hooks and is_grad_enabled() else None
        if backward_hooks is not None:
            args = backward_hooks.wrap_inputs(args)
        output = self.forward(*args, **kwargs)
        for hook in list(self._forward_hooks):
            result = hook(self, args, output)
            if result is not None:
                output = result
        if backward_hooks is not None:
            output = backward_hooks.wrap_output(output)
        return output

    # --- hooks -------------------------------------------------------------------------
    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        """``hook(module, args) -> None or new args`` runs before each ``forward``.

        >>> from minigrad import nn
        >>> relu = nn.ReLU()
        >>> handle = relu.register_forward_pre_hook(lambda module, args: print("in:", args[0]))
        >>> import minigrad; _ = relu(minigrad.tensor([-1.0]))
        in: tensor([-1.])
        >>> handle.remove()
        """
        if with_kwargs:
            raise NotImplementedError("minigrad's forward pre-hooks do not implement with_kwargs=True")
        return self._add_hook(self._forward_pre_hooks, hook, prepend)

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False, always_call=False):
        """``hook(module, args, output) -> None or new output`` runs after each ``forward``.

        >>> import minigrad
        >>> from minigrad import nn
        >>> layer = nn.Linear(2, 3)
        >>> handle = layer.register_forward_hook(lambda module, args, output: print(output.shape))
        >>> _ = layer(minigrad.ones(4, 2))
        minigrad.Size([4, 3])
        """
        if with_kwargs or always_call:
            raise NotImplementedError("minigrad's forward hooks do not implement with_kwargs or always_call")
        return self._add_hook(self._forward_hooks, hook, prepend)

    def register_full_backward_hook(self, hook, prepend=False):
        """``hook(module, grad_input, grad_output) -> None or new grad_input`` runs once the gradient
        with respect to the module's input is known (with respect to its output, if no input needs one).

        As PyTorch, the input and the output pass through identity nodes (``BackwardHookFunctionBackward``)
        that catch their gradients.

        >>> import minigrad
        >>> relu = minigrad.nn.ReLU()
        >>> _ = relu.register_full_backward_hook(lambda m, gin, gout: print(gin[0], gout[0]))
        >>> relu(minigrad.tensor([1.0, -1.0], requires_grad=True)).sum().backward()
        tensor([1., 0.]) tensor([1., 1.])
        """
        return self._add_hook(self._backward_hooks, hook, prepend)

    @staticmethod
    def _add_hook(hooks, hook, prepend):
        if prepend:
            hooks.insert(0, hook)
        else:
            hooks.append(hook)
        return RemovableHandle(hooks, hook)

    # --- registration ------------------------------------------------------------------
    def register_parameter(self, name, param):
        """Add a parameter (or None, a declared but absent one) under ``name``.

        Raises:
            TypeError, KeyError, ValueError, AttributeError: as PyTorch does for a bad name or value.
        """
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"parameter name should be a string. Got {_typename(name)}")
        if "." in name:
            raise KeyError('parameter name can\'t contain "."')
        if name == "":
            raise KeyError('parameter name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{_typename(param)}' object to parameter '{name}' "
                            "(minigrad.nn.Parameter or None required)")
        if param is not None and param.grad_fn is not None:
            raise ValueError(
                f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must be created "
                f"explicitly. To express '{name}' as a function of another Tensor, compute the value in "
                "the forward() method.")
        self._parameters[name] = param

    def register_buffer(self, name, tensor, persistent=True):
        """Add a tensor that is state but not a parameter (saved in ``state_dict`` if persistent)."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"buffer name should be a string. Got {_typename(name)}")
        if "." in name:
            raise KeyError('buffer name can\'t contain "."')
        if name == "":
            raise KeyError('buffer name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{_typename(tensor)}' object to buffer '{name}' "
                            "(minigrad Tensor or None required)")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name, module):
        """Add a child module under ``name`` (what ``self.name = module`` does)."""
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{_typename(module)} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {_typename(name)}")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        if name == "":
            raise KeyError('module name can\'t be empty string ""')
        self._modules[name] = module

    register_module = add_module

    def __setattr__(self, name, value):
        params = self.__dict__.get("_parameters")
        modules = self.__dict__.get("_modules")
        buffers = self.__dict__.get("_buffers")

        def remove_from(*stores):
            for store in stores:
                if store is not None and name in store:
                    del store[name]
            self.__dict__.pop(name, None)

        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            remove_from(buffers, modules)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{_typename(value)}' as parameter '{name}' "
                                "(minigrad.nn.Parameter or None expected)")
            self.register_parameter(name, value)
        elif isinstance(value, Module):
            if modules is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            remove_from(params, buffers)
            modules[name] = value
        elif modules is not None and name in modules:
            if value is not None:
                raise TypeError(f"cannot assign '{_typename(value)}' as child module '{name}' "
                                "(minigrad.nn.Module or None expected)")
            modules[name] = value
        elif buffers is not None and name in buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{_typename(value)}' as buffer '{name}' "
                                "(minigrad.Tensor or None expected)")
            buffers[name] = value
        else:
            object.__setattr__(self, name, value)

    def __getattr__(self, name):
        # Only called when normal lookup fails: look in the three registries.
        d = self.__dict__
        for store in ("_parameters", "_buffers", "_modules"):
            if store in d and name in d[store]:
                return d[store][name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name):
        for store in (self._parameters, self._buffers, self._modules):
            if name in store:
                del store[name]
                self._non_persistent_buffers_set.discard(name)
                return
        object.__delattr__(self, name)

    # --- walking the tree --------------------------------------------------------------
    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        """Yield ``(dotted_name, module)`` for this module and every module below it."""
        if memo is None:
            memo = set()
        if remove_duplicate:
            if self in memo:
                return
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            sub_prefix = prefix + ("." if prefix else "") + name
            yield from module.named_modules(memo, sub_prefix, remove_duplicate)

    def modules(self):
        """This module and every module below it (each once)."""
        for _, module in self.named_modules():
            yield module

    def named_children(self):
        """Yield ``(name, module)`` for the direct children (each once)."""
        seen = set()
        for name, module in self._modules.items():
            if module is not None and module not in seen:
                seen.add(module)
                yield name, module

    def children(self):
        for _, module in self.named_children():
            yield module

    def _named_members(self, store, prefix, recurse, remove_duplicate):
        seen = set()
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse else [
            (prefix, self)]
        for module_prefix, module in modules:
            for name, value in getattr(module, store).items():
                if value is None or (remove_duplicate and value in seen):
                    continue
                if remove_duplicate:
                    seen.add(value)  # a Tensor hashes by identity
                yield module_prefix + ("." if module_prefix else "") + name, value

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        """Yield ``(dotted_name, parameter)``, e.g. ``("0.weight", ...)``; shared ones once.

        >>> from minigrad import nn
        >>> [n for n, _ in nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1)).named_parameters()]
        ['0.weight', '0.bias', '2.weight', '2.bias']
        """
        return self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse=True):
        """Every parameter of this module and (if ``recurse``) of the modules below it."""
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        return self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse=True):
        for _, buffer in self.named_buffers(recurse=recurse):
            yield buffer

    def apply(self, fn):
        """Call ``fn`` on every submodule (children first), then on this module; return self."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # --- modes and gradients -----------------------------------------------------------
    def train(self, mode=True):
        """Set training mode (``self.training``) here and in every submodule; return self."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        """Evaluation mode: ``train(False)``."""
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for param in self.parameters():
            param.requires_grad_(requires_grad)
        return self

    def get_submodule(self, target):
        """The module at dotted path ``target`` (``"0.fc"``); ``""`` is this module.

        >>> from minigrad import nn
        >>> nn.Sequential(nn.Linear(1, 1)).get_submodule("0")
        Linear(in_features=1, out_features=1, bias=True)
        """
        module = self
        if target == "":
            return module
        for item in target.split("."):
            if not hasattr(module, item):
                raise AttributeError(module._get_name() + " has no attribute `" + item + "`")
            module = getattr(module, item)
            if not isinstance(module, Module):
                raise AttributeError("`" + item + "` is not an nn.Module")
        return module

    def get_parameter(self, target):
        """The parameter at dotted path ``target`` (``"0.weight"``)."""
        module_path, _, name = target.rpartition(".")
        module = self.get_submodule(module_path)
        if not hasattr(module, name):
            raise AttributeError(module._get_name() + " has no attribute `" + name + "`")
        param = getattr(module, name)
        if not isinstance(param, Parameter):
            raise AttributeError("`" + name + "` is not an nn.Parameter")
        return param

    def zero_grad(self, set_to_none=True):
        """Reset the gradients of all parameters: to None (default), or fill them with zeros."""
        for param in self.parameters():
            if param.grad is None:
                continue
            if set_to_none:
                param.grad = None
            else:
                if param.grad.grad_fn is not None:
                    param.grad.detach_()
                else:
                    param.grad.requires_grad_(False)
                param.grad.zero_()

    def _cast(self, dtype):
        # NB: PyTorch swaps `.data` in place (no version bump), keeping the Parameter objects.
        for module in self.modules():
            for store in (module._parameters, module._buffers):
                for t in store.values():
                    if t is not None and dtypes.is_floating(t.dtype):
                        t._data, t._meta = t._data.astype(dtype), None
                        if t._grad is not None:
                            t._grad = Tensor._wrap(t._grad._data.astype(dtype))
        return self

    def double(self):
        """Cast floating-point parameters and buffers to float64; return self."""
        return self._cast(dtypes.float64)

    def half(self):
        """Cast floating-point parameters and buffers to float16; return self."""
        return self._cast(dtypes.float16)

    def to(self, *args, **kwargs):
        """Move to a device (only the CPU) and/or cast floating-point parameters and buffers; return self.

        Accepts ``to(device)``, ``to(dtype)``, ``to(device, dtype)``, ``to(tensor)`` and the keywords
        ``device=``, ``dtype=``, ``non_blocking=``, as PyTorch.

        Raises:
            TypeError: for a dtype that is not floating point.
            AssertionError: for a CUDA device (minigrad has none), as PyTorch without CUDA.

        >>> import minigrad
        >>> minigrad.nn.Linear(2, 1).to(minigrad.float64).weight.dtype
        minigrad.float64
        """
        device, dtype = kwargs.pop("device", None), kwargs.pop("dtype", None)
        kwargs.pop("non_blocking", None)
        if kwargs:
            raise TypeError(f"to() received an invalid combination of arguments: {sorted(kwargs)}")
        for arg in args:
            if isinstance(arg, Tensor):
                dtype = arg.dtype
            elif isinstance(arg, dtypes.dtype):
                dtype = arg
            elif not isinstance(arg, bool):  # a device, or its name
                device = arg
        if device is not None:
            self._check_device(device)
        if dtype is None:
            return self
        if not (dtypes.of(dtype).is_floating_point or dtypes.of(dtype).is_complex):
            raise TypeError("nn.Module.to only accepts floating point or complex dtypes, but got desired "
                            f"dtype={dtypes.of(dtype)!r}")
        return self._cast(dtype)

    @staticmethod
    def _check_device(device):
        kind = str(getattr(device, "type", device)).split(":")[0]
        if kind == "cuda":
            raise AssertionError(messages.NO_CUDA)
        if kind != "cpu":
            raise NotImplementedError(f"minigrad runs on the CPU only, not on {device!r}")

    def cpu(self):
        """Already there: minigrad runs on the CPU. Returns self."""
        return self

    def cuda(self, device=None):
        """Raises PyTorch's error without CUDA: minigrad has no GPU."""
        self._check_device("cuda")

    def float(self):
        """Cast floating-point parameters and buffers to float32; return self."""
        return self._cast(dtypes.float32)

    # --- saving and loading ------------------------------------------------------------
    def state_dict(self, *, destination=None, prefix="", keep_vars=False):
        """An ordered dict from dotted names to parameters and persistent buffers (detached).

        >>> from minigrad import nn
        >>> list(nn.Linear(2, 1).state_dict())
        ['weight', 'bias']
        """
        if destination is None:
            destination = OrderedDict()
        for module_prefix, module in self.named_modules(prefix=prefix):
            dot = "." if module_prefix else ""
            for name, param in module._parameters.items():
                if param is not None:
                    destination[module_prefix + dot + name] = param if keep_vars else param.detach()
            for name, buffer in module._buffers.items():
                if buffer is not None and name not in module._non_persistent_buffers_set:
                    destination[module_prefix + dot + name] = buffer if keep_vars else buffer.detach()
        return destination

    def load_state_dict(self, state_dict, strict=True, assign=False):
        """Copy values from ``state_dict`` into this module's parameters and buffers.

        Args:
            state_dict: a mapping as returned by ``state_dict()``.
            strict: missing or unexpected keys are an error.
            assign: not implemented (the values are always copied in place).

        Returns:
            ``(missing_keys, unexpected_keys)`` as a named tuple.

        Raises:
            RuntimeError: listing missing and unexpected keys (if strict) and shape mismatches.
        """
        if assign:
            raise NotImplementedError("minigrad copies loaded values in place: assign=True is not implemented")
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        own = self.state_dict(keep_vars=True)
        missing = [key for key in own if key not in state_dict]
        unexpected = [key for key in state_dict if key not in own]
        errors = []
        for key, target in own.items():
            if key not in state_dict:
                continue
            value = state_dict[key]
            if not isinstance(value, Tensor):
                errors.append(f'While copying the parameter named "{key}", expected minigrad.Tensor or '
                              f"Tensor-like object from checkpoint but received {type(value)}")
            elif value.shape != target.shape:
                errors.append(f"size mismatch for {key}: copying a param with shape "
                              f"{messages.format_size(value.shape)} from checkpoint, the shape in current "
                              f"model is {messages.format_size(target.shape)}.")
            else:
                with no_grad():
                    target.copy_(value)
        if strict:
            if unexpected:
                errors.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected)))
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: {}. ".format(", ".join(f'"{k}"' for k in missing)))
        if errors:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                type(self).__name__, "\n\t".join(errors)))
        return _IncompatibleKeys(missing, unexpected)

    # --- printing ----------------------------------------------------------------------
    def extra_repr(self):
        """The text inside the parentheses of this module's repr; subclasses override it."""
        return ""

    def _get_name(self):
        return type(self).__name__

    def __repr__(self):
        extra_lines = self.extra_repr().split("\n") if self.extra_repr() else []
        child_lines = [f"({name}): {_addindent(repr(module), 2)}" for name, module in self._modules.items()]
        lines = extra_lines + child_lines
        main = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main += extra_lines[0]
            else:
                main += "\n  " + "\n  ".join(lines) + "\n"
        return main + ")"
