"""The multi-stream programs of shared/capture/torch_streams.py (frame graph, ring buffer,
pipelined compute -> graphics with a CPU throttle), run through make_cuda_trace.py's model of a
CUDA program on one device and one host thread. Streams stand in for hardware queues, CUDA events
for fences: record = signal, wait_event = GPU wait, Event.synchronize = CPU wait.

Each torch.cuda.Event() is a new CUDA event: a new event id, or with --reuse-events an id handed
back from a small pool (the driver reuses the ids of destroyed events), sized so that no id comes
back while its event is still waited on.
"""

COPY, COMPUTE, GRAPHICS = 17, 7, 13
DEVICE = 0


class Program:
    def __init__(self, model, tid, t, pool):
        self.m, self.tid, self.t = model, tid, t
        self.pool = pool
        self.created = 0
        k = model.args.kernel_us * 1000
        self.kernel_ns = (k * 8 // 10, k * 12 // 10)

    def host(self):  # the Python between two torch calls
        self.t += self.m.rng.randint(5000, 15000)

    def event(self):
        self.created += 1
        return self.created if not self.m.args.reuse_events else 1 + (self.created - 1) % self.pool

    def kernel(self, stream, name, scale=1.0):
        lo, hi = self.kernel_ns
        self.t = self.m.launch(DEVICE, self.tid, self.t, stream, name=name,
                               dur_ns=(int(lo * scale), int(hi * scale)))
        self.host()

    def record(self, event, stream):
        self.t = self.m.record(DEVICE, self.tid, self.t, stream, event)
        self.host()

    def wait_event(self, stream, event):
        self.t = self.m.stream_wait(DEVICE, self.tid, self.t, stream, event)
        self.host()

    def synchronize(self, event):
        self.t = self.m.cpu_sync(DEVICE, self.tid, self.t, "Event Sync", event=event)
        self.host()

    def device_synchronize(self):
        self.t = self.m.cpu_sync(DEVICE, self.tid, self.t, "Context Sync")


def frame_graph(model, tid, t, frames=12):
    """Copy -> pre-pass -> lighting -> final draw; frame_done.synchronize() from the third frame."""
    p = Program(model, tid, t, pool=5)
    for f in range(frames):
        p.kernel(COPY, "Memcpy HtoD (Pinned -> Device)", 0.3)
        geo_done = p.event()
        p.record(geo_done, COPY)
        for _ in range(4):
            p.kernel(COPY, "Memcpy HtoD (Pinned -> Device)", 0.3)
        tex_done = p.event()
        p.record(tex_done, COPY)
        p.wait_event(GRAPHICS, geo_done)
        p.kernel(GRAPHICS, "ampere_sgemm_128x64_nn")
        p.kernel(GRAPHICS, "void at::native::vectorized_elementwise_kernel<4> relu", 0.1)
        pre_done = p.event()
        p.record(pre_done, GRAPHICS)
        p.wait_event(COMPUTE, pre_done)
        p.kernel(COMPUTE, "ampere_sgemm_128x64_nn")
        p.kernel(COMPUTE, "void at::native::vectorized_elementwise_kernel<4> tanh", 0.1)
        light_done = p.event()
        p.record(light_done, COMPUTE)
        p.wait_event(GRAPHICS, light_done)
        p.wait_event(GRAPHICS, tex_done)
        for _ in range(4):
            p.kernel(GRAPHICS, "void at::native::reduce_kernel<512, 1> sum", 0.1)
        p.kernel(GRAPHICS, "void at::native::vectorized_elementwise_kernel<4> add", 0.1)
        frame_done = p.event()
        p.record(frame_done, GRAPHICS)
        if f >= 2:
            p.synchronize(frame_done)
    p.device_synchronize()


def ring_buffer(model, tid, t, length=3, iters=24):
    """The copy stream fills a ring of `length` slots; the graphics stream consumes them."""
    p = Program(model, tid, t, pool=2 * length + 2)
    consumed = [None] * length
    for i in range(iters):
        slot = i % length
        if consumed[slot] is not None:
            p.wait_event(COPY, consumed[slot])
        p.kernel(COPY, "Memcpy HtoD (Pinned -> Device)", 0.3)
        filled = p.event()
        p.record(filled, COPY)
        p.wait_event(GRAPHICS, filled)
        p.kernel(GRAPHICS, "ampere_sgemm_128x64_nn")
        ev = p.event()
        p.record(ev, GRAPHICS)
        consumed[slot] = ev
    p.device_synchronize()


def throttle(model, tid, t, frames=16, cpu_latency=3, cg_latency=2):
    """Pipelined compute -> graphics with a CPU throttle: frame N waits on the host for the event
    recorded on the compute stream in frame N - 3, with records of other events in between."""
    p = Program(model, tid, t, pool=2 * (cpu_latency + 1))
    comp_fence = {}
    for frame in range(1, frames + 1):
        if frame > cpu_latency:
            p.synchronize(comp_fence[frame - cpu_latency])
        p.kernel(COMPUTE, "void at::native::vectorized_elementwise_kernel<4> sin")
        e = p.event()
        p.record(e, COMPUTE)
        comp_fence[frame] = e
        if frame > cg_latency:
            g = frame - cg_latency
            p.wait_event(GRAPHICS, comp_fence[g])
            p.kernel(GRAPHICS, "ampere_sgemm_128x64_nn")
            p.record(p.event(), GRAPHICS)
    p.device_synchronize()


SHAPES = {"frame_graph": frame_graph, "ring_buffer": ring_buffer, "throttle": throttle}
