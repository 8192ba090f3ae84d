"""viz.plots: the data each helper puts on the Axes, checked against NumPy and by hand."""

import matplotlib

matplotlib.use("Agg")  # no window, no display: the tests read the plotted data

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import minigrad  # noqa: E402
from viz import plots  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures():
    plt.close("all")
    yield
    plt.close("all")


class HalfSquare(minigrad.autograd.Function):
    """x * x with a deliberately wrong backward: grad * x instead of grad * 2x."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x


def line_by_label(ax, label):
    (line,) = [line for line in ax.get_lines() if line.get_label() == label]
    return line


# --- plot_tangent -----------------------------------------------------------------------


def test_tangent_of_cube_at_two_has_slope_twelve():
    ax, slope = plots.plot_tangent(lambda x: x ** 3, 2.0)
    assert slope == 12.0  # d/dx x^3 = 3 x^2 = 12 at x = 2
    assert isinstance(slope, float)
    curve = line_by_label(ax, "f(x)")
    xs = curve.get_xdata()
    np.testing.assert_allclose(curve.get_ydata(), xs ** 3, rtol=1e-12)
    tangent = line_by_label(ax, "tangent, slope 12")
    np.testing.assert_allclose(tangent.get_xdata(), xs)
    np.testing.assert_allclose(tangent.get_ydata(), 8.0 + 12.0 * (xs - 2.0), rtol=1e-12)
    point = line_by_label(ax, "x0")
    assert list(point.get_xdata()) == [2.0] and list(point.get_ydata()) == [8.0]


@pytest.mark.parametrize("x0", [-1.3, 0.0, 0.7, 2.5])
def test_tangent_slope_of_sine_is_cosine(x0):
    _, slope = plots.plot_tangent(lambda x: x.sin(), x0)
    assert slope == pytest.approx(np.cos(x0), abs=1e-12)


def test_tangent_slope_comes_from_autograd_not_finite_differences():
    # HalfSquare's backward says d(x^2)/dx = x; finite differences would say 2x.
    _, slope = plots.plot_tangent(HalfSquare.apply, 3.0)
    assert slope == 3.0


def test_tangent_default_and_given_x_range():
    ax, _ = plots.plot_tangent(lambda x: x * x, 1.0)
    xs = line_by_label(ax, "f(x)").get_xdata()
    assert (xs[0], xs[-1]) == (-1.0, 3.0)  # x0 -+ 2
    ax, _ = plots.plot_tangent(lambda x: x * x, 1.0, xlim=(0.5, 4.0))
    xs = line_by_label(ax, "f(x)").get_xdata()
    assert (xs[0], xs[-1]) == (0.5, 4.0)
    assert ax.get_xlim() == (0.5, 4.0)


def test_tangent_y_range_follows_the_curve_not_a_steep_tangent():
    # x^3 on [0, 3] spans 0..27; the tangent at 2 reaches -16 at x = 0.
    ax, _ = plots.plot_tangent(lambda x: x ** 3, 2.0, xlim=(0.0, 3.0))
    low, high = ax.get_ylim()
    assert low == pytest.approx(0.0 - 2.7)
    assert high == pytest.approx(27.0 + 2.7)


def test_tangent_of_a_constant_is_flat():
    w = minigrad.tensor(2.0, requires_grad=True)  # in the graph, but not a function of x
    ax, slope = plots.plot_tangent(lambda x: w * 2.5, 1.0)
    assert slope == 0.0
    assert ax.get_ylim() == (4.0, 6.0)  # a flat curve of 5 gets one unit of room each side


def test_tangent_accepts_a_tensor_x0_and_draws_on_the_given_axes():
    fig, given = plt.subplots()
    ax, slope = plots.plot_tangent(lambda x: x.exp(), minigrad.tensor(0.0), ax=given)
    assert ax is given
    assert plt.get_fignums() == [fig.number]  # no second figure
    assert slope == 1.0


def test_tangent_makes_one_new_figure_without_ax():
    ax, _ = plots.plot_tangent(lambda x: x * x, 0.0)
    assert plt.get_fignums() == [ax.figure.number]


def test_tangent_rejects_functions_that_do_not_return_one_number():
    with pytest.raises(ValueError, match="single number"):
        plots.plot_tangent(lambda x: minigrad.stack([x, x]), 1.0)
    with pytest.raises(TypeError, match="minigrad Tensor"):
        plots.plot_tangent(lambda x: 3.0, 1.0)


# --- descend ------------------------------------------------------------------------------


def bowl(p):
    return p[0] ** 2 + 3 * p[1] ** 2


def test_descend_follows_the_update_rule_by_hand():
    lr, steps = 0.1, 6
    path = plots.descend(bowl, [1.5, -1.0], lr, steps)
    expected = [np.array([1.5, -1.0])]
    for _ in range(steps):
        x = expected[-1]
        expected.append(x - lr * np.array([2 * x[0], 6 * x[1]]))  # grad of x^2 + 3 y^2
    assert path.shape == (steps + 1, 2)
    assert path.dtype == np.float64
    np.testing.assert_allclose(path, np.array(expected), rtol=1e-14, atol=0)


def test_descend_small_example_exactly():
    # f = |p|^2, grad 2p, lr 1/4: each step halves the point.
    path = plots.descend(lambda p: (p ** 2).sum(), [1.0, -2.0], lr=0.25, steps=3)
    assert path.tolist() == [[1.0, -2.0], [0.5, -1.0], [0.25, -0.5], [0.125, -0.25]]


def test_descend_zero_steps_and_float32_start():
    start = minigrad.tensor([0.1, 0.2])  # float32
    path = plots.descend(bowl, start, lr=0.1, steps=0)
    assert path.shape == (1, 2) and path.dtype == np.float64
    np.testing.assert_array_equal(path[0], np.array([0.1, 0.2], dtype=np.float32).astype(np.float64))


def test_descend_rejects_negative_steps():
    with pytest.raises(ValueError, match="steps"):
        plots.descend(bowl, [0.0, 0.0], lr=0.1, steps=-1)


# --- plot_gradient_field --------------------------------------------------------------------


def tilted_bowl(p):
    return 2 * p[0] ** 2 + p[0] * p[1] + 0.5 * p[1] ** 2 - p[0]


def tilted_bowl_grad(x, y):
    return 4 * x + y - 1, x + y


def quiver_of(ax):
    (quiver,) = [c for c in ax.collections if isinstance(c, matplotlib.quiver.Quiver)]
    return quiver


def test_arrows_are_the_negative_analytic_gradient():
    ax = plots.plot_gradient_field(tilted_bowl, xlim=(-2, 1), ylim=(-1, 3), density=7)
    q = quiver_of(ax)
    assert q.N == 49
    gx, gy = np.meshgrid(np.linspace(-2, 1, 7), np.linspace(-1, 3, 7))
    np.testing.assert_allclose(np.sort(q.X), np.sort(gx.ravel()))
    np.testing.assert_allclose(np.sort(q.Y), np.sort(gy.ravel()))
    dx, dy = tilted_bowl_grad(q.X, q.Y)
    np.testing.assert_allclose(q.U, -dx, atol=1e-12)
    np.testing.assert_allclose(q.V, -dy, atol=1e-12)


def test_normalized_arrows_have_unit_length_and_point_downhill():
    ax = plots.plot_gradient_field(tilted_bowl, xlim=(-2, 2), ylim=(-2, 2), density=6, normalize=True)
    q = quiver_of(ax)
    np.testing.assert_allclose(np.hypot(q.U, q.V), 1.0, rtol=1e-12)
    dx, dy = tilted_bowl_grad(q.X, q.Y)
    np.testing.assert_allclose(q.U * np.hypot(dx, dy), -dx, atol=1e-12)
    np.testing.assert_allclose(q.V * np.hypot(dx, dy), -dy, atol=1e-12)


def test_contour_lines_lie_on_level_sets_of_fn():
    ax = plots.plot_gradient_field(tilted_bowl, xlim=(-2, 2), ylim=(-2, 2), levels=[0.5, 2.0, 5.0])
    (contours,) = [c for c in ax.collections if isinstance(c, matplotlib.contour.ContourSet)]
    assert list(contours.levels) == [0.5, 2.0, 5.0]
    for level, path in zip(contours.levels, contours.get_paths()):
        x, y = path.vertices[:, 0], path.vertices[:, 1]
        assert len(x) > 10
        values = 2 * x ** 2 + x * y + 0.5 * y ** 2 - x
        # Contours interpolate linearly between grid points: close, not exact.
        np.testing.assert_allclose(values, level, atol=0.02 * level)


def test_descent_path_is_drawn_on_top():
    path = plots.descend(tilted_bowl, [-1.5, 2.5], lr=0.1, steps=8)
    ax = plots.plot_gradient_field(tilted_bowl, xlim=(-2, 1), ylim=(-1, 3), path=path)
    line = line_by_label(ax, "path")
    np.testing.assert_array_equal(line.get_xdata(), path[:, 0])
    np.testing.assert_array_equal(line.get_ydata(), path[:, 1])
    assert list(line_by_label(ax, "start").get_xdata()) == [-1.5]
    assert list(line_by_label(ax, "end").get_ydata()) == [path[-1, 1]]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["path", "start", "end"]


def test_path_may_be_a_list_of_tensors():
    points = [minigrad.tensor([0.5, 0.5]), minigrad.tensor([0.25, 0.0])]
    ax = plots.plot_gradient_field(bowl, xlim=(-1, 1), ylim=(-1, 1), path=points, density=3)
    line = line_by_label(ax, "path")
    np.testing.assert_allclose(line.get_xdata(), [0.5, 0.25])
    np.testing.assert_allclose(line.get_ydata(), [0.5, 0.0])


def test_field_without_path_has_no_lines_and_keeps_the_limits():
    fig, given = plt.subplots()
    ax = plots.plot_gradient_field(bowl, xlim=(-3, 1), ylim=(0, 2), density=4, ax=given)
    assert ax is given
    assert ax.get_lines() == [] and ax.get_legend() is None
    assert ax.get_xlim() == (-3, 1) and ax.get_ylim() == (0, 2)


def test_field_drawing_is_the_same_every_run():
    def pixels():
        ax = plots.plot_gradient_field(bowl, xlim=(-1, 1), ylim=(-1, 1),
                                       path=plots.descend(bowl, [0.9, 0.8], 0.1, 5))
        ax.figure.canvas.draw()
        return np.asarray(ax.figure.canvas.buffer_rgba()).copy()

    np.testing.assert_array_equal(pixels(), pixels())


# --- plot_loss_curve ------------------------------------------------------------------------


def test_loss_curve_accepts_floats_and_tensors():
    w = minigrad.tensor([1.0, 2.0], requires_grad=True)
    losses = [3.0, minigrad.tensor(2.5), (w * w).sum(), np.float64(0.5)]  # (w*w).sum() is 5.0
    ax = plots.plot_loss_curve(losses)
    (line,) = ax.get_lines()
    assert line.get_xdata().tolist() == [0, 1, 2, 3]
    assert line.get_ydata().tolist() == [3.0, 2.5, 5.0, 0.5]
    assert ax.get_yscale() == "linear"
    assert ax.get_legend() is None


def test_loss_curve_from_a_1d_tensor():
    ax = plots.plot_loss_curve(minigrad.tensor([4.0, 2.0, 1.0]))
    assert ax.get_lines()[0].get_ydata().tolist() == [4.0, 2.0, 1.0]


def test_loss_curves_share_axes_with_labels_and_log_scale():
    ax = plots.plot_loss_curve([1.0, 0.1, 0.01], log=True, label="sgd")
    same = plots.plot_loss_curve([1.0, 0.5, 0.25], ax=ax, log=True, label="adam")
    assert same is ax
    assert ax.get_yscale() == "log"
    assert [line.get_label() for line in ax.get_lines()] == ["sgd", "adam"]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["sgd", "adam"]


# --- compare_gradients ---------------------------------------------------------------------


def test_correct_gradient_matches_finite_differences():
    x = np.array([[0.3, -1.2, 2.0], [0.7, 0.0, -0.4]])
    result = plots.compare_gradients(lambda t: (t.sin() * t).sum(), minigrad.tensor(x))
    expected = (np.cos(x) * x + np.sin(x)).ravel()  # d/dx x sin x
    np.testing.assert_allclose(result.autograd, expected, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(result.numeric, expected, atol=1e-7)
    assert result.max_abs_error < 1e-7
    assert result.labels == ("x[0, 0]", "x[0, 1]", "x[0, 2]", "x[1, 0]", "x[1, 1]", "x[1, 2]")


def test_wrong_custom_function_shows_a_large_error():
    x = np.array([1.0, -2.0, 3.0, 0.5])
    result = plots.compare_gradients(lambda t: HalfSquare.apply(t).sum(), minigrad.tensor(x))
    np.testing.assert_allclose(result.autograd, x)  # what the wrong backward says
    np.testing.assert_allclose(result.numeric, 2 * x, atol=1e-7)  # the truth
    np.testing.assert_allclose(result.error, np.abs(x), atol=1e-7)
    assert result.max_abs_error == pytest.approx(3.0, abs=1e-7)


def test_several_inputs_and_an_unused_one():
    x = np.array([[1.0, 2.0], [3.0, 4.0]])
    w = np.array([0.5, -1.0])
    unused = np.array([7.0])
    result = plots.compare_gradients(lambda a, b, c: (a @ b).sum(), (minigrad.tensor(x), minigrad.tensor(w),
                                                                       minigrad.tensor(unused)))
    # sum_i (x w)_i: d/dx[i, j] = w[j], d/dw[j] = sum_i x[i, j], nothing for the unused input.
    expected = np.concatenate([np.tile(w, 2), x.sum(axis=0), [0.0]])
    np.testing.assert_allclose(result.autograd, expected)
    np.testing.assert_allclose(result.numeric, expected, atol=1e-7)
    assert result.labels == ("x0[0, 0]", "x0[0, 1]", "x0[1, 0]", "x0[1, 1]", "x1[0]", "x1[1]", "x2[0]")


def test_float32_inputs_are_compared_in_float64():
    # In float32, eps=1e-6 is below the spacing of numbers near 3: differences would be noise.
    result = plots.compare_gradients(lambda t: (t ** 2).sum(), minigrad.tensor([3.0, -1.5]))
    assert result.autograd.dtype == np.float64
    assert result.max_abs_error < 1e-6


def test_repr_is_a_fixed_table():
    result = plots.compare_gradients(lambda t: HalfSquare.apply(t).sum(), minigrad.tensor([1.0, -2.0]))
    assert repr(result) == "\n".join([
        "GradientComparison: 2 elements, eps=1e-06, max abs error 2.0e+00",
        "element     autograd      numeric  abs error",
        "x[0]               1            2    1.0e+00",
        "x[1]              -2           -4    2.0e+00",
    ])
    # At the top of -x^2 autograd's gradient is -2 * 0 = -0.0; the table shows it as 0.
    scalar = plots.compare_gradients(lambda t: -(t * t), minigrad.tensor(0.0))
    assert repr(scalar) == "\n".join([
        "GradientComparison: 1 element, eps=1e-06, max abs error < 1e-08",
        "element     autograd      numeric  abs error",
        "x                  0            0    < 1e-08",
    ])


def test_repr_of_many_elements_is_cut_short():
    result = plots.compare_gradients(lambda t: (t * 2.0).sum(), minigrad.ones(30, dtype=minigrad.float64))
    lines = repr(result).splitlines()
    assert len(lines) == 2 + 12 + 1
    assert lines[-1] == "... 18 more elements"


def test_comparison_bars_show_both_gradients():
    x = np.array([1.0, -2.0, 3.0])
    result = plots.compare_gradients(lambda t: HalfSquare.apply(t).sum(), minigrad.tensor(x))
    ax = result.plot()
    autograd_bars, numeric_bars = ax.containers
    np.testing.assert_allclose([p.get_height() for p in autograd_bars], x)
    np.testing.assert_allclose([p.get_height() for p in numeric_bars], 2 * x, atol=1e-7)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["x[0]", "x[1]", "x[2]"]
    assert ax.get_title() == "autograd vs finite differences, max abs error 3.0e+00"


def test_comparison_scatter_for_many_elements():
    x = np.linspace(-2.0, 2.0, 25)
    result = plots.compare_gradients(lambda t: (t ** 3).sum(), minigrad.tensor(x))
    ax = result.plot()  # 25 > 20 elements: a scatter
    (points,) = ax.collections
    offsets = np.asarray(points.get_offsets())
    np.testing.assert_allclose(offsets[:, 0], 3 * x ** 2, atol=1e-6)  # finite differences
    np.testing.assert_allclose(offsets[:, 1], 3 * x ** 2, rtol=1e-12)  # autograd
    bars = result.plot(kind="bar")
    assert len(bars.containers) == 2


def test_comparison_plot_on_given_axes_and_bad_kind():
    result = plots.compare_gradients(lambda t: t.exp(), minigrad.tensor(0.0))
    fig, given = plt.subplots()
    assert result.plot(ax=given, kind="scatter") is given
    with pytest.raises(ValueError, match="kind"):
        result.plot(kind="pie")


def test_compare_gradients_rejects_non_scalar_outputs():
    with pytest.raises(ValueError, match="single number"):
        plots.compare_gradients(lambda t: t * 2, minigrad.tensor([1.0, 2.0]))


# --- never shows, never leaks a window -------------------------------------------------------


def test_no_helper_calls_show(monkeypatch):
    def refuse():
        raise AssertionError("plt.show() was called")

    monkeypatch.setattr(plt, "show", refuse)
    plots.plot_tangent(lambda x: x * x, 1.0)
    plots.plot_gradient_field(bowl, xlim=(-1, 1), ylim=(-1, 1), density=3, path=[[0.5, 0.5], [0.0, 0.0]])
    plots.plot_loss_curve([1.0, 0.5])
    plots.compare_gradients(lambda t: (t * t).sum(), minigrad.tensor([1.0])).plot()
    assert len(plt.get_fignums()) == 4  # one figure each, all still open for the notebook to show
