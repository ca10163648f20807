// PackedTable: a read-only table of plain structs stored field by field, one PackedColumn per
// field, with O(1) random access to a row. Reading a row returns the struct by value.
//
// Why: the reconstruction holds millions of boxes whose fields are small or slowly changing
// numbers (ids of a few queues, indices that grow with time, timestamps microseconds apart). As
// structs they take 72-96 bytes each; packed in blocks of 64 they take a fifth of that.
//
//   struct Box {                                   PackedTable<Box>
//     int64_t id; TimeNs start; bool open;         id    [PackedColumn<int64_t>]
//     static constexpr auto kPackedFields =        start [PackedColumn<TimeNs>]
//         std::make_tuple(&Box::id, &Box::start,   open  [PackedColumn<bool>]
//                         &Box::open);
//   };
//
// A struct names each of its fields once in kPackedFields. A field left out of the list would
// silently read back as its default, so the table refuses to compile unless the list names as
// many distinct members as the struct has (counted by aggregate initialisation).
//
// Rows come back by value: `const Box& b = table[i];` and `for (const auto& b : table)` bind to
// the temporary; code cannot write into the table or keep the address of a row. Row reads are
// inlined, so `table[i].start` decodes the start column alone (the compiler drops the fields
// nobody reads); Get<&Box::start>(i) and Column<&Box::start>() say the same explicitly. The
// iterator reads rows the same way rather than decoding a block of 64 whole rows ahead, which
// would decode every field even for a loop that reads one. A search over a sorted field is
// fastest through the column: Column<&Box::start>().LowerBound(t).
//
// Building packs a block of 64 rows at a time, every field while those rows are in cache.
//
// Thread safety: the table is immutable after construction and holds no caches, so any number of
// threads may read it at once.
#pragma once

#include <algorithm>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/store/by_value_iterator.h"
#include "core/store/packed_column.h"

namespace core::store {
namespace packed_table_detail {

// Converts to any field type; only used in unevaluated brace initialisation to count fields.
struct AnyField {
  template <typename U>
  operator U() const;
};

// Number of fields of the aggregate T: the most initialisers T{...} accepts.
template <typename T, typename... Given>
constexpr size_t AggregateFieldCount() {
  if constexpr (requires { T{std::declval<Given>()..., AnyField{}}; }) {
    return AggregateFieldCount<T, Given..., AnyField>();
  } else {
    return sizeof...(Given);
  }
}

template <typename MemberPointer>
struct MemberTraits;
template <typename Class, typename Field>
struct MemberTraits<Field Class::*> {
  using ClassType = Class;
  using FieldType = Field;
};

template <typename A, typename B>
constexpr bool SameMember(A a, B b) {
  if constexpr (std::is_same_v<A, B>) {
    return a == b;
  } else {
    return false;
  }
}

// True when no member pointer appears twice in the tuple.
template <typename Tuple, size_t... I>
constexpr bool AllDistinct(const Tuple& fields, std::index_sequence<I...>) {
  size_t same = 0;
  auto count_equal_to = [&](auto member) {
    ((same += SameMember(member, std::get<I>(fields)) ? 1 : 0), ...);
  };
  (count_equal_to(std::get<I>(fields)), ...);
  return same == sizeof...(I);  // each member equals itself only
}

}  // namespace packed_table_detail

template <typename T>
class PackedTable {
  static constexpr auto kFields = T::kPackedFields;
  using Fields = std::remove_cv_t<decltype(kFields)>;
  static constexpr size_t kFieldCount = std::tuple_size_v<Fields>;
  using Indices = std::make_index_sequence<kFieldCount>;
  template <size_t I>
  using FieldType =
      typename packed_table_detail::MemberTraits<std::tuple_element_t<I, Fields>>::FieldType;
  template <size_t... I>
  static auto ColumnsOf(std::index_sequence<I...>) -> std::tuple<PackedColumn<FieldType<I>>...>;
  using Columns = decltype(ColumnsOf(Indices{}));

  static_assert(std::is_aggregate_v<T>, "PackedTable rows are plain aggregates");
  static_assert(std::is_trivially_copyable_v<T>, "PackedTable rows are plain data");
  static_assert(packed_table_detail::AllDistinct(kFields, Indices{}),
                "kPackedFields names a member twice");
  static_assert(packed_table_detail::AggregateFieldCount<T>() == kFieldCount,
                "kPackedFields must name every field of the struct (one is missing)");

  // Position of Member in kFields.
  template <auto Member>
  static constexpr size_t IndexOf() {
    size_t index = kFieldCount;
    [&]<size_t... I>(std::index_sequence<I...>) {
      ((packed_table_detail::SameMember(Member, std::get<I>(kFields)) ? (index = I) : 0), ...);
    }(Indices{});
    return index;
  }

 public:
  static constexpr size_t kBlock = PackedColumn<int64_t>::kBlock;

  PackedTable() = default;
  explicit PackedTable(const std::vector<T>& rows) { Assign(rows); }

  void Assign(const std::vector<T>& rows) {
    m_size = rows.size();
    AssignColumns(rows, Indices{});
  }

  size_t size() const { return m_size; }
  bool empty() const { return m_size == 0; }

  // Always inlined, so that a caller reading one or two fields of the row (`r.signals[s].executed`)
  // decodes only those: the compiler drops the decoding of fields nobody reads.
  [[gnu::always_inline]] T operator[](size_t i) const { return Row(i, Indices{}); }
  T front() const { return (*this)[0]; }
  T back() const { return (*this)[m_size - 1]; }

  // One field of row i, without decoding the others.
  template <auto Member>
  auto Get(size_t i) const {
    return Column<Member>()[i];
  }
  // The column of one field (a PackedColumn: indexable, iterable, searchable).
  template <auto Member>
  const auto& Column() const {
    constexpr size_t index = IndexOf<Member>();
    static_assert(index < kFieldCount, "not a field listed in kPackedFields");
    return std::get<index>(m_columns);
  }

  // Memory held, for the benchmarks.
  size_t HeapBytes() const {
    return std::apply([](const auto&... c) { return (size_t{0} + ... + c.HeapBytes()); },
                      m_columns);
  }

  // Yields rows by value; `it->field` reads through a copy of the row.
  using const_iterator = ByValueIterator<PackedTable, T>;
  using iterator = const_iterator;

  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, m_size}; }

  friend bool operator==(const PackedTable& a, const PackedTable& b) {
    return a.m_size == b.m_size && a.m_columns == b.m_columns;
  }
  // Field by field against plain rows (the structs need no operator== of their own).
  friend bool operator==(const PackedTable& a, const std::vector<T>& b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < b.size(); ++i) {
      if (!SameRow(a[i], b[i], Indices{})) return false;
    }
    return true;
  }

 private:
  friend struct core::cache::PackedStorage;
  // One pass over the rows, a block of 64 at a time: every field of the block is packed while
  // its rows are in cache (a pass per field would stream the whole vector once per field).
  template <size_t... I>
  void AssignColumns(const std::vector<T>& rows, std::index_sequence<I...>) {
    ((std::get<I>(m_columns).Clear(), std::get<I>(m_columns).Reserve(rows.size())), ...);
    for (size_t begin = 0; begin < rows.size(); begin += kBlock) {
      const size_t n = std::min(kBlock, rows.size() - begin);
      (AppendField<I>(rows.data() + begin, n), ...);
    }
    (std::get<I>(m_columns).Finish(), ...);
  }
  template <size_t I>
  void AppendField(const T* rows, size_t n) {
    FieldType<I> values[kBlock] = {};
    for (size_t i = 0; i < n; ++i) values[i] = rows[i].*std::get<I>(kFields);
    std::get<I>(m_columns).AppendBlock(values, n);
  }
  template <size_t... I>
  [[gnu::always_inline]] T Row(size_t i, std::index_sequence<I...>) const {
    T row;
    ((row.*std::get<I>(kFields) = std::get<I>(m_columns)[i]), ...);
    return row;
  }
  template <size_t... I>
  static bool SameRow(const T& a, const T& b, std::index_sequence<I...>) {
    return ((a.*std::get<I>(kFields) == b.*std::get<I>(kFields)) && ...);
  }

  size_t m_size = 0;
  Columns m_columns;
};

}  // namespace core::store
