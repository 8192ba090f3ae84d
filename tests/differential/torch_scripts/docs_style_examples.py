# Short examples in the style of API reference pages: one call, its printed result.
import torch

# %% a tensor hook doubles the gradient, then is removed
v = torch.tensor([0.0, 0.0, 0.0], requires_grad=True)
handle = v.register_hook(lambda grad: grad * 2)
v.backward(torch.tensor([1.0, 2.0, 3.0]))
print(v.grad)
handle.remove()
v.backward(torch.tensor([1.0, 1.0, 1.0]))
print(v.grad)

# %% no_grad as a context and as a decorator
x = torch.tensor([1.0], requires_grad=True)
with torch.no_grad():
    y = x * 2
print(y.requires_grad)

@torch.no_grad()
def doubler(t):
    return t * 2

z = doubler(x)
print(z.requires_grad, torch.is_grad_enabled())

# %% enable_grad inside no_grad, set_grad_enabled
with torch.no_grad():
    with torch.enable_grad():
        y = x * 2
print(y.requires_grad)
is_train = False
with torch.set_grad_enabled(is_train):
    y = x * 2
print(y.requires_grad)
torch.set_grad_enabled(True)
y = x * 2
print(y.requires_grad)

# %% inference_mode
with torch.inference_mode():
    y = x * 2
print(y.requires_grad)

# %% autograd.grad returns a tuple and leaves .grad alone
a = torch.tensor([1.0, 2.0], requires_grad=True)
out = (a ** 3).sum()
(ga,) = torch.autograd.grad(out, a)
print(ga, a.grad)

# %% jacobian and hessian of small functions
def pow_reducer(t):
    return t.pow(3).sum()

def exp_adder(p, q):
    return 2 * p.exp() + 3 * q

inputs = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
print(torch.autograd.functional.hessian(pow_reducer, inputs))
print(torch.autograd.functional.jacobian(exp_adder, (torch.tensor([0.0, 1.0]), torch.tensor([1.0, 1.0]))))

# %% vjp, jvp and hvp
def exp_reducer(t):
    return t.exp().sum(dim=1)

inputs = torch.tensor([[0.0, 1.0], [2.0, -1.0]])
print(torch.autograd.functional.vjp(exp_reducer, inputs, torch.ones(2)))
print(torch.autograd.functional.jvp(exp_reducer, inputs, torch.ones(2, 2)))
print(torch.autograd.functional.hvp(pow_reducer, inputs, torch.ones(2, 2)))

# %% chunk, split and narrow
t = torch.arange(11)
print(t.chunk(6))
print(torch.split(torch.arange(10).reshape(5, 2), 2))
print(torch.split(torch.arange(10).reshape(5, 2), [1, 4]))
print(torch.narrow(torch.arange(1, 10).reshape(3, 3), 0, 0, 2))
print(torch.unbind(torch.arange(6).reshape(2, 3)))

# %% var_mean and std_mean
data = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.0, -2.5]])
print(torch.var_mean(data, dim=0, keepdim=True))
print(torch.std_mean(data, dim=1))
print(data.std(), data.var(unbiased=False))

# %% allclose, isclose, equal
print(torch.allclose(torch.tensor([10000.0, 1e-07]), torch.tensor([10000.1, 1e-08])))
print(torch.isclose(torch.tensor([1.0, 2.0, float("nan")]), torch.tensor([1.0, 2.1, float("nan")])))
print(torch.isclose(torch.tensor([1.0, float("nan")]), torch.tensor([1.0, float("nan")]), equal_nan=True))
print(torch.equal(torch.tensor([1, 2]), torch.tensor([1, 2])))

# %% retain_grad keeps a non-leaf's gradient
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 3
b.retain_grad()
(b * b).sum().backward()
print(b.grad, b.retains_grad, a.grad)

# %% a custom Function written with setup_context
class Exp(torch.autograd.Function):
    @staticmethod
    def forward(i):
        return i.exp()

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)

    @staticmethod
    def backward(ctx, grad_output):
        (result,) = ctx.saved_tensors
        return grad_output * result

i = torch.tensor([0.0, 1.0], requires_grad=True)
o = Exp.apply(i)
o.sum().backward()
print(o, i.grad)

# %% saved tensors hooks see what the graph keeps
def pack_hook(t):
    print("packing", t)
    return t

def unpack_hook(t):
    print("unpacking", t)
    return t

a = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = a * a
y.sum().backward()
print(a.grad)

# %% a hook on several tensors at once
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0], requires_grad=True)
seen = []
torch.autograd.graph.register_multi_grad_hook((a, b), lambda grads: seen.append([g is not None for g in grads]))
(a.sum() * b).sum().backward()
print(seen)

# %% deepcopy of a leaf copies data and .grad; views share a data pointer
import copy
leaf = torch.tensor([1.0, 2.0], requires_grad=True)
leaf.grad = torch.tensor([0.5, 0.5])
twin = copy.deepcopy(leaf)
print(twin, twin.grad, twin.is_leaf, twin.data_ptr() != leaf.data_ptr())
base = torch.arange(6.0)
print(base[2:].data_ptr() - base.data_ptr() == 2 * base.element_size(), base.view(2, 3).data_ptr() == base.data_ptr())

# %% factories take PyTorch's memory formats
print(torch.zeros_like(leaf, memory_format=torch.preserve_format), torch.rand_like(leaf, memory_format=torch.contiguous_format).shape)
print(torch.preserve_format, torch.contiguous_format)
