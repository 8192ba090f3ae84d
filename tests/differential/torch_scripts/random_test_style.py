# Checks in the style of PyTorch's own tests for random numbers: reproducibility, generators that do
# not disturb each other, saved and restored state, in-place fills, layers' initial weights, misuse.
import torch

# %% reseeding reproduces every function
def draw():
    return [torch.rand(3), torch.randn(17), torch.randint(0, 100, (4,)), torch.randperm(6),
            torch.multinomial(torch.tensor([1.0, 2.0, 3.0]), 2)]
torch.manual_seed(123)
first = draw()
torch.manual_seed(123)
second = draw()
print([bool((a == b).all()) for a, b in zip(first, second)])
print(first)

# %% a private generator leaves the global one alone
torch.manual_seed(0)
a = torch.rand(3)
torch.manual_seed(0)
g = torch.Generator().manual_seed(1)
noise = torch.rand(5, generator=g)
b = torch.rand(3)
print(a, b, noise)

# %% manual_seed returns the generator; seeds are kept as unsigned 64-bit numbers
g = torch.Generator()
print(g.initial_seed())
print(g.manual_seed(-1) is g, g.initial_seed())
print(torch.manual_seed(7) is torch.default_generator, torch.initial_seed())
print(torch.rand(2, generator=torch.Generator().manual_seed(2**64 - 1)))
print(type(torch.seed()).__name__)

# %% get_rng_state / set_rng_state replay the same numbers
torch.manual_seed(42)
torch.randn(5)
state = torch.get_rng_state()
print(state.shape, state.dtype)
x1 = torch.randn(5)
torch.set_rng_state(state)
x2 = torch.randn(5)
print(x1)
print(x2)

# %% a generator's state too
g = torch.Generator().manual_seed(5)
s = g.get_state()
u = torch.rand(3, generator=g)
g.set_state(s)
print(u, torch.rand(3, generator=g))

# %% calls that share a generator continue one sequence
g = torch.Generator().manual_seed(2147483647)
print(torch.randn(3, generator=g))
print(torch.randn(1, generator=g))
print(torch.rand(2, generator=g))
print(torch.randn(16, generator=g)[:4])
print(torch.randint(0, 2**40, (2,), generator=g))

# %% in-place fills
torch.manual_seed(10)
t = torch.empty(2, 5)
print(t.uniform_(-1, 1))
print(t.normal_(0.0, 0.02))
print(t.random_(0, 10))
print(t.bernoulli_(0.25))
print(t.exponential_(2.0))
print(torch.empty(20).normal_(5.0, 2.0)[-3:])
print(torch.zeros(6, dtype=torch.int64).random_(100))

# %% a transposed view is filled in memory order
torch.manual_seed(0)
m = torch.empty(3, 4).t()
m.uniform_()
print(m)

# %% a fill on a non-leaf records a node with a zero gradient
w = torch.ones(3, requires_grad=True)
h = w * 2
h.uniform_()
print(h.grad_fn.name() if hasattr(h.grad_fn, "name") else h.grad_fn)
h.sum().backward()
print(w.grad)

# %% layers start from the same weights
torch.manual_seed(0)
layer = torch.nn.Linear(4, 3)
print(layer.weight)
print(layer.bias)

# %% nn.init on the global generator
torch.manual_seed(1)
w = torch.empty(3, 5)
torch.nn.init.normal_(w, std=0.02)
print(w)
torch.nn.init.uniform_(w, -0.1, 0.1)
print(w)

# %% dropout draws its mask from the generator
torch.manual_seed(3)
x = torch.ones(2, 8)
print(torch.nn.functional.dropout(x, p=0.5))
drop = torch.nn.Dropout(0.25)
print(drop(torch.ones(10)))

# %% misuse: an empty range
torch.randint(5, 3, (2,))

# %% misuse: a float range for an integer dtype
torch.rand(2, dtype=torch.int64)

# %% misuse: normals of integers
torch.zeros(3, dtype=torch.int64).normal_()

# %% misuse: a negative standard deviation
torch.normal(0.0, -1.0, size=(2,))

# %% misuse: bounds in the wrong order
torch.empty(3).uniform_(1.0, 0.0)

# %% misuse: a probability above one
torch.bernoulli(torch.tensor([0.5, 1.5]))

# %% misuse: bernoulli_ with p out of range
torch.empty(3).bernoulli_(2.0)

# %% misuse: a non-positive rate
torch.empty(3).exponential_(0.0)

# %% misuse: more samples than categories without replacement
torch.multinomial(torch.tensor([0.5, 0.5]), 3)

# %% misuse: all-zero weights
torch.multinomial(torch.zeros(4), 1)

# %% misuse: a negative weight, with replacement
torch.multinomial(torch.tensor([1.0, -0.5, 2.0]), 4, replacement=True)

# %% misuse: integer weights
torch.multinomial(torch.tensor([1, 2, 3]), 1)

# %% misuse: a 0-d weight tensor
torch.multinomial(torch.tensor(1.0), 1)

# %% misuse: zero samples
torch.multinomial(torch.ones(3), 0)

# %% misuse: a negative permutation length
torch.randperm(-3)

# %% misuse: filling a leaf that requires grad
w = torch.zeros(3, requires_grad=True)
w.normal_()

# %% misuse: a range the dtype cannot hold
torch.zeros(2, dtype=torch.int32).random_(0, 2**40)

# %% random_ up to the dtype's top, and a float range too wide to hold every integer
torch.manual_seed(12)
print(torch.zeros(3, dtype=torch.int64).random_(5, None))
print(torch.zeros(3).random_(-2**30, 3))

# %% the other in-place distributions
torch.manual_seed(13)
print(torch.empty(5).cauchy_())
print(torch.empty(5).log_normal_(0.0, 0.5))
print(torch.empty(6).geometric_(0.4))

# %% misuse: a geometric probability of one
torch.empty(3).geometric_(1.0)
