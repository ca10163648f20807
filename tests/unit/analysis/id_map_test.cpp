// IdMap against std::unordered_map: the same operations on both, for the key patterns traces
// have (ids in sequence, ids far apart, addresses stepping by a power of two, negative ids, the
// smallest key, which the map keeps aside) and at random; every lookup compared.
#include "core/analysis/id_map.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <unordered_map>
#include <vector>

namespace {

using core::analysis::IdMap;

template <typename Key>
void ExpectSameAsUnorderedMap(const std::vector<Key>& keys, const std::vector<Key>& probes,
                              bool reserve) {
  IdMap<Key, uint32_t> map;
  std::unordered_map<Key, uint32_t> expected;
  if (reserve) map.Reserve(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) {
    const auto value = static_cast<uint32_t>(i);
    if (i % 3 == 0) {
      EXPECT_EQ(map.TryEmplace(keys[i], value), expected.try_emplace(keys[i], value).second)
          << "key " << keys[i];
    } else {
      map[keys[i]] = value;
      expected[keys[i]] = value;
    }
  }
  ASSERT_EQ(map.size(), expected.size());
  for (Key key : probes) {
    const uint32_t* got = map.Find(key);
    auto it = expected.find(key);
    ASSERT_EQ(got != nullptr, it != expected.end()) << "key " << key;
    if (got) {
      EXPECT_EQ(*got, it->second) << "key " << key;
    }
  }
}

TEST(IdMap, SequentialIds) {
  std::vector<int64_t> keys, probes;
  for (int64_t id = 1; id <= 100000; ++id) keys.push_back(id);
  for (int64_t id = -5; id <= 100010; ++id) probes.push_back(id);
  // Absent ids whose home slot lies inside the run the sequence fills (its low bits are those of
  // an id present): the lookup must say absent, not stop at a neighbour.
  for (int64_t id = 1; id <= 100000; id += 97) {
    probes.push_back(id + (int64_t{1} << 18));
    probes.push_back(id + (int64_t{1} << 40));
  }
  ExpectSameAsUnorderedMap(keys, probes, true);
  ExpectSameAsUnorderedMap(keys, probes, false);
}

TEST(IdMap, AddressesSteppingByPowersOfTwo) {
  for (int step : {16, 64, 4096, 1 << 20}) {
    std::vector<int64_t> keys, probes;
    for (int64_t i = 0; i < 20000; ++i) keys.push_back(0x7f00'0000'0000 + i * step);
    for (int64_t i = 0; i < 20000; ++i) probes.push_back(0x7f00'0000'0000 + i * step + i % 2);
    ExpectSameAsUnorderedMap(keys, probes, false);
  }
}

TEST(IdMap, ExtremeAndRepeatedKeys) {
  const int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
  std::vector<int64_t> keys{lo, 0, -1, hi, lo, 7, 7, -1, lo + 1, hi - 1, 0};
  std::vector<int64_t> probes = keys;
  probes.insert(probes.end(), {1, 2, -2, lo + 2});
  ExpectSameAsUnorderedMap(keys, probes, false);
  // Unsigned keys: 0 (an event index) is the one kept aside.
  std::vector<uint32_t> indices{0, 1, 2, 0, UINT32_MAX, 5, 0};
  std::vector<uint32_t> index_probes{0, 1, 2, 3, 4, 5, UINT32_MAX, UINT32_MAX - 1};
  ExpectSameAsUnorderedMap(indices, index_probes, true);
}

TEST(IdMap, RandomKeysGrowingFromEmpty) {
  std::mt19937_64 random(20261124);
  std::vector<int64_t> keys, probes;
  for (int i = 0; i < 200000; ++i) {
    // Mostly from a small range (repeats), some anywhere.
    keys.push_back(i % 4 == 0 ? static_cast<int64_t>(random())
                              : static_cast<int64_t>(random() % 50000) - 25000);
  }
  probes = keys;
  for (int i = 0; i < 100000; ++i) probes.push_back(static_cast<int64_t>(random() % 60000) - 30000);
  ExpectSameAsUnorderedMap(keys, probes, false);
}

}  // namespace
