#!/usr/bin/env python3
"""Writes a large synthetic ftrace text trace (trace_pipe layout with the TGID column and
5-character flags) for `fencescope bench import`: amdgpu jobs on three rings with their fences,
CPU waits, vblanks, markers and sched_switch lines, in time order.

    python3 generate_large_ftrace_text.py OUT.txt [MEGABYTES]
"""
import sys


def main(path, megabytes=200):
    limit = int(megabytes * 1e6)
    rings = ["gfx", "comp_1.0.0", "sdma0"]
    ts = 1000.0
    written = 0
    seq = 0
    with open(path, "w") as f:
        f.write("# tracer: nop\n#\n")
        while written < limit:
            seq += 1
            ring = rings[seq % 3]
            ctx = 100 + 2 * (seq % 3)
            lines = []

            def line(comm, pid, cpu, event, details):
                lines.append("%16s-%-6d (%7d) [%03d] ..... %.6f: %s: %s\n" %
                             (comm, pid, pid, cpu, ts, event, details))

            job = "sched_job=%d, timeline=%s, context=%d, seqno=%d, ring_name=%s, num_ibs=1" % (
                seq, ring, ctx, seq, ring)
            line("RenderThread", 2000, 1, "amdgpu_cs_ioctl", job)
            ts += 0.000010
            line("RenderThread", 2000, 1, "tracing_mark_write", "frame %d submitted" % seq)
            ts += 0.000005
            line(ring, 300 + seq % 3, 2, "amdgpu_sched_run_job", job)
            ts += 0.000004
            line(ring, 300 + seq % 3, 2, "dma_fence_signaled",
                 "driver=amd_sched timeline=%s context=%d seqno=%d" % (ring, ctx - 1, seq))
            line("RenderThread", 2000, 1, "dma_fence_wait_start",
                 "driver=amd_sched timeline=%s context=%d seqno=%d" % (ring, ctx, seq))
            line("RenderThread", 2000, 1, "sched_switch",
                 "prev_comm=RenderThread prev_pid=2000 prev_prio=120 prev_state=S ==> "
                 "next_comm=swapper/1 next_pid=0 next_prio=120")
            ts += 0.000200
            line("<idle>", 0, 2, "dma_fence_signaled",
                 "driver=amd_sched timeline=%s context=%d seqno=%d" % (ring, ctx, seq))
            line("<idle>", 0, 1, "sched_switch",
                 "prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> "
                 "next_comm=RenderThread next_pid=2000 next_prio=120")
            ts += 0.000002
            line("RenderThread", 2000, 1, "dma_fence_wait_end",
                 "driver=amd_sched timeline=%s context=%d seqno=%d" % (ring, ctx, seq))
            if seq % 50 == 0:
                line("<idle>", 0, 0, "drm_vblank_event", "crtc=0, seq=%d" % (seq // 50))
            ts += 0.000050
            text = "".join(lines)
            f.write(text)
            written += len(text)


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 200)
