# Wrong calls a learner makes while creating tensors, choosing devices and dtypes: each cell must
# fail as PyTorch fails (same exception type and message), never quietly make a tensor.
import numpy as np
import torch

# %% a string is not data
torch.tensor('abc')

# %% None is not data
torch.tensor(None)

# %% None inside a list
torch.tensor([1.0, None])

# %% a dict is not data
torch.tensor({'a': 1})

# %% rows of different lengths
torch.tensor([[1, 2], [3]])

# %% ragged deeper down
torch.tensor([[[1, 2], [3, 4]], [[5, 6], [7]]])

# %% a list of tensors with several elements
torch.tensor([torch.ones(2), torch.ones(2)])

# %% a list of one-element tensors is fine
print(torch.tensor([torch.tensor(1.0), torch.tensor(2.5)]))

# %% copy-constructing from a tensor warns
src = torch.tensor([1.0, 2.0], requires_grad=True)
copy = torch.tensor(src)
print(copy, copy.requires_grad)

# %% new_tensor from a tensor warns too
print(torch.zeros(1).new_tensor(torch.ones(2)))

# %% an integer too large for int64
torch.tensor(2 ** 70)

# %% integers cannot require grad
torch.tensor([1, 2], requires_grad=True)

# %% integer ranges cannot require grad
torch.arange(0, 5, requires_grad=True)

# %% from_numpy wants an array
torch.from_numpy([1, 2, 3])

# %% a CUDA tensor on a machine without a GPU
torch.zeros(2, 3, device="cuda")

# %% .cuda() on a machine without a GPU
torch.ones(2).cuda()

# %% .to("cuda") on a machine without a GPU
torch.ones(2).to("cuda:0")

# %% tensor(..., device="cuda")
torch.tensor([1.0], device=torch.device("cuda"))

# %% a device name that does not exist
torch.device("gpu")

# %% a malformed device string
torch.device("cuda:x")

# %% a dtype is not a device
torch.ones(2).to("float32")

# %% two dtypes to to()
torch.ones(2).to(torch.float64, torch.float32)

# %% pinned memory needs a GPU
torch.zeros(2, pin_memory=True)

# %% devices are not strings
print(torch.device("cpu") == "cpu", torch.device("cpu") == torch.device("cpu"))
print(torch.device("cuda:1"), repr(torch.device("cuda", 0)), torch.device("cpu:0"))

# %% a negative size
torch.zeros(2, -3)

# %% a negative size for ones
torch.ones(-1)

# %% a float size
torch.zeros(2.5)

# %% full wants a sequence for its size
torch.full(2, 1.0)

# %% ones_like wants a tensor
torch.ones_like([1, 2])

# %% arange with a zero step
torch.arange(0, 1, 0)

# %% arange stepping away from the end
torch.arange(0, 10, -1)

# %% linspace with negative steps
torch.linspace(0, 1, -1)

# %% the default dtype must be floating point
torch.set_default_dtype(torch.int64)

# %% assigning a float64 gradient to a float32 leaf
w = torch.ones(2, requires_grad=True)
w.grad = torch.ones(2, dtype=torch.float64)

# %% assigning a gradient of the wrong size
w = torch.ones(2, requires_grad=True)
w.grad = torch.ones(3)

# %% assigning a list as a gradient
w = torch.ones(2, requires_grad=True)
w.grad = [1.0, 2.0]

# %% assigning a NumPy array as a gradient
w = torch.ones(2, requires_grad=True)
w.grad = np.ones(2)

# %% allclose across dtypes
torch.allclose(torch.ones(2), torch.ones(2, dtype=torch.float64))

# %% allclose of a float and an int tensor
torch.allclose(torch.tensor([1.0, 2.0]), torch.tensor([1, 2]))

# %% allclose with a list
torch.allclose(torch.ones(2), [1.0, 1.0])

# %% isclose with shapes that do not broadcast
torch.isclose(torch.ones(2), torch.ones(3))

# %% isclose with a negative tolerance
torch.isclose(torch.ones(2), torch.ones(2), rtol=-1)

# %% equal does not mind dtypes, and different shapes are just unequal
print(torch.equal(torch.tensor([1.0, 2.0]), torch.tensor([1, 2])), torch.equal(torch.ones(2), torch.ones(3)))

# %% the legacy constructor refuses keywords it does not know
torch.Tensor([1.0], requires_grad=True)

# %% the legacy constructor wants a sequence
torch.Tensor(3.5)

# %% a typed constructor refuses a tensor of another dtype
torch.FloatTensor(torch.ones(2, dtype=torch.float64))

# %% Variable wants a tensor
from torch.autograd import Variable
Variable([1.0, 2.0])

# %% an unknown type name
torch.ones(2).type('float')
