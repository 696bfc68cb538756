"""Instructions per call of the compiled core's main paths, counted by valgrind's callgrind.

    python tools/callgrind_calls.py            # every workload, a table of M instructions per call
    python tools/callgrind_calls.py corpus ids # the workloads whose names contain these words

Each workload runs in its own process twice under callgrind, with 1 and with 1 + REPEAT calls after
one warm-up call and with the garbage collector off; the difference divided by REPEAT is the cost
of one call, free of start-up and import costs. Instruction counts do not depend on the machine's load, so two builds (before and
after a change that should cost nothing, such as moving modules) compare to a few tenths of a
percent. Inputs: the bundled WMT17 sample (500 lines), so no external data is needed.
"""
import os
import re
import subprocess
import sys
import tempfile

REPEAT = 10

SETUP = r'''
import os, numpy as np, cybleu
from cybleu import ids
assert cybleu.BACKEND == "cython", cybleu.BACKEND
data = os.path.join(os.path.dirname(cybleu.__file__), "data")
read = lambda name: open(os.path.join(data, "wmt17-en-de." + name + ".txt"), encoding="utf-8").read().split("\n")[:-1]
hyps, refs = read("KIT"), [read("ref")]
rng = np.random.default_rng(0)
id_hyps = rng.integers(1, 2000, size=(256, 128), dtype=np.uint32)
id_refs = rng.integers(1, 2000, size=(256, 128), dtype=np.uint32)
id_lists = id_hyps.tolist()
'''

WORKLOADS = {  # the main paths, each on its own (a name on the command line picks some)
    "corpus_bleu (500 lines)": "cybleu.corpus_bleu(hyps, refs)",
    "batch_sentence_bleu (500)": "cybleu.batch_sentence_bleu(hyps, refs)",
    "corpus_chrf (500)": "cybleu.corpus_chrf(hyps, refs)",
    "corpus_ter (500)": "cybleu.corpus_ter(hyps, refs)",
    "ids.sentence_bleu 256x128 array": "ids.sentence_bleu(id_hyps, id_refs)",
    "ids.sentence_bleu 256x128 lists": "ids.sentence_bleu(id_lists, id_refs)",
    "ids.pairwise_bleu 256x128": "ids.pairwise_bleu(id_hyps)",
}


def instructions(call, n):
    # the collector off for the counted calls: a collection lands in whichever run crosses its
    # threshold, which would add millions of instructions to one side of the difference
    script = SETUP + f"\n{call}\nimport gc\ngc.collect()\ngc.disable()\n" + \
        f"for _ in range({n}):\n    {call}\n"
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        # setarch -R: no address randomization, so identity hashes and allocation patterns repeat
        run = subprocess.run(["setarch", os.uname().machine, "-R",
                              "valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                              sys.executable, "-c", script],
                             capture_output=True, text=True,
                             env={**os.environ, "CYBLEU_IMPLEMENTATION": "cython",
                                  "PYTHONHASHSEED": "0"})
        if run.returncode != 0:
            raise SystemExit(f"{call}: exit {run.returncode}\n{run.stderr[-2000:]}")
        return int(re.search(r"Collected : (\d+)", run.stderr)[1])


def main():
    chosen = [w for w in WORKLOADS if not sys.argv[1:] or any(a in w for a in sys.argv[1:])]
    print(f"{'workload':34} {'M instructions per call':>24}")
    for name in chosen:
        call = WORKLOADS[name]
        per_call = (instructions(call, 1 + REPEAT) - instructions(call, 1)) / REPEAT
        print(f"{name:34} {per_call / 1e6:24.2f}", flush=True)


if __name__ == "__main__":
    main()
