# Custom autograd Functions, checked the way PyTorch's own autograd tests check them:
# small functions that build a graph, run backward or grad, and print what came back,
# plus the mistakes people make when writing their first Function.
import torch
from torch.autograd import Function
from torch.autograd.function import once_differentiable


# %% a classic Function with ctx
class Exp(Function):
    @staticmethod
    def forward(ctx, x):
        result = x.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        (result,) = ctx.saved_tensors
        return grad_output * result


x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
y = Exp.apply(x)
print(y)
print(type(y.grad_fn).__name__, y.grad_fn.name())
y.sum().backward()
print(x.grad)


# %% setup_context style: forward without ctx
class MulConstant(Function):
    @staticmethod
    def forward(tensor, constant):
        return tensor * constant

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, constant = inputs
        ctx.constant = constant

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, None


x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = MulConstant.apply(x, 4.0)
print(y, y.grad_fn.name())
y.sum().backward()
print(x.grad)


# %% setup_context saving tensors and the output
class Cube(Function):
    @staticmethod
    def forward(x):
        return x ** 3, 3 * x ** 2

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        cube, dx = output
        ctx.save_for_backward(x, dx)

    @staticmethod
    def backward(ctx, grad_cube, grad_dx):
        x, dx = ctx.saved_tensors
        return grad_cube * dx + grad_dx * 6 * x


x = torch.tensor([1.0, 2.0], requires_grad=True)
cube, dx = Cube.apply(x)
print(cube, dx)
(cube.sum() + dx.sum()).backward()
print(x.grad)


# %% backward may return extra trailing Nones
class Double(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        return grad * 2, None, None


x = torch.tensor([1.0, 5.0], requires_grad=True)
Double.apply(x).sum().backward()
print(x.grad)


# %% too many non-None gradients
class TooMany(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        return grad * 2, grad


x = torch.tensor([1.0, 5.0], requires_grad=True)
TooMany.apply(x).sum().backward()


# %% too few gradients
class TooFew(Function):
    @staticmethod
    def forward(ctx, x, y):
        return x * y

    @staticmethod
    def backward(ctx, grad):
        return grad


x = torch.tensor([1.0, 5.0], requires_grad=True)
TooFew.apply(x, x).sum().backward()


# %% backward returning a float
class ReturnsFloat(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        return 2.0


x = torch.tensor(3.0, requires_grad=True)
ReturnsFloat.apply(x).backward()


# %% backward returning a wrong-shaped gradient
class WrongShape(Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, grad):
        return torch.ones(5)


x = torch.tensor([1.0, 2.0], requires_grad=True)
WrongShape.apply(x).sum().backward()


# %% backward returning a broadcastable gradient
class Expandable(Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()

    @staticmethod
    def backward(ctx, grad):
        return torch.ones(3, 2)


x = torch.tensor([1.0, 2.0], requires_grad=True)
Expandable.apply(x).sum().backward()
print(x.grad)


# %% save_for_backward with a number
class SavesNumber(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(3)
        return x * 3

    @staticmethod
    def backward(ctx, grad):
        return grad * 3


x = torch.tensor(1.0, requires_grad=True)
SavesNumber.apply(x)


# %% a gradient for a non-tensor input
class ScaleBy(Function):
    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        return x * k

    @staticmethod
    def backward(ctx, grad):
        return grad * ctx.k, grad.sum()


x = torch.tensor([1.0, 2.0], requires_grad=True)
ScaleBy.apply(x, 3.0).sum().backward()
print(x.grad)


# %% needs_input_grad
class Inspect(Function):
    @staticmethod
    def forward(ctx, a, k, b):
        print("needs_input_grad:", ctx.needs_input_grad)
        return a * k + b

    @staticmethod
    def backward(ctx, grad):
        return grad * 1.0, None, grad


a = torch.tensor([1.0], requires_grad=True)
b = torch.tensor([2.0])
out = Inspect.apply(a, 2, b)
out.backward()
print(a.grad, b.grad)


# %% non-tensor outputs get None in backward
class WithCount(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, 7

    @staticmethod
    def backward(ctx, grad, grad_count):
        print("grad for the count:", grad_count)
        return grad * 2


x = torch.tensor([1.0, 2.0], requires_grad=True)
y, count = WithCount.apply(x)
print(count)
y.sum().backward()
print(x.grad)


# %% mark_non_differentiable
class MaxWithIndex(Function):
    @staticmethod
    def forward(ctx, x):
        values, indices = x.max(dim=1)
        ctx.mark_non_differentiable(indices)
        ctx.save_for_backward(x, indices)
        return values, indices

    @staticmethod
    def backward(ctx, grad_values, grad_indices):
        print("grad for indices:", grad_indices)
        x, indices = ctx.saved_tensors
        grad = torch.zeros_like(x)
        grad[torch.arange(x.shape[0]), indices] = grad_values
        return grad


x = torch.tensor([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]], requires_grad=True)
values, indices = MaxWithIndex.apply(x)
print(values.requires_grad, indices.requires_grad, indices.dtype)
(values * torch.tensor([1.0, 10.0])).sum().backward()
print(x.grad)


# %% a non-differentiable float output
class HalfAndFlag(Function):
    @staticmethod
    def forward(ctx, x):
        flag = (x > 0).float()
        ctx.mark_non_differentiable(flag)
        return x / 2, flag

    @staticmethod
    def backward(ctx, grad, grad_flag):
        print("grad_flag:", grad_flag)
        return grad / 2


x = torch.tensor([-1.0, 4.0], requires_grad=True)
half, flag = HalfAndFlag.apply(x)
print(half.requires_grad, flag.requires_grad, flag.grad_fn)
half.sum().backward()
print(x.grad)


# %% set_materialize_grads(False)
class TwoOutputs(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x.clone(), x.clone()

    @staticmethod
    def backward(ctx, g1, g2):
        print("g1:", g1, "g2:", g2)
        grad = torch.zeros_like(g1 if g1 is not None else g2)
        if g1 is not None:
            grad = grad + g1
        if g2 is not None:
            grad = grad + g2
        return grad


x = torch.tensor([1.0, 2.0], requires_grad=True)
first, second = TwoOutputs.apply(x)
first.sum().backward()
print(x.grad)


# %% materialized zeros by default
class TwoOutputsMaterialized(Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone(), x.clone()

    @staticmethod
    def backward(ctx, g1, g2):
        print("g1:", g1, "g2:", g2)
        return g1 + g2


x = torch.tensor([1.0, 2.0], requires_grad=True)
first, second = TwoOutputsMaterialized.apply(x)
(second * 3).sum().backward()
print(x.grad)


# %% mark_dirty for an in-place Function
class AddOneInPlace(Function):
    @staticmethod
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad


a = torch.tensor([1.0, 2.0], requires_grad=True)
x = a.clone()
y = AddOneInPlace.apply(x)
print(y is x, y, y.grad_fn.name(), x._version)
(y * y).sum().backward()
print(a.grad)


# %% in-place on an input without mark_dirty on a leaf
class SneakyInPlace(Function):
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad * 2


a = torch.tensor([1.0, 2.0], requires_grad=True)
SneakyInPlace.apply(a)


# %% returning an input as is
class Identity(Function):
    @staticmethod
    def forward(ctx, x):
        return x

    @staticmethod
    def backward(ctx, grad):
        return grad * 5


x = torch.tensor([1.0, 2.0], requires_grad=True)
y = Identity.apply(x)
print(y is x, y.is_leaf, y.grad_fn.name())
y.sum().backward()
print(x.grad)


# %% once_differentiable with create_graph
class SquareOnce(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    @once_differentiable
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 2 * x * grad


x = torch.tensor([1.0, 3.0], requires_grad=True)
y = SquareOnce.apply(x).sum()
(gx,) = torch.autograd.grad(y, x, create_graph=True)
print(gx, gx.requires_grad, gx.grad_fn)
gx.sum().backward()


# %% once_differentiable without create_graph
x = torch.tensor([1.0, 3.0], requires_grad=True)
SquareOnce.apply(x).sum().backward()
print(x.grad)


# %% double backward through a Function written with tensor ops
class Square(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 2 * x * grad


x = torch.tensor([1.0, 3.0], requires_grad=True)
(gx,) = torch.autograd.grad(Square.apply(x).sum(), x, create_graph=True)
print(gx)
(ggx,) = torch.autograd.grad(gx.sum(), x)
print(ggx)


# %% instantiating a Function warns
class Legacy(Function):
    def forward(self, x):
        return x * 2

    def backward(self, grad):
        return grad * 2


legacy = Legacy()


# %% calling a legacy Function instance
legacy(torch.tensor([1.0]))


# %% forward and backward as non-static methods
class LegacyApply(Function):
    def forward(self, x):
        return x * 2

    def backward(self, grad):
        return grad * 2


LegacyApply.apply(torch.tensor([1.0], requires_grad=True))


# %% Function without backward
class NoBackward(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2


x = torch.tensor([1.0], requires_grad=True)
NoBackward.apply(x).sum().backward()


# %% saved tensors freed after backward
x = torch.tensor([1.0, 3.0], requires_grad=True)
y = Square.apply(x).sum()
y.backward()
y.backward()


# %% no grad needed: apply returns plain tensors
x = torch.tensor([1.0, 3.0])
y = Square.apply(x)
print(y, y.requires_grad, y.grad_fn)
with torch.no_grad():
    z = Square.apply(torch.tensor([2.0], requires_grad=True))
print(z.requires_grad, z.grad_fn)


# %% integer output is not differentiable
class Floor(Function):
    @staticmethod
    def forward(ctx, x):
        return x.long()

    @staticmethod
    def backward(ctx, grad):
        return grad


x = torch.tensor([1.5, 2.5], requires_grad=True)
y = Floor.apply(x)
print(y, y.requires_grad, y.grad_fn)


# %% gradcheck on a custom Function
x = torch.tensor([0.5, 1.5], dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(Exp.apply, (x,)))
print(torch.autograd.gradgradcheck(Square.apply, (x,)))


# %% once_differentiable when the incoming gradient requires grad
x = torch.tensor([1.0, 3.0], requires_grad=True)
v = torch.ones(2, requires_grad=True)
(gx,) = torch.autograd.grad(SquareOnce.apply(x), x, v, create_graph=True)
print(gx, gx.requires_grad, gx.grad_fn.name())
gx.sum().backward()


# %% mark_dirty on a leaf that requires grad
a = torch.tensor([1.0, 2.0], requires_grad=True)
AddOneInPlace.apply(a)


# %% keyword arguments and defaults reach forward and setup_context
class Scale(Function):
    @staticmethod
    def forward(x, factor=2.0):
        return x * factor

    @staticmethod
    def setup_context(ctx, inputs, output):
        print("inputs seen by setup_context:", len(inputs), inputs[1])
        ctx.factor = inputs[1]

    @staticmethod
    def backward(ctx, grad):
        return grad * ctx.factor, None


x = torch.tensor([1.0, 2.0], requires_grad=True)
Scale.apply(x).sum().backward()
Scale.apply(x, factor=10.0).sum().backward()
print(x.grad)


# %% both backward and vjp
class Both(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        return grad * 2

    @staticmethod
    def vjp(ctx, grad):
        return grad * 2


Both.apply(torch.tensor([1.0], requires_grad=True)).sum().backward()


# %% vjp as the backward
class WithVjp(Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def vjp(ctx, grad):
        return grad * 2


x = torch.tensor([1.0], requires_grad=True)
WithVjp.apply(x).sum().backward()
print(x.grad)


# %% the node class and its Function
y = Exp.apply(torch.tensor([1.0], requires_grad=True))
print(type(y.grad_fn).__name__, y.grad_fn._forward_cls.__name__, y.grad_fn.needs_input_grad)
print(y.grad_fn.next_functions[0][0].name())
