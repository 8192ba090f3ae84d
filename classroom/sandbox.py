"""Each submission's kernel in a sandbox of its own, built from what the operating system offers.

Grading runs a student's code. The steps, each a layer that works on its own:

1. **A private folder.** The submission is copied, alone, into a new folder; it is the kernel's
   working folder and home, and the only place it can write. It is deleted afterwards.
2. **bubblewrap** (``bwrap``, ``apt-get install bubblewrap``). The kernel sees a filesystem of
   its own: the system and this Python read-only, minigrad's packages read-only, the private
   folder and its kernel's socket folder, and nothing else: not the teacher's sources, not the
   other submissions, not the home folder. It gets its own process namespace (it cannot see or
   signal the grader, and when the kernel ends every process it started ends with it), no
   network, and a new session (it cannot type into the teacher's terminal).
3. **A separate user** (needs root). The kernel runs as a user id of its own, one per running
   sandbox, so the process limit counts only its processes and files it writes are not root's.
4. **Resource limits** (``prlimit``): CPU seconds, memory (address space), the size of a file
   it writes, the number of processes and open files, no core dumps.

The grader adds two limits of its own (``grading.execute``): a cap on the notebook's total time
and on the size of its output.

:func:`probe` says which layers work here. A layer that is missing is never skipped silently:
:class:`Sandbox` puts a warning in every report it grades (``Sandbox.warnings``), and with
``MINIGRAD_REQUIRE_SANDBOX=1``, or under CI (``CI=true``), a missing layer is an error.
"""

import fcntl
import functools
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

REQUIRE_ENV = "MINIGRAD_REQUIRE_SANDBOX"
HOME = "/home/student"  # the private folder, as the sandboxed kernel sees it
UID_RANGE = range(610000, 611000)  # user ids for sandboxes (not in /etc/passwd, so owning nothing)
LOCKS = Path(tempfile.gettempdir()) / "minigrad-sandbox-uids"
PACKAGES = ("minigrad", "viz", "classroom")  # what a notebook imports from this project


class SandboxUnavailable(RuntimeError):
    """A sandbox layer that ``MINIGRAD_REQUIRE_SANDBOX`` requires could not be set up."""


@dataclass(frozen=True)
class Limits:
    """What one submission's kernel may use.

    Attributes:
        cpu_seconds: CPU time of the kernel process (then it is killed).
        memory_mb: address space of each process (NumPy's allocations fail past it).
        file_mb: the largest file it may write.
        processes: processes and threads of its user (with a separate user only).
        open_files: open file descriptors per process.
    """

    cpu_seconds: int = 600
    memory_mb: int = 3072
    file_mb: int = 64
    processes: int = 128
    open_files: int = 512


@dataclass(frozen=True)
class Layers:
    """Which layers work on this machine (see :func:`probe`)."""

    bwrap: str | None  # the path of a working bwrap, or None
    separate_user: bool
    prlimit: str | None
    why_not: tuple  # one plain sentence per missing layer

    @property
    def complete(self):
        return not self.why_not


def required():
    """True where a missing layer must be an error: ``MINIGRAD_REQUIRE_SANDBOX=1``, or CI (``CI=true``)."""
    return bool(os.environ.get(REQUIRE_ENV)) or os.environ.get("CI") == "true"


def _run_quietly(argv):
    try:
        return subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=20).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@functools.lru_cache(maxsize=None)
def probe():
    """Tries each layer once (a few milliseconds) and says which work.

    Returns:
        A :class:`Layers`.
    """
    why = []
    bwrap = shutil.which("bwrap")
    prlimit = shutil.which("prlimit")
    root = os.geteuid() == 0
    if bwrap is None:
        why.append("bubblewrap is not installed (apt-get install bubblewrap): the submission's code could "
                   "read every file this user can read, write to them, use the network, and leave "
                   "processes running")
    else:
        trial = [bwrap, *_system_binds(), "--unshare-pid", "--unshare-net", "--die-with-parent"]
        if not root:
            trial.append("--unshare-user")
        if not _run_quietly(trial + ["--", "true"]):
            why.append(f"{bwrap} is installed but cannot make a sandbox here (user namespaces disabled, or "
                       "inside a container that forbids them): the submission's code is not isolated")
            bwrap = None
    separate_user = root and shutil.which("setpriv") is not None
    if not separate_user:
        why.append("not running as root (or no setpriv): the kernel runs as this user, and the process "
                   "limit is not set, since it would count this user's own processes")
    if prlimit is None:
        why.append("prlimit (util-linux) is missing: no limits on CPU time, memory, file size or processes")
    return Layers(bwrap, separate_user, prlimit, tuple(why))


def _system_binds():
    """bwrap arguments that show the system read-only: /usr, /etc and the top-level links into /usr."""
    args = ["--ro-bind", "/usr", "/usr", "--ro-bind", "/etc", "/etc", "--dev", "/dev", "--proc", "/proc"]
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
        if os.path.islink(top):
            args += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            args += ["--ro-bind", top, top]
    return args


def _python_paths():
    """The folders this Python and minigrad's packages are read from (all shown read-only)."""
    paths = {os.path.realpath(sys.base_prefix), os.path.realpath(sys.prefix), sys.prefix,
             os.path.dirname(os.path.realpath(sys.executable))}
    for name in PACKAGES:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations:
            paths.update(os.path.realpath(p) for p in spec.submodule_search_locations)
    # The system's own folders are bound already; a folder inside another one needs no bind.
    keep = sorted(p for p in paths if not p.startswith(("/usr/", "/etc/")) and p not in ("/usr", "/"))
    return [p for p in keep if not any(p != q and p.startswith(q + os.sep) for q in keep)]


def _parents(path, made):
    """``--dir`` arguments (mode 0755) for each folder above ``path`` not in ``made`` yet (bwrap makes
    them 0700 otherwise, and the kernel's user could not pass through them)."""
    args, parts = [], Path(path).parts[1:-1]
    for i in range(len(parts)):
        folder = "/" + "/".join(parts[: i + 1])
        if folder not in made:
            made.add(folder)
            args += ["--perms", "0755", "--dir", folder]
    return args


def _take_uid():
    """A user id no other running sandbox has, held by a lock file until :func:`_give_back`."""
    LOCKS.mkdir(mode=0o700, exist_ok=True)
    start = os.getpid() % len(UID_RANGE)  # spread the search: parallel graders rarely collide
    for i in range(len(UID_RANGE)):
        uid = UID_RANGE[(start + i) % len(UID_RANGE)]
        handle = open(LOCKS / f"{uid}.lock", "w")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            continue
        return uid, handle
    raise SandboxUnavailable(f"all {len(UID_RANGE)} sandbox user ids are in use")


def processes_of(uid):
    """The process ids running as ``uid`` (to check that none is left after grading)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.stat(f"/proc/{entry}").st_uid == uid:
                    found.append(int(entry))
            except OSError:
                pass
    return found


class Sandbox:
    """One submission's private folder and the command that starts its kernel inside the sandbox.

    Use as a context manager; leaving it kills whatever still runs as its user and deletes its
    folders::

        with Sandbox("ana.ipynb", submission_text) as box:
            km = box.kernel_manager()

    Args:
        filename: the name the submission's copy gets in the private folder.
        text: the submission as the student handed it in (bytes or str).
        limits: a :class:`Limits`.
        enabled: False runs the kernel with no sandbox at all (a warning says so).
        why_off: why it is off, for that warning.

    Attributes:
        warnings: sentences for the report: each layer that is missing and what that means.
        folder: the private folder, as the grader sees it.
    """

    def __init__(self, filename="submission.ipynb", text=b"", limits=None, enabled=True,
                 why_off="the sandbox was turned off (--no-sandbox)"):
        self.limits = limits or Limits()
        self.layers = probe() if enabled else Layers(None, False, None, ("the sandbox was turned off",))
        self.warnings = []
        if not enabled:
            self.warnings.append(f"NOT SANDBOXED: {why_off}; the submission's code ran with this user's rights")
        elif not self.layers.complete:
            if required():
                raise SandboxUnavailable(f"{REQUIRE_ENV} or CI=true is set, but: " + "; ".join(self.layers.why_not))
            self.warnings += [f"sandbox incomplete: {w}" for w in self.layers.why_not]
        self.uid, self._lock = (None, None)
        self._root = Path(tempfile.mkdtemp(prefix="mg-sbx-"))
        self.folder = self._root / "home"
        self.sockets = self._root / "k"  # short: a socket's path may be at most about 100 characters
        self.tmp = self._root / "tmp"
        for path in (self.folder, self.sockets, self.tmp):
            path.mkdir(mode=0o700)
        if self.layers.separate_user:
            self.uid, self._lock = _take_uid()
            for path in (self._root, self.folder, self.sockets, self.tmp):
                os.chown(path, self.uid, self.uid)
            os.chmod(self._root, 0o700)
        data = text.encode() if isinstance(text, str) else text
        copy = self.folder / Path(filename).name
        copy.write_bytes(data)
        if self.uid is not None:
            os.chown(copy, self.uid, self.uid)

    # --- the kernel's command --------------------------------------------------------------

    @property
    def cwd(self):
        """The kernel's working folder as the kernel sees it."""
        return HOME if self.layers.bwrap else str(self.folder)

    def _env(self):
        home = self.cwd
        tmp = "/tmp" if self.layers.bwrap else str(self.tmp)
        env = {"PATH": f"{os.path.dirname(sys.executable)}:/usr/local/bin:/usr/bin:/bin", "HOME": home,
               "TMPDIR": tmp, "LANG": os.environ.get("LANG", "C.UTF-8"), "MPLBACKEND": "Agg",
               "MPLCONFIGDIR": f"{tmp}/matplotlib", "IPYTHONDIR": f"{tmp}/ipython",
               "SCIKIT_LEARN_DATA": f"{tmp}/scikit_learn_data", "PYTHONDONTWRITEBYTECODE": "1",
               "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
               "JUPYTER_PLATFORM_DIRS": "1", "JUPYTER_RUNTIME_DIR": f"{tmp}/jupyter"}
        if os.environ.get("PYTHONPATH"):  # where the grader found minigrad; only the packages are shown
            env["PYTHONPATH"] = os.environ["PYTHONPATH"]
        return env

    def argv(self, command):
        """The full command that runs ``command`` (a list) inside every layer that works here."""
        inner = list(command)
        lim = self.limits
        if self.layers.separate_user:
            inner = ["setpriv", f"--reuid={self.uid}", f"--regid={self.uid}", "--clear-groups",
                     "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--", *inner]
        if self.layers.prlimit:
            nproc = [f"--nproc={lim.processes}"] if self.layers.separate_user else []
            inner = [self.layers.prlimit, f"--cpu={lim.cpu_seconds}", f"--as={lim.memory_mb << 20}",
                     f"--fsize={lim.file_mb << 20}", f"--nofile={lim.open_files}", "--core=0", *nproc,
                     "--", *inner]
        if not self.layers.bwrap:
            return ["env", "-i", *(f"{k}={v}" for k, v in self._env().items()), *inner]
        args = [self.layers.bwrap, *_system_binds()]
        # /tmp first: a checkout of minigrad under /tmp (as in some CI runners) is bound over it.
        args += ["--perms", "0755", "--dir", "/home", "--bind", str(self.folder), HOME, "--bind", str(self.tmp), "/tmp"]
        made = {"/tmp", "/home"}
        for path in _python_paths():
            args += [*_parents(path, made), "--ro-bind", path, path]
        args += [*_parents(str(self.sockets), made), "--bind", str(self.sockets), str(self.sockets),
                 "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
                 "--hostname", "sandbox", "--die-with-parent", "--new-session", "--chdir", HOME, "--clearenv"]
        if not self.layers.separate_user:
            args.append("--unshare-user")
        for key, value in self._env().items():
            args += ["--setenv", key, value]
        return [*args, "--", *inner]

    def kernel_manager(self):
        """An async kernel manager whose kernel (this Python's ipykernel) starts inside the sandbox."""
        from jupyter_client import AsyncKernelManager
        from jupyter_client.kernelspec import KernelSpec, KernelSpecManager

        argv = self.argv([sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"])

        class Sandboxed(KernelSpecManager):
            def get_kernel_spec(self, kernel_name):
                # "message": interrupts go over the control channel, so a SIGINT never reaches bwrap.
                return KernelSpec(argv=argv, display_name="Python (sandboxed)", language="python",
                                  interrupt_mode="message")

        uid = self.uid

        class Manager(AsyncKernelManager):
            def write_connection_file(self, **kwargs):
                super().write_connection_file(**kwargs)
                if uid is not None:  # the kernel's user must read it (it holds the signing key)
                    os.chown(self.connection_file, uid, uid)

        km = Manager(kernel_name="python3", kernel_spec_manager=Sandboxed(), transport="ipc",
                     ip=str(self.sockets / "s"))
        km.connection_file = str(self.sockets / "kernel.json")
        return km

    # --- the end ----------------------------------------------------------------------------

    def close(self):
        """Kills what is left of the sandbox's processes, deletes its folders, frees its user id."""
        if self.uid is not None:
            for pid in processes_of(self.uid):  # none with bwrap (its namespace ended with the kernel)
                try:
                    os.kill(pid, 9)
                except OSError:
                    pass
        shutil.rmtree(self._root, ignore_errors=True)
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
