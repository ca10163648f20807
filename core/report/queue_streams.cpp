#include "core/report/queue_streams.h"

namespace core::report {

std::string QueueStreams(const core::store::TraceStore& store, std::string_view queue_name) {
  return store.MetaOr("queue_streams." + std::string(queue_name), "");
}

std::string QueueStreamsSentence(const core::store::TraceStore& store,
                                 const std::vector<std::string>& queue_names) {
  std::string parts;
  for (const std::string& name : queue_names) {
    const std::string streams = QueueStreams(store, name);
    if (streams.empty()) continue;
    if (!parts.empty()) parts += "; ";
    parts.append(name).append(": ").append(streams);
  }
  if (parts.empty()) return "";
  return "Streams each hardware queue carried (packets per stream): " + parts + ".";
}

}  // namespace core::report
