// The words each figure is shown with, written once so the window, `stats`, the HTML and
// Markdown reports and `compare` name one figure the same way. Each word names what it counts
// (packet_counts.h, wait_latency.h give the definitions).
#pragma once

namespace core::report {

// Per-queue packet counts (JSON: packets_submitted, packets_started, packets_completed,
// packets_running_at_end; `packets` is packets_submitted).
constexpr const char* kPacketsSubmitted = "packets submitted";
constexpr const char* kPacketsStarted = "started";
constexpr const char* kPacketsCompleted = "completed";
constexpr const char* kPacketsRunningAtEnd = "running at the end";

// Idle-gap causes, in GapCause order (core/analysis/idle_gaps.h; JSON: idle_gaps'
// waiting_on_fence_ns, preempted_ns, nothing_submitted_ns, submitted_not_running_ns,
// launch_bound_ns, synchronised_ns).
constexpr const char* kGapCauseLabels[] = {"waiting on fence",       "preempted",
                                           "nothing submitted",      "submitted, not running",
                                           "launch-bound",           "synchronised"};

// Wait latency parts (JSON: to_signal, to_unblock, to_unblock_before_reached,
// to_unblock_after_reached, total).
constexpr const char* kToSignal = "queued -> signal executed";
constexpr const char* kToUnblock = "signal executed -> unblocked";
constexpr const char* kBeforeReached = "waiter not there yet";
constexpr const char* kAfterReached = "wait reached -> unblocked";
// One sentence for the split, shown under the latency tables and histograms.
constexpr const char* kToUnblockExplained =
    "signal executed -> unblocked is split where the trace allows: first, how long the waiter "
    "was not there yet (a GPU queue still running earlier packets or held by earlier waits, up "
    "to the time it reached the wait; a CPU thread that had not begun waiting), then wait "
    "reached -> unblocked (for GPU-native waits the queue's own wake-up; for waits held on the "
    "CPU and CPU waits, the OS / interrupt path).";

}  // namespace core::report
