"""Every error and warning text minigrad raises, in one place.

The first sentence of each is PyTorch's wording, so that what a learner reads
here is what PyTorch would tell them (with ``torch`` read as ``minigrad``).
Where a plain-language hint helps, it follows after a blank line, starting
with "In plain words:".
"""

import re

from . import dtypes


def _hint(message, hint):
    return f"{message}\n\nIn plain words: {hint}"


_warned_once = set()
_warn_always = False


def warn_once(name, stacklevel):
    """Warn ``<name>`` (a message of this module) the first time only, as PyTorch's TORCH_WARN_ONCE
    does: once per process, or every time after ``set_warn_always(True)``. ``stacklevel`` counts
    from the caller, to point at the user's line."""
    if _warn_always or name not in _warned_once:
        _warned_once.add(name)
        import warnings

        warnings.warn(globals()[name], UserWarning, stacklevel=stacklevel + 1)


def set_warn_always(b):
    """``minigrad.set_warn_always(True)``: warnings that come once per process come every time (PyTorch's).

    >>> import minigrad
    >>> minigrad.set_warn_always(False); minigrad.is_warn_always_enabled()
    False
    """
    global _warn_always
    _warn_always = bool(b)


def is_warn_always_enabled():
    """Whether ``set_warn_always(True)`` is in force."""
    return _warn_always


NEGATIVE_STEP = _hint(
    "step must be greater than zero",
    "a slice steps forwards only (no x[::-1] as in Python lists); to reverse a dim, use x.flip(dim).",
)
NOT_FLOATING_REQUIRES_GRAD_FACTORY = _hint(
    "Only Tensors of floating point and complex dtype can require gradients",
    "gradients are about small changes, and whole numbers cannot change a little; "
    "make the tensor float first, e.g. dtype=minigrad.float32.",
)
NOT_FLOATING_REQUIRES_GRAD_ATTRIBUTE = _hint(
    "only Tensors of floating point and complex dtype can require gradients",
    "gradients are about small changes, and whole numbers cannot change a little; "
    "convert with t.float() first.",
)
NOT_FLOATING_REQUIRES_GRAD_METHOD = _hint(
    "only Tensors of floating point dtype can require gradients",
    "gradients are about small changes, and whole numbers cannot change a little; "
    "convert with t.float() first.",
)
NON_LEAF_REQUIRES_GRAD = "you can only change requires_grad flags of leaf variables."
NON_LEAF_REQUIRES_GRAD_FALSE = (
    "you can only change requires_grad flags of leaf variables. If you want to use a "
    "computed variable in a subgraph that doesn't require differentiation use "
    "var_no_grad = var.detach()."
)
DETACH_VIEW_INPLACE = (
    "Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel "
    "(DDP) for training, and gradient_as_bucket_view is set as True, gradients are views of DDP "
    "buckets, and hence detach_() cannot be called on these gradients. To fix this error, please "
    "refer to the Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution."
)
IMPLICIT_GRAD_NOT_SCALAR = _hint(
    "grad can be implicitly created only for scalar outputs",
    "backward() with no argument means 'd(output)/d(output) = 1', which only makes sense "
    "for a single number. For a tensor output, pass gradient= a tensor of its shape "
    "(the vector in the vector-Jacobian product), or reduce it first, e.g. y.sum().backward().",
)
NO_GRAD_FN = _hint(
    "element {index} of tensors does not require grad and does not have a grad_fn",
    "this tensor was not computed from anything that requires grad (or was computed "
    "under no_grad()), so there is no graph to go back through.",
)
FREED_GRAPH = _hint(
    "Trying to backward through the graph a second time (or directly access saved "
    "tensors after they have already been freed). Saved intermediate values of the graph "
    "are freed when you call .backward() or autograd.grad(). Specify retain_graph=True if "
    "you need to backward through the graph a second time or if you need to access saved "
    "tensors after calling backward.",
    "the first backward threw away the values this node kept from the forward pass, "
    "to save memory. Run the forward pass again, or pass retain_graph=True to the first backward.",
)
INPLACE_VERSION = _hint(
    "one of the variables needed for gradient computation has been modified by an "
    "inplace operation: [{what}]{which} is at version {version}; expected version "
    "{expected} instead. Hint: enable anomaly detection to find the operation that failed "
    "to compute its gradient, with minigrad.autograd.set_detect_anomaly(True, check_nan=False).",
    "a node saved this tensor during the forward pass to compute its gradient, and the "
    "tensor was changed in place afterwards, so the saved value is gone. Use the "
    "out-of-place form (y = y + 1 instead of y += 1), or clone() before changing it.",
)
LEAF_INPLACE = _hint(
    "a leaf Variable that requires grad is being used in an in-place operation.",
    "changing a parameter in place would erase the value its gradient is measured at. "
    "Do parameter updates inside `with minigrad.no_grad():`.",
)
NUMPY_REQUIRES_GRAD = "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead."
NON_LEAF_GRAD_ACCESS = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
    "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. "
    "If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. "
    "See github.com/pytorch/pytorch/pull/30531 for more information."
)
EMPTY_INPUTS = "`inputs` argument to `backward()` cannot be empty."
EMPTY_GRAD_INPUTS = "`inputs` argument to `grad()` cannot be empty."
ONLY_INPUTS_DEPRECATED = (
    "only_inputs argument is deprecated and is ignored now (defaults to True). To accumulate "
    "gradient for other parts of the graph, please use minigrad.autograd.backward."
)
GRADIENT_NOT_TENSOR = "gradients can be either Tensors or None, but got {type}"
BATCHED_GRAD_SHAPE_MISMATCH = (
    "If `is_grads_batched=True`, we interpret the first dimension of each grad_output as the batch "
    "dimension. The sizes of the remaining dimensions are expected to match the shape of corresponding "
    "output, but a mismatch was detected: grad_output[{index}] has a shape of {grad_shape} and "
    "output[{index}] has a shape of {output_shape}. If you only want some tensors in `grad_output` to be "
    "considered batched, consider using vmap."
)
UNUSED_INPUT = _hint(
    "The differentiated Tensor at index {index} appears to not have been used in the graph. "
    "Set allow_unused=True if this is the desired behavior.",
    "no path leads from the output back to this input, so its gradient is not zero but "
    "undefined; allow_unused=True returns None for it (materialize_grads=True returns zeros).",
)
INPUT_NOT_REQUIRING_GRAD = "One of the differentiated Tensors does not require grad"
ALLOW_UNUSED_WITH_MATERIALIZE = (
    "Expected allow_unused to be True or not passed when materialize_grads=True, "
    "but got: allow_unused=False."
)
ITEM_NOT_ONE_ELEMENT = "a Tensor with {numel} elements cannot be converted to Scalar"
RETAIN_GRAD_NO_REQUIRES_GRAD = "can't retain_grad on Tensor that has requires_grad=False"
HOOK_NO_REQUIRES_GRAD = "cannot register a hook on a tensor that doesn't require gradient"
GRAD_COUNT_MISMATCH = "got {tensors} tensors and {grads} gradients"
SHAPE_MISMATCH = _hint(
    "Mismatch in shape: grad_output[{index}] has a shape of {grad_shape} and "
    "output[{index}] has a shape of {output_shape}.",
    "the gradient you pass to backward() holds d(loss)/d(output) for every element of "
    "the output, so it must have exactly the output's shape.",
)
INVALID_GRADIENT_SHAPE = (
    "Function {name} returned an invalid gradient at index {index} - got {got} but "
    "expected shape compatible with {expected}"
)
WRONG_NUMBER_OF_GRADIENTS = (
    "function {name} returned an incorrect number of gradients (expected {expected}, got {got})"
)
# --- custom autograd.Function (autograd/function.py) ---
GRAD_NOT_A_TENSOR = "expected Variable or None (got {type})"
GRAD_FOR_NON_TENSOR_INPUT = _hint(
    "function {name} returned a gradient different than None at position {position}, but the "
    "corresponding forward input was not a Variable",
    "backward returns one gradient per argument of forward; for an argument that is not a "
    "tensor (a number, a flag) it must return None.",
)
SAVE_FOR_BACKWARD_NOT_TENSOR = (
    "save_for_backward can only save variables, but argument {index} is of type {type}"
)
BACKWARD_NOT_IMPLEMENTED = (
    "You must implement either the backward or vjp method for your custom autograd.Function "
    "to use it with backward mode AD."
)
BACKWARD_AND_VJP = (
    "Implementing both 'backward' and 'vjp' for a custom Function is not allowed. You should "
    "only implement one of them."
)
FUNCTION_INSTANTIATED = (
    "{cls} should not be instantiated. Methods on autograd functions are all static, so you "
    "should invoke them on the class itself. Instantiating an autograd function will raise an "
    "error in a future version of PyTorch."
)
LEGACY_FUNCTION_CALL = _hint(
    "Legacy autograd function with non-static forward method is deprecated. Please use new-style "
    "autograd function with static forward method. (Example: "
    "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)",
    "write forward and backward as @staticmethod with ctx as their first argument, and call "
    "the class: MyFunction.apply(x), not MyFunction()(x).",
)
NODE_CALL_ARGUMENTS = "expected {expected} arguments, got {got} instead"
# --- what a hook returns (engine.py) ---
WILL_EXECUTE_LEAF_IN_GRAD = (
    "A leaf node was passed to _will_engine_execute_node but we are currently running "
    "autograd.grad(). This is currently not supported."
)
MULTI_GRAD_HOOK_MODE = "Expects mode to be one of {modes} but got {mode}"
GRADIENT_EDGE_NO_GRAD = "It is not possible to get the gradient edge for a Tensor that does not require gradients"
UNPACK_HOOK_NOT_TENSOR = "Output of saved tensor unpack_hook expected to be a Tensor but got result of type {type}"
HOOK_CHANGED_SIZE = _hint(
    "hook '{name}' has changed the size of value",
    "a hook may return a new gradient, but it must have the shape of the gradient it received.",
)
HOOK_CHANGED_TYPE = _hint(
    "hook '{name}' has changed the type of value (was {was} got {got})",
    "a hook may return a new gradient, but it must keep the dtype of the gradient it received.",
)
HOOK_RETURNED_NOT_TENSOR = "expected Variable, but hook returned '{type}'"
HOOK_RETURNED_NOT_TUPLE = "expected tuple, but hook returned '{type}'"
HOOK_WRONG_NUMBER = "hook '{name}' has returned an incorrect number of values (got {got}, but expected {expected})"
HOOK_REPLACED_NONE = "can't replace a None gradient with a non-None value"
HOOK_NOT_SERIALIZED = _hint(
    "backward hook {hook} on tensor will not be serialized.",
    "a pickled or copied tensor keeps its values, not its hooks: register the hook again on the copy.",
)
POST_ACCUMULATE_HOOK_RETURNED = "Tensor post accumulate grad hooks should return None."
DIRTY_LEAF = "a leaf Variable that requires grad has been used in an in-place operation."
ONCE_DIFFERENTIABLE_TWICE = "trying to differentiate twice a function that was marked with @once_differentiable"
RETAIN_VARIABLES_BOTH = "only one of retain_graph and retain_variables can be specified"
RETAIN_VARIABLES_DEPRECATED = (
    "retain_variables option is deprecated and will be removed in 0.3. Use retain_graph instead."
)
CREATE_GRAPH_CYCLE = (
    "Using backward() with create_graph=True will create a reference cycle between the "
    "parameter and its gradient which can cause a memory leak. We recommend using "
    "autograd.grad when creating the graph to avoid this. If you have to use this function, "
    "make sure to reset the .grad fields of your parameters to None after use to break the "
    "cycle and avoid the leak."
)
ANOMALY_NAN = "Function '{name}' returned nan values in its {index}th output."
ANOMALY_TRACE = "Error detected in {name}. Traceback of forward call that caused the error:\n{trace}"
ANOMALY_ENABLED = (
    "Anomaly Detection has been enabled. This mode will increase the runtime and should "
    "only be enabled for debugging."
)
BROADCAST_SHAPES = (
    "The size of tensor a ({a}) must match the size of tensor b ({b}) at non-singleton dimension {dim}"
)
MATMUL_SHAPES = "mat1 and mat2 shapes cannot be multiplied ({r1}x{c1} and {r2}x{c2})"


def format_shape(shape):
    """A shape as PyTorch prints it in messages: ``torch.Size([2, 3])`` becomes ``[2, 3]``."""
    return "[" + ", ".join(str(s) for s in shape) + "]"


def format_size(shape):
    """``minigrad.Size([2, 3])``: PyTorch's ``torch.Size`` wording, with our name."""
    return f"minigrad.Size({format_shape(shape)})"


def legacy_type(tensor):
    """``minigrad.FloatTensor [2, 3]``, as PyTorch names a tensor in the in-place error."""
    return f"{legacy_type_name(tensor.dtype)} {format_shape(tensor.shape)}"


def legacy_type_name(dtype):
    """``minigrad.FloatTensor`` for float32: PyTorch's old name of a tensor type."""
    return f"minigrad.{dtypes.LEGACY_TYPE_NAMES.get(dtype, 'Tensor')}"


def op_name(node_name):
    """How PyTorch names the forward op in messages: ``ExpBackward0`` -> ``Exp``, ``PowBackward2`` -> ``Pow2``."""
    return re.sub(r"Backward(\d*)$", lambda m: "" if m.group(1) in ("", "0") else m.group(1), node_name)


VIEW_NOT_COMPATIBLE = _hint(
    "view size is not compatible with input tensor's size and stride (at least one dimension spans "
    "across two contiguous subspaces). Use .reshape(...) instead.",
    "view() never copies, and this tensor's elements are not laid out so that the new shape can "
    "share its memory (it was transposed or sliced). reshape() copies when it must; or call "
    ".contiguous() first.",
)
NO_GRAD_VIEW_INPLACE = _hint(
    "A view was created in no_grad mode and is being modified inplace with grad mode enabled. "
    "Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify your "
    "code by moving both the view and the inplace either both inside the no_grad block (if you "
    "don't want the inplace to be tracked) or both outside (if you want the inplace to be tracked).",
    "the view was made where nothing is recorded, so autograd cannot tell how it relates to the "
    "graph of its base. Make the view and change it on the same side of `with minigrad.no_grad():`.",
)
# PyTorch's deprecation warnings for .T and .mT on tensors that are not matrices (once per process).
T_NOT_2D = (
    "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and it will "
    "throw an error in a future release. Consider `x.mT` to transpose batches of matrices or "
    "`x.permute(*minigrad.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor."
)
T_0D = "Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases."
MT_0D = "Tensor.mT is deprecated on 0-D tensors. This function is the identity in these cases."
INDEX_0D = _hint(
    "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in C++ to convert a "
    "0-dim tensor to a number",
    "a 0-dim tensor holds one number and has no positions to index; `t.item()` gives that number.",
)
NO_GRAD_VIEW_CHANGED = _hint(
    "A view was created in no_grad mode and its base or another view of its base has been modified "
    "inplace with grad mode enabled. Given that this use case is ambiguous and error-prone, it is "
    "forbidden. You can clarify your code by moving both the view and the inplace either both inside "
    "the no_grad block (if you don't want the inplace to be tracked) or both outside (if you want the "
    "inplace to be tracked).",
    "this view was made under no_grad and its memory has changed since (an optimizer step on its "
    "base counts), so autograd cannot say where its values came from. Make the view again after "
    "the change, outside no_grad if its gradient matters, or .detach() it if it does not.",
)
LEAF_VIEW_INPLACE = _hint(
    "a view of a leaf Variable that requires grad is being used in an in-place operation.",
    "x[i] = v and x[0:2].add_(1) change the leaf x itself, which would erase the value its "
    "gradient is measured at. Do such updates inside `with minigrad.no_grad():`.",
)
OVERLAPPING_WRITE = (
    "unsupported operation: more than one element of the written-to tensor refers to a "
    "single memory location. Please clone() the tensor before performing the operation."
)
PARTIAL_OVERLAP = _hint(
    "unsupported operation: some elements of the input tensor and the written-to tensor refer to a "
    "single memory location. Please clone() the tensor before performing the operation.",
    "the tensor you read from and the tensor you write into share memory, so the op would read "
    "values it has already overwritten. Copy the source first: dst.copy_(src.clone()).",
)

# --- the ops surface: arguments, dims, conversions --------------------------------------------
NOT_A_TENSOR = "{op}(): argument 'other' (position 2) must be Tensor, not {type}"
# NB: PyTorch lists every signature it accepts here ("received an invalid combination of arguments").
NOT_A_NUMBER = "{op}(): argument '{name}' must be Number or Tensor, not {type}"
# NB: PyTorch's own wording lists the accepted signatures; minigrad says what it expected.
DIM_NOT_INT = "dim must be an int or a tuple of ints, but got {type}"
DIM_OUT_OF_RANGE = "Dimension out of range (expected to be in range of [{low}, {high}], but got {dim})"
DIM_REPEATED = "dim {dim} appears multiple times in the list of dims"
ONLY_ONE_ELEMENT = _hint(
    "only one element tensors can be converted to Python scalars",
    "float(t) and int(t) need a tensor holding exactly one number; pick one with t[i], "
    "or reduce first (t.sum(), t.mean()).",
)
AMBIGUOUS_BOOL = _hint(
    "Boolean value of Tensor with more than one value is ambiguous",
    "`if t:` needs one True or False; say which you mean: t.any(), t.all(), or compare one element.",
)
AMBIGUOUS_BOOL_EMPTY = "Boolean value of Tensor with no values is ambiguous"
FLOAT_OF_REQUIRES_GRAD = (
    "Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\n"
    "Consider using tensor.detach() first."
)
ONLY_ONE_INFERRED = "only one dimension can be inferred"
WHERE_CONDITION_NOT_BOOL = "where expected condition to be a boolean tensor, but got a tensor with dtype {dtype}"
INDEX_NOT_INTEGER = "tensors used as indices must be long, int, byte or bool tensors"
INVALID_ARGUMENTS = "{op}() received an invalid combination of arguments - got ({got}), but expected one of:\n{signatures}"
# The signatures PyTorch lists for the reductions whose keywords learners mistype most.
REDUCTION_SIGNATURES = (
    " * (*, minigrad.dtype dtype = None)\n"
    " * (tuple of ints dim, bool keepdim = False, *, minigrad.dtype dtype = None)\n"
)
LEN_0D = "len() of a 0-d tensor"
ITER_0D = "iteration over a 0-d tensor"
CAT_EMPTY = "minigrad.cat(): expected a non-empty list of Tensors"
CAT_NOT_TENSOR = "expected Tensor as element {index} in argument 0, but got {type}"
CAT_NDIM = "Tensors must have same number of dimensions: got {a} and {b}"
CAT_SIZES = (
    "Sizes of tensors must match except in dimension {dim}. Expected size {expected} but got size {got} "
    "for tensor number {index} in the list."
)
STACK_EMPTY = "stack expects a non-empty TensorList"
STACK_SIZES = "stack expects each tensor to be equal size, but got {a} at entry 0 and {b} at entry {index}"
SPLIT_SIZES = (
    "split_with_sizes expects split_sizes to sum exactly to {size} (input tensor's size at dimension {dim}), "
    "but got split_sizes={sizes}"
)
NARROW_PAST_END = "start ({start}) + length ({length}) exceeds dimension size ({size})."
CHUNK_NOT_POSITIVE = "chunk expects `chunks` to be greater than 0, got: {chunks}"
INDEX_OUT_OF_BOUNDS = "index {index} is out of bounds for dimension {dim} with size {size}"
GATHER_INDEX_DTYPE = "gather(): Expected dtype int32/int64 for index"
INDEX_SELECT_OUT_OF_BOUNDS = "INDICES element is out of DATA bounds, id={index} axis_dim={size}"
MASK_NOT_BOOL = "masked_fill_ only supports boolean masks, but got mask with dtype {dtype}"
REPEAT_TOO_FEW = (
    "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor"
)
TOPK_OUT_OF_RANGE = "selected index k out of range"
TRACE_NOT_MATRIX = "trace: expected a matrix, but got tensor with dim {ndim}"
DIAG_DIMS = "diag(): Supports 1D or 2D tensors. Got {ndim}D"
EINSUM_FORM = "minigrad's einsum does not support the equation '{equation}' ({why})"

# Random numbers (random.py, creation.py's rand/randn/..., Tensor.uniform_/normal_/...).
# PyTorch prints the numbers in these with C++'s default stream format, which is Python's "g".
NOT_IMPLEMENTED_FOR_DTYPE = "\"{kernel}\" not implemented for '{dtype}'"
SOFTMAX_OF_INTEGERS = _hint(
    NOT_IMPLEMENTED_FOR_DTYPE,
    "softmax works on floating-point numbers; convert first (x.float()), or pass dtype=minigrad.float32.")
SEED_OVERFLOW = "Overflow when unpacking long long"
NOT_A_GENERATOR = "generator= must be a minigrad.Generator, not {type}"
RNG_STATE_SIZE = "Expected a CPUGeneratorImplState of size 5056 but found the input RNG state size to be {size}"
RNG_STATE_TYPE = "RNG state must be a minigrad.ByteTensor"
NO_CUDA_GENERATOR = _hint(
    "Cannot get CUDA generator without ATen_cuda library. PyTorch splits its backend into two shared libraries: a "
    "CPU library and a CUDA library; this error has occurred because you are trying to use some CUDA "
    "functionality, but the CUDA library has not been loaded by the dynamic linker for some reason.  The CUDA "
    "library MUST be loaded, EVEN IF you don't directly use any symbols from the CUDA library! One common culprit "
    "is a lack of -Wl,--no-as-needed in your link arguments; many dynamic linkers will delete dynamic library "
    "dependencies if you don't depend on any of their symbols.  You can check if this has occurred by using ldd "
    "on your binary to see if there is a dependency on *_cuda.so library.",
    "minigrad runs on the CPU only; make the generator with torch.Generator() (device='cpu').")
RANDOM_FROM_TO = "random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"
RANDOM_TO_OUT_OF_BOUNDS = "{bound} is out of bounds for {dtype}"
RANDOM_FLOAT_PRECISION = (
    "{bound} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision limitations {dtype} can support "
    "discrete uniform distribution only within this range. This warning will become an error in version 1.7 "
    "release, please fix the code in advance"
)
UNIFORM_BOUNDS = "uniform_ expects to return a [from, to) range, but found from={low:g} > to={high:g}"
NORMAL_STD = "normal expects std >= 0.0, but found std {std:g}"
NORMAL_STD_TENSOR = "normal expects all elements of std >= 0.0"
EXPONENTIAL_LAMBDA = "exponential_ expects lambda > 0.0, but found lambda={lambd:g}"
EXPONENTIAL_DTYPE = (
    "Exponential distribution is a continuous probability distribution. dtype must be a floating point but "
    "you specified {dtype}"
)
BERNOULLI_P = "bernoulli_ expects p to be in [0, 1], but got p={p:g}"
CAUCHY_SIGMA = "cauchy_ expects sigma > 0.0, but found sigma={sigma:g}"
CAUCHY_DTYPE = (
    "Cauchy distribution is a continuous probability distribution. dtype must be a floating point but you "
    "specified {dtype}"
)
LOG_NORMAL_STD = "log_normal_ expects std > 0.0, but found std={std:g}"
GEOMETRIC_P = "geometric_ expects p to be in (0, 1), but got p={p:g}"
BERNOULLI_P_TENSOR = _hint(
    "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error message be improved?  If so, "
    "please report an enhancement request to PyTorch.)",
    "every entry of the probability tensor must lie between 0 and 1.")
MULTINOMIAL_DTYPE = "multinomial only supports floating-point dtypes for input, got: {dtype}"
MULTINOMIAL_DIM = "prob_dist must be 1 or 2 dim"
MULTINOMIAL_NO_SAMPLES = "cannot sample n_sample <= 0 samples"
MULTINOMIAL_TOO_MANY = _hint(
    "cannot sample n_sample > prob_dist.size(-1) samples without replacement",
    "without replacement each category can be drawn once, so there are not enough categories; "
    "pass replacement=True to draw the same one again.")
MULTINOMIAL_BAD_ENTRY = "probability tensor contains either `inf`, `nan` or element < 0"
MULTINOMIAL_NEGATIVE = "invalid multinomial distribution (encountering probability entry < 0)"
MULTINOMIAL_NOT_FINITE = "invalid multinomial distribution (encountering probability entry = infinity or NaN)"
MULTINOMIAL_ZERO_SUM = "invalid multinomial distribution (sum of probabilities <= 0)"

# --- creating tensors, devices, dtypes (creation.py, device.py, legacy.py) ---
NO_CUDA = _hint(
    "Torch not compiled with CUDA enabled",
    "minigrad computes with NumPy on the CPU and has no GPU; "
    "use device='cpu' (or `'cuda' if minigrad.cuda.is_available() else 'cpu'`).",
)
NO_MPS = "PyTorch is not linked with support for mps devices"
NO_ACCELERATOR = "Cannot access accelerator device when none is available."
INVALID_DEVICE_STRING = "Invalid device string: '{string}'"
UNKNOWN_DEVICE_TYPE = "Expected one of {types} device type at start of device string: {string}"
INDEX_GIVEN_TWICE = "type (string) must not include an index because index was passed explicitly: {string}"
EMPTY_DEVICE_STRING = "Device string must not be empty"
PIN_MEMORY = (
    "pin_memory=True requires a CUDA or other accelerator backend; "
    "no pinned memory allocator is available on this system."
)
COPY_CONSTRUCT = (
    "To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
    "sourceTensor.detach().clone().requires_grad_(True), rather than {call}(sourceTensor)."
)
CANNOT_INFER_DTYPE = "Could not infer dtype of {type}"
INVALID_DATA_TYPE = "new(): invalid data type '{type}'"
RAGGED_SEQUENCE = _hint(
    "expected sequence of length {expected} at dim {dim} (got {got})",
    "a tensor is a rectangular block of numbers: every row must have the same length.",
)
ONE_ELEMENT_TO_SCALAR = "only one element tensors can be converted to Python scalars"
INTEGER_OVERFLOW = "Overflow when unpacking long long"
NEGATIVE_DIMENSION = "Trying to create tensor with negative dimension {dim}: {shape}"
NEGATIVE_DIMENSION_SIZE = "{name}: Dimension size must be non-negative."
SIZE_NOT_INTS = "{name}(): argument 'size' (position 1) must be tuple of ints, not {type}"
ARGUMENT_NOT_TENSOR = "{name}(): argument '{argument}' (position {position}) must be Tensor, not {type}"
STEP_ZERO = "step must be nonzero"
STEP_SIGN = "upper bound and lower bound inconsistent with step sign"
NEGATIVE_STEPS = "number of steps must be non-negative"
GRAD_WRONG_DTYPE = _hint(
    "attempting to assign a gradient with dtype '{got}' to a tensor with grad_dtype '{expected}'. "
    "The gradient must match the tensor's grad_dtype (defaults to the tensor's dtype). You can set "
    "the tensor's grad_dtype attribute with a specific dtype, or None to allow any dtype. Set "
    "grad_dtype with caution. Diverging the dtypes of a tensor and its gradient may break "
    "downstream systems that assume they match.",
    "a gradient holds one number per element of the tensor, in the tensor's own dtype; "
    "convert it first, e.g. g.to(x.dtype).",
)
GRAD_WRONG_SIZE = (
    "attempting to assign a gradient of size '{got}' to a tensor of size '{expected}'. "
    "Please ensure that the gradient and the tensor are the same size"
)
GRAD_NOT_TENSOR = "assigned grad expected to be a Tensor or None but got grad of type {type}"
VOLATILE_REMOVED = "volatile was removed and now has no effect. Use `with minigrad.no_grad():` instead."

BOOL_SUBTRACTION = _hint(
    "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
    "`logical_xor()` operator instead.",
    "True - False has no bool answer; `a ^ b` is True where the two differ.",
)
BOOL_NEGATION = _hint(
    "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, "
    "use the `~` or `logical_not()` operator instead.",
    "`~mask` turns True into False and back.",
)
DEEPCOPY_NON_LEAF = _hint(
    "Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol at the moment.  "
    "If you were attempting to deepcopy a module, this may be because of a torch.nn.utils.weight_norm usage, "
    "see https://github.com/pytorch/pytorch/pull/103001",
    "a result of recorded ops carries its graph with it; copy `t.detach().clone()` instead.",
)
