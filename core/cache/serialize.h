// Save / Load: plain data to bytes and back, for the packed cache a trace file carries
// (trace_cache.h). What the window and the reports derive from a trace (its bit-packed event
// columns, the reconstruction, the analyses, the timeline's lanes) is plain data: numbers, enums,
// strings, vectors, maps, PackedColumn / PackedTable, and aggregates of those. Save writes such a
// value field by field (aggregate_fields.h finds the fields), Load reads it back.
//
// The bytes are this build's in-memory layout (little-endian, native widths); the cache records
// the build's format version and is rebuilt rather than read when it differs. Load never trusts
// its input: every length is checked against the bytes left and every packed column's layout is
// checked before use, so a damaged cache throws CacheDamaged instead of reading out of bounds.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/cache/aggregate_fields.h"
#include "core/model/error.h"
#include "core/store/packed_column.h"
#include "core/store/packed_table.h"

namespace core::store {
struct TraceStore;
}

namespace core::cache {

// A cache section whose bytes do not decode: the caller rebuilds it from the rows.
class CacheDamaged : public Error {
 public:
  using Error::Error;
};

class ByteWriter {
 public:
  void Bytes(const void* data, size_t n) {
    if (n == 0) return;  // an empty vector's data() may be null
    const auto* p = static_cast<const uint8_t*>(data);
    m_out.insert(m_out.end(), p, p + n);
  }
  template <typename T>
  void Raw(const T& value) {
    Bytes(&value, sizeof(T));
  }
  std::vector<uint8_t>& bytes() { return m_out; }

 private:
  std::vector<uint8_t> m_out;
};

class ByteReader {
 public:
  ByteReader(const uint8_t* data, size_t size) : m_data(data), m_left(size) {}
  void Bytes(void* out, size_t n) {
    if (n == 0) return;  // an empty vector's data() may be null
    Need(n);
    std::memcpy(out, m_data, n);
    m_data += n;
    m_left -= n;
  }
  template <typename T>
  T Raw() {
    T value;
    Bytes(&value, sizeof(T));
    return value;
  }
  // A count of elements of `element_bytes` each (at least 1) that must fit in what is left.
  size_t Count(size_t element_bytes) {
    const auto n = Raw<uint64_t>();
    if (n > m_left / (element_bytes == 0 ? 1 : element_bytes)) {
      throw CacheDamaged("cache: a length of " + std::to_string(n) + " runs past the section");
    }
    return static_cast<size_t>(n);
  }
  size_t left() const { return m_left; }

 private:
  void Need(size_t n) const {
    if (n > m_left) throw CacheDamaged("cache: section ends early");
  }
  const uint8_t* m_data;
  size_t m_left;
};

// The packed columns' storage (a friend of PackedColumn and PackedTable).
struct PackedStorage {
  template <typename T>
  static void Save(ByteWriter& w, const store::PackedColumn<T>& c) {
    w.Raw<uint64_t>(c.m_size);
    w.Raw<uint64_t>(c.m_blocks.size());
    w.Bytes(c.m_blocks.data(), c.m_blocks.size() * sizeof(c.m_blocks[0]));
    w.Raw<uint64_t>(c.m_bits.size());
    w.Bytes(c.m_bits.data(), c.m_bits.size() * sizeof(uint64_t));
  }
  template <typename T>
  static void Load(ByteReader& r, store::PackedColumn<T>& c) {
    using Column = store::PackedColumn<T>;
    c.Clear();
    const auto size = r.Raw<uint64_t>();
    c.m_blocks.resize(r.Count(sizeof(typename Column::BlockHeader)));
    r.Bytes(c.m_blocks.data(), c.m_blocks.size() * sizeof(c.m_blocks[0]));
    c.m_bits.resize(r.Count(sizeof(uint64_t)));
    r.Bytes(c.m_bits.data(), c.m_bits.size() * sizeof(uint64_t));
    c.m_size = static_cast<size_t>(size);
    Check(c);
  }
  template <typename T>
  static void Save(ByteWriter& w, const store::PackedTable<T>& t);
  template <typename T>
  static void Load(ByteReader& r, store::PackedTable<T>& t);

 private:
  // The layout PackedColumn's reads rely on: one header per 64 values plus the sentinel, first
  // words rising by at most 64 (a block's width), the sentinel's word two words short of the end.
  template <typename T>
  static void Check(const store::PackedColumn<T>& c) {
    constexpr size_t kBlock = store::PackedColumn<T>::kBlock;
    if (c.m_size == 0) {
      if (!c.m_blocks.empty() || !c.m_bits.empty()) throw CacheDamaged("cache: bad empty column");
      return;
    }
    if (c.m_blocks.size() != (c.m_size + kBlock - 1) / kBlock + 1) {
      throw CacheDamaged("cache: packed column has the wrong number of blocks");
    }
    uint64_t word = 0;
    for (const auto& b : c.m_blocks) {
      if (b.word < word || b.word - word > 64) throw CacheDamaged("cache: bad packed block");
      word = b.word;
    }
    if (c.m_blocks.front().word != 0 || word + 2 != c.m_bits.size()) {
      throw CacheDamaged("cache: packed column's bits do not match its blocks");
    }
  }
};

template <typename T>
void Save(ByteWriter& w, const T& value);
template <typename T>
void Load(ByteReader& r, T& value);

namespace serialize_detail {

template <typename T>
struct IsVector : std::false_type {};
template <typename T, typename A>
struct IsVector<std::vector<T, A>> : std::true_type {};
template <typename T>
struct IsArray : std::false_type {};
template <typename T, size_t N>
struct IsArray<std::array<T, N>> : std::true_type {};
template <typename T>
struct IsMap : std::false_type {};
template <typename K, typename V, typename C, typename A>
struct IsMap<std::map<K, V, C, A>> : std::true_type {};
template <typename T>
struct IsOptional : std::false_type {};
template <typename T>
struct IsOptional<std::optional<T>> : std::true_type {};
template <typename T>
struct IsPair : std::false_type {};
template <typename A, typename B>
struct IsPair<std::pair<A, B>> : std::true_type {};
template <typename T>
struct IsTuple : std::false_type {};
template <typename... T>
struct IsTuple<std::tuple<T...>> : std::true_type {};
template <typename T>
struct IsPackedColumn : std::false_type {};
template <typename T>
struct IsPackedColumn<store::PackedColumn<T>> : std::true_type {};
template <typename T>
struct IsPackedTable : std::false_type {};
template <typename T>
struct IsPackedTable<store::PackedTable<T>> : std::true_type {};

// Numbers and enums: copied as they are, and whole vectors of them in one copy.
template <typename T>
constexpr bool kScalar = std::is_arithmetic_v<T> || std::is_enum_v<T>;

template <typename Tuple>
struct AllFlat;

// Flat: a number, an enum, or a plain struct / std::array of flat things (no pointer, no
// container), whose bytes are its value. A vector of flat elements is copied in one piece
// (padding included) instead of field by field.
template <typename T>
constexpr bool IsFlat() {
  if constexpr (std::is_same_v<T, bool>) {
    // Not flat: a bool's byte must be 0 or 1, which Load checks one by one (a file's cache is
    // as hostile as the rest of it; any other byte read as a bool is undefined behaviour).
    return false;
  } else if constexpr (kScalar<T>) {
    return true;
  } else if constexpr (IsArray<T>::value) {
    return IsFlat<typename T::value_type>();
  } else if constexpr (std::is_aggregate_v<T> && std::is_trivially_copyable_v<T> &&
                       !std::is_array_v<T> && !requires { T::kCacheFields; }) {
    return AllFlat<decltype(AggregateFields(std::declval<T&>()))>::value;
  } else {
    return false;
  }
}
template <typename... Field>
struct AllFlat<std::tuple<Field...>>
    : std::bool_constant<(IsFlat<std::remove_cvref_t<Field>>() && ...)> {};

constexpr uint64_t Mix(uint64_t h, uint64_t v) { return (h ^ v) * 0x100000001b3ULL + 0x9e37; }

template <typename T>
struct MemberType;
template <typename Class, typename Field>
struct MemberType<Field Class::*> {
  using type = Field;
};

template <typename T>
constexpr uint64_t LayoutHash();

template <typename... Field>
constexpr uint64_t FieldsHash(std::tuple<Field...>*) {
  uint64_t h = Mix(11, sizeof...(Field));
  ((h = Mix(h, LayoutHash<std::remove_cvref_t<Field>>())), ...);
  return h;
}
template <typename... Member>
constexpr uint64_t MembersHash(const std::tuple<Member...>&) {
  uint64_t h = Mix(12, sizeof...(Member));
  ((h = Mix(h, LayoutHash<typename MemberType<Member>::type>())), ...);
  return h;
}

// A number that changes when the shape of T's bytes does (a field added, removed or retyped,
// anywhere inside), so that a cache written by a build with other structs is never decoded.
template <typename T>
constexpr uint64_t LayoutHash() {
  if constexpr (kScalar<T>) {
    return Mix(Mix(Mix(1, sizeof(T)), std::is_signed_v<T> ? 1 : 0), std::is_enum_v<T> ? 1 : 0);
  } else if constexpr (std::is_same_v<T, std::string>) {
    return 3;
  } else if constexpr (IsVector<T>::value) {
    return Mix(2, LayoutHash<typename T::value_type>());
  } else if constexpr (IsArray<T>::value) {
    return Mix(Mix(4, std::tuple_size_v<T>), LayoutHash<typename T::value_type>());
  } else if constexpr (IsMap<T>::value) {
    return Mix(Mix(5, LayoutHash<typename T::key_type>()), LayoutHash<typename T::mapped_type>());
  } else if constexpr (IsOptional<T>::value) {
    return Mix(6, LayoutHash<typename T::value_type>());
  } else if constexpr (IsPair<T>::value) {
    return Mix(Mix(7, LayoutHash<typename T::first_type>()), LayoutHash<typename T::second_type>());
  } else if constexpr (IsTuple<T>::value) {
    return FieldsHash(static_cast<T*>(nullptr));
  } else if constexpr (IsPackedColumn<T>::value) {
    return Mix(8, LayoutHash<decltype(std::declval<T>()[0])>());
  } else if constexpr (IsPackedTable<T>::value) {
    return Mix(9, LayoutHash<decltype(std::declval<T>()[0])>());
  } else if constexpr (std::is_same_v<T, const store::TraceStore*>) {
    return 10;
  } else if constexpr (requires { T::kCacheFields; }) {
    return MembersHash(T::kCacheFields);
  } else {
    return FieldsHash(static_cast<decltype(AggregateFields(std::declval<T&>()))*>(nullptr));
  }
}

}  // namespace serialize_detail

using serialize_detail::LayoutHash;

template <typename T>
void Save(ByteWriter& w, const T& value) {
  using namespace serialize_detail;  // NOLINT
  if constexpr (kScalar<T>) {
    w.Raw(value);
  } else if constexpr (std::is_same_v<T, std::string>) {
    w.Raw<uint64_t>(value.size());
    w.Bytes(value.data(), value.size());
  } else if constexpr (IsVector<T>::value) {
    w.Raw<uint64_t>(value.size());
    if constexpr (IsFlat<typename T::value_type>()) {
      w.Bytes(value.data(), value.size() * sizeof(typename T::value_type));
    } else {
      for (const auto& element : value) Save(w, static_cast<const typename T::value_type&>(element));
    }
  } else if constexpr (IsArray<T>::value) {
    for (const auto& element : value) Save(w, element);
  } else if constexpr (IsMap<T>::value) {
    w.Raw<uint64_t>(value.size());
    for (const auto& [k, v] : value) {
      Save(w, k);
      Save(w, v);
    }
  } else if constexpr (IsOptional<T>::value) {
    w.Raw<uint8_t>(value.has_value() ? 1 : 0);
    if (value) Save(w, *value);
  } else if constexpr (IsPair<T>::value) {
    Save(w, value.first);
    Save(w, value.second);
  } else if constexpr (IsTuple<T>::value) {  // e.g. std::tie of the fields to save
    std::apply([&](const auto&... field) { (Save(w, field), ...); }, value);
  } else if constexpr (IsPackedColumn<T>::value || IsPackedTable<T>::value) {
    PackedStorage::Save(w, value);
  } else if constexpr (std::is_same_v<T, const store::TraceStore*>) {
    // The store a ReportData reads from is the one it is loaded next to: not part of the bytes.
  } else if constexpr (requires { T::kCacheFields; }) {  // a struct with a base class
    std::apply([&](auto... member) { (Save(w, value.*member), ...); }, T::kCacheFields);
  } else {
    static_assert(std::is_aggregate_v<T> && !std::is_pointer_v<T>,
                  "the trace cache saves numbers, strings, containers and plain aggregates");
    std::apply([&](const auto&... field) { (Save(w, field), ...); }, AggregateFields(value));
  }
}

template <typename T>
void Load(ByteReader& r, T& value) {
  using namespace serialize_detail;  // NOLINT
  if constexpr (std::is_same_v<T, bool>) {
    const auto byte = r.Raw<uint8_t>();
    if (byte > 1) throw CacheDamaged("cache: a flag of value " + std::to_string(byte));
    value = byte != 0;
  } else if constexpr (kScalar<T>) {
    value = r.Raw<T>();
  } else if constexpr (std::is_same_v<T, std::string>) {
    value.resize(r.Count(1));
    r.Bytes(value.data(), value.size());
  } else if constexpr (IsVector<T>::value) {
    using Element = typename T::value_type;
    if constexpr (IsFlat<Element>()) {
      value.resize(r.Count(sizeof(Element)));
      r.Bytes(value.data(), value.size() * sizeof(Element));
    } else {
      value.clear();
      value.resize(r.Count(1));  // every element takes at least a byte
      for (size_t i = 0; i < value.size(); ++i) {
        Element element{};
        Load(r, element);
        value[i] = std::move(element);
      }
    }
  } else if constexpr (IsArray<T>::value) {
    for (auto& element : value) Load(r, element);
  } else if constexpr (IsMap<T>::value) {
    value.clear();
    const size_t n = r.Count(1);
    for (size_t i = 0; i < n; ++i) {
      typename T::key_type k{};
      typename T::mapped_type v{};
      Load(r, k);
      Load(r, v);
      value.emplace(std::move(k), std::move(v));
    }
  } else if constexpr (IsOptional<T>::value) {
    value.reset();
    if (r.Raw<uint8_t>() != 0) {
      typename T::value_type inner{};
      Load(r, inner);
      value = std::move(inner);
    }
  } else if constexpr (IsPair<T>::value) {
    Load(r, value.first);
    Load(r, value.second);
  } else if constexpr (IsTuple<T>::value) {  // std::tie of the fields to load
    std::apply([&](auto&... field) { (Load(r, field), ...); }, value);
  } else if constexpr (IsPackedColumn<T>::value || IsPackedTable<T>::value) {
    PackedStorage::Load(r, value);
  } else if constexpr (std::is_same_v<T, const store::TraceStore*>) {
    value = nullptr;
  } else if constexpr (requires { T::kCacheFields; }) {
    std::apply([&](auto... member) { (Load(r, value.*member), ...); }, T::kCacheFields);
  } else {
    static_assert(std::is_aggregate_v<T> && !std::is_pointer_v<T>,
                  "the trace cache loads numbers, strings, containers and plain aggregates");
    std::apply([&](auto&... field) { (Load(r, field), ...); }, AggregateFields(value));
  }
}

template <typename T>
void PackedStorage::Save(ByteWriter& w, const store::PackedTable<T>& t) {
  w.Raw<uint64_t>(t.m_size);
  std::apply([&](const auto&... column) { (Save(w, column), ...); }, t.m_columns);
}

template <typename T>
void PackedStorage::Load(ByteReader& r, store::PackedTable<T>& t) {
  const auto size = r.Raw<uint64_t>();
  std::apply([&](auto&... column) { (Load(r, column), ...); }, t.m_columns);
  bool same = true;
  std::apply([&](const auto&... column) { ((same = same && column.size() == size), ...); },
             t.m_columns);
  if (!same) throw CacheDamaged("cache: packed table's columns differ in length");
  t.m_size = static_cast<size_t>(size);
}

// The bytes of one value, and the value back from bytes (throws CacheDamaged, also when bytes
// are left over).
template <typename T>
std::vector<uint8_t> ToBytes(const T& value) {
  ByteWriter w;
  Save(w, value);
  return std::move(w.bytes());
}
template <typename T>
void FromBytes(const uint8_t* data, size_t size, T&& value) {
  ByteReader r(data, size);
  Load(r, value);
  if (r.left() != 0) throw CacheDamaged("cache: section longer than what it holds");
}

}  // namespace core::cache
