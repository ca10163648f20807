#!/usr/bin/env python3
"""A small trace-cmd .dat (version 6, trace-cmd.dat.v6(5)'s layout) made by hand: amdgpu jobs on
two rings (amdgpu_cs_ioctl, amdgpu_sched_run_job, dma_fence_signaled on the job's fence),
sched_switch, and trace_marker prints, one of them by a pid with no saved command name, over two
CPUs (two ring-buffer pages on CPU 0, one on CPU 1), with the options real captures carry
(trace clock, uname, CPU count).

    python3 make_trace_dat.py OUT.dat [--shape SHAPE]

Prints what it wrote, one `key<TAB>value` a line: records, jobs and busy time per ring (each
job from its run to its fence's signal), signals, prints, cpus, and for a damaged shape the byte
offset of the damage (`damage_at`).
The shapes other than `good` are the damaged files libtracecmd 3.1 / libtraceevent 1.7 crash on
(fuzz regressions, each refused by the importer before the library sees it, or, for the clock's
two, imported with the clock option hidden from the library):

  good                                  the file above
  empty_clock_option                    the trace clock option of 0 bytes
  header_page_offset_without_semicolon  header_page's timestamp line: `offset:0` with no `;`
  header_page_type_of_other_characters  header_page's timestamp type `\\x03~4`
  header_page_type_of_two_words         header_page's timestamp type `u6 4`
  latency_section_huge_cpu_count        a latency section, 1.4 billion CPUs
  page_size_not_a_power_of_two          a page size of 2,035,712 bytes
  pages_larger_than_cpu_data            64 KB pages, each CPU's data 4 KB
  printk_format_too_short               a printk line whose format is 2 bytes
  version_4_huge_header_page            version "4", its header_page claiming 2^63 bytes
  field_type_byte_not_text              amdgpu_cs_ioctl's `__data_loc char[` followed by a byte
                                        0xdd instead of `]`
  print_flags_of_no_field               sched_switch's print format: __print_flags of
                                        REC->prevstate, which no field is
  record_length_going_back              CPU 1's fourth event: type_len 0 and a length of
                                        2^32 - 100 (libtracecmd reads back and never ends)
  trace_clock_size_huge                 the trace clock text after the CPU table claiming
                                        0x7ffdcd180cf7 bytes (libtracecmd allocates it when
                                        shown the clock option; fencescope never shows it)
  header_page_timestamp_of_4_bytes      header_page's timestamp of size 4
  clock_text_as_time_shift              the clock option's text under id 12 (time shift), whose
                                        counts then claim gigabytes
  field_array_not_closed                sched_switch's `char prev_comm[16` with no `]` nor `;`
  record_length_below_its_header        CPU 1's fourth event: type_len 0 and a length of 0 (a
                                        record of -4 bytes)
  uname_without_nul                     the uname option's text with no NUL at its end (imported:
                                        fencescope reads it, the library is never shown it)
  long_size_zero                        a long size of 0 in the file's header, and CPU 0's first
                                        page claiming 20,263,434 bytes
  cpu_count_option_not_the_header       option 8 (CPU count) saying 56,322 CPUs, the header 2
  print_fmt_constant_remainder          amdgpu_cs_ioctl's print format with `__get_str%timeline)`
                                        (libtraceevent divides the two words, both 0, on parsing)
  cpu_data_off_a_page_boundary          CPU 1's data starting 64 bytes past a page boundary
  cpu_data_over_the_headers             CPU 0's data said to start a page before its data, over
                                        the options and the CPU table
                                        (libtracecmd maps CPU 0's, fails on CPU 1's and leaks
                                        what it set up for CPU 0)
  record_time_past_2065                 CPU 0's first page's time 2^63 ns (read as
                                        a negative int64: the slice its sched_switch opens, closed
                                        on the next page, had a length past int64)
  print_fmt_conditional_then_hash       sched_switch's print format with `REC->prev_state ? "S"
                                        : "R"# ` (libtraceevent reads a NULL argument after a
                                        conditional's second value followed by '#')
  print_fmt_conditional_then_arrow      sched_switch's print format with `REC->prev_state ? "S"
                                        : longREC->prev_state` (libtraceevent reads NULL when a
                                        conditional's second value applies '->' to other than REC)
  print_fmt_conditionals_the_library_reads  not damaged: sched_switch's print format with
                                        conditionals whose second values the library reads
                                        (REC->field, a group or a call holding '->', an operator
                                        after the value), which must import as the whole file does
"""
import struct
import sys

PAGE = 4096
LONG = 8
RING_TIMESTAMP_NS = 1_000_000_000  # the first page's time

COMMON = [("unsigned short", "common_type", 2, 0), ("unsigned char", "common_flags", 1, 0),
          ("unsigned char", "common_preempt_count", 1, 0), ("int", "common_pid", 4, 1)]


class Event:
    """An event format: its fields (C type, name, size, signed; size 0 marks a __data_loc
    string) laid out after the common fields, as the kernel lays them out."""

    def __init__(self, system, name, event_id, fields, print_fmt):
        self.system, self.name, self.id, self.print_fmt = system, name, event_id, print_fmt
        self.fields = []
        offset = 8
        for ctype, fname, size, signed in fields:
            width = 4 if size == 0 else size
            offset = (offset + min(width, 8) - 1) // min(width, 8) * min(width, 8)
            self.fields.append((ctype, fname, width, signed, offset, size == 0))
            offset += width
        self.fixed_size = offset

    def format_text(self):
        lines = ["name: %s" % self.name, "ID: %d" % self.id, "format:"]
        offset = 0
        for ctype, fname, size, signed in COMMON:
            lines.append("\tfield:%s %s;\toffset:%d;\tsize:%d;\tsigned:%d;"
                         % (ctype, fname, offset, size, signed))
            offset += size
        lines.append("")
        for ctype, fname, size, signed, offset, loc in self.fields:
            decl = "__data_loc char[] %s" % fname if loc else "%s %s" % (ctype, fname)
            if ctype.startswith("char[") and not loc:
                decl = "char %s%s" % (fname, ctype[4:])
            lines.append("\tfield:%s;\toffset:%d;\tsize:%d;\tsigned:%d;"
                         % (decl, offset, size, signed))
        lines.append("")
        lines.append("print fmt: %s" % self.print_fmt)
        return ("\n".join(lines) + "\n").encode()

    def record(self, pid, values):
        """The event's bytes: common fields, then its fields, __data_loc strings at the end."""
        data = bytearray(self.fixed_size)
        struct.pack_into("<HBBi", data, 0, self.id, 0, 0, pid)
        tail = bytearray()
        for ctype, fname, size, signed, offset, loc in self.fields:
            value = values[fname]
            if loc:
                text = value.encode() + b"\0"
                struct.pack_into("<I", data, offset, (len(text) << 16) | (self.fixed_size + len(tail)))
                tail += text
            elif isinstance(value, str):
                struct.pack_into("%ds" % size, data, offset, value.encode()[:size])
            else:
                fmt = {1: "b", 2: "h", 4: "i", 8: "q"}[size]
                struct.pack_into("<" + (fmt if signed else fmt.upper()), data, offset, value)
        return bytes(data + tail)


# The fields and print format amdgpu's job events share.
AMDGPU_JOB = ([("uint64_t", "sched_job_id", 8, 0), ("", "timeline", 0, 0),
               ("unsigned int", "context", 4, 0), ("unsigned int", "seqno", 4, 0),
               ("", "ring_name", 0, 0), ("u32", "num_ibs", 4, 0)],
              '"sched_job=%llu, timeline=%s, context=%u, seqno=%u, ring_name=%s, num_ibs=%u", '
              'REC->sched_job_id, __get_str(timeline), REC->context, REC->seqno, '
              '__get_str(ring_name), REC->num_ibs')
EVENTS = [
    Event("ftrace", "print", 5, [("unsigned long", "ip", 8, 0), ("char[64]", "buf", 64, 0)],
          '"%ps: %s", (void *)REC->ip, REC->buf'),
    Event("sched", "sched_switch", 316,
          [("char[16]", "prev_comm", 16, 0), ("pid_t", "prev_pid", 4, 1),
           ("int", "prev_prio", 4, 1), ("long", "prev_state", 8, 1),
           ("char[16]", "next_comm", 16, 0), ("pid_t", "next_pid", 4, 1),
           ("int", "next_prio", 4, 1)],
          '"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%ld ==> next_comm=%s next_pid=%d '
          'next_prio=%d", REC->prev_comm, REC->prev_pid, REC->prev_prio, REC->prev_state, '
          'REC->next_comm, REC->next_pid, REC->next_prio'),
    Event("amdgpu", "amdgpu_cs_ioctl", 1501, *AMDGPU_JOB),
    Event("amdgpu", "amdgpu_sched_run_job", 1502, *AMDGPU_JOB),
    Event("dma_fence", "dma_fence_signaled", 1601,
          [("", "driver", 0, 0), ("", "timeline", 0, 0), ("unsigned int", "context", 4, 0),
           ("unsigned int", "seqno", 4, 0)],
          '"driver=%s timeline=%s context=%u seqno=%u", __get_str(driver), __get_str(timeline), '
          'REC->context, REC->seqno'),
]
BY_NAME = {e.name: e for e in EVENTS}

HEADER_PAGE = (
    "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
    "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
    "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
    "\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n")
HEADER_EVENT = (
    "# compressed entry header\n\ttype_len    :    5 bits\n\ttime_delta  :   27 bits\n"
    "\tarray       :   32 bits\n\n\tpadding     : type == 29\n\ttime_extend : type == 30\n"
    "\ttime_stamp : type == 31\n\tdata max type_len  == 28\n")
CMDLINES = {1200: "glxgears", 300: "gfx", 301: "sdma0"}  # pid 1300 left out on purpose
RINGS = {"gfx": 100, "sdma0": 200}  # ring -> the finished fence's context (scheduled: - 1)


def timeline():
    """The events per CPU in time order: (ts_ns, pid, event name, values), and the counts."""
    cpus = {0: [], 1: []}
    counts = {"jobs gfx": 0, "jobs sdma0": 0, "busy_ns gfx": 0, "busy_ns sdma0": 0,
              "signals": 0, "prints": 0}
    t = RING_TIMESTAMP_NS
    cpus[0].append((t, 0, "sched_switch",
                    dict(prev_comm="swapper/0", prev_pid=0, prev_prio=120, prev_state=0,
                         next_comm="glxgears", next_pid=1200, next_prio=120)))
    job = 0
    for frame in range(16):
        base = t + 1000 + frame * 200_000
        for ring, context in RINGS.items():
            job += 1
            seqno = frame + 1
            values = dict(sched_job_id=job, timeline=ring, context=context, seqno=seqno,
                          ring_name=ring, num_ibs=1)
            submit = base + (0 if ring == "gfx" else 5_000)
            cpus[0].append((submit, 1200, "amdgpu_cs_ioctl", values))
            cpu1 = cpus[1]
            run = submit + 20_000
            cpu1.append((run, 300 if ring == "gfx" else 301, "amdgpu_sched_run_job", values))
            done = run + 60_000 + (frame % 3) * 10_000
            cpu1.append((done, 0, "dma_fence_signaled",
                         dict(driver="amd_sched", timeline=ring, context=context, seqno=seqno)))
            counts["jobs " + ring] += 1
            counts["busy_ns " + ring] += done - run  # jobs of a ring never overlap here
            counts["signals"] += 1
        cpus[0].append((base + 9_000, 1200 if frame % 2 else 1300, "print",
                        dict(ip=0xffffffff81000000, buf="frame %d\n" % frame)))
        counts["prints"] += 1
    for events in cpus.values():
        events.sort(key=lambda e: e[0])
    counts["records"] = sum(len(v) for v in cpus.values())
    counts["cpus"] = len(cpus)
    return cpus, counts


def pages(events, pages_wanted):
    """The CPU's ring-buffer pages: u64 timestamp, u64 commit (bytes of events), the events
    (32-bit header: type_len in the low 5 bits, the time delta above), padded to PAGE bytes;
    events split evenly over `pages_wanted` pages."""
    out = bytearray()
    per_page = -(-len(events) // pages_wanted)
    for first in range(0, len(events), per_page):
        chunk = events[first:first + per_page]
        data = bytearray()
        last = chunk[0][0]
        for ts, pid, name, values in chunk:
            payload = BY_NAME[name].record(pid, values)
            payload += b"\0" * (-len(payload) % 4)
            assert len(payload) <= 28 * 4 and ts - last < (1 << 27)
            data += struct.pack("<I", (len(payload) // 4) | ((ts - last) << 5)) + payload
            last = ts
        assert len(data) <= PAGE - 16, "too many events for a page"
        page = struct.pack("<QQ", chunk[0][0], len(data)) + data
        out += page + b"\0" * (PAGE - len(page))
    return bytes(out)


def write(shape):
    cpus, counts = timeline()
    page_size = {"page_size_not_a_power_of_two": 2_035_712,
                 "pages_larger_than_cpu_data": 65536}.get(shape, PAGE)
    header_page = HEADER_PAGE
    if shape == "header_page_offset_without_semicolon":
        header_page = header_page.replace("offset:0;\tsize:8", "offset:0\tsize:8", 1)
    if shape == "header_page_type_of_other_characters":
        header_page = header_page.replace("u64 timestamp", "\x03~4 timestamp")
    if shape == "header_page_type_of_two_words":
        header_page = header_page.replace("u64 timestamp", "u6 4 timestamp")
    if shape == "header_page_timestamp_of_4_bytes":
        header_page = header_page.replace("offset:0;\tsize:8", "offset:0;\tsize:4", 1)
    printk = 'ffffffff81000000 : "frame %d\\n"\nffffffff81000010 : "gpu %s"\n'
    if shape == "printk_format_too_short":
        printk += 'ffffffff81000020 : "a\n'

    def sized(fmt, data):
        return struct.pack("<" + fmt, len(data)) + data

    version = b"4" if shape == "version_4_huge_header_page" else b"6"
    out = bytearray(b"\x17\x08\x44tracing" + version + b"\0")
    damage_at = {"page_size_not_a_power_of_two": len(out) + 2,
                 "long_size_zero": len(out) + 1}
    out += struct.pack("<BBI", 0, 0 if shape == "long_size_zero" else LONG, page_size)
    damage_at["header_page_offset_without_semicolon"] = len(out) + 20  # its first line
    damage_at["header_page_type_of_other_characters"] = len(out) + 20
    damage_at["header_page_type_of_two_words"] = len(out) + 20
    damage_at["header_page_timestamp_of_4_bytes"] = (
        len(out) + 20 + header_page.index("size:4") + 5)
    if shape == "version_4_huge_header_page":
        damage_at[shape] = 10
        out += b"header_page\0" + struct.pack("<Q", 0xf8fffffe000000cd) + header_page.encode()
    else:
        out += b"header_page\0" + sized("Q", header_page.encode())
    out += b"header_event\0" + sized("Q", HEADER_EVENT.encode())
    ftrace = [e for e in EVENTS if e.system == "ftrace"]
    def format_of(e):
        text = e.format_text()
        if shape == "field_type_byte_not_text" and e.name == "amdgpu_cs_ioctl":
            text = text.replace(b"__data_loc char[] timeline", b"__data_loc char[\xdd timeline", 1)
            damage_at[shape] = len(out) + 8 + text.index(b"\xdd")
        if shape == "print_flags_of_no_field" and e.name == "sched_switch":
            text = text.replace(b"prev_state=%ld", b"prev_state=%s", 1).replace(
                b"REC->prev_state,", b'__print_flags(REC->prevstate, "|", { 1, "S" }),', 1)
            damage_at[shape] = len(out) + 8 + text.index(b"REC->prevstate")
        if shape == "field_array_not_closed" and e.name == "sched_switch":
            text = text.replace(b"char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;",
                                b"char prev_comm[16ftrace_event amdgpu_sched_run_j", 1)
            damage_at[shape] = len(out) + 8 + text.index(b"char prev_comm[16ftrace")
        if shape == "print_fmt_conditional_then_hash" and e.name == "sched_switch":
            text = text.replace(b"REC->prev_state, ", b'REC->prev_state ? "S" : "R"# ', 1)
            damage_at[shape] = len(out) + 8 + text.index(b'"R"#') + 3
        if shape == "print_fmt_conditional_then_arrow" and e.name == "sched_switch":
            text = text.replace(b"REC->prev_state, ", b'REC->prev_state ? "S" : longREC->prev_state, ', 1)
            damage_at[shape] = len(out) + 8 + text.index(b"longREC->") + 7
        if shape == "print_fmt_conditionals_the_library_reads" and e.name == "sched_switch":
            text = text.replace(b"REC->prev_state, ", b'REC->prev_state ? "S" : REC->prev_state ? '
                                b'(foo->bar) : REC->prev_pid ? f(foo->bar) : 1 + foo->bar, ', 1)
        if shape == "print_fmt_constant_remainder" and e.name == "amdgpu_cs_ioctl":
            text = text.replace(b"__get_str(timeline)", b"__get_str%timeline)", 1)
            damage_at[shape] = len(out) + 8 + text.index(b"%timeline")
        return text

    out += struct.pack("<I", len(ftrace))
    for e in ftrace:
        out += sized("Q", format_of(e))
    systems = []
    for e in EVENTS:
        if e.system != "ftrace" and e.system not in systems:
            systems.append(e.system)
    out += struct.pack("<I", len(systems))
    for system in systems:
        members = [e for e in EVENTS if e.system == system]
        out += system.encode() + b"\0" + struct.pack("<I", len(members))
        for e in members:
            out += sized("Q", format_of(e))
    out += sized("I", b"ffffffff81000000 T _stext\n")
    if shape == "printk_format_too_short":
        damage_at[shape] = len(out) + 4 + printk.rindex("ffffffff81000020")
    out += sized("I", printk.encode())
    out += sized("Q", "".join("%d %s\n" % kv for kv in sorted(CMDLINES.items())).encode())
    if shape == "latency_section_huge_cpu_count":
        out += struct.pack("<I", 1_400_000_000)
        counts["damage_at"] = len(out)
        out += b"latency  \0" + b"# tracer: nop\n"
        return bytes(out), counts
    out += struct.pack("<I", len(cpus))
    clock = b"" if shape == "empty_clock_option" else b"[local] global counter uptime perf\0"
    clock_id = 12 if shape == "clock_text_as_time_shift" else 4
    out += b"options  \0"
    cpu_count = 56_322 if shape == "cpu_count_option_not_the_header" else len(cpus)
    uname = b"Linux 6.1.0 #1 SMP x86_64" + (b"r" if shape == "uname_without_nul" else b"\0")
    damage_at["clock_text_as_time_shift"] = len(out)
    for option_id, data in ((clock_id, clock), (5, uname),
                            (8, struct.pack("<I", cpu_count))):
        if option_id == 8:
            damage_at["cpu_count_option_not_the_header"] = len(out)
        out += struct.pack("<HI", option_id, len(data)) + data
    out += struct.pack("<H", 0)
    out += b"flyrecord\0"
    data = [bytearray(pages(cpus[0], 2)), bytearray(pages(cpus[1], 1))]
    if shape == "long_size_zero":
        # CPU 0's first page claiming more bytes than a page: unchecked with no long size,
        # libtracecmd refuses it with CPU 1 not set up, and crashes closing the file.
        struct.pack_into("<Q", data[0], 8, 20_263_434)
    if shape == "record_time_past_2065":
        struct.pack_into("<Q", data[0], 0, 0x8000000000000000)
    if shape in ("record_length_going_back", "record_length_below_its_header"):
        at = 16  # the page header, then each event: its 32-bit header and payload
        for _ in range(3):
            at += 4 + (struct.unpack_from("<I", data[1], at)[0] & 31) * 4
        header = struct.unpack_from("<I", data[1], at)[0]
        length = 0x100000000 - 100 if shape == "record_length_going_back" else 0
        struct.pack_into("<II", data[1], at, header & ~31, length)
        damaged_event = at
    table_end = len(out) + 16 * len(data) + 64  # and the trace clock's text
    start = -(-table_end // PAGE) * PAGE
    offsets = []
    for d in data:
        if shape == "cpu_data_off_a_page_boundary" and offsets:
            start += 64
        offsets.append(start)
        start += len(d)
    if shape == "cpu_data_off_a_page_boundary":
        damage_at[shape] = offsets[1]
    for cpu, (offset, d) in enumerate(zip(offsets, data)):
        if shape == "cpu_data_over_the_headers" and cpu == 0:
            offset -= PAGE  # a page boundary before the end of this table
            damage_at[shape] = offset
        out += struct.pack("<QQ", offset, len(d))
    # The trace clock's text follows the CPU table (a u64 size, then the text), as trace-cmd
    # writes it when the clock option is there.
    clock_text = b"[local] global counter uptime perf\n"
    if shape == "trace_clock_size_huge":
        damage_at[shape] = len(out) + 8
        out += struct.pack("<Q", 0x7ffdcd180cf7)
    elif shape != "empty_clock_option":
        out += struct.pack("<Q", len(clock_text)) + clock_text
    damage_at["pages_larger_than_cpu_data"] = offsets[0]
    if shape in ("record_length_going_back", "record_length_below_its_header"):
        damage_at[shape] = offsets[1] + damaged_event
    if shape == "record_time_past_2065":
        damage_at[shape] = offsets[0] + 16  # its first record, after the page's header
    if shape in damage_at:
        counts["damage_at"] = damage_at[shape]
    for offset, d in zip(offsets, data):
        out += b"\0" * (offset - len(out))
        out += d
    return bytes(out), counts


def main(argv):
    shape = "good"
    if len(argv) > 2 and argv[2] == "--shape":
        shape = argv[3]
    data, counts = write(shape)
    with open(argv[1], "wb") as f:
        f.write(data)
    for key, value in counts.items():
        print("%s\t%d" % (key, value))


if __name__ == "__main__":
    main(sys.argv)
