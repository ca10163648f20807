// A small JSON document model for the reports: build a tree, print it, look keys up by path.
// Objects keep their keys in insertion order so the printed output has stable, readable keys.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace core::report {

class Json {
 public:
  enum class Type { kNull, kBool, kInt, kDouble, kString, kArray, kObject };

  Json() = default;
  Json(bool v) : m_type(Type::kBool), m_int(v) {}                   // NOLINT
  Json(int v) : m_type(Type::kInt), m_int(v) {}                     // NOLINT
  Json(int64_t v) : m_type(Type::kInt), m_int(v) {}                 // NOLINT
  Json(uint64_t v) : m_type(Type::kInt), m_int(static_cast<int64_t>(v)) {}  // NOLINT
  Json(uint32_t v) : m_type(Type::kInt), m_int(v) {}                // NOLINT
  Json(double v) : m_type(Type::kDouble), m_double(v) {}            // NOLINT
  Json(std::string v) : m_type(Type::kString), m_string(std::move(v)) {}  // NOLINT
  Json(const char* v) : m_type(Type::kString), m_string(v) {}       // NOLINT
  static Json Object() { Json j; j.m_type = Type::kObject; return j; }
  static Json Array() { Json j; j.m_type = Type::kArray; return j; }

  Type type() const { return m_type; }
  bool IsNumber() const { return m_type == Type::kInt || m_type == Type::kDouble || m_type == Type::kBool; }
  double Number() const { return m_type == Type::kDouble ? m_double : static_cast<double>(m_int); }
  int64_t Int() const { return m_type == Type::kDouble ? static_cast<int64_t>(m_double) : m_int; }
  const std::string& String() const { return m_string; }

  // Object: sets `key` (replacing an existing value). Returns the stored value.
  Json& Set(const std::string& key, Json value);
  // Array: appends. Returns the stored value.
  Json& Push(Json value);
  // Object member or nullptr.
  const Json* Find(std::string_view key) const;
  Json* FindMutable(std::string_view key);
  const std::vector<std::pair<std::string, Json>>& members() const { return m_members; }
  const std::vector<Json>& items() const { return m_items; }
  size_t size() const { return m_type == Type::kArray ? m_items.size() : m_members.size(); }

  // Pretty printed with `indent` spaces (0: one line).
  std::string Dump(int indent = 2) const;

 private:
  void DumpTo(std::string& out, int indent, int depth) const;

  Type m_type = Type::kNull;
  int64_t m_int = 0;
  double m_double = 0;
  std::string m_string;
  std::vector<Json> m_items;
  std::vector<std::pair<std::string, Json>> m_members;
};

// JSON string escaping (without the quotes).
std::string JsonEscape(std::string_view text);

// An array with one object per element of `rows`, each written by `fill(object, row)`.
template <class Rows, class Fill>
Json ObjectArray(const Rows& rows, Fill fill) {
  Json list = Json::Array();
  for (const auto& row : rows) {
    Json x = Json::Object();
    fill(x, row);
    list.Push(std::move(x));
  }
  return list;
}

// An array of the values of `values` (numbers, strings: anything a Json is made from).
template <class Values>
Json ValueArray(const Values& values) {
  Json list = Json::Array();
  for (const auto& v : values) list.Push(Json(v));
  return list;
}

}  // namespace core::report
