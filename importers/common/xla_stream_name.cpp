#include "importers/common/xla_stream_name.h"

#include <charconv>

namespace importers::xla {

int64_t StreamNumber(std::string_view stream_name) {
  if (!IsStreamName(stream_name)) return -1;
  stream_name.remove_prefix(kStreamPrefix.size());
  int64_t n = -1;
  std::from_chars(stream_name.data(), stream_name.data() + stream_name.size(), n);
  return n;
}

core::model::QueueType StreamType(std::string_view stream_name) {
  const size_t open = stream_name.find('(');
  if (open == std::string_view::npos) return core::model::QueueType::kCompute;
  std::string_view kinds = stream_name.substr(open + 1);
  kinds = kinds.substr(0, kinds.find(')'));
  bool any = false;
  while (!kinds.empty()) {
    const size_t comma = kinds.find(',');
    std::string_view kind = kinds.substr(0, comma);
    while (!kind.empty() && kind.front() == ' ') kind.remove_prefix(1);
    if (!kind.starts_with("Memcpy") && !kind.starts_with("Memset")) {
      return core::model::QueueType::kCompute;
    }
    any = true;
    kinds = comma == std::string_view::npos ? std::string_view() : kinds.substr(comma + 1);
  }
  return any ? core::model::QueueType::kCopy : core::model::QueueType::kCompute;
}

}  // namespace importers::xla
