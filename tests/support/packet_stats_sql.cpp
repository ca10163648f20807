#include "tests/support/packet_stats_sql.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/store/query.h"

namespace test_support {
namespace {

// A resumed packet ran from started to completed except between each packet_preempted and the
// packet_resumed after it: run = completed - started - (sum of resumes - sum of preemptions).
constexpr const char* kRunTimesSql =
    "SELECT s.value AS name, qs.value AS queue, "
    "  c.ts_ns - st.ts_ns - (COALESCE(rs.t, 0) - COALESCE(pp.t, 0)) AS run_ns "
    "FROM packet_completed c "
    "JOIN packet_started st ON st.packet_id = c.packet_id "
    "JOIN packet_submitted sub ON sub.packet_id = c.packet_id "
    "JOIN queues q ON q.id = c.queue_id "
    "JOIN strings qs ON qs.id = q.name_sid "
    "LEFT JOIN strings s ON s.id = sub.name_sid "
    "LEFT JOIN (SELECT packet_id, SUM(ts_ns) AS t FROM packet_resumed GROUP BY packet_id) rs "
    "  ON rs.packet_id = c.packet_id "
    "LEFT JOIN (SELECT packet_id, SUM(ts_ns) AS t FROM packet_preempted GROUP BY packet_id) pp "
    "  ON pp.packet_id = c.packet_id";

// Nearest rank: the p-th percentile of n sorted samples is the one at rank ceil(p * n / 100).
int64_t NearestRank(const std::vector<int64_t>& sorted, int p) {
  const size_t rank = (static_cast<size_t>(p) * sorted.size() + 99) / 100;
  return sorted[std::max<size_t>(rank, 1) - 1];
}

}  // namespace

std::map<std::string, SqlPacketStats> PacketStatsFromSql(const std::filesystem::path& trace) {
  std::map<std::string, std::vector<int64_t>> runs;
  for (const auto& row : core::store::RunQuery(trace, kRunTimesSql).rows) {
    runs[row.at(0) + " on " + row.at(1)].push_back(std::stoll(row.at(2)));
  }
  std::map<std::string, SqlPacketStats> out;
  for (auto& [key, v] : runs) {
    std::sort(v.begin(), v.end());
    SqlPacketStats& e = out[key];
    e.count = v.size();
    for (int64_t x : v) e.total_ns += x;
    e.p50_ns = NearestRank(v, 50);
    e.p99_ns = NearestRank(v, 99);
    e.max_ns = v.back();
  }
  return out;
}

int64_t PreemptedCompletedPackets(const std::filesystem::path& trace) {
  return std::stoll(core::store::RunQuery(trace,
                                          "SELECT COUNT(DISTINCT p.packet_id) FROM "
                                          "packet_preempted p JOIN packet_completed c ON "
                                          "c.packet_id = p.packet_id")
                        .rows.at(0)
                        .at(0));
}

void ExpectPacketStatsEqual(const core::report::Json& rows,
                            const std::map<std::string, SqlPacketStats>& expected) {
  ASSERT_EQ(rows.size(), expected.size());
  int64_t previous_total = INT64_MAX;
  for (const core::report::Json& row : rows.items()) {
    const std::string key = row.Find("name")->String() + " on " + row.Find("queue")->String();
    SCOPED_TRACE(key);
    auto it = expected.find(key);
    ASSERT_NE(it, expected.end());
    const SqlPacketStats& e = it->second;
    EXPECT_EQ(row.Find("count")->Int(), static_cast<int64_t>(e.count));
    EXPECT_EQ(row.Find("total_ns")->Int(), e.total_ns);
    EXPECT_NEAR(row.Find("mean_ns")->Number(),
                static_cast<double>(e.total_ns) / static_cast<double>(e.count), 1e-6);
    EXPECT_EQ(row.Find("p50_ns")->Int(), e.p50_ns);
    EXPECT_EQ(row.Find("p99_ns")->Int(), e.p99_ns);
    EXPECT_EQ(row.Find("max_ns")->Int(), e.max_ns);
    EXPECT_LE(row.Find("total_ns")->Int(), previous_total);
    previous_total = row.Find("total_ns")->Int();
  }
}

}  // namespace test_support
