# Assignment 1 with Square's backward returning dy/dx alone, forgetting to multiply by the
# incoming gradient (the chain rule's other factor).

# %% square
class Square(minigrad.autograd.Function):
    """y = x ** 2, elementwise."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 2 * x
