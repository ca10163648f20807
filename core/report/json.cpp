#include "core/report/json.h"

#include <cmath>

#include <fmt/format.h>

namespace core::report {

Json& Json::Set(const std::string& key, Json value) {
  m_type = Type::kObject;
  for (auto& [k, v] : m_members) {
    if (k == key) {
      v = std::move(value);
      return v;
    }
  }
  m_members.emplace_back(key, std::move(value));
  return m_members.back().second;
}

Json& Json::Push(Json value) {
  m_type = Type::kArray;
  m_items.push_back(std::move(value));
  return m_items.back();
}

const Json* Json::Find(std::string_view key) const {
  for (const auto& [k, v] : m_members) {
    if (k == key) return &v;
  }
  return nullptr;
}

Json* Json::FindMutable(std::string_view key) {
  for (auto& [k, v] : m_members) {
    if (k == key) return &v;
  }
  return nullptr;
}

std::string JsonEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
        } else {
          out += c;
        }
    }
  }
  return out;
}

std::string Json::Dump(int indent) const {
  std::string out;
  DumpTo(out, indent, 0);
  if (indent > 0) out += '\n';
  return out;
}

void Json::DumpTo(std::string& out, int indent, int depth) const {
  auto newline = [&](int d) {
    if (indent <= 0) return;
    out += '\n';
    out.append(static_cast<size_t>(indent * d), ' ');
  };
  switch (m_type) {
    case Type::kNull: out += "null"; break;
    case Type::kBool: out += m_int ? "true" : "false"; break;
    case Type::kInt: out += std::to_string(m_int); break;
    case Type::kDouble:
      if (std::isfinite(m_double)) out += fmt::format("{}", m_double);
      else out += "null";
      break;
    case Type::kString: out += '"' + JsonEscape(m_string) + '"'; break;
    case Type::kArray: {
      if (m_items.empty()) { out += "[]"; break; }
      // arrays of scalars stay on one line
      bool scalars = true;
      for (const Json& item : m_items) {
        if (item.m_type == Type::kArray || item.m_type == Type::kObject) scalars = false;
      }
      out += '[';
      for (size_t i = 0; i < m_items.size(); ++i) {
        if (i) out += scalars ? ", " : ",";
        if (!scalars) newline(depth + 1);
        m_items[i].DumpTo(out, indent, depth + 1);
      }
      if (!scalars) newline(depth);
      out += ']';
      break;
    }
    case Type::kObject: {
      if (m_members.empty()) { out += "{}"; break; }
      out += '{';
      for (size_t i = 0; i < m_members.size(); ++i) {
        if (i) out += ',';
        newline(depth + 1);
        out += '"' + JsonEscape(m_members[i].first) + "\":";
        if (indent > 0) out += ' ';
        m_members[i].second.DumpTo(out, indent, depth + 1);
      }
      newline(depth);
      out += '}';
      break;
    }
  }
}

}  // namespace core::report
