# Assignment 1 with Sigmoid's derivative taken as s instead of s * (1 - s).

# %% sigmoid
class Sigmoid(minigrad.autograd.Function):
    """y = 1 / (1 + exp(-x)), elementwise."""

    @staticmethod
    def forward(ctx, x):
        result = 1 / (1 + (-x).exp())
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return grad * result
