#include "app/gui/timeline/vsync_lines.h"

#include <map>

#include "app/gui/timeline/timeline_model.h"

namespace app::gui::timeline {

VsyncLines BuildVsyncLines(const core::store::TraceStore& store, const std::vector<Track>& tracks) {
  VsyncLines lines;
  std::map<uint32_t, int> index_of_adapter;
  for (const Track& track : tracks) {
    // The Display group's rows: one per adapter (track.id), its markers in one lane.
    if (track.kind != TrackKind::kInterrupts) continue;
    for (const MarkLane& marks : track.marks) {
      if (marks.kind != MarkKind::kMarkers) continue;
      std::vector<core::model::TimeNs> ts;
      for (size_t i = 0; i < marks.size(); ++i) {
        if (marks.marker_type[i] == kMarkerVsync) ts.push_back(marks.Time(i));
      }
      if (ts.empty()) continue;
      auto [it, fresh] =
          index_of_adapter.try_emplace(track.id, static_cast<int>(lines.adapters.size()));
      if (fresh) {
        lines.adapters.push_back({track.id, {}});
        lines.adapters.back().ts.Assign(ts);
      }
    }
  }
  lines.adapter_of_track.assign(tracks.size(), -1);
  if (lines.adapters.empty()) return lines;
  for (size_t t = 0; t < tracks.size(); ++t) {
    uint32_t adapter = 0;
    if (tracks[t].kind == TrackKind::kQueue) {
      const auto* queue = store.FindQueue(tracks[t].id);
      adapter = queue ? queue->adapter : 0;
    } else if (tracks[t].kind == TrackKind::kInterrupts) {
      adapter = tracks[t].id;
    }
    if (auto it = index_of_adapter.find(adapter); it != index_of_adapter.end()) {
      lines.adapter_of_track[t] = it->second;
    }
  }
  return lines;
}

size_t VsyncLines::HeapBytes() const {
  size_t bytes =
      adapters.capacity() * sizeof(AdapterVsyncs) + adapter_of_track.capacity() * sizeof(int);
  for (const auto& a : adapters) bytes += a.ts.HeapBytes();
  return bytes;
}

}  // namespace app::gui::timeline
