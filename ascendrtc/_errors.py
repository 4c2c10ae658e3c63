"""The exceptions ascendrtc raises, in one place.

Every public exception derives from :class:`Error` and keeps the standard
base a caller would try first (``except TypeError``, ``except
PermissionError``), so both ways of catching work::

    Error
    +-- AclError (RuntimeError)            an ACL call failed; .code, .name
    |   +-- LaunchError                    a launch failed or a kernel stopped on the device
    |   +-- CompileError                   compiling a Program failed
    |       +-- JitCompileError            ... a jit variant (ascendrtc._jit_errors)
    +-- TemplateError (ValueError)         a jit template placeholder is wrong
    +-- CacheMissError (RuntimeError)      ASCENDRTC_CACHE=require and no entry
    +-- CacheDirError (PermissionError)    the cache directory is unsafe
    +-- RecompileBudgetError (RuntimeError) a jit kernel would exceed its variant budget
    +-- OpProjectError (ValueError)        an op project cannot be compiled as given
    +-- UnwrittenOutputError (RuntimeError) a poisoned output still holds the pattern (check_written)
    +-- HostCompileError (RuntimeError)    op host code did not compile or load; .log, .stage, .file
    +-- CcError                           ascendrtc cc could not build a program (ascendrtc._cc)
    RecompileWarning (UserWarning)         a jit kernel compiled more variants than its budget

The C extension raises AclError, LaunchError and HostCompileError from here (csrc/ext/extension.c
looks them up at import), so this module must not import ``ascendrtc._C``.
All of them report ``__module__ == "ascendrtc"``, where users find them.
"""
from __future__ import annotations

import os
import re
from typing import Mapping, Optional, Sequence

__all__ = ["Error", "AclError", "LaunchError", "CompileError", "TemplateError", "CacheMissError", "OpProjectError",
           "CacheDirError", "RecompileBudgetError", "RecompileWarning", "UnwrittenOutputError"]


class Error(Exception):
    """The base of every exception ascendrtc raises on purpose."""


class UnwrittenOutputError(Error, RuntimeError):
    """An output ascendrtc poisoned still holds the poison pattern where the
    kernel should have written (:func:`ascendrtc.check_written`)."""


class AclError(Error, RuntimeError):
    """An ACL call failed.  ``.code`` is the aclError value, ``.name`` its symbolic name."""
    code: Optional[int] = None
    name: Optional[str] = None


# What the runtime reports for a failed task (csrc/rt/acl/stream.c, core_trap.c, core_hang.c):
#   NAME (CODE): [kernel execution: ]ACL_API: a task on STREAM failed: TASK[ (and N later task(s) failed too)]
#   TASK = KERNEL block B/N: API: VALUES   (API "kernel code" for a fault: "... (SIGSEGV): ...")
_LAUNCH = re.compile(r"^(?P<name>ACL_\w+) \((?P<code>-?\d+)\): (?:kernel execution: )?(?P<acl_api>acl\w+): "
                     r"a task on (?P<stream>.+?) failed: (?P<task>.*?)"
                     r"(?: \(and (?P<later>\d+) later task\(s\) failed too\))?$", re.S)
_TASK = re.compile(r"^(?P<kernel>\S+) block (?P<block>\d+)/(?P<block_dim>\d+): (?P<api>[^:]+(?:::[^:]+)*): "
                   r"(?P<values>.*)$", re.S)
_FAULT = re.compile(r"\((SIG[A-Z]+)\)")
_WHERE = re.compile(r" ?\((?:failed )?at (?P<file>[^\s()]+):(?P<line>\d+)\)")


class LaunchError(AclError):
    """A kernel launch failed, or a kernel stopped with an error on the device.

    ``str()`` reads: the kernel, the block, the device API (or the fault),
    the values involved, the kernel source line where known, and last the
    stream and the ACL call that reported it.  The same facts are
    attributes: ``kernel``, ``block``, ``block_dim``, ``api``, ``fault``
    (e.g. ``"SIGSEGV"``), ``values``, ``file``, ``line``, ``stream``,
    ``acl_api``, ``later_failures``, and ``code``/``name``; None where the
    report does not say (a real NPU's runtime words its messages its own way).
    For a jit kernel whose template lines differ from the rendered ones,
    ``template_line`` is the template's line (``line`` the rendered one).
    """
    kernel: Optional[str] = None
    block: Optional[int] = None
    block_dim: Optional[int] = None
    api: Optional[str] = None
    fault: Optional[str] = None
    values: Optional[str] = None
    file: Optional[str] = None
    line: Optional[int] = None
    stream: Optional[str] = None
    acl_api: Optional[str] = None
    later_failures: int = 0
    template_line: Optional[int] = None

    def __init__(self, *args):
        super().__init__(*args)
        if len(args) != 1 or not isinstance(args[0], str):
            return
        m = _LAUNCH.match(args[0])
        if not m:
            return
        self.name, self.code = m["name"], int(m["code"])
        self.acl_api, self.stream = m["acl_api"], m["stream"]
        self.later_failures = int(m["later"] or 0)
        task = m["task"]
        t = _TASK.match(task)
        if t:
            self.kernel, self.block, self.block_dim = t["kernel"], int(t["block"]), int(t["block_dim"])
            self.api, body = t["api"], t["values"]
            f = _FAULT.search(body) if self.api == "kernel code" else None
            self.fault = f.group(1) if f else None
            w = _WHERE.search(body)
            if w:
                self.file, self.line = w["file"], int(w["line"])
                body = body[:w.start()] + body[w.end():]
                body = self._template_lines(body)
            self.values = body
            head = f"{self.kernel} block {self.block}/{self.block_dim}: {self.api}: {body}"
        else:
            head = task
        if self.file and self.template_line is not None:
            head += f"\n  at {self.file}:{self.template_line} (template line; line {self.line} of the rendered source)"
        elif self.file:
            head += f"\n  at {self.file}:{self.line}"
        later = f"; {self.later_failures} later task(s) failed too" if self.later_failures else ""
        self.args = (f"{head}\n  ({self.stream}, reported by {self.acl_api}: {self.name} ({self.code}){later})",)


    def _template_lines(self, body: str) -> str:
        """A jit kernel's rendered lines, in the report and its "at" line,
        as the template's lines (where a multi-line value moved them)."""
        from ._jit_template import launch_line

        hit = launch_line(self.file, self.line)
        if hit is not None and hit[1] != self.line:
            self.template_line = hit[1]

        def sub(m):
            h = launch_line(m[1], int(m[2]))
            return f"{m[1]}:{h[1]}" if h is not None else m[0]
        return re.sub(r"(%s):(\d+)" % re.escape(self.file), sub, body)

class TemplateError(Error, ValueError):
    """A placeholder could not be parsed or evaluated; names the template
    line and the expression."""


class CacheMissError(Error, RuntimeError):
    """``ASCENDRTC_CACHE=require`` and the binary is not in the cache."""


class CacheDirError(Error, PermissionError):
    """The cache directory cannot be used safely (see the message)."""


class RecompileBudgetError(Error, RuntimeError):
    """A jit kernel would exceed its variant budget (``on_budget="raise"``)."""


class OpProjectError(Error, ValueError):
    """An op project that cannot be compiled as given: a missing file, an
    ambiguous kernel, a dtype or format that is not known.  The message
    names the op, the file and the reason."""


class HostCompileError(Error, RuntimeError):
    """An op project's host code did not compile or load (``_C.OpHostCode``);
    ``log`` holds clang's diagnostics.  The op path reports it as an
    :class:`OpProjectError` naming the op and the file.  ``stage`` is
    "init" when the code loaded but its static initialisers crashed, threw
    or ran past the timeout (``file``: the op_host file whose initialiser was
    running, or None), else "compile"."""

    def __init__(self, message: str = "", log: str = "", stage: str = "compile", file: Optional[str] = None):
        super().__init__(message)
        self.log, self.stage, self.file = log, stage, file


class RecompileWarning(UserWarning):
    """A jit kernel compiled more variants than its budget."""


# file:line:col: error: message   (clang's format, as the compile log has it)
_DIAG = re.compile(r"^(?P<file>[^\n:]*):(?P<line>\d+):(?P<col>\d+): (?:fatal )?error: (?P<msg>[^\n]*)$", re.M)


class CompileError(AclError):
    """Compiling a :class:`Program` failed.

    ``log`` is the compiler's full output, ``source`` and ``options`` what was
    compiled, ``file``/``line``/``column`` the first error's position (the
    program's name or one of its in-memory headers; 1-based; None when the
    log has no position in either), ``code``/``name`` the aclError.
    ``str()`` shows that error with the offending line and a caret;
    :meth:`dump` prints the whole source with line numbers.
    """

    def __init__(self, code: int, name: str, log: str, source: str, options: Sequence[str],
                 program_name: str, detail: str = "", headers: Optional[Mapping[str, str]] = None):
        self.code, self.name = code, name
        self.log, self.source, self.options = log, source, list(options)
        self.program_name = program_name
        self.headers = dict(headers or {})
        self.file: Optional[str] = None
        self.line: Optional[int] = None
        self.column: Optional[int] = None
        self.message = detail
        texts = {os.path.basename(program_name): (program_name, source)}
        for hname, htext in self.headers.items():
            texts.setdefault(os.path.basename(hname), (hname, htext))
        diags = list(_DIAG.finditer(log))
        # The first error in the user's own text (source or in-memory header);
        # errors inside the device library come after what caused them.
        own = [m for m in diags if os.path.basename(m["file"]) in texts]
        first = (own or diags or [None])[0]
        if first is not None:
            self.message = first["msg"]
            if own:
                self.file = texts[os.path.basename(first["file"])][0]
                self.line, self.column = int(first["line"]), int(first["col"])
        elif not self.message:
            self.message = next((ln for ln in log.splitlines() if ln.strip()), "compilation failed")
        super().__init__(self._render())

    def _text_of(self, file: Optional[str]) -> str:
        return self.source if file in (None, self.program_name) else self.headers.get(file, "")

    def _render(self) -> str:
        head = f"{self.name} ({self.code}): "
        if self.line is None:
            return head + self.message + self._more()
        lines = self._text_of(self.file).splitlines()
        text = lines[self.line - 1] if 0 < self.line <= len(lines) else ""
        caret_pad = "".join("\t" if ch == "\t" else " " for ch in text[:max(self.column - 1, 0)])
        # clang's layout: a right-aligned line number, a bar, the caret under the column
        return (f"{head}{self.file}:{self.line}:{self.column}: error: {self.message}\n"
                f"{self.line:>5} | {text}\n{'':>5} | {caret_pad}^" + self._more())

    def _more(self) -> str:
        n = len(_DIAG.findall(self.log))
        extra = f"; {n - 1} more error(s)" if n > 1 else ""
        return f"\n(options: {' '.join(self.options) or 'none'}{extra}; full compiler output in .log)"

    def __reduce__(self):
        # Rebuild from the attributes: subclasses' __init__ signatures differ.
        return (_rebuild_error, (type(self), self.args, dict(self.__dict__)))

    def dump(self, file=None) -> None:
        """Print the source with line numbers, then the compiler log."""
        import sys
        out = file or sys.stderr
        for i, ln in enumerate(self.source.splitlines(), 1):
            mark = ">" if i == self.line and self.file == self.program_name else " "
            print(f"{mark}{i:5d}  {ln}", file=out)
        print(self.log, file=out)


def _rebuild_error(cls, args, state):
    e = cls.__new__(cls, *args)
    e.args = args
    e.__dict__.update(state)
    return e


for _cls in (Error, AclError, LaunchError, CompileError, TemplateError, CacheMissError, CacheDirError,
             RecompileBudgetError, OpProjectError, RecompileWarning, UnwrittenOutputError):
    _cls.__module__ = "ascendrtc"
del _cls
