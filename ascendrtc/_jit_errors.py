"""Errors and warnings of :mod:`ascendrtc.jit`, and its warm-up progress
display."""
from __future__ import annotations

import sys
from typing import Dict, Optional

from ._jit_template import locate
from ._errors import CompileError, RecompileBudgetError, RecompileWarning

__all__ = ["JitCompileError", "RecompileBudgetError", "RecompileWarning"]


# ---- compile errors mapped back to the template ------------------------------

class JitCompileError(CompileError):
    """A :class:`CompileError` of a jit variant: also names the template line
    the error came from (``template_line``, ``template_text``), the values
    substituted on it (``values``) and the specialisation (``label``).
    ``source`` is the rendered source."""
    __module__ = "ascendrtc"

    def __init__(self, code, name, log, source, options, program_name, detail="", headers=None, label=""):
        self.label = label
        self.template_name: Optional[str] = None
        self.template_line: Optional[int] = None
        self.template_text: Optional[str] = None
        self.values: Dict[str, str] = {}
        self._source_obj = source
        super().__init__(code, name, log, str(source), options, program_name, detail, headers)

    @property
    def rendered_source(self) -> str:
        return self.source

    def _render(self) -> str:
        src = self._source_obj
        in_source = getattr(self, "file", self.program_name) in (None, self.program_name)
        if self.line is not None and not in_source:  # in an in-memory header: the base class shows it
            return super()._render().split("\n(options:")[0] + self._tail()
        if self.line is not None:
            tmpl, tl = locate(src, self.line)
            if tmpl is not None and tl is not None:
                self.template_name, self.template_line, self.template_text = tmpl.name, tl, tmpl.line(tl)
                self.values = src.values_on(tl)
        head = f"{self.name} ({self.code}): "
        if self.line is None:
            return head + self.message + self._tail()
        lines = self.source.splitlines()
        text = lines[self.line - 1] if 0 < self.line <= len(lines) else ""
        caret = "".join("\t" if ch == "\t" else " " for ch in text[:max(self.column - 1, 0)])
        out = [f"{head}{self.program_name}:{self.line}:{self.column}: error: {self.message}"]
        if self.template_line is not None:
            w = len(str(max(self.template_line, self.line)))
            out.append(f"  from line {self.template_line} of template {self.template_name!r}:")
            out.append(f"   {self.template_line:>{w}} | {self.template_text}")
            out.append(f"  rendered as line {self.line}:")
            out.append(f"   {self.line:>{w}} | {text}")
            out.append(f"   {'':>{w}} | {caret}^")
            if self.values:
                out.append("  with " + ", ".join(f"${{{k}}} = {v}" for k, v in self.values.items()))
        else:
            w = len(str(self.line))
            out.append(f"   {self.line:>{w}} | {text}")
            out.append(f"   {'':>{w}} | {caret}^")
        return "\n".join(out) + self._tail()

    def _tail(self) -> str:
        n = sum(1 for ln in self.log.splitlines() if ": error: " in ln or ": fatal error: " in ln)
        more = f"; {n - 1} more error(s)" if n > 1 else ""
        return (f"\n(while compiling {self.label or self.program_name}; options: {' '.join(self.options) or 'none'}"
                f"{more}; rendered source in .source, compiler output in .log)")

    def __reduce__(self):
        state = {k: v for k, v in self.__dict__.items() if k != "_source_obj"}
        return (_restore_jit_error, (state, self.args))


def _restore_jit_error(state, args):
    e = JitCompileError.__new__(JitCompileError)
    state["_source_obj"] = state.get("source", "")
    e.__dict__.update(state)
    e.args = args
    return e


class _Progress:
    def __init__(self, total: int, desc: str, enabled: bool):
        self.n, self.total, self.desc = 0, total, desc
        self.bar = None
        self.enabled = enabled and total > 0
        if self.enabled:
            try:
                from tqdm.auto import tqdm
                self.bar = tqdm(total=total, desc=desc, unit="variant")
            except ImportError:
                pass

    def step(self, label: str) -> None:
        self.n += 1
        if not self.enabled:
            return
        if self.bar is not None:
            self.bar.update(1)
        else:
            print(f"\r{self.desc}: {self.n}/{self.total}", end="" if self.n < self.total else "\n",
                  file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
