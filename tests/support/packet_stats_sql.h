// Per-name packet statistics worked out from a trace file's records alone, for checking
// core/analysis packet_stats a second way: each completed packet's run time with SQL over the
// per-kind views (completed - started, minus the time between each packet_preempted and the
// packet_resumed after it), grouped by (packet name, queue name), summarised with the
// nearest-rank rule written out here. Nothing of core/analysis is used.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>

#include "core/report/json.h"

namespace test_support {

struct SqlPacketStats {
  uint64_t count = 0;
  int64_t total_ns = 0, p50_ns = 0, p99_ns = 0, max_ns = 0;
};

// Keyed by "name on queue".
std::map<std::string, SqlPacketStats> PacketStatsFromSql(const std::filesystem::path& trace);

// Completed packets that were preempted at least once (so run time != wall time).
int64_t PreemptedCompletedPackets(const std::filesystem::path& trace);

// Expects the report's packet_stats list to have exactly these rows, with the same figures, in
// total_ns descending order (gtest failures name the row).
void ExpectPacketStatsEqual(const core::report::Json& packet_stats,
                            const std::map<std::string, SqlPacketStats>& expected);

}  // namespace test_support
