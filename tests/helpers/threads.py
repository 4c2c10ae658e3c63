"""Run test work on several threads at once."""
import threading


def run_in_threads(work, n):
    """Call work(i) for i in range(n), each on its own thread, all at once;
    fail in the calling thread if any of them raised (an exception in a
    thread would otherwise only be printed)."""
    errors = []

    def guarded(i):
        try:
            work(i)
        except BaseException as e:  # reported below, in the test's thread
            errors.append(e)

    threads = [threading.Thread(target=guarded, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
