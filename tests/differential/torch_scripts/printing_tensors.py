# What a learner reads after `print(x)`: PyTorch's tensor printing rules, case by case.
import torch

# %% whole floats, mixed signs, negative zero
print(torch.tensor([-0.0, 1.5]))
print(torch.tensor([-0.0, 1.0]))
print(torch.tensor(-0.0))
print(torch.tensor([[-0.0, 0.0], [2.0, -3.0]]))

# %% four decimals, aligned to the widest non-zero value
print(torch.tensor([0.5, -12.25, 100.125]))
print(torch.tensor([float("nan"), 1.0]))
print(torch.tensor([float("nan"), float("inf"), -float("inf"), 1.5]))

# %% scientific notation when magnitudes spread
print(torch.tensor([1e-5, 1.0]))
print(torch.tensor([1e10, 1.0]))
print(torch.tensor([0.1, 100000.0]))
print(torch.tensor([-0.0001, 2.0]))
print(torch.tensor(3.14159265), torch.tensor(1e-7), torch.tensor(12345678.0))

# %% rows wrap at 80 characters
print(torch.arange(30.0).reshape(2, 15) / 7)
print(torch.arange(90.0).reshape(3, 30) / 7 - 5)
print(torch.arange(100.0) / 3)

# %% big tensors are summarised
print(torch.arange(2000.0))
print(torch.arange(3000).reshape(30, 100))
print(torch.arange(4000.0).reshape(10, 20, 20) / 9)

# %% integers, booleans and other dtypes
print(torch.tensor([-3, 10, 250]))
print(torch.tensor([True, False, True]))
print(torch.tensor([1.0, 2.0], dtype=torch.float64))
print(torch.tensor([1, 2], dtype=torch.int32))
print(torch.arange(12.0).reshape(2, 2, 3))

# %% empty tensors
print(torch.zeros(0))
print(torch.zeros(2, 0))
print(torch.zeros(0, dtype=torch.int64))

# %% suffixes, and a suffix that does not fit on the line
w = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
print(w)
print(w * 2)
long_row = torch.arange(11.0, requires_grad=True) / 3
print(long_row)
print(torch.arange(9.0, dtype=torch.float64, requires_grad=True) / 7)

# %% print options
torch.set_printoptions(precision=2)
print(torch.tensor([1.23456, 2.0, -0.5]))
torch.set_printoptions(sci_mode=False)
print(torch.tensor([1e-5, 1.0]))
torch.set_printoptions(profile="default")
print(torch.tensor([1.23456, 1e-5]))
