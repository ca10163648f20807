#!/usr/bin/env python3
"""Counts over the raw bytes of an ETW .etl file (or the .zip holding one), written apart from the
C++ importer so that the external ETL tests compare against figures derived independently.

Usage: etl_counts.py FILE.etl|FILE.zip   -> prints one JSON object of counts.

Layout followed (shared/guide/trace-formats.md section 2): fixed-size buffers, each starting with a
0x48-byte WMI_BUFFER_HEADER whose u32 at 0x00 is the buffer size and u32 at 0x30 the bytes in use;
8-byte aligned records from 0x48; byte 2 of a record is its header type (0x01/0x02 system trace
header with u16 size at +4, 0x12/0x13 EVENT_HEADER with u16 size at +0).
"""
import collections
import json
import struct
import sys
import zipfile

DXG = "802ec45a-1e99-4b83-9920-87c98277ba9d"


def guid_text(b):
    d1, d2, d3 = struct.unpack_from("<IHH", b, 0)
    r = b[8:16].hex()
    return f"{d1:08x}-{d2:04x}-{d3:04x}-{r[:4]}-{r[4:]}"


def load(path):
    if path.endswith(".zip"):
        with zipfile.ZipFile(path) as z:
            name = [n for n in z.namelist() if n.lower().endswith(".etl")][0]
            return z.read(name)
    with open(path, "rb") as f:
        return f.read()


def main():
    data = load(sys.argv[1])
    out = collections.OrderedDict()
    header_types = collections.Counter()
    per_event = collections.Counter()   # "provider/id/version"
    sizes = collections.defaultdict(set)
    dxg = []  # (ts, id, version, payload)
    buffers = 0
    pos = 0
    perf_freq = None
    while pos + 0x48 <= len(data):
        size, = struct.unpack_from("<I", data, pos)
        used, = struct.unpack_from("<I", data, pos + 0x30)
        buffers += 1
        off = 0x48
        while off + 4 <= used:
            rec = pos + off
            htype = data[rec + 2]
            header_types[htype] += 1
            if htype in (0x01, 0x02):
                rsize, = struct.unpack_from("<H", data, rec + 4)
                hdr = 32 if htype == 0x01 else 40  # 32-bit / 64-bit system trace header
                if perf_freq is None:
                    lf = rec + hdr
                    # TRACE_LOGFILE_HEADER: PerfFreq after TimeZone and BootTime; pointer size 4 here.
                    ptr = 4 if htype == 0x01 else 8
                    tz = lf + 0x38 + 2 * ptr
                    boot = (tz + 172 + 7) & ~7
                    perf_freq, = struct.unpack_from("<q", data, boot + 8)
                    clock, = struct.unpack_from("<I", data, boot + 24)
                    out["clock_type"] = clock
            else:
                rsize, flags = struct.unpack_from("<HxxH", data, rec)
                ts, = struct.unpack_from("<q", data, rec + 16)
                prov = guid_text(data[rec + 24:rec + 40])
                eid, ver = struct.unpack_from("<HB", data, rec + 40)
                payload = data[rec + 80:rec + rsize]
                key = f"{prov}/{eid}/{ver}"
                per_event[key] += 1
                sizes[key].add(len(payload))
                if prov == DXG:
                    pid, = struct.unpack_from("<I", data, rec + 12)  # EVENT_HEADER.ProcessId
                    dxg.append((ts, eid, ver, payload, pid))
            off += (rsize + 7) & ~7
        pos += size
    out["buffers"] = buffers
    out["perf_freq"] = perf_freq
    out["records_by_header_type"] = {f"0x{k:02x}": v for k, v in sorted(header_types.items())}
    out["dxgkrnl_events"] = len(dxg)
    ids = collections.Counter(e[1] for e in dxg)
    out["dxgkrnl_by_id"] = {str(k): v for k, v in sorted(ids.items())}

    # QueuePacket start (178) -> stop (180) on (hContext, SubmitSequence).
    qstart = {}
    qstop = set()
    for ts, eid, ver, p, *_ in dxg:
        if eid in (178, 244, 245):
            ctx, seq = struct.unpack_from("<QI", p, 0) if eid == 244 or eid == 245 else \
                (struct.unpack_from("<Q", p, 0)[0], struct.unpack_from("<I", p, 12)[0])
            if eid == 178:
                qstart[(ctx, seq)] = ts
        if eid == 180:
            ctx, = struct.unpack_from("<Q", p, 0)
            seq, = struct.unpack_from("<I", p, 12)
            qstop.add((ctx, seq))
    out["queue_packet_start_178"] = len(qstart)
    out["queue_packet_178_matched_stop"] = sum(1 for k in qstart if k in qstop)

    # Wait (244) and signal (245) packets and their stops.
    wait_keys = set()
    signal_keys = set()
    for ts, eid, ver, p, *_ in dxg:
        if eid == 244:
            ctx, seq = struct.unpack_from("<QI", p, 0)
            wait_keys.add((ctx, seq))
        elif eid == 245:
            ctx, seq = struct.unpack_from("<QI", p, 0)
            signal_keys.add((ctx, seq))
    out["wait_packets_244"] = len(wait_keys)
    out["wait_packets_244_matched_stop"] = sum(1 for k in wait_keys if k in qstop)
    out["signal_packets_245"] = len(signal_keys)
    out["signal_packets_245_matched_stop"] = sum(1 for k in signal_keys if k in qstop)

    # DmaPacket start (175) <-> info (177) on submission / completion id.
    dstart = {}
    dinfo = set()
    dma_queue_link = 0
    for ts, eid, ver, p, *_ in dxg:
        if eid == 175:
            ctx, qctx, ptype, sub, qseq = struct.unpack_from("<QQIQI", p, 0)
            dstart[sub] = (ctx, qseq)
        elif eid == 177:
            ctx, ptype, comp = struct.unpack_from("<QIQ", p, 0)
            dinfo.add(comp)
    out["dma_start_175"] = len(dstart)
    # DmaPacket Info with InterruptType 2 (preempted), then a DmaPacket Start with the same
    # (hContext, ulQueueSubmitSequence): the packet resubmitted.
    preempted = set()
    resubmitted = 0
    for ts, eid, ver, p, *_ in sorted(dxg, key=lambda e: e[0]):
        if eid == 177:
            ctx, ptype, comp, qseq, itype = struct.unpack_from("<QIQII", p, 0)
            if itype == 2:
                preempted.add((ctx, qseq))
        elif eid == 175:
            ctx, qctx, ptype, sub, qseq = struct.unpack_from("<QQIQI", p, 0)
            if (ctx, qseq) in preempted:
                preempted.discard((ctx, qseq))
                resubmitted += 1
    out["dma_preempted_then_resubmitted"] = resubmitted
    out["dma_start_matched_info"] = sum(1 for k in dstart if k in dinfo)
    out["dma_linked_to_queue_packet"] = sum(1 for v in dstart.values() if v in qstart)
    out["dma_info_177"] = ids.get(177, 0)
    out["dma_completion_interrupts"] = sum(
        1 for ts, eid, ver, p, *_ in dxg if eid == 177 and struct.unpack_from("<I", p, 24)[0] == 1)

    # Wait packets (244) released by UnwaitQueuePacket (238, matched on pQueuePacket), and of
    # those, the ones for which some signal of the same sync object reaching the waited value
    # (245 signal packet, 230 SignalSynchronizationObject2, 294 SignalFromGpu) came first.
    def pairs(eid, p):
        if eid == 245:
            n, = struct.unpack_from("<I", p, 16)
            return list(zip(struct.unpack_from(f"<{n}Q", p, 20), struct.unpack_from(f"<{n}Q", p, 20 + 8 * n)))
        c, = struct.unpack_from("<I", p, 0)
        if eid == 230:
            n, = struct.unpack_from("<I", p, 4 + 8 * c)
            hs = struct.unpack_from(f"<{n}Q", p, 8 + 8 * c)
            return list(zip(hs, struct.unpack_from(f"<{n}Q", p, 12 + 8 * c + 8 * n)))
        n, = struct.unpack_from("<I", p, 8 + 8 * c)  # 294: flags, then the count
        hs = struct.unpack_from(f"<{n}Q", p, 12 + 8 * c)
        return list(zip(hs, struct.unpack_from(f"<{n}Q", p, 12 + 8 * c + 8 * n)))

    by_time = sorted(dxg, key=lambda e: e[0])
    waits = {}
    best = collections.defaultdict(lambda: -1)  # handle -> highest value signalled so far
    released = 0
    released_after_signal = 0
    for ts, eid, ver, p, *_ in by_time:
        if eid in (245, 230, 294):
            for h, v in pairs(eid, p):
                best[h] = max(best[h], v)
        elif eid == 244:
            ctx, seq, fl, h, v, q = struct.unpack_from("<QIIQQQ", p)
            waits[q] = (h, v)
        elif eid == 238:
            q, = struct.unpack_from("<Q", p)
            if q in waits:
                h, v = waits.pop(q)
                released += 1
                if best[h] >= v:
                    released_after_signal += 1
    # 294 SignalSynchronizationObjectFromGpu calls that ask for signals a 245 signal packet
    # queued within the last millisecond (the call behind the packet), and the others.
    window = perf_freq // 1000
    recent = {}  # (handle, value) -> time of the last 245 packet queueing it
    behind_packet = without_packet = 0
    for ts, eid, ver, p, *_ in by_time:
        if eid == 245:
            for pair in pairs(eid, p):
                recent[pair] = ts
        elif eid == 294:
            for pair in pairs(eid, p):
                if pair in recent and ts - recent[pair] <= window:
                    behind_packet += 1
                else:
                    without_packet += 1
    out["signal_from_gpu_294_behind_a_packet"] = behind_packet
    out["signal_from_gpu_294_without_packet"] = without_packet
    out["wait_packets_released_by_unwait"] = released
    out["wait_packets_released_after_a_signal"] = released_after_signal
    out["cpu_wait_objects_297"] = sum(struct.unpack_from("<I", p, 8)[0]
                                      for ts, eid, ver, p, *_ in dxg if eid == 297)
    out["vsync_dpc_17"] = ids.get(17, 0)
    signal_contexts = set()
    for ts, eid, ver, p, *_ in dxg:
        if eid in (230, 294):
            c, = struct.unpack_from("<I", p, 0)
            signal_contexts |= set(struct.unpack_from(f"<{c}Q", p, 4))
    out["contexts_with_packets_or_signals"] = len(
        {k[0] for k in qstart} | {k[0] for k in wait_keys} | {k[0] for k in signal_keys}
        | {v[0] for v in dstart.values()} | signal_contexts)
    out["contexts_with_queue_packets"] = len({k[0] for k in qstart} | {k[0] for k in wait_keys}
                                             | {k[0] for k in signal_keys})
    out["dma_contexts"] = len({v[0] for v in dstart.values()})
    # SelectContext (23): pDxgAdapter, hContext, u32 NodeOrdinal, ... -> DMA contexts per node.
    node_of = {}
    for ts, eid, ver, p, *_ in dxg:
        if eid == 23:
            ctx, node = struct.unpack_from("<QI", p, 8)
            node_of.setdefault(ctx, node)
    per_node = collections.Counter(str(node_of.get(c, "unknown")) for c in {v[0] for v in dstart.values()})
    out["dma_contexts_per_select_context_node"] = dict(sorted(per_node.items()))
    marker_prov = "8f8f13b1-60eb-4b6a-a433-de86104115ac"
    out["string_markers"] = sum(v for k, v in per_event.items() if k.startswith(marker_prov))
    out["distinct_provider_id_version"] = len(per_event)
    out["payload_sizes"] = {k: sorted(v) for k, v in sorted(sizes.items()) if k.startswith(DXG)}
    # The process that owns each context: the EVENT_HEADER ProcessId of the context's first queue
    # packet (178/244/245 name hContext first), counted per pid.
    owner = {}
    for ts, eid, ver, p, pid in sorted(dxg, key=lambda e: e[0]):
        if eid in (178, 244, 245):
            ctx, = struct.unpack_from("<Q", p, 0)
            owner.setdefault(ctx, pid)
    out["contexts_per_owner_pid"] = {str(k): v for k, v in sorted(collections.Counter(owner.values()).items())}
    out["context_owner_pid"] = {f"0x{k:x}": v for k, v in sorted(owner.items())}
    if dxg:
        t0 = min(e[0] for e in dxg)
        t1 = max(e[0] for e in dxg)
        out["dxgkrnl_span_ns"] = (t1 - t0) * 10**9 // perf_freq
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
