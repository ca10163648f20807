// The packed cache's bytes (core/cache/serialize.h): a bool is one byte, 0 or 1, checked on
// load wherever it stands (alone, in a struct, in a vector of structs); any other byte is a
// damaged section, never a bool of undefined value.
#include "core/cache/serialize.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/model/topology.h"

namespace {

using core::cache::CacheDamaged;
using core::cache::FromBytes;
using core::cache::ToBytes;

std::string Refusal(std::vector<uint8_t> bytes) {
  std::pair<uint32_t, bool> value;
  try {
    FromBytes(bytes.data(), bytes.size(), value);
  } catch (const CacheDamaged& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(CacheBytes, FlagsRoundTripAloneAndInVectorsOfStructs) {
  std::vector<core::model::Adapter> adapters(2);
  adapters[0].name = "iGPU";
  adapters[0].native_fences = true;
  adapters[1].name = "dGPU";
  adapters[1].optimized_interrupts = true;
  const auto bytes = ToBytes(adapters);
  std::vector<core::model::Adapter> back;
  FromBytes(bytes.data(), bytes.size(), back);
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].name, "iGPU");
  EXPECT_TRUE(back[0].native_fences);
  EXPECT_FALSE(back[0].optimized_interrupts);
  EXPECT_FALSE(back[1].native_fences);
  EXPECT_TRUE(back[1].optimized_interrupts);

  const std::vector<bool> flags{true, false, true};
  const auto flag_bytes = ToBytes(flags);
  std::vector<bool> flags_back;
  FromBytes(flag_bytes.data(), flag_bytes.size(), flags_back);
  EXPECT_EQ(flags_back, flags);
}

TEST(CacheBytes, AFlagByteOtherThanZeroOrOneIsDamage) {
  // (7, true): the uint32 7 in its 4 bytes, then the flag's byte.
  auto bytes = ToBytes(std::pair<uint32_t, bool>{7, true});
  ASSERT_EQ(bytes.size(), 5u);
  EXPECT_EQ(bytes[4], 1);
  EXPECT_EQ(Refusal(bytes), "");
  bytes[4] = 51;
  EXPECT_EQ(Refusal(bytes), "cache: a flag of value 51");
}
