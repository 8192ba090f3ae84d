# Printing unusual values, as they show up in a learner's cells.
import torch

# %% signed zeros, nan and inf
print(torch.tensor([-0.0, 0.0]), torch.tensor([-0.0]), torch.tensor(-0.0), -torch.zeros(2))
print(torch.tensor([float("nan"), 1.5, float("-inf")]), torch.tensor([float("inf")]), torch.tensor(float("nan")))

# %% magnitudes
print(torch.tensor([1e-8, 1.0]), torch.tensor([1e8, 1.0]), torch.tensor([123456.0, 0.001]), torch.tensor([1e-5]))
print(torch.tensor([0.1, 0.25, 100.0]), torch.tensor([1.0, 2.0, 3.0]) / 3, torch.tensor([1e20, -1e-20]))
print(torch.tensor([1.5, float("nan"), 1e10]), torch.tensor([0.0, 1e-10]))

# %% integers and bools
print(torch.tensor([-1, 10, 100]), torch.tensor([[True, False]]), torch.tensor([2 ** 40]), torch.tensor([-5], dtype=torch.int8))
print(torch.tensor([1, 2], dtype=torch.uint8), torch.tensor(7), torch.tensor(True))

# %% shapes
print(torch.zeros(0), torch.zeros(2, 0), torch.zeros(0, 3, dtype=torch.long), torch.ones(1, 1, 1))
print(torch.arange(12.0).reshape(2, 3, 2))

# %% float64 and float16
print(torch.tensor([1.0, 2.5], dtype=torch.float64), torch.tensor([1 / 3], dtype=torch.float64))
print(torch.tensor([1.0, 2.5], dtype=torch.float16), torch.tensor([1e-3, 65504.0], dtype=torch.float16))

# %% long tensors
print(torch.arange(2000.0))
print(torch.arange(1200).reshape(40, 30))

# %% with the graph
w = torch.tensor([-0.0, 1.0], requires_grad=True)
print(w, w * 2, (w * 2).sum(), w.relu(), w.detach())

# %% print options
torch.set_printoptions(precision=2)
print(torch.tensor([1 / 3, 2 / 3, 100.0]))
torch.set_printoptions(sci_mode=True)
print(torch.tensor([1.5, 2.0]))
torch.set_printoptions(profile="default")
print(torch.tensor([1 / 3]))
