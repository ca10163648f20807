#!/usr/bin/env python3
"""Counts, with nothing of fencescope and without Google's protobuf module, what an XSpace
profile (.xplane.pb) holds per device stream. Its own wire decoder reads the raw bytes with the
field numbers of the TSL profiler's xplane.proto. Prints "key<TAB>N" lines:
  device_planes                   planes named /device:...
  streams                         their `Stream #N(...)` lines (lines with one id are one stream)
  stream P S packets              events of stream S (its line name) of device plane P, aggregates
                                  (num_occurrences) left out
  stream P S busy_ns              the union of those events' [start, end) intervals
  packets                         all of them
  packets_with_correlation        those with a correlation_id stat
  packets_linked                  those whose correlation_id a host (non-device) event carries
  host_threads                    distinct line ids of the non-device planes that have lines
  host_slices                     the events of those lines, aggregates left out
  aggregate_events                events with num_occurrences, every plane
Times: start = line base + floor(offset_ps / 1000), end = line base + floor((offset_ps +
duration_ps) / 1000), in ns; line base = timestamp_ns, plus the Task Environment plane's
profile_start_time where timestamp_ns is below it (the profiler took it off)."""
import collections
import struct
import sys


def varint(b, i):
    result, shift = 0, 0
    while True:
        c = b[i]
        i += 1
        result |= (c & 0x7F) << shift
        shift += 7
        if c < 0x80:
            return result, i


def fields(b):
    """(number, value) pairs: ints for varints and fixed values, bytes for length-delimited."""
    i, out = 0, []
    while i < len(b):
        key, i = varint(b, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, i = varint(b, i)
        elif wire == 1:
            value = struct.unpack_from('<Q', b, i)[0]
            i += 8
        elif wire == 5:
            value = struct.unpack_from('<I', b, i)[0]
            i += 4
        elif wire == 2:
            n, i = varint(b, i)
            value = bytes(b[i:i + n])
            i += n
        else:
            raise ValueError('wire type %d' % wire)
        out.append((number, value))
    return out


def signed(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def by_number(msg):
    d = collections.defaultdict(list)
    for n, v in fields(msg):
        d[n].append(v)
    return d


def stat_names(plane):
    names = {}
    for entry in plane[5]:  # stat_metadata map
        e = by_number(entry)
        value = by_number(e[2][0]) if e[2] else {}
        names[signed(e[1][0]) if e[1] else 0] = value.get(2, [b''])[-1].decode()
    return names


def stat_int(stat):
    for n in (3, 4, 7):
        if stat.get(n):
            return signed(stat[n][-1])
    return None


def main(path):
    data = open(path, 'rb').read()
    space = by_number(data)
    planes = [by_number(p) for p in space[1]]
    start = None
    for p in planes:
        if p[2] and p[2][-1] == b'Task Environment':
            names = stat_names(p)
            for s in p[6]:
                s = by_number(s)
                if names.get(signed(s[1][0])) == 'profile_start_time':
                    start = stat_int(s)
    out = collections.Counter()
    busy = {}
    packets = collections.defaultdict(list)  # (plane, stream) -> [(start, end)]
    correlations = []
    host_correlations = set()
    host_threads = set()
    for p in planes:
        name = p[2][-1].decode() if p[2] else ''
        names = stat_names(p)
        device = name.startswith('/device:')
        out['device_planes'] += device
        for line_bytes in p[3]:
            line = by_number(line_bytes)
            line_name = line[2][-1].decode() if line[2] else ''
            line_id = signed(line[1][-1]) if line[1] else 0
            base = signed(line[3][-1]) if line[3] else 0
            if start is not None and base < start:
                base += start
            stream = device and line_name.startswith('Stream #')
            if not device:
                host_threads.add((name, line_id))
            for ev_bytes in line[4]:
                ev = fields(ev_bytes)
                offset = duration = 0
                aggregate = False
                corr = None
                for n, v in ev:
                    if n == 2:
                        offset, aggregate = signed(v), False
                    elif n == 5:
                        aggregate = True
                    elif n == 3:
                        duration = signed(v)
                    elif n == 4:
                        s = by_number(v)
                        if names.get(signed(s[1][0]) if s[1] else 0) == 'correlation_id':
                            corr = stat_int(s)
                if aggregate:
                    out['aggregate_events'] += 1
                    continue
                t0 = base + offset // 1000
                t1 = base + (offset + duration) // 1000
                if stream:
                    packets[(name, line_id, line_name)].append((t0, t1))
                    if corr is not None:
                        correlations.append(corr)
                elif not device:
                    out['host_slices'] += 1
                    if corr is not None:
                        host_correlations.add(corr)
    streams = {}
    for (plane, line_id, line_name), spans in packets.items():
        key = (plane, line_id)
        streams.setdefault(key, (line_name, []))[1].extend(spans)
    for (plane, _), (line_name, spans) in streams.items():
        spans.sort()
        total, end = 0, None
        for a, b in spans:
            if end is None or a >= end:
                total += b - a
                end = b
            elif b > end:
                total += b - end
                end = b
        out['stream %s %s packets' % (plane, line_name)] = len(spans)
        out['stream %s %s busy_ns' % (plane, line_name)] = total
        out['packets'] += len(spans)
    out['streams'] = len(streams)
    out['packets_with_correlation'] = len(correlations)
    out['packets_linked'] = sum(1 for c in correlations if c in host_correlations)
    out['host_threads'] = len(host_threads)
    for k in sorted(out):
        print('%s\t%d' % (k, out[k]))


if __name__ == '__main__':
    main(sys.argv[1])
