# Wrong calls a learner makes. PyTorch refuses each; minigrad must refuse it the same way
# (same exception type and wording), never hand back numbers.
import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
m = torch.ones(2, 3)

# %% adding None
x + None

# %% multiplying by None
x * None

# %% add() with None
torch.add(x, None)

# %% adding a string
x + "a"

# %% shapes that do not broadcast
torch.ones(3) + torch.ones(4)

# %% matmul of mismatched matrices
torch.ones(2, 3) @ torch.ones(2, 3)

# %% a repeated dim in sum
m.sum(dim=(0, 0))

# %% a dim out of range
m.sum(dim=2)

# %% cat of mismatched shapes
torch.cat([torch.ones(2, 3), torch.ones(2, 4)])

# %% stack of mismatched shapes
torch.stack([torch.ones(2), torch.ones(3)])

# %% cat of nothing
torch.cat([])

# %% view to a wrong size
m.view(4, 2)

# %% reshape with two -1
m.reshape(-1, -1)

# %% float of a vector
float(x)

# %% int of a vector
int(torch.tensor([1, 2]))

# %% item of a vector
x.item()

# %% truth value of a vector
if torch.tensor([1.0, 2.0]) > 0:
    pass

# %% len of a 0-d tensor
len(torch.tensor(1.0))

# %% iterating a 0-d tensor
for v in torch.tensor(1.0):
    pass

# %% index out of range
m[5]

# %% too many indices
m[0, 0, 0]

# %% requires_grad on integers
torch.tensor([1, 2], requires_grad=True)

# %% requires_grad_ on integers
torch.tensor([1, 2]).requires_grad_()

# %% backward of a vector without a gradient
(x * 2).backward()

# %% backward of a tensor that does not require grad
torch.ones(2).sum().backward()

# %% gradient of the wrong shape
(x * 2).backward(torch.ones(2))

# %% a second backward
y = (x * x).sum()
y.backward()
y.backward()

# %% an in-place change to a leaf that requires grad
x.add_(1)

# %% an in-place change to a saved tensor
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = a * 1
c = b ** 2
b.add_(1)
c.sum().backward()

# %% numpy() of a tensor that requires grad
x.numpy()

# %% a tensor from a string
torch.tensor("abc")

# %% a tensor from None
torch.tensor(None)

# %% a ragged nested list
torch.tensor([[1, 2], [3]])

# %% setting requires_grad on a non-leaf
(x * 2).requires_grad = False

# %% grad of an input not in the graph
w = torch.tensor(1.0, requires_grad=True)
torch.autograd.grad((x * 2).sum(), w)

# %% grad with no inputs
torch.autograd.grad((x * 2).sum(), [])

# %% grad of a tensor that does not require grad
torch.autograd.grad(torch.ones(2).sum(), x)

# %% assigning a .grad of another shape
x.grad = torch.ones(4)

# %% assigning a .grad of another dtype
x.grad = torch.ones(3, dtype=torch.float64)

# %% assigning a list as .grad
x.grad = [1.0, 2.0, 3.0]

# %% a hook that changes the shape
z = torch.tensor([1.0, 2.0], requires_grad=True)
z.register_hook(lambda g: torch.ones(3))
(z * 2).sum().backward()

# %% a hook returning a size-1 tensor on a leaf
z = torch.tensor([1.0, 2.0], requires_grad=True)
z.register_hook(lambda g: torch.ones(1))
(z * 2).sum().backward()

# %% a hook on a tensor that does not require grad
torch.ones(2).register_hook(lambda g: g)

# %% retain_grad on a tensor that does not require grad
torch.ones(2).retain_grad()

# %% a Linear layer fed the wrong width
torch.nn.Linear(3, 2)(torch.ones(4, 5))

# %% cross_entropy with float targets of the wrong shape
torch.nn.functional.cross_entropy(torch.ones(4, 3), torch.ones(4))

# %% cross_entropy with a target out of range
torch.nn.functional.cross_entropy(torch.zeros(2, 3), torch.tensor([0, 3]))

# %% mse_loss between different shapes
torch.nn.functional.mse_loss(torch.ones(3), torch.ones(2))

# %% an optimizer given a single tensor
torch.optim.SGD(x, lr=0.1)

# %% an optimizer with a negative learning rate
torch.optim.SGD([x], lr=-0.1)

# %% an optimizer with no parameters
torch.optim.SGD([], lr=0.1)

# %% a custom Function returning too many gradients
class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        return t * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2, g

Double.apply(x).sum().backward()

# %% a custom Function backward returning a number
class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        return t * 2

    @staticmethod
    def backward(ctx, g):
        return 2.0

Bad.apply(x).sum().backward()

# %% save_for_backward of a number
class SavesNumber(torch.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        ctx.save_for_backward(3)
        return t * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2

SavesNumber.apply(x)

# %% calling a Function instance the old way
Double()(x)

# %% mm of vectors
torch.mm(torch.ones(3), torch.ones(3))

# %% dot of different lengths
torch.dot(torch.ones(3), torch.ones(4))

# %% dot of mixed dtypes
torch.dot(torch.ones(3), torch.ones(3, dtype=torch.float64))

# %% squeeze of a dim out of range
m.squeeze(3)

# %% transpose of a dim out of range
m.transpose(0, 2)

# %% permute with too few dims
m.permute(1)

# %% expand to a smaller size
torch.ones(3).expand(2)

# %% softmax without a dim out of range
torch.softmax(m, dim=3)

# %% detach_ of a view
base = torch.ones(3, requires_grad=True) * 1
base[:2].detach_()

# %% zeros with a negative size
torch.zeros(-1)

# %% arange with a zero step
torch.arange(0, 5, 0)

# %% randn with a float size
torch.randn(2.5)

# %% an unknown keyword
torch.ones(2).sum(dims=0)

# %% clamp without bounds
torch.clamp(x)

# %% where with a float condition
torch.where(torch.ones(2), torch.ones(2), torch.zeros(2))

# %% indexing with a float tensor
m[torch.tensor([0.0, 1.0])]

# %% a leaf Parameter changed in place
p = torch.nn.Parameter(torch.ones(2))
p.mul_(2)

# %% subtracting bool tensors
torch.tensor([True, False]) - torch.tensor([False, False])

# %% negating a bool mask
-torch.tensor([True, False])

# %% deep-copying a result of recorded ops
import copy
copy.deepcopy(x * 2)

