#include "app/gui/timeline/chain_overlay.h"

#include <algorithm>

namespace app::gui::timeline {
namespace {

using core::analysis::kNoIndex;
using core::analysis::PathStep;
using core::analysis::PathStepKind;

// Track index of each queue id and thread id (-1: no row).
struct TrackOf {
  std::vector<int> queue;
  std::vector<int> thread;
  int Of(const PathStep& s) const {
    const auto& by = s.thread != 0 ? thread : queue;
    const uint32_t id = s.thread != 0 ? s.thread : s.queue;
    return id < by.size() ? by[id] : -1;
  }
};

TrackOf TracksOf(const TimelineModel& model) {
  TrackOf out;
  for (size_t t = 0; t < model.tracks.size(); ++t) {
    const Track& track = model.tracks[t];
    if (track.kind != TrackKind::kQueue && track.kind != TrackKind::kThread) continue;
    auto& by = track.kind == TrackKind::kQueue ? out.queue : out.thread;
    if (by.size() <= track.id) by.resize(track.id + 1, -1);
    by[track.id] = static_cast<int>(t);
  }
  return out;
}

// The link the timeline draws for wait `wait` (a CPU wait when `cpu`), released at `to`.
bool LinkOfWait(const TimelineModel& model, uint32_t wait, bool cpu, TimeNs to, Link& out) {
  const auto& to_ts = model.links.Column<&Link::to_ts>();
  for (size_t i = to_ts.LowerBound(to); i < to_ts.size() && to_ts[i] == to; ++i) {
    const Link link = model.links[i];
    if (link.wait == wait && link.cpu == cpu) {
      out = link;
      return true;
    }
  }
  return false;
}

// The run lane of `track` that draws segment `segment` (starting at `start`); kNoIndex if none.
uint32_t RunLaneOf(const Track& track, uint32_t segment, TimeNs start) {
  for (size_t l = 0; l < track.lanes.size(); ++l) {
    const Lane& lane = track.lanes[l];
    if (lane.kind != LaneKind::kRunSegments) continue;
    for (size_t i = lane.start.LowerBound(start); i < lane.size() && lane.Start(i) == start; ++i) {
      if (lane.items[i] == segment) return static_cast<uint32_t>(l);
    }
  }
  return kNoIndex;
}

// A submit jump: from the submitting thread's mark row at the submission to the packet's first
// run segment at its start.
bool SubmitArrow(const state::Document& doc, const TrackOf& tracks, const PathStep& step,
                 ChainArrow& out) {
  const auto& r = doc.analysis.recon;
  if (step.packet == kNoIndex || step.packet >= r.packets.size()) return false;
  const core::analysis::Packet p = r.packets[step.packet];
  if (p.thread >= tracks.thread.size() || p.queue >= tracks.queue.size()) return false;
  if (p.segments == 0 || p.queue >= r.queues.size()) return false;
  const int from = tracks.thread[p.thread];
  const int to = tracks.queue[p.queue];
  if (from < 0 || to < 0) return false;
  const TimeNs start =
      r.queues[p.queue].segments.Get<&core::analysis::RunSegment::start>(p.first_segment);
  const uint32_t lane = RunLaneOf(doc.model.tracks[to], p.first_segment, start);
  if (lane == kNoIndex) return false;
  out = {step.start, start, from, to, static_cast<uint32_t>(doc.model.tracks[from].lanes.size()),
         lane};
  return true;
}

// The arrow of a step that jumped, when the timeline has both of its rows.
bool JumpArrow(const state::Document& doc, const TrackOf& tracks, const PathStep& step,
               ChainArrow& out) {
  if (step.kind == PathStepKind::kSubmit) return SubmitArrow(doc, tracks, step, out);
  const bool cpu = step.kind == PathStepKind::kCpuWait;
  Link link;
  if (step.wait == kNoIndex || !LinkOfWait(doc.model, step.wait, cpu, step.end, link)) {
    return false;
  }
  out = {link.from_ts, link.to_ts, link.from_track, link.to_track, link.from_lane, link.to_lane};
  return true;
}

}  // namespace

ChainOverlay BuildChainOverlay(const state::Document& doc, const state::SelectionChain& chain) {
  ChainOverlay overlay;
  overlay.generation = chain.generation;
  if (chain.path.steps.empty()) return overlay;
  const TrackOf tracks = TracksOf(doc.model);
  overlay.item_track = tracks.Of(chain.path.steps.back());
  for (const PathStep& step : chain.path.steps) {
    const int track = tracks.Of(step);
    if (track >= 0) overlay.bands.push_back({step.start, step.end, track});
    ChainArrow arrow;
    if (step.jumped && JumpArrow(doc, tracks, step, arrow)) overlay.arrows.push_back(arrow);
  }
  return overlay;
}

void FoldChain(const ChainOverlay& overlay, const LodView& view,
               const std::vector<uint8_t>& track_hidden, ChainDraw& out) {
  out.bands.clear();
  out.arrows.clear();
  if (view.end <= view.start || view.px_per_ns <= 0) return;
  auto shown = [&](int track) {
    return track >= 0 &&
           (static_cast<size_t>(track) >= track_hidden.size() || track_hidden[track] == 0);
  };
  std::vector<int> last_of_track;  // index into out.bands of each track's last band
  for (const ChainBand& b : overlay.bands) {
    if (b.end < view.start || b.start > view.end || !shown(b.track)) continue;
    const float x0 = static_cast<float>(view.ToPx(std::max(b.start, view.start)));
    const float x1 = static_cast<float>(view.ToPx(std::min(b.end, view.end)));
    if (last_of_track.size() <= static_cast<size_t>(b.track)) last_of_track.resize(b.track + 1, -1);
    int& last = last_of_track[b.track];
    if (last >= 0 && x0 <= out.bands[last].x1 + 1.0f) {
      out.bands[last].x1 = std::max(out.bands[last].x1, x1);
      continue;
    }
    last = static_cast<int>(out.bands.size());
    out.bands.push_back({b.track, x0, x1});
  }
  for (const ChainArrow& a : overlay.arrows) {
    if (a.from_ts > view.end || a.to_ts < view.start) continue;
    if (!shown(a.from_track) || !shown(a.to_track)) continue;
    out.arrows.push_back(
        {a, static_cast<float>(view.ToPx(a.from_ts)), static_cast<float>(view.ToPx(a.to_ts))});
  }
}

}  // namespace app::gui::timeline
