#!/usr/bin/env python3
"""Writes a PyTorch profiler (Kineto) trace of the shape a current CUDA stack produces, together
with the truth about it, for the CUDA import tests and `fencescope bench import`.

The trace is made by running a small model of a CUDA program: host threads (one per device)
issue kernel launches, event records, stream waits and synchronisations; each stream runs its
work in launch order; a stream wait holds its stream until the waited record has executed (all
work launched on the recorded stream before the record has completed). What the file says is
what current CUPTI writes (PyTorch 2.x, CUDA 13, CUPTI 13):

  * cuda_sync "Stream Wait Event" / "Event Sync" / "Stream Sync" / "Context Sync" events carry
    wait_on_cuda_event_id, stream, device and correlation, but wait_on_cuda_event_record_corr_id
    and wait_on_stream are -1 (--legacy-links writes them, as older Kineto did);
  * event records are cudaEventRecordWithFlags (cbid 370) or cudaEventRecord (cbid 135) calls
    with only a correlation id;
  * ac2g flows link runtime launches to kernels; a cudaGraphLaunch launches several kernels that
    share its correlation id; with --overlap, some kernels start before the previous kernel of
    their stream has ended (programmatic dependent launch).

The truth (--truth FILE) is JSON written from the model, never from fencescope:
  counts:  kernels, records, stream_waits, event_syncs, stream_syncs, context_syncs
  waits:   one per "Stream Wait Event": correlation of its cudaStreamWaitEvent call, device,
           stream, event id, correlation, call time and stream of the record it waits for, the
           name and correlation of the kernel whose completion executed that record (null when
           the recorded stream had nothing running), and held_ns: how long the wait held its
           stream (negative: it held nothing, the record had executed before it mattered)
  syncs:   one per CPU sync: kind, correlation, host tid, held_ns (how long it waited for its
           work), the releasing kernel likewise and, for Event Syncs, the record
Times in the truth (call_ns, executed_ns, kernel_end_ns) are ns from baseTimeNanoseconds.

usage: make_cuda_trace.py OUT.json [--truth T.json] [--seed N] [--devices N] [--iterations N]
                          [--min-mb MB] [--overlap] [--legacy-links]
                          [--shape throttle|frame_graph|ring_buffer [--kernel-us US]
                           [--reuse-events]]
"""
import argparse
import json
import random

HOST_PID = 4242
STREAMS = (7, 13, 17)  # per device: compute, side, communication
RUNTIME_CBID = {"cudaLaunchKernel": 211, "cudaEventRecord": 135, "cudaEventRecordWithFlags": 370,
                "cudaStreamWaitEvent": 147, "cudaStreamSynchronize": 131,
                "cudaEventSynchronize": 133, "cudaDeviceSynchronize": 165,
                "cudaGraphLaunch": 311, "cudaLaunchKernelExC": 430}
KERNELS = ("ampere_sgemm_128x64_nn", "void at::native::vectorized_elementwise_kernel<4>",
           "void at::native::reduce_kernel<512, 1>", "flash_fwd_kernel",
           "ncclDevKernel_AllReduce_Sum_f32_RING_LL")


class Model:
    def __init__(self, args):
        self.rng = random.Random(args.seed)
        self.args = args
        self.events = []
        self.truth = {"counts": {k: 0 for k in ("kernels", "records", "stream_waits", "event_syncs",
                                                "stream_syncs", "context_syncs")},
                      "waits": [], "syncs": []}
        self.corr = 1000
        self.stream_free = {}   # (device, stream) -> when its launched work has completed
        self.last_kernel = {}   # (device, stream) -> (name, correlation) of the last launched
        self.record_info = {}   # (device, event id) -> its latest record
        self.wait_floor = {}    # (device, stream) -> release of the stream's latest wait
        self.written = 0

    def emit(self, e):
        self.events.append(e)

    @staticmethod
    def us(ns):
        return round(ns / 1000.0, 3)

    def runtime(self, tid, name, t, dur):
        self.corr += 1
        c = self.corr
        self.emit({"ph": "X", "cat": "cuda_runtime", "name": name, "pid": HOST_PID, "tid": tid,
                   "ts": self.us(t), "dur": self.us(dur),
                   "args": {"External id": c, "cbid": RUNTIME_CBID[name], "correlation": c}})
        return c

    def kernel(self, device, stream, name, corr, start, dur, flow_from=None):
        self.emit({"ph": "X", "cat": "kernel", "name": name, "pid": device, "tid": stream,
                   "ts": self.us(start), "dur": self.us(dur),
                   "args": {"External id": corr, "device": device, "stream": stream,
                            "correlation": corr, "registers per thread": 32,
                            "grid": [128, 1, 1], "block": [256, 1, 1]}})
        if flow_from is not None:
            tid, t = flow_from
            self.emit({"ph": "f", "id": corr, "pid": device, "tid": stream, "ts": self.us(start),
                       "cat": "ac2g", "name": "ac2g", "bp": "e"})
        self.truth["counts"]["kernels"] += 1
        self.last_kernel[(device, stream)] = (name, corr, start, start + dur)

    def flow_start(self, tid, t, corr):
        self.emit({"ph": "s", "id": corr, "pid": HOST_PID, "tid": tid, "ts": self.us(t),
                   "cat": "ac2g", "name": "ac2g"})

    def launch(self, device, tid, t, stream, name=None, graph=0, dur_ns=None):
        """A launch call at host time t; returns the host time after the call. dur_ns: the
        kernel's (lo, hi) run time range in ns (default 20-200 us)."""
        call_dur = self.rng.randint(3000, 9000)
        api = "cudaGraphLaunch" if graph else self.rng.choice(("cudaLaunchKernel",
                                                               "cudaLaunchKernelExC"))
        corr = self.runtime(tid, api, t, call_dur)
        self.flow_start(tid, t, corr)
        key = (device, stream)
        for i in range(max(1, graph)):
            dur = self.rng.randint(*(dur_ns or (20000, 200000)))
            start = max(t + call_dur + 4000, self.stream_free.get(key, 0))
            if self.args.overlap and self.rng.random() < 0.25 and key in self.stream_free:
                # Programmatic dependent launch: starts a little before the previous one ends.
                start = max(t + call_dur + 4000, self.stream_free[key] - 5000,
                            self.wait_floor.get(key, 0))
            kname = name or self.rng.choice(KERNELS[:4])
            if graph:
                kname = f"graph_node_{i}_{kname}"
            self.kernel(device, stream, kname, corr, start, dur, flow_from=(tid, t))
            self.stream_free[key] = max(self.stream_free.get(key, 0), start + dur)
        return t + call_dur + self.rng.randint(1000, 4000)

    def releasing(self, device, stream):
        k = self.last_kernel.get((device, stream))
        if not k:
            return {"kernel": None, "kernel_correlation": None, "kernel_end_ns": None}
        return {"kernel": k[0], "kernel_correlation": k[1], "kernel_end_ns": k[3]}

    def record(self, device, tid, t, stream, event):
        name = self.rng.choice(("cudaEventRecord", "cudaEventRecordWithFlags"))
        dur = self.rng.randint(2000, 5000)
        corr = self.runtime(tid, name, t, dur)
        executed = max(t, self.stream_free.get((device, stream), 0))
        info = {"record_correlation": corr, "record_stream": stream, "executed_ns": executed,
                "record_call_ns": t}
        info.update(self.releasing(device, stream))
        self.record_info[(device, event)] = info
        self.truth["counts"]["records"] += 1
        return t + dur + 1000

    def sync_event(self, device, stream, name, t, dur, corr, event=-1):
        a = self.args
        args = {"cuda_sync_kind": name, "wait_on_stream": -1,
                "wait_on_cuda_event_record_corr_id": -1, "wait_on_cuda_event_id": event,
                "stream": stream, "correlation": corr, "device": device, "context": 1}
        if a.legacy_links and event >= 0 and (device, event) in self.record_info:
            r = self.record_info[(device, event)]
            args["wait_on_stream"] = r["record_stream"]
            args["wait_on_cuda_event_record_corr_id"] = r["record_correlation"]
        self.emit({"ph": "X", "cat": "cuda_sync", "name": name, "pid": device, "tid": stream,
                   "ts": self.us(t), "dur": self.us(dur), "args": args})

    def stream_wait(self, device, tid, t, stream, event):
        dur = self.rng.randint(1500, 3000)
        corr = self.runtime(tid, "cudaStreamWaitEvent", t, dur)
        self.sync_event(device, stream, "Stream Wait Event", t + 500, 1000, corr, event)
        r = self.record_info[(device, event)]
        key = (device, stream)
        # How long the wait held its stream: past the end of the stream's earlier work and of
        # the call (negative: the record had executed by then, the wait held nothing).
        held_ns = r["executed_ns"] - max(self.stream_free.get(key, 0), t + dur)
        self.stream_free[key] = max(self.stream_free.get(key, 0), r["executed_ns"])
        self.wait_floor[key] = self.stream_free[key]
        w = {"correlation": corr, "call_ns": t, "device": device, "stream": stream,
             "event": event, "held_ns": held_ns}
        w.update(r)
        self.truth["waits"].append(w)
        self.truth["counts"]["stream_waits"] += 1
        return t + dur + 1000

    def cpu_sync(self, device, tid, t, kind, stream=-1, event=-1):
        api = {"Stream Sync": "cudaStreamSynchronize", "Event Sync": "cudaEventSynchronize",
               "Context Sync": "cudaDeviceSynchronize"}[kind]
        if kind == "Stream Sync":
            until = self.stream_free.get((device, stream), t)
            rel = self.releasing(device, stream)
        elif kind == "Event Sync":
            r = self.record_info[(device, event)]
            until = r["executed_ns"]
            rel = {k: r[k] for k in ("kernel", "kernel_correlation", "kernel_end_ns",
                                     "record_correlation", "record_call_ns")}
        else:
            last = max(STREAMS, key=lambda s: self.stream_free.get((device, s), 0))
            until = self.stream_free.get((device, last), t)
            rel = self.releasing(device, last)
        end = max(t + 3000, until + 2000)
        self.corr += 1
        corr = self.corr
        self.emit({"ph": "X", "cat": "cuda_runtime", "name": api, "pid": HOST_PID, "tid": tid,
                   "ts": self.us(t), "dur": self.us(end - t),
                   "args": {"External id": corr, "cbid": RUNTIME_CBID[api], "correlation": corr}})
        self.sync_event(device, stream if kind == "Stream Sync" else -1, kind, t + 500,
                        end - t - 1000, corr, event)
        s = {"kind": kind, "correlation": corr, "call_ns": t, "tid": tid, "device": device,
             "held_ns": until - t}
        s.update(rel)
        self.truth["syncs"].append(s)
        self.truth["counts"][{"Stream Sync": "stream_syncs", "Event Sync": "event_syncs",
                              "Context Sync": "context_syncs"}[kind]] += 1
        return end + 1000

    def iteration(self, device, tid, t, i):
        main, side, comm = STREAMS
        ev_fwd, ev_back, ev_comm = 100 * device + 1, 100 * device + 2, 100 * device + 3
        for _ in range(self.rng.randint(2, 5)):
            t = self.launch(device, tid, t, main)
        t = self.record(device, tid, t, main, ev_fwd)
        t = self.stream_wait(device, tid, t, side, ev_fwd)
        for _ in range(self.rng.randint(1, 3)):
            t = self.launch(device, tid, t, side)
        t = self.record(device, tid, t, side, ev_back)
        t = self.stream_wait(device, tid, t, main, ev_back)
        if i % 3 == 1:
            t = self.launch(device, tid, t, main, graph=3)
        t = self.launch(device, tid, t, comm, name=KERNELS[4])
        t = self.record(device, tid, t, comm, ev_comm)
        t = self.stream_wait(device, tid, t, main, ev_comm)
        t = self.launch(device, tid, t, main)
        if i % 4 == 3:
            t = self.cpu_sync(device, tid, t, "Stream Sync", stream=side)
        if i % 5 == 4:
            t = self.cpu_sync(device, tid, t, "Event Sync", event=ev_comm)
        return t

    def run(self, out):
        a = self.args
        for d in range(a.devices):
            self.emit({"ph": "M", "name": "process_name", "pid": d, "tid": 0,
                       "args": {"name": "python"}})
            self.emit({"ph": "M", "name": "process_labels", "pid": d, "tid": 0,
                       "args": {"labels": f"GPU {d}"}})
            for s in STREAMS:
                self.emit({"ph": "M", "name": "thread_name", "pid": d, "tid": s,
                           "args": {"name": f"stream {s} "}})
        self.emit({"ph": "M", "name": "process_name", "pid": HOST_PID, "tid": 0,
                   "args": {"name": "python3"}})
        out.write('{"schemaVersion": 1, "cupti_version": 26, "cuda_runtime_version": 13000,\n'
                  ' "cuda_driver_version": 13000, "baseTimeNanoseconds": 1700000000000000000,\n'
                  ' "traceEvents": [\n')
        first = True
        if a.shape != "mixed":
            # One host thread and device 0 running a torch_streams-like program.
            import cuda_program_shapes
            cuda_program_shapes.SHAPES[a.shape](self, 5000, 10000)
            for e in self.events:
                out.write(("" if first else ",\n") + json.dumps(e))
                first = False
            out.write("\n]}\n")
            return
        clock = {d: 10000 * (d + 1) for d in range(a.devices)}
        i = 0
        while True:
            for d in range(a.devices):
                clock[d] = self.iteration(d, 5000 + d, clock[d], i)
            i += 1
            done = i >= a.iterations and (a.min_mb <= 0 or self.written >= a.min_mb * 1e6)
            if done:
                for d in range(a.devices):
                    clock[d] = self.cpu_sync(d, 5000 + d, clock[d], "Context Sync")
            for e in self.events:
                text = ("" if first else ",\n") + json.dumps(e)
                out.write(text)
                self.written += len(text)
                first = False
            self.events = []
            if done:
                break
        out.write("\n]}\n")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("--truth")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--devices", type=int, default=1)
    p.add_argument("--iterations", type=int, default=10)
    p.add_argument("--min-mb", type=float, default=0)
    p.add_argument("--overlap", action="store_true")
    p.add_argument("--legacy-links", action="store_true")
    p.add_argument("--shape", default="mixed",
                   choices=("mixed", "throttle", "frame_graph", "ring_buffer"),
                   help="mixed: the training-like iterations above; the others: the programs of "
                        "cuda_program_shapes.py")
    p.add_argument("--kernel-us", type=int, default=300,
                   help="--shape programs: mean kernel run time in us (host steps take ~10 us)")
    p.add_argument("--reuse-events", action="store_true",
                   help="--shape programs: CUDA event ids come back from a small pool (as the "
                        "driver reuses them for new events), not one new id per event")
    args = p.parse_args()
    model = Model(args)
    with open(args.out, "w") as out:
        model.run(out)
    if args.truth:
        with open(args.truth, "w") as f:
            json.dump(model.truth, f)


if __name__ == "__main__":
    main()
