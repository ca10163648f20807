#!/usr/bin/env python3
"""Writes small XSpace profiles (.xplane.pb) by hand, with an encoder of its own (no protobuf
library), for what the real capture lacks. `make_xspace.py SHAPE OUT [HOST]`; prints
"key<TAB>N" lines a test needs that only the writer knows (byte offsets of what it planted).
With `--trace-json OUT.json`, also the Chrome JSON the XLA profiler writes of the same profile.

Shapes:
  launches        host hostA (or HOST): a python thread that launches two kernels and one
                  memcpy (correlation ids 11, 12, 13) in two steps (group_id 1, 2); an
                  aggregate (num_occurrences) on a host thread and on the kernel stream;
                  /device:GPU:0 with Stream #7(Compute) (kernels 11, 13 and 99, which no host
                  event launched), Stream #8(MemcpyH2D) (memcpy 12), XLA Modules and XLA Ops
                  lines; a Task Environment plane with profile_start_time (the lines' timestamps
                  are normalised to it). HOST shifts every time by 1 ms per letter after 'A'.
  unknown_metadata  one kernel whose metadata_id names nothing (prints its byte offset)
  bad_length      a stat whose string claims more bytes than its message holds (prints the
                  offset of that field)
  other_message   another protobuf message that begins like an XSpace, its third plane field a
                  varint where XPlane has lines (prints the offset of that field)
  not_xspace      another protobuf message, plainly not an XSpace
  brace           a first plane (/host:metadata, no lines) exactly 123 bytes long, so that the
                  file begins with a newline and '{' as JSON would, then the launches shape's
                  planes
  step_markers    the launches shape with two step markers as jax.profiler.StepTraceAnnotation
                  writes them ("train", stat step_num 5 at 0-30 us and 6 at 60-90 us), which
                  count before the group_ids
"""
import json
import struct
import sys

PROFILE_START = 1_700_000_000_000_000_000


def varint(n):
    n &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def f_int(number, value):
    return varint(number << 3) + varint(value)


def f_len(number, data):
    if isinstance(data, str):
        data = data.encode()
    return varint(number << 3 | 2) + varint(len(data)) + data


def f_double(number, value):
    return varint(number << 3 | 1) + struct.pack('<d', value)


class Plane:
    def __init__(self, name, plane_id=0):
        self.name, self.id = name, plane_id
        self.stat_ids, self.event_ids = {}, {}
        self.lines, self.stats = [], []
        self.described = {}  # an encoded event -> what it says, for the trace JSON
        self.line_events = []  # (line id, name, timestamp_ns, [encoded events])

    def stat_id(self, name):
        return self.stat_ids.setdefault(name, len(self.stat_ids) + 1)

    def event_id(self, name):
        return self.event_ids.setdefault(name, len(self.event_ids) + 1)

    def stat(self, name, value):
        body = f_int(1, self.stat_id(name))
        if isinstance(value, str):
            body += f_len(5, value)
        elif isinstance(value, float):
            body += f_double(2, value)
        else:
            body += f_int(3, value)
        return body

    def event(self, name, offset_ps=None, duration_ps=0, stats=(), occurrences=None, raw_stat=b''):
        body = self._event(name, offset_ps, duration_ps, stats, occurrences, raw_stat)
        self.described[body] = (name, offset_ps, duration_ps, stats, occurrences)
        return body

    def _event(self, name, offset_ps, duration_ps, stats, occurrences, raw_stat):
        body = f_int(1, self.event_ids[name] if isinstance(name, str) and name in self.event_ids
                     else self.event_id(name) if isinstance(name, str) else name)
        if occurrences is not None:
            body += f_int(5, occurrences)
        else:
            body += f_int(2, offset_ps)
        body += f_int(3, duration_ps)
        for k, v in stats:
            body += f_len(4, self.stat(k, v))
        if raw_stat:
            body += f_len(4, raw_stat)
        return body

    def line(self, line_id, name, timestamp_ns, events):
        self.line_events.append((line_id, name, timestamp_ns, events))
        body = f_int(1, line_id) + f_len(2, name) + f_int(3, timestamp_ns)
        for e in events:
            body += f_len(4, e)
        self.lines.append(body)

    def encode(self):
        body = (f_int(1, self.id) if self.id else b'') + f_len(2, self.name)
        for l in self.lines:
            body += f_len(3, l)
        for name, i in self.event_ids.items():
            body += f_len(4, f_int(1, i) + f_len(2, f_int(1, i) + f_len(2, name)))
        for name, i in self.stat_ids.items():
            body += f_len(5, f_int(1, i) + f_len(2, f_int(1, i) + f_len(2, name)))
        for s in self.stats:
            body += f_len(6, s)
        return body


def trace_json(planes):
    """The Chrome JSON the XLA profiler writes beside the XSpace (TensorBoard's trace.json): a
    process per plane with lines (named by process_name metadata), a thread per line, each event
    with an offset an X event (ts and dur in microseconds, every stat an argument as a string),
    aggregates (num_occurrences) left out, and the empty object the profiler ends the list with."""
    events = []
    for pid, plane in enumerate(planes, start=1):
        if not plane.line_events:
            continue
        events.append({"ph": "M", "pid": pid, "name": "process_name", "args": {"name": plane.name}})
        for line_id, line_name, timestamp_ns, encoded in plane.line_events:
            events.append({"ph": "M", "pid": pid, "tid": line_id, "name": "thread_name",
                           "args": {"name": line_name}})
            for body in encoded:
                if body not in plane.described:
                    continue
                name, offset_ps, duration_ps, stats, occurrences = plane.described[body]
                if occurrences is not None or not isinstance(name, str):
                    continue
                events.append({"ph": "X", "pid": pid, "tid": line_id, "name": name,
                               "ts": (timestamp_ns * 1000 + offset_ps) / 1e6,
                               "dur": duration_ps / 1e6,
                               "args": {k: str(v) for k, v in stats}})
    text = json.dumps({"displayTimeUnit": "ns", "metadata": {"highres-ticks": True},
                       "traceEvents": events})
    return text[:-2] + ",{}]}"


def space(planes, hostnames=()):
    out = b''.join(f_len(1, p.encode()) for p in planes)
    for h in hostnames:
        out += f_len(4, h)
    return out


US = 1_000_000  # picoseconds


def launches(host='hostA', unknown=False, bad_length=False, step_markers=False):
    shift_ns = (ord(host[-1]) - ord('A')) * 1_000_000 if host[-1].isupper() else 0
    ts = 1000 + shift_ns  # every line's timestamp_ns, normalised (below PROFILE_START)
    cpu = Plane('/host:CPU')
    cpu.line(100, 'python', ts, [
        cpu.event('train_step', 0, 50 * US, [('group_id', 1)]),
        cpu.event('cudaLaunchKernel', 1 * US, 2 * US, [('correlation_id', 11), ('group_id', 1)]),
        cpu.event('cudaMemcpyAsync', 4 * US, 1 * US, [('correlation_id', 12), ('group_id', 1)]),
        cpu.event('train_step', 60 * US, 40 * US, [('group_id', 2)]),
        cpu.event('cudaLaunchKernel', 61 * US, 2 * US, [('correlation_id', 13), ('group_id', 2)]),
    ])
    if step_markers:
        cpu.line(102, 'main', ts, [cpu.event('train', 0, 30 * US, [('step_num', 5)]),
                                   cpu.event('train', 60 * US, 30 * US, [('step_num', 6)])])
    cpu.line(101, 'Host Threads/101', ts, [cpu.event('cudaLaunchKernel', occurrences=7, duration_ps=9 * US)])
    gpu = Plane('/device:GPU:0', 0)
    gpu.stats.append(gpu.stat('device_vendor', 'NVIDIA'))
    gpu.stats.append(gpu.stat('clock_rate', 1980000))
    kernel_events = [
        gpu.event('gemm_kernel', 5 * US, 10 * US, [('correlation_id', 11), ('group_id', 1)]),
        gpu.event('gemm_kernel', 65 * US, 10 * US, [('correlation_id', 13), ('group_id', 2)]),
        gpu.event('gemm_kernel', 80 * US, 1 * US, [('correlation_id', 99)]),
        gpu.event('gemm_kernel', occurrences=3, duration_ps=5 * US),
    ]
    if unknown:
        kernel_events.append(gpu.event(42, 90 * US, 1 * US))
    if bad_length:
        # metadata_id 1, then str_value (field 5) claiming 100 bytes where 3 follow
        kernel_events.append(gpu.event('gemm_kernel', 95 * US, 1 * US, raw_stat=b'\x08\x01\x2a\x64XYZ'))
    gpu.line(7, 'Stream #7(Compute)', ts, kernel_events)
    gpu.line(8, 'Stream #8(MemcpyH2D)', ts, [
        gpu.event('MemcpyH2D', 6 * US, 3 * US,
                  [('correlation_id', 12), ('group_id', 1), ('memcpy_details', 'kind:HtoD size:4096')]),
    ])
    gpu.line(0xFFFF, 'XLA Modules', ts, [gpu.event('jit_step', 5 * US, 12 * US)])
    gpu.line(0xFFFE, 'XLA Ops', ts, [gpu.event('fusion.1', 5 * US, 10 * US)])
    env = Plane('Task Environment')
    env.stats.append(env.stat('profile_start_time', PROFILE_START))
    env.stats.append(env.stat('profile_stop_time', PROFILE_START + 10_000_000))
    return space([cpu, gpu, env], [host]), [cpu, gpu, env]


def main():
    args = sys.argv[1:]
    json_out = None
    if '--trace-json' in args:
        at = args.index('--trace-json')
        json_out = args[at + 1]
        del args[at:at + 2]
    shape, out = args[0], args[1]
    host = args[2] if len(args) > 2 else 'hostA'
    facts = {}
    planes = []
    if shape == 'launches':
        data, planes = launches(host)
    elif shape == 'unknown_metadata':
        data, planes = launches(host, unknown=True)
        # The planted event: its metadata_id field (08 2a) right after the event's tag and length.
        marker = f_int(1, 42) + f_int(2, 90 * US)
        facts['event_offset'] = data.find(marker) - 2
    elif shape == 'bad_length':
        data, planes = launches(host, bad_length=True)
        facts['field_offset'] = data.find(b'\x2a\x64XYZ')
    elif shape == 'other_message':
        data = f_len(1, f_int(1, 4) + f_len(2, 'serving_default') + f_int(3, 7))
        facts['field_offset'] = data.find(f_int(3, 7))
    elif shape == 'brace':
        meta = Plane('/host:metadata')
        meta.name += ' ' * (123 - len(meta.encode()))
        assert len(meta.encode()) == 123
        data = f_len(1, meta.encode()) + launches(host)[0]
        assert data[:2] == b'\n{'
    elif shape == 'step_markers':
        data, planes = launches(host, step_markers=True)
    elif shape == 'not_xspace':
        data = f_len(1, 'hello protobuf') + f_int(2, 150)
    else:
        sys.exit('unknown shape ' + shape)
    with open(out, 'wb') as f:
        f.write(data)
    if json_out:
        with open(json_out, 'w') as f:
            f.write(trace_json(planes))
    facts['bytes'] = len(data)
    for k, v in facts.items():
        print('%s\t%d' % (k, v))


if __name__ == '__main__':
    main()
