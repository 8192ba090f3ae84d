# A "tensors in five minutes" tutorial script: making tensors from data, from NumPy and from
# shapes, reading their attributes, picking a device, and mixing dtypes in arithmetic.
import numpy as np
import torch

# %% from Python data
data = [[1, 2], [3, 4]]
x_data = torch.tensor(data)
print(x_data)
print(x_data.dtype, x_data.shape, x_data.device)
print(torch.tensor([[1.0, 2.0], [3.0, 4.0]]).dtype)
print(torch.tensor([True, False]), torch.tensor([1, 2.5]))

# %% from NumPy, both ways
np_array = np.array(data)
x_np = torch.from_numpy(np_array)
print(x_np, x_np.dtype)
np.multiply(np_array, 2, out=np_array)
print(x_np)  # shares memory with the array
print(torch.tensor(np.array([0.5, 0.25])))
print(torch.as_tensor(np.array([1.0, 2.0], dtype=np.float32)))
t = torch.ones(5)
n = t.numpy()
t.add_(1)
print(n)

# %% from another tensor
x_ones = torch.ones_like(x_data)
print(f"Ones Tensor: \n {x_ones} \n")
x_zeros = torch.zeros_like(x_data, dtype=torch.float)
print(f"Zeros Tensor: \n {x_zeros} \n")
print(torch.full_like(x_data, 7))

# %% from a shape
shape = (2, 3,)
ones_tensor = torch.ones(shape)
zeros_tensor = torch.zeros(shape)
print(f"Ones Tensor: \n {ones_tensor} \n")
print(f"Zeros Tensor: \n {zeros_tensor}")
print(torch.zeros(2, 3, dtype=torch.long))
print(torch.full((2, 3), 7), torch.full((2,), 0.5))
print(torch.empty(3, 2).shape, torch.eye(3))

# %% attributes of a tensor
tensor = torch.ones(3, 4)
print(f"Shape of tensor: {tensor.shape}")
print(f"Datatype of tensor: {tensor.dtype}")
print(f"Device tensor is stored on: {tensor.device}")

# %% picking a device the way the tutorials do
device = "cuda" if torch.cuda.is_available() else "cpu"
print(f"Using {device} device")
tensor = tensor.to(device)
print(tensor.device, tensor.is_cuda)
x = torch.tensor([1.0, 2.0], device=device)
print(x, x.device == torch.device("cpu"))
dev = torch.device("cpu")
print(dev, repr(dev), dev.type, dev.index)
w = torch.randn(3, 2, device=dev).shape
print(w)

# %% ranges
print(torch.arange(5))
print(torch.arange(1, 4))
print(torch.arange(1, 2.5, 0.5))
print(torch.arange(0, 1, 0.1))
print(torch.arange(-1, 1, 0.2))
print(torch.linspace(-10, 10, steps=5))
print(torch.linspace(0, 1, 10))
print(torch.logspace(start=-10, end=10, steps=5))
print(torch.arange(6).reshape(2, 3).dtype, torch.linspace(0, 1, 3).dtype)

# %% dtypes meet in arithmetic
i = torch.tensor([1, 2, 3])
f = torch.tensor([0.5, 0.5, 0.5])
print(i + f, (i + f).dtype)
print(i / torch.tensor([2, 2, 2]))
print(torch.tensor([1, 2]) * 1.5)
print(i * 2, (i * 2).dtype)
print(torch.tensor([True, False]) + 1, torch.tensor([True, True]) + torch.tensor([True, False]))
print((f.double() + f).dtype, (f + torch.tensor(1.0, dtype=torch.float64)).dtype)
print((i + torch.tensor(2.5, dtype=torch.float64)).dtype)
print(i.float().dtype, f.long(), f.to(torch.int32).dtype)

# %% single numbers
agg = torch.tensor(3.5)
agg_item = agg.item()
print(agg_item, type(agg_item))
print(torch.tensor(True), torch.tensor(7).item())
print(torch.pi, torch.e, torch.inf, torch.nan)
print(torch.tensor([torch.pi, -torch.inf]))

# %% the device line of the older beginner tutorials
device = ("cuda" if torch.cuda.is_available() else "mps" if torch.backends.mps.is_available() else "cpu")
print(f"Using {device} device")

# %% the device line of the newer beginner tutorials
device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"
print(f"Using {device} device")
model = torch.nn.Linear(3, 2).to(device)
X = torch.ones(1, 3, device=device)
print(model(X).shape, next(model.parameters()).device)

# %% reproducibility switches
torch.backends.cudnn.deterministic = True
torch.backends.cudnn.benchmark = False
torch.cuda.manual_seed_all(0)
print(torch.backends.cudnn.deterministic, torch.cuda.device_count())

# %% NumPy numbers keep their dtype, in a list too
print(torch.tensor(np.float64(2.5)), torch.tensor([np.float64(1.0), np.float64(2.0)]).dtype)
print(torch.tensor([np.mean([1.0, 2.0])]), torch.tensor(np.int32(3)).dtype)
print(torch.tensor([1.5]).half(), torch.tensor([1.7]).int(), torch.tensor([2]).bool())
