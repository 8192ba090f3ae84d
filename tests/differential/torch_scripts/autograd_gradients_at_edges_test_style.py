# Gradients at the edges of their functions, PyTorch-test style: the subgradients PyTorch chooses
# at kinks, infinite slopes, ties, and what nan and inf do in backward.
import torch


def grads(f, *values):
    xs = [torch.tensor(v, requires_grad=True) for v in values]
    out = f(*xs)
    out.sum().backward()
    return [x.grad for x in xs]


z = [0.0, -0.0, 1.0, -1.0]

# %% kinks at zero
print(grads(lambda x: x.abs(), z), grads(lambda x: x.relu(), z), grads(lambda x: x.clamp(min=0), z))
print(grads(lambda x: x.clamp(-1, 1), [-1.0, 1.0, 0.5, 2.0]), grads(lambda x: x.sign(), z), grads(lambda x: x.round(), [0.5, 1.5]))
print(grads(lambda x: torch.nn.functional.leaky_relu(x, 0.1), z), grads(lambda x: torch.nn.functional.elu(x), z))

# %% infinite slopes
print(grads(lambda x: x.sqrt(), [0.0, 4.0]), grads(lambda x: x ** 0.5, [0.0, 4.0]), grads(lambda x: x.log(), [0.0, 1.0]))
print(grads(lambda x: x ** -1, [0.0, 2.0]), grads(lambda x: x.reciprocal(), [0.0]), grads(lambda x: x.rsqrt(), [0.0]))
print(grads(lambda x: x.asin(), [1.0, 0.0]), grads(lambda x: x.acos(), [-1.0]), grads(lambda x: x.atan(), [1e30]))

# %% powers at zero
print(grads(lambda x: x ** 2, [0.0]), grads(lambda x: x ** 0, [0.0, 2.0]), grads(lambda x: x ** 1.5, [0.0]))
print(grads(lambda x, y: x ** y, [0.0, 2.0], [2.0, 0.0]), grads(lambda x, y: x ** y, [0.0], [0.5]))
print(grads(lambda x, y: x ** y, [-2.0], [2.0]), grads(lambda x, y: x ** y, [-2.0], [0.5]))

# %% ties in max, min, maximum and sort
print(grads(lambda x: x.max(), [1.0, 3.0, 3.0]), grads(lambda x: x.amax(), [1.0, 3.0, 3.0]), grads(lambda x: x.min(), [2.0, 2.0]))
print(grads(lambda x, y: torch.maximum(x, y), [1.0, 2.0], [1.0, 3.0]), grads(lambda x: x.max(0).values, [1.0, 3.0, 3.0]))
print(grads(lambda x: x.median(), [1.0, 2.0, 2.0, 3.0]), grads(lambda x: x.sort().values[0], [2.0, 1.0, 1.0]))
print(grads(lambda x: x.topk(1).values, [5.0, 5.0]), grads(lambda x: x.kthvalue(1).values if hasattr(x, "kthvalue") else x.min(), [4.0, 4.0]))

# %% norms at zero
print(grads(lambda x: x.norm(), [0.0, 0.0]), grads(lambda x: x.norm(p=1), [0.0, 1.0]), grads(lambda x: x.norm(p=float("inf")), [2.0, -2.0]))
print(grads(lambda x: torch.nn.functional.normalize(x, dim=0), [0.0, 0.0]), grads(lambda x: x.std(), [1.0, 1.0]))

# %% nan and inf in backward
print(grads(lambda x: x * float("inf"), [0.0, 1.0]), grads(lambda x: x.exp(), [1000.0]), grads(lambda x: x.tanh(), [float("nan")]))
print(grads(lambda x: torch.where(x > 0, x.sqrt(), torch.zeros(1)), [-1.0, 4.0]), grads(lambda x: x.sigmoid(), [-1000.0, 1000.0]))
print(grads(lambda x: x.logsumexp(0), [float("-inf"), 0.0]), grads(lambda x: x.softmax(0)[0], [1000.0, 0.0]))
