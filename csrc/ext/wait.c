/* wait.c - waits that Ctrl-C can interrupt.  Python's SIGINT handler only
 * sets a flag that the interpreter checks between bytecodes, so a thread
 * blocked in a synchronize would ignore Ctrl-C until the kernel finished
 * (forever for a kernel that spins).  arc_sync waits in slices through
 * the simulated NPU's ascendrtc_sync_polled and runs the signal handlers
 * between them; when one raises, the runtime cancels the queued launches
 * as a launch timeout would end them, so the device stays usable.
 * arc_sync_event does the same for an event (ascendrtc_event_sync_polled).
 * A CANN home has no such exports: its synchronize cannot be interrupted. */
#include "arc_ext.h"

/* Often enough that Ctrl-C feels immediate; rare enough to cost nothing. */
#define ARC_POLL_MS 50

typedef struct poll_state {
    PyThreadState *ts;
} poll_state;

/* Between slices: take the GIL back, run the handlers, let it go again. */
static int poll_signals(void *arg)
{
    poll_state *p = arg;
    PyEval_RestoreThread(p->ts);
    int rc = PyErr_CheckSignals(); /* the exception stays set on this thread */
    p->ts = PyEval_SaveThread();
    return rc < 0;
}

int arc_sync(aclrtStream sh, int every)
{
    aclError err;
    if (arc_acl.ascendrtc_sync_polled) {
        poll_state p = {PyEval_SaveThread()};
        err = arc_acl.ascendrtc_sync_polled(sh, every, ARC_POLL_MS, poll_signals, &p);
        PyEval_RestoreThread(p.ts);
        return err;
    }
    Py_BEGIN_ALLOW_THREADS
    err = every ? arc_acl.aclrtSynchronizeDevice() : arc_acl.aclrtSynchronizeStream(sh);
    Py_END_ALLOW_THREADS
    return err;
}

int arc_sync_event(aclrtEvent ev)
{
    aclError err;
    if (arc_acl.ascendrtc_event_sync_polled) {
        poll_state p = {PyEval_SaveThread()};
        err = arc_acl.ascendrtc_event_sync_polled(ev, ARC_POLL_MS, poll_signals, &p);
        PyEval_RestoreThread(p.ts);
        return err;
    }
    Py_BEGIN_ALLOW_THREADS
    err = arc_acl.aclrtSynchronizeEvent(ev);
    Py_END_ALLOW_THREADS
    return err;
}

void arc_sync_quiet(aclrtStream sh, aclrtEvent ev)
{
    PyObject *t, *v, *tb;
    PyErr_Fetch(&t, &v, &tb);
    if ((ev ? arc_sync_event(ev) : arc_sync(sh, 0)) == (aclError)-1)
        arc_defer_error();
    PyErr_Restore(t, v, tb);
}
