/* Loaded between require.js and the widget manager (embed-amd.js) on the book's
 * pages that hold widget snapshots; book/build.sh copies it to
 * _build/html/jupyter-widgets/setup.js.
 *
 * 1. The manager finds its icon fonts next to the modules it defines, whose
 *    addresses RequireJS derives from its settings (by default: next to the
 *    page). Point them at this folder, where the fonts are.
 * 2. The widgets typeset their labels with MathJax 2's MathJax.Hub.Queue; the
 *    book has MathJax 3, which has no Hub. A small stand-in passes the call on.
 */
(function () {
  "use strict";
  var here = document.currentScript.src.replace(/[?#].*$/, "").replace(/\/[^/]*$/, "");
  window.requirejs.config({
    paths: {
      "@jupyter-widgets/html-manager/dist": here,
      "@jupyter-widgets": here
    }
  });
  // MathJax 3, when the page has it, runs before DOMContentLoaded (deferred);
  // the widgets are drawn after it.
  window.addEventListener("DOMContentLoaded", function () {
    var mj = window.MathJax;
    if (!mj || mj.Hub || !mj.startup) return;
    mj.Hub = {
      Queue: function (job) {
        var element = job && job[2];
        mj.startup.promise.then(function () {
          return mj.typesetPromise(element ? [element] : undefined);
        });
      }
    };
  });
})();
