"""A few threads over a list of work, results in order: what the command line needs of
concurrent.futures, which it does not import (a few ms of every run)."""
import threading

__all__ = ["map_in_threads"]


def map_in_threads(func, items, workers, on_error=None):
    """[func(item) for item in items] on up to `workers` threads, each taking the next item in
    order. Once an item fails (or the calling thread is interrupted, e.g. by Ctrl-C, while it
    waits) no further item starts, `on_error()` is called if given (to stop the running ones
    early), and when every thread has stopped the exception of the first failed item in order
    is raised (the interruption itself, if it came first)."""
    items = list(items)
    if workers <= 1 or len(items) <= 1:
        return [func(item) for item in items]
    results = [None] * len(items)
    errors = {}
    lock = threading.Lock()
    state = {"next": 0, "stop": False}

    def fail(i, err):
        with lock:
            errors[i] = err
            state["stop"] = True
        if on_error is not None:
            on_error()

    def work():
        while True:
            with lock:
                i = state["next"]
                if state["stop"] or i >= len(items):
                    return
                state["next"] = i + 1
            try:
                results[i] = func(items[i])
            except BaseException as err:  # noqa: BLE001 - handed to the calling thread
                fail(i, err)

    threads = [threading.Thread(target=work, name=f"cybleu-{k}")
               for k in range(min(workers, len(items)))]
    for thread in threads:
        thread.start()
    try:
        for thread in threads:
            thread.join()
    except BaseException as err:  # noqa: BLE001 - stops the workers, re-raised below
        fail(-1, err)
        for thread in threads:
            thread.join()
    if errors:
        raise errors[min(errors)]
    return results
