# A learner's first autograd script, in the style of the beginner tutorials:
# build a small function of two tensors, call backward, read .grad.
import torch

# %% make leaves
a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)
print(a)
print(b.requires_grad, b.is_leaf, b.grad)

# %% a function of both
Q = 3 * a**3 - b**2
print(Q)
print(Q.grad_fn)
print(Q.shape, Q.dtype)

# %% backward with an explicit gradient
external_grad = torch.tensor([1., 1.])
Q.backward(gradient=external_grad)
print(9 * a**2 == a.grad)
print(-2 * b == b.grad)

# %% a second backward through the freed graph
Q.backward(gradient=external_grad)

# %% the graph itself
print(Q.grad_fn.next_functions)
print(Q.grad_fn.name())
