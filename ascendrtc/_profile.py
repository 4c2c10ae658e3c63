"""Estimated NPU time of simulated launches: ``ascendrtc.profile()``.

The simulated NPU runs every pipe of an AI core in program order.  While a
profiling session is on, its cost model (``csrc/rt/analysis/cost.c``) places each
device-API operation on a per-core model of the pipes -- MTE2, vector,
MTE3, scalar, cube... -- which overlap unless a sync orders them, prices it
from the published rates of the simulated SoC and schedules the blocks on
its cores.  ``docs/performance_model.md`` lists every figure, where it comes from
and what is assumed.  The estimates rank kernel variants (double
buffering, tile sizes, block counts) and say which pipe bounds a kernel;
they are not measurements::

    with ascendrtc.profile() as prof:
        add[8](x, y, z)
    print(prof)                 # estimated time, per-pipe busy time and ratios
    prof.plot()                 # the pipeline timeline (matplotlib)
    prof.save_trace("add.json") # Chrome / Perfetto trace
"""
from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from typing import Dict, List, Optional

from . import _C
from ._errors import Error

#: Pipe keys in the order the runtime reports them; the msprof
#: PipeUtilization names are ``aiv_vec_ratio``, ``aiv_mte2_ratio``...
PIPES = ("scalar", "vec", "cube", "mte1", "mte2", "mte3", "fixpipe")
_COLORS = {"scalar": "#7f7f7f", "vec": "#2ca02c", "cube": "#9467bd", "mte1": "#8c564b", "mte2": "#1f77b4",
           "mte3": "#ff7f0e", "fixpipe": "#e377c2"}
_lock = threading.Lock()
_current: Optional["Profile"] = None  # the session that is on (sessions are process-wide)
_NOTE = ("Estimated from published rates (docs/performance_model.md): orderings and ratios are meaningful, "
         "absolute times are not measurements.")


@dataclass
class BlockSpan:
    """One block's place in the launch: the core it ran on, its start and end
    (microseconds from the launch's start) and its pipes' busy time."""
    block: int
    core: int
    start_us: float
    end_us: float
    busy_us: Dict[str, float]


@dataclass
class Op:
    """One device-API operation on the timeline."""
    block: int
    pipe: str
    start_us: float
    end_us: float
    bytes: int
    api: str
    site: Optional[str]   # kernel source "file:line", when known
    assumed: bool         # priced by an assumed rate (no published figure)


@dataclass
class LaunchReport:
    """The estimate for one launch: ``kernel``; the ``soc`` it is priced for
    and its ``clock_mhz``; ``blocks`` and the ``cores`` they ran on (in waves
    when there are more blocks); ``cycles``, the estimate; ``busy_cycles``
    per pipe and ``block_cycles``, summed over blocks; GM bytes read and
    written; ``ops`` priced; ``sync_all_phases``; ``per_block`` (a
    :class:`BlockSpan` each: core, start, end, busy time) and ``events`` (an
    :class:`Op` per operation, for the timeline; ``dropped_events`` counts
    those beyond the per-launch budget, which the totals still include, and
    ``dropped_from`` says where: (block, events dropped, start of the first
    in cycles)); ``schedule_cycles``, the cores' pipelines alone, and
    ``roofline_cycles``, the chip's floors (``hbm``, ``l2``, ``compute``):
    ``cycles`` is the largest of them; ``hbm_bytes`` the GM bytes HBM moves
    (the rest hit L2); ``flops`` the cube's operations and ``peak_flops``
    the SoC's fp16 cube peak per second."""
    kernel: str
    soc: str
    clock_mhz: float
    blocks: int
    cores: int
    core_type: str
    cycles: float
    busy_cycles: Dict[str, float]
    block_cycles: float
    gm_read_bytes: int
    gm_write_bytes: int
    ops: int
    dropped_events: int
    sync_all_phases: int
    per_block: List[BlockSpan] = field(repr=False)
    events: List[Op] = field(repr=False)
    schedule_cycles: float = 0.0
    roofline_cycles: Dict[str, float] = field(default_factory=dict)
    hbm_bytes: int = 0
    flops: float = 0.0
    peak_flops: float = 0.0
    dropped_from: List[tuple] = field(default_factory=list, repr=False)
    mix_unpriced: bool = False  # a MIX launch: its AIC and AIV sub-blocks are not priced (estimate 0)
    simt_unpriced: bool = False  # a SIMT launch: not priced (estimate 0)

    @property
    def roofline_us(self) -> float:
        """The chip's floor for this launch, in microseconds: the largest of
        its HBM bytes over the HBM bandwidth (L2 hits excluded), all its GM
        bytes over the L2 bandwidth, and the vector or cube work over the
        cores sharing it.  ``time_us`` is never below it."""
        return max(self.roofline_cycles.values(), default=0.0) / self.clock_mhz

    @property
    def limited_by(self) -> str:
        """What sets the estimate: ``"schedule"`` (the cores' pipelines), or
        the roofline term that lifts it: ``"hbm"``, ``"l2"`` or ``"compute"``."""
        if not self.roofline_cycles or self.cycles <= self.schedule_cycles + 1e-9:
            return "schedule"
        return max(self.roofline_cycles, key=self.roofline_cycles.get)

    @property
    def dropped_text(self) -> str:
        """Where the timeline lost events ("" when it kept them all)."""
        if not self.dropped_events:
            return ""
        blocks = [d[0] for d in self.dropped_from]
        t = min((d[2] for d in self.dropped_from), default=0.0) / self.clock_mhz
        span = f"block {blocks[0]}" if len(blocks) == 1 else f"{len(blocks)} blocks ({blocks[0]}..{blocks[-1]})"
        return (f"{self.dropped_events} of {self.ops} events not kept in the timeline ({span}, from "
                f"{t:.2f} us on; the totals count them)")

    @property
    def time_us(self) -> float:
        """Estimated kernel time in microseconds (launch overhead excluded)."""
        return self.cycles / self.clock_mhz

    @property
    def busy_us(self) -> Dict[str, float]:
        """Busy time of each pipe, summed over blocks, in microseconds."""
        return {p: c / self.clock_mhz for p, c in self.busy_cycles.items()}

    @property
    def ratios(self) -> Dict[str, float]:
        """msprof-style pipe utilisation: each pipe's busy cycles over the
        blocks' total cycles (``vec``, ``mte2``, ``mte3``, ``scalar``,
        ``cube``, ``mte1``, ``fixpipe``)."""
        t = self.block_cycles or 1.0
        return {p: c / t for p, c in self.busy_cycles.items()}

    @property
    def bound(self) -> str:
        """The busiest pipe: what limits the kernel."""
        r = self.ratios
        return max(r, key=r.get)

    @property
    def assumed_apis(self) -> List[str]:
        """APIs priced without a published rate (see docs/performance_model.md)."""
        return sorted({e.api for e in self.events if e.assumed})

    @classmethod
    def _from_json(cls, d: dict) -> "LaunchReport":
        mhz = d["clock_mhz"]
        pipes = d["pipes"]
        strings = d["strings"]
        per_block = [BlockSpan(i, r[0], r[1] / mhz, r[2] / mhz, {p: r[3 + j] / mhz for j, p in enumerate(pipes)})
                     for i, r in enumerate(d["per_block"])]
        events = [Op(e[0], pipes[e[1]], e[2] / mhz, e[3] / mhz, e[4], strings[e[5]] or "?", strings[e[6]],
                     bool(e[7])) for e in d["events"]]
        return cls(kernel=d["kernel"], soc=d["soc"], clock_mhz=mhz, blocks=d["blocks"], cores=d["cores"],
                   core_type=d["core_type"], cycles=d["cycles"], busy_cycles=dict(zip(pipes, d["busy"])),
                   block_cycles=d["block_cycles"], gm_read_bytes=d["gm_read_bytes"],
                   gm_write_bytes=d["gm_write_bytes"], ops=d["ops"], dropped_events=d["dropped_events"],
                   sync_all_phases=d["sync_all_phases"], per_block=per_block, events=events,
                   schedule_cycles=d.get("schedule_cycles", d["cycles"]), roofline_cycles=d.get("roofline", {}),
                   hbm_bytes=d.get("hbm_bytes", 0), flops=d.get("flops", 0.0), peak_flops=d.get("peak_flops", 0.0),
                   dropped_from=[tuple(x) for x in d.get("dropped_from", [])],
                   mix_unpriced=bool(d.get("mix_unpriced", 0)), simt_unpriced=bool(d.get("simt_unpriced", 0)))


class Profile:
    """A profiling session and, once it ends, its report.

    ``launches`` holds one :class:`LaunchReport` per launch queued inside
    the ``with`` block (in completion order); ``time_us``, ``busy_us`` and
    ``ratios`` sum over them, as if they ran back to back."""

    def __init__(self, soc: Optional[str] = None):
        self.soc = soc
        self.launches: List[LaunchReport] = []

    def __enter__(self) -> "Profile":
        global _current
        with _lock:
            if _current is not None:
                raise Error("ascendrtc.profile: a profiling session is already on (sessions are process-wide "
                            "and do not nest)")
            if _C.profile(True, self.soc) is None:
                raise Error("ascendrtc.profile: the cost model belongs to the simulated NPU; the current backend "
                            "(a CANN home) has none -- use msprof on an NPU")
            _current = self
        return self

    def __exit__(self, *exc) -> None:
        global _current
        try:
            _C.synchronize()  # the launches queued in the block are priced as they finish
            data = json.loads(_C.profile_take())
        finally:
            with _lock:
                _C.profile(False)
                _current = None
        self.launches = [LaunchReport._from_json(d) for d in data]

    # ---- totals ----
    def __len__(self) -> int:
        return len(self.launches)

    def __getitem__(self, i: int) -> LaunchReport:
        return self.launches[i]

    def __iter__(self):
        return iter(self.launches)

    @property
    def time_us(self) -> float:
        """Estimated time of all launches, back to back, in microseconds."""
        return sum(r.time_us for r in self.launches)

    @property
    def busy_us(self) -> Dict[str, float]:
        """Busy time of each pipe over all launches and blocks, in microseconds."""
        return {p: sum(r.busy_us[p] for r in self.launches) for p in PIPES}

    @property
    def ratios(self) -> Dict[str, float]:
        """msprof-style pipe utilisation over all launches (see :attr:`LaunchReport.ratios`)."""
        total = sum(r.block_cycles for r in self.launches) or 1.0
        return {p: sum(r.busy_cycles[p] for r in self.launches) / total for p in PIPES}

    @property
    def bound(self) -> str:
        """The busiest pipe over all launches."""
        r = self.ratios
        return max(r, key=r.get)

    def __str__(self) -> str:
        if not self.launches:
            return "ascendrtc profile: no launch was profiled"
        socs = sorted({r.soc for r in self.launches})
        head = (f"ascendrtc profile: {len(self.launches)} launch(es) on {', '.join(socs)}, estimated "
                f"{self.time_us:.2f} us")
        cols = ("vec", "mte2", "mte3", "scalar", "cube")
        lines = [head, f"{'#':>3} {'kernel':<24} {'blocks':>6} {'cores':>5} {'time(us)':>9} "
                 + " ".join(f"{c:>6}" for c in cols) + "  bound"]
        for i, r in enumerate(self.launches):
            ra = r.ratios
            lines.append(f"{i:>3} {r.kernel[:24]:<24} {r.blocks:>6} {r.cores:>5} {r.time_us:>9.2f} "
                         + " ".join(f"{ra[c]:>6.2f}" for c in cols) + f"  {r.bound}")
        for i, r in enumerate(self.launches):
            lines.append(f"{i:>3} roofline {r.roofline_us:.2f} us (HBM {r.hbm_bytes / 1e6:.1f} MB of "
                         f"{(r.gm_read_bytes + r.gm_write_bytes) / 1e6:.1f} MB GM traffic; L2 hits the rest)"
                         + ("" if r.limited_by == "schedule" else f", the estimate is the roofline's {r.limited_by} term"))
            if r.dropped_events:
                lines.append(f"{i:>3} timeline: {r.dropped_text}")
            if r.simt_unpriced:
                lines.append(f"{i:>3} warning: {r.kernel} is a SIMT kernel: SIMT is not priced (the cost model has "
                             "no model of warps, their scheduling or memory coalescing yet): its estimate is 0")
            elif r.mix_unpriced:
                lines.append(f"{i:>3} warning: {r.kernel} runs MIX blocks (an AIC and its AIVs each), which the cost "
                             "model does not price yet: its estimate is not a measurement of anything")
            elif not r.ops:
                lines.append(f"{i:>3} warning: no operation of {r.kernel} was priced (the cost model saw no "
                             "device-API call): its estimate is 0")
        assumed = sorted({a for r in self.launches for a in r.assumed_apis})
        if assumed:
            lines.append("priced without a published rate: " + ", ".join(assumed))
        lines.append(_NOTE)
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<ascendrtc.Profile: {len(self.launches)} launch(es), {self.time_us:.2f} us estimated>"

    def _spans(self):
        """(launch offset in us, report) pairs: launches back to back."""
        t = 0.0
        for r in self.launches:
            yield t, r
            t += r.time_us

    # ---- plot ----
    def plot(self, cores: int = 4, ax=None):
        """Draw the pipeline timeline with matplotlib: for the first
        ``cores`` cores, one lane per pipe that did work, each operation a
        bar; several launches are placed back to back, each labelled
        ``#i kernel`` above its span.  Returns the figure (a notebook shows it)."""
        import matplotlib.pyplot as plt

        used = sorted({(r.core_type, b.core) for _, r in self._spans() for b in r.per_block})[:max(1, cores)]
        lanes = []
        for kind, core in used:
            pipes = [p for p in PIPES if any(e.pipe == p and r.per_block[e.block].core == core
                                             and r.core_type == kind for _, r in self._spans() for e in r.events)]
            lanes += [(kind, core, p) for p in pipes]
        index = {lane: i for i, lane in enumerate(lanes)}
        if ax is None:
            fig, ax = plt.subplots(figsize=(10, 0.35 * max(len(lanes), 4) + 1.2))
        else:
            fig = ax.figure
        many = len(self.launches) > 1
        for i, (t0, r) in enumerate(self._spans()):
            bars: Dict[tuple, list] = {}
            for e in r.events:
                lane = (r.core_type, r.per_block[e.block].core, e.pipe)
                if lane in index:
                    bars.setdefault(lane, []).append((t0 + e.start_us, max(e.end_us - e.start_us, 1e-6)))
            for lane, xs in bars.items():
                ax.broken_barh(xs, (index[lane] - 0.4, 0.8), facecolors=_COLORS[lane[2]], edgecolor="white",
                              linewidth=0.5)
            if many:  # each launch labelled above its span: "#0 add_custom", "#1 ..."
                ax.axvline(t0, color="k", lw=0.5, ls=":")
                ax.text(t0 + r.time_us / 2, 1.0, f"#{i} {r.kernel}", transform=ax.get_xaxis_transform(),
                        ha="center", va="bottom", fontsize=8, clip_on=False)
        ax.set_yticks(range(len(lanes)))
        ax.set_yticklabels([f"core {c} {p}" for _, c, p in lanes])
        ax.invert_yaxis()
        ax.set_xlabel("estimated time (us)")
        names = ", ".join(sorted({r.kernel for r in self.launches}))
        roof = sum(r.roofline_us for r in self.launches)
        if roof > 0:
            ax.axvline(roof, color="r", lw=1, ls="--", label=f"roofline {roof:.2f} us")
            ax.legend(loc="lower right", fontsize="small")
        title = f"{names}: {self.time_us:.2f} us estimated ({', '.join(sorted({r.soc for r in self.launches}))})"
        dropped = sum(r.dropped_events for r in self.launches)
        if dropped:
            title += f"\n{dropped} events not drawn: " + "; ".join(r.dropped_text for r in self.launches
                                                                   if r.dropped_events)
        ax.set_title(title, fontsize="medium", pad=16 if many else 6)
        ax.set_xlim(0, max(self.time_us, 1e-3))
        fig.tight_layout()
        return fig

    # ---- trace ----
    def trace_events(self) -> list:
        """The Chrome trace events of :meth:`save_trace` (a list of dicts)."""
        ev = []
        pids = {}
        for t0, r in self._spans():
            for b in r.per_block:
                key = (r.core_type, b.core)
                if key not in pids:
                    pids[key] = len(pids)
                    ev.append({"name": "process_name", "ph": "M", "pid": pids[key], "tid": 0,
                               "args": {"name": f"{'AIC' if r.core_type == 'cube' else 'AIV'} core {b.core}"}})
                    for j, p in enumerate(PIPES):
                        ev.append({"name": "thread_name", "ph": "M", "pid": pids[key], "tid": j,
                                   "args": {"name": p.upper()}})
            for e in r.events:
                b = r.per_block[e.block]
                args = {"block": e.block, "bytes": e.bytes}
                if e.site:
                    args["source"] = e.site
                if e.assumed:
                    args["rate"] = "assumed"
                ev.append({"name": e.api.replace("AscendC::", ""), "cat": e.pipe, "ph": "X",
                           "ts": t0 + e.start_us, "dur": e.end_us - e.start_us, "pid": pids[(r.core_type, b.core)],
                           "tid": PIPES.index(e.pipe), "args": args})
            if r.dropped_events:  # say it where the timeline thins out
                t = min(d[2] for d in r.dropped_from) / r.clock_mhz if r.dropped_from else 0.0
                ev.append({"name": f"{r.dropped_events} events dropped", "ph": "i", "s": "g", "ts": t0 + t,
                           "pid": 0, "tid": 0, "args": {"dropped": r.dropped_text}})
        return ev

    def save_trace(self, path) -> None:
        """Write the timeline as a Chrome trace (open it in
        https://ui.perfetto.dev or chrome://tracing): one process per core,
        one thread per pipe, times in microseconds."""
        other = {"ascendrtc": "cost model estimate", "note": _NOTE,
                 "dropped_events": sum(r.dropped_events for r in self.launches)}
        if other["dropped_events"]:
            other["dropped"] = [r.dropped_text for r in self.launches if r.dropped_events]
        with open(path, "w") as f:
            json.dump({"traceEvents": self.trace_events(), "displayTimeUnit": "ns", "otherData": other}, f)


def profile(soc: Optional[str] = None) -> Profile:
    """A profiling session: launches queued inside ``with
    ascendrtc.profile() as prof:`` are priced by the simulated NPU's cost
    model, and ``prof`` is their report once the block ends (it waits for
    them).  ``soc`` prices them for another SoC of the family
    (``"Ascend910B1"``..``"Ascend910B4"``: core count and clock); by
    default the simulated device's.  Profiling changes no result and costs
    nothing outside a session."""
    return Profile(soc)
