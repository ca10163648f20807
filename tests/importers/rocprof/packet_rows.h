// The SQL the rocprof importer tests read packets back with, over the per-kind views.
#pragma once

namespace rocprof_test {

// Per packet, in start order: its name, queue, submit time, submitting thread's tid (empty when
// none), start and end.
inline constexpr const char* kPacketRows =
    "SELECT n.value, q.value, p.ts_ns, t.tid, s.ts_ns, c.ts_ns FROM packet_submitted p JOIN "
    "strings n ON n.id = p.name_sid JOIN queues qq ON qq.id = p.queue_id JOIN strings q ON q.id "
    "= qq.name_sid LEFT JOIN threads t ON t.id = p.thread_id JOIN packet_started s ON "
    "s.queue_id = p.queue_id AND s.packet_id = p.packet_id JOIN packet_completed c ON c.queue_id "
    "= p.queue_id AND c.packet_id = p.packet_id ORDER BY s.ts_ns";

// Per CPU slice, by time then thread: tid, name, category, start, duration, depth.
inline constexpr const char* kSliceRows =
    "SELECT t.tid, n.value, g.value, c.ts_ns, c.duration_ns, c.depth FROM cpu_slice c JOIN "
    "threads t ON t.id = c.thread_id JOIN strings n ON n.id = c.name_sid JOIN strings g ON g.id "
    "= c.category_sid ORDER BY c.ts_ns, t.tid";

}  // namespace rocprof_test
