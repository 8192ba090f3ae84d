# Assignment 3 with run_backward overwriting a node's gradient when a second path reaches it,
# instead of adding. Graded, the diamond graph must fail naming the node where the paths meet.

# %% run_backward
def run_backward(loss):
    root = loss.grad_fn
    grads = {root: minigrad.ones_like(loss)}
    with minigrad.no_grad():
        for node in topological_order(root):
            grad = grads.pop(node, None)
            if grad is None:
                continue
            if isinstance(node, minigrad.autograd.graph.AccumulateGrad):
                leaf = node.variable
                leaf.grad = grad.clone() if leaf.grad is None else leaf.grad + grad
                continue
            grad_inputs = node.backward(grad)
            if not isinstance(grad_inputs, tuple):
                grad_inputs = (grad_inputs,)
            for (child, _), grad_input in zip(node.next_functions, grad_inputs):
                if child is None or grad_input is None:
                    continue
                grads[child] = grad_input  # wrong: the gradient from an earlier path is lost
