# A tutorial's first page on random tensors: seed once, print what comes out, seed again.
import torch

# %% seed, then the classic 3x4 normal matrix
torch.manual_seed(42)
x = torch.randn(3, 4)
print(x)
print(x.shape, x.dtype)

# %% the same seed gives the same numbers again
torch.manual_seed(42)
y = torch.randn(3, 4)
print(torch.equal(x, y) if hasattr(torch, "equal") else (x == y).all())
print((x - y).abs().max())

# %% uniform numbers in [0, 1)
torch.manual_seed(0)
print(torch.rand(5))
print(torch.rand(2, 3))
print(torch.rand(()))

# %% every size from a 0-d tensor to 17 elements (normals switch algorithm at 16)
torch.manual_seed(1234)
print(torch.randn(()))
for n in range(1, 18):
    print(n, torch.randn(n))

# %% a thousand normals: look at a slice and the summary
torch.manual_seed(7)
big = torch.randn(1000)
print(big[:8])
print(big[500:508])
print(big[-8:])
print(big.mean(), big.std())

# %% float64 keeps more digits
torch.manual_seed(3)
print(torch.rand(4, dtype=torch.float64))
print(torch.randn(4, dtype=torch.float64))
print(torch.randn(20, dtype=torch.float64)[-4:])

# %% integers: dice rolls, labels, a random permutation
torch.manual_seed(2024)
print(torch.randint(1, 7, (10,)))
print(torch.randint(10, (2, 5)))
print(torch.randperm(10))
print(torch.randint(0, 3, (4,), dtype=torch.float32))

# %% the _like versions follow the input's shape and dtype
torch.manual_seed(5)
template = torch.zeros(2, 3, dtype=torch.float64)
print(torch.rand_like(template))
print(torch.randn_like(template))
print(torch.randint_like(template, 10))

# %% normal with a mean and a standard deviation
torch.manual_seed(11)
print(torch.normal(2.0, 3.0, size=(5,)))
print(torch.normal(torch.arange(4.0), torch.tensor([0.1, 1.0, 10.0, 0.5])))
print(torch.normal(torch.zeros(3), 0.5))
print(torch.normal(1.0, torch.ones(3)))

# %% coin flips and sampling from weights
torch.manual_seed(99)
print(torch.bernoulli(torch.full((8,), 0.5)))
print(torch.bernoulli(torch.tensor([0.0, 0.2, 0.8, 1.0])))
weights = torch.tensor([0.1, 0.2, 0.3, 0.4])
print(torch.multinomial(weights, 4))
print(torch.multinomial(weights, 10, replacement=True))

# %% a random starting point for gradient descent
torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
print(w)
loss = ((w - 1.0) ** 2).sum()
loss.backward()
print(w.grad)

# %% what manual_seed returns
print(torch.manual_seed(42))
g = torch.Generator()
print(g.device, g.initial_seed())

# %% torch.random and fork_rng
torch.random.manual_seed(8)
with torch.random.fork_rng():
    print(torch.rand(2))
print(torch.rand(2))

# %% sampling methods on a tensor of probabilities
torch.manual_seed(6)
probs = torch.tensor([[0.1, 0.6, 0.3], [0.5, 0.25, 0.25]])
print(probs.multinomial(1))
print(probs.multinomial(5, replacement=True))
print(probs.bernoulli())
